"""Discard policies for the solitaire games of :mod:`mjstats.games.solitaire` (numba).

A *policy* decides which tile to discard after each draw. Two are built in:

``efficiency`` (:data:`EFFICIENCY`)
    Fewest shanten after the discard (minimum over the ruleset's forms), then
    the most unseen copies of the tiles that would lower it, then the
    deterministic :data:`DISCARD_ORDER` (honours first, then terminals, 2/8,
    3-7; lower tile id first).
``fan-aware`` (:data:`FAN_AWARE`, MCR)
    Keeps a legal (8-fan) win reachable; see :func:`fan_aware`.

Policy protocol
---------------
Every policy, built in or user-written, is a ``@jit`` function with this
signature::

    policy(counts, melds, n_melds, drawn, unseen, draws_left, ctx, tab, work) -> int

``counts`` : uint8 (34,)
    Concealed tiles, including the tile just drawn (``14 - 3 * n_melds``
    tiles). A policy may change entries temporarily but must restore them.
``melds`` : uint8 (4, 2)
    The player's melds (``[kind, tile]`` rows, see :mod:`mjstats.hand`);
    ``n_melds`` of them are used.
``drawn`` : int
    The tile just drawn.
``unseen`` : int64 (34,)
    Copies the player has not seen: 4 minus the concealed tiles, the melds,
    the player's discards and the tiles declared visible. The wall holds
    exactly these tiles (solitaire play).
``draws_left`` : int
    Draws still to come after this one.
``ctx`` : int64 (:data:`CTX_SIZE`,)
    Game constants, indexed by the ``CTX_*`` constants (policy id, ruleset id,
    shanten form bits, minimum fan, seat and round wind, scorer options, and
    whether the fan-aware plans are the ruleset's fans: its binding's
    ``FAN_PLANS``).
``tab`` : :class:`~mjstats.kernels.tables.ShantenTables`
``work`` : tuple
    Scratch from :func:`new_policy_work` (see there for the slots).

It returns the tile id to discard, which must be held. The game declares every
legal win itself, so a policy is called only with hands that are not a legal
win. A policy may set ``work[W_INFO][INFO_NEED]`` to the exact need
(shanten + 1, over all forms) of the hand it leaves; the game then skips the
completeness test on the next draw when that need is above 1. The game resets
the slot to -1 before each call, so policies that ignore it stay correct.

Built-in policies are dispatched by integer id (:func:`builtin_policy`; add
one by writing it here with this signature, giving it the next id in
:data:`BUILTIN_POLICIES` and adding one branch), so the game kernels that use
them are cached on disk. A user policy is any ``@jit`` function with this
signature passed to ``play(..., policy=fn)`` / ``analyze(..., policy=fn)``:
the game kernels take it as a numba ``FunctionType`` value
(:func:`mjstats.games.solitaire.policy_type`) and call it through a function
pointer, so they are compiled once and cached like the built-in ones; a new
process compiles only the user's function (a few seconds).

Needs
-----
The kernels here work with the *need* of a hand (shanten + 1: the number of
tiles to draw, and discard, to complete it) exactly as
:mod:`mjstats.kernels.shanten` defines it; :func:`discard_needs` gives the need
after every possible discard of a 3k+2 hand in one pass.
"""

from __future__ import annotations

import numpy as np

from mjstats._readonly import read_only
from mjstats.errors import UnknownRulesetError
from mjstats.kernels._jit import hjit, ijit, jit
from mjstats.kernels.bits import popcount
from mjstats.kernels.shanten import (
    FORM_BITS,
    HONORS_KNITTED,
    KNITTED_STRAIGHT,
    REGULAR,
    SEVEN_PAIRS,
    THIRTEEN_ORPHANS,
    _forms_useful,
    _group_rows,
    _need_all,
    _need_from_rows,
    _regular_useful,
    _special_need,
    group_keys,
    keys_without,
    masks_without,
    regular_need,
    scan_hand,
    shanten_one,
    useful_one,
)
from mjstats.kernels.tables import KEY_MULT
from mjstats.rulesets import Ruleset
from mjstats.rulesets.dispatch import kernel_spec, new_scratch, score_one

__all__ = [
    "BUILTIN_POLICIES",
    "CTX_FAN_PLANS",
    "CTX_FORMS",
    "CTX_MINIMUM",
    "CTX_OPTS",
    "CTX_POLICY",
    "CTX_ROUND",
    "CTX_RULESET",
    "CTX_SEAT",
    "CTX_SIZE",
    "DISCARD_ORDER",
    "DISCARD_SHARE",
    "EFFICIENCY",
    "FAN_AWARE",
    "INFO_NEED",
    "NO_NEED",
    "PLAN_FANS",
    "SHARE_UNIT",
    "W_INFO",
    "builtin_policy",
    "discard_needs",
    "efficiency",
    "fan_aware",
    "hand_need",
    "least_discard_need",
    "mask_copies",
    "new_policy_work",
    "policy_context",
    "score_win",
    "unseen_planes",
]

# ------------------------------------------------------------------ ids and context
EFFICIENCY = 0
FAN_AWARE = 1
BUILTIN_POLICIES = {"efficiency": EFFICIENCY, "fan-aware": FAN_AWARE}
"""Built-in policy name -> id (``ctx[CTX_POLICY]``)."""

CTX_POLICY = 0
CTX_RULESET = 1
CTX_FORMS = 2
CTX_MINIMUM = 3
CTX_SEAT = 4
CTX_ROUND = 5
CTX_OPTS = 6
CTX_FAN_PLANS = 7  # 1: the fan-aware plans are the ruleset's fans (its binding's FAN_PLANS)
PLAN_FANS = (
    "full_flush",
    "half_flush",
    "seven_pairs",
    "thirteen_orphans",
    "lesser_honors_and_knitted_tiles",
    "knitted_straight",
    "all_pungs",
    "three_concealed_pungs",
    "pure_straight",
    "mixed_straight",
    "mixed_triple_chow",
    "mixed_shifted_chows",
    "pure_shifted_chows",
    "dragon_pung",
    "prevalent_wind",
    "seat_wind",
    "two_dragons_pungs",
    "fully_concealed_hand",
    "self_drawn",
    "pung_of_terminals_or_honors",
    "melded_kong",
    "concealed_kong",
    "two_melded_kongs",
    "all_types",
)
"""The fans the fan-aware plans are worth: their points are read from the ruleset's
table into the context (slots from :data:`CTX_VALUES`, in this order) by
:func:`policy_context`, so a profile that changes a fan's points changes what the
policies value. A fan the ruleset does not have is worth 0."""
CTX_VALUES = 8
(
    V_FULL_FLUSH,
    V_HALF_FLUSH,
    V_SEVEN_PAIRS,
    V_ORPHANS,
    V_HONORS_KNITTED,
    V_KNITTED_STRAIGHT,
    V_ALL_PUNGS,
    V_CONCEALED_PUNGS,
    V_PURE_STRAIGHT,
    V_MIXED_STRAIGHT,
    V_MIXED_TRIPLE_CHOW,
    V_MIXED_SHIFTED_CHOWS,
    V_PURE_SHIFTED_CHOWS,
    V_DRAGON_PUNG,
    V_PREVALENT_WIND,
    V_SEAT_WIND,
    V_TWO_DRAGON_PUNGS,
    V_FULLY_CONCEALED,
    V_SELF_DRAWN,
    V_TERMINAL_PUNG,
    V_MELDED_KONG,
    V_CONCEALED_KONG,
    V_TWO_MELDED_KONGS,
    V_ALL_TYPES,
) = range(CTX_VALUES, CTX_VALUES + len(PLAN_FANS))
#: other rulesets' keys of a fan of :data:`PLAN_FANS` (two-player's 双箭刻)
PLAN_FAN_ALIASES = {"two_dragons_pungs": ("two_dragon_pungs",)}
CTX_DISCARD_WINS = CTX_VALUES + len(PLAN_FANS)
"""Opponents whose discards a ready hand may win on, for :func:`legal_outs` (0:
self-drawn wins only, as ``fan-aware`` counts). The planner's own kernels
(:func:`mjstats.games.planner.planner_own`, ``planner_response``) set it from
:data:`CTX_OPPONENTS` on every call, so a user policy around them plays the planner."""
CTX_BASE = CTX_DISCARD_WINS + 1
"""The ruleset's base payment (MCR 8): what a win pays, for :func:`legal_outs`'s value."""
CTX_OPPONENTS = CTX_BASE + 1
"""The ruleset's opponents of a seat (MCR 3, two-player 1)."""
CTX_SIZE = CTX_OPPONENTS + 1

