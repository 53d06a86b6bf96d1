"""The house has no circles: each layer imports only the ones below it, and no file imports
itself back through others.

    reference  <-  oracle  <-  rules_oracle  <-  rules_oracle_cli

The engines know nothing of the oracle; the oracle's machinery (formats, replay, reports,
protocol, conformance) knows nothing of the public API; the public API is a facade over
them; the command line and the pytest plugin use only the public API (tests/api/
test_cli_uses_api.py holds that by name). Every import counts: at the top of a file, inside
a function, or under ``TYPE_CHECKING``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LAYERS = ("reference", "oracle", "rules_oracle", "rules_oracle_cli")
"""From the bottom up: a package may import only those before it (and itself)."""


def module_files() -> dict[str, Path]:
    """Every module of the four packages, by dotted name."""
    found = {}
    for package in LAYERS:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


def imported_names(module: str, path: Path, source: str | None = None) -> Iterator[str]:
    """The dotted names ``module`` imports: ``from a import b`` gives ``a.b`` (the caller
    reduces it to the longest known module: ``a.b`` if b is a module, else ``a``), as
    import-graph tools count it; a package's ``__init__`` that imports its own modules is
    not a circle with them."""
    tree = ast.parse(source if source is not None else path.read_text(encoding="utf-8"))
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                above = package[: len(package) - (node.level - 1)]
                base = ".".join([*above, base] if base else above)
            yield from (f"{base}.{alias.name}" for alias in node.names)


def import_graph(files: dict[str, Path]) -> dict[str, set[str]]:
    """Module -> the project modules it imports (itself left out)."""
    graph: dict[str, set[str]] = {}
    for module, path in files.items():
        targets = set()
        for name in imported_names(module, path):
            while name and name not in files:
                name = name.rpartition(".")[0]
            if name and name != module:
                targets.add(name)
        graph[module] = targets
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph.get(node, ())):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def upward(graph: dict[str, set[str]]) -> list[str]:
    """Every import of a layer above the importer's, as ``importer -> imported``."""
    rank = {package: n for n, package in enumerate(LAYERS)}
    return sorted(
        f"{a} -> {b}"
        for a, targets in graph.items()
        for b in targets
        if rank[b.split(".")[0]] > rank[a.split(".")[0]]
    )


def test_no_file_imports_itself_back() -> None:
    assert cycles(import_graph(module_files())) == []


def test_each_layer_imports_only_the_layers_below() -> None:
    assert upward(import_graph(module_files())) == []


def test_the_checks_see_a_cycle_and_an_upward_import() -> None:
    graph = {
        "oracle.a": {"oracle.b"},
        "oracle.b": {"oracle.c", "reference.x"},
        "oracle.c": {"oracle.a"},
        "reference.x": {"rules_oracle"},
        "rules_oracle": set(),
    }
    assert cycles(graph) == [["oracle.a", "oracle.b", "oracle.c"]]
    assert upward(graph) == ["reference.x -> rules_oracle"]


def test_every_kind_of_import_is_read(tmp_path: Path) -> None:
    source = (
        "from typing import TYPE_CHECKING\n"
        "import oracle.replay\n"
        "from . import sibling\n"
        "from ..formats import log\n"
        "if TYPE_CHECKING:\n"
        "    from rules_oracle import Verdict\n"
        "def f():\n"
        "    from reference.core.game import step\n"
    )
    names = set(imported_names("oracle.html.page", tmp_path / "page.py", source))
    assert {"oracle.replay", "oracle.html.sibling", "oracle.formats.log"} <= names
    assert "oracle.html" not in names  # "from . import sibling" is the sibling's import
    assert {"rules_oracle.Verdict", "reference.core.game.step"} <= names
