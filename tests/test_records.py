"""Botzone records: reconstruction of every win, checked against the judge's fans.

The oracle is the reference fan calculator PyMahjongGB (the Botzone judge is built on
it): scoring each reconstructed hand with it must reproduce the fans the judge
recorded, so a wrong 和绝张, last-tile, kong or wind flag shows up as a mismatch.
Flags that no real win in the data exercises (妙手回春, 海底捞月, 杠上开花, 抢杠和)
are checked on synthetic games written in both formats; a naive pure-Python replay
of the text format cross-checks the numba kernel.
"""

from __future__ import annotations

import copy
import doctest
import io
import json
import os
import random
import re
import shutil
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from mjstats.records import RecordError, RecordSet, read_botzone
from mjstats.records import botzone as botzone_module
from mjstats.tiles import BOTZONE_CODES

MahjongGB = pytest.importorskip("MahjongGB")

DATA = Path(__file__).parent / "data" / "botzone"
SAMPLE = DATA / "sample.txt"
LOGS = DATA / "judge-logs"
SCALE = max(1, int(os.environ.get("MJSTATS_TEST_SCALE", "1")))
ID = {c: t for t, c in enumerate(BOTZONE_CODES)}

# PyMahjongGB 1.4.0 names of the wait fans -> the judge's (2018) names
_NEW_NAMES = {"独听・边张": "边张", "独听・嵌张": "嵌张", "独听・单钓": "单钓将"}


# ---------------------------------------------------------------------------
# helpers


def reference_fans(batch, i, **override):
    """Fans of row ``i`` by PyMahjongGB, as ``((name, count), ...)`` in its order."""
    row = {
        k: np.asarray(getattr(batch, k))[i]
        for k in (
            "concealed",
            "melds",
            "win_tile",
            "self_drawn",
            "last_of_kind",
            "kong_win",
            "last_of_wall",
            "seat_wind",
            "round_wind",
            "flowers",
        )
    }
    row.update(override)
    pack = []
    for kind, tile in row["melds"]:
        if kind == 1:
            pack.append(("CHI", BOTZONE_CODES[tile + 1], 1))  # PyMahjongGB: middle tile
        elif kind == 2:
            pack.append(("PENG", BOTZONE_CODES[tile], 1))
        elif kind == 3:
            pack.append(("GANG", BOTZONE_CODES[tile], 1))
        elif kind == 4:
            pack.append(("GANG", BOTZONE_CODES[tile], 0))
    standing = row["concealed"].astype(int)
    win = int(row["win_tile"])
    standing[win] -= 1  # PyMahjongGB wants the standing tiles without the winning tile
    hand = tuple(BOTZONE_CODES[t] for t in range(34) for _ in range(standing[t]))
    fans = MahjongGB.MahjongFanCalculator(
        tuple(pack),
        hand,
        BOTZONE_CODES[win],
        bin(int(row["flowers"])).count("1"),
        bool(row["self_drawn"]),
        bool(row["last_of_kind"]),
        bool(row["kong_win"]),
        bool(row["last_of_wall"]),
        int(row["seat_wind"]),
        int(row["round_wind"]),
        verbose=True,
    )
    return tuple((_NEW_NAMES.get(name, name), count) for _, count, name, _ in fans)


def mismatches(records: RecordSet, **override) -> list[str]:
    out = []
    for i, row in records.recorded.iterrows():
        got = reference_fans(records.batch, i, **{k: v[i] for k, v in override.items()})
        if got != row.fans:
            out.append(f"{row.source} {row.match_id}: reference {got}, judge {row.fans}")
    return out


def batch_fields(batch) -> dict[str, np.ndarray]:
    return {
        k: np.asarray(getattr(batch, k))
        for k in (
            "concealed",
            "melds",
            "win_tile",
            "self_drawn",
            "last_of_kind",
            "kong_win",
            "last_of_wall",
            "seat_wind",
            "round_wind",
            "flowers",
            "situation",
        )
    }


def assert_same_records(a: RecordSet, b: RecordSet, *, recorded=True) -> None:
    fa, fb = batch_fields(a.batch), batch_fields(b.batch)
    for k in fa:
        np.testing.assert_array_equal(fa[k], fb[k], err_msg=k)
    if recorded:
        cols = ["match_id", "seat", "win_type", "from_seat", "win_tile", "total", "fans"]
        assert a.recorded[cols].equals(b.recorded[cols])


def sample_text() -> str:
    return SAMPLE.read_text(encoding="utf-8")


def set_line(text: str, number: int, new: str) -> str:
    lines = text.split("\n")
    lines[number - 1] = new
    return "\n".join(lines)


# ---------------------------------------------------------------------------
# a naive replay of the text format (lists and Counters, no numba)


def _chow_codes(mid: str) -> list[str]:
    return [f"{mid[0]}{int(mid[1]) + d}" for d in (-1, 0, 1)]


