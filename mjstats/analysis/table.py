"""The analysis table: every option of a position and what it keeps (``docs/analysis.md``)."""

from __future__ import annotations

import re
import threading
from typing import Any

import numba
import numpy as np
import pandas as pd

from mjstats.analysis import exact as X
from mjstats.analysis import kernels as K
from mjstats.analysis.position import Position, PositionError, position
from mjstats.arrays import as_counts34, as_int_rows, as_row_vector, fail_rows
from mjstats.batch import HandBatch
from mjstats.errors import InvalidArgumentError
from mjstats.games import discard_policies as D
from mjstats.games.plans import ADDON_SHIFT, collect_plans
from mjstats.html import analysis_html
from mjstats.kernels.decompose import suit_table
from mjstats.kernels.tables import get_tables
from mjstats.rulesets import get_ruleset
from mjstats.tiles import TILES
from mjstats.validation import as_melds, hand_totals34

__all__ = [
    "COLUMNS",
    "DEFAULT_PLAYOUTS",
    "AnalysisTable",
    "analyze",
    "analyze_batch",
    "option_curves",
    "plans_line",
    "win_curves",
]

COLUMNS = [
    "option",
    "kind",
    "tile",
    "then",
    "shanten",
    "shanten_regular",
    "shanten_seven_pairs",
    "shanten_thirteen_orphans",
    "shanten_honors_knitted",
    "shanten_knitted_straight",
    "useful",
    "useful_copies",
    "legal_useful",
    "legal_copies",
    "win_fans",
    "kaizen",
    "kaizen_copies",
    "kaizen_best",
    "second_step",
    "p_win",
    "p_win_se",
    "exp_points",
    "exp_points_se",
    "method",
    "plans",
]
"""Columns of :func:`analyze`, in order (defined in ``docs/analysis.md``)."""

DEFAULT_PLAYOUTS = 1000
"""Monte Carlo playouts per option of shanten 2 or more in :func:`analyze` when no
option of the position is within reach of the exact method (shanten <= 1)."""

_KINDS = ["discard", "concealed kong", "promoted kong", "pass", "chow", "pung", "kong", "win"]
_FORM_COLS = COLUMNS[5:10]
# the batch frame's ``kind`` column is categorical, its categories in text order
# (so sorting by it sorts as the words do)
_KIND_CATEGORIES = sorted(_KINDS)
_KIND_CODE = np.array([_KIND_CATEGORIES.index(k) for k in _KINDS], np.int8)
_SUITS = "mps"


def _mask_text(mask: int) -> str:
    return " ".join(TILES[t] for t in range(34) if (mask >> t) & 1)


def _plan_names(ruleset) -> dict[str, Any]:
    fans = {f.key: f for f in ruleset.fans}

    def name(key: str) -> str:
        f = fans.get(key)
        return f"{f.zh} {f.en}" if f else key

    return {"name": name}


def _plan_text(kind: int, param: int, need: int, value: int, name) -> str:
    addon = param >> ADDON_SHIFT  # a pair or concealed pung made a pung beside the target
    param &= (1 << ADDON_SHIFT) - 1
    extra = f" + pung {TILES[addon - 1] * 3}" if addon else ""
    if kind == D.T_PLAIN:
        what = "any complete hand (the melds' fans reach the minimum)"
    elif kind == D.T_HALF_FLUSH_PUNGS:
        what = f"{name('half_flush')} + {name('all_pungs')} ({_SUITS[param]})"
    elif kind == D.T_ALL_TYPES:
        what = name("all_types")
    elif kind in (D.T_FULL_FLUSH, D.T_HALF_FLUSH):
        key = "full_flush" if kind == D.T_FULL_FLUSH else "half_flush"
        what = f"{name(key)} ({_SUITS[param]})"
    elif kind == D.T_CHOWS:
        body = D._BODIES[param]
        key = D.PLAN_FANS[int(body[3]) - D.CTX_VALUES]
        chows = " ".join(f"{TILES[c]}{TILES[c + 1]}{TILES[c + 2]}" for c in body[:3])
        what = f"{name(key)} ({chows})"
    elif kind == D.T_HONOR_PUNGS:
        tiles = " ".join(TILES[27 + h] * 3 for h in range(7) if (param >> h) & 1)
        what = f"{name('dragon_pung') if param >= 16 else 'pungs'} ({tiles})"
    else:
        key = {
            D.T_SEVEN_PAIRS: "seven_pairs",
            D.T_ORPHANS: "thirteen_orphans",
            D.T_HONORS_KNITTED: "lesser_honors_and_knitted_tiles",
            D.T_KNITTED_STRAIGHT: "knitted_straight",
            D.T_ALL_PUNGS: "all_pungs",
            D.T_CONCEALED_PUNGS: "three_concealed_pungs",
        }[kind]
        what = name(key)
    return f"{what}{extra} need {need} value {value}"


