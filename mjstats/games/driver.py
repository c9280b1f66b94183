"""Whole games: the per-game random numbers, the wall shuffle, the decision of each
seat (built-in or user policy), the game log and the batch drivers over games
(numba; :func:`mjstats.games.play_games` is the Python entry).
"""

from __future__ import annotations

import numpy as np
from numba import prange

from mjstats.games import discard_policies as P
from mjstats.games.planner import planner_own, planner_response
from mjstats.games.policies import (
    choose,
    efficiency_own,
    efficiency_response,
    fan_aware_own,
    fan_aware_response,
    new_work,
)
from mjstats.games.rules import (
    _nth_bit,
    _own_front,
    apply_own,
    begin_turn,
    check_tiles_in,
    legal_own,
    legal_response,
    new_game_of,
    resolve,
    seats,
)
from mjstats.games.state import (
    _MAX_STEPS,
    A_DISCARD,
    A_PASS,
    E_INVARIANT,
    E_OK,
    E_POLICY,
    E_STEPS,
    G_CHECK,
    G_POLICY,
    G_ROUND,
    G_SEATS,
    G_TILES,
    G_WALL,
    G_WALL_FLOWERS,
    MAX_ACTIONS,
    N_STATE,
    PH_DRAWN,
    PH_OWN,
    PH_WIN,
    POLICY_PLANNER,
    POLICY_RANDOM,
    POLICY_USER,
    S_CLAIMS,
    S_DRAWN,
    S_DRAWS,
    S_ERR_ACTION,
    S_ERR_SEAT,
    S_FROM,
    S_KONG_WIN,
    S_LAST_KIND,
    S_LAST_SEAT,
    S_LAST_WALL,
    S_NLOG,
    S_PHASE,
    S_SCORE,
    S_SHANTEN_FLOOR,
    S_STEPS,
    S_TOTAL,
    S_TURN,
    S_WIN_KIND,
    S_WINNER,
    action,
)
from mjstats.games.views import (
    N_VIEW,
    make_own_view,
    make_view,
)
from mjstats.kernels._jit import hjit, ijit, jit, pjit
from mjstats.kernels.bits import popcount
from mjstats.kernels.rng import below, draw_below


# ---------------------------------------------------------------- a whole game
@jit
def _splitmix(x):
    x = x + np.uint64(0x9E3779B97F4A7C15)
    z = x
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x, z ^ (z >> np.uint64(31))


@jit
def game_rng(seed, game, rng):
    """Seed ``rng`` (uint64 (4,)) for game number ``game`` of a study with ``seed``:
    a game's randomness depends only on the seed and its number (any threads, chunks)."""
    x = np.uint64(seed) ^ (np.uint64(game) * np.uint64(0xD1B54A32D192ED03))
    for i in range(4):
        x, z = _splitmix(x)
        rng[i] = z
    if rng[0] == 0 and rng[1] == 0 and rng[2] == 0 and rng[3] == 0:
        rng[0] = 1


@jit
def shuffle_wall(rng, wall, tiles, n_flowers):
    """Fill ``wall`` (int64, ``wall_size(tiles, n_flowers)``) with a uniformly shuffled
    wall: four copies of each tile kind in the mask ``tiles``, then ``n_flowers``
    flowers, in that order before the shuffle."""
    n = 0
    for t in range(34):
        if (tiles >> t) & 1:
            for _ in range(4):
                wall[n] = t
                n += 1
    for f in range(n_flowers):
        wall[n] = 34 + f
        n += 1
    # the generator's state in registers for the 143 draws (randbelow(rng, n - i),
    # the same draws): a call a draw loaded and stored it, about a tenth of a
    # random game's time
    s0, s1, s2, s3 = rng[0], rng[1], rng[2], rng[3]
    for i in range(n - 1):
        r, s0, s1, s2, s3 = below(n - i, s0, s1, s2, s3)
        j = i + r
        x = wall[i]
        wall[i] = wall[j]
        wall[j] = x
    rng[0] = s0
    rng[1] = s1
    rng[2] = s2
    rng[3] = s3


