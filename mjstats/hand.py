"""One hand: melds, concealed tiles, the winning tile and the win context; its text grammar.

A :class:`Hand` is what a player shows at the end of a deal: exposed melds
(chows, pungs, kongs), concealed kongs, the concealed tiles **including the
winning tile**, which tile won, and how (self-drawn, last of its kind, on a
kong, last tile of the wall), the winds, the flowers and ruleset situation bits.
A hand without a winning tile is a 13-tile *waiting* hand.

Hand text
---------
One string holds a whole hand; :func:`parse_hand` reads it and ``str(hand)``
writes it back (``parse_hand(str(h)) == h``)::

    [123p]{5555m}55m123s99s+9s self-drawn seat=S flowers=2

**Tiles** are MPSZ: digits then their suit, ``m`` characters (万), ``p`` dots
(饼), ``s`` bamboo (条), ``z`` honours ``1z``-``7z`` = East South West North
white green red. Honours may also be written as letters ``E S W N`` and
``C`` 中 red, ``F`` 发 green, ``P`` 白 white. ``0`` is not a tile. Every other
notation of :mod:`mjstats.tiles` is read too, mixed freely: Botzone codes
(``W1 B5 T9 F1 J1``), Chinese names (``一万 五饼 东 中``) and Unicode glyphs;
``docs/notation.md`` gives the whole grammar once.

**Melds**, anywhere among the tiles (written first in the canonical form):
``[123p]`` an exposed chow (吃, three consecutive numbered tiles of one suit),
``[555p]`` a pung (碰), ``[5555p]`` an exposed kong (明杠), ``{5555p}`` a
concealed kong (暗杠). Concealed chows and pungs are just concealed tiles.

**Winning tile**: ``+`` and one tile, e.g. ``+8s``. The tiles written before
``+`` exclude it (as a player lists a hand and then the tile it won on);
:attr:`Hand.concealed` includes it. Without ``+`` the hand is a waiting hand.

**Size**: concealed tiles + 3 per meld (a kong counts 3) = 14 for a winning
hand (13 before ``+``), 13 for a waiting hand.

**Context keywords** follow the tiles, separated by spaces, in any order.
English ones are case-insensitive and ``_`` may replace ``-``.

- ``self-drawn`` (``tsumo``, ``自摸``): won on the player's own draw. The default
  is a win on a discard; ``discard`` (``ron``, ``点和``) says so explicitly.
- ``last-of-kind`` (``fourth-tile``, ``和绝张``, ``绝张``): the winning tile was
  the last unseen copy of its kind.
- ``kong-win`` (``kong``): won on a kong: the replacement tile if self-drawn
  (杠上开花), robbing a kong otherwise (抢杠和). ``after-kong`` (``杠上开花``)
  also sets self-drawn; ``robbing-kong`` (``抢杠和``, ``抢杠``) also sets discard.
- ``last-of-wall`` (``last-tile``, ``海底``): won on the last tile of the wall.
  ``妙手回春`` also sets self-drawn, ``海底捞月`` discard.
- ``seat=S`` (``seat-wind=``, ``门风=``): the seat wind, written ``E S W N``,
  ``east`` ... ``north``, ``东 南 西 北`` or ``1z``-``4z`` (not digits: in text
  ``seat=1`` would be ambiguous).
- ``round=E`` (``round-wind=``, ``prevalent=``, ``圈风=``): the round
  (prevalent) wind, same values.
- ``flowers=2`` (``flower=``, ``花=``, ``花牌=``): a count 0-8 (n flowers make
  the mask ``2**n - 1``); or names ``flowers=spring,plum`` / ``flowers=春梅``;
  or a mask literal ``flowers=0x11``. Mask bits 0-7: 春夏秋冬梅兰竹菊.
- ``situation=5``: ruleset-specific situation bits, 0-255 (``0x`` allowed).
  The two-player ruleset's bits also have names, which add up:
  ``heavenly-win`` (``天胡``) 1, ``earthly-win`` (``地胡``) 2, ``human-win``
  (``人胡``) 4, ``riichi`` (``报听``, ``立直``) 8, ``heavenly-ready``
  (``天听``) 16; e.g. ``天听 立直`` is ``situation=24``.

Defaults: won on a discard, no special win, seat and round wind East, no
flowers, situation 0. Keywords that contradict each other (``tsumo 抢杠和``)
are an error. :func:`parse_hand` also takes the context as keyword arguments,
which override the text (there ``flowers`` is the mask and winds may be 0-3).

The canonical form written by ``str()`` is: melds (sorted by tile), concealed
tiles without the winning tile in MPSZ, ``+`` winning tile, then only the
non-default keywords, in this order: ``self-drawn last-of-kind kong-win
last-of-wall seat= round= flowers= situation=``. Flowers are written as a
count when the mask is ``2**n - 1``, else as names.

Examples
--------
>>> from mjstats import parse_hand
>>> h = parse_hand("[123p]55m12379s789p+8s")
>>> h.win_tile, len(h.melds), int(h.concealed.sum())
(25, 1, 11)
>>> str(parse_hand("EEE 123m 456p 789s 9m +9m tsumo 门风=南"))
'1239m456p789s111z+9m self-drawn seat=S'
"""

from __future__ import annotations

import dataclasses
import difflib
import operator
import re
from dataclasses import dataclass
from enum import IntEnum
from typing import Any

import numpy as np

from mjstats._readonly import frozen
from mjstats.errors import (
    InvalidContextError,
    InvalidHandError,
    InvalidMeldError,
    InvalidTileError,
    TileCountError,
)
from mjstats.html import hand_html
from mjstats.tiles import (
    BOTZONE_CODES,
    CHOW_START_MASK,
    HONOR_LETTERS,
    N_TILES,
    TILE_TEXT_CHARS,
    TILES,
    _format_mpsz,
    _scan_tiles,
    format_flowers,
    format_tiles,
    ids_to_counts,
    parse_flowers,
    parse_tile,
    read_tile_at,
)
from mjstats.validation import as_hand_arrays, hand_totals34

__all__ = ["CONTEXT_FIELDS", "Hand", "Meld", "MeldKind", "parse_hand"]


