"""Benchmarks that need a fresh Python process: cold start, warm start, peak memory.

* **cold start** (one row per command that compiles: ``score HAND``,
  ``study sample``, ``analyze`` with small sizes; without ``--quick`` also
  ``study dealt``, ``study play``, ``study games``, ``replay`` and ``records``;
  :data:`mjstats.compiling.GROUPS` quotes these rows): the command run by the CLI's
  ``main`` in a new interpreter whose mjstats cache (``MJSTATS_CACHE_DIR``:
  the numba cache and the shanten tables) is an empty temporary folder of its
  own, as on the first run after installing. Numba compiles every kernel the
  command needs; the note gives the seconds spent compiling and the kernels
  compiled (counted with numba's ``"numba:compile"`` events).
* **warm start in that family**: ``score HAND`` again with the cache the cold
  ``score HAND`` filled; task ``warm_start``: the same command with the user's
  own cache, after one untimed run that fills it (every later run).
* The peer's start is ``import MahjongGB`` + one ``MahjongFanCalculator`` call
  in a new interpreter (it has nothing to compile).
* **memory**: a new interpreter scores N hands (and computes shanten of N
  deals). Peak memory per million hands = the input arrays (a ``HandBatch``
  is 51 bytes per hand, a deal 34) + the growth of resident memory during
  the call (from the resident size just before the call to the call's peak,
  reset with Linux's ``/proc/self/clear_refs`` first; glibc is told to return
  freed big blocks, so nothing freed earlier is reused), scaled to a million
  hands (MB per million hands = bytes per hand). The fixed cost of the
  process (Python, numpy, numba, pandas, compiled kernels) is in the note.

Times are wall times of the whole child process (interpreter start included),
the child's own breakdown is in the note, and so is the CPU time (on a shared
machine the wall time also counts waiting for a core).
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from mjstats.bench import peers
from mjstats.bench.measure import make_row
from mjstats.hand import parse_hand

__all__ = ["COLD_COMMANDS", "HAND", "STARTUP_FUNCS"]

HAND = "[123p]55m12379s789p+8s self-drawn"
"""The hand scored by the start-up benchmarks."""

_SAMPLE = Path(__file__).resolve().parents[2] / "tests" / "data" / "botzone" / "sample.txt"

COLD_COMMANDS: tuple[tuple[str, tuple[str, ...], bool], ...] = (
    ("score HAND", ("score", HAND), True),
    ("study sample --n 1000", ("study", "sample", "--n", "1000", "--seed", "1"), True),
    ("analyze 2367m3345p1568s16z --n 200", ("analyze", "2367m3345p1568s16z", "--n", "200"), True),
    ("study dealt --n 1000", ("study", "dealt", "--n", "1000", "--seed", "1"), False),
    ("study play --n 100", ("study", "play", "--n", "100", "--seed", "1"), False),
    ("study games --n 50", ("study", "games", "--n", "50", "--seed", "1"), False),
    ("replay sample.txt (16 Botzone games)", ("replay", str(_SAMPLE)), False),
    ("records sample.txt (16 Botzone games)", ("records", str(_SAMPLE)), False),
)
"""(row label, ``mjstats`` arguments, in ``--quick``) of the cold-start rows."""

_COMMAND_CHILD = """
import json, os, sys, time
t0 = time.perf_counter()
from numba.core import event

class Compiles(event.Listener):  # seconds in top-level compiles, kernels compiled
    depth, kernels, seconds, began = 0, 0, 0.0, 0.0
    def on_start(self, ev):
        if self.depth == 0:
            self.began = time.perf_counter()
        self.depth += 1
    def on_end(self, ev):
        self.depth -= 1
        self.kernels += 1
        if self.depth == 0:
            self.seconds += time.perf_counter() - self.began

compiles = Compiles()
event.register("numba:compile", compiles)
from mjstats.cli import main
t1 = time.perf_counter()
real, sys.stdout = sys.stdout, open(os.devnull, "w")
code = main(json.loads(sys.argv[1]))
t2 = time.perf_counter()
sys.stdout = real
print(json.dumps({"imports": t1 - t0, "run": t2 - t1, "code": code,
                  "compile": compiles.seconds, "kernels": compiles.kernels}))
