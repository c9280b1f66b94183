"""``games``: hands (局) played by the game engine's policies, aggregated.

Each game is played by :func:`mjstats.games.play_games` from the deal to a win or
an exhausted wall: four seats for MCR (seat 0 East, the dealer; seat wind = seat),
two for the two-player ruleset (East and West; per-seat counters have two rows),
claims, kongs, robbing a kong where allowed, flowers on the shared wall, and the
ruleset's payments.
Game ``i`` of seed ``s`` gets its wall and its random choices from ``(s, i)``
alone (:func:`mjstats.games.kernels.game_rng`), so the numbers do not depend on
the chunk size, the threads, the backend or a resume.

Results (:class:`~mjstats.studies.aggregate.Aggregate` counters, all integer sums
over games, so chunks merge exactly):

* the fan statistics of :mod:`mjstats.kernels.accumulate` with one "hand" per
  game and the wins as the complete (and legal) hands: ``hands`` (= games),
  ``complete`` and ``legal`` (= wins), ``fan_count``, ``cooccurrence``,
  ``total_hist`` (row 0: wins on a discard or a robbed kong, the payer's
  kind of win; row 1: self-drawn), ``base_hist`` (totals without flower
  points) and ``form_count``; so :func:`mjstats.report.fan_table` gives fan
  frequencies per win, and :func:`game_fan_table` per game;
* ``games``, ``drawn`` (荒庄: no winner);
* ``wins`` (4 seats, 3 kinds: on a discard, self-drawn, robbing a kong),
  ``deal_ins`` (4: the seat that paid ``base + total`` on a discard or kong);
* ``points_won``, ``points_lost``, ``points_sq`` (4 each: sums of a seat's
  positive scores, of the magnitudes of its negative scores, of its squared
  scores; counters are non-negative, so the signed sum is won - lost);
* ``win_melds`` (5: wins by the winner's number of melds, concealed kongs
  included), ``win_claims`` (5: by the winner's melds claimed from others),
  ``win_meld_kinds`` (5: the winner's melds by kind, index = kind of
  :class:`mjstats.hand.MeldKind`), ``game_claims`` (17: games by the claims
  made at the table);
* ``length`` (2 x 145: games by tiles drawn after the deal, kong and flower
  replacements included; row 0 drawn games, row 1 won games);
* ``claim_counts`` (3 x seats x 7: the chances, claims made and claims taken of
  each seat and kind of claim, :data:`mjstats.games.stats.CLAIM_KINDS`, counted by
  replaying each game's log, :mod:`mjstats.games.stats`;
  :func:`mjstats.studies.game_stats.claim_table`);
* ``dataset_claims`` (11, games on the Botzone wall only: the games read, then the
  chances and claims of each kind counted as the real-play data set's publisher
  counts them, :data:`mjstats.games.stats.DATASET_COUNTS`, so that
  :func:`mjstats.studies.realplay.compare_real_play` sets the rates beside the
  published ones like for like).

Every win is scored twice: by the engine while playing, and again here with
:func:`mjstats.score_batch` on the winner's final hand (which gives its form).
The two must agree, fan by fan; a difference stops the study
(:class:`~mjstats.games.GameError`).

Examples
--------
>>> from mjstats.studies.games import games, games_summary
>>> agg = games(40, seed=1, policy="random", progress=False)
>>> s = games_summary(agg)
>>> s["games"], s["wins"] + s["drawn"] == s["games"], abs(sum(s["points_per_game"])) < 1e-12
(40, True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from mjstats.batch import HandBatch
from mjstats.games import GameError, GameOptionError, engine_context, game_rules, play_games
from mjstats.games import kernels as G
from mjstats.games.engine import policy_label, seat_policies
from mjstats.games.records import open_records, resume_records
from mjstats.games.stats import (
    CLAIM_KINDS,
    DATASET_COUNTS,
    claim_counters,
    dataset_claim_counters,
)
from mjstats.kernels.accumulate import TOTAL_BINS, empty_counters
from mjstats.rulesets import Ruleset, get_ruleset
from mjstats.scorer import score_batch
from mjstats.studies.aggregate import Aggregate
from mjstats.studies.checkpoint import load_checkpoint
from mjstats.studies.play import _options_param, _PicklableRuleset
from mjstats.studies.runner import Study, chunked_weight, run_study, study_count, study_seed
from mjstats.studies.summaries import fan_table, wilson_interval

__all__ = [
    "GamesStudy",
    "game_fan_table",
    "game_length_table",
    "games",
    "games_summary",
    "meld_table",
    "run_games",
    "seat_table",
    "winning_hands",
]

CHUNK = 1000
"""Games per chunk (does not change the numbers: each game's seed is its own)."""

LOG_BLOCK = 2048
"""Games played at a time in a chunk group: their logs are replayed for the claim
counts, then dropped (does not change the numbers)."""
LENGTH_BINS = 145  # tiles drawn after the deal: fewer than the 144 of the largest wall
CLAIM_BINS = 17  # claims in a game: at most 4 melds a seat
WIN_KINDS = ("discard", "self-drawn", "robbed kong")


class GamesStudy(_PicklableRuleset, Study):
    """Four-player games played by the engine's policies (see the module docstring).

    Parameters
    ----------
    n_games : int
        Games to play.
    seed : int
        Study seed; game ``i`` plays from ``(seed, i)``.
    policy : str, (own, answer) pair, or sequence of them
        A built-in policy (:data:`mjstats.games.POLICIES`) or a user policy (a
        pair of numba functions, see :func:`mjstats.games.play_games`) for every
        seat, or one per seat (four; two in two-player; seat 0 East, the dealer).
        User policies are named ``custom:module.own/answer`` in the parameters (a
        resume needs a name).
    wall : {"shared", "botzone"}
        The shared 144-tile wall with flowers, or the Botzone judge's 136 tiles in
        four segments.
    ruleset : str or Ruleset
        A four-player ruleset (``"mcr"``, its profiles and options).
    round_wind : int
        0-3 (E S W N).
    chunk_size : int
        Games per chunk.
    """

    kind = "games"
    work_counter = "games"
    default_n = 10_000
    count_param = "n_games"
    cli_options = ("policy", "wall", "round_wind")

    @classmethod
    def cli_params(cls, given: dict[str, Any]) -> dict[str, Any]:
        """``--policy`` once for every seat or once per seat."""
        out = dict(given)
        if "policy" in given:
            names = list(given["policy"])
            out["policy"] = names[0] if len(names) == 1 else names
        return out

    @classmethod
    def summary_json(cls, agg: Aggregate) -> dict[str, Any]:
        """The fan summary (per win and per game), :func:`games_summary`, the
        seat, length and meld tables and the claims (chances, made and taken of each
        kind, all seats; on the Botzone wall also ``claims_as_the_data_set``, the
        chances and claims counted as the real-play data set counts them)."""
        out = super().summary_json(agg)
        t = game_fan_table(agg)
        out["fan_probability_per_game"] = dict(zip(t["en"], t["per_game"], strict=True))
        out["games"] = games_summary(agg)
        out["seats"] = seat_table(agg).to_dict(orient="list")
        out["lengths"] = game_length_table(agg).to_dict(orient="list")
        out["melds"] = meld_table(agg).to_dict(orient="list")
        if "claim_counts" in agg.counters:
            c = agg["claim_counts"].sum(axis=1)
            out["claims"] = {
                kind: dict(zip(("chances", "made", "taken"), c[:, k].tolist(), strict=True))
                for k, kind in enumerate(CLAIM_KINDS)
            }
        if "dataset_claims" in agg.counters:
            out["claims_as_the_data_set"] = dict(
                zip(DATASET_COUNTS, agg["dataset_claims"].tolist(), strict=True)
            )
        return out

    records_file = None
    """An open text file the chunks' games are written to as Botzone records while
    :func:`run_games` runs (not a parameter: records do not change the result)."""

    def __init__(
        self,
        n_games: int,
        seed: int,
        policy: str | Sequence[str] = "efficiency",
        wall: str = "shared",
        ruleset: str | Ruleset = "mcr",
        round_wind: int = 0,
        chunk_size: int = CHUNK,
    ) -> None:
        self.ruleset = get_ruleset(ruleset)
        self.n_games = study_count("n_games", n_games)
        self.seed = study_seed(seed)
        self.chunk_size = study_count("chunk_size", chunk_size)
        if self.chunk_size < 1:
            raise ValueError(f"chunk_size must be 1 or more, got {chunk_size}")
        if isinstance(round_wind, bool) or not isinstance(round_wind, int | np.integer):
            raise TypeError(f"round_wind must be an integer 0-3, got {round_wind!r}")

        self.seats = seat_policies(policy, len(game_rules(self.ruleset).seat_winds))
        self.policy = [policy_label(p) for p in self.seats]
        self.wall = wall
        self.round_wind = int(round_wind)
        # the engine's own checks: the ruleset's seats, a known wall and policies, a wind
        engine_context(self.ruleset, wall, self.round_wind, self.seats)

    def params(self) -> dict[str, Any]:
        p = {
            "ruleset": self.ruleset.spec,
            "n_games": self.n_games,
            "seed": self.seed,
            "policy": list(self.policy),
            "wall": self.wall,
            "round_wind": self.round_wind,
            "chunk_size": self.chunk_size,
        }
        options = _options_param(self.ruleset)
        if options:
            p["options"] = options
        return p

    def n_chunks(self) -> int:
        return -(-self.n_games // self.chunk_size)

    def chunk_weight(self, first: int, count: int) -> int:
        return chunked_weight(self.n_games, self.chunk_size, first, count)

    def progress_unit(self) -> str:
        return "games"

    def run_chunks(self, first: int, count: int) -> Aggregate:
        lo = min(self.n_games, first * self.chunk_size)
        n = self.chunk_weight(first, count)
        counters: dict[str, np.ndarray] = {}
        # LOG_BLOCK games at a time: their move logs (16 KB a game) are counted and dropped
        for start in range(lo, lo + max(n, 1), LOG_BLOCK):
            m = min(LOG_BLOCK, lo + n - start)
            table, fans, final, logs = play_games(
                m,
                self.seed,
                ruleset=self.ruleset,
                wall=self.wall,
                policy=self.seats,
                round_wind=self.round_wind,
                first=start,
                keep_log=True,
                records=self.records_file,
            )
            c = game_counters(table, fans, final, self.ruleset, start)
            c["claim_counts"] = claim_counters(final, logs, self.ruleset, self.wall, start)
            if self.wall == "botzone":  # the data set's games: its count, like for like
                c["dataset_claims"] = dataset_claim_counters(final, logs)
            counters = {k: counters[k] + v for k, v in c.items()} if counters else c
        return Aggregate(self.kind, self.params(), counters)


def winning_hands(table: pd.DataFrame, final: np.ndarray, ruleset: Ruleset | None = None):
    """The winners' hands of played games as a :class:`~mjstats.HandBatch`, one row per win.

    ``table`` and ``final`` are what :func:`mjstats.games.play_games` returns with
    ``keep_state=True``; the rows follow the won games in order. The context is the
    engine's: self-drawn, 和绝张, kong win, last tile of the wall, the winner's seat
    wind (of ``ruleset``'s seats; default MCR's) and flowers, the round wind, the
    situation bits (天胡 ...; 0 in MCR). Scoring the batch with
    :func:`mjstats.score_batch` must give the engine's fans.

    Examples
    --------
    >>> import mjstats
    >>> from mjstats.games import play_games
    >>> table, fans, final = play_games(20, seed=3, policy="random", keep_state=True)
    >>> hands = winning_hands(table, final)
    >>> won = table.winner.to_numpy() >= 0
    >>> bool((mjstats.score_batch(hands).fan_counts == fans[won]).all())
    True
    """

    if ruleset is None:
        ruleset = get_ruleset("mcr")

    winds = np.asarray(game_rules(ruleset).seat_winds, np.int64)
    won = np.flatnonzero(table["winner"].to_numpy() >= 0)
    S = final[won]
    seat = S[:, G.S_WINNER]
    rows = np.arange(len(won))
    hand_at = G.S_HAND + 34 * seat[:, None] + np.arange(34)
    concealed = S[rows[:, None], hand_at]  # the winning tile included, however won
    win_tile = S[:, G.S_WIN_TILE]
    self_drawn = S[:, G.S_WIN_KIND] == G.WIN_SELF_DRAWN
    meld_at = G.S_MELD + 12 * seat[:, None] + 3 * np.arange(4)
    kinds = S[rows[:, None], meld_at]
    tiles = S[rows[:, None], meld_at + 1]
    used = np.arange(4) < S[rows, G.S_NMELD + seat][:, None]
    melds = np.stack([np.where(used, kinds, 0), np.where(used, tiles, 0)], axis=2)
    flowers = S[rows, G.S_FLOWERS + seat]
    return HandBatch(
        concealed=concealed,
        melds=melds,
        win_tile=win_tile,
        self_drawn=self_drawn,
        last_of_kind=S[:, G.S_LAST_KIND] != 0,
        kong_win=S[:, G.S_KONG_WIN] != 0,
        last_of_wall=S[:, G.S_LAST_WALL] != 0,
        seat_wind=winds[seat],
        round_wind=S[:, G.S_ROUND],
        flowers=flowers,
        situation=S[:, G.S_SITUATION],
    )


def game_counters(
    table: pd.DataFrame, fans: np.ndarray, final: np.ndarray, ruleset: Ruleset, first: int = 0
) -> dict[str, np.ndarray]:
    """The counters of the module docstring for games ``first ..`` of a study, played by
    :func:`~mjstats.games.play_games` (with ``keep_state=True``)."""

    n_forms = len(ruleset.forms)
    c = empty_counters(ruleset.n_fans, n_forms)
    n = len(table)
    winner = table["winner"].to_numpy()
    won = winner >= 0
    w = winner[won]
    kind = table["kind"].to_numpy()[won]
    total = table["total"].to_numpy()[won].astype(np.int64)
    fc = fans[won].astype(np.int64)
    # the second scoring: the form of each win, and a check of the engine's fans
    scored = score_batch(winning_hands(table, final, ruleset), ruleset)
    differ = np.flatnonzero(
        (scored.fan_counts.astype(np.int64) != fc).any(axis=1) | (scored.total != total)
    )
    if len(differ):
        i = first + int(np.flatnonzero(won)[differ[0]])
        raise GameError(
            f"the engine and score_batch score the win of game {i} differently "
            f"(engine total {int(total[differ[0]])}, score_batch {int(scored.total[differ[0]])})"
        )
    try:
        flower = ruleset.fan_id("flower_tiles")
        flower_points = fc[:, flower] * int(ruleset.points[flower])
    except KeyError:  # a ruleset without flower points
        flower_points = np.zeros(len(total), np.int64)
    present = (fc > 0).astype(np.int64)
    self_drawn = (kind == G.WIN_SELF_DRAWN).astype(np.int64)
    c["hands"][0] = n
    c["complete"][0] = c["legal"][0] = len(w)
    c["fan_count"] += fc.sum(axis=0)
    c["cooccurrence"] += present.T @ present
    np.add.at(c["total_hist"], (self_drawn, np.minimum(total, TOTAL_BINS - 1)), 1)
    np.add.at(c["base_hist"], np.minimum(total - flower_points, TOTAL_BINS - 1), 1)
    c["form_count"] += np.bincount(scored.form, minlength=n_forms)[:n_forms]

    n_seats = sum(1 for col in table.columns if col.startswith("score"))
    c["games"] = np.array([n], np.int64)
    c["drawn"] = np.array([n - len(w)], np.int64)
    wins = np.zeros((n_seats, len(WIN_KINDS)), np.int64)
    np.add.at(wins, (w, kind), 1)
    c["wins"] = wins
    payer = table["from_seat"].to_numpy()[won][kind != G.WIN_SELF_DRAWN]
    c["deal_ins"] = np.bincount(payer, minlength=n_seats).astype(np.int64)
    scores = table[[f"score{q}" for q in range(n_seats)]].to_numpy().astype(np.int64)
    c["points_won"] = np.maximum(scores, 0).sum(axis=0)
    c["points_lost"] = np.maximum(-scores, 0).sum(axis=0)
    c["points_sq"] = (scores * scores).sum(axis=0)

    S = final[won]
    rows = np.arange(len(w))
    meld_at = G.S_MELD + 12 * w[:, None] + 3 * np.arange(4)
    used = np.arange(4) < S[rows, G.S_NMELD + w][:, None]
    kinds = np.where(used, S[rows[:, None], meld_at], 0)
    claimed = used & (S[rows[:, None], meld_at + 2] != w[:, None])
    c["win_melds"] = np.bincount(used.sum(axis=1), minlength=5).astype(np.int64)
    c["win_claims"] = np.bincount(claimed.sum(axis=1), minlength=5).astype(np.int64)
    meld_kinds = np.bincount(kinds[used], minlength=5).astype(np.int64)
    c["win_meld_kinds"] = meld_kinds
    claims = table["claims"].to_numpy()
    draws = final[:, G.S_DRAWS]
    if len(claims) and (claims.max() >= CLAIM_BINS or draws.max() >= LENGTH_BINS):
        raise GameError("a game made more claims or draws than a game can hold")
    c["game_claims"] = np.bincount(claims, minlength=CLAIM_BINS).astype(np.int64)
    length = np.zeros((2, LENGTH_BINS), np.int64)
    np.add.at(length, (won.astype(np.int64), draws), 1)
    c["length"] = length
    return c


def games(
    n_games: int,
    seed: int,
    policy: str | Sequence[str] = "efficiency",
    wall: str = "shared",
    ruleset: str | Ruleset = "mcr",
    *,
    round_wind: int = 0,
    chunk_size: int = CHUNK,
    progress: bool | None = None,
    records=None,
    **run_options: Any,
) -> Aggregate:
    """Play ``n_games`` four-player games; returns the merged aggregate.

    See the module docstring for the counters and :class:`GamesStudy` for the
    parameters. ``run_options`` go to :func:`~mjstats.studies.runner.run_study`
    (``dask=``, ``checkpoint=``, ``resume=``, ``group_size=``). Same seed, same
    numbers, whatever the threads, chunks, backend or resumes. ``records``: a
    path (or open text file) to write the games to as Botzone text records, in
    game order, as they are played (see :func:`run_games`: ``wall="botzone"``
    only, not with ``dask``).

    Raises
    ------
    mjstats.games.GameOptionError
        A ``ValueError``: unknown policy or wall, a two-player ruleset, a bad wind,
        not 1 or 4 policies.
    mjstats.games.GameError
        A game stopped (see :func:`mjstats.games.play_games`).

    Examples
    --------
    >>> from mjstats.studies.games import games, seat_table
    >>> agg = games(40, seed=2, policy=["efficiency", "random", "random", "random"],
    ...             progress=False)
    >>> seat_table(agg)["policy"].tolist()
    ['efficiency', 'random', 'random', 'random']
    """
    study = GamesStudy(
        n_games,
        seed,
        policy=policy,
        wall=wall,
        ruleset=ruleset,
        round_wind=round_wind,
        chunk_size=chunk_size,
    )
    return run_games(study, records, progress=progress, **run_options)


def run_games(study: GamesStudy, records=None, **run_options: Any) -> Aggregate:
    """:func:`~mjstats.studies.runner.run_study` of a games study, the games written
    to ``records`` (a path or an open text file) in Botzone's text format as they
    are played.

    The runner plays the chunk groups in order in this process and each group's
    games are written (:data:`mjstats.games.engine.RECORD_BLOCK` games at a time)
    before the next group, so memory does not grow with the number of games and
    the file's bytes depend only on the seed and the number of games, not on the
    chunk size, the group size or the threads. A resume (``resume=True``)
    continues the records file of the interrupted run: it must hold the games
    the checkpoint has done, in order, and anything after them (games played
    after the last checkpoint save) is cut off before the rest is appended
    (:func:`mjstats.games.records.resume_records`).

    Raises
    ------
    mjstats.games.GameOptionError
        ``records`` with a wall other than ``"botzone"`` (the format has no
        flowers), with ``dask`` (Dask workers finish chunks in any order, in
        other processes), or with a resume of a checkpoint whose done chunks do
        not start at game 0 (a Dask run's) or an open file instead of a path.
    mjstats.games.records.RecordsResumeError
        On a resume, a records file that does not hold the checkpoint's games.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from mjstats.studies.games import GamesStudy, run_games
    >>> path = Path(tempfile.mkdtemp()) / "games.txt"
    >>> agg = run_games(GamesStudy(30, seed=1, policy="random", wall="botzone", chunk_size=7),
    ...                 path, progress=False)
    >>> path.read_text(encoding="utf-8").count("Match mjstats-1-"), int(agg["games"][0])
    (30, 30)
    """
    if records is None:
        return run_study(study, **run_options)

    if study.wall != "botzone":
        raise GameOptionError(
            f"records are written in Botzone's text format, which has no flowers: the "
            f"{study.wall} wall cannot be recorded (use wall 'botzone')"
        )
    if run_options.get("dask") is not None:
        raise GameOptionError(
            "records are written in game order as this process plays them: they cannot be "
            "written from a Dask run (run without Dask, or write no records)"
        )
    append = False
    ckpt = run_options.get("checkpoint")
    if run_options.get("resume") and (ckpt is None or not Path(ckpt).exists()):
        return run_study(study, **run_options)  # its error (nothing to resume), file untouched
    if run_options.get("resume"):
        _, done = load_checkpoint(Path(ckpt), study)
        if done and (len(done) > 1 or done[0][0] != 0):
            raise GameOptionError(
                f"the checkpoint {ckpt} has done chunks {done}, not a run from game 0 "
                "(a Dask run's): its records cannot be continued"
            )
        if hasattr(records, "write"):
            raise GameOptionError("a resume continues a records file: give its path")
        resume_records(records, study.seed, study.chunk_weight(0, done[0][1]) if done else 0)
        append = True
    with open_records(records, append=append) as fh:
        study.records_file = fh
        try:
            return run_study(study, **run_options)
        finally:
            study.records_file = None


# ------------------------------------------------------------------ tables
def _ratio(a, b):
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(b > 0, a / np.where(b > 0, b, 1), np.nan)


def seat_table(agg: Aggregate) -> pd.DataFrame:
    """One row per seat: its policy, wins (all, self-drawn, on a discard, robbing a
    kong), deal-ins, and points per game (mean and standard deviation).

    ``p_win`` and ``p_deal_in`` are per game with 95 % Wilson intervals
    (``win_ci_low``, ``win_ci_high``); ``points_mean`` and ``points_sd`` are the
    mean and population standard deviation of the seat's score in a game.

    Examples
    --------
    >>> from mjstats.studies.games import games, seat_table
    >>> t = seat_table(games(40, seed=1, policy="random", progress=False))
    >>> t["seat"].tolist(), round(float(t["points_mean"].sum()), 9)
    (['East', 'South', 'West', 'North'], 0.0)
    """

    n = int(agg["games"][0])
    wins = agg["wins"]
    total_wins = wins.sum(axis=1)
    points = (agg["points_won"] - agg["points_lost"]).astype(float)
    mean = _ratio(points, n)
    sd = np.sqrt(np.maximum(_ratio(agg["points_sq"], n) - mean**2, 0.0))
    lo, hi = wilson_interval(total_wins, n)

    n_seats = len(total_wins)
    try:
        winds = game_rules(agg.params.get("ruleset", "mcr")).seat_winds
    except ValueError:  # a ruleset this installation does not know: seat order
        winds = tuple(range(n_seats))
    return pd.DataFrame(
        {
            "seat": [("East", "South", "West", "North")[w] for w in winds[:n_seats]],
            "policy": agg.params.get("policy", [None] * n_seats),
            "wins": total_wins,
            "p_win": _ratio(total_wins, n),
            "win_ci_low": lo,
            "win_ci_high": hi,
            "self_drawn": wins[:, 1],
            "on_discard": wins[:, 0],
            "robbed_kong": wins[:, 2],
            "deal_ins": agg["deal_ins"],
            "p_deal_in": _ratio(agg["deal_ins"], n),
            "points_mean": mean,
            "points_sd": sd,
        }
    )


def game_fan_table(agg: Aggregate) -> pd.DataFrame:
    """Fan frequencies per win and per game: :func:`mjstats.report.fan_table`
    (``frequency`` = wins whose score holds the fan / wins) plus ``per_game``
    (those wins / games) and its 95 % Wilson interval.

    Examples
    --------
    >>> from mjstats.studies.games import games, game_fan_table
    >>> t = game_fan_table(games(40, seed=1, progress=False))  # efficiency at every seat
    >>> bool((t["per_game"] <= t["frequency"]).all())
    True
    """

    t = fan_table(agg)
    n = int(agg["games"][0])
    t["per_game"] = _ratio(t["hands"], n)
    t["per_game_ci_low"], t["per_game_ci_high"] = wilson_interval(t["hands"].to_numpy(), n)
    return t


def game_length_table(agg: Aggregate) -> pd.DataFrame:
    """Games by tiles drawn after the deal: ``draws``, ``won``, ``drawn``, ``games``,
    ``cdf`` (share of games with at most that many draws); rows from 0 to the most seen.

    Examples
    --------
    >>> from mjstats.studies.games import games, game_length_table
    >>> t = game_length_table(games(40, seed=1, policy="random", progress=False))
    >>> int(t["games"].sum()), float(t["cdf"].iloc[-1])
    (40, 1.0)
    """
    length = agg["length"]
    both = length.sum(axis=0)
    nz = np.flatnonzero(both)
    top = int(nz[-1]) + 1 if len(nz) else 1
    n = int(both.sum())
    return pd.DataFrame(
        {
            "draws": np.arange(top),
            "won": length[1, :top],
            "drawn": length[0, :top],
            "games": both[:top],
            "cdf": np.cumsum(both[:top]) / n if n else np.full(top, np.nan),
        }
    )


def meld_table(agg: Aggregate) -> pd.DataFrame:
    """Wins by the winner's number of melds (``melds``: wins with that many,
    concealed kongs included; ``claimed``: wins with that many melds claimed from
    others), with their shares among wins, for 0-4.

    Examples
    --------
    >>> from mjstats.studies.games import games, meld_table
    >>> t = meld_table(games(40, seed=1, policy="random", progress=False))
    >>> t.columns.tolist()
    ['count', 'melds', 'melds_share', 'claimed', 'claimed_share']
    """
    melds = agg["win_melds"]
    claimed = agg["win_claims"]
    wins = int(melds.sum())
    return pd.DataFrame(
        {
            "count": np.arange(5),
            "melds": melds,
            "melds_share": _ratio(melds, wins),
            "claimed": claimed,
            "claimed_share": _ratio(claimed, wins),
        }
    )


def games_summary(agg: Aggregate) -> dict[str, Any]:
    """Headline numbers of a ``games`` aggregate.

    ``games``, ``wins``, ``drawn``, ``p_drawn``, ``self_drawn`` (wins),
    ``p_self_drawn`` (share of wins), ``robbed_kong``, ``mean_total`` (fan total of
    the wins, flowers included), ``mean_draws`` (tiles drawn a game),
    ``claims_per_game``, ``melds_per_win``, ``claims_per_win`` (melds the winner
    claimed), ``wins_per_seat``, ``points_per_game`` (mean score per seat, a list
    of 4 summing to 0).

    Examples
    --------
    >>> from mjstats.studies.games import games, games_summary
    >>> s = games_summary(games(40, seed=1, policy="random", progress=False))
    >>> sorted(s)[:4]
    ['claims_per_game', 'claims_per_win', 'drawn', 'games']
    """
    n = int(agg["games"][0])
    wins = agg["wins"]
    n_wins = int(wins.sum())
    totals = agg["total_hist"].sum(axis=0)
    length = agg["length"].sum(axis=0)
    nan = float("nan")
    five = np.arange(5)
    return {
        "games": n,
        "wins": n_wins,
        "drawn": int(agg["drawn"][0]),
        "p_drawn": int(agg["drawn"][0]) / n if n else nan,
        "self_drawn": int(wins[:, 1].sum()),
        "p_self_drawn": int(wins[:, 1].sum()) / n_wins if n_wins else nan,
        "robbed_kong": int(wins[:, 2].sum()),
        "mean_total": float(totals @ np.arange(len(totals))) / n_wins if n_wins else nan,
        "mean_draws": float(length @ np.arange(len(length))) / n if n else nan,
        "claims_per_game": float(agg["game_claims"] @ np.arange(CLAIM_BINS)) / n if n else nan,
        "melds_per_win": float(agg["win_melds"] @ five) / n_wins if n_wins else nan,
        "claims_per_win": float(agg["win_claims"] @ five) / n_wins if n_wins else nan,
        "wins_per_seat": wins.sum(axis=1).tolist(),
        "points_per_game": _ratio(agg["points_won"] - agg["points_lost"], n).tolist(),
    }
