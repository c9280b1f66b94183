"""Benchmark: one hand a call, ``mjstats.score(text)`` and ``score(Hand)``, against
PyMahjongGB's ``MahjongFanCalculator`` on the same real hands.

The hands are the wins of the Botzone records in ``tests/data/botzone`` (the
text sample and the judge logs). Each variant scores all of them, one call a
hand; the variants alternate, each timed ``--repeat`` times with ``timeit``,
and the best run counts, in CPU time (``time.process_time``: what the call
costs this process, steadier on a shared machine) and wall-clock time. The
peer is given its keyword arguments, built before the timing, so it parses
nothing. ``score`` makes a Score's fans and reading on first read, so the
variant "fans read" reads both, as a caller printing the score does.

Goal (issue 18): ``score(text)`` <= 20 us a call, warm.

Usage::

    python benchmarks/bench_score_one.py              # 7 alternated runs
    python benchmarks/bench_score_one.py --repeat 15 --number 50

``mjstats bench --tasks score_one`` measures the same in the bench table.
"""

from __future__ import annotations

import argparse
import time
import timeit
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "botzone"


def real_texts() -> list[str]:
    from mjstats.records import read_botzone

    files = [DATA / "sample.txt", *sorted((DATA / "judge-logs").glob("*.json"))]
    return [t for f in files for t in read_botzone(f).batch.to_text()]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=7, help="alternated runs (best kept)")
    parser.add_argument("--number", type=int, default=20, help="passes over the hands a run")
    args = parser.parse_args(argv)

    import mjstats

    texts = real_texts()
    hands = [mjstats.parse_hand(t) for t in texts]
    score = mjstats.score
    variants = {
        "score(text)": lambda: [score(t).total for t in texts],
        "score(Hand)": lambda: [score(h).total for h in hands],
        "score(text), fans read": lambda: [len(s.fans) + len(s.sets) for s in map(score, texts)],
    }
    totals = [score(t).total for t in texts]
    try:
        from MahjongGB import MahjongFanCalculator
    except ImportError:
        print("PyMahjongGB not installed (pip install PyMahjongGB): no peer row")
    else:
        kwargs = [h.to_pymahjonggb() for h in hands]
        peer = [sum(p for p, _ in MahjongFanCalculator(**k)) for k in kwargs]
        agree = sum(a == b for a, b in zip(peer, totals, strict=True))
        print(f"PyMahjongGB agrees on {agree}/{len(totals)} totals")
        variants["PyMahjongGB"] = lambda: [MahjongFanCalculator(**k) for k in kwargs]
    for fn in variants.values():  # warm-up (compiles or loads the kernels)
        fn()
    best = {name: [float("inf"), float("inf")] for name in variants}
    for _ in range(args.repeat):
        for name, fn in variants.items():
            for k, clock in enumerate((time.process_time, time.perf_counter)):
                t = timeit.Timer(fn, timer=clock).timeit(args.number)
                best[name][k] = min(best[name][k], t / args.number / len(texts))
    print(f"{len(texts)} real hands (tests/data/botzone), best of {args.repeat} alternated runs")
    print(f"{'':<24} {'CPU us/call':>12} {'wall us/call':>13}")
    for name, (cpu, wall) in best.items():
        print(f"{name:<24} {cpu * 1e6:>12.1f} {wall * 1e6:>13.1f}")
    cpu = best["score(text)"][0] * 1e6
    print(f"goal score(text) <= 20 us a call (CPU): {'met' if cpu <= 20 else 'not met'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
