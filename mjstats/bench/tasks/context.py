"""What the in-process benchmark tasks share: their sizes (:data:`QUICK`,
:data:`FULL`), the :class:`Context` of one run (sizes and the hands shared
between tasks) and the helpers that time mjstats against a peer.
mjstats is always called through its public API (``mjstats.shanten``,
``mjstats.useful_tiles``, ``mjstats.score_batch``, ``run_study``) on arrays built
beforehand, so input validation is part of the time and array construction is
not; peers are called once per hand with their arguments built beforehand.
The one exception, ``shanten_kernel``, times the batch kernel alone on
validated arrays, to show what the input checks of the public call cost.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from mjstats import HandBatch
from mjstats.bench import peers
from mjstats.bench.measure import deal, make_row, num_threads, time_calls
from mjstats.studies.generate_wins import generate_wins

__all__ = ["FULL", "QUICK", "RIICHI_FORMS", "Context", "Sizes"]

RIICHI_FORMS = ("regular", "seven_pairs", "thirteen_orphans")


@dataclass(frozen=True)
class Sizes:
    """How much work each task does (see :data:`QUICK` and :data:`FULL`)."""

    hands: int  # 13-tile deals for mjstats shanten / useful tiles
    peer_hands: int  # of those, for the fast peers (MahjongShanten, Rust peers)
    slow_peer_hands: int  # for the slow peers (RegularShanten, mahjong)
    score_hands: int  # generated wins per scoring workload
    peer_score_hands: int  # of those, scored by MahjongFanCalculator
    repeat: int  # timed runs, best kept
    min_time: float  # seconds per timed run at least
    exact_chunks: int | None  # chunks of the exact enumeration timed (None: all)
    dealt_hands: int
    sample_hands: int
    play_games: int
    games: int  # four-player engine games with the efficiency policy (random: 5x, fan-aware: 1/10)
    batch_sizes: tuple[int, ...]
    memory_hands: int
    records_copies: int  # copies of the 16-game Botzone sample
    startup_repeat: int

    def scaled(self, scale: float) -> Sizes:
        """These sizes times ``scale`` (at least 1 of everything; times stay)."""
        if scale == 1:
            return self

        def s(n: int, low: int = 1) -> int:
            return max(low, round(n * scale))

        return replace(
            self,
            hands=s(self.hands, 16),
            peer_hands=s(self.peer_hands, 8),
            slow_peer_hands=s(self.slow_peer_hands, 4),
            score_hands=s(self.score_hands, 16),
            peer_score_hands=s(self.peer_score_hands, 8),
            exact_chunks=None if self.exact_chunks is None else s(self.exact_chunks),
            dealt_hands=s(self.dealt_hands, 16),
            sample_hands=s(self.sample_hands, 16),
            play_games=s(self.play_games, 4),
            games=s(self.games, 8),
            batch_sizes=tuple(sorted({s(b) for b in self.batch_sizes})),
            memory_hands=s(self.memory_hands, 1000),
            records_copies=s(self.records_copies),
        )


QUICK = Sizes(
    hands=200_000,
    peer_hands=2_000,
    slow_peer_hands=300,
    score_hands=100_000,
    peer_score_hands=1_000,
    # best of 5 as at full size, so both sizes use the same estimator
    repeat=5,
    min_time=0.05,
    exact_chunks=8,
    dealt_hands=20_000,
    sample_hands=100_000,
    play_games=300,
    games=4_000,
    batch_sizes=(1, 100, 10_000, 1_000_000),
    memory_hands=250_000,
    records_copies=100,
    startup_repeat=1,
)
"""Sizes of ``mjstats bench --quick`` (a few minutes, most of it the cold-start
task, which compiles three commands from empty caches; more after a change to
the kernels, which are then compiled again)."""

FULL = Sizes(
    hands=2_000_000,
    peer_hands=20_000,
    slow_peer_hands=3_000,
    score_hands=1_000_000,
    peer_score_hands=20_000,
    repeat=5,
    min_time=0.2,
    exact_chunks=None,
    dealt_hands=200_000,
    sample_hands=1_000_000,
    play_games=3_000,
    games=40_000,
    batch_sizes=(1, 100, 10_000, 1_000_000),
    memory_hands=1_000_000,
    records_copies=6_200,
    startup_repeat=3,
)
"""Sizes of ``mjstats bench`` (several minutes; the whole exact enumeration)."""


@dataclass
class Context:
    """Sizes, flags and the hands shared by the tasks of one run."""

    sizes: Sizes
    quick: bool = True
    progress: bool = False
    seed: int = 2024
    _hands: np.ndarray | None = field(default=None, repr=False)
    _wins: dict[str, Any] = field(default_factory=dict, repr=False)

    def hands13(self, n: int) -> np.ndarray:
        """The first ``n`` of one pool of uniform 13-tile deals (repeated if n > the pool)."""
        pool = max(self.sizes.hands, min(n, self.sizes.hands))
        if self._hands is None or len(self._hands) < pool:
            self._hands = deal(pool, self.seed)
        if n <= len(self._hands):
            return self._hands[:n]
        reps = -(-n // len(self._hands))
        return np.tile(self._hands, (reps, 1))[:n]

    def wins(self, style: str, n: int):
        """A HandBatch of the first ``n`` generated wins of ``style`` (repeated if n > the pool)."""

        pool = self.sizes.score_hands
        if style not in self._wins:
            self._wins[style] = HandBatch(**generate_wins(pool, self.seed, style).as_dict())
        batch = self._wins[style]
        if n <= len(batch):
            return batch[:n]
        reps = -(-n // len(batch))
        return HandBatch.concat([batch] * reps)[:n]

    def repeated_note(self, n: int, pool: int) -> str:
        return f"; {n:,} = {pool:,} distinct hands repeated" if n > pool else ""


def _goal(text: str, met: bool | None) -> dict[str, Any]:
    return {"goal": text, "goal_met": met}


def _agree(a: np.ndarray, b: np.ndarray) -> str:
    return f"{int((np.asarray(a) == np.asarray(b)).sum())}/{len(a)}"


def _peer_rows(
    task: str,
    what: str,
    unit: str,
    ours: Callable[[], Any],
    n: int,
    peer_calls: list[tuple[str, Callable[[], list], int, Callable[[list], str]]],
    absent: list[tuple[str, str]],
    ctx: Context,
    note: str,
    goal: Callable[[dict], dict] | None = None,
    threads: int | None = 1,
) -> list[dict]:
    """Time ``ours`` (n items per call) against each peer call in alternation, with
    numba limited to ``threads`` (None: all cores; the peers are single-threaded).
    One thread is timed in CPU time (steadier on a shared machine), several in
    wall-clock time (CPU time would add up the threads)."""
    results: dict[str, list] = {}

    def recording(name, fn):
        return lambda: results.__setitem__(name, fn())

    fns = [ours] + [recording(name, fn) for name, fn, _, _ in peer_calls]
    clock = time.process_time if threads == 1 else time.perf_counter
    with num_threads(threads) as k:
        times = time_calls(fns, repeat=ctx.sizes.repeat, min_time=ctx.sizes.min_time, clock=clock)
    per_s = n / times[0]
    rows = []
    for (name, _, m, check), t in zip(peer_calls, times[1:], strict=True):
        row = make_row(
            task,
            what,
            per_s=per_s,
            unit=unit,
            n=n,
            threads=k,
            peer=name,
            peer_per_s=m / t,
            peer_n=m,
            agree=check(results[name]),
            note=note,
        )
        rows.append(row)
    for name, reason in absent:
        rows.append(
            make_row(task, what, per_s=per_s, unit=unit, n=n, threads=k, peer=name, note=reason)
        )
    if goal is not None:
        for row in rows:
            row.update(goal(row))
    return rows


def _load_peers(names: tuple[str, ...]) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    found, absent = {}, []
    for name in names:
        module, reason = peers.load(name)
        if module is None:
            absent.append((name, reason))
        else:
            found[name] = module
    return found, absent


# --------------------------------------------------------------------------- shanten


def _read(s) -> int:
    return len(s.fans) + len(s.sets)
