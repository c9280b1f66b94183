"""Random complete MCR hands that exercise every fan (a coverage generator).

:func:`generate_wins` draws winning hands from a mixture of *styles*: regular
hands built from sets drawn out of biased tile pools (one suit, two suits,
honours, 1-3, 1-4, 4-6, 6-9, 7-9, even ranks, terminals, fives, green,
reversible, simples), fan templates (大四喜, 一色双龙会, 一色四步高, 花龙, ...),
random meld splits (0-4 melds; chows, pungs, exposed and concealed kongs),
seven pairs (with four-of-a-kind), seven shifted pairs, thirteen orphans,
honours-and-knitted, knitted straight with 0 or 1 meld and nine gates; plus
win flags, winds and flowers. Every hand is valid: no kind is used more than
four times, the flags agree with the hand (a 杠上开花 hand has a kong, a
robbed kong's tile is held nowhere else, 和绝张 only when no other copy is
concealed; 和绝张 is set when the melds show the other three copies).

It is a test and benchmark tool, *not* a model of real play: style weights are
chosen so that every fan appears often (>= 100 times per 50,000 hands), not to
match any game's distribution. ``style="concealed"`` gives plain random
concealed regular wins (uniform over set choices, no biases), the usual
benchmark workload.

Randomness: :mod:`mjstats.kernels.rng` (xoshiro256**) seeded from
``numpy.random.SeedSequence(seed)``: the same seed gives the same hands.
"""

from __future__ import annotations

import numpy as np

from mjstats.kernels.rng import chunk_states
from mjstats.studies.kernels.generate_wins import generate_chunk

__all__ = ["STYLES", "WinBatch", "generate_wins"]

#: style names (index = style code stored in :attr:`WinBatch.style`)
STYLES = (
    "regular",
    "template",
    "dense_suit",
    "seven_pairs",
    "seven_shifted_pairs",
    "thirteen_orphans",
    "honors_knitted",
    "knitted_straight",
    "nine_gates",
    "concealed",
)
_MIXED_WEIGHTS = np.array([40, 30, 8, 7, 1.5, 1.5, 2, 4, 1.5, 4.5], dtype=np.float64)


class WinBatch:
    """Arrays of generated winning hands (the ``HandBatch`` field layout).

    Attributes: ``concealed`` uint8 (N, 34) incl. the winning tile, ``melds``
    uint8 (N, 4, 2), ``win_tile`` uint8 (N,), ``self_drawn``, ``last_of_kind``,
    ``kong_win``, ``last_of_wall`` bool (N,), ``seat_wind``, ``round_wind``
    uint8 (N,), ``flowers`` uint8 (N,) masks, ``style`` uint8 (N,) (index into
    :data:`STYLES`).
    """

    FIELDS = (
        "concealed",
        "melds",
        "win_tile",
        "self_drawn",
        "last_of_kind",
        "kong_win",
        "last_of_wall",
        "seat_wind",
        "round_wind",
        "flowers",
        "style",
    )

    def __init__(self, **arrays):
        for k in self.FIELDS:
            setattr(self, k, arrays[k])

    def __len__(self) -> int:
        return len(self.win_tile)

    def __getitem__(self, idx):
        return WinBatch(**{k: getattr(self, k)[idx] for k in self.FIELDS})

    def as_dict(self) -> dict:
        """The ``HandBatch`` fields (without ``style``) as a dict of arrays."""
        d = {k: getattr(self, k) for k in self.FIELDS if k != "style"}
        d["situation"] = np.zeros(len(self), dtype=np.uint8)
        return d


def generate_wins(n: int, seed: int, style: str = "mixed", *, chunk: int = 8192) -> WinBatch:
    """Generate ``n`` random complete MCR hands.

    Parameters
    ----------
    n : int
        Number of hands.
    seed : int
        Seed; the same seed and arguments give the same hands.
    style : str
        ``"mixed"`` (all styles, weights chosen to hit every fan), ``"concealed"``
        (plain random concealed regular wins) or one name of :data:`STYLES`.
    chunk : int
        Hands per random-state chunk (results depend on it; keep the default).

    Returns
    -------
    WinBatch

    Examples
    --------
    >>> from mjstats.studies.generate_wins import generate_wins
    >>> w = generate_wins(5, seed=1)
    >>> w.concealed.shape, int(w.concealed[0].sum() + 3 * (w.melds[0, :, 0] > 0).sum())
    ((5, 34), 14)
    """
    if style == "mixed":
        styles = np.arange(len(STYLES), dtype=np.int64)
        weights = _MIXED_WEIGHTS
    else:
        if style not in STYLES:
            raise ValueError(f"unknown style {style!r}; choose 'mixed' or one of {STYLES}")
        styles = np.array([STYLES.index(style)], dtype=np.int64)
        weights = np.ones(1)
    out = {
        "concealed": np.zeros((n, 34), np.uint8),
        "melds": np.zeros((n, 4, 2), np.uint8),
        "win_tile": np.zeros(n, np.uint8),
        "self_drawn": np.zeros(n, np.bool_),
        "last_of_kind": np.zeros(n, np.bool_),
        "kong_win": np.zeros(n, np.bool_),
        "last_of_wall": np.zeros(n, np.bool_),
        "seat_wind": np.zeros(n, np.uint8),
        "round_wind": np.zeros(n, np.uint8),
        "flowers": np.zeros(n, np.uint8),
        "style": np.zeros(n, np.uint8),
    }
    n_chunks = max(1, -(-n // chunk))
    states = chunk_states(seed, 0, n_chunks)
    for c in range(n_chunks):
        sl = slice(c * chunk, min(n, (c + 1) * chunk))
        generate_chunk(states[c], styles, weights, *(out[k][sl] for k in WinBatch.FIELDS))
    return WinBatch(**out)
