"""Numba reader of Botzone's text data set: each game's lines become the engine's log.

:func:`scan_text` reads a chunk of the official text data set (raw bytes, whole games
only) and writes, per game, what the game engine replays (:mod:`mjstats.games.replay_kernel`):

* the wall: Botzone's judge gives each player a segment of 34 tiles, taken from its
  end (the deal, then the draws, kong replacements included); a segment holds the
  player's deal and draws in order, and the tiles nobody drew fill the rest;
* the moves, as rows of the engine's game log ``[seat, kind, tile, ignored]``
  (:data:`~mjstats.games.driver.LOG_DRAW` for a draw, an action kind ``A_*`` else;
  the claims of an ``Ignore`` list, which the judge passed over, with ``ignored`` 1),
  each with the line it was read from;
* how the record ends: ``Fan`` (the judge's total and the byte span of its fan list),
  or ``Huang`` (drawn), then the four ``Score`` values, and the tile its ``Hu`` line
  names.

This module checks only the form of the records (lines, words, tile codes, the order
of ``Match``/``Wind``/deals/moves/``Fan``/``Score``, more than four copies of a tile,
a segment drawn past its end). Whether each move is legal, which claim the rules give
priority, whether the game ends where the record says and how the win scores, is the
game engine's to say, the same rules for real and simulated games.

A known quirk of the data set: the ``Hu`` line of a self-drawn win repeats the
previous discard; the winning tile is the player's draw. Such a ``Hu`` line must name
one of the two (:data:`E_HU_TILE` else).
"""

from __future__ import annotations

import numpy as np

from mjstats.games.driver import LOG_DRAW
from mjstats.games.state import A_ANGANG, A_BUGANG, A_CHOW, A_DISCARD, A_HU, A_KONG, A_PUNG, A_TSUMO
from mjstats.kernels._jit import jit

# ---------------------------------------------------------------------------
# columns of the game table (one row per game)
G_STATUS = 0  # G_WIN, G_DRAWN or G_BAD
G_LINE = 1  # line of the Match line
G_MSTART = 2  # byte span of the match id
G_MEND = 3
G_ERR = 4  # E_* of a bad game
G_ERR_LINE = 5
G_WIND = 6  # round wind 0-3
G_HU_LINE = 7
G_HU_TILE = 8  # the tile the Hu line names
G_TOTAL = 9  # the Fan line's total
G_FSTART = 10  # byte span of the Fan line's fan list
G_FEND = 11
G_END_LINE = 12  # the Fan or Huang line
G_SCORE = 13  # 4 scores
G_SCORE_LINE = 17
G_LOG = 18  # first row of the game in the log table
G_NLOG = 19  # its number of rows
N_G = 20

# game status
G_WIN = 0
G_DRAWN = 1
G_BAD = 2

# error codes (messages in ERRORS, same order)
E_OK = 0
E_SYNTAX = 1
E_TILE = 2
E_PLAYER = 3
E_ACTION = 4
E_NO_GAME = 5
E_FIVE = 6
E_DEAL = 7
E_WALL_EMPTY = 8
E_HU_TILE = 9
E_FAN_PLACE = 10
E_SCORE_PLACE = 11
E_TRUNCATED = 12
E_AFTER_END = 13
E_WIND = 14
E_FAN = 15
E_WIND_PLACE = 16
E_SCORE = 17
E_HUANG_PLACE = 18
ERRORS = (
    "no error",
    "malformed line",
    "unknown tile code",
    "player number must be 0-3",
    "unknown action",
    "line before the first 'Match' line",
    "more than 4 copies of a tile dealt or drawn",
    "bad deal (each player is dealt 13 tiles once, before play)",
    "draw from an empty wall segment (each player draws at most 21 tiles)",
    "the 'Hu' line names neither the tile drawn nor the last discard",
    "'Fan' line without a 'Hu' line before it, or a second one",
    "'Score' line without 'Fan' or 'Huang' before it, or a second one",
    "game is truncated (it ends without its 'Score' line)",
    "line after the end of the game",
    "bad 'Wind' line (expected 'Wind 0'..'Wind 3')",
    "bad 'Fan' line (expected 'Fan <total> <name>*<count>+...')",
    "'Wind' line missing, repeated or out of place (expected once, right after 'Match')",
    "bad 'Score' line (expected 'Score' and four whole numbers)",
    "'Huang' (drawn game) after a 'Hu' line, or a second one",
)

