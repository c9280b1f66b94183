"""Exact shanten, useful tiles and discard tables for every MCR hand form (numba).

Definitions (all forms)
-----------------------
A hand is its concealed tile counts (34,) plus a number of melds ``m``. A
complete hand of a form needs ``14 - 3m`` concealed tiles. For a candidate
complete concealed part ``C`` (no kind more than 4 times), the *need* of the
hand ``H`` is ``|C| - |H ∩ C|``, the number of tiles to draw (and as many to
discard) to turn ``H`` into ``C``; the form's need is the minimum over its
complete ``C``. **shanten = need - 1**: -1 complete (3k+2 tiles), 0 ready.
Unreachable forms (seven pairs with a meld, ...) give :data:`IMPOSSIBLE`.

Forms (bits of a ``forms`` mask, see :data:`FORM_BITS`)

* regular: ``4 - m`` sets + a pair: three lookups in the merge tables of
  :mod:`mjstats.kernels.tables`.
* seven pairs (m = 0): 7 pairs, a kind held 4 times counts as two pairs (MCR).
* thirteen orphans (m = 0).
* honors and knitted (全不靠, m = 0): 14 distinct kinds out of the 9 tiles of
  one knitted suit assignment (147/258/369 in three suits) and the 7 honors.
* knitted straight (组合龙, m <= 1): the 9-tile body of one assignment, plus
  ``1 - m`` set and a pair. Held body kinds are used once for the body; the rest
  of the hand is solved like a regular hand (a set + pair never needs a kind
  four times, so the four-copy limit stays exact).

The special forms read per-group counts (``info``/``knit`` in the tables) that
add up across groups, so no form scans the 34 counts on the shanten path.

A kind is *useful* for a 3k+1 hand when drawing it lowers the minimum shanten
over the chosen forms (never a kind already held 4 times). For the regular form
a draw in one group lowers the need exactly when some optimal split gives that
group a target whose table mask has the rank (exact, no re-evaluation).

Kernel layers
-------------
Per-hand kernels (``*_one``) are serial ``@jit`` functions that allocate
nothing and may be called from other numba code (study loops); the tables are
passed in as one :class:`~mjstats.kernels.tables.ShantenTables` argument
(``tab = get_tables()``). ``*_rows`` kernels loop over rows ``lo:hi`` of an
(N, 34) matrix; ``*_batch`` kernels run them on chunks in ``prange``. Tile
sets are 34-bit masks in int64 (bit t = tile index t). No recursion.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from mjstats.kernels._jit import hjit, ijit, jit, pjit
from mjstats.kernels.bits import popcount
from mjstats.kernels.tables import KEY_MULT

# Small helpers that take arrays are ``ijit`` (inlined at the numba IR level): a
# call that passes arrays costs atomic reference-count updates per array
# (hundreds of ns with the tables), which inlining removes. The per-hand entry
# points (``*_one``) are ``hjit`` instead: compiled once without reference
# counting, so the policies that call them in several places stay small
# (inlined, they made the play kernels take minutes to compile).

__all__ = [
    "ALL_FORMS",
    "CHUNK",
    "FORM_BITS",
    "HONORS_KNITTED",
    "IMPOSSIBLE",
    "KNITTED_STRAIGHT",
    "REGULAR",
    "SEVEN_PAIRS",
    "THIRTEEN_ORPHANS",
    "WRONG_SIZE",
    "discard_batch",
    "discard_one",
    "discard_rows",
    "group_keys",
    "keys_without",
    "masks_without",
    "regular_need",
    "regular_shanten_one",
    "scan_hand",
    "shanten_batch",
    "shanten_one",
    "shanten_rows",
    "useful_batch",
    "useful_one",
    "useful_rows",
]

REGULAR = 1
SEVEN_PAIRS = 2
THIRTEEN_ORPHANS = 4
HONORS_KNITTED = 8
KNITTED_STRAIGHT = 16
ALL_FORMS = 31
FORM_BITS = {
    "regular": REGULAR,
    "seven_pairs": SEVEN_PAIRS,
    "thirteen_orphans": THIRTEEN_ORPHANS,
    "honors_knitted": HONORS_KNITTED,
    "knitted_straight": KNITTED_STRAIGHT,
}
"""Form name -> bit of the ``forms`` mask taken by the kernels."""

IMPOSSIBLE = 127
"""Shanten reported for a form that the melds rule out (int8 max)."""

_NEED_NONE = IMPOSSIBLE + 1  # need of an unreachable form

WRONG_SIZE = -128
"""Written by :func:`shanten_rows` for a row that is not a 13- or 14-tile hand (int8 min)."""

_ORPHANS = (
    (1 << 0) | (1 << 8) | (1 << 9) | (1 << 17) | (1 << 18) | (1 << 26) | (0x7F << 27)
)  # 1m 9m 1p 9p 1s 9s + 7 honors
_HONORS = 0x7F << 27


def _knitted_tables():
    """Knitted bodies of the six suit assignments, and the per-suit pattern masks.

    Returns ``(body_masks (6,), perm (6, 3))`` with ``perm[q, s]`` the pattern of
    suit ``s`` (0 = 147, 1 = 258, 2 = 369) in assignment ``q``.
    """
    perms = ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))
    bodies = []
    for perm in perms:
        mask = 0
        for s, j in enumerate(perm):
            for r in (j, j + 3, j + 6):
                mask |= 1 << (9 * s + r)
        bodies.append(mask)
    return np.array(bodies, dtype=np.int64), np.array(perms, dtype=np.int64)


_KNIT_BODY, _KNIT_PERM = _knitted_tables()


# --------------------------------------------------------------------------- small helpers


@ijit
def _tile_masks(counts):
    """Masks of the kinds held exactly 1, 2, 3 and 4 times (bit t = tile t)."""
    eq1 = 0
    eq2 = 0
    eq3 = 0
    eq4 = 0
    for t in range(34):  # branch-free: random hands defeat the branch predictor
        c = counts[t]
        eq1 |= np.int64(c == 1) << t
        eq2 |= np.int64(c == 2) << t
        eq3 |= np.int64(c == 3) << t
        eq4 |= np.int64(c >= 4) << t
    return eq1, eq2, eq3, eq4


@ijit
def _tile_masks_row(counts, i):
    """:func:`_tile_masks` of row ``i`` of an (N, 34) matrix (no row view)."""
    eq1 = 0
    eq2 = 0
    eq3 = 0
    eq4 = 0
    for t in range(34):
        c = counts[i, t]
        eq1 |= np.int64(c == 1) << t
        eq2 |= np.int64(c == 2) << t
        eq3 |= np.int64(c == 3) << t
        eq4 |= np.int64(c >= 4) << t
    return eq1, eq2, eq3, eq4


@ijit
def group_keys(counts):
    """The four group keys ``(km, kp, ks, kz)`` of a (34,) count vector."""
    km = 0
    kp = 0
    ks = 0
    for r in range(9):
        km += np.int64(counts[r]) * KEY_MULT[r]
        kp += np.int64(counts[9 + r]) * KEY_MULT[r]
        ks += np.int64(counts[18 + r]) * KEY_MULT[r]
    kz = 0
    for r in range(7):
        kz += np.int64(counts[27 + r]) * KEY_MULT[r]
    return km, kp, ks, kz


@ijit
def _group_keys_row(counts, i):
    """:func:`group_keys` of row ``i`` of an (N, 34) matrix (no row view)."""
    km = 0
    kp = 0
    ks = 0
    for r in range(9):
        km += np.int64(counts[i, r]) * KEY_MULT[r]
        kp += np.int64(counts[i, 9 + r]) * KEY_MULT[r]
        ks += np.int64(counts[i, 18 + r]) * KEY_MULT[r]
    kz = 0
    for r in range(7):
        kz += np.int64(counts[i, 27 + r]) * KEY_MULT[r]
    return km, kp, ks, kz


# --------------------------------------------------------------------------- regular form


@ijit
def _need_from_rows(rm, rp, rs, rz, n_sets, suit_suit, suit_honor, final):
    """Regular-form need from the four groups' table rows (int64): three lookups."""
    ab = suit_suit[rm & 0xFF, rp & 0xFF]
    cd = suit_honor[rs & 0xFF, rz & 0xFF]
    return np.int64(final[ab, cd, n_sets])


