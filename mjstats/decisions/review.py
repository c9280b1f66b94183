"""Review: every decision of every seat rated with the analysis, the taken option
against the best.

:func:`rate_options` gives each legal option of each decision its E[points] by
:func:`mjstats.analysis.table.option_curves` (the analysis of ``mjstats analyze``:
exact for the hands of shanten <= 1, Monte Carlo beyond); :func:`review` ranks the
options, compares the taken one with the best and sums it up per seat and game and
over the set. The HTML report, each listed decision linked to its step in the replay
viewer, is :func:`mjstats.review_report.review_html`.

A data set too large for one go (Botzone's 98,208 games: hours of work) goes to
:func:`review_to`: a block of games at a time into a folder, each block's decisions a
part written whole with its completion mark (:mod:`mjstats.decisions.runs`), on threads
or Dask, resumable, with summaries equal to :func:`review`'s; :func:`read_review` reads
its decisions back.
"""

from __future__ import annotations

import io
import json
import os
import threading
import warnings
from dataclasses import dataclass
from pathlib import Path

import numba
import numpy as np
import pandas as pd

from mjstats.analysis.position import position_from_counts
from mjstats.analysis.table import option_curves
from mjstats.arguments import check_count, check_seed
from mjstats.compiling import notice, progress_wanted
from mjstats.decisions import kernel as K
from mjstats.decisions import runs
from mjstats.decisions.dataset import _source_params
from mjstats.decisions.shards import count_records, record_shards, ruleset_params
from mjstats.decisions.table import ACTION_KINDS, DecisionSet, decision_set
from mjstats.errors import InvalidArgumentError
from mjstats.games import kernels as G
from mjstats.games.views import (
    V_HAND,
    V_LAST_SEAT,
    V_LAST_TILE,
    V_MELD,
    V_NMELD,
    V_ROUND,
    V_UNSEEN,
    V_WALL_LEFT,
)
from mjstats.provenance import provenance, write_json
from mjstats.studies.aggregate import atomic_write_bytes
from mjstats.studies.interrupts import deferred_interrupts
from mjstats.studies.runner import StudyInterrupted, _Progress
from mjstats.tiles import TILES

__all__ = ["BLOCK_GAMES", "REVIEW_PLAYOUTS", "Ratings", "rate_options", "read_review", "review",
           "review_to"]  # fmt: skip

REVIEW_PLAYOUTS = 300
"""Monte Carlo playouts per option of shanten 2 or more in a review (the options of
one decision share their walls, so their differences are more precise than each
value's standard error)."""

# the analysis's option kind of each engine action kind (a chow: its lowest tile)
_OPTION_OF = {G.A_DISCARD: "discard", G.A_ANGANG: "concealed kong",
              G.A_BUGANG: "promoted kong", G.A_PASS: "pass",
              G.A_CHOW: "chow", G.A_PUNG: "pung", G.A_KONG: "kong"}  # fmt: skip


@dataclass(frozen=True)
class Ratings:
    """The options of the decisions rated by :func:`rate_options`.

    ``value``, ``se`` float64 (n, MAX_ACTIONS): E[points] of ``legal[i, j]`` and
    its standard error (0 when exact), NaN past the legal ones and for decisions
    without a choice; ``win`` bool (n, MAX_ACTIONS): the option is a legal win
    (ranked first whatever its value); ``method`` (n, MAX_ACTIONS) str: ``exact``,
    ``monte carlo``, ``win``, or ``""`` when the seat has no draw left (value 0);
    ``hand`` (n,) str: the position's hand text.
    """

    value: np.ndarray
    se: np.ndarray
    win: np.ndarray
    method: np.ndarray
    hand: np.ndarray


def _draws_left(ds: DecisionSet, v: np.ndarray, n_seats: int) -> int:
    """The seat's own draws still to come: its wall segment (Botzone), else its share
    of the shared wall."""
    left = int(v[V_WALL_LEFT])
    return left if ds.wall == "botzone" else left // n_seats


