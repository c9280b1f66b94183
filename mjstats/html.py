"""HTML views of mjstats objects for Jupyter (their ``_repr_html_``).

The building blocks (tables, tile pictures) and one function per type of the
lower layers, so the classes only point at them: :func:`hand_html`
(:class:`~mjstats.Hand`: the tiles as SVG pictures of :mod:`mjstats.tile_svg`,
each named by its text form as tooltip and alt text), :func:`batch_html`
(:class:`~mjstats.HandBatch`: the first rows), :func:`score_html`
(:class:`~mjstats.Score`: the hand and its fans), :func:`batch_score_html`
(:class:`~mjstats.BatchScore`: counts and the first rows),
:func:`discard_html` (:class:`~mjstats.efficiency.DiscardTable`: the discards,
best first) and :func:`analysis_html` (the table of :func:`mjstats.analyze`).
It needs only the tile tables, so every layer above may use it;
a study's :class:`~mjstats.studies.aggregate.Aggregate` is drawn by
:func:`mjstats.studies.summaries.aggregate_html`, beside the tables it shows.
Every view that shows tiles carries the shared symbol block once
(:func:`~mjstats.tile_svg.tile_defs`). Everything shown is escaped.

Examples
--------
>>> from mjstats import parse_hand
>>> html = parse_hand("[123p]55m12379s789p+8s")._repr_html_()
>>> html.count("class='mjt'"), "<title>1p 1 Dot</title>" in html
(14, True)
"""

from __future__ import annotations

from html import escape
from typing import Any

import numpy as np

from mjstats.tile_svg import tile_defs, tile_svg, tiles_svg
from mjstats.tiles import TILES

__all__ = [
    "analysis_html",
    "batch_html",
    "batch_score_html",
    "discard_html",
    "hand_html",
    "score_html",
]

ROWS = 10
"""Rows shown of a batch, a score batch or an aggregate's fan table."""

_TILE_PX = 30
"""Height of a tile picture in the tables."""


