"""The public scoring API: Score, BatchScore, context validation, garbage batches."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from conftest import SEED, random_hand_arrays, scaled

import mjstats
import mjstats.scorer as score_module
from mjstats import HandBatch, InvalidContextError, InvalidHandError, UnknownRulesetError
from mjstats.batch import FIELDS
from mjstats.kernels._jit import pjit
from mjstats.kernels.decompose import suit_table
from mjstats.rules import get_ruleset
from mjstats.rulesets.mcr import FANS
from mjstats.rulesets.mcr.kernel import FORM_NAMES, N_FANS, new_work, score_hand
from mjstats.scorer import BatchScore, Fan, Score
from mjstats.studies.generate_wins import generate_wins

# --------------------------------------------------------------------------- Score


def test_score_fields():
    s = mjstats.score("[123p]55m12379s789p+8s self-drawn seat=S flowers=2")
    assert isinstance(s, Score)
    assert s.total == 20 and s.legal and s.form == "regular"
    assert s.flowers == 2 and s.total_without_flowers == 18
    assert [f.key for f in s.fans] == [
        "three_suited_terminal_chows",
        "closed_wait",
        "self_drawn",
        "flower_tiles",
    ]
    fan = s.fans[0]
    assert isinstance(fan, Fan)
    assert (fan.id, fan.zh, fan.en, fan.points, fan.count) == (
        28,
        "三色双龙会",
        "Three-Suited Terminal Chows",
        16,
        1,
    )
    assert s.sets == ("[123p]", "789p", "123s", "789s", "55m")
    assert s.hand == mjstats.parse_hand("[123p]55m12379s789p+8s self-drawn seat=S flowers=2")


def test_score_text_str_and_html():
    s = mjstats.score("EEE 123m 456p 789s 9m +9m")
    text = str(s)
    assert "花龙" in text and "Mixed Straight" in text and "total 15" in text
    html = s._repr_html_()
    assert "<table>" in html and "Mixed Straight" in html and "<b>15</b>" in html


def test_score_context_keywords_and_hand_objects():
    h = mjstats.parse_hand("EEE 123m 456p 789s 9m +9m")
    assert mjstats.score(h).total == 15
    assert mjstats.score(h, seat_wind=1, round_wind=2).total == 12  # 东 is then 幺九刻
    assert mjstats.score("EEE 123m 456p 789s 9m +9m", self_drawn=True).total == 17
    with pytest.raises(InvalidHandError):
        mjstats.score(np.zeros(34))


@pytest.mark.parametrize(
    ("text", "form", "sets"),
    [
        ("1133m5577p99s115z+5z", "seven_pairs", ("11m", "33m", "55p", "77p", "99s", "11z", "55z")),
        (
            "2233445566778s+8s",
            "seven_shifted_pairs",
            ("22s", "33s", "44s", "55s", "66s", "77s", "88s"),
        ),
        ("19m19p19s1234567z+7z", "thirteen_orphans", ("19m19p19s12345677z",)),
        ("147m258p369s1234z+5z", "honors_knitted", ("147m258p369s12345z",)),
        ("14m258p36s123456z+7z", "greater_honors_knitted", ("14m258p36s1234567z",)),
        ("12369m258p13347s+3m", "knitted_straight", ("369m258p147s", "123m", "33s")),
        ("1112345678999m+1m", "nine_gates", ("11112345678999m",)),
        ("{2222m}[5555m]456789p1s+1s", "regular", ("{2222m}", "[5555m]", "456p", "789p", "11s")),
    ],
)
def test_forms_and_sets(text, form, sets):
    s = mjstats.score(text)
    assert (s.form, s.sets) == (form, sets)
    assert FORM_NAMES.index(form) > 0


def test_not_complete_is_not_an_error():
    for text in ("123m456p789s11z22z", "123m456p789s11z23z+3z"):
        s = mjstats.score(text)
        assert (s.total, s.legal, s.fans, s.form, s.sets) == (-1, False, [], "none", ())
        assert "not a complete hand" in str(s) and "not a complete hand" in s._repr_html_()


def test_minimum_and_flower_option():
    text = "11m555p789p123s99s+1m flowers=4"  # T11: 4 fan + 4 flowers
    assert mjstats.score(text).total == 8
    assert not mjstats.score(text).legal
    botzone = get_ruleset("mcr", flowers_count_toward_minimum=True)
    assert mjstats.score(text, ruleset=botzone).legal


def test_unknown_rulesets():
    with pytest.raises(UnknownRulesetError):
        mjstats.score("123m456p789s23s99m+1s", ruleset="riichi")
    with pytest.raises(ValueError, match="no option"):
        get_ruleset("mcr", no_such_option=True)


# --------------------------------------------------------------------------- context

CONTRADICTIONS = [
    # T37: self-drawn kong win (杠上开花) without a kong
    ("1233m456p789p111s+3m self-drawn kong-win", "杠上开花"),
    # robbing a kong of a tile held elsewhere: concealed, or in a meld
    ("12344m456p789p11s+4m kong-win", "抢杠和"),
    ("[234m]12m456p789p99s+3m kong-win", "抢杠和"),
    ("[567m]12m456p789p99s+3m kong-win", None),  # 3m not in the meld: fine
    ("[222m]34m456p789p11s+2m kong-win", "抢杠和"),  # in a pung meld
    ("[111m]34m456p789p11s+2m kong-win", None),
    ("[2222m]34m456p789p11s+5m self-drawn kong-win", None),  # 杠上开花 with a kong
    # T15: last of its kind while another copy is concealed
    ("1233m456p789p111s+3m last-of-kind", "和绝张"),
]


@pytest.mark.parametrize(("text", "problem"), CONTRADICTIONS)
def test_context_contradictions(text, problem):
    if problem is None:
        assert mjstats.score(text).total > 0
        return
    with pytest.raises(InvalidContextError, match=problem):
        mjstats.score(text)
    hands = ["123m456p789s23s99m+1s", text]
    with pytest.raises(InvalidContextError, match=f"row 1: .*{problem}"):
        mjstats.score_batch(HandBatch.from_hands(hands))


def test_context_the_hand_settles_is_derived():
    # T16: the melds show the other three 6m: 和绝张 without the flag
    s = mjstats.score("[666m]45m456789p11s+6m")
    assert "last_tile" in {f.key for f in s.fans} and s.total == 9
    # robbing a kong also wins the last copy: 和绝张 is not added to 抢杠和
    s = mjstats.score("12m456p789p111s99s+3m last-of-kind kong-win")
    assert {"robbing_the_kong"} <= {f.key for f in s.fans}
    assert "last_tile" not in {f.key for f in s.fans}


def test_kernel_repairs_contradictions_like_the_reference():
    """Below the public boundary the kernel repairs flags as the reference does:
    T15 (和绝张 with another copy in hand) and T37 (杠上开花 without a kong)."""
    h = mjstats.parse_hand("1233m456p789p111s+3m")
    batch = HandBatch.from_hands([h])
    arrays = {k: np.array(getattr(batch, k)) for k in FIELDS}  # writable copies
    plain = score_module._run(arrays, get_ruleset("mcr"), False)[0][0]
    assert plain == 6
    arrays["last_of_kind"][:] = True  # T15: dropped
    assert score_module._run(arrays, get_ruleset("mcr"), False)[0][0] == 6
    arrays["last_of_kind"][:] = False
    arrays["self_drawn"][:] = True
    arrays["kong_win"][:] = True  # T37: 杠上开花 dropped, self-drawn scores
    total, fans, *_ = score_module._run(arrays, get_ruleset("mcr"), False)
    keys = {FANS[f].key for f in np.flatnonzero(fans[0])}
    assert total[0] == 8 and "out_with_replacement_tile" not in keys


# --------------------------------------------------------------------------- batches


def test_batch_result_shapes_and_table():
    b = HandBatch.from_hands(
        ["[123p]55m12379s789p+8s", "123m456p789s11z22z", "111z222z333z55z66z+6z flowers=1"]
    )
    r = mjstats.score_batch(b)
    assert isinstance(r, BatchScore) and len(r) == 3
    assert r.total.dtype == np.int16 and r.total.tolist() == [17, -1, 101]
    assert r.fan_counts.dtype == np.uint8 and r.fan_counts.shape == (3, len(FANS))
    assert r.legal.dtype == np.bool_ and r.legal.tolist() == [True, False, True]
    assert r.form.dtype == np.uint8 and r.form.tolist() == [1, 0, 1]
    assert list(r.fans.columns[:1]) == ["id"]
    assert {"id", "zh", "en", "points"} <= set(r.fans.columns)
    assert r.fans.loc[28, "zh"] == "三色双龙会" and r.fans.loc[81, "points"] == 5
    assert (r.fan_counts[1] == 0).all()
    frame = r.to_frame()
    assert isinstance(frame, pd.DataFrame) and len(frame) == 3
    assert frame["form"].tolist() == ["regular", "none", "regular"]
    assert frame["flowers"].tolist() == [0, 0, 1]
    assert frame.loc[0, "three_suited_terminal_chows"] == 1
    assert list(r.to_frame("none").columns) == ["total", "legal", "form", "flowers"]
    assert "BatchScore" in repr(r)
    with pytest.raises(ValueError):
        r.to_frame("some")


@pytest.mark.parametrize("flowers_count", [False, True])
def test_batch_legal_is_the_minimum_rule(flowers_count):
    # the kernel decides legality; here it is recomputed from the totals and fan
    # counts by the rule's definition: complete, and at least `minimum` points,
    # flower points counted only under the option
    rs = get_ruleset("mcr", flowers_count_toward_minimum=flowers_count)
    r = mjstats.score_batch(HandBatch(**generate_wins(scaled(3000), SEED).as_dict()), ruleset=rs)
    flower_points = sum(
        r.fan_counts[:, rs.fan_id(k)].astype(np.int32) * int(rs.points[rs.fan_id(k)])
        for k in rs.flower_fans
    )
    base = r.total.astype(np.int32) - (0 if flowers_count else flower_points)
    expect = (r.total >= 0) & (base >= rs.minimum)
    assert (r.legal == expect).all()
    # the sample holds hands the option decides: below the minimum without their flowers
    decided = (r.total >= rs.minimum) & (r.total - flower_points < rs.minimum)
    assert decided.any() and r.legal[decided].all() == flowers_count


def test_batch_equals_single_hand_scores():
    w = generate_wins(scaled(300), SEED)
    batch = HandBatch(**w.as_dict())
    r = mjstats.score_batch(batch)
    for i in range(len(batch)):
        s = mjstats.score(batch[i])
        assert s.total == r.total[i]
        assert {f.id: f.count for f in s.fans} == {
            int(f): int(r.fan_counts[i, f]) for f in np.flatnonzero(r.fan_counts[i])
        }
        assert FORM_NAMES[r.form[i]] == s.form


def test_batch_from_texts_and_empty():
    r = mjstats.score_batch(["[123p]55m12379s789p+8s"])
    assert r.total.tolist() == [17]
    empty = mjstats.score_batch(HandBatch(concealed=np.zeros((0, 34), np.uint8)))
    assert len(empty) == 0 and empty.fan_counts.shape == (0, len(FANS))
    with pytest.raises(InvalidHandError):
        mjstats.score_batch("123m456p789s23s99m+1s")


def test_mixed_garbage_batch_never_crashes(rng):
    """Complete, incomplete and waiting hands score (or -1); malformed rows raise
    InvalidHandError at validation, naming the first bad row."""
    n = scaled(4000)
    arrays = random_hand_arrays(rng, n)  # valid: waiting and random (mostly incomplete)
    arrays["kong_win"][:] = False
    arrays["last_of_kind"][:] = False
    wins = generate_wins(n, SEED + 5).as_dict()
    mixed = {k: np.concatenate([arrays[k], wins[k]]) for k in arrays}
    r = mjstats.score_batch(HandBatch(**mixed))
    waiting = mixed["win_tile"] == 255
    assert (r.total[waiting] == -1).all()
    assert (r.total[n:] > 0).all()
    assert ((r.total == -1) == (r.form == 0)).all()
    assert (r.fan_counts[r.total == -1] == 0).all()
    # garbage: each kind of bad row is rejected, never crashes the kernel
    garbage = [
        ("concealed", lambda a: a.__setitem__((7, 3), 5)),
        ("concealed", lambda a: a.__setitem__((9, 0), 200)),
        ("melds", lambda a: a.__setitem__((11, 0), (1, 8))),  # chow 9-10-11
        ("melds", lambda a: a.__setitem__((12, 0), (9, 0))),  # kind 9
        ("win_tile", lambda a: a.__setitem__(13, 40)),
        ("seat_wind", lambda a: a.__setitem__(14, 7)),
    ]
    for field, spoil in garbage:
        bad = {k: v.copy() for k, v in mixed.items()}
        spoil(bad[field])
        with pytest.raises(InvalidHandError, match="row "):
            mjstats.score_batch(HandBatch(**bad))
    junk = rng.integers(0, 5, size=(200, 34)).astype(np.uint8)
    with pytest.raises(InvalidHandError):
        HandBatch(concealed=junk, win_tile=0)


# --------------------------------------------------------------------------- from other kernels


@pjit
def _user_kernel(concealed, melds, win, table, out):
    """A study's own parallel loop calling the per-hand kernel with its own scratch."""
    n = concealed.shape[0]
    for c in range(2):  # numba.prange in a real study; two chunks, own scratch each
        work = new_work(table)
        fans = np.zeros(N_FANS, np.uint8)
        for i in range(c, n, 2):
            total, _ = score_hand(
                concealed[i], melds[i], win[i], False, False, False, False, 0, 0, 3, work, fans
            )
            out[i] = total


def test_per_hand_kernel_callable_from_user_jit_code():
    w = generate_wins(500, SEED, "concealed")
    out = np.zeros(len(w), np.int64)
    batch = HandBatch(concealed=w.concealed, melds=w.melds, win_tile=w.win_tile)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # read-only arrays (as in a HandBatch) reuse score_batch's compiled specialization
        _user_kernel(batch.concealed, batch.melds, batch.win_tile, suit_table(), out)
    w.self_drawn[:] = False
    w.last_of_kind[:] = False
    w.kong_win[:] = False
    w.last_of_wall[:] = False
    w.seat_wind[:] = 0
    w.round_wind[:] = 0
    w.flowers[:] = 0
    ref = mjstats.score_batch(HandBatch(**w.as_dict())).total
    assert (out == ref).all()


def test_kernel_form_codes_match_the_ruleset():
    from mjstats.rulesets.mcr import RULESET

    assert FORM_NAMES == RULESET.forms
