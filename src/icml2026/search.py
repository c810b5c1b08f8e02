"""Search over a :class:`~icml2026.collection.PaperCollection`: the rules and the index.

The rules (``PaperCollection.search``, and so ``icml2026 list``/``search``/``show``):

* Text is folded before comparing: case, accents (``Müntz`` = ``muntz``) and the letters
  NFKD leaves alone (``ø`` → ``o``, ``ł`` → ``l``, ``æ`` → ``ae`` …). Anything but a letter
  or digit separates words: ``Müntz-Szász`` holds the words ``muntz`` and ``szasz``.
* A query word matches a title, abstract, method name or id where a word *begins* with
  it (``graph`` finds ``graphs``, not ``subgraph``; ``li`` never finds ``reliable``), and an
  author only as a whole name token (``li`` finds Yang Li, never Renzulli or Lin). A word
  with punctuation inside is a phrase: ``do-shapley`` needs ``do`` right before ``shapley``.
* A name written with punctuation also matches joined up (``N’Guessan`` as ``nguessan``,
  ``Chao-Han`` as ``chaohan``), and ``ä``/``ö``/``ü`` also match their German spelling:
  ``muller``, ``müller`` and ``mueller`` find Müller; ``müller`` and ``mueller`` also find
  an author who writes Mueller, but ``muller`` does not (without the umlaut, nothing says
  the reader means that name).
* ``author=`` (``--author``) needs every one of its words, in any order, in one person's name.
* Every query word must match somewhere. Results are ranked: all words in the title first,
  then papers that need the authors for some word, then the abstract, then the method name,
  former titles or ids; within a rank, the collection's order (citation key, id).
* A query has at most :data:`MAX_QUERY_CHARS` characters (a pasted abstract fits); a
  longer one is a :class:`~icml2026.errors.UsageError`. A word given twice counts once,
  and the search stops at the first word no paper has: its cost grows with the query's
  distinct words, never with their product.
* A query that is one identifier — citation key, id, alias key, PMLR id, OpenReview id,
  arXiv id (``arXiv:2605.05974v2``), DOI, or a proceedings, PDF, OpenReview, arXiv or other
  link URL of the paper — gives that paper alone.

The index folds each field of every paper into one string (``\\x00 w w \\x01 w \\x00 w \\x00``:
papers separated by NUL, people by SOH) so that one ``str.find`` scans all papers in C;
bisecting the separators' offsets turns a hit into a paper. It is built once per
collection, on its first search: folding thousands of records costs far more than a query.
The data build stores it for the packaged volume twice: as its text (``Index.to_text``,
searched in the file's bytes) and as a word index (``Index.to_words``: each word with the
papers that hold it), from which a query of whole words reads only the lines of its words.
"""

from __future__ import annotations

import re
from itertools import accumulate, repeat
from operator import add

# Only what an ASCII query of the packaged volume needs is imported at start-up (list):
# unicodedata, bisect and the folding tables of .text come with the first non-ASCII text
# or scanned field.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence

    from .model import Paper

PAPER, PERSON = "\x00", "\x01"  # separators in a field's string
MAX_QUERY_CHARS = 20_000  # several abstracts' worth: a query is typed or pasted, never a file
_PUNCT, _UMLAUT = "\x02", "\x03"  # marks while folding: a word break; the dots of ä, ö, ü
_NON_ASCII = "[^\x00-\x7f]+"  # a pattern, compiled once (re's cache) where used
_CONTROL_SPACES = str.maketrans("\x00\x01\x02\x03", "    ")
_ASCII_MARKS = bytes.maketrans(  # letters, digits, separators and marks stay
    bytes(range(4, 128)),
    bytes(c if chr(c).isalnum() else 0x20 if chr(c).isspace() else 2 for c in range(4, 128)),
)
_RUNS: tuple[dict[str, str], dict[str, str]] = ({}, {})  # folded non-ASCII runs, per *umlauts*


def _marked(text: str, umlauts: bool = False) -> str:
    """Folded *text* with every non-word character as ``_PUNCT`` (whitespace as a space)
    and, if *umlauts*, the diaeresis of ``ä``/``ö``/``ü`` as ``_UMLAUT``; separators stay."""
    return _ascii_marked(_fold_non_ascii(text, umlauts))


