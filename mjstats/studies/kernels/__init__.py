"""The studies' numba kernels, one module per study or generator.

Each is the compiled half of a study in :mod:`mjstats.studies` (the Python
half holds the parameters, chunks and aggregates): ``dealt`` (random deals),
``sample`` (exactly sampled complete hands), ``exact`` (every complete hand,
and the exact profile diff's chunks over ``profile_diff``), ``generate_wins``
(the coverage generator), ``patterns`` (the fan patterns counted per hand).
They build on the shared primitives of :mod:`mjstats.kernels` and score
through :func:`mjstats.rulesets.dispatch.score_one`.
"""
