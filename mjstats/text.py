"""Hand text in bulk: lists, arrays, Series or file bytes of hand strings -> HandBatch.

:func:`parse_text_fields` (behind :meth:`mjstats.HandBatch.from_text`) joins the
strings into one ``uint8`` buffer with row offsets and parses it with the numba kernel
of :mod:`mjstats.kernels.parse`. The kernel reads the common ASCII part of the
grammar (MPSZ, honour letters, melds, ``+``, the ASCII keywords); every row it
does not read completely (Botzone codes, Chinese, glyphs, flower names, and
every bad row) is parsed by :func:`mjstats.parse_hand` itself. So a row gives
exactly what ``parse_hand`` gives, value or error message, while clean MPSZ
text runs at kernel speed.

Batches of fewer than :data:`PARALLEL_MIN_ROWS` rows are parsed on the calling
thread: starting numba's thread pool costs more than parsing a few thousand
rows (about 0.1 us a row), and a shared machine makes the pool's start-up
unpredictable.

Examples
--------
>>> from mjstats.text import parse_text_fields
>>> fields, index, bad = parse_text_fields(["123m456p789s11z22z+2z", "123m+"], errors="coerce")
>>> fields["win_tile"].tolist(), index.tolist(), bad["row"].tolist()
([28], [0], [1])
"""

from __future__ import annotations

import functools
import re
from typing import Any

import numpy as np

from mjstats.bad_rows import bad_rows_frame
from mjstats.errors import InvalidHandError
from mjstats.hand import (
    _FLAG_KEYWORDS,
    _FLAGS,
    _SITUATION_KEYWORDS,
    _TILE_TOKEN,
    _VALUE_KEYWORDS,
    _WIND_WORDS,
    parse_hand,
)
from mjstats.kernels import parse as kernel
from mjstats.kernels.parse import KIND_FLAG, KIND_SITUATION, KIND_VALUE
from mjstats.tiles import _FLOWER_ALIASES

__all__ = ["PARALLEL_MIN_ROWS", "parse_text_fields"]

PARALLEL_MIN_ROWS = 4096
"""Batches smaller than this are parsed (and scored by :func:`mjstats.score_text`) serially."""

_KEY_WIDTH = 24


@functools.cache
def _tables() -> tuple[np.ndarray, ...]:
    """The keyword and wind tables of the kernel, from the grammar's own tables in
    :mod:`mjstats.hand` (ASCII entries only: other rows go to ``parse_hand``)."""

    value_field = {"seat_wind": 0, "round_wind": 1, "flowers": 2, "situation": 3}
    entries = []
    for word, sets in _FLAG_KEYWORDS.items():
        a = sum(1 << _FLAGS.index(name) for name in sets)
        b = sum(1 << _FLAGS.index(name) for name, v in sets.items() if v)
        entries.append((word, KIND_FLAG, a, b))
    entries += [(w, KIND_SITUATION, bit, 0) for w, bit in _SITUATION_KEYWORDS.items()]
    entries += [(w, KIND_VALUE, value_field[f], 0) for w, f in _VALUE_KEYWORDS.items()]
    entries = [e for e in entries if e[0].isascii() and len(e[0]) <= _KEY_WIDTH]
    kw_table = np.zeros((len(entries), _KEY_WIDTH), dtype=np.uint8)
    for k, (word, *_) in enumerate(entries):
        kw_table[k, : len(word)] = np.frombuffer(word.encode(), dtype=np.uint8)
    winds = [(w, v) for w, v in _WIND_WORDS.items() if w.isascii()]
    wind_table = np.zeros((len(winds), 8), dtype=np.uint8)
    for k, (word, _) in enumerate(winds):
        wind_table[k, : len(word)] = np.frombuffer(word.encode(), dtype=np.uint8)

    flowers = list(_FLOWER_ALIASES.items())
    flower_table = np.zeros((len(flowers), _KEY_WIDTH), dtype=np.uint8)
    for k, (word, _) in enumerate(flowers):
        flower_table[k, : len(word)] = np.frombuffer(word.encode(), dtype=np.uint8)
    tile_char = np.array([bool(_TILE_TOKEN.fullmatch(chr(c))) for c in range(256)], dtype=np.bool_)
    tile_char[128:] = False
    return (
        kw_table,
        np.array([len(e[0]) for e in entries], dtype=np.int64),
        np.array([e[1] for e in entries], dtype=np.int64),
        np.array([e[2] for e in entries], dtype=np.int64),
        np.array([e[3] for e in entries], dtype=np.int64),
        wind_table,
        np.array([len(w) for w, _ in winds], dtype=np.int64),
        np.array([v for _, v in winds], dtype=np.int64),
        flower_table,
        np.array([len(w) for w, _ in flowers], dtype=np.int64),
        np.array([b for _, b in flowers], dtype=np.int64),
        tile_char,
    )


