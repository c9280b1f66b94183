"""``mjstats study KIND``: run a fan-probability study and print its fan table."""

from __future__ import annotations

from pathlib import Path

import click

from mjstats.cli._console import width
from mjstats.cli.params import SEED

__all__ = ["command", "print_fan_table", "study_header", "write_study_outputs"]

# Every study declares what the command line maps (mjstats.studies.runner.Study:
# default_n, count_param, cli_options, cli_params, summary_json); this module
# knows no study of its own. Options of one kind only, given to another kind,
# are usage errors.
_RUN_OPTIONS = {"records": "records_file"}  # option -> the study attribute that takes it


def _study_class(kind: str):
    import importlib

    # deferred: `mjstats --help` loads no kernels
    from mjstats.studies import KINDS

    module, _, name = KINDS[kind].partition(":")
    return getattr(importlib.import_module(module), name)


def _given(ctx: click.Context) -> dict:
    """The options given on the command line (or in the environment), not defaulted."""
    from click.core import ParameterSource

    given = (ParameterSource.COMMANDLINE, ParameterSource.ENVIRONMENT)
    return {k: v for k, v in ctx.params.items() if ctx.get_parameter_source(k) in given}


def _study_options(kind: str, ctx: click.Context) -> dict:
    """The given options of study ``kind``; one of another kind is a usage error."""
    # deferred: `mjstats --help` loads no kernels
    from mjstats.studies import KINDS

    given = _given(ctx)
    takes = {k: _study_class(k).cli_options for k in KINDS}
    for name in sorted(set().union(*takes.values()) & set(given)):
        if name not in takes[kind]:
            kinds = [k for k, names in takes.items() if name in names]
            flag = "--" + name.replace("_", "-")
            raise click.UsageError(f"{flag} applies to study {' and '.join(kinds)}, not to {kind}")
    return {name: given[name] for name in takes[kind] if name in given}


def study_header(agg) -> str:
    """The headline of a study's (or records') aggregate, one line of rich markup.

    An exact enumeration counts distinct hands and the deals they stand for
    apart; a dealt study counts deals, complete or not.
    """
    # deferred: `mjstats --help` loads no kernels
    from mjstats.report import format_probability as fp
    from mjstats.report import summary

    ruleset = agg.params.get("ruleset", "mcr")
    head = f"[bold]{agg.kind}[/] study, ruleset {ruleset}: "
    has_fans = "cooccurrence" in agg.counters
    s = summary(agg) if has_fans else None
    legal = (
        f"P(legal | complete) = {fp(s['p_legal'])}, mean total {s['mean_total']:.2f}"
        if s is not None and s["complete"]
        else ""
    )
    if agg.kind == "exact":
        # deferred: `mjstats --help` loads no kernels
        from mjstats.studies.exact import exact_summary

        e = exact_summary(agg)
        return (
            head + f"{e['distinct_complete_hands']:,} distinct complete hands, standing for "
            f"{int(agg['deal_weight'][0]):,} complete 14-tile deals (P(complete deal) = "
            f"{fp(e['p_complete'])}), each scored on its 14 winning tiles; {legal}"
        )
    if agg.kind == "dealt":
        deals = int(agg["deals"][0])
        text = head + f"{deals:,} deals of {agg.params.get('tiles', 14)} tiles"
        if s is not None:
            p = s["complete"] / deals if deals else float("nan")
            text += f", {s['complete']:,} complete (P = {fp(p)})" + (f", {legal}" if legal else "")
        return text
    if agg.kind == "games" and s is not None:  # a "hand" is a game, its wins the complete ones
        policies = agg.params.get("policy", [])
        seats = policies[0] if len(set(policies)) == 1 else "/".join(policies)
        return (
            head + f"{s['hands']:,} games ({seats}), {s['complete']:,} won; fans per win, "
            f"mean total {s['mean_total']:.2f}"
        )
    if s is None:
        return head + f"{int(agg['hands'][0]):,} hands" if "hands" in agg.counters else head
    return (
        head + f"{s['hands']:,} hands, {s['complete']:,} complete" + (f", {legal}" if legal else "")
    )


