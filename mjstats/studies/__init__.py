"""Fan-probability studies: generate hands, score them in numba, aggregate exactly.

Every study is a :class:`~mjstats.studies.runner.Study`, run by
:func:`~mjstats.studies.runner.run_study` locally (threads), resumably
(checkpoints) or on a Dask cluster, with identical numbers for the same seed.

=========  ===============================================================
kind       what it computes
=========  ===============================================================
sample     exactly distributed random complete hands, scored (fast default)
dealt      random 13/14-tile deals: shanten (all forms; per form and useful
           tiles as options), P(complete), fans of complete deals
exact      every distinct complete 14-tile hand, weighted: exact answers
play       solitaire games with a discard policy (``efficiency``,
           ``fan-aware`` or your own): P(legal win by draw t), fans, points
games      four-player MCR games (局) played by the game engine's policies:
           wins, deal-ins and points per seat, fans per win and per game
=========  ===============================================================

``analyze`` (per candidate discard of one hand: shanten, useful tiles, and by
Monte Carlo P(legal win within k draws), E[fan | win], expected points) is
:func:`mjstats.studies.analyze.analyze` and ``mjstats analyze``; it runs on the
same runner and policies as ``play``.
"""

from __future__ import annotations

from mjstats.studies.aggregate import Aggregate
from mjstats.studies.kinds import KINDS, make_study
from mjstats.studies.runner import Study, StudyInterrupted, run_study

__all__ = ["KINDS", "Aggregate", "Study", "StudyInterrupted", "make_study", "run_study"]
