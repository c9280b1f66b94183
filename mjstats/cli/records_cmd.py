"""``mjstats records PATH``: fan statistics of real Botzone wins, or ``--check`` them."""

from __future__ import annotations

import json
from pathlib import Path

import click

from mjstats.compiling import notice

__all__ = ["command"]

_SHOW_ERRORS = 5


@click.command("records")
@click.argument("path", type=click.Path(exists=True, path_type=Path))
@click.option(
    "--check",
    is_flag=True,
    help="Score every win with the judge's options and compare with its recorded fans; "
    "exit status 1 on any mismatch.",
)
@click.option(
    "--json",
    "json_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write the counts as JSON (--check: games, wins, matched, mismatched, mismatches; "
    "otherwise: headline numbers and fan probabilities).",
)
@click.option(
    "--skip-bad",
    is_flag=True,
    help="Skip malformed or truncated games (counted) instead of stopping at the first.",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Write aggregate.json and report tables (CSV) into this folder, like a study "
    "(--check: also check.csv, one row per win).",
)
@click.option(
    "--top",
    type=click.IntRange(min=0),
    default=25,
    show_default=True,
    help="Rows of the fan table to print (0 = all).",
)
@click.option(
    "--players",
    is_flag=True,
    help="Per seat and per player (the names in JSON judge logs): games, wins, self-drawn, "
    "deal-ins, draws, claims per chance, mean fan, points per game, and the fan frequencies "
    "of each one's wins (every game replayed through the engine); --out writes seats.csv, "
    "players.csv and player-fans.csv and their charts (PNG), --json the tables.",
)
@notice("records")  # says so while the first run compiles the reader and scorer
def command(path, check, json_path, skip_bad, out, top, players):
    """Read Botzone game records: fan statistics of the real wins.

    PATH is Botzone's text data set (data.txt, sample.txt), a JSON judge log or
    a folder read whole (subfolders included; each file's format is told by its
    content, files without records are passed over). Every win is rebuilt from
    the game and scored with the judge's MCR options (明暗杠 5, flowers count
    toward 8). Without --check this prints the fan-frequency table of the real
    wins, like 'mjstats study'; 'mjstats report DIR' reads what --out writes.

    With --check it compares every win with the fans the judge recorded and
    prints games, wins, matched and mismatched, with the differences of each
    mismatch; the exit status is 1 if any win differs.

    \b
    Examples (paths of a clone of the mjstats repository):
      mjstats records tests/data/botzone/sample.txt --check
      mjstats records tests/data/botzone/judge-logs --check --json check.json
      mjstats records tests/data/botzone/ --skip-bad --out results/botzone --top 0
      mjstats records tests/data/botzone --players   # per seat and per player
    """
    if players:
        _players(path, skip_bad, out, json_path, top)
        return
    # deferred: `mjstats --help` loads no kernels
    from mjstats.records import RecordError, check_records, read_botzone
    from mjstats.studies.records import records_aggregate

    try:
        records = read_botzone(path, skip_bad=skip_bad)
    except RecordError as exc:
        raise click.ClickException(str(exc)) from None
    if records.games == 0 and records.bad == 0:
        # deferred: `mjstats --help` loads no kernels
        from mjstats.records.sources import LOOKED_FOR

        raise click.ClickException(f"{path}: no records found (looked for {LOOKED_FOR})")
    for message in records.errors[:_SHOW_ERRORS]:
        click.echo(f"skipped: {message}", err=True)
    if records.bad > _SHOW_ERRORS:
        click.echo(f"skipped: ... and {records.bad - _SHOW_ERRORS:,} more bad games", err=True)
    if check:
        result = check_records(records)
        _print_check(result, skip_bad)
        agg = records_aggregate(records) if out is not None else None
        report = result.to_dict()
    else:
        # deferred: `mjstats --help` loads no kernels
        from mjstats.cli.study_cmd import print_fan_table
        from mjstats.report import fan_table, summary

        agg = records_aggregate(records)
        click.echo(
            f"{records.games:,} games: {records.wins:,} wins, {records.drawn:,} drawn, "
            f"{records.aborted:,} aborted, {records.bad:,} bad"
        )
        if agg["complete"][0] > 0:
            print_fan_table(agg, top)
        table = fan_table(agg)
        report = {
            "games": records.games,
            "wins": records.wins,
            "drawn": records.drawn,
            "aborted": records.aborted,
            "bad": records.bad,
            **summary(agg),
            "fan_probability": dict(zip(table["en"], table["frequency"], strict=True)),
        }
    if out is not None:
        # deferred: `mjstats --help` loads no kernels
        from mjstats.cli.study_cmd import write_study_outputs
        from mjstats.report import write_report

        paths = write_study_outputs(agg, out)
        if check:
            paths.append(write_report(result.table, out / "check.csv"))
        for p in paths:
            click.echo(f"wrote {p}", err=True)
    if json_path is not None:
        # deferred: `mjstats --help` loads no kernels
        from mjstats.provenance import provenance, write_json
        from mjstats.records import botzone_ruleset

        rs = botzone_ruleset()
        params = {"ruleset": rs.name, "options": dict(rs.options)}
        prov = provenance(params, kind="records-check" if check else "records", source=str(path))
        write_json(json_path, report, prov)
        click.echo(f"wrote {json_path}", err=True)
    if check and result.mismatched:
        click.get_current_context().exit(1)


