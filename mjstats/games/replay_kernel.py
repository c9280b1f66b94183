"""Game statistics from game logs: each game replayed through the engine's rules (numba).

A game log is what the engine writes while it plays (:func:`mjstats.games.driver.play_game`:
rows ``[seat, kind, tile, ignored]``, a :data:`~mjstats.games.driver.LOG_DRAW` row for
each draw, a row for each own-turn action and for each claim, the claims the priority
rule passed over with ``ignored`` = 1) and what a real record becomes
(:mod:`mjstats.records.reader`). :func:`replay_logs` deals each game again
from its wall and drives the engine's own kernels (:func:`~mjstats.games.rules.legal_own`,
:func:`~mjstats.games.rules.legal_response`, :func:`~mjstats.games.rules.apply_own`,
:func:`~mjstats.games.rules.resolve`) through the logged moves. Before each decision it
lists the legal actions of every seat concerned, so it counts, per seat and kind of
claim:

* ``C_CHANCE``: decisions on which the seat could legally make that claim (a discard it
  could chow, pung or win on, a kong it could rob, a turn on which it could declare a
  concealed or promoted kong or win by its draw): an opportunity, counted once however
  many tiles or chows it offers;
* ``C_MADE``: the seat made it (the claim taken, or passed over for a claim of higher
  priority);
* ``C_TAKEN``: the claim was carried out.

Every logged move must be among the engine's legal actions at that point, the claim the
engine takes must be the logged one, and the log must end where the game ends; else the
game's error code (``RE_*``) and the log row say where it went wrong. The final state and
the fans of the win are the engine's, as when it played.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from mjstats.games.driver import LOG_DRAW
from mjstats.games.rules import (
    apply_own,
    begin_turn,
    legal_own,
    legal_response,
    new_game_of,
    resolve,
    seats,
)
from mjstats.games.state import (
    _MAX_STEPS,
    A_PASS,
    G_SEATS,
    G_TILES,
    G_WALL,
    G_WALL_FLOWERS,
    MAX_ACTIONS,
    N_STATE,
    PH_DRAWN,
    PH_OWN,
    PH_WIN,
    S_DRAWN,
    S_DRAWS,
    S_LAST_SEAT,
    S_NLOG,
    S_PHASE,
    S_SHANTEN_FLOOR,
    S_TURN,
    S_WINNER,
)
from mjstats.kernels._jit import hjit, ijit, jit, pjit
from mjstats.rulesets.dispatch import new_scratch

# kinds of claim (columns of the counts): the five claims of a meld, then the two wins
K_CHOW = 0
K_PUNG = 1
K_KONG = 2  # exposed kong on a discard
K_BUGANG = 3  # promoted kong (a pung made a kong on one's own turn)
K_ANGANG = 4  # concealed kong
K_HU = 5  # win on a discard or by robbing a kong
K_TSUMO = 6  # self-drawn win
N_KINDS = 7
KIND_KEYS = ("chow", "pung", "kong", "promoted_kong", "concealed_kong", "win_on_discard",
             "self_drawn_win")  # fmt: skip
# the kind of claim of each action kind (A_*), -1 for a discard or a pass
_KIND_OF = np.array([-1, -1, K_TSUMO, K_ANGANG, K_BUGANG, K_HU, K_KONG, K_PUNG, K_CHOW], np.int64)

# what is counted (rows of the counts)
C_CHANCE = 0
C_MADE = 1
C_TAKEN = 2
N_COUNTS = 3
COUNT_SIZE = N_COUNTS * 4 * N_KINDS
"""Counts of one game: ``counts[C, seat, kind]`` flattened, ``C`` one of ``C_*``."""

# replay errors
RE_OK = 0
RE_WALL = 1
RE_DRAW = 2
RE_TURN = 3
RE_ILLEGAL = 4
RE_CLAIM = 5
RE_SHORT = 6
RE_LONG = 7
RE_STEPS = 8
REPLAY_ERRORS = (
    "no error",
    "the wall is not one of the ruleset's walls",
    "the log's draw is not the engine's (another seat or tile, or no draw)",
    "the log's move is not the turn's (another seat, or no own-turn action)",
    "the move is not legal here",
    "the engine gives the claim to another seat than the log",
    "the log ends before the game does",
    "the log goes on after the game's end",
    "the game did not end",
)


@ijit
def _at(what, seat, kind):
    """Index of ``counts[what, seat, kind]`` in a game's flat counts."""
    return (what * 4 + seat) * N_KINDS + kind


