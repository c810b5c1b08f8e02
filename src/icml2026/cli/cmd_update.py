"""``icml2026 update``: pull PMLR's published corrections into a layer in the user's data folder."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from ..errors import UsageError


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "update", help="apply PMLR's published corrections (titles, authors, pages, links)",
        description="Download PMLR's published BibTeX of volume 306 (generated from its corrected "
        "paper pages), compare it with the packaged records by key (pmlr-v306-<id>) and store the "
        "differences as a corrections layer in your data folder (ICML2026_DATA_DIR overrides it). "
        "From then on every command uses the corrected records, each corrected field citing the URL, "
        "date and SHA-256 of the file; citation keys never change. The packaged files are never "
        "written. The request is conditional (a 304 costs nothing), HTTPS only, with a time-out and "
        "a size limit; the file is verified before anything is stored, and a failure leaves the "
        "previous state intact. Changes are printed as 'paper field: old → new'.",
        epilog="Use 'icml2026 --no-corrections COMMAND' to ignore the layer for one command.")
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--check", action="store_true",
                      help="print what would change (paper, field, old → new) and write nothing")
    what.add_argument("--revert", action="store_true",
                      help="remove the corrections layer: the packaged data applies again")
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--url", metavar="URL", help="download from URL (a mirror; http:// allowed "
                        "here) instead of PMLR's https://proceedings.mlr.press/v306/assets/bib/"
                        "bibliography.bib")
    source.add_argument("--file", metavar="FILE.bib", help="read a file already downloaded instead")
    parser.add_argument("--force", action="store_true",
                        help="use a download that looks wrong all the same (far fewer entries than the "
                        "volume, few papers matched, more than 2%% of papers changed, ids moved to other "
                        "papers, duplicate ids, links away from PMLR); without it such a file is refused "
                        "with the reason and the stored layer is kept")
    parser.add_argument("--timeout", metavar="SECONDS", type=_bounded(MAX_TIMEOUT), default=300.0,
                        help="give up unless the whole download finishes in SECONDS (default 300, "
                        f"at most {MAX_TIMEOUT:g})")
    parser.add_argument("--max-size", metavar="MB", type=_bounded(MAX_MB), default=64.0,
                        help=f"refuse a file larger than MB megabytes (default 64, at most {MAX_MB:g})")
    parser.set_defaults(run=run)


MAX_TIMEOUT = 3600.0
MAX_MB = 1024.0


def _bounded(limit: float) -> Callable[[str], float]:
    """An argparse type: a positive, finite number no larger than *limit* (not ``inf``, ``nan``)."""
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        if not 0 < value <= limit:  # also false for nan
            raise argparse.ArgumentTypeError(f"must be a number above 0 and at most {limit:g}: {text!r}")
        return value

    return parse


def _say(message: str) -> None:
    from ..tex_safety import printable

    print(f"icml2026: {printable(message)}", file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    from ..tex_safety import printable
    from ..update.download import UpdateError
    from ..update.layer import layer_path, summarize
    from ..update.published import SHOWN, revert, summary_lines, update

    if args.revert:
        if args.url or args.file:
            raise UsageError("--revert takes no --url or --file")
        existed, removed = revert()
        if not existed:
            _say(f"no corrections layer at {layer_path()}; nothing to revert")
        else:
            count = summarize(removed.corrections if removed else ())
            what = f" ({count.fields} corrected fields of {len(count.papers)} papers)" if removed else ""
            _say(f"removed {layer_path()}{what}; the packaged data applies again")
        return 0
    try:
        outcome = update(url=args.url, file=args.file, check=args.check, force=args.force, timeout=args.timeout,
                         max_bytes=int(args.max_size * 1_000_000))
    except UpdateError as exc:
        raise UpdateError(f"{printable(str(exc))}; nothing was changed") from None
    for note in outcome.notes:
        _say(note)
    for line in outcome.rejected[:SHOWN]:
        _say(line)
    if len(outcome.rejected) > SHOWN:
        _say(f"… and {len(outcome.rejected) - SHOWN} more entries not used")
    out = sys.stdout
    for change in outcome.changes:
        out.write(f"{change}\n")  # its values are shown with control characters visible
    out.flush()
    for line in summary_lines(outcome):
        _say(line)
    return 0
