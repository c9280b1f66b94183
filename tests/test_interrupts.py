"""Ctrl-C at random moments to a real ``mjstats study`` process (issue 19).

Each run sends SIGINT at a seeded random moment: during start-up, table
building, kernel compilation (a few runs get a cold numba cache) or scoring.
The process must end with status 130 and one line saying "interrupted;
progress saved" (then ``--resume`` gives the numbers of an uninterrupted run) or
"interrupted; nothing done yet", or finish normally (status 0): never a signal
death, a traceback or a lost checkpoint.

CI runs 6 interrupts (1 with a cold cache); ``pytest -m slow`` runs 50 (5 cold).
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
STUDY = ["study", "sample", "--n", "2000000", "--seed", "11", "--top", "1"]
FIRST_MOMENT = 0.6  # seconds: before that the interpreter is still importing
LAST_MOMENT = 14.0  # a warm run has scored everything by then on a busy machine


def _mjstats(args, tmp_path, env_extra=None, interrupt_at=None):
    env = dict(os.environ, PYTHONPATH=str(ROOT), **(env_extra or {}))
    proc = subprocess.Popen(
        [sys.executable, "-m", "mjstats.cli", *args],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    if interrupt_at is not None:
        time.sleep(interrupt_at)
        proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=600)
    return proc.returncode, out, err


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """The uninterrupted result (also warms the numba cache for the runs)."""
    tmp = tmp_path_factory.mktemp("ref")
    code, _, err = _mjstats([*STUDY, "--json", "ref.json"], tmp)
    assert code == 0, err
    return _numbers(json.loads((tmp / "ref.json").read_text()))


def _numbers(summary: dict) -> dict:
    """A study's JSON without its provenance (whose ``command`` names each run's files)."""
    return {k: v for k, v in summary.items() if k != "provenance"}


def _interrupt_runs(n_runs, n_cold, reference, tmp_path):
    rng = random.Random(20_241_201)
    outcomes = {"saved": 0, "nothing": 0, "finished": 0}
    for i in range(n_runs):
        cold = i < n_cold
        env = {"NUMBA_CACHE_DIR": str(tmp_path / f"cold{i}")} if cold else None
        ckpt = tmp_path / f"run{i}.ckpt"
        moment = rng.uniform(FIRST_MOMENT, LAST_MOMENT)
        code, _, err = _mjstats([*STUDY, "--checkpoint", str(ckpt)], tmp_path, env, moment)
        what = f"run {i} (SIGINT at {moment:.2f}s, cold={cold}): status {code}, stderr {err!r}"
        assert code >= 0, "signal death: " + what
        assert "Traceback" not in err, what
        if code == 0:
            outcomes["finished"] += 1
            continue
        # (click writes an empty line first when Ctrl-C lands while it parses)
        assert code == 130 and err.strip().count("\n") == 0, what
        if "nothing done yet" in err:
            outcomes["nothing"] += 1
            continue
        assert "interrupted; progress saved to" in err and ckpt.exists(), what
        outcomes["saved"] += 1
        out = tmp_path / f"run{i}.json"
        code, _, err = _mjstats(
            [*STUDY, "--checkpoint", str(ckpt), "--resume", "--json", str(out)], tmp_path
        )
        assert code == 0, err
        assert _numbers(json.loads(out.read_text())) == reference, what
    return outcomes


def test_sigint_at_random_moments_ci(reference, tmp_path):
    outcomes = _interrupt_runs(6, 1, reference, tmp_path)
    assert sum(outcomes.values()) == 6


@pytest.mark.slow
def test_sigint_at_random_moments_50(reference, tmp_path):
    outcomes = _interrupt_runs(50, 5, reference, tmp_path)
    print(outcomes)
    assert sum(outcomes.values()) == 50


def test_resume_without_a_checkpoint_says_so(tmp_path):
    code, _, err = _mjstats([*STUDY, "--checkpoint", "none.ckpt", "--resume"], tmp_path)
    assert code == 1 and err.count("\n") == 1 and "nothing to resume" in err, err


@pytest.mark.parametrize("delay", [0.01, 0.05, 0.2, 0.6])
def test_in_process_interrupt_is_a_study_interrupted(delay, tmp_path):
    """SIGINT while run_study builds tables, loads kernels or scores: never a
    SystemError out of numba; either StudyInterrupted with a consistent
    checkpoint or the finished result."""
    import threading

    from mjstats.studies.checkpoint import load_checkpoint
    from mjstats.studies.runner import StudyInterrupted, run_study
    from mjstats.studies.sample import CHUNK, SampleStudy

    study = SampleStudy(6 * CHUNK, seed=5)
    ckpt = tmp_path / "run.ckpt"
    # outside run_study (before it starts, after it ends) the signal is ignored here
    previous = signal.signal(signal.SIGINT, lambda *args: None)
    timer = threading.Timer(delay, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        agg = run_study(study, group_size=1, checkpoint=ckpt, progress=False)
        assert int(agg["hands"][0]) == 6 * CHUNK
    except StudyInterrupted as exc:
        partial, _ = load_checkpoint(ckpt, study)
        assert partial == exc.partial
        resumed = run_study(study, checkpoint=ckpt, resume=True, progress=False)
        assert resumed == run_study(study, progress=False)
    finally:
        timer.cancel()
        timer.join()
        signal.signal(signal.SIGINT, previous)