# a chow as _plan_text writes it, "1m2m3m", a pung, "1z1z1z", and one plan of the column
_CHOW_TEXT = re.compile(r"(\d)([mps])(\d)\2(\d)\2")
_PUNG_TEXT = re.compile(r"(\d)([mpsz])\1\2\1\2")
_PLAN_TEXT = re.compile(r"^(?P<what>.*) need (?P<need>\d+) value (?P<value>\d+)$")


def plans_line(plans: str, shown: int = 3) -> str:
    """The ``plans`` cell of :func:`analyze` cut to its nearest ``shown`` plans, written
    short for one line (chows and pungs as hands, "8 fan, need 1"), with how many more
    there are; "" for none. ``mjstats analyze`` prints it.

    Examples
    --------
    >>> plans_line("花龙 Mixed Straight (1m2m3m 4p5p6p 7s8s9s) need 1 value 8; "
    ...            "pungs (1z1z1z) need 1 value 4", shown=1)
    '花龙 Mixed Straight (123m 456p 789s) 8 fan, need 1 (+1)'
    """
    items = [p for p in plans.split("; ") if p]
    cells = []
    for plan in items[:shown]:
        m = _PLAN_TEXT.match(plan)
        what, need, value = (m["what"], m["need"], m["value"]) if m else (plan, "?", "?")
        what = _PUNG_TEXT.sub(r"\1\1\1\2", _CHOW_TEXT.sub(r"\1\3\4\2", what))
        what = what.replace(" (the melds' fans reach the minimum)", "")
        cells.append(f"{what} {value} fan, need {need}")
    more = f" (+{len(items) - shown})" if len(items) > shown else ""
    return "; ".join(cells) + more


def _option_hand(pos: Position, kind: int, tile: int, then: int):
    """Counts, melds and meld count of the 3k+1 hand an option leaves."""
    counts = pos.concealed.copy()
    melds = pos.melds.copy()
    n = pos.n_melds
    if kind == K.OPT_DISCARD:
        counts[tile] -= 1
    elif kind == K.OPT_CONCEALED_KONG:
        counts[tile] -= 4
        melds[n] = (4, tile)
        n += 1
    elif kind == K.OPT_PROMOTED_KONG:
        counts[tile] -= 1
        for i in range(n):
            if melds[i, 0] == 2 and melds[i, 1] == tile:
                melds[i, 0] = 3
    elif kind in (K.OPT_CHOW, K.OPT_PUNG, K.OPT_KONG):
        counts[pos.discard] += 1
        if kind == K.OPT_CHOW:
            counts[tile : tile + 3] -= 1
            melds[n] = (1, tile)
        else:
            counts[tile] -= 3 if kind == K.OPT_PUNG else 4
            melds[n] = (2 if kind == K.OPT_PUNG else 3, tile)
        n += 1
        if then >= 0:
            counts[then] -= 1
    return counts, melds, n


def _plans(pos, kind, tile, then, unseen, ctx, tab, work, name) -> str:
    """The planner's plans of the hand an option leaves (:func:`mjstats.games.plans.collect_plans`:
    what the ``planner`` policy plays for), those within one tile of the best."""
    if kind == K.OPT_WIN:
        return ""
    counts, melds, n = _option_hand(pos, kind, tile, then)
    plain = D.hand_need(counts, n, ctx[D.CTX_FORMS], tab)
    targets = work[D.W_TARGET]
    count, best = collect_plans(counts, melds, n, unseen, ctx, tab, plain, targets, work)
    low = (1 << ADDON_SHIFT) - 1
    rows = sorted(
        {
            (int(targets[i, 2]), -int(targets[i, 3]), int(targets[i, 0]), int(targets[i, 1]))
            for i in range(count)
            if targets[i, 2] <= best + 1
            # a plain row is a plan only when the melds' fans make it sure (parameter 1)
            and (targets[i, 0] != D.T_PLAIN or targets[i, 1] & low == 1)
        }
    )
    # an add-on row says more only where the target alone is farther
    alone = {(k, p): need for need, _, k, p in rows if not p >> ADDON_SHIFT}
    rows = [
        r for r in rows if not (r[3] >> ADDON_SHIFT and alone.get((r[2], r[3] & low), 99) <= r[0])
    ]
    return "; ".join(_plan_text(k, p, need, -v, name) for need, v, k, p in rows)


def _option_text(kind: int, tile: int, then: int) -> str:
    if kind == K.OPT_CHOW:
        word = f"chow {TILES[tile]}{TILES[tile + 1]}{TILES[tile + 2]}"
    else:
        word = f"{_KINDS[kind]} {TILES[tile]}" if kind != K.OPT_PASS else "pass"
    return word + (f", discard {TILES[then]}" if then >= 0 else "")