def _players(path, skip_bad: bool, out, json_path, top: int) -> None:
    """``--players``: the per-seat and per-player tables, then the fans of each one's wins."""
    # deferred: `mjstats --help` loads neither pandas nor the kernels
    import pandas as pd

    from mjstats.errors import RecordError  # deferred: as above
    from mjstats.studies.players import player_fans, player_stats  # deferred: as above

    try:
        tables = {by: player_stats(path, by, skip_bad=skip_bad) for by in ("seat", "player")}
        fans = player_fans(path, "player", skip_bad=skip_bad)
    except RecordError as exc:
        raise click.ClickException(str(exc)) from None
    shown = ["games", "wins", "self_drawn", "deal_ins", "draws", "claims_per_chance",
             "mean_fan", "points_per_game", "win_rate", "win_low", "win_high"]  # fmt: skip
    with pd.option_context("display.width", 200, "display.max_columns", 20):
        for by, t in tables.items():
            click.echo(f"per {by}:")
            click.echo(t[shown].round(3).to_string() + "\n")
        order = fans.mean(axis=1).sort_values(ascending=False).index
        rows = order if top == 0 else order[:top]
        click.echo("fan frequency of each player's wins:")
        click.echo(fans.loc[rows].round(3).to_string())
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        for name, t in (("seats", tables["seat"]), ("players", tables["player"]),
                        ("player-fans", fans)):  # fmt: skip
            t.to_csv(out / f"{name}.csv")
            click.echo(f"wrote {out / f'{name}.csv'}", err=True)
        try:  # the charts need the optional matplotlib
            import matplotlib  # deferred: an optional extra

            matplotlib.use("Agg")
            import matplotlib.pyplot as plt  # deferred: as above
        except ImportError:
            click.echo(
                "no charts: matplotlib is not installed (pip install 'mjstats[plot]')", err=True
            )
        else:
            # deferred: loaded only with matplotlib
            from mjstats.studies.players import plot_player_fans, plot_players

            for name, ax in (("players", plot_players(tables["player"])),
                             ("seats", plot_players(tables["seat"])),
                             ("player-fans", plot_player_fans(fans))):  # fmt: skip
                ax.figure.savefig(out / f"{name}.png", dpi=120)
                plt.close(ax.figure)
                click.echo(f"wrote {out / f'{name}.png'}", err=True)
    if json_path is not None:
        doc = {by: json.loads(t.to_json(orient="index")) for by, t in tables.items()}
        doc["player_fans"] = json.loads(fans.to_json(orient="columns"))
        json_path.write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n")
        click.echo(f"wrote {json_path}", err=True)


def _print_check(result, skip_bad: bool) -> None:
    rows = [("games", result.games), ("wins", result.wins)]
    rows += [("matched", result.matched), ("mismatched", result.mismatched)]
    rows += [("drawn", result.drawn), ("aborted", result.aborted)]
    if skip_bad or result.bad:
        rows.append(("bad", result.bad))
    for label, value in rows:
        click.echo(f"{label:<11}{value:>8,}")
    for i in range(result.mismatched):
        click.echo("")
        click.echo(result.format_mismatch(i))
