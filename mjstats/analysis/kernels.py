"""numba kernels of the analysis: what each option of a position keeps.

Every option leaves (or, for a claim, leads through its best discard to) a
*3k+1 hand* ``H`` (13 tiles, a meld counting 3) and the unseen copies ``U``
(34 counts: 4 minus the hand, the melds, the seen tiles). :func:`evaluate_hand`
fills one row of :data:`N_SLOTS` int64 slots for it:

``S_FORM + f`` (f = 0..4: regular, seven pairs, thirteen orphans, honours and
knitted, knitted straight)
    shanten of ``H`` in that form alone; :data:`IMPOSSIBLE` where the melds rule it out.
``S_SHANTEN``
    ``s`` = the least of them (the ruleset's forms).
``S_USEFUL``, ``S_USEFUL_COPIES``
    useful tiles (进张): the 34-bit mask of kinds ``t`` with ``shanten(H + t) < s``
    (the best discard after drawing ``t``), and ``A(H, U) = sum U[t]`` over them.
``S_LEGAL``, ``S_LEGAL_COPIES``, ``S_LEGAL_FAN``
    legal-useful tiles: useful ``t`` with ``U[t] > 0`` after which 8 fan stays reachable:

    * ``s = 0`` (ready): ``H + t`` scores a legal self-drawn win (the minimum
      reached without flowers; 和绝张 when the other three copies are visible);
      ``totals[t]`` receives its fan total and ``S_LEGAL_FAN`` the sum of
      ``U[t] * totals[t]``;
    * ``s = 1``: some discard ``e`` of ``H + t`` leaves a ready hand with a wait
      ``w`` that still has an unseen copy (``U[w] - [w = t] > 0``) and completes
      a legal self-drawn win;
    * ``s >= 2``: a plan of the ``planner`` policy (:func:`mjstats.games.plans.has_plan_within`:
      fan targets whose points, with the fans the melds already bring and the base
      of a self-drawn win, reach the minimum; pung add-ons, 混一色 + 碰碰和, 五门齐)
      is within one tile of the plain need of ``H + t``.

    ``S_LEGAL_COPIES`` = the unseen copies of those kinds.
``S_KAIZEN``, ``S_KAIZEN_COPIES``, ``S_KAIZEN_BEST``
    改良: kinds ``t`` with ``U[t] > 0``, not useful, for which some discard
    ``e`` of ``H + t`` keeps shanten ``s`` with a larger acceptance
    ``A(H + t - e, U - t) > A(H, U)``; their unseen copies, and the largest
    such acceptance (0 without 改良).
``S_SECOND_NUM``, ``S_SECOND_DEN``
    second-step acceptance: for each useful ``t`` with ``U[t] > 0``, ``B(t)`` =
    the largest ``A(H + t - e, U - t)`` over discards ``e`` reaching ``s - 1``;
    NUM = ``sum U[t] * B(t)`` and DEN = ``sum U[t]`` (the mean is NUM / DEN;
    0 / 0 for a ready hand, where it is not defined).
"""

from __future__ import annotations

import numba
import numpy as np

from mjstats.games.discard_policies import (
    CTX_FORMS,
    CTX_MINIMUM,
    CTX_OPTS,
    CTX_ROUND,
    CTX_RULESET,
    CTX_SEAT,
    W_FANS,
    W_SCORE,
    mask_copies,
    new_policy_work,
    score_win,
    unseen_planes,
)
from mjstats.games.plans import has_plan_within
from mjstats.kernels._jit import ijit, jit, pjit
from mjstats.kernels.shanten import (
    HONORS_KNITTED,
    IMPOSSIBLE,
    KNITTED_STRAIGHT,
    REGULAR,
    SEVEN_PAIRS,
    THIRTEEN_ORPHANS,
    _forms_useful,
    _need_all,
    keys_without,
    masks_without,
    scan_hand,
    shanten_one,
    useful_one,
)
from mjstats.rulesets.dispatch import score_one

