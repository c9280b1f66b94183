"""Shanten and useful-tile speed against the peers, measured in one run.

A thin wrapper: the measurements live in :mod:`mjstats.bench` (one place for
each), and this script is ``mjstats bench`` limited to the shanten tasks:

- ``shanten``: all five MCR forms vs PyMahjongGB ``MahjongShanten`` (goal >= 100x);
- ``shanten_regular``: regular form vs the riichi ``mahjong`` library (goal <= 50 ns
  per hand per thread);
- ``shanten_riichi_forms``: regular + seven pairs + thirteen orphans vs the Rust
  peers ``xiangting`` and ``riichienv``;
- ``useful_tiles``: useful tiles vs PyMahjongGB ``RegularShanten`` (goal >= 50x);
- ``threads``: all cores vs one thread.

Random 13-tile hands (uniform deals); rates are CPU time at one numba thread,
best of several runs, ours and the peer's alternating.

Usage::

    python benchmarks/bench_shanten.py                 # full sizes
    python benchmarks/bench_shanten.py --quick --json out.json
    python benchmarks/bench_shanten.py --scale 5       # 5x the full sizes

Any other ``mjstats bench`` option is passed through (see ``mjstats bench --help``).
"""

from __future__ import annotations

import sys

TASKS = "shanten,shanten_regular,shanten_riichi_forms,useful_tiles,threads"


def main(argv: list[str] | None = None) -> int:
    from mjstats.cli import main as mjstats_main

    args = sys.argv[1:] if argv is None else argv
    return mjstats_main(["bench", "--tasks", TASKS, *args])


if __name__ == "__main__":
    raise SystemExit(main())
