"""The ``games`` study: four-player games on the study runner.

Determinism (threads, chunks, groups, Dask, resume), the aggregate's invariants
against the engine's own per-game results, fans against ``score_batch`` re-scoring
the winners' hands (rebuilt by the engine tests' helper, not the study's), and the
``mjstats study games`` command line (help, outputs, usage errors).
"""

from __future__ import annotations

import json
import re

import numba
import numpy as np
import pytest
from conftest import scaled

from mjstats import score_batch
from mjstats.cli import main
from mjstats.games import GameOptionError, play_games
from mjstats.report import fan_table, payments, plot_report, report_table
from mjstats.studies import make_study
from mjstats.studies.games import (
    GamesStudy,
    game_fan_table,
    game_length_table,
    games,
    games_summary,
    meld_table,
    seat_table,
    winning_hands,
)
from mjstats.studies.runner import StudyInterrupted, run_study

N = scaled(200)
SEED = 17
MIXED = ["efficiency", "random", "efficiency", "random"]


def _counters(agg):
    return {k: v.tolist() for k, v in agg.counters.items()}


@pytest.fixture(scope="module")
def ref():
    """One-chunk reference run of a mixed table on the shared wall."""
    return games(N, SEED, policy=MIXED, chunk_size=N, progress=False)


@pytest.fixture(scope="module")
def played():
    """The same games played directly by the engine, with their final states."""
    return play_games(N, SEED, policy=MIXED, wall="shared", keep_state=True)


