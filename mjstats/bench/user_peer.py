"""Benchmark your own scorer: ``mjstats bench --peer module:function``.

A *peer* is any Python callable that scores one winning hand. It is timed side
by side with :func:`mjstats.score_batch` on the same generated wins, the way
PyMahjongGB is timed in the ``score`` task (same hands, alternating runs, best
of several, per-thread rates in CPU time), and its totals are checked against
mjstats': every hand where they differ is reported.

The peer is called once per hand, in one of two ways (``peer_input``):

``"hand"``
    ``fn(hand)`` with an :class:`mjstats.Hand`;
``"kwargs"``
    ``fn(**kwargs)`` with the keyword arguments of the reference scorer
    (``MahjongGB.MahjongFanCalculator``: ``pack``, ``hand``, ``winTile``,
    ``flowerCount``, ``isSelfDrawn``, ``is4thTile``, ``isAboutKong``,
    ``isWallLast``, ``seatWind``, ``prevalentWind``; see
    :meth:`mjstats.Hand.to_pymahjonggb`);
``"auto"`` (default)
    ``"kwargs"`` when the callable accepts a ``winTile`` keyword (or
    ``**kwargs``), ``"hand"`` otherwise.

It returns the hand's total: a number, an object with a ``total`` attribute
(e.g. :class:`mjstats.Score`), or the reference's list of ``(points, name)``
pairs (summed). A peer that raises on a hand gets that hand reported as a
disagreement (with the exception), not a crash.

Examples
--------
>>> import mjstats
>>> from mjstats.bench.user_peer import bench_peer
>>> def peer(hand):          # a "peer" that is mjstats itself: it agrees everywhere
...     return mjstats.score(hand).total
>>> rows, disagreements = bench_peer(peer, quick=True, scale=1e-3)
>>> rows[0]["task"], rows[0]["agree"] == f"{rows[0]['peer_n']}/{rows[0]['peer_n']}", disagreements
('peer', True, [])
"""

from __future__ import annotations

import importlib
import inspect
import os
import sys
from collections.abc import Callable
from numbers import Real
from typing import Any

import mjstats
from mjstats.bench.tasks.context import FULL, QUICK, Context, _agree, _peer_rows

__all__ = ["PEER_INPUTS", "bench_peer", "load_peer", "peer_input", "peer_total"]

PEER_INPUTS = ("auto", "hand", "kwargs")
"""How a peer is given each hand (see the module docstring)."""

_GB_KEYWORDS = ("pack", "hand", "winTile", "flowerCount", "isSelfDrawn", "seatWind")


def load_peer(spec: str) -> Callable[..., Any]:
    """The callable named by ``"module:function"`` (``function`` may be dotted: ``Class.method``).

    The current folder is searched first, so a ``my_scorer.py`` next to you is
    found as ``my_scorer:score``.

    Raises
    ------
    ValueError
        ``spec`` is not ``module:function``, the module cannot be imported, it
        has no such attribute, or the attribute is not callable (one line each).

    Examples
    --------
    >>> load_peer("mjstats:parse_hand").__name__
    'parse_hand'
    >>> load_peer("mjstats")
    Traceback (most recent call last):
    ...
    ValueError: --peer wants module:function (e.g. my_scorer:score), not 'mjstats'
    """
    module_name, _, attr = spec.partition(":")
    if not module_name or not attr:
        raise ValueError(f"--peer wants module:function (e.g. my_scorer:score), not {spec!r}")
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        obj: Any = importlib.import_module(module_name)
    except Exception as exc:  # the user's module: any error on import is theirs
        raise ValueError(
            f"cannot import peer module {module_name!r} ({type(exc).__name__}: {exc})"
        ) from None
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise ValueError(f"peer module {module_name!r} has no {attr!r}")
        obj = getattr(obj, part)
    if not callable(obj):
        raise ValueError(f"peer {spec!r} is not callable")
    return obj


def peer_input(fn: Callable[..., Any], given: str = "auto") -> str:
    """``"hand"`` or ``"kwargs"``: how ``fn`` wants its hands (``given`` unless ``"auto"``).

    Examples
    --------
    >>> peer_input(lambda hand: 0), peer_input(lambda pack, hand, winTile, **rest: 0)
    ('hand', 'kwargs')
    """
    if given not in PEER_INPUTS:
        raise ValueError(f"peer input must be one of {', '.join(PEER_INPUTS)}, not {given!r}")
    if given != "auto":
        return given
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):  # a builtin without a signature: the reference's own style
        return "kwargs"
    if "winTile" in params or any(p.kind is p.VAR_KEYWORD for p in params.values()):
        return "kwargs"
    return "hand"


