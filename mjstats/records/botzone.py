"""Reader of Botzone Chinese Standard Mahjong game records.

Two formats are read, both produced by Botzone's *Chinese-Standard-Mahjong* judge
(MCR rules scored by the reference fan calculator, 136 tiles, no flowers):

**The text data set** (``data.txt``, 98,209 games; ``sample.txt`` holds the first
16). One game::

    Match 61602cb45ddc087351c04358        # botzone.org.cn/match/<id>
    Wind 1                                # round wind 0-3 = East South West North
    Player 0 Deal T8 B7 T1 ...            # 13 tiles for each player 0-3
    Player 0 Draw J3
    Player 0 Play T6
    Player 2 Chi T5                       # middle tile of the chow
    Player 0 Peng W9 Ignore Player 3 Chi W8
    Player 3 Gang F2 | AnGang W7 | BuGang W9
    Player 1 Hu B7
    Fan 9 混一色*1+箭刻*1+老少副*1          # recorded total, then name*count
    Score -17 -17 51 -17                  # (a drawn game: "Huang", then "Score")

Known quirks, handled here: the README's wind order is wrong (0-3 are East,
South, West, North, both for the round and the seats, player 0 being East); a
self-drawn ``Hu`` line repeats the previous *discard*, the real winning tile is the
player's preceding ``Draw``; the ``Fan`` line gives counts but not values; the
judge knows the non-standard fan 明暗杠 (5).

**JSON judge logs** (one match per file, e.g. ``<match id>_lite.json``): the
``initdata`` holds the wall (``walltiles``, 136 codes, four segments of 34, one per
player) and the round wind (``quan``); ``logs`` alternates judge outputs (whose
``display`` says what happened: ``DEAL``, ``DRAW``, ``PLAY``, ``CHI``, ``PENG``,
``GANG``, ``BUGANG``, ``HU`` with the fan list, ``HUANG``) and the four bots'
responses.

Every game is replayed through the game engine, the rules of simulated games
(:mod:`mjstats.records.replay`: each move legal, the claims' priority, the end and the
``Score`` line as recorded), and every win is reconstructed from the engine's final
state into a :class:`~mjstats.HandBatch` row. The text data set is read by a numba
kernel and replayed in parallel, tens of thousands of games a second with bounded
memory. The context flags are the engine's:

* each player draws from their own wall segment (21 tiles after the deal), kong
  replacements included; the game is drawn when the player due to draw has none
  left, so a tile is the *last of the wall* (妙手回春 / 海底捞月) when, after the
  draw or discard, the *next* player's segment is empty;
* *和绝张* (``last_of_kind``): the three other copies of the winning tile are
  visible on the table: unclaimed discards and the tiles of exposed melds (chow,
  pung, exposed and promoted kongs); never with 抢杠和, which excludes it;
* ``kong_win``: self-drawn replacement tile after the winner's own kong
  (杠上开花), or a discard win on another player's promoted kong (抢杠和).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from mjstats.batch import HandBatch
from mjstats.errors import RecordError
from mjstats.games import kernels as G
from mjstats.records.reader import _CHUNK, ABORTED, BAD, DRAWN, FAN_POINTS, WIN
from mjstats.records.replay import Replayed, replay_blocks
from mjstats.tiles import BOTZONE_CODES

__all__ = ["FAN_POINTS", "RecordError", "RecordSet", "read_botzone"]

WIN_TYPES = ("discard", "self_drawn", "robbed_kong")
"""``recorded.win_type`` values, indexed by the engine's win kind (``WIN_*``)."""


