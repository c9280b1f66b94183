"""Positions a second of ``mjstats.analyze_batch`` (issue 33: >= 50,000 on 2 cores
for the columns other than P(win)/E[points]).

Random 14-tile concealed positions dealt from shuffled walls
(:func:`mjstats.bench.tasks.analysis.random_positions`), given as arrays (the
vectorised path); wall-clock time of the whole call (validation, kernel, the
DataFrame), best of ``--repeat`` runs, with every numba thread. Each column
choice is timed in turn, and the old path (a list of ``Position`` objects)
once for comparison.

Usage::

    python benchmarks/bench_analyze_batch.py                 # 20,000 positions
    python benchmarks/bench_analyze_batch.py -n 2000 --columns all,useful
"""

from __future__ import annotations

import argparse
import time

import numba
import numpy as np

import mjstats
from mjstats.analysis.position import Position
from mjstats.bench.tasks.analysis import random_positions

CHOICES = {
    "all": "all",
    "useful": "useful",
    "useful+legal": ["legal"],
    "useful+kaizen": ["kaizen"],
    "useful+second_step": ["second_step"],
}


def _positions(p: dict) -> list[Position]:
    return [
        Position(
            concealed=p["concealed"][i],
            melds=p["melds"][i],
            n_melds=0,
            seen=p["seen"][i],
            wall_left=0,
            seat_wind=0,
            round_wind=0,
            flowers=0,
            discard=-1,
            from_seat=0,
            text="",
        )
        for i in range(len(p["concealed"]))
    ]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=20_000, help="positions (default 20,000)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--columns", default=",".join(CHOICES), help="choices to time")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--objects", action="store_true", help="also time a list of Positions")
    args = ap.parse_args(argv)
    p = random_positions(args.n, args.seed)
    print(f"{args.n:,} random 14-tile concealed positions, {numba.get_num_threads()} threads")
    mjstats.analyze_batch(p["concealed"][:20])  # compile / load
    for name in args.columns.split(","):
        best = np.inf
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            frame = mjstats.analyze_batch(p["concealed"], columns=CHOICES[name])
            best = min(best, time.perf_counter() - t0)
        print(f"{name:>20}: {args.n / best:>10,.0f} positions/s  ({len(frame):,} rows)")
    if args.objects:
        pos = _positions(p)
        t0 = time.perf_counter()
        mjstats.analyze_batch(pos, columns="useful")
        print(f"{'Position list':>20}: {args.n / (time.perf_counter() - t0):>10,.0f} positions/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
