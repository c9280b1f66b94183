"""The in-process benchmark tasks of ``mjstats bench`` (start-up and memory: :mod:`.startup`).

Each task is a function ``task(ctx) -> list[row]`` registered in :data:`TASK_FUNCS`;
``ctx`` is a :class:`Context` (the sizes and the hands shared between tasks).
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

from mjstats.bench import peers
from mjstats.bench.measure import deal, make_row, num_threads, time_calls

__all__ = ["FULL", "QUICK", "TASK_FUNCS", "Context", "Sizes"]

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
        from mjstats import HandBatch
        from mjstats.studies.generate_wins import generate_wins

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


def _shanten_vs_gb(ctx: Context, task: str, what: str, ours) -> list[dict]:
    """``ours(hands)`` (a no-argument callable timing all-forms shanten of ``hands``)
    against PyMahjongGB ``MahjongShanten``; goal >= 100x."""
    import mjstats

    hands = ctx.hands13(ctx.sizes.hands)
    sample = hands[: ctx.sizes.peer_hands]
    found, absent = _load_peers(("pymahjonggb",))
    calls = []
    if "pymahjonggb" in found:
        gb = found["pymahjonggb"]
        args = peers.gb_tiles(sample)
        expect = mjstats.shanten(sample)
        calls.append(
            (
                "pymahjonggb",
                lambda: [gb.MahjongShanten((), h) for h in args],
                len(sample),
                lambda res: _agree(res, expect),
            )
        )
    return _peer_rows(
        task,
        what,
        "hands",
        ours(hands),
        len(hands),
        calls,
        absent,
        ctx,
        "MahjongShanten((), hand); disagreements: the reference ignores the 4-copy limit "
        "(documented in mjstats.shanten)",
        lambda r: _goal(">= 100x", r["ratio"] >= 100 if r["ratio"] else None),
    )


def task_shanten(ctx: Context) -> list[dict]:
    """All MCR forms through ``mjstats.shanten`` vs PyMahjongGB ``MahjongShanten``; goal >= 100x."""
    import mjstats

    return _shanten_vs_gb(
        ctx, "shanten", "all 5 MCR forms, 13-tile deals", lambda h: lambda: mjstats.shanten(h)
    )


def _kernel_shanten(hands: np.ndarray, form) -> Callable[[], Any]:
    """A call of the batch shanten kernel alone on validated arrays (no input checks)."""
    from mjstats.efficiency import _form_mask
    from mjstats.kernels.shanten import shanten_batch
    from mjstats.kernels.tables import get_tables

    matrix = np.ascontiguousarray(hands, dtype=np.uint8)
    melds = np.zeros(len(matrix), dtype=np.uint8)
    out = np.empty(len(matrix), dtype=np.int8)
    forms, tab = _form_mask(form, "mcr"), get_tables()
    return lambda: shanten_batch(matrix, melds, forms, tab, out)


def task_shanten_kernel(ctx: Context) -> list[dict]:
    """The shanten kernel alone (what the studies call; ``mjstats.shanten`` adds its
    input checks): all forms vs ``MahjongShanten`` (goal >= 100x) and the regular
    form's time per hand (goal <= 50 ns, where native table-based solvers are)."""
    rows = _shanten_vs_gb(
        ctx,
        "shanten_kernel",
        "all 5 MCR forms, kernel on validated arrays",
        lambda h: _kernel_shanten(h, None),
    )
    hands = ctx.hands13(ctx.sizes.hands)
    with num_threads(1):
        [t] = time_calls(
            [_kernel_shanten(hands, "regular")],
            repeat=ctx.sizes.repeat,
            min_time=ctx.sizes.min_time,
        )
    row = make_row(
        "shanten_kernel",
        "regular form, kernel on validated arrays",
        per_s=len(hands) / t,
        unit="hands",
        n=len(hands),
        note="CPU time per hand per thread of the batch kernel",
    )
    row.update(_goal("<= 50 ns/hand", row["ns_per_item"] <= 50))
    return [*rows, row]


