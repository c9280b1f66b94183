"""The notebooks in ``notebooks/``: each executes without error or warning, and is stored
without outputs.

Every notebook runs in a fresh kernel (nbclient) whose working directory is a temporary
folder, so a notebook that writes files cannot litter the checkout and must find its data
through the repository root (the kernel gets ``MJSTATS_REPO``; see ``notebooks/README.md``).

The notebooks run in the environment that the README's one Jupyter command builds
(``pip install ".[jupyter]"``): ``.ci/run`` makes a virtual environment with it and names
its interpreter in ``MJSTATS_NOTEBOOK_PYTHON``; each notebook is executed by that
interpreter (nbclient comes with JupyterLab), whose mjstats is a regular install of the
checkout. Without the variable (a developer's run) they run in this interpreter; on CI
(``CI`` set) its absence is a failure. A notebook whose optional dependency is missing
there (the peers of 04) says so in one line and skips that part. The kernel's own log
must not report an interrupt (the shutdown's SIGINT landing in a message handler).

A notebook may declare modules it needs in its metadata (``"mjstats": {"requires": [...]}``);
it is skipped, with the reason, while one of them does not exist.

Time budget: each notebook should take at most 2 minutes with a warm numba cache. The first
run in a fresh checkout also compiles the kernels (minutes), so the budget is only enforced
when ``MJSTATS_NOTEBOOK_BUDGET`` (seconds) is set, e.g. ``MJSTATS_NOTEBOOK_BUDGET=120``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK_DIR = ROOT / "notebooks"
NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("*.ipynb"))
CELL_TIMEOUT = 900  # seconds per cell: generous enough for a cold numba cache


def _ids(paths: list[Path]) -> list[str]:
    return [p.stem for p in paths]


# executed by the notebooks' interpreter: run NOTEBOOK in a fresh kernel in FOLDER, write it
# to OUT; prints the seconds taken and whether its modules were found (JSON)
_RUNNER = """
import importlib.util, json, sys, time
import nbclient, nbformat
path, out, folder = sys.argv[1:4]
nb = nbformat.read(path, as_version=4)
missing = [m for m in nb.metadata.get("mjstats", {}).get("requires", [])
           if importlib.util.find_spec(m) is None]
report = {"missing": missing, "python": sys.executable,
          "peers": importlib.util.find_spec("MahjongGB") is not None}
if not missing:
    client = nbclient.NotebookClient(nb, timeout=int(sys.argv[4]), kernel_name="python3",
                                     resources={"metadata": {"path": folder}})
    start = time.perf_counter()
    try:
        client.execute()
    except nbclient.exceptions.CellExecutionError as exc:
        report["error"] = str(exc)
    report["seconds"] = time.perf_counter() - start
    nbformat.write(nb, out)
print(json.dumps(report))
"""


def _notebook_python() -> str:
    python = os.environ.get("MJSTATS_NOTEBOOK_PYTHON")
    if not python and os.environ.get("CI"):
        pytest.fail(
            "CI runs the notebooks in the environment of the README's Jupyter command: "
            ".ci/run must set MJSTATS_NOTEBOOK_PYTHON",
            pytrace=False,
        )
    return python or sys.executable


def test_the_six_notebooks_exist():
    names = {p.stem for p in NOTEBOOKS}
    expected = {
        "01-scoring-and-shanten",
        "02-fan-probabilities",
        "03-real-records",
        "04-benchmarks",
        "05-games",
        "06-planner",
    }
    assert expected <= names, f"missing notebooks: {sorted(expected - names)}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_ids(NOTEBOOKS))
def test_notebook_is_stored_without_outputs(path):
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    dirty = [
        i
        for i, cell in enumerate(nb.cells)
        if cell.cell_type == "code" and (cell.get("outputs") or cell.get("execution_count"))
    ]
    assert not dirty, (
        f"{path.name}: cells {dirty} hold outputs or execution counts; strip them before "
        "committing (see notebooks/README.md)"
    )
    assert nb.metadata.get("kernelspec", {}).get("name") == "python3"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_ids(NOTEBOOKS))
def test_notebook_executes(path, tmp_path):
    python = _notebook_python()
    env = dict(os.environ, MJSTATS_REPO=str(ROOT))  # the kernel inherits this environment
    if python != sys.executable:  # the notebooks' own environment: its installed mjstats
        env.pop("PYTHONPATH", None)
    out = tmp_path / path.name
    work = tmp_path / "work"
    work.mkdir()
    done = subprocess.run(
        [python, "-c", _RUNNER, str(path), str(out), str(work), str(CELL_TIMEOUT)],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, f"{path.name}: the runner failed:\n{done.stderr[-3000:]}"
    report = json.loads(done.stdout.strip().splitlines()[-1])
    if report["missing"]:
        pytest.skip(f"{path.name} needs {', '.join(report['missing'])}, which does not exist yet")
    if "error" in report:
        pytest.fail(f"{path.name} failed in {report['python']}:\n{report['error']}", pytrace=False)
    assert "KeyboardInterrupt" not in done.stderr, f"{path.name}: the kernel logged\n{done.stderr}"
    nb = nbformat.read(out, as_version=4)
    # every code cell ran
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert all(c.get("execution_count") for c in code)
    errors = [o for c in code for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert not errors
    # no warnings: neither Python's (stderr) nor the notebook's own printed ones
    warned = [
        (i, o.get("text", "").strip())
        for i, c in enumerate(nb.cells)
        if c.cell_type == "code"
        for o in c.get("outputs", [])
        if o.get("output_type") == "stream" and "warning" in o.get("text", "").lower()
    ]
    assert not warned, f"{path.name}: warnings in cells {warned}"
    if path.stem == "04-benchmarks":  # without the peers: one line says so, their part skipped
        said = [o.get("text", "") for c in code for o in c.get("outputs", []) if "text" in o]
        assert any("not installed: pymahjonggb" in t for t in said) != report["peers"]
    budget = os.environ.get("MJSTATS_NOTEBOOK_BUDGET")
    if budget:
        elapsed = report["seconds"]
        assert elapsed <= float(budget), f"{path.name} took {elapsed:.0f} s (budget {budget} s)"
