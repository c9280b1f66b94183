"""Speed of the four-player MCR game engine (``mjstats.games.play_games``), games a second.

Goals (issue 17, on this 2-core machine): >= 100,000 games/s with ``random`` at
every seat (the engine's own cost) and >= 20,000 with ``efficiency``. Published
per-core figures of riichi engines (third-party measurements, first-legal-action
agents): riichienv-core 1,595 and hydra 2,398 games/s on one core; they are
printed beside ours for scale, not measured here.

Each measurement warms up first (compilation, tables), then reports the best of
``--repeat`` runs of wall time, with the CPU time of that run (CPU / wall = the
cores actually used: the machine may be shared). ``--threads`` sets numba's
thread count for the run.

Usage::

    python benchmarks/bench_games.py                          # default sizes, table
    python benchmarks/bench_games.py --games 200000 --threads 1 --json out.json
"""

from __future__ import annotations

import argparse
import json
import time

GOALS = {"random": 100_000, "efficiency": 20_000}
RIICHI_PER_CORE = {"riichienv-core": 1_595, "hydra": 2_398}


def _timed(fn, repeat: int):
    best = None
    for _ in range(repeat):
        wall0, cpu0 = time.perf_counter(), time.process_time()
        fn()
        wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
        if best is None or wall < best[0]:
            best = (wall, cpu)
    return best


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--threads", type=int, default=0, help="numba threads (0 = default)")
    parser.add_argument("--wall", default="shared", choices=("shared", "botzone"))
    parser.add_argument("--json", default=None)
    args = parser.parse_args(argv)

    import numba

    from mjstats.games import play_games

    if args.threads:
        numba.set_num_threads(args.threads)
    t0 = time.perf_counter()
    play_games(8, 0, policy="efficiency", wall=args.wall)
    warm = time.perf_counter() - t0
    rows = []
    for policy, goal in GOALS.items():
        n = args.games if policy == "efficiency" else args.games * 5
        wall, cpu = _timed(
            lambda p=policy, n=n: play_games(n, 1, policy=p, wall=args.wall), args.repeat
        )
        rate = n / wall
        rows.append(
            {
                "policy": policy,
                "wall": args.wall,
                "threads": numba.get_num_threads(),
                "games": n,
                "seconds": round(wall, 3),
                "cpu_per_wall": round(cpu / wall, 2),
                "games_per_s": round(rate),
                "goal": goal,
                "ratio_to_goal": round(rate / goal, 3),
            }
        )
    print(f"first call (compile or cache load, tables): {warm:.1f} s")
    head = ("policy", "wall", "thr", "games", "s", "cpu/w", "games/s", "goal", "ratio")
    print("{:11} {:8} {:>3} {:>8} {:>7} {:>5} {:>9} {:>7} {:>6}".format(*head))
    for r in rows:
        print(
            f"{r['policy']:11} {r['wall']:8} {r['threads']:>3} {r['games']:>8} {r['seconds']:>7} "
            f"{r['cpu_per_wall']:>5} {r['games_per_s']:>9,} {r['goal']:>7,} {r['ratio_to_goal']:>6}"
        )
    print(
        "riichi engines, published, one core: "
        + ", ".join(f"{k} {v:,}" for k, v in RIICHI_PER_CORE.items())
    )
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(
                {"first_call_s": warm, "rows": rows, "riichi_per_core": RIICHI_PER_CORE},
                fh,
                indent=1,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