class MeldKind(IntEnum):
    """Kind of a meld; the integer is the ``kind`` stored in meld arrays.

    Examples
    --------
    >>> from mjstats.hand import MeldKind
    >>> int(MeldKind.CONCEALED_KONG), MeldKind(1).name
    (4, 'CHOW')
    """

    EMPTY = 0
    """An unused meld slot in a meld array (never a :class:`Meld`)."""
    CHOW = 1
    """Three consecutive numbered tiles of one suit (吃); ``tile`` is the lowest."""
    PUNG = 2
    """Three identical tiles, exposed (碰)."""
    KONG = 3
    """Four identical tiles, exposed (明杠)."""
    CONCEALED_KONG = 4
    """Four identical tiles, concealed (暗杠)."""


_MELD_SIZE = {MeldKind.CHOW: 3, MeldKind.PUNG: 3, MeldKind.KONG: 4, MeldKind.CONCEALED_KONG: 4}
_MELD_WORDS = {"chow": 1, "pung": 2, "kong": 3, "concealed_kong": 4, "concealed kong": 4}


def _as_tile_id(tile: Any, what: str) -> int:
    if isinstance(tile, str):
        return parse_tile(tile)
    if isinstance(tile, bool | np.bool_) or not isinstance(tile, int | np.integer):
        raise InvalidTileError(
            f"{what} must be a tile id 0-33 or a tile name like '5p', got {tile!r}"
        )
    if not 0 <= tile < N_TILES:
        raise InvalidTileError(f"{what} {tile} is not a tile id: ids are 0-33")
    return int(tile)


@dataclass(frozen=True)
class Meld:
    """A chow, pung, exposed kong or concealed kong.

    Parameters
    ----------
    kind : MeldKind or int or str
        ``CHOW`` (1), ``PUNG`` (2), ``KONG`` (3, exposed) or ``CONCEALED_KONG``
        (4); also the names ``"chow"``, ``"pung"``, ``"kong"``, ``"concealed_kong"``.
    tile : int or str
        Tile id 0-33 (or a tile name). For a chow, its **lowest** tile.

    Raises
    ------
    InvalidMeldError
        Unknown kind, ``EMPTY``, or a chow that does not start at 1-7 of a suit.

    Examples
    --------
    >>> from mjstats.hand import Meld, MeldKind
    >>> m = Meld(MeldKind.CHOW, "7s")
    >>> m.tiles(), str(m)
    ((24, 25, 26), '[789s]')
    >>> m
    Meld.chow('7s')
    >>> str(Meld.kong("E", concealed=True))
    '{1111z}'
    """

    kind: MeldKind
    tile: int

    def __post_init__(self) -> None:
        kind = self.kind
        if isinstance(kind, str):
            kind = _MELD_WORDS.get(kind.lower(), kind)
        if isinstance(kind, bool | np.bool_) or not isinstance(kind, int | np.integer):
            raise InvalidMeldError(
                f"meld kind must be a MeldKind (chow, pung, kong, concealed_kong), got {kind!r}"
            )
        if not 1 <= kind <= 4:
            raise InvalidMeldError(
                f"meld kind {int(kind)} is not a meld: kinds are 1 chow, 2 pung, 3 kong, "
                "4 concealed kong (0 marks an empty slot in arrays only)"
            )
        tile = _as_tile_id(self.tile, "meld tile")
        if kind == MeldKind.CHOW and not CHOW_START_MASK[tile]:
            raise InvalidMeldError(
                f"a chow cannot start at {TILES[tile]}: give its lowest tile, 1-7 of m, p or s"
            )
        object.__setattr__(self, "kind", MeldKind(int(kind)))
        object.__setattr__(self, "tile", tile)

    @classmethod
    def chow(cls, tile: int | str) -> Meld:
        """An exposed chow from its lowest tile.

        Examples
        --------
        >>> str(Meld.chow("1m"))
        '[123m]'
        """
        return cls(MeldKind.CHOW, tile)

    @classmethod
    def pung(cls, tile: int | str) -> Meld:
        """An exposed pung.

        Examples
        --------
        >>> str(Meld.pung("C"))
        '[777z]'
        """
        return cls(MeldKind.PUNG, tile)

    @classmethod
    def kong(cls, tile: int | str, *, concealed: bool = False) -> Meld:
        """A kong, exposed by default.

        Examples
        --------
        >>> str(Meld.kong("5p")), str(Meld.kong("5p", concealed=True))
        ('[5555p]', '{5555p}')
        """
        return cls(MeldKind.CONCEALED_KONG if concealed else MeldKind.KONG, tile)

    @property
    def is_kong(self) -> bool:
        """Whether the meld is a kong (exposed or concealed).

        Examples
        --------
        >>> Meld.kong("1m").is_kong, Meld.pung("1m").is_kong
        (True, False)
        """
        return self.kind in (MeldKind.KONG, MeldKind.CONCEALED_KONG)

    @property
    def is_concealed(self) -> bool:
        """Whether the meld is a concealed kong (the only concealed meld).

        Examples
        --------
        >>> Meld.kong("1m", concealed=True).is_concealed, Meld.kong("1m").is_concealed
        (True, False)
        """
        return self.kind == MeldKind.CONCEALED_KONG

    def tiles(self) -> tuple[int, ...]:
        """Tile ids of the meld: 3 for a chow or pung, 4 for a kong.

        Examples
        --------
        >>> Meld.pung("5p").tiles()
        (13, 13, 13)
        """
        if self.kind == MeldKind.CHOW:
            return (self.tile, self.tile + 1, self.tile + 2)
        return (self.tile,) * _MELD_SIZE[self.kind]

    def counts34(self) -> np.ndarray:
        """The meld's tiles as a (34,) ``uint8`` count vector.

        Examples
        --------
        >>> Meld.chow("7p").counts34()[15:18].tolist()
        [1, 1, 1]
        """
        counts = np.zeros(N_TILES, dtype=np.uint8)
        for t in self.tiles():
            counts[t] += 1
        return counts

    def format(self, notation: str = "mpsz") -> str:
        """The meld in a tile notation, ``[...]`` when exposed, ``{...}`` when concealed.

        Examples
        --------
        >>> Meld.pung("5p").format("botzone")
        '[B5 B5 B5]'
        """
        counts = self.counts34()
        body = _format_mpsz(counts, False) if notation == "mpsz" else format_tiles(counts, notation)
        return f"{{{body}}}" if self.is_concealed else f"[{body}]"

    def __str__(self) -> str:
        return self.format()

    def __repr__(self) -> str:
        name = {1: "chow", 2: "pung", 3: "kong", 4: "kong"}[self.kind]
        extra = ", concealed=True" if self.is_concealed else ""
        return f"Meld.{name}({TILES[self.tile]!r}{extra})"


