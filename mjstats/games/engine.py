"""Public layer of the game engine: options -> kernel constants, games -> DataFrame."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd

from mjstats.arguments import MAX_COUNT, check_choice, check_count, check_seed
from mjstats.compiling import notice
from mjstats.errors import GameError, InvalidArgumentError, UnknownRulesetError
from mjstats.games import kernels as G
from mjstats.games.discard_policies import policy_context
from mjstats.games.guard import guard_policy, raised_slot
from mjstats.games.records import open_records, write_records
from mjstats.games.solitaire import custom_kernel
from mjstats.kernels.decompose import suit_table
from mjstats.kernels.tables import get_tables
from mjstats.rulesets import Ruleset, get_ruleset
from mjstats.tiles import TILES, format_tiles

__all__ = [
    "POLICIES",
    "WALLS",
    "GameError",
    "GameOptionError",
    "GameRules",
    "engine_context",
    "game_rules",
    "play_games",
    "seat_policies",
    "user_policy_type",
]


class GameOptionError(InvalidArgumentError):
    """A game option that is not accepted: unknown wall, policy or ruleset, a seed,
    count, offset or round wind out of range or of the wrong type, a records file
    that cannot be written, or an impossible combination of them.

    Examples
    --------
    >>> play_games(1, seed=-1)
    Traceback (most recent call last):
    ...
    mjstats.games.engine.GameOptionError: seed must be an integer 0 to 2**64-1, got -1
    """


_PHASES = {G.PH_OWN: "own turn", G.PH_CLAIM: "answer to a discard", G.PH_ROB: "answer to a kong"}


def describe_action(a: int) -> str:
    """``"discard 5p"`` for an action code of :mod:`mjstats.games.kernels`.

    Examples
    --------
    >>> describe_action(1 * 64 + 13), describe_action(0)
    ('discard 5p', 'pass')
    """

    kind, tile = divmod(int(a), 64)
    if a == 0:
        return "pass"
    if not 0 <= kind < len(G.ACTION_NAMES) or tile >= 34:
        return f"unknown action code {int(a)}"
    return f"{G.ACTION_NAMES[kind]} {TILES[tile]}"


def game_error_message(game: int, row: np.ndarray, S: np.ndarray) -> str:
    """The message of a stopped game from its result row and its state vector."""
    code = int(row[G.R_ERR])
    msg = f"game {game}: {G.ERRORS[code] if 0 <= code < len(G.ERRORS) else f'error {code}'}"
    if code == G.E_POLICY:
        seat = int(row[G.R_ERR_SEAT])
        msg += (
            f": seat {seat} returned '{describe_action(row[G.R_ERR_ACTION])}' in its "
            f"{_PHASES.get(int(S[G.S_PHASE]), 'phase ' + str(S[G.S_PHASE]))} "
            f"({describe_state(S, seat)})"
        )
    return msg


def describe_state(S: np.ndarray, seat: int) -> str:
    """A game state as a stopped game's message shows it: whose turn, the last tile,
    the seat's concealed tiles and melds."""

    hand = S[G.S_HAND + 34 * seat : G.S_HAND + 34 * seat + 34].astype(np.uint8)
    last = int(S[G.S_LAST_TILE])
    last_tile = TILES[last] if 0 <= last < 34 else "-"
    return (
        f"turn of seat {int(S[G.S_TURN])}, last tile {last_tile} "
        f"of seat {int(S[G.S_LAST_SEAT])}, its concealed tiles {format_tiles(hand)}, "
        f"{int(S[G.S_NMELD + seat])} melds"
    )


WALLS = {"botzone": G.WALL_BOTZONE, "shared": G.WALL_SHARED}
"""Wall names: ``"botzone"`` (136 tiles, a 34-tile segment per player, as the Botzone
judge plays) and ``"shared"`` (144 tiles with the 8 flowers, replacements from the far end)."""

