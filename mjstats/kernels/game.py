"""Numba kernels of the game engine (one hand, 局, from the deal to the end): four-player
MCR, and two-seat games (二人麻将) with the same kernels.

The ruleset's game rules come as data in the game context ``gctx`` (``G_SEATS``,
``G_SEAT_WIND``, ``G_CLAIMS``, ``G_SITUATIONS``, ``G_TILES``, ``G_WALL_FLOWERS``; see
:func:`mjstats.games.engine.game_rules`): the number of seats (seats 2-3 stay empty
in a two-seat game), the tile kinds of the wall, the claims allowed (robbing a kong
or not), and whether the situation bits (天胡, 地胡, 人胡, 报听, 天听: :func:`situation`,
:func:`declare`) are derived for the scorer.

Why here: every numba kernel of mjstats lives in :mod:`mjstats.kernels` (the cache
key and the no-JIT test lane cover this package); :mod:`mjstats.games` is the public
layer over these kernels (validation, replay of records, DataFrames).

State
-----
One game is one ``int64`` vector ``S`` (layout ``S_*`` below), so every helper takes
a single array and a game allocates nothing:

* ``S_HAND`` 4 x 34 concealed counts; ``S_MELD`` 4 seats x 4 melds x (kind, tile,
  from seat) with the kinds of :mod:`mjstats.hand` (1 chow, tile = lowest tile; 2
  pung; 3 exposed kong, promoted ones included; 4 concealed kong); ``S_NMELD``;
* ``S_POOL`` unclaimed discards (34 counts); ``S_SHOWN`` the copies visible to all
  (unclaimed discards plus the tiles of exposed melds: what 和绝张 counts);
* ``S_FLOWERS`` flower masks (bit ``f``: flower ``f``, tile code ``34 + f``);
* ``S_WALL`` the wall as dealt (tile codes 0-33, flowers 34-41) and its cursors:
  ``WALL_BOTZONE``: four segments of 34, segment ``p`` = ``wall[34p:34p+34]`` taken
  from its end by player ``p`` only (deal included), as the Botzone judge plays;
  ``WALL_SHARED``: 144 tiles taken from the front, flowers set aside and replaced
  (like kong replacement tiles) from the far end;
* turn, phase, last tile and seat, the result (winner, win tile, kind, fan total,
  context flags) and the four scores.

Actions
-------
An action is one ``int64``: ``kind * 64 + tile`` (:func:`action`). On one's own
turn (``PH_OWN``): ``A_DISCARD``, ``A_TSUMO`` (self-drawn win), ``A_ANGANG``
(concealed kong), ``A_BUGANG`` (promoted kong). In answer to a discard
(``PH_CLAIM``) or a promoted kong (``PH_ROB``, robbing only): ``A_PASS`` (0),
``A_HU``, ``A_KONG``, ``A_PUNG``, ``A_CHOW`` (tile = middle tile of the chow).
:func:`legal_own` / :func:`legal_response` list the legal ones; the apply functions
assume a listed action (the game loop and the replay check that first).

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
from numba import prange

from mjstats.kernels import policies as P
from mjstats.kernels._jit import hjit, ijit, jit, pjit
from mjstats.kernels.bits import lowest_bit, popcount
from mjstats.kernels.rng import below, draw_below
from mjstats.kernels.shanten import shanten_one, useful_one
from mjstats.rulesets.dispatch import score_one

# ---------------------------------------------------------------- state layout
S_HAND = 0
S_MELD = 136  # seat p, meld m: S_MELD + 12 p + 3 m + (0 kind, 1 tile, 2 from seat)
S_NMELD = 184
S_POOL = 188
S_SHOWN = 222
S_FLOWERS = 256
S_WALL = 260  # 144
S_WALL_N = 404
S_TAKEN = 405  # 4 (botzone: tiles taken from each segment)
S_FRONT = 409  # shared: next front index
S_BACK = 410  # shared: next far-end index
S_WALL_KIND = 411
S_TURN = 412
S_PHASE = 413
S_LAST_TILE = 414
S_LAST_SEAT = 415
S_KONG_DRAW = 416  # the current own turn follows a kong replacement draw
S_DRAWN = 417  # tile just drawn on this turn, -1 after a claim
S_WINNER = 418
S_WIN_TILE = 419
S_FROM = 420  # discarder / konger, -1 self-drawn
S_WIN_KIND = 421  # 0 discard, 1 self-drawn, 2 robbed kong
S_TOTAL = 422
S_LAST_KIND = 423
S_LAST_WALL = 424
S_KONG_WIN = 425
S_SCORE = 426  # 4
S_ROUND = 430
S_STEPS = 431
S_WAITS = 432  # 4: mask of winning tiles of the seat's 3k+1 hand, -1 = not computed
S_CAN_TSUMO = 436
S_ERR_SEAT = 437
S_ERR_ACTION = 438
S_CLAIMS = 439  # claims made (chow, pung, kong) in the game
S_DRAWS = 440  # tiles drawn after the deal (kong replacements included)
S_NLOG = 441  # moves written to the game's log (play_game)
# slots kept 0 in a four-seat game without situation fans, so that such games'
# states are those of before two-seat games existed (benchmarks/games_fingerprint.py)
S_VACANT = 442  # seats not in play: 4 - the ruleset's seats
S_DISCARDS = 443  # discards made (counted only when the ruleset has situation fans)
S_DECLARED = 444  # declared-ready bits (SIT_READY, SIT_HEAVENLY_READY) of seat p << 8 p
S_SITUATION = 445  # situation bits of the last scored win (the win's, once won)
# byte p: a lower bound of seat p's shanten (0: none), so that :func:`waits` skips the
# shanten of hands that cannot be ready; the engine's scratch, set back to 0 when a
# game is won or drawn (such final states are those of before it existed)
S_SHANTEN_FLOOR = 446
N_STATE = 448

# phases
PH_OWN = 1
PH_CLAIM = 2
PH_ROB = 3
PH_WIN = 4
PH_DRAWN = 5

WALL_BOTZONE = 0
WALL_SHARED = 1
WALL_SIZES = (136, 144)

WIN_DISCARD = 0
WIN_SELF_DRAWN = 1
WIN_ROBBED_KONG = 2

# action kinds
A_PASS = 0
A_DISCARD = 1
A_TSUMO = 2
A_ANGANG = 3
A_BUGANG = 4
A_HU = 5
A_KONG = 6
A_PUNG = 7
A_CHOW = 8
ACTION_NAMES = ("pass", "discard", "tsumo", "angang", "bugang", "hu", "kong", "pung", "chow")
_RANK = np.array([0, 0, 0, 0, 0, 3, 2, 2, 1], np.int64)  # claim priority by kind
MAX_ACTIONS = 40

# game context vector (engine constants)
G_RULESET = 0
G_OPTS = 1
G_MINIMUM = 2
G_FLOWERS_COUNT = 3
G_FORMS = 4
G_ROUND = 5
G_BASE = 6
G_WALL = 7
G_CHECK = 8  # verify the tile invariants after every step
G_POLICY = 12  # 4: policy id per seat
# the ruleset's game rules as data (its kernel binding's SEAT_WINDS, CLAIMS,
# SITUATIONS and WALL_FLOWERS, its tiles); see mjstats.games.engine.engine_context
G_SEATS = 16  # seats in play (2 or 4)
G_SEAT_WIND = 17  # 4: seat wind of seat p (two-player: 0 East, 2 West)
G_CLAIMS = 21  # mask of CLAIM_* the ruleset allows
G_SITUATIONS = 22  # 1: derive the situation bits (天胡, 地胡, 人胡, 报听, 天听)
G_TILES = 23  # mask of the tile kinds (bit t: four copies of tile t in the wall)
G_WALL_FLOWERS = 24  # flowers in the shared wall (codes 34 .. 34 + n - 1)
G_SIZE = 32

CLAIM_CHOW = 1
CLAIM_PUNG = 2
CLAIM_KONG = 4  # exposed kong on a discard (promoted and concealed kongs are always allowed)
CLAIM_ROB = 8  # robbing a promoted kong (抢杠和)
CLAIM_BITS = {"chow": CLAIM_CHOW, "pung": CLAIM_PUNG, "kong": CLAIM_KONG, "rob": CLAIM_ROB}
ALL_TILES = (1 << 34) - 1

# situation bits of the scorer's contract (mjstats.rulesets.dispatch.score_one;
# the two-player kernel's SIT_*)
SIT_HEAVENLY = 1  # 天胡: the dealer wins on the first draw of the game
SIT_EARTHLY = 2  # 地胡: another seat wins on its own first draw, nothing claimed or konged
SIT_HUMAN = 4  # 人胡: another seat wins on the dealer's first discard, the dealer unkonged
SIT_READY = 8  # 报听 (scored as 立直)
SIT_HEAVENLY_READY = 16  # 天听

POLICY_RANDOM = 0
POLICY_EFFICIENCY = 1
POLICY_FAN_AWARE = 2
POLICY_USER = 3  # the seat's user functions (play_games_custom), not a name
POLICY_IDS = {
    "random": POLICY_RANDOM,
    "efficiency": POLICY_EFFICIENCY,
    "fan-aware": POLICY_FAN_AWARE,
}

# error codes
E_OK = 0
E_WALL = 1
E_ILLEGAL = 2
E_POLICY = 3
E_INVARIANT = 4
E_STEPS = 5
ERRORS = (
    "no error",
    "bad wall (tile codes, copies or size)",
    "illegal action",
    "policy returned an illegal action",
    "tile invariant broken",
    "game did not end",
)

_MAX_STEPS = 2000


@ijit
def action(kind, tile):
    """The action code of ``kind`` (``A_*``) on ``tile``."""
    return np.int64(kind) * 64 + np.int64(tile)


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


# ---------------------------------------------------------------- policies
# What a player sees (view vector, V_* layout): own concealed tiles, every meld
# (tiles of other players' concealed kongs hidden as -1), the visible copies,
# the copies unseen by this player, flowers, tiles left to draw, seats, scores.
# engine slots of the policy work tuple (after those of policies.new_policy_work)
W_COUNTS = 7
W_MELDS = 8
W_UNSEEN = 9

V_HAND = 0  # 34
V_UNSEEN = 34  # 34
V_MELD = 68  # 4 x 4 x 3 (kind, tile or -1, from)
V_NMELD = 116  # 4
V_FLOWERS = 120  # 4
V_SCORE = 124  # 4
V_SEAT = 128
V_ROUND = 129
V_WALL_LEFT = 130  # tiles this seat may still draw
V_LAST_TILE = 131
V_LAST_SEAT = 132
V_PHASE = 133
V_DRAWN = 134
V_SHOWN = 135  # 34
N_VIEW = 170


@ijit
def make_view(S, p, view):
    """Fill ``view`` (int64 (N_VIEW,)) with what seat ``p`` sees of ``S``."""
    make_own_view(S, p, view)
    for t in range(34):
        view[V_SHOWN + t] = S[S_SHOWN + t]
    for q in range(4):
        view[V_NMELD + q] = S[S_NMELD + q]
        view[V_FLOWERS + q] = S[S_FLOWERS + q]
        view[V_SCORE + q] = S[S_SCORE + q]
        if q == p:
            continue
        for m in range(_view_melds(S, q, view)):
            if S[S_MELD + 12 * q + 3 * m] == 4:
                view[V_MELD + 12 * q + 3 * m + 1] = -1  # another's concealed kong: unseen
    view[V_ROUND] = S[S_ROUND]
    view[V_LAST_SEAT] = S[S_LAST_SEAT]
    view[V_PHASE] = S[S_PHASE]


@ijit
def make_own_view(S, p, view):
    """The slots of :func:`make_view` that the built-in policies read: seat ``p``'s
    hand, unseen tiles and melds, its seat, the tile drawn, the wall left and the
    last tile (the other slots are left as they are: the engine fills the whole
    view only for user policies, as building it on every decision was a few per
    cent of an efficiency game)."""
    for t in range(34):
        c = S[S_HAND + 34 * p + t]
        view[V_HAND + t] = c
        view[V_UNSEEN + t] = 4 - c - S[S_SHOWN + t]
    view[V_NMELD + p] = S[S_NMELD + p]
    for m in range(_view_melds(S, p, view)):
        o = S_MELD + 12 * p + 3 * m
        if S[o] == 4:
            view[V_UNSEEN + S[o + 1]] -= 4  # own concealed kong: not in S_SHOWN
    view[V_SEAT] = p
    view[V_WALL_LEFT] = wall_left(S, p)
    view[V_LAST_TILE] = S[S_LAST_TILE]
    view[V_DRAWN] = S[S_DRAWN]


@ijit
def _view_melds(S, q, view):
    """Copy seat ``q``'s four meld slots into ``view``; returns its number of melds."""
    for m in range(4):
        o = S_MELD + 12 * q + 3 * m
        v = V_MELD + 12 * q + 3 * m
        view[v] = S[o]
        view[v + 1] = S[o + 1]
        view[v + 2] = S[o + 2]
    return S[S_NMELD + q]


