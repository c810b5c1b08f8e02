"""BibTeX → canonical records, PMLR's volume BibTeX in particular.

    >>> result = read_file("pmlr-v306-sample-A.bib")     # or parse_string(text)
    >>> result.papers        # PaperCollection, like icml2026.load()
    >>> result.problems      # entries that could not be converted: key, line, reason

:func:`read_file` reads a path (whatever its name), :func:`parse_string`
parses text; :func:`read_bibtex_report` takes either: a path object is a file,
a ``str`` with a line break is text, any other ``str`` a file name.  Input is
UTF-8 (a BOM is dropped), at most :data:`MAX_INPUT_CHARS` characters; a field
value is at most :data:`MAX_FIELD_CHARS` characters (a longer one is reported).

Conversion rules:

* **Entries** are read by :func:`icml2026.bibtex.reader.read_entries`: the one scanner
  (:mod:`icml2026.bibtex.scan`) under its import policy (:data:`~icml2026.bibtex.syntax.IMPORT`),
  as BibTeX reads them, in linear time: a line starting with ``@`` inside a braced value is
  text, an unclosed entry is reported without losing the next one.  A repeated field, text
  between a value and the next comma, text after an early closing brace (``… = {x}}, note =
  {y}}``) and an undefined ``@string`` macro in a field read here make that entry a problem.
  ``@string`` macros apply to the entries after them (BibTeX's order).
* **Accounting**: every entry becomes exactly one of a paper record, the
  ``@Proceedings`` header or an :class:`ImportProblem`; nothing else is
  created (``ImportResult.entries`` is the number of entries).
* **crossref**: fields an entry lacks come from the entry its ``crossref``
  names (BibTeX's rule); a ``crossref`` to no entry of the file is a problem.
* **Validity**: each record is checked as ``icml2026 validate`` checks it
  (schema, control characters, NFC, markup, provenance, unique ids and keys)
  and reported instead of written when it fails.  Field values are NFC.
* **Year** is ``year`` (ASCII digits), or the year of BibLaTeX's ``date``.  An
  entry without a year gets a citation key without one (``doetimeless``).
* **Header**: a ``@Proceedings`` entry (PMLR writes one per volume) becomes the
  :class:`~icml2026.model.Proceedings` of every paper: ``booktitle``, ``year``,
  ``volume``, ``editor``, ``name``/``shortname``, ``start``/``end``/``published``,
  ``address``, ``conference_url``, ``conference_number`` (and ``series``,
  ``publisher``, ``issn`` if present).  Its id is ``pmlr-v{volume}`` — a volume
  header is PMLR's format — and paper ids are ``pmlr-v{volume}-{entry key}``
  with the entry key as PMLR id and alias key.  Without a header, papers are
  grouped by their own ``booktitle``/``year``/… into proceedings with id
  ``bibtex-{slug of booktitle}-{year}``, and paper ids are ``bibtex-{key}``
  (ASCII-folded, lower case; keys that give the same id, ``smith_2020`` and
  ``smith-2020``, get ``-2``, ``-3``… in file order).  Corporate editors
  (``{ACM}``) are family names, as the proceedings schema has it.
  Nothing the file does not say is added (no series, publisher or URL pattern).
* **PMLR's published bibliography** (``proceedings.mlr.press/v306/assets/bib/
  bibliography.bib``): keys ``pmlr-v306-<id>`` give paper id = key and PMLR id
  ``<id>``, with or without a header; its header has no ``year``, so the one
  year all its entries give is used.
* **Text**: LaTeX is decoded to Unicode with :func:`icml2026.bibtex.latex_decode.decode`
  (accents ``Sch\\"{o}lkopf`` → Schölkopf, ``--``/``---`` → en/em dash, ``\\%``
  and ``%`` → %, math kept as ``$…$``, a lone ``$`` or final ``\\`` literal; a
  command with no text form, ``\\ourmethod``, is left out and named in a note).
  Top-level brace groups of the title
  (``{T}ex {B}races``) become ``title_protect`` ranges.  In abstracts PMLR's
  HTML ``<em>``/``<i>`` and ``<b>``/``<strong>`` become ``*emphasis*``: our
  markup has no bold, and PMLR authors use bold to highlight, so emphasis keeps
  the intent; tags are counted so nested or mis-paired tags still give
  balanced markup, and other tags stay literal text.
* **Names** are split brace-aware on ``and`` and into von/last/jr/first parts by
  bibtexparser's ``splitname`` (``Family, Given`` with capitalised family words
  directly: the same split, faster); a name that is one braced group is a
  ``literal``; a trailing ``and others`` sets ``authors_complete`` false.
* **Links**: ``openreview`` (an id or a forum URL) → OpenReview id and link;
  ``software`` → code link, repaired when PMLR's value is not a clean URL
  (spaces removed, ``https://`` added) with a note saying so; ``pdf``, ``url``,
  ``doi``, ``eprint`` (arXiv) as such.
* **Status**: a paper without title, authors, pages, or (with no ``@Proceedings``
  header) a booktitle or year is imported as ``incomplete`` with ``missing``
  naming them.  An entry is *not* converted (and is reported) when it cannot
  be parsed, has no key or a duplicate key, has pages that are not a page
  range, or a name bibtexparser cannot split.
* **Provenance**: every record cites ``bibtex`` (``BibTeX file NAME`` with the
  path) for the fields read from the file and ``derived`` for keys, status and
  repairs, with the same JSON-pointer map as the packaged records.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..bibtex import normalize_space, reader
from ..bibtex.fields import HEADER_TYPE, PAPER_TYPES
from ..bibtex.latex_decode import decode, decode_title, unknown_macros
from ..bibtex.scan import Block
from ..bibtex.syntax import MAX_FIELD_CHARS, MAX_INPUT_CHARS, shown
from ..collection import PaperCollection
from ..errors import DataError
from ..identifiers import PMLR_ID, parse_doi, parse_openreview, parse_pmlr_key
from ..keys import assign_keys, base_keys
from ..markup import parse
from ..model import Identifiers, Links, Paper, Proceedings, Source
from ..text import fold

__all__ = [
    "MAX_FIELD_CHARS",
    "MAX_INPUT_CHARS",
    "ImportProblem",
    "ImportResult",
    "convert",
    "decode_bytes",
    "parse_string",
    "read_bibtex",
    "read_bibtex_report",
    "read_file",
]

_SLUG = re.compile(r"[^a-z0-9]+")
# The shapes schema/paper.schema.json accepts; a value that does not fit is not imported
# (the identifiers' shapes are icml2026.identifiers').
URL = re.compile(r"https?://[^\s\"<>{}|\\^`]+")
ALIAS_KEY = re.compile(r"[A-Za-z0-9][A-Za-z0-9:_.-]*")


@dataclass(frozen=True, slots=True)
class ImportProblem:
    """An entry that was not converted, and why."""

    key: str | None
    line: int
    reason: str

    def __str__(self) -> str:
        key = _short(self.key, 80) if self.key else "(no key)"
        return f"line {self.line}: {key}: {_short(self.reason, 200)}"


@dataclass(frozen=True)
class ImportResult:
    """What :func:`read_bibtex_report` found: papers, the entries it could not convert, the header."""

    papers: PaperCollection
    problems: tuple[ImportProblem, ...]
    proceedings: tuple[Proceedings, ...]
    source: Source
    entries: int = 0  # entries in the input: papers + problems (+ 1 for a @Proceedings header read)


Progress = Callable[[int, int], None]


def parse_string(text: str, *, progress: Progress | None = None) -> ImportResult:
    """Papers from BibTeX *text*, with the problems found (never reads a file)."""
    _check_size(len(text), "the BibTeX text")
    return convert(text, Source(name="BibTeX text"), progress=progress)


def read_file(path: str | os.PathLike[str], *, progress: Progress | None = None) -> ImportResult:
    """Papers from the UTF-8 BibTeX file at *path* (any name), with the problems found."""
    from ..store.inputs import read_bounded

    target = Path(path)
    raw = read_bounded(os.fspath(target), MAX_INPUT_CHARS, label=_short(str(target)))
    text = decode_bytes(raw, _short(str(target)))
    return convert(text, Source(name=f"BibTeX file {target.name}", url=str(target)), progress=progress)


def decode_bytes(raw: bytes, label: str) -> str:
    """*raw* as UTF-8 text (a byte-order mark is dropped); the same check for files and stdin."""
    _check_size(len(raw), label)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise DataError(f"{label}: not valid UTF-8 (byte {exc.start})") from None
    _check_size(len(text), label)
    return text


def _check_size(chars: int, label: str) -> None:
    if chars > MAX_INPUT_CHARS:
        raise DataError(f"{label} has more than {MAX_INPUT_CHARS} characters; "
                        "split it into smaller files")


def _short(text: str, limit: int = 120) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


def read_bibtex(source: str | os.PathLike[str]) -> PaperCollection:
    """Papers from BibTeX text or a ``.bib`` path; entries that fail are left out.

    Use :func:`read_bibtex_report` to learn which entries failed and why.
    """
    return read_bibtex_report(source).papers


def read_bibtex_report(source: str | os.PathLike[str]) -> ImportResult:
    """Papers from BibTeX text or a ``.bib`` path, with the problems found.

    A path object is a file.  A ``str`` is BibTeX text when it contains a line
    break, and a file name otherwise (whatever it contains: ``refs@misc{x}.bib``
    is a file).  :func:`parse_string` and :func:`read_file` say which explicitly.
    """
    if isinstance(source, str) and ("\n" in source or "\r" in source):
        return parse_string(source)
    return read_file(source)


# --------------------------------------------------------------------------- conversion

@dataclass
class _Context:
    origin: Source
    header: Proceedings | None = None
    groups: dict[tuple[Any, ...], Proceedings] = field(default_factory=dict)
    problems: list[ImportProblem] = field(default_factory=list)
    entries_year: int | None = None  # for a header without a year (PMLR's published bibliography)
    header_entry: Block | None = None


PROGRESS_EVERY = 250


def convert(text: str, origin: Source, *, progress: Progress | None = None) -> ImportResult:
    """Convert BibTeX *text* read from *origin*.

    Every entry is accounted for exactly once: it becomes a paper record, the
    ``@Proceedings`` header, or an :class:`ImportProblem`.  Each record is
    checked as ``icml2026 validate`` checks it (schema, text, ids and keys)
    before it is accepted.  *progress* is called as ``progress(done, total)``.
    """
    ctx = _Context(origin)
    entries = reader.read_entries(text)
    ctx.entries_year = reader.entries_year(entries)
    papers: list[tuple[Paper, Block]] = []
    seen: dict[str, int] = {}
    for done, (entry, fields, reason) in enumerate(entries, 1):
        if progress is not None and (done % PROGRESS_EVERY == 0 or done == len(entries)):
            progress(done, len(entries))
        if fields is None:
            ctx.problems.append(ImportProblem(entry.key, entry.line, reason or "cannot be parsed"))
            continue
        kind = fields.get("ENTRYTYPE", entry.kind).lower()
        if kind == HEADER_TYPE:
            try:
                _read_header(ctx, entry, fields)
            except (ValueError, OverflowError, RecursionError) as exc:
                ctx.problems.append(ImportProblem(entry.key, entry.line,
                                                  f"cannot be converted ({type(exc).__name__})"))
            continue
        key = fields.get("ID") or entry.key
        problem = _entry_problem(kind, key, seen)
        if problem is None and key:
            try:
                papers.append((_paper(ctx, key, fields), entry))
            except reader.Skip as exc:
                problem = str(exc)
            except (ValueError, OverflowError, RecursionError) as exc:  # one entry never sinks the rest
                problem = f"cannot be converted ({type(exc).__name__}: {shown(str(exc))})"
        if problem:
            ctx.problems.append(ImportProblem(key, entry.line, problem))
        elif key:
            seen[key] = entry.line
    accepted, procs = _accepted(ctx, _unique_ids(_published_pmlr_ids(ctx, papers)))
    problems = sorted(ctx.problems, key=lambda p: p.line)
    return ImportResult(PaperCollection(accepted), tuple(problems), tuple(procs), origin, len(entries))


def _published_pmlr_ids(ctx: _Context, papers: list[tuple[Paper, Block]]) -> list[tuple[Paper, Block]]:
    """PMLR's published ids (``abas26a``) for the entries of a PMLR volume's source file.

    PMLR does not publish a paper under its source key (``abas26``): its site builder
    numbers each first author's papers in file order (:mod:`icml2026.pmlr`).  The rule
    can be applied only to the volume from its first page on (page ranges contiguous
    from 1, as in the volume file and any prefix of it).  Other selections keep their
    keys as record ids, but not as PMLR ids: the source key is not the published id, so
    ``identifiers.pmlr`` stays absent and a note says why.
    """
    from dataclasses import replace

    from ..pmlr import assign_ids

    header = ctx.header
    numbered = [(p, e) for p, e in papers if p.identifiers.pmlr and not parse_pmlr_key(e.key or "")]
    if header is None or not header.id.startswith("pmlr-v") or not numbered:
        return papers
    published = header.published or ""
    year = int(published[:4]) if published[:4].isdigit() else header.year
    ids: dict[int, str] = {}
    if _from_first_page(numbered) and year is not None and all(p.authors for p, _ in numbered):
        ids = dict(zip((id(p) for p, _ in numbered),
                       assign_ids([p.authors[0].family or p.authors[0].literal or "" for p, _ in numbered], year)))
    numbered_ids = {id(p) for p, _ in numbered}
    out = []
    for paper, entry in papers:
        new = ids.get(id(paper))
        if id(paper) in numbered_ids and (new is None or not PMLR_ID.fullmatch(new)):
            out.append((_without_pmlr_id(paper), entry))
            continue
        if new is None:
            out.append((paper, entry))
            continue
        provenance = {**paper.provenance, "/identifiers/pmlr": "derived"}
        out.append((replace(paper, id=f"{header.id}-{new}", alias_keys=(f"{header.id}-{new}",),
                            identifiers=replace(paper.identifiers, pmlr=new), provenance=provenance), entry))
    return out


def _without_pmlr_id(paper: Paper) -> Paper:
    """*paper* without the PMLR id its source key seemed to give, and a note saying why."""
    from dataclasses import replace

    key = paper.identifiers.pmlr
    note = (f"PMLR publishes this paper under an id numbered over the whole volume in file order "
            f"({key}a, {key}b, …); this file does not hold the volume from page 1 on, so the id "
            f"cannot be derived and is left out (the entry's key, {key}, is not that id).")
    provenance = {k: v for k, v in paper.provenance.items() if k != "/identifiers/pmlr"}
    provenance["/notes"] = "derived"
    # Nor is ``pmlr-v306-abbas26`` a key anyone cites: the alias is the file's own key.
    return replace(paper, identifiers=replace(paper.identifiers, pmlr=None), notes=(*paper.notes, note),
                   alias_keys=_aliases(key or ""), provenance=provenance)


def _from_first_page(papers: list[tuple[Paper, Block]]) -> bool:
    pages = [p.pages for p, _ in papers]
    if any(r is None for r in pages) or pages[0] is None or pages[0].first != 1:
        return False
    return all(b is not None and a is not None and b.first == a.last + 1 for a, b in zip(pages, pages[1:]))


def _unique_ids(papers: list[tuple[Paper, Block]]) -> list[tuple[Paper, Block]]:
    """Record ids unique in file order: a later ``smith-2020`` after ``smith_2020`` is ``…-2``."""
    from dataclasses import replace

    taken: set[str] = set()
    out = []
    for paper, entry in papers:
        paper_id, n = paper.id, 2
        while paper_id in taken:
            paper_id, n = f"{paper.id}-{n}", n + 1
        taken.add(paper_id)
        out.append((replace(paper, id=paper_id) if paper_id != paper.id else paper, entry))
    return out


def _accepted(ctx: _Context, papers: list[tuple[Paper, Block]]) -> tuple[list[Paper], list[Proceedings]]:
    """The papers (with keys) and proceedings that pass validation; the others become problems.

    Each record goes through ``icml2026 validate``'s own checker, one at a time:
    schema, text, numbers and dates, data rules, and unique ids and keys.
    """
    from ..validation import Checker

    checker = Checker()
    entry_of = {paper.id: entry for paper, entry in papers}
    procs = ([ctx.header] if ctx.header else []) + list(ctx.groups.values())
    bad_procs = {p.id: why for p in procs if (why := record_problem(p.to_dict(), checker)) is not None}
    if ctx.header is not None and ctx.header.id in bad_procs and ctx.header_entry is not None:
        ctx.problems.append(ImportProblem(ctx.header_entry.key, ctx.header_entry.line,
                                          f"the @Proceedings header: {bad_procs[ctx.header.id]}"))
    accepted: list[Paper] = []
    for paper in _assign_keys([p for p, _ in papers]):
        entry = entry_of[paper.id]
        why = (f"its proceedings record: {bad_procs[paper.proceedings.id]}" if paper.proceedings.id in bad_procs
               else record_problem(paper.to_dict(), checker))
        if why is None:
            accepted.append(paper)
        else:
            ctx.problems.append(ImportProblem(entry.key, entry.line, why))
    used = {p.proceedings.id for p in accepted}
    kept = [p for p in procs if p.id not in bad_procs and (p is ctx.header or p.id in used)]
    return accepted, kept


_SURROGATE = re.compile("[\ud800-\udfff]")


def record_problem(data: dict[str, Any], checker: Any = None) -> str | None:
    """The first reason ``icml2026 validate`` would reject this record, or None.

    *checker* (a :class:`icml2026.validation.Checker`) also checks it against the
    records checked before (unique ids and keys, its proceedings).
    """
    from ..store.records import LoadedRecord
    from ..validation import Checker

    text = json.dumps(data, ensure_ascii=False)
    if _SURROGATE.search(text):  # cannot even be written as UTF-8
        return "contains a lone surrogate (not a character)"
    problems = (checker or Checker()).check(LoadedRecord("", data, text=text, floats=False))
    if not problems:
        return None
    first = problems[0]
    return f"{first.pointer or '/'}: {first.message}"


def _entry_problem(kind: str, key: str | None, seen: Mapping[str, int]) -> str | None:
    if kind not in PAPER_TYPES:
        return f"unsupported entry type @{kind}"
    if not key:
        return "the entry has no citation key"
    if key in seen:
        return f"duplicate entry key (first defined at line {seen[key]})"
    return None


def _read_header(ctx: _Context, entry: Block, fields: Mapping[str, str]) -> None:
    if ctx.header is not None:
        ctx.problems.append(ImportProblem(entry.key, entry.line, "a second @Proceedings header (ignored)"))
        return
    try:
        year = reader.year(fields) or ctx.entries_year
        volume = reader.integer(fields, "volume")
        booktitle = reader.plain(fields.get("booktitle", ""))
        if not booktitle or year is None:
            raise reader.Skip("the @Proceedings header has no booktitle or year")
        ctx.header_entry = entry
        ctx.header = Proceedings(
            id=f"pmlr-v{volume}" if volume is not None else f"bibtex-{_slug(entry.key or booktitle)}",
            booktitle=booktitle,
            year=year,
            conference_name=reader.opt_plain(fields, "name"),
            conference_short_name=reader.opt_plain(fields, "shortname"),
            conference_number=reader.integer(fields, "conference_number"),
            volume=volume,
            series=reader.opt_plain(fields, "series"),
            publisher=reader.opt_plain(fields, "publisher"),
            issn=reader.opt_plain(fields, "issn"),
            address=reader.opt_plain(fields, "address"),
            start_date=reader.opt_plain(fields, "start"),
            end_date=reader.opt_plain(fields, "end"),
            published=reader.opt_plain(fields, "published"),
            conference_url=reader.opt_verbatim(fields, "conference_url"),
            editors=reader.editors(fields.get("editor", "")),
            provenance=Source(name=f"{ctx.origin.name}, @Proceedings{{{entry.key}}} header",
                              url=ctx.origin.url),
        )
    except reader.Skip as exc:
        ctx.problems.append(ImportProblem(entry.key, entry.line, str(exc)))


def _proceedings_for(ctx: _Context, fields: Mapping[str, str]) -> Proceedings:
    if ctx.header is not None:
        return ctx.header
    booktitle = reader.plain(fields.get("booktitle", "")) or None
    year = reader.year(fields)
    facts = (booktitle, year, reader.integer(fields, "volume"), reader.opt_plain(fields, "series"),
             reader.opt_plain(fields, "publisher"), reader.opt_plain(fields, "address"), fields.get("editor", ""))
    proc = ctx.groups.get(facts)
    if proc is None:
        base = f"bibtex-{_slug(booktitle or 'unknown venue')[:60].strip('-')}-{year or 'nd'}"
        used = {p.id for p in ctx.groups.values()}
        proc_id, n = base, 2
        while proc_id in used:  # same booktitle and year, other facts: another volume
            proc_id, n = f"{base}-{n}", n + 1
        proc = Proceedings(
            id=proc_id,
            booktitle=booktitle, year=year,
            volume=facts[2], series=facts[3], publisher=facts[4], address=facts[5],
            editors=reader.editors(facts[6]),
            provenance=Source(name=f"{ctx.origin.name}: booktitle, year and editors of its entries",
                              url=ctx.origin.url))
        ctx.groups[facts] = proc
    return proc


class _Record:
    """Fields and provenance of one record under construction."""

    def __init__(self) -> None:
        self.values: dict[str, Any] = {}
        self.provenance: dict[str, str] = {}
        self.notes: list[str] = []

    def set(self, name: str, value: Any, pointer: str, source: str = "bibtex") -> None:
        if value is None or value == () or value == "":
            return
        self.values[name] = value
        self.provenance[pointer] = source


def _paper(ctx: _Context, key: str, fields: Mapping[str, str]) -> Paper:
    proc = _proceedings_for(ctx, fields)
    rec = _Record()
    published = parse_pmlr_key(key)  # pmlr-v306-li26d: PMLR's published bibliography
    pmlr = (proc.id.startswith("pmlr-v") and ctx.header is not None and PMLR_ID.fullmatch(key) is not None
            and len(key) <= 80)  # the schema's longest PMLR id
    pmlr_id = published.id if published else key if pmlr else None
    paper_id = key if published else f"{proc.id}-{key}" if pmlr else f"bibtex-{_key_slug(key)}"
    if "title" in fields:
        title, ranges = decode_title(fields["title"])
        parse(title)  # a MarkupError (a ValueError) makes the entry a problem, before keys use it
        rec.set("title", title, "/title")
        rec.set("title_protect", tuple(ranges), "/title_protect")
    authors, complete = reader.people(fields.get("author", ""))
    rec.set("authors", tuple(authors), "/authors")
    if authors:
        rec.set("authors_complete", complete, "/authors_complete")
    rec.set("pages", reader.pages(fields.get("pages")), "/pages")
    if "abstract" in fields:
        rec.set("abstract", reader.html_to_markup(decode(fields["abstract"])), "/abstract")
    for name in ("title", "abstract"):  # what decoding leaves out is said, not silently lost
        unknown = unknown_macros(fields.get(name, ""))
        if unknown:
            listed = ", ".join("\\" + m for m in unknown[:5]) + (", …" if len(unknown) > 5 else "")
            rec.notes.append(f"The entry's {name} uses {_short(listed, 300)}: no text form, "
                             f"left out of the {name}.")
    identifiers, links = _identifiers_and_links(rec, pmlr_id, fields)
    missing = tuple(name for name in ("title", "authors", "pages") if name not in rec.values)
    missing += tuple(name for name in ("booktitle", "year") if getattr(proc, name) is None)
    if rec.notes:
        rec.set("notes", tuple(rec.notes), "/notes", "derived")
    for pointer in ("/status", "/language"):
        rec.provenance[pointer] = "derived"
    sources = {"bibtex": ctx.origin, "derived": Source(
        name="Derived by icml2026 from the entry's own fields (language English unless the entry says "
             "otherwise)")}
    return Paper(id=paper_id, proceedings=proc, status="incomplete" if missing else "complete",
                 missing=missing, identifiers=identifiers, links=links, sources=sources,
                 provenance=rec.provenance, language=reader.language(fields),
                 alias_keys=_aliases(f"{proc.id}-{key}" if pmlr and not published else key), **rec.values)


def _aliases(key: str) -> tuple[str, ...]:
    return (key,) if ALIAS_KEY.fullmatch(key) and len(key) <= 120 else ()


def _identifiers_and_links(rec: _Record, pmlr_id: str | None, fields: Mapping[str, str]) -> tuple[Identifiers, Links]:
    ids: dict[str, str] = {}
    links: dict[str, str] = {}

    def put(target: dict[str, str], name: str, value: str | None, prefix: str) -> None:
        if value:
            target[name] = value
            rec.provenance[f"{prefix}/{name}"] = "bibtex"

    put(ids, "pmlr", pmlr_id, "/identifiers")
    openreview = reader.identifier(rec.notes, "openreview", fields, parse_openreview)
    put(ids, "openreview", openreview, "/identifiers")
    put(ids, "arxiv", _arxiv_id(rec, fields), "/identifiers")
    put(ids, "doi", reader.identifier(rec.notes, "doi", fields, parse_doi), "/identifiers")
    put(links, "proceedings", reader.checked(rec.notes, "url", reader.opt_verbatim(fields, "url"), URL), "/links")
    put(links, "pdf", reader.checked(rec.notes, "pdf", reader.opt_verbatim(fields, "pdf"), URL), "/links")
    if openreview:
        put(links, "openreview", f"https://openreview.net/forum?id={openreview}", "/links")
    if fields.get("software"):
        original = fields["software"]
        code = reader.checked(rec.notes, "software", reader.repair_url(original), URL)
        put(links, "code", code, "/links")
        if code and code != normalize_space(original):
            rec.notes.append(f"The entry's software field reads {reader.quote(original)}; imported as {reader.quote(code)}.")
            rec.provenance["/links/code"] = "derived"
    return Identifiers(**ids), Links(**links)


def _arxiv_id(rec: _Record, fields: Mapping[str, str]) -> str | None:
    """The entry's arXiv id; a note (and its provenance) when its eprint is not one."""
    before = len(rec.notes)
    found = reader.arxiv_id(rec.notes, fields)
    if len(rec.notes) > before:
        rec.provenance["/notes"] = "derived"
    return found


