"""BibTeX (natbib/plainnat) and BibLaTeX (biber) exports.

Both write one ``@inproceedings`` entry per paper, a blank line between entries: the
entry of :mod:`icml2026.bibtex.writer` (its fields, their order, the encoding and
naming rules are in its docstring), under the paper's citation key in the export's
key style.  Nothing depends on time or environment: the same records always give
byte-identical output.  Only the standard library is imported here.

* Citation keys: ``key_style`` ``canonical`` (the stored citation key),
  ``pmlr`` (``pmlr-v306-zhao26ac``) or ``openreview`` (family + year + first
  title word); reduced to ``[A-Za-z0-9_:.+/-]`` and made unique within one
  export with suffixes ``a``, ``b``, … (see :mod:`icml2026.keys`).
* Abstracts only on request (``abstract=True``).
"""

from __future__ import annotations

import re

from ..bibtex.writer import fields_for, format_entry
from ..keys import base_key, unique_key
from ..text import strip_accents
from . import KEY_STYLES

TYPE_CHECKING = False  # typing is not imported at run time (start-up)
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

    from ..model import Paper

_KEY_UNSAFE = re.compile(r"[^A-Za-z0-9_:.+/-]")


def render_bibtex(papers: Iterable[Paper], *, key_style: str = "canonical",
                  abstract: bool | None = None) -> Iterator[str]:
    """BibTeX entries (ASCII) for *papers*; abstracts only when *abstract* is true."""
    return _render(papers, "bibtex", key_style, bool(abstract))


def render_biblatex(papers: Iterable[Paper], *, key_style: str = "canonical",
                    abstract: bool | None = None) -> Iterator[str]:
    """BibLaTeX entries (UTF-8) for *papers*; abstracts only when *abstract* is true."""
    return _render(papers, "biblatex", key_style, bool(abstract))


def _render(papers: Iterable[Paper], dialect: str, key_style: str, with_abstract: bool) -> Iterator[str]:
    if key_style not in KEY_STYLES:
        from ..errors import UsageError

        raise UsageError(f"unknown key style {key_style!r} (known: {', '.join(KEY_STYLES)})")
    taken: set[str] = set()
    for n, paper in enumerate(papers):
        key = unique_key(entry_key(paper, key_style), taken)
        taken.add(key)
        yield ("\n" if n else "") + format_entry(key, fields_for(paper, dialect, abstract=with_abstract))


def entry_key(paper: Paper, key_style: str) -> str:
    """The citation key of *paper* in *key_style*, reduced to characters every tool accepts."""
    key = paper.citation_key or paper.id
    if key_style == "pmlr":
        volume = paper.proceedings.volume
        if paper.id.startswith("pmlr-v"):
            key = paper.id
        elif paper.identifiers.pmlr and volume is not None:
            key = f"pmlr-v{volume}-{paper.identifiers.pmlr}"
    elif key_style == "openreview" and paper.title and paper.year is not None:
        first = paper.authors[0] if paper.authors else None
        family = (first.family or first.literal or "") if first else ""
        key = base_key(family, paper.year, paper.title, skip_function_words=False)
    return safe_key(key)


def safe_key(key: str) -> str:
    return _KEY_UNSAFE.sub("", strip_accents(key)) or "anonymous"
