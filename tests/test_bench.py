"""``mjstats bench`` and :mod:`mjstats.bench`: row schema, peers, skips, CLI (tiny sizes)."""

from __future__ import annotations

import json
import sys

import numpy as np
import pytest

from mjstats import bench
from mjstats.bench import ROW_FIELDS, TASKS, run_benchmarks, to_frame, to_markdown
from mjstats.bench.measure import deal, make_row, num_threads, time_calls
from mjstats.bench.tasks import QUICK, Context
from mjstats.cli import main

TINY = 0.002  # 400 hands for mjstats, 8 for the peers: fast, not meaningful rates


def _shanten_rows():
    return run_benchmarks(tasks=["shanten"], scale=TINY)


def test_tasks_cover_the_issue():
    for name in (
        "shanten",
        "score",
        "cold_start",
        "warm_start",
        "memory",
        "exact",
        "dealt",
        "sample",
        "play",
        "threads",
        "batch_size",
        "useful_tiles",
        "shanten_regular",
    ):
        assert name in TASKS
    assert ROW_FIELDS[:5] == ("task", "what", "mjstats_per_s", "peer", "peer_per_s")
    assert {"ratio", "unit", "ns_per_item", "threads", "n", "note", "goal"} <= set(ROW_FIELDS)


def test_shanten_run_has_the_schema_and_a_peer_ratio():
    pytest.importorskip("MahjongGB")
    rows = _shanten_rows()
    assert [r["task"] for r in rows] == ["shanten"]
    [row] = rows
    assert tuple(row) == ROW_FIELDS
    assert row["peer"] == "pymahjonggb" and row["n"] == 400 and row["peer_n"] == 8
    assert row["threads"] == 1 and row["unit"] == "hands"
    assert row["mjstats_per_s"] > 0 and row["peer_per_s"] > 0
    assert row["ratio"] == pytest.approx(row["mjstats_per_s"] / row["peer_per_s"])
    assert row["ns_per_item"] == pytest.approx(1e9 / row["mjstats_per_s"])
    assert row["goal"] == ">= 100x" and row["goal_met"] == (row["ratio"] >= 100)
    agree, total = map(int, row["agree"].split("/"))
    assert total == 8 and agree >= 7  # the 4-copy-limit difference is rare
    json.loads(json.dumps(rows))  # JSON-ready


def test_absent_peer_is_skipped_with_a_note(monkeypatch):
    monkeypatch.setitem(sys.modules, "MahjongGB", None)  # import now raises ImportError
    [row] = _shanten_rows()
    assert row["peer"] == "pymahjonggb"
    assert row["peer_per_s"] is None and row["ratio"] is None and row["agree"] is None
    assert "not installed" in row["note"] and "skipped" in row["note"]
    assert row["mjstats_per_s"] > 0  # ours is still measured
    assert row["goal_met"] is None
    assert "n/a (>= 100x)" in bench.format_table([row])


def test_missing_study_kind_is_skipped_with_a_note(monkeypatch):
    from mjstats.studies import KINDS

    monkeypatch.delitem(KINDS, "play", raising=False)
    [row] = run_benchmarks(tasks=["play"], scale=TINY)
    assert row["task"] == "play" and row["mjstats_per_s"] is None
    assert "not available" in row["note"] and "skipped" in row["note"]


def test_useful_tiles_and_riichi_peers_agree():
    pytest.importorskip("MahjongGB")
    rows = run_benchmarks(tasks=["useful_tiles", "shanten_riichi_forms"], scale=TINY)
    assert [r["task"] for r in rows][-1] == "useful_tiles"  # TASKS order
    for row in rows:
        assert row["mjstats_per_s"] > 0
        if row["peer_per_s"] is not None:
            agree, total = map(int, row["agree"].split("/"))
            assert agree >= total - 1, row
        else:
            assert "not installed" in row["note"]


def test_games_task_has_goals_peers_and_the_published_figures():
    from mjstats.bench.tasks import GAME_GOALS, RIICHI_PUBLISHED
    from mjstats.games.engine import POLICIES

    rows = run_benchmarks(tasks=["games"], scale=TINY)
    assert {r["task"] for r in rows} == {"games"}
    for policy, goal in GAME_GOALS.items():
        mine = [r for r in rows if f" {policy} policy" in r["what"]]
        if policy not in POLICIES:
            [row] = mine
            assert row["mjstats_per_s"] is None and "skipped" in row["note"]
            continue
        [all_cores] = [r for r in mine if r["what"].endswith("all cores")]
        assert all_cores["mjstats_per_s"] > 0
        if goal is not None:  # fan-aware has none: its rate is stated beside the others
            assert all_cores["goal"] == f">= {goal:,} games/s"
        peers = {r["peer"]: r for r in mine if r["what"].endswith("one thread")}
        assert "riichienv" in peers  # timed here, or a row saying why not
        for name, rate in RIICHI_PUBLISHED.items():
            row = peers[f"{name} (published)"]
            assert row["peer_per_s"] == rate and row["ratio"] > 0