def naive_wins(text: str) -> list[dict]:
    """Every win of a text data set, replayed the obvious way."""
    wins = []
    for block in re.split(r"\n\s*\n", text.strip()):
        lines = block.strip().splitlines()
        if lines[-2] == "Huang":
            continue
        quan = int(lines[1].split()[1])
        hands = [Counter() for _ in range(4)]
        melds: list[list[list]] = [[] for _ in range(4)]
        left = [21] * 4
        visible = Counter()
        prev = None
        kong_draw = False
        for ln in lines[2:]:
            tok = ln.split()
            if tok[0] != "Player":
                continue
            p, act, args = int(tok[1]), tok[2], tok[3:]
            if "Ignore" in args:
                args = args[: args.index("Ignore")]
            if act == "Deal":
                hands[p].update(args)
                continue
            t = args[0]
            if act == "Draw":
                kong_draw = prev is not None and prev[0] in ("Gang", "AnGang", "BuGang")
                left[p] -= 1
                hands[p][t] += 1
            elif act == "Play":
                hands[p][t] -= 1
                visible[t] += 1
            elif act == "Chi":
                claimed = prev[2]
                hands[p][claimed] += 1
                for x in _chow_codes(t):
                    hands[p][x] -= 1
                    if x != claimed:
                        visible[x] += 1
                melds[p].append([1, _chow_codes(t)[0]])
            elif act == "Peng":
                hands[p][t] -= 2
                visible[t] += 2
                melds[p].append([2, t])
            elif act == "Gang":
                hands[p][t] -= 3
                visible[t] += 3
                melds[p].append([3, t])
            elif act == "AnGang":
                hands[p][t] -= 4
                melds[p].append([4, t])
            elif act == "BuGang":
                hands[p][t] -= 1
                visible[t] += 1
                melds[p][melds[p].index([2, t])][0] = 3
            elif act == "Hu":
                if prev[0] == "Draw" and prev[1] == p:
                    win, self_drawn, others, kong = prev[2], True, visible[prev[2]], kong_draw
                else:
                    win, self_drawn, others = prev[2], False, visible[prev[2]] - 1
                    kong = prev[0] == "BuGang"
                    hands[p][win] += 1
                concealed = np.zeros(34, np.uint8)
                for code, k in hands[p].items():
                    concealed[ID[code]] += k
                m = np.zeros((4, 2), np.uint8)
                # HandBatch keeps melds sorted by tile, then kind
                for j, (kind, code) in enumerate(sorted(melds[p], key=lambda m: (ID[m[1]], m[0]))):
                    m[j] = kind, ID[code]
                wins.append(
                    {
                        "concealed": concealed,
                        "melds": m,
                        "win_tile": ID[win],
                        "self_drawn": self_drawn,
                        # MCR: 抢杠和 不计和绝张 (the robbed tile is always the 4th copy)
                        "last_of_kind": others == 3 and not (kong and not self_drawn),
                        "kong_win": kong,
                        "last_of_wall": left[(prev[1] + 1) % 4] == 0,
                        "seat_wind": p,
                        "round_wind": quan,
                    }
                )
                break
            prev = (act, p, t)
    return wins


def assert_matches_naive(records: RecordSet, text: str) -> None:
    expected = naive_wins(text)
    fields = batch_fields(records.batch)
    assert len(expected) == len(records)
    for i, want in enumerate(expected):
        for k, v in want.items():
            np.testing.assert_array_equal(fields[k][i], v, err_msg=f"win {i} {k}")


# ---------------------------------------------------------------------------
# synthetic games, written in both formats


ALL_TILES = [c for c in BOTZONE_CODES for _ in range(4)]