@jit
def wall_size(tiles, n_flowers):
    """Tiles in a wall of four copies of each kind in ``tiles`` (a mask) and ``n_flowers``."""
    n = n_flowers
    for t in range(34):
        n += 4 * ((tiles >> t) & 1)
    return n


@ijit
def _decide(user, eff, fan, plan, slot, S, q, n, acts, view, gctx, pctx, tab, work, rng):
    """Seat ``q``'s policy picks one of ``acts[:n]`` from its view of ``S``; -1 when
    it returns an action not among them (seat and action kept in ``S[S_ERR_*]``).

    ``eff``, ``fan``, ``plan``: the built-in policies' halves for the decision,
    ``efficiency_own``, ``fan_aware_own`` and ``planner_own`` on the own turn (``slot`` 0), the
    ``_response`` ones for an answer (``slot`` 4). Functions, not a flag, so that
    each of the loop's two call sites compiles only its own halves (the efficiency
    ones are inlined: a call passes the tables and the work tuple as 434 machine
    words, an eighth of an efficiency game).

    ``user``: None (built-in policies only; the branch is pruned at compile time)
    or the 8 user functions (own turn of seats 0-3, then answers of seats 0-3) of
    :func:`play_games_custom`, ``user[slot + q]`` called for the seats whose policy
    is ``POLICY_USER``."""
    policy = gctx[G_POLICY + q]
    if policy == POLICY_USER or policy == POLICY_PLANNER:  # the planner reads the rivers
        make_view(S, q, view)
    elif policy != POLICY_RANDOM:  # the random policy looks at nothing
        make_own_view(S, q, view)
    if user is None:
        a = choose(policy, eff, fan, plan, view, acts, n, pctx[q], tab, work, rng)
    elif policy == POLICY_USER:
        a = user[slot + q](view, acts, n, pctx[q], tab, work)
    else:
        a = choose(policy, eff, fan, plan, view, acts, n, pctx[q], tab, work, rng)
    if policy == POLICY_RANDOM:  # acts[randbelow(n)]: listed by construction
        return a
    for i in range(n):
        if acts[i] == a:
            return a
    S[S_ERR_SEAT] = q
    S[S_ERR_ACTION] = a
    return -1


@hjit
def _log(S, log, seat, kind, tile, ignored):
    n = S[S_NLOG]
    if n < log.shape[0]:
        log[n, 0] = seat
        log[n, 1] = kind
        log[n, 2] = tile
        log[n, 3] = ignored
        S[S_NLOG] = n + 1


# log rows: [seat, kind, tile, ignored]; kind is an action kind or LOG_DRAW; ignored
# = 1 for a claim the priority rule passed over (the text records' ``Ignore`` part)
LOG_DRAW = 15
MAX_LOG = 512


@hjit
def play_game(S, wall, gctx, pctx, tab, scratch, fan_out, work, buf, view, acts, resp, rng, log):
    """Play one game from the wall in ``wall`` to its end; returns an error code.

    Built-in policies only; :func:`play_game_user` takes user policies too."""
    return play_game_user(
        None, S, wall, gctx, pctx, tab, scratch, fan_out, work, buf, view, acts, resp, rng, log
    )


