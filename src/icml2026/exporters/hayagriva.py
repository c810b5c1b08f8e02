"""Hayagriva YAML, the bibliography format of Typst (``#bibliography("icml2026.yml")``).

Typst reads Hayagriva and BibLaTeX, not CSL-JSON.  Each paper is one entry
(format: Hayagriva's ``docs/file-format.md``)::

    key:
      type: article
      title: …                 # a formattable string: {…} keeps case
      author: [{name, given-name, prefix, suffix}, …]
      date: 2026
      page-range: "1-21"
      url, doi
      serial-number: {arxiv: …, openreview: …}
      language: en
      parent:
        type: proceedings
        title: {value: …, verbatim: true}
        editor, volume, publisher, location, date
        parent: {type: book, title: <the series>, issn: …}

* ``type: article`` with a ``proceedings`` parent is what Hayagriva's
  documentation prescribes for a paper in published proceedings.  The series
  (PMLR) is the proceedings' own parent, with its ISSN; the volume number
  belongs to the proceedings.
* The YAML is written here, not by a YAML library, so the output is the same
  bytes everywhere: every string is a double-quoted scalar (so no title can be
  read as a mapping, a comment, a list, ``yes``/``null`` or a number), with
  ``\\``, ``"``, control characters and the characters YAML treats as line
  breaks written as escapes.  Keys are citation keys, quoted the same way.
* Titles are Hayagriva formattable strings: ``{…}`` protects the case of the
  words in ``Paper.title_protect`` (widened to whole words, as for BibTeX and
  CSL: :func:`icml2026.text.whole_words`); Hayagriva's control characters
  ``\\ { } $`` in the text are escaped with a backslash.  Math is never read as
  Typst math (our math is LaTeX): it is written in Unicode where it has a
  faithful form (:func:`.plain.unicode_math`), else as its LaTeX source,
  ``$…$`` included, and either way braced, so no style re-cases it.  Emphasis
  has no Hayagriva form and is dropped.
* The proceedings title, publisher and place are names: ``verbatim: true``,
  which Hayagriva takes literally (no case change, no markup).
* Names are given by parts (``name``, ``given-name``, ``prefix``, ``suffix``),
  never as one ``Family, Given`` string that Hayagriva would split again; an
  organisation is a ``name`` alone.
* Dates follow the package's rule (README, "Dates"): the year of publication,
  nothing finer.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import lru_cache

from .. import markup
from ..keys import unique_key
from ..model import Paper, Person, Proceedings
from ..text import whole_words
from . import KEY_STYLES
from .bibtex import entry_key
from .plain import unicode_math

_INDENT = "  "
# YAML escapes for what may not appear raw in a double-quoted scalar: C0/C1 controls,
# DEL, the BOM, and NEL/LS/PS, which YAML reads as line breaks.
_YAML_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r", "\0": "\\0"}
_CHUNK_CONTROL = frozenset("\\{}$")  # Hayagriva's formattable-string markup


def render_hayagriva(papers: Iterable[Paper], *, key_style: str = "canonical") -> Iterator[str]:
    """Hayagriva YAML entries for *papers*: one mapping, one key per paper (the BibTeX keys)."""
    if key_style not in KEY_STYLES:
        from ..errors import UsageError

        raise UsageError(f"unknown key style {key_style!r} (known: {', '.join(KEY_STYLES)})")
    taken: set[str] = set()
    n = -1
    for n, paper in enumerate(papers):
        key = unique_key(entry_key(paper, key_style), taken)
        taken.add(key)
        yield ("\n" if n else "") + entry(key, paper)
    if n < 0:
        yield "{}\n"  # no papers: an empty mapping, which Typst reads (an empty file is null)


def entry(key: str, paper: Paper) -> str:
    """One paper as a YAML mapping entry under *key* (ends with a newline)."""
    lines = [f"{quote(key)}:", f"{_INDENT}type: article"]
    if paper.title:
        lines.append(f"{_INDENT}title: {quote(title(paper.title, paper.title_protect))}")
    lines.extend(_people("author", paper.authors, _INDENT))
    if paper.proceedings.year is not None:
        lines.append(f"{_INDENT}date: {int(paper.proceedings.year)}")
    if paper.pages is not None:
        lines.append(f"{_INDENT}page-range: {quote(paper.pages.as_text('-'))}")
    url = paper.links.proceedings or paper.links.openreview
    if url:
        lines.append(f"{_INDENT}url: {quote(url)}")
    if paper.identifiers.doi:
        lines.append(f"{_INDENT}doi: {quote(paper.identifiers.doi)}")
    ids = paper.identifiers
    serials = [(name, value) for name, value in (("arxiv", ids.arxiv), ("openreview", ids.openreview)) if value]
    if serials:
        lines.append(f"{_INDENT}serial-number:")
        lines.extend(f"{_INDENT * 2}{name}: {quote(value)}" for name, value in serials)
    if paper.language:
        lines.append(f"{_INDENT}language: {quote(paper.language)}")
    lines.extend(_proceedings_lines(paper.proceedings))
    return "\n".join(lines) + "\n"


@lru_cache(maxsize=16)
def _proceedings_lines(proc: Proceedings) -> tuple[str, ...]:
    """The ``parent`` block: the same for every paper of a volume, so written once."""
    pad = _INDENT * 2
    lines = [f"{_INDENT}parent:", f"{pad}type: proceedings"]
    if proc.booktitle:
        lines.extend(_verbatim("title", proc.booktitle, pad))
    lines.extend(_people("editor", proc.editors, pad))
    if proc.volume is not None:
        lines.append(f"{pad}volume: {int(proc.volume)}")
    if proc.publisher:
        lines.extend(_verbatim("publisher", proc.publisher, pad))
    if proc.address:
        lines.extend(_verbatim("location", proc.address, pad))
    if proc.year is not None:
        lines.append(f"{pad}date: {int(proc.year)}")
    if proc.series:
        lines.append(f"{pad}parent:")
        lines.append(f"{pad}{_INDENT}type: book")
        lines.extend(_verbatim("title", proc.series, pad + _INDENT))
        if proc.issn:
            lines.append(f"{pad}{_INDENT}issn: {quote(proc.issn)}")
    return tuple(lines)


def _verbatim(field: str, value: str, pad: str) -> list[str]:
    return [f"{pad}{field}:", f"{pad}{_INDENT}value: {quote(_one_line(value))}", f"{pad}{_INDENT}verbatim: true"]


def _people(field: str, people: Iterable[Person], pad: str) -> list[str]:
    lines = [f"{pad}{field}:"]
    for person in people:
        parts = person_parts(person)
        if not parts:
            continue
        first, *rest = parts
        lines.append(f"{pad}{_INDENT}- {first[0]}: {quote(first[1])}")
        lines.extend(f"{pad}{_INDENT}  {name}: {quote(value)}" for name, value in rest)
    return lines if len(lines) > 1 else []


def person_parts(person: Person) -> list[tuple[str, str]]:
    """Hayagriva's name sub-fields for *person*; ``name`` (required) first, empty if none."""
    if person.literal:
        return [("name", _one_line(person.literal))]
    family, given = _one_line(person.family or ""), _one_line(person.given or "")
    if not family:
        family, given = given, ""  # a mononym: Hayagriva requires the name field
    if not family:
        return []
    parts = [("name", family), ("given-name", given), ("prefix", _one_line(person.particle or "")),
             ("suffix", _one_line(person.suffix or ""))]
    return [(name, value) for name, value in parts if value]