def _fold_non_ascii(text: str, umlauts: bool) -> str:
    """*text* with its runs of non-ASCII characters folded (each distinct run once)."""
    if text.isascii():
        return text
    import unicodedata

    text = unicodedata.normalize("NFC", text)  # runs hold whole letters: "ü", not "u" + "¨"
    cache = _RUNS[umlauts]

    def folded(match: re.Match[str]) -> str:
        found = cache.get(match[0])
        return _fold_run(match[0], umlauts) if found is None else found

    return re.sub(_NON_ASCII, folded, text)


def _ascii_marked(text: str) -> str:
    """Lower case and marks for the ASCII characters, byte by byte in C."""
    return text.lower().encode().translate(_ASCII_MARKS).decode()


def _marked_pieces(pieces: list[str], separator: str, umlauts: bool = False) -> str:
    """:func:`_marked` of *pieces* joined by *separator*; Unicode folding touches only the
    pieces that need it (a regex scan of the whole field would cost more)."""
    return _ascii_marked(separator.join([p if p.isascii() else _fold_non_ascii(p, umlauts)
                                         for p in pieces]))


def _fold_run(run: str, umlauts: bool) -> str:
    import unicodedata

    from .text import COMBINING_MARKS, EXTRA_LETTERS

    text = unicodedata.normalize("NFKD", run)
    if umlauts:
        for vowel in "aouAOU":
            text = text.replace(vowel + "\u0308", vowel + _UMLAUT)
    text = re.sub(f"[{COMBINING_MARKS}]+", "", text).casefold()
    folded = "".join(EXTRA_LETTERS.get(c) or (c if c.isascii() or c.isalnum() else
                                            " " if c.isspace() else _PUNCT) for c in text)
    if len(_RUNS[umlauts]) < 10_000:  # bounded: queries cannot grow it without limit
        _RUNS[umlauts][run] = folded
    return folded


def _plain(marked: str) -> str:
    return marked.replace(_UMLAUT, "").replace(_PUNCT, " ")


def _joined(marked: str) -> str:
    """Punctuation deleted and umlauts spelt out: ``nguessan``, ``chaohan``, ``mueller``."""
    return marked.replace(_UMLAUT, "e").replace(_PUNCT, "")


def words(text: str) -> list[str]:
    """The folded words of *text*, as the index sees them: ``Müntz-Szász`` → muntz, szasz."""
    return _plain(_marked(text.translate(_CONTROL_SPACES))).split()


def _offsets(text: str, separator: str) -> list[int]:
    """Where *separator* occurs in *text*: from the lengths of the pieces between, summed
    in C (offset k = len(piece 0) + … + len(piece k) + k)."""
    lengths = map(add, map(len, text.split(separator)[:-1]), repeat(1))
    return list(accumulate(lengths, initial=-1))[1:]


