"""Registry of rulesets.

Each ruleset is one package (``mjstats.rulesets.mcr``, ...; see
:mod:`mjstats.rulesets`) exposing a module-level ``RULESET``; the registry
there finds them (and those given to :func:`mjstats.rulesets.register`). They
are imported on first use so that ``import mjstats`` stays fast.
"""

from __future__ import annotations

import importlib

from mjstats.errors import UnknownRulesetError
from mjstats.rulesets import packages
from mjstats.rulesets.base import FanDef, Profile, Ruleset

__all__ = ["FanDef", "Profile", "Ruleset", "diff", "get_ruleset", "rulesets"]


def rulesets() -> list[str]:
    """Names of the rulesets mjstats knows, for ``ruleset=`` arguments.

    Examples
    --------
    >>> import mjstats
    >>> "mcr" in mjstats.rulesets()
    True
    """
    return list(packages())


def get_ruleset(
    ruleset: str | Ruleset = "mcr", profile: str | None = None, **options: object
) -> Ruleset:
    """Resolve a ruleset name (or pass a :class:`Ruleset` through), applying a
    profile and options.

    Parameters
    ----------
    ruleset : str or Ruleset
        A registered name (:func:`rulesets`), optionally with a profile after a
        colon (``"mcr:wmo-2014"``), or a :class:`Ruleset`.
    profile : str, optional
        A named reading of the ruleset (``Ruleset.profile_names()``; MCR:
        ``"reference"``, the default, and ``"wmo-2014"``). Overrides the one
        after the colon.
    **options
        Option values (``Ruleset.options``), applied after the profile's own.

    Examples
    --------
    >>> from mjstats.rules import get_ruleset
    >>> get_ruleset("mcr").minimum
    8
    >>> get_ruleset("mcr:wmo-2014").profile == get_ruleset("mcr", profile="wmo-2014").profile
    True
    """
    if isinstance(ruleset, Ruleset):
        rs = ruleset
    else:
        name, _, named_profile = str(ruleset).partition(":")
        key = name.strip().lower().replace("_", "-")
        found = packages()
        if key not in found:
            raise UnknownRulesetError(
                f"unknown ruleset {ruleset!r}; choose one of {', '.join(found)}"
            )
        rs = importlib.import_module(found[key]).RULESET
        if profile is None and named_profile:
            profile = named_profile.strip().lower()
    if profile is not None and profile != rs.profile:
        try:
            rs = rs.with_profile(profile)
        except ValueError as exc:
            raise UnknownRulesetError(str(exc)) from None
    return rs.with_options(**options) if options else rs


from mjstats.rules.compare import diff  # noqa: E402 (it uses get_ruleset)
