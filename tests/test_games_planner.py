"""The ``planner`` game policy (issue 32, item 4) and its plans (mjstats.games.plans).

Every game it plays keeps the engine's invariants and every win is legal (an
illegal claim or discard would stop the games with a ``GameError``); the needs of
its two new fan targets equal a plain enumeration of their blocks; it pungs where
a pung opens 混一色 + 碰碰和 and passes a chow that breaks it; near a win its ready
discard, its look-ahead and its claims at equal need follow the values the scorer
gives (every discard, wait and claim scored in the tests); the other built-in
policies are unchanged (benchmarks/games_fingerprint.py).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from conftest import scaled
from games_invariants import check_played
from numba import njit
from test_play import near_complete_hands

import mjstats
from mjstats.games import discard_policies as P
from mjstats.games import play_games
from mjstats.games.driver import LOG_DRAW
from mjstats.games.engine import engine_context
from mjstats.games.planner import discard_danger, planner_own, planner_response
from mjstats.games.plans import (
    all_types_need,
    collect_plans,
    exact_need,
    half_flush_pungs_need,
    has_plan_within,
    plan_need,
    plan_row_need,
    planner_discard,
)
from mjstats.games.policies import fan_aware_response, new_work
from mjstats.games.state import A_CHOW, A_DISCARD, A_PASS, A_PUNG, POLICY_PLANNER, action
from mjstats.games.stats import discard_shares
from mjstats.games.views import (
    N_VIEW,
    V_DRAWN,
    V_HAND,
    V_LAST_TILE,
    V_NMELD,
    V_RIVER,
    V_SEAT,
    V_UNSEEN,
    V_WALL_LEFT,
)
from mjstats.kernels.decompose import suit_table
from mjstats.kernels.shanten import shanten_one, useful_one
from mjstats.kernels.tables import get_tables
from mjstats.rules import get_ruleset
from mjstats.tiles import TILES, format_tiles, parse_tiles

MCR = get_ruleset("mcr")
INF = 10**6


@pytest.mark.parametrize("wall", ["shared", "botzone"])
def test_planner_invariants_and_every_win_legal(wall):
    g, fans, final = play_games(scaled(300), 41, policy="planner", wall=wall, check=True,
                                keep_state=True)  # fmt: skip
    check_played(g, fans, final, MCR)
    assert (g.winner >= 0).mean() > 0.4


def test_planner_mixed_table_and_two_player():
    g, _ = play_games(scaled(200), 3, policy=["planner", "fan-aware", "efficiency", "random"])
    assert int(g[["score0", "score1", "score2", "score3"]].sum(axis=1).abs().max()) == 0
    g2, _ = play_games(scaled(200), 3, ruleset="two-player", policy=["planner", "efficiency"])
    assert len(g2) == scaled(200)


# ---------------------------------------------------------------- brute-force needs
def _random_hand(rng, n_tiles):
    """A random concealed hand and random unseen copies (some kinds dead)."""
    pool = np.repeat(np.arange(34), 4)
    counts = np.bincount(rng.choice(pool, n_tiles, replace=False), minlength=34).astype(np.uint8)
    unseen = np.array([rng.integers(0, 5 - c) for c in counts], np.int64)
    return counts, unseen


def _missing(counts, unseen, block):
    """Tiles missing to make ``block`` (a list of kinds, repeats allowed), or INF."""
    need = 0
    for t in set(block):
        k = block.count(t)
        if counts[t] + unseen[t] < k:
            return INF
        need += max(0, k - int(counts[t]))
    return need


def _group_blocks(group):
    """Every set (pungs, and chows in a suit) and every pair of one of 五门齐's groups."""
    kinds = range(9 * group, 9 * group + 9) if group < 3 else (range(27, 31) if group == 3
                                                               else range(31, 34))  # fmt: skip
    sets = [[t] * 3 for t in kinds]
    if group < 3:
        sets += [[t, t + 1, t + 2] for t in kinds if t % 9 <= 6]
    return sets, [[t] * 2 for t in kinds]


def _all_types_brute(counts, unseen):
    best = INF
    for eye in range(5):
        total = 0
        for g in range(5):
            sets, pairs = _group_blocks(g)
            total += min(_missing(counts, unseen, b) for b in (pairs if g == eye else sets))
        best = min(best, total)
    return best


def _pungs_brute(counts, unseen, kinds, n_pungs):
    """Fewest tiles missing to ``n_pungs`` pungs + a pair of distinct ``kinds``."""
    best = INF
    for pungs in itertools.combinations(kinds, n_pungs):
        cost = sum(_missing(counts, unseen, [t] * 3) for t in pungs)
        if cost >= best:
            continue
        for eye in kinds:
            if eye not in pungs:
                best = min(best, cost + _missing(counts, unseen, [eye] * 2))
    return best


def _half_flush_pungs_brute(counts, unseen, suit):
    kinds = list(range(9 * suit, 9 * suit + 9)) + list(range(27, 34))
    return _pungs_brute(counts, unseen, kinds, 4)


