"""The one-hand path of ``mjstats.score``: the same results and errors as the batch path.

``score(text)`` parses with ``parse_hand``'s own grammar, packs the hand into one
row and makes one kernel call (its binding's ``score_single``:
:func:`mjstats.rulesets.mcr.binding.score_single`, ...) for the checks every
ruleset shares and the score; fans, the reading and the
Hand are made on first read. These tests hold it to ``score_batch`` (the batch
kernel, context checks and validation) on real hands (the Botzone records of
``tests/data/botzone``), generated hands of every form and two-player hands, and
to the errors of the path it replaced: ``parse_hand`` then the batch checks,
whose messages differ only by the batch's ``row 0:`` prefix.
"""

from __future__ import annotations

import copy
import dataclasses
import importlib
import pickle
import random
from pathlib import Path

import numpy as np
import pytest
from conftest import SEED, scaled
from hypothesis import given, settings
from hypothesis import strategies as st
from test_two_player_props import random_two_player_hand

import mjstats
from mjstats import HandBatch, InvalidHandError, parse_hand
from mjstats.records import read_botzone
from mjstats.rules import get_ruleset
from mjstats.studies.generate_wins import generate_wins

score_module = importlib.import_module("mjstats.scorer")
DATA = Path(__file__).parent / "data" / "botzone"
RULESETS = ["mcr", "mcr:wmo-2014", get_ruleset("mcr", mingan_gang=False)]


def real_texts() -> list[str]:
    """Every win of the Botzone records in tests/data (the text sample and the judge logs)."""
    texts = read_botzone(DATA / "sample.txt").batch.to_text()
    for path in sorted((DATA / "judge-logs").glob("*.json")):
        texts += read_botzone(path).batch.to_text()
    return texts


def batch_reference(hands: list, ruleset) -> list[tuple]:
    """(total, legal, form, fan counts, sets) of each hand from the batch path: the
    batch kernel's scores and its reading (``want_sets``), formatted as ``score`` does."""
    from mjstats.batch import FIELDS

    rs = score_module._resolve(ruleset)
    batch = HandBatch.from_hands(hands)
    r = mjstats.score_batch(batch, ruleset=rs)
    arrays = {name: getattr(batch, name) for name in FIELDS}
    _, _, _, _, sets = score_module._run(arrays, rs, want_sets=True)
    names = tuple(rs.forms)
    return [
        (
            int(r.total[i]),
            bool(r.legal[i]),
            names[int(r.form[i])],
            r.fan_counts[i].tolist(),
            score_module._format_sets(h, int(r.form[i]), sets[i], names),
        )
        for i, h in enumerate(hands)
    ]


def single(s) -> tuple:
    counts = [0] * len(get_ruleset(s.ruleset).fans)
    for f in s.fans:
        counts[f.id] = f.count
    return (s.total, s.legal, s.form, counts, s.sets)


def check_equal(texts: list[str], ruleset) -> None:
    hands = [parse_hand(t) for t in texts]
    want = batch_reference(hands, ruleset)
    for text, hand, w in zip(texts, hands, want, strict=True):
        from_text = mjstats.score(text, ruleset=ruleset)
        from_hand = mjstats.score(hand, ruleset=ruleset)
        assert single(from_text) == w, text
        assert single(from_hand) == w, text
        assert from_text.hand == hand and from_hand.hand is hand
        assert from_text == from_hand and repr(from_text) == repr(from_hand)


@pytest.mark.parametrize("ruleset", RULESETS, ids=str)
def test_real_hands_equal_the_batch(ruleset):
    texts = real_texts()
    assert len(texts) >= 30
    check_equal(texts, ruleset)


def test_generated_hands_of_every_form_equal_the_batch():
    wins = generate_wins(scaled(1500), SEED + 11).as_dict()
    texts = HandBatch(**wins).to_text()
    forms = {mjstats.score(t).form for t in texts}
    assert {"regular", "seven_pairs", "thirteen_orphans", "knitted_straight"} <= forms
    check_equal(texts, "mcr")
    check_equal(texts[: scaled(300)], "mcr:wmo-2014")


def test_waiting_and_incomplete_hands_equal_the_batch():
    check_equal(["123456789m1235p", "123m456p789s11z22z+2z", "1112345678999m+9m"], "mcr")


def test_two_player_hands_equal_the_batch():
    r = random.Random(SEED)
    hands = [random_two_player_hand(r) for _ in range(scaled(400))]
    texts = [str(h) for h in hands]
    check_equal(texts, "two-player")


def test_context_keywords_override_like_parse_hand():
    text = "EEE 123m 456p 789s 9m +9m"
    for ctx in ({"self_drawn": True}, {"seat_wind": 1, "round_wind": "W"}, {"flowers": 3}):
        hand = parse_hand(text, **ctx)
        assert mjstats.score(text, **ctx) == mjstats.score(hand)
        assert mjstats.score(parse_hand(text), **ctx) == mjstats.score(hand)
        assert single(mjstats.score(text, **ctx)) == batch_reference([hand], "mcr")[0]


