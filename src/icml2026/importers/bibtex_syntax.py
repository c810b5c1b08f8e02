"""BibTeX syntax as BibTeX reads it: entries, then their fields, in linear time.

Two stages, both ours (bibtexparser 1.4, handed a whole file, cuts an entry at
a line starting with ``@`` inside a braced value and drops repeated fields and
text after an early ``}`` without a word):

* :func:`scan` finds the ``@type{…}`` blocks by counting braces, as BibTeX
  does.  One pass over the brace tokens settles where every block ends, so an
  unclosed block costs no re-scan: it is reported and scanning resumes at the
  next line that starts with ``@``.  Text after a block that looks like the
  rest of it (a ``}`` or ``name = {…}``) marks the block as closed early.
* :func:`parse_fields` reads one block: ``key, name = value # value, …`` with
  ``{…}``, ``"…"``, numbers and ``@string`` macros (BibTeX's month macros
  built in).  A repeated field, text between a value and the next comma, an
  undefined macro or an overlong value is an error of that entry only.

Limits (documented in the README): an input of at most :data:`MAX_INPUT_CHARS`
characters and field values of at most :data:`MAX_FIELD_CHARS` characters
(five times the longest abstract the schema accepts).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Container, Iterator, Mapping
from dataclasses import dataclass

from ..bibtex.syntax import HEADER as _HEADER
from ..bibtex.syntax import KEY as _KEY
from ..bibtex.syntax import MAX_FIELD_CHARS, MAX_INPUT_CHARS, MONTHS, resync, shown

__all__ = ["MAX_FIELD_CHARS", "MAX_INPUT_CHARS", "MONTHS", "FieldError", "RawEntry", "parse_fields", "scan",
           "shown", "string_macros"]

_TOKEN = re.compile(r"[{}()]|" + _HEADER.pattern)
_SPACE = re.compile(r"[ \t\r\n\f\v]*")
_NAME = re.compile(r"[^\s=,{}()\"#%'\\]+")
_NUMBER = re.compile(r"[0-9]+")
_BRACES = re.compile(r"[{}]")
_QUOTE_STOP = re.compile(r"[{}\"]")
_KEY_ONLY = re.compile(r"[ \t\r\n]*([^,\s{}()=\"#%'~\\]+)[ \t\r\n]*$")
# After a closed block, before the next one: a stray '}' or a field assignment is the rest of it
# (on the rest of the closing line, or on a later line that is not a '%' comment line).
_LEFTOVER_PART = re.compile(r"[A-Za-z][\w:.+-]*[ \t]*=[ \t]*[{\"0-9]|\}")
_LEFTOVER_LINE = re.compile(r"^(?![ \t]*%)[^\n]*?(?:[A-Za-z][\w:.+-]*[ \t]*=[ \t]*[{\"0-9]|\})", re.MULTILINE)


@dataclass(frozen=True, slots=True)
class RawEntry:
    """One ``@type{…}`` block as BibTeX delimits it."""

    kind: str
    key: str | None
    line: int
    text: str
    error: str | None = None  # the block never closes
    leftover: str | None = None  # text after its closing brace looks like more of it


def _block_ends(text: str, start: int) -> list[tuple[int, str, int, int]]:
    """(offset, kind, body start, end or -1) of every ``@type{``/``@type(`` from *start*, one pass.

    The global brace depth is counted once; a block opened at depth *d* ends
    at the ``}`` that returns to *d* (``(`` blocks: the ``)`` at depth *d*, and
    fail at a ``}`` below it).  Between blocks with nothing pending the text is
    skipped to the next ``@`` header without counting.
    """
    blocks: list[tuple[int, str, int, int]] = []
    ends: list[int] = []
    by_brace: dict[int, list[int]] = {}
    by_paren: dict[int, list[int]] = {}
    depth = pending = 0
    pos = start
    while True:
        if not pending:  # nothing open: only the next header matters
            found = _HEADER.search(text, pos)
            if found is None:
                break
            pos = found.start()
        match = _TOKEN.search(text, pos)
        if match is None:
            break
        pos = match.end()
        token = match.group(0)
        if token == "{":
            depth += 1
        elif token == "}":
            for index in by_paren.pop(depth, ()):
                pending -= 1
                ends[index] = -1
            depth -= 1
            for index in by_brace.pop(depth, ()):
                pending -= 1
                ends[index] = pos
        elif token == ")":
            for index in by_paren.pop(depth, ()):
                pending -= 1
                ends[index] = pos
        elif token != "(":
            index = len(blocks)
            blocks.append((match.start(), match.group(1).lower(), pos, -1))
            ends.append(-1)
            pending += 1
            if match.group(2) == "{":
                by_brace.setdefault(depth, []).append(index)
                depth += 1
            else:
                by_paren.setdefault(depth, []).append(index)
    return [(at, kind, body, end) for (at, kind, body, _), end in zip(blocks, ends)]


def scan(text: str) -> Iterator[RawEntry]:
    """The ``@`` blocks of *text*, each with its first line; unclosed blocks carry an error."""
    blocks = _block_ends(text, 0)
    pos, line, counted, n = 0, 1, 0, 0
    while n < len(blocks):
        at, kind, body, end = blocks[n]
        n += 1
        if at < pos:
            continue  # inside the previous block
        line += text.count("\n", counted, at)
        counted = at
        key = _key_of(text, body)
        if end < 0:
            stop = resync(text, body)
            yield RawEntry(kind, key, line, text[at:stop], "unbalanced braces: the entry never closes")
            pos = stop
            continue
        following = blocks[n][0] if n < len(blocks) else len(text)
        while n < len(blocks) and blocks[n][0] < end:
            n += 1
            following = blocks[n][0] if n < len(blocks) else len(text)
        yield RawEntry(kind, key, line, text[at:end], leftover=_leftover(text, end, following, kind))
        pos = end


def _leftover(text: str, end: int, following: int, kind: str) -> str | None:
    """An error when the text after a closed paper block looks like more of it."""
    if kind in ("comment", "preamble"):
        return None
    newline = text.find("\n", end, following)
    line_end = newline if newline >= 0 else following
    same_line = text[end:line_end].lstrip(" \t")
    bad = (not same_line.startswith("%") and _LEFTOVER_PART.search(same_line)) or \
        _LEFTOVER_LINE.search(text, line_end, following)
    if not bad:
        return None
    rest = text[end:following].strip()
    return f"text after the entry's closing brace ({shown(rest)}): a '}}' or ')' closes the entry early"


def _skip(text: str, pos: int) -> int:
    """The offset after the whitespace at *pos*."""
    match = _SPACE.match(text, pos)
    return match.end() if match else pos


def _key_of(text: str, start: int) -> str | None:
    match = _KEY.match(text, start)
    return match.group(1) if match else None


# --------------------------------------------------------------------------- fields

class FieldError(Exception):
    """A syntax error inside one entry; ``str()`` is a short reason."""


def parse_fields(entry: RawEntry, macros: Mapping[str, str],
                 used: Container[str] | None = None) -> dict[str, str]:
    """Fields of one closed *entry* (``ID`` and ``ENTRYTYPE`` included), names lower case.

    Values are NFC text with the outer delimiters removed and ``#`` parts
    joined.  Raises :class:`FieldError` for anything BibTeX would not read as
    one clean entry.  An undefined macro is an error in the fields *used*
    (default: all) and, as BibTeX has it, empty text in the others.
    """
    text = entry.text
    head = _HEADER.match(text)
    if head is None:
        raise FieldError("not an entry")
    closer = "}" if head.group(2) == "{" else ")"
    body_end = len(text) - 1  # the scanner ends a closed block at its delimiter
    pos = head.end()
    key = _KEY.match(text, pos) or _KEY_ONLY.match(text, pos, body_end)
    if key is None:
        raise FieldError("the entry has no citation key")
    fields: dict[str, str] = {"ENTRYTYPE": head.group(1).lower(), "ID": key.group(1)}
    strict = (lambda name: True) if used is None else used.__contains__
    for name, value in _assignments(text, key.end(), body_end, macros, "field", strict, separated=True):
        if name in fields:
            raise FieldError(f"field {shown(name)} is given twice")
        if len(value) > MAX_FIELD_CHARS:
            raise FieldError(f"field {name} is {len(value)} characters long; at most {MAX_FIELD_CHARS} are read")
        fields[name] = unicodedata.normalize("NFC", value) if not value.isascii() else value
    if text[body_end] != closer:
        raise FieldError("the entry does not end with its closing delimiter")
    return fields


def _value(text: str, pos: int, end: int, macros: Mapping[str, str], name: str,
           strict: bool = True) -> tuple[str, int]:
    """The value starting at *pos* (parts joined by ``#``) and the offset after it."""
    parts: list[str] = []
    while True:
        pos = _skip(text, pos)
        if pos >= end:
            raise FieldError(f"field {name} has no value")
        ch = text[pos]
        if ch == "{":
            close = _braced_end(text, pos + 1, end)
            parts.append(text[pos + 1:close])
            pos = close + 1
        elif ch == '"':
            close = _quoted_end(text, pos + 1, end)
            parts.append(text[pos + 1:close])
            pos = close + 1
        elif (number := _NUMBER.match(text, pos)) is not None:
            parts.append(number.group(0))
            pos = number.end()
        elif (macro := _NAME.match(text, pos)) is not None:
            word = macro.group(0).lower()
            if word in macros:
                parts.append(macros[word])
            elif word in MONTHS:
                parts.append(MONTHS[word])
            elif not strict:
                parts.append("")
            else:
                raise FieldError(f"field {name} uses the undefined @string macro {shown(macro.group(0))}")
            pos = macro.end()
        else:
            raise FieldError(f"field {name} has no value")
        after = _skip(text, pos)
        if after < end and text[after] == "#":
            pos = after + 1
            continue
        return "".join(parts), pos


def _braced_end(text: str, pos: int, end: int) -> int:
    """Offset of the ``}`` closing the group opened just before *pos*."""
    depth = 0
    for match in _BRACES.finditer(text, pos, end):
        if match.group(0) == "{":
            depth += 1
        elif depth == 0:
            return match.start()
        else:
            depth -= 1
    raise FieldError("unbalanced braces in a field value")


def _quoted_end(text: str, pos: int, end: int) -> int:
    """Offset of the ``"`` ending a quoted value (at brace depth 0)."""
    depth = 0
    for match in _QUOTE_STOP.finditer(text, pos, end):
        ch = match.group(0)
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth < 0:
                raise FieldError("unbalanced braces in a quoted field value")
        elif depth == 0:
            return match.start()
    raise FieldError("a quoted field value never closes")


def string_macros(entry: RawEntry, macros: dict[str, str]) -> None:
    """Add the definitions of an ``@string`` *entry* to *macros* (BibTeX: in file order)."""
    text = entry.text
    head = _HEADER.match(text)
    if head is None or entry.error or entry.leftover:
        raise FieldError(entry.error or entry.leftover or "not an entry")
    for name, value in _assignments(text, head.end(), len(text) - 1, macros, "macro", lambda name: True,
                                    separated=False):
        macros[name] = value


def _assignments(text: str, pos: int, end: int, macros: Mapping[str, str], what: str,
                 strict: Callable[[str], bool], *, separated: bool) -> Iterator[tuple[str, str]]:
    """The ``name = value`` pairs of an entry or ``@string`` from *pos* to *end*, names lower case.

    *what* ("field", "macro") names them in errors; *strict(name)* says whether an undefined
    macro in that value is an error; *separated*: text between two pairs other than a comma
    is an error (BibTeX's ``@string`` tolerates a missing comma).
    """
    while True:
        pos = _skip(text, pos)
        if pos >= end:
            return
        name_match = _NAME.match(text, pos)
        if name_match is None:
            raise FieldError(f"expected a {what} name at {shown(text[pos:end])}")
        name = name_match.group(0).lower()
        pos = _skip(text, name_match.end())
        if not text.startswith("=", pos):
            raise FieldError(f"expected '=' after {what} name {shown(name_match.group(0))}")
        value, pos = _value(text, pos + 1, end, macros, name, strict(name))
        yield name, value
        pos = _skip(text, pos)
        if pos >= end:
            return
        if text[pos] == ",":
            pos += 1
        elif separated:
            raise FieldError(f"text after the value of {what} {name}: {shown(text[pos:end])}")
