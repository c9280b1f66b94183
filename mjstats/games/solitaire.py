"""Solitaire games: one player draws from a shuffled wall and discards by a policy (numba).

The model
---------
A game starts from a concealed hand (dealt 13 tiles in ``play``; given in
``analyze``), optional melds, and a wall: the tiles the player has not seen,
in random order. Nobody else plays: no claims, no other draws. Each draw adds
the wall's next tile; if the hand is then a *legal* win of the ruleset (MCR:
at least 8 fan, flowers excluded) the game ends with that self-drawn win.
Otherwise the policy (:mod:`mjstats.games.discard_policies`) picks a discard. The
game ends without a win after ``draws`` draws (or when the wall is empty).

Win context: self-drawn; seat and round wind from the context vector; 和绝张
(last of its kind) when the other three copies are visible to the player (own
discards, melds, declared visible tiles); 妙手回春 (last tile of the wall) on
the final draw when ``last_tile`` is set, and always on the wall's very last
tile. No kongs are declared: a fourth copy stays in the hand.

Randomness: a game consumes its generator only to order the wall
(``shuffle_prefix`` of the tiles it may draw, before the first draw), so the
draws of game ``g`` of a chunk are the same whatever the policy: policies
compared with one seed see the same walls (common random numbers).

Kernels are generic in the policy: :func:`play_solitaire` takes a user policy as
a function argument, or None for the built-in policy chosen by
``ctx[CTX_POLICY]`` (called directly as a global; numba does not cache code
that holds a jitted function as a constant). The entry points for built-in
policies pass None. The ``*_custom`` entry points take the user policy; use
them through :func:`custom_kernel`, which compiles them once for the policy
*signature* (a numba ``FunctionType``, :func:`policy_type`): any user policy
is then called through a function pointer, and the game kernel is compiled
once and cached on disk like the built-in ones (only the user's policy itself
is compiled in a new process).
"""

from __future__ import annotations

import numpy as np
from numba import prange

from mjstats.games.discard_policies import (
    CTX_FORMS,
    INFO_NEED,
    W_FANS,
    W_INFO,
    builtin_policy,
    new_policy_work,
    score_win,
)
from mjstats.kernels._jit import ijit, jit, pjit
from mjstats.kernels.accumulate import accumulate_chunk
from mjstats.kernels.decompose import suit_table
from mjstats.kernels.rng import shuffle_prefix
from mjstats.kernels.shanten import shanten_one
from mjstats.kernels.tables import get_tables

__all__ = [
    "R_DRAW",
    "R_ERRORS",
    "R_FINAL_SHANTEN",
    "R_FORM",
    "R_PASSED",
    "R_SIZE",
    "R_TOTAL",
    "analyze_jobs",
    "analyze_jobs_custom",
    "custom_kernel",
    "game_step",
    "play_chunks",
    "play_chunks_custom",
    "play_solitaire",
    "policy_type",
]

# result vector of play_solitaire
R_DRAW = 0  # draw (1-based) of the legal win, 0 = no win
R_TOTAL = 1  # fan total of the win (flowers excluded), -1 = no win
R_FORM = 2  # form code of the win
R_PASSED = 3  # complete but illegal hands passed by
R_ERRORS = 4  # invalid discards returned by the policy (replaced by the drawn tile)
R_FINAL_SHANTEN = 5  # shanten of the final hand when there was no win
R_SIZE = 8

# extra counters of the play study (per chunk)
X_GAMES = 0
X_WINS = 1
X_PASSED = 2
X_ERRORS = 3
X_DRAWS = 4  # draws made in all
X_SIZE = 8

SHANTEN_BINS = 16  # final shanten -1 .. 14, at index shanten + 1


