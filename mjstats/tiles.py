"""Tile index, tile properties and tile notations.

A tile kind is an integer **tile id** 0-33; a set of tiles is a ``uint8``
vector of 34 **counts** (``counts34``), entry ``t`` = copies of kind ``t`` (0-4):

=====  ==========================  ======  ============  ==============  =======
id     tiles                       MPSZ    letters       Botzone code    Chinese
=====  ==========================  ======  ============  ==============  =======
0-8    characters 1-9              1m-9m                 W1-W9           一万…九万
9-17   dots 1-9                    1p-9p                 B1-B9           一饼…九饼
18-26  bamboo 1-9                  1s-9s                 T1-T9           一条…九条
27-30  East South West North       1z-4z   E S W N       F1-F4           东 南 西 北
31     white dragon                5z      P             J3              白
32     green dragon                6z      F             J2              发
33     red dragon                  7z      C             J1              中
=====  ==========================  ======  ============  ==============  =======

Notations (all parsed by :func:`parse_tiles`, all written by :func:`format_tiles`):

``"mpsz"`` (canonical)
    Digits followed by their suit letter: ``"123m456p789s1122z"``. Honours may
    also be written as the capital letters ``E S W N`` (winds) and ``C F P``
    (中 red, 发 green, 白 white), as in many MCR references: ``"123mEEC"``.
    ``0`` is never a tile (there are no red fives in MCR).
``"botzone"``
    The Botzone / PyMahjongGB codes ``W1 B2 T3 F4 J1``, separated by spaces,
    commas or nothing. Note ``J1`` is the *red* dragon (id 33) and ``J3`` the
    *white* one (id 31).
``"unicode"``
    Glyphs of the Unicode Mahjong Tiles block (U+1F000-U+1F02B), for display.
    The block orders dragons red U+1F004, green U+1F005, white U+1F006, the
    reverse of the tile index.
``"zh"``
    Chinese names: ``一万 九饼 五条 东 白 发 中`` (also 筒/索/萬/餅/條, 東,
    红中, 发财, 白板 when parsing).

Flowers are not tile kinds: a hand carries them as an 8-bit mask, bits 0-3
spring 春, summer 夏, autumn 秋, winter 冬; bits 4-7 plum 梅, orchid 兰,
bamboo 竹, chrysanthemum 菊 (see :func:`parse_flowers`).

Examples
--------
>>> from mjstats.tiles import parse_tiles, format_tiles
>>> counts = parse_tiles("123m EE C")
>>> format_tiles(counts)
'123m117z'
>>> format_tiles(counts, notation="botzone")
'W1 W2 W3 F1 F1 J1'
"""

from __future__ import annotations

import functools
import re

import numpy as np

from mjstats._readonly import read_only
from mjstats.arrays import as_counts34
from mjstats.errors import InvalidHandError, InvalidTileError, TileCountError

__all__ = [
    "BOTZONE_CODES",
    "CHOW_START_MASK",
    "DRAGON_MASK",
    "FLOWER_GLYPHS",
    "FLOWER_NAMES",
    "FLOWER_NAMES_ZH",
    "GREEN_MASK",
    "HONOR_LETTERS",
    "HONOR_MASK",
    "NOTATIONS",
    "NO_TILE",
    "NUMBERED_MASK",
    "N_TILES",
    "RANK_OF",
    "REVERSIBLE_MASK",
    "SUIT_OF",
    "TERMINAL_MASK",
    "TERMINAL_OR_HONOR_MASK",
    "TILES",
    "TILE_GLYPHS",
    "TILE_NAMES_EN",
    "TILE_NAMES_ZH",
    "TILE_TEXT_CHARS",
    "WIND_MASK",
    "counts_to_ids",
    "flower_count",
    "format_flowers",
    "format_tiles",
    "ids_to_counts",
    "is_dragon",
    "is_honor",
    "is_numbered",
    "is_terminal",
    "is_terminal_or_honor",
    "is_wind",
    "parse_flowers",
    "parse_tile",
    "parse_tiles",
    "rank",
    "suit",
]

N_TILES = 34
"""Number of tile kinds."""

NO_TILE = 255
"""Tile id meaning "no tile": the ``win_tile`` of a waiting (13-tile) hand in a batch."""

NOTATIONS = ("mpsz", "botzone", "unicode", "zh")
"""Notations understood by :func:`parse_tiles` and :func:`format_tiles`."""

_SUITS = "mpsz"

TILES: tuple[str, ...] = tuple(f"{r}{s}" for s in "mps" for r in range(1, 10)) + tuple(
    f"{r}z" for r in range(1, 8)
)
"""The 34 tile kinds in MPSZ, in tile-id order: ``TILES[t]`` names tile ``t``."""

