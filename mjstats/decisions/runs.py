"""Large runs written into a folder as independent parts: the folder is the checkpoint.

:func:`mjstats.decisions.write_decisions` (its shards) and
:func:`mjstats.decisions.review.review_to` (its parts) share this machinery. Part ``i``
of a run depends only on the run's parameters and ``i``. ``run.json`` holds the
parameters (:func:`prepare`); each part is written whole under a temporary name and
renamed (``shard-00000.npz``, ``part-00000.parquet``), then its completion mark
(``shard-00000.json``: the part's file and counts) the same way (:func:`write_part`).
A part with its mark is complete (:func:`complete`) and is skipped by a resumed run;
anything else is written again. :func:`run_tasks` runs the parts in this process, on
threads, or as Dask tasks; a :class:`~mjstats.decisions.table.DecisionSet` travels to a
Dask worker as :func:`portable` makes it.
"""

from __future__ import annotations

import json
import shutil
import tempfile
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from contextlib import ExitStack
from dataclasses import replace
from pathlib import Path
from typing import Any

from mjstats.decisions.table import DecisionSet
from mjstats.errors import InvalidArgumentError
from mjstats.rulesets import get_ruleset
from mjstats.studies.aggregate import atomic_write_bytes
from mjstats.studies.dask_backend import check_address, connect
from mjstats.studies.play import _options_param

__all__ = ["RUN", "BackgroundWriter", "check_options", "complete", "complete_marks",
           "portable", "prepare", "restore", "run_tasks", "settle", "write_part"]  # fmt: skip

RUN = "run.json"


def check_options(counts: dict[str, Any], dask) -> None:
    """``InvalidArgumentError`` for a count below 1 or not an integer (``counts``: name
    to value) and for a bad Dask address (:func:`mjstats.studies.dask_backend.check_address`).

    Examples
    --------
    >>> check_options({"block_games": 0}, None)
    Traceback (most recent call last):
    ...
    mjstats.errors.InvalidArgumentError: block_games must be an integer at least 1, not 0
    """
    for name, value in counts.items():
        if type(value) is not int or value < 1:
            raise InvalidArgumentError(f"{name} must be an integer at least 1, not {value!r}")
    if isinstance(dask, str):
        try:
            check_address(dask)
        except ValueError as exc:
            raise InvalidArgumentError(str(exc)) from None


def _mark(out: Path, stem: str, i: int) -> Path:
    return out / f"{stem}-{i:05d}.json"


def complete(out: Path, i: int, stem: str = "shard") -> dict | None:
    """The completion mark of part ``i`` (``stem-0000i.json``) when the part is
    complete (its mark and the file it names are there), else None.

    Examples
    --------
    >>> import tempfile
    >>> out = Path(tempfile.mkdtemp())
    >>> complete(out, 0) is None
    True
    >>> write_part(out, 0, "shard-00000.txt", b"data", {"games": 1})["games"]
    1
    >>> complete(out, 0)
    {'file': 'shard-00000.txt', 'games': 1}
    """
    mark = _mark(out, stem, i)
    try:
        info = json.loads(mark.read_text(encoding="utf-8"))
    except (OSError, ValueError):  # a mark is written whole or not at all; be safe anyway
        return None
    if not isinstance(info, dict) or not (out / str(info.get("file"))).is_file():
        return None
    return info


def write_part(out: Path, i: int, name: str, data, mark: dict,
               stem: str = "shard") -> dict:  # fmt: skip
    """Write part ``i`` (``data``: bytes, or a function writing them to a file object)
    as ``out / name`` then its completion mark (``mark`` and the file's name), each
    under a temporary name renamed when whole; returns the mark."""
    atomic_write_bytes(out / name, data)
    mark = {"file": name, **mark}
    atomic_write_bytes(_mark(out, stem, i), json.dumps(mark).encode())
    return mark


