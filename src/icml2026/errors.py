"""Exceptions the CLI turns into one-line messages (never tracebacks)."""

from __future__ import annotations

TYPE_CHECKING = False  # typing is not imported at run time (start-up)
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any


class Icml2026Error(Exception):
    """Base class: a problem the user can act on; ``str()`` is the whole message."""

    exit_code = 1


class DataError(Icml2026Error):
    """A record file or record cannot be read or used.

    ``problems`` holds the validation problems behind it (``store.records.Problem``:
    file, record, pointer, message) when there are any — the first one, since loading
    keeps memory flat — and ``count`` how many there were; ``icml2026.validate(paths)``
    returns them all.
    """

    def __init__(self, message: str, problems: Sequence[Any] = (), count: int | None = None) -> None:
        super().__init__(message)
        self.problems = tuple(problems)
        self.count = len(self.problems) if count is None else count


class UsageError(Icml2026Error):
    """The caller asked for something that does not exist (format, style, key)."""

    exit_code = 2


class OutputError(Icml2026Error):
    """An output file or folder cannot be written."""


class Icml2026Warning(UserWarning):
    """Something the library worked around (a damaged corrections layer it ignored): a Python
    warning for a program, one ``icml2026: warning: …`` line from the command line."""


class Terminated(BaseException):
    """SIGTERM arrived while a file was being written; the temporary file was removed.

    A ``BaseException``, like ``KeyboardInterrupt``: no ``except Exception`` swallows it.
    """
