"""Click parameter types shared by the commands: seeds checked as the Python API checks them."""

from __future__ import annotations

import click

__all__ = ["SEED"]


class _Seed(click.ParamType):
    """A seed 0 to 2**64-1, checked by :func:`mjstats.arguments.check_seed` (the check of
    :func:`mjstats.games.play_games` and the studies)."""

    name = "seed"

    def convert(self, value, param, ctx):
        # deferred: `mjstats --help` loads no kernels
        from mjstats.arguments import check_seed
        from mjstats.errors import InvalidArgumentError

        if not isinstance(value, int):
            text = str(value).strip().replace("_", "")
            digits = text.lstrip("+-")  # ASCII digits only: "²".isdigit() is True, int("²") fails
            if not (digits.isascii() and digits.isdigit()) or len(text) > 30:
                self.fail(f"{value!r} is not an integer 0 to 2**64-1", param, ctx)
            value = int(text)
        try:
            return check_seed(value)
        except InvalidArgumentError:
            self.fail(f"{value} is not in the range 0 to 2**64-1", param, ctx)


SEED = _Seed()
