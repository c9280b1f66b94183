"""The peer libraries ``mjstats bench`` compares against, and their input formats.

Every peer is optional: :func:`load` returns ``None`` with a reason when it is
not installed (``pip install 'mjstats[bench]'`` installs them), and the task
then reports mjstats alone with that reason as its note.

=============  =================  ==============================================
peer           module             what is compared
=============  =================  ==============================================
pymahjonggb    ``MahjongGB``      ``MahjongShanten`` (all MCR forms),
                                  ``RegularShanten`` (regular form + useful
                                  tiles), ``MahjongFanCalculator`` (scoring)
mahjong        ``mahjong``        ``Shanten.calculate_shanten_for_regular_hand``
                                  (riichi library, regular form)
xiangting      ``xiangting``      ``calculate_replacement_number`` (Rust; riichi
                                  forms: regular, seven distinct pairs,
                                  thirteen orphans; result = shanten + 1)
riichienv      ``riichienv``      ``calculate_shanten`` (Rust; the same riichi
                                  forms; 136-tile ids)
=============  =================  ==============================================

Peers are called once per hand from Python with arguments built beforehand (not
timed): that is how a Python user calls them.
"""

from __future__ import annotations

import importlib
import importlib.metadata
from types import ModuleType

import numpy as np

from mjstats.tiles import BOTZONE_CODES

__all__ = ["PEERS", "describe", "gb_tiles", "load", "riichi_ids", "tiles34_lists"]

PEERS: dict[str, tuple[str, str]] = {
    "pymahjonggb": ("MahjongGB", "pymahjonggb"),
    "mahjong": ("mahjong.shanten", "mahjong"),
    "xiangting": ("xiangting", "xiangting"),
    "riichienv": ("riichienv", "riichienv"),
}
"""Peer name -> (module to import, distribution name for its version)."""


def load(name: str) -> tuple[ModuleType | None, str]:
    """Import peer ``name``; returns ``(module, "")`` or ``(None, reason it is absent)``.

    Examples
    --------
    >>> module, reason = load("pymahjonggb")
    >>> module is not None or "not installed" in reason
    True
    """
    module_name, _ = PEERS[name]
    try:
        return importlib.import_module(module_name), ""
    except ImportError as exc:
        return None, f"peer {name} not installed ({exc.__class__.__name__}: {exc}); skipped"


def describe(name: str) -> str:
    """``"name version"`` of an installed peer, else ``"name (absent)"``.

    Examples
    --------
    >>> describe("pymahjonggb").startswith("pymahjonggb")
    True
    """
    _, dist = PEERS[name]
    try:
        return f"{name} {importlib.metadata.version(dist)}"
    except importlib.metadata.PackageNotFoundError:
        return f"{name} (absent)"


def gb_tiles(counts34: np.ndarray) -> list[tuple[str, ...]]:
    """PyMahjongGB hand tuples (Botzone codes) of the rows of an (N, 34) count matrix.

    Examples
    --------
    >>> from mjstats.tiles import parse_tiles
    >>> gb_tiles(parse_tiles("123m11z")[None, :])
    [('W1', 'W2', 'W3', 'F1', 'F1')]
    """
    kinds = np.arange(34)
    return [tuple(BOTZONE_CODES[t] for t in np.repeat(kinds, row)) for row in counts34]


def tiles34_lists(counts34: np.ndarray) -> list[list[int]]:
    """Python lists of 34 counts (the format of ``mahjong`` and ``xiangting``).

    Examples
    --------
    >>> from mjstats.tiles import parse_tiles
    >>> tiles34_lists(parse_tiles("19m")[None, :])[0][:9]
    [1, 0, 0, 0, 0, 0, 0, 0, 1]
    """
    return counts34.astype(int).tolist()


def riichi_ids(counts34: np.ndarray) -> list[list[int]]:
    """136-tile ids (``4 * kind + copy``) of each row, the format of ``riichienv``.

    Examples
    --------
    >>> from mjstats.tiles import parse_tiles
    >>> riichi_ids(parse_tiles("1m1m2m")[None, :])
    [[0, 1, 4]]
    """
    return [[4 * t + k for t in range(34) for k in range(int(row[t]))] for row in counts34]
