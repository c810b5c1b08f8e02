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
    import json

    write = sys.stdout.write
    for paper in result.papers:
        write(json.dumps(paper.to_dict(), ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def _short(path: Path) -> str:
    text = str(path)
    return text if len(text) <= 120 else "…" + text[-119:]


def write_folder(result: ImportResult, target: Path, *, overwrite: bool = False) -> int:
    """Write every record of *result* into *target*, all or nothing; the number of files.

    Everything is checked first (a file that exists, without *overwrite*, stops
    the import before anything is written), then written into a temporary
    folder and moved into place: a failure leaves *target* as it was.
    """
    from ..errors import OutputError
    from ..store import dumps_record

    files = {f"{p.id}.json": dumps_record(p.to_dict()) for p in result.papers}
    files.update({f"proceedings/{p.id}.json": dumps_record(p.to_dict()) for p in result.proceedings})
    if target.exists() and not target.is_dir():
        raise OutputError(f"{_short(target)}: exists and is not a folder; nothing written")
    if not target.parent.is_dir():
        raise OutputError(f"{_short(target)}: the folder {_short(target.parent)} does not exist; nothing written")
    clashes = [name for name in files if (target / name).exists() or (target / name).is_symlink()]
    if clashes and not overwrite:
        raise OutputError(f"{_short(target)}: {len(clashes)} record file(s) already exist ({clashes[0]}); "
                          "nothing written (--overwrite replaces them)")
    if any((target / name).is_dir() for name in clashes):
        raise OutputError(f"{_short(target)}: a folder has the name of a record file; nothing written")
    try:
        _write_all(target, files)
    except OSError as exc:
        raise OutputError(f"{_short(target)}: cannot write: {exc.strerror or exc}; nothing written") from None
    return len(files)


def _abandoned_staging(where: Path, name: str) -> list[Path]:
    """Staging folders of earlier imports into *name* whose process no longer runs (SIGKILL,
    a crash): what ``_write_all`` cannot remove itself.  A running import's folder stays."""
    import os
    import re

    pattern = re.compile(rf"\.{re.escape(name)}\.import-([0-9]{{1,10}})-[A-Za-z0-9_]+")
    found = []
    try:
        entries = list(os.scandir(where))
    except OSError:
        return []
    for entry in entries:
        match = pattern.fullmatch(entry.name)
        if match and entry.is_dir(follow_symlinks=False) and not _running(int(match.group(1))):
            found.append(Path(entry.path))
    return sorted(found)


def _running(pid: int) -> bool:
    import os

    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)  # signal 0: only asks whether the process exists
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True  # someone else's process, or a number we cannot ask about: leave it
    return True


def _write_all(target: Path, files: dict[str, str]) -> None:
    import os
    import shutil
    import tempfile

    fresh = not target.exists()
    where = target.parent if fresh else target
    for left in _abandoned_staging(where, target.name):
        if (left / ".replaced").exists():  # killed while replacing: the originals are only there
            print(f"icml2026: {_short(left)} was left by an import killed while replacing files; the "
                  "files it replaced are in its .replaced folder (nothing removed)", file=sys.stderr)
            continue
        shutil.rmtree(left, ignore_errors=True)
        print(f"icml2026: removed {_short(left)}, left by an import that was killed", file=sys.stderr)
    # The staging folder names its process, so a later import can tell an abandoned one.
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.import-{os.getpid()}-", dir=where))
    moved: list[Path] = []
    saved: list[tuple[Path, Path]] = []  # (copy in staging, original place) of replaced files
    try:
        for name, text in files.items():
            (staging / name).parent.mkdir(exist_ok=True)
            with open(staging / name, "w", encoding="utf-8", newline="\n") as handle:
                handle.write(text)
                handle.flush()
                os.fsync(handle.fileno())
            os.chmod(staging / name, 0o644)
        if fresh:  # a new folder appears whole
            os.chmod(staging, 0o755)
            os.rename(staging, target)
            return
        for name in files:
            place = target / name
            place.parent.mkdir(exist_ok=True)
            if place.exists() or place.is_symlink():  # --overwrite: keep the old file until the end
                old = staging / ".replaced" / name
                old.parent.mkdir(parents=True, exist_ok=True)
                os.replace(place, old)
                saved.append((old, place))
            os.replace(staging / name, place)
            moved.append(place)
    except BaseException:
        for path in moved:
            path.unlink(missing_ok=True)
        for old, place in saved:
            os.replace(old, place)
        shutil.rmtree(staging, ignore_errors=True)
        raise
    shutil.rmtree(staging, ignore_errors=True)