@dataclass(frozen=True, eq=False)
class RecordSet:
    """The wins reconstructed from Botzone records, with what the judge recorded.

    Row ``i`` of :attr:`batch` and row ``i`` of :attr:`recorded` describe the same
    win.

    Attributes
    ----------
    batch : HandBatch
        The winning hands: concealed tiles including the winning tile, melds
        (chow = lowest tile; a promoted kong is an exposed kong), winning tile,
        ``self_drawn``, ``last_of_kind`` (和绝张), ``kong_win`` (杠上开花 /
        抢杠和), ``last_of_wall`` (妙手回春 / 海底捞月), ``seat_wind`` (= the
        Botzone player number), ``round_wind``, ``flowers`` (always 0: Botzone's
        MCR game has no flowers), ``situation`` 0.
    recorded : pandas.DataFrame
        One row per win: ``source`` (file name), ``match_id``, ``game`` (0-based
        index of the game in its source), ``line`` (line of the ``Hu`` line in the
        text data set; index of the judge's ``HU`` entry in a JSON log's ``logs``),
        ``seat`` (winner, 0-3), ``win_type`` (``"discard"``, ``"self_drawn"``,
        ``"robbed_kong"``), ``from_seat`` (discarder or konger, -1 if self-drawn),
        ``win_tile`` (Botzone code), ``total`` (the judge's fan total), ``fans``
        (tuple of ``(name, count)`` as recorded) and ``fan_points`` (tuple of the
        points of one occurrence of each, from the JSON log or :data:`FAN_POINTS`;
        0 for an unknown name).
    games : int
        Games read (including bad ones).
    wins, drawn, aborted, bad : int
        Games that ended in a win, in a draw (荒庄), were aborted by the judge
        (a bot error, JSON logs only), or were malformed and skipped
        (``skip_bad=True``).
    errors : tuple of str
        The messages of the skipped games (the first 1,000).

    Examples
    --------
    >>> from mjstats.records import read_botzone
    >>> deals = ["W1 W2 W3 W4 W5 W6 W7 W8 B1 B1 B2 B3 B4",
    ...          "T1 T2 T3 T4 T5 T6 T7 T8 B7 B8 B9 F1 F1",
    ...          "F2 F2 F2 F3 F3 F3 F4 F4 F4 J1 J1 J1 J2",
    ...          "J2 J2 J3 J3 J3 B5 B5 B5 B6 B6 B6 T7 T7"]
    >>> lines = ["Match demo", "Wind 0"]
    >>> lines += [f"Player {p} Deal {tiles}" for p, tiles in enumerate(deals)]
    >>> lines += ["Player 0 Draw T9", "Player 0 Play T9", "Player 1 Hu T9",
    ...           "Fan 20 清龙*1+门前清*1+喜相逢*1+缺一门*1", "Score -28 44 -8 -8"]
    >>> records = read_botzone("\\n".join(lines) + "\\n")
    >>> len(records), records.games, records.bad
    (1, 1, 0)
    >>> from mjstats.tiles import format_tiles
    >>> format_tiles(records.batch.concealed[0])
    '789p123456789s11z'
    >>> bool(records.batch.self_drawn[0]), records.recorded.total[0]
    (False, np.int64(20))
    """

    batch: HandBatch
    recorded: pd.DataFrame
    games: int
    wins: int
    drawn: int
    aborted: int
    bad: int
    errors: tuple[str, ...] = field(default=())

    def __len__(self) -> int:
        return self.wins

    def __repr__(self) -> str:
        return (
            f"RecordSet(games={self.games}, wins={self.wins}, drawn={self.drawn}, "
            f"aborted={self.aborted}, bad={self.bad})"
        )


# ---------------------------------------------------------------------------
# collecting results


_MAX_ERRORS = 1000
_COLUMNS = ("source", "match_id", "game", "line", "seat", "win_type", "from_seat", "win_tile",
            "total", "fans", "fan_points")  # fmt: skip
_INT_COLUMNS = {"game", "line", "seat", "from_seat", "total"}
_OBJECT_COLUMNS = {"fans", "fan_points"}
_WIN_TYPE_NAMES = np.array(WIN_TYPES, dtype=object)
_CODES = np.array(BOTZONE_CODES, dtype=object)


