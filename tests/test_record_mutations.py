"""Every field of every line of real records, mutated: both readers report the change.

The two readers of records are ``mjstats replay`` (:func:`mjstats.records.replay`: every
move legal, the end the judge's) and ``mjstats records --check``
(:func:`mjstats.records.read_botzone` then :func:`mjstats.records.check_records`). Each
mutation changes one field of one line of a real game (a tile, a seat, a number of
the ``Wind``, ``Fan`` or ``Score`` line, a fan's name or count) or deletes or repeats a
line (in a JSON judge log: a field of one of the judge's outputs, or the output
itself). Both readers must agree on every mutation, and report every one of the
classes that always change what the record says happened.

What no reader can see: the text data set does not carry the wall, so a changed tile
in a ``Deal`` or ``Draw`` line (and, when the tile stays in the hand, in a ``Play``
line or a chow's middle tile) can describe another game that is just as legal and
ends the same way. Such mutations must be reported by both readers or by neither;
the judge logs carry the wall, and there a changed tile is always reported.
"""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path

import pytest

from mjstats.records import check_records, read_botzone, replay
from mjstats.tiles import BOTZONE_CODES

DATA = Path(__file__).parent / "data" / "botzone"
SAMPLE = DATA / "sample.txt"
LOG = sorted((DATA / "judge-logs").glob("*.json"))[0]
SCALE = max(1, int(os.environ.get("MJSTATS_TEST_SCALE", "1")))
_FANS = ("平和", "门前清", "箭刻", "混一色", "喜相逢", "连六", "老少副", "缺一门", "无字")


def _games(text: str) -> list[str]:
    return ["Match " + g for g in text.split("Match ")[1:]]


def _other_tile(code: str) -> str:
    return BOTZONE_CODES[(BOTZONE_CODES.index(code) + 1) % 34]


def text_mutations(game: str):
    """``(kind, must, mutated text)`` for every field of every line of ``game``;
    ``must``: the mutation changes what the record says happened, always."""
    lines = game.rstrip("\n").split("\n")
    last_play = None  # the last discard, which a self-drawn Hu line may repeat
    drawn = {}
    for i, line in enumerate(lines):
        words = line.split()

        def put(j, new, words=words, i=i):
            w = list(words)
            w[j] = new
            return "\n".join([*lines[:i], " ".join(w), *lines[i + 1 :]]) + "\n"

        if i > 0:  # deleting the Match line merges two games: that is the next test
            yield "delete " + words[0], True, "\n".join(lines[:i] + lines[i + 1 :]) + "\n"
        yield "repeat " + words[0], True, "\n".join(lines[: i + 1] + lines[i:]) + "\n"
        if words[0] == "Wind":
            yield "wind", False, put(1, str((int(words[1]) + 1) % 4))
        elif words[0] == "Score":
            for j in range(1, 5):
                yield "score", True, put(j, str(int(words[j]) + 1))
        elif words[0] == "Fan":
            yield "fan total", True, put(1, str(int(words[1]) + 1))
            parts = words[2].split("+")
            for k, part in enumerate(parts):
                name, count = part.rsplit("*", 1)
                more = [*parts[:k], f"{name}*{int(count) + 1}", *parts[k + 1 :]]
                yield "fan count", True, put(2, "+".join(more))
                other = next(f for f in _FANS if f not in words[2])
                yield "fan name", True, put(2, "+".join([*parts[:k], f"{other}*{count}",
                                                         *parts[k + 1 :]]))  # fmt: skip
        elif words[0] == "Player":
            seat, verb = int(words[1]), words[2]
            yield "seat", True, put(1, str((seat + 1) % 4))
            for j in range(3, len(words)):
                w = words[j]
                if w in BOTZONE_CODES:
                    claim = words[j - 1] if j > 3 and words[j - 1] not in BOTZONE_CODES else verb
                    if verb == "Hu" and j == 3:
                        # a discard win names the discard; a self-drawn one the draw or
                        # the last discard (the quirk): either is the same record
                        same = {drawn.get(seat), last_play} - {None}
                        new = next(c for c in BOTZONE_CODES if c not in same | {w})
                        yield "hu tile", True, put(j, new)
                    else:
                        must = claim in ("Peng", "Gang", "Hu")
                        yield f"{claim} tile", must, put(j, _other_tile(w))
                elif w.isdigit() and words[j - 1] == "Player":  # an Ignore entry's seat
                    yield "ignore seat", True, put(j, str((int(w) + 1) % 4))
            if verb == "Draw":
                drawn[seat] = words[3]
            elif verb == "Play":
                last_play = words[3]


