"""The shared vectorised checks, against a naive row-by-row oracle."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import SEED, random_hand_arrays, scaled

from mjstats.errors import (
    InvalidContextError,
    InvalidHandError,
    InvalidMeldError,
    InvalidTileError,
    TileCountError,
)
from mjstats.tiles import NO_TILE, parse_tiles
from mjstats.validation import (
    as_counts34,
    as_hand_arrays,
    as_int_rows,
    as_melds,
    as_row_vector,
    fail_rows,
    hand_totals34,
)

# --------------------------------------------------------------------------- helpers


def test_fail_rows_messages():
    fail_rows(np.zeros(5, bool), "never")  # nothing bad: no exception
    with pytest.raises(InvalidHandError, match=r"^row 2: bad$"):
        fail_rows(np.array([0, 0, 1, 0], bool), "bad")
    with pytest.raises(TileCountError, match=r"^row 1: bad \(got 7\); 3 bad rows in all$"):
        fail_rows(
            np.array([0, 1, 1, 1], bool), "bad", error=TileCountError, detail=np.arange(4) * 7
        )
    with pytest.raises(InvalidHandError, match=r"^bad$"):
        fail_rows(np.array([True]), "bad", batch=False)
    with pytest.raises(InvalidHandError, match=r"^row 3: row 3 is bad; 2 bad rows in all$"):
        fail_rows(
            np.array([[0, 0], [0, 0], [0, 0], [0, 1], [1, 1]], bool), lambda r: f"row {r} is bad"
        )


def test_as_row_vector():
    assert as_row_vector(3, 2, np.uint8, "x").tolist() == [3, 3]
    assert as_row_vector([1, 0], 2, np.bool_, "f").tolist() == [True, False]
    out = as_row_vector(np.array([1, 2], np.int64), 2, np.uint8, "x")
    assert out.dtype == np.uint8 and out.flags.c_contiguous
    for bad in (1.0, "a", None, [1, 2, 3], [[1, 2]], [1, [2]], [2, 0]):
        with pytest.raises(InvalidHandError):
            as_row_vector(bad, 2, np.bool_, "f")
    with pytest.raises(InvalidHandError, match=r"outside 0\.\.255"):
        as_row_vector([300, 0], 2, np.uint8, "x")


def test_as_int_rows():
    assert as_int_rows([1, 255], 2, "w", hi=33, allowed=255).tolist() == [1, 255]
    with pytest.raises(InvalidContextError, match=r"^row 0: w must be 0-3 \(got -1\)$"):
        as_int_rows([-1, 2], 2, "w", hi=3)
    with pytest.raises(InvalidTileError, match=r"w must be 0-3 \(got 9\)$"):
        as_int_rows(9, 1, "w", hi=3, error=InvalidTileError, batch=False)
    for bad in (True, 1.5, [1.0, 2.0], np.array([1, 2], dtype=object), "3"):
        with pytest.raises(InvalidHandError):
            as_int_rows(bad, 2, "w")


def test_as_counts34():
    m, single = as_counts34(parse_tiles("123m"))
    assert m.shape == (1, 34) and single
    m, single = as_counts34(np.zeros((0, 34), np.int64))
    assert m.shape == (0, 34) and not single
    with pytest.raises(TileCountError, match=r"^row 1: counts holds more than 4 copies"):
        as_counts34(np.array([[0] * 34, [5] + [0] * 33]))
    with pytest.raises(InvalidHandError, match="negative"):
        as_counts34(np.array([-1] + [0] * 33))
    for bad in (np.zeros(33), np.zeros((2, 35), int), np.zeros((1, 1, 34), int), 3, "1m"):
        with pytest.raises(InvalidHandError):
            as_counts34(bad)
    with pytest.raises(InvalidHandError, match="regular array"):
        as_counts34([[0] * 34, [0] * 33])


def test_as_melds_pads_sorts_and_zeroes_empty_slots():
    melds = as_melds([[[0, 17], [2, 5]], [[0, 0], [0, 0]]], 2)
    assert melds.shape == (2, 4, 2) and melds.dtype == np.uint8
    assert melds[0].tolist() == [[2, 5], [0, 0], [0, 0], [0, 0]]
    unsorted = np.zeros((1, 4, 2), int)
    unsorted[0, 0] = (2, 4)
    unsorted[0, 1] = (3, 4)
    unsorted[0, 3] = (1, 0)
    assert as_melds(unsorted, 1)[0].tolist() == [[1, 0], [2, 4], [3, 4], [0, 0]]
    assert as_melds(None, 3).shape == (3, 4, 2)
    garbage_in_empty_slots = np.array([[[0, -1000], [2, 33], [0, 10**12], [0, 7]]])
    assert as_melds(garbage_in_empty_slots, 1)[0].tolist() == [[2, 33], [0, 0], [0, 0], [0, 0]]
    for dtype in (np.int8, np.uint16, np.int64, np.uint64):
        melds = np.array([[[2, 33], [1, 6]]], dtype=dtype)  # 5 * 33 overflows int8
        assert as_melds(melds, 1)[0].tolist() == [[1, 6], [2, 33], [0, 0], [0, 0]]
    assert as_melds(np.zeros((2, 0, 2), int), 2).shape == (2, 4, 2)


@pytest.mark.parametrize(
    ("slots", "error", "fragment"),
    [
        ([[5, 0]], InvalidMeldError, "meld slot 0 is of unknown kind 5"),
        ([[1, 0], [-1, 3]], InvalidMeldError, "meld slot 1 is of unknown kind -1"),
        ([[2, 34]], InvalidTileError, "meld slot 0 is a pung of tile 34"),
        ([[4, -2]], InvalidTileError, "a concealed kong of tile -2"),
        ([[1, 7]], InvalidMeldError, "chow starting at 8m"),
        ([[1, 27]], InvalidMeldError, "chow starting at 1z"),
        ([[1, 1], [1, 1], [1, 1], [1, 1], [1, 1]], InvalidHandError, "up to 4"),
    ],
)
def test_as_melds_errors(slots, error, fragment):
    melds = np.zeros((3, len(slots), 2), int)
    melds[2] = slots
    with pytest.raises(error) as info:
        as_melds(melds, 3)
    assert str(info.value).startswith("row 2: ") or error is InvalidHandError
    assert fragment in str(info.value)


def test_as_melds_rejects_wrong_input():
    for bad in (np.zeros((2, 4, 2), float), np.zeros((3, 4, 2), int), np.zeros((2, 4, 3), int)):
        with pytest.raises(InvalidHandError):
            as_melds(bad, 2)


def test_hand_totals_match_a_naive_count(rng):
    arrays = random_hand_arrays(rng, 300)
    totals = hand_totals34(arrays["concealed"], arrays["melds"])
    for r in range(300):
        expected = arrays["concealed"][r].astype(int)
        for kind, tile in arrays["melds"][r]:
            if kind == 1:
                expected[tile : tile + 3] += 1
            elif kind:
                expected[tile] += 3 if kind == 2 else 4
        assert totals[r].tolist() == expected.tolist()


# --------------------------------------------------------------------------- oracle


def naive_first_error(a: dict[str, np.ndarray]) -> tuple[type, int, int] | None:
    """Row-by-row reference of as_hand_arrays: (error class, first row, bad rows) or None.

    Checks run in the documented order; the first check with a bad row decides.
    """
    n = len(a["concealed"])

    def meld_slots(r):
        return [(int(k), int(t)) for k, t in a["melds"][r]]

    def copies(r):
        total = [int(x) for x in a["concealed"][r]]
        for k, t in meld_slots(r):
            if k == 1:
                for d in range(3):
                    total[t + d] += 1
            elif k:
                total[t] += 3 if k == 2 else 4
        return total

    def size_ok(r):
        size = int(a["concealed"][r].sum()) + 3 * sum(k != 0 for k, _ in meld_slots(r))
        return size == (13 if a["win_tile"][r] == NO_TILE else 14)

    checks = [
        (TileCountError, lambda r: max(a["concealed"][r]) > 4),
        (InvalidMeldError, lambda r: any(not 0 <= k <= 4 for k, _ in meld_slots(r))),
        (InvalidTileError, lambda r: any(k and not 0 <= t <= 33 for k, t in meld_slots(r))),
        (
            InvalidMeldError,
            lambda r: any(k == 1 and (t >= 27 or t % 9 > 6) for k, t in meld_slots(r)),
        ),
        (InvalidTileError, lambda r: not (a["win_tile"][r] <= 33 or a["win_tile"][r] == 255)),
        (InvalidContextError, lambda r: a["seat_wind"][r] > 3),
        (InvalidContextError, lambda r: a["round_wind"][r] > 3),
        (TileCountError, lambda r: max(copies(r)) > 4),
        (TileCountError, lambda r: not size_ok(r)),
        (
            InvalidTileError,
            lambda r: a["win_tile"][r] != NO_TILE and a["concealed"][r][a["win_tile"][r]] == 0,
        ),
    ]
    for error, is_bad in checks:
        bad = [r for r in range(n) if is_bad(r)]
        if bad:
            return error, bad[0], len(bad)
    return None


def _mutate(a: dict[str, np.ndarray], rng: np.random.Generator, n_mutations: int) -> None:
    n = len(a["concealed"])
    # half the time one kind of damage in several rows, to test the bad-row count
    same = rng.random() < 0.5
    kinds = np.full(n_mutations, rng.integers(7)) if same else rng.integers(7, size=n_mutations)
    for what in kinds:
        r = rng.integers(n)
        if what == 0:
            a["concealed"][r, rng.integers(34)] = rng.integers(0, 7)
        elif what == 1:
            a["melds"][r, rng.integers(4), 0] = rng.integers(0, 7)
        elif what == 2:
            a["melds"][r, rng.integers(4), 1] = rng.integers(0, 40)
        elif what == 3:
            a["win_tile"][r] = rng.choice([rng.integers(0, 40), 255, 200])
        elif what == 4:
            a["seat_wind"][r] = rng.integers(0, 6)
        elif what == 5:
            a["round_wind"][r] = rng.integers(0, 6)
        else:  # a valid-looking swap of one concealed tile for another
            held = np.flatnonzero(a["concealed"][r])
            a["concealed"][r, rng.choice(held)] -= 1
            a["concealed"][r, rng.integers(34)] += 1


@pytest.mark.parametrize("case", range(150))
def test_vectorised_checks_agree_with_the_naive_oracle(case):
    rng = np.random.default_rng([SEED, case])
    a = random_hand_arrays(rng, scaled(40))
    # melds as given may have empty slots first: the oracle ignores slot order too
    _mutate(a, rng, n_mutations=int(rng.integers(0, 6)))
    expected = naive_first_error(a)
    if expected is None:
        as_hand_arrays(**a)
        return
    error, row, count = expected
    with pytest.raises(InvalidHandError) as info:
        as_hand_arrays(**a)
    message = str(info.value)
    assert type(info.value) is error, message
    assert message.startswith(f"row {row}: "), message
    assert message.endswith(f"; {count} bad rows in all") == (count > 1), message


# --------------------------------------------------------------------------- as_hand_arrays


def test_as_hand_arrays_single_hand_messages_have_no_row():
    with pytest.raises(TileCountError) as info:
        as_hand_arrays(parse_tiles("123m"), batch=False)
    assert not str(info.value).startswith("row")
    with pytest.raises(InvalidHandError, match=r"shape \(N, 34\) for a batch"):
        as_hand_arrays(parse_tiles("123m"))
    with pytest.raises(InvalidHandError, match=r"shape \(34,\)"):
        as_hand_arrays(parse_tiles("123m")[None], batch=False)


def test_as_hand_arrays_dtypes(rng):
    out = as_hand_arrays(**random_hand_arrays(rng, 5))
    assert {k: (v.dtype.name, v.shape) for k, v in out.items()} == {
        "concealed": ("uint8", (5, 34)),
        "melds": ("uint8", (5, 4, 2)),
        "win_tile": ("uint8", (5,)),
        "self_drawn": ("bool", (5,)),
        "last_of_kind": ("bool", (5,)),
        "kong_win": ("bool", (5,)),
        "last_of_wall": ("bool", (5,)),
        "seat_wind": ("uint8", (5,)),
        "round_wind": ("uint8", (5,)),
        "flowers": ("uint8", (5,)),
        "situation": ("uint8", (5,)),
    }
    assert all(v.flags.c_contiguous for v in out.values())
