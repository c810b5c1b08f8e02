"""HTML of the website's pages: small functions over :func:`html.escape`, no template engine.

Every page is a complete document (landmarks, a skip link, one ``h1``), written with
relative links, so the folder works from any web server and from ``file://``.  Titles
and abstracts go through the markup's own parser (:func:`icml2026.markup.parse`):
emphasis as ``<em>``, math as Unicode where it has a faithful form
(:func:`icml2026.exporters.plain.math_to_unicode`), else as Unicode pieces with HTML
sub- and superscripts; raw TeX is never shown.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from html import escape

SITE_NAME = "ICML 2026 proceedings"


def esc(text: str) -> str:
    return escape(text, quote=True)


def page(*, title: str, root: str, body: str, current: str = "", head: str = "", scripts: Iterable[str] = (),
         description: str = "") -> str:
    """A whole document.  *root* is the relative path to the site's top (``""``, ``"../"``)."""
    here = ' aria-current="page"'
    nav = "".join(
        f'<li><a href="{root}{href}"{here if name == current else ""}>{label}</a></li>'
        for name, href, label in (("index", "index.html", "Papers"), ("authors", "authors/index.html", "Authors"),
                                  ("downloads", "downloads.html", "Downloads")))
    script_tags = "".join(f'<script src="{root}assets/{name}" defer></script>' for name in scripts)
    meta = f'<meta name="description" content="{esc(description)}">\n' if description else ""
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{esc(title)}</title>\n{meta}{head}"
        f'<link rel="stylesheet" href="{root}assets/site.css">\n{script_tags}\n</head>\n<body>\n'
        '<a class="skip" href="#main">Skip to the content</a>\n'
        f'<header><nav aria-label="Site"><ul>{nav}</ul></nav></header>\n'
        f'<main id="main">\n{body}\n</main>\n'
        '<footer><p>Records of the 6,552 papers of ICML 2026 (PMLR volume 306), verified against their '
        'sources and built by the <code>icml2026</code> package (<code>icml2026 site</code>). '
        "Bibliographic facts: CC0; abstracts remain their authors' work.</p></footer>\n"
        "</body>\n</html>\n"
    )


# -- titles and abstracts ---------------------------------------------------------------

def markup_html(source: str) -> str:
    """Our title/abstract markup as HTML: escaped text, ``<em>``, math made readable."""
    from ..markup import parse

    out: list[str] = []
    for segment in parse(source):
        text = math_html(segment.value) if segment.kind == "math" else esc(segment.value)
        out.append(f"<em>{text}</em>" if segment.emph else text)
    return "".join(out)


_SCRIPT = re.compile(r"([_^])(\{(?:[^{}]|\{[^{}]*\})*\}|\\[A-Za-z]+|.)")


def math_html(latex: str) -> str:
    """Inline math: its Unicode form; failing that (``\\ell_\\infty``: no subscript ∞),
    the pieces around ``_``/``^`` in Unicode inside ``<sub>``/``<sup>``; failing that, the
    source without its backslashes, in a ``<span>`` that says it is math."""
    from ..exporters.plain import math_to_unicode

    whole = math_to_unicode(latex)
    if whole is not None:
        return f'<span class="math">{esc(whole)}</span>'
    out: list[str] = []
    at = 0
    for match in _SCRIPT.finditer(latex):
        base = latex[at:match.start()]
        piece = math_to_unicode(base) if base.strip() else ""
        arg = match.group(2)
        arg = arg[1:-1] if arg.startswith("{") else arg
        inner = math_to_unicode(arg)
        if piece is None or inner is None:
            break
        tag = "sub" if match.group(1) == "_" else "sup"
        out.append(f"{esc(piece)}<{tag}>{esc(inner)}</{tag}>")
        at = match.end()
    else:
        rest = latex[at:]
        tail = math_to_unicode(rest) if rest.strip() else ""
        if tail is not None and out:
            return f'<span class="math">{"".join(out)}{esc(tail)}</span>'
    return f'<span class="math" title="math">{esc(latex.replace(chr(92), ""))}</span>'


def plain(source: str) -> str:
    """The markup as plain Unicode text (meta tags, search results, page titles)."""
    from ..exporters.plain import plain_text

    return plain_text(source)


# -- people -------------------------------------------------------------------------------

def meta_author(person: object) -> str:
    """``Family, Given`` (Google Scholar's and Zotero's reading of citation_author)."""
    from ..model import Person

    assert isinstance(person, Person)
    if person.literal:
        return person.literal
    family = " ".join(p for p in (person.particle, person.family) if p)
    name = f"{family}, {person.given}" if person.given else family
    return f"{name}, {person.suffix}" if person.suffix else name


def byline(names: list[str], most: int = 6) -> str:
    """``A, B, C and D``; past *most* names, the first ones and how many more."""
    if len(names) > most:
        return ", ".join(names[:most - 1]) + f" and {len(names) - most + 1} more"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1] if names else ""