def print_fan_table(agg, top: int) -> None:
    """Print the headline and the fan-frequency table of an aggregate (rich table),
    with the key to its columns and convention below it.

    Probabilities have three significant digits (scientific below 1e-4), so
    the rarest fans show; the table is left out when no hand is complete. The
    table is as wide as the terminal allows (``$COLUMNS`` in a pipe, else 130):
    below 100 columns its headers are short and the key says what they mean.
    """
    from rich.table import Table

    # deferred: `mjstats --help` loads no kernels
    from mjstats.cli._console import console as make_console
    from mjstats.report import fan_table
    from mjstats.report import format_probability as fp

    console = make_console(130)
    console.print(study_header(agg))
    if "cooccurrence" not in agg.counters or not agg["complete"][0]:
        return
    t = fan_table(agg)
    t = t[t["hands"] > 0].sort_values("frequency", ascending=False)
    seen = len(t)
    if top:
        t = t.head(top)
    exact = bool(agg.params.get("exact"))
    short = console.width < 100
    table = Table(show_edge=False, header_style="bold", pad_edge=False)
    table.add_column("fan", justify="left")  # the one column that wraps (at spaces)
    table.add_column("pts" if short else "points", justify="right", no_wrap=True)
    table.add_column("P" if short else "frequency", justify="right", no_wrap=True)
    if not exact:
        table.add_column("95% CI", justify="right", no_wrap=True)
    table.add_column("E\\[pts]" if short else "expected points", justify="right", no_wrap=True)
    for row in t.itertuples(index=False):
        cells = [f"{row.zh} {row.en}", str(row.points), fp(row.frequency)]
        if not exact:
            cells.append(f"{fp(row.ci_low)}-{fp(row.ci_high)}")
        cells.append(format(float(row.expected_points), "#.3g"))
        table.add_row(*cells)
    console.print(table)
    needed = _table_width(table)
    if needed > console.width:
        console.print(f"(fan names wrap: the table is {needed} columns wide; widen the terminal)")
    for line in fan_table_key(agg, shown=len(t), seen=seen, short=short):
        console.print(line, markup=False, highlight=False)  # wrapped at spaces


def _table_width(table) -> int:
    """Columns a rich table takes unwrapped."""
    import io

    from rich.console import Console

    return Console(file=io.StringIO(), width=10_000).measure(table).maximum


def fan_table_key(agg, shown: int, seen: int, short: bool = False) -> list[str]:
    """What the fan table's columns and convention are (printed below it).

    Examples
    --------
    >>> from mjstats.studies.aggregate import Aggregate
    >>> agg = Aggregate("sample", {"convention": "self-drawn; East/East"}, {})
    >>> for line in fan_table_key(agg, shown=25, seen=61)[:2]:
    ...     print(line)
    first 25 of the 61 fans seen, most frequent first (--top 0 prints all)
    frequency: share of complete hands with the fan; 95% CI: its Wilson interval
    """
    per = "win" if agg.kind in ("games", "records", "play") else "complete hand"
    lines = []
    if shown < seen:
        lines.append(
            f"first {shown} of the {seen} fans seen, most frequent first (--top 0 prints all)"
        )
    names = (
        ("P", "E[pts]", "pts: the fan's points; ")
        if short
        else ("frequency", "expected points", "")
    )
    ci = "" if agg.params.get("exact") else "; 95% CI: its Wilson interval"
    lines.append(f"{names[2]}{names[0]}: share of {per}s with the fan{ci}")
    lines.append(
        f"{names[1]}: the fan's points per {per} on average (a fan scored twice in a hand "
        "counts twice)"
    )
    if "cooccurrence" in agg.counters and agg.kind not in ("games", "records", "play"):
        lines.append(
            "P(legal | complete): share of complete hands that reach the ruleset's minimum "
            "total (8 points in MCR)"
        )
    if agg.params.get("convention") or agg.kind == "dealt":
        lines.append(
            "convention: every hand is concealed and self-drawn, seat and round wind East, no "
            "flowers; so it scores 不求人 Fully Concealed Hand (self-drawn included), unless a "
            "fan that implies concealment excludes it (七对 Seven Pairs, the knitted and other "
            "special forms), and then 自摸 Self-Drawn"
        )
    return lines


