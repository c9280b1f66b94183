"""``mjstats rules diff --exact``: the two profiles' scores over the exact
enumeration, with each hand's readings shared (mjstats.studies.kernels.profile_diff),
checked against scoring every (hand, winning tile) under each profile with
``score_batch``, and its weights against the exact study's own counters."""

from __future__ import annotations

import json

import numpy as np
import pytest

from mjstats import HandBatch, parse_tiles
from mjstats.rules import get_ruleset
from mjstats.studies.compare import _exact_figures, _sampled_figures, _table
from mjstats.studies.exact import CHUNK, ExactStudy

A, B = "mcr", "mcr:wmo-2014"


def _rows(counts: np.ndarray, weights: np.ndarray):
    """Every (hand, winning tile kind) of ``counts`` in enumeration order, as the
    exact study scores it (self-drawn, East/East), weighing deal weight x copies."""
    hand, tile = np.nonzero(counts)
    batch = HandBatch(concealed=counts[hand], win_tile=tile, self_drawn=True)
    return batch, weights[hand] * counts[hand, tile].astype(np.int64)


def _reference_table(study, groups, a, b, examples):
    """The table from score_batch under each profile, every row weighted."""
    parts = [study.hands(first, count) for first, count in groups]
    counts = np.concatenate([c for c, _ in parts])
    weights = np.concatenate([w for _, w in parts])
    batch, w = _rows(counts, weights)
    fig = _sampled_figures(get_ruleset(a), get_ruleset(b), 0, 0, examples, batch, w)
    return _table(fig), len(counts)


def _without_distinct(table):
    return table[table.item != "distinct hands"].reset_index(drop=True)


class _Hands(ExactStudy):
    """The exact enumeration's kernel over hand-picked hands only (its special
    rows; each weighs its deal weight, as the enumeration weighs it)."""

    n_regular = 0
    n_pairs = 0

    def __init__(self, ruleset, texts):
        super().__init__(ruleset)
        self._special = np.array([parse_tiles(t) for t in texts], np.uint8)


# every path of the shared-reading scorer: regular (one and several readings,
# waits), seven pairs competing with regular readings, seven shifted pairs,
# honours and knitted (lesser, with a knitted straight, greater), thirteen
# orphans, knitted straight + set + pair, nine gates; and the wmo-2014
# decisions a concealed self-drawn hand can meet (5, 6, 7, 8)
HANDS = [
    "11123455678999m",  # nine gates
    "11122233344455m",  # regular, many readings
    "11223344556677m",  # seven pairs and regular
    "44556m445566s55p6m",  # seven pairs beats the regular reading under wmo-2014
    "22334455667788p",  # seven shifted pairs
    "147m258p369s12345z",  # lesser honours and knitted + knitted straight
    "147m258p36s123456z",  # lesser honours and knitted
    "147m258p3s1234567z",  # greater honours and knitted
    "19m19p19s12345677z",  # thirteen orphans
    "147m258p12335569s",  # knitted straight + chow + pair
    "147m258p369s55577z",  # knitted straight + pung + pair
    "111m222p333s44455z",  # four concealed pungs (decision 5)
    "223344666888s66z",  # all green + half flush (decision 6)
    "111999m111999p11s",  # all terminals + double pungs (decision 7)
    "22223344668888s",  # all green seven pairs with quads (decision 8)
    "1199m1199p111199s",  # all terminals seven pairs (decision 8)
    "123m456p789s12355s",  # regular, a unique wait or not
    "123456789m11122z",  # pure straight, honour pung
]


@pytest.mark.parametrize("b", [B, A])
def test_every_differing_hand_equals_score_batch(b):
    """Hand-picked hands through the exact diff's kernel: with room for every
    example, the examples list every (hand, winning tile) whose fans or total
    differ, with both totals, so the tables are equal hand by hand."""
    study = _Hands(A, HANDS)
    exact = _table(_exact_figures(get_ruleset(A), get_ruleset(b), 10_000, False, study, [(0, 1)]))
    ref, n = _reference_table(study, [(0, 1)], A, b, 10_000)
    assert n == len(HANDS)
    assert _without_distinct(exact).equals(ref)
    if b == B:
        by = exact.set_index(["section", "item"])
        assert by.loc[("summary", "totals differ"), "weight"] > 0
        assert (exact.section == "example").sum() > 10


