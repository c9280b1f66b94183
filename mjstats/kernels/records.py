"""Numba kernels that replay Botzone Chinese Standard Mahjong games.

Two entry points share one replay step (:func:`_step`), so the text data set and
the JSON judge logs follow exactly the same rules:

* :func:`scan_text` tokenises a chunk of the official text data set (raw bytes,
  whole games only) and replays every game in it, writing each win into
  preallocated output arrays. No Python object is touched per line.
* :func:`replay_events` replays one game given as an ``int64 (n, 4)`` event table
  ``[op, player, tile, where]`` (built in Python from a JSON judge log).

Tiles are mjstats ids (0-8 characters, 9-17 dots, 18-26 bamboo, 27-30 winds
E S W N, 31 white, 32 green, 33 red). Players are seats 0-3 = East, South, West,
North (Botzone player N has seat wind N; player 0 is the dealer).

Rules replayed (those of the Botzone judge, which gives each player a wall segment):

* each player draws only from their own segment (``wall_draws`` tiles after the
  deal, 21 for 136 tiles), kong replacement tiles included; the game is drawn when
  the player due to draw has an empty segment;
* *last tile of the wall* (妙手回春 / 海底捞月): after the draw, discard or kong of
  player ``q``, the segment of player ``q + 1`` is empty (nobody can draw again);
* *和绝张*: the three other copies of the winning tile are visible: unclaimed
  discards plus the tiles of exposed melds (chow, pung, exposed or promoted kong);
* kong flag: self-drawn on the replacement tile after the winner's own kong
  (杠上开花), or winning on another player's promoted kong (抢杠和).

The whole per-game state is one ``int64`` vector (layout ``O_*`` below) so that
helper calls pass a single array. Errors are returned as codes (messages in
``mjstats.records.botzone.ERRORS``); kernels never raise.
"""

from __future__ import annotations

import numpy as np

from mjstats.kernels._jit import jit

# ---------------------------------------------------------------------------
# event ops (also used by the JSON reader)
OP_DEAL = 1  # one dealt tile
OP_DRAW = 2
OP_PLAY = 3
OP_CHI = 4  # tile = middle tile of the chow
OP_PENG = 5
OP_GANG = 6  # exposed kong on a discard
OP_ANGANG = 7  # concealed kong
OP_BUGANG = 8  # promoted kong (加杠)
OP_HU = 9  # tile = recorded tile, or -1 to take it from the replay

# win types
WIN_DISCARD = 0
WIN_SELF_DRAWN = 1
WIN_ROBBED_KONG = 2

# layout of the state vector
O_HAND = 0  # 4 x 34 concealed counts
O_HSIZE = 136  # 4 concealed tile totals
O_MELD = 140  # 4 players x 4 melds x (kind, tile)
O_NMELD = 172  # 4 meld counts
O_SHOWN = 176  # 34 visible copies (unclaimed discards + exposed melds)
O_SEEN = 210  # 34 copies taken from the wall (deal + draws)
O_WALL = 244  # 4 tiles left in each player's wall segment
O_NDEAL = 248  # 4 tiles dealt to each player
O_FLOWER = 252  # 4 flower counts (always 0 on Botzone)
O_LAST_OP = 256
O_LAST_P = 257
O_LAST_T = 258
O_KONG_DRAW = 259  # the last draw was a kong replacement tile
O_WINNER = 260
O_WIN_TILE = 261
O_WIN_TYPE = 262
O_FROM = 263
O_LAST_KIND = 264
O_LAST_WALL = 265
O_KONG_WIN = 266
O_DEALT = 267  # tiles dealt in all
N_STATE = 272

# columns of the game table g_info (one row per game)
G_STATUS = 0
G_LINE = 1  # line of the Match line
G_MSTART = 2  # byte span of the match id
G_MEND = 3
G_ERR = 4
G_ERR_LINE = 5
N_G = 6

# game status
G_WIN = 0
G_DRAWN = 1
G_BAD = 2

# columns of the win table w_info (one row per win)
W_GAME = 0  # game row
W_LINE = 1  # line of the Hu line
W_TOTAL = 2  # recorded fan total
W_FSTART = 3  # byte span of the fan description
W_FEND = 4
W_TILE = 5
W_SELF = 6
W_LAST_KIND = 7
W_KONG = 8
W_LAST_WALL = 9
W_SEAT = 10
W_ROUND = 11
W_FLOWERS = 12
W_FROM = 13
W_TYPE = 14
N_W = 16

