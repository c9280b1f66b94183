"""Readers of real game records.

:func:`read_botzone` reads Botzone's Chinese Standard Mahjong records (the
official text data set and JSON judge logs), replays every game through the game
engine (:mod:`mjstats.records.replay`: :func:`replay` says game by game whether it
is legal and ends as recorded; :func:`record_stats` counts claims, wins and
points per seat) and returns a
:class:`RecordSet`: the winning hands as a :class:`~mjstats.HandBatch` plus what
the judge recorded (fans, totals) as a pandas DataFrame. :func:`check_records`
scores every win and compares it with the judge;
:func:`mjstats.studies.records.records_aggregate` gives the fan statistics of the
real wins as a study aggregate (for :mod:`mjstats.report`).

Examples
--------
>>> from mjstats.records import read_botzone, RecordError
>>> issubclass(RecordError, ValueError)
True
"""

from __future__ import annotations

from mjstats.records.botzone import FAN_POINTS, RecordError, RecordSet, read_botzone
from mjstats.records.check import RecordCheck, check_records
from mjstats.records.replay import record_stats, replay
from mjstats.rulesets.mcr.judge import (
    BOTZONE_OPTIONS,
    JUDGE_NAMES,
    botzone_ruleset,
    judge_fan_counts,
)

__all__ = [
    "BOTZONE_OPTIONS",
    "FAN_POINTS",
    "JUDGE_NAMES",
    "RecordCheck",
    "RecordError",
    "RecordSet",
    "botzone_ruleset",
    "check_records",
    "judge_fan_counts",
    "read_botzone",
    "record_stats",
    "replay",
]
