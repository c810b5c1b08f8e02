"""The website in a real browser: Debian's Chromium driven by Playwright, the site served
by ``http.server`` on 127.0.0.1.

Search (a title, an author typed without accents, an OpenReview id, a URL), the ranking
(the order of :meth:`PaperCollection.search`, which ``icml2026 list`` prints), following a
result to its page, the copy buttons (the clipboard holds what ``icml2026 export`` prints),
the meta tags as the browser's DOM reads them, and the keyboard (Tab reaches the search
box and every copy button).  The whole-volume tests build the full site once per session.
"""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from built_once import built_once
from conftest import REPO
from test_site import cli_export, facts, latex_text, small_papers, small_site  # noqa: F401  (a fixture)

import icml2026
from icml2026.site import build
from icml2026.site.exports import EXPORTS

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


def serve(folder: Path) -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(folder)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def small_url(small_site: Path) -> Iterator[str]:
    yield from serve(small_site)


@pytest.fixture
def page(browser: Any, small_url: str) -> Iterator[Any]:
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda exc: errors.append(str(exc)))
    yield tab
    context.close()
    assert errors == [], errors


def results(tab: Any, query: str) -> list[str]:
    """The result links' targets after typing *query* into the search box."""
    tab.fill("#q", query)
    tab.wait_for_function("document.getElementById('search').dataset.ready === 'all'")
    tab.fill("#q", "")
    tab.fill("#q", query)
    return [href.rpartition("/")[2].removesuffix(".html")
            for href in tab.eval_on_selector_all("#results a", "links => links.map(a => a.getAttribute('href'))")]


def test_search_a_title_an_author_without_accents_and_an_openreview_id(page: Any, small_url: str) -> None:
    page.goto(small_url + "index.html")
    assert results(page, "Topology Uncertainty")[0] == "abas2026turdpo"
    assert "acharya2026causcibench" in results(page, "scholkopf")  # Schölkopf
    assert "agarwal2026fast" in results(page, "Blaser")  # Bläser
    assert results(page, "YDztzMJynP") == ["abas2026turdpo"]
    assert results(page, "https://openreview.net/forum?id=YDztzMJynP") == ["abas2026turdpo"]
    assert results(page, "https://proceedings.mlr.press/v306/abas26a.html") == ["abas2026turdpo"]
    assert results(page, "https://github.com/mint-vu/Zero-Sum-SVD") == ["abbasi2026zero"]
    assert page.locator("#all-papers").is_hidden()
    page.click("#results a >> nth=0")
    page.wait_for_url("**/papers/abbasi2026zero.html")


@pytest.mark.parametrize("query", ["learning", "graph neural", "li", "optimization model", "müller",
                                   "transformer", "do-shapley", "abas2026turdpo", "nothingmatchesthis"])
def test_ranking_is_that_of_icml2026_list(page: Any, small_url: str, query: str) -> None:
    papers = icml2026.PaperCollection(small_papers())
    expected = [p.label for p in papers.search(query)]
    page.goto(small_url + "index.html")
    assert results(page, query) == expected[:100]


def test_copy_puts_the_export_on_the_clipboard(page: Any, small_url: str) -> None:
    key = "achara2026multiway"
    page.goto(small_url + f"papers/{key}.html")
    for spec in EXPORTS:
        page.click(f"button[data-copy='export-{spec.slug}']")
        page.wait_for_function(f"document.getElementById('export-{spec.slug}-copied').textContent === 'Copied.'")
        assert page.evaluate("navigator.clipboard.readText()") == cli_export(key, spec.cli_args), spec.slug


def test_meta_tags_in_the_dom(page: Any, small_url: str) -> None:
    page.goto(small_url + "papers/acharya2026causcibench.html")
    authors = page.eval_on_selector_all("meta[name=citation_author]", "m => m.map(x => x.content)")
    forum = page.get_attribute("a[href^='https://openreview.net/forum']", "href")
    fact = facts()[forum.partition("=")[2]]
    assert authors == [latex_text(a.strip()) for a in fact["author"].split(" and ")]
    assert page.get_attribute("meta[name=citation_title]", "content") == latex_text(fact["title"])


def focus_order(page: Any, steps: int) -> list[str]:
    seen = []
    for _ in range(steps):
        page.keyboard.press("Tab")
        seen.append(page.evaluate("(e => e.id || e.getAttribute('data-copy') || e.tagName)(document.activeElement)"))
    return seen


