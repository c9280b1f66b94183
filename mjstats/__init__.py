"""mjstats: fast analytics for Chinese Official Mahjong (MCR) and two-player mahjong.

Tile index (the same 34-array order as the riichi ``mahjong`` library):

=====  ==========================  ==========  ===============
index  tiles                       MPSZ        Botzone code
=====  ==========================  ==========  ===============
0-8    characters 1-9 (万)         1m-9m       W1-W9
9-17   dots 1-9 (饼/筒)            1p-9p       B1-B9
18-26  bamboo 1-9 (条/索)          1s-9s       T1-T9
27-30  East South West North       1z-4z       F1-F4
31     white dragon (白)           5z          J3
32     green dragon (发)           6z          J2
33     red dragon (中)             7z          J1
=====  ==========================  ==========  ===============

A hand is a ``uint8`` vector of 34 counts; a batch of hands is a
:class:`HandBatch` (struct of arrays). Winds are 0 East, 1 South, 2 West, 3 North.

The numba kernels load on first use, so ``import mjstats`` is fast; pandas
loads with it, so that ``series.mj`` (:mod:`mjstats.pandas_accessor`) is
registered the way pandas documents it, when the package is imported.
"""

from __future__ import annotations

import importlib
from typing import Any

# registers the ``.mj`` accessor on pandas Series (pandas' own way: at import)
from mjstats import pandas_accessor as _pandas_accessor  # noqa: F401
from mjstats._version import __version__
from mjstats.errors import (
    InvalidArgumentError,
    InvalidContextError,
    InvalidHandError,
    InvalidMeldError,
    InvalidTileError,
    TileCountError,
    UnknownRulesetError,
)
from mjstats.rulesets import rulesets

# public name -> module that defines it (imported lazily on first attribute access)
_LAZY = {
    "TILES": "mjstats.tiles",
    "parse_tiles": "mjstats.tiles",
    "format_tiles": "mjstats.tiles",
    "Meld": "mjstats.hand",
    "MeldKind": "mjstats.hand",
    "Hand": "mjstats.hand",
    "parse_hand": "mjstats.hand",
    "HandBatch": "mjstats.batch",
    "shanten": "mjstats.efficiency",
    "useful_tiles": "mjstats.efficiency",
    "discard_table": "mjstats.efficiency",
    "decompose": "mjstats.readings",
    "score": "mjstats.scorer",
    "score_batch": "mjstats.scorer",
    "Score": "mjstats.scorer",
    "BatchScore": "mjstats.scorer",
    "Fan": "mjstats.scorer",
    "view": "mjstats.viewer",
    "GameView": "mjstats.viewer",
    "Position": "mjstats.analysis.position",
    "PositionError": "mjstats.analysis.position",
    "position": "mjstats.analysis.position",
    "analyze": "mjstats.analysis.table",
    "analyze_batch": "mjstats.analysis.table",
    "win_curves": "mjstats.analysis.table",
}

__all__ = [
    "InvalidArgumentError",
    "InvalidContextError",
    "InvalidHandError",
    "InvalidMeldError",
    "InvalidTileError",
    "TileCountError",
    "UnknownRulesetError",
    "__version__",
    "rulesets",
    *_LAZY,
]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'mjstats' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
