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


# --------------------------------------------------------------------------- item 3


def _sample_checkpoint(tmp_path):
    """A real checkpoint of a sample study, interrupted after 2 of 4 chunk groups."""
    from mjstats.studies.runner import StudyInterrupted, run_study
    from mjstats.studies.sample import CHUNK, SampleStudy

    study = SampleStudy(3 * CHUNK + 5, seed=4)
    ckpt = tmp_path / "run.ckpt"

    def stop(first, count):
        if first == 1:
            raise KeyboardInterrupt

    with pytest.raises(StudyInterrupted):
        run_study(study, group_size=1, checkpoint=ckpt, progress=False, on_group=stop)
    return study, ckpt


def _resign(payload):
    """Recompute the checksum, as a careful forger would."""
    from mjstats.studies.checkpoint import _digest

    payload.pop("sha256", None)
    payload["sha256"] = _digest(payload)
    return payload


def _corruptions(raw: bytes):
    """(name, new bytes) for every corruption of the campaign."""
    import json

    d = json.loads(raw)
    hands = d["aggregate"]["counters"]["hands"]["data"][0]

    def edit(fn, resign=False):
        p = json.loads(raw)
        fn(p)
        return json.dumps(_resign(p) if resign else p).encode()

    def counter(name, i, value):
        return lambda p: p["aggregate"]["counters"][name]["data"].__setitem__(i, value)

    text = raw.decode()
    digit = text.index(str(hands))
    out = [
        ("changed digit", (text[:digit] + "9" + text[digit + 1 :]).encode()),
        ("done edited", edit(lambda p: p.__setitem__("done", [[0, 3]]))),
        ("done edited, re-signed", edit(lambda p: p.__setitem__("done", [[0, 3]]), True)),
        ("done overlapping", edit(lambda p: p.__setitem__("done", [[0, 2], [1, 1]]), True)),
        ("done float", edit(lambda p: p.__setitem__("done", [[0, 2.0]]), True)),
        ("done outside", edit(lambda p: p.__setitem__("done", [[0, 9]]), True)),
        ("done not a list", edit(lambda p: p.__setitem__("done", "all"), True)),
        ("negative counter", edit(counter("fan_count", 0, -1), True)),
        ("float counter", edit(counter("fan_count", 0, 1.5), True)),
        ("bool counter", edit(counter("complete", 0, True), True)),
        ("huge counter", edit(counter("complete", 0, 2**70), True)),
        ("hands claimed", edit(counter("hands", 0, 20_000_000), True)),
        ("hands claimed, unsigned", edit(counter("hands", 0, 20_000_000))),
        ("counter dropped", edit(lambda p: p["aggregate"]["counters"].pop("legal"), True)),
        ("shape changed", edit(lambda p: p["aggregate"]["counters"]["hands"].update(shape=[2]), 1)),
        ("other params", edit(lambda p: p["params"].__setitem__("seed", 5), True)),
        ("other chunks", edit(lambda p: p.__setitem__("n_chunks", 99), True)),
        ("no checksum", edit(lambda p: p.pop("sha256"))),
        ("old format", edit(lambda p: p.__setitem__("format_version", 1), True)),
        ("not a checkpoint", edit(lambda p: p.__setitem__("format", "x"), True)),
        ("a list", b"[1, 2]"),
        ("truncated", raw[: len(raw) // 2]),
        ("empty", b""),
        ("binary", bytes(range(256))),
        ("not UTF-8", raw.replace(b'"done"', b'"d\xffne"')),
        ("deep nesting", b"[" * 100_000 + b"]" * 100_000),
    ]
    for pos in (10, len(raw) // 3, len(raw) // 2, len(raw) - 20):  # single bit flips
        flipped = bytearray(raw)
        flipped[pos] ^= 1 << (pos % 7)
        out.append((f"bit flip at {pos}", bytes(flipped)))
    return out


def test_every_corrupted_checkpoint_is_refused_in_one_line(tmp_path):
    from mjstats.errors import DataFileError
    from mjstats.studies.runner import run_study

    study, ckpt = _sample_checkpoint(tmp_path)
    raw = ckpt.read_bytes()
    cases = _corruptions(raw)
    assert len(cases) >= 30
    for name, data in cases:
        assert data != raw, name
        ckpt.write_bytes(data)
        with pytest.raises(DataFileError) as info:
            run_study(study, checkpoint=ckpt, resume=True, progress=False)
        msg = str(info.value)
        assert "\n" not in msg and str(ckpt) in msg, (name, msg)
    ckpt.write_bytes(raw)  # the intact file still resumes, to the uninterrupted numbers
    resumed = run_study(study, checkpoint=ckpt, resume=True, progress=False)
    assert resumed == run_study(study, progress=False)


def test_damaged_or_foreign_aggregate_files_are_refused_in_one_line(tmp_path, capsys):
    import json

    from mjstats.cli import main
    from mjstats.errors import DataFileError
    from mjstats.studies.aggregate import Aggregate

    _, ckpt = _sample_checkpoint(tmp_path)
    good = Aggregate.from_dict(json.loads(ckpt.read_bytes())["aggregate"])
    raw = json.dumps(good.to_dict()).encode()
    cases = [
        ("checkpoint, not aggregate", ckpt.read_bytes()),
        ("not UTF-8", b"\xff\xfe" + raw),
        ("list", b"[]"),
        ("no counters", raw.replace(b'"counters"', b'"kounters"')),
        ("counters a list", json.dumps({**good.to_dict(), "counters": []}).encode()),
        ("float counter", raw.replace(b'"data": [', b'"data": [0.5, ', 1)),
        ("kind missing", json.dumps({**good.to_dict(), "kind": None}).encode()),
        ("truncated", raw[:-10]),
    ]
    path = tmp_path / "aggregate.json"
    for name, data in cases:
        path.write_bytes(data)
        with pytest.raises(DataFileError) as info:
            Aggregate.load(path)
        assert "\n" not in str(info.value), name
        assert main(["report", str(path)]) == 1, name
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("mjstats: error:"), (name, err)
