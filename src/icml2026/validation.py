"""Validation of record files: the JSON Schema plus what a schema cannot say.

Every problem becomes a :class:`Problem` (file, record id, JSON pointer, message);
nothing stops at the first one, and no data error raises.  Checks beyond the
schema: unique ids and keys, page ranges, links that agree with identifiers,
balanced braces and ``$``/``*`` markup, control characters and lone surrogates
anywhere, NFC text, integers written as floats, real dates, title-protection
ranges inside the title, provenance for every field, a proceedings reference that
resolves, and a complete paper whose proceedings give the booktitle and year that
every citation needs.

Records are read and checked one at a time (:mod:`icml2026.store.records`): what is
kept across records is the set of keys that must be unique and the proceedings
records, so a file of any size is checked in flat memory.  The text checks run on
the record's JSON text at C speed; a record whose text could hold a problem is
then walked string by string to say where.
"""

from __future__ import annotations

import datetime
import json
import os
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache, lru_cache
from itertools import accumulate
from pathlib import Path
from typing import Any

from . import markup
from .store.records import LoadedRecord, Problem, count_records, data_dir, read_records, schema_dir

__all__ = [  # the API other modules use; LoadedRecord and Problem live in store.records
    "TEXT_FIELDS",
    "Checker",
    "LoadedRecord",
    "Problem",
    "fast_validator",
    "iter_problems",
    "json_text_is_clean",
    "markup_problems",
    "number_problems",
    "paper_semantics",
    "record_problems",
    "schema_problems",
    "string_problems",
    "text_problems",
    "validate_paths",
    "validator",
    "walk_strings",
]

MAX_SHOWN = 80  # characters of a bad value quoted in a message
PROGRESS_EVERY = 1000

# Fields whose presence needs a provenance entry; containers are checked per key.
PROVENANCE_CONTAINERS = ("identifiers", "links")
NO_PROVENANCE_NEEDED = frozenset({"schema_version", "id", "proceedings", "sources", "provenance"})
TEXT_FIELDS = ("title", "abstract")
CITATION_FACTS = ("booktitle", "year")  # of the proceedings: every citation format needs both
CONTROL_CHARACTER = re.compile("[\x00-\x1f\x7f-\x9f]")  # Unicode category Cc
SURROGATE = re.compile("[\ud800-\udfff]")
_C1_OR_DEL = re.compile("[\x7f-\x9f]")  # the Cc characters JSON text may hold unescaped
_ESCAPE_NOT_QUOTE = re.compile(r'\\[^"/]')  # after removing escaped backslashes
_NOT_BRACE = re.compile("[^{}]+")
_BRACE_STEP = {"{": 1, "}": -1}
PROCEEDINGS_DATES = ("start_date", "end_date", "published")


# -- schema -------------------------------------------------------------------

@cache
def validator(kind: str) -> Any:
    from jsonschema import Draft202012Validator  # type: ignore[import-untyped]

    schema = json.loads((schema_dir() / f"{kind}.schema.json").read_text(encoding="utf-8"))
    return Draft202012Validator(schema)


def pointer_of(path: Iterable[Any]) -> str:
    return "".join(f"/{str(p).replace('~', '~0').replace('/', '~1')}" for p in path)


def shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else repr(value)
    return text if len(text) <= MAX_SHOWN else text[: MAX_SHOWN - 1] + "…"


def schema_message(error: Any) -> str:
    """A short message for a jsonschema error that never quotes a huge value."""
    kind, expected, value = error.validator, error.validator_value, error.instance
    if kind == "maxLength":
        return f"text is {len(value)} characters long; at most {expected} allowed"
    if kind == "minLength":
        return "must not be empty" if expected == 1 else f"must be at least {expected} characters"
    if kind == "type":
        return f"must be of type {expected}, not {type(value).__name__}"
    if kind == "pattern":
        return f"{shown(value)} does not have the expected form (pattern {expected})"
    if kind in ("enum", "const"):
        options = expected if kind == "enum" else [expected]
        return f"{shown(value)} is not one of {', '.join(json.dumps(o) for o in options)}"
    if kind == "additionalProperties":
        extra = sorted(set(value) - set(error.schema.get("properties", {})))
        return f"unknown field(s): {', '.join(extra)}"
    if kind == "required":
        return str(error.message).replace("'", "", 2).replace(" is a required property", " is required")
    if kind == "oneOf" and error.schema.get("oneOf") == [{"required": ["family"]}, {"required": ["literal"]}]:
        return "a person needs exactly one of family or literal"
    message = str(error.message)
    return message if len(message) <= 200 else message[:199] + "…"


@cache
def fast_validator(kind: str) -> Any:
    """jsonschema-rs, when installed: a yes/no check ~200x faster than jsonschema.

    Valid records (nearly all) stop here; an invalid one is re-checked with
    jsonschema, whose errors carry what the messages need.
    """
    try:
        import jsonschema_rs
    except ImportError:
        return None
    schema = json.loads((schema_dir() / f"{kind}.schema.json").read_text(encoding="utf-8"))
    return jsonschema_rs.Draft202012Validator(schema)


def schema_problems(record: LoadedRecord) -> Iterator[Problem]:
    kind = "proceedings" if record.is_proceedings else "paper"
    if _fast_says_valid(kind, record.data):
        return
    try:
        errors = sorted(validator(kind).iter_errors(record.data), key=lambda e: list(map(str, e.absolute_path)))
    except RecursionError:
        yield Problem(record.file, record.label, "", "nested too deeply")
        return
    for error in errors:
        yield Problem(record.file, record.label, pointer_of(error.absolute_path), schema_message(error))


def _fast_says_valid(kind: str, data: Any) -> bool:
    fast = fast_validator(kind)
    if fast is None:
        return False
    try:
        return bool(fast.is_valid(data))
    except (ValueError, OverflowError, RecursionError):  # a lone surrogate cannot cross into Rust
        return False


# -- semantics ----------------------------------------------------------------

def walk_strings(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], str]]:
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from walk_strings(item, path + (key,))
    elif isinstance(value, list):
        for n, item in enumerate(value):
            yield from walk_strings(item, path + (n,))


