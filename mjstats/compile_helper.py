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
recorded from a cold run of the group's command (:data:`PLAN_COMMANDS`) with::

    python -m mjstats.compile_helper record            # every group of PLAN_COMMANDS
    python -m mjstats.compile_helper record scorer     # one

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
import tempfile
from pathlib import Path
from typing import Any

__all__ = ["PLAN_COMMANDS", "load_plan", "record", "trace"]  # start, stop: for mjstats.compiling

PLAN_COMMANDS: dict[str, tuple[str, ...]] = {
    "scorer": ("score", "[123p]55m12379s789p+8s self-drawn"),
    "sample": ("study", "sample", "--n", "1000", "--seed", "1"),
    "analyze": ("analyze", "2367m3345p1568s16z", "--n", "200"),
}
"""The command whose cold run records each group's plan (the group is the
:func:`~mjstats.compiling.notice` group the command's entry point opens)."""

_PLANS = Path(__file__).resolve().parent / "data" / "compile-plans"
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
        with open(_PLANS / f"{group}.pkl", "rb") as fh:
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

    env = dict(os.environ, MJSTATS_COMPILE_HELPER="0", MJSTATS_PROGRESS="0")
    env["NUMBA_CACHE_DIR"] = str(numba.config.CACHE_DIR)  # the command's own cache
    source = str(Path(__file__).resolve().parents[1])  # and its own mjstats
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [source, env.get("PYTHONPATH")]))
    try:
        _started[group] = subprocess.Popen(
            [sys.executable, "-m", "mjstats.compile_helper", "run", group],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=env,
        )
    except OSError:  # no process to spare: compile alone, as without a helper
        pass


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


def _run(group: str) -> int:
    """The helper: compile the plan's kernels last first, until told to stop (SIGTERM)."""
    stopping = []

    def stop_now(*_: Any) -> None:
        stopping.append(True)  # numba may catch the exception and go on: this stays
        raise _Stop

    signal.signal(signal.SIGTERM, stop_now)
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


# -- recording -----------------------------------------------------------------------


def _trace_here(out: str, argv: list[str]) -> int:
    """Run ``mjstats ARGV`` in this process and write the mjstats kernels it
    starts compiling, in order, to ``out`` (pickle)."""
    import numba
    from numba.core import event

    kernels: list[tuple[str, str, tuple]] = []

    class Listener(event.Listener):
        def on_start(self, ev: Any) -> None:
            fn = ev.data["dispatcher"].py_func
            module, name = getattr(fn, "__module__", None) or "", fn.__qualname__
            if module.startswith("mjstats.") and "<locals>" not in name:
                kernels.append((module, name, tuple(ev.data["args"])))

        def on_end(self, ev: Any) -> None:
            pass

    event.register("numba:compile", Listener())
    from mjstats.cli import main

    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code
    with open(out, "wb") as fh:
        pickle.dump({"numba": numba.__version__, "kernels": kernels}, fh)
    return int(code or 0)


def trace(argv: tuple[str, ...], cache: str | None = None) -> list[tuple[str, str, tuple]]:
    """The mjstats kernels a run of ``mjstats ARGV`` compiles, in the order it starts
    them, in a new interpreter without a helper; the cache is ``cache`` (a new
    empty folder when None: a cold run).

    Examples
    --------
    >>> kernels = trace(("score", "123m456p789s11z23m+4m"))  # doctest: +SKIP
    """
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "trace.pkl")
        env = dict(os.environ, MJSTATS_COMPILE_HELPER="0", MJSTATS_PROGRESS="0")
        env["MJSTATS_CACHE_DIR"] = cache or os.path.join(tmp, "cache")
        env.pop("NUMBA_CACHE_DIR", None)
        cmd = [sys.executable, "-m", "mjstats.compile_helper", "trace", out, *argv]
        subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL)
        with open(out, "rb") as fh:
            return pickle.load(fh)["kernels"]


def record(group: str) -> Path:
    """Record the plan of ``group`` from a cold run of :data:`PLAN_COMMANDS` ``[group]``
    and write it to the package's data; returns the file."""
    import numba

    command = PLAN_COMMANDS[group]
    plan = {
        "group": group,
        "command": command,
        "numba": numba.__version__,
        "kernels": trace(command),
    }
    _PLANS.mkdir(parents=True, exist_ok=True)
    path = _PLANS / f"{group}.pkl"
    with open(path, "wb") as fh:
        pickle.dump(plan, fh, protocol=4)
    return path


def _main(argv: list[str]) -> int:
    if argv[:1] == ["run"] and len(argv) == 2:
        return _run(argv[1])
    if argv[:1] == ["trace"] and len(argv) >= 2:
        return _trace_here(argv[1], argv[2:])
    if argv[:1] == ["record"]:
        for group in argv[1:] or list(PLAN_COMMANDS):
            path = record(group)
            print(f"{group}: {len(load_plan(group)['kernels'])} kernels -> {path}")
        return 0
    print(
        "usage: python -m mjstats.compile_helper record [GROUP ...] | run GROUP | "
        "trace OUT ARGS...",
        file=sys.stderr,
    )
    return 2


if __name__ == "__main__":
    raise SystemExit(_main(sys.argv[1:]))