def test_all_types_and_pungs_needs_equal_brute_force():
    rng = np.random.default_rng(32)
    melds = np.zeros((4, 2), np.uint8)
    tmp = np.zeros(34, np.uint8)
    for i in range(scaled(150)):
        counts, unseen = _random_hand(rng, 13 + i % 2)
        want = _all_types_brute(counts, unseen)
        got = int(all_types_need(counts, melds, 0, unseen, tmp))
        assert (got, i) == (min(want, P.NO_NEED), i) or (want >= INF and got >= P.NO_NEED)
        suit = i % 3
        want = _half_flush_pungs_brute(counts, unseen, suit)
        got = int(half_flush_pungs_need(counts, melds, 0, unseen, suit, tmp))
        assert (got, i) == (want, i) or (want >= INF and got >= P.NO_NEED)
        # every kind allowed, fewer pungs (a hand with melds): most kinds are not held
        n_pungs = 1 + i % 2
        want = _pungs_brute(counts, unseen, range(34), n_pungs)
        got = int(P.all_pungs_need(counts, unseen, n_pungs, tmp, P.ALL_KINDS))
        assert (got, i) == (want, i) or (want >= INF and got >= P.NO_NEED)


def test_melds_worth_the_minimum_make_the_plain_hand_a_plan():
    # 中 and 發 pungs (双箭刻 6) and a 9m pung (幺九刻 1) exposed, 23p 57s concealed:
    # with 自摸 every completion scores 8, so the plain hand, two draws away (a set of
    # 1p/4p and a pair of 5s/7s), is a sure plan. (It was once given up as no plan.)
    counts = parse_tiles("23p57s")
    melds = np.array([[2, 31], [2, 32], [2, 8], [0, 0]], np.uint8)
    unseen = (4 - counts).astype(np.int64)
    unseen[[31, 32, 8]] -= 3
    ctx = P.policy_context(MCR, 4, seat_wind=1)
    work, _ = new_work(len(MCR.fans), suit_table())
    assert int(P.hand_need(counts, 3, ctx[P.CTX_FORMS], get_tables())) == 2
    assert int(plan_need(counts, melds, 3, unseen, ctx, get_tables(), work)) == 2
    # without the 9m pung's fan (a 5m pung) the melds give 7: not sure, no plan is nearer
    melds[2, 1] = 4
    unseen[8] += 3
    unseen[4] -= 3
    assert int(plan_need(counts, melds, 3, unseen, ctx, get_tables(), work)) > 2


def test_has_plan_within_is_plan_need_within_one_of_plain():
    # the early-exit question the analysis asks of every draw, against the full count
    rng = np.random.default_rng(11)
    tab = get_tables()
    work, _ = new_work(len(MCR.fans), suit_table())
    answers = set()
    for k in range(scaled(3000)):
        n_melds = int(rng.integers(0, 4))
        melds = np.zeros((4, 2), np.uint8)
        for m in range(n_melds):
            if rng.random() < 0.5:  # a pung, honours and terminals often
                melds[m] = (2, rng.choice([0, 8, 9, 17, 18, 26, *range(27, 34), *range(34)]))
            else:
                melds[m] = (1, 9 * rng.integers(0, 3) + rng.integers(0, 7))
        counts, unseen = _random_hand(rng, 13 - 3 * n_melds + k % 2)
        ctx = P.policy_context(MCR, 4, seat_wind=int(rng.integers(0, 4)))
        plain = int(P.hand_need(counts, n_melds, ctx[P.CTX_FORMS], tab))
        want = int(plan_need(counts, melds, n_melds, unseen, ctx, tab, work)) <= plain + 1
        got = bool(has_plan_within(counts, melds, n_melds, unseen, ctx, tab, work))
        assert got == want, (format_tiles(counts), melds[:n_melds].tolist())
        answers.add(got)
    assert answers == {True, False}


def test_discard_shares_counts_the_discards_of_each_kind():
    # two games' logs by hand: draws, a pung, discards of 1m (twice), 5m, 1p, E, C
    rows = [[0, LOG_DRAW, 4, 0], [0, A_DISCARD, 0, 0], [1, A_PUNG, 0, 0],
            [1, A_DISCARD, 4, 0], [2, A_DISCARD, 9, 0]]  # fmt: skip
    other = [[3, A_DISCARD, 27, 0], [0, A_DISCARD, 31, 0], [1, A_DISCARD, 0, 0]]
    logs = np.zeros((2, 6, 4), np.int64)
    logs[0, :5], logs[1, :3] = rows, other
    raw = discard_shares(logs, pooled=False)
    want = np.zeros(34)
    want[[0, 4, 9, 27, 31]] = [2, 1, 1, 1, 1]
    assert np.allclose(raw, want / want.mean() * 100)
    pooled = discard_shares(logs)
    mean = 6 / 34  # discards of the mean kind
    assert np.isclose(pooled[0], pooled[18]) and np.isclose(pooled[0], (2 + 1) / 3 / mean * 100)
    assert np.isclose(pooled[28], 1 / 4 / mean * 100) and np.isclose(pooled[33], 1 / 3 / mean * 100)
    with pytest.raises(ValueError, match="rows of 4"):
        discard_shares(logs[..., :3])
    logs[1, 0, 2] = 34  # a discard of no tile
    with pytest.raises(ValueError, match="discard 3 of the logs is of tile 34"):
        discard_shares(logs)


