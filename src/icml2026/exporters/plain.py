"""Plain text for formats without markup: RIS ``TI``/``AB`` and the CSL-JSON ``abstract``.

Readers show those fields as they are (Zotero, EndNote, citation-js, pandoc), so
``*emphasis*`` is dropped, escapes are resolved, and inline math is written in
Unicode where it has a faithful Unicode form: ``$O(|\\mu - \\alpha|^2)$`` →
``O(|μ − α|²)``, ``NC$\\to$LP`` → ``NC→LP``.  Math with no such form (a
superscript letter Unicode lacks, ``\\binom``, an unknown macro) keeps its LaTeX
source, ``$…$`` included, so nothing is lost or guessed: the whole formula, not
a half-converted one.

Symbols come from pylatexenc's ``latex2text`` tables (Greek letters, relations,
arrows, operators); scripts from Unicode's superscript and subscript characters;
``\\mathbb``/``\\mathcal``/``\\mathbf`` letters from the Mathematical Alphanumeric
Symbols; accents (``\\tilde``, ``\\hat`` …) over one character as combining marks.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from .. import markup


class _Unfaithful(Exception):
    """This math has no faithful Unicode form."""


_SUPER = dict(zip("0123456789+-−=()niaeohjklmprstuvwxyzbcdfgABDEGHIJKLMNOPRTUVWβγδθφχ′*",
                  "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ⁿⁱᵃᵉᵒʰʲᵏˡᵐᵖʳˢᵗᵘᵛʷˣʸᶻᵇᶜᵈᶠᵍᴬᴮᴰᴱᴳᴴᴵᴶᴷᴸᴹᴺᴼᴾᴿᵀᵁⱽᵂᵝᵞᵟᶿᵠᵡ′*"))
_SUPER["⊤"] = "ᵀ"  # x^\top, the transpose
_SUB = dict(zip("0123456789+-−=()aehijklmnoprstuvxβγρφχ",
                "₀₁₂₃₄₅₆₇₈₉₊₋₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓᵦᵧᵨᵩᵪ"))

_ACCENTS = {"tilde": "\u0303", "widetilde": "\u0303", "hat": "\u0302", "widehat": "\u0302",
            "bar": "\u0304", "overline": "\u0305", "dot": "\u0307", "ddot": "\u0308",
            "vec": "\u20d7", "check": "\u030c", "breve": "\u0306"}
_ALPHABETS = {"mathbb": "DOUBLE-STRUCK", "mathcal": "SCRIPT", "mathscr": "SCRIPT", "mathfrak": "FRAKTUR",
              "mathbf": "BOLD", "boldsymbol": "BOLD", "bm": "BOLD"}
_TEXT_ARG = frozenset({"text", "textrm", "textnormal", "mbox", "texttt", "textit", "textbf", "textsf",
                       "textup", "emph"})
_MATH_ARG = frozenset({"mathrm", "mathit", "mathtt", "mathsf", "mathnormal", "operatorname", "underline"})
_SIZING = frozenset({"left", "right", "big", "Big", "bigg", "Bigg", "bigl", "bigr", "Bigl", "Bigr",
                     "biggl", "biggr", "Biggl", "Biggr", "middle", "displaystyle", "textstyle"})
_SPACES = {",": " ", ";": " ", ":": " ", " ": " ", "quad": " ", "qquad": " ", "!": "", "thinspace": " "}
_ESCAPED = {"{": "{", "}": "}", "%": "%", "&": "&", "#": "#", "$": "$", "_": "_", "|": "‖"}
_OPERATOR_NAMES = frozenset(["log", "ln", "exp", "max", "min", "sin", "cos", "tan", "sup", "inf", "lim", "det", "dim", "ker", "arg", "Pr", "deg", "gcd", "mod"])


def _symbol_table() -> dict[str, str]:
    """Argument-less macros → Unicode, from pylatexenc's latex2text tables.

    Only replacements that are a Unicode symbol, one ASCII punctuation mark or an
    operator name: latex2text also maps some macros that take arguments to
    placeholders (``\\cite`` → ``<cit.>``), which would not be faithful.
    """
    from pylatexenc import latex2text

    db = latex2text.get_default_latex_context_db()
    table = {}
    for category in ("latex-base", "advanced-symbols", "nonascii-specials"):
        for spec in db.iter_macro_specs([category]):
            repl = spec.simplify_repl
            if not isinstance(repl, str) or "%" in repl or not repl:
                continue
            if not repl.isascii() or (len(repl) == 1 and not repl.isalnum()) or repl in _OPERATOR_NAMES:
                table[spec.macroname] = repl
    table.update({"lbrace": "{", "rbrace": "}", "lvert": "|", "rvert": "|", "lVert": "‖", "rVert": "‖",
                  "vert": "|", "Vert": "‖", "colon": ":", "ge": "≥", "le": "≤", "neq": "≠", "ne": "≠",
                  "emptyset": "∅", "varnothing": "∅"})
    return table


_SYMBOLS: dict[str, str] = {}


class _MathReader:
    """A recursive-descent reader of one inline formula; raises :class:`_Unfaithful`."""

    def __init__(self, source: str, script_marks: bool = False) -> None:
        self.s = source
        self.i = 0
        # A script Unicode has no characters for: ``^x``/``_x`` (``^(xy)``), or unfaithful.
        self.script_marks = script_marks

    def sequence(self, closing: bool) -> str:
        out: list[str] = []
        s = self.s
        while self.i < len(s):
            ch = s[self.i]
            if ch == "}":
                if not closing:
                    raise _Unfaithful
                self.i += 1
                return "".join(out)
            if ch.isspace():
                while self.i < len(s) and s[self.i].isspace():
                    self.i += 1
                if out and not out[-1].endswith(" "):
                    out.append(" ")
                continue
            if ch == "\\" and self.i + 1 < len(s) and s[self.i + 1].isalpha():
                name = self.control_word()
                after_name = self.i
                text = self.macro(name)
                if name in _OPERATOR_NAMES and out and out[-1][-1:].isalnum():
                    out.append(" ")  # n\log n: TeX spaces an operator name from its operand
                out.append(text)
                if self.i == after_name and text.isalnum() and name not in _OPERATOR_NAMES:
                    self.skip_spaces_before_letter()
                continue
            out.append(self.atom_or_script())
        if closing:
            raise _Unfaithful  # an unclosed group
        return "".join(out)

    def control_word(self) -> str:
        start = self.i + 1
        end = start
        while end < len(self.s) and self.s[end].isalpha():
            end += 1
        self.i = end
        return self.s[start:end]

    def skip_spaces_before_letter(self) -> None:
        """The space after ``\\kappa`` in ``\\kappa T`` only ends the macro name: TeX prints κT.

        Only after a letter-like symbol: a relation keeps its spaces (``M \\ge 3`` → ``M ≥ 3``).
        """
        j = self.i
        while j < len(self.s) and self.s[j].isspace():
            j += 1
        if j > self.i and j < len(self.s) and self.s[j].isalnum():
            self.i = j

    def atom_or_script(self) -> str:
        ch = self.s[self.i]
        if ch in "^_":
            self.i += 1
            table = _SUPER if ch == "^" else _SUB
            body = self.atom()
            try:
                return "".join(table[c] for c in body)
            except KeyError:
                if not self.script_marks or not body:
                    raise _Unfaithful from None
                return ch + (body if len(body) == 1 else f"({body})")
        return self.atom()

    def atom(self) -> str:
        """One argument: a group, a control sequence (with its arguments) or one character."""
        s = self.s
        while self.i < len(s) and s[self.i].isspace():
            self.i += 1
        if self.i >= len(s):
            raise _Unfaithful
        ch = s[self.i]
        if ch == "{":
            self.i += 1
            return self.sequence(closing=True)
        if ch == "\\":
            if self.i + 1 < len(s) and s[self.i + 1].isalpha():
                return self.macro(self.control_word())
            if self.i + 1 >= len(s):
                raise _Unfaithful
            symbol = s[self.i + 1]
            self.i += 2
            if symbol in _SPACES:
                return _SPACES[symbol]
            if symbol in _ESCAPED:
                return _ESCAPED[symbol]
            raise _Unfaithful
        if ch in "}^_&#%":
            raise _Unfaithful
        self.i += 1
        return {"-": "−", "'": "′", "*": "∗", "~": " "}.get(ch, ch)

    def macro(self, name: str) -> str:
        if name in _SPACES:
            return _SPACES[name]
        if name in _SIZING:
            if self.s.startswith(".", self.i):
                self.i += 1  # \left. : an invisible delimiter
            return ""
        if name in _TEXT_ARG:
            return self.text_argument()
        if name in _MATH_ARG:
            return self.atom()
        if name in _ALPHABETS:
            return _styled(self.atom(), _ALPHABETS[name])
        if name in _ACCENTS:
            return _accented(self.atom(), _ACCENTS[name])
        if name in ("frac", "tfrac", "dfrac"):
            over, under = self.atom(), self.atom()
            return f"{_operand(over)}/{_operand(under)}"
        if name == "sqrt":
            if self.s.startswith("[", self.i):
                raise _Unfaithful  # an n-th root
            body = self.atom()
            return "√" + (body if len(body) == 1 else f"({body})")
        if name == "not":
            negated = self.atom()
            if negated in ("=", "∈"):
                return {"=": "≠", "∈": "∉"}[negated]
            raise _Unfaithful
        if not _SYMBOLS:
            _SYMBOLS.update(_symbol_table())
        if name in _SYMBOLS:
            return _SYMBOLS[name]
        raise _Unfaithful

    def text_argument(self) -> str:
        """``\\text{…}``: text mode, where ``--`` is an en dash and ``-`` a hyphen."""
        s = self.s
        while self.i < len(s) and s[self.i].isspace():
            self.i += 1
        if not s.startswith("{", self.i):
            raise _Unfaithful
        depth, start = 0, self.i
        while self.i < len(s):
            ch = s[self.i]
            if ch == "\\":
                self.i += 2
                continue
            depth += (ch == "{") - (ch == "}")
            self.i += 1
            if depth == 0:
                break
        else:
            raise _Unfaithful
        body = s[start + 1:self.i - 1]
        if re.search(r"\\[A-Za-z]|[$^_&#%~]", body):
            raise _Unfaithful
        body = re.sub(r"\\(.)", r"\1", body).replace("{", "").replace("}", "")
        return body.replace("---", "—").replace("--", "–")


def _operand(text: str) -> str:
    return text if text.isalnum() or len(text) == 1 else f"({text})"


def _styled(text: str, style: str) -> str:
    """*text* in a Mathematical Alphanumeric style (``\\mathbb{R}`` → ℝ)."""
    out = []
    for ch in text:
        if ch.isascii() and ch.isalpha():
            case = "CAPITAL" if ch.isupper() else "SMALL"
            names = [f"MATHEMATICAL {style} {case} {ch.upper()}", f"{style} {case} {ch.upper()}"]
        elif ch.isdigit() and style in ("DOUBLE-STRUCK", "BOLD"):
            word = unicodedata.name(ch).split()[-1]
            names = [f"MATHEMATICAL {style} DIGIT {word}"]
        elif style == "BOLD" and "GREEK" in unicodedata.name(ch, ""):
            names = [unicodedata.name(ch).replace("GREEK", "MATHEMATICAL BOLD")]
        else:
            raise _Unfaithful
        for name in names:
            try:
                out.append(unicodedata.lookup(name))
                break
            except KeyError:
                continue
        else:
            raise _Unfaithful
    return "".join(out)


def _accented(text: str, mark: str) -> str:
    if len(text) != 1:
        raise _Unfaithful  # \widetilde{abc} has no combining form
    return unicodedata.normalize("NFC", text + mark)


@lru_cache(maxsize=8192)
def math_to_unicode(latex: str) -> str | None:
    """Inline LaTeX math as Unicode text, or ``None`` when it has no faithful Unicode form."""
    try:
        text = _MathReader(latex).sequence(closing=False)
    except (_Unfaithful, RecursionError):
        return None
    text = unicodedata.normalize("NFC", text.strip())
    return text or None


@lru_cache(maxsize=8192)
def unicode_math(value: str) -> str:
    """Math *value* (the LaTeX between the dollars) for a reader of plain text: in Unicode if it
    has a faithful form, else with ``^``/``_`` marking the scripts Unicode lacks, else ``$value$``."""
    unicode = math_to_unicode(value)
    if unicode is not None:
        return unicode
    try:
        text = unicodedata.normalize("NFC", _MathReader(value, script_marks=True).sequence(closing=False).strip())
    except (_Unfaithful, RecursionError):
        return f"${value}$"
    return text or f"${value}$"


def plain_text(source: str) -> str:
    """Our markup (:mod:`icml2026.markup`) as plain Unicode text (see the module docstring).

    One regular-expression pass instead of :func:`markup.parse` (abstracts are
    long): the same tokens, and malformed markup is left to ``markup.parse`` to
    report.  :func:`plain_text_by_segments` is the reference it is tested against.
    """
    if "$" not in source and "*" not in source and "\\" not in source:
        return source  # three single-character scans: faster than one regex over long abstracts
    stars = 0
    bad = False

    def replace(match: re.Match[str]) -> str:
        nonlocal stars, bad
        token = match.group()
        if token == "*":
            stars += 1
            return ""
        if token == "$":
            bad = True
            return ""
        if token[0] == "\\":
            return token[1]
        return unicode_math(token[1:-1])

    text = markup.NOT_TEXT.sub(replace, source)
    if bad or stars % 2:
        return plain_text_by_segments(source)  # raises markup.MarkupError, naming the offset
    return text


def plain_text_by_segments(source: str) -> str:
    """:func:`plain_text` through :func:`markup.parse`, segment by segment."""
    return "".join(unicode_math(seg.value) if seg.kind == "math" else seg.value for seg in markup.parse(source))
