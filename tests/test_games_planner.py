"""The ``planner`` game policy (issue 32, item 4).

Every game it plays keeps the engine's invariants and every win is legal (an
illegal claim or discard would stop the games with a ``GameError``); its danger
order prefers tiles with no unseen copy; the other built-in policies are
unchanged (benchmarks/games_fingerprint.py).
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import scaled
from games_invariants import check_played

from mjstats.games import play_games
from mjstats.games.planner import discard_danger
from mjstats.games.views import N_VIEW, V_UNSEEN
from mjstats.rules import get_ruleset


@pytest.mark.parametrize("wall", ["shared", "botzone"])
def test_planner_invariants_and_every_win_legal(wall):
    g, fans, final = play_games(scaled(300), 41, policy="planner", wall=wall, check=True,
                                keep_state=True)  # fmt: skip
    check_played(g, fans, final, get_ruleset("mcr"))
    assert (g.winner >= 0).mean() > 0.4


def test_planner_mixed_table_and_two_player():
    g, _ = play_games(scaled(200), 3, policy=["planner", "fan-aware", "efficiency", "random"])
    assert int(g[["score0", "score1", "score2", "score3"]].sum(axis=1).abs().max()) == 0
    g2, _ = play_games(scaled(200), 3, ruleset="two-player", policy=["planner", "efficiency"])
    assert len(g2) == scaled(200)


def test_danger_prefers_dead_and_outside_tiles():
    v = np.zeros(N_VIEW, np.int64)
    for t in (0, 4, 27, 31):
        v[V_UNSEEN + t] = 2
    v[V_UNSEEN + 33] = 0
    d = {t: int(discard_danger(v, t)) for t in (0, 4, 27, 31, 33)}
    assert d[33] < d[27] == d[31] == d[0] < d[4]
