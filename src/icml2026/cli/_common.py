"""Options and helpers shared by every command, so each command reads the same way."""

from __future__ import annotations

import argparse
import sys
from typing import Iterable

from ..collection import PaperCollection
from ..errors import UsageError


def add_selection_options(parser: argparse.ArgumentParser) -> None:
    """``--keys``, ``--query`` and ``--author``: which papers a command works on."""
    group = parser.add_argument_group("selecting papers (default: all)")
    group.add_argument("--keys", metavar="K1,K2", help="comma-separated citation keys, ids, "
                       "PMLR ids or OpenReview ids")
    group.add_argument("--query", "-q", metavar="TEXT", help="words that must all occur in the "
                       "title, authors, abstract, method name or ids (case and accents ignored)")
    group.add_argument("--author", metavar="NAME", help="only papers with an author matching NAME")
    group.add_argument("--data", metavar="PATH", action="append", help="read records from these "
                       "files or folders instead of the packaged data (repeatable)")


def add_output_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-o", "--output", metavar="FILE", help="write to FILE (atomically: a "
                        "failure never leaves a partial file) instead of standard output")


def select_papers(args: argparse.Namespace) -> PaperCollection:
    from ..store import load

    papers = load(args.data) if getattr(args, "data", None) else load()
    if getattr(args, "keys", None):
        keys = [k.strip() for k in args.keys.split(",") if k.strip()]
        try:
            papers = papers.select(keys)
        except KeyError as exc:
            raise UsageError(f"no paper with key {exc.args[0]} (see 'icml2026 list')") from None
    if getattr(args, "query", None) or getattr(args, "author", None):
        papers = papers.search(args.query or "", author=args.author)
    return papers


def emit(chunks: Iterable[str], output: str | None) -> None:
    """Write *chunks* to *output* atomically, or stream them to stdout."""
    if output and output != "-":
        from ..store import write_atomic

        write_atomic(output, chunks)
    else:
        write = sys.stdout.write
        for chunk in chunks:
            write(chunk)
        sys.stdout.flush()


def warn(message: str) -> None:
    print(f"icml2026: {message}", file=sys.stderr)
