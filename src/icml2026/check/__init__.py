"""Check a manuscript's bibliography against the ICML 2026 volume, offline, changing nothing.

    >>> from icml2026.check import check_files
    >>> result = check_files(["refs.bib"])
    >>> [e.status for e in result.entries]

Every entry is classed (:data:`STATUSES`), with the matching of :mod:`icml2026.fix.match`
(one matcher for ``fix`` and ``check``):

``verified``
    an ICML 2026 paper, and every fact the entry states (title, authors, year, pages,
    volume, venue, links and ids) is the proceedings';
``mismatch``
    the paper is certain — an OpenReview or PMLR id of the volume, or title and authors
    agreeing — and a fact is wrong; each :class:`Problem` names the field, what the
    proceedings say and what the entry says.  An entry that claims ICML 2026 with a real
    title and another paper's authors is a mismatch of the authors;
``not-found``
    it claims ICML 2026 (:func:`~icml2026.fix.match.claims_icml2026`: a venue naming ICML
    2026 or its 43rd edition, PMLR volume 306, a ``proceedings.mlr.press/v306`` link; an
    OpenReview id unknown to the volume) but no paper of the volume is it: possibly
    fabricated; the reason names the nearest titles;
``preprint``
    an arXiv, OpenReview or other version of a paper published at ICML 2026;
``duplicate``
    a second entry for a paper an earlier entry (of any file checked) already cites;
``ambiguous``
    candidates, but not certain;
``unreadable``
    not valid BibTeX (an entry that never closes, a value that is not one, braces nested
    too deeply …): the reason says what is wrong, the line where the entry starts; it is
    flagged, since BibTeX would skip or misread it (a file that cannot be read at all is an
    error, not a status);
``other``
    nothing to do with ICML 2026, never flagged — also the same title at another venue,
    by the same people or others.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..bibtex.names import split_names
from ..bibtex.scan import Block, scan
from ..fix.match import (
    PAPER_TYPES,
    Index,
    Matcher,
    claims_icml2026,
    latex_plain,
    other_venue,
    title_keys,
    unicode_title,
    with_inherited,
    year_of,
)
from ..markup import to_plain
from ..model import Paper, Person

STATUSES = ("verified", "mismatch", "not-found", "preprint", "duplicate", "ambiguous", "unreadable", "other")
FLAGGED = ("mismatch", "not-found", "preprint", "duplicate", "ambiguous", "unreadable", "missing")  # what exits 1
BOOKTITLE = "Proceedings of the 43rd International Conference on Machine Learning"
NEAREST = 3  # titles named in a not-found entry's reason
_DASHES = re.compile(r"\s*[-\u2010-\u2015]+\s*")


@dataclass(frozen=True, slots=True)
class Problem:
    """A fact of an entry that is not the proceedings': *expected* is theirs (None: the field
    should not be there), *found* the entry's (None: missing)."""

    field: str
    expected: str | None
    found: str | None
    detail: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"field": self.field, "expected": self.expected, "found": self.found}
        if self.detail:
            out["detail"] = self.detail
        return out

    def __str__(self) -> str:
        from ..bibtex.syntax import shown

        said = f"{self.field}: " + (self.detail + "; " if self.detail else "")
        if self.found is None:
            return said + f"missing (the proceedings: {shown(self.expected or '')})"
        if self.expected is None:
            return said + f"{shown(self.found)} does not belong to this paper"
        return said + f"{shown(self.found)}, the proceedings: {shown(self.expected)}"


@dataclass(frozen=True, slots=True)
class EntryCheck:
    """The class of one entry, the paper (PMLR id) it is, and what is wrong with it."""

    key: str | None
    file: str
    line: int
    status: str
    paper: str | None = None
    problems: tuple[Problem, ...] = ()
    reason: str | None = None
    candidates: tuple[str, ...] = ()

    @property
    def flagged(self) -> bool:
        return self.status in FLAGGED

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"key": self.key, "file": self.file, "line": self.line, "status": self.status,
                               "paper": self.paper, "problems": [p.to_dict() for p in self.problems]}
        if self.reason:
            out["reason"] = self.reason
        if self.candidates:
            out["candidates"] = list(self.candidates)
        return out

    def message(self) -> str:
        """One line for people: the status, then the reason and every problem."""
        parts = [self.status + (f" ({self.paper})" if self.paper else "")]
        if self.reason:
            parts.append(self.reason)
        parts.extend(map(str, self.problems))
        return ": ".join(parts[:2]) + "".join(f"; {p}" for p in parts[2:])