def test_the_discard_share_table_is_what_the_planners_games_give():
    # the planner weighs a wait's copies won on a discard by how often their kind is
    # discarded in its own games: the table must stay what the games measure
    _, _, _, logs = play_games(scaled(2000), seed=11, policy="planner", wall="botzone",
                               keep_log=True)  # fmt: skip
    share = discard_shares(logs)
    assert np.abs(share - P.DISCARD_SHARE).max() <= 6, np.round(share).astype(int)
    assert P.DISCARD_SHARE[27] > 2 * P.DISCARD_SHARE[4]  # a wind beside a 5


# ---------------------------------------------------------------- near a win
def ready_value(counts, unseen, tab, melds="", seat_wind=0):
    """``(value, copies)`` of ready ``counts`` (13 tiles with ``melds``, hand text such
    as ``"[123s]"``, at ``seat_wind``): what its legal winning copies are paid, each once
    self-drawn (3 x (8 + fan), 100 times) and thrice on a discard (24 + fan, as many
    times as the planner's table says the kind is discarded per 100 draws), and the
    copies that win self-drawn (fan-aware's measure); oracle: ``mjstats.score``."""
    sh, mask = useful_one(counts, melds.count("["), 31, tab)
    value = copies = 0
    for w in range(34):
        if sh != 0 or not (int(mask) >> w) & 1 or unseen[w] == 0:
            continue
        text = f"{melds} {format_tiles(counts)}+{TILES[w]}"
        last = int(unseen[w]) + int(counts[w]) == 1  # the other three copies visible: 和绝张
        drawn = mjstats.score(text, self_drawn=True, last_of_kind=last, seat_wind=seat_wind)
        won = mjstats.score(text, self_drawn=False, last_of_kind=last, seat_wind=seat_wind)
        copies += int(unseen[w]) * drawn.legal
        value += 100 * int(unseen[w]) * (3 * (8 + drawn.total) if drawn.legal else 0)
        share = int(P.DISCARD_SHARE[w])
        value += 3 * share * int(unseen[w]) * (24 + won.total if won.legal else 0)
    return value, copies


def best_ready_value(counts, unseen, tab, melds="", seat_wind=0):
    """The largest :func:`ready_value` over the discards of ``counts`` (14 tiles)."""
    best = 0
    for e in np.flatnonzero(counts):
        counts[e] -= 1
        best = max(best, ready_value(counts, unseen, tab, melds, seat_wind)[0])
        counts[e] += 1
    return best


def hands_at_shanten(rng, n, shanten, tab):
    """The hands of 13 tiles at ``shanten`` among ``n`` random complete hands with one
    tile swapped and one taken away."""
    for counts in near_complete_hands(rng, n):
        counts = counts.astype(np.uint8)
        counts[int(rng.choice(np.flatnonzero(counts)))] -= 1
        if shanten_one(counts, 0, 31, tab) == shanten:
            yield counts


def planner_kit():
    """Shanten tables, a planner seat's context (three opponents), its scratch, no melds."""
    ctx = P.policy_context(MCR, POLICY_PLANNER)
    ctx[P.CTX_DISCARD_WINS] = 3
    work, _ = new_work(len(MCR.fans), suit_table())
    return get_tables(), ctx, work, np.zeros((4, 2), np.uint8)


def test_planner_takes_the_ready_hand_worth_most():
    # fan-aware takes the ready discard with the most legal winning copies; the
    # planner weighs each copy by what its win is paid, so a rarer wait that pays
    # more can win: its discard must reach the largest value the scorer gives
    tab, ctx, work, melds = planner_kit()
    rng = np.random.default_rng(32)
    checked = differs = 0
    for counts in near_complete_hands(rng, scaled(400)):
        if shanten_one(counts, 0, 31, tab) == -1:
            continue
        counts = counts.astype(np.uint8)
        unseen = (4 - counts).astype(np.int64)
        found = {}
        for t in np.flatnonzero(counts):
            counts[t] -= 1
            found[t] = ready_value(counts, unseen, tab)
            counts[t] += 1
        best = max(v for v, _ in found.values())
        if best == 0:
            continue
        checked += 1
        d = planner_discard(counts, melds, 0, 0, unseen, 20, ctx, tab, work)
        assert found[d][0] == best, format_tiles(counts)
        differs += found[d][1] < max(c for _, c in found.values())
    assert checked >= scaled(400) // 4
    assert differs > 0  # some hands' most copies pay less: the two measures differ


def plans_kept(rows, best, counts, melds, n_melds, unseen, ctx, tab, tmp):
    """The plans of ``rows`` at need ``best`` or one draw farther that the hand of
    ``counts`` (after a discard) keeps at their need, by the plans' own kernel."""
    return [
        r for r in rows
        if r[2] <= best + 1
        and plan_row_need(r, counts, melds, n_melds, unseen, ctx, tab, tmp, r[2] + 1) <= r[2]
    ]  # fmt: skip


