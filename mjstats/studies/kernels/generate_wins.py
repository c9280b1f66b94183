"""Kernels of the winning-hand generator (:mod:`mjstats.studies.generate_wins`).

:func:`generate_chunk` fills one chunk of output arrays from one generator
state. A style is its index in :data:`mjstats.studies.generate_wins.STYLES`
(0 regular, 1 template, 2 dense suit, 3 seven pairs, 4 seven shifted pairs,
5 thirteen orphans, 6 honours and knitted, 7 knitted straight, 8 nine gates,
9 concealed).
"""

from __future__ import annotations

import numpy as np

from mjstats.kernels._jit import jit
from mjstats.kernels.decompose import KNITTED
from mjstats.kernels.rng import randbelow, uniform

__all__ = ["generate_chunk"]

# tile pool modes for regular sets
_N_POOLS = 16


@jit
def _pool_mask(mode, suits, mask):
    """Fill ``mask`` (bool 34) with the tiles allowed by pool ``mode``.

    ``suits`` is a random permutation of (0, 1, 2) used by the suit modes.
    """
    for t in range(34):
        mask[t] = False
    if mode == 0:  # everything
        for t in range(34):
            mask[t] = True
    elif mode == 1:  # one suit
        for r in range(9):
            mask[9 * suits[0] + r] = True
    elif mode == 2:  # one suit + honours
        for r in range(9):
            mask[9 * suits[0] + r] = True
        for t in range(27, 34):
            mask[t] = True
    elif mode == 3:  # two suits
        for r in range(9):
            mask[9 * suits[0] + r] = True
            mask[9 * suits[1] + r] = True
    elif mode == 4:  # two suits + honours
        for r in range(9):
            mask[9 * suits[0] + r] = True
            mask[9 * suits[1] + r] = True
        for t in range(27, 34):
            mask[t] = True
    elif mode == 5:  # honours
        for t in range(27, 34):
            mask[t] = True
    elif mode <= 10:  # rank windows: 1-3, 1-4, 4-6, 6-9, 7-9
        lo = (0, 0, 3, 5, 6)[mode - 6]
        hi = (2, 3, 5, 8, 8)[mode - 6]
        for s in range(3):
            for r in range(lo, hi + 1):
                mask[9 * s + r] = True
    elif mode == 11:  # even ranks
        for s in range(3):
            for r in (1, 3, 5, 7):
                mask[9 * s + r] = True
    elif mode == 12:  # terminals (+ honours half the time via suits[2] parity)
        for s in range(3):
            mask[9 * s] = True
            mask[9 * s + 8] = True
        if suits[2] != 0:
            for t in range(27, 34):
                mask[t] = True
    elif mode == 13:  # green
        for t in (19, 20, 21, 23, 25, 32):
            mask[t] = True
    elif mode == 14:  # reversible
        for t in (9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 31):
            mask[t] = True
    else:  # simples
        for s in range(3):
            for r in range(1, 8):
                mask[9 * s + r] = True


@jit
def _random_set(state, mask, p_chow, counts, kinds, tiles, n):
    """Append a random set (chow/pung of allowed tiles, counts kept <= 4)."""
    for _ in range(60):
        if uniform(state) < p_chow:
            t = randbelow(state, 27)
            if t % 9 > 6 or not (mask[t] and mask[t + 1] and mask[t + 2]):
                continue
            if counts[t] >= 4 or counts[t + 1] >= 4 or counts[t + 2] >= 4:
                continue
            counts[t] += 1
            counts[t + 1] += 1
            counts[t + 2] += 1
            kinds[n] = 1
            tiles[n] = t
            return True
        t = randbelow(state, 34)
        if not mask[t] or counts[t] > 1:
            continue
        counts[t] += 3
        kinds[n] = 2
        tiles[n] = t
        return True
    return False


@jit
def _random_pair(state, mask, counts):
    for _ in range(60):
        t = randbelow(state, 34)
        if mask[t] and counts[t] <= 2:
            counts[t] += 2
            return t
    return -1


@jit
def _add_chow(counts, kinds, tiles, n, t):
    if t < 0 or t >= 27 or t % 9 > 6:
        return False
    if counts[t] >= 4 or counts[t + 1] >= 4 or counts[t + 2] >= 4:
        return False
    counts[t] += 1
    counts[t + 1] += 1
    counts[t + 2] += 1
    kinds[n] = 1
    tiles[n] = t
    return True


@jit
def _add_pung(counts, kinds, tiles, n, t):
    if counts[t] > 1:
        return False
    counts[t] += 3
    kinds[n] = 2
    tiles[n] = t
    return True


