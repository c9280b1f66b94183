"""Two-player mahjong (二人麻将): its 66 fans as data.

The spec is ``shared/rules/two-player-fans.zh.txt``. The game uses the
characters (万, tiles 0-8), the seven honours (27-33) and the eight flowers:
72 tiles. The dealer (庄家) sits East (seat wind 0), the other player (闲家)
West (seat wind 2); the round wind is East.

Fan ids (the column order of every ``fan_counts`` array) follow the text: by
value, 88 down to 1, and within one value in the order the text lists them.
Chinese names are the text's fan headings exactly; the English names are ours.

Every fan carries, besides ``key, zh, en, points, excludes``:

``excludes_zh``
    Its 不记番 list verbatim from the text. The text spells some names
    differently from their headings (碰碰和 / 碰碰胡, 单钓 / 单吊将, 砍张 / 坎张,
    门前清 / 门清, 连六 / 连6); :data:`ALIASES` maps them, and ``excludes`` (the
    keys) is derived from ``excludes_zh`` through it.
``claims_zh``
    The text's sentence on claims (可以吃碰明暗杠 / 不可以...), verbatim, or
    ``""`` when the text gives none.
``excludes_own_set``
    The keys of ``excludes`` that the fan removes only where its own set
    makes them: 门风刻 takes the 幺九刻 of the seat-wind pung, not of a 999m
    pung beside it (one occurrence per occurrence of the fan, after the
    不记番 step, and only while the fan itself is counted).
``hand_melds``
    For fans whose claim condition restricts the *whole hand*, the meld kinds
    (:class:`mjstats.hand.MeldKind` values) the hand may hold: ``()`` = fully
    concealed, no concealed kong either. ``None`` when the condition only
    describes the fan's own sets (e.g. 连6: "6张可以吃，不可以碰杠") or is
    implied by the pattern (a 4-chow fan cannot hold a pung).

Situation bits (``HandBatch.situation``): bit 0 天胡, bit 1 地胡, bit 2 人胡,
bit 3 报听 (立直), bit 4 天听. See ``docs/two-player-rules.md`` for every
interpretation of the text.

Examples
--------
>>> from mjstats.rulesets.two_player import RULESET
>>> RULESET.n_fans
66
>>> f = RULESET.fans[RULESET.fan_id("big_wheel")]
>>> f.zh, f.points, f.excludes_zh[:3]
('大车轮', 88, ('清一色', '不求人', '单钓'))
"""

from __future__ import annotations

from dataclasses import dataclass

from mjstats.rulesets.base import FanDef, Ruleset

__all__ = [
    "ALIASES",
    "FANS",
    "FORMS",
    "OWN_SET_EXCLUDES",
    "RULESET",
    "SITUATION_BITS",
    "TILES",
    "TwoPlayerFan",
]

#: tile ids the game plays with: 1m-9m and the seven honours
TILES: tuple[int, ...] = (*range(9), *range(27, 34))

#: ``situation`` bit -> fan key (bit 3 is 报听, scored as 立直)
SITUATION_BITS = {
    0: "heavenly_hand",
    1: "earthly_hand",
    2: "human_hand",
    3: "declared_ready",
    4: "heavenly_ready",
}

#: spellings in the text's 不记番 lists -> the fan heading they mean
ALIASES = {
    "碰碰和": "碰碰胡",
    "单钓": "单吊将",
    "单钓将": "单吊将",
    "砍张": "坎张",
    "门前清": "门清",
    "连六": "连6",
}

# meld kinds (mjstats.hand.MeldKind)
_CHOW, _PUNG, _KONG, _CKONG = 1, 2, 3, 4


@dataclass(frozen=True)
class TwoPlayerFan(FanDef):
    """A :class:`~mjstats.rulesets.base.FanDef` with the text's claim condition and
    verbatim 不记番 list (see the module docstring)."""

    excludes_zh: tuple[str, ...] = ()
    claims_zh: str = ""
    hand_melds: tuple[int, ...] | None = None
    excludes_own_set: tuple[str, ...] = ()


#: fan key -> the keys of its 不记番 list it removes only for its own set
#: (``TwoPlayerFan.excludes_own_set``): the seat-wind pung is a 幺九刻 pung, and
#: 门风刻 takes that pung's 幺九刻 as MCR's wind fans do per pung
OWN_SET_EXCLUDES = {"seat_wind": ("pung_of_terminals_or_honors",)}

