"""The ``mjstats`` command line.

``main`` runs a click group whose subcommands are loaded lazily: the group only
knows a registry :data:`COMMANDS` of ``name -> "module:attribute"`` strings, and
imports a command's module when that command is run (or when ``mjstats --help``
lists the commands). So ``mjstats --version`` does not import numpy, numba or
pandas.

Adding a subcommand
-------------------
1. Write ``mjstats/cli/<name>_cmd.py`` with a ``click.command`` whose short
   docstring line is its one-line summary. The command only parses options and
   calls the public API (``mjstats.score`` ...): no logic in the CLI. Import
   heavy modules inside the command function.
2. Register it here: ``COMMANDS["name"] = "mjstats.cli.name_cmd:command"``.
3. Test it in ``tests/test_cli_<name>.py`` by calling :func:`main` with an
   argument list and checking the output and the exit status.

Errors and exit status
----------------------
- 0: success.
- 1: a failure. Malformed input from the public API
  (:class:`~mjstats.errors.InvalidHandError` and other ``mjstats`` errors) and
  file errors are printed as one line, ``mjstats: error: ...``, without a
  traceback: commands just let them propagate.
- 130: interrupted (Ctrl-C); a study says whether its progress was saved.
- 2: a usage error (unknown command or option, bad option value), as one line
  naming the ``--help`` to read. Commands raise ``click.BadParameter`` or
  ``click.UsageError`` for these.

Unexpected exceptions are bugs: they keep their traceback.
"""

from __future__ import annotations

import importlib
import os
import signal
import sys
from collections.abc import Sequence

import click

from mjstats._version import __version__
from mjstats.errors import DataFileError, InvalidHandError, UnknownRulesetError

__all__ = ["COMMANDS", "cli", "main"]

COMMANDS: dict[str, str] = {
    "analyze": "mjstats.cli.analyze_cmd:command",
    "bench": "mjstats.cli.bench_cmd:command",
    "decisions": "mjstats.cli.decisions_cmd:command",
    "hand": "mjstats.cli:hand_command",
    "match": "mjstats.cli.match_cmd:command",
    "records": "mjstats.cli.records_cmd:command",
    "replay": "mjstats.cli.replay_cmd:command",
    "report": "mjstats.cli.report_cmd:command",
    "review": "mjstats.cli.review_cmd:command",
    "rules": "mjstats.cli.rules_cmd:command",
    "score": "mjstats.cli.score_cmd:command",
    "shanten": "mjstats.cli.shanten_cmd:command",
    "study": "mjstats.cli.study_cmd:command",
}
"""Subcommand name -> ``"module:attribute"`` of its click command, imported on use."""


class LazyGroup(click.Group):
    """A click group that imports each subcommand from :data:`COMMANDS` on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *COMMANDS})

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        target = COMMANDS.get(name)
        if target is None:
            return super().get_command(ctx, name)
        module, _, attr = target.partition(":")
        return getattr(importlib.import_module(module), attr)


HELP = """Fast analytics for Chinese Official Mahjong (MCR, 81 fans) and two-player mahjong.

\b
A hand is one string: melds, concealed tiles, '+' winning tile, keywords:
    mjstats hand "[123p]55m12379s789p+8s self-drawn seat=S flowers=2"

\b
Tiles (MPSZ): digits then suit; m characters, p dots, s bamboo,
  z honours 1z-7z = E S W N, white, green, red (letters E S W N P F C also work).
Melds: [123p] chow, [555p] pung, [5555p] kong, {5555p} concealed kong.
Winning tile: '+8s', not repeated among the tiles before it; no '+' = waiting.
Keywords: self-drawn last-of-kind kong-win last-of-wall seat=S round=E
  flowers=2 situation=0 (and Chinese: 自摸 和绝张 杠上开花 抢杠和 门风=南 ...).

