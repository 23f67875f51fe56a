"""The platform's modules import one another one way: no cycle (services never
import the tasks or the emails that call them; they queue tasks by name),
counting imports made inside functions too, so a cycle cannot hide behind a
lazy import."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
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
    for node in ast.walk(ast.parse(path.read_text())):
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


def project_graph() -> dict[str, set[str]]:
    paths = [p for package in PACKAGES for p in (ROOT / package).rglob("*.py") if "migrations" not in p.parts]
    modules = {module_name(path) for path in paths}
    return {module_name(path): imports_of(path, modules) for path in paths}


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


def test_the_services_never_import_the_tasks_or_the_emails():
    graph = project_graph()
    services = [module for module in graph if module.startswith("games.services")]
    imported = {name for module in services for name in graph[module]}
    assert services and not {name for name in imported if name == "games.tasks" or name.startswith("games.mail")}
