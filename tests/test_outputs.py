"""Issue 20: every command this issue changed, run as a user would.

Checks: errors are one line on standard error with exit status 1 (bad input) or 2
(usage); JSON is strict (a parser that rejects NaN and Infinity reads it);
JSON, Parquet and CSV outputs carry the provenance record (seed, n, ruleset,
profile, mjstats version, command); PNGs are non-empty images; ``records`` reads
a folder whole; ``bench --peer`` times a user's scorer and reports disagreements.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import pytest

from mjstats.cli import main
from mjstats.provenance import PARQUET_KEY, sidecar_path

ROOT = Path(__file__).resolve().parents[1]
BOTZONE = ROOT / "tests" / "data" / "botzone"
PROVENANCE = {"kind", "seed", "n", "ruleset", "profile", "mjstats_version", "command"}
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def run(capsys, *args) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def strict_json(text: str):
    """Parse as strictly as JavaScript's JSON.parse: NaN, Infinity are errors."""

    def reject(name):
        raise ValueError(f"not JSON: {name}")

    return json.loads(text, parse_constant=reject)


def assert_provenance(prov: dict, **expected) -> None:
    assert PROVENANCE <= set(prov), sorted(PROVENANCE - set(prov))
    assert prov["command"].startswith("mjstats ")
    for key, value in expected.items():
        assert prov[key] == value, (key, prov[key])


