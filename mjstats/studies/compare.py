"""What changes between two rulesets or profiles on the same hands: the table
behind ``mjstats rules diff`` and :func:`mjstats.rules.diff`.

Two sources of hands, one table: a sample (``n``, ``seed``; or given hands),
scored by :func:`mjstats.score_batch` under each reading, every hand weighing
1; or the exact study's enumeration (``exact=True``), scored by
:mod:`mjstats.studies.kernels.profile_diff` with each hand's readings shared by the two
profiles, every (hand, winning tile) weighing its deal weight times the copies
of the tile, the counts merged as exact integers."""

from __future__ import annotations

from collections import Counter
from typing import Any, NamedTuple

import numpy as np

from mjstats.arguments import check_count, check_seed
from mjstats.batch import HandBatch
from mjstats.kernels.accumulate import TOTAL_BINS
from mjstats.rulesets import Ruleset, get_ruleset
from mjstats.scorer import score_batch
from mjstats.studies.exact import ExactStudy
from mjstats.studies.generate_wins import generate_wins
from mjstats.studies.kernels.profile_diff import ACC_HEAD, ACC_NAMES, DELTA_BINS, KINDS
from mjstats.studies.runner import _Progress, default_group_size, in_notebook

__all__ = ["diff"]

_COLUMNS = ("section", "item", "share", "weight", "a", "b", "example")


def _signature(keys, ca: np.ndarray, cb: np.ndarray) -> str:
    """The fan changes of one hand, e.g. ``"+fully_concealed_hand -self_drawn"``."""
    parts = []
    for f in np.flatnonzero(ca != cb):
        d = int(cb[f]) - int(ca[f])
        parts.append(f"{'+' if d > 0 else '-'}{keys[f]}" + (f"x{abs(d)}" if abs(d) > 1 else ""))
    return " ".join(sorted(parts, key=lambda p: (p[0] == "-", p)))


def _aligned_counts(rs: Ruleset, counts: np.ndarray, keys: list[str]) -> np.ndarray:
    out = np.zeros((len(counts), len(keys)), dtype=np.int64)
    for j, k in enumerate(keys):
        if k in rs._fan_index:
            out[:, j] = counts[:, rs.fan_id(k)]
    return out


MAX_SAMPLED = 10_000_000
"""The most hands :func:`diff` samples (all are held in memory, about 35 bytes each);
``exact=True`` covers every hand."""


def diff(
    a: str | Ruleset = "mcr",
    b: str | Ruleset = "mcr:wmo-2014",
    *,
    n: int = 100_000,
    seed: int = 0,
    examples: int = 3,
    hands=None,
    weights=None,
    exact: bool = False,
    progress: bool | None = None,
) -> Any:
    """Score the same complete hands under rulesets (or profiles) ``a`` and ``b``
    and tabulate what changes.

    Parameters
    ----------
    a, b : str or Ruleset
        Ruleset names with an optional profile (``"mcr"``, ``"mcr:wmo-2014"``).
    n, seed : int
        Hands sampled by :func:`mjstats.studies.generate_wins.generate_wins`
        (style ``"mixed"``: every form, melds, kongs and win flags; not the deal
        distribution of the exact study) when ``hands`` is not given.
        ``n`` is 1 to :data:`MAX_SAMPLED` (the hands are held in memory), the
        seed 0 to 2**64-1 (:class:`~mjstats.errors.InvalidArgumentError`).
    examples : int
        Example hands kept for each kind of difference.
    hands : HandBatch, optional
        The hands to compare instead of a sample.
    weights : array of int, optional
        How many hands each row of ``hands`` stands for (default: 1 each).
    exact : bool
        Compare over the exact study's enumeration instead
        (:mod:`mjstats.studies.exact`: every distinct complete concealed hand,
        self-drawn on each of its tile kinds, East/East, weighted by deal weight
        times the copies of the winning tile), ``a`` and ``b`` being two profiles
        (or option sets) of one ruleset; ``n``, ``seed`` and ``hands`` are not
        used. Takes about as long as the exact study itself (minutes); the
        examples are the first hands of each kind in enumeration order.
    progress : bool, optional
        With ``exact``: show a progress bar (default: on an interactive terminal).

    Returns
    -------
    pandas.DataFrame
        One row per figure, columns ``section, item, share, weight, a, b, example``.
        Sections: ``summary`` (hands; with ``exact`` also ``distinct hands``;
        ``totals differ``; ``P(legal)``, ``mean total`` with the values under
        ``a`` and ``b``), ``difference`` (total under b minus under a -> share
        of the hands), ``appears`` and ``disappears`` (fan key -> share of the
        hands where it counts more, or less, often under b), ``example`` (a kind
        of difference, i.e. its fan changes -> its share, the two totals and a
        hand text). ``weight`` is the integer count behind a figure (hands, or
        with ``exact`` their exact weight) and ``share`` that count over the
        hands' (the complete hands scored under both).

    Examples
    --------
    >>> from mjstats.rules import diff
    >>> t = diff("mcr", "mcr:wmo-2014", n=2000, seed=1)
    >>> int(t.set_index(["section", "item"]).loc[("summary", "hands"), "weight"])
    2000
    >>> bool((t.section == "appears").any())
    True
    >>> e = diff("mcr", "mcr:wmo-2014", exact=True)  # doctest: +SKIP
    >>> e.set_index(["section", "item"]).loc[("summary", "totals differ")]  # doctest: +SKIP
    """
    ra, rb = get_ruleset(a), get_ruleset(b)
    if exact:
        if hands is not None or weights is not None:
            raise ValueError("exact=True compares the exact enumeration; it takes no hands")
        return _table(_exact_figures(ra, rb, examples, progress))
    if weights is not None and hands is None:
        raise ValueError("weights go with hands (one per row)")
    if hands is None:
        check_seed(seed)
        check_count("n (sampled hands, held in memory at once)", n, low=1, high=MAX_SAMPLED)
    return _table(_sampled_figures(ra, rb, n, seed, examples, hands, weights))


