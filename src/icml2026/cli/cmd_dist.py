"""``icml2026 dist [--check]``: regenerate or check the prebuilt files of dist-data/."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "dist", help="regenerate (or --check) the prebuilt exports in dist-data/",
        description="Render every prebuilt file of dist-data/ from the packaged records: BibTeX, "
        "BibLaTeX, CSL-JSON, RIS, JSON Lines, APA and IEEE reference lists (HTML and Markdown), "
        "BibTeX one file per paper (a zip), a Frictionless datapackage.json and SHA256SUMS. Output is "
        "byte-for-byte reproducible. dist-inputs.json records what each file was made from (data, code, "
        "library versions), so only files whose inputs changed are rendered again.")
    parser.add_argument("--dir", default="dist-data", metavar="DIR",
                        help="the folder to write or check (default: ./dist-data)")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 and name every stale, missing or extra file")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..dist import INPUTS, build_in, refuse_foreign_files, stale_files, write
    from ..store.papers import load

    folder = Path(args.dir)
    if args.check and not folder.is_dir():  # nothing to compare with
        print(f"icml2026 dist: {folder} is not a folder; run this in a checkout of icml2026, "
              "or name the folder with --dir", file=sys.stderr)
        return 1
    if not args.check:
        refuse_foreign_files(folder)  # before any rendering, not after
    # The release's files: never a user's corrections layer.
    files, rendered = build_in(folder, lambda: load(corrections=False))
    if not args.check:
        changed = write(files, folder)
        print(f"icml2026 dist: wrote {len(changed)} changed file(s) of {len(files)} to {folder} "
              f"({rendered_note(rendered)})", file=sys.stderr)
        return 0
    inputs = files.pop(INPUTS)
    stale = stale_files(files, folder)
    for name in stale:
        print(f"stale: {folder / name}")
    if stale:
        print(f"icml2026 dist: {len(stale)} stale file(s) in {folder}; run 'icml2026 dist' "
              "and commit the result", file=sys.stderr)
        return 1
    print(f"icml2026 dist: {folder} is up to date ({len(files)} files; {rendered_note(rendered)})", file=sys.stderr)
    recorded = folder / INPUTS
    if not recorded.is_file() or recorded.read_bytes() != inputs:
        print(f"icml2026 dist: note: {recorded} is out of date (the files are right); "
              "run 'icml2026 dist' so that the next check need not render them", file=sys.stderr)
    return 0


def rendered_note(rendered: list[str]) -> str:
    if not rendered:
        return "none rendered: their inputs are unchanged"
    return f"rendered {len(rendered)} whose inputs changed"