def _curves(pos: Position, rows, n: int, ctx, tab, work, rs, playouts, seed: int):
    """One :class:`~mjstats.analysis.exact.Curve` per option (exact for shanten <= 1,
    Monte Carlo beyond; a ``win`` option: P = 1 and its payment when legal).

    ``playouts`` None: :data:`DEFAULT_PLAYOUTS` per Monte Carlo row when no option
    is exact (the best option has shanten >= 2), else none (those rows stay empty).
    The discards of a 14-tile position share one run (the same walls). Only the
    ruleset's tiles are drawn."""
    unseen = pos.unseen()
    outside = np.ones(34, bool)
    outside[list(rs.tiles)] = False
    unseen[outside] = 0
    k_max = pos.wall_left
    out: list = [None] * n
    pending = []
    for r in range(n):
        row = rows[r]
        kind, tile, then = int(row[K.S_OPTION]), int(row[K.S_TILE]), int(row[K.S_THEN])
        if kind == K.OPT_WIN:
            legal = bool(row[K.S_WIN_LEGAL])
            pay = float(rs.payment(int(row[K.S_WIN_FAN]), False)) if legal else np.nan
            one = np.ones(1) if legal else np.full(1, np.nan)
            zero = np.zeros(1)
            out[r] = X.Curve("win" if legal else "", one, np.full(1, pay), zero, zero.copy(), -1)
            continue
        counts, melds, n_melds = _option_hand(pos, kind, tile, then)
        out[r] = X.exact_curve(counts, melds, n_melds, unseen, k_max, ctx, tab, work, rs)
        if out[r] is None:
            pending.append(r)
    if playouts is None:
        playouts = DEFAULT_PLAYOUTS if all(c is None or c.method == "" for c in out) else 0
    discards = [r for r in pending if rows[r, K.S_OPTION] == K.OPT_DISCARD]
    if discards:
        cands = np.array([rows[r, K.S_TILE] for r in discards], np.int64)
        curves = X.mc_curves(
            pos.concealed, cands, pos.melds, pos.n_melds, unseen, k_max, ctx, tab, rs,
            playouts, seed,
        )  # fmt: skip
        for r, c in zip(discards, curves, strict=True):
            out[r] = c
    for r in pending:
        if out[r] is None:
            row = rows[r]
            counts, melds, n_melds = _option_hand(
                pos, int(row[K.S_OPTION]), int(row[K.S_TILE]), int(row[K.S_THEN])
            )
            (out[r],) = X.mc_curves(
                counts, [-1], melds, n_melds, unseen, k_max, ctx, tab, rs, playouts, seed
            )
    return out


def _last(a: np.ndarray) -> float:
    return float(a[-1]) if len(a) else 0.0


class AnalysisTable(pd.DataFrame):
    """The table of :func:`analyze`: a pandas DataFrame that Jupyter draws with tile
    pictures (:func:`mjstats.html.analysis_html`); ``to_html_file`` writes that view.

    Whatever is derived from it (a selection, a sort, a copy) is a plain
    DataFrame: the picture view needs the table's own columns.

    Examples
    --------
    >>> t = analyze("123m456p789s11334z")
    >>> type(t).__name__, type(t[["option", "p_win"]]).__name__
    ('AnalysisTable', 'DataFrame')
    >>> "<svg" in t._repr_html_()
    True
    """

    @property
    def _constructor(self):
        return pd.DataFrame

    def _repr_html_(self) -> str:
        return analysis_html(self)

    def to_html_file(self, path) -> None:
        """Write the picture view as a standalone HTML page.

        Examples
        --------
        >>> import pathlib, tempfile
        >>> p = pathlib.Path(tempfile.mkdtemp()) / "t.html"
        >>> analyze("123m456p789s11334z").to_html_file(p)
        >>> p.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
        True
        """
        page = (
            "<!DOCTYPE html>\n<html><head><meta charset='utf-8'><title>mjstats analysis</title>"
            "<style>body{font-family:sans-serif}table{border-collapse:collapse}"
            "td,th{padding:2px 8px;border-bottom:1px solid #ddd;vertical-align:middle}</style>"
            f"</head><body>{analysis_html(self)}</body></html>\n"
        )
        with open(path, "w", encoding="utf-8") as f:
            f.write(page)


