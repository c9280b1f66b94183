"""``check_records`` / ``mjstats records``: every real win scored and compared with the judge."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from mjstats import cli
from mjstats.cli import main
from mjstats.kernels.accumulate import accumulate_score, empty_counters
from mjstats.records import (
    FAN_POINTS,
    JUDGE_NAMES,
    RecordError,
    botzone_ruleset,
    check_records,
    judge_fan_counts,
    read_botzone,
)
from mjstats.report import load_aggregate, payments
from mjstats.rules import get_ruleset
from mjstats.studies.records import records_aggregate

DATA = Path(__file__).parent / "data" / "botzone"
SAMPLE = DATA / "sample.txt"
LOGS = DATA / "judge-logs"
FIRST_FAN_LINE = "Fan 9 混一色*1+箭刻*1+老少副*1"  # line 104 of sample.txt, the first win


@pytest.fixture(autouse=True)
def registered(monkeypatch):
    """Register the commands even before the lead adds them to the registry."""
    monkeypatch.setitem(cli.COMMANDS, "records", "mjstats.cli.records_cmd:command")
    monkeypatch.setitem(cli.COMMANDS, "report", "mjstats.cli.report_cmd:command")


@pytest.fixture(scope="module")
def sample():
    return read_botzone(SAMPLE)


@pytest.fixture(scope="module")
def logs():
    return read_botzone(LOGS)


def run(capsys, *args) -> tuple[int, str, str]:
    code = main(["records", *map(str, args)])
    out, err = capsys.readouterr()
    return code, out, err


def corrupted(tmp_path, old: str, new: str) -> Path:
    text = SAMPLE.read_text(encoding="utf-8")
    assert text.count(old) == 1
    path = tmp_path / "corrupted.txt"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


# ----------------------------------------------------------------------------- names


def test_every_judge_name_maps_to_a_fan_with_the_same_points():
    mcr = get_ruleset("mcr")
    assert set(FAN_POINTS) <= set(JUDGE_NAMES)
    for name, points in FAN_POINTS.items():
        assert mcr.points[mcr.fan_id(JUDGE_NAMES[name])] == points, name
    # every ruleset fan is reachable by its own Chinese name
    assert all(JUDGE_NAMES[f.zh] == f.key for f in mcr.fans)
    # old and new spellings of the wait fans
    assert JUDGE_NAMES["嵌张"] == JUDGE_NAMES["独听・嵌张"] == JUDGE_NAMES["坎张"] == "closed_wait"
    assert JUDGE_NAMES["边张"] == JUDGE_NAMES["独听・边张"] == "edge_wait"
    assert JUDGE_NAMES["单钓将"] == JUDGE_NAMES["独听・单钓"] == "single_wait"


def test_judge_fan_counts_adds_repeats_and_reports_unknown_names():
    mcr = get_ruleset("mcr")
    counts, unknown = judge_fan_counts([(("连六", 2), ("独听・单钓", 1)), (("大车轮", 1),)])
    assert counts.shape == (2, 82) and counts.dtype == np.uint8
    assert counts[0, mcr.fan_id("short_straight")] == 2
    assert counts[0, mcr.fan_id("single_wait")] == 1
    assert counts[0].sum() == 3 and counts[1].sum() == 0
    assert unknown == [(), (("大车轮", 1),)]


# ----------------------------------------------------------------------------- check


def test_sample_all_14_wins_match_the_judge(sample):
    check = check_records(sample)
    assert (check.games, check.wins, check.drawn) == (16, 14, 2)
    assert (check.matched, check.mismatched) == (14, 0)
    assert check.table["matched"].all() and (check.table["diff"] == "").all()
    assert (check.table["recorded_total"] == check.table["computed_total"]).all()
    assert len(check.table) == 14


def test_judge_logs_all_24_wins_match_the_judge(logs):
    check = check_records(logs)
    assert (check.games, check.wins, check.matched, check.mismatched) == (24, 24, 24, 0)


def test_corrupted_fan_is_a_mismatch_with_a_diff(tmp_path):
    path = corrupted(tmp_path, FIRST_FAN_LINE, "Fan 9 混一色*1+箭刻*1+连六*1")
    check = check_records(read_botzone(path))
    assert (check.wins, check.matched, check.mismatched) == (14, 13, 1)
    bad = check.mismatches.iloc[0]
    assert bad["line"] == 103 and bad["match_id"] == "61602cb45ddc087351c04358"
    assert bad["diff"].split("\n") == [
        "连六 Short Straight: judge 1, mjstats 0",
        "老少副 Two Terminal Chows: judge 0, mjstats 1",
    ]
    text = check.format_mismatch(0)
    assert text.splitlines()[0].endswith(
        "line 103, match 61602cb45ddc087351c04358: player 1 (S) wins on a discard of B7"
    )
    assert text.splitlines()[1].startswith("  hand   [777z]")


def test_corrupted_total_and_unknown_name(tmp_path):
    # the total and the Score line changed together (the scores follow from the total)
    path = corrupted(tmp_path, FIRST_FAN_LINE, "Fan 10 混一色*1+箭刻*1+老少副*1+大车轮*1")
    text = path.read_text(encoding="utf-8").replace("Score -8 33 -17 -8", "Score -8 34 -18 -8", 1)
    path.write_text(text, encoding="utf-8")
    check = check_records(read_botzone(path))
    assert check.mismatched == 1
    assert check.mismatches.iloc[0]["diff"].split("\n") == [
        "total: judge 10, mjstats 9",
        "大车轮: judge 1, not a fan of ruleset 'mcr'",
    ]


def test_a_total_the_scores_contradict_is_a_bad_record(tmp_path):
    path = corrupted(tmp_path, FIRST_FAN_LINE, "Fan 10 混一色*1+箭刻*1+老少副*1")
    with pytest.raises(
        RecordError,
        match=r"line 105: 'Score -8 33 -17 -8' does not follow "
        r"from the total 10 by the judge's payments \(-8 34 -18 -8\)",
    ):
        read_botzone(path)
    assert read_botzone(path, skip_bad=True).bad == 1


def test_to_dict_keys(tmp_path):
    path = corrupted(tmp_path, FIRST_FAN_LINE, "Fan 9 混一色*1+箭刻*1+连六*1")
    d = check_records(read_botzone(path)).to_dict()
    assert {"games", "wins", "matched", "mismatched", "mismatches"} <= set(d)
    assert (d["games"], d["wins"], d["matched"], d["mismatched"]) == (16, 14, 13, 1)
    (m,) = d["mismatches"]
    assert m["match_id"] == "61602cb45ddc087351c04358" and m["recorded_total"] == 9
    assert m["diff"][0] == "连六 Short Straight: judge 1, mjstats 0"
    json.dumps(d)  # plain Python types only


# ----------------------------------------------------------------------------- aggregate


def naive_records_aggregate(records):
    """The same counters through the study kernel, one win at a time."""
    rs = botzone_ruleset()
    from mjstats import score_batch

    s = score_batch(records.batch, rs)
    c = empty_counters(rs.n_fans, 9)
    flower = rs.fan_id("flower_tiles")
    for i in range(len(s)):
        accumulate_score(
            s.fan_counts[i],
            int(s.total[i]),
            int(s.fan_counts[i, flower]),
            int(s.form[i]),
            bool(records.batch.self_drawn[i]),
            bool(s.legal[i]),
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
    return c


@pytest.mark.parametrize("which", ["sample", "logs"])
def test_records_aggregate_equals_the_study_kernel(which, sample, logs):
    records = sample if which == "sample" else logs
    agg = records_aggregate(records)
    assert agg.kind == "records"
    assert agg.params == {"ruleset": "mcr", "options": dict(botzone_ruleset().options)}
    want = naive_records_aggregate(records)
    for name, arr in want.items():
        np.testing.assert_array_equal(agg[name], arr, err_msg=name)
    assert int(agg["games"][0]) == records.games and int(agg["drawn"][0]) == records.drawn
    # totals are the judge's; win types are the real ones
    assert agg["total_hist"].sum() == records.wins
    drawn = int((records.recorded["win_type"] == "self_drawn").sum())
    assert agg["total_hist"][1].sum() == drawn
    p = payments(agg)
    assert p["hands"].tolist() == [records.wins - drawn, drawn, records.wins]
    mean_total = records.recorded["total"].mean()
    assert p.iloc[2]["mean_total"] == pytest.approx(mean_total)


def test_records_aggregates_merge(sample, logs):
    both = records_aggregate(sample) + records_aggregate(logs)
    assert int(both["hands"][0]) == 38 and int(both["games"][0]) == 40


# ----------------------------------------------------------------------------- CLI


def test_cli_check_sample(capsys, tmp_path):
    out_json = tmp_path / "check.json"
    code, out, _err = run(capsys, SAMPLE, "--check", "--json", out_json)
    assert code == 0
    lines = out.splitlines()
    assert lines[:4] == [
        "games            16",
        "wins             14",
        "matched          14",
        "mismatched        0",
    ]
    d = json.loads(out_json.read_text(encoding="utf-8"))
    assert {k: d[k] for k in ("games", "wins", "matched", "mismatched")} == {
        "games": 16,
        "wins": 14,
        "matched": 14,
        "mismatched": 0,
    }
    assert d["mismatches"] == []


def test_cli_check_judge_logs(capsys):
    code, out, _ = run(capsys, LOGS, "--check")
    assert code == 0
    assert "wins             24" in out and "matched          24" in out


def test_cli_check_mismatch_exits_1_with_a_diff(capsys, tmp_path):
    path = corrupted(tmp_path, FIRST_FAN_LINE, "Fan 9 混一色*1+箭刻*1+连六*1")
    code, out, _err = run(capsys, path, "--check", "--json", tmp_path / "c.json")
    assert code == 1
    assert "mismatched        1" in out
    assert "  连六 Short Straight: judge 1, mjstats 0" in out.splitlines()
    assert "  老少副 Two Terminal Chows: judge 0, mjstats 1" in out.splitlines()
    assert "match 61602cb45ddc087351c04358" in out
    d = json.loads((tmp_path / "c.json").read_text(encoding="utf-8"))
    assert d["mismatched"] == 1 and len(d["mismatches"]) == 1


def test_cli_statistics_and_out_folder(capsys, tmp_path):
    out_dir = tmp_path / "rec"
    code, out, _err = run(
        capsys, SAMPLE, "--out", out_dir, "--top", "5", "--json", tmp_path / "s.json"
    )
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "16 games: 14 wins, 2 drawn, 0 aborted, 0 bad"
    assert "records study, ruleset mcr: 14 hands, 14 complete" in lines[1]
    assert "All Chows" in out  # the most frequent fan of the sample (6 of 14)
    for name in ("aggregate.json", "fans.csv", "totals.csv", "forms.csv", "payments.csv"):
        assert (out_dir / name).exists(), name
    agg = load_aggregate(out_dir)
    assert agg.kind == "records" and int(agg["complete"][0]) == 14
    d = json.loads((tmp_path / "s.json").read_text(encoding="utf-8"))
    assert d["games"] == 16 and d["wins"] == 14 and d["complete"] == 14
    assert d["fan_probability"]["All Chows"] == pytest.approx(6 / 14)
    # the report command reads what --out wrote
    assert main(["report", str(out_dir), "--table", "payments", "--format", "csv"]) == 0
    csv = capsys.readouterr().out.splitlines()
    assert csv[0] == "win,hands,mean_total,mean_payment,sd_payment"
    assert csv[1].startswith("discard,8,") and csv[2].startswith("self-drawn,6,")


def test_cli_check_out_writes_check_csv(capsys, tmp_path):
    code, _, _err = run(capsys, SAMPLE, "--check", "--out", tmp_path / "o")
    assert code == 0 and (tmp_path / "o" / "check.csv").exists()
    assert (tmp_path / "o" / "aggregate.json").exists()


def test_cli_errors_are_one_line(capsys, tmp_path):
    text = SAMPLE.read_text(encoding="utf-8")
    bad = tmp_path / "bad.txt"
    bad.write_text(text.replace("Wind 0", "Wind 9", 1), encoding="utf-8")
    code, out, err = run(capsys, bad)
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and err.startswith("mjstats: error: ")
    assert "bad.txt, line " in err and "bad 'Wind' line" in err
    # --skip-bad: counted and named, not fatal
    code, out, err = run(capsys, bad, "--check", "--skip-bad")
    assert code == 0
    assert "bad               1" in out.splitlines() and err.startswith("skipped: ")
    code, _, err = run(capsys, tmp_path / "missing.txt")
    assert code == 2 and err.count("\n") == 1 and "does not exist" in err
    code, _, err = run(capsys, SAMPLE, "--top", "-1")
    assert code == 2 and err.count("\n") == 1


def test_cli_help(capsys):
    code, out, _ = run(capsys, "--help")
    assert code == 0
    assert "--check" in out and "--skip-bad" in out and "Examples" in out
    assert "mjstats records tests/data/botzone/sample.txt --check" in out
