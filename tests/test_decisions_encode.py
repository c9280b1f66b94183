"""Decisions encoded for learning (mjstats.decisions.encode) on the 40 real games.

The baseline's action index is checked against the baseline's own rule for Botzone
responses (``FeatureAgent.response2action``: a response string such as ``Chi T4 T5``,
claimed tile then middle tile), written here from its published form."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from mjstats.decisions import decision_set
from mjstats.decisions import kernel as K
from mjstats.decisions.encode import (
    ACT_SIZE,
    N_PLANES,
    P_DISCARDS,
    P_HAND,
    P_LAST,
    P_MELDS,
    P_SEAT_WIND,
    P_SHOWN,
    P_UNSEEN,
    encode_decisions,
)
from mjstats.games import kernels as G
from mjstats.games.views import V_LAST_TILE
from mjstats.tiles import BOTZONE_CODES

DATA = Path(__file__).parent / "data" / "botzone"

TILE_LIST = [f"{s}{r}" for s in "WTB" for r in range(1, 10)] + [
    "F1", "F2", "F3", "F4", "J1", "J2", "J3"]  # fmt: skip
OFFSET_TILE = {c: i for i, c in enumerate(TILE_LIST)}
OFFSET_ACT = {"Pass": 0, "Hu": 1, "Play": 2, "Chi": 36, "Peng": 99, "Gang": 133,
              "AnGang": 167, "BuGang": 201}  # fmt: skip


def response2action(response: str) -> int:
    """The baseline's ``FeatureAgent.response2action``."""
    t = response.split()
    if t[0] in ("Pass", "Hu"):
        return OFFSET_ACT[t[0]]
    if t[0] == "Chi":
        return (OFFSET_ACT["Chi"] + "WTB".index(t[1][0]) * 7 * 3 + (int(t[2][1]) - 2) * 3
                + int(t[1][1]) - int(t[2][1]) + 1)  # fmt: skip
    return OFFSET_ACT[t[0]] + OFFSET_TILE[t[1]]


_WORD = {G.A_PASS: "Pass", G.A_HU: "Hu", G.A_TSUMO: "Hu", G.A_DISCARD: "Play",
         G.A_PUNG: "Peng", G.A_KONG: "Gang", G.A_ANGANG: "AnGang",
         G.A_BUGANG: "BuGang"}  # fmt: skip


def response(a: int, claimed: int) -> str:
    kind, t = a >> 6, a & 63
    if kind == G.A_CHOW:
        return f"Chi {BOTZONE_CODES[claimed]} {BOTZONE_CODES[t]}"
    return f"{_WORD[kind]} {BOTZONE_CODES[t]}"


@pytest.fixture(scope="module")
def real():
    ds = decision_set(DATA)
    return ds, encode_decisions(ds)


def test_mask_and_action_are_the_baselines(real):
    ds, e = real
    n = len(ds)
    assert e["mask"].shape == (n, ACT_SIZE) and e["obs"].shape == (n, N_PLANES, 34)
    # every legal action its own index, by the baseline's rule; the action among them
    assert (e["mask"].sum(axis=1) == ds.rows[:, K.C_NLEGAL]).all()
    assert e["mask"][np.arange(n), e["action"]].all()
    for i in range(n):
        claimed = int(ds.seen[i, V_LAST_TILE])
        legal = [int(a) for a in ds.legal[i] if a >= 0]
        want = sorted(response2action(response(a, claimed)) for a in legal)
        assert np.flatnonzero(e["mask"][i]).tolist() == want, i
        taken = int(ds.rows[i, K.C_TAKEN])
        assert e["action"][i] == response2action(response(taken, claimed)), i
    chows = ds.rows[:, K.C_TAKEN] >> 6 == G.A_CHOW
    assert chows.sum() > 30 and ((e["action"][chows] >= 36) & (e["action"][chows] < 99)).all()


def test_planes_account_for_every_copy(real):
    ds, e = real
    o = e["obs"].astype(np.int64)
    kind = ds.rows[:, K.C_KIND]
    hand = o[:, P_HAND].sum(axis=1)
    own_melds = o[:, P_MELDS].sum(axis=1)
    assert ((hand + own_melds >= 13) & (hand + own_melds <= 18)).all()
    assert ((hand % 3 == 2) == (kind == K.D_OWN)).all()
    # the copies of each kind: held, visible to all, or unseen (own concealed kongs aside)
    total = o[:, P_HAND] + o[:, P_SHOWN] + o[:, P_UNSEEN]
    assert ((total == 4) | ((total == 0) & (o[:, P_MELDS] == 4))).all()
    assert (o[:, P_LAST].sum(axis=1) <= 1).all()
    assert (o[:, P_SEAT_WIND].sum(axis=1) == 1).all()
    # the discards of all seats: what the seat's river says, whoever decides
    assert (o[:, P_DISCARDS : P_DISCARDS + 4].sum(axis=(1, 2))
            == ds.seen[:, K.SEEN_RIVER :].astype(np.int64).sum(axis=1)).all()  # fmt: skip
    b = e["baseline"].reshape(len(ds), 6, 36).astype(np.int64)
    assert (b[:, 2:].sum(axis=(1, 2)) == hand).all() and (b[:, :2].sum(axis=2) == 1).all()
