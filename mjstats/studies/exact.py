"""``exact``: every distinct complete concealed 14-tile hand, weighted by how often it is dealt.

The enumeration covers all of a ruleset's forms and counts a hand complete in
several forms once:

1. the regular form (11,498,658 hands in MCR), from per-group pattern tables;
2. seven pairs (a kind held four times is two pairs), minus hands already regular;
3. the remaining special forms, listed explicitly: thirteen orphans, honours and
   knitted tiles (全不靠 / 七星不靠), knitted straight (组合龙) + set + pair.

Each hand's *deal weight* is ``prod C(4, count)``: the number of 14-tile deals
from the wall that give it. So the total weight over the number of possible
deals is the exact probability that a random deal is complete.

**Fan-probability convention.** A uniform random 14-tile deal conditioned on
being complete; the winning tile is one of the 14 tiles, each copy equally
likely; self-drawn; seat and round wind East; no flowers, no melds, no other
flags. Every hand is scored once per distinct winning tile kind, weighted by
deal weight x copies of that kind, so the counters (``complete``, fan counts,
histograms) are 14 x the deal weights and ratios of them are exact
probabilities.
"""

from __future__ import annotations

import itertools
import math
from functools import cache
from typing import Any

import numpy as np

from mjstats.kernels.accumulate import chunk_counters, sum_counters
from mjstats.kernels.decompose import is_regular_complete, suit_table
from mjstats.rulesets import Ruleset, get_ruleset
from mjstats.rulesets.dispatch import kernel_spec
from mjstats.studies.aggregate import Aggregate
from mjstats.studies.kernels.exact import (
    C4,
    decode_range,
    diff_chunks,
    exact_chunks,
    seven_pairs_weights,
)
from mjstats.studies.kernels.profile_diff import diff_counters
from mjstats.studies.patterns import BlockSpace, regular_space, seven_pairs_space
from mjstats.studies.runner import Study, run_study

__all__ = [
    "ExactStudy",
    "complete_weights",
    "exact",
    "exact_summary",
    "load_exact",
    "special_hands",
]

CHUNK = 1 << 15
_EXTRA = ("distinct", "deal_weight", "unscored")


def _orphans() -> list[np.ndarray]:
    kinds = [0, 8, 9, 17, 18, 26, *range(27, 34)]
    out = []
    for dup in kinds:
        c = np.zeros(34, np.uint8)
        c[kinds] = 1
        c[dup] += 1
        out.append(c)
    return out


def _knitted_bodies() -> list[list[int]]:
    bodies = []
    for perm in itertools.permutations(range(3)):
        bodies.append([9 * s + r for s, j in enumerate(perm) for r in (j, j + 3, j + 6)])
    return bodies


def _honors_knitted() -> list[np.ndarray]:
    out = []
    for body in _knitted_bodies():
        pool = body + list(range(27, 34))  # 16 kinds, choose 14 distinct
        for drop in itertools.combinations(pool, 2):
            c = np.zeros(34, np.uint8)
            c[[t for t in pool if t not in drop]] = 1
            out.append(c)
    return out


def _knitted_straights() -> list[np.ndarray]:
    sets = [[t, t + 1, t + 2] for s in range(3) for t in range(9 * s, 9 * s + 7)]
    sets += [[t, t, t] for t in range(34)]
    out = []
    for body in _knitted_bodies():
        for st in sets:
            for pair in range(34):
                c = np.zeros(34, np.uint8)
                c[body] += 1
                for t in st:
                    c[t] += 1
                c[pair] += 2
                if c.max() <= 4:
                    out.append(c)
    return out


@cache
def special_hands(tiles: tuple[int, ...] = tuple(range(34))) -> np.ndarray:
    """Complete hands of the special forms that are neither regular nor seven pairs.

    Thirteen orphans, honours-and-knitted and knitted straight + set + pair, each
    once, restricted to hands made of ``tiles``. Returns uint8 (n, 34).
    """
    allowed = np.zeros(34, bool)
    allowed[list(tiles)] = True
    seen: set[bytes] = set()
    rows = []
    for c in _orphans() + _honors_knitted() + _knitted_straights():
        key = c.tobytes()
        if key in seen or (c[~allowed] > 0).any() or is_regular_complete(c):
            continue
        if (c % 2 == 0).all():  # seven pairs are enumerated with their own space
            continue
        seen.add(key)
        rows.append(c)
    return np.array(rows, dtype=np.uint8).reshape(-1, 34)


def _restrict(space: BlockSpace, tiles: tuple[int, ...]) -> BlockSpace:
    """The blocks of ``space`` whose hands use only ``tiles`` (whole groups)."""
    groups_allowed = [all(t in tiles for t in range(9 * g, 9 * g + 9)) for g in range(3)] + [
        all(t in tiles for t in range(27, 34))
    ]
    keep = np.ones(len(space.blocks), bool)
    for g, ok in enumerate(groups_allowed):
        if not ok:
            keep &= space.blocks[:, g] == 0
    return BlockSpace.build(space.suit, space.honor, space.blocks[keep])