def write_study_outputs(agg, out: Path) -> list[Path]:
    """Write ``aggregate.json`` and the standard report tables (CSV, each with its
    provenance sidecar) into folder ``out``."""
    # deferred: `mjstats --help` loads no kernels
    from mjstats.provenance import provenance
    from mjstats.report import fan_table, form_table, payments, total_distribution, write_report

    out.mkdir(parents=True, exist_ok=True)
    prov = provenance(agg)
    paths = [agg.save(out / "aggregate.json")]
    tables = []
    if "cooccurrence" in agg.counters:
        tables += [(fan_table, "fans"), (total_distribution, "totals"), (form_table, "forms")]
        tables.append((payments, "payments"))
    if agg.kind == "dealt":
        # deferred: `mjstats --help` loads no kernels
        from mjstats.studies.dealt import shanten_table, useful_table

        tables.append((shanten_table, "shanten"))
        if "useful_kinds_hist" in agg.counters:
            tables.append((lambda a: useful_table(a, "kinds"), "useful_kinds"))
            tables.append((lambda a: useful_table(a, "copies"), "useful_copies"))
    if agg.kind == "play":
        # deferred: `mjstats --help` loads no kernels
        from mjstats.studies.play import win_curve

        tables.append((win_curve, "win_curve"))
    if agg.kind == "games":
        # deferred: `mjstats --help` loads no kernels
        from mjstats.studies.games import game_fan_table, game_length_table, meld_table, seat_table

        tables[0] = (game_fan_table, "fans")
        tables += [(seat_table, "seats"), (game_length_table, "lengths"), (meld_table, "melds")]
        if "claim_counts" in agg.counters:
            # deferred: `mjstats --help` loads no kernels
            from mjstats.studies.game_stats import claim_table

            tables.append((claim_table, "claims"))
    for make, name in tables:
        paths.append(write_report(make(agg), out / f"{name}.csv", prov=prov))
    return paths


def _run(kind, ruleset, n, seed, tiles, useful, per_form, policy, draws, last_tile, wall,
         round_wind, records, checkpoint, resume, dask_address, threads, progress):  # fmt: skip
    import numba

    # deferred: `mjstats --help` loads no kernels
    from mjstats.errors import GameError
    from mjstats.studies import KINDS, StudyInterrupted, make_study, run_study
    from mjstats.studies.interrupts import EXIT_INTERRUPTED

    if threads is not None:
        numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    ctx = click.get_current_context()
    if resume is not None:
        checkpoint = _resume_path(resume, checkpoint)
        study = _resumed_study(checkpoint, ctx)
    else:
        cls = _study_class(kind)
        params = {"seed": seed, "ruleset": ruleset}
        if cls.default_n is None and n is not None:
            raise click.UsageError(f"{kind} takes no --n (it has no sample size)")
        if cls.default_n is not None:
            params[cls.count_param] = cls.default_n if n is None else n
        try:  # a parameter the study refuses (e.g. more draws than the wall holds)
            params.update(cls.cli_params(_study_options(kind, ctx)))
            study = make_study(kind, **params)
        except (TypeError, ValueError) as exc:
            raise click.UsageError(str(exc)) from None
    for option, attribute in _RUN_OPTIONS.items():  # of the study run, resumed or not
        if ctx.params.get(option) is not None and not hasattr(study, attribute):
            kinds = [k for k in KINDS if hasattr(_study_class(k), attribute)]
            raise click.UsageError(
                f"--{option} applies to study {' and '.join(kinds)}, not to {study.kind}"
            )
    options = dict(dask=dask_address, checkpoint=checkpoint, resume=resume is not None,
                   progress=progress)  # fmt: skip
    try:
        if records is None:
            agg = run_study(study, **options)
        else:
            # deferred: `mjstats --help` loads no kernels
            from mjstats.games import GameOptionError
            from mjstats.games.records import RecordsResumeError
            from mjstats.studies.games import run_games

            try:
                agg = run_games(study, records, **options)
            except GameOptionError as exc:  # the wall, --dask, a Dask checkpoint
                raise click.UsageError(str(exc)) from None
            except RecordsResumeError as exc:
                raise click.ClickException(str(exc)) from None
    except GameError as exc:  # a game stopped: say which, no traceback
        raise click.ClickException(str(exc)) from None
    except StudyInterrupted as exc:
        cmd = f"mjstats study --resume {exc.checkpoint}"
        if records is not None:
            cmd += f" --records {records}"
        error = click.ClickException(
            f"interrupted; progress saved to {exc.checkpoint}; finish with: {cmd}"
        )
        error.exit_code = EXIT_INTERRUPTED
        raise error from None
    return agg


