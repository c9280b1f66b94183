"""Throughput of ``mjstats.records.read_botzone`` on a large text data set.

The official ``data.txt`` (98,209 games, ~200 MB) is not shipped, so a file of the
same size is made by repeating ``tests/data/botzone/sample.txt`` (16 games, 32 KB).
The read is one streaming pass; the peer is the floor of any pure-Python reader:
iterating over the same file's lines and splitting each into words (no replay).

Usage::

    python benchmarks/bench_records.py              # ~200 MB, ~99k games
    python benchmarks/bench_records.py --copies 600 # ~20 MB

Prints games/s for both and their ratio, MB/s, and the growth of the peak
resident memory during the read (bounded by the chunk size plus the results,
not by the file size).
"""

from __future__ import annotations

import argparse
import resource
import tempfile
import time
from pathlib import Path

SAMPLE = Path(__file__).resolve().parent.parent / "tests" / "data" / "botzone" / "sample.txt"


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def _python_split(path: Path) -> int:
    games = 0
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            words = line.split()
            if words and words[0] == "Match":
                games += 1
    return games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--copies",
        type=int,
        default=6200,
        help="repetitions of sample.txt (16 games each; default 6200 ~ 200 MB)",
    )
    parser.add_argument("--chunk-mb", type=float, default=8, help="read chunk size in MiB")
    args = parser.parse_args()

    from mjstats.records import read_botzone

    read_botzone(SAMPLE)  # compile / load the cached kernels first
    data = SAMPLE.read_bytes()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "synthetic-data.txt"
        with open(path, "wb") as fh:
            for _ in range(args.copies):
                fh.write(data)
        size_mb = path.stat().st_size / 1e6

        rss0 = _peak_rss_mb()
        t0 = time.perf_counter()
        records = read_botzone(path, chunk_size=int(args.chunk_mb * (1 << 20)))
        t_read = time.perf_counter() - t0
        rss1 = _peak_rss_mb()

        t0 = time.perf_counter()
        games_split = _python_split(path)
        t_split = time.perf_counter() - t0

    assert records.games == games_split == 16 * args.copies, (records, games_split)
    assert records.wins == 14 * args.copies and records.bad == 0
    print(f"file: {size_mb:.1f} MB, {records.games:,} games, {records.wins:,} wins")
    print(
        f"read_botzone (replay + reconstruction): {t_read:.2f} s, "
        f"{records.games / t_read:,.0f} games/s, {size_mb / t_read:.0f} MB/s"
    )
    print(
        f"peer, Python line split only:           {t_split:.2f} s, "
        f"{games_split / t_split:,.0f} games/s"
    )
    print(f"ratio read_botzone / line split: {t_split / t_read:.1f}x faster")
    print(
        f"peak RSS growth during the read: {rss1 - rss0:.0f} MB "
        f"(chunk {args.chunk_mb:g} MiB; file {size_mb:.0f} MB)"
    )


if __name__ == "__main__":
    main()
