"""Register the ``.mj`` pandas accessor once pandas is imported, without importing it.

``import mjstats`` stays fast (pandas is not loaded); if pandas is already loaded
the accessor is registered at once, otherwise a finder on ``sys.meta_path``
registers it right after pandas finishes loading, whenever that is.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys


class _AfterPandas(importlib.abc.MetaPathFinder):
    """Finds nothing itself: wraps the loader of ``pandas`` to register the accessor."""

    def find_spec(self, name, path, target=None):
        if name != "pandas":
            return None
        sys.meta_path.remove(self)  # one use; and let the real finders find pandas
        spec = importlib.util.find_spec("pandas")
        if spec is None or spec.loader is None:
            return spec
        exec_module = spec.loader.exec_module

        def exec_then_register(module):
            exec_module(module)
            importlib.import_module("mjstats.pandas_accessor")

        spec.loader.exec_module = exec_then_register
        return spec


def install() -> None:
    """Register the accessor now if pandas is loaded, else when it is."""
    if "pandas" in sys.modules:
        importlib.import_module("mjstats.pandas_accessor")
    elif not any(isinstance(f, _AfterPandas) for f in sys.meta_path):
        sys.meta_path.insert(0, _AfterPandas())
