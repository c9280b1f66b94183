"""The HTML views Jupyter shows (``_repr_html_``): well-formed, escaped, tiles as SVG pictures."""

from __future__ import annotations

from html.parser import HTMLParser

import numpy as np
import pytest

import mjstats
from mjstats.report import _demo_aggregate
from mjstats.tile_svg import TILE_CLASS, tile_defs, tile_title

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
    """The view's structure and text (the shared tile symbols, at most once, left out)."""
    assert html.count(tile_defs()) <= 1
    p = _Structure()
    p.feed(html.replace(tile_defs(), ""))
    p.close()
    assert not p.stack, f"unclosed tags {p.stack}"
    return p


def pictures(html: str) -> list[str]:
    """The text form (title) of every tile picture, in page order; each picture uses a
    symbol the page defines."""
    out = []
    for part in html.split(f"<svg class='{TILE_CLASS}'")[1:]:
        title = part[part.index("<title>") + 7 : part.index("</title>")]
        ref = part[part.index("href='#") + 7 :].split("'")[0]
        assert f"<symbol id='{ref}'" in html, ref
        out.append(title)
    return out


def titles(ids) -> list[str]:
    return [tile_title(int(t)) for t in ids]


def test_hand_shows_its_tiles_as_glyphs():
    hand = mjstats.parse_hand("[123p]55m12379s789p+8s self-drawn")
    p = parse(hand._repr_html_())
    text = "".join(p.text)
    assert str(hand) in text
    held = [t for t in range(34) for _ in range(int(hand.all_tiles34[t]))]
    assert sorted(pictures(hand._repr_html_())) == sorted(titles(held))  # one per tile
    assert "winning hand, 14 tiles, 1 melds" in text


def test_batch_shows_first_rows():
    texts = ["123m456p789s23s99m+1s", "19m19p19s1234567z+1z", "[555p]12345m789s11z+9s"] * 5
    batch = mjstats.HandBatch.from_hands(texts)
    p = parse(batch._repr_html_())
    text = "".join(p.text)
    assert "15 hands" in text and "... 5 more hands" in text
    assert p.tags.count("tr") == 1 + 10  # header + the first ten rows
    assert str(batch[0]) in text
    shown = sum(int(batch[i].all_tiles34.sum()) for i in range(10))
    assert len(pictures(batch._repr_html_())) == shown  # the first ten hands' tiles


def test_score_shows_tiles_and_fans():
    s = mjstats.score("[123p]55m12379s789p+8s self-drawn")
    html = s._repr_html_()
    assert sorted(pictures(html)) == sorted(
        titles(t for t in range(34) for _ in range(int(s.hand.all_tiles34[t])))
    )
    text = "".join(parse(html).text)
    assert f"total {s.total}" in text and s.fans[0].en in text


def test_batch_score_shows_counts_and_fans():
    batch = mjstats.HandBatch.from_hands(["123m456p789s23s99m+1s", "123m456p789s12s99m"])
    html = mjstats.score_batch(batch)._repr_html_()
    shown = [t for i in range(2) for t in range(34) for _ in range(int(batch[i].all_tiles34[t]))]
    assert sorted(pictures(html)) == sorted(titles(shown))  # each row's tiles
    p = parse(html)
    text = "".join(p.text)
    assert "2 hands, 1 complete, 1 legal" in text
    assert "花龙 Mixed Straight" in text
    assert p.tags.count("tr") == 3


def test_discard_table_best_first_with_glyphs():
    table = mjstats.discard_table("123m456p789s11334z")
    p = parse(table._repr_html_())
    text = "".join(p.text)
    assert text.index("4z") < text.index("1m")  # the best discard first
    tiles = pictures(table._repr_html_())
    # each discard once, then its useful tiles: 4z first, which wants 1z and 3z
    frame = table.to_frame()
    want = []
    for r in frame.itertuples():
        want += titles([r.tile, *mjstats.parse_tiles(r.useful).nonzero()[0]])
    assert tiles == want and tiles[:3] == titles([30, 27, 29])
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
