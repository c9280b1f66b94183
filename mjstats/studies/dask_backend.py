"""Run study chunk groups as Dask tasks (needs the ``dask`` extra).

Each group of chunks is one task, ``study.run_chunks(first, count)``: a pure
function of its arguments. Results are merged on the client as they arrive, each
group exactly once, keyed by its first chunk. When a worker dies, the scheduler
re-runs its unfinished tasks elsewhere; a task whose result has already arrived
is never merged again. So a killed worker loses nothing and counts nothing twice,
and the numbers equal those of a local run with the same seed.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

from mjstats.studies.aggregate import Aggregate

__all__ = ["connect", "run_groups"]


def _run(study: Any, first: int, count: int) -> Aggregate:
    return study.run_chunks(first, count)


def connect(dask: str | Any, stack: ExitStack) -> Any:
    """Return a ``distributed.Client`` for ``dask``.

    ``dask`` is a ``Client`` (used as is), a scheduler address such as
    ``"tcp://10.0.0.5:8786"``, ``"local"`` (a local cluster with one worker
    process per core) or ``"local:N"`` (N worker processes). Clusters and clients
    created here are closed when ``stack`` closes.
    """
    try:
        from distributed import Client, LocalCluster
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(
            "the Dask backend needs the dask extra: pip install 'mjstats[dask]'"
        ) from exc
    if isinstance(dask, Client):
        return dask
    text = str(dask)
    if text == "local" or text.startswith("local:"):
        n = int(text.split(":", 1)[1]) if ":" in text else None
        cluster = stack.enter_context(
            LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None)
        )
        return stack.enter_context(Client(cluster))
    return stack.enter_context(Client(text))


def run_groups(
    study: Any, groups: list[tuple[int, int]], dask: str | Any
) -> Iterator[tuple[int, int, Aggregate]]:
    """Yield ``(first, count, aggregate)`` for every group, in completion order."""
    from distributed import as_completed

    with ExitStack() as stack:
        client = connect(dask, stack)
        token = abs(hash((study.kind, repr(sorted(study.params().items())))))
        where = {}
        for first, count in groups:
            fut = client.submit(
                _run, study, first, count, key=f"mjstats-{study.kind}-{token:x}-{first}-{count}"
            )
            where[fut] = (first, count)
        try:
            for fut in as_completed(list(where)):
                first, count = where.pop(fut)
                yield first, count, fut.result()
        finally:
            for fut in where:  # only those not merged yet (interrupted run)
                fut.cancel()
