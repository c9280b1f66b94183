"""HandBatch: layout, construction, indexing, conversion, validation of bad rows."""

from __future__ import annotations

import copy
import pickle
import time

import numpy as np
import pytest
from conftest import SEED, hands, random_hand_arrays
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import mjstats
from mjstats.batch import FIELDS, HandBatch
from mjstats.errors import (
    InvalidContextError,
    InvalidHandError,
    InvalidMeldError,
    InvalidTileError,
    TileCountError,
)
from mjstats.hand import Hand, MeldKind, parse_hand
from mjstats.tiles import NO_TILE, parse_tiles

TEXTS = [
    "[123p]55m12379s789p+8s self-drawn",
    "{1111z}[5555p]123m789s1s+1s seat=S round=W flowers=3",
    "1112345678999m",  # waiting
    "[123m][456m][789m][777z]5p+5p last-of-kind situation=9",
]


@pytest.fixture
def batch() -> HandBatch:
    return HandBatch.from_hands(TEXTS)


# --------------------------------------------------------------------------- layout


def test_layout_contract(batch):
    expected = {
        "concealed": ("uint8", (4, 34)),
        "melds": ("uint8", (4, 4, 2)),
        "win_tile": ("uint8", (4,)),
        "self_drawn": ("bool", (4,)),
        "last_of_kind": ("bool", (4,)),
        "kong_win": ("bool", (4,)),
        "last_of_wall": ("bool", (4,)),
        "seat_wind": ("uint8", (4,)),
        "round_wind": ("uint8", (4,)),
        "flowers": ("uint8", (4,)),
        "situation": ("uint8", (4,)),
    }
    assert {f: (getattr(batch, f).dtype.name, getattr(batch, f).shape) for f in FIELDS} == expected
    assert batch.nbytes_per_hand == 51 <= 64
    assert batch.nbytes == 4 * 51
    assert all(getattr(batch, f).flags.c_contiguous for f in FIELDS)


def test_fields_hold_the_hands(batch):
    assert batch.win_tile.tolist() == [25, 18, NO_TILE, 13]
    assert batch.is_waiting.tolist() == [False, False, True, False]
    assert batch.melds[1].tolist() == [[3, 13], [4, 27], [0, 0], [0, 0]]  # sorted by tile
    assert batch.n_melds.tolist() == [1, 2, 0, 4]
    assert batch.self_drawn.tolist() == [True, False, False, False]
    assert batch.seat_wind.tolist() == [0, 1, 0, 0] and batch.round_wind.tolist() == [0, 2, 0, 0]
    assert batch.flowers.tolist() == [0, 7, 0, 0] and batch.flower_count.tolist() == [0, 3, 0, 0]
    assert batch.situation.tolist() == [0, 0, 0, 9]
    assert (batch.concealed[0] == parse_hand(TEXTS[0]).concealed).all()


def test_keyword_constructor_defaults_and_broadcast():
    c = np.tile(parse_tiles("123456789m12355p"), (3, 1))
    b = HandBatch(concealed=c, win_tile=13, seat_wind=[0, 1, 2], flowers=np.uint8(3))
    assert b.win_tile.tolist() == [13] * 3 and b.seat_wind.tolist() == [0, 1, 2]
    assert b.flowers.tolist() == [3] * 3 and not b.self_drawn.any() and not b.melds.any()
    waiting = HandBatch(concealed=np.tile(parse_tiles("123456789m1235p"), (2, 1)))
    assert waiting.is_waiting.all()  # win_tile omitted: waiting hands
    with pytest.raises(TypeError):
        HandBatch(np.tile(parse_tiles("123456789m12355p"), (3, 1)))  # keyword-only


def test_batch_owns_read_only_arrays():
    c = np.tile(parse_tiles("123456789m12355p"), (2, 1))
    b = HandBatch(concealed=c, win_tile=13)
    c[0, 0] = 4  # the caller's array is copied
    assert b.concealed[0, 0] == 1
    with pytest.raises(ValueError):
        b.concealed[0, 0] = 2
    with pytest.raises(AttributeError, match="replace"):
        b.win_tile = np.zeros(2, np.uint8)


def test_melds_are_stored_in_canonical_order():
    c = np.stack([parse_tiles("55m12379s789p8s")] * 2)
    melds = np.zeros((2, 3, 2), np.int64)
    melds[:, 2] = (MeldKind.CHOW, 9)  # third slot of three: moved to slot 0, padded to 4
    b = HandBatch(concealed=c, melds=melds, win_tile=25)
    assert b.melds[:, 0].tolist() == [[1, 9], [1, 9]] and not b.melds[:, 1:].any()
    assert str(b[0]) == "[123p]55m789p12379s+8s"
    c = np.stack([parse_tiles("55m")] * 2)
    melds = [[[2, 27], [1, 9], [3, 0], [4, 33]], [[4, 33], [3, 0], [2, 27], [1, 9]]]
    b = HandBatch(concealed=c, melds=melds, win_tile=4)
    assert b.melds.tolist() == [[[3, 0], [1, 9], [2, 27], [4, 33]]] * 2
    assert b.equals(HandBatch.from_hands(b.to_hands()))


