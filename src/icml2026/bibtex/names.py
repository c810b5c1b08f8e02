"""BibTeX name lists: the names of an ``author`` or ``editor`` field.

BibTeX (*BibTeXing*, Patashnik 1988, §4 "Helpful Hints", and *Designing BibTeX Styles*,
the ``format.names`` description) separates the names of a list by the word ``and``,
in any case, surrounded by white space and outside braces: ``{Barnes and Noble, Inc.}``
is one name.  ``and others`` at the end says the list is incomplete; it is returned as
the name ``others`` for the caller to decide.
"""

from __future__ import annotations

import re

_TOKENS = re.compile(r"[{}]|\s+and\s+", re.IGNORECASE)


def split_names(value: str) -> list[str]:
    """*value* (an author/editor field's text) split on ``and`` at brace depth 0, each name
    stripped, empty ones left out."""
    names, depth, start = [], 0, 0
    for match in _TOKENS.finditer(value):
        token = match.group()
        if token == "{":
            depth += 1
        elif token == "}":
            depth = max(depth - 1, 0)
        elif depth == 0:
            names.append(value[start:match.start()])
            start = match.end()
    names.append(value[start:])
    return [n.strip() for n in names if n.strip()]