@ijit
def regular_need(km, kp, ks, kz, n_sets, tab):
    """Fewest tiles to draw for ``n_sets`` sets + a pair, from the four group keys."""
    sr = tab.suit_rows
    return _need_from_rows(
        np.int64(sr[km]), np.int64(sr[kp]), np.int64(sr[ks]), np.int64(tab.honor_rows[kz]),
        n_sets, tab.suit_suit, tab.suit_honor, tab.final,
    )  # fmt: skip


@ijit
def _group_useful(hits, gid, rid, mask, key, n_sets):
    """Ranks of one group whose draw lowers the hand's need (exact).

    A draw in the group lowers the need iff some cheapest split ``(k, p)`` of
    the hand between the group and the rest (the other three groups merged,
    vector ``rid``) has the rank in the group's table mask of ``(k, p)``;
    ``hits`` lists those splits (:data:`~mjstats.kernels.tables.ShantenTables`).
    """
    split = np.int64(hits[gid, rid, n_sets])
    bits = 0
    for e in range(2 * n_sets + 2):  # branch-free: the splits are unpredictable
        bits |= np.int64(mask[key, e]) & -((split >> e) & 1)
    return bits


@ijit
def _group_rows(km, kp, ks, kz, tab):
    """The four groups' table rows (int64) from their keys."""
    sr = tab.suit_rows
    return np.int64(sr[km]), np.int64(sr[kp]), np.int64(sr[ks]), np.int64(tab.honor_rows[kz])


