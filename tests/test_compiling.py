"""The compile notice (:mod:`mjstats.compiling`): shown on standard error while
numba compiles, silent on a warm cache, never on standard output.

The subprocess tests compile the smallest real kernel group (``mjstats
shanten``) in an empty temporary cache; the in-process tests compile tiny
kernels whose typing is slowed down on purpose (an intrinsic that sleeps while
numba types it), so a compile lasts long enough to be shown, deterministically.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

import mjstats.kernels._jit  # noqa: F401  numba's cache folder: chosen now, before `cache` changes it
from mjstats import compiling
from mjstats.cli import main
from mjstats.compiling import GROUPS, notice, progress_wanted, redirect, set_progress

ROOT = Path(__file__).resolve().parents[1]
HAND = "[123p]55m12379s789p+8s self-drawn"
SHANTEN = ["shanten", "123m456p789s1133z"]


def _slow_kernel(module: str = "mjstats._test_kernels", seconds: float = 1.5):
    """A new numba function of ``module`` whose first call compiles for ``seconds``."""
    import numba
    from numba.extending import intrinsic

    @intrinsic
    def slow(typingctx, x):
        time.sleep(seconds)  # numba types the call: this is compile time

        def codegen(context, builder, signature, args):
            return args[0]

        return x(x), codegen

    ns = {"__name__": module, "slow": slow}
    exec("def kernel(x):\n    return slow(x) + 1\n", ns)
    return numba.njit(ns["kernel"])


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """An empty mjstats cache for the previous-run figures (the test kernels are not cached;
    numba's cache folder stays the one chosen at import)."""
    monkeypatch.setenv("MJSTATS_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("MJSTATS_PROGRESS", raising=False)
    set_progress(None)
    yield tmp_path
    set_progress(None)


def _records(cache: Path) -> dict:
    [path] = cache.glob("compile-seconds.json")
    return json.loads(path.read_text())


def test_shown_while_compiling_then_the_figure_is_kept(cache, capsys):
    kernel = _slow_kernel()
    with notice("shanten", progress=True):
        assert kernel(1) == 2
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.splitlines()
    label = compiling.GROUPS["shanten"].label
    assert lines[0].startswith(f"mjstats: compiling {label} (first run only, about ")
    assert lines[0].endswith("...")
    assert lines[1].startswith(f"mjstats: compiled {label} in ")
    assert "(1 kernel)" in lines[1] and len(lines) == 2
    rec = _records(cache)["shanten"]
    assert rec["kernels"] == 1 and 1.4 <= rec["seconds"] < 60
    # the next estimate is this machine's figure, not the table's
    assert compiling._estimate("shanten") == (rec["seconds"], 1)
    with notice("shanten", progress=True):
        kernel(2)  # compiled: no event, nothing to say
        _slow_kernel(seconds=0.8)(1)
    assert f"about {compiling._seconds(rec['seconds'])})" in capsys.readouterr().err


def test_silent_when_warm_when_unwanted_and_for_other_code(cache, capsys, monkeypatch):
    kernel = _slow_kernel()
    with notice("scorer", progress=False):
        kernel(1)
    with notice("scorer", progress=True):
        kernel(2)  # warm
    with notice("scorer", progress=True):
        _slow_kernel(module="my_research", seconds=0.8)(1)  # the user's own numba code
    set_progress(False)  # mjstats --quiet
    with notice("scorer"):
        _slow_kernel(seconds=0.8)(1)
    set_progress(None)
    monkeypatch.setenv("MJSTATS_PROGRESS", "0")
    with notice("scorer"):
        _slow_kernel(seconds=0.8)(1)
    monkeypatch.delenv("MJSTATS_PROGRESS")
    with notice("scorer"):  # stderr is not a terminal (pytest captures it)
        _slow_kernel(seconds=0.8)(1)
    assert capsys.readouterr() == ("", "")
    assert _records(cache)["scorer"]["kernels"] == 1  # silent runs still teach the estimate


def test_settings_precedence(cache, monkeypatch):
    monkeypatch.setenv("MJSTATS_PROGRESS", "1")
    assert progress_wanted() and not progress_wanted(False)
    set_progress(False)
    assert not progress_wanted() and progress_wanted(True)


def test_a_progress_bar_shows_it_as_its_label(cache, capsys):
    shown = []
    with redirect(shown.append), notice("sample", progress=True):
        _slow_kernel()(1)
    assert shown[0].startswith("mjstats: compiling the sampling study (first run only")
    assert shown[-1] is None  # cleared when the compile ended
    assert capsys.readouterr() == ("", "")  # the bar's owner says the rest


def test_only_the_outermost_block_speaks(cache, capsys):
    with notice("analyze", progress=True), notice("scorer"), notice("shanten", progress=False):
        _slow_kernel()(1)
    err = capsys.readouterr().err
    assert err.count("mjstats: compiling the playout kernels") == 1 and "scorer" not in err


def test_jupyter_display_updated_in_place(cache, monkeypatch):
    display = pytest.importorskip("IPython.display")
    shown = []

    class Handle:
        def update(self, obj, raw):
            shown.append(obj["text/plain"])

    def fake_display(obj, raw, display_id):
        assert raw and display_id
        shown.append(obj["text/plain"])
        return Handle()

    monkeypatch.setattr(display, "display", fake_display)
    monkeypatch.setattr(compiling, "jupyter_shell", lambda: object())
    with notice("scorer"):  # in Jupyter by default
        _slow_kernel()(1)
    assert shown[0].startswith("mjstats: compiling the scorer (first run only")
    assert shown[-1].startswith("mjstats: compiled the scorer in ")


def test_cli_json_stays_json_and_quiet_silences(cache, capsys, monkeypatch):
    import mjstats

    real = mjstats.score

    @notice("scorer")
    def score_compiling(*args, **kwargs):
        _slow_kernel()(1)  # as on a first run: a kernel compiles on the way
        return real(*args, **kwargs)

    monkeypatch.setattr(mjstats, "score", score_compiling)
    monkeypatch.setenv("MJSTATS_PROGRESS", "1")
    assert main(["score", HAND, "--json"]) == 0
    out, err = capsys.readouterr()
    doc = json.loads(out, parse_constant=lambda c: pytest.fail(f"not strict JSON: {c}"))
    assert doc["total"] == 18
    assert "mjstats: compiling the scorer" in err and "compiled the scorer" in err
    assert main(["--quiet", "score", HAND, "--json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["total"] == 18 and err == ""
    assert compiling._forced is None  # --quiet lasted one command


def _on_a_terminal(args: list[str], env: dict, stdout: Path) -> str:
    """Run ``mjstats ARGS`` with standard error on a pseudo-terminal; what it wrote there."""
    pty = pytest.importorskip("pty")
    master, slave = pty.openpty()
    with open(stdout, "w") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "mjstats.cli", *args],
            stdout=out,
            stderr=slave,
            stdin=subprocess.DEVNULL,
            env=env,
            cwd=ROOT,
        )
        os.close(slave)
        data = b""
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:  # the child closed the terminal
                break
            if not chunk:
                break
            data += chunk
        assert proc.wait(timeout=600) == 0
    os.close(master)
    return data.decode()


def test_cold_command_says_so_on_the_terminal_and_warm_is_silent(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "MJSTATS_PROGRESS")}
    env["MJSTATS_CACHE_DIR"] = str(tmp_path / "cache")  # empty: this run compiles
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    out = tmp_path / "out.txt"
    err = _on_a_terminal(SHANTEN, env, out)
    assert "mjstats: compiling the shanten kernels (first run only, about " in err
    assert "\r\x1b[2K" in err  # redrawn in place
    assert "mjstats: compiled the shanten kernels in " in err
    assert err.endswith("later runs load them from the cache\r\n")
    assert "shanten   0 (ready)" in out.read_text() and "compil" not in out.read_text()
    assert _on_a_terminal(SHANTEN, env, out) == ""  # warm: nothing
    assert "shanten   0 (ready)" in out.read_text()


@pytest.mark.slow
def test_cold_score_json_is_strict_json_with_the_notice_on(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env.update(MJSTATS_CACHE_DIR=str(tmp_path), MJSTATS_PROGRESS="1")
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    done = subprocess.run(
        [sys.executable, "-m", "mjstats.cli", "score", HAND, "--json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=1200,
        check=True,
    )
    doc = json.loads(done.stdout, parse_constant=lambda c: pytest.fail(f"not strict JSON: {c}"))
    assert doc["total"] == 18
    assert done.stderr.startswith("mjstats: compiling the scorer (first run only, about ")


@pytest.mark.parametrize("quick", [True, False])
def test_cold_start_rows_one_per_command_then_warm(monkeypatch, quick):
    from mjstats.bench import startup, to_markdown
    from mjstats.bench.tasks import FULL, QUICK, Context

    calls = []

    def command(args, cache):
        fresh = not os.path.exists(cache) or not os.listdir(cache)
        calls.append((args, cache, fresh))
        os.makedirs(cache, exist_ok=True)
        Path(cache, "filled").touch()  # what the run leaves behind
        info = {"imports": 0.2, "run": 1.0, "code": 0, "compile": 0.9 if fresh else 0.0}
        return (12.0 if fresh else 1.0), 1.5, {**info, "kernels": 40 if fresh else 0}

    monkeypatch.setattr(startup, "_command", command)
    monkeypatch.setattr(startup, "_peer_start", lambda: (None, "pymahjonggb not installed"))
    monkeypatch.setattr(startup, "_child", lambda code: (0.05, 0.05, ""))
    ctx = Context(QUICK if quick else FULL, quick=quick, progress=False)
    rows = startup.task_cold_start(ctx)
    wanted = [label for label, _, q in startup.COLD_COMMANDS if q or not quick]
    assert [r["what"] for r in rows] == [
        *(f"mjstats {label}, empty cache" for label in wanted),
        "mjstats score HAND again, cache filled",
    ]
    assert {"score HAND", "study sample --n 1000"} <= set(wanted) and len(wanted) >= 3
    if not quick:  # a row for every compiling command, and its group's estimate measured
        commands = {a[1] if a[0] == "study" else a[0] for _, a, _ in startup.COLD_COMMANDS}
        groups = {"score": "scorer", **{c: c for c in commands if c != "score"}}
        assert set(groups) == {"score", "sample", "dealt", "play", "games", "analyze", "replay",
                               "records"}  # fmt: skip
        assert all(GROUPS[g].seconds and GROUPS[g].kernels for g in groups.values())
    cold = [c for c in calls if c[2]]
    assert len(cold) == len(wanted) and len({c[1] for c in cold}) == len(wanted)  # own caches
    warm = [c for c in calls if not c[2]]
    assert warm and all(c[0][0] == "score" and c[1] == cold[0][1] for c in warm)
    assert rows[0]["goal"] == "<= 10 s" and rows[0]["goal_met"] is False
    assert rows[-1]["goal"] == "<= 1.5 s" and rows[-1]["goal_met"] is True
    assert (
        "compile 0.9 s (40 kernels)" in rows[1]["note"] and "nothing compiled" in rows[-1]["note"]
    )
    assert all(r["task"] == "cold_start" and r["seconds"] for r in rows)
    md = to_markdown(rows, {"cpu": "test"})
    assert md.count("| cold_start |") == len(rows)


def test_a_study_bar_labels_the_compile_then_the_summary_follows(cache, capsys, monkeypatch):
    import numpy as np

    from mjstats.studies import runner
    from mjstats.studies.aggregate import Aggregate

    labels = []

    class SlowStudy(runner.Study):
        kind = "sample"

        def params(self):
            return {"n": 2}

        def n_chunks(self):
            return 2

        def run_chunks(self, first, count):
            if count:
                _slow_kernel()(1)  # the first chunk group compiles, as on a first run
            return Aggregate(self.kind, self.params(), {"hist": np.full(1, count)})

    from rich.progress import Progress

    real_update = Progress.update

    def update(self, task, **kw):
        if "description" in kw:
            labels.append(kw["description"])
        return real_update(self, task, **kw)

    monkeypatch.setattr(Progress, "update", update)
    agg = runner.run_study(SlowStudy(), progress=True, group_size=1)
    assert int(agg.counters["hist"][0]) == 2
    assert labels[0].startswith("compiling the sampling study (first run only")
    assert labels[-1] == "mjstats"  # back to the bar's own label
    err = capsys.readouterr().err
    assert "mjstats: compiled the sampling study in " in err and "(2 kernels)" in err
