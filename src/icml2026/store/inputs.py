"""Reading a user's input file, bounded: the one reader of ``import``, ``fix``, ``check`` and
``update --file``.

A file is read only if it is a regular file (``/dev/zero``, a FIFO, a folder are refused
before anything is read: the file is opened with ``O_NONBLOCK``, so a FIFO without a writer
does not block, and checked with ``fstat`` on the open descriptor, so it cannot be swapped
between the check and the read) of at most *max_bytes*; ``-`` is standard input, of which at
most *max_bytes* + 1 bytes are read.  Every failure is one error of the caller's class
(``DataError`` by default) naming the file.
"""

from __future__ import annotations

import os
import stat
import sys

from ..errors import DataError, Icml2026Error


def read_bounded(name: str, max_bytes: int, *, error: type[Icml2026Error] = DataError,
                 limit: str = "", label: str | None = None) -> bytes:
    """The bytes of the regular file *name* (``-``: standard input), at most *max_bytes* of them.

    *limit* is added to the message of a file too large (the option that sets the limit);
    *label* names the file in messages (default: *name*)."""
    shown = name if label is None else label

    def too_large(size: str) -> Icml2026Error:
        return error(f"{shown}: {size}; at most {max_bytes:,} bytes are read{limit}")

    try:
        if name == "-":
            raw = sys.stdin.buffer.read(max_bytes + 1)
        else:
            fd = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
            try:  # checked on the descriptor, before a file object (which refuses a folder) is made
                info = os.fstat(fd)
                if not stat.S_ISREG(info.st_mode):
                    what = "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file"
                    raise error(f"{shown}: cannot read: {what}")
                if info.st_size > max_bytes:
                    raise too_large(f"{info.st_size:,} bytes")
            except BaseException:
                os.close(fd)
                raise
            with os.fdopen(fd, "rb") as handle:
                raw = handle.read(max_bytes + 1)
    except OSError as exc:
        raise error(f"{shown}: cannot read: {exc.strerror or exc}") from None
    if len(raw) > max_bytes:
        raise too_large(f"more than {max_bytes:,} bytes")
    return raw