class BackgroundWriter:
    """Writes parts on one background thread while the caller computes the next, at
    most one part waiting: a part's write (and its ``fsync``) overlaps the next part's
    work, and the memory held stays two parts. Leaving the ``with`` block waits for
    the last write (and raises its error).

    Examples
    --------
    >>> out = []
    >>> with BackgroundWriter() as w:
    ...     for i in range(3):
    ...         w.submit(out.append, i)
    >>> out
    [0, 1, 2]
    """

    def __init__(self) -> None:
        self._pool = ThreadPoolExecutor(1, "mjstats-writer")
        self._pending = None

    def submit(self, fn: Callable[..., Any], *args: Any) -> None:
        """Wait for the write before (raising its error), then start ``fn(*args)``."""
        self.wait()
        self._pending = self._pool.submit(fn, *args)

    def wait(self) -> None:
        """Wait for the write in progress, if any (raising its error)."""
        pending, self._pending = self._pending, None
        if pending is not None:
            pending.result()

    def __enter__(self) -> BackgroundWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            self.wait()  # a part being written is finished whole, even on Ctrl-C
        finally:
            self._pool.shutdown()


def complete_marks(out: Path, n: int, stem: str = "shard") -> list[dict]:
    """The marks of parts ``0 .. n - 1``, all complete (``FileNotFoundError`` naming
    the first that is not: resume the run); removes the temporary files a killed run
    left."""
    marks = []
    for i in range(n):
        mark = complete(out, i, stem)
        if mark is None:
            raise FileNotFoundError(2, f"{stem} {i} is not complete: resume the run",
                                    str(_mark(out, stem, i)))  # fmt: skip
        marks.append(mark)
    for tmp in out.glob(f"{stem}-*.tmp"):  # left by a run killed while writing a part
        tmp.unlink(missing_ok=True)
    return marks


def _differences(old: dict, new: dict) -> list[str]:
    return [f"{k}={old.get(k)!r} (this run: {new.get(k)!r})"
            for k in sorted(set(old) | set(new)) if old.get(k) != new.get(k)]  # fmt: skip


def prepare(out: Path, params: dict[str, Any], resume: bool, *, command: str = "decisions",
            stem: str = "shard", outputs: tuple[str, ...] = ()) -> None:  # fmt: skip
    """Make ``out`` ready for a run of ``mjstats <command>``: a fresh run clears what an
    earlier run wrote there (its parts ``stem-*``, their marks, ``run.json`` and the
    ``outputs`` patterns: moved aside at once and removed on a thread, which the run
    waits for before it returns with :func:`settle`) and records ``params`` in
    ``run.json``; a resumed run checks that ``run.json`` holds the same parameters.

    Raises
    ------
    FileNotFoundError
        ``resume`` and ``out`` holds no run (no ``run.json``).
    InvalidArgumentError
        ``resume`` into a folder written by another command or with other parameters
        (the message names them).
    """
    path = out / RUN
    fmt = f"mjstats-{command}-run"
    if resume:
        if not path.is_file():
            raise FileNotFoundError(2, "nothing to resume (no run.json): run without resume "
                                       "to start", str(path))  # fmt: skip
        try:
            saved = json.loads(path.read_text(encoding="utf-8"))
        except ValueError:
            saved = None
        if not isinstance(saved, dict) or saved.get("format") != fmt:
            raise InvalidArgumentError(f"cannot resume in {out}: {path} is not a run of "
                                       f"mjstats {command}")  # fmt: skip
        diff = _differences(saved.get("params", {}), params)
        if diff:
            raise InvalidArgumentError(
                f"cannot resume in {out}: it was written with {', '.join(diff)}; give the same "
                "parameters, or run without resume to start afresh"
            )
        return
    out.mkdir(parents=True, exist_ok=True)
    old = [p for pattern in (f"{stem}-*", RUN, *outputs) for p in out.glob(pattern)]
    _clear(out, old)
    atomic_write_bytes(path, json.dumps({"format": fmt, "params": params}).encode())


_ASIDE = ".mjstats-cleared-"  # a folder inside the run's, of files being removed
_CLEARING: dict[Path, threading.Thread] = {}


def _clear(out: Path, paths: list[Path]) -> None:
    """Move ``paths`` out of the run's way at once (renames into a hidden folder of
    ``out``) and remove them on a thread while the run computes: removing a large
    run's files waits on the disk (0.3 s for 1.6 GB here, almost no CPU). Folders left
    aside by a run that was killed are removed with them. :func:`settle` waits."""
    settle(out)
    leftovers = list(out.glob(_ASIDE + "*"))
    if paths:
        aside = Path(tempfile.mkdtemp(prefix=_ASIDE, dir=out))
        for p in paths:
            p.rename(aside / p.name)
        leftovers.append(aside)
    if leftovers:
        # not a daemon: an exiting interpreter finishes the removal rather than leave it
        thread = threading.Thread(target=_remove, args=(leftovers,), name="mjstats-clear")
        thread.start()
        _CLEARING[out.resolve()] = thread