@ijit
def _regular_useful(km, kp, ks, kz, n_sets, tab):
    """``(need, useful_mask)`` of the regular form from the group keys."""
    return _regular_useful_rows(km, kp, ks, kz, _group_rows(km, kp, ks, kz, tab), n_sets, tab)


@ijit
def _regular_useful_rows(km, kp, ks, kz, rows, n_sets, tab):
    """:func:`_regular_useful` with the groups' rows (:func:`_group_rows`) at hand."""
    im = rows[0] & 0xFF
    ip = rows[1] & 0xFF
    is_ = rows[2] & 0xFF
    iz = rows[3] & 0xFF
    ab = np.int64(tab.suit_suit[im, ip])
    cd = np.int64(tab.suit_honor[is_, iz])
    need = np.int64(tab.final[ab, cd, n_sets])
    if need == 0:
        return need, 0
    sh, sm = tab.suit_hits, tab.suit_mask
    bits = _group_useful(sh, im, tab.suit_sh[ip, cd], sm, km, n_sets)
    bits |= _group_useful(sh, ip, tab.suit_sh[im, cd], sm, kp, n_sets) << 9
    bits |= _group_useful(sh, is_, tab.ss_honor[ab, iz], sm, ks, n_sets) << 18
    rest_z = tab.ss_suit[ab, is_]
    bits |= _group_useful(tab.honor_hits, iz, rest_z, tab.honor_mask, kz, n_sets) << 27
    return need, bits


@ijit
def regular_shanten_one(counts, melds, tab):
    """Regular-form shanten of one hand (counts (34,), ``melds`` 0-4).

    Examples
    --------
    >>> from mjstats.kernels.tables import get_tables
    >>> from mjstats.tiles import parse_tiles
    >>> int(regular_shanten_one(parse_tiles("123m123p123s1117z"), 0, get_tables()))
    0
    """
    km, kp, ks, kz = group_keys(counts)
    return regular_need(km, kp, ks, kz, 4 - melds, tab) - 1


# --------------------------------------------------------------------------- special forms


@jit
def _seven_pairs_overlap(n_pairs_units, n_single_units):
    a = min(n_pairs_units, 7)
    return 2 * a + min(n_single_units, 7 - a)