__all__ = [
    "FORMS",
    "IMPOSSIBLE",
    "N_SLOTS",
    "OPT_CHOW",
    "OPT_CONCEALED_KONG",
    "OPT_DISCARD",
    "OPT_KONG",
    "OPT_PASS",
    "OPT_PROMOTED_KONG",
    "OPT_PUNG",
    "OPT_WIN",
    "WHAT_ALL",
    "WHAT_KAIZEN",
    "WHAT_LEGAL",
    "WHAT_SECOND",
    "WHAT_USEFUL",
    "acceptance",
    "evaluate_hand",
    "evaluate_options",
]

FORMS = np.array(
    [REGULAR, SEVEN_PAIRS, THIRTEEN_ORPHANS, HONORS_KNITTED, KNITTED_STRAIGHT], dtype=np.int64
)
"""The form bits in the order of the ``S_FORM`` slots."""

S_FORM = 0
S_SHANTEN = 5
S_USEFUL = 6
S_USEFUL_COPIES = 7
S_LEGAL = 8
S_LEGAL_COPIES = 9
S_LEGAL_FAN = 10
S_KAIZEN = 11
S_KAIZEN_COPIES = 12
S_KAIZEN_BEST = 13
S_SECOND_NUM = 14
S_SECOND_DEN = 15
S_OPTION = 16  # option kind (OPT_*)
S_TILE = 17  # the option's tile: discard, kong tile, lowest tile of a chow, claimed tile
S_THEN = 18  # a claim's best discard after it (-1: none)
S_WIN_FAN = 19  # OPT_WIN: fan total of the win on the discard (flowers excluded)
S_WIN_LEGAL = 20  # OPT_WIN: 1 if it reaches the minimum
N_SLOTS = 21

OPT_DISCARD = 0
OPT_CONCEALED_KONG = 1
OPT_PROMOTED_KONG = 2
OPT_PASS = 3
OPT_CHOW = 4
OPT_PUNG = 5
OPT_KONG = 6
OPT_WIN = 7
MAX_OPTIONS = 20  # 14 discards + 3 concealed kongs + 3 promoted ones at most

# which column groups :func:`_evaluate_hand` fills (bits of ``what``); the others stay 0
WHAT_USEFUL = 1  # shanten (all forms), useful tiles and copies: always filled
WHAT_LEGAL = 2  # legal-useful tiles, copies, fan totals of a ready hand
WHAT_KAIZEN = 4  # 改良
WHAT_SECOND = 8  # second-step acceptance
WHAT_ALL = 15


@ijit
def _copies(mask, unseen):
    total = 0
    for t in range(34):
        if (mask >> t) & 1:
            total += unseen[t]
    return total


@jit
def acceptance(counts, n_melds, forms, tab, unseen):
    """``(shanten, useful mask, unseen copies of the useful kinds)`` of a 3k+1 hand.

    Examples
    --------
    >>> import numpy as np
    >>> from mjstats.kernels.tables import get_tables
    >>> from mjstats.tiles import parse_tiles
    >>> h = parse_tiles("123m456p789s1133z")
    >>> sh, mask, copies = acceptance(h, 0, 31, get_tables(), 4 - h.astype(np.int64))
    >>> int(sh), int(copies)
    (0, 4)
    """
    sh, mask = useful_one(counts, n_melds, forms, tab)
    return sh, mask, _copies(mask, unseen)


@jit
def _best_after(counts, n_melds, forms, tab, unseen, target):
    """Largest acceptance over the discards of the 3k+2 hand ``counts`` that leave
    shanten ``target``; -1 when none does.

    The hand is scanned once; each discard lowers one group key and moves one bit of
    the count masks (as :func:`mjstats.kernels.shanten.discard_one`). The need of
    the hand left comes first (a few table loads); only a discard that reaches
    ``target`` gets its useful tiles, and their copies are three popcounts over the
    bit planes of ``unseen`` (:func:`mjstats.games.discard_policies.mask_copies`)."""
    km, kp, ks, kz, eq1, eq2, eq3, eq4 = scan_hand(counts)
    ones, twos, fours = unseen_planes(unseen)
    sr, hr, hv = tab.suit_rows, tab.honor_rows, tab.honor_vecs
    ss, sh, fin = tab.suit_suit, tab.suit_honor, tab.final
    best = -1
    for e in range(34):
        held, e1, e2, e3, e4 = masks_without(e, eq1, eq2, eq3, eq4)
        if not held:
            continue
        m0, m1, m2, m3 = keys_without(e, km, kp, ks, kz)
        if _need_all(m0, m1, m2, m3, n_melds, forms, sr, hr, ss, sh, fin, hv) - 1 != target:
            continue
        _, bits = _forms_useful(m0, m1, m2, m3, e1, e2, e3, e4, n_melds, forms, tab)
        copies = mask_copies(bits, ones, twos, fours)
        if copies > best:
            best = copies
    return best


