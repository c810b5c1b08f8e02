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
    carry the title).  Fix: :class:`FixedIf` evaluates it as false.
11. **straight apostrophes** stay straight ("Attention's"; citeproc-js prints
    "Attention’s").  Fix: :func:`smart_apostrophes` on the input.
12. **hyphenated words** are not title-cased ("Heterogeneity-aware").  Fix:
    :func:`_title_case_word` cases each part.
13. **minimal-two page ranges** from a one-digit page ("1-21" → "1–1").  Fix:
    :meth:`FixedText._format_last_page`.

Fixes 3–5, 7, 8, 10, 12 and 13 use citeproc-py's own extension point: CSL elements
are lxml element classes chosen by a per-parser lookup, so :class:`FixedStyle`
builds its parser with subclasses (:data:`FIXED_ELEMENTS`).  Other styles and
other users of citeproc-py in the process are unaffected.  The same
subclasses memoise per-style lookups (:class:`_Memo`, :class:`FixedKey`):
about 2.5× faster on APA, same output.

Known, unfixed citeproc-py limitations: no disambiguation (added names or
given names, year suffixes "2026a"), no ``subsequent-author-substitute``
(MLA's "———").  The 18 packaged records agree with citeproc-js entry for
entry; the differences on synthetic stress records are listed with reasons
in ``tests/data/citeproc-known-differences.json``.
"""

from __future__ import annotations

import html
import re
import warnings
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

from citeproc import CitationStylesStyle, model
from citeproc.source.json import CiteProcJSON
from citeproc.string import MixedString, NoCase, String
from lxml import etree

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
        if not closing:
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


_OPENING_APOSTROPHE = re.compile(r"(?<![\w\ue000-\ue01f])'(?=\w)")
_VERBATIM = frozenset({"URL", "DOI", "ISSN", "ISBN", "language"})
_NAME_VARIABLES = frozenset({"author", "editor", "collection-editor", "container-author", "translator"})


def smart_apostrophes(text: str) -> str:
    """Fix 11: straight single quotes become typographic, as citeproc-js prints them.

    ``Attention's`` → ``Attention’s``, ``O'Brien`` → ``O’Brien``, ``'word'`` →
    ``‘word’``.  Verbatim fields (URL, DOI…) are left alone.
    """
    if "'" not in text:
        return text
    return _OPENING_APOSTROPHE.sub("\u2018", text).replace("'", "\u2019")


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


class _Memo:
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

    def _memoised(self, key: tuple, compute):
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


_BARE_INITIAL = re.compile(r"\b([A-Z])(?=\s|$)")


class FixedName(_Memo, model.Name):
    """Fix 4: ``initialize="false"`` keeps given names whole (CSL 1.0.2, inheritable).

    Initials already in the given name still get ``initialize-with``'s
    punctuation, as the spec says and citeproc-js does: "Andrew M Saxe" →
    "Andrew M. Saxe".
    """

    _SECTION = "./ancestor::*[self::cs:citation or self::cs:bibliography][1]"

    def get_option(self, name, context=None, sort_options=None):
        """citeproc-py's ``Name.get_option`` with the citation/bibliography lookup memoised (speed)."""
        if sort_options and name in sort_options:
            value = sort_options[name]
        else:
            anchor = context if context is not None else self
            section = self._memoised(("section", id(anchor)), lambda: anchor.xpath_search(self._SECTION)[0])
            if name in ("form", "delimiter"):
                value = self.get(name, section.get_option("name-" + name))
            else:
                value = self.get(name, section.get_option(name))
        if name in ("initialize-with-hyphen", "et-al-use-last"):
            return value.lower() == "true"
        if name.startswith("et-al"):
            return int(value)
        return value

    def initialize(self, given, mark, context):
        if (_inherited(self, "initialize", context) or "true").lower() == "false":
            return _BARE_INITIAL.sub(lambda m: m.group(1) + mark.rstrip(), given)
        return super().initialize(given, mark, context)


def _mark_left_margin(element: etree._Element, text: Any) -> Any:
    if text is not None and element.get("display") == "left-margin":
        return M.LEFT_MARGIN[0] + str(text) + M.LEFT_MARGIN[1]
    return text


# citeproc-py's list is CSL 1.0.2's; citeproc-js (and the Chicago Manual) also keep
# longer prepositions lower case.  Ours: the spec's words plus common prepositions.
_STOP_WORDS = frozenset(model.TextCased._stop_words) | frozenset(
    "about above across after against along among around before behind below beneath beside between "
    "beyond despite during except inside like near off out per since than through throughout toward "
    "towards under underneath until upon versus vs within without".split())
_EDGE_PUNCTUATION = "\"'“”‘’()[]{}.,;:!?"
_WORDS = re.compile(r"(\s+)")


def _capitalize_first(word: str) -> str:
    """Upper-case the first letter, looking past markers (an italic word is still a word)."""
    for i, ch in enumerate(word):
        if not MARKER_RANGE.match(ch):
            return word[:i] + ch.upper() + word[i + 1:]
    return word


def _title_case_part(part: str, prev: str) -> str:
    """citeproc-py's title-case rule: a lower-case word is capitalised unless a stop word."""
    bare = MARKER_RANGE.sub("", part)
    if bare.islower() and (bare.strip(_EDGE_PUNCTUATION) not in _STOP_WORDS or prev in (":", ".", "?", "!")):
        return _capitalize_first(part)
    return part


def _title_case_word(word: str, prev: str) -> str:
    """Fix 12: each part of a hyphenated word is a word ("Heterogeneity-Aware", "State-of-the-Art").

    citeproc-py left any word holding a capital alone; citeproc-js cases the
    parts, except single letters ("x-ray" → "x-Ray").  As in citeproc-js, a
    stop word after ``?`` or ``!`` is capitalised like one after ``:``.
    """
    parts = word.split("-")
    if len(parts) == 1:
        return _title_case_part(word, prev)
    out = []
    for n, part in enumerate(parts):
        if len(MARKER_RANGE.sub("", part)) < 2:
            out.append(part)
        else:
            out.append(_title_case_part(part, prev if n == 0 else "-"))
    return "-".join(out)


def title_case(text: Any) -> Any:
    """Fix 7: title case over a string with nocase parts, keeping its spacing.

    citeproc-py splits every part into words and re-joins them all with
    spaces, so ``<nocase>CSG</nocase>: Cognitive`` became "CSG : Cognitive"
    and ``<nocase>GNN</nocase>s`` "GNN S".  Here words are split on whitespace
    only, nocase parts are kept as they are, and the rule for a word is
    citeproc-py's own.
    """
    parts = list(text) if isinstance(text, MixedString) else [text]
    out, prev = [], ":"  # the first word is capitalised
    for part in parts:
        if isinstance(part, NoCase):
            out.append(part)
        else:
            pieces = _WORDS.split(str(part))
            for n, piece in enumerate(pieces):
                if n % 2 == 0 and piece:  # a word, not whitespace
                    pieces[n] = _title_case_word(piece, prev)
                    prev = MARKER_RANGE.sub("", piece)[-1:] or prev
            out.append(String("".join(pieces)))
            continue
        prev = MARKER_RANGE.sub("", str(part))[-1:] or prev
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

    def quote(self, string):
        quoted = super().quote(string)
        if self.get("quotes", "false").lower() == "true":
            return quoted + M.QUOTE_END
        return quoted

    def render(self, *args, **kwargs):
        return _mark_left_margin(self, super().render(*args, **kwargs))


class FixedGroup(_Memo, model.Group):
    """Fix 5 for ``<group display="left-margin">``."""

    def render(self, *args, **kwargs):
        return _mark_left_margin(self, super().render(*args, **kwargs))


class FixedLayout(model.Layout):
    """Fix 5: with ``second-field-align`` the first field of an entry is a left-margin label."""

    def render_children(self, item, delimiter="", **kwargs):
        parent = self.getparent()
        if parent.tag != f"{{{CSL_NS}}}bibliography" or not parent.get("second-field-align"):
            return super().render_children(item, delimiter=delimiter, **kwargs)
        output = []
        for child in self.iterchildren():
            try:
                if isinstance(child, model.Choose):
                    text = child.render(item, delimiter=delimiter, **kwargs)
                else:
                    text = child.render(item, **kwargs)
            except model.VariableError:
                continue
            if text is not None:
                if not output:
                    text = M.LEFT_MARGIN[0] + str(text) + M.LEFT_MARGIN[1]
                output.append(text)
        return model.join(output, delimiter) if output else None


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


class FixedIf(model.If):
    """Fix 10: ``<if disambiguate="true">`` is a test, not always true.

    citeproc-py skips the attribute, so a branch testing only it always runs
    (MLA in-text citations always added the title).  citeproc-py cannot
    disambiguate, so the test is false; the other tests of the element and
    its ``match`` work as before.
    """

    def render(self, item, context=None, delimiter="", **kwargs):
        if self.get("disambiguate", "false").lower() != "true":
            return super().render(item, context=context, delimiter=delimiter, **kwargs)
        results = [False]
        for attribute, test in (("type", self._type), ("variable", self._variable),
                                ("is-numeric", self._is_numeric), ("locator", self._locator),
                                ("is-uncertain-date", self._is_uncertain_date)):
            if attribute in self.attrib:
                results += test(item)
        if "position" in self.attrib:
            results += self._position(item, context)
        match = self.get("match", "all")
        passed = any(results) if match == "any" else (not any(results) if match == "none" else all(results))
        if not passed:
            raise model.ConditionFailed
        return self.render_children(item, context=context, delimiter=delimiter, **kwargs)


class FixedElseIf(FixedIf):
    pass


class FixedKey(model.Key):
    """Speed: a sort key is computed once per (key element, record), like the entries.

    The caller puts ``{citeproc key: record fingerprint}`` on the style root
    as ``fingerprints`` for the duration of a run; keys on the citation
    number are not cached (they depend on the order).
    """

    def sort_keys(self, items, context):
        root = self.get_root()
        fingerprints, memo = getattr(root, "fingerprints", None), getattr(root, "memo", None)
        if fingerprints is None or memo is None or self.get("variable") == "citation-number":
            return super().sort_keys(items, context)
        keys = [("sort", id(self), fingerprints[item.key]) for item in items]
        missing = [(item, key) for item, key in zip(items, keys) if key not in memo]
        if missing:
            computed = super().sort_keys([item for item, _ in missing], context)
            memo.update(zip((key for _, key in missing), computed))
        return [memo[key] for key in keys]


FIXED_ELEMENTS = {"name": FixedName, "text": FixedText, "group": FixedGroup, "layout": FixedLayout,
                  "label": FixedLabel, "if": FixedIf, "else-if": FixedElseIf, "key": FixedKey}


class FixedStyle(CitationStylesStyle):
    """A citeproc-py style whose parser uses :data:`FIXED_ELEMENTS` (fixes 3–5).

    Same as ``CitationStylesXML.__init__`` except for the class lookup, and no
    RelaxNG validation (it only warns, and costs ~10× the parse).
    """

    def __init__(self, path: str | Path, locale: str) -> None:  # noqa: D107 — replaces the parent init
        lookup = etree.ElementNamespaceClassLookup()
        namespace = lookup.get_namespace(CSL_NS)
        namespace[None] = model.CitationStylesElement
        namespace.update({cls.__name__.replace("_", "-").lower(): cls
                          for cls in model.CitationStylesElement.__subclasses__()})
        namespace.update(FIXED_ELEMENTS)
        self.parser = etree.XMLParser(remove_comments=True, encoding="UTF-8", no_network=True)
        self.parser.set_element_class_lookup(lookup)
        self.xml = etree.parse(str(path), self.parser)
        self.root = self.xml.getroot()
        self.root.pinned = list(self.root.iter())  # stable proxies: see _Memo
        self.root.macro_index = {m.get("name"): m for m in self.root.iterchildren(f"{{{CSL_NS}}}macro")}
        self.root.memo = {}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            self.root.set_locale_list(locale, validate=False)

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
        marked = _QUOTE_PUNCT.sub(move, marked)
    return marked.replace(M.QUOTE_END, "")


_ANY_MARKERS = "[\ue000-\ue01f]*"
_DOUBLED_PERIOD = re.compile(f"([.?!]{_ANY_MARKERS})\\.")


def collapse_punctuation(marked: str) -> str:
    """Fix 9: no period after a period, ``?`` or ``!`` ("et al..", "Optimization?.").

    citeproc-py drops a doubled period only when the two touch; a formatting
    marker between them (italic "et al." then the layout's ".") hides the
    double.  citeproc-js suppresses it.
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


def to_html(marked: str) -> str:
    """HTML: all text escaped first (fix 1), then markers become tags; citeproc-js's margin divs."""
    label, rest = _split_left_margin(marked)
    body = _markers_to_tags(html.escape(rest.strip(), quote=False))
    if label is None:
        return body
    label_html = _markers_to_tags(html.escape(label.strip(), quote=False))
    return f'<div class="csl-left-margin">{label_html}</div><div class="csl-right-inline">{body}</div>'
