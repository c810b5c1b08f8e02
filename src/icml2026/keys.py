"""Citation keys: ``{family}{year}{firstword}``, transliterated to ASCII as PMLR's ids are, lower case.

Keys are computed once, when a record is created, and stored; they are never
recomputed on export, so a corrected title does not silently change a key that
people already cite.
"""

from __future__ import annotations

import re

from .markup import to_plain
from .pmlr import approximate
from .text import fold

TYPE_CHECKING = False  # typing is not imported at run time (start-up)
if TYPE_CHECKING:
    from collections.abc import Callable, Container, Iterable, Mapping
    from typing import Any

# Words skipped when choosing the title word, as Google Scholar and Better BibTeX do.
FUNCTION_WORDS = frozenset(
    "a an the on of from to in for with and or via towards toward at by is are do does".split()
)
_WORD = re.compile(r"[a-z0-9]+")


def ascii_token(text: str) -> str:
    """``N’Guessan`` → ``nguessan``; ``Cantürk`` → ``canturk``; ``Işık`` → ``isik``, ``Kozłowski`` → ``kozlowski``.

    PMLR's transliteration (:func:`icml2026.pmlr.approximate`) first, so no letter NFKD
    cannot decompose (``ı ł ø æ``) is dropped; then accents are stripped.
    """
    return "".join(_WORD.findall(fold(approximate(text))))


def letter_dropping_token(text: str) -> str:
    """The token of keys published before 0.2 (accents stripped only: ``Işık`` → ``isk``).

    Kept to recognise those keys, which stay resolvable as aliases (``tools/build_records.py``).
    """
    return "".join(_WORD.findall(fold(text)))


def title_words(title: str) -> list[str]:
    return [w for w in (ascii_token(t) for t in to_plain(title).split()) if w]


# The schema's longest key is 80 characters: a base leaves room for a suffix (``…aa``).
MAX_BASE_CHARS = 72


def valid_key(base: str) -> str:
    """*base* as the schema accepts a key (``^[a-z][a-z0-9]*$``): a ``k`` before a leading
    digit (``3m2024work`` → ``k3m2024work``), cut to :data:`MAX_BASE_CHARS`."""
    return (base if "a" <= base[:1] <= "z" else "k" + base)[:MAX_BASE_CHARS]


def base_keys(family: str, year: int | None, title: str, *,
              token: Callable[[str], str] = ascii_token) -> tuple[str, str]:
    """The two bases of :func:`base_key`, function words skipped and not, in one pass:
    ``family + year + word`` (no year when there is none), made valid by :func:`valid_key`."""
    words = [w for w in (token(t) for t in to_plain(title).split()) if w]
    content = [w for w in words if w not in FUNCTION_WORDS] or words
    stem = f"{token(family) or 'anonymous'}{'' if year is None else year}"
    return valid_key(stem + (content[0] if content else "")), valid_key(stem + (words[0] if words else ""))


def base_key(family: str, year: int | None, title: str, *, skip_function_words: bool = True,
             token: Callable[[str], str] = ascii_token) -> str:
    """``{family}{year}{first title word}``, the first word that is not a function word
    unless *skip_function_words* is false (the key before any suffix)."""
    skipping, first = base_keys(family, year, title, token=token)
    return skipping if skip_function_words else first


def unique_key(base: str, taken: Container[str]) -> str:
    """*base*, or *base* + ``a``, ``b``, … ``z``, ``aa`` … — the first not in *taken*."""
    if base not in taken:
        return base
    n = 0
    while True:
        suffix, m = "", n
        while True:
            suffix = chr(ord("a") + m % 26) + suffix
            m = m // 26 - 1
            if m < 0:
                break
        if base + suffix not in taken:
            return base + suffix
        n += 1


def assign_keys(bases: Mapping[str, tuple[str, Any]], published: Mapping[str, str],
                aliases: Iterable[str] = ()) -> dict[str, str]:
    """Citation keys for records, given ``record id → (base key, order)`` and the registry.

    *aliases* are published keys that are now aliases of their records: never given again.

    The rule does not depend on the order in which records were created:

    1. A record in the registry of published keys (``key → record id``) keeps its key.
    2. The others are grouped by base key (``wang2026learning``).  Within a group,
       in the order of *order* (the first page in the volume), then record id, each
       takes the first of ``base``, ``base + "a"``, ``base + "b"`` … ``base + "aa"`` …
       that is neither published, nor taken, nor another group's base key.
    """
    keys = {record: key for key, record in published.items() if record in bases}
    taken = set(published) | set(keys.values()) | set(aliases)
    groups: dict[str, list[tuple[Any, str]]] = {}
    for record, (base, order) in bases.items():
        if record not in keys:
            groups.setdefault(base, []).append((order, record))
    reserved = set(groups)
    for base in sorted(groups):
        blocked = _Blocked(taken, reserved, base)  # not a new set per record: that was quadratic
        for _, record in sorted(groups[base]):
            key = unique_key(base, blocked)
            keys[record] = key
            taken.add(key)
    return keys


class _Blocked:
    """``taken | (reserved - {base})`` as a view, without copying either set."""

    __slots__ = ("base", "reserved", "taken")

    def __init__(self, taken: set[str], reserved: set[str], base: str) -> None:
        self.taken, self.reserved, self.base = taken, reserved, base

    def __contains__(self, key: object) -> bool:
        return key in self.taken or (key != self.base and key in self.reserved)
