"""Simulated (or recorded) games beside real play: fans per 100 games and claim rates.

The yardstick shipped with mjstats (``mjstats/data/real-play-botzone.json``,
:func:`real_play`) is the published statistics of Botzone's public Chinese Standard
Mahjong data set: 98,208 complete games played by strong bots on Botzone in 2021
(MCR as Botzone's judge scores it, four 34-tile wall segments, no flowers). Its fan
counts (73 fans) and claim rates were made by the parser of the public repository
ZhijieXiong/ai4mahjiong (its ``analysis_result.txt``, commit aa15be2); the data set
itself is not shipped.

:func:`compare_real_play` puts a ``games`` aggregate (a study,
:func:`mjstats.studies.games.games`, or real records,
:func:`mjstats.studies.game_stats.record_games`) beside it: per fan, both rates per
100 games, the aggregate's 95 % Wilson interval, the ratio and its log2; per kind of
claim, both rates per chance and both counts a game. The published chances were
counted by the data set's own parser, not as the engine's legal chances: the rates of
games on the Botzone wall (and of real records) are counted the same way
(:mod:`mjstats.games.dataset_count`), the legal rates shown beside them.
:func:`real_play_summary` gives the headline: the mean ``|log2 ratio|`` over the
reference's 30 commonest fans, how many of them are within a factor 1.5 and how many
beyond a factor 2.5. :func:`plot_real_play` draws the fans on a log scale.

Play the games as the data set was played for a fair comparison: ``wall="botzone"``
(no flowers, so no 花牌), MCR with the judge's options where they matter.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
import pandas as pd

from mjstats.games.stats import CLAIM_KINDS, CLAIM_NAMES, DATASET_COUNTS
from mjstats.rulesets import get_ruleset
from mjstats.studies.aggregate import Aggregate
from mjstats.studies.summaries import wilson_interval

__all__ = [
    "REFERENCES",
    "RealPlay",
    "compare_real_play",
    "plot_real_play",
    "real_play",
    "real_play_summary",
    "summary_line",
]

_DATA = Path(__file__).resolve().parents[1] / "data"
REFERENCES = {"botzone-2021": "real-play-botzone.json"}
"""Real-play references shipped with mjstats: name -> file in ``mjstats/data``."""

TOP = 30
"""Fans of the summary: the reference's commonest."""


@dataclass(frozen=True)
class RealPlay:
    """A real-play reference (:func:`real_play`).

    Attributes
    ----------
    name, title : str
        Its name (a key of :data:`REFERENCES`) and a one-line title.
    ruleset : str
        The name of the ruleset the games were played under (their fan keys are its).
    games : int
        Games of the data set.
    data_set, source, notes : str
        What the data set is, where the figures come from, and how to read them.
    fans : pandas.DataFrame
        ``rank`` (1 = commonest), ``key`` (the MCR ruleset's fan key), ``zh``,
        ``count``, ``per_100`` (count per 100 games).
    claims : pandas.DataFrame
        ``claim`` (:data:`mjstats.games.stats.CLAIM_KINDS`), ``taken``, ``chances``,
        ``rate`` (taken per chance), ``per_game`` (taken a game).
    """

    name: str
    title: str
    ruleset: str
    games: int
    data_set: str
    source: str
    notes: str
    fans: pd.DataFrame
    claims: pd.DataFrame


@cache
def _load(name: str) -> RealPlay:
    try:
        path = _DATA / REFERENCES[name]
    except KeyError:
        raise ValueError(
            f"unknown real-play reference {name!r}; choose one of {', '.join(REFERENCES)}"
        ) from None
    d = json.loads(path.read_text(encoding="utf-8"))
    games = int(d["games"])
    fans = pd.DataFrame(d["fans"])
    fans = fans.sort_values("count", ascending=False, kind="stable").reset_index(drop=True)
    fans.insert(0, "rank", np.arange(1, len(fans) + 1))
    fans["per_100"] = fans["count"] / games * 100
    claims = pd.DataFrame(
        [{"claim": k, "taken": v["taken"], "chances": v["chances"]} for k, v in d["claims"].items()]
    )
    claims["rate"] = claims["taken"] / claims["chances"]
    claims["per_game"] = claims["taken"] / games
    notes = f"{d['fan_counts']} {d['claim_counts']}"
    return RealPlay(
        name, d["title"], d["ruleset"], games, d["data_set"], d["source"], notes, fans, claims
    )


