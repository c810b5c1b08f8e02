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
line ending (``\\n`` or ``\\r\\n``) of the entry it replaces, and — with ``fmt="auto"``,
the default — its dialect: an entry with BibLaTeX's own fields (``date``, ``journaltitle``,
``eventtitle`` …) is replaced by our BibLaTeX entry, any other by our BibTeX entry.

An entry is matched with what its ``crossref``/``xdata`` parents give it, so a NeurIPS
paper whose venue comes from its parent is left alone; the report names every field a
replacement changes (:attr:`EntryReport.changes`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..bibtex.fields import BIBLATEX_ONLY, SUPERSEDED
from ..bibtex.scan import Block, scan
from ..errors import UsageError
from ..model import Paper
from .match import EVIDENCE, Index, Match, Matcher, with_inherited

FORMATS = ("auto", "bibtex", "biblatex")
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
    changes: tuple[Change, ...] = ()  # for ``changed``: every field added, removed or rewritten

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"key": self.key, "line": self.line, "outcome": self.outcome}
        for name in ("evidence", "paper", "reason"):
            if getattr(self, name) is not None:
                out[name] = getattr(self, name)
        if self.candidates:
            out["candidates"] = list(self.candidates)
        if self.changes:
            out["changes"] = [c.to_dict() for c in self.changes]
        return out

    def __str__(self) -> str:
        what = f"{self.outcome}: {self.reason}" if self.reason else self.outcome
        if self.changes:
            what += ": " + "; ".join(map(str, self.changes))
        return f"line {self.line}: {self.key or '(no key)'}: {what}"


@dataclass(frozen=True, slots=True)
class Change:
    """One field of a replaced entry: its value before and after (None: absent)."""

    field: str
    old: str | None
    new: str | None

    def to_dict(self) -> dict[str, Any]:
        return {"field": self.field, "old": self.old, "new": self.new}

    def __str__(self) -> str:
        from ..bibtex.syntax import shown

        if self.old is None:
            return f"{self.field} added"
        if self.new is None:
            return f"{self.field} {shown(self.old)} removed"
        return f"{self.field} {shown(self.old)} → {shown(self.new)}"


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


def fix_bibtex(text: str, *, papers: Iterable[Paper] | None = None, fmt: str = "auto",
               abstract: bool | None = None, strict: bool = False, corrections: bool = True) -> str:
    """*text* with its ICML 2026 entries replaced by the verified ones (see the module docstring).

    *papers*: the papers to recognise (default: the packaged volume); *fmt*:
    ``bibtex``, ``biblatex`` or ``auto`` (each entry's own dialect); *abstract*: write abstracts (default: where the
    user's entry had one); *strict*: keep none of the user's own fields; *corrections*: with
    the default *papers*, apply the user's corrections layer (as ``load()``; the CLI's
    ``--no-corrections`` passes False).
    """
    return fix_bibtex_report(text, papers=papers, fmt=fmt, abstract=abstract, strict=strict,
                             corrections=corrections).text


def fix_bibtex_report(text: str, *, papers: Iterable[Paper] | None = None, fmt: str = "auto",
                      abstract: bool | None = None, strict: bool = False, corrections: bool = True) -> FixResult:
    """Like :func:`fix_bibtex`, with the report of what was found and done."""
    if fmt not in FORMATS:
        raise UsageError(f"unknown format {fmt!r} for fix (known: {', '.join(FORMATS)})")
    matcher = Matcher(index_for(papers, corrections))
    pieces: list[str] = []
    reports: list[EntryReport] = []
    done = read = 0
    found = scan(text)
    by_key = {b.key.lower(): b for b in found if b.key and not b.error}
    for block in found:
        if block.kind in ("comment", "preamble", "string"):
            continue
        read += 1
        if block.error:
            reports.append(EntryReport(block.key, block.line, "unreadable", reason=block.error))
            continue
        try:
            match = matcher.match(with_inherited(block, by_key))
        except RecursionError:  # the scanner bounds brace depth; this is the last guard
            reports.append(EntryReport(block.key, block.line, "unreadable", reason="LaTeX nested too deeply"))
            continue
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
    new = render_entry(match.paper, block, dialect_of(block) if fmt == "auto" else fmt, abstract, strict)
    if "\r\n" in original:  # kept values carry the entry's own CRLFs already
        new = new.replace("\r\n", "\n").replace("\n", "\r\n")
    if new == original:
        return EntryReport(block.key, block.line, "unchanged", match.evidence, match.paper.id), None
    return EntryReport(block.key, block.line, "changed", match.evidence, match.paper.id,
                       changes=changes(block, scan(new)[0])), new


def dialect_of(block: Block) -> str:
    """``biblatex`` when the entry uses a field only BibLaTeX has, else ``bibtex``."""
    return "biblatex" if any(f.name in BIBLATEX_ONLY for f in block.fields) else "bibtex"


def changes(old: Block, new: Block) -> tuple[Change, ...]:
    """The fields that differ between two versions of an entry (spacing aside), in *new*'s order,
    then the removed ones; the entry type counts as a field (``entry type``)."""
    def values(block: Block) -> dict[str, str]:
        out = {"entry type": block.kind}
        for item in block.fields:
            out.setdefault(item.name, " ".join(item.value.split()))
        return out

    before, after = values(old), values(new)
    found = [Change(name, before.get(name), value) for name, value in after.items() if before.get(name) != value]
    found += [Change(name, value, None) for name, value in before.items() if name not in after]
    return tuple(found)


def render_entry(paper: Paper, block: Block, fmt: str, abstract: bool | None, strict: bool) -> str:
    """The package's entry for *paper* under *block*'s key, then the user fields it keeps."""
    from ..bibtex.writer import fields_for, format_entry

    with_abstract = abstract if abstract is not None else block.has("abstract") and bool(paper.abstract)
    fields = fields_for(paper, fmt, abstract=with_abstract)
    dropped = SUPERSEDED | {name for name, _ in fields} | ({"abstract"} if abstract is False else set())
    kept = [] if strict else [(f.raw_name, f.raw_value) for f in block.fields if f.name not in dropped]
    return format_entry(block.key or "", fields + kept).rstrip("\n")


# --------------------------------------------------------------------------- index cache

_CACHE: list[tuple[object, Index]] = []


def index_for(papers: Iterable[Paper] | None, corrections: bool = True) -> Index:
    """The look-up index of *papers*, built once per collection; by default the packaged
    volume's, read prebuilt (:mod:`.prebuilt`: only the papers an entry names are loaded)
    unless a corrections layer changes the papers (then built from the corrected volume;
    *corrections* false: the layer is not used, as ``load(corrections=False)``)."""
    if papers is None:
        from ..update.paths import active_layer

        layer = active_layer(corrections)  # one stat(): a layer made or dropped since is seen
        key: object = ("packaged", layer)
        if _CACHE and _CACHE[0][0] == key:
            return _CACHE[0][1]
        prebuilt = None
        if layer is None:
            from .prebuilt import packaged_index

            prebuilt = packaged_index()
        if prebuilt is not None:
            _CACHE[:] = [(key, prebuilt)]
            return prebuilt
        from ..store.papers import load

        papers = load(corrections=corrections)
    else:
        key = papers
        if _CACHE and _CACHE[0][0] is key:
            return _CACHE[0][1]
    index = Index(papers)
    _CACHE[:] = [(key, index)]
    return index


__all__ = ["SUPERSEDED", "Change", "EntryReport", "FixResult", "dialect_of", "fix_bibtex", "fix_bibtex_report",
           "render_entry"]
