"""Large runs of `mjstats decisions`: shards as independent units of work, the same
whatever the threads, the grouping of shards into tasks, the backend (local or Dask) and
interruptions followed by a resume (mjstats.decisions.shards)."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

import numba
import numpy as np
import pytest

import mjstats.decisions.shards as shards_mod
from mjstats.cli import main
from mjstats.decisions import decision_set, iter_shards, write_decisions
from mjstats.errors import InvalidArgumentError
from mjstats.studies import StudyInterrupted

DATA = Path(__file__).parent / "data" / "botzone"
GAMES, SHARD = 7, 2  # four shards, the last one short


def _shards(folder) -> list[dict]:
    return list(iter_shards(folder))


def _same(a, b) -> None:
    """Two folders hold the same shards (every array), table and provenance (but its
    command line)."""
    x, y = _shards(a), _shards(b)
    assert len(x) == len(y) > 0
    for s, t in zip(x, y, strict=True):
        assert s.keys() == t.keys()
        for k in s:
            assert np.array_equal(s[k], t[k]), k
    pa, pb = (json.loads((Path(f) / "provenance.json").read_text()) for f in (a, b))
    for p in (pa, pb):
        p["provenance"].pop("command")
    assert pa == pb
    name = pa["table"]
    assert (Path(a) / name).read_bytes() == (Path(b) / name).read_bytes()


@pytest.fixture(scope="module")
def ref(tmp_path_factory):
    """Seven simulated games in shards of two, written in one go."""
    out = tmp_path_factory.mktemp("ref")
    write_decisions(out, games=GAMES, seed=5, shard_games=SHARD, progress=False)
    return out


def test_shard_i_holds_games_i_times_n(ref):
    info = json.loads((ref / "provenance.json").read_text())
    assert [s["games"] for s in info["shards"]] == [2, 2, 2, 1]
    for i, s in enumerate(_shards(ref)):
        assert set(s["game"].tolist()) == set(range(i * SHARD, min(GAMES, (i + 1) * SHARD)))
    # the run's bookkeeping: its parameters and a completion mark per shard
    assert json.loads((ref / "run.json").read_text())["params"]["shard_games"] == SHARD
    marks = [json.loads((ref / f"shard-{i:05d}.json").read_text()) for i in range(4)]
    assert [m["first_game"] for m in marks] == [0, 2, 4, 6]
    assert sum(m["decisions"] for m in marks) == info["decisions"]
    assert not list(ref.glob("*.tmp"))


@pytest.mark.parametrize(("threads", "group_size"), [(1, 1), (2, 3), (1, 4)])
def test_same_shards_whatever_the_threads_and_grouping(ref, tmp_path, threads, group_size):
    before = numba.get_num_threads()
    write_decisions(tmp_path, games=GAMES, seed=5, shard_games=SHARD, threads=threads,
                    group_size=group_size, progress=False)  # fmt: skip
    assert numba.get_num_threads() == before  # the run's threads end with it
    _same(ref, tmp_path)


def test_interrupted_then_resumed_equals_uninterrupted(ref, tmp_path, monkeypatch):
    """A SIGINT after the second shard stops the run between shards (the shards written
    are kept); the resume writes the others only, and the folder equals one run."""
    written = []
    real = shards_mod.save_shard

    def write_then_interrupt(out, i, *args, **kw):
        written.append(i)
        mark = real(out, i, *args, **kw)
        if len(written) == 2:
            os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C, deferred to the next task
        return mark

    monkeypatch.setattr(shards_mod, "save_shard", write_then_interrupt)
    with pytest.raises(StudyInterrupted) as info:
        write_decisions(tmp_path, games=GAMES, seed=5, shard_games=SHARD, progress=False,
                        group_size=1)  # fmt: skip
    assert info.value.checkpoint == tmp_path
    assert written == [0, 1] and not (tmp_path / "provenance.json").exists()
    write_decisions(tmp_path, games=GAMES, seed=5, shard_games=SHARD, resume=True,
                    progress=False)  # fmt: skip
    assert written == [0, 1, 2, 3]  # the complete shards were not written again
    _same(ref, tmp_path)


def test_resume_rewrites_a_shard_without_its_mark(ref, tmp_path):
    """A shard without its completion mark (a run killed while writing it: here cut
    short) and a shard whose mark and file are gone are written again."""
    write_decisions(tmp_path, games=GAMES, seed=5, shard_games=SHARD, progress=False)
    last = tmp_path / "shard-00003.npz"
    last.unlink()
    (tmp_path / "shard-00003.json").unlink()
    half = tmp_path / "shard-00001.npz"
    half.write_bytes(half.read_bytes()[:1000])
    (tmp_path / "shard-00001.json").unlink()
    (tmp_path / "provenance.json").unlink()
    (tmp_path / "decisions.parquet").unlink(missing_ok=True)
    (tmp_path / "shard-00002.npz.abc.tmp").write_bytes(b"half")
    write_decisions(tmp_path, games=GAMES, seed=5, shard_games=SHARD, resume=True,
                    progress=False)  # fmt: skip
    assert not list(tmp_path.glob("*.tmp"))
    _same(ref, tmp_path)


def test_a_fresh_run_clears_the_earlier_one_on_a_thread(ref, tmp_path):
    """A fresh run into a folder of a larger earlier run (and of a run killed while its
    files were being removed) returns with only its own files there."""
    write_decisions(tmp_path, games=GAMES + 4, seed=5, shard_games=SHARD, progress=False)
    assert (tmp_path / "shard-00005.npz").exists()
    killed = tmp_path / ".mjstats-cleared-killed"
    killed.mkdir()
    (killed / "shard-00009.npz").write_bytes(b"old")
    write_decisions(tmp_path, games=GAMES, seed=5, shard_games=SHARD, progress=False)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(p.name for p in ref.iterdir())
    _same(ref, tmp_path)


def test_records_interrupted_then_resumed(tmp_path, monkeypatch):
    """Records: shard i is the i-th 16 games in reading order, whatever blocks the
    reader cuts; a resume after Ctrl-C equals one run, and every decision is there."""
    one = tmp_path / "one"
    p = write_decisions(one, DATA, shard_games=16, progress=False)
    assert [s["games"] for s in p["shards"]] == [16, 16, 8]
    assert len(p["match_ids"]) == 40 and p["decisions"] == len(decision_set(DATA))
    calls = []
    real = shards_mod.write_shard

    def write_then_interrupt(out, i, *args, **kw):
        calls.append(i)
        mark = real(out, i, *args, **kw)
        if i == 0:
            os.kill(os.getpid(), signal.SIGINT)
        return mark

    monkeypatch.setattr(shards_mod, "write_shard", write_then_interrupt)
    two = tmp_path / "two"
    with pytest.raises(StudyInterrupted):
        write_decisions(two, DATA, shard_games=16, progress=False)
    assert calls == [0]
    write_decisions(two, DATA, shard_games=16, resume=True, progress=False)
    assert calls == [0, 1, 2]
    _same(one, two)


def test_resume_with_other_parameters_names_them(ref, tmp_path):
    write_decisions(tmp_path, games=GAMES, seed=5, shard_games=SHARD, progress=False)
    with pytest.raises(InvalidArgumentError, match=r"seed=5 \(this run: 6\)"):
        write_decisions(tmp_path, games=GAMES, seed=6, shard_games=SHARD, resume=True)
    with pytest.raises(InvalidArgumentError, match=r"games=7 \(this run: 8\).*shard_games"):
        write_decisions(tmp_path, games=8, seed=5, shard_games=3, resume=True)
    with pytest.raises(InvalidArgumentError, match="policy='efficiency'"):
        write_decisions(tmp_path, DATA, shard_games=SHARD, resume=True)
    _same(ref, tmp_path)  # refused: nothing touched
    with pytest.raises(FileNotFoundError, match="nothing to resume"):
        write_decisions(tmp_path / "new", games=GAMES, resume=True)
    with pytest.raises(InvalidArgumentError, match="bad Dask address"):
        write_decisions(tmp_path, DATA, dask="local:x")
    with pytest.raises(InvalidArgumentError, match="bad Dask address"):
        write_decisions(tmp_path, games=3, dask="nowhere")
    for bad in ({"threads": 0}, {"group_size": 0}, {"games": 2.5}):
        with pytest.raises(InvalidArgumentError):
            write_decisions(tmp_path, **{"games": 3, **bad})


def test_dask_writes_the_same_shards(ref, tmp_path, dask_client):
    write_decisions(tmp_path, games=GAMES, seed=5, shard_games=SHARD, dask=dask_client,
                    group_size=2, progress=False)  # fmt: skip
    _same(ref, tmp_path)


def test_dask_writes_the_same_records_shards(tmp_path, dask_client):
    """Records on Dask: read and split here, each shard's decisions encoded and written
    by a worker; the folder equals the local run's (and a resume on Dask keeps the
    complete shards)."""
    write_decisions(tmp_path / "local", DATA, shard_games=16, progress=False)
    write_decisions(tmp_path / "dask", DATA, shard_games=16, dask=dask_client, progress=False)
    _same(tmp_path / "local", tmp_path / "dask")
    kept = (tmp_path / "dask" / "shard-00000.npz").stat().st_mtime_ns
    (tmp_path / "dask" / "shard-00001.json").unlink()
    write_decisions(tmp_path / "dask", DATA, shard_games=16, dask=dask_client, resume=True,
                    progress=False)  # fmt: skip
    assert (tmp_path / "dask" / "shard-00000.npz").stat().st_mtime_ns == kept
    _same(tmp_path / "local", tmp_path / "dask")


def test_cli_help_resume_and_misuse(ref, tmp_path, capsys):
    assert main(["decisions", "--help"]) == 0
    text = capsys.readouterr().out
    for option in ("--resume", "--dask", "--threads", "--progress", "--games 1000000"):
        assert option in text

    def args(seed=5):
        return ["decisions", "--games", str(GAMES), "--seed", str(seed), "--shard-games",
                str(SHARD), "--out", str(tmp_path), "--no-progress"]  # fmt: skip

    assert main(args()) == 0
    (tmp_path / "shard-00002.json").unlink()
    assert main([*args(), "--resume", "--threads", "1"]) == 0
    _same(ref, tmp_path)
    capsys.readouterr()
    assert main([*args(6), "--resume"]) == 2  # another seed
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "seed=5 (this run: 6)" in err
    assert main(["decisions", str(DATA), "--out", str(tmp_path), "--dask", "nowhere"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "bad Dask address" in err


def test_cli_ctrl_c_then_resume(ref, tmp_path, capsys, monkeypatch):
    """Ctrl-C after two shards: exit status 130 and one line saying how to finish;
    the same command with --resume finishes it."""
    real = shards_mod.save_shard
    written = []

    def write_then_interrupt(out, i, *args, **kw):
        written.append(i)
        mark = real(out, i, *args, **kw)
        if len(written) == 2:
            os.kill(os.getpid(), signal.SIGINT)
        return mark

    monkeypatch.setattr(shards_mod, "save_shard", write_then_interrupt)
    args = ["decisions", "--games", str(GAMES), "--seed", "5", "--shard-games", str(SHARD),
            "--out", str(tmp_path), "--no-progress"]  # fmt: skip
    assert main(args) == 130
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "the same command and --resume" in err
    monkeypatch.setattr(shards_mod, "save_shard", real)
    assert main([*args, "--resume"]) == 0
    _same(ref, tmp_path)


def test_records_shards_do_not_depend_on_the_reader_blocks(tmp_path):
    """Text over 256 KB is read in one piece per thread, each piece a block: the shards
    are the same games all the same (sample.txt ten times: 160 games)."""
    text = (DATA / "sample.txt").read_text(encoding="utf-8")
    big = "\n".join([text.strip()] * 10) + "\n"
    assert len(big.encode()) > 256 << 10
    before = numba.get_num_threads()
    infos = []
    try:
        for threads in (1, 2):
            infos.append(write_decisions(tmp_path / str(threads), big, shard_games=24,
                                         threads=threads, progress=False))  # fmt: skip
    finally:
        numba.set_num_threads(before)
    assert [s["games"] for s in infos[0]["shards"]] == [24] * 6 + [16]
    assert infos[0]["match_ids"] == infos[1]["match_ids"] and len(infos[0]["match_ids"]) == 160
    _same(tmp_path / "1", tmp_path / "2")


def test_resume_refuses_records_that_changed(tmp_path):
    path = tmp_path / "games.txt"
    path.write_bytes((DATA / "sample.txt").read_bytes())
    write_decisions(tmp_path / "out", path, shard_games=8, progress=False)
    path.write_bytes(path.read_bytes() + b"\n")
    with pytest.raises(InvalidArgumentError, match="source_bytes="):
        write_decisions(tmp_path / "out", path, shard_games=8, resume=True, progress=False)


def test_progress_bar_over_the_games(tmp_path, monkeypatch):
    """With progress on, the studies' bar counts the games, to the total (simulated games
    and records; a resume counts the shards it keeps as it passes them)."""
    import mjstats.studies.runner as runner

    bars = []

    class Bar:
        def __init__(self, total, unit):
            self.total, self.unit, self.done = total, unit, 0
            bars.append(self)

        def relabel(self, label):
            pass

        def advance(self, n):
            self.done += n

        def close(self, *exc):
            pass

    monkeypatch.setattr(runner, "_RichBar", Bar)
    write_decisions(tmp_path / "sim", games=5, seed=1, shard_games=2, progress=True)
    write_decisions(tmp_path / "rec", DATA, shard_games=16, progress=True)
    write_decisions(tmp_path / "rec", DATA, shard_games=16, progress=True, resume=True)
    write_decisions(tmp_path / "off", games=2, seed=1, progress=False)
    assert [(b.total, b.done, b.unit) for b in bars] == [(5, 5, "games"), (40, 40, "games"),
                                                         (40, 40, "games")]  # fmt: skip


# ------------------------------------------------------------- large reviews (review_to)
def _games(n: int) -> str:
    """The first ``n`` games of sample.txt (text)."""
    text = (DATA / "sample.txt").read_text(encoding="utf-8")
    return "".join("Match " + g for g in text.split("Match ")[1 : n + 1])


FIVE = _games(5)
PLAYOUTS = 60  # fewer than the default: the Monte Carlo values still depend on each seed


@pytest.fixture(scope="module")
def reviewed():
    """The five games reviewed in one go, in memory."""
    from mjstats.decisions.review import review

    return review(FIVE, playouts=PLAYOUTS, progress=False)


def _same_review(ref, folder, result) -> None:
    """A folder's review equals the review in memory: every summary returned and
    written, and the decisions of its parts."""
    import pandas as pd

    from mjstats.decisions.review import read_review

    assert set(result) == {"seats", "players", "overall", "worst"}
    for name, frame in result.items():
        pd.testing.assert_frame_equal(frame, ref[name])
        written = pd.read_csv(Path(folder) / f"{name}.csv", keep_default_na=False)
        assert written.shape == ref[name].shape and list(written) == list(ref[name])
    pd.testing.assert_frame_equal(read_review(folder), ref["decisions"])


def test_review_in_blocks_equals_the_review(reviewed, tmp_path):
    """Blocks of two games (three parts, the last one game): the Monte Carlo values of a
    decision depend on its game's number, not on its block."""
    from mjstats.decisions.review import review_to

    assert (reviewed["decisions"]["method"] == "monte carlo").sum() > 10
    r = review_to(tmp_path, FIVE, playouts=PLAYOUTS, block_games=2, progress=False)
    _same_review(reviewed, tmp_path, r)
    marks = [json.loads((tmp_path / f"part-{i:05d}.json").read_text()) for i in range(3)]
    assert [(m["games"], m["first_game"]) for m in marks] == [(2, 0), (2, 2), (1, 4)]
    assert sum(m["decisions"] for m in marks) == len(reviewed["decisions"])
    info = json.loads((tmp_path / "provenance.json").read_text())
    assert info["games"] == 5 and info["provenance"]["kind"] == "review"
    assert json.loads((tmp_path / "run.json").read_text())["format"] == "mjstats-review-run"


