"""BibTeX → canonical records, PMLR's volume BibTeX in particular.

    >>> result = read_bibtex_report("pmlr-v306-sample-A.bib")
    >>> result.papers        # PaperCollection, like icml2026.load()
    >>> result.problems      # entries that could not be converted: key, line, reason

Conversion rules:

* **Entries** are located by a brace-counting scanner (as BibTeX reads them),
  which gives each its line and isolates one broken entry from the rest; the
  fields are parsed by bibtexparser 1.4 (whole file at once, or entry by entry
  when the file has broken entries).  ``@string`` macros apply to every entry.
* **Year** is ``year``, or the year of BibLaTeX's ``date``.
* **Header**: a ``@Proceedings`` entry (PMLR writes one per volume) becomes the
  :class:`~icml2026.model.Proceedings` of every paper: ``booktitle``, ``year``,
  ``volume``, ``editor``, ``name``/``shortname``, ``start``/``end``/``published``,
  ``address``, ``conference_url``, ``conference_number`` (and ``series``,
  ``publisher``, ``issn`` if present).  Its id is ``pmlr-v{volume}`` — a volume
  header is PMLR's format — and paper ids are ``pmlr-v{volume}-{entry key}``
  with the entry key as PMLR id and alias key.  Without a header, papers are
  grouped by their own ``booktitle``/``year``/… into proceedings with id
  ``bibtex-{slug of booktitle}-{year}``, and paper ids are ``bibtex-{key}``.
  Nothing the file does not say is added (no series, publisher or URL pattern).
* **Text**: LaTeX is decoded to Unicode with :func:`icml2026.latex.decode`
  (accents ``Sch\\"{o}lkopf`` → Schölkopf, ``--``/``---`` → en/em dash, ``\\%``
  → %, math kept as ``$…$``).  Top-level brace groups of the title
  (``{T}ex {B}races``) become ``title_protect`` ranges.  In abstracts PMLR's
  HTML ``<em>``/``<i>`` and ``<b>``/``<strong>`` become ``*emphasis*``: our
  markup has no bold, and PMLR authors use bold to highlight, so emphasis keeps
  the intent; tags are counted so nested or mis-paired tags still give
  balanced markup, and other tags stay literal text.
* **Names** are split brace-aware on ``and`` and into von/last/jr/first parts by
  bibtexparser's ``splitname``; a name that is one braced group is a
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

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Mapping

from ..collection import PaperCollection
from ..errors import DataError
from ..keys import base_key, unique_key
from ..latex import decode, decode_title, normalize_space
from ..markup import Segment, from_segments, parse, to_plain
from ..model import Identifiers, Links, Pages, Paper, Person, Proceedings, Source

SKIPPED_TYPES = frozenset({"comment", "preamble", "string"})
HEADER_TYPE = "proceedings"
PAPER_TYPES = frozenset({"inproceedings", "conference", "article", "incollection", "misc",
                         "techreport", "unpublished"})
_PAGES = re.compile(r"^\s*(\d+)\s*(?:(?:-+|\u2013|\u2014)\s*(\d+)\s*)?$")
_HTML_TAG = re.compile(r"<(/?)(em|i|b|strong)\s*>", re.IGNORECASE)
_OPENREVIEW_ID = re.compile(r"[?&]id=([^&#\s]+)")
_SLUG = re.compile(r"[^a-z0-9]+")
# The shapes schema/paper.schema.json accepts; a value that does not fit is not imported.
PMLR_ID = re.compile(r"[a-z0-9][a-z0-9-]*[0-9]{2}[a-z]*")
OPENREVIEW_ID = re.compile(r"[A-Za-z0-9_-]{6,20}")
ARXIV_ID = re.compile(r"(?:arxiv:)?([0-9]{4}\.[0-9]{4,5})(?:v[0-9]+)?", re.IGNORECASE)
DOI = re.compile(r"10\.[0-9]{4,9}/\S+")
URL = re.compile(r"https?://[^\s\"<>{}|\\^`]+")
ALIAS_KEY = re.compile(r"[A-Za-z0-9][A-Za-z0-9:_.-]*")
_NAME_FORBIDDEN = re.compile(r"[\x00-\x1f\x7f{}\\$]")


@dataclass(frozen=True, slots=True)
class ImportProblem:
    """An entry that was not converted, and why."""

    key: str | None
    line: int
    reason: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.key or '(no key)'}: {self.reason}"


@dataclass(frozen=True)
class ImportResult:
    """What :func:`read_bibtex_report` found: papers, the entries it could not convert, the header."""

    papers: PaperCollection
    problems: tuple[ImportProblem, ...]
    proceedings: tuple[Proceedings, ...]
    source: Source

    @property
    def ok(self) -> bool:
        return not self.problems


def read_bibtex(source: str | os.PathLike[str]) -> PaperCollection:
    """Papers from BibTeX text or a ``.bib`` path; entries that fail are left out.

    Use :func:`read_bibtex_report` to learn which entries failed and why.
    """
    return read_bibtex_report(source).papers


def read_bibtex_report(source: str | os.PathLike[str]) -> ImportResult:
    """Papers from BibTeX text or a ``.bib`` path, with the problems found."""
    text, origin = _read_source(source)
    return convert(text, origin)


# --------------------------------------------------------------------------- input

def _looks_like_bibtex(source: str) -> bool:
    return re.search(r"@\s*[A-Za-z]+\s*[{(]", source) is not None


def _read_source(source: str | os.PathLike[str]) -> tuple[str, Source]:
    if isinstance(source, str) and _looks_like_bibtex(source):
        return source, Source(name="BibTeX text")
    path = Path(source)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise DataError(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise DataError(f"{path}: not valid UTF-8 (byte {exc.start})") from None
    return text, Source(name=f"BibTeX file {path.name}", url=str(path))


# --------------------------------------------------------------------------- scanning

@dataclass(frozen=True, slots=True)
class RawEntry:
    """One ``@type{…}`` block as BibTeX delimits it."""

    kind: str
    key: str | None
    line: int
    text: str
    error: str | None = None


def scan(text: str) -> Iterator[RawEntry]:
    """The ``@`` blocks of *text*, each with its first line; unclosed blocks carry an error."""
    pos, line = 0, 1
    header = re.compile(r"@[ \t]*([A-Za-z][\w-]*)[ \t\r\n]*([{(])")
    while True:
        at = text.find("@", pos)
        if at < 0:
            return
        line += text.count("\n", pos, at)
        pos = at
        match = header.match(text, at)
        if match is None:
            pos = at + 1
            continue
        kind = match.group(1).lower()
        end = _block_end(text, match.end(), match.group(2))
        if end < 0:
            resync = _next_line_at(text, match.end())
            block = text[at:resync]
            yield RawEntry(kind, _key_of(text, match.end()), line,
                           block, "unbalanced braces: the entry never closes")
            line += block.count("\n")
            pos = resync
            continue
        block = text[at:end]
        yield RawEntry(kind, _key_of(text, match.end()), line, block)
        line += block.count("\n")
        pos = end


def _block_end(text: str, start: int, opener: str) -> int:
    """Index after the delimiter closing the block opened just before *start*, or -1."""
    depth = 0
    for i in range(start, len(text)):
        ch = text[i]
        if ch == "{":
            depth += 1
        elif ch == "}":
            if depth == 0:
                return i + 1 if opener == "{" else -1
            depth -= 1
        elif ch == ")" and opener == "(" and depth == 0:
            return i + 1
    return -1


def _next_line_at(text: str, start: int) -> int:
    match = re.compile(r"\n[ \t]*@").search(text, start)
    return match.start() + 1 if match else len(text)


def _key_of(text: str, start: int) -> str | None:
    match = re.compile(r"[ \t\r\n]*([^,\s{}()=\"#%'~\\]+)[ \t\r\n]*,").match(text, start)
    return match.group(1) if match else None


# --------------------------------------------------------------------------- parsing

def _parser() -> Any:
    from bibtexparser.bparser import BibTexParser

    return BibTexParser(common_strings=True, ignore_nonstandard_types=False,
                        homogenize_fields=False, interpolate_strings=True)


def _parse(text: str) -> list[dict[str, str]]:
    import logging

    import bibtexparser

    # Failures become ImportProblems; bibtexparser's own log lines would only repeat them.
    logging.getLogger("bibtexparser").addHandler(logging.NullHandler())
    return bibtexparser.loads(text, _parser()).entries


def parse_entries(text: str, raw: list[RawEntry]) -> list[tuple[RawEntry, dict[str, str] | None, str | None]]:
    """(raw entry, fields or None, reason) for every non-comment entry of *text*."""
    wanted = [r for r in raw if r.kind not in SKIPPED_TYPES]
    if all(r.error is None for r in raw):
        try:
            parsed = _parse(text)
        except Exception:  # noqa: BLE001 - any parser failure: fall back to entry by entry
            parsed = []
        if parsed and [e.get("ID") for e in parsed] == [r.key for r in wanted]:
            return [(r, e, None) for r, e in zip(wanted, parsed)]
    # A broken file: parse each entry alone, with the @string macros.
    strings = "\n".join(r.text for r in raw if r.kind == "string" and r.error is None)
    out = []
    for entry in wanted:
        if entry.error:
            out.append((entry, None, entry.error))
            continue
        try:
            found = _parse(strings + "\n" + entry.text)
        except Exception as exc:  # bibtexparser raises assorted parse errors
            found, why = [], f"cannot be parsed ({type(exc).__name__}: {exc})"
        else:
            why = "cannot be parsed (syntax error in the entry)"
        out.append((entry, found[0], None) if len(found) == 1 else (entry, None, why))
    return out


# --------------------------------------------------------------------------- conversion

@dataclass
class _Context:
    origin: Source
    header: Proceedings | None = None
    groups: dict[tuple[Any, ...], Proceedings] = field(default_factory=dict)
    problems: list[ImportProblem] = field(default_factory=list)


def convert(text: str, origin: Source) -> ImportResult:
    """Convert BibTeX *text* read from *origin*."""
    raw = list(scan(text))
    ctx = _Context(origin)
    entries = parse_entries(text, raw)
    papers: list[tuple[Paper, str]] = []
    seen: dict[str, int] = {}
    for entry, fields, reason in entries:
        if fields is None:
            ctx.problems.append(ImportProblem(entry.key, entry.line, reason or "cannot be parsed"))
            continue
        kind = fields.get("ENTRYTYPE", entry.kind).lower()
        if kind == HEADER_TYPE:
            _read_header(ctx, entry, fields)
            continue
        key = fields.get("ID") or entry.key
        problem = _entry_problem(kind, key, seen)
        if problem is None:
            try:
                papers.append((_paper(ctx, key, fields), key))
            except _Skip as exc:
                problem = str(exc)
        if problem:
            ctx.problems.append(ImportProblem(key, entry.line, problem))
        elif key:
            seen[key] = entry.line
    finished = _assign_keys([p for p, _ in papers])
    procs = ([ctx.header] if ctx.header else []) + list(ctx.groups.values())
    return ImportResult(PaperCollection(finished), tuple(ctx.problems), tuple(procs), origin)


def _entry_problem(kind: str, key: str | None, seen: Mapping[str, int]) -> str | None:
    if kind not in PAPER_TYPES:
        return f"unsupported entry type @{kind}"
    if not key:
        return "the entry has no citation key"
    if key in seen:
        return f"duplicate entry key (first defined at line {seen[key]})"
    return None


class _Skip(Exception):
    """Raised while converting an entry that cannot become a record."""


def _read_header(ctx: _Context, entry: RawEntry, fields: Mapping[str, str]) -> None:
    if ctx.header is not None:
        ctx.problems.append(ImportProblem(entry.key, entry.line, "a second @Proceedings header (ignored)"))
        return
    try:
        year = _year(fields)
        volume = _int(fields, "volume")
        booktitle = _plain(fields.get("booktitle", ""))
        if not booktitle or year is None:
            raise _Skip("the @Proceedings header has no booktitle or year")
        ctx.header = Proceedings(
            id=f"pmlr-v{volume}" if volume is not None else f"bibtex-{_slug(entry.key or booktitle)}",
            booktitle=booktitle,
            year=year,
            conference_name=_opt_plain(fields, "name"),
            conference_short_name=_opt_plain(fields, "shortname"),
            conference_number=_int(fields, "conference_number"),
            volume=volume,
            series=_opt_plain(fields, "series"),
            publisher=_opt_plain(fields, "publisher"),
            issn=_opt_plain(fields, "issn"),
            address=_opt_plain(fields, "address"),
            start_date=_opt_plain(fields, "start"),
            end_date=_opt_plain(fields, "end"),
            published=_opt_plain(fields, "published"),
            conference_url=_opt_verbatim(fields, "conference_url"),
            editors=tuple(_people(fields.get("editor", ""))[0]),
            provenance=Source(name=f"{ctx.origin.name}, @Proceedings{{{entry.key}}} header",
                              url=ctx.origin.url),
        )
    except _Skip as exc:
        ctx.problems.append(ImportProblem(entry.key, entry.line, str(exc)))


def _proceedings_for(ctx: _Context, fields: Mapping[str, str]) -> Proceedings:
    if ctx.header is not None:
        return ctx.header
    booktitle = _plain(fields.get("booktitle", "")) or None
    year = _year(fields)
    facts = (booktitle, year, _int(fields, "volume"), _opt_plain(fields, "series"),
             _opt_plain(fields, "publisher"), _opt_plain(fields, "address"), fields.get("editor", ""))
    proc = ctx.groups.get(facts)
    if proc is None:
        proc = Proceedings(
            id=f"bibtex-{_slug(booktitle or 'unknown venue')[:60].strip('-')}-{year or 'nd'}",
            booktitle=booktitle, year=year,
            volume=facts[2], series=facts[3], publisher=facts[4], address=facts[5],
            editors=tuple(_people(facts[6])[0]),
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
    pmlr = proc.id.startswith("pmlr-v") and ctx.header is not None and PMLR_ID.fullmatch(key) is not None
    paper_id = f"{proc.id}-{key}" if pmlr else f"bibtex-{_slug(key)}"
    if "title" in fields:
        title, ranges = decode_title(fields["title"])
        rec.set("title", title, "/title")
        rec.set("title_protect", tuple(ranges), "/title_protect")
    authors, complete = _people(fields.get("author", ""))
    rec.set("authors", tuple(authors), "/authors")
    if authors:
        rec.set("authors_complete", complete, "/authors_complete")
    rec.set("pages", _pages(fields.get("pages")), "/pages")
    if "abstract" in fields:
        rec.set("abstract", html_to_markup(decode(fields["abstract"])), "/abstract")
    identifiers, links = _identifiers_and_links(rec, key if pmlr else None, fields)
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
                 provenance=rec.provenance, language=_language(fields),
                 alias_keys=_aliases(f"{proc.id}-{key}" if pmlr else key), **rec.values)


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
    openreview = _checked(rec, "openreview", _openreview_id(fields.get("openreview", "")), OPENREVIEW_ID)
    put(ids, "openreview", openreview, "/identifiers")
    put(ids, "arxiv", _arxiv_id(rec, fields), "/identifiers")
    doi = normalize_space(fields.get("doi", "")).removeprefix("https://doi.org/").removeprefix("doi:")
    put(ids, "doi", _checked(rec, "doi", doi, DOI), "/identifiers")
    put(links, "proceedings", _checked(rec, "url", _opt_verbatim(fields, "url"), URL), "/links")
    put(links, "pdf", _checked(rec, "pdf", _opt_verbatim(fields, "pdf"), URL), "/links")
    if openreview:
        put(links, "openreview", f"https://openreview.net/forum?id={openreview}", "/links")
    if fields.get("software"):
        original = fields["software"]
        code = _checked(rec, "software", repair_url(original), URL)
        put(links, "code", code, "/links")
        if code and code != normalize_space(original):
            rec.notes.append(f"The entry's software field reads {original!r}; imported as {code!r}.")
            rec.provenance["/links/code"] = "derived"
    return Identifiers(**ids), Links(**links)


def _assign_keys(papers: list[Paper]) -> list[Paper]:
    """Citation keys ``family+year+word``, unique in this import; alias keys as the packaged data."""
    from dataclasses import replace

    taken: set[str] = set()
    done = []
    for paper in sorted(papers, key=lambda p: p.id):
        key = None
        candidates = list(paper.alias_keys)
        if paper.title or paper.authors:
            first = paper.authors[0] if paper.authors else None
            family = (first.family or first.literal or "") if first else ""
            key = unique_key(base_key(family, paper.year, paper.title or ""), taken)
            taken.add(key)
            candidates.append(base_key(family, paper.year, paper.title or "", skip_function_words=False))
        # An alias another paper already answers to would make lookups ambiguous: leave it out.
        aliases = tuple(k for k in dict.fromkeys(candidates) if k not in taken)
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

def _plain(latex: str) -> str:
    return to_plain(decode(latex)) if latex else ""


def _opt_plain(fields: Mapping[str, str], name: str) -> str | None:
    return _plain(fields[name]) or None if name in fields else None


def _opt_verbatim(fields: Mapping[str, str], name: str) -> str | None:
    value = normalize_space(fields.get(name, ""))
    return value or None


def _int(fields: Mapping[str, str], name: str) -> int | None:
    value = normalize_space(fields.get(name, ""))
    if not value:
        return None
    if not value.isdigit():
        raise _Skip(f"{name} {value!r} is not a number")
    return int(value)


def _year(fields: Mapping[str, str]) -> int | None:
    """``year``, or the year of BibLaTeX's ``date`` (``2026``, ``2026-07-06``, ``2026/2027``)."""
    if normalize_space(fields.get("year", "")):
        return _int(fields, "year")
    match = re.match(r"\s*(\d{4})(?:[-/]|\s*$)", fields.get("date", ""))
    return int(match.group(1)) if match else None


