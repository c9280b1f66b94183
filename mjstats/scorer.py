"""Scoring complete hands: :func:`score` for one hand, :func:`score_batch` for many.

Both validate the input (malformed hands raise
:class:`~mjstats.errors.InvalidHandError`), run the ruleset's numba kernel and
wrap the result. The MCR kernel (:mod:`mjstats.rulesets.mcr.kernel`) reproduces the
fan totals and fan lists of the reference scorer PyMahjongGB 1.4.0; see
``docs/mcr-rules.md`` for every rule point and option.

A hand that is not complete (including a 13-tile waiting hand) is not an
error: its total is -1, ``legal`` is False and it has no fans.

Context the scorer rejects (:class:`~mjstats.errors.InvalidContextError`),
because the win it describes cannot happen:

- ``kong_win`` on a self-draw (杠上开花) without a kong among the melds;
- ``kong_win`` on a discard (robbing a kong, 抢杠和) when the winning tile is
  also held elsewhere in the hand or in its melds (the robbed kong holds the
  other three copies);
- ``last_of_kind`` (和绝张) when another copy of the winning tile is concealed.

Context the hand settles itself is derived: 和绝张 is scored when the hand's
own melds show the other three copies of the winning tile, whatever
``last_of_kind`` says.

Forms (``BatchScore.form`` codes, ``Score.form`` names):

====  ==========================  ======================================
code  name                        meaning
====  ==========================  ======================================
0     ``none``                    not a complete hand (total -1)
1     ``regular``                 four sets and a pair
2     ``seven_pairs``             七对 (a kind held four times is two pairs)
3     ``seven_shifted_pairs``     连七对
4     ``thirteen_orphans``        十三幺
5     ``honors_knitted``          全不靠 (with or without 组合龙)
6     ``greater_honors_knitted``  七星不靠
7     ``knitted_straight``        组合龙 + a set + a pair
8     ``nine_gates``              九莲宝灯
====  ==========================  ======================================
"""

from __future__ import annotations

import dataclasses
import functools
import operator
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from mjstats._readonly import read_only
from mjstats.bad_rows import bad_rows_frame
from mjstats.batch import FIELDS, HandBatch
from mjstats.compiling import notice
from mjstats.errors import InvalidContextError, InvalidHandError, UnknownRulesetError
from mjstats.hand import CONTEXT_FIELDS, Hand, _parse_fields, _sorted_melds
from mjstats.html import batch_score_html, score_html
from mjstats.kernels.bounds import first_out_of_bounds
from mjstats.kernels.decompose import KNITTED, suit_table
from mjstats.kernels.scoring import (
    PROBLEM_CONTEXT,
    PROBLEM_COPIES,
    context_problems,
    context_problems_serial,
)
from mjstats.rulesets import get_ruleset
from mjstats.rulesets.base import Ruleset
from mjstats.rulesets.mcr import FORMS as MCR_FORMS
from mjstats.text import PARALLEL_MIN_ROWS
from mjstats.tiles import TILES, format_tiles
from mjstats.validation import fail_rows

__all__ = ["FORM_NAMES", "BatchScore", "Fan", "Score", "score", "score_batch", "score_coerce"]

#: form code -> name (see the module docstring); the ruleset's list
FORM_NAMES = MCR_FORMS

_NO_TILE = 255


@dataclass(frozen=True)
class Fan:
    """One fan of a scored hand.

    Attributes
    ----------
    id : int
        Fan id: the column of ``BatchScore.fan_counts``.
    key : str
        Stable snake_case name, e.g. ``"pure_double_chow"``.
    zh, en : str
        Chinese and English names.
    points : int
        Value of one occurrence.
    count : int
        How many times the fan counts.
    """

    id: int
    key: str
    zh: str
    en: str
    points: int
    count: int

    @property
    def total(self) -> int:
        """``points * count``."""
        return self.points * self.count


def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _pad(text: str, width: int) -> str:
    return text + " " * max(0, width - _width(text))