def test_review_on_two_threads_and_in_csv(reviewed, tmp_path, monkeypatch):
    """Two blocks at once on threads (numba's count of this thread unchanged); parts in
    CSV when pyarrow is missing: the same review."""
    import mjstats.decisions.review as review_mod

    before = numba.get_num_threads()
    r = review_mod.review_to(tmp_path / "t", FIVE, playouts=PLAYOUTS, block_games=1, threads=2,
                             progress=False)  # fmt: skip
    assert numba.get_num_threads() == before
    _same_review(reviewed, tmp_path / "t", r)
    monkeypatch.setattr(review_mod, "_have_parquet", lambda: False)
    r = review_mod.review_to(tmp_path / "c", FIVE, playouts=PLAYOUTS, block_games=3,
                             progress=False)  # fmt: skip
    suffixes = sorted(p.suffix for p in (tmp_path / "c").glob("part-*"))
    assert suffixes == [".csv", ".csv", ".json", ".json"]
    _same_review(reviewed, tmp_path / "c", r)


@pytest.mark.parametrize("threads", [1, 2])
def test_review_interrupted_then_resumed(reviewed, tmp_path, monkeypatch, threads):
    """Ctrl-C after the first part: the review stops (the blocks running are abandoned),
    the parts written are kept; the resume rates only the others (and may change the
    summaries' threshold), and equals one run."""
    import mjstats.decisions.review as review_mod

    rated = []
    real = review_mod._review_block

    def block_then_interrupt(out, i, *args):
        mark = real(out, i, *args)
        rated.append(i)
        if len(rated) == 1:
            os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C, deferred to a safe point
        return mark

    monkeypatch.setattr(review_mod, "_review_block", block_then_interrupt)
    kw = {"playouts": PLAYOUTS, "block_games": 2, "threads": threads, "progress": False}
    with pytest.raises(StudyInterrupted) as info:
        review_mod.review_to(tmp_path, FIVE, **kw)
    assert info.value.checkpoint == tmp_path and not (tmp_path / "provenance.json").exists()
    kept = sorted(int(p.stem[5:]) for p in tmp_path.glob("part-*.json"))
    assert kept == sorted(rated) and 1 <= len(kept) < 3
    r = review_mod.review_to(tmp_path, FIVE, resume=True, threshold=5.0, **kw)
    assert sorted(rated) == [0, 1, 2]  # no block rated twice
    assert r["overall"]["bad_share"].iloc[0] <= reviewed["overall"]["bad_share"].iloc[0]
    r = review_mod.review_to(tmp_path, FIVE, resume=True, **kw)  # all there: summaries only
    assert sorted(rated) == [0, 1, 2]
    _same_review(reviewed, tmp_path, r)


