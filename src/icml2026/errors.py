"""Exceptions the CLI turns into one-line messages (never tracebacks)."""


class Icml2026Error(Exception):
    """Base class: a problem the user can act on; ``str()`` is the whole message."""

    exit_code = 1


class DataError(Icml2026Error):
    """A record file or record cannot be read or used."""


class UsageError(Icml2026Error):
    """The caller asked for something that does not exist (format, style, key)."""

    exit_code = 2


class OutputError(Icml2026Error):
    """An output file or folder cannot be written."""


class Terminated(BaseException):
    """SIGTERM arrived while a file was being written; the temporary file was removed.

    A ``BaseException``, like ``KeyboardInterrupt``: no ``except Exception`` swallows it.
    """
