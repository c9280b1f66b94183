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
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Review into this folder a block of games at a time (a data set of any "
                   "size): each block's decisions a part, the summaries at the end.")  # fmt: skip
@click.option("--block-games", type=click.IntRange(min=1), default=64, show_default=True,
              help="With --out: games per part (the unit of work and of resume).")  # fmt: skip
@click.option("--resume", is_flag=True,
              help="With --out: finish the interrupted review there (the same options); "
                   "complete parts are kept.")  # fmt: skip
@click.option("--threads", type=click.IntRange(min=1), default=1, show_default=True,
              help="With --out: blocks reviewed at once in this process.")  # fmt: skip
@click.option("--dask", "dask_address", default=None, metavar="ADDRESS",
              help="With --out: review the blocks on Dask (a scheduler address, 'local' or "
                   "'local:N' workers; they write into --out: a shared file system).")  # fmt: skip
def command(path, html_path, threshold, playouts, seed, progress, per_game, worst, out,
            block_games, resume, threads, dask_address):  # fmt: skip
    """Rate every decision of every seat of Botzone records.

    PATH is a text record file, a JSON judge log or a folder of them. Each
    option of each decision gets its E[points] from the analysis (mjstats
    analyze: the seat's draws left, solitaire; exact at shanten <= 1, Monte
    Carlo beyond; a legal win its payment, ranked first). Prints the agreement
    with the best option, the mean gap in points and the share of gaps above
    --threshold, over all and per seat (--per-game: per game and seat too),
    then the worst decisions with their hands.

    A large data set: --out DIR reviews it a block of games at a time into DIR
    (part-*.parquet: each block's decisions; seats.csv, players.csv,
    overall.csv, worst.csv at the end, equal to a review in one go), on
    --threads or --dask; Ctrl-C keeps the parts done, and the same command with
    --resume reviews only the rest.

    \b
    Examples:
      mjstats review tests/data/botzone/sample.txt
      mjstats review tests/data/botzone --html review.html --worst 30
      mjstats review botzone-data/ --out rev --threads 2      # Ctrl-C, then:
      mjstats review botzone-data/ --out rev --threads 2 --resume
      mjstats review botzone-data/ --out /shared/rev --dask tcp://10.0.0.5:8786
    """
    if out is None and (resume or dask_address is not None or threads != 1):
        raise click.UsageError("--resume, --threads and --dask review into a folder: give --out")
    # deferred: `mjstats --help` loads no kernels
    from mjstats.decisions.review import review
    from mjstats.review_report import review_html

    if out is None:
        r = review(path, threshold=threshold, worst=worst, playouts=playouts, seed=seed,
                   progress=progress)  # fmt: skip
    else:
        # deferred: `mjstats --help` loads no kernels
        from mjstats.cli._folder_run import run_into
        from mjstats.decisions.review import review_to

        r = run_into(out, "parts", resume, dask_address, lambda: review_to(
            out, path, threshold=threshold, worst=worst, playouts=playouts, seed=seed,
            block_games=block_games, threads=threads, dask=dask_address, resume=resume,
            progress=progress))  # fmt: skip
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
