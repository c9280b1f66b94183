"""The planner's plans: fan targets that reach the minimum together with what the
hand already holds (numba kernels on a policy's copy of its hand).

``fan-aware`` counts a fan target as a plan only when the target reaches the
minimum on its own with the base of a solitaire win (不求人 for a concealed hand,
自摸 once a meld is exposed). That leaves an open hand almost no plan: 混一色 (6),
碰碰和 (6), 三色三步高 (6) and a pung of a dragon (2) are each short of 8 with 自摸,
so a pung is taken only for a full flush or a straight, and strong players' open
hands (混一色 + 碰碰和, 混一色 + 箭刻, 碰碰和 + 幺九刻, ...) never come up.

The planner's plans add, exactly from the ruleset's table (the context's
:data:`~mjstats.games.discard_policies.PLAN_FANS` points):

* the fans the **melds** guarantee (:func:`meld_fans`: 箭刻 / 双箭刻, 门风刻, 圈风刻,
  幺九刻, 明杠, 暗杠), which every completion of the hand scores; a target counts them
  beside its own value, and the plain hand is a sure plan once they and the base
  reach the minimum;
* **pung add-ons**: a pair (or concealed pung) of an honour or a terminal made a
  pung beside any target (the pung's fan added to the target's, its missing copies
  to the need). This is how 混一色 + 箭刻, 碰碰和 + 幺九刻 or 三色三步高 + 门风刻 reach
  the minimum.

Each plan is a row of the target table (``W_TARGET``: kind, parameter, need,
value) as :func:`~mjstats.games.discard_policies.collect_targets_beside` writes
it; an add-on's kind is kept in the parameter's high bits (:data:`ADDON_SHIFT`),
and a plain row's parameter is 1 when it is a sure plan.
"""

from __future__ import annotations

import numpy as np

from mjstats.games import discard_policies as P
from mjstats.kernels._jit import hjit, ijit

ADDON_SHIFT = 8
"""A plan's parameter ``param | (addon tile + 1) << ADDON_SHIFT`` (0: no add-on)."""

VIRTUAL_PUNG = 4
"""Meld kind of an add-on's pung in the policy's copy of the hand: the concealed
kind, so the hand's base stays that of the melds really exposed (a pung made of a
pair may be drawn, not claimed)."""


@ijit
def _is_terminal_or_honour(t):
    return t >= 27 or t % 9 == 0 or t % 9 == 8


@ijit
def pung_fans(t, dragons_before, ctx):
    """Fans a pung of tile ``t`` adds to a hand that already holds pungs of
    ``dragons_before`` dragons: 箭刻 (the second dragon turns two 箭刻 into 双箭刻),
    门风刻 + 圈风刻 for the seat's and the round's wind, else 幺九刻 for an honour or a
    terminal, 0 for a simple.

    Examples
    --------
    >>> from mjstats.rulesets import get_ruleset
    >>> ctx = P.policy_context(get_ruleset("mcr"), 0, seat_wind=1, round_wind=0)
    >>> [int(pung_fans(t, 0, ctx)) for t in (31, 27, 28, 29, 8, 4)]
    [2, 2, 2, 1, 1, 0]
    >>> int(pung_fans(32, 1, ctx))  # 双箭刻 6 replaces 箭刻 2 + 2
    4
    """
    if t >= 31:
        if dragons_before == 1:
            return ctx[P.V_TWO_DRAGON_PUNGS] - ctx[P.V_DRAGON_PUNG]
        return ctx[P.V_DRAGON_PUNG]
    if t >= 27:
        v = P._honor_value(t - 27, ctx)
        return v if v > 0 else ctx[P.V_TERMINAL_PUNG]
    if t % 9 == 0 or t % 9 == 8:
        return ctx[P.V_TERMINAL_PUNG]
    return 0


