"""Record-set statistics for people: per seat and per player of real Botzone games.

:func:`player_stats` replays every game through the engine
(:mod:`mjstats.records.replay`, the counts of :func:`mjstats.records.record_stats`)
and sums them by seat (East, South, West, North) or by player, the bot name a JSON
judge log gives each seat (text records name nobody: their seats count as
``"(unnamed)"``): games, wins, self-drawn
wins, deal-ins, drawn games, claims taken per opportunity (chow, pung and exposed
kong on a discard), the mean total of the wins, points per game and the win rate
with its 95 % Wilson interval. :func:`player_fans` gives the fan frequencies of
each group's wins; :func:`plot_players` (wins and deal-ins with intervals) and
:func:`plot_player_fans` draw them.
"""

from __future__ import annotations

import os

import numpy as np
import pandas as pd

from mjstats.errors import InvalidArgumentError, RecordError
from mjstats.games.stats import seat_rows
from mjstats.records import botzone_ruleset
from mjstats.records.judge_logs import UNNAMED
from mjstats.records.replay import checked_blocks
from mjstats.rulesets import Ruleset, get_ruleset
from mjstats.studies.summaries import wilson_interval

__all__ = ["UNNAMED", "player_fans", "player_stats", "plot_player_fans", "plot_players"]

_WINDS = ("East", "South", "West", "North")
_CLAIMS = ("chow", "pung", "kong")


def _rows(path, ruleset, skip_bad: bool) -> tuple[pd.DataFrame, np.ndarray, Ruleset]:
    rs = botzone_ruleset() if ruleset is None else get_ruleset(ruleset)
    parts, fan_parts = [], []
    for r in checked_blocks(path, rs, skip_bad):
        b = r.block
        good = np.flatnonzero(r.good)
        rows = seat_rows(r.final[good], r.counts[good], 4, np.asarray(b.match, object)[good])
        rows["player"] = [(b.players[i] or (UNNAMED,) * 4)[s] for i in good for s in range(4)]
        parts.append(rows)
        fan_parts.append(np.repeat(r.fans[good], 4, axis=0))
    if not parts:
        raise RecordError("no game found", os.fspath(path))
    return pd.concat(parts, ignore_index=True), np.concatenate(fan_parts), rs


def _key(by: str) -> str:
    if by not in ("seat", "player"):
        raise InvalidArgumentError(f"by must be 'seat' or 'player', not {by!r}")
    return by


def player_stats(path, by: str = "seat", ruleset: Ruleset | str | None = None,
                 skip_bad: bool = False) -> pd.DataFrame:  # fmt: skip
    """Per seat or per player: games, wins, self-drawn, deal-ins, draws, claims, points.

    Parameters
    ----------
    path : str or os.PathLike
        A Botzone text record file, a JSON judge log or a folder of them.
    by : {"seat", "player"}
        Group by seat (index East ... North) or by the players' names.
    ruleset, skip_bad
        As in :func:`mjstats.records.record_stats`.

    Returns
    -------
    pandas.DataFrame
        One row per seat or player: ``games``, ``wins``, ``self_drawn``, ``deal_ins``,
        ``draws``, ``claims`` (chows, pungs and exposed kongs taken), ``claim_chances``
        (discards on which one was legal), ``claims_per_chance``, ``mean_fan`` (mean
        total of the wins), ``points``, ``points_per_game``, ``win_rate`` and its 95 %
        Wilson interval ``win_low``, ``win_high``.

    Examples
    --------
    >>> from pathlib import Path
    >>> import mjstats
    >>> data = Path(mjstats.__file__).parents[1] / "tests" / "data" / "botzone"
    >>> t = player_stats(data)
    >>> t.index.tolist(), int(t.games.sum()), int(t.wins.sum())
    (['East', 'South', 'West', 'North'], 160, 38)
    >>> player_stats(data, by="player").index.tolist()
    ['(unnamed)', '[pycc]chunjiandu']
    """
    key = _key(by)
    rows, _, _ = _rows(path, ruleset, skip_bad)
    rows["claims"] = sum(rows[f"{c}_taken"] for c in _CLAIMS)
    rows["claim_chances"] = sum(rows[f"{c}_chances"] for c in _CLAIMS)
    rows["win_total"] = np.where(rows["won"] > 0, rows["total"], 0)
    g = rows.groupby(key, sort=True)
    t = pd.DataFrame(
        {
            "games": g.size(),
            "wins": g["won"].sum(),
            "self_drawn": g["self_drawn"].sum(),
            "deal_ins": g["deal_in"].sum(),
            "draws": g["drawn"].sum(),
            "claims": g["claims"].sum(),
            "claim_chances": g["claim_chances"].sum(),
            "points": g["points"].sum(),
        }
    )
    with np.errstate(invalid="ignore", divide="ignore"):
        t["claims_per_chance"] = t["claims"] / t["claim_chances"]
        t["mean_fan"] = g["win_total"].sum() / t["wins"]
    t["points_per_game"] = t["points"] / t["games"]
    t["win_rate"] = t["wins"] / t["games"]
    t["win_low"], t["win_high"] = wilson_interval(t["wins"], t["games"])
    if key == "seat":
        t.index = [_WINDS[s] for s in t.index]
    t.index.name = key
    return t


