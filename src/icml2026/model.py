"""Typed, immutable records: a paper, its people, its proceedings, its provenance.

Each class has a ``from_dict``/``to_dict`` pair matching ``schema/paper.schema.json``
and ``schema/proceedings.schema.json``; ``to_dict`` emits keys in a fixed order (for a
paper, sorted at every level: the JSON exporters write it as built) so that the JSON
files and every export are deterministic.

The classes are plain ``__slots__`` classes on :class:`Record`, not dataclasses:
creating fourteen dataclasses (and importing :mod:`dataclasses`, :mod:`inspect` …) was
the largest part of every command's start-up.  They behave as frozen dataclasses do:
keyword or positional construction in field order, equality and hash over the fields,
a ``Class(field=…)`` repr, :class:`dataclasses.FrozenInstanceError` on assignment, and
``dataclasses.replace``/``fields``/``asdict`` work on them (their field table is made
on first use).
"""

from __future__ import annotations

from ._record import Record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Mapping
    from typing import Any

SCHEMA_VERSION = "1.0"
_set = object.__setattr__


class Person(Record):
    """A name split the way BibTeX and CSL need it.

    ``family`` keeps apostrophes and hyphens (``N’Guessan``, ``Fosler-Lussier``);
    ``particle`` is a lower-case ``von`` part (``van der``); ``literal`` is a name
    that must never be split (an organisation).
    """

    __slots__ = ("family", "given", "particle", "suffix", "literal")
    family: str | None
    given: str | None
    particle: str | None
    suffix: str | None
    literal: str | None

    def __init__(self, family: str | None = None, given: str | None = None, particle: str | None = None,
                 suffix: str | None = None, literal: str | None = None) -> None:
        _set(self, "family", family)
        _set(self, "given", given)
        _set(self, "particle", particle)
        _set(self, "suffix", suffix)
        _set(self, "literal", literal)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Person:
        # Keyword expansion: loading the volume builds ~37,000 people, and this is 4× faster
        # than five dict lookups; a key the class does not know raises TypeError, as before.
        return cls(**data)

    def to_dict(self) -> dict[str, str]:
        """The name's parts that are set, keys in sorted order (as the canonical JSON writes them).

        Plain ifs, not a loop: the JSON exporters call this for every author of the volume."""
        out = {}
        if self.family is not None:
            out["family"] = self.family
        if self.given is not None:
            out["given"] = self.given
        if self.literal is not None:
            out["literal"] = self.literal
        if self.particle is not None:
            out["particle"] = self.particle
        if self.suffix is not None:
            out["suffix"] = self.suffix
        return out

    @property
    def display(self) -> str:
        """``Given particle Family, Suffix`` — for listings and search."""
        if self.literal:
            return self.literal
        name = " ".join(p for p in (self.given, self.particle, self.family) if p)
        return f"{name}, {self.suffix}" if self.suffix else name


class Source(Record):
    """Where a fact comes from."""

    __slots__ = ("name", "url", "retrieved")
    name: str
    url: str | None
    retrieved: str | None

    def __init__(self, name: str, url: str | None = None, retrieved: str | None = None) -> None:
        _set(self, "name", name)
        _set(self, "url", url)
        _set(self, "retrieved", retrieved)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Source:
        key = (data["name"], data.get("url"), data.get("retrieved"))
        found = _SOURCES.get(key)
        if found is None:  # papers share most sources: one immutable object each
            found = _SOURCES[key] = cls(*key)
        return found

    def to_dict(self) -> dict[str, str]:
        """Keys in sorted order, as the canonical JSON writes them."""
        out = {"name": self.name}
        if self.retrieved is not None:
            out["retrieved"] = self.retrieved
        if self.url is not None:
            out["url"] = self.url
        return out


_SOURCES: dict[tuple[str, str | None, str | None], Source] = {}


class Pages(Record):
    __slots__ = ("first", "last")
    first: int
    last: int

    def __init__(self, first: int, last: int) -> None:
        _set(self, "first", first)
        _set(self, "last", last)

    def as_text(self, dash: str = "\u2013") -> str:
        """``first<dash>last``, or the one page: each format passes its own dash
        (BibTeX ``--``, CSL and Zotero ``-``, people an en dash)."""
        return f"{self.first}{dash}{self.last}" if self.last != self.first else str(self.first)

    def __str__(self) -> str:
        return self.as_text()