@jit
def _seven_pairs(eq1, eq2, eq3, eq4):
    """``(need, useful)`` for seven pairs (a kind held 4 times = two pairs)."""
    a = popcount(eq2 | eq3 | eq4) + popcount(eq4)  # units giving 2 tiles
    b = popcount(eq1 | eq3)  # units giving 1 tile
    ov = _seven_pairs_overlap(a, b)
    useful = 0
    held = eq1 | eq2 | eq3 | eq4
    all34 = (np.int64(1) << 34) - 1
    # 1 -> 2 or 3 -> 4 copies: one more 2-tile unit, one fewer 1-tile unit
    if _seven_pairs_overlap(a + 1, b - 1) > ov:
        useful |= eq1 | eq3
    # 0 -> 1 or 2 -> 3 copies: one more 1-tile unit
    if _seven_pairs_overlap(a, b + 1) > ov:
        useful |= (all34 & ~held) | eq2
    return 14 - ov, useful


@jit
def _thirteen_orphans(eq1, eq2, eq3, eq4):
    held = eq1 | eq2 | eq3 | eq4
    distinct = popcount(held & _ORPHANS)
    has_pair = ((eq2 | eq3 | eq4) & _ORPHANS) != 0
    ov = distinct + (1 if has_pair else 0)
    useful = 0
    if ov < 14:
        useful = _ORPHANS & ~held if has_pair else _ORPHANS & ~(eq4 | eq3 | eq2)
    return 14 - ov, useful


@jit
def _pattern_counts(held, s):
    """Held kinds of suit ``s`` in each knitted pattern (147, 258, 369)."""
    bits = held >> (9 * s)
    return popcount(bits & 0x49), popcount(bits & 0x92), popcount(bits & 0x124)


@jit
def _pattern_offset(held, s, j):
    """Key offset of the held kinds of pattern ``j`` (ranks j, j+3, j+6) in suit ``s``."""
    bits = held >> (9 * s + j)
    scale = 1 if j == 0 else (5 if j == 1 else 25)  # 5**j without a pow call
    return scale * ((bits & 1) + 125 * ((bits >> 3) & 1) + 15625 * ((bits >> 6) & 1))


@jit
def _honors_knitted(held, c0, c1, c2):
    """``(need, useful)`` for 全不靠; ``c_s[j]`` = held kinds of pattern j in suit s."""
    honors = popcount(held & _HONORS)
    best = 14
    for q in range(6):
        n = c0[_KNIT_PERM[q, 0]] + c1[_KNIT_PERM[q, 1]] + c2[_KNIT_PERM[q, 2]] + honors
        best = min(best, 14 - min(n, 14))
    useful = 0
    if best > 0:
        for q in range(6):
            n = c0[_KNIT_PERM[q, 0]] + c1[_KNIT_PERM[q, 1]] + c2[_KNIT_PERM[q, 2]] + honors
            if 14 - min(n, 14) == best:
                useful |= (_KNIT_BODY[q] | _HONORS) & ~held
    return best, useful


@ijit
def _knitted_straight(km, kp, ks, kz, held, c0, c1, c2, rows, melds, bound, tab):
    """``(need, useful)`` of the knitted straight with ``melds`` (0 or 1) melds.

    ``c_s[j]``: held kinds of pattern j in suit s; ``rows``: the four groups'
    table rows ``(rm, rp, rs, rz)`` (int64). Held body tiles are used once by
    the body, so they leave the group keys and the rest (``1 - melds`` sets + a
    pair) is solved like a regular hand. An assignment's need comes from the
    rows' ``knit`` words (:func:`_ks_rest`); only one whose need is within
    ``bound`` has its useful tiles worked out (new keys: table loads that miss
    the cache), so the result is exact when <= ``bound``.
    """
    rm, rp, rs, rz = rows
    iz = rz & 0xFF
    z1 = np.int64(tab.honor_vecs[iz, 1])
    z2 = np.int64(tab.honor_vecs[iz, 2])
    z3 = np.int64(tab.honor_vecs[iz, 3])
    n_sets = 1 - melds
    best = _NEED_NONE
    useful = 0
    for q in range(6):
        j0 = _KNIT_PERM[q, 0]
        j1 = _KNIT_PERM[q, 1]
        j2 = _KNIT_PERM[q, 2]
        missing = 9 - c0[j0] - c1[j1] - c2[j2]
        if missing > bound:
            continue
        a = (rm >> (8 + 7 * j0)) & 127
        b = (rp >> (8 + 7 * j1)) & 127
        c = (rs >> (8 + 7 * j2)) & 127
        need = missing + _ks_rest(a, b, c, z1, z2, z3, melds)
        if need > bound or need > best:
            continue
        rk0 = km - _pattern_offset(held, 0, j0)
        rk1 = kp - _pattern_offset(held, 1, j1)
        rk2 = ks - _pattern_offset(held, 2, j2)
        _, bits = _regular_useful(rk0, rk1, rk2, kz, n_sets, tab)
        if need < best:
            best = need
            useful = 0
        useful |= (_KNIT_BODY[q] & ~held) | bits
    if best == 0:
        useful = 0
    return best, useful