Run 'mjstats COMMAND --help' for a command. In Python: 'import mjstats'.
"""


@click.group(cls=LazyGroup, help=HELP, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(
    __version__, "-V", "--version", prog_name="mjstats", message="%(prog)s %(version)s"
)
@click.option("-q", "--quiet", is_flag=True, help="No progress bars or compile notices on stderr.")
def cli(quiet: bool) -> None:
    if quiet:
        # deferred: `mjstats --help` loads no kernels
        from mjstats.compiling import set_progress

        set_progress(False)  # main() restores the setting it found


@click.command("hand")
@click.argument("text", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Print the hand's fields as JSON.")
def hand_command(text: tuple[str, ...], as_json: bool) -> None:
    """Check a hand and show it in every notation.

    TEXT is hand text (quote it; several words are joined with spaces). The
    canonical form comes first, then Unicode glyphs, Chinese names, Botzone
    codes and a summary; --json gives the fields and the PyMahjongGB
    arguments instead.

    \b
    Examples:
        mjstats hand "[123p]55m12379s789p+8s self-drawn"
        mjstats hand "19m19p19s1234567z+7z 门风=南" --json
    """
    # deferred: `mjstats --help` loads no kernels
    from mjstats.hand import CONTEXT_FIELDS, parse_hand
    from mjstats.tiles import FLOWER_NAMES

    hand = parse_hand(" ".join(text))
    if as_json:
        import json

        fields = {
            "text": str(hand),
            "concealed": hand.concealed.tolist(),
            "melds": [[int(m.kind), m.tile] for m in hand.melds],
            "win_tile": hand.win_tile,
            **{name: getattr(hand, name) for name in CONTEXT_FIELDS},
            "pymahjonggb": None if hand.is_waiting else hand.to_pymahjonggb(),
        }
        click.echo(json.dumps(fields, ensure_ascii=False))
        return
    winds = ("East", "South", "West", "North")
    n_tiles = int(hand.all_tiles34.sum())
    state = "waiting hand" if hand.is_waiting else "winning hand"
    flowers = [FLOWER_NAMES[b] for b in range(8) if hand.flowers >> b & 1]
    rows = [
        ("hand", str(hand)),
        ("unicode", hand.format("unicode")),
        ("zh", hand.format("zh")),
        ("botzone", hand.format("botzone")),
        (
            "summary",
            f"{state}, {n_tiles} tiles, {_count(len(hand.melds), 'meld')} "
            f"({_count(hand.n_kongs, 'kong')}), "
            f"seat {winds[hand.seat_wind]}, round {winds[hand.round_wind]}, "
            f"flowers {len(flowers)}{' (' + ', '.join(flowers) + ')' if flowers else ''}",
        ),
    ]
    for label, value in rows:
        click.echo(f"{label:8} {value}")


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _error(message: str) -> None:
    click.echo(f"mjstats: error: {' '.join(str(message).split())}", err=True)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``mjstats`` command line; returns the exit status.

    Parameters
    ----------
    argv : sequence of str, optional
        Arguments without the program name; default ``sys.argv[1:]``.

    Returns
    -------
    int
        0 success, 1 failure, 2 usage error.

    Examples
    --------
    >>> main(["--version"])
    mjstats 0.1.0
    0
    >>> main(["no-such-command"])
    2
    """
    args = list(sys.argv[1:] if argv is None else argv)
    if not args:
        args = ["--help"]
    # deferred: `mjstats --help` loads no kernels
    from mjstats.provenance import set_command

    set_command(["mjstats", *args])  # the provenance of every file the command writes
    # deferred: `mjstats --help` loads no kernels
    from mjstats import compiling

    setting = compiling._forced
    try:
        return _main(args)
    finally:
        compiling.set_progress(setting)  # --quiet lasts one command
        if argv is None:  # the process ends: Ctrl-C while it shuts down must not kill it
            # by the signal (Python restores the default SIGINT action before numba's
            # threads are joined, but leaves an ignored signal ignored)
            signal.signal(signal.SIGINT, signal.SIG_IGN)


def _main(args: list[str]) -> int:
    try:
        rv = cli.main(args=args, prog_name="mjstats", standalone_mode=False)
    except click.UsageError as exc:
        path = exc.ctx.command_path if exc.ctx is not None else "mjstats"
        _error(f"{exc.format_message()} (see '{path} --help')")
        return 2
    except click.Abort as exc:
        if isinstance(exc.__cause__, KeyboardInterrupt):  # Ctrl-C before a study began
            _error("interrupted; nothing done yet")
            return 130
        _error("aborted")
        return 1
    except click.ClickException as exc:
        _error(exc.format_message())
        return exc.exit_code
    except (InvalidHandError, UnknownRulesetError, DataFileError) as exc:
        _error(str(exc))
        return 1
    except BrokenPipeError:  # e.g. `mjstats ... | head`: stop quietly
        sys.stdout = open(os.devnull, "w")  # silence the flush at exit
        return 1
    except OSError as exc:
        _error(f"{exc.strerror or exc}: {exc.filename}" if exc.filename else str(exc))
        return 1
    return rv if isinstance(rv, int) else 0
