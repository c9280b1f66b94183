"""Two-player ruleset (二人麻将, issue 5): golden hands for every fan, every 不记番
entry, every interpretation of docs/two-player-rules.md, validation, API and CLI.

Hand text: ``m`` characters, ``z`` honours 1z-7z = E S W N white green red;
``[...]`` exposed meld, ``{....}`` concealed kong, ``+`` the winning tile.
Situation bits: 1 天胡, 2 地胡, 4 人胡, 8 报听, 16 天听. Flower mask bits 0-7:
春夏秋冬梅兰竹菊.
"""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest
from two_player_naive import hand_dict, readings

import mjstats
from mjstats.errors import InvalidContextError, InvalidHandError, InvalidTileError
from mjstats.rules import get_ruleset

RS = get_ruleset("two-player")
ZH = {f.key: f.zh for f in RS.fans}
KEY = {f.zh: f.key for f in RS.fans}

ALL_FLOWERS = 0xFF


def tp(text, **ctx):
    """Score under two-player; returns (fans {zh: count}, total)."""
    s = mjstats.score(text, ruleset="two-player", **ctx)
    return {f.zh: f.count for f in s.fans}, s.total


def check_sum(text, **ctx):
    s = mjstats.score(text, ruleset="two-player", **ctx)
    assert s.total == sum(f.points * f.count for f in s.fans)
    return s


