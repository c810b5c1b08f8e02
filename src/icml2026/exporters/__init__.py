"""Export formats: a registry of renderers, imported only when used.

A renderer is ``render(papers: Sequence[Paper], **options) -> Iterator[str]``:
it yields chunks, so ``-o FILE`` can stream, and ``"".join`` gives the text.
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
from dataclasses import dataclass
from typing import Any

from ..errors import UsageError
from ..model import Paper


@dataclass(frozen=True)
class Format:
    name: str
    target: str  # "module:function", relative to this package
    citable: bool
    description: str
    suffix: str


FORMATS: dict[str, Format] = {
    f.name: f
    for f in (
        Format("json", ".canonical:render_json", False, "canonical records as one JSON array", ".json"),
        Format("jsonl", ".canonical:render_jsonl", False, "canonical records, one JSON object per line", ".jsonl"),
        Format("bibtex", ".bibtex:render_bibtex", True, "BibTeX (ASCII, LaTeX-encoded) for natbib/plainnat", ".bib"),
        Format("biblatex", ".bibtex:render_biblatex", True, "BibLaTeX (UTF-8) for biber", ".bib"),
        Format("csl-json", ".csl:render_csl_json", True, "CSL-JSON for pandoc, Zotero, citeproc", ".json"),
        Format("ris", ".ris:render_ris", True, "RIS for EndNote, Mendeley, Zotero", ".ris"),
        Format("hayagriva", ".hayagriva:render_hayagriva", True, "Hayagriva YAML for Typst", ".yml"),
        Format("citation", ".citation:render_citation", True, "formatted references in a CSL style", ".txt"),
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
}


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
    if isinstance(papers, Paper):
        return [papers]
    return list(papers)


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
    missing = ", ".join(missing_for_citation(paper)) or "required fields"
    return f"warning: skipped {paper.label} in {fmt.name}: incomplete record (missing {missing})"


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

    *options* are those of :data:`OPTIONS`; a format ignores the ones it has no use for
    (the CLI passes the same set to every format), but a name outside the table
    (``keystyle=``, ``abstracts=``) is an error, never silently dropped.
    """
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        import difflib

        close = [m for name in unknown for m in difflib.get_close_matches(name, OPTIONS, n=1)]
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise UsageError(f"unknown export option{'s' if len(unknown) > 1 else ''} {', '.join(unknown)}{hint} "
                         f"(known: {', '.join(OPTIONS)})")
    spec = get_format(fmt)
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
        self._papers = iter(papers)
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
            on_skip(message)
        else:
            import warnings

            warnings.warn(message, stacklevel=4)


def export(papers: Any, fmt: str, **options: Any) -> str:
    """*papers* rendered as *fmt* (see :data:`FORMATS`), as one string."""
    return "".join(iter_export(papers, fmt, **options))
