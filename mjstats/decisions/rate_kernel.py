"""The stand-in value of each option of each decision (numba, parallel over decisions):
see :func:`mjstats.decisions.review.rate_options`."""

from __future__ import annotations

import numpy as np
from numba import prange

from mjstats.decisions.kernel import C_NLEGAL, C_SEAT
from mjstats.games.discard_policies import CTX_FORMS, legal_outs, new_policy_work
from mjstats.games.state import (
    A_ANGANG,
    A_BUGANG,
    A_CHOW,
    A_DISCARD,
    A_HU,
    A_KONG,
    A_PASS,
    A_PUNG,
    A_TSUMO,
)
from mjstats.games.views import V_HAND, V_LAST_TILE, V_MELD, V_NMELD, V_ROUND, V_UNSEEN
from mjstats.kernels._jit import jit, pjit
from mjstats.kernels.shanten import useful_one

WIN_VALUE = 1.0  # a complete hand: shanten -1


@jit
def value_waiting(counts, melds, n_melds, unseen, ctx, tab, work):
    """Value of a 3k+1 hand: ``-shanten + copies / 100`` (copies at most 99): the
    unseen copies that complete a legal win when ready (:func:`legal_outs`), else
    the unseen copies of the tiles that lower its shanten."""
    s, useful = useful_one(counts, n_melds, ctx[CTX_FORMS], tab)
    if s == 0:
        copies, _ = legal_outs(counts, melds, n_melds, useful, unseen, ctx, work)
    else:
        copies = 0
        for u in range(34):
            if (useful >> u) & 1:
                copies += unseen[u]
    return -float(s) + min(copies, 99) / 100.0


@jit
def value_complete_set(counts, melds, n_melds, unseen, ctx, tab, work):
    """Value of a 3k+2 hand after a claim: that of its best discard."""
    best = -1e9
    for e in range(34):
        if counts[e] == 0:
            continue
        counts[e] -= 1
        best = max(best, value_waiting(counts, melds, n_melds, unseen, ctx, tab, work))
        counts[e] += 1
    return best


@jit
def rate_one(i, rows, legal, seen, ctx, tab, work, counts, melds, unseen, out):
    """Values of decision ``i``'s legal options into ``out[i]`` (NaN past them)."""
    v = seen[i]
    p = rows[i, C_SEAT]
    out[i, :] = np.nan
    for j in range(rows[i, C_NLEGAL]):
        a = legal[i, j]
        kind = a >> 6
        t = a & 63
        for k in range(34):
            counts[k] = v[V_HAND + k]
            unseen[k] = v[V_UNSEEN + k]
        n = v[V_NMELD + p]
        for m in range(4):
            melds[m, 0] = v[V_MELD + 12 * p + 3 * m] if m < n else 0
            melds[m, 1] = max(v[V_MELD + 12 * p + 3 * m + 1], 0) if m < n else 0
        if kind == A_TSUMO or kind == A_HU:
            out[i, j] = WIN_VALUE
        elif kind == A_DISCARD:
            counts[t] -= 1
            out[i, j] = value_waiting(counts, melds, n, unseen, ctx, tab, work)
        elif kind == A_PASS:
            out[i, j] = value_waiting(counts, melds, n, unseen, ctx, tab, work)
        elif kind == A_ANGANG or kind == A_KONG:
            counts[t] -= 4 if kind == A_ANGANG else 3
            melds[n, 0] = 4 if kind == A_ANGANG else 3
            melds[n, 1] = t
            out[i, j] = value_waiting(counts, melds, n + 1, unseen, ctx, tab, work)
        elif kind == A_BUGANG:
            counts[t] -= 1
            for m in range(n):
                if melds[m, 0] == 2 and melds[m, 1] == t:
                    melds[m, 0] = 3
            out[i, j] = value_waiting(counts, melds, n, unseen, ctx, tab, work)
        elif kind == A_PUNG:
            counts[t] -= 2
            melds[n, 0] = 2
            melds[n, 1] = t
            out[i, j] = value_complete_set(counts, melds, n + 1, unseen, ctx, tab, work)
        elif kind == A_CHOW:
            c = v[V_LAST_TILE]
            for u in range(t - 1, t + 2):
                if u != c:
                    counts[u] -= 1
            melds[n, 0] = 1
            melds[n, 1] = t - 1
            out[i, j] = value_complete_set(counts, melds, n + 1, unseen, ctx, tab, work)


@pjit
def rate_decisions(rows, legal, seen, seat_wind, ctxs, tab, suits, n_fans, out):
    """Values of every decision's options (parallel over blocks of decisions);
    ``ctxs`` int64 (4, 4, CTX_SIZE): the policy context of round wind r, seat wind w."""
    n = rows.shape[0]
    n_blocks = 32
    per = (n + n_blocks - 1) // n_blocks
    for b in prange(n_blocks):
        work = new_policy_work(n_fans, suits)
        counts = np.zeros(34, np.uint8)
        melds = np.zeros((4, 2), np.uint8)
        unseen = np.zeros(34, np.int64)
        for i in range(b * per, min(n, b * per + per)):
            ctx = ctxs[seen[i, V_ROUND], seat_wind[rows[i, C_SEAT]]]
            rate_one(i, rows, legal, seen, ctx, tab, work, counts, melds, unseen, out)
    return 0