@ijit
def game_step(
    policy, i, n_draws, n_wall, last_tile, stop_hopeless, x, counts, melds, n_melds, unseen,
    known_need, ctx, tab, work,
):  # fmt: skip
    """Draw ``i`` (0-based) of tile ``x``: win test, then the policy's discard.

    ``x`` must already be removed from ``unseen``; it is added to ``counts``.
    ``known_need`` is the need of the hand before the draw if known (else -1):
    with a need above 1 the draw cannot complete the hand and the win test is
    skipped.

    Returns ``(status, a, b, passed, errors)``: status 1 = legal win (``a``
    total, ``b`` form; the fans are in ``work[W_FANS]``), 0 = the game goes on
    (``a`` = need of the hand now, -1 unknown), 2 = the game is over without a
    win (last draw made, or hopeless with ``stop_hopeless``). ``passed`` = 1
    when a complete hand below the minimum was passed by, ``errors`` = 1 when
    the policy returned an invalid discard (the drawn tile was discarded).
    """
    counts[x] += 1
    passed = 0
    if known_need < 0 or known_need <= 1:
        if shanten_one(counts, n_melds, ctx[CTX_FORMS], tab) == -1:
            visible = 4 - unseen[x] - np.int64(counts[x])
            last_wall = i == n_wall - 1 or (last_tile and i == n_draws - 1)
            total, form, legal = score_win(ctx, counts, melds, x, visible == 3, last_wall, work)
            if legal:
                return 1, np.int64(total), np.int64(form), 0, 0
            passed = 1
    if i == n_draws - 1:
        return 2, -1, 0, passed, 0
    info = work[W_INFO]
    info[INFO_NEED] = -1
    left = n_draws - 1 - i
    drawn = np.int64(x)
    if policy is None:  # built-in policies (pruned at compile time when a function is given)
        d = builtin_policy(counts, melds, n_melds, drawn, unseen, left, ctx, tab, work)
    else:
        d = policy(counts, melds, n_melds, drawn, unseen, left, ctx, tab, work)
    errors = 0
    if d < 0 or d >= 34 or counts[d] == 0:
        errors = 1
        d = x
    counts[d] -= 1
    need = info[INFO_NEED]
    if stop_hopeless and need > left:
        return 2, need, 0, passed, errors
    return 0, need, 0, passed, errors


@jit
def play_solitaire(
    policy, wall, n_draws, last_tile, stop_hopeless, counts, melds, n_melds, unseen, ctx, tab,
    work, res,
):  # fmt: skip
    """Play one game from the current hand; returns True on a legal win.

    Parameters
    ----------
    policy : function or None
        A user policy (see :mod:`mjstats.games.discard_policies`), or None for the
        built-in policy ``ctx[CTX_POLICY]`` (the branch is resolved at compile
        time, so built-in games never hold a function value and stay cacheable).
    wall : uint8 (W,)
        The wall in drawing order; ``wall[i]`` is draw ``i + 1``.
    n_draws : int
        Draws to make at most (``<= W``).
    last_tile : bool
        The final draw is the last tile of the wall (妙手回春).
    stop_hopeless : bool
        End the game as soon as the policy reports a need (shanten + 1) larger
        than the draws left: no win is possible any more (the result is the
        same, ``R_FINAL_SHANTEN`` is then the shanten at that point).
    counts : uint8 (34,)
        Concealed tiles (3k+1), modified in place.
    melds : uint8 (4, 2)
        Melds (``n_melds`` used).
    unseen : int64 (34,)
        Unseen copies (the wall's contents), modified in place.
    ctx, tab, work
        Context vector, shanten tables, scratch from ``new_policy_work``.
    res : int64 (R_SIZE,)
        Receives the result (``R_*`` slots); the win's fans are in ``work[W_FANS]``.

    Examples
    --------
    A seven-pairs hand waiting on 5z, with 5z on top of the wall:

    >>> import numpy as np
    >>> from mjstats.games.discard_policies import new_policy_work
    >>> from mjstats.kernels.tables import get_tables
    >>> from mjstats.kernels.decompose import suit_table
    >>> from mjstats.rules import get_ruleset
    >>> from mjstats.games.discard_policies import policy_context
    >>> from mjstats.tiles import parse_tiles
    >>> hand = parse_tiles("11m33m55m77m11p33p5z")
    >>> rest = np.repeat(np.arange(34, dtype=np.uint8), 4 - hand)
    >>> wall = np.concatenate([[31], rest[rest != 31], [31, 31]]).astype(np.uint8)
    >>> res = np.zeros(R_SIZE, np.int64)
    >>> won = play_solitaire(None, wall, 5, False, False, hand, np.zeros((4, 2), np.uint8), 0,
    ...                 (4 - hand).astype(np.int64), policy_context(get_ruleset("mcr"), 0),
    ...                 get_tables(), new_policy_work(82, suit_table()), res)
    >>> bool(won), int(res[R_DRAW]), int(res[R_TOTAL])
    (True, 1, 26)
    """
    res[R_DRAW] = 0
    res[R_TOTAL] = -1
    res[R_FORM] = 0
    res[R_PASSED] = 0
    res[R_ERRORS] = 0
    res[R_FINAL_SHANTEN] = 0
    known = -1
    n_wall = wall.shape[0]
    for i in range(n_draws):
        x = wall[i]
        unseen[x] -= 1
        status, a, b, passed, errors = game_step(
            policy, i, n_draws, n_wall, last_tile, stop_hopeless, x, counts, melds, n_melds,
            unseen, known, ctx, tab, work,
        )  # fmt: skip
        res[R_PASSED] += passed
        res[R_ERRORS] += errors
        if status == 1:
            res[R_DRAW] = i + 1
            res[R_TOTAL] = a
            res[R_FORM] = b
            return True
        if status == 2:
            break
        known = a
    res[R_FINAL_SHANTEN] = shanten_one(counts, n_melds, ctx[CTX_FORMS], tab)
    return False


