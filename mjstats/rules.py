"""The rulesets under their short, user-facing name: ``mjstats.rules``.

``from mjstats.rules import get_ruleset`` is what the README and notebooks use;
the registry and the ruleset packages themselves are :mod:`mjstats.rulesets`,
which the package's own modules import. :func:`diff` (what two rulesets or
profiles change on the same hands) runs a study, so it is imported from
:mod:`mjstats.studies.compare` only when asked for: asking for a ruleset loads
no study.

Examples
--------
>>> from mjstats.rules import get_ruleset
>>> get_ruleset("mcr:wmo-2014").profile
'wmo-2014'
"""

from __future__ import annotations

from typing import Any

from mjstats.rulesets import FanDef, Profile, Ruleset, get_ruleset, rulesets

__all__ = ["FanDef", "Profile", "Ruleset", "diff", "get_ruleset", "rulesets"]  # noqa: F822 (diff: __getattr__)


def __getattr__(name: str) -> Any:
    if name == "diff":
        # deferred: a study (numba, pandas) loads only when diff is asked for
        from mjstats.studies.compare import diff

        return diff
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