def _resume_path(resume: str, checkpoint: Path | None) -> Path:
    """The checkpoint to resume: ``--resume FILE``, or ``--checkpoint FILE --resume``."""
    if not resume:
        if checkpoint is None:
            raise click.UsageError("--resume needs a checkpoint: --resume FILE")
        return checkpoint
    if checkpoint is not None and Path(resume) != checkpoint:
        raise click.UsageError(
            f"--resume {resume} and --checkpoint {checkpoint} name different files"
        )
    return Path(resume)


def _resumed_study(path: Path, ctx: click.Context):
    """The checkpoint's study; an option given that contradicts it is a usage error.

    Giving a parameter again with the checkpoint's value is fine (``mjstats
    study sample --seed 3 --resume F`` for a checkpoint of seed 3): each given
    option is applied to the checkpoint's parameters, and the study they make
    must be the checkpoint's.
    """
    # deferred: `mjstats --help` loads no kernels
    from mjstats.errors import DataFileError
    from mjstats.studies.checkpoint import checkpoint_study, study_from_params

    study = checkpoint_study(path)
    params = study.params()
    cls = type(study)
    where = f"the checkpoint {path} (a {study.kind} study)"
    given = _given(ctx)
    if "kind" in given and given["kind"] != study.kind:
        raise click.UsageError(f"KIND {given['kind']} contradicts {where}")
    for name, value in given.items():
        if name not in ("n", "seed", "ruleset", *cls.cli_options):
            if name in _study_option_names():
                raise click.UsageError(f"{_shown(name, value)} does not apply to {where}")
            continue  # an option of the run (--out, --threads, ...)
        key = cls.count_param if name == "n" else name
        try:
            if name == "n" and cls.default_n is None:
                raise ValueError(f"{study.kind} takes no --n")
            common = name in ("n", "seed", "ruleset")
            change = {key: value} if common else cls.cli_params({name: value})
            mine = study_from_params(study.kind, {**params, **change}).params()
        except (DataFileError, TypeError, ValueError) as exc:
            raise click.UsageError(f"{_shown(name, value)} contradicts {where}: {exc}") from None
        for k in mine:
            if mine[k] != params.get(k):
                raise click.UsageError(
                    f"{_shown(name, value)} contradicts {where}, whose {k} is {params.get(k)}"
                )
    return study


def _study_option_names() -> set[str]:
    """The options that set a parameter of some kind of study (the others are the run's)."""
    # deferred: `mjstats --help` loads no kernels
    from mjstats.studies import KINDS

    return {"n", "seed", "ruleset"}.union(*(_study_class(k).cli_options for k in KINDS))


def _shown(name: str, value) -> str:
    """An option as the user wrote it: ``--seed 3``, ``--no-useful``, ``--policy a --policy b``."""
    if isinstance(value, tuple):
        return " ".join(f"--{name.replace('_', '-')} {v}" for v in value)
    flag = f"--{'' if value is not False else 'no-'}{name.replace('_', '-')}"
    return flag if isinstance(value, bool) else f"{flag} {value}"


def _json_summary(agg) -> dict:
    """What the study of the aggregate's kind says about it (its ``summary_json``)."""
    return _study_class(agg.kind).summary_json(agg)


