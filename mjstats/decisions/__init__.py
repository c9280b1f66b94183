"""Every decision of every seat as data (:mod:`mjstats.decisions.table`), from Botzone
records and from games the engine played."""

from __future__ import annotations

from mjstats.decisions.dataset import SCALARS, iter_shards, write_decisions
from mjstats.decisions.table import (
    ACTION_KINDS,
    DecisionSet,
    check_decisions,
    decision_set,
    decisions,
    iter_record_decisions,
    played_decisions,
    record_decisions,
)

__all__ = [
    "ACTION_KINDS",
    "SCALARS",
    "DecisionSet",
    "check_decisions",
    "decision_set",
    "decisions",
    "iter_record_decisions",
    "iter_shards",
    "played_decisions",
    "record_decisions",
    "write_decisions",
]
