"""The ``planner`` game policy (numba kernels on a seat's view): ``fan-aware``'s
decisions over the plans of :mod:`mjstats.games.plans`, which count what the melds
and the pairs of honours and terminals add to each fan target, so open hands have
plans (混一色 + 碰碰和, 混一色 + 箭刻, 碰碰和 + 幺九刻, ...) and claims that bring them
nearer are taken.

Own turn: win when legal; a kong after which the nearest plan is no farther than
after the chosen discard; else :func:`mjstats.games.plans.planner_discard`, or, when
the seat has fewer draws left than two for each step the hand left still lacks to a
ready hand, the least dangerous tile from what the opponents have shown
(:func:`defend`).

Answer to a discard: win when legal; else the claim (chow, pung, exposed kong)
after which a legal win is nearest (:func:`mjstats.games.plans.exact_need`: exact
when ready or one draw from ready, the nearest plan before), when it is strictly
nearer than without the claim (when several are, near a win the one whose hand is
expected to bring most, as below; else the first); at equal distance, an open
hand's exposed kong, or a pung of an honour or a terminal (it adds its fans) whose
best discard leaves more useful copies than passing; near a win (exact need 1 or
2), the claim at equal need whose hand is expected to bring more (the value of its
legal outs, each weighed by what its win is paid and, on a discard, by how often its
kind is discarded: :data:`~mjstats.games.discard_policies.DISCARD_SHARE`; or of its
two-draw look-ahead);
farther from a win, a pung after which the hand keeps more plan value at the same
need than it holds (the measure its discards choose by,
:func:`mjstats.games.plans.weigh_discards`); else pass.
Ready and one step from ready, the discards are weighed by the same value (the
look-ahead counting the pungs that reach a ready hand too, with the open hand's
value): :func:`mjstats.games.plans.planner_discard`.

The plans' values come from the ruleset's own table (a fan it lacks is worth 0),
so a profile reaches them, and in a ruleset without a minimum (two-player) every
complete hand is a plan and the discard keeps the most valuable plans at the
smallest need.
"""

from __future__ import annotations

import numpy as np

from mjstats.games import discard_policies as P
from mjstats.games.plans import (
    collect_plans,
    exact_need,
    held_plan_value,
    planner_discard,
    plans_value,
    pung_fans,
    weigh_discards,
)
from mjstats.games.policies import _claim_apply, kong_or_discard
from mjstats.games.state import (
    A_CHOW,
    A_HU,
    A_KONG,
    A_PUNG,
    A_TSUMO,
)
from mjstats.games.views import (
    V_DRAWN,
    V_LAST_TILE,
    V_NMELD,
    V_RIVER,
    V_SEAT,
    V_UNSEEN,
    V_WALL_LEFT,
    _own_hand,
)
from mjstats.kernels._jit import hjit

PUNG_TIES = False

# a suited kind's danger by its shape (1 to 9), after the honours' (their unseen
# copies, 0 to 3): the more chows wait on a kind, the likelier it is a winning tile
_SUITED_SHAPE = np.array([4, 5, 6, 6, 6, 6, 6, 5, 4], np.int64)


@hjit
def _acceptance(counts, n, unseen, pctx, tab):
    """Unseen copies of the tiles that lower the need of a hand of 3k+1 tiles."""
    _, mask = P.useful_one(counts, n, pctx[P.CTX_FORMS], tab)
    ones, twos, fours = P.unseen_planes(unseen)
    return P.mask_copies(mask, ones, twos, fours)


@hjit
def _acceptance_after_discard(counts, n, unseen, pctx, tab, pw):
    """:func:`_acceptance` of a hand of 3k+2 tiles after its best discard (the
    fewest shanten, then the most unseen useful copies)."""
    need = pw[P.W_NEED]
    low = P.discard_needs(counts, n, pctx[P.CTX_FORMS], tab, need)
    _, copies = P._most_useful(counts, n, pctx[P.CTX_FORMS], tab, unseen, need, low)
    return copies


@hjit
def _near_value(counts, melds, n, unseen, pctx, tab, pw, need, t):
    """What a hand of 3k+1 tiles at exact need 1 (ready) or 2 is expected to bring:
    the value of its legal outs (:func:`~mjstats.games.discard_policies.legal_outs`),
    or the two-draw look-ahead's (:func:`~mjstats.games.discard_policies._legal_ready_draws`,
    its draws only: every discard of the others is answered, and the claims' routes
    weighed here too would cost the games more speed than they can spare). ``t``: the
    discard that left the hand, for the look-ahead's memo (-1 for none)."""
    if need == 1:
        return P.ready_outs(counts, melds, n, unseen, pctx, tab, pw)[2]
    return P._legal_ready_draws(counts, melds, n, unseen, pctx, tab, pw, pw[P.W_AUX], False, t)


