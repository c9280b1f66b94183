"""The ``.mj`` accessor of pandas Series of hand text: scores and shanten on the caller's index.

Registered when mjstats is imported (which imports pandas)::

    df["hand"].mj.score()        # DataFrame: total, legal, form, flowers, fan columns
    df["hand"].mj.shanten()      # Series int8
    df["hand"].mj.batch()        # HandBatch (its index is the Series index)
    df["hand"].mj.to_frame()     # the parsed fields, one row per hand

Every result is indexed like the Series, so ``df.join(df["hand"].mj.score())``
puts each score on its own row even when ``df`` was filtered or sorted (the
``score_batch(...).to_frame()`` of a list has a fresh 0..N-1 index, which
``join`` would align to the wrong rows).

Examples
--------
>>> import pandas as pd
>>> import mjstats
>>> df = pd.DataFrame({"hand": ["[123p]55m12379s789p+8s", "123m456p789s11z22z+2z"]})
>>> df = df[df.index == 1]  # filtered: index [1]
>>> df.join(df["hand"].mj.score(fan_columns="none"))[["total", "legal"]]
   total  legal
1     11   True
"""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["MahjongSeriesAccessor"]


@pd.api.extensions.register_series_accessor("mj")
class MahjongSeriesAccessor:
    """``series.mj``: mjstats on a Series of hand text (any notation, see ``docs/notation.md``).

    ``errors="raise"`` (default) raises for the first bad row (naming it and
    how many are bad); ``errors="coerce"`` keeps every row: bad rows get
    missing values and their message in an ``error`` column.
    """

    def __init__(self, series: pd.Series) -> None:
        self._series = series

    def _parse(self, errors: str):
        # deferred: `import mjstats` stays light (numba loads on first use)
        from mjstats.batch import HandBatch

        s = self._series
        if errors == "raise":
            return HandBatch.from_text(s.tolist()), None
        batch, bad = HandBatch.from_text(s.tolist(), errors=errors)
        return batch, bad

    def _on_index(self, frame: pd.DataFrame, batch, bad) -> pd.DataFrame:
        """Put a frame of the good rows onto the Series index (positions, then labels)."""
        if bad is not None and len(bad):
            frame.index = batch.index  # positions of the good rows
            frame = frame.reindex(np.arange(len(self._series)))
            frame["error"] = None
            frame.loc[bad["row"].to_numpy(), "error"] = bad["error"].to_numpy()
        elif bad is not None:
            frame["error"] = None
        frame.index = self._series.index
        return frame

    def batch(self, errors: str = "raise"):
        """The hands as a :class:`~mjstats.HandBatch` whose ``index`` is the Series index.

        Examples
        --------
        >>> import pandas as pd
        >>> pd.Series(["123m456p789s11z22z+2z"], index=["a"]).mj.batch().index.tolist()
        ['a']
        """
        # deferred: `import mjstats` stays light (numba loads on first use)
        from mjstats.batch import HandBatch

        return HandBatch.from_text(self._series, errors=errors)

    def score(self, ruleset="mcr", *, fan_columns: str = "present", errors: str = "raise"):
        """Score every hand: :meth:`mjstats.BatchScore.to_frame` on the Series index.

        Examples
        --------
        >>> import pandas as pd
        >>> s = pd.Series(["[123p]55m12379s789p+8s", "x"], index=[5, 9])
        >>> scores = s.mj.score(errors="coerce")
        >>> scores["total"].tolist(), scores.loc[9, "error"][:19]
        ([17.0, nan], "unknown keyword 'x'")
        """
        # deferred: `import mjstats` stays light (numba loads on first use)
        from mjstats.scorer import score_batch, score_coerce

        batch, bad = self._parse(errors)
        if bad is None:
            scores = score_batch(batch, ruleset)
        else:  # rows the scorer refuses (a contradicting context) join the bad rows
            scores, batch, bad = score_coerce(batch, bad, ruleset, self._series.iloc.__getitem__)
        frame = scores.to_frame(fan_columns=fan_columns)
        return self._on_index(frame, batch, bad)

    def shanten(self, form=None, ruleset="mcr", *, errors: str = "raise") -> pd.Series:
        """Shanten of every hand's concealed tiles (-1 complete, 0 ready) on the Series index.

        Examples
        --------
        >>> import pandas as pd
        >>> pd.Series(["123m456p789s1122z", "123m456p789s11z22z+2z"]).mj.shanten().tolist()
        [0, -1]
        """
        # deferred: `import mjstats` stays light (numba loads on first use)
        from mjstats.efficiency import shanten

        batch, bad = self._parse(errors)
        values = shanten(batch.concealed, batch.n_melds, form=form, ruleset=ruleset)
        frame = pd.DataFrame({"shanten": np.asarray(values, dtype=np.int8).reshape(-1)})
        frame = self._on_index(frame, batch, bad)
        return frame["shanten"] if bad is None else frame

    def to_frame(self, errors: str = "raise") -> pd.DataFrame:
        """The parsed hands (canonical text, waiting, context fields) on the Series index.

        Examples
        --------
        >>> import pandas as pd
        >>> pd.Series(["123m456p789s11z22z+2z tsumo"]).mj.to_frame()["self_drawn"].tolist()
        [True]
        """
        batch, bad = self._parse(errors)
        frame = batch.to_frame()
        return self._on_index(frame.reset_index(drop=True), batch, bad)