def _pages(value: str | None) -> Pages | None:
    if value is None or not normalize_space(value):
        return None
    match = _PAGES.match(value)
    if match is None:
        raise _Skip(f"pages {value!r} is not a page range")
    first = int(match.group(1))
    last = int(match.group(2) or first)
    if last < first:
        raise _Skip(f"pages {value!r} ends before it starts")
    return Pages(first, last)


def _language(fields: Mapping[str, str]) -> str:
    value = normalize_space(fields.get("langid") or fields.get("language") or "").lower()
    names = {"english": "en", "american": "en", "british": "en", "german": "de", "ngerman": "de",
             "french": "fr", "spanish": "es", "italian": "it", "portuguese": "pt"}
    return names.get(value, value if re.fullmatch(r"[a-z]{2}", value) else "en")


def _openreview_id(value: str) -> str | None:
    value = normalize_space(value)
    if not value:
        return None
    match = _OPENREVIEW_ID.search(value)
    return match.group(1) if match else value


def _arxiv_id(rec: _Record, fields: Mapping[str, str]) -> str | None:
    kind = (fields.get("archiveprefix") or fields.get("eprinttype") or "").strip().lower()
    eprint = normalize_space(fields.get("eprint", ""))
    if kind != "arxiv" or not eprint:
        return None
    match = ARXIV_ID.fullmatch(eprint)
    if match is None:
        rec.notes.append(f"The entry's eprint {eprint!r} is not a new-style arXiv id; not imported.")
        rec.provenance["/notes"] = "derived"
        return None
    return match.group(1)


