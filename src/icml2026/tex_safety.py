"""Which TeX may reach a user's document verbatim: a whitelist, and what people may be shown.

Titles and abstracts are markup (:mod:`icml2026.markup`); everything in them is
escaped for LaTeX except math ``$…$``, which the BibTeX and BibLaTeX writers
keep verbatim so that it typesets.  Math can come from the package, from a
corrections layer (hand-edited, perhaps) or from a download, so it passes a
**whitelist**, never a list of banned commands: a list of banned commands
misses ``\\pdffiledump``, ``\\pdfcatalog``, ``\\pdfobj``, ``\\IfFileExists``
and the next primitive nobody thought of, and pdfLaTeX runs them even with
``-no-shell-escape`` (a file's bytes or a JavaScript action in the PDF).

Allowed, in math: the control words the volume's own titles use, the math
symbols and font switches of amsmath/amssymb (every command the encoder's
Unicode → math table writes, :data:`icml2026.bibtex.latex_table.MATH`), math accents,
and a few control symbols (spacing, escaped specials).  Math holding anything
else (or unbalanced braces, ``%``/``#``/``&``, ``^^`` or a control character)
is written as literal text instead, dollars included: escaped, never run.

:func:`printable` is the other half of "what comes from outside reaches the
user as it is meant": bidirectional overrides and other control or format
characters are made visible (``<U+202E>``) before a downloaded value is printed.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from .bibtex import ASCII_SPACE

# The volume's titles (tools/sources/corpora/pmlr-v306-facts.bib) use these in math;
# the rest are the usual math vocabulary of amsmath/amssymb beyond the Unicode table.
_BASE_WORDS = """
    alpha boldsymbol delta ell infty log mathbb mathcal mu not phi sigma tau text textit
    texttt times underline varepsilon
    textrm textbf textsf mathrm mathbf mathit mathsf mathtt mathfrak mathscr mathnormal
    operatorname bm frac dfrac tfrac sqrt left right big Big bigg Bigg bigl bigr Bigl Bigr
    middle cdot cdots ldots dots vdots ddots quad qquad exp ln sin cos tan max min arg argmax
    argmin sup inf lim limsup liminf det dim ker Pr deg gcd mod bmod pmod top intercal
    hat widehat tilde widetilde bar overline vec dot ddot acute grave breve check mathring
    overrightarrow overleftarrow underbrace overbrace prime emptyset star ast dagger
    lvert rvert lVert rVert vert Vert lbrace rbrace langle rangle
    le ge ne neq to gets leftarrow rightarrow colon
    alpha beta gamma epsilon zeta eta theta iota kappa lambda nu xi pi rho upsilon chi psi
    omega Gamma Delta Theta Lambda Xi Pi Sigma Upsilon Phi Psi Omega
"""
# Control symbols: spacing, escaped specials, a literal bar; never \( \) \[ \] (math mode).
_SAFE_SYMBOLS = frozenset(",;:! {}|_$%&#'")
_CONTROL = re.compile(r"\\([A-Za-z@]+|.)", re.DOTALL)


@lru_cache(maxsize=1)
def allowed_math_commands() -> frozenset[str]:
    """Every control word math may use: the base list and the encoder's Unicode → math table."""
    from .bibtex.latex_table import MATH

    words = set(_BASE_WORDS.split())
    for value in MATH.values():
        words.update(re.findall(r"\\([A-Za-z@]+)", value))
    return frozenset(words)


def math_problem(value: str, *, ascii_only: bool = False) -> str | None:
    """Why ``$value$`` may not be written verbatim for TeX, or None when it may."""
    if not value.strip():
        return "it is empty"
    if value.endswith("\\") or "^^" in value:
        return "it ends in a backslash or holds ^^ (TeX's character-code escape)"
    if ascii_only and not value.isascii():
        return "it holds non-ASCII characters"
    if any(unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") and c not in ASCII_SPACE for c in value):
        return "it holds a control or format character"
    if any(c in "%#&" for c in _outside_controls(value)):
        return "it holds an unescaped %, # or &"
    if not _braces_balance(value):
        return "its braces do not balance"
    allowed = allowed_math_commands()
    for match in _CONTROL.finditer(value):
        name = match.group(1)
        if len(name) == 1 and not name.isalpha():
            if name not in _SAFE_SYMBOLS:
                return f"it uses \\{name}, which would leave or nest math mode"
        elif name not in allowed:
            return f"it uses \\{name}, which is not a math command icml2026 allows"
    return None


def math_is_safe(value: str, *, ascii_only: bool) -> bool:
    """Whether ``$value$`` may be written verbatim (see the module docstring)."""
    return math_problem(value, ascii_only=ascii_only) is None


def _outside_controls(value: str) -> str:
    """*value* without its control sequences (so ``\\%`` is not a comment)."""
    return _CONTROL.sub("", value)


def _braces_balance(value: str) -> bool:
    """Braces balance both as BibTeX counts them (``\\{`` too) and as TeX does."""
    bibtex = tex = 0
    i = 0
    while i < len(value):
        ch = value[i]
        if ch == "\\" and i + 1 < len(value):
            nxt = value[i + 1]
            if nxt in "{}":
                bibtex += 1 if nxt == "{" else -1
            i += 2
        else:
            if ch in "{}":
                step = 1 if ch == "{" else -1
                bibtex += step
                tex += step
            i += 1
        if bibtex < 0 or tex < 0:
            return False
    return bibtex == 0 and tex == 0


def markup_problem(text: str) -> str | None:
    """Why markup *text* (a title or abstract) holds math that may not reach TeX, or None."""
    from .markup import tokens

    for token in tokens(text):
        if token.kind == "math":
            problem = math_problem(token.value)
            if problem:
                return f"its math ${_short(token.value)}$: {problem}"
    return None


def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


# --------------------------------------------------------------------------- printing

def _invisible(ch: str) -> bool:
    return unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn") and ch != "\t"


def printable(text: str) -> str:
    """*text* for a terminal: control, format (bidi overrides, zero-width) and unassigned
    characters shown as ``<U+202E>``, so nothing downloaded can reorder or hide what is printed."""
    if text.isprintable():
        return text
    return "".join(f"<U+{ord(ch):04X}>" if _invisible(ch) else ch for ch in text)
