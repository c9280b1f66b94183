"""SVG pictures of the tiles, drawn by mjstats, for every HTML view.

One picture per tile kind (ids 0-33), per flower (bits 0-7) and a tile back,
each a ``<symbol>`` inside one shared ``<defs>`` block (:func:`tile_defs`);
a tile on the page is a small ``<svg>`` with a ``<use>`` of its symbol
(:func:`tile_svg`), so a page of a thousand tiles stays small. The design
reads without Chinese: characters are a large red numeral over a small
``m``; dots are blue circles and bamboo green sticks laid out like the real
tiles, with the numeral at the foot; winds are the letters E S W N; the
dragons are coloured shapes (white: a blue frame, green: a green diamond,
red: a red disc); flowers are a blossom with their number (seasons orange,
plants purple). Every tile carries its text form (``1m 1 Character``) as
``<title>`` and ``aria-label``, so a tooltip and a screen reader name it.

Examples
--------
>>> html = tile_defs() + tiles_svg([0, 9, 18, 27, 33])
>>> html.count("<use "), html.count("<symbol ")
(5, 43)
>>> "<title>1m 1 Character</title>" in html
True
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape

from mjstats.tiles import FLOWER_NAMES, N_TILES, TILE_NAMES_EN, TILES

__all__ = ["TILE_CLASS", "flower_svg", "tile_defs", "tile_svg", "tile_title", "tiles_svg"]

TILE_CLASS = "mjt"
"""CSS class of every tile picture (a test counts ``class='mjt'``)."""

_W, _H = 30, 40
_FONT = "font-family='Arial,Helvetica,sans-serif' font-weight='bold' text-anchor='middle'"
_RED, _BLUE, _GREEN, _NAVY = "#b3261e", "#1f5fa8", "#2e7d32", "#1b2a49"
_FACE = (
    f"<rect x='1' y='1' width='{_W - 2}' height='{_H - 2}' rx='4' "
    "fill='#fbf8ee' stroke='#7a7a7a' stroke-width='1.2'/>"
)

# Pip centres (x, y) of the dots and bamboo tiles, rank 1-9, in the upper area
# (y 4..29), the numeral sits at the foot.
_PIPS: tuple[tuple[tuple[float, float], ...], ...] = (
    ((15, 16),),
    ((15, 9), (15, 23)),
    ((8, 8), (15, 16), (22, 24)),
    ((9, 9), (21, 9), (9, 23), (21, 23)),
    ((9, 8), (21, 8), (15, 16), (9, 24), (21, 24)),
    ((10, 7), (20, 7), (10, 16), (20, 16), (10, 25), (20, 25)),
    ((8, 6), (15, 9.5), (22, 13), (10, 19), (20, 19), (10, 26), (20, 26)),
    ((10, 6), (20, 6), (10, 12.5), (20, 12.5), (10, 19), (20, 19), (10, 25.5), (20, 25.5)),
    ((8, 7), (15, 7), (22, 7), (8, 16), (15, 16), (22, 16), (8, 25), (15, 25), (22, 25)),
)
_PIP_R = (6.5, 4.8, 4.0, 4.2, 3.8, 3.6, 3.0, 2.9, 3.1)
_STICK_H = (20, 10, 7.5, 10, 7.5, 7.5, 5.5, 5.5, 7.5)


def _foot(text: str, colour: str) -> str:
    return f"<text x='15' y='37' font-size='9' fill='{colour}' {_FONT}>{text}</text>"


def _character(rank: int) -> str:
    return (
        f"<text x='15' y='24' font-size='21' fill='{_RED}' {_FONT}>{rank}</text>"
        f"<text x='15' y='35' font-size='9' fill='{_RED}' {_FONT}>m</text>"
    )


def _dots(rank: int) -> str:
    r = _PIP_R[rank - 1]
    circles = "".join(
        f"<circle cx='{x}' cy='{y}' r='{r}' fill='none' stroke='{_BLUE}' stroke-width='1.6'/>"
        f"<circle cx='{x}' cy='{y}' r='{r * 0.35:.2f}' fill='{_RED if rank == 1 else _BLUE}'/>"
        for x, y in _PIPS[rank - 1]
    )
    return circles + _foot(str(rank), _BLUE)


def _bamboo(rank: int) -> str:
    h = _STICK_H[rank - 1]
    w = 5 if rank == 1 else 3.4
    sticks = []
    for i, (x, y) in enumerate(_PIPS[rank - 1]):
        colour = _RED if (rank in (5, 9) and x == 15) or (rank == 7 and i == 0) else _GREEN
        sticks.append(
            f"<rect x='{x - w / 2:g}' y='{y - h / 2:g}' width='{w:g}' height='{h:g}' rx='1.4' "
            f"fill='{colour}'/><line x1='{x - w / 2:g}' x2='{x + w / 2:g}' y1='{y:g}' "
            f"y2='{y:g}' stroke='#fbf8ee' stroke-width='0.8'/>"
        )
    return "".join(sticks) + _foot(str(rank), _GREEN)


def _honor(t: int) -> str:
    if t < 31:
        letter = "ESWN"[t - 27]
        return f"<text x='15' y='29' font-size='23' fill='{_NAVY}' {_FONT}>{letter}</text>"
    if t == 31:  # white dragon: an empty blue frame
        return (
            f"<rect x='6' y='8' width='18' height='24' rx='1' fill='none' stroke='{_BLUE}' "
            "stroke-width='2.4'/><rect x='9.5' y='11.5' width='11' height='17' fill='none' "
            f"stroke='{_BLUE}' stroke-width='1'/>"
        )
    if t == 32:  # green dragon: a green diamond
        return (
            f"<path d='M15 6 L25 20 L15 34 L5 20 Z' fill='{_GREEN}'/>"
            "<path d='M15 12 L20.5 20 L15 28 L9.5 20 Z' fill='#fbf8ee'/>"
        )
    return (  # red dragon: a red disc
        f"<circle cx='15' cy='20' r='10' fill='{_RED}'/>"
        "<circle cx='15' cy='20' r='4' fill='#fbf8ee'/>"
    )


def _flower(bit: int) -> str:
    colour = "#d9822b" if bit < 4 else "#7b3f9e"
    petals = "".join(
        f"<circle cx='{15 + 5 * dx:g}' cy='{15 + 5 * dy:g}' r='3.6' fill='{colour}'/>"
        for dx, dy in ((0, -1), (0.95, -0.31), (0.59, 0.81), (-0.59, 0.81), (-0.95, -0.31))
    )
    return (
        petals
        + "<circle cx='15' cy='15' r='2.4' fill='#f4d03f'/>"
        + _foot(str(bit % 4 + 1), colour)
    )


def _body(t: int) -> str:
    suit, rank = divmod(t, 9)
    if suit == 0:
        return _character(rank + 1)
    if suit == 1:
        return _dots(rank + 1)
    if suit == 2:
        return _bamboo(rank + 1)
    return _honor(t)


def _symbol(name: str, body: str) -> str:
    return f"<symbol id='mjt-{name}' viewBox='0 0 {_W} {_H}'>{body}</symbol>"


def _all_symbols() -> str:
    tiles = "".join(_symbol(str(t), _FACE + _body(t)) for t in range(N_TILES))
    flowers = "".join(_symbol(f"f{b}", _FACE + _flower(b)) for b in range(8))
    back = _symbol(
        "back",
        f"<rect x='1' y='1' width='{_W - 2}' height='{_H - 2}' rx='4' fill='#2f6f4f' "
        "stroke='#7a7a7a' stroke-width='1.2'/>",
    )
    return tiles + flowers + back


_DEFS = (
    "<svg xmlns='http://www.w3.org/2000/svg' width='0' height='0' aria-hidden='true' "
    "style='position:absolute;width:0;height:0;overflow:hidden'><defs>"
    + _all_symbols()
    + "</defs></svg>"
)


def tile_defs() -> str:
    """The shared ``<defs>`` block (all 43 symbols, about 11 kB) a page needs once.

    Examples
    --------
    >>> tile_defs().count("<symbol ")
    43
    """
    return _DEFS


def tile_title(t: int) -> str:
    """The text form of tile id ``t`` (0-33): its MPSZ name and English name.

    Examples
    --------
    >>> tile_title(33)
    '7z Red Dragon'
    """
    return f"{TILES[t]} {TILE_NAMES_EN[t]}"


def _use(name: str, title: str, height: int, style: str) -> str:
    width = round(height * _W / _H, 1)
    title = escape(title)
    extra = f" style='{style}'" if style else ""
    return (
        f"<svg class='{TILE_CLASS}' width='{width:g}' height='{height}' viewBox='0 0 {_W} {_H}' "
        f"role='img' aria-label='{title}'{extra}><title>{title}</title>"
        f"<use href='#mjt-{name}' xlink:href='#mjt-{name}'/></svg>"
    )


def tile_svg(t: int, height: int = 32, style: str = "") -> str:
    """One tile picture: an ``<svg>`` using the shared symbol of tile id ``t``.

    Parameters
    ----------
    t : int
        Tile id 0-33.
    height : int
        Height in CSS pixels (the width is 3/4 of it).
    style : str
        Extra inline CSS (e.g. a rotation for a claimed tile).

    Examples
    --------
    >>> tile_svg(0)[:40]
    "<svg class='mjt' width='24' height='32' "
    """
    return _use(str(int(t)), tile_title(int(t)), height, style)


def flower_svg(bit: int, height: int = 32) -> str:
    """One flower picture (bit 0-7 of a flower mask: spring ... chrysanthemum).

    Examples
    --------
    >>> "spring" in flower_svg(0)
    True
    """
    return _use(f"f{int(bit)}", f"flower {FLOWER_NAMES[int(bit)]}", height, "")


def tiles_svg(ids: Iterable[int], height: int = 32, gap: bool = False) -> str:
    """A row of tile pictures, in the order given.

    Examples
    --------
    >>> tiles_svg([1, 2, 3]).count("class='mjt'")
    3
    """
    sep = "&#8201;" if gap else ""
    return (
        "<span style='white-space:nowrap'>" + sep.join(tile_svg(t, height) for t in ids) + "</span>"
    )
