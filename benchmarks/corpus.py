"""Benchmark records: the real PMLR corpus, repeated with distinct ids and keys.

    from benchmarks.corpus import generate     # from the repository root
    from corpus import generate                # from a script in benchmarks/
    papers = generate(100_000)

The 304 entries of ``shared/corpora/pmlr-v306-sample-A.bib`` (PMLR's own
BibTeX for ICML 2026) are imported once with :func:`icml2026.read_bibtex`;
copy *k* ≥ 1 of an entry gets its own id, PMLR id, citation key, alias key
and OpenReview id (and the links built from them), so every record is
distinct while the text to render stays real.  Set ``ICML2026_CORPUS`` to use
another ``.bib`` file.
"""

from __future__ import annotations

import dataclasses
import os
from functools import lru_cache
from pathlib import Path

from icml2026.model import Identifiers, Links, Paper

DEFAULT_CORPUS = Path(__file__).resolve().parents[1] / "tools" / "sources" / "corpora" / "pmlr-v306-sample-A.bib"
_BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz"


def corpus_path() -> Path:
    return Path(os.environ.get("ICML2026_CORPUS", DEFAULT_CORPUS))


@lru_cache(maxsize=4)
def real_papers(path: Path | None = None) -> tuple[Paper, ...]:
    """The complete records of the corpus, imported once per process."""
    from icml2026.importers.bibtex import read_bibtex_report

    path = path or corpus_path()
    if not path.exists():
        raise FileNotFoundError(
            f"benchmark corpus not found at {path}: put PMLR's pmlr-v306-sample-A.bib there "
            "(the project's shared/corpora folder) or set ICML2026_CORPUS to a .bib file")
    papers = tuple(p for p in read_bibtex_report(path).papers if p.is_complete)
    if not papers:
        raise ValueError(f"{path}: no complete records to repeat")
    return papers


def generate(n: int) -> list[Paper]:
    """*n* records: the corpus in order, then copies of it with distinct ids and keys."""
    base = real_papers()
    return [_copy(base[i % len(base)], i // len(base)) for i in range(n)]


def _letters(k: int) -> str:
    """1 → ``a``, 26 → ``z``, 27 → ``aa`` …: a suffix no real key ends with after ``x``."""
    out = ""
    while k > 0:
        k -= 1
        out = chr(ord("a") + k % 26) + out
        k //= 26
    return out


def _base36(k: int, width: int) -> str:
    digits = ""
    while k or len(digits) < width:
        digits = _BASE36[k % 36] + digits
        k //= 36
    return digits


def _copy(paper: Paper, k: int) -> Paper:
    if k == 0:
        return paper
    tag = "x" + _letters(k)
    pmlr = f"{paper.identifiers.pmlr}{tag}" if paper.identifiers.pmlr else None
    openreview = (paper.identifiers.openreview[:6] + _base36(k, 4)) if paper.identifiers.openreview else None
    identifiers = dataclasses.replace(paper.identifiers, pmlr=pmlr, openreview=openreview)
    links = dataclasses.replace(
        paper.links,
        openreview=f"https://openreview.net/forum?id={openreview}" if openreview else None,
        proceedings=paper.links.proceedings.replace(paper.identifiers.pmlr, pmlr)
        if paper.links.proceedings and pmlr else paper.links.proceedings)
    paper_id = f"{paper.id}-{tag}"
    return dataclasses.replace(paper, id=paper_id, citation_key=f"{paper.citation_key}{tag}",
                               alias_keys=(paper_id,), identifiers=Identifiers(**dict(identifiers.items())),
                               links=Links(**dict(links.items())))


def clones(n: int) -> list[Paper]:
    """*n* papers cloned from the 18 packaged complete ones (no corpus file needed).

    Each clone gets its own id, key, pages, title and first-author name:
    identical clones would make citeproc-js spend its time disambiguating
    ("2026a", "2026b"…), which real papers rarely need.
    """
    import icml2026
    from icml2026.model import Pages

    seeds = list(icml2026.load().complete)
    papers = []
    for i in range(n):
        seed = seeds[i % len(seeds)]
        first = dataclasses.replace(seed.authors[0], family=f"{seed.authors[0].family}-{_letters(i + 1).title()}")
        papers.append(dataclasses.replace(
            seed, id=f"{seed.id}-clone{i}", citation_key=f"{seed.citation_key}{i}", alias_keys=(),
            title=f"{seed.title} {i}", authors=(first, *seed.authors[1:]),
            pages=Pages(1 + 20 * i, 20 + 20 * i)))
    return papers


def records(n: int, *, use_clones: bool = False) -> tuple[list[Paper], str]:
    """(*n* benchmark records, where they come from): the real corpus, else clones."""
    if use_clones:
        return clones(n), "clones of the 18 packaged papers"
    try:
        return generate(n), "the real PMLR corpus, repeated with distinct keys"
    except (FileNotFoundError, ValueError) as exc:
        return clones(n), f"clones of the 18 packaged papers (corpus unusable: {exc})"
