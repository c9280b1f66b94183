"""Exact win chances (mjstats.analysis.exact) against a naive brute force, and the
Monte Carlo curves against long simulations.

The brute force is a plain recursion over every draw sequence under the model of
``docs/analysis.md`` ("Win chances"), without memo: it uses only the shanten of a
whole hand (:func:`mjstats.kernels.shanten.shanten_one`) and the fan total of one
win by :func:`mjstats.score_batch` (cached per hand: the scorer, not the recursion).
"""

from __future__ import annotations

import math
import os

import numpy as np
import pytest

from mjstats.analysis import analyze, position, win_curves
from mjstats.analysis import exact as X
from mjstats.games.discard_policies import new_policy_work, policy_context
from mjstats.hand import Hand, Meld
from mjstats.kernels.decompose import suit_table
from mjstats.kernels.shanten import shanten_one
from mjstats.kernels.tables import get_tables
from mjstats.rulesets import get_ruleset
from mjstats.scorer import score_batch

SCALE = float(os.environ.get("MJSTATS_TEST_SCALE", "1"))
TAB = get_tables()
MCR = get_ruleset("mcr")
CTX = policy_context(MCR, 0)
WORK = new_policy_work(82, suit_table())


# ------------------------------------------------------------------ brute force
class Brute:
    """P(win within k) and E[points within k] by recursion over every draw sequence."""

    def __init__(self, h0, melds, unseen):
        self.h0 = h0.astype(np.int64)
        self.melds = melds  # list of (kind, tile)
        self.n_melds = len(melds)
        self.unseen = unseen.astype(np.int64)
        self.n = int(unseen.sum())
        self._sh: dict = {}
        self._win: dict = {}

    def shanten(self, h):
        key = h.tobytes()
        if key not in self._sh:
            self._sh[key] = int(shanten_one(h.astype(np.uint8), self.n_melds, 31, TAB))
        return self._sh[key]

    def win(self, h, w, last):
        """(legal, payment) of the self-drawn win of the 13-tile hand h on w."""
        key = (h.tobytes(), w, last)
        if key not in self._win:
            c = h.astype(np.uint8).copy()
            c[w] += 1
            hand = Hand(
                c,
                melds=tuple(Meld(k, t) for k, t in self.melds),
                win_tile=w,
                self_drawn=True,
                last_of_kind=last,
            )
            res = score_batch([hand])
            total = int(res.total[0])
            self._win[key] = (bool(res.legal[0]), 3.0 * (8 + total))
        return self._win[key]

    def value(self, k, points):
        def rec(h, j):
            if j == k:
                return 0.0
            d = self.n - j
            pool = self.unseen - np.maximum(0, h - self.h0)
            s = self.shanten(h)
            acc = 0.0
            stay = d
            for t in range(34):
                if pool[t] <= 0:
                    continue
                g = h.copy()
                g[t] += 1
                if s == 0:
                    if self.shanten(g) == -1:
                        legal, pay = self.win(h, t, int(pool[t]) + int(h[t]) == 1)
                        if legal:
                            acc += pool[t] * (pay if points else 1.0)
                            stay -= pool[t]
                elif self.shanten(g) < s:
                    best = None
                    for e in range(34):
                        if e == t or g[e] == 0:
                            continue
                        g[e] -= 1
                        if self.shanten(g) == s - 1:
                            v = rec(g.copy(), j + 1)
                            best = v if best is None else max(best, v)
                        g[e] += 1
                    acc += pool[t] * best
                    stay -= pool[t]
            return (acc + stay * rec(h, j + 1)) / d

        return rec(self.h0.copy(), 0)


# ------------------------------------------------------------------ positions
def _complete(rng):
    """A random regular complete hand: (concealed 14 - 3 x melds, melds list), biased
    to one suit (and honours) so that many waits reach 8 fan."""
    while True:
        style = rng.integers(0, 3)
        suit = rng.integers(0, 3)
        h = np.zeros(34, np.int64)
        sets = []
        for _ in range(4):
            if rng.random() < 0.5:
                s = suit if style < 2 else rng.integers(0, 3)
                low = 9 * s + rng.integers(0, 7)
                sets.append((1, low))
            else:
                if style == 1 and rng.random() < 0.4:
                    tile = 27 + rng.integers(0, 7)
                elif style < 2:
                    tile = 9 * suit + rng.integers(0, 9)
                else:
                    tile = rng.integers(0, 34)
                sets.append((2, tile))
        pair = 9 * suit + rng.integers(0, 9) if style < 2 else rng.integers(0, 34)
        for kind, tile in sets:
            if kind == 1:
                h[tile : tile + 3] += 1
            else:
                h[tile] += 3
        h[pair] += 2
        if h.max() > 4:
            continue
        melds = []
        if rng.random() < 0.3:
            kind, tile = sets[0]
            melds.append((int(kind), int(tile)))
            if kind == 1:
                h[tile : tile + 3] -= 1
            else:
                h[tile] -= 3
        return h, melds


