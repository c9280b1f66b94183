"""The ``play`` study: game logic, policies, determinism, and a naive pure-Python replay."""

from __future__ import annotations

import pickle

import numba
import numpy as np
import pytest
from conftest import scaled

import mjstats
from mjstats.errors import UnknownRulesetError
from mjstats.games.discard_policies import (
    DISCARD_ORDER,
    W_FANS,
    discard_needs,
    efficiency,
    fan_aware,
    new_policy_work,
    policy_context,
)
from mjstats.games.solitaire import R_DRAW, R_PASSED, R_SIZE, R_TOTAL, play_solitaire
from mjstats.kernels._jit import jit
from mjstats.kernels.decompose import suit_table
from mjstats.kernels.rng import chunk_states
from mjstats.kernels.shanten import shanten_one, useful_one
from mjstats.kernels.tables import get_tables
from mjstats.report import fan_table
from mjstats.rules import get_ruleset
from mjstats.studies.play import PlayStudy, play, play_summary, win_curve
from mjstats.studies.runner import run_study
from mjstats.tiles import parse_tiles

MCR = get_ruleset("mcr")
N_FANS = MCR.n_fans


@pytest.fixture(scope="module")
def tab():
    return get_tables()


def ctx_of(policy_id=0, seat=0, rnd=0):
    return policy_context(MCR, policy_id, seat, rnd)


# ------------------------------------------------------------------ user policies (module level)
@jit
def discard_drawn(counts, melds, n_melds, drawn, unseen, draws_left, ctx, tab, work):
    """A user policy: keep the dealt hand, discard every draw."""
    return drawn


@jit
def invalid_then_efficient(counts, melds, n_melds, drawn, unseen, draws_left, ctx, tab, work):
    """A user policy that answers an unheld tile on odd draws (counted as errors)."""
    if draws_left % 2 == 1:
        for t in range(34):
            if counts[t] == 0:
                return t
    return efficiency(counts, melds, n_melds, drawn, unseen, draws_left, ctx, tab, work)


# ------------------------------------------------------------------ the study
@pytest.fixture(scope="module")
def eff_agg():
    return play(scaled(3000), seed=11, progress=False)


def test_counters_are_consistent(eff_agg):
    agg = eff_agg
    games, wins = int(agg["games"][0]), int(agg["wins"][0])
    assert games == scaled(3000)
    assert 0 < wins < games
    assert wins == int(agg["win_draw"].sum()) == int(agg["complete"][0]) == int(agg["legal"][0])
    assert int(agg["hands"][0]) == games
    assert int(agg["final_shanten"].sum()) == games - wins
    assert int(agg["policy_errors"][0]) == 0
    assert agg["win_draw"][0] == 0  # nobody wins before drawing
    assert agg["base_hist"][: MCR.minimum].sum() == 0  # every win is legal
    assert int(agg["base_hist"].sum()) == wins
    assert int(agg["total_hist"][0].sum()) == 0  # all wins self-drawn
    draws_made = int(agg["draws"][0])
    assert games * 1 <= draws_made <= games * 21


def test_reports_work_on_play_aggregates(eff_agg):
    table = fan_table(eff_agg)
    hands = dict(zip(table["id"], table["hands"], strict=True))
    # solitaire wins are concealed and self-drawn: no fan of a win on a discard or with melds
    for key in ("concealed_hand", "melded_hand", "last_tile_claim", "robbing_the_kong"):
        assert hands[MCR.fan_id(key)] == 0
    assert hands[MCR.fan_id("fully_concealed_hand")] > 0.7 * int(eff_agg["wins"][0])
    curve = win_curve(eff_agg)
    assert curve["draw"].tolist() == list(range(1, 22))
    assert curve["p_win_by"].is_monotonic_increasing
    s = play_summary(eff_agg)
    assert s["p_win"] == pytest.approx(curve["p_win_by"].iloc[-1])
    assert s["mean_fan"] >= MCR.minimum
    # MCR self-drawn payment: 3 x (8 + fan) per win
    assert s["points_per_game"] == pytest.approx(s["p_win"] * 3 * (8 + s["mean_fan"]))
    assert s["points_per_win"] == pytest.approx(3 * (8 + s["mean_fan"]))