def test_lazy_score_behaves_like_a_plain_one():
    s = mjstats.score("[123p]55m12379s789p+8s self-drawn seat=S flowers=2")
    plain = score_module.Score(
        s.total, s.legal, list(s.fans), s.form, tuple(s.sets), s.hand, s.ruleset
    )
    fresh = mjstats.score("[123p]55m12379s789p+8s self-drawn seat=S flowers=2")
    assert fresh == plain and repr(fresh) == repr(plain) and str(fresh) == str(plain)
    fresh = mjstats.score("[123p]55m12379s789p+8s self-drawn seat=S flowers=2")
    assert pickle.loads(pickle.dumps(fresh)) == plain
    assert copy.deepcopy(mjstats.score(s.hand)) == plain
    assert dataclasses.replace(fresh, total=1).fans == plain.fans
    assert dataclasses.asdict(fresh)["sets"] == plain.sets
    with pytest.raises(dataclasses.FrozenInstanceError):
        fresh.fans = []


# --------------------------------------------------------------------------- errors


def reference_outcome(hand_or_text, ruleset="mcr", **ctx):
    """What the replaced path gave: parse_hand (or Hand.replace), then the batch
    checks and kernel on the one hand (its messages without the ``row 0:`` prefix)."""
    try:
        if isinstance(hand_or_text, str):
            hand = parse_hand(hand_or_text, **ctx)
        else:
            hand = hand_or_text.replace(**ctx) if ctx else hand_or_text
        rs = score_module._resolve(ruleset)
        want = batch_reference([hand], rs)[0]
    except (InvalidHandError, TypeError) as exc:
        return type(exc), str(exc).removeprefix("row 0: ")
    return want


def outcome(hand_or_text, ruleset="mcr", **ctx):
    try:
        return single(mjstats.score(hand_or_text, ruleset=ruleset, **ctx))
    except (InvalidHandError, TypeError) as exc:
        return type(exc), str(exc)


BAD = [
    ("123m456p789s11z22z+2z kong", {}),  # 抢杠和 of a tile held in the hand
    ("[2222z]123m456p789s1z+2z", {"kong_win": True}),  # robbing the kong the hand holds
    ("123m456p789s11z22z+2z", {"kong_win": True, "self_drawn": True}),  # 杠上开花 without a kong
    ("123m456p789s11z22z+2z", {"last_of_kind": True}),  # 和绝张 with another copy concealed
    ("123m456p789s1122z+1z", {"last_of_kind": True}),
    ("[5555p]55p123m456s78s+9s", {}),  # six copies counting the meld
    ("[123m]111m123m456s8s+8s", {}),  # five copies of 1m counting the chow
    ("{1111z}[111z]1m23m456s+7s", {}),
    ("12m", {}),
    ("123m456p789s11z22z+2z 自摸 抢杠和", {}),
    ("123m456p789s11z22z+2z", {"seat_wind": 7}),
    ("123m456p789s11z22z+2z", {"bogus": 1}),
    ("123m456p789s11z22z+2x", {}),
    ("123m456p789s11z22z+2z", {"flowers": 256}),
]
TWO_PLAYER_BAD = [
    ("123456789m123p5m+5m", {}),  # a dots tile
    ("123456789m123m5m+5m", {"seat_wind": 1}),
    ("123456789m123m5m+5m", {"round_wind": 2}),
    ("123456789m123m5m+5m", {"situation": 32}),
    ("123456789m123m5m+5m", {"situation": 3}),
    ("123456789m123m5m+5m", {"situation": 1, "seat_wind": 2, "self_drawn": True}),
    ("123456789m123m5m+5m kong", {}),  # the shared check runs first
]


@pytest.mark.parametrize(("text", "ctx"), BAD)
def test_errors_are_those_of_the_old_path(text, ctx):
    want = reference_outcome(text, **ctx)
    assert isinstance(want[0], type), "the case must be an error"
    assert outcome(text, **ctx) == want
    if "bogus" not in ctx:
        try:
            hand = parse_hand(text)
        except InvalidHandError:
            return
        assert outcome(hand, **ctx) == reference_outcome(hand, **ctx)


@pytest.mark.parametrize(("text", "ctx"), TWO_PLAYER_BAD)
def test_two_player_errors_are_those_of_the_old_path(text, ctx):
    want = reference_outcome(text, "two-player", **ctx)
    assert isinstance(want[0], type), "the case must be an error"
    assert outcome(text, "two-player", **ctx) == want
    assert outcome(parse_hand(text, **ctx), "two-player") == want