@pytest.mark.parametrize("threads", [1, 2])
def test_review_ctrl_c_within_a_block(reviewed, tmp_path, monkeypatch, threads):
    """A Ctrl-C while a block is rated abandons it at its next decision (no part is
    written, nothing waits for the block's end); the resume equals one run."""
    import mjstats.decisions.review as review_mod

    calls = []
    real = review_mod.option_curves

    def curves_then_interrupt(*args, **kw):
        calls.append(1)
        if len(calls) == 5:
            os.kill(os.getpid(), signal.SIGINT)
        return real(*args, **kw)

    monkeypatch.setattr(review_mod, "option_curves", curves_then_interrupt)
    kw = {"playouts": PLAYOUTS, "block_games": 5, "threads": threads, "progress": False}
    with pytest.raises(StudyInterrupted):
        review_mod.review_to(tmp_path, FIVE, **kw)
    assert len(calls) == 5 and not list(tmp_path.glob("part-*"))
    monkeypatch.setattr(review_mod, "option_curves", real)
    _same_review(reviewed, tmp_path, review_mod.review_to(tmp_path, FIVE, resume=True, **kw))


def test_review_resume_with_other_parameters_names_them(tmp_path):
    from mjstats.decisions.review import review_to

    two = _games(2)
    review_to(tmp_path, two, playouts=PLAYOUTS, progress=False)
    with pytest.raises(InvalidArgumentError, match=r"playouts=60 \(this run: 61\)"):
        review_to(tmp_path, two, playouts=61, resume=True)
    with pytest.raises(InvalidArgumentError, match="source="):
        review_to(tmp_path, _games(3), playouts=PLAYOUTS, resume=True)
    with pytest.raises(InvalidArgumentError, match="is not a run of mjstats decisions"):
        write_decisions(tmp_path, games=2, resume=True)
    with pytest.raises(FileNotFoundError, match="nothing to resume"):
        review_to(tmp_path / "new", two, resume=True)
    for bad in ({"block_games": 0}, {"threads": 1.5}, {"dask": "nowhere"}, {"worst": 0}):
        with pytest.raises(InvalidArgumentError):
            review_to(tmp_path / "bad", two, **bad)
    with pytest.raises(InvalidArgumentError, match="records"):
        review_to(tmp_path / "bad", decision_set(two))


