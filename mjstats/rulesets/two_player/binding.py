"""The two-player ruleset's kernel binding (see :mod:`mjstats.rulesets`)."""

from __future__ import annotations

import numpy as np

from mjstats.hand import CONTEXT_FIELDS
from mjstats.kernels._jit import ijit, jit
from mjstats.kernels.decompose import SuitTable
from mjstats.kernels.legality import is_legal
from mjstats.kernels.scoring import ROW_VALUES, ROW_WIN, _checked_row, _write_out
from mjstats.rulesets.two_player import kernel
from mjstats.rulesets.two_player.validation import check_context

__all__ = [
    "BATCH_FIELDS",
    "CLAIMS",
    "FAN_PLANS",
    "ROUNDS",
    "SEAT_WINDS",
    "SITUATIONS",
    "TAKES_OPTS",
    "WALL_FLOWERS",
    "check_context",
    "kernel",
    "new_work",
    "opts",
    "score",
    "score_rows",
    "score_rows_serial",
    "score_single",
]

#: the fan-aware policy's plans are MCR's fans: here it plays for efficiency
FAN_PLANS = False
new_work = kernel.new_work
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


@ijit
def score(
    opts, minimum, flowers_count, concealed, melds, win_tile, self_drawn, last_of_kind, kong_win,
    last_of_wall, seat_wind, round_wind, flowers, situation, work, fan_out,
):  # fmt: skip
    """One two-player hand for :func:`mjstats.rulesets.dispatch.score_one`
    (``work``: its scratch; ``opts`` and ``last_of_kind`` unused, the game has no
    和绝张): ``(total, flower_points, form, legal)``."""
    # scalar types normalised (mcr.score_hand does the same), so the scorer is
    # compiled once whatever the callers pass
    total, form = kernel.score_hand(
        concealed, melds, np.int64(win_tile), bool(self_drawn), bool(kong_win),
        bool(last_of_wall), np.int64(seat_wind), np.int64(round_wind), np.int64(flowers),
        np.int64(situation), work, fan_out,
    )  # fmt: skip
    if total < 0:
        return -1, 0, 0, False
    nfl = kernel.flower_points(fan_out)
    return total, nfl, form, is_legal(total, nfl, minimum, flowers_count)


@jit
def score_single(row, opts, minimum, flowers_count, info, splits, out):
    """:func:`mjstats.rulesets.mcr.binding.score_single` for the two-player
    ruleset (``opts`` unused)."""
    problems, c, m, f = _checked_row(row)
    if problems:
        return problems, -1, 0, False
    work = kernel.new_work(SuitTable(info, splits))
    fan = np.zeros(kernel.N_FANS, dtype=np.uint8)
    v = ROW_VALUES
    total, _, form, legal = score(
        0, minimum, flowers_count, c[0], m[0], row[ROW_WIN], f[0, 0], False, f[2, 0], f[3, 0],
        row[v], row[v + 1], row[v + 2], row[v + 3], work, fan,
    )  # fmt: skip
    return _write_out(fan, work[6], out, total, form, legal)
