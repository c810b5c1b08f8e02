"""LaTeX text for BibTeX/BibLaTeX fields: an encoder (stdlib only) and a decoder.

Encoding (:func:`encode_text`, :func:`encode_markup`) turns Unicode text and the
markup of :mod:`icml2026.markup` into LaTeX that is safe inside a braced BibTeX
field value.  The rules, in order of importance:

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
  amsmath and amssymb loaded (:mod:`icml2026.latex_table`, generated and
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
* **Math** ``$…$`` is kept verbatim when it is safe (balanced braces both for
  BibTeX and TeX, no unescaped ``%``/``#``/``&``, no ``^^``, none of the file,
  definition or group-breaking primitives in :data:`UNSAFE_MATH_COMMANDS`);
  its non-ASCII characters become math commands (``α`` → ``\\alpha``,
  :func:`math_text`) in both modes; math that is unsafe or has a character
  without a math form is written as literal text, dollars included.
* **Emphasis** ``*…*`` is ``\\emph{…}``.  **Case protection** wraps a span in
  braces, doubled (``{{\\&B}}``) when the span starts with a control sequence,
  because BibTeX treats ``{\\…}`` as a special character whose letters it
  *does* change.  In titles math is always protected (``{$O(N)$}``).

Decoding (:func:`decode`, :func:`decode_title`) uses pylatexenc's parser and
``latex2text`` tables (imported on first use) and returns markup again: math
verbatim as ``$…$``, ``\\emph``/``\\textit``/``\\textbf`` as ``*…*``, text
escaped with :func:`icml2026.markup.escape`; for titles the top-level brace
groups become ``title_protect`` ranges.  It inverts the encoder exactly (up
to the whitespace rule) and reads PMLR's hand-written LaTeX.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from functools import lru_cache

from . import markup as _markup

TYPE_CHECKING = False  # typing is not imported at run time (start-up)
if TYPE_CHECKING:
    from typing import Any

ASCII_SPACE = " \t\n\r\f\v"
_SPACE_RUN = re.compile(r"[ \t\n\r\f\v]+")
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

# Control words that must never reach TeX from record data, even inside math.
_UNSAFE_WORDS = """
    input include includeonly InputIfFileExists openin openout read readline write immediate
    closein closeout newwrite newread csname endcsname def edef gdef xdef let futurelet
    catcode lccode uccode mathcode newcommand renewcommand providecommand DeclareRobustCommand
    newenvironment renewenvironment usepackage RequirePackage documentclass special shipout
    end begin bye expandafter afterassignment aftergroup uppercase lowercase makeatletter
    makeatother verb url href bibitem bibliography par newline everypar everymath output
    loop jobname endinput scantokens detokenize directlua ShellEscape pdfprimitive
"""
UNSAFE_MATH_COMMANDS = frozenset(_UNSAFE_WORDS.split())
_CONTROL_WORD = re.compile(r"\\([A-Za-z@]+)")


# --------------------------------------------------------------------------- encoding

def normalize_space(text: str) -> str:
    """Runs of ASCII whitespace → one space; ends trimmed (what a BibTeX value can hold)."""
    if text.isprintable() and "  " not in text and text[:1] != " " and text[-1:] != " ":
        return text  # no tab, newline or other control, no run, nothing to trim: as it is
    return _SPACE_RUN.sub(" ", text).strip(ASCII_SPACE)


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
    """pylatexenc's text-mode form of *ch* that pdfLaTeX typesets (see :mod:`icml2026.latex_table`)."""
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
    from .tex_safety import math_is_safe as allowed

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


# --------------------------------------------------------------------------- decoding

_EMPH_MACROS = frozenset({"emph", "textit", "textbf", "textsl", "textem"})
_EMPH_DECLARATIONS = frozenset({"em", "it", "bf", "sl", "itshape", "bfseries", "slshape"})


