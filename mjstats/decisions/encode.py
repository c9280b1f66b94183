"""Decisions encoded for learning: observation planes, the Botzone baseline's encoding,
a legal-action mask over the baseline's 235 actions and the action's index (numba,
parallel over decisions). The layouts are documented in ``docs/decisions.md``.

Observation (``obs``, uint8 (n, N_PLANES, 34), one plane per row, the 34 tile kinds
in mjstats' order): ``P_HAND`` the seat's concealed tiles; ``P_MELDS + r`` the tiles
in the melds of the seat ``r`` places after it (0: itself; another's concealed kong
is not seen and not counted); ``P_DISCARDS + r`` that seat's discards so far;
``P_SHOWN`` the copies visible to all (unclaimed discards and exposed melds);
``P_UNSEEN`` the copies the seat has not seen; ``P_LAST`` the tile decided on (drawn,
or discarded / konged by another) as a one; ``P_SEAT_WIND``, ``P_ROUND_WIND`` a one on
the wind's tile; constant planes: ``P_FLOWERS + r`` the flowers of seat ``r`` places
on, ``P_WALL`` the tiles the seat may still draw (at most 255), ``P_KIND`` the kind of
decision (0 own turn, 1 answer to a discard, 2 to a promoted kong).

Baseline (``baseline``, uint8 (n, 6, 4, 9)): the observation of the Botzone
supervised baseline's ``FeatureAgent`` (``OBS_SIZE = 6``): plane 0 a one on the seat
wind's tile, plane 1 on the round wind's, planes 2-5 the hand (plane ``2 + k``: the
kinds held more than ``k`` times), the 34 kinds in Botzone's order ``W1-9 T1-9 B1-9
F1-4 J1-3`` over the 36 cells (the last two always 0). Its 235 actions: ``0`` pass,
``1`` win (on a discard, a robbed kong or self-drawn), ``2 + i`` discard, ``36 +
21 s + 3 (m - 2) + (c - m + 1)`` chow (``s`` the suit in ``W T B`` order, ``m`` the
middle tile's number, ``c`` the claimed tile's), ``99 + i`` pung, ``133 + i`` exposed
kong on a discard, ``167 + i`` concealed kong, ``201 + i`` promoted kong (``i`` the
tile's Botzone index).
"""

from __future__ import annotations

import numpy as np
from numba import prange

from mjstats.decisions.kernel import C_KIND, C_NLEGAL, C_SEAT, C_TAKEN, D_OWN, SEEN_RIVER
from mjstats.decisions.npzfile import aligned_empty
from mjstats.games.state import (
    A_ANGANG,
    A_BUGANG,
    A_CHOW,
    A_DISCARD,
    A_HU,
    A_KONG,
    A_PASS,
    A_PUNG,
    A_TSUMO,
)
from mjstats.games.views import (
    V_DRAWN,
    V_FLOWERS,
    V_HAND,
    V_LAST_TILE,
    V_MELD,
    V_NMELD,
    V_ROUND,
    V_SHOWN,
    V_UNSEEN,
    V_WALL_LEFT,
)
from mjstats.kernels._jit import ijit, jit, pjit
from mjstats.tiles import BOTZONE_CODES

# ---------------------------------------------------------------- observation planes
P_HAND = 0
P_MELDS = 1  # 4: relative seats
P_DISCARDS = 5  # 4
P_SHOWN = 9
P_UNSEEN = 10
P_LAST = 11
P_SEAT_WIND = 12
P_ROUND_WIND = 13
P_FLOWERS = 14  # 4
P_WALL = 18
P_KIND = 19
N_PLANES = 20
PLANE_NAMES = ("hand", *(f"melds_{r}" for r in range(4)), *(f"discards_{r}" for r in range(4)),
               "shown", "unseen", "last_tile", "seat_wind", "round_wind",
               *(f"flowers_{r}" for r in range(4)), "wall_left", "decision_kind")  # fmt: skip

