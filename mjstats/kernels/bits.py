"""Bit tricks shared by the kernels."""

from __future__ import annotations

from mjstats.kernels._jit import ijit

__all__ = ["popcount"]


@ijit
def popcount(x):
    """Number of set bits of a non-negative integer (e.g. the flowers in an 8-bit mask).

    Examples
    --------
    >>> popcount(0b1011_0001)
    4
    """
    n = 0
    v = int(x)
    while v:
        v &= v - 1
        n += 1
    return n