# --------------------------------------------------------------------------- container


def test_indexing(batch):
    assert isinstance(batch[0], Hand) and str(batch[0]) == str(parse_hand(TEXTS[0]))
    assert batch[-1] == batch[3]
    assert batch[np.int64(2)].is_waiting
    sub = batch[1:3]
    assert isinstance(sub, HandBatch) and len(sub) == 2 and sub[0] == batch[1]
    assert batch[batch.is_waiting].to_text() == ["1112345678999m"]
    assert batch[[3, 0]].to_text() == [batch.to_text()[3], batch.to_text()[0]]
    assert len(batch[::-1]) == 4 and batch[::-1][0] == batch[3]
    with pytest.raises(IndexError):
        batch[4]
    with pytest.raises(IndexError):
        batch[-5]
    with pytest.raises(TypeError):
        batch[0, 1]
    assert [h for h in batch] == batch.to_hands()


def test_concat_replace_equals_repr(batch):
    both = HandBatch.concat([batch, batch[:2]])
    assert len(both) == 6 and both[4] == batch[0]
    assert len(HandBatch.concat([])) == 0
    with pytest.raises(TypeError):
        HandBatch.concat([batch, TEXTS])
    assert batch.equals(HandBatch.from_hands(batch.to_hands()))
    changed = batch.replace(seat_wind=3)
    assert changed.seat_wind.tolist() == [3] * 4 and not changed.equals(batch)
    with pytest.raises(InvalidContextError):
        batch.replace(seat_wind=4)
    with pytest.raises(TypeError):
        batch.replace(colour=1)
    assert repr(batch).splitlines()[:2] == [
        "HandBatch(4 hands: 3 winning, 1 waiting)",
        "  0: [123p]55m789p12379s+8s self-drawn",
    ]
    assert repr(HandBatch.concat([batch] * 2)).endswith("  ...")


def test_pickle_and_copy(batch):
    for clone in (pickle.loads(pickle.dumps(batch)), copy.deepcopy(batch), copy.copy(batch)):
        assert clone.equals(batch)
        assert not clone.concealed.flags.writeable
    hand = batch[0]
    clone = pickle.loads(pickle.dumps(hand))
    assert clone == hand and not clone.concealed.flags.writeable


def test_empty_batch():
    empty = HandBatch.from_hands([])
    assert len(empty) == 0 and empty.to_hands() == [] and empty.concealed.shape == (0, 34)
    assert len(HandBatch(concealed=np.zeros((0, 34), np.uint8))) == 0


def test_from_hands_rejects_non_hands():
    with pytest.raises(InvalidHandError, match="row 1"):
        HandBatch.from_hands([TEXTS[0], 42])
    with pytest.raises(InvalidHandError, match="winning tile"):
        HandBatch.from_hands([TEXTS[0], "[123p]55m12379s789p8s"])


# --------------------------------------------------------------------------- PyMahjongGB


def test_pymahjonggb_conversion(batch):
    mahjong_gb = pytest.importorskip("MahjongGB")
    kwargs = batch.to_pymahjonggb(0)
    assert kwargs["pack"] == (("CHI", "B2", 1),) and kwargs["winTile"] == "T8"
    assert sum(p for p, _ in mahjong_gb.MahjongFanCalculator(**kwargs)) == 18
    with pytest.raises(InvalidHandError, match="waiting"):
        batch.to_pymahjonggb(2)
    winning = batch[~batch.is_waiting].replace(situation=0)
    calls = [winning.to_pymahjonggb(i) for i in range(len(winning))]
    assert HandBatch.from_pymahjonggb(calls).equals(winning)
    positional = [tuple(c.values()) for c in calls]
    assert HandBatch.from_pymahjonggb(positional).equals(winning)
    with pytest.raises(InvalidTileError, match=r"^row 1: "):
        HandBatch.from_pymahjonggb([calls[0], calls[1] | {"winTile": "X9"}])
    with pytest.raises(InvalidHandError, match=r"^row 0: "):
        HandBatch.from_pymahjonggb([{"pack": ()}])
    with pytest.raises(InvalidHandError, match=r"^row 0: "):
        HandBatch.from_pymahjonggb(["W1"])


# --------------------------------------------------------------------------- bad rows


def _rows_with(mask: np.ndarray, rng: np.random.Generator, k: int) -> np.ndarray:
    return np.sort(rng.choice(np.flatnonzero(mask), size=k, replace=False))


