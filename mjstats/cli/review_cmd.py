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
@click.option("--threshold", type=float, default=0.5, show_default=True,
              help="A gap to the best option above this counts as a bad decision.")  # fmt: skip
@click.option("--per-game", is_flag=True, help="Also print each game's seats.")
@click.option("--worst", type=click.IntRange(min=1), default=20, show_default=True,
              help="How many of the worst decisions to list.")  # fmt: skip
def command(path, html_path, threshold, per_game, worst):
    """Rate every decision of every seat of Botzone records.

    PATH is a text record file, a JSON judge log or a folder of them. Each
    option of each decision is valued (a stand-in for E[points]: the shanten
    and winning copies of the hand it leaves); prints the agreement with the
    best option, the mean gap and the share of gaps above --threshold, over
    all and per seat (--per-game: per game and seat too), then the worst
    decisions.

    \b
    Examples:
      mjstats review tests/data/botzone/sample.txt
      mjstats review tests/data/botzone --html review.html --worst 30
    """
    # deferred: `mjstats --help` loads no kernels
    from mjstats.decisions.review import review
    from mjstats.review_report import review_html

    r = review(path, threshold=threshold, worst=worst)
    with_pd_options = {"float_format": "{:.3f}".format, "index": False}
    click.echo("overall")
    click.echo(r["overall"].to_string(**with_pd_options))
    click.echo("\nper seat")
    click.echo(r["players"].to_string(**with_pd_options))
    if per_game:
        click.echo("\nper game and seat")
        click.echo(r["seats"].to_string(**with_pd_options))
    click.echo("\nworst decisions")
    click.echo(r["worst"].to_string(**with_pd_options))
    if html_path is not None:
        review_html(r, html_path, path)
        click.echo(f"\nreport: {html_path}")
