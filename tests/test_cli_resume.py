"""Resume from the checkpoint alone, analyze without checkpoints, files with the
user's umask (issue 20 item 3)."""

from __future__ import annotations

import json
import os
import stat

import pytest

from mjstats.cli import main
from mjstats.studies.dealt import CHUNK, DealtStudy
from mjstats.studies.runner import StudyInterrupted, run_study

STUDY = dict(n=3 * CHUNK, seed=4, tiles=13)  # 13-tile deals: the cheapest study kernel


@pytest.fixture
def ckpt(tmp_path, monkeypatch):
    """A checkpoint of a dealt study interrupted after its first of three chunks."""
    monkeypatch.chdir(tmp_path)

    def stop(first, count):
        raise KeyboardInterrupt

    path = tmp_path / "run.ckpt"
    with pytest.raises(StudyInterrupted):
        run_study(DealtStudy(**STUDY), group_size=1, checkpoint=path, progress=False, on_group=stop)
    return path


def _numbers(path):
    data = json.loads(path.read_text())
    data.pop("provenance")
    return data


def test_resume_takes_the_parameters_from_the_checkpoint(ckpt, tmp_path, capsys):
    fresh = ["study", "dealt", "--n", str(STUDY["n"]), "--seed", "4", "--tiles", "13"]
    assert main([*fresh, "--json", str(tmp_path / "fresh.json")]) == 0
    copy = tmp_path / "copy.ckpt"
    copy.write_bytes(ckpt.read_bytes())
    assert main(["study", "--resume", str(ckpt), "--json", str(tmp_path / "a.json")]) == 0
    out = capsys.readouterr().out
    assert f"{STUDY['n']:,} deals of 13 tiles" in out and "shanten" in out  # dealt tables
    # the old form, and the same parameters given again, are fine
    again = [*fresh, "--checkpoint", str(copy), "--resume", "--json", str(tmp_path / "b.json")]
    assert main(again) == 0
    expected = _numbers(tmp_path / "fresh.json")
    assert _numbers(tmp_path / "a.json") == expected == _numbers(tmp_path / "b.json")


@pytest.mark.parametrize(
    "extra, named",
    [
        (["--seed", "5"], "--seed 5"),
        (["--n", "10"], "--n 10"),
        (["--tiles", "14"], "--tiles 14"),
        (["--useful"], "--useful"),
        (["--policy", "fan-aware"], "--policy fan-aware"),
        (["--draws", "10"], "--draws 10"),
        (["--ruleset", "two-player"], "--ruleset two-player"),
    ],
)
def test_a_contradicting_parameter_is_a_usage_error_naming_it(ckpt, extra, named, capsys):
    before = ckpt.read_bytes()
    assert main(["study", "--resume", str(ckpt), *extra]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and named in err and str(ckpt) in err, err
    assert ckpt.read_bytes() == before  # nothing ran
    assert main(["study", "sample", "--resume", str(ckpt)]) == 2
    assert "KIND sample" in capsys.readouterr().err


def test_resume_errors(ckpt, tmp_path, capsys):
    cases = [
        (["study", "--resume"], 2, "--resume FILE"),
        (["study", "--resume", str(tmp_path / "none")], 1, "nothing to resume"),
        (["study", "--resume", str(ckpt), "--checkpoint", str(tmp_path / "x")], 2, "different"),
    ]
    for argv, code, text in cases:
        assert main(argv) == code, argv
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and text in err, err
    ckpt.write_bytes(ckpt.read_bytes().replace(b'"seed": 4', b'"seed": 5'))
    assert main(["study", "--resume", str(ckpt)]) == 1
    assert "checksum" in capsys.readouterr().err


def test_checkpoint_study_rebuilds_every_parameter(tmp_path):
    from mjstats.studies.checkpoint import checkpoint_study
    from mjstats.studies.play import PlayStudy

    def stop(first, count):
        raise KeyboardInterrupt

    study = PlayStudy(3000, seed=2, policy="fan-aware", draws=9, last_tile=True, seat_wind=2)
    path = tmp_path / "play.ckpt"
    with pytest.raises(StudyInterrupted):
        run_study(study, group_size=1, checkpoint=path, progress=False, on_group=stop)
    assert checkpoint_study(path).params() == study.params()


def test_analyze_leaves_no_checkpoint_behind(tmp_path, monkeypatch, capsys):
    from mjstats.studies.analyze import AnalyzeStudy, analyze

    monkeypatch.chdir(tmp_path)

    def stop(first, count):
        raise KeyboardInterrupt

    with pytest.raises(StudyInterrupted) as info:
        analyze("2367m3345p1568s16z", draws=2, n=500, group_size=1, on_group=stop)
    assert info.value.checkpoint is None
    run_chunks = AnalyzeStudy.run_chunks

    def interrupted(self, first, count):  # Ctrl-C during the CLI's first chunk group
        if count:
            raise KeyboardInterrupt
        return run_chunks(self, first, count)

    monkeypatch.setattr(AnalyzeStudy, "run_chunks", interrupted)
    assert main(["analyze", "2367m3345p1568s16z", "--draws", "2", "--n", "50"]) == 130
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "nothing saved" in err, err
    assert list(tmp_path.iterdir()) == []


def test_files_follow_the_umask(ckpt, tmp_path):
    old = os.umask(0o027)
    try:
        out = tmp_path / "res"
        argv = ["study", "--resume", str(ckpt), "--json", str(tmp_path / "r.json"), "--out"]
        assert main([*argv, str(out)]) == 0
        files = [ckpt, tmp_path / "r.json", out / "aggregate.json", out / "shanten.csv"]
        modes = {f.name: stat.S_IMODE(f.stat().st_mode) for f in files}
    finally:
        os.umask(old)
    assert modes == dict.fromkeys(modes, 0o640), modes
