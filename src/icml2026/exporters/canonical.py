"""The canonical records themselves, as JSON or JSON Lines (every record, incomplete ones too).

Both formats write ``Paper.to_dict()`` with sorted keys: JSON Lines compact,
one record a line; JSON an array, each record indented two spaces.  For speed
(benchmarks/bench_exports.py) the record dict is built here with its keys
already in sorted order (:func:`sorted_record`), so the C encoder needs no
``sort_keys``, and the indented form is written by :func:`pretty` instead of
the standard library's pure-Python indenting encoder.  The bytes are exactly
those of ``json.dumps(paper.to_dict(), ensure_ascii=False, sort_keys=True, …)``:
tests/test_exports_golden.py proves it (golden bytes over the volume; json.dumps of to_dict).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from json.encoder import encode_basestring
from typing import Any, TypeVar

from ..model import SCHEMA_VERSION, Paper, Proceedings, Source

T = TypeVar("T")

# The C encoder behind json.dumps(..., ensure_ascii=False, separators=(",", ":")), without sort_keys.
_COMPACT = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), check_circular=False)
_dumps_compact = _COMPACT.encode


# -- sorted record dicts ---------------------------------------------------------

_HEADS: dict[tuple[str, ...], frozenset[str]] = {}  # provenance pointers → the fields they name


def _provenance(paper: Paper, absent: list[str]) -> dict[str, str]:
    """The provenance, sorted, without pointers to the fields written as absent (*absent*),
    as :meth:`Paper.to_dict` writes it.  Records share a handful of pointer sets: the
    fields each names are worked out once per set."""
    pointers = tuple(paper.provenance)
    heads = _HEADS.get(pointers)
    if heads is None:
        if len(_HEADS) > 4096:  # bounded: records from elsewhere may come in many shapes
            _HEADS.clear()
        heads = _HEADS[pointers] = frozenset(k.split("/")[1] for k in pointers)
    if heads.isdisjoint(absent):
        return dict(sorted(paper.provenance.items()))
    return {k: v for k, v in sorted(paper.provenance.items()) if k.split("/")[1] not in absent}


def _sources(sources: Any, seen: dict[int, tuple[Source, dict[str, str]]]) -> dict[str, dict[str, str]]:
    out = {}
    for key in sorted(sources):
        source = sources[key]
        hit = seen.get(id(source))
        if hit is None or hit[0] is not source:
            hit = seen[id(source)] = (source, source.to_dict())
        out[key] = hit[1]
    return out


def _sorted_value(value: Any) -> Any:
    """*value* (plain JSON data) with the keys of every dict in sorted order."""
    if isinstance(value, dict):
        return {k: _sorted_value(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [_sorted_value(v) for v in value]
    return value


def sorted_proceedings(proc: Proceedings) -> dict[str, Any]:
    return _sorted_value(proc.to_dict())  # type: ignore[no-any-return]  # once per volume: no need for speed


_IDENTIFIERS = ("arxiv", "doi", "openreview", "pmlr")
_LINKS = ("code", "icml_virtual", "openreview", "pdf", "proceedings", "project")


def _present(obj: Any, names: tuple[str, ...]) -> dict[str, str]:
    """The fields *names* of *obj* that are set, in the order given (sorted)."""
    out = {}
    for name in names:
        value = getattr(obj, name)
        if value is not None:
            out[name] = value
    return out


_COMPLETE = {"state": "complete"}


def sorted_record(paper: Paper, proceedings: Any = None,
                  sources_seen: dict[int, tuple[Source, dict[str, str]]] | None = None) -> dict[str, Any]:
    """``paper.to_dict()`` with every dict's keys in sorted order (the order ``sort_keys`` writes).

    Arrays may be tuples (JSON writes them alike).  *proceedings* replaces the
    ``proceedings`` id (``include_proceedings``); *sources_seen* caches the dict
    of each :class:`Source` (papers share them).  The dicts may be shared between
    records: encode them, do not change them.  Kept in step with
    :meth:`Paper.to_dict` by a test comparing the two on the volume.
    """
    out: dict[str, Any] = {}
    absent: list[str] = []  # optional fields left out: their provenance goes too
    if paper.abstract is not None:
        out["abstract"] = paper.abstract
    else:
        absent.append("abstract")
    if paper.alias_keys:
        out["alias_keys"] = paper.alias_keys
    else:
        absent.append("alias_keys")
    if paper.authors:
        out["authors"] = [a.to_dict() for a in paper.authors]
        out["authors_complete"] = paper.authors_complete
    else:
        absent += ("authors", "authors_complete")
    if paper.citation_key:
        out["citation_key"] = paper.citation_key
    else:
        absent.append("citation_key")
    if paper.former_titles:
        out["former_titles"] = paper.former_titles
    else:
        absent.append("former_titles")
    out["id"] = paper.id
    idents = _present(paper.identifiers, _IDENTIFIERS)
    if idents:
        out["identifiers"] = idents
    else:
        absent.append("identifiers")
    out["language"] = paper.language
    links = _present(paper.links, _LINKS)
    if links:
        out["links"] = links
    else:
        absent.append("links")
    if paper.method_name is not None:
        out["method_name"] = paper.method_name
    else:
        absent.append("method_name")
    if paper.notes:
        out["notes"] = paper.notes
    else:
        absent.append("notes")
    if paper.pages is not None:
        out["pages"] = {"first": paper.pages.first, "last": paper.pages.last}
    else:
        absent.append("pages")
    out["proceedings"] = paper.proceedings.id if proceedings is None else proceedings
    if not paper.title:
        absent.append("title")
    if not paper.title_protect:
        absent.append("title_protect")
    out["provenance"] = _provenance(paper, absent)  # keys are unique: sorting items sorts by key
    out["schema_version"] = SCHEMA_VERSION
    out["sources"] = _sources(paper.sources, {} if sources_seen is None else sources_seen)
    if paper.missing:
        out["status"] = {"missing": paper.missing, "state": paper.status}
    else:
        out["status"] = _COMPLETE if paper.status == "complete" else {"state": paper.status}
    if paper.title:
        out["title"] = paper.title
    if paper.title_protect:
        out["title_protect"] = paper.title_protect
    return out


# -- the indented form -----------------------------------------------------------

def pretty(value: Any, indent: str) -> str:
    """``json.dumps(value, ensure_ascii=False, indent=2)``, every line after the first prefixed by *indent*.

    The standard library writes indented JSON with its pure-Python encoder
    (the C encoder only writes one line); this writes the same bytes with the C
    string encoder and one join per container, about four times faster.
    """
    kind = type(value)
    if kind is str:
        return encode_basestring(value)
    if kind is dict:
        if not value:
            return "{}"
        inner = indent + "  "
        sep = ",\n" + inner
        return "{\n" + inner + sep.join(
            [encode_basestring(k) + ": " + pretty(v, inner) for k, v in value.items()]) + "\n" + indent + "}"
    if kind is list or kind is tuple:
        if not value:
            return "[]"
        inner = indent + "  "
        sep = ",\n" + inner
        return "[\n" + inner + sep.join([pretty(v, inner) for v in value]) + "\n" + indent + "]"
    if kind is int:
        return int.__repr__(value)
    if kind is bool:
        return "true" if value else "false"
    return json.dumps(value)  # floats, null: as json writes them


def once_per_proceedings(convert: Callable[[Proceedings], T]) -> Callable[[Paper], T]:
    """``paper → convert(paper.proceedings)``, converting each volume once per export.

    Papers share their :class:`Proceedings` object, so the cache is keyed by identity
    (and keeps the object, so that an id is never reused by another one meanwhile).
    """
    cache: dict[int, tuple[Proceedings, T]] = {}

    def get(paper: Paper) -> T:
        proc = paper.proceedings
        hit = cache.get(id(proc))
        if hit is None or hit[0] is not proc:
            hit = cache[id(proc)] = (proc, convert(proc))
        return hit[1]
    return get


def _proceedings_of(include: bool) -> Callable[[Paper], Any]:
    return once_per_proceedings(sorted_proceedings) if include else lambda paper: None


def json_array(members: Iterable[str]) -> Iterator[str]:
    """A JSON array of encoded *members* as ``json.dumps(indent=2)`` lays it out.

    Each member comes indented by two spaces (its own lines by four, and so on);
    an empty array is ``[]``.  The JSON and CSL-JSON exporters stream through this.
    """
    yield "["
    empty = True
    for member in members:
        yield ("\n" if empty else ",\n") + member
        empty = False
    yield "]\n" if empty else "\n]\n"


def render_json(papers: Iterable[Paper], *, include_proceedings: bool = False, **_: Any) -> Iterator[str]:
    proceedings = _proceedings_of(include_proceedings)
    seen: dict[int, tuple[Source, dict[str, str]]] = {}
    yield from json_array("  " + pretty(sorted_record(paper, proceedings(paper), seen), "  ") for paper in papers)


def render_jsonl(papers: Iterable[Paper], *, include_proceedings: bool = False, **_: Any) -> Iterator[str]:
    proceedings = _proceedings_of(include_proceedings)
    seen: dict[int, tuple[Source, dict[str, str]]] = {}
    for paper in papers:
        yield _dumps_compact(sorted_record(paper, proceedings(paper), seen)) + "\n"
