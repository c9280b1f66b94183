"""Duplicate matches (mjstats.studies.match, ``mjstats match``): the same walls with the
policies rotated through the seats.

The seatings are checked against the engine's own games (each seating played by
``play_games`` here and summed by this test), the numbers do not depend on threads,
chunks, resumes or Dask, seat order cancels (a policy against itself scores exactly 0,
although the dealer's seat does not), and a stronger policy wins.
"""

from __future__ import annotations

import numba
import numpy as np
import pytest
from conftest import scaled
from numba import njit

from mjstats.cli import main
from mjstats.games import GameOptionError, play_games
from mjstats.games.state import S_NLOG, S_WALL
from mjstats.games.stats import DATASET_COUNTS, dataset_counts
from mjstats.report import report_table
from mjstats.studies.games import games, seat_table
from mjstats.studies.match import MatchStudy, arrangements, match, match_fan_table, match_table
from mjstats.studies.runner import StudyInterrupted, run_study

N = scaled(60)
SEED = 23


def _counters(agg):
    return {k: v.tolist() for k, v in agg.counters.items()}


@pytest.fixture(scope="module")
def ref():
    return match(["fan-aware", "efficiency"], N, SEED, wall="botzone", chunk_size=N,
                 progress=False)  # fmt: skip


def test_arrangements_seat_every_policy_everywhere():
    for n_policies, rotation, count in ((2, "1v3", 4), (2, "2v2", 6), (4, "cyclic", 4),
                                        (4, "all", 24)):  # fmt: skip
        seatings = arrangements(n_policies, 4, rotation)
        assert len(seatings) == len(set(seatings)) == count
        for seat in range(4):  # each policy as often in each seat
            at = np.bincount([s[seat] for s in seatings], minlength=n_policies)
            assert (at == at[0]).all() or rotation == "1v3"
        if rotation == "1v3":
            assert all(sorted(s) == [0, 1, 1, 1] for s in seatings)
            assert sorted(s.index(0) for s in seatings) == [0, 1, 2, 3]
    assert arrangements(2, 2) == [(0, 1), (1, 0)]
    with pytest.raises(GameOptionError, match="takes 2 or 4 policies"):
        arrangements(3, 4)
    with pytest.raises(GameOptionError, match="rotation '2v2' does not seat 4"):
        arrangements(4, 4, "2v2")


def test_the_counters_are_the_seatings_games_summed(ref):
    """Played here seating by seating with the engine, summed by this test."""
    points = np.zeros((2, N), np.int64)
    wins = np.zeros(2, np.int64)
    deal_ins = np.zeros(2, np.int64)
    for seating in arrangements(2, 4, "1v3"):
        names = [("fan-aware", "efficiency")[k] for k in seating]
        table, _ = play_games(N, SEED, policy=names, wall="botzone")
        for seat, k in enumerate(seating):
            points[k] += table[f"score{seat}"].to_numpy()
            wins[k] += int((table["winner"] == seat).sum())
            deal_ins[k] += int(((table["kind"] != 1) & (table["from_seat"] == seat)
                                & (table["winner"] >= 0)).sum())  # fmt: skip
    assert ref["points_pos"].tolist() == np.maximum(points, 0).sum(axis=1).tolist()
    assert ref["points_neg"].tolist() == np.maximum(-points, 0).sum(axis=1).tolist()
    assert ref["points_sq"].tolist() == (points**2).sum(axis=1).tolist()
    assert ref["wins"].sum(axis=1).tolist() == wins.tolist()
    assert ref["deal_ins"].tolist() == deal_ins.tolist()
    assert ref["seat_games"].tolist() == [4 * N, 12 * N]
    t = match_table(ref)
    mean = points.sum(axis=1) / np.array([4 * N, 12 * N])
    assert t["points"].tolist() == pytest.approx(mean.tolist())
    # the paired interval: each wall's points of the policy (all its seats) is one draw
    per_wall = points / np.array([[4], [12]])
    half = 1.959963984540054 * per_wall.std(axis=1, ddof=1) / np.sqrt(N)
    assert (t["points_ci_high"] - t["points"]).tolist() == pytest.approx(half.tolist())
    assert t["points"][0] * 4 == pytest.approx(-t["points"][1] * 12)  # zero-sum


