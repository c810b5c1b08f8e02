"""The ``icml2026`` command: a thin shell over the library.

Each sub-command lives in its own ``cmd_*`` module with ``register(subparsers)``;
modules import their heavy dependencies inside ``run`` so that start-up stays
close to a bare Python start (argparse, not click, for the same reason).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import warnings

from .._version import __version__
from ..errors import Icml2026Error, Icml2026Warning, Terminated

TYPE_CHECKING = False  # typing is not imported at run time (start-up)
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any

COMMANDS = ("list", "show", "export", "validate", "import", "fix", "check", "zotero", "dist", "update", "site")
ALIASES = {"search": "list"}  # must match the aliases the command modules register


def _columns() -> int:
    """What argparse's help formatter takes for the line width: ``shutil.get_terminal_size()``'s
    columns less 2, computed as its documentation says (``$COLUMNS`` if a positive integer,
    else the terminal of standard output, else 80) without importing shutil (and bz2, lzma,
    zlib) on every start: argparse makes a formatter for every argument it adds."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return (columns or 80) - 2


def _sized(formatter: Callable[..., argparse.HelpFormatter]) -> Callable[..., argparse.HelpFormatter]:
    width = _columns()  # once per parser: argparse makes a formatter for every argument added

    def make(prog: str, **options: Any) -> argparse.HelpFormatter:
        options.setdefault("width", width)
        return formatter(prog, **options)

    return make


class Parser(argparse.ArgumentParser):
    """argparse's parser, its help formatter given the width (:func:`_columns`); sub-command
    parsers are of this class too (``add_subparsers`` makes them of the parent's class)."""

    def __init__(self, formatter_class: Callable[..., argparse.HelpFormatter] = argparse.HelpFormatter,
                 **kwargs: Any) -> None:
        kwargs["formatter_class"] = _sized(formatter_class)
        super().__init__(**kwargs)


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser; with *only*, just that sub-command is registered (faster start-up)."""
    parser = Parser(
        prog="icml2026",
        description="Verified bibliographic records for the papers of ICML 2026 (PMLR volume 306): "
        "list and search them, check them, and export them as BibTeX, BibLaTeX, CSL-JSON, RIS, "
        "formatted references or a Zotero library.",
        epilog="Run 'icml2026 COMMAND --help' for the options of one command.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument("--no-corrections", action="store_true", help="ignore the corrections layer "
                        "of 'icml2026 update': use the packaged records exactly as released")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in (only,) if only else COMMANDS:
        try:
            module = importlib.import_module(f".cmd_{name}", __name__)
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.cmd_{name}":
                raise
            continue  # a command whose module is not part of this build
        module.register(sub)
    return parser


def _is_text(arg: str) -> bool:
    try:
        arg.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _escaped(arg: str) -> bool:
    """Whether *arg*'s surrogates are the bytes the OS passed (PEP 383), not other code points."""
    return all(not "\ud800" <= c <= "\udfff" or "\udc80" <= c <= "\udcff" for c in arg)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    undecodable = next((a for a in argv if not _is_text(a)), None)
    if undecodable is not None:
        # Bytes that are not UTF-8 reach Python as lone surrogates: printing them (in a
        # listing, an error message) would fail with a UnicodeEncodeError.
        raw = undecodable.encode("utf-8", "surrogateescape" if _escaped(undecodable) else "backslashreplace")
        print(f"icml2026: error: the argument {raw!r} is not valid UTF-8 text", file=sys.stderr)
        return 2
    # Importing every command module costs more than the common export itself:
    # register only the command named, unless top-level help is wanted.
    first = next((ALIASES.get(a, a) for a in argv if a != "--no-corrections"), None)
    only = first if first in COMMANDS else None
    parser = build_parser(only)
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return 2
    with warnings.catch_warnings():  # the library's warnings, each time, as one line (this run only)
        warnings.simplefilter("always", Icml2026Warning)
        warnings.showwarning = _one_line(warnings.showwarning)
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    try:
        return int(args.run(args) or 0)
    except Icml2026Error as exc:
        print(f"icml2026: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("icml2026: interrupted", file=sys.stderr)
        return 130
    except Terminated:  # SIGTERM while writing a file: the partial file was removed
        print("icml2026: terminated; nothing was left half-written", file=sys.stderr)
        return 143
    except BrokenPipeError:
        # The reader (e.g. ``| head``) went away: not an error worth a traceback.
        sys.stderr.close()
        return 0


def _one_line(other: Callable[..., None]) -> Callable[..., None]:
    """A ``warnings.showwarning`` that prints the library's own warnings as ``icml2026: warning:
    MESSAGE`` on standard error and passes any other to *other*."""

    def show(message: Warning | str, category: type[Warning], *args: Any, **kwargs: Any) -> None:
        if issubclass(category, Icml2026Warning):
            print(f"icml2026: warning: {message}", file=sys.stderr)
        else:
            other(message, category, *args, **kwargs)

    return show
