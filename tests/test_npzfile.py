"""The shards' .npz writer: numpy reads back every array exactly, whether the large
ones went by direct I/O or through the page cache (a file system refusing direct I/O,
an in-memory file, arrays not on a block boundary)."""

from __future__ import annotations

import errno
import fcntl
import io
import os
import zipfile

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mjstats.decisions import npzfile
from mjstats.decisions.npzfile import BLOCK, aligned_empty, write_npz

DTYPES = (np.uint8, np.bool_, np.int16, np.int32, np.int64, np.float64)


def _arrays(rng, big: bool, aligned: bool) -> dict[str, np.ndarray]:
    """A shard-like dict: large 3-d and 2-d arrays (aligned or offset by one byte),
    a few scalars columns, an empty array."""
    n = 2100 if big else 7
    obs = aligned_empty((n + 1) * 20 * 34, np.uint8)
    obs = (obs if aligned else obs[1:])[: n * 20 * 34].reshape(n, 20, 34)
    obs[...] = rng.integers(0, 5, obs.shape)
    mask = aligned_empty((n, 235), np.bool_)
    mask[...] = rng.random(mask.shape) < 0.1
    return {"obs": obs, "mask": mask, "action": rng.integers(0, 235, n).astype(np.int16),
            "game": np.arange(n, dtype=np.int64), "empty": np.zeros((0, 3), np.int32)}  # fmt: skip


def _check(path_or_bytes, arrays):
    src = io.BytesIO(path_or_bytes) if isinstance(path_or_bytes, bytes) else path_or_bytes
    with zipfile.ZipFile(src) as z:
        assert z.testzip() is None  # every member's checksum
    if isinstance(src, io.BytesIO):
        src.seek(0)
    with np.load(src) as z:
        assert sorted(z.files) == sorted(arrays)
        for k, a in arrays.items():
            assert z[k].dtype == a.dtype and z[k].shape == a.shape and np.array_equal(z[k], a)


def _spy_direct(monkeypatch) -> list[bool]:
    calls = []
    original = npzfile._DirectFile._write_direct

    def spy(self, view):
        calls.append(original(self, view))
        return calls[-1]

    monkeypatch.setattr(npzfile._DirectFile, "_write_direct", spy)
    return calls


def test_large_aligned_arrays_go_by_direct_io_and_read_back(tmp_path, monkeypatch):
    calls = _spy_direct(monkeypatch)
    arrays = _arrays(np.random.default_rng(1), big=True, aligned=True)
    path = tmp_path / "s.npz"
    with open(path, "wb") as fh:
        write_npz(fh, arrays)
    _check(path, arrays)
    # obs (1.4 MB) and mask below the threshold: one direct write where the system has it
    if hasattr(os, "O_DIRECT"):
        assert len(calls) == 1
    # a large array's data starts on a block boundary of the file
    with zipfile.ZipFile(path) as z:
        info = z.getinfo("obs.npy")
    with open(path, "rb") as fh:
        fh.seek(info.header_offset + 26)
        name_len, extra_len = np.frombuffer(fh.read(4), "<u2")
        fh.seek(info.header_offset + 30 + name_len + extra_len + 8)
        header_len = int(np.frombuffer(fh.read(2), "<u2")[0])
    data_at = info.header_offset + 30 + name_len + extra_len + 10 + header_len
    assert data_at % BLOCK == 0


def test_a_file_system_refusing_direct_io_gets_the_same_file(tmp_path, monkeypatch):
    """tmpfs and others answer O_DIRECT with EINVAL: the writer falls back."""
    arrays = _arrays(np.random.default_rng(2), big=True, aligned=True)
    with open(tmp_path / "direct.npz", "wb") as fh:
        write_npz(fh, arrays)
    real = fcntl.fcntl

    def refuse(fd, cmd, arg=0):
        if cmd == fcntl.F_SETFL and arg & getattr(os, "O_DIRECT", 0):
            raise OSError(errno.EINVAL, "Invalid argument")
        return real(fd, cmd, arg)

    monkeypatch.setattr(fcntl, "fcntl", refuse)
    calls = _spy_direct(monkeypatch)
    with open(tmp_path / "refused.npz", "wb") as fh:
        write_npz(fh, arrays)
    assert calls in ([], [False])
    _check(tmp_path / "refused.npz", arrays)
    assert (tmp_path / "refused.npz").read_bytes() == (tmp_path / "direct.npz").read_bytes()


def test_unaligned_arrays_and_in_memory_files(tmp_path, monkeypatch):
    calls = _spy_direct(monkeypatch)
    arrays = _arrays(np.random.default_rng(3), big=True, aligned=False)
    with open(tmp_path / "u.npz", "wb") as fh:
        write_npz(fh, arrays)
    assert calls == []  # obs does not start on a block boundary: written as usual
    _check(tmp_path / "u.npz", arrays)
    buf = io.BytesIO()
    write_npz(buf, arrays)
    _check(buf.getvalue(), arrays)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(DTYPES), st.lists(st.integers(0, 40), max_size=3)),
                min_size=1, max_size=5),
       st.integers(0, 2**32 - 1))  # fmt: skip
def test_any_arrays_read_back(specs, seed):
    rng = np.random.default_rng(seed)
    arrays = {f"a{i}": np.asarray(rng.random(shape) * 100).astype(dt)
              for i, (dt, shape) in enumerate(specs)}  # fmt: skip
    buf = io.BytesIO()
    write_npz(buf, arrays)
    _check(buf.getvalue(), arrays)


def test_the_shards_of_a_run_are_what_numpy_savez_would_hold(tmp_path):
    from mjstats.decisions import iter_shards, write_decisions
    from mjstats.decisions.shards import shard_arrays
    from mjstats.decisions.table import played_decisions
    from mjstats.games import play_games

    write_decisions(tmp_path, games=30, seed=4, shard_games=20, progress=False)
    for i, shard in enumerate(iter_shards(tmp_path)):
        k = min(20, 30 - 20 * i)
        _, _, final, logs = play_games(k, 4, policy="efficiency", first=20 * i, keep_log=True)
        arrays, _ = shard_arrays(played_decisions(final, logs, first=20 * i), 20 * i, ids=False)
        buf = io.BytesIO()
        np.savez(buf, **arrays)
        _check(buf.getvalue(), shard)


@pytest.mark.parametrize("shape", [(0,), (5, 0), ()])
def test_empty_and_zero_dimensional_arrays(shape):
    arrays = {"x": np.zeros(shape, np.int32)}
    buf = io.BytesIO()
    write_npz(buf, arrays)
    _check(buf.getvalue(), arrays)


def test_same_arrays_same_bytes_whichever_checksum(monkeypatch):
    # the zip has a fixed date, so a run's shards are reproducible byte for byte; the fast
    # checksum (ISA-L, when installed) and zlib's give the same file
    import zlib

    arrays = _arrays(np.random.default_rng(3), big=False, aligned=True)
    first, second = io.BytesIO(), io.BytesIO()
    write_npz(first, arrays)
    monkeypatch.setattr(npzfile, "_crc32", zlib.crc32)
    write_npz(second, arrays)
    assert first.getvalue() == second.getvalue()
    _check(first.getvalue(), arrays)
    with zipfile.ZipFile(io.BytesIO(first.getvalue())) as z:
        assert {i.date_time for i in z.infolist()} == {(1980, 1, 1, 0, 0, 0)}
