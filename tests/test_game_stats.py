"""Game statistics (mjstats.games.stats, mjstats.studies.game_stats): claims, wins and fans
of played games and of real records, and the comparison with real play.

The 40 real games of ``tests/data/botzone`` are counted here a second way, by hand: a
small tracker written for this test reads the text records and the judge's JSON logs
itself (not with mjstats' readers), follows each player's concealed tiles, and counts
every claim chance, every claim made and taken and every fan of the wins. The records
path (each game replayed through the engine) must give the same numbers.
"""

from __future__ import annotations

import io
import json
from collections import Counter, defaultdict
from pathlib import Path

import numba
import numpy as np
import pandas as pd
import pytest
from conftest import scaled
from rich.cells import cell_len

from mjstats.cli import main
from mjstats.errors import GameError, RecordError
from mjstats.games import play_games
from mjstats.games import state as ST
from mjstats.games.driver import LOG_DRAW
from mjstats.games.stats import (
    CLAIM_KINDS,
    DATASET_COUNTS,
    claim_counters,
    dataset_counts,
    log_stats,
)
from mjstats.records import record_stats
from mjstats.report import report_table
from mjstats.rulesets import get_ruleset
from mjstats.studies.aggregate import Aggregate
from mjstats.studies.game_stats import claim_table, record_games
from mjstats.studies.games import GamesStudy, game_fan_table, games, games_summary
from mjstats.studies.realplay import (
    compare_real_play,
    plot_real_play,
    real_play,
    real_play_summary,
    summary_line,
)

DATA = Path(__file__).parent / "data" / "botzone"
KINDS = ("chow", "pung", "kong", "promoted_kong", "concealed_kong")


# ---------------------------------------------------------------- counting by hand
_SUITS = "WBT"  # Botzone codes: W characters, B dots, T bamboo (then F winds, J dragons)


def _code(tile: str) -> tuple[str, int]:
    return tile[0], int(tile[1])


def _chow_with(hand: Counter, tile: str) -> bool:
    """Whether ``hand`` holds two tiles that make a chow with ``tile``."""
    suit, r = _code(tile)
    if suit not in _SUITS:
        return False
    has = lambda k: 1 <= k <= 9 and hand[f"{suit}{k}"] > 0  # noqa: E731
    return (has(r - 2) and has(r - 1)) or (has(r - 1) and has(r + 1)) or (has(r + 1) and has(r + 2))


class Tally:
    """Per seat: chances / made / taken of each kind of meld claim, wins, and the fans."""

    def __init__(self) -> None:
        self.n = {what: defaultdict(Counter) for what in ("chances", "made", "taken")}
        self.wins = Counter()
        self.self_drawn = Counter()
        self.fans = Counter()  # wins holding the fan (judge's name)
        self.games = 0


def _play_game(events, deals, tally: Tally) -> None:
    """Follow one game's events, counting into ``tally``.

    Events: ``("draw", p, t)``, ``("play", p, t)``, ``("claim", p, kind, tile, taken)``
    (``kind`` chow with ``tile`` its middle tile, pung, kong, promoted_kong,
    concealed_kong; ``taken`` False for a claim passed over), ``("win", p, self_drawn,
    fans)``. A concealed kong or a kong on a discard is followed by the replacement draw.
    """
    hand = [Counter(d) for d in deals]
    pungs = [set() for _ in range(4)]
    taken_tiles = [13] * 4  # tiles each seat took from its 34-tile wall segment
    last = None  # (seat, tile) of the last discard
    tally.games += 1
    for ev in events:
        if ev[0] == "draw":
            _, p, t = ev
            hand[p][t] += 1
            taken_tiles[p] += 1
            if taken_tiles[p] < 34:  # a kong needs a replacement tile
                if any(c == 4 for c in hand[p].values()):
                    tally.n["chances"][p]["concealed_kong"] += 1
                if any(hand[p][x] > 0 for x in pungs[p]):
                    tally.n["chances"][p]["promoted_kong"] += 1
        elif ev[0] == "play":
            _, p, t = ev
            hand[p][t] -= 1
            last = (p, t)
            for q in range(4):
                if q == p:
                    continue
                if hand[q][t] >= 2:
                    tally.n["chances"][q]["pung"] += 1
                if hand[q][t] == 3 and taken_tiles[q] < 34:
                    tally.n["chances"][q]["kong"] += 1
                if q == (p + 1) % 4 and _chow_with(hand[q], t):
                    tally.n["chances"][q]["chow"] += 1
        elif ev[0] == "claim":
            _, p, kind, tile, taken = ev
            tally.n["made"][p][kind] += 1
            if not taken:
                continue
            tally.n["taken"][p][kind] += 1
            if kind == "chow":
                suit, r = _code(tile)
                for k in (r - 1, r, r + 1):
                    if f"{suit}{k}" != last[1]:
                        hand[p][f"{suit}{k}"] -= 1
            elif kind == "pung":
                hand[p][tile] -= 2
                pungs[p].add(tile)
            elif kind == "kong":
                hand[p][tile] -= 3
            elif kind == "concealed_kong":
                hand[p][tile] -= 4
            elif kind == "promoted_kong":
                hand[p][tile] -= 1
                pungs[p].discard(tile)
            if kind in ("kong", "promoted_kong", "concealed_kong"):
                # the concealed and promoted ones were declared on the seat's own turn
                pass
        elif ev[0] == "win":
            _, p, self_drawn, fans = ev
            tally.wins[p] += 1
            tally.self_drawn[p] += int(self_drawn)
            for name in fans:
                tally.fans[name] += 1


