"""Arrays that nobody can make writable again: the storage of validated data.

``arr.setflags(write=False)`` is only a request: anyone holding the array can call
``setflags(write=True)`` and change validated data behind the kernels' back
(numba does not bounds-check, so a changed meld kind or tile id reads out of
bounds). An array whose memory is an immutable ``bytes`` object refuses that:
numpy only lets an array become writable when the memory under it is writable.
"""

from __future__ import annotations

import numpy as np

__all__ = ["frozen"]


def frozen(arr: np.ndarray) -> np.ndarray:
    """A C-contiguous, read-only copy of ``arr`` whose memory is a private ``bytes`` object.

    Examples
    --------
    >>> a = frozen(np.arange(3, dtype=np.uint8))
    >>> a.tolist(), a.flags.writeable
    ([0, 1, 2], False)
    >>> a.setflags(write=True)
    Traceback (most recent call last):
    ...
    ValueError: cannot set WRITEABLE flag to True of this array
    """
    arr = np.asarray(arr)
    return np.frombuffer(arr.tobytes(), dtype=arr.dtype).reshape(arr.shape)