def test_review_on_dask_equals_the_review(reviewed, tmp_path, dask_client):
    from mjstats.decisions.review import review_to

    r = review_to(tmp_path, FIVE, playouts=PLAYOUTS, block_games=2, dask=dask_client,
                  progress=False)  # fmt: skip
    _same_review(reviewed, tmp_path, r)


def test_review_progress_bar_over_the_games(tmp_path, monkeypatch):
    """The bar counts the games as their decisions are rated, to the total, on one
    thread or two (and a resume counts the parts it keeps)."""
    import mjstats.studies.runner as runner
    from mjstats.decisions.review import review_to

    bars = []

    class Bar:
        def __init__(self, total, unit):
            self.total, self.unit, self.steps = total, unit, []
            bars.append(self)

        def relabel(self, label):
            pass

        def advance(self, n):
            self.steps.append(n)

        def close(self, *exc):
            pass

    monkeypatch.setattr(runner, "_RichBar", Bar)
    three = _games(3)
    for threads in (1, 2):
        review_to(tmp_path, three, playouts=PLAYOUTS, block_games=2, threads=threads,
                  progress=True)  # fmt: skip
    review_to(tmp_path, three, playouts=PLAYOUTS, block_games=2, progress=True, resume=True)
    assert [(b.total, sum(b.steps), b.unit) for b in bars] == [(3, 3, "games")] * 3
    assert bars[0].steps == [1, 1, 1] and bars[2].steps == [2, 1]


