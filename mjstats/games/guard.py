"""User game policies that catch their own exceptions (the game engine's error path).

A user policy is called by the engine through a function pointer, and numba
does not check for an exception after such a call: an exception raised in the
policy runs on with a garbage action and surfaces only as
``SystemError: CPUDispatcher(...) returned a result with an exception set``.
:func:`guard_policy` wraps a policy so that an exception becomes a negative
action code, which the engine refuses as an illegal action: the game stops and
its result row names the seat and the code. :mod:`mjstats.games.engine` replays
the games with guarded policies only when a run raised, to name the game and seat.
"""

from __future__ import annotations

import numpy as np

from mjstats.kernels._jit import jit

__all__ = ["guard_policy", "raised_code", "raised_slot"]


def raised_code(slot: int) -> int:
    """The action code a guarded policy returns when user function ``slot`` (0-3: own
    turns of seats 0-3, 4-7: their answers) raised.

    Examples
    --------
    >>> raised_code(0), raised_slot(raised_code(5))
    (-1, 5)
    """
    return -1 - int(slot)


def raised_slot(action: int) -> int:
    """The slot of :func:`raised_code`, or -1 when ``action`` is not such a code."""
    return -1 - int(action) if -8 <= int(action) <= -1 else -1


def guard_policy(policy, slot: int):
    """``policy`` (a user policy) that returns :func:`raised_code` ``(slot)`` instead of
    raising. Compiled when the engine first calls it (numba keys its disk-cache
    entry by the closed-over function, so each policy gets its own).

    Examples
    --------
    >>> from numba import njit
    >>> @njit
    ... def broken(view, acts, n_acts, ctx, tab, work):
    ...     raise ValueError("no")
    >>> a = np.zeros(1, np.int64)
    >>> int(guard_policy(broken, 2)(a, a, 0, a, None, (0,)))
    -3
    """
    code = np.int64(raised_code(slot))

    def guarded(view, acts, n_acts, ctx, tab, work):
        try:
            return policy(view, acts, n_acts, ctx, tab, work)
        except Exception:
            return code

    return jit(guarded)
