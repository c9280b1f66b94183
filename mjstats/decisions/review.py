"""Review: every decision of every seat rated, the taken option against the best.

:func:`rate_options` gives each legal option of each decision a value (the one place
to replace when the analysis of issue 33 gives E[points]); :func:`review` ranks the
options, compares the taken one with the best and sums it up per seat and game and
over the set. The HTML report, each listed decision linked to its step in the replay
viewer, is :func:`mjstats.review_report.review_html`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mjstats.decisions import kernel as K
from mjstats.decisions import rate_kernel as RK
from mjstats.decisions.table import ACTION_KINDS, DecisionSet, decision_set
from mjstats.games import kernels as G
from mjstats.games.discard_policies import CTX_SIZE, policy_context
from mjstats.games.engine import engine_context
from mjstats.kernels.tables import get_tables
from mjstats.tiles import TILES

__all__ = ["rate_options", "review"]


def rate_options(ds: DecisionSet) -> np.ndarray:
    """A value for every legal option of every decision: float64 (n, MAX_ACTIONS),
    ``values[i, j]`` that of ``ds.legal[i, j]``, NaN past the legal ones.

    **A stand-in for E[points].** Issue 33's analysis (being built in
    ``mjstats/analysis/``) will give each option its expected points; until then an
    option is valued by the hand it leaves, with the evaluations the built-in
    policies use (:mod:`mjstats.games.discard_policies`): a win is worth 1; any other
    option ``-shanten + copies / 100`` of the waiting hand it leaves (after a pung or
    chow, of its best discard), ``copies`` (at most 99) being, for a ready hand, the
    unseen copies that complete a *legal* win (:func:`~mjstats.games.discard_policies.legal_outs`,
    the minimum fans counted) and otherwise the unseen copies of the tiles that lower
    its shanten. So a gap of 1 is a step of shanten (or a win passed up); fans beyond
    legality, safety and the other seats are not valued.

    Examples
    --------
    >>> from mjstats.records.check import _DEMO_GAME
    >>> from mjstats.decisions import record_decisions
    >>> v = rate_options(record_decisions(_DEMO_GAME))
    >>> v[1, :2].tolist()  # seat 1 on the dealer's discard: pass (ready), or win
    [0.03, 1.0]
    """
    rs = ds.ruleset
    _, _, tab, suits = engine_context(rs, ds.wall, 0, "random")
    ctxs = np.zeros((4, 4, CTX_SIZE), np.int64)
    for r in range(4):
        for w in range(4):
            ctxs[r, w] = policy_context(rs, 0, w, r)
    winds = np.zeros(4, np.int64)
    winds[: len(ds.seat_winds)] = ds.seat_winds
    out = np.full((len(ds), G.MAX_ACTIONS), np.nan)
    if len(ds):
        RK.rate_decisions(ds.rows, ds.legal, ds.seen, winds, ctxs, get_tables(), suits,
                          np.int64(rs.n_fans), out)  # fmt: skip
    del tab
    return out


def _name(a: int) -> str:
    kind, t = int(a) >> 6, int(a) & 63
    return ACTION_KINDS[kind] if kind == G.A_PASS else f"{ACTION_KINDS[kind]} {TILES[t]}"


def review(source, ruleset=None, *, threshold: float = 0.5, worst: int = 20,
           skip_bad: bool = False) -> dict[str, pd.DataFrame]:  # fmt: skip
    """Rate every decision of every seat of ``source`` (records or played games, as
    :func:`mjstats.decisions.decisions` takes them) with :func:`rate_options`.

    Returns
    -------
    dict of pandas.DataFrame
        ``decisions``: one row per decision with a choice (more than one legal
        action): ``game``, ``seat``, ``player`` (the bot's name when a JSON log gives
        it, else ``seat N``), ``step`` (of the replay viewer), ``kind``, ``n_legal``,
        ``taken``, ``best`` (action names), ``rank`` (1: the taken option is the best, ties shared),
        ``value``, ``best_value``, ``gap``; ``seats``: per game and seat the
        decisions, ``agreement`` (share with rank 1), ``mean_gap``, ``bad_share``
        (share with a gap above ``threshold``); ``players``: the same per seat (player)
        over the set; ``overall``: over all decisions;
        ``worst``: the ``worst`` decisions of largest gap.

    Examples
    --------
    >>> from mjstats.records.check import _DEMO_GAME
    >>> r = review(_DEMO_GAME)
    >>> r["decisions"][["seat", "taken", "best", "rank"]].values.tolist()
    [[0, 'discard 9s', 'discard 9s', 1], [1, 'hu 9s', 'hu 9s', 1]]
    """
    ds = decision_set(source, ruleset, skip_bad=skip_bad)
    values = rate_options(ds)
    r = ds.rows
    choice = np.flatnonzero(r[:, K.C_NLEGAL] > 1)
    v = values[choice]
    best_j = np.nanargmax(v, axis=1)
    best = v[np.arange(len(choice)), best_j]
    taken = v[np.arange(len(choice)), r[choice, K.C_INDEX]]
    rank = 1 + (v > taken[:, None] + 1e-9).sum(axis=1)
    g = r[choice, K.C_GAME]
    t = pd.DataFrame({
        "game": np.asarray(ds.ids, object)[g] if len(choice) else [],
        "seat": r[choice, K.C_SEAT],
        "step": r[choice, K.C_STEP],
        "kind": np.asarray(K.KIND_NAMES, object)[r[choice, K.C_KIND]],
        "n_legal": r[choice, K.C_NLEGAL],
        "taken": [_name(a) for a in r[choice, K.C_TAKEN]],
        "best": [_name(ds.legal[i, j]) for i, j in zip(choice, best_j, strict=True)],
        "rank": rank,
        "value": np.round(taken, 4),
        "best_value": np.round(best, 4),
        "gap": np.round(best - taken, 4),
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
