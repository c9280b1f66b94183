"""The ``fan-aware`` game policy and user game policies (issue 17, item 2).

``fan-aware`` is the ``play`` study's 8-fan targeting played at the table: it must
win far more often than ``random`` (every win of the engine is legal, 8+ fan, so
winning more is winning more 8-fan hands), every one of its wins must be legal
and scored as ``score_batch`` scores it, and it must be a different player from
``efficiency`` (it finishes more games). User policies are numba functions per seat;
one that returns an illegal action stops the games with a ``GameError`` naming
the game, seat, state and action.
"""

from __future__ import annotations

import json

import numba
import numpy as np
import pytest
from conftest import scaled
from games_invariants import check_played
from numba import njit

from mjstats.errors import GameError
from mjstats.games import GameOptionError, play_games
from mjstats.games import kernels as G
from mjstats.games.engine import seat_policies

SCORES = ["score0", "score1", "score2", "score3"]


def _checked(n, seed, policy, wall="shared", ruleset="mcr"):
    """Play ``n`` games with the tile check on and assert the shared invariants."""
    from mjstats.rules import get_ruleset

    games, fans, final = play_games(n, seed, ruleset=ruleset, policy=policy, wall=wall,
                                    check=True, keep_state=True)  # fmt: skip
    check_played(games, fans, final, get_ruleset(ruleset))
    return games


@njit
def _first_discard_own(view, acts, n_acts, ctx, tab, work):
    """Win when legal, else the last listed action (a discard: discards come last)."""
    for i in range(n_acts):
        if acts[i] // 64 == 2:
            return acts[i]
    return acts[n_acts - 1]


@njit
def _hu_or_pass(view, acts, n_acts, ctx, tab, work):
    if n_acts > 1 and acts[1] // 64 == 5:
        return acts[1]
    return acts[0]


@njit
def _always_pung(view, acts, n_acts, ctx, tab, work):
    """Illegal on its own turn: pung the last tile."""
    return 7 * 64 + view[131]


@njit
def _pass_on_own_turn(view, acts, n_acts, ctx, tab, work):
    """Illegal: pass (0) on its own turn."""
    return 0


@njit
def _copy_view_own(view, acts, n_acts, ctx, tab, work):
    """A legal policy that checks what it is given: its hand has 3k+2 tiles on its turn."""
    held = 0
    for t in range(34):
        held += view[t]
    if held % 3 != 2 or view[128] < 0 or view[128] > 3:
        return -5  # not an action: stops the game
    return acts[n_acts - 1]


@pytest.mark.parametrize("wall", ["shared", "botzone"])
def test_fan_aware_invariants_and_every_win_legal(wall):
    games = _checked(scaled(300), 31, "fan-aware", wall)
    won = games.winner >= 0
    assert won.mean() > 0.4  # the targeting finishes most games
    assert (games.kind[won] == G.WIN_SELF_DRAWN).any() and (games.kind[won] == G.WIN_DISCARD).any()


def test_fan_aware_wins_more_8_fan_hands_than_random():
    n = scaled(600)
    games, _ = play_games(n, 5, policy=["fan-aware", "random", "fan-aware", "random"])
    wins = np.bincount(games.winner[games.winner >= 0], minlength=4)
    assert wins[0] + wins[2] > 5 * (wins[1] + wins[3]), wins
    # and at tables of one policy: fan-aware finishes far more games than random
    fa, _ = play_games(n, 6, policy="fan-aware")
    rnd, _ = play_games(n, 6, policy="random")
    assert (fa.winner >= 0).mean() > 3 * (rnd.winner >= 0).mean()


def test_fan_aware_is_not_efficiency():
    """Same walls: the two policies play different games, and fan-aware wins more of
    them (measured: 94.5 % against 85.5 % of 200 games, seed 1)."""
    n = scaled(400)
    fa, _ = play_games(n, 7, policy="fan-aware")
    eff, _ = play_games(n, 7, policy="efficiency")
    assert not fa.equals(eff)
    assert (fa.winner >= 0).mean() > (eff.winner >= 0).mean()


def test_fan_aware_same_games_on_one_or_two_threads():
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one, f1 = play_games(120, 9, policy=["fan-aware", "random", "efficiency", "fan-aware"])
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two, f2 = play_games(120, 9, policy=["fan-aware", "random", "efficiency", "fan-aware"])
        split, f3 = play_games(70, 9, policy=["fan-aware", "random", "efficiency", "fan-aware"],
                               first=50)  # fmt: skip
    finally:
        numba.set_num_threads(before)
    assert one.equals(two) and np.array_equal(f1, f2)
    assert split.reset_index(drop=True).equals(one.iloc[50:].reset_index(drop=True))
    assert np.array_equal(f3, f1[50:])


def test_user_policies_per_seat():
    n = scaled(200)
    games = _checked(n, 13, [(_first_discard_own, _hu_or_pass), "fan-aware",
                                 (_copy_view_own, _hu_or_pass), "random"], "shared")  # fmt: skip
    assert (games[SCORES].sum(axis=1) == 0).all()
    # a user pair for all seats, deterministic, on one and two threads
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one, _ = play_games(n, 14, policy=(_first_discard_own, _hu_or_pass))
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two, _ = play_games(n, 14, policy=(_first_discard_own, _hu_or_pass))
    finally:
        numba.set_num_threads(before)
    assert one.equals(two)
    assert (one.claims == 0).all()  # it never claims


