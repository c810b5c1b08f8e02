"""A paper's BibTeX or BibLaTeX entry: its fields, in the export's order, and the entry's text.

:func:`fields_for` gives the ``(name, encoded value)`` fields of a paper in a dialect
(``bibtex`` or ``biblatex``) and :func:`format_entry` writes them as one ``@inproceedings``
entry, two-space indented ``name = {value},`` lines in a fixed order, with nothing that
depends on time or environment: the same records always give byte-identical output.  The
exports (:mod:`icml2026.exporters.bibtex`) and ``icml2026 fix`` (which adds the user's own
fields after ours) both write through them.  Only the standard library is imported here.

Field order, BibTeX (:data:`BIBTEX_FIELDS`; pure ASCII, LaTeX-encoded)::

    title author booktitle pages year editor volume series publisher address
    doi url openreview eprint archiveprefix eprinttype software abstract

Field order, BibLaTeX (:data:`BIBLATEX_FIELDS`; UTF-8)::

    title author booktitle pages date editor volume series publisher address
    langid doi url eprint eprinttype abstract

Conventions:

* Text fields are encoded by :mod:`icml2026.bibtex.latex_encode` (the escaping rules are in
  its docstring): the ten specials print literally, braces always balance,
  ASCII whitespace collapses to one space, so no value can end an entry, start
  another, or hide text behind ``%``.  Titles carry case protection from
  ``Paper.title_protect``, widened to whole words as in CSL-JSON
  (:func:`icml2026.text.whole_words`: ``{QuantumBoost}``, ``{scCBGM}``), and
  braces around math.
* ``booktitle`` and ``series`` are names: every word with a capital is braced
  (``{{Proceedings} of the 43rd {International} {Conference} on {Machine} {Learning}}``),
  or biblatex-apa, pandoc and Better BibTeX sentence-case them.  Word by word, not
  ``{{…}}`` around the whole: Better BibTeX's import (``@retorquere/bibtex-parser``
  with BBT's default options) strips the braces of a value braced whole and
  sentence-cases it ("Proceedings of the 43rd international conference on machine
  learning"), while braced words keep their capitals there, in pandoc and in
  biblatex-apa (tests/test_bbt.py, tests/test_pandoc.py, tests/test_bibtex_tex.py).
* BibLaTeX: no ``eventtitle``, ``eventdate`` or ``venue``.  biblatex-apa maps an
  ``@inproceedings`` with editors to ``@inbook``, whose data model has none of
  them: ``biber --validate-datamodel`` warned eight times per entry, and the
  styles that print them repeated the conference the booktitle already names,
  with its days (against the rule on dates below).  The conference's place is
  ``address``, as in the BibTeX file: biber reads it as ``location`` (printed
  "Seoul, South Korea: PMLR" by the standard styles), and Zotero's BibTeX import
  reads it as the place (it ignores ``venue``), so both files give Zotero the same
  fields.  Zero datamodel warnings with authoryear, numeric, ieee and apa.
* No ``pdf`` field: no style prints it, biber renames it to ``file`` (a local
  attachment), and Zotero's BibTeX import makes it a file attachment whose path
  is a URL (reported in issue 23) — a broken attachment, worse than the link.  ``url`` is the
  proceedings page, one click from the PDF; CSL-JSON and RIS do not carry it either.
* arXiv ids: ``eprint`` with both ``archiveprefix = {arXiv}`` (the arXiv/natbib
  convention; biblatex maps it to ``eprinttype``) and ``eprinttype = {arxiv}``
  (biblatex's own field, and the only one Zotero's BibTeX import reads).
  BibTeX styles without an ``eprint`` field ignore all three.
* ``url``, ``doi``, ``openreview`` (PMLR's field: the OpenReview id)
  and ``eprint`` are verbatim fields: nothing is LaTeX-escaped, but characters
  that are not allowed in a URI (space, braces, backslash, ``"<>^`|``,
  non-ASCII, and a ``%`` not followed by two hex digits) are percent-encoded,
  which keeps the URI equivalent and the entry balanced.
* Names are ``von Family, Jr, Given``.  BibLaTeX only: when a word of a name
  would start with a brace or a command (``{\\textbraceright}x``, ``\\%x``), biber
  computes a broken initial and writes unbalanced braces into the .bbl, so such
  a name is written in biber's extended name format with explicit initials
  (``family={…}, family-i={D}, given={…}, given-i={X}``); biber splits those
  values on every ``,`` and ``=`` whatever the braces, so inside them these two
  characters are ``{\\symbol{44}}`` and ``{\\symbol{61}}``.  A part is braced when BibTeX would
  otherwise split or re-split it: it contains a comma or the word ``and``, a
  multi-word family name has a word not starting with a capital (it would
  become a "von" part), a family name without given name has a space, or the
  name is ``others``; a ``literal`` (organisation) is always braced.
* **Dates** follow the package's one rule (README, "Dates"): a citation carries the
  year of publication and nothing finer, in every format.  No ``month``: the
  conference (July) and the publication (September) differ in month, and styles
  would print either as the paper's date.  BibLaTeX's ``date`` is the year.
  ``urldate`` is never written: we do not know when the reader visited the URL.
* ``software`` is PMLR's name for the code link (``Paper.links.code``); it is
  not put in ``note``/``howpublished`` because styles print those, and a code
  repository is not part of the reference.  Abstracts only on request.
* BibLaTeX has neither ``openreview`` nor ``software``: they are not in
  biblatex's data model (``biber --validate-datamodel`` warns, and biber drops
  them anyway), and no standard field means "OpenReview id" or "code link"
  (``eprint`` is the arXiv id and would be printed; ``note``/``addendum`` are
  printed; ``usera``/``verba`` mean nothing to any reader).  The BibLaTeX entry
  keeps ``url`` (the proceedings page, which links both); the BibTeX export keeps
  the two values (BibTeX styles ignore fields they do not know, silently).
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..text import whole_words
from . import normalize_space
from .fields import BIBLATEX_FIELDS, BIBTEX_FIELDS
from .latex_encode import encode_char, encode_markup, encode_text, protect

TYPE_CHECKING = False  # typing is not imported at run time (start-up)
if TYPE_CHECKING:
    from collections.abc import Iterable

    from ..model import Paper, Person, Proceedings

# biblatex/babel language names for the ``langid`` field.
LANGIDS = {"en": "english", "de": "ngerman", "fr": "french", "es": "spanish", "it": "italian",
           "pt": "portuguese", "zh": "chinese", "ja": "japanese", "ko": "korean"}

_AND_WORD = re.compile(r"(?:^|\s)and(?:\s|$)", re.IGNORECASE)
_URI_SAFE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
                      "-._~:/?#[]@!$&'()*+,;=")
_NAME_WORD = re.compile(r"[^\s-]+")
_HEX = frozenset("0123456789abcdefABCDEF")
_URI_CLEAN = re.compile(r"[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=]*")  # _URI_SAFE without %


def fields_for(paper: Paper, dialect: str, *, abstract: bool = False) -> list[tuple[str, str]]:
    """The ``(name, encoded value)`` fields of *paper*'s entry in *dialect* (``bibtex`` or
    ``biblatex``), in the export's order: what :func:`format_entry` writes."""
    if dialect not in ("bibtex", "biblatex"):
        raise ValueError(f"unknown BibTeX dialect {dialect!r} (bibtex or biblatex)")
    return (_bibtex_fields if dialect == "bibtex" else _biblatex_fields)(paper, abstract)


