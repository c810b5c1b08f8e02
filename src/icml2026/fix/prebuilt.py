"""The packaged volume's match index, prebuilt by the data build (``data/match-index.json``).

``icml2026 fix`` and ``icml2026 check`` match entries against the whole volume.  Building
that index means loading all 6,552 papers and folding every title and author name, which
took most of a run; the data build (``tools/build_records.py``) writes the finished tables
instead, next to ``papers.jsonl``, and a run reads them with one ``json.loads`` and then
loads from ``papers.jsonl`` only the papers an entry turns out to name (or to nearly name).

The file's first line is :data:`FORMAT` and the byte size of the ``papers.jsonl`` it was
built from, so a mismatched pair is never used (the index is then built from the loaded
volume, as for user data); ``tests/test_match_index.py`` checks that the shipped file is
what the build makes from the shipped records.
"""

from __future__ import annotations

import gc
import json
from collections.abc import Sequence
from pathlib import Path

from ..model import Paper, Proceedings
from .match import Index

FILE = "match-index.json"
# Change it with any change to the index's tables or to the folding they are made with.
FORMAT = "icml2026-match-index 1"


def index_text(papers: Sequence[Paper], papers_text: str) -> str:
    """The file's text for *papers*, the papers of *papers_text* (``papers.jsonl``) in its order."""
    spans, offset = [], 0
    for line in papers_text.splitlines(keepends=True):
        size = len(line.encode("utf-8"))
        spans.append((offset, size))
        offset += size
    if len(spans) != len(papers):
        raise ValueError(f"{len(papers)} papers for {len(spans)} lines of papers.jsonl")
    tables = Index(papers).tables(spans)
    body = json.dumps(tables, ensure_ascii=False, separators=(",", ":"), sort_keys=True)  # sets: no order
    return f"{FORMAT}\t{offset}\n{body}\n"


class _Lines:
    """Papers read from single lines of ``papers.jsonl`` (its proceedings read once)."""

    def __init__(self, path: Path, proceedings_folder: Path) -> None:
        self.path = path
        self.folder = proceedings_folder
        self.proceedings: dict[str, Proceedings] | None = None

    def __call__(self, offset: int, size: int) -> Paper:
        from ..store.packaged import load_proceedings

        if self.proceedings is None:
            self.proceedings = load_proceedings(self.folder)
        with self.path.open("rb") as handle:
            handle.seek(offset)
            record = json.loads(handle.read(size))
        return Paper.from_dict(record, self.proceedings[record["proceedings"]])


def packaged_index(folder: Path | None = None) -> Index | None:
    """The prebuilt index of the packaged papers (in *folder*, default the package's data), or
    None when it is missing, of another format or not built from the ``papers.jsonl`` there."""
    from ..store.records import data_dir

    folder = folder or data_dir()
    papers = folder / "papers.jsonl"
    try:
        with (folder / FILE).open("rb") as handle:
            head = handle.readline()
            wanted = f"{FORMAT}\t{papers.stat().st_size}\n".encode()
            if head != wanted:
                return None
            enabled = gc.isenabled()
            gc.disable()  # ~200,000 lists and strings, no cycles: nothing for the collector to find
            try:
                tables = json.loads(handle.read())
            finally:
                if enabled:
                    gc.enable()
    except (OSError, ValueError):
        return None
    return Index.from_tables(tables, _Lines(papers, folder / "proceedings"))


__all__ = ["FILE", "FORMAT", "index_text", "packaged_index"]
