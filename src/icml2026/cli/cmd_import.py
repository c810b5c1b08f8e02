"""``icml2026 import FILE.bib``: BibTeX (PMLR volume files in particular) → canonical records."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ._common import ProgressBar

if TYPE_CHECKING:
    from ..importers.bibtex import ImportResult


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "import", help="convert BibTeX (e.g. PMLR's volume .bib) into canonical records",
        description="Convert a UTF-8 BibTeX file (at most 64 MiB) into canonical records: JSON Lines "
        "on standard output, or one file per record with -o DIR (DIR/<id>.json, and the proceedings "
        "record in DIR/proceedings/). Every record is checked as 'icml2026 validate' checks it. "
        "Entries that cannot be converted are reported on standard error (line, key, reason) and "
        "the exit status is 1; the other entries are still written. With -o, all files are written "
        "or none, and existing files are never replaced unless --overwrite is given; the hidden "
        "staging folder of an import that was killed is removed by the next import into the same "
        "place. A progress bar is shown when standard error is a terminal.")
    parser.add_argument("file", metavar="FILE.bib", help="BibTeX file to import ('-' reads standard input)")
    parser.add_argument("-o", "--output", metavar="DIR", help="write one JSON file per record into DIR "
                        "(created if missing; its parent must exist) instead of JSON Lines on standard output")
    parser.add_argument("--overwrite", action="store_true",
                        help="with -o: replace record files of the same name already in DIR")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..importers.bibtex import MAX_INPUT_CHARS, convert, decode_bytes, read_file
    from ..model import Source

    bar = ProgressBar(sys.stderr, "importing", " entries") if sys.stderr.isatty() else None
    progress = bar.update if bar else None
    try:
        if args.file == "-":
            text = decode_bytes(sys.stdin.buffer.read(MAX_INPUT_CHARS + 1), "<stdin>")
            result = convert(text, Source(name="BibTeX from standard input"), progress=progress)
        else:
            result = read_file(args.file, progress=progress)
    finally:
        if bar:
            bar.finish()
    label = args.file if args.file != "-" else "<stdin>"
    for problem in result.problems:
        print(f"icml2026: {label}: {problem}", file=sys.stderr)
    if args.output:
        write_folder(result, Path(args.output), overwrite=args.overwrite)
    else:
        _write_lines(result)
    failed = len(result.problems)
    incomplete = sum(not p.is_complete for p in result.papers)
    summary = f"icml2026: imported {len(result.papers)} records ({incomplete} incomplete)"
    if failed:
        summary += f"; {failed} {'entry' if failed == 1 else 'entries'} could not be converted"
    print(summary, file=sys.stderr)
    return 1 if result.problems else 0


def _write_lines(result: ImportResult) -> None:
    from ..exporters.canonical import render_jsonl

    sys.stdout.writelines(render_jsonl(result.papers))
    sys.stdout.flush()


def write_folder(result: ImportResult, target: Path, *, overwrite: bool = False) -> int:
    """Write every record of *result* into *target*, all or nothing; the number of files
    (:func:`icml2026.store.atomic.write_folder`)."""
    from ..store.atomic import write_folder as write_files
    from ..store.records import dumps_record

    files = {f"{p.id}.json": dumps_record(p.to_dict()) for p in result.papers}
    files.update({f"proceedings/{p.id}.json": dumps_record(p.to_dict()) for p in result.proceedings})
    return write_files(target, files, overwrite=overwrite)