def test_far_from_a_win_the_planner_keeps_the_plans_that_pay_most():
    # three draws or more from a win, the planner keeps the plans at the least need
    # that are worth most, each counted at what its win on a discard is paid: the
    # three others' base of 8 (the rules' base payment) and its fans; so two 8-fan
    # plans kept (64) outweigh one 24-fan plan (48); the plans one draw farther count
    # a quarter as much, and they must decide some discards. Oracle: the plans' own
    # kernels for which plans a discard keeps, summed here
    tab, ctx, work, melds = planner_kit()
    rng = np.random.default_rng(37)
    wall = np.repeat(np.arange(34), 4)
    checked = differs = by_farther = 0
    for _ in range(scaled(300)):
        counts = np.bincount(rng.choice(wall, 14, replace=False), minlength=34).astype(np.uint8)
        unseen = (4 - counts).astype(np.int64)
        need = np.zeros(34, np.int64)
        plain = int(P.discard_needs(counts, 0, ctx[P.CTX_FORMS], tab, need))
        if plain < 3:
            continue  # near a win the exact values decide
        n, best = collect_plans(
            counts, melds, 0, unseen, ctx, tab, plain, work[P.W_TARGET], work, 1
        )
        rows = work[P.W_TARGET][:n].copy()
        tmp = work[P.W_TMP]
        paid, fans, near = {}, {}, {}
        for t in np.flatnonzero(counts):
            counts[t] -= 1
            kept = plans_kept(rows, best, counts, melds, 0, unseen, ctx, tab, tmp)
            paid[t] = sum((3 * 8 + int(r[3])) * (4 if r[2] == best else 1) for r in kept)
            fans[t] = sum(int(r[3]) for r in kept if r[2] == best)
            near[t] = sum(3 * 8 + int(r[3]) for r in kept if r[2] == best)
            counts[t] += 1
        d = planner_discard(counts, melds, 0, 0, unseen, 20, ctx, tab, work)
        assert paid[d] == max(paid.values()), format_tiles(counts)
        checked += 1
        differs += fans[d] < max(fans.values())
        by_farther += near[d] < max(near.values())  # the nearest plans alone chose another
    assert checked >= scaled(300) // 2 and differs > 0 and by_farther > 0


def test_planner_look_ahead_counts_the_pungs_that_reach_ready():
    # one draw from ready, the planner weighs each unseen copy of a tile u by what the
    # ready hands it leads to are worth: drawn (100 times), and punged from any of
    # three opponents (as often as u is discarded per 100 draws); oracle: the scorer
    # on every hand
    tab, ctx, work, melds = planner_kit()
    rng = np.random.default_rng(34)
    checked = claimed = 0
    for counts in hands_at_shanten(rng, scaled(60), 1, tab):
        unseen = (4 - counts).astype(np.int64)
        want = 0
        for u in np.flatnonzero(unseen):
            after = unseen.copy()
            after[u] -= 1
            reach = 100 * best_ready_value(_with(counts, u), after, tab)
            for act, left, meld in claim_hands(counts, u):
                if act // 64 == A_PUNG:
                    value = best_ready_value(left, after, tab, meld)
                    reach += 3 * int(P.DISCARD_SHARE[u]) * value
                    claimed += value > 0
            want += int(unseen[u]) * reach
        scratch = np.zeros(34, np.int64)
        got = P._legal_ready_draws(counts, melds, 0, unseen, ctx, tab, work, scratch, True, -1)
        assert got == want, format_tiles(counts)
        checked += 1
    assert checked >= scaled(60) // 4 and claimed > 0


def open_hands_at_shanten_one(rng, n, tab):
    """``(counts, melds, text, unseen)``: 10 concealed tiles one draw from ready beside
    one exposed set (a pung or a chow the hand held), from ``n`` random near-complete
    hands."""
    for counts in near_complete_hands(rng, n):
        counts = counts.astype(np.uint8)
        pungs = [(2, t) for t in np.flatnonzero(counts >= 3)]
        chows = [(1, t) for t in range(27) if t % 9 <= 6 and all(counts[t : t + 3])]
        sets = pungs + chows
        if not sets:
            continue
        kind, t = sets[int(rng.integers(len(sets)))]
        tiles = [t] * 3 if kind == 2 else [t, t + 1, t + 2]
        for x in tiles:
            counts[x] -= 1
        counts[int(rng.choice(np.flatnonzero(counts)))] -= 1
        if shanten_one(counts, 1, 31, tab) != 1:
            continue
        melds = np.zeros((4, 2), np.uint8)
        melds[0] = kind, t
        unseen = (4 - counts).astype(np.int64)
        unseen[tiles] -= 1 if kind == 1 else 3
        text = format_tiles(_with(np.zeros(34, np.uint8), *tiles))
        yield counts, melds, f"[{text}]", unseen


