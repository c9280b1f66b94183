"""The last guard before the scoring kernels: the index ranges a kernel relies on.

Validation (:mod:`mjstats.validation`) checks everything once, and a
:class:`~mjstats.HandBatch` keeps its arrays frozen. This pass is what stays
cheap enough to run before every scoring call anyway (about a nanosecond a row):
it checks only what a kernel uses as an index (tile counts 0-4, meld kinds
0-4, meld tiles and chow starts, winning tile ids), so a batch corrupted by
bypassing the Python API (``object.__setattr__``, ctypes) gives a code instead
of reads out of bounds.
"""

from __future__ import annotations

import numba
import numpy as np

from mjstats.kernels._jit import pjit

__all__ = ["first_out_of_bounds"]


@pjit
def first_out_of_bounds(concealed, melds, win_tile):
    """Index of the first row holding an out-of-range index, or -1 when there is none.

    Examples
    --------
    >>> import numpy as np
    >>> c = np.zeros((2, 34), np.uint8); m = np.zeros((2, 4, 2), np.uint8)
    >>> w = np.array([0, 255], np.uint8)
    >>> int(first_out_of_bounds(c, m, w))
    -1
    >>> m[1, 0] = (1, 200)
    >>> int(first_out_of_bounds(c, m, w))
    1
    """
    n = concealed.shape[0]
    first = n
    for i in numba.prange(n):
        bad = False
        for t in range(34):
            bad |= concealed[i, t] > 4
        for j in range(4):
            k = melds[i, j, 0]
            t = np.int64(melds[i, j, 1])
            bad |= k > 4
            bad |= (k != 0) & (t >= 34)
            bad |= (k == 1) & ((t >= 27) | (t % 9 > 6))
        w = win_tile[i]
        bad |= (w >= 34) & (w != 255)
        if bad:
            first = min(first, i)
    return -1 if first == n else first
