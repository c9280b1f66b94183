"""Terminal output of the commands: a rich console as wide as the terminal (rich wraps
its lines at spaces), so that nothing is cut mid-word at 80 columns.

In a terminal the console takes its width; in a pipe or a file, ``$COLUMNS`` when it
is set, else the command's own default (wide: nothing there wraps lines for a reader).
"""

from __future__ import annotations

import os
import sys
from typing import Any

__all__ = ["console", "width"]


def width(default: int) -> int:
    """Columns to write: the terminal's, else ``$COLUMNS``, else ``default``.

    Examples
    --------
    >>> width(130) > 0
    True
    """
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    try:
        if sys.stdout.isatty():
            return os.get_terminal_size(sys.stdout.fileno()).columns
    except (AttributeError, OSError, ValueError):
        pass
    return default


def console(default: int) -> Any:
    """A rich ``Console`` on standard output, :func:`width` columns wide."""
    from rich.console import Console

    return Console(width=width(default))
