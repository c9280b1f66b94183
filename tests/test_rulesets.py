"""The ruleset layout: one package per ruleset, and generic code that asks the
ruleset object instead of branching on its name (issue 21)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import mjstats
from mjstats.rules import get_ruleset

PACKAGE = Path(mjstats.__file__).parent

# a comparison of something with a ruleset's name, either way round
_NAMES = "|".join(re.escape(n) for n in ("mcr", "two-player", "two_player"))
_BRANCH = re.compile(
    rf"""\.name\s*(==|!=)\s*["']|["']({_NAMES})["']\s*(==|!=)|(==|!=)\s*["']({_NAMES})["']"""
    rf"""|\bin\s*\(\s*["']({_NAMES})["']"""
)


def test_generic_code_never_branches_on_a_ruleset_name():
    """Outside mjstats/rulesets/, no module compares a ruleset's name: it asks the
    ruleset object (fan table, options, ``Ruleset.kernel``) instead."""
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE)
        if rel.parts[0] == "rulesets":
            continue
        for no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("#", 1)[0]
            if _BRANCH.search(code):
                offenders.append(f"mjstats/{rel}:{no}: {line.strip()}")
    assert not offenders, "branches on a ruleset name:\n" + "\n".join(offenders)


# an import of one ruleset's package or kernel, or a ruleset's kernel id by name
_NAMED = re.compile(
    r"^\s*(from|import)\s.*(rulesets\.(mcr|two_player)\b|kernels(\.| import )(mcr|two_player)\b)"
    r"|RULESET_(IDS|MCR|TWO_PLAYER|ID)\b|ruleset_id\(\s*[\"']"
)
# generic modules that still import MCR's package or kernel, and why
_MCR_USERS = {
    "scorer.py": "MCR's form names as the default",
    "studies/kernels/profile_diff.py": "its fast path is MCR's scorer, for MCR's profiles",
    "records/__init__.py": "Botzone records are MCR games: the judge's options and names",
    "records/botzone.py": "Botzone records are MCR games",
    "records/check.py": "Botzone records are MCR games, scored with the judge's options",
    "records/reader.py": "the judge's fan names and points are MCR's",
    "records/replay.py": "Botzone records replay under the judge's MCR options",
    "games/records.py": "played games are written with the judge's (MCR) fan names",
}


def test_generic_code_names_no_ruleset():
    """Outside mjstats/rulesets/, no module dispatches on a ruleset's id by name
    (ids come from the registry, :func:`mjstats.rulesets.ruleset_id`), and only
    the listed ones import a ruleset's package or kernel: adding a ruleset
    touches only its own package."""
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE)
        if rel.parts[0] == "rulesets" or rel.as_posix() in _MCR_USERS:
            continue
        for no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if _NAMED.search(line.split("#", 1)[0]):
                offenders.append(f"mjstats/{rel}:{no}: {line.strip()}")
    assert not offenders, "names a ruleset:\n" + "\n".join(offenders)
    for rel in _MCR_USERS:
        assert (PACKAGE / rel).exists(), rel


def test_the_grep_catches_a_named_ruleset():
    assert _NAMED.search("from mjstats.kernels import mcr, two_player")
    assert _NAMED.search("from mjstats.rulesets.two_player.binding import RULESET_ID")
    assert _NAMED.search('RULESET_MCR = RULESET_IDS["mcr"]')
    assert _NAMED.search('rid = ruleset_id("mcr")')
    assert not _NAMED.search("from mjstats.rulesets import ruleset_id")


def test_the_grep_catches_a_branch():
    assert _BRANCH.search('if rs.name == "mcr":')
    assert _BRANCH.search("if 'two-player' == name:")
    assert _BRANCH.search('if rs.name not in ("mcr", "two-player"):')
    assert not _BRANCH.search('def score(hand, ruleset="mcr"):')


