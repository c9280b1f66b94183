"""Benchmarks of mjstats against its peers, measured side by side in one run.

The same measurements back the command line (``mjstats bench``), the scripts in
``benchmarks/`` and notebooks::

    >>> from mjstats.bench import run_benchmarks, to_frame    # doctest: +SKIP
    >>> rows = run_benchmarks(quick=True)                      # doctest: +SKIP
    >>> to_frame(rows)[["task", "peer", "ratio", "goal_met"]]  # doctest: +SKIP

Tasks (:data:`TASKS`; one or more result rows each)
---------------------------------------------------
====================  ==========================================================
shanten               all 5 MCR forms vs PyMahjongGB ``MahjongShanten``
                      (goal >= 100x)
shanten_regular       regular form vs the riichi ``mahjong`` library
                      (goal <= 50 ns per hand per thread)
shanten_riichi_forms  regular + seven pairs + thirteen orphans vs ``xiangting``
                      and ``riichienv`` (Rust; they have no regular-only call)
useful_tiles          useful tiles, regular form, vs PyMahjongGB
                      ``RegularShanten`` (goal >= 50x)
score                 scoring mixed hands (melds, kongs, special forms, flags)
                      vs ``MahjongFanCalculator``: ``score_batch`` on all cores
                      (goal >= 20x) and on one thread (the ratio per core)
score_concealed       scoring random concealed wins, same peer and rows
score_text            hand text in, totals out (``HandBatch.from_text`` +
                      ``score_batch``, all cores) vs ``MahjongFanCalculator``
                      given its own argument tuples (goal >= 1M hands/s, >= 5x)
score_one             one hand a call: ``score(text)``, ``score(Hand)`` vs
                      ``MahjongFanCalculator`` on real hands (goal <= 20 us a call)
exact                 the exact enumeration's run time (quick: a timed fraction,
                      extrapolated, and the note says so)
dealt, sample, play   study throughput (``play`` only where that kind exists)
games                 four-player MCR hands through ``mjstats.games.play_games``:
                      all cores (goals: ``random`` >= 100,000, ``efficiency``
                      >= 20,000 games/s) and one thread vs ``riichienv``
                      (one-hand riichi games, first legal action) and the
                      published riichi per-core figures
threads               all cores vs 1 thread (wall time)
batch_size            hands per second at 1, 100, 10k and 1M hands per call
records               reading Botzone records vs a bare Python line split
decisions             encoding simulated games' decisions (planes, the Botzone
                      baseline's observation and 235-action mask), all cores,
                      in memory (goal >= 1,000,000 decisions/s); records read
                      into decisions (>= 20,000 games/s); the review of
                      sample.txt (<= 60 s); ``write_decisions`` vs the disk
                      writing the same files (goal <= 1.25 x its time)
analyze_batch         ``analyze_batch`` of random 14-tile positions, all cores:
                      shanten + useful tiles of every option vs PyMahjongGB's
                      five ``*Shanten`` calls per discard, and every column
                      (goal >= 50,000 positions/s)
cold_start            each command that compiles (``score HAND``, ``study
                      sample``, ``analyze``; full size also ``study dealt``,
                      ``study play``, ``replay``) in a fresh process with an
                      empty cache of its own, then ``score HAND`` again with
                      the cache filled; ``score`` vs PyMahjongGB's import +
                      first call (goals <= 10 s cold, <= 1.5 s warm)
warm_start            ``score HAND`` with the user's cache filled (<= 1.5 s)
memory                peak memory growth of ``score_batch`` and ``shanten``
                      per million hands (a fresh process)
====================  ==========================================================

How it measures (details in :mod:`mjstats.bench.measure`)
---------------------------------------------------------
Warm-up first; best of several runs; mjstats and the peer alternate so they
see the same load; per-thread rates are **CPU time at one numba thread**
(``threads`` = 1), rates on all cores wall-clock time (``threads`` > 1);
peers are called once per hand from Python with their arguments built
beforehand. ``ratio`` = mjstats rate / peer rate (> 1: mjstats
is faster); ``agree`` counts equal answers on the peer's hands (a fast wrong
answer means nothing). A peer that is not installed gets a row with a note and
no rate (``pip install 'mjstats[bench]'`` installs them all).

Row fields (:data:`ROW_FIELDS`): ``task``, ``what``, ``mjstats_per_s``,
``peer``, ``peer_per_s``, ``ratio``, ``unit`` (what is counted per second),
``ns_per_item`` (1e9 / ``mjstats_per_s``), ``threads``, ``n`` (items timed per
call), ``peer_n``, ``seconds`` (start-up time; run time of the exact
enumeration; time per call for ``batch_size``), ``value`` / ``value_unit``
(memory), ``goal`` / ``goal_met``, ``agree``, ``note``.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from typing import Any

from mjstats.bench.measure import ROW_FIELDS
from mjstats.compiling import notice, redirect

__all__ = [
    "ROW_FIELDS",
    "TASKS",
    "environment",
    "format_table",
    "run_benchmarks",
    "to_frame",
    "to_markdown",
]

TASKS: tuple[str, ...] = (
    "shanten",
    "shanten_regular",
    "shanten_kernel",
    "shanten_riichi_forms",
    "useful_tiles",
    "score",
    "score_concealed",
    "score_text",
    "score_one",
    "exact",
    "dealt",
    "sample",
    "play",
    "games",
    "threads",
    "batch_size",
    "records",
    "decisions",
    "analyze_batch",
    "cold_start",
    "warm_start",
    "memory",
)
"""Benchmark task names, in the order they run."""


def _task_func(name: str):
    # deferred: `mjstats bench --help` imports no tasks, peers or kernels
    from mjstats.bench.startup import STARTUP_FUNCS
    from mjstats.bench.tasks import TASK_FUNCS

    return TASK_FUNCS.get(name) or STARTUP_FUNCS[name]


def _task_line(head: str, progress: bool):
    """A compile notice's display: the task's progress line, redrawn on a terminal."""
    tty = progress and sys.stderr.isatty()

    def show(text: str | None) -> None:
        if tty:
            more = "" if text is None else f" ({text.removeprefix('mjstats: ')})"
            print(f"\r\x1b[2K{head}{more}", end="", file=sys.stderr, flush=True)

    return show


def run_benchmarks(
    quick: bool = True,
    tasks: Sequence[str] | None = None,
    progress: bool = False,
    *,
    scale: float = 1.0,
    seed: int = 2024,
    sizes: dict[str, Any] | None = None,
) -> list[dict[str, Any]]:
    """Measure mjstats and its peers; one dict per result row.

    Parameters
    ----------
    quick : bool
        Quick sizes (a few minutes for all tasks, most of it the cold start,
        which compiles three commands from empty caches; the exact enumeration is timed on
        a fraction and extrapolated). False: full sizes (several minutes; the
        whole exact enumeration).
    tasks : sequence of str, optional
        Names from :data:`TASKS` (default: all), run in :data:`TASKS` order.
    progress : bool
        Print each task's name and time to stderr as it runs.
    scale : float
        Multiply every size (e.g. 0.01 for a smoke test; rates from tiny sizes
        are not meaningful).
    seed : int
        Seed of the random hands.
    sizes : dict, optional
        Sizes to set after ``quick`` and ``scale`` chose theirs (fields of
        :class:`mjstats.bench.tasks.Sizes`, e.g. ``{"games": 20_000,
        "repeat": 5}``): what the scripts in ``benchmarks/`` vary.

    Returns
    -------
    list of dict
        Rows with the keys :data:`ROW_FIELDS` (see the module docstring).

    Raises
    ------
    ValueError
        An unknown task name.

    Examples
    --------
    >>> rows = run_benchmarks(tasks=["batch_size"], scale=1e-4)
    >>> sorted({r["task"] for r in rows}), rows[0]["unit"], rows[0]["threads"]
    (['batch_size'], 'hands', 1)
    >>> run_benchmarks(tasks=["nope"])
    Traceback (most recent call last):
    ...
    ValueError: unknown benchmark task 'nope'; choose from shanten, shanten_regular, ...
    """
    from dataclasses import fields, replace

    # deferred: `mjstats bench --help` imports no tasks, peers or kernels
    from mjstats.bench.tasks import FULL, QUICK, Context

    wanted = list(TASKS) if tasks is None else list(dict.fromkeys(tasks))
    for name in wanted:
        if name not in TASKS:
            raise ValueError(f"unknown benchmark task {name!r}; choose from {', '.join(TASKS)}")
    order = [name for name in TASKS if name in wanted]
    chosen = (QUICK if quick else FULL).scaled(scale)
    unknown = set(sizes or {}) - {f.name for f in fields(chosen)}
    if unknown:
        raise ValueError(f"unknown benchmark sizes {sorted(unknown)}; see bench.tasks.Sizes")
    ctx = Context(replace(chosen, **(sizes or {})), quick=quick, progress=progress)
    ctx.seed = seed
    rows: list[dict[str, Any]] = []
    start = time.perf_counter()
    for i, name in enumerate(order, 1):
        head = f"[{i}/{len(order)}] {name} ..."
        if progress:
            print(head, end="", file=sys.stderr, flush=True)
        t0 = time.perf_counter()
        # a task that compiles says so on its own line: "[1/3] shanten ... (compiling ...)"
        with redirect(_task_line(head, progress)), notice("bench", progress):
            rows.extend(_task_func(name)(ctx))
        if progress:
            print(f" {time.perf_counter() - t0:.1f} s", file=sys.stderr, flush=True)
    if progress:
        print(f"done in {time.perf_counter() - start:.1f} s", file=sys.stderr, flush=True)
    return rows


def to_frame(rows: Sequence[dict[str, Any]]):
    """The rows as a pandas DataFrame with the columns :data:`ROW_FIELDS`.

    Examples
    --------
    >>> from mjstats.bench.measure import make_row
    >>> df = to_frame([make_row("score", "x", per_s=2e6, unit="hands", peer="p", peer_per_s=5e4)])
    >>> df.loc[0, "task"], float(df.loc[0, "ratio"])
    ('score', 40.0)
    """
    import pandas as pd

    return pd.DataFrame(list(rows), columns=list(ROW_FIELDS))


def environment() -> dict[str, str]:
    """The machine and versions a run is measured on (for the table's header).

    Examples
    --------
    >>> sorted(environment())[:3]
    ['cpu', 'cpus', 'date']
    """
    import os
    import platform
    from datetime import datetime, timezone

    import numba
    import numpy

    # deferred: `mjstats bench --help` imports no tasks, peers or kernels
    from mjstats._version import __version__
    from mjstats.bench.peers import PEERS, describe

    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "cpu": cpu,
        "cpus": str(os.cpu_count()),
        "numba_threads": str(numba.config.NUMBA_NUM_THREADS),
        "os": f"{platform.system()} {platform.release()}",
        "python": platform.python_version(),
        "versions": f"mjstats {__version__}, numpy {numpy.__version__}, numba {numba.__version__}",
        "peers": ", ".join(describe(name) for name in PEERS),
    }


def _si(x: float) -> str:
    for div, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(x) >= div:
            return f"{x / div:.3g}{suffix}"
    return f"{x:.3g}"


def _cells(row: dict[str, Any]) -> list[str]:
    unit = row["unit"] or ""
    if row["unit"] == "starts":
        ours = f"{row['seconds']:.2f} s" if row["seconds"] is not None else "-"
        peer = f"{1 / row['peer_per_s']:.2f} s" if row["peer_per_s"] else "-"
        ns = "-"
    elif row["value"] is not None:
        ours, peer, ns = f"{row['value']:.0f} {row['value_unit']}", "-", "-"
    else:
        ours = f"{_si(row['mjstats_per_s'])} {unit}/s" if row["mjstats_per_s"] else "-"
        if row["task"] == "exact" and row["seconds"] is not None:
            ours += f" ({row['seconds']:.0f} s)"
        elif row["task"] == "batch_size" and row["seconds"] is not None:
            ours += f" ({row['seconds'] * 1e6:,.0f} µs/call)"
        peer = f"{_si(row['peer_per_s'])} {unit}/s" if row["peer_per_s"] else "-"
        ns = f"{row['ns_per_item']:,.0f}" if row["ns_per_item"] else "-"
    ratio = f"{row['ratio']:.3g}x" if row["ratio"] else "-"
    if row["goal"] is None:
        goal = ""
    elif row["goal_met"] is None:
        goal = f"n/a ({row['goal']})"
    else:
        goal = f"{'met' if row['goal_met'] else 'NOT MET'} ({row['goal']})"
    n = _si(row["n"]) if row["n"] else "-"
    threads = str(row["threads"]) if row["threads"] else "-"
    return [
        row["task"],
        row["what"],
        n,
        threads,
        ours,
        ns,
        row["peer"] or "-",
        peer,
        ratio,
        row["agree"] or "",
        goal,
    ]


_HEADER = [
    "task",
    "what",
    "n",
    "thr",
    "mjstats",
    "ns/item",
    "peer",
    "peer rate",
    "ratio",
    "agree",
    "goal",
]


def _notes(rows: Sequence[dict[str, Any]]) -> list[str]:
    seen: dict[str, None] = {}
    for row in rows:
        if row["note"]:
            label = row["task"] + (f" vs {row['peer']}" if row["peer"] else "")
            seen.setdefault(f"{label}: {row['note']}", None)
    return list(seen)


def format_table(
    rows: Sequence[dict[str, Any]], env: dict[str, str] | None = None, width: int = 240
) -> str:
    """The rows as a text table (rich), with the environment above and the notes below,
    ``width`` columns wide at most (lines wrapped at spaces). A table wider than that
    becomes one block per row (task and what, then the figures), and says how to get
    the table.

    Examples
    --------
    >>> from mjstats.bench.measure import make_row
    >>> text = format_table([make_row("score", "x", per_s=2e6, unit="hands")], env={})
    >>> "2M hands/s" in text
    True
    >>> row = make_row("score", "x", per_s=2e6, unit="hands")
    >>> print(format_table([row], width=40))  # doctest: +NORMALIZE_WHITESPACE
    score: x
      mjstats 2M hands/s, 500 ns/item
    (each row as a block at 40 columns; the
    table needs 89: widen the terminal, set
    COLUMNS, or use --markdown)
    <BLANKLINE>
    """
    import io

    from rich.console import Console
    from rich.table import Table

    table = Table(show_lines=False, pad_edge=False)
    for i, name in enumerate(_HEADER):
        table.add_column(name, justify="right" if 2 <= i <= 8 and i != 6 else "left")
    for row in rows:
        table.add_row(*_cells(row))
    buf = io.StringIO()
    console = Console(file=buf, width=width, color_system=None, highlight=False)
    if env:
        console.print(" | ".join(f"{k}: {v}" for k, v in env.items()))
    wide = Console(file=io.StringIO(), width=10_000, color_system=None)
    needed = wide.measure(table).maximum
    if needed <= width:
        console.print(table)
    else:
        for row in rows:
            console.print(_block(_cells(row)))
        console.print(
            f"(each row as a block at {width} columns; the table needs {needed}: widen the "
            "terminal, set COLUMNS, or use --markdown)"
        )
    for note in _notes(rows):
        console.print(f"- {note}")
    return buf.getvalue()


def _block(cells: list[str]) -> str:
    """One row of the table as two lines: ``task: what``, then its figures by name."""
    task, what, n, threads, ours, ns, peer, peer_rate, ratio, agree, goal = cells
    figures = [f"mjstats {ours}" + (f", {ns} ns/item" if ns != "-" else "")]
    if n != "-":
        on = f" on {threads} thread{'' if threads == '1' else 's'}" if threads != "-" else ""
        figures.insert(0, f"n {n}{on}")
    if peer != "-":
        figures.append(f"peer {peer} {peer_rate}, ratio {ratio}")
    figures += [f"agree {agree}"] * bool(agree) + [f"goal {goal}"] * bool(goal)
    return f"{task}: {what}\n  " + "; ".join(figures)


def to_markdown(rows: Sequence[dict[str, Any]], env: dict[str, str] | None = None) -> str:
    """The rows as a Markdown table (for a README), notes as a list below it.

    Examples
    --------
    >>> from mjstats.bench.measure import make_row
    >>> print(to_markdown([make_row("score", "x", per_s=2e6, unit="hands")]).splitlines()[2])
    | score | x | - | 1 | 2M hands/s | 500 | - | - | - |  |  |
    """
    lines = []
    if env:
        lines += [", ".join(f"{k}: {v}" for k, v in env.items()), ""]
    lines.append("| " + " | ".join(_HEADER) + " |")
    lines.append("|" + "|".join("---" for _ in _HEADER) + "|")
    for row in rows:
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in _cells(row)) + " |")
    notes = _notes(rows)
    if notes:
        lines.append("")
        lines += [f"- {note}" for note in notes]
    return "\n".join(lines) + "\n"
