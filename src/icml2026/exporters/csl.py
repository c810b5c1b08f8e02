"""CSL-JSON: the input format of every CSL processor (citeproc-js, pandoc, Zotero).

Conventions (checked against the official schema ``csl-data.json`` and against
citeproc-js 2.4.63, the reference processor):

* One item per paper, ``type: paper-conference``; ``id`` and ``citation-key``
  are the paper's citation key.  The proceedings give ``container-title``
  (booktitle), ``collection-title`` + ``volume`` (the PMLR series),
  ``publisher``, ``editor``, ``event-title``/``event-place``/``event-date``
  (the conference) and ``ISSN``.  Any of them may be missing for a volume
  built by an importer; the key is then left out, never written empty.
* ``issued`` is the year only: styles print it as the year of a proceedings
  paper, and a full day would be read as the conference date by some styles.
* Facts the schema has no variable for (PMLR/OpenReview/arXiv ids, PDF and code
  links) go into ``custom``; the schema forbids extra top-level keys.
* Rich text (``title``, ``abstract``) uses CSL's HTML-like markup: ``<i>`` for
  our ``*emphasis*``, ``<span class="nocase">`` for ``Paper.title_protect``
  ranges (widened to whole words, see :func:`whole_words`) and around
  ``$math$`` (kept verbatim, so no style re-cases it).
* Literal ``&``, ``<`` and ``>`` are written as themselves.  CSL-JSON has no
  entity decoding: citeproc-js prints an input ``&amp;`` as the five characters
  ``&amp;`` (measured), so pre-escaping would corrupt every title with an
  ampersand.  Processors escape for HTML on output.  The one thing literal
  text must not do is spell one of CSL's markup tags (``<i>``, ``</span>``…);
  such a ``<`` gets a WORD JOINER (U+2060) after it so it stays text.
"""

from __future__ import annotations

import json
import re
from typing import Any, Iterator, Sequence

from .. import markup
from ..model import Paper, Person, Proceedings

CSL_TYPE = "paper-conference"
WORD_JOINER = "\u2060"
# Tags citeproc-js (and pandoc's CSL-JSON reader) treat as markup in strings.
_CSL_TAG = re.compile(r"<(?=/?(?:i|b|sup|sub|sc|span)\b)", re.IGNORECASE)

NOCASE_OPEN = '<span class="nocase">'
NOCASE_CLOSE = "</span>"


# -- rich text -------------------------------------------------------------

def literal(text: str) -> str:
    """Plain *text* as a CSL string that no processor reads as markup."""
    return _CSL_TAG.sub("<" + WORD_JOINER, text)


def _source_positions(source: str, segments: list[markup.Segment]) -> Iterator[tuple[markup.Segment, list[int]]]:
    """Each segment with the index in *source* of each of its characters.

    ``markup.parse`` decides what the segments are; this only aligns them with
    the source so that ``title_protect`` ranges (source indices) can be applied.
    Math segments get the indices of their ``$…$`` span.
    """
    pos = 0
    for seg in segments:
        while pos < len(source) and source[pos] == "*":
            pos += 1  # emphasis toggles produce no character
        if seg.kind == "math":
            span = list(range(pos, pos + len(seg.value) + 2))
            pos += len(seg.value) + 2
            yield seg, span
            continue
        indices = []
        for ch in seg.value:
            while source[pos] == "*":
                pos += 1
            indices.append(pos)
            escaped = source[pos] == "\\" and pos + 1 < len(source) and source[pos + 1] in markup.ESCAPABLE
            pos += 2 if escaped and source[pos + 1] == ch else 1
        yield seg, indices


def _protected(index: int, ranges: Sequence[tuple[int, int]]) -> bool:
    return any(start <= index < end for start, end in ranges)


