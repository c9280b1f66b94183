"""Reports from aggregates: every column against hand-computed values, plots, output formats.

The aggregate is built from six hand-written scored hands (plus two incomplete
ones) through the real counter kernel ``accumulate_score``; the expected numbers
below were worked out by hand from that list, not with the code under test.
"""

from __future__ import annotations

import io
import json
import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from mjstats import report
from mjstats.kernels.accumulate import accumulate_score, empty_counters
from mjstats.rules import get_ruleset
from mjstats.studies.aggregate import Aggregate

MCR = get_ruleset("mcr")
Z = 1.959963984540054  # 97.5 % normal quantile

# (fans {key: count}, total incl. flowers, flower points, form code, self-drawn, legal)
HANDS = [
    ({"pure_straight": 1, "pure_double_chow": 1}, 17, 0, 1, True, True),
    ({"pure_double_chow": 2, "flower_tiles": 1}, 3, 1, 1, False, False),
    ({"seven_pairs": 1}, 24, 0, 2, False, True),
    ({"pure_straight": 1}, 16, 0, 1, False, True),
    ({"chicken_hand": 1, "flower_tiles": 2}, 10, 2, 1, True, True),
    ({"seven_pairs": 1, "self_drawn": 1}, 25, 0, 2, True, True),
    ({}, -1, 0, 0, True, False),  # not complete
    ({}, -1, 0, 0, False, False),  # not complete
]
SEEN = ["pure_straight", "seven_pairs", "pure_double_chow", "flower_tiles", "chicken_hand"]
SEEN += ["self_drawn"]


def make_aggregate(exact: bool = False) -> Aggregate:
    c = empty_counters(MCR.n_fans, 9)
    for fans, total, flower_points, form, self_drawn, legal in HANDS:
        fc = np.zeros(MCR.n_fans, np.uint8)
        for key, n in fans.items():
            fc[MCR.fan_id(key)] = n
        accumulate_score(
            fc,
            total,
            flower_points,
            form,
            self_drawn,
            legal,
            1,
            c["hands"],
            c["complete"],
            c["legal"],
            c["fan_count"],
            c["cooccurrence"],
            c["total_hist"],
            c["base_hist"],
            c["form_count"],
        )
    params = {"ruleset": "mcr"}
    if exact:
        params["exact"] = True
    return Aggregate("handmade", params, c)


@pytest.fixture(scope="module")
def agg() -> Aggregate:
    return make_aggregate()


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def row(table: pd.DataFrame, key: str) -> pd.Series:
    return table.iloc[MCR.fan_id(key)]


# ----------------------------------------------------------------------------- Wilson


def wilson_by_quadratic(k: int, n: int, z: float = Z) -> tuple[float, float]:
    """The Wilson bounds as the roots of (k/n - p)^2 = z^2 p (1 - p) / n."""
    ph = k / n
    a = 1 + z * z / n
    b = -(2 * ph + z * z / n)
    c = ph * ph
    roots = np.sort(np.roots([a, b, c]).real)
    return float(roots[0]), float(roots[1])


@pytest.mark.parametrize("k,n", [(2, 6), (1, 6), (1, 3), (37, 1000), (999, 1000), (5, 5)])
def test_wilson_matches_independent_formula(k, n):
    lo, hi = report.wilson_interval(k, n)
    want = wilson_by_quadratic(k, n)
    assert float(lo) == pytest.approx(want[0], abs=1e-7)
    assert float(hi) == pytest.approx(want[1], abs=1e-7)


def test_wilson_known_values():
    # textbook value: 50 of 100 -> [0.4038, 0.5962]
    lo, hi = report.wilson_interval(50, 100)
    assert (round(float(lo), 4), round(float(hi), 4)) == (0.4038, 0.5962)
    # k = 0: [0, z^2 / (n + z^2)]; k = n: [n / (n + z^2), 1]
    lo, hi = report.wilson_interval(np.array([0, 10]), np.array([10, 10]))
    assert lo.tolist() == [0.0, pytest.approx(10 / (10 + Z * Z))]
    assert hi.tolist() == [pytest.approx(Z * Z / (10 + Z * Z)), 1.0]
    # n = 0: undefined
    lo, hi = report.wilson_interval(0, 0)
    assert np.isnan(lo) and np.isnan(hi)


