"""Upgrade the ICML 2026 entries of a user's ``.bib`` to the package's verified entries.

    >>> import icml2026
    >>> fixed = icml2026.fix_bibtex(open("refs.bib").read())        # the new text
    >>> result = icml2026.fix.fix_bibtex_report(text)                # text + what was done

Every entry that is an ICML 2026 paper of the package (rules: :mod:`icml2026.fix.match`)
is replaced by the package's entry in the requested format, under the user's own
citation key.  Fields the user added that describe the user's copy rather than the
publication (``keywords``, ``file``, ``note``, ``annote``, ``shorttitle``, ``langid``
…) are kept after ours, verbatim, unless *strict*; fields that describe the
publication (:data:`SUPERSEDED`: venue, dates, pages, identifiers, links, DBLP's
bookkeeping, ``crossref``) are replaced by ours even where we have no value, since
the user's value belongs to another version (``journal = {arXiv preprint …}``).
Everything else — other entries, comments, ``@string``/``@preamble``, spacing, the
order of entries, line endings — stays byte for byte.  A replaced entry uses the
line ending (``\\n`` or ``\\r\\n``) of the entry it replaces.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..errors import UsageError
from ..model import Paper
from .match import EVIDENCE, Index, Match, Matcher
from .scan import Block, Field, blocks

FORMATS = ("bibtex", "biblatex")
# Fields that describe a publication: replaced by the verified entry's, never kept.
SUPERSEDED = frozenset((
    "title", "author", "booktitle", "journal", "journaltitle", "eventtitle", "eventdate", "venue", "year",
    "date", "month", "pages", "volume", "number", "issue", "series", "editor", "publisher", "organization",
    "institution", "school", "address", "location", "howpublished", "type", "doi", "url", "urldate", "pdf",
    "openreview", "eprint", "eprinttype", "eprintclass", "archiveprefix", "primaryclass", "arxivid", "arxiv",
    "isbn", "issn", "crossref", "biburl", "bibsource", "timestamp", "software",
))
_FIELD_LINE = re.compile(r"  ([a-z]+) = ")
EVIDENCE_LABELS = {"openreview": "OpenReview id", "pmlr": "PMLR id", "arxiv": "arXiv id",
                   "title": "title and authors"}


@dataclass(frozen=True, slots=True)
class EntryReport:
    """What was done with one entry: ``changed``, ``unchanged`` (already the verified
    entry), ``ambiguous`` (left alone; *reason* and *candidates* say why) or
    ``unreadable`` (not valid BibTeX; left alone)."""

    key: str | None
    line: int
    outcome: str
    evidence: str | None = None
    paper: str | None = None
    reason: str | None = None
    candidates: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"key": self.key, "line": self.line, "outcome": self.outcome}
        for name in ("evidence", "paper", "reason"):
            if getattr(self, name) is not None:
                out[name] = getattr(self, name)
        if self.candidates:
            out["candidates"] = list(self.candidates)
        return out

    def __str__(self) -> str:
        what = f"{self.outcome}: {self.reason}" if self.reason else self.outcome
        return f"line {self.line}: {self.key or '(no key)'}: {what}"


@dataclass(frozen=True)
class FixResult:
    """The fixed text, and a report for every entry that is (or may be) an ICML 2026 paper."""

    text: str
    entries_read: int
    entries: tuple[EntryReport, ...]

    def count(self, outcome: str) -> int:
        return sum(1 for e in self.entries if e.outcome == outcome)

    @property
    def changed(self) -> int:
        return self.count("changed")

    @property
    def ambiguous(self) -> tuple[EntryReport, ...]:
        return tuple(e for e in self.entries if e.outcome == "ambiguous")

    @property
    def found(self) -> dict[str, int]:
        """ICML 2026 papers found, by evidence (in the order of :data:`EVIDENCE`)."""
        counts = Counter(e.evidence for e in self.entries if e.paper)
        return {kind: counts[kind] for kind in EVIDENCE}

    def summary(self) -> str:
        found = self.found
        by = ", ".join(f"{EVIDENCE_LABELS[k]} {n}" for k, n in found.items() if n)
        parts = [f"{self.entries_read} entries read",
                 f"{sum(found.values())} ICML 2026 papers found" + (f" (by {by})" if by else ""),
                 f"{self.changed} changed, {self.count('unchanged')} already verified",
                 f"{len(self.ambiguous)} ambiguous (left as they were)"]
        unreadable = self.count("unreadable")
        if unreadable:
            parts.append(f"{unreadable} unreadable (left as they were)")
        return "; ".join(parts)

    def to_dict(self) -> dict[str, Any]:
        return {"entries_read": self.entries_read, "found": self.found, "changed": self.changed,
                "unchanged": self.count("unchanged"), "ambiguous": len(self.ambiguous),
                "unreadable": self.count("unreadable"), "entries": [e.to_dict() for e in self.entries]}


def fix_bibtex(text: str, *, papers: Iterable[Paper] | None = None, fmt: str = "bibtex",
               abstract: bool | None = None, strict: bool = False) -> str:
    """*text* with its ICML 2026 entries replaced by the verified ones (see the module docstring).

    *papers*: the papers to recognise (default: the packaged volume); *fmt*:
    ``bibtex`` or ``biblatex``; *abstract*: write abstracts (default: where the
    user's entry had one); *strict*: keep none of the user's own fields.
    """
    return fix_bibtex_report(text, papers=papers, fmt=fmt, abstract=abstract, strict=strict).text


def fix_bibtex_report(text: str, *, papers: Iterable[Paper] | None = None, fmt: str = "bibtex",
                      abstract: bool | None = None, strict: bool = False) -> FixResult:
    """Like :func:`fix_bibtex`, with the report of what was found and done."""
    if fmt not in FORMATS:
        raise UsageError(f"unknown format {fmt!r} for fix (known: {', '.join(FORMATS)})")
    matcher = Matcher(index_for(papers))
    pieces: list[str] = []
    reports: list[EntryReport] = []
    done = read = 0
    for block in blocks(text):
        if block.kind in ("comment", "preamble", "string"):
            continue
        read += 1
        if block.error:
            reports.append(EntryReport(block.key, block.line, "unreadable", reason=block.error))
            continue
        match = matcher.match(block)
        report, replacement = _apply(text, block, match, fmt, abstract, strict)
        if report is not None:
            reports.append(report)
        if replacement is not None:
            pieces.extend((text[done:block.start], replacement))
            done = block.end
    pieces.append(text[done:])
    return FixResult("".join(pieces), read, tuple(reports))


def _apply(text: str, block: Block, match: Match, fmt: str, abstract: bool | None,
           strict: bool) -> tuple[EntryReport | None, str | None]:
    if match.ambiguous:
        return EntryReport(block.key, block.line, "ambiguous", reason=match.ambiguous,
                           candidates=tuple(p.id for p in match.candidates)), None
    if match.paper is None or block.key is None:
        return None, None
    original = text[block.start:block.end]
    new = render_entry(match.paper, block, fmt, abstract, strict)
    if "\r\n" in original:  # kept values carry the entry's own CRLFs already
        new = new.replace("\r\n", "\n").replace("\n", "\r\n")
    outcome = "unchanged" if new == original else "changed"
    report = EntryReport(block.key, block.line, outcome, match.evidence, match.paper.id)
    return report, (new if outcome == "changed" else None)


def render_entry(paper: Paper, block: Block, fmt: str, abstract: bool | None, strict: bool) -> str:
    """The package's entry for *paper* under *block*'s key, then the user fields it keeps."""
    from ..exporters import export

    with_abstract = abstract if abstract is not None else block.has("abstract") and bool(paper.abstract)
    lines = export([paper], fmt, abstract=with_abstract).rstrip("\n").split("\n")
    lines[0] = f"@inproceedings{{{block.key},"
    written = {m.group(1) for m in map(_FIELD_LINE.match, lines[1:-1]) if m}
    dropped = SUPERSEDED | written | ({"abstract"} if abstract is False else set())
    kept = [] if strict else [f for f in block.fields if f.name not in dropped]
    if kept:
        lines[-2] += ","
        lines[-1:] = [*(_field_line(f) for f in kept[:-1]), _field_line(kept[-1])[:-1], "}"]
    return "\n".join(lines)


def _field_line(item: Field) -> str:
    return f"  {item.raw_name} = {item.raw_value},"


# --------------------------------------------------------------------------- index cache

_CACHE: list[tuple[object, Index]] = []


def index_for(papers: Iterable[Paper] | None) -> Index:
    """The look-up index of *papers* (default: the packaged volume), built once per collection."""
    if papers is None:
        from ..store import load

        key: object = "packaged"
        if _CACHE and _CACHE[0][0] == key:
            return _CACHE[0][1]
        papers = load()
    else:
        key = papers
        if _CACHE and _CACHE[0][0] is key:
            return _CACHE[0][1]
    index = Index(papers)
    _CACHE[:] = [(key, index)]
    return index


__all__ = ["SUPERSEDED", "EntryReport", "FixResult", "fix_bibtex", "fix_bibtex_report", "render_entry"]
