"""The cold-start helper (:mod:`mjstats.compile_helper`): its plan is what the command
compiles, the command loads what the helper compiled, and it starts only when it can help.

Each subprocess test compiles the scorer in an empty cache of its own (about 12 s
of CPU on the development machine).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mjstats import compile_helper
from mjstats.bench.compile_plans import PLAN_COMMANDS, trace
from mjstats.compile_helper import load_plan


def test_the_scorer_plan_is_what_the_command_compiles():
    plan = load_plan("scorer")
    assert plan is not None and tuple(plan["command"]) == PLAN_COMMANDS["scorer"]
    fresh = trace(PLAN_COMMANDS["scorer"])
    assert fresh == plan["kernels"], (
        "the scorer's compile plan is out of date: "
        "run `python -m mjstats.bench.compile_plans record scorer`"
    )


def test_the_command_loads_every_kernel_the_helper_compiled(tmp_path):
    env = dict(os.environ, MJSTATS_CACHE_DIR=str(tmp_path))
    env.pop("NUMBA_CACHE_DIR", None)
    helper = [sys.executable, "-m", "mjstats.compile_helper", "run", "scorer"]
    subprocess.run(helper, env=env, check=True, timeout=1200)
    # the helper ran to the end: the command compiles its own entry kernel (which the
    # helper leaves to it) and finds every other kernel in the cache
    root = load_plan("scorer")["kernels"][0]
    assert trace(PLAN_COMMANDS["scorer"], cache=str(tmp_path)) == [root]


def test_started_only_for_the_groups_own_kernels_once_and_stopped(monkeypatch, tmp_path):
    started = []

    class Proc:
        def __init__(self, cmd, **kw):
            started.append((cmd, kw["env"]))

        def poll(self):
            return None

        def terminate(self):
            started.append("terminated")

    monkeypatch.setattr(compile_helper.subprocess, "Popen", Proc)
    monkeypatch.setattr(compile_helper, "_tried", set())
    monkeypatch.setattr(compile_helper, "_stopping", [])
    monkeypatch.setattr(compile_helper, "_wanted", lambda: True)
    plan = load_plan("scorer")
    module, qualname, _ = plan["kernels"][0]
    root = type("K", (), {"__module__": module, "__qualname__": qualname})

    def users_policy():
        pass

    compile_helper.start("scorer", users_policy)  # not the scorer's: no helper
    compile_helper.start("no-such-group", root)
    assert started == []
    compile_helper.start("scorer", root)
    compile_helper.start("scorer", root)  # once per process
    [(cmd, env)] = started
    assert cmd[-3:] == ["mjstats.compile_helper", "run", "scorer"][-3:]
    assert env["MJSTATS_COMPILE_HELPER"] == "0"  # the helper never starts one of its own
    compile_helper.stop("scorer")
    assert started[-1] == "terminated"
    assert len(compile_helper._stopping) == 1  # kept until reaped: no ResourceWarning
    compile_helper.stop("scorer")  # already stopped: nothing more
    assert len(started) == 2


def test_not_wanted_when_switched_off(monkeypatch):
    monkeypatch.setenv("MJSTATS_COMPILE_HELPER", "0")
    assert not compile_helper._wanted()


@pytest.mark.skipif(not hasattr(os, "nice"), reason="POSIX signals and nice")
def test_the_helper_stops_when_told(tmp_path):
    env = dict(os.environ, MJSTATS_CACHE_DIR=str(tmp_path))
    env.pop("NUMBA_CACHE_DIR", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "mjstats.compile_helper", "run", "scorer"],
        env=env,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 600
    while not list(tmp_path.rglob("*.nbi")) and time.monotonic() < deadline:
        time.sleep(0.1)  # until it has written a kernel: it is past its start-up
    assert proc.poll() is None, "the helper ended before it was told to"
    proc.terminate()
    _, err = proc.communicate(timeout=120)  # at once, or when a long LLVM call returns
    assert proc.returncode == 0 and err == b""
    assert not list(tmp_path.rglob("*.tmp*"))  # no half-written cache file


def _running(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, dead but not yet reaped, does not)."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_a_helper_whose_command_was_killed_stops():
    # the command (here a stand-in that starts a watched sleeper, then dies at once,
    # as under SIGKILL: no atexit) cannot stop its helper; the helper sees its parent
    # go and stops itself rather than compile on alone for minutes
    child = (
        "import time; from mjstats.compile_helper import _stop_when_orphaned;"
        "_stop_when_orphaned(0.05); print('watching', flush=True); time.sleep(120)"
    )
    parent = (
        "import os, subprocess, sys;"
        f"p = subprocess.Popen([sys.executable, '-c', {child!r}],"
        " stdout=subprocess.PIPE, stderr=subprocess.DEVNULL);"
        "p.stdout.readline(); print(p.pid, flush=True); os._exit(0)"
    )
    out = subprocess.run([sys.executable, "-c", parent], capture_output=True, text=True, timeout=60)
    pid = int(out.stdout.split()[0])
    deadline = time.monotonic() + 20
    while _running(pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _running(pid)
