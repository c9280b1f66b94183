"""``mjstats score``: fan table and JSON output through the CLI entry point."""

from __future__ import annotations

import json

import pytest

from mjstats import cli


@pytest.fixture(autouse=True)
def _registered(monkeypatch):
    # registered by the lead in mjstats/cli/__init__.py; make sure it is here meanwhile
    monkeypatch.setitem(cli.COMMANDS, "score", "mjstats.cli.score_cmd:command")


def test_score_table(capsys):
    assert cli.main(["score", "[123p]55m12379s789p+8s"]) == 0
    out = capsys.readouterr().out
    assert "三色双龙会" in out and "Three-Suited Terminal Chows" in out and "total 17" in out


def test_score_json_and_options(capsys):
    hand = "{2222m}[5555m]456789p1s+1s"
    assert cli.main(["score", hand, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["total"] == 8 and data["legal"] is True and data["form"] == "regular"
    assert [f["zh"] for f in data["fans"]][-1] == "明暗杠"
    assert cli.main(["score", hand, "--json", "--option", "mingan_gang=false"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["total"] == 6
    assert {f["key"] for f in data["fans"]} >= {"melded_kong", "concealed_kong"}


def test_score_words_join_and_incomplete(capsys):
    assert cli.main(["score", "EEE", "123m", "456p", "789s", "9m", "+9m", "self-drawn"]) == 0
    assert "total 17" in capsys.readouterr().out
    assert cli.main(["score", "123m456p789s11z22z"]) == 0
    assert "not a complete hand" in capsys.readouterr().out


def test_score_errors(capsys):
    assert cli.main(["score", "123m456p789s11z22z+9z"]) == 1  # malformed hand
    assert "error" in capsys.readouterr().err
    assert cli.main(["score", "1233m456p789p111s+3m", "last-of-kind"]) == 1  # contradiction
    assert "和绝张" in capsys.readouterr().err
    assert cli.main(["score", "123m456p789s11z22z", "--option", "nope"]) == 2
    assert cli.main(["score", "123m456p789s11z22z", "--option", "nope=true"]) == 2
    assert cli.main(["score", "123m456p789s11z22z", "--option", "mingan_gang=maybe"]) == 2