@dataclass(frozen=True)
class CheckResult:
    """Every entry checked, and the cited keys (``--aux``) that no file defines."""

    entries: tuple[EntryCheck, ...]
    missing: tuple[str, ...] = ()
    aux: str | None = None

    def summary(self) -> dict[str, int]:
        counts = Counter(e.status for e in self.entries)
        out = {status: counts[status] for status in STATUSES}
        if self.aux is not None:
            out["missing"] = len(self.missing)
        return out

    def flagged(self, fail_on: Iterable[str] = FLAGGED) -> bool:
        wanted = set(fail_on)
        return any(e.status in wanted for e in self.entries) or bool("missing" in wanted and self.missing)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"entries": [e.to_dict() for e in self.entries], "summary": self.summary()}
        if self.aux is not None:
            out["missing"] = list(self.missing)
        return out


# --------------------------------------------------------------------------- reading inputs

@dataclass
class Bibliography:
    """One input file's entries (resolved through ``crossref``/``xdata``)."""

    name: str
    entries: list[Block] = field(default_factory=list)


def read_bibliography(name: str, text: str) -> Bibliography:
    """The entries of a BibTeX/BibLaTeX text, or of a CSL-JSON array (a text starting with ``[``)."""
    if text.lstrip("\ufeff \t\r\n").startswith("["):
        from .csl import blocks_of_csl

        return Bibliography(name, blocks_of_csl(name, text))
    found = scan(text)
    by_key = {b.key.lower(): b for b in found if b.key and not b.error}
    return Bibliography(name, [b if b.error else with_inherited(b, by_key) for b in found
                               if b.kind not in ("comment", "preamble", "string")])


_CITATION = re.compile(r"\\citation\{([^{}]*)\}")
_AUX_INPUT = re.compile(r"\\@input\{([^{}]*)\}")
MAX_AUX_FILES = 200


def read_aux(path: str) -> set[str] | None:
    """The keys a LaTeX ``.aux`` file cites (``\\citation{a,b}``, and those of the ``.aux``
    files it ``\\@input``\\ s), folded to lower case as BibTeX compares them; None for
    ``\\citation{*}`` (every entry)."""
    from pathlib import Path

    from ..errors import DataError
    from ..fix.files import read_bib

    keys: set[str] = set()
    pending: list[Path] = [Path(path)]
    seen: set[Path] = set()
    while pending:
        aux = pending.pop()
        if aux in seen or len(seen) >= MAX_AUX_FILES:
            continue
        seen.add(aux)
        try:
            text = read_bib(str(aux))
        except DataError:
            if aux == Path(path):
                raise
            continue  # an \@input of a chapter never compiled: LaTeX skips it too
        for match in _CITATION.finditer(text):
            for key in match.group(1).split(","):
                if key.strip() == "*":
                    return None
                if key.strip():
                    keys.add(key.strip().lower())
        pending.extend(aux.parent / m.group(1) for m in _AUX_INPUT.finditer(text))
    return keys


# --------------------------------------------------------------------------- checking

