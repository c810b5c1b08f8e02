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
  characters" ``{\\"u}``, ``{\\'{\\i}}``, ``{\\c{c}}`` (accents nested in NFD
  order); a table covers special letters and punctuation (``’`` is
  ``{\\textquoteright}``, a no-break space ``~``); every other non-ASCII or
  control character is ``{\\symbol{N}}`` (decimal, so case-changing styles
  cannot alter it; it typesets under XeLaTeX/LuaLaTeX, and no pure-ASCII form
  exists for such characters under pdfLaTeX).
* **UTF-8 mode** (BibLaTeX/biber): text stays Unicode; only control,
  separator and format characters that could break a line or vanish
  (categories ``Cc``, ``Cf``, ``Cs``, ``Co``, ``Cn``, ``Zl``, ``Zp`` and non-ASCII ``Zs``) use ``{\\symbol{N}}``.
* **Math** ``$…$`` is kept verbatim when it is safe (balanced braces both for
  BibTeX and TeX, no unescaped ``%``/``#``/``&``, no ``^^``, none of the file,
  definition or group-breaking primitives in :data:`UNSAFE_MATH_COMMANDS`, ASCII
  in ASCII mode); unsafe "math" is written as literal text, dollars included.
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
from functools import lru_cache
from typing import Any, Iterable, Sequence

from . import markup as _markup

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
    "\u00e5": "{\\aa}", "\u00c5": "{\\AA}",
    "\u0131": "{\\i}", "\u0237": "{\\j}",
}

# Control words that must never reach TeX from record data, even inside math.
UNSAFE_MATH_COMMANDS = frozenset("""
    input include includeonly InputIfFileExists openin openout read readline write immediate
    closein closeout newwrite newread csname endcsname def edef gdef xdef let futurelet
    catcode lccode uccode mathcode newcommand renewcommand providecommand DeclareRobustCommand
    newenvironment renewenvironment usepackage RequirePackage documentclass special shipout
    end begin bye expandafter afterassignment aftergroup uppercase lowercase makeatletter
    makeatother verb url href bibitem bibliography par newline everypar everymath output
    loop jobname endinput scantokens detokenize directlua ShellEscape pdfprimitive
""".split())
_CONTROL_WORD = re.compile(r"\\([A-Za-z@]+)")


# --------------------------------------------------------------------------- encoding

def normalize_space(text: str) -> str:
    """Runs of ASCII whitespace → one space; ends trimmed (what a BibTeX value can hold)."""
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
        return f"{{\\symbol{{{ord(ch)}}}}}"
    if not ascii_only:
        return ch
    return ASCII_TABLE.get(ch) or _accented(ch) or f"{{\\symbol{{{ord(ch)}}}}}"


def _accented(ch: str) -> str | None:
    """``ü`` → ``{\\"u}``; None when *ch* is not an ASCII letter with known accents."""
    decomposed = unicodedata.normalize("NFD", ch)
    base, marks = decomposed[0], decomposed[1:]
    if not marks or not ("a" <= base.lower() <= "z") or base > "z":
        return None
    if any(m not in SYMBOL_ACCENTS and m not in LETTER_ACCENTS for m in marks):
        return None
    inner = base
    if base in "ij" and marks[0] not in _BELOW:
        inner = "\\" + base  # dotless i/j under an accent above
    for mark in marks:
        if mark in SYMBOL_ACCENTS and len(inner) == 1:
            inner = f"\\{SYMBOL_ACCENTS[mark]}{inner}"
        else:
            command = SYMBOL_ACCENTS.get(mark) or LETTER_ACCENTS[mark]
            inner = f"\\{command}{{{inner}}}"
    return "{" + inner + "}"


# Characters that could break a line, vanish or upset a reader even in UTF-8 output.
_ESCAPED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp", "Zs"})


class Writer:
    """Accumulates LaTeX output, breaking ligatures between consecutive pieces."""

    __slots__ = ("parts", "_last")

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


