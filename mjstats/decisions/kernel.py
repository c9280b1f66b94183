"""Every decision of every seat, from a game log replayed through the engine (numba).

:func:`decide_logs` replays games as :func:`mjstats.games.replay_kernel.replay_logs`
does (the engine's own :func:`~mjstats.games.rules.legal_own`,
:func:`~mjstats.games.rules.legal_response`, :func:`~mjstats.games.rules.apply_own`,
:func:`~mjstats.games.rules.resolve`) and, at every decision point, writes one row per
seat to decide:

* ``D_OWN``: the seat whose turn it is (discard, concealed or promoted kong, self-drawn
  win);
* ``D_DISCARD``: each other seat in play, in answer to a discard (pass, chow, pung,
  kong, win), whether or not it could claim anything;
* ``D_KONG``: each other seat in play, in answer to a promoted kong (pass or rob).

A row (``C_*`` columns) holds the game, the viewer's step (:mod:`mjstats.viewer`: the
position the seat decides on), the log row, the seat, the kind, the number of legal
actions and the action taken (a pass where the log has no claim of the seat); beside
it the legal actions (engine codes, ``-1`` after the last) and what the seat sees: the
view of :func:`mjstats.games.views.make_view` (the tile another seat drew is hidden),
the very view a user policy gets; it ends with each seat's discards so far
(``SEEN_RIVER`` = ``V_RIVER``: 4 x 34 counts, absolute seats). :func:`apply_decisions`
plays games again from their walls by the taken actions alone, the check that no
decision is missing or wrong.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from mjstats.games.driver import LOG_DRAW
from mjstats.games.replay_kernel import (
    RE_CLAIM,
    RE_DRAW,
    RE_ILLEGAL,
    RE_LONG,
    RE_OK,
    RE_SHORT,
    RE_STEPS,
    RE_TURN,
    RE_WALL,
)
from mjstats.games.rules import (
    _last_of_kind_on_discard,
    apply_own,
    begin_turn,
    can_draw,
    legal_own,
    legal_response,
    new_game_of,
    next_seat,
    resolve,
    score_win,
    seats,
)
from mjstats.games.state import (
    _MAX_STEPS,
    A_ANGANG,
    A_BUGANG,
    A_DISCARD,
    A_HU,
    A_PASS,
    A_TSUMO,
    G_SEATS,
    G_TILES,
    G_WALL,
    G_WALL_FLOWERS,
    MAX_ACTIONS,
    N_STATE,
    PH_DRAWN,
    PH_OWN,
    PH_ROB,
    PH_WIN,
    S_DRAWN,
    S_DRAWS,
    S_KONG_DRAW,
    S_LAST_SEAT,
    S_LAST_TILE,
    S_NLOG,
    S_PHASE,
    S_SHANTEN_FLOOR,
    S_SHOWN,
    S_TURN,
)
from mjstats.games.views import N_VIEW, V_DRAWN, V_RIVER, make_view
from mjstats.kernels._jit import hjit, ijit, jit, pjit
from mjstats.rulesets.dispatch import new_scratch

# kinds of decision
D_OWN = 0
D_DISCARD = 1
D_KONG = 2
KIND_NAMES = ("own", "discard", "kong")

# columns of a decision row
C_GAME = 0
C_STEP = 1  # the viewer's step showing the position decided on
C_ROW = 2  # the log row of the decision (own move, or the first row after the discard)
C_SEAT = 3
C_KIND = 4
C_NLEGAL = 5
C_TAKEN = 6  # engine action code
C_INDEX = 7  # index of the taken action among the legal ones
C_WIN_FAN = 8  # fan total of the legal win among the options (as the engine settles it), or -1
N_COLS = 9

SEEN_RIVER = V_RIVER  # 4 x 34: each seat's discards so far (absolute seats)
N_SEEN = N_VIEW

# error codes beyond the replay's (RE_*): a decision table that does not play a game
AE_OWN = 20  # no own-turn row of the seat to move, or its action is not legal
AE_ANSWER = 21  # the answers to a discard are not the rows of the seats asked, or illegal
AE_ROWS = 22  # rows left after the game's end
AE_SHORT = 23  # the rows end before the game does
APPLY_ERRORS = {
    AE_OWN: "no legal own-turn decision of the seat to move",
    AE_ANSWER: "the answers are not those of the seats asked, or not legal",
    AE_ROWS: "decisions left after the game's end",
    AE_SHORT: "the decisions end before the game does",
}


@hjit
def win_total(S, q, gctx, scratch, fan_out, buf):
    """Fan total of the win seat ``q`` may take now: on its drawn tile on its own turn,
    else on the last discard (or the promoted kong's tile), scored with the flags the
    engine settles it with (:func:`mjstats.games.rules.apply_own`,
    :func:`~mjstats.games.rules.resolve`); -1 if that win is not legal."""
    last_wall = 0 if can_draw(S, next_seat(S, S[S_LAST_SEAT])) else 1
    if S[S_PHASE] == PH_OWN:
        t = S[S_DRAWN]
        last_kind = 1 if S[S_SHOWN + t] == 3 else 0
        total, legal = score_win(S, q, t, 1, S[S_KONG_DRAW], last_kind, last_wall, gctx,
                                 scratch, fan_out, buf)  # fmt: skip
    else:
        t = S[S_LAST_TILE]
        rob = S[S_PHASE] == PH_ROB
        last_kind = _last_of_kind_on_discard(S, t, rob)
        total, legal = score_win(S, q, t, 0, 1 if rob else 0, last_kind, last_wall, gctx,
                                 scratch, fan_out, buf)  # fmt: skip
    return total if total >= 0 and legal else -1


@ijit
def _emit(rows, legal_out, seen_out, k, game, step, row, seat, kind, acts, n, taken, view):
    """Write decision ``k``: its row, legal actions and what the seat sees."""
    rows[k, C_GAME] = game
    rows[k, C_STEP] = step
    rows[k, C_ROW] = row
    rows[k, C_SEAT] = seat
    rows[k, C_KIND] = kind
    rows[k, C_NLEGAL] = n
    rows[k, C_TAKEN] = taken
    at = -1
    for j in range(n):
        a = acts[j]
        legal_out[k, j] = a
        if a == taken:
            at = j
    for j in range(n, MAX_ACTIONS):
        legal_out[k, j] = -1
    rows[k, C_INDEX] = at
    rows[k, C_WIN_FAN] = -1
    # plain copies of int16 into int16 (the view is kept as int16)
    for j in range(N_VIEW):
        seen_out[k, j] = view[j]


@hjit  # no reference counts: it only reads and writes the arrays it is given
def decide_game(S, wall, round_wind, log, n_log, gctx, tab, scratch, fan_out, buf, acts, resp,
                view, game, rows, legal_out, seen_out, first, last):  # fmt: skip
    """Replay one game from its ``wall`` and log and write its decisions to ``rows``,
    ``legal_out`` and ``seen_out`` in rows ``first .. last - 1``; returns ``(error code
    RE_*, log row reached, decisions written)`` (``RE_STEPS`` when out of room). The
    log is checked as :func:`mjstats.games.replay_kernel.replay_game` checks it."""
    err = new_game_of(S, wall, gctx[G_WALL], round_wind, gctx[G_SEATS], gctx[G_TILES],
                      gctx[G_WALL_FLOWERS])  # fmt: skip
    if err != 0:
        return RE_WALL, 0, 0
    begin_turn(S, 0, False, gctx, tab, scratch, fan_out, buf)
    i = 0
    drawn = 0
    k = first
    steps = 0  # log rows applied that the viewer shows (draws, moves, claims taken)
    for _ in range(_MAX_STEPS):
        if S[S_DRAWS] != drawn:  # the engine drew: the log must say the same draw
            drawn = S[S_DRAWS]
            if i >= n_log:
                return RE_SHORT, i, k - first
            if log[i, 0] != S[S_TURN] or log[i, 1] != LOG_DRAW or log[i, 2] != S[S_DRAWN]:
                return RE_DRAW, i, k - first
            i += 1
            steps += 1
        ph = S[S_PHASE]
        if ph == PH_WIN or ph == PH_DRAWN:
            S[S_SHANTEN_FLOOR] = 0  # as the game loop leaves it
            S[S_NLOG] = i
            return (RE_OK if i == n_log else RE_LONG), i, k - first
        if ph == PH_OWN:
            p = S[S_TURN]
            n = legal_own(S, acts)
            if i >= n_log:
                return RE_SHORT, i, k - first
            if log[i, 0] != p or log[i, 3] != 0 or log[i, 1] == LOG_DRAW:
                return RE_TURN, i, k - first
            a = log[i, 1] * 64 + log[i, 2]
            if k >= last:
                return RE_STEPS, i, k - first
            make_view(S, p, view)
            _emit(rows, legal_out, seen_out, k, game, steps - 1, i, p, D_OWN, acts, n, a, view)
            if rows[k, C_INDEX] < 0:
                return RE_ILLEGAL, i, k - first
            if acts[0] >> 6 == A_TSUMO:
                rows[k, C_WIN_FAN] = win_total(S, p, gctx, scratch, fan_out, buf)
            k += 1
            i += 1
            steps += 1
            apply_own(S, a, gctx, tab, scratch, fan_out, buf)
            continue
        # an answer to a discard or a promoted kong: the claims logged, then each seat
        d = S[S_LAST_SEAT]
        n_seats = seats(S)
        kind = D_KONG if ph == PH_ROB else D_DISCARD
        for q in range(4):
            resp[q] = A_PASS
        claimed = -1
        first_row = i
        while i < n_log:  # the claim taken, then those passed over (ignored = 1)
            q = log[i, 0]
            c = log[i, 1]
            if c == LOG_DRAW or c < 5 or c > 8:  # a draw or an own-turn move
                break
            if (log[i, 3] == 0) != (claimed < 0):
                break  # a second taken claim, or a passed-over one without a taken one
            if q < 0 or q >= n_seats or q == d or resp[q] != A_PASS:
                return RE_ILLEGAL, i, k - first
            resp[q] = c * 64 + log[i, 2]
            if claimed < 0:
                claimed = q
            i += 1
        for j in range(1, n_seats):
            q = d + j if d + j < n_seats else d + j - n_seats
            n = legal_response(S, q, gctx, tab, scratch, fan_out, buf, acts)
            if k >= last:
                return RE_STEPS, i, k - first
            make_view(S, q, view)
            view[V_DRAWN] = -1  # the tile the discarder drew is not this seat's to see
            _emit(rows, legal_out, seen_out, k, game, steps - 1, first_row, q, kind, acts, n,
                  resp[q], view)  # fmt: skip
            if rows[k, C_INDEX] < 0:
                return RE_ILLEGAL, first_row, k - first
            if n > 1 and acts[1] >> 6 == A_HU:
                rows[k, C_WIN_FAN] = win_total(S, q, gctx, scratch, fan_out, buf)
            k += 1
        taken = resolve(S, resp, gctx, tab, scratch, fan_out, buf)
        if taken != claimed:
            return RE_CLAIM, first_row, k - first
        if taken >= 0:
            steps += 1
    return RE_STEPS, i, k - first


@pjit
def decide_logs(walls, n_wall, winds, logs, starts, n_log, out_starts, gctx, tab, suits, n_fans,
                rows, legal_out, seen_out, n_out, final, err_out):  # fmt: skip
    """Decisions of games ``0 .. len(walls) - 1`` (parallel over games; see
    :func:`decide_game`).

    Inputs as :func:`mjstats.games.replay_kernel.replay_logs`; game ``i`` writes its
    decisions in rows ``out_starts[i] .. out_starts[i + 1] - 1`` (:func:`capacities`) and their
    number to ``n_out[i]``; ``final`` its final state, ``err_out`` (error, log row).
    """
    n = walls.shape[0]
    n_threads = 16
    per = (n + n_threads - 1) // n_threads
    for b in prange(n_threads):
        lo = b * per
        hi = min(n, lo + per)
        if lo < hi:
            _decide_block(lo, hi, walls, n_wall, winds, logs, starts, n_log, out_starts, gctx,
                          tab, suits, n_fans, rows, legal_out, seen_out, n_out, final,
                          err_out)  # fmt: skip
    return 0


@jit
def _decide_block(lo, hi, walls, n_wall, winds, logs, starts, n_log, out_starts, gctx, tab, suits,
                  n_fans, rows, legal_out, seen_out, n_out, final, err_out):  # fmt: skip
    S = np.zeros(N_STATE, np.int64)
    scratch = new_scratch(suits)
    buf = (np.zeros(34, np.uint8), np.zeros((4, 2), np.uint8))
    fan = np.zeros(n_fans, np.uint8)
    acts = np.zeros(MAX_ACTIONS, np.int64)
    resp = np.zeros(4, np.int64)
    view = np.zeros(N_VIEW, np.int16)  # the dtype of seen_out: copied as they are
    for i in range(lo, hi):
        log = logs[starts[i] : starts[i] + n_log[i]]
        err, row, m = decide_game(S, walls[i, : n_wall[i]], winds[i], log, n_log[i], gctx, tab,
                                  scratch, fan, buf, acts, resp, view, i, rows, legal_out,
                                  seen_out, out_starts[i], out_starts[i + 1])  # fmt: skip
        n_out[i] = m
        err_out[i, 0] = err
        err_out[i, 1] = row
        for j in range(N_STATE):
            final[i, j] = S[j]


@jit
def capacities(logs, starts, n_log, n_seats, out):
    """Rows each game's decisions take (its own-turn moves, and ``n_seats - 1``
    answers to each discard and promoted kong of its log): exactly its decisions when
    the log replays (one that does not may stop for want of room: it is refused all
    the same)."""
    for i in range(starts.shape[0]):
        n = 0
        for r in range(starts[i], starts[i] + n_log[i]):
            kind = logs[r, 1]
            if logs[r, 3] == 0 and (kind == A_DISCARD or kind == A_TSUMO or kind == A_ANGANG
                                    or kind == A_BUGANG):  # fmt: skip
                n += 1
                if kind == A_DISCARD or kind == A_BUGANG:
                    n += n_seats - 1
        out[i] = n


@hjit
def apply_game(S, wall, round_wind, rows, gctx, tab, scratch, fan_out, buf, acts,
               resp):  # fmt: skip
    """Play one game from its ``wall`` by the taken actions of its decision ``rows``
    (in order) alone; returns ``(error code, decision reached)`` (``RE_OK``, or
    ``AE_*``). Each taken action must be legal and the rows must be those of the seats
    the engine asks."""
    err = new_game_of(S, wall, gctx[G_WALL], round_wind, gctx[G_SEATS], gctx[G_TILES],
                      gctx[G_WALL_FLOWERS])  # fmt: skip
    if err != 0:
        return RE_WALL, 0
    begin_turn(S, 0, False, gctx, tab, scratch, fan_out, buf)
    k = 0
    m = rows.shape[0]
    for _ in range(_MAX_STEPS):
        ph = S[S_PHASE]
        if ph == PH_WIN or ph == PH_DRAWN:
            return (RE_OK if k == m else AE_ROWS), k
        if k >= m:
            return AE_SHORT, k
        if ph == PH_OWN:
            p = S[S_TURN]
            if rows[k, C_SEAT] != p or rows[k, C_KIND] != D_OWN:
                return AE_OWN, k
            a = rows[k, C_TAKEN]
            n = legal_own(S, acts)
            ok = False
            for j in range(n):
                ok = ok or acts[j] == a
            if not ok:
                return AE_OWN, k
            apply_own(S, a, gctx, tab, scratch, fan_out, buf)
            k += 1
            continue
        d = S[S_LAST_SEAT]
        n_seats = seats(S)
        kind = D_KONG if ph == PH_ROB else D_DISCARD
        for j in range(1, n_seats):
            q = d + j if d + j < n_seats else d + j - n_seats
            if k >= m or rows[k, C_SEAT] != q or rows[k, C_KIND] != kind:
                return AE_ANSWER, k
            a = rows[k, C_TAKEN]
            n = legal_response(S, q, gctx, tab, scratch, fan_out, buf, acts)
            ok = False
            for t in range(n):
                ok = ok or acts[t] == a
            if not ok:
                return AE_ANSWER, k
            resp[q] = a
            k += 1
        for q in range(4):
            if q >= n_seats or q == d:
                resp[q] = A_PASS
        resolve(S, resp, gctx, tab, scratch, fan_out, buf)
    return RE_STEPS, k


@pjit
def apply_decisions(walls, n_wall, winds, rows, game_starts, gctx, tab, suits, n_fans, final,
                    err_out):  # fmt: skip
    """Play games ``0 .. len(walls) - 1`` again by their decisions (game ``i``'s the rows
    ``game_starts[i] .. game_starts[i + 1]``; see :func:`apply_game`), parallel over
    games; ``final`` the final states, ``err_out`` (error, decision reached)."""
    n = walls.shape[0]
    n_threads = 16
    per = (n + n_threads - 1) // n_threads
    for b in prange(n_threads):
        lo = b * per
        hi = min(n, lo + per)
        if lo < hi:
            _apply_block(lo, hi, walls, n_wall, winds, rows, game_starts, gctx, tab, suits,
                         n_fans, final, err_out)  # fmt: skip
    return 0


@jit
def _apply_block(lo, hi, walls, n_wall, winds, rows, game_starts, gctx, tab, suits, n_fans, final,
                 err_out):  # fmt: skip
    S = np.zeros(N_STATE, np.int64)
    scratch = new_scratch(suits)
    buf = (np.zeros(34, np.uint8), np.zeros((4, 2), np.uint8))
    fan = np.zeros(n_fans, np.uint8)
    acts = np.zeros(MAX_ACTIONS, np.int64)
    resp = np.zeros(4, np.int64)
    for i in range(lo, hi):
        err, k = apply_game(S, walls[i, : n_wall[i]], winds[i],
                            rows[game_starts[i] : game_starts[i + 1]], gctx, tab, scratch,
                            fan, buf, acts, resp)  # fmt: skip
        err_out[i, 0] = err
        err_out[i, 1] = k
        S[S_SHANTEN_FLOOR] = 0
        for j in range(N_STATE):
            final[i, j] = S[j]