# ------------------------------------------------------------------ positive golden hands
# (fan heading, hand text, context): the fan must be counted (>= 2 per fan)
POSITIVE = [
    ("八仙过海", "123456789m123m5m+5m", {"flowers": ALL_FLOWERS}),
    ("八仙过海", "111222z345m678m9m+9m", {"flowers": ALL_FLOWERS, "self_drawn": True}),
    ("大四喜", "111222333444z5m+5m", {}),
    ("大四喜", "[111z][222z][333z]444z1m+1m", {}),
    ("大三元", "555666777z456m9m+9m", {}),
    ("大三元", "[555z][666z]777z123m1m+1m", {}),
    ("九莲宝灯", "1112345678999m+5m", {}),
    ("九莲宝灯", "1112345678999m+1m", {"self_drawn": True}),
    ("九莲宝灯", "1123456789999m+1m", {}),
    ("四杠子", "[1111m][2222m][1111z]{5555z}9m+9m", {}),
    ("四杠子", "{3333m}{4444m}{5555m}{6666m}1z+1z", {"self_drawn": True}),
    ("大车轮", "2233445566778m+8m", {}),
    ("大车轮", "2234455667788m+3m", {"self_drawn": True}),
    ("小四喜", "111222333z44z23m+1m", {}),
    ("小四喜", "[1111z]222333z44z55m+5m", {}),
    ("小三元", "555666z77z456m88m+8m", {}),
    ("小三元", "[555z]666z77z123m11m+1m", {}),
    ("字一色", "1112223335556z+6z", {}),
    ("字一色", "1122334455667z+7z", {}),
    ("四暗刻", "111333555m777z9m+9m", {}),
    ("四暗刻", "{1111m}333555m777z9m+9m", {"self_drawn": True}),
    ("一色双龙会", "112233778899m5m+5m", {}),
    ("一色双龙会", "[123m][789m]123789m5m+5m", {}),
    ("天胡", "123m456m789m111z2z+2z", {"self_drawn": True, "situation": 1}),
    ("天胡", "1133557799m112z+2z", {"self_drawn": True, "situation": 1}),
    ("一色四同顺", "444455556666m7z+7z", {}),
    ("一色四同顺", "[456m][456m]456456m9m+9m", {}),
    ("一色四节高", "333444555666m9m+9m", {}),
    ("一色四节高", "[222m][333m]444555m1z+1z", {}),
    ("地胡", "123m456m789m111z2z+2z", {"self_drawn": True, "situation": 2, "seat_wind": 2}),
    ("地胡", "1133557799m112z+2z", {"self_drawn": True, "situation": 2, "seat_wind": 2}),
    ("一色四步高", "123345567789m5m+5m", {}),
    ("一色四步高", "345456567678m1z+1z", {}),
    ("三杠", "[1111m][2222m][1111z]345m9m+9m", {}),
    ("三杠", "{1111m}{2222m}[3333m]111z9m+9m", {}),
    ("人胡", "123m456m789m111z2z+2z", {"situation": 4, "seat_wind": 2}),
    ("人胡", "1133557799m112z+2z", {"situation": 4, "seat_wind": 2}),
    ("混幺九", "111999m111222z3z+3z", {}),
    ("混幺九", "[111m][999m]111z222z3z+3z", {}),
    ("七对", "1133557799m113z+3z", {}),
    ("七对", "2244668m112233z+8m", {}),
    ("清一色", "123234345678m9m+9m", {}),
    ("清一色", "[123m][456m]789m111m9m+9m", {}),
    ("一色三同顺", "[345m]345345m789m1z+1z", {}),
    ("一色三同顺", "[234m][234m]234m111z5m+5m", {}),
    ("一色三节高", "333444555m789m1z+1z", {}),
    ("一色三节高", "[333m][444m]555m123m1z+1z", {}),
    ("天听", "123m456m789m111z2z+2z", {"situation": 16}),
    ("天听", "123m456m789m111z2z+2z", {"situation": 16, "seat_wind": 2, "self_drawn": True}),
    ("一条龙", "123456789m111z2z+2z", {}),
    ("一条龙", "[123m][456m]789m22z33z+3z", {}),
    ("一色三步高", "123234345m777z9m+9m", {}),
    ("一色三步高", "[123m]345567m111z9m+9m", {}),
    ("三暗刻", "[999m]222555888m1z+1z", {}),
    ("三暗刻", "{1111m}222555m789m1z+1z", {}),
    ("大于五", "678678m999m111z5z+5z", {}),
    ("大于五", "[789m]666888m777z9m+9m", {}),
    ("小于五", "123m234m444m111z2z+2z", {}),
    ("小于五", "[123m][444m]234m111z2z+2z", {}),
    ("三风刻", "111222333z123m9m+9m", {}),
    ("三风刻", "[111z]222444z456m7z+7z", {}),
    ("海底捞月", "123m456m789m111z2z+2z", {"last_of_wall": True, "self_drawn": True}),
    ("海底捞月", "[123m]456m789m111z2z+2z", {"last_of_wall": True, "self_drawn": True}),
    ("河底捞鱼", "123m456m789m111z2z+2z", {"last_of_wall": True}),
    ("河底捞鱼", "[123m]456m789m111z2z+2z", {"last_of_wall": True}),
    ("杠上开花", "[1111z]123m456m789m2z+2z", {"kong_win": True, "self_drawn": True}),
    ("杠上开花", "{1111z}123m456m789m2z+2z", {"kong_win": True, "self_drawn": True}),
    ("碰碰胡", "[111m]333555m777z9m+9m", {}),
    ("碰碰胡", "[111m][333m][555m]777z9m+9m", {}),
    ("混一色", "123m456m789m111z2z+2z", {}),
    ("混一色", "[123m]456m789m111z2z+2z", {}),
    ("全求人", "[123m][456m][789m][111z]2z+2z", {}),
    ("全求人", "[123m][456m][7777m][111z]2z+2z", {}),
    ("双暗杠", "{1111m}{2222m}345m777z9m+9m", {}),
    ("双暗杠", "{1111z}{2222z}[345m]777z9m+9m", {}),
    ("双箭刻", "555666z123m456m9m+9m", {}),
    ("双箭刻", "[555z][666z]123m456m9m+9m", {}),
    ("全带幺", "123m789m111m222z3z+3z", {}),
    ("全带幺", "[123m][789m]999m111z2z+2z", {}),
    ("不求人", "123m456m789m111z2z+2z", {"self_drawn": True}),
    ("不求人", "{1111z}123m456m789m2z+2z", {"self_drawn": True}),
    ("双明杠", "[1111m][2222m]345m777z9m+9m", {}),
    ("双明杠", "[1111z][2222z]345m777z9m+9m", {}),
    ("箭刻", "555z123m456m789m9m+9m", {}),
    ("箭刻", "[777z]123m456m789m9m+9m", {}),
    ("圈风刻", "111z123m456m789m9m+9m", {"seat_wind": 2}),
    ("圈风刻", "[111z]123m456m789m9m+9m", {}),
    ("门风刻", "333z123m456m789m9m+9m", {"seat_wind": 2}),
    ("门风刻", "[111z]123m456m789m9m+9m", {}),
    ("门清", "123m456m789m111z2z+2z", {}),
    ("门清", "{1111z}123m456m789m2z+2z", {}),
    ("平胡", "123m456m789m234m5m+5m", {}),
    ("平胡", "[123m]456m789m234m5m+5m", {}),
    ("四归一", "111123789m111z9m+9m", {}),
    ("四归一", "[111m]123m456m789m9m+9m", {}),
    ("双暗刻", "222555m456m789m1z+1z", {}),
    ("双暗刻", "[123m]222555m789m9m+9m", {}),
    ("暗杠", "{1111z}123m456m789m2z+2z", {}),
    ("暗杠", "{2222m}345m678m111z9m+9m", {}),
    ("立直", "123m456m789m111z2z+2z", {"situation": 8}),
    ("立直", "{1111z}123m456m789m2z+2z", {"situation": 8, "self_drawn": True}),
    ("断幺", "234m345m456m678m8m+8m", {}),
    ("断幺", "[234m]345m456m678m2m+2m", {}),
    ("一般高", "123m123m789m111z2z+2z", {}),
    ("一般高", "[456m]456m123m111z9m+9m", {}),
    ("连6", "123m456m111z222z9m+9m", {}),
    ("连6", "[234m]567m111z222z9m+9m", {}),
    ("老少副", "123m789m555m111z2z+2z", {}),
    ("老少副", "[123m][789m]555m111z2z+2z", {}),
    ("幺九刻", "111m234m567m222z3z+3z", {}),
    ("幺九刻", "[999m]234m567m111z3z+3z", {"seat_wind": 2}),
    ("明杠", "[1111z]123m456m789m2z+2z", {}),
    ("明杠", "[5555m]123m789m111z2z+2z", {}),
    ("边张", "12m456m789m111z22z+3m", {}),
    ("边张", "[111z]89m234m456m22z+7m", {}),
    ("坎张", "13m456m789m111z22z+2m", {}),
    ("坎张", "[111z]46m234m789m22z+5m", {}),
    ("单吊将", "123m456m789m111z2z+2z", {}),
    ("单吊将", "1234m567m111z222z+1m", {}),
    ("花牌", "123m456m789m111z2z+2z", {"flowers": 0x01}),
    ("花牌", "123m456m789m111z2z+2z", {"flowers": 0x82}),
    ("自摸", "[123m]456m789m111z2z+2z", {"self_drawn": True}),
    ("自摸", "1112345678999m+5m", {"self_drawn": True}),
    ("二五八将", "345m678m999m111z2m+2m", {}),
    ("二五八将", "1133557799m113z+3z", {}),
    ("季花", "123m456m789m111z2z+2z", {"flowers": 0x11}),
    ("季花", "123m456m789m111z2z+2z", {"flowers": 0x44, "seat_wind": 2}),
    ("幺九头", "123m456m789m111z1m+1m", {}),
    ("幺九头", "[234m]456m789m111z9m+9m", {}),
    ("梅兰竹菊", "123m456m789m111z2z+2z", {"flowers": 0xF0}),
    ("梅兰竹菊", "123m456m789m111z2z+2z", {"flowers": 0xF3}),
    ("春夏秋冬", "123m456m789m111z2z+2z", {"flowers": 0x0F}),
    ("春夏秋冬", "123m456m789m111z2z+2z", {"flowers": 0x1F}),
]


@pytest.mark.parametrize(("zh", "text", "ctx"), POSITIVE, ids=[f"{z}-{t}" for z, t, _ in POSITIVE])
def test_fan_positive(zh, text, ctx):
    s = check_sum(text, **ctx)
    fans = {f.zh: f.count for f in s.fans}
    assert zh in fans, f"{zh} missing: {fans}"