# ------------------------------------------------------------------ play study
@jit
def _play_chunk(
    policy, state, n_games, wall0, draws, last_tile, ctx, tab, suits, n_fans, fc, c,
    win_draw, extra, final_hist,
):  # fmt: skip
    """Play ``n_games`` games from fresh deals; counters of chunk ``c``."""
    wall = wall0.copy()
    n_wall = wall.shape[0]
    counts = np.zeros(34, np.uint8)
    unseen = np.zeros(34, np.int64)
    melds = np.zeros((4, 2), np.uint8)
    work = new_policy_work(n_fans, suits)
    res = np.zeros(R_SIZE, np.int64)
    fans = work[W_FANS]
    n_draws = min(draws, n_wall - 13)
    for _ in range(n_games):
        wall[:] = wall0
        shuffle_prefix(state, wall, 13 + n_draws)
        counts[:] = 0
        unseen[:] = 0
        for j in range(n_wall):
            unseen[wall[j]] += 1
        for j in range(13):
            counts[wall[j]] += 1
            unseen[wall[j]] -= 1
        won = play_solitaire(
            policy, wall[13:], n_draws, last_tile, False, counts, melds, 0, unseen,
            ctx, tab, work, res,
        )  # fmt: skip
        extra[X_GAMES] += 1
        extra[X_PASSED] += res[R_PASSED]
        extra[X_ERRORS] += res[R_ERRORS]
        if won:
            extra[X_WINS] += 1
            extra[X_DRAWS] += res[R_DRAW]
            win_draw[res[R_DRAW]] += 1
            accumulate_chunk(fc, c, fans, res[R_TOTAL], 0, res[R_FORM], True, True, 1)
        else:
            extra[X_DRAWS] += n_draws
            final_hist[min(res[R_FINAL_SHANTEN] + 1, SHANTEN_BINS - 1)] += 1
            accumulate_chunk(fc, c, fans, -1, 0, 0, True, False, 1)


@ijit  # a thin layer: inlined, so numba does not compile the whole game a third time
def _play_chunks_impl(
    policy, states, sizes, wall0, draws, last_tile, ctx, tab, suits, n_fans, fc, win_draw, extra,
    final_hist, c,
):  # fmt: skip
    _play_chunk(
        policy, states[c], sizes[c], wall0, draws, last_tile, ctx, tab, suits, n_fans, fc, c,
        win_draw[c], extra[c], final_hist[c],
    )  # fmt: skip


@pjit
def play_chunks(
    states, sizes, wall0, draws, last_tile, ctx, tab, suits, n_fans, fc, win_draw, extra, final_hist
):
    """Chunks of ``play`` games with a built-in policy (``ctx[CTX_POLICY]``), in parallel.

    ``states`` uint64 (C, 4) generator states, ``sizes`` int64 (C,) games per
    chunk, ``wall0`` uint8 (W,) the ruleset's wall in any fixed order, ``fc``
    fan counters from :func:`~mjstats.kernels.accumulate.chunk_counters`,
    ``win_draw`` int64 (C, draws + 1), ``extra`` int64 (C, X_SIZE),
    ``final_hist`` int64 (C, SHANTEN_BINS). Each chunk writes only its rows.
    """
    for c in prange(states.shape[0]):
        _play_chunks_impl(
            None, states, sizes, wall0, draws, last_tile, ctx, tab, suits, n_fans, fc, win_draw,
            extra, final_hist, np.int64(c),
        )  # fmt: skip