POLICIES = tuple(G.POLICY_IDS)
"""Built-in policy names (``"random"``: uniform over the legal actions;
``"efficiency"``: fewest shanten, most useful tiles, claims that lower the shanten
while a fan target reaching the minimum stays reachable; ``"fan-aware"``: the
``play`` study's 8-fan targeting on its own turns, claims that bring a fan target
reaching the minimum closer; ``"planner"``: plans toward the 8-fan hands the position
can reach, open hands included, each counted at what its win pays, and the exact value
of the legal wins near a win, folding to the safest tile when its hand is unlikely
to be ready in time (:mod:`mjstats.games.planner`))."""


def _is_function(f) -> bool:
    return callable(f) and hasattr(f, "py_func")  # a numba @jit dispatcher


def _is_user_pair(p) -> bool:
    return isinstance(p, (tuple, list)) and len(p) == 2 and all(_is_function(f) for f in p)


def seat_policies(policy, n_seats: int = 4) -> list:
    """The policy of each of the ``n_seats`` seats (four; two in two-player): a built-in
    name or a user pair ``(own, answer)``.

    ``policy`` is one name or pair for every seat, or a sequence of ``n_seats`` of
    them (seat 0 East first). Names are case-insensitive, ``_`` for ``-``.

    Examples
    --------
    >>> seat_policies("fan_aware")
    ['fan-aware', 'fan-aware', 'fan-aware', 'fan-aware']
    >>> seat_policies(["random", "efficiency", "random", "Fan-Aware"])[3]
    'fan-aware'
    >>> seat_policies(["random", "fan-aware"], 2)
    ['random', 'fan-aware']
    """
    if isinstance(policy, str) or _is_user_pair(policy):
        items = [policy]
    else:
        try:
            items = list(policy)
        except TypeError:
            raise GameOptionError(
                f"policy must be a name ({', '.join(POLICIES)}), a pair (own, answer) of "
                f"numba @jit functions, or {n_seats} of them, not {type(policy).__name__}"
            ) from None
    if len(items) == 1:
        items = items * n_seats
    if len(items) != n_seats:
        raise GameOptionError(
            f"give one policy for all seats or one per seat ({n_seats}), not {len(items)}"
        )
    out = []
    for seat, p in enumerate(items):
        if isinstance(p, str):
            name = p.lower().replace("_", "-")
            if name not in G.POLICY_IDS:
                raise GameOptionError(f"unknown policy {p!r}; choose one of {', '.join(POLICIES)}")
            out.append(name)
        elif _is_user_pair(p):
            out.append(tuple(p))
        else:
            raise GameOptionError(
                f"seat {seat}: a policy is a name ({', '.join(POLICIES)}) or a pair "
                f"(own, answer) of numba @jit functions, not {p!r}"
            )
    return out


def policy_label(p) -> str:
    """A seat policy's name in study parameters and tables: the built-in name, or
    ``custom:module.own/answer`` for a user pair.

    Examples
    --------
    >>> policy_label("efficiency")
    'efficiency'
    """
    if isinstance(p, str):
        return p
    own, answer = (f.py_func for f in p)
    return f"custom:{own.__module__}.{own.__qualname__}/{answer.__qualname__}"


def _policy_ids(policy, n_seats: int = 4) -> list[int]:
    return [
        G.POLICY_IDS[p] if isinstance(p, str) else G.POLICY_USER
        for p in seat_policies(policy, n_seats)
    ]


def user_policy_type(n_fans: int = 82):
    """The numba ``FunctionType`` of a user game policy (both decisions have it).

    ``int64(view int64[::1], acts int64[::1], n_acts int64, ctx int64[::1],
    tab ShantenTables, work tuple)``: ``view`` is what the seat sees
    (:func:`mjstats.games.kernels.make_view`, ``V_*`` layout), ``acts[:n_acts]``
    the legal actions (``kind * 64 + tile``; on an answer ``acts[0]`` is pass),
    ``ctx`` the seat's policy context (:mod:`mjstats.games.discard_policies`),
    ``tab`` the shanten tables, ``work`` the policy scratch tuple. The function
    returns one of the actions.

    Examples
    --------
    >>> print(user_policy_type().signature.return_type)
    int64
    """
    from numba import typeof, types

    i64 = types.Array(types.int64, 1, "C")
    work, _ = G.new_work(n_fans, suit_table())
    sig = types.int64(i64, i64, types.int64, i64, typeof(get_tables()), typeof(work))
    return types.FunctionType(sig)


