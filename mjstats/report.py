"""pandas reports and matplotlib plots from study and record aggregates.

Every function takes an :class:`~mjstats.studies.aggregate.Aggregate` of fan
statistics (from :mod:`mjstats.studies` or :mod:`mjstats.records`) and returns a
:class:`pandas.DataFrame`. Frequencies are per *complete* hand; confidence
intervals are 95 % Wilson score intervals for Monte Carlo studies and collapse to
the point value for exact enumerations (``params["exact"]`` true).

Counters used (see :func:`mjstats.kernels.accumulate.accumulate_score`):
``hands``, ``complete``, ``legal``, ``fan_count`` (F,), ``cooccurrence`` (F, F),
``total_hist`` (2, bins; row 0 discard wins, row 1 self-drawn), ``base_hist``
(bins; totals without flowers), ``form_count``.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from mjstats.rules import Ruleset, get_ruleset
from mjstats.studies.aggregate import Aggregate

__all__ = [
    "cooccurrence",
    "fan_table",
    "form_table",
    "payments",
    "plot_cooccurrence",
    "plot_fan_frequencies",
    "plot_total_distribution",
    "summary",
    "to_markdown",
    "total_distribution",
    "wilson_interval",
    "write_report",
]

_Z95 = 1.959963984540054


def wilson_interval(successes, n, z: float = _Z95) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval for binomial proportions (elementwise).

    Returns ``(low, high)``; where ``n == 0`` both are NaN.

    Examples
    --------
    >>> lo, hi = wilson_interval(50, 100)
    >>> round(float(lo), 4), round(float(hi), 4)
    (0.4038, 0.5962)
    """
    k = np.asarray(successes, dtype=float)
    n = np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / n
        denom = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denom
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return centre - half, centre + half


def _ruleset(agg: Aggregate, ruleset: Ruleset | str | None) -> Ruleset:
    if ruleset is not None:
        return get_ruleset(ruleset)
    name = agg.params.get("ruleset", "mcr")
    return get_ruleset(name, **agg.params.get("options", {}))


def _exact(agg: Aggregate) -> bool:
    return bool(agg.params.get("exact", False))


def _complete(agg: Aggregate) -> int:
    return int(agg["complete"][0])


