"""MCR fan kernels: score complete hands the way the reference scorer does.

The reference is ChineseOfficialMahjongHelper's ``calculate_fan`` as shipped in
PyMahjongGB 1.4.0 (see ``shared/reference/mcr-reference-behaviour.md``); these
kernels reproduce its fan tables, not its code. Fan ids, points
(:data:`POINTS_BY_PROFILE`) and the 不计 pass (:func:`_exclusions`) are generated
from the ruleset's fan table, :data:`mjstats.rulesets.mcr.FANS` (fan id =
reference id - 1), and from its profiles' changes to it; the rules that are not
plain 不计 pairs are the named entries of :data:`mjstats.rulesets.mcr.RULE_POINTS`
(and of the profiles), applied where their keys appear below.

Pipeline for one hand (:func:`score_hand`):

1. Normalise the win flags the way the reference does (和绝张 cleared when
   another copy is concealed, forced when the melds show the other three;
   杠上开花 cleared without a kong; 抢杠和 cleared when the tile is held
   elsewhere). The public wrapper rejects such contradictions instead.
2. Special forms: with no meld, seven pairs / seven shifted pairs, honours and
   knitted, thirteen orphans, then knitted straight + set + pair, then nine
   gates; with one meld, knitted straight + meld + pair.
3. Regular decompositions (when no special form matched, or it was seven
   pairs), in the reference's enumeration order, each scored by
   :func:`_score_division`: set-combination fans with the account-once caps,
   concealed-pung rule, kong fans, pair fans, tile fans, wait fans (unique
   formal wait only), the exclusion pass, the wind step, 无番和.
4. Best table: strictly higher total wins; on a tie a later table wins if it
   has 一色三同顺 or 三同刻, or if the current best is seven pairs.

The reading scorer works from tables rather than branches on set kinds (on
random hands those branches are unpredictable, and a mispredicted branch costs
more than a table load): each set is a :data:`_SET_INFO` row, and the
set-combination fans are two lookups, by the sorted multiset of the chows and
of the pungs, in tables made from the combination functions below
(:func:`build_combination_tables`) and shipped in
``mjstats/data/mcr-combinations.npz``.

Flowers are added by the caller (:func:`score_rows`) after the choice.

Options are a bit mask: :data:`OPT_MINGAN_GANG` (明暗杠 = 5, else 明杠 + 暗杠),
:data:`OPT_KNITTED_WAIT` (wait fans on a knitted-straight body), the profiles'
kernel switches (:data:`OPT_KONGS_KEEP_CONCEALED`, :data:`OPT_FORCED_QUAD`) and,
from bit :data:`PROFILE_SHIFT`, the profile's row of the points and 不计 tables
(:func:`mjstats.rulesets.mcr.binding.opts` makes the mask from a ruleset).

Forms (``form`` output codes): see :data:`FORM_NAMES`.
"""

from __future__ import annotations

import math

import numpy as np
from numba import prange

from mjstats._readonly import read_only
from mjstats.kernels._jit import hjit, ijit, jit, pjit
from mjstats.kernels.bits import copy_tiles, lowest_bit, nonzero_bits, popcount, tile_summary
from mjstats.kernels.decompose import (
    KNITTED,
    MAX_DECOMPOSITIONS,
    enumerate_regular,
    honors_knitted_kind,
    is_nine_gates,
    is_seven_pairs,
    is_seven_shifted_pairs,
    is_thirteen_orphans,
    keep_reading,
    knitted_body,
)
from mjstats.kernels.legality import is_legal
from mjstats.kernels.waits import chow_wait, score_wait_fan
from mjstats.kernels.waits import count_waits as _count_waits
from mjstats.kernels.waits import unique_wait as _unique_wait
from mjstats.rulesets.mcr.fans import FANS as _FANS
from mjstats.rulesets.mcr.fans import FORMS as _FORMS
from mjstats.rulesets.mcr.fans import RULESET as _RULESET

__all__ = [
    "FORM_NAMES",
    "N_FANS",
    "OPT_KNITTED_WAIT",
    "OPT_MINGAN_GANG",
    "POINTS",
    "new_work",
    "score_hand",
    "score_hand_forms",
    "score_rows",
    "score_rows_serial",
]

# ---------------------------------------------------------------- fan ids
# Ids, points and the 不计 pass come from the ruleset's fan table
# (mjstats/rulesets/mcr/fans.py): a fan's id is its row there.
_FAN_INDEX = {f.key: i for i, f in enumerate(_FANS)}
N_FANS = len(_FANS)


def _fan(key: str) -> int:
    """Id of the fan ``key`` (its row in the fan table); KeyError if it has none."""
    return _FAN_INDEX[key]


BIG_FOUR_WINDS = _fan("big_four_winds")  # 大四喜
BIG_THREE_DRAGONS = _fan("big_three_dragons")  # 大三元
ALL_GREEN = _fan("all_green")  # 绿一色
NINE_GATES = _fan("nine_gates")  # 九莲宝灯
FOUR_KONGS = _fan("four_kongs")  # 四杠
SEVEN_SHIFTED_PAIRS = _fan("seven_shifted_pairs")  # 连七对
THIRTEEN_ORPHANS = _fan("thirteen_orphans")  # 十三幺
ALL_TERMINALS = _fan("all_terminals")  # 清幺九
LITTLE_FOUR_WINDS = _fan("little_four_winds")  # 小四喜
LITTLE_THREE_DRAGONS = _fan("little_three_dragons")  # 小三元
ALL_HONORS = _fan("all_honors")  # 字一色
FOUR_CONCEALED_PUNGS = _fan("four_concealed_pungs")  # 四暗刻
PURE_TERMINAL_CHOWS = _fan("pure_terminal_chows")  # 一色双龙会
QUADRUPLE_CHOW = _fan("quadruple_chow")  # 一色四同顺
FOUR_PURE_SHIFTED_PUNGS = _fan("four_pure_shifted_pungs")  # 一色四节高
FOUR_PURE_SHIFTED_CHOWS = _fan("four_pure_shifted_chows")  # 一色四步高
THREE_KONGS = _fan("three_kongs")  # 三杠
ALL_TERMINALS_AND_HONORS = _fan("all_terminals_and_honors")  # 混幺九
SEVEN_PAIRS = _fan("seven_pairs")  # 七对
GREATER_HONORS_AND_KNITTED_TILES = _fan("greater_honors_and_knitted_tiles")  # 七星不靠
ALL_EVEN_PUNGS = _fan("all_even_pungs")  # 全双刻
FULL_FLUSH = _fan("full_flush")  # 清一色
PURE_TRIPLE_CHOW = _fan("pure_triple_chow")  # 一色三同顺
PURE_SHIFTED_PUNGS = _fan("pure_shifted_pungs")  # 一色三节高
UPPER_TILES = _fan("upper_tiles")  # 全大
MIDDLE_TILES = _fan("middle_tiles")  # 全中
LOWER_TILES = _fan("lower_tiles")  # 全小
PURE_STRAIGHT = _fan("pure_straight")  # 清龙
THREE_SUITED_TERMINAL_CHOWS = _fan("three_suited_terminal_chows")  # 三色双龙会
PURE_SHIFTED_CHOWS = _fan("pure_shifted_chows")  # 一色三步高
ALL_FIVE = _fan("all_five")  # 全带五
TRIPLE_PUNG = _fan("triple_pung")  # 三同刻
THREE_CONCEALED_PUNGS = _fan("three_concealed_pungs")  # 三暗刻
LESSER_HONORS_AND_KNITTED_TILES = _fan("lesser_honors_and_knitted_tiles")  # 全不靠
KNITTED_STRAIGHT = _fan("knitted_straight")  # 组合龙
UPPER_FOUR = _fan("upper_four")  # 大于五
LOWER_FOUR = _fan("lower_four")  # 小于五
BIG_THREE_WINDS = _fan("big_three_winds")  # 三风刻
MIXED_STRAIGHT = _fan("mixed_straight")  # 花龙
REVERSIBLE_TILES = _fan("reversible_tiles")  # 推不倒
MIXED_TRIPLE_CHOW = _fan("mixed_triple_chow")  # 三色三同顺
MIXED_SHIFTED_PUNGS = _fan("mixed_shifted_pungs")  # 三色三节高
CHICKEN_HAND = _fan("chicken_hand")  # 无番和
LAST_TILE_DRAW = _fan("last_tile_draw")  # 妙手回春
LAST_TILE_CLAIM = _fan("last_tile_claim")  # 海底捞月
OUT_WITH_REPLACEMENT_TILE = _fan("out_with_replacement_tile")  # 杠上开花
ROBBING_THE_KONG = _fan("robbing_the_kong")  # 抢杠和
ALL_PUNGS = _fan("all_pungs")  # 碰碰和
HALF_FLUSH = _fan("half_flush")  # 混一色
MIXED_SHIFTED_CHOWS = _fan("mixed_shifted_chows")  # 三色三步高
ALL_TYPES = _fan("all_types")  # 五门齐
MELDED_HAND = _fan("melded_hand")  # 全求人
TWO_CONCEALED_KONGS = _fan("two_concealed_kongs")  # 双暗杠
TWO_DRAGONS_PUNGS = _fan("two_dragons_pungs")  # 双箭刻
OUTSIDE_HAND = _fan("outside_hand")  # 全带幺
FULLY_CONCEALED_HAND = _fan("fully_concealed_hand")  # 不求人
TWO_MELDED_KONGS = _fan("two_melded_kongs")  # 双明杠
LAST_TILE = _fan("last_tile")  # 和绝张
DRAGON_PUNG = _fan("dragon_pung")  # 箭刻
PREVALENT_WIND = _fan("prevalent_wind")  # 圈风刻
SEAT_WIND = _fan("seat_wind")  # 门风刻
CONCEALED_HAND = _fan("concealed_hand")  # 门前清
ALL_CHOWS = _fan("all_chows")  # 平和
TILE_HOG = _fan("tile_hog")  # 四归一
DOUBLE_PUNG = _fan("double_pung")  # 双同刻
TWO_CONCEALED_PUNGS = _fan("two_concealed_pungs")  # 双暗刻
CONCEALED_KONG = _fan("concealed_kong")  # 暗杠
ALL_SIMPLES = _fan("all_simples")  # 断幺
PURE_DOUBLE_CHOW = _fan("pure_double_chow")  # 一般高
MIXED_DOUBLE_CHOW = _fan("mixed_double_chow")  # 喜相逢
SHORT_STRAIGHT = _fan("short_straight")  # 连六
TWO_TERMINAL_CHOWS = _fan("two_terminal_chows")  # 老少副
PUNG_OF_TERMINALS_OR_HONORS = _fan("pung_of_terminals_or_honors")  # 幺九刻
MELDED_KONG = _fan("melded_kong")  # 明杠
ONE_VOIDED_SUIT = _fan("one_voided_suit")  # 缺一门
NO_HONORS = _fan("no_honors")  # 无字
EDGE_WAIT = _fan("edge_wait")  # 边张
CLOSED_WAIT = _fan("closed_wait")  # 坎张
SINGLE_WAIT = _fan("single_wait")  # 单钓将
# 单钓将 only for a unique formal wait, as 边张 and 坎张 (docs/mcr-rules.md row 8)
_SINGLE_WAIT_NEEDS_UNIQUE = True
SELF_DRAWN = _fan("self_drawn")  # 自摸
FLOWER_TILES = _fan("flower_tiles")  # 花牌
CONCEALED_KONG_AND_MELDED_KONG = _fan("concealed_kong_and_melded_kong")  # 明暗杠