# error codes (messages in botzone.ERRORS, same order)
E_OK = 0
E_SYNTAX = 1
E_TILE = 2
E_PLAYER = 3
E_ACTION = 4
E_NO_GAME = 5
E_FIVE = 6
E_DEAL = 7
E_DRAW_TURN = 8
E_WALL_EMPTY = 9
E_PLAY_TURN = 10
E_NOT_IN_HAND = 11
E_CHI_TURN = 12
E_CHI_SHAPE = 13
E_CLAIM_TURN = 14
E_CLAIM_TILE = 15
E_KONG_TURN = 16
E_BUGANG = 17
E_HU_TURN = 18
E_HU_TILE = 19
E_FAN_PLACE = 20
E_SCORE_PLACE = 21
E_TRUNCATED = 22
E_AFTER_END = 23
E_WIND = 24
E_MELDS = 25
E_FAN = 26
E_WIND_PLACE = 27
E_HAND_SIZE = 28
E_HUANG_PLACE = 29


def new_state() -> np.ndarray:
    """A state vector for :func:`replay_events` (allocate once, reuse per game)."""
    return np.zeros(N_STATE, np.int64)


@jit
def reset_state(s, wall_draws):
    """Clear the state vector ``s`` for a new game."""
    s[:] = 0
    for p in range(4):
        s[O_WALL + p] = wall_draws
    s[O_LAST_P] = -1
    s[O_LAST_T] = -1
    s[O_WINNER] = -1
    s[O_WIN_TILE] = -1
    s[O_FROM] = -1


@jit
def _take(s, p, t, k):
    """Remove ``k`` copies of tile ``t`` from player ``p``'s hand; False if short."""
    h = O_HAND + 34 * p + t
    if s[h] < k:
        return False
    s[h] -= k
    s[O_HSIZE + p] -= k
    return True


@jit
def _add(s, p, t):
    s[O_HAND + 34 * p + t] += 1
    s[O_HSIZE + p] += 1


@jit
def _add_meld(s, p, kind, t):
    m = s[O_NMELD + p]
    if m >= 4:
        return False
    s[O_MELD + 8 * p + 2 * m] = kind
    s[O_MELD + 8 * p + 2 * m + 1] = t
    s[O_NMELD + p] = m + 1
    return True


@jit
def _deal(s, p, t):
    """Deal tile ``t`` to player ``p``; return an error code."""
    if s[O_LAST_OP] != 0 or s[O_NDEAL + p] >= 13:
        return E_DEAL
    s[O_SEEN + t] += 1
    if s[O_SEEN + t] > 4:
        return E_FIVE
    _add(s, p, t)
    s[O_NDEAL + p] += 1
    s[O_DEALT] += 1
    return E_OK


