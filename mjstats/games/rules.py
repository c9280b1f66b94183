"""The rules of one hand (局): wall, turns, claims, wins and payments (numba).

Numba kernels of the game engine (one hand, 局, from the deal to the end): four-player
MCR, and two-seat games (二人麻将) with the same kernels.

The ruleset's game rules come as data in the game context ``gctx`` (``G_SEATS``,
``G_SEAT_WIND``, ``G_CLAIMS``, ``G_SITUATIONS``, ``G_TILES``, ``G_WALL_FLOWERS``; see
:func:`mjstats.games.engine.game_rules`): the number of seats (seats 2-3 stay empty
in a two-seat game), the tile kinds of the wall, the claims allowed (robbing a kong
or not), and whether the situation bits (天胡, 地胡, 人胡, 报听, 天听: :func:`situation`,
:func:`declare`) are derived for the scorer.

Rules (MCR; those of the Botzone judge where it decides):

* a kong needs a replacement tile (the konger must be able to draw); a claim
  is followed by a discard; a kong by a replacement draw (杠上开花 if it wins);
* on a discard: win, exposed kong or pung by anyone, chow by the next seat only;
  priority win > kong = pung > chow, ties in turn order from the discarder;
  a promoted kong may be robbed (抢杠和);
* win legality and fans from :func:`score_win` (the ruleset's scorer; the one
  call site), with the context derived from the state: self-drawn, 和绝张
  (the three other copies visible: ``S_SHOWN`` without the winning discard),
  kong win, last tile of the wall (the player due to draw next cannot);
* the game is drawn when the player due to draw cannot;
* payments: self-drawn, every other seat pays ``base + total``; on a discard
  (or a robbed kong) the discarder pays ``base + total`` and the others ``base``.

Kernels return error codes (``E_*``), never raise. The per-step helpers are
inlined into the game loop (:data:`~mjstats.kernels._jit.ijit`): as separate
calls each passed the scorer's and the policies' scratch tuples (hundreds of
machine words and a reference-count update per array) several times a step.
"""

from __future__ import annotations

import numpy as np

from mjstats.games.state import (
    _RANK,
    A_ANGANG,
    A_BUGANG,
    A_CHOW,
    A_DISCARD,
    A_HU,
    A_KONG,
    A_PASS,
    A_PUNG,
    A_TSUMO,
    ALL_TILES,
    CLAIM_CHOW,
    CLAIM_KONG,
    CLAIM_PUNG,
    CLAIM_ROB,
    E_OK,
    E_WALL,
    G_BASE,
    G_CLAIMS,
    G_FLOWERS_COUNT,
    G_FORMS,
    G_MINIMUM,
    G_OPTS,
    G_RULESET,
    G_SEAT_WIND,
    G_SITUATIONS,
    PH_CLAIM,
    PH_DRAWN,
    PH_OWN,
    PH_ROB,
    PH_WIN,
    S_BACK,
    S_CAN_TSUMO,
    S_CLAIMS,
    S_DECLARED,
    S_DISCARDS,
    S_DRAWN,
    S_DRAWS,
    S_FLOWERS,
    S_FROM,
    S_FRONT,
    S_HAND,
    S_KONG_DRAW,
    S_KONG_WIN,
    S_LAST_KIND,
    S_LAST_SEAT,
    S_LAST_TILE,
    S_LAST_WALL,
    S_MELD,
    S_NMELD,
    S_PHASE,
    S_POOL,
    S_RIVER,
    S_ROUND,
    S_SCORE,
    S_SHANTEN_FLOOR,
    S_SHOWN,
    S_SITUATION,
    S_STEPS,
    S_TAKEN,
    S_TOTAL,
    S_TURN,
    S_VACANT,
    S_WAITS,
    S_WALL,
    S_WALL_KIND,
    S_WALL_N,
    S_WIN_KIND,
    S_WIN_TILE,
    S_WINNER,
    SIT_EARTHLY,
    SIT_HEAVENLY,
    SIT_HEAVENLY_READY,
    SIT_HUMAN,
    SIT_READY,
    WALL_BOTZONE,
    WIN_DISCARD,
    WIN_ROBBED_KONG,
    WIN_SELF_DRAWN,
    action,
)
from mjstats.kernels._jit import hjit, ijit, jit
from mjstats.kernels.bits import lowest_bit
from mjstats.kernels.shanten import shanten_one, useful_one
from mjstats.rulesets.dispatch import score_one


