"""The planner's games beside real play: the realism criterion of the games issue.

The planning policy at every seat on the Botzone wall (as the real-play data set was
played), summed up by :func:`mjstats.studies.realplay.real_play_summary` against the
published statistics of Botzone's 98,208 games (``mjstats/data/real-play-botzone.json``):
the mean |log2 ratio| over real play's 30 commonest fans at most 0.35, at least 25 of
them within a factor 1.5, none beyond 2.5; chows and pungs taken per chance each within
8 percentage points of the published 29.5 % and 49.05 %, their chances counted as the
data set's parser counts them (:mod:`mjstats.games.dataset_count`). The full run is
100,000 games (slow); CI plays 4,000 on the same seed. The games are seeded, so the
figures are the same whatever the threads or chunks.
"""

from __future__ import annotations

import pytest

from mjstats.studies.games import games
from mjstats.studies.realplay import compare_real_play, real_play_summary


@pytest.mark.parametrize(
    "n", [4_000, pytest.param(100_000, id="full", marks=pytest.mark.slow)], ids=str
)
def test_planner_games_look_like_real_play(n):
    agg = games(n, 5, policy="planner", wall="botzone", progress=False)
    s = real_play_summary(compare_real_play(agg))
    assert s["fans"] == 30
    assert s["mean_abs_log2"] <= 0.35, s
    assert s["within_1_5"] >= 25 and s["beyond_2_5"] == 0, s
    assert s["claims_counted"] == "as the data set"
    assert abs(s["chow_rate"] - s["real_chow_rate"]) <= 0.08, s
    assert abs(s["pung_rate"] - s["real_pung_rate"]) <= 0.08, s