def whole_words(source: str, ranges: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """*ranges* widened to whole words (runs of letters and digits).

    PMLR protects single letters (``{M}onte {C}arlo``, ``{O}pen{D}eception``).
    Both citeproc-js and citeproc-py treat a nocase boundary inside a word as
    a word boundary and title-case "MOnte CArlo", "OPenDEception" (measured).
    Protecting the whole word keeps every protected capital and changes
    nothing else: the unprotected letters of such a word are already as the
    authors wrote them.
    """
    widened = []
    for start, end in ranges:
        start, end = min(start, len(source)), min(end, len(source))
        while start > 0 and source[start - 1].isalnum():
            start -= 1
        while end < len(source) and source[end].isalnum():
            end += 1
        widened.append((start, end))
    return widened


def _runs(source: str, protect: Sequence[tuple[int, int]]) -> list[tuple[str, bool, bool]]:
    """``(csl_text, emph, nocase)`` runs: maximal stretches sharing both flags."""
    if not protect:
        return _segment_runs(source)
    runs: list[tuple[str, bool, bool]] = []
    protect = whole_words(source, protect)

    def add(text: str, emph: bool, nocase: bool) -> None:
        if runs and runs[-1][1:] == (emph, nocase):
            runs[-1] = (runs[-1][0] + text, emph, nocase)
        else:
            runs.append((text, emph, nocase))

    for seg, indices in _source_positions(source, markup.parse(source)):
        if seg.kind == "math":
            add(literal(f"${seg.value}$"), seg.emph, True)  # math is never re-cased
            continue
        for offset, (ch, index) in enumerate(zip(seg.value, indices)):
            if ch == "<" and _CSL_TAG.match(seg.value, offset):
                ch += WORD_JOINER  # decided per character: a run boundary may split the tag
            add(ch, seg.emph, _protected(index, protect))
    return runs


def _segment_runs(source: str) -> list[tuple[str, bool, bool]]:
    """:func:`_runs` without protected ranges: whole segments at once (abstracts are long)."""
    return [(literal(f"${seg.value}$"), seg.emph, True) if seg.kind == "math"
            else (literal(seg.value), seg.emph, False) for seg in markup.parse(source)]


def rich_text(source: str, protect: Sequence[tuple[int, int]] = ()) -> str:
    """Our markup (:mod:`icml2026.markup`) as a CSL-JSON rich-text string."""
    out: list[str] = []
    for text, emph, nocase in _runs(source, protect):
        if nocase:
            text = NOCASE_OPEN + text + NOCASE_CLOSE
        if emph:
            text = f"<i>{text}</i>"
        out.append(text)
    return "".join(out)


# -- names, dates ----------------------------------------------------------

def csl_name(person: Person) -> dict[str, str]:
    """A CSL name object; our lower-case ``von`` particle is non-dropping (kept with the family name)."""
    if person.literal:
        return {"literal": literal(person.literal)}
    pairs = (
        ("family", person.family),
        ("given", person.given),
        ("non-dropping-particle", person.particle),
        ("suffix", person.suffix),
    )
    return {key: literal(value) for key, value in pairs if value}


def _date_parts(iso: str) -> list[int]:
    return [int(part) for part in iso.split("-")]


def event_date(proc: Proceedings) -> dict[str, Any] | None:
    if not proc.start_date:
        return None
    parts = [_date_parts(proc.start_date)]
    if proc.end_date and proc.end_date != proc.start_date:
        parts.append(_date_parts(proc.end_date))
    return {"date-parts": parts}


# -- items -----------------------------------------------------------------

def _custom(paper: Paper) -> dict[str, str]:
    extras = {f"{name}_id": value for name, value in paper.identifiers.items() if name != "doi"}
    extras.update({f"{name}_url": url for name, url in paper.links.items() if name != "proceedings"})
    extras["icml2026_id"] = paper.id
    return extras


def to_csl(paper: Paper, *, abstract: bool | None = None) -> dict[str, Any]:
    """One schema-valid CSL-JSON item for *paper* (a complete record)."""
    proc = paper.proceedings
    key = paper.citation_key or paper.id
    pairs: list[tuple[str, Any]] = [
        ("id", key),
        ("type", CSL_TYPE),
        ("citation-key", key),
        ("title", rich_text(paper.title, paper.title_protect) if paper.title else None),
        ("author", [csl_name(a) for a in paper.authors] or None),
        ("editor", [csl_name(e) for e in proc.editors] or None),
        ("container-title", literal(proc.booktitle) if proc.booktitle else None),
        ("collection-title", literal(proc.series) if proc.series else None),
        ("volume", str(proc.volume) if proc.volume is not None else None),
        ("publisher", literal(proc.publisher) if proc.publisher else None),
        ("event-title", literal(proc.event_title) if proc.event_title else None),
        ("event-place", literal(proc.address) if proc.address else None),
        ("event-date", event_date(proc)),
        ("page", f"{paper.pages.first}-{paper.pages.last}" if paper.pages else None),
        ("page-first", str(paper.pages.first) if paper.pages else None),
        ("issued", {"date-parts": [[proc.year]]}),
        ("ISSN", proc.issn),
        ("DOI", paper.identifiers.doi),
        ("URL", paper.links.proceedings),
        ("language", paper.language),
        ("abstract", rich_text(paper.abstract) if paper.abstract and abstract is not False else None),
        ("custom", _custom(paper)),
    ]
    return {name: value for name, value in pairs if value is not None}


def render_csl_json(papers: Sequence[Paper], *, abstract: bool | None = None, **_: Any) -> Iterator[str]:
    """A JSON array of CSL items, one per paper, two-space indented, keys in a fixed order."""
    yield "["
    for n, paper in enumerate(papers):
        text = json.dumps(to_csl(paper, abstract=abstract), ensure_ascii=False, indent=2)
        yield ("," if n else "") + "\n" + "\n".join("  " + line for line in text.split("\n"))
    yield "\n]\n" if papers else "]\n"
