"""``mjstats report STUDY_OUTPUT``: report tables and plots from a saved aggregate."""

from __future__ import annotations

import textwrap
from pathlib import Path

import click

__all__ = ["command"]

_TABLES = (
    "fans",
    "totals",
    "forms",
    "cooccurrence",
    "payments",
    "summary",
    "shanten",
    "seats",
    "lengths",
    "melds",
    "claims",
    "reference",
    "match",
)
_FORMATS = ("table", "csv", "parquet", "json", "md", "png")
_SUFFIXES = {".csv": "csv", ".parquet": "parquet", ".json": "json", ".md": "md", ".png": "png"}


@click.command("report")
@click.argument("study_output", type=click.Path(exists=True, path_type=Path))
@click.option(
    "--table",
    type=click.Choice(_TABLES),
    default=None,
    help="Which report: fan frequencies, total distribution, forms, fan co-occurrence, "
    "payments by win type, headline numbers, shanten (dealt studies); per seat, game "
    "lengths, the winners' melds, claims, and fans and claims beside real play (reference) "
    "of games studies and record sets; the policies of a match [default: fans; shanten for "
    "a dealt study without complete deals; match for a match].",
)
@click.option(
    "--kind",
    type=click.Choice(["count", "lift", "conditional"]),
    default=None,
    help="cooccurrence: hands with both fans, P(both)/(P(a)P(b)), or P(column | row) "
    "[default: count; png: lift].",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(_FORMATS),
    default=None,
    help="Output format [default: from the --out suffix, else a terminal table]. "
    "png draws the table's plot (every table but summary and payments).",
)
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write here (csv, json and md go to standard output without --out).",
)
@click.option(
    "--top",
    type=click.IntRange(min=0),
    default=0,
    show_default=True,
    help="fans: only the N most frequent fans (tables and plots); cooccurrence: the N "
    "largest pairs in the terminal, the N most frequent fans in a plot [default: every "
    "fan that occurs; 30].",
)
def command(study_output, table, kind, fmt, out, top):
    """Report tables and plots from a study's or records' saved aggregate.

    STUDY_OUTPUT is the folder written by 'mjstats study --out DIR' or
    'mjstats records --out DIR' (its aggregate.json), or an aggregate JSON file.

    \b
    Examples:
      mjstats study dealt --n 200000 --seed 7 --out results/dealt
      mjstats study sample --n 200000 --seed 7 --out results/sample
      mjstats report results/dealt                           # header and shanten table
      mjstats report results/sample --out fans.csv           # + fans.csv.provenance.json
      mjstats report results/sample --table totals --format md
      mjstats report results/sample --table cooccurrence --kind lift --out cooc.parquet
      mjstats report results/sample --out fans.png --top 30  # log-scale fan frequencies
      mjstats report results/sample --table totals --out totals.png
      mjstats report results/dealt --out dealt.png           # shanten (few deals complete)
      mjstats report results/games --table reference         # beside real play
      mjstats report results/games --table reference --out real-play.png
    """
    # deferred: `mjstats --help` loads no kernels
    from mjstats.report import PLOTS, load_aggregate, report_table, write_report

    if fmt is None:
        fmt = "table" if out is None else _SUFFIXES.get(out.suffix.lower())
        if fmt is None:
            raise click.BadParameter(
                f"cannot tell the format from {out.name!r}; give --format ({', '.join(_FORMATS)})",
                param_hint="'--out'",
            )
    if fmt in ("parquet", "png") and out is None:
        raise click.UsageError(f"--format {fmt} needs --out FILE")
    if fmt == "table" and out is not None:
        raise click.UsageError("--format table prints to the terminal; drop --out")
    if fmt == "png" and table not in (*PLOTS, None):
        raise click.BadParameter(
            f"no plot for --table {table}; plots exist for {', '.join(PLOTS)}",
            param_hint="'--format png'",
        )
    if kind is not None and table != "cooccurrence":
        raise click.UsageError("--kind applies to --table cooccurrence only")
    # deferred: `mjstats --help` loads no kernels
    from mjstats.provenance import provenance

    try:
        agg = load_aggregate(study_output)
        if table is None:
            table = _default_table(agg)
        if fmt == "png":
            _save_plot(agg, table, kind or "lift", out, top)
            click.echo(f"wrote {out}", err=True)
            return
        df = report_table(agg, table, kind=kind or "count")
    except ValueError as exc:
        raise click.ClickException(str(exc)) from None
    if fmt == "table":
        _print_table(df, agg, table, top)
        return
    if table == "fans" and top:
        df = df.sort_values("frequency", ascending=False, kind="stable").head(top)
    if out is None:
        _write_stdout(df, fmt, provenance(agg))
    else:
        write_report(df, out, fmt, prov=provenance(agg))
        click.echo(f"wrote {out}", err=True)