@jit
def _step(op, p, t, s):
    """Apply one game event to the state ``s``; return an error code (0 = fine).

    ``op`` is one of the ``OP_*`` codes, ``p`` the player (0-3), ``t`` the tile
    id (for ``OP_HU``: the recorded tile, or -1).
    """
    last_op = s[O_LAST_OP]
    last_p = s[O_LAST_P]
    last_t = s[O_LAST_T]
    if s[O_WINNER] >= 0:
        return E_AFTER_END
    if op == OP_DEAL:
        return _deal(s, p, t)
    if op == OP_DRAW:
        kong = last_op == OP_GANG or last_op == OP_ANGANG or last_op == OP_BUGANG
        if last_op == 0:
            if s[O_DEALT] != 52:
                return E_DEAL
            if p != 0:
                return E_DRAW_TURN
        elif last_op == OP_PLAY:
            if p != (last_p + 1) % 4:
                return E_DRAW_TURN
        elif kong:
            if p != last_p:
                return E_DRAW_TURN
        else:
            return E_DRAW_TURN
        if s[O_WALL + p] <= 0:
            return E_WALL_EMPTY
        s[O_WALL + p] -= 1
        s[O_SEEN + t] += 1
        if s[O_SEEN + t] > 4:
            return E_FIVE
        _add(s, p, t)
        s[O_KONG_DRAW] = 1 if kong else 0
    elif op == OP_PLAY:
        if not ((last_op == OP_DRAW or last_op == OP_CHI or last_op == OP_PENG) and last_p == p):
            return E_PLAY_TURN
        if not _take(s, p, t, 1):
            return E_NOT_IN_HAND
        s[O_SHOWN + t] += 1
    elif op == OP_CHI:
        if last_op != OP_PLAY or p != (last_p + 1) % 4:
            return E_CHI_TURN
        # t = middle tile: suited, rank 2-8, same suit as the discard, within 1 of it
        if t >= 27 or t % 9 == 0 or t % 9 == 8:
            return E_CHI_SHAPE
        if last_t // 9 != t // 9 or last_t < t - 1 or last_t > t + 1:
            return E_CHI_SHAPE
        _add(s, p, last_t)
        for k in range(t - 1, t + 2):
            if not _take(s, p, k, 1):
                return E_NOT_IN_HAND
            if k != last_t:
                s[O_SHOWN + k] += 1
        if not _add_meld(s, p, 1, t - 1):
            return E_MELDS
    elif op == OP_PENG or op == OP_GANG:
        if last_op != OP_PLAY or p == last_p:
            return E_CLAIM_TURN
        if t != last_t:
            return E_CLAIM_TILE
        need = 2 if op == OP_PENG else 3
        if not _take(s, p, t, need):
            return E_NOT_IN_HAND
        s[O_SHOWN + t] += need
        if not _add_meld(s, p, 2 if op == OP_PENG else 3, t):
            return E_MELDS
    elif op == OP_ANGANG:
        if last_op != OP_DRAW or last_p != p:
            return E_KONG_TURN
        if not _take(s, p, t, 4):
            return E_NOT_IN_HAND
        if not _add_meld(s, p, 4, t):
            return E_MELDS
    elif op == OP_BUGANG:
        if last_op != OP_DRAW or last_p != p:
            return E_KONG_TURN
        found = -1
        for m in range(s[O_NMELD + p]):
            if s[O_MELD + 8 * p + 2 * m] == 2 and s[O_MELD + 8 * p + 2 * m + 1] == t:
                found = m
        if found < 0:
            return E_BUGANG
        if not _take(s, p, t, 1):
            return E_NOT_IN_HAND
        s[O_MELD + 8 * p + 2 * found] = 3
        s[O_SHOWN + t] += 1
    elif op == OP_HU:
        if last_op == OP_DRAW and last_p == p:
            # self-drawn: the winning tile is the drawn tile (the text data set
            # repeats the previous discard on the Hu line; it is ignored)
            w = last_t
            wtype = WIN_SELF_DRAWN
            kong = s[O_KONG_DRAW]
            others = s[O_SHOWN + w]
        elif (last_op == OP_PLAY or last_op == OP_BUGANG) and last_p != p and last_p >= 0:
            w = last_t
            if t >= 0 and t != w:
                return E_HU_TILE
            wtype = WIN_DISCARD if last_op == OP_PLAY else WIN_ROBBED_KONG
            kong = 1 if last_op == OP_BUGANG else 0
            others = s[O_SHOWN + w] - 1  # the winning tile itself is on the table
            _add(s, p, w)
        else:
            return E_HU_TURN
        if s[O_HSIZE + p] + 3 * s[O_NMELD + p] != 14:
            return E_HAND_SIZE
        s[O_WINNER] = p
        s[O_WIN_TILE] = w
        s[O_WIN_TYPE] = wtype
        s[O_FROM] = -1 if wtype == WIN_SELF_DRAWN else last_p
        s[O_LAST_KIND] = 1 if others == 3 else 0
        # last tile: the player after the one who drew / discarded / konged has
        # nothing left to draw
        s[O_LAST_WALL] = 1 if s[O_WALL + (last_p + 1) % 4] == 0 else 0
        s[O_KONG_WIN] = kong
        return E_OK
    else:
        return E_ACTION
    s[O_LAST_OP] = op
    s[O_LAST_P] = p
    s[O_LAST_T] = t
    return E_OK


@jit
def _commit(w, s, round_wind, w_info, w_conc, w_melds):
    """Copy the finished game's win into output row ``w``."""
    p = s[O_WINNER]
    for k in range(34):
        w_conc[w, k] = s[O_HAND + 34 * p + k]
    for m in range(4):
        w_melds[w, m, 0] = s[O_MELD + 8 * p + 2 * m]
        w_melds[w, m, 1] = s[O_MELD + 8 * p + 2 * m + 1]
    w_info[w, W_TILE] = s[O_WIN_TILE]
    w_info[w, W_SELF] = 1 if s[O_WIN_TYPE] == WIN_SELF_DRAWN else 0
    w_info[w, W_LAST_KIND] = s[O_LAST_KIND]
    w_info[w, W_KONG] = s[O_KONG_WIN]
    w_info[w, W_LAST_WALL] = s[O_LAST_WALL]
    w_info[w, W_SEAT] = p
    w_info[w, W_ROUND] = round_wind
    w_info[w, W_FLOWERS] = min(s[O_FLOWER + p], 8)
    w_info[w, W_FROM] = s[O_FROM]
    w_info[w, W_TYPE] = s[O_WIN_TYPE]


