"""Shanten (向听数), useful tiles (有效牌) and discard tables for MCR hands.

Every function takes the **concealed** tiles of one hand, a (34,) count vector
in tile-index order (see :mod:`mjstats.tiles`), or of many hands, an (N, 34)
matrix, plus the number of melds (exposed sets and kongs, concealed kongs
included) as an int or an (N,) array. Concealed tiles + 3 x melds must be 13
(a waiting hand) or 14 (a hand that has just drawn). A string of tiles
(``"123m456p..."``) is accepted for one hand.

Definition
----------
The shanten of a form is the fewest tile exchanges that reach a complete hand
of that form, minus one, where the complete hand never uses a kind more than 4
times (counting the hand's own concealed tiles; melds are known only by their
number). **-1 = complete** (14 tiles), **0 = ready** (听牌); a 13-tile hand is
always >= 0. Forms: ``"regular"`` (4 - melds sets + a pair), ``"seven_pairs"``
(七对; a kind held 4 times is two pairs, as in MCR), ``"thirteen_orphans"``
(十三幺), ``"honors_knitted"`` (全不靠 / 七星不靠), ``"knitted_straight"``
(组合龙 body + a set + a pair, with at most one meld). A form that the melds rule
out reports :data:`IMPOSSIBLE` (127). By default the minimum over the forms of
the ruleset (for ``"mcr"``: all five) is returned.

Differences from other implementations (all checked in ``tests/test_shanten_diff.py``):

* PyMahjongGB does not apply the four-copy limit, so on a hand whose best
  completion needs a fifth copy of a kind it reports one less
  (``2222m456m778899m``: reference 0 waiting on 2m, here 1) and lists kinds
  whose extra copy would be a fifth as useful. On 1,000,000+ random hands per
  form every disagreement is of this kind (proven by an exhaustive oracle);
  everything else agrees.
* The riichi ``mahjong`` library agrees on the regular form and thirteen
  orphans; its seven pairs need distinct pairs, so it differs on hands holding
  a kind 3 or 4 times (in MCR four of a kind are two pairs).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from mjstats.arguments import check_choice
from mjstats.compiling import notice
from mjstats.errors import (
    InvalidArgumentError,
    InvalidHandError,
    InvalidMeldError,
    TileCountError,
    UnknownRulesetError,
)
from mjstats.html import discard_html
from mjstats.kernels import shanten as K
from mjstats.kernels.tables import get_tables
from mjstats.rulesets import get_ruleset
from mjstats.tiles import TILES, format_tiles, parse_tiles
from mjstats.validation import as_counts34, as_melds, fail_rows

__all__ = [
    "FORMS",
    "IMPOSSIBLE",
    "DiscardTable",
    "discard_table",
    "shanten",
    "useful_copies",
    "useful_tiles",
]

FORMS = ("regular", "seven_pairs", "thirteen_orphans", "honors_knitted", "knitted_straight")
"""Names accepted by ``form=``, in kernel bit order."""

IMPOSSIBLE = 127
"""Shanten of a form that the melds rule out (e.g. seven pairs with a meld)."""

_DEFAULT_FORMS = {"mcr": FORMS}  # until the ruleset modules exist
_SERIAL_BELOW = 8192  # rows: below this, waking the thread pool costs more than it saves
_BIT = np.int64(1) << np.arange(34, dtype=np.int64)


# --------------------------------------------------------------------------- input handling


@cache
def _ruleset_forms(ruleset: str) -> tuple[str, ...]:
    try:
        return tuple(get_ruleset(ruleset).shanten_forms)
    except UnknownRulesetError:
        key = str(ruleset).lower().replace("_", "-")
        if key in _DEFAULT_FORMS:
            return _DEFAULT_FORMS[key]
        raise


def _form_mask(form, ruleset) -> int:
    if form is None:
        names = ruleset.shanten_forms if hasattr(ruleset, "shanten_forms") else None
        names = tuple(names) if names is not None else _ruleset_forms(str(ruleset))
    else:
        if not hasattr(ruleset, "shanten_forms"):
            _ruleset_forms(str(ruleset))  # an unknown ruleset is an error with form= too
        if isinstance(form, str):
            names = (form,)
        elif isinstance(form, list | tuple | set | frozenset | np.ndarray):
            names = tuple(form)
        else:
            raise InvalidArgumentError(
                f"form must be a form name or a sequence of them ({', '.join(FORMS)}), "
                f"got {form!r} ({type(form).__name__})"
            )
    mask = 0
    for name in names:
        check_choice("form", name, FORMS)
        mask |= 1 << FORMS.index(name)
    if not mask:
        raise InvalidArgumentError(f"form= names no form; choose from {', '.join(FORMS)}")
    return mask


def _meld_counts(melds, n: int, single: bool) -> np.ndarray:
    if isinstance(melds, (int, np.integer)) and not isinstance(melds, bool):  # fast path
        if not 0 <= melds <= 4:
            fail_rows(
                np.ones(1, dtype=bool), "melds must be a number of melds 0-4",
                error=InvalidMeldError, detail=np.array([melds]), batch=False,
            )  # fmt: skip
        return np.full(n, melds, dtype=np.uint8)
    arr = np.asarray(melds)
    if arr.ndim >= 2 and arr.shape[-2:] == (4, 2):  # meld slots [kind, tile]
        slots = arr.reshape(-1, 4, 2)  # kinds and tiles checked: not counted blindly
        kinds = as_melds(slots, len(slots), batch=not single)[..., 0]
        arr = (kinds != 0).sum(axis=-1).reshape(arr.shape[:-2])
    if arr.dtype.kind not in "iu":
        raise InvalidMeldError(f"melds must be a number of melds (0-4), got dtype {arr.dtype}")
    if arr.ndim == 0:
        arr = np.broadcast_to(arr, (n,))
    if arr.shape != (n,):
        raise InvalidMeldError(f"melds must be an int or have shape ({n},), got {arr.shape}")
    if n:
        fail_rows(
            (arr < 0) | (arr > 4),
            "melds must be a number of melds 0-4",
            error=InvalidMeldError,
            detail=arr,
            batch=not single,
        )
    return np.ascontiguousarray(arr, dtype=np.uint8)


def _prepare(counts, melds, sizes: tuple[int, ...] | None):
    """Validate and coerce; ``sizes`` lists the allowed concealed + 3 x melds totals
    (``None``: the kernel checks them, see :func:`_check_sizes`)."""
    if isinstance(counts, str):
        counts = parse_tiles(counts)
    matrix, single = as_counts34(counts)
    n = matrix.shape[0]
    mcount = _meld_counts(melds, n, single)
    if n and sizes is not None:
        _check_sizes(matrix, mcount, sizes, single)
    return matrix, mcount, single


def _check_sizes(matrix, mcount, sizes: tuple[int, ...], single: bool) -> None:
    """Raise :class:`TileCountError` naming the rows whose concealed + 3 x melds
    is not one of ``sizes``."""
    total = matrix.sum(axis=1, dtype=np.int64) + 3 * mcount.astype(np.int64)
    what = {(13, 14): "13 or 14", (13,): "13 (a waiting hand)", (14,): "14 (before a discard)"}
    bad = total != sizes[0]
    for size in sizes[1:]:
        bad &= total != size
    fail_rows(
        bad,
        f"concealed tiles + 3 x melds must be {what[sizes]}",
        error=TileCountError,
        detail=total,
        batch=not single,
    )


def _unseen(matrix: np.ndarray, visible, single: bool) -> np.ndarray:
    """4 - in hand - visible, as int64 (N, 34), checking nothing goes below 0."""
    n = matrix.shape[0]
    if visible is None:
        vis = np.zeros((1, 34), dtype=np.uint8)
    else:
        if isinstance(visible, str):
            visible = parse_tiles(visible)
        vis, vis_single = as_counts34(visible, name="visible")
        if not vis_single and vis.shape[0] != n:
            raise InvalidHandError(
                f"visible must have shape (34,) or ({n}, 34), got {np.asarray(visible).shape}"
            )
    unseen = 4 - matrix.astype(np.int64) - vis.astype(np.int64)
    if n:
        fail_rows(
            (unseen < 0).any(axis=1),
            "hand + visible tiles hold more than 4 copies of a kind",
            error=TileCountError,
            batch=not single,
        )
    return unseen


def _expand(masks: np.ndarray) -> np.ndarray:
    """int64 tile masks (...) -> bool (..., 34)."""
    return (masks[..., None] & _BIT) != 0


# --------------------------------------------------------------------------- shanten


@notice("shanten")  # says so while the first call compiles the kernels
def shanten(counts, melds=0, form=None, ruleset="mcr"):
    """Shanten number of one hand or of every row of a batch.

    Parameters
    ----------
    counts : array_like or str
        Concealed tiles: (34,) counts, (N, 34) counts, or a tile string.
    melds : int or array_like
        Number of melds (0-4), scalar or (N,). Meld slot arrays (N, 4, 2) are
        also accepted (non-empty slots are counted).
    form : str or sequence of str, optional
        One form name (see :data:`FORMS`) or several; default: the forms of
        ``ruleset``.
    ruleset : str or Ruleset
        Ruleset whose ``shanten_forms`` the default minimises over.

    Returns
    -------
    numpy.int8 or numpy.ndarray
        A scalar for one (34,) hand, else int8 (N,). -1 complete, 0 ready;
        :data:`IMPOSSIBLE` where no chosen form can be reached with the melds.

    Raises
    ------
    TileCountError
        Concealed tiles + 3 x melds is not 13 or 14, or a kind is held 5 times.
    InvalidHandError
        Malformed input (shape, dtype, negative counts).
    InvalidArgumentError
        ``form`` is not one of :data:`FORMS` (exactly, lower case) or a sequence
        of them; the message lists them.

    Examples
    --------
    >>> import mjstats
    >>> from mjstats.tiles import parse_tiles
    >>> int(mjstats.shanten(parse_tiles("123m456p789s1122z")))   # ready (0)
    0
    >>> int(mjstats.shanten(parse_tiles("123m456p789s11222z")))  # complete (-1)
    -1
    >>> int(mjstats.shanten("19m19p19s1234567z"))       # thirteen orphans, ready
    0
    >>> int(mjstats.shanten("19m19p19s1234567z", form="regular"))   # the maximum
    8
    >>> int(mjstats.shanten("2222m456m778899m"))        # needs a fifth 2m to be ready
    1
    >>> int(mjstats.shanten("1234m", melds=3))          # 3 melds, 4 concealed tiles
    0
    >>> hands = [parse_tiles(h) for h in ("147m258p369s1234z", "123m456p789s1234z")]
    >>> mjstats.shanten(hands)                      # batch: int8 (N,)
    array([0, 2], dtype=int8)
    >>> mjstats.shanten("123m456p789s112z")
    Traceback (most recent call last):
    ...
    mjstats.errors.TileCountError: concealed tiles + 3 x melds must be 13 or 14 (got 12)
    """

    forms = _form_mask(form, ruleset)
    matrix, mcount, single = _prepare(counts, melds, None)  # the kernel counts the tiles
    n = matrix.shape[0]
    out = np.empty(n, dtype=np.int8)
    if n >= _SERIAL_BELOW:
        K.shanten_batch(matrix, mcount, forms, get_tables(), out)
    elif n:
        K.shanten_rows(matrix, mcount, forms, get_tables(), out, 0, n)
    if n and (out == K.WRONG_SIZE).any():
        _check_sizes(matrix, mcount, (13, 14), single)
    return out[0] if single else out


# --------------------------------------------------------------------------- useful tiles


@notice("shanten")
def _useful(counts, melds, form, ruleset):
    forms = _form_mask(form, ruleset)
    matrix, mcount, single = _prepare(counts, melds, (13,))
    n = matrix.shape[0]
    sh = np.empty(n, dtype=np.int8)
    masks = np.empty(n, dtype=np.int64)
    if n >= _SERIAL_BELOW:
        K.useful_batch(matrix, mcount, forms, get_tables(), sh, masks)
    elif n:
        K.useful_rows(matrix, mcount, forms, get_tables(), sh, masks, 0, n)
    return matrix, single, sh, masks


def useful_tiles(counts, melds=0, visible=None, form=None, ruleset="mcr"):
    """Tile kinds whose draw lowers the shanten of a waiting (3k+1) hand.

    A kind counts when drawing one copy lowers the minimum shanten over the
    chosen forms (for a ready hand: the winning tiles). Kinds already held 4
    times never count. With ``visible``, kinds with no unseen copy left are
    dropped (they cannot be drawn); ``useful_tiles(...) == (useful_copies(...) > 0)``.

    Parameters
    ----------
    counts : array_like or str
        Concealed tiles, (34,) or (N, 34); concealed + 3 x melds must be 13.
    melds : int or array_like
        Number of melds (0-4), scalar or (N,).
    visible : array_like or str, optional
        Tiles seen outside the hand (discards, all melds on the table), (34,)
        or (N, 34) counts.
    form, ruleset
        As in :func:`shanten`.

    Returns
    -------
    numpy.ndarray
        bool (34,) for one hand, else (N, 34), in tile-index order.

    Examples
    --------
    >>> from mjstats import useful_tiles
    >>> from mjstats.tiles import TILES
    >>> u = useful_tiles("1112345678999m")            # nine gates: all nine characters
    >>> [TILES[t] for t in u.nonzero()[0]]
    ['1m', '2m', '3m', '4m', '5m', '6m', '7m', '8m', '9m']
    >>> u = useful_tiles("2222m456m778899m")   # 1-shanten: any single wait but a 5th 2m
    >>> int(u.sum()), bool(u[1])
    (33, False)
    >>> useful_tiles("123m456p789s1133z").nonzero()[0].tolist()     # 1z or 3z
    [27, 29]
    >>> useful_tiles("123m456p789s1133z", visible="11z").nonzero()[0].tolist()
    [29]
    """
    matrix, single, _, masks = _useful(counts, melds, form, ruleset)
    useful = _expand(masks)
    if visible is not None:
        useful &= _unseen(matrix, visible, single) > 0
    return useful[0] if single else useful


def useful_copies(counts, melds=0, visible=None, form=None, ruleset="mcr"):
    """Unseen copies of every useful kind (0 for kinds that are not useful).

    Unseen = 4 - in hand - ``visible``. ``useful_copies(...).sum(-1)`` is the
    usual "number of useful tiles" (进张数).

    Parameters
    ----------
    counts, melds, visible, form, ruleset
        As in :func:`useful_tiles`.

    Returns
    -------
    numpy.ndarray
        uint8 (34,) for one hand, else (N, 34).

    Raises
    ------
    TileCountError
        Hand + visible hold more than 4 copies of a kind, or a wrong hand size.

    Examples
    --------
    >>> from mjstats import parse_tiles
    >>> from mjstats.efficiency import useful_copies
    >>> c = useful_copies("123m456p789s1133z")         # ready on 1z or 3z
    >>> int(c.sum()), c[27:30].tolist()
    (4, [2, 0, 2])
    >>> int(useful_copies("123m456p789s1133z", visible=parse_tiles("1z")).sum())
    3
    """
    matrix, single, _, masks = _useful(counts, melds, form, ruleset)
    copies = np.where(_expand(masks), _unseen(matrix, visible, single), 0).astype(np.uint8)
    return copies[0] if single else copies


# --------------------------------------------------------------------------- discard table


@dataclass(frozen=True)
class DiscardTable:
    """What each discard leaves, for 14-tile (3k+2) hands.

    Arrays have a leading hand axis (N, ...) for a batch and none for one hand.
    Column ``t`` is "discard one tile of kind ``t``".

    Attributes
    ----------
    shanten : numpy.ndarray
        int8 (N, 34): shanten after the discard; :data:`IMPOSSIBLE` (127) where
        kind ``t`` is not in the hand, or no chosen form is reachable (so
        ``argmin`` picks a best discard).
    useful_mask : numpy.ndarray
        int64 (N, 34): bit ``u`` set when kind ``u`` is useful after the discard.
    useful_kinds : numpy.ndarray
        uint8 (N, 34): number of useful kinds after the discard.
    useful_copies : numpy.ndarray
        uint8 (N, 34): unseen copies of those kinds (4 - in hand - visible; the
        discarded tile itself is then visible).
    """

    shanten: np.ndarray
    useful_mask: np.ndarray
    useful_kinds: np.ndarray
    useful_copies: np.ndarray

    def useful(self, row: int | None = None) -> np.ndarray:
        """bool (34, 34) ``[discard, kind]`` for one hand (``row`` of a batch).

        Examples
        --------
        >>> from mjstats import discard_table
        >>> u = discard_table("123m456p789s11334z").useful()
        >>> u[30].nonzero()[0].tolist()                  # after cutting 4z: 1z or 3z
        [27, 29]
        """
        masks = self.useful_mask if row is None else self.useful_mask[row]
        if masks.ndim != 1:
            raise ValueError("a batch: pass row=")
        return _expand(masks)

    def to_frame(self, row: int | None = None):
        """One hand's discards as a pandas DataFrame, best first.

        Columns: ``discard`` (MPSZ), ``tile`` (index), ``shanten``, ``kinds``,
        ``copies`` and ``useful`` (the useful kinds in MPSZ). Sorted by shanten,
        then most copies, then tile index.

        Examples
        --------
        >>> from mjstats import discard_table
        >>> df = discard_table("123m456p789s11334z").to_frame()
        >>> print(df.head(3).to_string(index=False))
        discard  tile  shanten  kinds  copies useful
             4z    30        0      2       4    13z
             1m     0        1      4      11 14m13z
             4p    12        1      4      11 47p13z
        """
        import pandas as pd

        sl = (lambda a: a) if row is None else (lambda a: a[row])
        sh = sl(self.shanten)
        if sh.ndim != 1:
            raise ValueError("a batch: pass row=")
        held = np.flatnonzero(sh != IMPOSSIBLE)
        masks = sl(self.useful_mask)
        useful = _expand(masks[held])
        df = pd.DataFrame(
            {
                "discard": [TILES[t] for t in held],
                "tile": held.astype(np.int64),
                "shanten": sh[held].astype(np.int64),
                "kinds": sl(self.useful_kinds)[held].astype(np.int64),
                "copies": sl(self.useful_copies)[held].astype(np.int64),
                "useful": [_mpsz(u) for u in useful],
            }
        )
        df = df.sort_values(["shanten", "copies", "tile"], ascending=[True, False, True])
        return df.reset_index(drop=True)

    def _repr_html_(self) -> str:
        return discard_html(self)


def _mpsz(flags: np.ndarray) -> str:
    return format_tiles(flags.astype(np.uint8))


def discard_table(counts, melds=0, visible=None, form=None, ruleset="mcr") -> DiscardTable:
    """Shanten and useful tiles after each possible discard of 3k+2 hands.

    Parameters
    ----------
    counts : array_like or str
        Concealed tiles, (34,) or (N, 34); concealed + 3 x melds must be 14.
    melds : int or array_like
        Number of melds (0-4), scalar or (N,).
    visible : array_like or str, optional
        Tiles seen outside the hand, (34,) or (N, 34) counts.
    form, ruleset
        As in :func:`shanten`.

    Returns
    -------
    DiscardTable
        Arrays per discard kind; :meth:`DiscardTable.to_frame` for a readable view.

    Examples
    --------
    >>> from mjstats import discard_table
    >>> t = discard_table("123m456p789s11334z")
    >>> int(t.shanten.min()), t.shanten[27:31].tolist()     # 2z not held: IMPOSSIBLE
    (0, [1, 127, 1, 0])
    >>> int(t.shanten.argmin()), int(t.useful_copies[30])  # cut 4z, then 1z/3z: 4 left
    (30, 4)
    """

    forms = _form_mask(form, ruleset)
    matrix, mcount, single = _prepare(counts, melds, (14,))
    n = matrix.shape[0]
    unseen = _unseen(matrix, visible, single)
    sh = np.empty((n, 34), dtype=np.int8)
    masks = np.empty((n, 34), dtype=np.int64)
    if n >= _SERIAL_BELOW // 16:
        K.discard_batch(matrix, mcount, forms, get_tables(), sh, masks)
    elif n:
        K.discard_rows(matrix, mcount, forms, get_tables(), sh, masks, 0, n)
    flags = _expand(masks)  # (N, 34 discards, 34 kinds)
    kinds = flags.sum(axis=-1).astype(np.uint8)
    copies = (flags * np.maximum(unseen, 0)[:, None, :]).sum(axis=-1).astype(np.uint8)
    if single:
        return DiscardTable(sh[0], masks[0], kinds[0], copies[0])
    return DiscardTable(sh, masks, kinds, copies)
