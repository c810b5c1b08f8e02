"""The corrections layer: what PMLR's published bibliography says differently from the package.

The layer is one JSON file, ``<data folder>/corrections/pmlr-v306.json``, where
the data folder is ``platformdirs.user_data_dir("icml2026")`` (on Linux
``~/.local/share/icml2026``) or the folder named by ``ICML2026_DATA_DIR``.
It holds only differences, each as ``{"old": packaged value, "new": PMLR's
value}`` under the paper id and the field's JSON pointer, plus the source
(URL, date retrieved, SHA-256 of the file) and the HTTP validators (ETag,
Last-Modified) for the next conditional request.  The packaged files are
never written; ``icml2026 update --revert`` deletes the layer.

Applying it (``load()`` does, unless ``corrections=False`` or ``--no-corrections``,
which the CLI passes on as that parameter) replaces each corrected field, points its
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
    pmlr: Any = None  # PMLR's own value when the package's curation made *new* from it


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
        """Paper id → its corrections (made once per layer: callers look up every paper)."""
        cached: dict[str, list[Correction]] | None = self.__dict__.get("_by_paper")
        if cached is None:
            cached = {}
            for item in self.corrections:
                cached.setdefault(item.paper, []).append(item)
            self.__dict__["_by_paper"] = cached
        return cached

    def to_json(self) -> dict[str, Any]:
        corrections: dict[str, dict[str, Any]] = {}
        for item in self.corrections:
            corrections.setdefault(item.paper, {})[item.pointer] = {"old": item.old, "new": item.new}
            if item.pmlr is not None:
                corrections[item.paper][item.pointer]["pmlr"] = item.pmlr
        return {"format": FORMAT, "format_version": FORMAT_VERSION, "proceedings": PROCEEDINGS,
                "package_version": self.package_version, "source": self.source.to_dict(),
                "sha256": self.sha256, "bytes": self.size, "entries": self.entries,
                "http": dict(self.http) if self.http else None, "corrections": corrections,
                "unknown": list(self.unknown), "missing": list(self.missing)}

    @classmethod
    def from_json(cls, data: Any) -> Layer:
        """A layer from its JSON; raises ValueError naming the first thing that does not fit
        the layer's schema (:func:`check_layer_json`)."""
        check_layer_json(data)
        items = tuple(Correction(paper, pointer, change["old"], change["new"], change.get("pmlr"))
                      for paper, fields in sorted(data["corrections"].items())
                      for pointer, change in sorted(fields.items(), key=lambda kv: _order(kv[0])))
        return cls(source=Source.from_dict(data["source"]), sha256=data["sha256"],
                   size=data["bytes"], entries=data["entries"],
                   package_version=data["package_version"], corrections=items,
                   http=data.get("http"), unknown=tuple(data.get("unknown", ())),
                   missing=tuple(data.get("missing", ())))


def _order(pointer: str) -> int:
    return POINTERS.index(pointer) if pointer in POINTERS else len(POINTERS)


# --------------------------------------------------------------------------- the layer's schema

MAX_LAYER_BYTES = 64 * 1024 * 1024  # a layer of every field of every paper is a few MB


def _is_str(value: Any) -> bool:
    return isinstance(value, str)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_person(value: Any) -> bool:
    return (isinstance(value, dict) and bool(value) and set(value) <= {"family", "given", "literal"}
            and all(_is_str(v) and v for v in value.values()) and ("family" in value) != ("literal" in value))


def _is_pages(value: Any) -> bool:
    return (isinstance(value, dict) and set(value) == {"first", "last"} and _is_int(value["first"])
            and _is_int(value["last"]) and 0 < value["first"] <= value["last"])


def _is_ranges(value: Any) -> bool:
    return isinstance(value, list) and all(
        isinstance(r, list) and len(r) == 2 and _is_int(r[0]) and _is_int(r[1]) and 0 <= r[0] < r[1]
        for r in value)


def _is_title(value: Any) -> bool:
    from ..markup import MarkupError, tokens

    if not (_is_str(value) and value.strip() and len(value) <= 1000):
        return False
    try:
        tokens(value)
    except MarkupError:
        return False
    return True


def _is_url(value: Any) -> bool:
    return _is_str(value) and value.startswith(("https://", "http://")) and value.isprintable() and " " not in value


# What each field's old and new values may be (None: the field is absent).
VALUE_CHECKS: dict[str, Any] = {
    "/title": _is_title,
    "/title_protect": _is_ranges,
    "/authors": lambda v: isinstance(v, list) and bool(v) and all(_is_person(a) for a in v),
    "/authors_complete": lambda v: isinstance(v, bool),
    "/pages": _is_pages,
    "/links/proceedings": _is_url,
    "/links/pdf": _is_url,
    "/identifiers/doi": lambda v: _is_str(v) and v.startswith("10.") and v.isprintable(),
}