@ijit
def _own_hand(view, pw):
    """The viewer's hand as the policy kernels take it: counts, melds, unseen."""
    counts = pw[W_COUNTS]
    melds = pw[W_MELDS]
    unseen = pw[W_UNSEEN]
    p = view[V_SEAT]
    for t in range(34):
        counts[t] = view[V_HAND + t]
        unseen[t] = view[V_UNSEEN + t]
    n = view[V_NMELD + p]
    for m in range(4):
        melds[m, 0] = view[V_MELD + 12 * p + 3 * m] if m < n else 0
        melds[m, 1] = view[V_MELD + 12 * p + 3 * m + 1] if m < n else 0
    return counts, melds, unseen, n


@hjit
def _claim_apply(counts, melds, n, a, t, sign):
    """Take (``sign`` -1) or give back (+1) the concealed tiles and the new meld of
    claim ``a`` of discard ``t`` in a policy's copy of its hand (``melds[n]``)."""
    kind = a // 64
    arg = a % 64
    if kind == A_CHOW:
        lo, hi, copies = arg - 1, arg + 2, 1
        mk, mt = 1, arg - 1
    else:
        lo, hi, copies = t, t + 1, (2 if kind == A_PUNG else 3)
        mk, mt = (2 if kind == A_PUNG else 3), t
    for k in range(lo, hi):
        if kind == A_CHOW and k == t:
            continue
        # uint8 counts: subtract or add a non-negative amount (no negative operand)
        if sign < 0:
            counts[k] -= copies
        else:
            counts[k] += copies
    melds[n, 0] = mk if sign < 0 else 0
    melds[n, 1] = mt if sign < 0 else 0


