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
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mjstats.errors import DataFileError
from mjstats.studies.aggregate import Aggregate, _jsonable, atomic_write_bytes, read_json

if TYPE_CHECKING:
    from mjstats.studies.runner import Study

__all__ = ["load_checkpoint", "save_checkpoint"]

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


def _load(path: Path, study: Study) -> tuple[Aggregate, list[list[int]]]:
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
