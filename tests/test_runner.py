"""The study runner: determinism across grouping and threads, checkpoint/resume, interruption."""

from __future__ import annotations

import numba
import numpy as np
import pytest
from conftest import interrupt_after

from mjstats.kernels._jit import jit, pjit
from mjstats.kernels.rng import chunk_states, randbelow, shuffle_prefix
from mjstats.studies.aggregate import Aggregate
from mjstats.studies.runner import Study, StudyInterrupted, run_study


@jit
def _honor_hist_chunk(state, n, out):
    wall = np.empty(136, np.uint8)
    for i in range(136):
        wall[i] = i // 4
    for _ in range(n):
        shuffle_prefix(state, wall, 14)
        honors = 0
        for j in range(14):
            if wall[j] >= 27:
                honors += 1
        out[honors] += 1
    # one more draw so that chunks that share a state would visibly collide
    out[15] += randbelow(state, 2)


@pjit
def _honor_hist(states, sizes, out):
    for c in numba.prange(states.shape[0]):
        _honor_hist_chunk(states[c], sizes[c], out[c])


class HonorCountStudy(Study):
    """Distribution of honour tiles in random 14-tile deals (a real, if small, study)."""

    kind = "test-honors"

    def __init__(self, n: int, seed: int, chunk_size: int = 1000) -> None:
        self.n, self.seed, self.chunk_size = n, seed, chunk_size

    def params(self):
        return {"n": self.n, "seed": self.seed, "chunk_size": self.chunk_size}

    def n_chunks(self):
        return -(-self.n // self.chunk_size)

    def chunk_weight(self, first, count):
        sizes = self._sizes(first, count)
        return int(sizes.sum())

    def _sizes(self, first, count):
        starts = np.arange(first, first + count, dtype=np.int64) * self.chunk_size
        return np.minimum(self.chunk_size, self.n - starts)

    def run_chunks(self, first, count):
        out = np.zeros((count, 16), np.int64)
        if count:
            _honor_hist(chunk_states(self.seed, first, count), self._sizes(first, count), out)
        return Aggregate(self.kind, self.params(), {"hist": out.sum(axis=0)})


def test_result_is_a_real_distribution():
    agg = run_study(HonorCountStudy(20_000, seed=3), progress=False)
    hist = agg["hist"][:15]
    assert hist.sum() == 20_000
    # mean number of honours in 14 of 136 tiles is 14 * 28 / 136
    mean = (np.arange(15) * hist).sum() / hist.sum()
    assert abs(mean - 14 * 28 / 136) < 5 * np.sqrt(2.3 / 20_000)


@pytest.mark.parametrize("group_size", [1, 2, 4, 7])
def test_grouping_does_not_change_results(group_size):
    ref = run_study(HonorCountStudy(9_500, seed=11), group_size=1, progress=False)
    got = run_study(HonorCountStudy(9_500, seed=11), group_size=group_size, progress=False)
    assert got == ref


def test_thread_count_does_not_change_results():
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = run_study(HonorCountStudy(8_000, seed=5), progress=False)
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
        many = run_study(HonorCountStudy(8_000, seed=5), progress=False)
    finally:
        numba.set_num_threads(before)
    assert one == many


def test_different_seeds_differ():
    a = run_study(HonorCountStudy(5_000, seed=1), progress=False)
    b = run_study(HonorCountStudy(5_000, seed=2), progress=False)
    assert not np.array_equal(a["hist"], b["hist"])


def test_interrupt_then_resume_equals_uninterrupted(tmp_path):
    study = HonorCountStudy(10_000, seed=9)
    ref = run_study(study, group_size=2, progress=False)
    ckpt = tmp_path / "run.checkpoint.json"
    with pytest.raises(StudyInterrupted) as info:
        run_study(study, group_size=2, checkpoint=ckpt, progress=False, on_group=interrupt_after(2))
    assert info.value.checkpoint == ckpt and ckpt.exists()
    assert info.value.partial["hist"].sum() < ref["hist"].sum()
    resumed = run_study(study, group_size=3, checkpoint=ckpt, resume=True, progress=False)
    assert resumed == ref
    # resuming a finished run recomputes nothing and gives the same result
    again = run_study(
        study, checkpoint=ckpt, resume=True, progress=False, on_group=interrupt_after(1)
    )  # any group run again would stop it
    assert again == ref


def test_resume_refuses_another_study(tmp_path):
    ckpt = tmp_path / "c.json"
    run_study(HonorCountStudy(2_000, seed=1), checkpoint=ckpt, progress=False)
    with pytest.raises(ValueError, match="another study"):
        run_study(HonorCountStudy(2_000, seed=2), checkpoint=ckpt, resume=True, progress=False)


def test_aggregate_save_load_round_trip(tmp_path):
    agg = run_study(HonorCountStudy(3_000, seed=4), progress=False)
    path = agg.save(tmp_path / "agg.json")
    assert Aggregate.load(path) == agg


def test_aggregate_refuses_to_merge_different_studies():
    a = run_study(HonorCountStudy(1_000, seed=1), progress=False)
    b = run_study(HonorCountStudy(1_000, seed=2), progress=False)
    with pytest.raises(ValueError, match="different studies"):
        a + b


def test_chunk_states_depend_only_on_seed_and_index():
    a = chunk_states(123, 0, 10)
    b = np.concatenate([chunk_states(123, 0, 4), chunk_states(123, 4, 6)])
    assert np.array_equal(a, b)
    assert len({tuple(r) for r in a}) == 10
