"""``sample``: exact random samples of complete hands, scored, at millions per second.

Draws hands from the distribution of :mod:`mjstats.studies.exact` directly,
without dealing and rejecting raw deals (only about 1 deal in 3,000 is complete
in MCR): a complete concealed 14-tile hand with probability proportional to its
deal weight, then the winning tile uniformly among its 14 tiles; self-drawn,
seat and round wind East, no flowers, no melds, no other flags.

How: the complete hands form three disjoint parts, each with an exactly known
total weight:

1. regular hands: sampled block by block from per-group pattern tables
   (:mod:`mjstats.studies.patterns`): a block with probability proportional to
   its total weight, then each group's pattern in proportion to its weight;
2. seven-pairs hands that are not regular: the same on the seven-pairs tables,
   redrawing the rare hand that is also regular (that leaves the remaining hands
   in proportion to their weights);
3. the other special forms, from an explicit weighted list.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np

from mjstats.kernels.accumulate import chunk_counters, sum_counters
from mjstats.kernels.decompose import suit_table
from mjstats.kernels.rng import chunk_states
from mjstats.rulesets import Ruleset, get_ruleset
from mjstats.rulesets.dispatch import kernel_spec
from mjstats.studies.aggregate import Aggregate
from mjstats.studies.exact import ExactStudy, complete_weights
from mjstats.studies.kernels.sample import sample_chunks
from mjstats.studies.patterns import BlockSpace
from mjstats.studies.runner import Study, chunked_weight, run_study, study_count, study_seed

__all__ = ["SampleStudy", "sample"]

CHUNK = 1 << 16
_C4 = np.array([1, 4, 6, 4, 1], dtype=np.int64)


def _sampling_arrays(space: BlockSpace) -> tuple[np.ndarray, ...]:
    return (
        np.cumsum(space.block_weight),
        space.blocks,
        space.suit.patterns,
        space.suit.cum_weight,
        space.suit.start,
        space.suit.size,
        space.honor.patterns,
        space.honor.cum_weight,
        space.honor.start,
        space.honor.size,
    )


@cache
def _parts(ruleset: Ruleset) -> tuple[Any, ...]:
    """Component weights and sampling arrays for a ruleset (built once per process)."""
    ex = ExactStudy(ruleset)
    w = complete_weights(ruleset)
    reg = ex._regular
    pairs = _sampling_arrays(ex._pairs if ex._pairs is not None else reg)
    special = ex._special
    sw = _C4[special].prod(axis=1) if len(special) else np.zeros(0, np.int64)
    comp = np.cumsum(np.array([w["regular"], w["seven_pairs"], w["special"]], np.int64))
    special_cum = np.cumsum(sw) if len(sw) else np.ones(1, np.int64)
    special_rows = special if len(special) else np.zeros((1, 34), np.uint8)
    return comp, _sampling_arrays(reg), pairs, special_rows, special_cum


class SampleStudy(Study):
    """Exactly distributed random complete hands, scored (see the module docstring).

    Parameters
    ----------
    n : int
        Number of hands.
    seed : int
        Study seed.
    ruleset : str or Ruleset
        Ruleset (its tiles, forms and scorer).
    """

    kind = "sample"
    work_counter = "hands"
    default_n = 1_000_000

    def __init__(self, n: int, seed: int, ruleset: str | Ruleset = "mcr") -> None:
        self.n, self.seed = study_count("n", n), study_seed(seed)
        self.ruleset = get_ruleset(ruleset)

    def params(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset.spec,
            "options": dict(self.ruleset.options),
            "n": self.n,
            "seed": self.seed,
            "chunk_size": CHUNK,
            "convention": "complete 14-tile deal; uniform winning tile; self-drawn; East/East",
        }

    def n_chunks(self) -> int:
        return -(-self.n // CHUNK)

    def _sizes(self, first: int, count: int) -> np.ndarray:
        starts = np.arange(first, first + count, dtype=np.int64) * CHUNK
        return np.clip(self.n - starts, 0, CHUNK)

    def chunk_weight(self, first: int, count: int) -> int:
        return chunked_weight(self.n, CHUNK, first, count)

    def progress_unit(self) -> str:
        return "hands"

    def run_chunks(self, first: int, count: int) -> Aggregate:
        spec = kernel_spec(self.ruleset)
        fc = chunk_counters(count, spec.n_fans, spec.n_forms)
        if count:
            comp, reg, prs, special, special_cum = _parts(self.ruleset)
            sample_chunks(
                chunk_states(self.seed, first, count),
                self._sizes(first, count),
                comp,
                reg,
                prs,
                special,
                special_cum,
                np.array(spec[:4], np.int64),
                suit_table(),
                spec.n_fans,
                fc,
            )
        return Aggregate(self.kind, self.params(), sum_counters(fc))


def sample(n: int, seed: int, ruleset: str | Ruleset = "mcr", **run_options: Any) -> Aggregate:
    """Score ``n`` exactly sampled complete hands; ``run_options`` go to ``run_study``.

    Examples
    --------
    >>> from mjstats.studies.sample import sample
    >>> agg = sample(10_000, seed=1, progress=False)
    >>> int(agg["complete"][0])
    10000
    """

    return run_study(SampleStudy(n, seed, ruleset), **run_options)
