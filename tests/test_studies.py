"""Studies: published counts, exactness of the sampler, determinism, Dask, the CLI."""

from __future__ import annotations

import json
import math

import numba
import numpy as np
import pytest
from conftest import SEED, interrupt_after, scaled

from mjstats.cli import main
from mjstats.efficiency import shanten
from mjstats.kernels.rng import chunk_states
from mjstats.rules import get_ruleset
from mjstats.studies import make_study, run_study
from mjstats.studies.dealt import CHUNK as DEALT_CHUNK
from mjstats.studies.dealt import DealtStudy, shanten_table
from mjstats.studies.exact import (
    ExactStudy,
    complete_weights,
    exact_summary,
    load_exact,
    special_hands,
)
from mjstats.studies.patterns import regular_hand_count, seven_pairs_space
from mjstats.studies.sample import SampleStudy

MCR = get_ruleset("mcr")


# ----------------------------------------------------------------- published counts


def test_regular_form_has_the_published_number_of_complete_hands():
    assert regular_hand_count() == 11_498_658


def test_seven_pairs_space_counts_quads_as_two_pairs():
    # choose q kinds held four times and 7 - 2q other kinds held twice
    expected = sum(math.comb(34, q) * math.comb(34 - q, 7 - 2 * q) for q in range(4))
    assert seven_pairs_space().n_hands == expected == 16_417_104


def test_riichi_forms_give_the_published_completion_probability():
    w = complete_weights(MCR)
    riichi = w["regular"] + w["seven_distinct_pairs"] + w["thirteen_orphans"]
    assert w["deals"] == math.comb(136, 14)
    assert abs(w["deals"] / riichi - 330_530) < 1  # "about 1 in 330,530"
    assert w["thirteen_orphans"] == 13 * 6 * 4**12
    assert w["all"] > riichi  # MCR's extra forms add complete hands


def test_special_hands_are_complete_once_and_not_regular():
    from mjstats.kernels.decompose import is_regular_complete

    sp = special_hands()
    assert len({r.tobytes() for r in sp}) == len(sp)
    assert (sp.sum(axis=1) == 14).all() and sp.max() <= 4
    assert not any(is_regular_complete(r) for r in sp)
    assert (shanten(sp) == -1).all()


# --------------------------------------------------------------------------- dealt

_M64 = (1 << 64) - 1


def _xoshiro(s):
    """xoshiro256** in plain Python on a list of four ints (the oracle of the kernels' RNG)."""
    rotl = lambda x, k: ((x << k) | (x >> (64 - k))) & _M64  # noqa: E731
    result = (rotl((s[1] * 5) & _M64, 7) * 9) & _M64
    t = (s[1] << 17) & _M64
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = rotl(s[3], 45)
    return result


def _naive_deals(seed, n, k, kinds):
    """The first ``n`` deals of chunk 0 of ``dealt(seed)``: Fisher-Yates on the wall with
    Lemire's bounded integers, two 32-bit halves per 64-bit output, in plain Python."""
    state = [int(v) for v in chunk_states(seed, 0, 1)[0]]
    wall = [t for t in kinds for _ in range(4)]
    deals = []
    for _ in range(n):
        r = 0
        for i in range(min(k, len(wall) - 1)):
            if i % 2 == 0:
                r = _xoshiro(state)
                x = r >> 32
            else:
                x = r & 0xFFFFFFFF
            bound = len(wall) - i
            m = x * bound
            while (m & 0xFFFFFFFF) < (2**32 - bound) % bound:  # Lemire's rejection
                m = (_xoshiro(state) >> 32) * bound
            j = i + (m >> 32)
            wall[i], wall[j] = wall[j], wall[i]
        deals.append(np.bincount(wall[:k], minlength=34).astype(np.uint8))
    return deals