@hjit
def _claim_need(counts, melds, n, unseen, a, t, pctx, tab, pw, bound):
    """Need after chow or pung ``a`` of discard ``t`` (and its best discard) and, when
    8 fan must stay reachable, whether a fan target reaching the minimum survives it
    (``(need, reachable)``).

    ``reachable`` is worked out only for a need below ``bound`` (else False): the
    caller takes no claim that does not lower its need, and the fan targets cost
    far more than the need."""
    _claim_apply(counts, melds, n, a, t, -1)
    need = P.least_discard_need(counts, n + 1, pctx[P.CTX_FORMS], tab, pw[P.W_AUX], bound - 1)
    reachable = need < bound
    if reachable and pctx[P.CTX_FAN_PLANS]:
        k, _ = P._collect_targets(
            counts, melds, n + 1, unseen, pctx, tab, need - 1, pw[P.W_TARGET], pw, True
        )
        reachable = k > 1  # target 0 is the plain hand, not sure to be legal
    _claim_apply(counts, melds, n, a, t, 1)
    return need, reachable


@ijit
def efficiency_own(view, acts, n_acts, pctx, tab, pw):
    """Own turn of the ``efficiency`` policy: win when legal; else the discard of
    :func:`mjstats.kernels.policies.efficiency`, or a kong that leaves the shanten
    no worse than that discard."""
    for i in range(n_acts):
        if acts[i] // 64 == A_TSUMO:
            return acts[i]
    counts, melds, unseen, n = _own_hand(view, pw)
    choice = P.efficiency(counts, melds, n, view[V_DRAWN], unseen, view[V_WALL_LEFT], pctx, tab, pw)
    best = pw[P.W_INFO][P.INFO_NEED]
    for i in range(n_acts):
        kind = acts[i] // 64
        t = acts[i] % 64
        if kind == A_ANGANG:
            counts[t] -= 4
            need = P.hand_need(counts, n + 1, pctx[P.CTX_FORMS], tab)
            counts[t] += 4
            if need <= best:
                return acts[i]
        elif kind == A_BUGANG and pw[P.W_NEED][t] <= best:
            return acts[i]
    return action(A_DISCARD, choice)