def test_review_cli_out_resume_and_misuse(reviewed, tmp_path, capsys, monkeypatch):
    import mjstats.decisions.review as review_mod

    assert main(["review", "--help"]) == 0
    text = capsys.readouterr().out
    for option in ("--out", "--resume", "--dask", "--threads", "--block-games", "--progress"):
        assert option in text
    records = tmp_path / "five.txt"
    records.write_text(FIVE, encoding="utf-8")
    out = tmp_path / "rev"
    args = ["review", str(records), "--out", str(out), "--block-games", "2", "--playouts",
            str(PLAYOUTS), "--no-progress"]  # fmt: skip
    real = review_mod._review_block

    def block_then_interrupt(out, i, *a):
        mark = real(out, i, *a)
        if i == 1:  # a Ctrl-C before the first part is merged exits at once
            os.kill(os.getpid(), signal.SIGINT)
        return mark

    monkeypatch.setattr(review_mod, "_review_block", block_then_interrupt)
    assert main(args) == 130
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "the same command and --resume" in err
    monkeypatch.setattr(review_mod, "_review_block", real)
    assert main([*args, "--resume", "--threads", "2"]) == 0
    printed = capsys.readouterr().out
    assert "overall" in printed and "worst decisions" in printed
    _same_review(reviewed, out, {k: reviewed[k] for k in ("seats", "players", "overall",
                                                          "worst")})  # fmt: skip
    assert main(["review", str(records), "--threads", "2"]) == 2  # no --out
    assert "--out" in capsys.readouterr().err
    assert main([*args, "--resume", "--seed", "2"]) == 2
    assert "seed=1 (this run: 2)" in capsys.readouterr().err
