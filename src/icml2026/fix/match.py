"""Which ICML 2026 paper, if any, a BibTeX entry cites — precision first.

The rules (also in the README, section "Fixing a bibliography"):

1. **Identifiers** are certain: an OpenReview id (``openreview`` field, or an
   ``openreview.net/forum?id=`` / ``pdf?id=`` link anywhere in the entry), a PMLR
   id (a ``pmlr-v306-…`` citation key or ``proceedings.mlr.press/v306/…`` /
   ``mlresearch/v306`` link) and an arXiv id the package knows (``eprint``,
   ``journal = {arXiv preprint arXiv:…}``, ``arxiv.org/abs/…`` links, the arXiv
   DOI ``10.48550/arXiv.…``).  Identifiers that name two different papers make
   the entry ambiguous, and so does an identifier whose paper shares neither
   title nor authors with the entry (a pasted id from another entry).
2. **Titles** otherwise.  Both sides are LaTeX-decoded and folded (case,
   accents, punctuation, spaces, braces, ``&``/``and``), and compared as whole
   strings, also allowing: a swapped order of the title's parts (``A: B`` ↔
   ``B: A``), a missing or extra ``Position:``, a dropped or added subtitle
   (when the remaining part has at least three words), and the record's
   ``former_titles`` (arXiv-era titles).  A title match counts only when the
   authors agree — the first author's family name, or at least half of the
   entry's authors (and at least two) — and the entry names no other venue
   (booktitle/journal of another conference, another ICML edition or an ICML
   workshop; a year before 2024) and no identifier of another publication (an OpenReview id the paper
   does not have, a DOI, another PMLR volume).
3. Anything less is not changed.  An entry whose title matches but whose authors,
   venue or identifiers disagree, whose title matches several papers, or whose
   title is close (4/5 of the words) to a paper's title without matching it, is
   *ambiguous*: reported with the candidates and left exactly as it was.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import Any, TypeVar, overload

from ..bibtex.latex_decode import decode_plain
from ..bibtex.names import split_names
from ..bibtex.scan import Block
from ..identifiers import (
    find_arxiv,
    find_doi,
    find_openreview,
    find_pmlr,
    is_arxiv_doi,
    parse_openreview,
    parse_pmlr_key,
    without_arxiv_ids,
)
from ..markup import to_plain
from ..model import Paper, Person
from ..text import folded_words

# Entry types that can cite a paper; theses, books, proceedings … are never rewritten.
PAPER_TYPES = frozenset({"article", "inproceedings", "conference", "misc", "techreport", "unpublished",
                         "online", "electronic", "preprint", "report", "incollection", "www"})
EVIDENCE = ("openreview", "pmlr", "arxiv", "title")
MIN_PART_WORDS = 3  # a title part that stands for the whole title needs at least this many words
CLOSE_DICE = 0.8  # word-set similarity from which a non-matching title is reported as close
EARLIEST_YEAR, LATEST_YEAR = 2024, 2026

# Where a title splits into parts: a colon, a question mark, a spaced dash (a dash between
# words without spaces is a hyphen: "Transport–Guided").
_PARTS = re.compile(r"\s*(?::|\?(?=\s))\s*|\s+(?:[\u2013\u2014]|-{1,3})\s+")
_ANNOTATION = re.compile(r"\s*\((?=[^()]*(?:arxiv|title|submission|openreview|version|v\d))[^()]*\)\s*$",
                         re.IGNORECASE)
_OK_VENUE = re.compile(r"\b(?:icml|international conference on machine learning(?! (?:and|for|in)\b)|"
                       r"forty[- ]third|43rd|arxiv|corr|preprint|openreview|pmlr|proceedings of machine "
                       r"learning research|submitted|under review|to appear|in press)\b")
# Another edition, a workshop, ICMLA: "42nd", "forty second", "ICML 2025" (venues are folded first).
_BAD_VENUE = re.compile(r"\bworkshops?\b|\bicmla\b|\b(?!43rd\b)\d+(?:st|nd|rd|th)\b|"
                        r"\bforty (?!third\b)[a-z]+\b|\b(?!2026\b)(?:19|20)\d\d\b")
_LINK_FIELDS = ("url", "howpublished", "note", "pdf", "eprint", "journal", "doi", "biburl", "annote")
# Fields whose whole value is a venue (anything but ICML 2026 or a preprint server is another one) …
VENUE_FIELDS = ("booktitle", "journal", "journaltitle", "eventtitle", "series")
# … and fields that may mention one among other words (only a named venue counts there).
MENTION_FIELDS = ("organization", "howpublished", "note", "publisher", "institution")
# Venues people cite besides ICML (folded): a title at one of them is another publication.
_OTHER_VENUE = re.compile(
    r"\b(?:neurips|nips|neural information processing systems|iclr|learning representations|cvpr|iccv|eccv|"
    r"computer vision and pattern recognition|aaai|ijcai|acl|emnlp|naacl|colt|learning theory|aistats|"
    r"artificial intelligence and statistics|uai|uncertainty in artificial intelligence|kdd|jmlr|"
    r"journal of machine learning research|tmlr|transactions on machine learning research|icassp|interspeech|"
    r"sigir|wsdm|colm|corl|conference on robot learning|icra|iros|miccai|lrec|coling)\b")
_ICML = re.compile(r"\b(?:icml|international conference on machine learning|pmlr|proceedings of machine "
                   r"learning research)\b")
# What says "ICML 2026" by itself (folded): ICML'26, ICML 2026, the 43rd / forty-third edition, PMLR 306.
_CLAIM = re.compile(r"\bicml (?:20)?26\b|\b(?:43rd|43 rd|forty third)\b(?: [a-z]+){0,3} "
                    r"(?:international )?(?:conference|conf|int|intl)\b|\bpmlr(?: v| vol| volume)? 306\b|"
                    r"\bv306\b")
_WORKSHOP = re.compile(r"\bworkshops?\b")  # an ICML 2026 workshop is not the proceedings
INHERIT_DEPTH = 8  # crossref/xdata chains followed at most this far (and never round a cycle)


# --------------------------------------------------------------------------- folding

def unicode_title(markup_title: str) -> str:
    """A title of the package in plain Unicode, math included where faithful (CSL-JSON's form)."""
    from ..exporters.plain import plain_text

    return plain_text(markup_title)


def latex_plain(value: str) -> str:
    """A BibTeX value as plain text: LaTeX decoded only when it has commands (speed)."""
    if "\\" in value:
        try:
            return decode_plain(value)
        except ValueError:  # LaTeX too broken to decode: compare what is there
            pass
    return value.replace("{", "").replace("}", "").replace("~", " ")


@dataclass(frozen=True, slots=True)
class TitleKeys:
    """The folded forms a title is compared by."""

    full: str  # all words, joined without spaces: "pre-training" = "pretraining"
    words: tuple[str, ...]
    parts: tuple[str, ...]  # folded parts split at ':', '?', dashes — sorted, for swapped order
    first: str | None  # the first part, when it has enough words to stand for the title
    unprefixed: str | None  # without a leading "Position:"


def title_keys(plain: str) -> TitleKeys:
    words = folded_words(plain)
    pieces = [p for p in (folded_words(p) for p in _PARTS.split(plain)) if p] if _PARTS.search(plain) else [words]
    parts = tuple(sorted("".join(p) for p in pieces)) if len(pieces) > 1 else ()
    first = "".join(pieces[0]) if len(pieces) > 1 and len(pieces[0]) >= MIN_PART_WORDS else None
    unprefixed = None
    if len(pieces) > 1 and pieces[0] == ["position"]:
        unprefixed = "".join(w for p in pieces[1:] for w in p)
    return TitleKeys("".join(words), tuple(words), parts, first, unprefixed)


@cache
def family_keys(person: Person) -> frozenset[str]:
    """Folded forms of a package author's family name (with and without particle, last word)."""
    family = person.family or person.literal or person.given or ""
    words = folded_words(family)
    keys = {"".join(words), "".join(folded_words(person.particle or "") + words)}
    if words:
        keys.add(words[-1])
    return frozenset(k for k in keys if k)


def entry_name_keys(name: str) -> frozenset[str]:
    """Folded forms that may be the family name of a name as a user wrote it.

    ``Family, Given``: the part before the comma (whole and last word).
    ``Given Family``: the last word, every tail of words, and — for names written
    family-first (``Li Wei``) — the first word.  Loose on purpose: it only confirms
    a title that already matched.
    """
    plain = latex_plain(name)
    depth0 = _split_comma(plain)
    if len(depth0) > 1:
        words = folded_words(depth0[0])
        keys = {"".join(words), words[-1] if words else ""}
    else:
        words = folded_words(plain)
        keys = {"".join(words[i:]) for i in range(1, len(words))} | set(words[:1]) | set(words[-1:])
    return frozenset(k for k in keys if k)


def _split_comma(name: str) -> list[str]:
    return [p for p in name.split(",")] if "," in name else [name]


def venue_text(value: str) -> str:
    """A field naming a venue, folded to words (arXiv ids removed: "2001.01234" is no year)."""
    return " ".join(folded_words(without_arxiv_ids(latex_plain(value))))


def with_inherited(entry: Block, by_key: dict[str, Block]) -> Block:
    """*entry* with the fields its ``crossref``/``xdata`` parents give it (as BibTeX and biber
    do: only fields it lacks; a parent's ``title`` is the child's ``booktitle``)."""
    fields = list(entry.fields)
    names = {f.name for f in fields}
    seen = {(entry.key or "").lower()}
    pending = [entry]
    for _ in range(INHERIT_DEPTH):
        parents = [by_key.get(key.strip().lower()) for child in pending
                   for name in ("crossref", "xdata") for key in child.get(name).split(",")]
        pending = [p for p in parents if p is not None and (p.key or "").lower() not in seen]
        if not pending:
            break
        for parent in pending:
            seen.add((parent.key or "").lower())
            for item in parent.fields:
                name = "booktitle" if item.name == "title" else item.name
                if name not in names and name not in ("crossref", "xdata", "ids"):
                    fields.append(item if name == item.name else replace(item, name=name))
                    names.add(name)
    return entry if len(fields) == len(entry.fields) else replace(entry, fields=tuple(fields))


def claims_icml2026(entry: Block, volume: int | None) -> str | None:
    """What in *entry* says it is an ICML 2026 paper (a venue, volume 306, a PMLR link), or None.

    An OpenReview id alone does not: OpenReview hosts every venue's submissions."""
    year = _year(entry)
    for name in (*VENUE_FIELDS, *MENTION_FIELDS, "venue"):
        venue = venue_text(entry.get(name))
        if venue and not _WORKSHOP.search(venue) and (
                _CLAIM.search(venue) or (year == 2026 and _ICML.search(venue) and not _BAD_VENUE.search(venue))):
            return f"{name} = {latex_plain(entry.get(name)).strip()!r}"
    if volume is not None and entry.get("volume").strip() == str(volume) and any(
            _ICML.search(venue_text(entry.get(n))) for n in ("series", "booktitle", "publisher", "journal")):
        return f"volume = {volume}"
    key = parse_pmlr_key(entry.key or "")
    if key and key.volume == volume:
        return f"its key {entry.key}"
    for name in _LINK_FIELDS:
        if any(pmlr.volume == volume for pmlr in find_pmlr(entry.get(name))):
            return f"{name} links PMLR volume {volume}"
    return None


def other_venue(entry: Block, volume: int | None) -> tuple[str, str] | None:
    """The field that places *entry* at another venue, volume or year than ICML 2026, and why; or None."""
    for name in VENUE_FIELDS:
        venue = venue_text(entry.get(name))
        if venue and (_BAD_VENUE.search(venue) or _OTHER_VENUE.search(venue) or not _OK_VENUE.search(venue)):
            return name, f"it names another venue ({name} = {latex_plain(entry.get(name)).strip()!r})"
    for name in MENTION_FIELDS:
        venue = venue_text(entry.get(name))
        if venue and (_OTHER_VENUE.search(venue) or (_ICML.search(venue) and _BAD_VENUE.search(venue))):
            return name, f"it names another venue ({name} = {latex_plain(entry.get(name)).strip()!r})"
    number = entry.get("volume").strip()
    if number.isdigit() and volume is not None and int(number) != volume:
        return "volume", f"its volume is {number}"
    year = _year(entry)
    if year is not None and year != LATEST_YEAR and any(
            _ICML.search(venue_text(entry.get(n))) for n in (*VENUE_FIELDS, *MENTION_FIELDS)):
        return "year", f"it is an ICML paper of {year}"
    return None


# --------------------------------------------------------------------------- the index

_T = TypeVar("_T")


class _Known:
    """One paper of the index: its OpenReview id, its authors' family-name keys and the paper.

    A prebuilt index (:mod:`icml2026.fix.prebuilt`) reads the paper from the packaged data,
    and makes the family-name keys from the stored ones, only when they are asked for."""

    __slots__ = ("_paper", "_read", "_span", "_families", "_stored", "openreview")

    def __init__(self, openreview: str | None, paper: Paper | None = None, *,
                 read: Callable[[int, int], Paper] | None = None, span: tuple[int, int] = (0, 0),
                 families: Sequence[Sequence[str]] | None = None) -> None:
        self.openreview = openreview
        self._paper = paper
        self._read = read
        self._span = span
        self._stored = families
        self._families: tuple[frozenset[str], ...] | None = None

    @property
    def paper(self) -> Paper:
        if self._paper is None:
            assert self._read is not None
            self._paper = self._read(*self._span)
        return self._paper

    @property
    def families(self) -> tuple[frozenset[str], ...]:
        """Family-name keys of the authors: made when a title needs confirming (start-up time)."""
        if self._families is None:
            if self._stored is not None:
                self._families = tuple(frozenset(keys) for keys in self._stored)
            else:
                self._families = tuple(family_keys(a) for a in self.paper.authors)
        return self._families


class _Lazy(Sequence[_T]):
    """A list whose items are made from stored rows when first asked for."""

    __slots__ = ("_rows", "_made", "_make")

    def __init__(self, rows: Sequence[Any], make: Callable[[Any], _T]) -> None:
        self._rows = rows
        self._made: list[_T | None] = [None] * len(rows)
        self._make = make

    def __len__(self) -> int:
        return len(self._rows)

    @overload
    def __getitem__(self, n: int) -> _T: ...

    @overload
    def __getitem__(self, n: slice) -> list[_T]: ...

    def __getitem__(self, n: int | slice) -> _T | list[_T]:
        if isinstance(n, slice):
            return [self[i] for i in range(*n.indices(len(self)))]
        made = self._made[n]
        if made is None:
            made = self._made[n] = self._make(self._rows[n])
        return made

    def __iter__(self) -> Iterator[_T]:
        return (self[n] for n in range(len(self._rows)))


def _put(table: dict[str, list[int]], key: str, n: int) -> None:
    """Add paper *n* under *key* (papers come in ascending order: each list stays sorted, unique)."""
    found = table.get(key)
    if found is None:
        table[key] = [n]
    elif found[-1] != n:
        found.append(n)


class Index:
    """Look-up tables over the papers (folded titles → papers, identifiers, word postings).

    Built from papers, or read back from :meth:`tables` (the packaged volume's, prebuilt by
    the data build: :mod:`icml2026.fix.prebuilt`), in which case a paper is loaded only when
    an entry names it."""

    def __init__(self, papers: Iterable[Paper] = ()) -> None:
        self.known: Sequence[_Known] = []
        self.by_openreview: dict[str, int] = {}
        self.by_pmlr: dict[str, int] = {}
        self.by_arxiv: dict[str, int] = {}
        self.exact: dict[str, list[int]] = {}  # whole-title keys (full, unprefixed, former)
        self.by_parts: dict[str, list[int]] = {}  # a title's sorted parts, joined by spaces
        self.by_first: dict[str, list[int]] = {}  # a paper's title without its subtitle
        self.postings: dict[str, list[int]] = {}
        self.wordsets: Sequence[frozenset[str]] = []
        self.df: dict[str, int] = {}
        self._by_word: dict[str, list[int]] | None = None  # every title word → titles (built on demand)
        self._sizes: list[int] = []  # the number of words of each title (with _by_word)
        self._word_rows: list[str] | None = None  # a prebuilt index's titles: their words, space-separated
        self.volume: int | None = None
        self.positions: list[int] = []  # where each indexed paper is in *papers* (:meth:`tables`)
        known: list[_Known] = []
        wordsets: list[frozenset[str]] = []
        for position, paper in enumerate(papers):
            if paper.is_complete and paper.title and paper.authors:
                self._add(paper, known, wordsets)
                self.positions.append(position)
        self.known, self.wordsets = known, wordsets
        self._index_prefixes()

    def _add(self, paper: Paper, known: list[_Known], wordsets: list[frozenset[str]]) -> None:
        n = len(known)
        title = title_keys(to_plain(paper.title or ""))
        former = []
        if "$" in (paper.title or ""):  # math as people write it outside LaTeX: "τ²-Bench"
            unicode = title_keys(unicode_title(paper.title or ""))
            if unicode.full != title.full:
                former.append(unicode)
        for old in paper.former_titles:
            plain = to_plain(old)
            former.append(title_keys(plain))
            bare = _ANNOTATION.sub("", plain)
            if bare != plain:
                former.append(title_keys(bare))
        ids = paper.identifiers
        known.append(_Known(ids.openreview, paper))
        self.volume = self.volume or paper.proceedings.volume
        if ids.openreview:
            self.by_openreview.setdefault(ids.openreview, n)
        if ids.arxiv:
            self.by_arxiv.setdefault(ids.arxiv, n)
        for pmlr in (ids.pmlr, *(k.partition("-")[2].partition("-")[2] for k in paper.alias_keys
                                 if k.startswith("pmlr-v"))):
            if pmlr:
                self.by_pmlr.setdefault(pmlr, n)
        for keys in (title, *former):
            _put(self.exact, keys.full, n)
            if keys.unprefixed:
                _put(self.exact, keys.unprefixed, n)
            if keys.parts:
                _put(self.by_parts, " ".join(keys.parts), n)
            if keys.first:
                _put(self.by_first, keys.first, n)
        wordsets.append(frozenset(title.words))

    def tables(self, spans: Sequence[tuple[int, int]]) -> dict[str, Any]:
        """The index as JSON-ready tables; *spans*: ``(offset, length)`` of each paper given to
        the index, in its order, in the file :meth:`from_tables` will read papers from."""
        rows = [[*spans[position], known.openreview, [sorted(keys) for keys in known.families],
                 " ".join(sorted(words))]
                for position, known, words in zip(self.positions, self.known, self.wordsets)]
        return {"volume": self.volume, "papers": rows, "by_openreview": self.by_openreview,
                "by_pmlr": self.by_pmlr, "by_arxiv": self.by_arxiv, "exact": self.exact,
                "by_parts": self.by_parts, "by_first": self.by_first, "postings": self.postings, "df": self.df}

    @classmethod
    def from_tables(cls, tables: dict[str, Any], read: Callable[[int, int], Paper]) -> Index:
        """The index of :meth:`tables`; *read* ``(offset, length)`` gives a paper when one is needed."""
        index = cls()
        rows = tables["papers"]
        index.known = _Lazy(rows, lambda row: _Known(row[2], read=read, span=(row[0], row[1]), families=row[3]))
        index.wordsets = _Lazy(rows, lambda row: frozenset(row[4].split()))
        index._word_rows = [row[4] for row in rows]
        index.volume = tables["volume"]
        index.by_openreview, index.by_pmlr, index.by_arxiv = (
            tables["by_openreview"], tables["by_pmlr"], tables["by_arxiv"])
        index.exact, index.by_parts, index.by_first = tables["exact"], tables["by_parts"], tables["by_first"]
        index.postings, index.df = tables["postings"], tables["df"]
        return index

    def title_candidates(self, keys: TitleKeys) -> set[int]:
        """Papers whose title (or former title) is this one up to the tolerated differences."""
        found = set(self.exact.get(keys.full, ()))
        if keys.unprefixed:
            found.update(self.exact.get(keys.unprefixed, ()))
        if keys.parts:
            found.update(self.by_parts.get(" ".join(keys.parts), ()))
        if len(keys.words) >= MIN_PART_WORDS:
            found.update(self.by_first.get(keys.full, ()))  # the entry dropped the subtitle
        if keys.first:
            found.update(self.exact.get(keys.first, ()))  # the entry added a subtitle
        return found

    def _index_prefixes(self) -> None:
        """Word postings for :meth:`close_titles`: each title's rarest words only (prefix filtering)."""
        df: dict[str, int] = {}
        for words in self.wordsets:
            for word in words:
                df[word] = df.get(word, 0) + 1
        self.df = df
        for n, words in enumerate(self.wordsets):
            for word in self._prefix(words):
                self.postings.setdefault(word, []).append(n)

    def _prefix(self, words: frozenset[str]) -> list[str]:
        """The rarest ``n - ceil(2n/3) + 1`` words (global order: frequency, then the word).

        Two word sets with a Dice similarity ≥ 0.8 share ≥ 2/3 of the words of each, so
        (for any fixed global order of words) their prefixes of this length share a word.
        """
        df = self.df
        return sorted(words, key=lambda w: (df.get(w, 0), w))[:len(words) - math.ceil(2 * len(words) / 3) + 1]

    def nearest_titles(self, keys: TitleKeys, count: int, floor: float = 0.3) -> list[int]:
        """Up to *count* titles sharing the most words with *keys* (Jaccard ≥ *floor*), best first:
        for saying what was searched when nothing matched.  Words in more than a tenth of the
        titles only rank; the candidates come from the rarer ones."""
        by_word, sizes = self._word_index()
        words = frozenset(keys.words)
        common = len(sizes) // 10
        seen = {n for w in words if len(by_word.get(w, ())) <= common for n in by_word.get(w, ())}
        if not seen:
            return []
        shared: Counter[int] = Counter()  # title → how many of the words it has (a count in C)
        for word in words:
            shared.update(by_word.get(word, ()))
        scored = sorted((-shared[n] / (len(words) + sizes[n] - shared[n]), n) for n in seen)  # Jaccard
        return [n for score, n in scored[:count] if -score >= floor]

    def _word_index(self) -> tuple[dict[str, list[int]], list[int]]:
        """Every title word → the titles that have it, and each title's number of words."""
        if self._by_word is None:
            by_word: dict[str, list[int]] = {}
            rows = self._word_rows
            titles = (row.split() for row in rows) if rows is not None else iter(self.wordsets)
            sizes = []
            for n, title in enumerate(titles):
                sizes.append(len(title))
                for word in title:
                    by_word.setdefault(word, []).append(n)
            self._by_word, self._sizes = by_word, sizes
        return self._by_word, self._sizes

    def close_titles(self, keys: TitleKeys) -> list[int]:
        """Papers whose title shares ≥ :data:`CLOSE_DICE` of its words (Dice) with this one."""
        words = frozenset(keys.words)
        n = len(words)
        if n < 4:
            return []
        seen = {i for w in self._prefix(words) for i in self.postings.get(w, ())}
        wordsets = self.wordsets
        shortest, longest = 2 * n / 3, 3 * n / 2  # Dice ≥ 0.8 bounds the other title's length
        return sorted(i for i in seen if shortest <= len(wordsets[i]) <= longest
                      and 2 * len(words & wordsets[i]) >= CLOSE_DICE * (n + len(wordsets[i])))


# --------------------------------------------------------------------------- matching

@dataclass(frozen=True, slots=True)
class Match:
    """The outcome for one entry: a paper and the evidence, or why it is ambiguous."""

    paper: Paper | None = None
    evidence: str | None = None  # one of EVIDENCE
    ambiguous: str | None = None  # the reason, when the entry is left alone for a human
    candidates: tuple[Paper, ...] = ()


NO_MATCH = Match()


class Matcher:
    def __init__(self, index: Index) -> None:
        self.index = index

    def match(self, entry: Block) -> Match:
        if entry.kind not in PAPER_TYPES or entry.error or not entry.fields:
            return NO_MATCH
        title = latex_plain(entry.get("title"))
        keys = title_keys(title) if title.strip() else None
        names = [n for n in split_names(entry.get("author")) if n.lower() != "others"]
        by_id = self.by_identifier(entry)
        if by_id:
            return self._identified(entry, by_id, keys, names)
        if keys is None or not keys.words:
            return NO_MATCH
        return self._by_title(entry, keys, names)

    # -- identifiers -------------------------------------------------------
    def by_identifier(self, entry: Block) -> dict[int, list[str]]:
        """Paper index → the kinds of identifier of the entry that name it."""
        hits: dict[int, list[str]] = {}
        for kind, value in self.identifiers(entry):
            table = {"openreview": self.index.by_openreview, "pmlr": self.index.by_pmlr,
                     "arxiv": self.index.by_arxiv}[kind]
            n = table.get(value)
            if n is not None and kind not in hits.setdefault(n, []):
                hits[n].append(kind)
        return hits

    def identifiers(self, entry: Block) -> list[tuple[str, str]]:
        found: list[tuple[str, str]] = []
        volume = self.index.volume
        openreview = parse_openreview(entry.get("openreview"))  # a value that is no id is no evidence
        if openreview:
            found.append(("openreview", openreview))
        key = parse_pmlr_key(entry.key or "")
        if key and key.volume == volume:
            found.append(("pmlr", key.id))
        for name in _LINK_FIELDS:
            value = entry.get(name)
            if not value:
                continue
            found.extend(("openreview", m) for m in find_openreview(value))
            found.extend(("pmlr", m.id) for m in find_pmlr(value) if m.volume == volume)
            found.extend(("arxiv", m.id) for m in find_arxiv(value, bare=name == "eprint") if m.new_style)
        return found

    def _identified(self, entry: Block, hits: dict[int, list[str]], keys: TitleKeys | None,
                    names: list[str]) -> Match:
        papers = tuple(self.index.known[n].paper for n in hits)
        if len(hits) > 1:
            said = "; ".join(f"{'/'.join(kinds)} → {self.index.known[n].paper.id}" for n, kinds in hits.items())
            return Match(ambiguous=f"its identifiers name different papers ({said})", candidates=papers)
        n, kinds = next(iter(hits.items()))
        known = self.index.known[n]
        agrees = keys is None or self.title_agrees(keys, n) or self.authors_agree(names, known)
        if not agrees:
            return Match(ambiguous=f"its {kinds[0]} id is that of {known.paper.id}, but neither its title nor "
                         "its authors are that paper's", candidates=papers)
        evidence = min(kinds, key=EVIDENCE.index)
        if evidence == "arxiv":  # an arXiv id is shared by every version of the work
            other = self._other_publication(entry, known, arxiv_known=True)
            if other:
                return Match(ambiguous=f"its arXiv id is that of {known.paper.id}, but {other}",
                             candidates=papers)
        return Match(known.paper, evidence)

    def title_agrees(self, keys: TitleKeys, n: int) -> bool:
        if n in self.index.title_candidates(keys):
            return True
        words = set(keys.words)
        other = self.index.wordsets[n]
        return bool(words) and 2 * len(words & other) >= len(words | other)

    # -- titles -------------------------------------------------------------
    def _by_title(self, entry: Block, keys: TitleKeys, names: list[str]) -> Match:
        found = sorted(self.index.title_candidates(keys))
        if not found:
            close = self.index.close_titles(keys)
            if close:
                papers = tuple(self.index.known[n].paper for n in close)
                return Match(ambiguous="its title is close to, but not the same as, the title of "
                             + ", ".join(p.id for p in papers), candidates=papers)
            return NO_MATCH
        confirmed = [n for n in found if self.authors_agree(names, self.index.known[n])]
        candidates = tuple(self.index.known[n].paper for n in (confirmed or found))
        ids = ", ".join(p.id for p in candidates)
        if len(confirmed) > 1:
            return Match(ambiguous=f"its title and authors fit several papers ({ids})", candidates=candidates)
        if not confirmed:
            why = "it has no authors to confirm it" if not names else "its authors are not that paper's"
            return Match(ambiguous=f"its title is that of {ids}, but {why}", candidates=candidates)
        known = self.index.known[confirmed[0]]
        other = self._other_publication(entry, known, arxiv_known=False)
        if other:
            return Match(ambiguous=f"its title and authors are those of {known.paper.id}, but {other}",
                         candidates=candidates)
        return Match(known.paper, "title")

    def authors_agree(self, names: Sequence[str], known: _Known) -> bool:
        if not names or not known.families:
            return False
        keys = [entry_name_keys(n) for n in names]
        if keys[0] & known.families[0]:
            return True
        shared = sum(1 for k in keys if any(k & f for f in known.families))
        return shared >= 2 and 2 * shared >= len(keys)

    def _other_publication(self, entry: Block, known: _Known, *, arxiv_known: bool) -> str | None:
        """Why the entry is another publication than the ICML 2026 paper, or None."""
        other = other_venue(entry, self.index.volume)
        if other:
            return other[1]
        if arxiv_known:  # a preprint may be of any year; its id is the evidence
            return None
        year = _year(entry)
        if year is not None and not EARLIEST_YEAR <= year <= LATEST_YEAR:
            return f"its year is {year}"
        for kind, value in self.identifiers(entry):
            if kind == "openreview" and value != known.openreview:
                return f"its OpenReview id {value} is not that paper's"
        for name in _LINK_FIELDS:
            for pmlr in find_pmlr(entry.get(name)):
                if pmlr.volume != self.index.volume:
                    return f"it links PMLR volume {pmlr.volume}"
        for name in ("doi", "url"):
            doi = next(find_doi(entry.get(name)), None)
            if doi and not is_arxiv_doi(doi):
                return f"it has a DOI ({doi}), which ICML 2026 papers do not"
        return None


def year_of(entry: Block) -> int | None:
    """The year an entry states (``year``, else the start of ``date``), or None."""
    return _year(entry)


def _year(entry: Block) -> int | None:
    match = re.search(r"\b(\d{4})\b", entry.get("year") or entry.get("date"))
    return int(match.group(1)) if match else None
