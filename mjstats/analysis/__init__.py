"""牌理 that knows the 8-fan minimum: the options of one position and what each keeps.

:mod:`mjstats.analysis.position` reads a position (:class:`Position`,
:func:`position`); :mod:`mjstats.analysis.kernels` evaluates each option (numba);
:mod:`mjstats.analysis.exact` gives P(legal win within k draws) and E[points]
(exact for shanten <= 1, Monte Carlo beyond); :mod:`mjstats.analysis.table`
turns them into the table of :func:`analyze`, :func:`win_curves` and
:func:`analyze_batch`. ``docs/analysis.md`` defines every column.
"""

from __future__ import annotations

from mjstats.analysis.position import Position, PositionError, position
from mjstats.analysis.table import AnalysisTable, analyze, analyze_batch, win_curves

__all__ = [
    "AnalysisTable",
    "Position",
    "PositionError",
    "analyze",
    "analyze_batch",
    "position",
    "win_curves",
]
