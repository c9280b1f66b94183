"""Reading Botzone records against a bare Python line split: task ``records``."""

from __future__ import annotations

from mjstats.bench.measure import make_row, num_threads, time_calls
from mjstats.bench.tasks.context import (
    Context,
)
from mjstats.records import read_botzone


def task_records(ctx: Context) -> list[dict]:
    """Reading Botzone records (replay + win reconstruction) vs a bare Python line split."""
    import tempfile
    from pathlib import Path

    sample = Path(__file__).resolve().parents[3] / "tests" / "data" / "botzone" / "sample.txt"
    what = "read_botzone: replay, rebuild wins"
    if not sample.is_file():
        return [
            make_row(
                "records",
                what,
                unit="games",
                note=f"{sample} not found (it ships with the source tree); skipped",
            )
        ]
    data = sample.read_bytes()
    copies = ctx.sizes.records_copies

    def split(path: Path) -> int:
        games = 0
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                words = line.split()
                if words and words[0] == "Match":
                    games += 1
        return games

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "records.txt"
        path.write_bytes(data * copies)
        size_mb = path.stat().st_size / 1e6
        games = split(path)
        with num_threads(1):
            read_botzone(sample)  # warm-up
            t_ours, t_peer = time_calls(
                [lambda: read_botzone(path), lambda: split(path)],
                repeat=ctx.sizes.repeat,
                min_time=0,
                warmup=False,
            )
        got = read_botzone(path)
    return [
        make_row(
            "records",
            what,
            per_s=games / t_ours,
            unit="games",
            n=games,
            peer="python line split",
            peer_per_s=games / t_peer,
            peer_n=games,
            agree=f"{got.games}/{games} games",
            note=f"{size_mb:.1f} MB file ({copies} copies of the 16-game sample); the peer only "
            f"splits lines (the floor of any Python reader); {size_mb / t_ours:.0f} MB/s",
        )
    ]