def fan_table(agg: Aggregate, ruleset: Ruleset | str | None = None) -> pd.DataFrame:
    """One row per fan: how often it appears in the best score of a complete hand.

    Columns
    -------
    id, zh, en, points
        The fan (``id`` is the column index in ``BatchScore.fan_counts``).
    hands
        Complete hands (or their weight, in exact studies) whose score contains the fan.
    frequency, ci_low, ci_high
        ``hands / complete`` and its 95 % Wilson interval.
    mean_count
        Mean number of times the fan counts, among hands that contain it.
    points_share
        The fan's share of all fan points scored.
    expected_points
        Points the fan contributes per complete hand on average.

    Examples
    --------
    >>> from mjstats.studies.aggregate import Aggregate
    >>> from mjstats.report import fan_table, _demo_aggregate
    >>> t = fan_table(_demo_aggregate())
    >>> list(t.columns)[:6]
    ['id', 'zh', 'en', 'points', 'hands', 'frequency']
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


def form_table(agg: Aggregate, ruleset: Ruleset | str | None = None) -> pd.DataFrame:
    """Complete hands by the form of their best reading (regular, seven pairs, ...)."""
    rs = _ruleset(agg, ruleset)
    counts = agg["form_count"].astype(np.int64)
    names = list(rs.forms) + [f"form {i}" for i in range(len(rs.forms), len(counts))]
    n = counts.sum()
    return pd.DataFrame(
        {"form": names[: len(counts)], "hands": counts, "frequency": counts / n if n else np.nan}
    )


def cooccurrence(
    agg: Aggregate, kind: str = "count", ruleset: Ruleset | str | None = None
) -> pd.DataFrame:
    """Fan co-occurrence matrix (rows and columns labelled by English fan names).

    ``kind``:

    * ``"count"``: complete hands containing both fans;
    * ``"conditional"``: P(column fan | row fan);
    * ``"lift"``: P(both) / (P(row) P(column)); 1 means independent.

    Only fans that occur at least once are kept.
    """
    rs = _ruleset(agg, ruleset)
    c = agg["cooccurrence"].astype(float)
    diag = np.diag(c)
    keep = np.flatnonzero(diag > 0)
    labels = [rs.fans[i].en for i in keep]
    c = c[np.ix_(keep, keep)]
    d = diag[keep]
    if kind == "count":
        m = c
    elif kind == "conditional":
        m = c / d[:, None]
    elif kind == "lift":
        n = _complete(agg)
        m = c * n / np.outer(d, d)
    else:
        raise ValueError(f"kind must be 'count', 'conditional' or 'lift', not {kind!r}")
    return pd.DataFrame(m, index=labels, columns=labels)


def payments(agg: Aggregate, ruleset: Ruleset | str | None = None) -> pd.DataFrame:
    """What a win is worth to the winner, by win type.

    MCR: a self-drawn win is paid 8 + total by each of three opponents; a win on
    a discard is paid 8 + total by the discarder and 8 by each other player.
    Columns ``win, hands, mean_total, mean_payment, sd_payment``.
    """
    rs = _ruleset(agg, ruleset)
    rows = []
    totals = np.arange(agg["total_hist"].shape[1])
    for label, self_drawn, hist in (
        ("discard", False, agg["total_hist"][0]),
        ("self-drawn", True, agg["total_hist"][1]),
        ("all", None, agg["total_hist"].sum(axis=0)),
    ):
        n = int(hist.sum())
        if self_drawn is None:
            pay = np.concatenate([rs.payment(totals, False), rs.payment(totals, True)]).astype(
                float
            )
            w = np.concatenate([agg["total_hist"][0], agg["total_hist"][1]]).astype(float)
            t = np.concatenate([totals, totals]).astype(float)
        else:
            pay = rs.payment(totals, self_drawn).astype(float)
            w = hist.astype(float)
            t = totals.astype(float)
        if n:
            mean_t = float((w * t).sum() / n)
            mean_p = float((w * pay).sum() / n)
            sd_p = math.sqrt(max(float((w * pay * pay).sum() / n) - mean_p**2, 0.0))
        else:
            mean_t = mean_p = sd_p = float("nan")
        rows.append(
            {
                "win": label,
                "hands": n,
                "mean_total": mean_t,
                "mean_payment": mean_p,
                "sd_payment": sd_p,
            }
        )
    return pd.DataFrame(rows)


def summary(agg: Aggregate, ruleset: Ruleset | str | None = None) -> dict[str, Any]:
    """Headline numbers: hands, complete, legal, P(legal | complete), mean total."""
    rs = _ruleset(agg, ruleset)
    dist = total_distribution(agg)
    n = _complete(agg)
    hands = int(agg["hands"][0])
    return {
        "kind": agg.kind,
        "ruleset": rs.name,
        "hands": hands,
        "complete": n,
        "p_complete": n / hands if hands else float("nan"),
        "legal": int(agg["legal"][0]),
        "p_legal": int(agg["legal"][0]) / n if n else float("nan"),
        "mean_total": float((dist["total"] * dist["pmf"]).sum()) if n else float("nan"),
    }


# ----------------------------------------------------------------------------- output


def to_markdown(df: pd.DataFrame, floatfmt: str = ".4g") -> str:
    """A GitHub-flavoured Markdown table (no extra dependency)."""

    def cell(v: Any) -> str:
        if isinstance(v, (float, np.floating)):
            return "" if np.isnan(v) else format(float(v), floatfmt)
        return str(v).replace("|", "\\|")

    header = "| " + " | ".join(str(c) for c in df.columns) + " |"
    rule = "| " + " | ".join("---" for _ in df.columns) + " |"
    body = ["| " + " | ".join(cell(v) for v in row) + " |" for row in df.itertuples(index=False)]
    return "\n".join([header, rule, *body]) + "\n"


def write_report(df: pd.DataFrame, path: str | Path, fmt: str | None = None) -> Path:
    """Write a report table as csv, parquet, json or md (format from ``fmt`` or the suffix)."""
    path = Path(path)
    fmt = (fmt or path.suffix.lstrip(".")).lower()
    path.parent.mkdir(parents=True, exist_ok=True)
    if fmt == "csv":
        df.to_csv(path, index=False)
    elif fmt == "parquet":
        try:
            df.to_parquet(path, index=False)
        except ImportError as exc:
            raise ImportError(
                "Parquet output needs pyarrow: pip install 'mjstats[parquet]'"
            ) from exc
    elif fmt == "json":
        df.to_json(path, orient="records", force_ascii=False, indent=1)
    elif fmt in ("md", "markdown"):
        path.write_text(to_markdown(df), encoding="utf-8")
    else:
        raise ValueError(f"unknown report format {fmt!r}; use csv, parquet, json or md")
    return path


# ------------------------------------------------------------------------------ plots

_CJK_FONTS = (
    "Noto Sans CJK SC",
    "Noto Sans SC",
    "Source Han Sans SC",
    "WenQuanYi Micro Hei",
    "WenQuanYi Zen Hei",
    "SimHei",
    "Microsoft YaHei",
    "PingFang SC",
    "Heiti SC",
    "AR PL UMing CN",
)


def _cjk_font() -> str | None:
    """Name of an installed font that has Chinese glyphs, or None."""
    from matplotlib import font_manager

    installed = {f.name for f in font_manager.fontManager.ttflist}
    for name in _CJK_FONTS:
        if name in installed:
            return name
    return None


def _fan_labels(df: pd.DataFrame) -> tuple[list[str], dict[str, Any]]:
    """Labels "zh en" when a CJK font exists (with font settings), else English only."""
    font = _cjk_font()
    if font is None:
        return list(df["en"]), {}
    return [f"{zh} {en}" for zh, en in zip(df["zh"], df["en"], strict=True)], {
        "font.family": [font, "DejaVu Sans"]
    }


def plot_fan_frequencies(agg: Aggregate, ax=None, top: int | None = None):
    """Horizontal bar chart of fan frequencies on a log scale, with 95 % intervals.

    Labels are Chinese + English when a CJK font is installed (e.g. Debian's
    ``fonts-noto-cjk``), English otherwise. Returns the matplotlib Axes.
    """
    import matplotlib.pyplot as plt

    t = fan_table(agg)
    t = t[t["hands"] > 0].sort_values("frequency", ascending=True)
    if top is not None:
        t = t.tail(top)
    labels, rc = _fan_labels(t)
    with plt.rc_context(rc):
        if ax is None:
            _, ax = plt.subplots(figsize=(8, max(3, 0.22 * len(t) + 1)))
        y = np.arange(len(t))
        err = np.vstack([t["frequency"] - t["ci_low"], t["ci_high"] - t["frequency"]])
        ax.barh(y, t["frequency"], xerr=err, color="#3b75af", ecolor="#555", capsize=1.5)
        ax.set_yticks(y, labels, fontsize=7)
        ax.set_xscale("log")
        ax.set_xlabel("P(fan in best score | complete hand)")
        ax.set_title(f"Fan frequencies ({agg.kind}, {_complete(agg):,} complete hands)")
        ax.figure.tight_layout()
    return ax


def plot_total_distribution(agg: Aggregate, ax=None, flowers: bool = False):
    """Bar chart of the fan-total distribution with the ruleset minimum marked."""
    import matplotlib.pyplot as plt

    rs = _ruleset(agg, None)
    d = total_distribution(agg, flowers=flowers)
    if ax is None:
        _, ax = plt.subplots(figsize=(8, 4))
    ax.bar(d["total"], d["pmf"], width=1.0, color="#3b75af")
    ax.axvline(
        rs.minimum - 0.5,
        color="#c0392b",
        linestyle="--",
        label=f"minimum {rs.minimum}: P(total >= {rs.minimum}) = "
        f"{float(d['sf'].iloc[rs.minimum]) if len(d) > rs.minimum else 0.0:.3f}",
    )
    ax.set_yscale("log")
    ax.set_xlabel("fan total" + ("" if flowers else " (without flowers)"))
    ax.set_ylabel("probability")
    ax.legend()
    ax.figure.tight_layout()
    return ax


def plot_cooccurrence(agg: Aggregate, ax=None, kind: str = "lift", top: int = 30):
    """Heatmap of fan co-occurrence among the ``top`` most frequent fans (log2 lift by default)."""
    import matplotlib.pyplot as plt

    freq = fan_table(agg).sort_values("hands", ascending=False)
    keep = freq[freq["hands"] > 0].head(top)
    m = cooccurrence(agg, kind=kind).loc[keep["en"], keep["en"]]
    values = m.to_numpy(dtype=float)
    if kind == "lift":
        with np.errstate(divide="ignore"):
            values = np.log2(values)
        values[~np.isfinite(values)] = np.nan
    labels, rc = _fan_labels(keep)
    with plt.rc_context(rc):
        if ax is None:
            _, ax = plt.subplots(figsize=(9, 8))
        lim = np.nanmax(np.abs(values)) if np.isfinite(values).any() else 1.0
        im = ax.imshow(
            values,
            cmap="RdBu_r" if kind == "lift" else "viridis",
            vmin=-lim if kind == "lift" else None,
            vmax=lim if kind == "lift" else None,
        )
        ax.set_xticks(range(len(labels)), labels, rotation=90, fontsize=6)
        ax.set_yticks(range(len(labels)), labels, fontsize=6)
        ax.figure.colorbar(im, ax=ax, label="log2 lift" if kind == "lift" else kind)
        ax.set_title(f"Fan co-occurrence ({kind})")
        ax.figure.tight_layout()
    return ax


def _demo_aggregate() -> Aggregate:
    """A tiny hand-made aggregate for examples and tests (MCR, 10 complete hands)."""
    from mjstats.kernels.accumulate import TOTAL_BINS

    rs = get_ruleset("mcr")
    f = rs.n_fans
    cooc = np.zeros((f, f), np.int64)
    cooc[0, 0] = 1
    cooc[f - 2, f - 2] = 6
    fan_count = np.zeros(f, np.int64)
    fan_count[0] = 1
    fan_count[f - 2] = 9
    total_hist = np.zeros((2, TOTAL_BINS), np.int64)
    total_hist[0, 8] = 6
    total_hist[1, 10] = 3
    total_hist[1, 88] = 1
    return Aggregate(
        "demo",
        {"ruleset": "mcr"},
        {
            "hands": [20],
            "complete": [10],
            "legal": [10],
            "fan_count": fan_count,
            "cooccurrence": cooc,
            "total_hist": total_hist,
            "base_hist": total_hist.sum(axis=0),
            "form_count": np.array([9, 1] + [0] * 6),
        },
    )
