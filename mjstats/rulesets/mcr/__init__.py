"""Chinese Official Mahjong (MCR, 国标麻将), one package: its fan table with
points and 不计 exclusions (:mod:`.fans`) and its kernel binding
(:mod:`.binding`, imported on first use: it loads numba). The fans are detected
in :mod:`mjstats.rulesets.mcr.kernel`, whose fan ids, points and exclusion pass are
generated from :data:`FANS`.

Examples
--------
>>> from mjstats.rulesets.mcr import RULESET
>>> RULESET.name, RULESET.n_fans
('mcr', 82)
"""

from mjstats.rulesets.mcr.fans import FANS, FORMS, RULE_POINTS, RULESET

__all__ = ["FANS", "FORMS", "RULESET", "RULE_POINTS"]
