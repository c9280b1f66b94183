"""Rulesets as immutable data.

A :class:`Ruleset` is a frozen description of one game variant: its fans (in
column order of every ``fan_counts`` array), their points and exclusions (不计),
the tile kinds it plays with, the shanten forms it allows, its minimum and its
options. Nothing in mjstats mutates a ruleset; :meth:`Ruleset.with_options`
returns a new one.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from types import MappingProxyType

import numpy as np

from mjstats._readonly import read_only

__all__ = ["FanDef", "Profile", "RulePoint", "Ruleset"]


@dataclass(frozen=True)
class FanDef:
    """One fan (番种) of a ruleset.

    Attributes
    ----------
    key : str
        Stable snake_case identifier, e.g. ``"pure_double_chow"``.
    zh : str
        Chinese name as written in the rule text, e.g. ``"一般高"``.
    en : str
        Standard English name, e.g. ``"Pure Double Chow"``.
    points : int
        Value of one occurrence.
    excludes : tuple of str
        Keys of the fans this fan excludes (不计) when both would apply.
    """

    key: str
    zh: str
    en: str
    points: int
    excludes: tuple[str, ...] = ()


@dataclass(frozen=True)
class RulePoint:
    """A rule of a ruleset that is not a plain 不计 pair of its fan table.

    Attributes
    ----------
    key : str
        Stable snake_case name; the kernel function or comment that applies it
        names it too (grep for the key).
    fans : tuple of str
        Keys of the fans it involves.
    rule : str
        What it does, in one or two sentences, with its source.
    """

    key: str
    fans: tuple[str, ...]
    rule: str


@dataclass(frozen=True)
class Profile:
    """A named reading of a ruleset: a documented bundle of rule decisions.

    A profile changes the fan table (points, the names a changed value shows
    under, 不计 lists), fixes options, and may add rule points that its kernel
    applies (the binding turns their keys into kernel switches). Every decision
    is applied to every candidate reading before the best one is chosen: the
    kernel scores each reading with the profile's table.

    Attributes
    ----------
    name : str
        Registry name, e.g. ``"wmo-2014"`` (``get_ruleset("mcr:wmo-2014")``).
    title : str
        What it follows (the rulebook, edition).
    points : Mapping
        Fan key -> points of one occurrence under the profile.
    names : Mapping
        Fan key -> ``(zh, en)`` the fan shows under the profile.
    excludes : Mapping
        Fan key -> its 不计 list (fan keys) under the profile, replacing the base one.
    options : Mapping
        Option values the profile fixes.
    rule_points : tuple of RulePoint
        Rules the profile adds (kernel switches, by key).
    """

    name: str
    title: str
    points: Mapping[str, int] = field(default_factory=dict)
    names: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    excludes: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    options: Mapping[str, object] = field(default_factory=dict)
    rule_points: tuple[RulePoint, ...] = ()

    def __post_init__(self) -> None:
        for name in ("points", "names", "excludes", "options"):
            object.__setattr__(self, name, MappingProxyType(dict(getattr(self, name))))


@dataclass(frozen=True)
class Ruleset:
    """An immutable game variant.

    Attributes
    ----------
    name : str
        Registry name, e.g. ``"mcr"``.
    title : str
        Human-readable title.
    fans : tuple of FanDef
        Fans in column order: fan id ``f`` is ``fans[f]`` and column ``f`` of
        ``BatchScore.fan_counts``.
    minimum : int
        Fan total needed for a legal win (8 in MCR).
    tiles : tuple of int
        Tile indices (0-33) the variant plays with.
    shanten_forms : tuple of str
        Forms over which the default :func:`mjstats.shanten` minimises.
    forms : tuple of str
        Names of the form codes in ``BatchScore.form`` (code ``k`` is ``forms[k]``).
    base_payment : int
        Points every opponent pays on top of the fan total (8 in MCR).
    opponents : int
        Number of opponents (3 in MCR, 1 in two-player).
    flower_fans : tuple of str
        Keys of the fans that are flower points: they count toward ``minimum``
        only under the option ``flowers_count_toward_minimum``.
    options : Mapping
        Named switches (read-only); see the ruleset module for their meaning.
    rule_points : tuple of RulePoint
        The rules that are not plain 不计 pairs of ``fans`` (named, documented
        entries; the kernel's functions for them carry the same keys).
    profile : str
        The profile (reading) in use; ``default_profile`` unless chosen.
    profiles : tuple of Profile
        The profiles other than the default one (``get_ruleset("mcr",
        profile="wmo-2014")``, ``"mcr:wmo-2014"``).
    default_profile : str
        Name of the reading the fan table itself follows (``"reference"``).
    binding : str
        Module path of the ruleset's kernel binding (``mjstats.rulesets.<name>.binding``):
        what generic code (``score``, ``score_batch``, the studies, the numba
        callers of :func:`mjstats.rulesets.dispatch.score_one`) asks instead of
        branching on the ruleset's name. ``""``: no scoring kernel. See
        :mod:`mjstats.rulesets` for what a binding holds.
    """

    name: str
    title: str
    fans: tuple[FanDef, ...]
    minimum: int
    tiles: tuple[int, ...]
    shanten_forms: tuple[str, ...]
    forms: tuple[str, ...] = ()
    base_payment: int = 8
    opponents: int = 3
    flower_fans: tuple[str, ...] = ()
    options: Mapping[str, object] = field(default_factory=dict)
    rule_points: tuple[RulePoint, ...] = ()
    profile: str = "reference"
    profiles: tuple[Profile, ...] = ()
    default_profile: str = "reference"
    binding: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "options", MappingProxyType(dict(self.options)))
        keys = [f.key for f in self.fans]
        if len(set(keys)) != len(keys):
            raise ValueError(f"ruleset {self.name!r}: duplicate fan keys")
        known = set(keys)
        if set(self.flower_fans) - known:
            raise ValueError(f"ruleset {self.name!r}: unknown flower fans")
        for p in self.rule_points:
            if set(p.fans) - known:  # pragma: no cover (a table error)
                raise ValueError(f"ruleset {self.name!r}: rule point {p.key!r} names unknown fans")
        for f in self.fans:
            unknown = set(f.excludes) - known
            if unknown:
                raise ValueError(f"ruleset {self.name!r}: fan {f.key!r} excludes unknown {unknown}")

    # Hash/eq by identity of content that matters for caching compiled options.
    def __hash__(self) -> int:
        return hash((self.name, self.profile, tuple(sorted(self.options.items()))))

    @property
    def spec(self) -> str:
        """The name :func:`mjstats.rules.get_ruleset` takes for this ruleset and
        profile: ``"mcr"``, ``"mcr:wmo-2014"`` (options not included)."""
        if self.profile == self.default_profile:
            return self.name
        return f"{self.name}:{self.profile}"

    def profile_names(self) -> list[str]:
        """Names of the profiles, the default one first."""
        return [self.default_profile, *(p.name for p in self.profiles)]

    def with_profile(self, profile: str) -> Ruleset:
        """This ruleset (the default profile's fan table and options changed by
        ``with_options``) under the profile ``profile``.

        Raises ``ValueError`` for a profile the ruleset does not have.

        Examples
        --------
        >>> from mjstats.rules import get_ruleset
        >>> wmo = get_ruleset("mcr").with_profile("wmo-2014")
        >>> wmo.spec, int(wmo.points[wmo.fan_id("two_concealed_kongs")])
        ('mcr:wmo-2014', 8)
        """
        if profile == self.profile:
            return self
        if self.profile != self.default_profile:
            raise ValueError("with_profile() starts from the default profile")
        if profile == self.default_profile:
            return self
        chosen = {p.name: p for p in self.profiles}.get(profile)
        if chosen is None:
            raise ValueError(
                f"ruleset {self.name!r} has no profile {profile!r}; "
                f"known: {', '.join(self.profile_names())}"
            )
        known = {f.key for f in self.fans}
        for table in (chosen.points, chosen.names, chosen.excludes):
            if set(table) - known:
                raise ValueError(f"profile {profile!r} names unknown fans {set(table) - known}")
        fans = []
        for f in self.fans:
            zh, en = chosen.names.get(f.key, (f.zh, f.en))
            fans.append(
                replace(
                    f,
                    zh=zh,
                    en=en,
                    points=chosen.points.get(f.key, f.points),
                    excludes=tuple(chosen.excludes.get(f.key, f.excludes)),
                )
            )
        rs = replace(
            self,
            fans=tuple(fans),
            rule_points=self.rule_points + chosen.rule_points,
            profile=profile,
        )
        return rs.with_options(**chosen.options) if chosen.options else rs

    @property
    def kernel(self):
        """The kernel binding module (imported on first use); ``ValueError`` when
        the ruleset has none."""
        if not self.binding:
            raise ValueError(f"no scoring kernel for ruleset {self.name!r}")
        return importlib.import_module(self.binding)

    @property
    def n_fans(self) -> int:
        """Number of fans (columns of ``fan_counts``)."""
        return len(self.fans)

    def fan_id(self, key: str) -> int:
        """Column index of the fan with stable key ``key``."""
        try:
            return self._fan_index[key]
        except KeyError:
            raise KeyError(f"ruleset {self.name!r} has no fan {key!r}") from None

    @cached_property
    def _fan_index(self) -> dict[str, int]:
        return {f.key: i for i, f in enumerate(self.fans)}

    @cached_property
    def points(self) -> np.ndarray:
        """int16 array (F,): points of one occurrence of each fan."""
        return read_only([f.points for f in self.fans], np.int16)

    @cached_property
    def exclusions(self) -> np.ndarray:
        """bool array (F, F): ``exclusions[a, b]`` is True when fan a excludes fan b."""
        m = np.zeros((self.n_fans, self.n_fans), dtype=np.bool_)
        for a, f in enumerate(self.fans):
            for k in f.excludes:
                m[a, self._fan_index[k]] = True
        return read_only(m)

    def payment(self, total, self_drawn):
        """Points the winner receives in all, for a win of ``total`` fan.

        A self-drawn win is paid ``base_payment + total`` by every opponent; a win on
        a discard is paid ``base_payment + total`` by the discarder and
        ``base_payment`` by each other opponent (the MCR rule). Works elementwise on
        numpy arrays.

        Examples
        --------
        >>> from mjstats.rules import get_ruleset
        >>> mcr = get_ruleset("mcr")
        >>> int(mcr.payment(8, True)), int(mcr.payment(8, False))
        (48, 32)
        """
        total = np.asarray(total)
        drawn = self.opponents * (self.base_payment + total)
        discard = total + self.opponents * self.base_payment
        return np.where(self_drawn, drawn, discard)

    def with_options(self, **options: object) -> Ruleset:
        """A copy of this ruleset with some options changed.

        Raises ``ValueError`` for an option the ruleset does not have.
        """
        unknown = set(options) - set(self.options)
        if unknown:
            raise ValueError(
                f"ruleset {self.name!r} has no option(s) {sorted(unknown)}; "
                f"known: {sorted(self.options)}"
            )
        for name, value in options.items():  # the type of the default: no 'yes' for a flag
            default = self.options[name]
            kind = bool if isinstance(default, bool) else type(default)
            if kind is bool and isinstance(value, np.bool_):
                value = bool(value)
            elif kind is int and isinstance(value, np.integer):
                value = int(value)
            if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
                raise ValueError(
                    f"option {name}={value!r} of ruleset {self.name!r}: "
                    f"give a {kind.__name__} like its default {default!r}"
                )
            options[name] = value
        merged = dict(self.options)
        merged.update(options)
        return replace(self, options=merged)