# ----------------------------------------------------------------------------- tables


def test_counters_of_the_handmade_aggregate(agg):
    assert agg["hands"][0] == 8 and agg["complete"][0] == 6 and agg["legal"][0] == 5


def test_fan_table_every_column(agg):
    t = report.fan_table(agg)
    assert list(t.columns) == [
        "id",
        "zh",
        "en",
        "points",
        "hands",
        "frequency",
        "ci_low",
        "ci_high",
        "mean_count",
        "points_share",
        "expected_points",
    ]
    assert len(t) == MCR.n_fans == 82
    assert t["id"].tolist() == list(range(82))
    # by hand: hands containing the fan, mean count among them, points scored
    expected = {
        #                   zh            en                 pts hands  mean  fan points
        "pure_straight": ("清龙", "Pure Straight", 16, 2, 1.0, 32),
        "pure_double_chow": ("一般高", "Pure Double Chow", 1, 2, 1.5, 3),
        "flower_tiles": ("花牌", "Flower Tiles", 1, 2, 1.5, 3),
        "seven_pairs": ("七对", "Seven Pairs", 24, 2, 1.0, 48),
        "chicken_hand": ("无番和", "Chicken Hand", 8, 1, 1.0, 8),
        "self_drawn": ("自摸", "Self-Drawn", 1, 1, 1.0, 1),
    }
    for key, (zh, en, pts, hands, mean, fan_points) in expected.items():
        r = row(t, key)
        assert (r.zh, r.en, r.points, r.hands) == (zh, en, pts, hands), key
        assert r.frequency == pytest.approx(hands / 6)
        assert r.mean_count == pytest.approx(mean)
        assert r.points_share == pytest.approx(fan_points / 95)  # 95 = sum of all totals
        assert r.expected_points == pytest.approx(fan_points / 6)
    lo, hi = wilson_by_quadratic(2, 6)
    assert row(t, "seven_pairs").ci_low == pytest.approx(lo, abs=1e-9)
    assert row(t, "seven_pairs").ci_high == pytest.approx(hi, abs=1e-9)
    lo, hi = wilson_by_quadratic(1, 6)
    assert row(t, "chicken_hand").ci_low == pytest.approx(lo, abs=1e-9)
    assert row(t, "chicken_hand").ci_high == pytest.approx(hi, abs=1e-9)
    # fans that never occur: 0 hands, frequency 0, no mean count, interval [0, z^2/(6+z^2)]
    absent = t[~t["id"].isin([MCR.fan_id(k) for k in expected])]
    assert (absent["hands"] == 0).all() and (absent["frequency"] == 0).all()
    assert absent["mean_count"].isna().all()
    assert (absent["ci_low"] == 0).all()
    assert np.allclose(absent["ci_high"], Z * Z / (6 + Z * Z))
    assert (absent["points_share"] == 0).all() and (absent["expected_points"] == 0).all()
    # expected points add up to the mean total
    assert t["expected_points"].sum() == pytest.approx(95 / 6)
    assert t["points_share"].sum() == pytest.approx(1.0)


def test_exact_aggregate_has_zero_width_intervals():
    t = report.fan_table(make_aggregate(exact=True))
    assert (t["ci_low"] == t["frequency"]).all() and (t["ci_high"] == t["frequency"]).all()
    assert row(t, "seven_pairs").ci_low == pytest.approx(1 / 3)


def test_total_distribution(agg):
    # totals with flowers: 3 (discard), 10 (self), 16 (d), 17 (s), 24 (d), 25 (s)
    d = report.total_distribution(agg)
    assert list(d.columns) == ["total", "hands", "pmf", "cdf", "sf"]
    assert d["total"].tolist() == list(range(26))
    assert d["hands"].sum() == 6
    assert np.flatnonzero(d["hands"]).tolist() == [3, 10, 16, 17, 24, 25]
    assert d["pmf"][3] == pytest.approx(1 / 6) and d["pmf"][4] == 0
    assert d["cdf"][9] == pytest.approx(1 / 6) and d["cdf"][16] == pytest.approx(3 / 6)
    assert d["sf"][8] == pytest.approx(5 / 6)  # P(total >= 8)
    assert d["sf"][0] == 1 and d["cdf"].iloc[-1] == pytest.approx(1.0)
    assert d["sf"][25] == pytest.approx(1 / 6)
    # without flowers: 2, 8, 16, 17, 24, 25
    b = report.total_distribution(agg, flowers=False)
    assert np.flatnonzero(b["hands"]).tolist() == [2, 8, 16, 17, 24, 25]
    assert b["sf"][8] == pytest.approx(5 / 6) and b["sf"][9] == pytest.approx(4 / 6)