@ijit
def meld_fans(melds, n_melds, ctx):
    """Fans every completion of a hand with these melds scores: those of its pungs
    and kongs (:func:`pung_fans`), 明杠 / 双明杠 for exposed kongs and 暗杠 for a
    concealed one. Returns ``(fans, honours)``, ``honours`` the mask of the honour
    kinds melded (bit h = tile 27 + h).

    Examples
    --------
    >>> import numpy as np
    >>> from mjstats.rulesets import get_ruleset
    >>> ctx = P.policy_context(get_ruleset("mcr"), 0)
    >>> melds = np.array([[2, 31], [3, 8], [1, 0], [0, 0]], np.uint8)  # 中 pung, 9m kong, 123m
    >>> fans, honours = meld_fans(melds, 3, ctx)
    >>> int(fans), bin(honours)
    (4, '0b10000')
    """
    fans = 0
    honours = 0
    dragons = 0
    kongs = 0
    for i in range(n_melds):
        k = melds[i, 0]
        if k < 2:
            continue
        t = np.int64(melds[i, 1])
        fans += pung_fans(t, dragons, ctx)
        if t >= 27:
            honours |= 1 << (t - 27)
        if t >= 31:
            dragons += 1
        if k == 4:
            fans += ctx[P.V_CONCEALED_KONG]
        elif k == 3:
            kongs += 1
    if kongs == 1:
        fans += ctx[P.V_MELDED_KONG]
    elif kongs > 1:
        fans += ctx[P.V_TWO_MELDED_KONGS]
    return fans, honours


@ijit
def _group_of(t):
    """五门齐's groups: 0-2 the suits, 3 the winds, 4 the dragons."""
    return t // 9 if t < 27 else (3 if t < 31 else 4)


@hjit
def all_types_need(counts, melds, n_melds, unseen, tmp):
    """Need of 五门齐 (a set or the pair in each suit, in the winds and in the
    dragons): four sets and a pair over five groups is exactly one block a group,
    so the need is, over the choice of the pair's group, the sum of each group's
    missing tiles to its best block (a chow or a pung, or the pair). Exact for a
    hand of regular form; NO_NEED when two melds share a group. ``tmp``: uint8
    scratch of 10 or more (each group's best set, then best pair: 1 + the tiles held
    of it, 0 when the group has none the unseen copies allow).

    Examples
    --------
    >>> import numpy as np
    >>> from mjstats.tiles import parse_tiles
    >>> hand = parse_tiles("123m55p789s11z66z3m")  # 13 tiles, two draws from 五门齐
    >>> unseen = (4 - hand).astype(np.int64)
    >>> int(all_types_need(hand, np.zeros((4, 2), np.uint8), 0, unseen, np.zeros(34, np.uint8)))
    2
    """
    taken = 0
    for i in range(n_melds):
        g = _group_of(np.int64(melds[i, 1]))
        if (taken >> g) & 1:
            return P.NO_NEED
        taken |= 1 << g
    best_set = tmp[:5]
    best_pair = tmp[5:10]
    for g in range(5):
        best_set[g] = 0
        best_pair[g] = 0
    for t in range(34):
        c = np.int64(counts[t])
        g = _group_of(t)
        if c + unseen[t] >= 3:
            best_set[g] = max(best_set[g], min(c, 3) + 1)
        if c + unseen[t] >= 2:
            best_pair[g] = max(best_pair[g], min(c, 2) + 1)
        if t < 27 and t % 9 <= 6:
            held = 0
            ok = True
            for j in range(3):
                held += min(np.int64(counts[t + j]), 1)
                ok = ok and counts[t + j] + unseen[t + j] >= 1
            if ok:
                best_set[g] = max(best_set[g], held + 1)
    need = P.NO_NEED
    for eye in range(5):
        if (taken >> eye) & 1:
            continue
        total = 0
        for g in range(5):
            if (taken >> g) & 1:
                continue
            best = np.int64(best_pair[g]) if g == eye else np.int64(best_set[g])
            if best == 0:
                total = P.NO_NEED
                break
            total += (3 if g == eye else 4) - best
        need = min(need, total)
    return need


@hjit
def half_flush_pungs_need(counts, melds, n_melds, unseen, suit, tmp):
    """Need of 混一色 + 碰碰和 in ``suit``: every set a pung of the suit or of the
    honours (:func:`~mjstats.games.discard_policies.all_pungs_need` on those kinds);
    NO_NEED when a meld is a chow or lies outside them.

    Examples
    --------
    >>> import numpy as np
    >>> from mjstats.tiles import parse_tiles
    >>> hand = parse_tiles("1115599m11z666z5p")  # 55m and 99m want a copy each
    >>> unseen = (4 - hand).astype(np.int64)
    >>> need = half_flush_pungs_need(hand, np.zeros((4, 2), np.uint8), 0, unseen, 0,
    ...                              np.zeros(34, np.uint8))
    >>> int(need)
    2
    """
    allowed = (np.int64(0x1FF) << (9 * suit)) | P._HONORS
    for i in range(n_melds):
        if melds[i, 0] == 1:
            return P.NO_NEED
    if not P._meld_tiles_in(melds, n_melds, allowed):
        return P.NO_NEED
    return P.all_pungs_need(counts, unseen, 4 - n_melds, tmp, allowed)


