"""The search index of the website: the library's own search index, shipped to the browser.

The folded fields are those of :class:`icml2026.search.Index` (title, authors as written
and joined up, abstract, the rest), so the page folds and matches nothing of the records
itself: ``assets/search.js`` folds the query as :func:`icml2026.search.words` does (the
extra letters come from :data:`icml2026.text.EXTRA_LETTERS`, written here) and ranks as
:meth:`icml2026.search.Index.rank` does, in the volume's order within a rank, as
``icml2026 list`` shows them.

Two files, scripts rather than JSON so that the site also searches from ``file://``
(where ``fetch`` is refused): ``search-index.js`` (titles, authors, ids: what most
queries need) and ``search-abstracts.js`` (two thirds of the bytes), each loaded the
first time the search box is used.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from ..model import Paper


def _script(name: str, value: object) -> str:
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    # "</script" cannot occur in JSON outside a string; in one, "<\/" is the same string.
    safe = text.replace("</", "<\\/")
    return f"window.{name}={safe};\n"


def identifiers(papers: Sequence[Paper]) -> dict[str, int]:
    """Every key a paper is found by (as written and in lower case) → its position; and the
    ``url:``-prefixed :func:`~icml2026.search.url_key` of each link that identifies one
    paper and that the page cannot read an identifier out of (a code repository)."""
    from ..search import identifier_candidates, url_key

    found: dict[str, int] = {}
    for i, paper in enumerate(papers):
        for key in paper.keys():
            found.setdefault(key, i)
            found.setdefault(key.lower(), i)
    links: dict[str, set[int]] = {}
    for i, paper in enumerate(papers):
        for _, link in paper.links.items():
            if any(found.get(key) == i for key, _volume in identifier_candidates(link)):
                continue  # the page reads the paper's id out of this URL
            links.setdefault("url:" + url_key(link), set()).add(i)
    found.update({key: next(iter(owners)) for key, owners in links.items() if len(owners) == 1})
    return dict(sorted(found.items()))


def scripts(papers: Sequence[Paper], pages: Sequence[str], titles: Sequence[str],
            bylines: Sequence[str]) -> dict[str, str]:
    """File name (under ``assets/``) → script text.  *pages* are the papers' page paths,
    *titles* and *bylines* the plain text a result shows."""
    from ..search import Index
    from ..text import EXTRA_LETTERS

    index = Index(papers)
    main = {
        "title": index.title.text, "authors": index.authors.text,
        "authors_joined": index.authors_joined.text, "other": index.other.text,
        "papers": [[page, title, byline] for page, title, byline in zip(pages, titles, bylines)],
        "ids": identifiers(papers), "volume": papers[0].proceedings.volume if papers else None,
        "letters": EXTRA_LETTERS,
    }
    return {
        "search-index.js": _script("ICML2026_INDEX", main),
        "search-abstracts.js": _script("ICML2026_ABSTRACTS", index.abstract.text),
    }