# work tuple slots
W_NEED = 0  # int64 (34,): need after discarding each tile (NO_NEED where not held)
W_AUX = 1  # int64 (34,): free per-tile scratch
W_INFO = 2  # int64 (8,): [INFO_NEED] need of the hand left by the policy, -1 unknown
W_SCORE = 3  # scorer scratch (tuple, see mjstats.rulesets.mcr.kernel.new_work)
W_FANS = 4  # uint8 (n_fans,): fan counts of the last scored hand
W_TARGET = 5  # int64 (MAX_TARGETS, 4): fan-aware targets
W_TMP = 6  # uint8 (34,): scratch hand
W_MEMO = 7  # int64 (MEMO_SIZE,): the look-ahead's memo of ready hands (see _best_ready)
INFO_NEED = 0

MEMO_PUNG = 34
"""First of the memo's slots for the hands that pung a discard ``u``: ``MEMO_PUNG + u``
(slots ``0 .. 33`` hold the hands that draw ``u``)."""
MEMO_GEN = (MEMO_PUNG + 34) * 34 * 34
"""Index in ``W_MEMO`` of its generation; entry ``(slot * 34 + a) * 34 + b`` holds
``generation << 32 | value`` (valid in its generation only; a ready hand's value,
copies x payment, stays far below 2**32): see :func:`_best_ready`."""
WIN_CACHE = MEMO_GEN + 1
"""Index in ``W_MEMO`` of the cache of scored wins (:func:`legal_outs`): after the
look-ahead's memo, :data:`WIN_CACHE_SLOTS` entries of two values, a key and the scores."""
WIN_CACHE_SLOTS = 1 << 14
"""Entries of the cache of scored wins: a thread's ready hands recur from one
decision to the next (the hand changes by a tile a turn), so about two in three of
the look-ahead's scorings are found here (planner games; docs/games.md has the
measurement)."""
_WAITS_SALT = 0x5741495453  # a hand's waits are kept under its key with this mixed in
MEMO_SIZE = WIN_CACHE + 2 * WIN_CACHE_SLOTS

NO_NEED = 128
"""Need reported where a discard is impossible (tile not held) or no form is reachable."""

MAX_TARGETS = 400

_HONORS = np.int64(0x7F << 27)


def _discard_order() -> np.ndarray:
    order = np.zeros(34, dtype=np.int64)
    for t in range(34):
        if t >= 27:
            rank = 0
        elif t % 9 in (0, 8):
            rank = 1
        elif t % 9 in (1, 7):
            rank = 2
        else:
            rank = 3
        order[t] = rank * 64 + t
    order = read_only(order)
    return order


DISCARD_ORDER = _discard_order()
"""int64 (34,): tie-break among equally good discards, lowest first (honours,
terminals, 2/8, 3-7; then tile id)."""

SHARE_UNIT = 100
"""The units of :data:`DISCARD_SHARE`: the discards of the mean kind, and so the
weight of a copy the hand draws itself."""

DISCARD_SHARE = read_only(
    np.array([113, 97, 77, 72, 69, 69, 73, 97, 113] * 3 + [155] * 4 + [149] * 3), np.int64
)
"""int64 (34,): how often each kind of tile is discarded, per :data:`SHARE_UNIT`
discards of the mean kind, in the planner's own games (20,000 on the Botzone wall,
seed 11, each rank pooled over the three suits, the winds and the dragons pooled:
``discard_shares(play_games(20_000, seed=11, policy="planner", wall="botzone",
keep_log=True)[3])``, :func:`mjstats.games.stats.discard_shares`; a test keeps the
table within 6 of a new measurement). The planner without the table gives the same
within 3, ``fan-aware``'s games within 7. Nobody keeps a tile
nobody needs: an honour comes out 2.2 times as often as a 5. The planner weighs each
copy of a wait that its win on a discard takes by it (:func:`legal_outs`,
:func:`_legal_ready_draws`)."""


# ------------------------------------------------------------------ small helpers
@ijit
def unseen_planes(unseen):
    """Bit planes of unseen copies (0-7 each): masks ``(ones, twos, fours)``, bit t of
    ``ones`` set when ``unseen[t]`` is odd, and so on, for :func:`mask_copies`."""
    ones = np.int64(0)
    twos = np.int64(0)
    fours = np.int64(0)
    for t in range(34):  # no branch: LLVM makes it vector code
        u = unseen[t]
        ones |= (u & 1) << t
        twos |= ((u >> 1) & 1) << t
        fours |= ((u >> 2) & 1) << t
    return ones, twos, fours


@ijit
def mask_copies(mask, ones, twos, fours):
    """Unseen copies of the tiles of a 34-bit mask, ``sum(unseen[t] for t in mask)``,
    from the bit planes of :func:`unseen_planes` (three popcounts, no loop).

    Examples
    --------
    >>> import numpy as np
    >>> int(mask_copies(0b101, *unseen_planes(np.array([3, 4, 2] + [4] * 31))))
    5"""
    return popcount(mask & ones) + 2 * popcount(mask & twos) + 4 * popcount(mask & fours)


@ijit
def hand_need(counts, n_melds, forms, tab):
    """Need (shanten + 1) of one hand over the forms in ``forms``; :data:`NO_NEED` if none fits.

    The need of a hand is the number of tiles it must still draw (and discard)
    to be complete: 0 for a complete 3k+2 hand, 1 for a ready 3k+1 hand. A hand
    with fewer tiles (other kinds set aside) gets the need of its best
    completion, the set-aside tiles counting as discards.

    Examples
    --------
    >>> from mjstats.kernels.shanten import ALL_FORMS
    >>> from mjstats.kernels.tables import get_tables
    >>> from mjstats.tiles import parse_tiles
    >>> int(hand_need(parse_tiles("123m456p789s1133z"), 0, ALL_FORMS, get_tables()))  # ready
    1
    """
    return np.int64(shanten_one(counts, n_melds, forms, tab)) + 1


@hjit
def discard_needs(counts, n_melds, forms, tab, out):
    """Need after discarding each tile of a 3k+2 hand; returns the smallest.

    ``out[t]`` (int64 (34,)) receives the need (shanten + 1, minimum over the
    forms of ``forms``) of the hand without one ``t``, or :data:`NO_NEED` where
    ``t`` is not held.

    Examples
    --------
    >>> import numpy as np
    >>> from mjstats.kernels.tables import get_tables
    >>> from mjstats.tiles import TILES, parse_tiles
    >>> out = np.zeros(34, np.int64)
    >>> int(discard_needs(parse_tiles("123m456p789s11334z"), 0, 31, get_tables(), out))
    1
    >>> [TILES[t] for t in np.flatnonzero(out == 1)]  # discards that keep the hand ready
    ['4z']
    """
    return _discard_scan(counts, n_melds, forms, tab, out, -1)


@hjit
def least_discard_need(counts, n_melds, forms, tab, out, floor):
    """The smallest need after one discard of a 3k+2 hand (what :func:`discard_needs`
    returns), the scan stopping at the first discard that reaches ``floor``, a need
    the caller knows no discard goes below; ``out`` as in :func:`discard_needs` up
    to the tile where the scan stopped.

    Examples
    --------
    >>> import numpy as np
    >>> from mjstats.kernels.tables import get_tables
    >>> from mjstats.tiles import parse_tiles
    >>> hand, out = parse_tiles("123m456p789s11334z"), np.zeros(34, np.int64)
    >>> int(least_discard_need(hand, 0, 31, get_tables(), out, 1))
    1
    """
    return _discard_scan(counts, n_melds, forms, tab, out, floor)


@ijit
def _discard_scan(counts, n_melds, forms, tab, out, floor):
    """The discard loop of :func:`discard_needs`, stopping once a need is ``floor``."""
    # the group keys once; a discard lowers one key by its tile's multiplier
    # (the need is then what hand_need gives for the hand without that tile)
    km, kp, ks, kz = group_keys(counts)
    sr, hr, hv = tab.suit_rows, tab.honor_rows, tab.honor_vecs
    ss, sh, fin = tab.suit_suit, tab.suit_honor, tab.final
    # The special forms' need for the whole hand is a floor for every discard (a
    # discard never brings a form closer): a discard whose regular need is at most
    # that floor has it as its need, and only the others solve the special forms.
    special = forms & ~REGULAR
    floor_special = NO_NEED
    if special and n_melds <= 1:
        floor_special = _need_all(km, kp, ks, kz, n_melds, special, sr, hr, ss, sh, fin, hv)
    best = NO_NEED
    honors = np.int64(0)  # byte c: 1 + the need after discarding an honour held c times
    for t in range(34):
        c = np.int64(counts[t])
        if c == 0:
            out[t] = NO_NEED
            continue
        known = (honors >> (8 * c)) & 255 if t >= 27 else 0
        if known:  # honours are interchangeable in every form: same count, same need
            need = known - 1
        else:
            m0, m1, m2, m3 = keys_without(t, km, kp, ks, kz)
            need = _need_all(m0, m1, m2, m3, n_melds, forms & REGULAR, sr, hr, ss, sh, fin, hv)
            if need > floor_special:
                need = _need_all(m0, m1, m2, m3, n_melds, forms, sr, hr, ss, sh, fin, hv)
            if t >= 27:
                honors |= (need + 1) << (8 * c)
        out[t] = need
        best = min(best, need)
        if best <= floor:
            break
    return best