@jit
def _best_after_pair(counts, n_melds, forms, tab, unseen, target, t, d, memo_need, memo_copies):
    """:func:`_best_after` of ``counts`` = P - d + t on the player's own turn (P the
    14 tiles, ``d`` the option's discard, ``t`` the draw), memoised over the position.

    The hand left by discarding ``e`` is P + t - d - e, the same hand as option
    ``e`` reaches after drawing ``t`` and discarding ``d``, with the same unseen
    copies: its need and acceptance are stored under ``[t, min(d, e), max(d, e)]``
    (-1: not known yet), so each pair is solved once for both options."""
    km, kp, ks, kz, eq1, eq2, eq3, eq4 = scan_hand(counts)
    ones, twos, fours = unseen_planes(unseen)
    sr, hr, hv = tab.suit_rows, tab.honor_rows, tab.honor_vecs
    ss, sh, fin = tab.suit_suit, tab.suit_honor, tab.final
    best = -1
    for e in range(34):
        held, e1, e2, e3, e4 = masks_without(e, eq1, eq2, eq3, eq4)
        if not held:
            continue
        a = min(d, e)
        b = max(d, e)
        need = np.int64(memo_need[t, a, b])
        if need < 0:
            m0, m1, m2, m3 = keys_without(e, km, kp, ks, kz)
            need = _need_all(m0, m1, m2, m3, n_melds, forms, sr, hr, ss, sh, fin, hv)
            memo_need[t, a, b] = need
        if need - 1 != target:
            continue
        copies = np.int64(memo_copies[t, a, b])
        if copies < 0:
            m0, m1, m2, m3 = keys_without(e, km, kp, ks, kz)
            _, bits = _forms_useful(m0, m1, m2, m3, e1, e2, e3, e4, n_melds, forms, tab)
            copies = mask_copies(bits, ones, twos, fours)
            memo_copies[t, a, b] = copies
        if copies > best:
            best = copies
    return best


@jit
def _after(counts, n_melds, forms, tab, unseen, target, t, d, memo_need, memo_copies):
    """:func:`_best_after_pair` when ``d >= 0`` (an own-turn discard), else :func:`_best_after`."""
    if d >= 0:
        return _best_after_pair(
            counts, n_melds, forms, tab, unseen, target, t, d, memo_need, memo_copies
        )
    return _best_after(counts, n_melds, forms, tab, unseen, target)


@jit
def _ready_legal(counts, melds, n_melds, unseen, ctx, work, waits, totals):
    """Legal waits of a ready hand: ``(mask, copies, sum copies x total)``; ``totals[w]``."""
    mask = 0
    copies = 0
    fan = 0
    for w in range(34):
        if not (waits >> w) & 1 or unseen[w] <= 0:
            continue
        counts[w] += 1
        visible = 4 - unseen[w] - np.int64(counts[w]) + 1
        total, _, legal = score_win(ctx, counts, melds, w, visible == 3, False, work)
        counts[w] -= 1
        if legal:
            mask |= np.int64(1) << w
            copies += unseen[w]
            fan += unseen[w] * total
            totals[w] = total
    return mask, copies, fan


@jit
def _legal_after(counts, melds, n_melds, unseen, ctx, tab, work, s, scratch):
    """Whether the 3k+2 hand ``counts`` (just drawn, ``unseen`` already lowered) keeps
    8 fan reachable (see the module docstring for shanten ``s`` of the hand before)."""
    forms = ctx[CTX_FORMS]
    if s == 1:
        for e in range(34):
            if counts[e] == 0:
                continue
            counts[e] -= 1
            sh, waits = useful_one(counts, n_melds, forms, tab)
            found = False
            if sh == 0:
                m, _, _ = _ready_legal(counts, melds, n_melds, unseen, ctx, work, waits, scratch)
                found = m != 0
            counts[e] += 1
            if found:
                return True
        return False
    # a useful draw lowers the shanten by one: the drawn hand's plain need is s (its
    # best discard leaves need s); 8 fan stays in reach when a plan of the planner is
    # within one tile of it (its melds' fans and pung add-ons counted, as it plays)
    return has_plan_within(counts, melds, n_melds, unseen, ctx, tab, work)


