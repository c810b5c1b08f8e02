"""``icml2026 site``: the proceedings as a folder of static web pages.

:func:`build` writes, under one folder:

* ``index.html``: every paper, in the volume's order, with a search box (titles,
  authors, abstracts, method names, any identifier or URL; ranked as ``icml2026 list``);
* ``papers/KEY.html``: one page per paper: title, authors, abstract, links, where each
  field comes from, any correction of ``icml2026 update``, ``citation_*`` meta tags, and
  each export of :data:`.exports.EXPORTS` with a copy button, as ``icml2026 export``
  prints it for that paper;
* ``authors/``: a page per author (names folded for grouping, shown as written) and a list;
* ``downloads.html`` and ``downloads/``: the files of ``dist-data/`` with their sizes and
  SHA-256, when a dist-data folder is given;
* ``assets/``: the style sheet, the two scripts (search, copy) and the search index.

The same records give the same bytes: no dates, no random ids, sorted everything.  The
pages need no JavaScript to be read; search and copying do.  The folder is written
beside the target and moved into place, so a failed build never leaves half a site.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from ..errors import OutputError
from ..model import Paper
from .pages import SITE_NAME, byline, esc, markup_html, meta_author, page, plain

ASSETS = ("site.css", "search.js", "copy.js")
MARKER = ".icml2026-site"  # in every folder this writes: what may be replaced


@dataclass
class Report:
    files: int = 0
    bytes: int = 0
    seconds: dict[str, float] = field(default_factory=dict)
    rendered: int = 0  # papers whose exports were rendered (not taken from the cache)


@dataclass(frozen=True)
class _Author:
    slug: str
    name: str
    papers: tuple[int, ...]


def build(papers: Sequence[Paper], folder: str | os.PathLike[str], *, dist_folder: Path | None = None,
          cache_folder: Path | None = None, jobs: int | None = None,
          progress: Callable[[str], None] | None = None) -> Report:
    """Write the site of *papers* into *folder* (replacing a site built there before; any
    other non-empty folder is refused).  *cache_folder* keeps rendered exports between
    builds (None: render everything); *dist_folder* is the ``dist-data/`` to offer."""
    from . import exports

    target = Path(folder)
    _refuse_foreign(target)
    report = Report()
    clock = time.perf_counter()
    say = progress or (lambda message: None)
    say(f"rendering the exports of {len(papers):,} papers")
    rendered, report.rendered = exports.render_cached(papers, cache_folder, jobs)
    report.seconds["exports"] = time.perf_counter() - clock
    clock = time.perf_counter()
    files = _pages(papers, rendered, dist_folder)
    report.seconds["pages"] = time.perf_counter() - clock
    clock = time.perf_counter()
    say(f"writing {len(files):,} files")
    _write_tree(target, files, dist_folder)
    report.seconds["write"] = time.perf_counter() - clock
    report.files = len(files) + len(_dist_files(dist_folder))
    report.bytes = sum(len(b) for b in files.values()) + sum(p.stat().st_size for p in _dist_files(dist_folder))
    return report


# -- the pages ------------------------------------------------------------------------------

def _pages(papers: Sequence[Paper], rendered: Sequence[tuple[str | None, ...]],
           dist_folder: Path | None) -> dict[str, bytes]:
    from .searchdata import scripts

    paths = [f"papers/{_file_name(p.label)}.html" for p in papers]
    titles = [plain(p.title) if p.title else f"(title unknown: {p.label})" for p in papers]
    names = [[a.display for a in p.authors] for p in papers]
    bylines = [byline(n) for n in names]
    authors, slug_of = _authors(papers)
    out: dict[str, str] = {"index.html": _index(papers, paths, bylines)}
    for i, paper in enumerate(papers):
        links = [(a.display, slug_of.get((i, j))) for j, a in enumerate(paper.authors)]
        out[paths[i]] = _paper_page(paper, titles[i], links, rendered[i])
    out["authors/index.html"] = _author_index(authors)
    for author in authors:
        out[f"authors/{author.slug}.html"] = _author_page(author, papers, paths, bylines)
    out["downloads.html"] = _downloads(dist_folder)
    assets = resources.files(__name__) / "assets"
    files = {path: text.encode("utf-8") for path, text in out.items()}
    for name in ASSETS:
        files[f"assets/{name}"] = (assets / name).read_bytes()
    for name, text in scripts(papers, paths, titles, bylines).items():
        files[f"assets/{name}"] = text.encode("utf-8")
    return dict(sorted(files.items()))


def _file_name(label: str) -> str:
    """A key as a file name: keys are ASCII words and dashes; anything else is encoded."""
    from urllib.parse import quote

    return quote(label, safe="-_.").replace("%", "~")


def _title_html(paper: Paper) -> str:
    return markup_html(paper.title) if paper.title else esc(paper.label)


def _index(papers: Sequence[Paper], paths: list[str], bylines: list[str]) -> str:
    items = "\n".join(
        f'<li><a href="{esc(path)}">{_title_html(p)}</a> '
        f'<span class="byline">{esc(b)}</span></li>' for p, path, b in zip(papers, paths, bylines))
    proc = papers[0].proceedings if papers else None
    heading = esc(proc.booktitle or SITE_NAME) if proc else SITE_NAME
    sub = (f"<p>{esc(proc.series or '')}, volume {proc.volume}, {esc(proc.address or '')}, "
           f"{proc.year}. {len(papers):,} papers.</p>") if proc else ""
    search = (
        '<form id="search" role="search" data-root="" hidden>\n'
        '<label for="q">Search the papers</label>\n'
        '<input id="q" name="q" type="search" autocomplete="off" '
        'aria-describedby="search-help" aria-controls="results">\n'
        '<p id="search-help">Title, author, abstract or method words (the start of a word; accents '
        'and case ignored; authors by whole name), or one identifier or URL: PMLR id, OpenReview '
        'id, arXiv id, citation key, PMLR or OpenReview link.</p>\n</form>\n'
        '<p id="search-status" role="status" aria-live="polite"></p>\n'
        '<ol id="results" class="papers" aria-label="Search results"></ol>\n')
    body = (f"<h1>{heading}</h1>\n{sub}\n{search}"
            f'<section id="all-papers" aria-labelledby="all-heading">\n<h2 id="all-heading">All papers</h2>\n'
            f'<ol class="papers">\n{items}\n</ol>\n</section>')
    return page(title=f"{SITE_NAME}: all papers", root="", body=body, current="index", scripts=("search.js",),
                description=f"The {len(papers):,} papers of ICML 2026 with verified citations.")


def _paper_page(paper: Paper, title: str, authors: list[tuple[str, str | None]],
                exported: tuple[str | None, ...]) -> str:
    root = "../"
    proc = paper.proceedings
    head = "".join(f'<meta name="{name}" content="{esc(value)}">\n' for name, value in _meta(paper, title))
    people = ", ".join(f'<a href="../authors/{slug}.html">{esc(name)}</a>' if slug else esc(name)
                       for name, slug in authors)
    parts = [f"<h1>{markup_html(paper.title) if paper.title else esc(title)}</h1>",
             f'<p class="authors">{people or "(authors unknown)"}</p>']
    if not paper.is_complete:
        parts.append(f'<p class="correction">An incomplete record: {esc(", ".join(paper.missing))} could not '
                     "be verified, so no citation is offered.</p>")
    parts.append(_facts(paper))
    parts.append(_links(paper))
    if paper.abstract:
        parts.append(f'<section aria-labelledby="abstract"><h2 id="abstract">Abstract</h2>\n'
                     f'<p class="abstract">{markup_html(paper.abstract)}</p></section>')
    corrections = _corrections(paper)
    if corrections:
        parts.append(corrections)
    if any(e is not None for e in exported):
        parts.append(_exports(paper, exported))
    parts.append(_provenance(paper))
    return page(title=f"{title} | {proc.conference_short_name or ''} {proc.year or ''}".strip(), root=root,
                body="\n".join(parts), head=head, scripts=("copy.js",), description=title)


def _meta(paper: Paper, title: str) -> list[tuple[str, str]]:
    """Google Scholar's ``citation_*`` tags, which Zotero's Connector reads too."""
    proc = paper.proceedings
    tags = [("citation_title", title)] + [("citation_author", meta_author(a)) for a in paper.authors]
    date = (proc.published or "").replace("-", "/") or (str(proc.year) if proc.year else "")
    optional = [
        ("citation_publication_date", date),
        ("citation_conference_title", proc.booktitle),
        ("citation_volume", str(proc.volume) if proc.volume else None),
        ("citation_firstpage", str(paper.pages.first) if paper.pages else None),
        ("citation_lastpage", str(paper.pages.last) if paper.pages else None),
        ("citation_pdf_url", paper.links.pdf),
        ("citation_abstract_html_url", paper.links.proceedings),
        ("citation_publisher", proc.publisher),
        ("citation_issn", proc.issn),
    ]
    return tags + [(name, value) for name, value in optional if value]


def _facts(paper: Paper) -> str:
    proc = paper.proceedings
    rows = [("Published in", f"{esc(proc.booktitle or '')}, {esc(proc.series or '')} {proc.volume or ''}"
             .strip(", ")),
            ("Pages", esc(paper.pages.as_text()) if paper.pages else None),
            ("Year", str(proc.year) if proc.year else None),
            ("Citation key", f"<code>{esc(paper.citation_key)}</code>" if paper.citation_key else None),
            ("Method", esc(paper.method_name) if paper.method_name else None)]
    rows += [({"pmlr": "PMLR id", "openreview": "OpenReview id", "arxiv": "arXiv id", "doi": "DOI"}[name],
              f"<code>{esc(value)}</code>") for name, value in paper.identifiers.items()]
    cells = "".join(f"<dt>{label}</dt><dd>{value}</dd>" for label, value in rows if value)
    return f'<dl class="facts">{cells}</dl>'


_LINK_LABELS = {"proceedings": "PMLR page", "pdf": "PDF", "openreview": "OpenReview", "code": "Code",
                "project": "Project page", "icml_virtual": "ICML virtual site"}


def _links(paper: Paper) -> str:
    items = "".join(f'<li><a href="{esc(url)}">{_LINK_LABELS[name]}</a></li>' for name, url in paper.links.items())
    return f'<nav aria-label="Links of this paper"><ul class="links">{items}</ul></nav>' if items else ""


def _corrections(paper: Paper) -> str:
    """What ``icml2026 update`` changed in this record, in the words ``icml2026 show`` uses."""
    from ..update.layer import SOURCE_KEY, correction_lines

    if SOURCE_KEY not in paper.sources:
        return ""
    lines = correction_lines(paper)
    if not lines:
        return ""
    return ('<section class="correction" aria-labelledby="corrections"><h2 id="corrections">Corrected by PMLR'
            f"</h2>\n<pre>{esc(chr(10).join(lines))}</pre></section>")


def _exports(paper: Paper, exported: tuple[str | None, ...]) -> str:
    from .exports import EXPORTS

    blocks = []
    for spec, text in zip(EXPORTS, exported):
        if text is None:
            continue
        ident = f"export-{spec.slug}"
        command = " ".join(["icml2026", "export", *spec.cli_args, "--keys", paper.label])
        # The newline after <pre> is dropped by every HTML parser: the text is exact.
        blocks.append(
            f'<section class="export" aria-labelledby="{ident}-h">\n<div class="bar"><h3 id="{ident}-h">'
            f'{esc(spec.label)}</h3>\n<button type="button" data-copy="{ident}" hidden>Copy {esc(spec.label)}'
            f'</button> <span id="{ident}-copied" class="copied" role="status"></span></div>\n'
            f'<pre id="{ident}" tabindex="0" aria-label="{esc(spec.label)}">\n{esc(text)}</pre>\n'
            f'<p class="command">The output of <code>{esc(command)}</code></p>\n</section>')
    return ('<section aria-labelledby="cite"><h2 id="cite">Cite this paper</h2>\n' + "\n".join(blocks)
            + "\n</section>")


def _provenance(paper: Paper) -> str:
    rows = []
    for pointer in sorted(paper.provenance):
        source = paper.sources.get(paper.provenance[pointer])
        if source is None:
            continue
        name = esc(source.name)
        where = f'<a href="{esc(source.url)}">{name}</a>' if source.url else name
        when = f" (retrieved {esc(source.retrieved)})" if source.retrieved else ""
        rows.append(f"<tr><td><code>{esc(pointer.lstrip('/'))}</code></td><td>{where}{when}</td></tr>")
    notes = "".join(f"<li>{esc(n)}</li>" for n in paper.notes)
    notes_html = f"<h3>Notes</h3><ul>{notes}</ul>" if notes else ""
    return ('<section aria-labelledby="provenance"><h2 id="provenance">Where each field comes from</h2>\n'
            '<table><thead><tr><th scope="col">Field</th><th scope="col">Source</th></tr></thead><tbody>'
            + "".join(rows) + f"</tbody></table>{notes_html}</section>")


# -- authors ----------------------------------------------------------------------------------

def _person_key(name: str) -> str:
    """Who a name is, for grouping: its folded words (``Müller`` = ``Muller``)."""
    from ..search import words

    return "-".join(words(name))


def _authors(papers: Sequence[Paper]) -> tuple[list[_Author], dict[tuple[int, int], str]]:
    """One author per folded name, shown in its most frequent spelling (ties: with accents,
    then alphabetical), sorted by folded family name then given name; and the slug of
    each (paper, author position)."""
    slug_of: dict[tuple[int, int], str] = {}
    spellings: dict[str, dict[str, int]] = {}
    order: dict[str, tuple[str, str]] = {}
    found: dict[str, list[int]] = {}
    for i, paper in enumerate(papers):
        for j, person in enumerate(paper.authors):
            key = _person_key(person.display)
            if not key:
                key = "x" + hashlib.sha256(person.display.encode("utf-8")).hexdigest()[:12]
            slug_of[i, j] = key
            counts = spellings.setdefault(key, {})
            counts[person.display] = counts.get(person.display, 0) + 1
            order.setdefault(key, (_person_key(person.family or person.display), key))
            papers_of = found.setdefault(key, [])
            if not papers_of or papers_of[-1] != i:
                papers_of.append(i)
    out = []
    for key in sorted(found, key=lambda k: order[k]):
        name = max(spellings[key].items(), key=lambda kv: (kv[1], not kv[0].isascii(), [-ord(c) for c in kv[0]]))[0]
        out.append(_Author(key, name, tuple(found[key])))
    return out, slug_of


def _author_index(authors: list[_Author]) -> str:
    items = "\n".join(f'<li><a href="{a.slug}.html">{esc(a.name)}</a> ({len(a.papers)})</li>' for a in authors)
    body = (f"<h1>Authors</h1>\n<p>{len(authors):,} authors, by family name. Names that differ only in accents, "
            f"case or punctuation are one author here, shown as most of their papers write it.</p>\n"
            f'<ul class="authorlist">\n{items}\n</ul>')
    return page(title=f"Authors | {SITE_NAME}", root="../", body=body, current="authors")


def _author_page(author: _Author, papers: Sequence[Paper], paths: list[str], bylines: list[str]) -> str:
    items = "\n".join(
        f'<li><a href="../{esc(paths[i])}">{_title_html(papers[i])}</a> <span class="byline">{esc(bylines[i])}</span></li>'
        for i in author.papers)
    count = len(author.papers)
    body = (f"<h1>{esc(author.name)}</h1>\n<p>{count} paper{'s' if count != 1 else ''} in ICML 2026.</p>\n"
            f'<ol class="papers">\n{items}\n</ol>')
    return page(title=f"{author.name} | {SITE_NAME}", root="../", body=body, current="authors")


# -- downloads ------------------------------------------------------------------------------

def _dist_files(dist_folder: Path | None) -> list[Path]:
    from ..dist import DERIVED, FILES

    if dist_folder is None:
        return []
    names = [spec.name for spec in FILES] + list(DERIVED)
    return [dist_folder / name for name in names if (dist_folder / name).is_file()]


def _downloads(dist_folder: Path | None) -> str:
    from ..dist import FILES, sha256

    titles = {spec.name: spec.title for spec in FILES}
    titles.update({"datapackage.json": "Frictionless data package: what each file is", "SHA256SUMS": "Checksums"})
    rows = []
    for path in _dist_files(dist_folder):
        data = path.read_bytes()
        rows.append(f'<tr><td><a href="downloads/{esc(path.name)}">{esc(path.name)}</a></td>'
                    f'<td>{esc(titles.get(path.name, ""))}</td><td class="num">{len(data):,}</td>'
                    f'<td class="sha">{sha256(data)}</td></tr>')
    if rows:
        table = ('<table><thead><tr><th scope="col">File</th><th scope="col">What</th>'
                 '<th scope="col">Bytes</th><th scope="col">SHA-256</th></tr></thead><tbody>'
                 + "\n".join(rows) + "</tbody></table>")
    else:
        table = "<p>This build of the site has no dist-data folder; <code>icml2026 dist</code> writes one.</p>"
    body = ("<h1>Downloads</h1>\n<p>Every paper of the volume in each format, as <code>icml2026 dist</code> "
            "writes them. Check a download with <code>sha256sum -c SHA256SUMS</code>.</p>\n" + table)
    return page(title=f"Downloads | {SITE_NAME}", root="", body=body, current="downloads")


# -- writing -------------------------------------------------------------------------------

def _refuse_foreign(target: Path) -> None:
    if target.exists() and not target.is_dir():
        raise OutputError(f"{target}: exists and is not a folder")
    if target.is_dir() and any(target.iterdir()) and not (target / MARKER).is_file():
        raise OutputError(f"{target}: a non-empty folder that icml2026 site did not write; "
                          "give an empty or new folder")
    parent = target.resolve().parent
    try:  # before minutes of rendering, not after
        parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"{target}: cannot make its folder ({exc.strerror or exc})") from None
    if not os.access(parent, os.W_OK | os.X_OK):
        raise OutputError(f"{parent}: not writable, so {target.name} cannot be written there")


def _write_tree(target: Path, files: dict[str, bytes], dist_folder: Path | None) -> None:
    """*files* (and the dist-data files under ``downloads/``) into a fresh folder beside
    *target*, then swapped in: readers see the old site or the new one, never a mix."""
    import tempfile

    parent = target.resolve().parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
        fresh = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=parent))
    except OSError as exc:
        raise OutputError(f"{target}: cannot write there ({exc.strerror or exc})") from None
    try:
        folders: set[Path] = set()
        for rel, data in files.items():
            path = fresh / rel
            if path.parent not in folders:
                path.parent.mkdir(parents=True, exist_ok=True)
                folders.add(path.parent)
            path.write_bytes(data)
        if dist_folder is not None:
            (fresh / "downloads").mkdir(exist_ok=True)
            for source in _dist_files(dist_folder):
                shutil.copyfile(source, fresh / "downloads" / source.name)
        (fresh / MARKER).write_text("Written by icml2026 site; the folder is replaced by the next build.\n",
                                    encoding="utf-8")
        os.chmod(fresh, 0o755)
        old = None
        if target.exists():
            old = parent / f".{target.name}.old-{os.getpid()}"
            target.rename(old)
        fresh.rename(target)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    except OSError as exc:
        shutil.rmtree(fresh, ignore_errors=True)
        raise OutputError(f"{target}: writing the site failed ({exc.strerror or exc}); nothing was changed") from None
