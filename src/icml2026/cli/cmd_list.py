"""``icml2026 list``: one line per paper, or JSON."""

from __future__ import annotations

import argparse

from ..markup import to_plain
from ._common import add_selection_options, emit, select_papers


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("list", aliases=["search"], help="list or search the papers",
                            description="List the papers (all, or those matching --query/--author): "
                            "citation key, first author and title; incomplete records are marked.")
    parser.add_argument("words", nargs="*", metavar="WORD",
                        help="search words (the same as --query \"WORD …\")")
    add_selection_options(parser)
    parser.add_argument("--json", action="store_true", help="print the records as JSON Lines")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.words:
        args.query = " ".join(filter(None, [args.query, *args.words]))
    papers = select_papers(args)
    if args.json:
        from ..exporters import export

        emit([export(papers, "jsonl")], None)
        return 0
    lines = []
    for paper in papers:
        first = paper.authors[0].display if paper.authors else "(authors unknown)"
        more = " et al." if len(paper.authors) > 1 else ""
        mark = "" if paper.is_complete else "  [incomplete]"
        title = to_plain(paper.title) if paper.title else f"(title unknown; method {paper.method_name})"
        lines.append(f"{paper.label:<28} {first}{more}: {title}{mark}\n")
    complete = sum(p.is_complete for p in papers)
    noun = "paper" if len(papers) == 1 else "papers"
    lines.append(f"{len(papers)} {noun} ({complete} complete, {len(papers) - complete} incomplete)\n")
    emit(lines, None)
    return 0
