"""Vectorised input checks shared by every public entry point.

Kernels never validate (numba does not bounds-check), so every array that
reaches a kernel passes through here first. Checks are numpy-vectorised: no
Python loop over rows. A failure raises an :class:`~mjstats.errors.InvalidHandError`
subclass whose message names the first bad row and how many rows are bad.
"""

from __future__ import annotations

import numpy as np

from mjstats.errors import InvalidHandError, TileCountError

__all__ = ["as_counts34", "as_row_vector", "fail_rows"]


def fail_rows(
    bad: np.ndarray,
    problem: str,
    *,
    error: type[InvalidHandError] = InvalidHandError,
    detail: np.ndarray | None = None,
    batch: bool = True,
) -> None:
    """Raise ``error`` if any entry of the boolean row mask ``bad`` is set.

    The message is ``"row R: PROBLEM (DETAIL) [and K more rows]"`` for batches and
    ``"PROBLEM (DETAIL)"`` for a single hand. ``detail`` is an optional per-row array
    whose entry for the first bad row is appended (e.g. the tile total found).
    """
    bad = np.asarray(bad)
    if not bad.any():
        return
    rows = np.flatnonzero(bad)
    first = int(rows[0])
    msg = problem
    if detail is not None:
        msg += f" (got {np.asarray(detail)[first]})"
    if batch:
        msg = f"row {first}: {msg}"
        if len(rows) > 1:
            msg += f"; {len(rows)} bad rows in all"
    raise error(msg)


def as_row_vector(value, n: int, dtype, name: str) -> np.ndarray:
    """Broadcast a scalar or (n,) array-like to a contiguous (n,) array of ``dtype``.

    Values must be integers (or bools) that fit ``dtype``; anything else raises
    :class:`InvalidHandError` naming ``name``.
    """
    arr = np.asarray(value)
    if arr.dtype == object or not (
        np.issubdtype(arr.dtype, np.integer) or arr.dtype == np.bool_
    ):
        raise InvalidHandError(f"{name} must be integers or booleans, got dtype {arr.dtype}")
    if arr.ndim == 0:
        arr = np.broadcast_to(arr, (n,))
    if arr.shape != (n,):
        raise InvalidHandError(f"{name} must be a scalar or have shape ({n},), got {arr.shape}")
    if dtype is not np.bool_:
        info = np.iinfo(dtype)
        if arr.size and (arr.min() < info.min or arr.max() > info.max):
            raise InvalidHandError(f"{name} has values outside {info.min}..{info.max}")
    return np.ascontiguousarray(arr, dtype=dtype)


def as_counts34(counts, *, name: str = "counts") -> tuple[np.ndarray, bool]:
    """Coerce tile counts to a contiguous ``uint8`` (N, 34) matrix.

    Accepts a (34,) vector (one hand) or an (N, 34) matrix of non-negative integers
    with every entry at most 4. Returns ``(matrix, was_single)``.

    Raises
    ------
    InvalidHandError
        Wrong dtype or shape, negative counts.
    TileCountError
        A kind held more than 4 times.

    Examples
    --------
    >>> import numpy as np
    >>> m, single = as_counts34(np.zeros(34, dtype=int))
    >>> m.shape, m.dtype.name, single
    ((1, 34), 'uint8', True)
    """
    arr = np.asarray(counts)
    if arr.dtype == object or not (
        np.issubdtype(arr.dtype, np.integer) or arr.dtype == np.bool_
    ):
        raise InvalidHandError(
            f"{name} must be an integer array of 34 tile counts, got dtype {arr.dtype}"
        )
    single = arr.ndim == 1
    if single:
        arr = arr[None, :]
    if arr.ndim != 2 or arr.shape[1] != 34:
        raise InvalidHandError(
            f"{name} must have shape (34,) or (N, 34), got {np.asarray(counts).shape}"
        )
    if arr.size:
        fail_rows((arr < 0).any(axis=1), f"{name} has a negative count", batch=not single)
        fail_rows(
            (arr > 4).any(axis=1),
            f"{name} holds more than 4 copies of a tile kind",
            error=TileCountError,
            detail=arr.max(axis=1),
            batch=not single,
        )
    return np.ascontiguousarray(arr, dtype=np.uint8), single