def _win_fields(S: np.ndarray) -> dict[str, np.ndarray]:
    """The :class:`~mjstats.HandBatch` fields of the wins whose final states are ``S``."""
    n = len(S)
    w = S[:, G.S_WINNER]
    rows = np.arange(n)
    hand = G.S_HAND + 34 * w[:, None] + np.arange(34)
    melds = G.S_MELD + 12 * w[:, None, None] + 3 * np.arange(4)[:, None] + np.arange(2)
    return {
        "concealed": S[rows[:, None], hand].astype(np.uint8),
        "melds": S[rows[:, None, None], melds].astype(np.uint8),
        "win_tile": S[:, G.S_WIN_TILE].astype(np.uint8),
        "self_drawn": S[:, G.S_WIN_KIND] == G.WIN_SELF_DRAWN,
        "last_of_kind": S[:, G.S_LAST_KIND] == 1,
        "kong_win": S[:, G.S_KONG_WIN] == 1,
        "last_of_wall": S[:, G.S_LAST_WALL] == 1,
        "seat_wind": w.astype(np.uint8),  # Botzone player p has seat wind p
        "round_wind": S[:, G.S_ROUND].astype(np.uint8),
        "flowers": np.zeros(n, np.uint8),  # Botzone's MCR game has no flowers
        "situation": np.zeros(n, np.uint8),
    }


class _Collector:
    """Accumulates the wins of replayed blocks until the end of the read."""

    def __init__(self, skip_bad: bool):
        self.skip_bad = skip_bad
        self.fields: list[dict[str, np.ndarray]] = []
        self.rows: dict[str, list] = {k: [] for k in _COLUMNS}
        self.games = self.wins = self.drawn = self.aborted = self.bad = 0
        self.errors: list[str] = []

    def add(self, r: Replayed) -> None:
        b = r.block
        self.games += len(b)
        for i, status in enumerate(b.status):
            if status == BAD:
                if not self.skip_bad:
                    raise b.error[i]
                self.bad += 1
                if len(self.errors) < _MAX_ERRORS:
                    self.errors.append(str(b.error[i]))
        status = np.asarray(b.status)
        self.drawn += int(np.count_nonzero(status == DRAWN))
        self.aborted += int(np.count_nonzero(status == ABORTED))
        won = np.flatnonzero(status == WIN)
        if not len(won):
            return
        S = r.final[won]
        self.fields.append(_win_fields(S))  # a few bytes a win, not the whole state
        rows = self.rows
        rows["source"].extend(b.source[i] for i in won)
        rows["match_id"].extend(b.match[i] for i in won)
        rows["game"].append(np.asarray(b.game, np.int64)[won])
        rows["line"].append(b.hu_where[won])
        rows["seat"].append(S[:, G.S_WINNER])
        rows["win_type"].extend(_WIN_TYPE_NAMES[S[:, G.S_WIN_KIND]])
        rows["from_seat"].append(S[:, G.S_FROM])
        rows["win_tile"].extend(_CODES[S[:, G.S_WIN_TILE]])
        rows["total"].append(b.total[won])
        rows["fans"].extend(b.fans[i] for i in won)
        rows["fan_points"].extend(b.fan_points[i] for i in won)
        self.wins += len(won)

    def result(self) -> RecordSet:
        n = self.wins
        parts = self.fields or [_win_fields(np.zeros((0, G.N_STATE), np.int64))]
        fields = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
        columns: dict[str, Any] = {}
        for k, pieces in self.rows.items():
            if k in _INT_COLUMNS:
                columns[k] = np.concatenate(
                    [np.asarray(v, np.int64) for v in pieces] or [np.zeros(0, np.int64)]
                )
            else:
                columns[k] = pd.Series(pieces, dtype=object) if k in _OBJECT_COLUMNS else pieces
        return RecordSet(
            batch=HandBatch(**fields),
            recorded=pd.DataFrame(columns),
            games=self.games,
            wins=n,
            drawn=self.drawn,
            aborted=self.aborted,
            bad=self.bad,
            errors=tuple(self.errors),
        )


# ---------------------------------------------------------------------------
# public entry point