"""

_PEER_CHILD = """
import MahjongGB
MahjongGB.MahjongFanCalculator(**{kwargs!r})
"""

_MEMORY_CHILD = """
import json, sys
import mjstats
from mjstats.bench.measure import deal, peak_growth
from mjstats.studies.generate_wins import generate_wins

n = int(sys.argv[1])
# warm up on the code paths of big and small batches (parallel and serial kernels, tables)
mjstats.shanten(deal(10_000, 2))
for size in (10_000, 100):
    mjstats.score_batch(mjstats.HandBatch(**generate_wins(size, 2, "mixed").as_dict()))
out = {}
hands = deal(n, 1)
res, growth = peak_growth(lambda: mjstats.shanten(hands))
out["shanten"] = {"input": hands.nbytes, "output": res.nbytes, "growth": growth}
del hands, res
batch = mjstats.HandBatch(**generate_wins(n, 1, "mixed").as_dict())
out["before"] = int(open("/proc/self/status").read().split("VmRSS:")[1].split()[0]) * 1024
res, growth = peak_growth(lambda: mjstats.score_batch(batch))
output = res.total.nbytes + res.fan_counts.nbytes + res.legal.nbytes + res.form.nbytes
out["score"] = {"input": batch.nbytes, "output": output, "growth": growth}
print(json.dumps(out))
"""


def _child(code: str, env: dict[str, str] | None = None, args: tuple[str, ...] = ()):
    """Run ``python -c code``; returns (wall s, CPU s, stdout). Raises on failure.

    ``env`` entries are added to the environment (a value of None removes one)."""
    environ = dict(os.environ)
    for key, value in (env or {}).items():
        if value is None:
            environ.pop(key, None)
        else:
            environ[key] = value
    cpu0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", code, *args], env=environ, capture_output=True, text=True
    )
    wall = time.perf_counter() - t0
    cpu1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"benchmark child process failed:\n{done.stderr[-2000:]}")
    cpu = (cpu1.ru_utime - cpu0.ru_utime) + (cpu1.ru_stime - cpu0.ru_stime)
    return wall, cpu, done.stdout


def _command(args: tuple[str, ...], cache: str | None) -> tuple[float, float, dict]:
    """(wall s, CPU s, the child's breakdown) of ``mjstats ARGS`` in a new interpreter,
    with ``MJSTATS_CACHE_DIR=cache`` (None: the user's cache)."""
    env = {"MJSTATS_PROGRESS": "0", "NUMBA_CACHE_DIR": None}  # mjstats' own cache layout
    if cache is not None:
        env["MJSTATS_CACHE_DIR"] = cache
    wall, cpu, out = _child(_COMMAND_CHILD, env, args=(json.dumps(list(args)),))
    return wall, cpu, json.loads(out)


def _peer_start() -> tuple[float | None, str]:
    """Best-of-3 wall time of the peer's fresh-process start, or (None, reason)."""
    module, reason = peers.load("pymahjonggb")
    if module is None:
        return None, reason

    code = _PEER_CHILD.format(kwargs=parse_hand(HAND).to_pymahjonggb())
    return min(_child(code)[0] for _ in range(3)), ""


def _start_row(task, what, wall, cpu, info, goal, peer_s=None, reason=""):
    """One start-up row: the wall time of the whole child and its breakdown."""
    bare = min(_child("pass")[0] for _ in range(3))
    compiled = (
        f"compile {info['compile']:.1f} s ({info['kernels']} kernels)"
        if info["kernels"]
        else "nothing compiled"
    )
    note = (
        f"{reason + '; ' if reason else ''}wall time of the whole process (a new "
        f"interpreter); CPU {cpu:.1f} s; interpreter {bare:.2f} s, imports "
        f"{info['imports']:.2f} s, command {info['run']:.2f} s: {compiled}"
        + ("" if info["code"] == 0 else f"; exit status {info['code']}")
    )
    return make_row(
        task,
        what,
        per_s=1 / wall,
        unit="starts",
        n=1,
        seconds=wall,
        peer="pymahjonggb" if peer_s is not None or reason else None,
        peer_per_s=None if peer_s is None else 1 / peer_s,
        goal=None if goal is None else f"<= {goal:g} s",
        goal_met=None if goal is None else wall <= goal,
        note=note,
    )


COLD_GOAL = 10.0
"""Seconds the first ``mjstats score HAND`` may take (issue 20)."""
WARM_GOAL = 1.5
"""Seconds every later ``mjstats score HAND`` may take."""


def task_cold_start(ctx) -> list[dict]:
    """Each compiling command in a fresh process with an empty cache of its own,
    then ``score HAND`` again with the cache that run filled."""
    rows = []
    peer_s, reason = _peer_start()
    with tempfile.TemporaryDirectory(prefix="mjstats-cold-") as tmp:
        for label, args, quick in COLD_COMMANDS:
            if ctx.quick and not quick:
                continue
            if args[0] in ("replay", "records") and not _SAMPLE.is_file():
                note = f"{_SAMPLE} not found (it ships with the source tree); skipped"
                rows.append(make_row("cold_start", f"mjstats {label}", unit="starts", note=note))
                continue
            cache = os.path.join(tmp, args[0] if args[0] != "study" else args[1])
            wall, cpu, info = _command(args, cache)
            first = args[0] == "score"
            what = f"mjstats {label}, empty cache"
            rows.append(
                _start_row(
                    "cold_start",
                    what,
                    wall,
                    cpu,
                    info,
                    COLD_GOAL if first else None,
                    *((peer_s, reason) if first else (None, "")),
                )
            )
            if first:  # the same command again: its cache is now warm
                best = min(
                    (_command(args, cache) for _ in range(ctx.sizes.startup_repeat)),
                    key=lambda r: r[0],
                )
                warm = _start_row(
                    "cold_start",
                    f"mjstats {label} again, cache filled",
                    *best,
                    WARM_GOAL,
                    peer_s,
                    reason,
                )
            shutil.rmtree(cache, ignore_errors=True)  # keep the temporary disk use small
    return [*rows, warm]


def task_warm_start(ctx) -> list[dict]:
    """``mjstats score`` in a fresh process with the user's numba cache filled."""
    args = ("score", HAND)
    _command(args, None)  # fill the cache if this mjstats source tree has not run yet
    best = min((_command(args, None) for _ in range(ctx.sizes.startup_repeat)), key=lambda r: r[0])
    peer_s, reason = _peer_start()
    what = "mjstats score HAND, cache filled"
    return [_start_row("warm_start", what, *best, WARM_GOAL, peer_s, reason)]


def task_memory(ctx) -> list[dict]:
    """Peak memory growth per million hands of ``score_batch`` and ``shanten``."""
    n = ctx.sizes.memory_hands
    if not os.path.exists("/proc/self/clear_refs"):
        return [make_row("memory", "peak memory", note="needs Linux /proc; skipped")]
    # glibc: serve every big block by mmap and give it back when freed, so the resident
    # size before a call holds live data only (no freed heap for the call to reuse)
    env = {"MALLOC_MMAP_THRESHOLD_": "65536", "MALLOC_TRIM_THRESHOLD_": "65536"}
    _, _, out = _child(_MEMORY_CHILD, env, args=(str(n),))
    info: dict[str, Any] = json.loads(out)
    rows = []
    fixed = info["before"] - info["score"]["input"]
    for key, what in (
        ("score", "score_batch, mixed hands"),
        ("shanten", "shanten, all forms"),
    ):
        m = info[key]
        if m["growth"] is None:
            rows.append(
                make_row(
                    "memory",
                    what,
                    n=n,
                    threads=None,
                    note="the kernel refused to reset the memory peak; skipped",
                )
            )
            continue
        per_m = (m["input"] + m["growth"]) / n  # bytes per hand = MB per million hands
        note = (
            f"measured on {n:,} hands, scaled to 1M: the input ({m['input'] / n:.0f} MB) + the "
            f"growth of resident memory during the call ({m['growth'] / n:.0f} MB; the result "
            f"is {m['output'] / n:.0f} MB); "
            f"fixed cost: before scoring, the process held {fixed / 1e6:.0f} MB besides the "
            "hands (Python, numpy, numba, pandas, loaded kernels and tables)"
        )
        rows.append(
            make_row(
                "memory",
                what,
                n=n,
                threads=None,
                value=per_m,
                value_unit="MB per 1M hands",
                note=note,
            )
        )
    return rows


STARTUP_FUNCS = {
    "cold_start": task_cold_start,
    "warm_start": task_warm_start,
    "memory": task_memory,
}
"""Subprocess task name -> function."""
