"""``icml2026 show KEY``: one paper in full, with where each fact comes from."""

from __future__ import annotations

import argparse
import textwrap

from ..errors import UsageError
from ..markup import to_plain
from ..model import Paper, Proceedings
from ._common import emit


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("show", help="show one paper with its sources",
                            description="Show one paper: bibliographic fields, identifiers, links, "
                            "abstract, status, and the source of every field.")
    parser.add_argument("key", help="citation key, id, alias key, PMLR id or OpenReview id")
    parser.add_argument("--json", action="store_true", help="print the canonical JSON record")
    parser.add_argument("--data", metavar="PATH", action="append",
                        help="read records from these files or folders (repeatable)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..store import load

    papers = load(args.data) if args.data else load()
    paper = papers.get(args.key)
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
    if paper.abstract:
        out.append("Abstract:")
        out.append(textwrap.fill(to_plain(paper.abstract), 88, initial_indent="  ", subsequent_indent="  "))
        src = paper.source_of("/abstract")
        if src:
            out.append(f"  ↳ source: {src.name}")
    for note in paper.notes:
        out.append(textwrap.fill(f"Note: {note}", 88, subsequent_indent="  "))
    return "\n".join(out) + "\n"