# text ops of a Player line (before they become log rows)
OP_DEAL = 1
OP_DRAW = 2
OP_PLAY = 3
OP_CHI = 4  # tile = middle tile of the chow
OP_PENG = 5
OP_GANG = 6  # a kong on a discard; on one's own turn, read as a concealed kong
OP_ANGANG = 7
OP_BUGANG = 8
OP_HU = 9


def _word(text):
    return np.frombuffer(text.encode("ascii"), np.uint8).copy()


# keywords, frozen into the compiled kernel as constants
_KW_MATCH = _word("Match ")
_KW_PLAYER = _word("Player ")
_KW_WIND = _word("Wind ")
_KW_FAN = _word("Fan ")
_KW_HUANG = _word("Huang")
_KW_SCORE = _word("Score ")
_KW_IGNORE = _word(" Ignore ")
_KW_DEAL = _word("Deal")
_KW_DRAW = _word("Draw")
_KW_PLAY = _word("Play")
_KW_CHI = _word("Chi")
_KW_PENG = _word("Peng")
_KW_GANG = _word("Gang")
_KW_ANGANG = _word("AnGang")
_KW_BUGANG = _word("BuGang")
_KW_HU = _word("Hu")

# per-game parse state (one int64 vector, reset at each Match line)
P_PHASE = 0  # 1 after Match, 2 after Wind (dealing), 3 playing, 4 after Fan/Huang, 5 done
P_NDEAL = 1  # 4 tiles dealt per player
P_NSEQ = 5  # 4 tiles taken per player (deal + draws)
P_SEQ = 9  # 4 x 34 tiles taken, in order
P_COPIES = 145  # 34 copies dealt or drawn
P_PREV_SEAT = 179  # seat and op of the previous move line
P_PREV_OP = 180
P_PREV_TILE = 181
P_LAST_DISCARD = 182  # the last tile played (discarded), -1 none
P_DRAWN = 183  # 4: the last tile each player drew
P_HU = 187  # 1 after the Hu line
P_HUANG = 188
N_P = 192


@jit
def _tile_at(buf, i, end):
    """Tile id of the 2-byte Botzone code at ``buf[i:i+2]`` (followed by a space
    or the end of the line), or -1."""
    if i + 1 >= end:
        return -1
    if i + 2 < end and buf[i + 2] != 32:
        return -1
    c = buf[i]
    d = np.int64(buf[i + 1]) - 48
    if c == 87:  # W characters
        return d - 1 if 1 <= d <= 9 else -1
    if c == 66:  # B dots
        return 8 + d if 1 <= d <= 9 else -1
    if c == 84:  # T bamboo
        return 17 + d if 1 <= d <= 9 else -1
    if c == 70:  # F winds
        return 26 + d if 1 <= d <= 4 else -1
    if c == 74:  # J dragons: J1 red 33, J2 green 32, J3 white 31
        return 34 - d if 1 <= d <= 3 else -1
    return -1


@jit
def _starts(buf, i, end, word):
    """Does ``buf[i:end]`` start with the bytes of ``word``?"""
    n = word.shape[0]
    if i + n > end:
        return False
    for k in range(n):
        if buf[i + k] != word[k]:
            return False
    return True


@jit
def _is(buf, i, e, word):
    """Is ``buf[i:e]`` exactly ``word``?"""
    return e - i == word.shape[0] and _starts(buf, i, e, word)


