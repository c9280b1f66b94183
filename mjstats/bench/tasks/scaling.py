"""How rates scale: tasks ``threads`` (all cores vs one) and ``batch_size`` (hands per call)."""

from __future__ import annotations

import time

import mjstats
from mjstats.bench.measure import make_row, num_threads, time_calls
from mjstats.bench.tasks.context import (
    Context,
    _goal,
)
from mjstats.bench.tasks.shanten import _kernel_shanten


def task_threads(ctx: Context) -> list[dict]:
    """Thread scaling: wall-time rate on all cores vs 1 thread (needs idle cores)."""
    import numba

    k_all = numba.config.NUMBA_NUM_THREADS
    hands = ctx.hands13(ctx.sizes.hands)
    batch = ctx.wins("mixed", ctx.sizes.score_hands)
    cases = [
        ("shanten", lambda: mjstats.shanten(hands), len(hands)),
        # the kernel alone, without the public call's input checks
        ("shanten kernel", _kernel_shanten(hands, None), len(hands)),
        ("score_batch", lambda: mjstats.score_batch(batch), len(batch)),
    ]
    rows = []
    for what, fn, n in cases:
        if k_all < 2:
            rows.append(
                make_row(
                    "threads",
                    what,
                    unit="hands",
                    n=n,
                    threads=k_all,
                    note="numba has 1 thread (NUMBA_NUM_THREADS=1): nothing to scale",
                )
            )
            continue
        times = {}
        for _ in range(ctx.sizes.repeat):  # alternate 1 and all threads
            for k in (1, k_all):
                with num_threads(k):
                    [t] = time_calls(
                        [fn], repeat=1, min_time=ctx.sizes.min_time, clock=time.perf_counter
                    )
                times[k] = min(times.get(k, float("inf")), t)
        row = make_row(
            "threads",
            f"{what}, {k_all} threads vs 1",
            per_s=n / times[k_all],
            unit="hands",
            n=n,
            threads=k_all,
            peer="mjstats, 1 thread",
            peer_per_s=n / times[1],
            note="wall time; the speed-up needs idle cores (this machine may be shared)",
        )
        row.update(_goal(f">= {0.85 * k_all:.1f}x", row["ratio"] >= 0.85 * k_all))
        rows.append(row)
    return rows


def task_batch_size(ctx: Context) -> list[dict]:
    """Rate by batch size (hands per call): shows the fixed cost of one call."""

    rows = []
    for n in ctx.sizes.batch_sizes:
        hands = ctx.hands13(n)
        batch = ctx.wins("mixed", n)
        with num_threads(1):
            t_sh, t_sc = time_calls(
                [lambda h=hands: mjstats.shanten(h), lambda b=batch: mjstats.score_batch(b)],
                repeat=1 if ctx.quick and n >= 100_000 else ctx.sizes.repeat,
                min_time=ctx.sizes.min_time,
            )
        for what, t, pool in (
            ("shanten()", t_sh, ctx.sizes.hands),
            ("score_batch()", t_sc, ctx.sizes.score_hands),
        ):
            rows.append(
                make_row(
                    "batch_size",
                    f"{what}, {n:,} per call",
                    per_s=n / t,
                    unit="hands",
                    n=n,
                    seconds=t,
                    note=ctx.repeated_note(n, pool).lstrip("; "),
                )
            )
    return rows
