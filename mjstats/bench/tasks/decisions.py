"""Decisions: Botzone text records read into decisions, the review of the sample's
16 games, and decisions encoded for learning (observation planes, the Botzone
baseline's observation, the 235-action mask and the action): task ``decisions``."""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from pathlib import Path

import numpy as np

from mjstats.bench.measure import make_row, num_threads, time_calls
from mjstats.bench.tasks.context import Context
from mjstats.decisions import iter_record_decisions, played_decisions, write_decisions
from mjstats.decisions.encode import encode_decisions
from mjstats.decisions.npzfile import CHECKSUM
from mjstats.decisions.review import review
from mjstats.games import play_games
from mjstats.records.check import _DEMO_GAME

ENCODE_GOAL = 1_000_000
"""Decisions a second to encode in memory on all threads (issue 35)."""
RECORDS_GOAL = 20_000
"""Botzone text games a second read into decisions (issue 35)."""
REVIEW_GOAL_S = 60.0
"""Seconds to review the 16 games of sample.txt (issue 35)."""
DISK_PACE = 1.25
"""``write_decisions`` at the disk's pace (issue 35): within this factor of the time the
disk takes to write the same files' bytes."""


def _write_row(ctx: Context) -> dict:
    """``write_decisions`` of simulated games (play, decide, encode, write the shards)
    beside its peer, the disk: the same number of files of the same sizes written from
    memory and synced, alternated, the best of each kept."""
    games = 2 * ctx.sizes.play_games
    with tempfile.TemporaryDirectory() as tmp:
        out, raw = Path(tmp) / "run", Path(tmp) / "raw"
        write_decisions(out, games=20, seed=35, progress=False)  # compile (or load)
        write_decisions(out, games=games, seed=35, progress=False)
        sizes = [f.stat().st_size for f in sorted(out.iterdir())]
        block = np.ones(max(sizes), np.uint8)

        def run() -> None:
            write_decisions(out, games=games, seed=35, progress=False)

        def disk() -> None:
            shutil.rmtree(raw, ignore_errors=True)
            raw.mkdir()
            for j, size in enumerate(sizes):
                with open(raw / str(j), "wb") as fh:
                    fh.write(block[:size])
                    fh.flush()
                    os.fsync(fh.fileno())

        with num_threads(None) as k:
            t, t_disk = time_calls([run, disk], repeat=ctx.sizes.repeat, min_time=0,
                                   clock=time.perf_counter)  # fmt: skip
    gb = sum(sizes) / 1e9
    ratio = t / t_disk
    return make_row("decisions", "write_decisions: simulated games into shards on disk",
                    per_s=gb / t, unit="GB", n=games, threads=k, peer="the disk (same bytes)",
                    peer_per_s=gb / t_disk, seconds=t,
                    goal=f"<= {DISK_PACE} x the disk's time", goal_met=ratio <= DISK_PACE,
                    note=f"{games:,} efficiency games, {gb:.2f} GB in {len(sizes)} files "
                    f"(shards, marks, table): {t:.2f} s; the disk writes the same files from "
                    f"memory, each synced, in {t_disk:.2f} s (best of {ctx.sizes.repeat}, "
                    f"alternated); zip checksums by {CHECKSUM}; wall clock")  # fmt: skip