def test_seed_grouping_and_threads_do_not_change_results():
    study = PlayStudy(scaled(600), seed=5, chunk_size=100)
    ref = run_study(study, group_size=1, progress=False)
    assert run_study(study, group_size=4, progress=False) == ref
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = run_study(study, group_size=3, progress=False)
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
        many = run_study(study, group_size=6, progress=False)
    finally:
        numba.set_num_threads(before)
    assert one == ref and many == ref
    other = run_study(PlayStudy(scaled(600), seed=6, chunk_size=100), progress=False)
    assert other != ref


def test_study_pickles_for_dask_workers():
    study = PlayStudy(300, seed=2, policy="fan-aware", chunk_size=100,
                      ruleset=get_ruleset("mcr", mingan_gang=False))  # fmt: skip
    clone = pickle.loads(pickle.dumps(study))
    assert clone.params() == study.params() and clone.params()["options"] == {"mingan_gang": False}
    assert clone.run_chunks(1, 2) == study.run_chunks(1, 2)
    custom = pickle.loads(pickle.dumps(PlayStudy(10, seed=1, policy=discard_drawn)))
    assert custom.params()["policy"] == "custom:test_play.discard_drawn"


def test_fan_aware_wins_more_often_than_efficiency():
    # same seed = same walls for both policies (common random numbers)
    n = scaled(3000)
    eff = play_summary(play(n, seed=21, progress=False))
    fan = play_summary(play(n, seed=21, policy="fan-aware", progress=False))
    assert fan["p_win"] > eff["p_win"] + 0.01
    assert fan["passed_per_game"] < eff["passed_per_game"]


def test_more_draws_more_wins():
    short = play_summary(play(scaled(1000), seed=3, draws=10, progress=False))
    long = play_summary(play(scaled(1000), seed=3, draws=30, progress=False))
    assert short["p_win"] < long["p_win"]


def test_last_tile_option_adds_last_tile_draw_wins():
    # with last_tile the final draw scores 妙手回春 (8): more (never fewer) wins
    a = play(scaled(1500), seed=4, draws=15, last_tile=True, progress=False)
    b = play(scaled(1500), seed=4, draws=15, progress=False)  # default: no 妙手回春
    assert np.array_equal(a["win_draw"][:15], b["win_draw"][:15])
    assert a["win_draw"][15] > b["win_draw"][15]
    last = MCR.fan_id("last_tile_draw")
    assert a["cooccurrence"][last, last] > 0 and b["cooccurrence"][last, last] == 0


def test_user_policies():
    agg = play(200, seed=1, policy=discard_drawn, draws=5, progress=False)
    assert agg.params["policy"] == "custom:test_play.discard_drawn"
    assert int(agg["policy_errors"][0]) == 0
    bad = play(200, seed=1, policy=invalid_then_efficient, draws=6, progress=False)
    errors, wins = int(bad["policy_errors"][0]), int(bad["wins"][0])
    assert 3 * (200 - wins) <= errors <= 3 * 200  # draws_left 5, 3, 1 of each game


def test_bad_arguments():
    with pytest.raises(ValueError, match="unknown policy"):
        play(10, seed=1, policy="greedy")
    with pytest.raises(TypeError, match="policy must be"):
        play(10, seed=1, policy=42)
    with pytest.raises(ValueError, match="draws must be"):
        play(10, seed=1, draws=0)
    with pytest.raises(ValueError, match="draws must be"):
        play(10, seed=1, draws=124)
    with pytest.raises(ValueError, match="seed"):
        PlayStudy(10, seed=None)
    with pytest.raises(UnknownRulesetError):
        play(10, seed=1, ruleset="riichi")


# ------------------------------------------------------------------ policies
def random_hand(rng, n_melds=0):
    """A random 3k+2 concealed hand (after a draw) with ``n_melds`` random pung melds."""
    wall = np.repeat(np.arange(34), 4)
    rng.shuffle(wall)
    melds = np.zeros((4, 2), np.uint8)
    used = np.zeros(34, np.int64)
    for i in range(n_melds):
        t = int(rng.integers(34))
        while used[t] + 3 > 4:
            t = int(rng.integers(34))
        melds[i] = (2, t)
        used[t] += 3
    counts = np.zeros(34, np.uint8)
    k = 0
    for t in wall:
        if k == 14 - 3 * n_melds:
            break
        if counts[t] + used[t] < 4:
            counts[t] += 1
            k += 1
    return counts, melds, used


