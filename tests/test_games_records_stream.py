"""Played games written as Botzone records while they are played (issue 17, "Records
out and back"): blocks of games in play_games, the games study's --records, the
resume of a records file, and bounded memory on the way out and back."""

from __future__ import annotations

import os
import tracemalloc

import numba
import pytest
from conftest import interrupt_after

from mjstats.cli import main
from mjstats.games import GameOptionError, play_games
from mjstats.games import engine as E
from mjstats.games.records import RecordsResumeError, resume_records
from mjstats.records import check_records, read_botzone, replay
from mjstats.studies.games import GamesStudy, games, run_games
from mjstats.studies.runner import StudyInterrupted

N, SEED = 120, 11
MIXED = ["efficiency", "random", "fan-aware", "random"]


@pytest.fixture(scope="module")
def whole(tmp_path_factory):
    """Records of N games written by one unblocked-size call, and its results."""
    path = tmp_path_factory.mktemp("rec") / "whole.txt"
    table, fans = play_games(N, SEED, wall="botzone", policy=MIXED, records=path)
    return path, path.read_bytes(), table, fans


def test_blocks_give_the_games_and_bytes_of_one_block(whole, tmp_path, monkeypatch):
    _, data, table, fans = whole
    plain, plain_fans = play_games(N, SEED, wall="botzone", policy=MIXED)
    assert table.equals(plain) and (fans == plain_fans).all()  # records change nothing
    monkeypatch.setattr(E, "RECORD_BLOCK", 7)  # 18 blocks, the last one short
    blocked, blocked_fans, final = play_games(
        N, SEED, wall="botzone", policy=MIXED, records=tmp_path / "b.txt", keep_state=True
    )
    assert blocked.equals(plain) and (blocked_fans == plain_fans).all()
    monkeypatch.setattr(E, "RECORD_BLOCK", N)
    _, _, final_whole = play_games(
        N, SEED, wall="botzone", policy=MIXED, keep_state=True, records=os.devnull
    )
    assert (final == final_whole).all()  # S_NLOG counts moves only when they are logged
    assert (tmp_path / "b.txt").read_bytes() == data


def test_written_records_read_back_legal_and_matched(whole):
    path, data, table, _ = whole
    assert data.count(b"\nMatch ") + 1 == N and data.endswith(b"\n\n")
    t = replay(path)
    assert len(t) == N and t.legal.all() and t.matched.all(), t[~t.matched].to_string()
    records = read_botzone(path)
    check = check_records(records)
    assert records.games == N and check.wins == int((table.winner >= 0).sum())
    assert check.matched == check.wins > 0
    assert main(["records", str(path), "--check"]) == 0


def test_a_stopped_game_writes_the_blocks_before_it(tmp_path, monkeypatch):
    from mjstats.games import kernels as G

    real = E._run_kernel

    def game_5_stops(user, first, n, *args):  # as a policy's illegal action would
        real(user, first, n, *args)
        out = args[6]
        if n > 1 and first <= 5 < first + n:
            out[5 - first, G.R_ERR] = G.E_POLICY

    monkeypatch.setattr(E, "_run_kernel", game_5_stops)
    monkeypatch.setattr(E, "RECORD_BLOCK", 4)
    path = tmp_path / "stopped.txt"
    with pytest.raises(E.GameError, match=r"^game 5: policy returned an illegal action"):
        play_games(10, 1, wall="botzone", policy="random", records=path)
    text = path.read_text(encoding="utf-8")
    assert text.count("Match ") == 4 and "Match mjstats-1-3\n" in text  # block 0-3 whole
    assert text.endswith("\n\n") and read_botzone(path).games == 4


def _peak(fn) -> int:
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_the_writers_memory_does_not_grow_with_the_games(tmp_path):
    play_games(10, 1, wall="botzone", policy="random", records=os.devnull)  # compiled
    extra = {}
    for n in (2_000, 20_000):
        without = _peak(lambda n=n: play_games(n, 1, wall="botzone", policy="random"))
        path = tmp_path / f"{n}.txt"
        with_records = _peak(
            lambda n=n, path=path: play_games(n, 1, wall="botzone", policy="random", records=path)
        )
        extra[n] = with_records - without
    # one block of logs and states (about 20 MB) whatever n; holding every game's
    # log, as before, took 40 MB for 2,000 games and 400 MB for 20,000
    assert extra[20_000] < 1.25 * extra[2_000] + (2 << 20), extra
    assert extra[20_000] < 40e6, extra
    assert (tmp_path / "20000.txt").stat().st_size > 9 * (tmp_path / "2000.txt").stat().st_size