def task_shanten_regular(ctx: Context) -> list[dict]:
    """Regular form vs the riichi ``mahjong`` library; goal <= 50 ns per hand per thread."""
    import mjstats

    hands = ctx.hands13(ctx.sizes.hands)
    sample = hands[: ctx.sizes.slow_peer_hands]
    found, absent = _load_peers(("mahjong",))
    calls = []
    if "mahjong" in found:
        calc = found["mahjong"].Shanten()
        args = peers.tiles34_lists(sample)
        expect = mjstats.shanten(sample, form="regular")
        calls.append(
            (
                "mahjong",
                lambda: [calc.calculate_shanten_for_regular_hand(h) for h in args],
                len(sample),
                lambda res: _agree(res, expect),
            )
        )
    return _peer_rows(
        "shanten_regular",
        "regular form",
        "hands",
        lambda: mjstats.shanten(hands, form="regular"),
        len(hands),
        calls,
        absent,
        ctx,
        "Shanten().calculate_shanten_for_regular_hand(tiles_34); goal is CPU time per hand "
        "per thread",
        lambda r: _goal("<= 50 ns/hand", r["ns_per_item"] <= 50),
    )


def task_shanten_riichi_forms(ctx: Context) -> list[dict]:
    """Regular + seven pairs + thirteen orphans vs the Rust peers xiangting and riichienv."""
    import mjstats

    hands = ctx.hands13(ctx.sizes.hands)
    sample = hands[: ctx.sizes.peer_hands]
    found, absent = _load_peers(("xiangting", "riichienv"))
    expect = mjstats.shanten(sample, form=RIICHI_FORMS) if found else None
    calls = []
    if "xiangting" in found:
        xt = found["xiangting"]
        four = xt.PlayerCount.FOUR
        lists = peers.tiles34_lists(sample)
        calls.append(
            (
                "xiangting",
                lambda: [xt.calculate_replacement_number(h, four) for h in lists],
                len(sample),
                lambda res: _agree(np.asarray(res) - 1, expect),
            )
        )
    if "riichienv" in found:
        calc = found["riichienv"].calculate_shanten
        ids = peers.riichi_ids(sample)
        calls.append(
            (
                "riichienv",
                lambda: [calc(h) for h in ids],
                len(sample),
                lambda res: _agree(res, expect),
            )
        )
    return _peer_rows(
        "shanten_riichi_forms",
        "regular + 7 pairs + 13 orphans",
        "hands",
        lambda: mjstats.shanten(hands, form=RIICHI_FORMS),
        len(hands),
        calls,
        absent,
        ctx,
        "these peers have no regular-only shanten, so the riichi forms are compared; "
        "disagreements: MCR counts a kind held 4 times as two pairs, riichi does not",
    )


def task_useful_tiles(ctx: Context) -> list[dict]:
    """Useful tiles (regular form) vs PyMahjongGB ``RegularShanten``; goal >= 50x."""
    import mjstats
    from mjstats.tiles import BOTZONE_CODES

    hands = ctx.hands13(ctx.sizes.hands)
    sample = hands[: ctx.sizes.slow_peer_hands]
    found, absent = _load_peers(("pymahjonggb",))
    calls = []
    if "pymahjonggb" in found:
        gb = found["pymahjonggb"]
        args = peers.gb_tiles(sample)
        expect = mjstats.useful_tiles(sample, form="regular")
        code_id = {c: i for i, c in enumerate(BOTZONE_CODES)}

        def check(res: list) -> str:
            got = np.zeros((len(res), 34), bool)
            for i, (_, useful) in enumerate(res):
                got[i, [code_id[c] for c in useful]] = True
            return _agree((got == expect).all(axis=1), np.ones(len(res), bool))

        calls.append(
            ("pymahjonggb", lambda: [gb.RegularShanten(h) for h in args], len(sample), check)
        )
    return _peer_rows(
        "useful_tiles",
        "regular form",
        "hands",
        lambda: mjstats.useful_tiles(hands, form="regular"),
        len(hands),
        calls,
        absent,
        ctx,
        "RegularShanten(hand) -> (shanten, useful tiles); disagreements: the reference lists "
        "kinds whose extra copy would be a 5th",
        lambda r: _goal(">= 50x", r["ratio"] >= 50 if r["ratio"] else None),
    )