def test_the_keyboard_reaches_the_search_box_and_every_copy_button(page: Any, small_url: str) -> None:
    page.goto(small_url + "index.html")
    assert "q" in focus_order(page, 6)
    page.goto(small_url + "papers/abas2026turdpo.html")
    order = focus_order(page, 60)
    assert all(f"export-{spec.slug}" in order for spec in EXPORTS)
    page.goto(small_url + "papers/abas2026turdpo.html")
    while page.evaluate("document.activeElement.getAttribute('data-copy')") != "export-ris":
        page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    page.wait_for_function("document.getElementById('export-ris-copied').textContent === 'Copied.'")


def test_pages_read_without_javascript(browser: Any, small_url: str) -> None:
    context = browser.new_context(java_script_enabled=False)
    tab = context.new_page()
    tab.goto(small_url + "index.html")
    assert tab.locator("#all-papers li").count() == len(small_papers())
    assert tab.locator("#search").is_hidden()  # no box that could not work
    tab.goto(small_url + "papers/abas2026turdpo.html")
    assert tab.locator("#export-bibtex").is_visible() and tab.locator("button[data-copy]").first.is_hidden()
    context.close()


# -- the whole volume ------------------------------------------------------------------------

@pytest.fixture(scope="session")
def volume_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The website of the whole volume, built once a run: its tests share a group (one worker),
    and a worker that takes one of them over waits for the build instead of making its own."""
    def make(folder: Path) -> None:
        build(list(icml2026.load()), folder / "site", dist_folder=REPO / "dist-data", cache_folder=folder / "cache")

    return built_once(tmp_path_factory, "volume-site", make) / "site"


@pytest.fixture(scope="session")
def volume_url(volume_site: Path) -> Iterator[str]:
    yield from serve(volume_site)


@pytest.mark.slow(seconds=40, group="volume-site")  # with the site, built once a worker
def test_volume_site_has_every_paper(volume_site: Path, volume: icml2026.PaperCollection) -> None:
    assert len(list((volume_site / "papers").glob("*.html"))) == len(volume)
    index = (volume_site / "index.html").read_text(encoding="utf-8")
    assert index.count('<li><a href="papers/') == len(volume)


@pytest.mark.slow(seconds=20, group="volume-site")
def test_volume_search_in_the_browser(browser: Any, volume_url: str, volume: icml2026.PaperCollection) -> None:
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    tab = context.new_page()
    tab.goto(volume_url + "index.html")
    for query in ("diffusion", "Schölkopf", "scholkopf", "graph neural network", "zhang"):
        expected = [p.label for p in volume.search(query)][:100]
        assert results(tab, query) == expected, query
    found = results(tab, "YDztzMJynP")
    assert found == ["abas2026turdpo"]
    tab.click("#results a")
    tab.wait_for_url("**/papers/abas2026turdpo.html")
    tab.click("button[data-copy='export-bibtex']")
    tab.wait_for_function("document.getElementById('export-bibtex-copied').textContent === 'Copied.'")
    assert tab.evaluate("navigator.clipboard.readText()") == cli_export("abas2026turdpo", ("--format", "bibtex"))
    context.close()


@pytest.mark.slow(seconds=20, group="volume-site")
def test_volume_meta_tags(volume_site: Path, volume: icml2026.PaperCollection) -> None:
    from test_site import read

    raw = facts()
    for paper in list(volume)[::1000]:
        page = read(volume_site, f"papers/{paper.label}.html")
        fact = raw[paper.identifiers.openreview]
        meta = [value for name, value in page.meta if name == "citation_author"]
        assert meta == [latex_text(a.strip()) for a in fact["author"].split(" and ")], paper.label
        first, last = fact["pages"].split("--")
        assert ("citation_firstpage", first) in page.meta and ("citation_lastpage", last) in page.meta


def test_search_works_from_file_urls(browser: Any, small_site: Path) -> None:
    """Opened as a folder, without a server: the index is a script, which file:// allows."""
    context = browser.new_context()
    tab = context.new_page()
    tab.goto((small_site / "index.html").as_uri())
    assert results(tab, "YDztzMJynP") == ["abas2026turdpo"]
    context.close()
