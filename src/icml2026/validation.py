"""Validation of record files: the JSON Schema plus what a schema cannot say.

Every problem becomes a :class:`Problem` (file, record id, JSON pointer, message);
nothing stops at the first one, and no data error raises.  Checks beyond the
schema: unique ids and keys, page ranges, links that agree with identifiers,
balanced braces and ``$``/``*`` markup, control characters anywhere, NFC text,
title-protection ranges inside the title, provenance for every field, and a
proceedings reference that resolves.
"""

from __future__ import annotations

import json
import os
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from . import markup
from .store import data_dir, is_proceedings_record, record_files, schema_dir

MAX_FILE_BYTES = 64 * 1024 * 1024
MAX_SHOWN = 80  # characters of a bad value quoted in a message
PROGRESS_EVERY = 1000

# Fields whose presence needs a provenance entry; containers are checked per key.
PROVENANCE_CONTAINERS = ("identifiers", "links")
NO_PROVENANCE_NEEDED = frozenset({"schema_version", "id", "proceedings", "sources", "provenance"})
TEXT_FIELDS = ("title", "abstract")
CONTROL_CHARACTER = re.compile("[\x00-\x1f\x7f-\x9f]")  # Unicode category Cc


@dataclass(frozen=True, order=True)
class Problem:
    file: str
    record: str
    pointer: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}: {self.record}: {self.pointer or '/'}: {self.message}"


@dataclass
class LoadedRecord:
    file: str
    data: Any
    line: int | None = None

    @property
    def label(self) -> str:
        rid = self.data.get("id") if isinstance(self.data, dict) else None
        return rid if isinstance(rid, str) and rid else "-"

    @property
    def is_proceedings(self) -> bool:
        return is_proceedings_record(self.data)


# -- reading ------------------------------------------------------------------

def read_records(path: Path, problems: list[Problem]) -> list[LoadedRecord]:
    """Records in one file (an object, an array of objects, or JSON Lines)."""
    if path.suffix == ".jsonl":
        return list(read_json_lines(path, problems))
    name = str(path)
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:  # one JSON document is parsed whole: keep it bounded
            problems.append(Problem(name, "-", "", f"file is {size} bytes; at most {MAX_FILE_BYTES} allowed "
                                    "(use JSON Lines for more records)"))
            return []
        raw = path.read_bytes()
    except OSError as exc:
        problems.append(Problem(name, "-", "", f"cannot read file: {exc.strerror or exc}"))
        return []
    text = decode_utf8(raw, name, problems)
    if text is None:
        return []
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        problems.append(Problem(name, "-", "", f"invalid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"))
        return []
    except RecursionError:
        problems.append(Problem(name, "-", "", "invalid JSON: nested too deeply"))
        return []
    if isinstance(data, list):
        return [LoadedRecord(f"{name}[{n}]", item) for n, item in enumerate(data)]
    return [LoadedRecord(name, data)]


def decode_utf8(raw: bytes, name: str, problems: list[Problem]) -> str | None:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        problems.append(Problem(name, "-", "", f"not valid UTF-8 (invalid byte at offset {exc.start})"))
        return None
    if text.startswith("\ufeff"):
        problems.append(Problem(name, "-", "", "file starts with a byte-order mark; save as UTF-8 without BOM"))
        text = text[1:]
    return text


def read_json_lines(path: Path, problems: list[Problem]) -> Iterator[LoadedRecord]:
    """One record per line, read as a stream: a file of any size, a bounded line."""
    try:
        handle = path.open("rb")
    except OSError as exc:
        problems.append(Problem(str(path), "-", "", f"cannot read file: {exc.strerror or exc}"))
        return
    with handle:
        for lineno, raw in enumerate(handle, 1):
            where = f"{path}:{lineno}"
            if len(raw) > MAX_FILE_BYTES:
                problems.append(Problem(where, "-", "", f"line is {len(raw)} bytes; at most {MAX_FILE_BYTES} allowed"))
                continue
            line = decode_utf8(raw, where, problems)
            if line is None or not line.strip():
                continue
            try:
                yield LoadedRecord(where, json.loads(line), lineno)
            except json.JSONDecodeError as exc:
                problems.append(Problem(where, "-", "", f"invalid JSON: {exc.msg} (column {exc.colno})"))


# -- schema -------------------------------------------------------------------

@lru_cache(maxsize=None)
def validator(kind: str) -> Any:
    from jsonschema import Draft202012Validator

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
        return error.message.replace("'", "", 2).replace(" is a required property", " is required")
    if kind == "oneOf" and error.schema.get("oneOf") == [{"required": ["family"]}, {"required": ["literal"]}]:
        return "a person needs exactly one of family or literal"
    message = error.message
    return message if len(message) <= 200 else message[:199] + "…"


@lru_cache(maxsize=None)
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
    fast = fast_validator(kind)
    if fast is not None and fast.is_valid(record.data):
        return
    errors = sorted(validator(kind).iter_errors(record.data), key=lambda e: list(map(str, e.absolute_path)))
    for error in errors:
        yield Problem(record.file, record.label, pointer_of(error.absolute_path), schema_message(error))


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
    """(pointer, message) for control characters, non-NFC text and bad markup."""
    for path, text in walk_strings(data):
        bad = CONTROL_CHARACTER.search(text)
        if bad is not None:
            yield pointer_of(path), f"contains control character U+{ord(bad.group()):04X}"
        elif not unicodedata.is_normalized("NFC", text):
            yield pointer_of(path), "text is not in Unicode NFC form"
    for field in TEXT_FIELDS:
        value = data.get(field)
        if isinstance(value, str):
            yield from ((f"/{field}", m) for m in markup_problems(value))


