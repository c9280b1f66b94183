"""Warm time of the analysis table with its win-chance columns (docs/analysis.md).

Random 14-tile positions (uniform deals, seed 1) of shanten 1 and 2 with 10
draws left; each table is computed once to warm up (compile, caches), then
timed ``--repeat`` times: the best and the median are printed, with and without
the Monte Carlo playouts (``playouts=0``).

Usage::

    python benchmarks/bench_win_chances.py                  # 5 positions of each
    python benchmarks/bench_win_chances.py --n 10 --playouts 200
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np


def _positions(want: int, n: int, rng) -> list[str]:
    from mjstats.kernels.shanten import shanten_one
    from mjstats.kernels.tables import get_tables
    from mjstats.tiles import format_tiles

    tab, out = get_tables(), []
    while len(out) < n:
        wall = np.repeat(np.arange(34), 4)
        rng.shuffle(wall)
        h = np.bincount(wall[:14], minlength=34).astype(np.uint8)
        if int(shanten_one(h, 0, 31, tab)) == want:
            out.append(format_tiles(h))
    return out


def _time(analyze, pos, playouts, repeat: int) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        analyze(pos, playouts=playouts)
        times.append(time.perf_counter() - t0)
    return 1e3 * min(times), 1e3 * statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    from mjstats.analysis import analyze, position

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=5, help="positions of each shanten")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--wall-left", type=int, default=10)
    ap.add_argument("--playouts", type=int, default=None, help="default: the table's")
    args = ap.parse_args(argv)
    rng = np.random.default_rng(1)
    for want in (1, 2):
        for text in _positions(want, args.n, rng):
            pos = position(text, wall_left=args.wall_left)
            table = analyze(pos, playouts=args.playouts)
            best, median = _time(analyze, pos, args.playouts, args.repeat)
            plain, _ = _time(analyze, pos, 0, args.repeat)
            methods = "/".join(sorted(m or "-" for m in set(table["method"])))
            print(
                f"shanten {want}  {text:22s} {len(table):2d} options  {methods:17s} "
                f"best {best:6.1f} ms  median {median:6.1f} ms  (no playouts {plain:5.1f} ms)"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