def test_the_data_set_counts_are_the_seatings_seats_summed(ref):
    """On the Botzone wall each policy's claims counted as the real-play data set counts
    them are those of the seats it sat in (each seating's games counted here, seat by
    seat); the match table's ``*_rate_data_set`` are their ratios, and NaN on the
    shared wall."""
    want = np.zeros((2, len(DATASET_COUNTS)), np.int64)
    for seating in arrangements(2, 4, "1v3"):
        names = [("fan-aware", "efficiency")[k] for k in seating]
        _, _, final, logs = play_games(N, SEED, policy=names, wall="botzone", keep_log=True)
        walls = final[:, S_WALL : S_WALL + 136]
        seats = dataset_counts(walls, logs, final[:, S_NLOG], by_seat=True).sum(axis=0)
        for seat, k in enumerate(seating):
            want[k] += seats[seat]
    assert ref["dataset_claims"].tolist() == want.tolist()
    assert want[1, 0] == 3 * want[0, 0] > 0  # B sits three seats of each game A sits one
    t = match_table(ref)
    for k, kind in enumerate(("chow", "pung")):
        rate = want[:, 2 + 2 * k] / want[:, 1 + 2 * k]
        assert t[f"{kind}_rate_data_set"].tolist() == pytest.approx(rate.tolist())
    shared = match_table(match(["fan-aware", "efficiency"], 5, 1, progress=False))
    assert shared["chow_rate_data_set"].isna().all() and shared["chow_rate"].notna().all()


def test_match_fan_table(ref):
    t = match_fan_table(ref)
    seat_games = ref["seat_games"]
    for k, column in enumerate(t.columns[2:]):
        per_100 = t[column].to_numpy()
        wins = ref["wins"][k].sum()
        assert (per_100 <= wins / seat_games[k] * 100 + 1e-9).all()  # at most every win
        # a self-drawn win holds 自摸, or a fan that excludes it (不求人, 妙手回春, 杠上开花);
        # a win on a discard none of them
        by = t.set_index("zh")[column]
        self_drawn = ref["wins"][k, 1] / seat_games[k] * 100
        some = sum(by.get(zh, 0) for zh in ("自摸", "不求人", "妙手回春", "杠上开花"))
        assert by.get("自摸", 0) <= self_drawn + 1e-9 <= some + 2e-9
    winners = {f for f in range(ref["win_fans"].shape[1]) if ref["win_fans"][:, f].any()}
    assert len(t) == len(winners)


@pytest.mark.parametrize("chunk_size", [7, 25])
def test_chunks_and_threads_do_not_change_the_numbers(ref, chunk_size):
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        got = match(["fan-aware", "efficiency"], N, SEED, wall="botzone", chunk_size=chunk_size,
                    group_size=2, progress=False)  # fmt: skip
    finally:
        numba.set_num_threads(before)
    assert _counters(got) == _counters(ref)
    got = match(["fan-aware", "efficiency"], N, SEED, wall="botzone", chunk_size=chunk_size,
                threads=2, progress=False)  # fmt: skip
    assert _counters(got) == _counters(ref)


