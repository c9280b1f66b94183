"""Decomposition kernels against a naive, obviously-correct Python enumerator."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from conftest import SEED, scaled

import mjstats
from mjstats.errors import InvalidHandError
from mjstats.kernels.decompose import (
    KNITTED,
    MAX_DECOMPOSITIONS,
    build_suit_table,
    enumerate_regular,
    honors_knitted_kind,
    is_nine_gates,
    is_regular_complete,
    is_seven_pairs,
    is_seven_shifted_pairs,
    is_thirteen_orphans,
    knitted_body,
    split_code,
    split_pair,
    suit_key,
    suit_sets_ok,
    suit_splits,
    suit_table,
)
from mjstats.studies.generate_wins import generate_wins
from mjstats.tiles import parse_tiles

# --------------------------------------------------------------------------- naive model

_CODES = [c for c in range(18) if c % 2 == 0 or c // 2 <= 6]  # 9 pungs, 7 chows


def _naive_suit_splits(counts9):
    """All (pair, sorted set codes) splits, by brute force over set multisets."""
    counts9 = list(counts9)
    n = sum(counts9)
    if n % 3 == 1:
        return []
    k = n // 3
    out = []
    for combo in itertools.combinations_with_replacement(_CODES, k):
        used = [0] * 9
        for c in combo:
            r = c // 2
            if c % 2 == 0:
                used[r] += 3
            else:
                for j in range(3):
                    used[r + j] += 1
        rest = [a - b for a, b in zip(counts9, used, strict=True)]
        if min(rest) < 0:
            continue
        if n % 3 == 0 and not any(rest):
            out.append((255, combo))
        elif n % 3 == 2 and sum(rest) == 2 and max(rest) == 2:
            out.append((rest.index(2), combo))
    return sorted(out, key=lambda s: s[1])


def _random_suit(rng):
    """Suit counts biased toward decomposable shapes (sets + maybe a pair)."""
    c = np.zeros(9, np.int64)
    for _ in range(rng.integers(0, 5)):
        if rng.random() < 0.5:
            r = rng.integers(0, 7)
            c[r : r + 3] += 1
        else:
            c[rng.integers(0, 9)] += 3
    if rng.random() < 0.5:
        c[rng.integers(0, 9)] += 2
    if rng.random() < 0.3:  # noise
        c[rng.integers(0, 9)] += rng.integers(-1, 2)
    return np.clip(c, 0, 4)


def test_suit_splits_match_naive_enumeration(rng):
    out = np.zeros(32, np.int64)
    seen_multi = 0
    for _ in range(scaled(1500)):
        c9 = _random_suit(rng)
        if c9.sum() > 14:
            continue
        counts = np.zeros(34, np.uint8)
        counts[9:18] = c9
        k = suit_splits(counts, 9, out)
        want = _naive_suit_splits(c9)
        got = [
            (
                int(split_pair(out[i])),
                tuple(c for c in (int(split_code(out[i], j)) for j in range(4)) if c != 255),
            )
            for i in range(k)
        ]
        assert got == want, c9
        seen_multi += len(want) > 1
        assert suit_sets_ok(counts, 9, int(c9.sum() % 3 == 2)) == (len(want) > 0)
    assert seen_multi > 20


def test_shipped_suit_table_equals_its_builder(tmp_path):
    """The shipped copy (mjstats/data/suit-table.npz) is what the numba builder makes,
    and write_suit_table writes a file that loads back equal."""
    from mjstats.kernels.decompose import write_suit_table

    shipped, built = suit_table(), build_suit_table()
    for a, b in zip(shipped, built, strict=True):
        assert a.dtype == b.dtype and not a.flags.writeable
        np.testing.assert_array_equal(a, b)
    path = tmp_path / "suit-table.npz"
    write_suit_table(path)
    with np.load(path) as z:
        np.testing.assert_array_equal(z["info"], shipped.info)
        np.testing.assert_array_equal(z["splits"], shipped.splits)


def test_suit_table_matches_naive_enumeration(rng):
    """Every table entry: the splits (in order) and the wait mask, against brute force."""
    table = suit_table()
    seen_waits = 0
    for i in range(scaled(1500)):
        c9 = _random_suit(rng) if i % 2 else rng.integers(0, 5, 9) * (rng.random(9) < 0.4)
        n = int(c9.sum())
        if n > 14:
            continue
        counts = np.zeros(34, np.uint8)
        counts[18:27] = c9
        e = int(table.info[suit_key(counts, 18)])
        k, offset = (e >> 9) & 31, e >> 14
        got = [
            (
                int(split_pair(v)),
                tuple(c for c in (int(split_code(v, j)) for j in range(4)) if c != 255),
            )
            for v in table.splits[offset : offset + k]
        ]
        assert got == _naive_suit_splits(c9), c9
        want_waits = 0
        if (n + 1) % 3 != 1:
            for r in range(9):
                plus = c9.copy()
                plus[r] += 1  # a fifth copy is allowed: formal waits
                if _naive_suit_splits(plus):
                    want_waits |= 1 << r
        assert e & 0x1FF == want_waits, c9
        seen_waits += want_waits != 0
    assert seen_waits > 50


def test_suit_sets_ok_with_a_fifth_copy():
    """Formal waits can put a fifth copy in hand: 5 = pung + pair, or pung + 2 chows."""
    c = np.zeros(34, np.uint8)
    c[0] = 5  # 11111m: pung + pair
    assert suit_sets_ok(c, 0, 1)
    c[1:3] = 2  # 11111 22 33 -> 111 123 123 (9 tiles, no pair)
    assert suit_sets_ok(c, 0, 0)
    assert not suit_sets_ok(c, 0, 1)


def _naive_regular(counts):
    """Decompositions of a 34-count hand as sorted (reference order) set lists + pair."""
    ref_suit = {0: 0, 2: 1, 1: 2}  # characters, bamboo, dots
    per_suit = []
    for s in (0, 2, 1):  # reference order
        c9 = counts[9 * s : 9 * s + 9]
        if c9.sum() == 0:
            per_suit.append([(255, ())])
            continue
        splits = _naive_suit_splits(c9)
        if not splits:
            return []
        per_suit.append([(p, tuple((ref_suit[s], code) for code in codes)) for p, codes in splits])
    honors = counts[27:]
    if any(h not in (0, 2, 3) for h in honors):
        return []
    out = []
    for combo in itertools.product(*per_suit):
        pairs = sum(p != 255 for p, _ in combo) + sum(honors == 2)
        if pairs == 1:
            out.append(combo)
    return out


def test_enumerate_regular_matches_naive_in_reference_order(rng):
    sets = np.zeros((MAX_DECOMPOSITIONS, 4, 2), np.uint8)
    pairs = np.zeros(MAX_DECOMPOSITIONS, np.uint8)
    buf = suit_table()
    w = generate_wins(scaled(500), SEED, "dense_suit")
    more = generate_wins(scaled(300), SEED, "concealed")
    many = 0
    for conc in np.concatenate([w.concealed, more.concealed]):
        n = enumerate_regular(conc, buf, sets, pairs)
        naive = _naive_regular(conc.astype(np.int64))
        assert n == len(naive), conc
        many += n > 1
        # each decomposition re-assembles the hand exactly
        for d in range(n):
            back = np.zeros(34, np.int64)
            back[pairs[d]] += 2
            for kind, t in sets[d]:
                if kind == 1:
                    back[t : t + 3] += 1
                elif kind == 2:
                    back[t] += 3
            assert (back == conc).all()
        # order: lexicographic over (suit in reference order, pung before chow, rank)
        keys = []
        for d in range(n):
            key = []
            for kind, t in sets[d]:
                if kind and t < 27:
                    suit = {0: 0, 1: 2, 2: 1}[t // 9]
                    key.append((suit, 2 * (t % 9) + (kind == 1)))
            keys.append(key)
        assert keys == sorted(keys)
    assert many > 20


def test_is_regular_complete():
    assert is_regular_complete(parse_tiles("123m456p789s11122z"))
    assert not is_regular_complete(parse_tiles("123m456p789s11123z"))
    assert not is_regular_complete(parse_tiles("11m22p33s44z55z66z77z"))  # seven pairs only
    c = parse_tiles("1234444678m456p").astype(np.uint8)
    c[3] += 1  # a fifth 4m completes formally: 123 444 44 678 456
    assert is_regular_complete(c)


def test_special_form_helpers():
    assert is_seven_pairs(parse_tiles("1111m3355p7799s11z"))
    assert not is_seven_pairs(parse_tiles("1112m3355p7799s11z"))
    assert is_seven_shifted_pairs(parse_tiles("22334455667788s"))
    assert not is_seven_shifted_pairs(parse_tiles("1133m5577p99s1155z"))
    assert is_thirteen_orphans(parse_tiles("19m19p19s12345677z"))
    assert not is_thirteen_orphans(parse_tiles("19m19p19s1234566z"))
    seq, nh = honors_knitted_kind(parse_tiles("147m258p369s12345z"))
    assert (
        seq >= 0
        and nh == 5
        and set(KNITTED[seq]) == set(np.flatnonzero(parse_tiles("147m258p369s")))
    )
    assert honors_knitted_kind(parse_tiles("147m258p368s12345z"))[0] == -1
    assert knitted_body(parse_tiles("147m258p369s23455s")) >= 0
    assert knitted_body(parse_tiles("147m258p36s234555s")) == -1
    standing = parse_tiles("1112345678999p")
    assert is_nine_gates(standing, 13) and not is_nine_gates(standing, 3)
    assert not is_nine_gates(parse_tiles("1112345678899p"), 17)


# --------------------------------------------------------------------------- public view


def test_decompose_readings():
    r = mjstats.decompose("111222333m456p99s")
    assert [x.form for x in r] == ["regular", "regular"]
    assert [str(x) for x in r] == ["111m 222m 333m 456p 99s", "123m 123m 123m 456p 99s"]
    r = mjstats.decompose("1122335577889m+9m")
    assert [x.form for x in r] == ["seven_pairs", "regular"]
    r = mjstats.decompose("[123p]55m12379s789p+8s")
    assert [str(x) for x in r] == ["[123p] 789p 123s 789s 55m"]


@pytest.mark.parametrize(
    ("text", "forms"),
    [
        ("2233445566778s+8s", ["seven_shifted_pairs", "regular", "regular", "regular"]),
        ("19m19p19s1234567z+7z", ["thirteen_orphans"]),
        ("147m258p369s1234z+5z", ["honors_knitted"]),
        ("14m258p36s123456z+7z", ["greater_honors_knitted"]),
        ("12369m258p13347s+3m", ["knitted_straight"]),
        ("[111m]147m258p369s1z+1z", ["knitted_straight"]),
        ("1112345678999m+5m", ["nine_gates", "regular"]),
        ("123m456p789s11234z", []),
        ("[123m]456p789s11z22z", []),  # a waiting hand
        ("123m456p789s11z23z+3z", []),
    ],
)
def test_decompose_forms(text, forms):
    assert [x.form for x in mjstats.decompose(text)] == forms


def test_decompose_counts_and_errors():
    counts = parse_tiles("1112345678999m5m")
    assert [x.form for x in mjstats.decompose(counts)] == ["nine_gates", "regular"]
    with pytest.raises(InvalidHandError):
        mjstats.decompose(parse_tiles("123m"))
    with pytest.raises(InvalidHandError):
        mjstats.decompose(np.zeros((2, 34), np.uint8))
