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
marked-up string into :class:`Segment` values, which exporters render.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

ESCAPABLE = frozenset("\\$*%")
_MARKUP_CHARS = frozenset("\\$*")

SegmentKind = Literal["text", "math"]


class MarkupError(ValueError):
    """A marked-up string is malformed (an unclosed ``$`` or ``*``)."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(f"{message} at character {offset}")
        self.offset = offset


@dataclass(frozen=True, slots=True)
class Segment:
    """A run of text or math; ``emph`` is true inside ``*…*``."""

    kind: SegmentKind
    value: str
    emph: bool = False


_TOKEN = re.compile(
    r"(?P<text>[^\\$*]+)|(?P<escape>\\[\\$*%])|(?P<backslash>\\)"
    r"|(?P<math>\$(?:\\.|[^\\$])*\$)|(?P<dollar>\$)|(?P<star>\*)",
    re.DOTALL,
)


def parse(markup: str) -> list[Segment]:
    """Split *markup* into text and math segments. Raises :class:`MarkupError`."""
    if not _MARKUP_CHARS.intersection(markup):
        return [Segment("text", markup)] if markup else []  # most text has no markup at all
    segments: list[Segment] = []
    buf: list[str] = []
    emph = False
    emph_start = 0
    for match in _TOKEN.finditer(markup):
        kind, value = match.lastgroup, match.group()
        if kind == "text" or kind == "backslash":
            buf.append(value)
        elif kind == "escape":
            buf.append(value[1])
        elif kind == "math":
            _flush(segments, buf, emph)
            segments.append(Segment("math", value[1:-1], emph))
        elif kind == "dollar":
            raise MarkupError("unclosed '$' (inline math)", match.start())
        else:  # a star toggles emphasis
            _flush(segments, buf, emph)
            emph, emph_start = not emph, match.start()
    if emph:
        raise MarkupError("unclosed '*' (emphasis)", emph_start)
    _flush(segments, buf, emph)
    return _merge(segments)


def _flush(segments: list[Segment], buf: list[str], emph: bool) -> None:
    if buf:
        segments.append(Segment("text", "".join(buf), emph))
        buf.clear()


def math_end(markup: str, start: int) -> int:
    """Index of the ``$`` closing the math that opened just before *start*; -1 if none."""
    i = start
    while i < len(markup):
        if markup[i] == "\\":
            i += 2
            continue
        if markup[i] == "$":
            return i
        i += 1
    return -1


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
    out = []
    for ch in text:
        if ch in "\\$*":
            out.append("\\")
        out.append(ch)
    return "".join(out)


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


def to_text(markup: str) -> str:
    """Plain text with nothing added: for round-trip checks of plain strings."""
    return "".join(s.value for s in parse(markup) if s.kind == "text")


def is_plain(markup: str) -> bool:
    """True when *markup* has no math and no emphasis."""
    return all(s.kind == "text" and not s.emph for s in parse(markup))