# ------------------------------------------------------------------ scoring dispatch
@ijit
def score_win(ctx, counts, melds, win_tile, last_of_kind, last_of_wall, work):
    """Score a self-drawn win (no flowers) with :func:`mjstats.rulesets.dispatch.score_one`.

    Returns ``(total, form, legal)``; total is -1 when the hand is not
    complete. Fan counts go to ``work[W_FANS]``.
    """
    return score_win_by(ctx, counts, melds, win_tile, True, last_of_kind, last_of_wall, work)


@hjit  # not inlined: inlining it into score_win (inlined itself) trips numba's IR checks
def score_win_by(ctx, counts, melds, win_tile, self_drawn, last_of_kind, last_of_wall, work):
    """:func:`score_win` of a self-drawn win or (``self_drawn`` False) a win on a discard."""
    total, _, form, legal = score_one(
        ctx[CTX_RULESET], ctx[CTX_OPTS], ctx[CTX_MINIMUM], False, counts, melds, win_tile,
        self_drawn, last_of_kind, False, last_of_wall, ctx[CTX_SEAT], ctx[CTX_ROUND], 0, 0,
        work[W_SCORE], work[W_FANS],
    )  # fmt: skip
    return total, form, legal


@jit
def new_policy_work(n_fans, suits):
    """Scratch for a policy and the game: a tuple, one per thread, reused across games.

    Slots: ``W_NEED`` int64 (34,) per-discard needs; ``W_AUX`` int64 (34,) free;
    ``W_INFO`` int64 (8,) (``INFO_NEED``: the need of the hand the policy
    leaves, or -1); ``W_SCORE`` scorer scratch; ``W_FANS`` uint8 (n_fans,) the
    fans of the last scored hand; ``W_TARGET`` int64 (MAX_TARGETS, 4) for the
    fan-aware targets; ``W_TMP`` uint8 (34,) a scratch hand; ``W_MEMO`` int64
    (:data:`MEMO_SIZE`,) the look-ahead's memo (:func:`new_memo_generation`) and the
    cache of scored wins (:data:`WIN_CACHE`). User policies
    may use ``W_NEED``, ``W_AUX``, ``W_TARGET`` and ``W_TMP`` freely. ``suits``
    is :func:`mjstats.kernels.decompose.suit_table` (for the scorer).
    """
    return (
        np.zeros(34, np.int64),
        np.zeros(34, np.int64),
        np.full(8, -1, np.int64),
        new_scratch(suits),
        np.zeros(n_fans, np.uint8),
        np.zeros((MAX_TARGETS, 4), np.int64),
        np.zeros(34, np.uint8),
        np.zeros(MEMO_SIZE, np.int64),
    )


# ------------------------------------------------------------------ efficiency
@ijit
def _swap_bits(mask, a, b):
    """``mask`` with bits ``a`` and ``b`` exchanged."""
    d = ((mask >> a) ^ (mask >> b)) & 1
    return mask ^ ((d << a) | (d << b))


@ijit
def _tuple_set(values, i, v):
    """The 4-tuple ``values`` with entry ``i`` set to ``v``."""
    return (
        v if i == 0 else values[0],
        v if i == 1 else values[1],
        v if i == 2 else values[2],
        v if i == 3 else values[3],
    )


@ijit
def _live_forms(km, kp, ks, kz, n_melds, forms, target, tab):
    """The forms of ``forms`` whose need for the whole 3k+2 hand (group keys) is
    at most ``target``.

    A form above the target for the whole hand stays above it after any discard
    (the hand could make that discard), so it gives no discard of need ``target``
    a useful tile: :func:`_most_useful` solves the candidates for the live forms
    only (mostly the regular one; the special forms are the costly part)."""
    rm, rp, rs, rz = _group_rows(km, kp, ks, kz, tab)
    live = 0
    if forms & REGULAR:
        ss, sh, fin = tab.suit_suit, tab.suit_honor, tab.final
        if _need_from_rows(rm, rp, rs, rz, 4 - n_melds, ss, sh, fin) <= target:
            live = REGULAR
    if n_melds <= 1:
        iz = rz & 0xFF
        hv = tab.honor_vecs
        z1, z2, z3 = np.int64(hv[iz, 1]), np.int64(hv[iz, 2]), np.int64(hv[iz, 3])
        form = SEVEN_PAIRS
        while form <= forms:
            # bound target + 1: the special form is solved only as far as it can beat it
            if forms & form:
                if _special_need(target + 1, rm, rp, rs, rz, z1, z2, z3, n_melds, form) <= target:
                    live |= form
            form <<= 1
    return live


@hjit
def _most_useful(counts, n_melds, forms, tab, unseen, need, target):
    """Among held tiles ``t`` with ``need[t] == target``, the discard leaving the most
    unseen useful copies (ties: :data:`DISCARD_ORDER`). Returns ``(tile, copies)``."""
    # the hand scanned once; each candidate's keys and masks follow from it
    # (useful_one of the hand without t, as shanten.discard_one works)
    km, kp, ks, kz, eq1, eq2, eq3, eq4 = scan_hand(counts)
    live = _live_forms(km, kp, ks, kz, n_melds, forms, target, tab)
    ones, twos, fours = unseen_planes(unseen)
    # Honours are interchangeable in every form, so the hand without honour t is
    # the hand without an honour h held as often with t and h swapped: its useful
    # tiles are h's with bits t and h swapped. rep: byte c = 1 + the first honour
    # held c times that was solved, its mask in like[c - 1].
    rep = np.int64(0)
    like = (np.int64(0), np.int64(0), np.int64(0), np.int64(0))
    choice = -1
    best_copies = -1
    for t in range(34):
        if need[t] != target:
            continue
        c = np.int64(counts[t])
        h = (rep >> (8 * c)) & 255 if t >= 27 else 0
        if h:
            mask = _swap_bits(like[c - 1], h - 1, t)
        else:
            m0, m1, m2, m3 = keys_without(t, km, kp, ks, kz)
            if live == REGULAR:  # the count masks serve the special forms only
                _, mask = _regular_useful(m0, m1, m2, m3, 4 - n_melds, tab)
            else:
                _, e1, e2, e3, e4 = masks_without(t, eq1, eq2, eq3, eq4)
                _, mask = _forms_useful(m0, m1, m2, m3, e1, e2, e3, e4, n_melds, live, tab)
            if t >= 27:
                rep |= (t + 1) << (8 * c)
                like = _tuple_set(like, c - 1, mask)
        copies = mask_copies(mask, ones, twos, fours)
        if copies > best_copies or (
            copies == best_copies and DISCARD_ORDER[t] < DISCARD_ORDER[choice]
        ):
            best_copies = copies
            choice = t
    return choice, best_copies


@ijit
def efficiency(counts, melds, n_melds, drawn, unseen, draws_left, ctx, tab, work):
    """Tile efficiency: fewest shanten, then most unseen useful copies, then :data:`DISCARD_ORDER`.

    Useful copies of a candidate are the unseen copies of the tiles that lower
    its shanten (any form of the ruleset). Blind to fans: it declares a win
    only when the completed hand happens to be legal.

    Examples
    --------
    >>> import numpy as np
    >>> from mjstats.kernels.tables import get_tables
    >>> from mjstats.kernels.decompose import suit_table
    >>> from mjstats.rules import get_ruleset
    >>> from mjstats.games.discard_policies import policy_context
    >>> from mjstats.tiles import TILES, parse_tiles
    >>> hand = parse_tiles("2367m3345p1568s16z")
    >>> ctx, work = policy_context(get_ruleset("mcr"), 0), new_policy_work(82, suit_table())
    >>> unseen = (4 - hand).astype(np.int64)
    >>> melds = np.zeros((4, 2), np.uint8)
    >>> TILES[efficiency(hand, melds, 0, 33, unseen, 10, ctx, get_tables(), work)]
    '1z'

    (1z and 6z are equally good isolated honours; :data:`DISCARD_ORDER` takes the
    lower tile id.)
    """
    need = work[W_NEED]
    forms = ctx[CTX_FORMS]
    best = discard_needs(counts, n_melds, forms, tab, need)
    n_best = 0
    only = -1
    for t in range(34):
        if need[t] == best:
            n_best += 1
            only = t
    if n_best == 1:
        choice = only
    else:
        choice, _ = _most_useful(counts, n_melds, forms, tab, unseen, need, best)
    work[W_INFO][INFO_NEED] = best
    return choice