@pjit
def play_chunks_custom(
    policy, states, sizes, wall0, draws, last_tile, ctx, tab, suits, n_fans, fc, win_draw, extra,
    final_hist,
):  # fmt: skip
    """:func:`play_chunks` with a user policy (compiled once per process, not cached)."""
    for c in prange(states.shape[0]):
        _play_chunks_impl(
            policy, states, sizes, wall0, draws, last_tile, ctx, tab, suits, n_fans, fc, win_draw,
            extra, final_hist, np.int64(c),
        )  # fmt: skip


# ------------------------------------------------------------------ analyze
# per (candidate, chunk) sums
A_PLAYOUTS = 0
A_WINS = 1
A_FAN_SUM = 2
A_FAN_SQ = 3
A_DRAW_SUM = 4
A_PASSED = 5
A_ERRORS = 6
A_SIZE = 8


@ijit
def _same_hand(hands, s, t):
    for j in range(34):
        if hands[s, j] != hands[t, j]:
            return False
    return True


@jit
def _analyze_chunk(
    policy, state, n_playouts, hand, cands, melds, n_melds, unseen0, wall0, draws, last_tile,
    ctx, tab, suits, n_fans, sums, win_draw, fan_draw, fan_count, fan_hands,
):  # fmt: skip
    """Playouts of every candidate discard from one generator state, in lockstep.

    All candidates of a playout draw from the same wall. The game state after
    draw ``i`` is the concealed hand alone (the unseen counts depend only on
    the draws), and policies are deterministic, so candidates whose hands
    become equal share the rest of the playout: such states are merged and
    played once. Outputs (K rows, one per candidate) are added to.
    """
    n_cand = cands.shape[0]
    wall = wall0.copy()
    n_wall = wall.shape[0]
    n_draws = min(draws, n_wall)
    hands = np.zeros((n_cand, 34), np.uint8)
    group = np.zeros(n_cand, np.int64)  # candidate -> state row
    known = np.zeros(n_cand, np.int64)  # state -> need, -1 unknown
    active = np.zeros(n_cand, np.bool_)
    unseen = np.zeros(34, np.int64)
    work = new_policy_work(n_fans, suits)
    fans = work[W_FANS]
    for _ in range(n_playouts):
        wall[:] = wall0
        shuffle_prefix(state, wall, n_draws)
        unseen[:] = unseen0
        for k in range(n_cand):
            hands[k, :] = hand
            if cands[k] >= 0:
                hands[k, cands[k]] -= 1
            group[k] = k
            known[k] = -1
            active[k] = True
            sums[k, A_PLAYOUTS] += 1
        n_active = n_cand
        for i in range(n_draws):
            if n_active == 0:
                break
            x = wall[i]
            unseen[x] -= 1
            for st in range(n_cand):
                if not active[st]:
                    continue
                status, a, _b, passed, errors = game_step(
                    policy, i, n_draws, n_wall, last_tile, True, x, hands[st], melds, n_melds,
                    unseen, known[st], ctx, tab, work,
                )  # fmt: skip
                if passed or errors:
                    for k in range(n_cand):
                        if group[k] == st:
                            sums[k, A_PASSED] += passed
                            sums[k, A_ERRORS] += errors
                if status == 0:
                    known[st] = a
                    continue
                active[st] = False
                n_active -= 1
                if status == 1:
                    for k in range(n_cand):
                        if group[k] != st:
                            continue
                        sums[k, A_WINS] += 1
                        sums[k, A_FAN_SUM] += a
                        sums[k, A_FAN_SQ] += a * a
                        sums[k, A_DRAW_SUM] += i + 1
                        win_draw[k, i + 1] += 1
                        fan_draw[k, 0, i + 1] += a
                        fan_draw[k, 1, i + 1] += a * a
                        for f in range(n_fans):
                            if fans[f]:
                                fan_count[k, f] += fans[f]
                                fan_hands[k, f] += 1
            # merge states whose hands became equal
            for st in range(n_cand):
                if not active[st]:
                    continue
                for s2 in range(st + 1, n_cand):
                    if active[s2] and _same_hand(hands, st, s2):
                        for k in range(n_cand):
                            if group[k] == s2:
                                group[k] = st
                        if known[s2] != known[st]:
                            known[st] = -1
                        active[s2] = False
                        n_active -= 1


