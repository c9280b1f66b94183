"""Rulesets, one package each: ``mjstats.rulesets.mcr``, ``mjstats.rulesets.two_player``,
and the registry that finds them.

A ruleset package holds everything about its game variant:

``__init__.py``
    Exposes ``RULESET``, a frozen :class:`~mjstats.rulesets.base.Ruleset`
    (usually made in ``fans.py``: the fan table of
    :class:`~mjstats.rulesets.base.FanDef` key, zh, en, points, excludes in
    column order, the options, the profiles). ``RULESET.binding`` names its
    binding module.
``binding.py``
    What generic code asks instead of branching on the ruleset's name
    (``Ruleset.kernel`` imports it; it may define numba kernels, through
    :mod:`mjstats.kernels._jit`):

    - ``opts(rs)``: the kernel's options mask for ruleset ``rs``;
    - ``new_work(table)``: the kernel's per-thread scratch (jitted);
    - ``score(opts, minimum, flowers_count, concealed, melds, win_tile,
      self_drawn, last_of_kind, kong_win, last_of_wall, seat_wind, round_wind,
      flowers, situation, work, fan_out)`` -> ``(total, flower_points, form,
      legal)``: one hand, inlined into :func:`mjstats.rulesets.dispatch.score_one`
      (jitted, ``ijit``; it ignores the arguments its game has no use for);
    - ``score_single``: the one-hand entry of :func:`mjstats.score` (as
      :func:`mjstats.rulesets.mcr.binding.score_single`);
    - ``score_rows`` / ``score_rows_serial``: the batch kernel; ``BATCH_FIELDS``
      the ``HandBatch`` fields it takes after (concealed, melds, win_tile),
      then the options mask when ``TAKES_OPTS``, then minimum, flowers-count
      flag, outputs and the suit table;
    - ``check_context(arrays, batch=...)``: the ruleset's own context validation
      (raising :class:`~mjstats.errors.InvalidContextError` and the like);
    - ``FAN_PLANS``: whether the fan-aware policy's plans
      (:mod:`mjstats.games.discard_policies`) are this ruleset's fans (MCR's); when
      False it plays the efficiency policy.

The registry: the packages under ``mjstats/rulesets/`` are found at first use
(:func:`packages`), plus those given to :func:`register`. A ruleset's kernel
id (what :func:`mjstats.rulesets.dispatch.score_one` dispatches on) is its
position in the registry's names sorted (:func:`ruleset_id`); the numba
dispatch over the bindings' ``score`` and ``new_work`` is generated from the
registry, and the numba cache folder is keyed by it
(:func:`mjstats.kernels._jit.cache_dir`).

Adding a ruleset touches only its own package: copy ``two_player/`` to
``mjstats/rulesets/<name>/``, change the fan table and the ``Ruleset``'s
``name`` and ``binding``, and write the binding (its kernel in the package
too). A package kept outside mjstats is added with
``mjstats.rulesets.register("my_package")`` before the first kernel runs
(``tests/third_ruleset/`` is one). ``score``, ``score_batch``, the studies,
records and the CLI then take ``ruleset="<name>"``.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from pathlib import Path
from types import ModuleType

from mjstats.errors import UnknownRulesetError
from mjstats.rulesets.base import FanDef, Profile, Ruleset

__all__ = [
    "FanDef",
    "Profile",
    "Ruleset",
    "bindings",
    "get_ruleset",
    "packages",
    "register",
    "registered_files",
    "ruleset_id",
    "rulesets",
]

# package names given to register(), in call order
_REGISTERED: list[str] = []
# name -> package module path, sorted by name (built on first use)
_BY_NAME: dict[str, str] = {}


def _builtin() -> list[str]:
    return [f"{__name__}.{m.name}" for m in pkgutil.iter_modules(__path__) if m.ispkg]


def _table() -> dict[str, str]:
    if not _BY_NAME:
        found = {}
        for path in _builtin() + _REGISTERED:
            name = importlib.import_module(path).RULESET.name
            if found.setdefault(name, path) != path:
                raise ValueError(f"two ruleset packages named {name!r}: {found[name]}, {path}")
        _BY_NAME.update(sorted(found.items()))
    return _BY_NAME


def packages() -> dict[str, str]:
    """Ruleset name -> package, sorted by name: those under ``mjstats/rulesets/``
    and those given to :func:`register`.

    Examples
    --------
    >>> packages()["mcr"]
    'mjstats.rulesets.mcr'
    """
    return dict(_table())


def ruleset_id(name: str) -> int:
    """The kernel id of a registered ruleset: its position in :func:`packages`.

    Examples
    --------
    >>> ruleset_id("mcr") in range(len(packages()))
    True
    """
    return list(_table()).index(name)


def bindings() -> tuple[ModuleType, ...]:
    """The rulesets' binding modules in id order (imports them, and numba)."""
    return tuple(
        importlib.import_module(importlib.import_module(p).RULESET.binding)
        for p in _table().values()
    )


def register(package: str) -> None:
    """Add a ruleset package kept outside mjstats (its module path; it exposes
    ``RULESET`` and a binding as described above). Call it before the first
    kernel runs: the kernels' dispatch and their cache folder are made from the
    registry once per process.

    Raises ``ValueError`` once the kernels are loaded, or when the package has
    no ``RULESET`` with a binding.

    Examples
    --------
    >>> register("mjstats.rulesets.mcr")  # a built-in one: nothing changes
    """
    path = package.__name__ if isinstance(package, ModuleType) else str(package)
    if path in _builtin() or path in _REGISTERED:
        return
    rs = getattr(importlib.import_module(path), "RULESET", None)
    if rs is None or not getattr(rs, "binding", ""):
        raise ValueError(f"{path} has no RULESET with a kernel binding")
    if "mjstats.rulesets.dispatch" in sys.modules:
        raise ValueError(
            f"register({path!r}) after mjstats loaded its kernels: register rulesets first"
        )
    _REGISTERED.append(path)
    _BY_NAME.clear()
    # deferred: numba loads with it, and ``import mjstats`` asks the registry for names only
    from mjstats.kernels._jit import add_cache_sources

    add_cache_sources(registered_files(path))  # later kernels cache in the new registry's folder


def registered_files(*packages: str):
    """The source files of ``packages`` (default: all given to :func:`register`);
    they key the numba cache folder with mjstats' own."""
    for path in packages or _REGISTERED:
        module = importlib.import_module(path)
        for folder in getattr(module, "__path__", []):
            yield from sorted(Path(folder).rglob("*.py"))


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
    >>> from mjstats.rulesets import get_ruleset
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