def test_an_open_hands_look_ahead_counts_its_pungs_to_ready():
    # the look-ahead of a hand with an exposed meld, one draw from ready: each unseen
    # copy of u counts drawn and punged, each with the value of the ready hand it
    # leaves (the open hand's melds scored too); oracle: the scorer on every hand.
    # A pung is counted where the drawn hand has a legal win, as the kernel does (an
    # exposed pung can make the last copy 和绝张 where a concealed one cannot: rare)
    tab, ctx, work, _ = planner_kit()
    rng = np.random.default_rng(36)
    checked = claimed = 0
    for counts, melds, text, unseen in open_hands_at_shanten_one(rng, scaled(200), tab):
        want = 0
        for u in np.flatnonzero(unseen):
            after = unseen.copy()
            after[u] -= 1
            worth = best_ready_value(_with(counts, u), after, tab, text)
            reach = 100 * worth
            for act, left, meld in claim_hands(counts, u) if worth > 0 else ():
                if act // 64 == A_PUNG:
                    value = best_ready_value(left, after, tab, text + meld)
                    reach += 3 * int(P.DISCARD_SHARE[u]) * value
                    claimed += value > 0
            want += int(unseen[u]) * reach
        scratch = np.zeros(34, np.int64)
        got = P._legal_ready_draws(counts, melds, 1, unseen, ctx, tab, work, scratch, True, -1)
        assert got == want, (text, format_tiles(counts))
        checked += 1
    assert checked >= scaled(200) // 20 and claimed > 0


def test_legal_outs_scored_or_read_from_its_cache_are_what_the_scorer_gives():
    # legal_outs keeps each win it scores in a cache (W_MEMO past the memo), keyed by
    # the hand, its melds, the winning tile, 和绝张 and the context's winds: ready
    # hands with and without a meld, some waits down to their last copy, at two seat
    # winds sharing one scratch, each asked twice (the second from the cache) must
    # give what mjstats.score gives
    tab, _, work, _ = planner_kit()
    rng = np.random.default_rng(36)
    checked = last_copies = 0
    for counts in hands_at_shanten(rng, scaled(600), 0, tab):
        melds = np.zeros((4, 2), np.uint8)
        text = ""
        pungs = np.flatnonzero(counts >= 3)
        if len(pungs) and rng.random() < 0.5:  # the concealed pung shown as a meld
            counts[pungs[0]] -= 3
            melds[0] = (2, pungs[0])
            text = f"[{format_tiles(np.bincount([pungs[0]] * 3, minlength=34))}]"
        n_melds = int(melds[0, 0] != 0)
        unseen = np.array([rng.integers(0, 5 - c) if c < 4 else 0 for c in counts], np.int64)
        _, waits = useful_one(counts, n_melds, 31, tab)
        last_copies += any(unseen[w] + counts[w] == 1 for w in range(34) if waits >> w & 1)
        for seat_wind in (0, 1):
            ctx = P.policy_context(MCR, POLICY_PLANNER, seat_wind)
            ctx[P.CTX_DISCARD_WINS] = 3
            expected = ready_value(counts, unseen, tab, text, seat_wind)
            for _ in range(2):
                _, _, value = P.ready_outs(counts, melds, n_melds, unseen, ctx, tab, work)
                assert value == expected[0], (text, format_tiles(counts), seat_wind)
        checked += 1
    cache = work[P.W_MEMO][P.WIN_CACHE :].reshape(-1, 2)
    assert checked >= scaled(600) // 10 and last_copies > 0 and (cache[:, 0] != 0).sum() > 0


def test_the_look_ahead_memo_gives_what_each_hand_alone_gives():
    # the look-aheads of a 14-tile hand's discards share a memo of the ready hands
    # they reach (H - t + u - e is H - e + u - t): with it, each discard's look-ahead,
    # draws and pungs, for the planner and for fan-aware, must equal its look-ahead
    # alone, and a memo of another hand (an earlier generation) must never be read
    tab, ctx, work, melds = planner_kit()
    plain_ctx = P.policy_context(MCR, 0)
    rng = np.random.default_rng(35)
    scratch = np.zeros(34, np.int64)
    checked = shared = stored = 0
    for counts in hands_at_shanten(rng, scaled(120), 1, tab):
        u0 = int(rng.choice(np.flatnonzero(counts < 4)))
        counts = _with(counts, u0)  # 14 tiles, one draw from ready at best
        unseen = (4 - counts).astype(np.int64)
        for c, claims in ((ctx, True), (ctx, False), (plain_ctx, False)):
            P.new_memo_generation(work[P.W_MEMO])
            for t in np.flatnonzero(counts):
                counts[t] -= 1
                if shanten_one(counts, 0, 31, tab) == 1:
                    memo = P._legal_ready_draws(
                        counts, melds, 0, unseen, c, tab, work, scratch, claims, t
                    )
                    alone = P._legal_ready_draws(
                        counts, melds, 0, unseen, c, tab, work, scratch, claims, -1
                    )
                    assert memo == alone, format_tiles(counts)
                    shared += memo > 0
                counts[t] += 1
            memo = work[P.W_MEMO]
            stored += int((memo[: P.MEMO_GEN] >> 32 == memo[P.MEMO_GEN]).sum())
        checked += 1
    assert checked >= scaled(120) // 8 and shared > 0 and stored > 0
    memo = work[P.W_MEMO]
    memo[:] = 7
    memo[P.MEMO_GEN] = (1 << 31) - 1  # the last generation: the next one starts afresh
    P.new_memo_generation(memo)
    assert memo[P.MEMO_GEN] == 1 and not memo[: P.MEMO_GEN].any()