class _Rows:
    """The rows of the input as one byte buffer with offsets, and each row's own text."""

    def __init__(self, texts: Any) -> None:
        self.index = None
        self.forced = None  # rows the kernel must not read (not a str)
        if isinstance(texts, bytes | bytearray | memoryview):
            self._from_bytes(bytes(texts))
            return
        if hasattr(texts, "index") and hasattr(texts, "to_numpy") and hasattr(texts, "dtype"):
            self.index = texts.index  # a pandas Series
            texts = texts.tolist()
        elif isinstance(texts, np.ndarray):
            if texts.ndim != 1:
                raise InvalidHandError(f"hand texts must be one-dimensional, got {texts.shape}")
            texts = texts.tolist()
        elif isinstance(texts, str):
            raise InvalidHandError(
                "from_text takes many hands (a list, array, Series or file bytes); "
                "use parse_hand() for one hand text"
            )
        elif not isinstance(texts, list):
            texts = list(texts)
        self.items = texts
        self.n = len(texts)
        try:
            text = "\n".join(texts)
        except TypeError:
            text = None
        if text is not None:
            joined = text.encode("utf-8", "surrogatepass")
            buf = np.frombuffer(joined, dtype=np.uint8)
            if len(joined) == len(text):  # ASCII: byte offsets are str offsets
                lens = np.fromiter(map(len, texts), dtype=np.int64, count=self.n)
                self.buf = buf
                self.ends = np.cumsum(lens + 1) - 1
                self.starts = self.ends - lens
                return  # (a newline inside a row stays in it: whitespace to both parsers)
            if joined.count(b"\n") == max(self.n - 1, 0):  # no row holds a newline
                self._offsets(buf, np.flatnonzero(buf == 10))
                return
        # rows that hold a newline or are not strings: one by one
        texts = [t.decode("utf-8", "replace") if isinstance(t, bytes) else t for t in texts]
        self.items = texts
        parts = [t.encode("utf-8", "surrogatepass") if isinstance(t, str) else b"" for t in texts]
        self.forced = np.array([not isinstance(t, str) for t in texts], dtype=np.bool_)
        lens = np.array([len(p) for p in parts], dtype=np.int64)
        self.buf = np.frombuffer(b"".join(parts), dtype=np.uint8)
        self.ends = np.cumsum(lens)
        self.starts = self.ends - lens

    def _from_bytes(self, data: bytes) -> None:
        buf = np.frombuffer(data, dtype=np.uint8)
        newlines = np.flatnonzero(buf == 10)
        if len(buf) and buf[-1] == 10:  # a final newline ends the last line
            buf = buf[:-1]
            newlines = newlines[:-1]
        self.n = 0 if not len(buf) else len(newlines) + 1
        self.items = None
        self._offsets(buf, newlines)

    def _offsets(self, buf: np.ndarray, newlines: np.ndarray) -> None:
        self.buf = buf
        n = self.n
        self.starts = np.empty(n, dtype=np.int64)
        self.ends = np.empty(n, dtype=np.int64)
        if n:
            self.starts[0] = 0
            self.starts[1:] = newlines + 1
            self.ends[:-1] = newlines
            self.ends[-1] = len(buf)

    def text(self, r: int) -> Any:
        if self.items is not None:
            return self.items[r]
        raw = self.buf[self.starts[r] : self.ends[r]].tobytes()
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InvalidHandError(
                f"line is not valid UTF-8 ({exc.reason} at byte {exc.start})"
            ) from None


_SURROGATE = re.compile("[\ud800-\udfff]")


def _check_surrogates(text: Any) -> None:
    """Refuse a lone surrogate (undecodable bytes read with ``surrogateescape``)."""
    m = _SURROGATE.search(text) if isinstance(text, str) else None
    if m:
        raise InvalidHandError(
            f"not valid text: lone surrogate U+{ord(m.group()):04X} at position {m.start()} "
            "(bytes that are not UTF-8?)"
        )


def _fill_row(arrays: dict[str, np.ndarray], r: int, hand) -> None:
    arrays["concealed"][r] = hand.concealed
    for j, m in enumerate(hand.melds):
        arrays["melds"][r, j] = (m.kind, m.tile)
    arrays["win_tile"][r] = 255 if hand.win_tile is None else hand.win_tile
    for f, name in enumerate(("self_drawn", "last_of_kind", "kong_win", "last_of_wall")):
        arrays["flags"][r, f] = getattr(hand, name)
    for f, name in enumerate(("seat_wind", "round_wind", "flowers", "situation")):
        arrays["values"][r, f] = getattr(hand, name)