# --------------------------------------------------------------------------- context

CONTEXT_FIELDS = (
    "self_drawn",
    "last_of_kind",
    "kong_win",
    "last_of_wall",
    "seat_wind",
    "round_wind",
    "flowers",
    "situation",
)
"""Names of the win-context fields of a :class:`Hand` (also ``parse_hand`` keyword arguments)."""

_FLAGS = CONTEXT_FIELDS[:4]
_CONTEXT_DEFAULTS = {name: False if name in _FLAGS else 0 for name in CONTEXT_FIELDS}
_WINDS = "ESWN"
_WIND_WORDS = {
    **{w.lower(): i for i, w in enumerate(_WINDS)},
    **{w: i for i, w in enumerate(("east", "south", "west", "north"))},
    **{w: i for i, w in enumerate("东南西北")},
    "東": 0,
    **{f"{i + 1}z": i for i in range(4)},
}

_FLAG_KEYWORDS: dict[str, dict[str, bool]] = {}
for _words, _sets in (
    (("self-drawn", "tsumo", "zimo", "自摸"), {"self_drawn": True}),
    (("discard", "ron", "点和"), {"self_drawn": False}),
    (("last-of-kind", "fourth-tile", "4th-tile", "和绝张", "绝张"), {"last_of_kind": True}),
    (("kong-win", "kong"), {"kong_win": True}),
    (("after-kong", "杠上开花"), {"kong_win": True, "self_drawn": True}),
    (
        ("robbing-kong", "robbing-the-kong", "抢杠和", "抢杠"),
        {"kong_win": True, "self_drawn": False},
    ),
    (("last-of-wall", "last-tile", "海底"), {"last_of_wall": True}),
    (("妙手回春",), {"last_of_wall": True, "self_drawn": True}),
    (("海底捞月",), {"last_of_wall": True, "self_drawn": False}),
):
    for _w in _words:
        _FLAG_KEYWORDS[_w] = _sets

_SITUATION_KEYWORDS: dict[str, int] = {}
for _words, _bit in (
    (("heavenly-win", "天胡"), 1),
    (("earthly-win", "地胡"), 2),
    (("human-win", "人胡"), 4),
    (("riichi", "报听", "立直"), 8),
    (("heavenly-ready", "天听"), 16),
):
    for _w in _words:
        _SITUATION_KEYWORDS[_w] = _bit

_VALUE_KEYWORDS = {
    "seat": "seat_wind",
    "seat-wind": "seat_wind",
    "门风": "seat_wind",
    "round": "round_wind",
    "round-wind": "round_wind",
    "prevalent": "round_wind",
    "prevalent-wind": "round_wind",
    "圈风": "round_wind",
    "flowers": "flowers",
    "flower": "flowers",
    "花": "flowers",
    "花牌": "flowers",
    "situation": "situation",
}
_ALL_KEYWORDS = (
    sorted(_FLAG_KEYWORDS) + sorted(_SITUATION_KEYWORDS) + [f"{k}=" for k in _VALUE_KEYWORDS]
)


def _wind(value: Any, name: str) -> int:
    if isinstance(value, str):
        w = _WIND_WORDS.get(value.strip().lower())
        if w is None:
            raise InvalidContextError(
                f"{name} {value!r} is not a wind: write E, S, W or N (or 0-3)"
            )
        return w
    return _int_field(value, name, 3, "0-3 (0 East, 1 South, 2 West, 3 North)")


def _reference_flag(name: str, value: Any) -> bool:
    """A PyMahjongGB flag: a bool (numpy's too) or the integers 0 and 1, as the
    reference accepts; not ``bool()`` of anything (``'False'`` is not False)."""
    if isinstance(value, bool | np.bool_):
        return bool(value)
    if isinstance(value, int | np.integer) and value in (0, 1):
        return bool(value)
    raise InvalidContextError(f"{name} must be True or False, got {value!r}")


def _int_field(value: Any, name: str, hi: int, help: str) -> int:
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | np.integer):
        raise InvalidContextError(f"{name} must be an integer {help}, got {value!r}")
    if not 0 <= value <= hi:
        raise InvalidContextError(f"{name} must be {help}, got {value}")
    return int(value)


def _flag(value: Any, name: str) -> bool:
    if isinstance(value, bool | np.bool_):
        return bool(value)
    if isinstance(value, int | np.integer) and value in (0, 1):
        return bool(value)
    raise InvalidContextError(f"{name} must be True or False, got {value!r}")


def _coerce_context(name: str, value: Any) -> Any:
    if name in _FLAGS:
        return _flag(value, name)
    if name in ("seat_wind", "round_wind"):
        return _wind(value, name)
    if name == "flowers":
        if isinstance(value, str):
            return parse_flowers(value)
        return _int_field(value, name, 255, "mask 0-255 (bit 0-7: 春夏秋冬梅兰竹菊)")
    return _int_field(value, name, 255, "0-255 (8 ruleset bits)")


# --------------------------------------------------------------------------- Hand


def _meld_tuple(melds: Any) -> tuple[Meld, ...]:
    if melds is None:
        return ()
    if isinstance(melds, Meld | str) or not hasattr(melds, "__iter__"):
        raise InvalidMeldError(
            f"melds must be a sequence of Meld (or (kind, tile) pairs), got {type(melds).__name__}"
        )
    out = []
    for m in melds:
        if isinstance(m, Meld):
            out.append(m)
        elif isinstance(m, tuple | list) and len(m) == 2:
            out.append(Meld(*m))
        elif isinstance(m, np.ndarray) and m.shape == (2,) and m.dtype.kind in "iu":
            out.append(Meld(*m.tolist()))
        else:
            raise InvalidMeldError(f"a meld must be a Meld or a (kind, tile) pair, got {m!r}")
    if len(out) > 4:
        raise InvalidMeldError(f"a hand has at most 4 melds, got {len(out)}")
    return _sorted_melds(out)


_MELD_ORDER = operator.attrgetter("tile", "kind")


def _sorted_melds(melds: list[Meld]) -> tuple[Meld, ...]:
    """Melds in the order a Hand keeps them (by tile, then kind)."""
    return tuple(sorted(melds, key=_MELD_ORDER)) if len(melds) > 1 else tuple(melds)


