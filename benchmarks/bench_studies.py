"""Throughput of the studies against the issue-6 goals: dealt, sample, play, analyze.

Goals (issue 6, on this 2-core machine): ``dealt`` >= 10M deals/s with shanten;
``sample`` >= 1M scored hands/s; ``play`` >= 1,000 games/s with the
``efficiency`` policy; ``analyze`` of one 14-tile hand (14 discards x 20,000
playouts, 15 draws) in <= 10 s. No peer tool runs these studies, so the goal is
the peer and the ratio says how far above (> 1) or below (< 1) it we are.

Every measurement warms up first (compilation and table loading are not
timed) and reports the best wall time of ``--repeat`` runs, with the process
CPU time of that run: on a shared machine CPU time / wall time shows how many
cores the run actually got, and ``rate/cpu`` (work per CPU second x the number
of threads) is what an idle machine would give.

Usage::

    python benchmarks/bench_studies.py                 # all, default sizes (about 30 s warm)
    python benchmarks/bench_studies.py --only dealt --deals 50000000
    python benchmarks/bench_studies.py --threads 1     # per-thread numbers
    python benchmarks/bench_studies.py --json out.json
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time

ANALYZE_HAND = "2367m3345p1568s16z"  # 14 tiles, 13 distinct discards


def _timed(fn, repeat: int):
    """Best wall time over ``repeat`` runs, with that run's CPU time and result."""
    best = None
    for _ in range(repeat):
        w0, c0 = time.perf_counter(), time.process_time()
        result = fn()
        wall, cpu = time.perf_counter() - w0, time.process_time() - c0
        if best is None or wall < best[0]:
            best = (wall, cpu, result)
    return best


def _row(what, size, work, unit, wall, cpu, goal, goal_kind="rate"):
    return {
        "what": what,
        "size": size,
        "work": work,
        "unit": unit,
        "wall_s": wall,
        "cpu_s": cpu,
        "rate": work / wall,
        "goal": goal,
        "goal_kind": goal_kind,
    }


