"""Chow and pung chances counted as the real-play data set's publisher counts them (numba).

The claim rates of the real-play reference (:mod:`mjstats.studies.realplay`: pungs
49.05 % of 361,008 chances, chows 29.5 % of 787,185) were counted by the parser of the
public repository ZhijieXiong/ai4mahjiong (``pymj/botzone/GameData.py``,
``get_state_action_sequence``), not from the engine's legal chances
(:mod:`mjstats.games.replay_kernel`). To set a rate beside them like for like, this
kernel reads a game's log as that parser reads a record:

* one **action** per turn: a draw and its discard, a claim and its discard, a kong with
  its replacement draw and discard, or the win that ends the game (a kong whose
  replacement draw wins is read as the win alone, as is a promoted kong robbed);
* at each action, a **pung chance** for every seat but the actor that holds two copies of
  the tile the action before discarded (the discarder included, its hand after the
  discard; at the first action the first discard itself, so that discard is read
  twice); the actor has one only when it pungs;
* a **chow chance**, found the same way, for the seat *before* the discarder (and seat 0
  on seat 3's discards), and for the seat that chows;
* an **exposed kong chance**, found the same way, for every seat but the actor holding
  three copies, and for the seat that makes the kong;
* a **promoted** and a **concealed kong chance** for the actor alone, unless it chows
  or pungs: it holds the fourth tile of one of its pungs, or four of a kind, in its hand
  *before* the action (its draw not in it yet), or it makes that kong;
* when the actor claims (chow, pung, exposed kong), the chances its state of the action
  before gave it are dropped (that state was its pass on an earlier discard);
* the last discard of a drawn game is never read;
* a game with a kong right after a kong, or won on the first draw, is **unreadable** to
  that parser, which misreads or skips it: it is left out, claims taken included.

Only a four-seat game on the Botzone wall is read (the data set's games). The
repository's ``benchmarks/publisher_claim_count.py`` counts the same in plain Python;
both were checked game for game against the publisher's code on the data set's first
16 games and on 20,000 planner games (2026-12-07; the test suite holds the 16 games'
figures: 68 pung chances and 25 pungs, 134 chow chances and 33 chows).

Examples
--------
>>> from mjstats.games import play_games
>>> from mjstats.games.stats import dataset_claim_counters
>>> _, _, final, logs = play_games(50, seed=3, policy="planner", wall="botzone", keep_log=True)
>>> c = dataset_claim_counters(final, logs)
>>> d = dict(zip(DATASET_COUNTS, c.tolist()))
>>> d["games"] <= 50, d["pungs"] <= d["pung_chances"], d["kongs"] <= d["kong_chances"]
(True, True, True)
"""

from __future__ import annotations

import numpy as np
from numba import prange

from mjstats.games.driver import LOG_DRAW
from mjstats.games.rules import new_game
from mjstats.games.state import (
    A_ANGANG,
    A_BUGANG,
    A_CHOW,
    A_DISCARD,
    A_HU,
    A_KONG,
    A_PUNG,
    A_TSUMO,
    N_STATE,
    S_HAND,
    WALL_BOTZONE,
)
from mjstats.kernels._jit import jit, pjit

DATASET_COUNTS = (
    "games",
    "chow_chances",
    "chows",
    "pung_chances",
    "pungs",
    "kong_chances",
    "kongs",
    "promoted_kong_chances",
    "promoted_kongs",
    "concealed_kong_chances",
    "concealed_kongs",
)
"""What :func:`dataset_counts` counts of each game, in order: whether the publisher's
parser reads it (1 or 0; the other counts are 0 when it does not), then the chances
and the claims taken of each kind: chow, pung, exposed kong, promoted kong, concealed
kong."""
N_DATASET_COUNTS = len(DATASET_COUNTS)
_N_KINDS = (N_DATASET_COUNTS - 1) // 2  # chow, pung, exposed, promoted, concealed kong
N_SEAT_OUT = 1 + 4 * (N_DATASET_COUNTS - 1)
"""What :func:`count_game` writes of a game: whether it is read (``out[0]``), then the
chances and claims of :data:`DATASET_COUNTS` of seat 0, seat 1, seat 2 and seat 3 (the
seat that has the chance, or makes the claim)."""
BAD_ROW, BAD_WALL = -1, -2
"""What :func:`count_game` leaves in ``out[0]`` for a log row no game has, and for a
wall that is not four copies of each tile (else 1 for a game read, 0 for a game the
parser cannot read)."""

# the parser's actions (what a turn is read as)
_PLAY, _CHI, _PENG, _GANG, _ANGANG, _BUGANG, _HU, _ZIMOHU = range(8)