def format_entry(key: str, fields: list[tuple[str, str]]) -> str:
    """``@inproceedings{key,`` + one ``name = value`` line per field (values already encoded)."""
    lines = [f"@inproceedings{{{key},"]
    lines.extend(f"  {name} = {value}," for name, value in fields)
    if fields:
        lines[-1] = lines[-1][:-1]
    lines.append("}")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- fields

def _braced(latex: str) -> str:
    return "{" + latex + "}"


def _common_head(paper: Paper, ascii_only: bool) -> list[tuple[str, str]]:
    fields: list[tuple[str, str]] = []
    if paper.title:
        title = encode_markup(paper.title, ascii_only=ascii_only, title=True,
                              protect_ranges=whole_words(paper.title, paper.title_protect))
        fields.append(("title", _braced(title)))
    if paper.authors:
        fields.append(("author", _braced(names(paper.authors, ascii_only))))
    if paper.proceedings.booktitle:  # a record without one is incomplete and skipped; never crash
        fields.append(("booktitle", _name_field(paper.proceedings.booktitle, ascii_only)))
    return fields


@lru_cache(maxsize=64)
def _name_field(value: str, ascii_only: bool) -> str:
    """A title that is a name (booktitle, series): each word with a capital braced, so no reader recases it.

    Braced word by word, not as a whole: Better BibTeX's import strips the braces of a
    ``{{…}}`` value and sentence-cases what is inside (see the module docstring)."""
    words = normalize_space(value).split(" ")
    return _braced(" ".join(protect(latex) if any(c.isupper() for c in word) else latex
                            for word, latex in ((w, encode_text(w, ascii_only=ascii_only)) for w in words)))