class _Figures(NamedTuple):
    """What the table shows, as integer weights (the table divides by ``complete``)."""

    complete: int
    distinct: int | None  # distinct hands (exact only)
    differ: int
    legal: tuple[int, int]
    mean: tuple[float, float]
    delta: dict[int, int]  # total_b - total_a -> weight
    appears: dict[str, int]
    disappears: dict[str, int]
    kinds: dict[str, tuple[int, list[tuple[int, int, str]]]]  # signature -> weight, examples


def _table(fig: _Figures) -> Any:
    import pandas as pd

    m = fig.complete
    rows: list[tuple] = []

    def add(section, item, count, va=None, vb=None, example="", share=True):
        frac = count / m if m and share else np.nan
        rows.append((section, item, frac, int(count), va, vb, example))

    add("summary", "hands", m)
    if fig.distinct is not None:  # a count of hands, not a share of the weight
        add("summary", "distinct hands", fig.distinct, share=False)
    add("summary", "totals differ", fig.differ)
    la, lb = fig.legal
    add("summary", "P(legal)", m, la / m if m else np.nan, lb / m if m else np.nan)
    add("summary", "mean total", m, *fig.mean)
    for d, c in sorted(fig.delta.items()):
        add("difference", f"{d:+d}", c)
    for section, counts in (("appears", fig.appears), ("disappears", fig.disappears)):
        for key, c in sorted(counts.items(), key=lambda kv: -kv[1]):  # stable: fan order on ties
            add(section, key, c)
    for sig, (weight, shown) in sorted(fig.kinds.items(), key=lambda kv: -kv[1][0]):
        for ta, tb, text in shown:
            add("example", sig or "(same fans)", weight, ta, tb, text)
    return pd.DataFrame(rows, columns=list(_COLUMNS))


def _sampled_figures(
    ra: Ruleset, rb: Ruleset, n: int, seed: int, examples: int, hands, weights=None
) -> _Figures:
    if hands is None:
        if n <= 0:
            raise ValueError(f"n must be positive, got {n}")
        hands = HandBatch(**generate_wins(n, seed, "mixed").as_dict())
    if weights is None:
        w_all = np.ones(len(hands), np.int64)
    else:
        w_all = np.asarray(weights)
        if w_all.shape != (len(hands),) or w_all.dtype.kind not in "iu" or (w_all < 0).any():
            raise ValueError(f"weights must be {len(hands)} non-negative integers, one per hand")
        w_all = w_all.astype(np.int64)
    sa, sb = score_batch(hands, ra), score_batch(hands, rb)
    done = (sa.total >= 0) & (sb.total >= 0)
    w = w_all[done]
    keys = list(dict.fromkeys([f.key for f in ra.fans] + [f.key for f in rb.fans]))
    ca = _aligned_counts(ra, sa.fan_counts[done], keys)
    cb = _aligned_counts(rb, sb.fan_counts[done], keys)
    ta = sa.total[done].astype(np.int64)
    tb = sb.total[done].astype(np.int64)
    changed = np.flatnonzero((ca != cb).any(axis=1) | (ta != tb))
    rows: dict[str, list[int]] = {}
    for i in changed:
        rows.setdefault(_signature(keys, ca[i], cb[i]), []).append(int(i))
    rows_done = np.flatnonzero(done)
    kinds = {
        sig: (
            int(w[idx].sum()),
            [(int(ta[i]), int(tb[i]), str(hands[int(rows_done[i])])) for i in idx[:examples]],
        )
        for sig, idx in rows.items()
    }
    m = int(w.sum())
    delta: Counter = Counter()
    for d, wi in zip((tb - ta).tolist(), w.tolist(), strict=True):
        delta[d] += wi
    return _Figures(
        complete=m,
        distinct=None,
        differ=int(w[ta != tb].sum()),
        legal=(int(w[sa.legal[done]].sum()), int(w[sb.legal[done]].sum())),
        mean=(int(ta @ w) / m, int(tb @ w) / m) if m else (np.nan, np.nan),
        delta=dict(delta),
        appears=_per_fan(keys, w @ (cb > ca)),
        disappears=_per_fan(keys, w @ (cb < ca)),
        kinds=kinds,
    )


