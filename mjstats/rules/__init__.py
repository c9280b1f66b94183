"""Registry of rulesets.

Each ruleset lives in its own module (``mjstats.rules.mcr``, ...) and exposes a
module-level ``RULESET``. Modules are imported on first use so that
``import mjstats`` stays fast.
"""

from __future__ import annotations

import importlib

from mjstats.errors import UnknownRulesetError
from mjstats.rules.base import FanDef, Ruleset

__all__ = ["FanDef", "Ruleset", "get_ruleset", "rulesets"]

# registry name -> module path
_MODULES = {
    "mcr": "mjstats.rules.mcr",
    "two-player": "mjstats.rules.two_player",
}


def rulesets() -> list[str]:
    """Names of the rulesets mjstats knows, for ``ruleset=`` arguments.

    Examples
    --------
    >>> import mjstats
    >>> "mcr" in mjstats.rulesets()
    True
    """
    names = []
    for name, module in _MODULES.items():
        try:
            importlib.import_module(module)
        except ModuleNotFoundError:
            continue
        names.append(name)
    return names


def get_ruleset(ruleset: str | Ruleset = "mcr", **options: object) -> Ruleset:
    """Resolve a ruleset name (or pass a :class:`Ruleset` through), applying options.

    Examples
    --------
    >>> from mjstats.rules import get_ruleset
    >>> get_ruleset("mcr").minimum
    8
    """
    if isinstance(ruleset, Ruleset):
        rs = ruleset
    else:
        key = str(ruleset).lower().replace("_", "-")
        if key not in _MODULES:
            raise UnknownRulesetError(
                f"unknown ruleset {ruleset!r}; choose one of {', '.join(rulesets())}"
            )
        try:
            rs = importlib.import_module(_MODULES[key]).RULESET
        except ModuleNotFoundError:
            raise UnknownRulesetError(f"ruleset {ruleset!r} is not available yet") from None
    return rs.with_options(**options) if options else rs
