"""Invariants of the four-player MCR game engine (mjstats.kernels.game, mjstats.games).

Seeded runs of whole games with the built-in policies, both walls: every tile in
exactly one place after every step (the kernel's own check, run in the game loop),
no game left unfinished, every win legal and scored as ``score_batch`` scores the
same hand, payments summing to zero, results independent of how games are split,
and equal policies winning about equally often. Large counts are behind ``slow``.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import scaled

from mjstats import HandBatch, score_batch
from mjstats.games import GameOptionError, play_games
from mjstats.kernels import game as G
from mjstats.rules import get_ruleset

MCR = get_ruleset("mcr")
SCORES = ["score0", "score1", "score2", "score3"]


def _winning_hands(final: np.ndarray, games) -> HandBatch:
    """The winners' hands (winning tile included) with the context the engine derived."""
    rows = np.flatnonzero(games.winner.to_numpy() >= 0)
    n = len(rows)
    conc = np.zeros((n, 34), np.uint8)
    melds = np.zeros((n, 4, 2), np.uint8)
    for i, g in enumerate(rows):
        S = final[g]
        p = S[G.S_WINNER]
        conc[i] = S[G.S_HAND + 34 * p : G.S_HAND + 34 * p + 34]
        for m in range(S[G.S_NMELD + p]):
            o = G.S_MELD + 12 * p + 3 * m
            melds[i, m] = (S[o], S[o + 1])
    win = final[rows]
    return rows, HandBatch(
        concealed=conc,
        melds=melds,
        win_tile=win[:, G.S_WIN_TILE].astype(np.uint8),
        self_drawn=win[:, G.S_WIN_KIND] == G.WIN_SELF_DRAWN,
        last_of_kind=win[:, G.S_LAST_KIND] == 1,
        kong_win=win[:, G.S_KONG_WIN] == 1,
        last_of_wall=win[:, G.S_LAST_WALL] == 1,
        seat_wind=win[:, G.S_WINNER].astype(np.uint8),
        round_wind=win[:, G.S_ROUND].astype(np.uint8),
        flowers=win[:, G.S_FLOWERS : G.S_FLOWERS + 4][np.arange(n), win[:, G.S_WINNER]].astype(
            np.uint8
        ),
    )


def _check_games(n, seed, policy, wall):
    games, fans, final = play_games(n, seed, policy=policy, wall=wall, check=True, keep_state=True)
    assert (games.error == G.E_OK).all(), games[games.error != 0].head()
    # every game ended, in a win or an exhausted wall
    assert np.isin(final[:, G.S_PHASE], (G.PH_WIN, G.PH_DRAWN)).all()
    drawn = games.winner < 0
    assert (games.loc[drawn, SCORES] == 0).all().all()
    assert (games[SCORES].sum(axis=1) == 0).all()
    # payments: 8 + fan from the discarder (or all three if self-drawn), 8 from the others
    won = games[~drawn]
    base = MCR.base_payment
    for row in won.itertuples():
        score = [row.score0, row.score1, row.score2, row.score3]
        for q in range(4):
            if q == row.winner:
                continue
            pays = (
                base + row.total if (row.kind == G.WIN_SELF_DRAWN or q == row.from_seat) else base
            )
            assert score[q] == -pays
    # every win is legal and scored as score_batch scores the same hand
    rows, batch = _winning_hands(final, games)
    scored = score_batch(batch, MCR)
    assert scored.legal.all()
    assert (scored.total == games.total.to_numpy()[rows]).all()
    assert (scored.fan_counts == fans[rows]).all()
    assert (fans[drawn.to_numpy()] == 0).all()
    return games


@pytest.mark.parametrize("wall", ["shared", "botzone"])
@pytest.mark.parametrize("policy", ["random", "efficiency"])
def test_invariants(policy, wall):
    games = _check_games(scaled(400), 11, policy, wall)
    if policy == "efficiency":
        assert (games.winner >= 0).mean() > 0.5  # efficient players mostly finish
        assert (games.kind[games.winner >= 0] == G.WIN_SELF_DRAWN).any()


@pytest.mark.slow
@pytest.mark.parametrize("wall", ["shared", "botzone"])
@pytest.mark.parametrize(
    ("policy", "n"), [("random", 1_000_000), ("efficiency", 100_000), ("fan-aware", 100_000)]
)
def test_invariants_large(policy, n, wall):
    _check_games(scaled(n), 12, policy, wall)


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
    n = scaled(1500)
    games, _ = play_games(n, 21, policy="efficiency", wall="shared")
    wins = np.bincount(games.winner[games.winner >= 0], minlength=4)
    expected = wins.sum() / 4
    chi2 = ((wins - expected) ** 2 / expected).sum()
    assert chi2 < 16.3, wins  # chi-square, 3 degrees of freedom, p = 0.001


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


def test_bad_options():
    with pytest.raises(GameOptionError, match="unknown policy 'best'"):
        play_games(1, 1, policy="best")
    with pytest.raises(GameOptionError, match="one per seat"):
        play_games(1, 1, policy=["random", "random"])
    with pytest.raises(GameOptionError, match="unknown wall"):
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