def _frame(pos: Position, rows: np.ndarray, totals: np.ndarray, n: int, ctx, tab, work, name,
           curves):  # fmt: skip
    unseen = pos.unseen()
    data = []
    for r in range(n):
        row = rows[r]
        kind, tile, then = int(row[K.S_OPTION]), int(row[K.S_TILE]), int(row[K.S_THEN])
        win = kind == K.OPT_WIN
        c = curves[r]
        rec = {
            "option": _option_text(kind, tile, then),
            "kind": _KINDS[kind],
            "tile": TILES[tile],
            "then": TILES[then] if then >= 0 else "",
            "shanten": int(row[K.S_SHANTEN]),
        }
        for f, col in enumerate(_FORM_COLS):
            v = int(row[K.S_FORM + f])
            rec[col] = pd.NA if v >= K.IMPOSSIBLE else v
        legal = int(row[K.S_LEGAL])
        rec.update(
            useful=_mask_text(int(row[K.S_USEFUL])),
            useful_copies=int(row[K.S_USEFUL_COPIES]),
            legal_useful=_mask_text(legal),
            legal_copies=int(row[K.S_LEGAL_COPIES]),
            win_fans=(
                f"{int(row[K.S_WIN_FAN])}" + ("" if row[K.S_WIN_LEGAL] else " (below minimum)")
                if win
                else " ".join(
                    f"{TILES[t]}:{int(totals[r, t])}"
                    for t in range(34)
                    if (legal >> t) & 1 and row[K.S_SHANTEN] == 0
                )
            ),
            kaizen=_mask_text(int(row[K.S_KAIZEN])),
            kaizen_copies=int(row[K.S_KAIZEN_COPIES]),
            kaizen_best=int(row[K.S_KAIZEN_BEST]),
            second_step=(
                row[K.S_SECOND_NUM] / row[K.S_SECOND_DEN] if row[K.S_SECOND_DEN] else np.nan
            ),
            p_win=_last(c.p_win),
            p_win_se=_last(c.p_win_se),
            exp_points=_last(c.exp_points),
            exp_points_se=_last(c.exp_points_se),
            method=c.method if len(c.p_win) else "exact",
            plans=_plans(pos, kind, tile, then, unseen, ctx, tab, work, name),
        )
        rec["_legal_win"] = win and bool(row[K.S_WIN_LEGAL])
        data.append(rec)
    df = pd.DataFrame(data, columns=[*COLUMNS, "_legal_win"])
    df["_any_legal"] = df["legal_copies"] > 0
    df["_points"] = df["exp_points"].fillna(0.0)  # not estimated (--no-mc): ranks as 0
    df = df.sort_values(
        ["_legal_win", "_points", "_any_legal", "shanten", "legal_copies", "useful_copies",
         "second_step"],
        ascending=[False, False, False, True, False, False, False],
        kind="stable",
    )  # fmt: skip
    return AnalysisTable(df[COLUMNS].reset_index(drop=True))


def _inputs(pos: Position, ruleset):
    ctx = D.policy_context(ruleset, 0, pos.seat_wind, pos.round_wind)
    return ctx, get_tables()


def _evaluate(pos: Any, ruleset: str, position_options: dict):
    if not isinstance(pos, Position):
        pos = position(pos, **position_options)
    elif position_options:
        raise InvalidArgumentError("options are given with hand text, not with a Position")
    rs = get_ruleset(ruleset)
    ctx, tab = _inputs(pos, rs)
    work = D.new_policy_work(len(rs.fans), suit_table())
    rows = np.zeros((K.MAX_OPTIONS, K.N_SLOTS), np.int64)
    totals = np.zeros((K.MAX_OPTIONS, 34), np.int64)
    n = K.evaluate_options(
        pos.concealed.copy(), pos.melds, pos.n_melds, pos.unseen(), pos.discard, pos.from_seat,
        ctx, tab, work, rows, totals,
    )  # fmt: skip
    return pos, rs, ctx, tab, work, rows, totals, n


def _check_playouts(playouts: Any) -> int | None:
    if playouts is None:
        return None
    if not isinstance(playouts, (int, np.integer)) or isinstance(playouts, bool) or playouts < 0:
        raise InvalidArgumentError(f"playouts must be an integer >= 0, got {playouts!r}")
    return int(playouts)


