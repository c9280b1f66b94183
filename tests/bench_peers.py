"""Peers for the tests of ``mjstats bench --peer`` (``tests/test_outputs.py``).

``gb_kwargs`` and ``gb_hand`` wrap the reference scorer (PyMahjongGB's
``MahjongFanCalculator``), given the reference's keyword arguments or an
``mjstats.Hand``; ``odd_plus_one`` is deliberately wrong (one point more on
every hand whose true total is odd) and ``fails_on_kongs`` raises on hands
with a kong, so that disagreements must be reported.
"""

from __future__ import annotations

import mjstats


def gb_kwargs(**kwargs):
    import MahjongGB

    try:
        return MahjongGB.MahjongFanCalculator(**kwargs)
    except TypeError:  # the reference raises for a hand it does not accept
        return -1


def gb_hand(hand):
    return gb_kwargs(**hand.to_pymahjonggb())


def odd_plus_one(hand):
    total = mjstats.score(hand).total
    return total + 1 if total % 2 else total


def fails_on_kongs(hand):
    if hand.n_kongs:
        raise RuntimeError("kongs are not supported")
    return mjstats.score(hand)
