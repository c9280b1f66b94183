"""The tables every study result shows, shared by the studies and the reports.

:func:`fan_table`, :func:`summary`, :func:`total_distribution` and
:func:`shanten_table` (of a dealt study) of an
:class:`~mjstats.studies.aggregate.Aggregate`, the :func:`wilson_interval`
behind every sampled rate, :func:`format_probability` for people, and
:func:`aggregate_html` (an aggregate's view in Jupyter). :mod:`mjstats.report`
builds its tables, files and plots on these and exports them under its own
name (``mjstats.report.fan_table`` is this function).
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from mjstats.html import ROWS as HTML_ROWS
from mjstats.html import _table as html_table
from mjstats.rulesets import Ruleset, get_ruleset

if TYPE_CHECKING:
    from mjstats.studies.aggregate import Aggregate

__all__ = [
    "aggregate_html",
    "fan_table",
    "format_probability",
    "shanten_table",
    "summary",
    "total_distribution",
    "wilson_interval",
]

_Z95 = 1.959963984540054


def wilson_interval(successes, n, z: float = _Z95) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval for binomial proportions (elementwise).

    For ``k`` successes in ``n`` trials, the interval is the set of ``p`` with
    ``(k/n - p)**2 <= z**2 p (1 - p) / n``, i.e.
    ``(k/n + z²/2n ± z sqrt(k/n (1 - k/n)/n + z²/4n²)) / (1 + z²/n)``.
    Unlike the normal approximation it stays inside [0, 1] and is not empty
    for ``k = 0`` or ``k = n``.

    Parameters
    ----------
    successes, n : array_like
        Counts (``n`` may be an exact weight sum).
    z : float
        Normal quantile; the default gives 95 % intervals.

    Returns
    -------
    low, high : numpy.ndarray
        Bounds in [0, 1]; NaN where ``n == 0``.

    Examples
    --------
    >>> lo, hi = wilson_interval(50, 100)
    >>> round(float(lo), 4), round(float(hi), 4)
    (0.4038, 0.5962)
    >>> lo, hi = wilson_interval(0, 10)     # upper bound z²/(n + z²)
    >>> float(lo), round(float(hi), 4)
    (0.0, 0.2775)
    """
    k = np.asarray(successes, dtype=float)
    n = np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / n
        denom = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denom
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
        # exact at the ends: the bounds are 0 for k = 0 and 1 for k = n
        low = np.where(k == 0, 0.0, np.clip(centre - half, 0.0, 1.0))
        high = np.where(k == n, 1.0, np.clip(centre + half, 0.0, 1.0))
    low = np.where(n > 0, low, np.nan)
    high = np.where(n > 0, high, np.nan)
    return (low[()], high[()]) if low.ndim == 0 else (low, high)


def _ruleset(agg: Aggregate, ruleset: Ruleset | str | None) -> Ruleset:
    if ruleset is not None:
        return get_ruleset(ruleset)
    name = agg.params.get("ruleset", "mcr")
    return get_ruleset(name, **agg.params.get("options", {}))


def _exact(agg: Aggregate) -> bool:
    return bool(agg.params.get("exact", False))


def _complete(agg: Aggregate) -> int:
    _need_fans(agg)
    return int(agg["complete"][0])


def _need_fans(agg: Aggregate) -> None:
    missing = {"complete", "fan_count", "cooccurrence", "total_hist"} - set(agg.counters)
    if missing:
        raise ValueError(
            f"the {agg.kind!r} aggregate has no fan statistics (missing counters "
            f"{', '.join(sorted(missing))})"
        )


def _form_names(rs: Ruleset, n: int) -> list[str]:
    names = list(rs.forms)
    return names[:n] + [f"form {i}" for i in range(len(names), n)]