def _position(ds: DecisionSet, i: int, n_seats: int):
    r, v = ds.rows[i], ds.seen[i]
    p = int(r[K.C_SEAT])
    own = K.KIND_NAMES[r[K.C_KIND]] == "own"
    n = int(v[V_NMELD + p])
    melds = [(int(v[V_MELD + 12 * p + 3 * m]), int(v[V_MELD + 12 * p + 3 * m + 1]))
             for m in range(n)]  # fmt: skip
    discard = -1 if own else int(v[V_LAST_TILE])
    from_seat = 1 if own else (p - int(v[V_LAST_SEAT])) % n_seats
    return position_from_counts(
        v[V_HAND : V_HAND + 34], melds, n, v[V_UNSEEN : V_UNSEEN + 34],
        _draws_left(ds, v, n_seats), discard=discard, from_seat=from_seat,
        seat_wind=ds.seat_winds[p], round_wind=int(v[V_ROUND]),
    )  # fmt: skip


def rate_options(ds: DecisionSet, *, playouts: int = REVIEW_PLAYOUTS, seed: int = 1,
                 progress: bool | None = None, first: int = 0) -> Ratings:  # fmt: skip
    """E[points] of every legal option of every decision with a choice.

    Each decision's position (the seat's view: its hand and melds, the copies it
    cannot see, its draws still to come, the discard it answers) goes to
    :func:`mjstats.analysis.table.option_curves`: the option's expected points
    over the seat's draws left (its wall segment on Botzone's wall, else its
    share of the wall), solitaire (no claims, every win self-drawn), exact when
    the hand it leaves has shanten <= 1, else ``playouts`` Monte Carlo playouts
    (their seed made from ``seed``, the game's number and the step, so a decision's
    values do not depend on what else is reviewed; ``first``: the number of the first
    game of ``ds``, when it holds games of a larger set). A legal win is worth its
    payment, its fan total as the engine settles it (``win_fan`` of the decisions: 海底捞月,
    杠上开花, flowers, as the Botzone judge counts them), and ranks first, as in
    :func:`mjstats.analysis.analyze` (the solitaire model, blind to the other
    players, would sometimes rather wait for a self-drawn win).

    Examples
    --------
    >>> from mjstats.records.check import _DEMO_GAME
    >>> from mjstats.decisions import record_decisions
    >>> r = rate_options(record_decisions(_DEMO_GAME))
    >>> r.value[1, :2].round(2).tolist(), r.win[1, :2].tolist()  # pass (ready), or win
    ([39.2, 44.0], [False, True])
    """
    playouts, seed = check_count("playouts", playouts), check_seed(seed)
    first = check_count("first", first)
    n = int((ds.rows[:, K.C_NLEGAL] > 1).sum())
    with _Progress(n, "decisions", progress_wanted(progress)) as bar:
        return _rate(ds, playouts, seed, first, bar.advance)


class _Stopped(Exception):
    """A block's review abandoned on Ctrl-C (its part is not written)."""


def _rate(ds: DecisionSet, playouts: int, seed: int, first: int,
          advance=None, stop=None) -> Ratings:  # fmt: skip
    """:func:`rate_options` (checked arguments); ``advance(1)`` after each decision with
    a choice; :class:`_Stopped` when ``stop()`` turns true between two decisions."""
    shape = (len(ds), G.MAX_ACTIONS)
    value, se = np.full(shape, np.nan), np.full(shape, np.nan)
    win = np.zeros(shape, bool)
    method = np.full(shape, "", object)
    hand = np.full(len(ds), "", object)
    n_seats = len(ds.seat_winds)
    for i in np.flatnonzero(ds.rows[:, K.C_NLEGAL] > 1):
        if stop is not None and stop():
            raise _Stopped
        r = ds.rows[i]
        pos = _position(ds, i, n_seats)
        hand[i] = pos.text
        opts = {}
        # one seed per (game, step), as chunk_states makes them: the same values
        # whatever is reviewed beside it
        key = (first + int(r[K.C_GAME]), int(r[K.C_STEP]))
        own_seed = int(np.random.SeedSequence(seed, spawn_key=key).generate_state(1)[0])
        for kind, tile, _, curve in option_curves(pos, ds.ruleset, playouts=playouts,
                                                  seed=own_seed):  # fmt: skip
            opts[(kind, tile)] = curve
        for j in range(int(r[K.C_NLEGAL])):
            a = int(ds.legal[i, j])
            kind, t = a >> 6, a & 63
            if kind == G.A_TSUMO or kind == G.A_HU:
                # scored by the engine (海底捞月, 杠上开花, ... as the judge counts them)
                total = int(r[K.C_WIN_FAN])
                value[i, j] = float(ds.ruleset.payment(total, kind == G.A_TSUMO))
                se[i, j], win[i, j], method[i, j] = 0.0, True, "win"
                continue
            if kind == G.A_CHOW:
                t -= 1  # the analysis names a chow by its lowest tile
            elif kind == G.A_PASS:
                t = pos.discard
            key = (_OPTION_OF[kind], t)
            c = opts[key]
            value[i, j] = c.exp_points[-1] if len(c.exp_points) else 0.0
            se[i, j] = c.exp_points_se[-1] if len(c.exp_points) else 0.0
            method[i, j] = c.method
        if advance is not None:
            advance(1)
    return Ratings(value, se, win, method, hand)


