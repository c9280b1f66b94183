"""Shanten lookup tables: contents against a naive enumeration, the disk cache, counts."""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
import time
from functools import cache

import numba
import numpy as np
import pytest
from conftest import run_without_jit

from mjstats.kernels import tables as T

SCALE = float(os.environ.get("MJSTATS_TEST_SCALE", "1"))
JIT_DISABLED = bool(numba.config.DISABLE_JIT)
needs_jit = pytest.mark.skipif(JIT_DISABLED, reason="building tables in pure Python is too slow")


def load_tables_for_tests() -> T.ShantenTables:
    """``get_tables()``; without the JIT, a jitted subprocess fills the cache first."""
    if JIT_DISABLED and T._TABLES is None and T.load_tables() is None:
        env = {k: v for k, v in os.environ.items() if k != "NUMBA_DISABLE_JIT"}
        code = "from mjstats.kernels.tables import get_tables; get_tables()"
        subprocess.run([sys.executable, "-c", code], env=env, check=True)
    return T.get_tables()


@pytest.fixture(scope="module")
def tab():
    return load_tables_for_tests()


# --------------------------------------------------------------------------- naive tables


@cache
def group_patterns(ndig: int, chows: bool) -> dict[tuple[int, int], np.ndarray]:
    """Every complete pattern (k sets, p pairs) of one group with counts <= 4."""
    sets = [np.eye(ndig, dtype=np.int64)[r] * 3 for r in range(ndig)]
    if chows:
        for r in range(ndig - 2):
            v = np.zeros(ndig, dtype=np.int64)
            v[r : r + 3] = 1
            sets.append(v)
    out = {}
    for k in range(5):
        base = [
            sum(c, np.zeros(ndig, dtype=np.int64))
            for c in itertools.combinations_with_replacement(sets, k)
        ]
        base = np.array(base).reshape(-1, ndig)
        out[k, 0] = base[(base <= 4).all(axis=1)]
        with_pair = (base[:, None, :] + 2 * np.eye(ndig, dtype=np.int64)[None]).reshape(-1, ndig)
        out[k, 1] = with_pair[(with_pair <= 4).all(axis=1)]
    return out