# ---------------------------------------------------------------- wall
@ijit
def can_draw(S, p):
    """Whether seat ``p`` could draw a tile now (else the game is drawn when due)."""
    if S[S_WALL_KIND] == WALL_BOTZONE:
        return S[S_TAKEN + p] < 34
    return S[S_FRONT] <= S[S_BACK]


@ijit
def _take(S, p, replacement):
    """Take a tile for seat ``p`` (flowers set aside and replaced); -1 if none is left."""
    if S[S_WALL_KIND] == WALL_BOTZONE:
        k = S[S_TAKEN + p]
        if k >= 34:
            return -1
        S[S_TAKEN + p] = k + 1
        return S[S_WALL + 34 * p + 33 - k]
    while True:
        if S[S_FRONT] > S[S_BACK]:
            return -1
        if replacement:
            t = S[S_WALL + S[S_BACK]]
            S[S_BACK] -= 1
        else:
            t = S[S_WALL + S[S_FRONT]]
            S[S_FRONT] += 1
        if t < 34:
            return t
        S[S_FLOWERS + p] |= np.int64(1) << (t - 34)
        replacement = True


@ijit
def wall_left(S, p):
    """Tiles seat ``p`` may still draw (its segment, or the whole shared wall)."""
    if S[S_WALL_KIND] == WALL_BOTZONE:
        return 34 - S[S_TAKEN + p]
    return S[S_BACK] - S[S_FRONT] + 1


@ijit
def _clear(S, n):
    for i in range(n):
        S[i] = 0


@hjit
def new_game(S, wall, wall_kind, round_wind):
    """Reset ``S`` and deal 13 tiles to each of four seats from ``wall``; returns an error code.

    ``wall``: int64 tile codes (0-33, flowers 34-41), 136 for ``WALL_BOTZONE`` (no
    flowers), 144 for ``WALL_SHARED``. Seat 0 (East) is the dealer and draws first:
    after this call the dealer's first draw is made (phase ``PH_OWN``).
    """
    return new_game_of(S, wall, wall_kind, round_wind, 4, ALL_TILES, 8 * wall_kind)


@hjit
def new_game_of(S, wall, wall_kind, round_wind, n_seats, tiles, n_flowers):
    """:func:`new_game` for ``n_seats`` seats (2-4) and a wall of four copies of each
    tile kind in the mask ``tiles`` plus ``n_flowers`` flowers (``WALL_SHARED``; the
    Botzone wall is always the 136 tiles of four seats)."""
    _clear(S, S.shape[0])
    n = wall.shape[0]
    if wall_kind == WALL_BOTZONE and (n_seats != 4 or tiles != ALL_TILES or n_flowers != 0):
        return E_WALL
    kinds = 0
    for t in range(34):
        kinds += (tiles >> t) & 1
    if n != 4 * kinds + n_flowers or n > 144 or n_seats < 2 or n_seats > 4:
        return E_WALL
    # copies of each code counted in S[0:42] (the hands, still empty): no allocation
    for i in range(n):
        t = wall[i]
        if t < 0 or t >= 34 + n_flowers:
            _clear(S, 42)
            return E_WALL
        S[t] += 1
        S[S_WALL + i] = t
    for t in range(42):
        if S[t] != (4 * ((tiles >> t) & 1) if t < 34 else (1 if t < 34 + n_flowers else 0)):
            _clear(S, 42)
            return E_WALL
    _clear(S, 42)
    S[S_WALL_N] = n
    S[S_WALL_KIND] = wall_kind
    S[S_FRONT] = 0
    S[S_BACK] = n - 1
    S[S_ROUND] = round_wind
    S[S_WINNER] = -1
    S[S_FROM] = -1
    S[S_LAST_SEAT] = -1
    S[S_LAST_TILE] = -1
    S[S_DRAWN] = -1
    S[S_VACANT] = 4 - n_seats
    for p in range(4):
        S[S_WAITS + p] = -1
    for p in range(n_seats):
        for _ in range(13):
            t = _take(S, p, False)
            S[S_HAND + 34 * p + t] += 1
    return E_OK