def test_form_table(agg):
    f = report.form_table(agg)
    assert f["form"].tolist()[:3] == ["none", "regular", "seven_pairs"]
    assert len(f) == 9
    assert f["hands"].tolist() == [0, 4, 2, 0, 0, 0, 0, 0, 0]
    assert f["frequency"].tolist()[:3] == [0, pytest.approx(4 / 6), pytest.approx(2 / 6)]


def test_cooccurrence_kinds(agg):
    en = {k: MCR.fans[MCR.fan_id(k)].en for k in SEEN}
    count = report.cooccurrence(agg, "count")
    assert sorted(count.index) == sorted(en.values()) and list(count.index) == list(count.columns)
    assert count.loc[en["pure_straight"], en["pure_double_chow"]] == 1
    assert count.loc[en["pure_double_chow"], en["flower_tiles"]] == 1
    assert count.loc[en["flower_tiles"], en["chicken_hand"]] == 1
    assert count.loc[en["seven_pairs"], en["self_drawn"]] == 1
    assert count.loc[en["seven_pairs"], en["pure_straight"]] == 0
    # the diagonal: hands with the fan; fans in id order
    assert [MCR.fans[MCR.fan_id(k)].en for k in sorted(SEEN, key=MCR.fan_id)] == list(count.index)
    diag = dict(zip(count.index, np.diag(count).tolist(), strict=True))
    assert diag == {en[k]: 1 if k in ("chicken_hand", "self_drawn") else 2 for k in SEEN}
    assert count.to_numpy().dtype == np.int64
    assert (count.to_numpy() == count.to_numpy().T).all()
    cond = report.cooccurrence(agg, "conditional")
    assert cond.loc[en["seven_pairs"], en["self_drawn"]] == pytest.approx(1 / 2)
    assert cond.loc[en["self_drawn"], en["seven_pairs"]] == 1.0
    assert cond.loc[en["pure_double_chow"], en["pure_straight"]] == pytest.approx(1 / 2)
    lift = report.cooccurrence(agg, "lift")
    # P(both) / (P(a) P(b)) = (1/6) / ((2/6)(2/6)) = 1.5
    assert lift.loc[en["pure_straight"], en["pure_double_chow"]] == pytest.approx(1.5)
    # (1/6) / ((2/6)(1/6)) = 3
    assert lift.loc[en["seven_pairs"], en["self_drawn"]] == pytest.approx(3.0)
    assert lift.loc[en["chicken_hand"], en["chicken_hand"]] == pytest.approx(6.0)
    with pytest.raises(ValueError, match="kind must be"):
        report.cooccurrence(agg, "odds")


def test_payments_by_the_mcr_rule(agg):
    p = report.payments(agg)
    assert list(p.columns) == ["win", "hands", "mean_total", "mean_payment", "sd_payment"]
    assert p["win"].tolist() == ["discard", "self-drawn", "all"]
    discard_totals, drawn_totals = [3, 24, 16], [17, 10, 25]
    discard_pay = [8 + t + 16 for t in discard_totals]  # 27, 48, 40
    drawn_pay = [3 * (8 + t) for t in drawn_totals]  # 75, 54, 99
    assert discard_pay == [27, 48, 40] and drawn_pay == [75, 54, 99]
    d, s, a = (p.iloc[i] for i in range(3))
    assert (d.hands, s.hands, a.hands) == (3, 3, 6)
    assert d.mean_total == pytest.approx(43 / 3) and s.mean_total == pytest.approx(52 / 3)
    assert d.mean_payment == pytest.approx(115 / 3) and s.mean_payment == pytest.approx(76)
    assert a.mean_total == pytest.approx(95 / 6) and a.mean_payment == pytest.approx(343 / 6)
    # squared deviations from 115/3: (34/3)^2 + (29/3)^2 + (5/3)^2 = 2022/9, over 3
    assert d.sd_payment == pytest.approx(math.sqrt(674 / 9))
    assert d.sd_payment == pytest.approx(float(np.std(discard_pay)))
    assert s.sd_payment == pytest.approx(math.sqrt(338))
    assert a.sd_payment == pytest.approx(float(np.std(discard_pay + drawn_pay)))