@dataclass(frozen=True, eq=False)
class Hand:
    """A hand: melds, concealed tiles (including the winning tile) and the win context.

    Hands are immutable and validated on construction; two hands are equal
    when all fields are (melds are kept sorted, so their order does not
    matter). Usually made by :func:`parse_hand`; ``dataclasses.replace`` (or
    :meth:`replace`) makes a changed, re-validated copy.

    Parameters
    ----------
    concealed : array_like
        (34,) counts of the concealed tiles, **including** the winning tile.
    melds : sequence of Meld, optional
        Up to 4 melds (or ``(kind, tile)`` pairs).
    win_tile : int or str or None
        The winning tile (id or name); None for a 13-tile waiting hand.
    self_drawn : bool
        Won on the player's own draw (自摸) rather than on a discard.
    last_of_kind : bool
        The winning tile was the last unseen copy of its kind (和绝张).
    kong_win : bool
        Won on the replacement tile after a kong (杠上开花) if self-drawn,
        by robbing a kong (抢杠和) otherwise.
    last_of_wall : bool
        Won on the last tile of the wall (妙手回春 self-drawn, 海底捞月 otherwise).
    seat_wind, round_wind : int or str
        0 East, 1 South, 2 West, 3 North (or ``"E"``, ``"south"``, ``"西"``...).
    flowers : int or str
        Flower mask 0-255 (bit 0-3 spring summer autumn winter, 4-7 plum orchid
        bamboo chrysanthemum), or a string for :func:`mjstats.tiles.parse_flowers`.
    situation : int
        Ruleset-specific situation bits 0-255.

    Raises
    ------
    InvalidHandError
        Any malformed field (subclasses :class:`~mjstats.errors.InvalidTileError`,
        :class:`~mjstats.errors.InvalidMeldError`,
        :class:`~mjstats.errors.TileCountError`,
        :class:`~mjstats.errors.InvalidContextError` say which kind).

    Examples
    --------
    >>> from mjstats import Hand, Meld, parse_tiles
    >>> h = Hand(parse_tiles("55m12379s789p8s"), melds=[Meld.chow("1p")], win_tile="8s")
    >>> str(h)
    '[123p]55m789p12379s+8s'
    >>> h == parse_hand("[123p]55m12379s789p+8s")
    True
    >>> h.replace(self_drawn=True, seat_wind="S")
    Hand.from_text('[123p]55m789p12379s+8s self-drawn seat=S')
    """

    concealed: np.ndarray
    melds: tuple[Meld, ...] = ()
    win_tile: int | None = None
    self_drawn: bool = False
    last_of_kind: bool = False
    kong_win: bool = False
    last_of_wall: bool = False
    seat_wind: int = 0
    round_wind: int = 0
    flowers: int = 0
    situation: int = 0

    def __post_init__(self) -> None:
        melds = _meld_tuple(self.melds)
        win = None if self.win_tile is None else _as_tile_id(self.win_tile, "win_tile")
        ctx = {name: _coerce_context(name, getattr(self, name)) for name in CONTEXT_FIELDS}
        meld_arr = np.array([[m.kind, m.tile] for m in melds], dtype=np.uint8).reshape(-1, 2)
        arrays = as_hand_arrays(self.concealed, meld_arr, win, **ctx, batch=False)
        object.__setattr__(self, "concealed", frozen(arrays["concealed"][0]))
        object.__setattr__(self, "melds", melds)
        object.__setattr__(self, "win_tile", win)
        for name, value in ctx.items():
            object.__setattr__(self, name, value)

    @classmethod
    def _from_valid(cls, concealed: np.ndarray, melds: tuple[Meld, ...], win_tile, **ctx) -> Hand:
        """Build without validation from fields known to be valid (e.g. a batch row)."""
        h = object.__new__(cls)
        object.__setattr__(h, "concealed", frozen(concealed))
        object.__setattr__(h, "melds", melds)
        object.__setattr__(h, "win_tile", win_tile)
        for name in CONTEXT_FIELDS:
            object.__setattr__(h, name, ctx[name])
        return h

    @classmethod
    def from_text(cls, text: str, **context: Any) -> Hand:
        """Parse hand text; the same as :func:`parse_hand`.

        Examples
        --------
        >>> Hand.from_text("[123p]55m12379s789p+8s").win_tile
        25
        """
        return parse_hand(text, **context)

    # -- identity
    def _key(self) -> tuple:
        return (
            self.concealed.tobytes(),
            self.melds,
            self.win_tile,
            *(getattr(self, name) for name in CONTEXT_FIELDS),
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Hand):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __setstate__(self, state: dict[str, Any]) -> None:
        # unpickling: a pickle can be crafted or damaged, so validate it like new input
        if not isinstance(state, dict) or set(state) != {f.name for f in dataclasses.fields(Hand)}:
            raise InvalidHandError("not a pickled Hand: wrong fields")
        checked = Hand(**state)
        for f in dataclasses.fields(Hand):
            object.__setattr__(self, f.name, getattr(checked, f.name))

    def replace(self, **changes: Any) -> Hand:
        """A copy with some fields changed, validated again.

        Examples
        --------
        >>> from mjstats import parse_hand, parse_tiles
        >>> h = parse_hand("123456789m1p234s")  # waiting
        >>> str(h.replace(concealed=h.concealed + parse_tiles("1p"), win_tile="1p"))
        '123456789m1p234s+1p'
        """
        return dataclasses.replace(self, **changes)

    # -- derived views
    @property
    def is_waiting(self) -> bool:
        """Whether the hand has no winning tile (13 tiles, waiting).

        Examples
        --------
        >>> parse_hand("123456789m1235p").is_waiting, parse_hand("123456789m1235p+5p").is_waiting
        (True, False)
        """
        return self.win_tile is None

    @property
    def n_kongs(self) -> int:
        """Number of kongs, exposed and concealed.

        Examples
        --------
        >>> parse_hand("{1111z}[5555p]123m789s1s+1s").n_kongs
        2
        """
        return sum(m.is_kong for m in self.melds)

    @property
    def is_concealed(self) -> bool:
        """Whether the hand has no exposed meld (concealed kongs keep it concealed).

        Examples
        --------
        >>> parse_hand("{1111z}123m789s123p1s+1s").is_concealed
        True
        """
        return all(m.is_concealed for m in self.melds)

    @property
    def standing34(self) -> np.ndarray:
        """(34,) concealed tiles without the winning tile (the standing hand before the win).

        Examples
        --------
        >>> from mjstats.tiles import format_tiles
        >>> format_tiles(parse_hand("[123p]55m12379s789p+8s").standing34)
        '55m789p12379s'
        """
        out = self.concealed.copy()
        if self.win_tile is not None:
            out[self.win_tile] -= 1
        return out

    @property
    def all_tiles34(self) -> np.ndarray:
        """(34,) counts of every tile of the hand, melds included (a kong counts 4).

        Examples
        --------
        >>> int(parse_hand("{1111z}[123m]123p789s1s+1s").all_tiles34.sum())
        15
        """
        return hand_totals34(self.concealed[None], self._meld_array()[None])[0].astype(np.uint8)

    def _meld_array(self) -> np.ndarray:
        arr = np.zeros((4, 2), dtype=np.uint8)
        for i, m in enumerate(self.melds):
            arr[i] = (m.kind, m.tile)
        return arr

    # -- text
    def _keywords(self) -> list[str]:
        words = [
            word
            for word, name in (
                ("self-drawn", "self_drawn"),
                ("last-of-kind", "last_of_kind"),
                ("kong-win", "kong_win"),
                ("last-of-wall", "last_of_wall"),
            )
            if getattr(self, name)
        ]
        if self.seat_wind:
            words.append(f"seat={_WINDS[self.seat_wind]}")
        if self.round_wind:
            words.append(f"round={_WINDS[self.round_wind]}")
        if self.flowers:
            n = self.flowers.bit_length()
            is_count = self.flowers == (1 << n) - 1
            words.append(f"flowers={n if is_count else format_flowers(self.flowers)}")
        if self.situation:
            words.append(f"situation={self.situation}")
        return words

    def format(self, notation: str = "mpsz") -> str:
        """The hand as text; ``"mpsz"`` is the canonical :func:`parse_hand` form.

        Parameters
        ----------
        notation : {"mpsz", "unicode", "zh", "botzone"}
            Tile notation; :func:`parse_hand` reads every one of them back.

        Examples
        --------
        >>> h = parse_hand("[123p]55m12379s789p+8s")
        >>> h.format() == str(h)
        True
        >>> h.format("botzone")
        '[B1 B2 B3] W5 W5 B7 B8 B9 T1 T2 T3 T7 T9 +T8'
        """
        melds = [m.format(notation) for m in self.melds]
        win = [] if self.win_tile is None else [self.win_tile]
        if notation == "mpsz":
            body = "".join(melds) + _format_mpsz(self.standing34, False)
            body += "".join(f"+{TILES[t]}" for t in win)
        else:
            standing = format_tiles(self.standing34, notation)
            win_text = [f"+{format_tiles(ids_to_counts(win), notation)}"] if win else []
            body = " ".join([*melds, *([standing] if standing else []), *win_text])
        return " ".join([body, *self._keywords()])

    def __str__(self) -> str:
        return self.format()

    def __repr__(self) -> str:
        return f"Hand.from_text({str(self)!r})"

    def _repr_html_(self) -> str:
        return hand_html(self)

    # -- PyMahjongGB
    def to_pymahjonggb(self) -> dict[str, Any]:
        """Keyword arguments for ``MahjongGB.MahjongFanCalculator`` (the reference scorer).

        Chows are given by their middle tile; every meld is marked as claimed
        (offer 1) except a concealed kong (offer 0); ``hand`` holds the standing
        tiles without the winning tile; ``flowerCount`` is the number of flowers.
        The ``situation`` bits have no PyMahjongGB equivalent and are dropped.

        Raises
        ------
        InvalidHandError
            For a waiting hand (PyMahjongGB scores winning hands only).

        Examples
        --------
        >>> kwargs = parse_hand("[123p]55m12379s789p+8s self-drawn flowers=2").to_pymahjonggb()
        >>> kwargs["pack"], kwargs["winTile"], kwargs["flowerCount"], kwargs["isSelfDrawn"]
        ((('CHI', 'B2', 1),), 'T8', 2, True)
        """
        if self.win_tile is None:
            raise InvalidHandError(
                "a waiting hand has no winning tile; PyMahjongGB scores winning hands only"
            )
        pack = tuple(
            (
                _PACK_NAME[m.kind],
                BOTZONE_CODES[m.tile + (m.kind == MeldKind.CHOW)],
                0 if m.is_concealed else 1,
            )
            for m in self.melds
        )
        standing = self.standing34
        return {
            "pack": pack,
            "hand": tuple(BOTZONE_CODES[t] for t in range(N_TILES) for _ in range(standing[t])),
            "winTile": BOTZONE_CODES[self.win_tile],
            "flowerCount": self.flowers.bit_count(),
            "isSelfDrawn": self.self_drawn,
            "is4thTile": self.last_of_kind,
            "isAboutKong": self.kong_win,
            "isWallLast": self.last_of_wall,
            "seatWind": self.seat_wind,
            "prevalentWind": self.round_wind,
        }

    @classmethod
    def from_pymahjonggb(
        cls,
        pack,
        hand,
        winTile,
        flowerCount=0,
        isSelfDrawn=False,
        is4thTile=False,
        isAboutKong=False,
        isWallLast=False,
        seatWind=0,
        prevalentWind=0,
        verbose=False,
    ) -> Hand:
        """A hand from ``MahjongGB.MahjongFanCalculator`` arguments (positional or keyword).

        A ``CHI``/``PENG`` pack with offer 0 is a concealed chow/pung to the
        reference scorer; here its tiles join the concealed tiles. ``GANG`` with
        offer 0 is a concealed kong, otherwise exposed. ``flowerCount`` n becomes
        the mask ``2**n - 1``. ``verbose`` is accepted and ignored.

        Examples
        --------
        >>> h = Hand.from_pymahjonggb((("CHI", "B2", 1),), ("W5", "W5", "T1", "T2", "T3",
        ...     "T7", "T9", "B7", "B8", "B9"), "T8", 0, False, False, False, False, 0, 0)
        >>> str(h)
        '[123p]55m789p12379s+8s'
        >>> Hand.from_pymahjonggb(**h.to_pymahjonggb()) == h
        True
        """
        if not isinstance(pack, tuple | list):
            raise InvalidMeldError(f"pack must be a tuple of (type, tile, offer), got {pack!r}")
        if not isinstance(hand, tuple | list):
            raise InvalidTileError(f"hand must be a tuple of tile codes, got {hand!r}")
        codes = [*hand, winTile]
        melds = []
        for p in pack:
            if not isinstance(p, tuple | list) or len(p) != 3:
                raise InvalidMeldError(f"a pack is (type, tile, offer), got {p!r}")
            kind_name, code, offer = p
            kind = _PACK_KIND.get(kind_name) if isinstance(kind_name, str) else None
            if kind is None:
                raise InvalidMeldError(f"pack type {kind_name!r} is not CHI, PENG or GANG")
            if (
                isinstance(offer, bool)
                or not isinstance(offer, int | np.integer)
                or not 0 <= offer <= 3
            ):
                raise InvalidMeldError(f"pack offer {offer!r} is not 0-3")
            tile = _botzone_tile(code)
            if kind == MeldKind.CHOW:
                if not 1 <= tile <= 33 or not CHOW_START_MASK[tile - 1]:
                    raise InvalidMeldError(
                        f"CHI {code}: a chow is given by its middle tile, 2-8 of a suit"
                    )
                tile -= 1
            if offer == 0 and kind != MeldKind.KONG:  # concealed chow or pung: hand tiles
                codes += [BOTZONE_CODES[t] for t in Meld(kind, tile).tiles()]
            else:
                is_ck = kind == MeldKind.KONG and offer == 0
                melds.append(Meld(MeldKind.CONCEALED_KONG if is_ck else kind, tile))
        counts = np.zeros(N_TILES, dtype=np.int64)
        for code in codes:
            counts[_botzone_tile(code)] += 1
        if isinstance(flowerCount, bool) or not isinstance(flowerCount, int | np.integer):
            raise InvalidContextError(f"flowerCount must be an integer 0-8, got {flowerCount!r}")
        if not 0 <= flowerCount <= 8:
            raise InvalidContextError(f"flowerCount must be 0-8, got {flowerCount}")
        return cls(
            counts,
            melds,
            _botzone_tile(winTile),
            self_drawn=_reference_flag("isSelfDrawn", isSelfDrawn),
            last_of_kind=_reference_flag("is4thTile", is4thTile),
            kong_win=_reference_flag("isAboutKong", isAboutKong),
            last_of_wall=_reference_flag("isWallLast", isWallLast),
            seat_wind=seatWind,
            round_wind=prevalentWind,
            flowers=(1 << int(flowerCount)) - 1,
        )


