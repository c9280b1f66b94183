"""Pung and chow chances counted as the real-play data set's publisher counts them.

The reference's pung rate (49.05 % of 361,008 chances, 3.68 a game) comes from the
parser of the public repository ZhijieXiong/ai4mahjiong (``pymj/botzone/GameData.py``,
``get_state_action_sequence``), not from the engine's legal chances. That parser reads
a game as one action per turn (draw and discard, claim and discard, kong and
replacement and discard, or the win) and, at each action, gives a pung chance to every
seat but the actor holding two copies of the tile the action before discarded (the
discarder included, its hand after the discard; at the first action, the first
discard itself, so that discard is read twice); the actor has one only when it pungs;
and when the actor claims, it drops the actor's state of the action before (a pass on
the discard before the one claimed). The last discard of a drawn game is never read.
This script counts the same in seeded games of a built-in policy on the Botzone wall,
or in a set of real records, beside the count of every other seat holding a pair after
each discard (the engine's chances but for claims that a win takes first), so that a
rate can be set beside the published one like for like. On the 16 games of
``tests/data/botzone/sample.txt`` and on the 19,977 of 20,000 planner games (seed 11)
that the publisher's code reads correctly, it gives game for game that code's pung and
chow chances and claims, run on the same text records (a check made outside the
repository, 2026-12-07: that code is not ours to ship; the test holds the figures of
``sample.txt``).

Usage::

    PYTHONPATH=. python benchmarks/publisher_pung_count.py --games 20000 --seed 11
    PYTHONPATH=. python benchmarks/publisher_pung_count.py --records tests/data/botzone
    mjstats study games --n 100000 --seed 5 --policy planner --wall botzone --out r --records r.txt
    PYTHONPATH=. python benchmarks/publisher_pung_count.py --records r.txt
"""

from __future__ import annotations

import argparse

import numpy as np

from mjstats.games import state as ST
from mjstats.games.driver import LOG_DRAW

# the rows a turn spans before its discard (a draw, a claim; an exposed kong and its
# replacement draw), the parser's name of such a turn, and the tiles a move takes
# from the hand
_TURN_ROWS = {LOG_DRAW: 1, ST.A_CHOW: 1, ST.A_PUNG: 1, ST.A_KONG: 2}
_TURN_NAMES = {LOG_DRAW: "Play", ST.A_CHOW: "Chi", ST.A_PUNG: "Peng", ST.A_KONG: "Gang"}
_TAKEN = {ST.A_PUNG: 2, ST.A_KONG: 3, ST.A_ANGANG: 4, ST.A_BUGANG: 1, ST.A_DISCARD: 1}


class Unreadable(ValueError):
    """A game the publisher's parser cannot read (a kong right after a kong, a win on
    the first draw)."""


def _actions(rows):
    """The game as the publisher's parser sees it: one action per turn, ``(seat, name,
    the tile it discards or -1, its rows)``; a turn that ends in a win ends the list
    (a kong followed by a win on the replacement draw is read as the win alone)."""
    out, i, n = [], 0, len(rows)
    while i < n:
        seat, kind = rows[i][0], rows[i][1]
        step = _TURN_ROWS.get(kind)
        if kind == ST.A_HU:
            return [*out, (seat, "Hu", -1, rows[i : i + 1])]
        if step is None:
            raise Unreadable(f"row {i}: {rows[i]}")
        nxt = rows[i + step] if i + step < n else None
        if nxt is None:
            raise Unreadable(f"row {i}: the record ends in a turn")
        if kind == LOG_DRAW and nxt[1] in (ST.A_ANGANG, ST.A_BUGANG):
            after = rows[i + 2] if i + 2 < n else None
            if after is not None and after[1] == ST.A_HU:  # 抢杠和
                return [*out, (after[0], "Hu", -1, rows[i : i + 3])]
            step = 3  # the replacement draw, then the discard
            nxt = rows[i + step] if i + step < n else None
            if nxt is None:
                raise Unreadable(f"row {i}: the record ends in a turn")
        if nxt[1] == ST.A_TSUMO:
            return [*out, (seat, "ZiMoHu", -1, rows[i : i + step + 1])]
        if nxt[1] != ST.A_DISCARD:
            raise Unreadable(f"row {i + step}: {nxt}")
        name = _TURN_NAMES[kind]
        if step == 3:
            name = "AnGang" if rows[i + 1][1] == ST.A_ANGANG else "BuGang"
        out.append((seat, name, nxt[2], rows[i : i + step + 1]))
        i += step + 1
    return out


def _apply(hands, rows, last: int) -> int:
    """Play ``rows`` on ``hands`` (4 x 34); returns the tile last discarded (a chow
    takes it from the discarder, not from the hand)."""
    for seat, kind, tile, _ in rows:
        if kind == LOG_DRAW:
            hands[seat, tile] += 1
        elif kind == ST.A_CHOW:
            for x in (tile - 1, tile, tile + 1):
                hands[seat, x] -= x != last
        elif kind in _TAKEN:
            hands[seat, tile] -= _TAKEN[kind]
            last = tile if kind == ST.A_DISCARD else last
    return last