@ijit
def efficiency_response(view, acts, n_acts, pctx, tab, pw):
    """Answer of the ``efficiency`` policy: win when legal; else the claim that lowers
    the need most while a fan target reaching the minimum stays reachable; else pass."""
    if n_acts == 1:
        return acts[0]
    for i in range(n_acts):
        if acts[i] // 64 == A_HU:
            return acts[i]
    counts, melds, unseen, n = _own_hand(view, pw)
    t = view[V_LAST_TILE]
    forms = pctx[P.CTX_FORMS]
    need = P.hand_need(counts, n, forms, tab)
    # A claim's hand could have been kept concealed, so its need is at least that
    # of the hand with t added: a claim lowers the need only if t does, and an
    # exposed kong (a pung kept concealed would do as well) never does.
    counts[t] += 1
    with_t = P.hand_need(counts, n, forms, tab)
    counts[t] -= 1
    if with_t >= need:
        return acts[0]
    for i in range(1, n_acts):
        if acts[i] // 64 == A_KONG:
            continue
        # by the same bound no claim lowers the need by more than one: the first
        # that does is the best
        after, reachable = _claim_need(counts, melds, n, unseen, acts[i], t, pctx, tab, pw, need)
        if reachable and after < need:
            return acts[i]
    return acts[0]


