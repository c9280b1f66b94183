"""``mjstats decisions PATH|--games N --out DIR``: every decision as learning data."""

from __future__ import annotations

from pathlib import Path

import click

__all__ = ["command"]


@click.command("decisions")
@click.argument("path", required=False, type=click.Path(exists=True, path_type=Path))
@click.option("--games", type=click.IntRange(min=1), default=None,
              help="Simulate this many games instead of reading records.")  # fmt: skip
@click.option("--policy", default="efficiency", show_default=True,
              help="Policy of the simulated games (random, efficiency, fan-aware, "
                   "planner).")  # fmt: skip
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the simulated games.")  # fmt: skip
@click.option("--shard-games", type=click.IntRange(min=1), default=200, show_default=True,
              help="Games per shard (bounds the memory).")  # fmt: skip
@click.option("--compress", is_flag=True, help="Compressed shards (np.savez_compressed).")
@click.option("--out", required=True, type=click.Path(file_okay=False, path_type=Path),
              help="Folder for the shards, the table and provenance.json.")  # fmt: skip
@click.option("--resume", is_flag=True,
              help="Finish the interrupted run in --out (the same options): complete shards "
                   "are kept.")  # fmt: skip
@click.option("--dask", "dask_address", default=None, metavar="ADDRESS",
              help="Write the shards on Dask: a scheduler address, 'local' or 'local:N' "
                   "workers (they write into --out: a shared file system; records are "
                   "read here and each shard's decisions sent to a worker).")  # fmt: skip
@click.option("--threads", type=click.IntRange(min=1), default=None,
              help="numba threads [default: all cores].")  # fmt: skip
@click.option("--progress/--no-progress", default=None,
              help="Progress bar [default: on when stderr is a terminal].")  # fmt: skip
def command(path, games, policy, seed, shard_games, compress, out, resume, dask_address, threads,
            progress):  # fmt: skip
    """Write every decision of every seat as learning data.

    PATH is a Botzone text record file, a JSON judge log or a folder of them;
    or give --games N to simulate games. The folder gets shard-*.npz (observation
    planes, the Botzone baseline's observation, the 235-action mask, the action
    and the scalar columns), decisions.parquet (CSV without pyarrow) and
    provenance.json. Read it with mjstats.decisions.iter_shards (docs/decisions.md).

    Shard i holds games i*N to (i+1)*N-1 (N = --shard-games) and is the same
    whatever --threads, --dask or interruptions. Ctrl-C stops between shards;
    the same command with --resume writes only the shards not yet complete.

    \b
    Examples:
      mjstats decisions tests/data/botzone --out data/real
      mjstats decisions --games 10000 --policy fan-aware --seed 7 --out data/sim
      mjstats decisions --games 1000000 --out data/big        # Ctrl-C, then:
      mjstats decisions --games 1000000 --out data/big --resume
      mjstats decisions --games 1000000 --out /shared/big --dask tcp://10.0.0.5:8786
      mjstats decisions botzone-data/ --out /shared/real --dask local:2
    """
    if (path is None) == (games is None):
        raise click.UsageError("give PATH (records) or --games N, not both and not neither")
    # deferred: `mjstats --help` loads no kernels
    from mjstats.cli._folder_run import run_into
    from mjstats.decisions import write_decisions

    info = run_into(out, "shards", resume, dask_address, lambda: write_decisions(
        out, path, games=games, policy=policy, seed=seed, shard_games=shard_games,
        compress=compress, threads=threads, dask=dask_address, resume=resume,
        progress=progress))  # fmt: skip
    click.echo(f"games {info['games']}  decisions {info['decisions']}  "
               f"shards {len(info['shards'])}  table {info['table']}  -> {out}")  # fmt: skip
