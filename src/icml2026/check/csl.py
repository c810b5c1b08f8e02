"""CSL-JSON items as entries the matcher reads (``check`` accepts CSL-JSON as well as BibTeX)."""

from __future__ import annotations

import html
import json
import re
from typing import Any

from ..bibtex.scan import Block, Field
from ..errors import DataError

# CSL item types → the BibTeX entry type of the same kind (the matcher reads types).
TYPES = {"paper-conference": "inproceedings", "article-journal": "article", "article": "misc",
         "report": "techreport", "thesis": "phdthesis", "book": "book", "chapter": "incollection",
         "webpage": "online", "manuscript": "unpublished"}
# CSL variables → BibTeX fields (the plain ones; names and dates below).
VARIABLES = {"title": "title", "container-title": "booktitle", "page": "pages", "volume": "volume",
             "URL": "url", "DOI": "doi", "publisher": "publisher", "collection-title": "series",
             "note": "note", "event-title": "eventtitle", "number": "number"}


# CSL-JSON's rich-text markup in titles (<i>, <b>, <sup>, <sub>, <span class="nocase"> …).
_TAG = re.compile(r"</?(?:i|b|sup|sub|span)(?:\s[^<>]*)?>")


def blocks_of_csl(name: str, text: str) -> list[Block]:
    """One :class:`Block` per item of a CSL-JSON array; its line is where its ``id`` is written."""
    try:
        items = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise DataError(f"{name}: not valid CSL-JSON: {exc}") from None
    if not isinstance(items, list):
        raise DataError(f"{name}: CSL-JSON must be an array of items")
    out, searched, line = [], 0, 1
    for item in items:
        if not isinstance(item, dict):
            raise DataError(f"{name}: a CSL-JSON item is not an object: {str(item)[:40]!r}")
        key = str(item.get("id", "")) or None
        at = text.find(json.dumps(key), searched) if key else -1
        if at >= 0:
            line += text.count("\n", searched, at)
            searched = at
        kind = TYPES.get(str(item.get("type", "")), "misc")
        out.append(Block(kind, 0, 0, line, key, tuple(_fields(item))))
    return out


def _fields(item: dict[str, Any]) -> list[Field]:
    fields = []
    for variable, bib in VARIABLES.items():
        value = item.get(variable)
        if isinstance(value, (str, int)) and str(value).strip():
            text = str(value)
            if variable == "title":
                text = html.unescape(_TAG.sub("", text))
            fields.append(_field(bib, text))
    people = item.get("author")
    if isinstance(people, list):
        names = [_name(p) for p in people if isinstance(p, dict)]
        fields.append(_field("author", " and ".join(n for n in names if n)))
    issued = item.get("issued")
    if isinstance(issued, dict):
        parts = issued.get("date-parts")
        if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
            fields.append(_field("year", str(parts[0][0])))
        elif isinstance(issued.get("raw") or issued.get("literal"), str):
            fields.append(_field("year", str(issued.get("raw") or issued.get("literal"))))
    return fields


def _name(person: dict[str, Any]) -> str:
    if isinstance(person.get("literal"), str):
        return "{" + str(person["literal"]) + "}"
    family = " ".join(str(person[k]) for k in ("non-dropping-particle", "family") if person.get(k))
    given = str(person.get("given") or "")
    return f"{family}, {given}" if given else family


def _field(name: str, value: str) -> Field:
    return Field(name, name, "{" + value + "}", value)
