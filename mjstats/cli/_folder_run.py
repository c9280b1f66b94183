"""Runs written into a folder (``mjstats decisions --out``, ``mjstats review --out``):
Ctrl-C and bad options said in one line each."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

__all__ = ["run_into"]


def run_into(out, what: str, resume: bool, dask_address: str | None,
             call: Callable[[], Any]) -> Any:  # fmt: skip
    """``call()`` (a run writing ``what``, e.g. ``"shards"``, into ``out``) with Ctrl-C
    deferred to the run's safe points: interrupted, it exits with status 130 and one
    line saying how to finish; a bad option is a usage error, a bad game one line."""
    # deferred: `mjstats --help` loads no kernels
    from mjstats.errors import GameError, InvalidArgumentError
    from mjstats.studies import StudyInterrupted
    from mjstats.studies.interrupts import EXIT_INTERRUPTED, deferred_interrupts

    with deferred_interrupts(exit_when_idle=dask_address is None) as guard:
        if resume:  # a Ctrl-C before the first part: the complete ones are still there
            guard.idle_message = f"interrupted; nothing new written (the {what} in {out} are kept)"
        try:
            return call()
        except InvalidArgumentError as exc:
            raise click.UsageError(str(exc)) from None
        except GameError as exc:
            raise click.ClickException(str(exc)) from None
        except StudyInterrupted:
            error = click.ClickException(
                f"interrupted; the {what} written are kept in {out}; finish with the same "
                "command and --resume"
            )
            error.exit_code = EXIT_INTERRUPTED
            raise error from None
