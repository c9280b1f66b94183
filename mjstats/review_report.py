"""The review report (``mjstats review --html``): the figures of
:func:`mjstats.decisions.review.review` as one HTML page, the worst decisions linked to
their steps in the replay viewer (:mod:`mjstats.viewer`)."""

from __future__ import annotations

import html
import os
from pathlib import Path

from mjstats.viewer import GameView, view

__all__ = ["review_html"]


def review_html(result: dict, path, viewer_source=None) -> Path:
    """Write the review ``result`` (:func:`review`) as one HTML page at ``path``: the
    overall figures, the per-seat table and the worst decisions; with
    ``viewer_source`` (the records reviewed) a replay viewer page per listed game
    beside it (``<name>_games/<n>.html``), each worst decision linked to its step
    (``#step=N``)."""
    path = Path(os.fspath(path))
    links: dict = {}
    if viewer_source is not None:
        v = view(viewer_source, skip_bad=True)
        want = list(dict.fromkeys(result["worst"]["game"].tolist()))
        folder = path.with_name(path.stem + "_games")
        folder.mkdir(parents=True, exist_ok=True)
        for k, g in enumerate(v.games):
            gid = g.get("id", k)
            if gid in want or str(gid) in want:
                GameView([g]).save(folder / f"{k}.html")
                links[str(gid)] = f"{folder.name}/{k}.html"
    worst = result["worst"].copy()
    cells = []
    for row in worst.itertuples():
        href = links.get(str(row.game))
        step = f'<a href="{href}#step={row.step}">{row.step}</a>' if href else str(row.step)
        cells.append(f"<tr><td>{html.escape(str(row.game))}</td><td>{row.seat}</td>"
                     f"<td>{step}</td><td>{row.kind}</td><td>{html.escape(row.hand)}</td>"
                     f"<td>{html.escape(row.taken)}</td>"
                     f"<td>{html.escape(row.best)}</td><td>{row.rank}</td>"
                     f"<td>{row.gap:.2f}</td></tr>")  # fmt: skip
    page = ("<!DOCTYPE html><html><head><meta charset='utf-8'><title>mjstats review</title>"
            "</head><body><h1>Review</h1><p>Option values: E[points] of the analysis (the "
            "seat's draws left, solitaire; exact at shanten &le; 1, Monte Carlo beyond; a "
            "legal win its payment, ranked first). Gaps in points.</p><h2>Overall</h2>"
            + result["overall"].to_html(index=False, float_format="%.3f")
            + "<h2>Per game and seat</h2>"
            + result["seats"].to_html(index=False, float_format="%.3f")
            + "<h2>Worst decisions</h2><table border='1'><tr><th>game</th><th>seat</th>"
            "<th>step</th><th>kind</th><th>hand</th><th>taken</th><th>best</th><th>rank</th>"
            "<th>gap</th>"
            "</tr>" + "".join(cells) + "</table></body></html>\n")  # fmt: skip
    path.write_text(page, encoding="utf-8")
    return path
