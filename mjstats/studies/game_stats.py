"""Game statistics as study aggregates: a record set as a ``games`` study, and the
claims table of either.

The statistics are defined once, in :mod:`mjstats.games.stats` (every game replayed
from its log through the engine's rules). A ``games`` study sums them as its
``claim_counts`` counter; :func:`record_games` makes real records into an aggregate
with the very counters of a ``games`` study, so every games table and the comparison
with real play (:mod:`mjstats.studies.realplay`) read played and real games alike.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mjstats.games import kernels as G
from mjstats.games import state as ST
from mjstats.games.stats import CLAIM_KINDS, CLAIM_NAMES, DATASET_COUNTS, dataset_counts
from mjstats.records import botzone_ruleset
from mjstats.records.replay import checked_blocks
from mjstats.rulesets import Ruleset, get_ruleset
from mjstats.studies.aggregate import Aggregate
from mjstats.studies.games import game_counters
from mjstats.studies.summaries import wilson_interval

__all__ = ["claim_table", "record_games"]


def record_games(path, ruleset: Ruleset | str | None = None, skip_bad: bool = False) -> Aggregate:
    """A record set (Botzone text data set, JSON judge logs, or a folder of them) as the
    aggregate of a ``games`` study.

    Every game is replayed through the engine on the Botzone wall
    (:mod:`mjstats.records.replay`: each move legal, the end the record's; the fans
    are the engine's scoring, which :func:`mjstats.records.check_records` compares
    with the judge's)
    and counted as a study counts its games: the counters of
    :func:`mjstats.studies.games.game_counters` (fans per win and per game, wins,
    deal-ins and points per seat, lengths, melds), ``claim_counts`` and
    ``dataset_claims`` (the chances and claims counted as the real-play data set's
    publisher counts them, :func:`mjstats.games.stats.dataset_counts`). ``ruleset``:
    default the judge's options (:func:`mjstats.records.botzone_ruleset`).

    The parameters name the ``records`` (the sources) instead of a seed; ``policy``
    is ``"real play"`` at every seat. ``bad`` counts the games skipped with
    ``skip_bad`` (the first 20 reasons are in ``meta["bad_games"]``).

    Raises
    ------
    mjstats.errors.RecordError
        Without ``skip_bad``: a game that cannot be read, does not replay legally, or
        ends otherwise than its record (named by file and match id).

    Examples
    --------
    >>> from pathlib import Path
    >>> import mjstats
    >>> from mjstats.studies.games import games_summary
    >>> data = Path(mjstats.__file__).parents[1] / "tests" / "data" / "botzone"
    >>> s = games_summary(record_games(data))
    >>> s["games"], s["wins"], s["drawn"]
    (40, 38, 2)
    """
    rs = botzone_ruleset() if ruleset is None else get_ruleset(ruleset)
    c: dict[str, np.ndarray] = {}
    sources: set[str] = set()
    bad: list[str] = []
    for r in checked_blocks(path, rs, skip_bad):
        errors = [e for e in r.block.error if e is not None]
        good = np.flatnonzero(r.good)
        final, fans = r.final[good], r.fans[good]
        part = game_counters(_games_table(final, 4), fans, final, rs)
        part["claim_counts"] = r.counts[good].sum(axis=0).astype(np.int64)
        b = r.block
        part["dataset_claims"] = dataset_counts(b.walls[good], b.logs, b.n_log[good],
                                                b.starts[good]).sum(axis=0)  # fmt: skip
        c = {k: c[k] + v for k, v in part.items()} if c else part
        sources.update(r.block.source)
        bad += [str(e) for e in errors]
    if not c:  # no game at all
        empty = np.zeros((0, G.N_STATE), np.int64)
        c = game_counters(_games_table(empty, 4), np.zeros((0, rs.n_fans), np.uint8), empty, rs)
        c["claim_counts"] = np.zeros((3, 4, len(CLAIM_KINDS)), np.int64)
        c["dataset_claims"] = np.zeros(len(DATASET_COUNTS), np.int64)
    c["bad"] = np.array([len(bad)], np.int64)
    params = {
        "ruleset": rs.spec,
        "records": sorted(sources),
        "policy": ["real play"] * 4,
        "wall": "botzone",
    }
    if rs.options:
        params["options"] = dict(rs.options)
    return Aggregate("games", params, c, {"bad_games": bad[:20]})


def _games_table(final: np.ndarray, n_seats: int) -> pd.DataFrame:
    """The columns of :func:`mjstats.games.play_games`'s game table that
    :func:`~mjstats.studies.games.game_counters` reads, from final states."""
    cols = {
        "winner": final[:, G.S_WINNER],
        "kind": final[:, G.S_WIN_KIND],
        "from_seat": final[:, G.S_FROM],
        "total": final[:, G.S_TOTAL],
    }
    for q in range(n_seats):
        cols[f"score{q}"] = final[:, G.S_SCORE + q]
    cols["claims"] = final[:, ST.S_CLAIMS]
    return pd.DataFrame(cols)


def claim_table(agg: Aggregate, by_seat: bool = False) -> pd.DataFrame:
    """Claims of a ``games`` aggregate (a study, or :func:`record_games`).

    One row per kind of claim (:data:`mjstats.games.stats.CLAIM_KINDS`): ``chances``
    (discards or turns on which a seat could legally make it), ``made`` (made, the
    claims the priority rule passed over included), ``taken`` (carried out),
    ``per_game`` (taken a game), ``taken_rate`` and ``made_rate`` (per chance) and the
    95 % Wilson interval of ``taken_rate`` (``taken_ci_low``, ``taken_ci_high``;
    chances of one game are not independent, so read it as a guide).

    ``by_seat``: one row per seat and kind, with ``seat`` and ``policy``.

    Examples
    --------
    >>> from mjstats.studies.games import games
    >>> t = claim_table(games(40, seed=1, policy="fan-aware", progress=False))
    >>> t["claim"].tolist()[:3], bool((t["taken"] <= t["made"]).all())
    (['chow', 'pung', 'kong'], True)
    """
    if "claim_counts" not in agg.counters:
        raise ValueError(
            f"a {agg.kind} aggregate has no claim counts (games studies and record sets have)"
        )
    c = agg["claim_counts"]
    n = int(agg["games"][0])
    policies = list(agg.params.get("policy") or ["?"] * c.shape[1])
    rows = []
    for seat in range(c.shape[1]) if by_seat else [None]:
        part = c.sum(axis=1) if seat is None else c[:, seat, :]
        for k, name in enumerate(CLAIM_KINDS):
            chances, made, taken = (int(x) for x in part[:, k])
            row = {"claim": name, "zh": CLAIM_NAMES[name][0], "en": CLAIM_NAMES[name][1]}
            if seat is not None:
                row = {"seat": seat, "policy": policies[seat], **row}
            row.update(chances=chances, made=made, taken=taken,
                       per_game=taken / n if n else np.nan)  # fmt: skip
            rows.append(row)
    t = pd.DataFrame(rows)
    ch = t["chances"].to_numpy()
    with np.errstate(invalid="ignore", divide="ignore"):
        t["taken_rate"] = np.where(ch > 0, t["taken"] / np.maximum(ch, 1), np.nan)
        t["made_rate"] = np.where(ch > 0, t["made"] / np.maximum(ch, 1), np.nan)
    t["taken_ci_low"], t["taken_ci_high"] = wilson_interval(t["taken"].to_numpy(), ch)
    return t