class Proceedings(Record):
    """A proceedings volume: the facts its papers share, stored once.

    The packaged ICML 2026 record has every field; one built by an importer from
    a BibTeX entry without PMLR's ``@Proceedings`` header has what the entry had
    (even no booktitle or year: its papers are then incomplete).
    """

    __slots__ = ("id", "booktitle", "year", "conference_name", "conference_short_name", "conference_number",
                 "volume", "series", "publisher", "issn", "address", "start_date", "end_date", "published",
                 "conference_url", "paper_url_pattern", "editors", "provenance")
    id: str
    booktitle: str | None
    year: int | None
    conference_name: str | None
    conference_short_name: str | None
    conference_number: int | None
    volume: int | None
    series: str | None
    publisher: str | None
    issn: str | None
    address: str | None
    start_date: str | None
    end_date: str | None
    published: str | None
    conference_url: str | None
    paper_url_pattern: str | None
    editors: tuple[Person, ...]
    provenance: Source | None

    def __init__(self, id: str, booktitle: str | None = None, year: int | None = None,
                 conference_name: str | None = None, conference_short_name: str | None = None,
                 conference_number: int | None = None, volume: int | None = None, series: str | None = None,
                 publisher: str | None = None, issn: str | None = None, address: str | None = None,
                 start_date: str | None = None, end_date: str | None = None, published: str | None = None,
                 conference_url: str | None = None, paper_url_pattern: str | None = None,
                 editors: tuple[Person, ...] = (), provenance: Source | None = None) -> None:
        _set(self, "id", id)
        _set(self, "booktitle", booktitle)
        _set(self, "year", year)
        _set(self, "conference_name", conference_name)
        _set(self, "conference_short_name", conference_short_name)
        _set(self, "conference_number", conference_number)
        _set(self, "volume", volume)
        _set(self, "series", series)
        _set(self, "publisher", publisher)
        _set(self, "issn", issn)
        _set(self, "address", address)
        _set(self, "start_date", start_date)
        _set(self, "end_date", end_date)
        _set(self, "published", published)
        _set(self, "conference_url", conference_url)
        _set(self, "paper_url_pattern", paper_url_pattern)
        _set(self, "editors", editors)
        _set(self, "provenance", provenance)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Proceedings:
        return cls(
            id=data["id"],
            booktitle=data.get("booktitle"),
            year=data.get("year"),
            **{name: data.get(name) for name in _PROCEEDINGS_OPTIONAL},
            editors=tuple(Person.from_dict(e) for e in data.get("editors", ())),
            provenance=Source.from_dict(data["provenance"]) if "provenance" in data else None,
        )

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"schema_version": SCHEMA_VERSION}
        for name in ("id", "booktitle", "year", *_PROCEEDINGS_OPTIONAL):
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        if self.editors:
            out["editors"] = [e.to_dict() for e in self.editors]
        if self.provenance is not None:
            out["provenance"] = self.provenance.to_dict()
        return out

    @property
    def event_title(self) -> str | None:
        """``International Conference on Machine Learning (ICML 2026)``."""
        if not self.conference_name:
            return None
        if self.conference_short_name:
            return f"{self.conference_name} ({self.conference_short_name} {self.year})"
        return self.conference_name


_PROCEEDINGS_OPTIONAL = (
    "conference_name", "conference_short_name", "conference_number", "volume", "series",
    "publisher", "issn", "address", "start_date", "end_date", "published", "conference_url",
    "paper_url_pattern",
)


class Identifiers(Record):
    __slots__ = ("pmlr", "openreview", "arxiv", "doi")
    pmlr: str | None
    openreview: str | None
    arxiv: str | None
    doi: str | None

    def __init__(self, pmlr: str | None = None, openreview: str | None = None, arxiv: str | None = None,
                 doi: str | None = None) -> None:
        _set(self, "pmlr", pmlr)
        _set(self, "openreview", openreview)
        _set(self, "arxiv", arxiv)
        _set(self, "doi", doi)

    def items(self) -> Iterator[tuple[str, str]]:
        for name in ("pmlr", "openreview", "arxiv", "doi"):
            value = getattr(self, name)
            if value is not None:
                yield name, value


class Links(Record):
    __slots__ = ("proceedings", "pdf", "openreview", "code", "project", "icml_virtual")
    proceedings: str | None
    pdf: str | None
    openreview: str | None
    code: str | None
    project: str | None
    icml_virtual: str | None

    def __init__(self, proceedings: str | None = None, pdf: str | None = None, openreview: str | None = None,
                 code: str | None = None, project: str | None = None, icml_virtual: str | None = None) -> None:
        _set(self, "proceedings", proceedings)
        _set(self, "pdf", pdf)
        _set(self, "openreview", openreview)
        _set(self, "code", code)
        _set(self, "project", project)
        _set(self, "icml_virtual", icml_virtual)

    def items(self) -> Iterator[tuple[str, str]]:
        for name in ("proceedings", "pdf", "openreview", "code", "project", "icml_virtual"):
            value = getattr(self, name)
            if value is not None:
                yield name, value