@dataclass(frozen=True)
class Score:
    """The score of one hand.

    Attributes
    ----------
    total : int
        All fans including flowers; -1 when the hand is not complete.
    legal : bool
        Whether the hand reaches the ruleset's minimum (MCR: 8 fan, flowers
        not counted unless the ruleset option says so).
    fans : list of Fan
        The fans of the chosen reading, in fan-id order (big fans first,
        flowers and 明暗杠 last).
    form : str
        ``"regular"``, ``"seven_pairs"``, ... (:data:`FORM_NAMES`); ``"none"``
        when not complete.
    sets : tuple of str
        The reading used: melds in brackets (``[123p]`` exposed, ``{5555m}``
        concealed kong), concealed sets and the pair as tiles (``"456s"``,
        ``"99m"``); special forms list their parts.
    hand : Hand
        The hand scored.
    ruleset : str
        Ruleset name.
    """

    total: int
    legal: bool
    fans: list[Fan]
    form: str
    sets: tuple[str, ...]
    hand: Any = field(repr=False)
    ruleset: str = "mcr"

    @property
    def flowers(self) -> int:
        """Points from flower fans (MCR: 花牌; two-player also 季花, 春夏秋冬, ...)."""
        keys = set(get_ruleset(self.ruleset).flower_fans)
        return sum(f.total for f in self.fans if f.key in keys)

    @property
    def total_without_flowers(self) -> int:
        """The total minus flower points (-1 when not complete)."""
        return self.total if self.total < 0 else self.total - self.flowers

    def __str__(self) -> str:
        lines = [str(self.hand)]
        if self.total < 0:
            lines.append("not a complete hand")
            return "\n".join(lines)
        lines.append(f"{self.form}: {' '.join(self.sets)}")
        zw = max([_width(f.zh) for f in self.fans] + [4])
        ew = max([len(f.en) for f in self.fans] + [4])
        for f in self.fans:
            times = f" x{f.count}" if f.count > 1 else ""
            lines.append(f"  {_pad(f.zh, zw)}  {f.en:<{ew}}  {f.total:>3}{times}")
        verdict = "legal" if self.legal else "below the minimum"
        lines.append(f"  total {self.total} ({verdict})")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        return score_html(self)

    def __getstate__(self) -> dict:
        # pickles and copies hold the values, not the pending kernel output
        state = {name: getattr(self, name) for name in _SCORE_FIELDS}
        return state

    @classmethod
    def _pending(cls, total, legal, form, ruleset, pending, hand=None) -> Score:
        """A Score whose ``fans``, ``sets`` (and ``hand`` when None) are made from
        ``pending`` (a :class:`_Pending`) on first read: :func:`score` returns these,
        so a caller who reads only the total pays for no list or text."""
        s = object.__new__(cls)
        d = s.__dict__
        d["total"] = total
        d["legal"] = legal
        d["form"] = form
        d["ruleset"] = ruleset
        d["_pending"] = pending
        if hand is not None:
            d["hand"] = hand
        return s


class _Lazy:
    """A field of :class:`Score` computed from its pending kernel output on first
    read and then kept (a data descriptor, so the dataclass's own ``__init__``,
    ``__eq__``, ``__repr__`` and ``dataclasses.replace`` work unchanged)."""

    def __init__(self, name: str, make) -> None:
        self.name = name
        self.make = make

    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        d = obj.__dict__
        try:
            return d[self.name]
        except KeyError:
            value = d[self.name] = self.make(obj, d["_pending"])
            return value

    def __set__(self, obj, value) -> None:
        obj.__dict__[self.name] = value


class _Pending(NamedTuple):
    """What a lazy :class:`Score` is made from: the ruleset's one-hand constants,
    the kernel's output row (fan counts, then the reading's sets), the form code,
    for text input the parsed fields (``None`` when the Hand was given) and the
    packed hand row."""

    one: Any
    out: np.ndarray
    form: int
    fields: Any
    row: np.ndarray


def _lazy_fans(score: Score, p: _Pending) -> list[Fan]:
    counts = p.out[: p.one.n_fans]
    cache = p.one.fan_cache
    fans = []
    for f in np.flatnonzero(counts).tolist():
        key = (f, int(counts[f]))
        fan = cache.get(key)
        if fan is None:
            d = p.one.fans[f]
            fan = cache[key] = Fan(f, d.key, d.zh, d.en, d.points, key[1])
        fans.append(fan)
    return fans


