"""The two-player ruleset's kernel binding (see :mod:`mjstats.rulesets`)."""

from __future__ import annotations

from mjstats.hand import CONTEXT_FIELDS
from mjstats.kernels import two_player as kernel
from mjstats.rulesets.two_player.validation import check_context

__all__ = [
    "BATCH_FIELDS",
    "CLAIMS",
    "ROUNDS",
    "RULESET_ID",
    "SEAT_WINDS",
    "SITUATIONS",
    "WALL_FLOWERS",
    "check_context",
    "kernel",
    "opts",
    "score_rows",
    "score_rows_serial",
]

#: id of the ruleset in :func:`mjstats.kernels.scoring.score_one`
RULESET_ID = 1
#: the batch fields ``score_rows`` takes after (concealed, melds, win_tile): the
#: game has no 和绝张, so no ``last_of_kind``
BATCH_FIELDS = tuple(f for f in CONTEXT_FIELDS if f != "last_of_kind")
#: whether ``score_rows`` takes the options mask after :data:`BATCH_FIELDS`
TAKES_OPTS = False
score_rows = kernel.score_rows

# the game engine's rules (mjstats.games.engine_context; docs/two-player-rules.md,
# "Games"): two seats, the dealer East and the other player West ("二人麻将只有东风和
# 西风，庄家为东风"); on a discard chow, pung and exposed kong (the text's fans
# "可以吃碰明暗杠", 全求人 "全靠吃牌、碰牌"), no robbing a kong (the text has no
# such win); the situation fans 天胡, 地胡, 人胡, 报听, 天听 derived from the game;
# the 8 flowers in the wall, set aside and replaced
SEAT_WINDS = (0, 2)
CLAIMS = ("chow", "pung", "kong")
SITUATIONS = True
WALL_FLOWERS = 8
#: the round winds the game has ("二人麻将只有东风和西风"; the round is East)
ROUNDS = (0,)
#: the same, serially: for batches too small to be worth a thread pool
score_rows_serial = kernel.score_rows_serial


def opts(rs) -> int:
    """Kernel options mask of ruleset ``rs``: the two-player kernel has none."""
    return 0