class Script:
    """A scripted game, rendered as text data set and as a JSON judge log.

    ``deals`` gives some of each player's 13 tiles; the rest, and every draw given
    as ``None``, come from the unused tiles (fixed seed). ``turn(p)`` is a draw
    followed by the discard of the drawn tile.
    """

    def __init__(self, deals: dict[int, list[str]], quan: int = 0, seed: int = 7):
        self.quan = quan
        self.partial = {p: list(deals.get(p, [])) for p in range(4)}
        self.events: list[tuple] = []
        self.rng = random.Random(seed)

    def draw(self, p, tile=None):
        self.events.append(("Draw", p, tile))
        return self

    def play(self, p, tile=None):
        self.events.append(("Play", p, tile))  # None: the tile just drawn
        return self

    def turn(self, p, tile=None):
        return self.draw(p, tile).play(p)

    def chi(self, p, mid, discard):
        self.events.append(("Chi", p, mid, discard))
        return self

    def peng(self, p, discard):
        self.events.append(("Peng", p, discard))
        return self

    def gang(self, p):
        self.events.append(("Gang", p))
        return self

    def angang(self, p, tile):
        self.events.append(("AnGang", p, tile))
        return self

    def bugang(self, p, tile):
        self.events.append(("BuGang", p, tile))
        return self

    def hu(self, p):
        self.events.append(("Hu", p))
        return self

    def huang(self):
        self.events.append(("Huang",))
        return self

    def _resolve(self):
        """Fill the deals and the free draws from the unused tiles."""
        pool = Counter(ALL_TILES)
        pool.subtract(t for p in range(4) for t in self.partial[p])
        pool.subtract(e[2] for e in self.events if e[0] == "Draw" and e[2] is not None)
        assert min(pool.values()) >= 0, "scripted tiles exceed 4 copies"
        free = list(pool.elements())
        self.rng.shuffle(free)
        deals = {}
        for p in range(4):
            need = 13 - len(self.partial[p])
            deals[p] = self.partial[p] + free[:need]
            del free[:need]
        events = []
        for e in self.events:
            if e[0] == "Draw" and e[2] is None:
                e = ("Draw", e[1], free.pop())
            events.append(e)
        return deals, events, free

    def render(self, match="synthetic"):
        """``(text, judge_log)`` of the game."""
        deals, events, free = self._resolve()
        lines = [f"Match {match}", f"Wind {self.quan}"]
        lines += [f"Player {p} Deal {' '.join(deals[p])}" for p in range(4)]
        taken = {p: list(deals[p]) for p in range(4)}
        left = [21] * 4
        logs = [
            {
                "output": {
                    "command": "request",
                    "display": {"action": "INIT", "quan": self.quan, "tileCnt": [21] * 4},
                }
            },
            {
                "output": {
                    "command": "request",
                    "display": {
                        "action": "DEAL",
                        "hand": [deals[p] for p in range(4)],
                        "tileCnt": [21] * 4,
                    },
                }
            },
        ]

        def out(display, finish=False):
            responses = {str(p): {"response": "PASS", "verdict": "OK"} for p in range(4)}
            action, actor = display.get("action"), display.get("player")
            said = {
                "PLAY": f"PLAY {display.get('tile')}",
                "CHI": f"CHI {display.get('tileCHI')} {display.get('tile')}",
                "PENG": f"PENG {display.get('tile')}",
                "BUGANG": f"BUGANG {display.get('tile')}",
                "GANG": "GANG" if display.get("claimed") else f"GANG {display.get('tile')}",
                "HU": "HU",
            }.get(action)
            display.pop("claimed", None)
            if said is not None:
                responses[str(actor)]["response"] = said
            logs.append(responses)
            logs.append(
                {"output": {"command": "finish" if finish else "request", "display": display}}
            )

        last_draw = last_discard = None
        last_actor = None  # the player of the previous move
        for e in events:
            kind, p = e[0], e[1] if len(e) > 1 else None
            if kind != "Hu" and p is not None:
                last_actor = p
            if kind == "Draw":
                tile = e[2]
                taken[p].append(tile)
                left[p] -= 1
                last_draw = tile
                lines.append(f"Player {p} Draw {tile}")
                out({"action": "DRAW", "player": p, "tile": tile, "tileCnt": list(left)})
            elif kind == "Play":
                tile = e[2] or last_draw
                last_discard = tile
                lines.append(f"Player {p} Play {tile}")
                out({"action": "PLAY", "player": p, "tile": tile})
            elif kind == "Chi":
                lines += [f"Player {p} Chi {e[2]}", f"Player {p} Play {e[3]}"]
                last_discard = e[3]
                out({"action": "CHI", "player": p, "tile": e[3], "tileCHI": e[2]})
            elif kind == "Peng":
                lines += [f"Player {p} Peng {last_discard}", f"Player {p} Play {e[2]}"]
                last_discard = e[2]
                out({"action": "PENG", "player": p, "tile": e[2]})
            elif kind == "Gang":
                lines.append(f"Player {p} Gang {last_discard}")
                out({"action": "GANG", "player": p, "tile": last_discard, "claimed": True})
            elif kind in ("AnGang", "BuGang"):
                lines.append(f"Player {p} {kind} {e[2]}")
                # the judge displays a concealed kong as GANG too
                out({"action": "BUGANG" if kind == "BuGang" else "GANG", "player": p, "tile": e[2]})
                last_discard = e[2] if kind == "BuGang" else last_discard
            elif kind == "Hu":
                # the data set's quirk: a self-drawn Hu repeats the previous discard
                lines.append(f"Player {p} Hu {last_discard or last_draw}")
                scores = _payments(p, None if last_actor == p else last_actor, 8)
                lines += ["Fan 8 无番和*1", "Score " + " ".join(map(str, scores))]
                out(
                    {
                        "action": "HU",
                        "player": p,
                        "fan": [{"name": "无番和", "cnt": 1, "value": 8}],
                        "fanCnt": 8,
                        "score": scores,
                    },
                    finish=True,
                )
            elif kind == "Huang":
                lines += ["Huang", "Score 0 0 0 0"]
                out({"action": "HUANG"}, finish=True)
        # the wall: each segment is used from its end, the unused tiles fill the rest
        segments = []
        for p in range(4):
            seg = [None] * 34
            for k, tile in enumerate(taken[p]):
                seg[33 - k] = tile
            for k in range(34):
                if seg[k] is None:
                    seg[k] = free.pop()
            segments += seg
        log = {
            "status": "finished",
            "logs": logs,
            "initdata": json.dumps(
                {"quan": self.quan, "srand": 1, "walltiles": " ".join(segments)}
            ),
        }
        return "\n".join(lines) + "\n", log


def _payments(winner: int, payer: int | None, total: int) -> list[int]:
    """The judge's Score line: 8 from each other player, 8 + total from the discarder
    (every other player when self-drawn, ``payer`` None)."""
    scores = [0, 0, 0, 0]
    for q in range(4):
        if q != winner:
            pay = 8 + total if payer in (None, q) else 8
            scores[q] -= pay
            scores[winner] += pay
    return scores


def tsumogiri_to_the_end(script: Script, last: dict[int, str], stop: int) -> Script:
    """Everybody draws and discards the drawn tile, 21 rounds (84 draws), up to
    draw number ``stop`` (1-84, inclusive); ``last`` fixes players' 21st draws."""
    k = 0
    for r in range(21):
        for p in range(4):
            k += 1
            tile = last.get(p) if r == 20 else None
            if k == stop:
                script.draw(p, tile)
                return script
            script.turn(p, tile)
    return script


