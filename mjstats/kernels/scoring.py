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
from mjstats.kernels.bounds import _count_bad
from mjstats.kernels.decompose import SuitTable
from mjstats.kernels.legality import is_legal
from mjstats.rulesets.mcr.binding import RULESET_ID as RULESET_MCR
from mjstats.rulesets.two_player.binding import RULESET_ID as RULESET_TWO_PLAYER

__all__ = [
    "RULESET_IDS",
    "SINGLE_ENTRIES",
    "KernelSpec",
    "kernel_spec",
    "new_scratch",
    "score_one",
    "score_single_mcr",
    "score_single_two_player",
]

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
        return _score_two_player(
            minimum, flowers_count, concealed, melds, win_tile, self_drawn, kong_win,
            last_of_wall, seat_wind, round_wind, flowers, situation, scratch[1], fan_out,
        )  # fmt: skip
    return _score_mcr(
        opts, minimum, flowers_count, concealed, melds, win_tile, self_drawn, last_of_kind,
        kong_win, last_of_wall, seat_wind, round_wind, flowers, scratch[0], fan_out, True,
    )  # fmt: skip


@ijit
def _score_two_player(
    minimum, flowers_count, concealed, melds, win_tile, self_drawn, kong_win, last_of_wall,
    seat_wind, round_wind, flowers, situation, work, fan_out,
):  # fmt: skip
    """:func:`score_one` for the two-player ruleset (``work``: its scratch)."""
    # scalar types normalised (mcr.score_hand does the same), so each
    # ruleset's scorer is compiled once whatever the callers pass
    total, form = two_player.score_hand(
        concealed, melds, np.int64(win_tile), bool(self_drawn), bool(kong_win),
        bool(last_of_wall), np.int64(seat_wind), np.int64(round_wind), np.int64(flowers),
        np.int64(situation), work, fan_out,
    )  # fmt: skip
    if total < 0:
        return -1, 0, 0, False
    nfl = two_player.flower_points(fan_out)
    return total, nfl, form, is_legal(total, nfl, minimum, flowers_count)


@ijit
def _score_mcr(
    opts, minimum, flowers_count, concealed, melds, win_tile, self_drawn, last_of_kind, kong_win,
    last_of_wall, seat_wind, round_wind, flowers, work, fan_out, all_forms,
):  # fmt: skip
    """:func:`score_one` for MCR (``work``: its scratch; ``all_forms``: as in
    :func:`mjstats.kernels.mcr.score_hand_forms`, then a total of
    ``mcr.NEEDS_ALL_FORMS`` says the hand was left to the full scorer)."""
    base, form = mcr.score_hand_forms(
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
        work,
        fan_out,
        all_forms,
    )
    if base < 0:
        return base, 0, 0, False  # -1, or NEEDS_ALL_FORMS
    nfl = popcount(flowers)
    fan_out[mcr.FLOWER_TILES] = nfl
    total = base + nfl
    return total, nfl, form, is_legal(total, nfl, minimum, flowers_count)


# ---------------------------------------------------------------- one hand from Python
# mjstats.score() packs one hand into a single uint8 array (one argument for numba
# to unbox instead of eleven) and makes one call: the checks every ruleset shares
# and the score. Each ruleset has its own entry, so scoring an MCR hand compiles
# no two-player code (and the reverse).

#: offsets in the packed hand row: 34 concealed counts, then 4 (kind, tile) meld
#: slots, the winning tile (255: none), the flags self_drawn, last_of_kind,
#: kong_win, last_of_wall and the values seat_wind, round_wind, flowers, situation
ROW_MELDS = 34
ROW_WIN = 42
ROW_FLAGS = 43
ROW_VALUES = 47
ROW_SIZE = 51
#: problem bits returned by the entries (0: the hand was scored)
PROBLEM_CONTEXT = 3  # the code of mjstats.kernels.mcr.context_problems (1-3)
PROBLEM_COPIES = 4  # more than 4 copies of a kind, counting the melds
PROBLEM_BOUNDS = 8  # an index out of range (mjstats.kernels.bounds)
#: not a problem: the common-forms entry left the hand to the full one (call again with True)
PROBLEM_ALL_FORMS = 16
#: sets of the chosen reading: 8 rows of 4 after the fan counts in the output
SETS_SIZE = 32

_MELD_COPIES = np.array([0, 1, 3, 4, 4], dtype=np.int64)


@ijit
def _unpack_row(row):
    """The packed row as the one-row arrays of a batch (concealed, melds,
    win_tile) and the four flags as a (4, 1) array."""
    concealed = np.empty((1, 34), dtype=np.uint8)
    for t in range(34):
        concealed[0, t] = row[t]
    melds = np.empty((1, 4, 2), dtype=np.uint8)
    for j in range(4):
        melds[0, j, 0] = row[ROW_MELDS + 2 * j]
        melds[0, j, 1] = row[ROW_MELDS + 2 * j + 1]
    win = np.empty(1, dtype=np.uint8)
    win[0] = row[ROW_WIN]
    flags = np.empty((4, 1), dtype=np.bool_)
    for f in range(4):
        flags[f, 0] = row[ROW_FLAGS + f] != 0
    return concealed, melds, win, flags


