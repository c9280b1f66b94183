"""Hand decomposition kernels: per-suit splits and special-form tests.

Everything here works on plain arrays. Tile ids follow the package contract
(0-8 characters, 9-17 dots, 18-26 bamboo, 27-30 winds E S W N, 31 white,
32 green, 33 red).

Per-suit splits
---------------
A regular hand splits suit by suit: each suit's tiles are sets (pungs,
chows), plus the pair in the one group holding 2 mod 3 tiles; honours are
pungs and possibly the pair. Within a suit a split is fixed by the pair and
by the ranks that hold a pung, because the remaining tiles must then be
chows and the counts fix them (lowest rank first). :func:`suit_splits`
enumerates the pair candidates (only ranks ``p`` with
``sum(r * count_r) - 2p`` divisible by 3 can hold it) and the subsets of
ranks held at least 3 times (a bit-mask loop). A split is one packed int::

    code_0 << 32 | code_1 << 24 | code_2 << 16 | code_3 << 8 | pair_rank

with set codes ``2*r`` = pung of rank ``r`` (0-based) and ``2*r + 1`` = chow
starting at rank ``r``; unused codes and "no pair" are 255. Codes within a
split are ascending and splits are sorted: the order in which the reference
scorer (PyMahjongGB 1.4.0) enumerates decompositions (lower tiles first, a
pung of a tile before a chow starting at it), so :func:`enumerate_regular`,
walking the suits in the reference order (characters, bamboo, dots), meets
the decompositions in the reference's order. :func:`suit_sets_ok` is the
yes/no test (greedy: at the lowest rank left, ``count % 3`` chows must start
there), exact for any counts, including a kind held five times as formal
waits require.

The suit table
--------------
The scorer does not split suits at run time: :func:`build_suit_table` runs
:func:`suit_splits` once for every suit key (``key = sum(count[r] * 5**r)``,
all ``5**9`` of them, 0.2 s) and stores, per key, one uint32 ``info``
(:func:`suit_table` loads the copy of it shipped in ``mjstats/data``)::

    bits 0-8    wait mask: rank r is set when one more tile of rank r makes
                the suit sets only (key holds 2 mod 3 tiles) or sets and a
                pair (1 mod 3); a fifth copy counts, as formal waits need
    bits 9-13   number of splits (0 = the suit does not split; an empty
                suit has one, empty, split)
    bits 14-31  offset of the splits in ``SuitTable.splits``

Complete suits are few (23,533 splits in all, at most 4 per key), so the
entries a scorer touches stay in cache: the three lookups of a hand take
about 13 ns against 180 ns for three :func:`suit_splits` calls.

Special forms
-------------
:func:`is_seven_pairs`, :func:`is_seven_shifted_pairs`, :func:`is_thirteen_orphans`,
:func:`honors_knitted_kind`, :func:`knitted_body`, :func:`is_nine_gates` test the
MCR special forms on a 34-count vector; :data:`KNITTED` lists the six knitted
sequences (组合龙).
"""

from __future__ import annotations

import itertools
from functools import cache
from typing import NamedTuple

import numpy as np

from mjstats._readonly import read_only
from mjstats.kernels._jit import hjit, ijit, jit

__all__ = [
    "KNITTED",
    "MAX_DECOMPOSITIONS",
    "NO_RANK",
    "SUIT_KEYS",
    "SuitTable",
    "build_suit_table",
    "enumerate_regular",
    "honors_knitted_kind",
    "is_nine_gates",
    "is_regular_complete",
    "is_seven_pairs",
    "is_seven_shifted_pairs",
    "is_thirteen_orphans",
    "keep_reading",
    "knitted_body",
    "packed_pair_ok",
    "packed_sets_ok",
    "split_code",
    "split_pair",
    "suit_key",
    "suit_pack",
    "suit_sets_ok",
    "suit_splits",
    "suit_table",
    "write_suit_table",
]

NO_RANK = 255
#: upper bound on the regular decompositions of one hand (14 concealed tiles)
MAX_DECOMPOSITIONS = 64

#: the six knitted sequences (组合龙): row k = the 9 tile ids, suits assigned to
#: 147 / 258 / 369 in the order the reference lists them (characters, bamboo, dots
#: permuted). Reference suit order is characters, bamboo, dots.
KNITTED = np.array(
    [
        [
            s1 * 9 + 0,
            s1 * 9 + 3,
            s1 * 9 + 6,
            s2 * 9 + 1,
            s2 * 9 + 4,
            s2 * 9 + 7,
            s3 * 9 + 2,
            s3 * 9 + 5,
            s3 * 9 + 8,
        ]
        for s1, s2, s3 in itertools.permutations((0, 2, 1))
    ],
    dtype=np.uint8,
)
KNITTED = read_only(KNITTED)