def _lazy_sets(score: Score, p: _Pending) -> tuple[str, ...]:
    sets_row = p.out[p.one.n_fans :].reshape(8, 4)
    return _format_sets(score.hand, p.form, sets_row, p.one.forms)


def _lazy_hand(score: Score, p: _Pending):
    f = p.fields
    ctx = {name: f[name] for name in CONTEXT_FIELDS}
    return Hand._from_valid(p.row[:34], f["melds"], f["win_tile"], **ctx)


_SCORE_FIELDS = tuple(f.name for f in dataclasses.fields(Score))
Score.fans = _Lazy("fans", _lazy_fans)
Score.sets = _Lazy("sets", _lazy_sets)
Score.hand = _Lazy("hand", _lazy_hand)


@dataclass(frozen=True, eq=False)
class BatchScore:
    """Scores of N hands (arrays; see :func:`score_batch`).

    Attributes
    ----------
    total : numpy.ndarray
        int16 (N,): total including flowers; -1 where the hand is not complete.
    fan_counts : numpy.ndarray
        uint8 (N, F): how many times each fan counts (column f = fan id f).
    fans : pandas.DataFrame
        F rows, columns ``id, key, zh, en, points``: row f describes column f.
    legal : numpy.ndarray
        bool (N,): complete and reaching the ruleset's minimum.
    form : numpy.ndarray
        uint8 (N,): form codes (:data:`FORM_NAMES`).
    ruleset : str
    """

    total: np.ndarray
    fan_counts: np.ndarray
    fans: Any
    legal: np.ndarray
    form: np.ndarray
    ruleset: str = "mcr"
    form_names: tuple[str, ...] = FORM_NAMES
    index: Any = None
    """Row labels of the scored batch (``HandBatch.index``), used by :meth:`to_frame`."""
    hands: Any = field(default=None, repr=False)
    """The scored :class:`~mjstats.HandBatch` (from :func:`score_batch`; its first rows'
    tiles are drawn in the HTML view), or None."""

    def __len__(self) -> int:
        return len(self.total)

    def to_frame(self, fan_columns: str = "all"):
        """One row per hand: ``total``, ``legal``, ``form`` (categorical), ``flowers``
        and one uint8 column per fan, named by its key.

        Parameters
        ----------
        fan_columns : {"all", "present", "none"}
            Every fan column, only fans that occur in some row, or none.

        Examples
        --------
        >>> import mjstats
        >>> b = mjstats.HandBatch.from_hands(["123m456p789s23s99m+1s", "123m456p789s12s99m"])
        >>> df = mjstats.score_batch(b).to_frame(fan_columns="present")
        >>> df[["total", "legal", "form"]].values.tolist()
        [[13, True, 'regular'], [-1, False, 'none']]
        >>> df.columns[4:].tolist()
        ['mixed_straight', 'concealed_hand', 'all_chows', 'mixed_double_chow']
        """
        import pandas as pd

        if fan_columns not in ("all", "present", "none"):
            raise ValueError("fan_columns must be 'all', 'present' or 'none'")
        keys = list(self.fans["key"])
        data = {
            "total": self.total,
            "legal": self.legal,
            "form": pd.Categorical.from_codes(self.form.astype(np.int64), self.form_names),
        }
        if "flower_tiles" in keys:
            data["flowers"] = self.fan_counts[:, keys.index("flower_tiles")]
        if fan_columns != "none":
            cols = range(len(keys))
            if fan_columns == "present":
                cols = np.flatnonzero(self.fan_counts.any(axis=0))
            for f in cols:
                if keys[f] != "flower_tiles":
                    data[keys[f]] = self.fan_counts[:, f]
        return pd.DataFrame(data, index=self.index)

    def _repr_html_(self) -> str:
        return batch_score_html(self)

    def __repr__(self) -> str:
        n = len(self)
        done = int((self.total >= 0).sum())
        return (
            f"BatchScore(ruleset={self.ruleset!r}, hands={n}, complete={done}, "
            f"legal={int(self.legal.sum())})"
        )


