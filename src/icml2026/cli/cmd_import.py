"""``icml2026 import FILE.bib``: BibTeX (PMLR volume files in particular) → canonical records."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..importers.bibtex import ImportResult


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "import", help="convert BibTeX (e.g. PMLR's volume .bib) into canonical records",
        description="Convert a BibTeX file into canonical records: JSON Lines on standard output, "
        "or one file per record with -o DIR (DIR/<id>.json, and the proceedings record in "
        "DIR/proceedings/). Entries that cannot be converted are reported on standard error "
        "(line, key, reason) and the exit status is 1; the other entries are still written.")
    parser.add_argument("file", metavar="FILE.bib", help="BibTeX file to import ('-' reads standard input)")
    parser.add_argument("-o", "--output", metavar="DIR", help="write one JSON file per record into DIR "
                        "(atomically) instead of JSON Lines on standard output")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..importers.bibtex import ImportResult, convert, read_bibtex_report
    from ..model import Source

    if args.file == "-":
        result: ImportResult = convert(sys.stdin.read(), Source(name="BibTeX from standard input"))
    else:
        result = read_bibtex_report(args.file)
    if args.output:
        _write_files(result, args.output)
    else:
        _write_lines(result)
    label = args.file if args.file != "-" else "<stdin>"
    for problem in result.problems:
        print(f"icml2026: {label}: {problem}", file=sys.stderr)
    failed = len(result.problems)
    incomplete = sum(not p.is_complete for p in result.papers)
    summary = f"icml2026: imported {len(result.papers)} records ({incomplete} incomplete)"
    if failed:
        summary += f"; {failed} {'entry' if failed == 1 else 'entries'} could not be converted"
    print(summary, file=sys.stderr)
    return 1 if result.problems else 0


def _write_lines(result: ImportResult) -> None:
    import json

    write = sys.stdout.write
    for paper in result.papers:
        write(json.dumps(paper.to_dict(), ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def _write_files(result: ImportResult, folder: str) -> None:
    from pathlib import Path

    from ..store import dumps_record, write_atomic

    target = Path(folder)
    for paper in result.papers:
        write_atomic(target / f"{paper.id}.json", [dumps_record(paper.to_dict())])
    for proc in result.proceedings:
        write_atomic(target / "proceedings" / f"{proc.id}.json", [dumps_record(proc.to_dict())])
