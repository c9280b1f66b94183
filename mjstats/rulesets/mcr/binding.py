"""The MCR ruleset's kernel binding (see :mod:`mjstats.rulesets`)."""

from __future__ import annotations

import numpy as np

from mjstats.hand import CONTEXT_FIELDS
from mjstats.kernels._jit import ijit, jit
from mjstats.kernels.bits import popcount
from mjstats.kernels.decompose import SuitTable
from mjstats.kernels.legality import is_legal
from mjstats.kernels.scoring import (
    PROBLEM_ALL_FORMS,
    ROW_VALUES,
    ROW_WIN,
    _checked_row,
    _write_out,
)
from mjstats.rulesets.mcr import kernel

__all__ = [
    "BATCH_FIELDS",
    "CLAIMS",
    "FAN_PLANS",
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

#: the fan-aware policy's plans (mjstats.games.discard_policies) are MCR's fans
FAN_PLANS = True
new_work = kernel.new_work
#: the batch fields ``score_rows`` takes after (concealed, melds, win_tile): all
#: but ``situation``
BATCH_FIELDS = CONTEXT_FIELDS[:-1]
#: whether ``score_rows`` takes the options mask after :data:`BATCH_FIELDS`
TAKES_OPTS = True
score_rows = kernel.score_rows

# the game engine's rules (mjstats.games.engine_context): four seats, seat wind =
# seat; on a discard chow (next seat), pung and kong, and robbing a promoted
# kong (抢杠和); no situation fans; the shared wall's 8 flowers
SEAT_WINDS = (0, 1, 2, 3)
CLAIMS = ("chow", "pung", "kong", "rob")
SITUATIONS = False
WALL_FLOWERS = 8
#: the same, serially: for batches too small to be worth a thread pool
score_rows_serial = kernel.score_rows_serial

# ruleset option -> kernel option bit
_OPTION_BITS = {
    "mingan_gang": kernel.OPT_MINGAN_GANG,
    "knitted_straight_wait_fans": kernel.OPT_KNITTED_WAIT,
}
# rule point (a profile's) -> kernel switch
_RULE_POINT_BITS = {
    "kongs_keep_concealed_kong_fans": kernel.OPT_KONGS_KEEP_CONCEALED,
    "forced_quad_not_tile_hog": kernel.OPT_FORCED_QUAD,
}


def opts(rs) -> int:
    """Kernel options mask of the MCR ruleset ``rs``: a bit per boolean option
    that is on (:data:`mjstats.rulesets.mcr.kernel.OPT_MINGAN_GANG`, ...), a bit per rule
    point of its profile that the kernel switches, and the profile's row of the
    kernel's tables (points, 不计 lists) in the bits from
    :data:`~mjstats.rulesets.mcr.kernel.PROFILE_SHIFT`.

    Examples
    --------
    >>> from mjstats.rules import get_ruleset
    >>> opts(get_ruleset("mcr")), opts(get_ruleset("mcr:wmo-2014"))
    (3, 31)
    """
    mask = 0
    for name, bit in _OPTION_BITS.items():
        if rs.options.get(name, True):
            mask |= bit
    for point in rs.rule_points:
        mask |= _RULE_POINT_BITS.get(point.key, 0)
    return mask | kernel.PROFILE_NAMES.index(rs.profile) << kernel.PROFILE_SHIFT


def check_context(arrays: dict, *, batch: bool) -> None:
    """MCR holds any tiles, seats and rounds: nothing beyond the checks every
    ruleset shares (:func:`mjstats.score` makes those)."""


@ijit
def score(
    opts, minimum, flowers_count, concealed, melds, win_tile, self_drawn, last_of_kind, kong_win,
    last_of_wall, seat_wind, round_wind, flowers, situation, work, fan_out,
):  # fmt: skip
    """One MCR hand for :func:`mjstats.rulesets.dispatch.score_one` (``work``: its
    scratch; ``situation`` unused): ``(total, flower_points, form, legal)``."""
    return _score_forms(
        opts, minimum, flowers_count, concealed, melds, win_tile, self_drawn, last_of_kind,
        kong_win, last_of_wall, seat_wind, round_wind, flowers, work, fan_out, True,
    )  # fmt: skip


@ijit
def _score_forms(
    opts, minimum, flowers_count, concealed, melds, win_tile, self_drawn, last_of_kind, kong_win,
    last_of_wall, seat_wind, round_wind, flowers, work, fan_out, all_forms,
):  # fmt: skip
    """:func:`score` with ``all_forms`` as in :func:`mjstats.rulesets.mcr.kernel.score_hand_forms`:
    a total of ``kernel.NEEDS_ALL_FORMS`` says the hand was left to the full scorer."""
    base, form = kernel.score_hand_forms(
        concealed, melds, win_tile, self_drawn, last_of_kind, kong_win, last_of_wall,
        seat_wind, round_wind, opts, work, fan_out, all_forms,
    )  # fmt: skip
    if base < 0:
        return base, 0, 0, False  # -1, or NEEDS_ALL_FORMS
    nfl = popcount(flowers)
    fan_out[kernel.FLOWER_TILES] = nfl
    total = base + nfl
    return total, nfl, form, is_legal(total, nfl, minimum, flowers_count)


@jit
def score_single(row, opts, minimum, flowers_count, info, splits, out, all_forms=None):
    """Check and score one packed MCR hand (layout
    :data:`mjstats.kernels.scoring.ROW_MELDS` ...): :func:`mjstats.score`'s entry.

    Returns ``(problems, total, form, legal)``: the problem bits (then nothing
    is scored) or 0 and the result. Called without ``all_forms``, it is the
    common-forms copy (:func:`mjstats.rulesets.mcr.kernel.score_hand_forms`), which
    compiles in about two thirds of the time and returns
    :data:`~mjstats.kernels.scoring.PROBLEM_ALL_FORMS` for a hand whose shape
    could be a special form: call again with ``all_forms=True`` (compiled when
    the first such hand comes). ``info, splits``: the arrays of
    :func:`~mjstats.kernels.decompose.suit_table` (two arrays are unboxed
    faster than the named tuple). ``out`` (uint8, fans +
    :data:`~mjstats.kernels.scoring.SETS_SIZE`) receives the fan counts, then
    the chosen reading's sets (8 rows of [kind, tile, melded, 0], see
    :func:`mjstats.rulesets.mcr.kernel.score_hand`).
    """
    problems, c, m, f = _checked_row(row)
    if problems:
        return problems, -1, 0, False
    work = kernel.new_work(SuitTable(info, splits))
    fan = np.zeros(kernel.N_FANS, dtype=np.uint8)
    v = ROW_VALUES
    total, _, form, legal = _score_forms(
        opts, minimum, flowers_count, c[0], m[0], row[ROW_WIN], f[0, 0], f[1, 0], f[2, 0],
        f[3, 0], row[v], row[v + 1], row[v + 2], work, fan, all_forms,
    )  # fmt: skip
    if total == kernel.NEEDS_ALL_FORMS:
        return np.int64(PROBLEM_ALL_FORMS), np.int64(-1), np.int64(0), False
    return _write_out(fan, work[4], out, total, form, legal)
