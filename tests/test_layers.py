"""The package's imports run one way: down the layers that docs/development.md declares.

The layers are read from the table under "## Layers" in docs/development.md (the one
place they are declared); every module of the package must belong to one. The import
graph is built with :mod:`ast` from every ``import`` of a module, those inside
functions included (only imports under ``if TYPE_CHECKING:`` are left out: they never
run). The test fails on an import from a lower layer into a higher one and on any
circle of imports, within a layer too.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "mjstats"
DOC = ROOT / "docs" / "development.md"


def declared_layers(text: str) -> list[tuple[str, list[str]]]:
    """``[(layer, [module prefixes])]``, bottom first, from the "## Layers" table."""
    section = text.split("\n## Layers", 1)[1].split("\n## ", 1)[0]
    layers = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 2 or not re.match(r"\d+ ", cells[0]):
            continue
        layers.append((cells[0], re.findall(r"`([A-Za-z_][\w.]*)`", cells[1])))
    return layers


def module_names(package: Path) -> dict[str, Path]:
    """Dotted module name -> file, for every ``.py`` file below ``package``."""
    names = {}
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        names[".".join(parts)] = path
    return names


def _type_checking_only(node: ast.AST, parents: dict) -> bool:
    while node in parents:
        node = parents[node]
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            return True
    return False


def import_graph(sources: dict[str, str], packages=frozenset()) -> dict[str, dict[str, int]]:
    """``{module: {imported module: line}}`` over the modules of ``sources``
    (dotted name -> source text; ``packages``: the names that are packages, for
    relative imports); an import names the deepest module it reaches."""

    def known(name: str) -> str:
        while name and name not in sources:
            name = name.rpartition(".")[0]
        return name

    graph: dict[str, dict[str, int]] = {}
    for name, source in sources.items():
        tree = ast.parse(source)
        parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
        package = name if name in packages else name.rpartition(".")[0]
        edges = graph.setdefault(name, {})
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:  # relative: resolve against the importing package
                    parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*parts, base] if base else parts)
                targets = [f"{base}.{a.name}" for a in node.names]
            else:
                continue
            if _type_checking_only(node, parents):
                continue
            for target in targets:
                found = known(target)
                if found and found != name:
                    edges.setdefault(found, node.lineno)
    return graph


def layer_of(module: str, layers: list[tuple[str, list[str]]]) -> int | None:
    best, best_len = None, -1
    for index, (_, prefixes) in enumerate(layers):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best_len:
                best, best_len = index, len(prefix)
    return best


def upward_imports(graph, layers) -> list[str]:
    bad = []
    for module, edges in sorted(graph.items()):
        for target, line in sorted(edges.items()):
            here, there = layer_of(module, layers), layer_of(target, layers)
            if here is not None and there is not None and there > here:
                bad.append(
                    f"{module}:{line} imports {target} "
                    f"({layers[here][0]} -> {layers[there][0]}, a higher layer)"
                )
    return bad


def circles(graph) -> list[list[str]]:
    """The strongly connected components of more than one module (iterative Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, {}))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, {})))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


_FILES = module_names(PACKAGE)
LAYERS = declared_layers(DOC.read_text(encoding="utf-8"))
GRAPH = import_graph(
    {name: path.read_text(encoding="utf-8") for name, path in _FILES.items()},
    {name for name, path in _FILES.items() if path.name == "__init__.py"},
)


def test_every_module_has_a_declared_layer():
    assert len(LAYERS) >= 5, "docs/development.md lost its ## Layers table"
    missing = [m for m in GRAPH if layer_of(m, LAYERS) is None]
    assert not missing, "modules in no layer of docs/development.md: " + ", ".join(missing)
    stale = [p for _, prefixes in LAYERS for p in prefixes if p not in GRAPH]
    assert not stale, "layers name modules that do not exist: " + ", ".join(stale)


def test_imports_run_down_the_layers():
    bad = upward_imports(GRAPH, LAYERS)
    assert not bad, "imports into a higher layer:\n" + "\n".join(bad)


