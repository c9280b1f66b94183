"""Shared test configuration: size knob, seeds, hypothesis profiles, random hands.

- ``MJSTATS_TEST_SCALE`` (default 1 = CI size) multiplies randomized test sizes:
  use the ``scale`` fixture or :func:`scaled`.
- Tests marked ``slow`` (million-hand runs, minutes each) run only with
  ``pytest -m slow`` or ``MJSTATS_RUN_SLOW=1``; each has a smaller sibling that
  the default run (and CI) executes.
- Hypothesis runs derandomized by default (profile ``ci``: reproducible CI);
  ``HYPOTHESIS_PROFILE=explore`` searches with fresh randomness.
- :func:`hands` is a hypothesis strategy of valid :class:`mjstats.Hand` objects
  (melds of every kind, honours, waiting and winning hands, any context);
  :func:`random_hand_arrays` makes valid batch arrays from a numpy generator.
  Import them with ``from conftest import hands, random_hand_arrays``.
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from mjstats.hand import Hand, Meld, MeldKind
from mjstats.tiles import CHOW_START_MASK, NO_TILE


def pytest_collection_modifyitems(config, items):
    """Run the notebooks last; skip ``slow`` tests unless asked for (``-m slow`` or
    ``MJSTATS_RUN_SLOW=1``).

    Each notebook runs in its own Jupyter kernel process, which compiles every
    kernel it touches unless the numba disk cache already holds it: run after
    the rest of the suite (which fills the cache), the notebooks load compiled
    code instead of compiling it four more times on a fresh checkout.
    """
    items.sort(key=lambda item: item.path.name == "test_notebooks.py")  # stable
    expr = config.getoption("markexpr") or ""
    if ("slow" in expr and "not slow" not in expr) or os.environ.get("MJSTATS_RUN_SLOW") == "1":
        return
    skip = pytest.mark.skip(reason="million-hand run: use `pytest -m slow` or MJSTATS_RUN_SLOW=1")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


def _read_scale() -> float:
    raw = os.environ.get("MJSTATS_TEST_SCALE", "1")
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not value > 0:
        raise pytest.UsageError(f"MJSTATS_TEST_SCALE must be a positive number, got {raw!r}")
    return value


SCALE = _read_scale()

settings.register_profile(
    "ci",
    derandomize=True,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("explore", deadline=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

SEED = 20_241_129
"""Base seed of the randomized tests."""


def run_without_jit(code: str, *, text: bool = True):
    """Standard output of ``code`` run by a fresh Python with ``NUMBA_DISABLE_JIT=1``
    (the kernels as plain Python: what coverage and debugging runs execute)."""
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=text, check=True
    )
    return done.stdout


@pytest.fixture(scope="module")
def dask_client():
    """A local Dask cluster of two worker processes, one thread each, for a test
    module (skipped without the ``dask`` extra)."""
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        yield client


def interrupt_after(groups: int):
    """An ``on_group`` callback for ``run_study`` that presses Ctrl-C (raises
    ``KeyboardInterrupt``) when the ``groups``-th chunk group is done."""
    seen = []

    def on_group(first, count):
        seen.append(first)
        if len(seen) == groups:
            raise KeyboardInterrupt

    return on_group


def scaled(n: int) -> int:
    """``n`` times ``MJSTATS_TEST_SCALE``, at least 1."""
    return max(1, int(n * SCALE))


@pytest.fixture
def scale() -> float:
    """The ``MJSTATS_TEST_SCALE`` size multiplier (1 = CI size)."""
    return SCALE


@pytest.fixture
def rng() -> np.random.Generator:
    """A numpy generator with the fixed test seed."""
    return np.random.default_rng(SEED)


# --------------------------------------------------------------------------- random hands

_CHOW_STARTS = [int(t) for t in np.flatnonzero(CHOW_START_MASK)]
_MELD_KINDS = [MeldKind.CHOW, MeldKind.PUNG, MeldKind.KONG, MeldKind.CONCEALED_KONG]


def _meld_fits(kind: MeldKind, tile: int, used: np.ndarray) -> bool:
    if kind == MeldKind.CHOW:
        return bool((used[tile : tile + 3] < 4).all())
    return used[tile] + (3 if kind == MeldKind.PUNG else 4) <= 4


def _add_meld(kind: MeldKind, tile: int, used: np.ndarray) -> None:
    for t in Meld(kind, tile).tiles():
        used[t] += 1


# Few, wide draws keep hypothesis fast (its cost is per choice, ~50 us each): melds,
# tiles and context each come from one draw, decoded below. Everything shrinks toward
# zero: no melds, the lowest free tiles, the default context.
_melds_st = st.binary(max_size=8)  # (kind, tile) byte pairs
_picks_st = st.binary(min_size=14, max_size=14)  # one byte per concealed tile
_context_st = st.integers(0, 2**24 - 1)  # 4 flags, 2 winds, flowers, situation


def _decode_context(bits: int) -> dict[str, int | bool]:
    return {
        "self_drawn": bool(bits & 1),
        "last_of_kind": bool(bits & 2),
        "kong_win": bool(bits & 4),
        "last_of_wall": bool(bits & 8),
        "seat_wind": bits >> 4 & 3,
        "round_wind": bits >> 6 & 3,
        "flowers": bits >> 8 & 255,
        "situation": bits >> 16 & 255,
    }


@st.composite
def hands(draw, waiting: bool | None = None) -> Hand:
    """Hypothesis strategy: a valid Hand (any melds, concealed tiles, context).

    Each drawn byte picks among the tiles still available, so every draw is usable.

    Parameters
    ----------
    waiting : bool, optional
        Force a waiting (True) or winning (False) hand; random by default.
    """
    used = np.zeros(34, dtype=np.int64)
    melds = []
    raw = draw(_melds_st)
    for kind_byte, tile_byte in zip(raw[::2], raw[1::2], strict=False):
        kind = _MELD_KINDS[kind_byte % 4]
        pool = _CHOW_STARTS if kind == MeldKind.CHOW else range(34)
        tile = pool[tile_byte % len(pool)]
        if _meld_fits(kind, tile, used):
            _add_meld(kind, tile, used)
            melds.append(Meld(kind, tile))
    is_waiting = draw(st.booleans()) if waiting is None else waiting
    n_concealed = 13 - 3 * len(melds) + (0 if is_waiting else 1)
    counts = np.zeros(34, dtype=np.int64)
    for x in draw(_picks_st)[:n_concealed]:
        free = np.flatnonzero(used + counts < 4)
        counts[free[x % len(free)]] += 1
    held = np.flatnonzero(counts)
    win = None if is_waiting else int(held[draw(st.integers(0, len(held) - 1))])
    return Hand(counts, melds[::-1], win, **_decode_context(draw(_context_st)))


def random_hand_arrays(
    rng: np.random.Generator, n: int, *, waiting_share: float = 0.2
) -> dict[str, np.ndarray]:
    """Fields of ``n`` random valid hands as HandBatch keyword arguments.

    A Python loop over rows: a test helper for moderate ``n``; tile a few
    thousand rows for bigger batches.
    """
    concealed = np.zeros((n, 34), dtype=np.uint8)
    melds = np.zeros((n, 4, 2), dtype=np.uint8)
    win = np.full(n, NO_TILE, dtype=np.uint8)
    for r in range(n):
        used = np.zeros(34, dtype=np.int64)
        k = 0
        for _ in range(rng.integers(0, 5)):
            kind = _MELD_KINDS[rng.integers(0, 4)]
            tile = int(rng.choice(_CHOW_STARTS) if kind == MeldKind.CHOW else rng.integers(0, 34))
            if _meld_fits(kind, tile, used):
                _add_meld(kind, tile, used)
                melds[r, k] = (kind, tile)
                k += 1
        waiting = rng.random() < waiting_share
        pool = np.repeat(np.arange(34), 4 - used)
        picks = rng.choice(pool, 13 - 3 * k + (0 if waiting else 1), replace=False)
        concealed[r] = np.bincount(picks, minlength=34)
        if not waiting:
            win[r] = rng.choice(picks)
    return {
        "concealed": concealed,
        "melds": melds,
        "win_tile": win,
        "self_drawn": rng.random(n) < 0.5,
        "last_of_kind": rng.random(n) < 0.1,
        "kong_win": rng.random(n) < 0.1,
        "last_of_wall": rng.random(n) < 0.1,
        "seat_wind": rng.integers(0, 4, n).astype(np.uint8),
        "round_wind": rng.integers(0, 4, n).astype(np.uint8),
        "flowers": rng.integers(0, 256, n).astype(np.uint8),
        "situation": rng.integers(0, 256, n).astype(np.uint8),
    }