@jit
def replay_events(events, round_wind, wall_draws, s, w_info, w_conc, w_melds):
    """Replay one game given as events ``[op, player, tile, where]``.

    Returns ``(error_code, where, won)``: on an error, ``where`` is the failing
    event's locator (column 3); ``won`` is 1 when the game ended in a win, which
    is then written to output row 0.
    """
    reset_state(s, wall_draws)
    for i in range(events.shape[0]):
        op = events[i, 0]
        p = events[i, 1]
        t = events[i, 2]
        if p < 0 or p > 3:
            return E_PLAYER, events[i, 3], 0
        if op != OP_HU and (t < 0 or t > 33):
            return E_TILE, events[i, 3], 0
        err = _step(op, p, t, s)
        if err != E_OK:
            return err, events[i, 3], 0
    if s[O_WINNER] < 0:
        return E_OK, -1, 0
    _commit(0, s, round_wind, w_info, w_conc, w_melds)
    return E_OK, -1, 1


# ---------------------------------------------------------------------------
# the text data set


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
def _player_line(buf, pos, end, phase, s):
    """Parse and apply one ``Player N ...`` line; return an error code."""
    i = pos + 7
    if i + 1 >= end:
        return E_SYNTAX
    p = np.int64(buf[i]) - 48
    if p < 0 or p > 3 or buf[i + 1] != 32:
        return E_PLAYER
    a = i + 2
    ae = a
    while ae < end and buf[ae] != 32:
        ae += 1
    op = _action(buf, a, ae)
    if op == 0:
        return E_ACTION
    if op == OP_DEAL:
        if phase != 2 or s[O_NDEAL + p] != 0:
            return E_DEAL
        k = ae + 1
        cnt = 0
        while k < end:
            t = _tile_at(buf, k, end)
            if t < 0:
                return E_TILE
            cnt += 1
            if cnt > 13:
                return E_DEAL
            err = _deal(s, p, t)
            if err != E_OK:
                return err
            k += 3
        if cnt != 13:
            return E_DEAL
        return E_OK
    t = _tile_at(buf, ae + 1, end)
    if t < 0:
        return E_TILE
    rest = ae + 3
    if rest != end:
        # claims may be followed by the claims that the judge ignored
        if not (op == OP_HU or op == OP_PENG or op == OP_GANG or op == OP_CHI):
            return E_SYNTAX
        if not _starts(buf, rest, end, _KW_IGNORE):
            return E_SYNTAX
    return _step(op, p, t, s)