@hjit
def _near_value_after(counts, melds, n, unseen, pctx, tab, pw, need):
    """:func:`_near_value` of a hand of 3k+2 tiles after its best discard at ``need``."""
    after = pw[P.W_NEED]
    P.discard_needs(counts, n, pctx[P.CTX_FORMS], tab, after)
    P.new_memo_generation(pw[P.W_MEMO])
    best = 0
    for e in range(34):
        if counts[e] == 0 or after[e] != need:
            continue
        counts[e] -= 1
        best = max(best, _near_value(counts, melds, n, unseen, pctx, tab, pw, need, e))
        counts[e] += 1
    return best


@hjit
def _best_claim(counts, melds, n, unseen, pctx, tab, pw, acts, n_acts, t, which, need):
    """Of the claims ``acts[i]`` with bit ``i`` of ``which`` set, each leaving exact need
    ``need`` (1 or 2), the one with the largest :func:`_near_value_after` (the first of
    equals), and that value."""
    choice = -1
    best = -1
    for i in range(1, n_acts):
        if not (which >> i) & 1:
            continue
        _claim_apply(counts, melds, n, acts[i], t, -1)
        value = _near_value_after(counts, melds, n + 1, unseen, pctx, tab, pw, need)
        _claim_apply(counts, melds, n, acts[i], t, 1)
        if value > best:
            best = value
            choice = acts[i]
    return choice, best


@hjit
def _pung_for_plans(counts, melds, n, unseen, pctx, tab, pw, acts, n_acts, t, passing):
    """The pung among ``acts[1:n_acts]`` after which the hand, at its best discard,
    keeps more plan value at the same need (:func:`~mjstats.games.plans.weigh_discards`)
    than it holds (:func:`~mjstats.games.plans.held_plan_value`); else ``passing``."""
    for i in range(1, n_acts):
        if acts[i] // 64 != A_PUNG:
            continue
        need, held = held_plan_value(counts, melds, n, unseen, pctx, tab, pw)
        _claim_apply(counts, melds, n, acts[i], t, -1)
        after = pw[P.W_NEED]
        plain = P.discard_needs(counts, n + 1, pctx[P.CTX_FORMS], tab, after)
        targets = pw[P.W_TARGET]
        n_t, best = collect_plans(counts, melds, n + 1, unseen, pctx, tab, plain, targets, pw, 1)
        # no discard keeps more than all the plans: most pungs stop here
        take = best == need and plans_value(pctx, targets, n_t, best) > held
        if take:
            kept = weigh_discards(counts, melds, n + 1, unseen, pctx, tab, pw, after, n_t, best)
            take = kept > held
        _claim_apply(counts, melds, n, acts[i], t, 1)
        if take:
            return acts[i]
    return passing


@hjit
def discard_danger(view, t):
    """How dangerous a discard of ``t`` is, from what the opponents have shown (lower
    is safer): first, the opponents that have not discarded ``t`` themselves, each
    counted once and once more per meld it has exposed (a player rarely lets its own
    winning tile go, and the more melds, the nearer a win); then the kind's shape:
    an honour by its unseen copies (a wait on it needs copies in an opponent's hand:
    with none unseen only 十三幺 or a knitted hand can wait on it), then terminals,
    then 2 and 8, then 3 to 7 (the more chows wait on a kind, the likelier it is a
    winning tile).

    >>> import numpy as np
    >>> from mjstats.games.views import N_VIEW, V_RIVER, V_SEAT
    >>> view = np.zeros(N_VIEW, np.int64); view[V_SEAT] = 0
    >>> view[V_RIVER + 34 * 1 + 4] = view[V_RIVER + 34 * 2 + 4] = view[V_RIVER + 34 * 3 + 4] = 1
    >>> int(discard_danger(view, 4)) < int(discard_danger(view, 27))  # 5m all let go
    True
    """
    me = view[V_SEAT]
    unsafe = 0
    for q in range(4):  # a seat not in play (two-player) adds alike to every kind
        if q != me and view[V_RIVER + 34 * q + t] == 0:
            unsafe += 1 + view[V_NMELD + q]
    shape = view[V_UNSEEN + t] if t >= 27 else _SUITED_SHAPE[t % 9]
    return 8 * unsafe + shape  # shape < 8: the opponents come first


@hjit
def defend(view, counts, choice, need):
    """The planner's discard when its own chances are poor: the hand left by
    ``choice`` needs ``need`` draws to a legal win (1: ready), and when the seat may
    draw fewer than two tiles for each step to a ready hand (fewer than
    ``2 * (need - 1)``; a ready hand still wins on a discard), the least dangerous
    tile in ``counts`` (:func:`discard_danger`; ``choice`` among the least), else
    ``choice``. Measured in docs/games.md ("The planner measured").

    >>> import numpy as np
    >>> from mjstats.games.views import N_VIEW, V_WALL_LEFT
    >>> view = np.zeros(N_VIEW, np.int64); counts = np.zeros(34, np.int64)
    >>> counts[[0, 4, 27]] = 1
    >>> view[V_WALL_LEFT] = 1; int(defend(view, counts, 4, 5))  # 东 (27): no copy unseen
    27
    >>> view[V_WALL_LEFT] = 8; int(defend(view, counts, 4, 5))  # two draws a step left
    4
    """
    if view[V_WALL_LEFT] >= 2 * (need - 1):
        return choice
    best = choice
    low = discard_danger(view, choice)
    for t in range(34):
        if counts[t] > 0:
            d = discard_danger(view, t)
            if d < low:
                best = t
                low = d
    return best


