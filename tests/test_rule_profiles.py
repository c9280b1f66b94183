"""Golden tests of the MCR profile ``wmo-2014``, written from the clauses of the
WMO 2014 Chinese rulebook *麻将竞赛规则* (北京现代出版社, 2014, ISBN
978-7-5143-3183-7; page numbers are its printed pages), decision by decision as
``mjstats/rulesets/mcr/profiles.py`` lists them. Each case gives the hand, the
clause, the fans the clause gives under ``wmo-2014`` (key -> count) and the
reference's total for the same hand (profile ``reference``, today's behaviour).
"""

from __future__ import annotations

import pytest

import mjstats
from mjstats.errors import UnknownRulesetError
from mjstats.rules import get_ruleset

WMO = "mcr:wmo-2014"

# (decision, clause, hand, wmo fans {key: count}, reference total)
CASES = [
    # 1. 双明杠 6 for one melded + one concealed kong, one fan
    (
        1,
        "Annex I fan 57 双明杠, p. 40; fan table p. 14",
        "[2222m]{5555p}123s789s1z+1z",
        {"concealed_kong_and_melded_kong": 1, "two_terminal_chows": 1, "single_wait": 1},
        7,
    ),
    (
        1,
        "Annex I fan 57 双明杠, p. 40",
        "{3333m}[7777s]456p456s9p+9p self-drawn",
        {
            "concealed_kong_and_melded_kong": 1,
            "mixed_double_chow": 1,
            "single_wait": 1,
            "self_drawn": 1,
            "no_honors": 1,
        },
        9,
    ),
    # 2. 双暗杠 8
    (
        2,
        "Article 8 value table, p. 11; Annex 8, p. 14",
        "{2222m}{5555p}123s789s1z+1z",
        {"two_concealed_kongs": 1, "two_terminal_chows": 1, "single_wait": 1, "concealed_hand": 1},
        10,
    ),
    (
        2,
        "Article 8 value table, p. 11",
        "{3333m}{7777s}456p456s9p+9p self-drawn",
        {
            "two_concealed_kongs": 1,
            "fully_concealed_hand": 1,
            "mixed_double_chow": 1,
            "single_wait": 1,
            "no_honors": 1,
        },
        13,
    ),
    # 3. 三杠: 暗杠加计
    (
        3,
        "Annex I fan 17 三杠, p. 28: 暗杠加计",
        "[2222m][5555p]{7777s}789m9s+9s",
        {"three_kongs": 1, "concealed_kong": 1, "single_wait": 1, "no_honors": 1},
        34,
    ),
    (
        3,
        "Annex I fan 17 三杠, p. 28; fan 33 三暗刻, p. 33",
        "[2222m]{5555p}{7777s}789m9s+9s",
        {"three_kongs": 1, "two_concealed_kongs": 1, "single_wait": 1, "no_honors": 1},
        36,
    ),
    (
        3,
        "Annex I fan 17 三杠, p. 28: three concealed kongs add 三暗刻",
        "{2222m}{5555p}{7777s}789m9s+9s",
        {
            "three_kongs": 1,
            "three_concealed_pungs": 1,
            "concealed_hand": 1,
            "single_wait": 1,
            "no_honors": 1,
        },
        52,
    ),
    # 4. 四杠: 暗杠加计, 不计单调将
    (
        4,
        "Annex I fan 5 四杠, p. 24: 暗杠加计, 不计单调将",
        "[2222m][5555p][8888m]{7777s}9s+9s",
        {"four_kongs": 1, "concealed_kong": 1, "no_honors": 1},
        89,
    ),
    (
        4,
        "Annex I fan 5 四杠, p. 24",
        "[2222m][5555p]{8888m}{7777s}9s+9s",
        {"four_kongs": 1, "two_concealed_kongs": 1, "no_honors": 1},
        91,
    ),
    # 5. 自摸加计不求人
    (
        5,
        "Annex I fan 19 七对, p. 31: 自摸加计不求人",
        "44556m445566s55p+6m self-drawn",
        {"seven_pairs": 1, "middle_tiles": 1, "fully_concealed_hand": 1},
        49,
    ),
    (
        5,
        "Annex I fan 7 十三幺, p. 25: 自摸加计不求人",
        "19m19p19s1234567z+1m self-drawn",
        {"thirteen_orphans": 1, "fully_concealed_hand": 1},
        89,
    ),
    (
        5,
        "Annex I fan 12 四暗刻, p. 27: 自摸加计不求人",
        "111m333p555s777s9m+9m self-drawn",
        {
            "four_concealed_pungs": 1,
            "fully_concealed_hand": 1,
            "single_wait": 1,
            "pung_of_terminals_or_honors": 1,
            "no_honors": 1,
        },
        68,
    ),
    (
        5,
        "Annex I fan 20 七星不靠, p. 32: 自摸加计不求人; 不计五门齐、门前清",
        "147m258p3s123456z+7z self-drawn",
        {"greater_honors_and_knitted_tiles": 1, "fully_concealed_hand": 1},
        25,
    ),
    # 6. 绿一色 可加计清一色、混一色
    (
        6,
        "Annex I fan 3 绿一色, p. 23: 可加计混一色",
        "[234s]234s666s888s6z+6z",
        {
            "all_green": 1,
            "half_flush": 1,
            "pure_double_chow": 1,
            "two_concealed_pungs": 1,
            "single_wait": 1,
        },
        92,
    ),
    (
        6,
        "Annex I fan 3 绿一色, p. 23: 可加计混一色 (a pung completed on a discard)",
        "[666s]234s234s88s66z+8s",
        {"all_green": 1, "half_flush": 1, "pure_double_chow": 1},
        89,
    ),
    # 7. 清幺九 keeps 双同刻
    (
        7,
        "Annex I fan 8 清幺九, p. 26 (its examples: 双同刻)",
        "[111m]111p999m999s1s+1s",
        {"all_terminals": 1, "double_pung": 2, "three_concealed_pungs": 1, "single_wait": 1},
        81,
    ),
    (
        7,
        "Annex I fan 8 清幺九, p. 26; 三同刻 absorbs its pairs (p. 19)",
        "[111m][111p]111s999m9p+9p",
        {"all_terminals": 1, "triple_pung": 1, "two_concealed_pungs": 1, "single_wait": 1},
        83,
    ),
    # 8. the forced quad of seven pairs with 绿一色 / 清幺九 is no 四归一
    (
        8,
        "Annex I fan 3 绿一色 seven-pairs example, p. 23; p. 19",
        "223344666688s6z+6z",
        {"all_green": 1, "seven_pairs": 1, "half_flush": 1, "tile_hog": 0},
        114,
    ),
    (
        8,
        "p. 23 example; p. 19 (a further quad still counts)",
        "1111m99m1111p99p1s+1s",
        {"all_terminals": 1, "seven_pairs": 1, "tile_hog": 1},
        92,
    ),
]


