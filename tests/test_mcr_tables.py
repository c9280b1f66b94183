"""The MCR scorer's lookup tables are their definitions.

The set-combination tables ship precomputed (``mjstats/data/mcr-combinations.npz``)
so that no cold start compiles their builder; these tests rebuild them from the
combination functions in :mod:`mjstats.rulesets.mcr.kernel` and compare, and check the
multiset ranking that indexes them.
"""

from __future__ import annotations

import itertools
from math import comb

import numpy as np
import pytest

from mjstats.rulesets.mcr import kernel as mcr


def test_shipped_combination_tables_equal_their_definitions():
    chows, pungs = mcr.build_combination_tables()
    assert chows.dtype == mcr._CHOW_FANS.dtype and pungs.dtype == mcr._PUNG_FANS.dtype
    np.testing.assert_array_equal(chows, mcr._CHOW_FANS)
    np.testing.assert_array_equal(pungs, mcr._PUNG_FANS)


@pytest.mark.parametrize("none", [mcr._CHOW_NONE, mcr._PUNG_NONE])
def test_rank4_numbers_the_sorted_multisets_without_gaps(none):
    ranks = [mcr._rank4(*m) for m in itertools.combinations_with_replacement(range(none + 1), 4)]
    assert sorted(ranks) == list(range(comb(none + 4, 4)))


def test_packed_entries_decode_to_the_fans_they_were_made_from():
    fan = np.zeros(mcr.N_FANS, np.uint8)
    fan[[mcr.PURE_SHIFTED_CHOWS, mcr.MIXED_DOUBLE_CHOW]] = [1, 2]
    got = np.zeros(mcr.N_FANS, np.uint8)
    mcr._add_packed(got, mcr._pack_fans(fan))
    np.testing.assert_array_equal(got, fan)
    fan[[mcr.SHORT_STRAIGHT, mcr.TWO_TERMINAL_CHOWS]] = 1
    with pytest.raises(ValueError, match="more fans than a table entry holds"):
        mcr._pack_fans(fan)


def test_a_table_entry_for_a_known_combination():
    # 123m 456m 789m + 123p: 一气通贯 and (with 123m) 喜相逢, sorted chow codes
    codes = sorted(int(mcr._CHOW_CODE[t]) for t in (0, 3, 6, 9))
    got = np.zeros(mcr.N_FANS, np.uint8)
    mcr._add_packed(got, mcr._CHOW_FANS[mcr._rank4(*codes)])
    assert {int(f): int(got[f]) for f in np.flatnonzero(got)} == {
        mcr.PURE_STRAIGHT: 1,
        mcr.MIXED_DOUBLE_CHOW: 1,
    }
