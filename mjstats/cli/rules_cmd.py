"""``mjstats rules``: the rulesets and their profiles, and what a profile changes."""

from __future__ import annotations

import click


@click.group(name="rules")
def command() -> None:
    """Rulesets, their profiles, and what one reading changes against another."""


@command.command(name="list")
def list_command() -> None:
    """List the rulesets and their profiles (names for --ruleset)."""
    from mjstats.rules import get_ruleset, rulesets

    for name in rulesets():
        rs = get_ruleset(name)
        for profile in rs.profile_names():
            spec = name if profile == rs.default_profile else f"{name}:{profile}"
            click.echo(f"{spec:<16} {rs.with_profile(profile).title}")


@command.command(name="diff")
@click.argument("a")
@click.argument("b")
@click.option("--n", "n", type=click.IntRange(min=1), default=100_000, show_default=True,
              help="Sampled complete hands (generate_wins, style mixed).")  # fmt: skip
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the sample.")
@click.option("--examples", type=click.IntRange(min=0), default=2, show_default=True,
              help="Example hands per kind of difference.")  # fmt: skip
@click.option("--top", type=click.IntRange(min=1), default=12, show_default=True,
              help="Rows shown per section.")  # fmt: skip
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False), default=None,
              help="Also write the whole table to this CSV file.")  # fmt: skip
def diff_command(a: str, b: str, n: int, seed: int, examples: int, top: int, csv_path) -> None:
    """Score the same hands under rulesets/profiles A and B (e.g. mcr mcr:wmo-2014)
    and show how often the totals differ, by how much, which fans appear or
    disappear, P(legal) under each, and example hands."""
    from mjstats.rules import diff

    table = diff(a, b, n=n, seed=seed, examples=examples)
    if csv_path:
        table.to_csv(csv_path, index=False)
    click.echo(f"{a} -> {b}")
    for section, rows in table.groupby("section", sort=False):
        click.echo(f"\n[{section}]")
        for row in rows.head(top * max(1, examples) if section == "example" else top).itertuples():
            if section == "summary" and row.a is not None and row.a == row.a:
                click.echo(f"  {row.item:<16} {row.a:.4f} -> {row.b:.4f}")
            elif section == "summary" and row.item == "hands":
                click.echo(f"  {row.item:<16} {int(row.weight):,}")
            elif section == "example":
                click.echo(
                    f"  {row.share:7.2%}  {row.item}: {int(row.a)} -> {int(row.b)}  {row.example}"
                )
            else:
                click.echo(f"  {row.item:<32} {row.share:8.3%}")
