"""Learning data on disk: decisions of records or simulated games written as shards.

:func:`write_decisions` writes into a folder ``shard-00000.npz``, ... (each the
encoded decisions of a run of whole games: :func:`mjstats.decisions.encode.encode_decisions`
plus the scalar columns), ``decisions.parquet`` (the scalar columns of every
decision; CSV ``decisions.csv`` when pyarrow, the ``parquet`` extra, is not installed)
and ``provenance.json``. Memory is bounded by a shard's games, whatever the number of
games; simulated game ``i`` of a seed is the same whatever the shards
(:func:`mjstats.games.play_games`), so the data depend only on the seed, the games
and the policy. :func:`iter_shards` reads them back as numpy arrays.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from mjstats.decisions import kernel as K
from mjstats.decisions.augment import PERMUTATIONS, permute_encoded
from mjstats.decisions.encode import ACT_SIZE, N_PLANES, PLANE_NAMES, encode_decisions
from mjstats.decisions.table import DecisionSet, iter_record_decisions, played_decisions
from mjstats.errors import InvalidArgumentError
from mjstats.games import kernels as G
from mjstats.provenance import provenance, write_json

__all__ = ["SCALARS", "iter_shards", "write_decisions"]

SCALARS = ("game", "step", "seat", "kind", "n_legal", "only", "action", "points", "winner",
           "fan_total")  # fmt: skip
"""The scalar columns of each shard and of the table (``game``: the game's number in
the data set; ``action``: the baseline's index; the rest as :func:`decisions`)."""


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


def _sets(source, games, policy, seed, ruleset, shard_games) -> Iterator[DecisionSet]:
    """The decision sets of ``source`` (records) or of ``games`` simulated games, a
    shard's games at a time."""
    if source is None:
        # deferred: the games engine's Python layer is loaded only to play
        from mjstats.games import play_games

        for lo in range(0, games, shard_games):
            n = min(shard_games, games - lo)
            _, _, final, logs = play_games(n, seed, ruleset=ruleset or "mcr", policy=policy,
                                           first=lo, keep_log=True)  # fmt: skip
            yield played_decisions(final, logs, ruleset or "mcr", first=lo)
        return
    for ds in iter_record_decisions(source, ruleset, block_games=shard_games):
        for lo in range(0, ds.n_games, shard_games):
            yield ds.games(lo, min(ds.n_games, lo + shard_games))


def write_decisions(out, source=None, *, games: int | None = None, policy: str = "efficiency",
                    seed: int = 0, ruleset=None, shard_games: int = 200,
                    compress: bool = False) -> dict:  # fmt: skip
    """Write the decisions of Botzone records (``source``: a file, folder or text) or
    of ``games`` simulated games (``policy``, ``seed``, ``ruleset``) into folder
    ``out`` as the module documentation says; returns the provenance record.

    ``shard_games``: games per shard; ``compress``: ``np.savez_compressed``.

    Examples
    --------
    >>> import tempfile
    >>> out = tempfile.mkdtemp()
    >>> p = write_decisions(out, games=4, seed=1, shard_games=3)
    >>> n = sum(len(s["action"]) for s in iter_shards(out))
    >>> p["games"], len(p["shards"]), n == p["decisions"]
    (4, 2, True)
    """
    if (source is None) == (games is None):
        raise InvalidArgumentError("give either records (source) or a number of games")
    if games is not None and games < 1:
        raise InvalidArgumentError(f"games must be at least 1, not {games}")
    if shard_games < 1:
        raise InvalidArgumentError(f"shard_games must be at least 1, not {shard_games}")
    out = Path(os.fspath(out))
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("shard-*.npz"):
        old.unlink()
    save = np.savez_compressed if compress else np.savez
    shards = []
    n_games = n_dec = 0
    table = _Table(out)
    ids: list = []
    for ds in _sets(source, games, policy, seed, ruleset, shard_games):
        enc = encode_decisions(ds)
        cols = _scalars(ds, enc, n_games)
        name = f"shard-{len(shards):05d}.npz"
        save(out / name, **{**enc, **cols})
        table.add(cols)
        shards.append({"file": name, "games": ds.n_games, "decisions": len(ds)})
        if source is not None:
            ids.extend(str(i) for i in ds.ids)
        n_games += ds.n_games
        n_dec += len(ds)
    table_name = table.close()
    params = {"seed": None if source is not None else seed, "n_games": n_games,
              "ruleset": str(ruleset) if ruleset is not None else
              ("botzone judge (mcr)" if source is not None else "mcr")}  # fmt: skip
    extra = {"source": None if source is None else str(source),
             "policy": None if source is not None else policy}  # fmt: skip
    prov = provenance(params, kind="decisions", **extra)
    body = {"games": n_games, "decisions": n_dec, "shards": shards, "table": table_name,
            "planes": list(PLANE_NAMES), "n_planes": N_PLANES, "actions": ACT_SIZE,
            "scalars": list(SCALARS), "match_ids": ids or None}  # fmt: skip
    write_json(out / "provenance.json", body, prov)
    return {**body, "provenance": prov}


class _Table:
    """The scalar columns of every decision, appended shard by shard: Parquet (pyarrow)
    or CSV."""

    def __init__(self, out: Path):
        self.out = out
        self.writer = None
        try:
            import pyarrow  # noqa: F401  # deferred: an optional extra
        except ImportError:
            self.name = "decisions.csv"
            self.first = True
        else:
            self.name = "decisions.parquet"
        (out / self.name).unlink(missing_ok=True)

    def add(self, cols: dict) -> None:
        if self.name.endswith(".csv"):
            # deferred: pandas only for the CSV fallback
            import pandas as pd

            pd.DataFrame(cols).to_csv(self.out / self.name, mode="a", header=self.first,
                                      index=False)  # fmt: skip
            self.first = False
            return
        # deferred: pyarrow is an optional extra
        import pyarrow as pa
        import pyarrow.parquet as pq

        t = pa.table(cols)
        if self.writer is None:
            self.writer = pq.ParquetWriter(self.out / self.name, t.schema)
        self.writer.write_table(t)

    def close(self) -> str:
        if self.writer is not None:
            self.writer.close()
        return self.name


def iter_shards(folder, *, augment: bool = False, seed: int = 0) -> Iterator[dict]:
    """The shards of a folder :func:`write_decisions` wrote, in order, each a dict of
    numpy arrays (``obs``, ``baseline``, ``mask``, ``action`` and :data:`SCALARS`).

    ``augment``: permute the three suits of each decision by one of the six
    permutations (:mod:`mjstats.decisions.augment`), drawn from ``seed`` and the
    decision's place in the data set (the same whatever reads it).

    Examples
    --------
    >>> import tempfile
    >>> out = tempfile.mkdtemp()
    >>> _ = write_decisions(out, games=2, seed=3)
    >>> s = next(iter_shards(out, augment=True, seed=1))
    >>> taken = s["mask"][np.arange(len(s["action"])), s["action"]]
    >>> s["obs"].shape[1:], s["mask"].shape[1], bool(taken.all())
    ((20, 34), 235, True)
    """
    folder = Path(os.fspath(folder))
    path = folder / "provenance.json"
    if not path.is_file():
        raise FileNotFoundError(2, "no decisions here (no provenance.json)", str(path))
    info = json.loads(path.read_text(encoding="utf-8"))
    first = 0
    for shard in info["shards"]:
        with np.load(folder / shard["file"]) as z:
            data = {k: z[k] for k in z.files}
        n = len(data["action"])
        if augment:
            rng = np.random.default_rng([seed, first])
            which = rng.integers(0, len(PERMUTATIONS), n)
            parts = {k: v.copy() for k, v in data.items()}
            for j, perm in enumerate(PERMUTATIONS[1:], 1):
                sel = np.flatnonzero(which == j)
                if len(sel):
                    p = permute_encoded({k: data[k][sel] for k in
                                         ("obs", "baseline", "mask", "action")}, perm)  # fmt: skip
                    for k, v in p.items():
                        parts[k][sel] = v
            data = parts
            data["suit_permutation"] = which.astype(np.int8)
        first += n
        yield data
