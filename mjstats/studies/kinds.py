"""The kinds of study by name, for the CLI and checkpoints: ``kind -> "module:class"``.

Kept apart from :mod:`mjstats.studies` (which re-exports it) so that the
checkpoint reader can rebuild a study from its kind without importing the
package's every study.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mjstats.studies.runner import Study

__all__ = ["KINDS", "make_study"]

KINDS: dict[str, str] = {
    "sample": "mjstats.studies.sample:SampleStudy",
    "dealt": "mjstats.studies.dealt:DealtStudy",
    "exact": "mjstats.studies.exact:ExactStudy",
    "play": "mjstats.studies.play:PlayStudy",
    "games": "mjstats.studies.games:GamesStudy",
}
"""Study kind -> ``"module:class"`` (imported on use)."""


def make_study(kind: str, **params: Any) -> Study:
    """Build a study of ``kind`` from keyword parameters (those of its class).

    Examples
    --------
    >>> from mjstats.studies.kinds import make_study
    >>> make_study("sample", n=1000, seed=1).params()["n"]
    1000
    """
    try:
        module, _, cls = KINDS[kind].partition(":")
    except KeyError:
        raise ValueError(f"unknown study kind {kind!r}; choose one of {', '.join(KINDS)}") from None
    return getattr(importlib.import_module(module), cls)(**params)