@jit
def _ks_rest(a, b, c, z1, z2, z3, melds):
    """Need of what a knitted-straight assignment leaves (a pair with one meld, else
    a set and a pair): ``a, b, c`` the three suits' 7-bit ``knit`` fields for their
    pattern (pair, set, set + pair distances), ``z1..z3`` the honors'."""
    a1, b1, c1 = a & 3, b & 3, c & 3
    if melds == 1:  # the rest is a pair
        return min(a1, b1, c1, z1)
    return min(
        a >> 4,
        b >> 4,
        c >> 4,
        z3,
        ((a >> 2) & 3) + min(b1, c1, z1),
        ((b >> 2) & 3) + min(a1, c1, z1),
        ((c >> 2) & 3) + min(a1, b1, z1),
        z2 + min(a1, b1, c1),
    )


@jit
def _ks_assignment(best, missing, a, b, c, z1, z2, z3, melds):
    """``min(best, need)`` of one knitted-straight assignment, evaluated only if it can win
    (:func:`_ks_rest` gives the need of what the body leaves)."""
    if missing >= best:
        return best
    return min(best, missing + _ks_rest(a, b, c, z1, z2, z3, melds))


@jit
def _special_need(best, rm, rp, rs, rz, z1, z2, z3, melds, forms):
    """Improve ``best`` with the special forms of ``forms`` (scalars only).

    ``r*`` are the groups' table rows (int64): their ``info`` words add up to
    the special forms' counts, their ``knit`` words give the knitted straight's
    remainders; ``z1..z3`` are the honors' distances for a pair, a set, a set +
    pair.
    """
    if melds > 1:
        return best
    wm = rm >> 32
    wp = rp >> 32
    ws = rs >> 32
    wz = rz >> 32
    total = wm + wp + ws + wz
    if melds == 0:
        if forms & SEVEN_PAIRS:
            best = min(best, 14 - _seven_pairs_overlap(total & 15, (total >> 4) & 15))
        if forms & THIRTEEN_ORPHANS:
            pair = 1 if (total >> 12) & 15 else 0
            best = min(best, 14 - ((total >> 8) & 15) - pair)
    if forms & (HONORS_KNITTED | KNITTED_STRAIGHT):
        # held kinds of pattern j (147, 258, 369) in suit s: f<s><j>
        f00, f01, f02 = (wm >> 16) & 3, (wm >> 18) & 3, (wm >> 20) & 3
        f10, f11, f12 = (wp >> 16) & 3, (wp >> 18) & 3, (wp >> 20) & 3
        f20, f21, f22 = (ws >> 16) & 3, (ws >> 18) & 3, (ws >> 20) & 3
        # body tiles held by the six assignments (pattern of m, p, s)
        b012 = f00 + f11 + f22
        b021 = f00 + f12 + f21
        b102 = f01 + f10 + f22
        b120 = f01 + f12 + f20
        b201 = f02 + f10 + f21
        b210 = f02 + f11 + f20
        most = max(b012, b021, b102, b120, b201, b210)
        if melds == 0 and forms & HONORS_KNITTED:
            best = min(best, 14 - min(most + ((wz >> 24) & 15), 14))
        if forms & KNITTED_STRAIGHT and 9 - most < best:
            m0, m1, m2 = (rm >> 8) & 127, (rm >> 15) & 127, (rm >> 22) & 127
            p0, p1, p2 = (rp >> 8) & 127, (rp >> 15) & 127, (rp >> 22) & 127
            s0, s1, s2 = (rs >> 8) & 127, (rs >> 15) & 127, (rs >> 22) & 127
            best = _ks_assignment(best, 9 - b012, m0, p1, s2, z1, z2, z3, melds)
            best = _ks_assignment(best, 9 - b021, m0, p2, s1, z1, z2, z3, melds)
            best = _ks_assignment(best, 9 - b102, m1, p0, s2, z1, z2, z3, melds)
            best = _ks_assignment(best, 9 - b120, m1, p2, s0, z1, z2, z3, melds)
            best = _ks_assignment(best, 9 - b201, m2, p0, s1, z1, z2, z3, melds)
            best = _ks_assignment(best, 9 - b210, m2, p1, s0, z1, z2, z3, melds)
    return best