class Field:
    """One field of every paper in one folded string, ``\\x00 w w \\x00 w \\x01 w \\x00``:
    words between spaces (runs of spaces may occur: a needle for one word, ``" w"`` or
    ``" w "``, does not mind; phrases are regular expressions). ``starts[k]`` is the offset
    of paper *k*'s separator."""

    __slots__ = ("_people", "starts", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = _offsets(text, PAPER)
        self._people: list[int] | None = None

    @classmethod
    def of(cls, joined: str) -> Field:
        """The field of papers' texts already joined by `` PAPER ``."""
        return cls(f"{PAPER} {joined} {PAPER}")

    def __len__(self) -> int:
        """How many papers."""
        return len(self.starts) - 1

    def _hits(self, needle: str | re.Pattern[str], start: int) -> int:
        if isinstance(needle, str):
            return self.text.find(needle, start)
        match = needle.search(self.text, start)
        return match.start() if match else -1

    def papers(self, needle: str | re.Pattern[str]) -> set[int]:
        """Indices of the papers whose field contains *needle* (one hit per paper suffices,
        so the scan jumps to the next paper)."""
        from bisect import bisect_right

        found: set[int] = set()
        starts = self.starts
        at = self._hits(needle, 0)
        while at >= 0:
            k = bisect_right(starts, at) - 1
            found.add(k)
            at = self._hits(needle, starts[k + 1])
        return found

    def people(self, needle: str) -> set[int]:
        """Indices of the people (runs between any two separators) holding *needle*."""
        from bisect import bisect_right

        if self._people is None:
            self._people = _offsets(self.text.replace(PAPER, PERSON), PERSON)
        bounds, find = self._people, self.text.find
        found: set[int] = set()
        at = find(needle)
        while at >= 0:
            found.add(bisect_right(bounds, at) - 1)
            at = find(needle, at + 1)
        return found

    def paper_of_person(self, person: int) -> int:
        from bisect import bisect_right

        assert self._people is not None
        return bisect_right(self.starts, self._people[person]) - 1


class ScanField:
    """A :class:`Field` of a stored index, searched where it lies in the file's bytes (UTF-8:
    a needle's bytes match exactly where its text does): nothing is split, decoded or
    copied when the index is opened.  A hit's paper is the count of paper separators
    before it, counted from the previous hit, so one search is one pass over the field."""

    __slots__ = ("_paper_of", "data", "end", "start")

    def __init__(self, data: bytes, start: int, end: int) -> None:
        self.data, self.start, self.end = data, start, end
        self._paper_of: dict[int, int] = {}

    def __len__(self) -> int:
        return self.data.count(_PAPER_BYTE, self.start, self.end) - 1

    @property
    def text(self) -> str:
        return self.data[self.start:self.end].decode("utf-8")

    def _find(self, needle: bytes | re.Pattern[bytes], at: int) -> int:
        if isinstance(needle, bytes):
            return self.data.find(needle, at, self.end)
        match = needle.search(self.data, at, self.end)
        return match.start() if match else -1

    def papers(self, needle: str | re.Pattern[str]) -> set[int]:
        data, end, wanted = self.data, self.end, _as_bytes(needle)
        found: set[int] = set()
        pos, before = self.start, 0  # before: paper separators in [start, pos)
        at = self._find(wanted, pos)
        while at >= 0:
            before += data.count(_PAPER_BYTE, pos, at + 1)
            found.add(before - 1)
            pos = data.find(_PAPER_BYTE, at + 1, end)  # the next paper's separator
            if pos < 0:
                break
            at = self._find(wanted, pos)
        return found

    def people(self, needle: str) -> set[int]:
        data, wanted = self.data, needle.encode("utf-8")
        found: set[int] = set()
        pos, papers, people = self.start, 0, 0  # separators in [start, pos)
        at = data.find(wanted, pos, self.end)
        while at >= 0:
            paper_seps = data.count(_PAPER_BYTE, pos, at + 1)
            papers += paper_seps
            people += paper_seps + data.count(_PERSON_BYTE, pos, at + 1)
            found.add(people - 1)
            self._paper_of[people - 1] = papers - 1
            pos = at + 1
            at = data.find(wanted, pos, self.end)
        return found

    def paper_of_person(self, person: int) -> int:
        return self._paper_of[person]


_PAPER_BYTE, _PERSON_BYTE = PAPER.encode(), PERSON.encode()


class StaleIndex(LookupError):
    """The stored index a :class:`WordField` falls back on is missing or of another build."""


class WordField:
    """A :class:`Field` of a stored index, answered from the data build's word index
    (``search-words.tsv``): each folded word of the volume on one line, in byte order, with
    the papers of each field that hold it.  A needle of one word, ``" w"`` (a word starting
    with *w*) or ``" w "`` (the word *w*), reads only the lines of its words, found by
    bisection; any other needle (a phrase, a title's start, a prefix so short that its words
    fill much of the file) and the people of :meth:`people` are searched in the scanned
    index, opened only then: the papers found are those :meth:`Field.papers` finds."""

    __slots__ = ("_scanned", "column", "data", "name")

    # A prefix whose lines hold more bytes than this is scanned for (decoding costs more).
    MAX_LINES_BYTES = 1 << 18

    def __init__(self, data: bytes, column: int, name: str, scanned: Callable[[], Index]) -> None:
        self.data, self.column, self.name, self._scanned = data, column, name, scanned

    def _field(self) -> Field:
        field: Field = getattr(self._scanned(), self.name)
        return field

    def _at(self, key: bytes) -> int:
        """The start of the first line whose word is not below *key* (or the file's end)."""
        data = self.data
        lo, hi = data.find(b"\n") + 1, len(data)  # both always a line's start
        while lo < hi:
            mid = (lo + hi) // 2
            start = data.rfind(b"\n", lo - 1, mid) + 1
            if data[start:data.find(b"\t", start)] < key:
                lo = data.find(b"\n", start) + 1
            else:
                hi = start
        return lo

    def papers(self, needle: str | re.Pattern[str]) -> set[int]:
        if not isinstance(needle, str) or not needle.startswith(" "):
            return self._field().papers(needle)
        word = needle[1:].removesuffix(" ")
        if not word or " " in word:
            return self._field().papers(needle)
        key = word.encode("utf-8")
        start = self._at(key)
        if needle.endswith(" "):   # the whole word: its line alone
            end = self.data.find(b"\n", start) + 1
            if self.data[start:self.data.find(b"\t", start)] != key:
                return set()
        else:                      # every word it starts (no UTF-8 byte is 0xff)
            end = self._at(key + b"\xff")
            if end - start > self.MAX_LINES_BYTES:
                return self._field().papers(needle)
        found: set[int] = set()
        column = self.column
        for line in self.data[start:end].split(b"\n")[:-1]:
            found.update(accumulate(map(int, line.split(b"\t")[column].split())))
        return found

    def people(self, needle: str) -> set[int]:
        return self._field().people(needle)

    def paper_of_person(self, person: int) -> int:
        return self._field().paper_of_person(person)


def _as_bytes(needle: str | re.Pattern[str]) -> bytes | re.Pattern[bytes]:
    if isinstance(needle, str):
        return needle.encode("utf-8")
    return re.compile(needle.pattern.encode("utf-8"))


def _has_control(text: str) -> bool:
    return PAPER in text or PERSON in text or _PUNCT in text or _UMLAUT in text


def _clean(pieces: list[str]) -> list[str]:
    """*pieces*, with separator or mark characters inside a record (the validator rejects
    them, but user data need not be valid) turned into spaces."""
    if _has_control("".join(pieces)):
        pieces = [p.translate(_CONTROL_SPACES) for p in pieces]
    return pieces


def _authors(papers: Sequence[Paper]) -> list[str]:
    """Each paper's people, `` PERSON `` between them."""
    # Missing name parts leave extra spaces, which cost nothing: the fastest form.
    pieces = [f" {PERSON} ".join([f"{a.given or ''} {a.particle or ''} {a.family or ''} "
                                  f"{a.suffix or ''} {a.literal or ''}" for a in p.authors])
              for p in papers]
    people = sum(max(len(p.authors) - 1, 0) for p in papers)
    raw = "".join(pieces)
    if raw.count(PERSON) != people or PAPER in raw or _PUNCT in raw or _UMLAUT in raw:
        # a name holds a control character: rebuild, slowly, from clean names
        pieces = [f" {PERSON} ".join(a.display.translate(_CONTROL_SPACES) for a in p.authors) for p in papers]
    return pieces


_GERMAN = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue"})


def _word_spellings(word: str, tokens: list[str]) -> list[list[str]]:
    """*word*'s tokens, and those of its German spelling if it has ``ä``/``ö``/``ü``: a
    reader who types ``Müller`` may mean an author who writes ``Mueller``."""
    if word.isascii():   # no ä, ö or ü
        return [tokens]
    import unicodedata

    german = words(unicodedata.normalize("NFC", word).translate(_GERMAN))
    return [tokens, german] if german != tokens else [tokens]


def _name_spellings(name: str) -> list[list[str]]:
    """For each word of *name*: the spellings any of which may match (see above)."""
    found: list[list[str]] = []
    for word in name.split():
        for spelling in zip(*_word_spellings(word, words(word))):
            found.append(list(dict.fromkeys(spelling)))
    return found


def _phrase(tokens: list[str], *, title_start: bool = False,
            whole: bool = False) -> str | re.Pattern[str]:
    """The needle for *tokens* in a row, from a word start (or a title's start), to a word
    end if *whole*: a plain string for one word (fast), else a regular expression that
    allows the runs of spaces punctuation leaves."""
    if len(tokens) == 1 and not title_start:
        return f" {tokens[0]} " if whole else f" {tokens[0]}"
    head = f"{PAPER} +" if title_start else " "
    return re.compile(head + " +".join(map(re.escape, tokens)) + (" " if whole else ""))


class Index:
    """The folded fields of a sequence of papers, for :class:`PaperCollection` search."""

    __slots__ = ("abstract", "authors", "authors_joined", "other", "title")

    FORMAT = "icml2026-search-index 1"  # change it with any change to folding or fields
    _FIELDS = ("title", "authors", "authors_joined", "abstract", "other")

    def __init__(self, papers: Sequence[Paper]) -> None:
        if not papers:  # no pieces: "".join would look like one empty paper
            for name in self._FIELDS:
                setattr(self, name, Field(PAPER))
            return
        sep = f" {PAPER} "
        self.title = Field.of(_plain(_marked_pieces(_clean([p.title or "" for p in papers]), sep)))
        marked = _marked_pieces(_authors(papers), sep, umlauts=True)
        self.authors = Field.of(_plain(marked))
        self.authors_joined = Field.of(_joined(marked))
        abstracts = [p.abstract or "" for p in papers]
        self.abstract = Field.of(_plain(_marked_pieces(_clean(abstracts), sep)))
        other = [" ".join(filter(None, (p.method_name, p.citation_key, p.id, p.identifiers.pmlr,
                                        p.identifiers.openreview, p.identifiers.arxiv,
                                        p.identifiers.doi, *p.alias_keys,
                                        *p.former_titles)))
                 for p in papers]
        self.other = Field.of(_plain(_marked_pieces(_clean(other), sep)))

    # A data build may store the index (to_text) and a reader restore it (from_text),
    # so that a search need not fold every record again: building it is most of a
    # first search's cost over the whole volume.
    def to_text(self) -> str:
        """The index as one string: ``FORMAT``, then each field, separated by U+001E
        (which folding turns into a space, so no field contains it)."""
        return "\x1e".join([self.FORMAT, *(getattr(self, name).text for name in self._FIELDS)])

    @classmethod
    def from_text(cls, text: str, size: int) -> Index | None:
        """The index that :meth:`to_text` wrote for *size* papers; None if it was written
        by another format version or for another number of papers (then rebuild it)."""
        parts = text.split("\x1e")
        if len(parts) != len(cls._FIELDS) + 1 or parts[0] != cls.FORMAT:
            return None
        index = cls.__new__(cls)
        for name, field_text in zip(cls._FIELDS, parts[1:]):
            field = Field(field_text)
            if len(field) != size:
                return None
            setattr(index, name, field)
        return index

    @classmethod
    def from_bytes(cls, data: bytes, size: int) -> Index | None:
        """The index :meth:`to_text` wrote, as the UTF-8 bytes of the file, opened without
        reading it through: each field is a :class:`ScanField` over *data*; None as for
        :meth:`from_text`.  A search of it finds what one of :meth:`from_text` finds."""
        head = cls.FORMAT.encode() + b"\x1e"
        if not data.startswith(head) or data.count(b"\x1e") != len(cls._FIELDS):
            return None
        index = cls.__new__(cls)
        start = len(head)
        for name in cls._FIELDS:
            end = data.find(b"\x1e", start)
            field = ScanField(data, start, len(data) if end < 0 else end)
            if len(field) != size:
                return None
            setattr(index, name, field)
            start = end + 1
        return index

    # The word index of the data build (search-words.tsv): the papers of each word, so
    # that a query of whole words reads only their lines (from_words).
    def to_words(self) -> str:
        """Each folded word of every field on one line, in UTF-8 byte order, after a head
        line (``FORMAT`` and the number of papers): the word, then for each field of
        ``_FIELDS`` the papers whose field holds the word, as gaps (the first paper's
        number, then each one's distance from the one before), space-separated."""
        fields = [getattr(self, name).text.split(PAPER)[1:-1] for name in self._FIELDS]
        size = len(fields[0])
        postings: dict[str, list[list[int]]] = {}
        for column, pieces in enumerate(fields):
            for paper, piece in enumerate(pieces):
                for word in set(piece.split()) - {PERSON}:
                    rows = postings.get(word)
                    if rows is None:
                        rows = postings[word] = [[] for _ in self._FIELDS]
                    rows[column].append(paper)
        lines = [f"{self.FORMAT} words\t{size}\n"]
        for word in sorted(postings, key=lambda w: w.encode("utf-8")):
            cells = [" ".join(str(b - a) for a, b in zip([0, *papers], papers))
                     for papers in postings[word]]
            lines.append("\t".join([word, *cells]) + "\n")
        return "".join(lines)

    @classmethod
    def from_words(cls, data: bytes, size: int, scanned: Callable[[], Index]) -> Index | None:
        """The index :meth:`to_words` wrote, as the UTF-8 bytes of the file: each field a
        :class:`WordField`, which opens *scanned* (the index :meth:`to_text` wrote; it
        raises :class:`StaleIndex` if it cannot) for what words alone do not answer.  None
        if the file is of another format or for another number of papers."""
        if not data.startswith(f"{cls.FORMAT} words\t{size}\n".encode()):
            return None
        index = cls.__new__(cls)
        for column, name in enumerate(cls._FIELDS, 1):
            setattr(index, name, WordField(data, column, name, scanned))
        return index

    def author_papers(self, name: str) -> set[int]:
        """Papers with one person whose name holds every word of *name* (whole words, in
        any order, as written or joined up; a query ``ü`` also as ``ue``)."""
        check_query(name, "author")
        people: set[int] | None = None
        for spellings in _name_spellings(" ".join(dict.fromkeys(name.split()))):
            hits: set[int] = set()
            for token in spellings:
                hits |= self.authors.people(f" {token} ") | self.authors_joined.people(f" {token} ")
            people = hits if people is None else people & hits
            if not people:
                break   # no one has every word so far: later words cannot change that
        return {self.authors.paper_of_person(i) for i in people or ()}

    def _author_hits(self, spellings: list[list[str]]) -> set[int]:
        found: set[int] = set()
        for tokens in spellings:
            whole = _phrase(tokens, whole=True)
            found |= self.authors.papers(whole) | self.authors_joined.papers(whole)
        return found

    def rank(self, text: str) -> list[set[int]] | None:
        """Papers matching every word of *text*, by rank (title, authors, abstract, other);
        None when *text* has no words."""
        check_query(text, "query")
        tiers: list[set[int]] | None = None
        for word in dict.fromkeys(text.split()):   # a repeated word is searched once
            if tiers is not None and not tiers[3]:
                break   # no paper has every word so far: later words cannot change that
            tokens = words(word)
            if not tokens:
                continue
            prefix = _phrase(tokens)
            title = self.title.papers(prefix)
            authors = title | self._author_hits(_word_spellings(word, tokens))
            abstract = authors | self.abstract.papers(prefix)
            other = abstract | self.other.papers(prefix)
            found = [title, authors, abstract, other]
            tiers = found if tiers is None else [a & b for a, b in zip(tiers, found)]
        if tiers is None:
            return None
        return [tiers[0], *(tiers[i] - tiers[i - 1] for i in range(1, 4))]

    def title_prefix(self, prefix: str) -> set[int]:
        """Papers whose title starts with the words of *prefix* (the last one may be cut)."""
        tokens = words(prefix)
        return self.title.papers(_phrase(tokens, title_start=True)) if tokens else set()


def check_query(text: str, what: str) -> None:
    """A search *text* of a size a person types or pastes; UsageError otherwise."""
    if not isinstance(text, str):
        raise TypeError(f"the search {what} must be a str, not {type(text).__name__}")
    if len(text) > MAX_QUERY_CHARS:
        from .errors import UsageError

        raise UsageError(f"the search {what} has {len(text):,} characters; at most "
                         f"{MAX_QUERY_CHARS:,} are searched (a paper's whole abstract has fewer)")


# -- identifiers and URLs -------------------------------------------------
def identifier_candidates(query: str) -> Iterator[tuple[str, int | None]]:
    """Keys that *query* may stand for, each with the PMLR volume it names (or None).

    The identifiers are read by :mod:`icml2026.identifiers`, as import and fix read them."""
    from .identifiers import parse_arxiv, parse_doi, parse_openreview, parse_pmlr_url

    yield query, None
    yield query.lower(), None
    if arxiv := parse_arxiv(query):
        yield arxiv.id, None
        if arxiv.version:
            yield str(arxiv), None
    if (doi := parse_doi(query)) and doi != query:
        yield doi, None
    if "/" not in query:
        return
    if (openreview := parse_openreview(query)) and openreview != query:
        yield openreview, None
    if pmlr := parse_pmlr_url(query):
        yield pmlr.id, pmlr.volume


def url_key(url: str) -> str:
    """A URL without scheme, ``www.``, trailing slash or case: how links are compared."""
    from urllib.parse import urlsplit  # not at start-up: list and show need it only for a URL

    parts = urlsplit(url.strip() if "//" in url else "//" + url.strip())
    host = (parts.hostname or "").removeprefix("www.")
    rest = parts.path.rstrip("/") + (f"?{parts.query}" if parts.query else "")
    return host + rest.lower()
