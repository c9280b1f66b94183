"""Real games replayed through the game engine: the one checker of Botzone records.

Every record, text data set or JSON judge log, is read into the engine's own log
(:mod:`mjstats.records.reader`) and replayed by the engine's kernel
(:func:`mjstats.games.replay_kernel.replay_logs`), the rules of simulated games:

* every move, and every claim the judge passed over (``Ignore`` in the text data set,
  the bots' responses in a JSON log), must be among the legal actions the engine lists
  at that point, and the claim the engine gives priority to must be the recorded one;
* the game must end where the record says: the ``Hu`` line's player wins on the tile
  the line names (on a self-drawn win the data set repeats the last discard instead, a
  known quirk and nothing else), a ``Huang`` comes when the player due to draw has an
  empty wall segment;
* the ``Score`` line must follow from the ``Fan`` total by the judge's payments
  (8 points from each other player, 8 + total from the discarder or, self-drawn,
  from each), and a drawn game scores 0.

A record that breaks any of these is a bad game, named by file, line (or log entry)
and match. Whether the judge's *fans* equal mjstats' scoring is another question,
answered by :func:`mjstats.records.check_records` and, game by game, :func:`replay`.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from mjstats.compiling import notice
from mjstats.errors import RecordError
from mjstats.games import kernels as G
from mjstats.games import replay_kernel as K
from mjstats.games.engine import engine_context
from mjstats.games.stats import replay_logs, seat_rows
from mjstats.records.reader import ABORTED, BAD, DRAWN, WIN, GameBlock, read_blocks
from mjstats.rulesets import Ruleset, get_ruleset
from mjstats.rulesets.mcr.judge import botzone_ruleset, judge_fan_counts
from mjstats.tiles import BOTZONE_CODES

__all__ = [
    "Replayed",
    "checked_blocks",
    "ends_as_recorded",
    "judge_base",
    "record_stats",
    "replay",
    "replay_block",
    "replay_blocks",
]

_VERB = {G.LOG_DRAW: "Draw", G.A_DISCARD: "Play", G.A_TSUMO: "Hu", G.A_ANGANG: "AnGang",
         G.A_BUGANG: "BuGang", G.A_HU: "Hu", G.A_KONG: "Gang", G.A_PUNG: "Peng",
         G.A_CHOW: "Chi"}  # fmt: skip


@dataclass(eq=False)
class Replayed:
    """A :class:`~mjstats.records.reader.GameBlock` replayed through the engine.

    ``final`` int64 (n, N_STATE) the engine's final states, ``fans`` uint8 (n, n_fans)
    the fans of each win by the engine's scoring, ``counts`` int64 (n, 3, 4, kinds)
    the claim counts of :mod:`mjstats.games.stats`; ``legal`` bool (n,) the games
    whose every move is legal; ``good`` bool (n,) those that also end as recorded (the
    others are ``block.status`` ``BAD`` with their error, or ``ABORTED``).
    """

    block: GameBlock
    final: np.ndarray
    fans: np.ndarray
    counts: np.ndarray
    legal: np.ndarray
    good: np.ndarray
    ruleset: Ruleset


def _code(t: int) -> str:
    return BOTZONE_CODES[t] if 0 <= t < 34 else "?"


def _explain(S: np.ndarray, code: int, row, is_end: bool, drawn_record: bool) -> str:
    """What is wrong at the log row where the engine stopped the replay (``row``:
    ``(seat, kind, tile, ignored)``, None past the end of the log)."""
    if code == K.RE_SHORT or row is None:
        if drawn_record:
            return "'Huang' (drawn game) while the wall is not exhausted"
        return "the record ends before the game does"
    if code == K.RE_LONG:
        return "line after the end of the game"
    if code == K.RE_STEPS:
        return K.REPLAY_ERRORS[code]
    seat, kind, tile = (int(x) for x in row[:3])
    move = f"player {seat} {_VERB.get(kind, '?')} {_code(tile)}"
    turn = int(S[G.S_TURN])
    hand = S[G.S_HAND + 34 * seat : G.S_HAND + 34 * seat + 34] if 0 <= seat < 4 else None
    if code == K.RE_DRAW:
        if kind != G.LOG_DRAW:
            return f"{move}, but player {turn} draws first (no draw in the record)"
        if seat != turn:
            return f"draw out of turn (player {turn} draws next)"
        return f"player {seat} draws {_code(tile)} but the wall has {_code(S[G.S_DRAWN])} there"
    if code == K.RE_TURN:
        if seat != turn:
            return f"{move} out of turn (it is player {turn}'s turn)"
        return f"{move}: a claim where player {turn} is to play"
    if code == K.RE_CLAIM:
        taken = int(S[G.S_WINNER] if S[G.S_PHASE] == G.PH_WIN else S[G.S_TURN])
        return (f"{move}: claim priority gives the discard to player {taken}, "
                f"the record to player {seat}")  # fmt: skip
    # RE_ILLEGAL: the move is not among the engine's legal actions
    last_seat, last_tile = int(S[G.S_LAST_SEAT]), int(S[G.S_LAST_TILE])
    ph = int(S[G.S_PHASE])
    if ph == G.PH_OWN:
        if kind in (G.A_DISCARD, G.A_ANGANG, G.A_BUGANG) and hand[tile] < (
            4 if kind == G.A_ANGANG else 1
        ):
            return "tile not in the player's hand"
        if kind == G.A_BUGANG:
            return "promoted kong without a pung of that tile"
        if kind == G.A_ANGANG:
            return "concealed kong not right after the player's own draw"
        if kind == G.A_TSUMO:
            return f"{move}: not a winning hand of the minimum fans"
        return f"{move}: not a move of one's own turn here"
    if seat == last_seat:
        return f"{move}: a claim on one's own discard"
    if ph == G.PH_ROB and kind != G.A_HU:
        return f"{move}: only a win may answer a promoted kong"
    if kind == G.A_CHOW:
        if seat != (last_seat + 1) % 4:
            return "chi not on the previous player's discard"
        if (
            tile >= 27
            or tile % 9 in (0, 8)
            or tile // 9 != last_tile // 9
            or abs(tile - last_tile) > 1
        ):
            return "chi does not form a chow with the discarded tile"
        return "tile not in the player's hand"
    if kind in (G.A_PUNG, G.A_KONG):
        if tile != last_tile:
            return "peng/gang tile differs from the discarded tile"
        return "tile not in the player's hand"
    if kind == G.A_HU:
        if tile != last_tile:
            return "hu tile differs from the discarded tile"
        return f"{move}: not a winning hand of the minimum fans on {_code(last_tile)}"
    return f"{move} is not legal here"


def _expected_scores(S: np.ndarray, status: np.ndarray, total: np.ndarray, base: int):
    """The four scores of each game by the judge's payments from the recorded ``total``:
    every other player pays the winner ``base``, the discarder (every other player
    when self-drawn) ``base + total``; a drawn game scores 0."""
    n = len(S)
    winner = S[:, G.S_WINNER]
    seat = np.arange(4)
    pays = np.where((S[:, G.S_WIN_KIND, None] == G.WIN_SELF_DRAWN)
                    | (seat == S[:, G.S_FROM, None]), base + total[:, None], base)  # fmt: skip
    pays = np.where(seat == winner[:, None], 0, pays)
    scores = -pays
    scores[np.arange(n), np.maximum(winner, 0)] += pays.sum(axis=1)
    return np.where(((status == WIN) & (winner >= 0))[:, None], scores, 0)


def _score_problem(b: GameBlock, i: int, expected: np.ndarray) -> str:
    got = " ".join(str(int(x)) for x in b.scores[i])
    if b.status[i] == DRAWN:
        return f"'Score {got}' after a drawn game (expected 0 0 0 0)"
    want = " ".join(str(int(x)) for x in expected)
    return (f"'Score {got}' does not follow from the total {int(b.total[i])} by the "
            f"judge's payments ({want})")  # fmt: skip


def _earlier_problem(b: GameBlock, i: int, S: np.ndarray, code: int, row: int) -> None:
    """Name the illegal move of bad game ``i`` instead of its form error when the move
    comes first (the engine replayed the moves read before the error)."""
    if code in (K.RE_OK, K.RE_SHORT) or row >= b.n_log[i]:
        return
    where = int(b.where[b.starts[i] + row])
    first = b.error[i]
    if first.line is not None and where < first.line:
        why = _explain(S, code, b.logs[b.starts[i] + row], False, False)
        b.error[i] = RecordError(why, b.source[i], where, b.match[i], json_entry=b.json[i])


def replay_blocks(source, ruleset: Ruleset | str | None = None, *,
                  stop_on_error: bool = False, **read_options) -> Iterator[Replayed]:  # fmt: skip
    """Read Botzone records (:func:`~mjstats.records.reader.read_blocks`) and replay each
    block of games through the engine, checking each as the module documentation says.

    ``ruleset``: default the judge's (:func:`mjstats.records.botzone_ruleset`).
    ``stop_on_error``: stop after the block of the first bad game.

    Examples
    --------
    >>> from mjstats.records.check import _DEMO_GAME
    >>> r = next(replay_blocks(_DEMO_GAME))
    >>> bool(r.good[0]), int(r.final[0, G.S_WINNER]), int(r.final[0, G.S_TOTAL])
    (True, 1, 20)
    """
    rs = botzone_ruleset() if ruleset is None else get_ruleset(ruleset)
    base = judge_base(rs)
    for b in read_blocks(source, stop_on_error=stop_on_error, **read_options):
        r = replay_block(b, rs, base)
        stop = stop_on_error and any(s == BAD for s in b.status)
        yield r
        del b, r  # before the next block is read
        if stop:
            return


def judge_base(rs: Ruleset) -> int:
    """The base points every other player pays a winner under ``rs`` on the Botzone
    wall (the judge's payments).

    Examples
    --------
    >>> judge_base(botzone_ruleset())
    8
    """
    return int(engine_context(rs, "botzone", 0, "random")[0][G.G_BASE])


def replay_block(b: GameBlock, rs: Ruleset, base: int) -> Replayed:
    """Replay the games of one block through the engine and check each (the module
    documentation says how); games found bad are marked so in ``b`` (``base``:
    :func:`judge_base`).

    Examples
    --------
    >>> from mjstats.records.check import _DEMO_GAME
    >>> rs = botzone_ruleset()
    >>> r = replay_block(next(read_blocks(_DEMO_GAME)), rs, judge_base(rs))
    >>> bool(r.good[0]), int(r.final[0, G.S_TOTAL])
    (True, 20)
    """
    n = len(b)
    # a bad text game is replayed too, up to its error: an illegal move before
    # the line that broke the record's form is the first problem, so it is named
    status = np.asarray(b.status)
    play = (status == WIN) | (status == DRAWN) | ((status == BAD) & (b.n_log > 0))
    idx = np.flatnonzero(play)
    final = np.zeros((n, G.N_STATE), np.int64)
    fans = np.zeros((n, rs.n_fans), np.uint8)
    counts = np.zeros((n, K.N_COUNTS, 4, K.N_KINDS), np.int64)
    legal = np.zeros(n, bool)
    if len(idx):
        f, fa, c, err = replay_logs(b.walls[idx], np.full(len(idx), 136), b.winds[idx],
                                    b.logs, b.n_log[idx], rs, "botzone",
                                    starts=b.starts[idx])  # fmt: skip
        final[idx], fans[idx], counts[idx] = f, fa, c
        code = np.full(n, -1, np.int64)
        row = np.zeros(n, np.int64)
        code[idx], row[idx] = err[:, 0], err[:, 1]
        kept = play & (status != BAD)
        legal[:] = kept & ((code == K.RE_OK) | (code == K.RE_SHORT))
        expected = _expected_scores(final, status, b.total, base)
        wrong = kept & (code == K.RE_OK) & (b.score_where >= 0)
        wrong &= (b.scores != expected).any(axis=1)
        # the rest is per game, for the few with a problem only
        for i in np.flatnonzero(play & ((code != K.RE_OK) | wrong)).tolist():
            if b.status[i] == BAD:
                _earlier_problem(b, i, final[i], int(code[i]), int(row[i]))
                continue
            if code[i] != K.RE_OK:
                past = row[i] >= b.n_log[i]
                at = None if past else b.logs[b.starts[i] + row[i]]
                where = int(b.end_where[i] if past else b.where[b.starts[i] + row[i]])
                why = _explain(final[i], int(code[i]), at, past, b.status[i] == DRAWN)
            else:
                where = int(b.score_where[i])
                why = _score_problem(b, i, expected[i])
            b.fail(i, RecordError(why, b.source[i], where, b.match[i], json_entry=b.json[i]))
    status = np.asarray(b.status)  # with the games found bad above
    good = (status == WIN) | (status == DRAWN)
    return Replayed(b, final, fans, counts, legal, good, rs)


def ends_as_recorded(b: GameBlock, idx: np.ndarray, final: np.ndarray, code: np.ndarray,
                     base: int) -> bool:  # fmt: skip
    """Whether games ``idx`` of ``b`` are good, judged from another replay of them:
    ``final`` and ``code`` the engine's final state and replay error code of each. True
    when each is won or drawn (not ``BAD`` or ``ABORTED``), replays (``RE_OK``) and its
    ``Score`` line follows from its ``Fan`` total (the checks of :func:`replay_block` on
    a good game); False says nothing more: :func:`replay_block` then names the problems.

    Examples
    --------
    >>> from mjstats.records.check import _DEMO_GAME
    >>> rs = botzone_ruleset()
    >>> b = next(read_blocks(_DEMO_GAME))
    >>> r = replay_block(b, rs, judge_base(rs))
    >>> ok = np.zeros(1, np.int64)
    >>> ends_as_recorded(b, np.arange(1), r.final, ok, judge_base(rs))
    True
    >>> b.scores[0, 0] += 1
    >>> ends_as_recorded(b, np.arange(1), r.final, ok, judge_base(rs))
    False
    """
    status = np.asarray(b.status)[idx]
    if ((status != WIN) & (status != DRAWN)).any() or (code != K.RE_OK).any():
        return False
    expected = _expected_scores(final, status, b.total[idx], base)
    wrong = (b.score_where[idx] >= 0) & (b.scores[idx] != expected).any(axis=1)
    return not wrong.any()


def checked_blocks(source, ruleset: Ruleset | str | None = None,
                   skip_bad: bool = False) -> Iterator[Replayed]:  # fmt: skip
    """:func:`replay_blocks` for readers that want good games only: without
    ``skip_bad`` the first bad game raises its :class:`RecordError`; with it, bad games
    are left for the caller to count (``block.error``) and only ``good`` ones used.

    Examples
    --------
    >>> from mjstats.records.check import _DEMO_GAME
    >>> [int(r.good.sum()) for r in checked_blocks(_DEMO_GAME)]
    [1]
    >>> next(checked_blocks(_DEMO_GAME.replace("Score -28", "Score -29")))
    Traceback (most recent call last):
    ...
    mjstats.errors.RecordError: <text>, line 11: 'Score -29 44 -8 -8' does not follow ...
    """
    for r in replay_blocks(source, ruleset, stop_on_error=not skip_bad):
        if not skip_bad:
            first_bad = next((e for e in r.block.error if e is not None), None)
            if first_bad is not None:
                raise first_bad
        yield r


@notice("replay")  # says so while the first call compiles the engine
def replay(path, ruleset=None) -> pd.DataFrame:
    """Replay Botzone records (text data set, JSON judge log, or a folder) through the engine.

    Every recorded action, with the claims the judge passed over, must be legal in the
    engine's state at that point, the claim the engine takes must be the recorded one,
    the end must be the recorded one (:mod:`mjstats.records.replay`), and the engine's
    fans, total and four scores must equal the judge's.

    Parameters
    ----------
    path : str or os.PathLike
        A text record file (``sample.txt``), a ``.json``/``.jsonl`` judge log, or a
        folder of them.
    ruleset : Ruleset, optional
        Default: MCR with the Botzone judge's options
        (:func:`mjstats.records.botzone_ruleset`).

    Returns
    -------
    pandas.DataFrame
        One row per game: ``source``, ``game`` (match id), ``legal`` (every recorded
        action legal), ``matched`` (legal, the end where the record says, and the
        same fans, total and scores), ``problem`` (empty when all is well, else the
        first problem, with its line or log entry).

    Raises
    ------
    FileNotFoundError
        No such file or folder.
    RecordError
        A folder without records.

    Examples
    --------
    >>> from mjstats.records import replay
    >>> from pathlib import Path
    >>> import mjstats
    >>> data = Path(mjstats.__file__).parents[1] / "tests" / "data" / "botzone"
    >>> table = replay(data / "sample.txt")
    >>> len(table), int(table.legal.sum()), int(table.matched.sum())
    (16, 16, 16)
    """
    p = Path(os.fspath(path))
    if not p.exists():
        raise FileNotFoundError(2, "no such file or directory", str(p))
    rows = []
    for r in replay_blocks(p, ruleset):
        b = r.block
        judge, unknown = judge_fan_counts([b.fans[i] if b.status[i] == WIN else ()
                                           for i in range(len(b))], r.ruleset)  # fmt: skip
        for i in range(len(b)):
            if b.status[i] == ABORTED:
                rows.append((b.source[i], b.match[i], False, False,
                             "the judge aborted the game (a bot's error)"))  # fmt: skip
                continue
            if b.status[i] == BAD:
                err = b.error[i]
                where = "" if err.line is None else (
                    f"{'log entry' if err.json_entry else 'line'} {err.line}: ")  # fmt: skip
                rows.append((b.source[i], b.match[i], bool(r.legal[i]), False,
                             where + err.problem))  # fmt: skip
                continue
            S = r.final[i]
            problem = ""
            if b.status[i] == WIN:
                diff = [f"{r.ruleset.fans[f].zh}: judge {judge[i, f]}, engine {r.fans[i, f]}"
                        for f in np.flatnonzero(judge[i] != r.fans[i])]  # fmt: skip
                if unknown[i]:
                    problem = f"unknown fan names {unknown[i]}"
                elif diff or S[G.S_TOTAL] != b.total[i]:
                    problem = (f"fans differ (total judge {int(b.total[i])}, engine "
                               f"{int(S[G.S_TOTAL])}): " + "; ".join(diff))  # fmt: skip
            scores = [int(x) for x in S[G.S_SCORE : G.S_SCORE + 4]]
            if not problem and b.score_where[i] >= 0 and scores != [int(x) for x in b.scores[i]]:
                problem = f"scores differ: judge {list(map(int, b.scores[i]))}, engine {scores}"
            rows.append((b.source[i], b.match[i], True, not problem, problem))
    return pd.DataFrame(rows, columns=["source", "game", "legal", "matched", "problem"])


def record_stats(path, ruleset: Ruleset | str | None = None, skip_bad: bool = False):
    """Statistics per game and seat of real Botzone records, as
    :func:`mjstats.games.stats.log_stats` gives them for played games (``game`` is the
    match id).

    Every game is replayed through the engine (the Botzone wall; ``ruleset``: default
    the judge's options, :func:`mjstats.records.botzone_ruleset`) and checked as the
    module documentation says.

    Raises
    ------
    RecordError
        Without ``skip_bad``: the first bad game (named by file, line and match id).
        Games the judge aborted are left out.

    Examples
    --------
    >>> from pathlib import Path
    >>> import mjstats
    >>> data = Path(mjstats.__file__).parents[1] / "tests" / "data" / "botzone"
    >>> t = record_stats(data / "sample.txt")
    >>> len(t), int(t["won"].sum()), int(t["chow_taken"].sum()), int(t["pung_taken"].sum())
    (64, 14, 33, 25)
    """
    p = Path(os.fspath(path))
    if not p.exists():
        raise FileNotFoundError(2, "no such file or directory", str(p))
    parts = []
    for r in checked_blocks(p, ruleset, skip_bad):
        good = np.flatnonzero(r.good)
        ids = np.asarray(r.block.match, object)[good]
        parts.append(seat_rows(r.final[good], r.counts[good], 4, ids))
    if not parts:  # no game at all: the columns, no rows
        empty = np.zeros((0, K.N_COUNTS, 4, K.N_KINDS), np.int64)
        return seat_rows(np.zeros((0, G.N_STATE), np.int64), empty, 4, [])
    return pd.concat(parts, ignore_index=True)
