"""The rules a change must keep (docs/architecture.md), as the modules' source shows them.

- The engine knows no database: it imports no platform module (nor Django: the
  engine's own test, ``tests/engine/test_purity.py``, checks every way of importing it).
- The platform reaches a game only through its kind: no module outside a kind's
  package imports it, and no platform module names a game.
- Services never call views, mail or tasks: they queue tasks by name.
- Reads go through selectors, writes through services: the views that answer
  requests, links and replies neither query the ORM nor write to it.
- One way round: no module imports one that imports it back.

Imports made inside functions count, so neither a cycle nor a forbidden import can
hide behind a lazy import; only those under ``if TYPE_CHECKING:`` do not, as they
are never made (they name a type for a checker). A rule between two layers is one
test: ``imports_between(importers, imported)`` lists what breaks it.
"""

import ast
from functools import cache
from pathlib import Path

import pytest

from games.kinds import KIND_NAMES
from games.kinds import PACKAGES as KIND_PACKAGES

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("games", "accounts", "outbox", "coupsite", "ratings")


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


# ---- the engine knows no database ------------------------------------------------------

ENGINES = ("games.engine", *(f"{package}.engine" for package in KIND_PACKAGES.values()))
PLATFORM = (
    "games.models",
    "games.selectors",
    "games.services",
    "games.web",
    "games.mail",
    "games.tasks",
    "games.history",
    "accounts",
    "outbox",
    "coupsite",
    "ratings",
)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("platform", PLATFORM)
def test_the_engine_imports_no_platform_module(engine, platform):
    assert imports_between(engine, platform) == []


@pytest.mark.parametrize("kind", KIND_NAMES)
def test_a_kinds_engine_imports_no_other_part_of_its_kind(kind):
    package = KIND_PACKAGES[kind]
    engine = f"{package}.engine"
    found = imports_between(engine, package)
    assert found  # its modules import one another
    assert [hit for hit in found if not in_layer(hit.split(" -> ")[1], engine)] == []


# ---- the platform reaches a game only through its kind ---------------------------------


@pytest.mark.parametrize("kind", KIND_NAMES)
def test_no_module_outside_a_kind_imports_it(kind):
    package = KIND_PACKAGES[kind]
    importers = {hit.split(" -> ")[0] for layer in PACKAGES for hit in imports_between(layer, package)}
    assert importers  # the kind's own modules import it
    assert sorted(module for module in importers if not in_layer(module, package)) == []


def test_no_platform_module_names_a_game():
    """No string in the platform's code is a game's name (docstrings aside): what
    differs between games is asked of ``KINDS[game.kind]``, never decided by name."""
    named = []
    for path in platform_paths():
        tree = ast.parse(path.read_text())
        docstrings = {id(node.body[0].value) for node in ast.walk(tree) if _has_docstring(node)}
        named += [
            f"{module_name(path)}:{node.lineno} {node.value!r}"
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and node.value in KIND_NAMES and id(node) not in docstrings
        ]
    assert named == []


def _has_docstring(node) -> bool:
    body = getattr(node, "body", None)
    return (
        isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and bool(body)
        and isinstance(body[0], ast.Expr)
        and isinstance(body[0].value, ast.Constant)
    )


def platform_paths() -> list[Path]:
    """The platform's modules: the project's packages, but the game kinds and the migrations."""
    return [
        path
        for package in PACKAGES
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.parts and (ROOT / "games" / "kinds") not in path.parents
    ]


# ---- services never call views, mail or tasks ------------------------------------------


@pytest.mark.parametrize("caller", ["games.web", "games.mail", "games.tasks"])
def test_the_services_never_import_what_calls_them(caller):
    assert imports_between("games.services", caller) == []


# ---- reads through selectors, writes through services ----------------------------------

# The modules that answer a request, an email's link or a reply.
VIEWS = (
    "games.web.views",
    "games.web.pages",
    "games.web.replays",
    "games.mail.views",
    "games.mail.inbound",
    "ratings.views",
)
# What only the ORM has: a model's manager, a queryset's reads, a row's or a manager's writes.
ORM = {
    "objects",
    "filter",
    "exclude",
    "select_related",
    "prefetch_related",
    "values_list",
    "order_by",
    "annotate",
    "aggregate",
    "save",
    "create",
    "bulk_create",
    "get_or_create",
    "update_or_create",
    "bulk_update",
}
ORM_SHORTCUTS = {"get_object_or_404", "get_list_or_404"}


def orm_uses(source: str) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr in ORM:
            found.append(f"{node.lineno}: .{node.attr}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ORM_SHORTCUTS:
            found.append(f"{node.lineno}: {node.func.id}()")
    return sorted(found)


@pytest.mark.parametrize("view", VIEWS)
def test_a_view_reads_through_selectors_and_writes_through_services(view):
    path = ROOT / (view.replace(".", "/") + ".py")
    assert orm_uses(path.read_text()) == []


def test_the_orm_check_sees_a_read_a_write_and_a_shortcut():
    source = "Game.objects.filter(pk=1)\nseat.save()\nget_object_or_404(Game, pk=1)\ncontext.update(a=1)\n"
    assert orm_uses(source) == ["1: .filter", "1: .objects", "2: .save", "3: get_object_or_404()"]