def _user_functions(seats: list) -> tuple | None:
    """The 8 functions of :func:`mjstats.games.kernels.play_games_custom` (own turns of
    seats 0-3, then answers), or None when every seat plays a built-in policy. Seats
    with a built-in policy, and the seats a two-seat game leaves empty, get any user
    function: the kernel never calls it."""
    pairs = [p for p in seats if not isinstance(p, str)]
    if not pairs:
        return None
    filler = pairs[0]
    seats = list(seats) + [filler] * (4 - len(seats))
    own = [p[0] if not isinstance(p, str) else filler[0] for p in seats]
    answer = [p[1] if not isinstance(p, str) else filler[1] for p in seats]
    return (*own, *answer)


def _run_kernel(user, first, n, seed, gctx, pctx, tab, suits, n_fans, out, fans, final, logs):
    args = (np.int64(first), np.int64(n), np.uint64(int(seed) % (1 << 64)), gctx, pctx, tab,
            suits, np.int64(n_fans), out, fans, final, logs)  # fmt: skip
    if user is None:
        G.play_games(*args)
        return
    from numba.core.errors import NumbaError

    kernel = custom_kernel(
        G.play_games_custom, args, n_fans, ftypes=(user_policy_type(n_fans),) * 8
    )
    try:
        kernel(*user, *args)
    except SystemError as exc:  # a user policy raised: numba does not stop at it
        cause = exc.__cause__ or exc.__context__
        if cause is None:
            raise
        raise _policy_raised(kernel, user, args, cause) from None
    except (NumbaError, TypeError) as exc:
        # the user's function does not compile for (or does not have) the signature
        first_line = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise GameOptionError(
            f"a user game policy does not fit the policy signature "
            f"(mjstats.games.user_policy_type): {first_line}"
        ) from None


def _policy_raised(kernel, user, args, cause: BaseException) -> GameError:
    """The :class:`GameError` of a user policy that raised ``cause``: the games are
    played again with every user function guarded (:mod:`mjstats.games.guard`),
    which stops the first game where one raises, to name that game and seat."""

    first, n = int(args[0]), int(args[1])
    out = np.zeros((n, G.N_R), np.int64)
    state = np.zeros((n, G.N_STATE), np.int64)
    again = (*args[:8], out, np.zeros((n, args[7]), np.uint8), state, np.zeros((0, 0, 4), np.int64))
    kernel(*(guard_policy(f, k) for k, f in enumerate(user)), *again)
    what = f"{type(cause).__name__}: {cause}"
    for i in np.flatnonzero(out[:, G.R_ERR] == G.E_POLICY).tolist():
        slot = raised_slot(out[i, G.R_ERR_ACTION])
        if slot >= 0:
            seat, decision = slot % 4, "own turn" if slot < 4 else "answer to a discard or kong"
            return GameError(
                f"game {first + i}: the user policy of seat {seat} ({decision}) raised {what} "
                f"({describe_state(state[i], seat)})"
            )
    return GameError(f"games {first}..{first + n - 1}: a user policy raised {what}")