# ------------------------------------------------------------------ fan-aware
# target kinds (column 0 of the target table); column 1 = parameter, 2 = need, 3 = value
T_PLAIN = 0  # any complete hand (need + 1: not sure to be legal)
T_FULL_FLUSH = 1  # param: suit
T_HALF_FLUSH = 2  # param: suit
T_SEVEN_PAIRS = 3
T_ORPHANS = 4
T_HONORS_KNITTED = 5
T_KNITTED_STRAIGHT = 6
T_ALL_PUNGS = 7
T_CONCEALED_PUNGS = 8  # three concealed pungs + a set + a pair (三暗刻)
T_CHOWS = 9  # param: row of _BODIES (three fixed chows + a set + a pair)
T_HONOR_PUNGS = 10  # param: mask of honour kinds (bit h = tile 27 + h) that must be pungs
T_ALL_TYPES = 11  # 五门齐 (the planner's plans, mjstats.games.plans)
T_HALF_FLUSH_PUNGS = 12  # param: suit; 混一色 + 碰碰和 (the planner's plans)


def _bodies() -> np.ndarray:
    """Chow bodies worth a fan by themselves: rows ``(chow1, chow2, chow3, value slot)``.

    Chows are given by their lowest tile; the value slot is the context slot of the
    fan's points: 清龙 pure straight, 花龙 mixed straight, 三色三同顺 mixed triple
    chow, 三色三步高 mixed shifted chows, 一色三步高 pure shifted chows.
    """
    perms = ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))
    rows = []
    for s in range(3):
        rows.append((9 * s, 9 * s + 3, 9 * s + 6, V_PURE_STRAIGHT))
    for a, b, c in perms:
        rows.append((9 * a, 9 * b + 3, 9 * c + 6, V_MIXED_STRAIGHT))
    for r in range(7):
        rows.append((r, 9 + r, 18 + r, V_MIXED_TRIPLE_CHOW))
    for r in range(5):
        for a, b, c in perms:
            rows.append((9 * a + r, 9 * b + r + 1, 9 * c + r + 2, V_MIXED_SHIFTED_CHOWS))
    for s in range(3):
        for step in (1, 2):
            for r in range(9 - 2 - 2 * step):
                chows = (9 * s + r, 9 * s + r + step, 9 * s + r + 2 * step)
                rows.append((*chows, V_PURE_SHIFTED_CHOWS))
    return read_only(rows, np.int64)


_BODIES = _bodies()


@ijit
def _meld_tiles_in(melds, n_melds, allowed):
    """True when every meld's tiles lie in the 34-bit mask ``allowed``."""
    for i in range(n_melds):
        k = melds[i, 0]
        t = np.int64(melds[i, 1])
        span = 3 if k == 1 else 1
        for j in range(span):
            if not (allowed >> (t + j)) & 1:
                return False
    return True


@hjit
def _flush_need(counts, melds, n_melds, suit, half, tab, tmp):
    """Need of a full flush (``half`` False) or half flush (suit + honours) in ``suit``.

    The hand is cut to the allowed tiles (the rest are discards to come) and
    solved as a regular hand.
    """
    allowed = np.int64(0x1FF) << (9 * suit)
    if half:
        allowed |= _HONORS
    if not _meld_tiles_in(melds, n_melds, allowed):
        return NO_NEED
    for t in range(34):
        tmp[t] = counts[t] if (allowed >> t) & 1 else 0
    return hand_need(tmp, n_melds, REGULAR, tab)


ALL_KINDS = np.int64((1 << 34) - 1)


@hjit
def all_pungs_need(counts, unseen, n_pungs, tmp, allowed):
    """Need of ``n_pungs`` pungs + a pair (碰碰和) among the kinds of the 34-bit mask
    ``allowed`` (the other held tiles are discards to come), solved exactly by a
    small selection over the kinds; :data:`NO_NEED` when too few kinds have the
    copies left (held + unseen: 3 for a pung, 2 for the pair). ``tmp``: uint8
    scratch of 10 or more."""
    # best[k, p]: most held tiles covered by k pungs and p pairs among the kinds
    # seen so far, kept plus one in tmp[2k + p] (0: none; no allocation per call)
    for i in range(10):
        tmp[i] = 0
    tmp[0] = 1
    for t in range(34):
        c = np.int64(counts[t])
        can2 = c + unseen[t] >= 2
        if not can2 or not (allowed >> t) & 1:
            continue
        can3 = c + unseen[t] >= 3
        for k in range(n_pungs, -1, -1):
            for p in range(1, -1, -1):
                cur = np.int64(tmp[2 * k + p]) - 1
                if k > 0 and can3 and tmp[2 * k - 2 + p] > 0:
                    cur = max(cur, np.int64(tmp[2 * k - 2 + p]) - 1 + min(c, 3))
                if p > 0 and can2 and tmp[2 * k] > 0:
                    cur = max(cur, np.int64(tmp[2 * k]) - 1 + min(c, 2))
                tmp[2 * k + p] = cur + 1
    top = np.int64(tmp[2 * n_pungs + 1]) - 1
    if top < 0:
        return NO_NEED
    return 3 * n_pungs + 2 - top


@hjit
def _pungs_need(counts, unseen, n_pungs, tab, tmp, all_pungs):
    """Need of ``n_pungs`` pungs + the remaining sets + a pair.

    ``all_pungs``: every set a pung (碰碰和), solved exactly by a small selection
    over the held kinds (``n_pungs`` = 4 - melds). Otherwise (三暗刻, no melds)
    the ``n_pungs`` kinds with the most copies become pungs and the rest (one
    set and a pair) is solved as a regular hand: a plan, an upper bound of the
    exact need. A kind with fewer than 3 copies left cannot become a pung.
    """
    if all_pungs:
        return all_pungs_need(counts, unseen, n_pungs, tmp, ALL_KINDS)
    for t in range(34):
        tmp[t] = counts[t]
    missing = 0
    used = np.int64(0)
    for _ in range(n_pungs):
        pick = -1
        pc = -1
        for t in range(34):
            c = np.int64(counts[t])
            if (used >> t) & 1 or c + unseen[t] < 3:
                continue
            if min(c, 3) > pc:
                pc = min(c, 3)
                pick = t
        if pick < 0:
            return NO_NEED
        used |= np.int64(1) << pick
        missing += 3 - pc
        tmp[pick] -= pc
    return missing + hand_need(tmp, n_pungs, REGULAR, tab)


def _rank_keys() -> np.ndarray:
    """int64 (512,): entry ``m`` is the group key of one copy of each rank in the
    9-bit mask ``m`` (the sum of :data:`KEY_MULT` over its ranks), to take a set of
    tiles out of a key."""
    bits = (np.arange(512)[:, None] >> np.arange(9)) & 1
    return read_only(bits @ KEY_MULT[:9].astype(np.int64))


_RANK_KEYS = _rank_keys()


@ijit
def _minus_ranks(km, kp, ks, mask):
    """The suit keys without one copy of each tile of the 34-bit ``mask`` (suit tiles only)."""
    return (
        km - _RANK_KEYS[mask & 0x1FF],
        kp - _RANK_KEYS[(mask >> 9) & 0x1FF],
        ks - _RANK_KEYS[(mask >> 18) & 0x1FF],
    )


@ijit
def _chow_hand(counts):
    """What :func:`_chows_need` reads of a hand: its group keys and the masks of the
    kinds held at least once, twice and three times."""
    km, kp, ks, kz, eq1, eq2, eq3, eq4 = scan_hand(counts)
    h3 = eq3 | eq4
    h2 = eq2 | h3
    return (km, kp, ks, kz), (eq1 | h2, h2, h3)


# inlined: called for each of the seventy-odd bodies, most pruned after a few
# instructions, where passing the shanten tables (16 arrays) would cost more
@ijit
def _chows_need(keys, held, melds, n_melds, b, bound, tab):
    """Need of chow body ``b`` (three chows) + the remaining sets + a pair; >= ``bound`` if pruned.

    ``keys``, ``held``: the hand as :func:`_chow_hand` gives it. A melded chow
    equal to a body chow serves it; any other meld takes the place of the free
    set. Held body tiles are set aside for the body, the missing ones counted,
    and the rest solved as a regular hand.
    """
    matched = 0
    others = 0
    for i in range(n_melds):
        k = melds[i, 0]
        t = np.int64(melds[i, 1])
        hit = False
        for j in range(3):
            if k == 1 and t == _BODIES[b, j] and not (matched >> j) & 1:
                matched |= 1 << j
                hit = True
                break
        if not hit:
            others += 1
    if others > 1:
        return NO_NEED
    # bit t of m_k: tile t is in k or more of the open chows (a tile is in at most
    # three); tile t is then missing max(0, chows holding it - copies held) times,
    # counted with three popcounts, and most bodies are pruned by that alone
    m1 = np.int64(0)
    m2 = np.int64(0)
    m3 = np.int64(0)
    n_open = 0
    for j in range(3):
        if (matched >> j) & 1:
            continue
        n_open += 1
        chow = np.int64(7) << _BODIES[b, j]
        m3 |= m2 & chow
        m2 |= m1 & chow
        m1 |= chow
    h1, h2, h3 = held
    missing = popcount(m1 & ~h1) + popcount(m2 & ~h2) + popcount(m3 & ~h3)
    if missing >= bound:
        return bound
    # the held copies go to the body: one copy of t for each k with t in m_k and h_k
    km, kp, ks, kz = keys
    km, kp, ks = _minus_ranks(km, kp, ks, m1 & h1)
    km, kp, ks = _minus_ranks(km, kp, ks, m2 & h2)
    km, kp, ks = _minus_ranks(km, kp, ks, m3 & h3)
    return missing + regular_need(km, kp, ks, kz, 4 - n_melds - n_open, tab)


