"""`mjstats shanten`: shanten per form, useful tiles, discard table, errors."""

from __future__ import annotations

import pytest

from mjstats import cli
from mjstats.cli import main


@pytest.fixture(autouse=True)
def registered(monkeypatch):
    """Register the command even before the lead adds it to the registry."""
    monkeypatch.setitem(cli.COMMANDS, "shanten", "mjstats.cli.shanten_cmd:command")


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["shanten", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_waiting_hand_lists_useful_tiles(capsys):
    code, out, err = run(capsys, "123m456p789s1133z")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].split()[:2] == ["hand", "123m456p789s1133z"]
    assert lines[1] == "shanten   0 (ready)"
    assert "  regular           0" in lines and "  seven_pairs       4" in lines
    assert lines[-1] == "useful    13z  (2 kinds, 4 unseen tiles)"


def test_visible_and_melds_reduce_unseen_copies(capsys):
    code, out, _ = run(capsys, "123m456p789s1133z", "--visible", "1z")
    assert code == 0 and out.splitlines()[-1] == "useful    13z  (2 kinds, 3 unseen tiles)"
    code, out, _ = run(capsys, "[111z]123m456p789s3z")  # own pung: no 1z left
    assert code == 0
    assert "(10 concealed, 1 meld)" in out.splitlines()[0]
    assert "  seven_pairs       -" in out  # impossible with a meld
    assert out.splitlines()[-1] == "useful    3z  (1 kinds, 3 unseen tiles)"


def test_discard_table_for_fourteen_tiles(capsys):
    code, out, _ = run(capsys, "123m456p789s11334z")
    assert code == 0
    lines = out.splitlines()
    i = lines.index("discards")
    assert lines[i + 1].split() == ["discard", "shanten", "kinds", "copies", "useful"]
    assert lines[i + 2].split() == ["4z", "0", "2", "4", "13z"]
    assert len(lines) == i + 2 + 12
    # the same hand written with a winning tile
    assert run(capsys, "123m456p789s1133z+4z")[1] == out


def test_form_option_and_fifth_copy(capsys):
    code, out, _ = run(capsys, "2222m456m778899m", "--form", "regular")
    assert code == 0
    assert "shanten   1 (1 away from ready)" in out
    assert "seven_pairs" not in out
    # any single wait helps, except a fifth 2m
    assert out.splitlines()[-1].split()[1] == "13456789m123456789p123456789s1234567z"


def test_errors(capsys):
    code, _, err = run(capsys, "123m")
    assert code == 1 and err.startswith("mjstats: error: concealed tiles + 3 x melds")
    code, _, err = run(capsys, "123m456p789s1133z", "--visible", "111z")
    assert code == 2 and "more than 4" in err
    code, _, err = run(capsys, "123m456p789s1133z", "--form", "kokushi")
    assert code == 2 and "--form" in err
