"""``icml2026 site -o DIR``: the proceedings as a static website."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "site", help="build the proceedings website (static HTML) into a folder",
        description="Write a static website of the papers into DIR: an index with search (titles, "
        "authors, abstracts, method names, ids and URLs, ranked as 'icml2026 list'), a page per paper "
        "(abstract, links, where each field comes from, citation_* meta tags for Zotero and Google "
        "Scholar, and each export with a copy button, exactly as 'icml2026 export' prints it), a page "
        "per author and a downloads page. Serve DIR with any web server or open DIR/index.html; "
        "the same records give the same bytes.")
    parser.add_argument("-o", "--output", required=True, metavar="DIR",
                        help="the folder to write (new, empty, or a site built there before, which is "
                        "replaced as a whole only once the new one is complete)")
    parser.add_argument("--dist-data", metavar="DIR", type=Path,
                        help="the dist-data folder to offer on the downloads page (default: ./dist-data "
                        "if there is one)")
    parser.add_argument("--no-downloads", action="store_true", help="leave the dist-data files out")
    parser.add_argument("--cache", metavar="DIR", type=Path,
                        help="where rendered exports are kept between builds (default: the user cache "
                        "folder, ~/.cache/icml2026 on Linux); a build renders only papers whose record, "
                        "or whose rendering code or library versions, changed")
    parser.add_argument("--no-cache", action="store_true", help="render every export, keep nothing")
    parser.add_argument("--jobs", "-j", type=_jobs, metavar="N",
                        help="worker processes for rendering exports (default: one per CPU)")
    parser.add_argument("--data", metavar="PATH", action="append",
                        help="build from these record files or folders instead of the packaged data")
    parser.set_defaults(run=run)


def _jobs(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"not a number of processes: {text!r}")
    return int(text)


def run(args: argparse.Namespace) -> int:
    from ..errors import UsageError
    from ..site import build
    from ..site.exports import default_cache_folder
    from ..store.papers import load
    from ._common import use_corrections

    dist = None if args.no_downloads else args.dist_data or (Path("dist-data") if Path("dist-data").is_dir() else None)
    if dist is not None and not dist.is_dir():
        raise UsageError(f"--dist-data {dist}: not a folder")
    cache = None if args.no_cache else args.cache or default_cache_folder()
    papers = list(load(args.data) if args.data else load(corrections=use_corrections(args)))
    report = build(papers, args.output, dist_folder=dist, cache_folder=cache, jobs=args.jobs,
                   progress=lambda message: print(f"icml2026 site: {message}", file=sys.stderr))
    timing = ", ".join(f"{name} {seconds:.1f} s" for name, seconds in report.seconds.items())
    print(f"icml2026 site: wrote {report.files:,} files ({report.bytes / 1e6:.1f} MB) to {args.output} "
          f"({len(papers):,} papers, {report.rendered:,} rendered, the rest from the cache; {timing})",
          file=sys.stderr)
    return 0
