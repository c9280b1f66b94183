"""docs/mcr-rules.md: its Python blocks run as doctests, and every example hand of its
rule-profile table is in them and scores there as under the reference (PyMahjongGB)."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import numpy as np
import pytest

import mjstats

DOC = (Path(__file__).resolve().parents[1] / "docs" / "mcr-rules.md").read_text(encoding="utf-8")
_FENCE = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)
BLOCKS = [(DOC[: m.start()].count("\n") + 1, m.group(1)) for m in _FENCE.finditer(DOC)]
# the hands the blocks score: fans("...")
BLOCK_HANDS = [h for _, code in BLOCKS for h in re.findall(r'fans\("([^"]+)"\)', code)]


def _profile_table() -> str:
    text = DOC.split("## Rule profiles", 1)[1].split("\n## ", 1)[0]
    return "\n".join(line for line in text.splitlines() if re.match(r"\| [WT]\d+ \|", line))


@pytest.mark.parametrize(("line", "code"), BLOCKS, ids=[f"line{n}" for n, _ in BLOCKS])
def test_python_block(line, code):
    parser = doctest.DocTestParser()
    test = parser.get_doctest(code, {}, f"mcr-rules.md:{line}", "mcr-rules.md", line)
    runner = doctest.DocTestRunner()
    runner.run(test, out=lambda text: pytest.fail(text, pytrace=False))
    assert runner.summarize(verbose=False).failed == 0


def test_profile_table_hands_are_in_the_block():
    table = _profile_table()
    assert table.count("\n") >= 9  # W1-W8, T1, T2
    hands = {h for h in re.findall(r"`([^`]*)`", table) if "+" in h}
    assert len(hands) >= 15
    assert hands <= set(BLOCK_HANDS), sorted(hands - set(BLOCK_HANDS))


@pytest.mark.parametrize("text", BLOCK_HANDS)
def test_block_hands_score_as_the_reference(text):
    pytest.importorskip("MahjongGB")
    from mcr_oracle import oracle_args, oracle_fans

    hand = mjstats.parse_hand(text)
    s = mjstats.score(hand)
    total, counts = oracle_fans(
        oracle_args(
            hand.concealed,
            np.array([(int(m.kind), int(m.tile)) for m in hand.melds] or np.zeros((0, 2))),
            hand.win_tile,
            hand.self_drawn,
            hand.last_of_kind,
            hand.kong_win,
            hand.last_of_wall,
            hand.seat_wind,
            hand.round_wind,
            hand.flowers,
        )
    )
    assert s.total == total
    assert {f.id: f.count for f in s.fans} == {
        int(i): int(counts[i]) for i in np.flatnonzero(counts)
    }
