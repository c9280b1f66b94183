"""``mjstats shanten``: shanten per form, useful tiles or the discard table of one hand."""

from __future__ import annotations

import click

from mjstats.compiling import notice

__all__ = ["command"]


def _read_hand(text: str):
    """(concealed counts, number of melds, tiles of own melds) from hand text.

    Text with melds or a ``+`` goes through :func:`mjstats.parse_hand`; plain tiles
    (13 or 14 of them, any notation) through :func:`mjstats.parse_tiles`.
    """
    import numpy as np

    # deferred: `mjstats --help` loads no kernels
    from mjstats.hand import parse_hand
    from mjstats.tiles import parse_tiles

    if "+" in text or "[" in text or "{" in text:
        hand = parse_hand(text)
        own = np.zeros(34, dtype=np.int64)
        for meld in hand.melds:
            own += meld.counts34()
        return hand.concealed, len(hand.melds), own
    counts = parse_tiles(text)
    return counts, 0, np.zeros(34, dtype=np.int64)


@click.command("shanten")
@click.argument("text", nargs=-1, required=True)
@click.option(
    "--form",
    "forms",
    multiple=True,
    type=click.Choice(
        ["regular", "seven_pairs", "thirteen_orphans", "honors_knitted", "knitted_straight"]
    ),
    help="Only these forms (repeatable); default: every form of the ruleset.",
)
@click.option(
    "--visible",
    default="",
    metavar="TILES",
    help="Tiles seen outside the hand (discards, others' melds), e.g. '1z1z5p'.",
)
@click.option("--ruleset", default="mcr", show_default=True, help="Ruleset whose forms count.")
@notice("shanten")  # one notice for the command's calls
def command(text: tuple[str, ...], forms: tuple[str, ...], visible: str, ruleset: str) -> None:
    """Shanten (向听) of a hand, with its useful tiles or best discards.

    TEXT is the hand: concealed tiles (13 = waiting, 14 = about to discard) and
    optional melds, e.g. "[555p]12345m789s11z" or "123m456p789s11334z". With
    melds, write a 14th tile after '+'. Shanten -1 = complete, 0 = ready.
    A 13-tile hand lists the useful tiles (those that lower the shanten) and
    their unseen copies; a 14-tile hand lists each discard with the shanten,
    useful kinds and copies it leaves, best first. Copies not counted as
    unseen: the hand, its melds and --visible.

    \b
    Examples:
        mjstats shanten 123m456p789s1133z
        mjstats shanten 123m456p789s11334z --visible 3z
        mjstats shanten "[555p]12345m789s11z" --form regular
    """
    import numpy as np

    # deferred: `mjstats --help` loads no kernels
    from mjstats.efficiency import (
        FORMS,
        IMPOSSIBLE,
        discard_table,
        shanten,
        useful_copies,
        useful_tiles,
    )
    from mjstats.tiles import format_tiles, parse_tiles

    concealed, n_melds, own = _read_hand(" ".join(text))
    seen = own + (parse_tiles(visible) if visible else 0)
    if (concealed + seen).max() > 4:
        raise click.BadParameter("the hand, its melds and --visible hold more than 4 of a kind")
    form = forms or None
    overall = int(shanten(concealed, n_melds, form=form, ruleset=ruleset))
    n_tiles = int(concealed.sum())

    melds = f"{n_melds} meld{'' if n_melds == 1 else 's'}"
    click.echo(f"hand      {format_tiles(concealed)}  ({n_tiles} concealed, {melds})")
    label = {-1: "complete", 0: "ready"}.get(overall, f"{overall} away from ready")
    click.echo(f"shanten   {overall} ({label})")
    for name in forms or FORMS:
        value = int(shanten(concealed, n_melds, form=name))
        shown = "-" if value == IMPOSSIBLE else str(value)
        click.echo(f"  {name:17} {shown}")

    vis = np.asarray(seen, dtype=np.uint8) if np.ndim(seen) else None
    if (n_tiles + 3 * n_melds) == 13:
        useful = useful_tiles(concealed, n_melds, form=form, ruleset=ruleset)
        copies = useful_copies(concealed, n_melds, visible=vis, form=form, ruleset=ruleset)
        kinds = format_tiles(useful.astype(np.uint8)) or "none"
        click.echo(
            f"useful    {kinds}  ({int(useful.sum())} kinds, {int(copies.sum())} unseen tiles)"
        )
        return
    table = discard_table(concealed, n_melds, visible=vis, form=form, ruleset=ruleset)
    frame = table.to_frame()
    click.echo("discards")
    click.echo(frame.drop(columns="tile").to_string(index=False))