def _pages(paper: Paper) -> str | None:
    if paper.pages is None:
        return None
    return _braced(paper.pages.as_text("--"))


def _proceedings_tail(paper: Paper, ascii_only: bool) -> list[tuple[str, str]]:
    return list(_proceedings_fields(paper.proceedings, ascii_only))


@lru_cache(maxsize=64)
def _proceedings_fields(proc: Proceedings, ascii_only: bool) -> tuple[tuple[str, str], ...]:
    """Editor, volume, series, publisher: the same for every paper of a volume, so encoded once."""
    fields = []
    if proc.editors:
        fields.append(("editor", _braced(names(proc.editors, ascii_only))))
    if proc.volume is not None:
        fields.append(("volume", _braced(str(int(proc.volume)))))
    if proc.series:
        fields.append(("series", _name_field(proc.series, ascii_only)))
    if proc.publisher:
        fields.append(("publisher", _braced(encode_text(proc.publisher, ascii_only=ascii_only))))
    return tuple(fields)


def _links(paper: Paper, openreview: bool = True) -> list[tuple[str, str]]:
    fields = []
    if paper.identifiers.doi:
        fields.append(("doi", _braced(verbatim(paper.identifiers.doi))))
    url = paper.links.proceedings or paper.links.openreview
    if url:
        fields.append(("url", _braced(verbatim(url))))
    if openreview and paper.identifiers.openreview:
        fields.append(("openreview", _braced(verbatim(paper.identifiers.openreview))))
    return fields


def _tail(paper: Paper, ascii_only: bool, with_abstract: bool) -> list[tuple[str, str]]:
    fields = []
    if ascii_only and paper.links.code:  # BibTeX only: see the module docstring
        fields.append(("software", _braced(verbatim(paper.links.code))))
    if with_abstract and paper.abstract:
        fields.append(("abstract", _braced(encode_markup(paper.abstract, ascii_only=ascii_only))))
    return fields


def _bibtex_fields(paper: Paper, with_abstract: bool) -> list[tuple[str, str]]:
    proc = paper.proceedings
    fields = _common_head(paper, True)
    pages = _pages(paper)
    if pages:
        fields.append(("pages", pages))
    if proc.year is not None:
        fields.append(("year", _braced(str(int(proc.year)))))
    fields.extend(_proceedings_tail(paper, True))
    if proc.address:
        fields.append(("address", _braced(encode_text(proc.address))))
    fields.extend(_links(paper))
    if paper.identifiers.arxiv:
        fields.append(("eprint", _braced(verbatim(paper.identifiers.arxiv))))
        fields.append(("archiveprefix", "{arXiv}"))
        fields.append(("eprinttype", "{arxiv}"))
    fields.extend(_tail(paper, True, with_abstract))
    return _ordered(fields, BIBTEX_FIELDS)


def _biblatex_fields(paper: Paper, with_abstract: bool) -> list[tuple[str, str]]:
    proc = paper.proceedings
    fields = _common_head(paper, False)
    if proc.address:  # biber reads it as ``location``; Zotero's import as the place
        fields.append(("address", _braced(encode_text(proc.address, ascii_only=False))))
    pages = _pages(paper)
    if pages:
        fields.append(("pages", pages))
    if proc.year is not None:
        fields.append(("date", _braced(str(int(proc.year)))))
    fields.extend(_proceedings_tail(paper, False))
    langid = LANGIDS.get(paper.language)
    if langid:
        fields.append(("langid", _braced(langid)))
    fields.extend(_links(paper, openreview=False))  # not in biblatex's data model: module docstring
    if paper.identifiers.arxiv:
        fields.append(("eprint", _braced(verbatim(paper.identifiers.arxiv))))
        fields.append(("eprinttype", "{arxiv}"))
    fields.extend(_tail(paper, False, with_abstract))
    return _ordered(fields, BIBLATEX_FIELDS)


