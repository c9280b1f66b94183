"""Kernels of the ``dealt`` study (:mod:`mjstats.studies.dealt`).

Deals from the wall, shanten, useful tiles and fans of the complete deals.

:func:`dealt_chunks` runs the chunks of a study in parallel; each chunk deals
its hands with :func:`_deal` from its own generator. :func:`deal_prefix` is
the same draw callable from Python (the tests check its uniformity with it).
"""

from __future__ import annotations

import numba
import numpy as np

from mjstats.kernels._jit import ijit, jit, pjit
from mjstats.kernels.accumulate import accumulate_chunk
from mjstats.kernels.rng import step
from mjstats.kernels.shanten import IMPOSSIBLE, discard_one, shanten_one, useful_one
from mjstats.rulesets.dispatch import new_scratch, score_one

__all__ = ["deal_prefix", "dealt_chunks"]

_MASK32 = np.uint64(0xFFFFFFFF)


@ijit
def _deal(s0, s1, s2, s3, wall, k, counts):
    """Partial Fisher-Yates: ``wall[:k]`` becomes a uniform draw; adds the tiles to ``counts``.

    Each position ``i`` swaps in a uniform position of ``[i, len(wall))``,
    drawn with Lemire's multiply-shift from 32 random bits ("Fast random
    integer generation in an interval", 2019): exact, with a division only in
    the rare case ``low < n``. Each 64-bit output serves two positions (high
    half, then low half); a rejected draw takes the high half of a new output.
    The rest of ``wall`` keeps the undrawn tiles, so the next deal can start
    from the permuted wall (any order of the wall gives a uniform draw).
    Returns the new state.
    """
    n = wall.shape[0]
    last = min(k, n - 1)
    r = np.uint64(0)
    for i in range(last):
        if i % 2 == 0:
            r, s0, s1, s2, s3 = step(s0, s1, s2, s3)
            x = r >> np.uint64(32)
        else:
            x = r & _MASK32
        un = np.uint64(n - i)
        m = x * un
        low = m & _MASK32
        if low < un:
            threshold = (np.uint64(0x100000000) - un) % un
            while low < threshold:
                r2, s0, s1, s2, s3 = step(s0, s1, s2, s3)
                m = (r2 >> np.uint64(32)) * un
                low = m & _MASK32
        j = i + np.int64(m >> np.uint64(32))
        t = wall[j]
        wall[j] = wall[i]
        wall[i] = t
        counts[t] += 1
    for i in range(last, k):  # k == len(wall): the last tile is forced
        counts[wall[i]] += 1
    return s0, s1, s2, s3


@jit
def deal_prefix(state, wall, k, counts):
    """Deal ``k`` tiles: ``wall[:k]`` becomes a uniform draw of the wall, added to ``counts``.

    ``state`` (uint64[4], a chunk's generator, see
    :func:`mjstats.kernels.rng.chunk_states`) is advanced in place. The
    ``dealt`` kernels use exactly this draw (see :func:`_deal`).

    Examples
    --------
    >>> import numpy as np
    >>> from mjstats.kernels.rng import chunk_states, step
    >>> wall = np.repeat(np.arange(34, dtype=np.uint8), 4)
    >>> counts = np.zeros(34, np.uint8)
    >>> deal_prefix(chunk_states(1, 0, 1)[0], wall, 14, counts)
    >>> int(counts.sum()), bool((np.bincount(wall, minlength=34) == 4).all())
    (14, True)
    """
    s0, s1, s2, s3 = _deal(state[0], state[1], state[2], state[3], wall, k, counts)
    state[0] = s0
    state[1] = s1
    state[2] = s2
    state[3] = s3


@ijit
def _useful_copies(counts, useful):
    kinds = 0
    copies = 0
    for t in range(34):
        if (useful >> t) & 1:
            kinds += 1
            copies += 4 - counts[t]
    return kinds, copies


@jit
def _dealt_chunk(
    state, n, n_tiles, wall_kinds, form_bits, all_forms, per_form, want_useful, tab, suits,
    spec, n_fans, shanten_hist, kinds_hist, copies_hist, fc, c,
):  # fmt: skip
    n_forms = form_bits.shape[0]
    any_row = shanten_hist.shape[0] - 1
    wall = wall_kinds.copy()
    counts = np.zeros(34, np.uint8)
    melds = np.zeros((4, 2), np.uint8)
    d_shanten = np.zeros(34, np.int8)
    d_useful = np.zeros(34, np.int64)
    fan_out = np.zeros(n_fans, np.uint8)
    scratch = new_scratch(suits)
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    for _ in range(n):
        s0, s1, s2, s3 = _deal(s0, s1, s2, s3, wall, n_tiles, counts)
        best = shanten_one(counts, 0, all_forms, tab)
        shanten_hist[any_row, best + 1] += 1
        if per_form:
            for f in range(n_forms):
                s = shanten_one(counts, 0, form_bits[f], tab)
                if s != IMPOSSIBLE:
                    shanten_hist[f, s + 1] += 1
        if want_useful and best >= 0:
            if n_tiles % 3 == 1:
                _, bits = useful_one(counts, 0, all_forms, tab)
                kinds, copies = _useful_copies(counts, bits)
            else:
                discard_one(counts, 0, all_forms, tab, d_shanten, d_useful)
                kinds = 0
                copies = -1
                for t in range(34):
                    if counts[t] and d_shanten[t] == best:
                        counts[t] -= 1
                        k, cp = _useful_copies(counts, d_useful[t])
                        counts[t] += 1
                        if cp > copies:
                            kinds, copies = k, cp
            kinds_hist[kinds] += 1
            copies_hist[copies] += 1
        if n_tiles == 14 and best == -1:
            total, nfl, form, legal = score_one(
                spec[0], spec[1], spec[2], spec[3], counts, melds, wall[13], True, False,
                False, False, 0, 0, 0, 0, scratch, fan_out,
            )  # fmt: skip
            accumulate_chunk(fc, c, fan_out, total, nfl, form, True, legal, 1)
        for j in range(n_tiles):
            counts[wall[j]] = 0
    state[0] = s0
    state[1] = s1
    state[2] = s2
    state[3] = s3


@pjit
def dealt_chunks(
    states, sizes, n_tiles, wall_kinds, form_bits, all_forms, per_form, want_useful, tab, suits,
    spec, n_fans, shanten_hist, kinds_hist, copies_hist, fc,
):  # fmt: skip
    for c in numba.prange(states.shape[0]):
        _dealt_chunk(
            states[c], sizes[c], n_tiles, wall_kinds, form_bits, all_forms, per_form,
            want_useful, tab, suits, spec, n_fans, shanten_hist[c], kinds_hist[c],
            copies_hist[c], fc, np.int64(c),
        )  # fmt: skip
