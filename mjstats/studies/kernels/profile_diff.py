"""Score concealed self-drawn hands under two profiles of one ruleset at once, and
tabulate what changes: the kernel of ``mjstats rules diff --exact``.

The two profiles share every hand's readings. For an MCR hand the tile
summaries, the special-form checks, the regular decompositions and the
division-independent fans are made once per hand (none depends on the winning
tile or the profile); then, per winning tile, the unique-wait test once and
every reading is scored under each profile by the MCR kernel's own per-reading
functions (:func:`mjstats.rulesets.mcr.kernel._score_division`, ...), and each profile
keeps its best reading by the kernel's rule (a strictly higher total; on a tie
the reference's order, rule point ``best_reading_tie_order``). So each profile's
result is what :func:`mjstats.rulesets.mcr.kernel.score_hand` gives that hand, at the
cost of one decomposition. Another ruleset's hands are scored twice through
:func:`mjstats.rulesets.dispatch.score_one` (correct, not shared).

The hands are those of the exact study's convention (see
:mod:`mjstats.studies.exact`): no meld, self-drawn, every winning tile kind of
the hand in turn, no other flag, seat and round wind East, no flowers; each
(hand, winning tile) weighs its deal weight times the copies of the tile.

Counters (one set per chunk, int64, merged exactly by integer sums in Python):

* ``acc``: the scalars (:data:`ACC_NAMES`), then the histogram of the
  difference of the totals (``total_b - total_a + TOTAL_BINS - 1``), then per
  fan the weight of the hands where it counts more often under b (appears),
  then where it counts less often (disappears).
* kinds of difference (the vector of per-fan count changes b - a, as bytes in
  words): ``keys`` (rows: the key's words, then its hash), ``info`` (weight,
  examples kept), ``slots`` (an open-addressing table from hash to row, -1
  empty) and ``examples`` (per kind the first hands in enumeration order: 34
  tile counts, winning tile, total under a, total under b).
"""

from __future__ import annotations

import numpy as np

from mjstats.kernels._jit import hjit, jit
from mjstats.kernels.accumulate import TOTAL_BINS
from mjstats.kernels.bits import copy_tiles, tile_summary
from mjstats.kernels.decompose import (
    enumerate_regular,
    is_nine_gates,
)
from mjstats.kernels.legality import is_legal
from mjstats.rulesets import ruleset_id
from mjstats.rulesets.dispatch import new_scratch, score_one
from mjstats.rulesets.mcr import RULESET as _MCR_RULESET
from mjstats.rulesets.mcr import kernel as mcr

# MCR's kernel id and slot in new_scratch's tuple: the fast path below is MCR's
_MCR = ruleset_id(_MCR_RULESET.name)

__all__ = [
    "ACC_HEAD",
    "ACC_NAMES",
    "DELTA_BINS",
    "EXAMPLE_WIDTH",
    "KINDS",
    "diff_counters",
    "new_diff_work",
    "score_wins_both",
]

#: the scalar counters at the head of ``acc``; ``kinds`` and ``overflow`` are
#: per chunk (not summed)
ACC_NAMES = (
    "distinct",
    "deal_weight",
    "unscored",
    "complete",
    "legal_a",
    "legal_b",
    "sum_total_a",
    "sum_total_b",
    "differ",
    "kinds",
    "overflow",
)
_DISTINCT, _DEAL_WEIGHT, _UNSCORED, _COMPLETE, _LEGAL_A, _LEGAL_B = 0, 1, 2, 3, 4, 5
_SUM_A, _SUM_B, _DIFFER, _KINDS, _OVERFLOW = 6, 7, 8, 9, 10
#: where the histogram starts in ``acc`` (the scalars take the first entries)
ACC_HEAD = 16
#: bins of the histogram of total_b - total_a (from -(TOTAL_BINS - 1))
DELTA_BINS = 2 * TOTAL_BINS - 1
#: kinds of difference one chunk keeps (more: ``overflow``, and the caller raises)
KINDS = 512
_SLOTS = 2 * KINDS
#: an example row: 34 tile counts, the winning tile, the totals under a and b
EXAMPLE_WIDTH = 37

