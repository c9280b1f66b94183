"""Readings of a complete hand, for people: every way to split it into its parts.

:func:`decompose` lists the special forms a complete hand takes (seven pairs,
thirteen orphans, honours and knitted, knitted straight, nine gates) and every
regular decomposition (four sets and a pair, the melds fixed). Regular
decompositions come in the reference scorer's order (see
:mod:`mjstats.kernels.decompose`), which is also the order in which the MCR
scorer breaks ties between equal totals.

The scorer does not use this module: it runs the same kernels on arrays.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mjstats.errors import InvalidHandError
from mjstats.hand import Hand, parse_hand
from mjstats.kernels.decompose import (
    KNITTED,
    MAX_DECOMPOSITIONS,
    enumerate_regular,
    honors_knitted_kind,
    is_nine_gates,
    is_seven_pairs,
    is_seven_shifted_pairs,
    is_thirteen_orphans,
    knitted_body,
    suit_table,
)
from mjstats.tiles import format_tiles, parse_tiles
from mjstats.validation import as_counts34

__all__ = ["Reading", "decompose"]


@dataclass(frozen=True)
class Reading:
    """One reading of a complete hand.

    Attributes
    ----------
    form : str
        ``"regular"``, ``"seven_pairs"``, ``"seven_shifted_pairs"``,
        ``"thirteen_orphans"``, ``"honors_knitted"``, ``"greater_honors_knitted"``,
        ``"knitted_straight"`` or ``"nine_gates"``.
    sets : tuple of str
        The parts: melds in brackets (``[123p]``, ``{5555m}`` a concealed kong)
        first, then concealed sets, the pair last; special forms list their
        parts (the seven pairs; the knitted body, set and pair; or all tiles).
    """

    form: str
    sets: tuple[str, ...]

    def __str__(self) -> str:
        return " ".join(self.sets)


def _fmt(ids) -> str:
    c = np.zeros(34, dtype=np.uint8)
    for t in ids:
        c[int(t)] += 1
    return format_tiles(c)


def _set_text(kind: int, tile: int) -> str:
    if kind == 1:
        return _fmt((tile, tile + 1, tile + 2))
    return _fmt((tile,) * 3)


def _regular(counts: np.ndarray, melds_text: list[str]) -> list[Reading]:
    sets = np.zeros((MAX_DECOMPOSITIONS, 4, 2), dtype=np.uint8)
    pairs = np.zeros(MAX_DECOMPOSITIONS, dtype=np.uint8)
    n = enumerate_regular(np.ascontiguousarray(counts, dtype=np.uint8), suit_table(), sets, pairs)
    out = []
    for d in range(n):
        found = sorted((int(t), int(k)) for k, t in sets[d] if k)
        parts = [_set_text(k, t) for t, k in found]
        out.append(Reading("regular", (*melds_text, *parts, _fmt((pairs[d], pairs[d])))))
    return out


def decompose(hand) -> list[Reading]:
    """Every reading of a complete hand.

    Parameters
    ----------
    hand : Hand, str or array_like
        A :class:`~mjstats.Hand`, hand text (``"[123p]55m12379s789p+8s"``), 14
        tiles as text (``"111222333m456p99s"``), or a (34,) vector of 14
        concealed tiles (no melds).

    Returns
    -------
    list of Reading
        Special forms first, then the regular decompositions in the reference
        scorer's order; empty when the hand is not complete.

    Raises
    ------
    InvalidHandError
        Malformed input.

    Examples
    --------
    >>> from mjstats import decompose
    >>> [str(r) for r in decompose("111222333m456p99s")]
    ['111m 222m 333m 456p 99s', '123m 123m 123m 456p 99s']
    >>> [(r.form, str(r)) for r in decompose("1122335577889m+9m")]
    [('seven_pairs', '11m 22m 33m 55m 77m 88m 99m'), ('regular', '123m 123m 789m 789m 55m')]
    >>> [str(r) for r in decompose("[123p]55m12379s789p+8s")]
    ['[123p] 789p 123s 789s 55m']
    """

    if isinstance(hand, str):
        if any(ch in hand for ch in "+[{"):
            hand = parse_hand(hand)
        else:
            hand = parse_tiles(hand)
    if isinstance(hand, Hand):
        counts = np.asarray(hand.concealed, dtype=np.uint8)
        melds = list(hand.melds)
        win = hand.win_tile
        if win is None:
            return []
    else:
        arr, single = as_counts34(hand, name="hand")
        if not single:
            raise InvalidHandError("decompose() takes one hand: a (34,) count vector")
        counts = arr[0]
        melds = []
        win = None
        if int(counts.sum()) != 14:
            raise InvalidHandError(
                f"a complete hand without melds has 14 tiles, got {int(counts.sum())}"
            )
    melds_text = [str(m) for m in melds]
    out: list[Reading] = []
    c = np.ascontiguousarray(counts, dtype=np.uint8)
    if not melds:
        if is_seven_pairs(c):
            pairs = []
            for t in np.flatnonzero(c):
                pairs += [_fmt((t, t))] * (int(c[t]) // 2)
            form = "seven_shifted_pairs" if is_seven_shifted_pairs(c) else "seven_pairs"
            out.append(Reading(form, tuple(pairs)))
        seq, nh = honors_knitted_kind(c)
        if seq >= 0:
            form = "greater_honors_knitted" if nh == 7 else "honors_knitted"
            out.append(Reading(form, (format_tiles(c),)))
        if is_thirteen_orphans(c):
            out.append(Reading("thirteen_orphans", (format_tiles(c),)))
        nine = False
        if win is not None:
            standing = c.copy()
            standing[win] -= 1
            nine = is_nine_gates(standing, win)
        else:
            for t in np.flatnonzero(c):
                standing = c.copy()
                standing[t] -= 1
                if is_nine_gates(standing, int(t)):
                    nine = True
                    break
        if nine:
            out.append(Reading("nine_gates", (format_tiles(c),)))
    if len(melds) <= 1:
        k = knitted_body(c)
        if k >= 0:
            rest = c.copy()
            for t in KNITTED[k]:
                rest[t] -= 1
            body = _fmt(KNITTED[k])
            if melds:
                nz = np.flatnonzero(rest)
                if len(nz) == 1 and rest[nz[0]] == 2:
                    out.append(Reading("knitted_straight", (body, *melds_text, _fmt(nz.repeat(2)))))
            else:
                for r in _regular(rest, []):
                    out.append(Reading("knitted_straight", (body, *r.sets)))
    if not any(
        r.form in ("honors_knitted", "greater_honors_knitted", "thirteen_orphans") for r in out
    ):
        out.extend(_regular(c, melds_text))
    return out