_ORPHANS = np.array([0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33], dtype=np.uint8)


@hjit
def suit_pack(counts, offset):
    """Pack nine counts into one int: 4 bits per rank (rank r at bits 4r..4r+3).

    Returns ``(packed, n_tiles, rank_sum)`` where ``rank_sum = sum(r * c_r)``.
    """
    v = 0
    n = 0
    s = 0
    for r in range(9):
        c = np.int64(counts[offset + r])
        v |= c << (4 * r)
        n += c
        s += r * c
    return v, n, s


@hjit
def packed_sets_ok(v):
    """A packed suit (:func:`suit_pack`) splits into sets only.

    Greedy and exact for any counts (a kind may be held 5 times, as formal
    waits need): at the lowest rank left, ``count % 3`` chows must start
    there; three more chows would be the same tiles as three pungs.
    """
    for _ in range(7):
        x = (v & 0xF) % 3
        if x:
            if ((v >> 4) & 0xF) < x or ((v >> 8) & 0xF) < x:
                return False
            v -= x * 0x111
        v >>= 4
    return (v & 0xF) % 3 == 0 and ((v >> 4) & 0xF) % 3 == 0


@hjit
def packed_pair_ok(v, s):
    """A packed suit splits into sets plus one pair (``s`` = its rank sum).

    Only ranks ``p`` with ``s - 2p`` divisible by 3, i.e. ``p = 2s mod 3`` plus
    multiples of 3, can hold the pair (chows and pungs have rank sums divisible
    by 3).
    """
    p = (2 * s) % 3
    while p < 9:
        if ((v >> (4 * p)) & 0xF) >= 2 and packed_sets_ok(v - (2 << (4 * p))):
            return True
        p += 3
    return False


@hjit
def suit_sets_ok(counts, offset, n_pair):
    """True if the nine counts at ``offset`` split into sets plus ``n_pair`` (0/1) pairs."""
    v, _, s = suit_pack(counts, offset)
    if n_pair == 0:
        return packed_sets_ok(v)
    return packed_pair_ok(v, s)


@hjit
def _chows_word(w, sub, n_sets):
    """Split of packed counts ``w`` (pungs at the ranks of ``sub`` already removed)
    into chows; returns the packed code word of the split (see :func:`suit_splits`)
    or -1 if the rest is not ``n_sets`` sets."""
    word = 0
    k = 0
    for r in range(7):
        if (sub >> r) & 1:
            word = (word << 8) | (2 * r)
            k += 1
        a = w & 0xF
        if a:
            if ((w >> 4) & 0xF) < a or ((w >> 8) & 0xF) < a:
                return -1
            w -= a * 0x111
            k += a
            if k > 4:
                return -1
            for _ in range(a):
                word = (word << 8) | (2 * r + 1)
        w >>= 4
    if w != 0:
        return -1
    if (sub >> 7) & 1:
        word = (word << 8) | 14
        k += 1
    if (sub >> 8) & 1:
        word = (word << 8) | 16
        k += 1
    if k != n_sets:
        return -1
    while k < 4:
        word = (word << 8) | 0xFF
        k += 1
    return word


@hjit
def _add_splits(v, sub_mask, n_sets, pair, out, n_out):
    """Append the splits of packed ``v`` for every subset of ``sub_mask`` as pungs."""
    sub = sub_mask
    while True:
        w = v
        q = sub
        r = 0
        while q:
            if q & 1:
                w -= 3 << (4 * r)
            q >>= 1
            r += 1
        word = _chows_word(w, sub, n_sets)
        if word >= 0:
            if n_out >= out.shape[0]:
                return -1
            out[n_out] = (word << 8) | pair
            n_out += 1
        if sub == 0:
            break
        sub = (sub - 1) & sub_mask
    return n_out


