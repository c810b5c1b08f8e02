"""Small text utilities shared by keys, collections and exporters (standard library only).

Search folds by its own, wider rules (:mod:`icml2026.search`); these stay as they are
because citation keys are derived from them.
"""

from __future__ import annotations

import unicodedata


def strip_accents(text: str) -> str:
    """``Müntz`` → ``Muntz``: NFKD, combining marks dropped, case kept."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def fold(text: str) -> str:
    """Case- and accent-insensitive form used for ASCII keys."""
    return strip_accents(text).casefold()
