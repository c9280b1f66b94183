"""Chinese Official Mahjong (MCR, 国标麻将): the 81 fans as data.

Fan ids (the column order of every ``fan_counts`` array) follow the reference
scorer's fan table (ChineseOfficialMahjongHelper / PyMahjongGB 1.4.0) exactly:
the 80 scoring fans in value order (88 down to 1 point), then 花牌 (flowers,
1 point each) and finally the MIL extension 明暗杠 (one melded + one concealed
kong, 5 points) as its own id, as the reference stores it. So ``fan id + 1`` is
the reference's fan id.

Chinese names are those of the rule texts (``shared/rules/mcr-fans-summary.zh.txt``);
English names are the reference's (``MahjongFanCalculator(..., verbose=True)``).
The reference prints the wait fans as 独听・边张 / 独听・嵌张 / 独听・单钓;
the rule texts call them 边张, 坎张 and 单钓将.

``excludes`` lists the fans each fan suppresses (不计) as the reference
applies them; ``docs/mcr-rules.md`` says where that differs from the rule texts.

Options
-------
``mingan_gang`` (True)
    One melded and one concealed kong score 明暗杠 = 5 (MIL ruling, the
    reference's choice). False: 明杠 + 暗杠 = 3.
``flowers_count_toward_minimum`` (False)
    Whether flower points count toward the 8-fan minimum (``Score.legal``).
    MCR: no. The Botzone judge: yes.
``knitted_straight_wait_fans`` (True)
    Wait fans (边张, 坎张, 单钓将) on a knitted-straight (组合龙) hand also when
    the winning tile lies in the knitted body, judged on the set and pair
    outside the body (the reference's default since 2023-10-29). False: no wait
    fan when the winning tile is one of the nine knitted tiles.

Examples
--------
>>> from mjstats.rulesets.mcr import RULESET
>>> RULESET.n_fans
82
>>> f = RULESET.fans[RULESET.fan_id("pure_double_chow")]
>>> f.zh, f.en, f.points
('一般高', 'Pure Double Chow', 1)
"""

from __future__ import annotations

from mjstats.rulesets.base import FanDef, RulePoint, Ruleset
from mjstats.rulesets.mcr.profiles import PROFILES

__all__ = ["FANS", "FORMS", "RULESET", "RULE_POINTS"]

_F = FanDef