@jit
def scan_text(buf, stop_on_error, g_info, w_info, w_conc, w_melds):
    """Replay every game in ``buf`` (uint8 bytes of whole games of the text data set).

    Line numbers written out are 1-based within ``buf``; byte offsets index
    ``buf``. The game table ``g_info`` (``G_*`` columns) and the win tables
    (``w_info`` with ``W_*`` columns, ``w_conc``, ``w_melds``) are preallocated by
    the caller: one row per ``Match`` line, plus one, suffices. Returns
    ``(n_games, n_wins, n_lines, overflow)``; with ``stop_on_error`` the scan ends at
    the first bad game; ``overflow`` means the tables were too small (nothing
    usable was written: call again with more rows).
    """
    s = np.zeros(N_STATE, np.int64)
    n = buf.shape[0]
    pos = 0
    line = 0
    g = -1  # current game row
    nw = 0
    # phase: 0 before any game, 1 after Match, 2 after Wind (dealing), 3 playing,
    # 4 after Fan/Huang, 5 complete (after Score), 6 bad (skipping to the next Match)
    phase = 0
    rwind = 0
    fan_total = 0
    fstart = 0
    fend = 0
    hu_line = 0
    huang = False
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
        if c == 80 and (phase == 2 or phase == 3) and _starts(buf, pos, end, _KW_PLAYER):
            # the common case first
            err = _player_line(buf, pos, end, phase, s)
            if err == E_OK:
                if phase == 2 and s[O_DEALT] == 52:
                    phase = 3
                elif hu_line == 0 and s[O_WINNER] >= 0:
                    hu_line = line
        elif c == 77 and _starts(buf, pos, end, _KW_MATCH):
            if phase != 0 and phase != 5 and phase != 6:
                # the previous game ended without its Score line
                g_info[g, G_STATUS] = G_BAD
                g_info[g, G_ERR] = E_TRUNCATED
                g_info[g, G_ERR_LINE] = line - 1
                if stop_on_error:
                    return g + 1, nw, line, False
            g += 1
            if g >= g_info.shape[0]:
                return g, nw, line, True  # out of rows: the caller retries with more
            g_info[g, G_STATUS] = G_BAD
            g_info[g, G_LINE] = line
            g_info[g, G_MSTART] = pos + 6
            g_info[g, G_MEND] = end
            g_info[g, G_ERR] = E_OK
            g_info[g, G_ERR_LINE] = 0
            phase = 1
            huang = False
            pos = nxt
            continue
        elif phase == 6:
            pos = nxt
            continue
        elif phase == 0:
            err = E_NO_GAME
        elif c == 80 and _starts(buf, pos, end, _KW_PLAYER):
            err = E_WIND_PLACE if phase == 1 else E_AFTER_END
        elif c == 87 and _starts(buf, pos, end, _KW_WIND):
            if phase != 1:
                err = E_WIND_PLACE
            elif end != pos + 6:
                err = E_WIND
            else:
                rwind = np.int64(buf[pos + 5]) - 48
                if rwind < 0 or rwind > 3:
                    err = E_WIND
                else:
                    reset_state(s, 21)
                    hu_line = 0
                    phase = 2
        elif c == 70 and _starts(buf, pos, end, _KW_FAN):
            if phase != 3 or s[O_WINNER] < 0:
                err = E_FAN_PLACE
            else:
                k = pos + 4
                v = 0
                nd = 0
                while k < end and 48 <= buf[k] <= 57 and nd < 6:
                    v = v * 10 + np.int64(buf[k]) - 48
                    k += 1
                    nd += 1
                if nd == 0 or (k < end and buf[k] != 32):
                    err = E_FAN
                else:
                    fan_total = v
                    fstart = k + 1 if k < end else end
                    fend = end
                    phase = 4
        elif c == 72 and _is(buf, pos, end, _KW_HUANG):
            # a drawn game: only when the player due to draw has an empty segment
            lp = s[O_LAST_P]
            if (
                phase != 3
                or s[O_WINNER] >= 0
                or s[O_LAST_OP] != OP_PLAY
                or s[O_WALL + (lp + 1) % 4] != 0
            ):
                err = E_HUANG_PLACE
            else:
                huang = True
                phase = 4
        elif c == 83 and _starts(buf, pos, end, _KW_SCORE):
            if phase != 4:
                err = E_SCORE_PLACE
            else:
                phase = 5
                if huang:
                    g_info[g, G_STATUS] = G_DRAWN
                else:
                    g_info[g, G_STATUS] = G_WIN
                    w_info[nw, W_GAME] = g
                    w_info[nw, W_LINE] = hu_line
                    w_info[nw, W_TOTAL] = fan_total
                    w_info[nw, W_FSTART] = fstart
                    w_info[nw, W_FEND] = fend
                    _commit(nw, s, rwind, w_info, w_conc, w_melds)
                    nw += 1
        else:
            err = E_SYNTAX if phase != 5 else E_AFTER_END
        if err != E_OK:
            if g < 0:
                # junk before the first game: reported as game row 0
                g = 0
                g_info[0, G_LINE] = line
                g_info[0, G_MSTART] = pos
                g_info[0, G_MEND] = pos
            elif phase == 5 and g_info[g, G_STATUS] == G_WIN:
                nw -= 1  # withdraw the win of a game that turned out bad
            g_info[g, G_STATUS] = G_BAD
            g_info[g, G_ERR] = err
            g_info[g, G_ERR_LINE] = line
            phase = 6
            if stop_on_error:
                return g + 1, nw, line, False
        pos = nxt
    if phase != 0 and phase != 5 and phase != 6:
        g_info[g, G_STATUS] = G_BAD
        g_info[g, G_ERR] = E_TRUNCATED
        g_info[g, G_ERR_LINE] = line
    return g + 1, nw, line, False
