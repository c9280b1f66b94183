"""HandBatch: N hands as a struct of arrays, validated once, ready for the kernels.

=================  ===============  ================================================
field              dtype, shape     meaning
=================  ===============  ================================================
``concealed``      uint8 (N, 34)    concealed tiles, **including** the winning tile
``melds``          uint8 (N, 4, 2)  ``[kind, tile]`` slots: kind 0 empty, 1 chow (tile =
                                    lowest tile), 2 pung, 3 exposed kong, 4 concealed
                                    kong; sorted by tile then kind, empty slots
                                    last as ``[0, 0]``
``win_tile``       uint8 (N,)       winning tile id, or 255 (``NO_TILE``): waiting hand
``self_drawn``     bool (N,)        won on own draw (自摸), else on a discard
``last_of_kind``   bool (N,)        the winning tile was the last unseen copy (和绝张)
``kong_win``       bool (N,)        replacement after a kong if self-drawn, robbing a
                                    kong otherwise
``last_of_wall``   bool (N,)        last tile of the wall
``seat_wind``      uint8 (N,)       0 East, 1 South, 2 West, 3 North
``round_wind``     uint8 (N,)       same
``flowers``        uint8 (N,)       flower mask: bits 0-3 spring summer autumn winter,
                                    4-7 plum orchid bamboo chrysanthemum
``situation``      uint8 (N,)       ruleset-specific bits
=================  ===============  ================================================

That is 51 bytes per hand. **Waiting hands** (13 tiles, no winning tile) have
``win_tile == 255`` and may be mixed with winning hands; the size rule is then
13 tiles (+1 per kong) instead of 14, and the win flags are kept but mean
nothing until a winning tile is chosen.

The arrays are read-only: a batch is validated once, in its constructor, and
then trusted by every kernel. To change a field, make a new batch with
:meth:`HandBatch.replace`.

Examples
--------
>>> import numpy as np
>>> from mjstats import HandBatch, parse_tiles
>>> concealed = np.stack([parse_tiles("123456789m12355p"), parse_tiles("19m19p19s12345677z")])
>>> batch = HandBatch(concealed=concealed, win_tile=[13, 33], self_drawn=[False, True])
>>> len(batch), batch.nbytes_per_hand
(2, 51)
>>> str(batch[1])
'19m19p19s1234567z+7z self-drawn'
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from mjstats._readonly import frozen
from mjstats.errors import InvalidHandError
from mjstats.hand import CONTEXT_FIELDS, Hand, Meld, MeldKind, _parse_fields
from mjstats.html import batch_html
from mjstats.text import parse_text_fields
from mjstats.tiles import NO_TILE, flower_count
from mjstats.validation import as_hand_arrays

__all__ = ["HandBatch"]


def _rebuild(arrays: Mapping[str, np.ndarray], index: Any = None) -> HandBatch:
    """Unpickle a batch: validated again, since a pickle can be crafted or damaged."""
    if not isinstance(arrays, Mapping) or set(arrays) != set(FIELDS):
        raise InvalidHandError("not a pickled HandBatch: wrong fields")
    batch = HandBatch(**arrays)
    if index is not None:
        if len(index) != len(batch):
            raise InvalidHandError("not a pickled HandBatch: index and rows differ in length")
        object.__setattr__(batch, "index", index)
    return batch


FIELDS = ("concealed", "melds", "win_tile", *CONTEXT_FIELDS)
"""Field names of a :class:`HandBatch`, in storage order."""

_FLAG_FIELDS = CONTEXT_FIELDS[:4]


class HandBatch:
    """N hands as a struct of ``uint8``/``bool`` arrays (at most 64 bytes per hand).

    All arguments are keyword-only and named after the fields (see
    :mod:`mjstats.batch` for the table). Omitted flags default to False,
    winds to East (0), flowers and situation to 0; scalars broadcast to all
    rows. The input is validated here, vectorised, and copied into read-only
    contiguous arrays.

    Parameters
    ----------
    concealed : array_like
        (N, 34) integer counts of the concealed tiles, including the winning tile.
    melds : array_like, optional
        (N, k, 2) ``[kind, tile]`` meld slots, k <= 4 (padded to 4); None for
        no melds. Slots may come in any order, empty ones (kind 0) anywhere: the
        batch stores them sorted by tile then kind, empty slots last, so equal
        hands have equal rows.
    win_tile : int or array_like, optional
        Winning tile id per row; 255 or None (all rows) for waiting hands.
    self_drawn, last_of_kind, kong_win, last_of_wall : bool or array_like
    seat_wind, round_wind : int or array_like
        0-3.
    flowers, situation : int or array_like
        0-255.

    Raises
    ------
    InvalidHandError
        With the first bad row and the number of bad rows, e.g.
        ``"row 3: 5 copies of 1m counting the melds ...; 2 bad rows in all"``.
        Subclasses :class:`~mjstats.errors.InvalidTileError`,
        :class:`~mjstats.errors.InvalidMeldError`,
        :class:`~mjstats.errors.TileCountError` and
        :class:`~mjstats.errors.InvalidContextError` say which kind of problem.

    See Also
    --------
    HandBatch.from_hands : from :class:`~mjstats.Hand` objects or hand text.

    Examples
    --------
    >>> import numpy as np
    >>> from mjstats import HandBatch, parse_tiles
    >>> c = np.tile(parse_tiles("123456789m12355p"), (3, 1))
    >>> b = HandBatch(concealed=c, win_tile=13, seat_wind=[0, 1, 2])
    >>> b.seat_wind.tolist(), b.self_drawn.tolist()
    ([0, 1, 2], [False, False, False])
    >>> c[1, 0] = 0  # row 1 now has 13 tiles
    >>> HandBatch(concealed=c, win_tile=13)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mjstats.errors.TileCountError: row 1: a winning hand has 14 tiles (...), got 13: ...
    """

    __slots__ = (*FIELDS, "index")

    concealed: np.ndarray
    melds: np.ndarray
    win_tile: np.ndarray
    self_drawn: np.ndarray
    last_of_kind: np.ndarray
    kong_win: np.ndarray
    last_of_wall: np.ndarray
    seat_wind: np.ndarray
    round_wind: np.ndarray
    flowers: np.ndarray
    situation: np.ndarray
    index: Any
    """Row labels carried from a pandas Series (:meth:`from_text`), else None
    (positions); used by :meth:`to_frame` and ``score_batch(...).to_frame()``."""

    def __init__(
        self,
        *,
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
    ) -> None:
        arrays = as_hand_arrays(
            concealed,
            melds,
            win_tile,
            self_drawn,
            last_of_kind,
            kong_win,
            last_of_wall,
            seat_wind,
            round_wind,
            flowers,
            situation,
            batch=True,
        )
        self._set(arrays, copy=True)

    def _set(self, arrays: Mapping[str, np.ndarray], *, copy: bool, index: Any = None) -> None:
        # frozen copies: read-only for good (see mjstats._readonly); ``copy`` is kept
        # for the callers' intent, the copy is always made
        object.__setattr__(self, "index", index)
        for name in FIELDS:
            object.__setattr__(self, name, frozen(arrays[name]))

    @classmethod
    def _from_valid(cls, arrays: Mapping[str, np.ndarray], index: Any = None) -> HandBatch:
        """Wrap arrays known to be valid and owned by nobody else (no copy, no check)."""
        batch = object.__new__(cls)
        batch._set(arrays, copy=False, index=index)
        return batch

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(
            f"HandBatch is immutable; use batch.replace({name}=...) for a changed copy"
        )

    def __reduce__(self):
        # pickling (Dask, multiprocessing, copy): rebuild from the arrays, read-only again
        return (_rebuild, ({name: getattr(self, name) for name in FIELDS}, self.index))

    # ------------------------------------------------------------------ construction

    @classmethod
    def from_hands(cls, hands: Iterable[Hand | str]) -> HandBatch:
        """A batch from :class:`~mjstats.Hand` objects or hand text.

        Text is parsed row by row and then validated once for all rows, so a
        problem is reported as ``"row R: ..."``; it is several times faster than
        making a :class:`~mjstats.Hand` of each text first.

        Examples
        --------
        >>> b = HandBatch.from_hands(["[123p]55m12379s789p+8s", "123456789m1235p"])
        >>> b.win_tile.tolist(), b.is_waiting.tolist()
        ([25, 255], [False, True])
        """
        rows = []
        all_hands = True
        for i, h in enumerate(hands):
            if isinstance(h, str):
                try:
                    rows.append(_parse_fields(h))
                except InvalidHandError as exc:
                    raise type(exc)(f"row {i}: {exc}") from None
                all_hands = False
            elif isinstance(h, Hand):
                rows.append(h)
            else:
                raise InvalidHandError(
                    f"row {i}: from_hands takes Hand objects or hand text, got {type(h).__name__}"
                )
        n = len(rows)
        concealed = np.zeros((n, 34), dtype=np.uint8)
        melds = np.zeros((n, 4, 2), dtype=np.uint8)
        columns: dict[str, list] = {name: [] for name in ("win_tile", *CONTEXT_FIELDS)}
        for i, row in enumerate(rows):
            fields = row if isinstance(row, dict) else vars(row)
            concealed[i] = fields["concealed"]
            for j, m in enumerate(fields["melds"]):
                melds[i, j] = (m.kind, m.tile)
            win = fields["win_tile"]
            columns["win_tile"].append(NO_TILE if win is None else win)
            for name in CONTEXT_FIELDS:
                columns[name].append(fields[name])
        arrays = {"concealed": concealed, "melds": melds}
        for name, values in columns.items():
            dtype = np.bool_ if name in _FLAG_FIELDS else np.uint8
            arrays[name] = np.array(values, dtype=dtype).reshape(n)
        if all_hands:  # Hand objects are valid already
            return cls._from_valid(arrays)
        return cls(**arrays)  # text was parsed, not validated: check all rows at once

    @classmethod
    def from_text(cls, texts, *, errors: str = "raise", parallel: bool | None = None):
        """A batch from many hand texts at numba speed (:mod:`mjstats.text`).

        Each row is read exactly as :func:`mjstats.parse_hand` reads it (the same
        grammar, every notation; ``docs/notation.md``), at numba speed for plain
        MPSZ text.

        Parameters
        ----------
        texts : list of str, numpy.ndarray of str or bytes, pandas.Series, or bytes
            The hands. ``bytes`` are the contents of a UTF-8 file with one hand a
            line (``\\n`` or ``\\r\\n``). A Series gives its index to the batch
            (:attr:`index`), and so to :meth:`to_frame` and
            ``score_batch(...).to_frame()``.
        errors : {"raise", "coerce"}
            ``"raise"``: an :class:`~mjstats.errors.InvalidHandError` (the subclass
            of the first bad row's error) naming the first bad row, its problem and
            how many rows are bad. ``"coerce"``: return ``(batch, bad)``, the batch
            of the good rows (its ``index`` holds their labels or row numbers) and a
            DataFrame of the bad ones with columns ``row`` (0-based position),
            ``text`` and ``error`` (the message of ``parse_hand``).
        parallel : bool, optional
            Use numba's threads; by default when there are at least
            :data:`mjstats.text.PARALLEL_MIN_ROWS` rows.

        Examples
        --------
        >>> texts = ["[123p]55m12379s789p+8s", "T1T2T3 B4B5B6 W7W8W9 F1F1 J1J1 +J1"]
        >>> HandBatch.from_text(texts).win_tile.tolist()
        [25, 33]
        >>> file_bytes = b"123m456p789s11z22z+2z\\n{1111z}[5555p]123m789s1s+1s"
        >>> HandBatch.from_text(file_bytes).n_melds.tolist()
        [0, 2]
        >>> good, bad = HandBatch.from_text(["123m456p789s11z22z+2z", "123m+"], errors="coerce")
        >>> len(good), bad["row"].tolist()
        (1, [1])
        >>> HandBatch.from_text(["123m456p789s11z22z+2z", "12m", "1234m"])  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        mjstats.errors.TileCountError: row 1: '12m' holds 2 tiles ...; 2 bad rows in all
        """
        fields, index, bad = parse_text_fields(texts, errors=errors, parallel=parallel)
        batch = cls._from_valid(fields, index=index)
        return batch if errors == "raise" else (batch, bad)

    def to_frame(self):
        """One row per hand: ``hand`` (canonical text) and the context fields, on :attr:`index`.

        Examples
        --------
        >>> import pandas as pd
        >>> s = pd.Series(["123m456p789s11z22z+2z", "123456789m1235p"], index=[10, 20])
        >>> HandBatch.from_text(s).to_frame()[["hand", "seat_wind"]]
                            hand  seat_wind
        10  123m456p789s1122z+2z          0
        20       123456789m1235p          0
        """
        import pandas as pd

        data = {"hand": self.to_text(), "waiting": self.is_waiting}
        data |= {name: getattr(self, name) for name in CONTEXT_FIELDS}
        return pd.DataFrame(data, index=self.index)

    @classmethod
    def concat(cls, batches: Iterable[HandBatch]) -> HandBatch:
        """Concatenate batches, in order.

        Examples
        --------
        >>> a = HandBatch.from_hands(["123456789m1235p"])
        >>> len(HandBatch.concat([a, a, a]))
        3
        """
        items = list(batches)
        for b in items:
            if not isinstance(b, HandBatch):
                raise TypeError(f"concat takes HandBatch objects, got {type(b).__name__}")
        if not items:
            return cls.from_hands([])
        return cls._from_valid(
            {name: np.concatenate([getattr(b, name) for b in items]) for name in FIELDS}
        )

    def replace(self, **changes: Any) -> HandBatch:
        """A validated copy with some fields replaced (scalars broadcast).

        Examples
        --------
        >>> b = HandBatch.from_hands(["123456789m1235p+5p"] * 2)
        >>> b.replace(self_drawn=True).self_drawn.tolist()
        [True, True]
        """
        unknown = set(changes) - set(FIELDS)
        if unknown:
            raise TypeError(f"unknown HandBatch field(s) {sorted(unknown)}; fields: {FIELDS}")
        fields = {name: getattr(self, name) for name in FIELDS} | changes
        return HandBatch(**fields)

    # ------------------------------------------------------------------ container

    def __len__(self) -> int:
        return len(self.concealed)

    def __getitem__(self, key) -> Hand | HandBatch:
        """``batch[i]`` is a :class:`~mjstats.Hand`; a slice, boolean mask or integer
        array gives a :class:`HandBatch`.

        Examples
        --------
        >>> b = HandBatch.from_hands(["123456789m1235p+5p", "123456789m1235p"])
        >>> type(b[0]).__name__, len(b[1:]), len(b[b.is_waiting])
        ('Hand', 1, 1)
        """
        if isinstance(key, tuple):
            raise TypeError(
                "index a HandBatch with an int, a slice, a boolean mask or an integer array"
            )
        try:
            i = operator.index(key)
        except TypeError:
            return HandBatch._from_valid(
                {name: np.ascontiguousarray(getattr(self, name)[key]) for name in FIELDS},
                index=None if self.index is None else self.index[key],
            )
        n = len(self)
        if not -n <= i < n:
            raise IndexError(f"hand index {i} out of range for a batch of {n}")
        return self._hand(i % n)

    def _hand(self, i: int) -> Hand:
        # slots are stored in Hand.melds order already (see as_melds)
        melds = tuple(Meld(MeldKind(int(k)), int(t)) for k, t in self.melds[i].tolist() if k)
        win = int(self.win_tile[i])
        ctx = {name: getattr(self, name)[i].item() for name in CONTEXT_FIELDS}
        return Hand._from_valid(
            self.concealed[i].copy(), melds, None if win == NO_TILE else win, **ctx
        )

    def __iter__(self) -> Iterator[Hand]:
        for i in range(len(self)):
            yield self._hand(i)

    def to_hands(self) -> list[Hand]:
        """All rows as :class:`~mjstats.Hand` objects (a Python loop: for small batches).

        Examples
        --------
        >>> [str(h) for h in HandBatch.from_hands(["123456789m1235p+5p"]).to_hands()]
        ['123456789m1235p+5p']
        """
        return list(self)

    def to_text(self) -> list[str]:
        """Every row in the canonical hand text of :func:`~mjstats.parse_hand`.

        Examples
        --------
        >>> HandBatch.from_hands(["EEE123m456p789s9m+9m"]).to_text()
        ['1239m456p789s111z+9m']
        """
        return [str(h) for h in self]

    def equals(self, other: object) -> bool:
        """Whether ``other`` is a batch with identical fields.

        Examples
        --------
        >>> b = HandBatch.from_hands(["123456789m1235p"])
        >>> b.equals(HandBatch.concat([b])), b.equals(b.replace(seat_wind=1))
        (True, False)
        """
        return isinstance(other, HandBatch) and all(
            np.array_equal(getattr(self, name), getattr(other, name)) for name in FIELDS
        )

    def _repr_html_(self) -> str:

        return batch_html(self)

    def __repr__(self) -> str:
        n = len(self)
        waiting = int(self.is_waiting.sum())
        if 0 < waiting < n:
            head = f"HandBatch({n} hands: {n - waiting} winning, {waiting} waiting)"
        else:
            kind = "waiting " if waiting else "winning " if n else ""
            head = f"HandBatch({n} {kind}hand{'' if n == 1 else 's'})"
        shown = [f"  {i}: {self._hand(i)}" for i in range(min(n, 5))]
        if n > 5:
            shown.append("  ...")
        return "\n".join([head, *shown])

    # ------------------------------------------------------------------ derived

    @property
    def is_waiting(self) -> np.ndarray:
        """bool (N,): rows without a winning tile (``win_tile == 255``).

        Examples
        --------
        >>> HandBatch.from_hands(["123456789m1235p", "123456789m1235p+5p"]).is_waiting.tolist()
        [True, False]
        """
        return self.win_tile == NO_TILE

    @property
    def n_melds(self) -> np.ndarray:
        """uint8 (N,): number of melds per hand.

        Examples
        --------
        >>> HandBatch.from_hands(["{1111z}[5555p]123m789s1s+1s"]).n_melds.tolist()
        [2]
        """
        return (self.melds[:, :, 0] != 0).sum(axis=1).astype(np.uint8)

    @property
    def flower_count(self) -> np.ndarray:
        """uint8 (N,): number of flowers per hand (popcount of ``flowers``).

        Examples
        --------
        >>> HandBatch.from_hands(["123456789m1235p flowers=spring,plum"]).flower_count.tolist()
        [2]
        """
        return flower_count(self.flowers)

    @property
    def nbytes_per_hand(self) -> int:
        """Bytes stored per hand (51).

        Examples
        --------
        >>> HandBatch.from_hands([]).nbytes_per_hand
        51
        """
        return sum(
            getattr(self, name).dtype.itemsize * int(np.prod(getattr(self, name).shape[1:]))
            for name in FIELDS
        )

    @property
    def nbytes(self) -> int:
        """Total bytes of the arrays.

        Examples
        --------
        >>> HandBatch.from_hands(["123456789m1235p"] * 10).nbytes
        510
        """
        return sum(getattr(self, name).nbytes for name in FIELDS)

    # ------------------------------------------------------------------ PyMahjongGB

    def to_pymahjonggb(self, i: int) -> dict[str, Any]:
        """Keyword arguments of ``MahjongGB.MahjongFanCalculator`` for row ``i``.

        See :meth:`mjstats.Hand.to_pymahjonggb`; a waiting row raises
        :class:`~mjstats.errors.InvalidHandError`.

        Examples
        --------
        >>> b = HandBatch.from_hands(["[123p]55m12379s789p+8s"])
        >>> b.to_pymahjonggb(0)["pack"]
        (('CHI', 'B2', 1),)
        """
        hand = self[operator.index(i)]
        return hand.to_pymahjonggb()

    @classmethod
    def from_pymahjonggb(cls, calls: Iterable[Mapping[str, Any] | Sequence[Any]]) -> HandBatch:
        """A batch from ``MahjongFanCalculator`` arguments, one call per hand.

        Each call is a dict of keyword arguments or a tuple of positional ones
        (see :meth:`mjstats.Hand.from_pymahjonggb`).

        Examples
        --------
        >>> b = HandBatch.from_hands(["[123p]55m12379s789p+8s self-drawn"])
        >>> HandBatch.from_pymahjonggb([b.to_pymahjonggb(0)]).equals(b)
        True
        """
        hands = []
        for i, call in enumerate(calls):
            try:
                if isinstance(call, Mapping):
                    hands.append(Hand.from_pymahjonggb(**call))
                elif isinstance(call, Sequence) and not isinstance(call, str):
                    hands.append(Hand.from_pymahjonggb(*call))
                else:
                    raise InvalidHandError(
                        f"a call is a dict of keyword arguments or a tuple, got {call!r}"
                    )
            except InvalidHandError as exc:
                raise type(exc)(f"row {i}: {exc}") from None
            except TypeError as exc:  # wrong argument names or count
                raise InvalidHandError(f"row {i}: {exc}") from None
        return cls.from_hands(hands)
