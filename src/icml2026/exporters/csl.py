"""CSL-JSON: the input format of every CSL processor (citeproc-js, pandoc, Zotero).

Conventions (checked against the official schema ``csl-data.json`` and against
citeproc-js 2.4.63, the reference processor):

* One item per paper, ``type: paper-conference``; ``id`` and ``citation-key``
  are the paper's citation key.  The proceedings give ``container-title``
  (booktitle), ``collection-title`` + ``volume`` (the PMLR series),
  ``publisher``, ``editor``, ``event-title``/``event-place``/``event-date``
  (the conference) and ``ISSN``.  Any of them may be missing for a volume
  built by an importer; the key is then left out, never written empty.
* ``issued`` is the year only, the README's date rule (section "The data",
  *Dates*): styles print it as the year of a proceedings paper, and a month or
  day would be read as the conference's by some styles (IEEE).  The
  conference's own dates are ``event-date``.
* Facts the schema has no variable for (PMLR/OpenReview/arXiv ids, PDF and code
  links) go into ``custom``; the schema forbids extra top-level keys.
* The ``title`` is rich text in CSL's HTML-like markup, which CSL processors
  apply to the variables they print and Zotero keeps in titles: ``<i>`` for
  our ``*emphasis*``, ``<span class="nocase">`` for ``Paper.title_protect``
  ranges (widened to whole words, see :func:`whole_words`) and around math,
  which is written as the abstract's is (Unicode where it has a faithful form:
  ``$k$`` → ``k``, ``$\\text{DT}^\\text{2}$`` → ``DT²``; else its LaTeX, ``$…$``
  included): no CSL processor reads LaTeX, so formatted references would show it
  raw, and the nocase span keeps every style from re-casing it.
* The ``abstract`` is plain text (:mod:`.plain`: math in Unicode where it has
  a faithful form): processors do not print it, and its readers — Zotero's
  CSL-JSON import (``abstractNote``), pandoc, citation-js — show markup as
  literal characters (``NC<span class="nocase">$\\to$</span>LP``).
* Literal ``&``, ``<`` and ``>`` are written as themselves.  CSL-JSON has no
  entity decoding: citeproc-js prints an input ``&amp;`` as the five characters
  ``&amp;`` (measured), so pre-escaping would corrupt every title with an
  ampersand.  Processors escape for HTML on output.  The one thing literal
  text must not do is spell one of CSL's markup tags (``<i>``, ``</span>``…);
  such a ``<`` gets a WORD JOINER (U+2060) after it so it stays text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from json.encoder import encode_basestring
from typing import Any

from .. import markup
from ..model import Paper, Person, Proceedings
from ..text import whole_words
from .canonical import json_array, once_per_proceedings, pretty
from .plain import plain_text, unicode_math

CSL_TYPE = "paper-conference"
WORD_JOINER = "\u2060"
# Tags citeproc-js (and pandoc's CSL-JSON reader) treat as markup in strings.
_CSL_TAG = re.compile(r"<(?=/?(?:i|b|sup|sub|sc|span)\b)", re.IGNORECASE)

NOCASE_OPEN = '<span class="nocase">'
NOCASE_CLOSE = "</span>"


# -- rich text -------------------------------------------------------------

def literal(text: str) -> str:
    """Plain *text* as a CSL string that no processor reads as markup."""
    return _CSL_TAG.sub("<" + WORD_JOINER, text) if "<" in text else text


def _protected(index: int, ranges: Sequence[tuple[int, int]]) -> bool:
    return any(start <= index < end for start, end in ranges)


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

    for token in markup.tokens(source):
        if token.kind == "math":
            add(literal(unicode_math(token.value)), token.emph, True)  # math is never re-cased
            continue
        # A tag cannot span tokens: what follows its '<' is letters and '/', then a word
        # boundary, and a text token ends only before a backslash, '$' or '*' (none of them
        # a letter), so the token holds the whole tag and its boundary reads the same.
        for offset, (ch, index) in enumerate(zip(token.value, token.offsets())):
            if ch == "<" and _CSL_TAG.match(token.value, offset):
                ch += WORD_JOINER  # decided per character: a run boundary may split the tag
            add(ch, token.emph, _protected(index, protect))
    return runs


def _segment_runs(source: str) -> list[tuple[str, bool, bool]]:
    """:func:`_runs` without protected ranges: whole segments at once (abstracts are long)."""
    return [(literal(unicode_math(seg.value)), seg.emph, True) if seg.kind == "math"
            else (literal(seg.value), seg.emph, False) for seg in markup.parse(source)]


def _plain_rich_text(source: str, protect: Sequence[tuple[int, int]]) -> str:
    """:func:`rich_text` of a *source* without markup or ``<``, by slicing instead of per character.

    Source and text indices then coincide, so the protected characters are the
    union of the widened ranges; adjacent ranges merge, as runs do.
    """
    out: list[str] = []
    pos = 0
    merged: list[list[int]] = []
    for start, end in sorted(whole_words(source, protect)):
        if start >= end:
            continue
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    for start, end in merged:
        if pos < start:
            out.append(source[pos:start])
        out.append(NOCASE_OPEN + source[start:end] + NOCASE_CLOSE)
        pos = end
    if pos < len(source):
        out.append(source[pos:])
    return "".join(out)


def rich_text(source: str, protect: Sequence[tuple[int, int]] = ()) -> str:
    """Our markup (:mod:`icml2026.markup`) as a CSL-JSON rich-text string."""
    if "\\" not in source and "$" not in source and "*" not in source and "<" not in source:
        return _plain_rich_text(source, protect) if protect else source  # most titles: no markup at all
    return _marked_rich_text(source, protect)


def _marked_rich_text(source: str, protect: Sequence[tuple[int, int]]) -> str:
    """:func:`rich_text` of any *source*, character by character."""
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
    out = {}
    if person.family:
        out["family"] = literal(person.family)
    if person.given:
        out["given"] = literal(person.given)
    if person.particle:
        out["non-dropping-particle"] = literal(person.particle)
    if person.suffix:
        out["suffix"] = literal(person.suffix)
    return out


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


Pairs = list[tuple[str, Any]]


def _proceedings_pairs(proc: Proceedings) -> tuple[Pairs, Pairs]:
    """The items' variables that come from the proceedings: those before ``page``, those after."""
    before: Pairs = [
        ("editor", [csl_name(e) for e in proc.editors] or None),
        ("container-title", literal(proc.booktitle) if proc.booktitle else None),
        ("collection-title", literal(proc.series) if proc.series else None),
        ("volume", str(proc.volume) if proc.volume is not None else None),
        ("publisher", literal(proc.publisher) if proc.publisher else None),
        ("event-title", literal(proc.event_title) if proc.event_title else None),
        ("event-place", literal(proc.address) if proc.address else None),
        ("event-date", event_date(proc)),
    ]
    after: Pairs = [
        ("issued", {"date-parts": [[proc.year]]}),
        ("ISSN", proc.issn),
    ]
    return before, after