@jit
def evaluate_hand(counts, melds, n_melds, unseen, ctx, tab, work, row, totals, scratch):
    """Fill ``row`` (int64, at least :data:`N_SLOTS`) with the columns of the 3k+1 hand
    ``counts`` (see the module docstring) and ``totals`` (int64 (34,)) with the fan
    total of each legal winning tile of a ready hand (0 elsewhere). ``scratch`` is
    int64 (34,); ``counts`` and ``unseen`` are restored.

    Examples
    --------
    >>> import numpy as np
    >>> from mjstats.games.discard_policies import new_policy_work, policy_context
    >>> from mjstats.kernels.decompose import suit_table
    >>> from mjstats.kernels.tables import get_tables
    >>> from mjstats.rulesets import get_ruleset
    >>> from mjstats.tiles import parse_tiles
    >>> ctx, work = policy_context(get_ruleset("mcr"), 0), new_policy_work(82, suit_table())
    >>> h = parse_tiles("123m456p789s1133z")  # ready: 花龙 8 (+ 不求人 4 self-drawn)
    >>> row, totals = np.zeros(N_SLOTS, np.int64), np.zeros(34, np.int64)
    >>> z = np.zeros((4, 2), np.uint8)
    >>> evaluate_hand(h, z, 0, 4 - h.astype(np.int64), ctx, get_tables(), work, row, totals,
    ...               np.zeros(34, np.int64))
    >>> int(row[S_SHANTEN]), int(row[S_USEFUL_COPIES]), int(row[S_LEGAL_COPIES])
    (0, 4, 4)
    """
    memo = np.zeros((1, 1, 1), np.int16)
    _evaluate_hand(
        counts, melds, n_melds, unseen, ctx, tab, work, row, totals, scratch, WHAT_ALL, -1, memo,
        memo,
    )  # fmt: skip


@jit
def _evaluate_hand(
    counts, melds, n_melds, unseen, ctx, tab, work, row, totals, scratch, what, d, memo_need,
    memo_copies,
):  # fmt: skip
    """:func:`evaluate_hand` filling only the column groups of ``what`` (``WHAT_*`` bits;
    the slots of the others are 0). ``d >= 0``: the hand is an own-turn position less
    ``d``, and 改良 and the second step share ``memo_need``/``memo_copies`` (int16 (34,
    34, 34), -1 where unknown) with the position's other discards (:func:`_best_after_pair`)."""
    forms = ctx[CTX_FORMS]
    # the hand is scanned once: the forms' shanten and the useful tiles come from its
    # group keys and count masks (what shanten_one and useful_one compute from counts)
    km, kp, ks, kz, eq1, eq2, eq3, eq4 = scan_hand(counts)
    sr, hr, hv = tab.suit_rows, tab.honor_rows, tab.honor_vecs
    ss, sh, fin = tab.suit_suit, tab.suit_honor, tab.final
    for f in range(5):
        if forms & FORMS[f]:
            need = _need_all(km, kp, ks, kz, n_melds, FORMS[f], sr, hr, ss, sh, fin, hv)
            row[S_FORM + f] = need - 1
        else:
            row[S_FORM + f] = IMPOSSIBLE
        totals[f] = 0
    for t in range(5, 34):
        totals[t] = 0
    need, useful = _forms_useful(km, kp, ks, kz, eq1, eq2, eq3, eq4, n_melds, forms, tab)
    s = need - 1
    ones, twos, fours = unseen_planes(unseen)
    copies = mask_copies(useful, ones, twos, fours)
    row[S_SHANTEN] = s
    row[S_USEFUL] = useful
    row[S_USEFUL_COPIES] = copies
    legal = 0
    legal_copies = 0
    legal_fan = 0
    want_legal = (what & WHAT_LEGAL) != 0
    want_kaizen = (what & WHAT_KAIZEN) != 0
    want_second = (what & WHAT_SECOND) != 0
    if s == 0 and want_legal:
        legal, legal_copies, legal_fan = _ready_legal(
            counts, melds, n_melds, unseen, ctx, work, useful, totals
        )
    kaizen = 0
    kaizen_copies = 0
    kaizen_best = 0
    num = 0
    den = 0
    for t in range(34):
        if unseen[t] <= 0:
            continue
        is_useful = (useful >> t) & 1
        if is_useful and (s < 1 or not (want_legal or want_second)):
            continue
        if not is_useful and not want_kaizen:
            continue
        counts[t] += 1
        unseen[t] -= 1
        if is_useful:
            if want_legal:
                if _legal_after(counts, melds, n_melds, unseen, ctx, tab, work, s, scratch):
                    legal |= np.int64(1) << t
                    legal_copies += unseen[t] + 1
            if want_second:
                b = _after(counts, n_melds, forms, tab, unseen, s - 1, t, d, memo_need, memo_copies)
                num += (unseen[t] + 1) * b
                den += unseen[t] + 1
        else:
            b = _after(counts, n_melds, forms, tab, unseen, s, t, d, memo_need, memo_copies)
            if b > copies:
                kaizen |= np.int64(1) << t
                kaizen_copies += unseen[t] + 1
                kaizen_best = max(kaizen_best, b)
        unseen[t] += 1
        counts[t] -= 1
    row[S_LEGAL] = legal
    row[S_LEGAL_COPIES] = legal_copies
    row[S_LEGAL_FAN] = legal_fan
    row[S_KAIZEN] = kaizen
    row[S_KAIZEN_COPIES] = kaizen_copies
    row[S_KAIZEN_BEST] = kaizen_best
    row[S_SECOND_NUM] = num
    row[S_SECOND_DEN] = den


