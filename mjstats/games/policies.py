"""The game's built-in policies (``random``, ``efficiency``, ``fan-aware``) on a seat's
view: own turns (discard, kongs, win) and answers to a discard (pass, chow, pung,
kong, win). They build on the hand evaluations of :mod:`mjstats.games.discard_policies`.
"""

from __future__ import annotations

import numpy as np

from mjstats.games import discard_policies as P
from mjstats.games.plans import plan_need
from mjstats.games.state import (
    A_ANGANG,
    A_BUGANG,
    A_CHOW,
    A_DISCARD,
    A_HU,
    A_KONG,
    A_PUNG,
    A_TSUMO,
    POLICY_FAN_AWARE,
    POLICY_PLANNER,
    POLICY_RANDOM,
    action,
)
from mjstats.games.views import (
    V_DRAWN,
    V_LAST_TILE,
    V_WALL_LEFT,
    _own_hand,
)
from mjstats.kernels._jit import hjit, ijit, jit
from mjstats.kernels.rng import draw_below


@hjit
def _claim_apply(counts, melds, n, a, t, sign):
    """Take (``sign`` -1) or give back (+1) the concealed tiles and the new meld of
    claim ``a`` of discard ``t`` in a policy's copy of its hand (``melds[n]``)."""
    kind = a // 64
    arg = a % 64
    if kind == A_CHOW:
        lo, hi, copies = arg - 1, arg + 2, 1
        mk, mt = 1, arg - 1
    else:
        lo, hi, copies = t, t + 1, (2 if kind == A_PUNG else 3)
        mk, mt = (2 if kind == A_PUNG else 3), t
    for k in range(lo, hi):
        if kind == A_CHOW and k == t:
            continue
        # uint8 counts: subtract or add a non-negative amount (no negative operand)
        if sign < 0:
            counts[k] -= copies
        else:
            counts[k] += copies
    melds[n, 0] = mk if sign < 0 else 0
    melds[n, 1] = mt if sign < 0 else 0


@hjit
def _claim_need(counts, melds, n, unseen, a, t, pctx, tab, pw, bound):
    """Need after chow or pung ``a`` of discard ``t`` (and its best discard) and, when
    8 fan must stay reachable, whether a fan target reaching the minimum survives it
    (``(need, reachable)``).

    ``reachable`` is worked out only for a need below ``bound`` (else False): the
    caller takes no claim that does not lower its need, and the fan targets cost
    far more than the need."""
    _claim_apply(counts, melds, n, a, t, -1)
    need = P.least_discard_need(counts, n + 1, pctx[P.CTX_FORMS], tab, pw[P.W_AUX], bound - 1)
    reachable = need < bound
    if reachable and pctx[P.CTX_FAN_PLANS]:
        k, _ = P._collect_targets(
            counts, melds, n + 1, unseen, pctx, tab, need - 1, pw[P.W_TARGET], pw, True
        )
        reachable = k > 1  # target 0 is the plain hand, not sure to be legal
    _claim_apply(counts, melds, n, a, t, 1)
    return need, reachable


@ijit
def efficiency_own(view, acts, n_acts, pctx, tab, pw):
    """Own turn of the ``efficiency`` policy: win when legal; else the discard of
    :func:`mjstats.games.discard_policies.efficiency`, or a kong that leaves the shanten
    no worse than that discard."""
    for i in range(n_acts):
        if acts[i] // 64 == A_TSUMO:
            return acts[i]
    counts, melds, unseen, n = _own_hand(view, pw)
    choice = P.efficiency(counts, melds, n, view[V_DRAWN], unseen, view[V_WALL_LEFT], pctx, tab, pw)
    best = pw[P.W_INFO][P.INFO_NEED]
    for i in range(n_acts):
        kind = acts[i] // 64
        t = acts[i] % 64
        if kind == A_ANGANG:
            counts[t] -= 4
            need = P.hand_need(counts, n + 1, pctx[P.CTX_FORMS], tab)
            counts[t] += 4
            if need <= best:
                return acts[i]
        elif kind == A_BUGANG and pw[P.W_NEED][t] <= best:
            return acts[i]
    return action(A_DISCARD, choice)


