"""``icml2026 show KEY``: one paper in full, with where each fact comes from."""

from __future__ import annotations

import argparse
import sys
import textwrap

from ..collection import PaperCollection
from ..errors import UsageError
from ..markup import to_plain
from ..model import Paper, Proceedings
from ._common import emit, use_corrections


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser("show", help="show one paper with its sources",
                            description="Show one paper: bibliographic fields, identifiers, links, "
                            "abstract, status, and the source of every field.")
    parser.add_argument("key", help="citation key, id, alias key, PMLR id, OpenReview id, arXiv "
                        "id, proceedings/PDF/OpenReview URL, or the start of the title (case and "
                        "accents ignored; it must fit one paper)")
    parser.add_argument("--json", action="store_true", help="print the canonical JSON record")
    parser.add_argument("--data", metavar="PATH", action="append",
                        help="read records from these files or folders (repeatable)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..store.packaged import load_keys
    from ..store.papers import load

    corrections = use_corrections(args)
    found = None if args.data else load_keys([args.key], corrections=corrections)  # one paper through the index: fast
    papers = found if found is not None else load(args.data) if args.data else load(corrections=corrections)
    paper = papers.get(args.key) or papers.find(args.key) or by_title(papers, args.key)
    if paper is None:
        from difflib import get_close_matches

        keys = [k for p in papers for k in p.keys()]
        close = get_close_matches(args.key, keys, n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else " (see 'icml2026 list')"
        raise UsageError(f"no paper with key {args.key!r}{hint}")
    if args.json:
        from ..exporters import export

        emit([export([paper], "json")], None)
    else:
        emit([describe(paper)], None)
    return 0


def by_title(papers: PaperCollection, text: str) -> Paper | None:
    """The one paper whose title starts with *text* (or is exactly *text*); None if none;
    a one-line error naming a few candidates if several."""
    from ..search import words

    hits = papers.with_title_prefix(text)
    if len(hits) > 1:
        exact = [p for p in hits if words(p.title or "") == words(text)]
        if len(exact) == 1:
            return exact[0]
        shown = [f"{p.label} ({_short(to_plain(p.title or ''))})" for p in list(hits)[:3]]
        more = f" and {len(hits) - 3:,} more" if len(hits) > 3 else ""
        raise UsageError(f"{text!r} starts the titles of {len(hits):,} papers: {', '.join(shown)}"
                         f"{more}; give more of the title, or a key")
    return hits[0] if hits else None


def _short(title: str, width: int = 40) -> str:
    return title if len(title) <= width else title[:width - 1].rstrip() + "…"


def venue(proc: Proceedings) -> str:
    """``Booktitle (ICML 2026), Series 306``, with whatever parts are known."""
    event = " ".join(str(p) for p in (proc.conference_short_name, proc.year) if p)
    series = " ".join(str(p) for p in (proc.series, proc.volume) if p)
    parts = [proc.booktitle or "(proceedings title unknown)"]
    if event:
        parts[0] += f" ({event})"
    return ", ".join(parts + ([series] if series else []))


def describe(paper: Paper) -> str:
    proc = paper.proceedings
    rows: list[tuple[str, str, str]] = []

    def row(label: str, value: object, pointer: str) -> None:
        if value in (None, "", (), []):
            return
        src = paper.source_of(pointer)
        rows.append((label, str(value), src.name if src else ""))

    row("Title", to_plain(paper.title) if paper.title else None, "/title")
    row("Authors", "; ".join(a.display for a in paper.authors), "/authors")
    row("Pages", paper.pages, "/pages")
    row("Method", paper.method_name, "/method_name")
    for name, value in paper.identifiers.items():
        row(f"{name} id", value, f"/identifiers/{name}")
    for name, value in paper.links.items():
        row(f"{name} link", value, f"/links/{name}")
    row("Former titles", "; ".join(paper.former_titles), "/former_titles")
    out = [f"{paper.label}  ({paper.id})",
           f"Status: {paper.status}" + (f" — missing: {', '.join(paper.missing)}" if paper.missing else ""),
           f"In: {venue(proc)}"]
    for label, value, source in rows:
        out.append(f"{label + ':':<18}{value}")
        if source:
            out.append(f"{'':<18}  ↳ source: {source}")
    if paper.alias_keys:
        out.append(f"{'Also cited as:':<18}{', '.join(paper.alias_keys)}")
    # Fields 'icml2026 update' corrected, and the packaged values. Only an applied layer
    # corrects a paper, and applying it imported the module: otherwise there is nothing to say.
    layer = sys.modules.get("icml2026.update.layer")
    if layer is not None:
        out.extend(layer.correction_lines(paper))
    if paper.abstract:
        out.append("Abstract:")
        out.append(textwrap.fill(to_plain(paper.abstract), 88, initial_indent="  ", subsequent_indent="  "))
        src = paper.source_of("/abstract")
        if src:
            out.append(f"  ↳ source: {src.name}")
    for note in paper.notes:
        out.append(textwrap.fill(f"Note: {note}", 88, subsequent_indent="  "))
    return "\n".join(out) + "\n"
