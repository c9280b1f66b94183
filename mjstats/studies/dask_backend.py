"""Run study chunk groups as Dask tasks (needs the ``dask`` extra).

Each group of chunks is one task, ``study.run_chunks(first, count)``: a pure
function of its arguments. Results are merged on the client as they arrive, each
group exactly once, keyed by its first chunk. When a worker dies, the scheduler
re-runs its unfinished tasks elsewhere; a task whose result has already arrived
is never merged again. So a killed worker loses nothing and counts nothing twice,
and the numbers equal those of a local run with the same seed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack
from typing import Any

from mjstats.studies.aggregate import Aggregate

__all__ = ["check_address", "connect", "run_groups"]


def _run(study: Any, first: int, count: int) -> Aggregate:
    return study.run_chunks(first, count)


def connect(dask: str | Any, stack: ExitStack) -> Any:
    """Return a ``distributed.Client`` for ``dask``.

    ``dask`` is a ``Client`` (used as is), a scheduler address such as
    ``"tcp://10.0.0.5:8786"``, ``"local"`` (a local cluster with one worker
    process per core) or ``"local:N"`` (N worker processes). Clusters and clients
    created here are closed when ``stack`` closes.
    """
    _dask_imports()
    from distributed import Client, LocalCluster

    if isinstance(dask, Client):
        return dask
    if not isinstance(dask, str):
        raise TypeError(f"dask must be an address string or a distributed.Client, not {dask!r}")
    text = dask
    if text == "local" or text.startswith("local:"):
        n = _local_workers(text)
        cluster = stack.enter_context(
            LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None)
        )
        return stack.enter_context(Client(cluster))
    return stack.enter_context(Client(text))


def check_address(text: str) -> None:
    """Check a ``dask=`` address without connecting: ``ValueError`` saying what is accepted.

    Examples
    --------
    >>> check_address("local:2"); check_address("tcp://10.0.0.5:8786")
    >>> check_address("bogus")
    Traceback (most recent call last):
    ...
    ValueError: bad Dask address 'bogus' (missing port number in address 'bogus'): ...
    """
    if text == "local" or text.startswith("local:"):
        _local_workers(text)
        return
    _dask_imports()
    from distributed.comm import parse_address
    from distributed.comm.addressing import parse_host_port
    from distributed.comm.registry import get_backend

    try:
        scheme, location = parse_address(text)
        get_backend(scheme)
        if scheme in ("tcp", "tls"):
            host, port = parse_host_port(location)
            if not host or not 0 < port < 65536:
                raise ValueError("a host and a port 1-65535 are needed")
    except ValueError as exc:
        raise ValueError(
            f"bad Dask address {text!r} ({exc}): write a scheduler address such as "
            "tcp://HOST:PORT, 'local' or 'local:N' workers"
        ) from None


def _dask_imports() -> None:
    try:
        import distributed  # noqa: F401
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(
            "the Dask backend needs the dask extra: pip install 'mjstats[dask]'"
        ) from exc


def _local_workers(text: str) -> int | None:
    """N of ``"local:N"`` (None for ``"local"``); ValueError unless N is a positive integer."""
    if text == "local":
        return None
    n = text.split(":", 1)[1]
    if not (n.isascii() and n.isdigit() and 0 < int(n) <= 1024):
        raise ValueError(f"bad Dask address {text!r}: write 'local' or 'local:N', N workers 1-1024")
    return int(n)


def run_groups(
    study: Any,
    groups: Iterable[tuple[int, int]],
    dask: str | Any,
    check: Callable[[], None] = lambda: None,
    in_flight: int | None = None,
) -> Iterator[tuple[int, int, Aggregate]]:
    """Yield ``(first, count, aggregate)`` for every group, in completion order.

    ``groups`` is consumed lazily and at most ``in_flight`` tasks (default: two
    per worker thread) are submitted at a time, so a study of any size starts at
    once and the client's memory does not grow with it. ``check`` is called
    while waiting (the runner's interrupt check).
    """
    from distributed import as_completed

    with ExitStack() as stack:
        client = connect(dask, stack)
        if in_flight is None:
            in_flight = max(2, 2 * sum(client.nthreads().values()))
        token = abs(hash((study.kind, repr(sorted(study.params().items())))))
        pending = iter(groups)
        where: dict[Any, tuple[int, int]] = {}

        def submit() -> Any:
            for first, count in pending:
                key = f"mjstats-{study.kind}-{token:x}-{first}-{count}"
                fut = client.submit(_run, study, first, count, key=key)
                where[fut] = (first, count)
                return fut
            return None

        running = as_completed([f for f in (submit() for _ in range(in_flight)) if f is not None])
        try:
            for fut in running:
                check()
                first, count = where.pop(fut)
                part = fut.result()
                nxt = submit()
                if nxt is not None:
                    running.add(nxt)
                yield first, count, part
        finally:
            for fut in where:  # only those not merged yet (interrupted run)
                fut.cancel()
