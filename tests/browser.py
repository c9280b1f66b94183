"""Debian's headless ``chromium`` for the tests of HTML that people see (imported by
the ``test_*_browser.py`` modules): in CI (``CI`` set) a missing chromium fails the
test (``.ci/run`` installs it with apt-get); elsewhere the module skips."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def require_chromium() -> None:
    """Skip the calling test module when chromium is missing, except in CI."""
    if CHROMIUM is None and not os.environ.get("CI"):
        pytest.skip("chromium is not installed (apt-get install chromium)", allow_module_level=True)


def chromium(*args: str, timeout: int = 120) -> str:
    """Run headless chromium with ``args``; its standard output (``--dump-dom``: the DOM)."""
    assert CHROMIUM, "chromium is missing in CI (.ci/run installs it with apt-get)"
    cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
           "--disable-extensions", "--hide-scrollbars", *args]  # fmt: skip
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=True)
    return done.stdout
