"""One scoring entry point for every ruleset, callable from other numba code.

Studies generate hands inside numba and score them without leaving compiled
code; :func:`score_one` is what they call. It dispatches on a small integer
ruleset id (a branch, so kernels stay cacheable: numba cannot cache kernels
that take other jitted functions as arguments), adds flower points and decides
legality. :func:`kernel_spec` turns a :class:`~mjstats.rules.Ruleset` into the
plain scalars those kernels take.

The binding for numba callers: ``spec = kernel_spec(rs)`` in Python, then pass
``spec.ruleset_id, spec.opts, spec.minimum, spec.flowers_count_toward_minimum``
(plain integers) and the scratch of :func:`new_scratch` to :func:`score_one`
inside your kernel. ``kernel_spec`` asks the ruleset's binding
(``rs.kernel``, :mod:`mjstats.rulesets`): its ``RULESET_ID`` and ``opts(rs)``.
For MCR, ``opts`` holds the options, the profile's kernel switches and the
profile's row of the kernel's points and 不计 tables, so a profile
(``"mcr:wmo-2014"``) needs nothing else from the caller.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from mjstats.kernels import mcr, two_player
from mjstats.kernels._jit import ijit, jit
from mjstats.kernels.bits import popcount
from mjstats.kernels.legality import is_legal
from mjstats.rulesets.mcr.binding import RULESET_ID as RULESET_MCR
from mjstats.rulesets.two_player.binding import RULESET_ID as RULESET_TWO_PLAYER

__all__ = ["RULESET_IDS", "KernelSpec", "kernel_spec", "new_scratch", "score_one"]

RULESET_IDS = {"mcr": RULESET_MCR, "two-player": RULESET_TWO_PLAYER}
"""Ruleset name -> id taken by :func:`score_one`."""


class KernelSpec(NamedTuple):
    """A ruleset as the scalars the kernels take."""

    ruleset_id: int
    opts: int
    minimum: int
    flowers_count_toward_minimum: bool
    n_fans: int
    n_forms: int


def kernel_spec(rs) -> KernelSpec:
    """The :class:`KernelSpec` of a :class:`~mjstats.rules.Ruleset`, from its
    kernel binding (``rs.kernel``: ``RULESET_ID``, ``opts(rs)``).

    Examples
    --------
    >>> from mjstats.rules import get_ruleset
    >>> kernel_spec(get_ruleset("mcr")).minimum
    8
    """
    binding = rs.kernel  # ValueError when the ruleset has no kernel
    return KernelSpec(
        binding.RULESET_ID,
        binding.opts(rs),
        rs.minimum,
        bool(rs.options.get("flowers_count_toward_minimum", False)),
        rs.n_fans,
        len(rs.forms),
    )


@jit
def new_scratch(table):
    """Per-thread scratch buffers for :func:`score_one` (allocate once, reuse):
    the MCR kernel's and the two-player kernel's.

    ``table`` is :func:`mjstats.kernels.decompose.suit_table` (get it in Python
    and pass it down: kernels cannot load it themselves)."""
    return (mcr.new_work(table), two_player.new_work(table))


# Inlined into its callers (study loops): numba passes every array argument as
# seven or more machine words, so a separate score_one took the scratch of both
# rulesets (216 words) per hand (see the README, Development, "Call cost").
@ijit
def score_one(
    ruleset_id,
    opts,
    minimum,
    flowers_count,
    concealed,
    melds,
    win_tile,
    self_drawn,
    last_of_kind,
    kong_win,
    last_of_wall,
    seat_wind,
    round_wind,
    flowers,
    situation,
    scratch,
    fan_out,
):
    """Score one hand under a ruleset; returns ``(total, flower_points, form, legal)``.

    ``total`` includes flower points and is -1 when the hand is not complete
    (then ``fan_out`` is all zero and ``legal`` is False). ``flowers_count``
    says whether flower points count toward ``minimum``.

    Two-player (``ruleset_id`` 1): ``fan_out`` has 66 entries; flower points
    are those of 花牌, 季花, 春夏秋冬, 梅兰竹菊 and 八仙过海; ``last_of_kind``
    is not used (the game has no 和绝张); ``situation`` gives 天胡, 地胡, 人胡,
    报听 and 天听. Situation bits the hand contradicts are ignored here (the
    public API rejects them).
    """
    if ruleset_id == RULESET_TWO_PLAYER:
        # scalar types normalised (mcr.score_hand does the same), so each
        # ruleset's scorer is compiled once whatever the callers pass
        total, form = two_player.score_hand(
            concealed, melds, np.int64(win_tile), bool(self_drawn), bool(kong_win),
            bool(last_of_wall), np.int64(seat_wind), np.int64(round_wind), np.int64(flowers),
            np.int64(situation), scratch[1], fan_out,
        )  # fmt: skip
        if total < 0:
            return -1, 0, 0, False
        nfl = two_player.flower_points(fan_out)
        return total, nfl, form, is_legal(total, nfl, minimum, flowers_count)
    base, form = mcr.score_hand(
        concealed,
        melds,
        win_tile,
        self_drawn,
        last_of_kind,
        kong_win,
        last_of_wall,
        seat_wind,
        round_wind,
        opts,
        scratch[0],
        fan_out,
    )
    if base < 0:
        return -1, 0, 0, False
    nfl = popcount(flowers)
    fan_out[mcr.FLOWER_TILES] = nfl
    total = base + nfl
    return total, nfl, form, is_legal(total, nfl, minimum, flowers_count)
