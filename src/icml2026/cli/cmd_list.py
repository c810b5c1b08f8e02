"""``icml2026 list``: one line per paper (a bounded number of them), or JSON."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from ..collection import PaperCollection
from ..model import Paper
from ._common import add_selection_options, emit, select_papers, use_corrections

DEFAULT_LIMIT = 20


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser("list", aliases=["search"], help="list or search the papers",
                            description="List the papers (all, or those matching --query/--author), "
                            "best matches first: citation key, first author and title; incomplete "
                            "records are marked. The last lines say how many were not shown and "
                            "how many papers there are in all.")
    parser.add_argument("words", nargs="*", metavar="WORD",
                        help="search words (the same as --query \"WORD …\"), or one identifier "
                        "or URL")
    add_selection_options(parser)
    parser.add_argument("--limit", "-n", type=_limit, metavar="N",
                        help=f"print at most N papers (default: {DEFAULT_LIMIT}; with --json: "
                        "all); 0 prints all")
    parser.add_argument("--json", action="store_true", help="print the records as JSON Lines")
    parser.set_defaults(run=run)


def _limit(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"not a count of papers: {text!r} (0 = all)")
    return value


def run(args: argparse.Namespace) -> int:
    if args.words:
        args.query = " ".join(filter(None, [args.query, *args.words]))
    fast = fast_listing(args)
    if fast is not None:
        emit(fast, None)
        return 0
    papers = select_papers(args)
    if args.json:
        from ..exporters import export

        limit = args.limit or len(papers)  # machine output: all unless asked
        emit([export(list(papers)[:limit], "jsonl")], None)
        return 0
    limit = DEFAULT_LIMIT if args.limit is None else args.limit
    emit(listing(papers, limit), None)
    return 0


def fast_listing(args: argparse.Namespace) -> list[str] | None:
    """The listing of the packaged volume through its stored search index, or None."""
    if args.json or args.data or args.keys:
        return None
    from ..store.packaged import packaged_listing

    limit = DEFAULT_LIMIT if args.limit is None else args.limit
    found = packaged_listing(args.query or "", args.author, limit, corrections=use_corrections(args))
    if found is None:
        return None
    shown, total, complete = found
    if not total and (args.query or args.author):
        return None  # the full path words the "no paper matches" error
    return lines_for(shown, total, complete)


def listing(papers: PaperCollection, limit: int) -> list[str]:
    """At most *limit* lines of papers (0: all), a line for the rest, then the count."""
    shown: Sequence[Paper] = list(papers)[:limit] if limit else list(papers)
    return lines_for(shown, len(papers), sum(p.is_complete for p in papers))


def lines_for(shown: Sequence[Paper], total: int, complete: int) -> list[str]:
    lines = [line(paper) for paper in shown]
    rest = total - len(shown)
    if rest:
        lines.append(f"… and {rest:,} more (use --limit 0 to list all)\n")
    lines.append(count_line(total, complete) + "\n")
    return lines


def line(paper: Paper) -> str:
    first = paper.authors[0].display if paper.authors else "(authors unknown)"
    more = " et al." if len(paper.authors) > 1 else ""
    mark = "" if paper.is_complete else "  [incomplete]"
    title = _plain_title(paper.title) if paper.title else f"(title unknown; method {paper.method_name})"
    return f"{paper.label:<28} {first}{more}: {title}{mark}\n"


def _plain_title(title: str) -> str:
    """The title as plain text: math in Unicode where it has a faithful form (``QAOA²``, not
    ``QAOA$^2$``), emphasis and escapes dropped; the plain-text writer is imported only for a
    title with markup (most have none)."""
    if "$" not in title and "*" not in title and "\\" not in title:
        return title
    from ..exporters.plain import plain_text

    return plain_text(title)


def count_line(total: int, complete: int) -> str:
    """``6,552 papers (6,552 complete, 0 incomplete)``: every paper selected, shown or not."""
    noun = "paper" if total == 1 else "papers"
    return f"{total:,} {noun} ({complete:,} complete, {total - complete:,} incomplete)"
