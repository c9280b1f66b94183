"""``mjstats review PATH [--html report.html]``: every decision rated, the taken
option against the best."""

from __future__ import annotations

from pathlib import Path

import click

__all__ = ["command"]


@click.command("review")
@click.argument("path", type=click.Path(exists=True, path_type=Path))
@click.option("--html", "html_path", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help="Write the report (with replay links) to this file.")  # fmt: skip
@click.option("--threshold", type=float, default=2.0, show_default=True,
              help="A gap above this many points is a bad decision.")  # fmt: skip
@click.option("--playouts", type=click.IntRange(min=1), default=300, show_default=True,
              help="Monte Carlo playouts per option of shanten 2 or more.")  # fmt: skip
@click.option("--seed", type=click.IntRange(min=0), default=1, show_default=True,
              help="Seed of the playouts.")  # fmt: skip
@click.option("--progress/--no-progress", default=None,
              help="Show a progress bar (default: on a terminal).")  # fmt: skip
@click.option("--per-game", is_flag=True, help="Also print each game's seats.")
@click.option("--worst", type=click.IntRange(min=1), default=20, show_default=True,
              help="How many of the worst decisions to list.")  # fmt: skip
def command(path, html_path, threshold, playouts, seed, progress, per_game, worst):
    """Rate every decision of every seat of Botzone records.

    PATH is a text record file, a JSON judge log or a folder of them. Each
    option of each decision gets its E[points] from the analysis (mjstats
    analyze: the seat's draws left, solitaire; exact at shanten <= 1, Monte
    Carlo beyond; a legal win its payment, ranked first). Prints the agreement
    with the best option, the mean gap in points and the share of gaps above
    --threshold, over all and per seat (--per-game: per game and seat too),
    then the worst decisions with their hands.

    \b
    Examples:
      mjstats review tests/data/botzone/sample.txt
      mjstats review tests/data/botzone --html review.html --worst 30
    """
    # deferred: `mjstats --help` loads no kernels
    from mjstats.decisions.review import review
    from mjstats.review_report import review_html

    r = review(path, threshold=threshold, worst=worst, playouts=playouts, seed=seed,
               progress=progress)  # fmt: skip
    with_pd_options = {"float_format": "{:.3f}".format, "index": False}
    click.echo("overall")
    click.echo(r["overall"].to_string(**with_pd_options))
    click.echo("\nper seat")
    click.echo(r["players"].to_string(**with_pd_options))
    if per_game:
        click.echo("\nper game and seat")
        click.echo(r["seats"].to_string(**with_pd_options))
    click.echo("\nworst decisions")
    shown = ["game", "seat", "step", "hand", "taken", "best", "rank", "value", "best_value", "gap"]
    click.echo(r["worst"][shown].to_string(**with_pd_options))
    if html_path is not None:
        review_html(r, html_path, path)
        click.echo(f"\nreport: {html_path}")
