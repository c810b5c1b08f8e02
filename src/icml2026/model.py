"""Typed, immutable records: a paper, its people, its proceedings, its provenance.

Each class has a ``from_dict``/``to_dict`` pair matching ``schema/paper.schema.json``
and ``schema/proceedings.schema.json``; ``to_dict`` emits keys in a fixed order so
that the JSON files and every export are deterministic.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

SCHEMA_VERSION = "1.0"


@dataclass(frozen=True, slots=True)
class Person:
    """A name split the way BibTeX and CSL need it.

    ``family`` keeps apostrophes and hyphens (``N’Guessan``, ``Fosler-Lussier``);
    ``particle`` is a lower-case ``von`` part (``van der``); ``literal`` is a name
    that must never be split (an organisation).
    """

    family: str | None = None
    given: str | None = None
    particle: str | None = None
    suffix: str | None = None
    literal: str | None = None

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


@dataclass(frozen=True, slots=True)
class Source:
    """Where a fact comes from."""

    name: str
    url: str | None = None
    retrieved: str | None = None

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


@dataclass(frozen=True, slots=True)
class Pages:
    first: int
    last: int

    def as_text(self, dash: str = "\u2013") -> str:
        """``first<dash>last``, or the one page: each format passes its own dash
        (BibTeX ``--``, CSL and Zotero ``-``, people an en dash)."""
        return f"{self.first}{dash}{self.last}" if self.last != self.first else str(self.first)

    def __str__(self) -> str:
        return self.as_text()


@dataclass(frozen=True, slots=True)
class Proceedings:
    """A proceedings volume: the facts its papers share, stored once.

    The packaged ICML 2026 record has every field; one built by an importer from
    a BibTeX entry without PMLR's ``@Proceedings`` header has what the entry had
    (even no booktitle or year: its papers are then incomplete).
    """

    id: str
    booktitle: str | None = None
    year: int | None = None
    conference_name: str | None = None
    conference_short_name: str | None = None
    conference_number: int | None = None
    volume: int | None = None
    series: str | None = None
    publisher: str | None = None
    issn: str | None = None
    address: str | None = None
    start_date: str | None = None
    end_date: str | None = None
    published: str | None = None
    conference_url: str | None = None
    paper_url_pattern: str | None = None
    editors: tuple[Person, ...] = ()
    provenance: Source | None = None

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


@dataclass(frozen=True, slots=True)
class Identifiers:
    pmlr: str | None = None
    openreview: str | None = None
    arxiv: str | None = None
    doi: str | None = None

    def items(self) -> Iterator[tuple[str, str]]:
        for name in ("pmlr", "openreview", "arxiv", "doi"):
            value = getattr(self, name)
            if value is not None:
                yield name, value


@dataclass(frozen=True, slots=True)
class Links:
    proceedings: str | None = None
    pdf: str | None = None
    openreview: str | None = None
    code: str | None = None
    project: str | None = None
    icml_virtual: str | None = None

    def items(self) -> Iterator[tuple[str, str]]:
        for name in ("proceedings", "pdf", "openreview", "code", "project", "icml_virtual"):
            value = getattr(self, name)
            if value is not None:
                yield name, value


_COMPLETE: Mapping[str, Any] = {"state": "complete"}
_EMPTY: Mapping[str, Any] = {}


@dataclass(frozen=True, slots=True)
class Paper:
    """One ICML 2026 paper.

    ``title`` and ``abstract`` use the markup of :mod:`icml2026.markup`.
    ``title_protect`` lists ``[start, end)`` character ranges of ``title`` whose
    capitals must survive case-changing styles (PMLR's ``tex_title`` braces).
    ``provenance`` maps a JSON pointer of this record (``/title``) to a key of
    ``sources``.  A field we could not verify is absent, and ``missing`` names it.
    """

    id: str
    proceedings: Proceedings
    status: str = "complete"
    missing: tuple[str, ...] = ()
    citation_key: str | None = None
    alias_keys: tuple[str, ...] = ()
    title: str | None = None
    title_protect: tuple[tuple[int, int], ...] = ()
    former_titles: tuple[str, ...] = ()
    authors: tuple[Person, ...] = ()
    authors_complete: bool = False
    abstract: str | None = None
    method_name: str | None = None
    pages: Pages | None = None
    language: str = "en"
    identifiers: Identifiers = field(default_factory=Identifiers)
    links: Links = field(default_factory=Links)
    notes: tuple[str, ...] = ()
    sources: Mapping[str, Source] = field(default_factory=dict)
    provenance: Mapping[str, str] = field(default_factory=dict)

    # -- conversion -------------------------------------------------------
    @classmethod
    def from_dict(cls, data: Mapping[str, Any], proceedings: Proceedings) -> Paper:
        # Positional arguments in field order, list comprehensions, cached Sources: loading
        # the volume calls this 6,553 times, and each keyword or generator costs.
        get = data.get
        pages = get("pages")
        status = get("status") or _COMPLETE
        protect = get("title_protect")
        return cls(
            data["id"],
            proceedings,
            status["state"],
            tuple(status.get("missing", ())),
            get("citation_key"),
            tuple(get("alias_keys", ())),
            get("title"),
            tuple([(int(a), int(b)) for a, b in protect]) if protect else (),
            tuple(get("former_titles", ())),
            tuple([Person(**a) for a in get("authors", ())]),
            bool(get("authors_complete", False)),
            get("abstract"),
            get("method_name"),
            Pages(pages["first"], pages["last"]) if pages else None,
            get("language", "en"),
            Identifiers(**get("identifiers", _EMPTY)),
            Links(**get("links", _EMPTY)),
            tuple(get("notes", ())),
            {k: Source.from_dict(v) for k, v in get("sources", _EMPTY).items()},
            dict(get("provenance", _EMPTY)),
        )

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "schema_version": SCHEMA_VERSION,
            "id": self.id,
            "proceedings": self.proceedings.id,
        }
        status: dict[str, Any] = {"state": self.status}
        if self.missing:
            status["missing"] = list(self.missing)
        out["status"] = status
        optional: list[tuple[str, Any]] = [
            ("citation_key", self.citation_key),
            ("alias_keys", list(self.alias_keys)),
            ("title", self.title),
            ("title_protect", [list(r) for r in self.title_protect]),
            ("former_titles", list(self.former_titles)),
            ("authors", [a.to_dict() for a in self.authors]),
        ]
        for key, value in optional:
            if value:
                out[key] = value
        if self.authors:
            out["authors_complete"] = self.authors_complete
        if self.abstract is not None:
            out["abstract"] = self.abstract
        if self.method_name is not None:
            out["method_name"] = self.method_name
        if self.pages is not None:
            out["pages"] = {"first": self.pages.first, "last": self.pages.last}
        out["language"] = self.language
        idents = dict(self.identifiers.items())
        if idents:
            out["identifiers"] = idents
        links = dict(self.links.items())
        if links:
            out["links"] = links
        if self.notes:
            out["notes"] = list(self.notes)
        out["sources"] = {k: self.sources[k].to_dict() for k in sorted(self.sources)}
        # A field that is written as absent (an empty list) takes its provenance with it, so
        # that what this writes always validates again.
        out["provenance"] = {k: self.provenance[k] for k in sorted(self.provenance)
                             if k.split("/")[1] in out}
        return out

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