def test_a_resumed_match_equals_an_uninterrupted_one(ref, tmp_path):
    study = MatchStudy(["fan-aware", "efficiency"], N, SEED, wall="botzone", chunk_size=-(-N // 4))
    ckpt = tmp_path / "match.ckpt"
    seen = []

    def stop(first, count):
        seen.append(first)
        if len(seen) == 2:
            raise KeyboardInterrupt

    with pytest.raises(StudyInterrupted):
        run_study(study, group_size=1, checkpoint=ckpt, progress=False, on_group=stop)
    resumed = match(["fan-aware", "efficiency"], N, SEED, wall="botzone", chunk_size=-(-N // 4),
                    checkpoint=ckpt, resume=True, progress=False)  # fmt: skip
    assert _counters(resumed) == _counters(ref)


def test_dask_gives_identical_numbers(ref, dask_client):
    got = match(["fan-aware", "efficiency"], N, SEED, wall="botzone", chunk_size=-(-N // 3),
                dask=dask_client, group_size=1, progress=False)  # fmt: skip
    assert _counters(got) == _counters(ref)


@pytest.mark.parametrize("policy", ["efficiency", "random"])
def test_seat_order_cancels(policy):
    """Alone, the dealer's seat wins more (or less) than the others; rotated through the
    seats, a policy against itself scores exactly 0."""
    n = scaled(200)
    if policy == "efficiency":  # (random games seldom end in a win)
        seats = seat_table(games(n, SEED, policy=policy, progress=False))
        assert seats["points_mean"].abs().max() > 0  # the seats differ
    for rotation in ("1v3", "2v2"):
        t = match_table(match([policy, policy], n, SEED, rotation=rotation, progress=False))
        assert t["points"].tolist() == [0, 0]
        assert (t["points_ci_low"] <= 0).all() and (t["points_ci_high"] >= 0).all()
    t = match_table(match([policy] * 4, n, SEED, rotation="cyclic", progress=False))
    assert t["points"].tolist() == [0] * 4


def test_a_stronger_policy_wins():
    t = match_table(match(["efficiency", "random"], scaled(100), SEED, progress=False))
    eff = t.set_index("policy").loc["efficiency"]
    assert eff["points_ci_low"] > 0
    assert eff["win"] > t.set_index("policy").loc["random", "win"]


def test_two_seat_matches_swap_the_seats():
    agg = match(["efficiency", "random"], scaled(60), SEED, ruleset="two-player", progress=False)
    assert agg.params["rotation"] == "swap"
    t = match_table(agg)
    assert t["seat_games"].tolist() == [2 * scaled(60)] * 2
    assert t["points"][0] == pytest.approx(-t["points"][1])
    assert t.loc[0, "points_ci_low"] > 0
    with pytest.raises(GameOptionError, match="two seats takes 2"):
        match(["efficiency"] * 4, 10, ruleset="two-player", progress=False)


@njit
def _own(view, acts, n_acts, ctx, tab, work):
    for i in range(n_acts):
        if acts[i] // 64 == 2:  # a self-drawn win
            return acts[i]
    return acts[n_acts - 1]


@njit
def _answer(view, acts, n_acts, ctx, tab, work):
    if n_acts > 1 and acts[1] // 64 == 5:  # a win on the discard
        return acts[1]
    return acts[0]


def test_a_user_policy_takes_part():
    agg = match([(_own, _answer), "efficiency"], scaled(30), SEED, progress=False)
    t = match_table(agg)
    assert t.loc[0, "policy"].startswith("custom:") and t.loc[0, "claims"] == 0
    assert t.loc[1, "claims"] > 0


def test_cli_match(tmp_path, capsys):
    args = ["match", "efficiency", "random", "--n", "20", "--seed", "3", "--out", str(tmp_path)]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "20 walls x 4 seatings (1v3)" in out and "efficiency" in out and "random" in out
    assert max(len(line) for line in out.splitlines()) <= 80
    assert (tmp_path / "match.csv").exists()
    assert main(["report", str(tmp_path)]) == 0  # a match's own table by default
    assert "(paired)" in capsys.readouterr().out
    agg = match(["efficiency", "random"], 20, 3, progress=False)
    assert report_table(agg, "match").equals(match_table(agg))
    # on the Botzone wall the rates are those counted as the data set counts them
    assert main(["match", "planner", "efficiency", "--n", "10", "--wall", "botzone"]) == 0
    out = capsys.readouterr().out
    assert "taken per chance counted as the real-play" in out
    assert max(len(line) for line in out.splitlines()) <= 80


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["match", "efficiency"], "takes 2 or 4 policies"),
        (["match", "efficiency", "nobody"], "unknown policy 'nobody'"),
        (["match", "a", "b", "--resume"], "--resume continues a checkpoint"),
        (["match", "efficiency", "random", "--rotation", "cyclic"], "rotation 'cyclic'"),
    ],
)
def test_cli_usage_errors(args, message, capsys):
    assert main(args) == 2
    assert message in capsys.readouterr().err
