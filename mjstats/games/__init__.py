"""The game engine: four-player MCR hands (局) played by numba policies, and replays
of real Botzone games through it.

The kernels are in :mod:`mjstats.games.kernels` (state layout, legal actions,
claims, payments); this package validates options, runs games and replays records.

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

__all__ = [
    "POLICIES",
    "WALLS",
    "GameError",
    "GameOptionError",
    "GameRules",
    "ReplayError",
    "engine_context",
    "game_rules",
    "play_games",
    "replay",
    "seat_policies",
    "user_policy_type",
]