# (key, zh heading, en, points, 不记番 verbatim, claims verbatim, hand_melds)
# fmt: off
_TABLE = (
    # 88
    ("eight_immortals", "八仙过海", "Eight Immortals Crossing the Sea", 88,
     ("季花", "春夏秋冬", "梅兰竹菊"), "可以吃碰明暗杠", None),
    ("big_four_winds", "大四喜", "Big Four Winds", 88,
     ("圈风刻", "门风刻", "三风刻", "碰碰和", "幺九刻"), "可以碰，明暗杠", None),
    ("big_three_dragons", "大三元", "Big Three Dragons", 88,
     ("箭刻", "双箭刻"), "可以吃碰明暗杠", None),
    ("nine_gates", "九莲宝灯", "Nine Gates", 88,
     ("清一色", "不求人", "门清", "幺九刻"), "必须门清，不可以吃碰明暗杠", ()),
    ("four_kongs", "四杠子", "Four Kongs", 88,
     ("双暗杠", "双明杠", "明杠", "暗杠", "单钓"), "", None),
    ("big_wheel", "大车轮", "Big Wheel", 88,
     ("清一色", "不求人", "单钓", "门清", "七对", "老少副", "连六", "一般高", "平胡"),
     "不可以吃碰明杠", ()),
    # 64
    ("little_four_winds", "小四喜", "Little Four Winds", 64,
     ("三风刻", "幺九刻"), "可以吃碰明暗杠", None),
    ("little_three_dragons", "小三元", "Little Three Dragons", 64,
     ("箭刻", "双箭刻"), "可以吃碰明暗杠", None),
    ("all_honors", "字一色", "All Honors", 64,
     ("碰碰和", "混幺九", "全带幺", "幺九刻", "大于五", "小于五"), "可以碰明暗杠，没有吃牌", None),
    ("four_concealed_pungs", "四暗刻", "Four Concealed Pungs", 64,
     ("门清", "碰碰和", "三暗刻", "双暗刻", "不求人"), "不可以碰明暗杠，没有吃牌", (_CKONG,)),
    ("pure_terminal_chows", "一色双龙会", "Pure Terminal Chows", 64,
     ("平胡", "七对", "清一色", "一般高", "老少副"), "可以吃碰名暗杠", None),
    # 48
    ("heavenly_hand", "天胡", "Heavenly Hand", 48,
     ("单钓将", "边张", "砍张"), "不可以吃碰明暗杠", ()),
    ("quadruple_chow", "一色四同顺", "Quadruple Chow", 48,
     ("一色三节高", "一般高", "四归一", "一色三同顺", "七对"),
     "可以吃（碰，杠后满足不了该牌型）", None),
    ("four_pure_shifted_pungs", "一色四节高", "Four Pure Shifted Pungs", 48,
     ("一色三同顺", "一色三节高", "碰碰和"), "可以碰，明暗杠。（吃牌后满足不了该牌型）", None),
    # 32
    ("earthly_hand", "地胡", "Earthly Hand", 32, (), "必须闲家，不可以吃碰明暗杠", ()),
    ("four_pure_shifted_chows", "一色四步高", "Four Pure Shifted Chows", 32,
     ("一色三步高",), "可以吃。（碰，杠后满足不了该牌型）", None),
    ("three_kongs", "三杠", "Three Kongs", 32,
     ("双明杠", "双暗杠", "明杠", "暗杠"), "可以明暗杠", None),
    # 24
    ("human_hand", "人胡", "Human Hand", 24, (), "必须闲家，不可以吃碰明暗杠", ()),
    ("all_terminals_and_honors", "混幺九", "All Terminals and Honors", 24,
     ("碰碰和", "幺九刻", "全带幺"), "可以碰和明暗杠，不可以吃牌", None),
    ("seven_pairs", "七对", "Seven Pairs", 24,
     ("老少副", "连六", "一般高", "平胡"), "不可以吃碰明暗杠", ()),
    ("full_flush", "清一色", "Full Flush", 24, (), "可以吃碰名暗杠", None),
    ("pure_triple_chow", "一色三同顺", "Pure Triple Chow", 24,
     ("一色三节高", "一般高"), "可以吃碰名暗杠", None),
    ("pure_shifted_pungs", "一色三节高", "Pure Shifted Pungs", 24,
     ("一色三同顺",), "可以吃碰名暗杠", None),
    # 16
    ("heavenly_ready", "天听", "Heavenly Ready", 16, (), "不可以吃碰明杠", ()),
    ("pure_straight", "一条龙", "Pure Straight", 16, ("连6", "老少副"), "可以吃碰名暗杠", None),
    ("pure_shifted_chows", "一色三步高", "Pure Shifted Chows", 16, (), "可以吃碰名暗杠", None),
    ("three_concealed_pungs", "三暗刻", "Three Concealed Pungs", 16,
     ("双暗刻",), "可以吃碰名暗杠", None),
    # 12
    ("upper_tiles", "大于五", "Upper Tiles", 12, (), "可以吃碰名暗杠", None),
    ("lower_tiles", "小于五", "Lower Tiles", 12, (), "可以吃碰名暗杠", None),
    ("three_wind_pungs", "三风刻", "Three Wind Pungs", 12, (), "可以吃碰明暗杠", None),
    # 8
    ("last_tile_draw", "海底捞月", "Last Tile Draw", 8, (), "", None),
    ("last_tile_claim", "河底捞鱼", "Last Tile Claim", 8, (), "", None),
    ("out_with_replacement_tile", "杠上开花", "Out with Replacement Tile", 8, ("自摸",), "", None),
    # 6
    ("all_pungs", "碰碰胡", "All Pungs", 6, (), "可以碰，明暗杠。（吃牌后满足不了该牌型）", None),
    ("half_flush", "混一色", "Half Flush", 6, (), "可以吃碰明暗杠", None),
    ("melded_hand", "全求人", "Melded Hand", 6, ("单钓",), "可以吃碰明杠。暗杠不算全求人",
     (_CHOW, _PUNG, _KONG)),
    ("two_concealed_kongs", "双暗杠", "Two Concealed Kongs", 6,
     ("双暗刻",), "可以吃碰明暗杠", None),
    ("two_dragon_pungs", "双箭刻", "Two Dragon Pungs", 6, ("箭刻",), "可以吃碰明暗杠", None),
    # 4
    ("outside_hand", "全带幺", "Outside Hand", 4, (), "可以吃碰明暗杠", None),
    ("fully_concealed_hand", "不求人", "Fully Concealed Hand", 4,
     ("门前清", "自摸"), "不可以吃碰明杠，可以暗杠", (_CKONG,)),
    ("two_melded_kongs", "双明杠", "Two Melded Kongs", 4, ("明杠",), "可以吃碰明暗杠", None),
    # 2
    ("dragon_pung", "箭刻", "Dragon Pung", 2, (), "", None),
    ("prevalent_wind", "圈风刻", "Prevalent Wind", 2, (), "", None),
    ("seat_wind", "门风刻", "Seat Wind", 2, ("幺九刻",), "", None),
    ("concealed_hand", "门清", "Concealed Hand", 2, (), "没有吃碰明杠", (_CKONG,)),
    ("all_chows", "平胡", "All Chows", 2, (), "", None),
    ("tile_hog", "四归一", "Tile Hog", 2, (), "", None),
    ("two_concealed_pungs", "双暗刻", "Two Concealed Pungs", 2, (), "", None),
    ("concealed_kong", "暗杠", "Concealed Kong", 2, (), "", None),
    ("declared_ready", "立直", "Declared Ready", 2, (), "不可以吃碰明杠", (_CKONG,)),
    # 1
    ("all_simples", "断幺", "All Simples", 1, (), "", None),
    ("pure_double_chow", "一般高", "Pure Double Chow", 1, (), "", None),
    ("short_straight", "连6", "Short Straight", 1, (), "6张可以吃，不可以碰杠", None),
    ("two_terminal_chows", "老少副", "Two Terminal Chows", 1, (), "", None),
    ("pung_of_terminals_or_honors", "幺九刻", "Pung of Terminals or Honors", 1, (), "", None),
    ("melded_kong", "明杠", "Melded Kong", 1, (), "", None),
    ("edge_wait", "边张", "Edge Wait", 1, (), "", None),
    ("closed_wait", "坎张", "Closed Wait", 1, (), "", None),
    ("single_wait", "单吊将", "Single Wait", 1, (), "", None),
    ("flower_tiles", "花牌", "Flower Tiles", 1, (), "", None),
    ("self_drawn", "自摸", "Self-Drawn", 1, (), "", None),
    ("pair_258", "二五八将", "Pair of 2, 5 or 8", 1, (), "可以吃碰明杠", None),
    ("seat_flowers", "季花", "Seat Flowers", 1, (), "", None),
    ("terminal_pair", "幺九头", "Pair of 1 or 9", 1, (), "可以吃碰明暗杠", None),
    ("four_gentlemen", "梅兰竹菊", "Four Gentlemen", 1, (), "可以吃碰明暗杠", None),
    ("four_seasons", "春夏秋冬", "Four Seasons", 1, (), "可以吃碰明暗杠", None),
)
# fmt: on