class Checker:
    """Classes entries, remembering the papers already cited (for ``duplicate``)."""

    def __init__(self, index: Index) -> None:
        self.index = index
        self.matcher = Matcher(index)
        self.volume = index.volume
        self.seen: dict[str, tuple[str, int]] = {}  # paper id → (file, line) of its first entry

    def check(self, name: str, entry: Block) -> EntryCheck:
        try:
            status, known, problems, reason, candidates = self._classify(entry)
        except RecursionError:  # the scanner bounds brace depth; this is the last guard
            status, known, problems, reason, candidates = "unreadable", None, [], "LaTeX nested too deeply", []
        paper = known.id if known is not None else None
        if paper and status in ("verified", "mismatch", "preprint"):
            first = self.seen.get(paper)
            if first is None:
                self.seen[paper] = (name, entry.line)
            else:  # a wrong second entry stays a mismatch: its problems matter more
                again = f"a second entry for {paper} (first: {first[0]}:{first[1]})"
                status, reason = ("mismatch", again) if status == "mismatch" else ("duplicate", again)
        return EntryCheck(entry.key, name, entry.line, status, paper, tuple(problems), reason,
                          tuple(p.id for p in candidates))

    # The classification: (status, paper, problems, reason, candidates).
    def _classify(self, entry: Block) -> tuple[str, Paper | None, list[Problem], str | None, list[Paper]]:
        if entry.error:
            return "unreadable", None, [], entry.error, []
        if entry.kind not in PAPER_TYPES or not entry.fields:
            return "other", None, [], None, []
        claim = claims_icml2026(entry, self.volume)
        elsewhere = other_venue(entry, self.volume)
        title = latex_plain(entry.get("title"))
        keys = title_keys(title) if title.strip() else None
        names = [n for n in split_names(entry.get("author")) if n.lower() != "others"]
        known = self.index.known
        by_title = sorted(self.index.title_candidates(keys)) if keys and keys.words else []
        confirmed = [n for n in by_title if self.matcher.authors_agree(names, known[n])]
        hits = self.matcher.by_identifier(entry)
        openreview_claim = any(kind == "openreview" for kind, _ in self.matcher.identifiers(entry))
        claims = claim or (openreview_claim and not elsewhere and "OpenReview id")

        paper_n, evidence = self._certain(hits, keys, names, confirmed)
        if paper_n is None:
            if len(hits) > 1 or len(confirmed) > 1:
                cands = [known[n].paper for n in (hits or confirmed)]
                return "ambiguous", None, [], "it fits several papers: " + ", ".join(p.id for p in cands), cands
            if by_title and claims:  # a real title, other authors (or none): the authors are wrong
                if len(by_title) > 1:
                    cands = [known[n].paper for n in by_title]
                    return "ambiguous", None, [], "its title is that of several papers", cands
                paper = known[by_title[0]].paper
                return "mismatch", paper, self._problems(entry, paper, hits, force_authors=True), None, []
            if hits:  # an id of the volume, but neither title nor authors of that paper
                paper = known[next(iter(hits))].paper
                if claims:
                    return ("not-found", None, [], f"no paper of ICML 2026 has this title; its id is that of "
                            f"{paper.id} ({_title(paper)!r})", [paper])
                return "ambiguous", None, [], f"its id is that of {paper.id}, but not its title or authors", [paper]
            if by_title:
                cands = [known[n].paper for n in by_title]
                if elsewhere or not names:
                    return "other", None, [], None, []
                return "other", None, [], f"the title of {cands[0].id}, by other authors", []
            return self._unknown(entry, keys, names, claims, bool(elsewhere))
        paper = known[paper_n].paper
        if elsewhere and not claim and evidence in ("title", "arxiv"):
            return "other", None, [], f"{elsewhere[1]}: another version of {paper.id}", []
        # An OpenReview id is certain of the paper, but an entry saying no more is its OpenReview version.
        if claim or evidence == "pmlr" or self._is_publication(entry):
            problems = self._problems(entry, paper, hits)
            return ("mismatch" if problems else "verified"), paper, problems, None, []
        return "preprint", paper, [], "a preprint of a paper published at ICML 2026: icml2026 fix upgrades it", []

    def _certain(self, hits: dict[int, list[str]], keys: Any, names: Sequence[str],
                 confirmed: list[int]) -> tuple[int | None, str | None]:
        """The paper the entry certainly is (and by what), or (None, None).

        Title and authors together outweigh an id (the id is then reported as another
        paper's); an id alone needs the title or the authors to agree."""
        if len(confirmed) == 1:
            n = confirmed[0]
            return n, (hits[n][0] if n in hits else "title")
        if len(hits) == 1:
            n, kinds = next(iter(hits.items()))
            if keys is None or self.matcher.title_agrees(keys, n) or self.matcher.authors_agree(
                    names, self.index.known[n]):
                return n, kinds[0]
        return None, None

    def _is_publication(self, entry: Block) -> bool:
        """A conference or journal entry that names no preprint server: its facts are checked."""
        if entry.kind not in ("inproceedings", "conference", "article", "incollection"):
            return False
        said = " ".join(latex_plain(entry.get(n)) for n in ("journal", "booktitle", "eprint", "archiveprefix",
                                                            "eprinttype", "howpublished", "note"))
        return not re.search(r"arxiv|corr|preprint|openreview|submitted|under review", said, re.IGNORECASE)

    def _unknown(self, entry: Block, keys: Any, names: Sequence[str], claims: Any,
                 elsewhere: bool) -> tuple[str, Paper | None, list[Problem], str | None, list[Paper]]:
        known = self.index.known
        close = self.index.close_titles(keys) if keys and keys.words else []
        near = [n for n in close if self.matcher.authors_agree(names, known[n])]
        if claims:
            if len(near) == 1:
                paper = known[near[0]].paper
                return "mismatch", paper, self._problems(entry, paper, {}), None, []
            nearest = close or self._nearest(keys)
            shown = "; ".join(f"{known[n].paper.id} {_title(known[n].paper)!r}" for n in nearest[:NEAREST])
            return ("not-found", None, [], f"it claims ICML 2026 ({claims}), but no paper of the volume has its "
                    "title or identifiers" + (f"; nearest titles: {shown}" if shown else ""),
                    [known[n].paper for n in nearest[:NEAREST]])
        if near and not elsewhere:
            cands = [known[n].paper for n in near]
            return ("ambiguous", None, [], "its title is close to, but not the same as, that of "
                    + ", ".join(p.id for p in cands), cands)
        return "other", None, [], None, []

    def _nearest(self, keys: Any) -> list[int]:
        """The titles sharing the most words with *keys* (for a not-found entry's message)."""
        return self.index.nearest_titles(keys, NEAREST) if keys is not None and keys.words else []

    # -- facts ---------------------------------------------------------------
    def _problems(self, entry: Block, paper: Paper, hits: dict[int, list[str]], *,
                  force_authors: bool = False) -> list[Problem]:
        problems: list[Problem] = []
        title = latex_plain(entry.get("title"))
        if title_keys(title).full not in _title_forms(paper):
            problems.append(Problem("title", _title(paper), " ".join(title.split()) or None))
        author = _authors_problem(entry, paper)
        if author or force_authors:
            problems.append(author or Problem("author", _names(paper.authors), latex_plain(entry.get("author"))))
        year = year_of(entry)
        if year is not None and year != paper.proceedings.year:
            problems.append(Problem("year", str(paper.proceedings.year), str(year)))
        pages = _DASHES.sub("-", latex_plain(entry.get("pages")).strip())
        if pages and paper.pages and pages != paper.pages.as_text("-"):
            problems.append(Problem("pages", paper.pages.as_text("--"), latex_plain(entry.get("pages")).strip()))
        volume = entry.get("volume").strip()
        if volume.isdigit() and int(volume) != self.volume:
            problems.append(Problem("volume", str(self.volume), volume))
        elsewhere = other_venue(entry, self.volume)
        if elsewhere and elsewhere[0] not in ("volume", "year"):
            problems.append(Problem(elsewhere[0], BOOKTITLE, latex_plain(entry.get(elsewhere[0])).strip()))
        problems.extend(self._identifier_problems(entry, paper))
        return problems

    def _identifier_problems(self, entry: Block, paper: Paper) -> list[Problem]:
        """Ids and links of the entry that are another paper's (or of no paper of the volume)."""
        index, ids = self.index, paper.identifiers
        own = index.by_pmlr.get(ids.pmlr or "")
        problems = []
        for kind, value in self.matcher.identifiers(entry):
            if kind == "openreview" and value != ids.openreview:
                problems.append(Problem("openreview", ids.openreview, value, "the id of "
                                        + _owner(index, index.by_openreview.get(value))))
            elif kind == "pmlr" and index.by_pmlr.get(value) != own:
                problems.append(Problem("url", ids.pmlr, value, "the PMLR id of "
                                        + _owner(index, index.by_pmlr.get(value))))
            elif kind == "arxiv" and value in index.by_arxiv and value != ids.arxiv:
                problems.append(Problem("eprint", ids.arxiv, value, "the arXiv id of "
                                        + _owner(index, index.by_arxiv.get(value))))
        return list(dict.fromkeys(problems))