@hjit
def _collect_beside(
    counts, melds, n_melds, unseen, ctx, tab, plain, rows, work, fixed, honours, slack,
    first=False,
):  # fmt: skip
    """:func:`~mjstats.games.discard_policies.collect_targets_beside` and 五门齐; with
    ``first``, it returns at the first target found (as that function does)."""
    k, best = P.collect_targets_beside(
        counts, melds, n_melds, unseen, ctx, tab, plain, rows, work, first, fixed, honours, slack
    )
    if first and k > 1:
        return k, best
    exposed = 0
    for i in range(n_melds):
        exposed += melds[i, 0] != VIRTUAL_PUNG
    base = ctx[P.V_FULLY_CONCEALED] if exposed == 0 else ctx[P.V_SELF_DRAWN]
    if not (ctx[P.CTX_FORMS] & P.REGULAR):
        return k, best
    both = ctx[P.V_HALF_FLUSH] + ctx[P.V_ALL_PUNGS]
    if both + fixed + base >= ctx[P.CTX_MINIMUM]:
        for s in range(3):
            need = half_flush_pungs_need(counts, melds, n_melds, unseen, s, work[P.W_TMP])
            if need <= best + slack:
                k = P._add_target(rows, k, P.T_HALF_FLUSH_PUNGS, s, need, both)
                best = min(best, need)
    if ctx[P.V_ALL_TYPES] + fixed + base >= ctx[P.CTX_MINIMUM]:
        need = all_types_need(counts, melds, n_melds, unseen, work[P.W_TMP])
        if need <= best + slack:
            k = P._add_target(rows, k, P.T_ALL_TYPES, 0, need, ctx[P.V_ALL_TYPES])
            best = min(best, need)
    return k, best


@ijit
def _dragon_pungs(honours):
    """How many dragons the honour bits ``honours`` (bit h: tile 27 + h) hold."""
    return ((honours >> 4) & 1) + ((honours >> 5) & 1) + ((honours >> 6) & 1)


@ijit
def _pung_missing(counts, unseen, x):
    """The copies of ``x`` a pung of it beside a target still lacks (an add-on: a
    pair or more of an honour or a terminal with the copies left to make it); -1
    when ``x`` is no add-on."""
    c = np.int64(counts[x])
    if c < 2 or not _is_terminal_or_honour(x) or c + unseen[x] < 3:
        return -1
    return 3 - min(c, 3)


@ijit
def _make_pung(counts, melds, n, x):
    """Make the held copies of ``x`` (three at most) a pung in meld slot ``n`` (an
    add-on's, :data:`VIRTUAL_PUNG`); returns the copies taken, for :func:`_unmake_pung`."""
    take = min(np.int64(counts[x]), 3)
    counts[x] -= take
    melds[n, 0] = VIRTUAL_PUNG
    melds[n, 1] = x
    return take


@ijit
def _unmake_pung(counts, melds, n, x, take):
    """Undo :func:`_make_pung`."""
    melds[n, 0] = 0
    melds[n, 1] = 0
    counts[x] += take


@hjit
def _collect_beside_pung(
    counts, melds, n_melds, unseen, ctx, tab, rows, work, fixed, honours, dragons, x, slack
):
    """:func:`_collect_beside` into ``rows`` for the hand with its pair (or pung) of
    ``x`` made a pung in the free meld slot, its fans counted (``dragons``: the dragon
    pungs among the melds); returns the rows' count. ``counts``/``melds`` are restored."""
    take = _make_pung(counts, melds, n_melds, x)
    v = pung_fans(x, dragons, ctx)
    more = honours | (1 << (x - 27)) if x >= 27 else honours
    plain = P.hand_need(counts, n_melds + 1, ctx[P.CTX_FORMS], tab)
    m, _ = _collect_beside(
        counts, melds, n_melds + 1, unseen, ctx, tab, plain, rows, work, fixed + v, more, slack
    )
    _unmake_pung(counts, melds, n_melds, x, take)
    return m


