"""Records read into decisions by one replay (the decisions kernel's) give what the
checker's replay and then the decisions kernel gave before: same games, same rows, same
errors, whatever the size of the sets."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from mjstats.decisions import iter_record_decisions, record_decisions
from mjstats.decisions.table import _decide, _join
from mjstats.errors import RecordError
from mjstats.records.replay import checked_blocks
from mjstats.rulesets.mcr.judge import botzone_ruleset

DATA = Path(__file__).parent / "data" / "botzone"
TEXT = DATA / "sample.txt"
FIELDS = ("rows", "legal", "seen", "walls", "n_wall", "winds", "final", "starts")


def _checked_then_decided(source, skip_bad=False):
    """The path before: every block replayed and checked, then its good games decided."""
    rs = botzone_ruleset()
    parts = []
    for r in checked_blocks(source, rs, skip_bad):
        b = r.block
        idx = np.flatnonzero(r.good)
        if not len(idx):
            continue
        gs, rows, legal, seen, S, err = _decide(b.walls[idx], np.full(len(idx), 136),
                                                b.winds[idx], b.logs, b.starts[idx],
                                                b.n_log[idx], rs, "botzone")  # fmt: skip
        assert (err[:, 0] == 0).all() and (S == r.final[idx]).all()
        parts.append((list(np.asarray(b.match, object)[idx]), rows, legal, seen, S, gs))
    return parts


def _same(ds, parts):
    ids = [x for p in parts for x in p[0]]
    assert ds.ids == ids
    rows = np.concatenate([p[1] for p in parts])
    assert (ds.rows[:, 1:] == rows[:, 1:]).all()
    assert (ds.legal == np.concatenate([p[2] for p in parts])).all()
    assert (ds.seen == np.concatenate([p[3] for p in parts])).all()
    assert (ds.final == np.concatenate([p[4] for p in parts])).all()


def _equal_sets(a, b):
    assert a.ids == b.ids and a.source == b.source and a.players == b.players
    for f in FIELDS:
        assert np.array_equal(getattr(a, f), getattr(b, f)), f


@pytest.mark.parametrize("source", [TEXT, DATA])
def test_one_replay_gives_the_checked_path(source):
    _same(record_decisions(source), _checked_then_decided(source))


@pytest.mark.parametrize("per", [1, 5, 16, None])
def test_sets_of_any_size_join_to_the_same(per):
    whole = record_decisions(DATA)
    sets = list(iter_record_decisions(DATA, block_games=per))
    if per:
        assert max(d.n_games for d in sets) <= per
    _equal_sets(_join(sets, whole.ruleset, "botzone"), whole)


def _broken():
    """The sample with game 3's Score line wrong, and game 9 cut short."""
    games = TEXT.read_text(encoding="utf-8").split("\nMatch ")
    g = games[3].splitlines()
    at = next(i for i, line in enumerate(g) if line.startswith("Score "))
    w = g[at].split()
    g[at] = " ".join([w[0], str(int(w[1]) + 1), *w[2:]])
    games[3] = "\n".join(g)
    g = games[9].splitlines()
    games[9] = "\n".join(g[:8] + g[-3:])
    return "\nMatch ".join(games) + "\n"


def test_bad_games_are_left_out_or_raised_as_before():
    text = _broken()
    ds = record_decisions(text, skip_bad=True)
    parts = _checked_then_decided(text, skip_bad=True)
    assert ds.n_games == 14
    _same(ds, parts)
    with pytest.raises(RecordError) as new:
        record_decisions(text)
    with pytest.raises(RecordError) as old:
        list(checked_blocks(text))
    assert str(new.value) == str(old.value)
