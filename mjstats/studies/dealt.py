"""``dealt``: random deals from a ruleset's wall: shanten, useful tiles, P(complete), fans.

Each deal draws ``tiles`` (13 or 14) tiles without replacement from the
ruleset's wall (four copies of every tile kind it plays with; flowers are not
dealt). For every deal the study records the shanten of each of the ruleset's
forms and their minimum, and useful-tile statistics (when ``useful=True``):

* 13-tile deals: the number of useful kinds and of useful copies not in the hand;
* 14-tile deals: the same after the best discard (lowest shanten, then most copies).

A complete 14-tile deal is scored under the fan-probability convention of
:mod:`mjstats.studies.exact`: the 14th tile dealt (a uniformly random one of the
14) is the winning tile, self-drawn, seat and round wind East, no flowers, no
melds, no other flags. So ``dealt`` estimates, by sampling, what ``exact``
computes.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

from mjstats.kernels._jit import jit, pjit
from mjstats.kernels.accumulate import accumulate_chunk, chunk_counters, sum_counters
from mjstats.kernels.rng import chunk_states, shuffle_prefix
from mjstats.kernels.scoring import kernel_spec, new_scratch, score_one
from mjstats.kernels.shanten import FORM_BITS, IMPOSSIBLE, discard_one, shanten_one, useful_one
from mjstats.kernels.tables import get_tables
from mjstats.rules import Ruleset, get_ruleset
from mjstats.studies.aggregate import Aggregate
from mjstats.studies.runner import Study

__all__ = ["DealtStudy", "dealt"]

SHANTEN_BINS = 16  # shanten -1 .. 14 at index shanten + 1
CHUNK = 1 << 16


@jit
def _useful_copies(counts, useful):
    kinds = 0
    copies = 0
    for t in range(34):
        if (useful >> t) & 1:
            kinds += 1
            copies += 4 - counts[t]
    return kinds, copies


@jit
def _dealt_chunk(
    state,
    n,
    n_tiles,
    wall_kinds,
    form_bits,
    all_forms,
    want_useful,
    tab,
    spec,
    n_fans,
    shanten_hist,
    kinds_hist,
    copies_hist,
    fc,
    c,
):
    n_forms = form_bits.shape[0]
    wall = wall_kinds.copy()
    counts = np.zeros(34, np.uint8)
    melds = np.zeros((4, 2), np.uint8)
    d_shanten = np.zeros(34, np.int8)
    d_useful = np.zeros(34, np.int64)
    fan_out = np.zeros(n_fans, np.uint8)
    scratch = new_scratch()
    for _ in range(n):
        shuffle_prefix(state, wall, n_tiles)
        counts[:] = 0
        for j in range(n_tiles):
            counts[wall[j]] += 1
        best = IMPOSSIBLE
        for f in range(n_forms):
            s = shanten_one(counts, 0, form_bits[f], tab)
            if s != IMPOSSIBLE:
                shanten_hist[f, s + 1] += 1
            best = min(best, s)
        shanten_hist[n_forms, best + 1] += 1
        if want_useful and best >= 0:
            if n_tiles % 3 == 1:
                _, bits = useful_one(counts, 0, all_forms, tab)
                kinds, copies = _useful_copies(counts, bits)
            else:
                discard_one(counts, 0, all_forms, tab, d_shanten, d_useful)
                kinds = 0
                copies = -1
                for t in range(34):
                    if counts[t] and d_shanten[t] == best:
                        counts[t] -= 1
                        k, cp = _useful_copies(counts, d_useful[t])
                        counts[t] += 1
                        if cp > copies:
                            kinds, copies = k, cp
            kinds_hist[kinds] += 1
            copies_hist[copies] += 1
        if n_tiles == 14:
            total = -1
            nfl = 0
            form = 0
            legal = False
            if best == -1:
                total, nfl, form, legal = score_one(
                    spec[0],
                    spec[1],
                    spec[2],
                    spec[3],
                    counts,
                    melds,
                    wall[13],
                    True,
                    False,
                    False,
                    False,
                    0,
                    0,
                    0,
                    0,
                    scratch,
                    fan_out,
                )
            accumulate_chunk(fc, c, fan_out, total, nfl, form, True, legal, 1)


@pjit
def _dealt_chunks(
    states,
    sizes,
    n_tiles,
    wall_kinds,
    form_bits,
    all_forms,
    want_useful,
    tab,
    spec,
    n_fans,
    shanten_hist,
    kinds_hist,
    copies_hist,
    fc,
):
    for c in numba.prange(states.shape[0]):
        _dealt_chunk(
            states[c],
            sizes[c],
            n_tiles,
            wall_kinds,
            form_bits,
            all_forms,
            want_useful,
            tab,
            spec,
            n_fans,
            shanten_hist[c],
            kinds_hist[c],
            copies_hist[c],
            fc,
            c,
        )


class DealtStudy(Study):
    """Random deals (see the module docstring).

    Parameters
    ----------
    n : int
        Number of deals.
    seed : int
        Study seed: the same seed gives the same numbers on any machine, thread
        count or backend.
    tiles : {13, 14}
        Tiles per deal.
    useful : bool
        Also compute useful-tile statistics (slower).
    ruleset : str or Ruleset
        Whose wall and forms.
    """

    kind = "dealt"

    def __init__(
        self,
        n: int,
        seed: int,
        tiles: int = 14,
        useful: bool = True,
        ruleset: str | Ruleset = "mcr",
    ) -> None:
        if tiles not in (13, 14):
            raise ValueError(f"tiles must be 13 or 14, not {tiles}")
        if n < 0:
            raise ValueError(f"n must be >= 0, not {n}")
        self.n, self.seed, self.tiles, self.useful = int(n), int(seed), tiles, bool(useful)
        self.ruleset = get_ruleset(ruleset)

    def params(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset.name,
            "options": dict(self.ruleset.options),
            "n": self.n,
            "seed": self.seed,
            "tiles": self.tiles,
            "useful": self.useful,
            "chunk_size": CHUNK,
            "forms": list(self.ruleset.shanten_forms),
        }

    def n_chunks(self) -> int:
        return -(-self.n // CHUNK)

    def _sizes(self, first: int, count: int) -> np.ndarray:
        starts = np.arange(first, first + count, dtype=np.int64) * CHUNK
        return np.clip(self.n - starts, 0, CHUNK)

    def chunk_weight(self, first: int, count: int) -> int:
        return int(self._sizes(first, count).sum())

    def progress_unit(self) -> str:
        return "deals"

    def run_chunks(self, first: int, count: int) -> Aggregate:
        spec = kernel_spec(self.ruleset)
        forms = self.ruleset.shanten_forms
        form_bits = np.array([FORM_BITS[f] for f in forms], np.int64)
        all_forms = int(np.bitwise_or.reduce(form_bits))
        shanten_hist = np.zeros((count, len(forms) + 1, SHANTEN_BINS), np.int64)
        kinds_hist = np.zeros((count, 35), np.int64)
        copies_hist = np.zeros((count, 4 * 34 + 1), np.int64)
        fc = chunk_counters(count, spec.n_fans, spec.n_forms)
        if count:
            wall = np.repeat(np.array(self.ruleset.tiles, np.uint8), 4)
            _dealt_chunks(
                chunk_states(self.seed, first, count),
                self._sizes(first, count),
                self.tiles,
                wall,
                form_bits,
                all_forms,
                self.useful,
                get_tables(),
                np.array(spec[:4], np.int64),
                spec.n_fans,
                shanten_hist,
                kinds_hist,
                copies_hist,
                fc,
            )
        counters = sum_counters(fc) if self.tiles == 14 else {}
        counters["deals"] = np.array([self.chunk_weight(first, count)], np.int64)
        counters["shanten_hist"] = shanten_hist.sum(axis=0)
        counters["useful_kinds_hist"] = kinds_hist.sum(axis=0)
        counters["useful_copies_hist"] = copies_hist.sum(axis=0)
        return Aggregate(self.kind, self.params(), counters)


def dealt(n: int, seed: int, **options: Any) -> Aggregate:
    """Run a ``dealt`` study; keyword options go to :class:`DealtStudy` or ``run_study``.

    Examples
    --------
    >>> from mjstats.studies.dealt import dealt, shanten_table
    >>> agg = dealt(20_000, seed=1, progress=False)
    >>> int(agg["deals"][0])
    20000
    >>> shanten_table(agg).columns[0]
    'shanten'
    """
    from mjstats.studies.runner import run_study

    study_keys = {"tiles", "useful", "ruleset"}
    study = DealtStudy(n, seed, **{k: v for k, v in options.items() if k in study_keys})
    return run_study(study, **{k: v for k, v in options.items() if k not in study_keys})


def shanten_table(agg: Aggregate):
    """Shanten distribution of a ``dealt`` aggregate: one column per form plus ``any``.

    Rows are shanten values (-1 = complete); entries are probabilities.
    """
    import pandas as pd

    hist = agg["shanten_hist"]
    names = [*agg.params["forms"], "any"]
    n = int(agg["deals"][0])
    used = np.flatnonzero(hist.sum(axis=0))
    top = int(used[-1]) + 1 if len(used) else 1
    data = {"shanten": np.arange(-1, top - 1)}
    for j, name in enumerate(names):
        data[name] = hist[j, :top] / n if n else np.nan
    return pd.DataFrame(data)
