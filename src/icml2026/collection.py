"""An immutable, ordered collection of papers with lookup and search."""

from __future__ import annotations

import unicodedata
from typing import Iterable, Iterator, overload

from .model import Paper


def fold(text: str) -> str:
    """Case- and accent-insensitive form used for search and ASCII keys."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


class PaperCollection:
    """Papers in a stable order (by citation key, then id).

    Look a paper up by citation key, id, alias key, PMLR id or OpenReview id:
    ``papers["zhao2026benchmarking"]``, ``papers.get("Pj1Z7dWm4v")``.
    """

    __slots__ = ("_papers", "_index")

    def __init__(self, papers: Iterable[Paper]) -> None:
        self._papers: tuple[Paper, ...] = tuple(sorted(papers, key=lambda p: (p.label, p.id)))
        index: dict[str, Paper] = {}
        for paper in self._papers:
            for key in paper.keys():
                index.setdefault(key, paper)
        self._index = index

    def __len__(self) -> int:
        return len(self._papers)

    def __iter__(self) -> Iterator[Paper]:
        return iter(self._papers)

    @overload
    def __getitem__(self, key: int) -> Paper: ...
    @overload
    def __getitem__(self, key: str) -> Paper: ...
    def __getitem__(self, key: int | str) -> Paper:
        if isinstance(key, int):
            return self._papers[key]
        paper = self.get(key)
        if paper is None:
            raise KeyError(key)
        return paper

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and self.get(key) is not None

    def __repr__(self) -> str:
        return f"<PaperCollection of {len(self)} papers>"

    def get(self, key: str) -> Paper | None:
        return self._index.get(key)

    @property
    def complete(self) -> PaperCollection:
        return PaperCollection(p for p in self._papers if p.is_complete)

    @property
    def incomplete(self) -> PaperCollection:
        return PaperCollection(p for p in self._papers if not p.is_complete)

    def select(self, keys: Iterable[str]) -> PaperCollection:
        """The papers named by *keys*; raises ``KeyError`` naming every unknown key."""
        keys = list(keys)
        unknown = [k for k in keys if k not in self]
        if unknown:
            raise KeyError(", ".join(unknown))
        return PaperCollection({self[k].id: self[k] for k in keys}.values())

    def search(self, text: str = "", *, author: str | None = None) -> PaperCollection:
        """Papers whose title, authors, abstract, method name or ids contain every word of *text*."""
        words = fold(text).split()
        author_words = fold(author).split() if author else []
        hits = []
        for paper in self._papers:
            names = fold(" ".join(a.display for a in paper.authors))
            if any(w not in names for w in author_words):
                continue
            haystack = " ".join(
                [fold(paper.title or ""), names, fold(paper.abstract or ""),
                 fold(paper.method_name or ""), fold(" ".join(paper.keys()))]
            )
            if all(w in haystack for w in words):
                hits.append(paper)
        return PaperCollection(hits)