def _read_both(script: Script, tmp_path: Path, name="game"):
    text, log = script.render(match=name)
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(log), encoding="utf-8")
    return read_botzone(text), read_botzone(path), text


# ---------------------------------------------------------------------------
# the real records


def test_sample_all_wins_found():
    records = read_botzone(SAMPLE)
    assert (records.games, records.wins, records.drawn, records.bad) == (16, 14, 2, 0)
    rec = records.recorded
    assert rec.match_id.iloc[0] == "61602cb45ddc087351c04358"
    assert rec.line.iloc[0] == 103  # "Player 1 Hu B7"
    assert rec.total.tolist() == [9, 9, 14, 10, 10, 17, 11, 10, 13, 12, 9, 16, 10, 11]
    assert rec.win_type.value_counts().to_dict() == {"discard": 8, "self_drawn": 6}
    assert len(records.batch) == 14
    # 14 tiles per hand: concealed (with the winning tile) + 3 per meld
    melds = batch_fields(records.batch)["melds"]
    sizes = records.batch.concealed.sum(axis=1) + 3 * (melds[:, :, 0] > 0).sum(axis=1)
    assert sizes.tolist() == [14] * 14


def test_sample_self_drawn_hu_line_quirk():
    rec = read_botzone(SAMPLE).recorded
    # "Player 2 Play B1 / Player 3 Draw B5 / Player 3 Hu B1": the winning tile is B5
    row = rec[rec.match_id == "61602cb45ddc087351c0438a"].iloc[0]
    assert (row.win_type, row.win_tile, row.seat, row.line) == ("self_drawn", "B5", 3, 1105)


def test_sample_matches_the_judges_fans():
    assert mismatches(read_botzone(SAMPLE)) == []


def test_judge_logs_all_wins_found_and_match_the_judges_fans():
    records = read_botzone(LOGS)
    assert (records.games, records.wins, records.drawn, records.aborted, records.bad) == (
        24,
        24,
        0,
        0,
        0,
    )
    assert records.recorded.match_id.iloc[0] == "6a201f5a58ebe27b197da7f1"
    assert mismatches(records) == []


def test_recorded_fan_points_add_up_to_the_total():
    for records in (read_botzone(SAMPLE), read_botzone(LOGS)):
        for row in records.recorded.itertuples():
            pairs = zip(row.fans, row.fan_points, strict=True)
            assert sum(count * value for (_, count), value in pairs) == row.total


def test_the_check_is_sharp():
    """Wrong winds (the README's order) or a missing 和绝张 break the agreement."""
    for records in (read_botzone(SAMPLE), read_botzone(LOGS)):
        f = batch_fields(records.batch)
        readme = np.array([0, 3, 2, 1])  # README: 0 E, 1 N, 2 W, 3 S
        assert mismatches(
            records, seat_wind=readme[f["seat_wind"]], round_wind=readme[f["round_wind"]]
        )
        assert f["last_of_kind"].any()
        assert mismatches(records, last_of_kind=np.zeros(len(records), bool))


def test_sample_matches_naive_replay():
    records = read_botzone(SAMPLE)
    assert_matches_naive(records, sample_text())


def test_no_flowers_and_every_round_wind():
    f = batch_fields(read_botzone(SAMPLE).batch)
    assert f["flowers"].tolist() == [0] * 14 and f["situation"].tolist() == [0] * 14
    assert set(f["round_wind"].tolist()) == {0, 1, 2, 3}


def test_file_like_and_string_inputs():
    text = sample_text()
    a = read_botzone(SAMPLE)
    assert_same_records(a, read_botzone(text))
    assert_same_records(a, read_botzone(io.StringIO(text)))
    assert_same_records(a, read_botzone(io.BytesIO(text.encode("utf-8"))))
    assert_same_records(a, read_botzone(str(SAMPLE)))
    assert read_botzone(text).recorded.source.iloc[0] == "<text>"
    assert read_botzone(LOGS / "6a201f5a58ebe27b197da7f1_lite.json").wins == 1


def test_crlf_line_endings_and_byte_order_mark():
    good = read_botzone(SAMPLE)
    assert_same_records(good, read_botzone(sample_text().replace("\n", "\r\n")))
    assert_same_records(good, read_botzone("\ufeff" + sample_text()))


def test_streaming_in_small_chunks_gives_the_same_result():
    repeats = 20 * SCALE
    text = sample_text() * repeats
    whole = read_botzone(text)
    chunked = read_botzone(io.BytesIO(text.encode("utf-8")), chunk_size=3000)
    assert whole.games == chunked.games == 16 * repeats
    assert whole.wins == 14 * repeats
    assert_same_records(whole, chunked)
    assert whole.recorded.line.equals(chunked.recorded.line)
    assert whole.recorded.game.equals(chunked.recorded.game)
    lines = len(sample_text().split("\n")) - 1
    assert chunked.recorded.line.iloc[14] == 103 + lines  # first win of the second copy
    assert chunked.recorded.game.iloc[14] == 16


def test_doctests():
    from mjstats import records

    for module in (botzone_module, records):
        result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
        assert result.failed == 0 and result.attempted > 0


# ---------------------------------------------------------------------------
# synthetic games: the flags no real win exercises


HAND_F1 = ["W1", "W2", "W3", "W4", "W5", "W6", "W7", "W8", "W9", "B1", "B2", "B3", "F1"]