@jit
def _template(state, tpl, suits, counts, kinds, tiles):
    """Place a fan template's sets; returns (n_sets placed, pair tile or -1)."""
    a = suits[0]
    b = suits[1]
    c = suits[2]
    n = 0
    pair = -1
    ok = True
    if tpl == 0:  # 大四喜
        for w in range(4):
            ok &= _add_pung(counts, kinds, tiles, n, 27 + w)
            n += 1
    elif tpl == 1:  # 小四喜
        skip = randbelow(state, 4)
        for w in range(4):
            if w != skip:
                ok &= _add_pung(counts, kinds, tiles, n, 27 + w)
                n += 1
        pair = 27 + skip
        counts[pair] += 2
    elif tpl == 2:  # 大三元
        for d in range(3):
            ok &= _add_pung(counts, kinds, tiles, n, 31 + d)
            n += 1
    elif tpl == 3:  # 小三元
        skip = randbelow(state, 3)
        for d in range(3):
            if d != skip:
                ok &= _add_pung(counts, kinds, tiles, n, 31 + d)
                n += 1
        pair = 31 + skip
        counts[pair] += 2
    elif tpl == 4:  # 一色双龙会
        for t in (0, 0, 6, 6):
            ok &= _add_chow(counts, kinds, tiles, n, 9 * a + t)
            n += 1
        pair = 9 * a + 4
        counts[pair] += 2
    elif tpl == 5:  # 三色双龙会
        for t in (9 * a, 9 * a + 6, 9 * b, 9 * b + 6):
            ok &= _add_chow(counts, kinds, tiles, n, t)
            n += 1
        pair = 9 * c + 4
        counts[pair] += 2
    elif tpl == 6:  # 一色四同顺 / 三同顺
        t = 9 * a + randbelow(state, 7)
        k = 3 + randbelow(state, 2)
        for _ in range(k):
            ok &= _add_chow(counts, kinds, tiles, n, t)
            n += 1
    elif tpl == 7:  # 一色四节高 / 三节高
        k = 3 + randbelow(state, 2)
        r = randbelow(state, 10 - k)
        for j in range(k):
            ok &= _add_pung(counts, kinds, tiles, n, 9 * a + r + j)
            n += 1
    elif tpl == 8:  # 一色四步高 / 三步高
        k = 3 + randbelow(state, 2)
        d = 1 + randbelow(state, 2)
        span = d * (k - 1)
        r = randbelow(state, 7 - span)
        for j in range(k):
            ok &= _add_chow(counts, kinds, tiles, n, 9 * a + r + d * j)
            n += 1
    elif tpl == 9:  # 清龙
        for t in (0, 3, 6):
            ok &= _add_chow(counts, kinds, tiles, n, 9 * a + t)
            n += 1
    elif tpl == 10:  # 花龙
        ok &= _add_chow(counts, kinds, tiles, n, 9 * a)
        ok &= _add_chow(counts, kinds, tiles, n + 1, 9 * b + 3)
        ok &= _add_chow(counts, kinds, tiles, n + 2, 9 * c + 6)
        n += 3
    elif tpl == 11:  # 三色三同顺
        r = randbelow(state, 7)
        for s in range(3):
            ok &= _add_chow(counts, kinds, tiles, n, 9 * s + r)
            n += 1
    elif tpl == 12:  # 三色三步高
        r = randbelow(state, 5)
        ok &= _add_chow(counts, kinds, tiles, n, 9 * a + r)
        ok &= _add_chow(counts, kinds, tiles, n + 1, 9 * b + r + 1)
        ok &= _add_chow(counts, kinds, tiles, n + 2, 9 * c + r + 2)
        n += 3
    elif tpl == 13:  # 三同刻 (+ maybe 双同刻)
        r = randbelow(state, 9)
        for s in range(3):
            ok &= _add_pung(counts, kinds, tiles, n, 9 * s + r)
            n += 1
    elif tpl == 14:  # 三色三节高
        r = randbelow(state, 7)
        ok &= _add_pung(counts, kinds, tiles, n, 9 * a + r)
        ok &= _add_pung(counts, kinds, tiles, n + 1, 9 * b + r + 1)
        ok &= _add_pung(counts, kinds, tiles, n + 2, 9 * c + r + 2)
        n += 3
    elif tpl == 15:  # 三风刻
        skip = randbelow(state, 4)
        for w in range(4):
            if w != skip:
                ok &= _add_pung(counts, kinds, tiles, n, 27 + w)
                n += 1
    elif tpl == 16:  # two dragon pungs
        skip = randbelow(state, 3)
        for d in range(3):
            if d != skip:
                ok &= _add_pung(counts, kinds, tiles, n, 31 + d)
                n += 1
    elif tpl == 17:  # pairs of related chows (一般高 喜相逢 连六 老少副)
        k = 2 + randbelow(state, 3)
        r = randbelow(state, 7)
        s = a
        for _ in range(k):
            ok &= _add_chow(counts, kinds, tiles, n, 9 * s + r)
            n += 1
            u = randbelow(state, 4)
            if u == 0:
                s = suits[randbelow(state, 3)]
            elif u == 1 and r <= 3:
                r += 3
            elif u == 2 and r >= 3:
                r -= 3
            elif u == 3:
                r = 6 - r if (r == 0 or r == 6) else r
    elif tpl == 18:  # wind pung (seat/prevalent) + random
        ok &= _add_pung(counts, kinds, tiles, n, 27 + randbelow(state, 4))
        n += 1
    elif tpl == 19:  # pungs of one rank class (双同刻 / 双箭刻 / 全双刻 bases)
        r = randbelow(state, 9)
        k = 2 + randbelow(state, 2)
        for s in range(k):
            ok &= _add_pung(counts, kinds, tiles, n, 9 * suits[s] + r)
            n += 1
    return n, pair


