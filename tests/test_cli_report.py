"""``mjstats report``: every table in every format from a saved aggregate, plots, errors."""

from __future__ import annotations

import json

import matplotlib

matplotlib.use("Agg")

import pandas as pd
import pytest

from mjstats import cli
from mjstats.cli import main
from mjstats.report import TABLES, _demo_aggregate, report_table


@pytest.fixture(autouse=True)
def registered(monkeypatch):
    """Register the command even before the lead adds it to the registry."""
    monkeypatch.setitem(cli.COMMANDS, "report", "mjstats.cli.report_cmd:command")


@pytest.fixture
def study(tmp_path):
    """A study output folder (as ``mjstats study --out DIR`` writes it)."""
    folder = tmp_path / "study"
    _demo_aggregate().save(folder / "aggregate.json")
    return folder


def run(capsys, *args) -> tuple[int, str, str]:
    code = main(["report", *map(str, args)])
    out, err = capsys.readouterr()
    return code, out, err


def test_default_is_the_fan_table_in_the_terminal(capsys, study):
    code, out, err = run(capsys, study)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith("demo study, ruleset mcr: 20 hands, 10 complete")
    body = "\n".join(lines[1:])
    # most frequent first: 花牌 0.6, 自摸 0.4, 大四喜 0.1
    assert body.index("Flower Tiles") < body.index("Self-Drawn") < body.index("Big Four Winds")
    assert "0.600" in body  # three significant digits


@pytest.mark.parametrize("table", TABLES)
def test_every_table_prints(capsys, study, table):
    code, out, err = run(capsys, study, "--table", table)
    assert code == 0 and err == "" and out.strip()


def test_summary_and_cooccurrence_terminal_tables(capsys, study):
    _, out, _ = run(capsys, study, "--table", "summary")
    assert any(ln.replace("│", " ").split() == ["mean_total", "16.6"] for ln in out.splitlines())
    _, out, _ = run(capsys, study, "--table", "cooccurrence", "--kind", "conditional")
    rows = [ln for ln in out.splitlines() if "│" in ln]
    # pairs, largest first: P(Self-Drawn | Big Four Winds) = 1 heads the list
    assert "Big Four Winds" in rows[0] and "Self-Drawn" in rows[0] and rows[0].endswith("1 ")


@pytest.mark.parametrize("fmt", ["csv", "parquet", "json", "md"])
@pytest.mark.parametrize("table", TABLES)
def test_every_format_to_a_file(capsys, study, tmp_path, fmt, table):
    out = tmp_path / f"{table}.{fmt}"
    code, stdout, err = run(capsys, study, "--table", table, "--out", out)
    assert code == 0 and stdout == "" and err == f"wrote {out}\n"
    want = report_table(_demo_aggregate(), table)
    if fmt == "csv":
        back = pd.read_csv(out)
    elif fmt == "parquet":
        back = pd.read_parquet(out)
    elif fmt == "json":
        back = pd.DataFrame(json.loads(out.read_text(encoding="utf-8"))["rows"])
    else:
        lines = out.read_text(encoding="utf-8").splitlines()
        assert lines[0] == "| " + " | ".join(map(str, want.columns)) + " |"
        assert len(lines) == len(want) + 2
        return
    assert list(back.columns) == list(want.columns) and len(back) == len(want)
    pd.testing.assert_frame_equal(back, want, check_dtype=False, check_exact=False)


def test_explicit_format_and_standard_output(capsys, study, tmp_path):
    code, out, _ = run(capsys, study, "--table", "payments", "--format", "csv")
    assert code == 0
    assert out.splitlines()[:2] == [
        "win,hands,mean_total,mean_payment,sd_payment",
        "discard,6,8.0,32.0,0.0",
    ]
    code, out, _ = run(capsys, study, "--format", "json", "--top", "1")
    rows = json.loads(out)["rows"]
    assert len(rows) == 1 and rows[0]["en"] == "Flower Tiles" and rows[0]["hands"] == 6
    code, out, _ = run(capsys, study, "--table", "forms", "--format", "md")
    assert out.splitlines()[3] == "| regular | 9 | 0.9 |"
    # --format wins over the suffix
    code, _, _ = run(capsys, study, "--format", "csv", "--out", tmp_path / "fans.txt")
    assert code == 0 and (tmp_path / "fans.txt").read_text().startswith("id,zh,en,")
    # an aggregate file works as well as its folder
    code, out, _ = run(capsys, study / "aggregate.json", "--table", "totals", "--format", "csv")
    assert code == 0 and out.splitlines()[0] == "total,hands,pmf,cdf,sf"


@pytest.mark.parametrize(
    "table,extra", [("fans", []), ("totals", []), ("cooccurrence", ["--kind", "count"])]
)
def test_png_plots(capsys, study, tmp_path, table, extra):
    out = tmp_path / f"{table}.png"
    code, _, err = run(capsys, study, "--table", table, *extra, "--out", out)
    assert code == 0 and err == f"wrote {out}\n"
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 5000
    import matplotlib.pyplot as plt

    assert plt.get_fignums() == []  # the command closes its figure


def test_usage_errors_are_one_line_exit_2(capsys, study, tmp_path):
    cases = [
        (["--table", "payments", "--out", tmp_path / "p.png"], "no plot for --table payments"),
        (["--out", tmp_path / "fans.xlsx"], "cannot tell the format"),
        (["--format", "parquet"], "needs --out"),
        (["--format", "png"], "needs --out"),
        (["--format", "table", "--out", tmp_path / "x.csv"], "drop --out"),
        (["--kind", "lift"], "--kind applies to --table cooccurrence"),
        (["--table", "nope"], "Invalid value for '--table'"),
    ]
    for args, message in cases:
        code, _, err = run(capsys, study, *args)
        assert code == 2, args
        assert err.count("\n") == 1 and err.startswith("mjstats: error: ") and message in err
    code, _, err = run(capsys, tmp_path / "nothing")
    assert code == 2 and "does not exist" in err and err.count("\n") == 1


def test_failures_are_one_line_exit_1(capsys, tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    code, _, err = run(capsys, empty)
    assert code == 1 and err.count("\n") == 1 and "aggregate.json" in err
    bad = tmp_path / "fans.csv"
    bad.write_text("id,zh\n1,x\n")
    code, _, err = run(capsys, bad)
    assert code == 1 and err.count("\n") == 1 and "not valid JSON" in err
    other = tmp_path / "play.json"
    from mjstats.studies.aggregate import Aggregate

    Aggregate("play", {"ruleset": "mcr"}, {"games": [1]}).save(other)
    code, _, err = run(capsys, other)
    assert code == 1 and err.count("\n") == 1 and "no fan statistics" in err


def test_help(capsys):
    code, out, _ = run(capsys, "--help")
    assert code == 0
    for word in ("--table", "--kind", "--format", "--out", "Examples:", "png"):
        assert word in out