def test_payments_without_wins_are_nan():
    c = empty_counters(MCR.n_fans, 9)
    p = report.payments(Aggregate("empty", {"ruleset": "mcr"}, c))
    assert p["hands"].tolist() == [0, 0, 0] and p["mean_payment"].isna().all()


def test_summary(agg):
    s = report.summary(agg)
    assert s == {
        "kind": "handmade",
        "ruleset": "mcr",
        "hands": 8,
        "complete": 6,
        "p_complete": 0.75,
        "legal": 5,
        "p_legal": pytest.approx(5 / 6),
        "mean_total": pytest.approx(95 / 6),
    }


def test_report_table_by_name(agg):
    for name in report.TABLES:
        df = report.report_table(agg, name)
        assert isinstance(df, pd.DataFrame) and len(df) > 0
    cooc = report.report_table(agg, "cooccurrence", kind="lift")
    assert cooc.columns[0] == "fan" and len(cooc.columns) == 7
    assert report.report_table(agg, "summary").iloc[0]["complete"] == 6
    with pytest.raises(ValueError, match="unknown table"):
        report.report_table(agg, "nope")


def test_aggregate_without_fan_statistics_is_a_clear_error():
    agg = Aggregate("play", {"ruleset": "mcr"}, {"games": [3]})
    for name in report.TABLES:
        with pytest.raises(ValueError, match="no fan statistics"):
            report.report_table(agg, name)


# ----------------------------------------------------------------------------- output


def read_markdown(path: Path) -> pd.DataFrame:
    lines = path.read_text(encoding="utf-8").splitlines()
    header = [c.strip() for c in lines[0].strip("|").split("|")]
    assert set(lines[1].replace("|", "").split()) == {"---"}
    rows = [[c.strip() for c in ln.strip("|").split("|")] for ln in lines[2:]]
    return pd.DataFrame(rows, columns=header)


@pytest.mark.parametrize("name", ["fans", "totals", "forms", "cooccurrence", "payments", "summary"])
@pytest.mark.parametrize("fmt", ["csv", "parquet", "json", "md"])
def test_every_format_round_trips(agg, tmp_path, name, fmt):
    df = report.report_table(agg, name)
    path = report.write_report(df, tmp_path / f"{name}.{fmt}")
    assert path.exists()
    if fmt == "csv":
        back = pd.read_csv(path)
    elif fmt == "parquet":
        back = pd.read_parquet(path)
    elif fmt == "json":
        back = pd.DataFrame(json.loads(path.read_text(encoding="utf-8"))["rows"])
    else:
        back = read_markdown(path)
    assert list(back.columns) == list(df.columns)
    assert len(back) == len(df)
    for col in df.columns:
        want, got = df[col], back[col]
        if pd.api.types.is_numeric_dtype(want) and not pd.api.types.is_bool_dtype(want):
            got = pd.to_numeric(got.replace("", np.nan))
            rtol = {"md": 1e-3, "json": 1e-13}.get(fmt, 0)  # md: 4 significant digits
            np.testing.assert_allclose(got.to_numpy(float), want.to_numpy(float), rtol=rtol)
        else:
            assert got.astype(str).tolist() == want.astype(str).tolist(), col


def test_write_report_format_argument_and_errors(agg, tmp_path):
    df = report.fan_table(agg)
    path = report.write_report(df, tmp_path / "fans.txt", fmt="md")
    assert path.read_text(encoding="utf-8").startswith("| id | zh | en |")
    with pytest.raises(ValueError, match="unknown report format 'xlsx'"):
        report.write_report(df, tmp_path / "fans.xlsx")


def test_markdown_escapes_and_blanks():
    md = report.to_markdown(pd.DataFrame({"a": ["x|y"], "b": [np.nan], "c": [1234567.0]}))
    assert md.splitlines()[2] == "| x\\|y |  | 1.235e+06 |"


