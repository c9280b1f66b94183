"""Claim chances counted as the real-play data set's publisher counts them, in plain Python.

The reference's pung rate (49.05 % of 361,008 chances, 3.68 a game) comes from the
parser of the public repository ZhijieXiong/ai4mahjiong (``pymj/botzone/GameData.py``,
``get_state_action_sequence``), not from the engine's legal chances. That parser reads a
game as one action per turn (draw and discard, claim and discard, kong and replacement
and discard, or the win) and, at each action, gives a pung chance to every seat but the
actor holding two copies of the tile the action before discarded (the discarder
included, its hand after the discard; at the first action, the first discard itself, so
that discard is read twice); the actor has one only when it pungs; and when the actor
claims, it drops the actor's state of the action before (a pass on the discard before
the one claimed). The last discard of a drawn game is never read. It gives an exposed
kong chance the same way to the seats holding three copies; a promoted or a concealed
kong chance to the actor, unless it chows or pungs, whose hand before the action (its
draw not in it) holds the fourth tile of one of its pungs or four of a kind; and a
chance of each claim to the actor making it. This script counts the same in seeded games
of a built-in policy on the Botzone wall, or in a set of real records, beside the count
of every other seat holding a pair after each discard (the engine's chances but for
claims that a win takes first). It is the plain version of the numba kernel
``mjstats.games.dataset_count``, which puts the count in every games study on the
Botzone wall and in ``mjstats report --table reference``; the tests hold the two equal
game for game. On the 16 games of ``tests/data/botzone/sample.txt`` and on the 19,977 of
20,000 planner games (seed 11) that the publisher's code reads correctly, both give game
for game that code's chances and claims of the five kinds, run on the same text records
(a check made outside the repository, 2026-12-07: that code is not ours to ship; the
test holds the figures of ``sample.txt``).

Usage::

    PYTHONPATH=. python benchmarks/publisher_claim_count.py --games 20000 --seed 11
    PYTHONPATH=. python benchmarks/publisher_claim_count.py --records tests/data/botzone
    mjstats study games --n 100000 --seed 5 --policy planner --wall botzone --out r --records r.txt
    PYTHONPATH=. python benchmarks/publisher_claim_count.py --records r.txt
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


KINDS = ("chow", "pung", "kong", "promoted_kong", "concealed_kong")
"""The kinds of claim counted, as the parser's flags ``can_chi``, ``can_peng``,
``can_gang``, ``can_bu_gang``, ``can_an_gang`` and its actions."""
_MADE = {"Chi": 0, "Peng": 1, "Gang": 2, "BuGang": 3, "AnGang": 4}


def count_game(wall, rows) -> tuple[int, dict[str, int], list[dict[str, int]]]:
    """``(pair chances, counts, by seat)`` of one game: ``wall`` its 136 tiles (Botzone
    layout, dealt by the engine's own ``new_game``), ``rows`` its move log without the
    ignored claims. ``counts`` maps ``{kind}_chances`` and ``{kind}s`` (for each of
    :data:`KINDS`) to the publisher's count, ``by seat`` the same for each seat (the seat
    that has the chance or makes the claim); pair chances are the engine's (every
    other seat holding a pair after a discard, but the one that wins on it). Raises
    :class:`Unreadable` for a game the publisher's parser cannot read."""
    from mjstats.games.rules import new_game

    S = np.zeros(ST.N_STATE, np.int64)
    new_game(S, np.asarray(wall, np.int64), ST.WALL_BOTZONE, 0)
    dealt = S[ST.S_HAND : ST.S_HAND + 4 * 34].reshape(4, 34)

    hands, pairs, last = dealt.copy(), 0, -1
    for k, row in enumerate(rows):
        last = _apply(hands, [row], last)
        if row[1] == ST.A_DISCARD:
            won = k + 1 < len(rows) and rows[k + 1][1] == ST.A_HU
            winner = rows[k + 1][0] if won else -1
            pairs += sum(1 for s in range(4) if s not in (row[0], winner) and hands[s, row[2]] >= 2)

    # the publisher's: at each action, every seat but the actor holding two (a pung) or
    # three (a kong) of the tile the action before discarded (the first action's own
    # discard at step 0); its chow chances, found the same way, go to the seat *before*
    # the discarder (and to seat 0 on seat 3's discards). The actor has the claim it
    # makes, and, unless it chows or pungs, a concealed or promoted kong when its hand
    # before the action (its draw not in it) holds four of a kind or the fourth tile of
    # one of its pungs. A claimer's state of the step before is dropped.
    actions = _actions(rows)
    if actions[0][2] < 0:  # a win on the first draw: the parser has no discard to read
        raise Unreadable("the first action is a win")
    hands, last = dealt.copy(), -1
    chances, taken = [[0] * 5 for _ in range(4)], [[0] * 5 for _ in range(4)]  # by seat
    passed = [(0, 0, 0)] * 4  # each seat's last state: a pass with a chow, pung, kong
    pungs: list[set[int]] = [set() for _ in range(4)]  # each seat's pungs not promoted
    for k, (actor, name, _, _) in enumerate(actions):
        if k:
            seat, before, _, done = actions[k - 1]
            last = _apply(hands, done, last)
            if before == "Peng":
                pungs[seat].add(done[0][2])
            elif before == "BuGang":
                pungs[seat].discard(done[1][2])
        tile = actions[max(k - 1, 0)][2]
        before = actions[k - 1][0] if k else 0
        if name in ("Chi", "Peng", "Gang"):
            for j in range(3):
                chances[actor][j] -= passed[actor][j]
        for s in range(4):
            looked = s == (before - 1) or (s == 0 and before == 3)
            passed[s] = (0, 0, 0) if s == actor else (
                int(looked and tile < 27 and _can_chow(hands[s], tile)),
                int(hands[s, tile] >= 2),
                int(hands[s, tile] >= 3),
            )  # fmt: skip
            for j in range(3):
                chances[s][j] += passed[s][j]
        made = _MADE.get(name, -1)
        promoted, concealed = made == 3, made == 4
        if name not in ("Chi", "Peng"):
            concealed |= bool((hands[actor] >= 4).any())
            promoted |= any(hands[actor, t] >= 1 for t in pungs[actor])
        if 0 <= made < 3:
            chances[actor][made] += 1
        chances[actor][3] += promoted
        chances[actor][4] += concealed
        if made >= 0:
            taken[actor][made] += 1
    by_seat = [{} for _ in range(4)]
    for s in range(4):
        for j, kind in enumerate(KINDS):
            by_seat[s][f"{kind}_chances"], by_seat[s][f"{kind}s"] = chances[s][j], taken[s][j]
    counts = {k: sum(seat[k] for seat in by_seat) for k in by_seat[0]}
    return pairs, counts, by_seat


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
    n = pairs = unreadable = 0
    total: dict[str, int] = {}
    for wall, rows in source:
        try:
            c, counts, _ = count_game(wall, rows)
        except Unreadable:  # the publisher's parser reads no such game either
            unreadable += 1
            continue
        n, pairs = n + 1, pairs + c
        total = {k: total.get(k, 0) + v for k, v in counts.items()}
    what = args.records or f"{args.policy}, {args.games:,} games, seed {args.seed}"
    skipped = f", {unreadable} unreadable to the publisher's parser left out" if unreadable else ""
    pungs = total["pungs"]
    print(f"{what}: {pungs:,} pungs in {n:,} games ({pungs / n:.2f} a game{skipped})")
    print(f"  chances, another seat holding a pair: {pairs:,} ({pairs / n:.2f} a game), "
          f"taken {pungs / pairs:.1%}")  # fmt: skip
    print("chances as the publisher counts them (published: chow 29.5 % of 8.02 a game, "
          "pung 49.05 % of 3.68):")  # fmt: skip
    for kind in KINDS:
        c, t = total[f"{kind}_chances"], total[f"{kind}s"]
        print(f"  {kind:<15}{c:>10,} ({c / n:.2f} a game), taken {t:,}: {t / max(c, 1):.1%}")


if __name__ == "__main__":
    main()
