"""The rules engine is pure Python: no module under games/engine/ may import Django."""

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parent.parent / "games" / "engine"


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


def test_engine_imports_no_django():
    modules = sorted(ENGINE.rglob("*.py"))
    assert modules, f"no engine modules found under {ENGINE}"
    offenders = [hit for path in modules for hit in django_imports(path)]
    assert offenders == [], "the engine must not import Django:\n" + "\n".join(offenders)


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