def bench_dealt(n: int, repeat: int) -> list[dict]:
    from mjstats.studies.dealt import DealtStudy
    from mjstats.studies.runner import run_study

    rows = []
    for label, kw, size in (
        ("dealt 14, all-forms shanten (default)", {}, n),
        ("dealt 13, all-forms shanten", {"tiles": 13}, n),
        ("dealt 14, + per-form shanten", {"per_form": True}, n // 4),
        ("dealt 13, + useful tiles", {"tiles": 13, "useful": True}, n // 20),
    ):
        run_study(DealtStudy(70_000, seed=1, **kw), progress=False)  # warm-up
        wall, cpu, _ = _timed(
            lambda kw=kw, size=size: run_study(DealtStudy(size, seed=2, **kw), progress=False),
            repeat,
        )
        goal = 10_000_000 if not kw or kw == {"tiles": 13} else None
        rows.append(_row(label, f"{size:,} deals", size, "deals/s", wall, cpu, goal))
    return rows


def bench_sample(n: int, repeat: int) -> list[dict]:
    from mjstats.studies.runner import run_study
    from mjstats.studies.sample import SampleStudy

    run_study(SampleStudy(70_000, seed=1), progress=False)
    wall, cpu, _ = _timed(lambda: run_study(SampleStudy(n, seed=2), progress=False), repeat)
    return [_row("sample (scored hands)", f"{n:,} hands", n, "hands/s", wall, cpu, 1_000_000)]


def bench_play(n: int, repeat: int, policies: list[str]) -> list[dict]:
    from mjstats.studies.play import play

    rows = []
    for policy in policies:
        play(200, seed=1, policy=policy, progress=False)
        wall, cpu, _ = _timed(lambda p=policy: play(n, seed=7, policy=p, progress=False), repeat)
        goal = 1_000 if policy == "efficiency" else None
        rows.append(_row(f"play, {policy}", f"{n:,} games x 21 draws", n, "games/s", wall, cpu,
                         goal))  # fmt: skip
    return rows


def bench_analyze(playouts: int, repeat: int, policies: list[str]) -> list[dict]:
    from mjstats.studies.analyze import analyze

    rows = []
    for policy in policies:
        analyze(ANALYZE_HAND, n=20, draws=15, policy=policy, progress=False)
        wall, cpu, table = _timed(
            lambda p=policy: analyze(
                ANALYZE_HAND, n=playouts, draws=15, seed=1, policy=p, progress=False
            ),
            repeat,
        )
        goal = 10.0 * playouts / 20_000 if policy == "efficiency" else None
        k = len(table)
        rows.append(
            _row(
                f"analyze {ANALYZE_HAND}, {policy}",
                f"{k} discards x {playouts:,} x 15 draws",
                k * playouts,
                "playouts/s",
                wall,
                cpu,
                goal,
                "seconds",
            )
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append",
                        choices=["dealt", "sample", "play", "analyze"],
                        help="run only these (repeatable)")  # fmt: skip
    parser.add_argument("--deals", type=int, default=20_000_000, help="deals per dealt run")
    parser.add_argument("--hands", type=int, default=2_000_000, help="hands per sample run")
    parser.add_argument("--games", type=int, default=20_000, help="games per play run")
    parser.add_argument("--playouts", type=int, default=20_000, help="analyze playouts/discard")
    parser.add_argument("--repeat", type=int, default=1, help="runs per measurement (best)")
    parser.add_argument("--fan-aware", action="store_true", help="also the fan-aware policy")
    parser.add_argument("--threads", type=int, default=None, help="numba threads")
    parser.add_argument("--json", metavar="FILE", help="also write the rows as JSON")
    args = parser.parse_args(argv)

    import numba

    if args.threads:
        numba.set_num_threads(min(args.threads, numba.config.NUMBA_NUM_THREADS))
    threads = numba.get_num_threads()
    which = args.only or ["dealt", "sample", "play", "analyze"]
    policies = ["efficiency"] + (["fan-aware"] if args.fan_aware else [])
    rows: list[dict] = []
    if "dealt" in which:
        rows += bench_dealt(args.deals, args.repeat)
    if "sample" in which:
        rows += bench_sample(args.hands, args.repeat)
    if "play" in which:
        rows += bench_play(args.games, args.repeat, policies)
    if "analyze" in which:
        rows += bench_analyze(args.playouts, args.repeat, policies)

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"mjstats studies benchmark: {threads} numba threads, {os.cpu_count()} CPUs, "
        f"{platform.processor() or platform.machine()}, load average {load:.1f}"
    )
    head = (
        f"{'measurement':42} {'size':34} {'wall s':>7} {'cpu s':>7} {'rate':>12} "
        f"{'rate/cpu':>12} {'unit':11} goal"
    )
    print(head)
    print("-" * len(head))
    for r in rows:
        per_cpu = r["work"] / r["cpu_s"] * threads if r["cpu_s"] > 0 else float("nan")
        if r["goal"] is None:
            goal = "-"
        elif r["goal_kind"] == "rate":
            ok = "met" if r["rate"] >= r["goal"] else "MISSED"
            goal = f">= {r['goal']:,.0f}: {ok} (x{r['rate'] / r['goal']:.2f})"
        else:
            ok = "met" if r["wall_s"] <= r["goal"] else "MISSED"
            goal = f"<= {r['goal']:.1f} s: {ok} (x{r['goal'] / r['wall_s']:.2f})"
        print(
            f"{r['what']:42} {r['size']:34} {r['wall_s']:7.2f} {r['cpu_s']:7.2f} "
            f"{r['rate']:12,.0f} {per_cpu:12,.0f} {r['unit']:11} {goal}"
        )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump({"threads": threads, "load": load, "results": rows}, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