_VERB = {"Chi": "chow", "Peng": "pung", "Gang": "kong", "AnGang": "concealed_kong",
         "BuGang": "promoted_kong"}  # fmt: skip


def _count_text(path: Path, tally: Tally) -> None:
    """The games of a text data-set file, read line by line."""
    games_text = [g for g in path.read_text(encoding="utf-8").split("Match ") if g.strip()]
    for text in games_text:
        lines = [ln.split() for ln in text.splitlines()[1:] if ln.strip()]
        deals, events = [None] * 4, []
        prev = win = None
        for w in lines:
            if w[0] != "Player":
                if w[0] == "Fan":
                    fans = [part.rpartition("*")[0] for part in w[2].split("+")]
                    events.append(("win", *win, fans))
                continue
            p, verb, rest = int(w[1]), w[2], w[3:]
            if verb == "Deal":
                deals[p] = rest
                continue
            t = rest[0]
            if verb == "Draw":
                events.append(("draw", p, t))
            elif verb == "Play":
                events.append(("play", p, t))
            elif verb == "Hu":
                win = (p, prev is not None and prev[0] == p)
            else:
                kind = _VERB[verb]
                if verb == "Gang" and prev is not None and prev[0] == p:
                    kind = "concealed_kong"  # a kong on one's own turn
                events.append(("claim", p, kind, t, True))
            ignored = rest[1:]
            while ignored and ignored[0] == "Ignore":  # Ignore Player q Verb tile
                q, v, tile = int(ignored[2]), ignored[3], ignored[4]
                if v in _VERB:
                    events.append(("claim", q, _VERB[v], tile, False))
                ignored = ignored[5:]
            prev = (p, verb)
        _play_game(events, deals, tally)


def _count_json(path: Path, tally: Tally) -> None:
    """One judge log: the judge's outputs, and the bots' responses to each discard."""
    logs = json.loads(path.read_text(encoding="utf-8"))["logs"]
    deals, events = None, []
    discard = None  # (seat, tile) the others answer
    prev = None  # (action, seat) of the judge's previous output
    for i, item in enumerate(logs):
        out = item.get("output")
        if out is None:
            continue
        d = out["display"]
        act, p = d.get("action"), d.get("player")
        if discard is not None and i > 0:  # what the others answered to the last discard
            taken_by = p if act in ("CHI", "PENG", "GANG", "HU") and prev != ("DRAW", p) else None
            for k, r in logs[i - 1].items():
                words = str(r.get("response", "")).split() if isinstance(r, dict) else []
                q = int(k)
                if words and words[0] in ("CHI", "PENG", "GANG") and q != discard[0]:
                    kind = {"CHI": "chow", "PENG": "pung", "GANG": "kong"}[words[0]]
                    tile = words[1] if kind == "chow" else discard[1]
                    events.append(("claim", q, kind, tile, q == taken_by))
        if act == "DEAL":
            deals = d["hand"]
        elif act == "DRAW":
            events.append(("draw", p, d["tile"]))
        elif act == "PLAY":
            events.append(("play", p, d["tile"]))
        elif act in ("CHI", "PENG"):
            events.append(("play", p, d["tile"]))  # the discard after the claim
        elif act == "GANG" and prev == ("DRAW", p):
            events.append(("claim", p, "concealed_kong", d["tile"], True))
        elif act == "BUGANG":
            events.append(("claim", p, "promoted_kong", d["tile"], True))
        elif act == "HU":
            events.append(("win", p, prev == ("DRAW", p), [f["name"] for f in d["fan"]]))
        discard = (p, d["tile"]) if act in ("PLAY", "CHI", "PENG") else None
        prev = (act, p)
    _play_game(events, deals, tally)