def fan_table(agg: Aggregate, ruleset: Ruleset | str | None = None) -> pd.DataFrame:
    """One row per fan: how often it appears in the best score of a complete hand.

    Columns
    -------
    id, zh, en, points
        The fan (``id`` is the column index in ``BatchScore.fan_counts``).
    hands
        Complete hands (or their weight, in exact studies) whose score contains the fan.
    frequency, ci_low, ci_high
        ``hands / complete`` and its 95 % Wilson interval (both bounds equal the
        frequency for an exact enumeration, ``params["exact"]``).
    mean_count
        Mean number of times the fan counts, among hands that contain it.
    points_share
        The fan's share of all fan points scored.
    expected_points
        Points the fan contributes per complete hand on average.

    Examples
    --------
    >>> from mjstats.report import fan_table, _demo_aggregate
    >>> t = fan_table(_demo_aggregate())
    >>> list(t.columns)  # doctest: +NORMALIZE_WHITESPACE
    ['id', 'zh', 'en', 'points', 'hands', 'frequency', 'ci_low', 'ci_high',
     'mean_count', 'points_share', 'expected_points']
    >>> t.loc[t["hands"] > 0, ["zh", "points", "hands", "mean_count", "expected_points"]]
         zh  points  hands  mean_count  expected_points
    0   大四喜      88      1         1.0              8.8
    79   自摸       1      4         1.0              0.4
    80   花牌       1      6         1.5              0.9
    """
    rs = _ruleset(agg, ruleset)
    n = _complete(agg)
    hands = np.diag(agg["cooccurrence"]).astype(np.int64)
    counts = agg["fan_count"].astype(float)
    points = rs.points.astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        freq = hands / n if n else np.full(len(hands), np.nan)
        mean_count = np.where(hands > 0, counts / np.maximum(hands, 1), np.nan)
        fan_points = points * counts
        share = fan_points / fan_points.sum() if fan_points.sum() else np.zeros_like(fan_points)
        expected = fan_points / n if n else np.full(len(hands), np.nan)
    if _exact(agg):
        lo, hi = freq, freq
    else:
        lo, hi = wilson_interval(hands, n)
    return pd.DataFrame(
        {
            "id": np.arange(rs.n_fans),
            "zh": [f.zh for f in rs.fans],
            "en": [f.en for f in rs.fans],
            "points": rs.points.astype(np.int64),
            "hands": hands,
            "frequency": freq,
            "ci_low": lo,
            "ci_high": hi,
            "mean_count": mean_count,
            "points_share": share,
            "expected_points": expected,
        }
    )


def total_distribution(agg: Aggregate, flowers: bool = True) -> pd.DataFrame:
    """Distribution of the fan total over complete hands.

    Columns ``total, hands, pmf, cdf, sf`` where ``sf`` is P(total >= that value);
    ``sf`` at the ruleset minimum is the probability of a legal total. Rows run
    from 0 to the largest total seen. ``flowers=False`` uses totals without flower
    points (the MCR 8-fan rule ignores flowers).

    Examples
    --------
    >>> from mjstats.report import total_distribution, _demo_aggregate
    >>> d = total_distribution(_demo_aggregate())
    >>> round(float(d["pmf"].sum()), 12)
    1.0
    """
    hist = agg["total_hist"].sum(axis=0) if flowers else agg["base_hist"]
    nz = np.flatnonzero(hist)
    top = int(nz[-1]) + 1 if len(nz) else 1
    hist = hist[:top].astype(np.int64)
    n = hist.sum()
    pmf = hist / n if n else np.zeros(top)
    cdf = np.cumsum(pmf)
    sf = 1.0 - np.concatenate([[0.0], cdf[:-1]])
    return pd.DataFrame({"total": np.arange(top), "hands": hist, "pmf": pmf, "cdf": cdf, "sf": sf})


