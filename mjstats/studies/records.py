"""Real records as a study: the fan statistics of the wins of a record set, as an
:class:`~mjstats.studies.aggregate.Aggregate` that merges and reports like any
study's (``mjstats records PATH --out``, :mod:`mjstats.report`).
"""

from __future__ import annotations

import numpy as np

from mjstats.kernels.accumulate import TOTAL_BINS, empty_counters
from mjstats.records import RecordSet, botzone_ruleset
from mjstats.records.check import score_records
from mjstats.rulesets import Ruleset, get_ruleset
from mjstats.studies.aggregate import Aggregate

__all__ = ["records_aggregate"]


def records_aggregate(records: RecordSet, ruleset: Ruleset | str | None = None) -> Aggregate:
    """Fan statistics of the real wins, as a study aggregate of kind ``"records"``.

    Every win is one hand, scored with ``ruleset`` (default
    :func:`botzone_ruleset`); its real win type (self-drawn, or on a discard,
    robbing a kong included: the konger pays like a discarder) goes to the
    payment histograms. The counters are those of
    :func:`mjstats.kernels.accumulate.accumulate_score` plus ``games``,
    ``drawn``, ``aborted`` and ``bad`` (the record counts), so aggregates of
    several files merge with ``+``.

    Examples
    --------
    >>> from mjstats.records import read_botzone
    >>> from mjstats.records.check import _DEMO_GAME
    >>> from mjstats.report import payments
    >>> agg = records_aggregate(read_botzone(_DEMO_GAME))
    >>> agg.kind, int(agg["complete"][0]), int(agg["games"][0])
    ('records', 1, 1)
    >>> payments(agg)[["win", "hands", "mean_payment"]].head(2)
              win  hands  mean_payment
    0     discard      1          44.0
    1  self-drawn      0           NaN
    """
    rs = botzone_ruleset() if ruleset is None else get_ruleset(ruleset)
    scored = score_records(records, rs)
    n_forms = len(rs.forms)
    c = empty_counters(rs.n_fans, n_forms)
    ok = scored.total >= 0
    fc = scored.fan_counts[ok].astype(np.int64)
    present = (fc > 0).astype(np.int64)
    total = scored.total[ok].astype(np.int64)
    try:
        flower_points = fc[:, rs.fan_id("flower_tiles")] * int(rs.points[rs.fan_id("flower_tiles")])
    except KeyError:
        flower_points = np.zeros(len(total), np.int64)
    drawn = np.asarray(records.batch.self_drawn, bool)[ok].astype(np.int64)
    c["hands"][0] = len(scored.total)
    c["complete"][0] = int(ok.sum())
    c["legal"][0] = int(scored.legal.sum())
    c["fan_count"] += fc.sum(axis=0)
    c["cooccurrence"] += present.T @ present
    np.add.at(c["total_hist"], (drawn, np.minimum(total, TOTAL_BINS - 1)), 1)
    np.add.at(c["base_hist"], np.minimum(total - flower_points, TOTAL_BINS - 1), 1)
    c["form_count"] += np.bincount(scored.form[ok], minlength=n_forms)[:n_forms]
    for name in ("games", "drawn", "aborted", "bad"):
        c[name] = np.array([getattr(records, name)], np.int64)
    params = {"ruleset": rs.spec, "options": dict(rs.options)}
    meta = {"sources": sorted(set(records.recorded["source"]))}
    return Aggregate("records", params, c, meta)
