"""Hand, Meld and the hand text grammar."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import numpy as np
import pytest
from conftest import hands
from hypothesis import given, settings
from hypothesis import strategies as st
from test_text import _mutate, _spell

import mjstats
from mjstats.errors import (
    InvalidContextError,
    InvalidHandError,
    InvalidMeldError,
    InvalidTileError,
    TileCountError,
)
from mjstats.hand import (
    _KEYWORD_CACHE,
    _MELD_CACHE,
    _WORDS,
    CONTEXT_FIELDS,
    Hand,
    Meld,
    MeldKind,
    _fast_fields,
    _grammar_fields,
    _parse_fields,
    parse_hand,
)
from mjstats.tiles import TILES, format_tiles, parse_tiles

# --------------------------------------------------------------------------- Meld


def test_meld_kind_contract():
    assert [(k.name, int(k)) for k in MeldKind] == [
        ("EMPTY", 0),
        ("CHOW", 1),
        ("PUNG", 2),
        ("KONG", 3),
        ("CONCEALED_KONG", 4),
    ]


@pytest.mark.parametrize(
    ("meld", "tiles", "text"),
    [
        (Meld.chow("1m"), (0, 1, 2), "[123m]"),
        (Meld.chow(24), (24, 25, 26), "[789s]"),
        (Meld.pung("E"), (27, 27, 27), "[111z]"),
        (Meld.kong("5p"), (13,) * 4, "[5555p]"),
        (Meld.kong("C", concealed=True), (33,) * 4, "{7777z}"),
        (Meld("pung", "9s"), (26,) * 3, "[999s]"),
        (Meld(3, np.int64(0)), (0,) * 4, "[1111m]"),
    ],
)
def test_meld(meld, tiles, text):
    assert meld.tiles() == tiles
    assert str(meld) == text
    assert eval(repr(meld), {"Meld": Meld}) == meld
    assert meld.counts34().sum() == len(tiles)
    assert meld.is_kong == (len(tiles) == 4)
    assert isinstance(meld.kind, MeldKind) and isinstance(meld.tile, int)


@pytest.mark.parametrize(
    ("kind", "tile", "error"),
    [
        (MeldKind.CHOW, "8m", InvalidMeldError),
        (MeldKind.CHOW, "9p", InvalidMeldError),
        (MeldKind.CHOW, "E", InvalidMeldError),
        (MeldKind.EMPTY, "1m", InvalidMeldError),
        (5, "1m", InvalidMeldError),
        ("triple", "1m", InvalidMeldError),
        (True, "1m", InvalidMeldError),
        (2.0, "1m", InvalidMeldError),
        (MeldKind.PUNG, 34, InvalidTileError),
        (MeldKind.PUNG, -1, InvalidTileError),
        (MeldKind.PUNG, "0m", InvalidTileError),
        (MeldKind.PUNG, 1.0, InvalidTileError),
        (MeldKind.PUNG, None, InvalidTileError),
    ],
)
def test_bad_meld(kind, tile, error):
    with pytest.raises(error):
        Meld(kind, tile)


def test_meld_is_frozen():
    m = Meld.pung("1m")
    with pytest.raises(dataclasses.FrozenInstanceError):
        m.tile = 3  # type: ignore[misc]


# --------------------------------------------------------------------------- parsing


def test_parse_the_conventions_example():
    h = parse_hand("[123p]55m12379s789p+8s")
    assert h.melds == (Meld.chow("1p"),)
    assert h.win_tile == TILES.index("8s")
    assert format_tiles(h.concealed) == "55m789p123789s"  # includes the winning tile
    assert format_tiles(h.standing34) == "55m789p12379s"
    assert not any(getattr(h, f) for f in CONTEXT_FIELDS)
    assert str(h) == "[123p]55m789p12379s+8s"


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("123456789m1235p", "123456789m1235p"),  # waiting
        ("EEE 123m 456p 789s 9m +9m", "1239m456p789s111z+9m"),
        ("[EEE]123m456p789s9m+9m", "[111z]1239m456p789s+9m"),
        ("{5555p}[123m][789s]11z23s+1s", "[123m]{5555p}[789s]23s11z+1s"),
        ("+1s 11z23s[123m][456m][789m]", "[123m][456m][789m]23s11z+1s"),  # any order
        ("[1111m][222s]78999s44p+9s", "[1111m][222s]44p78999s+9s"),
        ("[NNN]78889m11888p+8m", "[444z]78889m11888p+8m"),
        ("[678s]147m369s25pSS+8p", "[678s]147m25p369s22z+8p"),
        ("[123m][456m][789m][CCC]5p+5p", "[123m][456m][789m][777z]5p+5p"),
        ("19m19p19s1234567z+C", "19m19p19s1234567z+7z"),
        ("1112345678999m", "1112345678999m"),
        ("{1111z}{2222z}{3333z}{4444z}5z", "{1111z}{2222z}{3333z}{4444z}5z"),
        ("{1111z}{2222z}{3333z}{4444z}5z+P", "{1111z}{2222z}{3333z}{4444z}5z+5z"),
        ("[132p]55m12379s789p+8s", "[123p]55m789p12379s+8s"),  # chow tiles in any order
        ("[123p] 55m 12379s 789p + 8s", "[123p]55m789p12379s+8s"),
    ],
)
def test_parse_hand_forms(text, canonical):
    h = parse_hand(text)
    assert str(h) == canonical
    assert parse_hand(canonical) == h


@pytest.mark.parametrize(
    ("keywords", "context"),
    [
        ("", {}),
        ("self-drawn", {"self_drawn": True}),
        ("TSUMO", {"self_drawn": True}),
        ("self_drawn", {"self_drawn": True}),
        ("自摸", {"self_drawn": True}),
        ("discard", {}),
        ("ron", {}),
        ("last-of-kind", {"last_of_kind": True}),
        ("和绝张", {"last_of_kind": True}),
        ("kong", {"kong_win": True}),
        ("kong-win self-drawn", {"kong_win": True, "self_drawn": True}),
        ("杠上开花", {"kong_win": True, "self_drawn": True}),
        ("after-kong", {"kong_win": True, "self_drawn": True}),
        ("抢杠和", {"kong_win": True}),
        ("robbing-kong discard", {"kong_win": True}),
        ("last-tile", {"last_of_wall": True}),
        ("妙手回春", {"last_of_wall": True, "self_drawn": True}),
        ("海底捞月", {"last_of_wall": True}),
        ("seat=S round=W", {"seat_wind": 1, "round_wind": 2}),
        ("seat=north round=east", {"seat_wind": 3}),
        ("门风=南 圈风=西", {"seat_wind": 1, "round_wind": 2}),
        ("seat-wind=3z prevalent=2z", {"seat_wind": 2, "round_wind": 1}),
        ("flowers=2", {"flowers": 0b11}),
        ("flowers=8", {"flowers": 0xFF}),
        ("flowers=0", {}),
        ("花=3", {"flowers": 0b111}),
        ("flowers=spring,plum", {"flowers": 0b10001}),
        ("flowers=春梅", {"flowers": 0b10001}),
        ("flowers=0x80", {"flowers": 0x80}),
        ("situation=5", {"situation": 5}),
        ("situation=0xff", {"situation": 255}),
        ("tsumo tsumo", {"self_drawn": True}),  # repeating is harmless
    ],
)
def test_context_keywords(keywords, context):
    h = parse_hand(f"[123p]55m12379s789p+8s {keywords}")
    expected = dict.fromkeys(CONTEXT_FIELDS[:4], False) | dict.fromkeys(CONTEXT_FIELDS[4:], 0)
    expected |= context
    assert {f: getattr(h, f) for f in CONTEXT_FIELDS} == expected
    assert parse_hand(str(h)) == h


def test_canonical_keywords_order_and_defaults():
    h = parse_hand(
        "[123p]55m12379s789p+8s situation=3 flowers=spring,autumn round=S seat=N "
        "last-tile kong 和绝张 自摸"
    )
    assert str(h).split(" ", 1)[1] == (
        "self-drawn last-of-kind kong-win last-of-wall seat=N round=S "
        "flowers=spring,autumn situation=3"
    )
    assert str(parse_hand("[123p]55m12379s789p+8s seat=E round=E flowers=0 ron")) == (
        "[123p]55m789p12379s+8s"
    )


def test_keyword_arguments_override_and_complete_the_text():
    h = parse_hand("[123p]55m12379s789p+8s tsumo seat=S", self_drawn=False, round_wind=3)
    assert (h.self_drawn, h.seat_wind, h.round_wind) == (False, 1, 3)
    h = parse_hand("[123p]55m12379s789p+8s", seat_wind="W", flowers="spring", kong_win=1)
    assert (h.seat_wind, h.flowers, h.kong_win) == (2, 1, True)
    with pytest.raises(TypeError, match="self_drawn"):
        parse_hand("[123p]55m12379s789p+8s", selfdrawn=True)
    for bad in ({"seat_wind": 4}, {"flowers": 256}, {"self_drawn": 2}, {"situation": -1}):
        with pytest.raises(InvalidContextError):
            parse_hand("[123p]55m12379s789p+8s", **bad)


@pytest.mark.parametrize(
    ("text", "error", "fragment"),
    [
        ("[124p]55m12379s789p+8s", InvalidMeldError, "'[124p]' at position 0 is not a meld"),
        ("[789p]55m12379s[8910p]+8s", InvalidTileError, "'0' at position"),
        ("[12p]55m12379s789p8s+8s", InvalidMeldError, "not a meld"),
        ("[EFP]55m12379s789p8s+8s", InvalidMeldError, "not a meld"),
        ("{555p}55m12379s789p8s+8s", InvalidMeldError, "braces hold a concealed kong"),
        ("{123p}55m12379s789p8s+8s", InvalidMeldError, "braces"),
        ("[123p55m12379s789p+8s", InvalidMeldError, "'[' at position 0 is not closed"),
        ("[123p}55m12379s789p+8s", InvalidMeldError, "not closed by ']'"),
        ("123p]55m12379s789p+8s", InvalidMeldError, "']' at position 4 closes no meld"),
        ("[123p]55m12379s789p+88s", InvalidTileError, "exactly one tile"),
        ("[123p]55m12379s789p+", InvalidTileError, "exactly one tile"),
        ("[123p]55m12379s789p+8x", InvalidTileError, "unexpected 'x' at position 21"),
        ("[123p]55m12379s78p+8s+9p", InvalidTileError, "a second '+'"),
        ("[123p]55m1237 9s789p+8s", InvalidTileError, "digits '1237' at position 9"),
        ("[1 2 3p]55m12379s789p+8s", InvalidTileError, "digits '1' at position 1 (in a meld)"),
        ("[123p]55m12379s789p+8s seat=1", InvalidContextError, "letters"),
        ("[123p]55m12379s789p+8s seat=X", InvalidContextError, "not a wind"),
        ("[123p]55m12379s789p+8s seat=", InvalidContextError, "has no value"),
        ("[123p]55m12379s789p+8s flowers=9", InvalidHandError, "only 8 flowers"),
        ("[123p]55m12379s789p+8s situation=300", InvalidContextError, "0-255"),
        ("[123p]55m12379s789p+8s situation=x", InvalidContextError, "situation"),
        ("[123p]55m12379s789p+8s selfdrawn", InvalidContextError, "did you mean 'self-drawn'"),
        ("[123p]55m12379s789p+8s colour=red", InvalidContextError, "unknown keyword 'colour=red'"),
        ("[123p]55m12379s789p+8s tsumo 抢杠和", InvalidContextError, "contradicts"),
        ("[123p]55m12379s789p+8s tsumo 9p", InvalidHandError, "after the context keywords"),
        ("[123p]55m12379s789p+8s 123x", InvalidTileError, "unexpected 'x' at position 26"),
        ("[123p]55m12379s789p8s", TileCountError, "no winning tile"),
        ("[123p]55m12379s789p9s+8s", TileCountError, "14 tiles before the '+'"),
        ("[123p]55m1239s789p+8s", TileCountError, "12 tiles before the '+'"),
        ("[123p][123p][123p][123p][123p]1p", InvalidMeldError, "at most 4"),
        ("[1111m]111m2345678m+9m", TileCountError, "7 copies of 1m counting the melds"),
        ("11111m2345678999m", TileCountError, "a fifth 1m at position 4"),
        ("1111m2345678999m+1m", TileCountError, "a fifth 1m at position 17"),
        ("", TileCountError, "0 tiles"),
        ("   ", TileCountError, "0 tiles"),
    ],
)
def test_parse_hand_errors(text, error, fragment):
    with pytest.raises(error) as info:
        parse_hand(text)
    assert fragment in str(info.value)


def test_parse_hand_rejects_non_strings():
    with pytest.raises(InvalidHandError):
        parse_hand(b"123m")  # type: ignore[arg-type]


# --------------------------------------------------------------------------- Hand


def test_hand_constructor_validates():
    ok = dict(concealed=parse_tiles("55m12379s789p8s"), melds=[Meld.chow("1p")], win_tile=25)
    assert str(Hand(**ok)) == "[123p]55m789p12379s+8s"
    cases = [
        ({"win_tile": 34}, InvalidTileError, "0-33"),
        ({"win_tile": "6s"}, InvalidTileError, "6s is not among the concealed tiles"),
        ({"win_tile": 2.0}, InvalidTileError, "tile id"),
        ({"win_tile": None}, TileCountError, "a waiting hand (no winning tile) has 13"),
        ({"melds": []}, TileCountError, "a winning hand has 14 tiles"),
        ({"melds": [Meld.chow("1p")] * 5}, InvalidMeldError, "at most 4"),
        ({"melds": [Meld.chow("1p"), (2, 13)]}, TileCountError, "got 17"),
        ({"melds": [(1, 25)]}, InvalidMeldError, "chow cannot start at 8s"),
        ({"melds": Meld.chow("1p")}, InvalidMeldError, "sequence"),
        ({"melds": ["[123p]"]}, InvalidMeldError, "pair"),
        ({"seat_wind": 4}, InvalidContextError, "0-3"),
        ({"round_wind": -1}, InvalidContextError, "0-3"),
        ({"seat_wind": "up"}, InvalidContextError, "not a wind"),
        ({"seat_wind": True}, InvalidContextError, "integer"),
        ({"flowers": 256}, InvalidContextError, "0-255"),
        ({"situation": 1.5}, InvalidContextError, "integer"),
        ({"self_drawn": "yes"}, InvalidContextError, "True or False"),
        ({"self_drawn": None}, InvalidContextError, "True or False"),
        ({"concealed": parse_tiles("55m12379s789p8s")[:33]}, InvalidHandError, "shape (34,)"),
        ({"concealed": np.stack([parse_tiles("5m")] * 2)}, InvalidHandError, "shape (34,)"),
        ({"concealed": parse_tiles("55m12379s789p8s").astype(float)}, InvalidHandError, "dtype"),
        ({"concealed": "55m12379s789p8s"}, InvalidHandError, "dtype"),
        ({"concealed": -parse_tiles("55m12379s789p8s").astype(int)}, InvalidHandError, "negative"),
    ]
    for change, error, fragment in cases:
        with pytest.raises(error) as info:
            Hand(**(ok | change))
        assert fragment in str(info.value), (change, str(info.value))


def test_hand_is_immutable_hashable_and_equal_by_value():
    a = parse_hand("{1111z}[5555p]123m789s1s+1s self-drawn")
    b = Hand(
        parse_tiles("123m789s11s"),
        [Meld.kong("5p"), Meld.kong("E", concealed=True)],  # another order
        "1s",
        self_drawn=True,
    )
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != b.replace(self_drawn=False)
    assert a != "{1111z}[5555p]123m789s1s+1s self-drawn"
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.win_tile = 3  # type: ignore[misc]
    with pytest.raises(ValueError):
        a.concealed[0] = 4  # read-only array
    given_array = parse_tiles("123m789s11s")
    c = Hand(given_array, b.melds, "1s")
    given_array[0] = 4  # the hand owns a copy
    assert c.concealed[0] == 1


def test_hand_views():
    h = parse_hand("{1111z}[5555p]123m789s1s+1s")
    assert h.n_kongs == 2 and not h.is_concealed and not h.is_waiting
    assert int(h.all_tiles34.sum()) == 16 and h.all_tiles34[27] == 4 and h.all_tiles34[13] == 4
    assert parse_hand("{1111z}123m789s123p1s+1s").is_concealed
    assert repr(h) == "Hand.from_text('[5555p]{1111z}123m1789s+1s')"
    assert eval(repr(h), {"Hand": Hand}) == h


def test_display_notations():
    h = parse_hand("[123p]{1111z}55m1456s9s+C self-drawn")
    assert h.format("botzone") == ("[B1 B2 B3] {F1 F1 F1 F1} W5 W5 T1 T4 T5 T6 T9 +J1 self-drawn")
    assert h.format("zh") == (
        "[一饼 二饼 三饼] {东 东 东 东} 五万 五万 一条 四条 五条 六条 九条 +中 self-drawn"
    )
    assert h.format("unicode").startswith("[\U0001f019\U0001f01a\U0001f01b] {")
    assert h.format("unicode").endswith("+\U0001f004 self-drawn")


# --------------------------------------------------------------------------- PyMahjongGB

# (hand text, reference total) from shared/reference/mcr-reference-behaviour.md §3
REFERENCE_EXAMPLES = [
    ("234567s23567p99m+4p", 7),  # T01
    ("EEE123m456p789s9m+9m", 15),  # T10
    ("[234m][678s][555p]23sEE+1s flowers=2", 10),  # T18
    ("{2222m}[5555m]456p789p1s+1s", 8),  # T26 明暗杠
    ("{2222m}{5555m}456p789p1s+1s", 11),  # T27
    ("12m456p789p111s99s+3m last-of-kind kong-win", 14),  # T17 抢杠和
    ("[666m]45m456p789p11s+6m", 9),  # T16 和绝张 forced
    ("11m555p789p123s99s+1m self-drawn", 8),  # T11b
    ("147m258s369pESWN+C", 24),  # T30
    ("1112345678999m+1m", 106),  # T33
    ("1133m5577p99sEEC+C self-drawn", 31),  # T64
    ("[123p]55m12379s789p+8s", 17),  # zheng-fan/GB-Mahjong#5
]


@pytest.mark.parametrize(("text", "total"), REFERENCE_EXAMPLES)
def test_pymahjonggb_arguments_reproduce_reference_totals(text, total):
    mahjong_gb = pytest.importorskip("MahjongGB")
    hand = parse_hand(text)
    fans = mahjong_gb.MahjongFanCalculator(**hand.to_pymahjonggb())
    assert sum(points for points, _ in fans) == total
    assert Hand.from_pymahjonggb(**hand.to_pymahjonggb()) == hand


def test_to_pymahjonggb_layout():
    hand = parse_hand("{2222m}[5555m][456p][EEE]9m+9m tsumo last-tile seat=W round=S flowers=0x81")
    kw = hand.to_pymahjonggb()
    assert kw["pack"] == (("GANG", "W2", 0), ("GANG", "W5", 1), ("CHI", "B5", 1), ("PENG", "F1", 1))
    assert kw["hand"] == ("W9",) and kw["winTile"] == "W9"
    assert kw["flowerCount"] == 2 and kw["isSelfDrawn"] and kw["isWallLast"]
    assert (kw["seatWind"], kw["prevalentWind"]) == (2, 1)
    assert not kw["is4thTile"] and not kw["isAboutKong"]


def test_from_pymahjonggb_concealed_packs_and_errors():
    # PENG/CHI with offer 0 are concealed sets to the reference: their tiles join the hand
    h = Hand.from_pymahjonggb(
        (("PENG", "W2", 0), ("CHI", "B5", 0)), ("W5",) * 3 + ("B7", "B8", "B9", "W9"), "W9"
    )
    assert str(h) == "2225559m456789p+9m" and not h.melds
    good = ((("CHI", "B2", 1),), ("W5", "W5", "T1", "T2", "T3", "T7", "T9", "B7", "B8", "B9"), "T8")
    bad_calls = [
        ((("CHI", "B1", 1),), *good[1:]),  # chow given by its middle tile: B1 cannot be
        ((("CHI", "F2", 1),), *good[1:]),
        ((("PONG", "B2", 1),), *good[1:]),
        ((("PENG", "B2", 4),), *good[1:]),
        ((("PENG", "B2"),), *good[1:]),
        ("CHI B2", *good[1:]),
        (good[0], "W5 W5", good[2]),
        (good[0], good[1], "w8"),
        (good[0], (*good[1][:-1], "H1"), good[2]),
        (*good, 9),  # flowerCount
        (*good, 0, False, False, False, False, 4, 0),  # seat wind
    ]
    for call in bad_calls:
        with pytest.raises(InvalidHandError):
            Hand.from_pymahjonggb(*call)
    with pytest.raises(InvalidHandError, match="waiting hand"):
        parse_hand("123456789m1235p").to_pymahjonggb()


# --------------------------------------------------------------------------- properties


def _honors_as_letters(text: str) -> str:
    def repl(m: re.Match) -> str:
        return "".join("ESWNPFC"[int(d) - 1] for d in m.group(1))

    tiles, _, keywords = text.partition(" ")
    return " ".join(filter(None, [re.sub(r"([1-7]+)z", repl, tiles), keywords]))


@settings(max_examples=1000)
@given(hand=hands())
def test_text_round_trip(hand):
    text = str(hand)
    again = parse_hand(text)
    assert again == hand and hash(again) == hash(hand)
    assert str(again) == text
    assert parse_hand(_honors_as_letters(text)) == hand
    assert (hand.all_tiles34 <= 4).all()
    assert int(hand.concealed.sum()) + 3 * len(hand.melds) == 13 + (not hand.is_waiting)


@settings(max_examples=1000)
@given(hand=hands(waiting=False))
def test_pymahjonggb_round_trip(hand):
    kwargs = hand.to_pymahjonggb()
    assert len(kwargs["hand"]) + 3 * len(kwargs["pack"]) == 13
    back = Hand.from_pymahjonggb(**kwargs)
    count = bin(hand.flowers).count("1")
    assert back == hand.replace(flowers=(1 << count) - 1, situation=0)


@settings(max_examples=1000)
@given(text=st.text())
def test_garbage_text_raises_only_invalid_hand_error(text):
    try:
        hand = parse_hand(text)
    except InvalidHandError:
        return
    assert parse_hand(str(hand)) == hand


GRAMMAR_PIECES = [
    *"0123456789mpszESWNPFC[]{}+ ",
    "self-drawn ",
    " tsumo",
    " seat=",
    " round=S",
    " flowers=",
    "spring,",
    " situation=",
    "0x",
    " kong",
    " 自摸",
    " 抢杠和",
    "=",
    "[123m]",
    "{1111z}",
    "+8s",
    "123456789m",
]


@settings(max_examples=1000)
@given(pieces=st.lists(st.sampled_from(GRAMMAR_PIECES), max_size=30))
def test_near_miss_text_raises_only_invalid_hand_error(pieces):
    try:
        hand = parse_hand("".join(pieces))
    except InvalidHandError:
        return
    assert parse_hand(str(hand)) == hand


garbage_values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-300, 300),
    st.floats(allow_nan=True),
    st.text(max_size=5),
    st.lists(st.integers(-2, 6), max_size=40),
    st.lists(st.lists(st.integers(-1, 40), max_size=3), max_size=6),
)


@settings(max_examples=1000)
@given(
    field=st.sampled_from(["concealed", "melds", "win_tile", *CONTEXT_FIELDS]),
    value=garbage_values,
)
def test_garbage_fields_raise_only_invalid_hand_error(field, value):
    good = dict(concealed=parse_tiles("55m12379s789p8s"), melds=[Meld.chow("1p")], win_tile=25)
    try:
        hand = Hand(**(good | {field: value}))
    except InvalidHandError:
        return
    assert parse_hand(str(hand)) == hand


def test_public_names():
    assert mjstats.Hand is Hand and mjstats.Meld is Meld and mjstats.parse_hand is parse_hand


@pytest.mark.parametrize(
    ("words", "bits"),
    [
        ("天胡", 1),
        ("earthly-win", 2),
        ("人胡", 4),
        ("riichi", 8),
        ("报听", 8),
        ("立直 天听", 24),
        ("situation=1 human-win", 5),
    ],
)
def test_named_situation_bits_add_up(words, bits):
    h = parse_hand(f"123m456m789m111z2z+2z {words}")
    assert h.situation == bits
    assert parse_hand(str(h)).situation == bits  # canonical text keeps the number


# --------------------------------------------------------------------------- the fast path
# _parse_fields reads common valid ASCII text by a direct scan (_fast_fields) and
# everything else by the grammar (_grammar_fields): both must give the same fields,
# or the same error, on any text.

FAST_PIECES = [
    *"0123456789mpszESWNPFCBTJ[]{}+ ,=-_x\t",
    "W1",
    "F1",
    "F5",
    "W0",
    "B2",
    "+W1",
    "+F",
    "+E",
    "+8s",
    "+9z",
    "[123m]",
    "[1m2m3m]",
    "[EEE]",
    "{1111z}",
    "[5555p]",
    "[789z]",
    "{123s}",
    "123456789m",
    "89z",
    " self-drawn",
    " tsumo",
    " ron",
    " after-kong",
    " 4th-tile",
    " KONG",
    " SEAT=S",
    " seat=S",
    " seat=1",
    " round=w",
    " flowers=2",
    " flowers=0x11",
    " situation=5",
    " riichi",
    " 天听",
    " 123m",
]


def _fields_or_error(parse, text, context):
    try:
        return parse(text, context)
    except (InvalidHandError, TypeError) as exc:
        return type(exc), str(exc)


def _fast(text, context):
    return _parse_fields(text, **context)


def _assert_agree(text, context=None):
    context = context or {}
    for _ in range(2):  # the second call finds the keywords and melds in the caches
        assert _fields_or_error(_fast, text, context) == _fields_or_error(
            _grammar_fields, text, context
        ), text


_contexts = st.dictionaries(
    st.sampled_from(CONTEXT_FIELDS), st.one_of(st.booleans(), st.integers(0, 4)), max_size=2
)


@settings(max_examples=300)
@given(hand=hands(), seed=st.integers(0, 2**32 - 1), context=_contexts)
def test_fast_path_agrees_with_the_grammar_on_spelled_and_mutated_hands(hand, seed, context):
    rng = np.random.default_rng(seed)
    text = _spell(hand, rng)  # every notation, random keyword spellings
    _assert_agree(str(hand))
    _assert_agree(text)
    _assert_agree(_mutate(text, rng))
    _assert_agree(_mutate(str(hand), rng), context)


@settings(max_examples=1000)
@given(
    pieces=st.lists(st.sampled_from(FAST_PIECES), max_size=20),
    hand=hands(),
    at=st.integers(0, 60),
)
def test_fast_path_agrees_with_the_grammar_near_valid_text(pieces, hand, at):
    text = str(hand)
    _assert_agree("".join(pieces))
    _assert_agree(text[:at] + "".join(pieces) + text[at:])
    _assert_agree(text[:at] + "".join(pieces[:1]) + text[at + 1 :])  # one character replaced


@pytest.mark.parametrize(
    "text",
    [
        "[123p]55m12379s789p+8s",
        "EEE 123m 456p 789s 9m +9m tsumo seat=S",
        "W1 W2 W3 B4B5B6 T7T8T9 F1F1F1 J1 +J1",
        "111z W1m 456p 789s 99s +9s",  # W then 1m, not the code W1
        "123m456p789s111z2z+W1",  # +W1 is 1m... and a sixth tile
        "123m456p789s11z22z+F",
        "[1 2 3p]456p789s11z22z+2z",
        "123m456p789s11z2z +2z",
        "123m456p789s11z2z+ 2z",
        "123m456p789s11z22z+2z tsumo ron",
        "123m456p789s11z22z+2z tsumo zimo",
        "123m456p789s11z22z+2z riichi 天听 situation=1",
        "123m456p789s11z22z+2z 4th-tile",
        "123m456p789s11z22z+2z seat=S 12m",
        "123m456p789s11z22z+2z2z",
        "1111m456p789s11z22z+1m",
        "11111m456p789s1z2z+2z",  # a fifth copy among 13 tiles
        "120m456p789s11z22z+2z",
        "123m456p789s11z22z+0z",
        "123m456p789s11z28z+2z",
        "123m456p789s11z22z+8z",
        "1111m456p789s1z22z+1m",  # the winning tile is the fifth
        "[123m]1m1111m456p789s+2z",
        "W1m456p789s11z22z+2z",
        "W1 2m456p789s11z22z+2z",
        "F1F1F1 E1m456p789s11z+1z",
        "[123m][123m][123m][123m][123m]2z+2z",
        "[8888z]456p789s11z22z+2z",
        "",
    ],
)
def test_fast_path_agrees_with_the_grammar_on_edge_cases(text):
    _assert_agree(text)


def test_fast_path_reads_common_text():
    # the speed claim: canonical ASCII text and the Botzone records never take the grammar
    from conftest import SEED, random_hand_arrays

    from mjstats.records import read_botzone

    rng = np.random.default_rng(SEED)
    texts = mjstats.HandBatch(**random_hand_arrays(rng, 500)).to_text()
    data = Path(__file__).parent / "data" / "botzone"
    for f in [data / "sample.txt", *sorted((data / "judge-logs").glob("*.json"))]:
        texts += read_botzone(f).batch.to_text()
    texts = [t for t in texts if t.isascii()]  # flower names are Chinese
    assert len(texts) > 300
    _KEYWORD_CACHE.clear()  # as in a fresh process (other tests fill the caches)
    _MELD_CACHE.clear()
    for t in texts:
        _parse_fields(t)  # learns new keywords and melds
    assert all(_fast_fields(t) is not None for t in texts)
    assert len(_KEYWORD_CACHE) < 1000 and len(_MELD_CACHE) < 300  # far from full


def test_fast_path_splits_words_as_the_grammar():
    text = "".join(chr(c) for c in range(0x3100)) + "\u3000x\U0001f004"
    assert text.split() == [m.group() for m in _WORDS.finditer(text)]