def test_a_ready_planner_claims_when_the_hand_it_leaves_pays_more():
    # a ready hand meets a discard of a simple it could chow or pung: a claim is a
    # free exchange of tiles, taken when some discard after it leaves a ready hand
    # whose legal outs are worth more than the hand's own (the best such claim), else
    # pass; oracle: the scorer on every discard and wait
    tab = get_tables()
    checked = claimed = 0
    for counts, t, unseen in simple_discards_beside(33, scaled(150), 0, tab):
        if shanten_one(_with(counts, t), 0, 31, tab) < 0:
            continue  # a win is declared
        before = ready_value(counts, unseen, tab, seat_wind=1)[0]
        if before == 0:
            continue
        acts, values = claims_worth(counts, t, unseen, tab, before)
        if len(acts) == 1:
            continue
        checked += 1
        want = acts[int(np.argmax(values))]
        assert _answer(planner_response, format_tiles(counts), t, acts) == want, (
            format_tiles(counts), TILES[t], values)  # fmt: skip
        claimed += want != acts[0]
    assert checked >= scaled(150) // 2
    assert 0 < claimed < checked


def test_the_planner_claims_the_ready_hand_worth_most():
    # one draw from ready, a discard it can chow or pung in more than one way to a
    # ready hand with a legal win: it takes one of the claims (each is nearer than
    # passing), the one whose ready hand's legal outs are worth most; oracle: the
    # scorer on every claim, discard and wait
    tab = get_tables()
    checked = single = 0
    for counts, t, unseen in simple_discards_beside(36, scaled(300), 1, tab):
        acts, values = claims_worth(counts, t, unseen, tab, 0)
        ready = sum(v > 0 for v in values)
        if not ready:
            continue
        got = _answer(planner_response, format_tiles(counts), t, acts)
        assert values[acts.index(got)] == max(values), (
            format_tiles(counts), TILES[t], values)  # fmt: skip
        checked += ready > 1
        single += ready == 1
    assert checked >= scaled(300) // 20 and single > 0


def _with(counts, *tiles):
    out = counts.copy()
    for t in tiles:
        out[t] += 1
    return out


def simple_discards_beside(seed, n, shanten, tab):
    """``(counts, t, unseen)``: each of ``n`` random hands at ``shanten`` (seeded) beside
    each simple ``t`` (2 to 8: terminals' pungs score, their own rule) another seat
    could discard, and the unseen copies once it is."""
    for counts in hands_at_shanten(np.random.default_rng(seed), n, shanten, tab):
        for t in range(27):
            if t % 9 in (0, 8) or counts[t] == 4:
                continue
            unseen = (4 - counts).astype(np.int64)
            unseen[t] -= 1
            yield counts, t, unseen


def claims_worth(counts, t, unseen, tab, passing):
    """``(actions, values)`` of the answers to a discarded ``t``: pass, worth
    ``passing``, and each claim of :func:`claim_hands`, worth the most a ready hand it
    leaves brings (:func:`best_ready_value` at seat 1's wind, as :func:`_answer`)."""
    acts, values = [action(A_PASS, 0)], [passing]
    for act, left, meld in claim_hands(counts, t):
        acts.append(act)
        values.append(best_ready_value(left, unseen, tab, meld, seat_wind=1))
    return acts, values


def claim_hands(counts, t):
    """``(action, tiles left, meld text)`` of each chow and the pung of a discarded ``t``
    that ``counts`` could make (by hand, from the rules: a chow of the suit around ``t``
    with the other two tiles held, a pung with two held)."""
    out = []
    first = t - t % 9
    for lo in range(max(t - 2, first), min(t, first + 6) + 1) if t < 27 else ():
        rest = [x for x in (lo, lo + 1, lo + 2) if x != t]
        if all(counts[x] for x in rest):
            left = counts.copy()
            left[rest] -= 1
            meld = format_tiles(_with(np.zeros(34, np.uint8), lo, lo + 1, lo + 2))
            out.append((action(A_CHOW, lo + 1), left, f"[{meld}]"))
    if counts[t] >= 2:
        left = counts.copy()
        left[t] -= 2
        out.append((action(A_PUNG, t), left, f"[{TILES[t][0] * 3}{TILES[t][1]}]"))
    return out


# ---------------------------------------------------------------- claims
def _answer(policy_response, hand, tile, acts):
    """``policy_response``'s answer for seat 1 holding ``hand`` to a discard of ``tile``."""
    counts = parse_tiles(hand)
    unseen = (4 - counts).astype(np.int64)
    unseen[tile] -= 1
    return _answer_counts(policy_response, counts, unseen, tile, acts)


def _answer_counts(policy_response, counts, unseen, tile, acts):
    """:func:`_answer` for a hand of ``counts`` that has not seen ``unseen``."""
    view = np.zeros(N_VIEW, np.int64)
    view[V_HAND : V_HAND + 34] = counts
    view[V_UNSEEN : V_UNSEEN + 34] = unseen
    view[V_SEAT] = 1
    view[V_WALL_LEFT] = 20
    view[V_LAST_TILE] = tile
    ctx = P.policy_context(MCR, POLICY_PLANNER, seat_wind=1)  # the planner sets its slot
    work, _ = new_work(len(MCR.fans), suit_table())
    acts = np.array(acts, np.int64)
    return int(policy_response(view, acts, len(acts), ctx, get_tables(), work))


