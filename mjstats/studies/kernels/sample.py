"""Kernels of the ``sample`` study (:mod:`mjstats.studies.sample`).

Complete hands are drawn in proportion to their deal weight and scored.

:func:`sample_chunks` runs the chunks in parallel; the sampling arrays come
from :func:`mjstats.studies.sample._parts`.
"""

from __future__ import annotations

import numba
import numpy as np

from mjstats.kernels._jit import hjit, jit, pjit
from mjstats.kernels.accumulate import accumulate_chunk
from mjstats.kernels.decompose import is_regular_complete
from mjstats.kernels.rng import randbelow
from mjstats.rulesets.dispatch import new_scratch, score_one
from mjstats.studies.kernels.patterns import sample_hand

__all__ = ["sample_chunks"]


@jit
def _sample_chunk(state, n, comp, reg, prs, special, special_cum, spec, table, n_fans, fc, c):
    counts = np.zeros(34, np.uint8)
    melds = np.zeros((4, 2), np.uint8)
    fan_out = np.zeros(n_fans, np.uint8)
    scratch = new_scratch(table)
    _sample_hands(
        state, n, comp, reg, prs, special, special_cum, spec, fc, c, counts, melds, fan_out,
        scratch,
    )  # fmt: skip


@hjit
def _sample_hands(
    state, n, comp, reg, prs, special, special_cum, spec, fc, c, counts, melds, fan_out, scratch
):
    """The loop of :func:`_sample_chunk`, compiled without reference counting: it
    passes tuples of arrays per hand, which would otherwise cost an atomic
    increment and decrement per array, per hand."""
    for _ in range(n):
        u = randbelow(state, comp[2])
        if u < comp[0]:
            sample_hand(state, *reg, counts)
        elif u < comp[1]:
            while True:
                sample_hand(state, *prs, counts)
                if not is_regular_complete(counts):
                    break
        else:
            v = randbelow(state, special_cum[-1])
            row = np.searchsorted(special_cum, v, side="right")
            for t in range(34):
                counts[t] = special[row, t]
        r = randbelow(state, 14)
        win = 0
        for t in range(34):
            if r < counts[t]:
                win = t
                break
            r -= counts[t]
        total, nfl, form, legal = score_one(
            spec[0],
            spec[1],
            spec[2],
            spec[3],
            counts,
            melds,
            win,
            True,
            False,
            False,
            False,
            0,
            0,
            0,
            0,
            scratch,
            fan_out,
        )
        accumulate_chunk(fc, c, fan_out, total, nfl, form, True, legal, 1)


@pjit
def sample_chunks(states, sizes, comp, reg, prs, special, special_cum, spec, table, n_fans, fc):
    for c in numba.prange(states.shape[0]):
        _sample_chunk(
            states[c],
            sizes[c],
            comp,
            reg,
            prs,
            special,
            special_cum,
            spec,
            table,
            n_fans,
            fc,
            np.int64(c),
        )