def _slot_of(melds: np.ndarray, r: int, kinds: tuple[int, ...]) -> int:
    return int(np.flatnonzero(np.isin(melds[r, :, 0], kinds))[0])


def _plant(a, rng, k, problem):
    """Damage ``k`` random rows of valid arrays ``a`` with one ``problem``; return the rows."""
    c, m, w = a["concealed"], a["melds"], a["win_tile"]
    winning = w != NO_TILE
    if problem == "count above 4":
        rows = _rows_with(np.ones(len(c), bool), rng, k)
        c[rows, 0] = 5
    elif problem == "negative count":
        a["concealed"] = c = c.astype(np.int16)
        rows = _rows_with(np.ones(len(c), bool), rng, k)
        c[rows, 33] = -1
    elif problem == "copies counting melds":
        has_kong = np.isin(m[:, :, 0], (3, 4)).any(axis=1)
        rows = _rows_with(has_kong & winning, rng, k)
        for r in rows:  # swap a concealed tile other than the winning tile for the kong tile
            t = m[r, _slot_of(m, r, (3, 4)), 1]
            spare = [x for x in np.flatnonzero(c[r]) if x != w[r] or c[r, x] > 1]
            c[r, spare[0]] -= 1
            c[r, t] += 1
    elif problem == "size":
        rows = _rows_with(winning, rng, k)
        for r in rows:  # drop a concealed tile, keeping the winning tile
            spare = [x for x in np.flatnonzero(c[r]) if x != w[r] or c[r, x] > 1]
            c[r, spare[0]] -= 1
    elif problem == "bad chow":
        rows = _rows_with((m[:, :, 0] == 1).any(axis=1), rng, k)
        for r in rows:
            m[r, _slot_of(m, r, (1,)), 1] = 7  # a chow 8-9-1m
    elif problem == "unknown meld kind":
        rows = _rows_with((m[:, :, 0] != 0).any(axis=1), rng, k)
        m[rows, 0, 0] = 9
    elif problem == "meld tile":
        rows = _rows_with((m[:, :, 0] != 0).any(axis=1), rng, k)
        m[rows, 0, 1] = 40
    elif problem == "win tile out of range":
        rows = _rows_with(winning, rng, k)
        w[rows] = 34
    elif problem == "win tile not held":
        rows = _rows_with(winning, rng, k)
        for r in rows:
            w[r] = np.flatnonzero(c[r] == 0)[0]
    elif problem == "seat wind":
        rows = _rows_with(np.ones(len(c), bool), rng, k)
        a["seat_wind"][rows] = 4
    elif problem == "round wind":
        rows = _rows_with(np.ones(len(c), bool), rng, k)
        a["round_wind"][rows] = 200
    else:
        raise AssertionError(problem)
    return rows


PROBLEMS = [
    ("count above 4", TileCountError, "more than 4 copies"),
    ("negative count", InvalidHandError, "negative count"),
    ("copies counting melds", TileCountError, "copies of"),
    ("size", TileCountError, "a winning hand has 14 tiles"),
    ("bad chow", InvalidMeldError, "a chow starting at 8m"),
    ("unknown meld kind", InvalidMeldError, "unknown kind 9"),
    ("meld tile", InvalidTileError, "of tile 40"),
    ("win tile out of range", InvalidTileError, "win_tile must be a tile id 0-33"),
    ("win tile not held", InvalidTileError, "not among the concealed tiles"),
    ("seat wind", InvalidContextError, "seat_wind must be 0-3"),
    ("round wind", InvalidContextError, "round_wind must be 0-3"),
]


@pytest.mark.parametrize("k", [1, 3])
@pytest.mark.parametrize(("problem", "error", "fragment"), PROBLEMS)
def test_bad_rows_are_named_and_counted(problem, error, fragment, k):
    rng = np.random.default_rng([SEED, k, len(problem)])
    a = random_hand_arrays(rng, 300)
    HandBatch(**a)  # valid before the damage
    rows = _plant(a, rng, k, problem)
    with pytest.raises(error) as info:
        HandBatch(**a)
    message = str(info.value)
    assert type(info.value) is error, message
    assert message.startswith(f"row {rows[0]}: "), message
    assert fragment in message
    assert message.endswith(f"; {k} bad rows in all") == (k > 1), message