def _ordered(fields: list[tuple[str, str]], order: tuple[str, ...]) -> list[tuple[str, str]]:
    rank = {name: n for n, name in enumerate(order)}
    return sorted(fields, key=lambda item: rank[item[0]])


# --------------------------------------------------------------------------- values

def verbatim(value: str) -> str:
    """A URI-like value for a verbatim field: percent-encode what a URI may not contain."""
    text = value.strip()
    if _URI_CLEAN.fullmatch(text):
        return text  # the usual URL: nothing to encode (and no % to check)
    out = []
    for i, ch in enumerate(text):
        escape = ch == "%" and text[i + 1:i + 2] in _HEX and text[i + 2:i + 3] in _HEX
        if escape or ch in _URI_SAFE:
            out.append(ch)
        else:
            out.extend(f"%{b:02X}" for b in ch.encode("utf-8", "surrogatepass"))
    return "".join(out)


def names(people: Iterable[Person], ascii_only: bool) -> str:
    """``Family, Given and …`` for an author or editor field."""
    return _names(tuple(people), ascii_only)


# People are immutable and recur (the ten editors in every entry, authors of several
# papers): each distinct list is encoded once per process.
@lru_cache(maxsize=16384)
def _names(people: tuple[Person, ...], ascii_only: bool) -> str:
    write = name if ascii_only else biblatex_name
    return " and ".join(filter(None, (_plain_form(p) or write(p, ascii_only) for p in people)))


_PLAIN_NAME = re.compile(r"[A-Za-z]+(?:[ -][A-Za-z]+)*")


def _plain_form(person: Person) -> str | None:
    """``Family, Given`` of a name of ASCII letters alone (words joined by one space or hyphen),
    with no particle, suffix or literal: 97% of the volume's names.  Both formats write it
    alike, as :func:`_bibtex_form` would, without its general steps (normalizing and encoding
    nothing).  None for any other name."""
    family, given = person.family, person.given
    if (person.literal is not None or person.particle is not None or person.suffix is not None or not family
            or not given or not _PLAIN_NAME.fullmatch(family) or not _PLAIN_NAME.fullmatch(given)
            or _AND_WORD.search(family) or _AND_WORD.search(given)):
        return None
    if " " in family and not all(word[0].isupper() for word in family.split(" ")):
        family = "{" + family + "}"  # a family name of several words, one lower-case: kept whole
    return f"{family}, {given}"


def biblatex_name(person: Person, ascii_only: bool = False) -> str:
    """A name for biber: the BibTeX form, or the extended form when initials would break."""
    if person.literal:
        literal = normalize_space(person.literal)
        # biber never returns from computing the initial of a name that is only "0" (Perl's
        # false string): that one is written with its initial given
        if literal != "0" and not _word_starts_with_command(literal, ascii_only):
            return protect(encode_text(literal, ascii_only=ascii_only, nbsp="{~}", normalized=True))
        present = [("family", literal)]
    else:
        family, given, particle, suffix = _normalized(person)
        present = [(key, value) for key, value in (("family", family), ("given", given), ("prefix", particle),
                                                   ("suffix", suffix)) if value]
        if not any(_word_starts_with_command(value, ascii_only) for _, value in present):
            return _bibtex_form(family, given, particle, suffix, ascii_only)
    pieces = []
    for key, value in present:
        encoded = encode_text(value, ascii_only=ascii_only, nbsp="{~}", normalized=True)
        encoded = _extended_name_safe(encoded)
        if key == "family" and person.literal:
            encoded = protect(encoded)
        pieces.append(f"{key}={{{encoded}}}")
        initials = _initials(value, ascii_only)
        if initials is not None:
            pieces.append(f"{key}-i={{{initials}}}")
    return ", ".join(pieces)


def _word_starts_with_command(text: str, ascii_only: bool) -> bool:
    words = _NAME_WORD.findall(text)
    if text.isascii() and all(word[0].isalnum() for word in words):
        return False  # an ASCII letter or digit encodes as itself (most names)
    return any(word[0] == "\u00a0" or encode_char(word[0], ascii_only=ascii_only)[:1] in ("{", "\\")
               for word in words)


