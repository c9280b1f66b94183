"""``mjstats replay PATH``: run real Botzone games through the game engine."""

from __future__ import annotations

import json
from pathlib import Path

import click

from mjstats.compiling import notice

__all__ = ["command"]


@click.command("replay")
@click.argument("path", type=click.Path(exists=True, path_type=Path))
@click.option(
    "--json",
    "json_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help='Write {"games": n, "legal": n, "matched": n, "problems": [...]} to this file.',
)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Also write the games' statistics into this folder, as a games study writes them "
    "(aggregate.json: fans per game, seats, claims; read it with 'mjstats report DIR', e.g. "
    "--table reference); games that do not replay are left out.",
)
@click.option(
    "--html",
    "html_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Also write a replay viewer of every game that replays (one self-contained HTML "
    "file with a game picker; open it in any browser).",
)
@notice("replay")  # says so while the first run compiles the game engine
def command(path, json_path, out, html_path):
    """Replay recorded games through the game engine and compare the ends.

    PATH is a Botzone text record file (sample.txt), a JSON judge log or a
    folder of them. Every recorded action, with the ignored claims, must be
    legal in the engine's state, and the winner, fans and scores must equal
    the judge's. Prints games, legal, matched and each problem; the exit
    status is 1 on any problem.

    \b
    Examples:
      mjstats replay tests/data/botzone
      mjstats replay tests/data/botzone/sample.txt --json replay.json
      mjstats replay tests/data/botzone --html games.html     # a viewer of the games
      mjstats replay tests/data/botzone --out results/real   # + game statistics
      mjstats report results/real --table reference          # beside the 98,208 games
    """
    # deferred: `mjstats --help` loads no kernels
    from mjstats.records import RecordError, replay

    try:
        table = replay(path)
    except RecordError as exc:
        raise click.ClickException(str(exc)) from None
    problems = [
        f"{row.source} match {row.game}: {row.problem}" for row in table.itertuples() if row.problem
    ]
    summary = {
        "games": len(table),
        "legal": int(table.legal.sum()),
        "matched": int(table.matched.sum()),
        "problems": problems,
    }
    click.echo(f"games {summary['games']}  legal {summary['legal']}  matched {summary['matched']}")
    for line in problems:
        click.echo(f"problem: {line}")
    if json_path is not None:
        json_path.write_text(json.dumps(summary, ensure_ascii=False, indent=1) + "\n")
    if out is not None:
        # deferred: `mjstats --help` loads no kernels
        from mjstats.cli.study_cmd import write_study_outputs
        from mjstats.studies.game_stats import record_games

        for p in write_study_outputs(record_games(path, skip_bad=True), out):
            click.echo(f"wrote {p}", err=True)
    if html_path is not None:
        # deferred: `mjstats --help` loads no kernels
        from mjstats.viewer import view

        shown = view(path, skip_bad=True)
        shown.save(html_path)
        click.echo(f"wrote {html_path} ({len(shown)} games)", err=True)
    return 1 if problems else 0