@pjit
def analyze_jobs(
    states, sizes, hand, cands, melds, n_melds, unseen0, wall0, draws, last_tile, ctx, tab,
    suits, n_fans, sums, win_draw, fan_draw, fan_count, fan_hands,
):  # fmt: skip
    """Monte Carlo playouts of every candidate discard, in parallel over playout chunks.

    ``hand`` uint8 (34,) the 3k+2 (or 3k+1, with ``cands == [-1]``) concealed
    tiles; ``cands`` int64 (K,) the discards; ``states`` (C, 4) and ``sizes``
    (C,) the playout chunks; ``unseen0`` int64 (34,) and ``wall0`` uint8 (W,)
    the unseen tiles. Outputs per chunk and candidate: ``sums`` int64
    (C, K, A_SIZE), ``win_draw`` (C, K, draws + 1) the wins by draw, ``fan_draw``
    (C, K, 2, draws + 1) the sums of their fan totals and of their squares, ``fan_count``
    and ``fan_hands`` (C, K, n_fans). Chunk ``c`` plays from ``states[c]``, every
    candidate against the same walls.
    """
    for c in prange(states.shape[0]):
        _analyze_chunk(
            None, states[c], sizes[c], hand, cands, melds, n_melds, unseen0, wall0, draws,
            last_tile, ctx, tab, suits, n_fans, sums[c], win_draw[c], fan_draw[c],
            fan_count[c], fan_hands[c],
        )  # fmt: skip


@pjit
def analyze_jobs_custom(
    policy, states, sizes, hand, cands, melds, n_melds, unseen0, wall0, draws, last_tile, ctx,
    tab, suits, n_fans, sums, win_draw, fan_draw, fan_count, fan_hands,
):  # fmt: skip
    """:func:`analyze_jobs` with a user policy (compiled once per process, not cached)."""
    for c in prange(states.shape[0]):
        _analyze_chunk(
            policy, states[c], sizes[c], hand, cands, melds, n_melds, unseen0, wall0, draws,
            last_tile, ctx, tab, suits, n_fans, sums[c], win_draw[c], fan_draw[c],
            fan_count[c], fan_hands[c],
        )  # fmt: skip


# ------------------------------------------------------------------ user policies
_TYPED: dict = {}


def policy_type(n_fans: int):
    """The numba ``FunctionType`` of a policy for a ruleset with ``n_fans`` fans.

    ``int64(counts uint8[::1], melds uint8[:, ::1], n_melds int64, drawn int64,
    unseen int64[::1], draws_left int64, ctx int64[::1], tab ShantenTables,
    work tuple)``; see :mod:`mjstats.games.discard_policies`.

    Examples
    --------
    >>> print(policy_type(82).signature.return_type)
    int64
    """
    from numba import typeof, types

    u8 = types.Array(types.uint8, 1, "C")
    i64 = types.Array(types.int64, 1, "C")
    sig = types.int64(
        u8,
        types.Array(types.uint8, 2, "C"),
        types.int64,
        types.int64,
        i64,
        types.int64,
        i64,
        typeof(get_tables()),
        typeof(new_policy_work(n_fans, suit_table())),
    )
    return types.FunctionType(sig)


def custom_kernel(kernel, args: tuple, n_fans: int, ftypes: tuple | None = None):
    """``kernel`` (a ``*_custom`` entry point) compiled for any user policy.

    Returns a dispatcher of the same function compiled once for a policy of
    type :func:`policy_type` followed by the types of ``args`` (the kernel's
    other arguments), with further compilation disabled, so that a user
    policy (any ``@jit`` function; numba compiles it for the policy signature
    when it is passed) is called through a function pointer. The compiled
    kernel is cached on disk: a new process loads it instead of compiling.
    ``ftypes``: the function types of the kernel's leading function arguments
    when they are not one policy (the game engine's user policies).
    """
    from numba import typeof

    sig = (*(ftypes or (policy_type(n_fans),)), *(typeof(a) for a in args))
    key = (kernel.py_func.__name__, sig)
    typed = _TYPED.get(key)
    if typed is None:
        typed = pjit(kernel.py_func)
        typed.compile(sig)
        typed.disable_compile()
        _TYPED[key] = typed
    return typed