@pytest.fixture(scope="module")
def by_hand():
    tally = Tally()
    _count_text(DATA / "sample.txt", tally)
    for path in sorted((DATA / "judge-logs").glob("*.json")):
        _count_json(path, tally)
    return tally


@pytest.fixture(scope="module")
def real():
    return record_stats(DATA)


def test_the_hand_count_reads_every_game(by_hand):
    assert by_hand.games == 40
    assert sum(by_hand.wins.values()) == 38  # 14 of sample.txt's 16, and the 24 logs
    # the published counts of sample.txt's 16 games (33 chows, 25 pungs, ...) are in the
    # tally of the text file alone: checked in test_sample_txt_matches_the_published_counts


@pytest.mark.parametrize("what", ["chances", "made", "taken"])
@pytest.mark.parametrize("kind", KINDS)
def test_claims_of_the_real_games_equal_the_hand_count(real, by_hand, what, kind):
    got = real.groupby("seat")[f"{kind}_{what}"].sum().tolist()
    want = [by_hand.n[what][p][kind] for p in range(4)]
    assert got == want


def test_wins_of_the_real_games_equal_the_hand_count(real, by_hand):
    per_seat = real.groupby("seat")[["won", "self_drawn"]].sum()
    assert per_seat["won"].tolist() == [by_hand.wins[p] for p in range(4)]
    assert per_seat["self_drawn"].tolist() == [by_hand.self_drawn[p] for p in range(4)]
    games = real.groupby("game")
    assert (games["points"].sum() == 0).all()
    assert int(real["drawn"].sum()) == 4 * 2  # two drawn games, four seats each


def test_sample_txt_matches_the_published_counts():
    """The reference's own count of sample.txt (16 games): 33 chows, 25 pungs, 1 exposed,
    2 promoted, 2 concealed kongs, 14 wins."""
    t = record_stats(DATA / "sample.txt")
    taken = [int(t[f"{k}_taken"].sum()) for k in KINDS]
    assert taken == [33, 25, 1, 2, 2]
    assert int(t["won"].sum()) == 14


_JUDGE_ALIASES = {
    "嵌张": "坎张",
    "独听・嵌张": "坎张",
    "独听・边张": "边张",
    "独听・单钓": "单钓将",
}


def test_fans_of_the_real_games_equal_the_hand_count(by_hand):
    agg = record_games(DATA)
    t = game_fan_table(agg)
    got = {zh: int(h) for zh, h in zip(t["zh"], t["hands"], strict=True) if h}
    want = Counter()
    for name, n in by_hand.fans.items():
        want[_JUDGE_ALIASES.get(name, name)] += n
    assert got == dict(want)
    s = games_summary(agg)
    assert (s["games"], s["wins"], s["drawn"]) == (40, 38, 2)


def test_records_and_study_counters_agree():
    """record_games sums record_stats' rows: one definition."""
    agg = record_games(DATA)
    rows = record_stats(DATA)
    c = agg["claim_counts"]
    for k, kind in enumerate(CLAIM_KINDS):
        for w, what in enumerate(("chances", "made", "taken")):
            assert c[w, :, k].tolist() == rows.groupby("seat")[f"{kind}_{what}"].sum().tolist()
    assert agg["wins"].sum(axis=1).tolist() == rows.groupby("seat")["won"].sum().tolist()
    assert agg["deal_ins"].tolist() == rows.groupby("seat")["deal_in"].sum().tolist()


