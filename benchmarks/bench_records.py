"""Throughput of ``mjstats.records.read_botzone`` on a large text data set.

A thin wrapper: the measurement lives in :mod:`mjstats.bench` (task ``records``),
and this script is ``mjstats bench --tasks records``.

The official ``data.txt`` (98,209 games, ~200 MB) is not shipped, so a file of
the wanted size is made by repeating ``tests/data/botzone/sample.txt`` (16
games, 32 KB): 6,200 copies (~200 MB) at full size, 100 with ``--quick``. The
peer is the floor of any pure-Python reader: iterating over the same file's
lines and splitting each into words (no replay). Rates are CPU time at one
numba thread; the ``agree`` column checks that every game was read.

Usage::

    python benchmarks/bench_records.py               # ~200 MB, ~99k games
    python benchmarks/bench_records.py --quick       # ~3 MB
    python benchmarks/bench_records.py --scale 0.1   # ~20 MB
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    from mjstats.cli import main as mjstats_main

    args = sys.argv[1:] if argv is None else argv
    return mjstats_main(["bench", "--tasks", "records", *args])


if __name__ == "__main__":
    raise SystemExit(main())