@ijit
def seats(S):
    """Seats in play (4, or 2 in a two-seat game)."""
    return 4 - S[S_VACANT]


@ijit
def next_seat(S, p):
    """The seat after ``p`` in turn order."""
    q = p + 1
    return 0 if q == 4 - S[S_VACANT] else q


# ---------------------------------------------------------------- helpers
@jit
def _hand_size(S, p):
    n = 0
    for t in range(34):
        n += S[S_HAND + 34 * p + t]
    return n


@ijit
def waits(S, p, forms, tab, counts):
    """Mask of the tiles completing seat ``p``'s 3k+1 concealed hand (cached in ``S``).

    ``counts``: a uint8 (34,) scratch hand."""
    m = S[S_WAITS + p]
    if m >= 0:
        return m
    if (S[S_SHANTEN_FLOOR] >> (8 * p)) & 255:  # shanten >= 1: not ready, no tile wins
        S[S_WAITS + p] = 0
        return 0
    for t in range(34):
        counts[t] = S[S_HAND + 34 * p + t]
    n_melds = S[S_NMELD + p]
    m = np.int64(0)
    # the shanten alone is ten times cheaper than the useful tiles, and most hands
    # are not ready
    s = shanten_one(counts, n_melds, forms, tab)
    if s == 0:
        _, mask = useful_one(counts, n_melds, forms, tab)
        m = np.int64(mask)
    S[S_WAITS + p] = m
    S[S_SHANTEN_FLOOR] |= min(s, 255) << (8 * p)  # the byte was 0
    return m


@ijit
def _floor_drew(S, p):
    """Seat ``p`` drew a tile: its shanten floor drops by one.

    The shanten is the need (tiles to draw to complete the hand, the minimum over
    the forms' complete hands, shanten.py) minus one: a tile in lowers the need of
    each complete hand by at most one, a tile out never lowers it, so after a draw
    and a discard the shanten is at least the old one minus one
    (tests/test_games_engine.py checks it on walks). Most hands of a random game
    are two or more from ready, so most of the shanten of :func:`waits`, the
    largest cost of such a game, is skipped.
    """
    if (S[S_SHANTEN_FLOOR] >> (8 * p)) & 255:
        S[S_SHANTEN_FLOOR] -= np.int64(1) << (8 * p)


@ijit
def _floor_reset(S, p):
    """Seat ``p`` melded (a claim or a kong): no floor. The need counts complete
    hands of the concealed tiles for the new number of melds, which a floor from
    the hand before the meld does not bound (the four-copy limit is per concealed
    part), so the next :func:`waits` computes the shanten."""
    S[S_SHANTEN_FLOOR] &= ~(np.int64(255) << (8 * p))


@ijit
def _add_meld(S, p, kind, tile, frm):
    m = S[S_NMELD + p]
    o = S_MELD + 12 * p + 3 * m
    S[o] = kind
    S[o + 1] = tile
    S[o + 2] = frm
    S[S_NMELD + p] = m + 1


