"""Vectorised input checks shared by every public entry point.

Kernels never validate (numba does not bounds-check), so every array that
reaches a kernel passes through here first. Checks are numpy-vectorised: no
Python loop over rows (only over the 4 meld slots). A failure raises an
:class:`~mjstats.errors.InvalidHandError` subclass whose message names the
problem, says how to fix it and, for a batch, names the first bad row and how
many rows are bad: ``"row 7: ...; 3 bad rows in all"``.

Building blocks, for wrappers that take arrays:

- :func:`as_counts34`: (34,) or (N, 34) tile counts.
- :func:`as_row_vector`: a scalar or (N,) integer/bool column.
- :func:`as_int_rows`: like ``as_row_vector`` but with a per-row range check.
- :func:`as_melds`: (N, 4, 2) ``[kind, tile]`` meld slots.
- :func:`hand_totals34`: counts of every tile including the melds.
- :func:`as_hand_arrays`: all the fields of a hand or a batch of hands at once.
- :func:`fail_rows`: raise for a boolean mask of bad rows.

Examples
--------
>>> import numpy as np
>>> from mjstats.validation import as_int_rows
>>> as_int_rows([0, 3, 1], 3, "seat_wind", hi=3).tolist()
[0, 3, 1]
>>> as_int_rows([0, 7, 9], 3, "seat_wind", hi=3)
Traceback (most recent call last):
...
mjstats.errors.InvalidContextError: row 1: seat_wind must be 0-3 (got 7); 2 bad rows in all
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from mjstats.errors import (
    InvalidContextError,
    InvalidHandError,
    InvalidMeldError,
    InvalidTileError,
    TileCountError,
)
from mjstats.tiles import CHOW_START_MASK, NO_TILE, TILES

__all__ = [
    "as_counts34",
    "as_hand_arrays",
    "as_int_rows",
    "as_melds",
    "as_row_vector",
    "fail_rows",
    "hand_totals34",
]

# True for uint8 tile values that cannot start a chow (ids 34-255 included)
_NOT_CHOW_START = np.ones(256, dtype=np.bool_)
_NOT_CHOW_START[:34] = ~CHOW_START_MASK
_KIND_NAMES = ("empty", "chow", "pung", "kong", "concealed kong")
_WIND_HELP = "0-3 (0 East, 1 South, 2 West, 3 North)"


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
    message), so :func:`mjstats.bad_rows.score_coerce` can set the bad rows aside
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


def as_melds(melds, n: int, *, batch: bool = True) -> np.ndarray:
    """Coerce and check meld slots: a contiguous ``uint8`` (n, 4, 2) ``[kind, tile]`` array.

    Kinds are 0 empty, 1 chow (tile = its lowest tile), 2 pung, 3 exposed kong,
    4 concealed kong. ``None`` means no melds. Fewer than 4 slots (shape
    (n, k, 2), k <= 4) are padded with empty slots. The result is canonical, so
    that equal hands have equal arrays: used slots sorted by tile then kind (as
    :attr:`mjstats.Hand.melds`), empty slots last as ``[0, 0]``.

    Raises
    ------
    InvalidMeldError
        Unknown kind, or a chow that is not three consecutive numbered tiles
        of one suit (its lowest tile must be 1-7 of m, p or s).
    InvalidTileError
        The tile of a used slot outside 0-33.
    InvalidHandError
        Wrong dtype or shape.

    Examples
    --------
    >>> import numpy as np
    >>> as_melds([[[0, 0], [2, 27], [1, 9]]], 1)[0].tolist()  # pung E, chow 123p: sorted
    [[1, 9], [2, 27], [0, 0], [0, 0]]
    >>> as_melds([[[1, 25]]], 1)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mjstats.errors.InvalidMeldError: row 0: meld slot 0 is a chow starting at 8s: a chow is ...
    """
    if melds is None:
        return np.zeros((n, 4, 2), dtype=np.uint8)
    arr = _asarray(melds, "melds")
    if arr.dtype.kind not in "iu":
        raise InvalidHandError(f"melds must be an integer array, got dtype {arr.dtype}")
    if arr.ndim == 2 and not batch:
        arr = arr[None]
    if arr.ndim != 3 or arr.shape[0] != n or arr.shape[2] != 2 or arr.shape[1] > 4:
        raise InvalidHandError(
            f"melds must have shape ({n}, 4, 2): up to 4 [kind, tile] slots per hand, "
            f"got {arr.shape}"
        )
    # contiguous copies: every check below is then a fast pass over (n, k) bytes
    kind = np.ascontiguousarray(arr[..., 0])
    tile = np.ascontiguousarray(arr[..., 1])
    where = "meld slot {} is".format

    def first_slot(mask: np.ndarray) -> Callable[[int], int]:
        return lambda r: int(np.flatnonzero(mask[r])[0])

    bad_kind = kind > 4 if kind.dtype.kind == "u" else (kind < 0) | (kind > 4)
    slot = first_slot(bad_kind)
    fail_rows(
        bad_kind,
        lambda r: (
            f"{where(slot(r))} of unknown kind {kind[r, slot(r)]}: kinds are 0 empty, "
            "1 chow, 2 pung, 3 exposed kong, 4 concealed kong"
        ),
        error=InvalidMeldError,
        batch=batch,
    )
    used = kind != 0
    bad_tile = used & ((tile > 33) if tile.dtype.kind == "u" else ((tile < 0) | (tile > 33)))
    slot_t = first_slot(bad_tile)
    fail_rows(
        bad_tile,
        lambda r: (
            f"{where(slot_t(r))} a {_KIND_NAMES[kind[r, slot_t(r)]]} of tile "
            f"{tile[r, slot_t(r)]}: tile ids are 0-33"
        ),
        error=InvalidTileError,
        batch=batch,
    )
    # kinds are 0-4 and used tiles 0-33 now: narrow to uint8 (empty slots' tiles -> 0)
    kind = kind.astype(np.uint8)
    tile = np.where(used, tile, 0).astype(np.uint8)
    bad_chow = (kind == 1) & _NOT_CHOW_START[tile]
    slot_c = first_slot(bad_chow)
    fail_rows(
        bad_chow,
        lambda r: (
            f"{where(slot_c(r))} a chow starting at {TILES[tile[r, slot_c(r)]]}: a chow "
            "is three consecutive numbered tiles of one suit, given by its lowest tile "
            "(1-7 of m, p or s)"
        ),
        error=InvalidMeldError,
        batch=batch,
    )
    # Canonical slot order, as in Hand.melds: by tile, then kind; empty slots last.
    # key = 5 * tile + kind (0-169) says all about a slot, 255 = empty; sort the keys
    # of each row with a 4-input sorting network on uint8 columns, then decode.
    keys = [np.full(n, 255, dtype=np.uint8) for _ in range(4)]
    for s in range(arr.shape[1]):
        keys[s] = np.where(used[:, s], tile[:, s] * 5 + kind[:, s], 255).astype(np.uint8)
    for a, b in ((0, 1), (2, 3), (0, 2), (1, 3), (1, 2)):
        keys[a], keys[b] = np.minimum(keys[a], keys[b]), np.maximum(keys[a], keys[b])
    key = np.stack(keys, axis=1)
    empty = key == 255
    out = np.empty((n, 4, 2), dtype=np.uint8)
    out[:, :, 0] = np.where(empty, 0, key % 5)
    out[:, :, 1] = np.where(empty, 0, key // 5)
    return out


# copies of a meld's own tile, by kind (a chow adds 1 more at tile + 1 and tile + 2)
_MELD_COPIES = np.array([0, 1, 3, 4, 4], dtype=np.uint8)


def hand_totals34(concealed: np.ndarray, melds: np.ndarray) -> np.ndarray:
    """Copies of every tile kind held, concealed tiles plus meld tiles (a kong counts 4).

    Parameters
    ----------
    concealed : numpy.ndarray
        ``uint8`` (N, 34), as returned by :func:`as_counts34`.
    melds : numpy.ndarray
        ``uint8`` (N, 4, 2), packed as returned by :func:`as_melds`.

    Returns
    -------
    numpy.ndarray
        ``uint8`` (N, 34) (at most 4 + 4 * 4 = 20, so no overflow).

    Examples
    --------
    >>> import numpy as np
    >>> concealed = np.zeros((1, 34), np.uint8); concealed[0, 0] = 1
    >>> melds = np.zeros((1, 4, 2), np.uint8); melds[0, 0] = [1, 0]  # chow 123m
    >>> hand_totals34(concealed, melds)[0, :4].tolist()
    [2, 1, 1, 0]
    """
    n = len(concealed)
    totals = np.array(concealed, dtype=np.uint8, order="C", copy=True)
    flat = totals.reshape(-1)
    row_start = np.arange(n, dtype=np.intp) * 34
    for s in range(melds.shape[1]):
        rows = np.flatnonzero(melds[:, s, 0])  # only the hands that use this slot
        if not rows.size:
            continue
        kind = melds[rows, s, 0]
        at = row_start[rows] + melds[rows, s, 1]
        flat[at] += _MELD_COPIES[kind]
        at = at[kind == 1]  # chows
        flat[at + 1] += 1
        flat[at + 2] += 1
    return totals


def as_hand_arrays(
    concealed,
    melds=None,
    win_tile=None,
    self_drawn=False,
    last_of_kind=False,
    kong_win=False,
    last_of_wall=False,
    seat_wind=0,
    round_wind=0,
    flowers=0,
    situation=0,
    *,
    batch: bool = True,
) -> dict[str, np.ndarray]:
    """Validate the fields of N hands at once and return them as contiguous arrays.

    This is the single source of truth for what a valid hand is; both
    :class:`mjstats.Hand` and :class:`mjstats.HandBatch` call it.

    Checks, in order: dtypes and shapes; counts 0-4; meld kinds, tiles and
    chows (:func:`as_melds`); winning tile 0-33, or 255 (``NO_TILE``) for a
    waiting hand; winds 0-3; flowers and situation 0-255; at most 4 copies of a
    kind counting the melds; the size rule (concealed + 3 per meld = 14 for a
    win, 13 for a waiting hand; a kong counts 3); the winning tile among the
    concealed tiles.

    Parameters
    ----------
    concealed : array_like
        (N, 34) counts including the winning tile ((34,) with ``batch=False``).
    melds : array_like, optional
        (N, 4, 2) meld slots; None for none.
    win_tile : int or array_like, optional
        Winning tile per row; None means 255, a waiting hand.
    self_drawn, last_of_kind, kong_win, last_of_wall : bool or array_like
        Win flags.
    seat_wind, round_wind : int or array_like
        0-3.
    flowers, situation : int or array_like
        0-255 masks.
    batch : bool
        Batch messages (``"row R: ..."``) rather than single-hand ones.

    Returns
    -------
    dict of str to numpy.ndarray
        The fields keyed by name, with the dtypes of :class:`mjstats.HandBatch`.

    Examples
    --------
    >>> from mjstats.tiles import parse_tiles
    >>> arrays = as_hand_arrays(parse_tiles("123456789m12355p")[None], win_tile=4)
    >>> arrays["concealed"].shape, int(arrays["win_tile"][0])
    ((1, 34), 4)
    >>> as_hand_arrays(parse_tiles("123456789m1235p")[None], win_tile=4)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mjstats.errors.TileCountError: row 0: a winning hand has 14 tiles (...), got 13: ...
    """
    counts, single = as_counts34(concealed, name="concealed")
    if single and batch:
        raise InvalidHandError(
            f"concealed must have shape (N, 34) for a batch, got {np.shape(concealed)}"
        )
    if not single and not batch:
        raise InvalidHandError(f"concealed of one hand must have shape (34,), got {counts.shape}")
    n = len(counts)
    meld_arr = as_melds(melds, n, batch=batch)
    kw = {"batch": batch}
    win = as_int_rows(
        NO_TILE if win_tile is None else win_tile,
        n,
        "win_tile",
        hi=33,
        allowed=NO_TILE,
        error=InvalidTileError,
        help=f"a tile id 0-33, or {NO_TILE} (no winning tile) for a waiting hand",
        **kw,
    )
    out = {"concealed": counts, "melds": meld_arr, "win_tile": win}
    for name, value in (
        ("self_drawn", self_drawn),
        ("last_of_kind", last_of_kind),
        ("kong_win", kong_win),
        ("last_of_wall", last_of_wall),
    ):
        out[name] = as_row_vector(value, n, np.bool_, name)
    out["seat_wind"] = as_int_rows(seat_wind, n, "seat_wind", hi=3, help=_WIND_HELP, **kw)
    out["round_wind"] = as_int_rows(round_wind, n, "round_wind", hi=3, help=_WIND_HELP, **kw)
    out["flowers"] = as_int_rows(flowers, n, "flowers", help="an 8-bit mask 0-255", **kw)
    out["situation"] = as_int_rows(situation, n, "situation", help="8 bits 0-255", **kw)
    if n == 0:
        return out

    totals = hand_totals34(counts, meld_arr)
    over = totals > 4

    def describe_over(r: int) -> str:
        t = int(np.flatnonzero(over[r])[0])
        return (
            f"{totals[r, t]} copies of {TILES[t]} counting the melds "
            f"({counts[r, t]} concealed): there are only 4 tiles of each kind"
        )

    fail_rows(over, describe_over, error=TileCountError, batch=batch)

    # einsum sums rows of small ints much faster than .sum(axis=1); no overflow:
    # at most 4 melds, at most 4 * 34 = 136 concealed tiles
    n_melds = np.einsum("ij->i", (meld_arr[:, :, 0] != 0).view(np.uint8)).astype(np.int16)
    n_concealed = np.einsum("ij->i", counts).astype(np.int16)
    size = n_concealed + 3 * n_melds
    waiting = win == NO_TILE
    expected = np.where(waiting, 13, 14)

    def describe_size(r: int) -> str:
        what = (
            "a waiting hand (no winning tile) has 13 tiles"
            if waiting[r]
            else "a winning hand has 14 tiles"
        )
        fix = (
            "; for a complete hand pass its win_tile"
            if waiting[r]
            else f"; for a waiting hand set win_tile=None ({NO_TILE})"
        )
        return (
            f"{what} (concealed tiles + 3 per meld, a kong counting 3), got {size[r]}: "
            f"{n_concealed[r]} concealed + {n_melds[r]} melds{fix}"
        )

    fail_rows(size != expected, describe_size, error=TileCountError, batch=batch)

    held = counts.reshape(-1)[np.arange(0, 34 * n, 34) + np.where(waiting, 0, win)]
    fail_rows(
        ~waiting & (held == 0),
        lambda r: (
            f"the winning tile {TILES[win[r]]} is not among the concealed tiles; "
            "concealed counts include the winning tile"
        ),
        error=InvalidTileError,
        batch=batch,
    )
    return out