@ijit
def _better(a, b):
    """Whether row ``a`` ranks above row ``b`` without the exact columns: lower
    shanten, then more legal-useful copies, then more useful copies, then a wider
    second step (cross-multiplied means)."""
    if a[S_SHANTEN] != b[S_SHANTEN]:
        return a[S_SHANTEN] < b[S_SHANTEN]
    if a[S_LEGAL_COPIES] != b[S_LEGAL_COPIES]:
        return a[S_LEGAL_COPIES] > b[S_LEGAL_COPIES]
    if a[S_USEFUL_COPIES] != b[S_USEFUL_COPIES]:
        return a[S_USEFUL_COPIES] > b[S_USEFUL_COPIES]
    return a[S_SECOND_NUM] * b[S_SECOND_DEN] > b[S_SECOND_NUM] * a[S_SECOND_DEN]


@jit
def _claim_then(counts, melds, n_melds, unseen, ctx, tab, work, row, totals, scratch, tmp, tt):
    """A 3k+2 hand after a claim: ``row`` gets the best discard's columns (:func:`_better`),
    ``row[S_THEN]`` that discard."""
    row[S_THEN] = -1
    for e in range(34):
        if counts[e] == 0:
            continue
        counts[e] -= 1
        evaluate_hand(counts, melds, n_melds, unseen, ctx, tab, work, tmp, tt, scratch)
        counts[e] += 1
        if row[S_THEN] < 0 or _better(tmp, row):
            for i in range(N_SLOTS):
                row[i] = tmp[i]
            for i in range(34):
                totals[i] = tt[i]
            row[S_THEN] = e


@jit
def evaluate_options(
    counts, melds, n_melds, unseen, discard, from_seat, ctx, tab, work, rows, totals
):
    """Every option of a position; returns their number.

    ``counts`` holds 14 tiles (a meld counting 3) on the player's own turn
    (``discard < 0``): options are each held kind as the discard
    (:data:`OPT_DISCARD`), each concealed kong (four held) and each promoted kong
    (a pung meld and its fourth tile held). With 13 tiles answering ``discard``
    from ``from_seat`` (1 = left): :data:`OPT_PASS`, each chow (from the left
    only), the pung, the kong and the win when the hand allows them. ``unseen``
    excludes the discard. ``rows`` (int64 (:data:`MAX_OPTIONS`, :data:`N_SLOTS`))
    and ``totals`` (int64 (MAX_OPTIONS, 34)) receive :func:`evaluate_hand` of the
    hand each option leaves (a claim: after its best discard, ``S_THEN``);
    ``S_OPTION`` and ``S_TILE`` name the option.
    """
    memo_need = np.empty((34, 34, 34), np.int16)
    memo_copies = np.empty((34, 34, 34), np.int16)
    return _evaluate_options(
        counts, melds, n_melds, unseen, discard, from_seat, ctx, tab, work, rows, totals,
        WHAT_ALL, memo_need, memo_copies,
    )  # fmt: skip


