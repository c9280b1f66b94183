"""A third ruleset kept outside mjstats, for ``tests/test_rulesets.py``: two-player
mahjong with 自摸 (self-drawn) worth :data:`SELF_DRAWN_POINTS` instead of 1.

It is added with ``mjstats.rulesets.register("third_ruleset")`` (this folder's
parent on the path) and touches nothing in mjstats. Its kernel scores with the
two-player kernel and adds the difference for each 自摸 counted: 自摸 is in every
reading of a self-drawn hand or in none, so the best reading is the same.
"""

from dataclasses import replace

from mjstats.rulesets.two_player import RULESET as _TWO_PLAYER

__all__ = ["CHANGED_FAN", "RULESET", "SELF_DRAWN_POINTS"]

CHANGED_FAN = "self_drawn"
SELF_DRAWN_POINTS = 3

RULESET = replace(
    _TWO_PLAYER,
    name="two-player-zimo3",
    title="Two-player mahjong, 自摸 worth 3",
    fans=tuple(
        replace(f, points=SELF_DRAWN_POINTS) if f.key == CHANGED_FAN else f
        for f in _TWO_PLAYER.fans
    ),
    binding="third_ruleset.binding",
)
