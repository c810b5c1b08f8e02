"""Reading a user's bibliography and keeping a backup of it, for ``fix`` and ``check``.

A bibliography is read by :func:`icml2026.store.inputs.read_bounded`, the package's one bounded
reader: only from a regular file (or standard input) of at most
:data:`~icml2026.bibtex.syntax.MAX_INPUT_CHARS` bytes; ``/dev/zero`` or a FIFO is refused
before anything is read.  A backup never replaces anything: the first
free name of ``refs.bib.orig``, ``refs.bib.orig.1``, ``refs.bib.orig.2`` … is created
exclusively (``O_EXCL``), so an existing backup — or a symbolic link placed there — is
never written through.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..bibtex.syntax import MAX_INPUT_CHARS
from ..errors import DataError, OutputError
from ..store.inputs import read_bounded

MAX_BACKUPS = 1000


def read_bib(name: str) -> str:
    """The text of *name* (``-``: standard input), exactly: no newline translation, BOM kept."""
    raw = read_bounded(name, MAX_INPUT_CHARS)
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
