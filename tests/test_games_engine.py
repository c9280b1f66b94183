"""Invariants of the four-player MCR game engine (mjstats.games.kernels, mjstats.games).

Seeded runs of whole games with the built-in policies, both walls, checked in
chunks by tests/games_invariants.py (shared with the two-player tests): every tile
in exactly one place after every step (the kernel's own check, run in the game
loop), no game left unfinished, every win legal and scored as ``score_batch``
scores the same hand, payments by the rule and summing to zero; results
independent of how games are split, and seats of one policy winning equally often
(chi-square). ``slow``: 1M games with ``random``, 100k with each other policy.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import scaled
from games_invariants import (
    P_MIN,
    assert_seats_win_alike,
    check_games,
    check_played,
    chi2_sf,
    seats_p_value,
)

from mjstats.games import GameOptionError, play_games
from mjstats.games import kernels as G
from mjstats.kernels._jit import jit
from mjstats.kernels.shanten import shanten_one
from mjstats.rules import get_ruleset

MCR = get_ruleset("mcr")
WALLS = ["shared", "botzone"]


@pytest.mark.parametrize("wall", WALLS)
@pytest.mark.parametrize("policy", ["random", "efficiency"])
def test_invariants(policy, wall):
    tally = check_games(scaled(400), 11, ruleset=MCR, policy=policy, wall=wall, chunk=150)
    if policy == "efficiency":
        assert tally.won > 0.5 * tally.games  # efficient players mostly finish
        assert tally.self_drawn > 0


# Seats of one policy win alike only where acting first is worth little: efficient
# players finish in ~60 steps, a race the dealer (first to draw) leads and North
# (last) trails: 23.5 / 22.3 / 21.9 / 21.1 % of 20k efficiency games (seed 12).
# Even random play at 1M shows it (E/S/W/N 4184/4618/4400/4392 wins, p 9e-5,
# shared wall). The slow tier asserts that turn order shows (p < P_MIN), not equality.
@pytest.mark.slow
@pytest.mark.parametrize("wall", WALLS)
@pytest.mark.parametrize(
    ("policy", "n", "alike"),
    [
        ("random", 1_000_000, False),
        ("efficiency", 100_000, False),
        ("fan-aware", 100_000, False),
        ("planner", 100_000, False),
    ],
)
def test_invariants_large(policy, n, alike, wall):
    tally = check_games(scaled(n), 12, ruleset=MCR, policy=policy, wall=wall)
    assert tally.games == scaled(n) and tally.won > 0
    if alike:
        assert_seats_win_alike(tally.wins, range(4))
    else:
        assert seats_p_value(tally.wins, range(4)) < P_MIN


def test_payment_check_can_fail():
    # the vectorised payment and scoring checks catch a wrong score, total or fan
    games, fans, final = play_games(60, 2, policy="efficiency", keep_state=True)
    check_played(games, fans, final, MCR)
    g = int(np.flatnonzero(games.winner.to_numpy() >= 0)[0])
    q = (int(games.winner[g]) + 1) % 4
    for column, delta in ((f"score{q}", 1), ("total", 1)):
        bad = games.copy()
        bad.loc[g, column] += delta
        with pytest.raises(AssertionError):
            check_played(bad, fans, final, MCR)
    bad_fans = fans.copy()
    bad_fans[g, np.flatnonzero(fans[g])[0]] += 1
    with pytest.raises(AssertionError, match=f"games \\[{g}\\]"):
        check_played(games, bad_fans, final, MCR)


def test_tile_check_finds_a_fifth_copy_and_a_lost_tile():
    _, _, final = play_games(5, 1, policy="random", keep_state=True)
    S = final[0].copy()
    assert G.check_tiles(S)
    seat = 0 if S[G.S_PHASE] == G.PH_DRAWN else int(S[G.S_WINNER])
    t = int(np.flatnonzero(S[G.S_HAND + 34 * seat : G.S_HAND + 34 * seat + 34])[0])
    fifth = S.copy()
    fifth[G.S_POOL + t] += 1  # a copy more on the table, none less elsewhere
    fifth[G.S_SHOWN + t] += 1
    assert not G.check_tiles(fifth)
    lost = S.copy()
    lost[G.S_HAND + 34 * seat + t] -= 1
    lost[G.S_HAND + 34 * seat + (t + 1) % 34] += 1  # same hand size, one copy moved
    assert not G.check_tiles(lost)


def test_chi2_tail():
    # closed forms against known quantiles (p = 0.001 at 10.83 / 16.27 for 1 / 3 dof)
    assert abs(chi2_sf(10.828, 1) - 0.001) < 1e-5
    assert abs(chi2_sf(16.266, 3) - 0.001) < 1e-5
    assert abs(chi2_sf(2.0, 2) - np.exp(-1.0)) < 1e-12
    with pytest.raises(AssertionError, match="won"):
        assert_seats_win_alike([1000, 1000, 1000, 1200], range(4))
    assert assert_seats_win_alike([1000, 1010, 990, 1200], range(3)) > 0.5


def test_shared_wall_deals_flowers():
    _, _, final = play_games(scaled(200), 5, policy="random", wall="shared", keep_state=True)
    flowers = final[:, G.S_FLOWERS : G.S_FLOWERS + 4]
    # the 8 flowers are set aside as they come: none twice, all of them in a long game
    assert (np.bitwise_and.reduce(flowers, axis=1) == 0).all()
    assert (flowers.sum(axis=1) <= 255).all()
    assert (np.bitwise_or.reduce(flowers, axis=1) == 255).mean() > 0.5


def test_same_games_however_split():
    whole, fans = play_games(120, 3, policy="efficiency")
    a, fa = play_games(50, 3, policy="efficiency")
    b, fb = play_games(70, 3, policy="efficiency", first=50)
    assert np.array_equal(whole.to_numpy(), np.concatenate([a.to_numpy(), b.to_numpy()]))
    assert np.array_equal(fans, np.concatenate([fa, fb]))
    other, _ = play_games(120, 4, policy="efficiency")
    assert not np.array_equal(whole.to_numpy(), other.to_numpy())


def test_checks_do_not_change_the_games():
    # the tile check counts in the policies' view buffer between decisions: the
    # games must not see it
    for policy in ("efficiency", "random"):
        plain, f1 = play_games(150, 11, policy=policy, check=False)
        checked, f2 = play_games(150, 11, policy=policy, check=True)
        assert plain.equals(checked) and np.array_equal(f1, f2)


def test_same_games_on_one_or_two_threads():
    import numba

    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one, f1 = play_games(200, 9, policy="random", wall="botzone")
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two, f2 = play_games(200, 9, policy="random", wall="botzone")
    finally:
        numba.set_num_threads(before)
    assert one.equals(two) and np.array_equal(f1, f2)


def test_equal_policies_win_about_equally_often():
    # random play: long games, where acting first is worth little (see the slow tier)
    games, _ = play_games(scaled(20_000), 21, policy="random", wall="shared")
    w = games.winner.to_numpy()
    assert_seats_win_alike(np.bincount(w[w >= 0], minlength=4), range(4))
    games, _ = play_games(scaled(1500), 22, policy=["efficiency", "random", "efficiency", "random"])
    w = games.winner.to_numpy()
    wins = np.bincount(w[w >= 0], minlength=4)
    assert wins[[0, 2]].min() > wins[[1, 3]].max()


def test_policies_see_only_their_view():
    _, _, final = play_games(scaled(300), 8, policy="efficiency", keep_state=True)
    view = np.zeros(G.N_VIEW, np.int64)
    hidden = 0
    for S in final:
        for p in range(4):
            G.make_view(S, p, view)
            assert (
                view[G.V_HAND : G.V_HAND + 34] == S[G.S_HAND + 34 * p : G.S_HAND + 34 * p + 34]
            ).all()
            assert (view[G.V_UNSEEN : G.V_UNSEEN + 34] >= 0).all()
            for q in range(4):
                for m in range(S[G.S_NMELD + q]):
                    if S[G.S_MELD + 12 * q + 3 * m] == 4 and q != p:
                        assert view[G.V_MELD + 12 * q + 3 * m + 1] == -1
                        hidden += 1
    assert hidden > 0


def test_every_seat_sees_each_seats_discards_as_the_log_has_them():
    # the river (S_RIVER, the view's V_RIVER) counted from the game's own log: each
    # own-turn discard row of a seat, the claimed ones included
    _, _, final, logs = play_games(scaled(300), 9, policy="planner", wall="botzone",
                                   keep_log=True)  # fmt: skip
    view = np.zeros(G.N_VIEW, np.int64)
    claimed = 0
    for S, log in zip(final, logs, strict=True):
        river = np.zeros((4, 34), np.int64)
        for seat, kind, tile, ignored in log[: S[G.S_NLOG]]:
            if kind == G.A_DISCARD and ignored == 0:
                river[seat, tile] += 1
        assert (S[G.S_RIVER : G.S_RIVER + 136].reshape(4, 34) == river).all()
        for p in range(4):
            G.make_view(S, p, view)
            assert (view[G.V_RIVER : G.V_RIVER + 136] == S[G.S_RIVER : G.S_RIVER + 136]).all()
        claimed += river.sum() - S[G.S_POOL : G.S_POOL + 34].sum()
    assert claimed > 0  # claimed discards stay in their discarder's river


def test_bad_options():
    with pytest.raises(GameOptionError, match="unknown policy 'best'"):
        play_games(1, 1, policy="best")
    with pytest.raises(GameOptionError, match="one per seat"):
        play_games(1, 1, policy=["random", "random"])
    with pytest.raises(GameOptionError, match="wall must be one of botzone, shared"):
        play_games(1, 1, wall="round")
    with pytest.raises(GameOptionError, match=r"Botzone wall .* plays 2 seats"):
        play_games(1, 1, ruleset="two-player", wall="botzone")
    with pytest.raises(GameOptionError, match="use wall='botzone'"):
        play_games(1, 1, wall="shared", records="x.txt")


def test_bad_wall_is_an_error_code():
    S = np.zeros(G.N_STATE, np.int64)
    wall = np.repeat(np.arange(34), 4).astype(np.int64)
    assert G.new_game(S, wall, G.WALL_BOTZONE, 0) == G.E_OK
    wall[0] = wall[-1]
    assert G.new_game(S, wall, G.WALL_BOTZONE, 0) == G.E_WALL
    assert G.new_game(S, wall[:100], G.WALL_BOTZONE, 0) == G.E_WALL


def test_stopped_game_message_names_game_seat_state_and_action():
    from mjstats.games.engine import game_error_message

    S = np.zeros(G.N_STATE, np.int64)
    G.new_game(S, np.repeat(np.arange(34), 4).astype(np.int64), G.WALL_BOTZONE, 0)
    S[G.S_PHASE] = G.PH_CLAIM
    S[G.S_TURN] = 1
    S[G.S_LAST_TILE] = 13
    S[G.S_LAST_SEAT] = 1
    row = np.zeros(G.N_R, np.int64)
    row[G.R_ERR] = G.E_POLICY
    row[G.R_ERR_SEAT] = 2
    row[G.R_ERR_ACTION] = G.action(G.A_PUNG, 13)
    msg = game_error_message(17, row, S)
    assert msg.startswith("game 17: policy returned an illegal action: seat 2 returned 'pung 5p'")
    assert "answer to a discard" in msg and "last tile 5p of seat 1" in msg
    # seat 2 is dealt wall[89:102] of the sorted wall (tile = index // 4)
    assert "concealed tiles 5556666777788s, 0 melds" in msg


@jit
def _shanten_drops(walls, pick, melds, forms, tab):
    """Draw-and-discard walks from the 13 - 3 melds first tiles of each wall (discards:
    the one keeping the least shanten on odd steps, else the first held tile from a
    random kind): the largest fall of the 3k+1 shanten between two steps, and how many
    ready hands the walks went through."""
    counts = np.zeros(34, np.uint8)
    worst = -99
    ready = 0
    k = 13 - 3 * melds
    for g in range(walls.shape[0]):
        counts[:] = 0
        for i in range(k):
            counts[walls[g, i]] += 1
        s = shanten_one(counts, melds, forms, tab)
        for i in range(k, walls.shape[1]):
            counts[walls[g, i]] += 1
            out = -1
            if i % 2:
                best = 99
                for t in range(34):
                    if counts[t] > 0:
                        counts[t] -= 1
                        v = shanten_one(counts, melds, forms, tab)
                        counts[t] += 1
                        if v < best:
                            best = v
                            out = t
            else:
                t = pick[g, i]
                while counts[t] == 0:
                    t = (t + 1) % 34
                out = t
            counts[out] -= 1
            new = shanten_one(counts, melds, forms, tab)
            worst = max(worst, s - new)
            ready += new == 0
            s = new
    return worst, ready


@pytest.mark.parametrize("melds", [0, 1, 2])
def test_shanten_falls_at_most_one_a_draw(melds):
    """What the engine's shanten floor (S_SHANTEN_FLOOR, games/rules.py waits) rests
    on: a draw and a discard lower a seat's shanten by at most one, all forms."""
    from mjstats.kernels.shanten import ALL_FORMS
    from mjstats.kernels.tables import get_tables

    rng = np.random.default_rng(23 + melds)
    walls = np.stack([rng.permutation(np.repeat(np.arange(34), 4)) for _ in range(300)])
    pick = rng.integers(0, 34, walls.shape)
    worst, ready = _shanten_drops(walls[:, :100], pick, melds, ALL_FORMS, get_tables())
    assert worst <= 1
    assert ready > 100  # the walks went through ready hands