# a regular chunk, the chunk where the seven-pairs hands begin, a seven-pairs
# chunk, the last chunk (seven pairs and special forms), the special forms
def _groups(study):
    last = study.n_chunks() - 1
    return [(0, 1), (study.n_regular // CHUNK, 1), (600, 1), (last - 1, 2)]


def test_sub_enumeration_equals_score_batch():
    """The exact diff of whole chunks of the enumeration equals the weighted
    table of score_batch under each profile on the same (hand, tile) rows."""
    study = ExactStudy(A)
    groups = _groups(study)
    fig = _exact_figures(get_ruleset(A), get_ruleset(B), 3, False, None, groups)
    ref, n = _reference_table(study, groups, A, B, 3)
    assert fig.distinct == n
    assert _without_distinct(_table(fig)).equals(ref)
    assert fig.differ > 0 and fig.kinds


def test_a_profile_against_itself_and_the_exact_study_weights():
    """A profile against itself: no difference; its hands, P(legal) and mean
    total are those of the exact study's own counters on the same chunks."""
    study = ExactStudy(B)
    groups = _groups(study)
    fig = _exact_figures(get_ruleset(B), get_ruleset(B), 3, False, None, groups)
    assert fig.differ == 0 and not fig.appears and not fig.disappears and not fig.kinds
    assert fig.delta == {0: fig.complete}
    parts = [study.run_chunks(first, count) for first, count in groups]
    agg = sum(parts[1:], parts[0])
    assert fig.complete == int(agg["complete"][0]) and fig.distinct == int(agg["distinct"][0])
    assert fig.legal == (int(agg["legal"][0]),) * 2
    hist = agg["total_hist"].sum(axis=0)
    mean = int((np.arange(len(hist)) * hist).sum()) / fig.complete
    assert fig.mean == (mean, mean)


def test_exact_needs_two_profiles_of_one_ruleset():
    from mjstats.rules import diff

    with pytest.raises(ValueError, match="one ruleset"):
        diff("mcr", "two-player", exact=True)
    with pytest.raises(ValueError, match="no hands"):
        diff("mcr", B, exact=True, hands=HandBatch.from_hands(["123m456p789s1235s+5s"]))


@pytest.fixture
def two_chunks(monkeypatch):
    """The exact enumeration cut to its first two chunks (for the CLI tests)."""
    monkeypatch.setattr(ExactStudy, "n_chunks", lambda self: 2)


def test_cli_exact_table_and_json(two_chunks, capsys, tmp_path):
    from mjstats.cli import main

    assert main(["rules", "diff", A, B, "--exact", "--examples", "1", "--top", "3"]) == 0
    out = capsys.readouterr().out
    assert "(exact enumeration, weighted)" in out and "[summary]" in out
    assert "distinct hands" in out and "P(legal)" in out
    assert main(["rules", "diff", A, B, "--exact", "--json", "-"]) == 0
    doc = json.loads(capsys.readouterr().out, parse_constant=lambda c: 1 / 0)  # strict JSON
    prov = doc["provenance"]
    assert (prov["kind"], prov["a"], prov["b"], prov["exact"], prov["n"]) == (
        "rules-diff", A, B, True, None,
    )  # fmt: skip
    assert "--exact" in prov["command"]
    rows = {(r["section"], r["item"]): r for r in doc["rows"]}
    assert rows[("summary", "hands")]["weight"] > rows[("summary", "distinct hands")]["weight"]
    csv = tmp_path / "d.csv"
    assert main(["rules", "diff", A, A, "--exact", "--csv", str(csv)]) == 0
    side = json.loads((tmp_path / "d.csv.provenance.json").read_text())
    assert side["provenance"]["kind"] == "rules-diff" and csv.stat().st_size > 0


def test_cli_exact_usage_errors(capsys):
    from mjstats.cli import main

    assert main(["rules", "diff", A, B, "--exact", "--n", "5"]) == 2
    assert "takes no --n" in capsys.readouterr().err
    assert main(["rules", "diff", A, "two-player", "--exact"]) == 2
    assert "one ruleset" in capsys.readouterr().err


@pytest.mark.slow
def test_full_exact_diff_against_the_exact_studies():
    """The whole enumeration (minutes): the diff's weights are those of the
    shipped exact study (reference) and of a fresh exact study of wmo-2014."""
    from mjstats.rules import diff
    from mjstats.studies.exact import exact, load_exact

    t = diff(A, B, exact=True).set_index(["section", "item"])
    ref = load_exact(A)
    wmo = exact(B, progress=False)
    m = int(ref["complete"][0])
    assert t.loc[("summary", "hands"), "weight"] == m == int(wmo["complete"][0])
    assert t.loc[("summary", "distinct hands"), "weight"] == int(ref["distinct"][0])
    assert t.loc[("summary", "P(legal)"), "a"] == int(ref["legal"][0]) / m
    assert t.loc[("summary", "P(legal)"), "b"] == int(wmo["legal"][0]) / m
    for agg, col in ((ref, "a"), (wmo, "b")):
        hist = agg["total_hist"].sum(axis=0)
        assert t.loc[("summary", "mean total"), col] == int((np.arange(len(hist)) * hist).sum()) / m
    # the fans each profile's best reading holds, from the appear/disappear counts
    keys = [f.key for f in get_ruleset(A).fans]
    diag_a, diag_b = np.diag(ref["cooccurrence"]), np.diag(wmo["cooccurrence"])
    for f, key in enumerate(keys):
        up = t.loc[("appears", key), "weight"] if ("appears", key) in t.index else 0
        down = t.loc[("disappears", key), "weight"] if ("disappears", key) in t.index else 0
        if diag_a[f] == diag_b[f]:
            continue
        assert up or down, key