@hjit
def collect_plans(counts, melds, n_melds, unseen, ctx, tab, plain_need, targets, work, slack=0):
    """Fill ``targets`` with the planner's plans (see the module); returns (count, best need).
    With ``slack`` the plans up to ``slack`` draws farther than the best are kept too.

    ``counts``/``melds`` are restored on return (an add-on's pung is set in the
    free meld slot and taken out again).
    """
    fixed, honours = meld_fans(melds, n_melds, ctx)
    k, best = _collect_beside(
        counts, melds, n_melds, unseen, ctx, tab, plain_need, targets, work, fixed, honours, slack
    )
    if n_melds >= 4:
        return k, best
    dragons = _dragon_pungs(honours)
    for x in range(34):
        missing = _pung_missing(counts, unseen, x)
        if missing < 0 or missing > best + slack:
            continue
        rows = targets[k:]
        m = _collect_beside_pung(
            counts, melds, n_melds, unseen, ctx, tab, rows, work, fixed, honours, dragons, x, slack
        )
        # keep the add-on's rows that reach the best need so far
        kept = 0
        for i in range(m):
            need = rows[i, 2] + missing
            if need > best + slack:
                continue
            best = min(best, need)
            for j in range(4):
                rows[kept, j] = rows[i, j]
            rows[kept, 1] = rows[i, 1] | ((x + 1) << ADDON_SHIFT)
            rows[kept, 2] = need
            kept += 1
        k += kept
    return k, best


@hjit
def plan_row_need(row, counts, melds, n_melds, unseen, ctx, tab, tmp, bound):
    """Need of plan ``row`` (a row of :func:`collect_plans`) for the hand in
    ``counts``/``melds`` (after a discard, say); :data:`~mjstats.games.discard_policies.NO_NEED`
    when the hand cannot make it, a value ``>= bound`` when pruned."""
    kind = row[0]
    param = row[1] & ((1 << ADDON_SHIFT) - 1)
    addon = row[1] >> ADDON_SHIFT
    forms = ctx[P.CTX_FORMS]
    missing = 0
    n = n_melds
    x = addon - 1
    take = 0
    if addon:
        if counts[x] + unseen[x] < 3:
            return P.NO_NEED
        take = _make_pung(counts, melds, n, x)
        missing = 3 - take
        n += 1
    if kind == P.T_PLAIN:
        need = P.hand_need(counts, n, forms, tab) + (0 if _is_plan(row) else 1)
    elif kind == P.T_HALF_FLUSH_PUNGS:
        need = half_flush_pungs_need(counts, melds, n, unseen, param, tmp)
    elif kind == P.T_ALL_TYPES:
        need = all_types_need(counts, melds, n, unseen, tmp)
    else:
        need = P._target_need(kind, param, counts, melds, n, unseen, forms, bound, tab, tmp)
    if addon:
        _unmake_pung(counts, melds, n - 1, x, take)
    return need + missing


@hjit
def plan_need(counts, melds, n_melds, unseen, ctx, tab, work):
    """The smallest need of a plan of the hand (a plain row only when sure);
    :data:`~mjstats.games.discard_policies.NO_NEED` when it has none."""
    plain = P.hand_need(counts, n_melds, ctx[P.CTX_FORMS], tab)
    targets = work[P.W_TARGET]
    k, _ = collect_plans(counts, melds, n_melds, unseen, ctx, tab, plain, targets, work)
    best = P.NO_NEED
    for i in range(k):
        if _is_plan(targets[i]):
            best = min(best, targets[i, 2])
    return best


@ijit
def _is_plan(row):
    """Whether a row of :func:`collect_plans` is a plan: a fan target, or the plain
    hand when the melds' fans and the base make any completion reach the minimum
    (parameter 1); the plain row of a hand short of it only sets the bar."""
    return row[0] != P.T_PLAIN or row[1] & ((1 << ADDON_SHIFT) - 1) == 1


