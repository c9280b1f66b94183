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
              help="Policy of the simulated games (random, efficiency, fan-aware).")  # fmt: skip
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the simulated games.")  # fmt: skip
@click.option("--shard-games", type=click.IntRange(min=1), default=200, show_default=True,
              help="Games per shard (bounds the memory).")  # fmt: skip
@click.option("--compress", is_flag=True, help="Compressed shards (np.savez_compressed).")
@click.option("--out", required=True, type=click.Path(file_okay=False, path_type=Path),
              help="Folder for the shards, the table and provenance.json.")  # fmt: skip
def command(path, games, policy, seed, shard_games, compress, out):
    """Write every decision of every seat as learning data.

    PATH is a Botzone text record file, a JSON judge log or a folder of them;
    or give --games N to simulate games. The folder gets shard-*.npz (observation
    planes, the Botzone baseline's observation, the 235-action mask, the action
    and the scalar columns), decisions.parquet (CSV without pyarrow) and
    provenance.json. Read it with mjstats.decisions.iter_shards (docs/decisions.md).

    \b
    Examples:
      mjstats decisions tests/data/botzone --out data/real
      mjstats decisions --games 10000 --policy fan-aware --seed 7 --out data/sim
    """
    if (path is None) == (games is None):
        raise click.UsageError("give PATH (records) or --games N, not both and not neither")
    # deferred: `mjstats --help` loads no kernels
    from mjstats.decisions import write_decisions

    info = write_decisions(out, path, games=games, policy=policy, seed=seed,
                           shard_games=shard_games, compress=compress)  # fmt: skip
    click.echo(f"games {info['games']}  decisions {info['decisions']}  "
               f"shards {len(info['shards'])}  table {info['table']}  -> {out}")  # fmt: skip
