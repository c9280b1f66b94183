"""Shanten and useful tiles against PyMahjongGB, ``mahjong``, ``xiangting`` and
``riichienv``: tasks ``shanten``, ``shanten_kernel``, ``shanten_regular``,
``shanten_riichi_forms``, ``useful_tiles``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

import mjstats
from mjstats.bench import peers
from mjstats.bench.measure import make_row, num_threads, time_calls
from mjstats.bench.tasks.context import (
    RIICHI_FORMS,
    Context,
    _agree,
    _goal,
    _load_peers,
    _peer_rows,
)
from mjstats.efficiency import _form_mask
from mjstats.kernels.shanten import shanten_batch
from mjstats.kernels.tables import get_tables
from mjstats.tiles import BOTZONE_CODES


def _shanten_vs_gb(ctx: Context, task: str, what: str, ours) -> list[dict]:
    """``ours(hands)`` (a no-argument callable timing all-forms shanten of ``hands``)
    against PyMahjongGB ``MahjongShanten``; goal >= 100x."""

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

    return _shanten_vs_gb(
        ctx, "shanten", "all 5 MCR forms, 13-tile deals", lambda h: lambda: mjstats.shanten(h)
    )


def _kernel_shanten(hands: np.ndarray, form) -> Callable[[], Any]:
    """A call of the batch shanten kernel alone on validated arrays (no input checks)."""

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
