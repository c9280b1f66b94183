"""``popcount``: the hardware instruction in kernels, ``int.bit_count`` without the JIT."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from mjstats.kernels._jit import jit
from mjstats.kernels.bits import popcount


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
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    code = (
        "import numpy as np; from mjstats.kernels.bits import popcount; "
        "print(popcount(np.uint8(177)), popcount(2**40 - 1), popcount(0))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.split() == ["4", "40", "0"]
