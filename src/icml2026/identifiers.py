"""The identifiers a paper is known by — arXiv, OpenReview, PMLR and DOI — read and written.

This is the one home of their patterns: search (``find``), ``icml2026 import``, ``icml2026
fix`` and the Zotero adoption all read identifiers here, so an id one accepts is one the
others accept.  Each kind has a ``parse_*`` for a value that is one identifier (a field, a
query, a URL), a ``find_*`` for identifiers mentioned inside longer text (a ``note``, a
``journal``), and a function that writes the canonical URL.  Digits are ASCII digits only
(``'２６０５'.isdigit()`` is true in Python; no scheme uses those).

* **arXiv** (https://info.arxiv.org/help/arxiv_identifier.html): since April 2007
  ``YYMM.NNNN`` and, since January 2015, ``YYMM.NNNNN`` (four digits from ``0704`` to
  ``1412``, five from ``1501``), before that ``archive.SUBJECT/YYMMNNN`` (``hep-th/9901001``,
  ``math.GT/0309136``, from ``9108`` to ``0703``); a version ``vN`` (N ≥ 1) may follow,
  ``arXiv:`` may lead.  The month must be a month and the number of digits must be that of
  the id's month: ``2401.1234`` and ``2613.01234`` are no arXiv ids.  The records hold the
  new-style id without version (``schema/paper.schema.json``); old-style ids are read, so
  that an importer can say what it did not take.  arXiv's DOIs (``10.48550/arXiv.ID``) name
  the same id.
* **OpenReview**: a note id of 6 to 20 characters ``A-Z a-z 0-9 _ -`` (the schema's shape),
  case-sensitive; in a link the ``id=`` parameter of ``openreview.net/forum``, ``/pdf`` or
  ``/attachment`` (host in any case, ``www.`` optional, other parameters such as ``noteId``
  ignored).  An id longer than 20 characters is no id, not its first 20.
* **PMLR**: a paper id (``li26d``, ``n-guessan26a``: :mod:`icml2026.pmlr` says how PMLR makes
  them) in a volume ``vNNN``; read from a published key ``pmlr-v306-li26d``, a proceedings
  URL (``proceedings.mlr.press/v306/li26d.html``, ``….pdf``, ``…/li26d/li26d.pdf``) or the
  volume repository's PDF (``mlresearch/v306/…/assets/li26d/li26d.pdf``).
* **DOI** (the DOI Handbook, §2.2: ``10.`` + registrant code, ``/``, a suffix of any printable
  characters; case-insensitive): bare, ``doi:…`` (any case) or a resolver URL
  (``https://doi.org/…``, ``dx.doi.org``), whose percent-escapes are decoded.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

# -- arXiv ---------------------------------------------------------------------------------

# The stored form (schema/paper.schema.json): new style, no version.
ARXIV_ID = re.compile(r"[0-9]{4}\.[0-9]{4,5}")
_ARXIV_NEW = r"(?P<new>(?P<yymm>[0-9]{4})\.(?P<seq>[0-9]{4,5}))"
_ARXIV_OLD = r"(?P<old>(?P<archive>[a-z]+(?:-[a-z]+)*)(?:\.[A-Za-z]+(?:-[A-Za-z]+)*)?/(?P<oldyymm>[0-9]{4})[0-9]{3})"
_ARXIV_VERSION = r"(?:v(?P<version>[1-9][0-9]*))?"
_ARXIV_BODY = rf"(?:{_ARXIV_NEW}|{_ARXIV_OLD}){_ARXIV_VERSION}"
_ARXIV_END = r"(?![0-9A-Za-z])"  # 2605.059741 is no id, nor its first digits
_ARXIV_URL = r"(?i:(?:https?://)?(?:www\.|export\.)?arxiv\.org/(?:abs|pdf|html)/)"
_ARXIV_WHOLE = re.compile(rf"(?:(?i:arxiv):\s*|{_ARXIV_URL})?{_ARXIV_BODY}(?i:\.pdf)?/?")
# In running text an id counts only where it is said to be arXiv's: a link, "arXiv:" or
# "arXiv." before it (arXiv's DOI, 10.48550/arXiv.ID, among them).
_ARXIV_IN_TEXT = re.compile(rf"(?:{_ARXIV_URL}|(?<![0-9A-Za-z])(?i:arxiv)[.:]\s*){_ARXIV_BODY}{_ARXIV_END}")
_ARXIV_START = re.compile(rf"\s*{_ARXIV_BODY}{_ARXIV_END}")


@dataclass(frozen=True, slots=True)
class ArxivId:
    """An arXiv identifier: ``id`` (``2605.05974``, ``hep-th/9901001``) and its version, if given."""

    id: str
    version: int | None = None

    @property
    def new_style(self) -> bool:
        """True for ``YYMM.NNNNN`` ids, the only ones a record's ``arxiv`` field holds."""
        return "/" not in self.id

    def __str__(self) -> str:
        return self.id + (f"v{self.version}" if self.version else "")


