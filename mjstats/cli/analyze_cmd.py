"""``mjstats analyze``: the 牌理 table of a hand (:func:`mjstats.analyze`), then the
expected value of each discard by Monte Carlo playouts."""

from __future__ import annotations

import click

from mjstats.cli._console import width
from mjstats.cli.params import SEED
from mjstats.compiling import notice

__all__ = ["command"]


def _fmt_table(table) -> str:
    """The analyze table as aligned text (percentages for probabilities)."""
    import math

    def pct(p: float, se: float) -> str:
        return f"{100 * p:5.1f}% ±{100 * 1.96 * se:4.1f}"

    def num(x: float, width: int = 6) -> str:
        return f"{x:{width}.2f}" if not math.isnan(x) else " " * (width - 1) + "-"

    head = ["discard", "shanten", "outs", "useful", "P(win) ±95%", "E[fan|win]", "E[points] ±95%"]
    rows = []
    for r in table.itertuples(index=False):
        rows.append(
            [
                r.discard,
                str(r.shanten),
                str(r.outs),
                r.useful or "-",
                pct(r.p_win, r.p_win_se),
                num(r.mean_fan),
                f"{num(r.exp_points)} ±{1.96 * r.exp_points_se:5.2f}",
            ]
        )
    return "\n".join(_aligned([head, *rows], left={0, 3}))


