"""Locating the entries of a user's ``.bib`` and reading their fields, with exact offsets.

The fixer must keep every byte it does not replace, so it cannot round-trip the
file through a parser that rewrites it.  This module reads the file the way
BibTeX does — an entry is ``@type{…}`` or ``@type(…)``, delimited by brace
counting, and everything between entries is ignored text — and reports, for
each block, where it starts and ends.  Fields are read by a small hand-written
parser (bibtexparser 1.4 is too slow for 2,000 entries in well under a second)
that keeps each value's source text, so fields the fixer keeps are copied
verbatim, and resolves ``@string`` macros and ``#`` concatenation for matching.

Two deliberate differences from BibTeX, both so that the fixer never rewrites
what the user meant as a comment: an ``@`` on a line whose first non-blank
character is ``%`` is not an entry, and ``@comment{…}`` is skipped as a whole
brace-balanced block (as biber and bibtexparser read it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..bibtex.syntax import HEADER as _HEADER
from ..bibtex.syntax import KEY as _KEY
from ..bibtex.syntax import MONTHS, resync

_NAME = re.compile(r"[ \t\r\n]*([A-Za-z_][^\s=,{}()\"#%'\\]*)[ \t\r\n]*=[ \t\r\n]*")
_SPACE = re.compile(r"[ \t\r\n]*")
_BARE = re.compile(r"[^\s,#{}()\"=%]+")
_LINE_END = re.compile(r"\n")
_COMMENT_LINE = re.compile(r"\s*%")  # an '@' after this on its line is commented out
_BRACES = re.compile(r"[{}]")
_BRACES_QUOTE = re.compile(r'[{}"]')
_DELIMITERS = re.compile(r"[{}()]")
# Braces nested deeper than this make the entry unreadable: no real title needs it, and the
# LaTeX decoder behind matching recurses once per level.
MAX_DEPTH = 40


@dataclass(frozen=True, slots=True)
class Field:
    """One ``name = value`` of an entry: the name as written and lower-cased, the value's
    source text (``{…}``, ``"…"``, a number, a macro, or a ``#`` concatenation) and its
    resolved text (delimiters removed, macros expanded)."""

    name: str
    raw_name: str
    raw_value: str
    value: str


@dataclass(frozen=True, slots=True)
class Block:
    """An ``@`` block: ``text[start:end]`` is its whole source text."""

    kind: str  # entry type, lower case
    start: int
    end: int
    line: int
    key: str | None
    fields: tuple[Field, ...] = ()
    error: str | None = None

    def get(self, name: str) -> str:
        """The resolved value of the first field *name* (lower case), or ``""``."""
        for item in self.fields:
            if item.name == name:
                return item.value
        return ""

    def has(self, name: str) -> bool:
        return any(item.name == name for item in self.fields)


@dataclass
class _Cursor:
    text: str
    pos: int
    macros: dict[str, str] = field(default_factory=dict)


class _SyntaxError(Exception):
    pass


def blocks(text: str) -> list[Block]:
    """Every ``@`` block of *text* in order; ``@string`` macros apply to the blocks after them."""
    out: list[Block] = []
    macros: dict[str, str] = dict(MONTHS)
    pos, line, counted = 0, 1, 0
    lines = _LineStarts(text)
    while True:
        at = text.find("@", pos)
        if at < 0:
            return out
        if _COMMENT_LINE.match(text, lines.start_of(at), at):
            pos = _end_of_line(text, at)
            continue
        match = _HEADER.match(text, at)
        if match is None:
            pos = at + 1
            continue
        line += text.count("\n", counted, at)
        counted = at
        kind = match.group(1).lower()
        end = -1
        if match.group(2) == "(" and kind != "comment":
            end = _paren_end(text, kind, match.end())
        if end < 0:
            end = _block_end(text, match.end(), match.group(2))
        if end < 0:
            stop = resync(text, match.end())
            out.append(Block(kind, at, stop, line, None, error="unbalanced braces: the entry never closes"))
            pos = stop
            continue
        out.append(_read_block(text, kind, at, match.end(), end, line, macros))
        pos = end


class _LineStarts:
    """Where the line of an offset starts, for offsets that only grow: each character is
    looked at once, so a file on one line costs no more than one with line breaks."""

    def __init__(self, text: str) -> None:
        self.text, self.scanned, self.start = text, 0, 0

    def start_of(self, offset: int) -> int:
        newline = self.text.rfind("\n", self.scanned, offset)
        if newline >= 0:
            self.start = newline + 1
        self.scanned = max(self.scanned, offset)
        return self.start


def _end_of_line(text: str, pos: int) -> int:
    match = _LINE_END.search(text, pos)
    return match.end() if match else len(text)


def _block_end(text: str, start: int, opener: str) -> int:
    """Index after the delimiter that closes the block opened just before *start*, or -1."""
    depth = 0
    closer = "}" if opener == "{" else ")"
    for match in _DELIMITERS.finditer(text, start):
        ch = match.group()
        if ch == "{":
            depth += 1
        elif ch == "}":
            if depth == 0:
                return match.end() if closer == "}" else -1
            depth -= 1
        elif ch == closer and depth == 0:
            return match.end()
    return -1


def _paren_end(text: str, kind: str, body: int) -> int:
    """Index after the ``)`` closing ``@type(…``: found by reading the fields, since a ``)``
    inside a quoted value (``"… (M)LLMs …"``) does not close the entry; -1 if unreadable."""
    cursor = _Cursor(text, body)
    try:
        if kind == "preamble":
            cursor.pos = _SPACE.match(text, body).end()  # type: ignore[union-attr]
            _value(cursor, len(text))
        else:
            if kind != "string":
                key = _KEY.match(text, body)
                if key is None:
                    return -1
                cursor.pos = key.end()
            _fields(cursor, len(text), closer=")")
        cursor.pos = _SPACE.match(text, cursor.pos).end()  # type: ignore[union-attr]
    except _SyntaxError:
        return -1
    return cursor.pos + 1 if text.startswith(")", cursor.pos) else -1


def _read_block(text: str, kind: str, at: int, body: int, end: int, line: int,
                macros: dict[str, str]) -> Block:
    if kind in ("comment", "preamble"):
        return Block(kind, at, end, line, None)
    cursor = _Cursor(text, body, macros)
    inner_end = end - 1  # the closing delimiter
    try:
        if kind == "string":
            fields = _fields(cursor, inner_end)
            for item in fields:
                macros[item.name] = item.value
            return Block(kind, at, end, line, None, tuple(fields))
        key_match = _KEY.match(text, body, inner_end)
        if key_match is None:
            rest = text[body:inner_end].strip()
            if rest and "=" not in rest and "," not in rest:  # ``@misc{key}``: a key, no fields
                return Block(kind, at, end, line, rest)
            raise _SyntaxError("no citation key")
        cursor.pos = key_match.end()
        return Block(kind, at, end, line, key_match.group(1), tuple(_fields(cursor, inner_end)))
    except _SyntaxError as exc:
        key = key_match.group(1) if kind != "string" and key_match else None
        return Block(kind, at, end, line, key, error=f"cannot be parsed: {exc}")


def _fields(cursor: _Cursor, stop: int, closer: str | None = None) -> list[Field]:
    """The fields up to *stop* (or up to *closer* at the place of a field: ``)`` entries)."""
    fields: list[Field] = []
    text = cursor.text
    while True:
        cursor.pos = _SPACE.match(text, cursor.pos, stop).end()  # type: ignore[union-attr]
        if cursor.pos >= stop or text[cursor.pos] == closer:
            return fields
        name = _NAME.match(text, cursor.pos, stop)
        if name is None:
            raise _SyntaxError(f"expected a field name at {_snippet(text, cursor.pos)!r}")
        cursor.pos = name.end()
        value_start = cursor.pos
        value = _value(cursor, stop)
        raw = text[value_start:cursor.pos].rstrip(" \t\r\n")
        fields.append(Field(name.group(1).lower(), name.group(1), raw, value))
        cursor.pos = _SPACE.match(text, cursor.pos, stop).end()  # type: ignore[union-attr]
        if cursor.pos < stop and text[cursor.pos] != closer:
            if text[cursor.pos] != ",":
                raise _SyntaxError(f"expected ',' at {_snippet(text, cursor.pos)!r}")
            cursor.pos += 1


def _value(cursor: _Cursor, stop: int) -> str:
    """A value (``part # part …``), resolved; *cursor* ends after its last part."""
    text = cursor.text
    parts = []
    while True:
        parts.append(_part(cursor, stop))
        after = _SPACE.match(text, cursor.pos, stop).end()  # type: ignore[union-attr]
        if after < stop and text[after] == "#":
            cursor.pos = _SPACE.match(text, after + 1, stop).end()  # type: ignore[union-attr]
            continue
        return "".join(parts)


def _part(cursor: _Cursor, stop: int) -> str:
    text, pos = cursor.text, cursor.pos
    if pos >= stop:
        raise _SyntaxError("a field has no value")
    ch = text[pos]
    if ch == "{":
        end = _balanced(text, pos + 1, stop, "}")
        cursor.pos = end + 1
        return text[pos + 1:end]
    if ch == '"':
        end = _balanced(text, pos + 1, stop, '"')
        cursor.pos = end + 1
        return text[pos + 1:end]
    bare = _BARE.match(text, pos, stop)
    if bare is None:
        raise _SyntaxError(f"unexpected {_snippet(text, pos)!r}")
    cursor.pos = bare.end()
    word = bare.group()
    return word if word.isdigit() else cursor.macros.get(word.lower(), "")


def _balanced(text: str, start: int, stop: int, closer: str) -> int:
    """Index of *closer* at brace depth 0 from *start* (a ``"`` inside braces does not close)."""
    depth = 0
    for match in (_BRACES if closer == "}" else _BRACES_QUOTE).finditer(text, start, stop):
        ch = match.group()
        if ch == "{":
            depth += 1
            if depth > MAX_DEPTH:
                raise _SyntaxError(f"braces nested more than {MAX_DEPTH} levels deep")
        elif ch == "}":
            if depth == 0:
                if closer == "}":
                    return match.start()
                raise _SyntaxError("unbalanced braces in a quoted value")
            depth -= 1
        elif depth == 0:  # a '"' outside braces
            return match.start()
    raise _SyntaxError("a value never closes")


def _snippet(text: str, pos: int) -> str:
    return text[pos:pos + 20].split("\n")[0]
