"""Run a study in chunks: locally, resumably, or on a Dask cluster.

A study is split into ``n_chunks`` chunks of work. Chunk ``c`` depends only on
the study's parameters and ``c`` (its random state comes from
:func:`mjstats.kernels.rng.chunk_states`), and its result is an exactly mergeable
:class:`~mjstats.studies.aggregate.Aggregate`. So the final numbers are the same
whatever the thread count, the grouping of chunks into tasks, the backend, or
interruptions and resumes.

The runner hands consecutive *groups* of chunks to the study (a group runs as one
parallel numba call, or one Dask task), merges the results, shows progress, and
writes checkpoints.
"""

from __future__ import annotations

import abc
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mjstats._version import __version__
from mjstats.arguments import check_count, check_seed
from mjstats.compiling import jupyter_shell, notice, progress_wanted, redirect
from mjstats.studies.aggregate import Aggregate
from mjstats.studies.checkpoint import load_checkpoint, save_checkpoint
from mjstats.studies.dask_backend import run_groups
from mjstats.studies.interrupts import deferred_interrupts
from mjstats.studies.summaries import fan_table, summary

__all__ = ["Study", "StudyInterrupted", "chunked_weight", "run_study", "study_count", "study_seed"]


class Study(abc.ABC):
    """Base class of every study: a deterministic function of (parameters, chunk index).

    Subclasses set :attr:`kind`, and implement :meth:`params`, :meth:`n_chunks` and
    :meth:`run_chunks`. Instances must be picklable (they travel to Dask workers).
    """

    kind: str = "study"
    work_counter: str | None = None
    """Counter whose sum equals :meth:`chunk_weight` of the chunks done (checked on resume)."""

    @abc.abstractmethod
    def params(self) -> dict[str, Any]:
        """JSON-serialisable parameters that fully define the result."""

    @abc.abstractmethod
    def n_chunks(self) -> int:
        """Number of chunks the work is split into (fixed by the parameters)."""

    @abc.abstractmethod
    def run_chunks(self, first: int, count: int) -> Aggregate:
        """Compute chunks ``first .. first + count - 1`` and return their merged aggregate."""

    def chunk_weight(self, first: int, count: int) -> int:
        """Units of work (e.g. hands) in the chunks, for the progress bar."""
        return count

    def total_weight(self) -> int:
        """Units of work in the whole study."""
        return self.chunk_weight(0, self.n_chunks())

    def progress_unit(self) -> str:
        """Name of one unit of :meth:`chunk_weight` (``"hands"``, ``"games"``...)."""
        return "chunks"

    # What ``mjstats study KIND`` maps (the command line knows no study of its own).
    default_n: int | None = None
    """Hands or games when ``--n`` is not given; None: the kind takes no ``--n``."""
    count_param: str = "n"
    """The constructor's keyword that ``--n`` sets."""
    cli_options: tuple[str, ...] = ()
    """Options of ``mjstats study`` that this kind takes beyond ``--n``, ``--seed``
    and ``--ruleset``: constructor keywords, as :meth:`cli_params` maps them."""

    @classmethod
    def cli_params(cls, given: dict[str, Any]) -> dict[str, Any]:
        """Constructor keywords for the options given on the command line (those
        not given keep the constructor's defaults); ``ValueError`` for a value the
        kind refuses."""
        return dict(given)

    @classmethod
    def summary_json(cls, agg: Aggregate) -> dict[str, Any]:
        """The headline numbers of an aggregate of this kind, as ``mjstats study
        --json`` writes them: the summary and each fan's probability, when the
        aggregate has fans."""
        if "cooccurrence" not in agg.counters:  # e.g. 13-tile deals have no fans
            return {}
        t = fan_table(agg)
        return {**summary(agg), "fan_probability": dict(zip(t["en"], t["frequency"], strict=True))}