@hjit
def has_plan_within(counts, melds, n_melds, unseen, ctx, tab, work):
    """Whether a plan is within one tile of the hand's plain need:
    ``plan_need(...) <= plain + 1``, stopping at the first target found (the bar
    :func:`collect_plans` keeps targets under), so that asking costs a fraction of
    collecting every plan (the analysis asks it of each draw of each option).

    Examples
    --------
    >>> import numpy as np
    >>> from mjstats.kernels.decompose import suit_table
    >>> from mjstats.kernels.tables import get_tables
    >>> from mjstats.rulesets import get_ruleset
    >>> from mjstats.tiles import parse_tiles
    >>> ctx, work = P.policy_context(get_ruleset("mcr"), 0), P.new_policy_work(82, suit_table())
    >>> hand = parse_tiles("1258m7m3p6p9s")  # beside two dragon pungs: 混一色 reaches 8
    >>> melds = np.array([[2, 31], [2, 32], [0, 0], [0, 0]], np.uint8)
    >>> unseen = (4 - hand).astype(np.int64)
    >>> bool(has_plan_within(hand, melds, 2, unseen, ctx, get_tables(), work))
    True
    >>> simples = np.array([[2, 12], [2, 22], [0, 0], [0, 0]], np.uint8)  # pungs 4p, 5s
    >>> bool(has_plan_within(hand, simples, 2, unseen, ctx, get_tables(), work))
    False
    """
    forms = ctx[P.CTX_FORMS]
    plain = P.hand_need(counts, n_melds, forms, tab)
    bound = plain + 1
    fixed, honours = meld_fans(melds, n_melds, ctx)
    rows = work[P.W_TARGET]
    k, _ = _collect_beside(
        counts, melds, n_melds, unseen, ctx, tab, plain, rows, work, fixed, honours, 0, True
    )
    for i in range(k):
        if _is_plan(rows[i]) and rows[i, 2] <= bound:
            return True
    if n_melds >= 4:
        return False
    # a pair of an honour or a terminal made a pung beside a target (collect_plans'
    # add-ons): counted in full, as the first target of the hand with the pung may
    # be farther than a later one
    dragons = _dragon_pungs(honours)
    for x in range(34):
        missing = _pung_missing(counts, unseen, x)
        if missing < 0 or missing > bound:
            continue
        m = _collect_beside_pung(
            counts, melds, n_melds, unseen, ctx, tab, rows, work, fixed, honours, dragons, x, 0
        )
        for i in range(m):
            if _is_plan(rows[i]) and rows[i, 2] + missing <= bound:
                return True
    return False


FAR_PLAN_SHARE = 4
"""Far from a win a plan one draw farther than the nearest plans counts
``1 / FAR_PLAN_SHARE`` of what it pays (:func:`plan_choice`): a quarter, measured
in duplicate matches against the planner without them (docs/games.md)."""

_UNBOUNDED = np.int64(1) << 40  # a ``left`` of :func:`_kept_value` that never stops it


@hjit
def _kept_value(
    counts, melds, n_melds, unseen, ctx, tab, work, need, pay, n_t, level, t, left, floor
):
    """What the plans of ``work[W_TARGET][:n_t]`` at need ``level`` that a discard of
    ``t`` keeps at that need pay: ``pay`` + fans each (``need``: the plain need after
    each discard, which a plain plan's need follows).

    ``left``: what those plans pay together (or more). The count stops, short, once
    what it has found plus what its remaining plans could add falls below ``floor``:
    the caller then knows that ``t`` cannot reach ``floor``, whatever the rest.
    """
    targets = work[P.W_TARGET]
    counts[t] -= 1
    # a chow plan's need reads the hand's keys and masks: taken once per discard
    keys, held = P._chow_hand(counts)
    value = 0
    for i in range(n_t):
        if targets[i, 2] != level:
            continue
        if value + left < floor:
            break
        left -= pay + targets[i, 3]
        kind = targets[i, 0]
        plain_row = targets[i, 1] >> ADDON_SHIFT == 0
        if kind == P.T_PLAIN and plain_row:
            after = need[t] + (0 if _is_plan(targets[i]) else 1)
        elif kind == P.T_CHOWS and plain_row:
            after = P._chows_need(keys, held, melds, n_melds, targets[i, 1], level + 1, tab)
        else:
            after = plan_row_need(
                targets[i], counts, melds, n_melds, unseen, ctx, tab, work[P.W_TMP], level + 1
            )
        if after <= level:
            value += pay + targets[i, 3]
    counts[t] += 1
    return value


