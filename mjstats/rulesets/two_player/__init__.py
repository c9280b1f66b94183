"""Two-player mahjong (二人麻将), one package: its fan table (:mod:`.fans`), its
context validation (:mod:`.validation`) and its kernel binding (:mod:`.binding`,
imported on first use: it loads numba).

Examples
--------
>>> from mjstats.rulesets.two_player import RULESET
>>> RULESET.name, RULESET.n_fans
('two-player', 66)
"""

from mjstats.rulesets.two_player.fans import (
    ALIASES,
    FANS,
    FORMS,
    RULESET,
    SITUATION_BITS,
    TILES,
    TwoPlayerFan,
)

__all__ = ["ALIASES", "FANS", "FORMS", "RULESET", "SITUATION_BITS", "TILES", "TwoPlayerFan"]
