"""Benchmarks that need a fresh Python process: cold start, warm start, peak memory.

* **cold start**: ``mjstats score HAND`` (the CLI's ``main``) in a new
  interpreter whose numba cache (``NUMBA_CACHE_DIR``) and mjstats cache
  (``MJSTATS_CACHE_DIR``, the shanten tables) are empty temporary folders: the
  first run after installing. Numba compiles every kernel the scorer needs.
* **warm start**: the same command with the user's caches, after one untimed
  run that fills them: every later run.
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
import subprocess
import sys
import tempfile
import time
from typing import Any

from mjstats.bench import peers
from mjstats.bench.measure import make_row

__all__ = ["HAND", "STARTUP_FUNCS"]

HAND = "[123p]55m12379s789p+8s self-drawn"
"""The hand scored by the start-up benchmarks."""

_START_CHILD = """
import json, os, sys, time
t0 = time.perf_counter()
from mjstats.cli import main
import mjstats.scorer, mjstats.kernels.mcr  # the heavy imports: numpy, numba, pandas
t1 = time.perf_counter()
real, sys.stdout = sys.stdout, open(os.devnull, "w")
code = main(["score", {hand!r}])
t2 = time.perf_counter()
sys.stdout = real
print(json.dumps({{"imports": t1 - t0, "first_score": t2 - t1, "code": code}}))
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
    """Run ``python -c code``; returns (wall s, CPU s, stdout). Raises on failure."""
    cpu0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", code, *args],
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
    )
    wall = time.perf_counter() - t0
    cpu1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"benchmark child process failed:\n{done.stderr[-2000:]}")
    cpu = (cpu1.ru_utime - cpu0.ru_utime) + (cpu1.ru_stime - cpu0.ru_stime)
    return wall, cpu, done.stdout


def _peer_start() -> tuple[float | None, str]:
    """Best-of-3 wall time of the peer's fresh-process start, or (None, reason)."""
    module, reason = peers.load("pymahjonggb")
    if module is None:
        return None, reason
    from mjstats.hand import parse_hand

    code = _PEER_CHILD.format(kwargs=parse_hand(HAND).to_pymahjonggb())
    return min(_child(code)[0] for _ in range(3)), ""


def _start_row(task: str, what: str, wall: float, cpu: float, info: dict, goal: float, ctx):
    bare = min(_child("pass")[0] for _ in range(3))
    peer_s, reason = _peer_start()
    note = (
        f"{'' if not reason else reason + '; '}HAND = {HAND!r}; wall time of the whole process "
        f"(a new interpreter); CPU {cpu:.1f} s; "
        f"interpreter {bare:.2f} s, imports {info['imports']:.2f} s, "
        f"{'compile + ' if task == 'cold_start' else 'cache load + '}first score "
        f"{info['first_score']:.2f} s"
    )
    return make_row(
        task,
        what,
        per_s=1 / wall,
        unit="starts",
        n=1,
        seconds=wall,
        peer="pymahjonggb",
        peer_per_s=None if peer_s is None else 1 / peer_s,
        goal=f"<= {goal:g} s",
        goal_met=wall <= goal,
        note=note,
    )


def task_cold_start(ctx) -> list[dict]:
    """``mjstats score`` in a fresh process with empty caches (numba compiles everything)."""
    with tempfile.TemporaryDirectory(prefix="mjstats-cold-") as tmp:
        env = {"NUMBA_CACHE_DIR": os.path.join(tmp, "numba"), "MJSTATS_CACHE_DIR": tmp}
        wall, cpu, out = _child(_START_CHILD.format(hand=HAND), env)
    info = json.loads(out)
    what = "mjstats score HAND, empty numba cache"
    return [_start_row("cold_start", what, wall, cpu, info, 20.0, ctx)]


def task_warm_start(ctx) -> list[dict]:
    """``mjstats score`` in a fresh process with the numba cache filled."""
    code = _START_CHILD.format(hand=HAND)
    _child(code)  # fill the cache if this mjstats source tree has not run yet
    best = None
    for _ in range(ctx.sizes.startup_repeat):
        wall, cpu, out = _child(code)
        if best is None or wall < best[0]:
            best = (wall, cpu, json.loads(out))
    what = "mjstats score HAND, cache filled"
    return [_start_row("warm_start", what, *best, 1.5, ctx)]


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
