"""The game engine: four-player MCR hands (局) played by numba policies, and replays
of real Botzone games through it.

The engine owns its kernels, by concern: :mod:`~mjstats.games.state` (layouts),
:mod:`~mjstats.games.rules` (wall, turns, claims, wins, payments),
:mod:`~mjstats.games.views`, :mod:`~mjstats.games.policies` (built-in policies),
:mod:`~mjstats.games.driver` (whole games); :mod:`~mjstats.games.kernels` gathers
them. :mod:`~mjstats.games.engine` validates options and runs games,
:mod:`~mjstats.games.replay` replays records through the same kernels.

Examples
--------
>>> from mjstats.games import POLICIES, WALLS
>>> POLICIES, tuple(WALLS)
(('random', 'efficiency', 'fan-aware'), ('botzone', 'shared'))
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
from mjstats.games.replay import ReplayError, replay
from mjstats.games.viewer import GameView, view

__all__ = [
    "POLICIES",
    "WALLS",
    "GameError",
    "GameOptionError",
    "GameRules",
    "GameView",
    "ReplayError",
    "engine_context",
    "game_rules",
    "play_games",
    "replay",
    "seat_policies",
    "user_policy_type",
    "view",
]