_PACK_NAME = {MeldKind.CHOW: "CHI", MeldKind.PUNG: "PENG", MeldKind.KONG: "GANG"}
_PACK_NAME[MeldKind.CONCEALED_KONG] = "GANG"
_PACK_KIND = {"CHI": MeldKind.CHOW, "PENG": MeldKind.PUNG, "GANG": MeldKind.KONG}
_BOTZONE_ID = {c: t for t, c in enumerate(BOTZONE_CODES)}


def _botzone_tile(code: Any) -> int:
    t = _BOTZONE_ID.get(code) if isinstance(code, str) else None
    if t is None:
        raise InvalidTileError(
            f"{code!r} is not a PyMahjongGB tile code (W1-W9 B1-B9 T1-T9 F1-F4 J1-J3)"
        )
    return t


# --------------------------------------------------------------------------- parsing

_WORDS = re.compile(r"\S+")
# a whitespace-separated token made only of these characters is tiles, else a keyword
_TILE_TOKEN = re.compile("[" + re.escape(TILE_TEXT_CHARS) + r"\[\]{}+]+")


def _meld(kind: MeldKind, tile: int) -> Meld:
    """A Meld of a kind and tile known to be valid, without re-checking them."""
    m = object.__new__(Meld)
    object.__setattr__(m, "kind", kind)
    object.__setattr__(m, "tile", tile)
    return m