def check_layer_json(data: Any) -> None:
    """Raise ValueError unless *data* is a corrections layer: every key of the right type."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError("not an icml2026 corrections layer")
    if data.get("format_version") != FORMAT_VERSION:
        raise ValueError(f"format version {data.get('format_version')!r}; this icml2026 reads "
                         f"version {FORMAT_VERSION}")
    source = data.get("source")
    if not (isinstance(source, dict) and _is_str(source.get("name"))
            and set(source) <= {"name", "url", "retrieved"} and all(_is_str(v) for v in source.values())):
        raise ValueError("source: not a source (name, url, retrieved)")
    for key, ok in (("sha256", _is_str), ("package_version", _is_str), ("bytes", _is_int), ("entries", _is_int)):
        if not ok(data.get(key)):
            raise ValueError(f"{key}: missing or of the wrong type")
    http = data.get("http")
    if http is not None and not (isinstance(http, dict) and all(_is_str(v) for v in http.values())):
        raise ValueError("http: not a map of strings")
    for key in ("unknown", "missing"):
        if not (isinstance(data.get(key, []), list) and all(_is_str(v) for v in data.get(key, []))):
            raise ValueError(f"{key}: not a list of paper ids")
    corrections = data.get("corrections")
    if not isinstance(corrections, dict):
        raise ValueError("corrections: not a map of paper ids")
    for paper, fields in corrections.items():
        if not isinstance(fields, dict):
            raise ValueError(f"corrections/{paper}: not a map of fields")
        for pointer, change in fields.items():
            where = f"corrections/{paper}{pointer}"
            if pointer not in VALUE_CHECKS:
                raise ValueError(f"{where}: not a field a correction can change")
            if not (isinstance(change, dict) and {"old", "new"} <= set(change) <= {"old", "new", "pmlr"}):
                raise ValueError(f"{where}: not an old/new pair")
            for side in ("old", "new", "pmlr"):
                if change.get(side) is not None and not VALUE_CHECKS[pointer](change[side]):
                    raise ValueError(f"{where}: {side} is not a valid {LABELS[pointer]}")


def read_layer(path: Path | None = None) -> Layer | None:
    """The layer at *path* (default :func:`layer_path`), or None if there is none.

    A damaged layer (unreadable, not JSON, not the layer's schema) is ignored: the
    packaged data applies, and standard error says so once.
    """
    found = layer_status(path)
    if isinstance(found, str):
        _warn_once(found)
        return None
    return found


def layer_status(path: Path | None = None) -> Layer | str | None:
    """The layer at *path*, None if there is none, or a one-line problem if it is damaged."""
    path = path or layer_path()
    try:
        stat = path.stat()
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"{path}: cannot read the corrections layer: {exc.strerror or exc}"
    return _read_cached(str(path), stat.st_mtime_ns, stat.st_size)


DAMAGED_HINT = ("ignored, the packaged data is used; 'icml2026 update' replaces it, "
                "'icml2026 update --revert' removes it")
_WARNED: set[str] = set()


def _warn_once(problem: str) -> None:
    import warnings

    from ..errors import Icml2026Warning

    if problem not in _WARNED:
        _WARNED.add(problem)
        warnings.warn(f"{problem}; {DAMAGED_HINT}", Icml2026Warning, stacklevel=2)


@lru_cache(maxsize=4)
def _read_cached(path: str, mtime_ns: int, size: int) -> Layer | str:
    if size > MAX_LAYER_BYTES:
        return f"{path}: damaged corrections layer ({size:,} bytes, more than a layer can hold)"
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_LAYER_BYTES + 1)
        data = json.loads(raw.decode("utf-8"))
        return Layer.from_json(data)
    except OSError as exc:
        return f"{path}: cannot read the corrections layer: {exc.strerror or exc}"
    except UnicodeDecodeError:
        return f"{path}: damaged corrections layer (not UTF-8 text)"
    except RecursionError:
        return f"{path}: damaged corrections layer (nested too deeply)"
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        reason = " ".join(str(exc).split())[:200] or type(exc).__name__
        return f"{path}: damaged corrections layer ({reason})"


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

def apply_corrections(papers: Iterable[Paper], enabled: bool = True) -> list[Paper] | None:
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
    """A field value as people read it (plain title, "Given Family; …", 1–10), with control and
    bidi characters made visible (values come from a download or a hand-edited file)."""
    from ..tex_safety import printable

    return printable(_shown(pointer, value))


def _shown(pointer: str, value: Any) -> str:
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
    from ..tex_safety import printable

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
           f"{'':<18}  ↳ by: {printable(src.name)}",
           f"{'':<18}    {printable(src.url or '')}, retrieved {printable(src.retrieved or '')}"]
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
