"""Checkpoints that cannot lie: a checksum, then consistency with the study.

A checkpoint is a JSON object: the study's kind, parameters and chunk count, the
ranges of chunks done, the merged :class:`~mjstats.studies.aggregate.Aggregate`
of those chunks, and ``sha256``, the SHA-256 of the canonical JSON of all the
rest. :func:`load_checkpoint` refuses (one line, :class:`~mjstats.errors.DataFileError`)
a file that

- is not UTF-8 JSON, not a checkpoint, or fails its checksum (any flipped bit,
  edited digit or range);
- belongs to another study (kind, parameters, chunk count);
- has ``done`` ranges that are not sorted, disjoint, positive ranges of
  integer chunk indices inside the study;
- holds an aggregate that is not the study's (counter names and shapes of a
  fresh one), has a counter that is not a non-negative integer, or whose work
  counter (:attr:`~mjstats.studies.runner.Study.work_counter`: hands, deals,
  games) differs from the work in the chunks done.
"""

from __future__ import annotations

import hashlib
import importlib
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mjstats.errors import DataFileError
from mjstats.rulesets import get_ruleset
from mjstats.studies.aggregate import Aggregate, _jsonable, atomic_write_bytes, read_json
from mjstats.studies.kinds import KINDS, make_study

if TYPE_CHECKING:
    from mjstats.studies.runner import Study

__all__ = ["checkpoint_study", "load_checkpoint", "save_checkpoint", "study_from_params"]

FORMAT = "mjstats-checkpoint"
FORMAT_VERSION = 2


def _digest(payload: dict[str, Any]) -> str:
    canonical = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(canonical.encode()).hexdigest()


def save_checkpoint(path: Path, study: Study, result: Aggregate, done: list[list[int]]) -> None:
    """Write the checkpoint of ``study`` (``done`` merged ranges) atomically."""
    payload = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "kind": study.kind,
        "params": _jsonable(study.params()),
        "n_chunks": study.n_chunks(),
        "done": done,
        "aggregate": result.to_dict(),
    }
    payload["sha256"] = _digest(payload)
    atomic_write_bytes(path, json.dumps(payload).encode())


def load_checkpoint(path: Path, study: Study) -> tuple[Aggregate, list[list[int]]]:
    """The aggregate and done ranges of the checkpoint of ``study`` at ``path``.

    Raises
    ------
    DataFileError
        If the file is damaged, foreign or inconsistent (see the module docstring).
    """
    try:
        return _load(path, study)
    except DataFileError as exc:
        raise DataFileError(f"checkpoint {path}: {exc}") from None


def checkpoint_study(path: str | Path) -> Study:
    """Rebuild the study a checkpoint belongs to, from its kind and parameters alone.

    The checkpoint is verified first (format and checksum); resume it with
    ``run_study(study, checkpoint=path, resume=True)``, which checks the rest.

    Raises
    ------
    FileNotFoundError
        No file at ``path``: nothing to resume.
    DataFileError
        The file is damaged or not a checkpoint, or its parameters do not make
        a study of this mjstats (e.g. a policy given as a Python function).

    Examples
    --------
    >>> from mjstats.studies.checkpoint import checkpoint_study
    >>> checkpoint_study("run.ckpt").params()["seed"]  # doctest: +SKIP
    7
    """
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(
            f"nothing to resume: no checkpoint {path} (run without --resume to start)"
        )
    try:
        payload = _verified(path)
        return _rebuild(payload.get("kind"), payload.get("params"))
    except DataFileError as exc:
        raise DataFileError(f"checkpoint {path}: {exc}") from None