class _Count(click.ParamType):
    """A count 0 to 2**63-1, written as an integer or exactly in E notation (1e13)."""

    name = "count"

    def convert(self, value, param, ctx):
        if isinstance(value, int):
            n = value
        else:
            from decimal import Decimal, InvalidOperation

            text = str(value).strip().replace("_", "")
            try:
                d = Decimal(text) if len(text) < 40 else Decimal("NaN")
            except InvalidOperation:
                d = Decimal("NaN")
            if not d.is_finite() or d != d.to_integral_value() or abs(d.adjusted()) > 40:
                self.fail(
                    f"{value!r} is not a whole number (write e.g. 1000000 or 1e6)", param, ctx
                )
            n = int(d)
        if not 0 <= n <= 2**63 - 1:
            self.fail(f"{value} is not in the range 0 to 2**63-1", param, ctx)
        return n


_COUNT = _Count()


def _check_dask(value: str | None) -> str | None:
    if value is not None:
        # deferred: `mjstats --help` loads no kernels
        from mjstats.studies.dask_backend import check_address

        try:
            check_address(value)
        except ValueError as exc:
            raise click.BadParameter(str(exc)) from None
        except ImportError as exc:  # no dask extra: a failure, not a usage error
            raise click.ClickException(str(exc)) from None
    return value


