"""``mjstats score``: the fan table of one hand."""

from __future__ import annotations

import click

__all__ = ["command"]


@click.command("score")
@click.argument("text", nargs=-1, required=True)
@click.option("--ruleset", default="mcr", show_default=True, help="Ruleset to score with.")
@click.option(
    "--option",
    "options",
    multiple=True,
    metavar="NAME=VALUE",
    help="Ruleset option, e.g. mingan_gang=false (repeatable).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the score as JSON.")
def command(text: tuple[str, ...], ruleset: str, options: tuple[str, ...], as_json: bool) -> None:
    """Score a complete hand: its fans (番), their points and the total.

    TEXT is the hand with its winning tile after '+' and context keywords, e.g.

    \b
        mjstats score "[123p]55m12379s789p+8s"
        mjstats score "EEE 123m 456p 789s 9m +9m self-drawn seat=S flowers=2"
        mjstats score "{2222m}[5555m]456789p1s+1s" --option mingan_gang=false

    A hand that is not complete scores -1 (exit status 0).
    """
    import json

    import mjstats
    from mjstats.rules import get_ruleset

    opts = {}
    for item in options:
        name, sep, value = item.partition("=")
        if not sep:
            raise click.BadParameter(f"{item!r}: write NAME=VALUE", param_hint="--option")
        low = value.strip().lower()
        if low in ("true", "yes", "on", "1"):
            opts[name.strip()] = True
        elif low in ("false", "no", "off", "0"):
            opts[name.strip()] = False
        else:
            raise click.BadParameter(
                f"{item!r}: VALUE must be true or false", param_hint="--option"
            )
    try:
        rs = get_ruleset(ruleset, **opts)
    except ValueError as exc:
        if type(exc) is ValueError:
            raise click.BadParameter(str(exc), param_hint="--option") from None
        raise
    s = mjstats.score(" ".join(text), ruleset=rs)
    if as_json:
        out = {
            "hand": str(s.hand),
            "ruleset": s.ruleset,
            "total": s.total,
            "legal": s.legal,
            "form": s.form,
            "sets": list(s.sets),
            "fans": [
                {
                    "id": f.id,
                    "key": f.key,
                    "zh": f.zh,
                    "en": f.en,
                    "points": f.points,
                    "count": f.count,
                }
                for f in s.fans
            ],
        }
        click.echo(json.dumps(out, ensure_ascii=False, indent=2))
    else:
        click.echo(str(s))
