"""icml2026 — verified bibliographic records for ICML 2026 (PMLR volume 306).

    >>> import icml2026
    >>> papers = icml2026.load()
    >>> print(icml2026.export(papers, "bibtex"))

The facade imports nothing heavy: exporters, the validator and the Zotero
client load on first use, so ``import icml2026`` stays fast.
"""

from __future__ import annotations

import os

from ._version import __version__
from .collection import PaperCollection
from .errors import DataError, Icml2026Error, OutputError, UsageError
from .model import Pages, Paper, Person, Proceedings, Source
from .store.papers import load
from .store.records import Problem

TYPE_CHECKING = False  # typing is not imported at run time (start-up)
if TYPE_CHECKING:
    from typing import Any

    from .fix import FixResult
    from .importers.bibtex import ImportProblem, ImportResult

__all__ = [
    "__version__", "load", "export", "cite", "cite_clusters", "validate", "read_bibtex", "read_bibtex_report", "parse_string",
    "read_file", "fix_bibtex", "fix_bibtex_report", "PaperCollection", "Paper", "Person", "Pages", "Proceedings",
    "Source", "Problem", "ImportResult", "ImportProblem", "FixResult", "DataError", "Icml2026Error", "OutputError",
    "UsageError",
]

# Result types of the importer and of fix, importable from here without loading those
# modules at ``import icml2026`` (PEP 562).
_LAZY = {"ImportResult": ".importers.bibtex", "ImportProblem": ".importers.bibtex", "FixResult": ".fix"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _text(value: Any, function: str, what: str = "the BibTeX text") -> str:
    """*value* if it is a ``str``; a TypeError naming *function*'s argument otherwise."""
    if not isinstance(value, str):
        raise TypeError(f"{function}() needs {what} as a str, not {type(value).__name__}")
    return value


def export(papers: Any, fmt: str, **options: Any) -> str:
    """Render *papers* (a collection, an iterable of papers, or one paper) in format *fmt*."""
    from .exporters import export as _export

    return _export(papers, fmt, **options)


def validate(paths: Any = None) -> list[Problem]:
    """Check record files (default: the packaged data); returns every problem found."""
    from .validation import validate_paths

    return validate_paths(paths)


def cite(papers: Any, style: str = "apa", output_format: str = "text", *, in_text: bool = False,
         locale: str | None = None, fmt: str | None = None, progress: Any = None) -> str:
    """Formatted references (or in-text citations) in a CSL *style*; *output_format* is
    ``text``, ``html`` or ``markdown`` (the names of ``export --output-format``).

    The papers form one document (disambiguated together); *locale* forces a
    CSL locale, by default the style's ``default-locale`` (else en-US).  *fmt* is
    the parameter's old name, accepted with a ``DeprecationWarning``: elsewhere
    ``fmt`` names an export format (``export(papers, "bibtex")``).  *progress*, a
    callable, is called with ``(done, total)`` entries as they are formatted (``(0,
    total)`` first, ``(total, total)`` last): the whole volume takes a minute.
    """
    from .exporters import export as _export

    if fmt is not None:
        import warnings

        if output_format not in ("text", fmt):
            raise TypeError("cite() got both fmt and output_format; use output_format")
        warnings.warn("cite(fmt=...) is deprecated; use cite(output_format=...)", DeprecationWarning, stacklevel=2)
        output_format = fmt
    return _export(papers, "citation", style=style, output_format=output_format, in_text=in_text, locale=locale,
                   progress=progress)


def cite_clusters(papers: Any, clusters: Any, style: str = "apa", output_format: str = "text", *,
                  locale: str | None = None) -> list[str]:
    """One formatted citation per cluster, in document order: ``cite_clusters(papers,
    [["k1", "k2"], ["k3"]], style="apa")`` → ``["(… 2026a, 2026b; …)", "(…)"]``.

    A cite is a key (citation key, PMLR id or any alias ``papers[key]`` takes) or a mapping
    ``{"key": "k1", "locator": "4", "label": "page"}`` (label: a CSL locator term, default
    ``page``).  The papers cited form one document, disambiguated together as :func:`cite`
    does; the style's sorting, ``collapse`` ("[1–3]", "2026a, b"), cite grouping,
    ``et-al-subsequent-*`` and ``position`` tests (first, subsequent, ibid,
    ibid-with-locator, near-note in note styles) apply.  *output_format*: ``text``,
    ``html`` or ``markdown``; see :mod:`icml2026.exporters.clusters`.
    """
    from .exporters.clusters import render_clusters

    return render_clusters(papers, clusters, style=style, output_format=output_format, locale=locale)


def read_bibtex(source: Any) -> PaperCollection:
    """Papers from BibTeX text or a ``.bib`` path (PMLR volume files in particular).

    A path object, or a ``str`` without a line break, is a file (whatever its name);
    a ``str`` with one is BibTeX text.  ``icml2026.importers.bibtex.read_file`` and
    ``parse_string`` say which explicitly.
    Entries that cannot be converted are left out; :func:`read_bibtex_report`
    also returns them, each with its key, line and reason.
    """
    from .importers.bibtex import read_bibtex as _read_bibtex

    if not isinstance(source, (str, os.PathLike)):
        raise TypeError(f"read_bibtex() needs BibTeX text or a path, not {type(source).__name__}")
    return _read_bibtex(source)


def read_bibtex_report(source: Any) -> ImportResult:
    """``ImportResult(papers, problems, proceedings, source)`` for BibTeX text or a path."""
    from .importers.bibtex import read_bibtex_report as _read_bibtex_report

    if not isinstance(source, (str, os.PathLike)):
        raise TypeError(f"read_bibtex_report() needs BibTeX text or a path, not {type(source).__name__}")
    return _read_bibtex_report(source)


def parse_string(text: str) -> ImportResult:
    """The papers of BibTeX *text* (never a file name), with the entries that failed."""
    from .importers.bibtex import parse_string as _parse_string

    return _parse_string(_text(text, "parse_string"))


def read_file(path: str | os.PathLike[str]) -> ImportResult:
    """The papers of the BibTeX file at *path* (UTF-8), with the entries that failed."""
    from .importers.bibtex import read_file as _read_file

    return _read_file(path)


def fix_bibtex(text: str, **options: Any) -> str:
    """*text* (BibTeX) with every ICML 2026 entry replaced by the verified one, under its own key.

    Everything else stays byte for byte; options: ``fmt`` (``bibtex``/``biblatex``),
    ``abstract``, ``strict``, ``papers``.  See :mod:`icml2026.fix` for the rules.
    """
    from .fix import fix_bibtex as _fix_bibtex

    return _fix_bibtex(_text(text, "fix_bibtex"), **options)


def fix_bibtex_report(text: str, **options: Any) -> FixResult:
    """``FixResult(text, entries_read, entries)``: :func:`fix_bibtex` with a report of every match."""
    from .fix import fix_bibtex_report as _fix_bibtex_report

    return _fix_bibtex_report(_text(text, "fix_bibtex_report"), **options)