def _initials(text: str, ascii_only: bool) -> str | None:
    """First letters or digits of the words of *text*; its first character, braced, if none.

    A letter TeX's fonts lack (``Ħ``, ``ƀ``) is written as a conditional for the Unicode engines
    (``\\ifdefined\\Umathcode…\\fi``), which biber takes apart letter by letter as initials, and
    pdfLaTeX then stops at the unbalanced ``\\ifdefined``: its initial is its base letter
    (``H``, ``b``), and a name with no such letter gets none of ours (biber computes one).
    """
    letters = [word[0] for word in _NAME_WORD.findall(text) if word[0].isalnum()]
    if letters:
        encoded = [encode_text(c, ascii_only=ascii_only) for c in letters]
        encoded = [code if "\\ifdefined" not in code else _base_letter(c) for c, code in zip(letters, encoded)]
        if not all(encoded):
            return None
        initials = "".join(encoded)
    elif text[0] < "\x80":
        return f"{{\\symbol{{{ord(text[0])}}}}}"  # ASCII: within the range of pdfTeX's \\symbol
    else:
        return None  # a symbol TeX's fonts lack (see above)
    return _extended_name_safe(initials)


def _base_letter(char: str) -> str:
    """The ASCII letter or digit *char* decomposes to (``Ħ`` → ``H``: NFKD keeps the stroke, so the
    name of the character decides), or ``""``."""
    import unicodedata

    base = unicodedata.normalize("NFKD", char)[:1]
    if not (base.isascii() and base.isalnum()):
        words = unicodedata.name(char, "").split()
        base = words[words.index("LETTER") + 1] if "LETTER" in words[:-1] else ""
        base = base if len(base) == 1 and base.isascii() else ""
        if base and "SMALL" in words:
            base = base.lower()
    return base if base.isascii() and base.isalnum() else ""


def _extended_name_safe(encoded: str) -> str:
    """*encoded* without a ``,`` or ``=``: biber splits the extended name format on every one,
    braced or not.  A literal one becomes its ``\\symbol``; the control symbols ``\\=`` (the
    macron accent of a fallback such as ``\\={H}``) and ``\\,`` are written with TeX's ``^^``
    notation (``\\^^3d``, ``\\^^2c``), which TeX reads as the same command once biber has split."""
    encoded = encoded.replace("\\=", "\\^^3d").replace("\\,", "\\^^2c")
    return encoded.replace(",", "{\\symbol{44}}").replace("=", "{\\symbol{61}}")


def name(person: Person, ascii_only: bool) -> str:
    """One name as ``von Family, Jr, Given`` (see the module docstring for the bracing rules)."""
    if person.literal:
        return protect(encode_text(person.literal, ascii_only=ascii_only, nbsp="{~}"))
    return _bibtex_form(*_normalized(person), ascii_only)


def _normalized(person: Person) -> tuple[str, str, str, str]:
    """(family, given, particle, suffix), each space-normalized once; a given name alone is the family."""
    family, given = normalize_space(person.family or ""), normalize_space(person.given or "")
    if not family:
        family, given = given, ""
    return family, given, normalize_space(person.particle or ""), normalize_space(person.suffix or "")


def _bibtex_form(family: str, given: str, particle: str, suffix: str, ascii_only: bool) -> str:
    if not family:
        return ""
    last = _part(family, ascii_only, family_part=True, alone=not (given or suffix or particle))
    if particle:
        last = _part(particle, ascii_only) + " " + last
    pieces = [last]
    if suffix:
        pieces.append(_part(suffix, ascii_only))
    if given or suffix:
        pieces.append(_part(given, ascii_only))
    return ", ".join(pieces)


def _part(text: str, ascii_only: bool, *, family_part: bool = False, alone: bool = False) -> str:
    # A bare ``~`` (our no-break space) separates name words for BibTeX; braced it does not.
    # *text* is a part from _normalized: space-normalized once, there.
    encoded = encode_text(text, ascii_only=ascii_only, nbsp="{~}", normalized=True)
    if not encoded:
        return encoded
    needs_braces = "," in text or _AND_WORD.search(text) is not None
    if family_part and " " in text:
        needs_braces = needs_braces or alone or not all(w[:1].isupper() and w[:1].isascii()
                                                         for w in text.split(" "))
    if family_part and alone and text.lower() == "others":
        needs_braces = True
    return protect(encoded) if needs_braces else encoded
