"""``bits``: ``popcount`` (the hardware instruction in kernels, ``int.bit_count``
without the JIT), ``lowest_bit``, ``nonzero_bits`` (vector compares) and the
34-tile vector helpers ``tile_summary`` and ``copy_tiles`` (vector code in
kernels, numpy without the JIT), checked against numpy."""

from __future__ import annotations

import numpy as np
from conftest import run_without_jit
from hypothesis import given
from hypothesis import strategies as st

from mjstats.kernels._jit import jit
from mjstats.kernels.bits import (
    copy_tiles,
    lowest_bit,
    nonzero_bits,
    popcount,
    tile_summary,
)


@jit
def _popcounts(values, out):
    for i in range(values.shape[0]):
        out[i] = popcount(values[i])


@given(st.lists(st.integers(0, 2**63 - 1), min_size=1, max_size=50))
def test_popcount_in_a_kernel_counts_set_bits(values):
    v = np.array(values, dtype=np.int64)
    out = np.zeros(len(v), dtype=np.int64)
    _popcounts(v, out)
    assert out.tolist() == [x.bit_count() for x in values]


def test_popcount_of_each_integer_type():
    for dtype in (np.uint8, np.uint16, np.uint32, np.int32, np.int64):
        v = np.array([0, 1, 0b1011_0001, 127], dtype=dtype)
        out = np.zeros(len(v), dtype=np.int64)
        _popcounts(v, out)
        assert out.tolist() == [0, 1, 4, 7], dtype


def test_popcount_without_the_jit():
    out = run_without_jit(
        "import numpy as np; from mjstats.kernels.bits import copy_tiles, popcount, tile_summary; "
        "print(popcount(np.uint8(177)), popcount(2**40 - 1), popcount(0))"
    )
    assert out.split() == ["4", "40", "0"]


@jit
def _summaries(rows, out):
    for i in range(rows.shape[0]):
        out[i] = tile_summary(rows[i])


@jit
def _copies(rows, out):
    for i in range(rows.shape[0]):
        copy_tiles(rows[i], out[i])


def _expected_summary(row):
    c = row.astype(np.int64)
    bits = np.int64(1) << np.arange(34, dtype=np.int64)
    return [int(bits[m].sum()) for m in (c > 0, c % 2 == 1, c > 1, c == 4)] + [int(c.sum())]


_ROWS = st.lists(st.lists(st.integers(0, 4), min_size=34, max_size=34), min_size=1, max_size=20)


@given(_ROWS)
def test_tile_summary_in_a_kernel(rows):
    # rows of a 2-D batch, as the scorer reads them; tiles 32 and 33 come from
    # the second, 2-byte load
    a = np.array(rows, dtype=np.uint8)
    out = np.zeros((len(a), 5), dtype=np.int64)
    _summaries(a, out)
    assert out.tolist() == [_expected_summary(r) for r in a]


@given(_ROWS)
def test_copy_tiles_in_a_kernel_copies_34_counts_and_nothing_else(rows):
    a = np.array(rows, dtype=np.uint8)
    out = np.full((len(a), 40), 0xEE, dtype=np.uint8)  # 6 bytes past each row's 34
    _copies(a, out)
    assert (out[:, :34] == a).all() and (out[:, 34:] == 0xEE).all()


def test_tile_summary_extremes():
    for row in (np.zeros(34, np.uint8), np.full(34, 4, np.uint8)):
        out = np.zeros((1, 5), dtype=np.int64)
        _summaries(row[None], out)
        assert out[0].tolist() == _expected_summary(row)


def test_tile_helpers_without_the_jit():
    out = run_without_jit(
        "import numpy as np; from mjstats.kernels.bits import tile_summary, copy_tiles; "
        "c = np.zeros(34, np.uint8); c[[0, 1, 33]] = [2, 1, 4]; d = np.zeros(34, np.uint8); "
        "copy_tiles(c, d); print(*tile_summary(c), int((c == d).all()))"
    )
    assert out.split() == [
        str(x) for x in _expected_summary(np.array([2, 1] + [0] * 31 + [4], np.uint8))
    ] + ["1"]


@jit
def _fan_bits(rows, out):
    # the 不计 pass's use: an 82-entry fan vector as two words (constants: vector loads)
    for i in range(rows.shape[0]):
        out[i, 0] = nonzero_bits(rows[i], 0, 64)
        out[i, 1] = nonzero_bits(rows[i], 64, 18)


@jit
def _fan_bits_strided(rows, out):
    for i in range(rows.shape[1]):
        out[i, 0] = nonzero_bits(rows[:, i], 0, 64)  # a column: not C-contiguous
        out[i, 1] = nonzero_bits(rows[:, i], 64, 18)


@jit
def _lowest_bits(values, out):
    for i in range(values.shape[0]):
        out[i] = lowest_bit(values[i])


def _expected_bits(row, start, n):
    return sum(1 << i for i in range(n) if row[start + i])


@given(st.lists(st.lists(st.integers(0, 255), min_size=82, max_size=82), min_size=1, max_size=20))
def test_nonzero_bits_in_a_kernel(rows):
    a = np.array(rows, dtype=np.uint8)
    out = np.zeros((len(a), 2), dtype=np.uint64)
    _fan_bits(a, out)
    assert out.tolist() == [[_expected_bits(r, 0, 64), _expected_bits(r, 64, 18)] for r in a]
    out_t = np.zeros((len(a), 2), dtype=np.uint64)
    _fan_bits_strided(np.ascontiguousarray(a.T), out_t)
    assert (out_t == out).all()


@given(st.lists(st.integers(1, 2**64 - 1), min_size=1, max_size=50))
def test_lowest_bit_in_a_kernel(values):
    v = np.array(values, dtype=np.uint64)
    out = np.zeros(len(v), dtype=np.int64)
    _lowest_bits(v, out)
    assert out.tolist() == [(x & -x).bit_length() - 1 for x in values]


def test_bit_helpers_without_the_jit():
    out = run_without_jit(
        "import numpy as np; from mjstats.kernels.bits import lowest_bit, nonzero_bits; "
        "c = np.zeros(82, np.uint8); c[[3, 64, 81]] = [1, 2, 1]; "
        "print(int(lowest_bit(0b1011_0000)), int(nonzero_bits(c, 0, 64)), "
        "int(nonzero_bits(c, 64, 18)))"
    )
    assert out.split() == ["4", "8", str(1 + (1 << 17))]