@hjit
def score_win(S, p, w, self_drawn, kong_win, last_kind, last_wall, gctx, scratch, fan_out, buf):
    """Score seat ``p`` winning on ``w``: ``(total, legal)``, fans in ``fan_out``.

    The engine's only call of the ruleset's scorer. ``buf`` is
    ``(uint8 (34,) concealed, uint8 (4, 2) melds)`` scratch. ``total`` includes
    flower points and is -1 for an incomplete hand.
    """
    conc, melds = buf
    for t in range(34):
        conc[t] = S[S_HAND + 34 * p + t]
    if not self_drawn:
        conc[w] += 1
    n = S[S_NMELD + p]
    for m in range(4):
        if m < n:
            melds[m, 0] = S[S_MELD + 12 * p + 3 * m]
            melds[m, 1] = S[S_MELD + 12 * p + 3 * m + 1]
        else:
            melds[m, 0] = 0
            melds[m, 1] = 0
    # sorted by tile then kind, empty slots last (the HandBatch convention)
    for i in range(1, n):
        j = i
        while j > 0 and (
            melds[j - 1, 1] > melds[j, 1]
            or (melds[j - 1, 1] == melds[j, 1] and melds[j - 1, 0] > melds[j, 0])
        ):
            for c in range(2):
                x = melds[j - 1, c]
                melds[j - 1, c] = melds[j, c]
                melds[j, c] = x
            j -= 1
    sit = 0
    if gctx[G_SITUATIONS] != 0:
        sit = situation(S, p, self_drawn, kong_win)
    S[S_SITUATION] = sit
    total, _, _, legal = score_one(
        gctx[G_RULESET], gctx[G_OPTS], gctx[G_MINIMUM], gctx[G_FLOWERS_COUNT] != 0, conc, melds,
        w, self_drawn != 0, last_kind != 0, kong_win != 0, last_wall != 0, gctx[G_SEAT_WIND + p],
        S[S_ROUND], S[S_FLOWERS + p], sit, scratch, fan_out,
    )  # fmt: skip
    return total, legal


@hjit
def situation(S, p, self_drawn, kong_win):
    """Situation bits (``SIT_*``) of seat ``p`` winning now, from the state.

    天胡: the dealer (seat 0) self-draws on the first draw of the game (flowers
    replaced; a concealed kong before it adds a draw). 地胡: seat ``p`` > 0
    self-draws on its own first draw with no meld on the table (no claim, no
    kong). 人胡: seat ``p`` > 0 wins on the dealer's first discard with no meld on
    the table (a dealer's concealed kong before it spoils it). None of these
    comes with a declaration: a win on the dealer's first discard comes before
    the declarations made after it (天听, "是在庄家打完第一张牌的后报出听"), 人胡
    or not. Otherwise the seat's declarations
    (:func:`declare`): 报听 while it claimed nothing, 天听 while it has no meld,
    concealed kongs included (the text's "闲家有暗杠那么闲家就不算天听").
    """
    table_melds = 0
    for q in range(4):
        table_melds += S[S_NMELD + q]
    earthly = 0
    if self_drawn == 0 and S[S_DISCARDS] == 1:
        # on the dealer's first discard: before the others' declarations (天听)
        return SIT_HUMAN if table_melds == 0 and kong_win == 0 else 0
    if self_drawn != 0 and table_melds == 0 and kong_win == 0:
        if p == 0 and S[S_DRAWS] == 1:
            return SIT_HEAVENLY
        if p != 0 and S[S_DRAWS] == p + 1:
            earthly = SIT_EARTHLY
    bits = (S[S_DECLARED] >> (8 * p)) & (SIT_READY | SIT_HEAVENLY_READY)
    n = S[S_NMELD + p]
    if n > 0:
        bits &= ~SIT_HEAVENLY_READY
    for m in range(n):
        if S[S_MELD + 12 * p + 3 * m] != 4:
            bits = 0
    return earthly | bits


@hjit
def _ready(S, p, gctx, tab, counts):
    """Whether seat ``p``'s 3k+1 hand is ready and it claimed nothing (concealed
    kongs allowed): what a 报听 needs."""
    for m in range(S[S_NMELD + p]):
        if S[S_MELD + 12 * p + 3 * m] != 4:
            return False
    return waits(S, p, gctx[G_FORMS], tab, counts) != 0


