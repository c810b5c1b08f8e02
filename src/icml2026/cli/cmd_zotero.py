"""``icml2026 zotero sync``: put the papers into a Zotero user or group library.

The API key comes from ``ZOTERO_API_KEY`` or ``--api-key-file``, never from the
command line (it would show in ``ps`` and shell history), and is never printed.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from typing import TYPE_CHECKING, TextIO

from ..errors import UsageError
from ._common import ProgressBar, add_selection_options, select_papers, warn

if TYPE_CHECKING:
    from ..zotero import SyncReport

PUBLIC_API = "https://api.zotero.org"
KEY_VARIABLE = "ZOTERO_API_KEY"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser("zotero", help="sync the papers into a Zotero library",
                            description="Zotero integration. Run 'icml2026 zotero sync --help'.")

    def no_action(args: argparse.Namespace) -> int:
        parser.print_help()
        return 2

    parser.set_defaults(run=no_action)   # no ACTION given
    actions = parser.add_subparsers(dest="zotero_action", metavar="ACTION")
    sync = actions.add_parser(
        "sync", help="create or update one Zotero item per paper",
        description="Create or update one conferencePaper item per complete paper in a Zotero "
        "library. Choose the papers with --keys, --query or --author (--all syncs the whole "
        "volume). Safe to repeat and to interrupt: items have keys derived from the paper ids, "
        "an item you added by hand (same title, OpenReview or PMLR URL) is adopted instead of "
        "duplicated, fields you edited in Zotero are kept, and nothing is ever deleted. A re-sync "
        "reads only what changed since the last one. The API key is read "
        f"from ${KEY_VARIABLE} or --api-key-file.")
    sync.add_argument("--library-id", required=True, metavar="ID",
                      help="numeric user ID (zotero.org/settings/keys) or group ID")
    sync.add_argument("--library-type", required=True, choices=("user", "group"))
    sync.add_argument("--collection", default="ICML 2026", metavar="NAME",
                      help="file new items in this top-level collection, created if missing "
                      "(default: %(default)s; '' for none)")
    add_selection_options(sync)
    group = next(g for g in sync._action_groups if g.title and g.title.startswith("selecting papers"))
    group.title = "selecting papers (required: --keys, --query, --author or --data; or --all)"
    group.add_argument("--all", action="store_true",
                       help="sync every packaged paper (the whole volume: thousands of items)")
    sync.add_argument("--dry-run", action="store_true",
                      help="read the library and print the plan per paper; write nothing")
    sync.add_argument("--endpoint", default=PUBLIC_API, metavar="URL",
                      help="API base URL, for tests and self-hosted servers (default: %(default)s)")
    sync.add_argument("--api-key-file", metavar="FILE",
                      help=f"read the API key from FILE instead of ${KEY_VARIABLE}")
    sync.add_argument("--timeout", type=float, default=30.0, metavar="SECONDS",
                      help="give up on one request after this long (default: %(default)s)")
    sync.add_argument("--state-dir", metavar="DIR", default=None,
                      help="keep the sync state here, so that a re-sync reads only what changed "
                      "(default: $XDG_STATE_HOME/icml2026/zotero or ~/.local/state/icml2026/zotero; "
                      "'' for none)")
    sync.set_defaults(run=run)


def read_api_key(args: argparse.Namespace) -> str | None:
    if args.api_key_file:
        try:
            with open(args.api_key_file, encoding="utf-8") as handle:
                key = handle.read().strip()
        except OSError as exc:
            raise UsageError(f"cannot read the API key file {args.api_key_file}: "
                             f"{exc.strerror or type(exc).__name__}") from None
        except UnicodeDecodeError:
            raise UsageError(f"the API key file {args.api_key_file} is not UTF-8 text") from None
        if not key:
            raise UsageError(f"the API key file {args.api_key_file} is empty")
        return key
    key = os.environ.get(KEY_VARIABLE, "").strip()
    if not key and args.dry_run and args.library_type == "user":
        # Said before anything is read: the server's answer would be a bare 403.
        raise UsageError(f"no Zotero API key: a dry run reads the library, and a user library needs "
                         f"a key for that (a read-only one is enough): set {KEY_VARIABLE} or use "
                         "--api-key-file FILE")
    if not key and not args.dry_run:
        raise UsageError(f"no Zotero API key: set {KEY_VARIABLE} or use --api-key-file FILE "
                         "(create a key at https://www.zotero.org/settings/keys)")
    return key or None


def check_selection(args: argparse.Namespace) -> None:
    """A sync without a selection would put the whole volume into someone's library: ask for --all."""
    chosen = [name for name in ("keys", "query", "author") if getattr(args, name, None)]
    if args.all and chosen:
        raise UsageError(f"--all cannot be combined with --{chosen[0]}")
    if not (args.all or chosen or getattr(args, "data", None)):
        raise UsageError("choose the papers to sync with --keys, --query or --author "
                         "(or --all for every packaged paper)")