@ijit
def _need_all(km, kp, ks, kz, melds, forms, sr, hr, suit_suit, suit_honor, final, hv):
    """Minimum need over the forms in ``forms`` from the group keys."""
    rm = np.int64(sr[km])
    rp = np.int64(sr[kp])
    rs = np.int64(sr[ks])
    rz = np.int64(hr[kz])
    best = _NEED_NONE
    if forms & REGULAR:
        best = _need_from_rows(rm, rp, rs, rz, 4 - melds, suit_suit, suit_honor, final)
    if forms != REGULAR and melds <= 1:
        iz = rz & 0xFF
        z1 = np.int64(hv[iz, 1])
        z2 = np.int64(hv[iz, 2])
        z3 = np.int64(hv[iz, 3])
        best = _special_need(best, rm, rp, rs, rz, z1, z2, z3, melds, forms)
    return best


# --------------------------------------------------------------------------- useful tiles


@ijit
def _forms_useful(km, kp, ks, kz, eq1, eq2, eq3, eq4, melds, forms, tab):
    """``(need, useful)``: minimum over the forms in ``forms``, with the useful kinds."""
    best = _NEED_NONE
    useful = 0
    rows = _group_rows(km, kp, ks, kz, tab)
    if forms & REGULAR:
        best, useful = _regular_useful_rows(km, kp, ks, kz, rows, 4 - melds, tab)
    if melds == 0:
        if forms & SEVEN_PAIRS:
            need, bits = _seven_pairs(eq1, eq2, eq3, eq4)
            if need < best:
                best = need
                useful = bits
            elif need == best:
                useful |= bits
        if forms & THIRTEEN_ORPHANS:
            need, bits = _thirteen_orphans(eq1, eq2, eq3, eq4)
            if need < best:
                best = need
                useful = bits
            elif need == best:
                useful |= bits
    if forms & (HONORS_KNITTED | KNITTED_STRAIGHT) and melds <= 1:
        held = eq1 | eq2 | eq3 | eq4
        c0 = _pattern_counts(held, 0)
        c1 = _pattern_counts(held, 1)
        c2 = _pattern_counts(held, 2)
        if melds == 0 and forms & HONORS_KNITTED:
            need, bits = _honors_knitted(held, c0, c1, c2)
            if need < best:
                best = need
                useful = bits
            elif need == best:
                useful |= bits
        if forms & KNITTED_STRAIGHT:
            need, bits = _knitted_straight(km, kp, ks, kz, held, c0, c1, c2, rows, melds, best, tab)
            if need < best:
                best = need
                useful = bits
            elif need == best:
                useful |= bits
    if best == 0:
        useful = 0
    return best, useful


# --------------------------------------------------------------------------- per hand


@ijit
def scan_hand(counts):
    """Group keys and tile masks of a (34,) count vector.

    Returns ``(km, kp, ks, kz, eq1, eq2, eq3, eq4)``: the four group keys and
    the masks of the kinds held exactly 1, 2, 3, 4 times (bit t = tile t).
    """
    km, kp, ks, kz = group_keys(counts)
    eq1, eq2, eq3, eq4 = _tile_masks(counts)
    return km, kp, ks, kz, eq1, eq2, eq3, eq4


