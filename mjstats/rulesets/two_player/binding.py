"""The two-player ruleset's kernel binding (see :mod:`mjstats.rulesets`)."""

from __future__ import annotations

from mjstats.hand import CONTEXT_FIELDS
from mjstats.kernels import two_player as kernel
from mjstats.rulesets.two_player.validation import check_context

__all__ = [
    "BATCH_FIELDS",
    "RULESET_ID",
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
#: the same, serially: for batches too small to be worth a thread pool
score_rows_serial = kernel.score_rows_serial


def opts(rs) -> int:
    """Kernel options mask of ruleset ``rs``: the two-player kernel has none."""
    return 0
