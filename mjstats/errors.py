"""Exceptions raised at the public boundary of mjstats.

Malformed input raises :class:`InvalidHandError` (a :class:`ValueError`) or one of
its subclasses. Domain outcomes such as "not a complete hand" or "below the 8-fan
minimum" are *not* errors: they are reported as codes in result arrays.
"""

from __future__ import annotations

__all__ = [
    "InvalidHandError",
    "InvalidTileError",
    "InvalidMeldError",
    "TileCountError",
    "InvalidContextError",
    "UnknownRulesetError",
]


class InvalidHandError(ValueError):
    """A hand, tile string or batch is malformed.

    In a batch the message starts with the first offending row
    (``"row 1: ..."``) and says how many rows are bad.
    """


class InvalidTileError(InvalidHandError):
    """Unknown tile name or notation, or a tile index outside 0-33."""


class InvalidMeldError(InvalidHandError):
    """Unknown meld kind, or a meld whose tiles cannot form it (e.g. chow 8-9-1)."""


class TileCountError(InvalidHandError):
    """Wrong number of tiles: more than 4 copies of a kind, or a wrong hand size."""


class InvalidContextError(InvalidHandError):
    """Win context that contradicts itself or the hand (wind outside 0-3, ...)."""


class UnknownRulesetError(ValueError):
    """A ruleset name that :func:`mjstats.rulesets` does not list."""