@hjit
def shanten_one(counts, melds, forms, tab):
    """Shanten of one hand over the forms of the mask ``forms`` (see :data:`FORM_BITS`).

    Returns :data:`IMPOSSIBLE` when no chosen form is reachable with ``melds``.

    Examples
    --------
    >>> from mjstats.kernels.tables import get_tables
    >>> from mjstats.tiles import parse_tiles
    >>> h, tab = parse_tiles("19m19p19s1234566z"), get_tables()   # orphans, no 7z yet
    >>> int(shanten_one(h, 0, ALL_FORMS, tab)), int(shanten_one(h, 0, REGULAR, tab))
    (0, 7)
    """
    km, kp, ks, kz = group_keys(counts)
    need = _need_all(
        km, kp, ks, kz, melds, forms,
        tab.suit_rows, tab.honor_rows, tab.suit_suit, tab.suit_honor, tab.final, tab.honor_vecs,
    )  # fmt: skip
    return need - 1


@hjit
def useful_one(counts, melds, forms, tab):
    """``(shanten, useful_mask)`` of one 3k+1 hand; bit t of the mask = tile t is useful."""
    km, kp, ks, kz, eq1, eq2, eq3, eq4 = scan_hand(counts)
    need, bits = _forms_useful(km, kp, ks, kz, eq1, eq2, eq3, eq4, melds, forms, tab)
    return need - 1, bits


@ijit
def keys_without(t, km, kp, ks, kz):
    """The group keys of a hand with one tile ``t`` less (``t`` held)."""
    if t < 9:
        return km - KEY_MULT[t], kp, ks, kz
    if t < 18:
        return km, kp - KEY_MULT[t], ks, kz
    if t < 27:
        return km, kp, ks - KEY_MULT[t], kz
    return km, kp, ks, kz - KEY_MULT[t]


@ijit
def masks_without(t, eq1, eq2, eq3, eq4):
    """The count masks of a hand with one tile ``t`` less: ``(held, e1, e2, e3, e4)``,
    bit ``t`` moved from ``eq_c`` to ``eq_(c-1)``; ``held`` False when ``t`` is not held."""
    bit = np.int64(1) << t
    if eq1 & bit:
        return True, eq1 & ~bit, eq2, eq3, eq4
    if eq2 & bit:
        return True, eq1 | bit, eq2 & ~bit, eq3, eq4
    if eq3 & bit:
        return True, eq1, eq2 | bit, eq3 & ~bit, eq4
    if eq4 & bit:
        return True, eq1, eq2, eq3 | bit, eq4 & ~bit
    return False, eq1, eq2, eq3, eq4


@ijit
def _discards(km, kp, ks, kz, eq1, eq2, eq3, eq4, melds, forms, tab, out_sh, out_u):
    for t in range(34):
        held, e1, e2, e3, e4 = masks_without(t, eq1, eq2, eq3, eq4)
        if not held:
            out_sh[t] = IMPOSSIBLE
            out_u[t] = 0
            continue
        m0, m1, m2, m3 = keys_without(t, km, kp, ks, kz)
        need, bits = _forms_useful(m0, m1, m2, m3, e1, e2, e3, e4, melds, forms, tab)
        out_sh[t] = need - 1
        out_u[t] = bits


@hjit
def discard_one(counts, melds, forms, tab, out_shanten, out_useful):
    """Discard table of one 3k+2 hand.

    Fills ``out_shanten[t]`` (shanten after discarding one tile ``t``;
    :data:`IMPOSSIBLE` where ``t`` is not held) and ``out_useful[t]`` (mask of the
    kinds useful after that discard; 0 where not held).
    """
    km, kp, ks, kz, eq1, eq2, eq3, eq4 = scan_hand(counts)
    _discards(km, kp, ks, kz, eq1, eq2, eq3, eq4, melds, forms, tab, out_shanten, out_useful)


# --------------------------------------------------------------------------- batches
#
# ``*_rows`` kernels do rows ``lo:hi`` serially (the wrappers call them directly
# for small batches: waking the thread pool costs more than a few hands);
# ``*_batch`` kernels split the rows into chunks and run the chunks in prange.

CHUNK = 2048
"""Rows per parallel task in the ``*_batch`` kernels."""