def test_reading_back_does_not_hold_the_file(tmp_path):
    """The records reader reads a chunk at a time: its peak does not grow with the file
    (about a dozen bytes of tables per byte of a chunk: each game's wall, its moves as
    engine log rows, its replayed state); replay keeps one row per game, not the file."""
    small, big = tmp_path / "s.txt", tmp_path / "b.txt"
    play_games(1_000, 2, wall="botzone", policy="random", records=small)
    play_games(3_000, 2, wall="botzone", policy="random", records=big)
    check_records(read_botzone(small))  # compiled
    chunk = 1 << 20
    peak = {p: _peak(lambda p=p: check_records(read_botzone(p, chunk_size=chunk)))
            for p in (small, big)}  # fmt: skip
    assert big.stat().st_size > 9 * chunk
    assert peak[big] < 1.25 * peak[small] < 20 * chunk, peak
    from mjstats.records.reader import _CHUNK

    replay(small)  # compiled
    assert _peak(lambda: replay(big)) < 20 * _CHUNK


# ------------------------------------------------------------------ the games study
def _study_records(path, **kw):
    study = GamesStudy(N, SEED, policy=MIXED, wall="botzone", chunk_size=kw.pop("chunk", 40))
    run_games(study, path, progress=False, **kw)
    return path.read_bytes()


def test_study_records_are_the_play_games_records(whole, tmp_path):
    _, data, _, _ = whole
    assert _study_records(tmp_path / "a.txt") == data
    assert games(N, SEED, policy=MIXED, wall="botzone", chunk_size=N, progress=False,
                 records=tmp_path / "f.txt") is not None  # fmt: skip
    assert (tmp_path / "f.txt").read_bytes() == data


@pytest.mark.parametrize("chunk, group_size", [(1, 7), (13, 1), (13, 3), (N, 1)])
def test_study_records_do_not_depend_on_chunks_or_groups(whole, tmp_path, chunk, group_size):
    _, data, _, _ = whole
    assert _study_records(tmp_path / "c.txt", chunk=chunk, group_size=group_size) == data


def test_study_records_do_not_depend_on_threads(whole, tmp_path):
    _, data, _, _ = whole
    before = numba.get_num_threads()
    try:
        for threads in (1, min(2, numba.config.NUMBA_NUM_THREADS)):
            numba.set_num_threads(threads)
            assert _study_records(tmp_path / f"t{threads}.txt") == data
    finally:
        numba.set_num_threads(before)


def test_a_resumed_study_continues_its_records(whole, tmp_path):
    _, data, _, _ = whole
    study = GamesStudy(N, SEED, policy=MIXED, wall="botzone", chunk_size=20)
    ckpt, path = tmp_path / "g.ckpt", tmp_path / "r.txt"
    with pytest.raises(StudyInterrupted):
        run_games(study, path, group_size=1, checkpoint=ckpt, progress=False,
                  on_group=interrupt_after(2))  # fmt: skip
    assert path.read_bytes().count(b"Match ") == 40
    # games played after the last checkpoint save (a crash): cut off on resume
    with open(path, "ab") as fh:
        fh.write(data[data.index(b"Match mjstats-11-40") : data.index(b"Match mjstats-11-43") - 9])
    whole_agg = games(N, SEED, policy=MIXED, wall="botzone", chunk_size=20, progress=False)
    resumed = run_games(study, path, group_size=2, checkpoint=ckpt, resume=True, progress=False)
    assert resumed == whole_agg
    assert path.read_bytes() == data


def test_a_resume_without_checkpoint_leaves_the_records_alone(tmp_path):
    path = tmp_path / "r.txt"
    path.write_text("Match mjstats-1-0\n", encoding="utf-8")
    study = GamesStudy(10, 1, policy="random", wall="botzone")
    with pytest.raises(FileNotFoundError, match="nothing to resume"):
        run_games(study, path, checkpoint=tmp_path / "none.ckpt", resume=True, progress=False)
    assert path.read_text(encoding="utf-8") == "Match mjstats-1-0\n"


