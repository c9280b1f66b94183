"""``mjstats bench``: mjstats against its peers, side by side in one run."""

from __future__ import annotations

import click

__all__ = ["command"]


def _tasks(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]):
    from mjstats.bench import TASKS

    names = [name.strip() for value in values for name in value.split(",") if name.strip()]
    unknown = [name for name in names if name not in TASKS]
    if unknown:
        raise click.BadParameter(
            f"unknown task {', '.join(map(repr, unknown))}; choose from {', '.join(TASKS)}",
            ctx=ctx,
            param=param,
        )
    return names or None


@click.command("bench")
@click.option("--quick", is_flag=True, help="Quick sizes: about 2 minutes (exact: a timed part).")
@click.option(
    "--json",
    "json_path",
    type=click.Path(dir_okay=False, allow_dash=True),
    metavar="FILE",
    help="Also write the rows as a JSON list to FILE ('-': stdout, instead of the table).",
)
@click.option(
    "--tasks",
    "tasks",
    multiple=True,
    callback=_tasks,
    metavar="NAMES",
    help="Only these tasks (comma-separated or repeated); default: all.",
)
@click.option("--markdown", is_flag=True, help="Print a Markdown table (for a README).")
@click.option(
    "--scale",
    type=click.FloatRange(min=0, min_open=True),
    default=1.0,
    show_default=True,
    help="Multiply every size (e.g. 0.01 for a smoke test; small sizes give poor rates).",
)
@click.option("--strict", is_flag=True, help="Exit with status 1 if a goal is not met (for CI).")
@click.option("--progress/--no-progress", default=True, help="Show each task as it runs (stderr).")
def command(
    quick: bool,
    json_path: str | None,
    tasks: list[str] | None,
    markdown: bool,
    scale: float,
    strict: bool,
    progress: bool,
) -> None:
    """Measure mjstats against its peers in one run and print a table.

    Peers (PyMahjongGB, the riichi `mahjong` library, xiangting, riichienv)
    run in the same process on the same hands, alternating with mjstats, so
    the ratios hold on any machine; a peer that is not installed is skipped
    with a note (pip install 'mjstats[bench]'). Rates are CPU time at one
    numba thread unless the row says otherwise (threads, start-up); ratio =
    mjstats rate / peer rate. The goal column shows the project's targets:
    shanten >= 100x and scoring >= 20x PyMahjongGB, regular-form shanten <=
    50 ns per hand per thread, cold start <= 20 s, warm start <= 1.5 s.

    \b
    Tasks: shanten shanten_regular shanten_kernel shanten_riichi_forms
      useful_tiles score score_concealed score_text exact dealt sample play threads
      batch_size records cold_start warm_start memory
    (see 'python -c "import mjstats.bench; help(mjstats.bench)"').

    \b
    Examples:
        mjstats bench --quick
        mjstats bench --quick --tasks shanten,score --json bench.json
        mjstats bench --quick --markdown > perf.md
        mjstats bench                       # full sizes, several minutes
    """
    import json
    import sys

    from mjstats.bench import environment, format_table, run_benchmarks, to_markdown

    rows = run_benchmarks(quick=quick, tasks=tasks, progress=progress, scale=scale)
    env = environment()
    env["mode"] = ("quick" if quick else "full") + (f", scale {scale:g}" if scale != 1 else "")
    if json_path == "-":
        click.echo(json.dumps(rows, indent=2))
    else:
        if json_path:
            with open(json_path, "w", encoding="utf-8") as fh:
                json.dump(rows, fh, indent=2)
                fh.write("\n")
        click.echo(to_markdown(rows, env) if markdown else format_table(rows, env), nl=False)
    missed = [r["task"] for r in rows if r["goal_met"] is False]
    if missed:
        print(f"mjstats bench: goals not met: {', '.join(missed)}", file=sys.stderr)
        if strict:
            click.get_current_context().exit(1)
