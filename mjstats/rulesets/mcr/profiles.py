"""MCR rule profiles: named readings of the rules other than the reference's.

``reference`` (the default) is the fan table of :mod:`.fans` as it stands: the
reference scorer's reading (PyMahjongGB 1.4.0, the Botzone judge). Each other
profile is a :class:`~mjstats.rulesets.base.Profile`: the fan-table changes
(points, names, 不计 lists), the options it fixes and the rule points its kernel
switches on. ``docs/rule-profiles.md`` lists every decision with its clause and
what it changes on real and exact hand sets (``mjstats rules diff``).

``wmo-2014``: the World Mahjong Organization's Chinese rulebook *麻将竞赛规则*
(北京现代出版社, 1st edition, December 2014, ISBN 978-7-5143-3183-7; the Chinese
text takes precedence; pages are its printed pages). Its eight decisions:

1. 双明杠 (Annex I fan 57, p. 40; fan table p. 14): one melded and one
   concealed kong count 6, shown as one fan 双明杠 (the reference's 5-point
   明暗杠 id, renamed and revalued; option ``mingan_gang`` on).
2. 双暗杠 is worth 8 (Article 8's value table and Annex 8, pp. 11 and 14).
3. 三杠 (Annex I fan 17, p. 28: 暗杠加计) still scores its concealed kongs: one
   adds 暗杠, two add 双暗杠 in place of the 双暗刻 they make; concealed kongs
   count toward 双暗刻/三暗刻/四暗刻 (fan 33, p. 33). Rule point
   ``kongs_keep_concealed_kong_fans``; 三杠's 不计 list loses 双暗杠 and 暗杠.
4. 四杠, likewise (Annex I fan 5, p. 24: 暗杠加计, 不计单调将).
5. Self-drawn 九莲宝灯, 连七对, 十三幺, 四暗刻, 七对, 七星不靠, 全不靠 add 不求人
   (4) instead of 自摸 (Annex I fans 4, 6, 7, 12, 19, 20, 34, pp. 23-35:
   自摸加计不求人): their 不计 lists lose 不求人, which then excludes 自摸 (the
   kernel reports 不求人 on every self-drawn concealed form; the reference's
   lists remove it again).
6. 绿一色 may add 混一色 (Annex I fan 3, p. 23: 可加计清一色、混一色): its 不计
   list keeps 缺一门 only.
7. 清幺九 keeps 双同刻 (Annex I fan 8, p. 26; non-repetition principle, p. 19):
   its 不计 list is 碰碰和, 全带幺, 幺九刻, 无字 (and 混幺九, which it implies).
8. Seven pairs with 绿一色 or 清幺九 hold one kind four times by necessity (six
   kinds for seven pairs): that quad is not counted as 四归一 again, further
   quads are (All Green seven-pairs example, p. 23; p. 19). Rule point
   ``forced_quad_not_tile_hog``.

Adding a profile: a :class:`~mjstats.rulesets.base.Profile` here, listed in
:data:`PROFILES`; a rule point that needs new kernel code gets a bit in
:mod:`.binding` and its branch in :mod:`mjstats.rulesets.mcr.kernel`.
"""

from __future__ import annotations

from mjstats.rulesets.base import Profile, RulePoint

__all__ = ["PROFILES", "WMO_2014"]

# the special forms whose self-drawn win adds 不求人 under WMO 2014 (decision 5)
_CONCEALED_FORMS = {
    "nine_gates": (
        "full_flush",
        "concealed_hand",
        "no_honors",
        "one_voided_suit",
    ),
    "seven_shifted_pairs": (
        "seven_pairs",
        "full_flush",
        "concealed_hand",
        "single_wait",
        "no_honors",
        "one_voided_suit",
    ),
    "thirteen_orphans": (
        "all_types",
        "concealed_hand",
        "single_wait",
        "outside_hand",
        "all_terminals_and_honors",
    ),
    "four_concealed_pungs": (
        "all_pungs",
        "concealed_hand",
        "three_concealed_pungs",
        "two_concealed_pungs",
    ),
    "seven_pairs": ("concealed_hand", "single_wait"),
    "greater_honors_and_knitted_tiles": (
        "lesser_honors_and_knitted_tiles",
        "all_types",
        "concealed_hand",
        "single_wait",
    ),
    "lesser_honors_and_knitted_tiles": ("all_types", "concealed_hand", "single_wait"),
}

WMO_2014 = Profile(
    name="wmo-2014",
    title="World Mahjong Organization, 麻将竞赛规则 (2014, ISBN 978-7-5143-3183-7)",
    points={
        "concealed_kong_and_melded_kong": 6,  # decision 1
        "two_concealed_kongs": 8,  # decision 2
    },
    names={"concealed_kong_and_melded_kong": ("双明杠", "Two Melded Kongs (one concealed)")},
    excludes={
        # decision 3: 暗杠加计
        "three_kongs": ("two_melded_kongs", "melded_kong", "concealed_kong_and_melded_kong"),
        # decision 4: 暗杠加计, 不计单调将
        "four_kongs": (
            "three_kongs",
            "two_melded_kongs",
            "melded_kong",
            "concealed_kong_and_melded_kong",
            "all_pungs",
            "single_wait",
        ),
        **_CONCEALED_FORMS,  # decision 5
        "all_green": ("one_voided_suit",),  # decision 6
        # decision 7
        "all_terminals": (
            "all_pungs",
            "no_honors",
            "all_terminals_and_honors",
            "outside_hand",
            "pung_of_terminals_or_honors",
        ),
    },
    options={"mingan_gang": True},  # decision 1
    rule_points=(
        RulePoint(
            "kongs_keep_concealed_kong_fans",
            ("three_kongs", "four_kongs", "concealed_kong", "two_concealed_kongs"),
            "Under 三杠 and 四杠 one concealed kong adds 暗杠 and two add 双暗杠 (WMO 2014, "
            "Annex I fans 17 and 5, pp. 28 and 24: 暗杠加计); the mixed pair (双明杠 6) "
            "does not apply to two kongs out of three or four.",
        ),
        RulePoint(
            "forced_quad_not_tile_hog",
            ("seven_pairs", "all_green", "all_terminals", "tile_hog"),
            "Seven pairs with 绿一色 or 清幺九 count one 四归一 fewer: six kinds make seven "
            "pairs only with one kind four times (WMO 2014, p. 23 example; p. 19).",
        ),
    ),
)

#: the MCR profiles besides ``reference``, in kernel-table order
PROFILES: tuple[Profile, ...] = (WMO_2014,)