@jit
def _read_actions(rows, n, actions):
    """The game of ``rows[:n]`` (its log without the claims passed over) as the parser's
    actions: ``actions[k]`` = (actor, action, tile discarded or -1, first row, end
    row). Returns their number, or -1 for a game the parser cannot read."""
    i = 0
    na = 0
    while i < n:
        seat = rows[i, 0]
        kind = rows[i, 1]
        if kind == A_HU:
            actions[na, 0] = seat
            actions[na, 1] = _HU
            actions[na, 2] = -1
            actions[na, 3] = i
            actions[na, 4] = i + 1
            return na + 1
        # the rows a turn spans before its discard: a draw or a claim; an exposed kong
        # and its replacement draw
        if kind == LOG_DRAW:
            step, action = 1, _PLAY
        elif kind == A_CHOW:
            step, action = 1, _CHI
        elif kind == A_PUNG:
            step, action = 1, _PENG
        elif kind == A_KONG:
            step, action = 2, _GANG
        else:
            return -1
        if i + step >= n:
            return -1  # the record ends in a turn
        if kind == LOG_DRAW and (rows[i + 1, 1] == A_ANGANG or rows[i + 1, 1] == A_BUGANG):
            if i + 2 < n and rows[i + 2, 1] == A_HU:  # 抢杠和: the robber's win
                actions[na, 0] = rows[i + 2, 0]
                actions[na, 1] = _HU
                actions[na, 2] = -1
                actions[na, 3] = i
                actions[na, 4] = i + 3
                return na + 1
            step = 3  # the replacement draw, then the discard
            action = _ANGANG if rows[i + 1, 1] == A_ANGANG else _BUGANG
            if i + step >= n:
                return -1
        nxt = rows[i + step, 1]
        if nxt == A_TSUMO:
            actions[na, 0] = seat
            actions[na, 1] = _ZIMOHU
            actions[na, 2] = -1
            actions[na, 3] = i
            actions[na, 4] = i + step + 1
            return na + 1
        if nxt != A_DISCARD:
            return -1  # a kong right after a kong
        actions[na, 0] = seat
        actions[na, 1] = action
        actions[na, 2] = rows[i + step, 2]
        actions[na, 3] = i
        actions[na, 4] = i + step + 1
        na += 1
        i += step + 1
    return na


@jit
def _play_rows(hands, rows, lo, hi, last):
    """Play ``rows[lo:hi]`` on ``hands`` (4 x 34); returns the tile last discarded (a
    chow takes it from the discarder, not from the hand)."""
    for r in range(lo, hi):
        seat = rows[r, 0]
        kind = rows[r, 1]
        tile = rows[r, 2]
        if kind == LOG_DRAW:
            hands[seat, tile] += 1
        elif kind == A_CHOW:  # the middle tile names the chow
            for x in range(tile - 1, tile + 2):
                if x != last:
                    hands[seat, x] -= 1
        elif kind == A_PUNG:
            hands[seat, tile] -= 2
        elif kind == A_KONG:
            hands[seat, tile] -= 3
        elif kind == A_ANGANG:
            hands[seat, tile] -= 4
        elif kind == A_BUGANG or kind == A_DISCARD:
            hands[seat, tile] -= 1
            if kind == A_DISCARD:
                last = tile
    return last


@jit
def _can_chow(hands, seat, tile):
    """Whether seat ``seat`` holds two tiles that make a chow with the suited ``tile``."""
    r = tile % 9
    for o in range(-2, 1):
        if r + o < 0 or r + o + 2 > 8:
            continue
        ok = True
        for j in range(3):
            if o + j != 0 and hands[seat, tile + o + j] == 0:
                ok = False
        if ok:
            return True
    return False


@jit
def _row_in_range(seat, kind, tile):
    """Whether a log row names a seat, a move and a tile this count can read: a chow
    by its middle tile (2-8 of a suit), the other moves' tiles 0-33."""
    if seat < 0 or seat > 3:
        return False
    if kind == A_CHOW:
        return 0 <= tile < 27 and 1 <= tile % 9 <= 7
    if (kind == LOG_DRAW or kind == A_DISCARD or kind == A_PUNG or kind == A_KONG
            or kind == A_ANGANG or kind == A_BUGANG or kind == A_HU
            or kind == A_TSUMO):  # fmt: skip
        return 0 <= tile < 34
    return False


@jit
def new_scratch(size):
    """The scratch :func:`count_game` works in, for logs of up to ``size`` rows: a state,
    the rows read, the actions, the hands, each seat's pass of the action before
    (chow, pung, kong), each seat's pungs not yet promoted (a mask of tiles), and each
    seat's chances and claims taken of each kind."""
    return (
        np.zeros(N_STATE, np.int64),
        np.zeros((max(size, 1), 4), np.int64),
        np.zeros((max(size, 1), 5), np.int64),
        np.zeros((4, 34), np.int64),
        np.zeros((4, 3), np.int64),
        np.zeros(4, np.int64),
        np.zeros((4, _N_KINDS), np.int64),
        np.zeros((4, _N_KINDS), np.int64),
    )


