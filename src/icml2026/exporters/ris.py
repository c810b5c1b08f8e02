"""RIS for EndNote, Zotero, Mendeley and other reference managers.

Conventions (RIS 2011 spec as read by EndNote; Zotero's RIS translator):

* ``TY  - CPAPER`` (conference proceedings paper), one tag per line written
  ``XX  - value``, records separated by a blank line, ``ER  - `` last.
  Output is UTF-8 with ``\\n`` line ends and a fixed tag order: deterministic.
* ``TI`` title and ``AB`` abstract as plain text: emphasis dropped, escapes
  resolved, math kept as ``$…$`` (RIS has no markup).  Line breaks inside a
  value are collapsed, since a new line would start a new tag.
* ``AU`` one per author and ``A2`` one per editor, as ``Family, Given, Suffix``
  (a ``von`` particle is part of the family name); an organisation is its
  literal name.  Both EndNote and Zotero read ``A2`` of a CPAPER as editor.
* ``T2`` is the conference name and ``C3`` the proceedings title — the RIS
  spec's and Zotero's meaning for CPAPER (Zotero: conferenceName and
  proceedingsTitle); ``T3`` the series, ``VL`` its volume.  Without a
  conference name ``T2`` falls back to the proceedings title.
* ``PY`` is the year, ``DA`` the publication date ``YYYY/MM/DD`` when known.
  ``CY`` the conference place, ``PB`` the publisher, ``SP``/``EP`` pages,
  ``UR`` the proceedings page, ``DO`` the DOI, ``LA`` the language.
"""

from __future__ import annotations

from typing import Any, Iterator, Sequence

from .. import markup
from ..model import Paper, Person


def _one_line(text: str) -> str:
    return " ".join(text.split())


def ris_name(person: Person) -> str:
    if person.literal:
        return _one_line(person.literal)
    family = " ".join(p for p in (person.particle, person.family) if p)
    parts = [family, person.given or "", person.suffix or ""]
    while parts and not parts[-1]:
        parts.pop()
    return _one_line(", ".join(parts))


def _ris_date(iso: str | None, year: int) -> str:
    if iso and len(iso.split("-")) == 3:
        return iso.replace("-", "/")
    return f"{year}///"


def ris_fields(paper: Paper, *, abstract: bool | None = None) -> list[tuple[str, str]]:
    """``(tag, value)`` pairs for *paper*, in output order (without ``ER``)."""
    proc = paper.proceedings
    fields: list[tuple[str, str | None]] = [("TY", "CPAPER")]
    fields.append(("TI", markup.to_plain(paper.title) if paper.title else None))
    fields.extend(("AU", ris_name(a)) for a in paper.authors)
    fields.extend(("A2", ris_name(e)) for e in proc.editors)
    fields += [
        ("T2", proc.event_title or proc.booktitle),
        ("C3", proc.booktitle),
        ("T3", proc.series),
        ("VL", str(proc.volume) if proc.volume is not None else None),
        ("PY", str(proc.year)),
        ("DA", _ris_date(proc.published, proc.year)),
        ("CY", proc.address),
        ("PB", proc.publisher),
        ("SP", str(paper.pages.first) if paper.pages else None),
        ("EP", str(paper.pages.last) if paper.pages else None),
        ("DO", paper.identifiers.doi),
        ("UR", paper.links.proceedings),
        ("LA", paper.language),
        ("AB", markup.to_plain(paper.abstract) if paper.abstract and abstract is not False else None),
    ]
    return [(tag, _one_line(value)) for tag, value in fields if value]


def render_ris(papers: Sequence[Paper], *, abstract: bool | None = None, **_: Any) -> Iterator[str]:
    for n, paper in enumerate(papers):
        lines = [f"{tag}  - {value}" for tag, value in ris_fields(paper, abstract=abstract)]
        lines.append("ER  - ")
        yield ("\n" if n else "") + "\n".join(lines) + "\n"