# ---------------------------------------------------------------- the Botzone baseline
ACT_SIZE = 235
BASE_PLANES = 6
OFFSET_ACT = {"Pass": 0, "Hu": 1, "Play": 2, "Chi": 36, "Peng": 99, "Gang": 133,
              "AnGang": 167, "BuGang": 201}  # fmt: skip
"""The baseline's action offsets (``FeatureAgent.OFFSET_ACT``)."""
BASE_TILES = (*(f"{s}{r}" for s in "WTB" for r in range(1, 10)),
              "F1", "F2", "F3", "F4", "J1", "J2", "J3")  # fmt: skip
"""The baseline's tile order (``FeatureAgent.TILE_LIST``)."""
BASE_INDEX = np.array([BASE_TILES.index(c) for c in BOTZONE_CODES], np.int64)
"""The baseline's index of each mjstats tile code."""
_BASE_SUIT = np.array([0, 2, 1], np.int64)  # mjstats suits (W, B, T) -> 'WTB'.index


@ijit
def baseline_action(a, claimed, base_index, base_suit):
    """The baseline's index (0-234) of engine action ``a``; ``claimed``: the tile of
    the discard a chow takes."""
    kind = a >> 6
    t = a & 63
    if kind == A_PASS:
        return 0
    if kind == A_HU or kind == A_TSUMO:
        return 1
    if kind == A_DISCARD:
        return 2 + base_index[t]
    if kind == A_CHOW:
        return 36 + 21 * base_suit[t // 9] + 3 * (t % 9 - 1) + (claimed - t + 1)
    if kind == A_PUNG:
        return 99 + base_index[t]
    if kind == A_KONG:
        return 133 + base_index[t]
    if kind == A_ANGANG:
        return 167 + base_index[t]
    if kind == A_BUGANG:
        return 201 + base_index[t]
    return -1


@ijit
def _popcount(x):
    n = 0
    while x:
        n += x & 1
        x >>= 1
    return n


@jit
def _encode_one(i, rows, legal, seen, seat_wind, n_seats, base_index, base_suit, obs, base,
                mask, action):  # fmt: skip
    v = seen[i]
    p = rows[i, C_SEAT]
    kind = rows[i, C_KIND]
    o = obs[i]
    o[:, :] = 0
    for t in range(34):
        o[P_HAND, t] = v[V_HAND + t]
        o[P_SHOWN, t] = v[V_SHOWN + t]
        o[P_UNSEEN, t] = v[V_UNSEEN + t]
    for r in range(n_seats):
        q = p + r if p + r < n_seats else p + r - n_seats
        for t in range(34):
            o[P_DISCARDS + r, t] = v[SEEN_RIVER + 34 * q + t]
        for m in range(v[V_NMELD + q]):
            mk = v[V_MELD + 12 * q + 3 * m]
            mt = v[V_MELD + 12 * q + 3 * m + 1]
            if mt < 0:
                continue  # another seat's concealed kong: not seen
            if mk == 1:
                o[P_MELDS + r, mt] += 1
                o[P_MELDS + r, mt + 1] += 1
                o[P_MELDS + r, mt + 2] += 1
            else:
                o[P_MELDS + r, mt] += 3 if mk == 2 else 4
        f = _popcount(v[V_FLOWERS + q])
        for t in range(34):
            o[P_FLOWERS + r, t] = f
    last = v[V_DRAWN] if kind == D_OWN else v[V_LAST_TILE]
    if 0 <= last < 34:
        o[P_LAST, last] = 1
    o[P_SEAT_WIND, 27 + seat_wind[p]] = 1
    o[P_ROUND_WIND, 27 + v[V_ROUND]] = 1
    w = min(max(v[V_WALL_LEFT], 0), 255)
    for t in range(34):
        o[P_WALL, t] = w
        o[P_KIND, t] = kind
    b = base[i]
    b[:, :] = 0
    b[0, base_index[27 + seat_wind[p]]] = 1
    b[1, base_index[27 + v[V_ROUND]]] = 1
    for t in range(34):
        c = v[V_HAND + t]
        for k in range(min(c, 4)):
            b[2 + k, base_index[t]] = 1
    mk = mask[i]
    mk[:] = False
    claimed = v[V_LAST_TILE]
    for j in range(rows[i, C_NLEGAL]):
        mk[baseline_action(legal[i, j], claimed, base_index, base_suit)] = True
    action[i] = baseline_action(rows[i, C_TAKEN], claimed, base_index, base_suit)


@pjit
def encode(rows, legal, seen, seat_wind, n_seats, base_index, base_suit, obs, base, mask,
           action):  # fmt: skip
    """Encode decisions ``0 .. len(rows) - 1`` (parallel over blocks of decisions):
    ``obs`` uint8 (n, N_PLANES, 34), ``base`` uint8 (n, 6, 36), ``mask`` bool (n, 235),
    ``action`` int16 (n,) as the module documentation says. ``seat_wind``: int64 (4,)
    the seat wind of each seat; ``n_seats`` the seats in play."""
    n = rows.shape[0]
    n_blocks = 64
    per = (n + n_blocks - 1) // n_blocks
    for blk in prange(n_blocks):
        for i in range(blk * per, min(n, blk * per + per)):
            _encode_one(i, rows, legal, seen, seat_wind, n_seats, base_index, base_suit, obs,
                        base, mask, action)  # fmt: skip
    return 0


def encode_buffers(n: int) -> dict[str, np.ndarray]:
    """Arrays to encode up to ``n`` decisions into (:func:`encode_decisions`' ``out``).

    Examples
    --------
    >>> {k: v.shape for k, v in encode_buffers(3).items()}
    {'obs': (3, 20, 34), 'baseline': (3, 6, 36), 'mask': (3, 235), 'action': (3,)}
    """
    # block-aligned: a shard's large arrays go from this memory to the disk by direct I/O
    return {"obs": aligned_empty((n, N_PLANES, 34), np.uint8),
            "baseline": aligned_empty((n, BASE_PLANES, 36), np.uint8),
            "mask": aligned_empty((n, ACT_SIZE), np.bool_),
            "action": np.empty(n, np.int16)}  # fmt: skip


def encode_decisions(ds, lo: int = 0, hi: int | None = None, *,
                     out: dict | None = None) -> dict[str, np.ndarray]:  # fmt: skip
    """Decisions ``lo:hi`` of a :class:`~mjstats.decisions.DecisionSet` encoded:
    ``obs`` uint8 (n, N_PLANES, 34), ``baseline`` uint8 (n, 6, 4, 9), ``mask`` bool
    (n, 235) and ``action`` int16 (n,), as the module documentation says.

    ``out``: :func:`encode_buffers` of at least ``n`` decisions to encode into; the
    result is then their first ``n`` rows. Reusing them spares the page faults of
    fresh memory, which cost ten times the encoding itself (a run writing shard after
    shard).

    Examples
    --------
    >>> from mjstats.records.check import _DEMO_GAME
    >>> from mjstats.decisions import record_decisions
    >>> e = encode_decisions(record_decisions(_DEMO_GAME))
    >>> e["obs"].shape, e["baseline"].shape, e["mask"].sum(axis=1).tolist()
    ((4, 20, 34), (4, 6, 4, 9), [13, 3, 1, 1])
    >>> e["action"].tolist()  # a discard, then the next seat's win, and two passes
    [19, 1, 0, 0]
    """
    hi = len(ds) if hi is None else hi
    n = max(hi - lo, 0)
    out = encode_buffers(n) if out is None else out
    obs, base, mask, action = (out[k][:n] for k in ("obs", "baseline", "mask", "action"))
    winds = np.zeros(4, np.int64)
    winds[: len(ds.seat_winds)] = ds.seat_winds
    if n:
        encode(ds.rows[lo:hi], ds.legal[lo:hi], ds.seen[lo:hi], winds,
               np.int64(len(ds.seat_winds)), BASE_INDEX, _BASE_SUIT, obs, base, mask,
               action)  # fmt: skip
    return {"obs": obs, "baseline": base.reshape(n, BASE_PLANES, 4, 9), "mask": mask,
            "action": action}  # fmt: skip