@pytest.mark.parametrize("policy", [efficiency, fan_aware], ids=["efficiency", "fan-aware"])
def test_policies_choose_a_held_tile_and_efficiency_never_raises_shanten(policy, tab):
    rng = np.random.default_rng(7)
    ctx = ctx_of(policy_id=0 if policy is efficiency else 1)
    work = new_policy_work(N_FANS, suit_table())
    for i in range(scaled(300)):
        n_melds = i % 3
        counts, melds, used = random_hand(rng, n_melds)
        unseen = (4 - counts - used).astype(np.int64)
        before = counts.copy()
        d = policy(
            counts, melds, n_melds, int(np.flatnonzero(counts)[0]), unseen, 5, ctx, tab, work
        )
        assert np.array_equal(counts, before)  # the policy restored the hand
        assert counts[d] > 0
        if policy is efficiency:
            after = []
            for t in np.flatnonzero(counts):
                counts[t] -= 1
                after.append(shanten_one(counts, n_melds, 31, tab))
                counts[t] += 1
            counts[d] -= 1
            chosen = shanten_one(counts, n_melds, 31, tab)
            counts[d] += 1
            assert chosen == min(after)


def test_efficiency_tie_break_is_most_useful_copies_then_discard_order(tab):
    rng = np.random.default_rng(8)
    ctx = ctx_of()
    work = new_policy_work(N_FANS, suit_table())
    need = np.zeros(34, np.int64)
    for _ in range(scaled(200)):
        counts, melds, used = random_hand(rng)
        unseen = (4 - counts - used).astype(np.int64)
        best = discard_needs(counts, 0, 31, tab, need)
        keys = {}
        for t in np.flatnonzero(need == best):
            counts[t] -= 1
            _, mask = useful_one(counts, 0, 31, tab)
            counts[t] += 1
            copies = sum(int(unseen[u]) for u in range(34) if (int(mask) >> u) & 1)
            keys[int(t)] = (-copies, int(DISCARD_ORDER[t]))
        expected = min(keys, key=keys.get)
        assert efficiency(counts, melds, 0, 0, unseen, 5, ctx, tab, work) == expected


def test_discard_needs_matches_shanten_one(tab):
    rng = np.random.default_rng(9)
    out = np.zeros(34, np.int64)
    for i in range(scaled(300)):
        counts, _, _ = random_hand(rng, i % 3)
        for forms in (31, 1, 2, 16):
            best = discard_needs(counts, i % 3, forms, tab, out)
            for t in range(34):
                if counts[t] == 0:
                    assert out[t] == 128
                    continue
                counts[t] -= 1
                assert out[t] == shanten_one(counts, i % 3, forms, tab) + 1
                counts[t] += 1
            assert best == out.min()


def near_complete_hands(rng, n):
    """Random regular complete hands with one tile swapped for a random one (14 tiles)."""
    out = []
    while len(out) < n:
        counts = np.zeros(34, np.int64)
        for _ in range(4):
            if rng.random() < 0.6:
                s, r = int(rng.integers(3)), int(rng.integers(7))
                counts[9 * s + r : 9 * s + r + 3] += 1
            else:
                counts[int(rng.integers(34))] += 3
        counts[int(rng.integers(34))] += 2
        held = np.flatnonzero(counts)
        counts[held[int(rng.integers(len(held)))]] -= 1
        counts[int(rng.integers(34))] += 1
        if counts.max() <= 4:
            out.append(counts.astype(np.uint8))
    return out


def legal_copies(counts, unseen, tab):
    """Unseen copies of the waits of ready ``counts`` (13 tiles) that win legally (oracle)."""
    sh, mask = useful_one(counts, 0, 31, tab)
    if sh != 0:
        return 0
    total = 0
    for w in range(34):
        if (int(mask) >> w) & 1 and unseen[w]:
            text = mjstats.format_tiles(counts) + f"+{mjstats.TILES[w]}"
            if mjstats.score(text, self_drawn=True).legal:
                total += int(unseen[w])
    return total


