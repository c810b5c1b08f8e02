"""``icml2026 site``: the static website, read back with the standard library's HTML parser.

Oracles: each export block equals what ``icml2026 export`` prints for that paper (the
command, run as a subprocess); the ``citation_*`` meta tags equal the raw proceedings
BibTeX (``tools/sources/corpora/pmlr-v306-facts.bib``, read with pybtex); two builds
give the same bytes.  The browser tests are in ``test_site_browser.py``.
"""

from __future__ import annotations

import hashlib
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from conftest import REPO, SHARED

import icml2026
from icml2026.site import build
from icml2026.site.exports import EXPORTS

# Papers beyond the seed ones: accents in names, math without a Unicode form, a code link.
EXTRA = ("achara2026multiway", "acharya2026causcibench", "agarwal2026fast", "cohen2026improved",
         "abbasi2026zero", "abas2026turdpo")


class Page(HTMLParser):
    """What a test needs of a page: meta tags, the text of elements with an id, links."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.meta: list[tuple[str, str]] = []
        self.by_id: dict[str, str] = {}
        self.links: list[str] = []
        self.resources: list[str] = []
        self._open: list[tuple[str, str | None]] = []
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "meta" and a.get("name"):
            self.meta.append((a["name"] or "", a.get("content") or ""))
        if tag == "a" and a.get("href"):
            self.links.append(a["href"] or "")
        if tag in ("script", "link", "img") and (a.get("src") or a.get("href")):
            self.resources.append(a.get("src") or a.get("href") or "")
        if tag not in ("meta", "link", "input", "br", "img"):
            self._open.append((tag, a.get("id")))
            if a.get("id"):
                self.by_id[a["id"] or ""] = ""

    def handle_endtag(self, tag: str) -> None:
        while self._open:
            if self._open.pop()[0] == tag:
                break

    def handle_data(self, data: str) -> None:
        if self._open and self._open[-1][0] == "pre" and self.by_id.get(self._open[-1][1] or "") == "":
            data = data.removeprefix("\n")  # HTML drops a newline right after <pre>; this parser does not
        for _, ident in self._open:
            if ident:
                self.by_id[ident] += data


def small_papers() -> list[icml2026.Paper]:
    from conftest import seed_ids

    volume = icml2026.load()
    return list(volume.select([*seed_ids(), *EXTRA]))


@pytest.fixture(scope="session")
def small_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site of the seed papers and a few more, with the repository's dist-data."""
    out = tmp_path_factory.mktemp("site") / "site"
    build(small_papers(), out, dist_folder=REPO / "dist-data", cache_folder=None, jobs=1)
    return out


def read(site: Path, rel: str) -> Page:
    return Page((site / rel).read_text(encoding="utf-8"))


def cli_export(key: str, args: tuple[str, ...]) -> str:
    done = subprocess.run([sys.executable, "-m", "icml2026", "export", *args, "--keys", key],
                          capture_output=True, text=True, check=True)
    return done.stdout


def test_every_export_is_what_icml2026_export_prints(small_site: Path) -> None:
    for key in ("abas2026turdpo", "cohen2026improved", "achara2026multiway"):
        page = read(small_site, f"papers/{key}.html")
        for spec in EXPORTS:
            shown = page.by_id[f"export-{spec.slug}"]
            assert shown == cli_export(key, spec.cli_args), (key, spec.slug)


def facts() -> dict[str, dict[str, str]]:
    """The raw proceedings BibTeX, by OpenReview id: title, authors, pages as PMLR wrote them."""
    from pybtex.database import parse_file

    data = parse_file(str(SHARED / "corpora" / "pmlr-v306-facts.bib"), bib_format="bibtex")
    out = {}
    for entry in data.entries.values():
        if entry.type.lower() != "inproceedings":
            continue
        fields = {k.lower(): v for k, v in entry.fields.items()}
        fields["author"] = " and ".join(str(p) for p in entry.persons.get("author", []))
        out[fields["openreview"]] = fields
    return out