def study_from_params(kind: Any, params: Any) -> Study:
    """The study of ``kind`` made from ``params`` (as its ``params()`` give them):
    the constructor takes the parameters it names, the ruleset is rebuilt from
    its name and options.

    Raises :class:`~mjstats.errors.DataFileError` for an unknown kind or
    parameters that make no study of that kind.

    Examples
    --------
    >>> study_from_params("sample", {"n": 10, "seed": 3, "ruleset": "mcr"}).params()["seed"]
    3
    """
    import inspect

    if kind not in KINDS or not isinstance(params, dict):
        raise DataFileError(f"unknown study kind {kind!r}")
    module, _, name = KINDS[kind].partition(":")
    cls = getattr(importlib.import_module(module), name)
    accepted = inspect.signature(cls).parameters
    kwargs = {k: v for k, v in params.items() if k in accepted and k != "options"}
    try:
        if "ruleset" in kwargs:
            kwargs["ruleset"] = get_ruleset(kwargs["ruleset"], **params.get("options", {}))
        study = make_study(kind, **kwargs)
    except (TypeError, ValueError) as exc:
        raise DataFileError(f"its parameters do not make a {kind} study: {exc}") from None
    return study


def _rebuild(kind: Any, params: Any) -> Study:
    """:func:`study_from_params`, and the study's parameters must be exactly ``params``."""
    study = study_from_params(kind, params)
    if _jsonable(study.params()) != params:
        raise DataFileError(
            f"its parameters ({params}) are not those of a {kind} study of this mjstats"
        )
    return study


def _verified(path: Path) -> dict[str, Any]:
    """The checkpoint's payload (without ``sha256``), once its format and checksum hold."""
    payload = read_json(path)
    if not isinstance(payload, dict) or payload.get("format") != FORMAT:
        raise DataFileError("not an mjstats checkpoint")
    if payload.get("format_version") != FORMAT_VERSION:
        raise DataFileError(
            f"checkpoint format version {payload.get('format_version')!r} is not supported "
            f"(this mjstats reads version {FORMAT_VERSION}); start afresh without --resume"
        )
    stored = payload.pop("sha256", None)
    if not isinstance(stored, str) or stored != _digest(payload):
        raise DataFileError("checksum mismatch: the file was changed or damaged; not resuming")
    return payload


def _load(path: Path, study: Study) -> tuple[Aggregate, list[list[int]]]:
    payload = _verified(path)
    if payload.get("kind") != study.kind or payload.get("params") != _jsonable(study.params()):
        raise DataFileError(
            f"belongs to another study ({payload.get('kind')} {payload.get('params')}); "
            "run with the same parameters, or start afresh without --resume"
        )
    n_chunks = study.n_chunks()
    if payload.get("n_chunks") != n_chunks:
        raise DataFileError(
            f"made for {payload.get('n_chunks')!r} chunks, the study has {n_chunks}"
        )
    done = _check_ranges(payload.get("done"), n_chunks)
    agg = Aggregate.from_dict(payload.get("aggregate"))
    fresh = study.run_chunks(0, 0)
    if not agg.compatible(fresh):
        raise DataFileError("its aggregate does not belong to this study (counters or parameters)")
    name = getattr(study, "work_counter", None)
    if name is not None:
        expected = sum(study.chunk_weight(first, count) for first, count in done)
        got = int(agg.counters[name].sum())
        if got != expected:
            raise DataFileError(
                f"counter {name!r} says {got:,} but the chunks done hold {expected:,}; not resuming"
            )
    return agg, done


def _check_ranges(done: Any, n_chunks: int) -> list[list[int]]:
    if not isinstance(done, list):
        raise DataFileError("'done' is not a list of [first, count] ranges")
    end = 0
    for r in done:
        ok = isinstance(r, list) and len(r) == 2 and all(type(x) is int for x in r)
        if not ok or r[0] < end or r[1] <= 0 or r[0] + r[1] > n_chunks:
            raise DataFileError(
                f"bad 'done' range {r!r}: ranges are sorted, disjoint [first, count] "
                f"pairs of integers inside 0-{n_chunks}"
            )
        end = r[0] + r[1]
    return [list(r) for r in done]