@cache
def complete_weights(ruleset: Ruleset) -> dict[str, int]:
    """Exact deal weights of the disjoint parts of the complete hands (no scoring).

    Keys: ``regular``, ``seven_pairs`` (not regular), ``seven_distinct_pairs`` (not
    regular, no kind four times), ``special`` (the other special forms),
    ``thirteen_orphans``, ``all`` and ``deals`` (all possible 14-tile deals).

    Examples
    --------
    >>> from mjstats.rules import get_ruleset
    >>> w = complete_weights(get_ruleset("mcr"))
    >>> round(w["deals"] / w["all"])
    320590
    """
    study = ExactStudy(ruleset)
    out = {"regular": study._regular.total_weight}
    if study._pairs is not None:
        both, distinct = seven_pairs_weights(study._pairs.n_hands, study._pairs.arrays())
        out["seven_pairs"], out["seven_distinct_pairs"] = int(both), int(distinct)
    else:
        out["seven_pairs"] = out["seven_distinct_pairs"] = 0
    sp = study._special
    weights = C4[sp].prod(axis=1) if len(sp) else np.zeros(0, np.int64)
    out["special"] = int(weights.sum())
    orphan = np.ones(34, bool)
    orphan[[t for t in range(27) if t % 9 not in (0, 8)]] = False
    is_orphans = (sp[:, ~orphan] == 0).all(axis=1) if len(sp) else np.zeros(0, bool)
    out["thirteen_orphans"] = int(weights[is_orphans].sum())
    out["all"] = out["regular"] + out["seven_pairs"] + out["special"]
    out["deals"] = math.comb(4 * len(ruleset.tiles), 14)
    return out


