"""Differential tests of the MCR scorer against the reference, PyMahjongGB 1.4.0.

The generator (:mod:`mjstats.studies.generate_wins`) draws valid winning hands
of every shape (0-4 melds, kongs, seven pairs with quads, shifted pairs,
orphans, knitted forms, nine gates, all win flags, winds, flowers). On every
hand the totals must be equal; fan lists must be equal on >= 99.9 % of hands,
and any difference must be a tie (equal totals: the reference breaks ties by
enumeration order, see ``docs/mcr-rules.md``).

Sizes: ``MJSTATS_TEST_SCALE`` x 50,000 hands by default; the ``slow`` test runs
1,000,000.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import SEED, scaled
from mcr_oracle import batch_args, oracle_fans

import mjstats
from mjstats.batch import HandBatch
from mjstats.kernels.decompose import suit_table
from mjstats.rulesets.mcr import FANS
from mjstats.rulesets.mcr.kernel import N_FANS, score_rows
from mjstats.studies.generate_wins import STYLES, generate_wins

MahjongGB = pytest.importorskip("MahjongGB")


def _ro(arr):
    view = arr.view()
    view.setflags(write=False)  # the signature score_batch compiles (HandBatch is read-only)
    return view


def _kernel(w):
    """Score a WinBatch with the kernel directly (no context validation)."""
    n = len(w)
    total = np.empty(n, np.int16)
    fans = np.zeros((n, N_FANS), np.uint8)
    form = np.empty(n, np.uint8)
    args = [
        _ro(getattr(w, k))
        for k in (
            "concealed",
            "melds",
            "win_tile",
            "self_drawn",
            "last_of_kind",
            "kong_win",
            "last_of_wall",
            "seat_wind",
            "round_wind",
            "flowers",
        )
    ]
    legal = np.empty(len(total), dtype=np.bool_)
    score_rows(
        *args, 3, 8, False, total, fans, form, legal, np.zeros((0, 8, 4), np.uint8), suit_table()
    )
    return total, fans, form


def _compare(w, total, fans):
    """Compare with the reference; returns (bad totals, list diffs, fan hit counts)."""
    bad_total = []
    list_diff = []
    hits = np.zeros(N_FANS, np.int64)
    for i in range(len(w)):
        ref_total, ref_fans = oracle_fans(batch_args(w, i))
        hits += ref_fans > 0
        if ref_total != total[i]:
            bad_total.append((i, ref_total, int(total[i])))
        elif not np.array_equal(ref_fans, fans[i]):
            list_diff.append(i)
    return bad_total, list_diff, hits


def _describe(w, i, fans):
    ref_total, ref_fans = oracle_fans(batch_args(w, i))
    mine = {FANS[f].zh: int(fans[i, f]) for f in np.flatnonzero(fans[i])}
    ref = {FANS[f].zh: int(ref_fans[f]) for f in np.flatnonzero(ref_fans)}
    return (
        f"{STYLES[w.style[i]]} {batch_args(w, i)}\n  reference {ref_total} {ref}\n  mjstats {mine}"
    )


def _run(n, seed):
    w = generate_wins(n, seed)
    batch = HandBatch(**w.as_dict())  # the generator's hands are valid hands...
    res = mjstats.score_batch(batch)  # ...with a consistent context (no InvalidContextError)
    bad_total, list_diff, hits = _compare(w, res.total, res.fan_counts)
    msg = "\n".join(_describe(w, i, res.fan_counts) for i, _, _ in bad_total[:10])
    assert not bad_total, f"{len(bad_total)} totals differ from the reference:\n{msg}"
    assert len(list_diff) <= 0.001 * n, f"{len(list_diff)} fan lists differ"
    return w, res, hits


def test_totals_and_fan_lists_match_reference():
    n = scaled(50_000)
    _, res, hits = _run(n, SEED)
    assert (res.total >= 8).mean() > 0.5
    # every fan is exercised, proportionally to the 100-per-50k target
    need = max(1, int(100 * n / 50_000))
    rare = {FANS[f].zh: int(hits[f]) for f in range(N_FANS) if hits[f] < need}
    assert not rare, f"fans hit fewer than {need} times: {rare}"


@pytest.mark.slow
def test_totals_and_fan_lists_match_reference_1m():
    n = 1_000_000
    _, _, hits = _run(n, SEED + 1)
    rare = {FANS[f].zh: int(hits[f]) for f in range(N_FANS) if hits[f] < 100}
    assert not rare, f"fans hit fewer than 100 times: {rare}"


@pytest.mark.parametrize("style", [s for s in STYLES if s != "regular"])
def test_each_style_matches_reference(style):
    """Every generator style on its own (dense one-suit hands are where ties live)."""
    n = scaled(3000)
    w = generate_wins(n, SEED + 7, style)
    total, fans, _ = _kernel(w)
    bad_total, list_diff, _ = _compare(w, total, fans)
    assert not bad_total, _describe(w, bad_total[0][0], fans)
    assert len(list_diff) <= 0.001 * n + 1


def test_kernel_normalises_contradictory_flags_like_reference():
    """Random flags regardless of the hand: the kernel repairs them as the reference
    does (和绝张 cleared/forced, 杠上开花/抢杠和 dropped), so fans still match."""
    n = scaled(20_000)
    w = generate_wins(n, SEED + 3)
    rng = np.random.default_rng(SEED)
    for name in ("self_drawn", "last_of_kind", "kong_win", "last_of_wall"):
        getattr(w, name)[:] = rng.random(n) < 0.5
    total, fans, _ = _kernel(w)
    bad_total, list_diff, _ = _compare(w, total, fans)
    assert not bad_total, _describe(w, bad_total[0][0], fans)
    assert not list_diff, _describe(w, list_diff[0], fans)


def test_incomplete_hands_agree_with_reference():
    """Random 14-tile hands are almost never complete: both say so (the reference
    raises ERROR_NOT_WIN), and the rare complete ones score the same."""
    from conftest import random_hand_arrays

    rng = np.random.default_rng(SEED)
    arrays = random_hand_arrays(rng, scaled(5000), waiting_share=0.0)
    arrays["kong_win"][:] = False
    arrays["last_of_kind"][:] = False
    batch = HandBatch(**arrays)
    res = mjstats.score_batch(batch)
    for i in range(len(batch)):
        ref_total, _ = oracle_fans(batch_args(batch, i))
        assert ref_total == res.total[i], batch[i]
    assert (res.total == -1).mean() > 0.9
