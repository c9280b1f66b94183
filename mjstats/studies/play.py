"""``play``: how fast does one player reach a legal win, drawing alone from a shuffled wall?

Each game deals 13 tiles from the ruleset's wall (MCR: 136 tiles, four of each
of the 34 kinds; flowers are not used), then the player draws and discards by a
*policy* until the hand is a legal win (MCR: at least 8 fan, flowers excluded)
or ``draws`` draws have been made (default 21: one player's share of a
four-player wall). Nobody else plays (solitaire): no claims, so every win is
self-drawn and the hand stays concealed (不求人 scores 4 in MCR).

Win context: seat and round wind East (``seat_wind``/``round_wind`` change it);
和绝张 when the other three copies are among the player's discards; with
``last_tile=True`` the final draw is the last tile of the wall, so a win on it
scores 妙手回春 (8 fan: every complete hand is then legal). The default is
``False``: after 21 draws each the wall is exhausted, but its last tile goes
to only one of the four players, so counting 妙手回春 on every player's final
draw would inflate the wins on the last draw. No kongs are declared (a fourth
copy stays in the hand).

Policies (see :mod:`mjstats.games.discard_policies`): ``"efficiency"`` (fewest
shanten, then most unseen useful copies), ``"fan-aware"`` (steers toward a
target that reaches 8 fan), or your own numba function::

    from mjstats.kernels._jit import jit
    from mjstats.games.discard_policies import efficiency

    @jit
    def my_policy(counts, melds, n_melds, drawn, unseen, draws_left, ctx, tab, work):
        # discard the drawn tile once fewer than 3 draws are left, else be efficient
        if draws_left < 3:
            return drawn
        return efficiency(counts, melds, n_melds, drawn, unseen, draws_left, ctx, tab, work)

    agg = play(10_000, seed=1, policy=my_policy)

A user policy is any ``@jit`` function with the policy signature of
:mod:`mjstats.games.discard_policies` (define it at module level so it can be pickled
to Dask workers). The game kernels receive it as a function pointer, so they
are compiled once and cached on disk; a new process compiles only the policy
itself. For a policy you use often, make it a built-in instead (one function
and one branch in :func:`mjstats.games.discard_policies.builtin_policy`).

Results (:class:`~mjstats.studies.aggregate.Aggregate` counters): the fan
statistics of :mod:`mjstats.kernels.accumulate` with one "hand" per game and
the wins as the complete (and legal) hands, so :func:`mjstats.report.fan_table`
and friends describe the wins; plus ``win_draw`` (wins by draw number, index 0
unused), ``final_shanten`` (shanten of the final hand of games without a win,
index shanten + 1), and ``games``, ``wins``, ``passed`` (complete hands below
the minimum passed by), ``draws`` (draws made), ``policy_errors``.
:func:`win_curve` and :func:`play_summary` turn them into tables.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from mjstats.arguments import MAX_COUNT, check_count
from mjstats.games import solitaire as K
from mjstats.games.discard_policies import BUILTIN_POLICIES, policy_context
from mjstats.kernels.accumulate import chunk_counters, sum_counters
from mjstats.kernels.decompose import suit_table
from mjstats.kernels.rng import chunk_states
from mjstats.kernels.tables import get_tables
from mjstats.rulesets import Ruleset, get_ruleset
from mjstats.studies.aggregate import Aggregate
from mjstats.studies.runner import Study, chunked_weight, run_study, study_seed
from mjstats.studies.summaries import wilson_interval

__all__ = ["PlayStudy", "play", "play_summary", "win_curve"]

DEFAULT_DRAWS = 21


# ------------------------------------------------------------------ shared game setup
def resolve_policy(policy: str | Callable) -> tuple[str, int, Callable | None]:
    """``(name, built-in id, user function or None)`` for a ``policy`` argument.

    Built-ins are named (``"efficiency"``, ``"fan-aware"``; ``_`` and case are
    ignored). A user policy is a numba ``@jit`` function with the policy
    signature of :mod:`mjstats.games.discard_policies`; its name in study parameters
    is ``"custom:module.function"``.

    Examples
    --------
    >>> resolve_policy("fan_aware")[:2]
    ('fan-aware', 1)
    """

    if isinstance(policy, str):
        key = policy.lower().replace("_", "-")
        if key not in BUILTIN_POLICIES:
            raise ValueError(
                f"unknown policy {policy!r}; choose one of {', '.join(BUILTIN_POLICIES)} "
                "or pass a numba @jit policy function"
            )
        return key, BUILTIN_POLICIES[key], None
    if hasattr(policy, "py_func") and callable(policy):
        func = policy.py_func
        return f"custom:{func.__module__}.{func.__qualname__}", 0, policy
    raise TypeError(
        f"policy must be a name ({', '.join(BUILTIN_POLICIES)}) or a numba @jit function, "
        f"got {type(policy).__name__}"
    )


def wall_tiles(ruleset: Ruleset, remove: np.ndarray | None = None) -> np.ndarray:
    """The ruleset's wall as a sorted uint8 array of tile ids (four of each kind it plays
    with), minus the copies counted in ``remove`` (34,).

    Examples
    --------
    >>> from mjstats.rules import get_ruleset
    >>> len(wall_tiles(get_ruleset("mcr"))), wall_tiles(get_ruleset("mcr"))[:5].tolist()
    (136, [0, 0, 0, 0, 1])
    """
    counts = np.zeros(34, dtype=np.int64)
    counts[list(ruleset.tiles)] = 4
    if remove is not None:
        counts -= np.asarray(remove, dtype=np.int64)
    return np.repeat(np.arange(34, dtype=np.uint8), counts)


def _options_param(ruleset: Ruleset) -> dict[str, Any]:
    default = get_ruleset(ruleset.spec).options
    return {k: v for k, v in ruleset.options.items() if default.get(k) != v}


class _PicklableRuleset:
    """Pickle a study's ``ruleset`` attribute by name and options (a Ruleset holds a
    mappingproxy, which does not pickle), so studies can travel to Dask workers."""

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        rs = state.pop("ruleset")
        state["_ruleset_spec"] = (rs.spec, _options_param(rs))
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        name, options = state.pop("_ruleset_spec")
        self.__dict__.update(state)
        self.ruleset = get_ruleset(name, **options)


# ------------------------------------------------------------------ the study
class PlayStudy(_PicklableRuleset, Study):
    """Solitaire games with a policy (see the module docstring).

    Parameters
    ----------
    n_games : int
        Games to play.
    seed : int
        Study seed; chunk ``c`` plays from ``chunk_states(seed, c)``.
    policy : str or numba function
        ``"efficiency"``, ``"fan-aware"`` or a user policy.
    draws : int
        Draws per game at most (1..123 for MCR).
    ruleset : str or Ruleset
        Ruleset whose wall, forms, minimum and scorer are used.
    chunk_size : int
        Games per chunk (does not change the result for a given chunk size).
    last_tile : bool
        Whether the final draw is the last tile of the wall (妙手回春).
    seat_wind, round_wind : int
        0-3 = East, South, West, North.
    """

    kind = "play"
    work_counter = "games"
    default_n = 20_000
    count_param = "n_games"
    cli_options = ("policy", "draws", "last_tile")
    cli_policies = ("efficiency", "fan-aware")
    """The built-in discard policies the command line offers."""

    @classmethod
    def cli_params(cls, given: dict[str, Any]) -> dict[str, Any]:
        """One ``--policy``, a built-in one."""
        out = dict(given)
        if "policy" in given:
            names = list(given["policy"])
            if len(names) != 1:
                raise ValueError(f"play takes one --policy, not {len(names)}")
            if names[0] not in cls.cli_policies:
                raise ValueError(
                    f"play has no policy {names[0]!r}; choose one of {', '.join(cls.cli_policies)}"
                )
            out["policy"] = names[0]
        return out

    @classmethod
    def summary_json(cls, agg: Aggregate) -> dict[str, Any]:
        """The fan summary, :func:`play_summary` and P(win by draw t)."""
        out = super().summary_json(agg)
        out["play"] = play_summary(agg)
        out["p_win_by_draw"] = win_curve(agg)["p_win_by"].tolist()
        return out

    def __init__(
        self,
        n_games: int,
        seed: int,
        policy: str | Callable = "efficiency",
        draws: int = DEFAULT_DRAWS,
        ruleset: str | Ruleset = "mcr",
        chunk_size: int = 1000,
        last_tile: bool = False,
        seat_wind: int = 0,
        round_wind: int = 0,
    ) -> None:
        self.ruleset = get_ruleset(ruleset)
        self.policy_name, self.policy_id, self.policy_fn = resolve_policy(policy)
        wall = len(self.ruleset.tiles) * 4

        for name, value, lo, hi in (
            ("n_games", n_games, 0, MAX_COUNT),
            ("draws", draws, 1, wall - 13),
            ("chunk_size", chunk_size, 1, MAX_COUNT),
            ("seat_wind", seat_wind, 0, 3),
            ("round_wind", round_wind, 0, 3),
        ):
            check_count(name, value, low=lo, high=hi)
        self.n_games = int(n_games)
        self.seed = study_seed(seed)
        self.draws = int(draws)
        self.chunk_size = int(chunk_size)
        self.last_tile = bool(last_tile)
        self.seat_wind = int(seat_wind)
        self.round_wind = int(round_wind)
        self.ctx = policy_context(self.ruleset, self.policy_id, self.seat_wind, self.round_wind)

    def params(self) -> dict[str, Any]:
        p = {
            "ruleset": self.ruleset.spec,
            "n_games": self.n_games,
            "seed": self.seed,
            "policy": self.policy_name,
            "draws": self.draws,
            "chunk_size": self.chunk_size,
            "last_tile": self.last_tile,
            "seat_wind": self.seat_wind,
            "round_wind": self.round_wind,
        }
        options = _options_param(self.ruleset)
        if options:
            p["options"] = options
        return p

    def n_chunks(self) -> int:
        return -(-self.n_games // self.chunk_size)

    def _sizes(self, first: int, count: int) -> np.ndarray:
        starts = np.arange(first, first + count, dtype=np.int64) * self.chunk_size
        return np.minimum(self.chunk_size, self.n_games - starts).astype(np.int64)

    def chunk_weight(self, first: int, count: int) -> int:
        return chunked_weight(self.n_games, self.chunk_size, first, count)

    def progress_unit(self) -> str:
        return "games"

    def run_chunks(self, first: int, count: int) -> Aggregate:
        # deferred: rulesets may still be registered until the dispatch loads
        from mjstats.rulesets.dispatch import kernel_spec

        n_fans = self.ruleset.n_fans
        n_forms = kernel_spec(self.ruleset).n_forms
        fc = chunk_counters(count, n_fans, n_forms)
        win_draw = np.zeros((count, self.draws + 1), np.int64)
        extra = np.zeros((count, K.X_SIZE), np.int64)
        final = np.zeros((count, K.SHANTEN_BINS), np.int64)
        if count:
            args = (
                chunk_states(self.seed, first, count),
                self._sizes(first, count),
                wall_tiles(self.ruleset),
                self.draws,
                self.last_tile,
                self.ctx,
                get_tables(),
                suit_table(),
                n_fans,
                fc,
                win_draw,
                extra,
                final,
            )
            if self.policy_fn is None:
                K.play_chunks(*args)
            else:
                K.custom_kernel(K.play_chunks_custom, args, n_fans)(self.policy_fn, *args)
        counters = sum_counters(fc)
        x = extra.sum(axis=0)
        counters.update(
            {
                "win_draw": win_draw.sum(axis=0),
                "final_shanten": final.sum(axis=0),
                "games": x[K.X_GAMES : K.X_GAMES + 1],
                "wins": x[K.X_WINS : K.X_WINS + 1],
                "passed": x[K.X_PASSED : K.X_PASSED + 1],
                "draws": x[K.X_DRAWS : K.X_DRAWS + 1],
                "policy_errors": x[K.X_ERRORS : K.X_ERRORS + 1],
            }
        )
        return Aggregate(self.kind, self.params(), counters)


def play(
    n_games: int,
    seed: int,
    policy: str | Callable = "efficiency",
    draws: int = DEFAULT_DRAWS,
    ruleset: str | Ruleset = "mcr",
    *,
    chunk_size: int = 1000,
    last_tile: bool = False,
    seat_wind: int = 0,
    round_wind: int = 0,
    progress: bool | None = None,
    **run_options: Any,
) -> Aggregate:
    """Play ``n_games`` solitaire games with a policy; returns the merged aggregate.

    See the module docstring for the model and the counters, and
    :class:`PlayStudy` for the parameters. ``run_options`` go to
    :func:`~mjstats.studies.runner.run_study` (``dask=``, ``checkpoint=``,
    ``resume=``, ``group_size=``). Same seed, same numbers, whatever the
    threads, grouping or backend.

    Examples
    --------
    >>> from mjstats.studies.play import play, win_curve
    >>> agg = play(200, seed=1)
    >>> int(agg["games"][0]), int(agg["wins"][0]) == int(agg["win_draw"].sum())
    (200, True)
    >>> curve = win_curve(agg)
    >>> list(curve.columns)
    ['draw', 'wins', 'p_win_by', 'ci_low', 'ci_high']
    >>> bool(curve["p_win_by"].is_monotonic_increasing)
    True
    """
    study = PlayStudy(
        n_games,
        seed,
        policy=policy,
        draws=draws,
        ruleset=ruleset,
        chunk_size=chunk_size,
        last_tile=last_tile,
        seat_wind=seat_wind,
        round_wind=round_wind,
    )
    return run_study(study, progress=progress, **run_options)


def win_curve(agg: Aggregate) -> pd.DataFrame:
    """P(legal win by draw t) of a ``play`` aggregate, one row per draw.

    Columns: ``draw`` (1..draws), ``wins`` (games won on that draw),
    ``p_win_by`` (fraction of games won on or before it) and its 95 % Wilson
    interval ``ci_low``, ``ci_high``.

    Examples
    --------
    >>> from mjstats.studies.play import play, win_curve
    >>> win_curve(play(100, seed=2, draws=5))["draw"].tolist()
    [1, 2, 3, 4, 5]
    """

    hist = agg["win_draw"][1:].astype(np.int64)
    games = int(agg["games"][0])
    cum = np.cumsum(hist)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = cum / games if games else np.full(len(cum), np.nan)
    lo, hi = wilson_interval(cum, games)
    return pd.DataFrame(
        {
            "draw": np.arange(1, len(hist) + 1),
            "wins": hist,
            "p_win_by": p,
            "ci_low": lo,
            "ci_high": hi,
        }
    )


def play_summary(agg: Aggregate) -> dict[str, float]:
    """Headline numbers of a ``play`` aggregate.

    ``games``, ``wins``, ``p_win`` (legal wins per game), ``mean_fan`` (mean
    fan total of the wins, flowers excluded), ``mean_win_draw`` (mean draw of
    the wins), ``points_per_game`` (mean points received per game: the
    ruleset's payment of a self-drawn win, MCR 3 x (8 + fan), times P(win)),
    ``points_per_win`` (mean payment received per win),
    ``passed_per_game`` (complete hands below the minimum passed by).

    Examples
    --------
    >>> from mjstats.studies.play import play, play_summary
    >>> s = play_summary(play(100, seed=3))
    >>> s["games"], 0.0 <= s["p_win"] <= 1.0
    (100, True)
    """
    ruleset = get_ruleset(agg.params.get("ruleset", "mcr"), **agg.params.get("options", {}))
    games = int(agg["games"][0])
    wins = int(agg["wins"][0])
    hist = agg["base_hist"].astype(np.float64)
    totals = np.arange(len(hist), dtype=np.float64)
    fan_sum = float((hist * totals).sum())
    draw_hist = agg["win_draw"].astype(np.float64)
    pay = ruleset.payment(totals, True).astype(np.float64)
    nan = float("nan")
    return {
        "games": games,
        "wins": wins,
        "p_win": wins / games if games else nan,
        "mean_fan": fan_sum / wins if wins else nan,
        "mean_win_draw": float((draw_hist * np.arange(len(draw_hist))).sum()) / wins
        if wins
        else nan,
        "points_per_game": float((hist * pay).sum()) / games if games else nan,
        "points_per_win": float((hist * pay).sum()) / wins if wins else nan,
        "passed_per_game": int(agg["passed"][0]) / games if games else nan,
    }
