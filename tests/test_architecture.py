"""The project's layers, as its modules' imports show them.

The platform's modules import one another one way: no cycle (services never
import the tasks that call them; they queue tasks by name). Imports made inside
functions count too, so neither a cycle nor a forbidden import can hide behind a
lazy import; only those under ``if TYPE_CHECKING:`` do not, as they are never
made (they name a type for a checker). A rule between two layers is one test:
``imports_between(importers, imported)`` lists what breaks it.
"""

import ast
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("games", "accounts", "outbox", "coupsite")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, modules: set[str]) -> set[str]:
    """The project modules ``path`` imports (a name imported from a package counts
    as its module when it is one)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in made_imports(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found.add(base)
            found |= {f"{base}.{alias.name}" for alias in node.names}
    return {module for module in found if module in modules and module != name}


def made_imports(tree: ast.AST):
    """The import statements of ``tree`` that run: all but those under ``if TYPE_CHECKING:``."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING"):
            yield from (child for orelse in node.orelse for child in made_imports_in(orelse))
            continue
        yield from made_imports_in(node)


def made_imports_in(node: ast.AST):
    if isinstance(node, ast.Import | ast.ImportFrom):
        yield node
    else:
        yield from made_imports(node)


@cache
def project_graph() -> dict[str, set[str]]:
    """Each module of the project's packages (migrations aside) → the project modules it imports."""
    paths = [p for package in PACKAGES for p in (ROOT / package).rglob("*.py") if "migrations" not in p.parts]
    modules = {module_name(path) for path in paths}
    return {module_name(path): imports_of(path, modules) for path in paths}


def in_layer(module: str, layer: str) -> bool:
    """Whether ``module`` is the module or package ``layer`` or inside it."""
    return module == layer or module.startswith(f"{layer}.")


def imports_between(importers: str, imported: str) -> list[str]:
    """Every import of a module of the layer ``imported`` by a module of the layer
    ``importers`` (each a module or package name), as ``"importer -> imported"``.
    A layer with no module fails: a rule about nothing would always hold."""
    graph = project_graph()
    for layer in (importers, imported):
        assert any(in_layer(module, layer) for module in graph), f"no module of the project is in {layer}"
    return sorted(
        f"{module} -> {target}"
        for module, targets in graph.items()
        if in_layer(module, importers)
        for target in targets
        if in_layer(target, imported)
    )


def find_cycle(graph: dict[str, set[str]]) -> list[str]:
    state, stack = {}, []

    def visit(module):
        state[module] = "open"
        stack.append(module)
        for imported in sorted(graph.get(module, ())):
            if state.get(imported) == "open":
                return stack[stack.index(imported) :] + [imported]
            if imported not in state and (cycle := visit(imported)):
                return cycle
        stack.pop()
        state[module] = "done"
        return []

    for module in sorted(graph):
        if module not in state and (cycle := visit(module)):
            return cycle
    return []


def test_the_platform_modules_import_one_another_without_a_cycle():
    graph = project_graph()
    assert {"games.services.play", "games.mail.emails"} <= graph["games.tasks"]  # the parser sees relative imports
    assert find_cycle(graph) == []


def test_the_cycle_finder_finds_one():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]


def test_an_import_for_a_type_checker_alone_is_not_made_and_a_lazy_one_is():
    tree = ast.parse(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import a\nelse:\n    import b\n"
        "def f():\n    import c\n"
    )
    made = [node.module if isinstance(node, ast.ImportFrom) else node.names[0].name for node in made_imports(tree)]
    assert made == ["typing", "b", "c"]


def test_a_rule_between_layers_names_each_import_that_breaks_it():
    assert "games.tasks -> games.services.play" in imports_between("games.tasks", "games.services")
    with pytest.raises(AssertionError, match="no module of the project is in games.nowhere"):
        imports_between("games.nowhere", "games.tasks")


def test_the_services_never_import_the_tasks_or_the_emails():
    assert imports_between("games.services", "games.tasks") == []
    assert imports_between("games.services", "games.mail") == []
