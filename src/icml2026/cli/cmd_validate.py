"""``icml2026 validate [PATH ...]``: schema and semantic checks, every problem at once."""

from __future__ import annotations

import argparse
import sys


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "validate", help="check record files against the schema and the data rules",
        description="Check paper and proceedings records (default: the packaged data) against "
        "schema/paper.schema.json and the rules a schema cannot express: unique ids and keys, "
        "page ranges, link shapes, balanced braces and $, no control characters, provenance for "
        "every field, proceedings references. Prints one line per problem as "
        "'file: record id: JSON pointer: message' and exits 1 if there is any.")
    parser.add_argument("paths", nargs="*", metavar="PATH",
                        help="record files (.json, .jsonl) or folders of .json files")
    parser.add_argument("--quiet", action="store_true", help="no summary line")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..validation import validate_paths

    problems = validate_paths(args.paths or None, progress=progress_line if sys.stderr.isatty() else None)
    for problem in problems:
        print(problem)
    if not args.quiet:
        where = ", ".join(args.paths) if args.paths else "packaged data"
        verdict = f"{len(problems)} problem(s)" if problems else "all records valid"
        print(f"icml2026 validate: {where}: {verdict}", file=sys.stderr)
    return 1 if problems else 0


def progress_line(done: int, total: int) -> None:
    """``validating: 3000/100000 records`` on one terminal line, ended when done."""
    end = "\n" if done == total else ""
    print(f"\rvalidating: {done}/{total} records", end=end, file=sys.stderr, flush=True)