def _positions(rng, n, want):
    """n (h13, melds, unseen, k) of shanten ``want`` (0 or 1) with 1-4 draws."""
    out = []
    while len(out) < n:
        h, melds = _complete(rng)
        held = np.flatnonzero(h)
        h[rng.choice(held)] -= 1  # 13 tiles: ready (or better)
        if want == 1:
            held = np.flatnonzero(h)
            u = rng.integers(0, 34)
            h[rng.choice(held)] -= 1
            h[u] += 1
            if h[u] > 4:
                continue
        vis = h.copy()
        for kind, tile in melds:
            if kind == 1:
                vis[tile : tile + 3] += 1
            else:
                vis[tile] += 3
        if vis.max() > 4:
            continue
        seen = np.zeros(34, np.int64)
        for t in rng.integers(0, 34, size=rng.integers(0, 40)):
            if vis[t] + seen[t] < 4:
                seen[t] += 1
        unseen = 4 - vis - seen
        h8 = h.astype(np.uint8)
        if int(shanten_one(h8, len(melds), 31, TAB)) != want:
            continue
        out.append((h8, melds, unseen, int(rng.integers(1, 5))))
    return out


def _kernel(h, melds, unseen, k):
    m = np.zeros((4, 2), np.uint8)
    for i, (kind, tile) in enumerate(melds):
        m[i] = (kind, tile)
    p, e = np.zeros(k), np.zeros(k)
    s = X.exact_curve_kernel(h, m, len(melds), unseen, k, CTX, TAB, WORK, 3.0, 8.0, p, e)
    return s, p, e


SIZES = [
    pytest.param(max(10, int(200 * SCALE)), id="ci"),
    pytest.param(2000, id="full", marks=pytest.mark.slow),
]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("shanten", [0, 1])
def test_exact_equals_brute_force(size, shanten):
    rng = np.random.default_rng(330 + shanten)
    n_size = size // 2
    positive = 0
    for h, melds, unseen, k in _positions(rng, n_size, shanten):
        before = h.copy()
        s, p, e = _kernel(h, melds, unseen, k)
        assert s == shanten and (h == before).all()
        brute = Brute(h, melds, unseen)
        for kk in range(1, k + 1):
            bp, be = brute.value(kk, False), brute.value(kk, True)
            assert abs(p[kk - 1] - bp) < 1e-9, (h, melds, kk)
            assert abs(e[kk - 1] - be) < 1e-9, (h, melds, kk)
        positive += p[-1] > 0
    assert positive > n_size // 4  # the test sees legal wins, not only zeros


def test_curves_grow_with_the_horizon_and_bound_points():
    rng = np.random.default_rng(5)
    for h, melds, unseen, _ in _positions(rng, 20, 1):
        s, p, e = _kernel(h, melds, unseen, 12)
        assert s == 1
        assert (np.diff(p) >= -1e-12).all() and (np.diff(e) >= -1e-12).all()
        assert (p >= 0).all() and (p <= 1).all()
        assert (e <= 3 * (8 + 400) * p + 1e-9).all()


def test_ready_hand_curve_is_closed_form():
    # ready on 1z (16 fan, 2 left) and 3z (13 fan, 2 left); 122 unseen, k draws
    c = win_curves("123m456p789s11334z", wall_left=5)
    row = c[c["option"] == "discard 4z"]
    miss = 1.0
    for k in range(1, 6):
        miss *= 1 - 4 / (122 - (k - 1))
        assert abs(row["p_win"].iloc[k - 1] - (1 - miss)) < 1e-12
    assert (row["method"] == "exact").all()


