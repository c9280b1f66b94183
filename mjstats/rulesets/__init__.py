"""Rulesets, one package each: ``mjstats.rulesets.mcr``, ``mjstats.rulesets.two_player``.

A ruleset package holds everything about its game variant:

``fans.py``
    The fan table (:class:`~mjstats.rulesets.base.FanDef`: key, zh, en, points,
    excludes) in column order, its options and the module-level ``RULESET``
    (a frozen :class:`~mjstats.rulesets.base.Ruleset`). Its kernel takes fan
    ids, points and the 不计 pass from this table.
``binding.py``
    What generic code asks instead of branching on the ruleset's name
    (``Ruleset.binding`` names it, ``Ruleset.kernel`` imports it):

    - ``RULESET_ID``: the id :func:`mjstats.kernels.scoring.score_one` dispatches on;
    - ``opts(rs)``: the kernel's options mask for ruleset ``rs``;
    - ``score_rows``: the batch kernel; ``BATCH_FIELDS`` the ``HandBatch`` fields it
      takes after (concealed, melds, win_tile), then the options mask when
      ``TAKES_OPTS``, then minimum, flowers-count flag, outputs and the suit table;
    - ``check_context(arrays, batch=...)``: the ruleset's own context validation
      (raising :class:`~mjstats.errors.InvalidContextError` and the like).
``validation.py`` (optional)
    Context validation too long to sit in the binding.

Adding a ruleset: make a package like these, register its name in
``mjstats.rules._MODULES``, and give its kernel an id branch in
:func:`mjstats.kernels.scoring.score_one` and a one-hand entry in
:data:`mjstats.kernels.scoring.SINGLE_ENTRIES` (what :func:`mjstats.score`
calls; numba cannot cache kernels that take other jitted functions as
arguments, so the numba dispatch is by integer id).
Nothing else changes: ``score``, ``score_batch``, the studies, records and the
CLI read the fan table and the binding.
"""
