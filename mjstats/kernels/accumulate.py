"""Accumulate scored hands into fan-statistics counters (see :mod:`mjstats.studies.fanstats`).

The counters are plain int64 arrays owned by the caller (one set per chunk), so
chunks never share memory and the merge is an exact integer sum. The kernels
allocate nothing and are compiled without reference counting (``hjit``): they
run once per hand and take a dozen arrays and views.
"""

from __future__ import annotations

import numpy as np

from mjstats.kernels._jit import hjit, ijit
from mjstats.kernels.bits import popcount

__all__ = [
    "MAX_FANS",
    "TOTAL_BINS",
    "accumulate_chunk",
    "accumulate_score",
    "chunk_counters",
    "empty_counters",
    "sum_counters",
]

#: Most fans a ruleset may have (the counter kernel keeps a hand's fans in 128 bits).
MAX_FANS = 128

#: Histogram bins for fan totals; MCR's largest possible total is far below this,
#: so no total is ever clipped and means/variances derived from the histogram are exact.
TOTAL_BINS = 1024


@ijit
def _lowest_bit(m):
    """Index of the lowest set bit of a non-zero uint64."""
    below = (m & (~m + np.uint64(1))) - np.uint64(1)  # ones under the lowest set bit
    return popcount(np.int64(below))


@ijit
def _next_fan(m, w, hi):
    """One step of a walk over a two-word fan set: ``m`` is what is left of word
    ``w`` (0 low, 1 high, ``hi``). Returns ``(fan, m, w)`` after taking the
    lowest fan left, or ``(-1, m, w)`` at the end."""
    if m == 0 and w == 0:
        m = hi
        w = 1
    if m == 0:
        return -1, m, w
    return 64 * w + _lowest_bit(m), m & (m - np.uint64(1)), w


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
    # the hand's fans, a handful of the F (<= MAX_FANS), as a two-word bit set
    # (branch-free: which fans a hand has is unpredictable); then every pair of
    # them, k * k steps rather than k * F
    nf = fan_counts.shape[0]
    for a in range(nf):
        fan_count[a] += fan_counts[a] * weight
    lo = np.uint64(0)
    hi = np.uint64(0)
    for a in range(min(nf, 64)):
        lo |= np.uint64(fan_counts[a] != 0) << np.uint64(a)
    for a in range(64, nf):
        hi |= np.uint64(fan_counts[a] != 0) << np.uint64(a - 64)
    ma, wa = lo, 0
    while True:
        a, ma, wa = _next_fan(ma, wa, hi)
        if a < 0:
            break
        cooccurrence[a, a] += weight
        mb, wb = ma, wa  # the fans after a
        while True:
            b, mb, wb = _next_fan(mb, wb, hi)
            if b < 0:
                break
            cooccurrence[a, b] += weight
            cooccurrence[b, a] += weight
    t = min(total, TOTAL_BINS - 1)
    total_hist[1 if self_drawn else 0, t] += weight
    base_hist[min(total - flower_points, TOTAL_BINS - 1)] += weight
    form_count[form] += weight


def empty_counters(n_fans: int, n_forms: int) -> dict[str, np.ndarray]:
    """Fresh zeroed counters for :func:`accumulate_score`."""
    if not 0 < n_fans <= MAX_FANS:
        raise ValueError(f"n_fans must be 1-{MAX_FANS} (the counter kernel's limit), got {n_fans}")
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
