"""The minimum rule, for every scorer: one place for what makes a win legal."""

from __future__ import annotations

from mjstats.kernels._jit import ijit

__all__ = ["is_legal"]


@ijit
def is_legal(total, flower_points, minimum, flowers_count):
    """Whether a hand of ``total`` points (flower points included; -1 = not
    complete) is a legal win: complete, and at least ``minimum`` points, its
    ``flower_points`` counted only when ``flowers_count`` (MCR counts them
    only under the option ``flowers_count_toward_minimum``; the two-player
    game always does).

    Examples
    --------
    >>> is_legal(9, 2, 8, False), is_legal(9, 2, 8, True), is_legal(-1, 0, 0, True)
    (False, True, False)
    """
    return total >= 0 and (total if flowers_count else total - flower_points) >= minimum
