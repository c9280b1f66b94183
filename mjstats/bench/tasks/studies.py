"""Study throughput: tasks ``exact``, ``dealt``, ``sample``, ``play``."""

from __future__ import annotations

import time

import numpy as np

from mjstats.bench.measure import make_row, num_threads, time_calls
from mjstats.bench.tasks.context import (
    Context,
)
from mjstats.studies import KINDS, make_study, run_study

# --------------------------------------------------------------------------- studies


def task_exact(ctx: Context) -> list[dict]:
    """Run time of the exact enumeration (a timed fraction of it in quick mode)."""

    study = make_study("exact")
    n_chunks, total = study.n_chunks(), study.n_total
    if ctx.sizes.exact_chunks is None or ctx.sizes.exact_chunks >= n_chunks:
        with num_threads(None) as k:
            study.run_chunks(n_chunks - 1, 1)  # warm-up: compile or load the kernels
            wall0, cpu0 = time.perf_counter(), time.process_time()
            run_study(study, progress=ctx.progress)
            wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
        return [
            make_row(
                "exact",
                "every complete hand, scored",
                per_s=total / wall,
                unit="hands",
                n=total,
                threads=k,
                seconds=wall,
                note=f"the whole enumeration: {wall:.1f} s wall, {cpu:.1f} s CPU on {k} threads",
            )
        ]
    k = ctx.sizes.exact_chunks
    chunks = np.unique(np.linspace(0, n_chunks - 1, k).round().astype(int))
    with num_threads(1):
        study.run_chunks(n_chunks - 1, 1)  # warm-up
        cpu = 0.0
        for c in chunks:
            t0 = time.process_time()
            study.run_chunks(int(c), 1)
            cpu += time.process_time() - t0
    done = sum(study.chunk_weight(int(c), 1) for c in chunks)
    rate = done / cpu
    estimate = total / rate
    return [
        make_row(
            "exact",
            "every complete hand, scored",
            per_s=rate,
            unit="hands",
            n=done,
            seconds=estimate,
            note=f"ESTIMATE: {len(chunks)} of {n_chunks} chunks (evenly spaced, {done:,} of "
            f"{total:,} hands) timed at 1 thread, CPU time; the full run would take about "
            f"{estimate:.0f} s on 1 thread (divide by the thread speed-up for all cores); "
            "run without --quick to time all of it",
        )
    ]


def _study_task(ctx: Context, kind: str, n: int, what: str, unit: str, **params) -> list[dict]:
    if kind not in KINDS:
        return [
            make_row(
                kind,
                what,
                unit=unit,
                note=f"study kind {kind!r} is not available in this mjstats (kinds: "
                f"{', '.join(KINDS)}); skipped",
            )
        ]
    size_key = "n_games" if kind == "play" else "n"
    with num_threads(1):
        run_study(make_study(kind, **{size_key: max(1, n // 50)}, seed=2, **params), progress=False)
        study = make_study(kind, **{size_key: n}, seed=1, **params)
        [t] = time_calls(
            [lambda: run_study(study, progress=False)],
            repeat=ctx.sizes.repeat,
            min_time=0,
            warmup=False,
        )
    return [
        make_row(kind, what, per_s=n / t, unit=unit, n=n, seconds=t, note="run_study, CPU time")
    ]


def task_dealt(ctx: Context) -> list[dict]:
    """``dealt`` study throughput in its default mode (all-forms shanten of 14-tile
    deals, complete ones scored; per-form shanten and useful tiles are options)."""
    return _study_task(
        ctx,
        "dealt",
        ctx.sizes.dealt_hands,
        "14-tile deals: all-forms shanten, wins scored",
        "deals",
    )


def task_sample(ctx: Context) -> list[dict]:
    """``sample`` study throughput (exactly sampled complete hands, scored)."""
    return _study_task(
        ctx,
        "sample",
        ctx.sizes.sample_hands,
        "random complete hands, scored",
        "hands",
    )


def task_play(ctx: Context) -> list[dict]:
    """``play`` study throughput (solitaire games, efficiency policy), if that kind exists."""
    return _study_task(
        ctx,
        "play",
        ctx.sizes.play_games,
        "solitaire games, efficiency policy",
        "games",
    )


# --------------------------------------------------------------------------- games