def test_fan_aware_takes_the_ready_hand_with_most_legal_outs(tab):
    rng = np.random.default_rng(12)
    ctx = ctx_of(1)
    work = new_policy_work(N_FANS, suit_table())
    melds = np.zeros((4, 2), np.uint8)
    checked = 0
    for counts in near_complete_hands(rng, scaled(120)):
        if shanten_one(counts, 0, 31, tab) == -1:
            continue  # a complete hand would be declared (if legal) before any discard
        unseen = (4 - counts).astype(np.int64)
        best = 0
        for t in np.flatnonzero(counts):
            counts[t] -= 1
            best = max(best, legal_copies(counts, unseen, tab))
            counts[t] += 1
        if best == 0:
            continue
        checked += 1
        d = fan_aware(counts, melds, 0, 0, unseen, 10, ctx, tab, work)
        counts[d] -= 1
        assert legal_copies(counts, unseen, tab) == best
        counts[d] += 1
    assert checked >= scaled(120) // 4


def test_fan_aware_keeps_a_flush_that_efficiency_breaks(tab):
    # ten bamboo tiles and 1389m: the full flush (24) is the plan, efficiency keeps 89m
    counts = parse_tiles("1389m2336677789s")
    unseen = (4 - counts).astype(np.int64)
    melds = np.zeros((4, 2), np.uint8)
    work = new_policy_work(N_FANS, suit_table())
    eff = efficiency(counts, melds, 0, 0, unseen, 10, ctx_of(0), tab, work)
    fan = fan_aware(counts, melds, 0, 0, unseen, 10, ctx_of(1), tab, work)
    assert mjstats.TILES[eff] == "9s"
    assert mjstats.TILES[fan].endswith("m")


# ------------------------------------------------------------------ one game
def run_game(hand_text, wall_text, n_draws, tab, last_tile=False, policy_id=0):
    """Play one game whose wall starts with the tiles of ``wall_text`` (the rest sorted)."""
    counts = parse_tiles(hand_text)
    rest = np.repeat(np.arange(34), 4 - counts).tolist()
    first = [int(np.flatnonzero(parse_tiles(t))[0]) for t in wall_text.split()]
    for t in first:
        rest.remove(t)
    wall = np.array(first + rest, dtype=np.uint8)
    unseen = (4 - counts).astype(np.int64)
    work = new_policy_work(N_FANS, suit_table())
    res = np.zeros(R_SIZE, np.int64)
    won = play_solitaire(
        None, wall, n_draws, last_tile, False, counts, np.zeros((4, 2), np.uint8), 0, unseen,
        ctx_of(policy_id), tab, work, res,
    )  # fmt: skip
    return won, res, work[W_FANS].copy()


def test_a_complete_legal_hand_is_declared(tab):
    text = "11m33m55m77m11p33p5z"  # seven pairs waiting on 5z
    won, res, fans = run_game(text, "5z", 3, tab)
    expected = mjstats.score(text + "+5z", self_drawn=True)
    assert won and res[R_DRAW] == 1 and res[R_TOTAL] == expected.total
    assert fans[MCR.fan_id("seven_pairs")] == 1


def test_a_complete_hand_below_the_minimum_is_passed(tab):
    text = "234m567p234s789s5z"
    score = mjstats.score(text + "+5z", self_drawn=True)
    assert not score.legal  # the test needs a complete hand below 8 fan
    won, res, _ = run_game(text, "5z 9p 9p 9p", 2, tab)
    assert not won and res[R_PASSED] == 1 and res[R_TOTAL] == -1


def test_last_tile_of_the_wall_flag(tab):
    text = "234m567p234s789s5z"  # 6 fan self-drawn; +8 with 妙手回春
    won, _, fans = run_game(text, "5z", 1, tab, last_tile=True)
    assert won and fans[MCR.fan_id("last_tile_draw")] == 1
    won, _, _ = run_game(text, "5z", 1, tab, last_tile=False)
    assert not won


# ------------------------------------------------------------------ naive replay
_M64 = (1 << 64) - 1


def _rotl(x, k):
    return ((x << k) | (x >> (64 - k))) & _M64


