"""Two-player context validation: what the game cannot hold.

Called by :func:`mjstats.score` and :func:`mjstats.score_batch` through the
ruleset's binding (:func:`mjstats.rulesets.two_player.binding.check_context`),
after the checks every ruleset shares.
"""

from __future__ import annotations

import numpy as np

from mjstats.errors import InvalidContextError, InvalidTileError
from mjstats.tiles import TILES
from mjstats.validation import fail_rows

__all__ = ["check_context"]

_NO_TILE = 255
_TWO_PLAYER_SITUATION_BITS = 0x1F


def check_context(arrays: dict, *, batch: bool) -> None:
    """Reject what the two-player game cannot hold: dots or bamboo tiles, seats
    other than East (dealer) and West, a round other than East, unknown
    situation bits and situation bits the hand contradicts."""

    conc = np.asarray(arrays["concealed"], dtype=np.uint8)
    melds = np.asarray(arrays["melds"], dtype=np.uint8)
    n = len(conc)
    if n == 0:
        return
    kinds = melds[:, :, 0]
    mt = melds[:, :, 1].astype(np.int64)
    # tiles of each meld (a chow covers three kinds)
    foreign = conc[:, 9:27].any(axis=1)
    meld_foreign = (kinds > 0) & (
        ((mt >= 9) & (mt < 27)) | ((kinds == 1) & (mt + 2 >= 9) & (mt + 2 < 27))
    )
    bad_tile = foreign | meld_foreign.any(axis=1)

    def tile_problem(r):
        ids = [int(t) + 9 for t in np.flatnonzero(conc[r, 9:27])]
        for j in range(4):
            if kinds[r, j] and meld_foreign[r, j]:
                ids.append(int(mt[r, j]) if 9 <= mt[r, j] < 27 else int(mt[r, j]) + 2)
        t = ids[0]
        kind = "dots (饼)" if t < 18 else "bamboo (条)"
        return (
            f"the two-player ruleset plays characters (万) and honours only, "
            f"but the hand holds {TILES[t]}, a {kind} tile"
        )

    fail_rows(bad_tile, tile_problem, error=InvalidTileError, batch=batch)
    seat = np.asarray(arrays["seat_wind"], dtype=np.uint8)
    rnd = np.asarray(arrays["round_wind"], dtype=np.uint8)
    fail_rows(
        (seat != 0) & (seat != 2),
        "two-player seats are East (0, the dealer 庄家) and West (2, the other player 闲家)",
        error=InvalidContextError,
        detail=seat,
        batch=batch,
    )
    fail_rows(
        rnd != 0,
        "the two-player round wind is always East (0)",
        error=InvalidContextError,
        detail=rnd,
        batch=batch,
    )
    sit = np.asarray(arrays["situation"], dtype=np.uint8)
    fail_rows(
        (sit & ~np.uint8(_TWO_PLAYER_SITUATION_BITS)) != 0,
        "two-player situation bits are 1 天胡, 2 地胡, 4 人胡, 8 报听, 16 天听",
        error=InvalidContextError,
        detail=sit,
        batch=batch,
    )
    win = np.asarray(arrays["win_tile"], dtype=np.uint8)
    sd = np.asarray(arrays["self_drawn"], dtype=np.bool_)
    won = win != _NO_TILE
    any_meld = (kinds > 0).any(axis=1)
    exposed = ((kinds >= 1) & (kinds <= 3)).any(axis=1)
    wins = ((sit & 7)[:, None] >> np.arange(3)) & 1
    checks = (
        (wins.sum(axis=1) > 1, "at most one of 天胡 (1), 地胡 (2), 人胡 (4) can hold"),
        (
            (sit & 1).astype(bool) & ((seat != 0) | any_meld | (won & ~sd)),
            "天胡 (situation 1) is the dealer's (seat East) self-drawn win on the deal, "
            "without any meld or concealed kong",
        ),
        (
            (sit & 2).astype(bool) & ((seat == 0) | any_meld | (won & ~sd)),
            "地胡 (situation 2) is the other player's (seat West) self-drawn win on the first "
            "draw, without any meld or concealed kong",
        ),
        (
            (sit & 4).astype(bool) & ((seat == 0) | any_meld | (won & sd)),
            "人胡 (situation 4) is the other player's (seat West) win on the dealer's first "
            "discard, without any meld or concealed kong",
        ),
        (
            (sit & 8).astype(bool) & exposed,
            "报听 (situation 8, 立直) needs a hand without chow, pung or exposed kong",
        ),
        (
            (sit & 16).astype(bool) & any_meld,
            "天听 (situation 16) is declared on the deal: no meld or concealed kong",
        ),
        # declarations the win came too early for (docs/two-player-rules.md)
        (
            (sit & 1).astype(bool) & ((sit & 24) != 0),
            "天胡 (situation 1) is won on the deal, before anyone can declare: "
            "not with 报听 (8) or 天听 (16)",
        ),
        (
            (sit & 4).astype(bool) & ((sit & 24) != 0),
            "人胡 (situation 4) is won on the dealer's first discard, before the other player "
            "can declare: not with 报听 (8) or 天听 (16)",
        ),
        (
            (sit & 2).astype(bool) & ((sit & 24) == 8),
            "地胡 (situation 2) is won on the other player's first draw: the only declaration "
            "before it is 天听 (16), so not 报听 (8) without 天听",
        ),
    )
    for bad, problem in checks:
        fail_rows(bad, problem, error=InvalidContextError, batch=batch)