@hjit
def declare(S, p, gctx, tab, counts):
    """Declarations (报听, 天听) after seat ``p``'s discard, for rulesets with situation fans.

    Not inlined (nor :func:`situation`): four-seat games never call them, and
    their code inside the game loop slowed those games.

    The rule text gives a declaration no cost and no constraint (it does not lock
    the hand), so declaring is never worse than not: every seat declares as soon
    as it may, when its hand is ready and it claimed nothing. 天听: the dealer
    when its first discard leaves it ready, no kong made; the other seats when
    their dealt hands are ready at the dealer's first discard ("是在庄家打完第一张牌的后报出听",
    "庄家暗杠不影响闲家天听").
    """
    S[S_DISCARDS] += 1
    first = p == 0 and S[S_DISCARDS] == 1
    if first:
        for q in range(1, seats(S)):
            if S[S_NMELD + q] == 0 and _ready(S, q, gctx, tab, counts):
                S[S_DECLARED] |= (SIT_READY | SIT_HEAVENLY_READY) << (8 * q)
    if (S[S_DECLARED] >> (8 * p)) & SIT_READY:
        return
    if _ready(S, p, gctx, tab, counts):
        bits = SIT_READY
        if first and S[S_NMELD + p] == 0:
            bits |= SIT_HEAVENLY_READY
        S[S_DECLARED] |= bits << (8 * p)


@ijit
def _last_of_kind_on_discard(S, t, rob):
    """和绝张 for a win on the discard (or robbed kong) ``t``: the other three copies
    are visible (the winning tile itself is among ``S_SHOWN``). Never for 抢杠和,
    which excludes 和绝张 (MCR: 抢杠和 不计和绝张; the robbed tile is always the
    fourth copy)."""
    if rob:
        return 0
    return 1 if S[S_SHOWN + t] - 1 == 3 else 0


@ijit
def _settle(S, winner, w, kind, frm, total, base, last_kind, last_wall, kong_win):
    S[S_WINNER] = winner
    S[S_WIN_TILE] = w
    S[S_WIN_KIND] = kind
    S[S_FROM] = frm
    S[S_TOTAL] = total
    S[S_LAST_KIND] = last_kind
    S[S_LAST_WALL] = last_wall
    S[S_KONG_WIN] = kong_win
    S[S_PHASE] = PH_WIN
    for q in range(seats(S)):
        if q == winner:
            continue
        pay = base + total if (kind == WIN_SELF_DRAWN or q == frm) else base
        S[S_SCORE + q] -= pay
        S[S_SCORE + winner] += pay


# ---------------------------------------------------------------- turns
@ijit
def begin_turn(S, p, replacement, gctx, tab, scratch, fan_out, buf):
    """Seat ``p`` draws (a replacement after a kong if ``replacement``) and is to act.

    Decides whether a self-drawn win is legal (``S[S_CAN_TSUMO]``). When ``p``
    cannot draw, the game is drawn (``PH_DRAWN``).
    """
    S[S_TURN] = p
    if not can_draw(S, p):
        S[S_PHASE] = PH_DRAWN
        S[S_SITUATION] = 0
        return
    conc = buf[0]
    mask = waits(S, p, gctx[G_FORMS], tab, conc)
    t = _take(S, p, replacement)
    if t < 0:  # shared wall: only flowers were left
        S[S_PHASE] = PH_DRAWN
        S[S_SITUATION] = 0
        return
    S[S_HAND + 34 * p + t] += 1
    _floor_drew(S, p)
    S[S_DRAWS] += 1
    S[S_DRAWN] = t
    S[S_LAST_TILE] = t
    S[S_LAST_SEAT] = p
    S[S_KONG_DRAW] = 1 if replacement else 0
    S[S_PHASE] = PH_OWN
    S[S_CAN_TSUMO] = 0
    if (mask >> t) & 1:
        last_kind = 1 if S[S_SHOWN + t] == 3 else 0
        last_wall = 0 if can_draw(S, next_seat(S, p)) else 1
        total, legal = score_win(
            S, p, t, 1, 1 if replacement else 0, last_kind, last_wall, gctx, scratch, fan_out, buf
        )
        if total >= 0 and legal:
            S[S_CAN_TSUMO] = 1


@ijit
def legal_own(S, acts):
    """Legal actions of the seat to act (``PH_OWN``) into ``acts``; returns their number."""
    n, held = _own_front(S, acts)
    while held != 0:  # in tile order, as before (the random policy's choice depends on it)
        acts[n] = action(A_DISCARD, lowest_bit(held))
        n += 1
        held &= held - 1
    return n


