"""What every output file says about itself: provenance, strict JSON, CSV sidecars.

Every JSON, Parquet and CSV file mjstats writes carries the same provenance
record (:func:`provenance`): the study ``kind``, ``seed``, ``n``, ``ruleset``
and ``profile``, the ruleset ``options``, the ``mjstats_version`` and the
``command`` that made it. The writers put it

* in JSON, under the key ``"provenance"`` (:func:`json_text`, which also writes
  strict JSON: NaN and infinities become ``null``, so any parser reads it);
* in Parquet, in the file's key-value metadata under ``"mjstats.provenance"``
  (see :mod:`mjstats.report`);
* next to a CSV file, in the sidecar ``<name>.csv.provenance.json``
  (:func:`write_sidecar`), so the CSV itself stays a plain table.

``command`` is what the ``mjstats`` command line was given (set by
:func:`mjstats.cli.main`), else the Python program's ``sys.argv``.

Examples
--------
>>> from mjstats.provenance import provenance, json_text
>>> p = provenance({"n": 1000, "seed": 7, "ruleset": "mcr"}, kind="sample")
>>> {k: p[k] for k in ("kind", "seed", "n", "ruleset", "profile")}
{'kind': 'sample', 'seed': 7, 'n': 1000, 'ruleset': 'mcr', 'profile': 'default'}
>>> json_text({"p": float("nan")}, indent=None)
'{"p": null}'
"""

from __future__ import annotations

import json
import math
import os
import shlex
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from mjstats._version import __version__

__all__ = [
    "PARQUET_KEY",
    "json_text",
    "provenance",
    "set_command",
    "sidecar_path",
    "strict_jsonable",
    "write_json",
    "write_sidecar",
]

PARQUET_KEY = "mjstats.provenance"
"""Key of the provenance record in a Parquet file's metadata."""

_COMMAND: list[str] | None = None


def set_command(argv: Sequence[str] | None) -> None:
    """Record the command line being run (``None``: back to ``sys.argv``)."""
    global _COMMAND
    _COMMAND = None if argv is None else [str(a) for a in argv]


def _command() -> str:
    argv = _COMMAND if _COMMAND is not None else [Path(sys.argv[0]).name, *sys.argv[1:]]
    return shlex.join(argv)


def provenance(source: Any = None, /, *, kind: str | None = None, **extra: Any) -> dict[str, Any]:
    """The provenance record of an output.

    Parameters
    ----------
    source : Aggregate, mapping or None
        An :class:`~mjstats.studies.aggregate.Aggregate` (its kind and params),
        or a mapping of study parameters (``seed``, ``n`` or ``n_games``,
        ``ruleset``, ``profile``, ``options``).
    kind : str, optional
        The study or output kind (default: the aggregate's).
    **extra
        More fields (e.g. ``source`` for records read from a path).

    Returns
    -------
    dict
        ``kind, seed, n, ruleset, profile, options, mjstats_version, command``
        plus ``extra``; a field the source does not define is None (e.g. the
        seed of an exact enumeration or of real records).

    Examples
    --------
    >>> from mjstats.report import _demo_aggregate
    >>> p = provenance(_demo_aggregate())
    >>> p["kind"], p["ruleset"], p["seed"], sorted(p)[:3]
    ('demo', 'mcr', None, ['command', 'kind', 'mjstats_version'])
    """

    params: Mapping[str, Any] = {}
    if source is not None and hasattr(source, "params") and hasattr(source, "kind"):
        params, kind = source.params, kind or source.kind
    elif isinstance(source, Mapping):
        params = source
    ruleset = params.get("ruleset")
    name, _, profile = str(ruleset).partition(":") if ruleset is not None else (None, "", "")
    n = params.get("n", params.get("n_games"))
    record = {
        "kind": kind,
        "seed": params.get("seed"),
        "n": n,
        "ruleset": name,
        "profile": params.get("profile") or profile or ("default" if name else None),
        "options": dict(params.get("options", {})) or None,
        "mjstats_version": __version__,
        "command": _command(),
    }
    record.update(extra)
    return strict_jsonable(record)


def strict_jsonable(obj: Any) -> Any:
    """``obj`` with numpy values as Python ones and NaN/infinities as None (strict JSON).

    Examples
    --------
    >>> import numpy as np
    >>> strict_jsonable({"a": np.float64("nan"), "b": (np.int64(2), 0.5)})
    {'a': None, 'b': [2, 0.5]}
    """
    if isinstance(obj, Mapping):
        return {str(k): strict_jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [strict_jsonable(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return strict_jsonable(obj.tolist())
    if isinstance(obj, np.generic):
        obj = obj.item()
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    if isinstance(obj, os.PathLike):
        return os.fspath(obj)
    return obj


def json_text(obj: Any, *, indent: int | None = 1) -> str:
    """Strict JSON text of ``obj`` (see :func:`strict_jsonable`; UTF-8 kept as is).

    Examples
    --------
    >>> json_text([1.5, float("inf")], indent=None)
    '[1.5, null]'
    """
    return json.dumps(strict_jsonable(obj), ensure_ascii=False, indent=indent, allow_nan=False)


def write_json(path: str | os.PathLike, obj: Mapping[str, Any], prov: Mapping[str, Any]) -> Path:
    """Write ``{"provenance": prov, **obj}`` as strict JSON to ``path``; returns the path.

    Examples
    --------
    >>> import json, tempfile, pathlib
    >>> p = write_json(pathlib.Path(tempfile.mkdtemp()) / "x.json", {"p": 0.5}, {"seed": 1})
    >>> json.loads(p.read_text())
    {'provenance': {'seed': 1}, 'p': 0.5}
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json_text({"provenance": dict(prov), **obj}) + "\n", encoding="utf-8")
    return path


def sidecar_path(path: str | os.PathLike) -> Path:
    """The provenance sidecar of a CSV file: ``fans.csv`` -> ``fans.csv.provenance.json``.

    Examples
    --------
    >>> sidecar_path("out/fans.csv").as_posix()
    'out/fans.csv.provenance.json'
    """
    path = Path(path)
    return path.with_name(path.name + ".provenance.json")


def write_sidecar(path: str | os.PathLike, prov: Mapping[str, Any]) -> Path:
    """Write the provenance sidecar of the file ``path``; returns the sidecar's path."""
    side = sidecar_path(path)
    side.write_text(json_text({"provenance": dict(prov), "file": Path(path).name}) + "\n")
    return side