def _name(a: int) -> str:
    kind, t = int(a) >> 6, int(a) & 63
    return ACTION_KINDS[kind] if kind == G.A_PASS else f"{ACTION_KINDS[kind]} {TILES[t]}"


def review(source, ruleset=None, *, threshold: float = 2.0, worst: int = 20,
           playouts: int = REVIEW_PLAYOUTS, seed: int = 1, skip_bad: bool = False,
           progress: bool | None = None) -> dict[str, pd.DataFrame]:  # fmt: skip
    """Rate every decision of every seat of ``source`` (records or played games, as
    :func:`mjstats.decisions.decisions` takes them) with :func:`rate_options`.

    The best option is a legal win if there is one, else the one of highest
    E[points]. The taken option's ``rank`` is 1 plus the number of options
    better than it by more than the noise (a legal win, or a value higher by
    more than twice the standard error of the difference; 0 between exact
    values); ``gap`` = best value minus taken value (at least 0). A decision
    agrees with the analysis when its rank is 1.

    Parameters
    ----------
    threshold : float
        A gap above this many points counts as a bad decision (``bad_share``).
    worst : int
        How many decisions of largest gap to list.
    playouts, seed : int
        Monte Carlo playouts per option of shanten 2 or more, and their seed.

    Returns
    -------
    dict of pandas.DataFrame
        ``decisions``: one row per decision with a choice (more than one legal
        action): ``game``, ``seat``, ``player`` (the bot's name when a JSON log gives
        it, else ``seat N``), ``step`` (of the replay viewer), ``kind``, ``hand``
        (the seat's melds and concealed tiles), ``n_legal``,
        ``taken``, ``best`` (action names), ``rank``, ``value``, ``best_value``
        (E[points]), ``gap``, ``method`` (of the taken option's value);
        ``seats``: per game and seat the decisions, ``agreement`` (share with
        rank 1), ``mean_gap``, ``bad_share`` (share with a gap above
        ``threshold``); ``players``: the same per seat (player) over the set;
        ``overall``: over all decisions; ``worst``: the ``worst`` decisions of
        largest gap.

    See Also
    --------
    review_to : the same for records of any size, a block of games at a time into a
        folder (threads, Dask, resume).

    Examples
    --------
    >>> from mjstats.records.check import _DEMO_GAME
    >>> r = review(_DEMO_GAME)
    >>> r["decisions"][["seat", "taken", "best", "rank", "gap"]].values.tolist()
    [[0, 'discard 9s', 'discard 9s', 1, 0.0], [1, 'hu 9s', 'hu 9s', 1, 0.0]]
    """
    ds = decision_set(source, ruleset, skip_bad=skip_bad)
    t = _table(ds, rate_options(ds, playouts=playouts, seed=seed, progress=progress))
    return {"decisions": t, **_summaries(t, threshold), "worst": _worst(t, worst)}


