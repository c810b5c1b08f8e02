"""The corrections layer: what PMLR's published bibliography says differently from the package.

The layer is one JSON file, ``<data folder>/corrections/pmlr-v306.json``, where
the data folder is ``platformdirs.user_data_dir("icml2026")`` (on Linux
``~/.local/share/icml2026``) or the folder named by ``ICML2026_DATA_DIR``.
It holds only differences, each as ``{"old": packaged value, "new": PMLR's
value}`` under the paper id and the field's JSON pointer, plus the source
(URL, date retrieved, SHA-256 of the file) and the HTTP validators (ETag,
Last-Modified) for the next conditional request.  The packaged files are
never written; ``icml2026 update --revert`` deletes the layer.

Applying it (``load()`` does, unless ``corrections=False``, ``--no-corrections``
or :data:`.paths.ENABLED` is false) replaces each corrected field, points its
provenance at the source key :data:`SOURCE_KEY` and adds that source to the
record.  A correction whose ``old`` value is no longer the packaged value (a
newer package changed that field) is not applied: the package wins until the
next ``icml2026 update`` compares again.  Citation keys are never touched.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..errors import DataError
from ..model import Pages, Paper, Person, Source
from .paths import ENV_DIR, PROCEEDINGS, active_layer, data_folder, layer_path

__all__ = [
    "ENV_DIR",
    "PROCEEDINGS",
    "Correction",
    "Layer",
    "apply_corrections",
    "apply_layer",
    "corrected",
    "correction_lines",
    "data_folder",
    "layer_path",
    "read_layer",
    "shown_value",
]
FORMAT = "icml2026-corrections"
FORMAT_VERSION = 1
SOURCE_KEY = "pmlr-published"

# The fields a published entry can correct, in display order: those PMLR's
# template writes per paper (openreview, software and abstracts are not compared:
# the template has no such fields, and the package's abstracts come from the seed).
POINTERS = ("/title", "/title_protect", "/authors", "/authors_complete", "/pages",
            "/links/proceedings", "/links/pdf", "/identifiers/doi")
LABELS = {"/title": "title", "/title_protect": "title capitals", "/authors": "authors",
          "/authors_complete": "author list complete", "/pages": "pages",
          "/links/proceedings": "proceedings link", "/links/pdf": "PDF link", "/identifiers/doi": "DOI"}


@dataclass(frozen=True, slots=True)
class Correction:
    """One field of one paper: the packaged value (None: absent) and PMLR's."""

    paper: str
    pointer: str
    old: Any
    new: Any


@dataclass(frozen=True)
class Layer:
    """The contents of a corrections layer file."""

    source: Source
    sha256: str
    size: int
    entries: int
    package_version: str
    corrections: tuple[Correction, ...] = ()
    http: Mapping[str, str] | None = None  # url, etag, last_modified of the download
    unknown: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()

    def by_paper(self) -> dict[str, list[Correction]]:
        found: dict[str, list[Correction]] = {}
        for item in self.corrections:
            found.setdefault(item.paper, []).append(item)
        return found

    def to_json(self) -> dict[str, Any]:
        corrections: dict[str, dict[str, Any]] = {}
        for item in self.corrections:
            corrections.setdefault(item.paper, {})[item.pointer] = {"old": item.old, "new": item.new}
        return {"format": FORMAT, "format_version": FORMAT_VERSION, "proceedings": PROCEEDINGS,
                "package_version": self.package_version, "source": self.source.to_dict(),
                "sha256": self.sha256, "bytes": self.size, "entries": self.entries,
                "http": dict(self.http) if self.http else None, "corrections": corrections,
                "unknown": list(self.unknown), "missing": list(self.missing)}

    @classmethod
    def from_json(cls, data: Any) -> Layer:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError("not an icml2026 corrections layer")
        if data.get("format_version") != FORMAT_VERSION:
            raise ValueError(f"format version {data.get('format_version')!r}; this icml2026 reads "
                             f"version {FORMAT_VERSION}")
        items = tuple(Correction(paper, pointer, change["old"], change["new"])
                      for paper, fields in sorted(data["corrections"].items())
                      for pointer, change in sorted(fields.items(), key=lambda kv: _order(kv[0])))
        return cls(source=Source.from_dict(data["source"]), sha256=str(data["sha256"]),
                   size=int(data["bytes"]), entries=int(data["entries"]),
                   package_version=str(data["package_version"]), corrections=items,
                   http=data.get("http"), unknown=tuple(data.get("unknown", ())),
                   missing=tuple(data.get("missing", ())))


def _order(pointer: str) -> int:
    return POINTERS.index(pointer) if pointer in POINTERS else len(POINTERS)


