"""The Botzone judge's MCR: its options and its Chinese fan names, mapped to fan ids.

Botzone's *Chinese-Standard-Mahjong* judge scores with the reference fan calculator
under two options (:data:`BOTZONE_OPTIONS`, :func:`botzone_ruleset`): 明暗杠 scores 5,
and flower points count toward the 8-fan minimum.

The judge writes fans by their Chinese names (``Fan 9 混一色*1+箭刻*1+老少副*1``
in the text data set, ``"name"`` entries in a JSON log). They are the names of
the MCR ruleset (:data:`mjstats.rulesets.mcr.FANS`, ``zh``), except for the wait
fans, which have had several spellings:

=================  ============  ===========  ============
ruleset key        ruleset zh    judge 2018   newer judge
=================  ============  ===========  ============
``edge_wait``      边张          边张         独听・边张
``closed_wait``    坎张          嵌张         独听・嵌张
``single_wait``    单钓将        单钓将       独听・单钓
=================  ============  ===========  ============

:data:`JUDGE_NAMES` is the one table from every spelling to the ruleset's stable
fan key; :func:`judge_fan_counts` turns recorded fan lists into the same
``(N, F)`` count matrix as :attr:`mjstats.BatchScore.fan_counts`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from mjstats.rulesets import Ruleset, get_ruleset
from mjstats.rulesets.mcr import FANS

__all__ = ["BOTZONE_OPTIONS", "JUDGE_NAMES", "botzone_ruleset", "judge_fan_counts", "judge_fan_key"]

BOTZONE_OPTIONS: dict[str, Any] = {"mingan_gang": True, "flowers_count_toward_minimum": True}
"""MCR options of the Botzone judge (PyMahjongGB): 明暗杠 = 5, flowers count toward 8."""


def botzone_ruleset() -> Ruleset:
    """The MCR ruleset with the Botzone judge's options (:data:`BOTZONE_OPTIONS`).

    Examples
    --------
    >>> rs = botzone_ruleset()
    >>> rs.name, rs.options["mingan_gang"], rs.options["flowers_count_toward_minimum"]
    ('mcr', True, True)
    """
    return get_ruleset("mcr", **BOTZONE_OPTIONS)


#: Spellings of fan names that differ from the MCR ruleset's ``zh`` (judge name -> fan key).
_ALIASES = {
    "嵌张": "closed_wait",
    "独听・边张": "edge_wait",
    "独听・嵌张": "closed_wait",
    "独听・单钓": "single_wait",
}
#: the same with U+00B7 instead of U+30FB (lookalikes, not written by the judge)
_LOOKALIKES = {
    "独听·边张": "edge_wait",
    "独听·嵌张": "closed_wait",
    "独听·单钓": "single_wait",
}


def _judge_names() -> dict[str, str]:
    names = {f.zh: f.key for f in FANS}
    names.update(_ALIASES)
    names.update(_LOOKALIKES)
    return names


JUDGE_NAMES: dict[str, str] = _judge_names()
"""Every Chinese fan name the Botzone judge writes -> the MCR ruleset's fan key.

Examples
--------
>>> JUDGE_NAMES["嵌张"], JUDGE_NAMES["独听・单钓"], JUDGE_NAMES["明暗杠"]
('closed_wait', 'single_wait', 'concealed_kong_and_melded_kong')
"""


def judge_fan_key(name: str) -> str:
    """The ruleset fan key of a fan name written by the judge.

    Raises ``KeyError`` naming the fan for a name the judge never writes.

    Examples
    --------
    >>> judge_fan_key("边张"), judge_fan_key("独听・边张"), judge_fan_key("坎张")
    ('edge_wait', 'edge_wait', 'closed_wait')
    """
    try:
        return JUDGE_NAMES[name]
    except KeyError:
        raise KeyError(f"unknown fan name {name!r}") from None


def judge_fan_counts(
    fans: Iterable[Sequence[tuple[str, int]]], ruleset: Ruleset | str = "mcr"
) -> tuple[np.ndarray, list[tuple[tuple[str, int], ...]]]:
    """Recorded fan lists as a fan-count matrix in the ruleset's column order.

    Parameters
    ----------
    fans : iterable of sequences of (name, count)
        One fan list per win, as in ``RecordSet.recorded["fans"]``.
    ruleset : Ruleset or str, default "mcr"
        The ruleset whose fan ids are the columns.

    Returns
    -------
    counts : numpy.ndarray
        uint8 (N, F): ``counts[i, f]`` is how many times win ``i`` recorded fan ``f``.
    unknown : list of tuple
        Per win, the ``(name, count)`` pairs whose name is not a fan of the ruleset
        (empty tuples when every name is known).

    Examples
    --------
    >>> counts, unknown = judge_fan_counts([(("嵌张", 1), ("喜相逢", 2)), (("龙七对", 1),)])
    >>> from mjstats.rules import get_ruleset
    >>> mcr = get_ruleset("mcr")
    >>> int(counts[0, mcr.fan_id("closed_wait")]), int(counts[0, mcr.fan_id("mixed_double_chow")])
    (1, 2)
    >>> int(counts[1].sum()), unknown
    (0, [(), (('龙七对', 1),)])
    """
    rs = get_ruleset(ruleset)
    rows = list(fans)
    counts = np.zeros((len(rows), rs.n_fans), np.uint8)
    unknown: list[tuple[tuple[str, int], ...]] = []
    for i, row in enumerate(rows):
        bad = []
        for name, count in row:
            try:
                counts[i, rs.fan_id(JUDGE_NAMES[name])] += int(count)
            except KeyError:
                bad.append((name, int(count)))
        unknown.append(tuple(bad))
    return counts, unknown
