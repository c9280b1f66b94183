"""Every decision as data (mjstats.decisions): the 40 real games of tests/data/botzone.

The counts the decisions must have are made here from the files themselves, not from
mjstats' reader: the text records' move lines and ``Ignore`` lists, the JSON judge
logs' displays and the bots' responses.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from mjstats.decisions import check_decisions, decision_set, played_decisions
from mjstats.decisions import kernel as K
from mjstats.games import kernels as G
from mjstats.games import play_games

DATA = Path(__file__).parent / "data" / "botzone"
TEXT = DATA / "sample.txt"
JSON = sorted((DATA / "judge-logs").glob("*.json"))

# the answers' words of the two formats -> engine action kinds
_CLAIM = {"Chi": "chow", "Peng": "pung", "Gang": "kong", "Hu": "hu"}
_OWN = {"Play": "discard", "AnGang": "angang", "BuGang": "bugang", "Hu": "tsumo"}
_JSON_ANSWER = {"PASS": "pass", "CHI": "chow", "PENG": "pung", "GANG": "kong", "HU": "hu"}
_JSON_OWN = {"PLAY": "discard", "GANG": "angang", "BUGANG": "bugang", "HU": "tsumo"}


def text_counts(path: Path):
    """Per match: decisions per kind, actions taken per kind, and the recorded end
    ``(winner, fan total, scores)``, from the text records' lines."""
    games = {}
    match = None
    for line in path.read_text(encoding="utf-8").splitlines():
        w = line.split()
        if not w:
            continue
        if w[0] == "Match":
            match = w[1]
            games[match] = [Counter(), Counter(), [-1, 0, [0, 0, 0, 0]], None]
            continue
        kinds, taken, end, last = games[match]
        if w[0] == "Fan":
            end[1] = int(w[1])
        elif w[0] == "Score":
            end[2] = [int(x) for x in w[1:5]]
        if w[0] != "Player":
            continue
        p, verb = int(w[1]), w[2]
        if verb == "Draw":
            games[match][3] = (p, "Draw")
            continue
        if verb == "Deal":
            continue
        if verb == "Hu":
            end[0] = p
        self_drawn = verb == "Hu" and last == (p, "Draw")
        if verb in ("Play", "AnGang", "BuGang") or self_drawn:
            kinds["own"] += 1
            taken[_OWN[verb]] += 1
            if verb == "Play":
                kinds["discard"] += 3
            if verb == "BuGang":
                kinds["kong"] += 3
        else:  # a claim taken, then those the judge passed over
            taken[_CLAIM[verb]] += 1
            rest = w[w.index("Ignore") + 1 :] if "Ignore" in w else []
            for k in range(0, len(rest), 5):  # "Player q Verb Tile [Ignore]"
                taken[_CLAIM[rest[k + 2]]] += 1
        games[match][3] = (p, verb)
    out = {}
    for m, (kinds, taken, end, _) in games.items():
        answers = kinds["discard"] + kinds["kong"]
        taken["pass"] = answers - sum(taken[k] for k in ("chow", "pung", "kong", "hu"))
        out[m] = (kinds, taken, (end[0], end[1], end[2]))
    return out


def json_counts(path: Path):
    """The same for one JSON judge log, from the judge's displays and the responses."""
    logs = json.loads(path.read_text(encoding="utf-8"))["logs"]
    kinds, taken = Counter(), Counter()
    end = None
    for k, entry in enumerate(logs):
        if "output" not in entry:
            continue
        d = entry["output"]["display"]
        a = d.get("action")
        if a == "HU":
            end = (d["player"], d["fanCnt"], [int(x) for x in d["score"]])
            continue
        if a not in ("DRAW", "PLAY", "CHI", "PENG", "BUGANG"):
            continue
        resp = logs[k + 1]
        p = d["player"]
        if a == "DRAW":
            kinds["own"] += 1
            taken[_JSON_OWN[resp[str(p)]["response"].split()[0]]] += 1
            continue
        if a in ("CHI", "PENG"):  # the claimer's discard
            kinds["own"] += 1
            taken["discard"] += 1
        kind = "kong" if a == "BUGANG" else "discard"
        for q in range(4):
            if q != p:
                kinds[kind] += 1
                taken[_JSON_ANSWER[resp[str(q)]["response"].split()[0]]] += 1
    # a PLAY display follows a DRAW's discard: counted with the DRAW
    return {path.name.split("_")[0]: (kinds, taken, end)}


@pytest.fixture(scope="module")
def real():
    return decision_set(DATA)


@pytest.fixture(scope="module")
def expected():
    out = text_counts(TEXT)
    for p in JSON:
        out.update(json_counts(p))
    return out