def _aligned(rows: list[list[str]], left: set[int], widths: list[int] | None = None) -> list[str]:
    """``rows`` of cells as lines, columns two spaces apart, as wide as their widest cell
    (or ``widths``; a longer cell is cut with "…"), the columns of ``left`` aligned left,
    the others right; widths in terminal cells (a Chinese character takes two)."""
    # deferred: `mjstats --help` loads no rich
    from rich.cells import cell_len, set_cell_size

    if widths is None:
        widths = [max(cell_len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = []
    for cells in rows:
        out = []
        for i, (text, w) in enumerate(zip(cells, widths, strict=True)):
            if cell_len(text) > w:
                text = set_cell_size(text, w - 1) + "…"
            pad = " " * (w - cell_len(text))
            out.append(text + pad if i in left else pad + text)
        lines.append("  ".join(out).rstrip())
    return lines


# the analysis table's columns that hold tile lists ("1m 2m 3m 5p"), shown compact,
# and its other columns of text (aligned left like them)
_TILE_COLUMNS = {"useful", "legal_useful", "kaizen"}
_TEXT_COLUMNS = {"option", "kind", "tile", "then", "win_fans", "method", "plans"}


def _compact_tiles(text: str) -> str:
    """A tile list of the analysis table as a hand is written: "1m 2m 5p" -> "12m5p"."""
    # deferred: `mjstats --help` loads no numpy
    from mjstats.tiles import format_tiles, parse_tiles

    return format_tiles(parse_tiles(text.replace(" ", ""))) if text.strip() else "-"


def _cell(column: str, value, se=None) -> str:
    """One cell of the terminal table."""
    # deferred: `mjstats --help` loads no pandas
    import pandas as pd

    if column in _TILE_COLUMNS:
        return _compact_tiles(value)
    if column == "plans":
        # deferred: `mjstats --help` loads no kernels
        from mjstats.analysis.table import plans_line

        return plans_line(value) or "-"
    if isinstance(value, str):
        return value or "-"
    if pd.isna(value):  # not computed (no playouts, no useful draw, a form the melds rule out)
        return "-"
    if column == "p_win":
        return f"{100 * value:.1f}%" + (f" ±{196 * se:.1f}" if se else "")
    if column in ("exp_points", "second_step"):
        return f"{value:.2f}" + (f" ±{1.96 * se:.2f}" if se else "")
    if isinstance(value, float):
        return f"{value:.3g}"
    return str(value)


def _terminal_table(table, cols, columns: int) -> str:
    """The analysis table as text for a terminal ``columns`` wide: one line per
    option, tile lists compact, the nearest plans only (cut to the width left, with
    "…"), the playouts' 95 % margin beside P(win) and E[points]; long column names on
    two lines ("useful" over "copies") so the numbers stay narrow."""
    # deferred: `mjstats --help` loads no rich
    from rich.cells import cell_len

    margins = {"p_win": "p_win_se", "exp_points": "exp_points_se"}
    rows = [[_cell(c, row[c], row.get(margins.get(c, ""))) for c in cols]
            for _, row in table.iterrows()]  # fmt: skip
    heads = [c.split("_", 1) if len(c) > 7 and "_" in c else ["", c] for c in cols]
    head_rows = [[h[0] for h in heads], [h[1] for h in heads]]
    if not any(head_rows[0]):
        head_rows = head_rows[1:]
    widths = [max(cell_len(r[i]) for r in head_rows + rows) for i in range(len(cols))]
    if "plans" in cols:  # the plans take the width the other columns leave (20 at least)
        k = cols.index("plans")
        rest = sum(w + 2 for i, w in enumerate(widths) if i != k)
        widths[k] = min(widths[k], max(20, columns - rest))
    left = {i for i, c in enumerate(cols) if c in _TILE_COLUMNS or c in _TEXT_COLUMNS}
    return "\n".join(_aligned(head_rows + rows, left, widths))


def _analysis_table(
    joined, seen, ruleset, wall_left, discard, from_seat, columns, out_path, mc, seed
):
    """Print (and write) the analysis table of :func:`mjstats.analyze`; a 13-tile hand
    without a discard has no options and prints nothing here. ``mc`` False: no
    playouts for the options of shanten 2 or more (else the table's default)."""
    # deferred: `mjstats --help` loads no kernels
    from mjstats.analysis import analyze, position

    # deferred: `mjstats --help` loads no kernels
    from mjstats.analysis.position import read_hand

    # deferred: `mjstats --help` loads no kernels
    from mjstats.analysis.table import COLUMNS

    hand = read_hand(joined)
    if discard is None and hand.win_tile is None:
        return
    pos = position(hand, seen, wall_left, discard=discard, from_seat=from_seat)
    table = analyze(pos, ruleset=ruleset, playouts=None if mc else 0, seed=seed)
    cols = COLUMNS if columns.strip() == "all" else [c.strip() for c in columns.split(",")]
    unknown = [c for c in cols if c not in COLUMNS]
    if unknown:
        raise click.BadParameter(
            f"unknown column {unknown[0]!r}; choose from {', '.join(COLUMNS)}",
            param_hint="--columns",
        )
    click.echo(f"options  {pos.text}" + (f" answering {discard}" if discard else ""))
    click.echo(_terminal_table(table, cols, width(160)))
    if out_path and str(out_path).lower().endswith((".html", ".htm")):
        table.to_html_file(out_path)  # the picture view (tiles drawn)
    elif out_path:
        # deferred: `mjstats --help` loads no kernels
        from mjstats.report import write_report

        write_report(table, out_path)


@click.command("analyze")
@click.argument("text", nargs=-1, required=True)
@click.option(
    "--draws",
    default=15,
    show_default=True,
    type=click.IntRange(min=1),
    help="Draws per playout at most: P(win) is the chance of a legal win within them.",
)
@click.option(
    "--n",
    "n",
    default=20_000,
    show_default=True,
    type=click.IntRange(min=1),
    help="Playouts per candidate discard.",
)
@click.option("--seed", default=1, show_default=True, type=SEED, help="Random seed.")
@click.option(
    "--policy",
    default="efficiency",
    show_default=True,
    type=click.Choice(["efficiency", "fan-aware"]),
    help="How later discards are chosen in the playouts.",
)
@click.option(
    "--visible",
    default="",
    metavar="TILES",
    help="Tiles seen outside the hand (discards, others' melds), e.g. '1z1z5p'.",
)
@click.option("--ruleset", default="mcr", show_default=True, help="Ruleset to play and score.")
@click.option(
    "--last-tile",
    is_flag=True,
    help="The final draw is the last tile of the wall (a win on it scores 妙手回春).",
)
@click.option(
    "--json",
    "json_path",
    metavar="FILE",
    type=click.Path(dir_okay=False),
    help="Also write the parameters and the table as JSON to FILE.",
)
@click.option(
    "--wall-left",
    default=10,
    show_default=True,
    type=click.IntRange(min=0, max=136),
    help="Draws the player still has (the analysis table's position).",
)
@click.option(
    "--discard",
    default=None,
    metavar="TILE",
    help="Another player's discard that a 13-tile hand answers (pass, chow, pung, kong, win).",
)
@click.option(
    "--from-seat",
    default=1,
    show_default=True,
    type=click.IntRange(min=1, max=3),
    help="Who discarded it: 1 left (a chow is allowed), 2 across, 3 right.",
)
@click.option(
    "--columns",
    default="option,shanten,useful_copies,legal_useful,legal_copies,win_fans,kaizen_copies,"
    "second_step,p_win,exp_points,method,plans",
    show_default=True,
    help="Columns of the analysis table to show (docs/analysis.md defines them; 'all' for all).",
)
@click.option(
    "--out",
    "out_path",
    metavar="FILE",
    type=click.Path(dir_okay=False),
    help="Write the analysis table to FILE (.csv, .json, .parquet, .md, or .html with tile "
    "pictures).",
)
@click.option(
    "--mc/--no-mc",
    default=True,
    show_default=True,
    help="Also run the Monte Carlo playouts per discard (own turn or 13 tiles as they stand), "
    "and those of the table's options of shanten 2 or more when no option is exact.",
)
@notice("analyze")  # one notice for the command's calls
def command(
    text: tuple[str, ...],
    draws: int,
    n: int,
    seed: int,
    policy: str,
    visible: str,
    ruleset: str,
    last_tile: bool,
    json_path: str | None,
    wall_left: int,
    discard: str | None,
    from_seat: int,
    columns: str,
    out_path: str | None,
    mc: bool,
) -> None:
    """What to discard or claim: the 牌理 table of a hand, then playouts per discard.

    TEXT is the hand: 14 tiles to choose a discard (the last one may follow a
    '+'), or 13 tiles to evaluate as they stand; a meld counts 3, e.g.
    "2367m3345p1568s16z" or "[555p]12345m789s11z+9s". Keywords seat=S round=E
    set the winds (default East).

    \b
    First the analysis table, one line per option (every discard and kong;
    with --discard every answer: pass, chow, pung, kong, win): shanten,
    useful and legal-useful tiles (after which 8 fan stay reachable) with
    the fans of each legal win, 改良, second step, P(legal win within
    --wall-left draws) and E[points], exact for shanten <= 1 and by
    playouts beyond (column method), and the nearest 8-fan plans (the
    table shows three and how many more; --out writes them all). Columns:
    --columns, defined in docs/analysis.md.

    Then the playouts (--no-mc skips them, the analysis table's too): each
    candidate is played out N times: the player draws alone from a
    shuffled wall of every unseen tile (no claims) and discards by the policy
    until a legal win (MCR: 8 fan, flowers excluded) or DRAWS draws. The
    table shows shanten after the discard, useful tiles and their unseen
    copies (outs), P(win), the mean fan of the wins and the expected points
    E[points] = P(win) x 3 x (8 + fan) (MCR self-drawn payment), best first.
    All candidates see the same walls, so their differences are more precise
    than each ± suggests.

    \b
    Examples:
        mjstats analyze 2367m3345p1568s16z
        mjstats analyze "[444m]11p55s88s22z37p seat=S" --discard 2z --from-seat 2
        mjstats analyze 2367m3345p1568s16z --draws 10 --policy fan-aware
        mjstats analyze "123m456p789s1133z" --visible 1z --json out.json
    """
    # deferred: `mjstats --help` loads no kernels
    from mjstats.studies import StudyInterrupted
    from mjstats.studies.analyze import analyze, read_position
    from mjstats.studies.interrupts import EXIT_INTERRUPTED, deferred_interrupts

    joined = " ".join(text)
    _analysis_table(
        joined, visible, ruleset, wall_left, discard, from_seat, columns, out_path, mc, seed
    )
    if not mc or discard is not None:
        return
    position = read_position(joined, visible)
    # Ctrl-C: at once while nothing is done, else after the chunk group in flight;
    # an analysis keeps no checkpoint (it is run again, not resumed)
    with deferred_interrupts(exit_when_idle=True) as guard:
        guard.idle_message = "interrupted; nothing saved (analyze is run again, not resumed)"
        try:
            table = analyze(
                joined,
                draws=draws,
                n=n,
                seed=seed,
                policy=policy,
                visible=visible,
                ruleset=ruleset,
                last_tile=last_tile,
            )
        except StudyInterrupted:
            error = click.ClickException(guard.idle_message)
            error.exit_code = EXIT_INTERRUPTED
            raise error from None
    winds = "ESWN"
    tiles = int(position.concealed.sum()) + 3 * position.n_melds
    melds = f"{position.n_melds} meld{'' if position.n_melds == 1 else 's'}"
    click.echo(
        f"hand     {position.text}  ({tiles} tiles, {melds}, "
        f"seat {winds[position.seat_wind]}, round {winds[position.round_wind]})"
    )
    if position.visible.any():
        # deferred: `mjstats --help` loads no kernels
        from mjstats.tiles import format_tiles

        click.echo(f"visible  {format_tiles(position.visible)}")
    click.echo(
        f"playouts {n} per discard, at most {draws} draws, policy {policy}, seed {seed}"
        + (", final draw = last tile" if last_tile else "")
    )
    click.echo(_fmt_table(table))
    if json_path:
        import math

        # deferred: `mjstats --help` loads no kernels
        from mjstats.studies.aggregate import atomic_write_bytes

        rows = [
            {k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in row.items()}
            for row in table.to_dict(orient="records")
        ]
        payload = {"params": table.attrs["params"], "columns": list(table.columns), "rows": rows}
        # deferred: `mjstats --help` loads no kernels
        from mjstats.provenance import json_text, provenance

        payload = {"provenance": provenance(table.attrs["params"], kind="analyze"), **payload}
        atomic_write_bytes(json_path, json_text(payload).encode())