@ijit
def _listed(a, acts, n):
    """Whether action ``a`` is among ``acts[:n]``."""
    for k in range(n):
        if acts[k] == a:
            return True
    return False


@ijit
def _answerable(a, legal, q):
    """Whether action ``a`` is among seat ``q``'s legal answers (``legal[q, 1:]``, their
    number in ``legal[q, 0]``)."""
    for k in range(legal[q, 0]):
        if legal[q, 1 + k] == a:
            return True
    return False


@hjit  # no reference counts: it only reads and writes the arrays it is given
def replay_game(S, wall, round_wind, log, n_log, gctx, tab, scratch, fan_out, buf, acts, legal,
                resp, counts):  # fmt: skip
    """Replay one game from its ``wall`` and the first ``n_log`` rows of its ``log``;
    returns ``(error code RE_*, log row reached)`` (for ``RE_CLAIM`` the row of the
    logged claim the engine did not give priority to).

    ``counts`` (int64, :data:`COUNT_SIZE`) is added to; ``S`` ends as the engine's final
    state, ``fan_out`` holds the fans of the win. ``legal``: int64 (4, MAX_ACTIONS + 1)
    scratch, row ``q`` the number of seat ``q``'s legal answers then the answers;
    ``acts`` (MAX_ACTIONS,), ``resp`` (4,).
    """
    err = new_game_of(S, wall, gctx[G_WALL], round_wind, gctx[G_SEATS], gctx[G_TILES],
                      gctx[G_WALL_FLOWERS])  # fmt: skip
    if err != 0:
        return RE_WALL, 0
    begin_turn(S, 0, False, gctx, tab, scratch, fan_out, buf)
    i = 0
    drawn = 0
    for _ in range(_MAX_STEPS):
        if S[S_DRAWS] != drawn:  # the engine drew: the log must say the same draw
            drawn = S[S_DRAWS]
            if i >= n_log:
                return RE_SHORT, i
            if log[i, 0] != S[S_TURN] or log[i, 1] != LOG_DRAW or log[i, 2] != S[S_DRAWN]:
                return RE_DRAW, i
            i += 1
        ph = S[S_PHASE]
        if ph == PH_WIN or ph == PH_DRAWN:
            S[S_SHANTEN_FLOOR] = 0  # as the game loop leaves it
            S[S_NLOG] = i  # as the log of the game loop says
            return (RE_OK if i == n_log else RE_LONG), i
        if ph == PH_OWN:
            p = S[S_TURN]
            n = legal_own(S, acts)
            seen = 0  # mask of the claim kinds listed
            for k in range(n):
                kind = _KIND_OF[acts[k] >> 6]
                if kind >= 0:
                    seen |= 1 << kind
            for kind in range(N_KINDS):
                if (seen >> kind) & 1:
                    counts[_at(C_CHANCE, p, kind)] += 1
            if i >= n_log:
                return RE_SHORT, i
            if log[i, 0] != p or log[i, 3] != 0 or log[i, 1] == LOG_DRAW:
                return RE_TURN, i
            a = log[i, 1] * 64 + log[i, 2]
            if not _listed(a, acts, n):
                return RE_ILLEGAL, i
            i += 1
            kind = _KIND_OF[a >> 6]
            if kind >= 0:
                counts[_at(C_MADE, p, kind)] += 1
                counts[_at(C_TAKEN, p, kind)] += 1
            apply_own(S, a, gctx, tab, scratch, fan_out, buf)
            continue
        # an answer to a discard or a promoted kong: what each other seat could claim
        d = S[S_LAST_SEAT]
        n_seats = seats(S)
        for q in range(4):
            resp[q] = A_PASS
            legal[q, 0] = 0  # number of legal answers of seat q (0: not asked)
        for k in range(1, n_seats):
            q = d + k if d + k < n_seats else d + k - n_seats
            n = legal_response(S, q, gctx, tab, scratch, fan_out, buf, acts)
            legal[q, 0] = n
            seen = 0
            for j in range(n):
                legal[q, 1 + j] = acts[j]
                kind = _KIND_OF[acts[j] >> 6]
                if kind >= 0:
                    seen |= 1 << kind
            for kind in range(N_KINDS):
                if (seen >> kind) & 1:
                    counts[_at(C_CHANCE, q, kind)] += 1
        claimed = -1
        first = i  # the row of the claim taken, if any
        while i < n_log:  # the claim taken, then those passed over (ignored = 1)
            q = log[i, 0]
            kind = _KIND_OF[log[i, 1]] if 0 <= log[i, 1] < 9 else -1
            if kind < 0 or kind == K_TSUMO or kind == K_ANGANG or kind == K_BUGANG:
                break  # a draw or an own-turn move: no (further) claim
            if (log[i, 3] == 0) != (claimed < 0):
                break  # a second taken claim, or a passed-over one without a taken one
            a = log[i, 1] * 64 + log[i, 2]
            if q < 0 or q >= n_seats or q == d or resp[q] != A_PASS:
                return RE_ILLEGAL, i
            if not _answerable(a, legal, q):
                return RE_ILLEGAL, i
            resp[q] = a
            if claimed < 0:
                claimed = q
            i += 1
        taken = resolve(S, resp, gctx, tab, scratch, fan_out, buf)
        if taken != claimed:
            return RE_CLAIM, first
        for q in range(4):
            if resp[q] != A_PASS:
                kind = _KIND_OF[resp[q] >> 6]
                counts[_at(C_MADE, q, kind)] += 1
                if q == taken:
                    counts[_at(C_TAKEN, q, kind)] += 1
    return RE_STEPS, i