def _records_rows(ctx: Context) -> list[dict]:
    """Records into decisions on all threads, then on one (which other jobs on the
    machine disturb less)."""
    sample = Path(__file__).resolve().parents[3] / "tests" / "data" / "botzone" / "sample.txt"
    what = "Botzone text records read into decisions (replayed, every seat)"
    if not sample.is_file():
        return [make_row("decisions", what, unit="games", note=f"{sample} not found; skipped")]
    copies = max(1, ctx.sizes.records_copies // 2)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "records.txt"
        path.write_bytes(sample.read_bytes() * copies)

        def read() -> int:
            return sum(d.n_games for d in iter_record_decisions(path))

        read()  # compile (or load) and touch the memory before timing
        return [_records_row(read, copies, what, ctx, threads) for threads in (None, 1)]


def _records_row(read, copies: int, what: str, ctx: Context, threads: int | None) -> dict:
    with num_threads(threads) as k:
        (t,) = time_calls([read], repeat=ctx.sizes.repeat, min_time=0, clock=time.perf_counter)
        c0, w0 = time.process_time(), time.perf_counter()
        games = read()
        cpu, wall = time.process_time() - c0, time.perf_counter() - w0
    per_s = games / t
    # the goal is the machine's (all threads); one thread's rate is shown for scale
    goal = {} if threads == 1 else {"goal": f">= {RECORDS_GOAL:,} games/s",
                                    "goal_met": per_s >= RECORDS_GOAL}  # fmt: skip
    return make_row("decisions", what, per_s=per_s, unit="games", n=games, threads=k, **goal,
                    note=f"{copies} copies of the 16-game sample; each block's decisions "
                    "with what each seat sees (306 int16) and its legal actions, streamed "
                    f"(iter_record_decisions), wall clock; a run took {cpu:.2f} s of CPU "
                    f"in {wall:.2f} s ({games / cpu:,.0f} games a CPU second)"
                    + (f": under {k} x the wall time, other jobs shared the cores"
                       if cpu < 0.8 * k * wall else "")
                    + ("; one thread, for scale: the goal is the machine's, the row above"
                       if threads == 1 else ""))  # fmt: skip


def _review_row() -> dict:
    """The review of the 16 games of sample.txt (every option of every decision valued by
    the analysis), once: it takes seconds."""
    sample = Path(__file__).resolve().parents[3] / "tests" / "data" / "botzone" / "sample.txt"
    what = "review of sample.txt: every option of every decision valued (E[points])"
    if not sample.is_file():
        return make_row("decisions", what, unit="decisions", note=f"{sample} not found; skipped")
    review(_DEMO_GAME, progress=False)  # compile (or load) before timing
    with num_threads(None) as k:
        t0 = time.perf_counter()
        n = review(sample, progress=False)["overall"]["decisions"].iloc[0]
        t = time.perf_counter() - t0
    return make_row("decisions", what, per_s=n / t, unit="decisions", n=int(n), threads=k,
                    seconds=t, goal=f"<= {REVIEW_GOAL_S:.0f} s", goal_met=t <= REVIEW_GOAL_S,
                    note=f"{n} decisions with a choice in {t:.1f} s (one run: it is long), "
                    "300 playouts an option of shanten >= 2")  # fmt: skip


def task_decisions(ctx: Context) -> list[dict]:
    """Botzone text records read into decisions (all threads, then one), and encoding the
    decisions of simulated games (in memory, all threads); wall clock."""
    n_games = ctx.sizes.play_games
    _, _, final, logs = play_games(n_games, seed=35, policy="efficiency", keep_log=True)
    ds = played_decisions(final, logs)
    encode_decisions(ds, 0, 100)  # compile (or load) before timing
    with num_threads(None) as k:
        (t,) = time_calls([lambda: encode_decisions(ds)], repeat=ctx.sizes.repeat, min_time=0,
                          clock=time.perf_counter)  # fmt: skip
    per_s = len(ds) / t
    return [
        *_records_rows(ctx),
        _review_row(),
        _write_row(ctx),
        make_row(
            "decisions",
            "encode decisions: planes, baseline obs, 235-action mask, action",
            per_s=per_s,
            unit="decisions",
            n=len(ds),
            threads=k,
            goal=f">= {ENCODE_GOAL:,} decisions/s",
            goal_met=per_s >= ENCODE_GOAL,
            note=f"the {len(ds):,} decisions of {n_games} efficiency games (every seat, "
            "single-action ones included), wall clock",
        ),
    ]