_H = np.uint64(0x8080808080808080)
_FNV_BASIS = np.uint64(0xCBF29CE484222325)
_FNV_PRIME = np.uint64(0x100000001B3)

# what the per-hand special-form checks found (as in mcr._score_hand's order)
_NONE = 0
_PAIRS = 1  # seven pairs: competes with the regular readings
_FINAL = 2  # seven shifted pairs, honours and knitted, thirteen orphans: the hand's only reading


def diff_counters(n_chunks: int, n_fans: int, examples: int) -> tuple[np.ndarray, ...]:
    """Zeroed diff counters for ``n_chunks`` chunks: ``(acc, keys, info, slots,
    examples)``, each with the chunk on axis 0 (module docstring)."""
    n_words = (n_fans + 7) // 8
    return (
        np.zeros((n_chunks, ACC_HEAD + DELTA_BINS + 2 * n_fans), np.int64),
        np.zeros((n_chunks, KINDS, n_words + 1), np.uint64),
        np.zeros((n_chunks, KINDS, 2), np.int64),
        np.full((n_chunks, _SLOTS), -1, np.int64),
        np.zeros((n_chunks, KINDS, max(examples, 0), EXAMPLE_WIDTH), np.int16),
    )


@jit
def new_diff_work(table, n_fans):
    """Per-thread work arrays of :func:`score_wins_both`: the scorers' scratch
    (:func:`~mjstats.rulesets.dispatch.new_scratch`), an empty meld table, fan rows
    (best under a and b, the reading being scored under a and b, the
    per-hand special form under a and b, the key being looked up) padded to whole
    64-bit words, and the same rows as words."""
    n_words = (n_fans + 7) // 8
    fans = np.zeros((7, 8 * n_words), np.uint8)
    return new_scratch(table), np.zeros((4, 2), np.uint8), fans, fans.view(np.uint64)


@hjit
def _better(total, best, reading, best_is_seven_pairs):
    """Whether a regular reading replaces the best so far: the rule of
    :func:`mjstats.rulesets.mcr.kernel.score_hand` (rule point ``best_reading_tie_order``)."""
    if total > best:
        return True
    return total == best and (
        reading[mcr.PURE_TRIPLE_CHOW] > 0 or reading[mcr.TRIPLE_PUNG] > 0 or best_is_seven_pairs
    )


@hjit
def _copy_fans(src, dst):
    for f in range(mcr.N_FANS):
        dst[f] = src[f]


