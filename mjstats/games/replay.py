"""Replay of real Botzone games through the game engine (:mod:`mjstats.games.kernels`).

Both record formats are turned into one list of *moves* (what the text data set
writes: ``(seat, verb, tile, ignored claims)``) plus the wall, then driven through
the engine's own kernels: every move and every ignored claim must be among the
legal actions the engine lists at that point, the claim the engine gives priority
to must be the recorded one, and the end (winner, fans, total, the four scores)
must equal the judge's.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from mjstats.compiling import notice
from mjstats.games import kernels as G
from mjstats.games.engine import engine_context
from mjstats.records.check import botzone_ruleset
from mjstats.records.names import judge_fan_counts
from mjstats.tiles import BOTZONE_CODES

__all__ = ["ReplayError", "replay"]

_ID = {c: t for t, c in enumerate(BOTZONE_CODES)}


class ReplayError(ValueError):
    """A record that cannot be read as a game (before the engine judges it)."""


@dataclass
class _Game:
    source: str
    match_id: str
    round_wind: int = 0
    deals: list = field(default_factory=lambda: [[], [], [], []])
    moves: list = field(default_factory=list)  # (seat, verb, tile, [(seat, verb, tile)])
    wall: np.ndarray | None = None
    result: str = ""  # "win" / "drawn"
    fans: tuple = ()
    total: int = -1
    scores: tuple = ()


# ---------------------------------------------------------------- text data set
def _tile(code: str) -> int:
    try:
        return _ID[code]
    except KeyError:
        raise ReplayError(f"unknown tile code {code!r}") from None


def _lines(fh, path: Path):
    try:
        yield from fh
    except UnicodeDecodeError as exc:
        raise ReplayError(f"{path}: not a record (not UTF-8 text: {exc.reason})") from None


def _text_games(path: Path):
    game = None
    with open(path, encoding="utf-8-sig") as fh:
        for lineno, raw in enumerate(_lines(fh, path), 1):
            words = raw.split()
            if not words:
                continue
            try:
                if words[0] == "Match":
                    if game is not None:
                        yield game
                    game = _Game(str(path), words[1] if len(words) > 1 else "")
                elif game is None:
                    raise ReplayError("line before the first 'Match' line")
                elif words[0] == "Wind":
                    game.round_wind = int(words[1])
                elif words[0] == "Player" and words[2] == "Deal":
                    game.deals[int(words[1])] = [_tile(c) for c in words[3:]]
                elif words[0] == "Player":
                    seat, verb, tile = int(words[1]), words[2].upper(), _tile(words[3])
                    ignored = []
                    rest = words[4:]
                    while len(rest) >= 5 and rest[0] == "Ignore":
                        ignored.append((int(rest[2]), rest[3].upper(), _tile(rest[4])))
                        rest = rest[5:]
                    if rest:
                        raise ReplayError(f"unexpected words {' '.join(rest)!r}")
                    game.moves.append((seat, verb, tile, ignored))
                elif words[0] == "Fan":
                    game.result = "win"
                    game.total = int(words[1])
                    fans = []
                    for part in (words[2] if len(words) > 2 else "").split("+"):
                        if part:
                            name, _, count = part.rpartition("*")
                            fans.append((name, int(count)))
                    game.fans = tuple(fans)
                elif words[0] == "Huang":
                    game.result = "drawn"
                elif words[0] == "Score":
                    game.scores = tuple(int(x) for x in words[1:5])
                else:
                    raise ReplayError(f"unknown line {raw.strip()!r}")
            except (IndexError, ValueError) as exc:
                msg = exc.args[0] if isinstance(exc, ReplayError) else f"malformed line ({exc})"
                raise ReplayError(f"{path}, line {lineno}: {msg}") from None
    if game is not None:
        yield game


def _text_wall(game: _Game) -> np.ndarray:
    """The 136-tile wall of a text record: each seat's segment holds its deal and its
    draws in order (kong replacements included); the tiles nobody drew fill the rest."""
    taken = [list(d) for d in game.deals]
    for seat, verb, tile, _ in game.moves:
        if verb == "DRAW":
            taken[seat].append(tile)
    left = np.full(34, 4, np.int64)
    for seq in taken:
        for t in seq:
            left[t] -= 1
    if (left < 0).any() or any(len(seq) > 34 for seq in taken):
        raise ReplayError("more tiles dealt and drawn than a 136-tile wall holds")
    rest = [t for t in range(34) for _ in range(left[t])]
    wall = np.zeros(136, np.int64)
    for p, seq in enumerate(taken):
        seq = seq + [rest.pop() for _ in range(34 - len(seq))]
        for k, t in enumerate(seq):
            wall[34 * p + 33 - k] = t
    return wall


# ---------------------------------------------------------------- JSON judge logs
def _json_game(path: Path) -> _Game:
    with open(path, encoding="utf-8") as fh:
        obj = json.load(fh)
    init = obj.get("initdata")
    if isinstance(init, str):
        init = json.loads(init) if init.strip() else {}
    game = _Game(str(path), path.stem.removesuffix("_lite"))
    game.round_wind = int(init.get("quan", 0))
    codes = str(init.get("walltiles", "")).split()
    if len(codes) != 136:
        raise ReplayError(f"{path}: 'walltiles' must hold 136 tile codes")
    game.wall = np.array([_tile(c) for c in codes], np.int64)
    logs = obj["logs"]
    last = None  # (action, player) of the last judge output
    for i, item in enumerate(logs):
        out = item.get("output")
        if out is None:
            continue
        disp = out["display"]
        act = disp.get("action")
        p = disp.get("player", -1)
        claims = []
        if last is not None and last[0] in ("PLAY", "CHI", "PENG", "BUGANG") and i > 0:
            for k, r in logs[i - 1].items():
                words = str(r.get("response", "")).split() if isinstance(r, dict) else []
                q = int(k)
                if words and words[0] != "PASS" and q != last[1]:
                    claims.append((q, words[0], words[1:]))
        if act == "DEAL":
            game.deals = [[_tile(c) for c in h] for h in disp["hand"]]
        elif act == "DRAW":
            game.moves.append((p, "DRAW", _tile(disp["tile"]), []))
        elif act == "PLAY":
            game.moves.append((p, "PLAY", _tile(disp["tile"]), []))
        elif act in ("CHI", "PENG", "GANG", "HU") and last and last[0] != "DRAW" and p != last[1]:
            tile = last[2]
            verb = act
            shown = _tile(disp["tileCHI"]) if act == "CHI" else tile
            ignored = [(q, v, _claim_tile(v, a, tile)) for q, v, a in claims if q != p]
            game.moves.append((p, verb, shown, ignored))
            if act in ("CHI", "PENG"):
                game.moves.append((p, "PLAY", _tile(disp["tile"]), []))
        elif act == "GANG":
            game.moves.append((p, "ANGANG", _tile(disp["tile"]), []))
        elif act == "BUGANG":
            game.moves.append((p, "BUGANG", _tile(disp["tile"]), []))
        elif act == "HU":  # self-drawn
            game.moves.append((p, "HU", last[2] if last else -1, []))
        elif act == "HUANG":
            game.result = "drawn"
            game.scores = (0, 0, 0, 0)
        if act == "HU":
            game.result = "win"
            game.total = int(disp["fanCnt"])
            game.fans = tuple((str(f["name"]), int(f.get("cnt", 1))) for f in disp["fan"])
            game.scores = tuple(int(x) for x in disp["score"])
        tile_now = disp.get("tile")
        last = (act, p, _tile(tile_now) if isinstance(tile_now, str) else -1)
        if act in ("CHI", "PENG"):
            last = ("PLAY", p, _tile(disp["tile"]))
    return game


def _claim_tile(verb: str, args: list, tile: int) -> int:
    return _tile(args[0]) if verb == "CHI" and args else tile


# ---------------------------------------------------------------- engine driver
_VERB = {
    "PLAY": G.A_DISCARD,
    "ANGANG": G.A_ANGANG,
    "BUGANG": G.A_BUGANG,
    "CHI": G.A_CHOW,
    "PENG": G.A_PUNG,
    "GANG": G.A_KONG,
    "HU": G.A_HU,
}
_SEATS = "ESWN"


class _Engine:
    def __init__(self, ruleset):
        self.gctx, _, self.tab, self.suits = engine_context(ruleset, "botzone", 0, ("random",))
        self.work, self.buf = G.new_work(ruleset.n_fans, self.suits)
        self.scratch = self.work[3]
        self.fan = np.zeros(ruleset.n_fans, np.uint8)
        self.acts = np.zeros(G.MAX_ACTIONS, np.int64)
        self.rs = ruleset


def _describe(a: int) -> str:
    return f"{G.ACTION_NAMES[a // 64]} {BOTZONE_CODES[a % 64]}" if a else "pass"


def _replay_one(game: _Game, eng: _Engine) -> tuple[bool, bool, str]:
    """``(legal, matched, problem)`` of one game."""
    S = np.zeros(G.N_STATE, np.int64)
    wall = game.wall if game.wall is not None else _text_wall(game)
    eng.gctx[G.G_ROUND] = game.round_wind
    if G.new_game(S, wall, G.WALL_BOTZONE, game.round_wind) != G.E_OK:
        return False, False, "the wall is not 136 tiles of 4 copies each"
    for p in range(4):
        dealt = np.bincount(np.array(game.deals[p], np.int64), minlength=34)
        if len(game.deals[p]) != 13 or not (dealt == S[34 * p : 34 * p + 34]).all():
            return False, False, f"seat {p}: the deal differs from the wall's"
    args = (eng.gctx, eng.tab, eng.scratch, eng.fan, eng.buf)
    G.begin_turn(S, 0, False, *args)
    draw_pending = True
    moves = game.moves
    i = 0
    while i < len(moves):
        seat, verb, tile, ignored = moves[i]
        where = f"move {i + 1} (player {seat} {verb} {BOTZONE_CODES[tile] if tile >= 0 else ''})"
        ph = S[G.S_PHASE]
        if ph in (G.PH_CLAIM, G.PH_ROB):
            resp = np.zeros(4, np.int64)
            claimed = -1
            if verb in ("CHI", "PENG", "GANG", "HU") and seat != S[G.S_LAST_SEAT]:
                claims = [(seat, verb, tile), *ignored]
                claimed = seat
                i += 1
            else:
                claims = []
            for q, v, t in claims:
                a = G.action(_VERB[v], t)
                n = G.legal_response(
                    S, q, eng.gctx, eng.tab, eng.scratch, eng.fan, eng.buf, eng.acts
                )
                if a not in eng.acts[:n]:
                    legal = ", ".join(_describe(int(x)) for x in eng.acts[:n])
                    return False, False, f"{where}: player {q} {v} is not legal (legal: {legal})"
                resp[q] = a
            taken = G.resolve(S, resp, *args)
            if taken != claimed:
                return (
                    False,
                    False,
                    f"{where}: the engine gives the claim to {taken}, not {claimed}",
                )
            draw_pending = S[G.S_PHASE] == G.PH_OWN and S[G.S_DRAWN] >= 0
            continue
        if ph != G.PH_OWN:
            return False, False, f"{where}: the game has ended"
        if seat != S[G.S_TURN]:
            return False, False, f"{where}: it is player {S[G.S_TURN]}'s turn"
        i += 1
        if verb == "DRAW":
            if not draw_pending or S[G.S_DRAWN] != tile:
                return False, False, f"{where}: the engine's draw is {S[G.S_DRAWN]}"
            draw_pending = False
            continue
        if draw_pending:
            return False, False, f"{where}: the draw is missing"
        if verb == "HU":
            a = G.action(G.A_TSUMO, S[G.S_DRAWN])
        elif verb == "GANG":
            a = G.action(G.A_ANGANG, tile)
        else:
            a = G.action(_VERB.get(verb, -1), tile)
        n = G.legal_own(S, eng.acts)
        if a not in eng.acts[:n]:
            legal = ", ".join(_describe(int(x)) for x in eng.acts[:n])
            return False, False, f"{where}: not legal (legal: {legal})"
        G.apply_own(S, a, *args)
        draw_pending = S[G.S_PHASE] == G.PH_OWN and S[G.S_DRAWN] >= 0
        if not G.check_tiles(S):
            return False, False, f"{where}: tile invariant broken"
    if S[G.S_PHASE] in (G.PH_CLAIM, G.PH_ROB):  # the last discard, unclaimed
        G.resolve(S, np.zeros(4, np.int64), *args)
    return _compare_end(game, S, eng)


def _compare_end(game: _Game, S: np.ndarray, eng: _Engine) -> tuple[bool, bool, str]:
    ph = S[G.S_PHASE]
    scores = tuple(int(x) for x in S[G.S_SCORE : G.S_SCORE + 4])
    if game.result == "drawn":
        if ph != G.PH_DRAWN:
            return True, False, "the record is a drawn game, the engine's game is not over"
    elif game.result == "win":
        if ph != G.PH_WIN:
            return True, False, "the record ends in a win the engine did not reach"
        judge, unknown = judge_fan_counts([game.fans], eng.rs)
        if unknown[0]:
            return True, False, f"unknown fan names {unknown[0]}"
        diff = [
            f"{eng.rs.fans[f].zh}: judge {judge[0, f]}, engine {eng.fan[f]}"
            for f in np.flatnonzero(judge[0] != eng.fan)
        ]
        if diff or S[G.S_TOTAL] != game.total:
            return (
                True,
                False,
                f"fans differ (total judge {game.total}, engine {S[G.S_TOTAL]}): "
                + "; ".join(diff),
            )
    else:
        return True, False, "the record has no end (no 'Fan'/'Huang')"
    if game.scores and scores != tuple(game.scores):
        return True, False, f"scores differ: judge {list(game.scores)}, engine {list(scores)}"
    return True, True, ""


def _games(path: Path):
    if path.is_dir():
        for p in sorted(path.iterdir()):
            if p.is_dir() or p.suffix == ".json":
                yield from _games(p)
            elif p.suffix == ".txt" and not p.name.lower().startswith("readme"):
                yield from _games(p)
        return
    if path.suffix == ".json":
        yield _json_game(path)
    else:
        yield from _text_games(path)


@notice("replay")  # says so while the first call compiles the engine
def replay(path, ruleset=None) -> pd.DataFrame:
    """Replay Botzone records (text data set, JSON judge log, or a folder) through the engine.

    Every recorded action, with the ``Ignore`` claims (in a JSON log: the bots'
    claims the judge did not take), must be legal in the engine's state at that
    point, the claim the engine takes must be the recorded one, and the end
    (winner, fans, total, the four scores) must equal the judge's.

    Parameters
    ----------
    path : str or os.PathLike
        A text record file (``sample.txt``), a ``.json`` judge log, or a folder
        (its ``*.json`` and ``*.txt`` files and subfolders, sorted by name, README
        files skipped).
    ruleset : Ruleset, optional
        Default: MCR with the Botzone judge's options
        (:func:`mjstats.records.check.botzone_ruleset`).

    Returns
    -------
    pandas.DataFrame
        One row per game: ``source``, ``game`` (match id), ``legal`` (every action
        legal), ``matched`` (legal and the same end), ``problem`` (empty when all
        is well, else the first illegal action or difference).

    Raises
    ------
    ReplayError
        A file that is not a game record (unknown line, tile code, malformed JSON).

    Examples
    --------
    >>> from mjstats.games import replay
    >>> from pathlib import Path
    >>> import mjstats
    >>> data = Path(mjstats.__file__).parents[1] / "tests" / "data" / "botzone"
    >>> table = replay(data / "sample.txt")
    >>> len(table), int(table.legal.sum()), int(table.matched.sum())
    (16, 16, 16)
    """

    p = Path(os.fspath(path))
    if not p.exists():
        raise FileNotFoundError(f"no such file or directory: {str(p)!r}")
    eng = _Engine(botzone_ruleset() if ruleset is None else ruleset)
    rows = []
    for game in _games(p):
        try:
            legal, matched, problem = _replay_one(game, eng)
        except ReplayError as exc:
            legal, matched, problem = False, False, str(exc)
        rows.append((game.source, game.match_id, legal, matched, problem))
    return pd.DataFrame(rows, columns=["source", "game", "legal", "matched", "problem"])
