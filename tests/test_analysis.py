"""mjstats.analysis: positions, their errors, and the kernels against brute force.

The brute force is written plainly here: every draw, every discard, with only the
shanten of a whole hand (:func:`mjstats.kernels.shanten.shanten_one`) and the legal
wins of :func:`mjstats.score_batch`.
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

import mjstats
from mjstats.analysis import PositionError, position
from mjstats.analysis import kernels as K
from mjstats.analysis.table import COLUMNS
from mjstats.errors import InvalidHandError
from mjstats.games.discard_policies import new_policy_work, policy_context
from mjstats.hand import Hand
from mjstats.kernels.decompose import suit_table
from mjstats.kernels.shanten import shanten_one
from mjstats.kernels.tables import get_tables
from mjstats.rulesets import get_ruleset
from mjstats.scorer import score_batch
from mjstats.tiles import parse_tile, parse_tiles

SCALE = float(os.environ.get("MJSTATS_TEST_SCALE", "1"))
N_POS = max(10, int(200 * SCALE))

TAB = get_tables()
CTX = policy_context(get_ruleset("mcr"), 0)
WORK = new_policy_work(82, suit_table())
NO_MELDS = np.zeros((4, 2), np.uint8)


# ------------------------------------------------------------------ positions
def test_position_reads_turn_and_answer():
    p = position("123m456p789s11334z", seen="4z 1z", wall_left=8)
    assert p.own_turn and p.text == "123m456p789s1133z+4z"
    assert int(p.unseen()[30]) == 2 and int(p.unseen()[27]) == 1
    q = position("[555p]1234m789s11z2z", discard="5m", from_seat=2)
    assert not q.own_turn and q.discard == 4 and q.from_seat == 2
    assert int(q.unseen()[4]) == 3 and int(q.unseen()[3]) == 3  # 5m: the discard; 4m: held


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"hand": "123m456p789s1133z"}, "holds 14 tiles"),
        ({"hand": "123m456p789s11334z", "discard": "5m"}, "answered with 13 tiles"),
        ({"hand": "1111m456p789s1133z", "seen": "1m"}, "fifth copy of 1m"),
        ({"hand": "123m456p789s1133z", "discard": "1z", "seen": "1z1z"}, "fifth copy of 1z"),
        ({"hand": "123m456p789s11334z", "wall_left": -1}, "wall_left"),
        ({"hand": "123m456p789s11334z", "wall_left": 130}, "unseen tiles"),
    ],
)
def test_position_errors_name_the_problem(kwargs, words):
    with pytest.raises(PositionError, match=words):
        position(**kwargs)
    assert issubclass(PositionError, InvalidHandError)


# ------------------------------------------------------------------ brute force
def _sh(h, n_melds=0):
    return int(shanten_one(h, n_melds, 31, TAB))


def _acc(h, unseen):
    s = _sh(h)
    total = 0
    for t in range(34):
        if unseen[t] > 0 and h[t] < 4:
            h[t] += 1
            best = _sh(h)  # the 14-tile hand: -1 complete, else its best discard's
            h[t] -= 1
            if best < s:
                total += unseen[t]
    return s, total


def _legal_total(h, w, unseen):
    """Fan total and legality of the self-drawn win of h + w, by score_batch."""
    c = h.copy()
    c[w] += 1
    last = (4 - unseen[w] - int(h[w])) == 3
    hand = Hand(c, win_tile=w, self_drawn=True, last_of_kind=last)
    res = score_batch([hand])
    return int(res.total[0]), bool(res.legal[0])


def _random_hand(rng, lo, hi):
    """A random 13-tile concealed hand of shanten lo..hi and unseen counts."""
    while True:
        wall = np.repeat(np.arange(34), 4)
        rng.shuffle(wall)
        h = np.bincount(wall[:13], minlength=34).astype(np.uint8)
        seen = np.bincount(wall[13 : 13 + rng.integers(0, 30)], minlength=34)
        if lo <= _sh(h) <= hi:
            return h, (4 - h.astype(np.int64) - seen)


def _evaluate(h, unseen):
    row = np.zeros(K.N_SLOTS, np.int64)
    totals = np.zeros(34, np.int64)
    K.evaluate_hand(h, NO_MELDS, 0, unseen, CTX, TAB, WORK, row, totals, np.zeros(34, np.int64))
    return row, totals


def _ready_hands(rng, n):
    out = []
    while len(out) < n:
        wall = np.repeat(np.arange(34), 4)
        rng.shuffle(wall)
        # a regular complete hand drawn as 4 sets + pair, then one tile removed
        h = np.zeros(34, np.uint8)
        ok = True
        for _ in range(4):
            if rng.random() < 0.5:
                s, r = rng.integers(0, 3), rng.integers(0, 7)
                for x in range(3):
                    h[9 * s + r + x] += 1
            else:
                h[rng.integers(0, 34)] += 3
        h[rng.integers(0, 34)] += 2
        if h.max() > 4:
            ok = False
        if not ok:
            continue
        held = np.flatnonzero(h)
        h[rng.choice(held)] -= 1
        seen = np.zeros(34, np.int64)
        for t in rng.integers(0, 34, size=rng.integers(0, 12)):
            if h[t] + seen[t] < 4:
                seen[t] += 1
        if _sh(h) == 0:
            out.append((h, 4 - h.astype(np.int64) - seen))
    return out


# CI size (scaled by MJSTATS_TEST_SCALE) and the full size behind the slow marker
SIZES = [
    pytest.param(N_POS, id="ci"),
    pytest.param(2000, id="full", marks=pytest.mark.slow),
]


@pytest.mark.parametrize("size", SIZES)
def test_ready_legal_useful_equals_score_batch(size):
    rng = np.random.default_rng(33)
    for h, unseen in _ready_hands(rng, size):
        row, totals = _evaluate(h, unseen)
        assert row[K.S_SHANTEN] == 0
        mask, copies, fan = 0, 0, 0
        for w in range(34):
            if (int(row[K.S_USEFUL]) >> w) & 1 and unseen[w] > 0:
                total, legal = _legal_total(h, w, unseen)
                if legal:
                    mask |= 1 << w
                    copies += unseen[w]
                    fan += unseen[w] * total
                    assert totals[w] == total
        assert (int(row[K.S_LEGAL]), int(row[K.S_LEGAL_COPIES]), int(row[K.S_LEGAL_FAN])) == (
            mask,
            copies,
            fan,
        )


def _one_shanten(rng, n):
    out = []
    for h, unseen in _ready_hands(rng, 3 * n):
        # swap one tile: many become 1-shanten
        held = np.flatnonzero(h)
        t, u = rng.choice(held), rng.integers(0, 34)
        if h[u] + (4 - unseen[u] - h[u]) >= 4 or u == t:
            continue
        g = h.copy()
        g[t] -= 1
        g[u] += 1
        un = unseen.copy()
        un[u] -= 1
        un[t] += 0  # the swapped-out tile counts as seen (discarded)
        if _sh(g) == 1 and un.min() >= 0:
            out.append((g, un))
        if len(out) == n:
            break
    return out


@pytest.mark.parametrize("size", SIZES)
def test_one_shanten_legal_useful_is_a_legal_ready_hand(size):
    rng = np.random.default_rng(34)
    for h, unseen in _one_shanten(rng, size):
        row, _ = _evaluate(h, unseen)
        mask = 0
        for t in range(34):
            if not (int(row[K.S_USEFUL]) >> t) & 1 or unseen[t] <= 0:
                continue
            h[t] += 1
            unseen[t] -= 1
            found = False
            for e in range(34):
                if h[e] == 0 or found:
                    continue
                h[e] -= 1
                if _sh(h) == 0:
                    for w in range(34):
                        if unseen[w] > 0 and h[w] < 4:
                            h[w] += 1
                            complete = _sh(h) == -1
                            h[w] -= 1
                            if complete and _legal_total(h, w, unseen)[1]:
                                found = True
                                break
                h[e] += 1
            unseen[t] += 1
            h[t] -= 1
            if found:
                mask |= 1 << t
        assert int(row[K.S_LEGAL]) == mask


def _acc_after(h, unseen, target):
    """Largest acceptance over the discards of a 14-tile hand that leave shanten target."""
    best = -1
    for e in range(34):
        if h[e]:
            h[e] -= 1
            s, a = _acc(h, unseen)
            h[e] += 1
            if s == target:
                best = max(best, a)
    return best


def test_far_legal_useful_counts_what_the_melds_bring():
    """Shanten 2 with two dragon pungs shown: 双箭刻 6 + 混一色 6 + 自摸 1 reach the
    minimum, though 混一色 alone (6 + 自摸 1) does not (the rule texts' points), so the
    characters that bring the half flush nearer are legal-useful, as the plans say."""
    t = mjstats.analyze("[555z][666z]1258m7m3p6p9s", wall_left=10, playouts=0)
    row = t.set_index("option").loc["discard 9s"]
    assert row["shanten"] == 2
    assert "混一色" in row["plans"]
    assert {"3m", "5m", "6m", "8m", "9m"} <= set(row["legal_useful"].split())


@pytest.mark.parametrize("size", SIZES)
def test_kaizen_and_second_step_by_brute_force(size):
    rng = np.random.default_rng(35)
    n = max(4, size // 6)
    for h, unseen in [_random_hand(rng, 1, 2) for _ in range(n)]:
        row, _ = _evaluate(h, unseen)
        s, a = _acc(h, unseen)
        assert (row[K.S_SHANTEN], row[K.S_USEFUL_COPIES]) == (s, a)
        kaizen, k_copies, k_best, num, den = 0, 0, 0, 0, 0
        for t in range(34):
            if unseen[t] <= 0:
                continue
            h[t] += 1
            unseen[t] -= 1
            lowers = _sh(h) < s
            if lowers:
                num += (unseen[t] + 1) * _acc_after(h, unseen, s - 1)
                den += unseen[t] + 1
            else:
                b = _acc_after(h, unseen, s)
                if b > a:
                    kaizen |= 1 << t
                    k_copies += unseen[t] + 1
                    k_best = max(k_best, b)
            unseen[t] += 1
            h[t] -= 1
        got = [int(row[i]) for i in (K.S_KAIZEN, K.S_KAIZEN_COPIES, K.S_KAIZEN_BEST)]
        assert got == [kaizen, k_copies, k_best]
        assert (int(row[K.S_SECOND_NUM]), int(row[K.S_SECOND_DEN])) == (num, den)


# ------------------------------------------------------------------ the table
def test_analyze_table_rows_match_the_kernel_columns():
    t = mjstats.analyze("123m456p789s11334z", seen="1z", wall_left=8)
    assert list(t.columns) == COLUMNS
    assert sorted(t["tile"]) == sorted(set(t["tile"])) and len(t) == 12  # one row per held kind
    best = t.iloc[0]
    assert best["option"] == "discard 4z" and best["shanten"] == 0
    # 1z: two copies held, one seen: one unseen left, its win is 和绝张
    h = parse_tiles("123m456p789s1133z")
    unseen = 4 - h.astype(np.int64) - parse_tiles("1z")
    fans = dict(x.split(":") for x in best["win_fans"].split())
    for w, total in fans.items():
        assert int(total) == _legal_total(h, parse_tile(w), unseen)[0]


def test_pung_that_reaches_a_legal_plan_ranks_first():
    # the pung of the seat wind (门风刻 2) with 碰碰和 6 and 自摸 1 reaches 8 with a ready
    # hand after one draw; pass leaves no plan: the last 2z and the other two 1p are
    # seen, so no pung of a scoring pair can join 碰碰和 (6 + 自摸 1 < 8)
    t = mjstats.analyze("[444m]11p55s88s22z37p seat=S", seen="2z1p1p", discard="2z", from_seat=2)
    assert t.set_index("kind").loc["pass", "plans"] == ""
    assert t.iloc[0]["kind"] == "pung"
    assert t.set_index("kind").loc["pass", "legal_copies"] == 0
    assert t.iloc[0]["legal_copies"] > 0


def test_chow_that_breaks_the_only_plan_ranks_pass_first():
    # pass keeps 花龙 (123m 456s 789p): 9p makes a legal ready hand; the chow 678p
    # is ready at once, but no win it waits on reaches 8 fan
    t = mjstats.analyze("[123m]456s78p55m99m2z", discard="6p", from_seat=1)
    assert t.iloc[0]["kind"] == "pass"
    chow = t[t["kind"] == "chow"].iloc[0]
    assert chow["shanten"] == 0 and chow["legal_copies"] == 0
    assert "Mixed Straight" in t.iloc[0]["plans"]


def test_batch_equals_analyze():
    hands = ["123m456p789s11334z", "2367m3345p1568s16z", "[555p]12345m789s11z+9s"]
    b = mjstats.analyze_batch(hands)
    for i, h in enumerate(hands):
        t = mjstats.analyze(h)
        got = b[b["position"] == i].sort_values(["kind", "tile"])
        want = t.assign(tile=[parse_tile(x) for x in t["tile"]]).sort_values(["kind", "tile"])
        for col in ("shanten", "useful_copies", "legal_copies", "kaizen_copies"):
            assert got[col].tolist() == want[col].tolist()


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["123m456p789s11334z", "--discard", "5m"], "answered with 13 tiles"),
        (["1111m456p789s1133z", "--visible", "1m", "--no-mc"], "a fifth copy of 1m"),
    ],
)
def test_cli_bad_position_is_one_line(args, words):
    proc = subprocess.run(
        [sys.executable, "-m", "mjstats.cli", "analyze", *args],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode != 0 and "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0]


def test_cli_claim_table(tmp_path):
    out = tmp_path / "t.csv"
    proc = subprocess.run(
        [sys.executable, "-m", "mjstats.cli", "analyze", "[444m]11p55s88s22z37p seat=S",
         "--discard", "2z", "--from-seat", "2", "--columns", "option,legal_copies",
         "--out", str(out)],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    lines = proc.stdout.splitlines()
    assert lines[1].split() == ["legal"] and lines[2].split() == ["option", "copies"]
    assert lines[3].split()[:2] == ["pung", "2z,"]
    import pandas as pd

    assert pd.read_csv(out)["kind"].tolist() == ["pung", "pass"]


# ------------------------------------------------------------------ the batch (arrays)
def _random_batch(n, seed):
    from mjstats.bench.tasks.analysis import random_positions

    p = random_positions(n, seed, melds=0.4, claims=0.3, seen=16)
    p["seat_wind"] = np.arange(n) % 4
    p["round_wind"] = (np.arange(n) // 3) % 4
    p["from_seat"] = np.where(p["discard"] >= 0, p["from_seat"], 1)
    return p


def _as_position(p, i):
    m = p["melds"][i]
    return mjstats.Position(
        concealed=p["concealed"][i],
        melds=m,
        n_melds=int((m[:, 0] > 0).sum()),
        seen=p["seen"][i],
        wall_left=0,
        seat_wind=int(p["seat_wind"][i]),
        round_wind=int(p["round_wind"][i]),
        flowers=0,
        discard=int(p["discard"][i]),
        from_seat=int(p["from_seat"][i]) if p["discard"][i] >= 0 else 0,
        text="",
    )


def _batch_call(p, **kw):
    return mjstats.analyze_batch(
        p["concealed"],
        melds=p["melds"],
        seen=p["seen"],
        discard=p["discard"],
        from_seat=p["from_seat"],
        seat_wind=p["seat_wind"],
        round_wind=p["round_wind"],
        **kw,
    )


HAND14 = parse_tiles("123m456p789s11334z")


def _mask(text):
    return sum(1 << parse_tile(t) for t in text.split())


def test_batch_arrays_equal_analyze_on_random_positions():
    # the vectorised path (arrays, melds, claims, seen tiles, winds) against analyze()
    # of each position, column by column (analyze ranks its rows; match on the option)
    n = max(30, int(300 * SCALE))
    p = _random_batch(n, 33)
    assert (p["discard"] >= 0).any() and (p["melds"][:, :, 0] > 0).any()
    b = _batch_call(p)
    assert set(b["position"]) == set(range(n))
    for i, got in b.groupby("position"):
        t = mjstats.analyze(_as_position(p, i))
        want = t.assign(
            tile=[parse_tile(x) for x in t["tile"]],
            then=[parse_tile(x) if x else -1 for x in t["then"]],
        ).set_index(["kind", "tile"])
        got = got.assign(kind=got["kind"].astype(str)).set_index(["kind", "tile"])
        assert sorted(got.index) == sorted(want.index), i
        want = want.loc[got.index]
        for col in ("then", "shanten", "useful_copies", "legal_copies", "kaizen_copies"):
            assert got[col].tolist() == want[col].tolist(), (i, col)
        np.testing.assert_array_equal(got["second_step"], want["second_step"].astype(float))
        for mask, text in (
            ("useful_mask", "useful"),
            ("legal_mask", "legal_useful"),
            ("kaizen_mask", "kaizen"),
        ):
            assert got[mask].tolist() == [_mask(x) for x in want[text]], (i, mask)


def test_batch_column_groups_equal_all_and_position_objects():
    p = _random_batch(max(20, int(120 * SCALE)), 5)
    full = _batch_call(p)
    objects = mjstats.analyze_batch([_as_position(p, i) for i in range(len(p["concealed"]))])
    assert objects.equals(full)
    for columns in ("useful", ["legal"], ["kaizen"], ["second_step"], ["legal", "kaizen"]):
        part = _batch_call(p, columns=columns)
        assert list(part.columns) == [c for c in full.columns if c in part.columns]
        assert part.equals(full[list(part.columns)]), columns
    assert list(_batch_call(p, columns="useful").columns) == [
        "position", "kind", "tile", "then", "shanten", "useful_copies", "useful_mask",
    ]  # fmt: skip


def test_batch_from_a_hand_batch():
    hands = ["123m456p789s1133z+4z", "[555p]12345m789s11z+9s seat=S"]
    hb = mjstats.HandBatch.from_hands(hands)
    assert mjstats.analyze_batch(hb).equals(mjstats.analyze_batch(hands))


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        ({"concealed": [parse_tiles("123m456p789s1133z")]}, PositionError, "row 0: a position on"),
        (
            {"concealed": [parse_tiles("123m456p789s11334z")] * 2, "discard": [-1, 4]},
            PositionError,
            "row 1: a position answering a discard holds 13",
        ),
        (
            {"concealed": [parse_tiles("1111m456p789s1133z")], "seen": parse_tiles("1m")},
            PositionError,
            "row 0: a fifth copy of 1m",
        ),
        (
            {"concealed": [parse_tiles("123m456p789s1133z")], "discard": 4, "from_seat": 0},
            PositionError,
            "from_seat must be 1",
        ),
        ({"concealed": [HAND14], "discard": 34}, PositionError, "0-33"),
        (
            {"concealed": [parse_tiles("123m456p789s11334z")], "seat_wind": 4},
            InvalidHandError,
            "seat_wind",
        ),
        ({"concealed": [[5] + [0] * 33]}, InvalidHandError, "more than 4 copies"),
        (
            {"concealed": [parse_tiles("123m456p789s11334z")], "columns": "fans"},
            ValueError,
            "'fans'",
        ),
    ],
)
def test_batch_bad_rows_name_the_row(kwargs, error, words):
    kwargs = dict(kwargs)
    concealed = np.array(kwargs.pop("concealed"))
    with pytest.raises(error, match=words):
        mjstats.analyze_batch(concealed, **kwargs)