def test_a_record_that_does_not_replay_is_refused(tmp_path):
    text = (DATA / "sample.txt").read_text(encoding="utf-8")
    first = "Match " + text.split("Match ")[1]
    bad = first.replace("Player 2 Chi T5", "Player 2 Chi T6", 1)  # not a chow it holds
    path = tmp_path / "bad.txt"
    path.write_text(bad + "\n" + first.replace("61602cb45ddc087351c04358", "good"), "utf-8")
    with pytest.raises(RecordError, match="61602cb45ddc087351c04358"):
        record_stats(path)
    t = record_stats(path, skip_bad=True)
    assert t["game"].unique().tolist() == ["good"]
    agg = record_games(path, skip_bad=True)
    assert int(agg["bad"][0]) == 1 and int(agg["games"][0]) == 1


@pytest.mark.parametrize("text", ['{"logs": 3}', "not json"])
def test_a_file_that_is_no_record_is_a_record_error(tmp_path, text):
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RecordError, match=r"bad\.json"):
        record_stats(path)
    if text.startswith("{"):  # a JSON log that is no game: a bad game, skipped
        assert len(record_stats(path, skip_bad=True)) == 0
    else:  # a file that is no record at all: skip_bad does not help
        with pytest.raises(RecordError, match="no records found"):
            record_stats(path, skip_bad=True)