def _table(ds: DecisionSet, rated: Ratings) -> pd.DataFrame:
    """The ``decisions`` table of :func:`review`: the decisions of ``ds`` with a choice,
    ranked by their ratings."""
    r = ds.rows
    choice = np.flatnonzero(r[:, K.C_NLEGAL] > 1)
    v, err, win = rated.value[choice], rated.se[choice], rated.win[choice]
    rows = np.arange(len(choice))
    # ranking score: a legal win first, then the value
    score = np.where(win, np.inf, np.nan_to_num(v, nan=-np.inf))
    best_j = np.argmax(score, axis=1) if len(choice) else np.zeros(0, np.int64)
    taken_j = r[choice, K.C_INDEX]
    best, taken = v[rows, best_j], v[rows, taken_j]
    noise = 2 * np.sqrt(err**2 + err[rows, taken_j][:, None] ** 2) + 1e-9
    better = (score > score[rows, taken_j][:, None] + noise) | (win & ~win[rows, taken_j][:, None])
    rank = 1 + better.sum(axis=1)
    g = r[choice, K.C_GAME]
    t = pd.DataFrame({
        "game": np.asarray(ds.ids, object)[g] if len(choice) else [],
        "seat": r[choice, K.C_SEAT],
        "step": r[choice, K.C_STEP],
        "kind": np.asarray(K.KIND_NAMES, object)[r[choice, K.C_KIND]],
        "hand": rated.hand[choice],
        "n_legal": r[choice, K.C_NLEGAL],
        "taken": [_name(a) for a in r[choice, K.C_TAKEN]],
        "best": [_name(ds.legal[i, j]) for i, j in zip(choice, best_j, strict=True)],
        "rank": rank,
        "value": np.round(taken, 3),
        "best_value": np.round(best, 3),
        "gap": np.round(np.maximum(best - taken, 0.0), 3),
        "method": rated.method[choice, taken_j] if len(choice) else [],
    })  # fmt: skip
    names = ds.players or [()] * ds.n_games
    t.insert(2, "player", [names[gi][s] if len(names[gi]) > s else f"seat {s}"
                           for gi, s in zip(g, t["seat"], strict=True)])  # fmt: skip
    return t


def _summaries(t: pd.DataFrame, threshold: float) -> dict[str, pd.DataFrame]:
    """``seats``, ``players`` and ``overall`` of :func:`review` from the columns
    ``game``, ``seat``, ``player``, ``rank`` and ``gap`` of its decisions."""
    gap = t["gap"]
    t = pd.DataFrame({"game": t["game"], "seat": t["seat"], "player": t["player"],
                      "agree": t["rank"] == 1, "gap": gap, "bad": gap > threshold})  # fmt: skip
    how = {"decisions": ("gap", "size"), "agreement": ("agree", "mean"),
           "mean_gap": ("gap", "mean"), "bad_share": ("bad", "mean")}  # fmt: skip
    # vectorised per group (a Python function per game and seat took minutes at 10**5 games)
    seats = t.groupby(["game", "seat"], sort=False).agg(**how).reset_index()
    order = {gid: k for k, gid in enumerate(dict.fromkeys(t["game"]))}
    seats["_order"] = seats["game"].map(order)
    seats = seats.sort_values(["_order", "seat"]).drop(columns="_order").reset_index(drop=True)
    by_seat = t.groupby("player").agg(**how).reset_index()
    overall = pd.DataFrame({"decisions": [len(t)], "agreement": [t["agree"].mean()],
                            "mean_gap": [gap.mean()], "bad_share": [t["bad"].mean()]})  # fmt: skip
    for frame in (seats, by_seat):
        frame["decisions"] = frame["decisions"].astype(int)
        for c in ("agreement", "mean_gap", "bad_share"):
            frame[c] = frame[c].astype(float)
    return {"seats": seats, "players": by_seat, "overall": overall}


def _worst(t: pd.DataFrame, n: int) -> pd.DataFrame:
    """The ``n`` decisions of largest gap (then by game and step, then in order: a
    stable sort, so the worst of the worst of each block are the worst of all)."""
    order = t.sort_values(["gap", "game", "step"], ascending=[False, True, True], kind="stable")
    return order.head(n).reset_index(drop=True)


# ------------------------------------------------------------------ large reviews
BLOCK_GAMES = 64
"""Games per part of :func:`review_to`: about 4,000 decisions, a minute of one core."""

