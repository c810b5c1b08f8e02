"""Reading a user's bibliography and keeping a backup of it, for ``fix`` and ``check``.

A bibliography is read only from a regular file (or standard input) of at most the
importer's :data:`~icml2026.importers.bibtex_syntax.MAX_INPUT_CHARS` bytes: ``/dev/zero``
or a FIFO is refused before anything is read.  A backup never replaces anything: the first
free name of ``refs.bib.orig``, ``refs.bib.orig.1``, ``refs.bib.orig.2`` … is created
exclusively (``O_EXCL``), so an existing backup — or a symbolic link placed there — is
never written through.
"""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

from ..errors import DataError, OutputError
from ..importers.bibtex_syntax import MAX_INPUT_CHARS

MAX_BACKUPS = 1000


def read_bib(name: str) -> str:
    """The text of *name* (``-``: standard input), exactly: no newline translation, BOM kept."""
    try:
        if name == "-":
            raw = sys.stdin.buffer.read(MAX_INPUT_CHARS + 1)
        else:
            # O_NONBLOCK: opening a FIFO must not wait for a writer before it is refused.
            with os.fdopen(os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)), "rb") as handle:
                info = os.fstat(handle.fileno())
                if not stat.S_ISREG(info.st_mode):
                    what = "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file"
                    raise DataError(f"{name}: cannot read: {what}")
                if info.st_size > MAX_INPUT_CHARS:
                    raise DataError(f"{name}: {info.st_size} bytes; at most {MAX_INPUT_CHARS} are read")
                raw = handle.read(MAX_INPUT_CHARS + 1)
    except OSError as exc:
        raise DataError(f"{name}: cannot read: {exc.strerror or exc}") from None
    if len(raw) > MAX_INPUT_CHARS:
        raise DataError(f"{name}: more than {MAX_INPUT_CHARS} bytes; at most that many are read")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise DataError(f"{name}: not valid UTF-8 (byte {exc.start}, line {line}); "
                        "convert it first, e.g. iconv -f latin1 -t utf-8") from None


def backup(path: Path, text: str) -> Path:
    """Write *text* to the first free backup name of *path* and return that name."""
    data = text.encode("utf-8")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    for n in range(MAX_BACKUPS):
        target = path.with_name(path.name + ".orig" + (f".{n}" if n else ""))
        try:
            fd = os.open(target, flags, 0o600)
        except FileExistsError:
            continue  # an earlier backup (or a link): kept as it is
        except OSError as exc:
            raise OutputError(f"{target}: cannot write the backup: {exc.strerror or exc}") from None
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
        except OSError as exc:
            raise OutputError(f"{target}: cannot write the backup: {exc.strerror or exc}") from None
        return target
    raise OutputError(f"{path}: {MAX_BACKUPS} backups exist already ({path.name}.orig …); remove some")
