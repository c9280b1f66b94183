"""Score real wins: compare with the judge (:func:`check_records`) and aggregate them.

Every win that :func:`~mjstats.records.read_botzone` reconstructs is scored with
:func:`mjstats.score_batch` under the options of the Botzone judge
(:func:`botzone_ruleset`: MCR with 明暗杠 = 5 and flower points counting toward
the 8-fan minimum). :func:`check_records` compares the result with the fans the
judge recorded (names mapped by :mod:`mjstats.rulesets.mcr.judge`) and explains every
difference; :func:`mjstats.studies.records.records_aggregate` turns the scored wins into the same
fan-statistics :class:`~mjstats.studies.aggregate.Aggregate` as a study (kind
``"records"``), with the real win types, so every report of :mod:`mjstats.report`
(payments included) works on real play.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from mjstats.errors import InvalidHandError
from mjstats.rulesets import Ruleset, get_ruleset
from mjstats.rulesets.mcr.judge import BOTZONE_OPTIONS, botzone_ruleset, judge_fan_counts
from mjstats.scorer import score_batch

if TYPE_CHECKING:
    from mjstats.records.botzone import RecordSet

__all__ = [
    "BOTZONE_OPTIONS",
    "RecordCheck",
    "botzone_ruleset",
    "check_records",
    "score_records",
]

_WINDS = "ESWN"


@dataclass(frozen=True, eq=False)
class ScoredWins:
    """Scores of the wins of a :class:`RecordSet` (arrays, one row per win).

    ``total`` is -1 and ``error`` names the reason where a win could not be
    scored (a context the scorer rejects); ``error`` is ``""`` elsewhere.
    """

    total: np.ndarray
    fan_counts: np.ndarray
    legal: np.ndarray
    form: np.ndarray
    error: tuple[str, ...]
    ruleset: Ruleset


def score_records(records: RecordSet, ruleset: Ruleset | str | None = None) -> ScoredWins:
    """Score every reconstructed win (Botzone options by default).

    A win whose context the scorer rejects (which would mean a reconstruction
    bug) does not stop the others: it gets total -1 and an ``error`` message.

    Examples
    --------
    >>> from mjstats.records import read_botzone
    >>> from mjstats.records.check import score_records, _DEMO_GAME
    >>> s = score_records(read_botzone(_DEMO_GAME))
    >>> s.total.tolist(), s.error
    ([20], ('',))
    """

    rs = botzone_ruleset() if ruleset is None else get_ruleset(ruleset)
    batch = records.batch
    n = len(batch)
    try:
        s = score_batch(batch, rs)
        return ScoredWins(s.total, s.fan_counts, s.legal, s.form, ("",) * n, rs)
    except InvalidHandError:
        pass
    # rare path: score row by row to isolate the rows the scorer rejects
    total = np.full(n, -1, np.int16)
    fan_counts = np.zeros((n, rs.n_fans), np.uint8)
    legal = np.zeros(n, bool)
    form = np.zeros(n, np.uint8)
    errors = []
    for i in range(n):
        try:
            s = score_batch(batch[i : i + 1], rs)
        except InvalidHandError as exc:
            errors.append(str(exc))
            continue
        total[i], fan_counts[i], legal[i], form[i] = (
            s.total[0],
            s.fan_counts[0],
            s.legal[0],
            s.form[0],
        )
        errors.append("")
    return ScoredWins(total, fan_counts, legal, form, tuple(errors), rs)


@dataclass(frozen=True, eq=False)
class RecordCheck:
    """The result of :func:`check_records`.

    Attributes
    ----------
    games, wins, drawn, aborted, bad : int
        Counts from the :class:`~mjstats.records.RecordSet`.
    table : pandas.DataFrame
        One row per win: ``source, match_id, game, line, seat, win_type,
        win_tile, hand`` (canonical hand text), ``recorded_total``,
        ``computed_total``, ``matched`` (bool) and ``diff`` (the differences,
        one per line, ``""`` when matched).
    errors : tuple of str
        Messages of the games skipped as malformed (``skip_bad=True``).
    """

    games: int
    wins: int
    drawn: int
    aborted: int
    bad: int
    table: pd.DataFrame
    errors: tuple[str, ...] = ()

    @property
    def matched(self) -> int:
        """Wins whose computed fans and total equal the judge's."""
        return int(self.table["matched"].sum())

    @property
    def mismatched(self) -> int:
        """Wins that differ from the judge."""
        return self.wins - self.matched

    @property
    def mismatches(self) -> pd.DataFrame:
        """The rows of :attr:`table` that differ from the judge."""
        return self.table[~self.table["matched"]]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready summary: the counts and one entry per mismatch.

        Examples
        --------
        >>> from mjstats.records import read_botzone
        >>> from mjstats.records.check import check_records, _DEMO_GAME
        >>> d = check_records(read_botzone(_DEMO_GAME)).to_dict()
        >>> {k: d[k] for k in ("games", "wins", "matched", "mismatched")}
        {'games': 1, 'wins': 1, 'matched': 1, 'mismatched': 0}
        """
        cols = [
            "source",
            "match_id",
            "game",
            "line",
            "seat",
            "win_type",
            "win_tile",
            "hand",
            "recorded_total",
            "computed_total",
        ]
        mismatches = [
            {**{c: _py(getattr(row, c)) for c in cols}, "diff": row.diff.split("\n")}
            for row in self.mismatches.itertuples(index=False)
        ]
        return {
            "games": self.games,
            "wins": self.wins,
            "matched": self.matched,
            "mismatched": self.mismatched,
            "drawn": self.drawn,
            "aborted": self.aborted,
            "bad": self.bad,
            "mismatches": mismatches,
        }

    def format_mismatch(self, i: int) -> str:
        """A readable explanation of mismatch ``i`` (position in :attr:`mismatches`)."""
        row = self.mismatches.iloc[i].to_dict()
        tile, win_type = row["win_tile"], row["win_type"]
        how = {
            "discard": f"on a discard of {tile}",
            "self_drawn": f"self-drawn on {tile}",
            "robbed_kong": f"robbing a kong of {tile}",
        }.get(win_type, f"({win_type}) on {tile}")
        head = (
            f"{row['source']} line {row['line']}, match {row['match_id']}: "
            f"player {row['seat']} ({_WINDS[int(row['seat'])]}) wins {how}"
        )
        body = [f"  hand   {row['hand']}"] + [f"  {d}" for d in row["diff"].split("\n")]
        return "\n".join([head, *body])


def check_records(records: RecordSet, ruleset: Ruleset | str | None = None) -> RecordCheck:
    """Score every win and compare with the fans and total the judge recorded.

    Parameters
    ----------
    records : RecordSet
        From :func:`~mjstats.records.read_botzone`.
    ruleset : Ruleset or str, optional
        Default :func:`botzone_ruleset` (the judge's options).

    Returns
    -------
    RecordCheck
        A win *matches* when every fan occurs as often as the judge says (fan
        names mapped by :data:`~mjstats.rulesets.mcr.judge.JUDGE_NAMES`, so 嵌张 and
        独听・嵌张 are both 坎张) and the totals are equal.

    Examples
    --------
    >>> from mjstats.records import read_botzone
    >>> from mjstats.records.check import check_records, _DEMO_GAME
    >>> check = check_records(read_botzone(_DEMO_GAME))
    >>> check.wins, check.matched, check.mismatched
    (1, 1, 0)

    A judge that had recorded 连六 instead of 喜相逢:

    >>> wrong = read_botzone(_DEMO_GAME.replace("喜相逢", "连六"))
    >>> print(check_records(wrong).format_mismatch(0))  # doctest: +NORMALIZE_WHITESPACE
    <text> line 9, match demo: player 1 (S) wins on a discard of T9
      hand   789p12345678s11z+9s seat=S round=S
      喜相逢 Mixed Double Chow: judge 0, mjstats 1
      连六 Short Straight: judge 1, mjstats 0
    """
    rs = botzone_ruleset() if ruleset is None else get_ruleset(ruleset)
    rec = records.recorded
    scored = score_records(records, rs)
    judge, unknown = judge_fan_counts(rec["fans"], rs)
    computed = scored.fan_counts
    recorded_total = rec["total"].to_numpy(np.int64)
    computed_total = scored.total.astype(np.int64)
    same = (judge == computed).all(axis=1) & (recorded_total == computed_total)
    same &= np.array([not u for u in unknown], bool)
    same &= np.array([not e for e in scored.error], bool)
    diffs = [""] * len(rec)
    for i in np.flatnonzero(~same):
        diffs[i] = _diff(
            rs, judge[i], computed[i], recorded_total[i], computed_total[i], unknown[i]
        )
        if scored.error[i]:
            diffs[i] = f"mjstats cannot score it: {scored.error[i]}\n" + diffs[i]
    table = pd.DataFrame(
        {
            "source": rec["source"],
            "match_id": rec["match_id"],
            "game": rec["game"],
            "line": rec["line"],
            "seat": rec["seat"],
            "win_type": rec["win_type"],
            "win_tile": rec["win_tile"],
            "hand": records.batch.to_text() if len(rec) else [],
            "recorded_total": recorded_total,
            "computed_total": computed_total,
            "matched": same,
            "diff": diffs,
        }
    )
    return RecordCheck(
        games=records.games,
        wins=records.wins,
        drawn=records.drawn,
        aborted=records.aborted,
        bad=records.bad,
        table=table,
        errors=tuple(records.errors),
    )


def _diff(rs, judge, computed, recorded_total, computed_total, unknown) -> str:
    lines = []
    if recorded_total != computed_total:
        lines.append(f"total: judge {recorded_total}, mjstats {computed_total}")
    for f in np.flatnonzero(judge != computed):
        fan = rs.fans[f]
        lines.append(f"{fan.zh} {fan.en}: judge {judge[f]}, mjstats {computed[f]}")
    for name, count in unknown:
        lines.append(f"{name}: judge {count}, not a fan of ruleset {rs.name!r}")
    return "\n".join(lines)


def _py(v: Any) -> Any:
    return v.item() if isinstance(v, np.generic) else v


_DEMO_GAME = """Match demo
Wind 1
Player 0 Deal W1 W2 W3 W4 W5 W6 W7 W8 B1 B1 B2 B3 B4
Player 1 Deal T1 T2 T3 T4 T5 T6 T7 T8 B7 B8 B9 F1 F1
Player 2 Deal F2 F2 F2 F3 F3 F3 F4 F4 F4 J1 J1 J1 J2
Player 3 Deal J2 J2 J3 J3 J3 B5 B5 B5 B6 B6 B6 T7 T7
Player 0 Draw T9
Player 0 Play T9
Player 1 Hu T9
Fan 20 清龙*1+门前清*1+喜相逢*1+缺一门*1
Score -28 44 -8 -8
"""
"""One game in the text data set format (the reader's example), for examples."""