# ------------------------------------------------------------------ determinism
@pytest.mark.parametrize("chunks", [2, 4])
def test_chunks_and_groups_do_not_change_the_numbers(ref, chunks):
    size = -(-N // chunks)
    for group_size in (1, 3):
        got = games(N, SEED, policy=MIXED, chunk_size=size, group_size=group_size, progress=False)
        assert _counters(got) == _counters(ref)


def test_threads_do_not_change_the_numbers(ref):
    before = numba.get_num_threads()
    try:
        for threads in (1, min(2, numba.config.NUMBA_NUM_THREADS)):
            numba.set_num_threads(threads)
            got = games(N, SEED, policy=MIXED, chunk_size=N // 2 + 1, progress=False)
            assert _counters(got) == _counters(ref)
    finally:
        numba.set_num_threads(before)


def test_a_resumed_run_equals_an_uninterrupted_one(ref, tmp_path):
    study = GamesStudy(N, SEED, policy=MIXED, chunk_size=-(-N // 4))
    whole = run_study(study, progress=False)
    assert _counters(whole) == _counters(ref)
    ckpt = tmp_path / "games.ckpt"
    seen = []

    def stop(first, count):
        seen.append(first)
        if len(seen) == 2:
            raise KeyboardInterrupt

    with pytest.raises(StudyInterrupted) as info:
        run_study(study, group_size=1, checkpoint=ckpt, progress=False, on_group=stop)
    assert int(info.value.partial["games"][0]) == 2 * study.chunk_size
    resumed = run_study(study, group_size=2, checkpoint=ckpt, resume=True, progress=False)
    assert resumed == whole


def test_dask_gives_identical_numbers(ref):
    distributed = pytest.importorskip("distributed")
    study = GamesStudy(N, SEED, policy=MIXED, chunk_size=-(-N // 4))
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        got = run_study(study, dask=client, group_size=1, progress=False)
    assert _counters(got) == _counters(ref)


def test_the_seed_matters(ref):
    other = games(N, SEED + 1, policy=MIXED, chunk_size=N, progress=False)
    assert _counters(other) != _counters(ref)


# ------------------------------------------------------------------ invariants
def test_counters_match_the_engines_games(ref, played):
    table, fans, _ = played
    won = table.winner.to_numpy() >= 0
    c = ref.counters
    assert c["games"][0] == c["hands"][0] == N
    assert c["wins"].sum() + c["drawn"][0] == N
    assert c["complete"][0] == c["legal"][0] == c["wins"].sum() == won.sum()
    assert c["wins"].sum(axis=1).tolist() == np.bincount(table.winner[won], minlength=4).tolist()
    assert c["wins"][:, 1].sum() == (table.kind[won] == 1).sum()
    assert c["fan_count"].tolist() == fans[won].astype(np.int64).sum(axis=0).tolist()
    # every win is some seat's; every payer of a non-self-drawn win is another seat
    assert c["deal_ins"].sum() == c["wins"][:, 0].sum() + c["wins"][:, 2].sum()
    assert c["total_hist"].sum() == c["form_count"].sum() == won.sum()
    assert c["length"].sum() == N and c["length"][1].sum() == won.sum()
    assert c["win_melds"].sum() == c["win_claims"].sum() == won.sum()
    assert c["win_meld_kinds"].sum() == (c["win_melds"] * np.arange(5)).sum()
    assert c["game_claims"].sum() == N
    assert (c["game_claims"] * np.arange(17)).sum() == table.claims.sum()


def test_payments_sum_to_zero(ref, played):
    table = played[0]
    signed = ref["points_won"] - ref["points_lost"]
    assert signed.sum() == 0
    scores = table[[f"score{q}" for q in range(4)]].to_numpy()
    assert signed.tolist() == scores.sum(axis=0).tolist()
    assert ref["points_sq"].tolist() == (scores**2).sum(axis=0).tolist()
    s = games_summary(ref)
    assert abs(sum(s["points_per_game"])) < 1e-9
    assert s["wins"] + s["drawn"] == s["games"] == N
    # the winner's side: what payments() derives from the totals equals the points won
    pay = payments(ref)
    assert pay.loc[pay.win == "all", "hands"].item() == s["wins"]


def test_fans_match_rescoring_the_wins_with_score_batch(ref, played):
    table, _, final = played
    rows = np.flatnonzero(table.winner.to_numpy() >= 0)
    hands = winning_hands(table, final)
    scored = score_batch(hands)
    assert scored.legal.all()
    assert (scored.total == table.total.to_numpy()[rows]).all()
    fc = scored.fan_counts.astype(np.int64)
    assert ref["fan_count"].tolist() == fc.sum(axis=0).tolist()
    present = (fc > 0).astype(np.int64)
    assert ref["cooccurrence"].tolist() == (present.T @ present).tolist()
    assert (
        ref["form_count"].tolist()
        == np.bincount(scored.form, minlength=len(ref["form_count"])).tolist()
    )


def test_tables(ref):
    seats = seat_table(ref)
    assert seats.policy.tolist() == MIXED
    assert seats.wins.sum() == games_summary(ref)["wins"]
    assert (seats.win_ci_low <= seats.p_win).all() and (seats.p_win <= seats.win_ci_high).all()
    fans = game_fan_table(ref)
    assert np.allclose(fans.per_game * N, fan_table(ref).hands)
    lengths = game_length_table(ref)
    assert lengths.games.sum() == N and lengths.cdf.iloc[-1] == 1.0
    assert meld_table(ref).melds.sum() == games_summary(ref)["wins"]
    for name in ("seats", "lengths", "melds"):
        assert len(report_table(ref, name))
    from mjstats.report import _demo_aggregate

    with pytest.raises(ValueError, match="no game statistics"):
        report_table(_demo_aggregate(), "seats")


def test_plots(ref):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    for name in ("seats", "lengths", "fans", "melds", "forms"):
        ax = plot_report(ref, name)
        assert ax.patches
        plt.close(ax.figure)
    ax = plot_report(ref, "fans")  # a games study's complete hands are its wins
    assert f"{int(ref['complete'][0]):,} wins" in ax.get_title()
    plt.close(ax.figure)


def test_botzone_wall_and_equal_policies():
    agg = games(scaled(100), 3, policy="efficiency", wall="botzone", progress=False)
    assert agg.params["policy"] == ["efficiency"] * 4 and agg.params["wall"] == "botzone"
    assert agg["wins"].sum() + agg["drawn"][0] == scaled(100)
    # no flowers on the Botzone wall
    flower = fan_table(agg).query("en == 'Flower Tiles'")["hands"].item()
    assert flower == 0


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"policy": ["efficiency", "random"]}, "one policy for all seats or one per seat"),
        ({"policy": "greedy"}, "unknown policy"),
        ({"wall": "round"}, "unknown wall"),
        ({"ruleset": "two-player", "wall": "botzone"}, "Botzone wall is the 136 tiles"),
        ({"ruleset": "two-player", "round_wind": 1}, "plays round winds"),
        ({"round_wind": 4}, "round wind"),
    ],
)
def test_impossible_options_are_value_errors(kwargs, match):
    with pytest.raises(GameOptionError, match=match):
        GamesStudy(10, 1, **kwargs)


def test_make_study_and_pickling():
    import pickle

    study = make_study("games", n_games=10, seed=1, policy="random", wall="botzone")
    again = pickle.loads(pickle.dumps(study))
    assert again.params() == study.params()
    assert _counters(run_study(again, progress=False)) == _counters(
        run_study(study, progress=False)
    )


# ------------------------------------------------------------------ CLI
def test_cli_study_games(tmp_path, capsys, ref):
    out = tmp_path / "out"
    js = tmp_path / "g.json"
    args = ["study", "games", "--n", str(N), "--seed", str(SEED), "--no-progress"]
    args += [a for p in MIXED for a in ("--policy", p)]
    assert main([*args, "--json", str(js), "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert f"{N:,} games on the shared wall" in text and "deal_ins" in text
    # games of policies that do not play like real players say which one does (issue 32)
    words = " ".join(text.split())  # the note is wrapped at the terminal's width
    assert "efficiency and random policies, whose play is unlike real players'" in words
    assert "--policy planner --wall botzone plays like them" in words
    data = json.loads(js.read_text())
    assert data["games"]["wins"] == games_summary(ref)["wins"]
    assert data["seats"]["policy"] == MIXED and "provenance" in data
    assert data["provenance"]["kind"] == "games" and data["provenance"]["n"] == N
    for name in ("aggregate.json", "fans.csv", "seats.csv", "lengths.csv", "melds.csv"):
        assert (out / name).exists()
    assert (out / "seats.csv.provenance.json").exists()
    # strict JSON: no NaN anywhere
    json.loads(js.read_text(), parse_constant=lambda c: pytest.fail(f"non-strict JSON {c}"))
    # the saved aggregate reports and plots through `mjstats report`
    assert main(["report", str(out), "--table", "seats", "--format", "csv"]) == 0
    assert "efficiency" in capsys.readouterr().out
    assert main(["report", str(out), "--table", "seats", "--out", str(tmp_path / "s.png")]) == 0
    assert (tmp_path / "s.png").stat().st_size > 0
    assert main(["report", str(out), "--table", "melds", "--out", str(tmp_path / "m.png")]) == 0
    assert (tmp_path / "m.png").stat().st_size > 0
    capsys.readouterr()
    # in the words of games: games, wins, drawn (JSON and the terminal)
    assert main(["report", str(out), "--table", "summary", "--format", "json"]) == 0
    row = json.loads(capsys.readouterr().out)["rows"][0]
    assert row["games"] == N and row["wins"] == games_summary(ref)["wins"] and "drawn" in row
    assert not {"hands", "complete", "p_legal"} & set(row)
    # rounded for people in the terminal; the lengths no game had at either end left out
    assert main(["report", str(out), "--table", "seats"]) == 0
    seats = capsys.readouterr().out
    digits = [
        t.replace("-", "").replace(".", "").lstrip("0") for t in re.findall(r"\d+\.\d+", seats)
    ]
    assert digits and max(len(d) for d in digits) <= 3, seats  # 3 significant digits
    assert main(["report", str(out), "--table", "lengths"]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()[3:]]
    assert rows[0][1] != "0" and rows[-1][1] != "0", rows[:2]
    pytest.importorskip("pyarrow")
    parquet = tmp_path / "l.parquet"
    assert main(["report", str(out), "--table", "lengths", "--out", str(parquet)]) == 0
    import pyarrow.parquet as pq

    meta = pq.read_schema(parquet).metadata
    assert json.loads(meta[b"mjstats.provenance"])["kind"] == "games"


def test_cli_study_games_of_the_planner_has_no_note(capsys):
    args = ["study", "games", "--n", "20", "--policy", "planner", "--wall", "botzone"]
    assert main([*args, "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert "20 games on the botzone wall" in text and "note:" not in text


def test_cli_resume(tmp_path, capsys):
    ckpt = tmp_path / "g.ckpt"
    args = ["study", "games", "--n", "40", "--seed", "2", "--policy", "random", "--no-progress"]
    assert main([*args, "--checkpoint", str(ckpt), "--json", str(tmp_path / "a.json")]) == 0
    assert main(["study", "--resume", str(ckpt), "--json", str(tmp_path / "b.json")]) == 0
    a = json.loads((tmp_path / "a.json").read_text())
    b = json.loads((tmp_path / "b.json").read_text())
    assert a["games"] == b["games"]
    capsys.readouterr()
    assert main(["study", "--resume", str(ckpt), "--policy", "efficiency"]) == 2
    assert "contradicts" in capsys.readouterr().err
    assert main(["study", "--resume", str(ckpt), "--policy", "random"]) == 0


def test_cli_help():
    from click.testing import CliRunner

    from mjstats.cli import cli

    result = CliRunner().invoke(cli, ["study", "--help"])
    assert result.exit_code == 0
    assert "games" in result.output and "--wall" in result.output
    assert "once for all or once per seat" in " ".join(result.output.split())


@pytest.mark.parametrize(
    "args, message",
    [
        (["--policy", "efficiency", "--policy", "random"], "one policy for all seats or one per"),
        (["--policy", "greedy"], "unknown policy"),
        (["--ruleset", "two-player", "--wall", "botzone"], "Botzone wall is the 136 tiles"),
        (["--draws", "5"], "--draws applies to study play"),
        (["--tiles", "13"], "--tiles applies to study dealt"),
        (["--round-wind", "4"], "'--round-wind'"),
    ],
)
def test_cli_usage_errors_are_one_line_exit_2(args, message, capsys):
    assert main(["study", "games", "--n", "10", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_cli_options_of_games_only(capsys):
    assert main(["study", "sample", "--n", "10", "--wall", "botzone"]) == 2
    assert "--wall applies to study games" in capsys.readouterr().err
    assert main(["study", "play", "--n", "10", "--policy", "random"]) == 2
    assert "play has no policy 'random'" in capsys.readouterr().err
    assert main(["study", "play", "--n", "10", "--policy", "efficiency", "--policy", "x"]) == 2
    assert main(["study", "dealt", "--n", "10", "--round-wind", "1"]) == 2


def test_cli_round_wind(tmp_path):
    js = tmp_path / "w.json"
    assert main(["study", "games", "--n", "30", "--round-wind", "1", "--json", str(js)]) == 0
    agg = games(30, 0, round_wind=1, progress=False)
    assert json.loads(js.read_text())["games"]["wins"] == games_summary(agg)["wins"]
    assert agg.params["round_wind"] == 1


def test_the_games_notebook_exists():
    """notebooks/05-games.ipynb runs in tests/test_notebooks.py with the others."""
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "notebooks" / "05-games.ipynb"
    assert path.is_file()
    assert "from mjstats.studies.games import" in path.read_text(encoding="utf-8")


def test_cli_threads_and_dask_give_the_same_json(tmp_path):
    pytest.importorskip("distributed")
    args = ["study", "games", "--n", "60", "--seed", "4", "--no-progress"]
    runs = {
        "one": ["--threads", "1"],
        "two": ["--threads", "2"],
        "dask": ["--dask", "local:1"],
    }
    before = numba.get_num_threads()
    try:
        for name, extra in runs.items():
            assert main([*args, *extra, "--json", str(tmp_path / f"{name}.json")]) == 0
    finally:
        numba.set_num_threads(before)
    data = [json.loads((tmp_path / f"{name}.json").read_text()) for name in runs]
    for d in data:
        d.pop("provenance")
    assert data[0] == data[1] == data[2]


def test_a_scoring_disagreement_stops_the_study(monkeypatch, capsys):
    """The study re-scores every win; a difference from the engine is a GameError, and
    at the command line one line and exit 1 (no traceback)."""
    import dataclasses

    import mjstats.scorer
    from mjstats.games import GameError
    from mjstats.studies import games as games_study

    real = mjstats.scorer.score_batch

    def off_by_one(batch, ruleset="mcr"):
        scored = real(batch, ruleset)
        return dataclasses.replace(scored, total=scored.total + 1)

    monkeypatch.setattr(games_study, "score_batch", off_by_one)  # where the study calls it
    with pytest.raises(GameError, match=r"score the win of game .* differently"):
        games(40, 1, progress=False)
    assert main(["study", "games", "--n", "40", "--no-progress"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("mjstats: error: the engine and score_batch") and err.count("\n") == 1
