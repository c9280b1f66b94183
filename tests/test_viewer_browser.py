"""The replay viewer in a real browser: Debian's headless ``chromium`` opens the page of
real Botzone games with ``#autoplay``, the page steps through its own controls to the
end of every game and writes what it drew into ``#mjv-check``; the test reads it back
(``--dump-dom``) and checks it against the records (hand sizes at every step, each
seat's discards, the final fans of the ``Fan`` line), and that no script error
happened. Screenshots of one step and of the end go to the test's tmp dir (printed).

In CI (``CI`` set) a missing chromium fails the test; elsewhere it skips.
"""

from __future__ import annotations

import html
import json
import re
import time
from pathlib import Path

from browser import chromium, require_chromium

from mjstats.records import botzone_ruleset, judge_fan_counts
from mjstats.tiles import BOTZONE_CODES, TILES
from mjstats.viewer import view

DATA = Path(__file__).parent / "data" / "botzone"
RULES = botzone_ruleset()
require_chromium()


def page_check(path: Path, hash_: str = "#autoplay") -> tuple[dict, dict]:
    dom = chromium("--virtual-time-budget=20000", "--dump-dom", path.as_uri() + hash_)
    m = re.search(r"<pre[^>]*id=\"mjv-check\"([^>]*)>(.*?)</pre>", dom, re.S)
    assert m, "the page has no #mjv-check element"
    attrs = dict(re.findall(r'([\w-]+)="([^"]*)"', m.group(1)))
    text = html.unescape(m.group(2))
    return (json.loads(text) if text else {}), attrs


def record_games(path: Path) -> list[dict]:
    """Each text game's discards per seat (MPSZ) and its Fan line, read here from the file."""
    games = []
    for line in path.read_text(encoding="utf-8").splitlines():
        w = line.split()
        if not w:
            continue
        if w[0] == "Match":
            games.append({"id": w[1], "discards": [[], [], [], []], "fans": None})
        elif w[0] == "Player" and w[2] == "Play":
            games[-1]["discards"][int(w[1])].append(TILES[BOTZONE_CODES.index(w[3])])
        elif w[0] == "Fan":
            fans = {}
            for part in w[2].split("+"):
                name, _, n = part.rpartition("*")
                fans[name] = int(n)
            games[-1]["fans"] = (int(w[1]), fans)
    return games


def test_autoplay_matches_the_records(tmp_path):
    src = DATA / "sample.txt"
    v = view(src)
    page = v.save(tmp_path / "sample.html")
    check, attrs = page_check(page)
    assert "data-errors" not in attrs and check["errors"] == []
    # the keys, the slider and South's view, on the first game
    steps = v.games[0]["steps"]
    last = len(steps) - 1
    keys = check["keys"]
    assert [k[0] for k in keys[:5]] == [last, 0, 1, 2, 1]
    for seat, (k, actor, code) in zip([1, 2, 3, 0], keys[5:9], strict=True):
        assert actor == seat and code != 9, (seat, k)  # the seat's next own move or claim
        before = keys[keys.index([k, actor, code]) - 1][0]
        assert all(st[0] != seat or st[1] == 9 for st in steps[before + 1 : k])
    assert keys[9][0] == 5
    hands = steps[5][4].split("|")
    assert check["hidden"] == [len(h) if p != 1 else 0 for p, h in enumerate(hands)]
    records = record_games(src)
    assert [g["id"] for g in check["games"]] == [g["id"] for g in records]
    for shown, rec, game in zip(check["games"], records, v.games, strict=True):
        steps = game["steps"]
        assert len(shown["steps"]) == len(steps)
        for k, (drawn, st) in enumerate(zip(shown["steps"], steps, strict=True)):
            hands, melds = st[4].split("|"), st[5].split("|")
            for p in range(4):
                n_hand, n_disc, n_melds = drawn[p]
                assert n_hand == len(hands[p]), (rec["id"], k, p)
                assert n_hand + 3 * n_melds in (13, 14), (rec["id"], k, p)
                assert n_melds == len(melds[p]) // 3
                assert n_disc == sum(1 for d in game["discards"] if d[0] == p and d[2] <= k)
        # the discards at the end, tile by tile, are the record's Play lines
        assert shown["discards"] == rec["discards"], rec["id"]
        if rec["fans"] is None:
            assert "Drawn game" in shown["end"]
            continue
        total, fans = rec["fans"]
        table = {row[0]: row for row in shown["fans"] if len(row) == 3}
        assert shown["fans"][-1] == ["total", str(total)]
        got = {}
        for zh, row in table.items():
            _, _, pts = row
            got[zh] = int(pts.split(" x")[1]) if " x" in pts else 1
        # the judge's names (some differ from the ruleset's: 嵌张 is 坎张) as fan counts
        judge, unknown = judge_fan_counts([tuple(fans.items())], RULES)
        assert not unknown[0]
        want = {RULES.fans[f].zh: int(judge[0, f]) for f in judge[0].nonzero()[0]}
        assert got == want, rec["id"]