def analyze(
    pos: Any,
    ruleset: str = "mcr",
    *,
    playouts: int | None = None,
    seed: int = 1,
    **position_options: Any,
) -> pd.DataFrame:
    """The analysis table of a position: one row per option, best first.

    Parameters
    ----------
    pos : Position or str
        A :class:`~mjstats.analysis.Position`, or hand text read by
        :func:`~mjstats.analysis.position` with ``position_options`` (``seen``,
        ``wall_left``, ``discard``, ``from_seat``, winds, flowers).
    ruleset : str
        The ruleset whose minimum and fans decide legality (default MCR).
    playouts : int, optional
        Monte Carlo playouts per option of shanten 2 or more (0: none, their
        ``p_win`` and ``exp_points`` stay empty and ``method`` is ``""``). By
        default :data:`DEFAULT_PLAYOUTS` when the best option has shanten 2 or
        more, and none when some option is exact (shanten <= 1): a table of a
        1-shanten position stays fast.
    seed : int
        Seed of the playouts.

    Returns
    -------
    pandas.DataFrame
        Columns :data:`COLUMNS` (``docs/analysis.md`` defines each). Ranked: a
        legal win first; then higher ``exp_points`` (an empty one counts 0);
        then options with legal-useful tiles before those without; then lower
        shanten, more legal-useful copies, more useful copies, a wider second
        step.

    Examples
    --------
    >>> t = analyze("123m456p789s11334z")
    >>> t.loc[0, "option"], int(t.loc[0, "shanten"]), t.loc[0, "legal_useful"]
    ('discard 4z', 0, '1z 3z')
    >>> t.loc[0, "win_fans"]  # fan total of each legal self-drawn win (flowers excluded)
    '1z:16 3z:13'
    >>> t.loc[0, "method"], round(float(t.loc[0, "p_win"]), 4)  # 10 draws (wall_left)
    ('exact', 0.2929)
    """
    playouts = _check_playouts(playouts)
    pos, rs, ctx, tab, work, rows, totals, n = _evaluate(pos, ruleset, position_options)
    curves = _curves(pos, rows, n, ctx, tab, work, rs, playouts, seed)
    return _frame(pos, rows, totals, n, ctx, tab, work, _plan_names(rs)["name"], curves)


def win_curves(
    pos: Any,
    ruleset: str = "mcr",
    *,
    playouts: int | None = None,
    seed: int = 1,
    **position_options: Any,
) -> pd.DataFrame:
    """P(legal win within k draws) and E[points] of every option, for k = 1 .. wall_left.

    One row per option and horizon ``k``: ``option``, ``k``, ``p_win``,
    ``p_win_se``, ``exp_points``, ``exp_points_se``, ``method`` (as in
    :func:`analyze`, whose ``p_win`` and ``exp_points`` are the rows of
    ``k = wall_left``; each horizon has its own best discards). Options in
    :func:`analyze`'s order; a Monte Carlo row's ``exp_points`` at ``k`` counts
    the wins within ``k`` draws of playouts that play for the full horizon. A
    ``win`` option has one row (k = 0).

    Examples
    --------
    >>> c = win_curves("123m456p789s11334z", wall_left=3)
    >>> c[c["option"] == "discard 4z"][["k", "method"]].values.tolist()
    [[1, 'exact'], [2, 'exact'], [3, 'exact']]
    >>> c[c["option"] == "discard 4z"]["p_win"].round(4).tolist()  # 1z, 3z: 4 of 122
    [0.0328, 0.0648, 0.0959]
    """
    playouts = _check_playouts(playouts)
    pos, rs, ctx, tab, work, rows, totals, n = _evaluate(pos, ruleset, position_options)
    curves = _curves(pos, rows, n, ctx, tab, work, rs, playouts, seed)
    table = _frame(pos, rows, totals, n, ctx, tab, work, _plan_names(rs)["name"], curves)
    by_option = {}
    for r in range(n):
        row = rows[r]
        text = _option_text(int(row[K.S_OPTION]), int(row[K.S_TILE]), int(row[K.S_THEN]))
        by_option[text] = curves[r]
    parts = []
    for text in table["option"]:
        c = by_option[text]
        ks = np.zeros(1, np.int64) if c.method == "win" else np.arange(1, len(c.p_win) + 1)
        parts.append(
            pd.DataFrame(
                {
                    "option": text,
                    "k": ks,
                    "p_win": c.p_win,
                    "p_win_se": c.p_win_se,
                    "exp_points": c.exp_points,
                    "exp_points_se": c.exp_points_se,
                    "method": c.method,
                }
            )
        )
    cols = ["option", "k", "p_win", "p_win_se", "exp_points", "exp_points_se", "method"]
    if not parts:
        return pd.DataFrame(columns=cols)
    return pd.concat(parts, ignore_index=True)[cols]


def option_curves(
    pos: Position, ruleset: Any = "mcr", *, playouts: int = DEFAULT_PLAYOUTS, seed: int = 1
) -> list[tuple[str, int, int, X.Curve]]:
    """Every option of a position with its win chances, for programs (the review).

    Unlike :func:`analyze`, every option without an exact curve gets ``playouts``
    Monte Carlo playouts (not only when no option is exact), and nothing else of
    the table is built.

    Returns
    -------
    list of (kind, tile, then, Curve)
        In the kernel's option order (not ranked): the option's kind (as the
        table's ``kind`` column), its tile (a chow's lowest tile), a claim's
        discard after it (-1: none) and its :class:`~mjstats.analysis.exact.Curve`.

    Examples
    --------
    >>> p = position("123m456p789s11334z", wall_left=5)
    >>> kind, tile, then, curve = option_curves(p)[-1]
    >>> kind, TILES[tile], then, curve.method, round(float(curve.exp_points[-1]), 2)
    ('discard', '4z', -1, 'exact', 10.53)
    """
    playouts = _check_playouts(playouts)
    pos, rs, ctx, tab, work, rows, _, n = _evaluate(pos, ruleset, {})
    curves = _curves(pos, rows, n, ctx, tab, work, rs, playouts, seed)
    kind, tile, then = (rows[:n, slot].tolist() for slot in (K.S_OPTION, K.S_TILE, K.S_THEN))
    return [(_KINDS[kind[r]], tile[r], then[r], curves[r]) for r in range(n)]