def markup_problems(text: str) -> Iterator[str]:
    try:
        segments = markup.parse(text)
    except markup.MarkupError as exc:
        yield str(exc)
        return
    depth = 0
    for seg in segments:
        for ch in seg.value:
            depth += (ch == "{") - (ch == "}")
            if depth < 0:
                yield "unbalanced braces: '}' without '{'"
                return
    if depth:
        yield f"unbalanced braces: {depth} '{{' not closed"


def paper_semantics(data: dict[str, Any]) -> Iterator[tuple[str, str]]:
    pages = data.get("pages")
    if isinstance(pages, dict) and isinstance(pages.get("first"), int) and isinstance(pages.get("last"), int):
        if pages["first"] > pages["last"]:
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


def present_pointers(data: dict[str, Any]) -> Iterator[str]:
    for key, value in data.items():
        if key in NO_PROVENANCE_NEEDED:
            continue
        if key in PROVENANCE_CONTAINERS and isinstance(value, dict):
            yield from (f"/{key}/{sub}" for sub in value)
        else:
            yield f"/{key}"


def provenance_problems(data: dict[str, Any]) -> Iterator[tuple[str, str]]:
    prov, sources = data.get("provenance"), data.get("sources")
    if not isinstance(prov, dict) or not isinstance(sources, dict):
        return
    for pointer in present_pointers(data):
        parent = pointer.rpartition("/")[0]
        if pointer not in prov and parent not in prov:
            yield pointer, "no provenance: add this pointer to 'provenance' with its source"
    for pointer, key in prov.items():
        if isinstance(key, str) and key not in sources:
            yield f"/provenance/{pointer.lstrip('/').replace('/', '~1')}", f"unknown source {key!r}"
        head = pointer.split("/")[1] if pointer.count("/") else ""
        if head and head not in data:
            yield f"/provenance/{pointer.lstrip('/').replace('/', '~1')}", f"names field {pointer} which is absent"


# -- whole collections ----------------------------------------------------------

def collection_problems(papers: list[LoadedRecord], proceedings_ids: set[str]) -> Iterator[Problem]:
    """Uniqueness of ids and keys, and proceedings references, across all records."""
    owners: dict[str, LoadedRecord] = {}
    for record in papers:
        data = record.data
        ref = data.get("proceedings")
        if isinstance(ref, str) and ref not in proceedings_ids:
            yield Problem(record.file, record.label, "/proceedings", f"unknown proceedings {ref!r}")
        keys = [("/id", data.get("id")), ("/citation_key", data.get("citation_key"))]
        aliases = data.get("alias_keys")
        if isinstance(aliases, list):
            keys += [(f"/alias_keys/{n}", k) for n, k in enumerate(aliases)]
        seen_here: set[str] = set()
        for pointer, key in keys:
            if not isinstance(key, str) or key in seen_here:
                continue
            seen_here.add(key)
            other = owners.setdefault(key, record)
            if other is not record:
                yield Problem(record.file, record.label, pointer, f"{key!r} is already used by {other.label} ({other.file})")


def default_paths() -> list[Path]:
    return [data_dir() / "proceedings", data_dir() / "papers.jsonl"]


def validate_paths(paths: Iterable[str | os.PathLike[str]] | None = None, *,
                   progress: Callable[[int, int], None] | None = None) -> list[Problem]:
    """Every problem in the record files at *paths* (default: the packaged data).

    *progress*, if given, is called as ``progress(checked, total)`` every
    :data:`PROGRESS_EVERY` records and once at the end.
    """
    targets = [Path(p) for p in paths] if paths is not None else default_paths()
    problems: list[Problem] = []
    records: list[LoadedRecord] = []
    for path in record_files(targets):
        if not path.exists():
            problems.append(Problem(str(path), "-", "", "no such file or folder"))
            continue
        records.extend(read_records(path, problems))
    proceedings_ids = {p.data.get("id") for p in records if p.is_proceedings}
    proceedings_ids |= {p.stem for p in (data_dir() / "proceedings").glob("*.json")}
    papers = []
    for done, record in enumerate(records, 1):
        if progress is not None and (done % PROGRESS_EVERY == 0 or done == len(records)):
            progress(done, len(records))
        if not isinstance(record.data, dict):
            problems.append(Problem(record.file, "-", "", f"a record must be a JSON object, not {type(record.data).__name__}"))
            continue
        problems.extend(schema_problems(record))
        checks = text_problems(record.data)
        if not record.is_proceedings:
            papers.append(record)
            checks = chain(checks, paper_semantics(record.data))
        problems.extend(Problem(record.file, record.label, ptr, msg) for ptr, msg in checks)
    problems.extend(collection_problems(papers, {p for p in proceedings_ids if isinstance(p, str)}))
    return list(dict.fromkeys(problems))  # file order, duplicates dropped
