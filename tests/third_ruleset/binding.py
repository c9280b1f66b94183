"""The binding of the test ruleset (see :mod:`mjstats.rulesets`): the two-player
kernel, then ``EXTRA`` points for each 自摸 it counted."""

import numpy as np

from mjstats.kernels._jit import ijit, jit
from mjstats.kernels.legality import is_legal
from mjstats.rulesets.two_player import binding as two
from third_ruleset import CHANGED_FAN, RULESET

BATCH_FIELDS = two.BATCH_FIELDS
TAKES_OPTS = two.TAKES_OPTS
FAN_PLANS = two.FAN_PLANS
check_context = two.check_context
opts = two.opts
new_work = two.new_work
kernel = two.kernel

FAN = RULESET.fan_id(CHANGED_FAN)
EXTRA = int(RULESET.fans[FAN].points - two.kernel.POINTS[FAN])
N_FANS = RULESET.n_fans


@ijit
def score(
    opts, minimum, flowers_count, concealed, melds, win_tile, self_drawn, last_of_kind, kong_win,
    last_of_wall, seat_wind, round_wind, flowers, situation, work, fan_out,
):  # fmt: skip
    total, nfl, form, legal = two.score(
        opts, minimum, flowers_count, concealed, melds, win_tile, self_drawn, last_of_kind,
        kong_win, last_of_wall, seat_wind, round_wind, flowers, situation, work, fan_out,
    )  # fmt: skip
    if total < 0:
        return total, nfl, form, legal
    total += EXTRA * np.int64(fan_out[FAN])
    return total, nfl, form, is_legal(total, nfl, minimum, flowers_count)


@jit
def score_single(row, opts, minimum, flowers_count, info, splits, out):
    problems, total, form, legal = two.score_single(
        row, opts, minimum, flowers_count, info, splits, out
    )
    if problems or total < 0:
        return problems, total, form, legal
    total += EXTRA * np.int64(out[FAN])
    nfl = two.kernel.flower_points(out[:N_FANS])
    return problems, total, form, is_legal(total, nfl, minimum, flowers_count)


@jit
def _adjust(minimum, flowers_count, out_total, out_fans, out_legal):
    for i in range(out_total.shape[0]):
        if out_total[i] >= 0 and out_fans[i, FAN]:
            out_total[i] += EXTRA * out_fans[i, FAN]
            nfl = two.kernel.flower_points(out_fans[i])
            out_legal[i] = is_legal(np.int64(out_total[i]), nfl, minimum, flowers_count)


# the two-player batch kernel's arguments end (..., minimum, flowers_count,
# out_total, out_fans, out_form, out_legal, out_sets, table)
def score_rows(*args):
    two.score_rows(*args)
    _adjust(args[-8], args[-7], args[-6], args[-5], args[-3])


def score_rows_serial(*args):
    two.score_rows_serial(*args)
    _adjust(args[-8], args[-7], args[-6], args[-5], args[-3])
