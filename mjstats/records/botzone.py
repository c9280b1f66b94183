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

Every game is replayed (one numba kernel for both formats, so the text data set
streams at tens of thousands of games per second with bounded memory) and every
win is reconstructed into a :class:`~mjstats.HandBatch` row. The judge's rules
for the context flags:

* each player draws from their own wall segment (21 tiles after the deal), kong
  replacements included; the game is drawn when the player due to draw has none
  left, so a tile is the *last of the wall* (妙手回春 / 海底捞月) when, after the
  draw or discard, the *next* player's segment is empty;
* *和绝张* (``last_of_kind``): the three other copies of the winning tile are
  visible on the table: unclaimed discards and the tiles of exposed melds (chow,
  pung, exposed and promoted kongs). The reference scorer drops it when it
  contradicts the hand and for 抢杠和;
* ``kong_win``: self-drawn replacement tile after the winner's own kong
  (杠上开花), or a discard win on another player's promoted kong (抢杠和).
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from mjstats.batch import HandBatch
from mjstats.errors import RecordError
from mjstats.kernels import records as rp
from mjstats.records.sources import record_files
from mjstats.rulesets.mcr import FANS, RULESET
from mjstats.tiles import BOTZONE_CODES

if TYPE_CHECKING:
    from mjstats.batch import HandBatch

__all__ = ["FAN_POINTS", "RecordError", "RecordSet", "read_botzone"]

_CODE_TO_ID = {c: t for t, c in enumerate(BOTZONE_CODES)}

WIN_TYPES = ("discard", "self_drawn", "robbed_kong")
"""``recorded.win_type`` values, indexed by the kernel's win-type code."""

# error messages, indexed by the kernel's error codes (mjstats.kernels.records.E_*)
ERRORS = (
    "no error",
    "malformed line",
    "unknown tile code",
    "player number must be 0-3",
    "unknown action",
    "line before the first 'Match' line",
    "more than 4 copies of a tile dealt or drawn",
    "bad deal (each player is dealt 13 tiles once, before play)",
    "draw out of turn",
    "draw from an empty wall segment (each player draws at most 21 tiles)",
    "discard out of turn",
    "tile not in the player's hand",
    "chi not on the previous player's discard",
    "chi does not form a chow with the discarded tile",
    "peng/gang not on another player's discard",
    "peng/gang tile differs from the discarded tile",
    "concealed or promoted kong not right after the player's own draw",
    "promoted kong without a pung of that tile",
    "hu not after the player's draw, a discard or a promoted kong",
    "hu tile differs from the discarded tile",
    "'Fan' line without a win before it",
    "'Score' line without 'Fan' or 'Huang' before it",
    "game is truncated (it ends without its 'Score' line)",
    "line after the end of the game",
    "bad 'Wind' line (expected 'Wind 0'..'Wind 3')",
    "more than 4 melds",
    "bad 'Fan' line (expected 'Fan <total> <name>*<count>+...')",
    "'Wind' line missing or out of place (expected right after 'Match')",
    "winning hand does not have 14 tiles",
    "'Huang' (drawn game) while the wall is not exhausted",
)


def _fan_points() -> dict[str, int]:
    # the judge's names (the fan table's, and its spellings of the wait fans:
    # records.names) -> points in the MCR fan table (the reference profile's)
    from mjstats.records.names import _ALIASES

    names = {f.zh: f.key for f in FANS} | _ALIASES
    return {name: RULESET.fans[RULESET.fan_id(key)].points for name, key in names.items()}


FAN_POINTS: dict[str, int] = _fan_points()
"""Points of one occurrence of each MCR fan, by the Chinese names the judge uses."""


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
_COLUMNS = (
    "source",
    "match_id",
    "game",
    "line",
    "seat",
    "win_type",
    "from_seat",
    "win_tile",
    "total",
    "fans",
    "fan_points",
)
_INT_COLUMNS = {"game", "line", "seat", "from_seat", "total"}
_OBJECT_COLUMNS = {"fans", "fan_points"}