def test_a_hand_changed_behind_the_api_is_refused():
    hand = parse_hand("123m456p789s11z22z+2z")
    bad = copy.copy(hand)
    object.__setattr__(bad, "melds", (mjstats.Meld.chow("1m"),))
    object.__setattr__(bad.melds[0], "tile", 200)
    with pytest.raises(InvalidHandError, match="out of range"):
        mjstats.score(bad)
    bad = copy.copy(hand)
    object.__setattr__(bad, "concealed", np.zeros(35, np.uint8))
    with pytest.raises(InvalidHandError, match="out of range"):
        mjstats.score(bad)
    bad = copy.copy(hand)
    counts = hand.concealed.copy()
    counts[0] = 9
    object.__setattr__(bad, "concealed", counts)
    with pytest.raises(InvalidHandError, match="out of range"):
        mjstats.score(bad)


_ALPHABET = "123456789mpsz0 []{}+EWCF中万" + "x"
_KEYWORDS = ["", " tsumo", " kong", " last-of-kind", " after-kong", " robbing-kong", " seat=S"]


@settings(max_examples=scaled(300), deadline=None)
@given(
    st.sampled_from(real_texts()),
    st.lists(st.tuples(st.integers(0, 40), st.sampled_from(_ALPHABET), st.integers(0, 2))),
    st.sampled_from(_KEYWORDS),
    st.fixed_dictionaries(
        {},
        optional={
            "self_drawn": st.booleans(),
            "kong_win": st.booleans(),
            "last_of_kind": st.booleans(),
            "seat_wind": st.integers(0, 4),
        },
    ),
)
def test_mutated_text_gives_the_old_outcome(text, edits, keyword, ctx):
    for at, ch, op in edits:  # insert, replace or delete one character
        at = min(at, len(text))
        text = text[:at] + (ch if op < 2 else "") + text[at + (op > 0) :]
    text += keyword
    assert outcome(text, **ctx) == reference_outcome(text, **ctx)


def test_the_packed_row_layout_is_the_kernels():
    from mjstats.kernels import scoring

    assert score_module._ROW_SIZE == scoring.ROW_SIZE
    assert score_module._SETS_SIZE == scoring.SETS_SIZE
    fields = score_module._ROW_FIELDS
    assert fields["melds"][0] == scoring.ROW_MELDS and fields["win_tile"][0] == scoring.ROW_WIN
    assert fields["self_drawn"][0] == scoring.ROW_FLAGS
    assert fields["seat_wind"][0] == scoring.ROW_VALUES
    assert fields["situation"][1] == scoring.ROW_SIZE


# one hand of each form, and hands of a special form's shape that are regular
FORM_TEXTS = [
    "1112345678999m+5m",  # nine gates
    "1122334455667p+7p",  # seven shifted pairs
    "1133m5577p99s112z+2z",  # seven pairs
    "112233m445566p7s+7s",  # seven pairs and regular (the tie order decides)
    "19m19p19s1234567z+1m",  # thirteen orphans
    "147m258p1234567z+3s",  # greater honours and knitted tiles
    "147m258p369s1234z+5z",  # lesser, with knitted straight
    "147m258p369s123m5z+5z",  # knitted straight + a chow
    "[789p]147m258p369s1z+1z",  # knitted straight + a meld
    "1112223334445m+5m",  # one suit, no meld, regular
    "[123p]55m12379s789p+8s",  # regular with a meld
    "123456789m1235p",  # incomplete
]


def test_common_forms_entry_scores_alike_or_hands_over():
    """MCR's score_single without all_forms (the first compile of mjstats.score) gives
    the full entry's result for every hand it scores and hands over every hand of
    a special form; score() equals the batch on all of them."""
    from mjstats.kernels.scoring import PROBLEM_ALL_FORMS
    from mjstats.rulesets.mcr.binding import score_single as score_single_mcr

    wins = generate_wins(scaled(1500), SEED + 11).as_dict()
    texts = FORM_TEXTS + HandBatch(**wins).to_text() + real_texts()
    for ruleset in RULESETS:
        one = score_module._one(ruleset)
        assert one.entry is score_single_mcr
        forms, handed_over, scored = set(), 0, 0
        for text in texts:
            fields = score_module._parse_fields(text)
            fields["melds"] = score_module._sorted_melds(fields["melds"])
            row = score_module._text_row(fields)
            out_full = np.zeros(one.n_fans + score_module._SETS_SIZE, np.uint8)
            out_common = out_full.copy()
            full = score_single_mcr(row, *one.args, out_full, True)
            common = score_single_mcr(row, *one.args, out_common)
            assert full[0] != PROBLEM_ALL_FORMS, text
            forms.add(one.forms[full[2]])
            if common[0] == PROBLEM_ALL_FORMS:
                handed_over += 1
            else:
                scored += 1
                assert one.forms[full[2]] in ("regular", "none"), text
                assert common == full, text
                np.testing.assert_array_equal(out_common, out_full, err_msg=text)
        assert forms == set(one.forms), forms
        assert handed_over >= 10 and scored >= 100
    check_equal(FORM_TEXTS, "mcr")