@hjit
def _fan_need(counts, melds, n, unseen, pctx, tab, pw):
    """Smallest need of a fan target of :func:`mjstats.kernels.policies.fan_aware`
    (one that reaches the minimum with the base of a self-drawn win; the plain hand
    excluded) for the hand in ``counts``/``melds``; :data:`~mjstats.kernels.policies.NO_NEED`
    if none is within one step of the plain need."""
    plain = P.hand_need(counts, n, pctx[P.CTX_FORMS], tab)
    targets = pw[P.W_TARGET]
    k, _ = P._collect_targets(counts, melds, n, unseen, pctx, tab, plain, targets, pw, False)
    best = P.NO_NEED
    for i in range(1, k):  # target 0 is the plain hand
        best = min(best, targets[i, 2])
    return best


@hjit
def fan_aware_own(view, acts, n_acts, pctx, tab, pw):
    """Own turn of the ``fan-aware`` policy: win when legal; else the discard of
    :func:`mjstats.kernels.policies.fan_aware` (the play study's 8-fan targeting), or
    a kong after which the nearest fan target is no farther than after that discard.

    Rulesets whose binding's ``FAN_PLANS`` is False (``pctx[CTX_FAN_PLANS]`` 0) play
    :func:`efficiency_own` (as the play policy does)."""
    for i in range(n_acts):
        if acts[i] // 64 == A_TSUMO:
            return acts[i]
    if pctx[P.CTX_FAN_PLANS] == 0:
        return efficiency_own(view, acts, n_acts, pctx, tab, pw)
    counts, melds, unseen, n = _own_hand(view, pw)
    choice = P.fan_aware(counts, melds, n, view[V_DRAWN], unseen, view[V_WALL_LEFT], pctx, tab, pw)
    kongs = False
    for i in range(n_acts):
        kind = acts[i] // 64
        kongs = kongs or kind == A_ANGANG or kind == A_BUGANG
    if not kongs:
        return action(A_DISCARD, choice)
    counts[choice] -= 1
    best = _fan_need(counts, melds, n, unseen, pctx, tab, pw)
    counts[choice] += 1
    for i in range(n_acts):
        kind = acts[i] // 64
        t = acts[i] % 64
        if kind == A_ANGANG:
            counts[t] -= 4
            melds[n, 0] = 4
            melds[n, 1] = t
            need = _fan_need(counts, melds, n + 1, unseen, pctx, tab, pw)
            melds[n, 0] = 0
            melds[n, 1] = 0
            counts[t] += 4
            if need <= best:
                return acts[i]
        elif kind == A_BUGANG:
            counts[t] -= 1  # the pung becomes a kong: the meld count stays
            need = _fan_need(counts, melds, n, unseen, pctx, tab, pw)
            counts[t] += 1
            if need <= best:
                return acts[i]
    return action(A_DISCARD, choice)


@hjit
def fan_aware_response(view, acts, n_acts, pctx, tab, pw):
    """Answer of the ``fan-aware`` policy: win when legal; else the claim (chow, pung,
    exposed kong) that brings the nearest fan target of its targeting (one reaching
    the minimum after the claim: an exposed meld leaves 自摸 as the only base) closest,
    if closer than without the claim; else pass.

    Rulesets whose binding's ``FAN_PLANS`` is False answer as :func:`efficiency_response`."""
    if n_acts == 1:
        return acts[0]
    for i in range(n_acts):
        if acts[i] // 64 == A_HU:
            return acts[i]
    if pctx[P.CTX_FAN_PLANS] == 0:
        return efficiency_response(view, acts, n_acts, pctx, tab, pw)
    counts, melds, unseen, n = _own_hand(view, pw)
    best = _fan_need(counts, melds, n, unseen, pctx, tab, pw)
    choice = acts[0]
    t = view[V_LAST_TILE]
    for i in range(1, n_acts):
        _claim_apply(counts, melds, n, acts[i], t, -1)
        need = _fan_need(counts, melds, n + 1, unseen, pctx, tab, pw)
        _claim_apply(counts, melds, n, acts[i], t, 1)
        if need < best:
            best = need
            choice = acts[i]
    return choice


@ijit
def choose(policy, efficiency, fan_aware, view, acts, n_acts, pctx, tab, pw, rng):
    """Built-in policy ``policy`` (``POLICY_*``) picks one of ``acts[:n_acts]``:
    ``efficiency`` and ``fan_aware`` are those policies' halves for the decision
    (``efficiency_own`` and ``fan_aware_own`` on the own turn, the ``_response``
    ones for an answer)."""
    if policy == POLICY_RANDOM:
        return acts[draw_below(rng, n_acts)]
    if policy == POLICY_FAN_AWARE:
        return fan_aware(view, acts, n_acts, pctx, tab, pw)
    return efficiency(view, acts, n_acts, pctx, tab, pw)


