"""Learning data on disk: decisions of records or simulated games written as shards.

:func:`write_decisions` writes into a folder ``shard-00000.npz``, ... (each the
encoded decisions of a run of whole games: :func:`mjstats.decisions.encode.encode_decisions`
plus the scalar columns), ``decisions.parquet`` (the scalar columns of every
decision; CSV ``decisions.csv`` when pyarrow, the ``parquet`` extra, is not installed)
and ``provenance.json``, with ``run.json`` (the parameters) and each shard's completion
mark ``shard-00000.json`` while it runs. Memory is bounded by a shard's games, whatever
the number of games; shard ``i`` depends only on the parameters and ``i``
(:mod:`mjstats.decisions.shards`), so the data are the same whatever the threads, the
backend (local or Dask) and interruptions (``resume=True`` finishes a run).
:func:`iter_shards` reads them back as numpy arrays.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterator
from pathlib import Path

import numba
import numpy as np

from mjstats.decisions import runs
from mjstats.decisions.augment import PERMUTATIONS, permute_encoded
from mjstats.decisions.shards import (
    SCALARS,
    DecisionsStudy,
    finish,
    prepare,
    ruleset_params,
    write_records,
)
from mjstats.errors import InvalidArgumentError
from mjstats.records.sources import record_files
from mjstats.studies.runner import StudyInterrupted, run_study

__all__ = ["SCALARS", "iter_shards", "write_decisions"]


def write_decisions(out, source=None, *, games: int | None = None, policy: str = "efficiency",
                    seed: int = 0, ruleset=None, shard_games: int = 200, compress: bool = False,
                    threads: int | None = None, dask=None, resume: bool = False,
                    progress: bool | None = None, group_size: int = 16) -> dict:  # fmt: skip
    """Write the decisions of Botzone records (``source``: a file, folder or text) or
    of ``games`` simulated games (``policy``, ``seed``, ``ruleset``) into folder
    ``out`` as the module documentation says; returns the provenance record.

    Shard ``i`` holds games ``i * shard_games`` on (:mod:`mjstats.decisions.shards`):
    its arrays depend only on the parameters and ``i``, whatever the threads, the
    backend, the tasks or interruptions.

    Parameters
    ----------
    shard_games : int
        Games per shard (bounds the memory).
    compress : bool
        ``np.savez_compressed`` shards.
    threads : int, optional
        numba threads for the run (default: as set).
    dask : str or distributed.Client, optional
        Write the shards as Dask tasks (a scheduler address, ``"local"``, ``"local:N"``
        or a ``Client``; the ``dask`` extra): simulated games are played there; records
        are read and split in this process and each shard's decisions sent to a worker
        to be encoded. The workers write the shard files into ``out``, which must be on
        a file system they share with this process.
    resume : bool
        Continue the run that wrote ``out`` (interrupted, or stopped by a failure):
        shards marked complete are kept, the others written; the result is that of an
        uninterrupted run. The parameters must be the run's.
    progress : bool, optional
        A progress bar over the games (default: :func:`mjstats.compiling.progress_wanted`).
    group_size : int
        Shards of simulated games per task (does not change the data): within a
        task each shard is written on a background thread while the next is
        played and encoded, and the task ends by waiting for its last write (with
        4 shards a task those waits cost a fifth of the run); Ctrl-C stops between
        tasks (16 shards of 200 games: about a second).

    Raises
    ------
    InvalidArgumentError
        A bad option: no source or two, a count below 1, a bad Dask address, a
        resume into a folder written with other parameters (named in the message).
    FileNotFoundError
        ``resume`` into a folder that holds no run.
    mjstats.studies.StudyInterrupted
        Ctrl-C (between shards): the shards written are kept; finish with ``resume=True``.

    Examples
    --------
    >>> import tempfile
    >>> out = tempfile.mkdtemp()
    >>> p = write_decisions(out, games=4, seed=1, shard_games=3)
    >>> n = sum(len(s["action"]) for s in iter_shards(out))
    >>> p["games"], len(p["shards"]), n == p["decisions"]
    (4, 2, True)
    >>> q = write_decisions(out, games=4, seed=1, shard_games=3, resume=True, threads=1)
    >>> q["decisions"] == p["decisions"]
    True
    >>> write_decisions(out, games=4, seed=2, shard_games=3, resume=True)
    Traceback (most recent call last):
    ...
    mjstats.errors.InvalidArgumentError: cannot resume in ...: it was written with seed=1 ...
    """
    if (source is None) == (games is None):
        raise InvalidArgumentError("give either records (source) or a number of games")
    if games is not None and (type(games) is not int or games < 1):
        raise InvalidArgumentError(f"games must be an integer at least 1, not {games!r}")
    counts = {"shard_games": shard_games, "group_size": group_size,
              "threads": 1 if threads is None else threads}  # fmt: skip
    runs.check_options(counts, dask)
    out = Path(os.fspath(out))
    before = numba.get_num_threads()
    if threads is not None:
        numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    try:
        if source is None:
            study = DecisionsStudy(out, games, policy, seed, ruleset, shard_games, compress)
            params = study.run_params()
            prepare(out, params, resume)
            try:
                run_study(study, dask=dask, group_size=group_size, progress=progress,
                          save_interrupted=False)  # fmt: skip
            except StudyInterrupted as exc:
                raise StudyInterrupted(exc.partial, out) from None
            n_shards = study.n_chunks()
        else:
            params = {**_source_params(source), "games": None, "policy": None,
                      "seed": None, **ruleset_params(ruleset), "shard_games": shard_games,
                      "compress": compress}  # fmt: skip
            prepare(out, params, resume)
            n_shards = write_records(out, source, ruleset, shard_games, compress, progress,
                                     dask)  # fmt: skip
        return finish(out, n_shards, params)
    finally:
        numba.set_num_threads(before)
        runs.settle(out)


def _source_params(source) -> dict:
    """Records as ``run.json`` names them: the path, or the digest of the text given,
    and their size in bytes (a resume refuses records that changed size)."""
    if isinstance(source, (bytes, bytearray)) or (isinstance(source, str) and "\n" in source):
        data = source.encode("utf-8") if isinstance(source, str) else bytes(source)
        return {"source": f"<text sha256 {hashlib.sha256(data).hexdigest()}>",
                "source_bytes": len(data)}  # fmt: skip
    if hasattr(source, "read"):
        raise InvalidArgumentError("give records as a path or text, not an open file")
    size = sum(path.stat().st_size for path, _ in record_files(source))
    return {"source": str(source), "source_bytes": size}


def iter_shards(folder, *, augment: bool = False, seed: int = 0) -> Iterator[dict]:
    """The shards of a folder :func:`write_decisions` wrote, in order, each a dict of
    numpy arrays (``obs``, ``baseline``, ``mask``, ``action`` and :data:`SCALARS`).

    ``augment``: permute the three suits of each decision by one of the six
    permutations (:mod:`mjstats.decisions.augment`), drawn from ``seed`` and the
    decision's place in the data set (the same whatever reads it).

    Examples
    --------
    >>> import tempfile
    >>> out = tempfile.mkdtemp()
    >>> _ = write_decisions(out, games=2, seed=3)
    >>> s = next(iter_shards(out, augment=True, seed=1))
    >>> taken = s["mask"][np.arange(len(s["action"])), s["action"]]
    >>> s["obs"].shape[1:], s["mask"].shape[1], bool(taken.all())
    ((20, 34), 235, True)
    """
    folder = Path(os.fspath(folder))
    path = folder / "provenance.json"
    if not path.is_file():
        raise FileNotFoundError(2, "no decisions here (no provenance.json)", str(path))
    info = json.loads(path.read_text(encoding="utf-8"))
    first = 0
    for shard in info["shards"]:
        with np.load(folder / shard["file"]) as z:
            data = {k: z[k] for k in z.files}
        n = len(data["action"])
        if augment:
            rng = np.random.default_rng([seed, first])
            which = rng.integers(0, len(PERMUTATIONS), n)
            parts = {k: v.copy() for k, v in data.items()}
            for j, perm in enumerate(PERMUTATIONS[1:], 1):
                sel = np.flatnonzero(which == j)
                if len(sel):
                    p = permute_encoded({k: data[k][sel] for k in
                                         ("obs", "baseline", "mask", "action")}, perm)  # fmt: skip
                    for k, v in p.items():
                        parts[k][sel] = v
            data = parts
            data["suit_permutation"] = which.astype(np.int8)
        first += n
        yield data
