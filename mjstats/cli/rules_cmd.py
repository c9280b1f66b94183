"""``mjstats rules``: the rulesets and their profiles, and what a profile changes."""

from __future__ import annotations

import click

from mjstats.cli.params import SEED


@click.group(name="rules")
def command() -> None:
    """Rulesets, their profiles, and what one reading changes against another."""


@command.command(name="list")
def list_command() -> None:
    """List the rulesets and their profiles (names for --ruleset)."""
    # deferred: `mjstats --help` loads no kernels
    from mjstats.rulesets import get_ruleset, rulesets

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
@click.option("--seed", type=SEED, default=0, show_default=True, help="Seed of the sample.")
@click.option("--exact", is_flag=True,
              help="Over the exact study's enumeration (every complete concealed hand, "
              "weighted as the exact study weights it) instead of a sample; minutes.")  # fmt: skip
@click.option("--examples", type=click.IntRange(min=0), default=2, show_default=True,
              help="Example hands per kind of difference.")  # fmt: skip
@click.option("--top", type=click.IntRange(min=1), default=12, show_default=True,
              help="Rows shown per section but the summary.")  # fmt: skip
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False), default=None,
              help="Also write the whole table to this CSV (provenance: sidecar).")  # fmt: skip
@click.option("--json", "json_path", type=click.Path(dir_okay=False, allow_dash=True),
              default=None, help="Write the whole table as strict JSON with its provenance "
              "('-': print it instead of the table).")  # fmt: skip
def diff_command(
    a: str, b: str, n: int, seed: int, exact: bool, examples: int, top: int, csv_path, json_path
) -> None:
    """Score the same hands under rulesets/profiles A and B (e.g. mcr mcr:wmo-2014)
    and show how often the totals differ, by how much, which fans appear or
    disappear, P(legal) under each, and example hands.

    \b
    Examples:
        mjstats rules diff mcr mcr:wmo-2014 --n 200000
        mjstats rules diff mcr mcr:wmo-2014 --exact --json diff.json
    """
    # deferred: `mjstats --help` loads no kernels
    from mjstats.provenance import json_text, provenance, write_json, write_sidecar
    from mjstats.studies.compare import diff

    ctx = click.get_current_context()
    if exact:
        given = [
            f"--{name}"
            for name in ("n", "seed")
            if ctx.get_parameter_source(name) is not click.core.ParameterSource.DEFAULT
        ]
        if given:
            raise click.UsageError(
                f"--exact enumerates every hand; it takes no {' or '.join(given)}"
            )
    # deferred: `mjstats --help` loads no kernels
    from mjstats.errors import UnknownRulesetError

    try:
        table = diff(a, b, n=n, seed=seed, examples=examples, exact=exact)
    except UnknownRulesetError:
        raise
    except ValueError as exc:  # e.g. --exact across two rulesets
        raise click.UsageError(str(exc)) from None
    prov = provenance(
        {"n": None if exact else n, "seed": None if exact else seed},
        kind="rules-diff",
        a=a,
        b=b,
        exact=exact,
    )
    if csv_path:
        table.to_csv(csv_path, index=False)
        write_sidecar(csv_path, prov)
    rows = {"rows": table.to_dict(orient="records")}
    if json_path == "-":
        click.echo(json_text({"provenance": prov, **rows}))
        return
    if json_path:
        write_json(json_path, rows, prov)
    click.echo(format_diff(table, f"{a} -> {b}", exact=exact, top=top, examples=examples))


def format_diff(table, title: str, *, exact: bool, top: int, examples: int) -> str:
    """The terminal form of a :func:`mjstats.rules.diff` table: the summary, then
    ``top`` rows per section (``top`` kinds of difference with their examples).
    Shares are probabilities with three significant digits, scientific below
    1e-4 (:func:`mjstats.report.format_probability`), so rare changes show.

    Examples
    --------
    >>> from mjstats import HandBatch
    >>> from mjstats.rules import diff
    >>> t = diff("mcr", "mcr:wmo-2014", hands=HandBatch.from_hands(["{2222m}{5555p}123s789s1z+1z"]))
    >>> print(format_diff(t, "mcr -> mcr:wmo-2014", exact=False, top=1, examples=1))
    ... # doctest: +NORMALIZE_WHITESPACE
    mcr -> mcr:wmo-2014
    <BLANKLINE>
    [summary]
      hands            1
      totals differ    1.00
      P(legal)         1.0000 -> 1.0000
      mean total       10.0000 -> 12.0000
    <BLANKLINE>
    [difference]
      +2               1.00
    <BLANKLINE>
    [example]
          1.00  (same fans): 10 -> 12  {2222m}{5555p}123789s1z+1z
    """
    # deferred: `mjstats --help` loads no kernels
    from mjstats.report import format_probability as fmt

    lines = [title + (" (exact enumeration, weighted)" if exact else "")]
    for section, part in table.groupby("section", sort=False):
        lines.append(f"\n[{section}]")
        shown = len(part) if section == "summary" else top * max(1, examples)
        for row in part.head(shown if section in ("summary", "example") else top).itertuples():
            if section == "summary" and row.a is not None and row.a == row.a:
                lines.append(f"  {row.item:<16} {row.a:.4f} -> {row.b:.4f}")
            elif section == "summary" and row.item in ("hands", "distinct hands"):
                lines.append(f"  {row.item:<16} {int(row.weight):,}")
            elif section == "example":
                totals = f"{int(row.a)} -> {int(row.b)}"
                lines.append(f"  {fmt(row.share):>8}  {row.item}: {totals}  {row.example}")
            else:
                width = 32 if section in ("appears", "disappears") else 16
                lines.append(f"  {row.item:<{width}} {fmt(row.share)}")
    return "\n".join(lines)
