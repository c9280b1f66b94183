"""Review: every decision of every seat rated with the analysis, the taken option
against the best.

:func:`rate_options` gives each legal option of each decision its E[points] by
:func:`mjstats.analysis.table.option_curves` (the analysis of ``mjstats analyze``:
exact for the hands of shanten <= 1, Monte Carlo beyond); :func:`review` ranks the
options, compares the taken one with the best and sums it up per seat and game and
over the set. The HTML report, each listed decision linked to its step in the replay
viewer, is :func:`mjstats.review_report.review_html`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from mjstats.analysis.position import position_from_counts
from mjstats.analysis.table import option_curves
from mjstats.arguments import check_count, check_seed
from mjstats.compiling import progress_wanted
from mjstats.decisions import kernel as K
from mjstats.decisions.table import ACTION_KINDS, DecisionSet, decision_set
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
from mjstats.studies.runner import _Progress
from mjstats.tiles import TILES

__all__ = ["REVIEW_PLAYOUTS", "Ratings", "rate_options", "review"]

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
                 progress: bool | None = None) -> Ratings:  # fmt: skip
    """E[points] of every legal option of every decision with a choice.

    Each decision's position (the seat's view: its hand and melds, the copies it
    cannot see, its draws still to come, the discard it answers) goes to
    :func:`mjstats.analysis.table.option_curves`: the option's expected points
    over the seat's draws left (its wall segment on Botzone's wall, else its
    share of the wall), solitaire (no claims, every win self-drawn), exact when
    the hand it leaves has shanten <= 1, else ``playouts`` Monte Carlo playouts
    (their seed made from ``seed``, the game and the step, so a decision's values
    do not depend on what else is reviewed). A legal win is worth its payment,
    its fan total as the engine settles it (``win_fan`` of the decisions: 海底捞月,
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
    playouts = check_count("playouts", playouts)
    seed = check_seed(seed)
    shape = (len(ds), G.MAX_ACTIONS)
    value, se = np.full(shape, np.nan), np.full(shape, np.nan)
    win = np.zeros(shape, bool)
    method = np.full(shape, "", object)
    hand = np.full(len(ds), "", object)
    n_seats = len(ds.seat_winds)
    choice = np.flatnonzero(ds.rows[:, K.C_NLEGAL] > 1)
    with _Progress(len(choice), "decisions", progress_wanted(progress)) as bar:
        for i in choice:
            r = ds.rows[i]
            pos = _position(ds, i, n_seats)
            hand[i] = pos.text
            opts = {}
            # one seed per (game, step): the same values whatever is reviewed beside it
            own_seed = int((seed * 1_000_003 + r[K.C_GAME] * 4_099 + r[K.C_STEP]) % (2**31))
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
                win[i, j] = c.method == "win"
                method[i, j] = c.method
            bar.advance(1)
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

    Examples
    --------
    >>> from mjstats.records.check import _DEMO_GAME
    >>> r = review(_DEMO_GAME)
    >>> r["decisions"][["seat", "taken", "best", "rank", "gap"]].values.tolist()
    [[0, 'discard 9s', 'discard 9s', 1, 0.0], [1, 'hu 9s', 'hu 9s', 1, 0.0]]
    """
    ds = decision_set(source, ruleset, skip_bad=skip_bad)
    rated = rate_options(ds, playouts=playouts, seed=seed, progress=progress)
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
    t["bad"] = t["gap"] > threshold

    def summary(df):
        return pd.Series({"decisions": len(df), "agreement": (df["rank"] == 1).mean(),
                          "mean_gap": df["gap"].mean(), "bad_share": df["bad"].mean()})  # fmt: skip

    seats = t.groupby(["game", "seat"], sort=False).apply(summary, include_groups=False)
    seats = seats.reset_index()
    order = {gid: k for k, gid in enumerate(dict.fromkeys(t["game"]))}
    seats["_order"] = seats["game"].map(order)
    seats = seats.sort_values(["_order", "seat"]).drop(columns="_order").reset_index(drop=True)
    seats["decisions"] = seats["decisions"].astype(int)
    by_seat = t.groupby("player").apply(summary, include_groups=False).reset_index()
    by_seat["decisions"] = by_seat["decisions"].astype(int)
    overall = summary(t).to_frame().T
    overall["decisions"] = overall["decisions"].astype(int)
    worst_t = t.sort_values(["gap", "game", "step"], ascending=[False, True, True]).head(worst)
    return {"decisions": t.drop(columns="bad"), "seats": seats, "players": by_seat,
            "overall": overall,
            "worst": worst_t.drop(columns="bad").reset_index(drop=True)}  # fmt: skip