# --------------------------------------------------------------------------- helpers


def _resolve(ruleset) -> Ruleset:
    rs = get_ruleset(ruleset)
    if not rs.binding:
        raise UnknownRulesetError(
            f"scoring is not available for ruleset {rs.name!r} yet; use ruleset='mcr'"
        )
    return rs


def _form_names(rs: Ruleset) -> tuple[str, ...]:
    return tuple(rs.forms)


def _check_context(concealed, melds, win, self_drawn, last_of_kind, kong_win, *, batch):
    """Reject win contexts the hand contradicts (InvalidContextError, first bad row)."""

    n = len(win)
    if n == 0:
        return
    codes = np.empty(n, dtype=np.uint8)
    check = context_problems if n >= PARALLEL_MIN_ROWS else context_problems_serial
    n_bad = check(
        read_only(concealed, np.uint8),
        read_only(melds, np.uint8),
        read_only(win, np.uint8),
        read_only(self_drawn, np.bool_),
        read_only(last_of_kind, np.bool_),
        read_only(kong_win, np.bool_),
        codes,
    )
    if n_bad:
        _raise_context(codes, concealed, win, batch=batch)


def _raise_context(codes, concealed, win, *, batch) -> None:
    """Raise the InvalidContextError of the first row whose code (of
    :func:`mjstats.kernels.scoring.context_problems`) is not 0."""

    held = concealed[np.arange(len(win)), np.where(win == _NO_TILE, 0, win)]

    def robbed(r):
        where = "in its melds" if held[r] < 2 else "in the hand"
        return (
            f"kong_win on a discard means robbing a kong (抢杠和) of {TILES[win[r]]}, whose "
            f"other three copies are in the robbed kong, but the hand also holds it {where}; "
            "drop kong_win"
        )

    fail_rows(
        codes == 1,
        "kong_win on a self-draw means 杠上开花 (out on a kong's replacement tile), "
        "but the hand has no kong among its melds; drop kong_win or add the kong",
        error=InvalidContextError,
        batch=batch,
    )
    fail_rows(codes == 2, robbed, error=InvalidContextError, batch=batch)
    fail_rows(
        codes == 3,
        lambda r: (
            f"last_of_kind (和绝张) says the winning {TILES[win[r]]} was the last unseen copy, "
            f"but the hand conceals {int(held[r]) - 1} more; drop last_of_kind"
        ),
        error=InvalidContextError,
        batch=batch,
    )


_FLAGS = CONTEXT_FIELDS[:4]  # the boolean fields (the kernels take them as bool)


def _run(arrays: dict, rs: Ruleset, want_sets: bool):
    # deferred: rulesets may still be registered until the dispatch loads
    from mjstats.rulesets.dispatch import kernel_spec

    kernel = rs.kernel  # the ruleset's binding (see mjstats.rulesets)
    fields, takes_opts = kernel.BATCH_FIELDS, kernel.TAKES_OPTS
    spec = kernel_spec(rs)
    n = len(arrays["win_tile"])
    total = np.empty(n, dtype=np.int16)
    fans = np.empty((n, rs.n_fans), dtype=np.uint8)  # the kernel writes every entry
    form = np.empty(n, dtype=np.uint8)
    legal = np.empty(n, dtype=np.bool_)
    sets = np.zeros((n if want_sets else 0, 8, 4), dtype=np.uint8)
    if n:
        inputs = [read_only(arrays[k], np.uint8) for k in ("concealed", "melds", "win_tile")]
        inputs += [read_only(arrays[k], np.bool_ if k in _FLAGS else np.uint8) for k in fields]
        if takes_opts:
            inputs.append(spec.opts)
        inputs += [spec.minimum, spec.flowers_count_toward_minimum]
        _check_bounds(*inputs[:3])
        # few hands: no thread pool (its start costs more, and waits on busy cores)
        run = kernel.score_rows if n >= PARALLEL_MIN_ROWS else kernel.score_rows_serial
        run(*inputs, total, fans, form, legal, sets, suit_table())
    return total, fans, form, legal, sets


