"""Export formats: a registry of renderers, imported only when used.

A renderer is ``render(papers: Iterable[Paper], *, option=default, …) -> Iterator[str]``:
it yields chunks, so ``-o FILE`` can stream, and ``"".join`` gives the text.  Its keyword
parameters are exactly its format's :attr:`Format.options` (no catch-all ``**``):
:func:`check_options` gives it those and refuses the others, naming the format.
Formats marked ``citable`` need title, authors, pages and the proceedings' booktitle
and year: incomplete papers are skipped and reported through *on_skip* (the CLI
prints one line per paper).

*papers* may be a collection or list, or any iterable without a length (a
generator, ``store.stream_papers``): then it is exported as a stream, one paper
in memory at a time, and skipped papers are reported as they are met.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Iterator, Sized

from .._record import Record
from ..collection import check_iterable, distinct
from ..errors import UsageError
from ..model import Paper

TYPE_CHECKING = False  # typing is not imported at run time (start-up)
if TYPE_CHECKING:
    from typing import Any


class Format(Record):
    __slots__ = ("name", "target", "citable", "description", "suffix", "options")
    name: str
    target: str  # "module:function", relative to this package
    citable: bool
    description: str
    suffix: str
    options: tuple[str, ...]  # the export options it takes (OPTIONS); others are refused

    def __init__(self, name: str, target: str, citable: bool, description: str, suffix: str,
                 options: tuple[str, ...] = ()) -> None:
        _set = object.__setattr__
        _set(self, "name", name)
        _set(self, "target", target)
        _set(self, "citable", citable)
        _set(self, "description", description)
        _set(self, "suffix", suffix)
        _set(self, "options", options)


FORMATS: dict[str, Format] = {
    f.name: f
    for f in (
        Format("json", ".canonical:render_json", False, "canonical records as one JSON array", ".json",
               options=("include_proceedings",)),
        Format("jsonl", ".canonical:render_jsonl", False, "canonical records, one JSON object per line", ".jsonl",
               options=("include_proceedings",)),
        Format("bibtex", ".bibtex:render_bibtex", True, "BibTeX (ASCII, LaTeX-encoded) for natbib/plainnat", ".bib",
               options=("key_style", "abstract")),
        Format("biblatex", ".bibtex:render_biblatex", True, "BibLaTeX (UTF-8) for biber", ".bib",
               options=("key_style", "abstract")),
        Format("csl-json", ".csl:render_csl_json", True, "CSL-JSON for pandoc, Zotero, citeproc", ".json",
               options=("abstract",)),
        Format("ris", ".ris:render_ris", True, "RIS for EndNote, Mendeley, Zotero", ".ris",
               options=("abstract",)),
        Format("hayagriva", ".hayagriva:render_hayagriva", True, "Hayagriva YAML for Typst", ".yml",
               options=("key_style",)),
        Format("citation", ".citation:render_citation", True, "formatted references in a CSL style", ".txt",
               options=("style", "output_format", "in_text", "locale", "progress")),
    )
}


KEY_STYLES = ("canonical", "pmlr", "openreview")  # bibtex, biblatex: --key-style
OUTPUT_FORMATS = ("text", "html", "markdown")  # citation: --output-format

# Every export option, with the formats that use it.
OPTIONS: dict[str, str] = {
    "key_style": "bibtex, biblatex, hayagriva: canonical, pmlr or openreview citation keys",
    "abstract": "bibtex, biblatex, csl-json, ris: include abstracts (True/False; None: the format's default)",
    "include_proceedings": "json, jsonl: the proceedings record inline instead of its id",
    "style": "citation: CSL style name or .csl path",
    "output_format": "citation: text, html or markdown",
    "in_text": "citation: in-text citations instead of the bibliography",
    "locale": "citation: force a CSL locale (default: the style's)",
    "progress": "citation: a callable(done, total), called as entries are formatted (None: none)",
}


# Each option's default and type: a value of another type is a TypeError, a string outside
# the choices a UsageError.  A format is given only the options it takes; an option it does
# not take is accepted at its default (the CLI passes one set to every format), refused
# otherwise, naming the format.
FLAG, MAYBE_FLAG, TEXT, MAYBE_TEXT = "True or False", "True, False or None", "a str", "a str or None"
OPTION_RULES: dict[str, tuple[Any, str | tuple[str, ...]]] = {
    "key_style": ("canonical", KEY_STYLES),
    "abstract": (None, MAYBE_FLAG),
    "include_proceedings": (False, FLAG),
    "style": ("apa", TEXT),
    "output_format": ("text", OUTPUT_FORMATS),
    "in_text": (False, FLAG),
    "locale": (None, MAYBE_TEXT),
    "progress": (None, "a callable(done, total) or None"),
}


def check_options(spec: Format, options: dict[str, Any]) -> dict[str, Any]:
    """The options *spec*'s renderer takes, each checked; raises on any other (see above)."""
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        import difflib

        close = [m for name in unknown for m in difflib.get_close_matches(name, OPTIONS, n=1)]
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise UsageError(f"unknown export option{'s' if len(unknown) > 1 else ''} {', '.join(unknown)}{hint} "
                         f"(known: {', '.join(OPTIONS)})")
    for name, value in options.items():
        _check_option(name, value)
    for name, value in options.items():
        default = OPTION_RULES[name][0]
        if name not in spec.options and not (value is default or (type(value) is type(default) and value == default)):
            takers = ", ".join(f.name for f in FORMATS.values() if name in f.options)
            raise UsageError(f"the {spec.name} format takes no {name} option (it is an option of {takers})")
    return {name: value for name, value in options.items() if name in spec.options}


def _check_option(name: str, value: Any) -> None:
    import os

    kind = OPTION_RULES[name][1]
    if isinstance(kind, tuple):
        if not isinstance(value, str):
            raise TypeError(f"export option {name} must be a str ({', '.join(kind)}), not {value!r}")
        if value not in kind:
            raise UsageError(f"export option {name} must be one of {', '.join(kind)}, not {value!r}")
        return
    if name == "progress":
        if value is not None and not callable(value):
            raise TypeError(f"export option progress must be a callable(done, total) or None, not {value!r}")
        return
    flag = isinstance(value, bool) or (value is None and kind == MAYBE_FLAG)
    text = isinstance(value, str) or (value is None and kind == MAYBE_TEXT) \
        or (name == "style" and isinstance(value, os.PathLike))
    if not (flag if kind in (FLAG, MAYBE_FLAG) else text):
        what = "a CSL style name or a .csl path (str)" if name == "style" else kind
        raise TypeError(f"export option {name} must be {what}, not {value!r}")


def get_format(name: str) -> Format:
    fmt = FORMATS.get(name)
    if fmt is None:
        import difflib

        close = difflib.get_close_matches(name, FORMATS, n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise UsageError(f"unknown format {name!r}{hint} (known: {', '.join(FORMATS)})")
    return fmt


def renderer(fmt: Format) -> Callable[..., Iterator[str]]:
    module_name, _, func = fmt.target.partition(":")
    module = importlib.import_module(module_name, __name__)
    render: Callable[..., Iterator[str]] = getattr(module, func)
    return render


def as_papers(papers: Any) -> list[Paper]:
    """*papers* as a list, each paper once (see :func:`distinct`)."""
    if isinstance(papers, Paper):
        return [papers]
    return list(distinct(check_iterable(papers)))


def split_exportable(papers: Iterable[Paper], fmt: Format) -> tuple[list[Paper], list[Paper]]:
    """(papers to write, incomplete papers skipped) for *fmt*."""
    if not fmt.citable:
        return list(papers), []
    ok: list[Paper] = []
    skipped: list[Paper] = []
    for paper in papers:
        (ok if citable(paper) else skipped).append(paper)
    return ok, skipped


def skip_message(paper: Paper, fmt: Format) -> str:
    """``skipped KEY in FORMAT: …``; *on_skip* gets it after ``warning: `` (the CLI's line)."""
    missing = ", ".join(missing_for_citation(paper)) or "required fields"
    return f"skipped {paper.label} in {fmt.name}: incomplete record (missing {missing})"


def citable(paper: Paper) -> bool:
    """Marked complete, and the data has what every citation needs: a title, authors,
    pages and the proceedings' booktitle and year.  Decided from the data, so a record
    read without validation (or whose proceedings lack a year) is skipped, never
    written half ("None" for a year)."""
    proc = paper.proceedings
    return (paper.is_complete and paper.title is not None and bool(paper.authors) and paper.pages is not None
            and proc.booktitle is not None and proc.year is not None)


def missing_for_citation(paper: Paper) -> list[str]:
    """What *paper* lacks for a citation: its ``missing`` list, then what the data shows."""
    found = list(paper.missing)
    absent = [("title", paper.title is None), ("authors", not paper.authors), ("pages", paper.pages is None),
              ("booktitle", paper.proceedings.booktitle is None), ("year", paper.proceedings.year is None)]
    found += [name for name, gone in absent if gone and name not in found]
    return found


def iter_export(papers: Any, fmt: str, *, on_skip: Callable[[str], None] | None = None,
                **options: Any) -> Iterator[str]:
    """Chunks of *papers* rendered as *fmt*; skipped papers are reported to *on_skip*.

    *options* are those of :data:`OPTIONS`, checked by :func:`check_options`: a name
    outside the table (``keystyle=``, ``abstracts=``), a value of the wrong type
    (``abstract="no"``) or an option the format does not take (``in_text=True`` for
    RIS) is an error, never silently dropped.
    """
    if not isinstance(fmt, str):
        raise TypeError(f"the export format must be a str (one of {', '.join(FORMATS)}), not {fmt!r}")
    spec = get_format(fmt)
    options = check_options(spec, options)
    if not isinstance(papers, (Paper, Sized)):
        stream = PaperStream(papers, spec, on_skip)
        return _after_first_chunk(renderer(spec)(stream, **options), stream.report_now)
    ok, skipped = split_exportable(as_papers(papers), spec)
    chunks = renderer(spec)(ok, **options)
    return _after_first_chunk(chunks, lambda: _report_skipped(skipped, spec, on_skip))


class PaperStream:
    """Papers read once, for a renderer that iterates them once: the exportable ones of
    *papers*, the others reported.  ``bool()`` says whether there is any (renderers
    close a JSON array with it), peeking at one paper if none was produced yet.

    Skips met before the first chunk exists are held back, so a bad option (an
    unknown style) fails before any warning, as for a list.
    """

    def __init__(self, papers: Iterable[Paper], spec: Format, on_skip: Callable[[str], None] | None) -> None:
        self._papers = distinct(check_iterable(papers))
        self._spec = spec
        self._on_skip = on_skip
        self._held: list[Paper] | None = []  # skips not reported yet; None: report at once
        self._head: list[Paper] = []
        self._any = False

    def __iter__(self) -> Iterator[Paper]:
        while self._head or self._fill():
            self._any = True
            yield self._head.pop()

    def __bool__(self) -> bool:
        return self._any or bool(self._head) or self._fill()

    def _fill(self) -> bool:
        for paper in self._papers:
            if not self._spec.citable or citable(paper):
                self._head.append(paper)
                return True
            if self._held is None:
                _report_skipped([paper], self._spec, self._on_skip)
            else:
                self._held.append(paper)
        return False

    def report_now(self) -> None:
        held, self._held = self._held or [], None
        _report_skipped(held, self._spec, self._on_skip)


def _after_first_chunk(chunks: Iterator[str], then: Callable[[], None]) -> Iterator[str]:
    """Run *then* once the first chunk exists: a bad option (an unknown style) fails first."""
    first = next(chunks, None)
    then()
    if first is not None:
        yield first
        yield from chunks


def _report_skipped(skipped: list[Paper], spec: Format, on_skip: Callable[[str], None] | None) -> None:
    for paper in skipped:
        message = skip_message(paper, spec)
        if on_skip is not None:
            on_skip(f"warning: {message}")
        else:
            warn_caller(message)


def warn_caller(message: str) -> None:
    """A ``UserWarning`` attributed to the first frame outside this package: the caller's line,
    however deep the export's generators run."""
    import os
    import sys
    import types
    import warnings
    from pathlib import Path

    package = str(Path(__file__).resolve().parent.parent) + os.sep
    frame: types.FrameType | None = sys._getframe(0)
    level = 1
    while frame is not None and str(Path(frame.f_code.co_filename).resolve()).startswith(package):
        frame, level = frame.f_back, level + 1
    warnings.warn(message, UserWarning, stacklevel=level)


def export(papers: Any, fmt: str, **options: Any) -> str:
    """*papers* rendered as *fmt* (see :data:`FORMATS`), as one string."""
    return "".join(iter_export(papers, fmt, **options))