def _paper_pairs(paper: Paper, abstract: bool | None) -> tuple[Pairs, Pairs, Pairs]:
    """The paper's own variables: before the proceedings' first block, between the blocks, after."""
    key = paper.citation_key or paper.id
    pages = paper.pages
    head: Pairs = [
        ("id", key),
        ("type", CSL_TYPE),
        ("citation-key", key),
        ("title", rich_text(paper.title, paper.title_protect) if paper.title else None),
        ("author", [csl_name(a) for a in paper.authors] or None),
    ]
    middle: Pairs = [
        ("page", pages.as_text("-") if pages else None),
        ("page-first", str(pages.first) if pages else None),
    ]
    tail: Pairs = [
        ("DOI", paper.identifiers.doi),
        ("URL", paper.links.proceedings),
        ("language", paper.language),
        ("abstract", literal(plain_text(paper.abstract)) if paper.abstract and abstract is not False else None),
        ("custom", _custom(paper)),
    ]
    return head, middle, tail


def to_csl(paper: Paper, *, abstract: bool | None = None) -> dict[str, Any]:
    """One schema-valid CSL-JSON item for *paper* (a complete record)."""
    head, middle, tail = _paper_pairs(paper, abstract)
    before, after = _proceedings_pairs(paper.proceedings)
    return {name: value for name, value in (*head, *before, *middle, *after, *tail) if value is not None}


_MEMBER_INDENT = "    "  # an item's variables, inside the two-space indented array


def _flat(mapping: dict[str, str], indent: str) -> str:
    """:func:`pretty` of a dict of strings (a name, ``custom``), without the type dispatch."""
    if not mapping:
        return "{}"
    inner = indent + "  "
    return "{\n" + inner + (",\n" + inner).join(
        [encode_basestring(k) + ": " + encode_basestring(v) for k, v in mapping.items()]) + "\n" + indent + "}"


def _names(names: list[dict[str, str]]) -> str:
    """:func:`pretty` of a name list, one level down (``author``, ``editor``)."""
    return "[\n      " + ",\n      ".join([_flat(name, "      ") for name in names]) + "\n    ]"