def parse_text_fields(texts, *, errors: str = "raise", parallel: bool | None = None):
    """Parse many hand texts at once into the fields of a :class:`~mjstats.HandBatch`
    (what :meth:`mjstats.HandBatch.from_text` makes its batch of).

    Each row is read exactly as :func:`mjstats.parse_hand` reads it (the same
    grammar, every notation; ``docs/notation.md``), at numba speed for plain
    MPSZ text.

    Parameters
    ----------
    texts : list of str, numpy.ndarray of str or bytes, pandas.Series, or bytes
        The hands. ``bytes`` are the contents of a UTF-8 file with one hand a
        line (``\\n`` or ``\\r\\n``; a final newline ends the last line). A Series
        gives its index to the batch (``batch.index``), and so to
        ``HandBatch.to_frame`` and ``score_batch(...).to_frame()``.
    errors : {"raise", "coerce"}
        ``"raise"``: an :class:`~mjstats.errors.InvalidHandError` (the subclass of
        the first bad row's error) naming the first bad row, its problem and how
        many rows are bad. ``"coerce"``: return ``(batch, bad)``, the batch of
        the good rows (its ``index`` holds their labels or row numbers) and a
        DataFrame of the bad ones with columns ``row`` (0-based position),
        ``text`` and ``error`` (the message of ``parse_hand``).
    parallel : bool, optional
        Use numba's threads; by default when there are at least
        :data:`PARALLEL_MIN_ROWS` rows.

    Returns
    -------
    fields : dict of numpy.ndarray
        The batch's arrays (``concealed``, ``melds``, ``win_tile``, the flags and
        values) of the good rows, valid by construction.
    index : numpy.ndarray or None
        The good rows' labels (a Series' index) or positions (``None``: every
        row of a list, in order).
    bad : pandas.DataFrame or None
        With ``errors="coerce"``: the bad rows (``row``, ``text``, ``error``).

    Examples
    --------
    >>> from mjstats import HandBatch
    >>> HandBatch.from_text(b"123m456p789s11z22z+2z\\n{1111z}[5555p]123m789s1s+1s").n_melds.tolist()
    [0, 2]
    >>> HandBatch.from_text(["123m456p789s11z22z+2z", "12m", "1234m"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mjstats.errors.TileCountError: row 1: '12m' holds 2 tiles ...; 2 bad rows in all
    """

    if errors not in ("raise", "coerce"):
        raise ValueError(f"errors must be 'raise' or 'coerce', got {errors!r}")
    rows = _Rows(texts)
    n = rows.n
    arrays = {
        "concealed": np.zeros((n, 34), dtype=np.uint8),
        "melds": np.zeros((n, 4, 2), dtype=np.uint8),
        "win_tile": np.zeros(n, dtype=np.uint8),
        "flags": np.zeros((n, 4), dtype=np.bool_),
        "values": np.zeros((n, 4), dtype=np.uint8),
    }
    status = np.zeros(n, dtype=np.uint8)
    if n:
        if parallel is None:
            parallel = n >= PARALLEL_MIN_ROWS
        run = kernel.parse_rows if parallel else kernel.parse_rows_serial
        run(rows.buf, rows.starts, rows.ends, _tables(), *arrays.values(), status)
    if rows.forced is not None:
        status[rows.forced] = kernel.DEFER
    bad: list[tuple[int, Any, InvalidHandError]] = []
    for r in np.flatnonzero(status).tolist():
        text = None
        try:
            text = rows.text(r)
            _check_surrogates(text)
            hand = parse_hand(text)
        except InvalidHandError as exc:
            bad.append((r, text, exc))
            continue
        arrays["melds"][r] = 0
        _fill_row(arrays, r, hand)
    if bad and errors == "raise":
        r, _, exc = bad[0]
        more = f"; {len(bad)} bad rows in all" if len(bad) > 1 else ""
        raise type(exc)(f"row {r}: {exc}{more}") from None
    fields = {
        "concealed": arrays["concealed"],
        "melds": arrays["melds"],
        "win_tile": arrays["win_tile"],
        **{
            name: np.ascontiguousarray(arrays["flags"][:, f])
            for f, name in enumerate(("self_drawn", "last_of_kind", "kong_win", "last_of_wall"))
        },
        **{
            name: np.ascontiguousarray(arrays["values"][:, f])
            for f, name in enumerate(("seat_wind", "round_wind", "flowers", "situation"))
        },
    }
    index = rows.index
    if bad:
        keep = np.ones(n, dtype=np.bool_)
        keep[[r for r, _, _ in bad]] = False
        fields = {name: arr[keep] for name, arr in fields.items()}
        index = np.flatnonzero(keep) if index is None else index[keep]
    if errors == "raise":
        return fields, index, None

    frame = bad_rows_frame([r for r, _, _ in bad], [t for _, t, _ in bad], [e for _, _, e in bad])
    if rows.index is not None and bad:
        frame.index = rows.index[frame["row"].to_numpy()]
    return fields, index, frame
