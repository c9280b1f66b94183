"""``analyze_batch`` against PyMahjongGB's shanten + useful tiles on the same
positions: task ``analyze_batch``; and :func:`random_positions`, the positions
the task, ``benchmarks/bench_analyze_batch.py`` and the tests draw."""

from __future__ import annotations

import time

import numpy as np

import mjstats
from mjstats.bench import peers
from mjstats.bench.measure import make_row, num_threads, time_calls
from mjstats.bench.tasks.context import Context, _agree, _goal, _load_peers, _peer_rows
from mjstats.tiles import BOTZONE_CODES

__all__ = ["random_positions", "task_analyze_batch"]


def random_positions(
    n: int, seed: int = 0, *, melds: float = 0.0, claims: float = 0.0, seen: int = 0
) -> dict[str, np.ndarray]:
    """``n`` random positions dealt from shuffled walls, as the arrays of
    :func:`mjstats.analyze_batch`: ``concealed`` (n, 34), ``melds`` (n, 4, 2),
    ``seen`` (n, 34), ``discard`` (n,) (-1 on the player's own turn) and
    ``from_seat`` (n,).

    A fraction ``melds`` of the positions holds one or two melds (chows, pungs,
    exposed kongs) taken from the wall; a fraction ``claims`` answers a discard
    (13 tiles, the discard from the left, across or right); up to ``seen``
    further tiles of the wall are seen. Not a model of play: a coverage draw.

    Examples
    --------
    >>> p = random_positions(3, seed=1)
    >>> p["concealed"].sum(axis=1).tolist(), p["discard"].tolist()
    ([14, 14, 14], [-1, -1, -1])
    """
    rng = np.random.default_rng(seed)
    concealed = np.zeros((n, 34), np.uint8)
    meld_arr = np.zeros((n, 4, 2), np.uint8)
    seen_arr = np.zeros((n, 34), np.uint8)
    discard = np.full(n, -1, np.int64)
    from_seat = np.zeros(n, np.int64)
    for i in range(n):
        left = np.full(34, 4, np.int64)
        k = 0
        if rng.random() < melds:
            for _ in range(int(rng.integers(1, 3))):
                kind = int(rng.integers(1, 4))
                if kind == 1:
                    suit, low = int(rng.integers(0, 3)), int(rng.integers(0, 7))
                    t = 9 * suit + low
                    if (left[t : t + 3] > 0).all():
                        left[t : t + 3] -= 1
                        meld_arr[i, k] = (1, t)
                        k += 1
                else:
                    t = int(rng.integers(0, 34))
                    need = 3 if kind == 2 else 4
                    if left[t] >= need:
                        left[t] -= need
                        meld_arr[i, k] = (kind, t)
                        k += 1
        claim = rng.random() < claims
        size = 14 - 3 * k - (1 if claim else 0)
        wall = rng.permutation(np.repeat(np.arange(34), left))
        concealed[i] = np.bincount(wall[:size], minlength=34)
        rest = wall[size:]
        if claim:
            discard[i] = rest[0]
            from_seat[i] = int(rng.integers(1, 4))
            rest = rest[1:]
        if seen:
            m = int(rng.integers(0, seen + 1))
            seen_arr[i] = np.bincount(rest[:m], minlength=34)
    return {
        "concealed": concealed,
        "melds": meld_arr,
        "seen": seen_arr,
        "discard": discard,
        "from_seat": from_seat,
    }


def _gb_useful(gb, hand: tuple[str, ...]) -> tuple[int, frozenset]:
    """PyMahjongGB's shanten over the five forms of a 13-tile hand and the union of
    the useful tiles of the forms at that shanten."""
    best, useful = 99, set()
    for fn in (
        gb.RegularShanten,
        gb.SevenPairsShanten,
        gb.ThirteenOrphansShanten,
        gb.HonorsAndKnittedTilesShanten,
        gb.KnittedStraightShanten,
    ):
        sh, tiles = fn(hand)
        if sh < best:
            best, useful = sh, set(tiles)
        elif sh == best:
            useful |= set(tiles)
    return best, frozenset(useful)


def _gb_options(gb, concealed: np.ndarray) -> list[list[tuple[int, frozenset]]]:
    """Each held kind of each 14-tile hand as the discard, through :func:`_gb_useful`."""
    out = []
    for row in concealed:
        opts = []
        for d in np.flatnonzero(row):
            left = row.copy()
            left[d] -= 1
            opts.append(_gb_useful(gb, peers.gb_tiles(left[None, :])[0]))
        out.append(opts)
    return out


def task_analyze_batch(ctx: Context) -> list[dict]:
    """``mjstats.analyze_batch`` on random 14-tile concealed positions, all cores: the
    shanten + useful-tile columns (``columns="useful"``) vs PyMahjongGB's shanten +
    useful tiles of every discard on the same positions (goal >= 50,000 positions/s),
    and every column (``columns="all"``, no peer)."""
    n = ctx.sizes.dealt_hands
    p = random_positions(n, ctx.seed)
    sample = p["concealed"][: max(2, ctx.sizes.slow_peer_hands // 10)]
    found, absent = _load_peers(("pymahjonggb",))
    calls = []
    if "pymahjonggb" in found:
        gb = found["pymahjonggb"]
        ours = mjstats.analyze_batch(sample, columns="useful")
        ours = ours[ours["kind"] == "discard"]
        code = {c: i for i, c in enumerate(BOTZONE_CODES)}

        def check(res: list) -> str:
            held4 = [np.flatnonzero(row == 4) for row in sample]
            good = []
            for i, opts in enumerate(res):
                mine = ours[ours["position"] == i]
                for (sh, tiles), (_, r) in zip(opts, mine.iterrows(), strict=True):
                    d = int(r["tile"])
                    mask = 0
                    for c in tiles:  # the reference lists kinds whose next copy is a 5th
                        t = code[c]
                        if t not in held4[i] or t == d:
                            mask |= 1 << t
                    good.append(sh == r["shanten"] and mask == r["useful_mask"])
            return _agree(np.array(good), np.ones(len(good), bool))

        calls.append(("pymahjonggb", lambda: _gb_options(gb, sample), len(sample), check))
    goal = ">= 50,000 positions/s"
    rows = _peer_rows(
        "analyze_batch",
        "shanten + useful tiles of every option (columns='useful')",
        "positions",
        lambda: mjstats.analyze_batch(p["concealed"], columns="useful"),
        n,
        calls,
        absent,
        ctx,
        "random 14-tile concealed positions; the peer: the five *Shanten calls of each "
        "discard, the useful tiles of the forms at the least shanten (agree: options)",
        lambda r: _goal(goal, r["mjstats_per_s"] >= 50_000),
        threads=None,
    )
    m = max(2, ctx.sizes.slow_peer_hands)
    every = p["concealed"][:m]
    with num_threads(None) as k:
        [t] = time_calls(
            [lambda: mjstats.analyze_batch(every)],
            repeat=ctx.sizes.repeat,
            min_time=ctx.sizes.min_time,
            clock=time.perf_counter,
        )
    rows.append(
        make_row(
            "analyze_batch",
            "every column (columns='all': legal-useful, 改良, second step)",
            per_s=m / t,
            unit="positions",
            n=m,
            threads=k,
            goal=goal,
            goal_met=m / t >= 50_000,
            note="the same positions; legal-useful, 改良 and the second step scan "
            "every draw and discard of every option",
        )
    )
    return rows
