"""Review of decisions (mjstats.decisions.review, mjstats review)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from mjstats.analysis import analyze
from mjstats.cli import main
from mjstats.decisions import record_decisions
from mjstats.decisions.review import rate_options, review
from mjstats.tiles import TILES

DATA = Path(__file__).parent / "data" / "botzone"

# The dealer, ready for a legal win (123456789m: 清龙, waiting on 1p-4p with 23p) and
# holding the east wind it draws (isolated, not needed), discards 2p, one of the two
# tiles it waits with, and breaks its ready hand; the next seat wins on it (九莲宝灯).
BROKEN_READY = """Match broken-ready
Wind 0
Player 0 Deal W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T1 B2 B3
Player 1 Deal B1 B1 B1 B2 B3 B4 B5 B6 B7 B8 B9 B9 B9
Player 2 Deal T2 T3 T4 T5 T6 T7 T8 T9 F2 F2 F3 F3 F4
Player 3 Deal T2 T3 T4 T5 T6 T7 T8 T9 F2 F3 F4 J1 J2
Player 0 Draw F1
Player 0 Play B2
Player 1 Hu B2
Fan 88 九莲宝灯*1
Score -96 112 -8 -8
"""


def test_breaking_a_ready_hand_is_listed_with_a_positive_gap():
    r = review(BROKEN_READY)
    worst = r["worst"]
    first = worst.iloc[0]
    assert (first.game, first.seat, first.step, first.kind) == ("broken-ready", 0, 0, "own")
    assert first.taken == "discard 2p" and first.best == "discard 1z"
    assert first["gap"] > 0.5 and first["rank"] > 1
    seats = r["seats"].set_index("seat")
    assert seats.loc[0, "agreement"] == 0 and seats.loc[0, "bad_share"] == 1
    assert seats.loc[1, "agreement"] == 1  # the win taken


def test_values_of_the_constructed_decision_are_the_analysis():
    ds = record_decisions(BROKEN_READY)
    rated = rate_options(ds)
    legal = ds.legal[0][ds.legal[0] >= 0]
    # the analysis of the same position typed by hand: the dealer's 14 tiles, nothing
    # seen elsewhere, 20 draws left of its 34-tile Botzone wall segment (13 dealt, 1 drawn)
    table = analyze("123456789m23p11s+1z", wall_left=20).set_index("option")
    for j, a in enumerate(legal):
        name = "discard " + TILES[a & 63]
        assert rated.value[0, j] == pytest.approx(table.loc[name, "exp_points"], abs=1e-9)
        assert rated.method[0, j] == table.loc[name, "method"] == "exact"
    east = int(np.flatnonzero(legal == 1 * 64 + 27)[0])
    two_p = int(np.flatnonzero(legal == 1 * 64 + 10)[0])
    assert rated.value[0, east] > rated.value[0, two_p] > 0  # ready beats one from ready
    assert np.isnan(rated.value[0, len(legal) :]).all() and not rated.win[0].any()
    assert rated.hand[0] == "123456789m23p11s1z"


def test_the_fan_total_of_each_win_taken_is_the_judges():
    from mjstats.decisions import decision_set
    from mjstats.decisions import kernel as K
    from mjstats.games import kernels as G

    for source in (DATA / "sample.txt", DATA / "judge-logs"):
        ds = decision_set(source)
        r = ds.rows
        kinds = r[:, K.C_TAKEN] >> 6
        won = (kinds == G.A_HU) | (kinds == G.A_TSUMO)
        winner_rows = won & (ds.final[r[:, K.C_GAME], G.S_WINNER] == r[:, K.C_SEAT])
        assert winner_rows.sum() > 10
        g = r[winner_rows, K.C_GAME]
        assert (r[winner_rows, K.C_WIN_FAN] == ds.final[g, G.S_TOTAL]).all()
        # a win among the options has its total; none without one
        has_win = (ds.legal >> 6 == G.A_HU).any(axis=1) | (ds.legal >> 6 == G.A_TSUMO).any(axis=1)
        assert ((r[:, K.C_WIN_FAN] >= 8) == has_win).all()


def test_review_of_the_sample_and_its_command(tmp_path, capsys):
    r = review(DATA / "sample.txt")  # its time: `mjstats bench --tasks decisions`
    d = r["decisions"]
    assert (d["gap"] >= 0).all() and (d.loc[d["taken"] == d["best"], "rank"] == 1).all()
    assert (d.loc[d["rank"] > 1, "gap"] > 0).all()
    assert set(d["method"]) <= {"exact", "monte carlo", "win", ""}
    assert len(r["seats"]) == 64 and 0 < r["overall"]["agreement"].iloc[0] < 1
    page = tmp_path / "review.html"
    assert main(["review", str(DATA / "sample.txt"), "--html", str(page), "--worst", "5"]) == 0
    out = capsys.readouterr().out
    assert "agreement" in out and page.is_file()
    text = page.read_text()
    assert text.count("#step=") == 5 and (tmp_path / "review_games").is_dir()


def test_steps_are_the_viewers():
    from mjstats.decisions import decision_set
    from mjstats.decisions import kernel as K
    from mjstats.viewer import view

    ds = decision_set(DATA / "sample.txt")
    games = {g["id"]: g for g in view(DATA / "sample.txt").games}
    for i in range(0, len(ds), 7):
        g, step, seat = ds.rows[i, K.C_GAME], ds.rows[i, K.C_STEP], ds.rows[i, K.C_SEAT]
        actor, code, tile = games[ds.ids[g]]["steps"][step][:3]
        if ds.rows[i, K.C_KIND] == K.D_OWN:  # the seat drew, or claimed, just before
            assert actor == seat and code in (9, 6, 7, 8), i
        else:  # another seat discarded (or konged) the tile answered
            assert actor != seat and tile == ds.seen[i, 131], i


def test_players_of_json_logs_are_named():
    r = review(DATA / "judge-logs")
    names = set(r["players"]["player"])
    assert names and not any(n.startswith("seat ") for n in names)
    assert r["players"]["decisions"].sum() == r["overall"]["decisions"].iloc[0]