_STR = ("game", "player", "kind", "hand", "taken", "best", "method")
_FLOAT = ("value", "best_value", "gap")
_LIGHT = ["game", "seat", "player", "step", "rank", "gap"]  # what the summaries read
OUTPUTS = ("seats.csv", "players.csv", "overall.csv", "worst.csv", "provenance.json")
"""What :func:`review_to` writes at its end (a fresh run clears them with the parts)."""


def _have_parquet() -> bool:
    try:
        import pyarrow  # noqa: F401  # deferred: an optional extra
    except ImportError:
        return False
    return True


def _part_bytes(t: pd.DataFrame) -> tuple[bytes, str]:
    """A part's table as Parquet (CSV without pyarrow) and its file's extension."""
    if _have_parquet():
        buf = io.BytesIO()
        t.to_parquet(buf, index=False)
        return buf.getvalue(), ".parquet"
    return t.to_csv(index=False, na_rep="NaN").encode("utf-8"), ".csv"


def _read_part(path: Path) -> pd.DataFrame:
    """A part's table as :func:`_table` made it (the same dtypes from CSV as well)."""
    if path.suffix == ".parquet":
        return pd.read_parquet(path)
    return pd.read_csv(path, dtype=dict.fromkeys(_STR, str), keep_default_na=False,
                       na_values={c: ["NaN"] for c in _FLOAT})  # fmt: skip


class _GameTicks:
    """``advance(n)`` by games as a block's decisions are rated: a game counts once
    its last decision with a choice is rated (:meth:`finish`: the rest)."""

    def __init__(self, ds: DecisionSet, advance) -> None:
        self.g = ds.rows[ds.rows[:, K.C_NLEGAL] > 1, K.C_GAME]
        self.k = self.done = 0
        self.n, self.advance = ds.n_games, advance

    def __call__(self, _: int) -> None:
        g = int(self.g[self.k])
        self.k += 1
        if self.k == len(self.g) or self.g[self.k] != g:
            self._to(g + 1)

    def _to(self, done: int) -> None:
        if done > self.done:
            self.advance(done - self.done)
            self.done = done

    def finish(self) -> None:
        self._to(self.n)


def _review_block(out: str, i: int, ds, first: int, playouts: int, seed: int,
                  numba_threads: int | None = None, advance=None, stop=None) -> dict:  # fmt: skip
    """Rate block ``i`` (its games ``ds``, the first numbered ``first``) and write its
    table as part ``i`` with its mark; returns the mark. A task: ``ds`` packed by
    :func:`mjstats.decisions.runs.portable` for a Dask worker; on a thread of this
    process ``advance`` counts its games and ``stop`` abandons it."""
    if isinstance(ds, tuple):
        ds = runs.restore(ds)
    if numba_threads is not None:  # this thread's own count (numba's is per thread)
        numba.set_num_threads(numba_threads)
    ticks = _GameTicks(ds, advance) if advance is not None else None
    t = _table(ds, _rate(ds, playouts, seed, first, ticks, stop))
    data, ext = _part_bytes(t)
    mark = {"games": ds.n_games, "decisions": len(t), "first_game": first}
    mark = runs.write_part(Path(out), i, f"part-{i:05d}{ext}", data, mark, stem="part")
    if ticks is not None:
        ticks.finish()
    return mark