@jit
def _finish_regular(state, counts_sets, kinds, tiles, pair, mode_melds, conc, melds):
    """Split 4 sets + pair into melds and concealed tiles. Returns False if invalid."""
    # random meld count
    u = uniform(state)
    if mode_melds < 0:
        k = 0
    elif mode_melds == 3:
        k = 1 + randbelow(state, 3)
    elif u < 0.30:
        k = 0
    elif u < 0.50:
        k = 1
    elif u < 0.68:
        k = 2
    elif u < 0.84:
        k = 3
    else:
        k = 4
    # kongs need the 4th copy
    order = np.arange(4)
    for i in range(3, 0, -1):
        j = randbelow(state, i + 1)
        tmp = order[i]
        order[i] = order[j]
        order[j] = tmp
    for t in range(34):
        conc[t] = 0
    for i in range(4):
        melds[i, 0] = 0
        melds[i, 1] = 0
    conc[pair] += 2
    m = 0
    total = counts_sets  # total counts incl. kongs (we add the 4th copies)
    for jj in range(4):
        i = order[jj]
        kd = kinds[i]
        t = tiles[i]
        as_meld = jj < k
        if kd == 2:
            v = uniform(state)
            kong_p = 0.35 if mode_melds != 2 else 0.95
            if mode_melds == 3:
                kong_p = 0.0
            make_kong = total[t] == 3 and v < kong_p
            if make_kong:
                total[t] += 1
                if as_meld:
                    melds[m, 0] = 3 if uniform(state) < 0.6 else 4
                else:
                    melds[m, 0] = 4
                melds[m, 1] = t
                m += 1
                continue
            if as_meld:
                melds[m, 0] = 2
                melds[m, 1] = t
                m += 1
            else:
                conc[t] += 3
        else:
            if as_meld:
                melds[m, 0] = 1
                melds[m, 1] = t
                m += 1
            else:
                conc[t] += 1
                conc[t + 1] += 1
                conc[t + 2] += 1
    for t in range(34):
        if total[t] > 4:
            return False
    return True