def _assign_keys(papers: list[Paper]) -> list[Paper]:
    """Citation keys by the packaged data's rule (:func:`~icml2026.keys.assign_keys` over
    :func:`~icml2026.keys.base_key`, ordered by first page, then id); alias keys as there:
    the entry's own key and the key with function words kept, unless another paper answers
    to them."""
    from dataclasses import replace

    bases: dict[str, tuple[str, int]] = {}
    first_words: dict[str, str] = {}
    for paper in papers:
        if paper.title or paper.authors:
            first = paper.authors[0] if paper.authors else None
            family = (first.family or first.literal or "") if first else ""
            skipping, first_words[paper.id] = base_keys(family, paper.year, paper.title or "")
            bases[paper.id] = (skipping, paper.pages.first if paper.pages else 0)
    keys = assign_keys(bases, {})
    taken = set(keys.values())
    ids = {p.id for p in papers}
    done = []
    for paper in sorted(papers, key=lambda p: p.id):
        key = keys.get(paper.id)
        candidates = [*paper.alias_keys, *([first_words[paper.id]] if paper.id in first_words else [])]
        # An alias another paper already answers to would make lookups ambiguous: leave it out.
        aliases = tuple(k for k in dict.fromkeys(candidates)
                        if k not in taken and (k == paper.id or k not in ids))
        taken.update(aliases)
        provenance = dict(paper.provenance)
        if key:
            provenance["/citation_key"] = "derived"
        if aliases:
            provenance["/alias_keys"] = "derived"
        missing = paper.missing if key else (*paper.missing, "citation_key")
        done.append(replace(paper, citation_key=key, alias_keys=aliases, provenance=provenance,
                            missing=missing))
    return done


# --------------------------------------------------------------------------- field values

def _slug(text: str) -> str:
    return _SLUG.sub("-", text.lower()).strip("-") or "untitled"


def _key_slug(key: str) -> str:
    """An entry key as the tail of a record id: ASCII-folded (``Müller`` → ``muller``), at most 100."""
    return _slug(fold(key))[:100].strip("-") or "untitled"


# --------------------------------------------------------------------------- names

# --------------------------------------------------------------------------- HTML in abstracts