_BATCH_GROUPS = {
    "useful": K.WHAT_USEFUL,
    "legal": K.WHAT_LEGAL,
    "kaizen": K.WHAT_KAIZEN,
    "second_step": K.WHAT_SECOND,
}
_BLOCK = 4096  # positions per kernel call (bounds the (block, 20, 21) row buffer)
# Row buffers kept between calls: a fresh 14 MB buffer costs ~0.1 s of page faults on
# first touch (more than the kernel's useful columns of its 4,096 positions).
_ROW_BUFFERS: list[np.ndarray] = []
_ROW_BUFFERS_LOCK = threading.Lock()


def _take_rows(m: int) -> np.ndarray:
    """A row buffer for ``m <= _BLOCK`` positions (reused across calls and threads)."""
    with _ROW_BUFFERS_LOCK:
        buf = _ROW_BUFFERS.pop() if _ROW_BUFFERS else None
    if buf is None:
        buf = np.empty((_BLOCK, K.MAX_OPTIONS, K.N_SLOTS), np.int64)
    return buf[:m]


def _give_rows(buf: np.ndarray) -> None:
    base = buf if buf.base is None else buf.base
    with _ROW_BUFFERS_LOCK:
        if len(_ROW_BUFFERS) < 2:
            _ROW_BUFFERS.append(base)


def _what(columns) -> int:
    """The ``WHAT_*`` bits of ``columns`` (``"all"``, a group name or a list of them)."""
    if isinstance(columns, str):
        columns = list(_BATCH_GROUPS) if columns == "all" else [columns]
    what = K.WHAT_USEFUL
    for name in columns:
        if name not in _BATCH_GROUPS:
            raise InvalidArgumentError(
                f"unknown column group {name!r}: choose from 'all', "
                + ", ".join(repr(g) for g in _BATCH_GROUPS)
            )
        what |= _BATCH_GROUPS[name]
    return what


def _context_rows(rs, seat_wind: np.ndarray, round_wind: np.ndarray) -> np.ndarray:
    """(n, CTX_SIZE) policy contexts: one per wind pair, picked per row."""
    table = np.stack([D.policy_context(rs, 0, s, r) for s in range(4) for r in range(4)])
    return table[seat_wind.astype(np.intp) * 4 + round_wind.astype(np.intp)]


def _batch_arrays(concealed, melds, seen, discard, from_seat, seat_wind, round_wind):
    """Validated arrays of the positions of :func:`analyze_batch` (bad rows raise
    :class:`~mjstats.analysis.PositionError` or another ``InvalidHandError``, naming the row)."""
    counts, _ = as_counts34(concealed, name="concealed")
    counts = counts.copy()  # the kernel moves tiles in and out (a HandBatch is read-only)
    n = len(counts)
    melds = as_melds(melds, n)
    n_melds = (melds[:, :, 0] > 0).sum(axis=1).astype(np.int64)
    if seen is None:
        vis = np.zeros((n, 34), np.uint8)
    else:
        vis, one = as_counts34(seen, name="seen")
        if one:
            vis = np.repeat(vis, n, axis=0)
        elif len(vis) != n:
            raise InvalidArgumentError(f"seen must have shape (34,) or ({n}, 34), got {vis.shape}")
    if discard is None:
        d = np.full(n, -1, np.int64)
    else:
        d = as_row_vector(discard, n, np.int64, "discard")
        fail_rows(
            (d < -1) | (d > 33),
            "discard must be a tile id 0-33, or -1 on the player's own turn",
            error=PositionError,
            detail=d,
        )
    seat = as_int_rows(seat_wind, n, "seat_wind", hi=3)
    rnd = as_int_rows(round_wind, n, "round_wind", hi=3)
    fs = as_row_vector(from_seat, n, np.int64, "from_seat")
    answer = d >= 0
    fail_rows(
        answer & ((fs < 1) | (fs > 3)),
        "from_seat must be 1 (left), 2 (across) or 3 (right)",
        error=PositionError,
        detail=fs,
    )
    fs = np.where(answer, fs, 0)
    size = counts.sum(axis=1, dtype=np.int64) + 3 * n_melds
    fail_rows(
        size != np.where(answer, 13, 14),
        lambda r: (
            "a position answering a discard holds 13 tiles (a meld counts 3)"
            if answer[r]
            else "a position on the player's turn holds 14 tiles (a meld counts 3)"
        ),
        error=PositionError,
        detail=size,
    )
    visible = hand_totals34(counts, melds).astype(np.int64) + vis
    visible[np.flatnonzero(answer), d[answer]] += 1
    over = visible > 4
    fail_rows(
        over,
        lambda r: (
            "a fifth copy of "
            + ", ".join(TILES[t] for t in np.flatnonzero(over[r]))
            + " across the hand, its melds, the seen tiles and the discard"
        ),
        error=PositionError,
    )
    return counts, melds, n_melds, 4 - visible, d, fs, seat, rnd


