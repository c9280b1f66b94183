"""The notebooks in ``notebooks/``: each executes without error or warning, and is stored
without outputs.

Every notebook runs in a fresh kernel (nbclient) whose working directory is a temporary
folder, so a notebook that writes files cannot litter the checkout and must find its data
through the repository root (the kernel gets ``MJSTATS_REPO``; see ``notebooks/README.md``).

A notebook may declare modules it needs in its metadata (``"mjstats": {"requires": [...]}``);
it is skipped, with the reason, while one of them does not exist.

Time budget: each notebook should take at most 2 minutes with a warm numba cache. The first
run in a fresh checkout also compiles the kernels (minutes), so the budget is only enforced
when ``MJSTATS_NOTEBOOK_BUDGET`` (seconds) is set, e.g. ``MJSTATS_NOTEBOOK_BUDGET=120``.
"""

from __future__ import annotations

import importlib.util
import os
import time
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


def test_the_four_notebooks_exist():
    names = {p.stem for p in NOTEBOOKS}
    expected = {
        "01-scoring-and-shanten",
        "02-fan-probabilities",
        "03-real-records",
        "04-benchmarks",
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
def test_notebook_executes(path, tmp_path, monkeypatch):
    nb = nbformat.read(path, as_version=4)
    missing = [
        name
        for name in nb.metadata.get("mjstats", {}).get("requires", [])
        if importlib.util.find_spec(name) is None
    ]
    if missing:
        pytest.skip(f"{path.name} needs {', '.join(missing)}, which does not exist yet")
    # the kernel inherits this environment
    monkeypatch.setenv("MJSTATS_REPO", str(ROOT))
    client = nbclient.NotebookClient(
        nb,
        timeout=CELL_TIMEOUT,
        kernel_name="python3",
        resources={"metadata": {"path": str(tmp_path)}},
    )
    start = time.perf_counter()
    try:
        client.execute()
    except nbclient.exceptions.CellExecutionError as exc:
        pytest.fail(f"{path.name} failed:\n{exc}", pytrace=False)
    elapsed = time.perf_counter() - start
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
    budget = os.environ.get("MJSTATS_NOTEBOOK_BUDGET")
    if budget:
        assert elapsed <= float(budget), f"{path.name} took {elapsed:.0f} s (budget {budget} s)"