def _fans(score):
    return {f.key: f.count for f in score.fans}


@pytest.mark.parametrize(
    ("decision", "clause", "text", "fans", "reference_total"),
    CASES,
    ids=[f"d{c[0]}-{i}" for i, c in enumerate(CASES)],
)
def test_wmo_2014_clause(decision, clause, text, fans, reference_total):
    wmo = get_ruleset(WMO)
    s = mjstats.score(text, ruleset=WMO)
    want = {k: n for k, n in fans.items() if n}
    assert _fans(s) == want, clause
    assert s.total == sum(int(wmo.points[wmo.fan_id(k)]) * n for k, n in want.items())
    assert mjstats.score(text).total == reference_total


def test_both_cases_per_decision():
    assert all(sum(c[0] == d for c in CASES) >= 2 for d in range(1, 9))


def test_the_acceptance_hand():
    s = mjstats.score("44556m445566s55p+6m self-drawn", ruleset="mcr:wmo-2014")
    assert (s.total, s.form) == (52, "seven_pairs")
    assert mjstats.score("44556m445566s55p+6m self-drawn").total == 49


def test_profile_value_shows_as_one_fan_with_its_points():
    s = mjstats.score("[2222m]{5555p}123s789s1z+1z", ruleset=WMO)
    kong = [f for f in s.fans if f.key == "concealed_kong_and_melded_kong"]
    assert [(f.zh, f.points) for f in kong] == [("双明杠", 6)]
    b = mjstats.score_batch(["[2222m]{5555p}123s789s1z+1z"], ruleset=WMO)
    row = b.fans.set_index("key").loc["concealed_kong_and_melded_kong"]
    assert (row.zh, int(row.points)) == ("双明杠", 6)
    assert int(b.fans.set_index("key").loc["two_concealed_kongs", "points"]) == 8
    assert int(b.total[0]) == s.total
    assert b.ruleset == "mcr:wmo-2014"


