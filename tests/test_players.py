"""Per-seat and per-player statistics of record sets (:mod:`mjstats.studies.players`,
``mjstats records PATH --players``) against counts taken here from the files' own
``Score`` lines (text records) and the judge's ``HU`` displays (JSON logs)."""

from __future__ import annotations

import ast
import json
from collections import Counter
from pathlib import Path

import pytest

from mjstats.cli import main
from mjstats.errors import InvalidArgumentError
from mjstats.studies.players import UNNAMED, player_fans, player_stats

DATA = Path(__file__).parent / "data" / "botzone"
WINDS = ("East", "South", "West", "North")


def score_lines() -> list[tuple[list[str], list[int]]]:
    """(the four seats' names, the four scores) of every game of DATA (drawn: zeros)."""
    out = []
    for line in (DATA / "sample.txt").read_text(encoding="utf-8").splitlines():
        w = line.split()
        if w and w[0] == "Score":  # a drawn game ("Huang") has its Score line too
            out.append(([UNNAMED] * 4, [int(x) for x in w[1:5]]))
    for path in sorted((DATA / "judge-logs").glob("*.json")):
        obj = json.loads(path.read_text(encoding="utf-8"))
        players = obj["players"]
        players = ast.literal_eval(players) if isinstance(players, str) else players
        names = [p["name"] for p in players]
        scores = [0, 0, 0, 0]
        for item in obj["logs"]:
            disp = (item.get("output") or {}).get("display", {})
            if disp.get("action") == "HU":
                scores = [int(x) for x in disp["score"]]
        out.append((names, scores))
    return out


def expected(by: str) -> dict[str, Counter]:
    want: dict[str, Counter] = {}
    for names, scores in score_lines():
        for s in range(4):
            key = WINDS[s] if by == "seat" else names[s]
            c = want.setdefault(key, Counter())
            losers = [scores[q] for q in range(4) if q != s]
            c["games"] += 1
            c["points"] += scores[s]
            c["wins"] += scores[s] > 0
            # a discard win: its discarder pays more than the other two
            c["deal_ins"] += scores[s] < 0 and scores[s] < max(x for x in losers if x <= 0)
    return want


@pytest.mark.parametrize("by", ["seat", "player"])
def test_wins_deal_ins_points_equal_the_score_lines(by):
    t = player_stats(DATA, by=by)
    want = expected(by)
    assert sorted(t.index) == sorted(want)
    for key, c in want.items():
        row = t.loc[key]
        got = {k: int(row[k]) for k in ("games", "wins", "deal_ins", "points")}
        assert got == {k: int(c[k]) for k in got}, key
    assert (t.win_low <= t.win_rate).all() and (t.win_rate <= t.win_high).all()
    assert (t.self_drawn <= t.wins).all() and (t.claims <= t.claim_chances).all()


def test_one_bot_sits_in_every_seat_of_the_logs():
    t = player_stats(DATA / "judge-logs", by="player")
    assert t.index.tolist() == ["[pycc]chunjiandu"] and int(t.games.iloc[0]) == 24 * 4


def test_fan_frequencies_are_shares_of_wins():
    f = player_fans(DATA / "sample.txt", by="seat")
    t = player_stats(DATA / "sample.txt")
    # every win counts at least one fan; the shares of a seat with n wins are k / n
    for seat in f.columns:
        n = int(t.loc[seat, "wins"])
        shares = f[seat].dropna() * n
        assert ((shares - shares.round()).abs() < 1e-9).all() and shares.max() >= 1


def test_no_game_is_one_line(tmp_path, capsys):
    assert main(["records", str(tmp_path), "--players"]) == 1
    assert "no records found" in capsys.readouterr().err


def test_bad_group():
    with pytest.raises(InvalidArgumentError, match="'seat' or 'player'"):
        player_stats(DATA, by="wind")


def test_cli_players(tmp_path, capsys):
    code = main(["records", str(DATA), "--players", "--out", str(tmp_path), "--json",
                 str(tmp_path / "p.json")])  # fmt: skip
    out = capsys.readouterr().out
    assert code in (0, None)
    assert "per seat:" in out and "per player:" in out and "[pycc]chunjiandu" in out
    doc = json.loads((tmp_path / "p.json").read_text(encoding="utf-8"))
    assert doc["seat"]["East"]["games"] == 40
    assert (tmp_path / "players.csv").exists() and (tmp_path / "player-fans.csv").exists()
    assert (tmp_path / "players.png").stat().st_size > 5_000
