"""Accumulate scored hands into fan-statistics counters (see :mod:`mjstats.studies.fanstats`).

The counters are plain int64 arrays owned by the caller (one set per chunk), so
chunks never share memory and the merge is an exact integer sum. The kernels
allocate nothing and are compiled without reference counting (``hjit``): they
run once per hand and take a dozen arrays and views.
"""

from __future__ import annotations

import numpy as np

from mjstats.kernels._jit import hjit

__all__ = [
    "TOTAL_BINS",
    "accumulate_chunk",
    "accumulate_score",
    "chunk_counters",
    "empty_counters",
    "sum_counters",
]

#: Histogram bins for fan totals; MCR's largest possible total is far below this,
#: so no total is ever clipped and means/variances derived from the histogram are exact.
TOTAL_BINS = 1024


@hjit
def accumulate_score(
    fan_counts,
    total,
    flower_points,
    form,
    self_drawn,
    legal,
    weight,
    hands,
    complete,
    legal_count,
    fan_count,
    cooccurrence,
    total_hist,
    base_hist,
    form_count,
):
    """Add one scored hand to the counters.

    Parameters
    ----------
    fan_counts : uint8 (F,)
        How many times each fan counts in the best score.
    total : int
        Total including flowers; negative when the hand is not complete.
    flower_points : int
        Points from flowers included in ``total``.
    form : int
        Form code of the best reading (ruleset-specific).
    self_drawn : bool
        Win type, for the payment histograms.
    legal : bool
        Meets the ruleset's minimum.
    weight : int
        How many hands this one stands for: 1 in Monte Carlo studies, the number
        of deals giving this hand (times the win-tile multiplicity) in exact ones.
    hands, complete, legal_count : int64 (1,)
        Counters of hands seen, complete hands and legal hands.
    fan_count : int64 (F,)
        Sum of fan counts.
    cooccurrence : int64 (F, F)
        Hands containing both fans (the diagonal: hands containing the fan).
    total_hist : int64 (2, TOTAL_BINS)
        Totals with flowers, row 0 discard wins, row 1 self-drawn wins.
    base_hist : int64 (TOTAL_BINS,)
        Totals without flowers.
    form_count : int64 (K,)
        Complete hands by form.
    """
    hands[0] += weight
    if total < 0:
        return
    complete[0] += weight
    if legal:
        legal_count[0] += weight
    nf = fan_counts.shape[0]
    for a in range(nf):
        ca = fan_counts[a]
        if ca == 0:
            continue
        fan_count[a] += ca * weight
        for b in range(a, nf):
            if fan_counts[b] != 0:
                cooccurrence[a, b] += weight
                if b != a:
                    cooccurrence[b, a] += weight
    t = min(total, TOTAL_BINS - 1)
    total_hist[1 if self_drawn else 0, t] += weight
    base_hist[min(total - flower_points, TOTAL_BINS - 1)] += weight
    form_count[form] += weight


def empty_counters(n_fans: int, n_forms: int) -> dict[str, np.ndarray]:
    """Fresh zeroed counters for :func:`accumulate_score`."""
    return {
        "hands": np.zeros(1, np.int64),
        "complete": np.zeros(1, np.int64),
        "legal": np.zeros(1, np.int64),
        "fan_count": np.zeros(n_fans, np.int64),
        "cooccurrence": np.zeros((n_fans, n_fans), np.int64),
        "total_hist": np.zeros((2, TOTAL_BINS), np.int64),
        "base_hist": np.zeros(TOTAL_BINS, np.int64),
        "form_count": np.zeros(n_forms, np.int64),
    }


def chunk_counters(n_chunks: int, n_fans: int, n_forms: int) -> tuple[np.ndarray, ...]:
    """Counters for :func:`accumulate_score`, one slice per chunk along axis 0.

    Returned as a tuple in the argument order of :func:`accumulate_score`
    (``hands, complete, legal_count, fan_count, cooccurrence, total_hist,
    base_hist, form_count``) so kernels can take it as one argument.
    """
    z = empty_counters(n_fans, n_forms)
    return tuple(np.zeros((n_chunks, *v.shape), np.int64) for v in z.values())


def sum_counters(counters: tuple[np.ndarray, ...]) -> dict[str, np.ndarray]:
    """Merge per-chunk counters (sum over axis 0) into the named dict of :func:`empty_counters`."""
    names = (
        "hands",
        "complete",
        "legal",
        "fan_count",
        "cooccurrence",
        "total_hist",
        "base_hist",
        "form_count",
    )
    return {name: arr.sum(axis=0) for name, arr in zip(names, counters, strict=True)}


@hjit
def accumulate_chunk(fc, c, fan_counts, total, flower_points, form, self_drawn, legal, weight):
    """:func:`accumulate_score` into chunk ``c`` of the counter tuple ``fc``."""
    accumulate_score(
        fan_counts,
        total,
        flower_points,
        form,
        self_drawn,
        legal,
        weight,
        fc[0][c],
        fc[1][c],
        fc[2][c],
        fc[3][c],
        fc[4][c],
        fc[5][c],
        fc[6][c],
        fc[7][c],
    )
