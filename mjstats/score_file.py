"""Score a file of hands in chunks: text, CSV or Parquet in, CSV or Parquet out, memory bounded.

:func:`score_file` is what ``mjstats score --file`` runs. It reads a chunk of
rows (``chunk_rows``, default 262,144), parses them with
:meth:`mjstats.HandBatch.from_text` (``errors="coerce"``), scores them with
:func:`mjstats.score_batch`, appends the scores to the output and the bad rows
(``row``, ``text``, ``error``) to a side file, and forgets the chunk. Memory
is that of one chunk (about 300 bytes a row with every fan column) whatever
the file's length: ``benchmarks/bench_score_file.py`` measures it on a
10M-line file.

Inputs: ``.txt`` (or any other name, and ``-`` for standard input), one hand a
line, UTF-8; ``.csv`` with the hands in ``column`` (default ``hand``);
``.parquet`` (``pip install mjstats[parquet]``) likewise. Outputs: ``.parquet``
(one row group a chunk) or ``.csv`` (``-``: CSV on standard output), one row a
hand that parsed: ``row`` (0-based position in the input, data rows only),
``total``, ``legal``, ``form``, ``flowers`` and one column per fan.

Examples
--------
>>> import pathlib, tempfile
>>> from mjstats.score_file import score_file
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> lines = ["[123p]55m12379s789p+8s", "not a hand", "123m456p789s11z22z+2z"]
>>> _ = (d / "hands.txt").write_text("\\n".join(lines) + "\\n")
>>> summary = score_file(d / "hands.txt", d / "scores.csv")
>>> summary.rows, summary.bad, summary.bad_path.name
(3, 1, 'scores.csv.bad.csv')
>>> import pandas as pd
>>> pd.read_csv(d / "scores.csv")[["row", "total"]].values.tolist()
[[0, 17], [2, 11]]
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from mjstats.bad_rows import write_bad_rows
from mjstats.batch import HandBatch
from mjstats.errors import InvalidHandError
from mjstats.scorer import score_coerce

__all__ = ["FileSummary", "score_file"]

CHUNK_ROWS = 262_144
"""Rows per chunk: large enough for the kernels' threads, small enough for bounded memory."""


@dataclass(frozen=True)
class FileSummary:
    """What :func:`score_file` did: rows read, bad rows, and where the bad rows went."""

    rows: int
    bad: int
    out_path: Path | None
    bad_path: Path | None


def _format_of(path: str | os.PathLike, given: str | None) -> str:
    if given:
        return given
    suffix = Path(str(path)).suffix.lower()
    return {".csv": "csv", ".parquet": "parquet", ".pq": "parquet"}.get(suffix, "txt")


def _text_chunks(stream, chunk_bytes: int, progress) -> Iterator[bytes]:
    """Whole lines of a binary stream, about ``chunk_bytes`` at a time."""
    rest = b""
    while True:
        block = stream.read(chunk_bytes)
        if not block:
            break
        progress(len(block))
        block = rest + block
        cut = block.rfind(b"\n")
        if cut < 0:
            rest = block
            continue
        rest = block[cut + 1 :]
        yield block[: cut + 1]
    if rest:
        yield rest


def _chunks(path, fmt: str, column: str, chunk_rows: int, progress) -> Iterator[Any]:
    """Chunks of hand text: bytes of whole lines (txt) or pandas Series (csv, parquet)."""
    if fmt == "txt":
        if str(path) == "-":
            yield from _text_chunks(sys.stdin.buffer, chunk_rows * 64, progress)
        else:
            with open(path, "rb") as stream:
                yield from _text_chunks(stream, chunk_rows * 64, progress)
        return
    import pandas as pd

    if fmt == "csv":
        source = sys.stdin if str(path) == "-" else path
        try:
            reader = pd.read_csv(
                source,
                usecols=[column],
                dtype=object,  # not pyarrow strings: those refuse the escaped bytes
                keep_default_na=False,
                chunksize=chunk_rows,
                encoding_errors="surrogateescape",  # bad bytes: a bad row, not a crash
            )
        except ValueError as exc:
            raise InvalidHandError(f"{path}: no column {column!r} ({exc})") from None
        try:
            for frame in reader:
                progress(len(frame) * 48)  # an estimate: CSV gives no byte offsets
                yield frame[column]
        except pd.errors.ParserError as exc:
            raise InvalidHandError(f"{path}: not a readable CSV file ({exc})") from None
        return
    yield from _parquet_chunks(path, column, chunk_rows, progress)


def _text_of(chunk) -> Callable[[int], Any]:
    """The input text of a row of a chunk (a list, or the bytes of whole lines)."""
    if not isinstance(chunk, bytes):
        return chunk.__getitem__
    lines: list[bytes] = []

    def text_of(r: int) -> Any:
        if not lines:
            lines.extend(chunk.split(b"\n"))
        return lines[r].removesuffix(b"\r").decode("utf-8", "backslashreplace")

    return text_of