FANS: tuple[FanDef, ...] = (
    # 88
    _F(
        "big_four_winds",
        "大四喜",
        "Big Four Winds",
        88,
        (
            "big_three_winds",
            "all_pungs",
            "pung_of_terminals_or_honors",
            "prevalent_wind",
            "seat_wind",
            "little_four_winds",
        ),
    ),
    _F(
        "big_three_dragons",
        "大三元",
        "Big Three Dragons",
        88,
        ("dragon_pung", "two_dragons_pungs", "little_three_dragons"),
    ),
    _F("all_green", "绿一色", "All Green", 88, ("half_flush", "one_voided_suit")),
    _F(
        "nine_gates",
        "九莲宝灯",
        "Nine Gates",
        88,
        ("full_flush", "concealed_hand", "fully_concealed_hand", "no_honors", "one_voided_suit"),
    ),
    _F(
        "four_kongs",
        "四杠",
        "Four Kongs",
        88,
        (
            "three_kongs",
            "two_melded_kongs",
            "two_concealed_kongs",
            "melded_kong",
            "concealed_kong",
            "concealed_kong_and_melded_kong",
            "all_pungs",
            "single_wait",
        ),
    ),
    _F(
        "seven_shifted_pairs",
        "连七对",
        "Seven Shifted Pairs",
        88,
        (
            "seven_pairs",
            "full_flush",
            "concealed_hand",
            "fully_concealed_hand",
            "single_wait",
            "no_honors",
            "one_voided_suit",
        ),
    ),
    _F(
        "thirteen_orphans",
        "十三幺",
        "Thirteen Orphans",
        88,
        (
            "all_types",
            "concealed_hand",
            "fully_concealed_hand",
            "single_wait",
            "outside_hand",
            "all_terminals_and_honors",
        ),
    ),
    # 64
    _F(
        "all_terminals",
        "清幺九",
        "All Terminals",
        64,
        (
            "all_pungs",
            "double_pung",
            "no_honors",
            "all_terminals_and_honors",
            "outside_hand",
            "pung_of_terminals_or_honors",
        ),
    ),
    _F(
        "little_four_winds",
        "小四喜",
        "Little Four Winds",
        64,
        ("big_three_winds", "pung_of_terminals_or_honors"),
    ),
    _F(
        "little_three_dragons",
        "小三元",
        "Little Three Dragons",
        64,
        ("dragon_pung", "two_dragons_pungs"),
    ),
    _F(
        "all_honors",
        "字一色",
        "All Honors",
        64,
        (
            "all_pungs",
            "all_terminals_and_honors",
            "outside_hand",
            "pung_of_terminals_or_honors",
            "one_voided_suit",
        ),
    ),
    _F(
        "four_concealed_pungs",
        "四暗刻",
        "Four Concealed Pungs",
        64,
        (
            "all_pungs",
            "concealed_hand",
            "fully_concealed_hand",
            "three_concealed_pungs",
            "two_concealed_pungs",
        ),
    ),
    _F(
        "pure_terminal_chows",
        "一色双龙会",
        "Pure Terminal Chows",
        64,
        (
            "seven_pairs",
            "full_flush",
            "all_chows",
            "pure_double_chow",
            "two_terminal_chows",
            "no_honors",
            "one_voided_suit",
        ),
    ),
    # 48
    _F(
        "quadruple_chow",
        "一色四同顺",
        "Quadruple Chow",
        48,
        ("pure_shifted_pungs", "pure_triple_chow", "pure_double_chow", "tile_hog"),
    ),
    _F(
        "four_pure_shifted_pungs",
        "一色四节高",
        "Four Pure Shifted Pungs",
        48,
        ("pure_triple_chow", "pure_shifted_pungs", "all_pungs"),
    ),
    # 32
    _F(
        "four_pure_shifted_chows",
        "一色四步高",
        "Four Pure Shifted Chows",
        32,
        ("pure_shifted_chows",),
    ),
    _F(
        "three_kongs",
        "三杠",
        "Three Kongs",
        32,
        (
            "two_melded_kongs",
            "two_concealed_kongs",
            "melded_kong",
            "concealed_kong",
            "concealed_kong_and_melded_kong",
        ),
    ),
    _F(
        "all_terminals_and_honors",
        "混幺九",
        "All Terminals and Honors",
        32,
        ("all_pungs", "outside_hand", "pung_of_terminals_or_honors"),
    ),
    # 24
    _F(
        "seven_pairs",
        "七对",
        "Seven Pairs",
        24,
        ("concealed_hand", "fully_concealed_hand", "single_wait"),
    ),
    _F(
        "greater_honors_and_knitted_tiles",
        "七星不靠",
        "Greater Honors and Knitted Tiles",
        24,
        (
            "lesser_honors_and_knitted_tiles",
            "all_types",
            "concealed_hand",
            "fully_concealed_hand",
            "single_wait",
        ),
    ),
    _F("all_even_pungs", "全双刻", "All Even Pungs", 24, ("all_pungs", "all_simples", "no_honors")),
    _F("full_flush", "清一色", "Full Flush", 24, ("no_honors", "one_voided_suit")),
    _F(
        "pure_triple_chow",
        "一色三同顺",
        "Pure Triple Chow",
        24,
        ("pure_shifted_pungs", "pure_double_chow"),
    ),
    _F("pure_shifted_pungs", "一色三节高", "Pure Shifted Pungs", 24, ("pure_triple_chow",)),
    _F("upper_tiles", "全大", "Upper Tiles", 24, ("upper_four", "no_honors")),
    _F("middle_tiles", "全中", "Middle Tiles", 24, ("all_simples", "no_honors")),
    _F("lower_tiles", "全小", "Lower Tiles", 24, ("lower_four", "no_honors")),
    # 16
    _F("pure_straight", "清龙", "Pure Straight", 16, ("short_straight", "two_terminal_chows")),
    _F(
        "three_suited_terminal_chows",
        "三色双龙会",
        "Three-Suited Terminal Chows",
        16,
        ("mixed_double_chow", "two_terminal_chows", "no_honors", "all_chows"),
    ),
    _F("pure_shifted_chows", "一色三步高", "Pure Shifted Chows", 16),
    _F("all_five", "全带五", "All Five", 16, ("all_simples", "no_honors")),
    _F("triple_pung", "三同刻", "Triple Pung", 16, ("double_pung",)),
    _F("three_concealed_pungs", "三暗刻", "Three Concealed Pungs", 16, ("two_concealed_pungs",)),
    # 12
    _F(
        "lesser_honors_and_knitted_tiles",
        "全不靠",
        "Lesser Honors and Knitted Tiles",
        12,
        ("all_types", "concealed_hand", "fully_concealed_hand", "single_wait"),
    ),
    _F("knitted_straight", "组合龙", "Knitted Straight", 12),
    _F("upper_four", "大于五", "Upper Four", 12, ("no_honors",)),
    _F("lower_four", "小于五", "Lower Four", 12, ("no_honors",)),
    _F("big_three_winds", "三风刻", "Big Three Winds", 12, ()),
    # 8
    _F("mixed_straight", "花龙", "Mixed Straight", 8),
    _F("reversible_tiles", "推不倒", "Reversible Tiles", 8, ("one_voided_suit",)),
    _F("mixed_triple_chow", "三色三同顺", "Mixed Triple Chow", 8, ("mixed_double_chow",)),
    _F("mixed_shifted_pungs", "三色三节高", "Mixed Shifted Pungs", 8),
    _F("chicken_hand", "无番和", "Chicken Hand", 8),
    _F("last_tile_draw", "妙手回春", "Last Tile Draw", 8, ("self_drawn",)),
    _F("last_tile_claim", "海底捞月", "Last Tile Claim", 8),
    _F("out_with_replacement_tile", "杠上开花", "Out with Replacement Tile", 8, ("self_drawn",)),
    _F("robbing_the_kong", "抢杠和", "Robbing The Kong", 8, ("last_tile",)),
    # 6
    _F("all_pungs", "碰碰和", "All Pungs", 6),
    _F("half_flush", "混一色", "Half Flush", 6, ("one_voided_suit",)),
    _F("mixed_shifted_chows", "三色三步高", "Mixed Shifted Chows", 6),
    _F("all_types", "五门齐", "All Types", 6),
    _F("melded_hand", "全求人", "Melded Hand", 6, ("single_wait",)),
    _F(
        "two_concealed_kongs",
        "双暗杠",
        "Two Concealed Kongs",
        6,
        ("concealed_kong", "two_concealed_pungs"),
    ),
    _F("two_dragons_pungs", "双箭刻", "Two Dragons Pungs", 6, ("dragon_pung",)),
    # 4
    _F("outside_hand", "全带幺", "Outside Hand", 4),
    _F(
        "fully_concealed_hand",
        "不求人",
        "Fully Concealed Hand",
        4,
        ("concealed_hand", "self_drawn"),
    ),
    _F("two_melded_kongs", "双明杠", "Two Melded Kongs", 4, ("melded_kong",)),
    _F("last_tile", "和绝张", "Last Tile", 4),
    # 2
    _F("dragon_pung", "箭刻", "Dragon Pung", 2),
    _F("prevalent_wind", "圈风刻", "Prevalent Wind", 2),
    _F("seat_wind", "门风刻", "Seat Wind", 2),
    _F("concealed_hand", "门前清", "Concealed Hand", 2),
    _F("all_chows", "平和", "All Chows", 2, ("no_honors",)),
    _F("tile_hog", "四归一", "Tile Hog", 2),
    _F("double_pung", "双同刻", "Double Pung", 2),
    _F("two_concealed_pungs", "双暗刻", "Two Concealed Pungs", 2),
    _F("concealed_kong", "暗杠", "Concealed Kong", 2),
    _F("all_simples", "断幺", "All Simples", 2, ("no_honors",)),
    # 1
    _F("pure_double_chow", "一般高", "Pure Double Chow", 1),
    _F("mixed_double_chow", "喜相逢", "Mixed Double Chow", 1),
    _F("short_straight", "连六", "Short Straight", 1),
    _F("two_terminal_chows", "老少副", "Two Terminal Chows", 1),
    _F("pung_of_terminals_or_honors", "幺九刻", "Pung of Terminals or Honors", 1),
    _F("melded_kong", "明杠", "Melded Kong", 1),
    _F("one_voided_suit", "缺一门", "One Voided Suit", 1),
    _F("no_honors", "无字", "No Honors", 1),
    _F("edge_wait", "边张", "Edge Wait", 1),
    _F("closed_wait", "坎张", "Closed Wait", 1),
    _F("single_wait", "单钓将", "Single Wait", 1),
    _F("self_drawn", "自摸", "Self-Drawn", 1),
    # extras
    _F("flower_tiles", "花牌", "Flower Tiles", 1),
    _F(
        "concealed_kong_and_melded_kong",
        "明暗杠",
        "Concealed Kong and Melded Kong",
        5,
        ("melded_kong", "concealed_kong"),
    ),
)

