"""Every decision of every seat as data: real records and simulated games alike.

A :class:`DecisionSet` holds one row per decision (:mod:`mjstats.decisions.kernel`:
the seat to move on its own turn, and every other seat in answer to each discard and
promoted kong), its legal actions, what the seat saw, and the game's outcome;
:func:`decision_set` makes one from Botzone records (text data set, JSON judge logs, a
folder: every game replayed and checked by :mod:`mjstats.records.replay`) or from the
logs of games the engine played (``play_games(..., keep_log=True)``), and
:func:`decisions` gives the same as a DataFrame.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
import pandas as pd

from mjstats.errors import GameError, RecordError
from mjstats.games import kernels as G
from mjstats.games import replay_kernel as RK
from mjstats.games.engine import engine_context, game_rules
from mjstats.games.stats import wall_name
from mjstats.records import botzone_ruleset
from mjstats.records.reader import BAD, DRAWN, WIN, read_blocks
from mjstats.records.replay import ends_as_recorded, judge_base, replay_block
from mjstats.rulesets import Ruleset, get_ruleset

from . import kernel as K

__all__ = ["DecisionSet", "check_decisions", "decision_set", "decisions"]

ACTION_KINDS = G.ACTION_NAMES
"""Names of the engine's action kinds (``action // 64``): pass, discard, tsumo, angang,
bugang, hu, kong, pung, chow."""


@dataclass(eq=False)
class DecisionSet:
    """Decisions of a set of games (one entry per decision, in game and play order).

    ``rows`` int64 (n, N_COLS): the ``C_*`` columns of :mod:`mjstats.decisions.kernel`
    (``rows[:, C_GAME]`` indexes the games here); ``legal`` int16 (n, MAX_ACTIONS) the
    legal actions (engine codes ``kind * 64 + tile``, ``-1`` after the last); ``seen``
    int16 (n, N_SEEN) the seat's view (its last 4 x 34 slots: every seat's discards so
    far). Per game:
    ``ids`` (match id, or the game's number), ``source``, ``walls`` int64 (g, 144),
    ``n_wall``, ``winds``, ``final`` int64 (g, N_STATE) the engine's final states,
    ``starts`` int64 (g + 1,) game ``i``'s decisions ``starts[i]:starts[i + 1]``;
    ``ruleset``, ``wall`` (the engine's wall name), ``seat_winds`` and ``players``
    (per game the bot names of its seats when a JSON log gives them, else ``()``).
    """

    rows: np.ndarray
    legal: np.ndarray
    seen: np.ndarray
    ids: list
    source: list
    walls: np.ndarray
    n_wall: np.ndarray
    winds: np.ndarray
    final: np.ndarray
    starts: np.ndarray
    ruleset: Ruleset
    wall: str
    seat_winds: tuple = field(default=(0, 1, 2, 3))
    players: list | None = None  # per game: the names of its seats' players, or ()

    def __len__(self) -> int:
        return len(self.rows)

    @property
    def n_games(self) -> int:
        """Number of games."""
        return len(self.ids)

    def games(self, lo: int, hi: int) -> DecisionSet:
        """The games ``lo:hi`` and their decisions (games numbered from 0 again)."""
        a, b = int(self.starts[lo]), int(self.starts[hi])
        rows = self.rows[a:b].copy()
        rows[:, K.C_GAME] -= lo
        return replace(self, rows=rows, legal=self.legal[a:b], seen=self.seen[a:b],
                       ids=self.ids[lo:hi], source=self.source[lo:hi], walls=self.walls[lo:hi],
                       n_wall=self.n_wall[lo:hi], winds=self.winds[lo:hi],
                       final=self.final[lo:hi], starts=self.starts[lo : hi + 1] - a,
                       players=None if self.players is None else self.players[lo:hi])  # fmt: skip

    def frame(self, arrays: bool = True) -> pd.DataFrame:
        """The decisions as a DataFrame (see :func:`decisions`)."""
        r = self.rows
        g = r[:, K.C_GAME]
        seat = r[:, K.C_SEAT]
        final = self.final
        winner = final[g, G.S_WINNER]
        taken = r[:, K.C_TAKEN]
        cols = {
            "game": np.asarray(self.ids, object)[g] if len(r) else np.zeros(0, object),
            "source": np.asarray(self.source, object)[g] if len(r) else np.zeros(0, object),
            "step": r[:, K.C_STEP],
            "log_row": r[:, K.C_ROW],
            "seat": seat,
            "kind": pd.Categorical.from_codes(r[:, K.C_KIND], list(K.KIND_NAMES)),
            "n_legal": r[:, K.C_NLEGAL],
            "only": r[:, K.C_NLEGAL] == 1,
            "action": taken,
            "action_kind": pd.Categorical.from_codes(taken >> 6, list(ACTION_KINDS)),
            "tile": np.where(taken >> 6 == G.A_PASS, -1, taken & 63),
            "action_index": r[:, K.C_INDEX],
            "win_fan": r[:, K.C_WIN_FAN],
            "points": final[g, G.S_SCORE + seat],
            "winner": winner,
            "won": winner == seat,
            "fan_total": np.where(winner >= 0, final[g, G.S_TOTAL], 0),
        }
        t = pd.DataFrame(cols)
        if arrays:
            t["legal"] = list(self.legal)
            t["seen"] = list(self.seen)
        return t


def _compact(out_starts, n_out, *arrays):
    """The rows ``out_starts[i] : out_starts[i] + n_out[i]`` of each array, back to back,
    and the starts of each game's rows there."""
    idx = np.repeat(out_starts - np.concatenate(([0], np.cumsum(n_out)[:-1])), n_out)
    idx += np.arange(int(n_out.sum()))
    starts = np.concatenate(([0], np.cumsum(n_out))).astype(np.int64)
    return starts, [a[idx] for a in arrays]


def _decide(walls, n_wall, winds, logs, starts, n_log, rs: Ruleset, wall: str, ctx=None):
    """Run :func:`mjstats.decisions.kernel.decide_logs`; returns (starts of each game's
    decisions, rows, legal, seen, final states, errors). ``ctx``: the
    ``engine_context(rs, wall, 0, "random")`` when the caller has it."""
    gctx, _, tab, suits = ctx or engine_context(rs, wall, 0, "random")
    n = len(walls)
    n_log = np.ascontiguousarray(n_log, np.int64)
    logs = np.ascontiguousarray(logs, np.int64)
    starts = np.ascontiguousarray(starts, np.int64)
    cap = np.zeros(n, np.int64)
    if n:
        K.capacities(logs, starts, n_log, np.int64(len(game_rules(rs).seat_winds)), cap)
    out_starts = np.concatenate(([0], np.cumsum(cap))).astype(np.int64)
    total = int(cap.sum())
    rows = np.empty((total, K.N_COLS), np.int64)  # every row kept is written
    legal = np.empty((total, G.MAX_ACTIONS), np.int16)
    seen = np.empty((total, K.N_SEEN), np.int16)
    n_out = np.zeros(n, np.int64)
    final = np.zeros((n, G.N_STATE), np.int64)
    err = np.zeros((n, 2), np.int64)
    if n:
        K.decide_logs(np.ascontiguousarray(walls, np.int64),
                      np.ascontiguousarray(n_wall, np.int64),
                      np.ascontiguousarray(winds, np.int64), logs, starts, n_log, out_starts, gctx,
                      tab, suits, np.int64(rs.n_fans), rows, legal, seen, n_out, final,
                      err)  # fmt: skip
    if (n_out == cap).all():  # every log replayed: its rows are exactly its room
        return out_starts, rows, legal, seen, final, err
    game_starts, (rows, legal, seen) = _compact(out_starts[:-1], n_out, rows, legal, seen)
    return game_starts, rows, legal, seen, final, err


def _join(parts: list[DecisionSet], rs: Ruleset, wall: str) -> DecisionSet:
    """One :class:`DecisionSet` of several (games renumbered)."""
    if not parts:
        z = np.zeros
        return DecisionSet(z((0, K.N_COLS), np.int64), z((0, G.MAX_ACTIONS), np.int16),
                           z((0, K.N_SEEN), np.int16), [], [], z((0, 144), np.int64),
                           z(0, np.int64), z(0, np.int64), z((0, G.N_STATE), np.int64),
                           z(1, np.int64), rs, wall, game_rules(rs).seat_winds)  # fmt: skip
    if len(parts) == 1:
        return parts[0]
    rows = []
    starts = [np.zeros(1, np.int64)]
    g0 = d0 = 0
    for p in parts:
        r = p.rows.copy()
        r[:, K.C_GAME] += g0
        rows.append(r)
        starts.append(p.starts[1:] + d0)
        g0 += p.n_games
        d0 += len(p)
    cat = np.concatenate
    return DecisionSet(cat(rows), cat([p.legal for p in parts]), cat([p.seen for p in parts]),
                       [x for p in parts for x in p.ids], [x for p in parts for x in p.source],
                       cat([p.walls for p in parts]), cat([p.n_wall for p in parts]),
                       cat([p.winds for p in parts]), cat([p.final for p in parts]), cat(starts),
                       rs, wall, parts[0].seat_winds,
                       [x for p in parts for x in (p.players or [()] * p.n_games)])  # fmt: skip


def played_decisions(final, logs, ruleset: Ruleset | str = "mcr", first: int = 0) -> DecisionSet:
    """The :class:`DecisionSet` of games the engine played: ``final`` and ``logs`` as
    :func:`mjstats.games.play_games` returns them with ``keep_log=True`` (same
    ``ruleset``; the wall is read from the states); ``first``: the first game's number
    (its id).

    Raises
    ------
    GameError
        A log that does not replay to its game's end (a bug of the engine).

    Examples
    --------
    >>> from mjstats.games import play_games
    >>> _, _, final, logs = play_games(3, seed=1, policy="efficiency", keep_log=True)
    >>> d = played_decisions(final, logs)
    >>> d.n_games, bool((d.rows[:, 5] >= 1).all())
    (3, True)
    """
    rs = ruleset if isinstance(ruleset, Ruleset) else get_ruleset(ruleset)
    final = np.asarray(final, np.int64)
    logs = np.asarray(logs, np.int64)
    n = len(final)
    wall = wall_name(final)
    walls = final[:, G.S_WALL : G.S_WALL + 144]
    width = logs.shape[1] if logs.ndim == 3 else 0
    starts = np.arange(n, dtype=np.int64) * width
    gs, rows, legal, seen, S, err = _decide(walls, final[:, G.S_WALL_N], final[:, G.S_ROUND],
                                            logs.reshape(-1, 4), starts, final[:, G.S_NLOG], rs,
                                            wall)  # fmt: skip
    bad = np.flatnonzero((err[:, 0] != RK.RE_OK) | (S != final).any(axis=1))
    if len(bad):
        i = int(bad[0])
        code = int(err[i, 0])
        why = RK.REPLAY_ERRORS[code] if code else "it ends in another state than the game"
        raise GameError(f"game {first + i}: its log does not replay (log row {err[i, 1]}: {why})")
    ids = list(range(first, first + n))
    return DecisionSet(rows, legal, seen, ids, ["played"] * n, walls.copy(),
                       final[:, G.S_WALL_N].copy(), final[:, G.S_ROUND].copy(), final, gs, rs,
                       wall, game_rules(rs).seat_winds)  # fmt: skip


BLOCK_GAMES = 192
"""Games in one :class:`DecisionSet` of :func:`iter_record_decisions`: small enough
that its arrays (about 120 KB of decisions a game) come from memory freed by the set
before last instead of fresh pages, which cost as much as writing them twice."""


def _record_set(b, idx, rs: Ruleset, decided) -> DecisionSet:
    """The :class:`DecisionSet` of games ``idx`` of block ``b`` (``decided``: what
    :func:`_decide` returned for them)."""
    gs, rows, legal, seen, S, _ = decided
    walls = np.zeros((len(idx), 144), np.int64)
    walls[:, :136] = b.walls[idx]
    match, source = b.match, b.source
    return DecisionSet(rows, legal, seen, [match[i] for i in idx.tolist()],
                       [str(source[i]) for i in idx.tolist()], walls, np.full(len(idx), 136),
                       np.asarray(b.winds)[idx], S, gs, rs, "botzone",
                       game_rules(rs).seat_winds,
                       [tuple(b.players[i]) if b.players else ()
                        for i in idx.tolist()])  # fmt: skip


def iter_record_decisions(source, ruleset: Ruleset | str | None = None,
                          skip_bad: bool = False, block_games: int | None = BLOCK_GAMES
                          ) -> Iterator[DecisionSet]:  # fmt: skip
    """:func:`record_decisions` a few games at a time (bounded memory): each block of
    :func:`mjstats.records.read_blocks` in sets of ``block_games`` games (None: one
    set a block).

    A block whose games all replay and end as recorded is replayed once, by the
    decisions kernel (:func:`mjstats.records.replay.ends_as_recorded` judges it);
    any other is checked by the records' own replay
    (:func:`mjstats.records.replay.replay_block`), which names its bad games.

    Examples
    --------
    >>> from pathlib import Path
    >>> import mjstats
    >>> data = Path(mjstats.__file__).parents[1] / "tests" / "data" / "botzone"
    >>> sets = list(iter_record_decisions(data / "sample.txt", block_games=6))
    >>> sum(d.n_games for d in sets), max(d.n_games for d in sets)
    (16, 6)
    """
    rs = botzone_ruleset() if ruleset is None else get_ruleset(ruleset)
    base = judge_base(rs)
    ctx = engine_context(rs, "botzone", 0, "random")
    per = block_games or 1 << 62

    def decide(b, p):
        return _decide(b.walls[p], np.full(len(p), 136), b.winds[p], b.logs, b.starts[p],
                       b.n_log[p], rs, "botzone", ctx)  # fmt: skip

    def check(b):  # the checker's replay: names the bad games, raises the first
        r = replay_block(b, rs, base)
        first_bad = next((e for e in b.error if e is not None), None)
        if first_bad is not None and not skip_bad:
            raise first_bad
        return r

    for b in read_blocks(source, stop_on_error=not skip_bad):
        status = np.asarray(b.status)
        idx = np.flatnonzero((status == WIN) | (status == DRAWN))
        r = check(b) if (status == BAD).any() else None
        for lo in range(0, len(idx), per):  # one set in memory at a time
            p = idx[lo : lo + per]
            if r is not None:
                p = p[r.good[p]]
            d = decide(b, p)
            if r is None and not ends_as_recorded(b, p, d[4], d[5][:, 0], base):
                r = check(b)
                if not r.good[p].all():
                    p = p[r.good[p]]
                    d = decide(b, p)
            if r is not None:
                S, err = d[4], d[5]
                bad = np.flatnonzero((err[:, 0] != RK.RE_OK) | (S != r.final[p]).any(axis=1))
                if len(bad):  # the replay accepted it: the two kernels disagree (a bug)
                    i = int(p[bad[0]])
                    why = RK.REPLAY_ERRORS[int(err[bad[0], 0])]
                    raise RecordError(f"decisions: the game does not replay ({why})",
                                      b.source[i], None, b.match[i])  # fmt: skip
            if len(p):
                yield _record_set(b, p, rs, d)
            del d
        del b, r  # before the next block is read


def record_decisions(source, ruleset: Ruleset | str | None = None,
                     skip_bad: bool = False) -> DecisionSet:  # fmt: skip
    """The :class:`DecisionSet` of Botzone records (a text record file, a JSON judge log,
    a folder of them, or the text itself): every game replayed and checked as
    :func:`mjstats.records.checked_blocks` checks it (``skip_bad``: leave bad games out instead
    of raising their :class:`~mjstats.errors.RecordError`; games the judge aborted are
    always left out).

    Examples
    --------
    >>> from mjstats.records.check import _DEMO_GAME
    >>> d = record_decisions(_DEMO_GAME)
    >>> d.n_games, len(d), d.frame().kind.tolist()
    (1, 4, ['own', 'discard', 'discard', 'discard'])
    """
    rs = botzone_ruleset() if ruleset is None else get_ruleset(ruleset)
    return _join(list(iter_record_decisions(source, rs, skip_bad)), rs, "botzone")


def decision_set(source, ruleset: Ruleset | str | None = None, *,
                 skip_bad: bool = False) -> DecisionSet:  # fmt: skip
    """The :class:`DecisionSet` of ``source``: Botzone records (a path, or the text of
    records: :func:`record_decisions`) or the ``(games, fans, final, logs)`` that
    :func:`mjstats.games.play_games` returns with ``keep_log=True``
    (:func:`played_decisions`; ``ruleset`` default ``"mcr"``)."""
    if isinstance(source, DecisionSet):
        return source
    if isinstance(source, tuple) and len(source) == 4:
        return played_decisions(source[2], source[3], "mcr" if ruleset is None else ruleset)
    if isinstance(source, (str, os.PathLike)) and not str(source).lstrip().startswith("Match"):
        p = Path(os.fspath(source))
        if not p.exists():
            raise FileNotFoundError(2, "no such file or directory", str(p))
    return record_decisions(source, ruleset, skip_bad)


def decisions(source, ruleset: Ruleset | str | None = None, *, skip_bad: bool = False,
              arrays: bool = True) -> pd.DataFrame:  # fmt: skip
    """One row per decision of every seat of every game in ``source``.

    Parameters
    ----------
    source : str, os.PathLike, tuple or DecisionSet
        Botzone records (text record file, ``.json``/``.jsonl`` judge log, folder, or
        the text of records), or what :func:`mjstats.games.play_games` returns with
        ``keep_log=True``.
    ruleset : Ruleset or str, optional
        Records: default the Botzone judge's (:func:`mjstats.records.botzone_ruleset`);
        played games: the ruleset they were played with (default ``"mcr"``).
    skip_bad : bool
        Records: leave out bad games instead of raising their ``RecordError``.
    arrays : bool
        Add the ``legal`` and ``seen`` columns (one array per row).

    Returns
    -------
    pandas.DataFrame
        ``game`` (match id, or the played game's number), ``source``, ``step`` (the
        replay viewer's step showing the position decided on), ``log_row``, ``seat``,
        ``kind`` (``own``: the seat to move; ``discard``/``kong``: every other seat in
        answer to a discard / promoted kong), ``n_legal``, ``only`` (a single legal
        action: kept, and marked), ``action`` (engine code ``kind * 64 + tile``),
        ``action_kind`` (:data:`ACTION_KINDS`), ``tile`` (-1 for a pass),
        ``action_index`` (its place in ``legal``), ``win_fan`` (the fan total of the
        legal win among the options, as the engine scores it; -1 without one), the
        game's outcome ``points`` (the
        seat's score), ``winner`` (-1 drawn), ``won``, ``fan_total`` (of the win);
        with ``arrays`` ``legal`` (int16 legal action codes, -1 padded) and ``seen``
        (the seat's view, :mod:`mjstats.games.views`, then each seat's discards).

    Examples
    --------
    >>> from pathlib import Path
    >>> import mjstats
    >>> from mjstats.decisions import decisions
    >>> data = Path(mjstats.__file__).parents[1] / "tests" / "data" / "botzone"
    >>> t = decisions(data / "sample.txt")
    >>> t.kind.value_counts().to_dict()
    {'discard': 2358, 'own': 796, 'kong': 6}
    >>> int((t.action_kind == "discard").sum()), bool(t.only.any())
    (786, True)
    """
    return decision_set(source, ruleset, skip_bad=skip_bad).frame(arrays)


def check_decisions(ds: DecisionSet) -> np.ndarray:
    """Play every game of ``ds`` again from its wall by the taken actions alone
    (:func:`mjstats.decisions.kernel.apply_decisions`); returns their final states.

    Raises
    ------
    GameError
        A game whose decisions do not play it: a missing, extra or illegal decision.

    Examples
    --------
    >>> from mjstats.records.check import _DEMO_GAME
    >>> d = record_decisions(_DEMO_GAME)
    >>> S = check_decisions(d)
    >>> int(S[0, G.S_WINNER]), int(S[0, G.S_TOTAL])
    (1, 20)
    """
    gctx, _, tab, suits = engine_context(ds.ruleset, ds.wall, 0, "random")
    n = ds.n_games
    final = np.zeros((n, G.N_STATE), np.int64)
    err = np.zeros((n, 2), np.int64)
    if n:
        K.apply_decisions(np.ascontiguousarray(ds.walls), np.ascontiguousarray(ds.n_wall),
                          np.ascontiguousarray(ds.winds, np.int64), ds.rows, ds.starts, gctx,
                          tab, suits, np.int64(ds.ruleset.n_fans), final, err)  # fmt: skip
    bad = np.flatnonzero(err[:, 0] != RK.RE_OK)
    if len(bad):
        i = int(bad[0])
        code = int(err[i, 0])
        why = K.APPLY_ERRORS.get(code) or RK.REPLAY_ERRORS[code]
        raise GameError(f"game {ds.ids[i]}: decision {int(err[i, 1])}: {why}")
    return final