def _remove(folders: list[Path]) -> None:
    for folder in folders:
        shutil.rmtree(folder, ignore_errors=True)


def settle(out: Path) -> None:
    """Wait until the files that :func:`prepare` cleared from ``out`` are removed (a
    run calls it before it returns, so the folder then holds only the new run).

    Examples
    --------
    >>> out = Path(tempfile.mkdtemp())
    >>> _ = write_part(out, 0, "shard-00000.txt", b"old", {"games": 1})
    >>> prepare(out, {"games": 2}, resume=False)
    >>> settle(out)
    >>> sorted(p.name for p in out.iterdir())
    ['run.json']
    """
    thread = _CLEARING.pop(out.resolve(), None)
    if thread is not None:
        thread.join()


def portable(ds: DecisionSet) -> tuple:
    """``ds`` as it travels to a Dask worker (a Ruleset does not pickle: it goes by name
    and options); :func:`restore` makes it again.

    Examples
    --------
    >>> import pickle
    >>> from mjstats.records.check import _DEMO_GAME
    >>> from mjstats.decisions import record_decisions
    >>> d = restore(pickle.loads(pickle.dumps(portable(record_decisions(_DEMO_GAME)))))
    >>> len(d), d.ruleset.spec
    (4, 'mcr')
    """
    rs = ds.ruleset
    return replace(ds, ruleset=None), rs.spec, _options_param(rs)


def restore(packed: tuple) -> DecisionSet:
    """The :class:`DecisionSet` that :func:`portable` packed."""
    ds, spec, options = packed
    return replace(ds, ruleset=get_ruleset(spec, **options))


def run_tasks(fn: Callable[..., Any], tasks: Iterable[tuple], *, dask=None, threads: int = 1,
              check: Callable[[], None] = lambda: None,
              stop: threading.Event | None = None) -> Iterator[Any]:  # fmt: skip
    """``fn(*args)`` for each ``args`` of ``tasks``, yielded in completion order.

    ``tasks`` is consumed lazily, a few ahead of the results (two per thread or Dask
    worker thread), so the memory held does not grow with the run. Without ``dask``
    and with one thread, each runs in this thread in turn; with ``threads`` > 1 on a
    pool of threads (numba kernels release the GIL); with ``dask`` (an address,
    ``"local:N"`` or a ``Client``: :func:`mjstats.studies.dask_backend.connect`) as
    Dask tasks. ``check`` is called between results (the interrupt check); when it or
    anything else raises, the tasks not started are cancelled and ``stop`` is set (a
    task running on a thread may watch it to end early) before the threads are joined.

    Examples
    --------
    >>> sorted(run_tasks(pow, [(2, 3), (3, 2), (4, 1)], threads=2))
    [4, 8, 9]
    """
    pending = iter(tasks)
    if dask is None and threads == 1:
        for args in pending:
            check()
            yield fn(*args)
        return
    stop = stop or threading.Event()
    with ExitStack() as stack:
        if dask is not None:
            # deferred: distributed is an optional extra, needed only on Dask
            from distributed import as_completed

            client = connect(dask, stack)
            in_flight = max(2, 2 * sum(client.nthreads().values()))

            def submit(args):
                return client.submit(fn, *args, pure=False)
        else:
            pool = stack.enter_context(ThreadPoolExecutor(threads, "mjstats-part"))
            in_flight = 2 * threads

            def submit(args):
                return pool.submit(fn, *args)

        running = {submit(args) for _, args in zip(range(in_flight), pending, strict=False)}
        try:
            if dask is not None:
                done_iter = as_completed(running)
                for fut in done_iter:
                    check()
                    running.discard(fut)
                    result = fut.result()
                    for args in pending:
                        nxt = submit(args)
                        running.add(nxt)
                        done_iter.add(nxt)
                        break
                    yield result
            else:
                while running:
                    done, _ = wait(running, timeout=0.2, return_when=FIRST_COMPLETED)
                    check()
                    for fut in done:
                        running.discard(fut)
                        result = fut.result()
                        for args in pending:
                            running.add(submit(args))
                            break
                        yield result
        finally:
            stop.set()
            for fut in running:  # those not finished (interrupted, or a task failed)
                fut.cancel()
