"""The policies value a plan by the points of the ruleset's own fan table.

MCR's fan points live only in the ruleset's table (mjstats/rulesets/mcr/fans.py);
the fan-aware plans read them through the policy context, so a profile or a
ruleset that changes a fan's points changes what the policies value and decide.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from mjstats import parse_tiles
from mjstats.games import discard_policies as P
from mjstats.kernels.decompose import suit_table
from mjstats.kernels.tables import get_tables
from mjstats.rulesets import get_ruleset


def _with_points(rs, key, points):
    """``rs`` with fan ``key`` worth ``points`` (a reading no profile has)."""
    fans = tuple(replace(f, points=points) if f.key == key else f for f in rs.fans)
    return replace(rs, fans=fans)


@pytest.mark.parametrize("spec", ["mcr", "mcr:wmo-2014"])
def test_the_context_holds_the_tables_points(spec):
    rs = get_ruleset(spec)
    ctx = P.policy_context(rs, P.FAN_AWARE, seat_wind=1, round_wind=0)
    for slot, key in enumerate(P.PLAN_FANS, P.CTX_VALUES):
        assert ctx[slot] == rs.points[rs.fan_id(key)], key
    assert P.CTX_SIZE == P.CTX_OPPONENTS + 1 == P.CTX_BASE + 2 == P.CTX_DISCARD_WINS + 3
    assert P.CTX_DISCARD_WINS == P.CTX_VALUES + len(P.PLAN_FANS)
    assert ctx[P.CTX_BASE] == rs.base_payment
    assert ctx[P.CTX_OPPONENTS] == rs.opponents == 3
    assert ctx[P.CTX_DISCARD_WINS] == 0  # the planner sets it (tests/test_games_planner.py)


def test_a_ruleset_without_a_plan_fan_values_it_at_zero():
    rs = get_ruleset("two-player")
    ctx = P.policy_context(rs, P.EFFICIENCY)
    keys = {f.key for f in rs.fans}
    for slot, key in enumerate(P.PLAN_FANS, P.CTX_VALUES):
        alias = [k for k in P.PLAN_FAN_ALIASES.get(key, ()) if k in keys]
        if key in keys or alias:
            assert ctx[slot] == rs.points[rs.fan_id(key if key in keys else alias[0])], key
        else:
            assert ctx[slot] == 0, key
    assert ctx[P.V_TWO_DRAGON_PUNGS] == 6  # 双箭刻 under its two-player key


def _targets(ctx, hand):
    """The fan-aware targets of a concealed 14-tile hand: (kind, value) pairs."""
    counts = parse_tiles(hand)
    melds = np.zeros((4, 2), np.uint8)
    unseen = (4 - counts).astype(np.int64)
    tab = get_tables()
    work = P.new_policy_work(len(get_ruleset("mcr").fans), suit_table())
    plain = P.hand_need(counts, 0, int(ctx[P.CTX_FORMS]), tab)
    targets = np.zeros((P.MAX_TARGETS, 4), np.int64)
    n, _ = P._collect_targets(counts, melds, 0, unseen, ctx, tab, plain, targets, work, False)
    return {(int(k), int(v)) for k, _, _, v in targets[:n]}


def test_changing_a_fans_points_changes_the_plans():
    """A half flush is a plan at 6 points (+ 4 for 不求人 reaches 8); at 1 point it
    cannot reach the minimum and is no longer a plan; at 30 it is worth 30."""
    hand = "1134567m2459p1z55z"  # characters and honours: a half flush is near
    rs = get_ruleset("mcr")
    plans = _targets(P.policy_context(rs, P.FAN_AWARE), hand)
    assert (P.T_HALF_FLUSH, 6) in plans
    cheap = _targets(P.policy_context(_with_points(rs, "half_flush", 1), P.FAN_AWARE), hand)
    assert not any(kind == P.T_HALF_FLUSH for kind, _ in cheap)
    dear = _targets(P.policy_context(_with_points(rs, "half_flush", 30), P.FAN_AWARE), hand)
    assert (P.T_HALF_FLUSH, 30) in dear


def test_a_chow_bodys_value_comes_from_the_table():
    hand = "123456789m1p2s5z5z"  # 清龙 pure straight held: worth its table points
    rs = get_ruleset("mcr")
    plans = _targets(P.policy_context(rs, P.FAN_AWARE), hand)
    assert (P.T_CHOWS, 16) in plans
    plans = _targets(P.policy_context(_with_points(rs, "pure_straight", 20), P.FAN_AWARE), hand)
    assert (P.T_CHOWS, 20) in plans and (P.T_CHOWS, 16) not in plans