@pytest.mark.parametrize(
    ("tiles", "kinds"),
    [(14, tuple(range(34))), (13, tuple(range(34))), (13, tuple(range(9)) + tuple(range(27, 34)))],
    ids=["mcr-14", "mcr-13", "characters+honours-13"],
)
def test_dealt_matches_a_naive_replay_of_the_same_deals(tiles, kinds):
    """The kernel's histograms equal dealing the same tiles in Python and calling shanten()."""
    import dataclasses

    n = 300
    rs = MCR if kinds == MCR.tiles else dataclasses.replace(MCR, tiles=kinds)
    agg = run_study(DealtStudy(n, seed=5, tiles=tiles, per_form=True, ruleset=rs), progress=False)
    forms = MCR.shanten_forms
    hist = np.zeros((len(forms) + 1, 16), np.int64)
    deals = _naive_deals(5, n, tiles, kinds)
    for counts in deals:
        assert counts[[t for t in range(34) if t not in kinds]].sum() == 0
        values = [int(shanten(counts, form=f)) for f in forms]
        for j, v in enumerate(values):
            hist[j, v + 1] += 1
        hist[len(forms), min(values) + 1] += 1
    assert np.array_equal(agg["shanten_hist"], hist)
    assert n < DEALT_CHUNK  # a single chunk, so the replay above is the whole study
    if tiles == 14:
        assert agg["hands"][0] == n and agg["complete"][0] == hist[-1, 0]


def test_deal_prefix_draws_uniformly():
    """Ordered pairs dealt from a 6-tile wall are uniform (30 outcomes, 5-sigma bounds)."""
    from mjstats.studies.kernels.dealt import deal_prefix

    state = chunk_states(3, 0, 1)[0].copy()
    wall = np.arange(6, dtype=np.uint8)
    counts = np.zeros(34, np.uint8)
    n = 30_000
    seen = np.zeros((6, 6), np.int64)
    for _ in range(n):
        counts[:] = 0
        deal_prefix(state, wall, 2, counts)
        seen[wall[0], wall[1]] += 1
        assert counts[wall[0]] + counts[wall[1]] == counts.sum() == 2
    assert np.trace(seen) == 0
    p = 1 / 30
    expected = n * p
    sigma = math.sqrt(n * p * (1 - p))
    off = seen[~np.eye(6, dtype=bool)]
    assert np.abs(off - expected).max() < 5 * sigma


def test_dealt_fast_mode_sees_the_same_deals_as_the_options():
    """per_form and useful only add statistics: the all-forms row is identical."""
    n = 2 * DEALT_CHUNK + 77
    fast = run_study(DealtStudy(n, seed=12), progress=False)
    full = run_study(DealtStudy(n, seed=12, per_form=True, useful=True), progress=False)
    assert fast["shanten_hist"].shape == (1, 16)
    assert np.array_equal(fast["shanten_hist"][0], full["shanten_hist"][-1])
    for key in ("complete", "legal", "fan_count", "cooccurrence", "base_hist"):
        assert np.array_equal(fast[key], full[key])
    assert "useful_kinds_hist" not in fast.counters
    assert full["useful_kinds_hist"].sum() == n - full["complete"][0]


def test_dealt_shanten_table_and_useful_statistics():
    agg = run_study(DealtStudy(5_000, seed=2, tiles=13, useful=True, per_form=True), progress=False)
    table = shanten_table(agg)
    assert list(table.columns) == ["shanten", *MCR.shanten_forms, "any"]
    assert np.allclose(table.drop(columns="shanten").sum(axis=0), 1.0)
    assert table["shanten"].iloc[0] == -1 and table["any"].iloc[0] == 0  # 13 tiles never win
    assert (table["any"].cumsum() >= table["regular"].cumsum() - 1e-12).all()  # min over forms
    # every non-complete deal has at least one useful kind
    assert agg["useful_kinds_hist"][0] == 0
    assert agg["useful_kinds_hist"].sum() == 5_000
    copies = agg["useful_copies_hist"]
    assert copies[:1].sum() == 0 and copies.sum() == 5_000
    fast = shanten_table(run_study(DealtStudy(5_000, seed=2, tiles=13), progress=False))
    assert list(fast.columns) == ["shanten", "any"]
    k = len(fast)  # the per-form table is longer: other forms reach higher shanten
    assert np.array_equal(fast["any"], table["any"][:k]) and (table["any"][k:] == 0).all()


