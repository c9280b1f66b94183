"""The batch parser (HandBatch.from_text, over mjstats.text.parse_text_fields) against parse_hand.

Every row must give what parse_hand gives: the same Hand, or the same error (type
and message) in the coerce table and the raise message. Inputs: random valid hands
in every notation with random keyword spellings, and mutated copies of them.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from conftest import SEED, hands, random_hand_arrays, scaled
from hypothesis import given, settings
from hypothesis import strategies as st

from mjstats import HandBatch, parse_hand
from mjstats.errors import InvalidHandError, TileCountError
from mjstats.kernels import parse as kernel
from mjstats.text import _Rows, _tables
from mjstats.tiles import NOTATIONS

_FLAG_SPELLINGS = {
    "self_drawn": ["self-drawn", "tsumo", "SELF_DRAWN", "自摸", "Zimo"],
    "last_of_kind": ["last-of-kind", "fourth-tile", "4th_tile", "和绝张"],
    "kong_win": ["kong-win", "kong", "KONG"],
    "last_of_wall": ["last-of-wall", "last-tile", "海底"],
}
_WIND_SPELLINGS = [["E", "east", "1z", "e"], ["S", "south", "2z"], ["W", "west", "西"], ["N", "n"]]
_ALPHABET = "0123456789mpszESWNPFCBTJ[]{}+ =-_,xM\t一中🀄"


def _expected(text):
    try:
        return parse_hand(text)
    except InvalidHandError as exc:
        return (type(exc), str(exc))


def _spell(hand, rng: np.random.Generator) -> str:
    """The hand in a random notation with random keyword spellings, in random order."""
    notation = NOTATIONS[rng.integers(len(NOTATIONS))] if rng.random() < 0.4 else "mpsz"
    body = hand.format(notation).split(" ")
    n_kw = len(hand._keywords())
    tiles = " ".join(body[: len(body) - n_kw]) if n_kw else " ".join(body)
    if notation == "mpsz" and rng.random() < 0.3:
        tiles = re.sub(r"([1-7]+)z", lambda m: "".join("ESWNPFC"[int(d) - 1] for d in m[1]), tiles)
    words = []
    for name, spellings in _FLAG_SPELLINGS.items():
        if getattr(hand, name):
            words.append(spellings[rng.integers(len(spellings))])
    if not hand.self_drawn and rng.random() < 0.2:
        words.append("discard")
    for key, value in (("seat", hand.seat_wind), ("round", hand.round_wind)):
        if value or rng.random() < 0.2:
            options = _WIND_SPELLINGS[value]
            words.append(f"{key}={options[rng.integers(len(options))]}")
    if hand.flowers:
        words.append(f"flowers={hand.flowers:#x}")
    elif rng.random() < 0.2:
        words.append("flowers=0")
    if hand.situation:
        words.append(f"situation={hand.situation}" if rng.random() < 0.7 else "situation=0x01 天胡")
    rng.shuffle(words)
    return " ".join([tiles, *words])


def _mutate(text: str, rng: np.random.Generator) -> str:
    chars = list(text)
    for _ in range(rng.integers(1, 4)):
        op = rng.integers(3)
        at = int(rng.integers(len(chars) + 1))
        ch = _ALPHABET[rng.integers(len(_ALPHABET))]
        if op == 0 or not chars:
            chars.insert(at, ch)
        elif op == 1:
            del chars[min(at, len(chars) - 1)]
        else:
            chars[min(at, len(chars) - 1)] = ch
    return "".join(chars)


def random_texts(n: int, seed: int = SEED, mutated: float = 0.3) -> list[str]:
    """``n`` hand strings: valid ones in every notation and spelling, some mutated."""
    rng = np.random.default_rng(seed)
    pool = min(n, 4000)
    batch = HandBatch(**random_hand_arrays(rng, pool))
    out = []
    hands_ = batch.to_hands()
    for i in range(n):
        text = _spell(hands_[i % pool], rng)
        out.append(_mutate(text, rng) if rng.random() < mutated else text)
    return out


def _check_identical(texts) -> tuple[HandBatch, pd.DataFrame]:
    batch, bad = HandBatch.from_text(texts, errors="coerce")
    expected = [_expected(t) for t in texts]
    bad_rows = set(bad["row"].tolist())
    assert bad_rows == {i for i, e in enumerate(expected) if isinstance(e, tuple)}
    for r, text, msg in bad.itertuples(index=False):
        assert text == texts[r] and msg == expected[r][1], (r, text)
    good = [i for i in range(len(texts)) if i not in bad_rows]
    assert batch.index is None or list(batch.index) == good
    for k, i in enumerate(good):
        assert batch[k] == expected[i], (i, texts[i])
    return batch, bad


@settings(max_examples=200)
@given(hand=hands(), seed=st.integers(0, 2**32 - 1), mutate=st.booleans())
def test_identical_to_parse_hand_property(hand, seed, mutate):
    rng = np.random.default_rng(seed)
    text = _spell(hand, rng)
    texts = [text, _mutate(text, rng) if mutate else text, str(hand)]
    _check_identical(texts)


def test_identical_to_parse_hand_random():
    _check_identical(random_texts(scaled(20_000)))


@pytest.mark.slow
def test_identical_to_parse_hand_million():
    _check_identical(random_texts(1_000_000))


def test_kernel_reads_canonical_text_itself():
    # the speed claim: canonical text never falls back to parse_hand
    rng = np.random.default_rng(SEED)
    texts = HandBatch(**random_hand_arrays(rng, 2000)).to_text()
    rows = _Rows(texts)
    n = rows.n
    out = [
        np.zeros((n, 34), np.uint8),
        np.zeros((n, 4, 2), np.uint8),
        np.zeros(n, np.uint8),
        np.zeros((n, 4), np.bool_),
        np.zeros((n, 4), np.uint8),
    ]
    status = np.ones(n, np.uint8)
    kernel.parse_rows(rows.buf, rows.starts, rows.ends, _tables(), *out, status)
    assert (status == kernel.OK).all()
    assert HandBatch.from_text(texts).to_text() == texts


def test_error_table_names_each_bad_row():
    texts = random_texts(3000, mutated=0.0)
    texts[17] = texts[17] + "x"
    texts[1234] = "123m456p789s11z+0m"
    texts[2999] = ""
    good, bad = HandBatch.from_text(texts, errors="coerce")
    assert bad["row"].tolist() == [17, 1234, 2999]
    assert len(good) == 2997 and "'0'" in bad["error"][1]
    with pytest.raises(InvalidHandError, match=r"^row 17: .*; 3 bad rows in all$"):
        HandBatch.from_text(texts)


def test_inputs_of_every_kind():
    texts = ["[123p]55m12379s789p+8s", "W1 W2 W3 B4B5B6 T7T8T9 F1F1F1 J1 +J1", "123456789m1235p"]
    ref = HandBatch.from_hands(texts)
    raw = "\r\n".join(texts).encode()
    for given_ in (
        texts,
        tuple(texts),
        np.array(texts),
        np.array([t.encode() for t in texts]),
        np.array(texts, dtype=object),
        pd.Series(texts),
        raw,
        raw + b"\r\n",
    ):
        assert HandBatch.from_text(given_).equals(ref), type(given_)
    assert len(HandBatch.from_text([])) == 0 and len(HandBatch.from_text(b"")) == 0
    for parallel in (True, False):
        batch = HandBatch.from_text(texts * 10, parallel=parallel)
        assert batch.equals(HandBatch.from_hands(texts * 10))


def test_odd_rows():
    texts = [
        "123m456p789s11z22z+2z",
        None,
        5,
        "123m\n456p789s11z22z+2z",
        "1m2m3m 中中中 456p 789s 9s +9s",
    ]
    good, bad = HandBatch.from_text(texts, errors="coerce")
    assert bad["row"].tolist() == [1, 2] and "must be a string" in bad["error"][0]
    assert good.index.tolist() == [0, 3, 4]
    _, bad = HandBatch.from_text(b"123m456p789s11z22z+2z\n\xff\xfe\n", errors="coerce")
    assert bad["row"].tolist() == [1] and "UTF-8" in bad["error"][0]
    with pytest.raises(InvalidHandError, match="parse_hand"):
        HandBatch.from_text("123m456p789s11z22z+2z")
    with pytest.raises(ValueError, match="errors"):
        HandBatch.from_text(["1m"], errors="ignore")
    with pytest.raises(TileCountError, match="row 0"):
        HandBatch.from_text(["1m"])


def test_series_index_carried():
    s = pd.Series(["123m456p789s11z22z+2z", "bad", "123456789m1235p"], index=[7, 3, 9])
    good, bad = HandBatch.from_text(s, errors="coerce")
    assert good.index.tolist() == [7, 9] and bad.index.tolist() == [3]
    assert good.to_frame().index.tolist() == [7, 9]
    assert good[1:].index.tolist() == [9]


def test_score_text_bench_task():
    from mjstats.bench import run_benchmarks

    rows = run_benchmarks(quick=True, tasks=["score_text"], scale=0.01)
    (row,) = rows
    assert row["task"] == "score_text"
    assert row["goal"] == ">= 1M hands/s and >= 5x"
    if row["peer_per_s"]:  # PyMahjongGB installed: same totals on every hand
        assert row["agree"] == f"{row['peer_n']}/{row['peer_n']}"
    assert "totals from the text equal those of the batch: " in row["note"]
    n = row["n"]
    assert f"{n}/{n}" in row["note"]