def read_botzone(source, *, skip_bad: bool = False, chunk_size: int = _CHUNK) -> RecordSet:
    """Read Botzone Chinese Standard Mahjong records and reconstruct every win.

    Parameters
    ----------
    source : str, os.PathLike or file-like
        * a path to a text data set file (``data.txt``, ``sample.txt``), read in
          one streaming pass with bounded memory;
        * a path to a JSON judge log (``.json``: one log or a list of logs;
          ``.jsonl``: one log per line);
        * a path to a directory: every record file in it, subfolders included,
          each file's format told by its content (see
          :func:`mjstats.records.sources.record_files`; a folder without records
          is a :class:`RecordError`);
        * an open file (text or binary) of the text data set;
        * a ``str`` containing a newline: the text data set itself.
    skip_bad : bool, default False
        If False, the first malformed, truncated or inconsistent game raises
        :class:`RecordError` naming the file and the line (or log entry). If True,
        such games are skipped and counted in :attr:`RecordSet.bad`, with their
        messages in :attr:`RecordSet.errors`.
    chunk_size : int, default 4 MiB
        Bytes read at a time from a text data set (memory use is about a dozen
        times this: each game's wall, moves and replayed state).

    Returns
    -------
    RecordSet
        ``.batch`` (a :class:`~mjstats.HandBatch`, one row per win) and
        ``.recorded`` (a DataFrame, the same rows: match id, seat, win type,
        the judge's total and fans), plus the counts ``games``, ``wins``,
        ``drawn``, ``aborted``, ``bad``.

    Raises
    ------
    RecordError
        A malformed record (unless ``skip_bad``); a :class:`ValueError`.
    FileNotFoundError
        ``source`` names no file or directory.

    Notes
    -----
    Players 0-3 sit at the seat winds East, South, West, North (player 0 is the
    dealer) and ``Wind`` / ``quan`` 0-3 is the round wind in the same order,
    whatever the data set's README says. See the module documentation for how
    the context flags are derived.

    Examples
    --------
    A short game: player 0 draws and discards 9s (``T9``), player 1 (South) wins
    on it with 清龙 (pure straight) and three small fans, 20 in all.

    >>> from mjstats.records import read_botzone
    >>> text = '''Match demo
    ... Wind 1
    ... Player 0 Deal W1 W2 W3 W4 W5 W6 W7 W8 B1 B1 B2 B3 B4
    ... Player 1 Deal T1 T2 T3 T4 T5 T6 T7 T8 B7 B8 B9 F1 F1
    ... Player 2 Deal F2 F2 F2 F3 F3 F3 F4 F4 F4 J1 J1 J1 J2
    ... Player 3 Deal J2 J2 J3 J3 J3 B5 B5 B5 B6 B6 B6 T7 T7
    ... Player 0 Draw T9
    ... Player 0 Play T9
    ... Player 1 Hu T9
    ... Fan 20 清龙*1+门前清*1+喜相逢*1+缺一门*1
    ... Score -28 44 -8 -8
    ... '''
    >>> records = read_botzone(text)
    >>> records
    RecordSet(games=1, wins=1, drawn=0, aborted=0, bad=0)
    >>> records.recorded[["seat", "win_type", "from_seat", "win_tile", "total"]]
       seat win_type  from_seat win_tile  total
    0     1  discard          0       T9     20
    >>> records.recorded.fans[0]
    (('清龙', 1), ('门前清', 1), ('喜相逢', 1), ('缺一门', 1))
    >>> int(records.batch.win_tile[0]), int(records.batch.concealed[0].sum())
    (26, 14)

    A truncated game is an error unless skipped:

    >>> read_botzone(text[: text.index("Score")])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mjstats.errors.RecordError: <text>, line 10: game is truncated ... (match demo)
    >>> read_botzone(text[: text.index("Score")], skip_bad=True).bad
    1
    """
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise ValueError(f"chunk_size must be a positive number of bytes, got {chunk_size!r}")
    col = _Collector(skip_bad)
    for r in replay_blocks(source, stop_on_error=not skip_bad, chunk_size=chunk_size):
        col.add(r)
    return col.result()