class _Collector:
    """Accumulates per-chunk arrays and recorded rows until the end of the read."""

    def __init__(self, skip_bad: bool):
        self.skip_bad = skip_bad
        self.arrays: list[dict[str, np.ndarray]] = []
        self.rows: dict[str, list] = {k: [] for k in _COLUMNS}
        self.games = self.wins = self.drawn = self.aborted = self.bad = 0
        self.errors: list[str] = []

    def fail(self, error: RecordError) -> None:
        if not self.skip_bad:
            raise error
        self.bad += 1
        if len(self.errors) < _MAX_ERRORS:
            self.errors.append(str(error))

    def add_wins(self, arrays: dict[str, np.ndarray], rows: dict[str, Any]) -> None:
        """Add the wins of one chunk or log: win arrays and recorded columns."""
        self.arrays.append(arrays)
        for k, v in rows.items():
            self.rows[k].append(v)
        self.wins += len(rows["seat"])

    def result(self) -> RecordSet:
        n = self.wins
        parts = self.arrays or [_alloc_wins(0)]
        info = np.concatenate([w["info"] for w in parts])
        fields = {
            "concealed": np.concatenate([w["conc"] for w in parts]),
            "melds": np.concatenate([w["melds"] for w in parts]),
            "win_tile": info[:, rp.W_TILE].astype(np.uint8),
            "self_drawn": info[:, rp.W_SELF] == 1,
            "last_of_kind": info[:, rp.W_LAST_KIND] == 1,
            "kong_win": info[:, rp.W_KONG] == 1,
            "last_of_wall": info[:, rp.W_LAST_WALL] == 1,
            "seat_wind": info[:, rp.W_SEAT].astype(np.uint8),
            "round_wind": info[:, rp.W_ROUND].astype(np.uint8),
            # Botzone has no flowers; a count n would be the mask (1 << n) - 1
            "flowers": ((1 << info[:, rp.W_FLOWERS]) - 1).astype(np.uint8),
            "situation": np.zeros(n, np.uint8),
        }
        columns = {}
        for k, pieces in self.rows.items():
            if k in _INT_COLUMNS:
                columns[k] = np.concatenate(
                    [np.asarray(v, np.int64) for v in pieces] or [np.zeros(0, np.int64)]
                )
            else:
                flat = []
                for v in pieces:
                    flat.extend(v)
                columns[k] = pd.Series(flat, dtype=object) if k in _OBJECT_COLUMNS else flat

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


def _alloc_wins(cap: int) -> dict[str, np.ndarray]:
    return {
        "info": np.zeros((cap, rp.N_W), np.int64),
        "conc": np.zeros((cap, 34), np.uint8),
        "melds": np.zeros((cap, 4, 2), np.uint8),
    }


_WIN_TYPE_NAMES = np.array(WIN_TYPES, dtype=object)
_CODES = np.array(BOTZONE_CODES, dtype=object)


# ---------------------------------------------------------------------------
# the text data set


_CHUNK = 8 << 20


# "name*count" -> ((name, count), points of one occurrence); shared objects keep the
# recorded DataFrame small (there are a few hundred distinct parts in all the data)
_FAN_PARTS: dict[str, tuple[tuple[str, int], int]] = {}


def _fan_part(part: str) -> tuple[tuple[str, int], int] | None:
    name, star, count = part.rpartition("*")
    if not star or not name.strip() or not count.isdigit():
        return None
    name = name.strip()
    hit = ((name, int(count)), FAN_POINTS.get(name, 0))
    if len(_FAN_PARTS) < 100_000:
        _FAN_PARTS[part] = hit
    return hit


def _parse_fans(desc: str):
    """``"混一色*1+箭刻*1"`` -> ``((("混一色", 1), ("箭刻", 1)), (6, 2))``; None if malformed."""
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