@jit
def new_work(n_fans, suits):
    """Per-thread scratch of the engine: the policy work tuple of
    :func:`mjstats.kernels.policies.new_policy_work` extended with the engine's
    hand buffers (slots ``W_TMP + 1 ..``), then the scorer buffers."""
    pw = P.new_policy_work(n_fans, suits)
    work = (
        pw[0], pw[1], pw[2], pw[3], pw[4], pw[5], pw[6],
        np.zeros(34, np.uint8), np.zeros((4, 2), np.uint8), np.zeros(34, np.int64),
    )  # fmt: skip
    buf = (np.zeros(34, np.uint8), np.zeros((4, 2), np.uint8))
    return work, buf


# ---------------------------------------------------------------- a whole game
@jit
def _splitmix(x):
    x = x + np.uint64(0x9E3779B97F4A7C15)
    z = x
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x, z ^ (z >> np.uint64(31))


@jit
def game_rng(seed, game, rng):
    """Seed ``rng`` (uint64 (4,)) for game number ``game`` of a study with ``seed``:
    a game's randomness depends only on the seed and its number (any threads, chunks)."""
    x = np.uint64(seed) ^ (np.uint64(game) * np.uint64(0xD1B54A32D192ED03))
    for i in range(4):
        x, z = _splitmix(x)
        rng[i] = z
    if rng[0] == 0 and rng[1] == 0 and rng[2] == 0 and rng[3] == 0:
        rng[0] = 1


@jit
def shuffle_wall(rng, wall, tiles, n_flowers):
    """Fill ``wall`` (int64, ``wall_size(tiles, n_flowers)``) with a uniformly shuffled
    wall: four copies of each tile kind in the mask ``tiles``, then ``n_flowers``
    flowers, in that order before the shuffle."""
    n = 0
    for t in range(34):
        if (tiles >> t) & 1:
            for _ in range(4):
                wall[n] = t
                n += 1
    for f in range(n_flowers):
        wall[n] = 34 + f
        n += 1
    # the generator's state in registers for the 143 draws (randbelow(rng, n - i),
    # the same draws): a call a draw loaded and stored it, about a tenth of a
    # random game's time
    s0, s1, s2, s3 = rng[0], rng[1], rng[2], rng[3]
    for i in range(n - 1):
        r, s0, s1, s2, s3 = below(n - i, s0, s1, s2, s3)
        j = i + r
        x = wall[i]
        wall[i] = wall[j]
        wall[j] = x
    rng[0] = s0
    rng[1] = s1
    rng[2] = s2
    rng[3] = s3


@jit
def wall_size(tiles, n_flowers):
    """Tiles in a wall of four copies of each kind in ``tiles`` (a mask) and ``n_flowers``."""
    n = n_flowers
    for t in range(34):
        n += 4 * ((tiles >> t) & 1)
    return n


@ijit
def _decide(user, eff, fan, slot, S, q, n, acts, view, gctx, pctx, tab, work, rng):
    """Seat ``q``'s policy picks one of ``acts[:n]`` from its view of ``S``; -1 when
    it returns an action not among them (seat and action kept in ``S[S_ERR_*]``).

    ``eff``, ``fan``: the built-in policies' halves for the decision,
    ``efficiency_own`` and ``fan_aware_own`` on the own turn (``slot`` 0), the
    ``_response`` ones for an answer (``slot`` 4). Functions, not a flag, so that
    each of the loop's two call sites compiles only its own halves (the efficiency
    ones are inlined: a call passes the tables and the work tuple as 434 machine
    words, an eighth of an efficiency game).

    ``user``: None (built-in policies only; the branch is pruned at compile time)
    or the 8 user functions (own turn of seats 0-3, then answers of seats 0-3) of
    :func:`play_games_custom`, ``user[slot + q]`` called for the seats whose policy
    is ``POLICY_USER``."""
    policy = gctx[G_POLICY + q]
    if policy == POLICY_USER:
        make_view(S, q, view)
    elif policy != POLICY_RANDOM:  # the random policy looks at nothing
        make_own_view(S, q, view)
    if user is None:
        a = choose(policy, eff, fan, view, acts, n, pctx[q], tab, work, rng)
    elif policy == POLICY_USER:
        a = user[slot + q](view, acts, n, pctx[q], tab, work)
    else:
        a = choose(policy, eff, fan, view, acts, n, pctx[q], tab, work, rng)
    if policy == POLICY_RANDOM:  # acts[randbelow(n)]: listed by construction
        return a
    for i in range(n):
        if acts[i] == a:
            return a
    S[S_ERR_SEAT] = q
    S[S_ERR_ACTION] = a
    return -1


