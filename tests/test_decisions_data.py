"""Learning data on disk (mjstats decisions), and the suit augmentation's property."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from mjstats import shanten
from mjstats.cli import main
from mjstats.decisions import decision_set, iter_shards, write_decisions
from mjstats.decisions import kernel as K
from mjstats.decisions.augment import PERMUTATIONS, action_map, permute_encoded, tile_map
from mjstats.decisions.encode import P_HAND, encode_decisions
from mjstats.games import kernels as G

DATA = Path(__file__).parent / "data" / "botzone"


def _all(folder, **kw):
    shards = list(iter_shards(folder, **kw))
    return {k: np.concatenate([s[k] for s in shards]) for k in shards[0]}


def test_shards_are_the_same_whatever_the_split_and_threads(tmp_path):
    import numba

    a = write_decisions(tmp_path / "a", games=7, seed=5, shard_games=3)
    old = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        b = write_decisions(tmp_path / "b", games=7, seed=5, shard_games=7, compress=True)
    finally:
        numba.set_num_threads(old)
    assert [s["games"] for s in a["shards"]] == [3, 3, 1] and len(b["shards"]) == 1
    x, y = _all(tmp_path / "a"), _all(tmp_path / "b")
    assert x.keys() == y.keys() and all((x[k] == y[k]).all() for k in x)
    assert a["decisions"] == len(x["action"]) and (np.diff(x["game"]) >= 0).all()
    assert x["game"].max() == 6
    prov = json.loads((tmp_path / "a" / "provenance.json").read_text())["provenance"]
    assert prov["kind"] == "decisions" and prov["seed"] == 5 and prov["policy"] == "efficiency"
    import pandas as pd

    t = pd.read_parquet(tmp_path / "a" / a["table"])
    assert len(t) == a["decisions"] and (t["action"].to_numpy() == x["action"]).all()


def test_cli_records_to_shards(tmp_path, capsys):
    assert main(["decisions", str(DATA), "--out", str(tmp_path), "--shard-games", "16"]) == 0
    out = capsys.readouterr().out
    assert "games 40" in out
    d = _all(tmp_path)
    ds = decision_set(DATA)
    assert len(d["action"]) == len(ds)
    assert (d["n_legal"] == ds.rows[:, K.C_NLEGAL]).all()
    assert main(["decisions", "--out", str(tmp_path)]) == 2


@pytest.fixture(scope="module")
def real():
    ds = decision_set(DATA)
    return ds, encode_decisions(ds)


def _permuted_decision(ds, perm):
    """The decisions with the suits permuted in what the seat sees and in the actions
    (engine codes), to encode afresh."""
    from dataclasses import replace

    from mjstats.games import views as V

    tm = tile_map(perm)
    src = np.argsort(tm)
    seen = ds.seen.copy()
    for off in (V.V_HAND, V.V_UNSEEN, V.V_SHOWN):
        seen[:, off : off + 34] = ds.seen[:, off : off + 34][:, src]
    for q in range(4):
        o = K.SEEN_RIVER + 34 * q
        seen[:, o : o + 34] = ds.seen[:, o : o + 34][:, src]
        for m in range(4):
            t = V.V_MELD + 12 * q + 3 * m + 1
            col = ds.seen[:, t].astype(np.int64)
            seen[:, t] = np.where((col >= 0) & (ds.seen[:, t - 1] > 0), tm[np.maximum(col, 0)], col)
    for slot in (V.V_LAST_TILE, V.V_DRAWN):
        col = ds.seen[:, slot].astype(np.int64)
        seen[:, slot] = np.where((col >= 0) & (col < 34), tm[np.clip(col, 0, 33)], col)

    def codes(a):
        a = a.astype(np.int64)
        kind, t = a >> 6, a & 63
        moved = (a >= 0) & (kind != G.A_PASS)
        return np.where(moved, (kind << 6) + tm[np.minimum(t, 33)], a)

    rows = ds.rows.copy()
    rows[:, K.C_TAKEN] = codes(ds.rows[:, K.C_TAKEN])
    return replace(ds, rows=rows, seen=seen, legal=codes(ds.legal).astype(np.int16))


@pytest.mark.parametrize("perm", PERMUTATIONS[1:])
def test_suit_permutation_is_the_permutation_of_the_original(real, perm):
    ds, e = real
    p = permute_encoded(e, perm)
    am = action_map(perm)
    # the permuted mask and action are the original's, moved by the permutation
    n = len(ds)
    assert (p["action"] == am[e["action"]]).all()
    moved = np.zeros_like(p["mask"])
    rows, cols = np.nonzero(e["mask"])
    moved[rows, am[cols]] = True
    assert (moved == p["mask"]).all() and p["mask"][np.arange(n), p["action"]].all()
    # and they are what encoding the permuted decision gives
    fresh = encode_decisions(_permuted_decision(ds, perm))
    for k in ("obs", "baseline", "mask", "action"):
        assert (fresh[k] == p[k]).all(), k
    # the permuted hand's shanten is unchanged
    idx = np.random.default_rng(7).choice(n, 500, replace=False)
    from mjstats.games.views import V_NMELD

    melds = ds.seen[idx, V_NMELD + ds.rows[idx, K.C_SEAT]].astype(np.int64)
    before = shanten(e["obs"][idx, P_HAND].astype(np.int64), melds=melds)
    after = shanten(p["obs"][idx, P_HAND].astype(np.int64), melds=melds)
    assert (np.asarray(before) == np.asarray(after)).all() and (before <= 1).any()
    assert not (e["obs"][idx, P_HAND] == p["obs"][idx, P_HAND]).all()


def test_augmented_reading(tmp_path):
    write_decisions(tmp_path, games=3, seed=2)
    plain, aug = _all(tmp_path), _all(tmp_path, augment=True, seed=4)
    again = _all(tmp_path, augment=True, seed=4)
    assert (aug["action"] == again["action"]).all()
    w = aug["suit_permutation"]
    assert len(set(w.tolist())) == 6
    for j, perm in enumerate(PERMUTATIONS):
        sel = w == j
        assert (aug["action"][sel] == action_map(perm)[plain["action"][sel]]).all()