@jit
def _evaluate_options(
    counts, melds, n_melds, unseen, discard, from_seat, ctx, tab, work, rows, totals, what,
    memo_need, memo_copies,
):  # fmt: skip
    """:func:`evaluate_options` filling the column groups of ``what`` (a claim still
    picks its discard by every column, so ``S_THEN`` does not depend on ``what``);
    ``memo_*`` int16 (34, 34, 34) scratch shared by the discards (:func:`_best_after_pair`)."""
    forms = ctx[CTX_FORMS]
    scratch = np.zeros(34, np.int64)
    tmp = np.zeros(N_SLOTS, np.int64)
    tt = np.zeros(34, np.int64)
    m2 = np.zeros((4, 2), np.uint8)
    for i in range(4):
        m2[i, 0] = melds[i, 0]
        m2[i, 1] = melds[i, 1]
    n = 0
    if discard < 0:
        if what & (WHAT_KAIZEN | WHAT_SECOND):
            memo_need[:] = -1
            memo_copies[:] = -1
        for t in range(34):
            if counts[t] == 0:
                continue
            counts[t] -= 1
            _evaluate_hand(
                counts, melds, n_melds, unseen, ctx, tab, work, rows[n], totals[n], scratch, what,
                t, memo_need, memo_copies,
            )  # fmt: skip
            counts[t] += 1
            rows[n, S_OPTION] = OPT_DISCARD
            rows[n, S_TILE] = t
            rows[n, S_THEN] = -1
            n += 1
        for t in range(34):
            kind = -1
            if counts[t] == 4 and n_melds < 4:
                kind = OPT_CONCEALED_KONG
            for i in range(n_melds):
                if melds[i, 0] == 2 and melds[i, 1] == t and counts[t] >= 1:
                    kind = OPT_PROMOTED_KONG
            if kind < 0:
                continue
            if kind == OPT_CONCEALED_KONG:
                counts[t] -= 4
                m2[n_melds, 0] = 4
                m2[n_melds, 1] = t
                k = n_melds + 1
            else:
                counts[t] -= 1
                k = n_melds
                for i in range(n_melds):
                    if melds[i, 0] == 2 and melds[i, 1] == t:
                        m2[i, 0] = 3
            _evaluate_hand(
                counts, m2, k, unseen, ctx, tab, work, rows[n], totals[n], scratch, what,
                -1, memo_need, memo_copies,
            )  # fmt: skip
            counts[t] += 4 if kind == OPT_CONCEALED_KONG else 1
            for i in range(4):
                m2[i, 0] = melds[i, 0]
                m2[i, 1] = melds[i, 1]
            rows[n, S_OPTION] = kind
            rows[n, S_TILE] = t
            rows[n, S_THEN] = -1
            n += 1
        return n
    d = discard
    _evaluate_hand(
        counts, melds, n_melds, unseen, ctx, tab, work, rows[n], totals[n], scratch, what,
        -1, memo_need, memo_copies,
    )  # fmt: skip
    rows[n, S_OPTION] = OPT_PASS
    rows[n, S_TILE] = d
    rows[n, S_THEN] = -1
    n += 1
    # win on the discard
    counts[d] += 1
    if shanten_one(counts, n_melds, forms, tab) == -1:
        visible = 4 - unseen[d] - np.int64(counts[d]) + 1
        total, _, _, legal = score_one(
            ctx[CTX_RULESET], ctx[CTX_OPTS], ctx[CTX_MINIMUM], False, counts, melds, d,
            False, visible == 3, False, False, ctx[CTX_SEAT], ctx[CTX_ROUND], 0, 0,
            work[W_SCORE], work[W_FANS],
        )  # fmt: skip
        for i in range(N_SLOTS):
            rows[n, i] = 0
        for i in range(34):
            totals[n, i] = 0
        rows[n, S_SHANTEN] = -1
        for f in range(5):
            rows[n, S_FORM + f] = shanten_one(counts, n_melds, FORMS[f], tab)
        rows[n, S_OPTION] = OPT_WIN
        rows[n, S_TILE] = d
        rows[n, S_THEN] = -1
        rows[n, S_WIN_FAN] = total
        rows[n, S_WIN_LEGAL] = 1 if legal else 0
        n += 1
    counts[d] -= 1
    if n_melds < 4:
        # chows from the left player: the discard at each place of the run
        if from_seat == 1 and d < 27:
            r = d % 9
            for low in range(d - 2, d + 1):
                if low < d - r or low + 2 > d - r + 8:
                    continue
                ok = True
                for x in range(low, low + 3):
                    if x != d and counts[x] == 0:
                        ok = False
                if not ok:
                    continue
                for x in range(low, low + 3):
                    if x != d:
                        counts[x] -= 1
                m2[n_melds, 0] = 1
                m2[n_melds, 1] = low
                _claim_then(counts, m2, n_melds + 1, unseen, ctx, tab, work, rows[n], totals[n],
                            scratch, tmp, tt)  # fmt: skip
                for x in range(low, low + 3):
                    if x != d:
                        counts[x] += 1
                rows[n, S_OPTION] = OPT_CHOW
                rows[n, S_TILE] = low
                n += 1
        if counts[d] >= 2:
            counts[d] -= 2
            m2[n_melds, 0] = 2
            m2[n_melds, 1] = d
            _claim_then(counts, m2, n_melds + 1, unseen, ctx, tab, work, rows[n], totals[n],
                        scratch, tmp, tt)  # fmt: skip
            counts[d] += 2
            rows[n, S_OPTION] = OPT_PUNG
            rows[n, S_TILE] = d
            n += 1
        if counts[d] == 3:
            counts[d] -= 3
            m2[n_melds, 0] = 3
            m2[n_melds, 1] = d
            _evaluate_hand(counts, m2, n_melds + 1, unseen, ctx, tab, work, rows[n], totals[n],
                           scratch, what, -1, memo_need, memo_copies)  # fmt: skip
            counts[d] += 3
            rows[n, S_OPTION] = OPT_KONG
            rows[n, S_TILE] = d
            rows[n, S_THEN] = -1
            n += 1
    return n