def test_table_columns_rank_and_method():
    t = analyze("1234m56p789s11334z", wall_left=10, playouts=200)
    assert {"p_win", "exp_points", "method"} <= set(t.columns)
    assert set(t["method"]) <= {"exact", "monte carlo"}
    assert (t.loc[t["shanten"] <= 1, "method"] == "exact").all()
    assert (t.loc[t["shanten"] >= 2, "method"] == "monte carlo").all()
    pts = t["exp_points"].to_numpy()
    assert (np.diff(pts) <= 1e-12).all()  # ranked by E[points]
    none = analyze("1234m56p789s11334z", wall_left=10, playouts=0)
    assert none.loc[none["shanten"] >= 2, "p_win"].isna().all()
    assert (none.loc[none["shanten"] >= 2, "method"] == "").all()
    # by default, a position with exact options runs no playouts; one without does
    auto = analyze("1234m56p789s11334z", wall_left=10)
    assert auto[["option", "p_win"]].equals(none[["option", "p_win"]])
    far = analyze("1259m56p789s11335z", wall_left=10)
    assert (far["method"] == "monte carlo").all() and (far["shanten"] >= 2).all()
    assert (np.diff(far["exp_points"].to_numpy()) <= 1e-12).all()


def test_win_option_is_certain():
    t = analyze("123m456p789s1133z", discard="1z", from_seat=2, wall_left=4)
    win = t[t["kind"] == "win"].iloc[0]
    assert win["p_win"] == 1.0 and win["method"] == "win"
    assert win["exp_points"] == MCR.payment(int(win["win_fans"]), False)


# ------------------------------------------------------------------ Monte Carlo
def _two_shanten(rng, n):
    out = []
    while len(out) < n:
        h, melds = _complete(rng)
        if melds:
            continue
        held = np.flatnonzero(h)
        h[rng.choice(held)] -= 1
        for _ in range(2):
            held = np.flatnonzero(h)
            h[rng.choice(held)] -= 1
            h[rng.integers(0, 34)] += 1
        if h.max() > 4:
            continue
        h8 = h.astype(np.uint8)
        if int(shanten_one(h8, 0, 31, TAB)) in (2, 3):
            out.append((h8, 4 - h.astype(np.int64)))
    return out


MC_SIZES = [
    pytest.param(max(2, int(6 * SCALE)), id="ci"),
    pytest.param(1000, id="full", marks=pytest.mark.slow),
]


@pytest.mark.parametrize("size", MC_SIZES)
def test_monte_carlo_agrees_with_long_runs(size):
    rng = np.random.default_rng(77)
    none = np.zeros((4, 2), np.uint8)
    outside = 0
    for i, (h, unseen) in enumerate(_two_shanten(rng, size)):
        (short,) = X.mc_curves(h, [-1], none, 0, unseen, 12, CTX, TAB, MCR, 400, 1000 + i)
        (long,) = X.mc_curves(h, [-1], none, 0, unseen, 12, CTX, TAB, MCR, 8000, 5000 + i)
        # the horizon k = 6 of a 12-draw run against the end of 6-draw runs (the
        # efficiency policy's play does not depend on the draws left)
        (six,) = X.mc_curves(h, [-1], none, 0, unseen, 6, CTX, TAB, MCR, 400, 3000 + i)
        assert short.method == "monte carlo" and short.shanten in (2, 3)
        assert (np.diff(long.exp_points) >= 0).all() and (np.diff(long.p_win) >= 0).all()
        for a, b, sa, sb in (
            (short.p_win[-1], long.p_win[-1], short.p_win_se[-1], long.p_win_se[-1]),
            (short.exp_points[-1], long.exp_points[-1], short.exp_points_se[-1],
             long.exp_points_se[-1]),
            (six.exp_points[-1], long.exp_points[5], six.exp_points_se[-1],
             long.exp_points_se[5]),
        ):  # fmt: skip
            sigma = math.hypot(sa, sb)
            if sigma == 0:
                assert a == b == 0
            elif abs(a - b) > 3 * sigma:
                outside += 1
    # 3 x size comparisons: a 3-sigma miss has probability ~0.3 % each
    assert outside <= max(1, size // 30)


def test_position_api_matches_kernel():
    pos = position("1234m56p789s11334z", wall_left=6)
    c = win_curves(pos, playouts=0)
    t = analyze(pos, playouts=0)
    for opt, grp in c.groupby("option"):
        row = t[t["option"] == opt].iloc[0]
        last = grp.iloc[-1]
        if row["method"] == "exact":
            assert last["p_win"] == row["p_win"] and last["exp_points"] == row["exp_points"]


def test_docs_examples_run():
    import doctest
    from pathlib import Path

    doc = Path(__file__).resolve().parents[1] / "docs" / "analysis.md"
    result = doctest.testfile(str(doc), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 4 and result.failed == 0