def test_screenshots_of_a_step_and_the_end(tmp_path):
    page = view(DATA / "sample.txt").save(tmp_path / "sample.html")
    for name, hash_ in (("step-30", "#step=30"), ("end", "#step=end")):
        out = tmp_path / f"{name}.png"
        chromium("--window-size=1100,1000", f"--screenshot={out}", page.as_uri() + hash_)
        assert out.stat().st_size > 10_000
    print(f"viewer screenshots: {tmp_path}")
    _, attrs = page_check(page, "#step=end")
    assert "data-errors" not in attrs


def test_a_hundred_games_small_and_quick(tmp_path):
    games, text = [], (DATA / "sample.txt").read_text(encoding="utf-8")
    blocks = ["Match" + b for b in text.split("Match")[1:]]
    while len(games) < 100:
        games += blocks
    src = tmp_path / "hundred.txt"
    src.write_text("".join(games[:100]), encoding="utf-8")
    page = view(src).save(tmp_path / "hundred.html")
    size = page.stat().st_size
    print(f"100 games: {size / 1e6:.2f} MB")
    assert size <= 5_000_000
    start = time.perf_counter()
    _, attrs = page_check(page, "")
    wall = time.perf_counter() - start
    ready = int(attrs["data-ready-ms"])
    print(f"100 games: page ready {ready} ms after navigation start (chromium run {wall:.1f} s)")
    assert ready <= 2000


def test_player_names_are_text_not_markup(tmp_path):
    v = view(DATA / "judge-logs")
    v.games[0]["names"][0] = "<i id='injected'>x</i>"
    page = v.save(tmp_path / "names.html")
    dom = chromium("--virtual-time-budget=5000", "--dump-dom", page.as_uri())
    assert 'id="injected"' not in dom and "&lt;i id='injected'&gt;x&lt;/i&gt;" in dom
    assert "[pycc]chunjiandu" in dom


def test_played_games_with_flowers_autoplay(tmp_path):
    from mjstats.games import play_games

    v = view(play_games(3, seed=11, policy="efficiency", keep_log=True))  # shared wall
    page = v.save(tmp_path / "played.html")
    check, attrs = page_check(page)
    assert "data-errors" not in attrs and check["errors"] == []
    flowers = 0
    for shown, game in zip(check["games"], v.games, strict=True):
        for drawn, st in zip(shown["steps"], game["steps"], strict=True):
            assert [d[0] for d in drawn] == [len(h) for h in st[4].split("|")]
        flowers += sum(bin(m).count("1") for m in game["steps"][-1][6])
        ends = [d for d in game["discards"]]
        assert [len(d) for d in shown["discards"]] == [
            sum(1 for d in ends if d[0] == p) for p in range(4)
        ]
    assert flowers > 0  # the shared wall's flowers were drawn and shown
    dom = chromium("--virtual-time-budget=5000", "--dump-dom", page.as_uri() + "#step=end")
    assert dom.count('class="mjt flower"') == sum(
        bin(m).count("1") for m in v.games[0]["steps"][-1][6]
    )


def test_two_views_on_one_page_each_draw_their_own(tmp_path):
    """As in a notebook: two outputs, each finds its own element (ids differ)."""
    a, b = view(DATA / "sample.txt"), view(DATA / "judge-logs")
    page = tmp_path / "two.html"
    page.write_text(
        f"<!DOCTYPE html><html><head><meta charset='utf-8'></head><body>"
        f"{a._repr_html_()}{b._repr_html_()}</body></html>",
        encoding="utf-8",
    )
    dom = chromium("--virtual-time-budget=5000", "--dump-dom", page.as_uri() + "#step=end")
    assert dom.count('<div class="info end"><b>') == 2  # drawn, not the script's text
    assert a.games[0]["id"] in dom and b.games[0]["id"] in dom


def test_two_player_page_shows_two_seats(tmp_path):
    from mjstats.games import play_games

    v = view(play_games(2, seed=1, ruleset="two-player", keep_log=True), ruleset="two-player")
    check, attrs = page_check(v.save(tmp_path / "two-player.html"))
    assert "data-errors" not in attrs and check["errors"] == []
    for shown, game in zip(check["games"], v.games, strict=True):
        for drawn, st in zip(shown["steps"], game["steps"], strict=True):
            assert [d[0] for d in drawn] == [len(h) for h in st[4].split("|")[:2]]
