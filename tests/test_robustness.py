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
    rebuild, (arrays, index) = b.__reduce__()
    assert index is None  # a batch made from hands has no pandas index
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


def test_scoring_refuses_a_batch_corrupted_behind_the_api():
    b = HandBatch.from_hands([HAND, HAND])
    for name, row, value in [
        ("melds", (1, 0), (1, 200)),  # the impossible chow
        ("melds", (0, 0), (9, 0)),  # unknown kind
        ("melds", (1, 0), (1, 25)),  # chow of 8s-9s-1z
        ("concealed", (1, 3), 7),
        ("win_tile", 1, 40),
    ]:
        arr = np.array(getattr(b, name))
        arr[row] = value
        bad = object.__new__(HandBatch)
        for field in ("concealed", "melds", "win_tile", *mjstats.hand.CONTEXT_FIELDS):
            object.__setattr__(bad, field, arr if field == name else getattr(b, field))
        with pytest.raises(mjstats.InvalidHandError, match="row"):
            mjstats.score_batch(bad)
    assert mjstats.score_batch(b).total.tolist() == [mjstats.score(HAND).total] * 2


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


# --------------------------------------------------------------------------- item 5


def test_pymahjonggb_flags_are_real_booleans():
    kw = mjstats.parse_hand(HAND).to_pymahjonggb()
    for name in ("isSelfDrawn", "is4thTile", "isAboutKong", "isWallLast"):
        for bad in ("False", "True", None, 2, 0.0, [], "0"):
            with pytest.raises(mjstats.InvalidContextError, match=name):
                Hand.from_pymahjonggb(**{**kw, name: bad})
    assert not Hand.from_pymahjonggb(**{**kw, "isSelfDrawn": np.False_}).self_drawn
    assert Hand.from_pymahjonggb(**{**kw, "isSelfDrawn": 1}).self_drawn


def test_shanten_checks_ruleset_and_meld_slots():
    counts = mjstats.parse_tiles("123456789m1235p")
    with pytest.raises(mjstats.UnknownRulesetError):
        mjstats.shanten(counts, form="regular", ruleset="riichi")
    slots = np.array([[[9, 200], [9, 200], [9, 200], [0, 0]]], np.uint8)
    with pytest.raises(mjstats.InvalidMeldError):
        mjstats.shanten(mjstats.parse_tiles("1235p"), melds=slots)
    good = np.array([[[1, 0], [1, 3], [1, 6], [0, 0]]], np.uint8)  # 123m 456m 789m
    assert mjstats.shanten(mjstats.parse_tiles("1235p")[None], melds=good).tolist() == [0]


def test_ruleset_options_keep_their_types():
    from mjstats.rules import get_ruleset

    for value in ("yes", 1, None, 1.0):
        with pytest.raises(ValueError, match="mingan_gang"):
            get_ruleset("mcr", mingan_gang=value)
    assert get_ruleset("mcr", mingan_gang=np.bool_(False)).options["mingan_gang"] is False


@pytest.mark.parametrize(
    "field, value", [("seat_wind", 9), ("flowers", 999), ("win_tile", 40), ("self_drawn", 2)]
)
def test_scalars_are_checked_on_an_empty_batch(field, value):
    with pytest.raises(mjstats.InvalidHandError, match=field):
        HandBatch(concealed=np.zeros((0, 34), np.uint8), **{field: value})


@pytest.mark.parametrize(
    "kwargs, error",
    [
        ({"n": 10.5}, mjstats.InvalidArgumentError),
        ({"n": True}, mjstats.InvalidArgumentError),
        ({"n": -1}, ValueError),
        ({"n": 2**63}, ValueError),
        ({"seed": 1.5}, mjstats.InvalidArgumentError),
        ({"seed": -1}, mjstats.InvalidArgumentError),
        ({"seed": 2**64}, mjstats.InvalidArgumentError),
        ({"seed": None}, ValueError),
        ({"group_size": -1}, ValueError),
        ({"group_size": 2.0}, ValueError),
    ],
)
def test_study_arguments_are_checked(kwargs, error):
    from mjstats.studies.sample import sample

    args = {"n": 10, "seed": 1, "progress": False} | kwargs
    with pytest.raises(error):
        sample(**args)


@pytest.mark.parametrize("text", ["flowers=²", "flowers=" + "9" * 5000, "flowers=0x" + "f" * 5000])
def test_flower_counts_that_are_not_ascii_numbers(text):
    with pytest.raises(mjstats.InvalidHandError):
        mjstats.parse_hand(f"{HAND} {text}")


def _judge_cases():
    import copy
    import json
    from pathlib import Path

    path = sorted((Path(__file__).parent / "data" / "botzone" / "judge-logs").glob("*.json"))[0]
    game = json.loads(path.read_text())

    def display(g, action):
        for item in g["logs"]:
            out = item.get("output") if isinstance(item, dict) else None
            if isinstance(out, dict) and out.get("display", {}).get("action") == action:
                return out["display"]
        raise AssertionError(action)

    def edit(fn):
        g = copy.deepcopy(game)
        fn(g)
        return g

    def set_quan(g, value):
        init = json.loads(g["initdata"])
        init["quan"] = value
        g["initdata"] = json.dumps(init)

    cases = {
        f"player {v!r}": edit(lambda g, v=v: display(g, "DRAW").__setitem__("player", v))
        for v in (None, "1", [], 2**70, True, -1)
    }
    cases["fanCnt true"] = edit(lambda g: display(g, "HU").__setitem__("fanCnt", True))
    cases["quan true"] = edit(lambda g: set_quan(g, True))
    return cases


@pytest.mark.parametrize("name", sorted(_judge_cases()))
def test_bad_judge_logs_are_record_errors(name, tmp_path):
    import json

    from mjstats.records.botzone import RecordError, read_botzone

    (tmp_path / "game.json").write_text(json.dumps(_judge_cases()[name]))
    with pytest.raises(RecordError):
        read_botzone(tmp_path)
    assert read_botzone(tmp_path, skip_bad=True).bad == 1


def test_read_botzone_chunk_size_is_checked():
    from mjstats.records.botzone import read_botzone

    for bad in (0, -5, 1.5, True):
        with pytest.raises(ValueError, match="chunk_size"):
            read_botzone(b"", chunk_size=bad)


@pytest.mark.parametrize(
    "argv",
    [
        ["study", "sample", "--seed", "-1", "--n", "10"],
        ["study", "sample", "--dask", "local:x", "--n", "10"],
        ["study", "sample", "--dask", "local:0", "--n", "10"],
        ["study", "sample", "--dask", "local:-1", "--n", "10"],
        ["study", "sample", "--n", str(2**63)],
        ["study", "sample", "--n", "1.5"],
        ["study", "sample", "--n", "1e400"],
        ["study", "sample", "--n", "2**63-1"],
        ["study", "play", "--draws", "124", "--n", "10"],
        ["analyze", "2367m3345p1568s16z", "--seed", "-5"],
        ["hand", f"{HAND} flowers=²"],
        ["score", f"{HAND} flowers={'9' * 5000}"],
    ],
)
def test_cli_reproducers_give_one_line(argv, capsys):
    from mjstats.cli import main

    code = main(argv)
    err = capsys.readouterr().err
    assert code in (1, 2) and err.count("\n") == 1 and err.startswith("mjstats: error:"), err


def test_study_counts_in_e_notation(capsys):
    from mjstats.cli import main

    assert main(["study", "sample", "--n", "2e3", "--seed", "3", "--top", "1"]) == 0
    assert "2,000 hands" in capsys.readouterr().out