@pjit
def replay_logs(walls, n_wall, winds, logs, starts, n_log, gctx, tab, suits, n_fans, final,
                fans_out, counts_out, err_out):  # fmt: skip
    """Replay games ``0 .. len(walls) - 1`` (parallel over games; see :func:`replay_game`).

    ``walls`` int64 (n, 144), game ``i``'s wall its first ``n_wall[i]`` codes;
    ``winds`` its round wind; ``logs`` int64 (rows, 4) the log rows of all games,
    game ``i``'s the ``n_log[i]`` rows from ``starts[i]`` (played games' logs
    ``(n, MAX_LOG, 4)`` reshaped, or real records read back to back). Out: ``final``
    int64 (n, N_STATE) the final states, ``fans_out`` uint8 (n, n_fans) the fans of
    each win (zero for a drawn game), ``counts_out`` int64 (n, COUNT_SIZE),
    ``err_out`` int64 (n, 2) the error code and log row of each game (the row counted
    from the game's first).
    """
    n = walls.shape[0]
    n_threads = 16
    per = (n + n_threads - 1) // n_threads
    for b in prange(n_threads):
        lo = b * per
        hi = min(n, lo + per)
        if lo < hi:
            _replay_block(lo, hi, walls, n_wall, winds, logs, starts, n_log, gctx, tab, suits,
                          n_fans, final, fans_out, counts_out, err_out)  # fmt: skip
    return 0


@jit
def _replay_block(lo, hi, walls, n_wall, winds, logs, starts, n_log, gctx, tab, suits, n_fans,
                  final, fans_out, counts_out, err_out):  # fmt: skip
    S = np.zeros(N_STATE, np.int64)
    scratch = new_scratch(suits)
    buf = (np.zeros(34, np.uint8), np.zeros((4, 2), np.uint8))
    fan = np.zeros(n_fans, np.uint8)
    acts = np.zeros(MAX_ACTIONS, np.int64)
    legal = np.zeros((4, MAX_ACTIONS + 1), np.int64)
    resp = np.zeros(4, np.int64)
    for i in range(lo, hi):
        counts = counts_out[i]
        counts[:] = 0
        log = logs[starts[i] : starts[i] + n_log[i]]
        err, row = replay_game(S, walls[i, : n_wall[i]], winds[i], log, n_log[i], gctx, tab,
                               scratch, fan, buf, acts, legal, resp, counts)  # fmt: skip
        err_out[i, 0] = err
        err_out[i, 1] = row
        for k in range(N_STATE):
            final[i, k] = S[k]
        won = err == RE_OK and S[S_WINNER] >= 0
        for f in range(n_fans):
            fans_out[i, f] = fan[f] if won else 0
