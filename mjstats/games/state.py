"""The game engine's state, actions and contexts: one declaration of each layout.

State
-----
One game is one ``int64`` vector ``S`` (layout ``S_*`` below), so every helper takes
a single array and a game allocates nothing:

* ``S_HAND`` 4 x 34 concealed counts; ``S_MELD`` 4 seats x 4 melds x (kind, tile,
  from seat) with the kinds of :mod:`mjstats.hand` (1 chow, tile = lowest tile; 2
  pung; 3 exposed kong, promoted ones included; 4 concealed kong); ``S_NMELD``;
* ``S_POOL`` unclaimed discards (34 counts); ``S_SHOWN`` the copies visible to all
  (unclaimed discards plus the tiles of exposed melds: what 和绝张 counts);
* ``S_RIVER`` each seat's discards so far (4 x 34 counts, claimed ones included:
  what a player at the table sees of the others' play);
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
"""

from __future__ import annotations

import numpy as np

from mjstats.kernels._jit import ijit

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
S_RIVER = 448  # 4 x 34: each seat's discards so far (claimed ones included)
N_STATE = S_RIVER + 4 * 34

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
POLICY_PLANNER = 4
POLICY_IDS = {
    "random": POLICY_RANDOM,
    "efficiency": POLICY_EFFICIENCY,
    "fan-aware": POLICY_FAN_AWARE,
    "planner": POLICY_PLANNER,
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