def summary(agg: Aggregate, ruleset: Ruleset | str | None = None) -> dict[str, Any]:
    """Headline numbers: hands, complete, legal, P(legal | complete), mean total.

    Examples
    --------
    >>> from mjstats.report import summary, _demo_aggregate
    >>> summary(_demo_aggregate())  # doctest: +NORMALIZE_WHITESPACE
    {'kind': 'demo', 'ruleset': 'mcr', 'hands': 20, 'complete': 10, 'p_complete': 0.5,
     'legal': 10, 'p_legal': 1.0, 'mean_total': 16.6}
    """
    rs = _ruleset(agg, ruleset)
    dist = total_distribution(agg)
    n = _complete(agg)
    hands = int(agg["hands"][0])
    return {
        "kind": agg.kind,
        "ruleset": rs.spec,
        "hands": hands,
        "complete": n,
        "p_complete": n / hands if hands else float("nan"),
        "legal": int(agg["legal"][0]),
        "p_legal": int(agg["legal"][0]) / n if n else float("nan"),
        "mean_total": float((dist["total"] * dist["hands"]).sum() / n) if n else float("nan"),
    }


def format_probability(p: float) -> str:
    """A probability with three significant digits, scientific below 1e-4, so rare fans show.

    Examples
    --------
    >>> [format_probability(p) for p in (0.5, 0.01234, 3.2e-4, 1.234e-9, 0.0, float("nan"))]
    ['0.500', '0.0123', '0.000320', '1.23e-09', '0', '']
    """
    if p != p:
        return ""
    if p == 0:
        return "0"
    return format(float(p), "#.3g")


def shanten_table(agg: Aggregate):
    """Shanten distribution of a ``dealt`` aggregate: a column per form (``per_form``), ``any``.

    Rows are shanten values (-1 = complete); entries are probabilities.

    Examples
    --------
    >>> from mjstats.studies.dealt import dealt, shanten_table
    >>> t = shanten_table(dealt(5000, seed=2, tiles=13, progress=False))
    >>> float(t["any"].sum()), int(t["shanten"].iloc[0])
    (1.0, -1)
    """
    hist = agg["shanten_hist"]
    names = [*agg.params["forms"], "any"] if agg.params.get("per_form", True) else ["any"]
    n = int(agg["deals"][0])
    used = np.flatnonzero(hist.sum(axis=0))
    top = int(used[-1]) + 1 if len(used) else 1
    data = {"shanten": np.arange(-1, top - 1)}
    for j, name in enumerate(names):
        data[name] = hist[j, :top] / n if n else np.nan
    return pd.DataFrame(data)


def aggregate_html(agg, rows: int = HTML_ROWS) -> str:
    """An aggregate: kind and parameters, headline numbers and the ``rows`` most
    frequent fans (or, without fans, the shanten table of a dealt study).

    Examples
    --------
    >>> from mjstats.report import _demo_aggregate
    >>> html = aggregate_html(_demo_aggregate())
    >>> "Flower Tiles" in html and "0.600" in html
    True
    """
    params = {k: v for k, v in agg.params.items() if k != "options"}
    parts = [
        f"<div class='mjstats-aggregate'><b>Aggregate</b> of a <b>{escape(agg.kind)}</b> study: "
        + escape(", ".join(f"{k}={v}" for k, v in params.items()))
        + "</div>"
    ]
    if "cooccurrence" in agg.counters and agg["complete"][0]:
        s = summary(agg)
        parts.append(
            f"<div>{s['hands']:,} hands, {s['complete']:,} complete, P(legal | complete) = "
            f"{format_probability(s['p_legal'])}, mean total {s['mean_total']:.2f}</div>"
        )
        t = fan_table(agg)
        t = t[t["hands"] > 0].sort_values("frequency", ascending=False).head(rows)
        body = [
            [escape(f"{r.zh} {r.en}"), r.points, format_probability(r.frequency)]
            for r in t.itertuples(index=False)
        ]
        parts.append(html_table(["fan", "points", "frequency"], body, {1, 2}))
    elif "shanten_hist" in agg.counters:
        st = shanten_table(agg)
        parts.append(f"<div>{int(agg['deals'][0]):,} deals; shanten probabilities</div>")
        body = [[int(r[0]), *(format_probability(v) for v in r[1:])] for r in st.to_numpy()]
        parts.append(html_table(list(st.columns), body, set(range(len(st.columns)))))
    counters = ", ".join(f"{k} {tuple(v.shape)}" for k, v in agg.counters.items())
    parts.append(f"<div style='font-size:85%'>counters: {escape(counters)}</div>")
    return "".join(parts)
