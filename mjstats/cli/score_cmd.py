"""``mjstats score``: the fan table of one hand, or the scores of a file of hands."""

from __future__ import annotations

import click

__all__ = ["command"]


@click.command("score")
@click.argument("text", nargs=-1)
@click.option("--ruleset", default="mcr", show_default=True, help="Ruleset to score with.")
@click.option(
    "--option",
    "options",
    multiple=True,
    metavar="NAME=VALUE",
    help="Ruleset option, e.g. mingan_gang=false (repeatable).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the score as JSON.")
@click.option(
    "--file",
    "in_path",
    metavar="PATH",
    help="Score every hand of a file: .txt (one a line), .csv or .parquet; '-' for stdin.",
)
@click.option("--column", default="hand", show_default=True, help="Hand column of CSV/Parquet.")
@click.option(
    "--out",
    "out_path",
    default="-",
    show_default=True,
    metavar="PATH",
    help="Scores of --file: .parquet or .csv ('-': CSV on stdout).",
)
@click.option("--bad", "bad_path", metavar="PATH", help="Bad rows of --file (default OUT.bad.csv).")
@click.option(
    "--format",
    "in_format",
    type=click.Choice(["txt", "csv", "parquet"]),
    help="Format of --file (default: from its name; stdin is txt).",
)
@click.option(
    "--chunk-rows", default=262_144, show_default=True, type=click.IntRange(1), help="Rows a chunk."
)
@click.option("--progress/--no-progress", default=None, help="Progress bar (default: on a tty).")
def command(
    text: tuple[str, ...],
    ruleset: str,
    options: tuple[str, ...],
    as_json: bool,
    in_path: str | None,
    column: str,
    out_path: str,
    bad_path: str | None,
    in_format: str | None,
    chunk_rows: int,
    progress: bool | None,
) -> int | None:
    """Score a complete hand: its fans (番), their points and the total.

    TEXT is the hand with its winning tile after '+' and context keywords, e.g.

    \b
        mjstats score "[123p]55m12379s789p+8s"
        mjstats score "EEE 123m 456p 789s 9m +9m self-drawn seat=S flowers=2"
        mjstats score "{2222m}[5555m]456789p1s+1s" --option mingan_gang=false

    A hand that is not complete scores -1 (exit status 0).

    With --file, every hand of a file is scored in chunks (memory stays
    bounded): one output row per hand (row, total, legal, form, flowers and a
    column per fan); rows that do not parse go to a side file with their
    messages, and the exit status is 1 if there were any.

    \b
        mjstats score --file hands.txt --out scores.parquet
        mjstats score --file games.csv --column hand --out scores.csv
        cat hands.txt | mjstats score --file - > scores.csv
    """
    import json

    # deferred: `mjstats --help` loads no kernels
    import mjstats
    from mjstats.rulesets import get_ruleset

    opts = {}
    for item in options:
        name, sep, value = item.partition("=")
        if not sep:
            raise click.BadParameter(f"{item!r}: write NAME=VALUE", param_hint="--option")
        low = value.strip().lower()
        if low in ("true", "yes", "on", "1"):
            opts[name.strip()] = True
        elif low in ("false", "no", "off", "0"):
            opts[name.strip()] = False
        else:
            raise click.BadParameter(
                f"{item!r}: VALUE must be true or false", param_hint="--option"
            )
    try:
        rs = get_ruleset(ruleset, **opts)
    except ValueError as exc:
        if type(exc) is ValueError:
            raise click.BadParameter(str(exc), param_hint="--option") from None
        raise
    if in_path is not None:
        if text:
            raise click.UsageError("give either TEXT or --file, not both")
        # deferred: `mjstats --help` loads no kernels
        from mjstats.compiling import notice

        with notice("scorer", progress):  # --no-progress also hides the compile notice
            return _score_file(
                in_path, out_path, column, rs, bad_path, in_format, chunk_rows, progress
            )
    if not text:
        raise click.UsageError("give a hand TEXT, or --file PATH")
    s = mjstats.score(" ".join(text), ruleset=rs)
    if as_json:
        out = {
            "hand": str(s.hand),
            "ruleset": s.ruleset,
            "total": s.total,
            "legal": s.legal,
            "form": s.form,
            "sets": list(s.sets),
            "fans": [
                {
                    "id": f.id,
                    "key": f.key,
                    "zh": f.zh,
                    "en": f.en,
                    "points": f.points,
                    "count": f.count,
                }
                for f in s.fans
            ],
        }
        click.echo(json.dumps(out, ensure_ascii=False, indent=2))
    else:
        click.echo(str(s))


def _score_file(in_path, out_path, column, rs, bad_path, in_format, chunk_rows, progress):
    import os
    import sys

    # deferred: `mjstats --help` loads no kernels
    from mjstats.score_file import score_file

    if progress is None:
        progress = sys.stderr.isatty()
    size = None
    if in_path != "-" and os.path.exists(in_path):
        size = os.path.getsize(in_path)
    if not progress:
        bar = _NoBar()
    elif size is None:  # standard input: no length to show a bar against
        bar = _BytesRead()
    else:
        bar = click.progressbar(length=size, label="scoring", file=sys.stderr, width=30)
    with bar as b:
        summary = score_file(
            in_path,
            out_path,
            column=column,
            ruleset=rs,
            in_format=in_format,
            bad_path=bad_path,
            chunk_rows=chunk_rows,
            progress=b.update,
        )
    where = "" if summary.out_path is None else f" into {summary.out_path}"
    click.echo(f"mjstats: scored {summary.rows - summary.bad:,} hands{where}", err=True)
    if summary.bad:
        click.echo(
            f"mjstats: {summary.bad:,} of {summary.rows:,} rows were bad; "
            f"rows and messages in {summary.bad_path}",
            err=True,
        )
        return 1  # main() turns it into the exit status
    return 0


class _NoBar:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def update(self, n: int) -> None:
        pass


class _BytesRead(_NoBar):
    """A progress line for input of unknown length: megabytes read so far."""

    def __init__(self) -> None:
        self.total = 0

    def update(self, n: int) -> None:
        self.total += n
        click.echo(f"\rscoring: {self.total / 1e6:,.0f} MB read", nl=False, err=True)

    def __exit__(self, *exc):
        click.echo("", err=True)
        return False