def test_dealt_is_identical_for_threads_and_grouping():
    study = DealtStudy(3 * DEALT_CHUNK + 123, seed=9)
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = run_study(study, group_size=1, progress=False)
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
        two = run_study(study, group_size=4, progress=False)
        three = run_study(study, group_size=3, progress=False)
    finally:
        numba.set_num_threads(before)
    assert one == two == three
    assert one["deals"][0] == 3 * DEALT_CHUNK + 123 == one["shanten_hist"].sum()
    assert run_study(DealtStudy(3 * DEALT_CHUNK + 123, seed=10), progress=False) != one


def test_dealt_complete_probability_is_near_exact():
    """P(complete) of 14-tile deals against the exact count, 5 sigma (Poisson)."""
    n = scaled(2_000_000)
    agg = run_study(DealtStudy(n, seed=13), progress=False)
    # complete_weights(MCR)["all"] (slow to compute; the slow test below recomputes it)
    p = 13_257_769_189_488 / math.comb(136, 14)
    assert abs(agg["complete"][0] - n * p) < 5 * math.sqrt(n * p) + 1
    assert agg["legal"][0] <= agg["complete"][0]


@pytest.mark.slow
def test_dealt_complete_probability_large_run():
    n = scaled(50_000_000)
    agg = run_study(DealtStudy(n, seed=14), progress=False)
    w = complete_weights(MCR)
    p = w["all"] / w["deals"]
    assert w["all"] == 13_257_769_189_488
    assert abs(agg["complete"][0] - n * p) < 5 * math.sqrt(n * p)


def test_dealt_study_pickles_and_rejects_bad_arguments():
    import pickle

    study = DealtStudy(1000, seed=1, tiles=13, per_form=True)
    clone = pickle.loads(pickle.dumps(study))
    assert clone.params() == study.params()
    assert clone.run_chunks(0, 1) == study.run_chunks(0, 1)
    with pytest.raises(ValueError, match="tiles"):
        DealtStudy(10, seed=1, tiles=12)
    with pytest.raises(ValueError, match="n must"):
        DealtStudy(-1, seed=1)
    with pytest.raises(ValueError, match="seed"):
        DealtStudy(10, seed=None)


# ------------------------------------------------------------------ exact & sample


def test_exact_chunks_enumerate_complete_hands_with_their_weights():
    part = ExactStudy().run_chunks(0, 2)
    assert part["distinct"][0] == 2 * 32768
    assert part["unscored"][0] == 0
    # scored once per winning tile kind with weight x copies: 14 x the deal weight
    assert part["complete"][0] == 14 * part["deal_weight"][0]


def test_sampler_draws_complete_hands():
    agg = run_study(SampleStudy(20_000, seed=3), progress=False)
    assert agg["hands"][0] == agg["complete"][0] == 20_000


def _assert_sample_agrees(ex, n, seed):
    """Every fan's frequency in ``n`` sampled hands within 5 sigma of the exact value."""
    sm = run_study(SampleStudy(n, seed=seed), progress=False)
    p = np.diag(ex["cooccurrence"]) / ex["complete"][0]
    f = np.diag(sm["cooccurrence"]) / n
    sigma = np.sqrt(np.maximum(p * (1 - p), 1 / n) / n)
    bad = np.flatnonzero(np.abs(f - p) > 5 * sigma)
    assert not len(bad), [(MCR.fans[i].en, p[i], f[i]) for i in bad]
    # and the totals: mean within 5 standard errors
    t = np.arange(ex["total_hist"].shape[-1])
    pe = ex["total_hist"].sum(axis=0) / ex["complete"][0]
    mean, sd = (t * pe).sum(), np.sqrt(((t - (t * pe).sum()) ** 2 * pe).sum())
    ms = (t * sm["total_hist"].sum(axis=0)).sum() / n
    assert abs(ms - mean) < 5 * sd / np.sqrt(n)


def test_shipped_exact_study_has_the_public_checks():
    summary = exact_summary(load_exact("mcr"))
    assert round(1 / summary["p_complete_riichi_forms"]) == 330_530
    w = complete_weights(MCR)
    assert load_exact("mcr")["deal_weight"][0] == w["all"]
    assert summary["distinct_complete_hands"] > 11_498_658