@hjit
def play_game_user(
    user, S, wall, gctx, pctx, tab, scratch, fan_out, work, buf, view, acts, resp, rng, log
):
    """Play one game from the wall in ``wall`` to its end; returns an error code.

    ``pctx``: int64 (4, CTX_SIZE) the policy contexts per seat. On ``E_POLICY``
    ``S[S_ERR_SEAT]`` and ``S[S_ERR_ACTION]`` say who returned what. ``log``:
    int64 (k, 4) receives the first ``k`` moves (:data:`LOG_DRAW` rows for
    draws), ``S[S_NLOG]`` of them; pass shape (0, 4) not to log.
    """
    err = new_game_of(
        S, wall, gctx[G_WALL], gctx[G_ROUND], gctx[G_SEATS], gctx[G_TILES], gctx[G_WALL_FLOWERS]
    )
    if err != E_OK:
        return err
    check = gctx[G_CHECK] != 0
    logging = log.shape[0] > 0
    begin_turn(S, 0, False, gctx, tab, scratch, fan_out, buf)
    logged_draws = 0
    for _ in range(_MAX_STEPS):
        if logging and S[S_DRAWS] != logged_draws:
            logged_draws = S[S_DRAWS]
            _log(S, log, S[S_TURN], LOG_DRAW, S[S_DRAWN], 0)
        ph = S[S_PHASE]
        if ph == PH_WIN or ph == PH_DRAWN:
            S[S_SHANTEN_FLOOR] = 0
            return E_OK
        if check and not check_tiles_in(S, view):  # view: free between decisions
            return E_INVARIANT
        if ph == PH_OWN:
            p = S[S_TURN]
            if gctx[G_POLICY + p] == POLICY_RANDOM:
                # choose's acts[randbelow(n)] without listing the discards: the same
                # draw, the same action (legal_own lists them after the others in
                # tile order), about half the bit loop and no stores
                n, held = _own_front(S, acts)
                r = draw_below(rng, n + popcount(held))
                a = acts[r] if r < n else action(A_DISCARD, _nth_bit(held, r - n))
            else:
                n = legal_own(S, acts)
                a = _decide(
                    user, efficiency_own, fan_aware_own, planner_own, 0,
                    S, p, n, acts, view, gctx, pctx, tab, work, rng,
                )  # fmt: skip
                if a < 0:
                    return E_POLICY
            if logging:
                _log(S, log, p, a // 64, a % 64, 0)
            apply_own(S, a, gctx, tab, scratch, fan_out, buf)
        else:
            d = S[S_LAST_SEAT]
            n_seats = seats(S)
            for k in range(4):
                resp[k] = A_PASS
            for k in range(1, n_seats):
                q = d + k if d + k < n_seats else d + k - n_seats
                n = legal_response(S, q, gctx, tab, scratch, fan_out, buf, acts)
                if n == 1:
                    continue
                a = _decide(
                    user, efficiency_response, fan_aware_response, planner_response, 4,
                    S, q, n, acts, view, gctx, pctx, tab, work, rng,
                )  # fmt: skip
                if a < 0:
                    return E_POLICY
                resp[q] = a
            taken = resolve(S, resp, gctx, tab, scratch, fan_out, buf)
            if logging and taken >= 0:
                _log(S, log, taken, resp[taken] // 64, resp[taken] % 64, 0)
                for q in range(4):
                    if q != taken and resp[q] != A_PASS:
                        _log(S, log, q, resp[q] // 64, resp[q] % 64, 1)
    return E_STEPS


# per-game results (row of `out`)
R_ERR = 0
R_WINNER = 1  # -1 drawn
R_KIND = 2
R_FROM = 3
R_TOTAL = 4
R_SCORE = 5  # 4
R_STEPS = 9
R_CLAIMS = 10
R_LAST_KIND = 11
R_LAST_WALL = 12
R_KONG_WIN = 13
R_ERR_SEAT = 14
R_ERR_ACTION = 15
N_R = 16


@pjit
def play_games(first, n_games, seed, gctx, pctx, tab, suits, n_fans, out, fans_out, final, logs):
    """Play games ``first .. first + n_games - 1`` of a study with ``seed`` (parallel over games).

    ``out`` int64 (n_games, N_R) per-game results; ``fans_out`` uint8 (n_games,
    n_fans) fan counts of the win (zero for a drawn game); ``final`` int64
    (n_games, N_STATE) the final state of each game (for the invariant tests;
    pass shape (0, N_STATE) to skip); ``logs`` int64 (n_games, k, 4) the moves of
    each game (see :func:`play_game`; shape (0, 0, 4) to skip).
    """
    n_threads = 16
    per = (n_games + n_threads - 1) // n_threads
    for b in prange(n_threads):
        _play_block(
            None, b * per, min(n_games, b * per + per), first, seed, gctx, pctx, tab, suits,
            n_fans, out, fans_out, final, logs,
        )  # fmt: skip
    return 0


@pjit
def play_games_custom(
    own0, own1, own2, own3, answer0, answer1, answer2, answer3, first, n_games, seed, gctx,
    pctx, tab, suits, n_fans, out, fans_out, final, logs,
):  # fmt: skip
    """:func:`play_games` with user policies: ``own<q>`` / ``answer<q>`` are seat ``q``'s
    functions (:func:`user_policy_type`), called where ``gctx[G_POLICY + q]`` is
    ``POLICY_USER``; compile it once with :func:`custom_games_kernel`."""
    user = (own0, own1, own2, own3, answer0, answer1, answer2, answer3)
    n_threads = 16
    per = (n_games + n_threads - 1) // n_threads
    for b in prange(n_threads):
        _play_block(
            user, b * per, min(n_games, b * per + per), first, seed, gctx, pctx, tab, suits,
            n_fans, out, fans_out, final, logs,
        )  # fmt: skip
    return 0


@ijit  # inlined: the game loop is compiled once per entry point, not a third time
def _play_block(
    user, lo, hi, first, seed, gctx, pctx, tab, suits, n_fans, out, fans_out, final, logs
):
    """Games ``lo .. hi - 1`` of one thread of :func:`play_games` (its scratch allocated once)."""
    if lo >= hi:
        return
    S = np.zeros(N_STATE, np.int64)
    wall = np.zeros(144, np.int64)[: wall_size(gctx[G_TILES], gctx[G_WALL_FLOWERS])]
    work, buf = new_work(n_fans, suits)
    scratch = work[P.W_SCORE]
    fan = np.zeros(n_fans, np.uint8)
    view = np.zeros(N_VIEW, np.int64)
    acts = np.zeros(MAX_ACTIONS, np.int64)
    resp = np.zeros(4, np.int64)
    rng = np.zeros(4, np.uint64)
    no_log = np.zeros((0, 4), np.int64)
    # each thread its own copy of the policy contexts: a policy may write its own
    # row (the planner sets its weighing of discard wins there on every call)
    ctx = pctx.copy()
    for i in range(lo, hi):
        log = logs[i] if logs.shape[0] > 0 else no_log
        game_rng(seed, first + i, rng)
        shuffle_wall(rng, wall, gctx[G_TILES], gctx[G_WALL_FLOWERS])
        err = play_game_user(
            user, S, wall, gctx, ctx, tab, scratch, fan, work, buf, view, acts, resp, rng, log
        )
        r = out[i]
        r[R_ERR] = err
        r[R_WINNER] = S[S_WINNER]
        r[R_KIND] = S[S_WIN_KIND]
        r[R_FROM] = S[S_FROM]
        r[R_TOTAL] = S[S_TOTAL]
        for q in range(4):
            r[R_SCORE + q] = S[S_SCORE + q]
        r[R_STEPS] = S[S_STEPS]
        r[R_CLAIMS] = S[S_CLAIMS]
        r[R_LAST_KIND] = S[S_LAST_KIND]
        r[R_LAST_WALL] = S[S_LAST_WALL]
        r[R_KONG_WIN] = S[S_KONG_WIN]
        r[R_ERR_SEAT] = S[S_ERR_SEAT]
        r[R_ERR_ACTION] = S[S_ERR_ACTION]
        if S[S_WINNER] >= 0:
            for f in range(n_fans):
                fans_out[i, f] = fan[f]
        else:
            for f in range(n_fans):
                fans_out[i, f] = 0
        if final.shape[0] > 0:
            for k in range(N_STATE):
                final[i, k] = S[k]
