"""``mjstats score --file``: txt/csv/parquet/stdin in chunks, bad rows to a side file, exit 1."""

from __future__ import annotations

import subprocess
import sys

import pandas as pd
import pytest

import mjstats
from mjstats import cli

HANDS = [
    "[123p]55m12379s789p+8s",
    "W1W2W3 B4B5B6 T7T8T9 F1F1F1 J1 +J1",
    "123m456p789s11z22z+0m",  # bad: '0'
    "一万二万三万 东东东 中中 五饼六饼七饼 八条八条 +八条 自摸",
    "123456789m1235p",  # waiting: scores -1
    "x",  # bad
]
TOTALS = [mjstats.score(h).total for h in HANDS if h not in (HANDS[2], HANDS[5])]


def _check(out_path, bad_path):
    scores = (
        pd.read_parquet(out_path) if str(out_path).endswith("parquet") else pd.read_csv(out_path)
    )
    assert scores["row"].tolist() == [0, 1, 3, 4] and scores["total"].tolist() == TOTALS
    bad = pd.read_csv(bad_path)
    assert bad["row"].tolist() == [2, 5] and "'0'" in bad["error"][0]


@pytest.mark.parametrize("chunk", [1, 2, 1000])
@pytest.mark.parametrize("kind", ["txt", "csv", "parquet"])
def test_file_kinds_and_chunks(tmp_path, capsys, kind, chunk):
    src = tmp_path / f"hands.{kind}"
    if kind == "txt":
        src.write_text("\n".join(HANDS) + "\n", encoding="utf-8")
    elif kind == "csv":
        pd.DataFrame({"id": range(len(HANDS)), "hand": HANDS}).to_csv(src, index=False)
    else:
        pd.DataFrame({"hand": HANDS}).to_parquet(src)
    out = tmp_path / ("scores.parquet" if kind != "parquet" else "scores.csv")
    code = cli.main(["score", "--file", str(src), "--out", str(out), "--chunk-rows", str(chunk)])
    assert code == 1
    err = capsys.readouterr().err
    assert "2 of 6 rows were bad" in err and "Traceback" not in err
    _check(out, f"{out}.bad.csv")


def test_good_file_exits_0_and_no_side_file(tmp_path):
    src = tmp_path / "hands.txt"
    src.write_text("[123p]55m12379s789p+8s\r\n", encoding="utf-8")
    out = tmp_path / "o.csv"
    assert cli.main(["score", "--file", str(src), "--out", str(out)]) == 0
    assert pd.read_csv(out)["total"].tolist() == [17]
    assert not (tmp_path / "o.csv.bad.csv").exists()


def test_usage_errors(tmp_path, capsys):
    assert cli.main(["score"]) == 2
    assert cli.main(["score", "1m", "--file", "x.txt"]) == 2
    src = tmp_path / "h.csv"
    src.write_text("hand\n1m\n", encoding="utf-8")
    assert cli.main(["score", "--file", str(src), "--column", "nope"]) == 1
    assert "no column 'nope'" in capsys.readouterr().err


def test_stdin_to_stdout(tmp_path):
    code = "import sys; from mjstats.cli import main; sys.exit(main())"
    run = subprocess.run(
        [sys.executable, "-c", code, "score", "--file", "-", "--bad", str(tmp_path / "b.csv")],
        input="\n".join(HANDS),
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert run.returncode == 1, run.stderr
    (tmp_path / "o.csv").write_text(run.stdout)
    _check(tmp_path / "o.csv", tmp_path / "b.csv")