class ExactStudy(Study):
    """Exact enumeration of complete concealed hands (see the module docstring).

    Parameters
    ----------
    ruleset : str or Ruleset
        ``"mcr"`` (default) or another ruleset name; options via :func:`get_ruleset`.
    """

    kind = "exact"
    default_n = None  # every hand: no --n

    @classmethod
    def summary_json(cls, agg: Aggregate) -> dict[str, Any]:
        """:func:`exact_summary`."""
        return exact_summary(agg)

    def __init__(self, ruleset: str | Ruleset = "mcr") -> None:
        self.ruleset = get_ruleset(ruleset)
        tiles = tuple(self.ruleset.tiles)
        self._tiles = tiles
        self._regular = _restrict(regular_space(), tiles)
        self._pairs = (
            _restrict(seven_pairs_space(), tiles)
            if "seven_pairs" in (self.ruleset.shanten_forms)
            else None
        )
        self._special = (
            special_hands(tiles)
            if len(self.ruleset.shanten_forms) > 2
            else (np.zeros((0, 34), np.uint8))
        )

    def __getstate__(self) -> dict[str, Any]:  # rebuild tables on the worker
        return {"ruleset": self.ruleset}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["ruleset"])

    @property
    def n_regular(self) -> int:
        return self._regular.n_hands

    @property
    def n_pairs(self) -> int:
        return 0 if self._pairs is None else self._pairs.n_hands

    @property
    def n_total(self) -> int:
        return self.n_regular + self.n_pairs + len(self._special)

    def params(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset.spec,
            "options": dict(self.ruleset.options),
            "exact": True,
            "convention": "complete 14-tile deal; uniform winning tile; self-drawn; East/East",
        }

    def n_chunks(self) -> int:
        return -(-self.n_total // CHUNK)

    def chunk_weight(self, first: int, count: int) -> int:
        return max(0, min(self.n_total, (first + count) * CHUNK) - first * CHUNK)

    def progress_unit(self) -> str:
        return "hands"

    def run_chunks(self, first: int, count: int) -> Aggregate:
        spec = kernel_spec(self.ruleset)
        fc = chunk_counters(count, spec.n_fans, spec.n_forms)
        extra = np.zeros((count, len(_EXTRA)), np.int64)
        if count:
            los = np.arange(first, first + count, dtype=np.int64) * CHUNK
            his = np.minimum(los + CHUNK, self.n_total)
            pairs = self._pairs if self._pairs is not None else self._regular
            exact_chunks(
                los,
                his,
                self.n_regular,
                self.n_pairs,
                self._regular.arrays(),
                pairs.arrays(),
                self._special,
                np.array(spec[:4], np.int64),
                suit_table(),
                spec.n_fans,
                fc,
                extra,
            )
        counters = sum_counters(fc)
        for j, name in enumerate(_EXTRA):
            counters[name] = extra[:, j].sum(keepdims=True)
        return Aggregate(self.kind, self.params(), counters)

    def hands(self, first: int, count: int) -> tuple[np.ndarray, np.ndarray]:
        """The distinct hands of chunks ``first`` to ``first + count - 1`` in
        enumeration order, as ``(counts, deal_weights)``: uint8 (n, 34) and int64 (n,).

        Examples
        --------
        >>> study = ExactStudy("mcr")
        >>> counts, weights = study.hands(study.n_chunks() - 1, 1)
        >>> int(counts[0].sum()), bool((weights > 0).all())
        (14, True)
        """
        lo = min(first * CHUNK, self.n_total)
        hi = min((first + count) * CHUNK, self.n_total)
        counts = np.zeros((hi - lo, 34), np.uint8)
        weights = np.zeros(hi - lo, np.int64)
        pairs = self._pairs if self._pairs is not None else self._regular
        n = decode_range(lo, hi, self.n_regular, self.n_pairs, self._regular.arrays(),
                          pairs.arrays(), self._special, counts, weights)  # fmt: skip
        return counts[:n], weights[:n]

    def run_diff_chunks(self, first: int, count: int, other: Ruleset, examples: int) -> tuple:
        """Chunks ``first`` to ``first + count - 1`` scored under this study's
        ruleset (a) and ``other`` (b, the same ruleset with another profile or
        options): the per-chunk counters of
        :func:`mjstats.studies.kernels.profile_diff.diff_counters`, each hand's
        readings shared by the two (``mjstats rules diff --exact``)."""
        sa, sb = kernel_spec(self.ruleset), kernel_spec(other)
        same = (sa.ruleset_id, sa.n_fans, other.tiles) == (sb.ruleset_id, sb.n_fans, self._tiles)
        if not same:
            raise ValueError(
                f"an exact diff compares two profiles of one ruleset, not {self.ruleset.spec} "
                f"and {other.spec}"
            )
        dc = diff_counters(count, sa.n_fans, examples)
        if count:
            los = np.arange(first, first + count, dtype=np.int64) * CHUNK
            his = np.minimum(los + CHUNK, self.n_total)
            pairs = self._pairs if self._pairs is not None else self._regular
            spec = np.array([*sa[:4], *sb[:4]], np.int64)
            diff_chunks(
                los,
                his,
                self.n_regular,
                self.n_pairs,
                self._regular.arrays(),
                pairs.arrays(),
                self._special,
                spec,
                suit_table(),
                sa.n_fans,
                dc,
            )
        return dc


def exact(ruleset: str | Ruleset = "mcr", **run_options: Any) -> Aggregate:
    """Run the exact enumeration; ``run_options`` go to :func:`~mjstats.studies.runner.run_study`.

    Examples
    --------
    >>> agg = exact()  # doctest: +SKIP
    >>> exact_summary(agg)["distinct_complete_hands"]  # doctest: +SKIP
    """

    return run_study(ExactStudy(ruleset), **run_options)


def load_exact(ruleset: str = "mcr") -> Aggregate:
    """The exact study of ``ruleset`` (default options) as shipped with mjstats.

    Running :func:`exact` takes minutes; this reads the stored result
    (``mjstats/data/exact-<ruleset>.json``, see the README there for how it is
    made and checked). Raises ``FileNotFoundError`` for a ruleset without one.

    Examples
    --------
    >>> from mjstats.studies.exact import exact_summary, load_exact
    >>> exact_summary(load_exact("mcr"))["distinct_complete_hands"]
    27919573
    """
    from importlib import resources

    name = get_ruleset(ruleset).name
    path = resources.files("mjstats") / "data" / f"exact-{name}.json"
    if not path.is_file():
        raise FileNotFoundError(2, f"no stored exact study for ruleset {name!r}", str(path))
    with resources.as_file(path) as file:
        return Aggregate.load(file)


def exact_summary(agg: Aggregate) -> dict[str, Any]:
    """The headline numbers of an exact study, JSON-ready.

    ``distinct_complete_hands``; ``p_complete`` (a random 14-tile deal is complete);
    ``p_complete_riichi_forms`` (the same counting only the regular form, seven
    *distinct* pairs and thirteen orphans, for comparison with riichi figures);
    ``fan_probability`` (English fan name -> probability that the best score of a
    complete hand contains it); ``p_legal`` (total >= the minimum); ``mean_total``.
    """
    rs = get_ruleset(agg.params["ruleset"], **agg.params.get("options", {}))
    w = complete_weights(rs)
    deals = w["deals"]
    riichi = w["regular"] + w["seven_distinct_pairs"] + w["thirteen_orphans"]
    complete = int(agg["complete"][0])
    hist = agg["total_hist"].sum(axis=0)
    diag = np.diag(agg["cooccurrence"])
    return {
        "ruleset": rs.spec,
        "distinct_complete_hands": int(agg["distinct"][0]),
        "p_complete": int(agg["deal_weight"][0]) / deals,
        "p_complete_riichi_forms": riichi / deals,
        "fan_probability": {f.en: int(diag[i]) / complete for i, f in enumerate(rs.fans)},
        "p_legal": int(agg["legal"][0]) / complete,
        "mean_total": float((np.arange(len(hist)) * hist).sum() / complete),
    }