def latex_text(source: str) -> str:
    """BibTeX field text as Unicode, by pylatexenc's LaTeX reader (accents, braces, dashes)."""
    from pylatexenc.latex2text import LatexNodes2Text

    return str(LatexNodes2Text().latex_to_text(source))


def test_meta_tags_match_the_raw_proceedings_bibtex(small_site: Path) -> None:
    raw = facts()
    proceedings_facts = (SHARED / "corpora" / "pmlr-v306-facts.bib").read_text(encoding="utf-8")
    booktitle = re.search(r"booktitle = \{(.*)\},", proceedings_facts)
    published = re.search(r"published = \{(\d{4})-(\d\d)-(\d\d)\}", proceedings_facts)
    assert booktitle and published
    checked = 0
    for key in ("abas2026turdpo", "abbasi2026zero", "achara2026multiway", "acharya2026causcibench"):
        page = read(small_site, f"papers/{key}.html")
        meta: dict[str, list[str]] = {}
        for name, value in page.meta:
            meta.setdefault(name, []).append(value)
        forum = next(link for link in page.links if link.startswith("https://openreview.net/forum?id="))
        fact = raw[forum.partition("=")[2]]
        assert meta["citation_title"] == [latex_text(fact["title"])]
        assert meta["citation_author"] == [latex_text(a.strip()) for a in fact["author"].split(" and ")]
        first, last = fact["pages"].split("--")
        assert (meta["citation_firstpage"], meta["citation_lastpage"]) == ([first], [last])
        assert meta["citation_conference_title"] == [booktitle.group(1)]
        assert meta["citation_publication_date"] == ["/".join(published.groups())]
        assert meta["citation_volume"] == ["306"] and meta["citation_publisher"] == ["PMLR"]
        assert meta["citation_pdf_url"][0].endswith(".pdf")
        checked += 1
    assert checked == 4


def test_two_builds_give_the_same_bytes(small_site: Path, tmp_path: Path) -> None:
    again = tmp_path / "again"
    build(small_papers(), again, dist_folder=REPO / "dist-data", cache_folder=tmp_path / "cache", jobs=1)
    assert _digests(again) == _digests(small_site)


