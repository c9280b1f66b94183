"""P(legal win within k draws) and E[points] of a 13-tile hand: exact for shanten <= 1,
Monte Carlo beyond (``docs/analysis.md``, "Win chances").

The exact model (the one of the riichi calculators: mahjong-cpp's
``ExpectedValueCalculator``, Mortal's ``sp``): solitaire, no claims, every win
self-drawn. The option leaves the 13-tile hand ``h0`` (melds fixed), the
unseen copies ``u`` (34) and ``k_max`` draws (the position's ``wall_left``);
``N = sum(u)``. At draw ``j`` (0-based) the player holds ``h`` and draws kind
``t`` with probability ``r[t] / (N - j)``, where ``r[t] = u[t] - max(0, h[t] -
h0[t])`` (the copies of ``t`` drawn and kept are gone from the pool; tiles
drawn and thrown away at once are not tracked: the pool shrinks by one a draw).
The hand changes only on an *improving* draw:

* shanten ``s = 1``: a draw ``t`` after which the shanten is 0 (over every
  form the ruleset counts); the player then discards the tile ``e != t`` of
  ``h + t`` that leaves a ready hand of the highest value (the value being
  optimised: P(win) and E[points] are two separate optimisations);
* ``s = 0``: a draw that completes a *legal* self-drawn win (the ruleset's
  minimum without flowers; 和绝张 when ``r[w] + h[w] == 1``, i.e. the other three
  copies are out of the pool; no 妙手回春, no kongs) ends the game with it;
  a ready hand whose completions are all below the minimum never wins.

Every other draw is thrown away at once (摸切). With ``V(h, j)`` the value of
holding ``h`` before draw ``j`` and ``V(h, k) = 0``,

``V(h, j) = sum_t p_t(j) * best_e V(h + t - e, j + 1) + (1 - sum_t p_t(j)) * V(h, j + 1)``,

a win being worth 1 (P) or its payment (E: the ruleset's self-drawn payment,
MCR ``3 x (8 + fan)``). The hands form a DAG by shanten (the 1-shanten hand
``h0``, the ready hands ``h0 + t - e``, distinct for distinct ``(t, e)``), so
:func:`exact_curve` runs the recursion backwards over ``j`` on arrays, once per
horizon ``k = 1 .. k_max`` (the best discard depends on the horizon).

Shanten 2 or more: :func:`mc_curves` plays the hand out with the solitaire
playouts of :func:`mjstats.games.solitaire.analyze_jobs` (the wall: every
unseen tile, shuffled, drawn without replacement; the efficiency policy
discards), with standard errors.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mjstats.games import solitaire as S
from mjstats.games.discard_policies import CTX_FORMS, score_win
from mjstats.kernels._jit import jit
from mjstats.kernels.decompose import suit_table
from mjstats.kernels.rng import chunk_states
from mjstats.kernels.shanten import useful_one

__all__ = ["MAX_READY", "Curve", "exact_curve", "exact_curve_kernel", "mc_curves"]

MAX_READY = 34 * 14
"""Ready hands one 1-shanten hand can reach in one draw and one discard, at most."""

CHUNK = 50  # playouts per chunk of the Monte Carlo curves


@jit
def _ready_value(counts, melds, pool, ctx, work, waits, opp, base):
    """``(sum r[w], sum r[w] * payment(w))`` over the legal self-drawn wins ``w`` of the
    ready 13-tile hand ``counts`` (``pool`` = r, the drawable copies)."""
    copies = 0.0
    points = 0.0
    for w in range(34):
        if not (waits >> w) & 1 or pool[w] <= 0:
            continue
        last = pool[w] + np.int64(counts[w]) == 1
        counts[w] += 1
        total, _, legal = score_win(ctx, counts, melds, w, last, False, work)
        counts[w] -= 1
        if legal:
            copies += pool[w]
            points += pool[w] * opp * (base + total)
    return copies, points


@jit
def exact_curve_kernel(counts, melds, n_melds, unseen, k_max, ctx, tab, work, opp, base, p, e):
    """The exact curves of the 13-tile hand ``counts`` (uint8 (34,), restored) under the
    module's model: ``p[k - 1]`` = P(legal win within k draws), ``e[k - 1]`` =
    E[points within k draws] for ``k = 1 .. k_max`` (float64 arrays of ``k_max``),
    each with its own best discards. ``unseen`` int64 (34,); ``opp`` and ``base`` the
    ruleset's opponents and base payment. Returns the shanten of ``counts``; for
    shanten 2 or more ``p`` and ``e`` are left at 0 (not computed).

    Examples
    --------
    >>> import numpy as np
    >>> from mjstats.games.discard_policies import new_policy_work, policy_context
    >>> from mjstats.kernels.decompose import suit_table
    >>> from mjstats.kernels.tables import get_tables
    >>> from mjstats.rulesets import get_ruleset
    >>> from mjstats.tiles import parse_tiles
    >>> ctx, work = policy_context(get_ruleset("mcr"), 0), new_policy_work(82, suit_table())
    >>> h = parse_tiles("123m456p789s1133z")  # ready on 1z (16 fan) and 3z (13 fan)
    >>> p, e = np.zeros(2), np.zeros(2)
    >>> unseen = 4 - h.astype(np.int64)
    >>> exact_curve_kernel(h, np.zeros((4, 2), np.uint8), 0, unseen, 2, ctx, get_tables(),
    ...                    work, 3, 8, p, e)
    0
    >>> round(float(p[0]), 6) == round(4 / 123, 6)  # 2 + 2 copies of 123 unseen tiles
    True
    """
    forms = ctx[CTX_FORMS]
    for k in range(k_max):
        p[k] = 0.0
        e[k] = 0.0
    s, useful = useful_one(counts, n_melds, forms, tab)
    if s > 1 or k_max <= 0:
        return s
    n_total = 0
    for t in range(34):
        n_total += unseen[t]
    wc = np.zeros(MAX_READY, np.float64)
    pc = np.zeros(MAX_READY, np.float64)
    first = np.zeros(35, np.int64)  # ready hands of draw t: first[t] .. first[t + 1] - 1
    pool = unseen.copy()
    n_ready = 0
    if s == 0:
        wc[0], pc[0] = _ready_value(counts, melds, pool, ctx, work, useful, opp, base)
        n_ready = 1
    else:
        for t in range(34):
            first[t] = n_ready
            if not (useful >> t) & 1 or unseen[t] <= 0:
                continue
            counts[t] += 1
            pool[t] -= 1
            for d in range(34):
                if counts[d] == 0 or d == t:
                    continue
                counts[d] -= 1
                sh, waits = useful_one(counts, n_melds, forms, tab)
                if sh == 0:
                    wc[n_ready], pc[n_ready] = _ready_value(
                        counts, melds, pool, ctx, work, waits, opp, base
                    )
                    n_ready += 1
                counts[d] += 1
            pool[t] += 1
            counts[t] -= 1
        first[34] = n_ready
    v0 = np.zeros(n_ready, np.float64)  # P of each ready hand
    x0 = np.zeros(n_ready, np.float64)  # E of each ready hand
    for k in range(1, k_max + 1):
        v0[:] = 0.0
        x0[:] = 0.0
        v1 = 0.0
        x1 = 0.0
        for j in range(k - 1, -1, -1):
            d = float(n_total - j)
            if s == 1:
                acc_p = 0.0
                acc_e = 0.0
                improving = 0.0
                for t in range(34):
                    lo, hi = first[t], first[t + 1]
                    if hi <= lo:
                        continue
                    bp = v0[lo]
                    be = x0[lo]
                    for i in range(lo + 1, hi):
                        bp = max(bp, v0[i])
                        be = max(be, x0[i])
                    acc_p += unseen[t] * bp
                    acc_e += unseen[t] * be
                    improving += unseen[t]
                v1 = (acc_p + (d - improving) * v1) / d
                x1 = (acc_e + (d - improving) * x1) / d
            for i in range(n_ready):
                v0[i] = (wc[i] + (d - wc[i]) * v0[i]) / d
                x0[i] = (pc[i] + (d - wc[i]) * x0[i]) / d
        if s == 1:
            p[k - 1] = v1
            e[k - 1] = x1
        else:
            p[k - 1] = v0[0]
            e[k - 1] = x0[0]
    return s


@dataclass(frozen=True)
class Curve:
    """P(legal win within k draws) and E[points] for ``k = 1 .. k_max`` of one hand.

    Attributes
    ----------
    method : str
        ``"exact"`` (shanten <= 1) or ``"monte carlo"``.
    p_win, exp_points : numpy.ndarray
        float64 (k_max,): index ``k - 1`` for the horizon of ``k`` draws (Monte
        Carlo: the wins within ``k`` draws of playouts that play for the full
        horizon; exact: the best play for each horizon).
    p_win_se, exp_points_se : numpy.ndarray
        Standard errors (0 when exact; NaN where not estimated).
    shanten : int
    """

    method: str
    p_win: np.ndarray
    exp_points: np.ndarray
    p_win_se: np.ndarray
    exp_points_se: np.ndarray
    shanten: int


def exact_curve(counts, melds, n_melds, unseen, k_max, ctx, tab, work, ruleset) -> Curve | None:
    """:func:`exact_curve_kernel` as a :class:`Curve`; None for shanten 2 or more.

    Examples
    --------
    >>> import numpy as np
    >>> from mjstats.games.discard_policies import new_policy_work, policy_context
    >>> from mjstats.kernels.tables import get_tables
    >>> from mjstats.rulesets import get_ruleset
    >>> from mjstats.tiles import parse_tiles
    >>> mcr = get_ruleset("mcr")
    >>> ctx, work = policy_context(mcr, 0), new_policy_work(82, suit_table())
    >>> h = parse_tiles("123m456p789s1133z")
    >>> c = exact_curve(h, np.zeros((4, 2), np.uint8), 0, 4 - h.astype(np.int64), 3, ctx,
    ...                 get_tables(), work, mcr)
    >>> c.method, len(c.p_win), bool(c.p_win[2] > c.p_win[0])
    ('exact', 3, True)
    """
    k_max = int(k_max)
    p = np.zeros(k_max)
    e = np.zeros(k_max)
    s = exact_curve_kernel(
        counts, melds, n_melds, unseen, k_max, ctx, tab, work,
        float(ruleset.opponents), float(ruleset.base_payment), p, e,
    )  # fmt: skip
    if s > 1:
        return None
    zero = np.zeros(k_max)
    return Curve("exact", p, e, zero, zero.copy(), int(s))


def mc_curves(
    counts, cands, melds, n_melds, unseen, k_max, ctx, tab, ruleset, playouts, seed
) -> list[Curve]:
    """Monte Carlo curves of the hands ``counts - cands[i]`` (``cands[i] = -1``:
    ``counts`` itself, 13 tiles) by ``playouts`` solitaire playouts of at most
    ``k_max`` draws each (:func:`mjstats.games.solitaire.analyze_jobs`, the policy
    of ``ctx``). All candidates face the same walls (common random numbers: their
    differences are more precise than each standard error says); chunk ``c`` of 50
    playouts draws its walls from :func:`~mjstats.kernels.rng.chunk_states`
    ``(seed, c)``. ``playouts = 0`` gives NaN curves with method ``""``.

    Examples
    --------
    >>> import numpy as np
    >>> from mjstats.games.discard_policies import policy_context
    >>> from mjstats.kernels.tables import get_tables
    >>> from mjstats.rulesets import get_ruleset
    >>> from mjstats.tiles import parse_tiles
    >>> mcr = get_ruleset("mcr")
    >>> h = parse_tiles("1259m56p789s1133z")
    >>> (c,) = mc_curves(h, [-1], np.zeros((4, 2), np.uint8), 0, 4 - h.astype(np.int64), 5,
    ...                  policy_context(mcr, 0), get_tables(), mcr, 200, 1)
    >>> c.method, c.shanten, bool(0 <= c.p_win[-1] <= 1), bool((np.diff(c.exp_points) >= 0).all())
    ('monte carlo', 2, True, True)
    """
    k_max = int(k_max)
    cands = np.asarray(cands, np.int64)
    counts = np.asarray(counts, np.uint8)
    forms = int(ctx[CTX_FORMS])
    shanten = []
    for c in cands:
        h = counts.copy()
        if c >= 0:
            h[c] -= 1
        shanten.append(int(useful_one(h, n_melds, forms, tab)[0]))
    n = int(playouts)
    if n <= 0 or k_max <= 0 or not len(cands):
        nan = np.full(k_max, np.nan)
        return [Curve("", nan, nan.copy(), nan.copy(), nan.copy(), s) for s in shanten]
    n_chunks = -(-n // CHUNK)
    sizes = np.minimum(CHUNK, n - np.arange(n_chunks) * CHUNK).astype(np.int64)
    n_fans, n_cand = ruleset.n_fans, len(cands)
    sums = np.zeros((n_chunks, n_cand, S.A_SIZE), np.int64)
    win_draw = np.zeros((n_chunks, n_cand, k_max + 1), np.int64)
    fan_draw = np.zeros((n_chunks, n_cand, 2, k_max + 1), np.int64)
    fan_count = np.zeros((n_chunks, n_cand, n_fans), np.int64)
    fan_hands = np.zeros((n_chunks, n_cand, n_fans), np.int64)
    wall = np.repeat(np.arange(34, dtype=np.uint8), np.maximum(unseen, 0))
    S.analyze_jobs(
        chunk_states(seed, 0, n_chunks), sizes, counts, cands, melds, n_melds,
        np.asarray(unseen, np.int64), wall, k_max, False, ctx, tab, suit_table(), n_fans,
        sums, win_draw, fan_draw, fan_count, fan_hands,
    )  # fmt: skip
    # wins, and the sums of their fan totals and squares, within k draws (k = 1 .. k_max)
    wins_k = np.cumsum(win_draw.sum(axis=0)[:, 1:], axis=1).astype(np.float64)
    fans_k = np.cumsum(fan_draw.sum(axis=0)[:, :, 1:], axis=2).astype(np.float64)
    opp, base = float(ruleset.opponents), float(ruleset.base_payment)
    out = []
    for i in range(n_cand):
        p = wins_k[i] / n
        p_se = np.sqrt(p * (1 - p) / n)
        fan_sum, fan_sq = fans_k[i, 0], fans_k[i, 1]
        # a playout pays opp * (base + fan) when it wins within k draws, else 0
        pay_sum = opp * (base * wins_k[i] + fan_sum)
        pay_sq = opp * opp * (base * base * wins_k[i] + 2 * base * fan_sum + fan_sq)
        e = pay_sum / n
        e_se = np.sqrt(np.maximum(pay_sq / n - e * e, 0.0) / n)
        out.append(Curve("monte carlo", p, e, p_se, e_se, shanten[i]))
    return out