def _decode_spans(chunk, starts: np.ndarray, ends: np.ndarray) -> list[str]:
    """``[chunk[a:b].decode() ...]``, vectorised when all spans are ASCII of one length."""
    lengths = ends - starts
    if len(lengths) and (lengths == lengths[0]).all() and 0 < lengths[0] <= 64:
        raw = np.frombuffer(chunk, np.uint8)[starts[:, None] + np.arange(lengths[0])]
        if (raw < 128).all() and (raw > 32).all():
            return raw.view(f"S{lengths[0]}").ravel().astype(str).tolist()
    return [str(chunk[a:b], "utf-8", "replace").strip() for a, b in zip(starts, ends, strict=True)]


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


def _read_text(stream, source: str, col: _Collector, chunk_size: int) -> None:
    line_base = 0
    game_base = 0
    for chunk in _text_chunks(stream, chunk_size):
        buf = np.frombuffer(chunk, np.uint8)
        buf.flags.writeable = False  # one compiled kernel for bytes and bytearrays
        cap = len(chunk) // 1024 + 16  # games average ~2 KB; retried if too few
        while True:
            g_info = np.zeros((cap, rp.N_G), np.int64)
            wins = _alloc_wins(cap)
            n_games, n_wins, n_lines, overflow = rp.scan_text(
                buf, not col.skip_bad, g_info, wins["info"], wins["conc"], wins["melds"]
            )
            if not overflow:
                break
            cap = bytes(chunk).count(b"Match ") + 1
        g_info = g_info[:n_games]
        status = g_info[:, rp.G_STATUS]
        col.games += n_games
        col.drawn += int(np.count_nonzero(status == rp.G_DRAWN))
        for g in np.flatnonzero(status == rp.G_BAD):
            mid = _decode_spans(chunk, g_info[g : g + 1, rp.G_MSTART], g_info[g : g + 1, rp.G_MEND])
            col.fail(
                RecordError(
                    ERRORS[g_info[g, rp.G_ERR]],
                    source,
                    line_base + int(g_info[g, rp.G_ERR_LINE]),
                    mid[0] or None,
                )
            )
        info = wins["info"][:n_wins]
        # the recorded fans: the only per-win Python work
        fans = []
        points = []
        keep = np.ones(n_wins, bool)
        seen: dict[bytes, Any] = {}
        for i, (a, b) in enumerate(info[:, rp.W_FSTART : rp.W_FEND + 1].tolist()):
            desc = bytes(chunk[a:b])
            parsed = seen.get(desc)
            if parsed is None:
                parsed = seen[desc] = _parse_fans(desc.decode("utf-8", "replace"))
            if parsed is None:
                g = int(info[i, rp.W_GAME])
                mid = _decode_spans(
                    chunk, g_info[g : g + 1, rp.G_MSTART], g_info[g : g + 1, rp.G_MEND]
                )
                fan_line = line_base + bytes(chunk[:a]).count(b"\n") + 1
                col.fail(RecordError(ERRORS[rp.E_FAN], source, fan_line, mid[0]))
                keep[i] = False
                continue
            fans.append(parsed[0])
            points.append(parsed[1])
        if not keep.all():
            info = info[keep]
        games = info[:, rp.W_GAME]
        rows = {
            "source": [source] * len(info),
            "match_id": _decode_spans(chunk, g_info[games, rp.G_MSTART], g_info[games, rp.G_MEND]),
            "game": games + game_base,
            "line": info[:, rp.W_LINE] + line_base,
            "seat": info[:, rp.W_SEAT],
            "win_type": _WIN_TYPE_NAMES[info[:, rp.W_TYPE]],
            "from_seat": info[:, rp.W_FROM],
            "win_tile": _CODES[info[:, rp.W_TILE]],
            "total": info[:, rp.W_TOTAL],
            "fans": fans,
            "fan_points": points,
        }
        col.add_wins(
            {
                "info": info,
                "conc": wins["conc"][:n_wins][keep],
                "melds": wins["melds"][:n_wins][keep],
            },
            rows,
        )
        line_base += n_lines
        game_base += n_games


# ---------------------------------------------------------------------------
# JSON judge logs


