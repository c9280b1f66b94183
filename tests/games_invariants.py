"""Whole-game invariants of the game engine, shared by the four-player MCR and the
two-player tests (tests/test_games_engine.py, tests/test_games_two_player.py).

:func:`check_games` plays ``n`` seeded games in chunks (``play_games(first=...)``,
so a million games never hold a million state vectors) with the engine's tile
check after every step (every tile in exactly one place, no fifth copy: a broken
step raises ``GameError``), and checks each chunk with :func:`check_played`:

- every game ended, in a win or an exhausted wall, with no error;
- payments as the ruleset states them, computed here from ``base_payment`` for
  every seat of every game (numpy, no per-game loop): a self-drawn win is paid
  ``base + total`` by every opponent, a win on a discard (or robbed kong)
  ``base + total`` by the discarder and ``base`` by the others; a draw pays
  nothing; the winner's gain is :meth:`Ruleset.payment`; every game sums to zero;
- every win legal and scored as :func:`mjstats.score_batch` scores the winner's
  hand (:func:`mjstats.studies.games.winning_hands`): total and every fan count.

It returns the wins per seat, for :func:`assert_seats_win_alike` (chi-square).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from mjstats import score_batch
from mjstats.games import game_rules, play_games
from mjstats.games import kernels as G
from mjstats.studies.games import winning_hands

CHUNK = 50_000
"""Games per chunk: 50k state vectors are 180 MB (448 int64 each)."""

P_MIN = 0.001
"""Smallest p-value of the equal-wins chi-square test that passes."""


@dataclass
class Tally:
    """What :func:`check_games` counted over all its chunks."""

    games: int = 0
    wins: np.ndarray = field(default_factory=lambda: np.zeros(4, np.int64))
    self_drawn: int = 0

    @property
    def won(self) -> int:
        return int(self.wins.sum())


def scores(games) -> np.ndarray:
    """The per-seat score columns (``score0``.., one per seat in play) as int64 (n, seats)."""
    cols = [c for c in games.columns if c.startswith("score")]
    return games[cols].to_numpy(np.int64)


def expected_scores(winner, kind, frm, total, seats, base) -> np.ndarray:
    """Each seat's score by the payment rule: (n, seats) int64, zero rows for draws."""
    n = len(winner)
    seat = np.arange(seats)[None, :]
    won = (winner >= 0)[:, None]
    is_winner = seat == winner[:, None]
    full = (kind == G.WIN_SELF_DRAWN)[:, None] | (seat == frm[:, None])
    pay = np.where(won & ~is_winner, base + np.where(full, total[:, None], 0), 0)
    gain = pay.sum(axis=1)
    out = -pay
    out[np.arange(n), np.maximum(winner, 0)] += np.where(winner >= 0, gain, 0)
    return out


