"""The one path of bad rows under ``errors="coerce"``: parse errors and context errors alike.

:meth:`mjstats.HandBatch.from_text` sets aside the rows that do not parse;
:func:`mjstats.scorer.score_coerce` then sets aside the rows the scorer's checks
refuse (a win context the hand contradicts, a tile the ruleset does not play) and
scores the rest. :func:`mjstats.score_file` and the pandas accessor
(``.mj.score``) use it, so a bad row never costs the good ones. The bad rows
are a DataFrame ``row``, ``text``, ``error`` (:func:`bad_rows_frame`);
:func:`write_bad_rows` writes it as CSV that any CSV reader reads back row for
row.

Examples
--------
>>> from mjstats.bad_rows import bad_rows_frame
>>> bad_rows_frame([2], ["x\\ry"], ["not a hand"])["row"].tolist()
[2]
"""

from __future__ import annotations

import csv
from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = ["bad_rows_frame", "safe_text", "write_bad_rows"]


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