class _JsonGame:
    """Events of one judge log, ready for :func:`mjstats.kernels.records.replay_events`."""

    def __init__(self, source: str, match_id: str | None):
        self.source = source
        self.match_id = match_id
        self.events: list[tuple[int, int, int, int]] = []

    def error(self, problem: str, entry: int | None) -> RecordError:
        return RecordError(problem, self.source, entry, self.match_id, json_entry=True)


def _tile_id(game: _JsonGame, code: Any, entry: int) -> int:
    t = _CODE_TO_ID.get(code) if isinstance(code, str) else None
    if t is None:
        raise game.error(f"unknown tile code {code!r}", entry)
    return t


def _json_match_id(obj: dict, source: str) -> str | None:
    for key in ("_id", "id", "match_id", "matchId"):
        if isinstance(obj.get(key), str):
            return obj[key]
    stem = Path(source).stem
    if stem.endswith("_lite"):
        stem = stem[: -len("_lite")]
    return stem or None


def _replay_json(
    obj: Any, source: str, game_index: int, col: _Collector, state: np.ndarray
) -> None:
    """Replay one judge log (a dict with ``logs``) and collect its win."""
    col.games += 1
    if isinstance(obj, RecordError):  # unreadable JSON
        col.fail(obj)
        return
    if not isinstance(obj, dict):
        col.fail(RecordError("a judge log must be a JSON object with 'logs'", source))
        return
    game = _JsonGame(source, _json_match_id(obj, source))
    try:
        outcome = _json_events(obj, game)
    except RecordError as err:
        col.fail(err)
        return
    kind, info = outcome
    if kind == "aborted":
        col.aborted += 1
        return
    events = np.array(game.events, np.int64).reshape(-1, 4)
    wins = _alloc_wins(1)
    err, where, won = rp.replay_events(
        events, info["quan"], info["wall_draws"], state, wins["info"], wins["conc"], wins["melds"]
    )
    if err != rp.E_OK:
        col.fail(game.error(ERRORS[err], int(where)))
        return
    if kind == "drawn":
        if won:
            col.fail(game.error("judge reports a drawn game after a win", info["entry"]))
            return
        col.drawn += 1
        return
    w = wins["info"][0]
    if not won or w[rp.W_SEAT] != info["player"]:
        col.fail(game.error("judge's winner does not match the replay", info["entry"]))
        return
    try:
        fans = tuple((str(f["name"]), int(f.get("cnt", 1))) for f in info["fan"])
        points = tuple(int(f.get("value", FAN_POINTS.get(str(f["name"]), 0))) for f in info["fan"])
    except (TypeError, KeyError, ValueError, AttributeError):
        col.fail(game.error("HU with a malformed 'fan' list", info["entry"]))
        return
    rows = {
        "source": [source],
        "match_id": [game.match_id],
        "game": [game_index],
        "line": [info["entry"]],
        "seat": [int(w[rp.W_SEAT])],
        "win_type": [WIN_TYPES[w[rp.W_TYPE]]],
        "from_seat": [int(w[rp.W_FROM])],
        "win_tile": [BOTZONE_CODES[w[rp.W_TILE]]],
        "total": [int(info["total"])],
        "fans": [fans],
        "fan_points": [points],
    }
    col.add_wins(wins, rows)


