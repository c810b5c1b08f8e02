"""Output that a reader never sees half written: one file (:func:`write_atomic`) or a
folder of files, all or nothing (:func:`write_folder`).

A file is written through a temporary file in its folder, fsynced and renamed over it.
``icml2026 import -o DIR`` writes its record files through :func:`write_folder`: a new folder
appears whole (written as a hidden staging folder next to it, then renamed); files added to
an existing folder are staged inside it and moved into place, the files they replace kept in
the staging folder until the end, so a failure puts everything back.  A staging folder names
its process (``.DIR.import-PID-…``): one left by a process that was killed is removed by the
next write (or reported, when it holds replaced originals), one of a process still running
is left alone.
"""

from __future__ import annotations

import errno
import os
import stat
import sys

from ..errors import OutputError, Terminated

TYPE_CHECKING = False  # typing is not imported at run time (start-up)
if TYPE_CHECKING:
    from collections.abc import Iterable
    from pathlib import Path
    from typing import IO, Any


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
    from pathlib import Path

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
    from pathlib import Path

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


def write_atomic(path: str | os.PathLike[str], chunks: Iterable[str] | bytes, *, make_parents: bool = True) -> None:
    """Write *chunks* (text, written as UTF-8, or the bytes of a binary file) to *path*
    so that a reader never sees half a file.

    A regular file (or a new one) is written through a temporary file in the same
    folder, fsynced, then renamed over it: a failure or SIGTERM leaves the old
    file (or none) and no temporary file.  The existing file's permissions are
    kept; a symlink's target is written, not the link replaced.  A device or FIFO
    (``/dev/stdout``, a pipe) is written into directly, never replaced.  A missing
    folder is created only with *make_parents*.  Failures are :class:`OutputError`.
    """
    from pathlib import Path

    target = Path(path)
    try:
        real = Path(os.path.realpath(target, strict=False))
        info = os.stat(real)
    except FileNotFoundError:
        info = None  # a new file (or the missing target of a symlink)
    except OSError as exc:  # a symlink loop, a path component that is a file …
        why = "a loop of symbolic links" if exc.errno == errno.ELOOP else exc.strerror or exc
        raise OutputError(f"{target}: cannot write: {why}") from None
    if info is not None and stat.S_ISDIR(info.st_mode):
        raise OutputError(f"{target}: cannot write: it is a folder")
    if info is not None and not stat.S_ISREG(info.st_mode):
        _write_in_place(real, target, chunks)
        return
    if not real.parent.is_dir():
        if not make_parents:
            raise OutputError(f"{target}: cannot write: folder {real.parent} does not exist")
        try:
            real.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise OutputError(f"{target}: cannot create folder {real.parent}: {exc.strerror or exc}") from None
    _replace(real, target, chunks, stat.S_IMODE(info.st_mode) if info is not None else None)


def _replace(real: Path, target: Path, chunks: Iterable[str] | bytes, keep: int | None) -> None:
    """Write *real* through a temporary file renamed over it; *keep*: the mode of the file
    replaced (None: a new file, whose mode open(2) gives, 0o666 less the umask)."""
    try:
        fd, tmp = _temporary(real, 0o666 if keep is None else keep)
    except OSError as exc:
        raise OutputError(f"{target}: cannot write: {exc.strerror or exc}") from None
    try:
        with _terminate_as_exception(), _open_fd(fd, chunks) as handle:
            _write_chunks(handle, chunks)
            handle.flush()
            os.fsync(handle.fileno())
            if keep is not None:  # created as *keep* less the umask: the mode exactly
                os.chmod(tmp, keep)
            os.replace(tmp, real)
        _fsync_folder(real.parent)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        if isinstance(exc, OSError):  # disk full, permission denied, …
            raise OutputError(f"{target}: cannot write: {exc.strerror or exc}") from None
        raise


def _open_fd(fd: int | Path, chunks: Iterable[str] | bytes) -> IO[Any]:
    if isinstance(chunks, bytes):
        return open(fd, "wb")
    return open(fd, "w", encoding="utf-8", newline="\n")


def _write_chunks(handle: IO[Any], chunks: Iterable[str] | bytes) -> None:
    if isinstance(chunks, bytes):
        handle.write(chunks)
        return
    for chunk in chunks:
        handle.write(chunk)


def _write_in_place(real: Path, target: Path, chunks: Iterable[str] | bytes) -> None:
    try:
        with _open_fd(real, chunks) as handle:
            _write_chunks(handle, chunks)
    except OSError as exc:
        raise OutputError(f"{target}: cannot write: {exc.strerror or exc}") from None


_TEMPORARY_FLAGS = (os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
                    | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))


def _temporary(real: Path, mode: int) -> tuple[int, str]:
    """A new file beside *real* (``.NAME.<random>.tmp``), open for writing, created with
    *mode* less the umask as open(2) creates any file: the process umask, which other
    threads share, is never changed to be read."""
    for _ in range(100):
        tmp = os.path.join(real.parent, f".{real.name}.{os.urandom(6).hex()}.tmp")
        try:
            return os.open(tmp, _TEMPORARY_FLAGS, mode), tmp
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no unused temporary file name", str(real.parent))


def _fsync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems cannot fsync a folder; the rename is done
    finally:
        os.close(fd)


class _terminate_as_exception:  # a context manager (no contextlib at start-up)
    """Turn SIGTERM into an exception for the duration, so cleanup code runs."""

    def __enter__(self) -> None:
        import signal
        import threading

        self.installed = threading.current_thread() is threading.main_thread()
        if self.installed:
            self.previous = signal.signal(signal.SIGTERM, _raise_terminated)

    def __exit__(self, *_: object) -> None:
        if self.installed:
            import signal

            signal.signal(signal.SIGTERM, self.previous)


def _raise_terminated(signum: int, frame: Any) -> None:
    raise Terminated()