def _default_table(agg) -> str:
    """fans, unless that would be empty and there is a shanten table (dealt studies);
    a match's table for a match."""
    if agg.kind == "match":
        return "match"
    no_fans = "cooccurrence" not in agg.counters or not agg["complete"][0]
    return "shanten" if no_fans and "shanten_hist" in agg.counters else "fans"


def _save_plot(agg, table: str, kind: str, out: Path, top: int) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    # deferred: `mjstats --help` loads no kernels
    from mjstats.report import plot_report

    ax = plot_report(agg, table, kind=kind, top=top)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        ax.figure.savefig(out, dpi=150)
    finally:
        plt.close(ax.figure)


def _write_stdout(df, fmt: str, prov: dict) -> None:
    # deferred: `mjstats --help` loads no kernels
    from mjstats.provenance import json_text
    from mjstats.report import table_json, to_markdown

    if fmt == "csv":
        click.echo(df.to_csv(index=False), nl=False)
    elif fmt == "json":
        click.echo(json_text(table_json(df, prov)))
    else:
        click.echo(to_markdown(df), nl=False)


def _print_table(df, agg, table: str, top: int) -> None:
    """Terminal output: the study fan table for fans, the strongest pairs for
    cooccurrence (a matrix does not fit), a rich table of the rest, with numbers
    rounded for people (CSV and JSON keep full precision); game lengths without the
    lengths no game had at either end."""
    import pandas as pd
    from rich.table import Table

    # deferred: `mjstats --help` loads no kernels
    from mjstats.cli._console import console as make_console

    if table == "fans":
        # deferred: `mjstats --help` loads no kernels
        from mjstats.cli.study_cmd import print_fan_table

        print_fan_table(agg, top)
        return
    if table == "match":
        # deferred: `mjstats --help` loads no kernels
        from mjstats.cli.match_cmd import format_match_table

        click.echo(format_match_table(df))
        return
    if table == "cooccurrence":
        df = _pairs(df).head(top or 30)
    if table == "lengths":
        played = (df["games"] > 0).to_numpy().nonzero()[0]
        if len(played):
            df = df.iloc[played[0] : played[-1] + 1]
    if table == "summary":
        df = pd.DataFrame({"": list(df.columns), "value": [_cell(v) for v in df.iloc[0]]})
    if table == "reference":
        click.echo(format_reference(df, top or 30, agg))
        return
    if table == "claims":
        click.echo(format_claims(df))
        return
    console = make_console(160)
    console.print(f"[bold]{agg.kind}[/] aggregate: {table}")
    out = Table(show_edge=False, header_style="bold")
    for col in df.columns:
        numeric = pd.api.types.is_numeric_dtype(df[col])
        out.add_column(str(col), justify="right" if numeric else "left")
    for row in df.itertuples(index=False):
        out.add_row(*(_cell(v) for v in row))
    console.print(out)


def _pad(text: str, width: int) -> str:
    """``text`` padded to ``width`` terminal cells (a Chinese character takes two)."""
    from rich.cells import cell_len  # deferred: `mjstats --help` loads no rich

    return text + " " * max(0, width - cell_len(text))


