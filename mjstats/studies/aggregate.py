"""Exactly mergeable study results.

An :class:`Aggregate` is a bag of named ``int64`` counter arrays plus the
parameters of the study that produced them. Every counter is a sum over hands,
so merging two aggregates is element-wise addition: associative, commutative and
exact. That is what lets a study run in chunks on threads, processes or Dask
workers and still give identical numbers for the same seed.

Quantities that can be derived (means, variances, payments, per-fan hand counts)
are not stored; :class:`Aggregate` derives them from the counters.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from mjstats.errors import DataFileError
from mjstats.provenance import json_text, provenance
from mjstats.studies.summaries import aggregate_html

__all__ = ["Aggregate", "atomic_write_bytes"]

FORMAT_VERSION = 1


def atomic_write_bytes(path: str | os.PathLike, data) -> None:
    """Write ``data`` to ``path`` atomically (temporary file in the same folder, then rename).

    ``data``: bytes, or a function that writes the file's content to the binary file
    object it is given (no copy of a large content in memory first).

    A reader never sees a half-written file, even if the process is killed. The
    file gets the mode of one made by ``open`` (0666 less the umask), not
    ``mkstemp``'s private 0600.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(fd, 0o666 & ~_umask())
        with os.fdopen(fd, "wb") as fh:
            if callable(data):
                data(fh)
            else:
                fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _umask() -> int:
    mask = os.umask(0o022)  # reading the umask means setting it: put it back at once
    os.umask(mask)
    return mask