def engine_context(ruleset, wall: str, round_wind: int, policy, check: bool = False):
    """The kernel constants of a game: ``(gctx, pctx, shanten tables, suit table)``.

    ``gctx`` is the engine's int64 (G_SIZE,) context, ``pctx`` the policies'
    contexts, one row per seat (seat wind = row).

    Examples
    --------
    >>> gctx, pctx, _, _ = engine_context("mcr", "shared", 0, "random")
    >>> from mjstats.games.discard_policies import CTX_SIZE
    >>> int(gctx[G.G_MINIMUM]), pctx.shape == (4, CTX_SIZE)
    (8, True)
    """
    # deferred: rulesets may still be registered until the dispatch loads
    from mjstats.rulesets.dispatch import kernel_spec

    rs = ruleset if isinstance(ruleset, Ruleset) else get_ruleset(ruleset)
    rules = game_rules(rs)
    n_seats = len(rules.seat_winds)
    if wall not in WALLS:
        raise GameOptionError(f"unknown wall {wall!r}; choose one of {', '.join(WALLS)}")
    if wall == "botzone" and (n_seats != 4 or rules.tiles != G.ALL_TILES):
        raise GameOptionError(
            f"the Botzone wall is the 136 tiles of four players; {rs.title} ({rs.spec!r}) "
            f"plays {n_seats} seats: use wall='shared'"
        )
    if not 0 <= int(round_wind) <= 3:
        raise GameOptionError(f"round wind must be 0-3 (E S W N), not {round_wind!r}")
    if rules.rounds is not None and int(round_wind) not in rules.rounds:
        raise GameOptionError(
            f"{rs.title} ({rs.spec!r}) plays round winds {list(rules.rounds)} only, "
            f"not {round_wind!r}"
        )
    ids = _policy_ids(policy, n_seats)
    spec = kernel_spec(rs)
    gctx = np.zeros(G.G_SIZE, np.int64)
    gctx[G.G_RULESET] = spec.ruleset_id
    gctx[G.G_OPTS] = spec.opts
    gctx[G.G_MINIMUM] = spec.minimum
    gctx[G.G_FLOWERS_COUNT] = int(spec.flowers_count_toward_minimum)
    gctx[G.G_ROUND] = int(round_wind)
    gctx[G.G_BASE] = rs.base_payment
    gctx[G.G_WALL] = WALLS[wall]
    gctx[G.G_CHECK] = int(check)
    gctx[G.G_POLICY : G.G_POLICY + n_seats] = ids
    gctx[G.G_SEATS] = n_seats
    winds = list(rules.seat_winds) + [0] * (4 - n_seats)
    gctx[G.G_SEAT_WIND : G.G_SEAT_WIND + 4] = winds
    gctx[G.G_CLAIMS] = rules.claims
    gctx[G.G_SITUATIONS] = int(rules.situations)
    gctx[G.G_TILES] = rules.tiles
    gctx[G.G_WALL_FLOWERS] = rules.flowers if wall == "shared" else 0
    pctx = np.stack([policy_context(rs, 0, w, int(round_wind)) for w in winds])
    gctx[G.G_FORMS] = pctx[0, 2]
    return gctx, pctx, get_tables(), suit_table()


class GameRules(NamedTuple):
    """A ruleset's game rules as the engine takes them (from its kernel binding).

    ``seat_winds``: the wind of each seat in play, seat 0 the dealer; ``claims``:
    mask of ``mjstats.games.kernels.CLAIM_*``; ``situations``: whether the engine
    derives the situation bits (天胡 ...); ``tiles``: mask of the tile kinds in the
    wall (four copies each); ``flowers``: flowers in the shared wall; ``rounds``:
    the round winds the scorer accepts (None: any).
    """

    seat_winds: tuple[int, ...]
    claims: int
    situations: bool
    tiles: int
    flowers: int
    rounds: tuple[int, ...] | None