def _next_u64(s):
    result = (_rotl((s[1] * 5) & _M64, 7) * 9) & _M64
    t = (s[1] << 17) & _M64
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = _rotl(s[3], 45)
    return result


def _randbelow(s, n):
    threshold = ((1 << 64) - n) % n
    while True:
        x = _next_u64(s)
        if x >= threshold:
            return x % n


def _naive_efficiency(counts, unseen):
    shanten = {}
    for t in np.flatnonzero(counts):
        c = counts.copy()
        c[t] -= 1
        shanten[int(t)] = int(mjstats.shanten(c))
    best = min(shanten.values())
    ties = [t for t, s in shanten.items() if s == best]

    def key(t):
        c = counts.copy()
        c[t] -= 1
        copies = int(unseen[mjstats.useful_tiles(c)].sum()) if len(ties) > 1 else 0
        order = (0 if t >= 27 else 1 if t % 9 in (0, 8) else 2 if t % 9 in (1, 7) else 3, t)
        return (-copies, order)

    return min(ties, key=key)


def naive_game(seed, draws, last_tile):
    """One ``play`` game (chunk 0, game 0 of ``seed``) in plain Python with the public API."""
    state = [int(v) for v in chunk_states(seed, 0, 1)[0]]
    wall = [t for t in range(34) for _ in range(4)]
    for i in range(min(13 + draws, 135)):  # shuffle_prefix
        j = i + _randbelow(state, 136 - i)
        wall[i], wall[j] = wall[j], wall[i]
    counts = np.zeros(34, np.uint8)
    for t in wall[:13]:
        counts[t] += 1
    unseen = (4 - counts).astype(np.int64)
    for i in range(draws):
        x = wall[13 + i]
        counts[x] += 1
        unseen[x] -= 1
        if mjstats.shanten(counts) == -1:
            hand = mjstats.Hand(
                counts, win_tile=x, self_drawn=True,
                last_of_kind=bool(4 - unseen[x] - counts[x] == 3),
                last_of_wall=last_tile and i == draws - 1,
            )  # fmt: skip
            score = mjstats.score(hand)
            if score.legal:
                return i + 1, score.total
        if i == draws - 1:
            break
        counts[_naive_efficiency(counts, unseen)] -= 1
    return 0, -1


@pytest.mark.parametrize("seed", range(1, 7))
def test_kernel_matches_naive_python_replay(seed):
    draws = 21
    last_tile = seed % 2 == 1
    agg = play(1, seed=seed, draws=draws, last_tile=last_tile, progress=False)
    draw = int(np.flatnonzero(agg["win_draw"])[0]) if agg["wins"][0] else 0
    total = int(np.flatnonzero(agg["base_hist"])[0]) if agg["wins"][0] else -1
    assert (draw, total) == naive_game(seed, draws, last_tile)


@pytest.mark.slow
def test_big_play_run_is_deterministic_and_fast_enough():
    n = scaled(200_000)
    a = play(n, seed=99, progress=False)
    b = play(n, seed=99, progress=False, group_size=7)
    assert a == b


# ------------------------------------------------------------------ registration and CLI
def test_play_is_a_registered_study_kind():
    from mjstats.studies import KINDS, make_study

    assert "play" in KINDS
    study = make_study("play", n_games=50, seed=3, policy="fan-aware", draws=8)
    assert isinstance(study, PlayStudy) and study.params()["policy"] == "fan-aware"


def test_cli_study_play(tmp_path, capsys):
    import json

    from mjstats.cli import main

    js = tmp_path / "p.json"
    out = tmp_path / "out"
    args = ["study", "play", "--n", "300", "--seed", "1", "--draws", "12", "--no-progress"]
    assert main([*args, "--json", str(js), "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "policy efficiency: 300 games of at most 12 draws, P(legal win) =" in text
    data = json.loads(js.read_text())
    ref = play_summary(play(300, seed=1, draws=12, progress=False))
    assert data["play"]["wins"] == ref["wins"] and len(data["p_win_by_draw"]) == 12
    assert (out / "win_curve.csv").exists() and (out / "aggregate.json").exists()
    assert main(["study", "play", "--policy", "greedy"]) == 2