def test_every_fan_has_two_positive_hands():
    per_fan = Counter(zh for zh, _, _ in POSITIVE)
    assert set(per_fan) == {f.zh for f in RS.fans}
    assert min(per_fan.values()) >= 2


# ------------------------------------------------------------------ exact golden tables
# (hand text, context, {fan heading: count}): the whole fan list and its total
EXACT = [
    # 大车轮: 88 + 断幺 + 二五八将 (see interpretations)
    ("2233445566778m+8m", {}, {"大车轮": 1, "断幺": 1, "二五八将": 1}),
    # self-drawn: 不求人 is excluded by 大车轮, so 自摸 is not excluded by anything counted
    ("2233445566778m+8m", {"self_drawn": True}, {"大车轮": 1, "断幺": 1, "二五八将": 1, "自摸": 1}),
    # 七对 with 幺九头 (11m) and 二五八将 (55m) once each, 单吊将, 混一色, 门清
    (
        "1133557799m113z+3z",
        {},
        {"七对": 1, "混一色": 1, "门清": 1, "幺九头": 1, "二五八将": 1, "单吊将": 1},
    ),
    # three 2/5/8 pairs and two 1/9 pairs still count once each
    (
        "1122558899m112z+2z",
        {},
        {"七对": 1, "混一色": 1, "门清": 1, "幺九头": 1, "二五八将": 1, "单吊将": 1},
    ),
    # dealer's East pung: 圈风刻 + 门风刻; 门风刻 takes that pung's 幺九刻 only, the
    # 999m pung keeps its own; 456m + 55m hold three 5m: no 二五八将
    (
        "111z999m123m456m5m+5m",
        {},
        {
            "混一色": 1,
            "圈风刻": 1,
            "门风刻": 1,
            "门清": 1,
            "幺九刻": 1,
            "坎张": 1,
            "双暗刻": 1,
            "连6": 1,
        },
    ),
    # the other player's East pung: 圈风刻 + 幺九刻 (no 门风刻)
    (
        "[111z]123m456m789m9m+9m",
        {"seat_wind": 2},
        {"一条龙": 1, "混一色": 1, "圈风刻": 1, "幺九刻": 1, "幺九头": 1, "单吊将": 1},
    ),
    # 九莲宝灯 on 5m: 清一色, 门清, 幺九刻 excluded; the best reading is 111 234 678 999 55
    (
        "1112345678999m+5m",
        {},
        {"九莲宝灯": 1, "双暗刻": 1, "二五八将": 1, "单吊将": 1},
    ),
    # 九莲宝灯 self-drawn: 不求人 excluded by 九莲宝灯, so 自摸 counts
    (
        "1112345678999m+5m",
        {"self_drawn": True},
        {"九莲宝灯": 1, "双暗刻": 1, "二五八将": 1, "单吊将": 1, "自摸": 1},
    ),
    # concealed 333444555: 一色三节高 (+ 三暗刻), never 一色三同顺
    (
        "333444555m789m1z+1z",
        {},
        {"一色三节高": 1, "三暗刻": 1, "混一色": 1, "门清": 1, "单吊将": 1},
    ),
    # 全求人 excludes 单吊将
    (
        "[123m][456m][789m][111z]2z+2z",
        {},
        {"一条龙": 1, "混一色": 1, "全求人": 1, "圈风刻": 1, "门风刻": 1},
    ),
    # 不求人 excludes 门清 and 自摸; 天胡 excludes 单吊将
    (
        "123m456m789m111z2z+2z",
        {"self_drawn": True, "situation": 1},
        {"天胡": 1, "一条龙": 1, "混一色": 1, "不求人": 1, "圈风刻": 1, "门风刻": 1},
    ),
    # 立直 + 门清 ("算门清+立直"), 天听 also scores 立直
    (
        "123m456m789m111z2z+2z",
        {"situation": 16, "seat_wind": 2},
        {
            "天听": 1,
            "立直": 1,
            "一条龙": 1,
            "混一色": 1,
            "门清": 1,
            "圈风刻": 1,
            "幺九刻": 1,
            "单吊将": 1,
        },
    ),
    # flowers: 八仙过海 88 + 花牌 x8; 季花, 春夏秋冬, 梅兰竹菊 excluded (456m + 55m
    # hold three 5m: no 二五八将)
    (
        "123m456m789m234m5m+5m",
        {"flowers": ALL_FLOWERS},
        {
            "八仙过海": 1,
            "花牌": 8,
            "清一色": 1,
            "一条龙": 1,
            "平胡": 1,
            "门清": 1,
            "单吊将": 1,
        },
    ),
    # 季花 needs both flowers of the seat; the dealer's are 春梅, not 秋竹
    (
        "123m456m789m234m5m+5m",
        {"flowers": 0x44},
        {"花牌": 2, "清一色": 1, "一条龙": 1, "平胡": 1, "门清": 1, "单吊将": 1},
    ),
    # 四杠子 excludes 三杠 by number (and 单吊将); 碰碰胡 is not excluded; 幺九刻 of
    # the 1m and white-dragon kongs (门风刻 takes the East kong's)
    (
        "[1111m][2222m][1111z]{5555z}9m+9m",
        {},
        {
            "四杠子": 1,
            "碰碰胡": 1,
            "混一色": 1,
            "圈风刻": 1,
            "门风刻": 1,
            "箭刻": 1,
            "幺九刻": 2,
            "幺九头": 1,
        },
    ),
    # 双暗杠 alone (no 暗杠 with it), 双暗刻 excluded
    (
        "{1111m}{2222m}345m777z9m+9m",
        {},
        {
            "双暗杠": 1,
            "三暗刻": 1,
            "混一色": 1,
            "门清": 1,
            "箭刻": 1,
            "幺九刻": 2,
            "幺九头": 1,
            "单吊将": 1,
        },
    ),
    # one melded + one concealed kong: 明杠 + 暗杠
    (
        "[1111m]{2222m}345m777z9m+9m",
        {},
        {
            "明杠": 1,
            "暗杠": 1,
            "双暗刻": 1,
            "混一色": 1,
            "箭刻": 1,
            "幺九刻": 2,
            "幺九头": 1,
            "单吊将": 1,
        },
    ),
]


