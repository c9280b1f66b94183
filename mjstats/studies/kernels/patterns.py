"""Decode and sample complete hands from group pattern tables (see :mod:`mjstats.studies.patterns`).

Arrays come from :meth:`mjstats.studies.patterns.BlockSpace.arrays`. Groups are
decoded honours first, then bamboo, dots and characters (mixed radix), so the
global index order is: block, then characters pattern, dots, bamboo, honours.

The kernels allocate nothing, so they are compiled without reference counting
(``hjit``): sampling calls them several times a hand with a dozen arrays.
"""

from __future__ import annotations

import numpy as np

from mjstats.kernels._jit import hjit
from mjstats.kernels.rng import randbelow

__all__ = ["decode_hand", "sample_hand"]


@hjit
def _put(counts, g, row, s_pat, h_pat):
    if g == 3:
        for r in range(7):
            counts[27 + r] = h_pat[row, r]
    else:
        for r in range(9):
            counts[9 * g + r] = s_pat[row, r]


@hjit
def decode_hand(
    i, blocks, offset, s_pat, s_w, s_start, s_size, h_pat, h_w, h_start, h_size, counts
):
    """Write hand number ``i`` of the space into ``counts`` (34,); return its deal weight."""
    b = np.searchsorted(offset, i, side="right") - 1
    local = i - offset[b]
    weight = np.int64(1)
    for g in range(3, -1, -1):
        cls = blocks[b, g]
        if g == 3:
            n = h_size[cls]
            row = h_start[cls] + local % n
            weight *= h_w[row]
        else:
            n = s_size[cls]
            row = s_start[cls] + local % n
            weight *= s_w[row]
        local //= n
        _put(counts, g, row, s_pat, h_pat)
    return weight


@hjit
def _pick(state, cum, lo, n):
    """Index in ``[lo, lo + n)`` drawn with probability proportional to the weights."""
    total = cum[lo + n - 1]
    u = randbelow(state, total)
    # first j with cum[j] > u
    return lo + np.searchsorted(cum[lo : lo + n], u, side="right")


@hjit
def sample_hand(
    state, block_cum, blocks, s_pat, s_cum, s_start, s_size, h_pat, h_cum, h_start, h_size, counts
):
    """Draw a hand of the space with probability proportional to its deal weight.

    ``block_cum`` is the inclusive prefix sum of the blocks' total weights. Each
    group's pattern is then drawn within its class in proportion to its weight,
    which gives the exact product distribution (no rejection).
    """
    b = _pick(state, block_cum, 0, block_cum.shape[0])
    for g in range(4):
        cls = blocks[b, g]
        if g == 3:
            row = _pick(state, h_cum, h_start[cls], h_size[cls])
        else:
            row = _pick(state, s_cum, s_start[cls], s_size[cls])
        _put(counts, g, row, s_pat, h_pat)
