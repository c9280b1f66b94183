"""Benchmark: ``mjstats.score_batch`` against PyMahjongGB's ``MahjongFanCalculator``.

A thin wrapper: the measurements live in :mod:`mjstats.bench` (one place for
each), and this script is ``mjstats bench`` limited to the scoring tasks:

- ``score``: mixed hands from :func:`mjstats.studies.generate_wins.generate_wins`
  (melds, kongs, special forms, all flags), goal >= 20x;
- ``score_concealed``: random concealed regular wins, goal >= 20x;
- ``batch_size``: hands per second at 1, 100, 10k and 1M hands per call;
- ``memory``: peak memory per million hands (a fresh process).

Both score the same hands in one run; the reference is called once per hand
with its keyword arguments built beforehand (not timed), ``score_batch`` on a
``HandBatch`` (context validation, kernel, result wrapping); the ``agree``
column counts equal totals. Each scoring task gives two rows: ``score_batch``
as it is called (all cores, wall-clock time; the goal is read on this row)
and on one numba thread (CPU time: the ratio per core). The reference runs on
one core either way.

Usage::

    python benchmarks/bench_score.py                  # full sizes
    python benchmarks/bench_score.py --quick --json out.json
    python benchmarks/bench_score.py --scale 0.1      # a tenth of the full sizes

Any other ``mjstats bench`` option is passed through (see ``mjstats bench --help``).
"""

from __future__ import annotations

import sys

TASKS = "score,score_concealed,batch_size,memory"


def main(argv: list[str] | None = None) -> int:
    from mjstats.cli import main as mjstats_main

    args = sys.argv[1:] if argv is None else argv
    return mjstats_main(["bench", "--tasks", TASKS, *args])


if __name__ == "__main__":
    raise SystemExit(main())