def _checked(rec: _Record, name: str, value: str | None, shape: re.Pattern[str]) -> str | None:
    """*value* if it has the shape the schema requires; otherwise None and a note."""
    if not value:
        return None
    if shape.fullmatch(value):
        return value
    rec.notes.append(f"The entry's {name} field {value!r} is not a valid {name}; not imported.")
    return None


def repair_url(value: str) -> str | None:
    """``https://github. com/x`` → ``https://github.com/x``; ``github.com/x`` → ``https://github.com/x``."""
    url = re.sub(r"\s+", "", value)
    if not url:
        return None
    if not re.match(r"[a-z][a-z0-9+.-]*://", url, re.IGNORECASE):
        url = "https://" + url
    return url


def _slug(text: str) -> str:
    return _SLUG.sub("-", text.lower()).strip("-") or "untitled"




# --------------------------------------------------------------------------- names

def split_names(field_value: str) -> list[str]:
    """Split an author/editor field on ``and`` at brace depth 0 (case-insensitive, as BibTeX)."""
    names, depth, start = [], 0, 0
    words = re.finditer(r"[{}]|\s+and\s+", field_value, re.IGNORECASE)
    for match in words:
        token = match.group(0)
        if token == "{":
            depth += 1
        elif token == "}":
            depth = max(depth - 1, 0)
        elif depth == 0:
            names.append(field_value[start:match.start()])
            start = match.end()
    names.append(field_value[start:])
    return [n.strip() for n in names if n.strip()]