def game_rules(ruleset) -> GameRules:
    """The :class:`GameRules` of a ruleset, from its binding's ``SEAT_WINDS``,
    ``CLAIMS``, ``SITUATIONS``, ``WALL_FLOWERS`` (``ROUNDS`` if it has one) and its tiles.

    Examples
    --------
    >>> r = game_rules("two-player")
    >>> r.seat_winds, r.situations, bin(r.tiles).count("1")
    ((0, 2), True, 16)
    """
    rs = ruleset if isinstance(ruleset, Ruleset) else get_ruleset(ruleset)
    binding = rs.kernel
    winds = tuple(int(w) for w in getattr(binding, "SEAT_WINDS", ()))
    if not 2 <= len(winds) <= 4 or len(winds) != rs.opponents + 1:
        raise GameOptionError(
            f"{rs.title} ({rs.spec!r}) gives the game engine no seats "
            f"(its binding's SEAT_WINDS) for its {rs.opponents + 1} players"
        )
    claims = 0
    for name in binding.CLAIMS:
        claims |= G.CLAIM_BITS[name]
    tiles = 0
    for t in rs.tiles:
        tiles |= 1 << int(t)
    rounds = getattr(binding, "ROUNDS", None)
    return GameRules(winds, claims, bool(binding.SITUATIONS), tiles, int(binding.WALL_FLOWERS),
                     None if rounds is None else tuple(rounds))  # fmt: skip


RECORD_BLOCK = 1024
"""Games played at a time when they are written as records: each block's move logs
(16 KB a game) and final states are written out and dropped before the next block, so
the writer's memory does not grow with the number of games."""


def _raise_first_error(run, first: int, out: np.ndarray) -> None:
    """Raise the :class:`GameError` of the first stopped game of ``out`` (games
    ``first ..``), if any."""
    bad = np.flatnonzero(out[:, G.R_ERR] != G.E_OK)
    if not len(bad):
        return
    user, seed, gctx, pctx, tab, suits, n_fans = run
    i = int(bad[0])
    # the game is deterministic: play it again alone to show its state
    state = np.zeros((1, G.N_STATE), np.int64)
    _run_kernel(user, first + i, 1, seed, gctx, pctx, tab, suits, n_fans,
                np.zeros((1, G.N_R), np.int64), np.zeros((1, n_fans), np.uint8), state,
                np.zeros((0, 0, 4), np.int64))  # fmt: skip
    raise GameError(game_error_message(first + i, out[i], state[0]))


def _play_recorded(run, first, n, out, fans, final, records, rs, kept_logs=None) -> None:
    """Play games ``first .. first + n - 1`` in blocks of :data:`RECORD_BLOCK`, writing
    each block's records before the next is played (``final``: keep every game's
    final state there, else None; ``kept_logs``: keep every game's log there, else
    None). A stopped game raises before its block is written: the records then hold
    the blocks before it."""

    user, seed, gctx, pctx, tab, suits, n_fans = run
    block = max(1, min(n, RECORD_BLOCK))
    logs = np.zeros((block, G.MAX_LOG, 4), np.int64) if kept_logs is None else None
    states = np.zeros((block, G.N_STATE), np.int64) if final is None else None
    with open_records(records) as fh:
        for lo in range(0, n, block):
            hi = min(n, lo + block)
            S = final[lo:hi] if final is not None else states[: hi - lo]
            L = kept_logs[lo:hi] if kept_logs is not None else logs[: hi - lo]
            _run_kernel(user, first + lo, hi - lo, seed, gctx, pctx, tab, suits, n_fans,
                        out[lo:hi], fans[lo:hi], S, L)  # fmt: skip
            _raise_first_error(run, first + lo, out[lo:hi])
            write_records(fh, fans[lo:hi], S, L, rs, seed=int(seed),
                          first=int(first) + lo)  # fmt: skip
            fh.flush()


def _check_options(n, seed, first, ruleset, wall, round_wind, records) -> Ruleset:
    """Check the scalar options of :func:`play_games` (GameOptionError, naming what is
    accepted); return the ruleset."""

    n = check_count("n (the number of games)", n, error=GameOptionError)
    check_seed(seed, error=GameOptionError)
    check_count("first", first, high=MAX_COUNT - n, error=GameOptionError)
    check_choice("wall", wall, WALLS, error=GameOptionError)
    check_count("round_wind", round_wind, high=3, error=GameOptionError)
    if records is not None:
        if wall != "botzone":
            raise GameOptionError(
                "records are written in Botzone's text format, which has no flowers: "
                "use wall='botzone'"
            )
        if not hasattr(records, "write"):
            import os
            from pathlib import Path

            try:
                parent = Path(os.fspath(records)).parent
            except TypeError:
                raise GameOptionError(
                    f"records must be a path or an open text file, not {type(records).__name__}"
                ) from None
            if not parent.is_dir():
                raise GameOptionError(f"records: no directory {str(parent)!r} to write {records}")
    if isinstance(ruleset, Ruleset):
        return ruleset
    if not isinstance(ruleset, str):
        raise GameOptionError(
            f"ruleset must be a name (see mjstats.rulesets()) or a Ruleset, "
            f"not {type(ruleset).__name__}"
        )
    try:
        return get_ruleset(ruleset)
    except (UnknownRulesetError, ValueError) as exc:
        raise GameOptionError(str(exc)) from None


