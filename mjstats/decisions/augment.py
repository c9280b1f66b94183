"""Suit augmentation: the three suits permuted in encoded decisions (observation
planes, the baseline's observation, mask and action alike).

A permutation ``perm`` of ``(0, 1, 2)`` sends suit ``s`` (mjstats' order: characters,
dots, bamboo) to suit ``perm[s]``, rank kept; honours are unchanged. Most of MCR does
not see which suit is which, but some rule points do, so a permuted decision is not
always the same decision (``docs/decisions.md`` lists them): 绿一色 (All Green) is
bamboo 2 3 4 6 8 and green dragons only; 推不倒 (Reversible Tiles) names dots 1-5 8 9,
bamboo 2 4 5 6 8 9 and white dragons.
"""

from __future__ import annotations

from itertools import permutations

import numpy as np

from mjstats.decisions.encode import _BASE_SUIT, ACT_SIZE, BASE_INDEX, baseline_action
from mjstats.games import kernels as G

__all__ = ["PERMUTATIONS", "action_map", "permute_encoded", "tile_map"]

PERMUTATIONS = tuple(permutations(range(3)))
"""The six permutations of the three suits (the first the identity)."""


def tile_map(perm) -> np.ndarray:
    """int64 (34,): the tile each tile code becomes under suit permutation ``perm``.

    Examples
    --------
    >>> tile_map((1, 0, 2))[[0, 9, 20, 30]].tolist()
    [9, 0, 20, 30]
    """
    t = np.arange(34)
    suit = np.minimum(t // 9, 3)
    out = t.copy()
    low = t < 27
    out[low] = 9 * np.asarray(perm)[suit[low]] + t[low] % 9
    return out


def action_map(perm) -> np.ndarray:
    """int64 (235,): the baseline action index each index becomes under ``perm``.

    Examples
    --------
    >>> m = action_map((1, 0, 2))
    >>> m[[0, 1, 2, 2 + 9]].tolist()  # play W1 -> play B1 (tile index 18); T1 stays
    [0, 1, 20, 11]
    >>> sorted(m.tolist()) == list(range(235))
    True
    """
    tm = tile_map(perm)
    out = np.full(ACT_SIZE, -1, np.int64)
    out[0], out[1] = 0, 1
    for t in range(34):
        for kind in (G.A_DISCARD, G.A_PUNG, G.A_KONG, G.A_ANGANG, G.A_BUGANG):
            a, b = kind * 64 + t, kind * 64 + tm[t]
            out[baseline_action(a, 0, BASE_INDEX, _BASE_SUIT)] = baseline_action(
                b, 0, BASE_INDEX, _BASE_SUIT
            )
        if t < 27 and 1 <= t % 9 <= 7:  # a chow's middle tile, each claimed tile
            for c in (t - 1, t, t + 1):
                a = baseline_action(G.A_CHOW * 64 + t, c, BASE_INDEX, _BASE_SUIT)
                out[a] = baseline_action(G.A_CHOW * 64 + tm[t], tm[c], BASE_INDEX, _BASE_SUIT)
    return out


def permute_encoded(enc: dict, perm) -> dict:
    """Encoded decisions (:func:`mjstats.decisions.encode.encode_decisions`, or a shard)
    with the suits permuted by ``perm``: observation, baseline observation, mask and
    action alike; other arrays are kept as they are.

    Examples
    --------
    >>> from mjstats.records.check import _DEMO_GAME
    >>> from mjstats.decisions import record_decisions
    >>> from mjstats.decisions.encode import encode_decisions
    >>> e = encode_decisions(record_decisions(_DEMO_GAME))
    >>> p = permute_encoded(e, (2, 1, 0))
    >>> bool((p["obs"][:, :, 27:] == e["obs"][:, :, 27:]).all()), int(p["mask"].sum())
    (True, 18)
    """
    tm = tile_map(perm)
    src = np.argsort(tm)  # new tile u holds the old tile src[u]
    out = dict(enc)
    out["obs"] = enc["obs"][:, :, src]
    b = enc["baseline"]
    cells = np.arange(36)
    cells[BASE_INDEX[tm]] = BASE_INDEX  # new cell of tm[t] holds old cell of t
    out["baseline"] = b.reshape(len(b), b.shape[1], 36)[:, :, cells].reshape(b.shape)
    am = action_map(perm)
    inv = np.argsort(am)
    out["mask"] = enc["mask"][:, inv]
    out["action"] = am[enc["action"]].astype(enc["action"].dtype)
    return out
