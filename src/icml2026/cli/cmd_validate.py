"""``icml2026 validate [PATH ...]``: schema and semantic checks, every problem at once."""

from __future__ import annotations

import argparse
import sys


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "validate", help="check record files against the schema and the data rules",
        description="Check paper and proceedings records (default: the packaged data) against "
        "schema/paper.schema.json and the rules a schema cannot express: unique ids and keys, "
        "page ranges, link shapes, balanced braces and $, no control characters or lone surrogates, "
        "integers not written as floats, dates that exist, provenance for every field, proceedings "
        "references, and a booktitle and year in the proceedings of every complete paper. Records "
        "are read one at a time (a file of any size; non-regular files in folders are skipped). "
        "Prints one line per problem as "
        "'file: record id: JSON pointer: message' and exits 1 if there is any.")
    parser.add_argument("paths", nargs="*", metavar="PATH",
                        help="record files (.json, .jsonl) or folders of them (and of their proceedings/ subfolder)")
    parser.add_argument("--quiet", action="store_true", help="no summary line")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..validation import iter_problems

    # Problems are printed as they are found: a file of any size is checked in flat memory.
    count = 0
    for problem in iter_problems(args.paths or None, progress=progress_line if sys.stderr.isatty() else None):
        print(problem)
        count += 1
    if not args.quiet:
        where = ", ".join(args.paths) if args.paths else "packaged data"
        verdict = f"{count} problem(s)" if count else "all records valid"
        print(f"icml2026 validate: {where}: {verdict}", file=sys.stderr)
    return 1 if count else 0


def progress_line(done: int, total: int) -> None:
    """``validating: 3000/100000 records`` on one terminal line, ended when done."""
    end = "\n" if done == total else ""
    print(f"\rvalidating: {done}/{total} records", end=end, file=sys.stderr, flush=True)
