"""Peak memory of ``mjstats score --file`` on a 10M-line file (goal: under 1 GB).

Writes a text file of ``--lines`` hands (default 10,000,000: 200,000 distinct
generated wins, mixed style, in canonical text, repeated; three lines are
typos, so the side file and exit status 1 are exercised too), runs
``mjstats score --file FILE --out OUT.parquet`` in a fresh process and reports
that process's peak resident memory (``ru_maxrss`` of the child), its wall
time and rows per second, and checks the output's row count and the three bad
rows. Memory is bounded by the chunk (``--chunk-rows``), not by the file.

Usage::

    python benchmarks/bench_score_file.py                  # 10M lines, ~500 MB of text
    python benchmarks/bench_score_file.py --lines 1000000  # smaller
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TYPOS = {17: "123m456p789s11z+0m", 5_000_000: "[123p]55m12379s789p+8x", -1: "x"}


def write_hands(path: Path, lines: int, seed: int = 2024) -> None:
    """``lines`` hands, one a line: distinct generated wins repeated, with three typos."""
    from mjstats import HandBatch
    from mjstats.studies.generate_wins import generate_wins

    pool = min(lines, 200_000)
    texts = HandBatch(**generate_wins(pool, seed, "mixed").as_dict()).to_text()
    block = ("\n".join(texts) + "\n").encode()
    typos = {(k if k >= 0 else lines + k): v for k, v in TYPOS.items() if abs(k) < lines}
    with open(path, "wb") as f:
        done = 0
        while done < lines:
            take = min(pool, lines - done)
            chunk = block if take == pool else ("\n".join(texts[:take]) + "\n").encode()
            hits = {k - done: v for k, v in typos.items() if done <= k < done + take}
            if hits:
                rows = [hits.get(i, t) for i, t in enumerate(texts[:take])]
                chunk = ("\n".join(rows) + "\n").encode()
            f.write(chunk)
            done += take


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--lines", type=int, default=10_000_000)
    p.add_argument("--chunk-rows", type=int, default=262_144)
    p.add_argument("--dir", default=None, help="where the files go (default: a temp dir)")
    args = p.parse_args(argv)
    folder = Path(args.dir or tempfile.mkdtemp(prefix="mjstats-file-"))
    hands, out = folder / "hands.txt", folder / "scores.parquet"
    t0 = time.perf_counter()
    write_hands(hands, args.lines)
    print(f"wrote {args.lines:,} lines ({hands.stat().st_size / 1e6:,.0f} MB) "
          f"in {time.perf_counter() - t0:.0f} s")  # fmt: skip
    cmd = [sys.executable, "-c", "import sys; from mjstats.cli import main; sys.exit(main())"]
    cmd += ["score", "--file", str(hands), "--out", str(out), "--no-progress"]
    cmd += ["--chunk-rows", str(args.chunk_rows)]
    t0 = time.perf_counter()
    run = subprocess.run(cmd, capture_output=True, text=True, env=os.environ.copy())
    wall = time.perf_counter() - t0
    peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024  # KiB on Linux
    import pyarrow.parquet as pq

    rows = pq.ParquetFile(out).metadata.num_rows
    bad = (out.parent / (out.name + ".bad.csv")).read_text().count("\n") - 1
    print(run.stderr.strip())
    print(f"exit status {run.returncode} (1 expected: there are bad rows)")
    n_typos = sum(1 for k in TYPOS if abs(k) < args.lines)
    print(f"scored rows {rows:,}, bad rows {bad} (expected {args.lines - n_typos:,}, {n_typos})")
    print(f"peak memory of the mjstats process: {peak_mb:,.0f} MB (goal < 1024 MB)")
    print(f"wall time {wall:,.0f} s, {args.lines / wall:,.0f} lines/s (includes start-up)")
    ok = run.returncode == 1 and bad == n_typos and rows == args.lines - n_typos
    ok = ok and peak_mb < 1024
    print("goal met" if ok else "GOAL NOT MET")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