def test_a_user_policy_is_the_same_as_the_builtin_it_calls():
    """A user pair that calls the built-in fan-aware kernels plays the built-in's games."""
    own = njit(lambda view, acts, n, ctx, tab, work: G.fan_aware_own(view, acts, n, ctx, tab, work))
    ans = njit(
        lambda view, acts, n, ctx, tab, work: G.fan_aware_response(view, acts, n, ctx, tab, work)
    )
    mine, f1 = play_games(scaled(100), 15, policy=["efficiency", (own, ans), "random", "random"])
    ref, f2 = play_games(scaled(100), 15, policy=["efficiency", "fan-aware", "random", "random"])
    assert mine.equals(ref) and np.array_equal(f1, f2)


@pytest.mark.parametrize(
    ("policy", "seat", "action", "phase"),
    [
        (["random", (_always_pung, _hu_or_pass), "random", "random"], 1, "pung", "own turn"),
        ([(_first_discard_own, _hu_or_pass)] * 3 + [(_pass_on_own_turn, _hu_or_pass)], 3, "pass",
         "own turn"),
    ],
)  # fmt: skip
def test_illegal_user_action_is_a_game_error(policy, seat, action, phase):
    with pytest.raises(GameError) as info:
        play_games(5, 1, policy=policy)
    msg = str(info.value)
    assert isinstance(info.value, ValueError) and "\n" not in msg
    assert msg.startswith("game ") and "policy returned an illegal action" in msg
    assert f"seat {seat} returned '{action}" in msg
    assert phase in msg and "its concealed tiles" in msg and "last tile" in msg


def test_illegal_user_action_in_the_study_names_the_game():
    from mjstats.studies.games import games

    bad = (_first_discard_own, _always_pung)  # pungs tiles it may not hold
    with pytest.raises(GameError, match=r"^game \d+: .*seat 2 returned 'pung .*answer to a"):
        games(200, 3, policy=["efficiency", "efficiency", bad, "efficiency"], progress=False)


def test_non_action_code_is_named():
    @njit
    def nonsense(view, acts, n_acts, ctx, tab, work):
        return -5

    with pytest.raises(GameError, match="seat 0 returned 'unknown action code -5'"):
        play_games(2, 1, policy=[(nonsense, _hu_or_pass), "random", "random", "random"])


def test_bad_user_policies_are_option_errors():
    with pytest.raises(GameOptionError, match="pair \\(own, answer\\) of numba"):
        play_games(1, 1, policy=["random", (print, print), "random", "random"])
    with pytest.raises(GameOptionError, match="one per seat"):
        play_games(1, 1, policy=[(_first_discard_own, _hu_or_pass)] * 3)

    @njit
    def wrong(view):
        return 0

    with pytest.raises(GameOptionError, match="does not fit the policy signature"):
        play_games(1, 1, policy=(wrong, wrong))


def test_seat_policies_names():
    assert seat_policies("Fan_Aware") == ["fan-aware"] * 4
    pair = (_first_discard_own, _hu_or_pass)
    assert seat_policies(pair) == [pair] * 4
    assert seat_policies(["random", pair, "efficiency", pair])[1] == pair


def test_two_player_policies():
    """Two seats: fan-aware falls back to efficiency (the binding's FAN_PLANS is
    False), user policies play, and the policy lists are of two seats."""
    n = scaled(200)
    fa, f1 = play_games(n, 8, ruleset="two-player", policy="fan-aware")
    eff, f2 = play_games(n, 8, ruleset="two-player", policy="efficiency")
    assert fa.equals(eff) and np.array_equal(f1, f2)
    games = _checked(n, 8, [(_first_discard_own, _hu_or_pass), "fan-aware"], ruleset="two-player")
    assert (games.winner == 1).sum() > (games.winner == 0).sum()  # efficiency beats it
    with pytest.raises(GameError, match="seat 1 returned 'pung"):
        play_games(5, 1, ruleset="two-player", policy=["random", (_always_pung, _hu_or_pass)])
    with pytest.raises(GameOptionError, match=r"one per seat \(2\), not 4"):
        play_games(1, 1, ruleset="two-player", policy=["fan-aware"] * 4)
    assert seat_policies("Fan_Aware", 2) == ["fan-aware"] * 2


def test_cli_fan_aware_per_seat(tmp_path, capsys):
    from mjstats.cli import main
    from mjstats.studies.games import games, games_summary

    js = tmp_path / "g.json"
    seats = ["fan-aware", "random", "efficiency", "fan-aware"]
    args = ["study", "games", "--n", "60", "--seed", "4", "--no-progress", "--json", str(js)]
    assert main([*args, *(a for p in seats for a in ("--policy", p))]) == 0
    data = json.loads(js.read_text())
    assert data["seats"]["policy"] == seats
    same = games_summary(games(60, 4, policy=seats, progress=False))
    assert data["games"]["wins"] == same["wins"]
    capsys.readouterr()
    # impossible combinations: usage errors, one line, exit 2
    for bad in (["--policy", "fan-aware", "--policy", "random"], ["--policy", "fan-aware",
                "--draws", "5"], ["--policy", "fan_aware"] * 4 + ["--ruleset", "two-player"],
                ):  # fmt: skip
        assert main(["study", "games", "--n", "10", *bad]) == 2
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    # two-player: one --policy per seat is two
    two = ["study", "games", "--n", "20", "--ruleset", "two-player", "--no-progress"]
    assert main([*two, "--policy", "fan-aware", "--policy", "random", "--json", str(js)]) == 0
    assert json.loads(js.read_text())["seats"]["policy"] == ["fan-aware", "random"]