def read_layer(path: Path | None = None) -> Layer | None:
    """The layer at *path* (default :func:`layer_path`), or None if there is none."""
    path = path or layer_path()
    try:
        stat = path.stat()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise DataError(f"{path}: cannot read the corrections layer: {exc.strerror or exc}") from None
    return _read_cached(str(path), stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=4)
def _read_cached(path: str, mtime_ns: int, size: int) -> Layer:
    hint = "; run 'icml2026 update' again, or 'icml2026 update --revert' to remove it"
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        return Layer.from_json(data)
    except OSError as exc:
        raise DataError(f"{path}: cannot read the corrections layer: {exc.strerror or exc}") from None
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise DataError(f"{path}: damaged corrections layer ({exc}){hint}") from None


# --------------------------------------------------------------------------- JSON pointers

def get_value(record: Mapping[str, Any], pointer: str) -> Any:
    """The value at *pointer* of a record dict, or None when absent."""
    value: Any = record
    for part in pointer.strip("/").split("/"):
        if not isinstance(value, Mapping) or part not in value:
            return None
        value = value[part]
    return value


def set_value(record: dict[str, Any], pointer: str, value: Any) -> None:
    """Set (or, for None, remove) the value at *pointer*; empty parents are removed."""
    *parents, last = pointer.strip("/").split("/")
    target = record
    for part in parents:
        target = target.setdefault(part, {})
    if value is None:
        target.pop(last, None)
        if parents and not target:
            record.pop(parents[0], None)  # pointers are at most two deep
    else:
        target[last] = value


# --------------------------------------------------------------------------- applying

def apply_corrections(papers: Iterable[Paper], enabled: bool | None = None) -> list[Paper] | None:
    """*papers* with the user's corrections layer applied; None when there is none or it is disabled."""
    path = active_layer(enabled)
    layer = read_layer(path) if path else None
    return None if layer is None else apply_layer(papers, layer)


def apply_layer(papers: Iterable[Paper], layer: Layer) -> list[Paper]:
    todo = layer.by_paper()
    return [corrected(p, todo[p.id], layer.source) if p.id in todo else p for p in papers]


def corrected(paper: Paper, corrections: Iterable[Correction], source: Source) -> Paper:
    """*paper* with those *corrections* whose old value is still the packaged one."""
    record = paper.to_dict()
    applied = False
    for item in corrections:
        if get_value(record, item.pointer) != item.old:
            continue  # the package changed this field since the layer was made
        set_value(record, item.pointer, item.new)
        if item.new is None:
            record["provenance"].pop(item.pointer, None)
        else:
            record["provenance"][item.pointer] = SOURCE_KEY
        applied = True
    if not applied:
        return paper
    record["sources"][SOURCE_KEY] = source.to_dict()
    return Paper.from_dict(record, paper.proceedings)


# --------------------------------------------------------------------------- showing

def shown_value(pointer: str, value: Any) -> str:
    """A field value as people read it (plain title, "Given Family; …", 1–10)."""
    from ..markup import to_plain

    if value is None:
        return "(absent)"
    if pointer == "/title":
        return to_plain(value)
    if pointer == "/authors":
        return "; ".join(Person.from_dict(a).display for a in value)
    if pointer == "/pages":
        return Pages(value["first"], value["last"]).as_text()
    if pointer == "/title_protect":
        return ", ".join(f"[{a}, {b})" for a, b in value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def correction_lines(paper: Paper) -> list[str]:
    """For ``icml2026 show``: which fields the layer corrected, and what the package said."""
    if SOURCE_KEY not in paper.sources:
        return []
    layer = read_layer()
    if layer is None:
        return []
    mine = [c for c in layer.by_paper().get(paper.id, ()) if paper.provenance.get(c.pointer) == SOURCE_KEY
            or (c.new is None and c.pointer not in paper.provenance)]
    if not mine:
        return []
    src = paper.sources[SOURCE_KEY]
    out = [f"{'Corrected:':<18}{', '.join(LABELS.get(c.pointer, c.pointer) for c in mine)}",
           f"{'':<18}  ↳ by: {src.name}", f"{'':<18}    {src.url}, retrieved {src.retrieved}"]
    for item in mine:
        out.append(f"{'':<18}  {LABELS.get(item.pointer, item.pointer)} in the package: "
                   f"{shown_value(item.pointer, item.old)}")
    return out


@dataclass
class Summary:
    """Counts for messages."""

    fields: int = 0
    papers: set[str] = field(default_factory=set)


def summarize(corrections: Iterable[Correction]) -> Summary:
    out = Summary()
    for item in corrections:
        out.fields += 1
        out.papers.add(item.paper)
    return out
