"""``analyze``: the table, exact probabilities of simple waits, determinism, input checks, CLI."""

from __future__ import annotations

import json
import math
import pickle

import numba
import numpy as np
import pytest
from conftest import scaled
from rich.cells import cell_len

from mjstats import cli
from mjstats.cli import main
from mjstats.errors import InvalidHandError, TileCountError
from mjstats.studies.aggregate import Aggregate
from mjstats.studies.analyze import (
    COLUMNS,
    AnalyzeStudy,
    analysis_table,
    analyze,
    read_position,
)
from mjstats.studies.runner import run_study


def p_hit(outs: int, unseen: int, draws: int) -> float:
    """P(at least one of ``outs`` tiles among ``draws`` drawn from ``unseen``) (hypergeometric)."""
    return 1.0 - math.comb(unseen - outs, draws) / math.comb(unseen, draws)


# ------------------------------------------------------------------ the table
@pytest.fixture(scope="module")
def table():
    return analyze("2367m3345p1568s16z", draws=10, n=scaled(1500), seed=3, progress=False)


def test_table_columns_and_order(table):
    assert list(table.columns) == COLUMNS
    assert len(table) == 13  # distinct tiles of the hand
    assert sorted(table["discard"]) == sorted(
        ["2m", "3m", "6m", "7m", "3p", "4p", "5p", "1s", "5s", "6s", "8s", "1z", "6z"]
    )
    ev = table["exp_points"].to_numpy()
    assert (np.diff(ev) <= 0).all()  # best first
    assert table.attrs["params"]["n"] == scaled(1500)
    # an isolated honour is a better discard than breaking the 3345p block
    best = set(table["discard"][:3])
    assert best & {"1z", "6z", "1s"}
    row = table.set_index("discard").loc["6z"]
    assert row["shanten"] == 3 and row["useful"] == "1458m36p14578s1z" and row["outs"] == 42


def test_derived_columns_are_consistent(table):
    n = table.attrs["params"]["n"]
    p = table["p_win"].to_numpy()
    assert np.allclose(table["p_win_se"], np.sqrt(p * (1 - p) / n))
    won = p > 0
    # MCR self-drawn payment 3 x (8 + fan): E[points] = P(win) * 3 * (8 + E[fan | win])
    assert np.allclose(table["exp_points"][won], (p * 3 * (8 + table["mean_fan"]))[won])
    assert (table["mean_fan"][won] >= 8).all()
    assert ((table["mean_draw"][won] >= 1) & (table["mean_draw"][won] <= 10)).all()


def test_waiting_hand_has_one_row():
    t = analyze("123m456p789s1133z", draws=3, n=200, seed=1, progress=False)
    assert t["discard"].tolist() == ["-"]
    assert t["shanten"].tolist() == [0] and t["useful"].tolist() == ["13z"]
    assert t["outs"].tolist() == [4]


# ------------------------------------------------------------------ exact expectations
@pytest.mark.parametrize(
    ("hand", "outs", "draws"),
    [
        # seven pairs, single wait on 5z: every out is legal (七对 24), and the efficiency
        # policy only ever swaps the single wait for another kind with 3 unseen copies
        ("11m33m55m77m11p33p5z", 3, 15),
        # thirteen orphans waiting on all 13 kinds (88)
        ("19m19p19s1234567z", 39, 3),
    ],
)
def test_ready_hand_matches_the_hypergeometric_formula(hand, outs, draws):
    n = scaled(20_000)
    t = analyze(hand, draws=draws, n=n, seed=7, progress=False)
    expected = p_hit(outs, 136 - 13, draws)
    se = math.sqrt(expected * (1 - expected) / n)
    assert abs(t["p_win"].item() - expected) < 4.5 * se
    assert t["outs"].item() == outs