def test_last_tile_self_drawn(tmp_path):
    # player 3's 21st draw is the 84th: player 0 has nothing left -> 妙手回春
    script = Script({3: HAND_F1})
    tsumogiri_to_the_end(script, {3: "F1"}, stop=84).hu(3)
    text_rs, json_rs, text = _read_both(script, tmp_path)
    assert_same_records(text_rs, json_rs)
    assert_matches_naive(text_rs, text)
    f = batch_fields(text_rs.batch)
    assert f["self_drawn"][0] and f["last_of_wall"][0] and not f["kong_win"][0]
    assert "妙手回春" in dict(reference_fans(text_rs.batch, 0))


def test_last_tile_discard(tmp_path):
    # player 3 discards its 21st draw, player 1 wins on it -> 海底捞月
    script = Script({1: HAND_F1})
    tsumogiri_to_the_end(script, {3: "F1"}, stop=84).play(3).hu(1)
    text_rs, json_rs, text = _read_both(script, tmp_path)
    assert_same_records(text_rs, json_rs)
    assert_matches_naive(text_rs, text)
    f = batch_fields(text_rs.batch)
    assert not f["self_drawn"][0] and f["last_of_wall"][0]
    assert text_rs.recorded.from_seat[0] == 3
    assert "海底捞月" in dict(reference_fans(text_rs.batch, 0))


def test_own_last_draw_is_not_the_last_tile_while_the_next_player_can_draw(tmp_path):
    # player 2's 21st draw: player 3 still has one tile -> not the last tile
    script = Script({2: HAND_F1})
    tsumogiri_to_the_end(script, {2: "F1"}, stop=83).hu(2)
    text_rs, json_rs, text = _read_both(script, tmp_path)
    assert_same_records(text_rs, json_rs)
    assert_matches_naive(text_rs, text)
    f = batch_fields(text_rs.batch)
    assert f["self_drawn"][0] and not f["last_of_wall"][0]
    assert "妙手回春" not in dict(reference_fans(text_rs.batch, 0))


def test_drawn_game(tmp_path):
    script = tsumogiri_to_the_end(Script({}), {}, stop=85).huang()
    text_rs, json_rs, _ = _read_both(script, tmp_path)
    for rs in (text_rs, json_rs):
        assert (rs.games, rs.wins, rs.drawn, rs.bad) == (1, 0, 1, 0)
        assert len(rs.batch) == 0 and len(rs.recorded) == 0


def test_robbing_a_promoted_kong(tmp_path):
    # player 1 pungs B5, later draws the 4th B5 and promotes; player 2 robs it
    wait_b5 = ["W1", "W2", "W3", "W4", "W5", "W6", "W7", "W8", "W9", "F2", "F2", "B4", "B6"]
    script = Script({0: ["B5"], 1: ["B5", "B5"], 2: wait_b5})
    script.draw(0).play(0, "B5").peng(1, "F4")
    script.turn(2).turn(3).turn(0).draw(1, "B5").bugang(1, "B5").hu(2)
    script.partial[1].append("F4")
    text_rs, json_rs, text = _read_both(script, tmp_path)
    assert_same_records(text_rs, json_rs)
    assert_matches_naive(text_rs, text)
    f = batch_fields(text_rs.batch)
    assert text_rs.recorded.win_type[0] == "robbed_kong"
    assert text_rs.recorded.from_seat[0] == 1
    assert f["kong_win"][0] and not f["self_drawn"][0]
    # the pung's three copies are on the table, but robbing a kong excludes 和绝张
    assert not f["last_of_kind"][0]
    fans = dict(reference_fans(text_rs.batch, 0))
    assert "抢杠和" in fans and "和绝张" not in fans  # the scorer drops 和绝张 here


def test_kong_replacement_win_after_concealed_kong(tmp_path):
    hand = ["T1", "T1", "T1", "W1", "W2", "W3", "W4", "W5", "W6", "W7", "W8", "F3", "F3"]
    script = Script({0: hand}).draw(0, "T1").angang(0, "T1").draw(0, "W9").hu(0)
    text_rs, json_rs, text = _read_both(script, tmp_path)
    assert_same_records(text_rs, json_rs)
    assert_matches_naive(text_rs, text)
    f = batch_fields(text_rs.batch)
    assert f["self_drawn"][0] and f["kong_win"][0]
    assert f["melds"][0, 0].tolist() == [4, ID["T1"]]
    assert "杠上开花" in dict(reference_fans(text_rs.batch, 0))


def test_kong_replacement_win_after_exposed_kong_and_a_chow(tmp_path):
    hand1 = ["T5", "T5", "T5", "W1", "W2", "B1", "B2", "B3", "B4", "B5", "B6", "J1", "J1"]
    script = Script({0: ["W3"], 1: hand1, 3: ["T5"]})
    script.draw(0, "F4").play(0, "W3").chi(1, "W2", "B1")
    script.draw(2, "F4").play(2).draw(3, "F4").play(3, "T5").gang(1).draw(1, "B7").hu(1)
    text_rs, json_rs, text = _read_both(script, tmp_path)
    assert_same_records(text_rs, json_rs)
    assert_matches_naive(text_rs, text)
    f = batch_fields(text_rs.batch)
    assert f["melds"][0].tolist() == [[1, ID["W1"]], [3, ID["T5"]], [0, 0], [0, 0]]
    assert f["self_drawn"][0] and f["kong_win"][0]
    assert "杠上开花" in dict(reference_fans(text_rs.batch, 0))