def assert_one_line_error(err: str, *fragments: str) -> None:
    assert err.startswith("mjstats: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    for fragment in fragments:
        assert fragment in err, (fragment, err)


def assert_png(path: Path) -> None:
    from matplotlib.image import imread

    data = path.read_bytes()
    assert data.startswith(PNG_MAGIC) and len(data) > 5_000
    image = imread(path)
    assert image.shape[0] > 100 and image.shape[1] > 100
    assert image[..., :3].std() > 0.01  # not one flat colour


@pytest.fixture(scope="module")
def sample_study(tmp_path_factory):
    """``mjstats study sample --out --json`` once for the tests below."""
    folder = tmp_path_factory.mktemp("sample")
    out, json_path = str(folder / "out"), str(folder / "s.json")
    args = ["--n", "3000", "--seed", "5", "--top", "3", "--out", out, "--json", json_path]
    code = main(["study", "sample", *args, "--no-progress"])
    assert code == 0
    return folder


def test_study_json_is_strict_with_provenance(sample_study):
    doc = strict_json((sample_study / "s.json").read_text(encoding="utf-8"))
    assert_provenance(doc["provenance"], kind="sample", seed=5, n=3000, ruleset="mcr")
    assert doc["provenance"]["profile"] == "default"
    # rare fans that never occurred are null, not NaN, and the common ones are numbers
    assert doc["fan_probability"]["Fully Concealed Hand"] > 0.5


def test_study_out_folder_csv_sidecars_and_aggregate(sample_study):
    out = sample_study / "out"
    agg = strict_json((out / "aggregate.json").read_text(encoding="utf-8"))
    assert_provenance(agg["provenance"], kind="sample", seed=5, n=3000)
    for name in ("fans", "totals", "forms", "payments"):
        side = sidecar_path(out / f"{name}.csv")
        assert side.is_file(), side
        doc = strict_json(side.read_text(encoding="utf-8"))
        assert doc["file"] == f"{name}.csv"
        assert_provenance(doc["provenance"], kind="sample", seed=5, n=3000)


def test_study_prints_probabilities_with_three_significant_digits(capsys):
    from mjstats.cli.study_cmd import print_fan_table
    from mjstats.studies.exact import load_exact

    print_fan_table(load_exact("mcr"), 0)
    out = capsys.readouterr().out
    header = " ".join(out.split("━")[0].split())
    # distinct hands and the deals they stand for, not "185,608,768,652,832 hands"
    assert "27,919,573 distinct complete hands" in header
    assert "13,257,769,189,488 complete 14-tile deals" in header
    assert "185,608,768,652,832" not in header
    big4 = next(line for line in out.splitlines() if "Big Four Winds" in line)
    assert "0.000000" not in big4 and "e-09" in big4  # 3.48e-09, the rarest fans show


def test_report_formats_carry_provenance(capsys, sample_study, tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    out = sample_study / "out"
    code, stdout, _ = run(capsys, "report", out, "--format", "json", "--top", "2")
    assert code == 0
    doc = strict_json(stdout)
    assert_provenance(doc["provenance"], kind="sample", seed=5, n=3000)
    assert len(doc["rows"]) == 2
    code, _, _ = run(capsys, "report", out, "--out", tmp_path / "fans.json")
    doc = strict_json((tmp_path / "fans.json").read_text(encoding="utf-8"))
    assert doc["rows"][0]["frequency"] is None or isinstance(doc["rows"][0]["frequency"], float)
    code, _, _ = run(capsys, "report", out, "--out", tmp_path / "fans.parquet")
    assert code == 0
    meta = pq.read_schema(tmp_path / "fans.parquet").metadata
    assert_provenance(json.loads(meta[PARQUET_KEY.encode()]), kind="sample", seed=5, n=3000)
    code, _, _ = run(capsys, "report", out, "--table", "totals", "--out", tmp_path / "t.csv")
    assert code == 0
    assert_provenance(strict_json(sidecar_path(tmp_path / "t.csv").read_text())["provenance"])


def test_report_pngs_are_drawn_and_top_is_honoured(capsys, sample_study, tmp_path):
    from mjstats.report import load_aggregate, plot_report

    out = sample_study / "out"
    for table in ("fans", "totals", "cooccurrence"):
        png = tmp_path / f"{table}.png"
        code, _, err = run(capsys, "report", out, "--table", table, "--out", png, "--top", "5")
        assert code == 0 and err == f"wrote {png}\n"
        assert_png(png)
    import matplotlib.pyplot as plt

    agg = load_aggregate(out)
    ax = plot_report(agg, "fans", top=4)
    assert len(ax.patches) == 4
    plt.close(ax.figure)
    ax = plot_report(agg, "cooccurrence", top=6)
    assert ax.images[0].get_array().shape == (6, 6)
    plt.close(ax.figure)


def test_heatmap_tells_never_together_from_independent():
    from mjstats.report import _demo_aggregate, plot_cooccurrence

    ax = plot_cooccurrence(_demo_aggregate(), kind="lift")
    values = ax.images[0].get_array()
    labels = [t.get_text() for t in ax.get_yticklabels()]
    big4, flowers = labels.index("Big Four Winds"), labels.index("Flower Tiles")
    assert values.mask[big4, flowers]  # never together: outside the colour scale
    bad = ax.images[0].get_cmap().get_bad()
    assert tuple(bad[:3]) != (1.0, 1.0, 1.0) and bad[3] == 1.0  # grey, not white/transparent
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["never together"]
    import matplotlib.pyplot as plt

    plt.close(ax.figure)


def test_study_dealt_prints_header_and_useful_tables(capsys, tmp_path):
    code, out, err = run(
        capsys,
        "study",
        "dealt",
        "--n",
        "2000",
        "--seed",
        "1",
        "--tiles",
        "13",
        "--useful",
        "--json",
        tmp_path / "d.json",
        "--out",
        tmp_path / "d",
        "--no-progress",
    )
    assert code == 0, err
    assert out.startswith("dealt study, ruleset mcr: 2,000 deals of 13 tiles")
    assert "useful tile kinds" in out and "useful copies unseen" in out
    doc = strict_json((tmp_path / "d.json").read_text(encoding="utf-8"))
    assert_provenance(doc["provenance"], kind="dealt", seed=1, n=2000)
    assert sum(doc["useful_kinds"]["deals"]) == 2000
    for name in ("shanten", "useful_kinds", "useful_copies"):
        assert sidecar_path(tmp_path / "d" / f"{name}.csv").is_file()
    # report: a dealt study without complete deals draws its shanten plot, not an empty one
    png = tmp_path / "dealt.png"
    code, _, _ = run(capsys, "report", tmp_path / "d", "--out", png)
    assert code == 0
    assert_png(png)
    code, _, err = run(capsys, "report", tmp_path / "d", "--table", "fans", "--out", png)
    assert code == 1
    assert_one_line_error(err, "no complete hand", "--table shanten")


def test_records_reads_a_folder_whole(capsys, tmp_path):
    code, out, err = run(capsys, "records", BOTZONE, "--json", tmp_path / "r.json")
    assert code == 0, err
    # sample.txt (16 games) + judge-logs/ (24 logs); SOURCE.md and the READMEs hold none
    assert out.startswith("40 games: 38 wins, 2 drawn")
    doc = strict_json((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert doc["games"] == 40
    assert_provenance(doc["provenance"], kind="records", ruleset="mcr", seed=None)
    assert doc["provenance"]["source"] == str(BOTZONE)


def test_records_without_records_is_an_error(capsys, tmp_path):
    (tmp_path / "notes.md").write_text("# no games here\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "empty.txt").write_text("")
    code, _, err = run(capsys, "records", tmp_path)
    assert code == 1
    assert_one_line_error(err, "no records found in 2 files", "Match", "JSON judge logs")
    for file in (tmp_path / "sub" / "empty.txt", tmp_path / "notes.md"):
        code, _, err = run(capsys, "records", file)
        assert code == 1
        assert_one_line_error(err, f"{file}", "no records found")


def test_records_help_examples_point_at_paths_that_exist(capsys):
    code, out, _ = run(capsys, "records", "--help")
    assert code == 0
    examples = [ln.split()[2] for ln in out.splitlines() if ln.strip().startswith("mjstats ")]
    assert len(examples) >= 3
    for path in examples:
        assert (ROOT / path).exists(), path


def test_records_folder_formats_are_told_by_content(tmp_path):
    from mjstats.records import read_botzone

    logs = sorted((BOTZONE / "judge-logs").glob("*.json"))[:3]
    # no telling names: a text data set called .log, logs one per line called .data
    (tmp_path / "games.log").write_bytes((BOTZONE / "sample.txt").read_bytes())
    lines = [json.dumps(json.loads(p.read_text(encoding="utf-8"))) for p in logs]
    (tmp_path / "deep" / "er").mkdir(parents=True)
    (tmp_path / "deep" / "er" / "logs.data").write_text("\n".join(lines) + "\n")
    records = read_botzone(tmp_path)
    assert records.games == 16 + 3 and records.bad == 0


@pytest.fixture
def peers_on_path(monkeypatch):
    monkeypatch.syspath_prepend(str(Path(__file__).parent))
    yield
    sys.modules.pop("bench_peers", None)


def bench_peer(capsys, tmp_path, spec, *extra) -> tuple[int, str, dict]:
    path = tmp_path / "peer.json"
    code, out, err = run(
        capsys,
        "bench",
        "--quick",
        "--scale",
        "0.004",
        "--no-progress",
        "--peer",
        spec,
        "--json",
        path,
        *extra,
    )
    assert "Traceback" not in err
    doc = strict_json(path.read_text(encoding="utf-8"))
    assert_provenance(doc["provenance"], kind="bench")
    return code, out, doc


def test_bench_peer_reference_wrapped_both_ways(capsys, tmp_path, peers_on_path):
    pytest.importorskip("MahjongGB")
    results = {}
    for spec, given in (("bench_peers:gb_kwargs", "kwargs"), ("bench_peers:gb_hand", "hand")):
        code, out, doc = bench_peer(capsys, tmp_path, spec, "--peer-input", given)
        assert code == 0
        rows = doc["rows"]
        assert [r["task"] for r in rows] == ["peer", "peer"]
        assert [r["threads"] for r in rows][1] == 1 and all(r["ratio"] > 0 for r in rows)
        assert all(r["peer"] == spec for r in rows)
        assert "hands differ from mjstats" in out or "the same total as mjstats" in out
        results[given] = (rows[0]["agree"], doc["peer_disagreements"])
    # the same peer given either way sees the same hands and gives the same answers
    assert results["kwargs"] == results["hand"]
    agree, disagreements = results["kwargs"]
    matched, n = map(int, agree.split("/"))
    assert n - matched == len(disagreements)


def test_bench_peer_reports_disagreements(capsys, tmp_path, peers_on_path):
    import mjstats

    code, out, doc = bench_peer(capsys, tmp_path, "bench_peers:odd_plus_one", "--strict")
    assert code == 1  # --strict: the peer disagrees
    disagreements = doc["peer_disagreements"]
    assert disagreements and f"{len(disagreements)} of " in out
    for d in disagreements:
        true = mjstats.score(d["hand"]).total
        assert d["mjstats"] == true and true % 2 == 1 and d["peer"] == true + 1
    matched, n = map(int, doc["rows"][0]["agree"].split("/"))
    assert n - matched == len(disagreements)
    code, out, doc = bench_peer(capsys, tmp_path, "bench_peers:fails_on_kongs")
    assert code == 0
    errors = doc["peer_disagreements"]
    assert errors and all(d["error"] == "RuntimeError: kongs are not supported" for d in errors)
    assert all(mjstats.parse_hand(d["hand"]).n_kongs for d in errors)


@pytest.mark.parametrize(
    ("args", "status", "fragments"),
    [
        (["bench", "--peer", "nomodule_xyz:f"], 2, ("cannot import peer module 'nomodule_xyz'",)),
        (["bench", "--peer", "mjstats"], 2, ("module:function",)),
        (["bench", "--peer", "mjstats:no_such"], 2, ("has no 'no_such'",)),
        (["bench", "--peer", "mjstats:__version__"], 2, ("not callable",)),
        (["bench", "--peer-input", "bogus"], 2, ("--peer-input",)),
        (["report", "{missing}"], 2, ("does not exist",)),
        (["report", "{demo}", "--table", "shanten"], 1, ("no shanten statistics",)),
        (["records", "{missing}"], 2, ("does not exist",)),
    ],
)
def test_errors_are_one_line(capsys, tmp_path, args, status, fragments):
    from mjstats.report import _demo_aggregate

    _demo_aggregate().save(tmp_path / "demo" / "aggregate.json")
    paths = {"missing": tmp_path / "nope", "demo": tmp_path / "demo"}
    code, _, err = run(capsys, *(a.format(**paths) for a in args))
    assert code == status
    assert_one_line_error(err, *fragments)


def test_records_check_of_a_folder(capsys, tmp_path):
    code, out, err = run(capsys, "records", BOTZONE, "--check", "--json", tmp_path / "c.json")
    assert code == 0, err
    assert out.split()[:4] == ["games", "40", "wins", "38"]
    doc = strict_json((tmp_path / "c.json").read_text(encoding="utf-8"))
    assert doc["matched"] == 38 and doc["mismatched"] == 0
    assert_provenance(doc["provenance"], kind="records-check", ruleset="mcr")
    assert doc["provenance"]["options"]["flowers_count_toward_minimum"] is True  # the judge's


def test_analyze_json_is_strict_with_provenance(capsys, tmp_path):
    path = tmp_path / "a.json"
    args = ["analyze", "123m456p789s11334z", "--draws", "3", "--n", "100", "--seed", "4"]
    code, _, err = run(capsys, *args, "--json", path)
    assert code == 0, err
    doc = strict_json(path.read_text(encoding="utf-8"))
    assert_provenance(doc["provenance"], kind="analyze", seed=4, n=100, ruleset="mcr")
    assert doc["rows"]