@pytest.mark.parametrize("name", mjstats.rulesets())
def test_each_ruleset_is_one_package_with_a_binding(name):
    rs = get_ruleset(name)
    assert rs.binding.startswith("mjstats.rulesets.")
    binding = rs.kernel
    for attr in (
        "BATCH_FIELDS", "TAKES_OPTS", "FAN_PLANS", "score_rows", "score_rows_serial", "opts",
        "check_context", "new_work", "score", "score_single",
    ):  # fmt: skip
        assert hasattr(binding, attr), attr
    assert isinstance(binding.opts(rs), int)


# A third ruleset added without touching mjstats: tests/third_ruleset/ (two-player
# with 自摸 worth 3), registered in a fresh process (the kernels' dispatch is made
# from the registry once per process).
_THIRD = r"""
import json
import numpy as np
import mjstats
from mjstats.rulesets import register

register("third_ruleset")
from third_ruleset import RULESET as RS, SELF_DRAWN_POINTS

name, extra = RS.name, SELF_DRAWN_POINTS - 1
fan = RS.fan_id("self_drawn")
out = {"names": mjstats.rulesets()}
texts = [("111333555m777z9m+9m", True), ("123m456m789m111z2z+2z", True),
         ("123m456m789m111z2z+2z", False), ("222555m99m123m11z+9m", True)]
hands = [mjstats.parse_hand(t, self_drawn=s) for t, s in texts]
pairs = []
for h in hands:
    a, b = mjstats.score(h, ruleset="two-player"), mjstats.score(h, ruleset=name)
    pairs.append([a.total, b.total, {f.key: f.count for f in b.fans}.get("self_drawn", 0),
                  [f.key for f in a.fans] == [f.key for f in b.fans], b.legal])
out["score"] = pairs
ba, bb = mjstats.score_batch(hands, ruleset="two-player"), mjstats.score_batch(hands, ruleset=name)
out["batch"] = [ba.total.tolist(), bb.total.tolist(), bb.fan_counts[:, fan].tolist(),
                bool((ba.fan_counts == bb.fan_counts).all()), bb.legal.tolist()]
from mjstats.studies.sample import sample
sa, sb = sample(3000, seed=4, ruleset="two-player"), sample(3000, seed=4, ruleset=name)
hist_a, hist_b = sa["total_hist"].sum(axis=0), sb["total_hist"].sum(axis=0)
bins = np.arange(hist_a.shape[0])
out["study"] = [bool((sa["fan_count"] == sb["fan_count"]).all()), int(sb["fan_count"][fan]),
                int(bins @ hist_a), int(bins @ hist_b), int(hist_a[-1]), int(hist_b[-1]),
                int(sa["hands"][0]), int(sb["complete"][0])]
print(json.dumps(out))
"""


def test_a_third_ruleset_registers_from_its_own_package(tmp_path):
    import json
    import os
    import subprocess
    import sys

    tests = Path(__file__).parent
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tests), str(PACKAGE.parent)]))
    run = subprocess.run(
        [sys.executable, "-c", _THIRD], env=env, capture_output=True, text=True, timeout=3000
    )
    assert run.returncode == 0, run.stderr[-3000:]
    out = json.loads(run.stdout.strip().splitlines()[-1])
    assert out["names"] == ["mcr", "two-player", "two-player-zimo3"]
    extra = 3 - 1
    for total_a, total_b, zimo, same_fans, _ in out["score"]:
        assert same_fans and total_a >= 0
        assert total_b == total_a + extra * zimo
    assert any(row[2] for row in out["score"])  # the changed fan is scored
    assert not all(row[2] for row in out["score"])
    ta, tb, zimo, same, legal = out["batch"]
    assert same and tb == [a + extra * z for a, z in zip(ta, zimo, strict=True)]
    assert tb == [row[1] for row in out["score"]]
    assert legal == [row[4] for row in out["score"]]
    same, zimo, sum_a, sum_b, top_a, top_b, hands, complete = out["study"]
    assert same and zimo > 0 and hands == complete == 3000
    assert top_a == top_b == 0  # no total clipped into the last bin
    assert sum_b == sum_a + extra * zimo


def test_register_refuses_a_package_without_a_ruleset():
    from mjstats.rulesets import register

    with pytest.raises(ValueError, match="no RULESET"):
        register("mjstats.rules")
