"""A cold start on two cores: a helper process compiles a command's kernels from the far end.

numba compiles one kernel at a time, under a process-wide lock, so the first
run of a command on an empty cache (``mjstats score HAND``: about 50 kernels
and 10-18 s on the 2-core development machines) leaves every other core idle.
A command compiles its kernels depth first in a fixed order, and writes each
one to the disk cache, from which any process that needs it later loads it in
milliseconds. So when a command starts compiling (the first compile event
inside its :func:`mjstats.compiling.notice` block), :func:`start` launches
``python -m mjstats.compile_helper run GROUP``: a process that compiles the
same kernels, for the same argument types, in the opposite order (the kernels
the command would reach last, first). Each process loads what the other has
already written, they meet about halfway, and the command stops the helper when
it is done. Nothing changes but the time: the kernels are the same, and a
command that finds the helper has not got there yet compiles a kernel itself.

What to compile, for which types and in which order is the group's *plan*,
recorded from a cold run of the group's command (the recorder,
:mod:`mjstats.bench.compile_plans`, runs the CLI; this module never imports it)::

    python -m mjstats.bench.compile_plans record            # every group
    python -m mjstats.bench.compile_plans record scorer     # one

into ``mjstats/data/compile-plans/GROUP.pkl`` (the kernels' modules, names and
numba argument types, pickled). ``tests/test_compile_helper.py`` records the
``scorer`` plan afresh and compares. A stale plan costs speed, never
correctness: the helper then compiles a kernel for types nobody asks for, and
the command compiles the one it needs itself.

The helper is not started with ``MJSTATS_COMPILE_HELPER=0``, on a single core,
for a group without a plan, more than once per group in one process, or when
numba's JIT is off.
"""

from __future__ import annotations

import atexit
import importlib
import os
import pickle
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

__all__ = ["PLAN_DIR", "load_plan"]  # start, stop: for mjstats.compiling

PLAN_DIR = Path(__file__).resolve().parent / "data" / "compile-plans"
"""Where the recorded plans are (``GROUP.pkl``)."""
_started: dict[str, subprocess.Popen] = {}
_stopping: list[subprocess.Popen] = []  # told to stop, not yet reaped
_tried: set[str] = set()


def load_plan(group: str) -> dict[str, Any] | None:
    """The recorded plan of ``group`` (None when there is none or it does not load):
    ``{"group", "command", "numba", "kernels": [(module, qualname, argtypes), ...]}``,
    kernels in the order the command starts compiling them.

    Examples
    --------
    >>> plan = load_plan("scorer")
    >>> plan["kernels"][0][:2]  # the command's own entry kernel comes first
    ('mjstats.rulesets.mcr.binding', 'score_single')
    """
    try:
        with open(PLAN_DIR / f"{group}.pkl", "rb") as fh:
            plan = pickle.load(fh)
        return plan if isinstance(plan, dict) and "kernels" in plan else None
    except Exception:  # missing, or numba types this numba cannot rebuild
        return None


def _wanted() -> bool:
    import numba

    if os.environ.get("MJSTATS_COMPILE_HELPER", "1") == "0" or numba.config.DISABLE_JIT:
        return False
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # no affinity API (macOS, Windows)
        cores = os.cpu_count() or 1
    return cores >= 2


def start(group: str, kernel: Any) -> None:
    """Start the helper of ``group`` (at most once per process) when ``kernel`` (the
    Python function numba starts compiling) is in the group's plan and a second
    core is there; called by :mod:`mjstats.compiling` on a command's first compile."""
    if group in _tried or not _wanted():
        return
    plan = load_plan(group)
    key = (getattr(kernel, "__module__", None), getattr(kernel, "__qualname__", None))
    if plan is None or key not in {k[:2] for k in plan["kernels"]}:
        return  # not the group's kernels (a user's policy, a test's kernel)
    _tried.add(group)
    import numba

    env = {"NUMBA_CACHE_DIR": str(numba.config.CACHE_DIR)}  # the command's own cache
    try:
        _started[group] = _spawn(["run", group], env, stdout=subprocess.DEVNULL)
    except OSError:  # no process to spare: compile alone, as without a helper
        pass