# --------------------------------------------------------------------------- scoring


def _gb_score_calls(ctx: Context, batch) -> tuple[list, list]:
    """The PyMahjongGB peer call on the first hands of ``batch`` (its keyword
    arguments built here, outside the timing), checked against score_batch."""
    import mjstats

    m = min(ctx.sizes.peer_score_hands, len(batch))
    found, absent = _load_peers(("pymahjonggb",))
    calls = []
    if "pymahjonggb" in found:
        calc = found["pymahjonggb"].MahjongFanCalculator
        kwargs = [batch.to_pymahjonggb(i) for i in range(m)]
        expect = mjstats.score_batch(batch[:m]).total

        def one(k):
            try:
                return calc(**k)
            except TypeError:  # the reference raises for a hand it does not accept
                return None

        def check(res: list) -> str:
            totals = [-1 if r is None else sum(points for points, _ in r) for r in res]
            return _agree(totals, expect)

        calls.append(("pymahjonggb", lambda: [one(k) for k in kwargs], m, check))
    return calls, absent


def _score_task(ctx: Context, task: str, style: str, what: str) -> list[dict]:
    import mjstats

    batch = ctx.wins(style, ctx.sizes.score_hands)
    calls, absent = _gb_score_calls(ctx, batch)
    # Two rows: score_batch as called (numba's threads, all cores), which the goal
    # is about, and one thread, the per-core ratio. The peer runs on one core either way.
    rows = []
    for threads, goal in (
        (None, lambda r: _goal(">= 20x", r["ratio"] >= 20 if r["ratio"] else None)),
        (1, None),
    ):
        rows += _peer_rows(
            task,
            what,
            "hands",
            lambda: mjstats.score_batch(batch),
            len(batch),
            calls,
            absent,
            ctx,
            "score_batch(HandBatch) vs MahjongFanCalculator(**kwargs) per hand; agree = equal "
            + (
                "totals; score_batch on all cores, the goal's row"
                if threads is None
                else "totals; score_batch on one thread: the ratio per core"
            ),
            goal,
            threads=threads,
        )
    return rows


def task_score(ctx: Context) -> list[dict]:
    """Scoring mixed hands (melds, kongs, special forms, flags) vs ``MahjongFanCalculator``."""
    return _score_task(ctx, "score", "mixed", "mixed hands: melds, kongs, flags")


def task_score_concealed(ctx: Context) -> list[dict]:
    """Scoring random concealed regular wins vs ``MahjongFanCalculator``."""
    return _score_task(ctx, "score_concealed", "concealed", "random concealed wins")


def task_score_text(ctx: Context) -> list[dict]:
    """Hand text in, totals out, end to end: ``HandBatch.from_text`` + ``score_batch``
    on all cores vs ``MahjongFanCalculator`` given the same hands as its own
    keyword arguments (built before the timing, so the peer parses nothing)."""
    import mjstats

    batch = ctx.wins("mixed", ctx.sizes.score_hands)
    texts = batch.to_text()  # canonical hand text, one string a hand
    calls, absent = _gb_score_calls(ctx, batch)
    expect = mjstats.score_batch(batch).total

    def ours():
        return mjstats.score_batch(mjstats.HandBatch.from_text(texts)).total

    note = (
        "HandBatch.from_text(list of str) + score_batch on all cores vs "
        "MahjongFanCalculator(**kwargs) per hand; totals from the text equal those of "
        f"the batch: {_agree(ours(), expect)}; agree = equal totals"
    )

    def goal(row):
        met = None if not row["ratio"] else bool(row["ratio"] >= 5 and row["mjstats_per_s"] >= 1e6)
        return _goal(">= 1M hands/s and >= 5x", met)

    return _peer_rows(
        "score_text", "hand text, end to end", "hands", ours, len(texts), calls, absent, ctx,
        note, goal, threads=None,
    )  # fmt: skip


