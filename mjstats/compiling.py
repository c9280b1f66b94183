"""Say so while numba compiles: ``compiling the scorer (first run only, about 30 s)...``.

The first run of a command (or the first call in a fresh Python process or
Jupyter kernel) after installing or upgrading mjstats compiles the numba
kernels it needs, which takes from seconds to minutes; every later run loads
them from the disk cache (:func:`mjstats.kernels._jit.cache_dir`) in well under
a second. So that a first run does not look hung, every entry point that may
compile runs inside :func:`notice`, which listens to numba's public event API
(``numba.core.event``, ``"numba:compile"`` events) and, while kernels compile,
shows one line on standard error (a terminal: redrawn in place each second;
Jupyter: a display updated in place; a study's progress bar: its label)::

    mjstats: compiling the scorer (first run only, about 10 s): 3 s, 18 of about 51 kernels

and, when the command is done, what it took. numba raises no compile event
when it loads a kernel from its cache, so a warm start shows nothing; entering
a :func:`notice` block costs one or two microseconds.

When it shows: the entry point's own ``progress`` setting (``--progress`` /
``--no-progress``, ``progress=``), else :func:`set_progress` (``mjstats
--quiet`` sets False), else the environment variable ``MJSTATS_PROGRESS``
(``1`` / ``0``), else when standard error is a terminal or in Jupyter, as the
studies' progress bars. Nothing is ever written to standard output, so JSON and
CSV on stdout stay what they are.

The estimate ``about N s`` is the time the previous full compile of the same
group took on this machine (kept in ``compile-seconds.json`` beside the numba
cache), else the figure of :data:`GROUPS`, measured on the development machine
(2 cores, see ``docs/performance.md``); it is an estimate and says so.

The first compile of a block also starts :mod:`mjstats.compile_helper` (a
process that compiles the block's kernels from the other end on a second
core), and the block's end stops it.

Examples
--------
>>> from mjstats.compiling import notice
>>> with notice("shanten", progress=False):  # nothing to compile here: silent
...     pass
>>> @notice("scorer")
... def f():
...     return 1
>>> f()
1
"""

from __future__ import annotations

import functools
import json
import os
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = [
    "GROUPS",
    "Group",
    "jupyter_shell",
    "notice",
    "progress_wanted",
    "redirect",
    "set_progress",
]


@dataclass(frozen=True)
class Group:
    """A set of kernels one entry point compiles: its name in the notice and
    the cold-cache compile seconds and kernel count measured for it."""

    label: str
    seconds: float | None = None
    kernels: int | None = None


#: Kernel groups: what the notice names, and what a cold cache costs: the seconds
#: the command spends compiling on a cold run (wall time inside its numba compiles,
#: with the compile helper on the second core where the group has a plan) and the
#: functions it compiles, from ``mjstats bench --tasks cold_start`` (its notes:
#: "compile S s (K kernels)"), best of two runs on a 2-core AMD EPYC VM, 2026-12-05
#: 00:39-00:58 UTC, busy (load average 2.1-3.3 from other jobs): the command's whole
#: first run took 0.5-5 s more (11.4 s for ``score HAND``, 44 s ``study sample --n
#: 1000``, 86 s ``analyze``, 49 s ``study dealt``, 95 s ``study play``, 151 s ``study
#: games --n 50``, 51 s ``replay``, 20.5 s ``records``). ``shanten``: ``mjstats shanten
#: HAND`` alone, 2026-12-03 (not re-measured). ``replay`` and ``records``: ``mjstats
#: replay|records tests/data/botzone/sample.txt [--check]`` with an empty cache and their
#: plans, whole first run, 2026-12-05 05:55 UTC (records replay through the engine since).
#: None: not measured, no estimate shown.
#: Only a machine's first estimate comes from here: later ones are that machine's own
#: previous full compile.
GROUPS: dict[str, Group] = {
    "scorer": Group("the scorer", 10, 51),
    "shanten": Group("the shanten kernels", 11, 14),
    "sample": Group("the sampling study", 38, 128),
    "dealt": Group("the dealt study", 46, 118),
    "play": Group("the play study", 90, 174),
    "exact": Group("the exact enumeration"),
    "analyze": Group("the playout kernels", 82, 159),
    "replay": Group("the records reader and the game engine", 57, 93),
    "records": Group("the records reader, the game engine and the scorer", 60, 106),
    "games": Group("the game engine", 146, 176),
    "match": Group("the game engine"),
    "decisions": Group("the game engine and the decisions kernels"),
    "bench": Group("the benchmarked kernels"),
}

_DELAY = 0.5  # seconds of compiling before the notice shows: short compiles stay silent
_TICK = 1.0  # seconds between redraws
_RECORD = "compile-seconds.json"