def _title_forms(paper: Paper) -> set[str]:
    """The folded forms of the paper's title that are right: math in LaTeX or in Unicode."""
    forms = {title_keys(to_plain(paper.title or "")).full}
    if "$" in (paper.title or ""):
        forms.add(title_keys(unicode_title(paper.title or "")).full)
    return forms


def _owner(index: Index, n: int | None) -> str:
    return "no paper of the volume" if n is None else index.known[n].paper.id


def _title(paper: Paper) -> str:
    return " ".join(to_plain(paper.title or "").split())


def _names(people: Sequence[Person]) -> str:
    return " and ".join(", ".join(p for p in (_family(a), a.given) if p) for a in people)


def _family(person: Person) -> str:
    return person.literal or " ".join(p for p in (person.particle, person.family) if p)


def _authors_problem(entry: Block, paper: Paper) -> Problem | None:
    """Authors missing, extra, reordered or misspelt (by family name), or None."""
    from ..fix.match import entry_name_keys, family_keys

    raw = split_names(entry.get("author"))
    if not raw:
        return None
    cut = any(n.lower() == "others" for n in raw)  # "and others": the rest are not missing
    names = [n for n in raw if n.lower() != "others"]
    families = [family_keys(a) for a in paper.authors]
    places: list[int | None] = []
    for i, name in enumerate(names):  # two authors of one family name: the nearer place is theirs
        keys = entry_name_keys(name)
        free = [j for j, f in enumerate(families) if keys & f and j not in places]
        places.append(min(free, key=lambda j: abs(j - i)) if free else None)
    extra = [latex_plain(n) for n, j in zip(names, places) if j is None]
    matched = [j for j in places if j is not None]
    upto = max(matched, default=-1) + 1 if cut else len(families)
    missing = [_family(paper.authors[j]) for j in range(upto) if j not in matched]
    said = []
    if extra:
        said.append("not authors of the paper (or misspelt): " + ", ".join(" ".join(e.split()) for e in extra))
    if missing:
        said.append("missing: " + ", ".join(missing))
    if matched != sorted(matched):
        said.append("in another order")
    if not said:
        return None
    return Problem("author", _names(paper.authors), " ".join(latex_plain(entry.get("author")).split()),
                   "; ".join(said))