@pytest.mark.parametrize(("text", "ctx", "want"), EXACT, ids=[t for t, _, _ in EXACT])
def test_exact_golden(text, ctx, want):
    fans, total = tp(text, **ctx)
    assert fans == want
    assert total == sum(RS.points[RS.fan_id(KEY[zh])] * n for zh, n in want.items())


# ------------------------------------------------------------------ 不记番
# one hand per excluding fan where the excluded fans would otherwise apply when
# possible; the naive oracle (before exclusions) confirms which ones did apply
EXCLUDER_HANDS = {
    "八仙过海": [("123m456m789m234m5m+5m", {"flowers": ALL_FLOWERS})],
    "大四喜": [("111222333444z5m+5m", {})],
    "大三元": [("555666777z456m9m+9m", {})],
    "九莲宝灯": [("1112345678999m+1m", {"self_drawn": True}), ("1112345678999m+5m", {})],
    "四杠子": [
        ("[1111m][2222m][1111z]{5555z}9m+9m", {}),
        ("{1111m}{2222m}[1111z][5555z]9m+9m", {}),
    ],
    "大车轮": [("2233445566778m+8m", {"self_drawn": True})],
    "小四喜": [("111222333z44z23m+1m", {})],
    "小三元": [("555666z77z456m88m+8m", {})],
    "字一色": [("1112223335556z+6z", {}), ("1122334455667z+7z", {})],
    "四暗刻": [("111333555m777z9m+9m", {"self_drawn": True})],
    "一色双龙会": [("112233778899m5m+5m", {})],
    "天胡": [
        ("123m456m789m111z2z+2z", {"self_drawn": True, "situation": 1}),
        ("12m456m789m111z22z+3m", {"self_drawn": True, "situation": 1}),
        ("13m456m789m111z22z+2m", {"self_drawn": True, "situation": 1}),
    ],
    "一色四同顺": [("444455556666m7z+7z", {})],
    "一色四节高": [("333444555666m9m+9m", {})],
    "一色四步高": [("123234345456m9m+9m", {})],
    "三杠": [("[1111m][2222m][1111z]345m9m+9m", {}), ("{1111m}{2222m}{3333m}111z9m+9m", {})],
    "混幺九": [("111999m111222z3z+3z", {})],
    "七对": [("1133557799m113z+3z", {})],
    "一色三同顺": [("[345m]345345m789m1z+1z", {})],
    "一色三节高": [("333444555m789m1z+1z", {})],
    "一条龙": [("123456789m789m1z+1z", {}), ("123456789m123m1z+1z", {})],
    "三暗刻": [("[999m]222555888m1z+1z", {})],
    "杠上开花": [("[1111z]123m456m789m2z+2z", {"kong_win": True, "self_drawn": True})],
    "全求人": [("[123m][456m][789m][111z]2z+2z", {})],
    "双暗杠": [("{1111m}{2222m}345m777z9m+9m", {})],
    "双箭刻": [("555666z123m456m9m+9m", {})],
    "不求人": [("123m456m789m111z2z+2z", {"self_drawn": True})],
    "双明杠": [("[1111m][2222m]345m777z9m+9m", {})],
    # the seat-wind pung is the only 幺九刻 pung (门风刻 takes its own pung's only)
    "门风刻": [("111z123m456m789m9m+9m", {}), ("333z123m456m789m9m+9m", {"seat_wind": 2})],
}

EXCLUSION_PAIRS = [(f.zh, ZH[k]) for f in RS.fans for k in f.excludes]


def _raw_fans(text, ctx):
    """Fan keys some reading of the hand satisfies before exclusions (oracle)."""
    hand = mjstats.parse_hand(text, **ctx)
    raw = set()
    for _, fans in readings(hand_dict(hand), exclude=False):
        raw |= set(fans)
    return raw


@pytest.mark.parametrize(("excluder", "excluded"), EXCLUSION_PAIRS)
def test_exclusion(excluder, excluded):
    hands = EXCLUDER_HANDS[excluder]
    for text, ctx in hands:
        fans, _ = tp(text, **ctx)
        assert excluder in fans, (text, fans)
        assert excluded not in fans, (text, fans)


def test_exclusion_hands_exercise_the_exclusions():
    """Each 不记番 entry whose fan can coexist with its excluder is exercised by
    at least one of the excluder's hands (the excluded fan applied before the
    不记番 step)."""
    # pairs that cannot both apply to one reading by construction (different
    # forms, different numbers of kongs/pungs, or impossible tiles)
    impossible = {
        ("大车轮", "老少副"),
        ("大车轮", "连6"),
        ("大车轮", "一般高"),
        ("大车轮", "平胡"),
        ("七对", "老少副"),
        ("七对", "连6"),
        ("七对", "一般高"),
        ("七对", "平胡"),
        ("一色四同顺", "七对"),
        ("一色双龙会", "七对"),
        ("一色四同顺", "一色三节高"),
        ("一色四同顺", "一色三同顺"),
        ("一色四节高", "一色三同顺"),
        ("一色三同顺", "一色三节高"),
        ("一色三节高", "一色三同顺"),
        ("四杠子", "双暗杠"),
        ("四杠子", "双明杠"),
        ("四杠子", "明杠"),
        ("四杠子", "暗杠"),
        ("三杠", "双明杠"),
        ("三杠", "双暗杠"),
        ("三杠", "明杠"),
        ("三杠", "暗杠"),
        ("双明杠", "明杠"),
        ("字一色", "混幺九"),
        ("字一色", "大于五"),
        ("字一色", "小于五"),
        ("一色四同顺", "四归一"),
        ("八仙过海", "季花"),
        # the chow-combination step never forms a pair or triple fan that the
        # bigger chow fan excludes (it looks the exclusion up to choose)
        ("一色双龙会", "一般高"),
        ("一色双龙会", "老少副"),
        ("一色四同顺", "一般高"),
        ("一色四步高", "一色三步高"),
        ("一色三同顺", "一般高"),
        ("一条龙", "连6"),
        ("一条龙", "老少副"),
    }
    missing = []
    for excluder, excluded in EXCLUSION_PAIRS:
        if (excluder, excluded) in impossible:
            continue
        raw = set()
        for text, ctx in EXCLUDER_HANDS[excluder]:
            raw |= _raw_fans(text, ctx)
        if KEY[excluded] not in raw:
            missing.append((excluder, excluded))
    assert not missing, missing


