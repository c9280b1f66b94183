"""What a seat sees: the view vector a policy decides from (``V_*`` layout).

A view holds the seat's own concealed tiles, every meld (tiles of other seats'
concealed kongs hidden as -1), the visible copies, the copies unseen by this seat,
each seat's discards so far, flowers, tiles left to draw, seats and scores: nothing
a player could not know. It is also what the decision tables record of each decision
(:mod:`mjstats.decisions`: their ``seen``), so a model learned from them reads, when
it plays as a user policy, what it learned from.
"""

from __future__ import annotations

from mjstats.games.discard_policies import W_MEMO
from mjstats.games.rules import (
    wall_left,
)
from mjstats.games.state import (
    S_DRAWN,
    S_FLOWERS,
    S_HAND,
    S_LAST_SEAT,
    S_LAST_TILE,
    S_MELD,
    S_NMELD,
    S_PHASE,
    S_RIVER,
    S_ROUND,
    S_SCORE,
    S_SHOWN,
)
from mjstats.kernels._jit import ijit

# ---------------------------------------------------------------- policies
# engine slots of the policy work tuple (after those of discard_policies.new_policy_work)
W_COUNTS = W_MEMO + 1
W_MELDS = W_MEMO + 2
W_UNSEEN = W_MEMO + 3

V_HAND = 0  # 34
V_UNSEEN = 34  # 34
V_MELD = 68  # 4 x 4 x 3 (kind, tile or -1, from)
V_NMELD = 116  # 4
V_FLOWERS = 120  # 4
V_SCORE = 124  # 4
V_SEAT = 128
V_ROUND = 129
V_WALL_LEFT = 130  # tiles this seat may still draw
V_LAST_TILE = 131
V_LAST_SEAT = 132
V_PHASE = 133
V_DRAWN = 134
V_SHOWN = 135  # 34
V_RIVER = 170  # 4 x 34: each seat's discards so far (absolute seats, claimed ones included)
N_VIEW = V_RIVER + 4 * 34


@ijit
def make_view(S, p, view):
    """Fill ``view`` (int64 (N_VIEW,)) with what seat ``p`` sees of ``S``."""
    make_own_view(S, p, view)
    for t in range(34):
        view[V_SHOWN + t] = S[S_SHOWN + t]
    for i in range(4 * 34):
        view[V_RIVER + i] = S[S_RIVER + i]
    for q in range(4):
        view[V_NMELD + q] = S[S_NMELD + q]
        view[V_FLOWERS + q] = S[S_FLOWERS + q]
        view[V_SCORE + q] = S[S_SCORE + q]
        if q == p:
            continue
        for m in range(_view_melds(S, q, view)):
            if S[S_MELD + 12 * q + 3 * m] == 4:
                view[V_MELD + 12 * q + 3 * m + 1] = -1  # another's concealed kong: unseen
    view[V_ROUND] = S[S_ROUND]
    view[V_LAST_SEAT] = S[S_LAST_SEAT]
    view[V_PHASE] = S[S_PHASE]


@ijit
def make_own_view(S, p, view):
    """The slots of :func:`make_view` that the built-in policies read: seat ``p``'s
    hand, unseen tiles and melds, its seat, the tile drawn, the wall left and the
    last tile (the other slots are left as they are: the engine fills the whole
    view only for user policies and the planner, which reads the rivers, as building
    it on every decision was a few per cent of an efficiency game)."""
    for t in range(34):
        c = S[S_HAND + 34 * p + t]
        view[V_HAND + t] = c
        view[V_UNSEEN + t] = 4 - c - S[S_SHOWN + t]
    view[V_NMELD + p] = S[S_NMELD + p]
    for m in range(_view_melds(S, p, view)):
        o = S_MELD + 12 * p + 3 * m
        if S[o] == 4:
            view[V_UNSEEN + S[o + 1]] -= 4  # own concealed kong: not in S_SHOWN
    view[V_SEAT] = p
    view[V_WALL_LEFT] = wall_left(S, p)
    view[V_LAST_TILE] = S[S_LAST_TILE]
    view[V_DRAWN] = S[S_DRAWN]


@ijit
def _view_melds(S, q, view):
    """Copy seat ``q``'s four meld slots into ``view``; returns its number of melds."""
    for m in range(4):
        o = S_MELD + 12 * q + 3 * m
        v = V_MELD + 12 * q + 3 * m
        view[v] = S[o]
        view[v + 1] = S[o + 1]
        view[v + 2] = S[o + 2]
    return S[S_NMELD + q]


@ijit
def _own_hand(view, pw):
    """The viewer's hand as the policy kernels take it: counts, melds, unseen."""
    counts = pw[W_COUNTS]
    melds = pw[W_MELDS]
    unseen = pw[W_UNSEEN]
    p = view[V_SEAT]
    for t in range(34):
        counts[t] = view[V_HAND + t]
        unseen[t] = view[V_UNSEEN + t]
    n = view[V_NMELD + p]
    for m in range(4):
        melds[m, 0] = view[V_MELD + 12 * p + 3 * m] if m < n else 0
        melds[m, 1] = view[V_MELD + 12 * p + 3 * m + 1] if m < n else 0
    return counts, melds, unseen, n