@notice("games")  # says so while the first call compiles the engine
def play_games(
    n: int,
    seed: int,
    *,
    ruleset: Ruleset | str = "mcr",
    wall: str = "shared",
    policy="efficiency",
    round_wind: int = 0,
    first: int = 0,
    check: bool = False,
    keep_state: bool = False,
    keep_log: bool = False,
    records=None,
):
    """Play ``n`` games (hands, 局) of a ruleset with built-in policies.

    Four seats for MCR, two for the two-player ruleset (seat 0 East the dealer,
    seat 1 West; its 72-tile wall with 8 flowers, its situation fans derived from
    the game: docs/two-player-rules.md, "Games").

    Game ``first + i`` of seed ``seed`` always gets the same wall and the same
    random choices, whatever the threads or how the games are split.

    Parameters
    ----------
    n, seed : int
        Number of games and study seed.
    ruleset : Ruleset or str
        ``"mcr"`` (options and profiles apply: the scorer is the ruleset's) or
        ``"two-player"``.
    wall : {"shared", "botzone"}
        ``"botzone"`` for four-player rulesets only.
    policy : str, (own, answer) pair, or sequence of them
        One of :data:`POLICIES` or a user policy for all seats, or one per seat
        (four; two in two-player; seat 0 East, the dealer). A user policy is a pair
        of numba ``@jit`` functions of :func:`user_policy_type`'s signature, ``own``
        for the seat's own turn and ``answer`` for its answer to a discard or
        promoted kong (see docs/games.md); each seat may have its own.
    round_wind : int
        0-3 (E S W N).
    first : int
        Number of the first game: games ``first .. first + n - 1`` of the seed are
        played (a study plays its chunks this way).
    check : bool
        Verify the tile invariants (:func:`mjstats.games.kernels.check_tiles`) after
        every step; a broken one is error code ``E_INVARIANT``.
    keep_state : bool
        Also return the final state vectors (int64 (n, N_STATE)).
    keep_log : bool
        Also return the final states and the move logs, ``(games, fans, final,
        logs)``: int64 (n, MAX_LOG, 4) rows ``[seat, kind, tile, ignored]``, the
        first ``final[i, S_NLOG]`` of game ``i`` (see
        :func:`mjstats.games.driver.play_game`), what
        :func:`mjstats.games.stats.log_stats` counts from (16 KB a game).
    records : str, os.PathLike or text file, optional
        Write the games in Botzone's text data-set format (``Match``, ``Wind``,
        ``Deal``, the moves with the ``Ignore`` claims, ``Fan`` / ``Huang``,
        ``Score``), readable by :func:`mjstats.records.read_botzone` and
        :func:`mjstats.records.replay`. Needs ``wall="botzone"`` (the format has no
        flowers). Streamed: the games are played and written in blocks of
        :data:`RECORD_BLOCK`, so memory does not grow with ``n`` (the results and
        the bytes are those of one block); a stopped game raises before its
        block is written.

    Raises
    ------
    GameOptionError
        Unknown policy, wall or ruleset; a seed outside 0 to 2**64-1; a number of
        games or ``first`` outside 0 to 2**63-1 (their sum too); a bad round wind;
        a records path whose directory does not exist; any of them of the wrong type.
    GameError
        A game stopped (an illegal action from a policy, a failed check): the
        message names the game, seat, state and action. A ``ValueError``.

    Returns
    -------
    games : pandas.DataFrame
        One row per game: ``error`` (always 0: a stopped game raises
        :class:`GameError`), ``winner`` (-1 drawn), ``kind``
        (0 discard, 1 self-drawn, 2 robbed kong), ``from_seat``, ``total``,
        ``score0``..``score3`` (one per seat: two in a two-seat game), ``steps``,
        ``claims``, ``last_of_kind``,
        ``last_of_wall``, ``kong_win``.
    fans : numpy.ndarray
        uint8 (n, n_fans): fan counts of each game's win (zero rows for draws).

    Examples
    --------
    >>> games, fans = play_games(20, seed=1, policy="random")
    >>> scores = games[["score0", "score1", "score2", "score3"]]
    >>> int(scores.sum(axis=1).abs().max()), int(games.error.max())
    (0, 0)
    >>> two, _ = play_games(20, seed=1, ruleset="two-player", policy="random")
    >>> [c for c in two.columns if c.startswith("score")]
    ['score0', 'score1']

    A user policy (here: win when legal, else discard the first legal tile; never
    claim):

    >>> from numba import njit
    >>> @njit
    ... def own(view, acts, n_acts, ctx, tab, work):
    ...     for i in range(n_acts):
    ...         if acts[i] // 64 == 2:  # A_TSUMO
    ...             return acts[i]
    ...     return acts[n_acts - 1]  # a discard: discards are listed last
    >>> @njit
    ... def answer(view, acts, n_acts, ctx, tab, work):
    ...     if n_acts > 1 and acts[1] // 64 == 5:  # A_HU: listed first after pass
    ...         return acts[1]
    ...     return acts[0]  # pass
    >>> games, _ = play_games(20, seed=1, policy=[(own, answer), "fan-aware", "random", "random"])
    >>> len(games)
    20
    """
    rs = _check_options(n, seed, first, ruleset, wall, round_wind, records)
    gctx, pctx, tab, suits = engine_context(rs, wall, round_wind, policy, check)
    out = np.zeros((n, G.N_R), np.int64)
    fans = np.zeros((n, rs.n_fans), np.uint8)
    keep_state = keep_state or keep_log  # a log's length is in its game's final state
    final = np.zeros((n if keep_state else 0, G.N_STATE), np.int64)
    logs = np.zeros((n, G.MAX_LOG, 4) if keep_log else (0, 0, 4), np.int64)
    user = _user_functions(seat_policies(policy, int(gctx[G.G_SEATS])))
    run = (user, seed, gctx, pctx, tab, suits, rs.n_fans)
    if records is None:
        _run_kernel(user, first, n, seed, gctx, pctx, tab, suits, rs.n_fans, out, fans, final,
                    logs)  # fmt: skip
        _raise_first_error(run, first, out)
    else:
        _play_recorded(run, first, n, out, fans, final if keep_state else None, records, rs,
                       logs if keep_log else None)  # fmt: skip
    cols = {
        "error": out[:, G.R_ERR],
        "winner": out[:, G.R_WINNER],
        "kind": out[:, G.R_KIND],
        "from_seat": out[:, G.R_FROM],
        "total": out[:, G.R_TOTAL],
    }
    for q in range(int(gctx[G.G_SEATS])):
        cols[f"score{q}"] = out[:, G.R_SCORE + q]
    cols.update(
        steps=out[:, G.R_STEPS],
        claims=out[:, G.R_CLAIMS],
        last_of_kind=out[:, G.R_LAST_KIND],
        last_of_wall=out[:, G.R_LAST_WALL],
        kong_win=out[:, G.R_KONG_WIN],
        err_seat=out[:, G.R_ERR_SEAT],
        err_action=out[:, G.R_ERR_ACTION],
    )
    games = pd.DataFrame(cols)
    if keep_log:
        return games, fans, final, logs
    if keep_state:
        return games, fans, final
    return games, fans
