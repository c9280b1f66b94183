"""The ``.mj`` pandas accessor and index-aligned frames: scores land on their own rows."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from conftest import SEED

import mjstats
from mjstats import HandBatch, score_batch
from mjstats.errors import InvalidHandError
from mjstats.studies.generate_wins import generate_wins


@pytest.fixture(scope="module")
def frame() -> pd.DataFrame:
    batch = HandBatch(**generate_wins(400, SEED, "mixed").as_dict())
    rng = np.random.default_rng(SEED)
    texts = batch.to_text()
    return pd.DataFrame(
        {"hand": texts, "player": rng.integers(0, 4, len(texts))},
        index=pd.Index(rng.permutation(10_000)[: len(texts)], name="game"),
    )


def test_filtered_frame_joins_back_onto_the_right_rows(frame):
    sub = frame[frame["player"] == 2].sort_values("hand")
    joined = sub.join(sub["hand"].mj.score())
    expect = [mjstats.score(h).total for h in sub["hand"]]
    assert joined["total"].tolist() == expect
    assert (joined.index == sub.index).all()
    # the old way: a positional frame joined onto a filtered index misaligns
    old = sub.join(score_batch(HandBatch.from_hands(sub["hand"])).to_frame())
    assert old["total"].isna().any() or old["total"].tolist() != expect


def test_batch_and_score_frames_carry_a_series_index(frame):
    s = frame["hand"].iloc[::3]
    batch = HandBatch.from_text(s)
    assert batch.to_frame().index.equals(s.index)
    assert score_batch(batch).to_frame().index.equals(s.index)
    assert s.mj.to_frame()["hand"].tolist() == s.tolist()


def test_shanten_and_coerce():
    s = pd.Series(["123m456p789s1122z", "oops", "123m456p789s11z22z+2z"], index=list("abc"))
    assert s.iloc[[0, 2]].mj.shanten().tolist() == [0, -1]
    with pytest.raises(InvalidHandError, match="row 1"):
        s.mj.score()
    scores = s.mj.score(errors="coerce")
    assert scores.index.tolist() == ["a", "b", "c"]
    assert np.isnan(scores.loc["b", "total"]) and "oops" in scores.loc["b", "error"]
    assert scores.loc["a", "error"] is None
    sh = s.mj.shanten(errors="coerce")
    assert sh["shanten"].tolist()[::2] == [0, -1] and sh["error"].notna().tolist() == [0, 1, 0]


def test_duplicate_labels(frame):
    s = pd.Series(frame["hand"].iloc[:3].tolist(), index=[1, 1, 1])
    assert s.mj.score()["total"].tolist() == [mjstats.score(h).total for h in s]


@pytest.mark.parametrize("order", ["import mjstats, pandas", "import pandas, mjstats"])
def test_accessor_registered_in_either_import_order(order):
    code = f"{order}; import sys; print(pandas.Series(['123m456p789s1122z']).mj.shanten()[0])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "0"