def test_visible_tiles_reduce_the_chance():
    n = scaled(4000)
    free = analyze("19m19p19s1234567z", draws=3, n=n, seed=2, progress=False)
    seen = analyze("19m19p19s1234567z", draws=3, n=n, seed=2, visible="111z999s", progress=False)
    assert seen["outs"].item() == 39 - 6
    assert seen["p_win"].item() < free["p_win"].item()
    expected = p_hit(33, 136 - 13 - 6, 3)
    assert abs(seen["p_win"].item() - expected) < 4.5 * math.sqrt(expected * (1 - expected) / n)


def test_ready_hand_beats_three_shanten_hand():
    ready = analyze("123m456p789s2345s", draws=8, n=scaled(2000), seed=4, progress=False)
    far = analyze("1479m268p359s147z", draws=8, n=scaled(2000), seed=4, progress=False)
    assert ready["shanten"].item() == 0 and far["shanten"].item() == 3
    assert ready["p_win"].item() > far["p_win"].item() + 0.2


def test_melds_and_winds():
    # a pung of the seat and prevalent wind (East) is worth 4: the hand is legal on more tiles
    t = analyze("[111z]123m456p78s99m", draws=6, n=scaled(2000), seed=5, progress=False)
    assert t["discard"].tolist() == ["-"] and t["shanten"].item() == 0
    assert t["p_win"].item() > 0
    south = analyze("[111z]123m456p78s99m seat=S round=S", draws=6, n=scaled(2000), seed=5,
                    progress=False)  # fmt: skip
    assert south["p_win"].item() <= t["p_win"].item()


# ------------------------------------------------------------------ reproducibility
def test_same_seed_same_table_for_threads_and_grouping():
    study = AnalyzeStudy(read_position("2367m3345p1568s16z"), draws=8, n=600, seed=9, chunk_size=50)
    ref = run_study(study, group_size=1, progress=False)
    assert run_study(study, group_size=5, progress=False) == ref
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = run_study(study, group_size=12, progress=False)
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
        many = run_study(study, group_size=3, progress=False)
    finally:
        numba.set_num_threads(before)
    assert one == ref and many == ref
    other = run_study(
        AnalyzeStudy(read_position("2367m3345p1568s16z"), draws=8, n=600, seed=10, chunk_size=50),
        progress=False,
    )
    assert other != ref


def test_study_pickles_for_dask_workers():
    study = AnalyzeStudy(read_position("123m456p789s11334z"), draws=4, n=100, seed=1)
    clone = pickle.loads(pickle.dumps(study))
    assert clone.params() == study.params()
    assert clone.run_chunks(0, 1) == study.run_chunks(0, 1)


def test_table_from_a_saved_aggregate(tmp_path):
    study = AnalyzeStudy(read_position("123m456p789s11334z"), draws=4, n=300, seed=1)
    agg = run_study(study, progress=False)
    again = analysis_table(Aggregate.load(agg.save(tmp_path / "a.json")))
    direct = analyze("123m456p789s11334z", draws=4, n=300, seed=1, progress=False)
    assert again.equals(direct)


def test_fan_aware_policy_runs():
    t = analyze("1389m2336677789s", draws=10, n=scaled(600), seed=1, policy="fan-aware",
                progress=False)  # fmt: skip
    assert t.attrs["params"]["policy"] == "fan-aware" and len(t) == 10


# ------------------------------------------------------------------ input
def test_read_position_forms():
    p = read_position("[555p]12345m789s11z+9s")
    assert p.drawn and p.n_melds == 1 and int(p.concealed.sum()) == 11
    assert read_position("[555p]12345m789s11z9s").text == p.text
    assert not read_position("123m456p789s1133z").drawn
    assert read_position("123m456p789s1133z seat=W").seat_wind == 2


@pytest.mark.parametrize(
    ("hand", "visible", "error"),
    [
        ("123m456p789s113z", None, TileCountError),  # 12 tiles
        ("123m456p789s1133455z", None, TileCountError),  # 16 tiles
        ("123m456p789s11x3z", None, InvalidHandError),
        ("123m456p789s1133z", "111z", TileCountError),  # a fifth 1z
        ("123m456p789s1133z", "1q", InvalidHandError),
        (12, None, InvalidHandError),
    ],
)
def test_bad_input(hand, visible, error):
    with pytest.raises(error):
        analyze(hand, visible=visible, n=10, progress=False)


