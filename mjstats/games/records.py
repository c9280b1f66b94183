"""Played games written in Botzone's text data-set format (as ``tests/data/botzone/sample.txt``).

Written by :func:`mjstats.games.play_games` (``records=``); read back by
:func:`mjstats.records.read_botzone` and :func:`mjstats.games.replay`.
"""

from __future__ import annotations

import os
from contextlib import nullcontext

import numpy as np

from mjstats.kernels import game as G
from mjstats.records.names import JUDGE_NAMES
from mjstats.tiles import BOTZONE_CODES

__all__ = ["write_records"]

_VERBS = {
    G.LOG_DRAW: "Draw",
    G.A_DISCARD: "Play",
    G.A_TSUMO: "Hu",
    G.A_ANGANG: "AnGang",
    G.A_BUGANG: "BuGang",
    G.A_HU: "Hu",
    G.A_KONG: "Gang",
    G.A_PUNG: "Peng",
    G.A_CHOW: "Chi",
}


def _judge_names(rs) -> list[str]:
    """The judge's name of each fan of ``rs`` (the first name the judge writes for it)."""
    by_key: dict[str, str] = {}
    for name, key in JUDGE_NAMES.items():
        by_key.setdefault(key, name)
    return [by_key.get(f.key, f.zh) for f in rs.fans]


def _game_lines(match: str, S: np.ndarray, log: np.ndarray, fans: np.ndarray, names) -> list[str]:
    lines = [f"Match {match}", f"Wind {int(S[G.S_ROUND])}"]
    for p in range(4):
        deal = [BOTZONE_CODES[S[G.S_WALL + 34 * p + 33 - k]] for k in range(13)]
        lines.append(f"Player {p} Deal {' '.join(deal)}")
    for seat, kind, tile, ignored in log[: S[G.S_NLOG]].tolist():
        text = f"Player {seat} {_VERBS[kind]} {BOTZONE_CODES[tile]}"
        if ignored:
            lines[-1] += " Ignore " + text
        else:
            lines.append(text)
    if S[G.S_WINNER] >= 0:
        parts = [f"{names[f]}*{int(c)}" for f, c in enumerate(fans) if c]
        lines.append(f"Fan {int(S[G.S_TOTAL])} {'+'.join(parts)}")
    else:
        lines.append("Huang")
    lines.append("Score " + " ".join(str(int(x)) for x in S[G.S_SCORE : G.S_SCORE + 4]))
    return lines


def write_records(target, games, fans, final, logs, rs, *, seed: int, first: int = 0) -> None:
    """Write played games (``play_games`` outputs) as Botzone text records.

    ``target`` is a path or an open text file. Match ids are
    ``mjstats-<seed>-<game number>``.
    """
    if logs.shape[0] and (final[:, G.S_NLOG] >= logs.shape[1]).any():
        raise ValueError("a game has more moves than the log holds (MAX_LOG)")
    names = _judge_names(rs)
    if hasattr(target, "write"):
        ctx = nullcontext(target)
    else:
        ctx = open(os.fspath(target), "w", encoding="utf-8")
    with ctx as fh:
        for i in range(len(games)):
            lines = _game_lines(f"mjstats-{seed}-{first + i}", final[i], logs[i], fans[i], names)
            fh.write("\n".join(lines) + "\n\n")
