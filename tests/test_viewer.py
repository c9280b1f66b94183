"""The replay viewer's data (:func:`mjstats.view`): every step is a legal table
(tile counts), the end is the engine's (played games) or the record's (Botzone), the
analysis is the efficiency functions', and ``mjstats replay --html`` writes one page
for every game, including games written by ``mjstats study games --records``."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

import mjstats
from mjstats.cli import main
from mjstats.errors import GameError
from mjstats.games import play_games
from mjstats.records import replay
from mjstats.records.reader import read_blocks
from mjstats.rulesets import get_ruleset
from mjstats.viewer import view

MCR = get_ruleset("mcr")
DATA = Path(__file__).parent / "data" / "botzone"


def counts(text: str) -> np.ndarray:
    return np.bincount([ord(c) - 48 for c in text], minlength=34)


def check_steps(game: dict) -> None:
    discards = {p: 0 for p in range(4)}
    for k, st in enumerate(game["steps"]):
        seat, code, _, _, hands, melds, _, sh, useful, best = st
        on_table = np.zeros(34, np.int64)
        for p in range(4):
            n_melds = len(melds.split("|")[p]) // 3
            assert len(hands.split("|")[p]) + 3 * n_melds in (13, 14), (game["id"], k, p)
            on_table += counts(hands.split("|")[p])
        for d in game["discards"]:
            if d[2] <= k and not (0 <= d[3] <= k):
                on_table[d[1]] += 1
        assert (on_table <= 4).all()
        # the acting seat's analysis is the efficiency functions' own
        hand = counts(hands.split("|")[seat])
        n_melds = len(melds.split("|")[seat]) // 3
        assert sh == int(mjstats.shanten(hand, n_melds))
        if hand.sum() + 3 * n_melds == 13:
            assert (counts(useful) > 0).tolist() == mjstats.useful_tiles(hand, n_melds).tolist()
            assert best == -1
        elif sh >= 0:  # 14 tiles, not complete: the best discard keeps the shanten
            assert hand[best] > 0
            rest = hand.copy()
            rest[best] -= 1
            assert int(mjstats.shanten(rest, n_melds)) == sh
            want = mjstats.useful_tiles(rest, n_melds)
            assert (counts(useful) > 0).tolist() == want.tolist()
            # and no other discard keeping the shanten leaves more useful copies
            left = np.maximum(4 - hand, 0)
            for d in np.flatnonzero(hand):
                other = hand.copy()
                other[d] -= 1
                if int(mjstats.shanten(other, n_melds)) == sh:
                    more = mjstats.useful_tiles(other, n_melds)
                    assert (left * more).sum() <= (left * want).sum()
        if code == 1:
            discards[seat] += 1
    assert [sum(d[0] == p for d in game["discards"]) for p in range(4)] == list(discards.values())


def test_played_games_end_as_the_engine_played_them():
    played = play_games(6, seed=5, policy="efficiency", keep_log=True)
    v = view(played)
    games = played[0]
    assert len(v) == 6
    for i, g in enumerate(v.games):
        check_steps(g)
        end = g["end"]
        assert end["scores"] == [int(games[f"score{p}"][i]) for p in range(4)]
        if games.winner[i] >= 0:
            assert end["winner"] == games.winner[i] and end["total"] == games.total[i]
            fans = {f.en: int(n) for n, f in zip(played[1][i], MCR.fans, strict=True) if n}
            assert {f[1]: f[3] for f in end["fans"]} == fans
        else:
            assert end["result"] == "drawn"


def test_records_text_and_json_end_as_recorded():
    ends = [
        ("win" if b.status[i] == 0 else "drawn", int(b.total[i]), b.scores[i].tolist())
        for part in (DATA / "judge-logs", DATA / "sample.txt")
        for b in read_blocks(part)
        for i in range(len(b))
    ]
    v = view([DATA / "judge-logs", DATA / "sample.txt"])  # a list: in its order
    assert len(v) == len(ends) == 40 == len(replay(DATA))
    for g, (result, total, scores) in zip(v.games, ends, strict=True):
        check_steps(g)
        assert g["end"]["result"] == result and g["end"]["scores"] == scores
        if result == "win":
            assert g["end"]["total"] == total


def test_bad_input_is_named():
    with pytest.raises(TypeError, match="view\\(\\) takes"):
        view(42)


def test_replay_html_of_study_records(tmp_path, capsys):
    records = tmp_path / "g.txt"
    assert main(["study", "games", "--n", "8", "--wall", "botzone", "--seed", "2",
                 "--records", str(records), "--out", str(tmp_path / "res")]) == 0  # fmt: skip
    page = tmp_path / "g.html"
    assert main(["replay", str(records), "--html", str(page)]) == 0
    text = page.read_text(encoding="utf-8")
    games = json.loads(
        re.search(r"var GAMES=(\[.*?\]),HOST=", text, re.S).group(1).replace("<\\/", "</")
    )
    assert len(games) == 8 and text.count("<script>") == 1
    assert "wrote" in capsys.readouterr().err


def test_judge_logs_name_their_players():
    v = view(DATA / "judge-logs")
    assert all(g["names"] == ["[pycc]chunjiandu"] * 4 for g in v.games)
    assert "names" not in view(DATA / "sample.txt").games[0]


def test_claimed_discards_are_the_claims():
    """Each discard marked claimed is followed at once by a claim of that tile by
    another seat; every chow, pung and exposed kong claims the discard before it."""
    v = view([DATA, play_games(30, seed=3, policy="efficiency", keep_log=True)])
    claims = 0
    for g in v.games:
        steps = g["steps"]
        for seat, tile, k, taken in g["discards"]:
            assert steps[k][:3] == [seat, 1, tile]
            if taken >= 0:
                assert taken == k + 1 and steps[taken][0] != seat
                assert steps[taken][1] in (5, 6, 7, 8)  # win, kong, pung, chow
                claims += 1
        n_claims = sum(1 for st in steps if st[1] in (6, 7, 8))
        n_claims += g["end"].get("kind") == "discard"  # the win on a discard
        assert n_claims == sum(1 for d in g["discards"] if d[3] >= 0)
    assert claims > 50


def test_two_player_games():
    played = play_games(3, seed=1, ruleset="two-player", keep_log=True)
    v = view(played, ruleset="two-player")
    assert [g["seats"] for g in v.games] == [2, 2, 2]
    for i, g in enumerate(v.games):
        hands = g["steps"][-1][4].split("|")
        assert hands[2] == hands[3] == ""  # the vacant seats hold nothing
        assert g["end"]["scores"][:2] == [int(played[0][f"score{p}"][i]) for p in range(2)]
    with pytest.raises(GameError, match="ruleset="):
        view(played)  # as MCR games: the 72-tile wall does not fit
