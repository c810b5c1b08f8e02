"""The layer table of ``docs/architecture.md`` holds: every module of the package is in one
layer, and each imports only its own layer and the layers its row names.

The table is the documentation people read before they change the code, so it is the
oracle here: a new module must be placed in it, and an import that crosses the layers the
wrong way fails with the edge that does.
"""

from __future__ import annotations

import re
from pathlib import Path

from test_import_cycles import imported, modules

ARCHITECTURE = Path(__file__).resolve().parents[1] / "docs" / "architecture.md"


def layer_table() -> tuple[dict[str, str], dict[str, set[str]]]:
    """(module pattern → layer, layer → layers it may import), read from the table."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    start = text.index("| layer | modules | may import |")
    rows = [line for line in text[start:].splitlines()[2:] if line.startswith("|")]
    names = [row.split("|")[1].strip() for row in rows]
    placed: dict[str, str] = {}
    allowed: dict[str, set[str]] = {}
    for row in rows:
        layer, members, may = (cell.strip() for cell in row.strip("|").split("|"))
        # The backticked words of an item before its parenthesis name modules (the
        # parenthesis is prose that may quote other names, such as `folded_words`).
        for item in re.split(r",(?![^(]*\))", members):
            for module in re.findall(r"`([^`]+)`", item.split("(")[0]):
                placed[module] = layer
        allowed[layer] = {name for name in names if re.search(rf"\b{re.escape(name)}\b", may)}
    return placed, closure(allowed)


def closure(allowed: dict[str, set[str]]) -> dict[str, set[str]]:
    """A layer may import what the layers it may import may import: lower is lower."""
    done = {layer: set(below) for layer, below in allowed.items()}
    changed = True
    while changed:
        changed = False
        for below in done.values():
            wider = set().union(*(done[name] for name in below)) - below
            if wider:
                below |= wider
                changed = True
    return done


def layer_of(module: str, placed: dict[str, str]) -> str | None:
    """The layer of ``icml2026.a.b``: its own row (``a/b``), else its package's (``a/``)."""
    parts = module.split(".")[1:] or ["icml2026/__init__"]
    if parts == ["icml2026/__init__"] or module == "icml2026":
        return placed.get("icml2026/__init__")
    path = "/".join(parts)
    for name in (path, path + "/"):
        if name in placed:
            return placed[name]
    for depth in range(len(parts) - 1, 0, -1):
        folder = "/".join(parts[:depth]) + "/"
        if folder in placed:
            return placed[folder]
    return None


def test_the_table_is_read() -> None:
    placed, allowed = layer_table()
    assert placed["text"] == "text" and placed["cli/"] == "interfaces"
    assert "text" in allowed["model"] and "exporters" not in allowed["model"]


def test_every_module_is_in_one_layer() -> None:
    placed, _ = layer_table()
    unplaced = sorted(name for name in modules() if name != "icml2026.__main__" and layer_of(name, placed) is None)
    assert unplaced == [], "add these modules to the layer table of docs/architecture.md"


def test_imports_follow_the_layer_table() -> None:
    placed, allowed = layer_table()
    known = modules()
    wrong = []
    for name, path in sorted(known.items()):
        mine = layer_of(name, placed)
        if mine is None or mine == "interfaces":
            continue
        for other in sorted(imported(name, path, known)):
            theirs = layer_of(other, placed)
            if theirs is not None and theirs != mine and theirs not in allowed[mine]:
                wrong.append(f"{name} ({mine}) imports {other} ({theirs})")
    assert wrong == []