@ijit
def _own_front(S, acts):
    """The own-turn actions :func:`legal_own` lists before the discards (tsumo, then
    kongs) into ``acts``: ``(their number, mask of the held tiles)``, the discards
    following in tile order."""
    p = S[S_TURN]
    h = S_HAND + 34 * p
    # masks of the held tiles and of the fours in one pass without a branch per tile
    # (LLVM makes it vector compares); the discards are then listed one held kind at
    # a time. Listing them in a loop over all 34 tiles, writing every slot and
    # advancing the count for held ones, was a quarter of a random game's time
    # (perf on play_games, this machine): 34 iterations of index arithmetic.
    held = np.int64(0)
    fours = np.int64(0)
    for t in range(34):
        c = S[h + t]
        held |= np.int64(c > 0) << t
        fours |= np.int64(c == 4) << t
    n = 0
    if S[S_DRAWN] >= 0:
        if S[S_CAN_TSUMO]:
            acts[n] = action(A_TSUMO, S[S_DRAWN])
            n += 1
        if can_draw(S, p):
            while fours != 0:  # a hand seldom has one
                acts[n] = action(A_ANGANG, lowest_bit(fours))
                n += 1
                fours &= fours - 1
            for m in range(S[S_NMELD + p]):
                o = S_MELD + 12 * p + 3 * m
                if S[o] == 2 and S[h + S[o + 1]] > 0:
                    acts[n] = action(A_BUGANG, S[o + 1])
                    n += 1
    return n, held


@ijit
def _nth_bit(m, k):
    """Index of the ``k``-th lowest set bit of ``m`` (from 0; ``m`` has more than ``k``)."""
    for _ in range(k):
        m &= m - 1
    return lowest_bit(m)


@ijit
def legal_response(S, q, gctx, tab, scratch, fan_out, buf, acts):
    """Legal answers of seat ``q`` to the last discard or promoted kong; returns their number.

    ``acts[0]`` is always ``A_PASS``."""
    acts[0] = A_PASS
    n = 1
    d = S[S_LAST_SEAT]
    t = S[S_LAST_TILE]
    if q == d:
        return n
    h = S_HAND + 34 * q
    rob = S[S_PHASE] == PH_ROB
    if rob and not gctx[G_CLAIMS] & CLAIM_ROB:  # no robbing a kong: pass only
        return n
    mask = waits(S, q, gctx[G_FORMS], tab, buf[0])
    if (mask >> t) & 1:
        last_kind = _last_of_kind_on_discard(S, t, rob)
        last_wall = 0 if can_draw(S, next_seat(S, d)) else 1
        total, legal = score_win(
            S, q, t, 0, 1 if rob else 0, last_kind, last_wall, gctx, scratch, fan_out, buf
        )
        if total >= 0 and legal:
            acts[n] = action(A_HU, t)
            n += 1
    if rob:
        return n
    claims = gctx[G_CLAIMS]
    if S[h + t] == 3 and can_draw(S, q) and claims & CLAIM_KONG:
        acts[n] = action(A_KONG, t)
        n += 1
    if S[h + t] >= 2 and claims & CLAIM_PUNG:
        acts[n] = action(A_PUNG, t)
        n += 1
    if q == next_seat(S, d) and t < 27 and claims & CLAIM_CHOW:
        # the chows around t by their middle tile, lowest first: t-1 (t-2 t-1 t), t
        # (t-1 t t+1), t+1 (t t+1 t+2), within t's suit; one rank computed, not a
        # division and a remainder per candidate (this runs on every discard)
        r = t % 9
        if r >= 2 and S[h + t - 2] > 0 and S[h + t - 1] > 0:
            acts[n] = action(A_CHOW, t - 1)
            n += 1
        if r >= 1 and r <= 7 and S[h + t - 1] > 0 and S[h + t + 1] > 0:
            acts[n] = action(A_CHOW, t)
            n += 1
        if r <= 6 and S[h + t + 1] > 0 and S[h + t + 2] > 0:
            acts[n] = action(A_CHOW, t + 1)
            n += 1
    return n