@ijit
def _plan_pay(ctx):
    """What every plan's win on a discard is paid besides its fans: ``d`` base
    payments (``ctx[CTX_DISCARD_WINS]`` = d opponents, ``ctx[CTX_BASE]``; MCR 24), in
    the units of the near-win values: a 24-fan plan pays 48 where an 8-fan one pays
    32, so two plans kept outweigh one plan three times as rich."""
    return ctx[P.CTX_BASE] * ctx[P.CTX_DISCARD_WINS]


@hjit
def plans_value(ctx, targets, n_t, best):
    """What the plans ``targets[:n_t]`` of :func:`collect_plans` are worth together, as
    :func:`weigh_discards` weighs them (those at need ``best``
    :data:`FAR_PLAN_SHARE` times, those one draw farther once): the value of a hand
    of 3k+1 tiles that holds them, and no less than any discard of a hand of 3k+2 keeps."""
    pay = _plan_pay(ctx)
    value = 0
    for i in range(n_t):
        if targets[i, 2] == best:
            value += FAR_PLAN_SHARE * (pay + targets[i, 3])
        elif targets[i, 2] == best + 1:
            value += pay + targets[i, 3]
    return value


@hjit
def weigh_discards(counts, melds, n_melds, unseen, ctx, tab, work, need, n_t, best):
    """The plan value each discard of a hand of 3k+2 tiles keeps, in ``work[W_AUX]``,
    for the plans of :func:`collect_plans` in ``work[W_TARGET][:n_t]`` (smallest need
    ``best``): each plan at need ``best`` that the discard keeps counts what its win
    on a discard is paid (:func:`_plan_pay` and its fans; MCR 24 + fan),
    :data:`FAR_PLAN_SHARE` times over, and each plan one draw farther that it keeps
    once. ``need``: the plain need after each discard. Returns the largest value:
    the discards that keep the most are counted exactly; a discard that cannot reach
    them may be cut short."""
    aux = work[P.W_AUX]
    targets = work[P.W_TARGET]
    pay = _plan_pay(ctx)
    top = 0
    for t in range(34):
        aux[t] = 0
        if counts[t]:
            kept = _kept_value(
                counts, melds, n_melds, unseen, ctx, tab, work, need, pay, n_t, best, t,
                _UNBOUNDED, 0,
            )  # fmt: skip
            aux[t] = FAR_PLAN_SHARE * kept
            top = max(top, aux[t])
    # the plans one draw farther, for the discards that can still reach the most:
    # those keeping the most near plans first, then the others while they can (a
    # count stops once its discard cannot reach the best total: only the most counts)
    most = 0
    for i in range(n_t):
        if targets[i, 2] == best + 1:
            most += pay + targets[i, 3]
    bar = 0
    for rnd in range(2):
        for t in range(34):
            if counts[t] == 0 or (aux[t] != top if rnd == 0 else aux[t] >= top):
                continue
            if aux[t] + most >= bar:
                aux[t] += _kept_value(
                    counts, melds, n_melds, unseen, ctx, tab, work, need, pay, n_t, best + 1, t,
                    most, bar - aux[t],
                )  # fmt: skip
                bar = max(bar, aux[t])
    return bar


@hjit
def plan_choice(counts, melds, n_melds, unseen, ctx, tab, work, need, plain):
    """The discard that keeps the most plan value (:func:`weigh_discards` over
    :func:`collect_plans`); ties as :func:`~mjstats.games.discard_policies.fan_aware`'s
    targeting: the lowest shanten, then the most unseen useful copies. Returns (tile,
    need)."""
    targets = work[P.W_TARGET]
    n_t, best = collect_plans(counts, melds, n_melds, unseen, ctx, tab, plain, targets, work, 1)
    weigh_discards(counts, melds, n_melds, unseen, ctx, tab, work, need, n_t, best)
    aux = work[P.W_AUX]
    return P.most_flexible(counts, n_melds, ctx[P.CTX_FORMS], tab, unseen, need, aux)