def _position_arrays(pos: list[Position]):
    """The arrays of :func:`_batch_arrays` from :class:`Position` objects (already valid)."""
    n = len(pos)
    if not n:
        z = np.zeros(0, np.int64)
        return (np.zeros((0, 34), np.uint8), np.zeros((0, 4, 2), np.uint8), z,
                np.zeros((0, 34), np.int64), z, z, z, z)  # fmt: skip
    return (
        np.stack([p.concealed for p in pos]).astype(np.uint8),
        np.stack([p.melds for p in pos]).astype(np.uint8),
        np.array([p.n_melds for p in pos], np.int64),
        np.stack([p.unseen() for p in pos]).astype(np.int64),
        np.array([p.discard for p in pos], np.int64),
        np.array([p.from_seat for p in pos], np.int64),
        np.array([p.seat_wind for p in pos], np.int64),
        np.array([p.round_wind for p in pos], np.int64),
    )


def analyze_batch(
    positions,
    ruleset: str = "mcr",
    *,
    melds=None,
    seen=None,
    discard=None,
    from_seat=1,
    seat_wind=0,
    round_wind=0,
    columns="all",
) -> pd.DataFrame:
    """The kernel columns of many positions at once (numba, parallel over positions).

    One row per position and option: ``position`` (its index), ``kind``,
    ``tile``, ``then``, ``shanten``, ``useful_copies``, ``legal_copies``,
    ``kaizen_copies``, ``second_step`` and the masks ``useful_mask``,
    ``legal_mask``, ``kaizen_mask`` (bit t = tile t), as :func:`analyze`
    defines them, in option order (not ranked).

    Parameters
    ----------
    positions : array_like, HandBatch or sequence of Position or str
        The fast path: an (n, 34) array of concealed counts (14 tiles, a meld
        counting 3, on the player's turn; 13 where ``discard`` names a tile to
        answer) with ``melds``, ``seen``, ``discard``, ``from_seat`` and the
        winds as arrays (or scalars for all rows), validated at once; or a
        :class:`~mjstats.HandBatch` (its concealed tiles, melds and winds; the
        other arrays as above). A sequence of :class:`Position` objects or hand
        texts (read by :func:`position`) is read one by one.
    ruleset : str
        The ruleset whose minimum and fans decide legality (default MCR).
    melds : array_like, optional
        (n, k, 2) ``[kind, tile]`` meld slots (as :class:`~mjstats.HandBatch`).
    seen : array_like, optional
        (34,) or (n, 34) counts of the tiles visible elsewhere.
    discard : int or array_like, optional
        The tile each position answers, -1 on the player's own turn (default).
    from_seat : int or array_like
        Who discarded it: 1 left (chow allowed), 2 across, 3 right.
    seat_wind, round_wind : int or array_like
        0-3 (East, South, West, North).
    columns : str or list of str
        ``"all"`` (default), or the column groups to compute beside shanten and
        the useful tiles (always there): ``"legal"`` (``legal_copies``,
        ``legal_mask``), ``"kaizen"`` (``kaizen_copies``, ``kaizen_mask``),
        ``"second_step"``; ``"useful"`` alone is the fast path. A group left
        out is not computed and its columns are not in the frame; the values of
        the others are those of ``"all"`` (a claim still picks its discard by
        every column).

    Raises
    ------
    PositionError
        A row of the wrong size for its kind of position, a fifth copy across
        the hand, its melds, the seen tiles and the discard, a bad discard or
        ``from_seat`` (the message names the first bad row).
    InvalidHandError
        Bad counts, melds or winds (naming the row).

    Examples
    --------
    >>> b = analyze_batch(["123m456p789s11334z", "19m19p19s12345677z"])
    >>> b.groupby("position").size().tolist()
    [12, 13]
    >>> from mjstats.tiles import parse_tiles
    >>> c = np.stack([parse_tiles("123m456p789s11334z"), parse_tiles("123m456p789s1133z")])
    >>> f = analyze_batch(c, discard=[-1, 27], from_seat=2, columns="useful")
    >>> f[f["position"] == 1][["kind", "shanten", "useful_copies"]].values.tolist()
    [['pass', 0, 3], ['win', -1, 0], ['pung', 0, 7]]
    """
    what = _what(columns)
    rs = get_ruleset(ruleset)
    if isinstance(positions, HandBatch):
        arrays = _batch_arrays(
            positions.concealed, positions.melds, seen, discard, from_seat,
            positions.seat_wind, positions.round_wind,
        )  # fmt: skip
    elif isinstance(positions, np.ndarray) or (
        isinstance(positions, (list, tuple))
        and len(positions)
        and not isinstance(positions[0], (Position, str))
    ):
        arrays = _batch_arrays(positions, melds, seen, discard, from_seat, seat_wind, round_wind)
    else:
        pos = [p if isinstance(p, Position) else position(p) for p in positions]
        arrays = _position_arrays(pos)
    counts, mel, n_melds, unseen, d, fs, seat, rnd = arrays
    counts = np.ascontiguousarray(counts, dtype=np.uint8)
    unseen = np.ascontiguousarray(unseen, dtype=np.int64)
    ctx = _context_rows(rs, seat, rnd)
    n = len(counts)
    tab, suits, n_fans = get_tables(), suit_table(), len(rs.fans)
    chunks = 4 * numba.get_num_threads()
    parts = []
    for lo in range(0, n, _BLOCK):
        hi = min(n, lo + _BLOCK)
        rows = _take_rows(hi - lo)
        n_out = np.zeros(hi - lo, np.int64)
        try:
            K.evaluate_batch(
                counts[lo:hi], mel[lo:hi], n_melds[lo:hi], unseen[lo:hi], d[lo:hi], fs[lo:hi],
                ctx[lo:hi], tab, n_fans, suits, what, chunks, rows, n_out,
            )  # fmt: skip
            parts.append(_frame_columns(rows, n_out, lo, what))
        finally:
            _give_rows(rows)
    if not parts:
        parts.append(_frame_columns(np.zeros((0, K.MAX_OPTIONS, K.N_SLOTS), np.int64),
                                    np.zeros(0, np.int64), 0, what))  # fmt: skip
    data = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    data["kind"] = pd.Categorical.from_codes(data["kind"], categories=_KIND_CATEGORIES)
    return pd.DataFrame(data)


