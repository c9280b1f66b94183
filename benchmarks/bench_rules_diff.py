"""``mjstats rules diff A B --exact`` against the exact study's own run time.

Issue 21's goal: the exact diff of two profiles finishes within 1.5x the exact
study (``mjstats study exact``) on the same machine; the two profiles share
every hand's readings (mjstats/studies/kernels/profile_diff.py). Both are timed in one
process, alternated (exact study, diff, exact study, diff, ...), after a
warm-up that compiles both; the best wall time of each is kept, with its
process CPU time (all threads: on a shared machine CPU / wall shows how many
cores a run got, and the CPU ratio is the less load-dependent figure).

By default both run on the same evenly spaced groups of chunks of the
enumeration (regular, seven-pairs and special hands in proportion), the exact
study through ``ExactStudy.run_chunks`` and the diff through the code behind
``mjstats.rules.diff(..., exact=True)`` (its merge included); ``--full`` times
the whole of each (``mjstats.studies.exact.exact`` and
``mjstats.rules.diff(a, b, exact=True)``, minutes each).

Usage::

    python benchmarks/bench_rules_diff.py                    # 8 groups of 4 chunks, best of 5
    python benchmarks/bench_rules_diff.py --full --repeat 2  # the whole enumeration
    python benchmarks/bench_rules_diff.py --json out.json
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time


def _timed(fn):
    w0, c0 = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - w0, time.process_time() - c0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--a", default="mcr")
    ap.add_argument("--b", default="mcr:wmo-2014")
    ap.add_argument("--groups", type=int, default=8, help="groups of chunks (default 8)")
    ap.add_argument("--group-size", type=int, default=4, help="chunks per group (default 4)")
    ap.add_argument("--full", action="store_true", help="the whole enumeration")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--json", dest="json_path")
    args = ap.parse_args(argv)

    import numba

    from mjstats.rules import diff, get_ruleset
    from mjstats.studies.compare import _exact_figures
    from mjstats.studies.exact import ExactStudy, exact

    ra, rb = get_ruleset(args.a), get_ruleset(args.b)
    study = ExactStudy(ra)
    n = study.n_chunks()
    step = n // args.groups
    groups = [(min(g * step, n - args.group_size), args.group_size) for g in range(args.groups)]
    # warm-up: compile both kernels (not timed)
    study.run_chunks(n - 1, 1)
    _exact_figures(ra, rb, 2, False, None, [(n - 1, 1)])

    if args.full:
        runs = {
            "exact study": lambda: exact(ra, progress=False),
            "exact diff": lambda: diff(ra, rb, exact=True, progress=False),
        }
        what = f"all {n} chunks"
    else:
        runs = {
            "exact study": lambda: [study.run_chunks(f, c) for f, c in groups],
            "exact diff": lambda: _exact_figures(ra, rb, 2, False, None, groups),
        }
        k = args.groups * args.group_size
        what = f"{args.groups} groups of {args.group_size} chunks ({k} of {n})"
    times: dict[str, list[tuple[float, float]]] = {k: [] for k in runs}
    for r in range(args.repeat):
        for name, fn in runs.items():
            times[name].append(_timed(fn))
            wall, cpu = times[name][-1]
            print(f"run {r + 1} {name:<12} wall {wall:8.2f} s  cpu {cpu:8.2f} s", file=sys.stderr)
    best = {k: min(v) for k, v in times.items()}
    (we, ce), (wd, cd) = best["exact study"], best["exact diff"]
    load = os.getloadavg()
    result = {
        "what": what,
        "a": ra.spec,
        "b": rb.spec,
        "repeat": args.repeat,
        "threads": numba.get_num_threads(),
        "exact_wall_s": we,
        "exact_cpu_s": ce,
        "diff_wall_s": wd,
        "diff_cpu_s": cd,
        "wall_ratio": wd / we,
        "cpu_ratio": cd / ce,
        "goal": 1.5,
        "loadavg": load,
        "machine": f"{platform.machine()}, {os.cpu_count()} cpus, {platform.python_version()}",
        "all_runs": times,
    }
    print(f"{what}, best of {args.repeat} alternated runs, {result['threads']} threads")
    print(f"  exact study  wall {we:8.2f} s  cpu {ce:8.2f} s")
    print(f"  exact diff   wall {wd:8.2f} s  cpu {cd:8.2f} s  ({ra.spec} vs {rb.spec})")
    print(
        f"  diff / study: wall {wd / we:.3f}x, cpu {cd / ce:.3f}x (goal <= 1.5x); "
        f"load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}"
    )
    if args.json_path:
        with open(args.json_path, "w", encoding="utf-8") as fh:
            json.dump(result, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