_forced: bool | None = None


def set_progress(on: bool | None) -> None:
    """Show (True) or hide (False) compile notices and progress bars by default;
    None: back to ``$MJSTATS_PROGRESS`` / a terminal or Jupyter.

    Examples
    --------
    >>> set_progress(False); progress_wanted()
    False
    >>> set_progress(None)
    """
    global _forced
    _forced = on


def jupyter_shell() -> Any:
    """The Jupyter kernel's IPython shell, or None (never imports IPython).

    Examples
    --------
    >>> jupyter_shell() is None
    True
    """
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    return shell if type(shell).__name__ == "ZMQInteractiveShell" else None


def progress_wanted(progress: bool | None = None) -> bool:
    """Whether to show progress (compile notices, progress bars) on standard error.

    ``progress`` (a call's or command's own setting) wins, then
    :func:`set_progress`, then ``$MJSTATS_PROGRESS`` (``1``/``0``), then:
    standard error is a terminal, or this is a Jupyter kernel.

    Examples
    --------
    >>> progress_wanted(True), progress_wanted(False)
    (True, False)
    """
    if progress is not None:
        return bool(progress)
    if _forced is not None:
        return _forced
    env = os.environ.get("MJSTATS_PROGRESS", "").strip().lower()
    if env in ("1", "true", "yes", "on"):
        return True
    if env in ("0", "false", "no", "off"):
        return False
    try:
        tty = sys.stderr.isatty()
    except (AttributeError, ValueError):  # replaced or closed stderr
        tty = False
    return tty or jupyter_shell() is not None


# -- the previous run's figures ------------------------------------------------------


def _record_path():
    # deferred: `import mjstats` stays light (numba loads on first use)
    from mjstats.kernels._jit import cache_dir

    return cache_dir().parents[1] / _RECORD  # $MJSTATS_CACHE_DIR, beside numba/


def _load_records() -> dict[str, Any]:
    try:
        data = json.loads(_record_path().read_text())
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def _estimate(group: str) -> tuple[float | None, int | None]:
    """(seconds, kernels) a full compile of ``group`` is expected to take."""
    rec = _load_records().get(group)
    if isinstance(rec, dict) and isinstance(rec.get("seconds"), int | float):
        return float(rec["seconds"]), rec.get("kernels")
    g = GROUPS.get(group)
    return (g.seconds, g.kernels) if g is not None else (None, None)


def _save_record(group: str, seconds: float, kernels: int) -> None:
    """Keep the figure of a full compile: one that compiled about as many kernels
    as the largest seen (a run that found part of the group cached is shorter)."""
    try:
        path = _record_path()
        data = _load_records()
        old = data.get(group)
        if isinstance(old, dict) and kernels < 0.8 * (old.get("kernels") or 0):
            return
        data[group] = {"seconds": round(seconds, 1), "kernels": kernels}
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
        os.replace(tmp, path)
    except OSError:  # a read-only cache: the table's figure stays the estimate
        pass


# -- display -------------------------------------------------------------------------

_sinks: list[Callable[[str | None], None]] = []


class redirect:
    """While active, notices go to ``sink(text)`` (``sink(None)``: clear) instead of
    standard error: a live progress bar shows them as its label, so the two never
    draw over each other.

    Examples
    --------
    >>> shown = []
    >>> with redirect(shown.append):
    ...     pass
    """

    def __init__(self, sink: Callable[[str | None], None]) -> None:
        self.sink = sink

    def __enter__(self) -> redirect:
        _sinks.append(self.sink)
        return self

    def __exit__(self, *exc: object) -> None:
        _sinks.remove(self.sink)


def _seconds(s: float) -> str:
    return f"{s:.0f} s" if s < 90 else f"{s / 60:.1f} min"


_lock = threading.Lock()  # the sessions' counters and the line on the screen


