"""Two-player (二人麻将) fan kernels.

Fan ids are those of :mod:`mjstats.rulesets.two_player`; the points and the
exclusion (不记番) table are built from that module's data at import (plain
numpy arrays, frozen into the kernels as constants), so the rule text's
不记番 lists act through :data:`EXCLUDES` and nowhere else.

Pipeline for one hand (:func:`score_hand`):

1. Whole-hand fans (``base``): tile content (清一色, 混一色, 字一色, 混幺九,
   断幺, 大于五, 小于五, 四归一), concealment (门清, 不求人, 全求人, 自摸),
   the situation bits (天胡, 地胡, 人胡, 立直, 天听), the win flags (海底捞月,
   河底捞鱼, 杠上开花), kong fans by number of kongs, the flower fans, 九莲宝灯.
2. Readings: seven pairs (七对 / 大车轮) and every regular decomposition of
   the concealed tiles (:func:`mjstats.kernels.decompose.enumerate_regular`)
   plus the melds. Each reading adds its set fans to ``base``; the exclusion
   pass removes every fan excluded by a fan that is itself counted (fans in id
   order, so a fan removed by a bigger one excludes nothing; 门风刻 takes the
   幺九刻 of its own pung only, ``excludes_own_set``); the best total
   wins (the first reading on a tie: seven pairs before regular readings).
   In a hand that claimed nothing, a reading holding three identical chows
   (not four) is skipped: the text settles such tiles as 一色三节高 (the pung
   reading of the same tiles always exists); an opened hand takes the better
   reading.
3. The total is ``sum(points * counts)`` of the chosen reading, flowers
   included.

``docs/two-player-rules.md`` lists every interpretation of the text.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from mjstats._readonly import read_only
from mjstats.kernels._jit import jit, pjit
from mjstats.kernels.bits import copy_tiles, popcount, tile_summary
from mjstats.kernels.decompose import (
    MAX_DECOMPOSITIONS,
    enumerate_regular,
    is_seven_pairs,
    keep_reading,
)
from mjstats.kernels.legality import is_legal
from mjstats.kernels.waits import chow_wait, score_wait_fan, unique_wait
from mjstats.rulesets.two_player import FANS as _FANS

__all__ = [
    "EXCLUDES",
    "FORM_NAMES",
    "N_FANS",
    "POINTS",
    "new_work",
    "score_hand",
    "score_rows",
    "score_rows_serial",
]

# ---------------------------------------------------------------- fan ids
# A fan's id is its row in the ruleset's table (mjstats.rulesets.two_player.fans).
_INDEX = {f.key: i for i, f in enumerate(_FANS)}
N_FANS = len(_FANS)


def _fan(key: str) -> int:
    """Id of the fan ``key`` (its row in the fan table); KeyError if it has none."""
    return _INDEX[key]


EIGHT_IMMORTALS = _fan("eight_immortals")  # 八仙过海
BIG_FOUR_WINDS = _fan("big_four_winds")  # 大四喜
BIG_THREE_DRAGONS = _fan("big_three_dragons")  # 大三元
NINE_GATES = _fan("nine_gates")  # 九莲宝灯
FOUR_KONGS = _fan("four_kongs")  # 四杠子
BIG_WHEEL = _fan("big_wheel")  # 大车轮
LITTLE_FOUR_WINDS = _fan("little_four_winds")  # 小四喜
LITTLE_THREE_DRAGONS = _fan("little_three_dragons")  # 小三元
ALL_HONORS = _fan("all_honors")  # 字一色
FOUR_CONCEALED_PUNGS = _fan("four_concealed_pungs")  # 四暗刻
PURE_TERMINAL_CHOWS = _fan("pure_terminal_chows")  # 一色双龙会
HEAVENLY_HAND = _fan("heavenly_hand")  # 天胡
QUADRUPLE_CHOW = _fan("quadruple_chow")  # 一色四同顺
FOUR_PURE_SHIFTED_PUNGS = _fan("four_pure_shifted_pungs")  # 一色四节高
EARTHLY_HAND = _fan("earthly_hand")  # 地胡
FOUR_PURE_SHIFTED_CHOWS = _fan("four_pure_shifted_chows")  # 一色四步高
THREE_KONGS = _fan("three_kongs")  # 三杠
HUMAN_HAND = _fan("human_hand")  # 人胡
ALL_TERMINALS_AND_HONORS = _fan("all_terminals_and_honors")  # 混幺九
SEVEN_PAIRS = _fan("seven_pairs")  # 七对
FULL_FLUSH = _fan("full_flush")  # 清一色
PURE_TRIPLE_CHOW = _fan("pure_triple_chow")  # 一色三同顺
PURE_SHIFTED_PUNGS = _fan("pure_shifted_pungs")  # 一色三节高
HEAVENLY_READY = _fan("heavenly_ready")  # 天听
PURE_STRAIGHT = _fan("pure_straight")  # 一条龙
PURE_SHIFTED_CHOWS = _fan("pure_shifted_chows")  # 一色三步高
THREE_CONCEALED_PUNGS = _fan("three_concealed_pungs")  # 三暗刻
UPPER_TILES = _fan("upper_tiles")  # 大于五
LOWER_TILES = _fan("lower_tiles")  # 小于五
THREE_WIND_PUNGS = _fan("three_wind_pungs")  # 三风刻
LAST_TILE_DRAW = _fan("last_tile_draw")  # 海底捞月
LAST_TILE_CLAIM = _fan("last_tile_claim")  # 河底捞鱼
OUT_WITH_REPLACEMENT_TILE = _fan("out_with_replacement_tile")  # 杠上开花
ALL_PUNGS = _fan("all_pungs")  # 碰碰胡
HALF_FLUSH = _fan("half_flush")  # 混一色
MELDED_HAND = _fan("melded_hand")  # 全求人
TWO_CONCEALED_KONGS = _fan("two_concealed_kongs")  # 双暗杠
TWO_DRAGON_PUNGS = _fan("two_dragon_pungs")  # 双箭刻
OUTSIDE_HAND = _fan("outside_hand")  # 全带幺
FULLY_CONCEALED_HAND = _fan("fully_concealed_hand")  # 不求人
TWO_MELDED_KONGS = _fan("two_melded_kongs")  # 双明杠
DRAGON_PUNG = _fan("dragon_pung")  # 箭刻
PREVALENT_WIND = _fan("prevalent_wind")  # 圈风刻
SEAT_WIND = _fan("seat_wind")  # 门风刻
CONCEALED_HAND = _fan("concealed_hand")  # 门清
ALL_CHOWS = _fan("all_chows")  # 平胡
TILE_HOG = _fan("tile_hog")  # 四归一
TWO_CONCEALED_PUNGS = _fan("two_concealed_pungs")  # 双暗刻
CONCEALED_KONG = _fan("concealed_kong")  # 暗杠
DECLARED_READY = _fan("declared_ready")  # 立直
ALL_SIMPLES = _fan("all_simples")  # 断幺
PURE_DOUBLE_CHOW = _fan("pure_double_chow")  # 一般高
SHORT_STRAIGHT = _fan("short_straight")  # 连6
TWO_TERMINAL_CHOWS = _fan("two_terminal_chows")  # 老少副
PUNG_OF_TERMINALS_OR_HONORS = _fan("pung_of_terminals_or_honors")  # 幺九刻
MELDED_KONG = _fan("melded_kong")  # 明杠
EDGE_WAIT = _fan("edge_wait")  # 边张
CLOSED_WAIT = _fan("closed_wait")  # 坎张
SINGLE_WAIT = _fan("single_wait")  # 单吊将
# 单吊将 also when the hand had other waits (docs/two-player-rules.md row 19)
_SINGLE_WAIT_NEEDS_UNIQUE = False
FLOWER_TILES = _fan("flower_tiles")  # 花牌
SELF_DRAWN = _fan("self_drawn")  # 自摸
PAIR_258 = _fan("pair_258")  # 二五八将
SEAT_FLOWERS = _fan("seat_flowers")  # 季花
TERMINAL_PAIR = _fan("terminal_pair")  # 幺九头
FOUR_GENTLEMEN = _fan("four_gentlemen")  # 梅兰竹菊
FOUR_SEASONS = _fan("four_seasons")  # 春夏秋冬

#: points of one occurrence of each fan id
POINTS = np.array([f.points for f in _FANS], dtype=np.int64)
POINTS = read_only(POINTS)
#: ``EXCLUDES[a, b]``: fan a, when counted, removes fan b (the text's 不记番)
EXCLUDES = np.zeros((N_FANS, N_FANS), dtype=np.bool_)
for _a, _f in enumerate(_FANS):
    for _k in _f.excludes:
        if _k not in _f.excludes_own_set:
            EXCLUDES[_a, _INDEX[_k]] = True
EXCLUDES = read_only(EXCLUDES)
#: ``[a, b]`` rows: each occurrence of counted fan a removes one of fan b (the
#: 不记番 entries a ruleset applies to the fan's own set, ``excludes_own_set``)
_OWN_SET = np.array(
    [(_a, _INDEX[_k]) for _a, _f in enumerate(_FANS) for _k in _f.excludes_own_set],
    dtype=np.int64,
).reshape(-1, 2)
_OWN_SET = read_only(_OWN_SET)
# the same as two 64-bit words per fan (fans 0-63, 64-65), for the exclusion pass
_EXCL_LO = np.zeros(N_FANS, dtype=np.uint64)
_EXCL_HI = np.zeros(N_FANS, dtype=np.uint64)
for _a in range(N_FANS):
    for _b in np.flatnonzero(EXCLUDES[_a]):
        if _b < 64:
            _EXCL_LO[_a] |= np.uint64(1) << np.uint64(_b)
        else:
            _EXCL_HI[_a] |= np.uint64(1) << np.uint64(_b - 64)
_EXCL_LO = read_only(_EXCL_LO)
_EXCL_HI = read_only(_EXCL_HI)

FORM_NONE = 0
FORM_REGULAR = 1
FORM_SEVEN_PAIRS = 2
#: ``form`` codes of :func:`score_hand` (index = code)
FORM_NAMES = ("none", "regular", "seven_pairs")

# situation bits
SIT_HEAVENLY = 1
SIT_EARTHLY = 2
SIT_HUMAN = 4
SIT_READY = 8
SIT_HEAVENLY_READY = 16

_NO_RANK = 255
_NOT_IN_GAME = ((1 << 27) - 1) & ~0x1FF  # tiles 9-26: bamboo and dots


@jit
def new_work(table):
    """Scratch for :func:`score_hand`: a tuple of arrays, one per thread, reused
    across hands (no allocation per hand), holding the read-only ``table``
    (:func:`~mjstats.kernels.decompose.suit_table`). Callable from jitted code."""
    return (
        np.zeros(N_FANS, dtype=np.uint8),  # 0 fan: the reading being scored
        np.zeros(N_FANS, dtype=np.uint8),  # 1 base: whole-hand fans
        np.zeros((MAX_DECOMPOSITIONS, 4, 2), dtype=np.uint8),  # 2 divisions
        table,  # 3 per-suit splits and waits
        np.zeros(MAX_DECOMPOSITIONS, dtype=np.uint8),  # 4 pairs
        np.zeros((8, 4), dtype=np.uint8),  # 5 sets of the reading
        np.zeros((8, 4), dtype=np.uint8),  # 6 sets of the best reading
        np.zeros(34, dtype=np.uint8),  # 7 all34 (concealed + melds)
        np.zeros(34, dtype=np.uint8),  # 8 standing (concealed - winning tile)
        np.zeros(N_FANS, dtype=np.bool_),  # 9 excluded
        np.zeros(8, dtype=np.int64),  # 10 chow starts / pung tiles
    )


# ---------------------------------------------------------------- exclusions
@jit
def _apply_exclusions(fan, excluded):
    """Remove every fan excluded by a counted fan (id order: an excluded fan
    excludes nothing), then the own-set entries (门风刻 takes the 幺九刻 of its
    pung only). ``excluded`` is unused scratch kept for the signature."""
    lo = np.uint64(0)
    hi = np.uint64(0)
    one = np.uint64(1)
    for f in range(N_FANS):
        if fan[f] == 0:
            continue
        gone = ((lo >> np.uint64(f)) & one) if f < 64 else ((hi >> np.uint64(f - 64)) & one)
        if gone:
            fan[f] = 0
            continue
        lo |= _EXCL_LO[f]
        hi |= _EXCL_HI[f]
    # a counted fan may exclude an earlier one (equal values): clear those too
    for f in range(N_FANS):
        if fan[f]:
            gone = ((lo >> np.uint64(f)) & one) if f < 64 else ((hi >> np.uint64(f - 64)) & one)
            if gone:
                fan[f] = 0
    # own-set entries: a counted fan takes one occurrence per occurrence of its own
    for i in range(_OWN_SET.shape[0]):
        a = _OWN_SET[i, 0]
        b = _OWN_SET[i, 1]
        fan[b] -= min(fan[a], fan[b])


@jit
def _total(fan):
    t = 0
    for f in range(N_FANS):
        t += fan[f] * POINTS[f]
    return t


# ---------------------------------------------------------------- chow combinations
@jit
def _pair_fan(a, b):
    """Fan of two chows (lowest tiles a, b of the characters), or -1."""
    d = a - b if a > b else b - a
    if d == 0:
        return PURE_DOUBLE_CHOW
    if d == 3:
        return SHORT_STRAIGHT
    if d == 6:
        return TWO_TERMINAL_CHOWS
    return -1


@jit
def _pair_ok(a, b, big):
    """Pair fan of chows a, b if the big chow fan ``big`` (or -1) does not exclude it."""
    g = _pair_fan(a, b)
    if g < 0:
        return -1
    if big >= 0 and EXCLUDES[big, g]:
        return -1
    return g


@jit
def _triple_fan(a, b, c):
    """3-chow fan of sorted lowest tiles, or -1 (一色三同顺, 一色三步高, 一条龙)."""
    d1 = b - a
    d2 = c - b
    if d1 == 0 and d2 == 0:
        return PURE_TRIPLE_CHOW
    if d1 == d2 and (d1 == 1 or d1 == 2):
        return PURE_SHIFTED_CHOWS
    if a == 0 and b == 3 and c == 6:
        return PURE_STRAIGHT
    return -1


@jit
def _pick(g, h):
    """The better of two candidate pair fans (-1 = none): a fan beats none, and
    between fans the lower id (一般高 before 连6 before 老少副)."""
    if g < 0:
        return h
    if h < 0:
        return g
    return g if g < h else h


@jit
def _best_matching(fan, c, n, big):
    """Add the pair fans of the best disjoint pairing of the chows c[0:n]
    (each chow in at most one pair fan; fans ``big`` excludes do not count).
    Most pair fans first; on a tie the smallest fan ids (sorted, compared in
    order), then the first pairing."""
    if n == 2:
        g = _pair_ok(c[0], c[1], big)
        if g >= 0:
            fan[g] += 1
    elif n == 3:
        g = _pick(_pair_ok(c[0], c[1], big), _pair_ok(c[0], c[2], big))
        g = _pick(g, _pair_ok(c[1], c[2], big))
        if g >= 0:
            fan[g] += 1
    elif n == 4:
        best = -1
        bg = -1
        bh = -1
        for m in range(3):
            if m == 0:
                g = _pair_ok(c[0], c[1], big)
                h = _pair_ok(c[2], c[3], big)
            elif m == 1:
                g = _pair_ok(c[0], c[2], big)
                h = _pair_ok(c[1], c[3], big)
            else:
                g = _pair_ok(c[0], c[3], big)
                h = _pair_ok(c[1], c[2], big)
            lo = g if (h < 0 or (g >= 0 and g < h)) else h
            hi = h if lo == g else g
            k = (1 if g >= 0 else 0) + (1 if h >= 0 else 0)
            # more fans, then the smaller lowest id, then the smaller other id
            key = k * 1_000_000 - (lo * 1000 if lo >= 0 else 0) - (hi if hi >= 0 else 0)
            if key > best:
                best = key
                bg = g
                bh = h
        if bg >= 0:
            fan[bg] += 1
        if bh >= 0:
            fan[bh] += 1


@jit
def _chow_fans(fan, c, n, pair):
    """Chow-combination fans of the sorted chow starts c[0:n] (n <= 4)."""
    if n == 4:
        big = -1
        if c[0] == 0 and c[1] == 0 and c[2] == 6 and c[3] == 6 and pair == 4:
            big = PURE_TERMINAL_CHOWS
        elif c[0] == c[3]:
            big = QUADRUPLE_CHOW
        else:
            d = c[1] - c[0]
            if (d == 1 or d == 2) and c[2] - c[1] == d and c[3] - c[2] == d:
                big = FOUR_PURE_SHIFTED_CHOWS
        if big >= 0:
            fan[big] = 1
            _best_matching(fan, c, 4, big)
            return
        # best 3-chow fan, then the fourth chow with one of the three
        best_key = -1
        best_f = -1
        best_g = -1
        for skip in range(4):
            i0 = 1 if skip == 0 else 0
            i1 = 2 if skip <= 1 else 1
            i2 = 3 if skip <= 2 else 2
            f = _triple_fan(c[i0], c[i1], c[i2])
            if f < 0:
                continue
            g = _pick(_pair_ok(c[skip], c[i0], f), _pair_ok(c[skip], c[i1], f))
            g = _pick(g, _pair_ok(c[skip], c[i2], f))
            key = 2 * POINTS[f] + (1 if g >= 0 else 0)
            if key > best_key:
                best_key = key
                best_f = f
                best_g = g
        if best_f >= 0:
            fan[best_f] = 1
            if best_g >= 0:
                fan[best_g] += 1
            return
        _best_matching(fan, c, 4, -1)
    elif n == 3:
        f = _triple_fan(c[0], c[1], c[2])
        if f >= 0:
            fan[f] = 1
        else:
            _best_matching(fan, c, 3, -1)
    elif n == 2:
        _best_matching(fan, c, 2, -1)


# ---------------------------------------------------------------- one regular reading
@jit
def _score_reading(
    sets, pair, win_tile, sd, seat_w, round_w, unique, all34, base, fan, c, excluded
):
    """Fan table of one regular reading; returns its total, or -1 when the
    reading is not allowed (three identical chows in a hand that claimed
    nothing, see the module docstring).

    ``sets`` rows 0-3: [kind (1 chow, 2 pung, 3 kong), tile (chow: lowest),
    melded (0/1), 0]; ``base`` the whole-hand fans; ``unique``: the hand
    waited on the winning tile only; ``all34`` the hand's tiles, melds included.
    """
    for f in range(N_FANS):
        fan[f] = base[f]
    nc = 0
    npg = 0
    nw = 0
    nd = 0
    n19 = 0
    cp = 0  # concealed pungs and concealed kongs
    win_pung = False
    win_in_chow = False
    edge = False
    closed = False
    outside = pair >= 27 or pair == 0 or pair == 8
    rank_mask = 0  # numbered pungs by rank
    for i in range(4):
        k = sets[i, 0]
        t = sets[i, 1]
        melded = sets[i, 2]
        if k == 1:
            c[nc] = t
            nc += 1
            if t != 0 and t != 6:
                outside = False
            if melded == 0 and win_tile >= t and win_tile <= t + 2:
                win_in_chow = True
                e, m = chow_wait(t, win_tile)
                edge |= e
                closed |= m
        else:
            npg += 1
            if t >= 27:
                if t <= 30:
                    nw += 1
                    if t - 27 == round_w:
                        fan[PREVALENT_WIND] = 1
                    if t - 27 == seat_w:
                        fan[SEAT_WIND] = 1
                else:
                    nd += 1
                n19 += 1
            else:
                rank_mask |= 1 << int(t)
                if t == 0 or t == 8:
                    n19 += 1
                else:
                    outside = False
            if melded == 0:
                cp += 1
                if k == 2 and t == win_tile:
                    win_pung = True
    # sort chow starts
    for i in range(1, nc):
        v = c[i]
        j = i - 1
        while j >= 0 and c[j] > v:
            c[j + 1] = c[j]
            j -= 1
        c[j + 1] = v
    # three identical chows (and no fourth) in a hand that claimed nothing
    # ("如果没有开门"): settled as 一色三节高, the pung reading of the same tiles
    opened = False
    for i in range(4):
        if sets[i, 2]:
            opened = True
    if nc >= 3 and not opened:
        for i in range(4):
            if sets[i, 0] != 1:
                continue
            same = 0
            for j in range(4):
                if sets[j, 0] == 1 and sets[j, 1] == sets[i, 1]:
                    same += 1
            if same == 3:
                return -1
    if win_pung and not sd and not win_in_chow:
        cp -= 1  # the discard completed that pung
    # chows
    _chow_fans(fan, c, nc, pair)
    if nc == 4 and pair < 27:
        fan[ALL_CHOWS] = 1
    # pungs
    if npg == 4:
        fan[ALL_PUNGS] = 1
    if nw == 4:
        fan[BIG_FOUR_WINDS] = 1
    if nw == 3:
        if pair >= 27 and pair <= 30:
            fan[LITTLE_FOUR_WINDS] = 1
    if nw >= 3:
        fan[THREE_WIND_PUNGS] = 1
    if nd == 3:
        fan[BIG_THREE_DRAGONS] = 1
    if nd == 2 and pair >= 31:
        fan[LITTLE_THREE_DRAGONS] = 1
    if nd >= 2:
        fan[TWO_DRAGON_PUNGS] = 1
    fan[DRAGON_PUNG] = nd
    fan[PUNG_OF_TERMINALS_OR_HONORS] = n19
    run = 0
    longest = 0
    for r in range(9):
        if (rank_mask >> r) & 1:
            run += 1
            if run > longest:
                longest = run
        else:
            run = 0
    if longest >= 4:
        fan[FOUR_PURE_SHIFTED_PUNGS] = 1
    if longest >= 3:
        fan[PURE_SHIFTED_PUNGS] = 1
    if cp >= 2:
        fan[TWO_CONCEALED_PUNGS] = 1
    if cp >= 3:
        fan[THREE_CONCEALED_PUNGS] = 1
    if cp == 4:
        fan[FOUR_CONCEALED_PUNGS] = 1
    # pair
    if outside:
        fan[OUTSIDE_HAND] = 1
    if pair == 0 or pair == 8:
        fan[TERMINAL_PAIR] = 1
    if (pair == 1 or pair == 4 or pair == 7) and all34[pair] == 2:  # "3张以上不算"
        fan[PAIR_258] = 1
    # wait: one of 边张, 坎张, 单吊将
    score_wait_fan(
        fan, EDGE_WAIT, CLOSED_WAIT, SINGLE_WAIT, unique, edge, closed, pair == win_tile,
        _SINGLE_WAIT_NEEDS_UNIQUE,
    )  # fmt: skip
    _apply_exclusions(fan, excluded)
    return _total(fan)


# ---------------------------------------------------------------- whole-hand fans
@jit
def _flower_fans(base, flowers, seat_w):
    m = int(flowers)
    base[FLOWER_TILES] = popcount(m)
    if m == 0xFF:
        base[EIGHT_IMMORTALS] = 1
    if m & 0x0F == 0x0F:
        base[FOUR_SEASONS] = 1
    if m & 0xF0 == 0xF0:
        base[FOUR_GENTLEMEN] = 1
    if seat_w == 0 and m & 0x11 == 0x11:  # dealer: 春 + 梅
        base[SEAT_FLOWERS] = 1
    elif seat_w == 2 and m & 0x44 == 0x44:  # other player: 秋 + 竹
        base[SEAT_FLOWERS] = 1


@jit
def _tile_fans(base, all34, concealed, n_melds, kong_tiles):
    """Tile-content fans: 清一色 混一色 字一色 混幺九 断幺 大于五 小于五 四归一 九莲宝灯."""
    n_num = 0
    n_hon = 0
    simple = True
    tt = True  # only 1m, 9m and honours
    for t in range(9):
        c = all34[t]
        n_num += c
        if c:
            if t == 0 or t == 8:
                simple = False
            else:
                tt = False
    for t in range(27, 34):
        n_hon += all34[t]
    if n_hon:
        simple = False
    if n_num == 0:
        base[ALL_HONORS] = 1
    elif n_hon == 0:
        base[FULL_FLUSH] = 1
    else:
        base[HALF_FLUSH] = 1
    if simple:
        base[ALL_SIMPLES] = 1
    if tt and all34[0] > 0 and all34[8] > 0:
        base[ALL_TERMINALS_AND_HONORS] = 1
    if n_num > 0:
        # 大于五: every numbered tile 6-9; 小于五: every numbered tile 1-4
        lo_only = True
        hi_only = True
        for t in range(9):
            if all34[t]:
                if t >= 4:
                    lo_only = False
                if t <= 4:
                    hi_only = False
        if hi_only:
            base[UPPER_TILES] = 1
        if lo_only:
            base[LOWER_TILES] = 1
    base[TILE_HOG] = popcount(tile_summary(all34)[3] & ~kong_tiles)
    # 九莲宝灯: 1112345678999 + one more 万, all concealed, no meld
    if n_melds == 0 and n_hon == 0:
        extra = 0
        ok = True
        for r in range(9):
            want = 3 if (r == 0 or r == 8) else 1
            d = int(concealed[r]) - want
            if d < 0:
                ok = False
                break
            extra += d
        if ok and extra == 1:
            base[NINE_GATES] = 1


# ---------------------------------------------------------------- one hand
@jit
def score_hand(
    concealed,
    melds,
    win_tile,
    self_drawn,
    kong_win,
    last_of_wall,
    seat_wind,
    round_wind,
    flowers,
    situation,
    work,
    fan_out,
):
    """Score one complete two-player hand, flowers included.

    Parameters
    ----------
    concealed : uint8 (34,)
        Concealed tiles including the winning tile (characters and honours only).
    melds : uint8 (4, 2)
        ``[kind, tile]`` rows: 0 empty, 1 chow (lowest tile), 2 pung, 3 exposed
        kong, 4 concealed kong.
    win_tile : int
        Tile id of the winning tile (255 = a waiting hand).
    self_drawn, kong_win, last_of_wall : bool
        Win flags (海底捞月 = last_of_wall and self-drawn, 河底捞鱼 = last_of_wall
        on a discard, 杠上开花 = kong_win self-drawn with a kong meld).
    seat_wind, round_wind : int
        0-3; dealer = East (0), the other player = West (2).
    flowers : int
        8-bit flower mask (bit 0-3 春夏秋冬, 4-7 梅兰竹菊).
    situation : int
        Bits: 1 天胡, 2 地胡, 4 人胡, 8 报听 (立直), 16 天听.
    work : tuple of arrays
        From :func:`new_work` (one per thread).
    fan_out : uint8 (66,)
        Receives the fan counts of the chosen reading.

    Returns
    -------
    (int, int)
        The total (-1 when the hand is not complete or holds a dots or bamboo
        tile) and the form code (:data:`FORM_NAMES`). The chosen reading's sets
        are left in ``work[6]`` (rows [kind, tile, melded, 0]; kind 5 = pair).

    Examples
    --------
    >>> import numpy as np
    >>> from mjstats import parse_tiles
    >>> from mjstats.kernels.decompose import suit_table
    >>> conc = parse_tiles("22334455667788m")  # 大车轮, won on 8m
    >>> fan = np.zeros(N_FANS, np.uint8)
    >>> score_hand(conc, np.zeros((4, 2), np.uint8), 7, False, False, False, 0, 0, 0, 0,
    ...            new_work(suit_table()), fan)
    (90, 2)
    >>> [_FANS[f].key for f in np.flatnonzero(fan)]
    ['big_wheel', 'all_simples', 'pair_258']
    """
    fan, base, divisions, table, pairs, sets, bsets, all34, standing, excluded, c = work
    for i in range(8):
        for j in range(4):
            bsets[i, j] = 0
    present, _, _, _, n_conc = tile_summary(concealed)
    bad_tile = (present & _NOT_IN_GAME) != 0  # bamboo or dots (tiles 9-26)
    copy_tiles(concealed, all34)
    n_melds = 0
    n_exposed = 0
    mk = 0
    ck = 0
    kong_tiles = 0
    for i in range(4):
        k = melds[i, 0]
        t = melds[i, 1]
        if k == 0:
            continue
        n_melds += 1
        if t >= 9 and t < 27:
            bad_tile = True
        if k == 1:
            if t > 6:
                bad_tile = True
            else:
                all34[t] += 1
                all34[t + 1] += 1
                all34[t + 2] += 1
            n_exposed += 1
        elif k == 2:
            all34[t] += 3
            n_exposed += 1
        else:
            all34[t] += 4
            kong_tiles |= 1 << int(t)
            if k == 3:
                mk += 1
                n_exposed += 1
            else:
                ck += 1
    if bad_tile or win_tile > 33 or n_conc != 14 - 3 * n_melds or concealed[win_tile] == 0:
        for f in range(N_FANS):
            fan_out[f] = 0
        return -1, FORM_NONE
    sd = self_drawn
    sit = int(situation)
    # ---- whole-hand fans
    for f in range(N_FANS):
        base[f] = 0
    _tile_fans(base, all34, concealed, n_melds, kong_tiles)
    _flower_fans(base, flowers, seat_wind)
    if n_exposed == 0:
        base[CONCEALED_HAND] = 1
        if sd:
            base[FULLY_CONCEALED_HAND] = 1
        if sit & (SIT_READY | SIT_HEAVENLY_READY):
            base[DECLARED_READY] = 1
    if n_exposed == 4 and not sd:
        base[MELDED_HAND] = 1
    if sd:
        base[SELF_DRAWN] = 1
    if n_melds == 0:
        if sit & SIT_HEAVENLY_READY:
            base[HEAVENLY_READY] = 1
        if sit & SIT_HEAVENLY and seat_wind == 0 and sd:
            base[HEAVENLY_HAND] = 1
        if sit & SIT_EARTHLY and seat_wind != 0 and sd:
            base[EARTHLY_HAND] = 1
        if sit & SIT_HUMAN and seat_wind != 0 and not sd:
            base[HUMAN_HAND] = 1
    if last_of_wall:
        if sd:
            base[LAST_TILE_DRAW] = 1
        else:
            base[LAST_TILE_CLAIM] = 1
    if kong_win and sd and mk + ck > 0:
        base[OUT_WITH_REPLACEMENT_TILE] = 1
    kongs = mk + ck
    if kongs == 4:
        base[FOUR_KONGS] = 1
    elif kongs == 3:
        base[THREE_KONGS] = 1
    else:
        if mk == 2:
            base[TWO_MELDED_KONGS] = 1
        elif mk == 1:
            base[MELDED_KONG] = 1
        if ck == 2:
            base[TWO_CONCEALED_KONGS] = 1
        elif ck == 1:
            base[CONCEALED_KONG] = 1
    best = -1
    form = FORM_NONE
    # ---- seven pairs
    if n_melds == 0 and is_seven_pairs(concealed):
        for f in range(N_FANS):
            fan[f] = base[f]
        fan[SEVEN_PAIRS] = 1
        wheel = True
        for t in range(34):
            want = 2 if (t >= 1 and t <= 7) else 0
            if concealed[t] != want:
                wheel = False
        if wheel:
            fan[BIG_WHEEL] = 1
        if concealed[0] == 2 or concealed[8] == 2:
            fan[TERMINAL_PAIR] = 1
        if concealed[1] == 2 or concealed[4] == 2 or concealed[7] == 2:
            fan[PAIR_258] = 1
        fan[SINGLE_WAIT] = 1
        _apply_exclusions(fan, excluded)
        best = _total(fan)
        form = FORM_SEVEN_PAIRS
        for f in range(N_FANS):
            fan_out[f] = fan[f]
    # ---- regular readings
    n_div = enumerate_regular(concealed, table, divisions, pairs)
    if n_div > 0:
        # the only-wait test matters only if some reading has the winning tile
        # inside a concealed chow at an edge or closed position
        need_wait = False
        for d in range(n_div):
            for j in range(4 - n_melds):
                if divisions[d, j, 0] == 1:
                    edge, closed = chow_wait(np.int64(divisions[d, j, 1]), win_tile)
                    if edge or closed:
                        need_wait = True
        unique = False
        if need_wait:
            for t in range(34):
                standing[t] = concealed[t]
            standing[win_tile] -= 1
            odd = np.int64(0)
            dead = np.int64(0)  # a kind whose four copies are in the hand is no wait
            for t in range(34):
                if standing[t] & 1:
                    odd |= np.int64(1) << t
                if all34[t] >= 4:
                    dead |= np.int64(1) << t
            p0 = pairs[0]
            unique = unique_wait(
                standing, win_tile, n_melds, table.info, odd, p0 // 9 if p0 < 27 else 3, dead
            )
        nf = 0
        for i in range(4):
            k = melds[i, 0]
            if k == 0:
                continue
            sets[nf, 0] = k if k <= 3 else 3
            sets[nf, 1] = melds[i, 1]
            sets[nf, 2] = 0 if k == 4 else 1
            sets[nf, 3] = 0
            nf += 1
        for d in range(n_div):
            for j in range(4 - nf):
                sets[nf + j, 0] = divisions[d, j, 0]
                sets[nf + j, 1] = divisions[d, j, 1]
                sets[nf + j, 2] = 0
                sets[nf + j, 3] = 0
            total = _score_reading(
                sets,
                pairs[d],
                win_tile,
                sd,
                seat_wind,
                round_wind,
                unique,
                all34,
                base,
                fan,
                c,
                excluded,
            )
            if total > best:
                best = total
                form = FORM_REGULAR
                for f in range(N_FANS):
                    fan_out[f] = fan[f]
                keep_reading(sets, pairs[d], bsets)
    if best < 0:
        for f in range(N_FANS):
            fan_out[f] = 0
        return -1, FORM_NONE
    return best, form


@jit
def flower_points(fan):
    """Points of the flower fans (花牌, 季花, 春夏秋冬, 梅兰竹菊, 八仙过海) in ``fan``."""
    return (
        fan[FLOWER_TILES] * POINTS[FLOWER_TILES]
        + fan[SEAT_FLOWERS] * POINTS[SEAT_FLOWERS]
        + fan[FOUR_SEASONS] * POINTS[FOUR_SEASONS]
        + fan[FOUR_GENTLEMEN] * POINTS[FOUR_GENTLEMEN]
        + fan[EIGHT_IMMORTALS] * POINTS[EIGHT_IMMORTALS]
    )


@jit
def _score_block(
    lo,
    hi,
    concealed,
    melds,
    win_tile,
    self_drawn,
    kong_win,
    last_of_wall,
    seat_wind,
    round_wind,
    flowers,
    situation,
    minimum,
    flowers_count,
    out_total,
    out_fans,
    out_form,
    out_legal,
    out_sets,
    table,
):
    work = new_work(table)
    bsets = work[6]
    want_sets = out_sets.shape[0] > 0
    for i in range(lo, hi):
        total, form = score_hand(
            concealed[i],
            melds[i],
            win_tile[i],
            self_drawn[i],
            kong_win[i],
            last_of_wall[i],
            seat_wind[i],
            round_wind[i],
            flowers[i],
            situation[i],
            work,
            out_fans[i],
        )
        out_total[i] = total
        out_form[i] = form
        out_legal[i] = is_legal(total, flower_points(out_fans[i]), minimum, flowers_count)
        if want_sets:
            for a in range(8):
                for b in range(4):
                    out_sets[i, a, b] = bsets[a, b]


_BLOCK = 256


@pjit
def score_rows(
    concealed,
    melds,
    win_tile,
    self_drawn,
    kong_win,
    last_of_wall,
    seat_wind,
    round_wind,
    flowers,
    situation,
    minimum,
    flowers_count,
    out_total,
    out_fans,
    out_form,
    out_legal,
    out_sets,
    table,
):
    """Score N two-player hands in parallel (prange over blocks of rows).

    Arrays are those of a ``HandBatch``; ``minimum`` the points a legal win
    needs, counting flower points only when ``flowers_count``. Outputs
    ``out_total`` int16 (N,) (-1 = not complete), ``out_fans`` uint8 (N, 66),
    ``out_form`` uint8 (N,), ``out_legal`` bool (N,), ``out_sets`` uint8
    (N, 8, 4) or shape (0, 8, 4) to skip it; ``table`` is
    :func:`~mjstats.kernels.decompose.suit_table`.
    """
    n = concealed.shape[0]
    n_blocks = (n + _BLOCK - 1) // _BLOCK
    for b in prange(n_blocks):
        lo = np.int64(b) * _BLOCK  # the index's type differs between numba's two passes
        hi = min(n, lo + _BLOCK)
        _score_block(
            lo,
            hi,
            concealed,
            melds,
            win_tile,
            self_drawn,
            kong_win,
            last_of_wall,
            seat_wind,
            round_wind,
            flowers,
            situation,
            minimum,
            flowers_count,
            out_total,
            out_fans,
            out_form,
            out_legal,
            out_sets,
            table,
        )


@jit
def score_rows_serial(
    concealed,
    melds,
    win_tile,
    self_drawn,
    kong_win,
    last_of_wall,
    seat_wind,
    round_wind,
    flowers,
    situation,
    minimum,
    flowers_count,
    out_total,
    out_fans,
    out_form,
    out_legal,
    out_sets,
    table,
):
    """:func:`score_rows` on the calling thread: for small batches, where starting
    numba's thread pool costs more than the hands (see ``mjstats.text.PARALLEL_MIN_ROWS``)."""
    _score_block(
        0,
        concealed.shape[0],
        concealed,
        melds,
        win_tile,
        self_drawn,
        kong_win,
        last_of_wall,
        seat_wind,
        round_wind,
        flowers,
        situation,
        minimum,
        flowers_count,
        out_total,
        out_fans,
        out_form,
        out_legal,
        out_sets,
        table,
    )