@pytest.mark.parametrize(
    ("field", "value", "fragment"),
    [
        ("concealed", np.zeros((3, 33), np.uint8), "shape (34,) or (N, 34)"),
        ("concealed", np.zeros((3, 34), np.float64), "dtype float64"),
        ("concealed", np.zeros(34, np.uint8), "shape (N, 34) for a batch"),
        ("concealed", [[0] * 34, [0] * 34, [0] * 33], "not a regular array"),
        ("concealed", np.zeros((3, 34), object), "dtype object"),
        ("melds", np.zeros((3, 5, 2), np.uint8), "up to 4"),
        ("melds", np.zeros((2, 4, 2), np.uint8), "shape (3, 4, 2)"),
        ("melds", np.zeros((3, 4, 2), np.float32), "dtype float32"),
        ("win_tile", np.full(4, 13), "shape (3,)"),
        ("win_tile", 13.0, "integers"),
        ("self_drawn", [0, 1, 2], "booleans (or 0/1)"),
        ("self_drawn", "yes", "integers or booleans"),
        ("seat_wind", [True, False, True], "integers"),
        ("flowers", 256, "flowers must be an 8-bit mask 0-255"),
        ("situation", -1, "situation must be 8 bits 0-255"),
    ],
)
def test_bad_arrays(field, value, fragment):
    good = {"concealed": np.tile(parse_tiles("123456789m12355p"), (3, 1)), "win_tile": 13}
    with pytest.raises(InvalidHandError) as info:
        HandBatch(**(good | {field: value}))
    assert fragment in str(info.value)


# --------------------------------------------------------------------------- properties


@settings(max_examples=1000)
@given(hand_list=st.lists(hands(), max_size=3))
def test_batch_round_trips(hand_list):
    batch = HandBatch.from_hands(hand_list)
    assert batch.to_hands() == hand_list
    assert len(batch) == len(hand_list)
    again = HandBatch(**{f: getattr(batch, f) for f in FIELDS})  # validated again
    assert again.equals(batch)
    assert HandBatch.from_hands(batch.to_text()).equals(batch)
    assert HandBatch.concat([batch[:1], batch[1:]]).equals(batch)
    for i, hand in enumerate(hand_list):
        assert batch[i] == hand


_any_dtype = st.one_of(
    hnp.integer_dtypes(),
    hnp.unsigned_integer_dtypes(),
    hnp.floating_dtypes(),
    hnp.boolean_dtypes(),
    hnp.complex_number_dtypes(),
    hnp.datetime64_dtypes(),
    hnp.byte_string_dtypes(),
)
_garbage_array = hnp.arrays(_any_dtype, hnp.array_shapes(min_dims=0, max_dims=3, max_side=5))
_signed = hnp.integer_dtypes(sizes=(16, 32, 64))
_any_int = st.one_of(hnp.integer_dtypes(), hnp.unsigned_integer_dtypes())


def _shaped(shape, small):
    """Right shape: small near-miss values, or any value of any integer dtype."""
    return st.one_of(
        hnp.arrays(_signed, shape, elements=st.integers(*small)), hnp.arrays(_any_int, shape)
    )


_near_miss = {
    "concealed": _shaped((2, 34), (-1, 5)),
    "melds": _shaped((2, 4, 2), (-1, 40)),
    "win_tile": _shaped(2, (-1, 256)),
    "seat_wind": _shaped(2, (-1, 5)),
    "flowers": _shaped(2, (-1, 300)),
    "self_drawn": _shaped(2, (-1, 2)),
}
_objects = st.one_of(
    st.none(),
    st.text(max_size=3),
    st.floats(),
    st.lists(st.one_of(st.integers(-1, 5), st.none(), st.text(max_size=1)), max_size=4).map(
        lambda xs: np.array(xs, dtype=object)
    ),
)


@st.composite
def _damaged_fields(draw):
    field = draw(st.sampled_from(FIELDS))
    strategies = [_garbage_array, _objects] + (
        [_near_miss[field]] * 3 if field in _near_miss else []
    )
    return field, draw(st.one_of(*strategies))


_VALID = random_hand_arrays(np.random.default_rng(SEED), 2, waiting_share=0.5)


@settings(max_examples=1000)
@given(damaged=_damaged_fields())
def test_garbage_arrays_raise_only_invalid_hand_error(damaged):
    field, value = damaged
    try:
        batch = HandBatch(**(_VALID | {field: value}))
    except InvalidHandError:
        return
    # accepted: then it must be a valid batch of 2 that survives a round trip
    assert len(batch) == 2
    assert HandBatch.from_hands(batch.to_text()).equals(batch)


# --------------------------------------------------------------------------- speed


def test_validation_of_a_million_hands_is_fast():
    base = random_hand_arrays(np.random.default_rng(SEED), 2_000)
    reps = 500
    fields = {k: np.ascontiguousarray(np.concatenate([v] * reps)) for k, v in base.items()}
    HandBatch(**{k: v[:1000] for k, v in fields.items()})  # warm up
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        batch = HandBatch(**fields)
        best = min(best, time.perf_counter() - start)
    assert len(batch) == 1_000_000
    print(f"validated 1,000,000 hands in {best:.3f} s")
    assert best < 1.0, f"validating 1M hands took {best:.2f} s"


def test_public_name():
    assert mjstats.HandBatch is HandBatch