class _Session:
    """One :func:`notice` block: what it compiled, and its display.

    Cheap to create (an entry point makes one per call): the display state is
    only set up when a compile begins (:meth:`compile_started`)."""

    __slots__ = (
        "began",
        "compile_s",
        "depth",
        "drawn",
        "estimate",
        "group",
        "handle",
        "kernels",
        "mode",
        "progress",
        "shown",
        "stop",
        "ticker",
    )

    def __init__(self, group: str, progress: bool | None) -> None:
        self.group = group
        self.progress = progress
        self.depth = 0  # nested numba compiles in progress
        self.kernels = 0  # functions compiled so far (numba's own helpers too)
        self.ticker: threading.Thread | None = None  # None: no compile began

    def _setup(self) -> None:
        self.compile_s = 0.0  # seconds spent in finished top-level compiles
        self.began: float | None = None  # when the current top-level compile began
        self.shown = False
        self.mode: str | None = None  # "jupyter", "tty", "plain"; None: silent
        self.drawn: str | None = None  # where the line is now
        self.estimate: tuple[float | None, int | None] = (None, None)
        self.handle: Any = None
        self.stop: threading.Event | None = None

    @property
    def label(self) -> str:
        g = GROUPS.get(self.group)
        return g.label if g is not None else "mjstats' kernels"

    def elapsed(self) -> float:
        now = time.perf_counter()
        return self.compile_s + (now - self.began if self.began is not None else 0.0)

    def text(self, columns: int = 0) -> str:
        """The line, shortened to fit ``columns`` (0: no limit): a terminal would
        wrap a longer one mid-word, and the redraw in place would break."""
        total = self.estimate[1]
        if total and total >= self.kernels:
            done = f"{self.kernels} of about {total} kernels"
        else:
            done = f"{self.kernels} {'kernel' if self.kernels == 1 else 'kernels'} so far"
        elapsed = _seconds(self.elapsed())
        seconds, _ = self.estimate
        about = f" (about {_seconds(seconds)})" if seconds else ""
        for line in (
            f"{self.headline()}: {elapsed}, {done}",
            f"mjstats: compiling {self.label}{about}: {elapsed}, {self.kernels} kernels",
            f"mjstats: compiling {self.label}: {elapsed}",
            f"mjstats: compiling: {elapsed}",
        ):
            if not columns or len(line) < columns:
                break
        return line

    def summary(self) -> str:
        return (
            f"mjstats: compiled {self.label} in {_seconds(self.elapsed())} "
            f"({self.kernels} kernel{'' if self.kernels == 1 else 's'}); "
            "later runs load them from the cache"
        )

    def headline(self) -> str:
        seconds, _ = self.estimate
        about = f", about {_seconds(seconds)}" if seconds else ""
        return f"mjstats: compiling {self.label} (first run only{about})"

    # called with the lock held
    def draw(self) -> None:
        target = "sink" if _sinks else self.mode  # a live progress bar takes the line
        if target is None:
            return
        text = self.text(_columns() if target == "tty" else 0)
        if target == "sink":
            _sinks[-1](text)
        elif target == "jupyter":
            self._jupyter(text)
        elif target == "tty":
            _write("\r\x1b[2K" + text)
        elif target == "plain" and not self.shown:
            _write(_wrapped(self.headline() + "...") + "\n")
        self.shown, self.drawn = True, target

    def clear(self) -> None:
        if self.drawn == "sink" and _sinks:
            _sinks[-1](None)
        elif self.drawn == "tty":
            _write("\r\x1b[2K")
        if self.drawn != "jupyter":
            self.drawn = None

    def _jupyter(self, text: str) -> None:
        from IPython.display import display

        if self.handle is None:
            self.handle = display({"text/plain": text}, raw=True, display_id=True)
        else:
            self.handle.update({"text/plain": text}, raw=True)

    # main-thread hooks
    def compile_started(self, kernel: Callable) -> None:
        if self.ticker is None:
            self._setup()
        if self.began is None:
            self.began = time.perf_counter()
        if self.ticker is None:
            self._start(kernel)

    def compile_ended(self) -> None:
        with _lock:
            if self.began is not None:
                self.compile_s += time.perf_counter() - self.began
                self.began = None
            self.clear()  # the command may print next: leave no half line behind

    def _start(self, kernel: Callable) -> None:
        # deferred: `import mjstats` stays light (numba loads on first use)
        from mjstats import compile_helper

        compile_helper.start(self.group, kernel)  # a second process compiles from the far end
        self.stop = threading.Event()
        # the first explicit setting of the active blocks, outermost first
        setting = next((a.progress for a in _active if a.progress is not None), None)
        if not progress_wanted(setting):
            self.ticker = threading.Thread()  # a placeholder: decided, silent
            return
        self.estimate = _estimate(self.group)
        if jupyter_shell() is not None:
            self.mode = "jupyter"
        else:
            try:
                self.mode = "tty" if sys.stderr.isatty() else "plain"
            except (AttributeError, ValueError):
                self.mode = None
        self.ticker = threading.Thread(target=self._tick, name="mjstats-compile-notice")
        self.ticker.daemon = True
        self.ticker.start()

    def _tick(self) -> None:
        while not self.stop.wait(_DELAY if not self.shown else _TICK):
            with _lock:
                if self.began is not None and self.elapsed() >= _DELAY:
                    try:
                        self.draw()
                    except Exception:  # a display that fails must not stop the command
                        self.mode, self.drawn = None, None

    def close(self) -> None:
        if self.stop is not None:
            self.stop.set()
            # deferred: `import mjstats` stays light (numba loads on first use)
            from mjstats import compile_helper

            compile_helper.stop(self.group)
        if self.ticker is not None and self.ticker.ident is not None:
            self.ticker.join()
        with _lock:
            if self.began is not None:  # an exception escaped a compile
                self.compile_s += time.perf_counter() - self.began
                self.began = None
            if self.shown:
                self.clear()
                end = self.summary()
                if _sinks:  # the display that showed it (a task line) says what it took
                    pass
                elif self.mode == "jupyter" and self.handle is not None:
                    self.handle.update({"text/plain": end}, raw=True)
                elif self.mode in ("tty", "plain"):
                    _write(_wrapped(end) + "\n")
        if self.kernels:
            _save_record(self.group, self.compile_s, self.kernels)