# ------------------------------------------------------------------ interpretations
# one test per row of the interpretations table in docs/two-player-rules.md


def test_interp_no_minimum():
    s = mjstats.score("[123m][456m][789m][234m]5m+5m", ruleset="two-player")
    assert s.legal and s.total > 0
    assert RS.minimum == 0


def test_interp_exclusion_removes_every_occurrence():
    # 小四喜 removes 幺九刻: also the 1m pung's
    fans, _ = tp("111222333z44z11m+1m")
    assert "小四喜" in fans and "幺九刻" not in fans


def test_interp_excluded_fan_excludes_nothing():
    # 四暗刻 removes 不求人, so 不求人 does not remove 自摸
    fans, _ = tp("111333555m777z9m+9m", self_drawn=True)
    assert "四暗刻" in fans and "自摸" in fans and "不求人" not in fans


def test_interp_four_kongs_not_three_kongs():
    fans, _ = tp("{3333m}{4444m}{5555m}{6666m}1z+1z", self_drawn=True)
    assert "四杠子" in fans and "三杠" not in fans and "四暗刻" in fans


def test_interp_two_concealed_kongs_without_concealed_kong():
    fans, _ = tp("{1111m}{2222m}345m777z9m+9m")
    assert fans.get("双暗杠") == 1 and "暗杠" not in fans


def test_interp_big_wheel_all_simples_and_258():
    fans, _ = tp("2233445566778m+8m")
    assert {"大车轮", "断幺", "二五八将"} <= set(fans)
    assert "七对" not in fans and "单吊将" not in fans and "清一色" not in fans


def test_interp_seven_pairs_single_wait():
    fans, _ = tp("2244668m112233z+8m")
    assert fans.get("单吊将") == 1


def test_interp_seven_pairs_four_of_a_kind():
    fans, _ = tp("11113355m11335z+5z")
    assert "七对" in fans and fans.get("四归一") == 1
    # four 1m are two pairs but "3张以上不算": no 幺九头 from them
    assert "幺九头" not in fans


def test_interp_seven_pairs_all_honors_and_terminals():
    fans, _ = tp("1122334455667z+7z")
    assert {"字一色", "七对"} <= set(fans)
    fans, _ = tp("1199m112233445z+5z")
    assert {"混幺九", "七对", "幺九头"} <= set(fans)
    assert "全带幺" not in fans


def test_interp_triple_chow_concealed_reads_as_shifted_pungs():
    fans, _ = tp("333444555m789m1z+1z")
    assert "一色三节高" in fans and "一色三同顺" not in fans
    # one chow exposed: the pung reading does not exist, 一色三同顺 stands
    fans, _ = tp("[345m]345345m789m1z+1z")
    assert "一色三同顺" in fans and "一色三节高" not in fans
    # four identical chows are 一色四同顺, not affected
    fans, _ = tp("[456m][456m]456456m9m+9m")
    assert "一色四同顺" in fans


def test_interp_triple_chow_in_an_opened_hand_takes_the_better_reading():
    # "如果没有开门" is about the whole hand: with 678m claimed, 345m x3 may stand
    # as 一色三同顺 (24 清一色 + 24 + 2 平胡 + 1 连6 with 678m + 1 幺九头 = 52); the
    # pung reading 333 444 555m gives 24 + 24 一色三节高 + 2 双暗刻 + 1 = 51
    want = {"清一色": 1, "一色三同顺": 1, "平胡": 1, "连6": 1, "幺九头": 1}
    assert tp("[678m]345m345m34m99m+5m") == (want, 52)
    # the same tiles unclaimed: settled as 一色三节高 (53), although the 一色三同顺
    # reading would give 54 (门清 on both)
    want = {"清一色": 1, "一色三节高": 1, "门清": 1, "双暗刻": 1, "幺九头": 1}
    assert tp("678m345m345m34m99m+5m") == (want, 53)
    # opened by a claimed pung, the pung reading is the better one: 碰碰胡, 三暗刻
    want = {
        "混一色": 1,
        "一色三节高": 1,
        "碰碰胡": 1,
        "三暗刻": 1,
        "圈风刻": 1,
        "门风刻": 1,
        "幺九头": 1,
        "单吊将": 1,
    }
    assert tp("[111z]345m345m345m9m+9m") == (want, 58)


def test_interp_seat_wind_takes_its_own_pungs_terminal_pung():
    # the other player's West pung: 门风刻 takes its 幺九刻, the 999m pung keeps its
    # own: 6 混一色 + 2 门风刻 + 1 幺九刻 + 2 双暗刻 + 1 连6 + 1 单吊将 + 1 二五八将
    want = {
        "混一色": 1,
        "门风刻": 1,
        "幺九刻": 1,
        "双暗刻": 1,
        "连6": 1,
        "单吊将": 1,
        "二五八将": 1,
    }
    assert tp("[123m]456m999m333z8m+8m", seat_wind=2) == (want, 14)
    # the hand: 幺九刻 of 999m counts; 456m + 55m hold three 5m, no 二五八将
    want = {"混一色": 1, "门风刻": 1, "幺九刻": 1, "双暗刻": 1, "连6": 1, "坎张": 1}
    assert tp("[123m]456m999m333z5m+5m", seat_wind=2) == (want, 13)
    # removed by 大四喜, 门风刻 takes nothing (大四喜 removes every 幺九刻 itself)
    fans, _ = tp("111222333444z5m+5m", seat_wind=2)
    assert "门风刻" not in fans and "幺九刻" not in fans