_COMPLETE: Mapping[str, Any] = {"state": "complete"}
_EMPTY: Mapping[str, Any] = {}
_IDENTIFIER_NAMES = ("arxiv", "doi", "openreview", "pmlr")  # sorted: the order to_dict writes
_LINK_NAMES = ("code", "icml_virtual", "openreview", "pdf", "proceedings", "project")
_ALWAYS_AFTER = frozenset(("schema_version", "sources", "status"))  # written after provenance
_TITLE, _TITLE_PROTECT = frozenset(("title",)), frozenset(("title_protect",))
_HEADS: dict[tuple[str, ...], frozenset[str]] = {}  # provenance pointers → the fields they name


def _present(obj: Any, names: tuple[str, ...]) -> dict[str, str]:
    """The fields *names* of *obj* that are set, in the order given."""
    out = {}
    for name in names:
        value = getattr(obj, name)
        if value is not None:
            out[name] = value
    return out


class Paper(Record):
    """One ICML 2026 paper.

    ``title`` and ``abstract`` use the markup of :mod:`icml2026.markup`.
    ``title_protect`` lists ``[start, end)`` character ranges of ``title`` whose
    capitals must survive case-changing styles (PMLR's ``tex_title`` braces).
    ``provenance`` maps a JSON pointer of this record (``/title``) to a key of
    ``sources``.  A field we could not verify is absent, and ``missing`` names it.
    """

    __slots__ = ("id", "proceedings", "status", "missing", "citation_key", "alias_keys", "title",
                 "title_protect", "former_titles", "authors", "authors_complete", "abstract", "method_name",
                 "pages", "language", "identifiers", "links", "notes", "sources", "provenance", "_raw")
    id: str
    proceedings: Proceedings
    status: str
    missing: tuple[str, ...]
    citation_key: str | None
    alias_keys: tuple[str, ...]
    title: str | None
    title_protect: tuple[tuple[int, int], ...]
    former_titles: tuple[str, ...]
    authors: tuple[Person, ...]
    authors_complete: bool
    abstract: str | None
    method_name: str | None
    pages: Pages | None
    language: str
    identifiers: Identifiers
    links: Links
    notes: tuple[str, ...]
    sources: Mapping[str, Source]
    provenance: Mapping[str, str]

    def __init__(self, id: str, proceedings: Proceedings, status: str = "complete",
                 missing: tuple[str, ...] = (), citation_key: str | None = None,
                 alias_keys: tuple[str, ...] = (), title: str | None = None,
                 title_protect: tuple[tuple[int, int], ...] = (), former_titles: tuple[str, ...] = (),
                 authors: tuple[Person, ...] = (), authors_complete: bool = False, abstract: str | None = None,
                 method_name: str | None = None, pages: Pages | None = None, language: str = "en",
                 identifiers: Identifiers | None = None, links: Links | None = None,
                 notes: tuple[str, ...] = (), sources: Mapping[str, Source] | None = None,
                 provenance: Mapping[str, str] | None = None) -> None:
        _set(self, "id", id)
        _set(self, "proceedings", proceedings)
        _set(self, "status", status)
        _set(self, "missing", missing)
        _set(self, "citation_key", citation_key)
        _set(self, "alias_keys", alias_keys)
        _set(self, "title", title)
        _set(self, "title_protect", title_protect)
        _set(self, "former_titles", former_titles)
        _set(self, "authors", authors)
        _set(self, "authors_complete", authors_complete)
        _set(self, "abstract", abstract)
        _set(self, "method_name", method_name)
        _set(self, "pages", pages)
        _set(self, "language", language)
        _set(self, "identifiers", Identifiers() if identifiers is None else identifiers)
        _set(self, "links", Links() if links is None else links)
        _set(self, "notes", notes)
        _set(self, "sources", {} if sources is None else sources)
        _set(self, "provenance", {} if provenance is None else provenance)

    # -- conversion -------------------------------------------------------
    @classmethod
    def from_dict(cls, data: Mapping[str, Any], proceedings: Proceedings) -> Paper:
        """The paper of record *data* (``schema/paper.schema.json``) in *proceedings*, every
        field built now (a malformed record raises ``KeyError``/``TypeError``/``ValueError``)."""
        paper = _new(cls)
        _set_scalars(paper, data, proceedings)
        for name, build in _BUILT.items():
            _set(paper, name, build(data))
        return paper

    @classmethod
    def from_packaged(cls, data: dict[str, Any], proceedings: Proceedings) -> Paper:
        """A paper of the packaged data, whose records were validated when the data was built:
        its plain fields now, the others (authors, pages, identifiers, links, sources,
        provenance, the tuples) by the rules of :meth:`from_dict` on first access.

        The paper keeps *data*, which the caller gives up (the paper lets each part of it go
        once that part is built).  Loading the volume builds 6,552 papers; their 37,000
        people, 33,000 sources and 93,000 provenance entries are made only when something
        reads them (an export, a lookup by alias).  A field that cannot be built raises
        :class:`DataError`."""
        paper = _new(cls)
        _set(paper, "_raw", data)
        _set_scalars(paper, data, proceedings)
        return paper

    if not TYPE_CHECKING:  # (mypy would take every attribute of a Paper for one)
        def __getattr__(self, name: str) -> Any:
            # Called only for a slot not set yet: a field of a packaged paper, built once with
            # the others of its group (what an export reads together: one call, not five).
            group = _GROUPS.get(name)
            try:
                if group is None:
                    raise AttributeError(name)
                data = _RAW.__get__(self, Paper)  # AttributeError: not a packaged paper
            except AttributeError:
                raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}") from None
            try:
                values = [(field, _BUILT[field](data)) for field in group]
            except (KeyError, TypeError, ValueError, AttributeError) as exc:
                from .errors import DataError

                raise DataError(f"packaged record {self.id}: not a valid paper record ({exc!r}); "
                                "reinstall icml2026") from None
            slot = _SLOTS[name]
            try:  # another thread built the group meanwhile (it sets every slot before a part goes)
                return slot.__get__(self, Paper)
            except AttributeError:
                pass
            for field, value in values:
                _set(self, field, value)
            for field in group:  # built: the record's parts go
                data.pop("status" if field == "missing" else field, None)
            return slot.__get__(self, Paper)

    def to_dict(self) -> dict[str, Any]:
        """The record as ``schema/paper.schema.json`` has it: fresh dicts and lists (the
        caller may change them), each dict's keys in sorted order.

        Sorted as built, so that the JSON exporters encode it with the C encoder and no
        ``sort_keys`` (benchmarks/bench_exports.py): every field in key order, by hand.
        A field written as absent (an empty list, None) takes its provenance with it,
        so that what this writes always validates again.
        """
        out: dict[str, Any] = {}
        if self.abstract is not None:
            out["abstract"] = self.abstract
        if self.alias_keys:
            out["alias_keys"] = list(self.alias_keys)
        if self.authors:
            out["authors"] = [a.to_dict() for a in self.authors]
            out["authors_complete"] = self.authors_complete
        if self.citation_key:
            out["citation_key"] = self.citation_key
        if self.former_titles:
            out["former_titles"] = list(self.former_titles)
        out["id"] = self.id
        idents = _present(self.identifiers, _IDENTIFIER_NAMES)
        if idents:
            out["identifiers"] = idents
        out["language"] = self.language
        links = _present(self.links, _LINK_NAMES)
        if links:
            out["links"] = links
        if self.method_name is not None:
            out["method_name"] = self.method_name
        if self.notes:
            out["notes"] = list(self.notes)
        if self.pages is not None:
            out["pages"] = {"first": self.pages.first, "last": self.pages.last}
        out["proceedings"] = self.proceedings.id
        out["provenance"] = self._written_provenance(out)
        out["schema_version"] = SCHEMA_VERSION
        sources = self.sources
        out["sources"] = {k: sources[k].to_dict() for k in sorted(sources)}
        out["status"] = {"missing": list(self.missing), "state": self.status} if self.missing \
            else {"state": self.status}
        if self.title:
            out["title"] = self.title
        if self.title_protect:
            out["title_protect"] = [list(r) for r in self.title_protect]
        return out

    def _written_provenance(self, before: Mapping[str, Any]) -> dict[str, str]:
        """The provenance, sorted, of the fields :meth:`to_dict` writes: those in *before*
        (the keys that sort before ``provenance``) and the ones after it.  Records share a
        handful of pointer sets: the fields each names are worked out once per set."""
        provenance = self.provenance
        pointers = tuple(provenance)
        heads = _HEADS.get(pointers)
        if heads is None:
            if len(_HEADS) > 4096:  # bounded: records from elsewhere may come in many shapes
                _HEADS.clear()
            heads = _HEADS[pointers] = frozenset(k.split("/")[1] for k in pointers)
        unwritten = heads - before.keys() - _ALWAYS_AFTER
        if self.title:
            unwritten -= _TITLE
        if self.title_protect:
            unwritten -= _TITLE_PROTECT
        if not unwritten:  # keys are unique: sorting the items sorts by key
            return dict(sorted(provenance.items()))
        return {k: v for k, v in sorted(provenance.items()) if k.split("/")[1] not in unwritten}

    def __hash__(self) -> int:
        # The generated hash would hash every field, and sources/provenance are mappings:
        # hash by id, which equal papers share (equality still compares every field).
        return hash(self.id)

    # -- convenience ------------------------------------------------------
    @property
    def is_complete(self) -> bool:
        return self.status == "complete"

    @property
    def year(self) -> int | None:
        return self.proceedings.year

    @property
    def label(self) -> str:
        """The best human handle: citation key, else id."""
        return self.citation_key or self.id

    def keys(self) -> tuple[str, ...]:
        """Every identifier this paper may be looked up by."""
        found = [self.id]
        if self.citation_key:
            found.append(self.citation_key)
        found.extend(self.alias_keys)
        found.extend(v for k, v in self.identifiers.items())
        return tuple(dict.fromkeys(found))

    def source_of(self, pointer: str) -> Source | None:
        """The source of the field at JSON pointer *pointer*, or of its parent."""
        while pointer:
            key = self.provenance.get(pointer)
            if key is not None:
                return self.sources.get(key)
            pointer = pointer.rpartition("/")[0]
        return None


