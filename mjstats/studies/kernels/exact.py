"""Kernels of the ``exact`` study (:mod:`mjstats.studies.exact`) and of the
exact profile diff (``mjstats rules diff --exact``).

The enumeration's hand ``i`` is decoded by :func:`_exact_hand` (regular, then
seven pairs not regular, then the special rows); :func:`exact_chunks` scores
every hand on each of its winning tile kinds into the chunk counters,
:func:`diff_chunks` into the diff counters of
:mod:`mjstats.studies.kernels.profile_diff`, both with the chunks in parallel.
:func:`decode_range` gives the hands themselves, :func:`seven_pairs_weights`
the deal weight of the seven-pairs hands that are not regular.
"""

from __future__ import annotations

import numba
import numpy as np

from mjstats._readonly import read_only
from mjstats.kernels._jit import ijit, jit, pjit
from mjstats.kernels.accumulate import accumulate_chunk
from mjstats.kernels.decompose import is_regular_complete
from mjstats.rulesets.dispatch import new_scratch, score_one
from mjstats.studies.kernels.patterns import decode_hand
from mjstats.studies.kernels.profile_diff import new_diff_work, score_wins_both

__all__ = ["C4", "decode_range", "diff_chunks", "exact_chunks", "seven_pairs_weights"]

#: C(4, count): the deal weight of a kind held ``count`` times
C4 = np.array([1, 4, 6, 4, 1], dtype=np.int64)
C4 = read_only(C4)


@jit
def _score_all_wins(spec, counts, melds, weight, scratch, fan_out, fc, c):
    """Score ``counts`` once per distinct winning tile kind; returns False if not complete."""
    for t in range(34):
        k = counts[t]
        if k == 0:
            continue
        total, nfl, form, legal = score_one(
            spec[0],
            spec[1],
            spec[2],
            spec[3],
            counts,
            melds,
            t,
            True,
            False,
            False,
            False,
            0,
            0,
            0,
            0,
            scratch,
            fan_out,
        )
        if total < 0:
            return False
        accumulate_chunk(fc, c, fan_out, total, nfl, form, True, legal, weight * k)
    return True


@ijit
def _exact_hand(i, n_regular, n_pairs, reg, prs, special, counts):
    """Write hand ``i`` of the enumeration (regular, then seven pairs, then the
    special rows) into ``counts``; return its deal weight, or 0 for a seven-pairs
    hand that is regular (counted with the regular ones)."""
    if i < n_regular:
        return decode_hand(i, *reg, counts)
    if i < n_regular + n_pairs:
        weight = decode_hand(i - n_regular, *prs, counts)
        return np.int64(0) if is_regular_complete(counts) else weight
    row = special[i - n_regular - n_pairs]
    weight = np.int64(1)
    for t in range(34):
        counts[t] = row[t]
        weight *= C4[row[t]]
    return weight


@jit
def _exact_chunk(lo, hi, n_regular, n_pairs, reg, prs, special, spec, table, n_fans, fc, extra, c):
    counts = np.zeros(34, np.uint8)
    melds = np.zeros((4, 2), np.uint8)
    fan_out = np.zeros(n_fans, np.uint8)
    scratch = new_scratch(table)
    for i in range(lo, hi):
        weight = _exact_hand(i, n_regular, n_pairs, reg, prs, special, counts)
        if weight == 0:
            continue
        extra[c, 0] += 1
        extra[c, 1] += weight
        if not _score_all_wins(spec, counts, melds, weight, scratch, fan_out, fc, c):
            extra[c, 2] += 1


@pjit
def exact_chunks(los, his, n_regular, n_pairs, reg, prs, special, spec, table, n_fans, fc, extra):
    for c in numba.prange(los.shape[0]):
        _exact_chunk(
            los[c],
            his[c],
            n_regular,
            n_pairs,
            reg,
            prs,
            special,
            spec,
            table,
            n_fans,
            fc,
            extra,
            np.int64(c),
        )


@jit
def _diff_chunk(lo, hi, n_regular, n_pairs, reg, prs, special, spec, table, n_fans, dc, c):
    """:func:`_exact_chunk` scoring each hand under two profiles (``spec``: see
    :func:`mjstats.studies.kernels.profile_diff.score_wins_both`) into the diff
    counters ``dc`` (:func:`~mjstats.studies.kernels.profile_diff.diff_counters`)."""
    counts = np.zeros(34, np.uint8)
    work = new_diff_work(table, n_fans)
    acc, keys, info, slots, ex = dc[0][c], dc[1][c], dc[2][c], dc[3][c], dc[4][c]
    for i in range(lo, hi):
        weight = _exact_hand(i, n_regular, n_pairs, reg, prs, special, counts)
        if weight == 0:
            continue
        acc[0] += 1  # distinct, deal_weight, unscored: profile_diff.ACC_NAMES
        acc[1] += weight
        if not score_wins_both(counts, weight, spec, work, acc, keys, info, slots, ex):
            acc[2] += 1


@pjit
def diff_chunks(los, his, n_regular, n_pairs, reg, prs, special, spec, table, n_fans, dc):
    for c in numba.prange(los.shape[0]):
        _diff_chunk(
            los[c],
            his[c],
            n_regular,
            n_pairs,
            reg,
            prs,
            special,
            spec,
            table,
            n_fans,
            dc,
            np.int64(c),
        )


@jit
def decode_range(lo, hi, n_regular, n_pairs, reg, prs, special, counts, weights):
    """The hands ``lo`` to ``hi - 1`` of the enumeration into ``counts`` and
    ``weights`` (rows in order, skipped hands left out); returns how many."""
    n = 0
    for i in range(lo, hi):
        w = _exact_hand(i, n_regular, n_pairs, reg, prs, special, counts[n])
        if w:
            weights[n] = w
            n += 1
    return n


@pjit
def seven_pairs_weights(n, arrays):
    """Deal weight of the seven-pairs hands that are not regular: (all, without a quad)."""
    n_blocks = 64
    part = np.zeros((n_blocks, 2), np.int64)
    step = (n + n_blocks - 1) // n_blocks
    for b in numba.prange(n_blocks):
        counts = np.zeros(34, np.uint8)
        for i in range(b * step, min(n, (b + 1) * step)):
            w = decode_hand(i, *arrays, counts)
            if is_regular_complete(counts):
                continue
            part[b, 0] += w
            quad = False
            for t in range(34):
                if counts[t] == 4:
                    quad = True
            if not quad:
                part[b, 1] += w
    return part.sum(axis=0)
