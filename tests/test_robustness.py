"""Issue 19: validated data stays valid; checkpoints cannot lie; Ctrl-C is safe; errors.

Each test is a reproducer from the fuzz and fault campaign of issue 19.
"""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import mjstats
from mjstats import Hand, HandBatch

HAND = "[123p]55m12379s789p+8s"


# --------------------------------------------------------------------------- item 1


def test_batch_arrays_cannot_be_made_writable_again():
    b = HandBatch.from_hands([HAND, "123456789m1235p"])
    for name in ("concealed", "melds", "win_tile", "self_drawn", "flowers"):
        arr = getattr(b, name)
        with pytest.raises(ValueError):
            arr.setflags(write=True)
        with pytest.raises(ValueError):
            arr[...].setflags(write=True)  # nor a view of them
    for part in (b[:1], HandBatch.concat([b, b]), b.replace(self_drawn=True)):
        with pytest.raises(ValueError):
            part.melds.setflags(write=True)


def test_hand_counts_cannot_be_made_writable_again():
    for h in (mjstats.parse_hand(HAND), HandBatch.from_hands([HAND])[0]):
        with pytest.raises(ValueError):
            h.concealed.setflags(write=True)


def test_unpickling_validates_a_crafted_batch():
    b = HandBatch.from_hands([HAND])
    rebuild, (arrays,) = b.__reduce__()
    arrays = {k: np.array(v) for k, v in arrays.items()}
    arrays["melds"][0, 0] = (1, 200)  # an impossible chow

    class Crafted:  # pickles as a HandBatch holding the impossible chow
        def __reduce__(self):
            return rebuild, (arrays,)

    with pytest.raises(mjstats.InvalidHandError, match="tile 200"):
        pickle.loads(pickle.dumps(Crafted()))
    with pytest.raises(mjstats.InvalidHandError):
        rebuild(arrays)
    assert pickle.loads(pickle.dumps(b)).melds.tolist() == b.melds.tolist()


def test_unpickling_validates_a_crafted_hand():
    h = mjstats.parse_hand(HAND)
    state = dict(vars(h), concealed=np.full(34, 9, np.uint8))
    with pytest.raises(mjstats.InvalidHandError):
        object.__new__(Hand).__setstate__(state)
    with pytest.raises(mjstats.InvalidHandError):
        object.__new__(Hand).__setstate__({"concealed": h.concealed})
    assert pickle.loads(pickle.dumps(h)) == h
