"""Game statistics, defined once for played games and real records: claims, wins, points.

A game's statistics are counted from its log by replaying it through the engine's own
rules (:mod:`mjstats.games.replay_kernel`): the same kernel for the games the engine plays
(:func:`mjstats.games.play_games` with ``keep_log=True``) and for real Botzone records
(text data set or JSON judge logs, :mod:`mjstats.records.replay`). Per game and seat:

* for each kind of claim (:data:`CLAIM_KINDS`: chow, pung, exposed kong, promoted
  kong, concealed kong, and the two wins), its **chances** (discards or turns on which
  the seat could legally make it, whatever it did), how often the seat **made** it
  (the claim carried out, or passed over by the priority rule for a higher claim) and
  how often it was **taken** (carried out);
* the win (on a discard or robbing a kong, self-drawn), the deal-in (the seat that paid
  the win), a drawn game, the seat's points;
* the fans of the win (the engine's scoring, which for real records equals the judge's:
  a record whose end differs is refused).

:func:`log_stats` and :func:`mjstats.records.record_stats` give one row per game and seat;
:func:`claim_counters` sums the counts for a study's aggregate (``claim_counts``);
:func:`mjstats.studies.game_stats.record_games` makes a record set into the aggregate of
a ``games`` study, so every games report (claims, seats, fans per game, the comparison
with real play) reads played and real games alike.

Examples
--------
>>> from mjstats.games import play_games
>>> from mjstats.games.stats import log_stats
>>> games, fans, final, logs = play_games(30, seed=1, policy="efficiency", keep_log=True)
>>> t = log_stats(final, logs)
>>> len(t), int(t["won"].sum()) == int((games["winner"] >= 0).sum())
(120, True)
>>> bool((t["pung_taken"] <= t["pung_made"]).all() and (t["pung_made"] <= t["pung_chances"]).all())
True
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mjstats.errors import GameError
from mjstats.games import dataset_count as D
from mjstats.games import kernels as G
from mjstats.games import replay_kernel as K
from mjstats.games import state as ST
from mjstats.games.engine import WALLS, GameOptionError, engine_context, game_rules
from mjstats.rulesets import Ruleset, get_ruleset

__all__ = [
    "CLAIM_KINDS",
    "CLAIM_NAMES",
    "claim_counters",
    "dataset_claim_counters",
    "dataset_counts",
    "discard_shares",
    "log_stats",
    "replay_logs",
    "seat_rows",
    "wall_name",
]

CLAIM_KINDS = K.KIND_KEYS
"""Kinds of claim counted, in the order of the counters' last axis: ``chow``, ``pung``,
``kong`` (exposed, on a discard), ``promoted_kong``, ``concealed_kong``, and the wins
``win_on_discard`` (robbing a kong included) and ``self_drawn_win``."""

CLAIM_NAMES = {
    "chow": ("吃", "Chow"),
    "pung": ("碰", "Pung"),
    "kong": ("明杠", "Exposed kong"),
    "promoted_kong": ("补杠", "Promoted kong"),
    "concealed_kong": ("暗杠", "Concealed kong"),
    "win_on_discard": ("点和", "Win on a discard"),
    "self_drawn_win": ("自摸", "Self-drawn win"),
}
"""Chinese and English name of each kind of claim."""

COUNTS = ("chances", "made", "taken")
"""What is counted of each kind (the counters' first axis)."""

DATASET_COUNTS = D.DATASET_COUNTS
"""What :func:`dataset_counts` gives of each game, in order: ``games`` (1 when the
real-play data set's parser reads it, else 0 and the rest 0), then the chances and
claims of each kind: ``chow_chances``, ``chows``, ``pung_chances``, ``pungs``,
``kong_chances``, ``kongs``, ``promoted_kong_chances``, ``promoted_kongs``,
``concealed_kong_chances``, ``concealed_kongs`` (:mod:`mjstats.games.dataset_count`)."""


def replay_logs(walls, n_wall, winds, logs, n_log, ruleset, wall: str, starts=None):
    """Replay games from their walls and logs through the engine (the kernel
    :func:`mjstats.games.replay_kernel.replay_logs`).

    Returns ``(final, fans, counts, errors)``: the final states (n, N_STATE), the fans
    of each win (n, n_fans), the counts int64 (n, 3, 4, len(CLAIM_KINDS)) as
    ``counts[i, C, seat, kind]`` with ``C`` in :data:`COUNTS` order, and int64 (n, 2)
    the error code (:data:`mjstats.games.replay_kernel.REPLAY_ERRORS`) and log row
    reached of each game. ``logs``: int64 (n, k, 4), game ``i``'s rows ``logs[i]``
    (as :func:`~mjstats.games.play_games` keeps them), or with ``starts`` int64
    (rows, 4), game ``i``'s the ``n_log[i]`` rows from ``starts[i]``.

    Examples
    --------
    >>> from mjstats.games import play_games
    >>> games, fans, final, logs = play_games(5, seed=2, policy="random", keep_log=True)
    >>> S, f, counts, err = replay_logs(final[:, G.S_WALL:G.S_WALL + 144],
    ...     final[:, G.S_WALL_N], final[:, G.S_ROUND], logs, final[:, G.S_NLOG], "mcr", "shared")
    >>> bool((S == final).all() and (f == fans).all()), int(err[:, 0].max())
    (True, 0)
    """
    rs = ruleset if isinstance(ruleset, Ruleset) else get_ruleset(ruleset)
    gctx, _, tab, suits = engine_context(rs, wall, 0, "random")
    n = len(walls)
    walls = np.ascontiguousarray(walls, np.int64)
    logs = np.asarray(logs, np.int64)
    if starts is None:  # (n, k, 4): game i's rows are logs[i]
        starts = np.arange(n, dtype=np.int64) * (logs.shape[1] if logs.ndim == 3 else 0)
        logs = logs.reshape(-1, 4)
    logs = np.ascontiguousarray(logs)
    final = np.zeros((n, G.N_STATE), np.int64)
    fans = np.zeros((n, rs.n_fans), np.uint8)
    counts = np.zeros((n, K.COUNT_SIZE), np.int64)
    err = np.zeros((n, 2), np.int64)
    if n:
        K.replay_logs(walls, np.ascontiguousarray(n_wall, np.int64),
                      np.ascontiguousarray(winds, np.int64), logs,
                      np.ascontiguousarray(starts, np.int64),
                      np.ascontiguousarray(n_log, np.int64), gctx, tab, suits,
                      np.int64(rs.n_fans), final, fans, counts, err)  # fmt: skip
    return final, fans, counts.reshape(n, K.N_COUNTS, 4, K.N_KINDS), err


def _played_counts(final, logs, ruleset, wall: str, first: int = 0) -> np.ndarray:
    """The counts (n, 3, 4, kinds) of games the engine played; their replay must end in
    the very state the game did (else :class:`GameError`: a bug, not bad input)."""
    walls = final[:, G.S_WALL : G.S_WALL + 144]
    S, _, counts, err = replay_logs(walls, final[:, G.S_WALL_N], final[:, G.S_ROUND], logs,
                                    final[:, G.S_NLOG], ruleset, wall)  # fmt: skip
    bad = np.flatnonzero((err[:, 0] != K.RE_OK) | (S != final).any(axis=1))
    if len(bad):
        i = int(bad[0])
        code = int(err[i, 0])
        why = K.REPLAY_ERRORS[code] if code else "it ends in another state than the game"
        raise GameError(
            f"game {first + i}: its log does not replay (log row {int(err[i, 1])}: {why})"
        )
    return counts


def wall_name(final: np.ndarray) -> str:
    """The name of the wall (:data:`~mjstats.games.engine.WALLS`) the games of the final
    states ``final`` were played on."""
    kinds = set(final[:, ST.S_WALL_KIND].tolist()) or {G.WALL_SHARED}
    if len(kinds) != 1:
        raise GameOptionError("the games were played on different walls: give them apart")
    kind = kinds.pop()
    return next(name for name, k in WALLS.items() if k == kind)


def seat_rows(final, counts, n_seats: int, ids) -> pd.DataFrame:
    """One row per game and seat from final states and counts."""
    n = len(final)
    seat = np.tile(np.arange(n_seats), n)
    game = np.repeat(np.arange(n), n_seats)
    winner = final[game, G.S_WINNER]
    won = winner == seat
    kind = final[game, G.S_WIN_KIND]
    payer = final[game, G.S_FROM]
    cols = {
        "game": np.asarray(ids)[game] if ids is not None else game,
        "seat": seat,
        "won": won.astype(np.int64),
        "self_drawn": (won & (kind == G.WIN_SELF_DRAWN)).astype(np.int64),
        "deal_in": ((winner >= 0) & (kind != G.WIN_SELF_DRAWN) & (payer == seat)).astype(np.int64),
        "drawn": (winner < 0).astype(np.int64),
        "points": final[game, G.S_SCORE + seat],
        "total": np.where(won, final[game, G.S_TOTAL], 0),
    }
    for k, name in enumerate(CLAIM_KINDS):
        for c, what in enumerate(COUNTS):
            cols[f"{name}_{what}"] = counts[game, c, seat, k]
    return pd.DataFrame(cols)


def log_stats(final, logs, ruleset: Ruleset | str = "mcr") -> pd.DataFrame:
    """Statistics per game and seat of games the engine played.

    ``final`` and ``logs`` are what :func:`mjstats.games.play_games` returns with
    ``keep_log=True`` (same ``ruleset``; the wall is read from the states).

    Returns
    -------
    pandas.DataFrame
        One row per game and seat (seat 0 East, the dealer, first): ``game`` (its row
        in ``final``), ``seat``, ``won``, ``self_drawn``, ``deal_in`` (the seat paid
        a win on its discard or kong), ``drawn`` (nobody won), ``points`` (the seat's
        score), ``total`` (fan total of its win), and for each kind of
        :data:`CLAIM_KINDS` the columns ``<kind>_chances``, ``<kind>_made`` and
        ``<kind>_taken``.

    Raises
    ------
    GameError
        A log that does not replay to its game's end (a bug of the engine).

    Examples
    --------
    >>> from mjstats.games import play_games
    >>> _, _, final, logs = play_games(20, seed=4, policy="fan-aware", keep_log=True)
    >>> t = log_stats(final, logs)
    >>> int(t["points"].sum()), bool((t["chow_chances"] >= t["chow_made"]).all())
    (0, True)
    """
    rs = ruleset if isinstance(ruleset, Ruleset) else get_ruleset(ruleset)
    final = np.asarray(final, np.int64)
    counts = _played_counts(final, logs, rs, wall_name(final))
    return seat_rows(final, counts, len(game_rules(rs).seat_winds), None)


def claim_counters(final, logs, ruleset: Ruleset | str, wall: str, first: int = 0) -> np.ndarray:
    """The ``claim_counts`` counter of a study: int64 (3, seats, kinds), the chances,
    claims made and claims taken of each seat and kind (:data:`CLAIM_KINDS`), summed
    over the games of ``final`` and ``logs`` (``play_games(..., keep_log=True)``;
    ``first``: the first game's number, for messages).

    Examples
    --------
    >>> from mjstats.games import play_games
    >>> _, _, final, logs = play_games(20, seed=4, policy="random", keep_log=True)
    >>> c = claim_counters(final, logs, "mcr", "shared")
    >>> c.shape, bool((c[2] <= c[1]).all() and (c[1] <= c[0]).all())
    ((3, 4, 7), True)
    """
    rs = ruleset if isinstance(ruleset, Ruleset) else get_ruleset(ruleset)
    n_seats = len(game_rules(rs).seat_winds)
    counts = _played_counts(np.asarray(final, np.int64), logs, rs, wall, first)
    return counts.sum(axis=0)[:, :n_seats, :].astype(np.int64)


def dataset_counts(walls, logs, n_log, starts=None, by_seat: bool = False) -> np.ndarray:
    """The chances and claims of each game counted as the real-play data set's publisher
    counts them (:mod:`mjstats.games.dataset_count`): int64 (n, 11), the columns
    :data:`DATASET_COUNTS`; with ``by_seat`` int64 (n, 4, 11), those of each seat (the
    seat that has the chance or makes the claim; ``games`` the same for the four). A game
    that parser cannot read (a kong right after a kong, a win on the first draw) is all
    zeros.

    ``walls``: int64 (n, >= 136), the Botzone walls; ``logs``: int64 (n, k, 4), game
    ``i``'s rows ``logs[i]`` (as :func:`~mjstats.games.play_games` keeps them), or with
    ``starts`` int64 (rows, 4), game ``i``'s the ``n_log[i]`` rows from ``starts[i]``.
    Only four-seat games on the Botzone wall make sense here (the data set's).

    Raises
    ------
    ValueError
        Arrays of the wrong shape, log rows outside ``logs``, a row with no seat
        (0-3), move or tile (0-33) of a game or a last column other than 0 or 1, or
        a wall that is not four copies of each tile, naming the game.

    Examples
    --------
    >>> from mjstats.games import play_games
    >>> _, _, final, logs = play_games(5, seed=1, policy="planner", wall="botzone", keep_log=True)
    >>> c = dataset_counts(final[:, G.S_WALL:G.S_WALL + 136], logs, final[:, G.S_NLOG])
    >>> c.shape, int(c[:, 0].sum())
    ((5, 11), 5)
    >>> seats = dataset_counts(final[:, G.S_WALL:G.S_WALL + 136], logs, final[:, G.S_NLOG],
    ...                        by_seat=True)
    >>> seats.shape, bool((seats[:, :, 1:].sum(axis=1) == c[:, 1:]).all())
    ((5, 4, 11), True)
    """
    walls = np.ascontiguousarray(walls, np.int64)
    n = len(walls)
    logs = np.asarray(logs, np.int64)
    n_log = np.ascontiguousarray(n_log, np.int64)
    if walls.ndim != 2 or walls.shape[1] < 136:
        raise ValueError(f"walls must be (n, 136) Botzone walls, got shape {walls.shape}")
    if starts is None:  # (n, k, 4): game i's rows are logs[i]
        if logs.ndim != 3 or logs.shape[2] != 4 or len(logs) != n:
            raise ValueError(f"logs must be (n, k, 4) for {n} walls, got shape {logs.shape}")
        width = logs.shape[1]
        starts = np.arange(n, dtype=np.int64) * width
        logs = logs.reshape(-1, 4)
        ends = np.full(n, width, np.int64)
    else:
        if logs.ndim != 2 or logs.shape[1] != 4:
            raise ValueError(f"logs with starts must be (rows, 4), got shape {logs.shape}")
        starts = np.ascontiguousarray(starts, np.int64)
        ends = len(logs) - starts
    if n_log.shape != (n,) or starts.shape != (n,):
        raise ValueError(f"n_log and starts must give one number per game ({n})")
    bad = np.flatnonzero((n_log < 0) | (starts < 0) | (n_log > ends))
    if len(bad):
        raise ValueError(f"game {int(bad[0])}: its log rows lie outside logs")
    out = np.zeros((n, D.N_SEAT_OUT), np.int64)
    if n:
        D.dataset_counts(walls, np.ascontiguousarray(logs), starts, n_log, out)
    bad = np.flatnonzero(out[:, 0] < 0)
    if len(bad):
        i = int(bad[0])
        if out[i, 0] == D.BAD_WALL:
            raise ValueError(f"game {i}: its wall is not a Botzone wall (four copies of "
                             "each of the 34 tiles, codes 0-33)")  # fmt: skip
        raise ValueError(f"game {i}: a log row names no seat, move or tile of a game, "
                         "or is neither a move (last column 0) nor a passed claim (1)")  # fmt: skip
    seats = out[:, 1:].reshape(n, 4, D.N_DATASET_COUNTS - 1)
    if by_seat:
        return np.concatenate([np.repeat(out[:, None, :1], 4, axis=1), seats], axis=2)
    return np.concatenate([out[:, :1], seats.sum(axis=1)], axis=1)


def dataset_claim_counters(final, logs, by_seat: bool = False) -> np.ndarray:
    """The ``dataset_claims`` counter of a study: int64 (11,), :func:`dataset_counts`
    summed over the games of ``final`` and ``logs`` (``play_games(..., keep_log=True)``
    on the Botzone wall); with ``by_seat`` int64 (4, 11), per seat (a match's, which adds
    each seat's to the policy that sat there).

    Examples
    --------
    >>> from mjstats.games import play_games
    >>> _, _, final, logs = play_games(20, seed=4, policy="planner", wall="botzone", keep_log=True)
    >>> c = dataset_claim_counters(final, logs)
    >>> dict(zip(DATASET_COUNTS, c.tolist()))["games"] <= 20
    True
    """
    final = np.asarray(final, np.int64)
    if len(final) and wall_name(final) != "botzone":
        raise GameOptionError("the data set's count reads games on the Botzone wall only")
    walls = final[:, G.S_WALL : G.S_WALL + 136]
    return dataset_counts(walls, logs, final[:, G.S_NLOG], by_seat=by_seat).sum(axis=0)


def discard_shares(logs, pooled: bool = True) -> np.ndarray:
    """How often each kind of tile is discarded in the games of ``logs``, per 100
    discards of the mean kind: float (34,).

    Every kind has four copies in every wall, so the kinds are dealt and drawn
    alike, and the discards tell which ones players keep. With ``pooled`` each
    rank is the mean of its three suits, the winds and the dragons each the mean of
    theirs (the planner's :data:`~mjstats.games.discard_policies.DISCARD_SHARE` is
    this, rounded, for its own games). A ruleset whose wall lacks some kinds
    (two-player: the characters and the honours) gives them 0: compare the kinds
    it has.

    Parameters
    ----------
    logs : array_like
        int64 (n, k, 4) move logs as :func:`~mjstats.games.play_games` keeps them
        (``keep_log=True``).
    pooled : bool
        Pool the suits' ranks, the winds and the dragons (default).

    Raises
    ------
    ValueError
        ``logs`` not of rows of 4, or a discard of no tile (outside 0-33).

    Examples
    --------
    >>> from mjstats.games import play_games
    >>> _, _, _, logs = play_games(200, seed=1, policy="planner", wall="botzone", keep_log=True)
    >>> share = discard_shares(logs)
    >>> bool(share[27] > share[0] > share[4])  # a wind, a 1, a 5
    True
    """
    logs = np.asarray(logs, np.int64)
    if logs.ndim < 2 or logs.shape[-1] != 4:
        raise ValueError(
            f"logs must be rows of 4 (seat, kind, tile, ignored), not shape {logs.shape}"
        )
    rows = logs.reshape(-1, 4)
    tiles = rows[rows[:, 1] == ST.A_DISCARD, 2]
    if len(tiles) and (tiles.min() < 0 or tiles.max() > 33):
        bad = int(np.flatnonzero((tiles < 0) | (tiles > 33))[0])
        raise ValueError(f"discard {bad} of the logs is of tile {int(tiles[bad])}, not 0-33")
    count = np.bincount(tiles, minlength=34).astype(float)
    if pooled:
        ranks = count[:27].reshape(3, 9).mean(axis=0)
        count = np.concatenate([np.tile(ranks, 3), np.full(4, count[27:31].mean()),
                                np.full(3, count[31:].mean())])  # fmt: skip
    return count / max(count.mean(), 1e-300) * 100