@jit
def shanten_rows(counts, melds, forms, tab, out, lo, hi):
    """:func:`shanten_one` of rows ``lo:hi`` into ``out`` (N,) int8.

    A row whose concealed tiles + 3 x melds is not 13 or 14 gets
    :data:`WRONG_SIZE` (the caller raises): counting the tiles here, in the pass
    that reads them anyway, costs ~1 ns a hand; numpy row sums cost 35.
    """
    sr, hr, hv = tab.suit_rows, tab.honor_rows, tab.honor_vecs
    ss, sh, fin = tab.suit_suit, tab.suit_honor, tab.final
    for i in range(lo, hi):
        # _need_all written out, so that no call carries array arguments
        km = 0
        kp = 0
        ks = 0
        size = 0
        for r in range(9):
            a = np.int64(counts[i, r])
            b = np.int64(counts[i, 9 + r])
            c = np.int64(counts[i, 18 + r])
            km += a * KEY_MULT[r]
            kp += b * KEY_MULT[r]
            ks += c * KEY_MULT[r]
            size += a + b + c
        kz = 0
        for r in range(7):
            z = np.int64(counts[i, 27 + r])
            kz += z * KEY_MULT[r]
            size += z
        m = melds[i]
        size += 3 * np.int64(m)
        if size != 13 and size != 14:
            out[i] = WRONG_SIZE
            continue
        rm, rp, rs, rz = np.int64(sr[km]), np.int64(sr[kp]), np.int64(sr[ks]), np.int64(hr[kz])
        best = _NEED_NONE
        if forms & REGULAR:
            best = np.int64(fin[ss[rm & 0xFF, rp & 0xFF], sh[rs & 0xFF, rz & 0xFF], 4 - m])
        if forms != REGULAR and m <= 1:
            iz = rz & 0xFF
            z1, z2, z3 = np.int64(hv[iz, 1]), np.int64(hv[iz, 2]), np.int64(hv[iz, 3])
            best = _special_need(best, rm, rp, rs, rz, z1, z2, z3, m, forms)
        out[i] = best - 1


@jit
def useful_rows(counts, melds, forms, tab, out_shanten, out_useful, lo, hi):
    """:func:`useful_one` of rows ``lo:hi``: shanten (N,) and useful masks (N,) int64."""
    for i in range(lo, hi):
        km, kp, ks, kz = _group_keys_row(counts, i)
        eq1, eq2, eq3, eq4 = _tile_masks_row(counts, i)
        need, bits = _forms_useful(km, kp, ks, kz, eq1, eq2, eq3, eq4, melds[i], forms, tab)
        out_shanten[i] = need - 1
        out_useful[i] = bits


@jit
def discard_rows(counts, melds, forms, tab, out_shanten, out_useful, lo, hi):
    """:func:`discard_one` of rows ``lo:hi`` into (N, 34) outputs."""
    for i in range(lo, hi):
        km, kp, ks, kz = _group_keys_row(counts, i)
        eq1, eq2, eq3, eq4 = _tile_masks_row(counts, i)
        _discards(
            km, kp, ks, kz, eq1, eq2, eq3, eq4, melds[i], forms, tab,
            out_shanten[i], out_useful[i],
        )  # fmt: skip


@pjit
def shanten_batch(counts, melds, forms, tab, out):
    """:func:`shanten_rows` of every row, chunks in parallel."""
    n = counts.shape[0]
    for c in prange((n + CHUNK - 1) // CHUNK):
        lo, hi = np.int64(c) * CHUNK, min(n, (np.int64(c) + 1) * CHUNK)
        shanten_rows(counts, melds, forms, tab, out, lo, hi)


@pjit
def useful_batch(counts, melds, forms, tab, out_shanten, out_useful):
    """:func:`useful_rows` of every row, chunks in parallel."""
    n = counts.shape[0]
    for c in prange((n + CHUNK - 1) // CHUNK):
        lo, hi = np.int64(c) * CHUNK, min(n, (np.int64(c) + 1) * CHUNK)
        useful_rows(counts, melds, forms, tab, out_shanten, out_useful, lo, hi)


@pjit
def discard_batch(counts, melds, forms, tab, out_shanten, out_useful):
    """:func:`discard_rows` of every row, chunks in parallel."""
    n = counts.shape[0]
    for c in prange((n + CHUNK - 1) // CHUNK):
        lo, hi = np.int64(c) * CHUNK, min(n, (np.int64(c) + 1) * CHUNK)
        discard_rows(counts, melds, forms, tab, out_shanten, out_useful, lo, hi)