@click.command("study")
@click.argument(
    "kind",
    type=click.Choice(["sample", "dealt", "exact", "play", "games"]),
    default="sample",
    required=False,
)
@click.option("--ruleset", default="mcr", show_default=True, help="Ruleset (mcr, two-player).")
@click.option(
    "--n",
    "n",
    type=_COUNT,
    default=None,
    help="Hands, deals or games, e.g. 1000000 or 1e6 "
    "[default: 1e6; play: 20000; games: 10000; exact: all].",
)
@click.option(
    "--seed",
    type=SEED,
    default=0,
    show_default=True,
    help="Seed: the same seed gives the same numbers on any machine or backend.",
)
@click.option(
    "--tiles",
    type=click.Choice(["13", "14"]),
    default="14",
    show_default=True,
    help="dealt: tiles per deal.",
)
@click.option(
    "--useful/--no-useful",
    default=False,
    show_default=True,
    help="dealt: also useful-tile statistics (slower).",
)
@click.option(
    "--per-form/--no-per-form",
    default=False,
    show_default=True,
    help="dealt: also the shanten of each form (slower).",
)
@click.option(
    "--policy",
    multiple=True,
    metavar="NAME",
    help="play: discard policy (efficiency, fan-aware) [default: efficiency]. games: the "
    "seats' policy (random, efficiency, fan-aware, planner), once for all or once per seat (four; "
    "two in two-player), East first [default: efficiency, the fastest; planner plays like real "
    "players, with --wall botzone as they played].",
)
@click.option(
    "--draws",
    type=click.IntRange(min=1),
    default=21,
    show_default=True,
    help="play: draws per game at most (21 = one player's share of the wall).",
)
@click.option(
    "--last-tile/--no-last-tile",
    default=False,
    show_default=True,
    help="play: the final draw is the last tile of the wall (scores 妙手回春).",
)
@click.option(
    "--wall",
    type=click.Choice(["shared", "botzone"]),
    default=None,
    help="games: the shared 144-tile wall with flowers, or Botzone's 136 tiles in four "
    "segments [default: shared].",
)
@click.option(
    "--round-wind",
    type=click.IntRange(0, 3),
    default=None,
    help="games: the round wind, 0-3 = East South West North [default: 0].",
)
@click.option(
    "--records",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    metavar="FILE",
    help="games: write the games to FILE in Botzone's text data-set format as they are "
    "played, in game order (the botzone wall only; not with --dask; with --resume, give "
    "the interrupted run's FILE: it is cut after the checkpoint's games and continued). "
    "Check it with: mjstats records FILE --check.",
)
@click.option(
    "--top",
    type=click.IntRange(min=0),
    default=25,
    show_default=True,
    help="Rows of the fan table to print (0 = all).",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Write aggregate.json and report tables (CSV) into this folder.",
)
@click.option(
    "--json",
    "json_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write the headline numbers and fan probabilities as JSON.",
)
@click.option(
    "--checkpoint",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Save progress here regularly (and on Ctrl-C).",
)
@click.option(
    "--resume",
    is_flag=False,
    flag_value="",
    default=None,
    metavar="[FILE]",
    help="Continue from checkpoint FILE (or --checkpoint's), with its parameters.",
)
@click.option(
    "--dask",
    "dask_address",
    default=None,
    metavar="ADDRESS",
    callback=lambda ctx, param, value: _check_dask(value),
    help="Run on Dask: a scheduler address, 'local' or 'local:N' workers.",
)
@click.option(
    "--threads",
    type=click.IntRange(min=1),
    default=None,
    help="numba threads [default: all cores].",
)
@click.option(
    "--progress/--no-progress",
    default=None,
    help="Progress bar [default: on when stderr is a terminal].",
)
def command(
    kind,
    ruleset,
    n,
    seed,
    tiles,
    useful,
    per_form,
    policy,
    draws,
    last_tile,
    wall,
    round_wind,
    records,
    top,
    out,
    json_path,
    checkpoint,
    resume,
    dask_address,
    threads,
    progress,
):
    """Run a fan-probability study and print the fan-frequency table.

    \b
    KIND (default: sample):
      sample  exactly distributed random complete hands (fast)
      dealt   random deals: shanten per form, useful tiles, fans of complete deals
      exact   every distinct complete hand, weighted: exact probabilities (minutes)
      play    solitaire games with a discard policy: P(win by draw t), fans, points
      games   four-player MCR games played by the engine's policies: wins,
              deal-ins and points per seat, fans per win and per game

    Convention for fan probabilities (sample, dealt, exact): a random 14-tile
    deal conditioned on being complete, a uniformly random winning tile among
    the 14, self-drawn, seat and round wind East, no flowers or melds.

    \b
    Examples:
      mjstats study                                  # 1M sampled hands, seed 0
      mjstats study exact --json exact.json
      mjstats study dealt --n 200000 --seed 7 --out results/dealt
      mjstats study dealt --n 100000000 --tiles 13          # fast: all-forms shanten
      mjstats study play --policy fan-aware --n 20000 --draws 21
      mjstats study games --n 10000 --policy efficiency --wall shared
      mjstats study games --policy efficiency --policy random --policy random --policy random
      mjstats study games --n 100000 --wall botzone --records games.txt
      mjstats records games.txt --check        # every win of the written games, scored again
      mjstats study sample --n 100000000 --checkpoint run.ckpt    # Ctrl-C, then:
      mjstats study --resume run.ckpt          # the same study, parameters from run.ckpt
      mjstats study sample --dask local:2
    """
    # deferred: `mjstats --help` loads no kernels
    from mjstats.studies.interrupts import deferred_interrupts

    # Ctrl-C from here on: at once while nothing is done, else at the next chunk
    # group with the progress saved (Dask runs always wait for the next result);
    # once the study is done, its output is written whole
    with deferred_interrupts(exit_when_idle=dask_address is None) as guard:
        agg = _run(kind, ruleset, n, seed, tiles, useful, per_form, policy, draws, last_tile, wall,
                   round_wind, records, checkpoint, resume, dask_address, threads,
                   progress)  # fmt: skip
        guard.idle = False  # done: a Ctrl-C now waits for the output to be written
        print_fan_table(agg, top)
        if agg.kind == "dealt":  # the checkpoint's kind when resumed
            _print_dealt_tables(agg)
        if agg.kind == "play":
            # deferred: `mjstats --help` loads no kernels
            from mjstats.studies.play import play_summary, win_curve

            s = play_summary(agg)
            click.echo(
                f"policy {agg.params['policy']}: {s['games']:,} games of at most "
                f"{agg.params['draws']} draws, "
                f"P(legal win) = {s['p_win']:.4f}, mean fan of wins {s['mean_fan']:.2f}, "
                f"points per game {s['points_per_game']:.3f}, mean draw of wins "
                f"{s['mean_win_draw']:.2f}"
            )
            curve = win_curve(agg)
            click.echo(curve.to_string(index=False, float_format=_fp))
        if agg.kind == "games":
            _print_games_tables(agg)
        if out is not None:
            for p in write_study_outputs(agg, out):
                click.echo(f"wrote {p}", err=True)
        if json_path is not None:
            # deferred: `mjstats --help` loads no kernels
            from mjstats.provenance import provenance, write_json

            write_json(json_path, _json_summary(agg), provenance(agg))
            click.echo(f"wrote {json_path}", err=True)