_R = RulePoint

#: The reference's rules that are not plain 不计 pairs of :data:`FANS`. The
#: kernel (:mod:`mjstats.rulesets.mcr.kernel`) applies each in the function or comment
#: that carries its key; ``docs/mcr-rules.md`` gives the rule texts' clauses.
RULE_POINTS: tuple[RulePoint, ...] = (
    _R(
        "excluded_fans_exclude_nothing",
        ("four_concealed_pungs", "fully_concealed_hand", "self_drawn"),
        "The 不计 pass runs in fan-id (value) order and a fan removed before its turn "
        "excludes nothing. So 四暗刻, which excludes 不求人, turns a self-drawn 不求人 "
        "into 自摸 (1), as the reference scores it.",
    ),
    _R(
        "account_once_chow_pairs",
        ("pure_double_chow", "mixed_double_chow", "short_straight", "two_terminal_chows"),
        "Account-once (一套不能重复组合): a chow takes part in at most one two-chow fan "
        "beyond the first combination it forms, so three or four chows score at most "
        "(chows - 1) of 一般高, 喜相逢, 连六, 老少副, duplicates dropped in the order "
        "老少副, 连六, 喜相逢, 一般高; next to a three-chow fan, one more pair fan of the "
        "fourth chow (the best: 一般高 > 喜相逢 > 连六 > 老少副).",
    ),
    _R(
        "big_three_winds_take_terminal_pungs",
        ("big_three_winds", "pung_of_terminals_or_honors"),
        "三风刻 takes the 幺九刻 of its three wind pungs (the reference's count: three "
        "幺九刻 fewer, none below zero).",
    ),
    _R(
        "wind_pungs_replace_terminal_pung",
        ("prevalent_wind", "seat_wind", "pung_of_terminals_or_honors"),
        "Each wind pung that scores 圈风刻 or 门风刻 loses its 幺九刻 (one for a pung "
        "that is both), unless 三风刻, 混幺九, 字一色 or 小四喜 counted (they take the "
        "幺九刻 themselves); under 大四喜 neither wind fan is scored.",
    ),
    _R(
        "discard_completes_pung_melded",
        ("two_concealed_pungs", "three_concealed_pungs", "four_concealed_pungs"),
        "A concealed pung of the winning tile completed by a discard counts as melded, "
        "unless the tile can be read as part of a concealed chow.",
    ),
    _R(
        "nine_gates_takes_one_terminal_pung",
        ("nine_gates", "pung_of_terminals_or_honors"),
        "九莲宝灯 keeps the fans of its best reading except one terminal pung's 幺九刻 "
        "(1112345678999 + the winning tile).",
    ),
    _R(
        "best_reading_tie_order",
        ("pure_triple_chow", "triple_pung", "seven_pairs"),
        "Among readings of equal total the reference keeps the first, except that a "
        "later one with 一色三同顺 or 三同刻, or one replacing seven pairs, wins.",
    ),
)

#: Names of the form codes of ``BatchScore.form`` (code k is ``FORMS[k]``; 0 = not complete).
FORMS = (
    "none",
    "regular",
    "seven_pairs",
    "seven_shifted_pairs",
    "thirteen_orphans",
    "honors_knitted",
    "greater_honors_knitted",
    "knitted_straight",
    "nine_gates",
)

RULESET = Ruleset(
    name="mcr",
    title="Chinese Official Mahjong (MCR, 国标麻将)",
    fans=FANS,
    minimum=8,
    tiles=tuple(range(34)),
    shanten_forms=(
        "regular",
        "seven_pairs",
        "thirteen_orphans",
        "honors_knitted",
        "knitted_straight",
    ),
    forms=FORMS,
    flower_fans=("flower_tiles",),
    rule_points=RULE_POINTS,
    profiles=PROFILES,
    options={
        "mingan_gang": True,
        "flowers_count_toward_minimum": False,
        "knitted_straight_wait_fans": True,
    },
    binding="mjstats.rulesets.mcr.binding",
)