def naive_row(x: np.ndarray, ndig: int, chows: bool) -> np.ndarray:
    pats = group_patterns(ndig, chows)
    return np.array(
        [np.maximum(pats[kp // 2, kp % 2] - x, 0).sum(axis=1).min() for kp in range(10)]
    )


def naive_info(x: np.ndarray, suit: bool) -> int:
    """The documented ``info`` word of a key (fields clipped to 4 bits)."""
    orph = x[[0, 8]] if suit else x
    fields = [
        (0, (x >= 2).sum() + (x == 4).sum()),
        (4, ((x == 1) | (x == 3)).sum()),
        (8, (orph >= 1).sum()),
        (12, (orph >= 2).sum()),
    ]
    info = sum(min(int(v), 15) << bit for bit, v in fields)
    if suit:
        for j in range(3):
            info |= int((x[j::3] >= 1).sum()) << (16 + 2 * j)
    else:
        info |= int((x >= 1).sum()) << 24
    return info


def digits(key: int, ndig: int) -> np.ndarray:
    return np.array([(key // 5**r) % 5 for r in range(ndig)], dtype=np.int64)


def sample_keys(rng, ndig: int, n: int) -> list[int]:
    """Keys with few tiles (what hands hold) plus uniform keys."""
    keys = [0, 5**ndig - 1]
    for _ in range(n):
        x = np.zeros(ndig, dtype=np.int64)
        for t in rng.integers(0, ndig, size=rng.integers(0, 15)):
            if x[t] < 4:
                x[t] += 1
        keys.append(int((x * 5 ** np.arange(ndig)).sum()))
    keys += [int(k) for k in rng.integers(0, 5**ndig, size=n // 4)]
    return keys


def dist_of(tab, group: str) -> np.ndarray:
    """(keys, 10) distance vectors of every key of a group, through the vector ids."""
    rows = tab.suit_rows if group == "suit" else tab.honor_rows
    vecs = tab.suit_vecs if group == "suit" else tab.honor_vecs
    return vecs[(rows & np.uint64(0xFF)).astype(np.int64)]


def naive_merge(a, b) -> np.ndarray:
    """Min-plus merge of two (k sets, p pairs) vectors, written as the definition."""
    out = np.full(10, 99)
    for ka in range(5):
        for kb in range(5 - ka):
            for pa in range(2):
                for pb in range(2 - pa):
                    t = 2 * (ka + kb) + pa + pb
                    out[t] = min(out[t], int(a[2 * ka + pa]) + int(b[2 * kb + pb]))
    return out


@pytest.mark.parametrize("group", ["suit", "honor"])
def test_tables_match_naive_enumeration(tab, group):
    rng = np.random.default_rng(11)
    ndig, chows = (9, True) if group == "suit" else (7, False)
    rows = tab.suit_rows if group == "suit" else tab.honor_rows
    vecs = tab.suit_vecs if group == "suit" else tab.honor_vecs
    mask = tab.suit_mask if group == "suit" else tab.honor_mask

    def dist(key):
        return vecs[int(rows[key]) & 0xFF]

    for key in sample_keys(rng, ndig, int(150 * SCALE)):
        x = digits(key, ndig)
        row = int(rows[key])
        assert dist(key).tolist() == naive_row(x, ndig, chows).tolist(), (group, x)
        assert row >> 32 == naive_info(x, group == "suit"), (group, x)
        knit = (row >> 8) & 0xFFFFFF
        if group == "suit":
            for j in range(3):
                rest = x.copy()
                rest[j::3] -= rest[j::3] >= 1  # the body takes one of each held rank
                expect_rest = naive_row(rest, ndig, chows)
                got = (knit >> (7 * j)) & 3, (knit >> (7 * j + 2)) & 3, (knit >> (7 * j + 4)) & 7
                assert list(got) == expect_rest[1:4].tolist(), (x, j)
        else:
            assert knit == 0
        # mask bit r: adding rank r (held < 4 times) lowers the distance
        for kp in range(10):
            bits = 0
            for r in range(ndig):
                if x[r] < 4 and dist(key + 5**r)[kp] < dist(key)[kp]:
                    bits |= 1 << r
            assert int(mask[key, kp]) == bits, (group, x, kp)


def test_merge_tables(tab):
    sv, hv = tab.suit_vecs, tab.honor_vecs
    clip = T.CLIP
    for a in range(len(sv)):
        for b in range(len(sv)):
            expect = np.minimum(naive_merge(sv[a], sv[b]), clip)
            assert tab.ss_vecs[tab.suit_suit[a, b]].tolist() == expect.tolist()
        for h in range(len(hv)):
            expect = np.minimum(naive_merge(sv[a], hv[h]), clip)
            assert tab.sh_vecs[tab.suit_honor[a, h]].tolist() == expect.tolist()
    rng = np.random.default_rng(5)
    for _ in range(int(400 * SCALE)):
        ab = rng.integers(len(tab.ss_vecs))
        cd = rng.integers(len(tab.sh_vecs))
        whole = naive_merge(tab.ss_vecs[ab], tab.sh_vecs[cd])
        assert tab.final[ab, cd].tolist() == [min(int(whole[2 * n + 1]), clip) for n in range(5)]
        s = rng.integers(len(sv))
        h = rng.integers(len(hv))
        three = np.minimum(naive_merge(tab.ss_vecs[ab], sv[s]), clip)
        assert tab.sss_vecs[tab.ss_suit[ab, s]].tolist() == three.tolist()
        three = np.minimum(naive_merge(tab.ss_vecs[ab], hv[h]), clip)
        assert tab.ssh_vecs[tab.ss_honor[ab, h]].tolist() == three.tolist()
        three = np.minimum(naive_merge(sv[s], tab.sh_vecs[cd]), clip)
        assert tab.ssh_vecs[tab.suit_sh[s, cd]].tolist() == three.tolist()


def test_table_invariants(tab):
    for group in ("suit", "honor"):
        d = dist_of(tab, group).astype(np.int64)
        assert (d[:, 0] == 0).all()
        # a pair costs at most 2 more, a set at most 3 more
        assert (d[:, 1::2] - d[:, 0::2] <= 2).all()
        assert (d[:, 2::2] - d[:, 0:-2:2] <= 3).all()
        assert (d[:, 1::2] >= d[:, 0::2]).all()
        assert d[0].tolist() == [0, 2, 3, 5, 6, 8, 9, 11, 12, 14]
    assert len(tab.suit_vecs) == 126 and len(tab.honor_vecs) == 55
    assert (tab.suit_mask[:, 0] == 0).all() and (tab.honor_mask[:, 0] == 0).all()
    for arr in tab:
        assert arr.flags.c_contiguous and not arr.flags.writeable


# ------------------------------------------------------------------ counting complete hands


def complete_counts(dist: np.ndarray, ndig: int) -> np.ndarray:
    """cnt[k, p]: keys that are exactly k sets + p pairs (dist 0, 3k + 2p tiles)."""
    keys = np.arange(5**ndig)
    tiles = ((keys[:, None] // 5 ** np.arange(ndig)) % 5).sum(axis=1)
    cnt = np.zeros((5, 2), dtype=np.int64)
    for k in range(5):
        for p in range(2):
            cnt[k, p] = np.count_nonzero((dist[:, 2 * k + p] == 0) & (tiles == 3 * k + 2 * p))
    return cnt


def test_regular_complete_hand_count(tab):
    """11,498,658 distinct complete 14-tile concealed hands (4 sets + a pair)."""
    suit = complete_counts(dist_of(tab, "suit"), 9)
    honor = complete_counts(dist_of(tab, "honor"), 7)
    assert suit[0, 1] == 9 and suit[1, 0] == 16 and honor[1, 0] == 7 and honor[0, 1] == 7
    total = 0
    groups = (suit, suit, suit, honor)
    for ks in itertools.product(range(5), repeat=4):
        if sum(ks) != 4:
            continue
        for pair_group in range(4):
            prod = 1
            for g, k in enumerate(ks):
                prod *= groups[g][k, int(g == pair_group)]
            total += prod
    assert total == 11_498_658


# --------------------------------------------------------------------------- build and cache


@needs_jit
def test_build_is_fast_and_deterministic(tab):
    T.build_tables()  # compile (numba cache) outside the timing
    t0 = time.perf_counter()
    fresh = T.build_tables()
    elapsed = time.perf_counter() - t0
    assert elapsed < 3.0, f"table build took {elapsed:.2f} s"
    for a, b in zip(fresh, tab, strict=True):
        assert a.dtype == b.dtype and np.array_equal(a, b)


def test_info_words_are_the_same_without_the_jit(tab):
    # A process without the JIT once wrote tables whose info words counted a kind
    # held four times as one pair unit (numpy's bool + bool is a logical or); the
    # suit keys use the same code, so the honor keys (fast in Python) stand for both.
    out = run_without_jit(
        "import numpy as np, sys; from mjstats.kernels import tables as T; "
        "o = np.empty(T.HONOR_KEYS, np.int64); T._info_words(7, o); "
        "sys.stdout.buffer.write(o.tobytes())",
        text=False,
    )
    python_words = np.frombuffer(out, dtype=np.int64)
    assert np.array_equal(python_words, tab.honor_rows.view(np.int64) >> 32)


def test_cache_roundtrip_and_rejects(tab, tmp_path):
    path = T.save_tables(tab, tmp_path / "t.bin")
    assert [p.name for p in tmp_path.iterdir()] == ["t.bin"]  # no temp file left behind
    loaded = T.load_tables(path)
    assert loaded is not None
    for a, b in zip(loaded, tab, strict=True):
        assert a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b)
        assert not a.flags.writeable

    raw = bytearray(path.read_bytes())
    # corrupt payload byte
    bad = bytearray(raw)
    bad[len(bad) // 2] ^= 0xFF
    (tmp_path / "corrupt.bin").write_bytes(bad)
    assert T.load_tables(tmp_path / "corrupt.bin") is None
    # truncated
    (tmp_path / "short.bin").write_bytes(raw[:1000])
    assert T.load_tables(tmp_path / "short.bin") is None
    # another table version in the header
    other = bytearray(raw)
    magic, fmt, version, nbytes, digest = T._HEADER.unpack(bytes(raw[: T._HEADER.size]))
    other[: T._HEADER.size] = T._HEADER.pack(magic, fmt, version + 1, nbytes, digest)
    (tmp_path / "other.bin").write_bytes(other)
    assert T.load_tables(tmp_path / "other.bin") is None
    # not ours at all
    (tmp_path / "junk.bin").write_bytes(b"hello")
    assert T.load_tables(tmp_path / "junk.bin") is None
    assert T.load_tables(tmp_path / "missing.bin") is None


@needs_jit
def test_get_tables_uses_and_repairs_cache(tab, tmp_path, monkeypatch):
    monkeypatch.setenv("MJSTATS_CACHE_DIR", str(tmp_path / "cache"))
    assert T.cache_path().parent == tmp_path / "cache"
    monkeypatch.setattr(T, "_TABLES", None)
    calls = []
    real_build = T.build_tables
    monkeypatch.setattr(T, "build_tables", lambda: calls.append(1) or real_build())

    first = T.get_tables()  # missing -> build + write
    assert calls == [1] and T.cache_path().exists()
    assert T.get_tables() is first  # memoised

    monkeypatch.setattr(T, "_TABLES", None)
    second = T.get_tables()  # from disk, no rebuild
    assert calls == [1]
    assert np.array_equal(second.suit_rows, tab.suit_rows)

    # corrupt file -> rebuilt and rewritten
    raw = bytearray(T.cache_path().read_bytes())
    raw[-1] ^= 0xFF
    T.cache_path().write_bytes(raw)
    monkeypatch.setattr(T, "_TABLES", None)
    third = T.get_tables()
    assert calls == [1, 1]
    assert np.array_equal(third.suit_mask, tab.suit_mask)
    assert T.load_tables() is not None


@needs_jit
def test_get_tables_survives_unwritable_cache(tab, tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("MJSTATS_CACHE_DIR", str(blocker / "sub"))
    monkeypatch.setattr(T, "_TABLES", None)
    got = T.get_tables()
    assert np.array_equal(got.honor_rows, tab.honor_rows)


def test_cache_dir_platform_defaults(monkeypatch):
    monkeypatch.delenv("MJSTATS_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", "/x/cache")
    monkeypatch.setattr(T.sys, "platform", "linux")
    assert str(T.cache_dir()) == "/x/cache/mjstats"
    monkeypatch.setattr(T.sys, "platform", "darwin")
    assert T.cache_dir().parts[-3:] == ("Library", "Caches", "mjstats")
    monkeypatch.setenv("MJSTATS_CACHE_DIR", "~/elsewhere")
    assert T.cache_dir().name == "elsewhere" and "~" not in str(T.cache_dir())