def _classify_meld(ids: list[int], concealed: bool, text: str, pos: int) -> Meld:
    ids = sorted(ids)
    if len(ids) == 4 and len(set(ids)) == 1:
        return _meld(MeldKind.CONCEALED_KONG if concealed else MeldKind.KONG, ids[0])
    if concealed:
        raise InvalidMeldError(
            f"{text!r} at position {pos}: braces hold a concealed kong of 4 identical tiles "
            "({5555p}); write other concealed tiles without brackets"
        )
    if len(ids) == 3 and len(set(ids)) == 1:
        return _meld(MeldKind.PUNG, ids[0])
    if len(ids) == 3 and ids[1] == ids[0] + 1 and ids[2] == ids[0] + 2 and CHOW_START_MASK[ids[0]]:
        return _meld(MeldKind.CHOW, ids[0])
    raise InvalidMeldError(
        f"{text!r} at position {pos} is not a meld: write a chow of three consecutive numbered "
        "tiles of one suit [123p], a pung [555p], a kong [5555p] or a concealed kong {5555p}"
    )


def _parse_tile_section(text: str, stop: int):
    """Parse ``text[:stop]`` into (standing tile ids with positions, melds, win tile)."""
    standing: list[tuple[int, int]] = []
    melds: list[Meld] = []
    win: tuple[int, int] | None = None
    i = 0
    while i < stop:
        ch = text[i]
        if ch in "[{":
            close = "]" if ch == "[" else "}"
            j = i + 1
            while j < stop and text[j] not in "[]{}+":
                j += 1
            if j >= stop or text[j] != close:
                raise InvalidMeldError(
                    f"{ch!r} at position {i} is not closed by {close!r}; "
                    "write melds as [123p], [555p], [5555p] or {5555p}"
                )
            ids = [t for t, _ in _scan_tiles(text, i + 1, j, where=" (in a meld)")]
            melds.append(_classify_meld(ids, ch == "{", text[i : j + 1], i))
            i = j + 1
        elif ch in "]}":
            raise InvalidMeldError(f"{ch!r} at position {i} closes no meld")
        elif ch == "+":
            if win is not None:
                raise InvalidTileError(f"a second '+' at position {i}: a hand has one winning tile")
            j = i + 1
            while j < stop and text[j].isspace():
                j += 1
            if j >= stop or text[j] in "[]{}+" or text[j : j + 2].isdigit():
                raise InvalidTileError(
                    f"'+' at position {i} must be followed by exactly one tile, e.g. '+8s' or '+E'"
                )
            t, end = read_tile_at(text, j, stop, where=" (the winning tile)")
            win = (t, j)
            i = end
        else:
            j = i
            while j < stop and text[j] not in "[]{}+":
                j += 1
            standing.extend(_scan_tiles(text, i, j))
            i = j
    return standing, melds, win