@hjit
def suit_splits(counts, offset, out):
    """Every split of one suit's tiles into sets (+ the pair if 2 mod 3 tiles).

    Parameters
    ----------
    counts : uint8 (34,)
        Counts; the suit is ``counts[offset:offset + 9]`` (each 0-4).
    offset : int
    out : int64 (M,)
        Receives one packed value per split, in ascending order::

            value = code_0 << 32 | code_1 << 24 | code_2 << 16 | code_3 << 8
                    | pair_rank  (255 = no pair)

        where set codes are ``2r`` (pung of rank r, 0-based) and ``2r+1`` (chow
        starting at rank r), ascending, 255 for unused slots. Ascending values
        are lexicographic order of the code rows: the reference scorer's
        enumeration order. :func:`split_code` and :func:`split_pair` decode.

    Returns
    -------
    int
        Number of splits (0: the suit does not split; -1: more than ``M`` or
        more than four sets).

    Every split is found once: a split is fixed by its pair and the set of
    ranks that hold a pung; the other tiles must then be chows, which the
    counts fix (lowest rank first).
    """
    v = 0
    n = 0
    s = 0
    big = 0
    for r in range(9):
        c = np.int64(counts[offset + r])
        v |= c << (4 * r)
        n += c
        s += r * c
        if c >= 3:
            big |= 1 << r
    m = n % 3
    if m == 1:
        return 0
    n_sets = (n - m) // 3
    if n_sets > 4:
        return -1
    n_out = 0
    if m == 0:
        n_out = _add_splits(v, big, n_sets, NO_RANK, out, 0)
    else:
        p = (2 * s) % 3
        while p < 9 and n_out >= 0:
            c = (v >> (4 * p)) & 0xF
            if c >= 2:
                bigp = big if c >= 5 else big & ~(1 << p)
                n_out = _add_splits(v - (2 << (4 * p)), bigp, n_sets, p, out, n_out)
            p += 3
    for i in range(1, n_out):
        x = out[i]
        j = i - 1
        while j >= 0 and out[j] > x:
            out[j + 1] = out[j]
            j -= 1
        out[j + 1] = x
    return n_out


@hjit
def split_code(value, j):
    """Set code ``j`` (0-3) of a packed split value (255 = unused)."""
    return (value >> (32 - 8 * j)) & 0xFF


@hjit
def split_pair(value):
    """Pair rank of a packed split value (255 = no pair)."""
    return value & 0xFF


@hjit
def _honors_ok(counts):
    """Honours split into pungs and at most one pair: returns (ok, has_pair)."""
    pairs = 0
    for t in range(27, 34):
        c = counts[t]
        if c == 2:
            pairs += 1
        elif c != 0 and c != 3:
            return False, False
    if pairs > 1:
        return False, False
    return True, pairs == 1


@hjit
def is_regular_complete(counts):
    """True if ``counts`` (3k+2 tiles; a kind may be held 5 times) is sets + one pair."""
    pairs = 0
    for s in range(3):
        n = 0
        for r in range(9):
            n += counts[9 * s + r]
        m = n % 3
        if m == 1:
            return False
        if m == 2:
            pairs += 1
        if n > 0 and not suit_sets_ok(counts, 9 * s, 1 if m == 2 else 0):
            return False
    ok, hp = _honors_ok(counts)
    if not ok:
        return False
    if hp:
        pairs += 1
    return pairs == 1


# reference suit order: characters (0), bamboo (2), dots (1)
_REF_SUITS = (0, 2, 1)
# reference honour order: E S W N red green white
_REF_HONORS = (27, 28, 29, 30, 33, 32, 31)

#: number of suit keys: ``sum(count[r] * 5**r)`` for counts 0-4 of ranks 0-8
SUIT_KEYS = 5**9
_INFO_WAITS = 0x1FF
_INFO_COUNT_SHIFT = 9
_INFO_OFFSET_SHIFT = 14


class SuitTable(NamedTuple):
    """Per-suit-key splits and waits (see "The suit table" in the module docstring)."""

    info: np.ndarray  # uint32 (SUIT_KEYS,)
    splits: np.ndarray  # int64 (M,) packed splits, sorted within each key


@ijit
def suit_key(counts, offset):
    """Base-5 key of the nine counts at ``offset`` (each 0-4). Inlined: its
    callers pass both read-only rows and scratch arrays, and as a kernel of
    its own it was compiled once for each."""
    key = 0
    for r in range(8, -1, -1):
        key = key * 5 + np.int64(counts[offset + r])
    return key


@jit
def _build_suit_table():
    info = np.zeros(SUIT_KEYS, np.uint32)
    counts = np.zeros(9, np.uint8)
    buf = np.zeros(64, np.int64)
    flat = np.zeros(1 << 16, np.int64)
    n_flat = 0
    for key in range(SUIT_KEYS):
        x = key
        n = 0
        for r in range(9):
            counts[r] = x % 5
            n += counts[r]
            x //= 5
        if n > 14:
            continue
        waits = 0
        m = (n + 1) % 3
        if m != 1:
            v, _, s = suit_pack(counts, 0)
            for r in range(9):
                v2 = v + (1 << (4 * r))
                if packed_pair_ok(v2, s + r) if m == 2 else packed_sets_ok(v2):
                    waits |= 1 << r
        k = suit_splits(counts, 0, buf) if n % 3 != 1 else 0
        info[key] = waits | (k << _INFO_COUNT_SHIFT) | (n_flat << _INFO_OFFSET_SHIFT)
        for i in range(k):
            flat[n_flat] = buf[i]
            n_flat += 1
    return info, flat[:n_flat].copy()