@hjit
def _mcr_wins_both(counts, weight, spec, work, melds, fans, words, acc, keys, info, slots, ex):
    """:func:`score_wins_both` for an MCR pair of profiles (module docstring)."""
    opts_a = spec[1]
    opts_b = spec[5]
    _fan, divisions, table, sets, bsets, base, standing, _all34, tmp, pairs, gbuf = work
    fa, fb, ra, rb, sa, sb = fans[0], fans[1], fans[2], fans[3], fans[4], fans[5]
    pm, odd, multi, _four, _n = tile_summary(counts)
    # ---- per hand: the special forms (in mcr.score_hand's order), decompositions
    found = _NONE
    sp_a = -1
    sp_b = -1
    special, _seq, nh = mcr._special_form(counts, pm, odd, multi)
    if special == mcr.FORM_SEVEN_PAIRS:
        sp_a, form = mcr._score_seven_pairs(counts, True, False, False, False, opts_a, sa)
        sp_b, _form_b = mcr._score_seven_pairs(counts, True, False, False, False, opts_b, sb)
        found = _FINAL if form == mcr.FORM_SEVEN_SHIFTED_PAIRS else _PAIRS
    elif special != mcr.FORM_NONE:
        sp_a = mcr._score_one_fan_form(sa, special, nh, True, False, False, False, opts_a)
        sp_b = mcr._score_one_fan_form(sb, special, nh, True, False, False, False, opts_b)
        found = _FINAL
    if found == _FINAL:
        for t in range(34):
            if counts[t]:
                _add_diff(sa, sb, words[4], words[5], words[6], sp_a, sp_b, spec,
                          weight * counts[t], counts, t, acc, keys, info, slots, ex)  # fmt: skip
        return True
    knitted = found == _NONE and mcr._has_knitted(pm)
    one_suit = found == _NONE and mcr._one_suit(pm)
    n_div = enumerate_regular(counts, table, divisions, pairs)
    gp = 0
    if n_div > 0:
        mcr._base_fans(base, True, False, False, False, 0, pm, counts, 0)
        gp = pairs[0] // 9 if pairs[0] < 27 else 3
    copy_tiles(counts, standing)
    # ---- per winning tile
    for t in range(34):
        k = counts[t]
        if k == 0:
            continue
        ta = -1
        tb = -1
        a_pairs = False
        b_pairs = False
        if found == _PAIRS:
            ta, tb, a_pairs, b_pairs = sp_a, sp_b, True, True
            _copy_fans(sa, fa)
            _copy_fans(sb, fb)
        done = False
        if knitted:
            ka, _body_a = mcr._score_knitted_straight(
                counts, counts, melds, 0, t, True, False, False, False, 0, 0, opts_a, ra, tmp,
                bsets, gbuf,
            )  # fmt: skip
            kb, _body_b = mcr._score_knitted_straight(
                counts, counts, melds, 0, t, True, False, False, False, 0, 0, opts_b, rb, tmp,
                bsets, gbuf,
            )  # fmt: skip
            if (ka >= 0) != (kb >= 0):  # the body is found from the tiles alone
                return False
            if ka >= 0:
                ta, tb, done = ka, kb, True
                _copy_fans(ra, fa)
                _copy_fans(rb, fb)
        standing[t] -= 1
        if not done and one_suit and is_nine_gates(standing, t):
            ta = mcr._score_nine_gates(t, True, False, False, False, opts_a, fa)
            tb = mcr._score_nine_gates(t, True, False, False, False, opts_b, fb)
            done = True
        if not done and n_div > 0:
            need_wait = mcr._wait_fan_possible(divisions, pairs, n_div, 4, t)
            # as in mcr.score_hand: no dead kinds in MCR (a fifth copy is a formal wait)
            unique = need_wait and mcr._unique_wait(
                standing, t, 0, table.info, odd ^ (np.int64(1) << t), gp, 0
            )
            for d in range(n_div):
                for j in range(4):
                    sets[j, 0] = divisions[d, j, 0]
                    sets[j, 1] = divisions[d, j, 1]
                    sets[j, 2] = 0
                    sets[j, 3] = 0
                x = mcr._score_division(sets, pairs[d], t, True, unique, 0, 0, opts_a, base, ra,
                                        tmp, True)  # fmt: skip
                if _better(x, ta, ra, a_pairs):
                    ta, a_pairs = x, False
                    _copy_fans(ra, fa)
                y = mcr._score_division(sets, pairs[d], t, True, unique, 0, 0, opts_b, base, rb,
                                        tmp, True)  # fmt: skip
                if _better(y, tb, rb, b_pairs):
                    tb, b_pairs = y, False
                    _copy_fans(rb, fb)
        standing[t] += 1
        if ta < 0 or tb < 0:
            return False
        _add_diff(fa, fb, words[0], words[1], words[6], ta, tb, spec, weight * k, counts, t,
                  acc, keys, info, slots, ex)  # fmt: skip
    return True


@hjit
def score_wins_both(counts, weight, spec, work, acc, keys, info, slots, ex):
    """Score the concealed hand ``counts`` (14 tiles) self-drawn on each of its
    tile kinds under rule profiles a and b, and add each (hand, winning tile),
    weighing ``weight`` times the copies of the tile, to the chunk's diff
    counters (module docstring; the arrays are one chunk's rows).

    ``spec`` (int64): a's ruleset id, options mask, minimum, whether flowers
    count toward it; then the same four for b (the two ruleset ids equal).
    ``work``: :func:`new_diff_work`. Returns False when some winning tile does
    not complete the hand (nothing of it is counted then for that tile on).
    """
    scratch, melds, fans, words = work
    if spec[0] == _MCR:
        return _mcr_wins_both(counts, weight, spec, scratch[_MCR], melds, fans, words, acc, keys,
                              info, slots, ex)  # fmt: skip
    fa, fb = fans[0], fans[1]
    for t in range(34):
        k = counts[t]
        if k == 0:
            continue
        ta = _score_win(spec, 0, counts, melds, t, scratch, fa)
        tb = _score_win(spec, 4, counts, melds, t, scratch, fb)
        if ta < 0 or tb < 0:
            return False
        _add_diff(fa, fb, words[0], words[1], words[6], ta, tb, spec, weight * k, counts, t,
                  acc, keys, info, slots, ex)  # fmt: skip
    return True