@jit
def _chicken_ok(kinds, tiles):
    """Sets with no set-combination fan and all three suits (a 无番和 candidate)."""
    seen = np.zeros(4, np.bool_)  # the three suits, then honours (a pung of them: 3)
    for i in range(4):
        seen[tiles[i] // 9] = True
        for j in range(i + 1, 4):
            a = tiles[i]
            b = tiles[j]
            if kinds[i] == 1 and kinds[j] == 1:
                if a // 9 == b // 9:
                    d = abs(a - b)
                    if d == 0 or d == 3 or d == 6:
                        return False
                elif a % 9 == b % 9 or abs(a % 9 - b % 9) <= 2:
                    return False
            elif kinds[i] == 2 and kinds[j] == 2 and a % 9 == b % 9:
                return False
    return seen[0] and seen[1] and seen[2]


@jit
def _regular_hand(state, style, conc, melds, scratch_counts, kinds, tiles, mask, suits):
    counts = scratch_counts
    for t in range(34):
        counts[t] = 0
    # shuffle suits
    suits[0] = 0
    suits[1] = 1
    suits[2] = 2
    for i in range(2, 0, -1):
        j = randbelow(state, i + 1)
        tmp = suits[i]
        suits[i] = suits[j]
        suits[j] = tmp
    n = 0
    pair = -1
    mode_melds = 0
    if style == 9:  # plain concealed
        mode = 0
        p_chow = 0.75
        mode_melds = -1
    elif style == 2:  # dense one suit
        mode = 1
        p_chow = 0.6
        mode_melds = -1 if uniform(state) < 0.7 else 0
    else:
        mode = randbelow(state, _N_POOLS) if uniform(state) < 0.7 else 0
        p_chow = (0.0, 0.35, 0.6, 0.8, 1.0)[randbelow(state, 5)]
        if style == 1:
            tpl = randbelow(state, 21)
            if tpl == 20:
                # 无番和 shape: chows/pungs of simples in three suits, a honour
                # pair, 1-3 melds, won on a discard
                mode = 15
                p_chow = 0.85
                mode_melds = 3
                pair = 27 + randbelow(state, 7)
                counts[pair] += 2
            n, pair = _template(state, tpl, suits, counts, kinds, tiles) if tpl < 20 else (0, pair)
            if n < 0:
                return 0
            for t in range(34):
                if counts[t] > 4:
                    return 0
            if uniform(state) < 0.5:
                mode = 0
        if uniform(state) < 0.04:
            mode_melds = 2  # kong-heavy
    _pool_mask(mode, suits, mask)
    if mode_melds == 3:
        # 无番和 candidates: redraw the four sets until no combination fan applies
        for _ in range(200):
            for t in range(34):
                counts[t] = 0
            counts[pair] = 2
            n = 0
            while n < 4 and _random_set(state, mask, p_chow, counts, kinds, tiles, n):
                n += 1
            if n == 4 and _chicken_ok(kinds, tiles):
                break
        if n < 4 or not _chicken_ok(kinds, tiles):
            return 0
    while n < 4:
        if not _random_set(state, mask, p_chow, counts, kinds, tiles, n):
            _pool_mask(0, suits, mask)
            if not _random_set(state, mask, p_chow, counts, kinds, tiles, n):
                return 0
        n += 1
    if pair < 0:
        pair = _random_pair(state, mask, counts)
        if pair < 0:
            _pool_mask(0, suits, mask)
            pair = _random_pair(state, mask, counts)
            if pair < 0:
                return 0
    if not _finish_regular(state, counts, kinds, tiles, pair, mode_melds, conc, melds):
        return 0
    return 2 if mode_melds == 3 else 1


@jit
def _special_hand(state, style, conc, melds, counts, kinds, tiles, mask, suits):
    for t in range(34):
        conc[t] = 0
        counts[t] = 0
    for i in range(4):
        melds[i, 0] = 0
        melds[i, 1] = 0
    suits[0] = 0
    suits[1] = 1
    suits[2] = 2
    for i in range(2, 0, -1):
        j = randbelow(state, i + 1)
        tmp = suits[i]
        suits[i] = suits[j]
        suits[j] = tmp
    if style == 3:  # seven pairs
        mode = randbelow(state, _N_POOLS) if uniform(state) < 0.6 else 0
        _pool_mask(mode, suits, mask)
        n_ok = 0
        for t in range(34):
            if mask[t]:
                n_ok += 1
        if n_ok < 4:
            _pool_mask(0, suits, mask)
        n = 0
        tries = 0
        while n < 7 and tries < 200:
            tries += 1
            t = randbelow(state, 34)
            if not mask[t] or conc[t] >= 4:
                continue
            if conc[t] == 2 and uniform(state) < 0.7:
                continue
            conc[t] += 2
            n += 1
        return n == 7
    if style == 4:  # seven shifted pairs
        s = suits[0]
        lo = randbelow(state, 3)
        for r in range(lo, lo + 7):
            conc[9 * s + r] = 2
        return True
    if style == 5:  # thirteen orphans
        for t in (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33):
            conc[t] = 1
        d = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)[randbelow(state, 13)]
        conc[d] = 2
        return True
    if style == 6:  # honours and knitted
        k = randbelow(state, 6)
        nh = 5 + randbelow(state, 3)
        for j in range(9):
            conc[KNITTED[k, j]] = 1
        drop = 9 - (14 - nh)
        while drop > 0:
            j = randbelow(state, 9)
            if conc[KNITTED[k, j]] == 1:
                conc[KNITTED[k, j]] = 0
                drop -= 1
        keep = nh
        for t in range(27, 34):
            conc[t] = 1
        drop = 7 - keep
        while drop > 0:
            t = 27 + randbelow(state, 7)
            if conc[t] == 1:
                conc[t] = 0
                drop -= 1
        return True
    if style == 7:  # knitted straight
        k = randbelow(state, 6)
        for j in range(9):
            conc[KNITTED[k, j]] += 1
            counts[KNITTED[k, j]] += 1
        _pool_mask(0, suits, mask)
        p_chow = 0.5
        if not _random_set(state, mask, p_chow, counts, kinds, tiles, 0):
            return False
        pair = _random_pair(state, mask, counts)
        if pair < 0:
            return False
        conc[pair] += 2
        t = tiles[0]
        if uniform(state) < 0.35:
            # the set is a meld
            if kinds[0] == 1:
                melds[0, 0] = 1
            else:
                v = uniform(state)
                if counts[t] == 3 and v < 0.4:
                    counts[t] += 1
                    melds[0, 0] = 3 if v < 0.2 else 4
                else:
                    melds[0, 0] = 2
            melds[0, 1] = t
        else:
            if kinds[0] == 1:
                conc[t] += 1
                conc[t + 1] += 1
                conc[t + 2] += 1
            else:
                conc[t] += 3
        for x in range(34):
            if counts[x] > 4:
                return False
        return True
    # nine gates
    s = suits[0]
    for r in range(9):
        conc[9 * s + r] = 3 if (r == 0 or r == 8) else 1
    conc[9 * s + randbelow(state, 9)] += 1
    return True