def review_to(out, source, ruleset=None, *, threshold: float = 2.0, worst: int = 20,
              playouts: int = REVIEW_PLAYOUTS, seed: int = 1, skip_bad: bool = False,
              block_games: int = BLOCK_GAMES, threads: int = 1, dask=None, resume: bool = False,
              progress: bool | None = None) -> dict[str, pd.DataFrame]:  # fmt: skip
    """:func:`review` of records of any size, written into folder ``out`` a block of
    games at a time: on threads or Dask, with progress, resumable.

    Block ``i`` holds games ``i * block_games`` on, in reading order (the games that
    replay, as in :func:`review`); its ``decisions`` table is written as
    ``part-0000i.parquet`` (CSV without pyarrow) with its completion mark
    ``part-0000i.json`` (:mod:`mjstats.decisions.runs`, as the shards of
    :func:`mjstats.decisions.write_decisions`). A decision's values depend only on the
    seed, its game's number and its step, so the parts are the same whatever the
    blocks, threads, backend or interruptions, and the summaries made from them at the
    end (``seats.csv``, ``players.csv``, ``overall.csv``, ``worst.csv``,
    ``provenance.json``) equal :func:`review`'s of the same records.

    Parameters
    ----------
    out : path
        The folder (created; a fresh run clears an earlier run's parts there).
    source : path or str
        Botzone records: a text record file, a JSON judge log, a folder of them, or
        the text itself.
    threshold, worst, playouts, seed, skip_bad
        As :func:`review` (``threshold`` and ``worst`` shape only the summaries: a
        resume may change them).
    block_games : int
        Games per part (the unit of work, of resume and of a Dask task).
    threads : int
        Blocks rated at once in this process, each on a thread with its share of
        numba's threads (the analysis's kernels release the GIL).
    dask : str or distributed.Client, optional
        Rate the blocks as Dask tasks (a scheduler address, ``"local"``, ``"local:N"``
        or a ``Client``; the ``dask`` extra): the records are read and split here and
        each block's decisions sent to a worker, which writes its part into ``out`` (a
        file system the workers share).
    resume : bool
        Finish the run that wrote ``out``: complete parts are kept, the others
        rated; the same parameters (but ``threshold``, ``worst``, ``threads``, ``dask``).
    progress : bool, optional
        A progress bar over the games (default: :func:`mjstats.compiling.progress_wanted`).

    Returns
    -------
    dict of pandas.DataFrame
        ``seats``, ``players``, ``overall`` and ``worst`` as :func:`review` (the
        decisions stay in the parts: :func:`read_review` reads them).

    Raises
    ------
    InvalidArgumentError
        A bad option, a source other than records, or a resume into a folder written
        with other parameters (named in the message).
    FileNotFoundError
        ``resume`` into a folder that holds no review.
    mjstats.studies.StudyInterrupted
        Ctrl-C: the blocks running are abandoned, the parts written kept; finish with
        ``resume=True``.

    Examples
    --------
    >>> import tempfile
    >>> from mjstats.records.check import _DEMO_GAME
    >>> out = tempfile.mkdtemp()
    >>> r = review_to(out, _DEMO_GAME + _DEMO_GAME.replace("Match ", "Match x"), block_games=1)
    >>> r["overall"].equals(review(_DEMO_GAME + _DEMO_GAME.replace("Match ", "Match x"))["overall"])
    True
    >>> sorted(p.name for p in Path(out).glob("part-*"))
    ['part-00000.json', 'part-00000.parquet', 'part-00001.json', 'part-00001.parquet']
    >>> len(read_review(out))
    4
    """
    runs.check_options({"block_games": block_games, "threads": threads, "worst": worst}, dask)
    playouts, seed = check_count("playouts", playouts), check_seed(seed)
    if isinstance(source, (tuple, DecisionSet)):
        raise InvalidArgumentError("review_to reviews records (a path or their text); "
                                   "review() takes played games")  # fmt: skip
    out = Path(os.fspath(out))
    if isinstance(source, (str, os.PathLike)) and not str(source).lstrip().startswith("Match"):
        if not Path(os.fspath(source)).exists():
            raise FileNotFoundError(2, "no such file or directory", str(source))
    params = {**_source_params(source), **ruleset_params(ruleset), "playouts": playouts,
              "seed": seed, "skip_bad": skip_bad, "block_games": block_games}  # fmt: skip
    runs.prepare(out, params, resume, command="review", stem="part", outputs=OUTPUTS)
    try:
        n = _review_blocks(out, source, ruleset, params, threads, dask, progress)
        return _finish(out, n, params, threshold, worst)
    finally:
        runs.settle(out)


