"""What the comparisons with citeproc-js share: where the oracle is installed, why it cannot
run here, and how a large group of papers is cut into documents of a bounded size."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import TypeVar

FOLDER = Path(__file__).parent / "citeproc_js"
PACKAGE = FOLDER / "node_modules" / "citeproc"

T = TypeVar("T")


def missing_reason(check: str = "reference check") -> str | None:
    """Why citeproc-js cannot run here (``None`` when it can); *check* names what needs it."""
    if shutil.which("node") is None:
        return f"node is not installed: the citeproc-js {check} needs Node.js"
    if not PACKAGE.is_dir():
        return "npm package citeproc is not installed: run `npm ci --prefix tests/citeproc_js`"
    return None


def even_parts(group: list[T], most: int) -> list[list[T]]:
    """*group* cut, in its order, into the fewest nearly equal parts of at most *most* each."""
    parts = -(-len(group) // most)
    size, extra = divmod(len(group), parts)
    cut, start = [], 0
    for n in range(parts):
        end = start + size + (n < extra)
        cut.append(group[start:end])
        start = end
    return cut
