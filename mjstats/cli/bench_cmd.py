"""``mjstats bench``: mjstats against its peers, side by side in one run."""

from __future__ import annotations

import click

__all__ = ["command"]


def _tasks(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]):
    # deferred: `mjstats --help` loads no kernels
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
@click.option("--quick", is_flag=True, help="Quick sizes: a few minutes (exact: a timed part).")
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
@click.option(
    "--strict",
    is_flag=True,
    help="Exit with status 1 if a goal is not met or --peer disagrees (for CI).",
)
@click.option("--progress/--no-progress", default=True, help="Show each task as it runs (stderr).")
@click.option(
    "--peer",
    "peer_spec",
    metavar="MODULE:FUNCTION",
    default=None,
    help="Time your own scorer against mjstats on the same wins and check its totals "
    "(only this, unless --tasks is given too).",
)
@click.option(
    "--peer-input",
    type=click.Choice(["auto", "hand", "kwargs"]),
    default="auto",
    show_default=True,
    help="--peer is called as fn(mjstats.Hand) or fn(**PyMahjongGB keyword arguments); "
    "auto: kwargs if it takes winTile or **kwargs.",
)
def command(
    quick: bool,
    json_path: str | None,
    tasks: list[str] | None,
    markdown: bool,
    scale: float,
    strict: bool,
    progress: bool,
    peer_spec: str | None,
    peer_input: str,
) -> None:
    """Measure mjstats against its peers in one run and print a table.

    Peers (PyMahjongGB, the riichi `mahjong` library, xiangting, riichienv)
    run in the same process on the same hands, alternating with mjstats, so
    the ratios hold on any machine; a peer that is not installed is skipped
    with a note (pip install 'mjstats[bench]'). Rates are CPU time at one
    numba thread unless the row says otherwise (threads, start-up); ratio =
    mjstats rate / peer rate. The goal column shows the project's targets:
    shanten >= 100x and scoring >= 20x PyMahjongGB, regular-form shanten <=
    50 ns per hand per thread, first `score HAND` <= 10 s, warm start <= 1.5 s,
    four-player games >= 100,000/s (random policy) and >= 20,000/s (efficiency).

    \b
    Tasks: shanten shanten_regular shanten_kernel shanten_riichi_forms
      useful_tiles score score_concealed score_text score_one exact dealt sample play games
      threads batch_size records decisions analyze_batch cold_start warm_start memory
    (see 'python -c "import mjstats.bench; help(mjstats.bench)"').

    With --peer MODULE:FUNCTION your own scorer (a function of one hand
    returning its total, an object with .total, or PyMahjongGB's (points,
    name) pairs) is timed the same way on the same wins, and every hand
    where its total differs from mjstats' is listed (see
    'python -c "import mjstats.bench.user_peer as m; help(m)"').

    \b
    Examples:
        mjstats bench --quick
        mjstats bench --quick --tasks shanten,score --json bench.json
        mjstats bench --quick --markdown > perf.md
        mjstats bench --quick --peer my_scorer:score        # my_scorer.py here
        mjstats bench                       # full sizes, several minutes
    """
    import sys

    # deferred: `mjstats --help` loads no kernels
    from mjstats.bench import environment, format_table, run_benchmarks, to_markdown
    from mjstats.provenance import json_text, provenance

    peer = None
    if peer_spec is not None:
        # deferred: `mjstats --help` loads no kernels
        from mjstats.bench.user_peer import load_peer

        try:
            peer = load_peer(peer_spec)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="'--peer'") from None
    rows, disagreements = [], []
    if peer is None or tasks:
        rows = run_benchmarks(quick=quick, tasks=tasks, progress=progress, scale=scale)
    if peer is not None:
        # deferred: `mjstats --help` loads no kernels
        from mjstats.bench.user_peer import bench_peer

        if progress:
            print(f"peer {peer_spec} ...", file=sys.stderr, flush=True)
        peer_rows, disagreements = bench_peer(
            peer, given=peer_input, name=peer_spec, quick=quick, scale=scale
        )
        rows += peer_rows
    env = environment()
    env["mode"] = ("quick" if quick else "full") + (f", scale {scale:g}" if scale != 1 else "")
    document = {"provenance": provenance({"seed": 2024}, kind="bench"), "environment": env}
    document["rows"] = rows
    if peer is not None:
        document["peer_disagreements"] = disagreements
    if json_path == "-":
        click.echo(json_text(document, indent=2))
    else:
        if json_path:
            with open(json_path, "w", encoding="utf-8") as fh:
                fh.write(json_text(document, indent=2) + "\n")
        # deferred: `mjstats --help` loads no kernels
        from mjstats.cli._console import width

        text = to_markdown(rows, env) if markdown else format_table(rows, env, width(240))
        click.echo(text, nl=False)
        if peer is not None:
            _print_disagreements(peer_spec, disagreements, rows[-1]["peer_n"])
    missed = [r["task"] for r in rows if r["goal_met"] is False]
    if missed:
        print(f"mjstats bench: goals not met: {', '.join(missed)}", file=sys.stderr)
    if strict and (missed or disagreements):
        click.get_current_context().exit(1)


_SHOW_DISAGREEMENTS = 10


def _print_disagreements(spec: str, disagreements: list[dict], n: int) -> None:
    if not disagreements:
        click.echo(f"peer {spec}: the same total as mjstats on all {n:,} hands")
        return
    click.echo(f"peer {spec}: {len(disagreements):,} of {n:,} hands differ from mjstats")
    for d in disagreements[:_SHOW_DISAGREEMENTS]:
        peer = d["error"] if d["error"] else f"peer {d['peer']}"
        click.echo(f"  row {d['row']}: {d['hand']}: mjstats {d['mjstats']}, {peer}")
    if len(disagreements) > _SHOW_DISAGREEMENTS:
        click.echo(f"  ... and {len(disagreements) - _SHOW_DISAGREEMENTS:,} more (see --json)")