@jit
def _flags(state, conc, melds, out_sd, out_t4, out_kong, out_wall, i):
    """Pick a winning tile and consistent win flags; returns the win tile."""
    n = 0
    for t in range(34):
        n += conc[t]
    j = randbelow(state, n)
    w = 0
    for t in range(34):
        if j < conc[t]:
            w = t
            break
        j -= conc[t]
    sd = uniform(state) < 0.45
    meld_w = 0
    has_kong = False
    for m in range(4):
        k = melds[m, 0]
        t = melds[m, 1]
        if k == 1 and w >= t and w <= t + 2:
            meld_w += 1
        elif k == 2 and t == w:
            meld_w += 3
        elif k >= 3:
            has_kong = True
            if t == w:
                meld_w += 4
    kong = False
    if uniform(state) < 0.12:
        if sd:
            kong = has_kong
        else:
            kong = conc[w] == 1 and meld_w == 0
    t4 = False
    if conc[w] == 1 and uniform(state) < 0.15 and not (kong and not sd):
        t4 = True
    if meld_w == 3 and not (kong and not sd):
        t4 = True
    out_sd[i] = sd
    out_t4[i] = t4
    out_kong[i] = kong
    out_wall[i] = uniform(state) < 0.1
    return w


@jit
def generate_chunk(
    state,
    styles,
    weights,
    out_conc,
    out_melds,
    out_win,
    out_sd,
    out_t4,
    out_kong,
    out_wall,
    out_seat,
    out_round,
    out_flowers,
    out_style,
):
    n = out_conc.shape[0]
    counts = np.zeros(34, np.int64)
    kinds = np.zeros(4, np.int64)
    tiles = np.zeros(4, np.int64)
    mask = np.zeros(34, np.bool_)
    suits = np.zeros(3, np.int64)
    cum = np.cumsum(weights)
    for i in range(n):
        while True:
            u = uniform(state) * cum[-1]
            si = 0
            while si < cum.shape[0] - 1 and u >= cum[si]:
                si += 1
            style = styles[si]
            hint = 1
            if style <= 2 or style == 9:
                hint = _regular_hand(
                    state, style, out_conc[i], out_melds[i], counts, kinds, tiles, mask, suits
                )
                ok = hint > 0
            else:
                ok = _special_hand(
                    state, style, out_conc[i], out_melds[i], counts, kinds, tiles, mask, suits
                )
            if ok:
                break
        out_style[i] = style
        out_win[i] = _flags(state, out_conc[i], out_melds[i], out_sd, out_t4, out_kong, out_wall, i)
        if hint == 2:  # a 无番和 candidate: plain discard win
            out_sd[i] = False
            out_t4[i] = False
            out_kong[i] = False
            out_wall[i] = False
        out_seat[i] = randbelow(state, 4)
        out_round[i] = randbelow(state, 4)
        if uniform(state) < 0.5:
            out_flowers[i] = 0
        else:
            out_flowers[i] = randbelow(state, 256)
