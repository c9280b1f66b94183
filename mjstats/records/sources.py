"""Which files of a path hold Botzone records, and in which format (told by their content).

:func:`record_files` turns what the user named (a file or a folder, subfolders
included) into the list of record files to read, each with its format:

``"text"``
    Botzone's text data set (``data.txt``, ``sample.txt``): the first line that
    is not blank starts with ``Match``.
``"json"``
    A judge log: one JSON object (or a list of them).
``"jsonl"``
    Judge logs one JSON object per line (a ``.jsonl`` file, or a file whose
    first line is a whole JSON object with more after it).

Names do not matter, content does: a folder may mix ``sample.txt``, a
``judge-logs/`` folder of ``*.json`` and notes such as ``README.md`` (which
hold no records and are passed over). A folder with no record file is an error
naming what was looked for, so reading nothing never passes for success.

Examples
--------
>>> from pathlib import Path
>>> import tempfile
>>> from mjstats.records.sources import record_files
>>> folder = Path(tempfile.mkdtemp())
>>> _ = (folder / "games.txt").write_text("Match 1\\nWind 0\\n")
>>> _ = (folder / "notes.md").write_text("# not records\\n")
>>> (folder / "logs").mkdir()
>>> _ = (folder / "logs" / "a.json").write_text('{"log": []}')
>>> [(p.relative_to(folder).as_posix(), fmt) for p, fmt in record_files(folder)]
[('games.txt', 'text'), ('logs/a.json', 'json')]
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from mjstats.errors import RecordError

__all__ = ["LOOKED_FOR", "record_files", "sniff_format"]

LOOKED_FOR = (
    "Botzone text data sets (first line 'Match ...') and JSON judge logs "
    "(a JSON object or list, or one object per line)"
)
"""What :func:`record_files` recognises, for error messages."""

_HEAD = 4096


def sniff_format(path: str | os.PathLike) -> str | None:
    """The record format of file ``path`` from its first bytes: ``"text"``, ``"json"``,
    ``"jsonl"``, or None when it holds no Botzone records.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "x"
    >>> _ = p.write_text('{"a": 1}\\n{"a": 2}\\n')
    >>> sniff_format(p)
    'jsonl'
    >>> _ = p.write_text("hello\\n")
    >>> sniff_format(p) is None
    True
    """
    path = Path(path)
    with open(path, "rb") as fh:
        head = fh.read(_HEAD)
    body = head.removeprefix(b"\xef\xbb\xbf").lstrip()
    if body.startswith(b"Match "):
        return "text"
    if body[:1] == b"[":
        return "json"
    if body[:1] != b"{":
        return None
    if path.suffix == ".jsonl":
        return "jsonl"
    if path.suffix == ".json":
        return "json"
    # no telling suffix: one object per line when the first line is a whole object
    with open(path, "rb") as fh:
        first = fh.readline()
        more = fh.read(1)
    try:
        json.loads(first)
    except (json.JSONDecodeError, UnicodeDecodeError):
        return "json"
    return "jsonl" if more else "json"


def _mentions_match(path: Path, limit: int = 1 << 20) -> bool:
    with open(path, "rb") as fh:
        return b"\nMatch " in fh.read(limit)


def record_files(path: str | os.PathLike) -> list[tuple[Path, str]]:
    """The record files under ``path`` with their formats, sorted by path.

    A file is returned as it is (one that starts with something else but has
    a ``Match`` line further on is read as a text data set, whose reader then
    says what is wrong with its start); a folder
    is searched whole, subfolders included, and only files whose content is
    records are returned.

    Raises
    ------
    FileNotFoundError
        ``path`` does not exist.
    RecordError
        ``path`` is a folder with no record file in it, or a file without
        records (the message says what was looked for and, for a folder, how
        many files were examined).

    Examples
    --------
    >>> import tempfile
    >>> from mjstats.records.sources import record_files
    >>> record_files(tempfile.mkdtemp())  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mjstats.errors.RecordError: ...: no records found in 0 files (looked for Botzone ...
    """
    path = Path(os.fspath(path))
    if not path.exists():
        raise FileNotFoundError(2, "no such file or directory", str(path))
    if not path.is_dir():
        fmt = sniff_format(path)
        if fmt is None and not _mentions_match(path):
            raise RecordError(f"no records found (looked for {LOOKED_FOR})", str(path))
        return [(path, fmt or "text")]
    examined = 0
    found = []
    for file in sorted(p for p in path.rglob("*") if p.is_file()):
        if any(part.startswith(".") for part in file.relative_to(path).parts):
            continue  # hidden files and folders (.git, .ipynb_checkpoints, ...)
        examined += 1
        fmt = sniff_format(file)
        if fmt is not None:
            found.append((file, fmt))
    if not found:
        raise RecordError(
            f"no records found in {examined} file{'' if examined == 1 else 's'} "
            f"(looked for {LOOKED_FOR}, subfolders included)",
            str(path),
        )
    return found