def test_interp_pair_258_needs_a_real_pair_in_regular_hands():
    # "22，55或88必须是对儿，3张以上不算二五八将": a third 5m in the claimed 456m
    # chow: 16 一条龙 + 6 混一色 + 2 圈风刻 + 2 门风刻 = 26
    want = {"一条龙": 1, "混一色": 1, "圈风刻": 1, "门风刻": 1}
    assert tp("[456m]123m789m55m11z+1z") == (want, 26)
    # concealed, a third 8m in 789m: + 2 门清 + 1 坎张 = 29
    want = {"一条龙": 1, "混一色": 1, "圈风刻": 1, "门风刻": 1, "门清": 1, "坎张": 1}
    assert tp("456m789m123m111z8m+8m") == (want, 29)
    # exactly two 2m: 二五八将
    assert "二五八将" in tp("345m678m999m111z2m+2m")[0]


def test_interp_upper_lower_need_numbered_tiles():
    fans, _ = tp("1112223335556z+6z")
    assert "大于五" not in fans and "小于五" not in fans
    fans, _ = tp("678678m999m111z5z+5z")
    assert "大于五" in fans and "小于五" not in fans
    fans, _ = tp("123m234m444m111z2z+2z")
    assert "小于五" in fans and "大于五" not in fans
    # a 5m breaks both
    fans, _ = tp("123m345m444m111z2z+2z")
    assert "小于五" not in fans and "大于五" not in fans
    # tiles on both sides: neither
    fans, _ = tp("123m789m444m111z2z+2z")
    assert "小于五" not in fans and "大于五" not in fans


def test_interp_nine_gates_by_composition_and_concealed_only():
    # 14 concealed tiles = 1112345678999 + one more 万, whatever the winning tile
    fans, _ = tp("1123456789999m+1m")
    assert "九莲宝灯" in fans
    # a concealed kong: not 九莲宝灯
    s = mjstats.score("{1111m}2345678999m+9m", ruleset="two-player")
    assert "九莲宝灯" not in {f.zh for f in s.fans}
    # an exposed chow: not 九莲宝灯
    fans, _ = tp("[123m]1145678999m+9m")
    assert "九莲宝灯" not in fans


def test_interp_nine_gates_keeps_other_fans():
    fans, _ = tp("1112345678999m+9m")
    assert "九莲宝灯" in fans and "一条龙" in fans


def test_interp_all_terminals_and_honors_needs_1m_and_9m():
    fans, _ = tp("111m111222333z4z+4z")
    assert "混幺九" not in fans
    fans, _ = tp("111999m111222z3z+3z")
    assert "混幺九" in fans


def test_interp_four_concealed_pungs_allows_concealed_kong_not_claims():
    fans, _ = tp("{1111m}333555m777z9m+9m")
    assert "四暗刻" in fans
    fans, _ = tp("[1111m]333555m777z9m+9m")
    assert "四暗刻" not in fans and "三暗刻" in fans


def test_interp_discard_completed_pung_is_not_concealed():
    # 9m won on a discard completes 999m: two concealed pungs left
    fans, _ = tp("222555m999m123m1z1z+9m".replace("999m", "99m").replace("1z1z", "11z"))
    assert "三暗刻" not in fans and "双暗刻" in fans
    fans, _ = tp("222555m99m123m11z+9m", self_drawn=True)
    assert "三暗刻" in fans


def test_interp_wait_fans_edge_closed_need_only_wait():
    # 12345m + 3m: 3 also completes 345 with 12... the hand waits on 3m and 6m
    fans, _ = tp("12345m789m111z22z+3m")
    assert "边张" not in fans
    fans, _ = tp("12m456m789m111z22z+3m")
    assert "边张" in fans
    # 45567m + 6m: waits on 3m, 6m: no 坎张
    fans, _ = tp("45567m123m111z22z+6m")
    assert "坎张" not in fans
    # 4556m + 5m: only 5m: 坎张
    fans, _ = tp("4556m123m111z222z+5m")
    assert "坎张" in fans


def test_interp_single_wait_not_unique():
    # 1234m waits on 1m and 4m; winning on 1m counts 单吊将 ("1234胡14，算单吊")
    fans, _ = tp("1234m567m111z222z+1m")
    assert "单吊将" in fans
    fans, _ = tp("1234m567m111z222z+4m")
    assert "单吊将" in fans


def test_interp_one_wait_fan_only():
    # 4556m + 5m reads as 456 + 55 (坎张 or 单吊将): one of them
    fans, _ = tp("4556m123m111z222z+5m")
    assert sum(fans.get(z, 0) for z in ("边张", "坎张", "单吊将")) == 1


def test_interp_heavenly_ready_is_a_declared_ready():
    fans, _ = tp("123m456m789m111z2z+2z", situation=16)
    assert "天听" in fans and "立直" in fans


def test_interp_flowers_with_eight_immortals():
    fans, _ = tp("123m456m789m234m5m+5m", flowers=ALL_FLOWERS)
    assert fans["花牌"] == 8 and "八仙过海" in fans
    assert not {"季花", "春夏秋冬", "梅兰竹菊"} & set(fans)


def test_interp_seat_flowers_pairs():
    base = "123m456m789m234m5m+5m"
    assert "季花" in tp(base, flowers=0x11)[0]  # dealer 春梅
    assert "季花" not in tp(base, flowers=0x01)[0]  # one is not enough
    assert "季花" not in tp(base, flowers=0x44)[0]  # 秋竹 is the other player's
    assert "季花" in tp(base, flowers=0x44, seat_wind=2)[0]
    assert "季花" not in tp(base, flowers=0x11, seat_wind=2)[0]


def test_interp_dragon_pungs_are_terminal_or_honor_pungs():
    fans, _ = tp("555z123m456m789m9m+9m")
    assert fans.get("箭刻") == 1 and fans.get("幺九刻") == 1


def test_interp_outside_hand_regular_only():
    fans, _ = tp("1199m112233445z+5z")
    assert "全带幺" not in fans


def test_interp_pair_258_needs_a_real_pair_in_seven_pairs():
    # 5555m is two pairs, but "3张以上不算": no 二五八将; 11m still gives 幺九头
    fans, _ = tp("55551133m11223z+3z")
    assert "二五八将" not in fans and "七对" in fans and "幺九头" in fans


