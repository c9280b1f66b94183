"""Readers of real game records.

:func:`read_botzone` reads Botzone's Chinese Standard Mahjong records (the
official text data set and JSON judge logs), replays every game and returns a
:class:`RecordSet`: the winning hands as a :class:`~mjstats.HandBatch` plus what
the judge recorded (fans, totals) as a pandas DataFrame.

Examples
--------
>>> from mjstats.records import read_botzone, RecordError
>>> issubclass(RecordError, ValueError)
True
"""

from __future__ import annotations

from mjstats.records.botzone import FAN_POINTS, RecordError, RecordSet, read_botzone

__all__ = ["FAN_POINTS", "RecordError", "RecordSet", "read_botzone"]
