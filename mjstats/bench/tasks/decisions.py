"""Decisions encoded for learning (observation planes, the Botzone baseline's
observation, the 235-action mask and the action): task ``decisions``."""

from __future__ import annotations

import time

from mjstats.bench.measure import make_row, num_threads, time_calls
from mjstats.bench.tasks.context import Context
from mjstats.decisions import played_decisions
from mjstats.decisions.encode import encode_decisions
from mjstats.games import play_games

ENCODE_GOAL = 1_000_000
"""Decisions a second to encode in memory on all threads (issue 35)."""


def task_decisions(ctx: Context) -> list[dict]:
    """Encoding the decisions of simulated games (in memory, all threads, wall clock)."""
    n_games = ctx.sizes.play_games
    _, _, final, logs = play_games(n_games, seed=35, policy="efficiency", keep_log=True)
    ds = played_decisions(final, logs)
    encode_decisions(ds, 0, 100)  # compile (or load) before timing
    with num_threads(None) as k:
        (t,) = time_calls([lambda: encode_decisions(ds)], repeat=ctx.sizes.repeat, min_time=0,
                          clock=time.perf_counter)  # fmt: skip
    per_s = len(ds) / t
    return [
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
        )
    ]