def _per_fan(keys: list[str], weights) -> dict[str, int]:
    return {k: int(w) for k, w in zip(keys, weights, strict=True) if w}


def _exact_figures(
    ra: Ruleset, rb: Ruleset, examples: int, progress: bool | None, study=None, groups=None
) -> _Figures:
    """The exact diff's figures; ``study`` (default the exact study of ``ra``) and
    ``groups`` (``(first, count)`` chunk ranges, default all) restrict it."""
    import sys

    if ra.name != rb.name or ra.tiles != rb.tiles:
        raise ValueError(
            f"an exact diff compares two profiles (or option sets) of one ruleset over its "
            f"exact enumeration, not {ra.spec} and {rb.spec}"
        )
    if examples < 0:
        raise ValueError(f"examples must be 0 or more, got {examples}")
    study = ExactStudy(ra) if study is None else study
    keys = [f.key for f in ra.fans]
    n_fans = len(keys)
    summed = None
    kinds: dict[bytes, list] = {}  # key bytes -> [weight, examples (counts, tile, ta, tb)]
    if groups is None:
        n_chunks, size = study.n_chunks(), default_group_size(study)
        groups = [(f, min(size, n_chunks - f)) for f in range(0, n_chunks, size)]
    if progress is None:
        progress = sys.stderr.isatty() or in_notebook()
    total = sum(study.chunk_weight(f, c) for f, c in groups)
    with _Progress(total, study.progress_unit(), bool(progress)) as bar:
        for first, count in groups:
            acc, kkeys, info, _, ex = study.run_diff_chunks(first, count, rb, examples)
            if acc[:, ACC_NAMES.index("overflow")].any():
                raise RuntimeError(  # pragma: no cover (a kernel limit, far from reached)
                    f"more than {KINDS} kinds of difference in one chunk of the enumeration"
                )
            part = acc.sum(axis=0)
            summed = part if summed is None else summed + part
            # chunks in enumeration order, so each kind keeps its first examples
            for c in range(count):
                for k in range(int(acc[c, ACC_NAMES.index("kinds")])):
                    key = kkeys[c, k, :-1].tobytes()
                    entry = kinds.setdefault(key, [0, []])
                    entry[0] += int(info[c, k, 0])
                    room = examples - len(entry[1])
                    entry[1].extend(ex[c, k, : min(room, int(info[c, k, 1]))])
            bar.advance(study.chunk_weight(first, count))
    scalars = {name: int(summed[j]) for j, name in enumerate(ACC_NAMES)}
    if scalars["unscored"]:  # pragma: no cover (every enumerated hand is complete)
        raise RuntimeError(f"{scalars['unscored']} enumerated hands did not score")
    m = scalars["complete"]
    hist = summed[ACC_HEAD : ACC_HEAD + DELTA_BINS]
    fan_w = summed[ACC_HEAD + DELTA_BINS :]
    shown: dict[str, tuple[int, list]] = {}
    zero = np.zeros(n_fans, np.int64)
    for key, (weight, rows) in kinds.items():
        d = np.frombuffer(key, np.int8)[:n_fans].astype(np.int64)
        texts = []
        if rows:
            r = np.array(rows, np.int64)
            batch = HandBatch(concealed=r[:, :34], win_tile=r[:, 34], self_drawn=True)
            texts = [(int(x[35]), int(x[36]), str(batch[i])) for i, x in enumerate(r)]
        shown[_signature(keys, zero, d)] = (weight, texts)
    return _Figures(
        complete=m,
        distinct=scalars["distinct"],
        differ=scalars["differ"],
        legal=(scalars["legal_a"], scalars["legal_b"]),
        mean=(scalars["sum_total_a"] / m, scalars["sum_total_b"] / m) if m else (np.nan, np.nan),
        delta={d - (TOTAL_BINS - 1): int(w) for d, w in enumerate(hist) if w},
        appears=_per_fan(keys, fan_w[:n_fans]),
        disappears=_per_fan(keys, fan_w[n_fans:]),
        kinds=shown,
    )
