"""The one BibTeX scanner: every ``@`` block of a text, with its offsets, key, line and fields.

    >>> blocks = scan(text, IMPORT)          # or FIX (the default), OUTLINE
    >>> [(b.kind, b.key, b.line, b.error) for b in blocks]
    >>> b.fields[0].value, b.fields[0].raw_value, text[b.fields[0].start:b.fields[0].end]

The import, ``fix`` and ``check`` read through it; where they read a file differently it is
the :class:`~icml2026.bibtex.syntax.Policy` they pass (the table of
:mod:`icml2026.bibtex.syntax`).  Reading is linear in the text:

* Where every block ends is settled in one pass over the brace tokens, as BibTeX counts
  braces (a block opened at depth *d* ends at the ``}`` that returns to *d*), so an
  unclosed block costs no re-scan: it is reported and reading resumes at the next line that
  starts with ``@``.  An ``@type(…)`` entry ends at the ``)`` after its last field.
* Fields are read by a small hand-written parser (bibtexparser 1.4 is too slow for a
  volume, and cuts an entry at a line starting with ``@`` inside a braced value): ``key,
  name = value # value, …`` with ``{…}``, ``"…"``, numbers and ``@string`` macros
  (plain.bst's months built in; macros apply to the blocks after them).  Each
  :class:`Field` keeps its value's source text and span, so a fixer copies a kept field
  byte for byte, and its resolved value (delimiters removed, ``#`` parts joined, NFC).
* Errors are data: a block that cannot be read carries its :attr:`Block.error` (a short
  reason) and no fields; the blocks after it are read as if it were not there.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from dataclasses import field as _attribute

from .syntax import FIX, HEADER, KEY, KEY_ONLY, MAX_DEPTH, MONTHS, NAME, Policy, resync, shown

__all__ = ["UNCLOSED", "Block", "Field", "scan"]

UNCLOSED = "unbalanced braces: the entry never closes"
NOT_ENTRIES = frozenset({"comment", "preamble", "string"})  # blocks that are no entry

_TOKEN = re.compile(r"[{}()]|" + HEADER.pattern)
_SPACE = re.compile(r"[ \t\r\n\f\v]*")
_NUMBER = re.compile(r"[0-9]+")
_WS = r"[ \t\r\n\f\v]*"
# The common field, read in one match: a name, '=', a braced value at most two braces deep or
# a number, and a comma unless it is the last field.
_SIMPLE = re.compile(f"(?P<name>{NAME.pattern}){_WS}={_WS}"
                     r"(?P<raw>\{(?P<braced>(?:[^{}]++|\{[^{}]*+\})*+)\}|(?P<number>[0-9]++)(?![^\s,#})]))"
                     f"{_WS}(?P<comma>,?)")
_BRACES = re.compile(r"[{}]")
_BRACES_QUOTE = re.compile(r'[{}"]')
_COMMENT_LINE = re.compile(r"\s*%")  # an '@' after this on its line is commented out
_LINE_END = re.compile(r"\n")
# After a closed block, before the next one: a stray '}' or a field assignment is the rest of it
# (on the rest of the closing line, or on a later line that is not a '%' comment line).
_LEFTOVER_PART = re.compile(r"[A-Za-z][\w:.+-]*[ \t]*=[ \t]*[{\"0-9]|\}")
_LEFTOVER_LINE = re.compile(r"^(?![ \t]*%)[^\n]*?(?:[A-Za-z][\w:.+-]*[ \t]*=[ \t]*[{\"0-9]|\})", re.MULTILINE)


@dataclass(frozen=True, slots=True)
class Field:
    """One ``name = value`` of a block: the name as written and lower-cased, the value's
    source text (``{…}``, ``"…"``, a number, a macro, or a ``#`` concatenation), its
    resolved text, and where the source text is (``text[start:end]``; 0, 0 for a field
    that comes from no BibTeX text, such as a CSL-JSON item's)."""

    name: str
    raw_name: str
    raw_value: str
    value: str
    start: int = 0
    end: int = 0


@dataclass(frozen=True, slots=True)
class Block:
    """An ``@`` block: ``source[start:end]`` is its whole text (:attr:`text`).

    *kind* is the entry type in lower case; *key* the citation key (None for ``@string``,
    ``@comment``, ``@preamble`` and an entry without one); *line* the line of its ``@``;
    *error* why it cannot be read (then it has no fields)."""

    kind: str
    start: int
    end: int
    line: int
    key: str | None
    fields: tuple[Field, ...] = ()
    error: str | None = None
    source: str = _attribute(default="", repr=False, compare=False)

    @property
    def text(self) -> str:
        """The block's source text."""
        return self.source[self.start:self.end]

    @property
    def unclosed(self) -> bool:
        """Whether the block never closes (it runs to the next line starting with ``@``)."""
        return self.error == UNCLOSED

    def get(self, name: str) -> str:
        """The resolved value of the first field *name* (lower case), or ``""``."""
        for item in self.fields:
            if item.name == name:
                return item.value
        return ""

    def has(self, name: str) -> bool:
        return any(item.name == name for item in self.fields)


class _Bad(Exception):
    """A syntax error inside one block; ``str()`` is the reason."""


def scan(text: str, policy: Policy = FIX) -> list[Block]:
    """Every ``@`` block of *text* in file order, read under *policy*."""
    outline = _outline(text)
    out: list[Block] = []
    macros: dict[str, str] = {}
    lines = None if policy.commented_entries else _LineStarts(text)
    pos, line, counted, n = 0, 1, 0, 0
    while n < len(outline):
        at, kind, body, end = outline[n]
        n += 1
        if at < pos:
            continue  # inside the previous block
        if lines is not None and _COMMENT_LINE.match(text, lines.start_of(at), at):
            pos = _end_of_line(text, at)
            continue
        if text[body - 1] == "(" and kind != "comment":
            by_fields = _paren_end(text, kind, body)
            if by_fields >= 0:
                end = by_fields
        line += text.count("\n", counted, at)
        counted = at
        if end < 0:
            stop = resync(text, body)
            out.append(Block(kind, at, stop, line, _key_of(text, body), error=UNCLOSED, source=text))
            pos = stop
            continue
        while n < len(outline) and outline[n][0] < end:
            n += 1
        pos = end
        leftover = None
        if policy.leftover_error and kind not in ("comment", "preamble"):
            leftover = _leftover(text, end, outline[n][0] if n < len(outline) else len(text))
        out.append(_read(text, kind, at, body, end, line, macros, policy, leftover))
    return out


def _outline(text: str) -> list[tuple[int, str, int, int]]:
    """(offset, kind, body start, end or -1) of every ``@type{``/``@type(``, in one pass.

    The global brace depth is counted once; a block opened at depth *d* ends at the ``}``
    that returns to *d* (``(`` blocks: the ``)`` at depth *d*, and fail at a ``}`` below
    it).  Between blocks with nothing pending the text is skipped to the next ``@``
    header without counting.
    """
    blocks: list[tuple[int, str, int, int]] = []
    ends: list[int] = []
    by_brace: dict[int, list[int]] = {}
    by_paren: dict[int, list[int]] = {}
    depth = pending = 0
    pos = 0
    while True:
        if not pending:  # nothing open: only the next header matters
            found = HEADER.search(text, pos)
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


def _leftover(text: str, end: int, following: int) -> str | None:
    """An error when the text after a closed block, up to the next one, looks like more of it."""
    newline = text.find("\n", end, following)
    line_end = newline if newline >= 0 else following
    same_line = text[end:line_end].lstrip(" \t")
    bad = (not same_line.startswith("%") and _LEFTOVER_PART.search(same_line)) or \
        _LEFTOVER_LINE.search(text, line_end, following)
    if not bad:
        return None
    rest = text[end:following].strip()
    return f"text after the entry's closing brace ({shown(rest)}): a '}}' or ')' closes the entry early"


def _key_of(text: str, start: int) -> str | None:
    match = KEY.match(text, start)
    return match.group(1) if match else None


def _paren_end(text: str, kind: str, body: int) -> int:
    """The offset after the ``)`` closing ``@type(…``: found by reading the fields, since a
    ``)`` inside a quoted value (``"… (M)LLMs …"``) does not close the entry; -1 if unreadable."""
    stop = len(text)
    try:
        if kind == "preamble":
            pos = _value(text, _skip(text, body, stop), stop, {}, "preamble", False)[1]
        else:
            pos = body
            if kind != "string":
                key = KEY.match(text, body)
                if key is None:
                    return -1
                pos = key.end()
            pos = _fields(text, pos, stop, {}, FIX, [], "field", closer=")")
        pos = _skip(text, pos, stop)
    except _Bad:
        return -1
    return pos + 1 if text.startswith(")", pos) else -1


def _read(text: str, kind: str, at: int, body: int, end: int, line: int, macros: dict[str, str],
          policy: Policy, leftover: str | None) -> Block:
    """The closed block ``text[at:end]`` read: its key and fields, or its error."""
    if kind in ("comment", "preamble"):
        return Block(kind, at, end, line, None, source=text)
    inner = end - 1  # the closing delimiter
    if kind == "string":
        if leftover is not None:
            return Block(kind, at, end, line, None, error=leftover, source=text)
        found: list[Field] = []
        error = None
        if policy.read_fields:
            try:
                _fields(text, body, inner, macros, policy, found, "macro")
            except _Bad as exc:
                error = str(exc)
            for item in found:  # those read before an error are defined, as BibTeX reads on
                macros[item.name] = item.value
        return Block(kind, at, end, line, None, tuple(found), error, text)
    key = KEY.match(text, body, inner)
    if key is None:
        only = KEY_ONLY.match(text, body, inner)
        if only is not None:  # ``@misc{key}``: a key, no fields
            return Block(kind, at, end, line, only.group(1), error=leftover, source=text)
        return Block(kind, at, end, line, None, error=leftover or "the entry has no citation key", source=text)
    if leftover is not None or not policy.read_fields:
        return Block(kind, at, end, line, key.group(1), error=leftover, source=text)
    found = []
    try:
        _fields(text, key.end(), inner, macros, policy, found, "field")
    except _Bad as exc:
        return Block(kind, at, end, line, key.group(1), error=str(exc), source=text)
    return Block(kind, at, end, line, key.group(1), tuple(found), None, text)


def _skip(text: str, pos: int, stop: int) -> int:
    """The offset after the whitespace at *pos*."""
    return _SPACE.match(text, pos, stop).end()  # type: ignore[union-attr]  # matches the empty string


def _fields(text: str, pos: int, stop: int, macros: dict[str, str], policy: Policy, found: list[Field],
            what: str, closer: str | None = None) -> int:
    """Read the ``name = value`` pairs from *pos* to *stop* (or to *closer* where a name or a
    comma is due) into *found*; the offset where reading stopped.  *what*: ``field`` or
    ``macro`` (an ``@string``), for messages and the policy."""
    errors = policy.macro_errors
    every_strict = what == "macro" and errors is not None
    seen: set[str] | None = set() if policy.repeated_field_error and what == "field" else None
    limit = policy.max_value if what == "field" else None
    simple = _SIMPLE.match
    while True:
        pos = _skip(text, pos, stop)
        if pos >= stop or text[pos] == closer:
            return pos
        fast = simple(text, pos, stop)
        if fast is not None and not (fast.group("comma") or fast.end() >= stop or text[fast.end()] == closer):
            fast = None  # ``# part`` or something else follows: read by the general path
        if fast is not None:
            # ``name = {text}`` (braces at most two deep) or ``name = 2024``, then a comma or the end
            raw_name, braced, number = fast.group("name", "braced", "number")
            name = raw_name.lower()
            value = number if braced is None else braced
            start, end = fast.span("raw")
        else:
            name_match = NAME.match(text, pos, stop)
            if name_match is None:
                raise _Bad(f"expected a {what} name at {shown(text[pos:stop])}")
            raw_name = name_match.group(0)
            name = raw_name.lower()
            pos = _skip(text, name_match.end(), stop)
            if pos >= stop or text[pos] != "=":
                raise _Bad(f"expected '=' after {what} name {shown(raw_name)}")
            start = _skip(text, pos + 1, stop)
            strict = every_strict or (errors is not None and name in errors)
            value, end = _value(text, start, stop, macros, name, strict)
        if seen is not None:
            if name in seen:
                raise _Bad(f"field {shown(name)} is given twice")
            seen.add(name)
        if limit is not None and len(value) > limit:
            raise _Bad(f"field {name} is {len(value)} characters long; at most {limit} are read")
        if not value.isascii():
            value = unicodedata.normalize("NFC", value)
        found.append(Field(name, raw_name, text[start:end], value, start, end))
        if fast is not None:  # read through its comma already
            pos = fast.end()
            continue
        pos = _skip(text, end, stop)
        if pos >= stop or text[pos] == closer:
            return pos
        if text[pos] != ",":
            raise _Bad(f"text after the value of {what} {name}: {shown(text[pos:stop])}")
        pos += 1


def _value(text: str, pos: int, stop: int, macros: dict[str, str], name: str,
           strict: bool) -> tuple[str, int]:
    """The value starting at *pos* (parts joined by ``#``) and the offset after it.  An
    undefined macro is an error when *strict*, else empty text."""
    parts: list[str] = []
    while True:
        if pos >= stop:
            raise _Bad(f"field {name} has no value")
        ch = text[pos]
        if ch == "{":
            close = _balanced(text, pos + 1, stop, "}")
            parts.append(text[pos + 1:close])
            pos = close + 1
        elif ch == '"':
            close = _balanced(text, pos + 1, stop, '"')
            parts.append(text[pos + 1:close])
            pos = close + 1
        elif (number := _NUMBER.match(text, pos, stop)) is not None:
            parts.append(number.group(0))
            pos = number.end()
        elif (macro := NAME.match(text, pos, stop)) is not None:
            word = macro.group(0).lower()
            if word in macros:
                parts.append(macros[word])
            elif word in MONTHS:
                parts.append(MONTHS[word])
            elif strict:
                raise _Bad(f"field {name} uses the undefined @string macro {shown(macro.group(0))}")
            pos = macro.end()
        else:
            raise _Bad(f"field {name} has no value")
        after = _skip(text, pos, stop)
        if after < stop and text[after] == "#":
            pos = _skip(text, after + 1, stop)
            continue
        return "".join(parts), pos


def _balanced(text: str, start: int, stop: int, closer: str) -> int:
    """Offset of *closer* (``}`` or ``"``) at brace depth 0 from *start*; a ``"`` inside
    braces does not close a quoted value."""
    depth = 0
    for match in (_BRACES if closer == "}" else _BRACES_QUOTE).finditer(text, start, stop):
        ch = match.group()
        if ch == "{":
            depth += 1
            if depth > MAX_DEPTH:
                raise _Bad(f"braces nested more than {MAX_DEPTH} levels deep")
        elif ch == "}":
            if depth == 0:
                if closer == "}":
                    return match.start()
                raise _Bad("unbalanced braces in a quoted field value")
            depth -= 1
        elif depth == 0:  # a '"' outside braces
            return match.start()
    raise _Bad("unbalanced braces in a field value" if closer == "}" else "a quoted field value never closes")