def _frame_columns(rows: np.ndarray, n_out: np.ndarray, first: int, what: int) -> dict:
    """The columns of :func:`batch_frame` as arrays; positions numbered from ``first``."""
    n_out = np.asarray(n_out, np.int64)
    pos_idx = np.repeat(np.arange(len(n_out), dtype=np.int64), n_out)
    starts = np.cumsum(n_out) - n_out
    opt_idx = np.arange(len(pos_idx), dtype=np.int64) - np.repeat(starts, n_out)
    flat = rows.reshape(-1, K.N_SLOTS)
    r = np.take(flat, pos_idx * K.MAX_OPTIONS + opt_idx, axis=0)
    out = {
        "position": pos_idx + first,
        "kind": _KIND_CODE[r[:, K.S_OPTION]],  # codes of _KIND_CATEGORIES
        "tile": r[:, K.S_TILE],
        "then": r[:, K.S_THEN],
        "shanten": r[:, K.S_SHANTEN],
        "useful_copies": r[:, K.S_USEFUL_COPIES],
    }
    if what & K.WHAT_LEGAL:
        out["legal_copies"] = r[:, K.S_LEGAL_COPIES]
    if what & K.WHAT_KAIZEN:
        out["kaizen_copies"] = r[:, K.S_KAIZEN_COPIES]
    if what & K.WHAT_SECOND:
        with np.errstate(invalid="ignore", divide="ignore"):
            out["second_step"] = r[:, K.S_SECOND_NUM] / r[:, K.S_SECOND_DEN]
    out["useful_mask"] = r[:, K.S_USEFUL]
    if what & K.WHAT_LEGAL:
        out["legal_mask"] = r[:, K.S_LEGAL]
    if what & K.WHAT_KAIZEN:
        out["kaizen_mask"] = r[:, K.S_KAIZEN]
    return out


def batch_frame(rows: np.ndarray, n_out: np.ndarray, columns="all") -> pd.DataFrame:
    """The rows of :func:`mjstats.analysis.kernels.evaluate_batch` as a DataFrame
    (see :func:`analyze_batch`; ``columns`` as there).

    Examples
    --------
    >>> batch_frame(np.zeros((1, K.MAX_OPTIONS, K.N_SLOTS), np.int64), np.array([0])).shape
    (0, 12)
    """
    data = _frame_columns(rows, n_out, 0, _what(columns))
    data["kind"] = pd.Categorical.from_codes(data["kind"], categories=_KIND_CATEGORIES)
    return pd.DataFrame(data)
