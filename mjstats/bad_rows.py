"""The one path of bad rows under ``errors="coerce"``: parse errors and context errors alike.

:func:`mjstats.text.parse_texts` sets aside the rows that do not parse;
:func:`score_coerce` then sets aside the rows the scorer's checks refuse (a win
context the hand contradicts, a tile the ruleset does not play) and scores the
rest. :func:`mjstats.score_file` and the pandas accessor (``.mj.score``) use it,
so a bad row never costs the good ones. The bad rows are a DataFrame ``row``,
``text``, ``error`` (:func:`bad_rows_frame`); :func:`write_bad_rows` writes it
as CSV that any CSV reader reads back row for row.

Examples
--------
>>> from mjstats.text import parse_texts
>>> from mjstats.bad_rows import score_coerce
>>> texts = ["123m456p789s11z22z+2z", "1112345678999m+1m last-of-kind", "x"]
>>> batch, bad = parse_texts(texts, errors="coerce")
>>> scores, batch, bad = score_coerce(batch, bad, "mcr", texts.__getitem__)
>>> scores.total.tolist(), bad["row"].tolist()
([11], [1, 2])
"""

from __future__ import annotations

import csv
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from mjstats.errors import InvalidHandError

__all__ = ["bad_rows_frame", "safe_text", "score_coerce", "write_bad_rows"]


def safe_text(text: Any) -> Any:
    """``text`` with lone surrogates (from undecodable bytes) written as ``\\udcff``
    escapes, so UTF-8 writers (pyarrow, CSV files) accept it; other values as given.

    Examples
    --------
    >>> safe_text("12m\\ud800")
    '12m\\\\ud800'
    """
    if isinstance(text, str):
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text


def bad_rows_frame(rows: Sequence[int], texts: Sequence[Any], errors: Sequence[str]):
    """The bad rows as a DataFrame: ``row`` (int64), ``text`` (:func:`safe_text`), ``error``.

    Examples
    --------
    >>> bad_rows_frame([3], ["x"], ["unknown keyword 'x'"]).values.tolist()
    [[3, 'x', "unknown keyword 'x'"]]
    """
    import pandas as pd

    return pd.DataFrame(
        {
            "row": np.asarray(rows, dtype=np.int64).reshape(-1),
            "text": [safe_text(t) for t in texts],
            "error": [safe_text(str(e)) for e in errors],
        }
    )


def score_coerce(batch, bad, ruleset, text_of: Callable[[int], Any]):
    """Score ``batch`` (the good rows of :func:`~mjstats.text.parse_texts` with
    ``errors="coerce"``, its ``bad`` rows beside it), setting aside every row a
    check of the scorer refuses instead of raising.

    ``text_of(position)`` gives the input text of a row (for the bad-rows table).
    Returns ``(scores, batch, bad)``: the :class:`~mjstats.BatchScore` of the rows
    kept, those rows (``index``: their input positions) and all bad rows sorted
    by position. An error that names no rows (a bad ruleset) still raises.
    """
    import pandas as pd

    from mjstats.batch import FIELDS, HandBatch
    from mjstats.scorer import score_batch

    while True:
        try:
            return score_batch(batch, ruleset), batch, bad
        except InvalidHandError as exc:
            rows = getattr(exc, "rows", None)
            if rows is None or not len(rows):
                raise
            problem_of = exc.problem_of
        at = np.arange(len(batch)) if batch.index is None else np.asarray(batch.index)
        where = at[rows]
        new = bad_rows_frame(
            where, [text_of(int(p)) for p in where], [problem_of(int(r)) for r in rows]
        )
        bad = pd.concat([bad.reset_index(drop=True), new], ignore_index=True)
        bad = bad.sort_values("row", kind="stable", ignore_index=True)
        keep = np.ones(len(batch), dtype=np.bool_)
        keep[rows] = False
        fields = {name: getattr(batch, name)[keep] for name in FIELDS}
        batch = HandBatch._from_valid(fields, index=at[keep])


def write_bad_rows(stream, frame, *, header: bool) -> None:
    """Append the bad rows to an open CSV text stream, every text field quoted: a
    row holding a bare CR or a newline reads back as one record in any CSV reader.

    Examples
    --------
    >>> import io, pandas as pd
    >>> buf = io.StringIO()
    >>> write_bad_rows(buf, bad_rows_frame([0], ["x\\ry"], ["no"]), header=True)
    >>> pd.read_csv(io.StringIO(buf.getvalue()))["text"].tolist()
    ['x\\ry']
    """
    frame.to_csv(stream, index=False, header=header, quoting=csv.QUOTE_NONNUMERIC)
