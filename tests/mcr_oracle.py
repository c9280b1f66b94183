"""PyMahjongGB (the MCR reference scorer) as a test oracle on mjstats arrays.

Converts one hand in the HandBatch layout to ``MahjongFanCalculator`` arguments
(pack: ("CHI" middle tile | "PENG" | "GANG", code, offer 1, or 0 for a concealed
kong); hand = standing tiles without the winning tile) and returns the
reference's fan counts as a vector in mjstats fan ids.
"""

from __future__ import annotations

import numpy as np

from mjstats.rulesets.mcr import FANS

try:  # the oracle is an optional test dependency
    import MahjongGB
except ImportError:  # pragma: no cover
    MahjongGB = None

CODES = tuple(
    [f"W{r}" for r in range(1, 10)]
    + [f"B{r}" for r in range(1, 10)]
    + [f"T{r}" for r in range(1, 10)]
    + ["F1", "F2", "F3", "F4", "J3", "J2", "J1"]
)

# reference English name -> mjstats fan id (names are unique)
EN_TO_ID = {f.en: i for i, f in enumerate(FANS)}


def oracle_args(
    concealed,
    melds,
    win_tile,
    self_drawn,
    last_of_kind,
    kong_win,
    last_of_wall,
    seat_wind,
    round_wind,
    flowers,
):
    """Positional arguments of ``MahjongFanCalculator`` for one hand."""
    pack = []
    for kind, tile in np.asarray(melds):
        kind = int(kind)
        tile = int(tile)
        if kind == 1:
            pack.append(("CHI", CODES[tile + 1], 1))
        elif kind == 2:
            pack.append(("PENG", CODES[tile], 1))
        elif kind == 3:
            pack.append(("GANG", CODES[tile], 1))
        elif kind == 4:
            pack.append(("GANG", CODES[tile], 0))
    standing = np.asarray(concealed, dtype=np.int64).copy()
    standing[int(win_tile)] -= 1
    hand = tuple(CODES[t] for t in np.repeat(np.arange(34), standing))
    n_flowers = int(np.unpackbits(np.uint8(flowers)).sum())
    return (
        tuple(pack),
        hand,
        CODES[int(win_tile)],
        n_flowers,
        bool(self_drawn),
        bool(last_of_kind),
        bool(kong_win),
        bool(last_of_wall),
        int(seat_wind),
        int(round_wind),
    )


def oracle_fans(args) -> tuple[int, np.ndarray]:
    """(total, fan counts (82,) in mjstats ids) from the reference; total -1 = not a win."""
    counts = np.zeros(len(FANS), dtype=np.int64)
    try:
        res = MahjongGB.MahjongFanCalculator(*args, verbose=True)
    except TypeError as exc:
        if "ERROR_NOT_WIN" in str(exc):
            return -1, counts
        raise
    total = 0
    for unit, cnt, _zh, en in res:
        counts[EN_TO_ID[en]] += cnt
        total += unit * cnt
    return total, counts


def batch_args(w, i):
    """Oracle arguments of row ``i`` of a WinBatch / HandBatch-like object."""
    return oracle_args(
        w.concealed[i],
        w.melds[i],
        w.win_tile[i],
        w.self_drawn[i],
        w.last_of_kind[i],
        w.kong_win[i],
        w.last_of_wall[i],
        w.seat_wind[i],
        w.round_wind[i],
        w.flowers[i],
    )
