"""Benchmark: mjstats.score_batch against PyMahjongGB's MahjongFanCalculator.

Both score the same hands in one run; the result is a ratio, so machine speed
cancels out. Workloads (from :func:`mjstats.studies.generate_wins.generate_wins`):

- ``concealed``: random concealed regular wins (no melds);
- ``mixed``: the coverage generator (melds, kongs, special forms, all flags).

The reference is timed per hand as a Python caller uses it: its argument
tuples are built beforehand (not timed) and ``MahjongFanCalculator(*args)`` is
called in a loop. ``score_batch`` is timed end to end on a ``HandBatch``
(context validation, kernel, result wrapping), after a warm-up call (numba
compiles on first use). Timing is the best of ``--repeat`` runs (wall clock).

Usage::

    python benchmarks/bench_score.py                  # 200,000 hands per workload
    python benchmarks/bench_score.py --n 1000000 --json out.json
    NUMBA_NUM_THREADS=1 python benchmarks/bench_score.py   # single thread
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))


def _best(fn, repeat):
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def run(n: int, oracle_n: int, repeat: int, seed: int) -> list[dict]:
    import numba

    import mjstats
    from mjstats import HandBatch
    from mjstats.studies.generate_wins import generate_wins

    try:
        import MahjongGB
        from mcr_oracle import batch_args
    except ImportError:  # pragma: no cover
        MahjongGB = None

    rows = []
    for workload in ("concealed", "mixed"):
        w = generate_wins(n, seed, workload)
        batch = HandBatch(**w.as_dict())
        mjstats.score_batch(batch[:1000])  # warm-up (compile or load the cache)
        t_ours = _best(lambda b=batch: mjstats.score_batch(b), repeat)
        row = {
            "workload": workload,
            "hands": n,
            "threads": numba.get_num_threads(),
            "mjstats_s": t_ours,
            "mjstats_hands_per_s": n / t_ours,
        }
        if MahjongGB is not None:
            m = min(oracle_n, n)
            args = [batch_args(w, i) for i in range(m)]
            calc = MahjongGB.MahjongFanCalculator

            def loop(args=args, calc=calc):
                for a in args:
                    try:
                        calc(*a)
                    except TypeError:
                        pass

            t_ref = _best(loop, max(1, repeat // 2))
            row["reference_hands"] = m
            row["reference_s"] = t_ref
            row["reference_hands_per_s"] = m / t_ref
            row["speedup"] = row["mjstats_hands_per_s"] / row["reference_hands_per_s"]
            # agreement on the timed hands (a benchmark of wrong answers means nothing)
            res = mjstats.score_batch(batch[:m])
            from mcr_oracle import oracle_fans

            agree = sum(oracle_fans(args[i])[0] == res.total[i] for i in range(min(m, 20000)))
            row["totals_agree"] = f"{agree}/{min(m, 20000)}"
        rows.append(row)
    return rows


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--n", type=int, default=200_000, help="hands per workload (default 200000)")
    p.add_argument(
        "--oracle-n",
        type=int,
        default=200_000,
        help="hands timed with the reference (a prefix of the same hands)",
    )
    p.add_argument("--repeat", type=int, default=3, help="timing repeats, best kept")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", type=Path, help="also write the results as JSON")
    a = p.parse_args(argv)
    rows = run(a.n, a.oracle_n, a.repeat, a.seed)
    print(
        f"{'workload':<10} {'hands':>9} {'thr':>3} {'mjstats hands/s':>16} "
        f"{'reference hands/s':>18} {'speed-up':>9} {'totals agree':>13}"
    )
    for r in rows:
        ref = r.get("reference_hands_per_s", float("nan"))
        print(
            f"{r['workload']:<10} {r['hands']:>9} {r['threads']:>3} "
            f"{r['mjstats_hands_per_s']:>16,.0f} {ref:>18,.0f} "
            f"{r.get('speedup', float('nan')):>8.1f}x {r.get('totals_agree', '-'):>13}"
        )
    if a.json:
        meta = {"cpu_count": os.cpu_count(), "numpy": np.__version__}
        a.json.write_text(json.dumps({"meta": meta, "results": rows}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
