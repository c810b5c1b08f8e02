"""LaTeX of BibTeX/BibLaTeX fields → title/abstract markup (pylatexenc, imported on first use).

:func:`decode` and :func:`decode_title` use pylatexenc's parser and ``latex2text`` tables
and return the markup of :mod:`icml2026.markup` again: math verbatim as ``$…$``,
``\\emph``/``\\textit``/``\\textbf`` as ``*…*``, text escaped with
:func:`icml2026.markup.escape`; for titles the top-level brace groups become
``title_protect`` ranges.  It inverts :mod:`icml2026.bibtex.latex_encode` exactly (up to
the whitespace rule, :func:`icml2026.bibtex.normalize_space`) and reads PMLR's
hand-written LaTeX.  :func:`decode_plain` gives plain text, :func:`unknown_macros` the
commands it has no text for.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from .. import markup as _markup
from . import ASCII_SPACE, SPACE_RUN, normalize_space

TYPE_CHECKING = False  # typing is not imported at run time (start-up)
if TYPE_CHECKING:
    from typing import Any

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
    """Markup output with whitespace collapsed as :func:`icml2026.bibtex.latex_encode.atoms` does."""

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
        text = SPACE_RUN.sub(" ", text)
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

