"""The fan-statistics counter kernel against a plain numpy computation."""

from __future__ import annotations

import numpy as np
import pytest

from mjstats.kernels.accumulate import MAX_FANS, accumulate_score, empty_counters


@pytest.mark.parametrize("n_fans", [1, 66, 82, 100, MAX_FANS])
def test_counters_match_outer_products(n_fans):
    rng = np.random.default_rng(n_fans)
    c = empty_counters(n_fans, 9)
    co = np.zeros((n_fans, n_fans), np.int64)
    fan_sum = np.zeros(n_fans, np.int64)
    for _ in range(300):
        fans = np.zeros(n_fans, np.uint8)
        k = int(rng.integers(0, n_fans + 1))  # from no fan to every fan
        fans[rng.choice(n_fans, size=k, replace=False)] = rng.integers(1, 5, size=k)
        w = int(rng.integers(1, 7))
        accumulate_score(fans, 12, 2, 3, bool(k % 2), k > 2, w, *c.values())
        has = (fans > 0).astype(np.int64)
        co += w * np.outer(has, has)
        fan_sum += w * fans
    np.testing.assert_array_equal(c["cooccurrence"], co)
    np.testing.assert_array_equal(c["fan_count"], fan_sum)
    assert c["hands"][0] == c["complete"][0] == c["form_count"][3]


def test_incomplete_hands_count_only_as_hands():
    c = empty_counters(82, 9)
    accumulate_score(np.ones(82, np.uint8), -1, 0, 0, True, False, 5, *c.values())
    assert c["hands"][0] == 5
    assert not any(v.any() for k, v in c.items() if k != "hands")


def test_too_many_fans_is_a_clear_error():
    with pytest.raises(ValueError, match="n_fans must be 1-128"):
        empty_counters(MAX_FANS + 1, 9)