HONOR_LETTERS = "ESWNPFC"
"""Letter of each honour, ids 27-33: winds E S W N, then P white, F green, C red."""

BOTZONE_CODES: tuple[str, ...] = (
    tuple(f"W{r}" for r in range(1, 10))
    + tuple(f"B{r}" for r in range(1, 10))
    + tuple(f"T{r}" for r in range(1, 10))
    + ("F1", "F2", "F3", "F4", "J3", "J2", "J1")
)
"""Botzone / PyMahjongGB tile codes in tile-id order (``J1`` = red = id 33)."""

_ZH_DIGITS = "一二三四五六七八九"
TILE_NAMES_ZH: tuple[str, ...] = (
    tuple(f"{d}万" for d in _ZH_DIGITS)
    + tuple(f"{d}饼" for d in _ZH_DIGITS)
    + tuple(f"{d}条" for d in _ZH_DIGITS)
    + ("东", "南", "西", "北", "白", "发", "中")
)
"""Chinese name of each tile kind, in tile-id order."""

TILE_NAMES_EN: tuple[str, ...] = (
    tuple(f"{r} Character" for r in range(1, 10))
    + tuple(f"{r} Dot" for r in range(1, 10))
    + tuple(f"{r} Bamboo" for r in range(1, 10))
    + ("East Wind", "South Wind", "West Wind", "North Wind")
    + ("White Dragon", "Green Dragon", "Red Dragon")
)
"""English name of each tile kind, in tile-id order."""

TILE_GLYPHS: str = (
    "".join(chr(0x1F007 + r) for r in range(9))  # characters
    + "".join(chr(0x1F019 + r) for r in range(9))  # dots (circles)
    + "".join(chr(0x1F010 + r) for r in range(9))  # bamboo
    + "".join(chr(0x1F000 + w) for w in range(4))  # winds E S W N
    + chr(0x1F006)  # white dragon
    + chr(0x1F005)  # green dragon
    + chr(0x1F004)  # red dragon
)
"""Unicode glyph of each tile kind; ``TILE_GLYPHS[t]`` is the glyph of tile ``t``."""

FLOWER_NAMES = ("spring", "summer", "autumn", "winter", "plum", "orchid", "bamboo", "chrysanthemum")
"""Flower of each bit of a flower mask (bit 0 = spring ... bit 7 = chrysanthemum)."""

FLOWER_NAMES_ZH = "春夏秋冬梅兰竹菊"
"""Chinese name of each flower bit."""

FLOWER_GLYPHS = "".join(chr(c) for c in (0x1F026, 0x1F027, 0x1F028, 0x1F029)) + "".join(
    chr(c) for c in (0x1F022, 0x1F023, 0x1F024, 0x1F025)
)
"""Unicode glyph of each flower bit."""


_IDS = np.arange(N_TILES)