def cited_papers(papers: Any, cited: set[str] | None) -> Any:
    """The papers of the collection *papers* whose key (any of :meth:`PaperCollection.get`'s, in
    any case) a document cites — *cited* as :func:`read_aux` gives it; None (``\\citation{*}``)
    is every paper.  Keys of other works are ignored."""
    if cited is None:
        return papers
    from ..collection import PaperCollection

    found: dict[str, Paper] = {}
    for key in sorted(cited):
        paper = papers.find(key)
        if paper is not None:
            found.setdefault(paper.id, paper)
    return PaperCollection(found.values())


def check_bibliographies(bibliographies: Sequence[Bibliography], *, papers: Iterable[Paper] | None = None,
                         cited: set[str] | None = None, aux: str | None = None,
                         corrections: bool = True) -> CheckResult:
    """Class the entries of *bibliographies* (only the *cited* keys, when given) against
    *papers* (default: the packaged volume, with the corrections layer unless *corrections*
    is false)."""
    from ..fix import index_for

    checker = Checker(index_for(papers, corrections))
    out: list[EntryCheck] = []
    defined: set[str] = set()
    for bib in bibliographies:
        for entry in bib.entries:
            key = (entry.key or "").lower()
            defined.add(key)
            if cited is None or key in cited:
                out.append(checker.check(bib.name, entry))
    missing = tuple(sorted(cited - defined)) if cited is not None else ()
    return CheckResult(tuple(out), missing, aux)


def check_text(text: str, *, name: str = "<text>", papers: Iterable[Paper] | None = None,
               corrections: bool = True) -> CheckResult:
    """Class the entries of a BibTeX/BibLaTeX (or CSL-JSON) text."""
    return check_bibliographies([read_bibliography(name, text)], papers=papers, corrections=corrections)


def check_files(paths: Sequence[str], *, aux: str | None = None,
                papers: Iterable[Paper] | None = None, corrections: bool = True) -> CheckResult:
    """Class the entries of the files *paths* (``-``: standard input), only those *aux* cites."""
    from ..fix.files import read_bib

    bibs = [read_bibliography(path, read_bib(path)) for path in paths]
    cited = read_aux(aux) if aux else None
    return check_bibliographies(bibs, papers=papers, cited=cited, aux=aux, corrections=corrections)


__all__ = ["FLAGGED", "STATUSES", "CheckResult", "Checker", "EntryCheck", "Problem", "check_bibliographies",
           "check_files", "check_text", "cited_papers", "read_aux", "read_bibliography"]
