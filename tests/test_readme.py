"""The README is executable: its Python blocks, CLI examples and quickstart commands."""

from __future__ import annotations

import doctest
import re
import shlex
import sys
from pathlib import Path

import pytest

from mjstats.cli import COMMANDS, main

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
TEST_COMMAND = 'pip install -e ".[test]" && pytest'

_FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.MULTILINE | re.DOTALL)


def blocks(language: str) -> list[tuple[int, str]]:
    """(line number, body) of every fenced block in ``language``."""
    return [
        (README[: m.start()].count("\n") + 1, m.group(2))
        for m in _FENCE.finditer(README)
        if m.group(1) == language
    ]


def section(title: str) -> str:
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", README, re.M | re.S)
    assert match, f"README has no section '## {title}'"
    return match.group(1)


PYTHON_BLOCKS = blocks("python")


def test_readme_has_python_examples():
    assert len(PYTHON_BLOCKS) >= 4


@pytest.mark.parametrize(
    ("line", "code"), PYTHON_BLOCKS, ids=[f"line{n}" for n, _ in PYTHON_BLOCKS]
)
def test_python_block(line, code):
    """``>>>`` blocks run as doctests (outputs checked); other blocks run as scripts."""
    if ">>>" in code:
        parser = doctest.DocTestParser()
        test = parser.get_doctest(code, {}, f"README.md:{line}", "README.md", line)
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        runner.run(test, out=lambda text: pytest.fail(text, pytrace=False))
        assert runner.summarize(verbose=False).failed == 0
    else:
        exec(compile(code, f"README.md:{line}", "exec"), {"__name__": "__readme__"})


def _console_examples() -> list[tuple[int, list[str], str]]:
    """(line, argv, expected output) of each ``$ mjstats ...`` in console blocks."""
    examples = []
    for line, body in blocks("console"):
        commands = re.split(r"^\$ ", body, flags=re.M)[1:]
        for cmd in commands:
            first, _, output = cmd.partition("\n")
            argv = shlex.split(first)
            assert argv[0] == "mjstats", first
            examples.append((line, argv[1:], output))
    return examples


CONSOLE = _console_examples()


@pytest.mark.parametrize(
    ("line", "argv", "expected"), CONSOLE, ids=[str(c[1][:1]) for c in CONSOLE]
)
def test_console_example(capsys, line, argv, expected):
    assert argv[0] in COMMANDS or argv[0].startswith("-"), f"README line {line}: {argv}"
    code = main(argv)
    out, err = capsys.readouterr()
    assert out + err == expected, f"README line {line}"
    assert code == (0 if not err else 1)


def test_quickstart_is_exactly_two_commands():
    commands = [body.strip() for _, body in blocks("bash") if _ in section_lines("Quickstart")]
    assert len(commands) == 2, commands
    run_command, test_command = commands
    assert test_command == TEST_COMMAND
    assert run_command.startswith("pip install . && mjstats ")
    # the run command works (its mjstats part)
    assert main(shlex.split(run_command.split("&&", 1)[1])[1:]) == 0


def section_lines(title: str) -> range:
    start = README.index(f"## {title}\n")
    end = README.find("\n## ", start + 1)
    return range(README[:start].count("\n") + 1, README[: end if end > 0 else None].count("\n") + 1)


def test_ci_runs_the_readme_test_command_verbatim():
    ci = (ROOT / ".ci" / "run").read_text()
    assert ci.startswith("#!/usr/bin/env bash\n")
    assert "set -euo pipefail" in ci
    assert any(line.startswith(TEST_COMMAND) for line in ci.splitlines())
    assert (ROOT / ".ci" / "run").stat().st_mode & 0o111, ".ci/run must be executable"


def test_readme_is_short_and_its_links_exist():
    """The README is for users: at most 250 lines, every docs/ page it links to exists."""
    assert README.count("\n") <= 250
    links = re.findall(r"\]\(((?:docs|notebooks)/[^)#]+)\)", README)
    assert len(links) >= 10
    missing = [link for link in links if not (ROOT / link).exists()]
    assert not missing, missing


DOCS = ROOT / "docs"
# docs/mcr-rules.md's examples are checked against the reference by test_mcr_rules_doc.py
DOC_PAGES = sorted(
    p.name
    for p in DOCS.glob("*.md")
    if p.name != "mcr-rules.md" and "```python" in p.read_text(encoding="utf-8")
)
NOT_RUN = "# (not run by the tests"


