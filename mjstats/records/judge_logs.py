"""Botzone JSON judge logs read as the game engine's log: walls, moves and the end.

A judge log (one match, e.g. ``<match id>_lite.json``) holds the wall in its
``initdata`` (``walltiles``: 136 codes, four segments of 34, one per player, each
taken from its end) and the round wind (``quan``); its ``logs`` alternate the judge's
outputs (whose ``display`` says what happened: ``DEAL``, ``DRAW``, ``PLAY``, ``CHI``,
``PENG``, ``GANG``, ``BUGANG``, ``HU`` with the fans and scores, ``HUANG``) and the
four bots' responses, where the claims the judge passed over are found.

:func:`judge_game` turns one log into the rows of the engine's game log (the same
rows as the text data set gives, :mod:`mjstats.records.text_kernel`), each with the
index of the log entry it comes from. It checks the log's form and that every tile
dealt and drawn is the next of its wall segment; the game's rules are the engine's
to check (:mod:`mjstats.records.replay`).
"""

from __future__ import annotations

import ast
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from mjstats.errors import RecordError
from mjstats.games.driver import LOG_DRAW
from mjstats.games.state import A_ANGANG, A_BUGANG, A_CHOW, A_DISCARD, A_HU, A_KONG, A_PUNG, A_TSUMO
from mjstats.records.text_kernel import fill_segments
from mjstats.tiles import BOTZONE_CODES

__all__ = ["UNNAMED", "JudgeGame", "iter_json", "judge_game", "segment_wall"]

_CODE_TO_ID = {c: t for t, c in enumerate(BOTZONE_CODES)}
_CLAIM_KIND = {"CHI": A_CHOW, "PENG": A_PUNG, "GANG": A_KONG, "HU": A_HU}
_PLAYER_ACTIONS = frozenset(("DRAW", "PLAY", "CHI", "PENG", "GANG", "BUGANG", "HU"))
"""Judge actions that name the player acting (an integer 0-3; not null, a string, true)."""


@dataclass
class JudgeGame:
    """One judge log as the engine's log (see the module documentation).

    ``result`` is ``"win"``, ``"drawn"`` or ``"aborted"`` (the judge ended the game
    on a bot's error); ``rows`` are ``(seat, kind, tile, ignored)`` and ``where``
    their log entries; ``end`` the entry of the last judge output.
    """

    source: str
    match_id: str | None
    wall: np.ndarray | None = None
    round_wind: int = 0
    rows: list = field(default_factory=list)
    where: list = field(default_factory=list)
    result: str = ""
    end: int = 0
    hu_tile: int = -1
    total: int = 0
    fans: tuple = ()
    fan_points: tuple = ()
    scores: tuple | None = None
    players: tuple = ()

    def error(self, problem: str, entry: int | None) -> RecordError:
        return RecordError(problem, self.source, entry, self.match_id, json_entry=True)

    def add(self, seat: int, kind: int, tile: int, entry: int, ignored: int = 0) -> None:
        self.rows.append((seat, kind, tile, ignored))
        self.where.append(entry)


def _tile(game: JudgeGame, code: Any, entry: int) -> int:
    t = _CODE_TO_ID.get(code) if isinstance(code, str) else None
    if t is None:
        raise game.error(f"unknown tile code {code!r}", entry)
    return t


def _match_id(obj: dict, source: str) -> str | None:
    for key in ("_id", "id", "match_id", "matchId"):
        if isinstance(obj.get(key), str):
            return obj[key]
    stem = Path(source).stem
    if stem.endswith("_lite"):
        stem = stem[: -len("_lite")]
    return stem or None


UNNAMED = "(unnamed)"
"""The player name of a seat whose log names nobody (text records name no players)."""


def _players(obj: dict) -> tuple:
    """The bots' names of the four seats, where the log has them (a list, or the
    Python repr of one that some logs keep), else ``()``."""
    players = obj.get("players")
    if isinstance(players, str):
        try:
            players = ast.literal_eval(players)
        except (ValueError, SyntaxError):
            return ()
    if not isinstance(players, list) or len(players) != 4:
        return ()
    names = []
    for p in players:
        name = p
        if isinstance(p, dict):
            bot = p.get("bot")
            name = p.get("name") or (bot.get("name") if isinstance(bot, dict) else bot)
        names.append(UNNAMED if name is None else str(name))
    return tuple(names)


def _wind(game: JudgeGame, quan: Any) -> int:
    if type(quan) is not int or not 0 <= quan <= 3:
        raise game.error(f"round wind 'quan' must be 0-3, got {quan!r}", None)
    return quan