@jit
def _action(buf, a, ae):
    """Op code of the action word ``buf[a:ae]`` of a Player line (0 if unknown)."""
    n = ae - a
    if n < 2:
        return 0
    c0 = buf[a]
    c1 = buf[a + 1]
    if n == 4:
        if c0 == 68:  # D
            if c1 == 114:
                return OP_DRAW if _starts(buf, a, ae, _KW_DRAW) else 0
            return OP_DEAL if _starts(buf, a, ae, _KW_DEAL) else 0
        if c0 == 80:  # P
            if c1 == 108:
                return OP_PLAY if _starts(buf, a, ae, _KW_PLAY) else 0
            return OP_PENG if _starts(buf, a, ae, _KW_PENG) else 0
        return OP_GANG if _starts(buf, a, ae, _KW_GANG) else 0
    if n == 3:
        return OP_CHI if _starts(buf, a, ae, _KW_CHI) else 0
    if n == 2:
        return OP_HU if _starts(buf, a, ae, _KW_HU) else 0
    if n == 6:
        if c0 == 65:
            return OP_ANGANG if _starts(buf, a, ae, _KW_ANGANG) else 0
        return OP_BUGANG if _starts(buf, a, ae, _KW_BUGANG) else 0
    return 0


@jit
def _take(ps, p, t):
    """Player ``p`` takes tile ``t`` from its wall segment (deal or draw)."""
    k = ps[P_NSEQ + p]
    if k >= 34:
        return E_WALL_EMPTY
    ps[P_SEQ + 34 * p + k] = t
    ps[P_NSEQ + p] = k + 1
    ps[P_COPIES + t] += 1
    if ps[P_COPIES + t] > 4:
        return E_FIVE
    return E_OK


@jit
def _claim_kind(op):
    """Log kind of a claim op (of a move or of an Ignore entry); -1 if not a claim."""
    if op == OP_CHI:
        return A_CHOW
    if op == OP_PENG:
        return A_PUNG
    if op == OP_GANG:
        return A_KONG
    if op == OP_HU:
        return A_HU
    return -1


@jit
def _row(logs, lines, r, seat, kind, tile, ignored, line):
    """Write log row ``r`` (if it fits) and return ``r + 1``."""
    if r < logs.shape[0]:
        logs[r, 0] = seat
        logs[r, 1] = kind
        logs[r, 2] = tile
        logs[r, 3] = ignored
        lines[r] = line
    return r + 1


