"""``match``: duplicate matches, policies rotated through the seats on the same walls.

Every wall (game number ``w`` of the seed: the same wall and the same random numbers
whoever sits where) is played once per *arrangement* of the policies in the seats,
so that seat order cancels:

* two policies A B, four seats, ``rotation="1v3"`` (default): A alone against three
  B, A in each of the four seats; ``"2v2"``: two A against two B in each of the six
  ways to seat them;
* four policies A B C D: ``"cyclic"`` (default), the four rotations of the order
  (each policy once in each seat, each behind the same neighbour); ``"all"``, the 24
  orders (neighbours balanced too);
* two-seat rulesets (two-player): A B, both ways round (``"swap"``).

Per policy, summed over its seats of every arrangement (integer counters, so chunks
merge exactly): ``seat_games``; ``points_pos`` / ``points_neg`` / ``points_sq``, the
positive part, negative part and square of its points on each wall (summed over the
wall's arrangements: the paired unit of the interval); ``wins`` (3: on a discard,
self-drawn, robbing a kong), ``deal_ins``; ``claim_counts`` (3 x 7: chances, made,
taken of each kind of claim, :mod:`mjstats.games.stats`); on the Botzone wall
``dataset_claims`` (11: the seat-games the real-play data set's parser reads, and their
chances and claims of each kind as it counts them,
:func:`~mjstats.games.stats.dataset_counts`); ``win_fans`` (wins holding each fan). And
``walls``, ``games`` (walls x arrangements).

:func:`match_table` reports per policy its points a game with a paired 95 % interval
(over walls: each wall's points of the policy, all its seats and arrangements
together, is one observation, so the luck of the wall cancels), its win, self-drawn
and deal-in rates per game, and its claims.

Examples
--------
>>> from mjstats.studies.match import match, match_table
>>> agg = match(["efficiency", "random"], 20, seed=1, progress=False)
>>> t = match_table(agg)
>>> t["policy"].tolist(), int(agg["games"][0])
(['efficiency', 'random'], 80)
>>> bool(t.loc[0, "points"] > t.loc[1, "points"])
True
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import numba
import numpy as np
import pandas as pd

from mjstats.games import engine_context, game_rules, play_games
from mjstats.games import kernels as G
from mjstats.games.engine import GameOptionError, policy_label, seat_policies
from mjstats.games.stats import CLAIM_KINDS, DATASET_COUNTS, claim_counters, dataset_claim_counters
from mjstats.rulesets import Ruleset, get_ruleset
from mjstats.studies.aggregate import Aggregate
from mjstats.studies.play import _options_param, _PicklableRuleset
from mjstats.studies.runner import Study, chunked_weight, run_study, study_count, study_seed
from mjstats.studies.summaries import wilson_interval

__all__ = ["ROTATIONS", "MatchStudy", "arrangements", "match", "match_fan_table", "match_table"]

CHUNK = 250
"""Walls per chunk (does not change the numbers: each wall's seed is its own)."""

BLOCK = 2048
"""Walls played at a time within a chunk group (their move logs are counted and dropped)."""

ROTATIONS = ("1v3", "2v2", "cyclic", "all", "swap")
"""Ways to rotate the policies through the seats (see the module docstring)."""

_Z95 = 1.959963984540054


def arrangements(n_policies: int, n_seats: int = 4, rotation: str | None = None) -> list:
    """The seatings of a match: a list of tuples ``policy index per seat`` (seat 0 East).

    Examples
    --------
    >>> arrangements(2)
    [(0, 1, 1, 1), (1, 0, 1, 1), (1, 1, 0, 1), (1, 1, 1, 0)]
    >>> len(arrangements(2, rotation="2v2")), len(arrangements(4, rotation="all"))
    (6, 24)
    >>> arrangements(4)[1], arrangements(2, n_seats=2)
    ((3, 0, 1, 2), [(0, 1), (1, 0)])
    """
    fits = {2: ("swap",)} if n_seats == 2 else {2: ("1v3", "2v2"), 4: ("cyclic", "all")}
    if n_seats not in (2, 4) or n_policies not in fits:
        seats = "two" if n_seats == 2 else "four"
        need = "2" if n_seats == 2 else "2 or 4"
        raise GameOptionError(f"a match of {seats} seats takes {need} policies, not {n_policies}")
    rotation = fits[n_policies][0] if rotation is None else rotation
    if rotation not in fits[n_policies]:
        raise GameOptionError(
            f"rotation {rotation!r} does not seat {n_policies} policies at {n_seats}; "
            f"choose {' or '.join(repr(r) for r in fits[n_policies])}"
        )
    if rotation == "swap":
        return [(0, 1), (1, 0)]
    if rotation == "1v3":
        return [tuple(0 if s == k else 1 for s in range(4)) for k in range(4)]
    if rotation == "2v2":
        return [
            tuple(1 - (s in pair) for s in range(4)) for pair in itertools.combinations(range(4), 2)
        ]
    if rotation == "cyclic":
        return [tuple((s - r) % 4 for s in range(4)) for r in range(4)]
    return list(itertools.permutations(range(4)))


class MatchStudy(_PicklableRuleset, Study):
    """A duplicate match (see the module docstring).

    Parameters
    ----------
    policies : sequence
        Two or four policies: built-in names (:data:`mjstats.games.POLICIES`) or
        user pairs ``(own, answer)`` of numba functions
        (:func:`mjstats.games.play_games`); the same policy may come twice.
    n_walls : int
        Walls to play (each once per arrangement).
    seed : int
        Wall ``w`` is game ``w`` of this seed.
    rotation : str, optional
        One of :data:`ROTATIONS` that fits the policies and seats (default: ``"1v3"``
        for two policies at four seats, ``"cyclic"`` for four, ``"swap"`` at two).
    wall, ruleset, round_wind :
        As for :func:`mjstats.games.play_games`.
    chunk_size : int
        Walls per chunk.
    """

    kind = "match"
    work_counter = "walls"

    def __init__(
        self,
        policies: Sequence,
        n_walls: int,
        seed: int = 0,
        rotation: str | None = None,
        wall: str = "shared",
        ruleset: str | Ruleset = "mcr",
        round_wind: int = 0,
        chunk_size: int = CHUNK,
    ) -> None:
        self.ruleset = get_ruleset(ruleset)
        self.n_walls = study_count("n_walls", n_walls)
        self.seed = study_seed(seed)
        self.chunk_size = study_count("chunk_size", chunk_size)
        if self.chunk_size < 1:
            raise ValueError(f"chunk_size must be 1 or more, got {chunk_size}")
        if isinstance(policies, str) or not isinstance(policies, Sequence):
            raise GameOptionError(
                "a match takes a list of policies (two or four), e.g. ['fan-aware', 'efficiency']"
            )
        self.n_seats = len(game_rules(self.ruleset).seat_winds)
        self.players = seat_policies(list(policies), len(policies)) if policies else []
        self.seatings = arrangements(len(self.players), self.n_seats, rotation)
        self.rotation = (
            rotation
            or {(2, 4): "1v3", (4, 4): "cyclic", (2, 2): "swap"}[(len(self.players), self.n_seats)]
        )
        self.policy = [policy_label(p) for p in self.players]
        self.wall = wall
        self.round_wind = int(round_wind)
        for seating in self.seatings:  # the engine's own checks of every seating
            engine_context(self.ruleset, wall, self.round_wind, self._seat(seating))

    def _seat(self, seating) -> list:
        return [self.players[k] for k in seating]

    def params(self) -> dict[str, Any]:
        p = {
            "ruleset": self.ruleset.spec,
            "n_walls": self.n_walls,
            "seed": self.seed,
            "policy": list(self.policy),
            "rotation": self.rotation,
            "wall": self.wall,
            "round_wind": self.round_wind,
            "chunk_size": self.chunk_size,
        }
        options = _options_param(self.ruleset)
        if options:
            p["options"] = options
        return p

    def n_chunks(self) -> int:
        return -(-self.n_walls // self.chunk_size)

    def chunk_weight(self, first: int, count: int) -> int:
        return chunked_weight(self.n_walls, self.chunk_size, first, count)

    def progress_unit(self) -> str:
        return "walls"

    def run_chunks(self, first: int, count: int) -> Aggregate:
        lo = min(self.n_walls, first * self.chunk_size)
        n = self.chunk_weight(first, count)
        c = self._empty()
        for start in range(lo, lo + n, BLOCK):
            self._play(start, min(BLOCK, lo + n - start), c)
        return Aggregate(self.kind, self.params(), c)

    def _empty(self) -> dict[str, np.ndarray]:
        k, f = len(self.players), self.ruleset.n_fans
        z = np.zeros
        c = {
            "walls": z(1, np.int64),
            "games": z(1, np.int64),
            "seat_games": z(k, np.int64),
            "points_pos": z(k, np.int64),
            "points_neg": z(k, np.int64),
            "points_sq": z(k, np.int64),
            "wins": z((k, 3), np.int64),
            "deal_ins": z(k, np.int64),
            "claim_counts": z((3, k, len(CLAIM_KINDS)), np.int64),
            "win_fans": z((k, f), np.int64),
        }
        if self._dataset_counted():
            c["dataset_claims"] = z((k, len(DATASET_COUNTS)), np.int64)
        return c

    def _dataset_counted(self) -> bool:
        """Whether the games are the data set's kind (four seats, the Botzone wall), so
        their claims are also counted as its parser counts them."""
        return self.wall == "botzone" and self.n_seats == 4

    def _play(self, start: int, m: int, c: dict[str, np.ndarray]) -> None:
        """Play walls ``start .. start + m - 1`` in every seating; add to ``c``."""
        k = len(self.players)
        points = np.zeros((k, m), np.int64)  # each policy's points on each wall
        for seating in self.seatings:
            table, fans, final, logs = play_games(
                m, self.seed, ruleset=self.ruleset, wall=self.wall, policy=self._seat(seating),
                round_wind=self.round_wind, first=start, keep_log=True,
            )  # fmt: skip
            claims = claim_counters(final, logs, self.ruleset, self.wall, start)
            if self._dataset_counted():
                like_real = dataset_claim_counters(final, logs, by_seat=True)
            winner = table["winner"].to_numpy()
            kind = table["kind"].to_numpy()
            payer = table["from_seat"].to_numpy()
            present = (fans > 0).astype(np.int64)
            for seat, p in enumerate(seating):
                points[p] += table[f"score{seat}"].to_numpy()
                c["seat_games"][p] += m
                won = winner == seat
                c["wins"][p] += np.bincount(kind[won], minlength=3)[:3]
                c["deal_ins"][p] += int(((winner >= 0) & (kind != G.WIN_SELF_DRAWN)
                                         & (payer == seat)).sum())  # fmt: skip
                c["claim_counts"][:, p, :] += claims[:, seat, :]
                if self._dataset_counted():
                    c["dataset_claims"][p] += like_real[seat]
                c["win_fans"][p] += present[won].sum(axis=0)
        c["walls"][0] += m
        c["games"][0] += m * len(self.seatings)
        c["points_pos"] += np.maximum(points, 0).sum(axis=1)
        c["points_neg"] += np.maximum(-points, 0).sum(axis=1)
        c["points_sq"] += (points * points).sum(axis=1)


def match(
    policies: Sequence,
    n_walls: int,
    seed: int = 0,
    *,
    rotation: str | None = None,
    wall: str = "shared",
    ruleset: str | Ruleset = "mcr",
    round_wind: int = 0,
    chunk_size: int = CHUNK,
    threads: int | None = None,
    progress: bool | None = None,
    **run_options: Any,
) -> Aggregate:
    """Play a duplicate match: ``n_walls`` walls, each with the policies rotated through
    the seats (see the module docstring and :class:`MatchStudy`); returns its aggregate
    (:func:`match_table` reports it).

    ``threads``: numba threads for the run (default: as set). ``run_options`` go to
    :func:`~mjstats.studies.runner.run_study` (``dask=``, ``checkpoint=``,
    ``resume=``, ``group_size=``). Same seed, same numbers, whatever the threads,
    chunks, backend or resumes.

    Raises
    ------
    mjstats.games.GameOptionError
        Not 2 or 4 policies (2 in a two-seat ruleset), an unknown policy, wall or
        rotation.

    Examples
    --------
    >>> from mjstats.studies.match import match, match_table
    >>> agg = match(["fan-aware", "efficiency"], 10, seed=3, rotation="2v2", progress=False)
    >>> int(agg["games"][0]), match_table(agg)["seat_games"].tolist()
    (60, [120, 120])
    """
    study = MatchStudy(policies, n_walls, seed, rotation=rotation, wall=wall, ruleset=ruleset,
                       round_wind=round_wind, chunk_size=chunk_size)  # fmt: skip
    if threads is None:
        return run_study(study, progress=progress, **run_options)
    before = numba.get_num_threads()
    numba.set_num_threads(min(int(threads), numba.config.NUMBA_NUM_THREADS))
    try:
        return run_study(study, progress=progress, **run_options)
    finally:
        numba.set_num_threads(before)


def match_table(agg: Aggregate) -> pd.DataFrame:
    """Per policy of a match: ``player`` (A, B, ...), ``policy``, ``seat_games``,
    ``points`` (a game) with its paired 95 % interval ``points_ci_low`` /
    ``points_ci_high`` (over walls), ``win``, ``self_drawn``, ``deal_in`` (per game,
    with ``win_ci_low`` / ``win_ci_high``), ``claims`` (chows, pungs and kongs taken a
    game), and ``<kind>_rate`` (taken per legal chance) for each kind of claim; on the
    Botzone wall also ``<kind>_rate_data_set``, taken per chance counted as the real-play
    data set's parser counts them (like for like with real play's rates,
    :func:`mjstats.studies.realplay.real_play`; NaN on the shared wall).

    Examples
    --------
    >>> from mjstats.studies.match import match, match_table
    >>> t = match_table(match(["random", "random"], 10, seed=1, progress=False))
    >>> t[["points", "points_ci_low", "points_ci_high"]].abs().max().max()
    np.float64(0.0)
    """
    if agg.kind != "match":
        raise ValueError(f"a {agg.kind} aggregate is not a match")
    walls = int(agg["walls"][0])
    sg = agg["seat_games"].astype(float)
    per_wall = sg / max(walls, 1)  # seat-games of each policy on one wall
    s = (agg["points_pos"] - agg["points_neg"]).astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean_wall = s / walls
        var_wall = (agg["points_sq"] - s * mean_wall) / max(walls - 1, 1)
        half = _Z95 * np.sqrt(np.maximum(var_wall, 0) / walls) / per_wall
        points = mean_wall / per_wall
    wins = agg["wins"].sum(axis=1)
    lo, hi = wilson_interval(wins, sg)
    c = agg["claim_counts"]
    t = pd.DataFrame(
        {
            "player": [chr(ord("A") + i) for i in range(len(sg))],
            "policy": agg.params.get("policy"),
            "seat_games": agg["seat_games"],
            "points": points,
            "points_ci_low": points - half,
            "points_ci_high": points + half,
            "win": wins / sg,
            "win_ci_low": lo,
            "win_ci_high": hi,
            "self_drawn": agg["wins"][:, 1] / sg,
            "deal_in": agg["deal_ins"] / sg,
            "claims": c[2, :, :3].sum(axis=1) / sg,
        }
    )
    for k, name in enumerate(CLAIM_KINDS[:5]):
        with np.errstate(invalid="ignore", divide="ignore"):
            t[f"{name}_rate"] = np.where(c[0, :, k] > 0, c[2, :, k] / np.maximum(c[0, :, k], 1),
                                         np.nan)  # fmt: skip
    # on the Botzone wall, the same rates with the chances counted as the real-play data
    # set counts them (like for like with real play; NaN elsewhere, or in an older match)
    d = agg.counters.get("dataset_claims")
    for name in CLAIM_KINDS[:5]:
        rate = np.full(len(sg), np.nan)
        if d is not None:
            chances = d[:, DATASET_COUNTS.index(f"{name}_chances")]
            taken = d[:, DATASET_COUNTS.index(f"{name}s")]
            rate = np.where(chances > 0, taken / np.maximum(chances, 1), np.nan)
        t[f"{name}_rate_data_set"] = rate
    return t


def match_fan_table(agg: Aggregate) -> pd.DataFrame:
    """Fans of each policy's wins in a match: one row per fan any policy won with
    (``zh``, ``en``), one column per policy (``A fan-aware`` ...): its wins holding the
    fan per 100 games it played.

    Examples
    --------
    >>> from mjstats.studies.match import match, match_fan_table
    >>> t = match_fan_table(match(["efficiency", "random"], 20, seed=1, progress=False))
    >>> t.columns.tolist()[:3], bool((t.iloc[:, 2] > 0).any())
    (['zh', 'en', 'A efficiency'], True)
    """
    if agg.kind != "match":
        raise ValueError(f"a {agg.kind} aggregate is not a match")
    rs = get_ruleset(agg.params.get("ruleset", "mcr"))
    wins = agg["win_fans"]
    seen = np.flatnonzero(wins.sum(axis=0))
    t = pd.DataFrame({"zh": [rs.fans[f].zh for f in seen], "en": [rs.fans[f].en for f in seen]})
    for k, policy in enumerate(agg.params.get("policy") or []):
        games = max(int(agg["seat_games"][k]), 1)
        t[f"{chr(ord('A') + k)} {policy}"] = wins[k, seen] / games * 100
    return t
