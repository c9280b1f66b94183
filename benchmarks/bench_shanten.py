"""Shanten and useful-tile speed against PyMahjongGB, measured in one run.

Random 13-tile hands (uniform deals from the 136-tile wall) are scored by the
mjstats batch kernels (``prange`` over hands) and, for a subset, by PyMahjongGB
called once per hand from Python, the way a Python user would call it. Each
timing is the best of ``--repeat`` runs of CPU time (wall time for the thread
speed-up); our runs and the peer's alternate, so the ratios are measured under the
same machine load. The thread speed-up needs two idle cores.

Usage::

    python benchmarks/bench_shanten.py                 # default sizes, table
    python benchmarks/bench_shanten.py --hands 2000000 --json out.json

Targets (issue 3): all-forms shanten >= 100x ``MahjongShanten``; regular form
<= 50 ns per hand per thread; useful tiles >= 50x ``RegularShanten``; 2-thread
speed-up >= 1.7x.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import platform
import sys
import time

import numpy as np


def deal(n: int, seed: int) -> np.ndarray:
    """(n, 34) uint8 counts of 13 random tiles each."""
    rng = np.random.default_rng(seed)
    wall = np.repeat(np.arange(34), 4)
    out = np.zeros((n, 34), dtype=np.uint8)
    step = 100_000
    for lo in range(0, n, step):
        hi = min(n, lo + step)
        pick = np.argsort(rng.random((hi - lo, 136)), axis=1)[:, :13]
        rows = np.repeat(np.arange(lo, hi), 13)
        np.add.at(out, (rows, wall[pick].ravel()), 1)
    return out


def best_of(fn, repeat: int, clock=time.process_time) -> float:
    """Best time of ``repeat`` runs. CPU time by default: on a shared machine it leaves
    out the time this process waits for a core (single-thread timings only)."""
    times = []
    for _ in range(repeat):
        t0 = clock()
        fn()
        times.append(clock() - t0)
    return min(times)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=500_000, help="hands for mjstats kernels")
    ap.add_argument("--ref-hands", type=int, default=3_000, help="hands for PyMahjongGB calls")
    ap.add_argument("--repeat", type=int, default=5, help="best of this many runs")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    args = ap.parse_args(argv)

    import MahjongGB
    import numba

    from mjstats.kernels import shanten as K
    from mjstats.kernels.tables import get_tables
    from mjstats.shanten import shanten as public_shanten

    t0 = time.perf_counter()
    tab = get_tables()
    t_tables = time.perf_counter() - t0

    hands = deal(args.hands, args.seed)
    n = len(hands)
    melds = np.zeros(n, dtype=np.uint8)
    out = np.empty(n, dtype=np.int8)
    masks = np.empty(n, dtype=np.int64)
    codes = (
        [f"W{i}" for i in range(1, 10)]
        + [f"B{i}" for i in range(1, 10)]
        + [f"T{i}" for i in range(1, 10)]
        + ["F1", "F2", "F3", "F4", "J3", "J2", "J1"]
    )
    ref = [tuple(codes[t] for t in np.repeat(np.arange(34), h)) for h in hands[: args.ref_hands]]

    kernels = {
        "regular": lambda: K.regular_shanten_batch(hands, melds, tab, out),
        "all_forms": lambda: K.shanten_batch(hands, melds, K.ALL_FORMS, tab, out),
        "useful_regular": lambda: K.useful_batch(hands, melds, K.REGULAR, tab, out, masks),
        "useful_all_forms": lambda: K.useful_batch(hands, melds, K.ALL_FORMS, tab, out, masks),
        "public_shanten": lambda: public_shanten(hands),
    }
    peers = {
        "MahjongShanten": lambda: [MahjongGB.MahjongShanten((), h) for h in ref],
        "RegularShanten": lambda: [MahjongGB.RegularShanten(h) for h in ref],
    }
    numba.set_num_threads(1)
    for fn in kernels.values():  # compile / warm up
        fn()

    ns = {name: float("inf") for name in kernels}
    peer_ns = {name: float("inf") for name in peers}
    for _ in range(args.repeat):  # alternate ours and the peer's under the same load
        for name, fn in kernels.items():
            ns[name] = min(ns[name], best_of(fn, 1) / n * 1e9)
        for name, fn in peers.items():
            peer_ns[name] = min(peer_ns[name], best_of(fn, 1) / len(ref) * 1e9)

    threads = {}
    max_threads = numba.config.NUMBA_NUM_THREADS
    if max_threads >= 2:
        for name in ("regular", "all_forms", "useful_all_forms"):
            numba.set_num_threads(1)
            one = best_of(kernels[name], args.repeat, time.perf_counter)
            numba.set_num_threads(2)
            two = best_of(kernels[name], args.repeat, time.perf_counter)
            threads[name] = one / two
        numba.set_num_threads(1)

    ratios = {
        "all_forms vs MahjongShanten": peer_ns["MahjongShanten"] / ns["all_forms"],
        "regular vs RegularShanten": peer_ns["RegularShanten"] / ns["regular"],
        "useful_regular vs RegularShanten": peer_ns["RegularShanten"] / ns["useful_regular"],
        "useful_all_forms vs RegularShanten": peer_ns["RegularShanten"] / ns["useful_all_forms"],
    }
    targets = {
        "all_forms vs MahjongShanten": (">=", 100),
        "useful_regular vs RegularShanten": (">=", 50),
    }

    print(f"mjstats shanten benchmark: {n:,} hands, PyMahjongGB on {len(ref):,} hands")
    print(
        f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, "
        f"numba {numba.__version__}, python {sys.version.split()[0]}"
    )
    print(f"tables ready in {t_tables:.2f} s (memory, disk cache or build)")
    inlined = hasattr(importlib.import_module("mjstats.kernels._jit"), "ijit")
    print(f"IR-inlined helpers (mjstats.kernels._jit.ijit): {'yes' if inlined else 'no'}")
    print()
    print(f"{'one thread':34} {'ns/hand':>10}")
    for name, v in ns.items():
        flag = "  (target <= 50)" if name == "regular" else ""
        print(f"  {name:32} {v:10.1f}{flag}")
    for name, v in peer_ns.items():
        print(f"  PyMahjongGB.{name:20} {v:10.1f}")
    print()
    print(f"{'speed ratio (peer time / ours)':34} {'x':>10}")
    for name, v in ratios.items():
        t = targets.get(name)
        flag = f"  (target {t[0]} {t[1]})" if t else ""
        print(f"  {name:32} {v:10.0f}{flag}")
    if threads:
        print()
        print(f"{'2 threads vs 1 (speed-up)':34} {'x':>10}")
        for name, v in threads.items():
            print(f"  {name:32} {v:10.2f}  (target >= 1.7)")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(
                {
                    "hands": n,
                    "ref_hands": len(ref),
                    "ns_per_hand": ns,
                    "peer_ns_per_hand": peer_ns,
                    "ratios": ratios,
                    "two_thread_speedup": threads,
                    "tables_seconds": t_tables,
                    "ir_inlined_helpers": inlined,
                },
                fh,
                indent=2,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