def test_a_kong_draw_followed_by_a_discard_is_not_a_kong_win(tmp_path):
    script = Script({1: HAND_F1, 0: ["T1", "T1", "T1"]})
    script.draw(0, "T1").angang(0, "T1").draw(0).play(0).draw(1, "F1").hu(1)
    text_rs, json_rs, _ = _read_both(script, tmp_path)
    assert_same_records(text_rs, json_rs)
    assert not batch_fields(text_rs.batch)["kong_win"][0]


# ---------------------------------------------------------------------------
# malformed and truncated records


W0 = "Player 0 Deal W9 W9 W9 W9 W9 B7 T1 W6 B8 J1 T9 B2 W3"


@pytest.mark.parametrize(
    ("line", "new", "problem", "at"),
    [
        (8, "Player 0 Play X9", "unknown tile code", 8),
        (8, "Player 0 Play W1", "tile not in the player's hand", 8),
        (8, "Player 0 Discard T6", "unknown action", 8),
        (8, "Player 5 Play T6", "player number must be 0-3", 8),
        (8, "Player 0 Play T6 T6", "malformed line", 8),
        (7, "Player 1 Draw J3", "draw out of turn", 7),
        (2, "Wind 7", "bad 'Wind' line", 2),
        (2, "", "'Wind' line missing", 3),
        (3, "Player 0 Deal T8 B7 T1 W6 B8 W9 J1 T9 B2 W3 T6 F4", "bad deal", 3),
        (3, W0, "more than 4 copies", 3),
        (103, "Player 1 Hu B8", "hu tile differs from the discarded tile", 103),
        (101, "Player 1 Hu W8", "player 1 Hu W8, but player 2 draws first", 101),
        (103, "", "'Fan' line without a 'Hu' line", 104),
        (104, "Huang", "'Huang' (drawn game) after a 'Hu' line", 104),
        (104, "Fan x", "bad 'Fan' line", 104),
        (104, "Fan 9 混一色1+箭刻*1", "bad 'Fan' line", 104),
        (104, "", "'Score' line without 'Fan' or 'Huang'", 105),
        (106, "Player 0 Draw W1", "line after the end of the game", 106),
        (50, "Hello", "malformed line", 50),
        (105, "", "game is truncated", 106),
        (45, "Player 0 Peng W8 Ignore Player 3 Chi W8", "peng/gang tile differs", 45),
        (45, "Player 0 Peng W9 Extra", "malformed line", 45),
        (19, "Player 2 Chi T7", "chi does not form a chow", 19),
        (19, "Player 3 Chi T5", "chi not on the previous player's discard", 19),
    ],
)
def test_malformed_text_names_file_and_line(line, new, problem, at, tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text(set_line(sample_text(), line, new), encoding="utf-8")
    with pytest.raises(RecordError, match=re.escape(problem)) as info:
        read_botzone(path)
    err = info.value
    assert isinstance(err, ValueError)
    assert (err.source, err.line) == (str(path), at)
    assert str(err).startswith(f"{path}, line {at}: ")
    assert err.match_id == "61602cb45ddc087351c04358"
    # skipped and counted instead: the other 15 games are read as usual
    skipped = read_botzone(path, skip_bad=True)
    assert (skipped.games, skipped.bad) == (16, 1)
    assert skipped.wins == 13 and skipped.drawn == 2
    assert f"line {at}:" in skipped.errors[0]
    good = read_botzone(SAMPLE)
    assert skipped.recorded.fans.tolist() == good.recorded.fans.tolist()[1:]


def test_truncated_file():
    text = "\n".join(sample_text().split("\n")[:160])
    with pytest.raises(RecordError, match=r"<text>, line 160: game is truncated"):
        read_botzone(text)
    rs = read_botzone(text, skip_bad=True)
    assert (rs.games, rs.wins, rs.bad) == (2, 1, 1)


def test_junk_before_the_first_game():
    with pytest.raises(RecordError, match=r"line 1: line before the first 'Match' line"):
        read_botzone("hello\n" + sample_text())
    rs = read_botzone("hello\n" + sample_text(), skip_bad=True)
    assert (rs.wins, rs.bad) == (14, 1)


def test_error_line_numbers_in_later_chunks():
    text = sample_text() * 3
    lines = len(sample_text().split("\n")) - 1
    bad = set_line(text, 2 * lines + 8, "Player 0 Play W1")
    with pytest.raises(RecordError, match=rf"line {2 * lines + 8}: tile not in"):
        read_botzone(io.BytesIO(bad.encode("utf-8")), chunk_size=2000)
    rs = read_botzone(io.BytesIO(bad.encode("utf-8")), chunk_size=2000, skip_bad=True)
    assert (rs.games, rs.wins, rs.bad) == (48, 41, 1)


def test_missing_file():
    with pytest.raises(FileNotFoundError):
        read_botzone("/nonexistent/records.txt")


def _log(name="6a201f5a58ebe27b197da7f1_lite.json"):
    return json.loads((LOGS / name).read_text(encoding="utf-8"))


def _first_display(log, action):
    for i, item in enumerate(log["logs"]):
        if "output" in item and item["output"]["display"].get("action") == action:
            return i, item["output"]["display"]
    raise AssertionError(action)


def test_json_truncated_log(tmp_path):
    log = _log()
    log["logs"] = log["logs"][:-2]
    path = tmp_path / "cut.json"
    path.write_text(json.dumps(log), encoding="utf-8")
    with pytest.raises(RecordError, match=r"cut.json, log entry 252: log is truncated"):
        read_botzone(path)


def test_json_draw_must_match_the_wall(tmp_path):
    log = _log()
    i, display = _first_display(log, "DRAW")
    display["tile"] = "J1" if display["tile"] != "J1" else "J2"
    path = tmp_path / "wall.json"
    path.write_text(json.dumps(log), encoding="utf-8")
    with pytest.raises(RecordError, match=rf"log entry {i}: player 0 takes .* wall has"):
        read_botzone(path)


def test_json_replay_errors_name_the_entry(tmp_path):
    log = _log()
    i, display = _first_display(log, "PLAY")
    was, display["tile"] = display["tile"], "J1" if display["tile"] != "J1" else "J2"
    path = tmp_path / "play.json"
    path.write_text(json.dumps(log), encoding="utf-8")
    shown = f"the judge shows player {display['player']} PLAY {display['tile']}"
    with pytest.raises(RecordError, match=rf"log entry {i}: {shown} but its bot answered"):
        read_botzone(path)
    # the bot's response changed the same way: the replay finds the tile is not held
    log["logs"][i - 1][str(display["player"])]["response"] = f"PLAY {display['tile']}"
    path.write_text(json.dumps(log), encoding="utf-8")
    with pytest.raises(RecordError, match=rf"log entry {i}: tile not in the player's hand"):
        read_botzone(path)
    assert was != display["tile"]


def test_json_unknown_action_and_bad_json(tmp_path):
    log = _log()
    i, display = _first_display(log, "PLAY")
    display["action"] = "DISCARD"
    (tmp_path / "a.json").write_text(json.dumps(log), encoding="utf-8")
    with pytest.raises(RecordError, match=rf"a.json, log entry {i}: unknown judge action"):
        read_botzone(tmp_path / "a.json")
    (tmp_path / "b.json").write_text('{"logs": [', encoding="utf-8")
    with pytest.raises(RecordError, match=r"b.json, line 1: invalid JSON"):
        read_botzone(tmp_path / "b.json")


def test_json_folder_skip_bad_and_aborted_games(tmp_path):
    names = sorted(p.name for p in LOGS.glob("*.json"))[:4]
    for name in names:
        shutil.copy(LOGS / name, tmp_path / name)
    # a bot error ends the game without a win: counted as aborted, not as bad
    aborted = _log(names[1])
    aborted["logs"][-1]["output"]["display"] = {"action": "WA", "player": 2}
    (tmp_path / names[1]).write_text(json.dumps(aborted), encoding="utf-8")
    bad = _log(names[2])
    bad["logs"] = bad["logs"][:40]
    (tmp_path / names[2]).write_text(json.dumps(bad), encoding="utf-8")
    (tmp_path / "README.txt").write_text("not a log", encoding="utf-8")
    with pytest.raises(RecordError, match=names[2]):
        read_botzone(tmp_path)
    rs = read_botzone(tmp_path, skip_bad=True)
    assert (rs.games, rs.wins, rs.aborted, rs.bad) == (4, 2, 1, 1)
    assert rs.recorded.source.map(lambda s: Path(s).name).tolist() == [names[0], names[3]]


def test_json_list_and_jsonl(tmp_path):
    logs = [_log(p.name) for p in sorted(LOGS.glob("*.json"))[:3]]
    (tmp_path / "all.json").write_text(json.dumps(logs), encoding="utf-8")
    (tmp_path / "all.jsonl").write_text("\n".join(json.dumps(x) for x in logs), encoding="utf-8")
    a = read_botzone(tmp_path / "all.json")
    b = read_botzone(tmp_path / "all.jsonl")
    assert a.wins == b.wins == 3
    assert a.recorded.game.tolist() == [0, 1, 2]
    assert_same_records(a, b, recorded=False)
    single = read_botzone(LOGS)
    np.testing.assert_array_equal(a.batch.concealed, single.batch.concealed[:3])


def test_json_wins_survive_a_round_trip_through_text(tmp_path):
    """A judge log rewritten as text data set gives the same hands."""
    for path in sorted(LOGS.glob("*.json"))[:6]:
        log = _log(path.name)
        quan = json.loads(log["initdata"])["quan"]
        lines = [f"Match {path.stem.removesuffix('_lite')}", f"Wind {quan}"]
        last_play = None
        for item in log["logs"]:
            d = item.get("output", {}).get("display", {})
            a, p = d.get("action"), d.get("player")
            if a == "DEAL":
                lines += [f"Player {q} Deal {' '.join(h)}" for q, h in enumerate(d["hand"])]
            elif a in ("DRAW", "PLAY"):
                lines.append(f"Player {p} {a.title()} {d['tile']}")
            elif a == "CHI":
                lines += [f"Player {p} Chi {d['tileCHI']}", f"Player {p} Play {d['tile']}"]
            elif a == "PENG":
                lines += [f"Player {p} Peng {last_play}", f"Player {p} Play {d['tile']}"]
            elif a == "GANG":
                claimed = lines[-1].split()[2] == "Play" and lines[-1].split()[1] != str(p)
                lines.append(f"Player {p} {'Gang' if claimed else 'AnGang'} {d['tile']}")
            elif a == "BUGANG":
                lines.append(f"Player {p} BuGang {d['tile']}")
            elif a == "HU":
                fans = "+".join(f"{f['name']}*{f['cnt']}" for f in d["fan"])
                score = " ".join(map(str, d["score"]))
                lines += [
                    f"Player {p} Hu {last_play}",
                    f"Fan {d['fanCnt']} {fans}",
                    f"Score {score}",
                ]
            if a in ("PLAY", "CHI", "PENG"):
                last_play = d["tile"]
        text_rs = read_botzone("\n".join(lines) + "\n")
        assert_same_records(text_rs, read_botzone(path))


def test_record_error_attributes():
    err = RecordError("bad thing", "x.txt", 12, "abc")
    assert str(err) == "x.txt, line 12: bad thing (match abc)"
    assert (err.problem, err.source, err.line, err.match_id) == ("bad thing", "x.txt", 12, "abc")
    assert str(RecordError("oops", "y.json", 3, json_entry=True)) == "y.json, log entry 3: oops"


def test_recordset_summary():
    rs = read_botzone(SAMPLE)
    assert len(rs) == 14
    assert repr(rs) == "RecordSet(games=16, wins=14, drawn=2, aborted=0, bad=0)"
    assert list(rs.recorded.columns) == [
        "source",
        "match_id",
        "game",
        "line",
        "seat",
        "win_type",
        "from_seat",
        "win_tile",
        "total",
        "fans",
        "fan_points",
    ]


def test_script_helper_is_consistent():
    # the synthetic-game helper itself: 136 distinct wall slots, 4 copies each
    text, log = tsumogiri_to_the_end(Script({}), {}, stop=85).huang().render()
    wall = json.loads(log["initdata"])["walltiles"].split()
    assert Counter(wall) == Counter(ALL_TILES)
    assert copy.deepcopy(log) == log and text.count("Draw") == 84


def test_fuzzed_lines_raise_record_errors_only():
    """Random edits of a game: a RecordError or a clean result, never anything else."""
    rng = random.Random(20260)
    game = sample_text().split("\n\n")[0] + "\n"
    lines = game.split("\n")
    words = [
        "Player",
        "0",
        "3",
        "7",
        "Draw",
        "Play",
        "Chi",
        "Peng",
        "Gang",
        "AnGang",
        "BuGang",
        "Hu",
        "Deal",
        "W1",
        "B9",
        "T5",
        "F4",
        "J1",
        "J3",
        "X1",
        "Ignore",
        "Fan",
        "9",
        "Score",
        "Huang",
        "Match",
        "Wind",
        "",
        "*1+",
    ]
    for _ in range(100 * SCALE):
        mutated = list(lines)
        for _ in range(rng.randint(1, 3)):
            k = rng.randrange(len(mutated))
            if rng.random() < 0.5:
                mutated[k] = " ".join(rng.choice(words) for _ in range(rng.randint(0, 5)))
            else:
                mutated[k], mutated[k - 1] = mutated[k - 1], mutated[k]
        text = "\n".join(mutated)
        try:
            strict = read_botzone(text)
        except RecordError as err:
            assert err.line is not None and 1 <= err.line <= len(mutated)
            strict = None
        relaxed = read_botzone(text, skip_bad=True)
        assert relaxed.wins + relaxed.drawn + relaxed.bad == relaxed.games
        if strict is not None:
            assert relaxed.bad == 0 and strict.wins == relaxed.wins


def test_error_table_and_fan_points():
    from mjstats.records import text_kernel

    codes = [v for k, v in vars(text_kernel).items() if k.startswith("E_")]
    assert sorted(codes) == list(range(len(text_kernel.ERRORS)))
    points = botzone_module.FAN_POINTS
    # the 81 MCR fans (花牌 included) + 明暗杠 + the alias 坎张 + three newer wait-fan names
    assert len(points) == 86
    assert (points["大四喜"], points["清龙"], points["和绝张"], points["明暗杠"]) == (88, 16, 4, 5)
    assert Counter(points.values())[88] == 7 and Counter(points.values())[24] == 9


def test_record_error_pickles():
    import pickle

    err = RecordError("oops", "y.json", 3, "m", json_entry=True)
    back = pickle.loads(pickle.dumps(err))
    assert str(back) == str(err) and back.line == 3 and back.json_entry


def test_unreadable_json_is_skipped_and_counted(tmp_path):
    logs = [_log(p.name) for p in sorted(LOGS.glob("*.json"))[:2]]
    lines = [json.dumps(logs[0]), "{not json", json.dumps(logs[1]), "[1, 2]"]
    (tmp_path / "some.jsonl").write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(RecordError, match=r"some.jsonl, line 2: invalid JSON"):
        read_botzone(tmp_path / "some.jsonl")
    rs = read_botzone(tmp_path / "some.jsonl", skip_bad=True)
    assert (rs.games, rs.wins, rs.bad) == (4, 2, 2)
    assert "a judge log must be a JSON object" in rs.errors[1]
    (tmp_path / "broken.json").write_text("{", encoding="utf-8")
    rs = read_botzone(tmp_path, skip_bad=True)
    assert (rs.games, rs.wins, rs.bad) == (5, 2, 3)
