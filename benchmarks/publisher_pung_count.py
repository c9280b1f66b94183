"""Pung chances counted as the real-play data set's publisher counts them.

The reference's pung rate (49.05 % of 361,008 chances, 3.68 a game) comes from the
parser of the public repository ZhijieXiong/ai4mahjiong (``pymj/botzone/GameData.py``,
``get_state_action_sequence``), not from the engine's legal chances. After each
discard that parser gives a pung chance to every seat holding two copies of the tile
but the one that acts next (the discarder included, its hand after the discard); the
one that acts next has one only when it pungs; and it reads the first discard of a
game twice (at its first action and again at its second). This script counts the
same in seeded games of a built-in policy on the Botzone wall, or in a set of real
records, beside the count of every other seat holding a pair (the engine's chances
but for claims that a win takes first), so that a rate can be set beside the
published one like for like.

Usage::

    PYTHONPATH=. python benchmarks/publisher_pung_count.py --games 20000 --seed 11
    PYTHONPATH=. python benchmarks/publisher_pung_count.py --records tests/data/botzone
"""

from __future__ import annotations

import argparse

import numpy as np


def count_game(wall, rows) -> tuple[int, int, int]:
    """``(pungs, pair chances, publisher's chances)`` of one game: ``wall`` its 136
    tiles (Botzone layout, dealt by the engine's own ``new_game``), ``rows`` its move
    log without the ignored claims."""
    from mjstats.games import state as ST
    from mjstats.games.driver import LOG_DRAW
    from mjstats.games.rules import new_game

    S = np.zeros(ST.N_STATE, np.int64)
    new_game(S, np.asarray(wall, np.int64), ST.WALL_BOTZONE, 0)
    hands = S[ST.S_HAND : ST.S_HAND + 4 * 34].reshape(4, 34).copy()
    pungs = pairs = published = 0
    first = True
    last = -1
    taken = {ST.A_PUNG: 2, ST.A_KONG: 3, ST.A_ANGANG: 4, ST.A_BUGANG: 1}
    for k, (seat, kind, tile, _) in enumerate(rows):
        if kind == LOG_DRAW:
            hands[seat, tile] += 1
        elif kind == ST.A_DISCARD:
            hands[seat, tile] -= 1
            nxt = rows[k + 1] if k + 1 < len(rows) else None
            actor = nxt[0] if nxt is not None else -1
            won = nxt is not None and nxt[1] == ST.A_HU
            holders = [s for s in range(4) if s != seat and hands[s, tile] >= 2]
            pairs += sum(1 for s in holders if not (won and s == actor))
            published += sum(1 for s in range(4) if s != actor and hands[s, tile] >= 2)
            published += nxt is not None and nxt[1] == ST.A_PUNG  # the one that pungs
            if first:  # read again before the dealer's discard, for the others
                published += len(holders)
                first = False
            last = tile
        elif kind == ST.A_CHOW:
            for x in (tile - 1, tile, tile + 1):
                hands[seat, x] -= x != last
        elif kind in taken:
            hands[seat, tile] -= taken[kind]
            pungs += kind == ST.A_PUNG
    return pungs, pairs, published


def _games(n: int, seed: int, policy: str):
    from mjstats.games import play_games
    from mjstats.games import state as ST

    _, _, final, logs = play_games(n, seed=seed, policy=policy, wall="botzone", keep_log=True)
    for g in range(n):
        rows = [r for r in logs[g, : final[g, ST.S_NLOG]].tolist() if not r[3]]
        yield final[g, ST.S_WALL : ST.S_WALL + 136], rows


def _records(path: str):
    from mjstats.records.reader import DRAWN, WIN, read_blocks

    for b in read_blocks(path):
        for i in range(len(b)):
            if b.status[i] not in (WIN, DRAWN):  # a bad or aborted record: not counted
                continue
            log = b.logs[b.starts[i] : b.starts[i] + b.n_log[i]].tolist()
            yield b.walls[i], [r for r in log if not r[3]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20_000, help="games to play")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--policy", default="planner", help="built-in policy at every seat")
    parser.add_argument("--records", help="count these Botzone records instead of playing")
    args = parser.parse_args()
    source = _records(args.records) if args.records else _games(args.games, args.seed, args.policy)
    n = pungs = pairs = published = 0
    for wall, rows in source:
        p, c, q = count_game(wall, rows)
        n, pungs, pairs, published = n + 1, pungs + p, pairs + c, published + q
    what = args.records or f"{args.policy}, {args.games:,} games, seed {args.seed}"
    print(f"{what}: {pungs:,} pungs ({pungs / n:.2f} a game)")
    print(f"  chances, another seat holding a pair: {pairs:,} ({pairs / n:.2f} a game), "
          f"taken {pungs / pairs:.1%}")  # fmt: skip
    print(f"  chances as the publisher counts them: {published:,} ({published / n:.2f} a game), "
          f"taken {pungs / published:.1%} (published: 49.05 %, 3.68 a game)")  # fmt: skip


if __name__ == "__main__":
    main()