@lru_cache(maxsize=1)
def _decoder() -> tuple[Any, Any]:
    """(LatexWalker context, LatexNodes2Text) with the commands our encoder writes."""
    from pylatexenc import latexwalker, macrospec
    from pylatexenc.latex2text import (
        LatexNodes2Text,
        MacroTextSpec,
        SpecialsTextSpec,
        get_default_latex_context_db,
    )

    walker_db = latexwalker.get_default_latex_context_db()
    walker_db.add_context_category("icml2026", prepend=True, macros=[
        macrospec.MacroSpec("symbol", "{"),
    ])
    text_db = get_default_latex_context_db()
    text_db.add_context_category("icml2026", prepend=True, macros=[
        MacroTextSpec("textbraceleft", "{"),
        MacroTextSpec("textless", "<"),
        MacroTextSpec("textgreater", ">"),
        MacroTextSpec("textbar", "|"),
        MacroTextSpec("textbraceright", "}"),
        MacroTextSpec("textasciicircum", "^"),
        MacroTextSpec("textasciitilde", "~"),
        MacroTextSpec("textbackslash", "\\"),
        MacroTextSpec("S", "\u00a7"),
        MacroTextSpec("P", "\u00b6"),
        MacroTextSpec("copyright", "\u00a9"),
        MacroTextSpec("ddag", "\u2021"),
        MacroTextSpec("pounds", "\u00a3"),
        MacroTextSpec("symbol", simplify_repl=_symbol_text),
    ], specials=[
        SpecialsTextSpec("&", "&"),
        SpecialsTextSpec("#", "#"),
    ])
    return walker_db, LatexNodes2Text(latex_context=text_db, math_mode="verbatim",
                                      strict_latex_spaces=True)


def _symbol_text(node: Any, l2t: Any = None) -> str:
    arg = node.nodeargd.argnlist[0] if node.nodeargd and node.nodeargd.argnlist else None
    digits = "".join(ch for ch in (arg.latex_verbatim() if arg else "") if ch.isdigit())
    try:
        return chr(int(digits))
    except (ValueError, OverflowError):
        return ""