@pytest.mark.parametrize("page", DOC_PAGES)
def test_docs_python_blocks(page, monkeypatch, tmp_path):
    """Every ``python`` block of a docs page runs, in order, in one namespace
    (``>>>`` blocks as doctests); a block that starts with ``# (not run by the
    tests`` is shown, not run."""
    text = (DOCS / page).read_text(encoding="utf-8")
    monkeypatch.chdir(ROOT)  # pages name repository paths (tests/data/...)
    namespace = {"__name__": "__docs__"}
    for m in _FENCE.finditer(text):
        code = m.group(2)
        if m.group(1) != "python" or code.startswith(NOT_RUN):
            continue
        line = text[: m.start()].count("\n") + 1
        if ">>>" in code:
            test = doctest.DocTestParser().get_doctest(code, namespace, page, page, line)
            runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
            where = f"{page}:{line}"
            runner.run(
                test, out=lambda t, where=where: pytest.fail(f"{where}\n{t}"), clear_globs=False
            )
            assert runner.summarize(verbose=False).failed == 0
        else:
            exec(compile(code, f"{page}:{line}", "exec"), namespace)
    if "matplotlib.pyplot" in sys.modules:  # a page's plots are not left open
        sys.modules["matplotlib.pyplot"].close("all")


# a line of a text block that is a hand: melds or tiles, then "+" and the winning tile
_HAND_LINE = re.compile(r"^\s*[\[{]?[0-9mpsz\[\]{}]{6,}\+[0-9][mpsz]\b.*$")


def _text_block_hands() -> list[tuple[str, int, str]]:
    found = []
    for path in [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]:
        text = path.read_text(encoding="utf-8")
        for m in re.finditer(r"```text\n(.*?)```", text, re.S):
            first = text[: m.start()].count("\n") + 2
            for k, line in enumerate(m.group(1).splitlines()):
                if _HAND_LINE.match(line):
                    found.append((path.name, first + k, line.strip()))
    return found


def test_text_blocks_hold_hands():
    assert any(name == "README.md" for name, _, _ in _text_block_hands())


@pytest.mark.parametrize(("page", "line", "hand"), _text_block_hands())
def test_every_hand_in_a_text_block_is_valid(page, line, hand):
    """A hand written in a ```text block of the README or docs parses (it is read
    by people, who copy it): e.g. no sixth copy of a tile across its melds."""
    from mjstats import parse_hand

    parse_hand(hand.split("#", 1)[0].strip())


def _docs_cli_examples() -> list[tuple[str, int, list[str]]]:
    """(page, line, argv) of every ``mjstats ...`` line in a shell block of docs/."""
    found = []
    for path in sorted(DOCS.glob("*.md")):
        text = path.read_text(encoding="utf-8")
        for m in _FENCE.finditer(text):
            if m.group(1) not in ("bash", "console", "sh", "shell"):
                continue
            first = text[: m.start()].count("\n") + 2
            for k, raw in enumerate(m.group(2).splitlines()):
                line = raw.strip().removeprefix("$ ")
                if line.startswith("mjstats "):
                    argv = shlex.split(line, comments=True)
                    found.append((path.name, first + k, argv[1:]))
    return found


DOCS_CLI = _docs_cli_examples()


@pytest.mark.parametrize(("page", "line", "argv"), DOCS_CLI,
                         ids=[f"{p}:{n}" for p, n, _ in DOCS_CLI])  # fmt: skip
def test_docs_cli_examples_parse(page, line, argv, monkeypatch):
    """Every ``mjstats`` command line of the docs is a valid invocation: its command,
    options, choices and values parse (the run itself may take hours: ``--n
    100000000``); a path made by an earlier example (``results/...``) may be missing."""
    import click

    from mjstats.cli import cli

    monkeypatch.chdir(ROOT)
    args = list(argv)
    group = cli
    while isinstance(group, click.Group) and args and not args[0].startswith("-"):
        name, group, args = group.resolve_command(click.Context(group), args)
        assert group is not None, f"{page}:{line}: no command {name!r}"
    try:
        group.make_context(" ".join(argv[:1]), args)
    except click.BadParameter as exc:
        assert "does not exist" in exc.format_message(), f"{page}:{line}: {exc.format_message()}"
    except click.UsageError as exc:
        pytest.fail(f"{page}:{line}: {' '.join(argv)}: {exc.format_message()}")
