"""Coercing user arrays for the kernels, with errors that name the bad row.

The generic half of :mod:`mjstats.validation` (which re-exports these and adds
the checks of melds and whole hands): it needs no tile table, so
:mod:`mjstats.tiles` uses it too.

Examples
--------
>>> import numpy as np
>>> from mjstats.arrays import as_counts34
>>> as_counts34(np.zeros(34, dtype=int))[0].shape
(1, 34)
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from mjstats.errors import InvalidContextError, InvalidHandError, TileCountError

__all__ = ["as_counts34", "as_int_rows", "as_row_vector", "fail_rows"]


def fail_rows(
    bad: np.ndarray,
    problem: str | Callable[[int], str],
    *,
    error: type[InvalidHandError] = InvalidHandError,
    detail: np.ndarray | None = None,
    batch: bool = True,
) -> None:
    """Raise ``error`` if any entry of the boolean row mask ``bad`` is set.

    The error carries ``rows`` (every bad row) and ``problem_of(row)`` (a row's
    message), so :func:`mjstats.scorer.score_coerce` can set the bad rows aside
    and keep the good ones.

    The message is ``"row R: PROBLEM (got DETAIL); K bad rows in all"`` for
    batches (the count only when more than one row is bad) and
    ``"PROBLEM (got DETAIL)"`` for a single hand.

    Parameters
    ----------
    bad : numpy.ndarray
        Boolean mask, one entry per row, or (N, ...) with a row bad when any of
        its entries is set (reduced per row only when something is bad, so a
        passing check costs one ``any()``).
    problem : str or callable
        The problem, or a function of the first bad row index returning it
        (to describe that row in detail).
    error : type
        The :class:`InvalidHandError` subclass to raise.
    detail : numpy.ndarray, optional
        Per-row values; the first bad row's value is appended as ``(got X)``.
    batch : bool
        Prefix the row number and count bad rows (False for one hand).

    Examples
    --------
    >>> import numpy as np
    >>> fail_rows(np.array([False, True, True]), "bad thing")
    Traceback (most recent call last):
    ...
    mjstats.errors.InvalidHandError: row 1: bad thing; 2 bad rows in all
    """
    bad = np.asarray(bad)
    if not bad.any():
        return
    if bad.ndim > 1:
        bad = bad.reshape(len(bad), -1).any(axis=1)
    rows = np.flatnonzero(bad)
    first = int(rows[0])

    def problem_of(r: int) -> str:
        msg = problem(r) if callable(problem) else problem
        return msg if detail is None else msg + f" (got {np.asarray(detail)[r]})"

    msg = problem_of(first)
    if batch:
        msg = f"row {first}: {msg}"
        if len(rows) > 1:
            msg += f"; {len(rows)} bad rows in all"
    exc = error(msg)
    exc.rows, exc.problem_of = rows, problem_of  # every bad row, for errors="coerce"
    raise exc


def _asarray(value, name: str) -> np.ndarray:
    """``np.asarray`` that turns numpy's own complaints (ragged lists...) into InvalidHandError."""
    try:
        return np.asarray(value)
    except (ValueError, TypeError, OverflowError) as exc:
        raise InvalidHandError(f"{name} is not a regular array: {exc}") from None


def _is_intlike(arr: np.ndarray) -> bool:
    return arr.dtype.kind in "iub"