def test_a_game_without_moves_is_bad(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("Match x\nWind 1\n", encoding="utf-8")
    with pytest.raises(RecordError, match="match x"):
        record_stats(path)
    assert len(record_stats(path, skip_bad=True)) == 0


# ---------------------------------------------------------------- played games
@pytest.fixture(scope="module")
def played():
    policy = ["fan-aware", "random", "efficiency", "random"]
    return play_games(scaled(300), seed=11, policy=policy, wall="botzone", keep_log=True)


def test_played_games_replay_to_their_final_states(played):
    table, _, final, logs = played
    t = log_stats(final, logs)  # raises GameError if a replay ends in another state
    assert len(t) == 4 * len(table)
    won = t.groupby("game")["won"].sum().to_numpy()
    assert won.tolist() == (table["winner"] >= 0).astype(int).tolist()
    per_game = t.groupby("game")[["chow_taken", "pung_taken", "kong_taken"]].sum().sum(axis=1)
    assert per_game.tolist() == table["claims"].tolist()  # the engine's own claim count
    for kind in CLAIM_KINDS:
        assert (t[f"{kind}_taken"] <= t[f"{kind}_made"]).all()
        assert (t[f"{kind}_made"] <= t[f"{kind}_chances"]).all()
    points = t.pivot(index="game", columns="seat", values="points").to_numpy()
    assert (points == table[[f"score{q}" for q in range(4)]].to_numpy()).all()
    # a policy takes every legal win it is offered except the random one
    assert (t.loc[t["seat"] == 0, "self_drawn_win_taken"]
            == t.loc[t["seat"] == 0, "self_drawn_win_chances"]).all()  # fmt: skip


def test_a_changed_log_does_not_replay(played):
    _, _, final, logs = played
    logs = logs[:5].copy()
    logs[0, 3, 2] = (logs[0, 3, 2] + 1) % 34  # another tile in the fourth move
    with pytest.raises(GameError, match="game 0: its log does not replay"):
        log_stats(final[:5], logs)


def test_played_games_written_as_records_give_the_same_statistics(played, tmp_path):
    """The same statistics from the engine's logs and from the records it writes."""
    table, _, final, logs = played
    buf = io.StringIO()
    play_games(len(table), seed=11, policy=["fan-aware", "random", "efficiency", "random"],
               wall="botzone", records=buf)  # fmt: skip
    path = tmp_path / "games.txt"
    path.write_text(buf.getvalue(), encoding="utf-8")
    from_records = record_stats(path, ruleset="mcr").drop(columns="game")
    from_logs = log_stats(final, logs).drop(columns="game")
    pd.testing.assert_frame_equal(from_records.reset_index(drop=True), from_logs)


def test_claim_counters_sum_the_rows(played):
    _, _, final, logs = played
    c = claim_counters(final, logs, "mcr", "botzone")
    t = log_stats(final, logs)
    for k, kind in enumerate(CLAIM_KINDS):
        assert c[2, :, k].tolist() == t.groupby("seat")[f"{kind}_taken"].sum().tolist()
        assert c[0, :, k].tolist() == t.groupby("seat")[f"{kind}_chances"].sum().tolist()


def test_two_player_games_have_two_seats():
    _, _, final, logs = play_games(scaled(40), seed=2, ruleset="two-player", policy="random",
                                   keep_log=True)  # fmt: skip
    t = log_stats(final, logs, ruleset="two-player")
    assert sorted(t["seat"].unique()) == [0, 1]
    assert int(t["chow_chances"].sum()) > 0
    c = claim_counters(final, logs, "two-player", "shared")
    assert c.shape == (3, 2, len(CLAIM_KINDS))


# ---------------------------------------------------------------- the games study
N = scaled(120)


@pytest.fixture(scope="module")
def study():
    return games(N, 5, policy="fan-aware", wall="botzone", chunk_size=N, progress=False)


def test_study_claims_do_not_depend_on_chunks_or_threads(study):
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        got = games(N, 5, policy="fan-aware", wall="botzone", chunk_size=7, progress=False)
    finally:
        numba.set_num_threads(before)
    assert got["claim_counts"].tolist() == study["claim_counts"].tolist()
    assert got["dataset_claims"].tolist() == study["dataset_claims"].tolist()


def test_study_claims_are_those_of_the_games(study):
    _, _, final, logs = play_games(N, 5, policy="fan-aware", wall="botzone", keep_log=True)
    t = log_stats(final, logs)
    c = study["claim_counts"]
    for k, kind in enumerate(CLAIM_KINDS):
        assert c[1, :, k].tolist() == t.groupby("seat")[f"{kind}_made"].sum().tolist()
    table = claim_table(study)
    assert table["claim"].tolist() == list(CLAIM_KINDS)
    chow = table.set_index("claim").loc["chow"]
    assert chow["taken_rate"] == chow["taken"] / chow["chances"]
    assert chow["taken_ci_low"] <= chow["taken_rate"] <= chow["taken_ci_high"]
    assert len(claim_table(study, by_seat=True)) == 4 * len(CLAIM_KINDS)
    assert report_table(study, "claims").equals(table)
    claims = GamesStudy.summary_json(study)["claims"]
    assert claims["chow"] == {"chances": int(c[0, :, 0].sum()), "made": int(c[1, :, 0].sum()),
                              "taken": int(c[2, :, 0].sum())}  # fmt: skip


# ---------------------------------------------------------------- real play
def test_the_reference_is_the_published_data():
    ref = real_play()
    assert ref.games == 98_208 and len(ref.fans) == 73
    assert ref.fans["count"].is_monotonic_decreasing
    top = ref.fans.set_index("zh")
    assert top.loc["平和", "count"] == 38_387 and top.loc["一色四节高", "count"] == 1
    assert top.loc["嵌张", "key"] == "closed_wait"
    rates = ref.claims.set_index("claim")["rate"].round(4).to_dict()
    assert rates == {"chow": 0.295, "pung": 0.4905, "kong": 0.4092, "promoted_kong": 0.3496,
                     "concealed_kong": 0.2374}  # fmt: skip
    for text in (ref.data_set, ref.source):
        assert "98,208" in text or "ai4mahjiong" in text


def _aggregate_at(factor: float, n: int = 98_208) -> Aggregate:
    """An MCR games aggregate whose fans occur ``factor`` times as often as in real play."""
    agg = record_games(DATA / "judge-logs" / "6a201f5a58ebe27b197da7f1_lite.json")
    c = {k: v.copy() for k, v in agg.counters.items()}
    rs = get_ruleset("mcr")
    diag = np.zeros(rs.n_fans, np.int64)
    for key, count in zip(real_play().fans["key"], real_play().fans["count"], strict=True):
        diag[rs.fan_id(key)] = round(count * factor)
    c["cooccurrence"] = np.diag(diag)
    c["fan_count"] = diag.copy()
    c["games"] = np.array([n], np.int64)
    return Aggregate("games", dict(agg.params), c)


@pytest.mark.parametrize(("factor", "log2", "within", "beyond"),
                         [(1.0, 0.0, 30, 0), (2.0, 1.0, 0, 0), (0.25, 2.0, 0, 30),
                          (1.4, np.log2(1.4), 30, 0)])  # fmt: skip
def test_the_summary_measures_the_distance(factor, log2, within, beyond):
    s = real_play_summary(compare_real_play(_aggregate_at(factor)))
    assert s["fans"] == 30
    assert s["mean_abs_log2"] == pytest.approx(log2, abs=2e-3)
    assert (s["within_1_5"], s["beyond_2_5"]) == (within, beyond)


def test_compare_real_play_rows(study):
    t = compare_real_play(study)
    fans = t[t["what"] == "fan"]
    assert len(fans) == 73 and fans["rank"].tolist() == list(range(1, 74))
    row = fans.set_index("key").loc["all_chows"]
    hands = int(game_fan_table(study).set_index("zh").loc["平和", "hands"])
    assert row["rate"] == pytest.approx(hands / N * 100)
    assert row["ci_low"] <= row["rate"] <= row["ci_high"]
    assert row["ratio"] == pytest.approx(row["rate"] / row["real"])
    claims = t[t["what"] == "claim"].set_index("key")
    c = study["claim_counts"].sum(axis=1)
    assert claims.loc["pung", "legal_rate"] == pytest.approx(c[2, 1] / c[0, 1])
    assert claims.loc["pung", "legal_chances"] == c[0, 1]
    # games on the Botzone wall: claims per chance counted as the data set's parser
    # counts its chances
    d = dict(zip(DATASET_COUNTS, study["dataset_claims"].tolist(), strict=True))
    assert claims.loc["pung", "rate"] == pytest.approx(d["pungs"] / d["pung_chances"])
    assert claims.loc["chow", ["count", "of"]].tolist() == [d["chows"], d["chow_chances"]]
    assert claims["counted"].tolist() == ["as the data set"] * 5
    assert claims.loc["kong", "legal_rate"] == pytest.approx(c[2, 2] / c[0, 2])
    # a game's count: the study's pungs over its games, real play's over 98,208 games
    # (177,092 pungs taken, the published count)
    assert claims.loc["pung", "per_game"] == pytest.approx(c[2, 1] / N)
    assert claims.loc["pung", "real_per_game"] == pytest.approx(177_092 / 98_208)
    low, high = claims.loc["pung", ["per_game_ci_low", "per_game_ci_high"]]
    assert low < claims.loc["pung", "per_game"] < high
    assert t.loc[t["what"] == "fan", "per_game"].isna().all()
    line = summary_line(real_play_summary(t))
    assert line.startswith("real play's 30 commonest fans: mean |log2 ratio|")


def test_games_off_the_botzone_wall_compare_legal_chances():
    """The data set's parser reads Botzone records: a study on another wall has no such
    count, and its table says its chances are the engine's legal ones."""
    agg = games(scaled(30), 2, policy="fan-aware", progress=False)
    assert "dataset_claims" not in agg.counters
    t = compare_real_play(agg)
    claims = t[t["what"] == "claim"].set_index("key")
    assert (claims["counted"] == "legal chances").all()
    assert (claims["rate"].fillna(-1) == claims["legal_rate"].fillna(-1)).all()
    assert "chances counted as the data set" not in summary_line(real_play_summary(t))


def test_two_player_games_are_not_compared():
    agg = games(scaled(20), 1, policy="random", ruleset="two-player", progress=False)
    with pytest.raises(ValueError, match="'mcr' play"):
        compare_real_play(agg)


def test_report_reference_and_plot(study, tmp_path, capsys):
    study.save(tmp_path / "aggregate.json")
    assert main(["report", str(tmp_path), "--table", "reference", "--top", "5"]) == 0
    out = capsys.readouterr().out
    assert "平和" in out and "real play's 30 commonest fans" in out and "taken per chance" in out
    assert "claims: taken a game" in out and "Pung*" in out
    assert "* chances counted as the data set's parser counts them" in out
    assert max(cell_len(line) for line in out.splitlines()) <= 80
    assert main(["report", str(tmp_path), "--table", "claims"]) == 0
    out = capsys.readouterr().out
    assert "Promoted kong" in out and max(cell_len(line) for line in out.splitlines()) <= 80
    assert main(["report", str(tmp_path), "--table", "reference", "--out",
                 str(tmp_path / "ref.csv")]) == 0  # fmt: skip
    assert pd.read_csv(tmp_path / "ref.csv")["what"].tolist().count("claim") == 5
    pytest.importorskip("matplotlib")
    assert main(["report", str(tmp_path), "--table", "reference", "--out",
                 str(tmp_path / "ref.png")]) == 0  # fmt: skip
    assert (tmp_path / "ref.png").stat().st_size > 10_000
    import matplotlib.pyplot as plt

    ax = plot_real_play(study, top=12)
    assert len(ax.get_yticklabels()) == 12 and ax.get_xscale() == "log"
    plt.close(ax.figure)


def test_replay_out_writes_the_record_set_as_a_games_aggregate(tmp_path, capsys):
    assert main(["replay", str(DATA), "--out", str(tmp_path)]) == 0
    agg = Aggregate.load(tmp_path / "aggregate.json")
    assert agg.kind == "games" and int(agg["games"][0]) == 40
    assert (tmp_path / "claims.csv").exists()
    capsys.readouterr()
    assert main(["report", str(tmp_path), "--table", "claims", "--format", "csv"]) == 0
    rows = pd.read_csv(io.StringIO(capsys.readouterr().out))
    assert rows.set_index("claim").loc["chow", "taken"] == 85


# the publisher's own code's counts of sample.txt: pymj/botzone/GameData.py of
# ZhijieXiong/ai4mahjiong (get_state_action_sequence: states with can_chi, can_peng,
# can_gang, can_bu_gang, can_an_gang and the actions Chi, Peng, Gang, BuGang, AnGang),
# run on tests/data/botzone/sample.txt on 2026-12-07 (not shipped: not our code)
_SAMPLE_TXT = {"chow_chances": 134, "chows": 33, "pung_chances": 68, "pungs": 25,
               "kong_chances": 3, "kongs": 1, "promoted_kong_chances": 3, "promoted_kongs": 2,
               "concealed_kong_chances": 16, "concealed_kongs": 2}  # fmt: skip


def _publisher_script():
    import importlib.util

    path = Path(__file__).parent.parent / "benchmarks" / "publisher_claim_count.py"
    spec = importlib.util.spec_from_file_location("publisher_claim_count", path)
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    return script


def test_publisher_count_equals_the_publishers_parser_on_sample_txt():
    """``benchmarks/publisher_claim_count.py`` counts claim chances as the real-play
    data set's publisher did (:data:`_SAMPLE_TXT`). Its first game holds the parser's
    quirks: the first discard read twice (seat 2's pair of 6p), a claimer's pass on
    the discard before the one it claims dropped (seat 2's pair of 3m before it chows
    7p)."""
    script = _publisher_script()
    counts = [script.count_game(w, r)[1] for w, r in script._records(str(DATA / "sample.txt"))]
    assert len(counts) == 16
    assert {k: sum(c[k] for c in counts) for k in _SAMPLE_TXT} == _SAMPLE_TXT
    assert counts[0]["pung_chances"] == 7


def test_the_records_path_counts_as_the_publishers_parser():
    """The kernel of the records path (:func:`record_games`'s ``dataset_claims``) gives
    the publisher's own code's figures on sample.txt."""
    agg = record_games(DATA / "sample.txt")
    d = dict(zip(DATASET_COUNTS, agg["dataset_claims"].tolist(), strict=True))
    assert d == {"games": 16, **_SAMPLE_TXT}


@pytest.mark.parametrize("policy", ["planner", "random", "efficiency"])
def test_the_dataset_count_kernel_equals_the_script_game_for_game(policy):
    """:func:`dataset_counts` (numba) and the plain-Python count of
    ``benchmarks/publisher_claim_count.py`` agree on every game, unreadable ones (all
    zeros) included."""
    script = _publisher_script()
    n = scaled(150)
    _, _, final, logs = play_games(n, seed=17, policy=policy, wall="botzone", keep_log=True)
    walls = final[:, ST.S_WALL : ST.S_WALL + 136]
    got = dataset_counts(walls, logs, final[:, ST.S_NLOG])
    seats = dataset_counts(walls, logs, final[:, ST.S_NLOG], by_seat=True)
    for g in range(n):
        rows = [r for r in logs[g, : final[g, ST.S_NLOG]].tolist() if not r[3]]
        try:
            _, counts, by_seat = script.count_game(walls[g], rows)
            want = [1, *(counts[k] for k in DATASET_COUNTS[1:])]
            want_seats = [[1, *(c[k] for k in DATASET_COUNTS[1:])] for c in by_seat]
        except script.Unreadable:
            want = [0] * len(DATASET_COUNTS)
            want_seats = [want] * 4
        assert got[g].tolist() == want, g
        assert seats[g].tolist() == want_seats, g
    assert got[:, 0].sum() > 0.9 * n
    # each seat's chows and pungs are its own rows of the log (the games read)
    read = got[:, 0] == 1
    for seat in range(4):
        for kind, col in ((ST.A_CHOW, "chows"), (ST.A_PUNG, "pungs")):
            mine = (logs[:, :, 0] == seat) & (logs[:, :, 1] == kind) & (logs[:, :, 3] == 0)
            k = DATASET_COUNTS.index(col)
            assert seats[read, seat, k].sum() == mine[read].sum(), (seat, col)


def test_a_kong_right_after_a_kong_is_unreadable_to_the_dataset_count():
    """The publisher's parser misreads a kong declared on a kong's replacement draw: the
    count leaves such a game out, as the script does."""
    rows = np.array([[0, LOG_DRAW, 5, 0], [0, 3, 5, 0], [0, LOG_DRAW, 7, 0], [0, 3, 7, 0],
                     [0, LOG_DRAW, 9, 0], [0, 1, 9, 0]], np.int64)  # fmt: skip
    wall = np.repeat(np.arange(34), 4)
    got = dataset_counts(wall[None, :], rows[None], [len(rows)])
    assert got.tolist() == [[0] * len(DATASET_COUNTS)]
    script = _publisher_script()
    with pytest.raises(script.Unreadable):
        script.count_game(wall, rows.tolist())


@pytest.mark.parametrize(
    ("row", "match"),
    [([4, 1, 9, 0], "names no seat"), ([0, 1, 34, 0], "names no seat"),
     ([0, 8, 8, 0], "names no seat"), ([0, 12, 3, 0], "names no seat"),
     ([0, 1, 9, 2], "names no seat"), ([0, 5, 100, 0], "names no seat"),
     ([1, 7, 100, 1], "names no seat")],
)  # fmt: skip
def test_the_dataset_count_refuses_rows_out_of_range(row, match):
    """numba checks no bounds: a seat, tile or move no game has (a chow of 9m-1p by its
    middle 9m; a win on tile 100; a passed-over pung of it, a row the count does not
    read), or a row neither a move nor a passed claim, is refused, naming the game,
    before anything is read out of bounds."""
    wall = np.repeat(np.arange(34), 4)[None, :]
    logs = np.array([[[0, LOG_DRAW, 5, 0], row]], np.int64)
    with pytest.raises(ValueError, match=f"game 0: a log row {match}"):
        dataset_counts(np.repeat(wall, 1, axis=0), logs, [2])
    with pytest.raises(ValueError, match="outside logs"):
        dataset_counts(wall, logs, [3])
    with pytest.raises(ValueError, match=r"\(n, k, 4\)"):
        dataset_counts(wall, logs[0], [2])


@pytest.mark.parametrize("change", ["code", "copies"])
def test_the_dataset_count_refuses_a_wall_that_is_not_a_botzone_wall(change):
    """A wall with a code no tile has (numba would index with it) or five copies of a
    tile is refused, naming the game, not read as an unreadable game (found by fuzzing
    the walls: such games came back as zeros)."""
    _, _, final, logs = play_games(3, seed=1, policy="planner", wall="botzone", keep_log=True)
    walls = final[:, ST.S_WALL : ST.S_WALL + 136].copy()
    n_log = final[:, ST.S_NLOG]
    assert dataset_counts(walls, logs, n_log)[:, 0].tolist() == [1, 1, 1]
    if change == "code":
        walls[2, 100] = 300
    else:
        walls[2, 100:104] = walls[2, 0]  # the first tile's kind five times or more
    with pytest.raises(ValueError, match="game 2: its wall is not a Botzone wall"):
        dataset_counts(walls, logs, n_log)
