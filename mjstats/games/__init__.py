"""The game engine: four-player MCR hands (局) played by numba policies; real Botzone
games replay through the same kernels (:mod:`mjstats.records.replay`).

The engine owns its kernels, by concern: :mod:`~mjstats.games.state` (layouts),
:mod:`~mjstats.games.rules` (wall, turns, claims, wins, payments),
:mod:`~mjstats.games.views`, :mod:`~mjstats.games.policies` (built-in policies),
:mod:`~mjstats.games.driver` (whole games), :mod:`~mjstats.games.replay_kernel`
(a game replayed from its log, legality checked at every move);
:mod:`~mjstats.games.kernels` gathers them. :mod:`~mjstats.games.engine` validates
options and runs games.

Examples
--------
>>> from mjstats.games import POLICIES, WALLS
>>> POLICIES, tuple(WALLS)
(('random', 'efficiency', 'fan-aware', 'planner'), ('botzone', 'shared'))
"""

from __future__ import annotations

from mjstats.games.engine import (
    POLICIES,
    WALLS,
    GameError,
    GameOptionError,
    GameRules,
    engine_context,
    game_rules,
    play_games,
    seat_policies,
    user_policy_type,
)

__all__ = [
    "POLICIES",
    "WALLS",
    "GameError",
    "GameOptionError",
    "GameRules",
    "engine_context",
    "game_rules",
    "play_games",
    "seat_policies",
    "user_policy_type",
]
