"""One grammar for every tile notation: parse_hand and parse_tiles read MPSZ, honour
letters, Botzone codes, Chinese names and Unicode glyphs, mixed; Hand.format writes them."""

from __future__ import annotations

import pytest
from conftest import hands
from hypothesis import given, settings

from mjstats import parse_hand, parse_tiles
from mjstats.errors import InvalidHandError, InvalidTileError
from mjstats.tiles import NOTATIONS, format_tiles


@settings(max_examples=300)
@given(hand=hands())
def test_every_notation_round_trips(hand):
    for notation in NOTATIONS:
        assert parse_hand(hand.format(notation)) == hand, notation


@pytest.mark.parametrize(
    "text",
    [
        "[123p]55m12379s789p+8s",
        "[B1 B2 B3] W5 W5 T1 T2 T3 T7 T9 B7 B8 B9 +T8",
        "[一饼二饼三饼] 五万五万 一条二条三条七条九条 七饼八饼九饼 +八条",
        "[123p] 5万5万 123s79s 789p +八条",
        "[🀙🀚🀛]🀋🀋🀐🀑🀒🀖🀘🀟🀠🀡+🀗",
    ],
)
def test_same_hand_in_every_notation(text):
    assert str(parse_hand(text)) == "[123p]55m789p12379s+8s"


def test_botzone_letters_that_are_also_honours():
    # W and F are West and green; W1 is a code only when no digit or suit follows
    assert format_tiles(parse_tiles("W1m")) == "1m3z"
    assert format_tiles(parse_tiles("W1 F1")) == "1m1z"
    assert format_tiles(parse_tiles("F5m")) == "5m6z"
    with pytest.raises(InvalidTileError, match="'J4'"):
        parse_tiles("J4")


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("W1 W2 W3 B4B5B6 T7 T8 T9 F1 F1 J1 +J2", "holds"),
        ("一万 十万", "Chinese"),
        ("123m+J9", "winning tile"),
    ],
)
def test_errors_in_other_notations(text, fragment):
    with pytest.raises(InvalidHandError, match=fragment):
        parse_hand(text)