@jit
def count_game(wall, log, n_log, scratch, out):
    """Count one game (``wall`` its 136 tiles, ``log[:n_log]`` its log) into ``out``
    (:data:`N_SEAT_OUT`: read or not, then :data:`DATASET_COUNTS` per seat), in
    ``scratch`` (:func:`new_scratch` of ``n_log`` rows or more). A row out of range (a
    seat, move or tile no game has, or a fourth column neither 0, a move, nor 1, a claim
    passed over) makes ``out[0]`` :data:`BAD_ROW`, a wall that is not four copies of each
    of the 34 tiles :data:`BAD_WALL`, and the rest 0."""
    S, rows, actions, hands, passed, pung_melds, chances, taken = scratch
    for k in range(N_SEAT_OUT):
        out[k] = 0
    n = 0
    for r in range(n_log):
        passed_over = log[r, 3]
        if (passed_over != 0 and passed_over != 1) or not _row_in_range(
            log[r, 0], log[r, 1], log[r, 2]
        ):
            out[0] = BAD_ROW  # no move of a game: nothing is read out of bounds
            return
        if passed_over == 0:  # the parser never sees the claims passed over
            for j in range(4):
                rows[n, j] = log[r, j]
            n += 1
    if new_game(S, wall, WALL_BOTZONE, 0) != 0:
        out[0] = BAD_WALL  # not four copies of each tile: no game to read
        return
    na = _read_actions(rows, n, actions)
    if na <= 0 or actions[0, 2] < 0:  # unreadable, or a win on the first draw
        return
    for p in range(4):
        for t in range(34):
            hands[p, t] = S[S_HAND + 34 * p + t]
    # by seat and claim: chow, pung, exposed, promoted, concealed kong
    chances[:] = 0
    taken[:] = 0
    passed[:] = 0
    pung_melds[:] = 0
    last = -1
    for k in range(na):
        actor = actions[k, 0]
        action = actions[k, 1]
        if k:
            p = actions[k - 1, 0]
            before = actions[k - 1, 1]
            lo = actions[k - 1, 3]
            last = _play_rows(hands, rows, lo, actions[k - 1, 4], last)
            if before == _PENG:
                pung_melds[p] |= 1 << rows[lo, 2]
            elif before == _BUGANG:
                pung_melds[p] &= ~(1 << rows[lo + 1, 2])
        tile = actions[k - 1, 2] if k else actions[0, 2]
        seat_before = actions[k - 1, 0] if k else 0
        claims = action == _CHI or action == _PENG or action == _GANG
        if claims:  # the claimer's pass on the discard before is dropped
            for j in range(3):
                chances[actor, j] -= passed[actor, j]
        for s in range(4):
            passed[s, 0] = 0
            passed[s, 1] = 0
            passed[s, 2] = 0
            if s == actor:
                continue
            looked = s == seat_before - 1 or (s == 0 and seat_before == 3)
            if looked and tile < 27 and _can_chow(hands, s, tile):
                passed[s, 0] = 1
            if hands[s, tile] >= 2:
                passed[s, 1] = 1
            if hands[s, tile] >= 3:
                passed[s, 2] = 1
            for j in range(3):
                chances[s, j] += passed[s, j]
        # the actor: the claim it makes; a kong it could declare from its hand before the
        # action (its draw not yet in it), unless it chows or pungs
        made = -1
        if action == _CHI:
            made = 0
        elif action == _PENG:
            made = 1
        elif action == _GANG:
            made = 2
        elif action == _BUGANG:
            made = 3
        elif action == _ANGANG:
            made = 4
        promoted = made == 3
        concealed = made == 4
        if action != _CHI and action != _PENG:
            for t in range(34):
                if hands[actor, t] >= 4:
                    concealed = True
                if (pung_melds[actor] >> t) & 1 and hands[actor, t] >= 1:
                    promoted = True
        if 0 <= made < 3:
            chances[actor, made] += 1
        chances[actor, 3] += promoted
        chances[actor, 4] += concealed
        if made >= 0:
            taken[actor, made] += 1
    out[0] = 1
    for s in range(4):
        for j in range(_N_KINDS):  # DATASET_COUNTS' layout, seat after seat
            out[1 + (N_DATASET_COUNTS - 1) * s + 2 * j] = chances[s, j]
            out[2 + (N_DATASET_COUNTS - 1) * s + 2 * j] = taken[s, j]


@pjit
def dataset_counts(walls, logs, starts, n_log, out):
    """Count games ``0 .. len(walls) - 1`` (parallel over blocks of games;
    :func:`count_game`): ``walls`` int64 (n, >= 136) Botzone walls, ``logs`` int64
    (rows, 4) the log rows of all games, game ``i``'s the ``n_log[i]`` rows from
    ``starts[i]``; ``out`` int64 (n, :data:`N_SEAT_OUT`) receives each game's counts
    (:func:`count_game`)."""
    n = walls.shape[0]
    n_blocks = 16  # as the engine's kernels: one scratch a block, not a game
    per = (n + n_blocks - 1) // n_blocks
    for b in prange(n_blocks):
        lo = b * per
        hi = min(n, lo + per)
        size = 0
        for i in range(lo, hi):
            size = max(size, n_log[i])
        scratch = new_scratch(size)
        for i in range(lo, hi):
            log = logs[starts[i] : starts[i] + n_log[i]]
            count_game(walls[i, :136], log, n_log[i], scratch, out[i])
    return 0
