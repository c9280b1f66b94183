"""The checks of seeds, counts and names that every entry point shares.

:func:`play_games`, the studies and the command line take their seeds and
counts through these functions, so the same value is accepted or refused with
the same message everywhere. A refused value raises
:class:`~mjstats.errors.InvalidArgumentError` (a ``ValueError``) or the subclass
the caller passes as ``error`` (e.g. :class:`mjstats.games.GameOptionError`).

Examples
--------
>>> from mjstats.arguments import check_count, check_seed
>>> check_seed(2**64 - 1), check_count("n", 10)
(18446744073709551615, 10)
>>> check_seed(2**64)
Traceback (most recent call last):
...
mjstats.errors.InvalidArgumentError: seed must be an integer 0 to 2**64-1, got 18446744073709551616
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from mjstats.errors import InvalidArgumentError

__all__ = ["MAX_COUNT", "MAX_SEED", "check_choice", "check_count", "check_seed"]

MAX_SEED = 2**64 - 1
"""The largest seed: the generators take a 64-bit unsigned seed."""

MAX_COUNT = 2**63 - 1
"""The largest count or offset: the kernels count in 64-bit signed integers."""


def _integer(name: str, value: Any, accepted: str, error: type[ValueError]) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise error(f"{name} must be {accepted}, got {value!r} ({type(value).__name__})")
    return int(value)


def check_seed(seed: Any, name: str = "seed", *, error: type[ValueError] = InvalidArgumentError):
    """``seed`` as an ``int`` if it is an integer 0 to :data:`MAX_SEED`, else ``error``.

    Examples
    --------
    >>> check_seed(7)
    7
    >>> check_seed(1.5)
    Traceback (most recent call last):
    ...
    mjstats.errors.InvalidArgumentError: seed must be an integer 0 to 2**64-1, got 1.5 (float)
    """
    accepted = "an integer 0 to 2**64-1"
    if seed is None:
        raise error(f"{name} must be {accepted} (an explicit seed, for reproducibility), got None")
    value = _integer(name, seed, accepted, error)
    if not 0 <= value <= MAX_SEED:
        raise error(f"{name} must be {accepted}, got {value}")
    return value


def check_count(
    name: str,
    n: Any,
    *,
    low: int = 0,
    high: int = MAX_COUNT,
    error: type[ValueError] = InvalidArgumentError,
) -> int:
    """``n`` as an ``int`` if it is an integer ``low`` to ``high`` (a number of hands
    or games, an offset), else ``error``.

    Examples
    --------
    >>> check_count("n", 10.5)
    Traceback (most recent call last):
    ...
    mjstats.errors.InvalidArgumentError: n must be an integer 0 to 2**63-1, got 10.5 (float)
    >>> check_count("first", -5)
    Traceback (most recent call last):
    ...
    mjstats.errors.InvalidArgumentError: first must be an integer 0 to 2**63-1, got -5
    """
    top = "2**63-1" if high == MAX_COUNT else f"{high:,}"
    accepted = f"an integer {low} to {top}"
    value = _integer(name, n, accepted, error)
    if not low <= value <= high:
        raise error(f"{name} must be {accepted}, got {value}")
    return value


def check_choice(
    name: str, value: Any, choices: Iterable[str], *, error: type[ValueError] = InvalidArgumentError
) -> str:
    """``value`` if it is one of ``choices`` (exactly), else ``error`` listing them.

    Examples
    --------
    >>> check_choice("form", "REGULAR", ("regular", "seven_pairs"))
    Traceback (most recent call last):
    ...
    mjstats.errors.InvalidArgumentError: form must be one of regular, seven_pairs, got 'REGULAR'
    """
    choices = tuple(choices)
    if not isinstance(value, str) or value not in choices:
        raise error(f"{name} must be one of {', '.join(choices)}, got {value!r}")
    return value