def _fp(x: float) -> str:
    # deferred: `mjstats --help` loads no kernels
    from mjstats.report import format_probability

    return format_probability(x)


def _print_dealt_tables(agg) -> None:
    """The shanten distribution and, with --useful, the useful-tile distributions."""
    # deferred: `mjstats --help` loads no kernels
    from mjstats.studies.dealt import shanten_table, useful_table

    click.echo("shanten (-1 = complete): probability per form")
    click.echo(shanten_table(agg).to_string(index=False, float_format=_fp))
    if "useful_kinds_hist" not in agg.counters:
        return
    after = " after the best discard" if agg.params.get("tiles") == 14 else ""
    kinds = useful_table(agg, "kinds")
    click.echo(f"\nuseful tile kinds{after}: deals, probability, P(at least)")
    click.echo(kinds.to_string(index=False, float_format=_fp))
    # the copies take up to 137 values: their quantiles (the whole table is in --out/--json)
    copies = useful_table(agg, "copies")
    cdf = copies["deals"].cumsum() / max(int(copies["deals"].sum()), 1)
    q = {f"{p:.0%}": int(copies["useful"][(cdf >= p).to_numpy().argmax()]) for p in (0.1, 0.5, 0.9)}
    mean = float((copies["useful"] * copies["probability"]).sum())
    quantiles = ", ".join(f"{k} {v}" for k, v in q.items())
    click.echo(f"\nuseful copies unseen{after}: mean {mean:.2f}; quantiles {quantiles}")


def _print_games_tables(agg) -> None:
    """The headline of a games study and its table per seat."""
    # deferred: `mjstats --help` loads no kernels
    from mjstats.studies.games import games_summary, seat_table

    s = games_summary(agg)
    click.echo(
        f"{s['games']:,} games on the {agg.params['wall']} wall: {s['wins']:,} won "
        f"({s['self_drawn']:,} self-drawn, {s['robbed_kong']:,} robbing a kong), "
        f"{s['drawn']:,} drawn (P = {_fp(s['p_drawn'])}); mean total of wins "
        f"{s['mean_total']:.2f}; {s['mean_draws']:.1f} draws and "
        f"{s['claims_per_game']:.2f} claims a game; the winner has "
        f"{s['melds_per_win']:.2f} melds, {s['claims_per_win']:.2f} claimed"
    )
    t = seat_table(agg)[
        ["seat", "policy", "wins", "p_win", "self_drawn", "deal_ins", "p_deal_in",
         "points_mean", "points_sd"]
    ]  # fmt: skip
    click.echo(t.to_string(index=False, float_format=lambda x: f"{x:.4g}"))
    if "claim_counts" in agg.counters:
        # deferred: `mjstats --help` loads no kernels
        from mjstats.studies.game_stats import claim_table

        c = claim_table(agg).set_index("claim")
        rates = ", ".join(f"{k} {c.loc[k, 'taken_rate']:.1%}" for k in ("chow", "pung", "kong"))
        click.echo(f"claims taken per legal chance: {rates} (report --table claims)")
    # deferred: `mjstats --help` loads no kernels
    from mjstats.games.engine import POLICIES

    seats = list(agg.params.get("policy") or [])
    if len(seats) == 4 and set(seats) <= set(POLICIES) - {"planner"}:
        # the fans of these policies' games are not those of real play (issue 32): say
        # which policy plays like real players, once, where the numbers are printed
        names = sorted(set(seats))
        who = " and ".join(names) + (" policy" if len(names) == 1 else " policies")
        note = (
            f"note: these are the fans of games played by the {who}, whose play is unlike "
            "real players' (docs/games.md measures it); --policy planner --wall botzone plays "
            "like them (mjstats report DIR --table reference compares)"
        )
        click.echo(click.wrap_text(note, width=min(width(100), 100)))
