"""The wait fans 边张, 坎张 and 单钓将, shared by the rulesets' scorers.

The rule is the same in MCR and the two-player game: at most one wait fan
per reading, 边张 (the 3 of 12+3, the 7 of 89+7) before 坎张 (the middle of a
chow) before 单钓将 (the winning tile completes the pair), and 边张 / 坎张 only
when the hand waited on the winning tile alone. Where the rulesets differ, the
difference is a parameter the ruleset's kernel passes:

* ``dead`` of :func:`unique_wait`: kinds that are no wait. MCR counts a
  *formal* wait, so a kind whose four copies are in the hand still is one
  (``docs/mcr-rules.md`` row 8): its kernel passes 0. The two-player kernel
  passes the kinds held four times (``docs/two-player-rules.md`` row 18).
* ``single_needs_unique`` of :func:`score_wait_fan`: MCR scores 单钓将 only
  for a unique wait; the two-player text scores it whenever the winning tile
  completes the pair ("单调不需要手里只剩下一张牌", row 19).

:func:`unique_wait` and :func:`count_waits` look only at the groups (a
suit, or the honours) that can take another wait, through the suit table's
wait masks (:func:`mjstats.kernels.decompose.suit_waits_splits`), so the test
costs a few table loads, not a completeness check per tile kind.
"""

from __future__ import annotations

import numpy as np

from mjstats._readonly import read_only
from mjstats.kernels._jit import hjit, ijit
from mjstats.kernels.bits import popcount
from mjstats.kernels.decompose import suit_sets_ok, suit_waits_splits

__all__ = ["chow_wait", "count_waits", "score_wait_fan", "unique_wait"]


def _edge_tiles() -> np.ndarray:
    """Per tile ``lo``, the tile that is the 边张 of the chow starting at ``lo``:
    the 3 of a 123 chow (``lo + 2``), the 7 of a 789 chow (``lo``), else -1
    (no tile). Read-only."""
    lo = np.arange(34)
    edge = np.where(lo % 9 == 0, lo + 2, np.where(lo % 9 == 6, lo, -1))
    edge = read_only(edge)
    return edge


_EDGE_TILE = _edge_tiles()


@ijit
def chow_wait(lo, win_tile):
    """``(edge, closed)``: is the winning tile the 边张 or the 坎张 of the chow
    starting at tile ``lo`` (a concealed chow; the caller checks that)?

    Branch-free, so that the scorers can fold it over a reading's sets (on
    random hands a branch on where the winning tile sits goes either way), and
    a table load, not ``lo % 9`` (a multiply and shifts): the MCR scorer runs
    it on every chow of every reading, before the unique-wait test too.

    Examples
    --------
    >>> chow_wait(0, 2), chow_wait(6, 6), chow_wait(3, 4), chow_wait(3, 5)
    ((True, False), (True, False), (False, True), (False, False))
    """
    return win_tile == _EDGE_TILE[np.uint64(lo)], win_tile == lo + 1


@ijit
def score_wait_fan(
    fan, edge_fan, closed_fan, single_fan, unique, edge, closed, single, single_needs_unique
):
    """Set the reading's one wait fan in ``fan``: ``edge_fan`` (边张) if the
    winning tile is a chow's edge tile, else ``closed_fan`` (坎张) if it is a
    chow's middle tile, both only for a ``unique`` wait; else ``single_fan``
    (单钓将) if it completes the pair (``single``), for a unique wait only when
    ``single_needs_unique``.

    Pass ``single_needs_unique`` as a module constant: inlined, the branch it
    picks is then dropped at compile time, and a reading without a unique wait
    (most) costs one test.

    Examples
    --------
    >>> import numpy as np
    >>> fan = np.zeros(3, np.uint8)
    >>> score_wait_fan(fan, 0, 1, 2, False, True, False, True, False); fan.tolist()
    [0, 0, 1]
    """
    if unique:
        if edge:
            fan[edge_fan] = 1
        elif closed:
            fan[closed_fan] = 1
        elif single:
            fan[single_fan] = 1
    elif single and not single_needs_unique:
        fan[single_fan] = 1


@hjit
def _group_ok(counts, g, n):
    """Group ``g`` (0-2 suits, 3 honours) of ``n`` tiles splits into sets, plus
    the pair when ``n`` is 2 mod 3 (a kind may be held 5 times)."""
    m = n % 3
    if m == 1:
        return False
    if g < 3:
        if n == 0:
            return True
        return suit_sets_ok(counts, 9 * g, 1 if m == 2 else 0)
    pairs = 0
    for t in range(27, 34):
        c = counts[t]
        if c == 2 or c == 5:
            pairs += 1
        elif c != 0 and c != 3:
            return False
    return pairs == (1 if m == 2 else 0)