def build_suit_table() -> SuitTable:
    """The :class:`SuitTable` from its definition (the numba builder above).

    :func:`suit_table` returns the copy shipped in ``mjstats/data/suit-table.npz``
    (compiling the builder would add about two seconds to every cold start); the
    test suite checks that the two are equal, and :func:`write_suit_table`
    remakes the file.
    """
    info, splits = _build_suit_table()
    if len(splits) >= 1 << (32 - _INFO_OFFSET_SHIFT):  # pragma: no cover - layout guard
        raise RuntimeError("suit table offsets overflow their 18 bits")
    return SuitTable(info, splits)


def _suit_table_path():
    from importlib import resources

    return resources.files("mjstats").joinpath("data", "suit-table.npz")


def write_suit_table(path=None) -> None:
    """Remake the shipped suit table (after changing how it is built)."""
    info, splits = build_suit_table()
    np.savez_compressed(_suit_table_path() if path is None else path, info=info, splits=splits)


@cache
def suit_table() -> SuitTable:
    """The :class:`SuitTable`, loaded from the shipped copy on first use (memoised).

    Examples
    --------
    >>> import numpy as np
    >>> from mjstats.kernels.decompose import suit_table, suit_key
    >>> t = suit_table()
    >>> e = int(t.info[suit_key(np.array([1, 1, 1, 3, 0, 0, 0, 0, 0], np.uint8), 0)])
    >>> (e >> 9) & 31  # 123444: 123 + 444 is its only split
    1
    >>> [r + 1 for r in range(9) if (e & 0x1FF) >> r & 1]  # 6 tiles: no wait
    []
    """
    with _suit_table_path().open("rb") as fh, np.load(fh) as z:
        info, splits = z["info"], z["splits"]
    if info.shape != (SUIT_KEYS,) or info.dtype != np.uint32 or splits.dtype != np.int64:
        raise RuntimeError(
            "mjstats/data/suit-table.npz does not fit this version of mjstats; "
            "remake it with mjstats.kernels.decompose.write_suit_table()"
        )
    info = read_only(info)
    splits = read_only(splits)
    return SuitTable(info, splits)


@hjit
def suit_waits_splits(info, counts, offset):
    """``(wait mask, number of splits)`` of the suit at ``offset`` (see
    :class:`SuitTable`): one key, one lookup. A split count of 0 means the suit
    does not split into sets (and a pair)."""
    e = info[suit_key(counts, offset)]
    return e & _INFO_WAITS, (e >> _INFO_COUNT_SHIFT) & 31


@hjit
def enumerate_regular(counts, table, out_sets, out_pair):
    """Write every regular decomposition of ``counts`` in the reference's order.

    Parameters
    ----------
    counts : uint8 (34,)
        Concealed tiles (3k + 2 of them, each kind 0-4; melds are not included).
    table : SuitTable
        From :func:`suit_table`.
    out_sets : uint8 (D, 4, 2)
        Row d receives the concealed sets of decomposition d as ``[kind, tile]``
        (kind 1 chow with its lowest tile, 2 pung), ``k`` sets then zeros.
    out_pair : uint8 (D,)
        The pair tile of each decomposition.

    Returns
    -------
    int
        Number of decompositions written (0 = not complete; at most ``D``).

    The order is the reference scorer's: decompositions sorted by their sets,
    characters before bamboo before dots, a pung of a tile before a chow
    starting at it.
    """
    ok, hp = _honors_ok(counts)
    if not ok:
        return 0
    info = table.info
    flat = table.splits
    pairs = 1 if hp else 0
    e0 = info[suit_key(counts, 9 * _REF_SUITS[0])]
    e1 = info[suit_key(counts, 9 * _REF_SUITS[1])]
    e2 = info[suit_key(counts, 9 * _REF_SUITS[2])]
    n0 = (e0 >> _INFO_COUNT_SHIFT) & 31
    n1 = (e1 >> _INFO_COUNT_SHIFT) & 31
    n2 = (e2 >> _INFO_COUNT_SHIFT) & 31
    if n0 == 0 or n1 == 0 or n2 == 0:
        return 0
    o0 = e0 >> _INFO_OFFSET_SHIFT
    o1 = e1 >> _INFO_OFFSET_SHIFT
    o2 = e2 >> _INFO_OFFSET_SHIFT
    for o in (o0, o1, o2):
        if split_pair(flat[o]) != NO_RANK:
            pairs += 1
    if pairs != 1:
        return 0
    written = 0
    limit = out_sets.shape[0]
    for i0 in range(n0):
        for i1 in range(n1):
            for i2 in range(n2):
                if written >= limit:
                    return written
                k = 0
                pair = NO_RANK
                for g in range(3):
                    s = _REF_SUITS[g]
                    value = flat[o0 + i0 if g == 0 else (o1 + i1 if g == 1 else o2 + i2)]
                    for j in range(4):
                        c = split_code(value, j)
                        if c == NO_RANK:
                            break
                        out_sets[written, k, 0] = 2 - (c & 1)  # chow 1, pung 2
                        out_sets[written, k, 1] = 9 * s + (c >> 1)
                        k += 1
                    pr = split_pair(value)
                    if pr != NO_RANK:
                        pair = 9 * s + pr
                for h in range(7):
                    t = _REF_HONORS[h]
                    if counts[t] == 3:
                        out_sets[written, k, 0] = 2
                        out_sets[written, k, 1] = t
                        k += 1
                    elif counts[t] == 2:
                        pair = t
                while k < 4:
                    out_sets[written, k, 0] = 0
                    out_sets[written, k, 1] = 0
                    k += 1
                out_pair[written] = pair
                written += 1
    return written


@hjit
def is_seven_pairs(counts):
    """14 concealed tiles that are seven pairs (a kind held 4 times is two pairs)."""
    n = 0
    for t in range(34):
        c = counts[t]
        if c & 1:
            return False
        n += c
    return n == 14


@hjit
def is_seven_shifted_pairs(counts):
    """Seven pairs of seven consecutive ranks of one suit (连七对)."""
    for s in range(3):
        for lo in range(3):
            ok = True
            for t in range(34):
                want = 2 if (t >= 9 * s + lo and t < 9 * s + lo + 7) else 0
                if counts[t] != want:
                    ok = False
                    break
            if ok:
                return True
    return False


@hjit
def is_thirteen_orphans(counts):
    """All 13 terminal/honour kinds, one of them twice, nothing else (十三幺)."""
    n = 0
    for t in range(34):
        c = counts[t]
        orphan = t >= 27 or t % 9 == 0 or t % 9 == 8
        if orphan:
            if c == 0 or c > 2:
                return False
        elif c != 0:
            return False
        n += c
    return n == 14


@hjit
def honors_knitted_kind(counts):
    """Honours-and-knitted test (全不靠 / 七星不靠).

    Returns ``(seq, n_honors)``: the knitted sequence (row of :data:`KNITTED`)
    containing every numbered tile and the number of honour kinds, or
    ``(-1, 0)`` when the 14 tiles are not 14 distinct kinds of that shape.
    """
    n = 0
    for t in range(34):
        if counts[t] > 1:
            return -1, 0
        n += counts[t]
    if n != 14:
        return -1, 0
    nh = 0
    for t in range(27, 34):
        nh += counts[t]
    for k in range(6):
        inside = 0
        for j in range(9):
            inside += counts[KNITTED[k, j]]
        if inside == 14 - nh:
            return k, nh
    return -1, 0


@hjit
def knitted_body(counts):
    """Index of the first knitted sequence fully present in ``counts``, else -1."""
    for k in range(6):
        ok = True
        for j in range(9):
            if counts[KNITTED[k, j]] == 0:
                ok = False
                break
        if ok:
            return k
    return -1


@hjit
def is_nine_gates(standing, win_tile):
    """13 standing tiles 1112345678999 of one suit and a winning tile of that suit."""
    if win_tile >= 27:
        return False
    s = win_tile // 9
    for t in range(34):
        want = 0
        if t // 9 == s and t < 27:
            r = t - 9 * s
            want = 3 if (r == 0 or r == 8) else 1
        if standing[t] != want:
            return False
    return True


@ijit
def keep_reading(sets, pair, out):
    """Record a regular reading as the best so far: its four sets (rows 0-3 of
    ``sets``: kind, tile, melded, 0) and its pair (row 4, kind 5) into ``out``,
    a scorer's (8, 4) reading array."""
    for i in range(4):
        for j in range(4):
            out[i, j] = sets[i, j]
    out[4, 0] = 5
    out[4, 1] = pair
    out[4, 2] = 0