def text_problems(data: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """(pointer, message) for control characters, lone surrogates, non-NFC text and bad markup."""
    yield from string_problems(data)
    for field_name in TEXT_FIELDS:
        value = data.get(field_name)
        if isinstance(value, str):
            yield from ((f"/{field_name}", m) for m in markup_problems(value))


def string_problems(data: Any) -> Iterator[tuple[str, str]]:
    """(pointer, message) for each string value with a control character, a lone
    surrogate or text not in NFC: the walk behind :func:`json_text_is_clean`."""
    for path, text in walk_strings(data):
        bad = CONTROL_CHARACTER.search(text)
        lone = SURROGATE.search(text) if bad is None else None
        if bad is not None:
            yield pointer_of(path), f"contains control character U+{ord(bad.group()):04X}"
        elif lone is not None:
            yield pointer_of(path), f"contains a lone surrogate U+{ord(lone.group()):04X} (not a character)"
        elif not unicodedata.is_normalized("NFC", text):
            yield pointer_of(path), "text is not in Unicode NFC form"


def json_text_is_clean(text: str) -> bool:
    """True when no string parsed from the JSON *text* can hold a control character, a
    lone surrogate or non-NFC text, decided at C speed on the text itself.

    JSON text cannot hold C0 controls or surrogates unescaped, so only escapes other
    than ``\\"``, ``\\/`` and ``\\\\`` (and the C1 characters, allowed raw) can bring
    them; NFC text stays NFC when cut at quotes, which compose with nothing.
    False means "walk the strings to see", not "there is a problem".
    """
    if "\\" in text:
        unescaped = text.replace("\\\\", "")
        if "\\" in unescaped and _ESCAPE_NOT_QUOTE.search(unescaped):
            return False
    if text.isascii():
        return "\x7f" not in text
    return _C1_OR_DEL.search(text) is None and unicodedata.is_normalized("NFC", text)


def markup_problems(text: str) -> Iterator[str]:
    # markup.parse raises only for a '$' that never closes and an odd number of '*'
    # outside math and escapes: look for those at C speed, and let parse say where.
    if ("$" in text or "*" in text) and _suspect_markup(text):
        try:
            markup.parse(text)
        except markup.MarkupError as exc:
            yield str(exc)
            return
    if "{" not in text and "}" not in text:
        return
    # Markup removes only '$', '*' and escaping backslashes, so the braces of the text
    # are those of its segments.  The running depth over the braces alone: linear, in C.
    depths = list(accumulate(map(_BRACE_STEP.__getitem__, _NOT_BRACE.sub("", text))))
    if min(depths) < 0:
        yield "unbalanced braces: '}' without '{'"
    elif depths[-1]:
        yield f"unbalanced braces: {depths[-1]} '{{' not closed"


def _suspect_markup(text: str) -> bool:
    rest = markup.MATH_OR_ESCAPE.sub("", text) if "$" in text or "\\" in text else text
    return "$" in rest or rest.count("*") % 2 == 1


def walk_values(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """(path, value) of every value that is not an object or array."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from walk_values(item, path + (key,))
    elif isinstance(value, list):
        for n, item in enumerate(value):
            yield from walk_values(item, path + (n,))
    else:
        yield path, value


def number_problems(data: Any) -> Iterator[tuple[str, str]]:
    """Integral floats (``2026.0``): JSON Schema counts them as integers, every
    exporter would print them as floats.  Records hold no other numbers."""
    for path, value in walk_values(data):
        if isinstance(value, float) and value.is_integer():
            yield pointer_of(path), f"{shown(value)} is written as a float; write the integer {int(value)}"


def date_problems(data: dict[str, Any], proceedings: bool) -> Iterator[tuple[str, str]]:
    """Dates of the right shape that do not exist (``2026-02-30``)."""
    if proceedings:
        prov = data.get("provenance")
        dates = [(f"/{name}", data.get(name)) for name in PROCEEDINGS_DATES]
        dates.append(("/provenance/retrieved", prov.get("retrieved") if isinstance(prov, dict) else None))
        for pointer, value in dates:
            why = _not_a_date(value) if isinstance(value, str) else None
            if why:
                yield pointer, why
    sources = data.get("sources")
    if isinstance(sources, dict):
        for key, src in sources.items():
            value = src.get("retrieved") if isinstance(src, dict) else None
            why = _not_a_date(value) if isinstance(value, str) else None
            if why:
                yield f"/sources/{pointer_of([key])[1:]}/retrieved", why


@lru_cache(maxsize=4096)  # records share a few retrieval dates
def _not_a_date(value: str) -> str | None:
    if len(value) != 10:
        return None  # the schema's pattern reports the shape
    try:
        datetime.date.fromisoformat(value)
    except ValueError as exc:
        return f"{shown(value)} is not a date that exists ({exc})"
    return None


def paper_semantics(data: dict[str, Any]) -> Iterator[tuple[str, str]]:
    pages = data.get("pages")
    if (isinstance(pages, dict) and isinstance(pages.get("first"), int) and isinstance(pages.get("last"), int)
            and pages["first"] > pages["last"]):
        yield "/pages", f"first page {pages['first']} is after last page {pages['last']}"
    yield from title_protect_problems(data)
    yield from link_problems(data)
    yield from status_problems(data)
    yield from provenance_problems(data)


def title_protect_problems(data: dict[str, Any]) -> Iterator[tuple[str, str]]:
    ranges, title = data.get("title_protect"), data.get("title")
    if not isinstance(ranges, list) or not ranges:
        return
    if not isinstance(title, str):
        yield "/title_protect", "protection ranges given without a title"
        return
    previous_end = 0
    for n, item in enumerate(ranges):
        if not (isinstance(item, list) and len(item) == 2 and all(isinstance(i, int) for i in item)):
            continue  # the schema reports the shape
        start, end = item
        if not 0 <= start < end <= len(title):
            yield f"/title_protect/{n}", f"range [{start}, {end}) is outside the title ({len(title)} characters)"
        elif start < previous_end:
            yield f"/title_protect/{n}", f"range [{start}, {end}) overlaps or precedes the previous range"
        previous_end = max(previous_end, end)


def link_problems(data: dict[str, Any]) -> Iterator[tuple[str, str]]:
    links, ids = data.get("links"), data.get("identifiers")
    if not isinstance(links, dict) or not isinstance(ids, dict):
        return
    openreview, link = ids.get("openreview"), links.get("openreview")
    if isinstance(openreview, str) and isinstance(link, str) and not link.endswith(f"id={openreview}"):
        yield "/links/openreview", f"link does not point at OpenReview forum {openreview}"
    pmlr, page = ids.get("pmlr"), links.get("proceedings")
    if isinstance(pmlr, str) and isinstance(page, str) and f"/{pmlr}." not in page:
        yield "/links/proceedings", f"link does not point at PMLR paper {pmlr}"


def status_problems(data: dict[str, Any]) -> Iterator[tuple[str, str]]:
    status = data.get("status")
    if not isinstance(status, dict) or not isinstance(status.get("missing"), list):
        return
    for name in status["missing"]:
        if isinstance(name, str) and name in data:
            yield "/status/missing", f"{name!r} is listed as missing but is present"


def provenance_problems(data: dict[str, Any]) -> Iterator[tuple[str, str]]:
    prov, sources = data.get("provenance"), data.get("sources")
    if not isinstance(prov, dict) or not isinstance(sources, dict):
        return
    values = list(prov.values())
    if all(isinstance(v, str) for v in values) and sources.keys() >= set(values):
        # Only keys matter now, and records share a few shapes: check each shape once.
        ids, links = data.get("identifiers"), data.get("links")
        yield from _unsourced_fields(tuple(data), tuple(ids) if isinstance(ids, dict) else None,
                                     tuple(links) if isinstance(links, dict) else None, tuple(prov))
        return
    yield from _provenance_problems(data, prov, sources)


@lru_cache(maxsize=1024)
def _unsourced_fields(fields: tuple[str, ...], identifiers: tuple[str, ...] | None, links: tuple[str, ...] | None,
                      pointers: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    shape: dict[str, Any] = dict.fromkeys(fields)
    for name, keys in (("identifiers", identifiers), ("links", links)):
        if keys is not None:
            shape[name] = dict.fromkeys(keys)
    prov = dict.fromkeys(pointers, "")
    return tuple(_provenance_problems(shape, prov, {"": None}))


def _provenance_problems(data: dict[str, Any], prov: dict[str, Any], sources: dict[str, Any]
                         ) -> Iterator[tuple[str, str]]:
    unsourced = "no provenance: add this pointer to 'provenance' with its source"
    whole_record = "" in prov  # the parent of every top-level pointer
    for key, value in data.items():
        if key in NO_PROVENANCE_NEEDED:
            continue
        top = f"/{key}"
        if key in PROVENANCE_CONTAINERS and isinstance(value, dict):
            if top not in prov:  # else it covers every key inside
                yield from ((f"{top}/{sub}", unsourced) for sub in value if f"{top}/{sub}" not in prov)
        elif top not in prov and not whole_record:
            yield top, unsourced
    for pointer, key in prov.items():
        if isinstance(key, str) and key not in sources:
            yield f"/provenance/{pointer.lstrip('/').replace('/', '~1')}", f"unknown source {key!r}"
        head = pointer.split("/", 2)[1] if "/" in pointer else ""
        if head and head not in data:
            yield f"/provenance/{pointer.lstrip('/').replace('/', '~1')}", f"names field {pointer} which is absent"


# -- one record, then the rules across records ------------------------------------

def record_problems(record: LoadedRecord) -> list[Problem]:
    """Every problem of one record on its own (schema, text, numbers, dates, data rules)."""
    data = record.data
    if not isinstance(data, dict):
        return [Problem(record.file, "-", "", f"a record must be a JSON object, not {type(data).__name__}")]
    found = list(schema_problems(record))
    try:
        checks = list(_own_checks(record, data))
    except RecursionError:  # parsed, but too deep for the walks: the schema said what it could
        checks = [("", "nested too deeply")]
    found += [Problem(record.file, record.label, ptr, msg) for ptr, msg in checks]
    return list(dict.fromkeys(found))  # in order, duplicates dropped


def _own_checks(record: LoadedRecord, data: dict[str, Any]) -> Iterator[tuple[str, str]]:
    if record.text is None or not json_text_is_clean(record.text):
        yield from string_problems(data)
    for name in TEXT_FIELDS:
        value = data.get(name)
        if isinstance(value, str):
            yield from ((f"/{name}", m) for m in markup_problems(value))
    if record.floats or record.text is None:
        yield from number_problems(data)
    proceedings = record.is_proceedings
    yield from date_problems(data, proceedings)
    if not proceedings:
        yield from paper_semantics(data)


@dataclass
class Checker:
    """Validation of a stream of records, one :meth:`check` at a time, then :meth:`finish`.

    What it keeps across records: the owner of every id and key (to report a
    duplicate), the proceedings records (small), and the papers whose proceedings
    record was not read yet (normally none: folders give ``proceedings/`` first).
    """

    owners: dict[str, tuple[str, str]] = field(default_factory=dict)  # key → (label, file)
    proceedings: dict[str, dict[str, Any]] = field(default_factory=dict)
    complete_papers: Counter[str] = field(default_factory=Counter)  # per proceedings id, checked
    waiting: list[tuple[str, str, str, bool]] = field(default_factory=list)  # file, label, ref, complete

    def __post_init__(self) -> None:
        if not self.proceedings:
            self.proceedings = packaged_proceedings()

    def check(self, record: LoadedRecord) -> list[Problem]:
        found = record_problems(record)
        if not isinstance(record.data, dict):
            return found
        if record.is_proceedings:
            found += self._proceedings(record)
        else:
            found += self._references(record) + self._keys(record)
        return found

    def finish(self) -> list[Problem]:
        """Papers whose proceedings never came: unknown, or not citable."""
        found = []
        for file, label, ref, complete in self.waiting:
            proc = self.proceedings.get(ref)
            if proc is None:
                found.append(Problem(file, label, "/proceedings", f"unknown proceedings {ref!r}"))
            elif complete and _citation_gaps(proc):
                found.append(Problem(file, label, "/proceedings", _not_citable(ref, _citation_gaps(proc))))
        self.waiting.clear()
        return found

    def _proceedings(self, record: LoadedRecord) -> list[Problem]:
        pid = record.data.get("id")
        if not isinstance(pid, str):
            return []
        before, self.proceedings[pid] = self.proceedings.get(pid), record.data
        gaps = _citation_gaps(record.data)
        if before is not None and gaps and not _citation_gaps(before) and self.complete_papers[pid]:
            # Papers read earlier were checked against the record this one replaces.
            return [Problem(record.file, record.label, "", f"has no {' or '.join(gaps)}, but "
                            f"{self.complete_papers[pid]} paper(s) read before it refer to it and are "
                            "marked complete: they cannot be cited (list this record first, or complete it)")]
        return []

    def _references(self, record: LoadedRecord) -> list[Problem]:
        data = record.data
        ref = data.get("proceedings")
        if not isinstance(ref, str):
            return []
        status = data.get("status")
        complete = isinstance(status, dict) and status.get("state") == "complete"
        proc = self.proceedings.get(ref)
        if proc is None:
            self.waiting.append((record.file, record.label, ref, complete))
            return []
        if not complete:
            return []
        self.complete_papers[ref] += 1
        gaps = _citation_gaps(proc)
        return [Problem(record.file, record.label, "/proceedings", _not_citable(ref, gaps))] if gaps else []

    def _keys(self, record: LoadedRecord) -> list[Problem]:
        data = record.data
        keys = [("/id", data.get("id")), ("/citation_key", data.get("citation_key"))]
        aliases = data.get("alias_keys")
        if isinstance(aliases, list):
            keys += [(f"/alias_keys/{n}", k) for n, k in enumerate(aliases)]
        owner = (record.label, record.file)  # one tuple shared by all keys of the record
        found = []
        for pointer, key in keys:
            if not isinstance(key, str):
                continue
            other = self.owners.setdefault(key, owner)
            if other is not owner:
                found.append(Problem(record.file, record.label, pointer,
                                     f"{key!r} is already used by {other[0]} ({other[1]})"))
        return found


def _citation_gaps(proc: dict[str, Any]) -> list[str]:
    return [name for name in CITATION_FACTS if proc.get(name) is None]


def _not_citable(ref: str, gaps: list[str]) -> str:
    return (f"marked complete, but proceedings {ref!r} has no {' or '.join(gaps)}: it cannot be cited "
            f"(mark the paper incomplete with missing {', '.join(gaps)}, or complete the proceedings)")


@lru_cache(maxsize=1)
def _packaged_proceedings() -> tuple[tuple[str, dict[str, Any]], ...]:
    found = []
    for path in sorted((data_dir() / "proceedings").glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        found.append((path.stem, data))
    return tuple(found)


def packaged_proceedings() -> dict[str, dict[str, Any]]:
    """The packaged proceedings records by id (records may refer to them)."""
    return dict(_packaged_proceedings())


def default_paths() -> list[Path]:
    return [data_dir() / "proceedings", data_dir() / "papers.jsonl"]


def validate_paths(paths: Iterable[str | os.PathLike[str]] | None = None, *,
                   progress: Callable[[int, int], None] | None = None) -> list[Problem]:
    """Every problem in the record files at *paths* (default: the packaged data).

    *progress*, if given, is called as ``progress(checked, total)`` every
    :data:`PROGRESS_EVERY` records and once at the end.
    """
    return list(iter_problems(paths, progress=progress))


def iter_problems(paths: Iterable[str | os.PathLike[str]] | None = None, *,
                  progress: Callable[[int, int], None] | None = None) -> Iterator[Problem]:
    """:func:`validate_paths` as a stream, in file order: problems of one record as soon
    as it is read, then those that needed every record (unknown proceedings)."""
    targets = list(paths) if paths is not None else default_paths()
    total = count_records(targets) if progress is not None else 0
    checker = Checker()
    done = 0
    for item in read_records(targets):
        if isinstance(item, Problem):
            yield item
            continue
        yield from checker.check(item)
        done += 1
        if progress is not None and done % PROGRESS_EVERY == 0 and done < total:
            progress(done, total)
    yield from checker.finish()
    if progress is not None and done:
        progress(done, done)