@hjit
def _honor_pungs_need(counts, melds, n_melds, unseen, hmask, tab, tmp):
    """Need of pungs of the honour kinds in ``hmask`` + the remaining sets + a pair."""
    met = 0
    for i in range(n_melds):
        k = melds[i, 0]
        t = np.int64(melds[i, 1])
        if k >= 2 and t >= 27 and (hmask >> (t - 27)) & 1:
            met |= 1 << (t - 27)
    for t in range(34):
        tmp[t] = counts[t]
    missing = 0
    n_open = 0
    for h in range(7):
        if not (hmask >> h) & 1 or (met >> h) & 1:
            continue
        t = 27 + h
        c = np.int64(counts[t])
        if c + unseen[t] < 3:
            return NO_NEED
        take = min(c, 3)
        missing += 3 - take
        tmp[t] -= take
        n_open += 1
    if n_melds + n_open > 4:
        return NO_NEED
    return missing + hand_need(tmp, n_melds + n_open, REGULAR, tab)


@ijit
def _honor_value(h, ctx):
    """Points of a pung of honour ``h`` (0-6 = E S W N white green red): 箭刻, or
    门风刻 + 圈风刻 for the seat's and the round's wind."""
    if h >= 4:
        return ctx[V_DRAGON_PUNG]
    seat_wind = ctx[V_SEAT_WIND] if h == ctx[CTX_SEAT] else 0
    return seat_wind + (ctx[V_PREVALENT_WIND] if h == ctx[CTX_ROUND] else 0)


@hjit
def _target_need(kind, param, counts, melds, n_melds, unseen, forms, bound, tab, tmp):
    if kind == T_PLAIN:
        return hand_need(counts, n_melds, forms, tab) + 1
    if kind == T_FULL_FLUSH:
        return _flush_need(counts, melds, n_melds, param, False, tab, tmp)
    if kind == T_HALF_FLUSH:
        return _flush_need(counts, melds, n_melds, param, True, tab, tmp)
    if kind == T_SEVEN_PAIRS:
        return hand_need(counts, n_melds, SEVEN_PAIRS, tab)
    if kind == T_ORPHANS:
        return hand_need(counts, n_melds, THIRTEEN_ORPHANS, tab)
    if kind == T_HONORS_KNITTED:
        return hand_need(counts, n_melds, HONORS_KNITTED, tab)
    if kind == T_KNITTED_STRAIGHT:
        return hand_need(counts, n_melds, KNITTED_STRAIGHT, tab)
    if kind == T_ALL_PUNGS:
        return _pungs_need(counts, unseen, 4 - n_melds, tab, tmp, True)
    if kind == T_CONCEALED_PUNGS:
        return _pungs_need(counts, unseen, 3, tab, tmp, False)
    if kind == T_CHOWS:
        keys, held = _chow_hand(counts)
        return _chows_need(keys, held, melds, n_melds, param, bound, tab)
    if kind == T_HONOR_PUNGS:
        return _honor_pungs_need(counts, melds, n_melds, unseen, param, tab, tmp)
    return NO_NEED


@ijit
def _add_target(targets, n, kind, param, need, value):
    if n < targets.shape[0]:
        targets[n, 0] = kind
        targets[n, 1] = param
        targets[n, 2] = need
        targets[n, 3] = value
        n += 1
    return n


@hjit
def _collect_targets(counts, melds, n_melds, unseen, ctx, tab, plain_need, targets, work, first):
    """Fill ``targets`` with the fan targets that guarantee a legal win; returns (count, best need).

    The targets of ``fan-aware``: :func:`collect_targets_beside` with nothing
    counted beside them (each target reaches the minimum on its own)."""
    return collect_targets_beside(
        counts, melds, n_melds, unseen, ctx, tab, plain_need, targets, work, first, 0, 0
    )


@hjit
def collect_targets_beside(
    counts, melds, n_melds, unseen, ctx, tab, plain_need, targets, work, first, fixed, honours,
    slack=0,
):  # fmt: skip
    """Fill ``targets`` with the fan targets that, with ``fixed`` fans sure beside
    them, guarantee a legal win; returns (count, best need).

    ``fixed``: fans every completion scores anyway (the planner counts those of the
    melds, :func:`mjstats.games.plans.meld_fans`); ``honours``: the honour kinds
    (bit h = tile 27 + h) whose pungs are already in ``fixed`` (no honour target
    counts them again). With ``fixed`` and the base reaching the minimum, the
    plain hand (row 0) is a sure plan at the plain need itself.

    A target is kept when its fan value plus the base of every solitaire win
    reaches the minimum: 不求人 for a hand without exposed melds, 自摸 otherwise
    (all wins are self-drawn; points from the context, :data:`PLAN_FANS`).
    Targets whose need cannot reach the best are dropped early (their exact
    need is not computed); with ``slack`` those up to ``slack`` draws farther than
    the best are kept too (the planner's discard weighs them). With ``first`` it
    returns at the first target found (count 2): callers asking only whether any
    target is reachable skip the other seventy-odd plans.
    """
    forms = ctx[CTX_FORMS]
    minimum = ctx[CTX_MINIMUM]
    exposed = 0
    pungs_only = True
    for i in range(n_melds):
        if melds[i, 0] != 4:
            exposed += 1
        if melds[i, 0] == 1:
            pungs_only = False
    base = ctx[V_FULLY_CONCEALED] if exposed == 0 else ctx[V_SELF_DRAWN]  # 不求人, 自摸
    base += fixed
    tmp = work[W_TMP]
    n = 0
    sure = base >= minimum
    best = plain_need if sure else plain_need + 1
    n = _add_target(targets, n, T_PLAIN, int(sure), best, fixed)  # param 1: a sure plan
    for s in range(3):
        if ctx[V_FULL_FLUSH] + base >= minimum:
            need = _flush_need(counts, melds, n_melds, s, False, tab, tmp)
            if need <= best + slack:
                n = _add_target(targets, n, T_FULL_FLUSH, s, need, ctx[V_FULL_FLUSH])
                if first:
                    return n, best
                best = min(best, need)
        if ctx[V_HALF_FLUSH] + base >= minimum:
            need = _flush_need(counts, melds, n_melds, s, True, tab, tmp)
            if need <= best + slack:
                n = _add_target(targets, n, T_HALF_FLUSH, s, need, ctx[V_HALF_FLUSH])
                if first:
                    return n, best
                best = min(best, need)
    if n_melds == 0:
        if forms & SEVEN_PAIRS and ctx[V_SEVEN_PAIRS] + base >= minimum:
            need = hand_need(counts, 0, SEVEN_PAIRS, tab)
            if need <= best + slack:
                n = _add_target(targets, n, T_SEVEN_PAIRS, 0, need, ctx[V_SEVEN_PAIRS])
                if first:
                    return n, best
                best = min(best, need)
        if forms & THIRTEEN_ORPHANS:
            need = hand_need(counts, 0, THIRTEEN_ORPHANS, tab)
            if need <= best + slack:
                n = _add_target(targets, n, T_ORPHANS, 0, need, ctx[V_ORPHANS])
                if first:
                    return n, best
                best = min(best, need)
        if forms & HONORS_KNITTED and ctx[V_HONORS_KNITTED] + base >= minimum:
            need = hand_need(counts, 0, HONORS_KNITTED, tab)
            if need <= best + slack:
                n = _add_target(targets, n, T_HONORS_KNITTED, 0, need, ctx[V_HONORS_KNITTED])
                if first:
                    return n, best
                best = min(best, need)
        if forms & REGULAR and ctx[V_CONCEALED_PUNGS] + base >= minimum:
            need = _pungs_need(counts, unseen, 3, tab, tmp, False)
            if need <= best + slack:
                n = _add_target(targets, n, T_CONCEALED_PUNGS, 0, need, ctx[V_CONCEALED_PUNGS])
                if first:
                    return n, best
                best = min(best, need)
    if n_melds <= 1 and forms & KNITTED_STRAIGHT and ctx[V_KNITTED_STRAIGHT] + base >= minimum:
        need = hand_need(counts, n_melds, KNITTED_STRAIGHT, tab)
        if need <= best + slack:
            n = _add_target(targets, n, T_KNITTED_STRAIGHT, 0, need, ctx[V_KNITTED_STRAIGHT])
            if first:
                return n, best
            best = min(best, need)
    if not (forms & REGULAR):
        return n, best
    if pungs_only and ctx[V_ALL_PUNGS] + base >= minimum:
        need = _pungs_need(counts, unseen, 4 - n_melds, tab, tmp, True)
        if need <= best + slack:
            n = _add_target(targets, n, T_ALL_PUNGS, 0, need, ctx[V_ALL_PUNGS])
            if first:
                return n, best
            best = min(best, need)
    keys, held = _chow_hand(counts)
    for b in range(_BODIES.shape[0]):
        if ctx[_BODIES[b, 3]] + base < minimum:
            continue
        need = _chows_need(keys, held, melds, n_melds, b, best + 1 + slack, tab)
        if need <= best + slack:
            n = _add_target(targets, n, T_CHOWS, b, need, ctx[_BODIES[b, 3]])
            if first:
                return n, best
            best = min(best, need)
    # honour pungs: single kinds, and pairs of kinds neither of which is enough alone
    for h1 in range(7):
        if (honours >> h1) & 1:
            continue
        v1 = _honor_value(h1, ctx)
        if v1 + base >= minimum:
            need = _honor_pungs_need(counts, melds, n_melds, unseen, 1 << h1, tab, tmp)
            if need <= best + slack:
                n = _add_target(targets, n, T_HONOR_PUNGS, 1 << h1, need, v1)
                if first:
                    return n, best
                best = min(best, need)
            continue
        for h2 in range(h1 + 1, 7):
            if (honours >> h2) & 1:
                continue
            v2 = _honor_value(h2, ctx)
            if v2 + base >= minimum:
                continue
            v = ctx[V_TWO_DRAGON_PUNGS] if h1 >= 4 and h2 >= 4 else v1 + v2  # 双箭刻
            if v + base >= minimum:
                hm = (1 << h1) | (1 << h2)
                need = _honor_pungs_need(counts, melds, n_melds, unseen, hm, tab, tmp)
                if need <= best + slack:
                    n = _add_target(targets, n, T_HONOR_PUNGS, hm, need, v)
                    if first:
                        return n, best
                    best = min(best, need)
    return n, best