@hjit
def held_plan_value(counts, melds, n_melds, unseen, ctx, tab, work):
    """(need, value) of the plans a hand of 3k+1 tiles holds, valued as
    :func:`weigh_discards` values those a discard keeps.

    Examples
    --------
    >>> import numpy as np
    >>> from mjstats.kernels.decompose import suit_table
    >>> from mjstats.kernels.tables import get_tables
    >>> from mjstats.rulesets import get_ruleset
    >>> from mjstats.tiles import parse_tiles
    >>> ctx = P.policy_context(get_ruleset("mcr"), 0)
    >>> ctx[P.CTX_DISCARD_WINS] = 3  # a planner seat's
    >>> work = P.new_policy_work(82, suit_table())
    >>> hand = parse_tiles("123m456m789m1p2p3p5s")  # 清龙 at need 1
    >>> unseen, melds = (4 - hand).astype(np.int64), np.zeros((4, 2), np.uint8)
    >>> need, value = held_plan_value(hand, melds, 0, unseen, ctx, get_tables(), work)
    >>> int(need), int(value) > 0
    (1, True)
    """
    plain = P.hand_need(counts, n_melds, ctx[P.CTX_FORMS], tab)
    targets = work[P.W_TARGET]
    n_t, best = collect_plans(counts, melds, n_melds, unseen, ctx, tab, plain, targets, work, 1)
    return best, plans_value(ctx, targets, n_t, best)


@hjit
def planner_discard(counts, melds, n_melds, drawn, unseen, draws_left, ctx, tab, work):
    """The planner's discard: as :func:`~mjstats.games.discard_policies.fan_aware`
    when ready or one step from ready (exact: the value of the legal winning copies
    and of the look-ahead, pungs included), and when some discard is ready but
    none with a legal win, the best look-ahead of the discards one step from ready;
    else :func:`plan_choice` over the planner's plans."""
    need = work[P.W_NEED]
    plain = P.discard_needs(counts, n_melds, ctx[P.CTX_FORMS], tab, need)
    choice = P.near_ready_choice(counts, melds, n_melds, unseen, draws_left, ctx, tab, work, plain)
    if choice < 0 and plain == 1 and draws_left >= 2:
        choice = P._lookahead_choice(counts, melds, n_melds, unseen, ctx, tab, work, need)
        if choice >= 0:
            plain = 2
    if choice >= 0:
        work[P.W_INFO][P.INFO_NEED] = plain
        return choice
    choice, low = plan_choice(counts, melds, n_melds, unseen, ctx, tab, work, need, plain)
    work[P.W_INFO][P.INFO_NEED] = low
    return choice


@hjit
def _near_legal(counts, melds, n_melds, unseen, draws_left, ctx, tab, work, plain):
    """Whether a hand of 3k+1 tiles at plain need 1 has a legal winning copy, or at
    plain need 2 (two draws or more left) a draw leading to a ready hand with one."""
    if plain == 1:
        return P.ready_outs(counts, melds, n_melds, unseen, ctx, tab, work)[0] > 0
    if plain == 2 and draws_left >= 2:
        return P.has_legal_ready_draw(counts, melds, n_melds, unseen, ctx, tab, work, work[P.W_AUX])
    return False


@hjit
def exact_need(counts, melds, n_melds, unseen, draws_left, ctx, tab, work):
    """The draws the hand still needs to a legal win: exact (every winning tile
    scored) when it is ready or one draw from ready, else :func:`plan_need`.

    A hand of 3k+1 tiles is ready with a legal winning tile (1), or one draw from
    a ready hand with one (2: :func:`~mjstats.games.discard_policies.has_legal_ready_draw`);
    a hand of 3k+2 tiles (after a claim) is judged after its discards of the least
    plain need. A near-ready hand without a legal win in reach falls to its plans.
    """
    forms = ctx[P.CTX_FORMS]
    tiles = 0
    for t in range(34):
        tiles += counts[t]
    if tiles % 3 == 2:
        need = work[P.W_NEED]
        plain = P.discard_needs(counts, n_melds, forms, tab, need)
        for e in range(34):
            if plain > 2 or need[e] != plain:
                continue
            counts[e] -= 1
            found = _near_legal(counts, melds, n_melds, unseen, draws_left, ctx, tab, work, plain)
            counts[e] += 1
            if found:
                return plain
    else:
        plain = P.hand_need(counts, n_melds, forms, tab)
        if _near_legal(counts, melds, n_melds, unseen, draws_left, ctx, tab, work, plain):
            return plain
    return plan_need(counts, melds, n_melds, unseen, ctx, tab, work)