def _members(pairs: Pairs) -> list[str]:
    """``"name": value`` lines of an item, as ``json.dumps(indent=2)`` writes them one level down."""
    out = []
    for name, value in pairs:
        if value is None:
            continue
        if type(value) is str:
            text = encode_basestring(value)
        elif name in ("author", "editor"):
            text = _names(value)
        elif name == "custom":
            text = _flat(value, _MEMBER_INDENT)
        else:
            text = pretty(value, _MEMBER_INDENT)
        out.append(f"{_MEMBER_INDENT}{encode_basestring(name)}: {text}")
    return out


def _person_text(person: Person) -> str:
    """``csl_name(person)`` as :func:`pretty` writes it inside an item's name list."""
    family, given = person.family, person.given
    if (family and given and not person.literal and not person.particle and not person.suffix
            and "<" not in family and "<" not in given):  # nearly every name: one f-string
        return (f'{{\n        "family": {encode_basestring(family)},\n'
                f'        "given": {encode_basestring(given)}\n      }}')
    if person.literal:
        return '{\n        "literal": ' + encode_basestring(literal(person.literal)) + "\n      }"
    parts = []
    if person.family:
        parts.append('"family": ' + encode_basestring(literal(person.family)))
    if person.given:
        parts.append('"given": ' + encode_basestring(literal(person.given)))
    if person.particle:
        parts.append('"non-dropping-particle": ' + encode_basestring(literal(person.particle)))
    if person.suffix:
        parts.append('"suffix": ' + encode_basestring(literal(person.suffix)))
    return "{\n        " + ",\n        ".join(parts) + "\n      }" if parts else "{}"


def _custom_text(paper: Paper) -> str:
    """``_custom(paper)`` as :func:`pretty` writes it as an item's member."""
    parts = [f'"{name}_id": {encode_basestring(value)}' for name, value in paper.identifiers.items()
             if name != "doi"]
    parts += [f'"{name}_url": {encode_basestring(url)}' for name, url in paper.links.items()
              if name != "proceedings"]
    parts.append('"icml2026_id": ' + encode_basestring(paper.id))
    return "{\n      " + ",\n      ".join(parts) + "\n    }"


def _proceedings_lines(proc: Proceedings) -> tuple[list[str], list[str]]:
    """The member lines of :func:`_proceedings_pairs`, rendered once per volume."""
    before, after = _proceedings_pairs(proc)
    return _members(before), _members(after)


def _item_text(paper: Paper, abstract: bool | None, before: list[str], after: list[str]) -> str:
    """``to_csl(paper)`` as ``json.dumps(indent=2)`` writes it inside the array, built directly.

    *before* and *after* are the proceedings' member lines, rendered once per
    volume.  tests/test_exports_golden.py checks this against the standard
    library's encoding of :func:`to_csl`, on the volume and on unusual records.
    """
    key = encode_basestring(paper.citation_key or paper.id)
    lines = [f'    "id": {key}', f'    "type": "{CSL_TYPE}"', f'    "citation-key": {key}']
    if paper.title:
        lines.append('    "title": ' + encode_basestring(rich_text(paper.title, paper.title_protect)))
    if paper.authors:
        lines.append('    "author": [\n      ' + ",\n      ".join([_person_text(a) for a in paper.authors])
                     + "\n    ]")
    lines += before
    pages = paper.pages
    if pages:
        lines.append(f'    "page": "{pages.as_text("-")}"')
        lines.append(f'    "page-first": "{pages.first}"')
    lines += after
    if paper.identifiers.doi is not None:
        lines.append('    "DOI": ' + encode_basestring(paper.identifiers.doi))
    if paper.links.proceedings is not None:
        lines.append('    "URL": ' + encode_basestring(paper.links.proceedings))
    if paper.language is not None:
        lines.append('    "language": ' + encode_basestring(paper.language))
    if paper.abstract and abstract is not False:
        lines.append('    "abstract": ' + encode_basestring(literal(plain_text(paper.abstract))))
    lines.append('    "custom": ' + _custom_text(paper))
    return "  {\n" + ",\n".join(lines) + "\n  }"


def render_csl_json(papers: Iterable[Paper], *, abstract: bool | None = None) -> Iterator[str]:
    """A JSON array of CSL items, one per paper, two-space indented, keys in a fixed order.

    The bytes of ``json.dumps(to_csl(paper), indent=2)`` re-indented by two
    spaces, written without the pure-Python indenting encoder (43% of the time
    it took), and with the proceedings' variables rendered once per volume.
    """
    lines = once_per_proceedings(_proceedings_lines)
    yield from json_array(_item_text(paper, abstract, *lines(paper)) for paper in papers)