def _arxiv(match: re.Match[str]) -> ArxivId | None:
    """The id of a match of the arXiv grammar, if its month and digits are arXiv's."""
    version = int(match.group("version")) if match.group("version") else None
    if match.group("new"):
        yymm, seq = match.group("yymm"), match.group("seq")
        if not 1 <= int(yymm[2:]) <= 12 or yymm < "0704" or (len(seq) == 5) != (yymm >= "1501"):
            return None
        return ArxivId(match.group("new"), version)
    yymm = match.group("oldyymm")
    if not 1 <= int(yymm[2:]) <= 12 or "0703" < yymm < "9108":
        return None
    return ArxivId(match.group("old"), version)


def parse_arxiv(text: str) -> ArxivId | None:
    """The arXiv id that *text* is (``2605.05974``, ``arXiv:2605.05974v2``,
    ``https://arxiv.org/abs/2605.05974v2``, ``arxiv.org/pdf/2605.05974.pdf``,
    ``hep-th/9901001``), else None."""
    match = _ARXIV_WHOLE.fullmatch(text.strip())
    return _arxiv(match) if match else None


def find_arxiv(text: str, *, bare: bool = False) -> Iterator[ArxivId]:
    """The arXiv ids *text* names as arXiv's: links, ``arXiv:ID``, ``arXiv.ID``, arXiv's
    DOIs; with *bare*, also an id that starts the text (an ``eprint`` field's value)."""
    if bare and (match := _ARXIV_START.match(text)) and (found := _arxiv(match)) is not None:
        yield found
    for match in _ARXIV_IN_TEXT.finditer(text):
        if (found := _arxiv(match)) is not None:
            yield found


def without_arxiv_ids(text: str, replacement: str = " ") -> str:
    """*text* with every new-style arXiv id (of any month, version included) replaced: the
    digits of ``2001.01234`` are not a year."""
    return _ANY_NEW_STYLE.sub(replacement, text)


_ANY_NEW_STYLE = re.compile(r"(?<![0-9])[0-9]{4}\.[0-9]{4,5}(?:v[0-9]+)?(?![0-9])")


def arxiv_url(arxiv: str | ArxivId) -> str:
    """arXiv's abstract page of the id (with its version, if it has one)."""
    return f"https://arxiv.org/abs/{arxiv}"


# -- OpenReview ----------------------------------------------------------------------------

OPENREVIEW_ID = re.compile(r"[A-Za-z0-9_-]{6,20}")
_OPENREVIEW_LINK = re.compile(r"(?i:(?:https?://)?(?:www\.)?openreview\.net/(?:forum|pdf|attachment)/?)"
                              r"\?(?:[^\s{}#]*?&)?id=([A-Za-z0-9_-]{6,20})(?![A-Za-z0-9_-])")
_OPENREVIEW_WHOLE = re.compile(_OPENREVIEW_LINK.pattern + r"(?:[&#][^\s{}]*)?")


def parse_openreview(text: str) -> str | None:
    """The OpenReview id that *text* is: an id, or a forum/pdf/attachment link; else None."""
    text = text.strip()
    if OPENREVIEW_ID.fullmatch(text):
        return text
    match = _OPENREVIEW_WHOLE.fullmatch(text)
    return match.group(1) if match else None


