"""Tiles: the index contract, properties, notations, flowers."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mjstats
from mjstats.errors import InvalidHandError, InvalidTileError, TileCountError
from mjstats.tiles import (
    BOTZONE_CODES,
    CHOW_START_MASK,
    DRAGON_MASK,
    FLOWER_GLYPHS,
    FLOWER_NAMES,
    GREEN_MASK,
    HONOR_MASK,
    NOTATIONS,
    NUMBERED_MASK,
    RANK_OF,
    REVERSIBLE_MASK,
    SUIT_OF,
    TERMINAL_MASK,
    TERMINAL_OR_HONOR_MASK,
    TILE_GLYPHS,
    TILE_NAMES_EN,
    TILE_NAMES_ZH,
    TILES,
    WIND_MASK,
    counts_to_ids,
    flower_count,
    format_flowers,
    format_tiles,
    ids_to_counts,
    is_dragon,
    is_honor,
    is_numbered,
    is_terminal,
    is_terminal_or_honor,
    is_wind,
    parse_flowers,
    parse_tile,
    parse_tiles,
    rank,
    suit,
)

# --------------------------------------------------------------------------- the contract


def test_tile_index_contract():
    assert len(TILES) == 34
    assert TILES[:9] == tuple(f"{r}m" for r in range(1, 10))
    assert TILES[9:18] == tuple(f"{r}p" for r in range(1, 10))
    assert TILES[18:27] == tuple(f"{r}s" for r in range(1, 10))
    assert TILES[27:] == ("1z", "2z", "3z", "4z", "5z", "6z", "7z")
    assert mjstats.TILES is TILES


def test_botzone_codes_follow_the_reference():
    # characters W, dots B, bamboo T; winds F1-F4; J1 red (中), J2 green (发), J3 white (白)
    assert [BOTZONE_CODES[t] for t in (0, 8, 9, 17, 18, 26)] == ["W1", "W9", "B1", "B9", "T1", "T9"]
    assert BOTZONE_CODES[27:] == ("F1", "F2", "F3", "F4", "J3", "J2", "J1")
    assert parse_tile("J1") == 33 and parse_tile("J2") == 32 and parse_tile("J3") == 31


def test_riichi_library_uses_the_same_index():
    from mahjong.tile import TilesConverter

    counts = TilesConverter.string_to_34_array(man="19", pin="19", sou="19", honors="1234567")
    assert (np.array(counts) == parse_tiles("19m19p19s1234567z")).all()


def test_unicode_glyphs():
    # the Unicode block orders dragons red, green, white (U+1F004-U+1F006)
    assert TILE_GLYPHS[33] == "\U0001f004"  # 中
    assert TILE_GLYPHS[32] == "\U0001f005"  # 发
    assert TILE_GLYPHS[31] == "\U0001f006"  # 白
    assert TILE_GLYPHS[27] == "\U0001f000"  # East
    assert TILE_GLYPHS[0] == "\U0001f007"  # 1 character
    assert TILE_GLYPHS[9] == "\U0001f019"  # 1 dot
    assert TILE_GLYPHS[18] == "\U0001f010"  # 1 bamboo
    assert len(set(TILE_GLYPHS)) == 34
    assert FLOWER_GLYPHS[0] == "\U0001f026" and FLOWER_GLYPHS[4] == "\U0001f022"


def test_chinese_and_english_names():
    assert (
        TILE_NAMES_ZH[0] == "一万" and TILE_NAMES_ZH[13] == "五饼" and TILE_NAMES_ZH[26] == "九条"
    )
    assert TILE_NAMES_ZH[27:] == ("东", "南", "西", "北", "白", "发", "中")
    assert TILE_NAMES_EN[31:] == ("White Dragon", "Green Dragon", "Red Dragon")
    assert len(set(TILE_NAMES_ZH)) == len(set(TILE_NAMES_EN)) == 34


# --------------------------------------------------------------------------- properties


def test_masks_match_their_definitions():
    names = np.array(TILES)
    assert list(names[TERMINAL_OR_HONOR_MASK]) == ["1m", "9m", "1p", "9p", "1s", "9s"] + [
        f"{r}z" for r in range(1, 8)
    ]
    assert TERMINAL_MASK.sum() == 6 and HONOR_MASK.sum() == 7 and NUMBERED_MASK.sum() == 27
    assert WIND_MASK.sum() == 4 and DRAGON_MASK.sum() == 3
    assert list(names[GREEN_MASK]) == ["2s", "3s", "4s", "6s", "8s", "6z"]
    assert list(names[REVERSIBLE_MASK]) == (
        ["1p", "2p", "3p", "4p", "5p", "8p", "9p", "2s", "4s", "5s", "6s", "8s", "9s", "5z"]
    )
    assert list(names[CHOW_START_MASK]) == [f"{r}{s}" for s in "mps" for r in range(1, 8)]
    assert RANK_OF.tolist() == [*range(1, 10)] * 3 + [*range(1, 8)]
    assert SUIT_OF.tolist() == [0] * 9 + [1] * 9 + [2] * 9 + [3] * 7


def test_masks_are_read_only():
    with pytest.raises(ValueError):
        HONOR_MASK[0] = True


@pytest.mark.parametrize(
    ("tile", "expected"),
    [
        ("1m", ("m", 1, True, False, False, False, True, True)),
        ("5p", ("p", 5, True, False, False, False, False, False)),
        ("9s", ("s", 9, True, False, False, False, True, True)),
        ("E", ("z", 1, False, True, True, False, False, True)),
        ("4z", ("z", 4, False, True, True, False, False, True)),
        ("P", ("z", 5, False, True, False, True, False, True)),
        ("C", ("z", 7, False, True, False, True, False, True)),
    ],
)
def test_tile_helpers(tile, expected):
    got = (
        suit(tile),
        rank(tile),
        is_numbered(tile),
        is_honor(tile),
        is_wind(tile),
        is_dragon(tile),
        is_terminal(tile),
        is_terminal_or_honor(tile),
    )
    assert got == expected
    tid = parse_tile(tile)
    assert (suit(tid), rank(tid), is_honor(tid)) == (expected[0], expected[1], expected[3])


def test_tile_helpers_vectorise():
    ids = np.arange(34)
    assert is_honor(ids).tolist() == HONOR_MASK.tolist()
    assert rank(ids).tolist() == RANK_OF.tolist()
    assert "".join(suit(ids)) == "m" * 9 + "p" * 9 + "s" * 9 + "z" * 7
    assert isinstance(is_honor(27), bool) and isinstance(rank(3), int)


@pytest.mark.parametrize("bad", [34, -1, 255, 3.0, True, "0m", None, [1, 40]])
def test_tile_helpers_reject_bad_ids(bad):
    with pytest.raises(InvalidTileError):
        is_honor(bad)


def test_counts_and_ids():
    counts = parse_tiles("1122m7z")
    assert counts_to_ids(counts).tolist() == [0, 0, 1, 1, 33]
    assert (ids_to_counts([33, 1, 0, 1, 0]) == counts).all()
    with pytest.raises(TileCountError, match="only 4"):
        ids_to_counts([5] * 5)
    with pytest.raises(InvalidTileError):
        ids_to_counts([34])


# --------------------------------------------------------------------------- parsing


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("123m456p789s11z", "123m456p789s11z"),
        ("123m 456p  789s\t11z", "123m456p789s11z"),
        ("EESSWWNNPPFFCC", "11223344556677z"),
        ("1m E 5z C", "1m157z"),
        ("W1 W2, W3 F1F1 J1", "123m117z"),
        ("W1W9B1B9T1T9F1F2F3F4J1J2J3", "19m19p19s1234567z"),
        ("一万 九饼 五条 东 白 发 中", "1m9p5s1567z"),
        ("一萬九餅五索東風白板發財紅中", "1m9p5s1567z"),
        ("1万 9筒 5条", "1m9p5s"),
        ("\U0001f007\U0001f004\U0001f005\U0001f006", "1m567z"),
        ("\U0001f004\ufe0f \U0001f004", "77z"),
        ("", ""),
    ],
)
def test_parse_tiles_notations(text, expected):
    assert format_tiles(parse_tiles(text)) == expected


@pytest.mark.parametrize(
    ("text", "error", "fragment"),
    [
        ("123m0p", InvalidTileError, "'0' at position 4"),
        ("123", InvalidTileError, "digits '123' at position 0 have no suit letter"),
        ("12 3m", InvalidTileError, "digits '12' at position 0"),
        ("123x", InvalidTileError, "unexpected 'x' at position 3"),
        ("m123", InvalidTileError, "suit letter 'm' at position 0 has no digits"),
        ("8z", InvalidTileError, "honours are 1z-7z"),
        ("123M", InvalidTileError, "lower case"),
        ("[123m]", InvalidTileError, "parse_hand"),
        ("11111m", TileCountError, "a fifth 1m at position 4"),
        ("EEEEE", TileCountError, "a fifth 1z"),
        ("W1 W0", InvalidTileError, "'W0' at position 3"),
        ("W1 H1", InvalidTileError, "flowers"),
        ("\U0001f022", InvalidTileError, "flowers are not tiles"),
        ("\U0001f02b", InvalidTileError, "U+1F02B"),
        ("一万 十万", InvalidTileError, "position 3"),
    ],
)
def test_parse_tiles_errors_name_the_token_and_position(text, error, fragment):
    with pytest.raises(error) as info:
        parse_tiles(text)
    assert fragment in str(info.value)
    assert isinstance(info.value, InvalidHandError) and isinstance(info.value, ValueError)


def test_parse_tiles_forced_notation():
    assert format_tiles(parse_tiles("F1", notation="botzone")) == "1z"
    with pytest.raises(InvalidTileError):
        parse_tiles("F1", notation="mpsz")  # digits without a suit after the green dragon
    with pytest.raises(InvalidHandError, match="unknown notation"):
        parse_tiles("1m", notation="ascii")
    with pytest.raises(InvalidTileError):
        parse_tiles(b"1m")  # type: ignore[arg-type]


def test_parse_tile():
    assert [parse_tile(name) for name in TILES] == list(range(34))
    assert [parse_tile(c) for c in BOTZONE_CODES] == list(range(34))
    assert [parse_tile(n) for n in TILE_NAMES_ZH] == list(range(34))
    assert [parse_tile(g) for g in TILE_GLYPHS] == list(range(34))
    assert [parse_tile(c) for c in "ESWNPFC"] == list(range(27, 34))
    for bad in ("", "1m2m", "11m", "x"):
        with pytest.raises(InvalidTileError):
            parse_tile(bad)


def test_format_tiles():
    counts = parse_tiles("19m19p19s1234567z")
    assert format_tiles(counts, honor_letters=True) == "19m19p19sESWNPFC"
    assert format_tiles(counts, "botzone") == "W1 W9 B1 B9 T1 T9 F1 F2 F3 F4 J3 J2 J1"
    assert format_tiles(counts, "zh") == "一万 九万 一饼 九饼 一条 九条 东 南 西 北 白 发 中"
    assert format_tiles(counts, "unicode") == "".join(
        TILE_GLYPHS[t] for t in np.flatnonzero(counts)
    )
    assert format_tiles(np.zeros(34, np.uint8)) == ""
    assert format_tiles(np.stack([counts, counts])) == [format_tiles(counts)] * 2
    with pytest.raises(TileCountError):
        format_tiles(np.full(34, 5))
    with pytest.raises(InvalidHandError):
        format_tiles(np.zeros(33, int))
    with pytest.raises(InvalidHandError):
        format_tiles(counts, notation="klingon")


# --------------------------------------------------------------------------- properties

counts34 = st.lists(st.integers(0, 4), min_size=34, max_size=34).map(
    lambda c: np.array(c, dtype=np.uint8)
)


@settings(max_examples=1000)
@given(counts=counts34)
def test_round_trip_every_notation(counts):
    for notation in NOTATIONS:
        text = format_tiles(counts, notation)
        assert (parse_tiles(text) == counts).all(), notation
        assert (parse_tiles(text, notation=notation) == counts).all(), notation
    text = format_tiles(counts, honor_letters=True)
    assert "z" not in text
    assert (parse_tiles(text) == counts).all()


@settings(max_examples=1000)
@given(text=st.text())
def test_garbage_text_raises_only_invalid_hand_error(text):
    try:
        counts = parse_tiles(text)
    except InvalidHandError:
        return
    assert counts.shape == (34,) and counts.dtype == np.uint8 and counts.max(initial=0) <= 4


@settings(max_examples=1000)
@given(text=st.text(alphabet="0123456789mpszESWNPFCWBTJH ,[]+一万东中\U0001f004"))
def test_near_miss_text_raises_only_invalid_hand_error(text):
    try:
        counts = parse_tiles(text)
    except InvalidHandError:
        return
    assert (parse_tiles(format_tiles(counts)) == counts).all()


# --------------------------------------------------------------------------- flowers


def test_flowers_round_trip_every_mask():
    for mask in range(256):
        for notation in ("en", "zh", "unicode"):
            text = format_flowers(mask, notation)
            assert (parse_flowers(text) if text else 0) == mask
        assert parse_flowers(hex(mask)) == mask and parse_flowers(bin(mask)) == mask
    assert [parse_flowers(str(n)) for n in range(9)] == [(1 << n) - 1 for n in range(9)]


def test_flower_names_and_counts():
    assert FLOWER_NAMES[0] == "spring" and FLOWER_NAMES[7] == "chrysanthemum"
    assert parse_flowers("spring + plum") == 0b10001
    assert parse_flowers("Chrysanthemum") == 0x80
    assert flower_count(0b1011) == 3
    assert flower_count(np.array([0, 1, 255], np.uint8)).tolist() == [0, 1, 8]


@pytest.mark.parametrize("bad", ["9", "lotus", "spring,spring", "春春", "0x100", "0xzz", ""])
def test_bad_flowers(bad):
    with pytest.raises(InvalidHandError):
        parse_flowers(bad)


@pytest.mark.parametrize("bad", [256, -1, 1.5, True])
def test_bad_flower_mask(bad):
    with pytest.raises(InvalidHandError):
        flower_count(bad)
