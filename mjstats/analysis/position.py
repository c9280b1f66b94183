"""A position to analyse: a hand with melds, winds, flowers, the tiles seen and the wall.

A position is either the player's turn (14 tiles, a meld counting 3: choose a
discard or a kong) or another player's discard answered by a 13-tile hand (pass,
chow, pung, kong, win).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from mjstats.errors import InvalidHandError, TileCountError
from mjstats.hand import Hand, Meld, parse_hand
from mjstats.tiles import TILES, format_tiles, parse_tile, parse_tiles
from mjstats.validation import as_counts34

__all__ = [
    "Position",
    "PositionError",
    "move_last_tile_to_plus",
    "position",
    "position_from_counts",
]


class PositionError(TileCountError):
    """A position that cannot occur: a fifth copy across the hand and the seen tiles,
    a discard answered on one's own turn (14 tiles), a wall count out of range.

    Examples
    --------
    >>> position("123m456p789s11334z", discard="5m")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mjstats.analysis.position.PositionError: a discard (5m) is answered with 13 tiles, ...
    """


@dataclass(frozen=True)
class Position:
    """A validated position (see :func:`position`).

    Attributes
    ----------
    concealed : numpy.ndarray
        uint8 (34,) concealed tiles: 14 (a meld counting 3) on the player's turn,
        13 when answering ``discard``.
    melds : numpy.ndarray
        uint8 (4, 2) ``[kind, tile]`` rows (kinds of :class:`mjstats.hand.MeldKind`).
    n_melds : int
    seen : numpy.ndarray
        uint8 (34,) copies visible elsewhere (discards, other players' melds),
        not counting ``discard``.
    wall_left : int
        Draws the player still has (solitaire: the horizon of P(win) and E[points]).
    seat_wind, round_wind : int
        0-3 = East, South, West, North.
    flowers : int
        Flower mask (flowers are never counted towards the 8-fan minimum).
    discard : int
        The tile another player just discarded, or -1 on the player's own turn.
    from_seat : int
        Who discarded it, relative to the player: 1 = the player on the left
        (a chow is allowed), 2 = across, 3 = right; 0 without a discard.
    text : str
        The hand in canonical text.
    """

    concealed: np.ndarray
    melds: np.ndarray
    n_melds: int
    seen: np.ndarray
    wall_left: int
    seat_wind: int
    round_wind: int
    flowers: int
    discard: int
    from_seat: int
    text: str

    @property
    def own_turn(self) -> bool:
        """True for a 14-tile position (choose a discard or a kong)."""
        return self.discard < 0

    def unseen(self) -> np.ndarray:
        """int64 (34,): copies the player cannot see (4 minus the hand, the melds,
        the seen tiles and the discard being answered)."""
        return 4 - _visible(self.concealed, self.melds, self.n_melds, self.seen, self.discard)


_TILE_TOKEN = re.compile(r"[0-9mpsz\[\]{}+]+")
_GROUP = re.compile(r"(\d+)([mpsz])")


def move_last_tile_to_plus(text: str) -> str | None:
    """``'123m...11334z seat=S'`` -> ``'123m...1133z+4z seat=S'`` (None if no plain group).

    A 14-tile hand written without ``+`` reads its last concealed tile as the drawn one.

    Examples
    --------
    >>> move_last_tile_to_plus("[555p]12345m789s119s seat=S")
    '[555p]12345m789s11s+9s seat=S'
    """
    tokens = list(re.finditer(r"\S+", text))
    last = None
    for tok in tokens:
        if not _TILE_TOKEN.fullmatch(tok.group()):
            break
        last = tok
    if last is None:
        return None
    part = last.group()
    best = None
    for m in _GROUP.finditer(part):
        depth = part.count("[", 0, m.start()) + part.count("{", 0, m.start())
        depth -= part.count("]", 0, m.start()) + part.count("}", 0, m.start())
        if depth == 0:
            best = m
    if best is None:
        return None
    digits, suit = best.group(1), best.group(2)
    head = f"{digits[:-1]}{suit}" if len(digits) > 1 else ""
    part = part[: best.start()] + head + part[best.end() :] + f"+{digits[-1]}{suit}"
    return text[: last.start()] + part + text[last.end() :]


def read_hand(hand: Any) -> Hand:
    """A :class:`~mjstats.hand.Hand` from text of 13 tiles or 14 (``+`` before the
    last one optional), or a Hand as it is.

    Examples
    --------
    >>> str(read_hand("123m456p789s11334z"))
    '123m456p789s1133z+4z'
    """
    if isinstance(hand, Hand):
        return hand
    if not isinstance(hand, str):
        raise InvalidHandError(f"hand must be text or a Hand, got {type(hand).__name__}")
    try:
        return parse_hand(hand)
    except TileCountError as exc:
        # a 14-tile hand may omit the '+': read its last concealed tile as the drawn one
        moved = move_last_tile_to_plus(hand) if "+" not in hand else None
        if moved is None:
            raise
        try:
            return parse_hand(moved)
        except InvalidHandError:
            raise exc from None


def _visible(concealed, melds, n_melds, seen, discard) -> np.ndarray:
    vis = concealed.astype(np.int64) + seen
    for kind, tile in melds[:n_melds]:
        if kind == 1:
            vis[tile : tile + 3] += 1
        else:
            vis[tile] += 3 if kind == 2 else 4
    if discard >= 0:
        vis[discard] += 1
    return vis


def position(
    hand: Any,
    seen: Any = None,
    wall_left: int = 10,
    *,
    discard: Any = None,
    from_seat: int = 1,
    seat_wind: Any = None,
    round_wind: Any = None,
    flowers: Any = None,
) -> Position:
    """Read a position: a hand text (or :class:`~mjstats.hand.Hand`) and options.

    Parameters
    ----------
    hand : str or Hand
        14 tiles on the player's turn (``+`` before the drawn tile optional),
        13 with ``discard``; a meld counts 3. Keywords ``seat=``, ``round=``,
        ``flowers=`` set the context (:func:`mjstats.parse_hand`).
    seen : str or array_like, optional
        Tiles visible elsewhere (discards, other players' melds), as text or (34,) counts.
    wall_left : int
        Draws the player still has, 0-136.
    discard : str or int, optional
        Another player's discard the 13-tile hand answers.
    from_seat : int
        Who discarded it: 1 left (chow allowed), 2 across, 3 right.
    seat_wind, round_wind, flowers : optional
        Override the hand's context.

    Raises
    ------
    InvalidHandError
        A malformed hand or seen tiles (subclasses name the problem).
    PositionError
        Wrong size for the kind of position, a fifth copy across the hand, its
        melds, the seen tiles and the discard, or a wall count out of range.

    Examples
    --------
    >>> p = position("123m456p789s11334z", seen="4z", wall_left=8)
    >>> p.own_turn, p.text, int(p.unseen()[30])
    (True, '123m456p789s1133z+4z', 2)
    >>> q = position("[555p]1234m789s11z2z", discard="5m", from_seat=1)
    >>> TILES[q.discard], q.n_melds
    ('5m', 1)
    """
    h = read_hand(hand)
    override = {
        k: v
        for k, v in (("seat_wind", seat_wind), ("round_wind", round_wind), ("flowers", flowers))
        if v is not None
    }
    if override:
        h = h.replace(**override)
    concealed = np.array(h.concealed, dtype=np.uint8)
    size = int(concealed.sum()) + 3 * len(h.melds)
    d = -1
    if discard is not None:
        d = parse_tile(discard) if isinstance(discard, str) else int(discard)
        if not 0 <= d < 34:
            raise PositionError(f"discard {discard!r} is not a tile")
        if size != 13:
            raise PositionError(
                f"a discard ({TILES[d]}) is answered with 13 tiles, this hand holds {size}: "
                "drop the discard option or a tile"
            )
        if from_seat not in (1, 2, 3):
            raise PositionError(
                f"from_seat must be 1 (left), 2 (across) or 3 (right), got {from_seat}"
            )
    elif size != 14:
        raise PositionError(
            f"a position on the player's turn holds 14 tiles (a meld counts 3), this one {size}: "
            "give the discard it answers (discard=...) or the drawn tile"
        )
    if seen is None:
        vis = np.zeros(34, dtype=np.uint8)
    elif isinstance(seen, str):
        vis = parse_tiles(seen) if seen.strip() else np.zeros(34, dtype=np.uint8)
    else:
        vis = np.asarray(as_counts34(seen, name="seen")[0][0], dtype=np.uint8)
    if not isinstance(wall_left, (int, np.integer)) or not 0 <= int(wall_left) <= 136:
        raise PositionError(f"wall_left must be an integer 0-136, got {wall_left!r}")
    melds = np.zeros((4, 2), dtype=np.uint8)
    for i, m in enumerate(h.melds):
        melds[i] = (int(m.kind), m.tile)
    over = np.flatnonzero(_visible(concealed, melds, len(h.melds), vis, d) > 4)
    if len(over):
        names = ", ".join(TILES[t] for t in over)
        raise PositionError(
            f"a fifth copy of {names} across the hand, its melds, the seen tiles and the discard"
        )
    unseen_total = int(136 - _visible(concealed, melds, len(h.melds), vis, d).sum())
    if int(wall_left) > unseen_total:
        raise PositionError(f"wall_left {wall_left} is more than the {unseen_total} unseen tiles")
    text = str(h).split(" ")[0]
    return Position(
        concealed=concealed,
        melds=melds,
        n_melds=len(h.melds),
        seen=vis,
        wall_left=int(wall_left),
        seat_wind=int(h.seat_wind),
        round_wind=int(h.round_wind),
        flowers=int(h.flowers),
        discard=d,
        from_seat=int(from_seat) if d >= 0 else 0,
        text=text,
    )


def position_from_counts(
    concealed,
    melds,
    n_melds: int,
    unseen,
    wall_left: int,
    *,
    discard: int = -1,
    from_seat: int = 1,
    seat_wind: int = 0,
    round_wind: int = 0,
    flowers: int = 0,
) -> Position:
    """A position from arrays, as a game engine's view holds it.

    ``unseen`` (34 counts) are the copies the player cannot see; every other copy
    not in ``concealed``, the ``melds`` or the ``discard`` is seen elsewhere. The
    other arguments are those of :func:`position` (``discard`` a tile id, -1 on the
    player's own turn; ``melds`` (k, 2) ``[kind, tile]`` rows, a chow's lowest tile).

    Raises
    ------
    InvalidHandError
        ``concealed`` is not 34 counts of 0-4 copies.
    PositionError
        Wrong size for the kind of position, ``unseen`` not 34 counts of 0-4, or
        larger than what the hand, its melds and the discard leave of a tile.

    Examples
    --------
    >>> from mjstats.tiles import parse_tiles
    >>> h = parse_tiles("123m456p789s11334z")
    >>> p = position_from_counts(h, [], 0, 4 - h.astype(int), 8)
    >>> p.text, int(p.seen.sum()), p.wall_left
    ('123m456p789s11334z', 0, 8)
    """
    concealed = np.asarray(as_counts34(concealed, name="concealed")[0][0], np.uint8)
    unseen = np.asarray(unseen, np.int64)
    if unseen.shape != (34,) or (unseen < 0).any() or (unseen > 4).any():
        raise PositionError("unseen must be 34 counts of 0-4 copies")
    rows = np.zeros((4, 2), np.uint8)
    n_melds = int(n_melds)
    rows[:n_melds] = np.asarray(melds, np.int64).reshape(-1, 2)[:n_melds]
    discard = int(discard)
    size = int(concealed.sum()) + 3 * n_melds
    if size != (13 if discard >= 0 else 14):
        raise PositionError(
            f"a position holds {14 if discard < 0 else 13} tiles (a meld counting 3) "
            f"{'on the player' + chr(39) + 's turn' if discard < 0 else 'answering a discard'}, "
            f"this one {size}"
        )
    none = np.zeros(34, np.int64)
    seen = 4 - unseen - _visible(concealed, rows, n_melds, none, discard)
    if (seen < 0).any():
        names = ", ".join(TILES[t] for t in np.flatnonzero(seen < 0))
        raise PositionError(f"more unseen copies of {names} than the hand and its melds leave")
    text = "".join(str(Meld(int(k), int(t))) for k, t in rows[:n_melds])
    return Position(
        concealed=concealed.copy(),
        melds=rows,
        n_melds=n_melds,
        seen=seen.astype(np.uint8),
        wall_left=int(wall_left),
        seat_wind=int(seat_wind),
        round_wind=int(round_wind),
        flowers=int(flowers),
        discard=discard,
        from_seat=int(from_seat) if discard >= 0 else 0,
        text=text + format_tiles(concealed),
    )
