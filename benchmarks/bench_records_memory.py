"""Peak memory (tracemalloc) of play_games with and without records, at two sizes.

The writer's extra memory (with records - without) should not grow with the number of
games: play_games writes a block of games at a time (RECORD_BLOCK).

    NUMBA_NUM_THREADS=1 python benchmarks/bench_records_memory.py [n1 n2 ...]
"""

from __future__ import annotations

import os
import sys
import tempfile
import tracemalloc

from mjstats.games import play_games


def main(sizes: list[int]) -> None:
    play_games(10, 1, wall="botzone", policy="random", records=os.devnull)  # compiled
    path = os.path.join(tempfile.mkdtemp(), "records.txt")
    for n in sizes:
        out = {}
        for rec in (None, path):
            tracemalloc.start()
            play_games(n, 1, wall="botzone", policy="random", records=rec)
            out[rec] = (tracemalloc.get_traced_memory()[1],)
            tracemalloc.stop()
        without, with_records = out[None][0] / 1e6, out[path][0] / 1e6
        print(
            f"{n:,} games: peak {without:.1f} MB without records, {with_records:.1f} MB "
            f"with (extra {with_records - without:.1f} MB); "
            f"file {os.path.getsize(path) / 1e6:.1f} MB"
        )


if __name__ == "__main__":
    main([int(x) for x in sys.argv[1:]] or [2_000, 20_000])