@hjit
def _weigh_discard_wins(pctx):
    """Count wins on the opponents' discards in the values near a win (the context
    the engine gives every seat counts self-drawn wins only, as ``fan-aware``'s
    kernels do). Set here, on every call, not by the engine for planner seats: so a
    user policy that calls the planner's kernels plays the planner."""
    pctx[P.CTX_DISCARD_WINS] = pctx[P.CTX_OPPONENTS]


@hjit
def planner_own(view, acts, n_acts, pctx, tab, pw):
    """Own turn of the ``planner`` policy (see the module)."""
    _weigh_discard_wins(pctx)
    for i in range(n_acts):
        if acts[i] // 64 == A_TSUMO:
            return acts[i]
    counts, melds, unseen, n = _own_hand(view, pw)
    choice = planner_discard(
        counts, melds, n, view[V_DRAWN], unseen, view[V_WALL_LEFT], pctx, tab, pw
    )
    choice = defend(view, counts, choice, pw[P.W_INFO][P.INFO_NEED])
    return kong_or_discard(acts, n_acts, counts, melds, n, unseen, choice, pctx, tab, pw, True)


@hjit
def planner_response(view, acts, n_acts, pctx, tab, pw):
    """Answer of the ``planner`` policy (see the module)."""
    _weigh_discard_wins(pctx)
    if n_acts == 1:
        return acts[0]
    for i in range(n_acts):
        if acts[i] // 64 == A_HU:
            return acts[i]
    counts, melds, unseen, n = _own_hand(view, pw)
    left = view[V_WALL_LEFT]
    bar = exact_need(counts, melds, n, unseen, left, pctx, tab, pw)
    start = bar
    # an open hand loses nothing by melding its concealed pung as a kong: 明杠 and a
    # replacement draw come free (a concealed hand would lose 门前清 / 不求人)
    opened = False
    for m in range(n):
        opened = opened or melds[m, 0] != 4
    choice = acts[0]
    t = view[V_LAST_TILE]
    near = bar == 1 or (bar == 2 and left >= 2)  # bar is exact: worth weighing
    level = 0  # bit i: claim i leaves the need where it is
    lower = 0  # bit i: claim i lowers the need, to the least need found so far
    for i in range(1, n_acts):
        _claim_apply(counts, melds, n, acts[i], t, -1)
        need = exact_need(counts, melds, n + 1, unseen, left, pctx, tab, pw)
        _claim_apply(counts, melds, n, acts[i], t, 1)
        kind = acts[i] // 64
        if need == start and kind != A_KONG:
            level |= 1 << i
        if need < start and need == bar and kind != A_KONG:
            lower |= 1 << i
        # a pung of an honour or a terminal adds its fans (箭刻, 风刻, 幺九刻) at no
        # cost in distance: taken at equal need when it widens the acceptance, as any
        # pung would be with PUNG_TIES
        scoring_pung = kind == A_PUNG and pung_fans(t, 0, pctx) > 0
        tie = (
            (PUNG_TIES or (kind == A_KONG and opened) or scoring_pung)
            and kind != A_CHOW
            and choice == acts[0]
            and need == bar
            and need < P.NO_NEED
        )
        if tie and kind != A_KONG:  # a kong's hand draws, not discards: no test
            _claim_apply(counts, melds, n, acts[i], t, -1)
            after = _acceptance_after_discard(counts, n + 1, unseen, pctx, tab, pw)
            _claim_apply(counts, melds, n, acts[i], t, 1)
            tie = after > _acceptance(counts, n, unseen, pctx, tab)
        if need < bar or tie:
            bar = need
            choice = acts[i]
            lower = (1 << i) if need < start and kind != A_KONG else 0
    if choice != acts[0]:
        # near a win, of the claims that bring it equally nearer (a chow's variants,
        # a chow or a pung) the one whose hand is expected to bring most
        if (bar == 1 or (bar == 2 and left >= 2)) and lower & (lower - 1):
            choice, _ = _best_claim(
                counts, melds, n, unseen, pctx, tab, pw, acts, n_acts, t, lower, bar
            )
        return choice
    if 2 < start < P.NO_NEED:
        # far from a win a pung that brings the hand no nearer is taken when the plans
        # it keeps are worth more (open hands' plans: 碰碰和, 混一色, 箭刻, ...)
        return _pung_for_plans(counts, melds, n, unseen, pctx, tab, pw, acts, n_acts, t, choice)
    if not near or level == 0:
        return choice
    # near a win a claim at the same need is a free exchange of tiles: taken when
    # the hand it leaves is expected to bring more (more outs, or outs that pay more)
    best = _near_value(counts, melds, n, unseen, pctx, tab, pw, bar, -1)
    claim, value = _best_claim(counts, melds, n, unseen, pctx, tab, pw, acts, n_acts, t, level, bar)
    return claim if value > best else choice