def _json_events(obj: dict, game: _JsonGame) -> tuple[str, dict]:
    """Turn a judge log into replay events; validate draws against the wall.

    Returns ``("win" | "drawn" | "aborted", info)``.
    """
    logs = obj.get("logs", obj.get("log"))
    if not isinstance(logs, list):
        raise game.error("no 'logs' list in the judge log", None)
    init = obj.get("initdata")
    if isinstance(init, str):
        try:
            init = json.loads(init) if init.strip() else {}
        except json.JSONDecodeError as exc:
            raise game.error(f"'initdata' is not JSON ({exc.msg})", None) from None
    init = init if isinstance(init, dict) else {}
    quan = init.get("quan")
    segments = None
    wall_codes = init.get("walltiles")
    if isinstance(wall_codes, str) and wall_codes.strip():
        codes = wall_codes.split()
        if len(codes) != 136 or any(c not in _CODE_TO_ID for c in codes):
            raise game.error("'walltiles' must hold 136 tile codes (no flowers)", None)
        segments = [codes[34 * p : 34 * (p + 1)] for p in range(4)]
    wall_draws = 21
    drawn_from = [0, 0, 0, 0]  # tiles taken from each segment so far (deal included)
    ev = game.events
    last_action = None
    last_player = -1
    last_discard = -1
    for entry, item in enumerate(logs):
        if not isinstance(item, dict) or "output" not in item:
            continue  # bot responses: the judge's next display says what happened
        out = item["output"]
        display = out.get("display") if isinstance(out, dict) else None
        if not isinstance(display, dict):
            raise game.error("judge output without 'display'", entry)
        action = display.get("action")
        player = display.get("player", -1)
        acts = isinstance(action, str) and action in _PLAYER_ACTIONS
        if acts and (type(player) is not int or not 0 <= player <= 3):
            raise game.error(f"player must be 0-3, got {player!r}", entry)
        if action == "INIT":
            if quan is None:
                quan = display.get("quan")
            cnt = display.get("tileCnt")
            if cnt is not None and not isinstance(cnt, list):
                raise game.error(
                    "unsupported judge version (one shared wall; per-player walls expected)", entry
                )
        elif action == "DEAL":
            hands = display.get("hand")
            if not isinstance(hands, list) or len(hands) != 4:
                raise game.error("DEAL without four hands", entry)
            for p, tiles in enumerate(hands):
                if not isinstance(tiles, list):
                    raise game.error("DEAL without four hands", entry)
                for code in tiles:
                    if isinstance(code, str) and code.startswith("H"):
                        raise game.error(
                            "flowers are not supported (no flowers in MCR Botzone games)", entry
                        )
                    t = _tile_id(game, code, entry)
                    _check_wall(game, segments, drawn_from, p, code, entry)
                    ev.append((rp.OP_DEAL, p, t, entry))
        elif action == "DRAW":
            t = _tile_id(game, display.get("tile"), entry)
            _check_wall(game, segments, drawn_from, player, display.get("tile"), entry)
            cnt = display.get("tileCnt")
            if segments is not None and isinstance(cnt, list) and len(cnt) == 4:
                left = [34 - k for k in drawn_from]
                if cnt != left:
                    raise game.error(
                        f"tileCnt {cnt} does not match the replayed walls {left}", entry
                    )
            ev.append((rp.OP_DRAW, player, t, entry))
        elif action == "PLAY":
            t = _tile_id(game, display.get("tile"), entry)
            ev.append((rp.OP_PLAY, player, t, entry))
            last_discard = t
        elif action == "CHI":
            mid = _tile_id(game, display.get("tileCHI"), entry)
            t = _tile_id(game, display.get("tile"), entry)
            ev.append((rp.OP_CHI, player, mid, entry))
            ev.append((rp.OP_PLAY, player, t, entry))
            last_discard = t
        elif action == "PENG":
            t = _tile_id(game, display.get("tile"), entry)
            ev.append((rp.OP_PENG, player, last_discard, entry))
            ev.append((rp.OP_PLAY, player, t, entry))
            last_discard = t
        elif action == "GANG":
            t = _tile_id(game, display.get("tile"), entry)
            # on a discard: exposed kong; right after the player's own draw: concealed
            claimed = last_action in ("PLAY", "CHI", "PENG") and last_player != player
            ev.append((rp.OP_GANG if claimed else rp.OP_ANGANG, player, t, entry))
        elif action == "BUGANG":
            t = _tile_id(game, display.get("tile"), entry)
            ev.append((rp.OP_BUGANG, player, t, entry))
        elif action == "HU":
            ev.append((rp.OP_HU, player, -1, entry))
            fan = display.get("fan") or []
            total = display.get("fanCnt")
            if not isinstance(fan, list) or type(total) is not int:
                raise game.error("HU without 'fan' list and 'fanCnt'", entry)
            return "win", {
                "quan": _wind(game, quan),
                "wall_draws": wall_draws,
                "fan": fan,
                "total": total,
                "player": player,
                "entry": entry,
            }
        elif action == "HUANG":
            return "drawn", {"quan": _wind(game, quan), "wall_draws": wall_draws, "entry": entry}
        elif action == "BUHUA":
            raise game.error("flowers are not supported (no flowers in MCR Botzone games)", entry)
        elif isinstance(out, dict) and out.get("command") == "finish":
            # the judge ended the game on a bot error (WA, TLE, RE, WH = false win, ...)
            return "aborted", {"entry": entry, "code": action}
        else:
            raise game.error(f"unknown judge action {action!r}", entry)
        if action not in ("INIT", "DEAL"):
            last_action, last_player = action, player
    raise game.error("log is truncated (no HU, HUANG or final verdict)", len(logs) - 1)


