"""Reading exported BibTeX back with the second implementations (pybtex, bibtexparser 1.4).

Shared by the ``test_bibtex_*`` files.  Names are split by pybtex, or by
bibtexparser's ``splitname``; the only parsing done here is biber's extended
name format (``family={…}, family-i={…}, given={…}``), which neither library
reads and which the BibLaTeX exporter uses for names whose initials biber
would otherwise break.
"""

from __future__ import annotations

import re

import bibtexparser
from bibtexparser.bparser import BibTexParser
from bibtexparser.customization import splitname
from pybtex.bibtex.utils import split_name_list
from pybtex.database import Person as PybtexPerson
from pybtex.database.input.bibtex import Parser as PybtexParser

from icml2026.bibtex import latex_decode
from icml2026.model import Person
from icml2026.text import whole_words

_XNAME = re.compile(r"^(family|given|prefix|suffix)=\{")


def squeeze(text: str) -> str:
    """The documented normalisation, written independently of the package."""
    return re.sub(r"[ \t\n\r\f\v]+", " ", text).strip(" \t\n\r\f\v")


def pybtex_entries(text: str):
    """pybtex's entries, with author/editor left as raw fields (names are split by :func:`people`)."""
    return PybtexParser(person_fields=()).parse_string(text).entries


def bibtexparser_entries(text: str) -> list[dict[str, str]]:
    parser = BibTexParser(common_strings=True, ignore_nonstandard_types=False, homogenize_fields=False)
    return bibtexparser.loads(text, parser).entries


def _part(words: list[str]) -> str | None:
    return latex_decode.decode_plain(" ".join(words)) or None


def person_from_pybtex(person: PybtexPerson) -> Person:
    return Person(family=_part(person.last_names), given=_part(person.first_names + person.middle_names),
                  particle=_part(person.prelast_names), suffix=_part(person.lineage_names))


def person_from_bibtexparser(name: str) -> Person:
    parts = splitname(name, strict_mode=False)
    return Person(family=_part(parts["last"]), given=_part(parts["first"]), particle=_part(parts["von"]),
                  suffix=_part(parts["jr"]))


def person_from_xname(name: str) -> Person:
    """Biber's extended name format: ``key={value}`` pairs separated by ``, `` at brace depth 0."""
    values: dict[str, str] = {}
    depth, start = 0, 0
    for i, ch in enumerate(name + ","):
        depth += (ch == "{") - (ch == "}")
        if ch == "," and depth == 0:
            key, _, value = name[start:i].strip().partition("=")
            values[key] = latex_decode.decode_plain(value)
            start = i + 1
    return Person(family=values.get("family"), given=values.get("given"), particle=values.get("prefix"),
                  suffix=values.get("suffix"))


def people(field_value: str, fmt: str) -> list[Person]:
    """The persons of an exported author/editor field, split and read by pybtex (or the xname reader)."""
    found = []
    for name in split_name_list(field_value):
        if fmt == "biblatex" and _XNAME.match(name):  # as biber: key={value} pairs, initials or not
            found.append(person_from_xname(name))
        else:
            found.append(person_from_pybtex(PybtexPerson(name)))
    return found


def as_parsed(person: Person) -> Person:
    """What a BibTeX reader can give back: a literal comes back as a one-word family name."""
    if person.literal:
        return Person(family=squeeze(person.literal))
    values = {k: squeeze(v) or None for k, v in person.to_dict().items()}
    if not values.get("family"):
        values["family"], values["given"] = values.get("given"), None
    return Person(**values)


def written_protection(title: str, ranges) -> list[tuple[int, int]]:
    """The protected ranges a title's BibTeX carries: each widened to its whole word, overlaps merged."""
    merged: list[tuple[int, int]] = []
    for start, end in sorted(set(whole_words(title, [tuple(r) for r in ranges]))):
        if merged and start < merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged
