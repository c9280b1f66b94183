"""Shanten, useful tiles and discard tables: golden hands, a naive oracle, the public API.

The naive oracle below computes the definition directly -- the fewest tiles to
draw to reach *some* complete concealed part of the form, each kind used at most
``limit`` times -- by enumerating complete patterns (per group for the regular
form, whole hands for the special forms and for tiny regular hands). With
``limit=None`` it gives the relaxed number that ignores the four-copy limit,
which is what PyMahjongGB and the riichi library compute.
"""

from __future__ import annotations

import importlib
import itertools
import os
import types
import warnings
from functools import cache

import numba
import numpy as np
import pytest
from test_tables import JIT_DISABLED, load_tables_for_tests

from mjstats.efficiency import (
    FORMS,
    IMPOSSIBLE,
    discard_table,
    shanten,
    useful_copies,
    useful_tiles,
)
from mjstats.errors import InvalidHandError, InvalidMeldError, TileCountError
from mjstats.kernels import shanten as K
from mjstats.tiles import parse_tiles

SCALE = float(os.environ.get("MJSTATS_TEST_SCALE", "1"))


@pytest.fixture(scope="module")
def tab():
    return load_tables_for_tests()


# --------------------------------------------------------------------------- naive oracle

ORPHANS = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]
KNIT_PERMS = list(itertools.permutations(range(3)))


@cache
def group_patterns(ndig: int, chows: bool, limit: int | None) -> dict:
    """Complete patterns (k sets, p pairs) of one group, counts <= limit."""
    eye = np.eye(ndig, dtype=np.int64)
    sets = [3 * eye[r] for r in range(ndig)]
    if chows:
        sets += [eye[r] + eye[r + 1] + eye[r + 2] for r in range(ndig - 2)]
    out = {}
    for k in range(5):
        base = np.array(
            [
                sum(c, np.zeros(ndig, dtype=np.int64))
                for c in itertools.combinations_with_replacement(sets, k)
            ]
        ).reshape(-1, ndig)
        paired = (base[:, None, :] + 2 * eye[None]).reshape(-1, ndig)
        for p, pats in ((0, base), (1, paired)):
            if limit is not None:
                pats = pats[(pats <= limit).all(axis=1)]
            out[k, p] = np.unique(pats, axis=0)
    return out


def _group_need(x: np.ndarray, ndig: int, chows: bool, limit) -> np.ndarray:
    return _group_need_cached(tuple(int(v) for v in x), ndig, chows, limit)


@cache
def _group_need_cached(x: tuple, ndig: int, chows: bool, limit) -> np.ndarray:
    x = np.array(x, dtype=np.int64)
    pats = group_patterns(ndig, chows, limit)
    d = np.full((5, 2), 99, dtype=np.int64)
    for (k, p), arr in pats.items():
        if len(arr):
            d[k, p] = np.maximum(arr - x, 0).sum(axis=1).min()
    return d


@cache
def _whole_sets() -> np.ndarray:
    sets = []
    for t in range(34):
        v = np.zeros(34, dtype=np.int64)
        v[t] = 3
        sets.append(v)
    for s in range(3):
        for r in range(7):
            v = np.zeros(34, dtype=np.int64)
            v[9 * s + r : 9 * s + r + 3] = 1
            sets.append(v)
    return np.array(sets)


def _patterns_sets_pair(n_sets: int) -> np.ndarray:
    """Whole-hand patterns of n_sets (0 or 1) sets + a pair."""
    pairs = 2 * np.eye(34, dtype=np.int64)
    if n_sets == 0:
        return pairs
    return (_whole_sets()[:, None, :] + pairs[None]).reshape(-1, 34)


def _min_need(h: np.ndarray, pats: np.ndarray, limit) -> int:
    if limit is not None:
        pats = pats[(pats <= limit).all(axis=1)]
    if not len(pats):
        return IMPOSSIBLE + 1
    return int(np.maximum(pats - h, 0).sum(axis=1).min())


def naive_need(h, melds: int, form: str, limit=4) -> int:
    """Fewest tiles to draw for ``form`` (IMPOSSIBLE + 1 when unreachable)."""
    h = np.asarray(h, dtype=np.int64)
    n_sets = 4 - melds
    if form == "regular":
        if n_sets <= 1:  # tiny hands: whole-hand enumeration, no group split
            return _min_need(h, _patterns_sets_pair(n_sets), limit)
        groups = [
            _group_need(h[0:9], 9, True, limit),
            _group_need(h[9:18], 9, True, limit),
            _group_need(h[18:27], 9, True, limit),
            _group_need(h[27:34], 7, False, limit),
        ]
        best = 99
        for ks in itertools.product(range(n_sets + 1), repeat=4):
            if sum(ks) != n_sets:
                continue
            for pg in range(4):
                best = min(best, sum(groups[g][ks[g], int(g == pg)] for g in range(4)))
        return best
    if melds:
        if form == "knitted_straight" and melds == 1:
            pass
        else:
            return IMPOSSIBLE + 1
    if form == "seven_pairs":
        # knapsack over kinds: c in {0, 2, 4}, 7 pair units, maximise overlap
        best = {0: 0}
        for t in range(34):
            nxt = {}
            for units, ov in best.items():
                for u in (0, 1, 2):
                    if units + u <= 7 and (limit is None or 2 * u <= limit):
                        key = units + u
                        nxt[key] = max(nxt.get(key, -1), ov + min(h[t], 2 * u))
            best = nxt
        return 14 - best[7]
    if form == "thirteen_orphans":
        base = np.zeros(34, dtype=np.int64)
        base[ORPHANS] = 1
        pats = np.array([base + np.eye(34, dtype=np.int64)[d] for d in ORPHANS])
        return _min_need(h, pats, limit)
    knitted_bodies = []
    for perm in KNIT_PERMS:
        body = np.zeros(34, dtype=np.int64)
        for s, j in enumerate(perm):
            body[[9 * s + j, 9 * s + j + 3, 9 * s + j + 6]] = 1
        knitted_bodies.append(body)
    if form == "honors_knitted":
        best = 99
        for body in knitted_bodies:
            cand = np.flatnonzero(body).tolist() + list(range(27, 34))
            for drop in itertools.combinations(cand, 2):
                c = np.zeros(34, dtype=np.int64)
                c[[t for t in cand if t not in drop]] = 1
                best = min(best, int(np.maximum(c - h, 0).sum()))
        return best
    if form == "knitted_straight":
        rest = _patterns_sets_pair(1 - melds)
        return min(_min_need(h, body + rest, limit) for body in knitted_bodies)
    raise AssertionError(form)


def naive_shanten(h, melds=0, forms=FORMS, limit=4) -> int:
    return min(naive_need(h, melds, f, limit) for f in forms) - 1


def naive_useful(h, melds=0, forms=FORMS, limit=4) -> set[int]:
    h = np.asarray(h, dtype=np.int64)
    s = naive_shanten(h, melds, forms, limit)
    out = set()
    for t in range(34):
        if limit is not None and h[t] >= limit:
            continue
        h2 = h.copy()
        h2[t] += 1
        if naive_shanten(h2, melds, forms, limit) < s:
            out.add(t)
    return out


# --------------------------------------------------------------------------- random hands


def deal(rng, n_tiles: int, kind: str) -> np.ndarray:
    """Random concealed tiles: "uniform" wall, "one_suit", "half_flush" (a suit + honors)."""
    if kind == "uniform":
        kinds = np.arange(34)
    elif kind == "one_suit":
        s = rng.integers(3)
        kinds = np.arange(9 * s, 9 * s + 9)
    else:
        s = rng.integers(3)
        kinds = np.r_[np.arange(9 * s, 9 * s + 9), np.arange(27, 34)]
    wall = np.repeat(kinds, 4)
    pick = rng.choice(len(wall), size=n_tiles, replace=False)
    return np.bincount(wall[pick], minlength=34).astype(np.uint8)


def random_hands(seed: int, n: int, sizes=(13, 14), melds=(0, 1, 2, 3, 4)):
    rng = np.random.default_rng(seed)
    hands, mcount = [], []
    for i in range(n):
        m = melds[i % len(melds)]
        size = sizes[(i // len(melds)) % len(sizes)] - 3 * m
        kind = ("uniform", "one_suit", "half_flush")[i % 3]
        hands.append(deal(rng, size, kind))
        mcount.append(m)
    return np.array(hands, dtype=np.uint8), np.array(mcount, dtype=np.uint8)


# --------------------------------------------------------------------------- golden hands

GOLDEN = [
    # text, melds, {form: shanten}, overall
    ("2222m456m778899m", 0, {"regular": 1}, 1),  # reference says 0 (waits on a 5th 2m)
    ("19m19p19s1234567z", 0, {"thirteen_orphans": 0, "regular": 8}, 0),
    ("19m19p19s12345677z", 0, {"thirteen_orphans": -1}, -1),
    ("147m258p369s1234z", 0, {"honors_knitted": 0, "knitted_straight": 2}, 0),
    ("147m258p369s12345z", 0, {"honors_knitted": -1}, -1),
    ("112347m258p369s1z", 0, {"knitted_straight": 0}, 0),
    ("123447m258p369s11z", 0, {"knitted_straight": -1}, -1),
    ("1111m2233p4455s6z", 0, {"seven_pairs": 0}, 0),  # a quad is two pairs
    ("1111m2233p4455s66z", 0, {"seven_pairs": -1}, -1),
    ("1122m3344p5566s7z", 0, {"seven_pairs": 0, "regular": 3}, 0),
    ("1112345678999m", 0, {"regular": 0}, 0),
    ("11123456789999m", 0, {"regular": -1}, -1),
    ("123m456p789s1122z", 0, {"regular": 0}, 0),
    ("123m456p789s1234z", 0, {"regular": 2}, 2),
    ("1234m", 3, {"regular": 0}, 0),
    ("11m", 4, {"regular": -1}, -1),
    ("1m", 4, {"regular": 0}, 0),
    ("12m", 4, {"regular": 0}, 0),
    ("1122m3344p55s", 1, {"seven_pairs": IMPOSSIBLE, "regular": 2}, 2),
    ("147m258p369s1z", 1, {"knitted_straight": 0}, 0),  # body + waiting on the pair
    ("1m", 4, {"knitted_straight": IMPOSSIBLE, "honors_knitted": IMPOSSIBLE}, 0),
    ("4444m", 3, {"regular": 1}, 1),  # 444m + 4m needs a fifth 4m for the pair
    ("1111m", 3, {"regular": 1}, 1),
    ("1111m2222m3333m4m", 0, {"regular": 0}, 0),
]


@pytest.mark.parametrize(("text", "melds", "per_form", "overall"), GOLDEN)
def test_golden(tab, text, melds, per_form, overall):
    h = parse_tiles(text)
    assert int(shanten(h, melds)) == overall
    for form, expect in per_form.items():
        assert int(shanten(h, melds, form=form)) == expect, form
        if expect != IMPOSSIBLE:
            assert naive_shanten(h, melds, (form,)) == expect, form
    assert naive_shanten(h, melds) == overall


# --------------------------------------------------------------------------- kernels vs naive


def test_kernels_match_naive_oracle(tab):
    hands, melds = random_hands(7, int(60 * SCALE))
    for form in (None, *FORMS):
        forms = FORMS if form is None else (form,)
        got = shanten(hands, melds, form=form)
        for h, m, g in zip(hands, melds, got, strict=True):
            assert g == naive_shanten(h, int(m), forms), (form, h.tolist(), int(m))


def test_useful_matches_naive_oracle(tab):
    hands, melds = random_hands(8, int(12 * SCALE), sizes=(13,))
    for form in (None, *FORMS):
        forms = FORMS if form is None else (form,)
        got = useful_tiles(hands, melds, form=form)
        for h, m, g in zip(hands, melds, got, strict=True):
            if naive_shanten(h, int(m), forms) >= IMPOSSIBLE:
                continue
            assert set(np.flatnonzero(g)) == naive_useful(h, int(m), forms), (form, h.tolist())


def test_useful_is_consistent_with_shanten(tab):
    """A kind is useful exactly when adding it lowers the (3k+2) shanten."""
    hands, melds = random_hands(9, int(300 * SCALE), sizes=(13,))
    for form in (None, *FORMS):
        base = shanten(hands, melds, form=form)
        useful = useful_tiles(hands, melds, form=form)
        for t in range(34):
            room = hands[:, t] < 4
            plus = hands[room].copy()
            plus[:, t] += 1
            lowered = shanten(plus, melds[room], form=form) < base[room]
            assert np.array_equal(useful[room, t], lowered & (base[room] != IMPOSSIBLE)), (form, t)
            assert not useful[~room, t].any()


def test_discard_table_matches_recomputation(tab):
    hands, melds = random_hands(10, int(200 * SCALE), sizes=(14,))
    rng = np.random.default_rng(3)
    visible = np.minimum(rng.integers(0, 2, size=hands.shape), 4 - hands).astype(np.uint8)
    for form in (None, "regular", "seven_pairs"):
        table = discard_table(hands, melds, visible=visible, form=form)
        assert table.shanten.shape == (len(hands), 34) and table.shanten.dtype == np.int8
        for t in range(34):
            held = hands[:, t] > 0
            assert (table.shanten[~held, t] == IMPOSSIBLE).all()
            minus = hands[held].copy()
            minus[:, t] -= 1
            expect_sh = shanten(minus, melds[held], form=form)
            assert np.array_equal(table.shanten[held, t], expect_sh)
            u = useful_tiles(minus, melds[held], form=form)
            got_u = (table.useful_mask[held, t][:, None] >> np.arange(34)) & 1
            assert np.array_equal(got_u.astype(bool), u)
            unseen = 4 - hands[held].astype(int) - visible[held]
            assert np.array_equal(table.useful_copies[held, t], (u * unseen).sum(axis=1))
            assert np.array_equal(table.useful_kinds[held, t], u.sum(axis=1))
    # best discard keeps the shanten of a non-complete hand
    full = shanten(hands, melds)
    best = discard_table(hands, melds).shanten.min(axis=1)
    assert np.array_equal(best, np.maximum(full, 0))


# --------------------------------------------------------------------------- public API


def test_shapes_scalars_and_dtypes(tab):
    h = parse_tiles("123m456p789s1122z")
    s = shanten(h)
    assert isinstance(s, np.int8) and s == 0
    batch = shanten(np.stack([h, h]))
    assert batch.dtype == np.int8 and batch.shape == (2,)
    assert shanten(np.zeros((0, 34), np.uint8)).shape == (0,)
    assert useful_tiles(h).shape == (34,) and useful_tiles(h).dtype == bool
    assert useful_tiles(np.stack([h, h])).shape == (2, 34)
    c = useful_copies(h)
    assert c.dtype == np.uint8 and c.tolist()[27:29] == [2, 2] and c.sum() == 4
    assert shanten("123m456p789s1122z") == 0
    assert shanten(h.astype(np.int64).tolist()) == 0
    assert shanten(h[None], melds=np.array([0])).tolist() == [0]


def test_public_names_not_shadowed_by_their_modules(tab):
    # the functions live in modules of other names, so importing every public
    # module leaves ``mjstats.shanten``, ``mjstats.score``, ... the functions
    import mjstats.efficiency
    import mjstats.readings
    import mjstats.scorer

    for name, module in mjstats._LAZY.items():
        assert getattr(mjstats, name) is getattr(importlib.import_module(module), name)
    assert mjstats.shanten(parse_tiles("1m"), 4) == 0
    assert mjstats.decompose is mjstats.readings.decompose
    assert mjstats.score is mjstats.scorer.score
    assert mjstats.useful_tiles is useful_tiles
    assert mjstats.discard_table is discard_table


def test_visible_and_copies(tab):
    h = parse_tiles("123m456p789s1133z")  # waits on 1z or 3z
    assert useful_tiles(h).nonzero()[0].tolist() == [27, 29]
    vis = parse_tiles("11z")
    assert useful_tiles(h, visible=vis).nonzero()[0].tolist() == [29]
    assert useful_copies(h, visible=vis).tolist()[27:30] == [0, 0, 2]
    batch = np.stack([h, h])
    vis2 = np.stack([np.zeros(34, np.uint8), vis])
    assert useful_copies(batch, visible=vis2).sum(axis=1).tolist() == [4, 2]
    with pytest.raises(TileCountError, match="row 1: hand \\+ visible"):
        useful_copies(batch, visible=np.stack([vis, parse_tiles("111z")]))
    with pytest.raises(InvalidHandError, match="visible must have shape"):
        useful_copies(batch, visible=np.zeros((3, 34), np.uint8))


def test_melds_argument_forms(tab):
    h = parse_tiles("1122m3344p55s")
    assert shanten(h, 1) == 2
    slots = np.zeros((4, 2), np.uint8)
    slots[0] = (2, 27)
    assert shanten(h, slots) == 2
    assert shanten(np.stack([h, h]), np.stack([slots, slots])).tolist() == [2, 2]
    with pytest.raises(InvalidMeldError, match="0-4"):
        shanten(parse_tiles("1m"), 5)
    with pytest.raises(InvalidMeldError, match="row 1"):
        shanten(np.stack([h, h]), np.array([1, -1]))
    with pytest.raises(InvalidMeldError, match="shape"):
        shanten(np.stack([h, h]), np.array([1, 1, 1]))


def test_size_validation_names_rows(tab):
    good = parse_tiles("123m456p789s1122z")
    bad = parse_tiles("123m456p789s112z")
    with pytest.raises(TileCountError, match="must be 13 or 14 \\(got 12\\)"):
        shanten(bad)
    with pytest.raises(TileCountError, match=r"row 2: .*; 2 bad rows in all"):
        shanten(np.stack([good, good, bad, bad]))
    with pytest.raises(TileCountError, match="13 \\(a waiting hand\\)"):
        useful_tiles(parse_tiles("123m456p789s11222z"))
    with pytest.raises(TileCountError, match="14 \\(before a discard\\)"):
        discard_table(good)
    with pytest.raises(TileCountError, match="more than 4"):
        shanten(np.r_[np.full(1, 5), np.zeros(33, int)])
    with pytest.raises(InvalidHandError, match="shape"):
        shanten(np.zeros(33, np.uint8))
    with pytest.raises(ValueError, match="form must be one of regular"):
        shanten(good, form="kokushi")
    # melds change the expected size
    assert shanten(parse_tiles("123m456p11z"), 2) == -1
    assert shanten(parse_tiles("123m456p1z"), 2) == 0


def test_form_selection(tab):
    h = parse_tiles("19m19p19s1234567z")
    assert shanten(h, form=("regular", "seven_pairs")) == 6
    assert shanten(h, form=["thirteen_orphans"]) == 0
    assert shanten(h, ruleset="mcr") == 0
    from mjstats.rules import get_ruleset

    assert get_ruleset("mcr").shanten_forms == FORMS
    regular_only = types.SimpleNamespace(shanten_forms=("regular",))  # any ruleset-like object
    assert shanten(h, ruleset=regular_only) == 8
    with pytest.raises(ValueError, match="names no form"):
        shanten(h, form=())


def test_discard_table_frame(tab):
    t = discard_table("123m456p789s11334z")
    df = t.to_frame()
    assert list(df.columns) == ["discard", "tile", "shanten", "kinds", "copies", "useful"]
    assert df.iloc[0].discard == "4z" and df.iloc[0].shanten == 0 and df.iloc[0].useful == "13z"
    assert len(df) == 12  # distinct kinds held
    assert t.useful()[30].nonzero()[0].tolist() == [27, 29]
    batch = discard_table(np.stack([parse_tiles("123m456p789s11334z")] * 2))
    assert batch.shanten.shape == (2, 34)
    assert batch.to_frame(row=1).equals(df)
    with pytest.raises(ValueError, match="row="):
        batch.to_frame()


# --------------------------------------------------------------------------- parallel batches


@pytest.mark.skipif(JIT_DISABLED, reason="about compiled parallel chunks; slow in pure Python")
def test_parallel_batches_match_serial_rows(tab):
    """The prange kernels (chunks of K.CHUNK rows) equal the serial row kernels."""
    n = int(2.5 * K.CHUNK)  # a partial last chunk
    hands, melds = random_hands(21, n, sizes=(13,))
    for forms in (K.ALL_FORMS, K.REGULAR, K.SEVEN_PAIRS | K.KNITTED_STRAIGHT):
        par = np.empty(n, np.int8)
        ser = np.empty(n, np.int8)
        K.shanten_batch(hands, melds, forms, tab, par)
        K.shanten_rows(hands, melds, forms, tab, ser, 0, n)
        assert np.array_equal(par, ser)
    sh_p, sh_s = np.empty(n, np.int8), np.empty(n, np.int8)
    u_p, u_s = np.empty(n, np.int64), np.empty(n, np.int64)
    K.useful_batch(hands, melds, K.ALL_FORMS, tab, sh_p, u_p)
    K.useful_rows(hands, melds, K.ALL_FORMS, tab, sh_s, u_s, 0, n)
    assert np.array_equal(sh_p, sh_s) and np.array_equal(u_p, u_s)
    assert np.array_equal(sh_p, shanten(hands, melds))
    hands14, melds14 = random_hands(22, K.CHUNK + 7, sizes=(14,))
    m = len(hands14)
    d_p, d_s = np.empty((m, 34), np.int8), np.empty((m, 34), np.int8)
    du_p, du_s = np.empty((m, 34), np.int64), np.empty((m, 34), np.int64)
    K.discard_batch(hands14, melds14, K.ALL_FORMS, tab, d_p, du_p)
    K.discard_rows(hands14, melds14, K.ALL_FORMS, tab, d_s, du_s, 0, m)
    assert np.array_equal(d_p, d_s) and np.array_equal(du_p, du_s)


# --------------------------------------------------------------------------- kernels from user code


def test_kernels_callable_from_user_parallel_code(tab):
    """Serial kernels work inside someone else's parallel numba loop, warning-free."""

    # plain numba, as user code would be (and no on-disk cache that could outlive kernel edits)
    @numba.njit(parallel=True)
    def user_loop(counts, tab, out, useful):
        for i in numba.prange(counts.shape[0]):
            out[i] = K.shanten_one(counts[i], 0, K.ALL_FORMS, tab)
            s, bits = K.useful_one(counts[i], 0, K.ALL_FORMS, tab)
            useful[i] = bits if s == out[i] else -1

    hands, _ = random_hands(12, 30, sizes=(13,), melds=(0,))
    out = np.empty(len(hands), np.int64)
    useful = np.empty(len(hands), np.int64)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        user_loop(hands, tab, out, useful)
    assert np.array_equal(out, shanten(hands))
    expect = useful_tiles(hands)
    got = ((useful[:, None] >> np.arange(34)) & 1).astype(bool)
    assert np.array_equal(got, expect)
    one = np.empty(34, np.int8)
    masks = np.empty(34, np.int64)
    h14 = parse_tiles("123m456p789s11334z")
    K.discard_one(h14, 0, K.ALL_FORMS, tab, one, masks)
    assert np.array_equal(one, discard_table(h14).shanten)
    assert K.regular_shanten_one(h14, 0, tab) == 0