def as_row_vector(value, n: int, dtype, name: str) -> np.ndarray:
    """Broadcast a scalar or (n,) array-like to a contiguous (n,) array of ``dtype``.

    Values must be integers (or bools) that fit ``dtype``; for a bool ``dtype``
    integers must be 0 or 1. Anything else raises :class:`InvalidHandError`
    naming ``name``.

    Examples
    --------
    >>> import numpy as np
    >>> as_row_vector(True, 3, np.bool_, "self_drawn").tolist()
    [True, True, True]
    >>> as_row_vector([0, 1, 2], 3, np.bool_, "self_drawn")
    Traceback (most recent call last):
    ...
    mjstats.errors.InvalidHandError: self_drawn must be booleans (or 0/1), got values outside 0..1
    """
    arr = _asarray(value, name)
    if not _is_intlike(arr):
        raise InvalidHandError(f"{name} must be integers or booleans, got dtype {arr.dtype}")
    if arr.ndim == 0:  # a scalar is checked even when there are no rows
        arr = np.broadcast_to(arr, (max(n, 1),))
    elif arr.shape != (n,):
        raise InvalidHandError(f"{name} must be a scalar or have shape ({n},), got {arr.shape}")
    if dtype is np.bool_ or np.dtype(dtype) == np.bool_:
        if arr.dtype != np.bool_ and arr.size and (arr.min() < 0 or arr.max() > 1):
            raise InvalidHandError(f"{name} must be booleans (or 0/1), got values outside 0..1")
    else:
        info = np.iinfo(dtype)
        if arr.size and (arr.min() < info.min or arr.max() > info.max):
            raise InvalidHandError(f"{name} has values outside {info.min}..{info.max}")
    return np.ascontiguousarray(arr[:n], dtype=dtype)


def as_int_rows(
    value,
    n: int,
    name: str,
    *,
    lo: int = 0,
    hi: int = 255,
    allowed: int | None = None,
    error: type[InvalidHandError] = InvalidContextError,
    help: str | None = None,
    batch: bool = True,
) -> np.ndarray:
    """Coerce a scalar or (n,) integer column to ``uint8``, checking each row is in ``lo..hi``.

    Parameters
    ----------
    value : scalar or array_like
        Integers (bools are refused: a wind or tile is not a truth value).
    n : int
        Number of rows; scalars broadcast.
    name : str
        Field name for messages.
    lo, hi : int
        Inclusive range (within 0..255).
    allowed : int, optional
        One extra allowed value outside the range (e.g. ``NO_TILE`` = 255).
    error : type
        Error class for out-of-range rows.
    help : str, optional
        Replaces ``"lo-hi"`` in the message (e.g. to explain wind numbers).
    batch : bool
        Name the row in messages.

    Returns
    -------
    numpy.ndarray
        Contiguous ``uint8`` (n,).

    Examples
    --------
    >>> as_int_rows(2, 3, "round_wind", hi=3).tolist()
    [2, 2, 2]
    """
    arr = _asarray(value, name)
    if arr.dtype.kind not in "iu":
        raise InvalidHandError(f"{name} must be integers, got dtype {arr.dtype}")
    if arr.ndim == 0:  # a scalar is checked even when there are no rows
        arr = np.broadcast_to(arr, (max(n, 1),))
        batch = batch and n > 0
    elif arr.shape != (n,):
        raise InvalidHandError(f"{name} must be a scalar or have shape ({n},), got {arr.shape}")
    if arr.size:
        bad = (arr < lo) | (arr > hi)
        if allowed is not None:
            bad &= arr != allowed
        if help is None:
            help = f"{lo}-{hi}" if allowed is None else f"{lo}-{hi} or {allowed}"
        fail_rows(bad, f"{name} must be {help}", error=error, detail=arr, batch=batch)
    return np.ascontiguousarray(arr[:n], dtype=np.uint8)


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
    arr = _asarray(counts, name)
    if not _is_intlike(arr):
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
    # one whole-array reduction first: the row-wise checks cost ~30 ns a hand and
    # only matter when something is wrong
    if arr.size and (arr.max() > 4 or (arr.dtype.kind == "i" and arr.min() < 0)):
        if arr.dtype.kind == "i":
            fail_rows(arr < 0, f"{name} has a negative count", batch=not single)
        fail_rows(
            arr > 4,
            lambda r: f"{name} holds more than 4 copies of a tile kind (got {arr[r].max()})",
            error=TileCountError,
            batch=not single,
        )
    return np.ascontiguousarray(arr, dtype=np.uint8), single