@dataclass
class Aggregate:
    """Named int64 counters of one study, mergeable with ``+``.

    Attributes
    ----------
    kind : str
        Study kind (``"dealt"``, ``"exact"``, ``"sample"``, ``"play"``, ``"records"``...).
    params : dict
        JSON-serialisable parameters that define the study (ruleset, options, seed,
        n, chunk size...). Two aggregates merge only if their params are equal.
    counters : dict of str to numpy.ndarray
        The int64 counter arrays.
    meta : dict
        Free-form information that does not take part in merging (package version,
        timings).

    Examples
    --------
    >>> import numpy as np
    >>> a = Aggregate("demo", {"n": 2}, {"hits": np.array([1, 2])})
    >>> b = Aggregate("demo", {"n": 2}, {"hits": np.array([3, 4])})
    >>> (a + b).counters["hits"].tolist()
    [4, 6]
    """

    kind: str
    params: dict[str, Any]
    counters: dict[str, np.ndarray]
    meta: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.counters = {
            k: np.ascontiguousarray(v, dtype=np.int64) for k, v in self.counters.items()
        }

    # ------------------------------------------------------------------ merging
    def compatible(self, other: Aggregate) -> bool:
        """True when ``other`` comes from the same study definition."""
        return (
            self.kind == other.kind
            and _jsonable(self.params) == _jsonable(other.params)
            and self.counters.keys() == other.counters.keys()
            and all(self.counters[k].shape == other.counters[k].shape for k in self.counters)
        )

    def __add__(self, other: Aggregate) -> Aggregate:
        if not isinstance(other, Aggregate):
            return NotImplemented
        if not self.compatible(other):
            raise ValueError(
                f"cannot merge aggregates of different studies: {self.kind} {self.params} "
                f"vs {other.kind} {other.params}"
            )
        return Aggregate(
            self.kind,
            dict(self.params),
            {k: self.counters[k] + other.counters[k] for k in self.counters},
            dict(self.meta),
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Aggregate):
            return NotImplemented
        return self.compatible(other) and all(
            np.array_equal(self.counters[k], other.counters[k]) for k in self.counters
        )

    def zeros_like(self) -> Aggregate:
        """An empty aggregate of the same study (the identity of ``+``)."""
        return Aggregate(
            self.kind,
            dict(self.params),
            {k: np.zeros_like(v) for k, v in self.counters.items()},
            dict(self.meta),
        )

    def __getitem__(self, name: str) -> np.ndarray:
        return self.counters[name]

    def _repr_html_(self) -> str:
        return aggregate_html(self)

    # ------------------------------------------------------------- persistence
    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable dictionary (counters as nested lists)."""
        return {
            "format": "mjstats-aggregate",
            "format_version": FORMAT_VERSION,
            "kind": self.kind,
            "params": _jsonable(self.params),
            "meta": _jsonable(self.meta),
            "counters": {
                k: {"shape": list(v.shape), "data": v.ravel().tolist()}
                for k, v in self.counters.items()
            },
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Aggregate:
        """Inverse of :meth:`to_dict`; raises :class:`~mjstats.errors.DataFileError`
        (a ``ValueError``) for anything else, naming the problem."""
        if not isinstance(d, dict) or d.get("format") != "mjstats-aggregate":
            raise DataFileError("not an mjstats aggregate (missing 'format': 'mjstats-aggregate')")
        if d.get("format_version") != FORMAT_VERSION:
            raise DataFileError(
                f"aggregate format version {d.get('format_version')!r} is not supported "
                f"(this mjstats reads version {FORMAT_VERSION})"
            )
        kind, params, meta, raw = (d.get(k) for k in ("kind", "params", "meta", "counters"))
        if not isinstance(kind, str) or not isinstance(params, dict):
            raise DataFileError("aggregate without a 'kind' string and a 'params' object")
        if not isinstance(meta, (dict, type(None))) or not isinstance(raw, dict):
            raise DataFileError("aggregate 'meta' and 'counters' must be objects")
        return cls(kind, params, {k: _counter(k, v) for k, v in raw.items()}, meta or {})

    def save(self, path: str | os.PathLike) -> Path:
        """Write the aggregate as JSON (atomically), with its provenance
        (:func:`mjstats.provenance.provenance`, ignored by :meth:`load`). Returns the path."""
        path = Path(path)
        text = json_text({**self.to_dict(), "provenance": provenance(self)}, indent=None)
        atomic_write_bytes(path, text.encode())
        return path

    @classmethod
    def load(cls, path: str | os.PathLike) -> Aggregate:
        """Read an aggregate written by :meth:`save`.

        A damaged or foreign file raises :class:`~mjstats.errors.DataFileError`
        naming the file and the problem (``OSError`` if it cannot be read at all).
        """
        try:
            return cls.from_dict(read_json(path))
        except DataFileError as exc:
            raise DataFileError(f"{path}: {exc}") from None


def read_json(path: str | os.PathLike) -> Any:
    """The JSON document in file ``path``; :class:`DataFileError` if it is not UTF-8 JSON."""
    data = Path(path).read_bytes()
    try:
        return json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise DataFileError(f"not valid JSON ({type(exc).__name__}: {exc})") from None


def _counter(name: str, v: Any) -> np.ndarray:
    """One counter of :meth:`Aggregate.from_dict`: a shape and as many non-negative integers."""
    if not isinstance(v, dict) or not isinstance(v.get("shape"), list):
        raise DataFileError(f"counter {name!r} has no 'shape' list")
    shape, data = v["shape"], v.get("data")
    if not all(type(s) is int and 0 <= s < 2**31 for s in shape) or len(shape) > 4:
        raise DataFileError(f"counter {name!r} has a bad shape {shape!r}")
    if not isinstance(data, list) or len(data) != math.prod(shape):
        raise DataFileError(f"counter {name!r} does not hold {math.prod(shape)} values")
    if not all(type(x) is int and 0 <= x < 2**63 for x in data):
        bad = next(x for x in data if not (type(x) is int and 0 <= x < 2**63))
        raise DataFileError(f"counter {name!r} holds {bad!r}: counts are integers 0 to 2**63-1")
    return np.array(data, dtype=np.int64).reshape(shape)


def _jsonable(obj: Any) -> Any:
    """Normalise params/meta so that equality does not depend on tuple-vs-list or numpy scalars."""
    if isinstance(obj, dict):
        return {str(k): _jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_jsonable(v) for v in obj]
    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    return obj