@ijit
def efficiency_response(view, acts, n_acts, pctx, tab, pw):
    """Answer of the ``efficiency`` policy: win when legal; else the claim that lowers
    the need most while a fan target reaching the minimum stays reachable; else pass."""
    if n_acts == 1:
        return acts[0]
    for i in range(n_acts):
        if acts[i] // 64 == A_HU:
            return acts[i]
    counts, melds, unseen, n = _own_hand(view, pw)
    t = view[V_LAST_TILE]
    forms = pctx[P.CTX_FORMS]
    need = P.hand_need(counts, n, forms, tab)
    # A claim's hand could have been kept concealed, so its need is at least that
    # of the hand with t added: a claim lowers the need only if t does, and an
    # exposed kong (a pung kept concealed would do as well) never does.
    counts[t] += 1
    with_t = P.hand_need(counts, n, forms, tab)
    counts[t] -= 1
    if with_t >= need:
        return acts[0]
    for i in range(1, n_acts):
        if acts[i] // 64 == A_KONG:
            continue
        # by the same bound no claim lowers the need by more than one: the first
        # that does is the best
        after, reachable = _claim_need(counts, melds, n, unseen, acts[i], t, pctx, tab, pw, need)
        if reachable and after < need:
            return acts[i]
    return acts[0]


@hjit
def _fan_need(counts, melds, n, unseen, pctx, tab, pw):
    """Smallest need of a fan target of :func:`mjstats.games.discard_policies.fan_aware`
    (one that reaches the minimum with the base of a self-drawn win; the plain hand
    excluded) for the hand in ``counts``/``melds``; :data:`~mjstats.games.discard_policies.NO_NEED`
    if none is within one step of the plain need."""
    plain = P.hand_need(counts, n, pctx[P.CTX_FORMS], tab)
    targets = pw[P.W_TARGET]
    k, _ = P._collect_targets(counts, melds, n, unseen, pctx, tab, plain, targets, pw, False)
    best = P.NO_NEED
    for i in range(1, k):  # target 0 is the plain hand
        best = min(best, targets[i, 2])
    return best


@hjit
def _own_need(counts, melds, n, unseen, pctx, tab, pw, plans):
    """The need an own-turn choice is judged by: the planner's (``plans``:
    :func:`mjstats.games.plans.plan_need`) or fan-aware's (:func:`_fan_need`)."""
    if plans:
        return plan_need(counts, melds, n, unseen, pctx, tab, pw)
    return _fan_need(counts, melds, n, unseen, pctx, tab, pw)


@hjit
def kong_or_discard(acts, n_acts, counts, melds, n, unseen, choice, pctx, tab, pw, plans):
    """A policy's own turn once its discard ``choice`` is known: the first legal kong
    after which the need (:func:`_own_need`) is no larger than after that discard,
    else the discard. ``counts``/``melds`` are the policy's copy and are restored."""
    kongs = False
    for i in range(n_acts):
        kind = acts[i] // 64
        kongs = kongs or kind == A_ANGANG or kind == A_BUGANG
    if not kongs:
        return action(A_DISCARD, choice)
    counts[choice] -= 1
    best = _own_need(counts, melds, n, unseen, pctx, tab, pw, plans)
    counts[choice] += 1
    for i in range(n_acts):
        kind = acts[i] // 64
        t = acts[i] % 64
        if kind == A_ANGANG:
            counts[t] -= 4
            melds[n, 0] = 4
            melds[n, 1] = t
            need = _own_need(counts, melds, n + 1, unseen, pctx, tab, pw, plans)
            melds[n, 0] = 0
            melds[n, 1] = 0
            counts[t] += 4
            if need <= best:
                return acts[i]
        elif kind == A_BUGANG:
            counts[t] -= 1  # the pung becomes a kong: the meld count stays
            for m in range(n):
                if melds[m, 0] == 2 and melds[m, 1] == t:
                    melds[m, 0] = 3
            need = _own_need(counts, melds, n, unseen, pctx, tab, pw, plans)
            for m in range(n):
                if melds[m, 0] == 3 and melds[m, 1] == t:
                    melds[m, 0] = 2
            counts[t] += 1
            if need <= best:
                return acts[i]
    return action(A_DISCARD, choice)