class StudyInterrupted(KeyboardInterrupt):
    """Raised when a run is interrupted (Ctrl-C); carries what was finished.

    Attributes
    ----------
    partial : Aggregate
        The merged result of the chunks that completed.
    checkpoint : pathlib.Path or None
        Where the progress was saved (resume with ``resume=True`` / ``--resume``).
    """

    def __init__(self, partial: Aggregate, checkpoint: Path | None) -> None:
        self.partial = partial
        self.checkpoint = checkpoint
        where = f"; progress saved to {checkpoint}" if checkpoint else ""
        super().__init__(f"study interrupted{where}")


def in_notebook() -> bool:
    """True in a Jupyter kernel, where studies show their progress as a display
    updated in place.

    Examples
    --------
    >>> in_notebook()
    False
    """
    return jupyter_shell() is not None


@dataclass
class _Progress:
    """Minimal progress display: a rich bar on interactive terminals, a line updated in
    place in Jupyter, silence elsewhere."""

    total: int
    unit: str
    enabled: bool

    def __enter__(self) -> _Progress:
        self._bar = None
        if self.enabled:
            self._bar = (
                _JupyterBar(self.total, self.unit)
                if in_notebook()
                else _RichBar(self.total, self.unit)
            )
            # a compile notice becomes the bar's label while kernels compile
            self._label = redirect(self._relabel)
            self._label.__enter__()
        return self

    def _relabel(self, text: str | None) -> None:
        self._bar.relabel("mjstats" if text is None else text.removeprefix("mjstats: "))

    def advance(self, n: int) -> None:
        if self._bar is not None:
            self._bar.advance(n)

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._label.__exit__(*exc)
            self._bar.close(*exc)


