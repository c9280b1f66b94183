"""A small counter-free PRNG for numba kernels: xoshiro256** seeded by the caller.

Why our own generator: Monte Carlo studies must give the same numbers for the
same seed whatever the number of threads, processes or Dask workers. numba's
``np.random`` keeps one hidden state per thread, so results would depend on
scheduling. Here every chunk of work owns an explicit ``uint64[4]`` state derived
from :class:`numpy.random.SeedSequence` (see :func:`chunk_states`), so a chunk's
draws depend only on the study seed and the chunk index.

xoshiro256** (Blackman & Vigna, 2018) passes BigCrush, has period 2^256 - 1,
and needs only shifts, rotations and one multiply.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import types
from numba.extending import intrinsic

from mjstats.kernels._jit import hjit, ijit

__all__ = [
    "below",
    "chunk_states",
    "draw_below",
    "next_u64",
    "randbelow",
    "shuffle_prefix",
    "step",
    "uniform",
]

_MUL5 = np.uint64(5)
_MUL9 = np.uint64(9)


@ijit
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@ijit
def step(s0, s1, s2, s3):
    """One xoshiro256** step on a state held in four scalars: ``(output, s0, s1, s2, s3)``.

    Hot loops keep the state in registers with this; :func:`next_u64` is the
    same step on a state array.
    """
    result = _rotl(s1 * _MUL5, 7) * _MUL9
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    return result, s0, s1, s2, s3


@hjit
def next_u64(state):
    """Advance ``state`` (uint64[4], modified in place) and return 64 random bits."""
    result, s0, s1, s2, s3 = step(state[0], state[1], state[2], state[3])
    state[0] = s0
    state[1] = s1
    state[2] = s2
    state[3] = s3
    return result


# Exact remainders by small divisors without a division (Lemire, Kaser & Kurz 2019,
# "Faster remainder by direct computation"): with c = ceil(2**128 / d),
# x % d == ((c * x mod 2**128) * d) >> 128 for every 64-bit x and d < 2**64. The
# same remainder as ``x % d``, so the same draws; a 64-bit division took ~45 cycles
# here (AMD Zen 2; the quotient of a random 64-bit x has ~60 bits) and was about a
# tenth of a random game's time (a shuffle of 144 tiles and one draw a decision).
_FAST_BELOW = 256  # divisors with a precomputed c (walls, legal actions)
_C = [(((1 << 128) - 1) // d + 1) % (1 << 128) for d in range(1, _FAST_BELOW)]
_C_HI = np.array([0] + [c >> 64 for c in _C], np.uint64)
_C_LO = np.array([0] + [c & ((1 << 64) - 1) for c in _C], np.uint64)

if numba.config.DISABLE_JIT:  # kernels run as Python: the same arithmetic on ints

    def _mod_by(x, c_hi, c_lo, d):
        low = ((int(c_hi) << 64 | int(c_lo)) * int(x)) % (1 << 128)
        return np.uint64((low * int(d)) >> 128)

else:

    @intrinsic
    def _mod_by(typingctx, x, c_hi, c_lo, d):
        """``x % d`` from ``c = ceil(2**128 / d)`` given as two 64-bit halves (all
        uint64): 128-bit multiplies, which LLVM lowers to a few ``mul``."""
        if not all(isinstance(a, types.Integer) for a in (x, c_hi, c_lo, d)):
            return None

        def codegen(context, builder, signature, args):
            from llvmlite import ir

            i64, i128 = ir.IntType(64), ir.IntType(128)
            shift = ir.Constant(i128, 64)
            vx, vhi, vlo, vd = (builder.zext(a, i128) for a in args)
            c = builder.or_(builder.shl(vhi, shift), vlo)
            low = builder.mul(c, vx)  # c * x mod 2**128
            # (low * d) >> 128 as in the paper's mul128_u64: the halves of low times d
            low_half = builder.and_(low, ir.Constant(i128, (1 << 64) - 1))
            bottom = builder.lshr(builder.mul(low_half, vd), shift)
            top = builder.mul(builder.lshr(low, shift), vd)
            return builder.trunc(builder.lshr(builder.add(bottom, top), shift), i64)

        return types.uint64(types.uint64, types.uint64, types.uint64, types.uint64), codegen


@ijit
def below(n, s0, s1, s2, s3):
    """:func:`randbelow` on a state held in four scalars (see :func:`step`):
    ``(draw, s0, s1, s2, s3)``, the same draws."""
    un = np.uint64(n)
    while True:
        x, s0, s1, s2, s3 = step(s0, s1, s2, s3)
        if x >= un or x >= (np.uint64(0) - un) % un:
            if n < _FAST_BELOW:
                return np.int64(_mod_by(x, _C_HI[n], _C_LO[n], un)), s0, s1, s2, s3
            return np.int64(x % un), s0, s1, s2, s3


@ijit
def draw_below(state, n):
    """:func:`randbelow` inlined (its call, loading and storing the state, cost
    more than the draw in the game loop): the same draws."""
    r, s0, s1, s2, s3 = below(n, state[0], state[1], state[2], state[3])
    state[0] = s0
    state[1] = s1
    state[2] = s2
    state[3] = s3
    return r


@hjit
def randbelow(state, n):
    """Uniform integer in ``[0, n)`` for ``1 <= n < 2**63``, without modulo bias.

    Rejects the few draws below ``2**64 mod n`` so every residue is equally likely.
    That threshold is below ``n``, so it is computed (a second 64-bit division)
    only for the rare draw below ``n``. For ``n`` below 256 the remainder is
    computed without a division (:func:`_mod_by`: the same value).
    """
    return draw_below(state, n)


@hjit
def uniform(state):
    """Uniform float in ``[0, 1)`` with 53 random bits."""
    return np.float64(next_u64(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@hjit
def shuffle_prefix(state, arr, k):
    """Partial Fisher-Yates: make ``arr[:k]`` a uniform random draw without replacement.

    Only the first ``k`` positions are randomised (the rest hold what was not
    drawn), which is all a deal of ``k`` tiles from a wall needs.
    """
    n = arr.shape[0]
    for i in range(min(k, n - 1)):
        j = i + randbelow(state, n - i)
        tmp = arr[i]
        arr[i] = arr[j]
        arr[j] = tmp


def chunk_states(seed: int | None, first_chunk: int, n_chunks: int) -> np.ndarray:
    """Generator states for chunks ``first_chunk .. first_chunk + n_chunks - 1`` of a study.

    Chunk ``c`` of a study with seed ``s`` always gets the same state: the state
    is the ``c``-th child of ``SeedSequence(s)`` (spawn key ``(c,)``), so
    chunks can be computed anywhere, in any order, and in any grouping.

    Returns
    -------
    numpy.ndarray
        uint64 array (n_chunks, 4).

    Examples
    --------
    >>> a = chunk_states(7, 0, 3)
    >>> b = chunk_states(7, 2, 1)
    >>> bool((a[2] == b[0]).all())
    True
    """
    if seed is None:
        raise ValueError("a study needs an explicit integer seed for reproducibility")
    out = np.empty((n_chunks, 4), dtype=np.uint64)
    for i in range(n_chunks):
        ss = np.random.SeedSequence(int(seed), spawn_key=(first_chunk + i,))
        state = ss.generate_state(4, np.uint64)
        if not state.any():  # xoshiro must not start from the all-zero state
            state[0] = 1
        out[i] = state
    return out
