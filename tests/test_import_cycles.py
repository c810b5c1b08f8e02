"""The package's modules form no import cycle, and each imports on its own without side effects.

The static check reads every ``import`` (also those inside functions, which run
later but still tie two modules together) except those under ``if TYPE_CHECKING:``.
Then every module is imported alone in a fresh interpreter: a cycle that only
breaks in one import order, or a module that prints, writes files or imports a
heavy dependency at import time, fails here.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "icml2026"
# Imported only when used (start-up time): never by importing a module.
HEAVY = {"jsonschema", "jsonschema_rs", "citeproc", "pyzotero", "pylatexenc", "bibtexparser", "httpx2", "lxml"}
RUNS_ON_IMPORT = {"icml2026.__main__"}  # ``python -m icml2026``: the CLI itself
# The one module whose job is a heavy dependency: it patches citeproc-py (which uses lxml).
HEAVY_BY_DESIGN = {"icml2026.exporters.citeproc_fixes": {"citeproc", "lxml"}}


def modules() -> dict[str, Path]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def is_package(path: Path) -> bool:
    return path.name == "__init__.py"


def type_checking_only(tree: ast.Module) -> set[int]:
    """ids of import nodes under ``if TYPE_CHECKING:``."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip.update(id(inner) for stmt in node.body for inner in ast.walk(stmt))
    return skip


def imported(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The package modules *name* imports, anywhere in its code."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = type_checking_only(tree)
    base = name.split(".") if is_package(path) else name.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in known)
        elif isinstance(node, ast.ImportFrom):
            target = node.module or ""
            if node.level:
                parent = base[: len(base) - node.level + 1]
                target = ".".join(parent + ([node.module] if node.module else []))
            subs = {f"{target}.{alias.name}" for alias in node.names} & set(known)
            found |= subs
            if len(subs) < len(node.names) and target in known:
                found.add(target)  # a name defined in the module itself
    found.discard(name)
    return found


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph[node]):
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


def test_the_heavy_names_are_modules_the_package_imports() -> None:
    # A misspelt name (httpx for httpx2) would guard nothing: each is installed, and named in an
    # import statement of the package.
    import importlib.util

    assert all(importlib.util.find_spec(name) is not None for name in HEAVY)
    source = "\n".join(path.read_text(encoding="utf-8") for path in PACKAGE.rglob("*.py"))
    assert all(f"import {name}" in source or f"from {name}" in source for name in HEAVY)


def test_cycle_finder_finds_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_module_imports_one_that_imports_it_back() -> None:
    known = modules()
    graph = {name: imported(name, path, known) for name, path in known.items()}
    assert "icml2026.store.records" in graph["icml2026.validation"]  # the reader is found at all
    assert cycles(graph) == []


CHECK = """
import json, os, sys
before = set(os.listdir(os.getcwd()))
import importlib
importlib.import_module(sys.argv[1])
print(json.dumps({"modules": sorted({m.split('.')[0] for m in sys.modules}),
                  "new_files": sorted(set(os.listdir(os.getcwd())) - before)}))
"""


@pytest.mark.parametrize("name", sorted(set(modules()) - RUNS_ON_IMPORT))
def test_module_imports_alone_without_side_effects(name: str, tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    result = subprocess.run([sys.executable, "-c", CHECK, name], capture_output=True, text=True,
                            cwd=tmp_path, env=env, timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    report = json.loads(result.stdout)  # nothing else printed on standard output
    assert report["new_files"] == []
    heavy = HEAVY.intersection(report["modules"]) - HEAVY_BY_DESIGN.get(name, set())
    assert heavy == set(), f"{name} imports {sorted(heavy)} when imported"
