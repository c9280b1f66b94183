"""The in-process benchmark tasks of ``mjstats bench``, one module per theme
(start-up and memory: :mod:`mjstats.bench.startup`).

Each task is a function ``task_<name>(ctx) -> list[row]`` in the module of its
theme, registered by name in :data:`TASK_FUNCS`; ``ctx`` is a
:class:`~mjstats.bench.tasks.context.Context` (the sizes and the hands shared
between tasks). mjstats is always called through its public API
(``mjstats.shanten``, ``mjstats.useful_tiles``, ``mjstats.score_batch``,
``run_study``) on arrays built beforehand, so input validation is part of the
time and array construction is not; peers are called once per hand with their
arguments built beforehand. The one exception, ``shanten_kernel``, times the
batch kernel alone on validated arrays, to show what the input checks of the
public call cost.

=====================================================  ==========================
task                                                   module
=====================================================  ==========================
shanten, shanten_kernel, shanten_regular,              :mod:`.shanten`
shanten_riichi_forms, useful_tiles
score, score_concealed, score_text, score_one          :mod:`.scoring`
exact, dealt, sample, play                             :mod:`.studies`
games                                                  :mod:`.games`
threads, batch_size                                    :mod:`.scaling`
records                                                :mod:`.records`
decisions                                              :mod:`.decisions`
analyze_batch                                          :mod:`.analysis`
=====================================================  ==========================
"""

from __future__ import annotations

from collections.abc import Callable

from mjstats.bench.tasks.analysis import task_analyze_batch
from mjstats.bench.tasks.context import FULL, QUICK, Context, Sizes
from mjstats.bench.tasks.decisions import task_decisions
from mjstats.bench.tasks.games import GAME_GOALS, RIICHI_PUBLISHED, task_games
from mjstats.bench.tasks.records import task_records
from mjstats.bench.tasks.scaling import task_batch_size, task_threads
from mjstats.bench.tasks.scoring import (
    task_score,
    task_score_concealed,
    task_score_one,
    task_score_text,
)
from mjstats.bench.tasks.shanten import (
    task_shanten,
    task_shanten_kernel,
    task_shanten_regular,
    task_shanten_riichi_forms,
    task_useful_tiles,
)
from mjstats.bench.tasks.studies import task_dealt, task_exact, task_play, task_sample

__all__ = ["FULL", "GAME_GOALS", "QUICK", "RIICHI_PUBLISHED", "TASK_FUNCS", "Context", "Sizes"]

TASK_FUNCS: dict[str, Callable[[Context], list[dict]]] = {
    "shanten": task_shanten,
    "shanten_regular": task_shanten_regular,
    "shanten_kernel": task_shanten_kernel,
    "shanten_riichi_forms": task_shanten_riichi_forms,
    "useful_tiles": task_useful_tiles,
    "score": task_score,
    "score_concealed": task_score_concealed,
    "score_text": task_score_text,
    "score_one": task_score_one,
    "exact": task_exact,
    "dealt": task_dealt,
    "sample": task_sample,
    "play": task_play,
    "games": task_games,
    "threads": task_threads,
    "batch_size": task_batch_size,
    "records": task_records,
    "decisions": task_decisions,
    "analyze_batch": task_analyze_batch,
}
"""In-process task name -> function (the start-up and memory tasks are in :mod:`.startup`)."""