#: profiles of the ruleset (:mod:`mjstats.rulesets.mcr.profiles`), in the order
#: of the kernel's tables: row p of :data:`POINTS_BY_PROFILE` and of the 不计
#: lists is profile p, chosen by the bits ``opts >> PROFILE_SHIFT``
PROFILE_NAMES = tuple(_RULESET.profile_names())
_PROFILE_FANS = tuple(_RULESET.with_profile(name).fans for name in PROFILE_NAMES)
#: points of one occurrence of each fan id, per profile (the fan tables')
POINTS_BY_PROFILE = np.array([[f.points for f in fans] for fans in _PROFILE_FANS], dtype=np.int64)
POINTS_BY_PROFILE = read_only(POINTS_BY_PROFILE)
#: points of one occurrence of each fan id under the default profile (``reference``)
POINTS = POINTS_BY_PROFILE[0]
# the same as uint16 for _finish: LLVM then knows each product fits 32 bits (one
# vector multiply instead of three per four fans)
_POINTS_U16 = POINTS_BY_PROFILE.astype(np.uint16)
_POINTS_U16 = read_only(_POINTS_U16)

OPT_MINGAN_GANG = 1
OPT_KNITTED_WAIT = 2
#: rule point ``kongs_keep_concealed_kong_fans`` (profile wmo-2014)
OPT_KONGS_KEEP_CONCEALED = 4
#: rule point ``forced_quad_not_tile_hog`` (profile wmo-2014)
OPT_FORCED_QUAD = 8
#: ``opts >> PROFILE_SHIFT`` is the profile's row in the kernel's tables
PROFILE_SHIFT = 4

FORM_NONE = 0
FORM_REGULAR = 1
FORM_SEVEN_PAIRS = 2
FORM_SEVEN_SHIFTED_PAIRS = 3
FORM_THIRTEEN_ORPHANS = 4
FORM_LESSER_KNITTED = 5
FORM_GREATER_KNITTED = 6
FORM_KNITTED_STRAIGHT = 7
FORM_NINE_GATES = 8
#: ``form`` codes of :func:`score_hand` (index = code): the ruleset's form names
FORM_NAMES = _FORMS

