"""Speed of the four-player MCR game engine (``mjstats.games.play_games``), games a second.

Goals (issue 17, on this 2-core machine, both threads): >= 100,000 games/s with
``random`` at every seat (the engine's own cost) and >= 20,000 with
``efficiency``; ``fan-aware`` is reported when the engine has it. The same
measurement as ``mjstats bench --tasks games`` (:func:`mjstats.bench.tasks.games.task_games`):

* all cores, wall time, against the goals;
* one thread, CPU time, against ``riichienv`` timed in the same run on the same
  machine (one-hand riichi games, every seat playing its first legal action,
  driven from Python as a Python user drives it), and against the published
  per-core figures of riichi engines (riichienv-core 1,595 and hydra 2,398
  games/s, third-party measurements, first-legal-action agents: printed for
  scale, not measured here).

A game is one hand (局) on the shared wall with flowers. Each measurement warms
up first (compilation, tables), then keeps the best of ``--repeat`` runs,
alternating with the peer.

Usage::

    python benchmarks/bench_games.py                        # 40,000 efficiency / 200,000 random
    python benchmarks/bench_games.py --games 4000 --json out.json
"""

from __future__ import annotations

import argparse
import json


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games", type=int, default=40_000, help="efficiency games per run (random: 5x)"
    )
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--json", default=None)
    args = parser.parse_args(argv)

    from mjstats.bench import environment, format_table, run_benchmarks

    sizes = {"games": args.games, "repeat": args.repeat, "min_time": 0.0}
    rows = run_benchmarks(quick=False, tasks=["games"], sizes=sizes)
    print(format_table(rows, environment()))
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(rows, fh, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
