"""Fuzzing every public boundary (issue 19): text, arrays, PyMahjongGB arguments,
judge logs, CLI argv and checkpoints.

An input is either refused with the boundary's error family (InvalidHandError,
RecordError, DataFileError; a one-line CLI error with exit 1 or 2) or accepted
and then consistent with itself: it round-trips, ``score`` equals the
``score_batch`` row, and a hand is complete exactly when its shanten is -1.

Hypothesis runs derandomized (the ``ci`` profile of conftest.py), so the inputs
are the same on every run. CI size: ``scaled(FUZZ)`` examples per boundary;
``pytest -m slow`` runs each with ``SLOW_FACTOR`` times as many.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import signal
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from conftest import hands, scaled
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mjstats
from mjstats import Hand, HandBatch
from mjstats.errors import DataFileError, InvalidHandError
from mjstats.records.botzone import RecordError, read_botzone

FUZZ = 150
SLOW_FACTOR = 30
DATA = Path(__file__).parent / "data" / "botzone"


def _run(prop, strategy, examples):
    settings(
        max_examples=examples,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )(given(strategy)(prop))()


def _sizes(slow: bool) -> int:
    return scaled(FUZZ * (SLOW_FACTOR if slow else 1))


SLOW = [False, pytest.param(True, marks=pytest.mark.slow, id="slow")]


def _consistent(h: Hand) -> None:
    """A valid hand: round trips, score = score_batch row, complete <=> shanten -1."""
    assert mjstats.parse_hand(str(h)) == h
    if not h.is_waiting:  # the reference takes a flower count, and no situation bits
        counted = h.replace(flowers=(1 << bin(h.flowers).count("1")) - 1, situation=0)
        assert Hand.from_pymahjonggb(**h.to_pymahjonggb()) == counted
    batch = HandBatch.from_hands([h])
    assert batch[0] == h
    slots = batch.melds
    sh = int(mjstats.shanten(batch.concealed, melds=slots)[0])
    if h.is_waiting:
        assert sh >= 0
        return
    try:  # a context the hand contradicts (e.g. last_of_kind with copies held)
        one = mjstats.score(h)
    except mjstats.InvalidContextError:
        with pytest.raises(mjstats.InvalidContextError):
            mjstats.score_batch(batch)
        return
    row = mjstats.score_batch(batch)
    assert one.total == int(row.total[0]) and one.legal == bool(row.legal[0])
    assert (one.total >= 0) == (sh == -1), (str(h), one.total, sh)


# --------------------------------------------------------------------------- text

_ALPHABET = "0123456789mpszMPSZ[]{}+ =-x²自摸门风南ESWNPFC\t"
_words = st.sampled_from(
    ["self-drawn", "last-of-kind", "kong-win", "last-of-wall", "seat=S", "round=W",
     "flowers=2", "flowers=9", "situation=0x10", "自摸", "门风=南", "seat=", "seat=9"]
)  # fmt: skip
_texts = st.one_of(
    st.text(_ALPHABET, max_size=40),
    st.text(max_size=30),
    st.builds(lambda h, w: f"{h} {w}", hands().map(str), _words),
    st.builds(
        lambda h, i, c: h[:i] + c + h[i + 1 :],
        hands().map(str),
        st.integers(0, 40),
        st.sampled_from([*_ALPHABET, ""]),
    ),
)


def _text_prop(text):
    try:
        h = mjstats.parse_hand(text)
    except InvalidHandError:
        return
    _consistent(h)


@pytest.mark.parametrize("slow", SLOW)
def test_fuzz_text(slow):
    _run(_text_prop, _texts, _sizes(slow))


# --------------------------------------------------------------------------- arrays


@st.composite
def _arrays(draw):
    n = draw(st.integers(0, 4))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    valid = draw(hands())
    concealed = np.tile(valid.concealed, (n, 1)).astype(np.int64)
    slots = np.zeros((n, 4, 2), np.int64)
    for j, m in enumerate(valid.melds):
        slots[:, j] = (int(m.kind), m.tile)
    fields = {
        "concealed": concealed,
        "melds": slots,
        "win_tile": 255 if valid.win_tile is None else valid.win_tile,
    }
    for _ in range(draw(st.integers(0, 3))):  # a few corruptions
        what = draw(st.sampled_from(["concealed", "melds", "win_tile", "seat_wind", "flowers",
                                     "self_drawn", "situation", "dtype", "shape"]))  # fmt: skip
        if what == "concealed" and n:
            concealed[rng.integers(n), rng.integers(34)] = rng.integers(-2, 7)
        elif what == "melds" and n:
            slots[rng.integers(n), rng.integers(4)] = rng.integers(-1, 40, 2)
        elif what == "dtype":
            fields["concealed"] = concealed.astype(draw(st.sampled_from([np.float64, object])))
        elif what == "shape":
            fields["concealed"] = concealed.reshape(-1)
        elif what in ("win_tile", "seat_wind", "flowers", "situation"):
            fields[what] = draw(st.one_of(st.integers(-3, 300), st.booleans(), st.floats()))
        elif what == "self_drawn":
            fields[what] = draw(st.one_of(st.integers(-1, 3), st.booleans(), st.text(max_size=2)))
    return fields


def _arrays_prop(fields):
    try:
        batch = HandBatch(**fields)
    except InvalidHandError:
        return
    for h in batch:
        _consistent(h)
    if len(batch):
        assert HandBatch.from_hands(batch.to_hands()).melds.tolist() == batch.melds.tolist()


@pytest.mark.parametrize("slow", SLOW)
def test_fuzz_arrays(slow):
    _run(_arrays_prop, _arrays(), _sizes(slow))


# ------------------------------------------------------------------ PyMahjongGB kwargs

_junk = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 300), st.floats(), st.text(max_size=4),
    st.lists(st.integers(0, 40), max_size=3), st.sampled_from(["W1", "F4", "J3", "H1", "B0"]),
)  # fmt: skip


@st.composite
def _pmgb(draw):
    h = draw(hands(waiting=False))
    kw = h.to_pymahjonggb()
    for _ in range(draw(st.integers(0, 2))):
        key = draw(st.sampled_from(sorted(kw)))
        if key == "hand" and isinstance(kw["hand"], tuple) and kw["hand"] and draw(st.booleans()):
            hand = list(kw["hand"])
            hand[draw(st.integers(0, len(hand) - 1))] = draw(_junk)
            kw["hand"] = tuple(hand)
        else:
            kw[key] = draw(_junk)
    return kw


def _pmgb_prop(kw):
    try:
        h = Hand.from_pymahjonggb(**kw)
    except InvalidHandError:
        return
    _consistent(h)


@pytest.mark.parametrize("slow", SLOW)
def test_fuzz_pymahjonggb(slow):
    _run(_pmgb_prop, _pmgb(), _sizes(slow))


# --------------------------------------------------------------------------- records

_GAME = json.loads(sorted((DATA / "judge-logs").glob("*.json"))[0].read_text())
_json_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(allow_nan=False),
    st.text(max_size=5),
)  # fmt: skip
_json_junk = st.recursive(
    _json_scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=5,
)


_edits = st.lists(
    st.tuples(
        st.integers(0, len(_GAME["logs"]) - 1), st.booleans(), st.integers(0, 99), _json_junk
    ),
    min_size=1,
    max_size=3,
)
"""(log entry, edit a display field?, which field, new value): small reprs for failures."""


def _records_prop(edits):
    game = copy.deepcopy(_GAME)
    for i, in_display, k, value in edits:
        item = game["logs"][i]
        out = item.get("output") if isinstance(item, dict) else None
        target = out.get("display") if isinstance(out, dict) else None
        if in_display and isinstance(target, dict) and target:
            target[sorted(target)[k % len(target)]] = value
        else:
            game["logs"][i] = value
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "game.json").write_text(json.dumps(game))
        with contextlib.suppress(RecordError):
            read_botzone(tmp)
        assert read_botzone(tmp, skip_bad=True).bad in (0, 1)


@pytest.mark.parametrize("slow", SLOW)
def test_fuzz_judge_logs(slow):
    _run(_records_prop, _edits, _sizes(slow))


# --------------------------------------------------------------------------- CLI argv

_tokens = st.one_of(
    st.sampled_from(
        ["--json", "--ruleset", "mcr", "two-player", "riichi", "--option", "mingan_gang=no",
         "--form", "regular", "--visible", "1z", "--table", "fans", "--format", "csv", "--top",
         "-1", "0", "--help", "[123p]55m12379s789p+8s", "123456789m1235p", "flowers=²",
         "seat=9", "--no-such", "", "x"]
    ),
    st.text(_ALPHABET, max_size=10),
)  # fmt: skip
_argv = st.tuples(st.sampled_from(["hand", "score", "shanten", "report", "nope"]),
                  st.lists(_tokens, max_size=5)).map(lambda t: [t[0], *t[1]])  # fmt: skip


def _cli_prop(argv):
    from mjstats.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    assert code in (0, 1, 2), (argv, code)
    if code:
        assert err.getvalue().count("\n") == 1, (argv, err.getvalue())
        assert err.getvalue().startswith("mjstats: error:"), (argv, err.getvalue())


@pytest.mark.parametrize("slow", SLOW)
def test_fuzz_cli_argv(slow):
    _run(_cli_prop, _argv, _sizes(slow))


# --------------------------------------------------------------------------- checkpoints


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory):
    from mjstats.studies.runner import StudyInterrupted, run_study
    from mjstats.studies.sample import CHUNK, SampleStudy

    study = SampleStudy(3 * CHUNK, seed=9)
    path = tmp_path_factory.mktemp("ckpt") / "run.ckpt"

    def stop(first, count):
        raise KeyboardInterrupt

    with pytest.raises(StudyInterrupted):
        run_study(study, group_size=1, checkpoint=path, progress=False, on_group=stop)
    return study, path.read_bytes()


@st.composite
def _mutations(draw, size):
    edits = draw(st.lists(st.tuples(st.integers(0, size - 1), st.integers(0, 255)), max_size=4))
    cut = draw(st.one_of(st.none(), st.integers(0, size)))
    return edits, cut


@pytest.mark.parametrize("slow", SLOW)
def test_fuzz_checkpoints(slow, checkpoint, tmp_path):
    from mjstats.studies.checkpoint import load_checkpoint

    study, raw = checkpoint
    path = tmp_path / "run.ckpt"
    path.write_bytes(raw)
    original = load_checkpoint(path, study)

    def prop(mutation):
        edits, cut = mutation
        data = bytearray(raw)
        for pos, byte in edits:
            data[pos] = byte
        path.write_bytes(bytes(data[:cut]))
        try:
            loaded = load_checkpoint(path, study)
        except DataFileError as exc:
            assert "\n" not in str(exc)
            return
        assert loaded == original  # only a change JSON does not see (whitespace) loads

    _run(prop, _mutations(len(raw)), _sizes(slow))


# ------------------------------------------------------ CLI: every command's options
# Each command gets option values drawn from valid and invalid ones, in random
# combinations and orders. Cheap by construction: a study always has a small or
# invalid --n (exact, which takes none, is a usage error), analyze a small --n,
# bench always an unknown task (refused while parsing), --dask only addresses
# refused without connecting; --threads is restored afterwards.

_BAD = ["", "x", "-1", "1.5", "nan", "1e400", str(2**64), "²"]
_STUDY = {
    "--n": ["0", "1", "7", "2e3", *_BAD],
    "--seed": ["0", "3", *_BAD],
    "--ruleset": ["mcr", "MCR", "two-player", "riichi", ""],
    "--tiles": ["13", "14", "15", "x"],
    "--useful": None,
    "--no-useful": None,
    "--per-form": None,
    "--no-per-form": None,
    "--policy": ["efficiency", "fan-aware", "random", ""],
    "--draws": ["1", "21", "124", "0", "x"],
    "--last-tile": None,
    "--no-last-tile": None,
    "--top": ["0", "3", "-1", "x"],
    "--out": ["{tmp}/out", "{tmp}/file"],
    "--json": ["{tmp}/s.json", "{tmp}", "{tmp}/no/such/dir/s.json"],
    "--checkpoint": ["{tmp}/new.ckpt", "{tmp}/run.ckpt", "{tmp}/file"],
    "--resume": [None, "{tmp}/run.ckpt", "{tmp}/file", "{tmp}/none.ckpt"],
    "--dask": [
        "bogus",
        "local:0",
        "local:-1",
        "local:x",
        "local:99999",
        "tcp://h:0",
        "foo://h:1",
        "tcp://",
        "",
    ],
    "--threads": ["1", "2", "0", "x"],
    "--no-progress": None,
}
_ANALYZE = {
    "--draws": ["1", "3", "0", "x"],
    "--n": ["1", "20", "0", *_BAD],
    "--seed": ["1", *_BAD],
    "--policy": ["efficiency", "fan-aware", "x"],
    "--visible": ["", "1z", "1z1z1z1z1z", "9x", "²"],
    "--ruleset": ["mcr", "two-player", "riichi"],
    "--last-tile": None,
    "--json": ["{tmp}/a.json", "{tmp}"],
}
_RECORDS = {
    "--check": None,
    "--json": None,
    "--skip-bad": None,
    "--top": ["2", "-1", "x"],
    "--out": ["{tmp}/rec", "{tmp}/file"],
}
_REPORT = {
    "--table": ["fans", "totals", "nope"],
    "--kind": ["x"],
    "--format": ["csv", "x"],
    "--top": ["3", "-1"],
    "--out": ["{tmp}/r.csv", "{tmp}/no/such/r.csv"],
}
_BENCH = {
    "--quick": None,
    "--json": ["{tmp}/b.json"],
    "--scale": ["0.1", "0", "-1", "x"],
    "--markdown": None,
    "--strict": None,
    "--peer": ["bogus", "os:path", "x:"],
    "--peer-input": ["hand", "x"],
    "--no-progress": None,
}
_PATHS = ["{tmp}/file", "{tmp}/empty", "{tmp}/none", str(DATA / "sample.txt")]
_COMMANDS = {
    # command -> (positional choices, option grammar, tokens always appended)
    "study": (["sample", "dealt", "exact", "play", "nope", None], _STUDY, ["--n", "5"]),
    "analyze": (["2367m3345p1568s16z", "123m456p789s1133z", "1m", "x"], _ANALYZE, ["--n", "8"]),
    "records": (_PATHS, _RECORDS, []),
    "replay": (["{tmp}/file", "{tmp}/empty", "{tmp}/none"], {"--json": None}, []),
    "report": (["{tmp}/file", "{tmp}/none", "{tmp}/run.ckpt"], _REPORT, []),
    "bench": ([None], _BENCH, ["--tasks", "nope"]),
}  # fmt: skip


HANG = 300  # seconds for one in-process command (a cold numba cache compiles in it)


@st.composite
def _command_argv(draw):
    name = draw(st.sampled_from(sorted(_COMMANDS)))
    positional, grammar, always = _COMMANDS[name]
    argv = [name]
    first = draw(st.sampled_from(positional))
    options = draw(st.lists(st.sampled_from(sorted(grammar)), max_size=5))
    if first is not None:
        argv.append(first)
    argv += always if name != "study" or first != "exact" else []
    for opt in options:
        values = grammar[opt]
        argv.append(opt)
        value = draw(st.sampled_from(values)) if values is not None else None
        if value is not None:
            argv.append(value)
    if draw(st.booleans()):  # a stray token somewhere
        argv.insert(draw(st.integers(1, len(argv))), draw(_tokens))
    return argv


@pytest.fixture(scope="module")
def cli_dir(tmp_path_factory, checkpoint):
    folder = tmp_path_factory.mktemp("cli")
    (folder / "file").write_bytes(b"not \xff anything\n")
    (folder / "empty").mkdir()
    (folder / "run.ckpt").write_bytes(checkpoint[1])
    return folder


@pytest.mark.parametrize("slow", SLOW)
def test_fuzz_cli_commands(slow, cli_dir, monkeypatch):
    import numba

    monkeypatch.chdir(cli_dir)  # a path option given a stray token writes there

    threads = numba.get_num_threads()
    ckpt = (cli_dir / "run.ckpt").read_bytes()

    def hang(signum, frame):
        raise AssertionError("no result within HANG seconds: a hang")

    def prop(argv):
        argv = [a.replace("{tmp}", str(cli_dir)) for a in argv]
        previous = signal.signal(signal.SIGALRM, hang)
        signal.alarm(HANG)
        try:
            _cli_prop(argv)
        finally:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, previous)
            numba.set_num_threads(threads)
            (cli_dir / "run.ckpt").write_bytes(ckpt)  # a resumed run rewrites it

    _run(prop, _command_argv(), _sizes(slow) // 3)


@pytest.mark.parametrize(
    "argv",
    [
        ["study", "--dask", "bogus", "--n", "10"],
        ["study", "--resume", "{tmp}/none.ckpt"],
        ["study", "dealt", "--resume", "{tmp}/run.ckpt"],
        ["analyze", "2367m3345p1568s16z", "--n", "0"],
        ["bench", "--tasks", "nope"],
    ],
)
def test_cli_processes_fail_in_one_line(argv, cli_dir):
    """A few of the fuzzed failures in real processes: one line, exit 1 or 2, no hang."""
    import subprocess
    import sys

    argv = [a.replace("{tmp}", str(cli_dir)) for a in argv]
    root = Path(__file__).resolve().parents[1]
    env = {**__import__("os").environ, "PYTHONPATH": str(root)}
    done = subprocess.run(
        [sys.executable, "-m", "mjstats.cli", *argv],
        capture_output=True, text=True, timeout=120, env=env, cwd=cli_dir,
    )  # fmt: skip
    assert done.returncode in (1, 2), (argv, done.returncode, done.stderr)
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("mjstats: error:"), done.stderr
    assert "Traceback" not in done.stderr


# ------------------------------------------- the classes of issue 36, generated
# corrupted records at the field level (Score, Hu, Fan, Wind)

_SAMPLE_GAMES = ["Match " + g for g in (DATA / "sample.txt").read_text("utf-8").split("Match ")[1:]]
_ENDS = ("Wind", "Hu", "Fan", "Score")


def _field_lines(game: str) -> list[int]:
    return [
        i
        for i, line in enumerate(game.split("\n"))
        if line.split()[:1]
        and (line.split()[0] in _ENDS or (len(line.split()) > 2 and line.split()[2] in _ENDS))
    ]


_field_edits = st.tuples(
    st.sampled_from([0, 2, 5]),  # games of sample.txt: discard wins and a self-drawn one
    st.lists(
        st.tuples(st.integers(0, 99), st.sampled_from(["bump", "delete", "repeat", "tile"]),
                  st.integers(1, 5)),
        min_size=1, max_size=3,
    ),
)  # fmt: skip


def _edit_line(line: str, op: str, k: int) -> list[str]:
    if op == "delete":
        return []
    if op == "repeat":
        return [line, line]
    words = line.split()
    if op == "tile":
        codes = [j for j, w in enumerate(words) if w in mjstats.tiles.BOTZONE_CODES]
        if not codes:
            return [line]
        j = codes[k % len(codes)]
        words[j] = mjstats.tiles.BOTZONE_CODES[
            (mjstats.tiles.BOTZONE_CODES.index(words[j]) + k) % 34
        ]
    else:  # bump a number: the round wind, the total, a fan count, a score
        nums = [j for j, w in enumerate(words) if w.lstrip("-").isdigit() and words[0] != "Player"]
        if words[0] == "Fan" and len(words) > 2:
            words[2] = words[2].replace("*1", f"*{1 + k}", 1)
        elif nums:
            j = nums[k % len(nums)]
            words[j] = str((int(words[j]) + k) % 4 if words[0] == "Wind" else int(words[j]) + k)
    return [" ".join(words)]


def _record_fields_prop(edits):
    from mjstats.records import check_records, replay

    g, ops = edits
    game = _SAMPLE_GAMES[g]
    lines = game.rstrip("\n").split("\n")
    targets = _field_lines(game)
    changed = set()
    for pick, op, k in ops:
        i = targets[pick % len(targets)]
        if i >= len(lines):
            continue
        new = _edit_line(lines[i], op, k)
        if new != [lines[i]]:
            changed.add(lines[i].split()[0] if op != "tile" else "tile")
        lines[i : i + 1] = new
    text = "\n".join(lines) + "\n"
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game.txt"
        path.write_text(text, encoding="utf-8")
        table = replay(path)  # never raises on a bad game: it lists the problem
        by_replay = not bool((table.legal & table.matched).all())
        records = read_botzone(path, skip_bad=True)
        by_check = records.bad > 0 or check_records(records).mismatched > 0
    assert by_replay == by_check, (text, table.problem.tolist())
    if text == game:
        assert not by_replay
    elif changed & {"Score", "Fan"}:  # what the record says of its end, always visible
        assert by_replay, text


@pytest.mark.parametrize("slow", SLOW)
def test_fuzz_record_fields(slow):
    _run(_record_fields_prop, _field_edits, max(20, _sizes(slow) // 3))


# files with bad encodings, bare CRs, surrogates and contexts that contradict the hand

_score_rows = st.lists(
    st.one_of(
        st.sampled_from([b"123m456p789s11z22z+2z", b"1112345678999m+1m last-of-kind",
                         b"123m456p789s11z22z+2z self-drawn", b"x\ry", b"\xff\xfe12m",
                         b"123m\xed\xa0\x80", b"", b"hand"]),
        st.binary(max_size=12),
    ),
    min_size=1, max_size=6,
)  # fmt: skip


def _score_file_prop(rows):
    from mjstats import cli

    with tempfile.TemporaryDirectory() as tmp:
        src, out = Path(tmp) / "in.txt", Path(tmp) / "o.csv"
        src.write_bytes(b"\n".join(rows) + b"\n")
        err = io.StringIO()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
            code = cli.main(["score", "--file", str(src), "--out", str(out)])
        assert code in (0, 1), (rows, code, err.getvalue())
        assert "Traceback" not in err.getvalue()
        if code == 1 and not out.exists():  # the file as a whole refused: one line
            assert err.getvalue().startswith("mjstats: error:"), err.getvalue()
            return
        good = pd.read_csv(out)["row"].tolist() if out.stat().st_size else []
        bad_path = Path(str(out) + ".bad.csv")
        bad = pd.read_csv(bad_path)["row"].tolist() if bad_path.exists() else []
        assert not set(good) & set(bad)  # no row both scored and reported
        assert (code == 1) == bool(bad)


@pytest.mark.parametrize("slow", SLOW)
def test_fuzz_score_file_rows(slow):
    _run(_score_file_prop, _score_rows, max(20, _sizes(slow) // 5))


_surrogate_texts = st.lists(
    st.one_of(st.just("123m456p789s11z22z+2z"),
              st.text(st.characters(categories=["Cs", "Nd", "Ll"]), max_size=8)),
    min_size=1, max_size=5,
)  # fmt: skip


def _surrogates_prop(texts):
    batch, bad = HandBatch.from_text(texts, errors="coerce")
    assert len(batch) + len(bad) == len(texts)
    scores = pd.Series(texts, dtype=object).mj.score(errors="coerce", fan_columns="none")
    assert scores["error"].notna().sum() >= len(bad)


@pytest.mark.parametrize("slow", SLOW)
def test_fuzz_surrogates(slow):
    _run(_surrogates_prop, _surrogate_texts, _sizes(slow))


# out-of-range seeds and offsets: an error in Python, a usage error at the CLI


def _seed_prop(seed_first):
    from mjstats.games import GameOptionError, play_games

    seed, first = seed_first
    ok = 0 <= seed < 2**64 and 0 <= first < 2**63 - 1
    try:
        games, _ = play_games(1, seed=seed, first=first, policy="random")
    except GameOptionError:
        assert not ok, seed_first
        return
    assert ok and len(games) == 1, seed_first


_seeds = st.tuples(
    st.one_of(st.integers(-(2**70), 2**70), st.sampled_from([0, 2**64 - 1, 2**64, -1])),
    st.one_of(st.integers(-(2**64), 2**64), st.sampled_from([0, -1, 2**63 - 2, 2**63])),
)


@pytest.mark.parametrize("slow", SLOW)
def test_fuzz_seeds(slow):
    _run(_seed_prop, _seeds, max(20, _sizes(slow) // 5))


# user policies that raise, at any seat and on either kind of decision


@pytest.mark.parametrize("seat", range(4))
@pytest.mark.parametrize("where", ["own turn", "answer"])
def test_fuzz_user_policies_that_raise(seat, where):
    from mjstats.games import GameError, play_games

    own, answer = _RAISING_OWN if where == "own turn" else _RAISING_ANSWER
    policy = ["random"] * 4
    policy[seat] = (own, answer)
    kind = "own turn" if where == "own turn" else "answer"
    with pytest.raises(GameError, match=rf"^game \d+: the user policy of seat {seat} \({kind}"):
        play_games(4, seed=seat, policy=policy)


def _raising_pair(in_own: bool):
    from numba import njit

    @njit
    def own(view, acts, n_acts, ctx, tab, work):
        if in_own and n_acts > 2:
            raise ValueError("own turn broke")
        return acts[n_acts - 1]

    @njit
    def answer(view, acts, n_acts, ctx, tab, work):
        if not in_own and n_acts > 1:
            raise ValueError("answer broke")
        return acts[0]

    return own, answer


_RAISING_OWN = _raising_pair(True)
_RAISING_ANSWER = _raising_pair(False)
