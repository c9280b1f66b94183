"""Record the compile plans of :mod:`mjstats.compile_helper`: what a cold run of a command compiles.

A plan is the list of mjstats kernels (module, name, numba argument types) that a cold
run of the group's command (:data:`PLAN_COMMANDS`) starts compiling, in order. The
recorder runs the command through the CLI, so it lives here, above the CLI, and the
helper (which every compiling command may start) never imports the CLI::

    python -m mjstats.bench.compile_plans record            # every group of PLAN_COMMANDS
    python -m mjstats.bench.compile_plans record scorer     # one

writes ``mjstats/data/compile-plans/GROUP.pkl``; ``tests/test_compile_helper.py``
records the ``scorer`` plan afresh and compares.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from mjstats.cli import main
from mjstats.compile_helper import PLAN_DIR, load_plan

__all__ = ["PLAN_COMMANDS", "record", "trace"]

PLAN_COMMANDS: dict[str, tuple[str, ...]] = {
    "scorer": ("score", "[123p]55m12379s789p+8s self-drawn"),
    "sample": ("study", "sample", "--n", "1000", "--seed", "1"),
    "analyze": ("analyze", "2367m3345p1568s16z", "--n", "200"),
    # run from the repository's root (the records ship with the source tree)
    "records": ("records", "tests/data/botzone/sample.txt", "--check"),
    "replay": ("replay", "tests/data/botzone/sample.txt"),
    # the built-in policies are one kernel's branches: any of them compiles them all;
    # on the Botzone wall a study also counts claims as the real-play data set does
    "games": tuple("study games --n 50 --seed 1 --policy planner --wall botzone".split()),
    "match": ("match", "planner", "fan-aware", "--n", "20", "--seed", "1"),
}
"""The command whose cold run records each group's plan (the group is the
:func:`~mjstats.compiling.notice` group the command's entry point opens)."""


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
        cmd = [sys.executable, "-m", "mjstats.bench.compile_plans", "trace", out, *argv]
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
    PLAN_DIR.mkdir(parents=True, exist_ok=True)
    path = PLAN_DIR / f"{group}.pkl"
    with open(path, "wb") as fh:
        pickle.dump(plan, fh, protocol=4)
    return path


def _main(argv: list[str]) -> int:
    if argv[:1] == ["trace"] and len(argv) >= 2:
        return _trace_here(argv[1], argv[2:])
    if argv[:1] == ["record"]:
        for group in argv[1:] or list(PLAN_COMMANDS):
            path = record(group)
            print(f"{group}: {len(load_plan(group)['kernels'])} kernels -> {path}")
        return 0
    print(
        "usage: python -m mjstats.bench.compile_plans record [GROUP ...] | trace OUT ARGS...",
        file=sys.stderr,
    )
    return 2


if __name__ == "__main__":
    raise SystemExit(_main(sys.argv[1:]))