def _check_bounds(concealed, melds, win_tile) -> None:
    """Refuse rows whose indices would read out of bounds (a batch changed behind
    the API's back: its arrays are frozen and validated, see mjstats._readonly)."""

    row = first_out_of_bounds(concealed, melds, win_tile)
    if row >= 0:
        raise _bounds_error(row)


def _bounds_error(row: int) -> InvalidHandError:
    return InvalidHandError(f"row {row}: tile counts, meld slots or winning tile out of range")


def _fans_frame(rs: Ruleset):
    """The ruleset's fan table (a fresh copy: callers may modify theirs)."""
    return _fans_frame_of(rs.fans).copy()


@functools.lru_cache(maxsize=16)
def _fans_frame_of(fans: tuple) -> Any:
    # built once per fan list: building a DataFrame takes about 1 ms, a copy 0.15 ms
    import pandas as pd

    return pd.DataFrame(
        {
            "id": np.arange(len(fans), dtype=np.int64),
            "key": [f.key for f in fans],
            "zh": [f.zh for f in fans],
            "en": [f.en for f in fans],
            "points": np.array([f.points for f in fans], dtype=np.int64),
        }
    )


@functools.lru_cache(maxsize=4096)
def _tiles_text(ids: tuple[int, ...]) -> str:
    c = np.zeros(34, dtype=np.uint8)
    for t in ids:
        c[t] += 1
    return format_tiles(c)


@functools.lru_cache(maxsize=4096)
def _set_text(kind: int, tile: int, melded: int) -> str:
    """One set of a reading as text (cached: there are a few hundred distinct sets)."""
    if kind == 1:
        s = _tiles_text((tile, tile + 1, tile + 2))
        return f"[{s}]" if melded else s
    if kind == 2:
        s = _tiles_text((tile,) * 3)
        return f"[{s}]" if melded else s
    if kind == 3:
        s = _tiles_text((tile,) * 4)
        return f"[{s}]" if melded else f"{{{s}}}"
    if kind == 5:
        return _tiles_text((tile,) * 2)
    return ""


