"""Rulesets as immutable data.

A :class:`Ruleset` is a frozen description of one game variant: its fans (in
column order of every ``fan_counts`` array), their points and exclusions (不计),
the tile kinds it plays with, the shanten forms it allows, its minimum and its
options. Nothing in mjstats mutates a ruleset; :meth:`Ruleset.with_options`
returns a new one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from types import MappingProxyType

import numpy as np

__all__ = ["FanDef", "Ruleset"]


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

    def __post_init__(self) -> None:
        object.__setattr__(self, "options", MappingProxyType(dict(self.options)))
        keys = [f.key for f in self.fans]
        if len(set(keys)) != len(keys):
            raise ValueError(f"ruleset {self.name!r}: duplicate fan keys")
        known = set(keys)
        if set(self.flower_fans) - known:
            raise ValueError(f"ruleset {self.name!r}: unknown flower fans")
        for f in self.fans:
            unknown = set(f.excludes) - known
            if unknown:
                raise ValueError(f"ruleset {self.name!r}: fan {f.key!r} excludes unknown {unknown}")

    # Hash/eq by identity of content that matters for caching compiled options.
    def __hash__(self) -> int:
        return hash((self.name, tuple(sorted(self.options.items()))))

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
        arr = np.array([f.points for f in self.fans], dtype=np.int16)
        arr.setflags(write=False)
        return arr

    @cached_property
    def exclusions(self) -> np.ndarray:
        """bool array (F, F): ``exclusions[a, b]`` is True when fan a excludes fan b."""
        m = np.zeros((self.n_fans, self.n_fans), dtype=np.bool_)
        for a, f in enumerate(self.fans):
            for k in f.excludes:
                m[a, self._fan_index[k]] = True
        m.setflags(write=False)
        return m

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
        merged = dict(self.options)
        merged.update(options)
        return replace(self, options=merged)