def test_sample_agrees_with_the_shipped_exact_study_within_five_sigma():
    _assert_sample_agrees(load_exact("mcr"), scaled(300_000), SEED)


@pytest.mark.slow
def test_exact_reproduces_the_shipped_study_and_sample_agrees_at_2m():
    ex = run_study(ExactStudy(), progress=False)
    summary = exact_summary(ex)
    assert summary["distinct_complete_hands"] == ex["distinct"][0]
    assert ex["deal_weight"][0] == complete_weights(MCR)["all"]
    shipped = load_exact("mcr")
    for name in ex.counters:  # the data file is current: regenerate it if this fails
        np.testing.assert_array_equal(ex[name], shipped[name], err_msg=name)
    _assert_sample_agrees(ex, 2_000_000, 11)


# ------------------------------------------------------------------ determinism


def test_same_seed_same_numbers_whatever_threads_and_grouping():
    study = SampleStudy(3 * 65536 + 123, seed=9)
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = run_study(study, group_size=1, progress=False)
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
        two = run_study(study, group_size=4, progress=False)
    finally:
        numba.set_num_threads(before)
    assert one == two
    other = run_study(SampleStudy(3 * 65536 + 123, seed=10), progress=False)
    assert not np.array_equal(one["fan_count"], other["fan_count"])


def test_checkpoint_and_resume_equal_an_uninterrupted_run(tmp_path):
    from mjstats.studies.runner import StudyInterrupted

    study = DealtStudy(5 * DEALT_CHUNK, seed=4, useful=False)
    ref = run_study(study, group_size=1, progress=False)
    ckpt = tmp_path / "dealt.ckpt"
    with pytest.raises(StudyInterrupted):
        run_study(study, group_size=1, checkpoint=ckpt, progress=False, on_group=interrupt_after(2))
    assert run_study(study, group_size=2, checkpoint=ckpt, resume=True, progress=False) == ref


def test_dask_gives_identical_numbers(dask_client):
    study = SampleStudy(4 * 65536, seed=21)
    local = run_study(study, progress=False)
    for group_size in (1, 2):
        assert run_study(study, dask=dask_client, group_size=group_size, progress=False) == local


def test_a_killed_worker_loses_nothing_and_counts_nothing_twice(dask_client):
    import os
    import signal

    study = DealtStudy(8 * DEALT_CHUNK, seed=8, useful=False)
    local = run_study(study, group_size=1, progress=False)
    killed = []

    def kill_one_worker(first, count):
        if not killed:
            pids = dask_client.run(os.getpid)
            address, pid = sorted(pids.items())[0]
            killed.append(address)
            # hard kill mid-run: the nanny restarts the process, the scheduler reruns its tasks
            os.kill(pid, signal.SIGKILL)

    got = run_study(study, dask=dask_client, group_size=1, progress=False, on_group=kill_one_worker)
    assert killed and got == local


# --------------------------------------------------------------------------- CLI


def test_cli_study_prints_the_fan_table_and_writes_outputs(tmp_path, capsys):
    out = tmp_path / "res"
    js = tmp_path / "s.json"
    code = main(
        [
            "study",
            "sample",
            "--n",
            "5000",
            "--seed",
            "1",
            "--out",
            str(out),
            "--json",
            str(js),
            "--no-progress",
        ]
    )
    assert code == 0
    text = capsys.readouterr().out
    assert "Fully Concealed Hand" in text and "frequency" in text
    assert {p.name for p in out.iterdir()} >= {"aggregate.json", "fans.csv", "totals.csv"}
    data = json.loads(js.read_text())
    assert data["hands"] == 5000 and "Seven Pairs" in data["fan_probability"]


def test_cli_study_usage_errors_exit_2(capsys):
    assert main(["study", "exact", "--n", "5"]) == 2
    assert main(["study", "sample", "--resume"]) == 2
    assert "--help" in capsys.readouterr().err


def test_make_study_rejects_unknown_kinds():
    with pytest.raises(ValueError, match="unknown study kind"):
        make_study("nope")