def find_openreview(text: str) -> Iterator[str]:
    """The OpenReview ids of the OpenReview links in *text*."""
    for match in _OPENREVIEW_LINK.finditer(text):
        yield match.group(1)


def openreview_url(openreview: str) -> str:
    """The paper's OpenReview forum."""
    return f"https://openreview.net/forum?id={openreview}"


# -- PMLR ----------------------------------------------------------------------------------

# A paper id PMLR publishes (the schema's shape), and its published BibTeX key.
PMLR_ID = re.compile(r"[a-z0-9][a-z0-9-]*[0-9]{2}[a-z]*")
PMLR_KEY = re.compile(rf"pmlr-v([0-9]+)-({PMLR_ID.pattern})")
_PMLR_END = r"(?![a-z0-9-])"
_PMLR_LINK = re.compile(
    r"(?i:(?:https?://)?(?:www\.)?)(?:(?i:proceedings\.mlr\.press)/v([0-9]+)/(" + PMLR_ID.pattern + r")"
    + _PMLR_END + r"(?:\.html|\.pdf|/\2\.pdf)?"
    r"|(?i:(?:raw\.githubusercontent\.com|github\.com)/)?mlresearch/v([0-9]+)/(?:[^\s{}/]+/){0,3}?"
    r"assets/(" + PMLR_ID.pattern + r")/\4\.pdf)" + _PMLR_END)


@dataclass(frozen=True, slots=True)
class PmlrId:
    """A PMLR paper: its volume and id (``v306``, ``li26d``)."""

    volume: int
    id: str

    @property
    def key(self) -> str:
        """The key of PMLR's published bibliography, ``pmlr-v306-li26d``."""
        return f"pmlr-v{self.volume}-{self.id}"


def _pmlr(match: re.Match[str]) -> PmlrId:
    if match.group(1):
        return PmlrId(int(match.group(1)), match.group(2))
    return PmlrId(int(match.group(3)), match.group(4))


def parse_pmlr_key(key: str) -> PmlrId | None:
    """The paper a published key names (``pmlr-v306-li26d``), else None."""
    match = PMLR_KEY.fullmatch(key)
    return PmlrId(int(match.group(1)), match.group(2)) if match else None


def parse_pmlr_url(text: str) -> PmlrId | None:
    """The paper a PMLR link is (its page, PDF, or the volume repository's PDF), else None."""
    match = _PMLR_LINK.fullmatch(text.strip().rstrip("/"))
    return _pmlr(match) if match else None


def find_pmlr(text: str) -> Iterator[PmlrId]:
    """The papers of the PMLR links in *text* (of any volume)."""
    for match in _PMLR_LINK.finditer(text):
        yield _pmlr(match)


# -- DOI -----------------------------------------------------------------------------------

DOI = re.compile(r"10\.[0-9]{4,9}/\S+")
_DOI_RESOLVER = re.compile(r"(?i:(?:https?://)?(?:dx\.)?doi\.org/)")
_DOI_PREFIX = re.compile(r"(?i:doi):\s*")
_DOI_IN_TEXT = re.compile(r"(?<![0-9A-Za-z.])10\.[0-9]{4,9}/[^\s{}]+")


def parse_doi(text: str) -> str | None:
    """The DOI that *text* is (bare, ``doi:…``, or a ``doi.org`` URL), else None."""
    from urllib.parse import unquote

    text = text.strip()
    if match := _DOI_RESOLVER.match(text):
        text = unquote(text[match.end():])
    elif match := _DOI_PREFIX.match(text):
        text = text[match.end():]
    return text if DOI.fullmatch(text) else None


def find_doi(text: str) -> Iterator[str]:
    """The DOIs in *text* (each up to a space or brace)."""
    for match in _DOI_IN_TEXT.finditer(text):
        yield match.group(0)


def is_arxiv_doi(doi: str) -> bool:
    """True for the DOIs arXiv registers for its preprints (``10.48550/arXiv.…``)."""
    return doi.lower().startswith("10.48550/arxiv.")


def doi_url(doi: str) -> str:
    """The DOI's resolver URL."""
    return f"https://doi.org/{doi}"
