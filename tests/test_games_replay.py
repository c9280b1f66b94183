"""Replays of the 40 real Botzone games through the game engine (mjstats.records.replay).

The judge's records are the oracle: every recorded action and ignored claim must be
legal in the engine, the claim the engine gives priority to must be the recorded one,
and the end (winner, fans, scores) must be the judge's. Mutated records check that
each of these comparisons can fail.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mjstats.cli import main
from mjstats.records import RecordError, replay

DATA = Path(__file__).parent / "data" / "botzone"
SAMPLE = DATA / "sample.txt"


def test_all_real_games_replay_legal_and_matched():
    table = replay(DATA)
    assert len(table) == 40  # 16 text games + 24 judge logs
    assert table.source.str.endswith(".json").sum() == 24
    bad = table[~(table.legal & table.matched)]
    assert bad.empty, bad.to_string()
    assert (table.problem == "").all()


def _mutated(tmp_path: Path, old: str, new: str, count: int = 1) -> Path:
    text = SAMPLE.read_text(encoding="utf-8")
    assert text.count(old) >= 1, old
    path = tmp_path / "sample.txt"
    path.write_text(text.replace(old, new, count), encoding="utf-8")
    return path


def _row(table, match):
    return table[table.game == match].iloc[0]


def test_wrong_scores_do_not_match(tmp_path):
    path = _mutated(tmp_path, "Score 36 -8 -8 -20", "Score 36 -8 -20 -8")
    row = _row(replay(path), "61602cb45ddc087351c04385")
    assert row.legal and not row.matched
    assert "line 1017: 'Score 36 -8 -20 -8' does not follow from the total 12" in row.problem


def test_wrong_fans_do_not_match(tmp_path):
    path = _mutated(
        tmp_path,
        "Fan 12 全带幺*1+门前清*1+平和*1+喜相逢*2+老少副*1+边张*1",
        "Fan 12 全带幺*1+门前清*1+平和*1+喜相逢*1+连六*1+老少副*1+边张*1",
    )
    row = _row(replay(path), "61602cb45ddc087351c04385")
    assert row.legal and not row.matched
    assert "连六" in row.problem and "喜相逢" in row.problem


def test_claim_priority_is_turn_order_from_the_discarder(tmp_path):
    # player 3 discards W7: player 0 sits before player 2 in turn order, so a
    # record giving the win to player 2 is one the engine rejects
    path = _mutated(
        tmp_path, "Player 0 Hu W7 Ignore Player 2 Hu W7", "Player 2 Hu W7 Ignore Player 0 Hu W7"
    )
    row = _row(replay(path), "61602cb45ddc087351c04385")
    assert not row.legal
    assert "player 2 Hu W7: claim priority gives the discard to player 0" in row.problem


def test_illegal_ignored_claim_is_caught(tmp_path):
    # the ignored chow of W9 by player 3 is legal (next seat after 2); a chow by
    # player 1 (not the next seat) is not
    path = _mutated(tmp_path, "Ignore Player 3 Chi W8", "Ignore Player 1 Chi W8")
    row = _row(replay(path), "61602cb45ddc087351c04358")
    assert not row.legal
    assert "chi not on the previous player's discard" in row.problem


def test_discard_of_a_tile_not_held_is_illegal(tmp_path):
    # player 0 draws J3 and plays T6 in the first turn of the first game
    path = _mutated(tmp_path, "Player 0 Play T6", "Player 0 Play T4")
    row = replay(path).iloc[0]
    assert not row.legal
    assert row.problem == "line 8: tile not in the player's hand"


def test_drawn_game_end_must_be_reached(tmp_path):
    # cut the first game before its end and call it drawn
    text = SAMPLE.read_text(encoding="utf-8").split("\n\n")[0].splitlines()
    body = [line for line in text if not line.startswith(("Fan", "Score"))][:40]
    path = tmp_path / "cut.txt"
    path.write_text("\n".join([*body, "Huang", "Score 0 0 0 0"]) + "\n", encoding="utf-8")
    row = replay(path).iloc[0]
    assert row.legal and not row.matched
    assert "drawn game" in row.problem


def test_malformed_record_is_a_problem(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("Match x\nWind 0\nPlayer 0 Deal W1 ZZ\n", encoding="utf-8")
    row = replay(path).iloc[0]
    assert (row.game, row.legal, row.problem) == ("x", False, "line 3: unknown tile code")


def test_folder_without_records_raises(tmp_path):
    with pytest.raises(RecordError, match="no records"):
        replay(tmp_path)


def test_cli_replay(tmp_path, capsys):
    out = tmp_path / "replay.json"
    assert main(["replay", str(DATA), "--json", str(out)]) == 0
    assert "games 40  legal 40  matched 40" in capsys.readouterr().out
    assert json.loads(out.read_text()) == {"games": 40, "legal": 40, "matched": 40, "problems": []}


def test_cli_replay_problem_exits_1(tmp_path, capsys):
    path = _mutated(tmp_path, "Score 36 -8 -8 -20", "Score 36 -8 -20 -8")
    assert main(["replay", str(path)]) == 1
    printed = capsys.readouterr().out
    assert "matched 15" in printed and "problem: " in printed


@pytest.mark.parametrize("content", [None, "Wind 0\n"])
def test_cli_replay_no_records_is_one_line_error(tmp_path, capsys, content):
    path = tmp_path
    if content is not None:  # a file that is not a record
        path = tmp_path / "bad.txt"
        path.write_text(content, encoding="utf-8")
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("mjstats: error:") and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("policy", ["efficiency", "random", "planner"])
def test_played_games_written_as_records_replay_and_check(tmp_path, policy):
    from mjstats.games import play_games
    from mjstats.records import check_records, read_botzone

    path = tmp_path / "played.txt"
    games, _ = play_games(150, 5, policy=policy, wall="botzone", records=path)
    table = replay(path)
    assert len(table) == 150
    bad = table[~(table.legal & table.matched)]
    assert bad.empty, bad.to_string()
    # the independent reader and checker of real records agrees with every win
    records = read_botzone(path)
    assert records.games == 150 and records.wins == int((games.winner >= 0).sum())
    check = check_records(records)
    assert check.matched == check.wins
    assert (records.recorded.seat.to_numpy() == games.winner[games.winner >= 0].to_numpy()).all()