@hjit
def fan_aware_own(view, acts, n_acts, pctx, tab, pw):
    """Own turn of the ``fan-aware`` policy: win when legal; else the discard of
    :func:`mjstats.games.discard_policies.fan_aware` (the play study's 8-fan targeting), or
    a kong after which the nearest fan target is no farther than after that discard.

    Rulesets whose binding's ``FAN_PLANS`` is False (``pctx[CTX_FAN_PLANS]`` 0) play
    :func:`efficiency_own` (as the play policy does)."""
    for i in range(n_acts):
        if acts[i] // 64 == A_TSUMO:
            return acts[i]
    if pctx[P.CTX_FAN_PLANS] == 0:
        return efficiency_own(view, acts, n_acts, pctx, tab, pw)
    counts, melds, unseen, n = _own_hand(view, pw)
    choice = P.fan_aware(counts, melds, n, view[V_DRAWN], unseen, view[V_WALL_LEFT], pctx, tab, pw)
    return kong_or_discard(acts, n_acts, counts, melds, n, unseen, choice, pctx, tab, pw, False)


@hjit
def fan_aware_response(view, acts, n_acts, pctx, tab, pw):
    """Answer of the ``fan-aware`` policy: win when legal; else the claim (chow, pung,
    exposed kong) that brings the nearest fan target of its targeting (one reaching
    the minimum after the claim: an exposed meld leaves 自摸 as the only base) closest,
    if closer than without the claim; else pass.

    Rulesets whose binding's ``FAN_PLANS`` is False answer as :func:`efficiency_response`."""
    if n_acts == 1:
        return acts[0]
    for i in range(n_acts):
        if acts[i] // 64 == A_HU:
            return acts[i]
    if pctx[P.CTX_FAN_PLANS] == 0:
        return efficiency_response(view, acts, n_acts, pctx, tab, pw)
    counts, melds, unseen, n = _own_hand(view, pw)
    best = _fan_need(counts, melds, n, unseen, pctx, tab, pw)
    choice = acts[0]
    t = view[V_LAST_TILE]
    for i in range(1, n_acts):
        _claim_apply(counts, melds, n, acts[i], t, -1)
        need = _fan_need(counts, melds, n + 1, unseen, pctx, tab, pw)
        _claim_apply(counts, melds, n, acts[i], t, 1)
        if need < best:
            best = need
            choice = acts[i]
    return choice


@ijit
def choose(policy, efficiency, fan_aware, planner, view, acts, n_acts, pctx, tab, pw, rng):
    """Built-in policy ``policy`` (``POLICY_*``) picks one of ``acts[:n_acts]``:
    ``efficiency``, ``fan_aware`` and ``planner`` are those policies' halves for the
    decision (``efficiency_own``, ``fan_aware_own`` and
    :func:`mjstats.games.planner.planner_own` on the own turn, the ``_response``
    ones for an answer)."""
    if policy == POLICY_RANDOM:
        return acts[draw_below(rng, n_acts)]
    if policy == POLICY_FAN_AWARE:
        return fan_aware(view, acts, n_acts, pctx, tab, pw)
    if policy == POLICY_PLANNER:
        return planner(view, acts, n_acts, pctx, tab, pw)
    return efficiency(view, acts, n_acts, pctx, tab, pw)


@jit
def new_work(n_fans, suits):
    """Per-thread scratch of the engine: the policy work tuple of
    :func:`mjstats.games.discard_policies.new_policy_work` extended with the engine's
    hand buffers (slots ``W_MEMO + 1 ..``, :data:`mjstats.games.views.W_COUNTS` ...),
    then the scorer buffers."""
    pw = P.new_policy_work(n_fans, suits)
    work = (
        pw[0], pw[1], pw[2], pw[3], pw[4], pw[5], pw[6], pw[7],
        np.zeros(34, np.uint8), np.zeros((4, 2), np.uint8), np.zeros(34, np.int64),
    )  # fmt: skip
    buf = (np.zeros(34, np.uint8), np.zeros((4, 2), np.uint8))
    return work, buf