def test_unknown_task_raises():
    with pytest.raises(ValueError, match="unknown benchmark task 'nope'"):
        run_benchmarks(tasks=["nope"])


def test_to_frame_and_markdown():
    rows = [
        make_row(
            "score",
            "x",
            per_s=2e6,
            unit="hands",
            n=10,
            peer="p",
            peer_per_s=1e5,
            goal=">= 20x",
            goal_met=True,
            note="a note",
        ),
        make_row(
            "cold_start",
            "y",
            per_s=0.5,
            unit="starts",
            n=1,
            seconds=2.0,
            peer="p",
            peer_per_s=10.0,
            goal="<= 20 s",
            goal_met=True,
        ),
    ]
    df = to_frame(rows)
    assert list(df.columns) == list(ROW_FIELDS) and len(df) == 2
    assert df.loc[0, "ratio"] == 20.0
    md = to_markdown(rows, {"cpu": "test"}).splitlines()
    assert md[0] == "cpu: test" and md[2].startswith("| task |")
    assert "| 2.00 s |" in md[5] and "| 0.10 s |" in md[5]
    assert md[-1] == "- score vs p: a note"
    assert "met (>= 20x)" in bench.format_table(rows)


def test_deal_is_uniform_and_seeded():
    h = deal(20_000, seed=5)
    assert h.dtype == np.uint8 and h.shape == (20_000, 34)
    assert (h.sum(axis=1) == 13).all() and h.max() <= 4
    mean = h.mean(axis=0)  # 13/34 per kind; sd of a mean over 20k hands ~0.0044
    assert np.abs(mean - 13 / 34).max() < 0.025
    assert (deal(100, seed=5) == deal(100, seed=5)).all()
    assert (deal(14, seed=1, tiles=14).sum(axis=1) == 14).all()


def test_time_calls_and_threads():
    import numba

    fast, slow = time_calls([lambda: None, lambda: sum(range(20_000))], repeat=2, min_time=0.01)
    assert 0 < fast < slow
    before = numba.get_num_threads()
    with num_threads(1) as k:
        assert k == 1 == numba.get_num_threads()
    assert numba.get_num_threads() == before


def test_sizes_scale():
    tiny = QUICK.scaled(TINY)
    assert tiny.hands == 400 and tiny.peer_hands == 8 and tiny.batch_sizes == (1, 20, 2000)
    assert QUICK.scaled(1) is QUICK
    ctx = Context(tiny)
    assert ctx.hands13(1000).shape == (1000, 34)  # repeated pool
    assert (ctx.hands13(1000)[400:800] == ctx.hands13(400)).all()


def test_memory_task_in_a_fresh_process():
    if not __import__("os").path.exists("/proc/self/clear_refs"):
        pytest.skip("Linux only")
    from mjstats.bench.startup import task_memory

    rows = task_memory(Context(QUICK.scaled(TINY)))  # 1,000 hands
    assert [r["what"].split(",")[0] for r in rows] == ["score_batch", "shanten"]
    for row in rows:
        assert row["value_unit"] == "MB per 1M hands"
        # at least the input arrays (51 / 34 bytes per hand), far below a kilobyte per hand
        assert 34 <= row["value"] < 1000, row


# --------------------------------------------------------------------------- CLI


def test_cli_help(capsys):
    assert main(["bench", "--help"]) == 0
    out = capsys.readouterr().out
    for needle in (
        "--quick",
        "--json",
        "--tasks",
        "Examples:",
        "mjstats bench --quick",
    ):
        assert needle in out
    listed = out.split("Tasks:")[1].split("(see")[0].split()
    assert listed == list(TASKS)  # the help names every task, in run order


@pytest.mark.parametrize(
    "args, message",
    [
        (["--tasks", "shanten,nope"], "unknown task 'nope'"),
        (["--scale", "0"], "--scale"),
        (["--bogus"], "No such option"),
    ],
)
def test_cli_usage_errors_exit_2(capsys, args, message):
    assert main(["bench", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("mjstats: error:") and message in err


def test_cli_json_file_and_table(capsys, tmp_path):
    pytest.importorskip("MahjongGB")
    path = tmp_path / "bench.json"
    code = main(
        [
            "bench",
            "--quick",
            "--tasks",
            "shanten",
            "--scale",
            str(TINY),
            "--json",
            str(path),
            "--no-progress",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    document = json.loads(path.read_text())
    assert document["provenance"]["command"].startswith("mjstats bench --quick")
    rows = document["rows"]
    assert isinstance(rows, list) and [r["task"] for r in rows] == ["shanten"]
    assert set(rows[0]) == set(ROW_FIELDS)
    assert "pymahjonggb" in out and "mode: quick, scale 0.002" in out


def test_cli_json_stdout_and_strict(capsys, monkeypatch):
    missed = make_row("score", "x", per_s=1.0, unit="hands", goal=">= 20x", goal_met=False)
    monkeypatch.setattr(bench, "run_benchmarks", lambda **kw: [missed])
    assert main(["bench", "--json", "-", "--no-progress"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["rows"] == [missed]
    assert "goals not met: score" in err
    assert main(["bench", "--strict", "--no-progress"]) == 1
