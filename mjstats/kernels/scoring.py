"""What every ruleset's scorer shares: the checks of a win's context and the
packed one-hand row of :func:`mjstats.score`.

- :func:`context_problems` (and its serial twin): the win-context
  contradictions every ruleset rejects (杠上开花 without a kong, 抢杠和 of a
  tile held elsewhere, 和绝张 with another copy concealed), one code per row.
- The packed row (``ROW_*`` offsets) and the helpers each ruleset's one-hand
  entry (its binding's ``score_single``) is made of: unpack, check copies and
  bounds, write the fans and the reading out.

The dispatch over the rulesets (``score_one``, ``kernel_spec``) is the
registry's: :mod:`mjstats.rulesets.dispatch`.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from mjstats.kernels._jit import ijit, jit, pjit
from mjstats.kernels.bounds import _count_bad

__all__ = [
    "PROBLEM_ALL_FORMS",
    "PROBLEM_BOUNDS",
    "PROBLEM_CONTEXT",
    "PROBLEM_COPIES",
    "ROW_FLAGS",
    "ROW_MELDS",
    "ROW_SIZE",
    "ROW_VALUES",
    "ROW_WIN",
    "SETS_SIZE",
    "context_problems",
    "context_problems_serial",
]


# ---------------------------------------------------------------- win context
@ijit
def _context_code(i, concealed, melds, win_tile, self_drawn, last_of_kind, kong_win):
    """Row ``i``'s code for :func:`context_problems`."""
    code = 0
    w = np.int64(win_tile[i])
    if w < 34:
        held = concealed[i, w]
        # without branches on the meld kinds: those of random hands are
        # unpredictable, and mispredictions made this pass 13-16 ns a row
        in_melds = False
        has_kong = False
        for j in range(4):
            k = melds[i, j, 0]
            d = w - np.int64(melds[i, j, 1])
            in_melds |= ((k == 1) & (d >= 0) & (d <= 2)) | ((k >= 2) & (d == 0))
            has_kong |= k >= 3
        if kong_win[i]:  # rare, so these branches are predictable
            if self_drawn[i]:
                if not has_kong:
                    code = 1
            elif held >= 2 or in_melds:
                code = 2
        if code == 0 and last_of_kind[i] and held >= 2:
            code = 3
    return code


@pjit
def context_problems(concealed, melds, win_tile, self_drawn, last_of_kind, kong_win, out):
    """Per-row code of the first win-context contradiction (0 = none):
    1 = kong_win self-drawn without a kong meld (杠上开花 impossible),
    2 = kong_win on a discard with the tile held elsewhere (抢杠和 impossible),
    3 = last_of_kind with another copy concealed (和绝张 impossible).
    Waiting hands (win_tile 255) are never flagged. Returns the number of bad rows.
    (Parallel: it runs before every batch is scored; :func:`context_problems_serial`
    for small batches.)"""
    n_bad = 0
    for i in prange(concealed.shape[0]):
        code = _context_code(i, concealed, melds, win_tile, self_drawn, last_of_kind, kong_win)
        out[i] = code
        n_bad += 1 if code else 0
    return n_bad


@jit
def context_problems_serial(concealed, melds, win_tile, self_drawn, last_of_kind, kong_win, out):
    """:func:`context_problems` on the calling thread (small batches)."""
    n_bad = 0
    for i in range(concealed.shape[0]):
        code = _context_code(i, concealed, melds, win_tile, self_drawn, last_of_kind, kong_win)
        out[i] = code
        n_bad += 1 if code else 0
    return n_bad


# ---------------------------------------------------------------- one hand from Python
# mjstats.score() packs one hand into a single uint8 array (one argument for numba
# to unbox instead of eleven) and makes one call: the checks every ruleset shares
# and the score. Each ruleset has its own entry (its binding's ``score_single``,
# made of the helpers below), so scoring a hand compiles no other ruleset's code.

#: offsets in the packed hand row: 34 concealed counts, then 4 (kind, tile) meld
#: slots, the winning tile (255: none), the flags self_drawn, last_of_kind,
#: kong_win, last_of_wall and the values seat_wind, round_wind, flowers, situation
ROW_MELDS = 34
ROW_WIN = 42
ROW_FLAGS = 43
ROW_VALUES = 47
ROW_SIZE = 51
#: problem bits returned by the entries (0: the hand was scored)
PROBLEM_CONTEXT = 3  # the code of context_problems (1-3)
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
    code = np.int64(_context_code(0, concealed, melds, win, flags[0], flags[1], flags[2]))
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
