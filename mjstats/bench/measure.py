"""How ``mjstats bench`` measures: timing, thread control, random deals, result rows.

Timing policy (used by every in-process task):

* every function is called once before it is timed (numba compiles or loads
  its cache on the first call, which is not what a rate should measure);
* the number of calls per timed run is chosen so that a run lasts at least
  ``min_time`` seconds (like :mod:`timeit`'s autorange), so a 1-hand call is
  timed over many calls;
* a result is the **best** of ``repeat`` runs, and when mjstats is compared
  with a peer the runs **alternate** (ours, peer, ours, peer ...) so both see
  the same machine load;
* per-thread rates use the **CPU time** of this process
  (:func:`time.process_time`) with numba limited to one thread: on a shared
  machine CPU time leaves out the time the process waits for a core. Thread
  scaling and start-up times use wall time (that is what they are about).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

__all__ = ["ROW_FIELDS", "deal", "make_row", "num_threads", "peak_growth", "time_calls"]

ROW_FIELDS = (
    "task",
    "what",
    "mjstats_per_s",
    "peer",
    "peer_per_s",
    "ratio",
    "unit",
    "ns_per_item",
    "threads",
    "n",
    "peer_n",
    "seconds",
    "value",
    "value_unit",
    "goal",
    "goal_met",
    "agree",
    "note",
)
"""Keys of every result row, in order (a key that does not apply holds ``None``)."""


def deal(n: int, seed: int, tiles: int = 13) -> np.ndarray:
    """Uniform random deals of ``tiles`` tiles from the 136-tile wall.

    Each row is ``tiles`` distinct wall positions drawn uniformly (rows with a
    repeated position are drawn again, which keeps the deal exactly uniform),
    counted per tile kind.

    Parameters
    ----------
    n : int
        Number of hands.
    seed : int
        Seed of :func:`numpy.random.default_rng`.
    tiles : int
        Tiles per hand (13 waiting, 14 drawn).

    Returns
    -------
    numpy.ndarray
        uint8 (n, 34) counts in tile-index order.

    Examples
    --------
    >>> h = deal(3, seed=1)
    >>> h.shape, h.sum(axis=1).tolist(), int(h.max()) <= 4
    ((3, 34), [13, 13, 13], True)
    >>> bool((deal(3, seed=1) == h).all())                # the same seed, the same hands
    True
    """
    rng = np.random.default_rng(seed)
    positions = np.empty((n, tiles), dtype=np.int16)
    todo = np.arange(n)
    while todo.size:
        draw = rng.integers(0, 136, size=(todo.size, tiles), dtype=np.int16)
        ordered = np.sort(draw, axis=1)
        distinct = (ordered[:, 1:] != ordered[:, :-1]).all(axis=1)
        positions[todo[distinct]] = draw[distinct]
        todo = todo[~distinct]
    kinds = (positions // 4).astype(np.intp)
    counts = np.zeros((n, 34), dtype=np.uint8)
    rows = np.arange(n)
    for j in range(tiles):  # one tile per row per step: no index repeats within a step
        counts[rows, kinds[:, j]] += 1
    return counts


@contextlib.contextmanager
def num_threads(k: int | None) -> Iterator[int]:
    """Run the block with numba limited to ``k`` threads (None: all); restores the old limit.

    Yields the number of threads in force.

    Examples
    --------
    >>> with num_threads(1) as k:
    ...     k
    1
    """
    import numba

    old = numba.get_num_threads()
    k = numba.config.NUMBA_NUM_THREADS if k is None else min(k, numba.config.NUMBA_NUM_THREADS)
    numba.set_num_threads(k)
    try:
        yield k
    finally:
        numba.set_num_threads(old)


def _run(fn: Callable[[], Any], calls: int, clock: Callable[[], float]) -> float:
    t0 = clock()
    for _ in range(calls):
        fn()
    return clock() - t0


def time_calls(
    fns: Sequence[Callable[[], Any]],
    *,
    repeat: int = 3,
    min_time: float = 0.1,
    clock: Callable[[], float] = time.process_time,
    warmup: bool = True,
) -> list[float]:
    """Best seconds per call of each function, timed in alternation.

    Parameters
    ----------
    fns : sequence of callables
        Functions without arguments (e.g. ours and a peer's, on the same hands).
    repeat : int
        Timed runs per function (the last run of the autorange is the first of
        them); the fastest counts.
    min_time : float
        Each run makes enough calls to last at least this long (seconds).
    clock : callable
        :func:`time.process_time` (CPU time, default) or :func:`time.perf_counter`.
    warmup : bool
        Call each function once, untimed, first.

    Returns
    -------
    list of float
        Seconds per call, one per function.

    Examples
    --------
    >>> [t] = time_calls([lambda: sum(range(100))], repeat=2, min_time=0.001)
    >>> 0 < t < 0.01
    True
    """
    if warmup:
        for fn in fns:
            fn()
    calls: list[int] = []
    first: list[float] = []
    for fn in fns:  # autorange: double (or jump) until a run lasts min_time
        k = 1
        while True:
            elapsed = _run(fn, k, clock)
            if elapsed >= min_time or k >= 1 << 22:
                break
            k = k * 10 if elapsed < min_time / 20 else max(k + 1, int(k * 1.2 * min_time / elapsed))
        calls.append(k)
        first.append(elapsed / k)  # the last autorange run counts as a timed run
    best = first
    for _ in range(repeat - 1):
        for i, fn in enumerate(fns):
            best[i] = min(best[i], _run(fn, calls[i], clock) / calls[i])
    return best


def _status_bytes(key: str) -> int:
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith(key + ":"):
                return int(line.split()[1]) * 1024
    raise OSError(f"no {key} in /proc/self/status")


def peak_growth(fn: Callable[[], Any]) -> tuple[Any, int | None]:
    """Call ``fn``; return its result and how far resident memory rose above its start.

    Linux only: the peak (``VmHWM``) is reset through ``/proc/self/clear_refs``
    before the call and compared with the resident size (``VmRSS``) just
    before it. Elsewhere, or if the reset is refused, the growth is None.
    Memory freed earlier and reused by the call is not counted (run with
    ``MALLOC_MMAP_THRESHOLD_`` set to avoid that, as the ``memory`` task does).

    Examples
    --------
    >>> import numpy as np
    >>> total, grew = peak_growth(lambda: int(np.ones(1_000_000, np.uint8).sum()))
    >>> total, grew is None or grew >= 0    # bytes (the amount depends on the allocator)
    (1000000, True)
    """
    try:
        before = _status_bytes("VmRSS")
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")
    except OSError:
        return fn(), None
    result = fn()
    return result, max(0, _status_bytes("VmHWM") - before)


def make_row(
    task: str,
    what: str,
    *,
    per_s: float | None = None,
    unit: str | None = None,
    n: int | None = None,
    threads: int | None = 1,
    peer: str | None = None,
    peer_per_s: float | None = None,
    peer_n: int | None = None,
    seconds: float | None = None,
    value: float | None = None,
    value_unit: str | None = None,
    goal: str | None = None,
    goal_met: bool | None = None,
    agree: str | None = None,
    note: str = "",
) -> dict[str, Any]:
    """One result row with every key of :data:`ROW_FIELDS`.

    ``ratio`` = ``per_s / peer_per_s`` (> 1: mjstats is faster) and
    ``ns_per_item`` = ``1e9 / per_s`` are derived.

    Examples
    --------
    >>> r = make_row("shanten", "x", per_s=1e7, unit="hands", n=10, peer="p", peer_per_s=1e5)
    >>> r["ratio"], r["ns_per_item"], list(r) == list(ROW_FIELDS)
    (100.0, 100.0, True)
    """
    ratio = per_s / peer_per_s if per_s and peer_per_s else None
    return {
        "task": task,
        "what": what,
        "mjstats_per_s": per_s,
        "peer": peer,
        "peer_per_s": peer_per_s,
        "ratio": ratio,
        "unit": unit,
        "ns_per_item": 1e9 / per_s if per_s else None,
        "threads": threads,
        "n": n,
        "peer_n": peer_n,
        "seconds": seconds,
        "value": value,
        "value_unit": value_unit,
        "goal": goal,
        "goal_met": goal_met,
        "agree": agree,
        "note": note,
    }
