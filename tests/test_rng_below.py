"""randbelow's remainder without a division (mjstats.kernels.rng._mod_by): the same
draws as ``x % n`` with the rejection rule, compiled and without the JIT."""

from __future__ import annotations

import numpy as np
from conftest import run_without_jit

from mjstats.kernels._jit import jit
from mjstats.kernels.rng import _C_HI, _C_LO, _FAST_BELOW, _mod_by, below, next_u64, randbelow


@jit
def _draws(state, ns, out):
    for i in range(ns.shape[0]):
        out[i] = randbelow(state, ns[i])


@jit
def _draws_in_registers(state, ns, out):
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    for i in range(ns.shape[0]):
        out[i], s0, s1, s2, s3 = below(ns[i], s0, s1, s2, s3)


@jit
def _remainders(xs, ds, out):
    for i in range(xs.shape[0]):
        d = ds[i]
        out[i] = _mod_by(xs[i], _C_HI[d], _C_LO[d], np.uint64(d))


@jit
def _raw(state, out):
    for i in range(out.shape[0]):
        out[i] = next_u64(state)


def _reference(state, ns):
    """The draws of the plain rule: next 64 bits x, rejected below 2**64 mod n, x % n."""
    state = state.copy()
    buf = np.zeros(1, np.uint64)
    out = []
    for n in ns.tolist():
        while True:
            _raw(state, buf)
            x = int(buf[0])
            if x >= n or x >= ((1 << 64) - n) % n:
                out.append(x % n)
                break
    return out


def test_remainders_are_exact():
    rng = np.random.default_rng(3)
    ds = np.repeat(np.arange(1, _FAST_BELOW, dtype=np.int64), 64)
    xs = rng.integers(0, 2**64, len(ds), dtype=np.uint64, endpoint=False)
    # edges: 0, all ones, 2**63 and the multiples of d just below 2**64
    xs[::64] = 0
    xs[1::64] = np.uint64(2**64 - 1)
    xs[2::64] = np.uint64(2**63)
    xs[3::64] = [((2**64 - 1) // d) * d for d in range(1, _FAST_BELOW)]
    xs[4::64] = [((2**64 - 1) // d) * d - 1 for d in range(1, _FAST_BELOW)]
    out = np.zeros(len(ds), np.uint64)
    _remainders(xs, ds, out)
    assert out.tolist() == [int(x) % int(d) for x, d in zip(xs.tolist(), ds.tolist(), strict=True)]


def test_draws_are_those_of_the_division():
    rng = np.random.default_rng(5)
    ns = rng.integers(1, 400, 20_000).astype(np.int64)
    ns[:6] = [1, 2, 255, 256, 144, 1 << 40]
    state = np.array([1, 2, 3, 4], np.uint64)
    ref = _reference(state, ns)
    out = np.zeros(len(ns), np.int64)
    _draws(state.copy(), ns, out)
    assert out.tolist() == ref
    out[:] = 0
    _draws_in_registers(state.copy(), ns, out)
    assert out.tolist() == ref


def test_draws_without_the_jit():
    out = run_without_jit(
        "import numpy as np; from mjstats.kernels.rng import randbelow; "
        "s = np.array([1, 2, 3, 4], np.uint64); "
        "print(*[int(randbelow(s, n)) for n in (1, 2, 7, 144, 255, 300, 2**40)])"
    )
    state = np.array([1, 2, 3, 4], np.uint64)
    ns = np.array([1, 2, 7, 144, 255, 300, 2**40], np.int64)
    assert [int(v) for v in out.split()] == _reference(state, ns)
