"""Fan-probability studies: generate hands, score them in numba, aggregate exactly.

Every study is a :class:`~mjstats.studies.runner.Study`, run by
:func:`~mjstats.studies.runner.run_study` locally (threads), resumably
(checkpoints) or on a Dask cluster, with identical numbers for the same seed.

=========  ===============================================================
kind       what it computes
=========  ===============================================================
sample     exactly distributed random complete hands, scored (fast default)
dealt      random 13/14-tile deals: shanten per form, useful tiles, fans
exact      every distinct complete 14-tile hand, weighted: exact answers
=========  ===============================================================

The ``play`` study and ``analyze`` (expected values of discards) are in
development and not part of this release yet.
"""

from __future__ import annotations

import importlib
from typing import Any

from mjstats.studies.aggregate import Aggregate
from mjstats.studies.runner import Study, StudyInterrupted, run_study

__all__ = ["KINDS", "Aggregate", "Study", "StudyInterrupted", "make_study", "run_study"]

KINDS: dict[str, str] = {
    "sample": "mjstats.studies.sample:SampleStudy",
    "dealt": "mjstats.studies.dealt:DealtStudy",
    "exact": "mjstats.studies.exact:ExactStudy",
}
"""Study kind -> ``"module:class"`` (imported on use)."""


def make_study(kind: str, **params: Any) -> Study:
    """Build a study of ``kind`` from keyword parameters (those of its class).

    Examples
    --------
    >>> from mjstats.studies import make_study
    >>> make_study("sample", n=1000, seed=1).params()["n"]
    1000
    """
    try:
        module, _, cls = KINDS[kind].partition(":")
    except KeyError:
        raise ValueError(f"unknown study kind {kind!r}; choose one of {', '.join(KINDS)}") from None
    return getattr(importlib.import_module(module), cls)(**params)