# ---------------------------------------------------------------- tile tables
# reference sort code: suits characters, bamboo, dots; honours E S W N red green white
_REF_CODE = np.zeros(34, dtype=np.int64)
for _t in range(27):
    _REF_CODE[_t] = (0, 2, 1)[_t // 9] * 9 + _t % 9
for _t, _c in zip((27, 28, 29, 30, 33, 32, 31), range(27, 34), strict=True):
    _REF_CODE[_t] = _c
_REF_CODE = read_only(_REF_CODE)

_REVERSIBLE = np.zeros(34, dtype=np.bool_)
for _t in (9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 31):
    _REVERSIBLE[_t] = True
_REVERSIBLE = read_only(_REVERSIBLE)
_GREEN = np.zeros(34, dtype=np.bool_)
for _t in (19, 20, 21, 23, 25, 32):
    _GREEN[_t] = True
_GREEN = read_only(_GREEN)


def _set_traits() -> np.ndarray:
    """``[kind, tile]`` -> bits of the whole-hand traits a set keeps: 1 全带幺
    (holds a terminal or honour), 2 全带五 (holds a 5), 4 全双刻 (an even pung);
    kind 1 chow (lowest tile), 2 pung (and pair), 3 kong. A hand has a trait when
    its pair and all four sets keep it."""
    out = np.zeros((4, 34), dtype=np.uint8)
    for t in range(34):
        r = t % 9
        if t < 27 and r <= 6:
            out[1, t] = (1 if r in (0, 6) else 0) | (2 if 2 <= r <= 4 else 0)
        if t >= 27:
            out[2, t] = 1
        else:
            out[2, t] = (1 if r in (0, 8) else 0) | (2 if r == 4 else 0) | (4 if r % 2 else 0)
    out[3] = out[2]
    out = read_only(out)
    return out


_TRAITS = _set_traits()


def _suit_fan_table() -> np.ndarray:
    """Row ``g`` (bits: characters, bamboo, dots, winds, dragons present): 无字,
    缺一门, 混一色, 清一色, 五门齐 (0/1 each)."""
    out = np.zeros((32, 5), dtype=np.uint8)
    for g in range(32):
        ns = (g & 1) + (g >> 1 & 1) + (g >> 2 & 1)
        honors = g & 24 != 0
        out[g, 0] = not honors and ns != 1  # a one-suit hand is 清一色 instead
        out[g, 1] = ns == 2
        out[g, 2] = ns == 1 and honors
        out[g, 3] = ns == 1 and not honors
        out[g, 4] = ns == 3 and g & 8 != 0 and g & 16 != 0
    out = read_only(out)
    return out


_SUIT_FANS = _suit_fan_table()


def _mask_of(tiles) -> int:
    m = 0
    for t in tiles:
        m |= 1 << int(t)
    return m


_SUIT0 = 0x1FF
_SUIT1 = 0x1FF << 9
_SUIT2 = 0x1FF << 18
_WINDS = 0xF << 27
_DRAGONS = 0x7 << 31
_HONORS = 0x7F << 27
_NUMBERED = (1 << 27) - 1
_TERMINALS = _mask_of((0, 8, 9, 17, 18, 26))
_ORPHANS = _TERMINALS | _HONORS
_REVERSIBLE_MASK = _mask_of(np.flatnonzero(_REVERSIBLE))
_GREEN_MASK = _mask_of(np.flatnonzero(_GREEN))
_KNITTED_MASKS = np.array([_mask_of(row) for row in KNITTED], dtype=np.int64)
_KNITTED_MASKS = read_only(_KNITTED_MASKS)


def _range_fan_table() -> np.ndarray:
    """Ranks present in a numbered-only hand (9-bit mask) -> ``fan id | 1 << 7``
    of 小于五, 全小, 大于五, 全大 or 全中, else 0 (fan 0 counted 0 times: adding
    it is harmless, so the caller needs no branch)."""
    out = np.zeros(512, dtype=np.int64)
    for rm in range(1, 512):
        if rm & ~0xF == 0:
            f = LOWER_FOUR if rm & 0x8 else LOWER_TILES
        elif rm & 0x1F == 0:
            f = UPPER_FOUR if rm & 0x20 else UPPER_TILES
        elif rm & ~0x38 == 0:
            f = MIDDLE_TILES
        else:
            continue
        out[rm] = f | 1 << 7
    out = read_only(out)
    return out


_RANGE_FANS = _range_fan_table()

# ---------------------------------------------------------------- sets as table rows
# A reading's sets are scored from table rows, not by branching on their kinds
# (random hands make those branches unpredictable). Chow code: reference suit * 7
# + rank of the lowest tile, 0-20 (21: not a chow); pung code: the reference
# code, 0-33 (34: not a pung or kong). Both orders agree with the reference codes.
_CHOW_NONE = 21
_PUNG_NONE = 34
_CHOW_CODE = np.full(34, _CHOW_NONE, dtype=np.int64)
for _t in range(27):
    if _t % 9 <= 6:
        _CHOW_CODE[_t] = (_REF_CODE[_t] // 9) * 7 + _t % 9
_CHOW_CODE = read_only(_CHOW_CODE)

# fields of a _SET_INFO row: the two codes, then 4-bit counters that a reading
# sums over its four rows (codes sum to at most 84 and 136: no carry into them),
# then two flags of the set itself
_SI_PUNGS = 16  # pungs and kongs
_SI_MELDED_KONGS = 20
_SI_CONCEALED_KONGS = 24
_SI_CONCEALED_PUNGS = 28
_SI_DRAGON_PUNGS = 32  # 箭刻
_SI_TERMINAL_PUNGS = 36  # 幺九刻: terminals and winds
_SI_WIND_PUNGS = 40
_SI_CONCEALED_CHOW = 44  # flag
_SI_CONCEALED_PUNG = 45  # flag (not a kong)


def _set_info_table() -> np.ndarray:
    """``[2 * kind + melded, tile]`` -> packed row of one set (kind 1 chow with
    its lowest tile, 2 pung, 3 kong); fields ``_SI_*`` above."""
    out = np.zeros((8, 34), dtype=np.int64)
    for kind in (1, 2, 3):
        for melded in (0, 1):
            for t in range(34):
                if kind == 1:
                    if t >= 27 or t % 9 > 6:
                        continue
                    row = int(_CHOW_CODE[t]) | _PUNG_NONE << 8
                    row |= (0 if melded else 1) << _SI_CONCEALED_CHOW
                else:
                    row = _CHOW_NONE | int(_REF_CODE[t]) << 8 | 1 << _SI_PUNGS
                    if kind == 3:
                        row |= 1 << (_SI_MELDED_KONGS if melded else _SI_CONCEALED_KONGS)
                    elif not melded:
                        row |= 1 << _SI_CONCEALED_PUNGS | 1 << _SI_CONCEALED_PUNG
                    if t >= 31:
                        row |= 1 << _SI_DRAGON_PUNGS
                    elif t >= 27 or t % 9 in (0, 8):
                        row |= 1 << _SI_TERMINAL_PUNGS
                    if 27 <= t <= 30:
                        row |= 1 << _SI_WIND_PUNGS
                out[2 * kind + melded, t] = row
    out = read_only(out)
    return out


_SET_INFO = _set_info_table()

# Set-combination fans (一般高 ... 四同顺, 双同刻 ... 四步高刻) depend only on the
# multiset of a reading's chow codes and, apart, on that of its pung codes. Each
# is padded to four codes, sorted and ranked as a multiset (combinatorial number
# system: a <= b <= c <= d has rank C(a, 1) + C(b + 1, 2) + C(c + 2, 3) +
# C(d + 3, 4)), and one table entry gives its fans (see _pack_fans).
_BIN = np.array([[math.comb(x, k + 1) for x in range(40)] for k in range(4)], dtype=np.int64)
_BIN = read_only(_BIN)


@jit
def new_work(table):
    """Scratch for :func:`score_hand`: a tuple of arrays, one per thread, reused
    across hands (no allocation per hand), holding the read-only
    :class:`~mjstats.kernels.decompose.SuitTable` ``table``
    (:func:`~mjstats.kernels.decompose.suit_table`). Callable from jitted code."""
    return (
        np.zeros(N_FANS, dtype=np.uint8),  # fan (reading being scored)
        np.zeros((MAX_DECOMPOSITIONS, 4, 2), dtype=np.uint8),  # divisions
        table,  # per-suit splits and waits
        np.zeros((8, 4), dtype=np.uint8),  # sets of the reading
        np.zeros((8, 4), dtype=np.uint8),  # sets of the best reading
        np.zeros(N_FANS, dtype=np.uint8),  # base
        np.zeros(34, dtype=np.uint8),  # standing
        np.zeros(34, dtype=np.uint8),  # all34
        np.zeros(34, dtype=np.uint8),  # tmp
        np.zeros(MAX_DECOMPOSITIONS, dtype=np.uint8),  # pairs
        np.zeros(8, dtype=np.uint8),  # gbuf
    )


# ---------------------------------------------------------------- set combinations
# The definitions of the set-combination fans. The scorer does not call them: it
# reads the tables made from them (build_combination_tables, below).
@hjit
def _chow_pair_fan(a, b):
    """Fan of two chows given by reference codes of their lowest tiles, or -1."""
    if a > b:
        a, b = b, a
    if a // 9 == b // 9:
        d = b - a
        if d == 0:
            return PURE_DOUBLE_CHOW
        if d == 3:
            return SHORT_STRAIGHT
        if d == 6:
            return TWO_TERMINAL_CHOWS
        return -1
    if a % 9 == b % 9:
        return MIXED_DOUBLE_CHOW
    return -1


@hjit
def _three_chow_fan(a, b, c):
    """3-chow fan of sorted reference codes (lowest tiles), or -1."""
    sa = a // 9
    sb = b // 9
    sc = c // 9
    ra = a % 9
    rb = b % 9
    rc = c % 9
    if sa != sb and sb != sc and sa != sc:
        lo = min(ra, min(rb, rc))
        hi = max(ra, max(rb, rc))
        distinct = ra != rb and rb != rc and ra != rc
        if distinct and hi - lo == 2:
            return MIXED_SHIFTED_CHOWS
        if distinct and lo == 0 and hi == 6 and ra + rb + rc == 9:
            return MIXED_STRAIGHT
        if ra == rb and rb == rc:
            return MIXED_TRIPLE_CHOW
        return -1
    if sa == sb and sb == sc:
        d1 = b - a
        d2 = c - b
        if d1 == d2 and (d1 == 1 or d1 == 2):
            return PURE_SHIFTED_CHOWS
        if ra == 0 and rb == 3 and rc == 6:
            return PURE_STRAIGHT
        if d1 == 0 and d2 == 0:
            return PURE_TRIPLE_CHOW
    return -1


@hjit
def _extra_chow_fan(a, b, c, x):
    """Best pair-fan of chow ``x`` with one of ``a, b, c`` (一般高 > 喜相逢 > 连六 > 老少副)."""
    f0 = _chow_pair_fan(a, x)
    f1 = _chow_pair_fan(b, x)
    f2 = _chow_pair_fan(c, x)
    if f0 == PURE_DOUBLE_CHOW or f1 == PURE_DOUBLE_CHOW or f2 == PURE_DOUBLE_CHOW:
        return PURE_DOUBLE_CHOW
    if f0 == MIXED_DOUBLE_CHOW or f1 == MIXED_DOUBLE_CHOW or f2 == MIXED_DOUBLE_CHOW:
        return MIXED_DOUBLE_CHOW
    if f0 == SHORT_STRAIGHT or f1 == SHORT_STRAIGHT or f2 == SHORT_STRAIGHT:
        return SHORT_STRAIGHT
    if f0 == TWO_TERMINAL_CHOWS or f1 == TWO_TERMINAL_CHOWS or f2 == TWO_TERMINAL_CHOWS:
        return TWO_TERMINAL_CHOWS
    return -1


@hjit
def _capped_chow_pairs(fan, p0, p1, p2, p3, p4, p5, cap):
    """Rule point ``account_once_chow_pairs``: add pair-fans (ids or -1), at most
    ``cap``, trimming duplicates in the order 老少副, 连六, 喜相逢, 一般高 (first
    down to 1, then to 0)."""
    cnt0 = 0
    cnt1 = 0
    cnt2 = 0
    cnt3 = 0
    for i in range(6):
        f = (
            p0
            if i == 0
            else (p1 if i == 1 else (p2 if i == 2 else (p3 if i == 3 else (p4 if i == 4 else p5))))
        )
        if f == PURE_DOUBLE_CHOW:
            cnt0 += 1
        elif f == MIXED_DOUBLE_CHOW:
            cnt1 += 1
        elif f == SHORT_STRAIGHT:
            cnt2 += 1
        elif f == TWO_TERMINAL_CHOWS:
            cnt3 += 1
    total = cnt0 + cnt1 + cnt2 + cnt3
    limit = 1
    while total > cap and limit >= 0:
        # 老少副
        while cnt3 > limit and total > cap:
            cnt3 -= 1
            total -= 1
        while cnt2 > limit and total > cap:
            cnt2 -= 1
            total -= 1
        while cnt1 > limit and total > cap:
            cnt1 -= 1
            total -= 1
        while cnt0 > limit and total > cap:
            cnt0 -= 1
            total -= 1
        limit -= 1
    fan[PURE_DOUBLE_CHOW] += cnt0
    fan[MIXED_DOUBLE_CHOW] += cnt1
    fan[SHORT_STRAIGHT] += cnt2
    fan[TWO_TERMINAL_CHOWS] += cnt3


@hjit
def _four_chows(fan, c0, c1, c2, c3):
    """Chow fans of 4 chows (sorted reference codes); 双龙会 is checked by the caller."""
    if c0 // 9 == c3 // 9:
        d1 = c1 - c0
        d2 = c2 - c1
        d3 = c3 - c2
        if d1 == 0 and d2 == 0 and d3 == 0:
            fan[QUADRUPLE_CHOW] = 1
            return
        if d1 == d2 and d2 == d3 and (d1 == 1 or d1 == 2):
            fan[FOUR_PURE_SHIFTED_CHOWS] = 1
            return
    f = _three_chow_fan(c0, c1, c2)
    if f >= 0:
        fan[f] = 1
        g = _extra_chow_fan(c0, c1, c2, c3)
        if g >= 0:
            fan[g] += 1
        return
    f = _three_chow_fan(c0, c1, c3)
    if f >= 0:
        fan[f] = 1
        g = _extra_chow_fan(c0, c1, c3, c2)
        if g >= 0:
            fan[g] += 1
        return
    f = _three_chow_fan(c0, c2, c3)
    if f >= 0:
        fan[f] = 1
        g = _extra_chow_fan(c0, c2, c3, c1)
        if g >= 0:
            fan[g] += 1
        return
    f = _three_chow_fan(c1, c2, c3)
    if f >= 0:
        fan[f] = 1
        g = _extra_chow_fan(c1, c2, c3, c0)
        if g >= 0:
            fan[g] += 1
        return
    p01 = _chow_pair_fan(c0, c1)
    p02 = _chow_pair_fan(c0, c2)
    p03 = _chow_pair_fan(c0, c3)
    p12 = _chow_pair_fan(c1, c2)
    p13 = _chow_pair_fan(c1, c3)
    p23 = _chow_pair_fan(c2, c3)
    cap = 3
    if p01 < 0 and p02 < 0 and p03 < 0:
        cap -= 1
    if p01 < 0 and p12 < 0 and p13 < 0:
        cap -= 1
    if p02 < 0 and p12 < 0 and p23 < 0:
        cap -= 1
    if p03 < 0 and p13 < 0 and p23 < 0:
        cap -= 1
    if cap > 0:
        _capped_chow_pairs(fan, p01, p02, p03, p12, p13, p23, cap)


@hjit
def _three_chows(fan, c0, c1, c2):
    f = _three_chow_fan(c0, c1, c2)
    if f >= 0:
        fan[f] = 1
        return
    _capped_chow_pairs(
        fan, _chow_pair_fan(c0, c1), _chow_pair_fan(c0, c2), _chow_pair_fan(c1, c2), -1, -1, -1, 2
    )


@hjit
def _pung_pair_fan(a, b):
    """Fan of two pungs given by reference codes, or -1."""
    if a < 27 and b < 27:
        if a % 9 == b % 9:
            return DOUBLE_PUNG
        return -1
    if a >= 31 and b >= 31:
        return TWO_DRAGONS_PUNGS
    return -1


@hjit
def _three_pung_fan(a, b, c):
    """3-pung fan of sorted reference codes, or -1."""
    if a < 27 and b < 27 and c < 27:
        sa = a // 9
        sb = b // 9
        sc = c // 9
        ra = a % 9
        rb = b % 9
        rc = c % 9
        if sa != sb and sb != sc and sa != sc:
            lo = min(ra, min(rb, rc))
            hi = max(ra, max(rb, rc))
            if ra != rb and rb != rc and ra != rc and hi - lo == 2:
                return MIXED_SHIFTED_PUNGS
            if ra == rb and rb == rc:
                return TRIPLE_PUNG
            return -1
        if sa == sb and sb == sc and b - a == 1 and c - b == 1:
            return PURE_SHIFTED_PUNGS
        return -1
    if a >= 27 and c <= 30:
        return BIG_THREE_WINDS
    if a >= 31:
        return BIG_THREE_DRAGONS
    return -1


@hjit
def _four_pungs(fan, p):
    """Pung fans of 4 pungs (sorted reference codes in p[0:4])."""
    a = p[0]
    b = p[1]
    c = p[2]
    d = p[3]
    if a < 27 and d < 27 and a // 9 == d // 9 and b - a == 1 and c - b == 1 and d - c == 1:
        fan[FOUR_PURE_SHIFTED_PUNGS] = 1
        return
    if a >= 27 and d <= 30:
        fan[BIG_FOUR_WINDS] = 1
        return
    free = -1
    f = _three_pung_fan(a, b, c)
    if f >= 0:
        free = 3
    else:
        f = _three_pung_fan(a, b, d)
        if f >= 0:
            free = 2
        else:
            f = _three_pung_fan(a, c, d)
            if f >= 0:
                free = 1
            else:
                f = _three_pung_fan(b, c, d)
                if f >= 0:
                    free = 0
    if free >= 0:
        fan[f] = 1
        for i in range(4):
            if i == free:
                continue
            g = _pung_pair_fan(p[i], p[free])
            if g >= 0:
                fan[g] += 1
                break
        return
    _pung_pairs(fan, p, 4)


@hjit
def _pung_pairs(fan, p, n):
    """Add the fan of every two of the ``n`` pungs ``p[:n]`` (双同刻, 双箭刻)."""
    for i in range(n):
        for j in range(i + 1, n):
            g = _pung_pair_fan(p[i], p[j])
            if g >= 0:
                fan[g] += 1


@hjit
def _chow_fans(fan, ref, n):
    """Add the fans of ``n`` chows (sorted reference codes of their lowest tiles
    in ``ref[:n]``); 双龙会 needs the pair and is the reading scorer's."""
    if n == 4:
        _four_chows(fan, ref[0], ref[1], ref[2], ref[3])
    elif n == 3:
        _three_chows(fan, ref[0], ref[1], ref[2])
    elif n == 2:
        g = _chow_pair_fan(ref[0], ref[1])
        if g >= 0:
            fan[g] += 1


@hjit
def _pung_fans(fan, ref, n):
    """Add the fans of ``n`` pungs or kongs (sorted reference codes in ``ref[:n]``)."""
    if n == 4:
        _four_pungs(fan, ref)
        return
    f = _three_pung_fan(ref[0], ref[1], ref[2]) if n == 3 else -1
    if f >= 0:
        fan[f] = 1
    else:
        _pung_pairs(fan, ref, n)


@hjit
def _rank4(a, b, c, d):
    """Rank of the sorted multiset ``a <= b <= c <= d`` (see :data:`_BIN`)."""
    return _BIN[0, a] + _BIN[1, b + 1] + _BIN[2, c + 2] + _BIN[3, d + 3]


@hjit
def _pack_fans(fan):
    """The non-zero entries of ``fan`` as up to three 9-bit slots (fan id, then its
    count in 2 bits); an unused slot is fan 0 counted 0 times, harmless to add."""
    e = 0
    s = 0
    for f in range(N_FANS):
        if fan[f]:
            if s == 3 or fan[f] > 3:
                raise ValueError("a set combination has more fans than a table entry holds")
            e |= (f | (np.int64(fan[f]) << 7)) << (9 * s)
            s += 1
    return e


@jit
def _multiset_table(none, chows):
    """Packed fans of every sorted multiset of four codes below ``none`` or equal
    to it (= no set), indexed by :func:`_rank4`: chow codes when ``chows``, else
    pung codes (a repeated pung code, which no reading has, is left 0)."""
    out = np.zeros(_BIN[3, none + 4], dtype=np.uint32)
    fan = np.zeros(N_FANS, dtype=np.uint8)
    ref = np.zeros(4, dtype=np.int64)
    for d in range(none + 1):
        for c in range(d + 1):
            for b in range(c + 1):
                for a in range(b + 1):
                    if not chows and (a == b < none or b == c < none or c == d < none):
                        continue  # a reading holds one pung of a kind at most
                    n = 0
                    for x in (a, b, c, d):
                        if x != none:
                            ref[n] = (x // 7) * 9 + x % 7 if chows else x
                            n += 1
                    fan[:] = 0
                    if chows:
                        _chow_fans(fan, ref, n)
                    else:
                        _pung_fans(fan, ref, n)
                    out[_rank4(a, b, c, d)] = _pack_fans(fan)
    return out


def build_combination_tables() -> tuple[np.ndarray, np.ndarray]:
    """The set-combination tables from their definitions (the functions above).

    Returns ``(chows, pungs)``: uint32 entries (:func:`_pack_fans`) indexed by the
    rank of a reading's sorted chow codes and pung codes. The scorer uses the copy
    shipped in ``mjstats/data/mcr-combinations.npz`` (compiling this builder
    would add seconds to every cold start); the test suite checks that the two are
    equal, and :func:`write_combination_tables` remakes the file.

    Examples
    --------
    >>> chows, pungs = build_combination_tables()
    >>> chows.shape, pungs.shape  # multisets of 4 of 22 chow and 35 pung codes
    ((12650,), (73815,))
    >>> bool((chows == _CHOW_FANS).all() and (pungs == _PUNG_FANS).all())  # the shipped copy
    True
    """
    return _multiset_table(_CHOW_NONE, True), _multiset_table(_PUNG_NONE, False)


def _combinations_path():
    from importlib import resources

    return resources.files("mjstats").joinpath("data", "mcr-combinations.npz")


def write_combination_tables(path=None) -> None:
    """Remake the shipped set-combination tables (after changing a definition)."""
    chows, pungs = build_combination_tables()
    np.savez_compressed(_combinations_path() if path is None else path, chows=chows, pungs=pungs)


def _load_combination_tables() -> tuple[np.ndarray, np.ndarray]:
    with _combinations_path().open("rb") as fh, np.load(fh) as z:
        chows, pungs = z["chows"], z["pungs"]
    if chows.shape != (_BIN[3, _CHOW_NONE + 4],) or pungs.shape != (_BIN[3, _PUNG_NONE + 4],):
        raise RuntimeError(
            "mjstats/data/mcr-combinations.npz does not fit this version of mjstats; "
            "remake it with mjstats.rulesets.mcr.kernel.write_combination_tables()"
        )
    chows = read_only(chows)
    pungs = read_only(pungs)
    return chows, pungs


_CHOW_FANS, _PUNG_FANS = _load_combination_tables()


@hjit
def _add_packed(fan, e):
    """Add a packed table entry's fans (:func:`_pack_fans`) to ``fan``."""
    fan[e & 127] += (e >> 7) & 3
    fan[(e >> 9) & 127] += (e >> 16) & 3
    fan[(e >> 18) & 127] += (e >> 25) & 3


# ---------------------------------------------------------------- tile-level fans
@hjit
def _win_flag_fans(fan, sd, t4, kong, wall):
    """Win-flag fans (all stored, no branches: self-drawn is a coin toss on random
    hands). 抢杠和 cancels 和绝张."""
    rob = kong & (not sd)
    fan[LAST_TILE] = t4 & (not rob)
    fan[LAST_TILE_DRAW] = wall & sd
    fan[LAST_TILE_CLAIM] = wall & (not sd)
    fan[OUT_WITH_REPLACEMENT_TILE] = kong & sd
    fan[ROBBING_THE_KONG] = rob
    fan[SELF_DRAWN] = sd


@hjit
def _has_knitted(pm):
    """Some knitted sequence (组合龙) is fully present in the presence mask."""
    for k in range(6):
        km = _KNITTED_MASKS[k]
        if (pm & km) == km:
            return True
    return False


@hjit
def _suit_fans(fan, pm):
    """无字, 缺一门, 混一色, 清一色, 五门齐 from the presence mask ``pm`` (one
    lookup in :data:`_SUIT_FANS` by which of the five tile groups are present)."""
    g = (
        (1 if pm & _SUIT0 else 0)
        | (2 if pm & _SUIT1 else 0)
        | (4 if pm & _SUIT2 else 0)
        | (8 if pm & _WINDS else 0)
        | (16 if pm & _DRAGONS else 0)
    )
    fan[NO_HONORS] = _SUIT_FANS[g, 0]
    fan[ONE_VOIDED_SUIT] = _SUIT_FANS[g, 1]
    fan[HALF_FLUSH] = _SUIT_FANS[g, 2]
    fan[FULL_FLUSH] = _SUIT_FANS[g, 3]
    fan[ALL_TYPES] = _SUIT_FANS[g, 4]


@hjit
def _trait_fans(fan, pm):
    """断幺, 推不倒, 绿一色, 字一色, 清幺九, 混幺九 from the presence mask."""
    orphans_only = (pm & ~_ORPHANS) == 0
    honors_only = (pm & ~_HONORS) == 0
    terminals_only = (pm & ~_TERMINALS) == 0
    fan[ALL_SIMPLES] = (pm & _ORPHANS) == 0
    fan[REVERSIBLE_TILES] = (pm & ~_REVERSIBLE_MASK) == 0
    fan[ALL_GREEN] = (pm & ~_GREEN_MASK) == 0
    fan[ALL_HONORS] = honors_only
    fan[ALL_TERMINALS] = terminals_only
    fan[ALL_TERMINALS_AND_HONORS] = orphans_only & (not honors_only) & (not terminals_only)


@hjit
def _range_fans(fan, pm):
    """全小/小于五, 全大/大于五, 全中 (numbered tiles only) from the presence mask:
    one lookup by the ranks present (none when honours are present)."""
    rm = (pm | (pm >> 9) | (pm >> 18)) & 0x1FF
    e = _RANGE_FANS[rm * ((pm & _HONORS) == 0)]
    fan[e & 127] += e >> 7


def _exclusion_lists(fans) -> tuple[list, list, list]:
    """One fan table's 不计 lists as flat lists for :func:`_exclusions`: the fans
    that exclude something, in id order; where each one's targets start in the
    target list; the targets."""
    index = {f.key: i for i, f in enumerate(fans)}
    excluders, start, targets = [], [0], []
    for a, f in enumerate(fans):
        if f.excludes:
            excluders.append(a)
            targets.extend(index[k] for k in f.excludes)
            start.append(len(targets))
    # the pass runs in id order and a fan removed before its turn removes nothing:
    # that holds only if an excluder comes before every excluder it removes (or
    # the two exclude each other: then the first one counted wins)
    for a in excluders:
        for k in fans[a].excludes:
            b = index[k]
            mutual = fans[a].key in fans[b].excludes
            if b < a and fans[b].excludes and not mutual:  # pragma: no cover
                raise ImportError(f"MCR fan table: {fans[a].key} excludes the earlier {k}")
    return excluders, start, targets


def _exclusion_tables() -> tuple[np.ndarray, np.ndarray]:
    """:func:`_exclusion_lists` of every profile as bit masks over the fan ids
    (two uint64 words: ids 0-63 and 64-): per profile the excluders, per
    profile and fan the fans it excludes."""
    lists = [_exclusion_lists(fans) for fans in _PROFILE_FANS]
    excluders = np.zeros((len(lists), 2), dtype=np.uint64)
    targets = np.zeros((len(lists), N_FANS, 2), dtype=np.uint64)
    for p, (e, st, t) in enumerate(lists):
        for j, a in enumerate(e):
            excluders[p, a // 64] |= np.uint64(1) << np.uint64(a % 64)
            for x in t[st[j] : st[j + 1]]:
                targets[p, a, x // 64] |= np.uint64(1) << np.uint64(x % 64)
    return read_only(excluders), read_only(targets)


if N_FANS > 128:  # pragma: no cover - layout guard
    raise ImportError("the 不计 pass holds the fans in two 64-bit words")
_N_HIGH = N_FANS - 64  # fans in the second word
_EXCL_BY, _EXCL_OF = _exclusion_tables()


@hjit
def _exclusions(fan, opts):
    """The 不计 pass, generated from the fan table (``FanDef.excludes``), then the
    rule points that are not plain pairs. In id (value) order, a counted fan
    removes the fans it excludes; a fan removed before its turn excludes nothing
    (so 四暗刻, removing 不求人, leaves 自摸 counted: rule point
    ``excluded_fans_exclude_nothing`` of :data:`mjstats.rulesets.mcr.RULE_POINTS`).
    Then ``big_three_winds_take_terminal_pungs``. The wind step
    (:func:`_wind_pung`) follows, per wind set, in the callers. The lists are
    those of the profile in ``opts``.

    It works on the fans as bits (which are counted: two vector compares of
    the ``N_FANS`` counts, so ``fan`` holds that many), visiting only the
    excluders counted, lowest id first, each removing its fans' bits; the fans
    whose bits went are then zeroed. A hand pays for the excluders it has. The
    pass before this one tested eight fans a word and walked each counted
    excluder's target list: 110 instructions a hand more on mixed hands (1962
    against 1852, ``benchmarks/count_instructions.py``), 85 on concealed."""
    p = np.uint64(opts) >> np.uint64(PROFILE_SHIFT)  # unsigned: no index wraparound
    one = np.uint64(1)
    lo0 = nonzero_bits(fan, 0, 64)
    hi0 = nonzero_bits(fan, 64, _N_HIGH)
    lo = lo0
    hi = hi0
    x = lo & _EXCL_BY[p, 0]
    while x:
        a = lowest_bit(x)
        lo &= ~_EXCL_OF[p, a, 0]
        hi &= ~_EXCL_OF[p, a, 1]
        x &= (x - one) & lo  # next excluder still counted
    x = hi & _EXCL_BY[p, 1]
    while x:
        a = np.uint64(64) + lowest_bit(x)
        lo &= ~_EXCL_OF[p, a, 0]
        hi &= ~_EXCL_OF[p, a, 1]
        x &= (x - one) & hi
    gone = lo0 & ~lo
    while gone:
        fan[lowest_bit(gone)] = 0
        gone &= gone - one
    gone = hi0 & ~hi
    while gone:
        fan[np.uint64(64) + lowest_bit(gone)] = 0
        gone &= gone - one
    _big_three_winds_take_terminal_pungs(fan)


@hjit
def _big_three_winds_take_terminal_pungs(fan):
    """Rule point ``big_three_winds_take_terminal_pungs``: 三风刻 takes the 幺九刻
    of its three wind pungs (under 字一色 or 混幺九 no 幺九刻 is left to take)."""
    if fan[BIG_THREE_WINDS]:
        fan[PUNG_OF_TERMINALS_OR_HONORS] = max(np.int64(fan[PUNG_OF_TERMINALS_OR_HONORS]) - 3, 0)


@hjit
def _wind_pung(fan, t, seat_w, round_w):
    """Wind step for one wind pung/kong tile ``t`` (after the exclusion pass):
    rule point ``wind_pungs_replace_terminal_pung``."""
    w = t - 27
    keep = (
        fan[BIG_THREE_WINDS] == 0
        and fan[ALL_TERMINALS_AND_HONORS] == 0
        and fan[ALL_HONORS] == 0
        and fan[LITTLE_FOUR_WINDS] == 0
    )
    if w == round_w:
        fan[PREVALENT_WIND] = 1
        if keep and fan[PUNG_OF_TERMINALS_OR_HONORS] > 0:
            fan[PUNG_OF_TERMINALS_OR_HONORS] -= 1
    if w == seat_w:
        fan[SEAT_WIND] = 1
        if keep and w != round_w and fan[PUNG_OF_TERMINALS_OR_HONORS] > 0:
            fan[PUNG_OF_TERMINALS_OR_HONORS] -= 1


@hjit
def _finish(fan, opts):
    """无番和 when nothing scored; returns the total (flowers not included) in
    the points of the profile in ``opts``."""
    p = np.uint64(opts) >> np.uint64(PROFILE_SHIFT)  # unsigned: no index wraparound
    total = 0
    for f in range(N_FANS):
        total += np.int64(fan[f]) * np.int64(_POINTS_U16[p, f])
    if total == 0:
        fan[CHICKEN_HAND] = 1
        total = np.int64(_POINTS_U16[p, CHICKEN_HAND])
    return total


@hjit
def _kong_fans(fan, mk, ck, cp, opts):
    """Kong fans and concealed-pung fans from melded kongs, concealed kongs and
    concealed pungs."""
    kongs = mk + ck
    if kongs == 1:
        if mk == 1:
            fan[MELDED_KONG] = 1
        else:
            fan[CONCEALED_KONG] = 1
    elif kongs == 2:
        if ck == 0:
            fan[TWO_MELDED_KONGS] = 1
        elif ck == 1:
            if opts & OPT_MINGAN_GANG:
                fan[CONCEALED_KONG_AND_MELDED_KONG] = 1
            else:
                fan[MELDED_KONG] = 1
                fan[CONCEALED_KONG] = 1
        else:
            fan[TWO_CONCEALED_KONGS] = 1
    elif kongs >= 3:
        fan[THREE_KONGS if kongs == 3 else FOUR_KONGS] = 1
        if opts & OPT_KONGS_KEEP_CONCEALED:  # rule point kongs_keep_concealed_kong_fans
            if ck == 1:
                fan[CONCEALED_KONG] = 1
            elif ck == 2:
                fan[TWO_CONCEALED_KONGS] = 1
    c = ck + cp
    if c == 2:
        fan[TWO_CONCEALED_PUNGS] = 1
    elif c == 3:
        fan[THREE_CONCEALED_PUNGS] = 1
    elif c == 4:
        fan[FOUR_CONCEALED_PUNGS] = 1


@hjit
def _pung_kong_fans(fan, acc, cp, opts):
    """箭刻 and 幺九刻 counts, kong and concealed-pung fans of summed
    :data:`_SET_INFO` rows ``acc`` (a reading's, or one set's); ``cp`` is the
    concealed pungs, after the caller's rule for a pung completed by a discard."""
    fan[DRAGON_PUNG] += (acc >> _SI_DRAGON_PUNGS) & 15
    fan[PUNG_OF_TERMINALS_OR_HONORS] += (acc >> _SI_TERMINAL_PUNGS) & 15
    if (acc >> _SI_PUNGS) & 15:
        mk = (acc >> _SI_MELDED_KONGS) & 15
        ck = (acc >> _SI_CONCEALED_KONGS) & 15
        _kong_fans(fan, mk, ck, cp, opts)


@hjit
def _base_fans(fan, sd, t4, kong, wall, n_melded, pm, all34, n_kongs):
    """Write the division-independent fans of a regular hand into ``fan`` (all
    other entries zeroed): win flags, concealment, suit/trait/range fans (from
    the presence mask ``pm``), 四归一 (from ``all34``, the tiles with melds)."""
    for f in range(N_FANS):
        fan[f] = 0
    _win_flag_fans(fan, sd, t4, kong, wall)
    concealed = n_melded == 0
    fan[FULLY_CONCEALED_HAND] = concealed & sd
    fan[CONCEALED_HAND] = concealed & (not sd)
    fan[MELDED_HAND] = (n_melded == 4) & (not sd)
    _suit_fans(fan, pm)
    _trait_fans(fan, pm)
    _range_fans(fan, pm)
    fan[TILE_HOG] = popcount(tile_summary(all34)[3]) - n_kongs


@hjit
def _sort4(a, b, c, d):
    """The four values ascending (a sorting network: no data-dependent branches)."""
    a, b = min(a, b), max(a, b)
    c, d = min(c, d), max(c, d)
    a, c = min(a, c), max(a, c)
    b, d = min(b, d), max(b, d)
    b, c = min(b, c), max(b, c)
    return np.int64(a), np.int64(b), np.int64(c), np.int64(d)


@hjit
def _terminal_chows(fan, c0, c1, c2, c3, ps):
    """一色双龙会 / 三色双龙会 of four sorted chow codes with a pair of 5s in
    reference suit ``ps`` (123 + 789 twice in the pair's suit, or once in each of
    the two other suits); True when one of them was scored."""
    lo = 7 * ps  # chow code of 123 in the pair's suit
    if c0 == lo and c1 == lo and c2 == lo + 6 and c3 == lo + 6:
        fan[PURE_TERMINAL_CHOWS] = 1
        return True
    a = c0 // 7
    b = c2 // 7
    if (
        c0 == 7 * a
        and c1 == c0 + 6
        and c2 == 7 * b
        and c3 == c2 + 6
        and a != b
        and a != ps
        and b != ps
    ):
        fan[THREE_SUITED_TERMINAL_CHOWS] = 1
        return True
    return False


# ---------------------------------------------------------------- one regular division
@hjit
def _score_division(
    sets, pair, win_tile, sd, unique_wait, seat_w, round_w, opts, base, fan, tmp, copy_base
):
    """Fan table of one regular division.

    ``sets`` rows 0-3: [kind (1 chow, 2 pung, 3 kong), tile (chow: lowest),
    melded (0/1), 0]. ``base`` holds the division-independent fans (win flags,
    concealment, suit/trait/range fans, 四归一), copied into ``fan`` when
    ``copy_base`` (else ``fan`` already holds them). Returns the total.
    """
    if copy_base:
        for f in range(N_FANS):
            fan[f] = base[f]
    # One pass over the sets, each a _SET_INFO row: its codes, the counters summed
    # in `acc`, traits, where the winning tile sits. No branch on the set kinds.
    win_in_chow = False  # in a concealed chow
    win_pung = False  # a concealed (non-kong) pung of the winning tile
    edge = False
    closed = False
    traits = _TRAITS[2, pair]  # a pair has a pung's traits
    acc = 0
    for i in range(4):
        k = np.int64(sets[i, 0])
        t = np.int64(sets[i, 1])
        row = _SET_INFO[2 * k + sets[i, 2], t]
        tmp[i] = row & 255  # chow code
        tmp[4 + i] = (row >> 8) & 255  # pung code
        acc += row
        d = win_tile - t
        inside = ((row >> _SI_CONCEALED_CHOW) & 1 == 1) & (d >= 0) & (d <= 2)
        win_in_chow |= inside
        e, m = chow_wait(t, win_tile)
        edge |= inside & e
        closed |= inside & m
        win_pung |= ((row >> _SI_CONCEALED_PUNG) & 1 == 1) & (d == 0)
        traits &= _TRAITS[k, t]
    npg = (acc >> _SI_PUNGS) & 15
    cp = (acc >> _SI_CONCEALED_PUNGS) & 15
    if win_pung and not sd and not win_in_chow:
        cp -= 1  # rule point discard_completes_pung_melded
    _pung_kong_fans(fan, acc, cp, opts)
    if npg == 4 and fan[FOUR_KONGS] == 0 and fan[FOUR_CONCEALED_PUNGS] == 0:
        fan[ALL_PUNGS] = 1
    # set-combination fans: two table lookups (双龙会 also needs the pair)
    c0, c1, c2, c3 = _sort4(tmp[0], tmp[1], tmp[2], tmp[3])
    p0, p1, p2, p3 = _sort4(tmp[4], tmp[5], tmp[6], tmp[7])
    _add_packed(fan, _PUNG_FANS[_rank4(p0, p1, p2, p3)])
    pr = _REF_CODE[pair]
    if not (npg == 0 and pr < 27 and pr % 9 == 4 and _terminal_chows(fan, c0, c1, c2, c3, pr // 9)):
        _add_packed(fan, _CHOW_FANS[_rank4(c0, c1, c2, c3)])
    if npg == 0 and pr < 27:
        fan[ALL_CHOWS] = 1
    # pair-dependent
    if fan[TWO_DRAGONS_PUNGS] and pair >= 31:
        fan[LITTLE_THREE_DRAGONS] = 1
        fan[TWO_DRAGONS_PUNGS] = 0
    if fan[BIG_THREE_WINDS] and pair >= 27 and pair <= 30:
        fan[LITTLE_FOUR_WINDS] = 1
        fan[BIG_THREE_WINDS] = 0
    # 全带幺, 全带五, 全双刻
    fan[OUTSIDE_HAND] = traits & 1
    fan[ALL_FIVE] = (traits >> 1) & 1
    fan[ALL_EVEN_PUNGS] = traits >> 2
    # wait fans (edge > closed > single), only for a unique formal wait
    score_wait_fan(
        fan, EDGE_WAIT, CLOSED_WAIT, SINGLE_WAIT, unique_wait, edge, closed, pair == win_tile,
        _SINGLE_WAIT_NEEDS_UNIQUE,
    )  # fmt: skip
    _exclusions(fan, opts)
    if (acc >> _SI_WIND_PUNGS) & 15 and fan[BIG_FOUR_WINDS] == 0:
        for i in range(4):
            t = np.int64(sets[i, 1])  # int64 as in _score_knitted_straight: one compile
            if sets[i, 0] >= 2 and t >= 27 and t <= 30:
                _wind_pung(fan, t, seat_w, round_w)
    return _finish(fan, opts)


# ---------------------------------------------------------------- special forms
@hjit
def _score_seven_pairs(conc, sd, t4, kong, wall, opts, fan):
    for f in range(N_FANS):
        fan[f] = 0
    if is_seven_shifted_pairs(conc):
        fan[SEVEN_SHIFTED_PAIRS] = 1
        _trait_fans(fan, tile_summary(conc)[0])
        _concealed_form_flags(fan, sd, t4, kong, wall)
        _exclusions(fan, opts)
        return _finish(fan, opts), FORM_SEVEN_SHIFTED_PAIRS
    fan[SEVEN_PAIRS] = 1
    pm, _, _, four, _ = tile_summary(conc)
    _suit_fans(fan, pm)
    _trait_fans(fan, pm)
    _range_fans(fan, pm)
    fan[TILE_HOG] = popcount(four)
    if opts & OPT_FORCED_QUAD and (fan[ALL_GREEN] or fan[ALL_TERMINALS]):
        fan[TILE_HOG] -= 1  # rule point forced_quad_not_tile_hog (six kinds: one is a quad)
    _concealed_form_flags(fan, sd, t4, kong, wall)
    _exclusions(fan, opts)
    return _finish(fan, opts), FORM_SEVEN_PAIRS


@hjit
def _concealed_form_flags(fan, sd, t4, kong, wall):
    """Win-flag fans of a special form (no meld), with 不求人 on a self-draw: the
    form's 不计 list decides whether 不求人 (then excluding 自摸) or 自摸 counts
    (the reference lists 不求人 under every such form; WMO 2014 does not)."""
    _win_flag_fans(fan, sd, t4, kong, wall)
    fan[FULLY_CONCEALED_HAND] = sd


@hjit
def _score_nine_gates(win_tile, sd, t4, kong, wall, opts, fan):
    """九莲宝灯: the fans of its best reading but one terminal pung's 幺九刻 (rule
    point ``nine_gates_takes_one_terminal_pung``), by the winning tile's rank."""
    for f in range(N_FANS):
        fan[f] = 0
    fan[NINE_GATES] = 1
    r = win_tile % 9
    if r == 0 or r == 8:
        fan[PURE_STRAIGHT] = 1
        fan[TILE_HOG] = 1
    elif r == 1 or r == 7:
        fan[TWO_CONCEALED_PUNGS] = 1
        fan[SHORT_STRAIGHT] = 1
        fan[PUNG_OF_TERMINALS_OR_HONORS] = 1
    elif r == 4:
        fan[TWO_CONCEALED_PUNGS] = 1
        fan[PUNG_OF_TERMINALS_OR_HONORS] = 1
    else:
        fan[SHORT_STRAIGHT] = 1
    _concealed_form_flags(fan, sd, t4, kong, wall)
    _exclusions(fan, opts)
    return _finish(fan, opts)


@hjit
def _score_knitted_straight(
    conc,
    all34,
    melds,
    n_melds,
    win_tile,
    sd,
    t4,
    kong,
    wall,
    seat_w,
    round_w,
    opts,
    fan,
    rem,
    sets,
    gbuf,
):
    """组合龙 + one set + pair (no meld), or + the meld + pair (one meld).
    Returns (total, body index) or (-1, -1)."""
    k = knitted_body(conc)
    if k < 0:
        return -1, -1
    for t in range(34):
        rem[t] = conc[t]
    for j in range(9):
        rem[KNITTED[k, j]] -= 1
    # the rest: one set + pair (no meld) or a pair (one meld)
    pair = -1
    set_kind = 0
    set_tile = 0
    set_melded = 0
    if n_melds == 0:
        n_pairs = 0
        n_found = 0
        for p in range(34):
            if rem[p] >= 2:
                rem[p] -= 2
                # the three left must be a pung or a chow
                first = -1
                for t in range(34):
                    if rem[t] > 0:
                        first = t
                        break
                if first >= 0:
                    if rem[first] == 3:
                        n_found += 1
                        pair = p
                        set_kind = 2
                        set_tile = first
                    elif (
                        first < 27
                        and first % 9 <= 6
                        and rem[first] == 1
                        and rem[first + 1] == 1
                        and rem[first + 2] == 1
                    ):
                        n_found += 1
                        pair = p
                        set_kind = 1
                        set_tile = first
                rem[p] += 2
                n_pairs += 1
        if n_found != 1:
            return -1, -1
    else:
        mi = -1
        for i in range(4):
            if melds[i, 0] != 0:
                mi = i
        for p in range(34):
            if rem[p] == 2:
                pair = p
            elif rem[p] != 0:
                return -1, -1
        if pair < 0:
            return -1, -1
        mk_ = melds[mi, 0]
        set_tile = melds[mi, 1]
        if mk_ == 1:
            set_kind = 1
            set_melded = 1
        elif mk_ == 2:
            set_kind = 2
            set_melded = 1
        elif mk_ == 3:
            set_kind = 3
            set_melded = 1
        else:
            set_kind = 3
            set_melded = 0
    for f in range(N_FANS):
        fan[f] = 0
    fan[KNITTED_STRAIGHT] = 1
    if set_kind == 1:
        if pair < 27:
            fan[ALL_CHOWS] = 1
    else:
        row = _SET_INFO[2 * set_kind + set_melded, set_tile]
        _pung_kong_fans(fan, row, (row >> _SI_CONCEALED_PUNGS) & 15, opts)
    _win_flag_fans(fan, sd, t4, kong, wall)
    if n_melds == 0 or (set_kind == 3 and not set_melded):
        if sd:
            fan[FULLY_CONCEALED_HAND] = 1
        else:
            fan[CONCEALED_HAND] = 1
    # wait fans, judged on the tiles outside the knitted body
    in_body = False
    for j in range(9):
        if KNITTED[k, j] == win_tile:
            in_body = True
    if rem[win_tile] > 0 and (not in_body or (opts & OPT_KNITTED_WAIT)):
        rem[win_tile] -= 1
        if _count_waits(rem, 1, 2, gbuf) == 1:
            edge, closed = chow_wait(set_tile, win_tile)
            in_chow = set_kind == 1 and not set_melded
            score_wait_fan(
                fan, EDGE_WAIT, CLOSED_WAIT, SINGLE_WAIT, True, edge and in_chow,
                closed and in_chow, pair == win_tile, _SINGLE_WAIT_NEEDS_UNIQUE,
            )  # fmt: skip
        rem[win_tile] += 1
    pm, _, _, four, _ = tile_summary(all34)
    _suit_fans(fan, pm)
    _trait_fans(fan, pm)
    hog = popcount(four)
    if set_kind == 3:
        hog -= 1
    if hog > 0:
        fan[TILE_HOG] = hog
    _exclusions(fan, opts)
    if set_kind >= 2 and set_tile >= 27 and set_tile <= 30:
        _wind_pung(fan, set_tile, seat_w, round_w)
    # record the reading: set, pair
    sets[0, 0] = set_kind
    sets[0, 1] = set_tile
    sets[0, 2] = set_melded
    sets[1, 0] = 5
    sets[1, 1] = pair
    sets[1, 2] = 0
    sets[2, 0] = 6
    sets[2, 1] = k
    sets[2, 2] = 0
    return _finish(fan, opts), k


# ---------------------------------------------------------------- form checks
@ijit
def _special_form(counts, pm, odd, multi):
    """``(form, seq, nh)``: the special form of the 14 concealed tiles ``counts``
    (``pm``, ``odd``, ``multi``: their masks from :func:`tile_summary`), tried in
    :func:`score_hand`'s order: :data:`FORM_SEVEN_PAIRS` (seven pairs, maybe
    shifted: :func:`_score_seven_pairs` tells), the honours-and-knitted forms
    (``seq``: the knitted row, ``nh``: the honours), :data:`FORM_THIRTEEN_ORPHANS`,
    else :data:`FORM_NONE`. The last three are the hand's only reading."""
    if odd == 0 and is_seven_pairs(counts):
        return FORM_SEVEN_PAIRS, -1, 0
    if multi == 0:  # 14 distinct kinds
        seq, nh = honors_knitted_kind(counts)
        if seq >= 0:
            return (FORM_GREATER_KNITTED if nh == 7 else FORM_LESSER_KNITTED), seq, nh
    elif pm == _ORPHANS and is_thirteen_orphans(counts):
        return FORM_THIRTEEN_ORPHANS, -1, 0
    return FORM_NONE, -1, 0


@hjit
def _score_one_fan_form(fan, form, nh, sd, t4, kong, wall, opts):
    """Fan table and total of a form of :func:`_special_form` whose fan is the
    form itself: 十三幺, 七星不靠, or 全不靠 (with 组合龙 when ``nh`` is 5), plus
    the win flags."""
    for f in range(N_FANS):
        fan[f] = 0
    if form == FORM_THIRTEEN_ORPHANS:
        fan[THIRTEEN_ORPHANS] = 1
    elif form == FORM_GREATER_KNITTED:
        fan[GREATER_HONORS_AND_KNITTED_TILES] = 1
    else:
        fan[LESSER_HONORS_AND_KNITTED_TILES] = 1
        if nh == 5:
            fan[KNITTED_STRAIGHT] = 1
    _concealed_form_flags(fan, sd, t4, kong, wall)
    _exclusions(fan, opts)
    return _finish(fan, opts)


@ijit
def _one_suit(pm):
    """The tiles of presence mask ``pm`` are of one suit (九莲宝灯 may apply)."""
    return (pm & ~_SUIT0) == 0 or (pm & ~_SUIT1) == 0 or (pm & ~_SUIT2) == 0


@ijit
def _wait_fan_possible(divisions, pairs, n_div, n_sets, win_tile):
    """Whether some regular reading could score a wait fan (its pair is the
    winning tile, or one of its first ``n_sets`` sets is a chow with the winning
    tile as 边张 or 坎张): only then is the unique-wait test needed."""
    for d in range(n_div):
        if pairs[d] == win_tile:
            return True
        for j in range(n_sets):
            if divisions[d, j, 0] == 1:
                edge, closed = chow_wait(np.int64(divisions[d, j, 1]), win_tile)
                if edge or closed:
                    return True
    return False


# ---------------------------------------------------------------- one hand
@ijit
def score_hand(
    concealed,
    melds,
    win_tile,
    self_drawn,
    last_of_kind,
    kong_win,
    last_of_wall,
    seat_wind,
    round_wind,
    opts,
    scratch,
    fan_out,
):
    """Score one complete MCR hand (flowers not included).

    Parameters
    ----------
    concealed : uint8 (34,)
        Concealed tiles including the winning tile.
    melds : uint8 (4, 2)
        ``[kind, tile]`` rows: 0 empty, 1 chow (lowest tile), 2 pung, 3 exposed
        kong, 4 concealed kong.
    win_tile : int
        Tile id of the winning tile.
    self_drawn, last_of_kind, kong_win, last_of_wall : bool
        Win flags (normalised as the reference does).
    seat_wind, round_wind : int
        0-3 = East, South, West, North.
    opts : int
        Bit mask of options, kernel switches and profile (module docstring;
        :func:`mjstats.rulesets.mcr.binding.opts`).
    scratch : tuple of arrays
        From :func:`new_work` (reused; one per thread).
    fan_out : uint8 (82,)
        Receives the fan counts of the chosen reading (flowers slot left 0).

    Returns
    -------
    (int, int)
        Total without flowers (-1 when the hand is not complete) and the form
        code (:data:`FORM_NAMES`). The chosen reading's sets are left in
        ``scratch[4]`` (rows of [kind, tile, melded, 0]; kind 5 = pair,
        6 = knitted body with its :data:`KNITTED` row as tile).
    """
    return score_hand_forms(
        concealed, melds, win_tile, self_drawn, last_of_kind, kong_win, last_of_wall,
        seat_wind, round_wind, opts, scratch, fan_out, True,
    )  # fmt: skip


#: what :func:`score_hand_forms` returns for a hand it leaves to the full scorer
NEEDS_ALL_FORMS = -2


@ijit
def score_hand_forms(
    concealed, melds, win_tile, self_drawn, last_of_kind, kong_win, last_of_wall, seat_wind,
    round_wind, opts, scratch, fan_out, all_forms,
):  # fmt: skip
    """:func:`score_hand` (``all_forms`` True) or its common-forms copy
    (``all_forms`` None): that copy compiles without the special forms' code and
    returns ``(NEEDS_ALL_FORMS, FORM_NONE)``, scoring nothing, for a hand whose
    shape could be one (:func:`_maybe_special`); every other hand gets the
    result of :func:`score_hand`. ``mjstats.score`` compiles the copy first and
    the full scorer only for such a hand (a cold start compiles a third less)."""
    fan, divisions, table, sets, bsets, base, standing, all34, tmp, pairs, gbuf = scratch
    # scalar types normalised (as in _score_range), so _score_hand is compiled once
    return _score_hand(
        concealed, melds, np.int64(win_tile), bool(self_drawn), bool(last_of_kind),
        bool(kong_win), bool(last_of_wall), np.int64(seat_wind), np.int64(round_wind),
        np.int64(opts), fan, divisions, table, sets, bsets, base, standing, all34, tmp, pairs,
        gbuf, fan_out, all_forms,
    )  # fmt: skip


@ijit
def _maybe_special(n_melds, odd_c, multi, pm_c):
    """Whether a hand could be a special form, from its summaries: the union of
    the guards of :func:`_score_hand`'s special-form branches (each branch tests
    one of these first), so a hand outside it is scored by the regular
    decompositions alone."""
    if n_melds == 0:
        if odd_c == 0 or not multi or pm_c == _ORPHANS or _one_suit(pm_c):
            return True
    return n_melds <= 1 and _has_knitted(pm_c)


@hjit
def _score_hand(
    concealed, melds, win_tile, self_drawn, last_of_kind, kong_win, last_of_wall, seat_wind,
    round_wind, opts, fan, divisions, table, sets, bsets, base, standing, all34, tmp, pairs,
    gbuf, fan_out, all_forms,
):  # fmt: skip
    """:func:`score_hand` with the scratch arrays as arguments: a batch loop
    unpacks the scratch tuple once, not once per hand (each unpacking costs
    reference-count updates). ``all_forms``: True, or None for the common-forms
    copy of :func:`score_hand_forms` (``is None`` is decided when numba
    compiles, and the code of the branch not taken is never typed or compiled)."""
    for i in range(8):
        for j in range(4):
            bsets[i, j] = 0
    # ---- tiles of the whole hand
    n_melds = 0
    n_melded = 0
    n_kongs = 0
    has_kong = False
    meld_w = 0
    # whole-vector summaries and copies (bits.py): as loops over the 34 tiles,
    # LLVM unrolled them into several instructions a tile
    pm_c, odd_c, multi_c, _, n_conc = tile_summary(concealed)
    copy_tiles(concealed, all34)
    pm_m = 0
    for i in range(4):
        k = melds[i, 0]
        t = melds[i, 1]
        if k == 0:
            continue
        n_melds += 1
        if k == 1:
            pm_m |= 7 << t
            all34[t] += 1
            all34[t + 1] += 1
            all34[t + 2] += 1
            n_melded += 1
            if win_tile >= t and win_tile <= t + 2:
                meld_w += 1
        elif k == 2:
            pm_m |= 1 << t
            all34[t] += 3
            n_melded += 1
            if t == win_tile:
                meld_w += 3
        else:
            pm_m |= 1 << t
            all34[t] += 4
            n_kongs += 1
            has_kong = True
            if k == 3:
                n_melded += 1
            if t == win_tile:
                meld_w += 4
    if win_tile > 33 or n_conc != 14 - 3 * n_melds or concealed[win_tile] == 0:
        for f in range(N_FANS):
            fan_out[f] = 0
        return -1, FORM_NONE
    # ---- normalise the win flags
    sd = self_drawn
    t4 = last_of_kind
    kong = kong_win
    wall = last_of_wall
    if concealed[win_tile] >= 2:
        t4 = False
    if meld_w == 3:
        t4 = True
    if kong:
        if sd:
            if not has_kong:
                kong = False
        elif concealed[win_tile] >= 2 or meld_w > 0:
            kong = False
    if kong and not sd:
        t4 = False
    best_total = -1
    form = FORM_NONE
    best_is_seven_pairs = False
    # ---- special forms
    if all_forms is None:
        if _maybe_special(n_melds, odd_c, multi_c, pm_c):
            return NEEDS_ALL_FORMS, FORM_NONE
    elif n_melds == 0:
        special, seq, nh = _special_form(concealed, pm_c, odd_c, multi_c)
        if special == FORM_SEVEN_PAIRS:
            best_total, form = _score_seven_pairs(concealed, sd, t4, kong, wall, opts, fan)
            best_is_seven_pairs = form == FORM_SEVEN_PAIRS
            for f in range(N_FANS):
                fan_out[f] = fan[f]
            if form == FORM_SEVEN_SHIFTED_PAIRS:
                return best_total, form
        elif special != FORM_NONE:  # the hand's only reading
            total = _score_one_fan_form(fan, special, nh, sd, t4, kong, wall, opts)
            for f in range(N_FANS):
                fan_out[f] = fan[f]
            if special != FORM_THIRTEEN_ORPHANS:
                bsets[0, 0] = 6
                bsets[0, 1] = seq
            return total, special
    if all_forms is not None and n_melds <= 1 and form == FORM_NONE and _has_knitted(pm_c):
        total, _ = _score_knitted_straight(
            concealed,
            all34,
            melds,
            n_melds,
            win_tile,
            sd,
            t4,
            kong,
            wall,
            seat_wind,
            round_wind,
            opts,
            fan,
            tmp,
            bsets,
            gbuf,
        )
        if total >= 0:
            for f in range(N_FANS):
                fan_out[f] = fan[f]
            return total, FORM_KNITTED_STRAIGHT
    # standing tiles (without the winning tile)
    copy_tiles(concealed, standing)
    standing[win_tile] -= 1
    if (
        all_forms is not None
        and n_melds == 0
        and form == FORM_NONE
        and _one_suit(pm_c)
        and is_nine_gates(standing, win_tile)
    ):
        total = _score_nine_gates(win_tile, sd, t4, kong, wall, opts, fan)
        for f in range(N_FANS):
            fan_out[f] = fan[f]
        return total, FORM_NINE_GATES
    # ---- regular decompositions
    n_div = enumerate_regular(concealed, table, divisions, pairs)
    if n_div > 0:
        # A single reading (the common case) is scored straight into fan_out:
        # no division-independent template to copy, nothing to copy back.
        direct = n_div == 1 and best_total < 0
        src = fan_out if direct else base  # the division-independent fans
        dst = fan_out if direct else fan  # the reading being scored
        _base_fans(src, sd, t4, kong, wall, n_melded, pm_c | pm_m, all34, n_kongs)
        need_wait = _wait_fan_possible(divisions, pairs, n_div, 4 - n_melds, win_tile)
        p0 = pairs[0]
        # a kind whose four copies are in the hand is still a formal wait (no dead kinds)
        unique_wait = need_wait and _unique_wait(
            standing, win_tile, n_melds, table.info, odd_c ^ (np.int64(1) << win_tile),
            p0 // 9 if p0 < 27 else 3, 0,
        )  # fmt: skip
        # fixed melds occupy the first rows
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
            total = _score_division(
                sets, pairs[d], win_tile, sd, unique_wait, seat_wind, round_wind, opts, src,
                dst, tmp, not direct,
            )  # fmt: skip
            # rule point best_reading_tie_order
            better = total > best_total  # always, for the single reading of the direct path
            if not better and total == best_total:
                better = dst[PURE_TRIPLE_CHOW] > 0 or dst[TRIPLE_PUNG] > 0 or best_is_seven_pairs
            if better:
                best_total = total
                best_is_seven_pairs = False
                form = FORM_REGULAR
                if not direct:
                    for f in range(N_FANS):
                        fan_out[f] = dst[f]
                keep_reading(sets, pairs[d], bsets)
    if best_total < 0:
        for f in range(N_FANS):
            fan_out[f] = 0
        return -1, FORM_NONE
    return best_total, form


# The batch loop's own copy of _score_hand, inlined into it: as a call, each hand
# passed ~125 machine words of arguments (14 arrays, seven or more words each);
# inlined, the loop also keeps the scratch arrays' fields in registers. 8-10%
# faster on one thread (alternated timings on the same 100k mixed or concealed
# hands). The studies call the compiled _score_hand through score_hand.
# LLVM does not inline it by itself: as a plain call, 2066 instructions a mixed
# hand against 1852 (benchmarks/count_instructions.py) for about 3.5 s less
# compile CPU (one loaded run); with numba's forceinline (LLVM alwaysinline),
# 1861 and about 1 s less, within the noise of a side-by-side cold
# `mjstats score` (2026-12-02). Neither was worth it.
_score_hand_inlined = ijit(getattr(_score_hand, "py_func", _score_hand))  # no py_func without JIT


# Apart from its callers (which allocate the scratch) so that it runs without
# reference counting: with it, every row view (concealed[i], melds[i],
# out_fans[i]) took an atomic increment and decrement of its whole array's
# count, and inlining _score_hand into a loop that counts references made it
# slower, not faster. The entries call it directly: numba links a callee's code
# into each caller and optimises and compiles it again there, so each dispatcher
# level between an entry and this loop cost a compile of the whole scorer
# (about 1.5 s of a cold start; there was one more, _score_block).
@hjit
def _score_range(
    lo, hi, concealed, melds, win_tile, self_drawn, last_of_kind, kong_win, last_of_wall,
    seat_wind, round_wind, flowers, opts, minimum, flowers_count, out_total, out_fans, out_form,
    out_legal, out_sets, work,
):  # fmt: skip
    fan, divisions, table, sets, bsets, base, standing, all34, tmp, pairs, gbuf = work
    want_sets = out_sets.shape[0] > 0
    for i_ in range(lo, hi):
        # unsigned, so numba indexes the rows without its wraparound of negative
        # indices (three instructions an access: 2% of the instructions a hand)
        i = np.uint64(i_)
        total, form = _score_hand_inlined(
            concealed[i], melds[i], np.int64(win_tile[i]), bool(self_drawn[i]),
            bool(last_of_kind[i]), bool(kong_win[i]), bool(last_of_wall[i]),
            np.int64(seat_wind[i]), np.int64(round_wind[i]), np.int64(opts), fan, divisions,
            table, sets, bsets, base, standing, all34, tmp, pairs, gbuf, out_fans[i], True,
        )  # fmt: skip
        if total < 0:
            out_total[i] = -1
            out_form[i] = FORM_NONE
            out_legal[i] = False
        else:
            nfl = popcount(flowers[i])
            out_fans[i, FLOWER_TILES] = nfl
            out_total[i] = total + nfl
            out_form[i] = form
            out_legal[i] = is_legal(total + nfl, nfl, minimum, flowers_count)
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
    last_of_kind,
    kong_win,
    last_of_wall,
    seat_wind,
    round_wind,
    flowers,
    opts,
    minimum,
    flowers_count,
    out_total,
    out_fans,
    out_form,
    out_legal,
    out_sets,
    table,
):
    """Score N hands in parallel (prange over blocks of rows).

    Arrays are those of a ``HandBatch`` (concealed (N, 34) incl. the winning
    tile, melds (N, 4, 2), win_tile (255 = waiting hand), the four flags, winds,
    flower masks); ``opts`` a bit mask of :data:`OPT_MINGAN_GANG` and
    :data:`OPT_KNITTED_WAIT`; ``minimum`` the points a legal win needs, counting
    flower points only when ``flowers_count``. Outputs: ``out_total`` int16 (N,)
    (-1 = not complete), ``out_fans`` uint8 (N, 82) incl. the flower count,
    ``out_form`` uint8 (N,) (:data:`FORM_NAMES`), ``out_legal`` bool (N,) (legal
    here, where the flower count is at hand, not in a second pass over
    ``out_fans``), ``out_sets`` uint8 (N, 8, 4) the chosen
    reading (see :func:`score_hand`), or shape (0, 8, 4) to skip it. ``table``:
    :func:`~mjstats.kernels.decompose.suit_table`.
    """
    n = concealed.shape[0]
    n_blocks = (n + _BLOCK - 1) // _BLOCK
    for b in prange(n_blocks):
        lo = np.int64(b) * _BLOCK  # the index's type differs between numba's two passes
        hi = min(n, lo + _BLOCK)
        _score_range(
            lo, hi, concealed, melds, win_tile, self_drawn, last_of_kind, kong_win, last_of_wall,
            seat_wind, round_wind, flowers, opts, minimum, flowers_count, out_total, out_fans,
            out_form, out_legal, out_sets, new_work(table),
        )  # fmt: skip


@jit
def score_rows_serial(
    concealed,
    melds,
    win_tile,
    self_drawn,
    last_of_kind,
    kong_win,
    last_of_wall,
    seat_wind,
    round_wind,
    flowers,
    opts,
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
    _score_range(
        0, concealed.shape[0], concealed, melds, win_tile, self_drawn, last_of_kind, kong_win,
        last_of_wall, seat_wind, round_wind, flowers, opts, minimum, flowers_count, out_total,
        out_fans, out_form, out_legal, out_sets, new_work(table),
    )  # fmt: skip