@jit
def _player_line(buf, pos, end, line, ps, logs, lines, r, hu_tile):
    """Read one ``Player N ...`` line: a deal, or a move and its Ignore list, written
    as log rows from row ``r``. Returns ``(error code, next row)``; ``hu_tile[0]``
    receives the tile a Hu line names."""
    i = pos + 7
    if i + 1 >= end:
        return E_SYNTAX, r
    p = np.int64(buf[i]) - 48
    if p < 0 or p > 3 or buf[i + 1] != 32:
        return E_PLAYER, r
    a = i + 2
    ae = a
    while ae < end and buf[ae] != 32:
        ae += 1
    op = _action(buf, a, ae)
    if op == 0:
        return E_ACTION, r
    phase = ps[P_PHASE]
    if op == OP_DEAL:
        if phase != 2 or ps[P_NDEAL + p] != 0:
            return E_DEAL, r
        k = ae + 1
        cnt = 0
        while k < end:
            t = _tile_at(buf, k, end)
            if t < 0:
                return E_TILE, r
            cnt += 1
            if cnt > 13:
                return E_DEAL, r
            err = _take(ps, p, t)
            if err != E_OK:
                return err, r
            k += 3
        if cnt != 13:
            return E_DEAL, r
        ps[P_NDEAL + p] = 13
        return E_OK, r
    if phase != 3:
        return E_DEAL if phase == 2 else E_AFTER_END, r
    if ps[P_HU] != 0:
        return E_AFTER_END, r
    t = _tile_at(buf, ae + 1, end)
    if t < 0:
        return E_TILE, r
    # does this move answer another player's discard or promoted kong?
    prev = ps[P_PREV_OP]
    answers = ps[P_PREV_SEAT] != p and (prev == OP_PLAY or prev == OP_BUGANG)
    if op == OP_DRAW:
        err = _take(ps, p, t)
        if err != E_OK:
            return err, r
        ps[P_DRAWN + p] = t
        r = _row(logs, lines, r, p, LOG_DRAW, t, 0, line)
    elif op == OP_PLAY:
        ps[P_LAST_DISCARD] = t
        r = _row(logs, lines, r, p, A_DISCARD, t, 0, line)
    elif op == OP_ANGANG or (op == OP_GANG and not answers):
        r = _row(logs, lines, r, p, A_ANGANG, t, 0, line)
    elif op == OP_BUGANG:
        r = _row(logs, lines, r, p, A_BUGANG, t, 0, line)
    elif op == OP_HU and not answers:
        # self-drawn: the winning tile is the draw; the line may name it, or repeat
        # the last discard (the data set's quirk)
        w = ps[P_DRAWN + p]
        if t != w and t != ps[P_LAST_DISCARD]:
            return E_HU_TILE, r
        hu_tile[0] = t
        ps[P_HU] = 1
        r = _row(logs, lines, r, p, A_TSUMO, w, 0, line)
    else:  # a claim on the discard (or the robbed kong) named by the line's tile
        if op == OP_HU:
            hu_tile[0] = t
            ps[P_HU] = 1
        r = _row(logs, lines, r, p, _claim_kind(op), t, 0, line)
    # the claims the judge passed over: " Ignore Player q Verb T", repeated
    k = ae + 3
    while k != end:
        if not (op == OP_HU or op == OP_PENG or op == OP_GANG or op == OP_CHI):
            return E_SYNTAX, r
        if not _starts(buf, k, end, _KW_IGNORE):
            return E_SYNTAX, r
        k += 8
        if not _starts(buf, k, end, _KW_PLAYER) or k + 8 >= end or buf[k + 8] != 32:
            return E_SYNTAX, r
        q = np.int64(buf[k + 7]) - 48
        if q < 0 or q > 3:
            return E_PLAYER, r
        va = k + 9
        ve = va
        while ve < end and buf[ve] != 32:
            ve += 1
        kind = _claim_kind(_action(buf, va, ve))
        if kind < 0:
            return E_ACTION, r
        qt = _tile_at(buf, ve + 1, end)
        if qt < 0:
            return E_TILE, r
        r = _row(logs, lines, r, q, kind, qt, 1, line)
        k = ve + 3
        if k > end:
            return E_SYNTAX, r
    ps[P_PREV_SEAT] = p
    ps[P_PREV_OP] = op
    ps[P_PREV_TILE] = t
    return E_OK, r


@jit
def fill_segments(seq, n_seq, copies, wall):
    """The 136-tile Botzone wall of a game: segment ``p`` (``wall[34p:34p+34]``, taken
    from its end) holds the ``n_seq[p]`` tiles ``seq[34p:]`` player ``p`` was dealt and
    drew, in order, then the tiles nobody took (``copies``: copies taken of each kind,
    at most 4), highest kind first. The one rule for both record formats.

    Examples
    --------
    >>> import numpy as np
    >>> seq = np.zeros(136, np.int64); seq[:2] = 0, 1; seq[102] = 33
    >>> copies = np.zeros(34, np.int64); copies[[0, 1, 33]] = 1
    >>> wall = np.zeros(136, np.int64)
    >>> fill_segments(seq, np.array([2, 0, 0, 1]), copies, wall)
    >>> int(wall[33]), int(wall[32]), int(wall[135]), int(np.bincount(wall).max())
    (0, 1, 33, 4)
    """
    left = np.empty(34, np.int64)
    for t in range(34):
        left[t] = 4 - copies[t]
    t = 33
    for p in range(4):
        n = n_seq[p]
        for k in range(34):
            if k < n:
                wall[34 * p + 33 - k] = seq[34 * p + k]
            else:
                while left[t] == 0:
                    t -= 1
                left[t] -= 1
                wall[34 * p + 33 - k] = t


