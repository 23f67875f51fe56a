"""The rules engine is pure Python: no module of the generic engine (games/engine/),
of a game kind's engine (games/kinds/*/engine/) or of the registry every kind's
engine is imported through (games/kinds/__init__.py) may import Django."""

import ast
import subprocess
import sys
from pathlib import Path

GAMES = Path(__file__).resolve().parents[2] / "games"
KINDS = sorted(path.parent for path in (GAMES / "kinds").glob("*/engine/__init__.py"))


def is_django(module: str | None) -> bool:
    return module is not None and (module == "django" or module.startswith("django."))


def django_imports(path: Path) -> list[str]:
    """Every way a module can reach Django: import, from-import, importlib / __import__."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found += [f"import {a.name}" for a in node.names if is_django(a.name)]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and is_django(node.module):
            found.append(f"from {node.module} import ...")
        elif isinstance(node, ast.Call) and node.args:
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            arg = node.args[0]
            if (
                name in {"import_module", "__import__"}
                and isinstance(arg, ast.Constant)
                and isinstance(arg.value, str)
                and is_django(arg.value)
            ):
                found.append(f"{name}({arg.value!r})")
    return [f"{path}: {line}" for line in found]


def engine_modules() -> list[Path]:
    return [*sorted((GAMES / "engine").rglob("*.py")), GAMES / "kinds" / "__init__.py"] + [
        path for kind in KINDS for path in sorted(kind.rglob("*.py"))
    ]


def test_every_kind_has_an_engine_checked_here():
    assert {path.parent.name for path in KINDS} == {"coup", "kobayakawa"}


def test_engine_imports_no_django():
    offenders = [hit for path in engine_modules() for hit in django_imports(path)]
    assert offenders == [], "the engine must not import Django:\n" + "\n".join(offenders)


def test_the_engine_tools_run_without_loading_django():
    """Importing every kind's rules, the scenario runner and the benchmark, through
    the registry, loads no Django module at all (not even indirectly)."""
    code = (
        "import sys\n"
        "from games.kinds import KIND_NAMES, rules_of\n"
        "import games.engine.scenario, games.engine.bench\n"
        "[rules_of(name) for name in KIND_NAMES]\n"
        "print(sorted(m for m in sys.modules if m == 'django' or m.startswith('django.')))\n"
    )
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=GAMES.parent)
    assert found.stdout.strip() == "[]"


def test_the_check_catches_each_way_of_importing_django(tmp_path):
    module = tmp_path / "impure.py"
    module.write_text(
        "import os, django\n"
        "from django.db import models\n"
        "from .django import helper\n"  # a relative module that happens to be named django
        "import importlib\n"
        "importlib.import_module('django.conf')\n"
        "__import__('django')\n"
    )
    assert len(django_imports(module)) == 4