def format_reference(df, top: int, agg) -> str:
    """The table of ``--table reference`` for people, in 80 columns: the reference's
    ``top`` commonest fans per 100 games, the claims per chance and a game, the
    summary line."""
    # deferred: `mjstats --help` loads no kernels
    from mjstats.studies.realplay import real_play, real_play_summary, summary_line

    ref = real_play()
    fans = df[(df["what"] == "fan") & (df["rank"] <= top)]
    claims = df[df["what"] == "claim"]
    games = int(agg["games"][0])
    width = max([len("fan"), *(len(e) for e in fans["en"])])
    lines = [
        f"fans: wins holding the fan per 100 games; real play = {ref.games:,} Botzone games,",
        f"these = the {games:,} games of this aggregate (95% interval: Wilson)",
        f"{'rank':>4} {_pad('fan', 11 + width)} {'real':>6} {'these':>6}  "
        f"{'95% interval':<13}{'ratio':>6}",
    ]
    for r in fans.itertuples(index=False):
        ci = f"{r.ci_low:.2f}-{r.ci_high:.2f}"
        lines.append(
            f"{r.rank:>4} {_pad(r.zh, 11)}{r.en:<{width}} {r.real:6.2f} {r.rate:6.2f}  "
            f"{ci:<13}{r.ratio:6.2f}"
        )
    if len(claims):
        lines += ["", "claims: taken per chance", f"{'claim':<{16 + width}} {'real':>6} "
                  f"{'these':>6}  {'95% interval':<13}{'ratio':>6}"]  # fmt: skip
        for r in claims.itertuples(index=False):
            ci = f"{r.ci_low:.1%}-{r.ci_high:.1%}"
            mark = "*" if r.counted == "as the data set" else ""
            lines.append(
                f"{r.en + mark:<{16 + width}} {r.real:6.1%} {r.rate:6.1%}  {ci:<13}{r.ratio:6.2f}"
            )
        alike = claims[claims["counted"] == "as the data set"]
        if len(alike):
            legal = ", ".join(f"{r.en.lower()} {r.legal_rate:.1%}" for r in alike.itertuples())
            lines += _wrap(f"* chances counted as the data set's parser counts them (of the "
                           f"engine's legal chances: {legal})")  # fmt: skip
        else:
            lines += _wrap(
                "(chances: the engine's legal ones; the data set's parser counted its own "
                "way: play on the Botzone wall to compare like for like)"
            )
        # the claims taken a game need no parser: the firmest comparison
        lines += ["", "claims: taken a game (95% interval: Poisson, approximate)",
                  f"{'claim':<{16 + width}} {'real':>6} {'these':>6}  "
                  f"{'95% interval':<13}{'ratio':>6}"]  # fmt: skip
        for r in claims.itertuples(index=False):
            ci = f"{r.per_game_ci_low:.3f}-{r.per_game_ci_high:.3f}"
            ratio = r.per_game / r.real_per_game
            lines.append(
                f"{r.en:<{16 + width}} {r.real_per_game:6.3f} {r.per_game:6.3f}  "
                f"{ci:<13}{ratio:6.2f}"
            )
    lines += ["", *_wrap(summary_line(real_play_summary(df)))]
    return "\n".join(lines)


def format_claims(df) -> str:
    """The table of ``--table claims`` for people, in 80 columns."""
    lines = [f"{'claim':<17}{'chances':>9}{'made':>8}{'taken':>8}{'a game':>8}  taken per chance"]
    for r in df.itertuples(index=False):
        rate = f"{r.taken_rate:.1%} ({r.taken_ci_low:.1%}-{r.taken_ci_high:.1%})"
        lines.append(f"{r.en:<17}{r.chances:>9,}{r.made:>8,}{r.taken:>8,}{r.per_game:8.3f}  {rate}")
    lines.append("(a chance: a discard or turn on which a seat could legally make the claim;")
    lines.append(" made: taken, or passed over for a claim of higher priority)")
    return "\n".join(lines)


def _wrap(text: str, width: int = 80) -> list[str]:
    """``text`` in lines of at most ``width`` columns, broken between words."""
    return textwrap.wrap(text, width)


def _pairs(matrix):
    """Co-occurrence matrix (first column ``fan``) as pairs, largest values first."""
    import numpy as np

    m = matrix.set_index("fan")
    values = m.to_numpy(dtype=float)
    symmetric = np.allclose(values, values.T, equal_nan=True)
    rows, cols = np.nonzero(
        np.triu(np.ones_like(values, bool), 1) if symmetric else ~np.eye(len(m), dtype=bool)
    )
    v = values[rows, cols]
    keep = np.isfinite(v) & (v > 0)
    import pandas as pd

    pairs = pd.DataFrame(
        {
            "fan": m.index.to_numpy()[rows[keep]],
            "with fan": m.columns.to_numpy()[cols[keep]],
            "value": v[keep],
        }
    )
    return pairs.sort_values("value", ascending=False, kind="stable")


def _cell(v) -> str:
    import numpy as np

    if isinstance(v, (float, np.floating)):
        return "" if np.isnan(v) else f"{float(v):.3g}"  # for people: 3 significant digits
    if isinstance(v, (list, tuple)):
        return ", ".join(_cell(x) for x in v)
    return str(v)
