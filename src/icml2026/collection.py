"""An immutable, ordered collection of papers with lookup and search (rules: :mod:`.search`)."""

from __future__ import annotations

from .model import Paper

TYPE_CHECKING = False  # typing is not imported at run time (start-up)
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator
    from typing import Any, overload

    from .search import Index
else:
    def overload(function: Callable[..., Any]) -> Callable[..., Any]:
        return function  # the implementation, defined last, replaces the overloads


class PaperCollection:
    """Papers in a stable order (by citation key, then id); a search result is in rank order.

    Look a paper up by citation key, id, alias key, PMLR id or OpenReview id:
    ``papers["zhao2026benchmarking"]``, ``papers.get("Pj1Z7dWm4v")``; :meth:`find` also
    takes arXiv ids and URLs.
    """

    __slots__ = ("_index", "_links", "_papers", "_search")

    def __init__(self, papers: Iterable[Paper]) -> None:
        """*papers*, each once: the same record given twice is held once; two different
        records with one id are a ``ValueError``; anything but a :class:`Paper` a ``TypeError``."""
        self._init(tuple(sorted(distinct(check_iterable(papers)), key=lambda p: (p.label, p.id))))

    @classmethod
    def in_order(cls, papers: Iterable[Paper]) -> PaperCollection:
        """*papers* in the order given, not sorted (papers already in collection order, as
        the packaged file holds them, or in an order of the caller's); checked as the
        constructor checks them."""
        return cls._ordered(distinct(check_iterable(papers)))

    @classmethod
    def _ordered(cls, papers: Iterable[Paper]) -> PaperCollection:
        """A collection in exactly the order given (search ranks, subsets of a ranking), unchecked:
        for papers taken from a collection."""
        new = cls.__new__(cls)
        new._init(tuple(papers))
        return new

    def _init(self, papers: tuple[Paper, ...]) -> None:
        self._papers = papers
        # Each index is built on first use, once per collection (a collection is immutable,
        # so it never goes stale): the keys on the first lookup (a search result or a
        # subset is seldom looked into), the search index on the first search (folding
        # 6,552 papers is most of a search's cost), the links on the first URL.
        self._index: dict[str, Paper] | None = None
        self._search: Index | None = None
        self._links: dict[str, Paper] | None = None

    def _keys(self) -> dict[str, Paper]:
        """Every key of :meth:`Paper.keys` → the first paper that has it."""
        index = self._index
        if index is None:
            index = {}
            for paper in self._papers:
                for key in paper.keys():
                    index.setdefault(key, paper)
            self._index = index
        return index

    def __len__(self) -> int:
        return len(self._papers)

    def __iter__(self) -> Iterator[Paper]:
        return iter(self._papers)

    # (ruff takes the run-time stand-in of ``overload`` for another function: F811)
    @overload
    def __getitem__(self, key: int) -> Paper: ...
    @overload
    def __getitem__(self, key: str) -> Paper: ...  # noqa: F811
    @overload
    def __getitem__(self, key: slice) -> PaperCollection: ...  # noqa: F811
    def __getitem__(self, key: int | str | slice) -> Paper | PaperCollection:  # noqa: F811
        if isinstance(key, slice):  # papers[:10]: a collection, in this one's order
            return PaperCollection._ordered(self._papers[key])
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
        return (self._index or self._keys()).get(key)

    @property
    def complete(self) -> PaperCollection:
        return PaperCollection._ordered(p for p in self._papers if p.is_complete)

    @property
    def incomplete(self) -> PaperCollection:
        return PaperCollection._ordered(p for p in self._papers if not p.is_complete)

    def select(self, keys: Iterable[str]) -> PaperCollection:
        """The papers named by *keys*; raises ``KeyError`` naming every unknown key."""
        if isinstance(keys, str):   # "a,b" or one key: its characters are not keys
            raise TypeError("select() needs a list of keys, not a str; write select([key])")
        keys = list(keys)
        unknown = [k for k in keys if k not in self]
        if unknown:
            raise KeyError(", ".join(unknown))
        return PaperCollection({self[k].id: self[k] for k in keys}.values())

    # -- search -----------------------------------------------------------
    def find(self, query: str) -> Paper | None:
        """The paper that *query* identifies: any key of :meth:`get` (also in another
        case), an arXiv id (``arXiv:2605.05974v2``), a DOI, or a PMLR, PDF, OpenReview,
        arXiv or other link URL of the paper. None if it names no paper."""
        if not isinstance(query, str):
            raise TypeError(f"find() needs a str (a key, id, DOI or URL), not {type(query).__name__}")
        query = query.strip()
        if not query or any(c.isspace() for c in query):
            return None
        index = self._keys()
        paper = index.get(query)
        if paper is not None:
            return paper
        from .search import identifier_candidates, url_key

        for key, volume in identifier_candidates(query):
            paper = index.get(key)
            if paper is not None and volume in (None, paper.proceedings.volume):
                return paper
        if "/" in query:
            return self._link_index().get(url_key(query))
        return None

    def _link_index(self) -> dict[str, Paper]:
        """Link URL → paper, for links of one paper only (a code repository that several
        papers share identifies none of them)."""
        if self._links is None:
            from .search import url_key

            owners: dict[str, list[Paper]] = {}
            for paper in self._papers:
                for _, url in paper.links.items():
                    owners.setdefault(url_key(url), []).append(paper)
            self._links = {url: found[0] for url, found in owners.items() if len(found) == 1}
        return self._links

    def _search_index(self) -> Index:
        if self._search is None:
            from .search import Index

            self._search = Index(self._papers)
        return self._search

    def use_search_index(self, index: Index) -> None:
        """Give this collection a prebuilt search index of its papers, in its order (say,
        ``Index.from_text`` of one a data build stored), instead of folding them again."""
        if len(index.title) != len(self._papers):
            raise ValueError(f"a search index of {len(index.title)} papers for {len(self)}")
        self._search = index

    def search(self, text: str = "", *, author: str | None = None) -> PaperCollection:
        """Papers matching every word of *text*, ranked: all words in the title first, then
        via authors, abstract, method name or ids; with *author*, only papers with one
        author whose name has all of its words (whole tokens). An identifier or URL as
        *text* gives that paper alone. Rules: :mod:`icml2026.search`."""
        from .search import check_query, words

        check_query(text, "query")
        if author is not None:
            check_query(author, "author")
        allowed = self._search_index().author_papers(author) if author and words(author) else None
        exact = self.find(text)
        if exact is not None:
            keep = allowed is None or self._papers.index(exact) in allowed
            return PaperCollection._ordered([exact] if keep else [])
        tiers = self._search_index().rank(text)
        if tiers is None:
            if allowed is None:
                return self
            tiers = [allowed]
        elif allowed is not None:
            tiers = [tier & allowed for tier in tiers]
        return PaperCollection._ordered(self._papers[i] for tier in tiers for i in sorted(tier))

    def with_title_prefix(self, prefix: str) -> PaperCollection:
        """Papers whose title starts with *prefix*, compared word by word after folding
        (case, accents and punctuation ignored; the last word may be cut short)."""
        from .search import check_query

        check_query(prefix, "prefix")
        hits = self._search_index().title_prefix(prefix)
        return PaperCollection._ordered(self._papers[i] for i in sorted(hits))


