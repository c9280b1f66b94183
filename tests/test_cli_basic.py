"""The mjstats command line: help, version, lazy command registry, errors, `hand`."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import types

import click
import pytest

import mjstats
from mjstats import cli
from mjstats.cli import COMMANDS, main
from mjstats.errors import InvalidTileError


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_version(capsys):
    assert run(capsys, "--version") == (0, f"mjstats {mjstats.__version__}\n", "")
    assert run(capsys, "-V")[1] == f"mjstats {mjstats.__version__}\n"


@pytest.mark.parametrize("args", [(), ("--help",), ("-h",)])
def test_help_teaches_the_notation(capsys, args):
    code, out, err = run(capsys, *args)
    assert code == 0 and err == ""
    assert out.startswith("Usage: mjstats [OPTIONS] COMMAND [ARGS]...")
    for needle in ("[123p]", "{5555p}", "+8s", "self-drawn", "seat=S", "Commands:", "hand"):
        assert needle in out, needle


def test_every_registered_command_loads_and_has_help(capsys):
    for name, target in COMMANDS.items():
        module = target.partition(":")[0]
        assert module.startswith("mjstats.cli"), target
        command = cli.cli.get_command(click.Context(cli.cli), name)
        assert isinstance(command, click.Command), name
        code, out, _ = run(capsys, name, "--help")
        assert code == 0 and out.startswith(f"Usage: mjstats {name} "), name


def test_version_does_not_import_subcommands_or_heavy_modules():
    """No subcommand, numba or hand parser for --version (pandas loads with mjstats: the
    .mj accessor is registered when mjstats is imported)."""
    code = (
        "import sys; from mjstats.cli import main; main(['--version']);"
        "print(sorted(m for m in sys.modules if m.startswith('mjstats.cli.')"
        " or m in ('numba', 'mjstats.hand')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.splitlines()[-1] == "[]"


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("no-such-command",), "No such command 'no-such-command'. (see 'mjstats --help')"),
        (("--bogus",), "--bogus"),  # click words this differently across versions
        (("--bogus",), "(see 'mjstats --help')"),
        (("hand",), "Missing argument 'TEXT...'. (see 'mjstats hand --help')"),
        (("hand", "1m", "--bogus"), "(see 'mjstats hand --help')"),
    ],
)
def test_usage_errors_are_one_line_with_status_2(capsys, args, fragment):
    code, out, err = run(capsys, *args)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("mjstats: error: ")
    assert fragment in err


def test_invalid_hand_is_one_line_with_status_1(capsys):
    code, out, err = run(capsys, "hand", "[123p]55m12379s789p+8x")
    assert (code, out) == (1, "")
    assert err == "mjstats: error: unexpected 'x' at position 21 (the winning tile)\n"


@pytest.fixture
def fake_commands(monkeypatch):
    """Register commands from a throwaway module that fail in each documented way."""
    module = types.ModuleType("mjstats_fake_cmds")

    @click.command("bad-hand")
    def bad_hand():
        raise InvalidTileError("no such tile\nreally")

    @click.command("bad-value")
    @click.option("--n", type=int)
    def bad_value(n):
        raise click.BadParameter("must be positive", param_hint="'--n'")

    @click.command("no-file")
    def no_file():
        open("/nonexistent/mjstats-input.txt")

    @click.command("fails")
    def fails():
        raise click.ClickException("study failed")

    @click.command("bug")
    def bug():
        raise ZeroDivisionError("a real bug")

    @click.command("returns")
    def returns():
        return 3

    for cmd in (bad_hand, bad_value, no_file, fails, bug, returns):
        setattr(module, cmd.name.replace("-", "_"), cmd)
        monkeypatch.setitem(COMMANDS, cmd.name, f"mjstats_fake_cmds:{cmd.name.replace('-', '_')}")
    monkeypatch.setitem(sys.modules, "mjstats_fake_cmds", module)


def test_error_mapping(capsys, fake_commands):
    assert run(capsys, "bad-hand") == (1, "", "mjstats: error: no such tile really\n")
    code, _, err = run(capsys, "bad-value")
    assert code == 2 and "Invalid value for '--n': must be positive" in err
    code, _, err = run(capsys, "no-file")
    assert code == 1 and err == (
        "mjstats: error: No such file or directory: /nonexistent/mjstats-input.txt\n"
    )
    assert run(capsys, "fails") == (1, "", "mjstats: error: study failed\n")
    with pytest.raises(ZeroDivisionError):  # bugs keep their traceback
        main(["bug"])
    assert run(capsys, "returns")[0] == 3
    assert "bad-hand" in run(capsys, "--help")[1]


def test_hand_command(capsys):
    code, out, err = run(capsys, "hand", "{1111z}[5555p]123m789s1s+1s", "tsumo", "flowers=2")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "hand     [5555p]{1111z}123m1789s+1s self-drawn flowers=2"
    assert lines[3].startswith("botzone  [B5 B5 B5 B5] {F1 F1 F1 F1} W1 W2 W3 T1 T7 T8 T9 +T1")
    assert lines[4] == (
        "summary  winning hand, 16 tiles, 2 melds (2 kongs), seat East, round East, "
        "flowers 2 (spring, summer)"
    )
    code, out, _ = run(capsys, "hand", "1112345678999m")
    assert code == 0 and "waiting hand, 13 tiles, 0 melds (0 kongs)" in out


def test_hand_command_json(capsys):
    code, out, _ = run(capsys, "hand", "[123p]55m12379s789p+8s 自摸 门风=南", "--json")
    data = json.loads(out)
    assert code == 0 and data["text"] == "[123p]55m789p12379s+8s self-drawn seat=S"
    assert data["melds"] == [[1, 9]] and data["win_tile"] == 25 and data["seat_wind"] == 1
    assert data["pymahjonggb"]["pack"] == [["CHI", "B2", 1]]
    assert mjstats.parse_hand(data["text"]).concealed.tolist() == data["concealed"]
    data = json.loads(run(capsys, "hand", "1112345678999m", "--json")[1])
    assert data["win_tile"] is None and data["pymahjonggb"] is None


def test_console_script():
    exe = shutil.which("mjstats")
    if exe is None:
        pytest.skip("the mjstats console script is not installed (pip install -e .)")
    done = subprocess.run([exe, "--version"], capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (0, f"mjstats {mjstats.__version__}\n")
    done = subprocess.run([exe, "hand", "11m"], capture_output=True, text=True)
    assert done.returncode == 1 and done.stderr.startswith("mjstats: error: ")
    assert "Traceback" not in done.stderr