_new = object.__new__


def _set_scalars(paper: Paper, data: Mapping[str, Any], proceedings: Proceedings) -> None:
    """The fields of *paper* that are one value of *data* each (the others: :data:`_BUILT`)."""
    get = data.get
    _set(paper, "id", data["id"])
    _set(paper, "proceedings", proceedings)
    _set(paper, "status", (get("status") or _COMPLETE)["state"])
    _set(paper, "citation_key", get("citation_key"))
    _set(paper, "title", get("title"))
    _set(paper, "authors_complete", bool(get("authors_complete", False)))
    _set(paper, "abstract", get("abstract"))
    _set(paper, "method_name", get("method_name"))
    _set(paper, "language", get("language", "en"))


def _title_protect(data: Mapping[str, Any]) -> tuple[tuple[int, int], ...]:
    protect = data.get("title_protect")
    return tuple([(int(a), int(b)) for a, b in protect]) if protect else ()


def _pages(data: Mapping[str, Any]) -> Pages | None:
    pages = data.get("pages")
    return Pages(pages["first"], pages["last"]) if pages else None


# How each other field of a paper is built from its record: all at once by from_dict, one
# at a time on first access for a packaged paper.  List comprehensions and cached Sources.
_BUILT: dict[str, Callable[[Mapping[str, Any]], Any]] = {
    "missing": lambda data: tuple((data.get("status") or _COMPLETE).get("missing", ())),
    "alias_keys": lambda data: tuple(data.get("alias_keys", ())),
    "title_protect": _title_protect,
    "former_titles": lambda data: tuple(data.get("former_titles", ())),
    # Keyword expansion: 4× faster than five dict lookups; an unknown key raises TypeError.
    "authors": lambda data: tuple([Person(**a) for a in data.get("authors", ())]),
    "pages": _pages,
    "identifiers": lambda data: Identifiers(**data.get("identifiers", _EMPTY)),
    "links": lambda data: Links(**data.get("links", _EMPTY)),
    "notes": lambda data: tuple(data.get("notes", ())),
    "sources": lambda data: {k: Source.from_dict(v) for k, v in data.get("sources", _EMPTY).items()},
    "provenance": lambda data: dict(data.get("provenance", _EMPTY)),
}
_SLOTS = {name: Paper.__dict__[name] for name in _BUILT}  # the slots' descriptors
# The fields a packaged paper builds together on first access: the sources and provenance
# (93,000 entries) only for what reads them (show, the JSON exports), the rest at once.
_GROUPS = {name: group for group in (("sources",), ("provenance",),
                                     tuple(name for name in _BUILT if name not in ("sources", "provenance")))
           for name in group}
_RAW = Paper.__dict__["_raw"]  # the record of a packaged paper, less the parts already built