def _threads_share(threads: int) -> int | None:
    """numba threads for each of ``threads`` block threads (None: one block at a time).

    numba's workqueue layer cannot run kernels from two threads at once: with it, one
    block at a time."""
    if threads == 1:
        return None
    numba.set_num_threads(numba.get_num_threads())  # starts numba's threading layer
    if numba.threading_layer() == "workqueue":
        warnings.warn("numba's workqueue threading layer runs one block at a time: install "
                      "tbb or an OpenMP runtime for --threads", stacklevel=3)  # fmt: skip
        return None
    return max(1, numba.get_num_threads() // threads)


def _review_blocks(out: Path, source, ruleset, params: dict, threads: int, dask,
                   progress: bool | None) -> int:  # fmt: skip
    """Rate the blocks without a complete part; returns the number of blocks."""
    requested = progress
    n = 0
    share = _threads_share(threads) if dask is None else None
    if share is None and dask is None:
        threads = 1
    lock = threading.Lock()
    stop = threading.Event()

    total = count_records(source)
    with deferred_interrupts() as guard, notice("review", requested), \
            _Progress(total, "games", progress_wanted(progress)) as bar:  # fmt: skip

        def advance(k: int) -> None:
            with lock:
                bar.advance(k)

        def halted() -> bool:
            return stop.is_set() or guard.pending

        def todo():
            nonlocal n
            blocks = record_shards(source, ruleset, params["block_games"], params["skip_bad"])
            for i, ds in enumerate(blocks):
                n = i + 1
                mark = runs.complete(out, i, "part")
                if mark is not None:
                    advance(mark["games"])
                    continue
                first = i * params["block_games"]
                if dask is not None:
                    yield (str(out), i, runs.portable(ds), first, params["playouts"],
                           params["seed"])  # fmt: skip
                else:
                    yield (str(out), i, ds, first, params["playouts"], params["seed"], share,
                           advance, halted)  # fmt: skip

        try:
            for mark in runs.run_tasks(_review_block, todo(), dask=dask, threads=threads,
                                       check=guard.check, stop=stop):  # fmt: skip
                guard.idle = False
                if dask is not None:
                    advance(mark["games"])
            guard.check()
        except (KeyboardInterrupt, _Stopped):  # the parts written are complete
            raise StudyInterrupted(None, out) from None
    return n


def _finish(out: Path, n: int, params: dict, threshold: float, worst: int) -> dict:
    """The summaries of parts ``0 .. n - 1`` (all complete), written and returned."""
    marks = runs.complete_marks(out, n, "part")
    light, tops = [], []
    for m in marks:  # one part in memory at a time, and the columns the summaries read
        t = _read_part(out / m["file"])
        light.append(t[_LIGHT])
        tops.append(_worst(t, worst))
    if not marks:
        raise InvalidArgumentError(f"no games to review in {params['source']}")
    result = {**_summaries(pd.concat(light, ignore_index=True), threshold),
              "worst": _worst(pd.concat(tops, ignore_index=True), worst)}  # fmt: skip
    for name, frame in result.items():
        atomic_write_bytes(out / f"{name}.csv", frame.to_csv(index=False).encode("utf-8"))
    prov_params = {"seed": params["seed"], "n_games": sum(m["games"] for m in marks),
                   "ruleset": params["ruleset"] or "botzone judge (mcr)",
                   "playouts": params["playouts"]}  # fmt: skip
    if params["options"]:
        prov_params["options"] = params["options"]
    prov = provenance(prov_params, kind="review", source=params["source"])
    body = {"games": prov_params["n_games"], "decisions": sum(m["decisions"] for m in marks),
            "parts": [{k: m[k] for k in ("file", "games", "decisions")} for m in marks],
            "threshold": threshold, "worst": worst,
            "summaries": [f"{k}.csv" for k in result]}  # fmt: skip
    write_json(out / "provenance.json", body, prov)
    return result


def read_review(folder) -> pd.DataFrame:
    """The ``decisions`` table of a review :func:`review_to` wrote into ``folder``: its
    parts in order (all in memory: a data set's may be large; read the parts one by one
    for less).

    Examples
    --------
    >>> import tempfile
    >>> from mjstats.records.check import _DEMO_GAME
    >>> out = tempfile.mkdtemp()
    >>> _ = review_to(out, _DEMO_GAME)
    >>> read_review(out).equals(review(_DEMO_GAME)["decisions"])
    True
    """
    folder = Path(os.fspath(folder))
    path = folder / "provenance.json"
    if not path.is_file():
        raise FileNotFoundError(2, "no review here (no provenance.json)", str(path))
    parts = json.loads(path.read_text(encoding="utf-8"))["parts"]
    return pd.concat([_read_part(folder / p["file"]) for p in parts], ignore_index=True)
