"""``dealt``: random deals from a ruleset's wall: shanten, useful tiles, P(complete), fans.

Each deal draws ``tiles`` (13 or 14) tiles without replacement from the
ruleset's wall: four copies of every tile kind in ``ruleset.tiles`` (136 tiles
in MCR; flowers are not dealt), so a ruleset with fewer kinds (two-player:
characters and honours) deals from its own smaller wall. For every deal the
study records

* always: the shanten over all of the ruleset's forms (``shanten_hist`` row
  ``any``), and for 14-tile deals whether the deal is complete;
* with ``per_form=True``: the shanten of each form separately (one more row
  per form, in ``ruleset.shanten_forms`` order);
* with ``useful=True``: useful-tile statistics: for 13-tile deals the number
  of useful kinds and of useful copies not in the hand; for 14-tile deals the
  same after the best discard (lowest shanten, then most copies).

The default (all-forms shanten only) is the fast mode: the deal loop keeps the
four group keys of the shanten tables up to date as tiles are dealt and never
builds a count vector, and tiles are drawn with a multiply-shift bounded
integer (Lemire's method, exact: no modulo bias). The options only add work;
the deals themselves depend on nothing but the seed and the chunk, so the same
seed gives the same ``any`` row with or without them.

A complete 14-tile deal is scored under the fan-probability convention of
:mod:`mjstats.studies.exact`: the 14th tile dealt (a uniformly random one of the
14) is the winning tile, self-drawn, seat and round wind East, no flowers, no
melds, no other flags. So ``dealt`` estimates, by sampling, what ``exact``
computes.

Counters of the aggregate: ``deals``; ``shanten_hist`` int64 (rows, 16): row
per form (``per_form`` only) then ``any``, column ``shanten + 1``;
``useful_kinds_hist`` (35,) and ``useful_copies_hist`` (137,) (``useful``
only); for 14-tile deals the fan counters of
:mod:`mjstats.kernels.accumulate` (``hands`` = deals, ``complete``, ``legal``,
fans of the complete deals).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mjstats.kernels.accumulate import chunk_counters, sum_counters
from mjstats.kernels.decompose import suit_table
from mjstats.kernels.rng import chunk_states
from mjstats.kernels.shanten import FORM_BITS
from mjstats.kernels.tables import get_tables
from mjstats.rulesets import Ruleset, get_ruleset
from mjstats.rulesets.dispatch import kernel_spec
from mjstats.studies.aggregate import Aggregate
from mjstats.studies.kernels.dealt import dealt_chunks
from mjstats.studies.runner import Study, chunked_weight, run_study, study_count, study_seed
from mjstats.studies.summaries import shanten_table

__all__ = ["DealtStudy", "dealt", "shanten_table", "useful_table"]

SHANTEN_BINS = 16  # shanten -1 .. 14 at index shanten + 1
CHUNK = 1 << 16


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
        Also compute useful-tile statistics (several times slower).
    per_form : bool
        Also the shanten of each form separately (about twice as slow).
    ruleset : str or Ruleset
        Whose wall (``ruleset.tiles``, four copies each), forms and scorer.

    Examples
    --------
    >>> from mjstats.studies.runner import run_study
    >>> agg = run_study(DealtStudy(1000, seed=1, per_form=True), progress=False)
    >>> agg["shanten_hist"].shape, int(agg["shanten_hist"][-1].sum())
    ((6, 16), 1000)
    """

    kind = "dealt"
    default_n = 1_000_000
    cli_options = ("tiles", "useful", "per_form")
    work_counter = "deals"

    def __init__(
        self,
        n: int,
        seed: int,
        tiles: int = 14,
        useful: bool = False,
        ruleset: str | Ruleset = "mcr",
        per_form: bool = False,
    ) -> None:
        if tiles not in (13, 14):
            raise ValueError(f"tiles must be 13 or 14, not {tiles}")
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
            raise ValueError(f"n must be an integer >= 0, not {n!r}")
        if seed is None:
            raise ValueError("dealt needs an explicit integer seed for reproducibility")
        self.n, self.seed, self.tiles = study_count("n", n), study_seed(seed), int(tiles)
        self.useful, self.per_form = bool(useful), bool(per_form)
        self.ruleset = get_ruleset(ruleset)
        if len(self.ruleset.tiles) * 4 < self.tiles:
            raise ValueError(f"ruleset {self.ruleset.name!r} has too few tiles to deal")

    def __getstate__(self) -> dict[str, Any]:
        # a Ruleset holds mappingproxy objects, which do not pickle: send name and options
        state = dict(self.__dict__)
        rs = state["ruleset"]
        if get_ruleset(rs.spec, **rs.options) == rs:  # a registered ruleset: send its name
            del state["ruleset"]
            state["_ruleset_spec"] = (rs.spec, dict(rs.options))
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        spec = state.pop("_ruleset_spec", None)
        self.__dict__.update(state)
        if spec is not None:
            self.ruleset = get_ruleset(spec[0], **spec[1])

    @classmethod
    def cli_params(cls, given: dict[str, Any]) -> dict[str, Any]:
        """``--tiles`` is text on the command line (a choice of 13 or 14)."""
        return {k: int(v) if k == "tiles" else v for k, v in given.items()}

    @classmethod
    def summary_json(cls, agg: Aggregate) -> dict[str, Any]:
        """The fan summary (14-tile deals), deals, the shanten table and, with
        ``useful``, the useful-tile tables."""
        out = super().summary_json(agg)
        out["kind"], out["deals"] = agg.kind, int(agg["deals"][0])
        out["shanten"] = shanten_table(agg).to_dict(orient="list")
        if "useful_kinds_hist" in agg.counters:
            for what in ("kinds", "copies"):
                out[f"useful_{what}"] = useful_table(agg, what).to_dict(orient="list")
        return out

    def params(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset.spec,
            "options": dict(self.ruleset.options),
            "n": self.n,
            "seed": self.seed,
            "tiles": self.tiles,
            "useful": self.useful,
            "per_form": self.per_form,
            "chunk_size": CHUNK,
            "forms": list(self.ruleset.shanten_forms),
            "rng": "xoshiro256**, Lemire 32-bit bounded, 2 draws per output",
        }

    def n_chunks(self) -> int:
        return -(-self.n // CHUNK)

    def _sizes(self, first: int, count: int) -> np.ndarray:
        starts = np.arange(first, first + count, dtype=np.int64) * CHUNK
        return np.clip(self.n - starts, 0, CHUNK)

    def chunk_weight(self, first: int, count: int) -> int:
        return chunked_weight(self.n, CHUNK, first, count)

    def progress_unit(self) -> str:
        return "deals"

    def run_chunks(self, first: int, count: int) -> Aggregate:
        forms = self.ruleset.shanten_forms
        form_bits = np.array([FORM_BITS[f] for f in forms], np.int64)
        all_forms = int(np.bitwise_or.reduce(form_bits))
        rows = len(forms) + 1 if self.per_form else 1
        shanten_hist = np.zeros((count, rows, SHANTEN_BINS), np.int64)
        kinds_hist = np.zeros((count, 35 if self.useful else 0), np.int64)
        copies_hist = np.zeros((count, 4 * 34 + 1 if self.useful else 0), np.int64)
        if self.tiles == 14:
            spec = kernel_spec(self.ruleset)
            n_fans, n_forms = spec.n_fans, spec.n_forms
            spec_arr = np.array(spec[:4], np.int64)
        else:  # 13-tile deals are never scored (and need no scoring kernel)
            n_fans, n_forms = 1, 1
            spec_arr = np.zeros(4, np.int64)
        fc = chunk_counters(count, n_fans, n_forms)
        if count:
            wall = np.repeat(np.array(self.ruleset.tiles, np.uint8), 4)
            dealt_chunks(
                chunk_states(self.seed, first, count),
                self._sizes(first, count),
                self.tiles,
                wall,
                form_bits,
                all_forms,
                self.per_form,
                self.useful,
                get_tables(),
                suit_table(),
                spec_arr,
                n_fans,
                shanten_hist,
                kinds_hist,
                copies_hist,
                fc,
            )
        deals = self.chunk_weight(first, count)
        counters: dict[str, np.ndarray] = {}
        if self.tiles == 14:
            counters = sum_counters(fc)
            counters["hands"] = np.array([deals], np.int64)  # only complete deals were added
        counters["deals"] = np.array([deals], np.int64)
        counters["shanten_hist"] = shanten_hist.sum(axis=0)
        if self.useful:
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
    >>> list(shanten_table(agg).columns)
    ['shanten', 'any']
    >>> list(shanten_table(dealt(1000, seed=1, per_form=True, progress=False)).columns)[:3]
    ['shanten', 'regular', 'seven_pairs']
    """

    study_keys = {"tiles", "useful", "ruleset", "per_form"}
    study = DealtStudy(n, seed, **{k: v for k, v in options.items() if k in study_keys})
    return run_study(study, **{k: v for k, v in options.items() if k not in study_keys})


def useful_table(agg: Aggregate, what: str = "kinds"):
    """Useful-tile distribution of a ``dealt`` aggregate run with ``useful=True``.

    ``what="kinds"``: how many tile kinds would lower the shanten; ``"copies"``:
    how many copies of them are not in the hand (for 14-tile deals, after the
    best discard). Columns ``useful`` (the number), ``deals``, ``probability``
    and ``sf`` = P(at least that many); rows from 0 to the largest seen.

    Raises ``ValueError`` when the study was run without ``useful``.

    Examples
    --------
    >>> from mjstats.studies.dealt import dealt, useful_table
    >>> t = useful_table(dealt(2000, seed=3, tiles=13, useful=True, progress=False))
    >>> list(t.columns), int(t["deals"].sum())
    (['useful', 'deals', 'probability', 'sf'], 2000)
    """
    import pandas as pd

    key = {"kinds": "useful_kinds_hist", "copies": "useful_copies_hist"}.get(what)
    if key is None:
        raise ValueError(f"what must be 'kinds' or 'copies', not {what!r}")
    if key not in agg.counters:
        raise ValueError(
            f"the {agg.kind!r} aggregate has no useful-tile statistics (run with useful)"
        )
    hist = agg[key]
    used = np.flatnonzero(hist)
    top = int(used[-1]) + 1 if len(used) else 1
    hist = hist[:top]
    n = int(hist.sum())
    p = hist / n if n else np.full(top, np.nan)
    sf = 1.0 - np.concatenate([[0.0], np.cumsum(p)[:-1]])
    return pd.DataFrame({"useful": np.arange(top), "deals": hist, "probability": p, "sf": sf})