@hjit
def count_waits(standing, n_melds, stop_at, gbuf):
    """Number of formal waits of the standing tiles: tiles completing the regular
    form (a fifth copy counts), plus the seven-pairs wait when there is no meld.
    Stops at ``stop_at``. ``gbuf``: uint8 scratch of 8.

    Examples
    --------
    >>> import numpy as np
    >>> from mjstats.tiles import parse_tiles
    >>> gbuf = np.zeros(8, np.uint8)
    >>> count_waits(parse_tiles("2345m"), 1, 9, gbuf)  # 2m (22m + 345m), 5m (234m + 55m)
    2
    """
    sp = -1
    if n_melds == 0:
        n_odd = 0
        for t in range(34):
            if standing[t] & 1:
                n_odd += 1
                sp = t
        if n_odd != 1:
            sp = -1
    n_pair_groups = 0
    n_bad = 0
    for g in range(4):
        lo = 9 * g
        hi = lo + (9 if g < 3 else 7)
        n = 0
        for t in range(lo, hi):
            n += standing[t]
        gbuf[g] = n
        ok = _group_ok(standing, g, n)
        gbuf[4 + g] = ok
        if n % 3 == 2:
            n_pair_groups += 1
        if not ok:
            n_bad += 1
    n_w = 0
    sp_seen = False
    for g in range(4):
        n = gbuf[g]
        m = n % 3
        m_new = (n + 1) % 3
        if m_new == 1:
            continue
        others_pairs = n_pair_groups - (1 if m == 2 else 0)
        if others_pairs + (1 if m_new == 2 else 0) != 1:
            continue
        if n_bad - (0 if gbuf[4 + g] else 1) != 0:
            continue
        lo = 9 * g
        hi = lo + (9 if g < 3 else 7)
        for t in range(lo, hi):
            near = standing[t] > 0
            if not near and g < 3:
                r = t - lo
                if r >= 1 and standing[t - 1] > 0:
                    near = True
                elif r >= 2 and standing[t - 2] > 0:
                    near = True
                elif r <= 7 and standing[t + 1] > 0:
                    near = True
                elif r <= 6 and standing[t + 2] > 0:
                    near = True
            hit = False
            if near:
                standing[t] += 1
                hit = _group_ok(standing, g, n + 1)
                standing[t] -= 1
            if t == sp:
                sp_seen = True
                hit = True
            if hit:
                n_w += 1
                if n_w >= stop_at:
                    return n_w
    if sp >= 0 and not sp_seen:
        n_w += 1
    return n_w


@hjit
def _honor_waits(standing):
    """Bit ``h`` set when one more honour ``27 + h`` makes the honours pungs only
    (they then hold 0 mod 3 tiles) or pungs and one pair (2 mod 3). A kind is
    fine at 0, 2, 3 or 5 (pung + pair) tiles; 2 and 5 are pairs."""
    n = 0
    bad = 0
    n_pairs = 0
    for h in range(7):
        c = standing[27 + h]
        n += c
        if c == 1 or c == 4:
            bad += 1
        elif c == 2:
            n_pairs += 1
    m = (n + 1) % 3
    if m == 1:
        return 0
    want_pairs = 1 if m == 2 else 0
    out = 0
    for h in range(7):
        c = standing[27 + h]
        if c == 0:
            continue  # one lone tile never fits
        b = bad - (1 if c == 1 or c == 4 else 0) + (1 if c == 3 else 0)
        p = n_pairs - (1 if c == 2 else 0) + (1 if c == 1 or c == 4 else 0)
        if b == 0 and p == want_pairs:
            out |= 1 << h
    return out


@hjit
def unique_wait(standing, win_tile, n_melds, info, odd_s, gp, dead):
    """True if ``win_tile`` is the only wait of ``standing`` (which it completes
    in the regular form): no other tile completes the regular form and, with no
    meld, the seven-pairs wait is the same tile. Kinds in ``dead`` (a 34-bit
    mask) are no wait; any other kind is, even as its fifth copy.

    ``info``: the suit table's ``info`` (:func:`mjstats.kernels.decompose.suit_table`);
    ``odd_s``: mask of the kinds held an odd number of times in ``standing``;
    ``gp``: the group (0-2 suits, 3 honours) of the complete hand's pair.
    Only the winning tile's group and the pair group can take another wait: any
    other group would be left at 1 mod 3 tiles.

    Examples
    --------
    >>> import numpy as np
    >>> from mjstats.kernels.decompose import suit_table
    >>> from mjstats.tiles import parse_tiles
    >>> info = suit_table().info
    >>> s = parse_tiles("1234m")  # 1m completes 1m+234m, 4m completes 123m+4m
    >>> odd = sum(1 << t for t in range(34) if s[t] & 1)
    >>> bool(unique_wait(s, 0, 3, info, odd, 0, 0))
    False
    >>> bool(unique_wait(s, 0, 3, info, odd, 0, 1 << 3))  # four 4m in the hand: 4m is no wait
    True
    """
    if n_melds == 0 and popcount(odd_s) == 1 and odd_s & ~dead & ~(np.int64(1) << win_tile):
        return False  # the seven-pairs wait is another tile
    gw = win_tile // 9 if win_tile < 27 else 3
    if gw < 3:
        waits, n_splits = suit_waits_splits(info, standing, 9 * gw)
        if waits & ~(1 << (win_tile - 9 * gw)) & ~(dead >> (9 * gw)):
            return False
        gw_ok = n_splits > 0
    else:
        if _honor_waits(standing) & ~(1 << (win_tile - 27)) & ~(dead >> 27):
            return False
        n_gw = 0
        for t in range(27, 34):
            n_gw += standing[t]
        gw_ok = _group_ok(standing, gw, n_gw)
    if gp != gw and gw_ok:
        if gp < 3:
            if suit_waits_splits(info, standing, 9 * gp)[0] & ~(dead >> (9 * gp)):
                return False
        elif _honor_waits(standing) & ~(dead >> 27):
            return False
    return True