def test_profile_spellings():
    a = get_ruleset("mcr", profile="wmo-2014")
    assert get_ruleset("mcr:wmo-2014") == a == get_ruleset("MCR:WMO-2014")
    assert get_ruleset("mcr:reference") == get_ruleset("mcr")
    assert a.spec == "mcr:wmo-2014" and get_ruleset("mcr").spec == "mcr"
    assert get_ruleset("mcr:wmo-2014", mingan_gang=True).profile == "wmo-2014"
    with pytest.raises(UnknownRulesetError, match="no profile"):
        get_ruleset("mcr:wmo-2020")


def test_reference_profile_is_the_fan_table():
    rs = get_ruleset("mcr")
    assert rs.profile == "reference" and rs.profile_names() == ["reference", "wmo-2014"]
    assert get_ruleset("mcr", profile="reference") is rs


# ---------------------------------------------------------------- rules diff
def test_diff_counts_what_changes():
    from mjstats import HandBatch
    from mjstats.rules import diff

    texts = [
        "44556m445566s55p+6m self-drawn",  # 49 -> 52: another reading wins
        "{2222m}{5555p}123s789s1z+1z",  # 10 -> 12: 双暗杠 8
        "[123p]55m12379s789p+8s",  # unchanged
    ]
    t = diff("mcr", "mcr:wmo-2014", hands=HandBatch.from_hands(texts), examples=1)
    by = t.set_index(["section", "item"])
    assert by.loc[("summary", "hands"), "weight"] == 3
    assert by.loc[("summary", "totals differ"), "weight"] == 2
    assert by.loc[("difference", "+2"), "weight"] == 1
    assert by.loc[("difference", "+3"), "weight"] == 1
    assert by.loc[("difference", "+0"), "weight"] == 1
    assert by.loc[("appears", "seven_pairs"), "share"] == pytest.approx(1 / 3)
    assert by.loc[("disappears", "all_five"), "weight"] == 1
    assert by.loc[("summary", "mean total"), "b"] - by.loc[("summary", "mean total"), "a"] == (
        pytest.approx(5 / 3)
    )
    examples = t[t.section == "example"]
    assert len(examples) == 2 and set(examples.b) == {52, 12}


def test_diff_sampled_and_cli(tmp_path):
    from mjstats.cli import main
    from mjstats.rules import diff

    t = diff("mcr", "mcr:wmo-2014", n=3000, seed=2)
    again = diff("mcr", "mcr:wmo-2014", n=3000, seed=2)
    assert t.equals(again)  # seeded
    by = t.set_index(["section", "item"])
    assert 0 < by.loc[("summary", "totals differ"), "share"] < 1
    assert t[t.section == "difference"].share.sum() == pytest.approx(1)
    out = tmp_path / "diff.csv"
    code = main(["rules", "diff", "mcr", "mcr:wmo-2014", "--n", "500", "--csv", str(out)])
    assert code in (0, None) and out.stat().st_size > 0


def test_records_scored_under_a_profile():
    from mjstats.records import read_botzone
    from mjstats.records.check import _DEMO_GAME, score_records

    ref = score_records(read_botzone(_DEMO_GAME), "mcr")
    wmo = score_records(read_botzone(_DEMO_GAME), "mcr:wmo-2014")
    assert wmo.ruleset.spec == "mcr:wmo-2014"
    assert len(wmo.total) == len(ref.total) and (wmo.total >= 0).all()