SUIT_OF = read_only(np.minimum(_IDS // 9, 3).astype(np.int8))
"""int8 (34,): suit of each tile, 0 characters (m), 1 dots (p), 2 bamboo (s), 3 honours (z)."""

RANK_OF = read_only(np.where(_IDS < 27, _IDS % 9 + 1, _IDS - 26).astype(np.int8))
"""int8 (34,): rank of each tile, 1-9 for numbered tiles, 1-7 for honours (as in ``1z``-``7z``)."""

NUMBERED_MASK = read_only(_IDS < 27)
"""bool (34,): numbered (suited) tiles, ids 0-26."""

HONOR_MASK = read_only(_IDS >= 27)
"""bool (34,): honours (winds and dragons), ids 27-33."""

WIND_MASK = read_only((_IDS >= 27) & (_IDS <= 30))
"""bool (34,): winds, ids 27-30."""

DRAGON_MASK = read_only(_IDS >= 31)
"""bool (34,): dragons, ids 31-33."""

CHOW_START_MASK = read_only(NUMBERED_MASK & (RANK_OF <= 7))
"""bool (34,): tiles that can be the lowest tile of a chow (1-7 of m, p, s)."""

TERMINAL_MASK = read_only(NUMBERED_MASK & ((RANK_OF == 1) | (RANK_OF == 9)))
"""bool (34,): terminals, the 1 and 9 of each suit (幺九 without the honours)."""

TERMINAL_OR_HONOR_MASK = read_only(TERMINAL_MASK | HONOR_MASK)
"""bool (34,): terminals and honours (幺九牌), the 13 kinds of thirteen orphans."""

GREEN_MASK = read_only(np.isin(_IDS, [19, 20, 21, 23, 25, 32]))
"""bool (34,): all-green tiles (绿一色): 2 3 4 6 8 bamboo and the green dragon 发."""

REVERSIBLE_MASK = read_only(np.isin(_IDS, [9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 31]))
"""bool (34,): reversible tiles (推不倒): 1234589 dots, 245689 bamboo, white dragon 白."""


# --------------------------------------------------------------------------- single tiles

_ZH_SUIT = {"万": 0, "萬": 0, "饼": 1, "餅": 1, "筒": 1, "条": 2, "條": 2, "索": 2}
_ZH_HONORS = {
    "东风": 27, "東風": 27, "东": 27, "東": 27,
    "南风": 28, "南風": 28, "南": 28,
    "西风": 29, "西風": 29, "西": 29,
    "北风": 30, "北風": 30, "北": 30,
    "白板": 31, "白": 31,
    "发财": 32, "發財": 32, "发": 32, "發": 32,
    "红中": 33, "紅中": 33, "中": 33,
}  # fmt: skip
_ZH_NAME_TO_ID: dict[str, int] = (
    {f"{d}{s}": 9 * suit_ + i for i, d in enumerate(_ZH_DIGITS) for s, suit_ in _ZH_SUIT.items()}
    | {f"{i + 1}{s}": 9 * suit_ + i for i in range(9) for s, suit_ in _ZH_SUIT.items()}
    | _ZH_HONORS
)

_GLYPH_TO_ID = {g: t for t, g in enumerate(TILE_GLYPHS)}
_FLOWER_GLYPH_TO_BIT = {g: b for b, g in enumerate(FLOWER_GLYPHS)}
_BOTZONE_TO_ID = {c: t for t, c in enumerate(BOTZONE_CODES)}
_VARIATION_SELECTORS = "\ufe0e\ufe0f"


def _check_selector(text: str, i: int, where: str) -> None:
    """Refuse a variation selector (U+FE0E, U+FE0F) at ``text[i]`` unless it follows a
    tile glyph (🀇\ufe0f): after anything else it would hide a typo."""
    ch = text[i]
    if ch in _VARIATION_SELECTORS and (i == 0 or text[i - 1] not in _GLYPH_TO_ID):
        after = f"after {text[i - 1]!r}" if i else "at the start"
        raise InvalidTileError(
            f"variation selector U+{ord(ch):04X} at position {i}{where} {after}: "
            "it may only follow a tile glyph (🀀-🀡)"
        )


def parse_tile(text: str) -> int:
    """Tile id (0-33) of one tile written in any notation.

    Parameters
    ----------
    text : str
        One tile: MPSZ (``"5p"``, ``"7z"``), honour letter (``"E"``, ``"C"``),
        Botzone code (``"B5"``, ``"J1"``), Chinese name (``"五饼"``, ``"中"``) or
        Unicode glyph.

    Returns
    -------
    int
        The tile id.

    Raises
    ------
    InvalidTileError
        If ``text`` is not exactly one tile.

    Examples
    --------
    >>> from mjstats.tiles import parse_tile
    >>> parse_tile("5p"), parse_tile("C"), parse_tile("J1"), parse_tile("中")
    (13, 33, 33, 33)
    """
    if not isinstance(text, str):
        raise InvalidTileError(f"a tile must be given as a string, got {type(text).__name__}")
    counts = parse_tiles(text)
    if counts.sum() != 1:
        raise InvalidTileError(
            f"expected exactly one tile, got {int(counts.sum())} in {text!r}; "
            "write one tile such as '5p', 'E' or 'J1'"
        )
    return int(np.flatnonzero(counts)[0])


def _tile_ids(tile) -> tuple[np.ndarray, bool]:
    """Coerce a tile id, tile name, or array of tile ids to an intp array; flag scalars."""
    if isinstance(tile, str):
        return np.asarray(parse_tile(tile)), True
    try:
        arr = np.asarray(tile)
    except (ValueError, TypeError) as exc:
        raise InvalidTileError(f"tile ids must be integers 0-33: {exc}") from None
    if arr.dtype.kind not in "iu":
        raise InvalidTileError(
            f"tile ids must be integers 0-33 (or one tile name like '5p'), got dtype {arr.dtype}"
        )
    if arr.size and (arr.min() < 0 or arr.max() >= N_TILES):
        bad = arr[(arr < 0) | (arr >= N_TILES)].flat[0]
        raise InvalidTileError(f"tile id {bad} is outside 0-33")
    return arr.astype(np.intp), arr.ndim == 0


def _lookup(table: np.ndarray, tile):
    ids, scalar = _tile_ids(tile)
    out = table[ids]
    return out.item() if scalar else out


def suit(tile):
    """Suit letter of a tile: ``'m'`` characters, ``'p'`` dots, ``'s'`` bamboo, ``'z'`` honours.

    Parameters
    ----------
    tile : int, str or array of int
        Tile id(s) 0-33 or one tile name in any notation.

    Returns
    -------
    str or numpy.ndarray of str
        One letter per tile.

    Examples
    --------
    >>> from mjstats.tiles import suit
    >>> suit(0), suit("5p"), suit(33)
    ('m', 'p', 'z')
    >>> suit([18, 27]).tolist()
    ['s', 'z']
    """
    return _lookup(np.array(list(_SUITS))[SUIT_OF], tile)


def rank(tile):
    """Rank of a tile: 1-9 for numbered tiles, 1-7 for honours (E S W N white green red).

    Examples
    --------
    >>> from mjstats.tiles import rank
    >>> rank("7s"), rank("E"), rank("C")
    (7, 1, 7)
    """
    return _lookup(RANK_OF, tile)


def is_numbered(tile):
    """Whether a tile is a numbered (suited) tile: characters, dots or bamboo.

    Accepts a tile id, a tile name or an array of ids (then returns a bool array).

    Examples
    --------
    >>> from mjstats.tiles import is_numbered
    >>> is_numbered("9s"), is_numbered("E")
    (True, False)
    """
    return _lookup(NUMBERED_MASK, tile)


def is_honor(tile):
    """Whether a tile is an honour (wind or dragon).

    Examples
    --------
    >>> from mjstats.tiles import is_honor
    >>> is_honor("1z"), is_honor(26)
    (True, False)
    >>> is_honor([26, 27]).tolist()
    [False, True]
    """
    return _lookup(HONOR_MASK, tile)


def is_wind(tile):
    """Whether a tile is a wind (East, South, West, North; ids 27-30).

    Examples
    --------
    >>> from mjstats.tiles import is_wind
    >>> is_wind("N"), is_wind("P")
    (True, False)
    """
    return _lookup(WIND_MASK, tile)


def is_dragon(tile):
    """Whether a tile is a dragon (white, green, red; ids 31-33).

    Examples
    --------
    >>> from mjstats.tiles import is_dragon
    >>> is_dragon("5z"), is_dragon("4z")
    (True, False)
    """
    return _lookup(DRAGON_MASK, tile)


def is_terminal(tile):
    """Whether a tile is a terminal: a 1 or 9 of a numbered suit (honours are not).

    Examples
    --------
    >>> from mjstats.tiles import is_terminal
    >>> is_terminal("9p"), is_terminal("E"), is_terminal("5m")
    (True, False, False)
    """
    return _lookup(TERMINAL_MASK, tile)


def is_terminal_or_honor(tile):
    """Whether a tile is a terminal or an honour (幺九牌).

    Examples
    --------
    >>> from mjstats.tiles import is_terminal_or_honor
    >>> is_terminal_or_honor("1m"), is_terminal_or_honor("C"), is_terminal_or_honor("2m")
    (True, True, False)
    """
    return _lookup(TERMINAL_OR_HONOR_MASK, tile)


# --------------------------------------------------------------------------- counts <-> ids


def counts_to_ids(counts) -> np.ndarray:
    """Expand a (34,) count vector into the sorted tile ids it holds.

    Examples
    --------
    >>> from mjstats.tiles import counts_to_ids, parse_tiles
    >>> counts_to_ids(parse_tiles("112m7z")).tolist()
    [0, 0, 1, 33]
    """
    matrix, single = as_counts34(counts)
    if not single:
        raise InvalidHandError("counts_to_ids takes one (34,) count vector, not a matrix")
    return np.repeat(np.arange(N_TILES, dtype=np.uint8), matrix[0])


def ids_to_counts(ids) -> np.ndarray:
    """Count tile ids into a (34,) ``uint8`` vector (the inverse of :func:`counts_to_ids`).

    Raises
    ------
    InvalidTileError
        An id outside 0-33.
    TileCountError
        More than 4 copies of a kind.

    Examples
    --------
    >>> from mjstats.tiles import ids_to_counts, format_tiles
    >>> format_tiles(ids_to_counts([0, 0, 1, 33]))
    '112m7z'
    """
    arr, _ = _tile_ids(ids)
    counts = np.bincount(arr.ravel(), minlength=N_TILES)
    if counts.max(initial=0) > 4:
        t = int(np.argmax(counts))
        raise TileCountError(
            f"{counts[t]} copies of {TILES[t]}: there are only 4 tiles of each kind"
        )
    return counts.astype(np.uint8)


# --------------------------------------------------------------------------- parsing


# --------------------------------------------------------------------------- one grammar

_SUIT_CHARS = {"m": 0, "p": 1, "s": 2, "z": 3} | {ch: s for ch, s in _ZH_SUIT.items()}
_ZH_DIGIT_OF = {d: i for i, d in enumerate(_ZH_DIGITS)}
_BOTZONE_LETTERS = "WBTFJ"
_SEPARATORS = ",，、" + _VARIATION_SELECTORS

TILE_TEXT_CHARS = (
    "0123456789"
    + "".join(_SUIT_CHARS)
    + HONOR_LETTERS
    + "BTJ"
    + _ZH_DIGITS
    + "".join(sorted({ch for name in _ZH_HONORS for ch in name}))
    + TILE_GLYPHS
    + _SEPARATORS
)
"""Every character that tile text in any notation may use (besides whitespace)."""


def _botzone_at(text: str, i: int, stop: int) -> int | None:
    """Tile id of a Botzone code at ``text[i:]``, or None.

    ``W`` and ``F`` are also honour letters (West, green): ``W1`` is the code
    only when no further digit or suit follows (``W1m`` is West and 1m).
    """
    code = text[i : i + 2] if i + 2 <= stop else ""
    t = _BOTZONE_TO_ID.get(code)
    if t is None:
        return None
    nxt = text[i + 2] if i + 2 < stop else ""
    if code[0] in HONOR_LETTERS and nxt and (nxt.isdigit() or nxt in _SUIT_CHARS):
        return None
    return t


def _scan_tiles(
    text: str, start: int = 0, stop: int | None = None, *, where: str = "", only_mpsz: bool = False
):
    """Yield ``(tile_id, position)`` for tiles in any notation, mixed freely.

    The one tile grammar of :func:`parse_tiles` and :func:`~mjstats.parse_hand`
    (``docs/notation.md``): MPSZ digit groups (the suit may also be a Chinese
    suit character, ``5万``), honour letters, Botzone codes, Chinese names and
    Unicode glyphs; whitespace, commas and ``、`` separate. Raises
    :class:`InvalidTileError` naming the bad character and its position.
    ``only_mpsz`` reads MPSZ and honour letters only.
    """
    stop = len(text) if stop is None else stop
    suits = "mpsz" if only_mpsz else _SUIT_CHARS
    separators = "" if only_mpsz else _SEPARATORS
    digits_at = -1  # position of the first pending digit, -1 if none
    pending: list[tuple[int, int]] = []  # (rank, position)
    i = start
    while i < stop:
        ch = text[i]
        if "1" <= ch <= "9":
            if digits_at < 0:
                digits_at = i
            pending.append((int(ch), i))
            i += 1
            continue
        s = _SUIT_CHARS.get(ch) if ch in suits else None
        if s is not None:
            if not pending:
                raise InvalidTileError(
                    f"suit letter {ch!r} at position {i}{where} has no digits before it; "
                    f"write tiles as digits then suit, e.g. '123{ch}'"
                )
            for r, pos in pending:
                if s == 3 and r > 7:
                    raise InvalidTileError(
                        f"'{r}z' at position {pos}{where} is not a tile: honours are 1z-7z "
                        "(E S W N, then 5z white, 6z green, 7z red)"
                    )
                yield 9 * s + r - 1, pos
            pending.clear()
            digits_at = -1
            i += 1
            continue
        if pending:
            if ch.isspace() or ch in "[]{}+" or ch in HONOR_LETTERS or ch in separators:
                break  # digits without a suit, reported below
            raise InvalidTileError(_unexpected(text, i, where))
        if ch.isspace() or ch in separators:
            _check_selector(text, i, where)
            i += 1
            continue
        if ch in _BOTZONE_LETTERS and not only_mpsz:
            t = _botzone_at(text, i, stop)
            if t is not None:
                yield t, i
                i += 2
                continue
            if ch not in HONOR_LETTERS or text[i + 1 : i + 2] == "0":
                raise InvalidTileError(
                    f"unknown Botzone tile code {text[i : i + 2]!r} at position {i}{where}; "
                    "codes are W1-W9 B1-B9 T1-T9 F1-F4 J1-J3"
                )
        if ch in HONOR_LETTERS:
            yield 27 + HONOR_LETTERS.index(ch), i
            i += 1
            continue
        if only_mpsz:
            raise InvalidTileError(_unexpected(text, i, where))
        t = _GLYPH_TO_ID.get(ch)
        if t is not None:
            yield t, i
            i += 1
            continue
        d = _ZH_DIGIT_OF.get(ch)
        if d is not None and i + 1 < stop and text[i + 1] in _ZH_SUIT:
            yield 9 * _ZH_SUIT[text[i + 1]] + d, i
            i += 2
            continue
        name = text[i : i + 2] if i + 2 <= stop and text[i : i + 2] in _ZH_HONORS else ch
        if name in _ZH_HONORS:
            yield _ZH_HONORS[name], i
            i += len(name)
            continue
        raise InvalidTileError(_unexpected(text, i, where))
    if pending:
        run = "".join(str(r) for r, _ in pending)
        raise InvalidTileError(
            f"digits {run!r} at position {digits_at}{where} have no suit letter; "
            "end each group with m, p, s or z (e.g. '123m')"
        )


def _unexpected(text: str, i: int, where: str) -> str:
    """The message for a character no notation reads, with a hint where one helps."""
    ch = text[i]
    if ch == "0":
        return f"'0' at position {i}{where} is not a tile: ranks are 1-9 (MCR has no red fives)"
    if ch == "H" and "1" <= text[i + 1 : i + 2] <= "8":
        return (
            f"{text[i : i + 2]!r} at position {i}{where}: flowers (H1-H8) are not tiles: "
            "give them as a flower mask"
        )
    if ch in _FLOWER_GLYPH_TO_BIT:
        return (
            f"{ch!r} (U+{ord(ch):04X}) at position {i}{where}: flowers are not tiles; "
            "give them as a flower mask"
        )
    if 0x1F000 <= ord(ch) <= 0x1F0FF:
        return f"{ch!r} (U+{ord(ch):04X}) at position {i}{where} is not a mahjong tile glyph"
    if "\u4e00" <= ch <= "\u9fff":
        return (
            f"unknown Chinese tile name at position {i}{where} ({text[i : i + 2]!r}); "
            "write e.g. 一万 五饼 九条 东 白 发 中"
        )
    hint = ""
    if ch in "[]{}+":
        hint = "; melds and '+winning tile' belong to hand text, read by parse_hand"
    elif ch in "MPSZ":
        hint = "; suit letters are lower case: m p s z"
    return f"unexpected {ch!r} at position {i}{where}{hint}"


def read_tile_at(text: str, i: int, stop: int, *, where: str = "") -> tuple[int, int]:
    """Read exactly one tile in any notation at ``text[i:]``: ``(tile_id, end)``.

    One MPSZ tile is a digit and its suit (``8s``, ``5万``). Used for the winning
    tile after ``+`` in hand text.

    Examples
    --------
    >>> from mjstats.tiles import read_tile_at
    >>> read_tile_at("+8s", 1, 3), read_tile_at("+T8", 1, 3), read_tile_at("+八条", 1, 3)
    ((25, 3), (25, 3), (25, 3))
    """
    ch = text[i] if i < stop else ""
    if ch.isdigit() or ch in _ZH_DIGIT_OF or text[i : i + 2] in _ZH_HONORS:
        end = i + 2
    elif ch in _BOTZONE_LETTERS and _botzone_at(text, i, stop) is not None:
        end = i + 2
    else:
        end = i + 1
    end = min(end, stop)
    while end < stop and text[end] in _VARIATION_SELECTORS:
        _check_selector(text, end, where)
        end += 1
    found = list(_scan_tiles(text, i, end, where=where))
    if len(found) != 1:
        raise InvalidTileError(
            f"expected one tile at position {i}{where}, e.g. '+8s', '+E', '+T8' or '+八条'"
        )
    return found[0][0], end


_BOTZONE_TOKEN_RE = re.compile(r"[A-Za-z]+[0-9]*|\S")


def _scan_botzone(text: str):
    for m in _BOTZONE_TOKEN_RE.finditer(text):
        tok = m.group()
        if tok == ",":
            continue
        t = _BOTZONE_TO_ID.get(tok)
        if t is None:
            hint = ""
            if tok.startswith("H"):
                hint = "; flowers (H1-H8) are not tiles: give them as a flower mask"
            elif tok.upper() in _BOTZONE_TO_ID:
                hint = "; codes are upper case"
            raise InvalidTileError(
                f"unknown Botzone tile code {tok!r} at position {m.start()}{hint}; "
                "codes are W1-W9 B1-B9 T1-T9 F1-F4 J1-J3"
            )
        yield t, m.start()


def _scan_unicode(text: str):
    for i, ch in enumerate(text):
        if ch.isspace() or ch in _VARIATION_SELECTORS:
            _check_selector(text, i, "")
            continue
        t = _GLYPH_TO_ID.get(ch)
        if t is None:
            hint = ""
            if ch in _FLOWER_GLYPH_TO_BIT:
                hint = ": flowers are not tiles; give them as a flower mask"
            raise InvalidTileError(
                f"{ch!r} (U+{ord(ch):04X}) at position {i} is not a mahjong tile glyph{hint}"
            )
        yield t, i


def _scan_zh(text: str):
    i = 0
    while i < len(text):
        ch = text[i]
        if ch.isspace() or ch in ",，、":
            i += 1
            continue
        for size in (2, 1):  # names are 1 or 2 characters: longest match first
            t = _ZH_NAME_TO_ID.get(text[i : i + size])
            if t is not None:
                yield t, i
                i += size
                break
        else:
            raise InvalidTileError(
                f"unknown Chinese tile name at position {i} ({text[i : i + 2]!r}); "
                "write e.g. 一万 五饼 九条 东 白 发 中"
            )


_SCANNERS = {
    "mpsz": functools.partial(_scan_tiles, only_mpsz=True),
    "botzone": _scan_botzone,
    "unicode": _scan_unicode,
    "zh": _scan_zh,
}


def _check_notation(notation: str) -> None:
    if notation not in NOTATIONS:
        raise InvalidHandError(
            f"unknown notation {notation!r}; choose one of {', '.join(NOTATIONS)}"
        )


def parse_tiles(text: str, notation: str | None = None) -> np.ndarray:
    """Parse tiles written in any notation into a (34,) count vector.

    Parameters
    ----------
    text : str
        The tiles. Whitespace between tiles or groups is ignored. The empty
        string is no tiles.
    notation : {None, "mpsz", "botzone", "unicode", "zh"}, optional
        Read only this notation. By default every notation is read, mixed
        freely, in the one tile grammar of ``docs/notation.md`` (the same as
        :func:`~mjstats.parse_hand`'s): MPSZ groups, honour letters, Botzone
        codes, Chinese names and Unicode glyphs.

    Returns
    -------
    numpy.ndarray
        ``uint8`` (34,) counts in tile-id order (see :mod:`mjstats.tiles`).

    Raises
    ------
    InvalidTileError
        An unknown tile or character; the message names it and its position.
    TileCountError
        More than 4 copies of one kind.

    See Also
    --------
    format_tiles : the inverse.
    mjstats.parse_hand : a whole hand with melds, winning tile and context.

    Examples
    --------
    >>> from mjstats import parse_tiles
    >>> counts = parse_tiles("123m456p789s11z")
    >>> counts.shape, counts.dtype.name, int(counts.sum())
    ((34,), 'uint8', 11)
    >>> (parse_tiles("W1 W2 W3 B4 B5 B6 T7 T8 T9 F1 F1") == counts).all()
    np.True_
    >>> parse_tiles("123m0p")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mjstats.errors.InvalidTileError: '0' at position 4 is not a tile: ranks are 1-9 ...
    """
    if not isinstance(text, str):
        raise InvalidTileError(f"tiles must be given as a string, got {type(text).__name__}")
    if notation is not None:
        _check_notation(notation)
    scan = _scan_tiles if notation is None else _SCANNERS[notation]
    counts = [0] * N_TILES
    for t, pos in scan(text):
        counts[t] += 1
        if counts[t] > 4:
            raise TileCountError(
                f"a fifth {TILES[t]} at position {pos}: there are only 4 tiles of each kind"
            )
    return np.array(counts, dtype=np.uint8)


# --------------------------------------------------------------------------- formatting


def _format_mpsz(counts: np.ndarray, honor_letters: bool) -> str:
    parts = []
    for s in range(4):
        lo, hi = 9 * s, min(9 * s + 9, N_TILES)
        if s == 3 and honor_letters:
            parts.append("".join(HONOR_LETTERS[t - 27] * counts[t] for t in range(lo, hi)))
            continue
        digits = "".join(str(t - lo + 1) * counts[t] for t in range(lo, hi))
        if digits:
            parts.append(digits + _SUITS[s])
    return "".join(parts)


def format_tiles(counts, notation: str = "mpsz", *, honor_letters: bool = False):
    """Write a (34,) count vector in a tile notation.

    Parameters
    ----------
    counts : array_like
        ``(34,)`` counts (or an ``(N, 34)`` matrix, giving a list of strings).
    notation : {"mpsz", "botzone", "unicode", "zh"}
        ``"mpsz"`` is canonical and compact; ``"botzone"`` and ``"zh"`` are
        space-separated; ``"unicode"`` is a string of glyphs.
    honor_letters : bool
        With ``"mpsz"``, write honours as ``E S W N P F C`` instead of ``1z``-``7z``.

    Returns
    -------
    str or list of str

    Examples
    --------
    >>> from mjstats import format_tiles, parse_tiles
    >>> counts = parse_tiles("19m19p19s1234567z")
    >>> format_tiles(counts)
    '19m19p19s1234567z'
    >>> format_tiles(counts, honor_letters=True)
    '19m19p19sESWNPFC'
    >>> format_tiles(parse_tiles("55m7z"), notation="zh")
    '五万 五万 中'
    >>> format_tiles(parse_tiles("7z"), notation="unicode") == "\\U0001F004"
    True
    """
    _check_notation(notation)
    matrix, single = as_counts34(counts)
    out = []
    for row in matrix.tolist():
        if notation == "mpsz":
            out.append(_format_mpsz(row, honor_letters))
        else:
            names = {"botzone": BOTZONE_CODES, "zh": TILE_NAMES_ZH, "unicode": TILE_GLYPHS}[
                notation
            ]
            tiles = [names[t] for t in range(N_TILES) for _ in range(row[t])]
            out.append(("" if notation == "unicode" else " ").join(tiles))
    return out[0] if single else out


# --------------------------------------------------------------------------- flowers

_FLOWER_ALIASES = {name: b for b, name in enumerate(FLOWER_NAMES)} | {
    "chrys": 7,
    "mum": 7,
}


def flower_count(mask):
    """Number of flowers in a flower mask (its popcount); MCR scores one point each.

    Examples
    --------
    >>> from mjstats.tiles import flower_count
    >>> flower_count(0b10000011)
    3
    >>> flower_count([0, 255]).tolist()
    [0, 8]
    """
    arr = np.asarray(mask)
    if arr.dtype.kind not in "iu" or (arr.size and (arr.min() < 0 or arr.max() > 255)):
        raise InvalidHandError("a flower mask is an integer 0-255 (one bit per flower)")
    out = _POPCOUNT8[arr.astype(np.intp)]
    return int(out) if out.ndim == 0 else out


_POPCOUNT8 = read_only(np.array([bin(v).count("1") for v in range(256)], dtype=np.uint8))


def parse_flowers(text: str) -> int:
    """Parse flowers into an 8-bit mask.

    Parameters
    ----------
    text : str
        One of: a count ``"0"``-``"8"`` (that many flowers, taken in bit order
        spring, summer, ...: the mask ``2**n - 1``); a mask literal ``"0x11"`` or
        ``"0b10001"``; English names separated by ``,`` or ``+``
        (``"spring,plum"``); Chinese names (``"春梅"``); or flower glyphs.

    Returns
    -------
    int
        The mask, bit 0-3 spring summer autumn winter, bit 4-7 plum orchid bamboo
        chrysanthemum.

    Examples
    --------
    >>> from mjstats.tiles import parse_flowers
    >>> parse_flowers("2"), parse_flowers("spring,plum"), parse_flowers("春梅")
    (3, 17, 17)
    >>> parse_flowers("0x11")
    17
    """
    if not isinstance(text, str):
        raise InvalidHandError(f"flowers must be given as a string, got {type(text).__name__}")
    s = text.strip().lower()
    if not s:
        raise InvalidHandError("empty flowers: write a count 0-8, names, or a mask like 0x11")
    if s.isascii() and s.isdigit():  # not '²' (a digit to str.isdigit, not to int)
        n = int(s) if len(s) < 4 else 9  # nor 5000 digits (int() refuses those)
        if n > 8:
            raise InvalidHandError(f"{s[:12]} flowers: there are only 8 flowers")
        return (1 << n) - 1
    if s.startswith(("0x", "0b")):
        try:
            mask = int(s, 0) if len(s) < 40 else 256
        except ValueError:
            raise InvalidHandError(
                f"bad flower mask {text!r}; write e.g. 0x11 or 0b10001"
            ) from None
        if mask > 255:
            raise InvalidHandError(f"flower mask {text!r} is above 0xff (8 flowers)")
        return mask
    mask = 0
    if all(ch in FLOWER_NAMES_ZH or ch in _FLOWER_GLYPH_TO_BIT or ch.isspace() for ch in s):
        bits = [
            FLOWER_NAMES_ZH.index(ch) if ch in FLOWER_NAMES_ZH else _FLOWER_GLYPH_TO_BIT[ch]
            for ch in s
            if not ch.isspace()
        ]
    else:
        bits = []
        for name in re.split(r"[,+\s]+", s):
            if name not in _FLOWER_ALIASES:
                raise InvalidHandError(
                    f"unknown flower {name!r}; flowers are {', '.join(FLOWER_NAMES)} "
                    f"({FLOWER_NAMES_ZH}), or give a count 0-8"
                )
            bits.append(_FLOWER_ALIASES[name])
    for b in bits:
        if mask >> b & 1:
            raise InvalidHandError(f"flower {FLOWER_NAMES[b]} given twice; each flower is unique")
        mask |= 1 << b
    return mask


def format_flowers(mask: int, notation: str = "en") -> str:
    """Write a flower mask as names.

    Parameters
    ----------
    mask : int
        0-255.
    notation : {"en", "zh", "unicode"}
        Comma-separated English names, Chinese characters, or glyphs.

    Examples
    --------
    >>> from mjstats.tiles import format_flowers
    >>> format_flowers(17), format_flowers(17, "zh")
    ('spring,plum', '春梅')
    """
    flower_count(mask)  # validates
    bits = [b for b in range(8) if int(mask) >> b & 1]
    if notation == "en":
        return ",".join(FLOWER_NAMES[b] for b in bits)
    if notation == "zh":
        return "".join(FLOWER_NAMES_ZH[b] for b in bits)
    if notation == "unicode":
        return "".join(FLOWER_GLYPHS[b] for b in bits)
    raise InvalidHandError(f"unknown flower notation {notation!r}; choose en, zh or unicode")
