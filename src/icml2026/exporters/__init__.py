"""Export formats: a registry of renderers, imported only when used.

A renderer is ``render(papers: Sequence[Paper], **options) -> Iterator[str]``:
it yields chunks, so ``-o FILE`` can stream, and ``"".join`` gives the text.
Formats marked ``citable`` need title, authors and pages: incomplete papers are
skipped and reported through *on_skip* (the CLI prints one line per paper).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator

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
        Format("citation", ".citation:render_citation", True, "formatted references in a CSL style", ".txt"),
    )
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
    return getattr(module, func)


def as_papers(papers: Any) -> list[Paper]:
    if isinstance(papers, Paper):
        return [papers]
    return list(papers)


def split_exportable(papers: Iterable[Paper], fmt: Format) -> tuple[list[Paper], list[Paper]]:
    """(papers to write, incomplete papers skipped) for *fmt*."""
    if not fmt.citable:
        return list(papers), []
    ok, skipped = [], []
    for paper in papers:
        (ok if paper.is_complete else skipped).append(paper)
    return ok, skipped


def skip_message(paper: Paper, fmt: Format) -> str:
    missing = ", ".join(paper.missing) or "required fields"
    return f"warning: skipped {paper.label} in {fmt.name}: incomplete record (missing {missing})"


def iter_export(papers: Any, fmt: str, *, on_skip: Callable[[str], None] | None = None,
                **options: Any) -> Iterator[str]:
    """Chunks of *papers* rendered as *fmt*; skipped papers are reported to *on_skip*."""
    spec = get_format(fmt)
    ok, skipped = split_exportable(as_papers(papers), spec)
    chunks = renderer(spec)(ok, **options)
    return _after_first_chunk(chunks, lambda: _report_skipped(skipped, spec, on_skip))


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