def real_play(name: str = "botzone-2021") -> RealPlay:
    """The real-play reference ``name`` (see :data:`REFERENCES`).

    Examples
    --------
    >>> ref = real_play()
    >>> ref.games, ref.fans.loc[0, "zh"], round(float(ref.fans.loc[0, "per_100"]), 2)
    (98208, '平和', 39.09)
    >>> ref.claims.set_index("claim").loc["pung", "rate"].round(4)
    np.float64(0.4905)
    """
    return _load(name)


def _fans_side(agg: Aggregate, keys, fan_count: str):
    """Per reference fan key: the aggregate's count (wins holding the fan, or times
    scored) and the fan's names; NaN counts for keys its ruleset lacks."""
    rs = get_ruleset(agg.params.get("ruleset", "mcr"))
    hands = np.diag(agg["cooccurrence"]).astype(np.int64)
    times = agg["fan_count"].astype(np.int64)
    counts, en = [], []
    for key in keys:
        try:
            f = rs.fan_id(key)
        except KeyError:
            counts.append(np.nan)
            en.append("")
            continue
        counts.append(float(hands[f] if fan_count == "wins" else times[f]))
        en.append(rs.fans[f].en)
    return np.array(counts), en


def compare_real_play(
    agg: Aggregate, reference: str = "botzone-2021", fan_count: str = "wins"
) -> pd.DataFrame:
    """A ``games`` aggregate beside real play, fan by fan and claim by claim.

    Parameters
    ----------
    agg : Aggregate
        Of a ``games`` study or a record set (:func:`~mjstats.studies.game_stats.record_games`;
        the ``records`` aggregate of ``mjstats records`` too, for its fans). Its
        ruleset must be MCR's (the reference's fans are MCR fans).
    reference : str
        A key of :data:`REFERENCES`.
    fan_count : {"wins", "times"}
        Count a fan once per win holding it (default) or as many times as it is
        scored (喜相逢 twice ...); the reference does not say which it counts for
        the fans that can count twice.

    Returns
    -------
    pandas.DataFrame
        One row per reference fan (by rank), then one per kind of claim the
        reference has: ``what`` (``"fan"`` / ``"claim"``), ``rank``, ``key``, ``zh``,
        ``en``, ``unit`` (``"per 100 games"``, ``"taken per chance"``), ``real``
        (the reference's rate), ``rate`` (the aggregate's), ``ci_low`` / ``ci_high``
        (its 95 % Wilson interval), ``count`` and ``of`` (its count and what it is out
        of: games, or chances), ``ratio`` (``rate / real``), ``log2_ratio``. The claim
        rows also have ``counted``: ``"as the data set"`` where the chances were
        counted as the reference's were (an aggregate with the ``dataset_claims``
        counter: games played on the Botzone wall, and real records;
        :func:`mjstats.games.stats.dataset_counts`), else ``"legal chances"``
        (the engine's); ``legal_rate`` and ``legal_chances``, the claims taken per legal
        chance and those chances; ``real_per_game`` and ``per_game`` (claims taken a
        game) with ``per_game_ci_low`` / ``per_game_ci_high`` (95 %, the count's
        Poisson variance: an approximation, as the aggregate keeps sums, not each
        game's count). NaN in the fan rows.

    Raises
    ------
    ValueError
        An aggregate without games and fans, or of another ruleset than MCR (its
        profiles and options are MCR).

    Examples
    --------
    >>> from mjstats.studies.games import games
    >>> t = compare_real_play(games(60, seed=1, policy="fan-aware", wall="botzone",
    ...                            progress=False))
    >>> t.loc[0, ["what", "zh", "unit"]].tolist(), round(float(t.loc[0, "real"]), 2)
    (['fan', '平和', 'per 100 games'], 39.09)
    >>> claims = t[t["what"] == "claim"].set_index("key")
    >>> claims.index.tolist()
    ['chow', 'pung', 'kong', 'promoted_kong', 'concealed_kong']
    >>> round(float(claims.loc["pung", "real_per_game"]), 2)  # 177,092 in 98,208 games
    1.8
    """
    if fan_count not in ("wins", "times"):
        raise ValueError(f"fan_count must be 'wins' or 'times', not {fan_count!r}")
    if "games" not in agg.counters or "cooccurrence" not in agg.counters:
        raise ValueError(
            f"a {agg.kind} aggregate has no games and fans to set beside real play "
            "(a games study, or real records, has)"
        )
    ref = real_play(reference)
    spec = agg.params.get("ruleset", "mcr")
    if get_ruleset(spec).name != ref.ruleset:
        raise ValueError(
            f"the aggregate's ruleset is {spec!r}: {ref.title} is {ref.ruleset!r} play, "
            f"comparable with {ref.ruleset!r} games only"
        )
    n = int(agg["games"][0])
    counts, en = _fans_side(agg, ref.fans["key"], fan_count)
    known = np.nan_to_num(counts)
    lo, hi = wilson_interval(known, np.full(len(known), n))
    with np.errstate(invalid="ignore", divide="ignore"):
        rate = np.where(np.isnan(counts), np.nan, known / n * 100 if n else np.nan)
    fans = pd.DataFrame(
        {
            "what": "fan",
            "rank": ref.fans["rank"],
            "key": ref.fans["key"],
            "zh": ref.fans["zh"],
            "en": en,
            "unit": "per 100 games",
            "real": ref.fans["per_100"],
            "rate": rate,
            "ci_low": lo * 100,
            "ci_high": hi * 100,
            "count": counts,
            "of": float(n),
        }
    )
    rows = [fans]
    if "claim_counts" in agg.counters:
        c = agg["claim_counts"].sum(axis=1)  # (chances / made / taken, kind)
        idx = [CLAIM_KINDS.index(k) for k in ref.claims["claim"]]
        taken = c[2, idx].astype(float)
        chances = c[0, idx].astype(float)
        with np.errstate(invalid="ignore", divide="ignore"):
            legal_rate = np.where(chances > 0, taken / np.maximum(chances, 1), np.nan)
            per_game = taken / n if n else np.full(len(idx), np.nan)
        half = 1.96 * np.sqrt(taken) / max(n, 1)
        # the rate set beside the published one: counted as the data set's parser
        # counts (the chances and claims of the games it reads), where the aggregate
        # has that count; else of the engine's legal chances
        counted = np.array(["legal chances"] * len(idx), dtype=object)
        rate_taken, rate_of = taken.copy(), chances.copy()
        d = {"games": 0}
        if "dataset_claims" in agg.counters:
            d = dict(zip(DATASET_COUNTS, agg["dataset_claims"].tolist(), strict=True))
        if d["games"]:
            for j, key in enumerate(ref.claims["claim"]):
                rate_taken[j], rate_of[j] = d[f"{key}s"], d[f"{key}_chances"]
                counted[j] = "as the data set"
        clo, chi = wilson_interval(rate_taken, rate_of)
        with np.errstate(invalid="ignore", divide="ignore"):
            crate = np.where(rate_of > 0, rate_taken / np.maximum(rate_of, 1), np.nan)
        rows.append(
            pd.DataFrame(
                {
                    "what": "claim",
                    "rank": np.arange(1, len(idx) + 1),
                    "key": ref.claims["claim"],
                    "zh": [CLAIM_NAMES[k][0] for k in ref.claims["claim"]],
                    "en": [CLAIM_NAMES[k][1] for k in ref.claims["claim"]],
                    "unit": "taken per chance",
                    "real": ref.claims["rate"],
                    "rate": crate,
                    "ci_low": clo,
                    "ci_high": chi,
                    "count": rate_taken,
                    "of": rate_of,
                    "counted": counted,
                    "legal_rate": legal_rate,
                    "legal_chances": chances,
                    "real_per_game": ref.claims["per_game"],
                    "per_game": per_game,
                    "per_game_ci_low": np.maximum(per_game - half, 0),
                    "per_game_ci_high": per_game + half,
                }
            )
        )
    t = pd.concat(rows, ignore_index=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        t["ratio"] = t["rate"] / t["real"]
        t["log2_ratio"] = np.log2(t["ratio"])
    return t


def real_play_summary(table: pd.DataFrame, top: int = TOP) -> dict:
    """The headline of :func:`compare_real_play`'s table over the reference's ``top``
    commonest fans.

    ``mean_abs_log2`` is the mean ``|log2(rate / real)|``, a fan never seen counted
    as half an occurrence (so that it is finite: ``log2`` of a zero rate is
    ``-inf``); ``within_1_5`` counts the fans within a factor 1.5 either way,
    ``beyond_2_5`` those beyond a factor 2.5 (never seen included), ``never_seen``
    those the aggregate has none of; ``fans`` is how many were compared and
    ``chow_rate`` / ``pung_rate`` the claim rates (NaN without claim counts),
    beside ``real_chow_rate`` / ``real_pung_rate``, ``claims_counted`` how their
    chances were counted (the table's ``counted``), ``chow_legal_rate`` /
    ``pung_legal_rate`` the rates per legal chance, and ``chow_per_game`` /
    ``pung_per_game`` the claims taken a game beside ``real_chow_per_game`` /
    ``real_pung_per_game``.

    Examples
    --------
    >>> from mjstats.studies.games import games
    >>> t = compare_real_play(games(60, seed=1, policy="fan-aware", wall="botzone",
    ...                            progress=False))
    >>> s = real_play_summary(t)
    >>> s["fans"], s["within_1_5"] + s["beyond_2_5"] <= 30
    (30, True)
    """
    fans = table[(table["what"] == "fan") & table["rate"].notna()]
    fans = fans.sort_values("rank").head(top)
    of = fans["of"].to_numpy(dtype=float)
    count = np.maximum(fans["count"].to_numpy(dtype=float), 0.5)
    with np.errstate(invalid="ignore", divide="ignore"):
        log2 = np.log2(count / np.maximum(of, 1) * 100 / fans["real"].to_numpy(dtype=float))
    a = np.abs(log2)
    claims = table[table["what"] == "claim"].set_index("key")

    def claim(key: str, col: str) -> float:
        return float(claims.loc[key, col]) if key in claims.index else float("nan")

    counted = str(claims.loc["pung", "counted"]) if "pung" in claims.index else ""

    return {
        "fans": len(fans),
        "mean_abs_log2": float(a.mean()) if len(a) else float("nan"),
        "within_1_5": int((a <= np.log2(1.5)).sum()),
        "beyond_2_5": int((a > np.log2(2.5)).sum()),
        "never_seen": int((fans["count"] == 0).sum()),
        "chow_rate": claim("chow", "rate"),
        "pung_rate": claim("pung", "rate"),
        "real_chow_rate": claim("chow", "real"),
        "real_pung_rate": claim("pung", "real"),
        "claims_counted": counted,
        "chow_legal_rate": claim("chow", "legal_rate"),
        "pung_legal_rate": claim("pung", "legal_rate"),
        "chow_per_game": claim("chow", "per_game"),
        "pung_per_game": claim("pung", "per_game"),
        "real_chow_per_game": claim("chow", "real_per_game"),
        "real_pung_per_game": claim("pung", "real_per_game"),
    }


def summary_line(summary: dict) -> str:
    """:func:`real_play_summary` as one line for people.

    Examples
    --------
    >>> print(summary_line({"fans": 30, "mean_abs_log2": 1.04, "within_1_5": 15,
    ...     "beyond_2_5": 9, "never_seen": 1, "chow_rate": 0.1, "pung_rate": 0.2,
    ...     "real_chow_rate": 0.295, "real_pung_rate": 0.4905, "chow_per_game": 0.8,
    ...     "pung_per_game": 0.3, "real_chow_per_game": 2.36,
    ...     "real_pung_per_game": 1.80}))  # doctest: +NORMALIZE_WHITESPACE
    real play's 30 commonest fans: mean |log2 ratio| 1.04; 15 within 1.5x, 9 beyond
    2.5x (1 never seen); chow taken per chance 10.0% (real 29.5%), pung 20.0% (real
    49.0%); taken a game: chow 0.80 (real 2.36), pung 0.30 (real 1.80)

    Rates counted as the data set counts its chances say so, with the legal rates:

    >>> print(summary_line({"fans": 30, "mean_abs_log2": 0.23, "within_1_5": 26,
    ...     "beyond_2_5": 0, "never_seen": 0, "chow_rate": 0.297, "pung_rate": 0.421,
    ...     "real_chow_rate": 0.295, "real_pung_rate": 0.4905, "chow_per_game": 2.42,
    ...     "pung_per_game": 1.76, "real_chow_per_game": 2.36, "real_pung_per_game": 1.80,
    ...     "claims_counted": "as the data set", "chow_legal_rate": 0.302,
    ...     "pung_legal_rate": 0.371}))  # doctest: +NORMALIZE_WHITESPACE
    real play's 30 commonest fans: mean |log2 ratio| 0.23; 26 within 1.5x, 0 beyond
    2.5x; chow taken per chance 29.7% (real 29.5%), pung 42.1% (real 49.0%), chances
    counted as the data set counts them (of legal chances: chow 30.2%, pung 37.1%);
    taken a game: chow 2.42 (real 2.36), pung 1.76 (real 1.80)
    """
    s = summary
    line = (
        f"real play's {s['fans']} commonest fans: mean |log2 ratio| {s['mean_abs_log2']:.2f}; "
        f"{s['within_1_5']} within 1.5x, {s['beyond_2_5']} beyond 2.5x"
    )
    if s["never_seen"]:
        line += f" ({s['never_seen']} never seen)"
    if not np.isnan(s["chow_rate"]):
        line += (
            f"; chow taken per chance {s['chow_rate']:.1%} (real {s['real_chow_rate']:.1%}), "
            f"pung {s['pung_rate']:.1%} (real {s['real_pung_rate']:.1%})"
        )
        if s.get("claims_counted") == "as the data set":
            line += (
                f", chances counted as the data set counts them (of legal chances: chow "
                f"{s['chow_legal_rate']:.1%}, pung {s['pung_legal_rate']:.1%})"
            )
        line += (
            "; taken a game: "
            f"chow {s['chow_per_game']:.2f} (real {s['real_chow_per_game']:.2f}), "
            f"pung {s['pung_per_game']:.2f} (real {s['real_pung_per_game']:.2f})"
        )
    return line


def plot_real_play(agg: Aggregate, ax=None, top: int = TOP, reference: str = "botzone-2021"):
    """Fans per 100 games of ``agg`` beside real play, the reference's ``top``
    commonest, on a log scale: the real rate, the aggregate's with its 95 %
    interval, and the summary line as the title. Needs matplotlib (the ``plot`` extra).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from mjstats.studies.games import games
    >>> ax = plot_real_play(games(60, seed=1, policy="fan-aware", wall="botzone",
    ...                           progress=False), top=10)
    >>> len(ax.get_yticklabels())
    10
    """
    # deferred: matplotlib is an optional extra
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

    t = compare_real_play(agg, reference)
    fans = t[(t["what"] == "fan") & t["rate"].notna()].sort_values("rank").head(top)
    if ax is None:
        _, ax = plt.subplots(figsize=(7, 0.28 * len(fans) + 1.6))
    y = np.arange(len(fans))[::-1]
    floor = 0.5 / max(float(fans["of"].max()), 1) * 100  # a fan never seen: half a count
    rate = np.maximum(fans["rate"].to_numpy(dtype=float), floor)
    lo = np.maximum(fans["ci_low"].to_numpy(dtype=float), floor)
    hi = np.maximum(fans["ci_high"].to_numpy(dtype=float), floor)
    real = fans["real"].to_numpy(dtype=float)
    ax.barh(y, real * 1.5 - real / 1.5, left=real / 1.5, height=0.7, color="0.88",
            label="real play within 1.5x")  # fmt: skip
    ax.scatter(real, y, marker="|", s=120, color="black", label="real play", zorder=3)
    ax.errorbar(rate, y, xerr=[rate - lo, hi - rate], fmt="o", ms=4, color="C0", zorder=4,
                label=f"{_label(agg)} ({int(agg['games'][0]):,} games, 95% interval)")  # fmt: skip
    ax.set_xscale("log")
    ax.xaxis.set_major_locator(LogLocator(subs=(1.0, 2.0, 5.0)))  # 1 2 5 10 20 ...
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_yticks(y)
    ax.set_yticklabels([e or z for e, z in zip(fans["en"], fans["zh"], strict=True)], fontsize=8)
    ax.set_xlabel("wins holding the fan per 100 games (log scale)")
    ax.set_title("\n".join(summary_line(real_play_summary(t, top)).split("; ")), fontsize=8)
    ax.set_ylim(-3.2, len(fans) - 0.4)  # room for the legend below the last fan
    ax.legend(fontsize=7, loc="lower left")
    ax.figure.tight_layout()
    return ax


def _label(agg: Aggregate) -> str:
    """The games' name in a legend: their policies, or recorded games."""
    if "records" in agg.params or agg.kind == "records":
        return "recorded games"
    names = sorted(set(agg.params.get("policy") or []))
    return "/".join(names) if names else agg.kind
