"""Exceptions raised at the public boundary of mjstats.

Malformed input raises :class:`InvalidHandError` (a :class:`ValueError`) or one of
its subclasses. Domain outcomes such as "not a complete hand" or "below the 8-fan
minimum" are *not* errors: they are reported as codes in result arrays.
"""

from __future__ import annotations

__all__ = [
    "DataFileError",
    "GameError",
    "InvalidArgumentError",
    "InvalidContextError",
    "InvalidHandError",
    "InvalidMeldError",
    "InvalidTileError",
    "RecordError",
    "TileCountError",
    "UnknownRulesetError",
]


class InvalidHandError(ValueError):
    """A hand, tile string or batch is malformed.

    The message names the problem and how to fix it; for text, the position of
    the bad part; in a batch, the first offending row (``"row 1: ..."``) and how
    many rows are bad. Catch this class to catch every input error of mjstats.

    Examples
    --------
    >>> import mjstats
    >>> try:
    ...     mjstats.parse_hand("123m")
    ... except mjstats.InvalidHandError as exc:
    ...     print(type(exc).__name__)
    TileCountError
    """


class InvalidTileError(InvalidHandError):
    """Unknown tile name or notation, or a tile index outside 0-33.

    Examples
    --------
    >>> import mjstats
    >>> mjstats.parse_tiles("19x")
    Traceback (most recent call last):
    ...
    mjstats.errors.InvalidTileError: unexpected 'x' at position 2
    """


class InvalidMeldError(InvalidHandError):
    """Unknown meld kind, or a meld whose tiles cannot form it (e.g. chow 8-9-1).

    Examples
    --------
    >>> from mjstats import Meld
    >>> Meld.chow("8m")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mjstats.errors.InvalidMeldError: a chow cannot start at 8m: give its lowest tile, ...
    """


class TileCountError(InvalidHandError):
    """Wrong number of tiles: more than 4 copies of a kind, or a wrong hand size.

    Examples
    --------
    >>> import mjstats
    >>> mjstats.parse_tiles("11111m")
    Traceback (most recent call last):
    ...
    mjstats.errors.TileCountError: a fifth 1m at position 4: there are only 4 tiles of each kind
    """


class InvalidContextError(InvalidHandError):
    """Win context that contradicts itself or is out of range (wind outside 0-3, ...).

    Examples
    --------
    >>> import mjstats
    >>> mjstats.parse_hand("123456789m1235p seat=X")
    Traceback (most recent call last):
    ...
    mjstats.errors.InvalidContextError: seat_wind 'X' is not a wind: write E, S, W or N (or 0-3)
    """


class InvalidArgumentError(ValueError):
    """An argument outside what the function accepts: a seed, a count, an offset,
    a form or option name of the wrong type or out of range.

    The message names the argument, what it got and what is accepted.

    Examples
    --------
    >>> from mjstats.arguments import check_seed
    >>> check_seed(-1)
    Traceback (most recent call last):
    ...
    mjstats.errors.InvalidArgumentError: seed must be an integer 0 to 2**64-1, got -1
    """


class UnknownRulesetError(ValueError):
    """A ruleset name that :func:`mjstats.rulesets` does not list."""


class DataFileError(ValueError):
    """A saved aggregate or checkpoint that is damaged, foreign or inconsistent.

    The message is one line naming the file and the problem; nothing is resumed
    or reported from such a file.

    Examples
    --------
    >>> from mjstats.studies.aggregate import Aggregate
    >>> Aggregate.from_dict({"format": "something else"})
    Traceback (most recent call last):
    ...
    mjstats.errors.DataFileError: not an mjstats aggregate (missing 'format': 'mjstats-aggregate')
    """


class GameError(ValueError):
    """A game of the engine stopped: a policy (a user's, most likely) returned an
    action that is not legal there, or an engine check failed.

    The message is one line naming the game (its number in the study), the seat,
    the state (phase, turn, last tile, the seat's tiles) and the action. The
    kernels only return an error code; the Python layer raises this.

    Examples
    --------
    >>> from mjstats.games import play_games
    >>> from numba import njit
    >>> @njit
    ... def pung_everything(view, acts, n_acts, ctx, tab, work):
    ...     return 7 * 64 + view[131]  # "pung the last tile", legal or not
    >>> try:
    ...     play_games(1, seed=1, policy=["random", (pung_everything, pung_everything),
    ...                                   "random", "random"])
    ... except GameError as exc:
    ...     print(exc)
    game 0: policy returned an illegal action: seat 1 returned 'pung ...' in its ...
    """


class RecordError(ValueError):
    """A game record is malformed, truncated or inconsistent.

    The message names the source and the line (text data set) or log entry (JSON
    judge log) where the problem was found, and the match id when known.

    Attributes
    ----------
    source : str
        File name (or ``"<text>"`` for records passed as a string).
    line : int or None
        1-based line number in the text data set, or the index of the entry in
        the JSON log's ``logs`` list.
    match_id : str or None
        Botzone match id of the game.
    problem : str
        What is wrong, without the location.

    Examples
    --------
    >>> from mjstats.records import RecordError, read_botzone
    >>> try:
    ...     read_botzone("Match x\\nWind 9\\n")
    ... except RecordError as err:
    ...     print(err.line, err.problem)
    2 bad 'Wind' line (expected 'Wind 0'..'Wind 3')
    """

    def __init__(
        self,
        problem: str,
        source: str,
        line: int | None = None,
        match_id: str | None = None,
        json_entry: bool = False,
    ):
        self.problem = problem
        self.source = source
        self.line = line
        self.match_id = match_id
        self.json_entry = json_entry
        where = source
        if line is not None:
            where += f", log entry {line}" if json_entry else f", line {line}"
        msg = f"{where}: {problem}"
        if match_id:
            msg += f" (match {match_id})"
        super().__init__(msg)

    def __reduce__(self):
        return type(self), (self.problem, self.source, self.line, self.match_id, self.json_entry)