def check_played(games, fans, final, ruleset) -> np.ndarray:
    """Assert the invariants of one batch of played games; return the won-game mask.

    ``games, fans, final`` are what ``play_games(..., keep_state=True)`` returned.
    """
    seats = len(game_rules(ruleset).seat_winds)
    n = len(games)
    assert (games.error.to_numpy() == G.E_OK).all(), games[games.error != G.E_OK].head()
    # every game ended, in a win or an exhausted wall
    phase = final[:, G.S_PHASE]
    bad = np.flatnonzero(~np.isin(phase, (G.PH_WIN, G.PH_DRAWN)))
    assert bad.size == 0, f"games {bad[:10]} did not end (phases {phase[bad[:10]]})"
    winner = games.winner.to_numpy()
    kind = games.kind.to_numpy()
    frm = games.from_seat.to_numpy()
    total = games.total.to_numpy()
    won = winner >= 0
    assert ((phase == G.PH_WIN) == won).all()
    assert (winner < seats).all()
    # who paid: nobody for a self-drawn win; another seat for a discard or a kong
    assert (frm[won & (kind == G.WIN_SELF_DRAWN)] == -1).all()
    on_discard = won & (kind != G.WIN_SELF_DRAWN)
    assert ((frm[on_discard] >= 0) & (frm[on_discard] < seats)).all()
    assert (frm[on_discard] != winner[on_discard]).all()
    # payments, from the ruleset's base (docs/games.md; docs/two-player-rules.md G13)
    s = scores(games)
    assert s.shape == (n, seats)
    assert (final[:, G.S_SCORE : G.S_SCORE + seats] == s).all()
    assert (s.sum(axis=1) == 0).all(), np.flatnonzero(s.sum(axis=1))[:10]
    want = expected_scores(winner, kind, frm, total, seats, ruleset.base_payment)
    wrong = np.flatnonzero((s != want).any(axis=1))
    assert wrong.size == 0, (f"games {wrong[:10]}: scores {s[wrong[:3]].tolist()}, "
                             f"the payment rule gives {want[wrong[:3]].tolist()}")  # fmt: skip
    gain = s[won, winner[won]]
    assert (gain == ruleset.payment(total[won], kind[won] == G.WIN_SELF_DRAWN)).all()
    assert (total[~won] == 0).all() and (fans[~won] == 0).all()
    # every win is legal and scored as score_batch scores the same hand
    scored = score_batch(winning_hands(games, final, ruleset), ruleset)
    rows = np.flatnonzero(won)
    illegal = rows[~scored.legal]
    assert illegal.size == 0, f"games {illegal[:10]}: the engine let an illegal hand win"
    off = rows[(scored.total != total[won]) | (scored.fan_counts != fans[won]).any(axis=1)]
    assert off.size == 0, f"games {off[:10]}: scored otherwise than by score_batch"
    assert (final[won, G.S_TOTAL] == total[won]).all()
    return won


def check_games(n, seed, *, ruleset, policy, wall="shared", chunk=CHUNK, each=None) -> Tally:
    """Play games ``0 .. n-1`` of ``seed`` in chunks of ``chunk``, checking each.

    ``each(games, fans, final, first)`` runs on every chunk after
    :func:`check_played` (ruleset-specific checks).
    """
    tally = Tally()
    for first in range(0, n, chunk):
        size = min(chunk, n - first)
        games, fans, final = play_games(size, seed, ruleset=ruleset, policy=policy, wall=wall,
                                        first=first, check=True, keep_state=True)  # fmt: skip
        check_played(games, fans, final, ruleset)
        if each is not None:
            each(games, fans, final, first)
        w = games.winner.to_numpy()
        tally.games += size
        tally.wins += np.bincount(w[w >= 0], minlength=4)[:4]
        tally.self_drawn += int((games.kind.to_numpy()[w >= 0] == G.WIN_SELF_DRAWN).sum())
    return tally


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for a chi-square variable of ``df`` (integer) degrees of freedom.

    Closed forms (no scipy in the test dependencies): even ``df`` a Poisson tail,
    odd ``df`` the normal tail plus a finite series.
    """
    if x <= 0:
        return 1.0
    if df % 2 == 0:
        term = total = 1.0
        for k in range(1, df // 2):
            term *= x / 2 / k
            total += term
        return math.exp(-x / 2) * total
    total = math.erfc(math.sqrt(x / 2))
    term = math.sqrt(2 * x / math.pi) * math.exp(-x / 2)
    for k in range(1, (df + 1) // 2):
        total += term
        term *= x / (2 * k + 1)
    return total


def seats_p_value(wins, seats) -> float:
    """p-value of the chi-square test that ``seats`` (indices) won equally often."""
    w = np.asarray(wins, np.int64)[list(seats)]
    expected = w.sum() / len(w)
    return chi2_sf(float(((w - expected) ** 2 / expected).sum()), len(w) - 1)


def assert_seats_win_alike(wins, seats) -> float:
    """Chi-square test that ``seats`` (indices; same policy) won equally often;
    fails below :data:`P_MIN`. Returns the p-value."""
    p = seats_p_value(wins, seats)
    w = np.asarray(wins)[list(seats)].tolist()
    assert p >= P_MIN, f"seats {list(seats)} won {w} times: p {p:.2g}"
    return p
