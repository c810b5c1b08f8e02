"""``icml2026 fix refs.bib``: upgrade a bibliography's ICML 2026 entries to the verified ones."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import UsageError

if TYPE_CHECKING:
    from ..fix import FixResult


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "fix", help="upgrade the ICML 2026 entries of a .bib file to the verified entries",
        description="Find the entries of FILE.bib that are ICML 2026 papers (by OpenReview id, PMLR "
        "id or URL, arXiv id, or title confirmed by the authors) and replace each with the verified "
        "entry, keeping its citation key and the fields you added (keywords, file, note, ...). "
        "Everything else stays byte for byte. Entries that might be ICML 2026 papers but are not "
        "certain (a close title, other authors, two candidates) are reported as ambiguous and left "
        "alone. The fixed file goes to standard output (or -o, --in-place); a summary goes to "
        "standard error. Matching rules: README.md, 'Fixing a bibliography'.")
    parser.add_argument("file", metavar="FILE.bib", help="the bibliography ('-' reads standard input)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("-o", "--output", metavar="FILE", help="write the fixed file to FILE (atomically)")
    where.add_argument("--in-place", "-i", action="store_true",
                       help="rewrite FILE.bib itself (atomically), keeping the old one as FILE.bib.orig "
                       "(or FILE.bib.orig.1, .2 ... if that exists: a backup is never overwritten); "
                       "nothing is written when nothing changes")
    where.add_argument("--dry-run", "-n", action="store_true",
                       help="print the changes as a unified diff and write nothing")
    parser.add_argument("--no-backup", action="store_true", help="with --in-place: no .orig backup")
    parser.add_argument("--format", "-f", choices=("auto", "bibtex", "biblatex"), default="auto",
                        help="entry format of the replacements (default: auto, the dialect of the entry "
                        "replaced: BibLaTeX if it has date, journaltitle, eventtitle ..., else BibTeX)")
    parser.add_argument("--abstract", action=argparse.BooleanOptionalAction, default=None,
                        help="write abstracts in the replacements (default: where the entry had one)")
    parser.add_argument("--strict", action="store_true",
                        help="replace matched entries entirely: keep none of their other fields")
    parser.add_argument("--report", choices=("text", "json"), default="text",
                        help="summary on standard error as text (default) or one JSON object")
    parser.add_argument("--data", metavar="PATH", action="append", help="recognise the papers of these "
                        "record files or folders instead of the packaged data (repeatable)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..fix import fix_bibtex_report
    from ..fix.files import read_bib
    from ..store.papers import load
    from ._common import use_corrections

    if args.no_backup and not args.in_place:
        raise UsageError("--no-backup goes with --in-place")
    if args.in_place and args.file == "-":
        raise UsageError("--in-place needs a file, not standard input")
    text = read_bib(args.file)
    papers = load(args.data) if args.data else None
    result = fix_bibtex_report(text, papers=papers, fmt=args.format, abstract=args.abstract,
                               strict=args.strict, corrections=use_corrections(args))
    label = "<stdin>" if args.file == "-" else args.file
    if args.dry_run:
        _write_stdout("".join(unified_diff(text, result.text, label)))
    elif args.in_place:
        _rewrite(Path(args.file), text, result.text, backup=not args.no_backup, label=label)
    elif args.output and args.output != "-":
        from ..store.atomic import write_atomic

        write_atomic(args.output, [result.text])
    else:
        _write_stdout(result.text)
    _report(result, label, args.report)
    return 0


def _write_stdout(text: str) -> None:
    out = sys.stdout.buffer
    out.write(text.encode("utf-8"))
    out.flush()


def _rewrite(path: Path, old: str, new: str, *, backup: bool, label: str) -> None:
    import os

    from ..fix.files import backup as write_backup
    from ..store.atomic import write_atomic

    if new == old:
        return
    mode = path.stat().st_mode & 0o7777
    if backup:  # never over an earlier backup: the user's first original survives every run
        saved = write_backup(path, old)
        print(f"icml2026: {label}: the previous version is kept as {saved}", file=sys.stderr)
    write_atomic(path, [new])
    os.chmod(path, mode)  # write_atomic creates 0644; keep the user's permissions


def unified_diff(old: str, new: str, label: str) -> Iterator[str]:
    """``diff -u`` of two texts, with diff's marker for a last line without newline."""
    import difflib

    for line in difflib.unified_diff(old.splitlines(keepends=True), new.splitlines(keepends=True),
                                     f"a/{label}", f"b/{label}"):
        yield line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"


def _report(result: FixResult, label: str, style: str) -> None:
    if style == "json":
        import json

        print(json.dumps({"file": label, **result.to_dict()}, ensure_ascii=False, indent=2), file=sys.stderr)
        return
    for entry in result.entries:
        if entry.outcome in ("ambiguous", "unreadable", "changed"):
            print(f"icml2026: {label}: {entry}", file=sys.stderr)
    print(f"icml2026: {label}: {result.summary()}", file=sys.stderr)
