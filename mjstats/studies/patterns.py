"""Per-group pattern tables: the building blocks of exact enumeration and exact sampling.

A concealed hand splits into four *groups*: characters, dots, bamboo (9 ranks
each) and honours (7 kinds). For the forms that matter here, whether a hand is
complete depends on each group separately:

* **regular** form: every group is a *regular pattern* of ``k`` sets (chows and
  pungs; pungs only for honours) with or without the pair, the ``k`` summing to 4
  and exactly one group holding the pair;
* **seven pairs** (MCR: a kind held four times is two pairs): every group is a
  *pairs pattern* (counts 0, 2 or 4) and the pair counts sum to 7.

A pattern's *class* is ``2k + pair`` (regular) or the number of pairs (seven
pairs). The group sizes fix each group's class, so every complete hand is
exactly one combination of patterns: enumerating all combinations of classes
(a *block*) and all patterns inside a block lists every hand once. Each pattern
carries its *deal weight* ``prod C(4, count)``, the number of ways to pick those
tiles from four copies of each kind; a hand's weight is the product of its
groups' weights, and a block's total weight is the product of its classes'
total weights. That is what makes exact sampling cheap.

>>> regular_hand_count()
11498658
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cache

import numpy as np

from mjstats._readonly import read_only

__all__ = [
    "BlockSpace",
    "PatternTable",
    "regular_hand_count",
    "regular_space",
    "seven_pairs_space",
]

_C4 = np.array([1, 4, 6, 4, 1], dtype=np.int64)


@dataclass(frozen=True)
class PatternTable:
    """All patterns of one group kind, sorted by class.

    Attributes
    ----------
    patterns : uint8 (P, ranks)
        Count vectors; class ``c`` occupies rows ``start[c] : start[c] + size[c]``.
    weight : int64 (P,)
        Deal weight of each pattern.
    cum_weight : int64 (P,)
        Inclusive prefix sums of ``weight`` within each class (for sampling).
    start, size, class_weight : int64 (C,)
        Row range and total weight of each class.
    """

    patterns: np.ndarray
    weight: np.ndarray
    cum_weight: np.ndarray
    start: np.ndarray
    size: np.ndarray
    class_weight: np.ndarray

    @classmethod
    def from_classes(cls, by_class: list[list[tuple[int, ...]]], n_ranks: int) -> PatternTable:
        rows, start, size = [], [], []
        for members in by_class:
            start.append(len(rows))
            size.append(len(members))
            rows.extend(sorted(members))
        patterns = np.array(rows, dtype=np.uint8).reshape(-1, n_ranks)
        weight = _C4[patterns].prod(axis=1)
        cum = np.empty_like(weight)
        class_weight = np.zeros(len(by_class), np.int64)
        for c, (s, n) in enumerate(zip(start, size, strict=True)):
            cum[s : s + n] = np.cumsum(weight[s : s + n])
            class_weight[c] = cum[s + n - 1] if n else 0
        return cls(
            read_only(patterns),
            read_only(weight),
            read_only(cum),
            read_only(start, np.int64),
            read_only(size, np.int64),
            class_weight,
        )


def _set_vectors(n_ranks: int, chows: bool) -> list[np.ndarray]:
    sets = []
    if chows:
        for r in range(n_ranks - 2):
            v = np.zeros(n_ranks, np.int64)
            v[r : r + 3] = 1
            sets.append(v)
    for r in range(n_ranks):
        v = np.zeros(n_ranks, np.int64)
        v[r] = 3
        sets.append(v)
    return sets


def _regular_table(n_ranks: int, chows: bool) -> PatternTable:
    sets = _set_vectors(n_ranks, chows)
    by_class: list[list[tuple[int, ...]]] = []
    for k in range(5):
        for pair in (0, 1):
            seen = set()
            for combo in itertools.combinations_with_replacement(range(len(sets)), k):
                base = sum((sets[s] for s in combo), np.zeros(n_ranks, np.int64))
                for p in range(n_ranks) if pair else (None,):
                    v = base.copy()
                    if p is not None:
                        v[p] += 2
                    if v.max(initial=0) <= 4:
                        seen.add(tuple(int(x) for x in v))
            by_class.append(list(seen))
    return PatternTable.from_classes(by_class, n_ranks)


def _pairs_table(n_ranks: int) -> PatternTable:
    by_class: list[list[tuple[int, ...]]] = [[] for _ in range(8)]
    for v in itertools.product((0, 2, 4), repeat=n_ranks):
        p = sum(v) // 2
        if p <= 7:
            by_class[p].append(v)
    return PatternTable.from_classes(by_class, n_ranks)


@dataclass(frozen=True)
class BlockSpace:
    """An enumerable, samplable set of complete hands built from group patterns.

    Attributes
    ----------
    suit, honor : PatternTable
        Patterns of the three suits and of the honours.
    blocks : int64 (B, 4)
        Class of each group (characters, dots, bamboo, honours) in every block.
    offset : int64 (B + 1,)
        Global index of the first hand of each block; ``offset[-1]`` hands in all.
    block_weight : int64 (B,)
        Total deal weight of each block.
    """

    suit: PatternTable
    honor: PatternTable
    blocks: np.ndarray
    offset: np.ndarray
    block_weight: np.ndarray

    @classmethod
    def build(cls, suit: PatternTable, honor: PatternTable, blocks: np.ndarray) -> BlockSpace:
        sizes = np.ones(len(blocks), np.int64)
        weights = np.ones(len(blocks), np.int64)
        for g in range(4):
            table = honor if g == 3 else suit
            sizes *= table.size[blocks[:, g]]
            weights *= table.class_weight[blocks[:, g]]
        keep = sizes > 0
        blocks, sizes, weights = blocks[keep], sizes[keep], weights[keep]
        offset = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
        return cls(suit, honor, np.ascontiguousarray(blocks), offset, weights)

    @property
    def n_hands(self) -> int:
        """Number of distinct hands in the space."""
        return int(self.offset[-1])

    @property
    def total_weight(self) -> int:
        """Sum of the deal weights of all hands (Python int, exact)."""
        return sum(int(w) for w in self.block_weight)

    def arrays(self) -> tuple[np.ndarray, ...]:
        """The arrays the numba kernels take, in the order of :func:`decode_hand`."""
        return (
            self.blocks,
            self.offset,
            self.suit.patterns,
            self.suit.weight,
            self.suit.start,
            self.suit.size,
            self.honor.patterns,
            self.honor.weight,
            self.honor.start,
            self.honor.size,
        )


@cache
def regular_space() -> BlockSpace:
    """Every complete regular-form concealed 14-tile hand (11,498,658 of them)."""
    suit, honor = _regular_table(9, True), _regular_table(7, False)
    rows = [
        (2 * ks[0] + (pg == 0), 2 * ks[1] + (pg == 1), 2 * ks[2] + (pg == 2), 2 * ks[3] + (pg == 3))
        for ks in itertools.product(range(5), repeat=4)
        if sum(ks) == 4
        for pg in range(4)
    ]
    return BlockSpace.build(suit, honor, np.array(rows, dtype=np.int64))


@cache
def seven_pairs_space() -> BlockSpace:
    """Every 14-tile hand of seven pairs, a kind held four times counting as two pairs."""
    suit, honor = _pairs_table(9), _pairs_table(7)
    rows = [ps for ps in itertools.product(range(8), repeat=4) if sum(ps) == 7]
    return BlockSpace.build(suit, honor, np.array(rows, dtype=np.int64))


def regular_hand_count() -> int:
    """Number of distinct complete regular-form 14-tile concealed hands."""
    return regular_space().n_hands