def _digests(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_the_cache_gives_what_rendering_gives(tmp_path: Path) -> None:
    from icml2026.site.exports import render_cached

    papers = small_papers()[:3]
    first, rendered = render_cached(papers, tmp_path, jobs=1)
    cached = list(tmp_path.glob("site-exports-*.jsonl"))
    assert rendered == 3 and len(cached) == 1 and len(cached[0].read_text(encoding="utf-8").splitlines()) == 3
    assert render_cached(papers, tmp_path, jobs=1) == (first, 0)


def test_no_resource_leaves_the_site(small_site: Path) -> None:
    """No CDN, no web font: every script, style sheet and image is a file of the site."""
    for path in small_site.rglob("*.html"):
        for ref in read(small_site, path.relative_to(small_site).as_posix()).resources:
            assert "//" not in ref and (path.parent / ref).resolve().is_file(), (path, ref)
    css = (small_site / "assets" / "site.css").read_text(encoding="utf-8")
    assert "url(" not in css and "@import" not in css and "@font-face" not in css


def test_internal_links_resolve(small_site: Path) -> None:
    for path in [small_site / "index.html", small_site / "papers" / "abas2026turdpo.html",
                 small_site / "authors" / "index.html", small_site / "downloads.html"]:
        for link in read(small_site, path.relative_to(small_site).as_posix()).links:
            if "://" in link or link.startswith("#"):
                continue
            assert (path.parent / link.partition("#")[0]).resolve().is_file(), (path, link)


def test_pages_have_landmarks_and_one_heading(small_site: Path) -> None:
    for rel in ("index.html", "papers/abas2026turdpo.html", "authors/index.html", "downloads.html"):
        text = (small_site / rel).read_text(encoding="utf-8")
        assert '<html lang="en">' in text and text.count("<h1>") == 1
        for landmark in ("<header>", '<main id="main">', "<footer>", '<nav aria-label="Site">',
                         'href="#main"'):
            assert landmark in text, (rel, landmark)


def test_math_is_readable_and_never_raw_tex(small_site: Path) -> None:
    page = (small_site / "papers" / "cohen2026improved.html").read_text(encoding="utf-8")
    assert '<h1>Improved Distribution Estimation in <span class="math">ℓ<sub>∞</sub></span></h1>' in page
    index = (small_site / "index.html").read_text(encoding="utf-8")
    titles = re.findall(r'<li><a href="papers/[^"]+">(.*?)</a>', index)
    assert titles and not [t for t in titles if "$" in t or "\\" in t]


def test_authors_are_folded_for_matching_and_shown_as_written(small_site: Path) -> None:
    page = read(small_site, "authors/scholkopf-bernhard.html" if (small_site / "authors" /
                "scholkopf-bernhard.html").exists() else "authors/bernhard-scholkopf.html")
    assert "Bernhard Schölkopf" in (small_site / "authors" / "bernhard-scholkopf.html").read_text(encoding="utf-8")
    assert any(link.endswith("acharya2026causcibench.html") for link in page.links)
    paper = read(small_site, "papers/acharya2026causcibench.html")
    assert "../authors/bernhard-scholkopf.html" in paper.links


def test_downloads_list_the_dist_files_with_sizes_and_sha256(small_site: Path) -> None:
    text = (small_site / "downloads.html").read_text(encoding="utf-8")
    sums = (REPO / "dist-data" / "SHA256SUMS").read_text(encoding="utf-8").split("\n")
    listed = [line.split() for line in sums if line.strip()]
    assert listed
    for digest, name in listed:
        name = name.lstrip("*")
        data = (small_site / "downloads" / name).read_bytes()
        assert hashlib.sha256(data).hexdigest() == digest
        assert f'<a href="downloads/{name}">{name}</a>' in text and digest in text
        assert f'<td class="num">{len(data):,}</td>' in text


def test_the_command_refuses_a_folder_it_did_not_write(tmp_path: Path) -> None:
    (tmp_path / "mine.txt").write_text("keep me", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "icml2026", "site", "-o", str(tmp_path), "--no-cache"],
                          capture_output=True, text=True)
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "did not write" in done.stderr
    assert (tmp_path / "mine.txt").read_text(encoding="utf-8") == "keep me"


def test_a_correction_of_icml2026_update_is_shown(tmp_path: Path) -> None:
    """A corrections layer (as ``icml2026 update`` writes it) changes the page: the corrected
    title, a section saying what the package had, and exports made from the corrected record."""
    from icml2026.model import Source
    from icml2026.update.layer import Correction, Layer
    from icml2026.update.paths import layer_path

    packaged = icml2026.load(corrections=False)["abas2026turdpo"]
    new_title = "TUR-DPO: Topology- and Uncertainty-Aware Direct Preference Optimisation"
    layer = Layer(Source(name="PMLR's published BibTeX", url="https://proceedings.mlr.press/v306/bibliography.bib",
                         retrieved="2026-12-01"), "0" * 64, 1, 1, icml2026.__version__,
                  (Correction(packaged.id, "/title", packaged.title, new_title),))
    path = layer_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(__import__("json").dumps(layer.to_json()), encoding="utf-8")
    try:
        paper = icml2026.load()["abas2026turdpo"]
        assert paper.title == new_title
        build([paper], tmp_path / "site", cache_folder=None, jobs=1)
        page = read(tmp_path / "site", "papers/abas2026turdpo.html")
        assert page.by_id["corrections"] == "Corrected by PMLR"
        assert "title in the package: TUR-DPO: Topology- and Uncertainty-Aware Direct Preference Optimization" \
            in (tmp_path / "site" / "papers" / "abas2026turdpo.html").read_text(encoding="utf-8")
        assert ("citation_title", new_title) in page.meta
        assert page.by_id["export-ris"] == cli_export("abas2026turdpo", ("--format", "ris"))
        assert "Optimisation" in page.by_id["export-ris"]
    finally:
        path.unlink()


def test_an_unwritable_place_is_one_line_before_any_rendering(tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "icml2026", "site", "-o", str(tmp_path / "a-file" / "site"),
                           "--no-cache"], capture_output=True, text=True)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1 and "a-file" in done.stderr