@hjit
def _log(S, log, seat, kind, tile, ignored):
    n = S[S_NLOG]
    if n < log.shape[0]:
        log[n, 0] = seat
        log[n, 1] = kind
        log[n, 2] = tile
        log[n, 3] = ignored
        S[S_NLOG] = n + 1


# log rows: [seat, kind, tile, ignored]; kind is an action kind or LOG_DRAW; ignored
# = 1 for a claim the priority rule passed over (the text records' ``Ignore`` part)
LOG_DRAW = 15
MAX_LOG = 512


@hjit
def play_game(S, wall, gctx, pctx, tab, scratch, fan_out, work, buf, view, acts, resp, rng, log):
    """Play one game from the wall in ``wall`` to its end; returns an error code.

    Built-in policies only; :func:`play_game_user` takes user policies too."""
    return play_game_user(
        None, S, wall, gctx, pctx, tab, scratch, fan_out, work, buf, view, acts, resp, rng, log
    )


@hjit
def play_game_user(
    user, S, wall, gctx, pctx, tab, scratch, fan_out, work, buf, view, acts, resp, rng, log
):
    """Play one game from the wall in ``wall`` to its end; returns an error code.

    ``pctx``: int64 (4, CTX_SIZE) the policy contexts per seat. On ``E_POLICY``
    ``S[S_ERR_SEAT]`` and ``S[S_ERR_ACTION]`` say who returned what. ``log``:
    int64 (k, 4) receives the first ``k`` moves (:data:`LOG_DRAW` rows for
    draws), ``S[S_NLOG]`` of them; pass shape (0, 4) not to log.
    """
    err = new_game_of(
        S, wall, gctx[G_WALL], gctx[G_ROUND], gctx[G_SEATS], gctx[G_TILES], gctx[G_WALL_FLOWERS]
    )
    if err != E_OK:
        return err
    check = gctx[G_CHECK] != 0
    logging = log.shape[0] > 0
    begin_turn(S, 0, False, gctx, tab, scratch, fan_out, buf)
    logged_draws = 0
    for _ in range(_MAX_STEPS):
        if logging and S[S_DRAWS] != logged_draws:
            logged_draws = S[S_DRAWS]
            _log(S, log, S[S_TURN], LOG_DRAW, S[S_DRAWN], 0)
        ph = S[S_PHASE]
        if ph == PH_WIN or ph == PH_DRAWN:
            S[S_SHANTEN_FLOOR] = 0
            return E_OK
        if check and not check_tiles_in(S, view):  # view: free between decisions
            return E_INVARIANT
        if ph == PH_OWN:
            p = S[S_TURN]
            if gctx[G_POLICY + p] == POLICY_RANDOM:
                # choose's acts[randbelow(n)] without listing the discards: the same
                # draw, the same action (legal_own lists them after the others in
                # tile order), about half the bit loop and no stores
                n, held = _own_front(S, acts)
                r = draw_below(rng, n + popcount(held))
                a = acts[r] if r < n else action(A_DISCARD, _nth_bit(held, r - n))
            else:
                n = legal_own(S, acts)
                a = _decide(
                    user, efficiency_own, fan_aware_own, 0,
                    S, p, n, acts, view, gctx, pctx, tab, work, rng,
                )  # fmt: skip
                if a < 0:
                    return E_POLICY
            if logging:
                _log(S, log, p, a // 64, a % 64, 0)
            apply_own(S, a, gctx, tab, scratch, fan_out, buf)
        else:
            d = S[S_LAST_SEAT]
            n_seats = seats(S)
            for k in range(4):
                resp[k] = A_PASS
            for k in range(1, n_seats):
                q = d + k if d + k < n_seats else d + k - n_seats
                n = legal_response(S, q, gctx, tab, scratch, fan_out, buf, acts)
                if n == 1:
                    continue
                a = _decide(
                    user, efficiency_response, fan_aware_response, 4,
                    S, q, n, acts, view, gctx, pctx, tab, work, rng,
                )  # fmt: skip
                if a < 0:
                    return E_POLICY
                resp[q] = a
            taken = resolve(S, resp, gctx, tab, scratch, fan_out, buf)
            if logging and taken >= 0:
                _log(S, log, taken, resp[taken] // 64, resp[taken] % 64, 0)
                for q in range(4):
                    if q != taken and resp[q] != A_PASS:
                        _log(S, log, q, resp[q] // 64, resp[q] % 64, 1)
    return E_STEPS


# per-game results (row of `out`)
R_ERR = 0
R_WINNER = 1  # -1 drawn
R_KIND = 2
R_FROM = 3
R_TOTAL = 4
R_SCORE = 5  # 4
R_STEPS = 9
R_CLAIMS = 10
R_LAST_KIND = 11
R_LAST_WALL = 12
R_KONG_WIN = 13
R_ERR_SEAT = 14
R_ERR_ACTION = 15
N_R = 16


@pjit
def play_games(first, n_games, seed, gctx, pctx, tab, suits, n_fans, out, fans_out, final, logs):
    """Play games ``first .. first + n_games - 1`` of a study with ``seed`` (parallel over games).

    ``out`` int64 (n_games, N_R) per-game results; ``fans_out`` uint8 (n_games,
    n_fans) fan counts of the win (zero for a drawn game); ``final`` int64
    (n_games, N_STATE) the final state of each game (for the invariant tests;
    pass shape (0, N_STATE) to skip); ``logs`` int64 (n_games, k, 4) the moves of
    each game (see :func:`play_game`; shape (0, 0, 4) to skip).
    """
    n_threads = 16
    per = (n_games + n_threads - 1) // n_threads
    for b in prange(n_threads):
        _play_block(
            None, b * per, min(n_games, b * per + per), first, seed, gctx, pctx, tab, suits,
            n_fans, out, fans_out, final, logs,
        )  # fmt: skip
    return 0


@pjit
def play_games_custom(
    own0, own1, own2, own3, answer0, answer1, answer2, answer3, first, n_games, seed, gctx,
    pctx, tab, suits, n_fans, out, fans_out, final, logs,
):  # fmt: skip
    """:func:`play_games` with user policies: ``own<q>`` / ``answer<q>`` are seat ``q``'s
    functions (:func:`user_policy_type`), called where ``gctx[G_POLICY + q]`` is
    ``POLICY_USER``; compile it once with :func:`custom_games_kernel`."""
    user = (own0, own1, own2, own3, answer0, answer1, answer2, answer3)
    n_threads = 16
    per = (n_games + n_threads - 1) // n_threads
    for b in prange(n_threads):
        _play_block(
            user, b * per, min(n_games, b * per + per), first, seed, gctx, pctx, tab, suits,
            n_fans, out, fans_out, final, logs,
        )  # fmt: skip
    return 0


@ijit  # inlined: the game loop is compiled once per entry point, not a third time
def _play_block(
    user, lo, hi, first, seed, gctx, pctx, tab, suits, n_fans, out, fans_out, final, logs
):
    """Games ``lo .. hi - 1`` of one thread of :func:`play_games` (its scratch allocated once)."""
    if lo >= hi:
        return
    S = np.zeros(N_STATE, np.int64)
    wall = np.zeros(144, np.int64)[: wall_size(gctx[G_TILES], gctx[G_WALL_FLOWERS])]
    work, buf = new_work(n_fans, suits)
    scratch = work[P.W_SCORE]
    fan = np.zeros(n_fans, np.uint8)
    view = np.zeros(N_VIEW, np.int64)
    acts = np.zeros(MAX_ACTIONS, np.int64)
    resp = np.zeros(4, np.int64)
    rng = np.zeros(4, np.uint64)
    no_log = np.zeros((0, 4), np.int64)
    for i in range(lo, hi):
        log = logs[i] if logs.shape[0] > 0 else no_log
        game_rng(seed, first + i, rng)
        shuffle_wall(rng, wall, gctx[G_TILES], gctx[G_WALL_FLOWERS])
        err = play_game_user(
            user, S, wall, gctx, pctx, tab, scratch, fan, work, buf, view, acts, resp, rng, log
        )
        r = out[i]
        r[R_ERR] = err
        r[R_WINNER] = S[S_WINNER]
        r[R_KIND] = S[S_WIN_KIND]
        r[R_FROM] = S[S_FROM]
        r[R_TOTAL] = S[S_TOTAL]
        for q in range(4):
            r[R_SCORE + q] = S[S_SCORE + q]
        r[R_STEPS] = S[S_STEPS]
        r[R_CLAIMS] = S[S_CLAIMS]
        r[R_LAST_KIND] = S[S_LAST_KIND]
        r[R_LAST_WALL] = S[S_LAST_WALL]
        r[R_KONG_WIN] = S[S_KONG_WIN]
        r[R_ERR_SEAT] = S[S_ERR_SEAT]
        r[R_ERR_ACTION] = S[S_ERR_ACTION]
        if S[S_WINNER] >= 0:
            for f in range(n_fans):
                fans_out[i, f] = fan[f]
        else:
            for f in range(n_fans):
                fans_out[i, f] = 0
        if final.shape[0] > 0:
            for k in range(N_STATE):
                final[i, k] = S[k]
