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

Tables: :func:`fan_table`, :func:`total_distribution`, :func:`form_table`,
:func:`cooccurrence`, :func:`payments`, :func:`summary` (or :func:`report_table`
by name). Output: :func:`write_report` (CSV, Parquet, JSON, Markdown),
:func:`to_markdown`. Plots (matplotlib): :func:`plot_fan_frequencies`,
:func:`plot_total_distribution`, :func:`plot_cooccurrence` (or
:func:`plot_report` by table name). :func:`load_aggregate` reads a study's
output (``aggregate.json`` or the folder holding it).

Chinese fan names in plots need a font with Chinese glyphs. One is used when
matplotlib finds a known CJK font (Noto Sans CJK, Source Han Sans, WenQuanYi,
SimHei, ...; e.g. Debian's ``fonts-wqy-microhei`` or ``fonts-noto-cjk``) or when
the environment variable ``MJSTATS_CJK_FONT`` names a font file; otherwise the
labels are English only (no missing-glyph boxes or warnings).

Examples
--------
>>> from mjstats.report import fan_table, _demo_aggregate
>>> t = fan_table(_demo_aggregate())
>>> t.loc[t["hands"] > 0, ["en", "hands", "frequency"]].to_numpy().tolist()
[['Big Four Winds', 1, 0.1], ['Self-Drawn', 4, 0.4], ['Flower Tiles', 6, 0.6]]
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from mjstats.kernels.accumulate import TOTAL_BINS
from mjstats.provenance import PARQUET_KEY, json_text, provenance, strict_jsonable, write_sidecar
from mjstats.rulesets import Ruleset, get_ruleset
from mjstats.studies import games
from mjstats.studies.aggregate import Aggregate
from mjstats.studies.dealt import shanten_table
from mjstats.studies.game_stats import claim_table
from mjstats.studies.games import games_summary
from mjstats.studies.match import match_table
from mjstats.studies.realplay import compare_real_play, plot_real_play
from mjstats.studies.summaries import (
    _complete,
    _form_names,
    _need_fans,
    _ruleset,
    fan_table,
    format_probability,
    summary,
    total_distribution,
    wilson_interval,
)

__all__ = [
    "FORMATS",
    "TABLES",
    "cjk_font",
    "cooccurrence",
    "fan_table",
    "form_table",
    "format_probability",
    "load_aggregate",
    "payments",
    "plot_cooccurrence",
    "plot_fan_frequencies",
    "plot_forms",
    "plot_game_lengths",
    "plot_melds",
    "plot_report",
    "plot_seats",
    "plot_shanten",
    "plot_total_distribution",
    "report_table",
    "summary",
    "table_json",
    "to_markdown",
    "total_distribution",
    "wilson_interval",
    "write_report",
]

TABLES = ("fans", "totals", "forms", "cooccurrence", "payments", "summary")
"""Report tables of fan statistics by name (:func:`report_table`; it also makes
``"shanten"``, the table of dealt studies, and the :data:`GAME_TABLES`)."""

GAME_TABLES = ("seats", "lengths", "melds", "claims", "reference")
"""Report tables of a ``games`` study (:mod:`mjstats.studies.games`) or record set
(:func:`mjstats.studies.game_stats.record_games`): per seat
(:func:`~mjstats.studies.games.seat_table`), game lengths
(:func:`~mjstats.studies.games.game_length_table`), the winners' melds
(:func:`~mjstats.studies.games.meld_table`), claims
(:func:`~mjstats.studies.game_stats.claim_table`) and the games beside real play
(:func:`~mjstats.studies.realplay.compare_real_play`). A ``match`` aggregate has its
table ``"match"`` (:func:`~mjstats.studies.match.match_table`)."""

FORMATS = ("csv", "parquet", "json", "md")
"""File formats of :func:`write_report`."""

PLOTS = (
    "fans", "totals", "forms", "cooccurrence", "shanten", "seats", "lengths", "melds", "reference",
)  # fmt: skip
"""Tables that have a plot (:func:`plot_report`)."""


def form_table(agg: Aggregate, ruleset: Ruleset | str | None = None) -> pd.DataFrame:
    """Complete hands by the form of their best reading (regular, seven pairs, ...).

    Columns ``form, hands, frequency`` (frequency among complete hands); one row
    per form code of the ruleset (:attr:`Ruleset.forms`).

    Examples
    --------
    >>> from mjstats.report import form_table, _demo_aggregate
    >>> form_table(_demo_aggregate()).head(3)
              form  hands  frequency
    0         none      0        0.0
    1      regular      9        0.9
    2  seven_pairs      1        0.1
    """
    rs = _ruleset(agg, ruleset)
    _need_fans(agg)
    counts = agg["form_count"].astype(np.int64)
    n = counts.sum()
    return pd.DataFrame(
        {
            "form": _form_names(rs, len(counts)),
            "hands": counts,
            "frequency": counts / n if n else np.full(len(counts), np.nan),
        }
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

    Examples
    --------
    >>> from mjstats.report import cooccurrence, _demo_aggregate
    >>> cooccurrence(_demo_aggregate(), kind="conditional").round(4)
                    Big Four Winds  Self-Drawn  Flower Tiles
    Big Four Winds            1.00      1.0000           0.0
    Self-Drawn                0.25      1.0000           0.5
    Flower Tiles              0.00      0.3333           1.0
    """
    rs = _ruleset(agg, ruleset)
    _need_fans(agg)
    c = agg["cooccurrence"].astype(float)
    diag = np.diag(c)
    keep = np.flatnonzero(diag > 0)
    labels = [rs.fans[i].en for i in keep]
    c = c[np.ix_(keep, keep)]
    d = diag[keep]
    if kind == "count":
        m = agg["cooccurrence"][np.ix_(keep, keep)].astype(np.int64)
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

    MCR: a self-drawn win is paid 8 + total by each of three opponents
    (3 x (8 + total)); a win on a discard is paid 8 + total by the discarder and
    8 by each other player (8 + total + 16). See :meth:`Ruleset.payment`.
    Totals include flower points. Columns ``win`` (``discard``, ``self-drawn``,
    ``all``), ``hands``, ``mean_total``, ``mean_payment``, ``sd_payment``
    (population standard deviation).

    Examples
    --------
    >>> from mjstats.report import payments, _demo_aggregate
    >>> payments(_demo_aggregate())[["win", "hands", "mean_total", "mean_payment"]]
              win  hands  mean_total  mean_payment
    0     discard      6         8.0          32.0
    1  self-drawn      4        29.5         112.5
    2         all     10        16.6          64.2
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


def report_table(
    agg: Aggregate,
    table: str = "fans",
    kind: str = "count",
    ruleset: Ruleset | str | None = None,
) -> pd.DataFrame:
    """One of the report tables of :data:`TABLES`, by name, ready to write.

    ``"fans"`` :func:`fan_table`, ``"totals"`` :func:`total_distribution`,
    ``"forms"`` :func:`form_table`, ``"cooccurrence"`` :func:`cooccurrence` of
    ``kind`` (its row labels become the first column, ``fan``), ``"payments"``
    :func:`payments`, ``"summary"`` :func:`summary` as a one-row table,
    ``"shanten"`` (dealt studies) :func:`mjstats.studies.dealt.shanten_table`.

    Examples
    --------
    >>> from mjstats.report import report_table, _demo_aggregate
    >>> report_table(_demo_aggregate(), "cooccurrence").columns.tolist()
    ['fan', 'Big Four Winds', 'Self-Drawn', 'Flower Tiles']
    >>> report_table(_demo_aggregate(), "summary").shape
    (1, 8)
    """
    if table == "shanten":
        return _shanten(agg)
    if table == "match":
        return match_table(agg)
    if table == "reference":  # a records aggregate has fans per game too
        return compare_real_play(agg)
    if table in GAME_TABLES:
        return _game_table(agg, table)
    _need_fans(agg)
    if table == "fans":
        return fan_table(agg, ruleset)
    if table == "totals":
        return total_distribution(agg)
    if table == "forms":
        return form_table(agg, ruleset)
    if table == "cooccurrence":
        m = cooccurrence(agg, kind=kind, ruleset=ruleset)
        return m.rename_axis("fan").reset_index()
    if table == "payments":
        return payments(agg, ruleset)
    if table == "summary":
        if agg.kind == "games":  # in the words of games: games, wins, drawn
            return pd.DataFrame([{"kind": agg.kind, "ruleset": _ruleset(agg, ruleset).spec,
                                  **games_summary(agg)}])  # fmt: skip
        return pd.DataFrame([summary(agg, ruleset)])
    raise ValueError(
        f"unknown table {table!r}; choose one of "
        f"{', '.join((*TABLES, 'shanten', *GAME_TABLES, 'match'))}"
    )


def load_aggregate(path: str | os.PathLike) -> Aggregate:
    """Read a study's output: an aggregate JSON file or a folder holding ``aggregate.json``.

    Raises ``FileNotFoundError`` when there is no such file, ``ValueError`` when
    the file is not an mjstats aggregate.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from mjstats.report import load_aggregate, _demo_aggregate
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = _demo_aggregate().save(folder / "aggregate.json")
    >>> load_aggregate(folder) == _demo_aggregate()
    True
    """
    path = Path(path)
    if path.is_dir():
        path = path / "aggregate.json"
    if not path.is_file():
        raise FileNotFoundError(2, "no aggregate (a study's aggregate.json) here", str(path))
    try:
        return Aggregate.load(path)
    except (KeyError, TypeError) as exc:
        raise ValueError(f"{path}: not an mjstats aggregate ({exc})") from None
    except ValueError as exc:
        msg = str(exc)
        raise ValueError(msg if msg.startswith(str(path)) else f"{path}: {msg}") from None


# ----------------------------------------------------------------------------- output


def to_markdown(df: pd.DataFrame, floatfmt: str = ".4g") -> str:
    r"""A GitHub-flavoured Markdown table (no extra dependency).

    Floats use ``floatfmt``; NaN is an empty cell; ``|`` in text is escaped.

    Examples
    --------
    >>> import pandas as pd
    >>> print(to_markdown(pd.DataFrame({"fan": ["a|b"], "p": [0.123456]})), end="")
    | fan | p |
    | --- | --- |
    | a\|b | 0.1235 |
    """

    def cell(v: Any) -> str:
        if isinstance(v, (float, np.floating)):
            return "" if np.isnan(v) else format(float(v), floatfmt)
        return str(v).replace("|", "\\|")

    header = "| " + " | ".join(str(c) for c in df.columns) + " |"
    rule = "| " + " | ".join("---" for _ in df.columns) + " |"
    body = ["| " + " | ".join(cell(v) for v in row) + " |" for row in df.itertuples(index=False)]
    return "\n".join([header, rule, *body]) + "\n"


def write_report(
    df: pd.DataFrame,
    path: str | Path,
    fmt: str | None = None,
    prov: dict[str, Any] | None = None,
) -> Path:
    """Write a report table as csv, parquet, json or md (format from ``fmt`` or the suffix).

    The index is not written (report tables keep their labels in columns).
    Every file says where it comes from: ``prov`` (default
    :func:`mjstats.provenance.provenance` of nothing, i.e. version and command
    only; pass ``provenance(agg)`` for a study's seed, n and ruleset) goes into
    the JSON object, the Parquet file metadata (key ``"mjstats.provenance"``)
    or a CSV's sidecar ``<name>.csv.provenance.json``. JSON is strict (NaN is
    null): ``{"provenance": {...}, "rows": [row objects]}``, readable with
    ``pandas.DataFrame(json.load(f)["rows"])``.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> import pandas as pd
    >>> from mjstats.report import fan_table, write_report, _demo_aggregate
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> path = write_report(fan_table(_demo_aggregate()), folder / "fans.csv")
    >>> pd.read_csv(path)["hands"].sum()
    np.int64(11)
    >>> sorted(p.name for p in folder.iterdir())
    ['fans.csv', 'fans.csv.provenance.json']
    """

    prov = provenance() if prov is None else prov
    path = Path(path)
    fmt = (fmt or path.suffix.lstrip(".")).lower()
    if fmt == "markdown":
        fmt = "md"
    if fmt not in FORMATS:
        raise ValueError(f"unknown report format {fmt!r}; use {', '.join(FORMATS)}")
    path.parent.mkdir(parents=True, exist_ok=True)
    if fmt == "csv":
        df.to_csv(path, index=False)
        write_sidecar(path, prov)
    elif fmt == "parquet":
        try:
            import pyarrow as pa
            import pyarrow.parquet as pq
        except ImportError as exc:
            raise ImportError(
                "Parquet output needs pyarrow: pip install 'mjstats[parquet]'"
            ) from exc
        table = pa.Table.from_pandas(df, preserve_index=False)
        meta = {**(table.schema.metadata or {}), PARQUET_KEY.encode(): json_text(prov).encode()}
        pq.write_table(table.replace_schema_metadata(meta), path)
    elif fmt == "json":
        path.write_text(json_text(table_json(df, prov)) + "\n", encoding="utf-8")
    else:
        path.write_text(to_markdown(df), encoding="utf-8")
    return path


def table_json(df: pd.DataFrame, prov: dict[str, Any]) -> dict[str, Any]:
    """A report table as the JSON object :func:`write_report` writes (NaN as None).

    Examples
    --------
    >>> import pandas as pd
    >>> table_json(pd.DataFrame({"p": [0.5, float("nan")]}), {"seed": 1})
    {'provenance': {'seed': 1}, 'rows': [{'p': 0.5}, {'p': None}]}
    """

    return {"provenance": dict(prov), "rows": strict_jsonable(df.to_dict(orient="records"))}


# ------------------------------------------------------------------------------ plots

_CJK_FONTS = (
    "Noto Sans CJK SC",
    "Noto Sans SC",
    "Source Han Sans SC",
    "WenQuanYi Micro Hei",
    "WenQuanYi Zen Hei",
    "Droid Sans Fallback",
    "SimHei",
    "Microsoft YaHei",
    "PingFang SC",
    "Heiti SC",
    "AR PL UMing CN",
    # pan-CJK collections: matplotlib < 3.11 lists only the first face of a .ttc
    # (JP for Debian's fonts-noto-cjk); every face has the glyphs of the fan names
    "Noto Sans CJK JP",
    "Noto Sans CJK TC",
    "Noto Sans CJK KR",
    "Noto Sans CJK HK",
    "Source Han Sans",
    "Source Han Sans CN",
)


def cjk_font() -> str | None:
    """Name of the font the fan plots use for Chinese labels, or None (English only).

    ``$MJSTATS_CJK_FONT`` (a font file) wins; otherwise the first installed font
    of a list of common CJK fonts (see ``docs/plots.md``).

    Raises
    ------
    FileNotFoundError
        ``$MJSTATS_CJK_FONT`` names no file.

    Examples
    --------
    >>> from mjstats.report import cjk_font
    >>> cjk_font() is None or isinstance(cjk_font(), str)
    True
    """
    from matplotlib import font_manager

    path = os.environ.get("MJSTATS_CJK_FONT")
    if path:
        if not os.path.isfile(path):
            raise FileNotFoundError(
                2, "MJSTATS_CJK_FONT names no font file (unset it for English-only labels)", path
            )
        font_manager.fontManager.addfont(path)
        return font_manager.FontProperties(fname=path).get_name()
    installed = {f.name for f in font_manager.fontManager.ttflist}
    for name in _CJK_FONTS:
        if name in installed:
            return name
    return None


def _fan_labels(df: pd.DataFrame) -> tuple[list[str], dict[str, Any]]:
    """Labels "zh en" when a CJK font exists (with font settings), else English only."""
    font = cjk_font()
    if font is None:
        return list(df["en"]), {}
    return [f"{zh} {en}" for zh, en in zip(df["zh"], df["en"], strict=True)], {
        "font.family": [font, "DejaVu Sans"]
    }


def _axes(ax, figsize):
    """``(ax, own)``: the given Axes, or a new pyplot figure's (``own``: we lay it out)."""
    if ax is not None:
        return ax, False
    import matplotlib.pyplot as plt

    return plt.subplots(figsize=figsize)[1], True


def plot_fan_frequencies(agg: Aggregate, ax=None, top: int | None = None):
    """Horizontal bar chart of fan frequencies on a log scale, with 95 % intervals.

    Only fans that occur are shown (the ``top`` most frequent if given). Labels
    are Chinese + English when a CJK font is available (see the module notes),
    English otherwise. Returns the matplotlib Axes (a new pyplot figure unless
    ``ax`` is given).

    Examples
    --------
    >>> from mjstats.report import plot_fan_frequencies, _demo_aggregate
    >>> ax = plot_fan_frequencies(_demo_aggregate())
    >>> ax.get_xscale(), len(ax.patches)
    ('log', 3)
    >>> import matplotlib.pyplot as plt; plt.close(ax.figure)
    """
    import matplotlib.pyplot as plt

    t = fan_table(agg)
    t = t[t["hands"] > 0].sort_values("frequency", ascending=True)
    if top is not None:
        t = t.tail(top)
    labels, rc = _fan_labels(t)
    with plt.rc_context(rc):
        ax, own = _axes(ax, (8, max(3, 0.22 * len(t) + 1)))
        y = np.arange(len(t))
        err = np.vstack([t["frequency"] - t["ci_low"], t["ci_high"] - t["frequency"]])
        ax.barh(y, t["frequency"], xerr=err, color="#3b75af", ecolor="#555", capsize=1.5)
        ax.set_yticks(y, labels, fontsize=7)
        ax.set_xscale("log")
        ax.set_xlabel(f"P(fan in best score | {_hand_word(agg)[:-1]})")
        ax.set_title(f"Fan frequencies ({agg.kind}, {_complete(agg):,} {_hand_word(agg)})")
        if own:
            ax.figure.tight_layout()
    return ax


def plot_total_distribution(
    agg: Aggregate, ax=None, flowers: bool = False, ruleset: Ruleset | str | None = None
):
    """Bar chart of the fan-total distribution (log scale) with the minimum marked.

    The dashed line sits at the ruleset minimum (8 in MCR); its legend gives
    P(total >= minimum). ``flowers=False`` (default) plots totals without flower
    points, as the 8-fan rule counts them.

    Examples
    --------
    >>> from mjstats.report import plot_total_distribution, _demo_aggregate
    >>> ax = plot_total_distribution(_demo_aggregate())
    >>> ax.get_legend().get_texts()[0].get_text()
    'minimum 8: P(total >= 8) = 1.000'
    >>> import matplotlib.pyplot as plt; plt.close(ax.figure)
    """
    rs = _ruleset(agg, ruleset)
    d = total_distribution(agg, flowers=flowers)
    ax, own = _axes(ax, (8, 4))
    shown = d[d["hands"] > 0]
    ax.bar(shown["total"], shown["pmf"], width=1.0, color="#3b75af")
    p_min = float(d["sf"].iloc[rs.minimum]) if len(d) > rs.minimum else 0.0
    ax.axvline(
        rs.minimum - 0.5,
        color="#c0392b",
        linestyle="--",
        label=f"minimum {rs.minimum}: P(total >= {rs.minimum}) = {p_min:.3f}",
    )
    ax.set_yscale("log")
    ax.set_xlabel("fan total" + ("" if flowers else " (without flowers)"))
    ax.set_ylabel("probability")
    ax.set_title(f"Fan totals ({agg.kind}, {_complete(agg):,} {_hand_word(agg)})")
    ax.legend()
    if own:
        ax.figure.tight_layout()
    return ax


def plot_cooccurrence(agg: Aggregate, ax=None, kind: str = "lift", top: int = 30):
    """Heatmap of fan co-occurrence among the ``top`` most frequent fans.

    ``kind`` as in :func:`cooccurrence`; lift is drawn as log2 lift on a
    diverging scale whose white middle (0) is "independent". Pairs never seen
    together (lift 0, log2 lift -inf) are drawn grey, outside the colour scale,
    and the legend says so: "never together" is not "independent".

    Examples
    --------
    >>> from mjstats.report import plot_cooccurrence, _demo_aggregate
    >>> ax = plot_cooccurrence(_demo_aggregate(), kind="conditional")
    >>> ax.images[0].get_array().shape
    (3, 3)
    >>> import matplotlib.pyplot as plt; plt.close(ax.figure)
    """
    import matplotlib as mpl
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch

    freq = fan_table(agg).sort_values("hands", ascending=False, kind="stable")
    keep = freq[freq["hands"] > 0].head(top)

    m = cooccurrence(agg, kind=kind).loc[keep["en"], keep["en"]]
    never = cooccurrence(agg, kind="count").loc[keep["en"], keep["en"]].to_numpy() == 0
    values = m.to_numpy(dtype=float, copy=True)
    if kind == "lift":
        with np.errstate(divide="ignore"):
            values = np.log2(values)
    values[never | ~np.isfinite(values)] = np.nan  # drawn in the "bad" colour
    cmap = mpl.colormaps["RdBu_r" if kind == "lift" else "viridis"].with_extremes(bad="#b0b0b0")
    labels, rc = _fan_labels(keep)
    with plt.rc_context(rc):
        ax, own = _axes(ax, (9, 8))
        finite = np.isfinite(values)
        lim = float(np.abs(values[finite]).max()) if finite.any() else 1.0
        lim = lim or 1.0
        im = ax.imshow(
            values,
            cmap=cmap,
            vmin=-lim if kind == "lift" else None,
            vmax=lim if kind == "lift" else None,
        )
        ax.set_xticks(range(len(labels)), labels, rotation=90, fontsize=6)
        ax.set_yticks(range(len(labels)), labels, fontsize=6)
        label = "log2 lift (0 = independent)" if kind == "lift" else kind
        ax.figure.colorbar(im, ax=ax, label=label)
        if never.any():
            ax.legend(
                handles=[Patch(color="#b0b0b0", label="never together")],
                loc="upper right",
                bbox_to_anchor=(1.0, 1.08),
                fontsize=7,
                frameon=False,
            )
        ax.set_title(f"Fan co-occurrence ({kind})")
        if own:
            ax.figure.tight_layout()
    return ax


def _shanten(agg: Aggregate) -> pd.DataFrame:
    if "shanten_hist" not in agg.counters:
        raise ValueError(
            f"the {agg.kind!r} aggregate has no shanten statistics (a dealt study has)"
        )

    return shanten_table(agg)


def plot_shanten(agg: Aggregate, ax=None):
    """Bar chart of the shanten distribution of a ``dealt`` study (a bar group per form).

    Examples
    --------
    >>> from mjstats.studies.dealt import dealt
    >>> from mjstats.report import plot_shanten
    >>> ax = plot_shanten(dealt(2000, seed=1, tiles=13, progress=False))
    >>> ax.get_xlabel(), len(ax.patches) > 0
    ('shanten (-1 = complete)', True)
    >>> import matplotlib.pyplot as plt; plt.close(ax.figure)
    """
    t = _shanten(agg)
    forms = [c for c in t.columns if c != "shanten"]
    ax, own = _axes(ax, (8, 4))
    width = 0.8 / len(forms)
    for i, form in enumerate(forms):
        x = t["shanten"] + (i - (len(forms) - 1) / 2) * width
        ax.bar(x, t[form], width=width, label=form)
    ax.set_xticks(t["shanten"])
    ax.set_xlabel("shanten (-1 = complete)")
    ax.set_ylabel("probability")
    deals = int(agg["deals"][0])
    ax.set_title(f"Shanten of {agg.params.get('tiles', 14)}-tile deals ({deals:,} deals)")
    if len(forms) > 1:
        ax.legend(fontsize=7)
    if own:
        ax.figure.tight_layout()
    return ax


def _game_table(agg: Aggregate, table: str) -> pd.DataFrame:
    """A table of :data:`GAME_TABLES`; ``ValueError`` for an aggregate of another kind."""
    if "wins" not in agg.counters or "length" not in agg.counters:
        raise ValueError(f"the {agg.kind!r} aggregate has no game statistics (a games study has)")

    make = {
        "seats": games.seat_table,
        "lengths": games.game_length_table,
        "melds": games.meld_table,
        "claims": claim_table,
    }[table]
    return make(agg)


def plot_seats(agg: Aggregate, ax=None):
    """Bar chart of a ``games`` study per seat: P(win) and P(deal-in) per game with
    95 % intervals, the seat's policy under its name.

    Examples
    --------
    >>> from mjstats.studies.games import games
    >>> from mjstats.report import plot_seats
    >>> ax = plot_seats(games(40, seed=1, policy="random", progress=False))
    >>> len(ax.patches), ax.get_ylabel()
    (8, 'probability per game')
    >>> import matplotlib.pyplot as plt; plt.close(ax.figure)
    """
    t = _game_table(agg, "seats")
    n = int(agg["games"][0])
    ax, own = _axes(ax, (7, 4))
    x = np.arange(len(t))
    for offset, col, count, label, color in (
        (-0.2, "p_win", "wins", "win", "#3b75af"),
        (0.2, "p_deal_in", "deal_ins", "deal-in", "#c0392b"),
    ):
        lo, hi = wilson_interval(t[count].to_numpy(), n)
        err = np.vstack([t[col] - lo, hi - t[col]])
        ax.bar(x + offset, t[col], width=0.4, yerr=err, capsize=2, label=label, color=color)
    ax.set_xticks(x, [f"{s}\n{p}" for s, p in zip(t["seat"], t["policy"], strict=True)])
    ax.set_ylabel("probability per game")
    ax.set_title(f"Wins and deal-ins per seat ({n:,} games, {agg.params.get('wall')} wall)")
    ax.legend()
    if own:
        ax.figure.tight_layout()
    return ax


def plot_game_lengths(agg: Aggregate, ax=None):
    """Stacked bars of a ``games`` study: games by tiles drawn after the deal, won
    and drawn (荒庄).

    Examples
    --------
    >>> from mjstats.studies.games import games
    >>> from mjstats.report import plot_game_lengths
    >>> ax = plot_game_lengths(games(40, seed=1, policy="random", progress=False))
    >>> ax.get_xlabel()
    'tiles drawn after the deal'
    >>> import matplotlib.pyplot as plt; plt.close(ax.figure)
    """
    t = _game_table(agg, "lengths")
    n = max(int(t["games"].sum()), 1)
    ax, own = _axes(ax, (8, 4))
    ax.bar(t["draws"], t["won"] / n, width=1.0, color="#3b75af", label="won")
    ax.bar(t["draws"], t["drawn"] / n, width=1.0, bottom=t["won"] / n, color="#999",
           label="drawn game")  # fmt: skip
    ax.set_xlabel("tiles drawn after the deal")
    ax.set_ylabel("share of games")
    ax.set_title(f"Game length ({n:,} games)")
    ax.legend()
    if own:
        ax.figure.tight_layout()
    return ax


def plot_melds(agg: Aggregate, ax=None):
    """Bars of a ``games`` study: the winners' shares by number of melds (all, and
    claimed from others).

    Examples
    --------
    >>> from mjstats.studies.games import games
    >>> from mjstats.report import plot_melds
    >>> ax = plot_melds(games(40, seed=1, policy="random", progress=False))
    >>> ax.get_xlabel(), len(ax.patches)
    ('melds of the winner', 10)
    >>> import matplotlib.pyplot as plt; plt.close(ax.figure)
    """
    t = _game_table(agg, "melds")
    wins = int(t["melds"].sum())
    ax, own = _axes(ax, (6, 4))
    ax.bar(t["count"] - 0.2, t["melds_share"], width=0.4, color="#3b75af", label="melds")
    ax.bar(t["count"] + 0.2, t["claimed_share"], width=0.4, color="#999", label="claimed")
    ax.set_xticks(t["count"])
    ax.set_xlabel("melds of the winner")
    ax.set_ylabel("share of wins")
    ax.set_title(f"Melds of the winners ({wins:,} wins)")
    ax.legend()
    if own:
        ax.figure.tight_layout()
    return ax


def plot_forms(agg: Aggregate, ax=None, ruleset: Ruleset | str | None = None):
    """Horizontal bars: the share of each hand form (regular, seven pairs, ...) among
    complete hands (wins of a games study), log scale; forms never seen left out.

    Examples
    --------
    >>> from mjstats.report import plot_forms, _demo_aggregate
    >>> ax = plot_forms(_demo_aggregate())
    >>> len(ax.patches), ax.get_xscale()
    (2, 'log')
    >>> import matplotlib.pyplot as plt; plt.close(ax.figure)
    """
    t = form_table(agg, ruleset)
    t = t[t["hands"] > 0].iloc[::-1]
    ax, own = _axes(ax, (7, max(2.5, 0.35 * len(t) + 1)))
    y = np.arange(len(t))
    ax.barh(y, t["frequency"], color="#3b75af")
    ax.set_yticks(y, t["form"], fontsize=8)
    ax.set_xscale("log")
    ax.set_xlabel(f"share of {_hand_word(agg)}")
    ax.set_title(f"Hand forms ({agg.kind}, {_complete(agg):,} {_hand_word(agg)})")
    if own:
        ax.figure.tight_layout()
    return ax


def _hand_word(agg: Aggregate) -> str:
    """What a games study's complete hands are: its wins."""
    return "wins" if agg.kind == "games" else "complete hands"


def plot_report(
    agg: Aggregate, table: str = "fans", kind: str = "lift", ax=None, top: int | None = None
):
    """The plot of a report table: ``"fans"``, ``"totals"``, ``"cooccurrence"``,
    ``"forms"``, ``"shanten"`` (dealt studies), ``"seats"``, ``"lengths"`` or
    ``"melds"`` (games studies), ``"reference"`` (games beside real play,
    :func:`mjstats.studies.realplay.plot_real_play`);
    ``top`` limits the fans shown (fans, cooccurrence).

    A fan plot of an aggregate without complete hands (e.g. a dealt study,
    where complete deals are rare) would be empty: that is a ``ValueError``
    naming the plot there is (``"shanten"``).

    Examples
    --------
    >>> from mjstats.report import plot_report, _demo_aggregate
    >>> ax = plot_report(_demo_aggregate(), "totals")
    >>> ax.get_yscale()
    'log'
    >>> import matplotlib.pyplot as plt; plt.close(ax.figure)
    """
    if table == "shanten":
        return plot_shanten(agg, ax=ax)
    if table == "seats":
        return plot_seats(agg, ax=ax)
    if table == "lengths":
        return plot_game_lengths(agg, ax=ax)
    if table == "melds":
        return plot_melds(agg, ax=ax)
    if table == "reference":
        return plot_real_play(agg, ax=ax, top=top or 30)
    fans = "cooccurrence" in agg.counters
    if table in ("fans", "totals", "forms", "cooccurrence") and (not fans or _complete(agg) == 0):
        hint = "; plot --table shanten instead" if "shanten_hist" in agg.counters else ""
        raise ValueError(f"the {agg.kind!r} aggregate has no complete hand to plot{hint}")
    if table == "fans":
        return plot_fan_frequencies(agg, ax=ax, top=top or None)
    if table == "totals":
        return plot_total_distribution(agg, ax=ax)
    if table == "cooccurrence":
        return plot_cooccurrence(agg, ax=ax, kind=kind, top=top or 30)
    if table == "forms":
        return plot_forms(agg, ax=ax)
    raise ValueError(f"no plot for table {table!r}; plots exist for {', '.join(PLOTS)}")


def _demo_aggregate() -> Aggregate:
    """A tiny hand-made aggregate for examples (MCR counters, 10 complete hands of 20).

    The counters are invented, not those of real hands: 大四喜 in 1 hand,
    自摸 in 4, 花牌 in 6 (9 times); 6 discard wins of 8 fan, self-drawn wins of
    10 (3) and 88 (1); 9 regular hands and 1 seven pairs.
    """

    rs = get_ruleset("mcr")
    f = rs.n_fans
    big4, drawn, flower = 0, rs.fan_id("self_drawn"), rs.fan_id("flower_tiles")
    cooc = np.zeros((f, f), np.int64)
    cooc[big4, big4], cooc[drawn, drawn], cooc[flower, flower] = 1, 4, 6
    cooc[big4, drawn] = cooc[drawn, big4] = 1
    cooc[drawn, flower] = cooc[flower, drawn] = 2
    fan_count = np.zeros(f, np.int64)
    fan_count[[big4, drawn, flower]] = 1, 4, 9
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
            "form_count": np.array([0, 9, 1, 0, 0, 0, 0, 0, 0]),
        },
    )