def test_no_import_circles():
    found = circles(GRAPH)
    assert not found, "import circles:\n" + "\n".join(" <-> ".join(c) for c in found)


# ---------------------------------------------------------------- the checks can fail

_TOY_DOC = """
## Layers

| layer | modules |
|---|---|
| 1 low | `toy.low` |
| 2 high | `toy.high`, `toy` |

## Next
"""


def _toy(low: str, high: str = "from toy.low import x\n") -> dict:
    return import_graph({"toy": "", "toy.low": low, "toy.high": high}, {"toy"})


def test_an_upward_import_is_caught():
    layers = declared_layers(_TOY_DOC)
    assert [name for name, _ in layers] == ["1 low", "2 high"]
    assert upward_imports(_toy("x = 1\n"), layers) == []
    deferred = "def f():\n    from toy.high import y\n    return y\n"
    bad = upward_imports(_toy(deferred), layers)
    assert bad == ["toy.low:2 imports toy.high (1 low -> 2 high, a higher layer)"]
    relative = "def f():\n    from .high import y\n"
    assert upward_imports(_toy(relative), layers)


def test_a_circle_is_caught_and_type_checking_imports_are_not_edges():
    assert circles(_toy("import toy.high\n")) == [["toy.high", "toy.low"]]
    guarded = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import toy.high\n"
    assert circles(_toy(guarded)) == []


@pytest.mark.parametrize("name", ["mjstats.rules", "mjstats.rulesets"])
def test_asking_for_a_ruleset_loads_no_study(name):
    """``get_ruleset`` lives in the rulesets layer; only ``mjstats.rules.diff`` runs a study."""
    import subprocess
    import sys

    code = (
        f"import sys; from {name} import get_ruleset; get_ruleset('mcr:wmo-2014'); "
        "print(sorted(m for m in sys.modules if m.startswith(('mjstats.studies', 'numba'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def deferred_without_reason(source: str) -> list[int]:
    """Lines of imports of mjstats modules made inside a function with no comment
    saying why: on the import's own line, or on the comment line(s) just above it
    (a group of imports shares one comment)."""
    tree = ast.parse(source)
    lines = source.splitlines()
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    missing = []
    for node in ast.walk(tree):
        if not isinstance(node, (ast.Import, ast.ImportFrom)) or _type_checking_only(node, parents):
            continue
        names = (
            [node.module or ""]
            if isinstance(node, ast.ImportFrom)
            else [a.name for a in node.names]
        )
        if not any(n == "mjstats" or n.startswith("mjstats.") for n in names):
            continue
        outer = node
        while outer in parents and not isinstance(outer, (ast.FunctionDef, ast.AsyncFunctionDef)):
            outer = parents[outer]
        if outer not in parents and not isinstance(outer, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue  # a module-level import
        row = node.lineno - 1
        while row >= 0 and "#" not in lines[row]:
            above = lines[row - 1].strip() if row else ""
            in_import = above.startswith(("from ", "import ", "#")) or above.endswith((",", "("))
            if not (in_import or above == ")"):
                break
            row -= 1
        if row < 0 or "#" not in lines[row]:
            missing.append(node.lineno)
    return missing


def test_deferred_imports_say_why():
    """An import inside a function remains only where import time needs it, and says so."""
    bad = [
        f"{path.relative_to(ROOT)}:{line}"
        for path in _FILES.values()
        for line in deferred_without_reason(path.read_text(encoding="utf-8"))
    ]
    assert not bad, "deferred imports without a reason comment:\n" + "\n".join(bad)


def test_the_deferred_import_check_can_fail():
    plain = "def f():\n    from mjstats.batch import HandBatch\n    return HandBatch\n"
    assert deferred_without_reason(plain) == [2]
    said = (
        "def f():\n    # deferred: numba loads on first use\n    from mjstats.batch import Batch\n"
    )
    assert deferred_without_reason(said) == []
    assert deferred_without_reason("from mjstats.batch import HandBatch\n") == []
