"""The package: import cost, version, public names, docstring examples."""

from __future__ import annotations

import doctest
import importlib
import importlib.metadata
import importlib.util
import pkgutil
import re
import subprocess
import sys

import pytest

import mjstats

# DESIGN.md §3: the public names every part of the project relies on
CONTRACT_NAMES = [
    "TILES",
    "parse_tiles",
    "format_tiles",
    "parse_hand",
    "Hand",
    "Meld",
    "HandBatch",
    "score",
    "score_batch",
    "Score",
    "BatchScore",
    "Fan",
    "shanten",
    "useful_tiles",
    "rulesets",
    "InvalidHandError",
]


def _python(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_import_is_fast_and_light():
    out = _python(
        "import time, sys\n"
        "times = []\n"
        "t = time.perf_counter(); import mjstats; times.append(time.perf_counter() - t)\n"
        "heavy = sorted(m for m in ('numba', 'matplotlib', 'dask', 'mjstats.kernels')"
        " if m in sys.modules)\n"
        "print(times[0]); print(heavy)\n"
    )
    seconds, heavy = out.splitlines()
    assert heavy == "[]", f"import mjstats loaded {heavy}"
    assert float(seconds) < 1.0, f"import mjstats took {float(seconds):.2f} s"


def test_version():
    assert re.fullmatch(r"\d+\.\d+\.\d+([ab]|rc)?\d*(\.dev\d+)?", mjstats.__version__)
    try:
        installed = importlib.metadata.version("mjstats")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("mjstats is not installed (pip install -e .)")
    assert installed == mjstats.__version__


def test_contract_names_are_public():
    missing = [name for name in CONTRACT_NAMES if name not in mjstats.__all__]
    assert not missing
    assert set(mjstats.__all__) <= set(dir(mjstats))


def _module_of(name: str) -> str:
    return mjstats._LAZY.get(name, "mjstats")


@pytest.mark.parametrize("name", mjstats.__all__)
def test_public_names_resolve(name):
    module = _module_of(name)
    if importlib.util.find_spec(module) is None:
        pytest.skip(f"{module} is not written yet")
    value = getattr(mjstats, name)
    assert value is not None
    if callable(value):
        assert value.__doc__, f"mjstats.{name} has no docstring"


def test_unknown_attribute():
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        mjstats.nope  # noqa: B018


def _modules() -> list[str]:
    names = ["mjstats"]
    for info in pkgutil.walk_packages(mjstats.__path__, "mjstats."):
        names.append(info.name)
    return sorted(names)


@pytest.mark.parametrize("module_name", _modules())
def test_docstring_examples(module_name):
    """Every ``Examples`` section in mjstats runs and shows the right output."""
    module = importlib.import_module(module_name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    failures = []
    for test in finder.find(module, module_name):
        if test.filename and not test.filename.startswith(str(mjstats.__path__[0])):
            continue  # re-exported objects are tested in their own module
        runner.run(test, out=failures.append)
    assert not failures, "".join(failures)