def test_load_aggregate(agg, tmp_path):
    agg.save(tmp_path / "aggregate.json")
    assert report.load_aggregate(tmp_path) == agg
    assert report.load_aggregate(tmp_path / "aggregate.json") == agg
    with pytest.raises(FileNotFoundError):
        report.load_aggregate(tmp_path / "missing")
    (tmp_path / "bad.json").write_text('{"format": "something else"}')
    with pytest.raises(ValueError, match=r"bad\.json: not an mjstats aggregate"):
        report.load_aggregate(tmp_path / "bad.json")
    (tmp_path / "broken.json").write_text("{")
    with pytest.raises(ValueError, match=r"broken\.json: not valid JSON"):
        report.load_aggregate(tmp_path / "broken.json")


# ----------------------------------------------------------------------------- plots


def png_bytes(ax) -> bytes:
    buf = io.BytesIO()
    ax.figure.savefig(buf, format="png", dpi=60)
    data = buf.getvalue()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 2000
    return data


def test_plot_fan_frequencies(agg):
    ax = report.plot_fan_frequencies(agg)
    png_bytes(ax)
    assert ax.get_xscale() == "log"
    assert len(ax.patches) == 6  # the fans that occur
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels[-1] in ("Pure Straight", "Seven Pairs", "Pure Double Chow", "Flower Tiles")
    assert "6 complete hands" in ax.get_title()
    ax = report.plot_fan_frequencies(agg, top=2)
    assert len(ax.patches) == 2
    png_bytes(report.plot_fan_frequencies(make_aggregate(exact=True)))  # zero-width bars


def test_plot_total_distribution(agg):
    ax = report.plot_total_distribution(agg)
    png_bytes(ax)
    assert ax.get_yscale() == "log"
    line = ax.get_lines()[0]
    assert list(line.get_xdata()) == [7.5, 7.5]  # between 7 and 8 fan
    assert ax.get_legend().get_texts()[0].get_text() == "minimum 8: P(total >= 8) = 0.833"
    heights = sorted(p.get_height() for p in ax.patches)
    assert heights == pytest.approx([1 / 6] * 6)
    png_bytes(report.plot_total_distribution(agg, flowers=True))


@pytest.mark.parametrize("kind", ["lift", "count", "conditional"])
def test_plot_cooccurrence(agg, kind):
    ax = report.plot_cooccurrence(agg, kind=kind)
    png_bytes(ax)
    values = ax.images[0].get_array()
    assert values.shape == (6, 6)
    if kind == "lift":  # log2 lift; pairs never seen together are blank
        labels = [t.get_text() for t in ax.get_xticklabels()]
        i, j = labels.index("Seven Pairs"), labels.index("Self-Drawn")
        assert float(values[i, j]) == pytest.approx(math.log2(3))
        assert np.ma.is_masked(values[i, labels.index("Pure Straight")]) or np.isnan(
            values[i, labels.index("Pure Straight")]
        )


def test_plot_report_and_given_axes(agg):
    _, axes = plt.subplots(1, 3)
    for ax, name in zip(axes, ("fans", "totals", "cooccurrence"), strict=True):
        assert report.plot_report(agg, name, ax=ax) is ax
    png_bytes(axes[0])
    with pytest.raises(ValueError, match="no plot for table 'payments'"):
        report.plot_report(agg, "payments")


def test_fan_labels_use_chinese_with_a_cjk_font(monkeypatch):
    t = report.fan_table(make_aggregate())
    t = t[t["hands"] > 0]
    monkeypatch.setattr(report, "cjk_font", lambda: "Noto Sans CJK SC")
    labels, rc = report._fan_labels(t)
    assert labels[0] == "七对 Seven Pairs"  # id order: 七对 is fan 18
    assert rc == {"font.family": ["Noto Sans CJK SC", "DejaVu Sans"]}
    monkeypatch.setattr(report, "cjk_font", lambda: None)
    labels, rc = report._fan_labels(t)
    assert labels[0] == "Seven Pairs" and rc == {}


def test_cjk_font_from_environment(monkeypatch):
    font = Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf"
    monkeypatch.setenv("MJSTATS_CJK_FONT", str(font))
    assert report.cjk_font() == "DejaVu Sans"


def test_cjk_font_names_a_missing_file(monkeypatch):
    monkeypatch.setenv("MJSTATS_CJK_FONT", "/no/such/font.ttf")
    with pytest.raises(FileNotFoundError, match="MJSTATS_CJK_FONT"):
        report.cjk_font()