def _spawn(args: list[str], env: dict[str, str] | None = None, **popen: Any) -> subprocess.Popen:
    """``python -m mjstats.compile_helper ARGS`` importing the same mjstats as this process.

    ``python -m`` puts its working folder first on ``sys.path``: started from a clone's
    root it would import the clone's mjstats, not the installed one that the command
    runs (and compile into another cache). So it starts in the folder that holds this
    process's ``mjstats`` package, which also comes first on its ``PYTHONPATH``."""
    source = str(Path(__file__).resolve().parents[1])
    environ = dict(os.environ, MJSTATS_COMPILE_HELPER="0", MJSTATS_PROGRESS="0", **(env or {}))
    environ["PYTHONPATH"] = os.pathsep.join(filter(None, [source, environ.get("PYTHONPATH")]))
    return subprocess.Popen(
        [sys.executable, "-m", "mjstats.compile_helper", *args],
        cwd=source,
        env=environ,
        stdin=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        **popen,
    )


def stop(group: str) -> None:
    """Stop the helper of ``group`` (the command has all it needs): it leaves the
    kernel it is compiling unwritten and exits; this does not wait for it (it is
    reaped later, at the latest when Python exits)."""
    proc = _started.pop(group, None)
    if proc is not None and proc.poll() is None:
        try:
            proc.terminate()
        except OSError:
            pass
        _stopping.append(proc)
    _stopping[:] = [p for p in _stopping if p.poll() is None]


@atexit.register
def _reap() -> None:
    """Wait for the helpers still exiting (a helper inside a long LLVM call sees its
    SIGTERM when the call returns); kill one that takes more than two seconds."""
    for proc in [*_started.values(), *_stopping]:
        try:
            if proc.poll() is None:
                proc.terminate()
            proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        except OSError:
            pass


class _Stop(Exception):
    """Raised in the helper by SIGTERM: the command is done. An Exception, so that
    numba's cache writer, if it is writing, removes its temporary file."""


def _stop_when_orphaned(period: float = 0.5) -> None:
    """Send this helper SIGTERM once its command is gone: a command killed outright
    (SIGKILL, or SIGTERM, which skips :func:`_reap`) cannot stop it, and it would
    compile on alone for minutes. A daemon thread watches the parent's pid, as
    ``os.getppid()`` changes when the process is handed to another parent."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(period)
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=watch, name="mjstats-helper-watch", daemon=True).start()


def _run(group: str) -> int:
    """The helper: compile the plan's kernels last first, until told to stop (SIGTERM)."""
    stopping = []

    def stop_now(*_: Any) -> None:
        stopping.append(True)  # numba may catch the exception and go on: this stays
        raise _Stop

    signal.signal(signal.SIGTERM, stop_now)
    _stop_when_orphaned()
    try:
        os.nice(10)  # spare cores only: on a busy machine the command comes first
    except (AttributeError, OSError):
        pass
    plan = load_plan(group)
    # the first kernel is the command's own entry, which the command compiles last
    for module, qualname, args in reversed(plan["kernels"][1:] if plan else []):
        if stopping:
            break
        try:
            kernel = getattr(importlib.import_module(module), qualname)
            kernel.compile(tuple(args))  # loads it instead when the command has written it
        except Exception:  # told to stop; or a stale entry, or the command's cache gone
            if stopping:
                break
    return 0


def _main(argv: list[str]) -> int:
    if argv[:1] == ["run"] and len(argv) == 2:
        return _run(argv[1])
    if argv == ["where"]:  # the copy of mjstats this process runs (this module's own)
        print(Path(__file__).resolve().parent)
        return 0
    print("usage: python -m mjstats.compile_helper run GROUP | where", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(_main(sys.argv[1:]))
