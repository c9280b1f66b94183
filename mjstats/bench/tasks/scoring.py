"""Scoring against PyMahjongGB's ``MahjongFanCalculator``: tasks ``score``,
``score_concealed``, ``score_text``, ``score_one``."""

from __future__ import annotations

import numpy as np

import mjstats
from mjstats.bench.tasks.context import (
    Context,
    _agree,
    _goal,
    _load_peers,
    _peer_rows,
    _read,
)
from mjstats.records import read_botzone


def _gb_score_calls(ctx: Context, batch) -> tuple[list, list]:
    """The PyMahjongGB peer call on the first hands of ``batch`` (its keyword
    arguments built here, outside the timing), checked against score_batch."""

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

    data = Path(__file__).resolve().parents[3] / "tests" / "data" / "botzone"
    files = [data / "sample.txt", *sorted((data / "judge-logs").glob("*.json"))]
    if files[0].is_file():
        texts = [t for f in files for t in read_botzone(f).batch.to_text()]
        return texts, f"the {len(texts)} wins of the Botzone records in tests/data"
    texts = ctx.wins("mixed", 200).to_text()
    return texts, f"{len(texts)} generated mixed wins (tests/data not found)"


def task_score_one(ctx: Context) -> list[dict]:
    """One hand a call: ``mjstats.score(text)`` and ``score(Hand)`` vs
    ``MahjongFanCalculator(**kwargs)`` on the same real hands (goal <= 20 us a call)."""

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