def test_planner_pungs_into_half_flush_all_pungs():
    # 111m 555m 99m 88m 中中 2s + 中: the pung leaves 混一色 + 碰碰和 + 箭刻 ready
    # (discard 2s); without it the hand is two draws away and fan-aware passes, as no
    # single fan target of its reaches 8 with an exposed meld.
    hand = "11155599m88m55z2s"
    acts = [action(A_PASS, 0), action(A_PUNG, 31)]
    assert _answer(planner_response, hand, 31, acts) == action(A_PUNG, 31)
    assert _answer(fan_aware_response, hand, 31, acts) == action(A_PASS, 0)


def test_far_from_a_win_the_planner_pungs_when_its_plans_gain():
    # three draws or more from a win, a pung of a simple that brings the hand no
    # nearer is taken when the hand after it, at its best discard, keeps more plan
    # value at the same need than it holds (the measure of the discards above: the
    # plans at the least need four times what they pay, those one draw farther once).
    # Oracle: the plans' own kernels for which plans each hand holds and keeps
    tab, _, work, melds = planner_kit()
    ctx = P.policy_context(MCR, POLICY_PLANNER, seat_wind=1)  # _answer's seat
    ctx[P.CTX_DISCARD_WINS] = 3
    rng = np.random.default_rng(38)
    wall = np.repeat(np.arange(34), 4)
    tmp, targets = work[P.W_TMP], work[P.W_TARGET]

    def worth(rows, best):
        return sum((3 * 8 + int(r[3])) * (4 if r[2] == best else 1) for r in rows)

    taken = passed = 0
    for _ in range(scaled(400)):
        counts = np.bincount(rng.choice(wall, 13, replace=False), minlength=34).astype(np.uint8)
        for x in np.flatnonzero((counts >= 2) & (np.arange(34) < 27)):
            if x % 9 in (0, 8) or P.hand_need(counts, 0, ctx[P.CTX_FORMS], tab) < 3:
                continue
            unseen = (4 - counts).astype(np.int64)
            unseen[x] -= 1
            start = exact_need(counts, melds, 0, unseen, 20, ctx, tab, work)
            if start >= P.NO_NEED:
                continue  # no plan: nothing to weigh
            plain = P.hand_need(counts, 0, ctx[P.CTX_FORMS], tab)
            n, best = collect_plans(counts, melds, 0, unseen, ctx, tab, plain, targets, work, 1)
            held = worth([r for r in targets[:n] if r[2] <= best + 1], best)
            pung = counts.copy()
            pung[x] -= 2
            claimed = melds.copy()
            claimed[0] = (2, x)
            if exact_need(pung, claimed, 1, unseen, 20, ctx, tab, work) < start:
                continue  # nearer: taken by the first rule
            need = np.zeros(34, np.int64)
            plain = int(P.discard_needs(pung, 1, ctx[P.CTX_FORMS], tab, need))
            n, after = collect_plans(pung, claimed, 1, unseen, ctx, tab, plain, targets, work, 1)
            rows = targets[:n].copy()
            kept = 0
            for t in np.flatnonzero(pung):
                pung[t] -= 1
                keeps = plans_kept(rows, after, pung, claimed, 1, unseen, ctx, tab, tmp)
                kept = max(kept, worth(keeps, after))
                pung[t] += 1
            want = after == best and kept > held
            acts = [action(A_PASS, 0), action(A_PUNG, x)]
            got = _answer_counts(planner_response, counts, unseen, x, acts)
            assert got == acts[want], (format_tiles(counts), TILES[x])
            taken += want
            passed += not want
    assert taken > 0 and passed > 0


def test_planner_passes_a_chow_that_breaks_its_only_plan():
    # 111m 555p 88s 99s 中中 2m: its one plan is 碰碰和 + 箭刻 (6 + 2). 789s from the
    # left would lower the plain shanten but leave no set of fans worth 8: pass.
    # 中 it pungs (the plan one draw nearer); fan-aware, without meld fans, passes.
    hand = "111m555p88s99s55z2m"
    acts = [action(A_PASS, 0), action(A_CHOW, 25)]
    assert _answer(planner_response, hand, 24, acts) == action(A_PASS, 0)
    acts = [action(A_PASS, 0), action(A_PUNG, 31)]
    assert _answer(planner_response, hand, 31, acts) == action(A_PUNG, 31)
    assert _answer(fan_aware_response, hand, 31, acts) == action(A_PASS, 0)


@njit
def _planner_own_as_user(view, acts, n_acts, ctx, tab, work):
    return planner_own(view, acts, n_acts, ctx, tab, work)


@njit
def _planner_answer_as_user(view, acts, n_acts, ctx, tab, work):
    return planner_response(view, acts, n_acts, ctx, tab, work)


@njit
def _planner_own_checking_its_slot(view, acts, n_acts, ctx, tab, work):
    a = planner_own(view, acts, n_acts, ctx, tab, work)
    return a if ctx[P.CTX_DISCARD_WINS] == ctx[P.CTX_OPPONENTS] else -1