@ijit
def apply_own(S, a, gctx, tab, scratch, fan_out, buf):
    """Apply the own-turn action ``a`` (one of :func:`legal_own`'s) of the seat to act."""
    p = S[S_TURN]
    kind = a // 64
    t = a % 64
    h = S_HAND + 34 * p
    S[S_STEPS] += 1
    if kind == A_DISCARD:
        S[h + t] -= 1
        S[S_POOL + t] += 1
        S[S_SHOWN + t] += 1
        S[S_RIVER + 34 * p + t] += 1
        S[S_WAITS + p] = -1
        S[S_LAST_TILE] = t
        S[S_LAST_SEAT] = p
        S[S_DRAWN] = -1
        S[S_PHASE] = PH_CLAIM
        if gctx[G_SITUATIONS] != 0:
            declare(S, p, gctx, tab, buf[0])
    elif kind == A_TSUMO:
        last_kind = 1 if S[S_SHOWN + t] == 3 else 0
        last_wall = 0 if can_draw(S, next_seat(S, p)) else 1
        kong = S[S_KONG_DRAW]
        total, _ = score_win(S, p, t, 1, kong, last_kind, last_wall, gctx, scratch, fan_out, buf)
        _settle(S, p, t, WIN_SELF_DRAWN, -1, total, gctx[G_BASE], last_kind, last_wall, kong)
    elif kind == A_ANGANG:
        S[h + t] -= 4
        _add_meld(S, p, 4, t, p)
        S[S_WAITS + p] = -1
        _floor_reset(S, p)
        S[S_LAST_TILE] = t
        S[S_LAST_SEAT] = p
        begin_turn(S, p, True, gctx, tab, scratch, fan_out, buf)
    elif kind == A_BUGANG:
        S[h + t] -= 1
        for m in range(S[S_NMELD + p]):
            o = S_MELD + 12 * p + 3 * m
            if S[o] == 2 and S[o + 1] == t:
                S[o] = 3
        S[S_SHOWN + t] += 1
        S[S_WAITS + p] = -1
        _floor_reset(S, p)
        S[S_LAST_TILE] = t
        S[S_LAST_SEAT] = p
        S[S_DRAWN] = -1
        S[S_PHASE] = PH_ROB  # robbed or not (legal_response), then the replacement draw


@ijit
def resolve(S, resp, gctx, tab, scratch, fan_out, buf):
    """Apply the answers ``resp`` (int64 (4,), one per seat) to a discard or promoted kong.

    The highest-priority claim wins (hu > kong = pung > chow; ties in turn order
    from the discarder); returns the seat whose claim was taken, or -1.
    """
    d = S[S_LAST_SEAT]
    t = S[S_LAST_TILE]
    best = -1
    best_rank = 0
    n = seats(S)
    for k in range(1, n):
        q = d + k if d + k < n else d + k - n  # no division: this runs on every discard
        if resp[q] == A_PASS:  # most answers (no claim listed, or the policy passed)
            continue
        r = _RANK[resp[q] >> 6]  # the kind (an action is >= 0)
        if r > best_rank:
            best_rank = r
            best = q
    rob = S[S_PHASE] == PH_ROB
    if best < 0:
        if rob:
            begin_turn(S, d, True, gctx, tab, scratch, fan_out, buf)
        else:
            begin_turn(S, next_seat(S, d), False, gctx, tab, scratch, fan_out, buf)
        return -1
    q = best
    kind = resp[q] // 64
    arg = resp[q] % 64
    h = S_HAND + 34 * q
    if kind == A_HU:
        last_kind = _last_of_kind_on_discard(S, t, rob)
        last_wall = 0 if can_draw(S, next_seat(S, d)) else 1
        kong = 1 if rob else 0
        total, _ = score_win(S, q, t, 0, kong, last_kind, last_wall, gctx, scratch, fan_out, buf)
        # the winning tile moves into the winner's hand
        S[S_SHOWN + t] -= 1
        if rob:
            for m in range(S[S_NMELD + d]):
                o = S_MELD + 12 * d + 3 * m
                if S[o] == 3 and S[o + 1] == t:
                    S[o] = 2
        else:
            S[S_POOL + t] -= 1
        S[h + t] += 1
        kind_win = WIN_ROBBED_KONG if rob else WIN_DISCARD
        _settle(S, q, t, kind_win, d, total, gctx[G_BASE], last_kind, last_wall, 1 if rob else 0)
        return q
    S[S_POOL + t] -= 1
    S[S_WAITS + q] = -1
    _floor_reset(S, q)
    S[S_CLAIMS] += 1
    if kind == A_KONG:
        S[h + t] -= 3
        S[S_SHOWN + t] += 3
        _add_meld(S, q, 3, t, d)
        begin_turn(S, q, True, gctx, tab, scratch, fan_out, buf)
        return q
    if kind == A_PUNG:
        S[h + t] -= 2
        S[S_SHOWN + t] += 2
        _add_meld(S, q, 2, t, d)
    else:
        for k in range(arg - 1, arg + 2):
            if k != t:
                S[h + k] -= 1
                S[S_SHOWN + k] += 1
        _add_meld(S, q, 1, arg - 1, d)
    S[S_TURN] = q
    S[S_DRAWN] = -1
    S[S_KONG_DRAW] = 0
    S[S_PHASE] = PH_OWN
    return q


