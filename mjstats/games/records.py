"""Played games written in Botzone's text data-set format (as ``tests/data/botzone/sample.txt``).

Written by :func:`mjstats.games.play_games` (``records=``) and the games study
(``mjstats study games --records FILE``), a block of games at a time; read back by
:func:`mjstats.records.read_botzone` and :func:`mjstats.records.replay`. Game ``i`` of
seed ``s`` is the game ``Match mjstats-<s>-<i>``, so a file's bytes depend only on the
seed and the games, not on how they were split or on the threads.
"""

from __future__ import annotations

import os
from contextlib import contextmanager, nullcontext
from pathlib import Path

import numpy as np

from mjstats.games import kernels as G
from mjstats.rulesets.mcr.judge import JUDGE_NAMES
from mjstats.tiles import BOTZONE_CODES

__all__ = ["RecordsResumeError", "open_records", "resume_records", "write_records"]


class RecordsResumeError(ValueError):
    """A records file that does not hold the games a resumed study has done."""


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


@contextmanager
def open_records(target, append: bool = False):
    """``target`` (a path, or an open text file, left open) as a text file to write
    records to: created (or emptied), or appended to with ``append``. Lines end in
    ``\\n`` on every platform, so the bytes of a file do not depend on where it
    was written."""
    if hasattr(target, "write"):
        with nullcontext(target) as fh:
            yield fh
        return
    with open(os.fspath(target), "a" if append else "w", encoding="utf-8", newline="\n") as fh:
        yield fh


def write_records(target, fans, final, logs, rs, *, seed: int, first: int = 0) -> None:
    """Write played games as Botzone text records (``play_games`` outputs of games
    ``first ..``: fan counts, final states, move logs; one row a game).

    ``target`` is a path (created) or an open text file (written at its position).
    Match ids are ``mjstats-<seed>-<game number>``.

    Examples
    --------
    >>> import io
    >>> from mjstats.games import play_games
    >>> buf = io.StringIO()  # play_games writes through this function, a block at a time
    >>> _ = play_games(2, seed=1, wall="botzone", policy="random", records=buf)
    >>> lines = buf.getvalue().splitlines()
    >>> lines[0], lines[1], lines.count(""), lines[-2].split()[0]
    ('Match mjstats-1-0', 'Wind 0', 2, 'Score')
    """
    if logs.shape[0] and (final[:, G.S_NLOG] >= logs.shape[1]).any():
        raise ValueError("a game has more moves than the log holds (MAX_LOG)")
    names = _judge_names(rs)
    with open_records(target) as fh:
        for i in range(len(fans)):
            lines = _game_lines(f"mjstats-{seed}-{first + i}", final[i], logs[i], fans[i], names)
            fh.write("\n".join(lines) + "\n\n")


def resume_records(path, seed: int, games: int) -> None:
    """Make the records file at ``path`` hold exactly games ``0 .. games - 1`` of
    ``seed``, for a resumed study to append the rest.

    The file must start with those games, in order (``Match mjstats-<seed>-0``,
    ``-1`` ...), each ending in its ``Score`` line; what follows them (games
    played after the checkpoint was last saved, a game cut short by a crash) is
    cut off. Read as a stream: memory does not grow with the file.

    Raises
    ------
    RecordsResumeError
        No file (and ``games > 0``), another seed or order, fewer games, a game
        without its ``Score`` line.
    """
    path = Path(os.fspath(path))
    if games == 0:  # nothing kept: start the file afresh
        path.write_bytes(b"")
        return
    if not path.exists():
        raise RecordsResumeError(
            f"records {path}: no such file, but the checkpoint has played {games:,} games "
            f"(give the records file of the interrupted run)"
        )
    expected = 0  # games whose Match line has been read
    scored = True  # the current game's Score line has been read
    cut = 0  # just after the Score line of game games - 1
    with open(path, "rb") as fh:
        pos = 0
        for line in fh:
            if line.startswith(b"Match "):
                if not scored:
                    raise RecordsResumeError(
                        f"records {path}: game mjstats-{seed}-{expected - 1} has no 'Score' line"
                    )
                if expected == games:
                    break
                name = line[6:].strip().decode("utf-8", "replace")
                if name != f"mjstats-{seed}-{expected}":
                    raise RecordsResumeError(
                        f"records {path}: game {expected + 1} is {name!r}, not "
                        f"'mjstats-{seed}-{expected}' (not the records of this study)"
                    )
                expected += 1
                scored = False
            elif line.startswith(b"Score ") and line.endswith(b"\n"):
                scored = True
                if expected == games:
                    cut = pos + len(line)
            pos += len(line)
    if expected < games:
        raise RecordsResumeError(
            f"records {path}: holds {expected:,} games, the checkpoint has played "
            f"{games:,} (give the records file of the interrupted run)"
        )
    if not scored:
        raise RecordsResumeError(
            f"records {path}: game mjstats-{seed}-{games - 1} has no 'Score' line"
        )
    # cut after the last kept game; its blank separator line as the writer writes it
    with open(path, "r+b") as fh:
        fh.truncate(cut)
        fh.seek(cut)
        fh.write(b"\n")