@ijit
def _mix(h):
    """splitmix64's finaliser: every bit of ``h`` (uint64) moves every bit of the result."""
    h = (h ^ (h >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    h = (h ^ (h >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return h ^ (h >> np.uint64(31))


@ijit
def _win_key(counts, melds, n_melds, ctx):
    """A 64-bit key of what the scorer reads of a hand of 3k+1 tiles besides its
    winning tile (the concealed counts, the melds, and the context's ruleset, options,
    minimum and winds: :func:`score_win_by`), and of the forms its waits are found in."""
    low = np.uint64(0)
    high = np.uint64(0)
    for t in range(17):  # a count takes 3 bits: 17 of them in each word
        low = (low << np.uint64(3)) | np.uint64(counts[t])
        high = (high << np.uint64(3)) | np.uint64(counts[17 + t])
    h = _mix(low ^ _mix(high ^ np.uint64(n_melds)))
    for m in range(4):  # the scorer reads every row (those past n_melds empty)
        h = _mix(h ^ np.uint64((melds[m, 0] * 64 + melds[m, 1] + 1) * 4 + m))
    for i in (CTX_RULESET, CTX_OPTS, CTX_MINIMUM, CTX_SEAT, CTX_ROUND, CTX_FORMS):
        h = _mix(h ^ np.uint64(ctx[i]))
    return h


@ijit
def _cache_slot(k):
    """The cache entry of key ``k`` (made nonzero: 0 marks an empty entry)."""
    return k | np.uint64(1), WIN_CACHE + 2 * np.int64(k & np.uint64(WIN_CACHE_SLOTS - 1))


@ijit
def _cached_win(key, w, last, ctx, counts, melds, n_melds, d, work):
    """The scores of the win of ``counts`` (``w`` added) on ``w``: ``(self-drawn total,
    its legality, total on a discard, its legality)``, the latter two only with ``d``
    (0, False otherwise); looked up in, or scored into, the cache of scored wins
    (:data:`WIN_CACHE`). An entry holds the 64-bit key with its lowest bit set (never
    0, :func:`_cache_slot`): two hands share one with a chance of 2**-63."""
    memo = work[W_MEMO]
    k, slot = _cache_slot(_mix(key ^ np.uint64((w + 1) * 4 + last * 2 + (d > 0))))
    if np.uint64(memo[slot]) == k:
        v = memo[slot + 1]
        return v & 0xFFFF, (v >> 16) & 1 == 1, (v >> 17) & 0xFFFF, (v >> 33) & 1 == 1
    total, _, legal = score_win(ctx, counts, melds, w, last, False, work)
    d_total = 0
    d_legal = False
    if d:
        d_total, _, d_legal = score_win_by(ctx, counts, melds, w, False, last, False, work)
    memo[slot] = np.int64(k)
    memo[slot + 1] = (  # totals < 2**16; -1 (no complete hand) is never legal
        (total & 0xFFFF)
        | (np.int64(legal) << 16)
        | ((d_total & 0xFFFF) << 17)
        | (np.int64(d_legal) << 33)
    )
    return total, legal, d_total, d_legal


@hjit
def legal_outs(counts, melds, n_melds, waits, unseen, ctx, work):
    """Unseen copies of the waits of a ready hand that complete a legal self-drawn win.

    Returns ``(legal copies, sum over them of copies x fan total, value)``. Scores
    ``counts + w`` for every waiting tile ``w`` with unseen copies (和绝张 set when
    the other three copies are visible; 妙手回春 not assumed). With
    ``ctx[CTX_DISCARD_WINS]`` = d > 0 (the planner's), a copy also counts d times
    more when the win on it is legal on a discard: d opponents discard for each
    tile the hand draws; and ``value`` weighs each such copy by what its win is
    paid (the ruleset's payment: self-drawn d x (base + fan), on a discard
    d x base + fan) and by how often its kind is discarded (:data:`DISCARD_SHARE`
    per :data:`SHARE_UNIT` copies the hand draws; ``value`` is in those units), proportional
    to the points a draw and its discards are expected to bring (0 when d = 0).

    Each win's scores are kept in the thread's cache of scored wins
    (:data:`WIN_CACHE`): a ready hand met again, in this decision or a later one,
    is not scored again.
    """
    return _keyed_outs(_win_key(counts, melds, n_melds, ctx), counts, melds, n_melds, waits,
                       unseen, ctx, work)  # fmt: skip


@ijit
def _keyed_outs(key, counts, melds, n_melds, waits, unseen, ctx, work):
    """:func:`legal_outs` of the hand of :func:`_win_key` ``key``."""
    legal = 0
    fan_copies = 0
    value = 0
    d = ctx[CTX_DISCARD_WINS]
    base = ctx[CTX_BASE]
    for w in range(34):
        if not (waits >> w) & 1 or unseen[w] == 0:
            continue
        visible = 4 - unseen[w] - np.int64(counts[w])
        counts[w] += 1
        total, is_legal, d_total, d_legal = _cached_win(
            key, w, visible == 3, ctx, counts, melds, n_melds, d, work
        )
        counts[w] -= 1
        if is_legal:
            legal += unseen[w]
            fan_copies += unseen[w] * total
            value += SHARE_UNIT * unseen[w] * d * (base + total)
        if d_legal:
            legal += d * unseen[w]
            fan_copies += d * unseen[w] * d_total
            value += DISCARD_SHARE[w] * d * unseen[w] * (d * base + d_total)
    return legal, fan_copies, value


@hjit
def ready_outs(counts, melds, n_melds, unseen, ctx, tab, work):
    """:func:`legal_outs` of a ready hand of 3k+1 tiles, its waits found here (kept
    in the cache of scored wins, :data:`WIN_CACHE`, with the hand's scores)."""
    key = _win_key(counts, melds, n_melds, ctx)
    memo = work[W_MEMO]
    k, slot = _cache_slot(_mix(key ^ np.uint64(_WAITS_SALT)))
    if np.uint64(memo[slot]) == k:
        waits = memo[slot + 1]
    else:
        _, waits = useful_one(counts, n_melds, ctx[CTX_FORMS], tab)
        memo[slot] = np.int64(k)
        memo[slot + 1] = waits
    return _keyed_outs(key, counts, melds, n_melds, waits, unseen, ctx, work)


@ijit
def new_memo_generation(memo):
    """Make every entry of the look-ahead's memo ``memo`` (``work[W_MEMO]``) stale: called
    before the look-aheads of the hands one discard from one hand, which share it."""
    gen = memo[MEMO_GEN] + 1
    if gen >= 1 << 31:  # a new start once in two billion hands, so stamps never repeat
        for i in range(MEMO_GEN):
            memo[i] = 0
        gen = 1
    memo[MEMO_GEN] = gen


@jit
def _best_ready(counts, melds, n_melds, unseen, ctx, tab, work, out_need, by_value, u, t):
    """The most a hand of 3k+2 tiles is worth after a discard that leaves it ready: its
    unseen legal winning copies (``by_value``: their value, :func:`legal_outs`).

    With ``t`` >= 0 the hand is ``H - t + u`` for a hand ``H`` whose look-aheads share
    the memo's generation (:func:`new_memo_generation`): the ready hand
    ``H - t + u - e`` is ``H - e + u - t`` too, so its worth is kept under
    ``(u, min(t, e), max(t, e))`` and scored once for both discards. A hand that
    punged ``u`` passes its memo slot :data:`MEMO_PUNG` + ``u`` as ``u``: the pung is
    the same for both discards.
    """
    forms = ctx[CTX_FORMS]
    memo = work[W_MEMO]
    gen = memo[MEMO_GEN]
    discard_needs(counts, n_melds, forms, tab, out_need)
    top = 0
    for e in range(34):
        if out_need[e] != 1:
            continue
        key = -1
        if t >= 0:
            key = (u * 34 + min(t, e)) * 34 + max(t, e)
            if memo[key] >> 32 == gen:
                top = max(top, memo[key] & 0xFFFFFFFF)
                continue
        counts[e] -= 1
        legal, _, value = ready_outs(counts, melds, n_melds, unseen, ctx, tab, work)
        counts[e] += 1
        worth = value if by_value else legal
        if key >= 0:
            memo[key] = (gen << 32) | worth
        top = max(top, worth)
    return top


@jit
def _punged_ready(counts, melds, n_melds, unseen, u, ctx, tab, work, out_need, t):
    """:func:`_best_ready` (by value) of the hand after a pung of a discarded ``u``
    (0 without a pair of it or a free meld slot); ``t`` as there."""
    if n_melds >= 4 or counts[u] < 2:
        return 0
    counts[u] -= 2
    melds[n_melds, 0] = 2
    melds[n_melds, 1] = u
    value = _best_ready(
        counts, melds, n_melds + 1, unseen, ctx, tab, work, out_need, True, MEMO_PUNG + u, t
    )
    melds[n_melds, 0] = 0
    melds[n_melds, 1] = 0
    counts[u] += 2
    return value


@jit
def _legal_ready_draws(counts, melds, n_melds, unseen, ctx, tab, work, out_need, claims, t):
    """Two-step look-ahead of a hand one draw from ready (3k+1 tiles, shanten 1).

    For every useful draw ``u``, the best discard of ``counts + u`` is the one
    leaving a ready hand with the most unseen legal winning copies ``L(u)``
    (:func:`legal_outs`). Returns ``sum(unseen[u] * L(u))``: proportional to
    the chance of a legal win in the next two draws.

    The planner's (``ctx[CTX_DISCARD_WINS]`` = d > 0): ``L(u)`` is the largest
    value of :func:`legal_outs`, and with ``claims`` a copy of ``u`` also reaches a
    ready hand by a pung, on the discard of any of the d opponents (it counts d
    times, as often as ``u`` is discarded, :data:`DISCARD_SHARE`, with the open
    hand's value: :func:`_punged_ready`), so the sum (in :data:`SHARE_UNIT` times
    :func:`legal_outs`' unit) is proportional to the points the next two steps are
    expected to bring. (Chows to ready, counted the same way on the left opponent's
    discards, gain +0.02 to +0.07 points a game against the planner without them but
    nothing against ``fan-aware`` beyond its interval, and cost 5 to 12 % of the
    games' speed: left out; docs/games.md has the figures.)

    ``t``: the discard that left this hand, when the look-aheads of the hand's
    siblings share the memo (:func:`_best_ready`); -1 for none.
    """
    forms = ctx[CTX_FORMS]
    by_value = ctx[CTX_DISCARD_WINS] > 0
    draw_share = SHARE_UNIT if by_value else 1  # a draw against DISCARD_SHARE's discards
    total = 0
    _, useful = useful_one(counts, n_melds, forms, tab)
    for u in range(34):
        # a pung of u that leaves a ready hand leaves one drawn too (its meld a set
        # of the concealed tiles, the same waits), so only useful draws can be punged,
        if not (useful >> u) & 1 or unseen[u] == 0:
            continue
        unseen[u] -= 1
        counts[u] += 1
        reach = draw_share * _best_ready(
            counts, melds, n_melds, unseen, ctx, tab, work, out_need, by_value, u, t
        )
        counts[u] -= 1
        # and its open hand scores no more than the concealed one but for 全求人 (the
        # fourth meld) and, rarely, 和绝张 (the exposed pung shows copies the drawn
        # hand hides): a draw that reaches no legal win is taken to leave no pung that
        # does
        if claims and by_value and (reach > 0 or n_melds == 3):
            value = _punged_ready(counts, melds, n_melds, unseen, u, ctx, tab, work, out_need, t)
            reach += ctx[CTX_DISCARD_WINS] * DISCARD_SHARE[u] * value
        unseen[u] += 1
        total += unseen[u] * reach
    return total


@jit
def has_legal_ready_draw(counts, melds, n_melds, unseen, ctx, tab, work, out_need):
    """Whether some draw of a hand one draw from ready (3k+1 tiles, shanten 1) has a
    discard leaving a ready hand with a legal winning copy: :func:`_legal_ready_draws`
    > 0, stopping at the first one."""
    forms = ctx[CTX_FORMS]
    _, useful = useful_one(counts, n_melds, forms, tab)
    found = False
    for u in range(34):
        if found or not (useful >> u) & 1 or unseen[u] == 0:
            continue
        unseen[u] -= 1
        counts[u] += 1
        found = (
            _best_ready(counts, melds, n_melds, unseen, ctx, tab, work, out_need, False, u, -1) > 0
        )
        counts[u] -= 1
        unseen[u] += 1
    return found


@jit
def _ready_choice(counts, melds, n_melds, unseen, ctx, tab, work, need):
    """Among discards leaving a ready hand (``need[t] == 1``), the one with the most unseen
    legal winning copies (the planner's: the largest value of :func:`legal_outs`, so a
    wait of fewer copies that pays more can win), then copies x fan, then
    :data:`DISCARD_ORDER`; -1 if none has any."""
    by_value = ctx[CTX_DISCARD_WINS] > 0
    choice = -1
    best_legal = 0
    best_fan = 0
    for t in range(34):
        if need[t] != 1:
            continue
        counts[t] -= 1
        legal, fan_copies, value = ready_outs(counts, melds, n_melds, unseen, ctx, tab, work)
        counts[t] += 1
        if legal == 0:
            continue
        if by_value:
            legal = value
        if (
            legal > best_legal
            or (legal == best_legal and fan_copies > best_fan)
            or (
                legal == best_legal
                and fan_copies == best_fan
                and DISCARD_ORDER[t] < DISCARD_ORDER[choice]
            )
        ):
            choice = t
            best_legal = legal
            best_fan = fan_copies
    return choice


@jit
def _lookahead_choice(counts, melds, n_melds, unseen, ctx, tab, work, need):
    """Among discards keeping a hand one draw from ready (``need[t] == 2``), the one with
    the largest :func:`_legal_ready_draws` (then :data:`DISCARD_ORDER`); -1 if all are 0."""
    scratch = work[W_AUX]
    new_memo_generation(work[W_MEMO])
    choice = -1
    best = 0
    for t in range(34):
        if need[t] != 2:
            continue
        counts[t] -= 1
        score = _legal_ready_draws(counts, melds, n_melds, unseen, ctx, tab, work, scratch, True, t)
        counts[t] += 1
        if score > best or (
            score == best and score > 0 and DISCARD_ORDER[t] < DISCARD_ORDER[choice]
        ):
            best = score
            choice = t
    return choice


@jit
def _target_choice(counts, melds, n_melds, unseen, ctx, tab, work, need, plain):
    """The discard that keeps the most fan targets at the smallest need (see :func:`fan_aware`)."""
    forms = ctx[CTX_FORMS]
    aux = work[W_AUX]
    targets = work[W_TARGET]
    n_t, best = _collect_targets(
        counts, melds, n_melds, unseen, ctx, tab, plain, targets, work, False
    )
    for t in range(34):
        aux[t] = 0
        if counts[t] == 0:
            continue
        flex = 0
        counts[t] -= 1
        for i in range(n_t):
            if targets[i, 2] != best:
                continue
            kind = targets[i, 0]
            if kind == T_PLAIN:
                after = need[t] + 1
            else:
                after = _target_need(
                    kind, targets[i, 1], counts, melds, n_melds, unseen, forms, best + 1, tab,
                    work[W_TMP],
                )  # fmt: skip
            if after <= best:
                flex += 1
        counts[t] += 1
        aux[t] = flex
    return most_flexible(counts, n_melds, forms, tab, unseen, need, aux)


@jit
def most_flexible(counts, n_melds, forms, tab, unseen, need, aux):
    """Among the held tiles, the discard with the most plans kept (``aux[t]``),
    then the lowest need (``need[t]``), then the most unseen useful copies, then
    :data:`DISCARD_ORDER`; returns (tile, its need). Overwrites ``aux`` and ``need``."""
    top_flex = 0
    for t in range(34):
        if counts[t]:
            top_flex = max(top_flex, aux[t])
    # candidates: most plans kept, then the lowest plain need, then the most useful copies
    low = NO_NEED
    for t in range(34):
        if counts[t] and aux[t] == top_flex:
            low = min(low, need[t])
    n_cand = 0
    only = -1
    for t in range(34):
        if counts[t] and aux[t] == top_flex and need[t] == low:
            n_cand += 1
            only = t
            aux[t] = -1
    if n_cand == 1:
        return only, low
    for t in range(34):
        need[t] = low if aux[t] == -1 else NO_NEED
    choice, _ = _most_useful(counts, n_melds, forms, tab, unseen, need, low)
    return choice, low


@jit
def near_ready_choice(counts, melds, n_melds, unseen, draws_left, ctx, tab, work, plain):
    """Steps 1 and 2 of :func:`fan_aware` (``plain``: the least need over the discards,
    ``work[W_NEED]`` the need after each): the ready discard with the most legal
    winning copies, or one step from ready the discard with the best two-draw
    look-ahead; -1 when neither applies."""
    need = work[W_NEED]
    if plain == 1:
        return _ready_choice(counts, melds, n_melds, unseen, ctx, tab, work, need)
    if plain == 2 and draws_left >= 2:
        return _lookahead_choice(counts, melds, n_melds, unseen, ctx, tab, work, need)
    return -1


@jit
def fan_aware(counts, melds, n_melds, drawn, unseen, draws_left, ctx, tab, work):
    """Discard toward a *legal* win: exact near the end, fan targets before (MCR).

    Rulesets whose binding's ``FAN_PLANS`` is False (``ctx[CTX_FAN_PLANS]``
    0: the targets are MCR's fans) fall back to :func:`efficiency`. With ``need`` = shanten + 1
    over all forms after each discard:

    1. **Ready** (some discard leaves shanten 0): score every winning tile of
       every ready discard as a self-drawn win; take the discard with the most
       unseen *legal* winning copies (then copies x fan). Used whenever one
       has any.
    2. **One step from ready** (shanten 1 at best): among the discards that
       keep shanten 1, look two draws ahead: for every useful draw, the best
       next discard's legal winning copies, weighted by the draw's unseen
       copies (:func:`_legal_ready_draws`); take the largest. Used when one
       is positive.
    3. **Fan targets** (otherwise): every target whose fan value plus the base
       of a solitaire win (不求人 4 with no exposed meld, else 自摸 1) reaches
       the minimum is a plan: full flush (24), half flush (6), seven pairs
       (24), thirteen orphans (88), honours and knitted (12), knitted straight
       (12), all pungs (6), three concealed pungs (16), the chow bodies pure
       straight (16), mixed straight (8), mixed triple chow (8), mixed
       shifted chows (6), pure shifted chows (16), and pungs of valuable
       honours (seat and prevalent wind 2 + 2; two dragons 6). Any complete
       hand counts as a plan with one extra step (it is often, not always,
       legal). A plan's *need* is the draws it still takes, computed with the
       shanten kernels on the hand cut to the plan (set-aside tiles are future
       discards). With ``B`` the smallest need, the discards keeping the most
       plans at ``B`` are kept, then the lowest shanten, then the most unseen
       useful copies, then :data:`DISCARD_ORDER`.

    Needs ignore dead tiles except for pungs (a kind with fewer than 3 copies
    left cannot become one). Measured (``tests/test_play.py``, same walls):
    more legal wins and more points per game than :func:`efficiency`.

    Examples
    --------
    Ten bamboo tiles: the full flush (24) is the plan, so a character tile goes
    (the efficiency policy would throw 9s and keep 89m):

    >>> import numpy as np
    >>> from mjstats.kernels.tables import get_tables
    >>> from mjstats.kernels.decompose import suit_table
    >>> from mjstats.rules import get_ruleset
    >>> from mjstats.games.discard_policies import policy_context
    >>> from mjstats.tiles import TILES, parse_tiles
    >>> hand = parse_tiles("1389m2336677789s")
    >>> ctx, work = policy_context(get_ruleset("mcr"), 1), new_policy_work(82, suit_table())
    >>> unseen = (4 - hand).astype(np.int64)
    >>> melds = np.zeros((4, 2), np.uint8)
    >>> TILES[fan_aware(hand, melds, 0, 0, unseen, 10, ctx, get_tables(), work)][-1]
    'm'
    """
    if ctx[CTX_FAN_PLANS] == 0:
        return efficiency(counts, melds, n_melds, drawn, unseen, draws_left, ctx, tab, work)
    need = work[W_NEED]
    plain = discard_needs(counts, n_melds, ctx[CTX_FORMS], tab, need)
    choice = near_ready_choice(counts, melds, n_melds, unseen, draws_left, ctx, tab, work, plain)
    if choice >= 0:
        work[W_INFO][INFO_NEED] = plain
        return choice
    choice, low = _target_choice(counts, melds, n_melds, unseen, ctx, tab, work, need, plain)
    work[W_INFO][INFO_NEED] = low
    return choice


# ------------------------------------------------------------------ dispatch
@ijit
def builtin_policy(counts, melds, n_melds, drawn, unseen, draws_left, ctx, tab, work):
    """Run the built-in policy ``ctx[CTX_POLICY]`` (:data:`BUILTIN_POLICIES`).

    To add a built-in policy: write it with the policy signature, give it the
    next id in :data:`BUILTIN_POLICIES` and add one branch here.
    """
    pid = ctx[CTX_POLICY]
    if pid == FAN_AWARE:
        return fan_aware(counts, melds, n_melds, drawn, unseen, draws_left, ctx, tab, work)
    return efficiency(counts, melds, n_melds, drawn, unseen, draws_left, ctx, tab, work)


def policy_context(
    ruleset: Ruleset, policy_id: int, seat_wind: int = 0, round_wind: int = 0
) -> np.ndarray:
    """The int64 context vector of the policies (``CTX_*`` slots): policy id,
    ruleset id, shanten forms, minimum, winds, scorer options, whether the
    fan-aware plans are the ruleset's fans, and the points of :data:`PLAN_FANS`
    from the ruleset's own table (so a profile reaches the policies).

    Examples
    --------
    >>> from mjstats.rulesets import get_ruleset
    >>> ctx = policy_context(get_ruleset("mcr"), 0)
    >>> ctx[:4].tolist(), int(ctx[V_FULL_FLUSH]), int(ctx[V_SELF_DRAWN])
    ([0, 0, 31, 8], 24, 1)
    """
    try:
        spec = kernel_spec(ruleset)
    except ValueError as exc:  # no binding, or not registered
        raise UnknownRulesetError(f"ruleset {ruleset.name!r} has no game kernels: {exc}") from None
    ctx = np.zeros(CTX_SIZE, dtype=np.int64)
    ctx[CTX_POLICY] = policy_id
    ctx[CTX_RULESET] = spec.ruleset_id
    forms = 0
    for name in ruleset.shanten_forms:
        forms |= FORM_BITS[name]
    ctx[CTX_FORMS] = forms
    ctx[CTX_MINIMUM] = spec.minimum
    ctx[CTX_SEAT] = seat_wind
    ctx[CTX_ROUND] = round_wind
    ctx[CTX_OPTS] = spec.opts
    ctx[CTX_FAN_PLANS] = bool(ruleset.kernel.FAN_PLANS)
    ctx[CTX_BASE] = ruleset.base_payment
    ctx[CTX_OPPONENTS] = ruleset.opponents
    keys = {fan.key for fan in ruleset.fans}
    for slot, key in enumerate(PLAN_FANS, CTX_VALUES):
        key = next((k for k in (key, *PLAN_FAN_ALIASES.get(key, ())) if k in keys), None)
        ctx[slot] = ruleset.points[ruleset.fan_id(key)] if key else 0
    return ctx
