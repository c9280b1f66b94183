"""``mjstats match A B [C D]``: a duplicate match of game policies on the same walls."""

from __future__ import annotations

from pathlib import Path

import click

from mjstats.cli.params import SEED

__all__ = ["command", "format_match_table"]


@click.command("match")
@click.argument("policies", nargs=-1, required=True)
@click.option("--n", "n_walls", type=click.IntRange(min=1), default=2000, show_default=True,
              help="Walls to play (each once per seating).")  # fmt: skip
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="Wall w is game w of this seed: the same walls on any machine.")  # fmt: skip
@click.option(
    "--rotation",
    type=click.Choice(["1v3", "2v2", "cyclic", "all", "swap"]),
    default=None,
    help="How the policies take the seats: two policies, 1v3 (A alone against three B, "
    "in each seat) or 2v2 (the six ways to seat two and two); four, cyclic (the four "
    "rotations) or all (the 24 orders); two-seat rulesets, swap [default: 1v3, cyclic, swap].",
)
@click.option("--ruleset", default="mcr", show_default=True,
              help="mcr (with its options and profiles) or two-player.")  # fmt: skip
@click.option(
    "--wall",
    type=click.Choice(["shared", "botzone"]),
    default="shared",
    show_default=True,
    help="The shared 144-tile wall with flowers, or Botzone's 136 tiles in four segments.",
)
@click.option("--round-wind", type=click.IntRange(0, 3), default=0, show_default=True,
              help="0-3 = East South West North.")  # fmt: skip
@click.option("--chunk-size", type=click.IntRange(min=1), default=250, show_default=True,
              help="Walls per chunk (does not change the numbers).")  # fmt: skip
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Write aggregate.json and match.csv into this folder.")  # fmt: skip
@click.option("--checkpoint", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Save progress here regularly (and on Ctrl-C).")  # fmt: skip
@click.option("--resume", is_flag=True,
              help="Continue from --checkpoint (the same policies and options).")  # fmt: skip
@click.option("--dask", "dask_address", default=None, metavar="ADDRESS",
              help="Run on Dask: a scheduler address, 'local' or 'local:N' workers.")  # fmt: skip
@click.option("--threads", type=click.IntRange(min=1), default=None,
              help="numba threads [default: all cores].")  # fmt: skip
@click.option("--progress/--no-progress", default=None,
              help="Progress bar [default: on when stderr is a terminal].")  # fmt: skip
def command(policies, n_walls, seed, rotation, ruleset, wall, round_wind, chunk_size, out,
            checkpoint, resume, dask_address, threads, progress):  # fmt: skip
    """Duplicate match: the same walls, the policies rotated through the seats.

    POLICIES are two or four built-in policies (random, efficiency, fan-aware,
    planner; the same one may come twice); two-seat rulesets take two. Every
    wall is played once per seating, so the seats' luck cancels. Prints per policy its
    points a game with a paired 95% interval (over walls), its win, self-drawn
    and deal-in rates per game, and its claims (taken a game, and per chance).

    \b
    Examples:
      mjstats match fan-aware efficiency --n 2000          # one fan-aware against three
      mjstats match planner fan-aware --n 20000 --wall botzone
      mjstats match fan-aware efficiency --rotation 2v2 --wall botzone
      mjstats match random efficiency fan-aware efficiency --n 1000
      mjstats match planner efficiency --ruleset two-player --n 5000
      mjstats match fan-aware efficiency --n 100000 --checkpoint m.ckpt   # Ctrl-C, then:
      mjstats match fan-aware efficiency --n 100000 --checkpoint m.ckpt --resume
    """
    # deferred: `mjstats --help` loads no kernels
    from mjstats.errors import GameError
    from mjstats.games import GameOptionError
    from mjstats.studies import StudyInterrupted
    from mjstats.studies.interrupts import EXIT_INTERRUPTED, deferred_interrupts
    from mjstats.studies.match import match, match_table

    if resume and checkpoint is None:
        raise click.UsageError("--resume continues a checkpoint: give --checkpoint FILE")
    with deferred_interrupts(exit_when_idle=dask_address is None) as guard:
        try:
            agg = match(list(policies), n_walls, seed, rotation=rotation, wall=wall,
                        ruleset=ruleset, round_wind=round_wind, chunk_size=chunk_size,
                        threads=threads, progress=progress, dask=dask_address,
                        checkpoint=checkpoint, resume=resume)  # fmt: skip
        except GameOptionError as exc:
            raise click.UsageError(str(exc)) from None
        except GameError as exc:
            raise click.ClickException(str(exc)) from None
        except StudyInterrupted as exc:
            error = click.ClickException(
                f"interrupted; progress saved to {exc.checkpoint}; finish with the same "
                f"command and --checkpoint {exc.checkpoint} --resume"
            )
            error.exit_code = EXIT_INTERRUPTED
            raise error from None
        guard.idle = False  # done: a Ctrl-C now waits for the output to be written
        table = match_table(agg)
        p = agg.params
        walls = int(agg["walls"][0])
        click.echo(
            f"{walls:,} walls x {int(agg['games'][0]) // max(walls, 1)} seatings "
            f"({p['rotation']}), {p['ruleset']}, {p['wall']} wall, seed {p['seed']}"
        )
        click.echo(format_match_table(table))
        if out is not None:
            # deferred: `mjstats --help` loads no kernels
            from mjstats.provenance import provenance
            from mjstats.report import write_report

            out.mkdir(parents=True, exist_ok=True)
            click.echo(f"wrote {agg.save(out / 'aggregate.json')}", err=True)
            path = write_report(table, out / "match.csv", prov=provenance(agg))
            click.echo(f"wrote {path}", err=True)


def format_match_table(table) -> str:
    """The match table for people, in 80 columns: a row per policy. On the Botzone wall
    the chow and pung rates are those counted as the real-play data set counts its
    chances (like for like with real play), elsewhere per legal chance."""
    like_real = table["chow_rate_data_set"].notna().any()
    chow = table["chow_rate_data_set"] if like_real else table["chow_rate"]
    pung = table["pung_rate_data_set"] if like_real else table["pung_rate"]
    head = [
        f"{'':16}{'points':>7}  {'95% interval':<16}{'':6}{'self-':>7}{'deal-':>7}"
        f"{'claims':>7}{'chow':>6}{'pung':>6}",
        f"{'  policy':<16}{'a game':>7}  {'(paired)':<16}{'win':>6}{'drawn':>7}{'in':>7}"
        f"{'a game':>7}{'rate':>6}{'rate':>6}",
    ]
    rows = []
    for r, c, q in zip(table.itertuples(index=False), chow, pung, strict=True):
        ci = f"{r.points_ci_low:+.2f} to {r.points_ci_high:+.2f}"
        rows.append(
            f"{r.player} {r.policy:<14} {r.points:+6.2f}  {ci:<16}{r.win:6.1%}"
            f"{r.self_drawn:7.1%}{r.deal_in:7.1%}{r.claims:7.2f}{c:6.1%}{q:6.1%}"
        )
    foot = ["win, self-drawn, deal-in: per game a policy plays; claims: chows, pungs and"]
    if like_real:
        foot += [
            "kongs taken a game; chow, pung rate: taken per chance counted as the real-play",
            "data set counts them (real play: `mjstats report STUDY --table reference`; per",
            "legal chance: --out)",
        ]
    else:
        foot += [
            "kongs taken a game; chow, pung rate: taken per legal chance (the real-play",
            "data set counts its own way: `mjstats report STUDY --table reference`)",
        ]
    return "\n".join([*head, *rows, *foot])
