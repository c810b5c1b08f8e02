"""``icml2026 check refs.bib``: class every entry against the volume, flag what is wrong."""

from __future__ import annotations

import argparse
import sys

STATUS_HELP = ("verified (an ICML 2026 paper, every fact right), mismatch (the paper is certain, a fact is "
               "wrong), not-found (claims ICML 2026, no such paper: possibly fabricated), preprint (a "
               "version of a paper published at ICML 2026), duplicate (a second entry for a paper), "
               "ambiguous (candidates, not certain), unreadable (not valid BibTeX: what is wrong, at the entry's "
               "line), other (not ICML 2026: never flagged)")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "check", help="check a bibliography's ICML 2026 references (wrong facts, fabricated entries)",
        description="Read BibTeX/BibLaTeX (or CSL-JSON) files and class every entry against the verified "
        "ICML 2026 volume, offline: " + STATUS_HELP + ". No file is changed. Prints one line per "
        "flagged entry as 'file:line: key: status: what is wrong', then a summary. Exit status: 0 when "
        "nothing is flagged, 1 when something is (an unreadable entry too: the rest is checked), 2 when "
        "an input cannot be read at all. Matching rules: "
        "README.md, 'Checking a bibliography'.")
    parser.add_argument("files", nargs="+", metavar="FILE.bib", help="bibliographies ('-' reads standard input)")
    parser.add_argument("--aux", metavar="PAPER.aux", help="check only the keys this LaTeX .aux file cites "
                        "(\\citation{...}, \\citation{*} for all; \\@input files followed) and report cited "
                        "keys that no FILE.bib defines")
    parser.add_argument("--format", "-f", choices=("text", "json", "sarif"), default="text",
                        help="text for people (default), one JSON object, or a SARIF 2.1.0 log for "
                        "GitHub code scanning")
    parser.add_argument("--fail-on", metavar="STATUS,...",
                        help="the statuses that make the exit status 1, comma-separated (default: every "
                        "status but verified and other, and 'missing' for cited keys no FILE.bib defines); "
                        "'none' never fails")
    parser.add_argument("--all", action="store_true", help="text: list every entry, verified and other too")
    parser.add_argument("--data", metavar="PATH", action="append", help="check against the papers of these "
                        "record files or folders instead of the packaged data (repeatable)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..check import FLAGGED, STATUSES, check_files
    from ..errors import DataError, UsageError
    from ..store.papers import load
    from ._common import use_corrections

    fail_on = [s.strip() for s in (args.fail_on or ",".join(FLAGGED)).split(",") if s.strip()]
    known = (*STATUSES, "missing", "none")
    unknown = [s for s in fail_on if s not in known]
    if unknown:
        raise UsageError(f"--fail-on: unknown status {unknown[0]!r} (known: {', '.join(known)})")
    if args.files.count("-") > 1:
        raise UsageError("standard input ('-') can be read once")
    try:
        papers = load(args.data) if args.data else None
        result = check_files(args.files, aux=args.aux, papers=papers, corrections=use_corrections(args))
    except DataError as exc:
        print(f"icml2026: error: {exc}", file=sys.stderr)
        return 2
    if args.format == "json":
        import json

        print(json.dumps(result.to_dict(), ensure_ascii=False, indent=2))
    elif args.format == "sarif":
        import json

        from ..check.sarif import render

        print(json.dumps(render(result), ensure_ascii=False, indent=2))
    else:
        _text(result, every=args.all)
    return 1 if "none" not in fail_on and result.flagged(fail_on or FLAGGED) else 0


def _text(result: object, *, every: bool) -> None:
    from ..check import CheckResult

    assert isinstance(result, CheckResult)
    for entry in result.entries:
        if every or entry.flagged:
            print(f"{entry.file}:{entry.line}: {entry.key or '(no key)'}: {entry.message()}")
    for key in result.missing:
        print(f"{result.aux}: {key}: cited, but defined in no bibliography checked")
    summary = result.summary()
    print("icml2026 check: " + f"{len(result.entries)} entries: "
          + ", ".join(f"{n} {status}" for status, n in summary.items() if n or status == "verified"),
          file=sys.stderr)
