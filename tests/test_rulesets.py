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
    for attr in ("RULESET_ID", "BATCH_FIELDS", "TAKES_OPTS", "score_rows", "opts", "check_context"):
        assert hasattr(binding, attr), attr
    assert isinstance(binding.opts(rs), int)
