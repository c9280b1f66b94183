"""The ``planner`` game policy: the fan targets of ``fan-aware`` with open-hand claims
and defence (numba kernels on a seat's view).

Own turn: win when legal; a kong as ``fan-aware`` takes it; else the discard that
``fan_aware`` picks, unless the hand is far from any 8-fan target late in the wall
while an opponent shows an open hand: then it defends and discards the held tile
an opponent is least likely to win on (:func:`discard_danger`).

Answer to a discard: win when legal; else the claim after which the nearest fan
target (one reaching the minimum with the exposed hand's base, as ``fan-aware``
counts it) is nearest, when it is strictly nearer (and, with
:data:`TIE_PUNG_HONOURS`, a pung or kong of an honour when it is no farther); no
claim while defending.
"""

from __future__ import annotations

from mjstats.games import discard_policies as P
from mjstats.games.policies import (
    _claim_apply,
    _fan_need,
    efficiency_own,
    efficiency_response,
    fan_aware_own,
)
from mjstats.games.state import A_CHOW, A_DISCARD, A_HU, A_TSUMO
from mjstats.games.views import (
    V_LAST_TILE,
    V_MELD,
    V_NMELD,
    V_SEAT,
    V_UNSEEN,
    V_WALL_LEFT,
    _own_hand,
)
from mjstats.kernels._jit import hjit

# Defence: a hand whose nearest fan target needs DEFEND_NEED tiles or more, with at
# most DEFEND_WALL draws left and an opponent with DEFEND_MELDS open melds or more,
# plays safe. Not fitted to any data: a hand that needs three tiles with eight
# draws left rarely completes (each tile needs about a third of the draws), and a
# seat with two open melds is one or two tiles from its win.
DEFEND_NEED = 3
DEFEND_WALL = 8
DEFEND_MELDS = 2
# Pung an honour on a tie in fan-target distance (open hands). Measured: ties on
# any pung -0.97 points/game against fan-aware, on honours -0.29 (2,000 walls,
# `mjstats match planner fan-aware --n 2000 --wall botzone`): off.
TIE_PUNG_HONOURS = False


@hjit
def discard_danger(view, t):
    """Danger of discarding tile ``t`` (smaller is safer) from what the seat sees:
    the copies of ``t`` it has not seen (a tile with no unseen copy can complete no
    pung and no pair wait; each unseen copy is a way to wait on it), doubled for
    a suited tile in the middle of its suit (it completes more chows), and the open
    melds of the opponents (each is a step an opponent has made towards its win).

    Examples
    --------
    >>> import numpy as np
    >>> from mjstats.games.views import N_VIEW, V_UNSEEN
    >>> v = np.zeros(N_VIEW, np.int64)
    >>> v[V_UNSEEN + 4] = 3
    >>> v[V_UNSEEN + 27] = 1
    >>> int(discard_danger(v, 27)) < int(discard_danger(v, 4))
    True
    """
    u = view[V_UNSEEN + t]
    ways = u
    if t < 27:
        r = t % 9
        if 1 <= r <= 7:
            ways += u  # a chow wait through a middle tile
        if 2 <= r <= 6:
            ways += u
    return ways


@hjit
def _threat(view):
    """Largest count of open melds of an opponent of the viewer."""
    p = view[V_SEAT]
    most = 0
    for q in range(4):
        if q == p:
            continue
        k = 0
        for m in range(view[V_NMELD + q]):
            if view[V_MELD + 12 * q + 3 * m] != 4:  # a concealed kong is not open
                k += 1
        most = max(most, k)
    return most


@hjit
def planner_own(view, acts, n_acts, pctx, tab, pw):
    """Own turn of the ``planner`` policy: as ``fan-aware`` (win, kongs, the fan
    targeting's discard) unless defending (far from every fan target, late, facing
    an open hand): then the safest held tile by :func:`discard_danger`."""
    for i in range(n_acts):
        if acts[i] // 64 == A_TSUMO:
            return acts[i]
    if pctx[P.CTX_FAN_PLANS] == 0:
        return efficiency_own(view, acts, n_acts, pctx, tab, pw)
    if view[V_WALL_LEFT] <= DEFEND_WALL and _threat(view) >= DEFEND_MELDS:
        counts, melds, unseen, n = _own_hand(view, pw)
        need = _fan_need(counts, melds, n, unseen, pctx, tab, pw)
        if need >= DEFEND_NEED:
            best = -1
            danger = 1 << 30
            for i in range(n_acts):
                if acts[i] // 64 == A_DISCARD:
                    d = discard_danger(view, acts[i] % 64)
                    if d < danger:
                        danger = d
                        best = acts[i]
            if best >= 0:
                return best
    return fan_aware_own(view, acts, n_acts, pctx, tab, pw)


@hjit
def planner_response(view, acts, n_acts, pctx, tab, pw):
    """Answer of the ``planner`` policy: win when legal; else the pung or kong after
    which the nearest fan target is no farther, or the chow after which it is
    nearer, the nearest of them; pass when defending or when none is."""
    if n_acts == 1:
        return acts[0]
    for i in range(n_acts):
        if acts[i] // 64 == A_HU:
            return acts[i]
    if pctx[P.CTX_FAN_PLANS] == 0:
        return efficiency_response(view, acts, n_acts, pctx, tab, pw)
    counts, melds, unseen, n = _own_hand(view, pw)
    best = _fan_need(counts, melds, n, unseen, pctx, tab, pw)
    if best >= P.NO_NEED:
        return acts[0]
    if best >= DEFEND_NEED and view[V_WALL_LEFT] <= DEFEND_WALL and _threat(view) >= DEFEND_MELDS:
        return acts[0]
    choice = acts[0]
    bar = best
    t = view[V_LAST_TILE]
    for i in range(1, n_acts):
        _claim_apply(counts, melds, n, acts[i], t, -1)
        need = _fan_need(counts, melds, n + 1, unseen, pctx, tab, pw)
        _claim_apply(counts, melds, n, acts[i], t, 1)
        # a pung or kong of an honour may keep the distance (the pung is a fan of
        # its own: 幺九刻, and 箭刻/风刻 when they count); anything else must shorten
        # it, and beat a claim already chosen
        tie_ok = TIE_PUNG_HONOURS and acts[i] // 64 != A_CHOW and choice == acts[0] and t >= 27
        if need < bar or (tie_ok and need == bar):
            bar = need
            choice = acts[i]
    return choice
