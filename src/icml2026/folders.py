"""Writing a folder of files all or nothing, beside :func:`icml2026.store.write_atomic` (one file).

``icml2026 import -o DIR`` writes its record files through :func:`write_folder`: a new folder
appears whole (written as a hidden staging folder next to it, then renamed); files added to
an existing folder are staged inside it and moved into place, the files they replace kept in
the staging folder until the end, so a failure puts everything back.  A staging folder names
its process (``.DIR.import-PID-…``): one left by a process that was killed is removed by the
next write (or reported, when it holds replaced originals), one of a process still running
is left alone.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from .errors import OutputError


def _short(path: Path) -> str:
    text = str(path)
    return text if len(text) <= 120 else "…" + text[-119:]


def write_folder(target: Path, files: dict[str, str], *, overwrite: bool = False) -> int:
    """Write *files* (name relative to *target*, ``a/b.json`` one folder deep → text) into
    *target*, all or nothing; the number of files.

    Everything is checked first (a file that exists, without *overwrite*, stops
    before anything is written), then written into a temporary folder and moved
    into place: a failure leaves *target* as it was.
    """
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