def peer_total(result: Any) -> int:
    """The total of a peer's answer: a number, ``.total``, or ``(points, name)`` pairs.

    Examples
    --------
    >>> peer_total(12), peer_total([(8, "Pure Straight"), (1, "Self-Drawn")])
    (12, 9)
    """
    if isinstance(result, Real):
        return int(result)
    total = getattr(result, "total", None)
    if isinstance(total, Real):
        return int(total)
    try:
        return int(sum(int(pair[0]) for pair in result))
    except (TypeError, ValueError, IndexError):
        raise TypeError(
            f"the peer returned {type(result).__name__}, not a total, an object with .total "
            "or (points, name) pairs"
        ) from None


def bench_peer(
    fn: Callable[..., Any],
    *,
    given: str = "auto",
    name: str | None = None,
    quick: bool = True,
    scale: float = 1.0,
    seed: int = 2024,
    style: str = "mixed",
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Time ``fn`` against :func:`mjstats.score_batch` on the same wins; check its totals.

    Parameters
    ----------
    fn : callable
        The peer (see the module docstring for its input and result).
    given : {"auto", "hand", "kwargs"}
        How the peer is given each hand.
    name : str, optional
        The peer's name in the rows (default: the callable's qualified name).
    quick, scale, seed
        Sizes and hands as in :func:`mjstats.bench.run_benchmarks` (the
        ``score`` task's sizes: mjstats scores ``score_hands`` wins, the peer
        the first ``peer_score_hands`` of them).
    style : {"mixed", "concealed"}
        The wins: melds, kongs, special forms and flags, or concealed wins.

    Returns
    -------
    rows : list of dict
        Two rows of :data:`mjstats.bench.ROW_FIELDS` (task ``"peer"``):
        score_batch on all cores and on one thread, against the peer; ``agree``
        counts equal totals.
    disagreements : list of dict
        One per hand where the totals differ: ``row``, ``hand`` (text),
        ``mjstats`` (total), ``peer`` (total, or None) and ``error`` (what the
        peer raised, or None).
    """

    mode = peer_input(fn, given)
    label = name or getattr(fn, "__qualname__", None) or repr(fn)
    ctx = Context((QUICK if quick else FULL).scaled(scale), quick=quick)
    ctx.seed = seed
    batch = ctx.wins(style, ctx.sizes.score_hands)
    m = min(ctx.sizes.peer_score_hands, len(batch))
    if mode == "kwargs":
        args = [((), batch.to_pymahjonggb(i)) for i in range(m)]
    else:
        args = [((batch[i],), {}) for i in range(m)]
    expect = mjstats.score_batch(batch[:m]).total
    errors: dict[int, str] = {}

    def one(i: int, a: tuple, k: dict) -> int:
        try:
            return peer_total(fn(*a, **k))
        except Exception as exc:  # the user's code: report it per hand, keep timing
            errors.setdefault(i, f"{type(exc).__name__}: {exc}")
            return -1

    def run() -> list[int]:
        return [one(i, a, k) for i, (a, k) in enumerate(args)]

    def check(totals: list[int]) -> str:
        del disagreements[:]
        for i, (got, want) in enumerate(zip(totals, expect, strict=True)):
            if got != int(want):
                disagreements.append(
                    {
                        "row": i,
                        "hand": str(batch[i]),
                        "mjstats": int(want),
                        "peer": None if i in errors else got,
                        "error": errors.get(i),
                    }
                )
        return _agree(totals, expect)

    disagreements: list[dict[str, Any]] = []
    call = "fn(**MahjongFanCalculator kwargs)" if mode == "kwargs" else "fn(mjstats.Hand)"
    rows: list[dict[str, Any]] = []
    for threads, where in ((None, "all cores"), (1, "one thread: the ratio per core")):
        rows += _peer_rows(
            "peer",
            f"{style} wins, your scorer",
            "hands",
            lambda: mjstats.score_batch(batch),
            len(batch),
            [(label, run, m, check)],
            [],
            ctx,
            f"score_batch(HandBatch) vs {call} per hand; agree = equal totals; "
            f"score_batch on {where}",
            threads=threads,
        )
    return rows, disagreements