def test_resume_records_refuses_a_file_of_other_games(whole, tmp_path):
    _, data, _, _ = whole
    path = tmp_path / "x.txt"
    path.write_bytes(data)
    with pytest.raises(RecordsResumeError, match="not 'mjstats-12-0'"):
        resume_records(path, 12, 5)
    with pytest.raises(RecordsResumeError, match=f"holds {N} games"):
        resume_records(path, SEED, N + 1)
    with pytest.raises(RecordsResumeError, match="no such file"):
        resume_records(tmp_path / "none.txt", SEED, 3)
    cut = data.index(b"Score", data.index(b"Match mjstats-11-4"))
    path.write_bytes(data[:cut])  # game 4 without its end
    with pytest.raises(RecordsResumeError, match="mjstats-11-4 has no 'Score' line"):
        resume_records(path, SEED, 5)
    resume_records(path, SEED, 4)
    assert path.read_bytes() == data[: data.index(b"Match mjstats-11-4")]
    resume_records(path, SEED, 0)
    assert path.read_bytes() == b""


def test_study_records_need_the_botzone_wall_and_no_dask(tmp_path):
    with pytest.raises(GameOptionError, match="no flowers"):
        games(10, 1, policy="random", wall="shared", records=tmp_path / "a.txt", progress=False)
    with pytest.raises(GameOptionError, match="Dask"):
        games(10, 1, policy="random", wall="botzone", records=tmp_path / "a.txt",
              dask="local:1", progress=False)  # fmt: skip
    assert not (tmp_path / "a.txt").exists()


# ------------------------------------------------------------------ the CLI
def test_cli_study_records_and_check(tmp_path, capsys):
    path = tmp_path / "g.txt"
    args = ["study", "games", "--n", "300", "--seed", "3", "--wall", "botzone", "--policy",
            "efficiency", "--no-progress", "--records", str(path)]  # fmt: skip
    assert main(args) == 0
    assert main([*args[:-1], str(tmp_path / "h.txt"), "--threads", "1"]) == 0
    assert path.read_bytes() == (tmp_path / "h.txt").read_bytes()
    capsys.readouterr()
    assert main(["records", str(path), "--check"]) == 0
    out = capsys.readouterr().out
    counts = dict(line.split() for line in out.splitlines() if line.strip())
    assert counts["games"] == "300" and counts["mismatched"] == "0"
    assert counts["matched"] == counts["wins"] != "0"
    t = replay(path)
    assert len(t) == 300 and t.matched.all()


def test_cli_resume_with_records(tmp_path, capsys):
    path, ckpt = tmp_path / "g.txt", tmp_path / "g.ckpt"
    base = ["study", "games", "--n", "90", "--seed", "5", "--wall", "botzone", "--policy",
            "random", "--no-progress"]  # fmt: skip
    assert main([*base, "--records", str(tmp_path / "ref.txt")]) == 0

    small = GamesStudy(90, 5, policy="random", wall="botzone", chunk_size=30)
    with pytest.raises(StudyInterrupted):
        run_games(small, path, checkpoint=ckpt, group_size=1, progress=False,
                  on_group=interrupt_after(1))  # fmt: skip
    assert path.read_bytes().count(b"Match ") == 30
    capsys.readouterr()
    assert main(["study", "--resume", str(ckpt), "--records", str(path), "--no-progress"]) == 0
    assert path.read_bytes() == (tmp_path / "ref.txt").read_bytes()


@pytest.mark.parametrize(
    "args, message",
    [
        (["games", "--records", "r.txt"], "no flowers"),
        (["games", "--wall", "botzone", "--records", "r.txt", "--dask", "local:1"], "Dask"),
        (["sample", "--records", "r.txt"], "--records applies to study games"),
    ],
)
def test_cli_records_usage_errors_are_one_line(args, message, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["study", *args, "--n", "10"]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_cli_resume_with_foreign_records_is_one_line(tmp_path, capsys):
    ckpt = tmp_path / "g.ckpt"
    args = ["study", "games", "--n", "20", "--seed", "2", "--wall", "botzone", "--policy",
            "random", "--no-progress", "--checkpoint", str(ckpt)]  # fmt: skip
    assert main(args) == 0
    (tmp_path / "other.txt").write_text("Match x\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["study", "--resume", str(ckpt), "--records", str(tmp_path / "other.txt")]) == 1
    err = capsys.readouterr().err
    assert "not 'mjstats-2-0'" in err and err.count("\n") == 1


def test_cli_help_shows_a_records_example():
    from click.testing import CliRunner

    from mjstats.cli import cli

    text = CliRunner().invoke(cli, ["study", "--help"]).output
    assert "--records FILE" in text and "--wall botzone --records games.txt" in text
