"""HTML views of mjstats objects for Jupyter (their ``_repr_html_``).

The building blocks (tables, tile glyphs) and one function per type of the
lower layers, so the classes only point at them: :func:`hand_html`
(:class:`~mjstats.Hand`: the tiles as Unicode glyphs), :func:`batch_html`
(:class:`~mjstats.HandBatch`: the first rows), :func:`batch_score_html`
(:class:`~mjstats.BatchScore`: counts and the first rows) and
:func:`discard_html` (:class:`~mjstats.efficiency.DiscardTable`: the discards,
best first). It needs only the tile tables, so every layer above may use it;
a study's :class:`~mjstats.studies.aggregate.Aggregate` is drawn by
:func:`mjstats.studies.summaries.aggregate_html`, beside the tables it shows.
Everything shown is escaped.

Examples
--------
>>> from mjstats import parse_hand
>>> "🀙" in parse_hand("[123p]55m12379s789p+8s")._repr_html_()
True
"""

from __future__ import annotations

from html import escape
from typing import Any

import numpy as np

from mjstats.tiles import TILE_GLYPHS

__all__ = ["batch_html", "batch_score_html", "discard_html", "hand_html"]

ROWS = 10
"""Rows shown of a batch, a score batch or an aggregate's fan table."""

_GLYPHS = "font-size:180%;line-height:1.2;white-space:nowrap"


def _table(header: list[str], rows: list[list[Any]], numeric: set[int] = frozenset()) -> str:
    def cell(tag: str, i: int, v: Any) -> str:
        style = " style='text-align:right'" if i in numeric else ""
        return f"<{tag}{style}>{v}</{tag}>"

    head = "".join(cell("th", i, escape(str(h))) for i, h in enumerate(header))
    body = "".join(
        "<tr>" + "".join(cell("td", i, v) for i, v in enumerate(row)) + "</tr>" for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _glyphs(hand) -> str:
    """The hand's tiles as glyphs (melds, concealed, + winning tile), escaped."""
    text = hand.format("unicode")
    return f"<span class='mjstats-tiles' style='{_GLYPHS}'>{escape(text)}</span>"


def _more(n: int, shown: int, what: str) -> str:
    return f"<div>... {n - shown:,} more {what}</div>" if n > shown else ""


def hand_html(hand) -> str:
    """A hand: its text, its tiles as glyphs and a one-line summary.

    Examples
    --------
    >>> from mjstats import parse_hand
    >>> hand = parse_hand("[123p]55m12379s789p+8s self-drawn")
    >>> html = hand_html(hand)
    >>> f"<b>{hand}</b>" in html, "🀗" in html
    (True, True)
    """
    winds = ("East", "South", "West", "North")
    state = "waiting" if hand.is_waiting else "winning"
    summary = (
        f"{state} hand, {int(hand.all_tiles34.sum())} tiles, {len(hand.melds)} melds, "
        f"seat {winds[hand.seat_wind]}, round {winds[hand.round_wind]}"
    )
    return (
        f"<div class='mjstats-hand'><div><b>{escape(str(hand))}</b></div>"
        f"<div>{_glyphs(hand)}</div><div>{escape(summary)}</div></div>"
    )


def batch_html(batch, rows: int = ROWS) -> str:
    """A hand batch: its size and its first ``rows`` hands (text and glyphs).

    Examples
    --------
    >>> from mjstats import HandBatch
    >>> html = batch_html(HandBatch.from_hands(["123m456p789s23s99m+1s", "19m19p19s1234567z"]))
    >>> html.count("<tr>"), "2 hands" in html
    (3, True)
    """
    n = len(batch)
    shown = min(n, rows)
    body = [[i, escape(str(batch[i])), _glyphs(batch[i])] for i in range(shown)]
    waiting = int(np.asarray(batch.is_waiting).sum())
    return (
        f"<div class='mjstats-batch'><b>HandBatch</b>: {n:,} hands, {waiting:,} waiting"
        + _table(["row", "hand", "tiles"], body, {0})
        + _more(n, shown, "hands")
        + "</div>"
    )


def batch_score_html(scores, rows: int = ROWS) -> str:
    """Scores of a batch: complete and legal counts, then the first ``rows`` rows
    (total, legal, form, the fans that count).

    Examples
    --------
    >>> import mjstats
    >>> b = mjstats.HandBatch.from_hands(["123m456p789s23s99m+1s", "123m456p789s12s99m"])
    >>> html = batch_score_html(mjstats.score_batch(b))
    >>> "Mixed Straight" in html, "2 hands, 1 complete" in html
    (True, True)
    """
    n = len(scores)
    shown = min(n, rows)
    zh, en = list(scores.fans["zh"]), list(scores.fans["en"])
    body = []
    for i in range(shown):
        fans = np.flatnonzero(scores.fan_counts[i])
        names = ", ".join(
            f"{zh[f]} {en[f]}"
            + (f" x{scores.fan_counts[i, f]}" if scores.fan_counts[i, f] > 1 else "")
            for f in fans
        )
        form = scores.form_names[int(scores.form[i])]
        body.append(
            [
                i,
                int(scores.total[i]),
                "yes" if scores.legal[i] else "no",
                escape(form),
                escape(names),
            ]
        )
    complete = int((scores.total >= 0).sum())
    return (
        f"<div class='mjstats-scores'><b>BatchScore</b> ({escape(scores.ruleset)}): {n:,} hands, "
        f"{complete:,} complete, {int(scores.legal.sum()):,} legal"
        + _table(["row", "total", "legal", "form", "fans"], body, {0, 1})
        + _more(n, shown, "rows")
        + "</div>"
    )


def discard_html(table) -> str:
    """A discard table: one hand's discards best first (a batch: its first hand).

    Examples
    --------
    >>> from mjstats import discard_table
    >>> html = discard_html(discard_table("123m456p789s11334z"))
    >>> "🀃" in html and html.index("4z") < html.index("1m")
    True
    """

    batch = table.shanten.ndim == 2
    n = len(table.shanten) if batch else 1
    df = table.to_frame(row=0 if batch else None) if n else None
    head = f"<b>DiscardTable</b>: {n:,} hand{'s' if n != 1 else ''}" + (
        " (the first shown; <code>to_frame(row=i)</code> for the others)" if batch and n > 1 else ""
    )
    if df is None:
        return f"<div class='mjstats-discards'>{head}</div>"
    mask = table.useful_mask[0] if batch else table.useful_mask
    body = []
    for r in df.itertuples(index=False):
        useful = "".join(TILE_GLYPHS[u] for u in range(34) if int(mask[r.tile]) >> u & 1)
        body.append(
            [
                f"{escape(r.discard)} <span style='{_GLYPHS}'>{TILE_GLYPHS[r.tile]}</span>",
                r.shanten,
                r.kinds,
                r.copies,
                f"{escape(r.useful)} <span style='{_GLYPHS}'>{useful}</span>",
            ]
        )
    return (
        f"<div class='mjstats-discards'>{head}"
        + _table(["discard", "shanten", "kinds", "copies", "useful"], body, {1, 2, 3})
        + "</div>"
    )
