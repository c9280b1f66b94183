"""Game statistics, defined once for played games and real records: claims, wins, points.

A game's statistics are counted from its log by replaying it through the engine's own
rules (:mod:`mjstats.games.stats_kernel`): the same kernel for the games the engine plays
(:func:`mjstats.games.play_games` with ``keep_log=True``) and for real Botzone records
(text data set or JSON judge logs, :func:`record_logs`). Per game and seat:

* for each kind of claim (:data:`CLAIM_KINDS`: chow, pung, exposed kong, promoted
  kong, concealed kong, and the two wins), its **chances** (discards or turns on which
  the seat could legally make it, whatever it did), how often the seat **made** it
  (the claim carried out, or passed over by the priority rule for a higher claim) and
  how often it was **taken** (carried out);
* the win (on a discard or robbing a kong, self-drawn), the deal-in (the seat that paid
  the win), a drawn game, the seat's points;
* the fans of the win (the engine's scoring, which for real records equals the judge's:
  a record whose end differs is refused).

:func:`log_stats` and :func:`record_stats` give one row per game and seat;
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

import os
from pathlib import Path

import numpy as np
import pandas as pd

from mjstats.errors import GameError, RecordError
from mjstats.games import kernels as G
from mjstats.games import state as ST
from mjstats.games import stats_kernel as K
from mjstats.games.engine import WALLS, GameOptionError, engine_context, game_rules
from mjstats.games.replay import ReplayError, _games, _text_wall
from mjstats.records.check import botzone_ruleset
from mjstats.records.names import judge_fan_counts
from mjstats.rulesets import Ruleset, get_ruleset

__all__ = [
    "CLAIM_KINDS",
    "CLAIM_NAMES",
    "RecordLogs",
    "claim_counters",
    "iter_record_logs",
    "log_stats",
    "record_logs",
    "record_stats",
    "replay_logs",
    "replay_records",
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


def replay_logs(walls, n_wall, winds, logs, n_log, ruleset, wall: str):
    """Replay games from their walls and logs through the engine (the kernel
    :func:`mjstats.games.stats_kernel.replay_logs`).

    Returns ``(final, fans, counts, errors)``: the final states (n, N_STATE), the fans
    of each win (n, n_fans), the counts int64 (n, 3, 4, len(CLAIM_KINDS)) as
    ``counts[i, C, seat, kind]`` with ``C`` in :data:`COUNTS` order, and int64 (n, 2)
    the error code (:data:`mjstats.games.stats_kernel.REPLAY_ERRORS`) and log row
    reached of each game.

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
    logs = np.ascontiguousarray(logs, np.int64)
    final = np.zeros((n, G.N_STATE), np.int64)
    fans = np.zeros((n, rs.n_fans), np.uint8)
    counts = np.zeros((n, K.COUNT_SIZE), np.int64)
    err = np.zeros((n, 2), np.int64)
    if n:
        K.replay_logs(walls, np.ascontiguousarray(n_wall, np.int64),
                      np.ascontiguousarray(winds, np.int64), logs,
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


def _wall_name(final: np.ndarray) -> str:
    kinds = set(final[:, ST.S_WALL_KIND].tolist()) or {G.WALL_SHARED}
    if len(kinds) != 1:
        raise GameOptionError("the games were played on different walls: give them apart")
    kind = kinds.pop()
    return next(name for name, k in WALLS.items() if k == kind)


def _seat_rows(final, counts, n_seats: int, ids) -> pd.DataFrame:
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
    counts = _played_counts(final, logs, rs, _wall_name(final))
    return _seat_rows(final, counts, len(game_rules(rs).seat_winds), None)


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


# ---------------------------------------------------------------- real records
_LOG_KIND = {
    "DRAW": G.LOG_DRAW,
    "PLAY": G.A_DISCARD,
    "ANGANG": G.A_ANGANG,
    "BUGANG": G.A_BUGANG,
    "CHI": G.A_CHOW,
    "PENG": G.A_PUNG,
}


class RecordLogs:
    """Real games as engine logs (:func:`record_logs`): arrays for
    :func:`replay_logs`, and what the records say of each game's end.

    Attributes
    ----------
    source, match : list of str
        File and match id of each game.
    walls : numpy.ndarray
        int64 (n, 144), the first 136 codes the wall (four 34-tile segments).
    winds : numpy.ndarray
        int64 (n,) round winds.
    logs, n_log : numpy.ndarray
        int64 (n, MAX_LOG, 4) move rows and their number per game.
    ends : list of tuple
        ``(result, fans, total, scores)`` as recorded (``"win"`` / ``"drawn"``).
    bad : list of str
        Games that could not be read as moves (source, match and why).
    """

    def __init__(self) -> None:
        self.source: list[str] = []
        self.match: list[str] = []
        self.ends: list[tuple] = []
        self.bad: list[str] = []
        self.walls = np.zeros((0, 144), np.int64)
        self.winds = np.zeros(0, np.int64)
        self.logs = np.zeros((0, G.MAX_LOG, 4), np.int64)
        self.n_log = np.zeros(0, np.int64)
        self._parts: list[tuple] = []  # (wall, round wind, rows) of the games added

    def __len__(self) -> int:
        return len(self.source)

    def add(self, game, wall, rows) -> None:
        """Add a game read by the replay's reader: its wall and log rows."""
        self.source.append(game.source)
        self.match.append(game.match_id)
        self.ends.append((game.result, game.fans, game.total, tuple(game.scores)))
        self._parts.append((np.asarray(wall, np.int64), game.round_wind, rows))

    def pack(self) -> RecordLogs:
        """Stack the games added into the arrays (once, when the block is full)."""
        parts = self._parts
        n = len(parts)
        self.walls = np.zeros((n, 144), np.int64)
        self.winds = np.zeros(n, np.int64)
        self.logs = np.zeros((n, G.MAX_LOG, 4), np.int64)
        self.n_log = np.zeros(n, np.int64)
        for i, (wall, wind, rows) in enumerate(parts):
            self.walls[i, : len(wall)] = wall
            self.winds[i] = wind
            if rows:
                self.logs[i, : len(rows)] = rows
            self.n_log[i] = len(rows)
        self._parts = []
        return self


def _move_rows(moves) -> list[tuple[int, int, int, int]]:
    """A record's moves ``(seat, verb, tile, ignored claims)`` as engine log rows."""
    rows = []
    prev = None  # (seat, verb, tile) of the previous move
    last_draw = {}
    for seat, verb, tile, ignored in moves:
        answers = prev is not None and prev[0] != seat and prev[1] in ("PLAY", "BUGANG")
        if verb == "HU":
            kind, tile = (G.A_HU, prev[2]) if answers else (G.A_TSUMO, last_draw.get(seat, -1))
        elif verb == "GANG":
            kind = G.A_KONG if answers else G.A_ANGANG
        elif verb in _LOG_KIND:
            kind = _LOG_KIND[verb]
        else:
            raise ReplayError(f"unknown move {verb!r}")
        if verb == "DRAW":
            last_draw[seat] = tile
        rows.append((seat, kind, tile, 0))
        for q, v, t in ignored:
            k = {"CHI": G.A_CHOW, "PENG": G.A_PUNG, "GANG": G.A_KONG, "HU": G.A_HU}.get(v)
            if k is None:
                raise ReplayError(f"unknown claim {v!r} passed over")
            rows.append((q, k, prev[2] if k != G.A_CHOW else t, 1))
        prev = (seat, verb, tile)
    return rows


RECORD_BLOCK = 4096
"""Real games read and replayed at a time (their logs take 16 KB a game), so that a
whole data set (98,208 games) streams through in constant memory."""


def _record_error(message: str) -> RecordError:
    """A reader's message ``"<file>, line <n>: <problem>"`` (or ``"<file>: ..."``) as a
    :class:`RecordError`."""
    source, sep, rest = message.partition(", line ")
    if sep:
        line, _, problem = rest.partition(": ")
        if line.isdigit():
            return RecordError(problem, source, int(line))
    source, sep, problem = message.partition(": ")
    return RecordError(problem, source) if sep else RecordError(message, "<records>")


def iter_record_logs(path, skip_bad: bool = False, block: int = RECORD_BLOCK):
    """Botzone records (text data set, JSON judge logs, or a folder of them) as engine
    logs for :func:`replay_logs`, :class:`RecordLogs` of ``block`` games at a time.

    A text record's wall is rebuilt from its deals and draws (the tiles nobody drew
    fill the rest); a JSON log gives its own. ``skip_bad``: a game that cannot be
    read as moves is listed in its block's ``bad`` instead of raising.

    Raises
    ------
    RecordError
        A file that is not a record (always), or (without ``skip_bad``) a game that
        cannot be read as moves; the message names the file and match.
    FileNotFoundError
        No such file or folder.

    Examples
    --------
    >>> from pathlib import Path
    >>> import mjstats
    >>> data = Path(mjstats.__file__).parents[1] / "tests" / "data" / "botzone"
    >>> [len(b) for b in iter_record_logs(data, block=16)]
    [16, 16, 8]
    """
    p = Path(os.fspath(path))
    if not p.exists():
        raise FileNotFoundError(2, "no such file or directory", str(p))
    out = RecordLogs()
    games = _games(p)
    while True:
        try:
            game = next(games, None)
        except ReplayError as exc:
            raise _record_error(str(exc)) from None
        except (ValueError, KeyError, TypeError, AttributeError) as exc:  # a JSON file, no log
            raise RecordError(f"not a record ({type(exc).__name__}: {exc})", str(p)) from None
        if game is None or len(out) == block:
            if len(out) or out.bad:
                yield out.pack()
            out = RecordLogs()
        if game is None:
            return
        try:
            wall = game.wall if game.wall is not None else _text_wall(game)
            rows = _move_rows(game.moves)
            if len(rows) >= G.MAX_LOG:
                raise ReplayError(f"{len(rows)} moves, more than a game holds ({G.MAX_LOG - 1})")
        except (ReplayError, IndexError, TypeError) as exc:
            if not skip_bad:
                raise RecordError(str(exc), game.source, match_id=game.match_id) from None
            out.bad.append(f"{game.source}, match {game.match_id}: {exc}")
            continue
        out.add(game, wall, rows)


def record_logs(path, skip_bad: bool = False) -> RecordLogs:
    """All the games of :func:`iter_record_logs` as one :class:`RecordLogs` (16 KB a
    game: for a whole data set, iterate).

    Examples
    --------
    >>> from pathlib import Path
    >>> import mjstats
    >>> data = Path(mjstats.__file__).parents[1] / "tests" / "data" / "botzone"
    >>> r = record_logs(data / "sample.txt")
    >>> len(r), r.match[0], int(r.winds[0])
    (16, '61602cb45ddc087351c04358', 1)
    """
    out = RecordLogs()
    for part in iter_record_logs(path, skip_bad, block=1 << 62):
        out = part
    return out


def replay_records(records: RecordLogs, ruleset: Ruleset | str | None = None,
                   skip_bad: bool = False):  # fmt: skip
    """Replay real games (:func:`record_logs`) through the engine and check each end
    against its record (winner, fans, total, scores).

    Returns ``(final, fans, counts, good)`` of the games that replay and end as
    recorded, as :func:`replay_logs` gives them, ``good`` their indices in
    ``records``. ``ruleset``: default the Botzone judge's
    (:func:`mjstats.records.botzone_ruleset`).

    Raises
    ------
    RecordError
        Without ``skip_bad``, the first game that does not replay legally or ends
        otherwise than its record (file, match id and why); with it, such games are
        added to ``records.bad``.

    Examples
    --------
    >>> from pathlib import Path
    >>> import mjstats
    >>> data = Path(mjstats.__file__).parents[1] / "tests" / "data" / "botzone"
    >>> final, fans, counts, good = replay_records(record_logs(data / "judge-logs"))
    >>> len(good), int((final[:, G.S_WINNER] >= 0).sum())
    (24, 24)
    """
    rs = botzone_ruleset() if ruleset is None else get_ruleset(ruleset)
    n = len(records)
    final, fans, counts, err = replay_logs(
        records.walls, np.full(n, 136), records.winds, records.logs, records.n_log, rs, "botzone"
    )
    judge, unknown = judge_fan_counts([e[1] if e[0] == "win" else () for e in records.ends], rs)
    good = []
    for i in range(n):
        result, _, total, scores = records.ends[i]
        S = final[i]
        code, row = int(err[i, 0]), int(err[i, 1])
        if code != K.RE_OK:
            why = f"log row {row}: {K.REPLAY_ERRORS[code]}"
        elif result == "win" and (S[G.S_WINNER] < 0 or unknown[i]):
            why = "the record ends in a win the engine did not reach" + (
                f" (unknown fans {unknown[i]})" if unknown[i] else ""
            )
        elif result == "win" and ((judge[i] != fans[i]).any() or S[G.S_TOTAL] != total):
            why = f"the engine scores the win {int(S[G.S_TOTAL])}, the judge {total}"
        elif result == "drawn" and S[G.S_PHASE] != G.PH_DRAWN:
            why = "the record is a drawn game, the engine's game is not"
        elif result not in ("win", "drawn"):
            why = "the record has no end (no 'Fan' / 'Huang')"
        elif scores and tuple(int(x) for x in S[G.S_SCORE : G.S_SCORE + 4]) != scores:
            why = f"scores differ: judge {list(scores)}, engine {S[G.S_SCORE : G.S_SCORE + 4]}"
        else:
            good.append(i)
            continue
        if not skip_bad:
            raise RecordError(why, records.source[i], match_id=records.match[i])
        records.bad.append(f"{records.source[i]}, match {records.match[i]}: {why}")
    good = np.array(good, np.int64)
    return final[good], fans[good], counts[good], good


def record_stats(path, ruleset: Ruleset | str | None = None, skip_bad: bool = False):
    """Statistics per game and seat of real Botzone records, as :func:`log_stats` gives
    them for played games (``game`` is the match id).

    Every game is replayed through the engine (the Botzone wall, ``ruleset``: default
    the judge's options, :func:`mjstats.records.botzone_ruleset`); its end (winner,
    fans, total, scores) must be the judge's.

    Raises
    ------
    RecordError
        Without ``skip_bad``: a game that does not replay legally or ends otherwise
        than its record (named by file and match id).

    Examples
    --------
    >>> from pathlib import Path
    >>> import mjstats
    >>> data = Path(mjstats.__file__).parents[1] / "tests" / "data" / "botzone"
    >>> t = record_stats(data / "sample.txt")
    >>> len(t), int(t["won"].sum()), int(t["chow_taken"].sum()), int(t["pung_taken"].sum())
    (64, 14, 33, 25)
    """
    rs = botzone_ruleset() if ruleset is None else get_ruleset(ruleset)
    parts = []
    for records in iter_record_logs(path, skip_bad):
        final, _, counts, good = replay_records(records, rs, skip_bad)
        parts.append(_seat_rows(final, counts, 4, np.asarray(records.match, object)[good]))
    if not parts:  # no game at all: the columns, no rows
        empty = np.zeros((0, K.N_COUNTS, 4, K.N_KINDS), np.int64)
        return _seat_rows(np.zeros((0, G.N_STATE), np.int64), empty, 4, [])
    return pd.concat(parts, ignore_index=True)