@jit
def _fill_wall(ps, wall):
    """The wall of the game read so far (its parse state ``ps``)."""
    fill_segments(ps[P_SEQ : P_SEQ + 136], ps[P_NSEQ : P_NSEQ + 4], ps[P_COPIES : P_COPIES + 34],
                  wall)  # fmt: skip


@jit
def _number(buf, k, end):
    """The (optionally negative) whole number at ``buf[k:]`` ended by a space or the
    line's end: ``(value, next index, ok)``."""
    neg = k < end and buf[k] == 45
    if neg:
        k += 1
    v = 0
    nd = 0
    while k < end and 48 <= buf[k] <= 57 and nd < 9:
        v = v * 10 + np.int64(buf[k]) - 48
        k += 1
        nd += 1
    ok = nd > 0 and (k == end or buf[k] == 32)
    return (-v if neg else v), k, ok


@jit
def scan_text(buf, stop_on_error, g_info, walls, logs, lines):
    """Read every game in ``buf`` (uint8 bytes of whole games of the text data set).

    Writes game ``g``'s row of ``g_info`` (``G_*`` columns), its wall ``walls[g]``
    and its log rows ``logs[g_info[g, G_LOG]:][:g_info[g, G_NLOG]]`` (with their
    line numbers in ``lines``). Line numbers are 1-based within ``buf``, byte
    offsets index ``buf``. Returns ``(n_games, n_rows, n_lines, overflow)``; with
    ``stop_on_error`` the scan ends at the first bad game; ``overflow``: a table was
    too small (nothing usable was written; call again with more rows).
    """
    ps = np.zeros(N_P, np.int64)
    hu_tile = np.zeros(1, np.int64)
    n = buf.shape[0]
    pos = 0
    line = 0
    g = -1  # current game row
    r = 0  # next log row
    bad = False  # skipping to the next Match line
    while pos < n:
        end = pos
        while end < n and buf[end] != 10:
            end += 1
        nxt = end + 1
        line += 1
        if end > pos and buf[end - 1] == 13:
            end -= 1
        if end == pos:
            pos = nxt
            continue
        err = E_OK
        c = buf[pos]
        phase = ps[P_PHASE]
        if c == 80 and not bad and phase >= 2 and _starts(buf, pos, end, _KW_PLAYER):
            err, r = _player_line(buf, pos, end, line, ps, logs, lines, r, hu_tile)
            if err == E_OK and phase == 2:
                dealt = 0
                for p in range(4):
                    dealt += ps[P_NDEAL + p]
                if dealt == 52:
                    ps[P_PHASE] = 3
            if err == E_OK and ps[P_HU] == 1 and g_info[g, G_HU_LINE] == 0:
                g_info[g, G_HU_LINE] = line
                g_info[g, G_HU_TILE] = hu_tile[0]
        elif c == 77 and _starts(buf, pos, end, _KW_MATCH):
            if g >= 0 and not bad and phase != 5:
                # the previous game ended without its Score line
                g_info[g, G_STATUS] = G_BAD
                g_info[g, G_ERR] = E_TRUNCATED
                g_info[g, G_ERR_LINE] = line - 1
                r = _keep_moves(ps, g_info[g], walls[g], r, E_TRUNCATED)
                if stop_on_error:
                    return g + 1, r, line, False
            g += 1
            if g >= g_info.shape[0]:
                return g, r, line, True  # out of rows: the caller retries with more
            for k in range(N_G):
                g_info[g, k] = 0
            g_info[g, G_STATUS] = G_BAD
            g_info[g, G_LINE] = line
            g_info[g, G_MSTART] = pos + 6
            g_info[g, G_MEND] = end
            g_info[g, G_LOG] = r
            ps[:] = 0
            ps[P_PHASE] = 1
            ps[P_PREV_SEAT] = -1
            ps[P_LAST_DISCARD] = -1
            for p in range(4):
                ps[P_DRAWN + p] = -1
            bad = False
            pos = nxt
            continue
        elif bad:
            pos = nxt
            continue
        elif g < 0:
            err = E_NO_GAME
        elif c == 80 and _starts(buf, pos, end, _KW_PLAYER):
            err = E_WIND_PLACE if phase == 1 else E_AFTER_END
        elif c == 87 and _starts(buf, pos, end, _KW_WIND):
            if phase != 1:
                err = E_WIND_PLACE
            elif end != pos + 6 or not 48 <= buf[pos + 5] <= 51:
                err = E_WIND
            else:
                g_info[g, G_WIND] = np.int64(buf[pos + 5]) - 48
                ps[P_PHASE] = 2
        elif c == 70 and _starts(buf, pos, end, _KW_FAN):
            if phase != 3 or ps[P_HU] == 0:
                err = E_FAN_PLACE
            else:
                v, k, ok = _number(buf, pos + 4, end)
                if not ok or v < 0:
                    err = E_FAN
                else:
                    g_info[g, G_TOTAL] = v
                    g_info[g, G_FSTART] = k + 1 if k < end else end
                    g_info[g, G_FEND] = end
                    g_info[g, G_END_LINE] = line
                    ps[P_PHASE] = 4
        elif c == 72 and _is(buf, pos, end, _KW_HUANG):
            if phase != 3 or ps[P_HU] != 0:
                err = E_HUANG_PLACE
            else:
                ps[P_HUANG] = 1
                ps[P_PHASE] = 4
                g_info[g, G_END_LINE] = line
        elif c == 83 and _starts(buf, pos, end, _KW_SCORE):
            if phase != 4:
                err = E_SCORE_PLACE
            else:
                k = pos + 6
                for p in range(4):
                    v, k, ok = _number(buf, k, end)
                    if not ok:
                        err = E_SCORE
                        break
                    g_info[g, G_SCORE + p] = v
                    k += 1
                if err == E_OK and k < end:
                    err = E_SCORE
                if err == E_OK:
                    g_info[g, G_SCORE_LINE] = line
                    g_info[g, G_STATUS] = G_DRAWN if ps[P_HUANG] == 1 else G_WIN
                    g_info[g, G_NLOG] = r - g_info[g, G_LOG]
                    _fill_wall(ps, walls[g])
                    ps[P_PHASE] = 5
        else:
            err = E_SYNTAX if phase != 5 else E_AFTER_END
        if err == E_OK and r > logs.shape[0]:
            return g + 1, r, line, True
        if err != E_OK:
            if g < 0:
                # junk before the first game: reported as game row 0
                g = 0
                for k in range(N_G):
                    g_info[0, k] = 0
                g_info[0, G_LINE] = line
                g_info[0, G_MSTART] = pos
                g_info[0, G_MEND] = pos
            g_info[g, G_STATUS] = G_BAD
            g_info[g, G_ERR] = err
            g_info[g, G_ERR_LINE] = line
            r = _keep_moves(ps, g_info[g], walls[g], r, err)
            bad = True
            if stop_on_error:
                return g + 1, r, line, False
        pos = nxt
    if g >= 0 and not bad and ps[P_PHASE] != 5:
        g_info[g, G_STATUS] = G_BAD
        g_info[g, G_ERR] = E_TRUNCATED
        g_info[g, G_ERR_LINE] = line
        r = _keep_moves(ps, g_info[g], walls[g], r, E_TRUNCATED)
    return g + 1, r, line, False


@jit
def _keep_moves(ps, info, wall, r, err):
    """A bad game keeps the moves read before its error (and a wall for them), so that
    the engine can find an earlier problem in them; returns the next free log row."""
    fits = err != E_FIVE and err != E_WALL_EMPTY and ps[P_PHASE] >= 3
    if fits:
        for t in range(34):
            fits = fits and ps[P_COPIES + t] <= 4
    if not fits:  # no wall holds these tiles: nothing to replay
        info[G_NLOG] = 0
        return info[G_LOG]
    info[G_NLOG] = r - info[G_LOG]
    _fill_wall(ps, wall)
    return r