def _table(header: list[str], rows: list[list[Any]], numeric: set[int] = frozenset()) -> str:
    def cell(tag: str, i: int, v: Any) -> str:
        style = " style='text-align:right'" if i in numeric else ""
        return f"<{tag}{style}>{v}</{tag}>"

    head = "".join(cell("th", i, escape(str(h))) for i, h in enumerate(header))
    body = "".join(
        "<tr>" + "".join(cell("td", i, v) for i, v in enumerate(row)) + "</tr>" for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _pictures(hand) -> str:
    """The hand's tiles as pictures: each meld, the standing tiles, then the winning tile
    (a gap between groups)."""
    groups = [tiles_svg(meld.tiles(), _TILE_PX) for meld in hand.melds]
    standing = [t for t in range(34) for _ in range(int(hand.standing34[t]))]
    groups.append(tiles_svg(standing, _TILE_PX))
    if hand.win_tile is not None:
        groups.append(tile_svg(hand.win_tile, _TILE_PX))
    body = "<span style='display:inline-block;width:8px'></span>".join(groups)
    return f"<span class='mjstats-tiles' style='white-space:nowrap'>{body}</span>"


def _more(n: int, shown: int, what: str) -> str:
    return f"<div>... {n - shown:,} more {what}</div>" if n > shown else ""


def hand_html(hand) -> str:
    """A hand: its text, its tiles as pictures and a one-line summary.

    Examples
    --------
    >>> from mjstats import parse_hand
    >>> hand = parse_hand("[123p]55m12379s789p+8s self-drawn")
    >>> html = hand_html(hand)
    >>> f"<b>{hand}</b>" in html, html.count("class='mjt'")
    (True, 14)
    """
    winds = ("East", "South", "West", "North")
    state = "waiting" if hand.is_waiting else "winning"
    summary = (
        f"{state} hand, {int(hand.all_tiles34.sum())} tiles, {len(hand.melds)} melds, "
        f"seat {winds[hand.seat_wind]}, round {winds[hand.round_wind]}"
    )
    return (
        f"<div class='mjstats-hand'>{tile_defs()}<div><b>{escape(str(hand))}</b></div>"
        f"<div>{_pictures(hand)}</div><div>{escape(summary)}</div></div>"
    )


def score_html(score) -> str:
    """A score: the hand (text and pictures), its form and sets, then one row per fan
    (Chinese and English name, points, count, subtotal) and the total.

    Examples
    --------
    >>> import mjstats
    >>> html = score_html(mjstats.score("123m456p789s23s99m+1s"))
    >>> html.count("class='mjt'"), "Mixed Straight" in html
    (14, True)
    """
    hand = score.hand
    head = (
        f"<div class='mjstats-score'>{tile_defs()}<div><b>{escape(str(hand))}</b></div>"
        f"<div>{_pictures(hand)}</div>"
    )
    if score.total < 0:
        return head + "<div>not a complete hand</div></div>"
    rows = [[escape(f.zh), escape(f.en), f.points, f.count, f.total] for f in score.fans]
    verdict = "legal" if score.legal else "below the minimum"
    return (
        head
        + f"<div>{escape(score.form)}: {escape(' '.join(score.sets))}</div>"
        + _table(["番", "fan", "points", "count", "subtotal"], rows, {2, 3, 4})
        + f"<div><b>total</b> <b>{score.total}</b> ({verdict})</div></div>"
    )


def batch_html(batch, rows: int = ROWS) -> str:
    """A hand batch: its size and its first ``rows`` hands (text and pictures).

    Examples
    --------
    >>> from mjstats import HandBatch
    >>> html = batch_html(HandBatch.from_hands(["123m456p789s23s99m+1s", "19m19p19s1234567z"]))
    >>> html.count("<tr>"), "2 hands" in html
    (3, True)
    """
    n = len(batch)
    shown = min(n, rows)
    body = [[i, escape(str(batch[i])), _pictures(batch[i])] for i in range(shown)]
    waiting = int(np.asarray(batch.is_waiting).sum())
    return (
        f"<div class='mjstats-batch'>{tile_defs()}<b>HandBatch</b>: {n:,} hands, "
        f"{waiting:,} waiting"
        + _table(["row", "hand", "tiles"], body, {0})
        + _more(n, shown, "hands")
        + "</div>"
    )


def batch_score_html(scores, rows: int = ROWS) -> str:
    """Scores of a batch: complete and legal counts, then the first ``rows`` rows
    (total, legal, the tiles when the scores keep their batch, form, the fans that count).

    Examples
    --------
    >>> import mjstats
    >>> b = mjstats.HandBatch.from_hands(["123m456p789s23s99m+1s", "123m456p789s12s99m"])
    >>> html = batch_score_html(mjstats.score_batch(b))
    >>> "Mixed Straight" in html, "2 hands, 1 complete" in html, html.count("class='mjt'")
    (True, True, 27)
    """
    n = len(scores)
    shown = min(n, rows)
    zh, en = list(scores.fans["zh"]), list(scores.fans["en"])
    hands = getattr(scores, "hands", None)  # the scored batch, when kept: its tiles shown
    if hands is not None and len(hands) != n:
        hands = None
    body = []
    for i in range(shown):
        fans = np.flatnonzero(scores.fan_counts[i])
        names = ", ".join(
            f"{zh[f]} {en[f]}"
            + (f" x{scores.fan_counts[i, f]}" if scores.fan_counts[i, f] > 1 else "")
            for f in fans
        )
        form = scores.form_names[int(scores.form[i])]
        row = [i, int(scores.total[i]), "yes" if scores.legal[i] else "no"]
        if hands is not None:
            row.append(_pictures(hands[i]))
        body.append([*row, escape(form), escape(names)])
    complete = int((scores.total >= 0).sum())
    header = ["row", "total", "legal", *(["tiles"] if hands is not None else []), "form", "fans"]
    return (
        f"<div class='mjstats-scores'>{tile_defs() if hands is not None else ''}"
        f"<b>BatchScore</b> ({escape(scores.ruleset)}): {n:,} hands, "
        f"{complete:,} complete, {int(scores.legal.sum()):,} legal"
        + _table(header, body, {0, 1})
        + _more(n, shown, "rows")
        + "</div>"
    )


def discard_html(table) -> str:
    """A discard table: one hand's discards best first (a batch: its first hand).

    Examples
    --------
    >>> from mjstats import discard_table
    >>> html = discard_html(discard_table("123m456p789s11334z"))
    >>> "<title>4z North Wind</title>" in html and html.index("4z") < html.index("1m")
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
        useful = [u for u in range(34) if int(mask[r.tile]) >> u & 1]
        body.append(
            [
                f"{tile_svg(r.tile, _TILE_PX)} {escape(r.discard)}",
                r.shanten,
                r.kinds,
                r.copies,
                f"{tiles_svg(useful, 24)} {escape(r.useful)}",
            ]
        )
    return (
        f"<div class='mjstats-discards'>{tile_defs()}{head}"
        + _table(["discard", "shanten", "kinds", "copies", "useful"], body, {1, 2, 3})
        + "</div>"
    )


_TILE_IDS = {name: t for t, name in enumerate(TILES)}


def _tile_list(text: Any) -> list[int]:
    """Tile ids of a space-separated list of tile names (``"1z 3z"``); others skipped."""
    if not isinstance(text, str):
        return []
    return [_TILE_IDS[w] for w in text.split() if w in _TILE_IDS]


def _number(v: Any, digits: int) -> str:
    try:
        f = float(v)
    except (TypeError, ValueError):
        return ""
    return "" if f != f else f"{f:.{digits}f}"  # NaN / NA: empty


def analysis_html(table, rows: int = 40) -> str:
    """The analysis table of :func:`mjstats.analyze` with tile pictures, best option first.

    Each option with the tile it names (and the discard after a claim), its
    shanten, its useful, legal-useful and 改良 tiles drawn with their unseen
    copies, the second-step acceptance, the ready hand's winning tiles with
    their totals, P(win) and E[points] with the method, and the fan plans.
    Columns the table lacks are left out; every text is escaped.

    Examples
    --------
    >>> from mjstats import analyze
    >>> t = analyze("123m456p789s11334z")
    >>> html = analysis_html(t)
    >>> html.count("<tr>") - 1 == len(t), "<title>1z East Wind</title>" in html  # rows, pictures
    (True, True)
    """

    cols = set(table.columns)
    spec = [
        ("option", "option", lambda r: _option_cell(r)),
        ("shanten", "shanten", lambda r: escape(str(r["shanten"]))),
        ("useful", "useful", lambda r: _tiles_cell(r, "useful", "useful_copies")),
        ("legal_useful", "legal useful", lambda r: _tiles_cell(r, "legal_useful", "legal_copies")),
        ("kaizen", "改良 kaizen", lambda r: _tiles_cell(r, "kaizen", "kaizen_copies")),
        ("second_step", "second step", lambda r: _number(r["second_step"], 2)),
        ("win_fans", "wins (fan)", lambda r: escape(str(r["win_fans"]))),
        ("p_win", "P(win)", lambda r: _with_se(r, "p_win", 3)),
        ("exp_points", "E[points]", lambda r: _with_se(r, "exp_points", 2)),
        ("method", "method", lambda r: escape(str(r["method"]))),
        ("plans", "plans", lambda r: _plans_cell(r["plans"])),
    ]
    spec = [s for s in spec if s[0] in cols]
    numeric = {
        i for i, s in enumerate(spec) if s[0] in ("shanten", "second_step", "p_win", "exp_points")
    }
    shown = table.head(rows)
    body = [[fmt(r) for _, _, fmt in spec] for _, r in shown.iterrows()]
    n = len(table)
    head = f"<b>Analysis</b>: {n:,} option{'s' if n != 1 else ''}, best first"
    return (
        f"<div class='mjstats-analysis'>{tile_defs()}{head}"
        + _table([h for _, h, _ in spec], body, numeric)
        + _more(n, len(shown), "options")
        + "</div>"
    )


def _option_cell(r) -> str:
    text = escape(str(r["option"]))
    tiles = _tile_list(r.get("tile", ""))
    if r.get("kind", "") == "chow" and tiles:
        tiles = [tiles[0], tiles[0] + 1, tiles[0] + 2]
    then = _tile_list(r.get("then", ""))
    pics = tiles_svg(tiles, _TILE_PX) + (" → " + tiles_svg(then, _TILE_PX) if then else "")
    return f"<span style='white-space:nowrap'>{pics} {text}</span>"


def _tiles_cell(r, col: str, copies: str) -> str:
    ids = _tile_list(r[col])
    if not ids:
        return ""
    n = f" <b>{int(r[copies])}</b>" if copies in r.index else ""
    return f"<span style='white-space:nowrap'>{tiles_svg(ids, 22)}{n}</span>"


def _plans_cell(text: Any) -> str:
    plans = [escape(p) for p in str(text).split("; ") if p] if isinstance(text, str) else []
    return f"<div style='min-width:24em'>{'<br>'.join(plans)}</div>"


def _with_se(r, col: str, digits: int) -> str:
    v = _number(r[col], digits)
    se = _number(r.get(f"{col}_se", ""), digits)
    return f"{v} ± {se}" if v and se and float(se) > 0 else v