class _MarkupBuilder:
    """Markup output with whitespace collapsed as :func:`atoms` does."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.length = 0
        self.last_space = True
        self.emph = False
        self.back: dict[int, str] | None = None  # sentinel characters → the text they stand for

    def add(self, piece: str) -> None:
        self.parts.append(piece)
        self.length += len(piece)

    def text(self, text: str) -> None:
        if self.back:
            text = text.translate(self.back)
        text = _SPACE_RUN.sub(" ", text)
        if self.last_space and text.startswith(" "):
            text = text[1:]
        if not text:
            return
        self.last_space = text[-1] == " "
        self.add(_markup.escape(text))

    def math(self, value: str) -> None:
        if self.back:
            value = value.translate(self.back)
        value = normalize_space(value)
        if not value or not _markup.can_be_math(value):
            self.text("$" + value + "$")  # no markup math can hold it: literal text, nothing lost
            return
        self.last_space = False
        self.add("$" + value + "$")

    def toggle_emph(self) -> None:
        self.emph = not self.emph
        self.add("*")

    def result(self, ranges: list[tuple[int, int]]) -> tuple[str, list[tuple[int, int]]]:
        text = "".join(self.parts)
        if self.emph:
            text += "*"
        # Trailing whitespace: drop spaces before the end and before closing stars.
        stripped = re.sub(r" (\**)$", r"\1", text)
        while stripped != text:
            text, stripped = stripped, re.sub(r" (\**)$", r"\1", stripped)
        ranges = [(a, min(b, len(text))) for a, b in ranges if a < min(b, len(text))]
        return text, ranges


def decode(latex: str) -> str:
    """LaTeX field text → markup (math kept, emphasis as ``*…*``, text escaped)."""
    return decode_title(latex)[0]


def decode_title(latex: str) -> tuple[str, list[tuple[int, int]]]:
    """LaTeX title → (markup, ``title_protect`` ranges of its top-level brace groups).

    The text of a BibTeX field is decoded exactly, in time linear in its length:

    * ``%`` is a literal percent sign (BibTeX field text has no comments), a
      ``$`` without a partner is a literal dollar, a ``\\`` ending the field
      is a literal backslash, ``\\par`` and ``\\newline`` are a space;
    * text with only the common constructs (plain text, brace groups,
      ``$…$`` math, accents such as ``\\"u``, ``{\\o}``, ``\\c{c}``, the escaped
      specials ``\\&``…, ``~``, ``--``/``---``) is read by a small tokenizer
      whose every command is rendered by pylatexenc's own tables, so both
      paths give the same text;
    * anything else goes to pylatexenc, a long field in pieces cut at
      top-level spaces (pylatexenc's time grows faster than linearly).
    """
    text, ranges = _decode_cached(latex)
    return text, list(ranges)


@lru_cache(maxsize=65536)
def _decode_cached(latex: str) -> tuple[str, tuple[tuple[int, int], ...]]:
    out = _MarkupBuilder()
    ranges: list[tuple[int, int]] = []
    if _ACTIVE.search(latex) is None:
        out.text(latex)  # nothing LaTeX-active: plain text (half of all fields)
    else:
        tree = _fast_tree(latex)
        if tree is not None:
            _fast_walk(tree, out, ranges, top=True)
        else:
            for n, (piece, fast) in enumerate(_pieces(latex)):
                if n:
                    out.text(" ")
                if fast is not None:
                    _fast_walk(fast, out, ranges, top=True)
                else:
                    _slow_decode(piece, out, ranges)
    text, found = out.result(ranges)
    return text, tuple(found)


# Characters (and pairs) that make a field more than plain text for the decoder.
_ACTIVE = re.compile(r"[\\{}$~`^_&#]|--|''")
_BREAK_MACROS = frozenset({"par", "newline", "linebreak"})
_FAST_TOKEN = re.compile(r"""
    (?P<chars>[^\\{}$~`'\-]+|'(?!')|-(?!-))
  | (?P<special>---|--|~)
  | (?P<open>\{) | (?P<close>\})
  | \$(?P<math>(?:[^$\\{}]|\\[^\n]|\{(?:[^$\\{}]|\\[^\n])*\})+)\$
  | (?P<macro>\\[&%$\#_{}]
      | \\[`'^"~=.](?:\{(?:[A-Za-z]|\\i)\}|[A-Za-z]|\\i(?![^\W\d_])[ \t\r\f\v]*(?:\n[ \t\r\f\v]*)?)
      | \\[cvuHkrdb](?:\{(?:[A-Za-z]|\\i)\}|(?=[ \t\n\r\f\v])[ \t\r\f\v]*\n?[ \t\r\f\v]*[A-Za-z](?![^\W\d_]))
      | \\(?:ss|ae|AE|oe|OE|aa|AA|o|O|l|L|i|dh|DH)(?![^\W\d_])[ \t\r\f\v]*(?:\n[ \t\r\f\v]*)?)
  | (?P<backslash>\\\Z)
  | (?P<dollar>\$)
""", re.VERBOSE)
# A node of the fast tokenizer: ("chars"|"macro"|"special"|"math", text) or ("group", children).
if TYPE_CHECKING:
    _FastNode = tuple[str, Any]


def _fast_tree(latex: str) -> list[_FastNode] | None:
    """*latex* as nodes, if it uses only the constructs of :data:`_FAST_TOKEN`; else None."""
    root: list[_FastNode] = []
    stack = [root]
    pos = 0
    for match in _FAST_TOKEN.finditer(latex):
        if match.start() != pos:
            return None  # an unsupported construct
        pos = match.end()
        kind = match.lastgroup
        value = match.group(kind or 0)
        if kind == "open":
            group: list[_FastNode] = []
            stack[-1].append(("group", group))
            stack.append(group)
        elif kind == "close":
            if len(stack) == 1:
                return None
            stack.pop()
        elif kind == "math":
            stack[-1].append(("math", value))
        elif kind == "macro" or kind == "special":
            stack[-1].append((kind, _l2t_piece(value.rstrip(ASCII_SPACE))))
        elif kind == "dollar":
            if "$" in latex[pos:]:
                return None  # a math opener this tokenizer does not read
            stack[-1].append(("chars", "$"))
        elif kind == "backslash":
            stack[-1].append(("chars", "\\"))
        else:
            stack[-1].append(("chars", value))
    if pos != len(latex) or len(stack) != 1:
        return None
    return root


@lru_cache(maxsize=1024)
def _l2t_piece(latex: str) -> str:
    """pylatexenc's text for one command or special (``\\"u``, ``{\\o}``, ``--``)."""
    return str(_decoder()[1].latex_to_text(latex))


def _fast_walk(nodes: list[_FastNode], out: _MarkupBuilder, ranges: list[tuple[int, int]],
               *, top: bool) -> None:
    """As :func:`_walk` does for the same nodes from pylatexenc."""
    for kind, value in nodes:
        if kind == "group":
            first = value[0] if value else None
            is_span = top and first is not None and first[0] != "macro" and not (
                len(value) == 1 and first[0] == "math")
            start = out.length
            _fast_walk(value, out, ranges, top=top and not is_span)
            if is_span and out.length > start:
                ranges.append((start, out.length))
        elif kind == "math":
            out.math(value)
        else:
            out.text(value)


# Pieces longer than this are cut at top-level spaces before pylatexenc reads them.
_PIECE_CHARS = 500
_NO_CUT = re.compile(r"\\begin|\\\[|\\\(|\$\$|\\verb")
_CUT_TOKEN = re.compile(r"\\[A-Za-z]+[ \t\n\r\f\v]*|\\[^A-Za-z][ \t\n\r\f\v]*|\\\Z|[{}$]|[ \t\n\r\f\v]+")


def _pieces(latex: str) -> Iterable[tuple[str, list[_FastNode] | None]]:
    """*latex* cut at top-level spaces outside math (a long field only), each with its fast tree."""
    if len(latex) <= _PIECE_CHARS or _NO_CUT.search(latex):
        yield latex, None
        return
    depth, in_math, start = 0, False, 0
    slow_from: int | None = None  # start of a run of pieces that need pylatexenc
    for match in _CUT_TOKEN.finditer(latex):
        token = match.group(0)
        if token == "{":
            depth += 1
        elif token == "}":
            depth = max(depth - 1, 0)
        elif token == "$":
            in_math = not in_math
        elif token[0] in ASCII_SPACE and depth == 0 and not in_math:
            word = latex[start:match.start()]
            start = match.end()
            fast = _fast_tree(word) if word else []
            if fast is None:
                word_start = match.start() - len(word)
                if slow_from is not None and word_start - slow_from > _PIECE_CHARS:
                    yield latex[slow_from:word_start].rstrip(ASCII_SPACE), None  # bounded pieces
                    slow_from = None
                slow_from = word_start if slow_from is None else slow_from
                continue
            if slow_from is not None:
                yield latex[slow_from:match.start() - len(word)].rstrip(ASCII_SPACE), None
                slow_from = None
            if word:
                yield word, fast
    word = latex[start:]
    fast = _fast_tree(word) if word else []
    if slow_from is not None:
        yield latex[slow_from:len(latex) - len(word)].rstrip(ASCII_SPACE), None
    if fast is None:
        yield word, None
    elif word:
        yield word, fast


_SCAN_DOLLAR = re.compile(r"\\.|\$\$|\$", re.DOTALL)
_UNESCAPED_PERCENT = re.compile(r"(?<!\\)((?:\\\\)*)%")
_SYMBOL_NUMBER = re.compile(r"\\symbol\s*\{\s*([0-9]+)")


def _slow_decode(latex: str, out: _MarkupBuilder, ranges: list[tuple[int, int]]) -> None:
    """Decode *latex* with pylatexenc, literal ``%``, lone ``$`` and final ``\\`` kept."""
    from pylatexenc import latexwalker

    # Sentinels: private-use characters neither in the source nor written as ``\symbol{N}``.
    taken = {int(n) for n in _SYMBOL_NUMBER.findall(latex) if len(n) < 8}
    free = (chr(c) for c in range(0xE000, 0xF900) if c not in taken and chr(c) not in latex)
    percent, dollar, backslash = next(free), next(free), next(free)
    latex = _UNESCAPED_PERCENT.sub(lambda m: m.group(1) + percent, latex)
    dollars = [m for m in _SCAN_DOLLAR.finditer(latex) if m.group(0)[0] == "$"]
    if len(dollars) % 2 and all(m.group(0) == "$" for m in dollars):  # $$: left to pylatexenc
        last = dollars[-1].start()
        latex = latex[:last] + dollar + latex[last + 1:]
    if (len(latex) - len(latex.rstrip("\\"))) % 2:
        latex = latex[:-1] + backslash
    walker_db, l2t = _decoder()
    walker = latexwalker.LatexWalker(latex, latex_context=walker_db, tolerant_parsing=True)
    nodes, _, _ = walker.get_latex_nodes()
    out.back = {ord(percent): "%", ord(dollar): "$", ord(backslash): "\\"}
    try:
        _walk(nodes, out, l2t, ranges, top=True)
    finally:
        out.back = None


def _walk(nodes: Iterable[Any], out: _MarkupBuilder, l2t: Any, ranges: list[tuple[int, int]],
          *, top: bool) -> None:
    from pylatexenc import latexwalker as lw

    for node in nodes:
        if node is None:
            continue
        if isinstance(node, lw.LatexCharsNode):
            out.text(node.chars)
        elif isinstance(node, lw.LatexMathNode):
            verbatim = node.latex_verbatim()
            opening, closing = node.delimiters
            inner = verbatim[len(opening):]
            if closing and inner.endswith(closing):  # an unclosed $$ keeps all it has
                inner = inner[:-len(closing)]
            out.math(inner)
        elif isinstance(node, lw.LatexGroupNode):
            _walk_group(node, out, l2t, ranges, top=top)
        elif isinstance(node, lw.LatexMacroNode) and node.macroname in _EMPH_MACROS:
            _walk_emph(node, out, l2t, ranges, top=top)
        elif isinstance(node, lw.LatexCommentNode):
            continue
        elif isinstance(node, lw.LatexMacroNode) and node.macroname in _BREAK_MACROS:
            out.text(" ")  # a paragraph or line break is a space in one field (l2t drops it)
        else:
            out.text(l2t.nodelist_to_text([node]))


def _walk_group(node: Any, out: _MarkupBuilder, l2t: Any, ranges: list[tuple[int, int]],
                *, top: bool) -> None:
    from pylatexenc import latexwalker as lw

    children = [n for n in node.nodelist if n is not None]
    first = children[0] if children else None
    if isinstance(first, lw.LatexMacroNode) and first.macroname in _EMPH_DECLARATIONS:
        opened = not out.emph
        if opened:
            out.toggle_emph()
        _walk(children[1:], out, l2t, ranges, top=False)
        if opened:
            out.toggle_emph()
        return
    # ``{\"u}`` (a special character) and ``{$x$}`` (protected math) are not protection spans.
    is_span = top and children and not isinstance(first, lw.LatexMacroNode) and not (
        len(children) == 1 and isinstance(first, lw.LatexMathNode))
    start = out.length
    _walk(children, out, l2t, ranges, top=top and not is_span)
    if is_span and out.length > start:
        ranges.append((start, out.length))


def _walk_emph(node: Any, out: _MarkupBuilder, l2t: Any, ranges: list[tuple[int, int]],
               *, top: bool) -> None:
    args = [a for a in (node.nodeargd.argnlist if node.nodeargd else []) if a is not None]
    opened = not out.emph
    if opened:
        out.toggle_emph()
    for arg in args:
        from pylatexenc import latexwalker as lw

        inner = arg.nodelist if isinstance(arg, lw.LatexGroupNode) else [arg]
        _walk(inner, out, l2t, ranges, top=top)
    if opened:
        out.toggle_emph()


_CONTROL_WORD_USE = re.compile(r"\\([A-Za-z]+)")
_ENVIRONMENT_NAME = re.compile(r"[ \t]*\{([A-Za-z*]{1,40})\}")
_INLINE_MATH = re.compile(r"(?<!\\)\$(?:[^$\\]|\\.)*\$", re.DOTALL)


def unknown_macros(latex: str) -> list[str]:
    """Control words outside math that the decoder has no text for (they are left out), in order.

    Environment markers count too (``begin{itemize}``): their content is kept, the marker and
    its environment name are not."""
    if "\\" not in latex:
        return []
    walker_db, l2t = _decoder()
    found = []
    text = _INLINE_MATH.sub("", latex)
    for match in _CONTROL_WORD_USE.finditer(text):
        name = match.group(1)
        if name in ("begin", "end"):
            environment = _ENVIRONMENT_NAME.match(text, match.end())
            found.append(name + ("{" + environment.group(1) + "}" if environment else ""))
            continue
        if name in _BREAK_MACROS or name in _EMPH_DECLARATIONS:
            continue
        if l2t.latex_context.get_macro_spec(name) is None and walker_db.get_macro_spec(name) is None:
            found.append(name)
    return list(dict.fromkeys(found))


def decode_plain(latex: str) -> str:
    """LaTeX → plain text (markup resolved, emphasis dropped, math kept as ``$…$``)."""
    return _markup.to_plain(decode(latex))