def test_interp_chow_pair_fans_disjoint():
    # 123 123 456 456: two disjoint pairs -> 2 pair fans, not 4
    fans, _ = tp("[123m]123456456m1z+1z")
    assert sum(fans.get(z, 0) for z in ("一般高", "连6", "老少副")) == 2
    # 三步高 + fourth chow pairs with one of the three
    fans, _ = tp("123234345m345m1z+1z")
    assert "一色三步高" in fans and fans.get("一般高") == 1
    # 一条龙 + 123: 一般高 counts (连6/老少副 excluded)
    fans, _ = tp("123456789m123m1z+1z")
    assert "一条龙" in fans and fans.get("一般高") == 1


def test_interp_four_shifted_chows_keeps_pair_fans():
    fans, _ = tp("123345567789m5m+5m")
    assert "一色四步高" in fans and fans.get("老少副") == 1 and "一色三步高" not in fans


def test_interp_robbing_a_kong_and_last_of_kind_score_nothing():
    fans, _ = tp("[123m]456m78m111z22z+9m", kong_win=True)
    assert "杠上开花" not in fans
    assert set(fans) == set(tp("[123m]456m78m111z22z+9m")[0])
    fans, _ = tp("[123m]456m78m111z22z+9m", last_of_kind=True)
    assert fans == tp("[123m]456m78m111z22z+9m")[0]


def test_interp_payment_and_seats():
    assert RS.opponents == 1 and RS.base_payment == 0
    assert int(RS.payment(30, True)) == 30 and int(RS.payment(30, False)) == 30
    assert RS.tiles == (*range(9), *range(27, 34))


# ------------------------------------------------------------------ validation
def test_dots_or_bamboo_raise_naming_tile():
    with pytest.raises(InvalidTileError, match="5p"):
        mjstats.score("123m456m789m111z5p+5p", ruleset="two-player")
    with pytest.raises(InvalidHandError, match="7s"):
        mjstats.score("[789s]123m456m111z2z+2z", ruleset="two-player")


def test_batch_foreign_tile_names_row():
    b = mjstats.HandBatch.from_hands(["123m456m789m111z2z+2z", "123m456m789s111z2z+2z"])
    with pytest.raises(InvalidTileError, match=r"row 1: .*7s"):
        mjstats.score_batch(b, ruleset="two-player")


@pytest.mark.parametrize(
    ("ctx", "match"),
    [
        ({"seat_wind": 1}, "seats"),
        ({"round_wind": 2}, "round"),
        ({"situation": 32}, "situation bits"),
        ({"situation": 3, "self_drawn": True}, "at most one"),
        ({"situation": 1}, "天胡"),  # on a discard
        ({"situation": 1, "self_drawn": True, "seat_wind": 2}, "天胡"),
        ({"situation": 2, "self_drawn": True}, "地胡"),  # dealer
        ({"situation": 4, "seat_wind": 2, "self_drawn": True}, "人胡"),
        # a win on the deal or the first turn comes before the declaration
        ({"situation": 1 | 8, "self_drawn": True}, "天胡 .*报听"),
        ({"situation": 1 | 16, "self_drawn": True}, "天胡 .*天听"),
        ({"situation": 4 | 16, "seat_wind": 2}, "人胡 .*天听"),
        ({"situation": 4 | 8, "seat_wind": 2}, "人胡 .*报听"),
        ({"situation": 2 | 8, "seat_wind": 2, "self_drawn": True}, "地胡 .*报听"),
    ],
)
def test_context_errors(ctx, match):
    with pytest.raises(InvalidContextError, match=match):
        mjstats.score("123m456m789m111z2z+2z", ruleset="two-player", **ctx)


def test_interp_no_declaration_before_a_first_turn_win(capsys, monkeypatch):
    from mjstats import cli

    # the hand: 天胡 with 天听 scored 96; now an error at every entry point
    text = "123m456m789m555z9m+9m self-drawn situation=17"
    with pytest.raises(InvalidContextError, match=r"天胡 .*天听"):
        mjstats.score(text, ruleset="two-player")
    good = mjstats.parse_hand("123m456m789m555z9m+9m", self_drawn=True)
    with pytest.raises(InvalidContextError, match="row 1: 天胡"):
        mjstats.score_batch([good, mjstats.parse_hand(text)], ruleset="two-player")
    monkeypatch.setitem(cli.COMMANDS, "score", "mjstats.cli.score_cmd:command")
    assert cli.main(["score", text, "--ruleset", "two-player"]) == 1
    assert "天听" in capsys.readouterr().err
    # the other player's 天听 before his first draw, then 地胡 (with or without the
    # 报听 bit, which 天听 implies): 32 地胡 + 16 天听 + 2 立直 + 16 一条龙 + 6 混一色
    # + 4 不求人 + 2 圈风刻 + 1 幺九刻 + 1 单吊将
    want = {
        "地胡": 1,
        "天听": 1,
        "立直": 1,
        "一条龙": 1,
        "混一色": 1,
        "不求人": 1,
        "圈风刻": 1,
        "幺九刻": 1,
        "单吊将": 1,
    }
    for sit in (2 | 16, 2 | 8 | 16):
        assert tp("123m456m789m111z2z+2z", seat_wind=2, self_drawn=True, situation=sit) == (
            want,
            80,
        )


@pytest.mark.parametrize(
    ("text", "sit", "match"),
    [
        ("[123m]456m789m111z2z+2z", 8, "报听"),
        ("{1111z}123m456m789m2z+2z", 16, "天听"),
        ("{1111z}123m456m789m2z+2z", 1, "天胡"),
    ],
)
def test_situation_contradicted_by_melds(text, sit, match):
    with pytest.raises(InvalidContextError, match=match):
        mjstats.score(text, ruleset="two-player", situation=sit, self_drawn=True)


def test_concealed_kong_allowed_with_declared_ready():
    fans, _ = tp("{1111z}123m456m789m2z+2z", situation=8)
    assert "立直" in fans and "门清" in fans


