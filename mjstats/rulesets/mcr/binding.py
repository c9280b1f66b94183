"""The MCR ruleset's kernel binding (see :mod:`mjstats.rulesets`)."""

from __future__ import annotations

from mjstats.hand import CONTEXT_FIELDS
from mjstats.kernels import mcr as kernel

__all__ = [
    "BATCH_FIELDS",
    "CLAIMS",
    "RULESET_ID",
    "SEAT_WINDS",
    "SITUATIONS",
    "TAKES_OPTS",
    "WALL_FLOWERS",
    "check_context",
    "kernel",
    "opts",
    "score_rows",
    "score_rows_serial",
]

#: id of the ruleset in :func:`mjstats.kernels.scoring.score_one`
RULESET_ID = 0
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
    that is on (:data:`mjstats.kernels.mcr.OPT_MINGAN_GANG`, ...), a bit per rule
    point of its profile that the kernel switches, and the profile's row of the
    kernel's tables (points, 不计 lists) in the bits from
    :data:`~mjstats.kernels.mcr.PROFILE_SHIFT`.

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
