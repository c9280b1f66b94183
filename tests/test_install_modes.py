"""The same sources, installed two ways, share one numba cache; and the compile helper
imports the copy of mjstats that started it, even from the clone's root.

The checkout on ``sys.path`` is what an editable install (``pip install -e .``, the
README's test install) imports; ``pip install --target`` makes the regular install: a
copy in another folder, with other file times. Costs a wheel build (pip fetches
hatchling) and two small compiles (the shanten kernels, a few seconds of CPU).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# compiles mjstats' shanten kernels; prints the mjstats it imported and what numba compiled
_SHANTEN = """
import json, sys
sys.path.insert(0, sys.argv[1])
from numba.core import event
compiled = []
class Count(event.Listener):
    def on_start(self, ev):
        compiled.append(ev.data["dispatcher"].py_func.__qualname__)
    def on_end(self, ev):
        pass
event.register("numba:compile", Count())
import mjstats
assert int(mjstats.shanten("123m456p789s1122z")) == 0
print(json.dumps({"mjstats": mjstats.__file__, "compiled": compiled}))
"""


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A regular (non-editable) install of the checkout, in a folder of its own."""
    site = tmp_path_factory.mktemp("site")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "-q",
            "--no-deps",
            "--target",
            str(site),
            str(ROOT),
        ],
        check=True,
        capture_output=True,
        cwd=site,
    )
    assert (site / "mjstats" / "__init__.py").is_file()
    return site


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "PYTHONPATH")}
    return dict(env, MJSTATS_COMPILE_HELPER="0", MJSTATS_PROGRESS="0", **extra)


def _shanten(path: Path, cache: Path, cwd: Path) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", _SHANTEN, str(path)],
        env=_env(MJSTATS_CACHE_DIR=str(cache)),
        cwd=cwd,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout)


def test_a_second_install_of_the_same_sources_compiles_nothing(installed, tmp_path):
    cache = tmp_path / "cache"
    first = _shanten(installed, cache, tmp_path)  # the regular install, cold
    assert Path(first["mjstats"]).is_relative_to(installed)
    assert first["compiled"], "the cold run compiled nothing: the test would prove nothing"
    second = _shanten(ROOT, cache, tmp_path)  # the checkout, as an editable install imports it
    assert Path(second["mjstats"]).is_relative_to(ROOT)
    assert second["compiled"] == [], "the editable install compiled again what the other had"


def test_the_compile_helper_imports_the_commands_own_copy_from_the_clone_root(installed):
    # a process of the installed copy, started in the clone's root (where `python -m`
    # would find the clone's mjstats first), starts the helper the way a command does
    code = (
        "import subprocess, sys; sys.path.insert(0, sys.argv[1]);"
        "from mjstats import compile_helper;"
        "p = compile_helper._spawn(['where'], stdout=subprocess.PIPE, text=True);"
        "print(p.communicate()[0].strip())"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(installed)],
        env=_env(),
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert Path(done.stdout.strip()) == installed / "mjstats"
