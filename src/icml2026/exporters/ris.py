"""RIS for EndNote, Zotero, Mendeley and other reference managers.

Conventions (RIS 2011 spec as read by EndNote; Zotero's RIS translator
``RIS.js``; citation-js ``@citation-js/plugin-ris``):

* ``TY  - CONF`` (conference proceedings), one tag per line written
  ``XX  - value``, records separated by a blank line, ``ER  - `` last.
  Output is UTF-8 with ``\\n`` line ends and a fixed tag order: deterministic.
  ``CONF``, not ``CPAPER``: citation-js reads the proceedings title (``C3``)
  and the series (``T3``) only under ``CONF`` (under ``CPAPER`` both are
  dropped), and ``CONF`` is what Zotero itself writes for a conference paper;
  Zotero, EndNote and rispy read both types as a conference paper.
* ``TI`` title and ``AB`` abstract as plain text (:mod:`.plain`): emphasis
  dropped, escapes resolved, math in Unicode where it has a faithful form,
  else kept as ``$…$`` (RIS has no markup).  Line breaks inside a value are
  collapsed, since a new line would start a new tag.
* ``AU`` one per author and ``A2`` one per editor, as ``Family, Given, Suffix``
  (a ``von`` particle is part of the family name); an organisation is its
  literal name.  Zotero and citation-js read ``A2`` of a ``CONF`` as editor.
* ``T2`` is the conference name and ``C3`` the proceedings title — the RIS
  spec's meaning for ``CONF`` (Zotero: conferenceName and proceedingsTitle;
  citation-js: event and container-title); ``T3`` the series, ``VL`` its volume.
* Dates follow the README's rule (section "The data", *Dates*): a citation
  carries the year of publication and nothing finer.  ``PY`` (the year; for
  citation-js the conference year) and ``DA`` ``YYYY///`` (the date in the
  spec's ``YYYY/MM/DD/other`` form, year only; Zotero's and citation-js's
  date of the item) say the same year.
* ``CY`` the conference place, ``PB`` the publisher, ``SP``/``EP`` pages,
  ``UR`` the proceedings page, ``DO`` the DOI, ``LA`` the language.  No
  ``SN``: Zotero and citation-js read the ``SN`` of a ``CONF`` as an ISBN, so
  the series' ISSN would arrive in the wrong field.
* The proceedings' lines are the same for every paper of a volume: they are
  written once per export and reused (benchmarks/bench_exports.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from ..model import Paper, Person, Proceedings
from .plain import plain_text

RIS_TYPE = "CONF"


def _one_line(text: str) -> str:
    return " ".join(text.split())


def ris_name(person: Person) -> str:
    if person.literal:
        return _one_line(person.literal)
    family = f"{person.particle} {person.family}" if person.particle and person.family \
        else person.particle or person.family or ""
    if person.suffix:
        return _one_line(f"{family}, {person.given or ''}, {person.suffix}")
    return _one_line(f"{family}, {person.given}" if person.given else family)


def _ris_date(proc: Proceedings) -> str | None:
    return f"{proc.year}///" if proc.year is not None else None


def _proceedings_fields(proc: Proceedings) -> list[tuple[str, str | None]]:
    """The tags every paper of *proc* shares, in output order (after the authors)."""
    fields: list[tuple[str, str | None]] = [("A2", ris_name(e)) for e in proc.editors]
    fields += [
        ("T2", proc.event_title),
        ("C3", proc.booktitle),
        ("T3", proc.series),
        ("VL", str(proc.volume) if proc.volume is not None else None),
        ("PY", str(proc.year) if proc.year is not None else None),
        ("DA", _ris_date(proc)),
        ("CY", proc.address),
        ("PB", proc.publisher),
    ]
    return fields


def _paper_fields(paper: Paper, abstract: bool | None) -> tuple[list[tuple[str, str | None]],
                                                                 list[tuple[str, str | None]]]:
    """The paper's own tags: those before the proceedings' tags, those after."""
    head: list[tuple[str, str | None]] = [("TY", RIS_TYPE), ("TI", plain_text(paper.title) if paper.title else None)]
    head.extend(("AU", ris_name(a)) for a in paper.authors)
    pages = paper.pages
    tail: list[tuple[str, str | None]] = [
        ("SP", str(pages.first) if pages else None),
        ("EP", str(pages.last) if pages else None),
        ("DO", paper.identifiers.doi),
        ("UR", paper.links.proceedings),
        ("LA", paper.language),
        ("AB", plain_text(paper.abstract) if paper.abstract and abstract is not False else None),
    ]
    return head, tail


def ris_fields(paper: Paper, *, abstract: bool | None = None) -> list[tuple[str, str]]:
    """``(tag, value)`` pairs for *paper*, in output order (without ``ER``)."""
    head, tail = _paper_fields(paper, abstract)
    fields = [*head, *_proceedings_fields(paper.proceedings), *tail]
    return [(tag, _one_line(value)) for tag, value in fields if value]


def _lines(fields: list[tuple[str, str | None]]) -> str:
    """``XX  - value`` lines, each ending in ``\\n``; empty values are left out."""
    return "".join([f"{tag}  - {' '.join(value.split())}\n" for tag, value in fields if value])


def render_ris(papers: Iterable[Paper], *, abstract: bool | None = None) -> Iterator[str]:
    """One record per paper; the proceedings' lines are written once per volume, then reused."""
    shared: dict[int, tuple[Proceedings, str]] = {}
    for n, paper in enumerate(papers):
        proc = paper.proceedings
        cached = shared.get(id(proc))
        if cached is None or cached[0] is not proc:
            cached = shared[id(proc)] = (proc, _lines(_proceedings_fields(proc)))
        head, tail = _paper_fields(paper, abstract)
        yield ("\n" if n else "") + _lines(head) + cached[1] + _lines(tail) + "ER  - \n"