# ---------------------------------------------------------------- invariants
@jit
def check_tiles(S):
    """True when every tile is in exactly one place: hands, melds, pool, wall, flowers.

    Also checks hand sizes (3k+1 between turns, 3k+2 for the seat to act) and that
    the visible counts equal the pool plus the exposed melds' tiles. The copies of
    each code are those of the wall as dealt (:func:`new_game_of` checked it: four
    of each kind the ruleset plays with, one of each flower), and a seat not in
    play holds nothing.
    """
    return check_tiles_in(S, np.zeros(118, np.int64))


@hjit
def check_tiles_in(S, tally):
    """:func:`check_tiles` counting in ``tally`` (int64, at least 118: where each code
    is, the visible copies, the copies dealt), so that the game loop allocates nothing."""
    for i in range(118):
        tally[i] = 0
    for p in range(seats(S), 4):
        if S[S_NMELD + p] != 0 or S[S_FLOWERS + p] != 0:
            return False
        for t in range(34):
            if S[S_HAND + 34 * p + t] != 0:
                return False
    for p in range(seats(S)):
        size = 0
        for t in range(34):
            c = S[S_HAND + 34 * p + t]
            if c < 0:
                return False
            tally[t] += c
            size += c
        for m in range(S[S_NMELD + p]):
            o = S_MELD + 12 * p + 3 * m
            k = S[o]
            tile = S[o + 1]
            if k == 1:
                for j in range(3):
                    tally[tile + j] += 1
                    tally[42 + tile + j] += 1
            elif k == 2:
                tally[tile] += 3
                tally[42 + tile] += 3
            elif k == 3:
                tally[tile] += 4
                tally[42 + tile] += 4
            else:
                tally[tile] += 4
        size += 3 * S[S_NMELD + p]
        own = S[S_PHASE] == PH_OWN and S[S_TURN] == p
        won = S[S_PHASE] == PH_WIN and S[S_WINNER] == p
        if size != (14 if (own or won) else 13):
            return False
        f = S[S_FLOWERS + p]
        for b in range(8):
            if (f >> b) & 1:
                tally[34 + b] += 1
    for t in range(34):
        c = S[S_POOL + t]
        if c < 0:
            return False
        tally[t] += c
        tally[42 + t] += c
        if tally[42 + t] != S[S_SHOWN + t]:
            return False
    # tiles still in the wall
    if S[S_WALL_KIND] == WALL_BOTZONE:
        for p in range(4):
            for k in range(S[S_TAKEN + p], 34):
                tally[S[S_WALL + 34 * p + 33 - k]] += 1
    else:
        for i in range(S[S_FRONT], S[S_BACK] + 1):
            tally[S[S_WALL + i]] += 1
    for i in range(S[S_WALL_N]):
        tally[76 + S[S_WALL + i]] += 1
    for t in range(42):
        if tally[t] != tally[76 + t] or tally[76 + t] > (4 if t < 34 else 1):
            return False
    return True
