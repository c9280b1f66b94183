"""Four-player games against ``riichienv`` and the published riichi figures: task ``games``."""

from __future__ import annotations

import time
from collections.abc import Callable

from mjstats.bench.measure import make_row, num_threads, time_calls
from mjstats.bench.tasks.context import (
    Context,
    _goal,
    _load_peers,
    _peer_rows,
)
from mjstats.games import play_games
from mjstats.games.engine import POLICIES

GAME_GOALS = {"random": 100_000, "efficiency": 20_000, "fan-aware": None, "planner": 2_000}
"""Games a second the four-player engine must reach on all cores (issue 17)."""

RIICHI_PUBLISHED = {"riichienv-core": 1_595, "hydra": 2_398}
"""Published games a second of riichi engines on one core (third-party
measurements, first-legal-action agents); not measured here."""


def _riichienv_games(module, n: int, seed: int) -> Callable[[], int]:
    """``n`` one-hand (一局) four-player riichienv games, every seat playing its first
    legal action, through its Python API (how a Python user drives it); returns the
    steps taken."""

    def run() -> int:
        steps = 0
        for i in range(n):
            env = module.RiichiEnv(game_mode=0, skip_mjai_logging=True, seed=seed + i)
            obs = env.reset()
            while not env.done():
                obs = env.step({p: o.legal_actions()[0] for p, o in obs.items()})
                steps += 1
        return steps

    return run


def task_games(ctx: Context) -> list[dict]:
    """Four-player MCR games (one hand each, shared wall with flowers) through
    ``mjstats.games.play_games``: all cores against the goals (random >= 100,000,
    efficiency >= 20,000 games/s), and one thread against riichienv timed here
    (one-hand riichi games, first legal action) and the published riichi figures."""

    n_eff = ctx.sizes.games
    found, absent = _load_peers(("riichienv",))
    published = ", ".join(f"{k} {v:,}" for k, v in RIICHI_PUBLISHED.items())
    rows = []
    for policy, goal in GAME_GOALS.items():
        what = f"MCR 4-player hands, {policy} policy at every seat"
        if policy not in POLICIES:
            rows.append(
                make_row(
                    "games",
                    what,
                    unit="games",
                    note=f"policy {policy!r} is not built into the game engine "
                    f"(policies: {', '.join(POLICIES)}); skipped",
                )
            )
            continue
        # fan-aware scores every winning tile of its ready discards: far slower
        n = {
            "random": 5 * n_eff,
            "fan-aware": max(8, n_eff // 10),
            "planner": max(8, n_eff // 10),
        }.get(policy, n_eff)

        def ours(policy=policy, n=n):
            return play_games(n, ctx.seed, policy=policy)

        with num_threads(None) as k:
            [t] = time_calls(
                [ours],
                repeat=ctx.sizes.repeat,
                min_time=ctx.sizes.min_time,
                clock=time.perf_counter,
            )
            # CPU time of all threads too: on a shared machine the wall-time rate shows
            # the share of the cores the run got, this one what the cores can do
            [cpu] = time_calls([ours], repeat=ctx.sizes.repeat, min_time=ctx.sizes.min_time)
        row = make_row(
            "games",
            f"{what}, all cores",
            per_s=n / t,
            unit="games",
            n=n,
            threads=k,
            note=f"wall time ({n / cpu:,.0f} games per CPU-second over the {k} threads: "
            f"at most {k}x that on idle cores); shared wall with flowers; riichi engines "
            "published, one core: " + published,
        )
        if goal is not None:
            row.update(_goal(f">= {goal:,} games/s", row["mjstats_per_s"] >= goal))
        rows.append(row)
        calls = []
        if "riichienv" in found:
            m = max(4, n // 200)
            calls.append(
                (
                    "riichienv",
                    _riichienv_games(found["riichienv"], m, ctx.seed),
                    m,
                    lambda _: "n/a (riichi rules, not MCR)",
                )
            )
        one = _peer_rows(
            "games",
            f"{what}, one thread",
            "games",
            ours,
            n,
            calls,
            absent,
            ctx,
            "CPU time; riichienv: one-hand (一局) four-player riichi games, first legal "
            "action at every seat, driven from Python",
        )
        rows.extend(one)
        per_s = one[0]["mjstats_per_s"]
        for name, rate in RIICHI_PUBLISHED.items():
            rows.append(
                make_row(
                    "games",
                    f"{what}, one thread",
                    per_s=per_s,
                    unit="games",
                    n=n,
                    peer=f"{name} (published)",
                    peer_per_s=rate,
                    note="published per-core figure (third-party measurement, "
                    "first-legal-action agents), not measured here",
                )
            )
    return rows


# --------------------------------------------------------------------------- scaling