def title(source: str, protect: Iterable[tuple[int, int]] = ()) -> str:
    """A title in our markup as a Hayagriva formattable string (see the module docstring)."""
    ranges = whole_words(source, list(protect))
    out: list[str] = []
    braced = False

    def put(text: str, keep_case: bool) -> None:
        nonlocal braced
        if keep_case != braced:
            out.append("{" if keep_case else "}")
            braced = keep_case
        out.append("".join("\\" + ch if ch in _CHUNK_CONTROL else ch for ch in text))

    for token in markup.tokens(source):
        if token.kind == "math":
            put(_one_line(unicode_math(token.value)), True)
            continue
        for ch, index in zip(token.value, token.offsets()):
            put(" " if ch.isspace() else ch, any(start <= index < end for start, end in ranges))
    if braced:
        out.append("}")
    return _one_line("".join(out))


def _one_line(text: str) -> str:
    return " ".join(text.split())


def quote(value: str) -> str:
    """*value* as a YAML double-quoted scalar that reads back as exactly *value*."""
    out = ['"']
    for ch in value:
        code = ord(ch)
        if ch in _YAML_ESCAPES:
            out.append(_YAML_ESCAPES[ch])
        elif code < 0x20 or 0x7F <= code <= 0x9F or ch in "\ufeff\u2028\u2029" or 0xD800 <= code <= 0xDFFF:
            out.append(f"\\u{code:04X}" if code > 0xFF else f"\\x{code:02X}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)
