"""Studies: published counts, exactness of the sampler, determinism, Dask, the CLI."""

from __future__ import annotations

import json
import math

import numba
import numpy as np
import pytest
from conftest import SEED, scaled

from mjstats.cli import main
from mjstats.kernels.rng import chunk_states, shuffle_prefix
from mjstats.rules import get_ruleset
from mjstats.shanten import shanten
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


def test_dealt_matches_a_naive_replay_of_the_same_deals():
    """The kernel's histograms equal dealing the same tiles in Python and calling shanten()."""
    n = 300
    agg = run_study(DealtStudy(n, seed=5, useful=False), progress=False)
    state = chunk_states(5, 0, 1)[0].copy()
    wall = np.repeat(np.arange(34, dtype=np.uint8), 4)
    forms = MCR.shanten_forms
    hist = np.zeros((len(forms) + 1, 16), np.int64)
    for _ in range(n):
        shuffle_prefix(state, wall, 14)
        counts = np.bincount(wall[:14], minlength=34).astype(np.uint8)
        values = [int(shanten(counts, form=f)) for f in forms]
        for j, v in enumerate(values):
            hist[j, v + 1] += 1
        hist[len(forms), min(values) + 1] += 1
    assert np.array_equal(agg["shanten_hist"], hist)
    assert n < DEALT_CHUNK  # a single chunk, so the replay above is the whole study


def test_dealt_shanten_table_and_useful_statistics():
    agg = run_study(DealtStudy(5_000, seed=2, tiles=13, useful=True), progress=False)
    table = shanten_table(agg)
    assert list(table.columns) == ["shanten", *MCR.shanten_forms, "any"]
    assert np.allclose(table.drop(columns="shanten").sum(axis=0), 1.0)
    assert table["shanten"].iloc[0] == -1 and table["any"].iloc[0] == 0  # 13 tiles never win
    # every non-complete deal has at least one useful kind
    assert agg["useful_kinds_hist"][0] == 0
    assert agg["useful_kinds_hist"].sum() == 5_000


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
    seen = []

    def stop(first, count):
        seen.append(first)
        if len(seen) == 2:
            raise KeyboardInterrupt

    with pytest.raises(StudyInterrupted):
        run_study(study, group_size=1, checkpoint=ckpt, progress=False, on_group=stop)
    assert run_study(study, group_size=2, checkpoint=ckpt, resume=True, progress=False) == ref


@pytest.fixture(scope="module")
def dask_client():
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        yield client


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