def naive_danger(view, t):
    """docs/games.md's danger of a discard of ``t``, written out plainly: 8 per
    opponent that has not let ``t`` go (8 more per meld it shows), plus the kind's
    shape (an honour: its unseen copies; 1/9: 4; 2/8: 5; 3-7: 6)."""
    me = int(view[V_SEAT])
    unsafe = sum(
        1 + int(view[V_NMELD + q]) for q in range(4) if q != me and view[V_RIVER + 34 * q + t] == 0
    )
    if t >= 27:
        shape = int(view[V_UNSEEN + t])
    else:
        shape = {0: 4, 8: 4, 1: 5, 7: 5}.get(t % 9, 6)
    return 8 * unsafe + shape


def test_discard_danger_ranks_what_the_opponents_let_go_safest():
    rng = np.random.default_rng(34)
    for _ in range(scaled(2000)):
        view = np.zeros(N_VIEW, np.int64)
        view[V_SEAT] = rng.integers(4)
        view[V_RIVER : V_RIVER + 136] = rng.integers(0, 2, 136) * (rng.random(136) < 0.3)
        view[V_NMELD : V_NMELD + 4] = rng.integers(0, 3, 4)
        view[V_UNSEEN : V_UNSEEN + 34] = rng.integers(0, 5, 34)
        danger = [int(discard_danger(view, t)) for t in range(34)]
        assert danger == [naive_danger(view, t) for t in range(34)]
        # a kind every opponent let go is safer than any kind none of them did
        me = int(view[V_SEAT])
        others = [q for q in range(4) if q != me]
        river = view[V_RIVER : V_RIVER + 136].reshape(4, 34)
        all_let_go = [t for t in range(34) if all(river[q, t] for q in others)]
        none_did = [t for t in range(34) if not any(river[q, t] for q in others)]
        if all_let_go and none_did:
            assert max(danger[t] for t in all_let_go) < min(danger[t] for t in none_did)


def test_the_planner_defends_when_its_hand_is_unlikely_to_be_ready_in_time():
    # when the seat has fewer draws left than two for each step the hand left by its
    # discard still lacks to a ready hand (docs/games.md, "planner"), the planner lets
    # go the least dangerous tile it holds (its own choice among equals), else its
    # discard stands
    tab, ctx, work, melds = planner_kit()
    rng = np.random.default_rng(35)
    defended = changed = kept = 0
    for _ in range(scaled(300)):
        wall = rng.permutation(np.repeat(np.arange(34), 4))
        counts = np.bincount(wall[:14], minlength=34).astype(np.uint8)
        view = np.zeros(N_VIEW, np.int64)
        view[V_HAND : V_HAND + 34] = counts
        let_go = wall[14 : 14 + int(rng.integers(0, 40))]
        for i, t in enumerate(let_go):
            view[V_RIVER + 34 * (1 + i % 3) + t] += 1
        view[V_NMELD + 1 : V_NMELD + 4] = rng.integers(0, 3, 3)
        unseen = (4 - counts - np.bincount(let_go, minlength=34)).astype(np.int64)
        view[V_UNSEEN : V_UNSEEN + 34] = unseen
        view[V_WALL_LEFT] = left = int(rng.integers(0, 12))
        view[V_DRAWN] = wall[13]
        acts = np.array([action(A_DISCARD, t) for t in np.flatnonzero(counts)], np.int64)
        own = planner_discard(counts.copy(), melds, 0, wall[13], unseen, left, ctx, tab, work)
        need = int(work[P.W_INFO][P.INFO_NEED])
        expected = own
        if left < 2 * (need - 1):
            held = [int(t) for t in np.flatnonzero(counts)]
            low = min(naive_danger(view, t) for t in held)
            if naive_danger(view, own) > low:
                expected = min(t for t in held if naive_danger(view, t) == low)
                changed += 1
            defended += 1
        else:
            kept += 1
        got = planner_own(view, acts, len(acts), ctx, tab, work)
        assert got == action(A_DISCARD, expected), format_tiles(counts)
    assert defended > 20 and changed > 10 and kept > 20


def test_a_user_policy_around_the_planner_kernels_plays_the_planner():
    # docs/games.md, "User policies": every seat's context counts self-drawn wins only
    # (fan-aware's kernels read the same slot); the planner's kernels switch their
    # weighing of discard wins on themselves, so a user policy that calls them plays
    # the very games of the built-in planner, with nothing to set
    n = scaled(400)
    _, pctx, _, _ = engine_context(MCR, "botzone", 0, "planner")
    assert (pctx[:, P.CTX_DISCARD_WINS] == 0).all() and (pctx[:, P.CTX_OPPONENTS] == 3).all()
    two = engine_context("two-player", "shared", 0, "planner")[1]
    assert (two[:, P.CTX_OPPONENTS] == 1).all()
    built_in = play_games(n, 7, policy="planner", wall="botzone")[0]
    as_user = (_planner_own_as_user, _planner_answer_as_user)
    user = play_games(n, 7, policy=as_user, wall="botzone")[0]
    assert user.equals(built_in)
    # the slot is set on the call, in the seat's own context (not the engine's copy)
    checked = (_planner_own_checking_its_slot, _planner_answer_as_user)
    assert play_games(n, 7, policy=checked, wall="botzone")[0].equals(built_in)
    assert (pctx[:, P.CTX_DISCARD_WINS] == 0).all()