def _reported(path: Path) -> tuple[bool, bool]:
    """(replay reports it, records --check reports it)."""
    table = replay(path)
    by_replay = not bool((table.legal & table.matched).all())
    records = read_botzone(path, skip_bad=True)
    by_check = records.bad > 0 or check_records(records).mismatched > 0
    return by_replay, by_check


def _check(mutations, tmp_path: Path, suffix: str) -> dict[str, int]:
    missed, disagree, hidden = [], [], {}
    path = tmp_path / f"m{suffix}"
    for kind, must, text in mutations:
        path.write_text(text, encoding="utf-8")
        by_replay, by_check = _reported(path)
        if by_replay != by_check:
            disagree.append((kind, by_replay, by_check, text[:2000]))
        elif must and not by_replay:
            missed.append((kind, text[:2000]))
        elif not by_replay:
            hidden[kind] = hidden.get(kind, 0) + 1
    assert not disagree, disagree[:3]
    assert not missed, missed[:3]
    return hidden


def test_sample_is_clean():
    assert _reported(SAMPLE) == (False, False)
    assert _reported(LOG) == (False, False)


@pytest.mark.parametrize("game", [0, 2])  # a discard win and a self-drawn one
def test_every_field_of_a_text_game(tmp_path, game):
    text = _games(SAMPLE.read_text(encoding="utf-8"))[game]
    hidden = _check(text_mutations(text), tmp_path, ".txt")
    # what the text cannot show: tiles that stay in a hand (no wall in the format)
    assert set(hidden) <= {"wind", "Deal tile", "Draw tile", "Play tile", "Chi tile"}, hidden


@pytest.mark.slow
def test_every_field_of_every_text_game(tmp_path):
    for k, text in enumerate(_games(SAMPLE.read_text(encoding="utf-8"))):
        hidden = _check(text_mutations(text), tmp_path, f"{k}.txt")
        assert set(hidden) <= {"wind", "Deal tile", "Draw tile", "Play tile", "Chi tile"}


def test_a_deleted_match_line_is_reported(tmp_path):
    games = _games(SAMPLE.read_text(encoding="utf-8"))[:2]
    merged = games[0] + games[1].split("\n", 1)[1]
    path = tmp_path / "m.txt"
    path.write_text(merged, encoding="utf-8")
    assert _reported(path) == (True, True)


def log_mutations(log: dict):
    """``(kind, mutated log)`` for every field of every judge output of ``log``: each
    changes what the judge says happened (the log carries the wall)."""
    for i, item in enumerate(log["logs"]):
        if "output" not in item:
            continue
        display = item["output"].get("display", {})
        action = display.get("action")
        if action in ("INIT", "DEAL"):
            continue
        for cut in ("delete", "repeat"):
            if cut == "delete" and action == "HU":
                continue  # a log without its end: truncated, a file error (tested apart)
            m = copy.deepcopy(log)
            if cut == "delete":
                del m["logs"][i - 1 : i + 1]  # the output and the responses before it
            else:
                m["logs"][i + 1 : i + 1] = copy.deepcopy(m["logs"][i - 1 : i + 1])
            yield f"{cut} {action}", m
        for key in ("tile", "tileCHI", "player", "fanCnt"):
            if key in display:
                m = copy.deepcopy(log)
                d = m["logs"][i]["output"]["display"]
                value = d[key]
                d[key] = _other_tile(value) if isinstance(value, str) else (value + 1) % 4 \
                    if key == "player" else value + 1  # fmt: skip
                yield f"{action} {key}", m
        for j in range(len(display.get("score", []))):
            m = copy.deepcopy(log)
            m["logs"][i]["output"]["display"]["score"][j] += 1
            yield "score", m
        for j in range(len(display.get("fan", []))):
            for field in ("cnt", "name"):
                m = copy.deepcopy(log)
                f = m["logs"][i]["output"]["display"]["fan"][j]
                f[field] = (
                    f[field] + 1
                    if field == "cnt"
                    else next(x for x in _FANS if x not in json.dumps(display, ensure_ascii=False))
                )
                yield f"fan {field}", m


def test_every_field_of_a_judge_log(tmp_path):
    log = json.loads(LOG.read_text(encoding="utf-8"))
    mutations = list(log_mutations(log))
    if SCALE == 1:  # every output of the last turns and a sample of the rest, in CI
        mutations = mutations[::4] + mutations[-60:]
    texts = ((kind, True, json.dumps(m)) for kind, m in mutations)
    assert _check(texts, tmp_path, ".json") == {}