def _real_hands(ctx: Context) -> tuple[list, str]:
    """The wins of the Botzone records in the source tree's tests/data (real hands),
    else the first generated mixed wins; and where they come from."""
    from pathlib import Path

    from mjstats.records import read_botzone

    data = Path(__file__).resolve().parents[2] / "tests" / "data" / "botzone"
    files = [data / "sample.txt", *sorted((data / "judge-logs").glob("*.json"))]
    if files[0].is_file():
        texts = [t for f in files for t in read_botzone(f).batch.to_text()]
        return texts, f"the {len(texts)} wins of the Botzone records in tests/data"
    texts = ctx.wins("mixed", 200).to_text()
    return texts, f"{len(texts)} generated mixed wins (tests/data not found)"


def task_score_one(ctx: Context) -> list[dict]:
    """One hand a call: ``mjstats.score(text)`` and ``score(Hand)`` vs
    ``MahjongFanCalculator(**kwargs)`` on the same real hands (goal <= 20 us a call)."""
    import mjstats

    texts, source = _real_hands(ctx)
    hands = [mjstats.parse_hand(t) for t in texts]
    found, absent = _load_peers(("pymahjonggb",))
    expect = np.array([mjstats.score(t).total for t in texts])
    calls = []
    if "pymahjonggb" in found:
        calc = found["pymahjonggb"].MahjongFanCalculator
        kwargs = [h.to_pymahjonggb() for h in hands]

        def check(res: list) -> str:
            return _agree([sum(points for points, _ in r) for r in res], expect)

        calls.append(("pymahjonggb", lambda: [calc(**k) for k in kwargs], len(kwargs), check))
    rows = []
    for what, ours in (
        ("score(text)", lambda: [mjstats.score(t).total for t in texts]),
        ("score(Hand)", lambda: [mjstats.score(h).total for h in hands]),
        ("score(text), fans and reading read", lambda: [_read(mjstats.score(t)) for t in texts]),
    ):
        note = (
            f"{source}, one call a hand, CPU time; the peer is given its keyword arguments "
            "(built before the timing); agree = equal totals; fans and reading are made on "
            "first read"
        )
        goal = None
        if what == "score(text)":

            def goal(row):
                return _goal("<= 20 us a call", bool(row["ns_per_item"] <= 20_000))

        rows += _peer_rows(
            "score_one", what, "calls", ours, len(texts), calls, absent, ctx, note, goal
        )
    return rows


def _read(s) -> int:
    return len(s.fans) + len(s.sets)


# --------------------------------------------------------------------------- studies


def task_exact(ctx: Context) -> list[dict]:
    """Run time of the exact enumeration (a timed fraction of it in quick mode)."""
    from mjstats.studies import make_study, run_study

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
    from mjstats.studies import KINDS, make_study, run_study

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

GAME_GOALS = {"random": 100_000, "efficiency": 20_000, "fan-aware": None}
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
    from mjstats.games import play_games
    from mjstats.games.engine import POLICIES

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
        n = {"random": 5 * n_eff, "fan-aware": max(8, n_eff // 10)}.get(policy, n_eff)

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


def task_threads(ctx: Context) -> list[dict]:
    """Thread scaling: wall-time rate on all cores vs 1 thread (needs idle cores)."""
    import numba

    import mjstats

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
    import mjstats

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


def task_records(ctx: Context) -> list[dict]:
    """Reading Botzone records (replay + win reconstruction) vs a bare Python line split."""
    import tempfile
    from pathlib import Path

    from mjstats.records import read_botzone

    sample = Path(__file__).resolve().parents[2] / "tests" / "data" / "botzone" / "sample.txt"
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


TASK_FUNCS: dict[str, Callable[[Context], list[dict]]] = {
    "shanten": task_shanten,
    "shanten_regular": task_shanten_regular,
    "shanten_kernel": task_shanten_kernel,
    "shanten_riichi_forms": task_shanten_riichi_forms,
    "useful_tiles": task_useful_tiles,
    "score": task_score,
    "score_concealed": task_score_concealed,
    "score_text": task_score_text,
    "score_one": task_score_one,
    "exact": task_exact,
    "dealt": task_dealt,
    "sample": task_sample,
    "play": task_play,
    "games": task_games,
    "threads": task_threads,
    "batch_size": task_batch_size,
    "records": task_records,
}
"""In-process task name -> function (the start-up and memory tasks are in :mod:`.startup`)."""