@ijit
def _checked_row(row):
    """``(problems, concealed, melds, flags)`` of a packed row: its problem bits
    (see :data:`PROBLEM_CONTEXT`) and its arrays (:func:`_unpack_row`)."""
    concealed, melds, win, flags = _unpack_row(row)
    # the context code only reads indices it has checked, so it is computed
    # even for a row out of bounds (the context error is raised first)
    code = np.int64(mcr._context_code(0, concealed, melds, win, flags[0], flags[1], flags[2]))
    if _count_bad(concealed, melds, win):
        return code | PROBLEM_BOUNDS, concealed, melds, flags
    totals = np.empty(34, dtype=np.int64)
    for t in range(34):
        totals[t] = concealed[0, t]
    for j in range(4):
        k = np.int64(melds[0, j, 0])
        t = np.int64(melds[0, j, 1])
        if k == 1:
            totals[t + 1] += 1
            totals[t + 2] += 1
        if k:
            totals[t] += _MELD_COPIES[k]
    for t in range(34):
        if totals[t] > 4:
            return code | PROBLEM_COPIES, concealed, melds, flags
    return code, concealed, melds, flags


@jit
def score_single_mcr(row, opts, minimum, flowers_count, info, splits, out, all_forms=None):
    """Check and score one packed MCR hand (layout :data:`ROW_MELDS` ...).

    Returns ``(problems, total, form, legal)``: the problem bits (then nothing
    is scored) or 0 and the result. Called without ``all_forms``, it is the
    common-forms copy (:func:`mjstats.kernels.mcr.score_hand_forms`), which
    compiles in two thirds of the time and returns :data:`PROBLEM_ALL_FORMS`
    for a hand whose shape could be a special form: call again with
    ``all_forms=True`` (compiled when the first such hand comes). ``info, splits``: the arrays of
    :func:`~mjstats.kernels.decompose.suit_table` (two arrays are unboxed
    faster than the named tuple). ``out`` (uint8, fans + :data:`SETS_SIZE`)
    receives the fan counts, then the chosen reading's sets (8 rows of
    [kind, tile, melded, 0], see :func:`mjstats.kernels.mcr.score_hand`).
    """
    problems, c, m, f = _checked_row(row)
    if problems:
        return problems, -1, 0, False
    work = mcr.new_work(SuitTable(info, splits))
    fan = np.zeros(mcr.N_FANS, dtype=np.uint8)
    v = ROW_VALUES
    total, _, form, legal = _score_mcr(
        opts, minimum, flowers_count, c[0], m[0], row[ROW_WIN], f[0, 0], f[1, 0], f[2, 0],
        f[3, 0], row[v], row[v + 1], row[v + 2], work, fan, all_forms,
    )  # fmt: skip
    if total == mcr.NEEDS_ALL_FORMS:
        return np.int64(PROBLEM_ALL_FORMS), np.int64(-1), np.int64(0), False
    return _write_out(fan, work[4], out, total, form, legal)


@jit
def score_single_two_player(row, opts, minimum, flowers_count, info, splits, out):
    """:func:`score_single_mcr` for the two-player ruleset (``opts`` unused)."""
    problems, c, m, f = _checked_row(row)
    if problems:
        return problems, -1, 0, False
    work = two_player.new_work(SuitTable(info, splits))
    fan = np.zeros(two_player.N_FANS, dtype=np.uint8)
    v = ROW_VALUES
    total, _, form, legal = _score_two_player(
        minimum, flowers_count, c[0], m[0], row[ROW_WIN], f[0, 0], f[2, 0], f[3, 0], row[v],
        row[v + 1], row[v + 2], row[v + 3], work, fan,
    )  # fmt: skip
    return _write_out(fan, work[6], out, total, form, legal)


@ijit
def _write_out(fan, sets, out, total, form, legal):
    """Copy the fans and the reading's sets to ``out``; the entries' result."""
    n = fan.shape[0]
    for f in range(n):
        out[f] = fan[f]
    for a in range(8):
        for b in range(4):
            out[n + 4 * a + b] = sets[a, b]
    return np.int64(0), np.int64(total), np.int64(form), legal


SINGLE_ENTRIES = {RULESET_MCR: score_single_mcr, RULESET_TWO_PLAYER: score_single_two_player}
"""Ruleset id -> the one-hand entry (:func:`score_single_mcr`, ...) of :func:`mjstats.score`."""
