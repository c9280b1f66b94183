"""At 80 columns (``COLUMNS=80``, as in a narrow terminal) the output of ``mjstats study``,
``report`` and ``bench`` fits, and no word is cut: every word printed at 80 columns is a
word of the same output printed wide (a word cut in two would leave pieces that are not).
"""

from __future__ import annotations

import json
import re

import pytest
from rich.cells import cell_len

from mjstats.bench import format_table
from mjstats.cli import main

# words of the narrow layouts only (short headers and their key)
_NARROW_WORDS = {"pts", "P", "E[pts]", "each", "row", "as", "a", "block", "at", "columns", "the"}
_NARROW_WORDS |= {"table", "needs", "widen", "terminal", "set", "COLUMNS", "or", "use"}
_NARROW_WORDS |= {"--markdown", "n", "on", "thread", "threads", "ns/item", "peer", "ratio", "agree"}
_NARROW_WORDS |= {"goal", "mjstats", "fan's", "points", "fan", "names", "wrap", "is", "wide"}
_BOX = "│┃━─╇┡┩┏┓┗┛┳┻╋┣┫┼├┤┬┴└┘┌┐╿╽"


def _words(text: str) -> list[str]:
    text = re.sub(f"[{_BOX}]", " ", text)
    return [w.strip(",;:()") for w in text.split() if w.strip(",;:()")]


def _run(capsys, monkeypatch, columns: int, *args: str) -> str:
    monkeypatch.setenv("COLUMNS", str(columns))
    assert main(list(args)) == 0
    return capsys.readouterr().out


def _check(narrow: str, wide: str) -> None:
    long = [line for line in narrow.splitlines() if cell_len(line) > 80]
    assert not long, "lines wider than 80 columns:\n" + "\n".join(long)
    known = set(_words(wide)) | _NARROW_WORDS
    cut = [w for w in _words(narrow) if w not in known and not w.isdigit()]  # widths in hints
    assert not cut, f"words cut at 80 columns: {cut}\n{narrow}"


@pytest.fixture(scope="module")
def saved_study(tmp_path_factory):
    out = tmp_path_factory.mktemp("narrow") / "sample"
    assert main(["study", "sample", "--n", "3000", "--seed", "5", "--out", str(out),
                 "--no-progress"]) == 0  # fmt: skip
    return out


def test_study_at_80_columns(capsys, monkeypatch, saved_study):
    capsys.readouterr()
    args = ("study", "sample", "--n", "3000", "--seed", "5", "--no-progress")
    narrow = _run(capsys, monkeypatch, 80, *args)
    _check(narrow, _run(capsys, monkeypatch, 1000, *args))
    assert "Fully Concealed Hand" in narrow and "convention:" in narrow


@pytest.mark.parametrize(
    "table", ["fans", "totals", "forms", "payments", "summary", "cooccurrence"]
)
def test_report_at_80_columns(capsys, monkeypatch, saved_study, table):
    capsys.readouterr()
    args = ("report", str(saved_study), "--table", table)
    _check(_run(capsys, monkeypatch, 80, *args), _run(capsys, monkeypatch, 1000, *args))


def test_bench_at_80_columns(capsys, monkeypatch, tmp_path):
    path = tmp_path / "bench.json"
    args = ("bench", "--quick", "--tasks", "shanten", "--scale", "0.002", "--no-progress")
    narrow = _run(capsys, monkeypatch, 80, *args, "--json", str(path))
    document = json.loads(path.read_text())
    env = {k: str(v) for k, v in document["environment"].items()}
    _check(narrow, format_table(document["rows"], env, width=1000))
    assert "the table needs" in narrow  # says how to get the whole table


def test_the_compile_line_fits_the_terminal(monkeypatch):
    from mjstats import compiling

    s = compiling._Session("sample", None)
    s.kernels = 18
    s._setup()
    s.estimate = (90.0, 140)
    assert len(s.text()) > 80  # the whole line would not fit
    for columns in (80, 60, 40):
        assert len(s.text(columns)) < columns
    monkeypatch.setenv("COLUMNS", "80")
    summary = compiling._wrapped(s.summary())
    assert max(len(line) for line in summary.splitlines()) < 80