def _columns() -> int:
    """The width of the terminal on standard error (``$COLUMNS`` first); 0: unknown."""
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit():
        return int(columns)
    try:
        return os.get_terminal_size(sys.stderr.fileno()).columns
    except (AttributeError, OSError, ValueError):
        return 0


def _wrapped(text: str) -> str:
    """``text`` wrapped at spaces to the terminal's width (as it is when unknown)."""
    import textwrap

    columns = _columns()
    return textwrap.fill(text, columns - 1, break_long_words=False) if columns > 1 else text


def _write(text: str) -> None:
    try:
        sys.stderr.write(text)
        sys.stderr.flush()
    except (OSError, ValueError):  # closed or broken stderr: say nothing
        pass


# -- numba events --------------------------------------------------------------------

_active: list[_Session] = []  # the outermost notice() block is _active[0]
_listener: Any = None


def _ensure_listener() -> None:
    global _listener
    if _listener is not None:
        return
    from numba.core import event

    class Listener(event.Listener):
        """Counts the compiles of the outermost active session: those that an
        mjstats kernel starts (a user's own numba function is not ours to announce)."""

        def on_start(self, ev: Any) -> None:
            try:
                self._start(ev)
            except Exception:  # a notice must never break a compile
                pass

        def on_end(self, ev: Any) -> None:
            try:
                self._end(ev)
            except Exception:
                pass

        def _start(self, ev: Any) -> None:
            if not _active:
                return
            s = _active[0]
            if s.depth == 0:
                module = getattr(ev.data["dispatcher"].py_func, "__module__", "") or ""
                if not module.startswith("mjstats."):  # a user's own numba function
                    return
                s.compile_started(ev.data["dispatcher"].py_func)
            s.depth += 1

        def _end(self, ev: Any) -> None:
            if not _active or _active[0].depth == 0:
                return
            s = _active[0]
            s.depth -= 1
            with _lock:  # every function compiled for an mjstats kernel, numba's own too
                s.kernels += 1
            if s.depth == 0:
                s.compile_ended()

    _listener = Listener()
    event.register("numba:compile", _listener)


class notice:
    """Show that kernels compile while this block (or decorated function) runs.

    Parameters
    ----------
    group : str
        Key of :data:`GROUPS`: what is compiled (its name and estimate).
    progress : bool, optional
        Show it (True), never (False), or by :func:`progress_wanted` (None).
    progress_arg : str, optional
        As a decorator: the keyword argument of the function that gives
        ``progress`` (e.g. a study's ``progress=``).

    Only the outermost active block speaks (a command's block includes the
    library calls it makes), with the first explicit ``progress`` of the
    active blocks. Usable as ``with notice("scorer"):`` or as a decorator
    ``@notice("scorer")``.
    """

    __slots__ = ("_session", "group", "progress", "progress_arg")

    def __init__(
        self, group: str, progress: bool | None = None, *, progress_arg: str | None = None
    ) -> None:
        self.group = group
        self.progress = progress
        self.progress_arg = progress_arg
        self._session: _Session | None = None

    def __enter__(self) -> notice:
        self._session = _open(self.group, self.progress)
        return self

    def __exit__(self, *exc: object) -> None:
        s = self._session
        if s is None:
            return
        self._session = None
        _close(s)

    def __call__(self, fn: Callable) -> Callable:
        group, progress, arg = self.group, self.progress, self.progress_arg

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            # the block without a notice object: a warm score() call is a few us
            s = _open(group, kwargs.get(arg, progress) if arg else progress)
            try:
                return fn(*args, **kwargs)
            finally:
                _close(s)

        return wrapper


def _open(group: str, progress: bool | None) -> _Session:
    """Enter a :func:`notice` block: its session is active until :func:`_close`."""
    if _listener is None:
        _ensure_listener()
    s = _Session(group, progress)
    _active.append(s)
    return s


def _close(s: _Session) -> None:
    """Leave the block of ``s``: say what it compiled, if it compiled."""
    _active.remove(s)
    if s.ticker is not None or s.kernels:
        s.close()
