"""Small text utilities shared by keys, collections, matching and exporters (standard library only).

Search folds by its own, faster path (:mod:`icml2026.search`) with the same letter table;
``strip_accents`` and ``fold`` stay as they are because citation keys are derived from them.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

# Letters NFKD does not decompose, folded as a reader types them (keys: case-folded letters).
EXTRA_LETTERS = {"ø": "o", "ł": "l", "đ": "d", "ð": "d", "ħ": "h", "ı": "i", "þ": "th",
                 "æ": "ae", "œ": "oe", "ŋ": "n"}
COMBINING_MARKS = "\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f"
_COMBINING = re.compile(f"[{COMBINING_MARKS}]+")
_EXTRA = str.maketrans(EXTRA_LETTERS)
_WORD = re.compile(r"[^\W_]+")


def strip_accents(text: str) -> str:
    """``Müntz`` → ``Muntz``: NFKD, combining marks dropped, case kept."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def fold(text: str) -> str:
    """Case- and accent-insensitive form used for ASCII keys."""
    return strip_accents(text).casefold()


def folded_words(text: str) -> list[str]:
    """The words of plain *text*, compared loosely: case, accents and punctuation dropped,
    ``ø``/``ł``/``æ``… as their base letters, ``&`` as "and" (how two copies of a title or
    a name are compared: ``fix`` matching, Zotero adoption)."""
    text = text.replace("&", " and ").casefold()
    if not text.isascii():
        text = _COMBINING.sub("", unicodedata.normalize("NFKD", text).translate(_EXTRA))
    return _WORD.findall(text)


def whole_words(source: str, ranges: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """Case-protected *ranges* of a title widened to whole words (runs of letters and digits).

    PMLR protects single letters (``{M}onte {C}arlo``, ``{O}pen{D}eception``) and parts of
    words (``sc{CBGM}``, ``x{LSTM}``).  CSL processors treat a nocase boundary inside a word
    as a word boundary and title-case "MOnte CArlo" (citeproc-js and citeproc-py, measured);
    BibLaTeX's ``\\MakeSentenceCase`` and pandoc capitalise the unprotected "x" of a leading
    ``x{LSTM}``.  Protecting the whole word keeps every protected capital and changes nothing
    else: the unprotected letters of such a word are already as the authors wrote them.  The
    BibTeX and CSL-JSON exporters both protect these widened ranges.
    """
    widened = []
    for start, end in ranges:
        start, end = min(start, len(source)), min(end, len(source))
        while start > 0 and source[start - 1].isalnum():
            start -= 1
        while end < len(source) and source[end].isalnum():
            end += 1
        widened.append((start, end))
    return widened
