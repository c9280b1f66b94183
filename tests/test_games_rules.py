"""Rule points of the game engine on scripted deals (Botzone walls built seat by seat).

Each test deals chosen hands, drives the engine's kernels move by move and checks
the legal actions and the outcome against the MCR rule texts: robbing a promoted
kong (抢杠和, which excludes 和绝张), a win on a kong's replacement tile (杠上开花),
chow by the next seat only, pung before chow, win before pung.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from mjstats.games import kernels as G
from mjstats.games.engine import engine_context
from mjstats.records.judge_logs import segment_wall
from mjstats.rulesets.mcr.judge import botzone_ruleset
from mjstats.tiles import parse_tiles


def _engine(rs):
    gctx, _, tab, suits = engine_context(rs, "botzone", 0, ("random",))
    work, buf = G.new_work(rs.n_fans, suits)
    return SimpleNamespace(rs=rs, gctx=gctx, tab=tab, scratch=work[3], buf=buf,
                           fan=np.zeros(rs.n_fans, np.uint8))  # fmt: skip


ENG = _engine(botzone_ruleset())
MCR = ENG.rs
ARGS = (ENG.gctx, ENG.tab, ENG.scratch, ENG.fan, ENG.buf)


def _wall(taken):
    wall = segment_wall(taken)
    assert wall is not None
    return wall


def _ids(text: str) -> list[int]:
    return [int(t) for t in np.repeat(np.arange(34), parse_tiles(text))] if text else []


def _start(hands, draws):
    """A game whose seat ``p`` is dealt ``hands[p]`` and then draws the tiles
    ``draws[p]`` (a list of tile names) in order."""
    taken = [_ids(hands[p]) + [_ids(t)[0] for t in draws[p]] for p in range(4)]
    S = np.zeros(G.N_STATE, np.int64)
    ENG.gctx[G.G_ROUND] = 0
    assert G.new_game(S, _wall(taken), G.WALL_BOTZONE, 0) == G.E_OK
    G.begin_turn(S, 0, False, *ARGS)
    return S


def _own(S):
    acts = np.zeros(G.MAX_ACTIONS, np.int64)
    return [int(a) for a in acts[: G.legal_own(S, acts)]]


def _resp(S, q):
    acts = np.zeros(G.MAX_ACTIONS, np.int64)
    return [int(a) for a in acts[: G.legal_response(S, q, *ARGS, acts)]]


def _do(S, kind, tile):
    a = G.action(kind, _ids(tile)[0])
    assert a in _own(S)
    G.apply_own(S, a, *ARGS)
    assert G.check_tiles(S)


def _answer(S, claims=None):
    resp = np.zeros(4, np.int64)
    for q, (kind, tile) in (claims or {}).items():
        resp[q] = G.action(kind, _ids(tile)[0])
        assert resp[q] in _resp(S, q)
    taken = G.resolve(S, resp, *ARGS)
    assert G.check_tiles(S)
    return taken


def _fan(name):
    return int(ENG.fan[MCR.fan_id(name)])


def test_robbing_a_promoted_kong():
    S = _start(
        ["55p19m19s1234567z", "5p223344667788s", "123456789m11s46p", "123789p234567z9m"],
        [["1z", "5p"], ["9p", "9p"], ["8p"], ["7p"]],
    )
    _do(S, G.A_DISCARD, "1z")
    _answer(S)
    _do(S, G.A_DISCARD, "5p")  # seat 1 (seat 2 may win on it, and passes)
    assert G.action(G.A_HU, 13) in _resp(S, 2)
    assert _answer(S, {0: (G.A_PUNG, "5p")}) == 0
    assert _own(S) == [G.action(G.A_DISCARD, t) for t in _ids("19m19s1234567z")]  # no kong now
    _do(S, G.A_DISCARD, "2z")
    _answer(S)
    for _ in range(3):  # seats 1, 2, 3 discard what they draw
        _do(S, G.A_DISCARD, ["9p", "8p", "7p"][S[G.S_TURN] - 1])
        _answer(S)
    assert S[G.S_TURN] == 0 and S[G.S_DRAWN] == _ids("5p")[0]
    _do(S, G.A_BUGANG, "5p")
    assert S[G.S_PHASE] == G.PH_ROB
    assert _resp(S, 1) == [G.A_PASS]  # robbing only: no other claim on a promoted kong
    assert _answer(S, {2: (G.A_HU, "5p")}) == 2
    assert S[G.S_WIN_KIND] == G.WIN_ROBBED_KONG and S[G.S_FROM] == 0
    assert _fan("robbing_the_kong") == 1
    assert _fan("last_tile") == 0  # 抢杠和 不计和绝张
    total = S[G.S_TOTAL]
    base = MCR.base_payment
    assert list(S[G.S_SCORE : G.S_SCORE + 4]) == [-(base + total), -base, 3 * base + total, -base]
    # the konger's meld is a pung again, the robbed tile in the winner's hand
    assert S[G.S_MELD] == 2 and S[G.S_HAND + 34 * 2 + 13] == 1


def test_win_on_a_kong_replacement():
    S = _start(["111234567m88p99s", "", "", ""], [["1m", "9s"], [], [], []])
    assert S[G.S_CAN_TSUMO] == 0
    _do(S, G.A_ANGANG, "1m")
    assert S[G.S_KONG_DRAW] == 1 and S[G.S_DRAWN] == _ids("9s")[0]
    assert G.action(G.A_TSUMO, _ids("9s")[0]) in _own(S)
    _do(S, G.A_TSUMO, "9s")
    assert S[G.S_WIN_KIND] == G.WIN_SELF_DRAWN and S[G.S_KONG_WIN] == 1
    assert _fan("out_with_replacement_tile") == 1 and _fan("concealed_kong") == 1
    total = S[G.S_TOTAL]
    assert list(S[G.S_SCORE : G.S_SCORE + 4]) == [3 * (8 + total)] + [-(8 + total)] * 3


def test_chow_by_the_next_seat_only_and_pung_before_chow():
    S = _start(
        ["3m123456789p123s", "24m12345678s111z", "33m1234567s222z9p", "249m9p444555z667z"],
        [[], [], [], []],
    )
    # dealer draws (a filler tile) and discards 3m
    _do(S, G.A_DISCARD, "3m")
    chow = G.action(G.A_CHOW, _ids("3m")[0])
    assert chow in _resp(S, 1)
    assert all(a // 64 != G.A_CHOW for a in _resp(S, 3))  # seat 3 holds 24m too
    assert G.action(G.A_PUNG, _ids("3m")[0]) in _resp(S, 2)
    assert _answer(S, {1: (G.A_CHOW, "3m"), 2: (G.A_PUNG, "3m")}) == 2
    assert S[G.S_TURN] == 2 and S[G.S_DRAWN] == -1
    assert _own(S) == [G.action(G.A_DISCARD, t) for t in range(34) if S[G.S_HAND + 68 + t]]