def check_iterable(papers: Any) -> Any:
    if isinstance(papers, (str, bytes, dict)) or not hasattr(papers, "__iter__"):
        raise TypeError(f"papers must be a PaperCollection, an iterable of Paper or one Paper, "
                        f"not {type(papers).__name__}")
    return papers


class DistinctPapers:
    """An iterator of papers whose ids were checked to be distinct already (a stream that
    validation read first): :func:`distinct` passes it on as it is, without keeping every
    paper it has seen (flat memory for an export of any size)."""

    __slots__ = ("_papers",)

    def __init__(self, papers: Iterable[Paper]) -> None:
        self._papers = iter(papers)

    def __iter__(self) -> DistinctPapers:
        return self

    def __next__(self) -> Paper:
        return next(self._papers)


def distinct(papers: Iterable[Any]) -> Iterator[Paper]:
    """Each paper once, in order: the same record given twice is exported once (under one
    key); two different records with one id are an error, as in :class:`PaperCollection`.
    Every paper is kept to compare with a later one of its id, except in
    :class:`DistinctPapers`."""
    if isinstance(papers, DistinctPapers):
        return papers
    return _distinct(papers)


def _distinct(papers: Iterable[Any]) -> Iterator[Paper]:
    seen: dict[str, Paper] = {}
    for position, paper in enumerate(papers):
        if not isinstance(paper, Paper):
            hint = " (a record's JSON: use Paper.from_dict)" if isinstance(paper, dict) else ""
            raise TypeError(f"papers[{position}] is a {type(paper).__name__}, not a Paper{hint}")
        earlier = seen.get(paper.id)
        if earlier is None:
            seen[paper.id] = paper
            yield paper
        elif earlier != paper:
            raise ValueError(f"papers holds two different records with the id {paper.id}")
