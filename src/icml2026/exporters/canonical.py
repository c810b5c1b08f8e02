"""The canonical records themselves, as JSON or JSON Lines (every record, incomplete ones too).

Both formats write ``Paper.to_dict()`` with sorted keys: JSON Lines compact,
one record a line; JSON an array, each record indented two spaces.  For speed
(benchmarks/bench_exports.py) ``to_dict`` builds its dicts with their keys
already in sorted order, so the C encoder needs no ``sort_keys``, and the
indented form is written by :func:`pretty` instead of the standard library's
pure-Python indenting encoder.  The bytes are exactly those of
``json.dumps(paper.to_dict(), ensure_ascii=False, sort_keys=True, …)``:
tests/test_exports_golden.py proves it (golden bytes over the volume; to_dict's
keys sorted at every level).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from json.encoder import encode_basestring
from typing import Any, TypeVar

from ..model import Paper, Proceedings

T = TypeVar("T")

# The C encoder behind json.dumps(..., ensure_ascii=False, separators=(",", ":")), without sort_keys.
_COMPACT = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), check_circular=False)
_dumps_compact = _COMPACT.encode


# -- sorted dicts ----------------------------------------------------------------

def _sorted_value(value: Any) -> Any:
    """*value* (plain JSON data) with the keys of every dict in sorted order."""
    if isinstance(value, dict):
        return {k: _sorted_value(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [_sorted_value(v) for v in value]
    return value


def sorted_proceedings(proc: Proceedings) -> dict[str, Any]:
    return _sorted_value(proc.to_dict())  # type: ignore[no-any-return]  # once per volume: no need for speed


def _record(paper: Paper, proceedings: Any) -> dict[str, Any]:
    """``paper.to_dict()`` (keys already sorted), with *proceedings* in place of the
    ``proceedings`` id when given (``include_proceedings``)."""
    out = paper.to_dict()
    if proceedings is not None:
        out["proceedings"] = proceedings  # an existing key: its place in the order stays
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


def render_json(papers: Iterable[Paper], *, include_proceedings: bool = False) -> Iterator[str]:
    proceedings = _proceedings_of(include_proceedings)
    yield from json_array("  " + pretty(_record(paper, proceedings(paper)), "  ") for paper in papers)


def render_jsonl(papers: Iterable[Paper], *, include_proceedings: bool = False) -> Iterator[str]:
    proceedings = _proceedings_of(include_proceedings)
    for paper in papers:
        yield _dumps_compact(_record(paper, proceedings(paper))) + "\n"
