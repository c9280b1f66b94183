"""Two-seat games of 二人麻将 in the game engine (mjstats.games.kernels, mjstats.games).

Seeded whole games with the built-in policies, checked in chunks by
tests/games_invariants.py (shared with the MCR tests): the tile invariants after
every step on the 72-tile wall (characters, honours, 8 flowers), every game
ending, payments (the opponent pays the winner's total) summing to zero, every
win legal and scored as ``score_batch`` scores the same hand (situation bits
included), the situation fans only in their situations, both seats winning
equally often (``slow``: 1M games with ``random``, 100k with each other policy),
determinism over splits and threads; and scripted walls that bring about 天胡,
地胡, 人胡 and 天听.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import scaled
from games_invariants import CHUNK, P_MIN, assert_seats_win_alike, check_games, seats_p_value

from mjstats.games import GameOptionError, engine_context, play_games
from mjstats.games import kernels as G
from mjstats.rules import get_ruleset
from mjstats.studies.games import games as games_study
from mjstats.studies.games import seat_table
from mjstats.tiles import parse_tiles

RS = get_ruleset("two-player")
PLAYED = np.zeros(42, bool)
PLAYED[list(RS.tiles)] = True
PLAYED[34:] = True
SIT_FANS = {
    "heavenly_hand": G.SIT_HEAVENLY,
    "earthly_hand": G.SIT_EARTHLY,
    "human_hand": G.SIT_HUMAN,
    "heavenly_ready": G.SIT_HEAVENLY_READY,
}


def _fan(fans, key):
    return fans[:, RS.fan_id(key)]


def _two_seats(games, fans, final):
    """What only the two-player game has: two seats on a 72-tile wall, no 抢杠和."""
    assert [c for c in games.columns if c.startswith("score")] == ["score0", "score1"]
    # two seats: nothing dealt to seats 2 and 3, nothing else in the wall
    assert (final[:, G.S_VACANT] == 2).all()
    assert (final[:, G.S_WALL_N] == 72).all()
    wall = final[:, G.S_WALL : G.S_WALL + 72]
    assert PLAYED[wall].all()
    assert (final[:, G.S_HAND + 68 : G.S_HAND + 136] == 0).all()
    assert (final[:, G.S_SCORE + 2 : G.S_SCORE + 4] == 0).all()
    # no robbing a kong in this game
    assert (games.kind != G.WIN_ROBBED_KONG).all()
    won = games.winner.to_numpy() >= 0
    _situations_hold(games, fans[won], final[won])


def _check(n, seed, policy, chunk=CHUNK):
    """The shared invariants (payments: the opponent pays the total, self-drawn or
    not; a draw pays nothing), the two-seat ones and the situations, chunk by chunk."""
    declared = []

    def each(games, fans, final, first):
        _two_seats(games, fans, final)
        declared.append(int((_fan(fans, "declared_ready") > 0).sum()))

    tally = check_games(n, seed, ruleset=RS, policy=policy, chunk=chunk, each=each)
    return tally, sum(declared)


def _situations_hold(games, fans, final):
    """Each situation fan only in its situation, as the rule text defines it."""
    won = games[games.winner >= 0]
    winner = won.winner.to_numpy()
    self_drawn = won.kind.to_numpy() == G.WIN_SELF_DRAWN
    table_melds = final[:, G.S_NMELD : G.S_NMELD + 4].sum(axis=1)
    draws = final[:, G.S_DRAWS]
    heavenly = _fan(fans, "heavenly_hand") > 0
    assert (~heavenly | ((winner == 0) & self_drawn & (draws == 1) & (table_melds == 0))).all()
    earthly = _fan(fans, "earthly_hand") > 0
    assert (~earthly | ((winner == 1) & self_drawn & (draws == 2) & (table_melds == 0))).all()
    human = _fan(fans, "human_hand") > 0
    first = final[:, G.S_DISCARDS] == 1
    on_dealer = won.from_seat.to_numpy() == 0
    assert (~human | ((winner == 1) & ~self_drawn & first & on_dealer & (table_melds == 0))).all()
    assert not (heavenly & (_fan(fans, "declared_ready") > 0)).any()
    assert not (human & (_fan(fans, "declared_ready") > 0)).any()
    # 立直 only with a declaration and nothing claimed; 天听 only without any meld
    declared = (final[:, G.S_DECLARED] >> (8 * winner)) & 31
    kinds = np.stack([final[np.arange(len(winner)), G.S_MELD + 12 * winner + 3 * m]
                      for m in range(4)], axis=1)  # fmt: skip
    used = np.arange(4) < final[np.arange(len(winner)), G.S_NMELD + winner][:, None]
    claimed = (used & (kinds != 4)).any(axis=1)
    ready = _fan(fans, "declared_ready") > 0
    assert (~ready | ((declared & G.SIT_READY > 0) & ~claimed)).all()
    assert ((declared & G.SIT_READY > 0) & ~claimed & ~human | ~ready).all()
    tianting = _fan(fans, "heavenly_ready") > 0
    assert (~tianting | ((declared & G.SIT_HEAVENLY_READY > 0) & ~used.any(axis=1))).all()
    # every declared, unclaimed winner scores 立直 (the declaration is the engine's)
    assert (ready | ~((declared & G.SIT_READY > 0) & ~claimed) | human | heavenly).all()


@pytest.mark.parametrize("policy", ["random", "efficiency"])
def test_two_player_invariants(policy):
    n = scaled(3000 if policy == "random" else 1500)
    tally, declared = _check(n, 11, policy, chunk=1000)
    # games are won, not all drawn (the random policy passes up most wins)
    assert tally.won > (0.3 if policy == "efficiency" else 0.05) * tally.games
    # the declarations do happen, and so does 立直
    assert declared > 0


@pytest.mark.slow
@pytest.mark.parametrize(
    ("policy", "n"), [("random", 1_000_000), ("efficiency", 100_000), ("fan-aware", 100_000)]
)
def test_two_player_invariants_large(policy, n):
    tally, declared = _check(scaled(n), 12, policy)
    assert tally.games == scaled(n) and tally.won > 0 and declared > 0
    # turn order shows at these sizes (random 1M: 46681 / 49376 wins, p 3e-18)
    assert seats_p_value(tally.wins, range(2)) < P_MIN


def test_two_player_seats_win_alike():
    # random play at both seats: long games, where acting first is worth little
    games, _ = play_games(scaled(20_000), 5, ruleset=RS, policy="random")
    w = games.winner.to_numpy()
    assert_seats_win_alike(np.bincount(w[w >= 0], minlength=2), range(2))


def test_two_player_mixed_policies_and_study():
    agg = games_study(400, seed=3, policy=["efficiency", "random"], ruleset="two-player",
                      progress=False, chunk_size=150)  # fmt: skip
    assert agg["wins"].shape == (2, 3)
    assert agg["deal_ins"].shape == (2,)
    assert agg["points_won"].shape == (2,)
    t = seat_table(agg)
    assert t["seat"].tolist() == ["East", "West"]
    assert t["policy"].tolist() == ["efficiency", "random"]
    assert (agg["points_won"] - agg["points_lost"]).sum() == 0
    # the efficient seat wins more than the random one
    assert t["wins"][0] > t["wins"][1]


def test_two_player_determinism():
    one, fans_one = play_games(300, 9, ruleset=RS, policy="efficiency")
    a, fa = play_games(120, 9, ruleset=RS, policy="efficiency")
    b, fb = play_games(180, 9, ruleset=RS, policy="efficiency", first=120)
    assert (np.concatenate([a.to_numpy(), b.to_numpy()]) == one.to_numpy()).all()
    assert (np.concatenate([fa, fb]) == fans_one).all()
    agg1 = games_study(300, seed=9, ruleset="two-player", progress=False, chunk_size=300)
    agg4 = games_study(300, seed=9, ruleset="two-player", progress=False, chunk_size=80)
    for k in agg1.counters:
        assert (agg1[k] == agg4[k]).all(), k


def test_two_player_threads_same_numbers():
    import numba

    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        a, fa = play_games(200, 4, ruleset=RS, policy="random")
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        b, fb = play_games(200, 4, ruleset=RS, policy="random")
    finally:
        numba.set_num_threads(before)
    assert (a.to_numpy() == b.to_numpy()).all() and (fa == fb).all()


def test_two_player_options():
    with pytest.raises(GameOptionError, match="Botzone"):
        play_games(1, 1, ruleset=RS, wall="botzone")
    with pytest.raises(GameOptionError, match="round"):
        play_games(1, 1, ruleset=RS, round_wind=1)
    with pytest.raises(GameOptionError, match="one per seat"):
        play_games(1, 1, ruleset=RS, policy=["random"] * 4)
    gctx, pctx, _, _ = engine_context(RS, "shared", 0, "random")
    assert gctx[G.G_SEATS] == 2 and list(gctx[G.G_SEAT_WIND : G.G_SEAT_WIND + 2]) == [0, 2]
    assert gctx[G.G_CLAIMS] == G.CLAIM_CHOW | G.CLAIM_PUNG | G.CLAIM_KONG
    assert pctx[1, 4] == 2  # the policy of seat 1 sees its seat wind West


# ---------------------------------------------------------------- scripted walls
class _Table:
    """Drive the engine on a chosen two-player wall (front: the deal, then the draws)."""

    def __init__(self, dealer, other, draws, seed=0):
        self.gctx, _, self.tab, suits = engine_context(RS, "shared", 0, "random")
        self.work, self.buf = G.new_work(RS.n_fans, suits)
        self.scratch = self.work[3]
        self.fan = np.zeros(RS.n_fans, np.uint8)
        front = _ids(dealer) + _ids(other) + [t for d in draws for t in _ids(d)]
        rest = np.zeros(42, np.int64)
        rest[list(RS.tiles)] = 4
        rest[34:] = 1
        for t in front:
            rest[t] -= 1
        assert (rest >= 0).all()
        tail = np.repeat(np.arange(42), rest)
        np.random.default_rng(seed).shuffle(tail)
        tail = tail[tail < 34]  # no flower among the replacements we may reach...
        flowers = np.arange(34, 42)
        wall = np.concatenate([front, flowers, tail]).astype(np.int64)  # far end: honours/chars
        self.S = np.zeros(G.N_STATE, np.int64)
        g = self.gctx
        assert G.new_game_of(self.S, wall, G.WALL_SHARED, 0, 2, g[G.G_TILES],
                             g[G.G_WALL_FLOWERS]) == G.E_OK  # fmt: skip
        self.args = (self.gctx, self.tab, self.scratch, self.fan, self.buf)
        G.begin_turn(self.S, 0, False, *self.args)

    def own(self):
        acts = np.zeros(G.MAX_ACTIONS, np.int64)
        return [int(a) for a in acts[: G.legal_own(self.S, acts)]]

    def resp(self, q):
        acts = np.zeros(G.MAX_ACTIONS, np.int64)
        return [int(a) for a in acts[: G.legal_response(self.S, q, *self.args, acts)]]

    def do(self, kind, tile):
        a = G.action(kind, _ids(tile)[0])
        assert a in self.own(), (G.ACTION_NAMES[kind], tile, self.own())
        G.apply_own(self.S, a, *self.args)
        assert G.check_tiles(self.S)

    def answer(self, kind=G.A_PASS, tile=None):
        resp = np.zeros(4, np.int64)
        if kind != G.A_PASS:
            resp[1 - self.S[G.S_LAST_SEAT]] = G.action(kind, _ids(tile)[0])
        G.resolve(self.S, resp, *self.args)
        assert G.check_tiles(self.S)

    def fans(self):
        return {RS.fans[f].key for f in np.flatnonzero(self.fan)}


def _ids(text):
    return [int(t) for t in np.repeat(np.arange(34), parse_tiles(text))] if text else []


def test_scripted_heavenly_hand():
    t = _Table("123m456m789m111z2z", "2233445566777z", ["2z"])
    assert G.action(G.A_TSUMO, 28) in t.own()
    t.do(G.A_TSUMO, "2z")
    assert t.S[G.S_SITUATION] == G.SIT_HEAVENLY
    assert "heavenly_hand" in t.fans() and "declared_ready" not in t.fans()


def test_scripted_earthly_hand_with_heavenly_ready():
    # the other player's dealt hand is ready: 天听 at the dealer's first discard, then 地胡
    t = _Table("134579m1234567z", "234m456m789m111z5z", ["6z", "5z"])
    t.do(G.A_DISCARD, "6z")
    assert (t.S[G.S_DECLARED] >> 8) & 31 == G.SIT_READY | G.SIT_HEAVENLY_READY
    assert t.S[G.S_DECLARED] & 31 == 0  # the dealer is not ready
    t.answer()
    assert G.action(G.A_TSUMO, 31) in t.own()
    t.do(G.A_TSUMO, "5z")
    assert t.S[G.S_SITUATION] == G.SIT_EARTHLY | G.SIT_READY | G.SIT_HEAVENLY_READY
    assert {"earthly_hand", "heavenly_ready", "declared_ready"} <= t.fans()


def test_scripted_human_hand_has_no_declaration():
    t = _Table("134579m1234567z", "234m456m789m111z5z", ["2z"])
    t.do(G.A_DISCARD, "5z")
    assert G.action(G.A_HU, 31) in t.resp(1)
    t.answer(G.A_HU, "5z")
    assert t.S[G.S_SITUATION] == G.SIT_HUMAN
    assert "human_hand" in t.fans()
    assert not {"heavenly_ready", "declared_ready"} & t.fans()


def test_scripted_dealer_kong_spoils_human_hand():
    t = _Table("1111m234m56m777z2z", "234m456m789m111z5z", ["5z"])
    t.do(G.A_ANGANG, "1m")
    t.do(G.A_DISCARD, "5z")
    assert G.action(G.A_HU, 31) in t.resp(1)
    t.answer(G.A_HU, "5z")
    assert t.S[G.S_SITUATION] == 0
    assert not {"human_hand", "heavenly_ready", "declared_ready"} & t.fans()


def test_scripted_dealer_kong_spoils_earthly_hand_not_heavenly_ready():
    # "如果闲家抓牌前庄家暗杠，那么不算地胡"; "庄家暗杠不影响闲家天听"
    t = _Table("1111m234m56m777z2z", "234m456m789m111z5z", ["6z", "5z"])
    t.do(G.A_ANGANG, "1m")
    t.do(G.A_DISCARD, "6z")
    t.answer()
    t.do(G.A_TSUMO, "5z")
    assert t.S[G.S_SITUATION] == G.SIT_READY | G.SIT_HEAVENLY_READY
    assert {"heavenly_ready", "declared_ready"} <= t.fans() and "earthly_hand" not in t.fans()


def test_scripted_chow_from_the_opponent():
    t = _Table("134579m1234567z", "234567m3344556z", ["2z"])
    t.do(G.A_DISCARD, "1m")
    assert G.action(G.A_CHOW, 1) in t.resp(1)
    t.answer(G.A_CHOW, "2m")
    assert t.S[G.S_TURN] == 1 and t.S[G.S_NMELD + 1] == 1 and t.S[G.S_MELD + 12] == 1


def test_scripted_promoted_kong_is_not_robbed():
    t = _Table("1199m23456m11z22z", "234567m3344556z", ["7z", "9m", "6z", "9m"])
    t.do(G.A_DISCARD, "7z")
    t.answer()
    t.do(G.A_DISCARD, "9m")  # seat 1 discards the 9m it drew
    assert G.action(G.A_PUNG, 8) in t.resp(0)
    t.answer(G.A_PUNG, "9m")
    t.do(G.A_DISCARD, "1z")
    t.answer()
    t.do(G.A_DISCARD, "6z")  # seat 1
    t.answer()
    # the dealer draws the fourth 9m: a promoted kong nobody may rob, the replacement follows
    t.do(G.A_BUGANG, "9m")
    assert t.resp(1) == [G.A_PASS]
    t.answer()
    assert t.S[G.S_PHASE] == G.PH_OWN and t.S[G.S_TURN] == 0 and t.S[G.S_KONG_DRAW] == 1
    assert t.S[G.S_MELD] == 3