def encode_text(text: str, *, ascii_only: bool = True, nbsp: str = "~") -> str:
    """Plain Unicode *text* → LaTeX text (see the module docstring).

    *nbsp* is what a no-break space becomes: ``{~}`` in names, where a bare
    ``~`` would separate two name words.
    """
    text = normalize_space(text)
    if _PLAIN.fullmatch(text) and not any(pair in text for pair in LIGATURES):
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
    """Whether ``$value$`` may be written verbatim (see the module docstring)."""
    if not value.strip() or value.endswith("\\") or "^^" in value:
        return False
    if ascii_only and not value.isascii():
        return False
    if any(unicodedata.category(c) in ("Cc", "Zl", "Zp") and c not in ASCII_SPACE for c in value):
        return False
    bibtex_depth = tex_depth = 0
    i = 0
    while i < len(value):
        ch = value[i]
        if ch == "\\" and i + 1 < len(value):
            nxt = value[i + 1]
            if nxt in "{}":
                bibtex_depth += 1 if nxt == "{" else -1
            elif nxt in "()[]":
                return False  # would end or nest math mode
            if bibtex_depth < 0:
                return False
            i += 2
            continue
        if ch in "%#&":
            return False
        if ch in "{}":
            step = 1 if ch == "{" else -1
            bibtex_depth += step
            tex_depth += step
            if bibtex_depth < 0 or tex_depth < 0:
                return False
        i += 1
    if bibtex_depth or tex_depth:
        return False
    return not any(m.group(1) in UNSAFE_MATH_COMMANDS for m in _CONTROL_WORD.finditer(value))


# A character of marked-up text with the offset of its first markup character.
Atom = tuple[str, str, bool, int]  # (kind "text"|"math", value, emph, offset)


def atoms(markup_text: str) -> list[Atom]:
    """*markup_text* as text characters and math segments, with markup offsets.

    Same grammar as :func:`icml2026.markup.parse` (which raises on malformed
    markup first); whitespace is normalised here: runs collapse to one space,
    emphasis boundaries do not break a run, math does, and ends are trimmed.
    """
    _markup.parse(markup_text)  # validate; raises MarkupError
    found: list[Atom] = []
    emph = False
    last_space = True  # drop leading whitespace
    i, n = 0, len(markup_text)
    while i < n:
        ch = markup_text[i]
        if ch == "\\" and i + 1 < n and markup_text[i + 1] in _markup.ESCAPABLE:
            found.append(("text", markup_text[i + 1], emph, i))
            last_space = False
            i += 2
        elif ch == "$":
            end = _markup.math_end(markup_text, i + 1)
            found.append(("math", normalize_space(markup_text[i + 1:end]), emph, i))
            last_space = False
            i = end + 1
        elif ch == "*":
            emph = not emph
            i += 1
        else:
            if ch in ASCII_SPACE:
                if not last_space:
                    found.append(("text", " ", emph, i))
                last_space = True
            else:
                found.append(("text", ch, emph, i))
                last_space = False
            i += 1
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
    if not ranges and not any(c in markup_text for c in "\\$*"):
        return encode_text(markup_text, ascii_only=ascii_only)  # plain text: no markup to render
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


def _write_atoms(out: Writer, run: list[Atom], ascii_only: bool, *, protect_math: bool) -> None:
    for kind, value, _emph, _offset in run:
        if kind == "text":
            out.text(" " if value == " " else _encode_char(value, ascii_only))
        elif math_is_safe(value, ascii_only=ascii_only):
            out.raw("{$" + value + "$}" if protect_math else "$" + value + "$")
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
    from pylatexenc.latex2text import (LatexNodes2Text, MacroTextSpec, SpecialsTextSpec,
                                       get_default_latex_context_db)

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

    def add(self, piece: str) -> None:
        self.parts.append(piece)
        self.length += len(piece)

    def text(self, text: str) -> None:
        for ch in text:
            if ch in ASCII_SPACE:
                if self.last_space:
                    continue
                self.last_space = True
                self.add(" ")
            else:
                self.last_space = False
                self.add(_markup.escape(ch))

    def math(self, value: str) -> None:
        self.last_space = False
        self.add("$" + normalize_space(value) + "$")

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
    """LaTeX title → (markup, ``title_protect`` ranges of its top-level brace groups)."""
    from pylatexenc import latexwalker

    walker_db, l2t = _decoder()
    walker = latexwalker.LatexWalker(latex, latex_context=walker_db, tolerant_parsing=True)
    nodes, _, _ = walker.get_latex_nodes()
    out = _MarkupBuilder()
    ranges: list[tuple[int, int]] = []
    _walk(nodes, out, l2t, ranges, top=True)
    return out.result(ranges)


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
            out.math(verbatim[len(opening):len(verbatim) - len(closing)])
        elif isinstance(node, lw.LatexGroupNode):
            _walk_group(node, out, l2t, ranges, top=top)
        elif isinstance(node, lw.LatexMacroNode) and node.macroname in _EMPH_MACROS:
            _walk_emph(node, out, l2t, ranges, top=top)
        elif isinstance(node, lw.LatexCommentNode):
            continue
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


def decode_plain(latex: str) -> str:
    """LaTeX → plain text (markup resolved, emphasis dropped, math kept as ``$…$``)."""
    return _markup.to_plain(decode(latex))