def test_counts_per_kind_match_the_files(real, expected):
    assert real.n_games == 40 and set(real.ids) == set(expected)
    t = real.frame(arrays=False)
    for match, (kinds, taken, _) in expected.items():
        g = t[t.game == match]
        assert g.kind.value_counts().to_dict() == {k: kinds[k] for k in K.KIND_NAMES}, match
        got = {k: v for k, v in g.action_kind.value_counts().to_dict().items() if v}
        assert got == {k: v for k, v in taken.items() if v}, match


def test_taken_action_is_in_its_legal_mask(real):
    r = real.rows
    assert len(r) > 30000 / 4
    idx = r[:, K.C_INDEX]
    assert (idx >= 0).all() and (idx < r[:, K.C_NLEGAL]).all()
    assert (real.legal[np.arange(len(r)), idx] == r[:, K.C_TAKEN]).all()
    n = r[:, K.C_NLEGAL]
    assert ((real.legal >= 0).sum(axis=1) == n).all()
    # single legal actions are kept and marked; answers always offer a pass first
    t = real.frame(arrays=False)
    assert t.only.any() and (t.only == (t.n_legal == 1)).all()
    answers = r[:, K.C_KIND] != K.D_OWN
    assert (real.legal[answers, 0] == G.A_PASS).all()


def test_taken_actions_replay_each_recorded_end(real, expected):
    final = check_decisions(real)
    for i, match in enumerate(real.ids):
        winner, total, scores = expected[match][2]
        assert int(final[i, G.S_WINNER]) == winner, match
        assert int(final[i, G.S_TOTAL]) == (total if winner >= 0 else 0), match
        assert final[i, G.S_SCORE : G.S_SCORE + 4].tolist() == scores, match
    keep = np.ones(G.N_STATE, bool)
    keep[G.S_NLOG] = False  # the log's length: not the decisions'
    assert (final[:, keep] == real.final[:, keep]).all()


def test_a_missing_or_changed_decision_does_not_play_the_game(real):
    from dataclasses import replace

    from mjstats.errors import GameError

    g = 3
    lo, hi = int(real.starts[g]), int(real.starts[g + 1])
    one = replace(real, rows=real.rows[lo:hi].copy(), walls=real.walls[g : g + 1],
                  n_wall=real.n_wall[g : g + 1], winds=real.winds[g : g + 1],
                  final=real.final[g : g + 1], ids=real.ids[g : g + 1],
                  starts=np.array([0, hi - lo]))  # fmt: skip
    assert (check_decisions(one)[0, : G.S_NLOG] == real.final[g, : G.S_NLOG]).all()
    answer = int(np.flatnonzero(one.rows[:, K.C_KIND] == K.D_DISCARD)[7])
    missing = replace(one, rows=np.delete(one.rows, answer, axis=0),
                      starts=np.array([0, hi - lo - 1]))  # fmt: skip
    with pytest.raises(GameError, match="decision"):
        check_decisions(missing)
    # the first own-turn choice changed: the game cannot go on as recorded
    changed = replace(one, rows=one.rows.copy())
    k = int(np.flatnonzero(one.rows[:, K.C_NLEGAL] > 1)[0])
    changed.rows[k, K.C_TAKEN] = next(
        a for a in real.legal[lo + k] if a not in (-1, one.rows[k, K.C_TAKEN])
    )
    try:
        S = check_decisions(changed)
    except GameError:
        return
    assert (S[0, : G.S_NLOG] != real.final[g, : G.S_NLOG]).any()


def test_views_hide_what_the_seat_cannot_see(real):
    from mjstats.games.views import V_DRAWN, V_HAND, V_SEAT

    r = real.rows
    s = real.seen
    assert (s[:, V_SEAT] == r[:, K.C_SEAT]).all()
    answers = r[:, K.C_KIND] != K.D_OWN
    assert (s[answers, V_DRAWN] == -1).all()
    # own turn: 14 - 3 x melds concealed tiles; answers: 13 - 3 x melds
    n_meld = s[np.arange(len(r)), 116 + r[:, K.C_SEAT]]
    hand = s[:, V_HAND : V_HAND + 34].sum(axis=1)
    assert (hand + 3 * n_meld == np.where(answers, 13, 14)).all()
    river = s[:, K.SEEN_RIVER :].reshape(-1, 4, 34).sum(axis=2)
    assert (river >= 0).all() and river.max() <= 34


def test_played_games_decisions(real):
    out = play_games(6, seed=3, policy="fan-aware", keep_log=True)
    d = played_decisions(out[2], out[3])
    assert d.n_games == 6 and (d.rows[:, K.C_INDEX] >= 0).all()
    final = check_decisions(d)
    keep = np.ones(G.N_STATE, bool)
    keep[G.S_NLOG] = False
    assert (final[:, keep] == out[2][:, keep]).all()
    t = d.frame(arrays=False)
    assert (t.groupby("game").points.first().index == np.arange(6)).all()
    # the game's outcome for the seat is its final score
    per = t.groupby(["game", "seat"]).points.first().unstack().to_numpy()
    assert (per == out[2][:, G.S_SCORE : G.S_SCORE + 4]).all()