def _people(field_value: str) -> tuple[list[Person], bool]:
    """Persons of an author/editor field, and whether the list is complete (no ``and others``)."""
    from bibtexparser.customization import InvalidName, splitname

    people = []
    complete = True
    for raw in split_names(normalize_space(field_value)):
        if raw.lower() == "others":
            complete = False
            continue
        if raw.startswith("{") and raw.endswith("}") and _one_group(raw):
            literal = _plain(raw)
            if _NAME_FORBIDDEN.search(literal):
                raise _Skip(f"name {raw!r} decodes to {literal!r}, with characters a name cannot hold")
            people.append(Person(literal=literal))
            continue
        try:
            parts = splitname(raw, strict_mode=False)
        except InvalidName as exc:
            raise _Skip(f"name {raw!r} cannot be split: {exc}") from None
        joined = {k: _plain(" ".join(v)) or None for k, v in parts.items()}
        bad = [v for v in joined.values() if v and _NAME_FORBIDDEN.search(v)]
        if bad:
            raise _Skip(f"name {raw!r} decodes to {bad[0]!r}, with characters a name cannot hold")
        if not joined.get("last"):
            joined["last"], joined["first"] = joined.get("first"), None
        people.append(Person(family=joined["last"], given=joined["first"], particle=joined["von"],
                             suffix=joined["jr"]))
    return people, complete