@hjit
def _score_win(spec, p, counts, melds, t, scratch, fan_out):
    """The total of ``counts`` self-drawn on ``t`` under the ruleset of
    ``spec[p:p + 4]`` (the exact study's convention), by
    :func:`~mjstats.rulesets.dispatch.score_one`."""
    total, _nfl, _form, _legal = score_one(
        spec[p], spec[p + 1], spec[p + 2], spec[p + 3], counts, melds, t, True, False, False,
        False, 0, 0, 0, 0, scratch, fan_out,
    )  # fmt: skip
    return total


@hjit
def _add_diff(fa, fb, wa, wb, key, ta, tb, spec, w, counts, t, acc, keys, info, slots, ex):
    """Add one scored (hand, winning tile) of weight ``w`` to the counters.

    ``wa``, ``wb``: the fan rows ``fa``, ``fb`` as words (eight fan counts a
    word, zero beyond the last fan); ``key``: a word row to build the kind's key in.
    """
    n_fans = (acc.shape[0] - ACC_HEAD - DELTA_BINS) // 2
    acc[_COMPLETE] += w
    if is_legal(ta, 0, spec[2], spec[3]):
        acc[_LEGAL_A] += w
    if is_legal(tb, 0, spec[6], spec[7]):
        acc[_LEGAL_B] += w
    acc[_SUM_A] += ta * w
    acc[_SUM_B] += tb * w
    d = min(max(tb - ta, 1 - TOTAL_BINS), TOTAL_BINS - 1)
    acc[ACC_HEAD + TOTAL_BINS - 1 + d] += w
    same = True
    for j in range(wa.shape[0]):
        same &= wa[j] == wb[j]
    if same and ta == tb:
        return
    if ta != tb:
        acc[_DIFFER] += w
    # the key: per fan count_b - count_a as a byte (mod 256), eight a word (SWAR
    # subtraction: no borrow crosses a byte), hashed FNV-style word by word
    h = _FNV_BASIS
    for j in range(wa.shape[0]):
        x = wb[j]
        y = wa[j]
        dw = ((x | _H) - (y & ~_H)) ^ ((x ^ ~y) & _H)
        key[j] = dw
        h = (h ^ dw) * _FNV_PRIME
        if dw:
            for f in range(8 * j, min(8 * j + 8, n_fans)):
                if fb[f] > fa[f]:
                    acc[ACC_HEAD + DELTA_BINS + f] += w
                elif fb[f] < fa[f]:
                    acc[ACC_HEAD + DELTA_BINS + n_fans + f] += w
    kind = _kind(key, h, acc, keys, slots)
    if kind < 0:
        return
    info[kind, 0] += w
    n = info[kind, 1]
    if n < ex.shape[1]:
        row = ex[kind, n]
        for i in range(34):
            row[i] = counts[i]
        row[34] = t
        row[35] = ta
        row[36] = tb
        info[kind, 1] = n + 1


@hjit
def _kind(key, h, acc, keys, slots):
    """Row of the kind ``key`` (hash ``h``) in the chunk's kind table, added if
    new; -1 when the table is full (``overflow`` counts it)."""
    n_words = keys.shape[1] - 1
    s = np.int64((h ^ (h >> np.uint64(29))) & np.uint64(_SLOTS - 1))
    while slots[s] >= 0:
        k = slots[s]
        if keys[k, n_words] == h:
            equal = True
            for j in range(n_words):
                equal &= keys[k, j] == key[j]
            if equal:
                return k
        s = (s + 1) & (_SLOTS - 1)
    k = acc[_KINDS]
    if k >= KINDS:
        acc[_OVERFLOW] += 1
        return -1
    acc[_KINDS] = k + 1
    slots[s] = k
    for j in range(n_words):
        keys[k, j] = key[j]
    keys[k, n_words] = h
    return k
