"""Botzone records read into blocks of games, ready for the game engine to replay.

Both formats (the text data set, :mod:`mjstats.records.text_kernel`; JSON judge logs,
:mod:`mjstats.records.judge_logs`) become one :class:`GameBlock`: per game its wall,
round wind, the rows of the engine's game log with the line (or log entry) of each,
and how the record says the game ended (the ``Hu`` tile, the ``Fan`` total and fans,
the ``Score`` line). A game whose form is wrong is kept in the block with its
:class:`~mjstats.errors.RecordError`, so the caller counts it, raises it or skips it.
:func:`read_blocks` streams a file, a folder or a string of records in blocks of
bounded size.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import Any

import numba
import numpy as np

from mjstats.errors import RecordError
from mjstats.records import text_kernel as TK
from mjstats.records.judge_logs import iter_json, judge_game
from mjstats.records.sources import record_files
from mjstats.rulesets.mcr import FANS, RULESET
from mjstats.rulesets.mcr.judge import _ALIASES

__all__ = ["FAN_POINTS", "GameBlock", "read_blocks"]

# game status in a block
WIN = 0
DRAWN = 1
BAD = 2
ABORTED = 3

_CHUNK = 4 << 20  # bytes of text read at a time (memory: about a dozen times this)
JSON_BLOCK = 4096
"""Judge logs gathered into one block (text records come a chunk of bytes at a time)."""


def _fan_points() -> dict[str, int]:
    # the judge's names (the fan table's, and its spellings of the wait fans) ->
    # points in the MCR fan table (the reference profile's)
    names = {f.zh: f.key for f in FANS} | _ALIASES
    return {name: RULESET.fans[RULESET.fan_id(key)].points for name, key in names.items()}


FAN_POINTS: dict[str, int] = _fan_points()
"""Points of one occurrence of each MCR fan, by the Chinese names the judge uses."""


@dataclass(eq=False)
class GameBlock:
    """Games read from records, as the engine replays them (one entry per game).

    Per game: ``source``, ``match`` (id), ``game`` (its index in its source),
    ``json`` (locations are log entries, not lines), ``status`` (``WIN``, ``DRAWN``,
    ``BAD``, ``ABORTED``), ``error`` (the :class:`RecordError` of a bad one),
    ``walls`` int64 (n, 136), ``winds``, the log rows ``logs`` int64 (rows, 4) with
    ``where`` (line or entry of each row), game ``i``'s the ``n_log[i]`` rows from
    ``starts[i]``; the end: ``hu_tile`` and ``hu_where``, ``end_where`` (the
    ``Fan``/``Huang`` line or the judge's last entry), ``total``, ``fans`` and
    ``fan_points`` (as recorded), ``scores`` int64 (n, 4) and ``score_where``;
    ``players`` (bot names of the four seats, JSON logs only).
    """

    source: list = field(default_factory=list)
    match: list = field(default_factory=list)
    game: list = field(default_factory=list)
    json: list = field(default_factory=list)
    status: list = field(default_factory=list)
    error: list = field(default_factory=list)
    walls: Any = None
    winds: Any = None
    logs: Any = None
    where: Any = None
    starts: Any = None
    n_log: Any = None
    hu_tile: Any = None
    hu_where: Any = None
    end_where: Any = None
    total: Any = None
    fans: list = field(default_factory=list)
    fan_points: list = field(default_factory=list)
    scores: Any = None
    score_where: Any = None
    players: list = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.source)

    def fail(self, i: int, error: RecordError) -> None:
        """Mark game ``i`` bad, for ``error``."""
        self.status[i] = BAD
        self.error[i] = error


# ---------------------------------------------------------------- the text data set
_FAN_PARTS: dict[str, tuple[tuple[str, int], int]] = {}


def _fan_part(part: str) -> tuple[tuple[str, int], int] | None:
    name, star, count = part.rpartition("*")
    if not star or not name.strip() or not count.isdigit():
        return None
    name = name.strip()
    hit = ((name, int(count)), FAN_POINTS.get(name, 0))
    if len(_FAN_PARTS) < 100_000:  # shared objects keep the recorded table small
        _FAN_PARTS[part] = hit
    return hit


def parse_fans(desc: str):
    """``"混一色*1+箭刻*1"`` -> ``((("混一色", 1), ("箭刻", 1)), (6, 2))``; None if malformed.

    Examples
    --------
    >>> parse_fans("混一色*1+箭刻*1")
    ((('混一色', 1), ('箭刻', 1)), (6, 2))
    >>> parse_fans("混一色1") is None
    True
    """
    if not desc or desc.isspace():
        return (), ()
    parts = desc.split("+")
    try:
        hits = [_FAN_PARTS[part] for part in parts]
    except KeyError:
        hits = [_fan_part(part) for part in parts]
        if None in hits:
            return None
    fans, points = zip(*hits, strict=True)
    return fans, points


_BOM = b"\xef\xbb\xbf"


def _text_chunks(stream, chunk_size: int) -> Iterator[memoryview]:
    """Yield chunks of ``stream`` (memoryviews of bytes) that hold whole games only.

    Binary streams are read with ``readinto`` straight after the carried-over start
    of the last game, so each byte is copied once.
    """
    rest = b""
    first = True
    readinto = getattr(stream, "readinto", None)
    while True:
        if readinto is not None:
            buf = bytearray(len(rest) + chunk_size)
            buf[: len(rest)] = rest
            got = readinto(memoryview(buf)[len(rest) :]) or 0
            n = len(rest) + got
        else:
            data = stream.read(chunk_size)
            if isinstance(data, str):
                data = data.encode("utf-8")
            got = len(data)
            buf = rest + data if rest else data
            n = len(buf)
        start = 0
        if first and buf[:3] == _BOM:
            start = 3  # a UTF-8 byte order mark
        first = False
        if got == 0:
            if n > start:
                yield memoryview(buf)[start:n]
            return
        cut = buf.rfind(b"\nMatch ", start, n)
        if cut < 0:
            rest = bytes(buf[start:n])
            continue
        yield memoryview(buf)[start : cut + 1]
        rest = bytes(buf[cut + 1 : n])


def _scan(buf: np.ndarray, chunk, stop_on_error: bool):
    """Run the text kernel on one chunk, with tables grown until they are large enough."""
    cap = len(chunk) // 1024 + 16  # games average ~2 KB
    rows = len(chunk) // 15 + 64  # a log row takes 15 bytes of text or more
    while True:
        g_info = np.zeros((cap, TK.N_G), np.int64)
        walls = np.zeros((cap, 136), np.int64)
        logs = np.zeros((rows, 4), np.int64)
        lines = np.zeros(rows, np.int64)
        n_games, n_rows, n_lines, overflow = TK.scan_text(
            buf, stop_on_error, g_info, walls, logs, lines
        )
        if not overflow:  # copies, so that the tables' spare rows are freed
            return (g_info[:n_games].copy(), walls[:n_games].copy(), logs[:n_rows].copy(),
                    lines[:n_rows].copy(), n_lines)  # fmt: skip
        cap = bytes(chunk).count(b"Match ") + 1
        rows = max(rows, n_rows) * 2


def _text_block(chunk, scanned, source: str, line_base: int, game_base: int):
    g_info, walls, logs, lines, n_lines = scanned
    n = len(g_info)
    b = GameBlock()
    mstart = g_info[:, TK.G_MSTART]
    mend = g_info[:, TK.G_MEND]
    b.match = [str(chunk[a:e], "utf-8", "replace").strip() or None
               for a, e in zip(mstart.tolist(), mend.tolist(), strict=True)]  # fmt: skip
    b.source = [source] * n
    b.game = list(range(game_base, game_base + n))
    b.json = [False] * n
    code = g_info[:, TK.G_STATUS]
    b.status = np.where(code == TK.G_WIN, WIN, np.where(code == TK.G_DRAWN, DRAWN, BAD)).tolist()
    b.error = [None] * n
    b.walls, b.winds = walls, g_info[:, TK.G_WIND]
    b.logs, b.where = logs, (lines + line_base).astype(np.int32)
    b.starts, b.n_log = g_info[:, TK.G_LOG], g_info[:, TK.G_NLOG]
    b.hu_tile = g_info[:, TK.G_HU_TILE]
    b.hu_where = g_info[:, TK.G_HU_LINE] + line_base
    b.end_where = g_info[:, TK.G_END_LINE] + line_base
    b.total = g_info[:, TK.G_TOTAL]
    b.scores = g_info[:, TK.G_SCORE : TK.G_SCORE + 4]
    b.score_where = g_info[:, TK.G_SCORE_LINE] + line_base
    b.players = [()] * n
    b.fans, b.fan_points = [()] * n, [()] * n
    seen: dict[bytes, Any] = {}
    for i in range(n):
        if b.status[i] == BAD:
            line = line_base + int(g_info[i, TK.G_ERR_LINE])
            b.error[i] = RecordError(TK.ERRORS[g_info[i, TK.G_ERR]], source, line, b.match[i])
        elif b.status[i] == WIN:
            desc = bytes(chunk[g_info[i, TK.G_FSTART] : g_info[i, TK.G_FEND]])
            parsed = seen.get(desc)
            if parsed is None:
                parsed = seen[desc] = parse_fans(desc.decode("utf-8", "replace"))
            if parsed is None:
                b.fail(i, RecordError(TK.ERRORS[TK.E_FAN], source, int(b.end_where[i]),
                                      b.match[i]))  # fmt: skip
            else:
                b.fans[i], b.fan_points[i] = parsed
    return b, line_base + n_lines, game_base + n


def _pieces(chunk, k: int) -> list:
    """``chunk`` cut into up to ``k`` pieces of whole games (at ``Match`` lines)."""
    n = len(chunk)
    cuts = [0]
    for j in range(1, k):
        at = max(n * j // k, cuts[-1])
        window = bytes(chunk[at : at + (64 << 10)])  # games take a few KB
        found = window.find(b"\nMatch ")
        if found >= 0:
            cuts.append(at + found + 1)
    cuts.append(n)
    return [chunk[a:b] for a, b in pairwise(cuts) if b > a]


def _scan_piece(piece, stop_on_error: bool):
    buf = np.frombuffer(piece, np.uint8)
    buf.flags.writeable = False  # one compiled kernel for bytes and bytearrays
    return _scan(buf, piece, stop_on_error)


def _text_blocks(stream, source: str, chunk_size: int, stop_on_error: bool):
    """Blocks of a text data set: each chunk is cut into one piece a thread, scanned side
    by side (the kernel releases the GIL), each piece a block, in the file's order."""
    threads = max(1, numba.get_num_threads())
    line_base = game_base = 0
    with ThreadPoolExecutor(threads) as pool:
        for chunk in _text_chunks(stream, chunk_size):
            pieces = _pieces(chunk, threads) if len(chunk) > (256 << 10) else [chunk]
            scans = list(pool.map(lambda piece: _scan_piece(piece, stop_on_error), pieces))
            for piece, scanned in zip(pieces, scans, strict=True):
                block, line_base, game_base = _text_block(piece, scanned, source, line_base,
                                                          game_base)  # fmt: skip
                yield block
                del block  # before the next chunk is read: one block in memory at a time
            del scans, pieces


# ---------------------------------------------------------------- JSON judge logs
def _json_blocks(path: Path, lines: bool | None, block: int):
    """Blocks of the judge logs of one file."""
    source = str(path)
    games = []
    for index, obj in enumerate(iter_json(path, source, lines)):
        if isinstance(obj, RecordError):  # unreadable JSON
            games.append((index, obj))
        else:
            try:
                games.append((index, judge_game(obj, source)))
            except RecordError as err:
                games.append((index, err))
        if len(games) == block:
            yield _pack_json(games, source)
            games = []
    if games:
        yield _pack_json(games, source)


def _pack_json(games: list, source: str) -> GameBlock:
    n = len(games)
    b = GameBlock()
    b.walls = np.zeros((n, 136), np.int64)
    b.winds = np.zeros(n, np.int64)
    b.hu_tile = np.full(n, -1, np.int64)
    b.hu_where, b.end_where, b.score_where = (np.zeros(n, np.int64) for _ in range(3))
    b.total = np.zeros(n, np.int64)
    b.scores = np.zeros((n, 4), np.int64)
    b.starts = np.zeros(n, np.int64)
    b.n_log = np.zeros(n, np.int64)
    rows, where = [], []
    status = {"win": WIN, "drawn": DRAWN, "aborted": ABORTED}
    for i, (index, g) in enumerate(games):
        b.source.append(source)
        b.game.append(index)
        b.json.append(True)
        if isinstance(g, RecordError):
            b.match.append(g.match_id)
            b.status.append(BAD)
            b.error.append(g)
            b.fans.append(())
            b.fan_points.append(())
            b.players.append(())
            continue
        b.match.append(g.match_id)
        b.status.append(status[g.result])
        b.error.append(None)
        b.fans.append(g.fans)
        pairs = zip(g.fans, g.fan_points, strict=True)
        b.fan_points.append(tuple(v or FAN_POINTS.get(name, 0) for (name, _), v in pairs))
        b.players.append(g.players)
        if g.result == "aborted":
            continue
        b.walls[i] = g.wall
        b.winds[i] = g.round_wind
        b.starts[i] = len(rows)
        b.n_log[i] = len(g.rows)
        rows.extend(g.rows)
        where.extend(g.where)
        b.hu_tile[i] = g.hu_tile
        b.hu_where[i] = b.end_where[i] = b.score_where[i] = g.end
        b.total[i] = g.total
        if g.scores is not None:
            b.scores[i] = g.scores
        else:  # no score in the log: nothing to check it against
            b.score_where[i] = -1
    b.logs = np.array(rows, np.int64).reshape(-1, 4)
    b.where = np.array(where, np.int64)
    return b


# ---------------------------------------------------------------- sources
def read_blocks(source, *, stop_on_error: bool = False, chunk_size: int = _CHUNK,
                json_block: int = JSON_BLOCK) -> Iterator[GameBlock]:  # fmt: skip
    """The games of Botzone records as :class:`GameBlock` s, a chunk or a file at a time.

    ``source``: a path (text data set, ``.json``/``.jsonl`` judge logs, a folder of
    them: :func:`mjstats.records.sources.record_files`), an open file of the text
    data set, or a ``str``/``bytes`` holding the text data set itself (with a
    newline). ``stop_on_error``: a text chunk stops at its first bad game (the
    caller raises it).

    Raises
    ------
    FileNotFoundError
        ``source`` names no file or folder.
    RecordError
        A folder without records.

    Examples
    --------
    >>> from mjstats.records.check import _DEMO_GAME
    >>> block = next(read_blocks(_DEMO_GAME))
    >>> len(block), block.match, int(block.total[0]), block.fans[0][0]
    (1, ['demo'], 20, ('清龙', 1))
    """
    if isinstance(source, (bytes, bytearray)):
        yield from _text_blocks(io.BytesIO(bytes(source)), "<text>", chunk_size, stop_on_error)
    elif isinstance(source, str) and "\n" in source:
        yield from _text_blocks(io.BytesIO(source.encode("utf-8")), "<text>", chunk_size,
                                stop_on_error)  # fmt: skip
    elif hasattr(source, "read"):
        name = str(getattr(source, "name", "<stream>"))
        yield from _text_blocks(source, name, chunk_size, stop_on_error)
    else:
        for path, fmt in record_files(source):  # a folder: every record file in it
            if fmt == "text":
                with open(path, "rb") as fh:
                    yield from _text_blocks(fh, str(path), chunk_size, stop_on_error)
            else:
                yield from _json_blocks(path, fmt == "jsonl", json_block)