_PLAYER_ACTIONS = frozenset(("DRAW", "PLAY", "CHI", "PENG", "GANG", "BUGANG", "HU"))
"""Judge actions that name the player acting (an integer 0-3; not null, a string, true)."""


def _wind(game: _JsonGame, quan: Any) -> int:
    if type(quan) is not int or not 0 <= quan <= 3:
        raise game.error(f"round wind 'quan' must be 0-3, got {quan!r}", None)
    return quan


def _check_wall(
    game: _JsonGame, segments, drawn_from: list[int], p: Any, code: Any, entry: int
) -> None:
    """The tile must be the next one of player ``p``'s wall segment (taken from the end)."""
    if not isinstance(p, int) or not 0 <= p <= 3:
        raise game.error(f"player must be 0-3, got {p!r}", entry)
    k = drawn_from[p]
    drawn_from[p] = k + 1
    if segments is None:
        return
    if k >= 34:
        raise game.error(ERRORS[rp.E_WALL_EMPTY], entry)
    expected = segments[p][33 - k]
    if code != expected:
        raise game.error(f"player {p} takes {code} but the wall has {expected} there", entry)


def _iter_json(path: Path, source: str, lines: bool | None = None) -> Iterator[Any]:
    """Judge logs in a ``.json`` file (an object or a list of them) or ``.jsonl`` file
    (``lines``: one object per line; None: as the suffix says).

    Unreadable JSON is yielded as a :class:`RecordError` (the caller counts it).
    """
    with open(path, "rb") as fh:
        if path.suffix == ".jsonl" if lines is None else lines:
            for lineno, raw in enumerate(fh, 1):
                if raw.strip():
                    try:
                        yield json.loads(raw)
                    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
                        yield RecordError(f"invalid JSON ({exc})", source, lineno)
            return
        try:
            obj = json.load(fh)
        except json.JSONDecodeError as exc:
            yield RecordError(f"invalid JSON ({exc.msg}, char {exc.pos})", source, exc.lineno)
            return
        except UnicodeDecodeError as exc:
            yield RecordError(f"invalid JSON ({exc})", source)
            return
    if isinstance(obj, list):
        yield from obj
    else:
        yield obj


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
    chunk_size : int, default 8 MiB
        Bytes read at a time from a text data set (memory use is a few times this).

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
    if isinstance(source, (bytes, bytearray)):
        _read_text(io.BytesIO(bytes(source)), "<text>", col, chunk_size)
    elif isinstance(source, str) and "\n" in source:
        _read_text(io.BytesIO(source.encode("utf-8")), "<text>", col, chunk_size)
    elif hasattr(source, "read"):
        name = str(getattr(source, "name", "<stream>"))
        _read_text(source, name, col, chunk_size)
    else:
        for path, fmt in record_files(source):  # a folder: every record file in it
            if fmt == "text":
                with open(path, "rb") as fh:
                    _read_text(fh, str(path), col, chunk_size)
            else:
                _read_json_files([path], col, lines=fmt == "jsonl")
    return col.result()


def _read_json_files(files: list[Path], col: _Collector, lines: bool | None = None) -> None:
    state = rp.new_state()
    for path in files:
        source = str(path)
        for index, obj in enumerate(_iter_json(path, source, lines)):
            _replay_json(obj, source, index, col, state)