def _build() -> tuple[TwoPlayerFan, ...]:
    key_of = {zh: key for key, zh, *_ in _TABLE}
    fans = []
    for key, zh, en, points, excl_zh, claims_zh, hand_melds in _TABLE:
        excludes = tuple(key_of[ALIASES.get(name, name)] for name in excl_zh)
        if not set(OWN_SET_EXCLUDES.get(key, ())) <= set(excludes):  # pragma: no cover
            raise ValueError(f"{key}: an own-set exclusion must be on its 不记番 list")
        fans.append(
            TwoPlayerFan(
                key,
                zh,
                en,
                points,
                excludes,
                excludes_zh=excl_zh,
                claims_zh=claims_zh,
                hand_melds=hand_melds,
                excludes_own_set=OWN_SET_EXCLUDES.get(key, ()),
            )
        )
    return tuple(fans)


FANS: tuple[TwoPlayerFan, ...] = _build()

#: names of the form codes of ``BatchScore.form`` (code k is ``FORMS[k]``; 0 = not complete)
FORMS = ("none", "regular", "seven_pairs")

RULESET = Ruleset(
    name="two-player",
    title="Two-player mahjong (二人麻将)",
    fans=FANS,
    minimum=0,
    tiles=TILES,
    shanten_forms=("regular", "seven_pairs"),
    forms=FORMS,
    base_payment=0,
    opponents=1,
    flower_fans=(
        "flower_tiles",
        "seat_flowers",
        "four_seasons",
        "four_gentlemen",
        "eight_immortals",
    ),
    options={"flowers_count_toward_minimum": True},
    binding="mjstats.rulesets.two_player.binding",
)
