"""The HTML views Jupyter shows (``_repr_html_``): well-formed, escaped, with tile glyphs."""

from __future__ import annotations

from html.parser import HTMLParser

import numpy as np
import pytest

import mjstats
from mjstats.report import _demo_aggregate
from mjstats.tiles import TILE_GLYPHS

VOID = {"br", "hr", "img", "meta", "col"}


class _Structure(HTMLParser):
    """Checks that every tag is closed in order; collects the text and the tags."""

    def __init__(self):
        super().__init__()
        self.stack: list[str] = []
        self.tags: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        assert self.stack and self.stack[-1] == tag, (tag, self.stack)
        self.stack.pop()

    def handle_data(self, data):
        self.text.append(data)


def parse(html: str) -> _Structure:
    p = _Structure()
    p.feed(html)
    p.close()
    assert not p.stack, f"unclosed tags {p.stack}"
    return p


def glyphs(text: str) -> set[str]:
    return {ch for ch in text if ch in TILE_GLYPHS}


def test_hand_shows_its_tiles_as_glyphs():
    hand = mjstats.parse_hand("[123p]55m12379s789p+8s self-drawn")
    p = parse(hand._repr_html_())
    text = "".join(p.text)
    assert str(hand) in text
    held = {TILE_GLYPHS[t] for t in hand.all_tiles34.nonzero()[0]}
    assert glyphs(text) == held  # every tile kind of the hand, melds included, and no other
    assert "winning hand, 14 tiles, 1 melds" in text


def test_batch_shows_first_rows():
    texts = ["123m456p789s23s99m+1s", "19m19p19s1234567z+1z", "[555p]12345m789s11z+9s"] * 5
    batch = mjstats.HandBatch.from_hands(texts)
    p = parse(batch._repr_html_())
    text = "".join(p.text)
    assert "15 hands" in text and "... 5 more hands" in text
    assert p.tags.count("tr") == 1 + 10  # header + the first ten rows
    assert str(batch[0]) in text and TILE_GLYPHS[27] in text  # 1z = East wind glyph


def test_batch_score_shows_counts_and_fans():
    batch = mjstats.HandBatch.from_hands(["123m456p789s23s99m+1s", "123m456p789s12s99m"])
    p = parse(mjstats.score_batch(batch)._repr_html_())
    text = "".join(p.text)
    assert "2 hands, 1 complete, 1 legal" in text
    assert "花龙 Mixed Straight" in text
    assert p.tags.count("tr") == 3


def test_discard_table_best_first_with_glyphs():
    table = mjstats.discard_table("123m456p789s11334z")
    p = parse(table._repr_html_())
    text = "".join(p.text)
    assert text.index("4z") < text.index("1m")  # the best discard first
    assert TILE_GLYPHS[30] in text and TILE_GLYPHS[27] in text  # 4z; useful 1z
    from mjstats.tiles import parse_tiles

    two = np.stack([parse_tiles("123m456p789s11334z"), parse_tiles("123m456p789s11224z")])
    batch = mjstats.discard_table(two)
    assert "2 hands" in "".join(parse(batch._repr_html_()).text)


def test_aggregate_shows_params_headline_and_fans():
    p = parse(_demo_aggregate()._repr_html_())
    text = "".join(p.text)
    assert "demo" in text and "ruleset=mcr" in text
    assert "20 hands, 10 complete" in text
    assert "花牌 Flower Tiles" in text and "0.600" in text  # three significant digits
    assert text.index("Flower Tiles") < text.index("Big Four Winds")  # most frequent first


def test_dealt_aggregate_shows_its_shanten_table():
    from mjstats.studies.dealt import dealt

    p = parse(dealt(500, seed=1, tiles=13, progress=False)._repr_html_())
    text = "".join(p.text)
    assert "500 deals" in text and "shanten" in text


def test_text_is_escaped():
    from mjstats.studies.aggregate import Aggregate

    agg = Aggregate("<script>", {"ruleset": "mcr", "note": "<b>&"}, {"hands": [1]})
    html = agg._repr_html_()
    assert "<script>" not in html and "&lt;script&gt;" in html and "&lt;b&gt;&amp;" in html
    parse(html)


@pytest.mark.parametrize("obj", ["hand", "batch"])
def test_waiting_hands_render(obj):
    hand = mjstats.parse_hand("123m456p789s23s99m")
    target = hand if obj == "hand" else mjstats.HandBatch.from_hands([hand])
    text = "".join(parse(target._repr_html_()).text)
    assert "waiting" in text