def _parse_keywords(text: str, tokens: list[re.Match]) -> dict[str, Any]:
    ctx: dict[str, Any] = {}
    said: dict[str, str] = {}
    named_bits = 0  # situation bits given by name (they add up)

    def put(name: str, value: Any, tok: str) -> None:
        if name in ctx and ctx[name] != value:
            raise InvalidContextError(f"{tok!r} contradicts {said[name]!r} (both set {name})")
        ctx[name] = value
        said[name] = tok

    for m in tokens:
        tok, pos = m.group(), m.start()
        if _TILE_TOKEN.fullmatch(tok):
            raise InvalidHandError(
                f"tiles {tok!r} at position {pos} come after the context keywords; "
                "write all tiles first"
            )
        key, eq, value = tok.partition("=")
        norm = key.lower().replace("_", "-")
        if not eq:
            if norm in _SITUATION_KEYWORDS:
                named_bits |= _SITUATION_KEYWORDS[norm]
                continue
            sets = _FLAG_KEYWORDS.get(norm)
            if sets is None:
                _unknown_keyword(tok, pos)
            for name, v in sets.items():
                put(name, v, tok)
            continue
        name = _VALUE_KEYWORDS.get(norm)
        if name is None:
            _unknown_keyword(tok, pos)
        if not value:
            raise InvalidContextError(
                f"{tok!r} at position {pos} has no value; write e.g. seat=S, flowers=2"
            )
        if name == "situation":
            try:
                v = int(value, 0)
            except ValueError:
                raise InvalidContextError(
                    f"{tok!r} at position {pos}: situation is a number 0-255 (or 0x..)"
                ) from None
        elif name == "flowers":
            v = parse_flowers(value)
        else:
            if value.isdigit():
                raise InvalidContextError(
                    f"{tok!r} at position {pos}: write winds as letters E, S, W, N "
                    "(numbers are ambiguous in text)"
                )
            v = value
        put(name, _coerce_context(name, v), tok)
    if named_bits:
        ctx["situation"] = ctx.get("situation", 0) | named_bits
    return ctx


def _unknown_keyword(tok: str, pos: int) -> None:
    key = tok.partition("=")[0].lower().replace("_", "-")
    close = difflib.get_close_matches(key, [k.rstrip("=") for k in _ALL_KEYWORDS], n=2)
    hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
    raise InvalidContextError(
        f"unknown keyword {tok!r} at position {pos}{hint} Known keywords: "
        "self-drawn, last-of-kind, kong-win, after-kong, robbing-kong, last-of-wall, "
        "seat=, round=, flowers=, situation= (and Chinese ones, see mjstats.hand)"
    )


def parse_hand(text: str, **context: Any) -> Hand:
    """Parse hand text (melds, concealed tiles, ``+`` winning tile, context keywords).

    The grammar is described in :mod:`mjstats.hand` and the README. In short:
    ``[123p]`` chow, ``[555p]`` pung, ``[5555p]`` exposed kong, ``{5555p}``
    concealed kong, MPSZ concealed tiles, ``+8s`` the winning tile (not written
    among the concealed tiles), then keywords such as ``self-drawn seat=S
    flowers=2``. Without ``+`` the hand is a 13-tile waiting hand.

    Parameters
    ----------
    text : str
        The hand.
    **context
        Context fields that override (or complete) the keywords: ``self_drawn``,
        ``last_of_kind``, ``kong_win``, ``last_of_wall`` (bool), ``seat_wind``,
        ``round_wind`` (0-3 or ``"E"``...), ``flowers`` (mask 0-255),
        ``situation`` (0-255).

    Returns
    -------
    Hand

    Raises
    ------
    InvalidHandError
        Malformed text; the message names the bad part and its position.
    TypeError
        An unknown keyword argument.

    Examples
    --------
    >>> from mjstats import parse_hand
    >>> h = parse_hand("[123p]55m12379s789p+8s 自摸 seat=W", flowers=0b11)
    >>> h.self_drawn, h.seat_wind, h.flowers
    (True, 2, 3)
    >>> parse_hand("123456789m1235p").is_waiting
    True
    >>> parse_hand("123456789m12355p")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mjstats.errors.TileCountError: '123456789m12355p' holds 14 tiles but no winning tile: ...
    """
    return Hand(**_parse_fields(text, **context))


def _parse_fields(text: str, **context: Any) -> dict[str, Any]:
    """Parse hand text into Hand keyword arguments, checking the text but not the hand.

    The text-level checks (syntax, a fifth copy among the written tiles, the size
    of the written hand) happen here, with positions; the remaining checks (copies
    counting the melds) are left to :func:`~mjstats.validation.as_hand_arrays`, so
    that :meth:`mjstats.HandBatch.from_hands` can run them on all rows at once.
    Common, valid text takes :func:`_fast_fields`; anything else, and every
    error, the full grammar.
    """
    if not isinstance(text, str):
        raise InvalidHandError(f"hand text must be a string, got {type(text).__name__}")
    unknown = set(context) - set(CONTEXT_FIELDS) if context else ()
    if unknown:
        raise TypeError(
            f"parse_hand() got unexpected keyword argument(s) {sorted(unknown)}; "
            f"context arguments are {', '.join(CONTEXT_FIELDS)}"
        )
    fast = _fast_fields(text) if text.isascii() else None
    if fast is None:
        return _grammar_fields(text, context)
    counts, melds, win_tile, ctx = fast
    if context:
        ctx.update({name: _coerce_context(name, value) for name, value in context.items()})
    out = {"concealed": counts, "melds": melds, "win_tile": win_tile, **_CONTEXT_DEFAULTS}
    out.update(ctx)  # in CONTEXT_FIELDS order, as _grammar_fields
    return out


