"""Ctrl-C at safe points only: a SIGINT during a study is deferred to the runner.

Python raises ``KeyboardInterrupt`` wherever the main thread happens to be: in
the middle of numba's cache loading (which then escapes as ``SystemError``), of
a table being built, of the thread pool starting. :func:`deferred_interrupts`
replaces that with a flag that the runner polls between chunk groups
(:meth:`InterruptGuard.check`), where the merged result is consistent and can be
saved.

Before any chunk group has finished there is nothing to save, and the first
group can take a minute (compiling the kernels). A guard made with
``exit_when_idle=True`` (the CLI's) therefore ends the process at once when
interrupted then: it prints ``idle_message`` and exits with status 130 without
unwinding, which is safe because nothing is half-written (checkpoints and the
numba cache are written to a temporary file and renamed).
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["EXIT_INTERRUPTED", "InterruptGuard", "deferred_interrupts"]

EXIT_INTERRUPTED = 130
"""Exit status after Ctrl-C (128 + SIGINT), as shells report it."""


class InterruptGuard:
    """The state of a :func:`deferred_interrupts` block.

    Attributes
    ----------
    pending : bool
        A SIGINT arrived and has not been raised yet.
    idle : bool
        Nothing new is held in memory (no chunk group finished yet): with
        ``exit_when_idle`` an interrupt then exits at once.
    idle_message : str
        What that exit prints (the runner says so when a resumed checkpoint
        already holds progress).
    """

    def __init__(self, exit_when_idle: bool = False) -> None:
        self.exit_when_idle = exit_when_idle
        self.pending = False
        self.idle = True
        self.idle_message = "interrupted; nothing done yet"

    def _handler(self, signum, frame) -> None:
        if self.exit_when_idle and self.idle:
            sys.stderr.write(f"mjstats: {self.idle_message}\n")
            sys.stderr.flush()
            os._exit(EXIT_INTERRUPTED)
        self.pending = True

    def check(self) -> None:
        """Raise ``KeyboardInterrupt`` here if a SIGINT arrived since the last check."""
        if self.pending:
            self.pending = False
            raise KeyboardInterrupt


_active: InterruptGuard | None = None


@contextmanager
def deferred_interrupts(*, exit_when_idle: bool = False) -> Iterator[InterruptGuard]:
    """Defer SIGINT to :meth:`InterruptGuard.check` calls inside the block.

    Nested blocks share the outer guard. Outside the main thread (where Python
    cannot install signal handlers) the guard never fires and ``KeyboardInterrupt``
    keeps its usual behaviour.

    Examples
    --------
    >>> with deferred_interrupts() as guard:
    ...     guard.check()  # no SIGINT arrived: nothing happens
    >>> guard.pending
    False
    """
    global _active
    if _active is not None:
        yield _active
        return
    guard = InterruptGuard(exit_when_idle)
    if threading.current_thread() is not threading.main_thread():
        yield guard
        return
    previous = signal.signal(signal.SIGINT, guard._handler)
    _active = guard
    try:
        yield guard
    finally:
        _active = None
        signal.signal(signal.SIGINT, previous)
