"""Unicode text and title/abstract markup → LaTeX for BibTeX/BibLaTeX fields (stdlib only).

:func:`encode_text` and :func:`encode_markup` turn Unicode text and the markup of
:mod:`icml2026.markup` into LaTeX that is safe inside a braced BibTeX field value; the
reverse is :mod:`icml2026.bibtex.latex_decode`.  The rules, in order of importance:

* **Braces always balance.**  BibTeX counts every ``{`` and ``}``, even ``\\{``,
  so a literal brace is written ``{\\textbraceleft}`` / ``{\\textbraceright}``
  (never ``\\{``, which unbalances the entry when the text has a lone brace).
* **The ten specials print as themselves**: ``\\%``, ``\\&``, ``\\#``, ``\\_``,
  ``\\$`` (outside math), ``{\\textbraceleft}``, ``{\\textbraceright}``,
  ``{\\textasciitilde}``, ``{\\textasciicircum}``, ``{\\textbackslash}``.  So no
  ``%`` can comment out the rest of a ``.bbl`` line and no ``\\input`` runs.
* **Whitespace**: runs of ASCII whitespace (newlines included) become one space
  and the ends are trimmed — BibTeX cannot carry a newline in a value anyway,
  and this is what makes ``"\\n@misc{evil,"`` harmless.
* ``<``, ``>`` and ``|``, which OT1 fonts print as ¡, ¿ and —, are
  ``{\\textless}``, ``{\\textgreater}`` and ``{\\textbar}``.
* **Ligatures are broken** with ``{}`` where two literal characters would form
  one (``--``, ``''``, ``````, ``?```, ``!```, ``<<``, ``>>``, ``,,``), so a literal
  ``--`` stays two hyphens; the en dash itself is written ``--`` and the em
  dash ``---`` in ASCII mode.
* **ASCII mode** (BibTeX): accented Latin letters become BibTeX "special
  characters" ``{\\"u}``, ``{\\'i}``, ``{\\u{\\i}}``, ``{\\c{c}}`` (accents nested in NFD
  order; an i under ``\\' \\` \\^ \\"`` keeps its letter, as LaTeX composes those); a small
  table covers special letters and punctuation (``’`` is
  ``{\\textquoteright}``, a no-break space ``~``); then pylatexenc's table
  (Greek ``{\\ensuremath{\\alpha}}``, math symbols, typographic punctuation,
  ``{\\dh}``), restricted to the entries pdfLaTeX typesets with T1 fonts,
  amsmath and amssymb loaded (:mod:`icml2026.bibtex.latex_table`, generated and
  checked with real TeX by ``tools/latex_table.py``).
* **Every other character** is written for every engine at once,
  :func:`unicode_engine_char`: ``{\\ifdefined\\Umathcode\\symbol{N}\\else\\mbox{…}\\fi}``
  is the character itself under XeLaTeX/LuaLaTeX and, under pdfLaTeX (whose
  ``\\symbol`` stops at 255, "Bad character code"), the closest form pylatexenc
  knows (``Α`` looks like ``A``; U+2011 is ``-`` as in LaTeX's own t1enc.dfu)
  or else the code point ``U+4E2D`` in typewriter type; invisible characters
  (``Cc``, ``Cf``) stay invisible.  Decoders read ``\\symbol{N}`` and drop the
  box, so the text still comes back exactly.
* **UTF-8 mode** (BibLaTeX/biber): text stays Unicode where pdfLaTeX's UTF-8
  input typesets it (Latin letters, punctuation: ``UTF8_KEEP_RANGES``); other
  characters (Greek, math symbols, CJK) and the control, separator and format
  characters that could break a line or vanish (categories ``Cc``, ``Cf``,
  ``Cs``, ``Co``, ``Cn``, ``Zl``, ``Zp`` and non-ASCII ``Zs``) are encoded as in
  ASCII mode.  A letter with stacked accents is the idiom above, because biber
  would turn its inner accent into a UTF-8 letter that ``\\~`` cannot take.
* **Math** ``$…$`` is kept verbatim when it is safe (:mod:`icml2026.tex_safety`: balanced
  braces both for BibTeX and TeX, no unescaped ``%``/``#``/``&``, no ``^^``, only the
  control words of its whitelist);
  its non-ASCII characters become math commands (``α`` → ``\\alpha``,
  :func:`math_text`) in both modes; math that is unsafe or has a character
  without a math form is written as literal text, dollars included.
* **Emphasis** ``*…*`` is ``\\emph{…}``.  **Case protection** wraps a span in
  braces, doubled (``{{\\&B}}``) when the span starts with a control sequence,
  because BibTeX treats ``{\\…}`` as a special character whose letters it
  *does* change.  In titles math is always protected (``{$O(N)$}``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from functools import lru_cache

from .. import markup as _markup
from . import ASCII_SPACE, normalize_space

TYPE_CHECKING = False  # typing is not imported at run time (start-up)
if TYPE_CHECKING:
    from typing import Any

# Printable ASCII that needs no escaping (ligature pairs are checked separately).
_PLAIN = re.compile(r"[A-Za-z0-9 !\"'()*+,\-./:;=?@\[\]`]*")

# The ten LaTeX specials, as they are written in text.
SPECIALS = {
    "\\": "{\\textbackslash}",
    "{": "{\\textbraceleft}",
    "}": "{\\textbraceright}",
    "%": "\\%",
    "&": "\\&",
    "#": "\\#",
    "_": "\\_",
    "$": "\\$",
    "~": "{\\textasciitilde}",
    "^": "{\\textasciicircum}",
}

# ASCII characters that the default OT1 text fonts print as something else (``<`` as ¡).
TEXT_SYMBOLS = {"<": "{\\textless}", ">": "{\\textgreater}", "|": "{\\textbar}"}

# Character pairs that TeX fonts turn into one glyph; a literal pair gets ``{}`` between.
LIGATURES = frozenset({"--", "''", "``", "!`", "?`", "<<", ">>", ",,"})
_LIGATURE = re.compile("|".join(re.escape(pair) for pair in sorted(LIGATURES)))

# Combining mark → accent command.  "Symbol" accents may take an unbraced letter.
SYMBOL_ACCENTS = {
    "\u0300": "`", "\u0301": "'", "\u0302": "^", "\u0303": "~", "\u0304": "=",
    "\u0307": ".", "\u0308": '"',
}
LETTER_ACCENTS = {
    "\u0306": "u", "\u030b": "H", "\u030c": "v", "\u030a": "r", "\u0327": "c",
    "\u0328": "k", "\u0323": "d", "\u0331": "b",
}
# Accents placed below the letter: an ``i`` under them keeps its dot.
_BELOW = frozenset("\u0327\u0328\u0323\u0331")
_I_COMPOSITES = frozenset("\u0300\u0301\u0302\u0308")

# Characters with a text-mode LaTeX command (ASCII mode); all decode with pylatexenc.
ASCII_TABLE = {
    "\u00a0": "~",
    "\u2013": "--",
    "\u2014": "---",
    "\u2018": "{\\textquoteleft}",
    "\u2019": "{\\textquoteright}",
    "\u201c": "{\\textquotedblleft}",
    "\u201d": "{\\textquotedblright}",
    "\u2026": "{\\dots}",
    "\u2020": "{\\dag}",
    "\u2021": "{\\ddag}",
    "\u2022": "{\\textbullet}",
    "\u00a7": "{\\S}",
    "\u00b6": "{\\P}",
    "\u00a9": "{\\copyright}",
    "\u00a3": "{\\pounds}",
    "\u00a1": "{\\textexclamdown}",
    "\u00bf": "{\\textquestiondown}",
    "\u00b0": "{\\textdegree}",
    "\u00df": "{\\ss}",
    "\u00e6": "{\\ae}", "\u00c6": "{\\AE}",
    "\u0153": "{\\oe}", "\u0152": "{\\OE}",
    "\u00f8": "{\\o}", "\u00d8": "{\\O}",
    "\u0142": "{\\l}", "\u0141": "{\\L}",
    "\u0131": "{\\i}", "\u0237": "{\\j}",
}
# å and Å are not here: citation-js leaves {\aa} raw, while the ring accent {\r{a}} (the
# accent rule) decodes alike in every reader tests/test_readers.py runs.  {\dh} and
# {\textdegree} stay: pandoc 2.17 drops every form of ð and ° tried, the others read these.

# --------------------------------------------------------------------------- encoding

@lru_cache(maxsize=4096)
def _encode_char(ch: str, ascii_only: bool) -> str:
    """One character (not ASCII whitespace) as LaTeX text."""
    special = SPECIALS.get(ch) or TEXT_SYMBOLS.get(ch)
    if special is not None:
        return special
    if " " <= ch <= "~":
        return ch
    if ch == "\u00a0":
        return "~"
    category = unicodedata.category(ch)
    if category in _ESCAPED_CATEGORIES or ch == "\x7f":
        # Invisible characters stay invisible under pdfLaTeX; a space without a table form is a space.
        invisible = "~" if category == "Zs" else "" if category in ("Cc", "Cf") else None
        return _table_char(ch) or unicode_engine_char(ch, invisible)
    if not ascii_only and _utf8_keeps(ch):
        return ch
    return ASCII_TABLE.get(ch) or _accented(ch, ascii_only) or _table_char(ch) or unicode_engine_char(ch)


def _accented(ch: str, ascii_only: bool = True) -> str | None:
    """``ü`` → ``{\\"u}``; None when *ch* is not an ASCII letter with known accents."""
    decomposed = unicodedata.normalize("NFD", ch)
    base, marks = decomposed[0], decomposed[1:]
    if not marks or not ("a" <= base.lower() <= "z") or base > "z":
        return None
    if any(m not in SYMBOL_ACCENTS and m not in LETTER_ACCENTS for m in marks):
        return None
    inner = base
    # LaTeX composes \'i, \`i, \^i, \"i itself (í ì î ï), and readers that do not know
    # the dotless \i (pandoc, citation-js, Better BibTeX) decode them right; other accents
    # above an i or j still need the dotless letter.
    if base in "ij" and marks[0] not in _BELOW and not (base == "i" and marks in _I_COMPOSITES):
        inner = "\\" + base
    for mark in marks:
        if mark in SYMBOL_ACCENTS and len(inner) == 1:
            inner = f"\\{SYMBOL_ACCENTS[mark]}{inner}"
        else:
            command = SYMBOL_ACCENTS.get(mark) or LETTER_ACCENTS[mark]
            inner = f"\\{command}{{{inner}}}"
    if len(marks) > 1 and not ascii_only:
        return _stacked_for_biber(ch, base, marks)
    return "{" + inner + "}"


def _stacked_for_biber(ch: str, base: str, marks: str) -> str:
    """A letter with stacked accents for BibLaTeX: the Unicode-engine idiom.

    biber decodes accents into UTF-8 letters and drops a brace: ``\\~{\\^e}`` reaches
    pdfLaTeX as ``\\~ê``, which it rejects ("Invalid UTF-8 byte").  Doubled braces keep the
    outer accent's argument, so the pdfLaTeX branch is ``\\~{{\\^e}}`` when the inner letter
    (``ê``) is one pdfLaTeX's UTF-8 input knows; otherwise it is the code point.
    """
    inner = unicodedata.normalize("NFC", base + marks[:-1])
    outer = marks[-1]
    if len(inner) != 1 or not _utf8_keeps(inner):
        return unicode_engine_char(ch)
    inner_latex = (_accented(inner) or "{?}")[1:-1]
    command = SYMBOL_ACCENTS.get(outer) or LETTER_ACCENTS[outer]
    return unicode_engine_char(ch, f"\\{command}{{{{{inner_latex}}}}}")


def _table_char(ch: str) -> str | None:
    """pylatexenc's text-mode form of *ch* that pdfLaTeX typesets (see :mod:`icml2026.bibtex.latex_table`)."""
    tables = _tables()
    value: str | None = tables.TEXT.get(ord(ch))
    if value is not None:
        return "{" + value + "}"
    lossy: str | None = tables.LOSSY.get(ord(ch))
    return unicode_engine_char(ch, lossy) if lossy is not None else None


def unicode_engine_char(ch: str, pdflatex_form: str | None = None) -> str:
    """*ch* for every TeX engine: the character itself under XeTeX/LuaTeX, *pdflatex_form* under pdfTeX.

    ``{\\ifdefined\\Umathcode\\symbol{N}\\else\\mbox{…}\\fi}``: ``\\Umathcode`` exists only in the
    Unicode engines, where ``\\symbol{N}`` prints the character; pdfTeX (whose ``\\symbol`` stops
    at 255: "Bad character code") skips it and typesets the box: the closest pdfLaTeX form, or
    the code point ``U+XXXX`` in typewriter type when there is none (what pylatexenc's
    ``unihex`` policy prints).  Decoders read ``\\symbol{N}`` and drop the ``\\mbox``, so the text
    comes back exactly; BibTeX sees one special character.
    """
    if pdflatex_form is None:
        pdflatex_form = f"\\texttt{{U+{ord(ch):04X}}}"
    return f"{{\\ifdefined\\Umathcode\\symbol{{{ord(ch)}}}\\else\\mbox{{{pdflatex_form}}}\\fi}}"


def math_char(ch: str) -> str | None:
    """*ch* as math-mode LaTeX (``α`` → ``\\alpha``), or None when pdfLaTeX has no math form for it."""
    command: str | None = _tables().MATH.get(ord(ch))
    return command


def _utf8_keeps(ch: str) -> bool:
    """Whether pdfLaTeX's UTF-8 input typesets *ch* as it is (so UTF-8 output may keep it)."""
    return ord(ch) in _utf8_keep_set()


@lru_cache(maxsize=1)
def _utf8_keep_set() -> frozenset[int]:
    found: set[int] = set()
    for item in _tables().UTF8_KEEP_RANGES.split():
        first, _, last = item.partition("-")
        found.update(range(int(first, 16), int(last or first, 16) + 1))
    return frozenset(found)


@lru_cache(maxsize=1)
def _tables() -> Any:
    """The generated tables, imported on first use: plain ASCII text never needs them."""
    from . import latex_table

    return latex_table


# Characters that could break a line, vanish or upset a reader even in UTF-8 output.
_ESCAPED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp", "Zs"})


class Writer:
    """Accumulates LaTeX output, breaking ligatures between consecutive pieces."""

    __slots__ = ("_last", "parts")

    def __init__(self) -> None:
        self.parts: list[str] = []
        self._last = ""

    def raw(self, piece: str) -> None:
        """Append *piece* as is (a brace, a command, verbatim math)."""
        if piece:
            self.parts.append(piece)
            self._last = piece[-1]

    def text(self, piece: str) -> None:
        """Append already-encoded text, inserting ``{}`` to break a ligature."""
        if not piece:
            return
        if self._last and self._last + piece[0] in LIGATURES:
            self.parts.append("{}")
        self.parts.append(piece)
        self._last = piece[-1]

    def getvalue(self) -> str:
        return "".join(self.parts)


def encode_text(text: str, *, ascii_only: bool = True, nbsp: str = "~", normalized: bool = False) -> str:
    """Plain Unicode *text* → LaTeX text (see the module docstring).

    *nbsp* is what a no-break space becomes: ``{~}`` in names, where a bare
    ``~`` would separate two name words.  *normalized*: the caller has passed
    *text* through :func:`normalize_space` already (it is not done twice).
    """
    if not normalized:
        text = normalize_space(text)
    if _PLAIN.fullmatch(text) and not _LIGATURE.search(text):
        return text  # fast path: nothing to escape (most names and titles)
    out = Writer()
    _write_text(out, text, ascii_only, nbsp)
    return out.getvalue()


def encode_char(ch: str, *, ascii_only: bool = True) -> str:
    """One character as LaTeX text (a no-break space is ``~``)."""
    return " " if ch in ASCII_SPACE else _encode_char(ch, ascii_only)


def _write_text(out: Writer, text: str, ascii_only: bool, nbsp: str = "~") -> None:
    for ch in text:
        if ch in ASCII_SPACE:
            out.text(" ")
        elif ch == "\u00a0":
            out.text(nbsp)
        else:
            out.text(_encode_char(ch, ascii_only))


def protect(latex: str) -> str:
    """Brace *latex* against case changes; doubled when it starts with a control sequence."""
    return "{{" + latex + "}}" if latex.startswith("\\") else "{" + latex + "}"


def math_is_safe(value: str, *, ascii_only: bool) -> bool:
    """Whether ``$value$`` may be written verbatim: the whitelist of :mod:`icml2026.tex_safety`."""
    from ..tex_safety import math_is_safe as allowed

    return allowed(value, ascii_only=ascii_only)


def math_text(value: str) -> str | None:
    """Math *value* with each non-ASCII character as a math command (``α ≤ β`` → ``\\alpha \\leq β``).

    None when a character has no math form pdfLaTeX knows: such math is written as text.  Both
    modes convert: pdfLaTeX's UTF-8 input has no math meaning for ``α`` (an error) or ``×``
    (``\\texttimes``, a text command).
    """
    if value.isascii():
        return value
    out = []
    for n, ch in enumerate(value):
        if ch.isascii():
            out.append(ch)
            continue
        command = math_char(ch)
        if command is None:
            return None
        # A control word must not run into a following letter (``\\alpha x``, not ``\\alphax``).
        follows = value[n + 1:n + 2]
        space = command[-1].isalpha() and follows.isascii() and follows.isalpha()
        out.append(command + " " if space else command)
    return "".join(out)


# A character of marked-up text with the offset of its first markup character.
Atom = tuple[str, str, bool, int]  # (kind "text"|"math", value, emph, offset)


def atoms(markup_text: str) -> list[Atom]:
    """*markup_text* as text characters and math segments, with markup offsets.

    The characters of :func:`icml2026.markup.tokens` (which raises on malformed
    markup); whitespace is normalised here: runs collapse to one space,
    emphasis boundaries do not break a run, math does, and ends are trimmed.
    """
    found: list[Atom] = []
    last_space = True  # drop leading whitespace
    for token in _markup.tokens(markup_text):
        if token.kind == "math":
            found.append(("math", normalize_space(token.value), token.emph, token.start))
            last_space = False
            continue
        for ch, offset in zip(token.value, token.offsets()):
            if ch in ASCII_SPACE:
                if not last_space:
                    found.append(("text", " ", token.emph, offset))
                last_space = True
            else:
                found.append(("text", ch, token.emph, offset))
                last_space = False
    while found and found[-1][0] == "text" and found[-1][1] == " ":
        found.pop()
    return found


def _merge_ranges(ranges: Iterable[Sequence[int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for start, end in sorted((int(a), int(b)) for a, b in ranges):
        if end <= start:
            continue
        if merged and start < merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def _range_id(offset: int, ranges: list[tuple[int, int]]) -> int:
    for n, (start, end) in enumerate(ranges):
        if start <= offset < end:
            return n
    return -1


def encode_markup(markup_text: str, *, ascii_only: bool = True, title: bool = False,
                  protect_ranges: Iterable[Sequence[int]] = ()) -> str:
    """Marked-up *markup_text* → LaTeX.  *title* protects math and *protect_ranges*."""
    ranges = _merge_ranges(protect_ranges) if title else []
    if not any(c in markup_text for c in "\\$*"):
        if not ranges:
            return encode_text(markup_text, ascii_only=ascii_only)  # plain text: no markup to render
        if _is_clean(markup_text):
            return _protected_plain(markup_text, ranges)
    # Runs of atoms sharing (emph, protection range): each becomes one group.
    runs: list[tuple[bool, int, list[Atom]]] = []
    for atom in atoms(markup_text):
        rid = _range_id(atom[3], ranges)
        if runs and runs[-1][0] == atom[2] and runs[-1][1] == rid:
            runs[-1][2].append(atom)
        else:
            runs.append((atom[2], rid, [atom]))
    out = Writer()
    in_emph = False
    for emph, rid, run in runs:
        if emph != in_emph:
            out.raw("\\emph{" if emph else "}")
            in_emph = emph
        if rid >= 0:
            inner = Writer()
            _write_atoms(inner, run, ascii_only, protect_math=False)
            out.raw(protect(inner.getvalue()))
        else:
            _write_atoms(out, run, ascii_only, protect_math=title)
    if in_emph:
        out.raw("}")
    return out.getvalue()


def _is_clean(text: str) -> bool:
    """Text every character of which encodes as itself, with no ligature and no space to
    normalise: the atom-by-atom path would copy it unchanged."""
    return (_PLAIN.fullmatch(text) is not None and "  " not in text and text == text.strip(" ")
            and not _LIGATURE.search(text))


def _protected_plain(text: str, ranges: list[tuple[int, int]]) -> str:
    """:func:`encode_markup` of clean *text* (:func:`_is_clean`) with protected *ranges*: each
    range braced, the rest as is — what the atom-by-atom path gives, by slicing (most of the
    volume's titles are such, and slicing is many times faster)."""
    out, at = [], 0
    for start, end in ranges:
        start, end = max(start, at), min(end, len(text))
        if start >= end:
            continue
        out.append(text[at:start])
        out.append(protect(text[start:end]))
        at = end
    out.append(text[at:])
    return "".join(out)


def _write_atoms(out: Writer, run: list[Atom], ascii_only: bool, *, protect_math: bool) -> None:
    for kind, value, _emph, _offset in run:
        if kind == "text":
            out.text(" " if value == " " else _encode_char(value, ascii_only))
        elif (math := math_text(value)) is not None and math_is_safe(math, ascii_only=ascii_only):
            out.raw("{$" + math + "$}" if protect_math else "$" + math + "$")
        else:
            out.text("\\$")
            _write_text(out, value, ascii_only)
            out.text("\\$")
