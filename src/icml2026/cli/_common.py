"""Options and helpers shared by every command, so each command reads the same way."""

from __future__ import annotations

import argparse
import sys

from ..collection import PaperCollection
from ..errors import OutputError, UsageError

TYPE_CHECKING = False  # typing is not imported at run time (start-up)
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import TextIO


def add_selection_options(parser: argparse.ArgumentParser) -> None:
    """``--keys``, ``--query`` and ``--author``: which papers a command works on."""
    group = parser.add_argument_group("selecting papers (default: all)")
    group.add_argument("--keys", metavar="K1,K2", help="comma-separated citation keys, ids, "
                       "PMLR ids or OpenReview ids")
    group.add_argument("--query", "-q", metavar="TEXT", help="words that must all match: the start "
                       "of a word of the title, abstract, method name or ids, or a whole word of "
                       "an author's name (case and accents ignored); best first: title matches, "
                       "then authors, abstract, the rest. One id, arXiv id or URL selects that paper")
    group.add_argument("--author", metavar="NAME", help="only papers with an author whose name holds "
                       "every word of NAME, whole (li: Li, not Lin or Renzulli)")
    group.add_argument("--data", metavar="PATH", action="append", help="read records from these "
                       "files or folders instead of the packaged data (repeatable)")


def add_output_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-o", "--output", metavar="FILE", help="write to FILE (atomically: a "
                        "failure never leaves a partial file) instead of standard output")


def use_corrections(args: argparse.Namespace) -> bool:
    """Whether the packaged papers come with the corrections layer: not under ``--no-corrections``
    (passed on as ``corrections=`` to ``load``, ``load_keys``, ``fix`` and ``check``)."""
    return not getattr(args, "no_corrections", False)


def select_papers(args: argparse.Namespace) -> PaperCollection:
    from ..store.packaged import load_keys
    from ..store.papers import load

    keys = [k.strip() for k in args.keys.split(",") if k.strip()] if getattr(args, "keys", None) else []
    if getattr(args, "keys", None) is not None and not keys:
        raise UsageError(f"--keys {args.keys!r} names no key")
    plain = not getattr(args, "data", None) and not getattr(args, "query", None) \
        and not getattr(args, "author", None)
    if keys and plain:  # the common one-paper export: read it through the index
        found = load_keys(keys, corrections=use_corrections(args))
        if found is not None:
            return found
    papers = load(args.data) if getattr(args, "data", None) else load(corrections=use_corrections(args))
    if keys:
        try:
            papers = papers.select(keys)
        except KeyError as exc:
            raise UsageError(f"no paper with key {exc.args[0]} (see 'icml2026 list')") from None
    if getattr(args, "query", None) or getattr(args, "author", None):
        papers = papers.search(args.query or "", author=args.author)
        if not len(papers):
            wanted = " and ".join(f"{name} {value!r}" for name, value in
                                  (("--query", args.query), ("--author", args.author)) if value)
            raise UsageError(f"no paper matches {wanted} (nothing written)")
    return papers


def emit(chunks: Iterable[str], output: str | None) -> None:
    """Write *chunks* to *output* atomically, or stream them to stdout."""
    if output and output != "-":
        from ..store.atomic import write_atomic

        write_atomic(output, chunks, make_parents=False)
        return
    if sys.stdout is None:  # started with standard output closed (>&-)
        raise OutputError("standard output is closed; use -o FILE")
    try:
        write = sys.stdout.write
        for chunk in chunks:
            write(chunk)
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:  # /dev/full, a closed descriptor …
        raise OutputError(f"standard output: cannot write: {exc.strerror or exc}") from None


def warn(message: str) -> None:
    print(f"icml2026: {message}", file=sys.stderr)


class ProgressBar:
    """``LABEL [#####-----] 3000/6553 UNIT`` on a terminal's stderr, redrawn in place.

    Commands create one only when stderr is a terminal: piped output stays quiet.
    """

    WIDTH = 30

    def __init__(self, stream: TextIO, label: str, unit: str = "") -> None:
        self.stream = stream
        self.label = label
        self.unit = unit
        self.drawn = False

    def update(self, done: int, total: int) -> None:
        filled = self.WIDTH * done // total if total else self.WIDTH
        self.stream.write(f"\r{self.label} [{'#' * filled}{'-' * (self.WIDTH - filled)}] {done}/{total}{self.unit}")
        self.stream.flush()
        self.drawn = True

    def finish(self) -> None:
        if self.drawn:
            self.stream.write("\n")
            self.stream.flush()
            self.drawn = False