@pjit
def evaluate_batch(
    counts, melds, n_melds, unseen, discard, from_seat, ctx, tab, n_fans, suits, what, chunks,
    rows, n_out,
):  # fmt: skip
    """:func:`evaluate_options` of many positions (the column groups of ``what``), in
    parallel over chunks of positions (one policy scratch per chunk); ``rows`` (int64
    (n, :data:`MAX_OPTIONS`, :data:`N_SLOTS`), zeroed here) receives each position's option rows,
    ``n_out[p]`` the number of options of position ``p``. ``ctx`` is (n, CTX_SIZE).
    ``chunks``: a few a thread (each allocates a policy scratch, the scorer's)."""
    n_pos = counts.shape[0]
    n_chunk = min(n_pos, chunks)
    per = (n_pos + n_chunk - 1) // max(n_chunk, 1)
    for c in numba.prange(n_chunk):
        work = new_policy_work(n_fans, suits)
        totals = np.zeros((MAX_OPTIONS, 34), np.int64)
        memo_need = np.empty((34, 34, 34), np.int16)
        memo_copies = np.empty((34, 34, 34), np.int16)
        lo = np.int64(c) * per
        hi = min(n_pos, lo + per)
        for p in range(lo, hi):
            for i in range(MAX_OPTIONS):  # rows may be a reused buffer
                for j in range(N_SLOTS):
                    rows[p, i, j] = 0
            n_out[p] = _evaluate_options(
                counts[p], melds[p], n_melds[p], unseen[p], discard[p], from_seat[p], ctx[p],
                tab, work, rows[p], totals, what, memo_need, memo_copies,
            )  # fmt: skip