def test_bad_parameters():
    with pytest.raises(ValueError, match="draws"):
        analyze("123m456p789s1133z", draws=0)
    with pytest.raises(ValueError, match="unknown policy"):
        analyze("123m456p789s1133z", policy="random")


# ------------------------------------------------------------------ CLI
@pytest.fixture
def registered(monkeypatch):
    monkeypatch.setitem(cli.COMMANDS, "analyze", "mjstats.cli.analyze_cmd:command")


def test_cli_prints_the_table(registered, capsys, tmp_path):
    out_file = tmp_path / "out.json"
    code = main(
        ["analyze", "123m456p789s11334z", "--draws", "4", "--n", "300", "--seed", "2",
         "--visible", "4z", "--json", str(out_file)]
    )  # fmt: skip
    out, err = capsys.readouterr()
    assert code == 0 and err == ""
    lines = out.splitlines()
    # the analysis table of mjstats.analyze comes first (issue 33): title, a header on
    # two lines ("useful" over "copies"), 12 options
    assert lines[0] == "options  123m456p789s1133z+4z"
    assert lines[1].split()[:3] == ["useful", "legal", "legal"]
    assert lines[2].split()[:4] == ["option", "shanten", "copies", "useful"]
    assert lines[3].split()[:2] == ["discard", "4z"]
    lines = lines[3 + 12 :]
    assert lines[0].startswith("hand     123m456p789s1133z+4z  (14 tiles, 0 melds, seat E")
    assert lines[1] == "visible  4z"
    assert lines[2].startswith("playouts 300 per discard, at most 4 draws, policy efficiency")
    assert lines[3].split()[:4] == ["discard", "shanten", "outs", "useful"]
    assert len(lines) == 4 + 12  # one row per distinct tile
    assert lines[4].split()[:4] == ["4z", "0", "4", "13z"]  # 1z1z3z3z: two unseen of each
    data = json.loads(out_file.read_text())
    assert data["columns"] == COLUMNS and len(data["rows"]) == 12
    assert data["params"]["visible"] == "4z"


def test_cli_table_fits_the_terminal(registered, capsys, monkeypatch):
    """One line per option at the terminal's width: tile lists written as hands, the
    nearest three plans cut with "…" where the width ends, "-" for what was not
    computed (no playouts with --no-mc)."""
    monkeypatch.setenv("COLUMNS", "200")
    assert main(["analyze", "2367m3345p1568s16z", "--no-mc"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "options  2367m3345p1568s1z+6z"
    rows = out[3:]
    assert len(rows) == 13  # one per held kind
    assert all(cell_len(line) <= 200 for line in out)
    first = rows[0].split()
    assert first[:2] == ["discard", "1s"] and first[4] == "1458m36p4578s16z"
    assert "三色三步高 Mixed Shifted Chows (234m 345p 456s) 6 fan, need 4" in rows[0]
    assert rows[0].endswith("…") and " nan" not in rows[0] and " - " in rows[0]
    # all the plans of an option stay in the table written to a file
    from mjstats.analysis import analyze as analyze_table
    from mjstats.analysis import position
    from mjstats.analysis.position import read_hand

    table = analyze_table(position(read_hand("2367m3345p1568s16z"), "", 10), playouts=0)
    assert table.loc[0, "plans"].count("; ") >= 3
    # every column, the forms a meld rules out (missing values) shown as "-"
    args = ["[444m]11p55s88s22z37p seat=S", "--discard", "2z", "--from-seat", "2"]
    assert main(["analyze", *args, "--columns", "all", "--no-mc"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[3].split()[:9] == ["pung", "2z,", "discard", "7p", "pung", "2z", "7p", "1", "1"]
    assert out[3].split()[9:13] == ["-", "-", "-", "-"]


def test_cli_errors(registered, capsys):
    assert main(["analyze", "123m456p"]) == 1
    assert "mjstats: error:" in capsys.readouterr().err
    assert main(["analyze", "123m456p789s1133z", "--draws", "0"]) == 2