def player_fans(path, by: str = "seat", ruleset: Ruleset | str | None = None,
                skip_bad: bool = False) -> pd.DataFrame:  # fmt: skip
    """Fan frequencies of each seat's or player's wins: the share of its wins that count
    each fan (rows: fans that occur, by Chinese and English name; columns: groups).

    Examples
    --------
    >>> from pathlib import Path
    >>> import mjstats
    >>> data = Path(mjstats.__file__).parents[1] / "tests" / "data" / "botzone"
    >>> f = player_fans(data / "sample.txt")
    >>> list(f.columns), bool(((f >= 0) & (f <= 1)).all().all())
    (['East', 'South', 'West', 'North'], True)
    """
    key = _key(by)
    rows, fans, rs = _rows(path, ruleset, skip_bad)
    won = rows["won"].to_numpy() > 0
    groups = sorted(set(rows[key]))
    cols = {}
    for grp in groups:
        sel = won & (rows[key].to_numpy() == grp)
        n = int(sel.sum())
        cols[_WINDS[grp] if key == "seat" else grp] = (
            (fans[sel] > 0).sum(0) / n if n else np.full(rs.n_fans, np.nan)
        )
    t = pd.DataFrame(cols, index=[f"{f.zh} {f.en}" for f in rs.fans])
    t.index.name = "fan"
    return t[(t.fillna(0) > 0).any(axis=1)]


def plot_players(table: pd.DataFrame, ax=None):
    """Bar chart of :func:`player_stats`: each seat's or player's win rate and deal-in
    rate per game, with 95 % Wilson intervals. Needs matplotlib (the ``plot`` extra).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from pathlib import Path
    >>> import mjstats
    >>> data = Path(mjstats.__file__).parents[1] / "tests" / "data" / "botzone"
    >>> ax = plot_players(player_stats(data))
    >>> len(ax.patches), ax.get_ylabel()
    (8, 'probability per game')
    >>> import matplotlib.pyplot as plt; plt.close(ax.figure)
    """
    # deferred: matplotlib is an optional extra
    import matplotlib.pyplot as plt

    own = ax is None
    if own:
        ax = plt.subplots(figsize=(max(5, 1.6 * len(table)), 4))[1]
    x = np.arange(len(table))
    n = table["games"].to_numpy()
    for offset, count, label, color in (
        (-0.2, "wins", "win", "#3b75af"),
        (0.2, "deal_ins", "deal-in", "#c0392b"),
    ):
        k = table[count].to_numpy()
        p = k / n
        lo, hi = wilson_interval(k, n)
        ax.bar(x + offset, p, width=0.4, yerr=np.vstack([p - lo, hi - p]), capsize=2,
               label=label, color=color)  # fmt: skip
    ax.set_xticks(x, [f"{name}\n{int(g):,} games" for name, g in zip(table.index, n, strict=True)])
    ax.set_ylabel("probability per game")
    ax.set_title(f"Wins and deal-ins per {table.index.name}")
    ax.legend()
    if own:
        ax.figure.tight_layout()
    return ax


def plot_player_fans(fans: pd.DataFrame, ax=None, top: int = 15):
    """Grouped horizontal bars of :func:`player_fans`: the ``top`` fans most frequent
    over the groups, the share of each group's wins that count them.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from pathlib import Path
    >>> import mjstats
    >>> data = Path(mjstats.__file__).parents[1] / "tests" / "data" / "botzone"
    >>> ax = plot_player_fans(player_fans(data, by="player"), top=5)
    >>> len(ax.patches), ax.get_xlabel()
    (10, 'share of wins')
    >>> import matplotlib.pyplot as plt; plt.close(ax.figure)
    """
    # deferred: matplotlib is an optional extra
    import matplotlib.pyplot as plt

    order = fans.fillna(0).mean(axis=1).sort_values(ascending=False).index[:top]
    shown = fans.loc[order[::-1]].fillna(0)
    own = ax is None
    if own:
        ax = plt.subplots(figsize=(8, 0.45 * len(shown) * max(1, len(shown.columns)) / 2 + 1.5))[1]
    y = np.arange(len(shown))
    h = 0.8 / max(1, len(shown.columns))
    for j, col in enumerate(shown.columns):
        ax.barh(y + (j - (len(shown.columns) - 1) / 2) * h, shown[col], height=h, label=str(col))
    ax.set_yticks(y, [str(i).split(" ", 1)[-1] for i in shown.index])  # English names
    ax.set_xlabel("share of wins")
    ax.set_title("Fans of each one's wins")
    ax.legend()
    if own:
        ax.figure.tight_layout()
    return ax
