"""Read-only arrays: the one place that makes them.

:func:`read_only` is for tables and kernel inputs (no copy when the array
already is one; numba types read-only arrays apart from writable ones, so
every path that feeds a kernel gives it read-only arrays and one compiled
signature). :func:`frozen` is for validated data that nobody may make writable
again:

``arr.setflags(write=False)`` is only a request: anyone holding the array can call
``setflags(write=True)`` and change validated data behind the kernels' back
(numba does not bounds-check, so a changed meld kind or tile id reads out of
bounds). An array whose memory is an immutable ``bytes`` object refuses that:
numpy only lets an array become writable when the memory under it is writable.
"""

from __future__ import annotations

import numpy as np

__all__ = ["frozen", "read_only"]


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


def read_only(arr, dtype=None) -> np.ndarray:
    """``arr`` as a C-contiguous array (of ``dtype``, if given) that refuses writes.

    No copy when ``arr`` already is one; otherwise a read-only view (or copy,
    when it must be converted). For tables made at import and for the arrays
    handed to kernels.

    Examples
    --------
    >>> a = read_only(np.arange(3), np.uint8)
    >>> a.dtype.name, a.flags.writeable, read_only(a) is a
    ('uint8', False, True)
    """
    out = np.ascontiguousarray(arr, dtype=dtype)
    if out.flags.writeable:
        out = out.view()
        out.setflags(write=False)
    return out