class _RichBar:
    """rich's live progress bar (a terminal), gone when done."""

    def __init__(self, total: int, unit: str) -> None:
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self._bar = Progress(
            TextColumn("[progress.description]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn(unit),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            transient=True,
        )
        self._bar.__enter__()
        self._task = self._bar.add_task("mjstats", total=total)

    def relabel(self, label: str) -> None:
        self._bar.update(self._task, description=label)  # rich redraws it from its thread

    def advance(self, n: int) -> None:
        self._bar.advance(self._task, n)

    def close(self, *exc: object) -> None:
        self._bar.__exit__(*exc)


class _JupyterBar:
    """A study's progress in Jupyter: one text display updated in place, at most twice a
    second, that says at the end what the study did.

    Not rich's ipywidgets bar: nbclient answers each update of a widget with a message
    back to the kernel, a backlog the kernel was still working through when a notebook
    ended, so that the SIGINT of the kernel's shutdown logged "KeyboardInterrupt caught in
    kernel" (notebook 02, 2 runs in 3)."""

    def __init__(self, total: int, unit: str) -> None:
        import threading

        from IPython.display import display

        self.total, self.unit, self.done, self.label = total, unit, 0, "mjstats"
        self.began = self.shown = time.perf_counter()
        self._lock = threading.Lock()  # compile notices relabel it from their thread
        self._handle = display({"text/plain": self.text()}, raw=True, display_id=True)

    def text(self, end: bool = False) -> str:
        elapsed = time.perf_counter() - self.began
        share = self.done / self.total if self.total else 1.0
        if end:
            return f"mjstats: {self.done:,} {self.unit} in {_clock(elapsed)}"
        bar = "#" * round(24 * share) + "-" * (24 - round(24 * share))
        left = f", about {_clock(elapsed * (1 - share) / share)} left" if 0 < share < 1 else ""
        return (
            f"{self.label} [{bar}] {self.done:,} of {self.total:,} {self.unit}, "
            f"{_clock(elapsed)}{left}"
        )

    def _show(self, force: bool = False, end: bool = False) -> None:
        with self._lock:
            now = time.perf_counter()
            if force or now - self.shown >= 0.5:
                self.shown = now
                self._handle.update({"text/plain": self.text(end)}, raw=True)

    def relabel(self, label: str) -> None:
        self.label = label
        self._show(force=True)

    def advance(self, n: int) -> None:
        self.done += n
        self._show()

    def close(self, *exc: object) -> None:
        self._show(force=True, end=exc[0] is None if exc else True)


def _clock(seconds: float) -> str:
    """``0:42``, ``12:05``, ``1:02:03``."""
    s = round(seconds)
    return (
        f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"
    )


def _complement(done: list[list[int]], n: int) -> Iterator[tuple[int, int]]:
    """Ranges (first, count) of [0, n) not covered by the ``done`` ranges."""
    pos = 0
    for first, count in sorted(done):
        if first > pos:
            yield pos, first - pos
        pos = max(pos, first + count)
    if pos < n:
        yield pos, n - pos


def _groups(ranges: Iterable[tuple[int, int]], size: int) -> Iterator[tuple[int, int]]:
    """Consecutive groups of at most ``size`` chunks, generated lazily: a study of
    10**13 hands has 10**8 chunks, and a list of their groups alone took 2 GB."""
    for first, count in ranges:
        for start in range(first, first + count, size):
            yield start, min(size, first + count - start)


def _merge_ranges(done: list[list[int]]) -> list[list[int]]:
    out: list[list[int]] = []
    for first, count in sorted(done):
        if out and out[-1][0] + out[-1][1] >= first:
            out[-1][1] = max(out[-1][0] + out[-1][1], first + count) - out[-1][0]
        else:
            out.append([first, count])
    return out


def study_seed(seed: Any) -> int:
    """Check a study seed: an integer 0 to 2**64-1 (:func:`mjstats.arguments.check_seed`;
    :class:`~mjstats.errors.InvalidArgumentError` otherwise).

    Examples
    --------
    >>> study_seed(7)
    7
    >>> study_seed(1.5)
    Traceback (most recent call last):
    ...
    mjstats.errors.InvalidArgumentError: seed must be an integer 0 to 2**64-1, got 1.5 (float)
    """

    return check_seed(seed)


def study_count(name: str, n: Any) -> int:
    """Check a count of hands or games: an integer 0 to 2**63-1
    (:func:`mjstats.arguments.check_count`; :class:`~mjstats.errors.InvalidArgumentError`).

    Examples
    --------
    >>> study_count("n", 10.5)
    Traceback (most recent call last):
    ...
    mjstats.errors.InvalidArgumentError: n must be an integer 0 to 2**63-1, got 10.5 (float)
    """

    return check_count(name, n)


def chunked_weight(total: int, chunk: int, first: int, count: int) -> int:
    """Units in chunks ``first .. first + count - 1`` of ``total`` units cut into
    chunks of ``chunk`` (the last one shorter): closed form, for any count.

    Examples
    --------
    >>> chunked_weight(10, 4, 0, 3), chunked_weight(10, 4, 2, 1)
    (10, 2)
    >>> chunked_weight(10**13, 65536, 0, 10**9)
    10000000000000
    """
    return max(0, min(total, (first + count) * chunk) - min(total, first * chunk))


def default_group_size(study: Study) -> int:
    """Chunks per task: enough to keep every thread busy, small enough for smooth progress."""
    import numba

    return max(1, min(study.n_chunks(), 4 * numba.get_num_threads()))


def run_study(
    study: Study,
    *,
    dask: str | Any | None = None,
    group_size: int | None = None,
    checkpoint: str | Path | None = None,
    resume: bool = False,
    checkpoint_every: float = 30.0,
    save_interrupted: bool = True,
    progress: bool | None = None,
    on_group: Callable[[int, int], None] | None = None,
) -> Aggregate:
    """Run ``study`` to completion and return its merged :class:`Aggregate`.

    Parameters
    ----------
    study : Study
        What to compute.
    dask : str or distributed.Client, optional
        Run the chunk groups as Dask tasks: a scheduler address, ``"local"`` or
        ``"local:N"`` (start a local cluster of N worker processes), or a ``Client``.
        Needs the ``dask`` extra. Results are identical to a local run.
    group_size : int, optional
        Chunks per task (default: 4 per thread). Does not change the result.
    checkpoint : path, optional
        Save the merged result and the list of finished chunks here, atomically,
        every ``checkpoint_every`` seconds, at the end, and on Ctrl-C.
    resume : bool
        Continue from ``checkpoint`` (which must belong to the same study); the
        final result equals that of an uninterrupted run.
    save_interrupted : bool
        Without ``checkpoint``, Ctrl-C saves the progress to
        ``./mjstats-<kind>.checkpoint.json``; False saves nothing then (for
        short runs that are not resumed, such as ``analyze``).
    progress : bool, optional
        Show a progress bar; default: when stderr is an interactive terminal or in a
        Jupyter notebook (a line updated in place), as :func:`mjstats.compiling.progress_wanted`.
    on_group : callable, optional
        Called as ``on_group(first, count)`` after each group is merged (testing hook).

    Raises
    ------
    StudyInterrupted
        On Ctrl-C, after saving a checkpoint (``checkpoint`` or, if none was
        given and ``save_interrupted``, ``./mjstats-<kind>.checkpoint.json``).
        The interrupt takes effect between chunk groups (see :mod:`mjstats.studies.interrupts`).
    FileNotFoundError
        ``resume=True`` and there is no checkpoint file: nothing to resume.
    DataFileError
        The checkpoint is damaged, foreign or inconsistent
        (see :mod:`mjstats.studies.checkpoint`).

    Examples
    --------
    >>> from mjstats.studies.runner import run_study
    >>> from mjstats.studies.dealt import DealtStudy  # doctest: +SKIP
    >>> agg = run_study(DealtStudy(n=100_000, seed=1))  # doctest: +SKIP
    """
    n_chunks = study.n_chunks()
    ckpt = Path(checkpoint) if checkpoint is not None else None
    if group_size is not None and (type(group_size) is not int or group_size < 1):
        raise ValueError(f"group_size must be a positive integer, not {group_size!r}")
    with deferred_interrupts() as guard:
        result: Aggregate | None = None
        done: list[list[int]] = []
        if resume:
            if ckpt is None:
                raise ValueError("resume=True needs the checkpoint path it should continue from")
            if not ckpt.exists():
                raise FileNotFoundError(
                    f"nothing to resume: no checkpoint {ckpt} (run without --resume to start)"
                )
            result, done = load_checkpoint(ckpt, study)
            guard.idle_message = f"interrupted; progress saved to {ckpt} (nothing new done)"
        size = group_size or default_group_size(study)
        todo = _groups(_complement(done, n_chunks), size)
        requested = progress
        if progress is None:  # the library's setting (mjstats --quiet, $MJSTATS_PROGRESS)
            progress = progress_wanted()
        remaining = study.total_weight() - sum(study.chunk_weight(f, c) for f, c in done)
        last_save = time.monotonic()

        def merge(first: int, count: int, part: Aggregate) -> None:
            nonlocal result, last_save
            result = part if result is None else result + part
            done[:] = _merge_ranges([*done, [first, count]])
            guard.idle = False  # from here on an interrupt saves the merged result
            if on_group is not None:
                on_group(first, count)
            if ckpt is not None and time.monotonic() - last_save >= checkpoint_every:
                save_checkpoint(ckpt, study, result, done)
                last_save = time.monotonic()
            guard.check()

        try:
            with (
                notice(study.kind, requested),
                _Progress(remaining, study.progress_unit(), bool(progress)) as bar,
            ):
                if dask is None:
                    for first, count in todo:
                        guard.check()
                        merge(first, count, study.run_chunks(first, count))
                        bar.advance(study.chunk_weight(first, count))
                else:
                    for first, count, part in run_groups(study, todo, dask, guard.check):
                        merge(first, count, part)
                        bar.advance(study.chunk_weight(first, count))
        except KeyboardInterrupt:
            path = ckpt or (
                Path(f"mjstats-{study.kind}.checkpoint.json") if save_interrupted else None
            )
            partial = result if result is not None else study.run_chunks(0, 0)
            if path is not None:
                save_checkpoint(path, study, partial, done)
            raise StudyInterrupted(partial, path) from None
        if result is None:  # nothing to do (e.g. resumed a finished run, or n == 0)
            result = study.run_chunks(0, 0)
        if ckpt is not None:
            save_checkpoint(ckpt, study, result, done)

    result.meta.setdefault("mjstats_version", __version__)
    return result
