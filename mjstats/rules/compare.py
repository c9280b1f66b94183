"""What changes between two rulesets or profiles on the same hands: the table
behind ``mjstats rules diff`` and :func:`mjstats.rules.diff`."""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

from mjstats.rules import Ruleset, get_ruleset

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


def diff(
    a: str | Ruleset = "mcr",
    b: str | Ruleset = "mcr:wmo-2014",
    *,
    n: int = 100_000,
    seed: int = 0,
    examples: int = 3,
    hands=None,
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
    examples : int
        Example hands kept for each kind of difference.
    hands : HandBatch, optional
        The hands to compare instead of a sample (every row counts once).

    Returns
    -------
    pandas.DataFrame
        One row per figure, columns ``section, item, share, weight, a, b, example``.
        Sections: ``summary`` (hands; ``totals differ``; ``P(legal)``, ``mean
        total`` with the values under ``a`` and ``b``), ``difference`` (total
        under b minus under a -> share of the hands), ``appears`` and
        ``disappears`` (fan key -> share of the hands where it counts more, or
        less, often under b), ``example`` (a kind of difference, i.e. its fan
        changes -> its share, the two totals and a hand text).
        ``share`` is a fraction of the complete hands.

    Examples
    --------
    >>> from mjstats.rules import diff
    >>> t = diff("mcr", "mcr:wmo-2014", n=2000, seed=1)
    >>> float(t.set_index(["section", "item"]).loc[("summary", "hands"), "weight"])
    2000.0
    >>> bool((t.section == "appears").any())
    True
    """
    import pandas as pd

    from mjstats.batch import HandBatch
    from mjstats.scorer import score_batch

    ra, rb = get_ruleset(a), get_ruleset(b)
    if hands is None:
        from mjstats.studies.generate_wins import generate_wins

        if n <= 0:
            raise ValueError(f"n must be positive, got {n}")
        hands = HandBatch(**generate_wins(n, seed, "mixed").as_dict())
    sa, sb = score_batch(hands, ra), score_batch(hands, rb)
    done = (sa.total >= 0) & (sb.total >= 0)
    m = int(done.sum())
    rows: list[tuple] = []

    def add(section, item, count, va=None, vb=None, example=""):
        rows.append((section, item, count / m if m else np.nan, float(count), va, vb, example))

    keys = list(dict.fromkeys([f.key for f in ra.fans] + [f.key for f in rb.fans]))
    ca = _aligned_counts(ra, sa.fan_counts[done], keys)
    cb = _aligned_counts(rb, sb.fan_counts[done], keys)
    ta = sa.total[done].astype(np.int64)
    tb = sb.total[done].astype(np.int64)
    add("summary", "hands", m)
    add("summary", "totals differ", int((ta != tb).sum()))
    add("summary", "P(legal)", m, float(sa.legal[done].mean()), float(sb.legal[done].mean()))
    add("summary", "mean total", m, float(ta.mean()), float(tb.mean()))
    delta = tb - ta
    for d, c in sorted(Counter(delta.tolist()).items()):
        add("difference", f"{d:+d}", c)
    for section, mask in (("appears", cb > ca), ("disappears", cb < ca)):
        counts = mask.sum(axis=0)
        for j in np.argsort(-counts, kind="stable"):
            if counts[j]:
                add(section, keys[j], int(counts[j]))
    changed = np.flatnonzero((ca != cb).any(axis=1) | (ta != tb))
    kinds: dict[str, list[int]] = {}
    for i in changed:
        kinds.setdefault(_signature(keys, ca[i], cb[i]), []).append(int(i))
    rows_done = np.flatnonzero(done)
    for sig, idx in sorted(kinds.items(), key=lambda kv: -len(kv[1])):
        for i in idx[:examples]:
            text = str(hands[int(rows_done[i])])
            add("example", sig or "(same fans)", len(idx), int(ta[i]), int(tb[i]), text)
    return pd.DataFrame(rows, columns=list(_COLUMNS))