def _can_chow(hand, tile: int) -> bool:
    """Whether ``hand`` (34 counts) holds two tiles that make a chow with the suited
    ``tile``."""
    r = tile % 9
    return any(
        0 <= r + o
        and r + o + 2 <= 8
        and all(hand[tile + o + j] > 0 for j in range(3) if o + j != 0)
        for o in (-2, -1, 0)
    )


def count_game(wall, rows) -> tuple[int, int, int, int, int]:
    """``(pungs, pair chances, publisher's pung chances, chows, publisher's chow
    chances)`` of one game: ``wall`` its 136 tiles (Botzone layout, dealt by the
    engine's own ``new_game``), ``rows`` its move log without the ignored claims.
    Raises :class:`Unreadable` for a game the publisher's parser cannot read."""
    from mjstats.games.rules import new_game

    S = np.zeros(ST.N_STATE, np.int64)
    new_game(S, np.asarray(wall, np.int64), ST.WALL_BOTZONE, 0)
    dealt = S[ST.S_HAND : ST.S_HAND + 4 * 34].reshape(4, 34)

    # the engine's chances: after each discard, every other seat holding a pair (but
    # the one that wins on it)
    hands, pungs, pairs, chows, last = dealt.copy(), 0, 0, 0, -1
    for k, row in enumerate(rows):
        last = _apply(hands, [row], last)
        if row[1] == ST.A_DISCARD:
            won = k + 1 < len(rows) and rows[k + 1][1] == ST.A_HU
            winner = rows[k + 1][0] if won else -1
            pairs += sum(1 for s in range(4) if s not in (row[0], winner) and hands[s, row[2]] >= 2)
        pungs += row[1] == ST.A_PUNG
        chows += row[1] == ST.A_CHOW

    # the publisher's: at each action, every seat but the actor holding two of the
    # tile the action before discarded (the first action's own discard at step 0);
    # the actor only when it pungs; a claimer's state of the step before is dropped.
    # Its chow chances, found the same way, go to the seat *before* the discarder (and
    # to seat 0 on seat 3's discards), and to the seat that chows.
    actions = _actions(rows)
    if actions[0][2] < 0:  # a win on the first draw: the parser has no discard to read
        raise Unreadable("the first action is a win")
    hands, published, chow_chances, last = dealt.copy(), 0, 0, -1
    passed = [(False, False)] * 4  # each seat's last state: a pass with a pung, a chow
    for k, (actor, name, _, _) in enumerate(actions):
        if k:
            last = _apply(hands, actions[k - 1][3], last)
        tile = actions[max(k - 1, 0)][2]
        before = actions[k - 1][0] if k else 0
        if name in ("Chi", "Peng", "Gang"):
            published -= passed[actor][0]
            chow_chances -= passed[actor][1]
        for s in range(4):
            pung = s != actor and bool(hands[s, tile] >= 2)
            looked = s == (before - 1) or (s == 0 and before == 3)
            chow = s != actor and looked and tile < 27 and _can_chow(hands[s], tile)
            passed[s] = (pung, chow)
            published += pung
            chow_chances += chow
        published += name == "Peng"
        chow_chances += name == "Chi"
    return pungs, pairs, published, chows, chow_chances


def _games(n: int, seed: int, policy: str):
    from mjstats.games import play_games

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
    n = pungs = pairs = published = chows = chow_chances = unreadable = 0
    for wall, rows in source:
        try:
            p, c, q, h, hc = count_game(wall, rows)
        except Unreadable:  # the publisher's parser reads no such game either
            unreadable += 1
            continue
        n, pungs, pairs, published = n + 1, pungs + p, pairs + c, published + q
        chows, chow_chances = chows + h, chow_chances + hc
    what = args.records or f"{args.policy}, {args.games:,} games, seed {args.seed}"
    skipped = f", {unreadable} unreadable to the publisher's parser left out" if unreadable else ""
    print(f"{what}: {pungs:,} pungs in {n:,} games ({pungs / n:.2f} a game{skipped})")
    print(f"  chances, another seat holding a pair: {pairs:,} ({pairs / n:.2f} a game), "
          f"taken {pungs / pairs:.1%}")  # fmt: skip
    print(f"  chances as the publisher counts them: {published:,} ({published / n:.2f} a game), "
          f"taken {pungs / published:.1%} (published: 49.05 %, 3.68 a game)")  # fmt: skip
    print(f"{chows:,} chows ({chows / n:.2f} a game); chances as the publisher counts them: "
          f"{chow_chances:,} ({chow_chances / n:.2f} a game), taken {chows / chow_chances:.1%} "
          f"(published: 29.5 %, 8.02 a game)")  # fmt: skip


if __name__ == "__main__":
    main()
