"""The shards of :func:`mjstats.decisions.write_decisions` as independent units of work.

Shard ``i`` holds games ``i * shard_games`` to ``(i + 1) * shard_games - 1``: simulated
games of the seed (:func:`mjstats.games.play_games` with ``first=``: game ``g`` depends
only on the seed and ``g``), or the games of the records in reading order (the games
that replay; the judge's aborted ones are left out, as everywhere). So its arrays
depend only on the parameters and ``i``: not on the threads, the grouping of shards
into tasks, the backend, or interruptions.

The folder is its own checkpoint (:mod:`mjstats.decisions.runs`, shared with the
review's parts). ``run.json`` holds the parameters; each shard is written to a temporary
name and renamed (``shard-00000.npz``), then its completion mark ``shard-00000.json``
(games, decisions, match ids) is written the same way. A shard with its mark is complete
and is skipped by a resumed run (or by a Dask task run again after its worker died);
anything else is written again. The table and ``provenance.json`` are made from the
complete shards, in shard order, at the end.

Simulated games run through the study runner (:func:`mjstats.studies.runner.run_study`:
a :class:`DecisionsStudy` whose chunk is a shard; progress, Ctrl-C between shards,
Dask): its aggregate holds each shard's games and decisions, merged by addition like
any study's. Records are read and split in order in this process
(:func:`record_shards`): their reader streams the files, so shard ``i`` is reached by
reading the ones before it; that pass (reading, replaying, finding the decisions) runs
at 8,000 to 20,000 games a second, several times the pace of encoding and writing the
shards, which is the work sent to Dask: each shard's decisions travel to a worker (about
150 KB a game, mostly the views), which encodes and writes the shard
(:func:`write_records`). A resumed run reads again but encodes and writes only what is
missing. On Dask the workers write the shard files themselves, so the folder must be on
a file system the workers and the client share.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from mjstats.arguments import check_seed
from mjstats.compiling import notice, progress_wanted
from mjstats.decisions import kernel as K
from mjstats.decisions import runs
from mjstats.decisions.encode import (
    ACT_SIZE,
    N_PLANES,
    PLANE_NAMES,
    encode_buffers,
    encode_decisions,
)
from mjstats.decisions.npzfile import write_npz
from mjstats.decisions.table import DecisionSet, _join, iter_record_decisions, played_decisions
from mjstats.games import kernels as G
from mjstats.games.engine import engine_context
from mjstats.provenance import provenance, write_json
from mjstats.rulesets import get_ruleset
from mjstats.studies.aggregate import Aggregate
from mjstats.studies.interrupts import deferred_interrupts
from mjstats.studies.play import _options_param, _PicklableRuleset
from mjstats.studies.runner import Study, StudyInterrupted, _Progress, chunked_weight

__all__ = [
    "SCALARS",
    "DecisionsStudy",
    "finish",
    "prepare",
    "record_shards",
    "write_records",
    "write_shard",
]

SCALARS = ("game", "step", "seat", "kind", "n_legal", "only", "action", "points", "winner",
           "fan_total")  # fmt: skip
"""The scalar columns of each shard and of the table (``game``: the game's number in the
data set; ``action``: the baseline's index; the rest as :func:`decisions`)."""


def shard_name(i: int) -> str:
    """``shard-00012.npz`` for shard 12.

    Examples
    --------
    >>> shard_name(12)
    'shard-00012.npz'
    """
    return f"shard-{i:05d}.npz"


def _scalars(ds: DecisionSet, enc: dict, first_game: int) -> dict[str, np.ndarray]:
    r = ds.rows
    g = r[:, K.C_GAME]
    seat = r[:, K.C_SEAT]
    winner = ds.final[g, G.S_WINNER]
    return {
        "game": (g + first_game).astype(np.int64),
        "step": r[:, K.C_STEP].astype(np.int32),
        "seat": seat.astype(np.int8),
        "kind": r[:, K.C_KIND].astype(np.int8),
        "n_legal": r[:, K.C_NLEGAL].astype(np.int8),
        "only": r[:, K.C_NLEGAL] == 1,
        "action": enc["action"],
        "points": ds.final[g, G.S_SCORE + seat].astype(np.int32),
        "winner": winner.astype(np.int8),
        "fan_total": np.where(winner >= 0, ds.final[g, G.S_TOTAL], 0).astype(np.int32),
    }


def complete(out: Path, i: int) -> dict | None:
    """The completion mark of shard ``i`` in ``out`` when the shard is complete, else None."""
    return runs.complete(out, i)


def shard_arrays(ds: DecisionSet, first_game: int, ids: bool,
                 buffers: dict | None = None) -> tuple[dict, dict]:  # fmt: skip
    """The arrays of the shard of ``ds`` (its games numbered from ``first_game``) and
    its completion mark (``ids``: keep the games' match ids, for records); encoded
    into ``buffers`` (:func:`~mjstats.decisions.encode.encode_buffers`) when given."""
    enc = encode_decisions(ds, out=buffers)
    mark = {"games": ds.n_games, "decisions": len(ds), "first_game": first_game,
            "match_ids": [str(x) for x in ds.ids] if ids else None}  # fmt: skip
    return {**enc, **_scalars(ds, enc, first_game)}, mark


def save_shard(out: Path, i: int, arrays: dict, mark: dict, compress: bool) -> dict:
    """Write shard ``i`` (``arrays`` as one ``.npz``) then its completion mark, each
    under a temporary name renamed when whole (:func:`mjstats.decisions.runs.write_part`);
    returns the mark."""

    if compress:
        return runs.write_part(out, i, shard_name(i),
                               lambda fh: np.savez_compressed(fh, **arrays), mark)  # fmt: skip
    return runs.write_part(out, i, shard_name(i), lambda fh: write_npz(fh, arrays), mark)


def write_shard(out: Path, i: int, ds: DecisionSet, first_game: int, compress: bool,
                ids: bool) -> dict:  # fmt: skip
    """Encode ``ds`` (the games of shard ``i``, the first numbered ``first_game``) and
    write it (:func:`save_shard`); returns the mark (``ids``: keep the games' match
    ids, for records)."""
    arrays, mark = shard_arrays(ds, first_game, ids)
    return save_shard(out, i, arrays, mark, compress)


OUTPUTS = ("decisions.parquet*", "decisions.csv*", "provenance.json")
"""What a run writes at its end (a fresh run clears them with the shards)."""


def prepare(out: Path, params: dict[str, Any], resume: bool) -> None:
    """Make ``out`` ready (:func:`mjstats.decisions.runs.prepare`): a fresh run clears
    what an earlier run wrote there (its shards, marks, table, provenance) and records
    ``params`` in ``run.json``; a resumed run checks that ``run.json`` holds the same
    parameters.

    Raises
    ------
    FileNotFoundError
        ``resume`` and ``out`` holds no run (no ``run.json``).
    InvalidArgumentError
        ``resume`` into a folder written with other parameters (the message names them).
    """
    runs.prepare(out, params, resume, outputs=OUTPUTS)


def ruleset_params(ruleset) -> dict[str, Any]:
    """The ``ruleset`` and ``options`` parameters of a run (None: the source's default).

    Examples
    --------
    >>> ruleset_params("mcr"), ruleset_params(None)
    ({'ruleset': 'mcr', 'options': None}, {'ruleset': None, 'options': None})
    """
    if ruleset is None:
        return {"ruleset": None, "options": None}
    rs = get_ruleset(ruleset)
    return {"ruleset": rs.spec, "options": _options_param(rs) or None}


class DecisionsStudy(_PicklableRuleset, Study):
    """Simulated games' decisions written as shards, a shard a chunk (the module's
    documentation); the aggregate counts each shard's games and decisions.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> out = Path(tempfile.mkdtemp())
    >>> s = DecisionsStudy(out, games=5, shard_games=2)
    >>> prepare(out, s.run_params(), resume=False)
    >>> agg = s.run_chunks(1, 2)
    >>> s.n_chunks(), agg["shard_games"].tolist(), sorted(p.name for p in out.glob("shard-*"))
    (3, [0, 2, 1], ['shard-00001.json', 'shard-00001.npz', 'shard-00002.json', 'shard-00002.npz'])
    """

    kind = "decisions"
    work_counter = "games"

    def __init__(self, out, games: int, policy: str = "efficiency", seed: int = 0,
                 ruleset=None, shard_games: int = 200, compress: bool = False) -> None:  # fmt: skip
        self.out = str(Path(os.fspath(out)).resolve())
        self.games, self.policy, self.seed = games, policy, seed
        self.ruleset = get_ruleset("mcr" if ruleset is None else ruleset)
        self.shard_games, self.compress = shard_games, compress
        # the engine's own checks (policy, seed), before anything is written
        engine_context(self.ruleset, "shared", 0, policy)
        check_seed(seed)

    def run_params(self) -> dict[str, Any]:
        """What the shards' content depends on (``run.json``)."""
        return {"source": None, "games": self.games, "policy": self.policy, "seed": self.seed,
                **ruleset_params(self.ruleset), "shard_games": self.shard_games,
                "compress": self.compress}  # fmt: skip

    def params(self) -> dict[str, Any]:
        # the folder too: two runs into two folders are two studies (and two Dask keys)
        return {**self.run_params(), "out": self.out}

    def n_chunks(self) -> int:
        return -(-self.games // self.shard_games)

    def chunk_weight(self, first: int, count: int) -> int:
        return chunked_weight(self.games, self.shard_games, first, count)

    def progress_unit(self) -> str:
        return "games"

    def run_chunks(self, first: int, count: int) -> Aggregate:
        # deferred: the games engine's Python layer is loaded only to play
        from mjstats.games import play_games

        out = Path(self.out)
        n = self.n_chunks()
        games, decisions = np.zeros(n, np.int64), np.zeros(n, np.int64)
        # shard i is written while shard i + 1 is played, decided and encoded; once one is
        # on disk, a Ctrl-C waits for the end of the task (the CLI's guard no longer
        # exits at once: the shards written are kept, and the message says so)
        # two sets of buffers in turn: shard i is encoded into one while shard i - 1 is
        # written from the other (fresh memory each shard: page faults, 2 s a 2 GB run)
        buffers = [encode_buffers(0), encode_buffers(0)]
        with deferred_interrupts() as guard, runs.BackgroundWriter() as writer:
            submitted = False
            for i in range(first, first + count):
                mark = complete(out, i)
                if mark is None:
                    lo = i * self.shard_games
                    k = min(self.shard_games, self.games - lo)
                    _, _, final, logs = play_games(k, self.seed, ruleset=self.ruleset,
                                                   policy=self.policy, first=lo,
                                                   keep_log=True)  # fmt: skip
                    ds = played_decisions(final, logs, self.ruleset, first=lo)
                    # not the set of the shard submitted last: it may be being written
                    b = buffers.pop(0)
                    if len(b["action"]) < len(ds):
                        b = encode_buffers(len(ds) + len(ds) // 4)
                    buffers.append(b)
                    arrays, mark = shard_arrays(ds, lo, ids=False, buffers=b)
                    writer.submit(save_shard, out, i, arrays, mark, self.compress)
                    if submitted:  # submit() waited for the shard before: it is on disk
                        guard.idle = False
                    submitted = True
                    del ds, arrays
                games[i], decisions[i] = mark["games"], mark["decisions"]
        return Aggregate(self.kind, self.params(),
                         {"games": [games.sum()], "decisions": [decisions.sum()],
                          "shard_games": games, "shard_decisions": decisions})  # fmt: skip


def record_shards(source, ruleset, shard_games: int,
                  skip_bad: bool = False) -> Iterator[DecisionSet]:  # fmt: skip
    """The decision sets of the records' shards in order: exactly ``shard_games``
    games each (the last fewer), whatever the blocks the reader cut the files into
    (``skip_bad``: as :func:`mjstats.decisions.record_decisions`).

    Examples
    --------
    >>> from pathlib import Path
    >>> import mjstats
    >>> data = Path(mjstats.__file__).parents[1] / "tests" / "data" / "botzone"
    >>> [d.n_games for d in record_shards(data, None, 16)]
    [16, 16, 8]
    """
    parts: list[DecisionSet] = []
    held = 0
    for ds in iter_record_decisions(source, ruleset, skip_bad, block_games=shard_games):
        parts.append(ds)
        held += ds.n_games
        while held >= shard_games:
            both = _join(parts, ds.ruleset, ds.wall)
            yield both.games(0, shard_games)
            parts = [both.games(shard_games, both.n_games)] if held > shard_games else []
            held -= shard_games
    if held:
        yield _join(parts, parts[0].ruleset, parts[0].wall)


def write_records(out: Path, source, ruleset, shard_games: int, compress: bool,
                  progress: bool | None, dask=None) -> int:  # fmt: skip
    """Write the records' shards not yet complete, with the study runner's progress bar
    and Ctrl-C between shards; returns the shard count.

    The records are read in order in this process (:func:`record_shards`); each shard
    is encoded and written here, or with ``dask`` by a Dask task that receives the
    shard's decisions (:func:`mjstats.decisions.runs.portable`) and writes into ``out``
    (a folder the workers share)."""
    requested = progress
    total = count_records(source)
    n = 0

    def todo():
        nonlocal n
        for i, ds in enumerate(record_shards(source, ruleset, shard_games)):
            n = i + 1
            mark = complete(out, i)
            if mark is not None:
                bar.advance(mark["games"])
                continue
            yield (str(out), i, runs.portable(ds) if dask is not None else ds,
                   i * shard_games, compress)  # fmt: skip
            del ds

    with deferred_interrupts() as guard, notice("decisions", requested), \
            _Progress(total, "games", progress_wanted(progress)) as bar:  # fmt: skip
        try:
            for mark in runs.run_tasks(_record_shard_task, todo(), dask=dask,
                                       check=guard.check):  # fmt: skip
                guard.idle = False
                bar.advance(mark["games"])
            guard.check()
        except KeyboardInterrupt:  # the shards written are complete: nothing to save
            raise StudyInterrupted(None, out) from None
    return n


def _record_shard_task(out: str, i: int, ds, first_game: int, compress: bool) -> dict:
    """Write shard ``i`` of records (a task: ``ds`` a DecisionSet, or packed by
    :func:`mjstats.decisions.runs.portable` for a Dask worker)."""
    if isinstance(ds, tuple):
        ds = runs.restore(ds)
    return write_shard(Path(out), i, ds, first_game, compress, ids=True)


def count_records(source) -> int:
    """The games in records (text: their ``Match`` lines; JSON logs: their objects),
    the progress bar's total, read without parsing the games.

    Examples
    --------
    >>> from pathlib import Path
    >>> import mjstats
    >>> count_records(Path(mjstats.__file__).parents[1] / "tests" / "data" / "botzone")
    40
    """
    # deferred: the records' file finder is needed only when reading records
    from mjstats.records.judge_logs import iter_json
    from mjstats.records.sources import record_files

    if isinstance(source, (bytes, bytearray)):
        return _count_matches(bytes(source))
    if isinstance(source, str) and "\n" in source:
        return _count_matches(source.encode("utf-8"))
    n = 0
    for path, fmt in record_files(source):
        if fmt == "text":
            n += _count_file(path)
        else:
            n += sum(1 for _ in iter_json(path, str(path), fmt == "jsonl"))
    return n


def _count_matches(text: bytes) -> int:
    return text.count(b"\nMatch ") + text.lstrip(b"\xef\xbb\xbf").startswith(b"Match ")


def _count_file(path: Path, chunk: int = 8 << 20) -> int:
    """:func:`_count_matches` of a file read a chunk at a time (the data set is large)."""
    n = 0
    with open(path, "rb") as fh:
        head = fh.read(chunk)
        n += _count_matches(head)
        tail = head[-6:]  # shorter than the pattern: no match is counted twice
        while block := fh.read(chunk):
            n += (tail + block).count(b"\nMatch ")
            tail = block[-6:]
    return n


def finish(out: Path, n_shards: int, params: dict[str, Any]) -> dict:
    """The table and ``provenance.json`` of the complete shards ``0 .. n_shards - 1``;
    returns what :func:`mjstats.decisions.write_decisions` returns."""
    marks = runs.complete_marks(out, n_shards)
    table = _write_table(out, [m["file"] for m in marks])
    records = params["source"] is not None
    prov_params = {"seed": None if records else params["seed"],
                   "n_games": sum(m["games"] for m in marks),
                   "ruleset": params["ruleset"] or "botzone judge (mcr)"}  # fmt: skip
    if params["options"]:
        prov_params["options"] = params["options"]
    prov = provenance(prov_params, kind="decisions", source=params["source"],
                      policy=None if records else params["policy"])  # fmt: skip
    ids = [x for m in marks for x in (m["match_ids"] or [])]
    body = {"games": prov_params["n_games"], "decisions": sum(m["decisions"] for m in marks),
            "shards": [{k: m[k] for k in ("file", "games", "decisions")} for m in marks],
            "table": table, "planes": list(PLANE_NAMES), "n_planes": N_PLANES,
            "actions": ACT_SIZE, "scalars": list(SCALARS),
            "match_ids": ids if records else None}  # fmt: skip
    write_json(out / "provenance.json", body, prov)
    return {**body, "provenance": prov}


def _shard_scalars(path: Path) -> dict[str, np.ndarray]:
    with np.load(path) as z:
        return {k: z[k] for k in SCALARS}


def _read_ahead(out: Path, files: list[str]) -> Iterator[dict[str, np.ndarray]]:
    """Each shard's scalar columns in order, the next one read on a thread while the
    caller encodes this one (one shard ahead: memory stays that of two shards)."""
    with ThreadPoolExecutor(1, "mjstats-table") as pool:
        ahead = pool.submit(_shard_scalars, out / files[0]) if files else None
        for j in range(len(files)):
            cols = ahead.result()
            if j + 1 < len(files):
                ahead = pool.submit(_shard_scalars, out / files[j + 1])
            yield cols


def _write_table(out: Path, files: list[str]) -> str:
    """``decisions.parquet`` (a row group a shard; CSV ``decisions.csv`` without
    pyarrow) of the shards' scalar columns, written to a temporary name then renamed."""
    try:
        import pyarrow as pa  # deferred: an optional extra
        import pyarrow.parquet as pq  # deferred: an optional extra
    except ImportError:
        pa = None
    name = "decisions.csv" if pa is None else "decisions.parquet"
    tmp = out / f"{name}.tmp"
    writer = None
    try:
        for j, cols in enumerate(_read_ahead(out, files)):
            if pa is None:
                # deferred: pandas only for the CSV fallback
                import pandas as pd

                pd.DataFrame(cols).to_csv(tmp, mode="a" if j else "w", header=not j, index=False)
                continue
            t = pa.table(cols)
            if writer is None:
                writer = pq.ParquetWriter(tmp, t.schema)
            writer.write_table(t)
    finally:
        if writer is not None:
            writer.close()
    if not files:  # no games: the columns alone
        # deferred: pandas only for an empty table
        import pandas as pd

        empty = pd.DataFrame({k: [] for k in SCALARS})
        empty.to_csv(tmp, index=False) if pa is None else empty.to_parquet(tmp)
    os.replace(tmp, out / name)
    return name
