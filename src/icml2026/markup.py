"""The inline markup used in titles and abstracts.

Titles and abstracts are stored as Unicode text with three pieces of markup,
chosen because the seed document and PMLR already write abstracts this way:

* ``$…$`` — inline LaTeX math, kept verbatim (``$O(|\\mu - \\alpha|^2)$``).
* ``*…*`` — emphasis (the seed's ``*OpenDeception*``; PMLR's ``<em>``).
* ``\\`` escapes: ``\\$``, ``\\*`` and ``\\\\`` stand for the literal character;
  ``\\%`` stands for ``%`` because the seed abstracts write percentages that way.
  A backslash before any other character is a literal backslash.

Everything else is literal text: ``%``, ``&``, ``_``, ``{``, ``#`` need no
escaping here; each exporter escapes for its own format.  :func:`parse` turns a
marked-up string into :class:`Segment` values, which exporters render;
:func:`tokens` gives the same reading with source offsets, for renderers that map
ranges of the source (protected title words) onto their output.  This module is the
only reader of the grammar: the patterns below are what every other module uses.
"""

from __future__ import annotations

import re

from ._record import Record

TYPE_CHECKING = False  # typing is not imported at run time (start-up)
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from typing import Literal

ESCAPABLE = frozenset("\\$*%")
_MARKUP_CHARS = frozenset("\\$*")

if TYPE_CHECKING:
    SegmentKind = Literal["text", "math"]
_set = object.__setattr__


class MarkupError(ValueError):
    """A marked-up string is malformed (an unclosed ``$`` or ``*``)."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(f"{message} at character {offset}")
        self.offset = offset


class Segment(Record):
    """A run of text or math; ``emph`` is true inside ``*…*``."""

    __slots__ = ("kind", "value", "emph")
    kind: SegmentKind
    value: str
    emph: bool

    def __init__(self, kind: SegmentKind, value: str, emph: bool = False) -> None:
        _set(self, "kind", kind)
        _set(self, "value", value)
        _set(self, "emph", emph)


class Token(Record):
    """One token of the grammar with its place in the source: ``source[start:end]``.

    A text token is a run of literal characters (its value is that slice), or one
    escaped character (value one character, two of source); a math token's value is
    the LaTeX between its dollars.  Emphasis toggles (``*``) are not tokens: they set
    ``emph`` on the tokens that follow.
    """

    __slots__ = ("kind", "value", "emph", "start", "end")
    kind: SegmentKind
    value: str
    emph: bool
    start: int
    end: int

    def __init__(self, kind: SegmentKind, value: str, emph: bool, start: int, end: int) -> None:
        _set(self, "kind", kind)
        _set(self, "value", value)
        _set(self, "emph", emph)
        _set(self, "start", start)
        _set(self, "end", end)

    def offsets(self) -> Sequence[int]:
        """The source offset of each character of a text token (an escape's is its backslash)."""
        if self.end - self.start == len(self.value):
            return range(self.start, self.end)
        return (self.start,)


# The grammar, once.  Every reader of markup uses these patterns: the tokenizer below,
# the one-pass plain-text writer (exporters/plain.py) and the validator's quick scan.
ESCAPE_PATTERN = r"\\[\\$*%]"
MATH_PATTERN = r"\$(?:\\.|[^\\$])*\$"
_TOKEN = re.compile(
    rf"(?P<text>[^\\$*]+)|(?P<escape>{ESCAPE_PATTERN})|(?P<backslash>\\)"
    rf"|(?P<math>{MATH_PATTERN})|(?P<dollar>\$)|(?P<star>\*)",
    re.DOTALL,
)
# The tokens that are not literal text, for substitution in one pass.  Every alternative
# starts with a literal, so the regex engine skips plain text by a first-character set.
NOT_TEXT = re.compile(rf"{ESCAPE_PATTERN}|{MATH_PATTERN}|\$|\*", re.DOTALL)
# The tokens that can hold '$' or '*' without being markup errors.
MATH_OR_ESCAPE = re.compile(rf"{ESCAPE_PATTERN}|{MATH_PATTERN}", re.DOTALL)
_MATH = re.compile(MATH_PATTERN, re.DOTALL)
_NEEDS_ESCAPE = re.compile(r"[\\$*]")


def tokens(markup: str) -> list[Token]:
    """*markup* as tokens with their source offsets. Raises :class:`MarkupError`."""
    if not _MARKUP_CHARS.intersection(markup):
        return [Token("text", markup, False, 0, len(markup))] if markup else []
    found: list[Token] = []
    emph = False
    emph_start = 0
    for match in _TOKEN.finditer(markup):
        kind, value, start = match.lastgroup, match.group(), match.start()
        if kind == "text" or kind == "backslash":
            found.append(Token("text", value, emph, start, match.end()))
        elif kind == "escape":
            found.append(Token("text", value[1], emph, start, match.end()))
        elif kind == "math":
            found.append(Token("math", value[1:-1], emph, start, match.end()))
        elif kind == "dollar":
            raise MarkupError("unclosed '$' (inline math)", start)
        else:  # a star toggles emphasis
            emph, emph_start = not emph, start
    if emph:
        raise MarkupError("unclosed '*' (emphasis)", emph_start)
    return found


def parse(markup: str) -> list[Segment]:
    """*markup* as text and math segments (:func:`tokens`, merged). Raises :class:`MarkupError`."""
    if not _MARKUP_CHARS.intersection(markup):
        return [Segment("text", markup)] if markup else []  # most text has no markup at all
    return _merge([Segment(t.kind, t.value, t.emph) for t in tokens(markup)])


def can_be_math(value: str) -> bool:
    """True when ``$value$`` reads back as one math segment holding *value*."""
    return _MATH.fullmatch("$" + value + "$") is not None


def _merge(segments: list[Segment]) -> list[Segment]:
    merged: list[Segment] = []
    for seg in segments:
        if merged and seg.kind == "text" and merged[-1].kind == "text" and merged[-1].emph == seg.emph:
            merged[-1] = Segment("text", merged[-1].value + seg.value, seg.emph)
        elif seg.value or seg.kind == "math":
            merged.append(seg)
    return merged


def escape(text: str) -> str:
    """Plain text → markup that :func:`to_plain` turns back into *text* exactly."""
    return _NEEDS_ESCAPE.sub(r"\\\g<0>", text)


def from_segments(segments: Iterable[Segment]) -> str:
    """The inverse of :func:`parse` (canonical form)."""
    out: list[str] = []
    emph = False
    for seg in segments:
        if seg.emph != emph:
            out.append("*")
            emph = seg.emph
        out.append(f"${seg.value}$" if seg.kind == "math" else escape(seg.value))
    if emph:
        out.append("*")
    return "".join(out)


def to_plain(markup: str) -> str:
    """Readable plain text: escapes resolved, emphasis dropped, math kept as ``$…$``."""
    return "".join(f"${s.value}$" if s.kind == "math" else s.value for s in parse(markup))

