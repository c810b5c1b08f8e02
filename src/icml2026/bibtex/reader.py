"""BibTeX → record fields: what the importer reads from an entry, and how.

:func:`read_entries` scans a text under the import policy (:data:`~.syntax.IMPORT`) and
gives every entry as its fields (names lower case, ``ID`` and ``ENTRYTYPE`` added) or the
reason it cannot be read, with BibTeX's ``crossref`` applied (a field the entry lacks
comes from the entry it names).  The functions below turn field values into the values of
a record: text decoded from LaTeX (:func:`plain`, :func:`html_to_markup` for PMLR's HTML
in abstracts), numbers and years, page ranges, the language, identifiers and links (a
value that is not one is left out with a note), and names (:func:`people`: split on
``and`` by :func:`~.names.split_names`, each into family/given/particle/suffix by
bibtexparser's ``splitname``).  A value that makes the entry unusable raises
:class:`Skip`; building, validating and keying the records is :mod:`icml2026.importers.bibtex`'s.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import lru_cache

from ..identifiers import parse_arxiv
from ..markup import Segment, from_segments, parse, to_plain
from ..model import Pages, Person
from . import normalize_space
from .fields import HEADER_TYPE
from .latex_decode import decode
from .names import split_names
from .scan import NOT_ENTRIES, Block, scan
from .syntax import IMPORT, shown

__all__ = ["Entry", "Skip", "editors", "entries_year", "html_to_markup", "integer", "language", "pages", "people",
           "person", "plain", "read_entries", "repair_url", "year"]

# An entry as read: its block, its fields (None when it cannot be read) and why not.
Entry = tuple[Block, dict[str, str] | None, str | None]

_PAGES = re.compile(r"^\s*([0-9]{1,9})\s*(?:(?:-+|\u2013|\u2014)\s*([0-9]{1,9})\s*)?$")
_NUMBER = re.compile(r"[0-9]{1,9}")  # ASCII digits: '²⁰²⁶'.isdigit() is true, int() fails
_HTML_TAG = re.compile(r"<(/?)(em|i|b|strong)\s*>", re.IGNORECASE)
_NAME_FORBIDDEN = re.compile(r"[\x00-\x1f\x7f{}\\$]")


def read_entries(text: str) -> list[Entry]:
    """Every entry of *text* (not ``@string``, ``@comment``, ``@preamble``) in file order, as
    :data:`Entry`, ``crossref`` applied; ``@string`` macros apply to the entries after them."""
    entries: list[Entry] = []
    for block in scan(text, IMPORT):
        if block.kind in NOT_ENTRIES:
            continue
        if block.error is not None:
            entries.append((block, None, block.error))
            continue
        fields = {"ENTRYTYPE": block.kind, "ID": block.key or ""}
        fields.update((item.name, item.value) for item in block.fields)
        entries.append((block, fields, None))
    return inherit_crossrefs(entries)


def inherit_crossrefs(entries: list[Entry]
                       ) -> list[Entry]:
    """BibTeX's ``crossref``: a field the entry lacks comes from the entry it names."""
    by_key: dict[str, dict[str, str]] = {}
    for _, fields, _ in entries:
        if fields is not None:
            by_key.setdefault(fields["ID"].lower(), fields)
    done: list[Entry] = []
    for entry, fields, reason in entries:
        target = normalize_space(fields.get("crossref", "")) if fields else ""
        if fields is not None and target:
            parent = by_key.get(target.lower())
            if parent is None or parent is fields:
                done.append((entry, None, f"crossref {shown(target)} names no other entry of this file"))
                continue
            inherited = {k: v for k, v in parent.items() if k not in ("ID", "ENTRYTYPE", "crossref")}
            fields = {**inherited, **fields}
        done.append((entry, fields, reason))
    return done


class Skip(Exception):
    """Raised while converting an entry that cannot become a record."""


def entries_year(entries: list[Entry]) -> int | None:
    """The one year all dated paper entries give, else None (never a guess)."""
    years = set()
    for _, fields, _ in entries:
        if fields and fields.get("ENTRYTYPE", "").lower() != HEADER_TYPE:
            try:
                years.add(year(fields))
            except Skip:
                return None
    years.discard(None)
    return years.pop() if len(years) == 1 else None


def plain(latex: str) -> str:
    return to_plain(decode(latex)) if latex else ""


def opt_plain(fields: Mapping[str, str], name: str) -> str | None:
    return plain(fields[name]) or None if name in fields else None


def opt_verbatim(fields: Mapping[str, str], name: str) -> str | None:
    value = normalize_space(fields.get(name, ""))
    return value or None


def integer(fields: Mapping[str, str], name: str) -> int | None:
    value = normalize_space(fields.get(name, ""))
    if not value:
        return None
    if not _NUMBER.fullmatch(value):
        raise Skip(f"{name} {shown(value)} is not a number")
    return int(value)


def year(fields: Mapping[str, str]) -> int | None:
    """``year``, or the year of BibLaTeX's ``date`` (``2026``, ``2026-07-06``, ``2026/2027``)."""
    if normalize_space(fields.get("year", "")):
        return integer(fields, "year")
    match = re.match(r"\s*([0-9]{4})(?:[-/]|\s*$)", fields.get("date", ""))
    return int(match.group(1)) if match else None


def pages(value: str | None) -> Pages | None:
    if value is None or not normalize_space(value):
        return None
    match = _PAGES.match(value)
    if match is None:
        raise Skip(f"pages {shown(value)} is not a page range")
    first = int(match.group(1))
    last = int(match.group(2) or first)
    if last < first:
        raise Skip(f"pages {shown(value)} ends before it starts")
    return Pages(first, last)