def _format_sets(
    hand, form: int, sets_row: np.ndarray, form_names: tuple[str, ...] = FORM_NAMES
) -> tuple[str, ...]:
    """Readable parts of the chosen reading."""

    tiles = _tiles_text
    one = _set_text
    name = form_names[form]
    rows = np.asarray(sets_row).tolist()  # Python ints (numpy's, one by one, are slow)
    if name == "regular":
        sets = [tuple(r[:3]) for r in rows[:4]]
        fixed = [r for r in sets if r[2] or r[0] == 3]
        free = sorted((r for r in sets if not (r[2] or r[0] == 3)), key=lambda r: (r[1], r[0]))
        return (*(one(*r) for r in fixed + free), one(*rows[4][:3]))
    if name == "knitted_straight":
        body = tiles(tuple(int(t) for t in KNITTED[rows[2][1]]))
        return (body, one(*rows[0][:3]), one(*rows[1][:3]))
    if name in ("seven_pairs", "seven_shifted_pairs"):
        out = []
        for t in np.flatnonzero(hand.concealed):
            out += [tiles((t, t))] * (int(hand.concealed[t]) // 2)
        return tuple(out)
    if name == "none":
        return ()
    return (format_tiles(hand.concealed),)


# --------------------------------------------------------------------------- one hand
# score() packs the hand into one uint8 row (mjstats.kernels.scoring.ROW_MELDS ...)
# and makes one kernel call for the shared checks and the score: a call costs a
# few microseconds of Python around well under a microsecond of scoring, and
# compiles only the ruleset's own entry (no text parser, no batch loop).


class _One(NamedTuple):
    """What the one-hand path needs of a ruleset, resolved once per ruleset."""

    entry: Any  # the ruleset's kernel entry (its binding's score_single)
    args: tuple  # its scalar arguments and the suit table's two arrays
    n_fans: int
    fans: tuple
    forms: tuple[str, ...]
    check: Any  # the binding's check_context
    spec: str
    fan_cache: dict  # (fan id, count) -> Fan (immutable, so shared by every Score)


def _one_of(rs: Ruleset) -> _One:
    # deferred: rulesets may still be registered until the dispatch loads
    from mjstats.rulesets.dispatch import kernel_spec

    spec = kernel_spec(rs)
    return _One(
        entry=rs.kernel.score_single,
        args=(spec.opts, spec.minimum, spec.flowers_count_toward_minimum, *suit_table()),
        n_fans=rs.n_fans,
        fans=tuple(rs.fans),
        forms=_form_names(rs),
        check=rs.kernel.check_context,
        spec=rs.spec,
        fan_cache={},
    )


@functools.lru_cache(maxsize=64)
def _one_by_name(name: str) -> _One:
    return _one_of(_resolve(name))


@functools.lru_cache(maxsize=64)
def _one_by_ruleset(rs: Ruleset) -> _One:
    return _one_of(rs)


def _one(ruleset) -> _One:
    if isinstance(ruleset, str):
        return _one_by_name(ruleset)
    return _one_by_ruleset(_resolve(ruleset))


def _text_row(fields: dict) -> np.ndarray:
    """The packed row of parsed hand text (``_parse_fields``, melds sorted)."""
    row = bytearray(fields["concealed"])  # built in place: the cheapest way measured
    melds = fields["melds"]
    for m in melds:
        row += bytes((m.kind, m.tile))
    row += _PAD_BYTES[len(melds)]
    win = fields["win_tile"]
    row.append(_NO_TILE if win is None else win)
    row += bytes(_context_fields(fields))
    return np.frombuffer(bytes(row), np.uint8)  # read-only, as the kernel is compiled for


def _hand_row(hand) -> np.ndarray:
    """The packed row of a Hand."""
    melds = [x for m in hand.melds for x in (m.kind, m.tile)]
    win = hand.win_tile
    tail = [_NO_TILE if win is None else win, *(getattr(hand, name) for name in CONTEXT_FIELDS)]
    try:
        row = hand.concealed.tobytes() + bytes(melds + _PAD[len(melds)] + tail)
    except (AttributeError, IndexError, TypeError, ValueError):
        row = b""  # a Hand changed behind the API's back
    if len(row) != _ROW_SIZE:
        raise _bounds_error(0)
    return np.frombuffer(row, np.uint8)


_PAD = [[0] * (8 - k) for k in range(9)]  # zero meld slots after k meld bytes
_PAD_BYTES = [bytes(8 - 2 * k) for k in range(5)]  # zero meld slots after k melds
_context_fields = operator.itemgetter(*CONTEXT_FIELDS)
# mjstats.kernels.scoring.ROW_SIZE and SETS_SIZE (not imported: that loads the kernels)
_ROW_SIZE = 51
_SETS_SIZE = 32
_ALL_FORMS = 16  # PROBLEM_ALL_FORMS

# name -> (start, stop, shape, dtype) of a field in the packed row
_ROW_FIELDS = {
    "concealed": (0, 34, (1, 34), np.uint8),
    "melds": (34, 42, (1, 4, 2), np.uint8),
    "win_tile": (42, 43, (1,), np.uint8),
    **{name: (43 + k, 44 + k, (1,), np.bool_) for k, name in enumerate(CONTEXT_FIELDS[:4])},
    **{name: (47 + k, 48 + k, (1,), np.uint8) for k, name in enumerate(CONTEXT_FIELDS[4:])},
}


class _RowFields(Mapping):
    """A packed row as the one-row arrays of a batch, made on demand (the
    ``arrays`` that the bindings' ``check_context`` and the messages read)."""

    __slots__ = ("_row",)

    def __init__(self, row: np.ndarray) -> None:
        self._row = row

    def __getitem__(self, name: str) -> np.ndarray:
        lo, hi, shape, dtype = _ROW_FIELDS[name]
        return self._row[lo:hi].view(dtype).reshape(shape)

    def __iter__(self):
        return iter(_ROW_FIELDS)

    def __len__(self) -> int:
        return len(_ROW_FIELDS)


def _raise_problems(problems: int, arrays: _RowFields, fields, hand, one: _One) -> None:
    """The error of a row the kernel refused, in the order of the checks of
    :func:`score_batch` (hand validation, shared context, the ruleset's, bounds)."""

    if problems & PROBLEM_COPIES:  # validation says how (text is not validated as a Hand)
        if fields is not None:
            Hand(**fields)
        else:
            Hand(hand.concealed, hand.melds, hand.win_tile, **_context_of(hand))
    code = problems & PROBLEM_CONTEXT
    if code:
        codes = np.array([code], dtype=np.uint8)
        _raise_context(codes, arrays["concealed"], arrays["win_tile"], batch=False)
    one.check(arrays, batch=False)
    raise _bounds_error(0)


def _context_of(hand) -> dict:
    return {name: getattr(hand, name) for name in CONTEXT_FIELDS}


# --------------------------------------------------------------------------- public


@notice("scorer")  # says so while the first call compiles the scorer
def score(hand_or_text, ruleset="mcr", **context) -> Score:
    """Score one hand.

    Parameters
    ----------
    hand_or_text : Hand or str
        A :class:`~mjstats.Hand` or hand text (``"[123p]55m12379s789p+8s"``;
        see :mod:`mjstats.hand` for the grammar and context keywords).
    ruleset : str or Ruleset
        ``"mcr"`` (default) or a ruleset from :func:`mjstats.rules.get_ruleset`
        with options, e.g. ``get_ruleset("mcr", mingan_gang=False)``.
    **context
        Win context overriding the hand's: ``self_drawn``, ``last_of_kind``,
        ``kong_win``, ``last_of_wall``, ``seat_wind``, ``round_wind`` (0-3 =
        E S W N), ``flowers`` (mask), ``situation``.

    Returns
    -------
    Score
        ``total`` -1 (and no fans) when the hand is not complete.

    Raises
    ------
    InvalidHandError
        Malformed hand text or fields; :class:`~mjstats.errors.InvalidContextError`
        for a context the hand contradicts (see :mod:`mjstats.scorer`).

    Examples
    --------
    >>> import mjstats
    >>> s = mjstats.score("[123p]55m12379s789p+8s")
    >>> s.total, s.legal, [f.zh for f in s.fans]
    (17, True, ['三色双龙会', '坎张'])
    >>> print(mjstats.score("EEE 123m 456p 789s 9m +9m", seat_wind=0, round_wind=0))
    1239m456p789s111z+9m
    regular: 123m 456p 789s 111z 99m
      花龙    Mixed Straight    8
      圈风刻  Prevalent Wind    2
      门风刻  Seat Wind         2
      门前清  Concealed Hand    2
      单钓将  Single Wait       1
      total 15 (legal)

    The two-player ruleset (二人麻将: characters, honours, flowers; situation
    bits 1 天胡, 2 地胡, 4 人胡, 8 报听, 16 天听):

    >>> s = mjstats.score("2233445566778m+8m", ruleset="two-player", flowers=0x11)
    >>> s.total, [f.zh for f in s.fans]
    (93, ['大车轮', '断幺', '花牌', '二五八将', '季花'])
    """
    one = _one(ruleset)
    if isinstance(hand_or_text, str):
        # parse_hand's own grammar and checks, without building the Hand (made
        # on first read of Score.hand); the kernel makes the checks left
        fields = _parse_fields(hand_or_text, **context)
        fields["melds"] = _sorted_melds(fields["melds"])  # in the Hand's order
        row = _text_row(fields)
        hand = None
    elif isinstance(hand_or_text, Hand):
        fields = None
        hand = hand_or_text.replace(**context) if context else hand_or_text
        row = _hand_row(hand)
    else:
        raise InvalidHandError(
            f"score() takes a Hand or hand text, got {type(hand_or_text).__name__}; "
            "for arrays build a HandBatch and use score_batch()"
        )
    out = np.empty(one.n_fans + _SETS_SIZE, dtype=np.uint8)  # fans, then the reading's sets
    problems, total, form, legal = one.entry(row, *one.args, out)
    if problems == _ALL_FORMS:  # a hand that could be a special form: the full entry
        problems, total, form, legal = one.entry(row, *one.args, out, True)
    if problems:
        _raise_problems(problems, _RowFields(row), fields, hand, one)
    one.check(_RowFields(row), batch=False)
    pending = _Pending(one, out, form, fields, row)
    return Score._pending(total, legal, one.forms[form], one.spec, pending, hand)


@notice("scorer")
def score_batch(batch, ruleset="mcr") -> BatchScore:
    """Score N hands in parallel.

    Parameters
    ----------
    batch : HandBatch or sequence of Hand or str
        The hands (a sequence is converted with :meth:`HandBatch.from_hands`).
        Waiting hands (no winning tile) and incomplete hands are allowed: they
        score -1.
    ruleset : str or Ruleset
        As in :func:`score`.

    Returns
    -------
    BatchScore
        ``total`` int16 (N,), ``fan_counts`` uint8 (N, F), ``fans`` table,
        ``legal`` bool (N,), ``form`` uint8 (N,).

    Raises
    ------
    InvalidHandError
        Malformed rows (raised by :class:`HandBatch` validation), or an
        :class:`~mjstats.errors.InvalidContextError` naming the first row whose
        win context the hand contradicts.

    Examples
    --------
    >>> import mjstats
    >>> b = mjstats.HandBatch.from_hands(["[123p]55m12379s789p+8s", "123m456p789s11z22z"])
    >>> r = mjstats.score_batch(b)
    >>> r.total.tolist(), r.legal.tolist(), r.form.tolist()
    ([17, -1], [True, False], [1, 0])
    >>> r.fans.loc[r.fan_counts[0] > 0, "zh"].tolist()
    ['三色双龙会', '坎张']
    """

    rs = _resolve(ruleset)
    if not isinstance(batch, HandBatch):
        if isinstance(batch, str):
            raise InvalidHandError(
                "score_batch() takes a HandBatch or a list of hands; use score() for one hand text"
            )
        batch = HandBatch.from_hands(batch)
    arrays = {name: getattr(batch, name) for name in FIELDS}
    _check_context(
        arrays["concealed"],
        arrays["melds"],
        arrays["win_tile"],
        arrays["self_drawn"],
        arrays["last_of_kind"],
        arrays["kong_win"],
        batch=True,
    )
    rs.kernel.check_context(arrays, batch=True)
    total, fans, form, legal, _ = _run(arrays, rs, want_sets=False)
    return BatchScore(
        total=total,
        fan_counts=fans,
        fans=_fans_frame(rs),
        legal=legal,
        form=form,
        ruleset=rs.spec,
        form_names=_form_names(rs),
        index=batch.index,
        hands=batch,
    )


def score_coerce(batch, bad, ruleset, text_of: Callable[[int], Any]):
    """Score ``batch`` (the good rows of :meth:`~mjstats.HandBatch.from_text` with
    ``errors="coerce"``, its ``bad`` rows beside it), setting aside every row a
    check of the scorer refuses instead of raising.

    ``text_of(position)`` gives the input text of a row (for the bad-rows table).
    Returns ``(scores, batch, bad)``: the :class:`~mjstats.BatchScore` of the rows
    kept, those rows (``index``: their input positions) and all bad rows sorted
    by position. An error that names no rows (a bad ruleset) still raises.
    """
    while True:
        try:
            return score_batch(batch, ruleset), batch, bad
        except InvalidHandError as exc:
            rows = getattr(exc, "rows", None)
            if rows is None or not len(rows):
                raise
            problem_of = exc.problem_of
        at = np.arange(len(batch)) if batch.index is None else np.asarray(batch.index)
        where = at[rows]
        new = bad_rows_frame(
            where, [text_of(int(p)) for p in where], [problem_of(int(r)) for r in rows]
        )
        bad = pd.concat([bad.reset_index(drop=True), new], ignore_index=True)
        bad = bad.sort_values("row", kind="stable", ignore_index=True)
        keep = np.ones(len(batch), dtype=np.bool_)
        keep[rows] = False
        fields = {name: getattr(batch, name)[keep] for name in FIELDS}
        batch = HandBatch._from_valid(fields, index=at[keep])