# ------------------------------------------------------------------ API, batch, CLI
def test_score_object_and_form_names():
    s = mjstats.score("2233445566778m+8m", ruleset="two-player")
    assert s.form == "seven_pairs" and s.ruleset == "two-player"
    assert s.sets == ("22m", "33m", "44m", "55m", "66m", "77m", "88m")
    s = mjstats.score("[123m]456m789m111z2z+2z", ruleset="two-player")
    assert s.form == "regular"
    assert s.sets == ("[123m]", "456m", "789m", "111z", "22z")
    assert mjstats.score("123m456m789m111z2z", ruleset="two-player").total == -1


def test_score_batch_matches_score():
    texts = [t for _, t, _ in POSITIVE[:40]] + ["123m456m789m111z2z"]
    ctxs = [c for _, _, c in POSITIVE[:40]] + [{}]
    hands = [mjstats.parse_hand(t, **c) for t, c in zip(texts, ctxs, strict=True)]
    r = mjstats.score_batch(hands, ruleset="two-player")
    assert r.fan_counts.shape == (len(hands), RS.n_fans)
    assert list(r.fans["zh"]) == [f.zh for f in RS.fans]
    for i, h in enumerate(hands):
        s = mjstats.score(h, ruleset="two-player")
        assert r.total[i] == s.total
        assert {
            RS.fans[f].zh: int(r.fan_counts[i, f]) for f in np.flatnonzero(r.fan_counts[i])
        } == {f.zh: f.count for f in s.fans}
    assert r.total[-1] == -1 and not r.legal[-1]
    df = r.to_frame(fan_columns="present")
    assert set(df["form"].cat.categories) == {"none", "regular", "seven_pairs"}


def test_mcr_unchanged_by_situation_and_ruleset_switch():
    s = mjstats.score("[123p]55m12379s789p+8s", situation=5)
    assert s.total == 17 and s.ruleset == "mcr"


def test_cli_two_player(capsys, monkeypatch):
    from mjstats import cli

    monkeypatch.setitem(cli.COMMANDS, "score", "mjstats.cli.score_cmd:command")
    assert cli.main(["score", "2233445566778m+8m", "--ruleset", "two-player", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["ruleset"] == "two-player" and out["total"] == 90
    assert [f["zh"] for f in out["fans"]] == ["大车轮", "断幺", "二五八将"]
    assert cli.main(["score", "123m456m789m111z5p+5p", "--ruleset", "two-player"]) == 1
    assert "5p" in capsys.readouterr().err


def test_score_one_dispatch_two_player():
    from mjstats.kernels.decompose import suit_table
    from mjstats.rulesets.dispatch import kernel_spec, new_scratch, score_one

    spec = kernel_spec(RS)
    assert spec.ruleset_id == 1 and spec.n_fans == RS.n_fans and spec.n_forms == 3
    h = mjstats.parse_hand("123m456m789m111z2z+2z")
    melds = np.zeros((4, 2), np.uint8)
    fan_out = np.zeros(RS.n_fans, np.uint8)
    total, nfl, form, legal = score_one(
        spec.ruleset_id,
        spec.opts,
        spec.minimum,
        spec.flowers_count_toward_minimum,
        h.concealed,
        melds,
        int(h.win_tile),
        True,
        False,
        False,
        False,
        0,
        0,
        0x11,
        0,
        new_scratch(suit_table()),
        fan_out,
    )
    s = mjstats.score(h, ruleset="two-player", self_drawn=True, flowers=0x11)
    assert total == s.total and form == 1 and legal
    assert nfl == 3  # 花牌 x2 + 季花
    assert total == int((fan_out.astype(np.int64) * RS.points).sum())


# ------------------------------------------------------------------ oracle agreement
@pytest.mark.parametrize(("zh", "text", "ctx"), POSITIVE, ids=[f"{z}-{t}" for z, t, _ in POSITIVE])
def test_naive_oracle_agrees_on_golden(zh, text, ctx):
    hand = mjstats.parse_hand(text, **ctx)
    s = mjstats.score(hand, ruleset="two-player")
    rd = readings(hand_dict(hand))
    best = max(t for t, _ in rd)
    assert s.total == best
    assert {f.key: f.count for f in s.fans} in [f for t, f in rd if t == best]


def test_interp_last_tile_draw_keeps_self_drawn():
    # 杠上开花 excludes 自摸, 海底捞月 does not
    fans, _ = tp("[123m]456m789m111z2z+2z", last_of_wall=True, self_drawn=True)
    assert "海底捞月" in fans and "自摸" in fans
    fans, _ = tp("[1111z]123m456m789m2z+2z", kong_win=True, self_drawn=True)
    assert "杠上开花" in fans and "自摸" not in fans


def test_interp_melded_hand_needs_a_discard_and_no_concealed_kong():
    fans, _ = tp("[123m][456m][789m][111z]2z+2z", self_drawn=True)
    assert "全求人" not in fans and "自摸" in fans
    fans, _ = tp("[123m][456m][789m]{1111z}2z+2z")
    assert "全求人" not in fans


def test_interp_concealed_hand_on_any_win():
    fans, _ = tp("123m456m789m111z2z+2z")
    assert "门清" in fans and "不求人" not in fans
    fans, _ = tp("123m456m789m111z2z+2z", self_drawn=True)
    assert "不求人" in fans and "门清" not in fans and "自摸" not in fans
    fans, _ = tp("123m456m789m111z2z+2z", self_drawn=True, situation=1)
    assert "天胡" in fans and "不求人" in fans


def test_interp_four_kongs_with_all_pungs():
    fans, _ = tp("[1111m][2222m][1111z]{5555z}9m+9m")
    assert "四杠子" in fans and "碰碰胡" in fans


def test_docs_interpretations_rows_are_tested():
    """Every row of the interpretations table names tests that exist here."""
    import re
    from pathlib import Path

    doc = Path(__file__).resolve().parents[1] / "docs" / "two-player-rules.md"
    text = doc.read_text().split("## Interpretations", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in text.splitlines() if re.match(r"\| *\d+ *\|", line)]
    assert len(rows) >= 25
    for line in rows:
        names = re.findall(r"`(test_\w+)`", line)
        assert names, line
        for name in names:
            assert name in globals(), (name, line)