def _parquet_chunks(path, column: str, chunk_rows: int, progress) -> Iterator[Any]:
    """Chunks of a Parquet column; a file pyarrow cannot read (empty, truncated, not
    Parquet) is an InvalidHandError naming it."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise InvalidHandError(
            "reading Parquet needs pyarrow: pip install mjstats[parquet]"
        ) from None
    try:
        file = pq.ParquetFile(sys.stdin.buffer if str(path) == "-" else path)
        names = file.schema_arrow.names
        if column not in names:
            raise InvalidHandError(f"{path}: no column {column!r}; columns: {names}")
        for batch in file.iter_batches(batch_size=chunk_rows, columns=[column]):
            progress(batch.nbytes)
            yield batch.column(0).to_pandas()
    except (pa.ArrowException, OSError) as exc:
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise InvalidHandError(f"{path}: not a readable Parquet file ({reason})") from None


class _Writer:
    """Appends frames to a CSV or Parquet output, one chunk at a time."""

    def __init__(self, path, fmt: str) -> None:
        self.path, self.fmt = path, fmt
        self._parquet = None
        self._stream = None
        self._header = True

    def write(self, frame) -> None:
        if self.fmt == "parquet":
            import pyarrow as pa
            import pyarrow.parquet as pq

            table = pa.Table.from_pandas(frame, preserve_index=False)
            if self._parquet is None:
                self._parquet = pq.ParquetWriter(self.path, table.schema)
            self._parquet.write_table(table)
            return
        if self._stream is None:
            if str(self.path) == "-":
                self._stream = sys.stdout
            else:
                self._stream = open(self.path, "w", newline="", encoding="utf-8")
        frame.to_csv(self._stream, index=False, header=self._header)
        self._header = False

    def close(self) -> None:
        if self._parquet is not None:
            self._parquet.close()
        if self._stream is not None and self._stream is not sys.stdout:
            self._stream.close()


def score_file(
    path,
    out,
    *,
    column: str = "hand",
    ruleset="mcr",
    in_format: str | None = None,
    out_format: str | None = None,
    bad_path=None,
    chunk_rows: int = CHUNK_ROWS,
    progress: Callable[[int], None] | None = None,
) -> FileSummary:
    """Score every hand of a file, chunk by chunk, into an output file.

    Parameters
    ----------
    path : str or Path
        Input: text (one hand a line), ``.csv`` or ``.parquet``; ``"-"`` reads
        standard input (text unless ``in_format`` says otherwise).
    out : str or Path
        Output ``.parquet`` or ``.csv``; ``"-"`` writes CSV to standard output.
    column : str
        The hand column of a CSV or Parquet input.
    ruleset : str or Ruleset
        As in :func:`mjstats.score_batch`.
    in_format, out_format : {"txt", "csv", "parquet"}, optional
        Override the formats chosen from the file names.
    bad_path : str or Path, optional
        Where the bad rows go (CSV: ``row``, ``text``, ``error``); default
        ``<out>.bad.csv`` (``mjstats-bad-rows.csv`` when ``out`` is ``-``). Only
        written when some row is bad.
    chunk_rows : int
        Rows per chunk.
    progress : callable, optional
        Called with the number of input bytes consumed (for a progress bar).

    Returns
    -------
    FileSummary
        ``rows`` read, ``bad`` rows, the output and side-file paths.

    Examples
    --------
    See the module docstring.
    """

    if chunk_rows < 1:
        raise ValueError("chunk_rows must be at least 1")
    fmt = _format_of(path, in_format)
    ofmt = _format_of(out, out_format) if str(out) != "-" else (out_format or "csv")
    if ofmt not in ("csv", "parquet"):
        raise InvalidHandError(f"output {out}: write .parquet or .csv (or '-' for CSV)")
    if bad_path is None:
        bad_path = "mjstats-bad-rows.csv" if str(out) == "-" else f"{out}.bad.csv"
    progress = progress or (lambda n: None)
    writer = _Writer(out, ofmt)
    bad_stream = None
    rows = n_bad = 0
    try:
        for chunk in _chunks(path, fmt, column, chunk_rows, progress):
            if not isinstance(chunk, bytes):
                chunk = chunk.tolist()  # a Series: positions, not its labels
            batch, bad = HandBatch.from_text(chunk, errors="coerce")
            n = len(batch) + len(bad)
            scores, batch, bad = score_coerce(batch, bad, ruleset, _text_of(chunk))
            frame = scores.to_frame()
            at = np.arange(n) if batch.index is None else np.asarray(batch.index)
            frame.insert(0, "row", rows + at.astype(np.int64))
            frame["form"] = frame["form"].astype(str)
            writer.write(frame)
            if len(bad):
                bad = bad.assign(row=bad["row"].to_numpy() + rows)
                header = bad_stream is None
                if header:
                    bad_stream = open(bad_path, "w", newline="", encoding="utf-8")
                write_bad_rows(bad_stream, bad, header=header)
                n_bad += len(bad)
            rows += n
    finally:
        writer.close()
        if bad_stream is not None:
            bad_stream.close()
    return FileSummary(
        rows=rows,
        bad=n_bad,
        out_path=None if str(out) == "-" else Path(out),
        bad_path=Path(bad_path) if n_bad else None,
    )