def language(fields: Mapping[str, str]) -> str:
    value = normalize_space(fields.get("langid") or fields.get("language") or "").lower()
    names = {"english": "en", "american": "en", "british": "en", "german": "de", "ngerman": "de",
             "french": "fr", "spanish": "es", "italian": "it", "portuguese": "pt"}
    return names.get(value, value if re.fullmatch(r"[a-z]{2}", value) else "en")


def identifier(notes: list[str], name: str, fields: Mapping[str, str], read: Callable[[str], str | None]) -> str | None:
    """The identifier the field *name* is (an id or its link); None, with a note, when it is none."""
    value = normalize_space(fields.get(name, ""))
    if not value:
        return None
    found = read(value)
    if found is None:
        notes.append(f"The entry's {name} field {quote(value)} is not a valid {name}; not imported.")
    return found


def arxiv_id(notes: list[str], fields: Mapping[str, str]) -> str | None:
    kind = (fields.get("archiveprefix") or fields.get("eprinttype") or "").strip().lower()
    eprint = normalize_space(fields.get("eprint", ""))
    if kind != "arxiv" or not eprint:
        return None
    arxiv = parse_arxiv(eprint)
    if arxiv is None or not arxiv.new_style:
        notes.append(f"The entry's eprint {quote(eprint)} is not a new-style arXiv id; not imported.")
        return None
    return arxiv.id


def checked(notes: list[str], name: str, value: str | None, shape: re.Pattern[str]) -> str | None:
    """*value* if it has the shape the schema requires; otherwise None and a note."""
    if not value:
        return None
    if shape.fullmatch(value):
        return value
    notes.append(f"The entry's {name} field {quote(value)} is not a valid {name}; not imported.")
    return None


def repair_url(value: str) -> str | None:
    """``https://github. com/x`` → ``https://github.com/x``; ``github.com/x`` → ``https://github.com/x``."""
    url = re.sub(r"\s+", "", value)
    if not url:
        return None
    if not re.match(r"[a-z][a-z0-9+.-]*://", url, re.IGNORECASE):
        url = "https://" + url
    return url


def quote(value: str) -> str:
    """*value* quoted in a note: whole unless it is very long."""
    return repr(value) if len(value) <= 1000 else shown(value)


def people(field_value: str) -> tuple[list[Person], bool]:
    """Persons of an author/editor field, and whether the list is complete (no ``and others``)."""
    people = []
    complete = True
    for raw in split_names(normalize_space(field_value)):
        if raw.lower() == "others":
            complete = False
            continue
        found = person(raw)
        if isinstance(found, str):
            raise Skip(found)
        people.append(found)
    return people, complete


# ``Family Words, Given words`` with capitalised family words: no von part, no Jr part, nothing to
# decode specially; bibtexparser's splitname gives exactly this split (checked on the whole volume).


_SIMPLE_NAME = re.compile(r"([A-Z][^\s,{}\\~]*(?: [A-Z][^\s,{}\\~]*)*), ([^,{}\\~]+)")


_TILDE_ACCENT = re.compile(r"(?<!\{)\\~\s*(?:\{[^{}]*\}|[A-Za-z])")


@lru_cache(maxsize=65536)
def person(raw: str) -> Person | str:
    """One name (whitespace normalised) as a :class:`Person`, or the reason it cannot be one."""
    from bibtexparser.customization import InvalidName, splitname

    if raw.startswith("{") and raw.endswith("}") and _one_group(raw):
        literal = plain(raw)
        if _NAME_FORBIDDEN.search(literal):
            return f"name {shown(raw)} decodes to {shown(literal)}, with characters a name cannot hold"
        return Person(literal=literal)
    # ``~`` separates words in a BibTeX name, so splitname cuts ``Ordo\~{n}ez`` in two;
    # braced, ``{\~{n}}`` is one special character, as BibTeX itself reads it.
    raw = _TILDE_ACCENT.sub(lambda m: "{" + m.group(0) + "}", raw)
    simple = _SIMPLE_NAME.fullmatch(raw)
    if simple is not None:
        parts = {"last": [simple.group(1)], "first": [simple.group(2)], "von": [], "jr": []}
    else:
        try:
            parts = splitname(raw, strict_mode=False)
        except InvalidName as exc:
            return f"name {shown(raw)} cannot be split: {shown(str(exc))}"
        except Exception as exc:
            return f"name {shown(raw)} cannot be split ({type(exc).__name__})"
    joined = {k: plain(" ".join(v)) or None for k, v in parts.items()}
    bad = [v for v in joined.values() if v and _NAME_FORBIDDEN.search(v)]
    if bad:
        return f"name {shown(raw)} decodes to {shown(bad[0])}, with characters a name cannot hold"
    if not joined.get("last"):
        joined["last"], joined["first"] = joined.get("first"), None
    return Person(family=joined.get("last"), given=joined.get("first"), particle=joined.get("von"),
                  suffix=joined.get("jr"))


def editors(field_value: str) -> tuple[Person, ...]:
    """Editors of a volume; a corporate editor (``{ACM}``) is a family name, as the schema has it."""
    return tuple(Person(family=p.literal) if p.literal else p for p in people(field_value)[0])


def _one_group(text: str) -> bool:
    depth = 0
    for i, ch in enumerate(text):
        depth += (ch == "{") - (ch == "}")
        if depth == 0 and i < len(text) - 1:
            return False
    return True


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