def _ignored_claims(game: JudgeGame, responses: Any, claimer: int, discarder: int, tile: int,
                    entry: int) -> None:  # fmt: skip
    """The claims of the bots' responses that the judge passed over, as ignored rows."""
    if not isinstance(responses, dict):
        return
    for key, r in sorted(responses.items()):
        words = str(r.get("response", "")).split() if isinstance(r, dict) else []
        if not words or words[0] not in _CLAIM_KIND or not key.isdigit():
            continue
        q = int(key)
        if q in (claimer, discarder) or not 0 <= q <= 3:
            continue
        kind = _CLAIM_KIND[words[0]]
        t = _tile(game, words[1], entry - 1) if kind == A_CHOW and len(words) > 1 else tile
        game.add(q, kind, t, entry, 1)


def _check_response(game: JudgeGame, display: dict, responses: Any, player: int,
                    entry: int) -> None:  # fmt: skip
    """What the judge shows a player doing must be what the player's bot answered (its
    response in the entry before), where the log has the response."""
    r = responses.get(str(player)) if isinstance(responses, dict) else None
    said = r.get("response") if isinstance(r, dict) else None
    if not isinstance(said, str):
        return
    action = display.get("action")
    words = said.split()
    shown = {
        "PLAY": ["PLAY", display.get("tile")],
        "CHI": ["CHI", display.get("tileCHI"), display.get("tile")],
        "PENG": ["PENG", display.get("tile")],
        "BUGANG": ["BUGANG", display.get("tile")],
        "HU": ["HU"],
    }.get(action)
    if action == "GANG":  # GANG on a discard, GANG <tile> on one's own turn
        shown = ["GANG", display.get("tile")] if len(words) > 1 else ["GANG"]
    if shown is not None and words != shown:
        raise game.error(
            f"the judge shows player {player} {' '.join(map(str, shown))} but its bot "
            f"answered {said!r}", entry)  # fmt: skip


def judge_game(obj: Any, source: str) -> JudgeGame:
    """One judge log (a dict with ``logs``) as a :class:`JudgeGame`.

    Raises
    ------
    RecordError
        A log that is not a game of the judge (missing parts, unknown tiles or
        actions, a tile dealt or drawn that is not the next of its wall segment),
        naming the file and the log entry.

    Examples
    --------
    >>> from pathlib import Path
    >>> import mjstats
    >>> logs = Path(mjstats.__file__).parents[1] / "tests" / "data" / "botzone" / "judge-logs"
    >>> path = sorted(logs.glob("*.json"))[0]
    >>> game = judge_game(next(iter_json(path, str(path))), str(path))
    >>> game.result, game.total, len(game.rows) > 100
    ('win', 11, True)
    """
    if not isinstance(obj, dict):
        raise RecordError("a judge log must be a JSON object with 'logs'", source)
    game = JudgeGame(source, _match_id(obj, source), players=_players(obj))
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
        game.wall = np.array([_CODE_TO_ID[c] for c in codes], np.int64)
    taken: list[list[int]] = [[], [], [], []]  # tiles taken from each segment, in order
    last_action = None
    last_player = -1
    last_tile = -1  # the tile of the last discard (or promoted kong)
    drawn = [-1, -1, -1, -1]
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
        responses = logs[entry - 1] if entry > 0 else None
        if acts and action != "DRAW":
            _check_response(game, display, responses, player, entry)
        answers = last_action in ("PLAY", "CHI", "PENG", "BUGANG") and last_player != player
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
                    _take(game, segments, taken, p, _tile(game, code, entry), code, entry)
        elif action == "DRAW":
            t = _tile(game, display.get("tile"), entry)
            _take(game, segments, taken, player, t, display.get("tile"), entry)
            cnt = display.get("tileCnt")
            if segments is not None and isinstance(cnt, list) and len(cnt) == 4:
                left = [34 - len(k) for k in taken]
                if cnt != left:
                    raise game.error(
                        f"tileCnt {cnt} does not match the replayed walls {left}", entry
                    )
            drawn[player] = t
            game.add(player, LOG_DRAW, t, entry)
        elif action == "PLAY":
            last_tile = _tile(game, display.get("tile"), entry)
            game.add(player, A_DISCARD, last_tile, entry)
        elif action in ("CHI", "PENG"):
            t = _tile(game, display.get("tile"), entry)
            claimed = _tile(game, display.get("tileCHI"), entry) if action == "CHI" else last_tile
            game.add(player, _CLAIM_KIND[action], claimed, entry)
            _ignored_claims(game, responses, player, last_player, last_tile, entry)
            game.add(player, A_DISCARD, t, entry)
            last_tile = t
        elif action == "GANG":
            if answers and last_action != "BUGANG":  # on a discard: an exposed kong
                game.add(player, A_KONG, last_tile, entry)
                _ignored_claims(game, responses, player, last_player, last_tile, entry)
            else:  # right after the player's own draw: a concealed kong
                game.add(player, A_ANGANG, _tile(game, display.get("tile"), entry), entry)
        elif action == "BUGANG":
            last_tile = _tile(game, display.get("tile"), entry)
            game.add(player, A_BUGANG, last_tile, entry)
        elif action == "HU":
            fan = display.get("fan") or []
            total = display.get("fanCnt")
            if not isinstance(fan, list) or type(total) is not int:
                raise game.error("HU without 'fan' list and 'fanCnt'", entry)
            try:
                game.fans = tuple((str(f["name"]), int(f.get("cnt", 1))) for f in fan)
                game.fan_points = tuple(int(f.get("value", 0)) for f in fan)
            except (TypeError, KeyError, ValueError, AttributeError):
                raise game.error("HU with a malformed 'fan' list", entry) from None
            score = display.get("score")
            if score is not None:
                if not (isinstance(score, list) and len(score) == 4
                        and all(type(x) is int for x in score)):  # fmt: skip
                    raise game.error("HU with a malformed 'score' (four whole numbers)", entry)
                game.scores = tuple(score)
            if answers:
                game.add(player, A_HU, last_tile, entry)
                _ignored_claims(game, responses, player, last_player, last_tile, entry)
                game.hu_tile = last_tile
            else:
                game.add(player, A_TSUMO, drawn[player], entry)
                game.hu_tile = drawn[player]
            game.result, game.end, game.total = "win", entry, total
            break
        elif action == "HUANG":
            game.result, game.end, game.scores = "drawn", entry, (0, 0, 0, 0)
            break
        elif action == "BUHUA":
            raise game.error("flowers are not supported (no flowers in MCR Botzone games)", entry)
        elif isinstance(out, dict) and out.get("command") == "finish":
            # the judge ended the game on a bot error (WA, TLE, RE, WH = false win, ...)
            game.result, game.end = "aborted", entry
            return game
        else:
            raise game.error(f"unknown judge action {action!r}", entry)
        if action not in ("INIT", "DEAL"):
            last_action, last_player = action, player
    else:
        raise game.error("log is truncated (no HU, HUANG or final verdict)", len(logs) - 1)
    for entry in range(game.end + 1, len(logs)):
        if isinstance(logs[entry], dict) and "output" in logs[entry]:
            raise game.error("judge output after the end of the game", entry)
    game.round_wind = _wind(game, quan)
    if game.wall is None:  # no wall in the log: the tiles taken, the rest filled in
        game.wall = segment_wall(taken)
        if game.wall is None:
            raise game.error("more than 4 copies of a tile dealt or drawn", None)
    return game


