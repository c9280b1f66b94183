"""``analyze``: expected values of the candidate discards of one hand, by Monte Carlo playouts.

For a hand of 14 tiles (a meld counts 3) every distinct concealed tile is a
candidate discard; a 13-tile hand is analysed as it stands. For each
candidate the table gives

* ``shanten`` after the discard (minimum over the ruleset's forms), the
  ``useful`` tiles (those that lower it) and their unseen copies ``outs``;
* by Monte Carlo (``n`` playouts of at most ``draws`` draws, with a policy
  choosing the later discards, see :mod:`mjstats.games.solitaire`):
  ``p_win`` = P(a legal win within ``draws`` draws), ``mean_fan`` = E[fan
  total | win] (flowers excluded), ``exp_points`` = E[points received] =
  P(win) x E[payment | win], where the payment of a self-drawn win is the
  ruleset's (MCR: 3 x (8 + fan), every opponent paying 8 + fan), and a
  playout without a win receives 0; standard errors ``p_win_se`` and
  ``exp_points_se``; ``mean_draw`` = E[draw of the win | win].

Rows are sorted by ``exp_points`` (then ``p_win``), best first.

The playouts: the wall is every tile the player has not seen (the ruleset's
tiles minus the hand, the melds and the ``visible`` tiles), shuffled; the
player draws alone (no claims, no other draws, so all wins are self-drawn).
This treats the unseen tiles as equally likely to come, which is what the
player knows. Win context: seat/round wind from the hand (default East), 和绝张
when the other three copies are visible, 妙手回春 only on the wall's very last
tile, or on the final draw with ``last_tile=True`` (use it when ``draws`` are
the draws left before the wall ends).

Reproducibility: playouts are split into chunks of ``chunk_size``; chunk
``c`` draws its walls from :func:`~mjstats.kernels.rng.chunk_states` ``(seed,
c)`` for *every* candidate, so all candidates face the same walls (common
random numbers: differences between rows are far more precise than the
standard errors of each row suggest). The result is the same for any number
of threads.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from mjstats.analysis.position import move_last_tile_to_plus
from mjstats.arguments import check_count
from mjstats.compiling import notice
from mjstats.errors import InvalidHandError, TileCountError
from mjstats.games import solitaire as K
from mjstats.games.discard_policies import CTX_FORMS, policy_context
from mjstats.hand import Hand, parse_hand
from mjstats.kernels.decompose import suit_table
from mjstats.kernels.rng import chunk_states
from mjstats.kernels.shanten import useful_one
from mjstats.kernels.tables import get_tables
from mjstats.rulesets import Ruleset, get_ruleset
from mjstats.studies.aggregate import Aggregate
from mjstats.studies.play import (
    _options_param,
    _PicklableRuleset,
    resolve_policy,
    wall_tiles,
)
from mjstats.studies.runner import Study, chunked_weight, run_study, study_seed
from mjstats.tiles import TILES, format_tiles, parse_tiles
from mjstats.validation import as_counts34

__all__ = ["AnalyzeStudy", "Position", "analysis_table", "analyze", "read_position"]

COLUMNS = [
    "discard",
    "shanten",
    "useful",
    "outs",
    "p_win",
    "p_win_se",
    "mean_fan",
    "exp_points",
    "exp_points_se",
    "mean_draw",
]
"""Columns of the table returned by :func:`analyze`, in order."""


@dataclass(frozen=True)
class Position:
    """A validated hand to analyse.

    Attributes
    ----------
    concealed : numpy.ndarray
        uint8 (34,) concealed tiles (3k+2: about to discard; 3k+1: waiting for a draw).
    melds : numpy.ndarray
        uint8 (4, 2) ``[kind, tile]`` rows, ``n_melds`` used.
    n_melds : int
    visible : numpy.ndarray
        uint8 (34,) other tiles the player has seen (discards, others' melds).
    seat_wind, round_wind : int
        0-3 = East, South, West, North.
    text : str
        Canonical hand text.
    """

    concealed: np.ndarray
    melds: np.ndarray
    n_melds: int
    visible: np.ndarray
    seat_wind: int
    round_wind: int
    text: str

    @property
    def drawn(self) -> bool:
        """True for a 3k+2 hand (choose a discard), False for a 3k+1 hand."""
        return int(self.concealed.sum()) + 3 * self.n_melds == 14

    def seen(self) -> np.ndarray:
        """int64 (34,): copies the player can see (hand, melds, visible)."""
        seen = self.concealed.astype(np.int64) + self.visible
        for kind, tile in self.melds[: self.n_melds]:
            if kind == 1:
                seen[tile : tile + 3] += 1
            else:
                seen[tile] += 3 if kind == 2 else 4
        return seen


def read_position(
    hand: Any,
    visible: Any = None,
    seat_wind: int | str | None = None,
    round_wind: int | str | None = None,
) -> Position:
    """Validate a hand for :func:`analyze`.

    Parameters
    ----------
    hand : str or Hand
        Hand text (see :func:`mjstats.parse_hand`) of 13 tiles, or of 14 tiles
        written with or without ``+`` before the last one (a meld counts 3):
        ``"123m456p789s11334z"``, ``"[555p]12345m789s11z+9s"``. Context
        keywords (``seat=S``, ``round=E``) set the winds.
    visible : str or array_like, optional
        Tiles seen outside the hand and its melds (discards, other players'
        melds), as tile text or (34,) counts.
    seat_wind, round_wind : int or str, optional
        Override the hand's winds.

    Raises
    ------
    InvalidHandError
        A malformed hand or visible tiles, or more than 4 copies of a kind in
        the hand, its melds and the visible tiles together.

    Examples
    --------
    >>> p = read_position("123m456p789s11334z", visible="4z")
    >>> p.drawn, p.text, int(p.seen()[30])
    (True, '123m456p789s1133z+4z', 2)
    """

    if isinstance(hand, Hand):
        h = hand
    elif isinstance(hand, str):
        try:
            h = parse_hand(hand)
        except TileCountError as exc:
            # a 14-tile hand may omit the '+': read its last concealed tile as the drawn one
            moved = move_last_tile_to_plus(hand) if "+" not in hand else None
            if moved is None:
                raise
            try:
                h = parse_hand(moved)
            except InvalidHandError:
                raise exc from None
    else:
        raise InvalidHandError(f"hand must be text or a Hand, got {type(hand).__name__}")
    if visible is None:
        vis = np.zeros(34, dtype=np.uint8)
    elif isinstance(visible, str):
        vis = parse_tiles(visible) if visible.strip() else np.zeros(34, dtype=np.uint8)
    else:
        vis = as_counts34(visible, name="visible")[0][0]
    melds = np.zeros((4, 2), dtype=np.uint8)
    for i, m in enumerate(h.melds):
        melds[i] = (int(m.kind), m.tile)
    pos = Position(
        concealed=np.array(h.concealed, dtype=np.uint8),
        melds=melds,
        n_melds=len(h.melds),
        visible=np.asarray(vis, dtype=np.uint8),
        seat_wind=h.seat_wind if seat_wind is None else _wind(seat_wind, "seat_wind"),
        round_wind=h.round_wind if round_wind is None else _wind(round_wind, "round_wind"),
        text=str(h).split(" ")[0],
    )
    over = np.flatnonzero(pos.seen() > 4)
    if len(over):
        names = ", ".join(TILES[t] for t in over)
        raise TileCountError(
            f"more than 4 copies of {names} in the hand, its melds and the visible tiles"
        )
    return pos


def _wind(value: int | str, name: str) -> int:
    h = Hand(parse_tiles("123456789m1234p"), **{name: value})
    return int(getattr(h, name))


class AnalyzeStudy(_PicklableRuleset, Study):
    """Monte Carlo playouts of every candidate discard of one hand (see :func:`analyze`)."""

    kind = "analyze"

    def __init__(
        self,
        position: Position,
        draws: int = 15,
        n: int = 20_000,
        seed: int = 1,
        policy: str | Callable = "efficiency",
        ruleset: str | Ruleset = "mcr",
        chunk_size: int = 250,
        last_tile: bool = False,
    ) -> None:
        self.position = position
        self.ruleset = get_ruleset(ruleset)
        self.policy_name, self.policy_id, self.policy_fn = resolve_policy(policy)

        for name, value in (("draws", draws), ("n", n), ("chunk_size", chunk_size)):
            check_count(name, value, low=1)
        self.draws, self.n, self.seed = int(draws), int(n), study_seed(seed)
        self.chunk_size, self.last_tile = int(chunk_size), bool(last_tile)
        outside = set(np.flatnonzero(position.seen())) - set(self.ruleset.tiles)
        if outside:
            raise InvalidHandError(
                f"ruleset {self.ruleset.name!r} does not use "
                f"{', '.join(TILES[t] for t in sorted(outside))}"
            )
        self.unseen = np.zeros(34, dtype=np.int64)
        self.unseen[list(self.ruleset.tiles)] = 4
        self.unseen -= position.seen()
        self.wall = wall_tiles(self.ruleset, position.seen())
        if len(self.wall) == 0:
            raise InvalidHandError("no unseen tiles are left to draw")
        if position.drawn:
            self.candidates = np.flatnonzero(position.concealed).astype(np.int64)
        else:
            self.candidates = np.array([-1], dtype=np.int64)
        self.ctx = policy_context(
            self.ruleset, self.policy_id, position.seat_wind, position.round_wind
        )

    def params(self) -> dict[str, Any]:
        p = {
            "ruleset": self.ruleset.spec,
            "hand": self.position.text,
            "visible": format_tiles(self.position.visible),
            "seat_wind": self.position.seat_wind,
            "round_wind": self.position.round_wind,
            "draws": self.draws,
            "n": self.n,
            "seed": self.seed,
            "policy": self.policy_name,
            "chunk_size": self.chunk_size,
            "last_tile": self.last_tile,
        }
        options = _options_param(self.ruleset)
        if options:
            p["options"] = options
        return p

    def n_chunks(self) -> int:
        return -(-self.n // self.chunk_size)

    def _sizes(self, first: int, count: int) -> np.ndarray:
        starts = np.arange(first, first + count, dtype=np.int64) * self.chunk_size
        return np.minimum(self.chunk_size, self.n - starts).astype(np.int64)

    def chunk_weight(self, first: int, count: int) -> int:
        return chunked_weight(self.n, self.chunk_size, first, count) * len(self.candidates)

    def progress_unit(self) -> str:
        return "playouts"

    def run_chunks(self, first: int, count: int) -> Aggregate:
        k = len(self.candidates)
        n_fans = self.ruleset.n_fans
        sums = np.zeros((count, k, K.A_SIZE), np.int64)
        win_draw = np.zeros((count, k, self.draws + 1), np.int64)
        fan_draw = np.zeros((count, k, 2, self.draws + 1), np.int64)  # not reported here
        fan_count = np.zeros((count, k, n_fans), np.int64)
        fan_hands = np.zeros((count, k, n_fans), np.int64)
        if count:
            pos = self.position
            args = (
                chunk_states(self.seed, first, count),
                self._sizes(first, count),
                pos.concealed,
                self.candidates,
                pos.melds,
                pos.n_melds,
                self.unseen,
                self.wall,
                self.draws,
                self.last_tile,
                self.ctx,
                get_tables(),
                suit_table(),
                n_fans,
                sums,
                win_draw,
                fan_draw,
                fan_count,
                fan_hands,
            )
            if self.policy_fn is None:
                K.analyze_jobs(*args)
            else:
                K.custom_kernel(K.analyze_jobs_custom, args, n_fans)(self.policy_fn, *args)
        s = sums.sum(axis=0)
        counters = {
            "playouts": s[:, K.A_PLAYOUTS],
            "wins": s[:, K.A_WINS],
            "fan_sum": s[:, K.A_FAN_SUM],
            "fan_sq": s[:, K.A_FAN_SQ],
            "draw_sum": s[:, K.A_DRAW_SUM],
            "passed": s[:, K.A_PASSED],
            "policy_errors": s[:, K.A_ERRORS],
            "win_draw": win_draw.sum(axis=0),
            "fan_count": fan_count.sum(axis=0),
            "fan_hands": fan_hands.sum(axis=0),
        }
        return Aggregate(self.kind, self.params(), counters)


@notice("analyze", progress_arg="progress")  # says so while the first call compiles
def analyze(
    hand: Any,
    draws: int = 15,
    n: int = 20_000,
    seed: int = 1,
    policy: str | Callable = "efficiency",
    visible: Any = None,
    ruleset: str | Ruleset = "mcr",
    *,
    last_tile: bool = False,
    seat_wind: int | str | None = None,
    round_wind: int | str | None = None,
    chunk_size: int = 250,
    progress: bool | None = None,
    **run_options: Any,
) -> pd.DataFrame:
    """Expected values of each candidate discard of a hand (see the module docstring).

    Parameters
    ----------
    hand : str or Hand
        13 or 14 tiles (a meld counts 3), e.g. ``"123m456p789s11334z"``; see
        :func:`read_position`.
    draws : int
        Draws per playout at most (the horizon ``k`` of P(win within k draws)).
    n : int
        Playouts per candidate.
    seed : int
        Random seed; the same seed gives the same table.
    policy : str or numba function
        Policy for the discards after the first (``"efficiency"``,
        ``"fan-aware"``, or a user policy, see :mod:`mjstats.studies.play`).
    visible : str or array_like, optional
        Tiles seen outside the hand (discards, other players' melds).
    ruleset : str or Ruleset
        Ruleset of the wall, forms, minimum and scorer.
    last_tile : bool
        The final draw is the last tile of the wall (妙手回春).
    seat_wind, round_wind : int or str, optional
        Override the winds of the hand text (default East).
    chunk_size : int
        Playouts per chunk (part of the random stream's definition).
    progress : bool, optional
        Progress bar (default: on interactive terminals).
    **run_options
        Passed to :func:`~mjstats.studies.runner.run_study` (``dask=``...). An
        analysis is not resumed: unless ``checkpoint=`` is given, Ctrl-C raises
        ``StudyInterrupted`` and leaves no checkpoint behind.

    Returns
    -------
    pandas.DataFrame
        One row per candidate, columns :data:`COLUMNS`, best first; the
        parameters are in ``.attrs["params"]``.

    Raises
    ------
    InvalidHandError
        A malformed hand or visible tiles.

    Examples
    --------
    >>> from mjstats.studies.analyze import analyze
    >>> t = analyze("123m456p789s11334z", draws=5, n=200, seed=1)
    >>> list(t.columns) == COLUMNS, len(t)  # one row per distinct tile
    (True, 12)
    >>> t.iloc[0]["discard"] in {"3z", "4z"}
    True
    """
    position = read_position(hand, visible, seat_wind, round_wind)
    study = AnalyzeStudy(
        position,
        draws=draws,
        n=n,
        seed=seed,
        policy=policy,
        ruleset=ruleset,
        chunk_size=chunk_size,
        last_tile=last_tile,
    )
    run_options.setdefault("save_interrupted", False)
    agg = run_study(study, progress=progress, **run_options)
    return analysis_table(agg)


def analysis_table(agg: Aggregate) -> pd.DataFrame:
    """The :func:`analyze` table of an ``analyze`` aggregate (e.g. one loaded from JSON).

    Examples
    --------
    >>> from mjstats.studies.analyze import AnalyzeStudy, analysis_table, read_position
    >>> from mjstats.studies.runner import run_study
    >>> agg = run_study(AnalyzeStudy(read_position("123m456p789s1133z"), draws=3, n=50))
    >>> row = analysis_table(agg).iloc[0]
    >>> row["discard"], int(row["shanten"]), row["useful"], int(row["outs"])
    ('-', 0, '13z', 4)
    """

    p = agg.params
    ruleset = get_ruleset(p["ruleset"], **p.get("options", {}))
    pos = read_position(p["hand"], p["visible"], p["seat_wind"], p["round_wind"])
    study = AnalyzeStudy(
        pos,
        draws=p["draws"],
        n=p["n"],
        seed=p["seed"],
        ruleset=ruleset,
        chunk_size=p["chunk_size"],
        last_tile=p["last_tile"],
    )
    forms = int(study.ctx[CTX_FORMS])
    tab = get_tables()
    rows = []
    n = agg["playouts"].astype(np.float64)
    wins = agg["wins"].astype(np.float64)
    fan_sum = agg["fan_sum"].astype(np.float64)
    fan_sq = agg["fan_sq"].astype(np.float64)
    opp, base = float(ruleset.opponents), float(ruleset.base_payment)
    pay_sum = opp * (base * wins + fan_sum)
    pay_sq = opp * opp * (base * base * wins + 2 * base * fan_sum + fan_sq)
    with np.errstate(invalid="ignore", divide="ignore"):
        p_win = wins / n
        p_se = np.sqrt(p_win * (1 - p_win) / n)
        mean_fan = np.where(wins > 0, fan_sum / wins, np.nan)
        exp_points = pay_sum / n
        var = np.maximum(pay_sq / n - exp_points**2, 0.0)
        exp_se = np.sqrt(var / n)
        mean_draw = np.where(wins > 0, agg["draw_sum"] / wins, np.nan)
    for i, cand in enumerate(study.candidates):
        counts = pos.concealed.copy()
        if cand >= 0:
            counts[cand] -= 1
        shanten, mask = useful_one(counts, pos.n_melds, forms, tab)
        useful = np.array([(int(mask) >> t) & 1 for t in range(34)], dtype=np.uint8)
        rows.append(
            {
                "discard": TILES[cand] if cand >= 0 else "-",
                "shanten": int(shanten),
                "useful": format_tiles(useful),
                "outs": int((useful * study.unseen).sum()),
                "p_win": p_win[i],
                "p_win_se": p_se[i],
                "mean_fan": mean_fan[i],
                "exp_points": exp_points[i],
                "exp_points_se": exp_se[i],
                "mean_draw": mean_draw[i],
            }
        )
    table = pd.DataFrame(rows, columns=COLUMNS)
    order = np.lexsort((np.arange(len(table)), -table["p_win"].to_numpy(), -exp_points))
    table = table.iloc[order].reset_index(drop=True)
    table.attrs["params"] = dict(p)
    return table