def _grammar_fields(text: str, context: dict[str, Any]) -> dict[str, Any]:
    """:func:`_parse_fields` by the full grammar (arguments already checked)."""
    tokens = list(_WORDS.finditer(text))
    first_kw = next((k for k, m in enumerate(tokens) if not _TILE_TOKEN.fullmatch(m.group())), None)
    stop = len(text) if first_kw is None else tokens[first_kw].start()
    first = tokens[first_kw].group() if first_kw is not None else ""
    key = first.partition("=")[0].lower().replace("_", "-")
    if first and first[0] in "0123456789[{+" and key not in _FLAG_KEYWORDS:  # 4th-tile: a keyword
        # looks like tiles with a typo ("123x"): report it as tiles
        _parse_tile_section(text, tokens[first_kw].end())
    standing, melds, win = _parse_tile_section(text, stop)
    ctx = _parse_keywords(text, tokens[first_kw:] if first_kw is not None else [])
    if context:
        ctx.update({name: _coerce_context(name, value) for name, value in context.items()})

    counts = [0] * N_TILES
    for t, pos in standing + ([win] if win else []):
        counts[t] += 1
        if counts[t] > 4:
            raise TileCountError(
                f"a fifth {TILES[t]} at position {pos}: there are only 4 tiles of each kind"
            )
    if len(melds) > 4:
        raise InvalidMeldError(f"{len(melds)} melds: a hand has at most 4")
    size = len(standing) + 3 * len(melds)
    tiles_text = text[:stop].strip()
    if win is None and size != 13:
        extra = (
            f"; mark the winning tile with '+', e.g. '...+{TILES[standing[-1][0]]}'"
            if size == 14 and standing
            else ""
        )
        raise TileCountError(
            f"{tiles_text!r} holds {size} tiles but no winning tile: a waiting hand has 13 "
            f"(a meld counts 3){extra}"
        )
    if win is not None and size != 13:
        raise TileCountError(
            f"{tiles_text!r} holds {size} tiles before the '+': a winning hand has 13 "
            "plus the winning tile (a meld counts 3, a kong too)"
        )
    ctx = {**_CONTEXT_DEFAULTS, **ctx}  # in CONTEXT_FIELDS order
    win_tile = None if win is None else win[0]
    return {"concealed": counts, "melds": melds, "win_tile": win_tile, **ctx}


# --------------------------------------------------------------------------- fast path
# score(text) parses one hand a call, so the common case (ASCII MPSZ digit groups,
# honour letters, melds, '+', keywords) is read by one direct scan of bytes
# instead of the grammar's per-tile generators. It is no second grammar: it reads
# only digit groups and honour letters itself, takes each meld and keyword from a
# cache that the grammar fills (a meld or a keyword token read alone means the
# same anywhere in the text), and returns None on anything else and on every
# error, so that the grammar reads the text and words the error.
# tests/test_hand.py checks that both agree on valid and mutated text.

_FAST_SUIT = {ord(ch): 9 * s - ord("1") for s, ch in enumerate("mpsz")}  # + digit byte = id
_FAST_Z = 27 - ord("1")
# W and F are also Botzone letters, but the code W1 is read only when no digit or
# suit follows the 1, and then the fast path finds a digit group without a suit
_FAST_HONOR = {ord(ch): 27 + i for i, ch in enumerate(HONOR_LETTERS)}
_OPEN = {ord("["): "]", ord("{"): "}"}
_CACHE_SIZE = 4096  # entries of each cache; beyond, new words take the grammar every time
_KEYWORD_CACHE: dict[str, dict[str, Any]] = {}  # keyword token -> its context fields
_MELD_CACHE: dict[str, Meld] = {}  # "[123p]" -> its Meld


def _keyword_of(word: str) -> dict[str, Any] | None:
    """The context fields of one keyword token by the grammar (cached); None if not one."""
    if _TILE_TOKEN.fullmatch(word):
        return None
    try:
        kw = _parse_keywords(word, [_WORDS.match(word)])
    except Exception:  # the grammar says what is wrong, in the text's terms
        return None
    if len(_KEYWORD_CACHE) < _CACHE_SIZE:
        _KEYWORD_CACHE[word] = kw
    return kw


def _meld_of(key: str) -> Meld | None:
    """The Meld of ``[...]`` or ``{...}`` alone by the grammar (cached); None if not one."""
    try:  # a bracket or '+' inside is an error of the scan, as of the grammar
        ids = [t for t, _ in _scan_tiles(key, 1, len(key) - 1, where=" (in a meld)")]
        m = _classify_meld(ids, key[0] == "{", key, 0)
    except InvalidHandError:
        return None
    if len(_MELD_CACHE) < _CACHE_SIZE:
        _MELD_CACHE[key] = m
    return m


def _fast_fields(text: str):
    """``(counts, melds, win_tile, context)`` of common valid ASCII hand text, else None.

    Whitespace splits the text into the words of :data:`_WORDS`; a word of
    tiles here must be complete (no open meld, '+' or digit group at its end),
    so the grammar's scan, which only skips whitespace between such words,
    reads the same.
    """
    counts = [0] * N_TILES
    melds: list[Meld] = []
    win = None
    size = 0  # standing tiles
    ctx = None  # the keywords' fields, once the first keyword is seen
    for word in text.split():
        if ctx is not None:
            kw = _KEYWORD_CACHE.get(word) or _keyword_of(word)
            if kw is None or not ctx.keys().isdisjoint(kw):  # the grammar merges or refuses
                return None
            ctx.update(kw)
            continue
        kw = _KEYWORD_CACHE.get(word)
        if kw is not None:
            if word[0] in "0123456789[{+":  # the grammar reads it as tiles first
                return None
            ctx = dict(kw)
            continue
        b = word.encode()
        n = len(b)
        i = 0
        digits = -1  # start of the pending digit group
        while i < n:
            c = b[i]
            if 49 <= c <= 57:  # 1-9
                if digits < 0:
                    digits = i
                i += 1
                continue
            if digits >= 0:
                off = _FAST_SUIT.get(c)
                group = b[digits:i]
                if off is None or (off == _FAST_Z and max(group) > 55):  # no suit, 8z, 9z
                    return None
                for d in group:
                    counts[d + off] += 1
                size += i - digits
                digits = -1
                i += 1
                continue
            t = _FAST_HONOR.get(c)
            if t is not None:
                counts[t] += 1
                size += 1
                i += 1
                continue
            close = _OPEN.get(c)
            if close is not None:
                j = word.find(close, i + 1)
                if j < 0:
                    return None
                key = word[i : j + 1]
                m = _MELD_CACHE.get(key) or _meld_of(key)
                if m is None:
                    return None
                melds.append(m)
                i = j + 1
                continue
            if c != 43 or win is not None or i + 1 >= n:  # not a first '+' and a tile
                _keyword_of(word)  # if it is a new keyword: cached for the next text
                return None
            c = b[i + 1]
            if 49 <= c <= 57:
                off = _FAST_SUIT.get(b[i + 2]) if i + 2 < n else None
                if off is None or (off == _FAST_Z and c > 55):
                    return None
                win = c + off
                i += 3
            else:
                win = _FAST_HONOR.get(c)
                if win is None:
                    return None
                i += 2
            counts[win] += 1
        if digits >= 0:
            return None
    if size + 3 * len(melds) != 13 or max(counts) > 4:  # (5 melds are 15 tiles)
        return None
    return counts, melds, win, {} if ctx is None else ctx
