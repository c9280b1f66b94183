"""The review report in a real browser: ``mjstats review sample.txt --html`` opened by
headless ``chromium``; each listed decision's link opens the replay viewer at that
decision's step (the viewer's own position line reads ``step N / M``), with no script
error. In CI (``CI`` set) a missing chromium fails the test; elsewhere it skips."""

from __future__ import annotations

import html
import re
from pathlib import Path
from urllib.parse import urljoin

from browser import chromium, require_chromium

from mjstats.cli import main

require_chromium()

DATA = Path(__file__).parent / "data" / "botzone"


def test_review_links_open_the_viewer_at_the_decision(tmp_path):
    page = tmp_path / "review.html"
    assert main(["review", str(DATA / "sample.txt"), "--html", str(page), "--worst", "4"]) == 0
    dom = chromium("--dump-dom", page.as_uri())
    links = re.findall(r'<a href="([^"]+#step=(\d+))">(\d+)</a>', dom)
    assert len(links) == 4, "the browser shows one step link per listed decision"
    for href, step, label in links:
        assert step == label
        viewer = chromium(
            "--virtual-time-budget=5000", "--dump-dom", urljoin(page.as_uri(), html.unescape(href))
        )
        shown = re.search(r"step (\d+) / (\d+)", viewer)
        assert shown, href
        assert shown.group(1) == step, (href, shown.group(0))
        check = re.search(r"<pre[^>]*id=\"mjv-check\"([^>]*)>", viewer)
        assert check and "data-errors" not in check.group(1), href