def _one_group(text: str) -> bool:
    depth = 0
    for i, ch in enumerate(text):
        depth += (ch == "{") - (ch == "}")
        if depth == 0 and i < len(text) - 1:
            return False
    return True


# --------------------------------------------------------------------------- HTML in abstracts

def html_to_markup(markup_text: str) -> str:
    """Turn ``<em>``/``<i>``/``<b>``/``<strong>`` in the text of *markup_text* into ``*…*``.

    Each tag name keeps its own open count; text is emphasised while any count is
    positive, so nesting and mis-pairing still give balanced markup.
    """
    if "<" not in markup_text:
        return markup_text
    open_tags: dict[str, int] = {}
    out: list[Segment] = []
    for seg in parse(markup_text):
        if seg.kind == "math":
            out.append(Segment("math", seg.value, seg.emph or any(open_tags.values())))
            continue
        pos = 0
        for match in _HTML_TAG.finditer(seg.value):
            _append_text(out, seg.value[pos:match.start()], seg.emph or any(open_tags.values()))
            tag = match.group(2).lower()
            step = -1 if match.group(1) else 1
            open_tags[tag] = max(open_tags.get(tag, 0) + step, 0)
            pos = match.end()
        _append_text(out, seg.value[pos:], seg.emph or any(open_tags.values()))
    return from_segments(out)


def _append_text(out: list[Segment], text: str, emph: bool) -> None:
    if text:
        out.append(Segment("text", text, emph))