def check_timeout(value: float) -> float:
    if not math.isfinite(value) or value <= 0:
        raise UsageError(f"--timeout must be a positive number of seconds, not {value:g}")
    return value


def run(args: argparse.Namespace) -> int:
    from ..zotero import ZoteroError, sync
    from ..zotero.state import default_dir

    check_selection(args)
    timeout = check_timeout(args.timeout)
    api_key = read_api_key(args)
    papers = select_papers(args)
    if not len(papers):
        raise UsageError("no paper selected")
    state_dir = default_dir() if args.state_dir is None else (args.state_dir or None)
    bar = ProgressBar(sys.stderr, "zotero sync") if sys.stderr.isatty() and not args.dry_run else None
    try:
        report = sync(papers, library_id=args.library_id, library_type=args.library_type,
                      api_key=api_key, collection=args.collection, dry_run=args.dry_run,
                      endpoint=args.endpoint, timeout=timeout, state_dir=state_dir,
                      progress=bar.update if bar else None, notify=warn)
    except ZoteroError as exc:
        if bar:
            bar.finish()
        if exc.report and wrote_something(exc.report):   # say exactly what was done before the error
            print_report(exc.report, sys.stdout)
        raise
    if bar:
        bar.finish()
    print_report(report, sys.stdout)
    for note in report.notes:   # the waits were said as they began (notify)
        warn(note)
    if not report.ok:
        warn(f"{report.counts['failed']} papers failed (see above); run the sync again after fixing the cause")
        return 1
    return 0


def wrote_something(report: SyncReport) -> bool:
    """Whether the library may differ from before (created, updated, or written without an answer)."""
    return bool(report.counts["create"] or report.counts["update"] or report.collection_created
                or any(o.detail.startswith("may have been written") for o in report.outcomes))


def print_report(report: SyncReport, out: TextIO) -> None:
    """One line per paper (all of them in a dry run, else all but unchanged), then the summary."""
    if report.collection and report.collection_checked:
        state = ("created" if report.collection_created else
                 "to be created" if report.collection_key is None else "found")
        out.write(f"collection {report.collection!r}: {state}"
                  f"{f' ({report.collection_key})' if report.collection_key else ''}\n")
    for outcome in report.outcomes:
        if outcome.action == "unchanged" and not report.dry_run and not outcome.kept:
            continue
        action = outcome.action if report.dry_run else {
            "create": "created", "update": "updated"}.get(outcome.action, outcome.action)
        notes = []
        if outcome.fields:
            notes.append("fields: " + ", ".join(outcome.fields))
        if outcome.kept:
            notes.append("kept your edits to: " + ", ".join(outcome.kept))
        if outcome.detail:
            notes.append(outcome.detail)
        out.write(f"{action:<9} {outcome.key or '-':<8} {outcome.label:<28} {'; '.join(notes)}".rstrip() + "\n")
    out.write(report.summary() + "\n")
    out.flush()