def _take(game: JudgeGame, segments, taken: list[list[int]], p: Any, t: int, code: Any,
          entry: int) -> None:  # fmt: skip
    """Player ``p`` takes ``t``: it must be the next tile of its wall segment (from the end)."""
    if not isinstance(p, int) or not 0 <= p <= 3:
        raise game.error(f"player must be 0-3, got {p!r}", entry)
    k = len(taken[p])
    if k >= 34:
        raise game.error("draw from an empty wall segment (each player draws at most 21 tiles)",
                         entry)  # fmt: skip
    taken[p].append(t)
    if segments is not None and code != segments[p][33 - k]:
        raise game.error(f"player {p} takes {code} but the wall has {segments[p][33 - k]} there",
                         entry)  # fmt: skip


def segment_wall(taken: list[list[int]]) -> np.ndarray | None:
    """The 136-tile Botzone wall whose segment ``p`` holds ``taken[p]`` (the tiles player
    ``p`` was dealt and drew, in order, taken from the segment's end), the tiles nobody
    took filling the rest (:func:`~mjstats.records.text_kernel.fill_segments`); None
    when the tiles taken hold more than 4 copies of one or more than 34 for a player.

    Examples
    --------
    >>> wall = segment_wall([[0, 1], [], [], [33]])
    >>> wall[33], wall[32], wall[135], len(wall)
    (np.int64(0), np.int64(1), np.int64(33), 136)
    """
    seq = np.zeros(136, np.int64)
    n_seq = np.array([len(taken_p) for taken_p in taken], np.int64)
    if (n_seq > 34).any():
        return None
    for p, taken_p in enumerate(taken):
        seq[34 * p : 34 * p + len(taken_p)] = taken_p
    copies = np.bincount(np.asarray([t for s in taken for t in s], np.int64), minlength=34)
    if (copies > 4).any():
        return None
    wall = np.zeros(136, np.int64)
    fill_segments(seq, n_seq, copies, wall)  # the text reader's rule
    return wall


def iter_json(path: Path, source: str, lines: bool | None = None):
    """Judge logs in a ``.json`` file (an object or a list of them) or ``.jsonl`` file
    (``lines``: one object per line; None: as the suffix says).

    Unreadable JSON is yielded as a :class:`RecordError` (the caller counts it).

    Examples
    --------
    >>> import json, tempfile
    >>> from pathlib import Path
    >>> path = Path(tempfile.mkdtemp()) / "two.jsonl"
    >>> _ = path.write_text("".join(json.dumps({"logs": [1] * k}) + chr(10) for k in (0, 1)))
    >>> [len(log["logs"]) for log in iter_json(path, str(path))]
    [0, 1]
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
