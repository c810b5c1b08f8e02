"""Hayagriva export, read by PyYAML and compiled by the real Typst compiler.

Typst (PyPI ``typst``, the compiler with Hayagriva inside) typesets a document that
cites 50 papers in its built-in IEEE, APA and Chicago styles; pypdf reads the PDF's
text, which is checked against the editors' BibTeX (``tools/sources/corpora/
pmlr-v306-facts.bib``, its LaTeX decoded by pylatexenc), never against our records.
Papers are matched to source entries by their OpenReview id.
"""

from __future__ import annotations

import dataclasses
import re
import unicodedata
from pathlib import Path

import pytest
from conftest import SHARED

import icml2026
from icml2026 import markup
from icml2026.errors import UsageError
from icml2026.exporters.hayagriva import quote, title
from icml2026.model import Person

yaml = pytest.importorskip("yaml")
typst = pytest.importorskip("typst")
pypdf = pytest.importorskip("pypdf")

FACTS = SHARED / "corpora" / "pmlr-v306-facts.bib"
STYLES = ("ieee", "apa", "chicago-author-date")


def export(papers: list[icml2026.Paper]) -> str:
    return icml2026.export(papers, "hayagriva")


def compile_text(tmp_path: Path, yml: str, keys: list[str], style: str) -> str:
    """The text of the PDF Typst makes of a document citing *keys* from *yml* in *style*."""
    (tmp_path / "refs.yml").write_text(yml, encoding="utf-8")
    cites = " ".join(f"@{key}" for key in keys)
    # A wide page and no hyphenation: each reference is one line of the extracted text.
    (tmp_path / "doc.typ").write_text(
        "#set page(width: 300cm, height: auto, margin: 1cm)\n#set text(size: 6pt, hyphenate: false)\n"
        f"{cites}\n\n#bibliography(\"refs.yml\", style: \"{style}\")\n", encoding="utf-8")
    typst.compile(str(tmp_path / "doc.typ"), output=str(tmp_path / "doc.pdf"))
    reader = pypdf.PdfReader(str(tmp_path / "doc.pdf"))
    return "\n".join(page.extract_text() for page in reader.pages)


def letters(text: str) -> str:
    """Letters and digits only, compatibility-folded and case-folded: what survives any style."""
    text = unicodedata.normalize("NFKC", text).casefold()
    return "".join(ch for ch in text if ch.isalnum())


# --------------------------------------------------------------------------- the oracle

def source_entries() -> list[dict[str, str]]:
    """The papers of the editors' BibTeX: title, first author's family name, pages, OpenReview id."""
    from pybtex.database import parse_string
    from pylatexenc.latex2text import LatexNodes2Text

    decode = LatexNodes2Text(math_mode="text").latex_to_text
    bib = parse_string(FACTS.read_text(encoding="utf-8"), "bibtex")
    entries = []
    for entry in bib.entries.values():
        if entry.type.lower() != "inproceedings":
            continue
        first = entry.persons["author"][0]
        family = " ".join(first.prelast_names + first.last_names)
        entries.append({
            "title": entry.fields["title"],
            "title_text": decode(entry.fields["title"]),
            "family": unicodedata.normalize("NFC", decode(family)),
            "pages": entry.fields["pages"].replace("--", "-"),
            "openreview": entry.fields["openreview"],
        })
    return entries


def sample(entries: list[dict[str, str]]) -> list[dict[str, str]]:
    """50 entries: titles with math, protected words or accents first, then an even spread."""
    def special(e: dict[str, str]) -> bool:
        return "$" in e["title"] or "\\" in e["title"] or "\\" in e["family"] or not e["family"].isascii()

    math = [e for e in entries if "$" in e["title"] and "\\" not in e["title"]][:12]
    odd = [e for e in entries if special(e) and e not in math][:13]
    rest = [e for e in entries if e not in math and e not in odd]
    return math + odd + rest[:: len(rest) // 25][:25]


@pytest.fixture(scope="module")
def cited(volume: icml2026.PaperCollection) -> list[tuple[dict[str, str], icml2026.Paper]]:
    by_openreview = {p.identifiers.openreview: p for p in volume if p.identifiers.openreview}
    chosen = sample(source_entries())
    assert len(chosen) == 50
    return [(e, by_openreview[e["openreview"]]) for e in chosen]


@pytest.fixture(scope="module")
def pdf_text(cited: list[tuple[dict[str, str], icml2026.Paper]],
             tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    papers = [paper for _, paper in cited]
    yml = export(papers)
    keys = list(yaml.safe_load(yml))
    return {style: compile_text(tmp_path_factory.mktemp(style), yml, keys, style) for style in STYLES}


def reference_line(text: str, entry: dict[str, str]) -> str:
    """The one line of *text* holding the entry's title (letters compared, any casing)."""
    want = letters(entry["title_text"])
    lines = [line for line in text.splitlines() if want in letters(line)]
    assert len(lines) == 1, (entry["title_text"], lines)
    return lines[0]


def protected_words(source_title: str) -> list[str]:
    """The words the source braces (``{TUR}``, ``{Q}uantum{B}oost`` → QuantumBoost), decoded."""
    text = re.sub(r"\$[^$]*\$", " ", source_title)  # braces in math are TeX grouping
    words = re.findall(r"[^\s:,()/-]*\{[^{}$\\]+\}[^\s:,()/-]*", text)
    return [w.replace("{", "").replace("}", "") for w in words if "\\" not in w]


@pytest.mark.slow(seconds=4, group="typst-50")  # one PDF a style (pdf_text), made once
@pytest.mark.parametrize("style", STYLES)
def test_typst_prints_title_and_first_author(cited: list, pdf_text: dict[str, str], style: str) -> None:
    for entry, _ in cited:
        line = reference_line(pdf_text[style], entry)
        assert letters(entry["family"]) in letters(line), (style, entry, line)
        # Each protected word keeps its capitals, even in APA's sentence case.
        flat = " ".join(line.split())
        for word in protected_words(entry["title"]):
            assert word in flat, (style, word, flat)


@pytest.mark.slow(seconds=4, group="typst-50")
def test_ieee_prints_the_page_range(cited: list, pdf_text: dict[str, str]) -> None:
    for entry, _ in cited:
        line = reference_line(pdf_text["ieee"], entry)
        first, _, last = entry["pages"].partition("-")
        pages = f"pp. {first}\u2013{last}" if last and last != first else f"p. {first}"
        assert pages in line, (entry, line)
        assert "Proceedings of the 43rd International Conference on Machine Learning" in line


@pytest.mark.slow(seconds=4, group="typst-50")
@pytest.mark.parametrize("style", ["apa", "chicago-author-date"])
def test_typst_drops_the_pages_in_apa_and_chicago(cited: list, pdf_text: dict[str, str], style: str) -> None:
    """The defect the README describes (Typst 0.15.2): no pages, the proceedings title twice.

    When a Typst release fixes it this test fails: then say so in the README."""
    for entry, _ in cited:
        line = reference_line(pdf_text[style], entry)
        first, _, last = entry["pages"].partition("-")
        assert f"{first}\u2013{last}" not in line
        assert line.count("Proceedings of the 43rd International Conference on Machine Learning") == 2


# --------------------------------------------------------------------------- YAML

HOSTILE = [
    "Key: value pairs",
    "# not a comment",
    "- not a list item",
    "yes",
    "null",
    "~",
    "123",
    "2026-07-06",
    '"Quoted" and \'single\' quotes',
    "Line one\nline two",
    "Tab\there",
    "Braces {left} and } right {",
    "Dollar $5 and back\\slash",
    "[flow] {mapping}: & *alias !tag %directive @at `tick` |pipe >fold",
    "Control \x07 bell and \u2028 separator",
]
# Titles are stored in our markup (icml2026.markup): the plain ones escaped, and one with markup.
MARKED_UP = "*Emphasised* title with $\\alpha$ and $\\binom{n}{k}$"


def hostile_papers(volume: icml2026.PaperCollection) -> list[icml2026.Paper]:
    base = volume["pmlr-v306-abas26a"]
    titles = [markup.escape(t) for t in HOSTILE] + [MARKED_UP]
    return [dataclasses.replace(base, id=f"hostile-{n}", title=t, title_protect=(),
                                citation_key=f"hostile{n}")
            for n, t in enumerate(titles)]


def test_yaml_reads_back_every_field(volume: icml2026.PaperCollection) -> None:
    papers = list(volume)[:200]
    data = yaml.safe_load(export(papers))
    assert len(data) == 200
    for (key, item), paper in zip(data.items(), papers):
        assert key == paper.citation_key
        assert item["type"] == "article"
        assert item["date"] == 2026
        assert item["page-range"] == paper.pages.as_text("-")
        assert item["url"] == paper.links.proceedings
        assert [a["name"] for a in item["author"]] == [a.family or a.literal for a in paper.authors]
        parent = item["parent"]
        assert parent["type"] == "proceedings"
        assert parent["title"] == {"value": "Proceedings of the 43rd International Conference on Machine Learning",
                                   "verbatim": True}
        assert parent["volume"] == 306
        assert parent["location"]["value"] == "Seoul, South Korea"
        assert parent["publisher"]["value"] == "PMLR"
        assert len(parent["editor"]) == 10
        assert parent["parent"]["title"]["value"] == "Proceedings of Machine Learning Research"


def test_hostile_titles_read_back_exactly(volume: icml2026.PaperCollection) -> None:
    papers = hostile_papers(volume)
    data = yaml.safe_load(export(papers))
    for paper, item in zip(papers, data.values()):
        assert item["title"] == title(paper.title), paper.title
        assert isinstance(item["title"], str)


@pytest.mark.parametrize("value", HOSTILE + ["\ufeffbom", "nel\x85", "\x00nul", "\x7f", "é ü 中文"])
def test_quote_round_trips(value: str) -> None:
    assert yaml.safe_load(f"k: {quote(value)}") == {"k": value}


def test_title_braces_protected_words_and_escapes_markup() -> None:
    assert title("TUR-DPO: x", [(0, 3), (4, 7)]) == "{TUR}-{DPO}: x"
    assert title("xLSTM rules", [(1, 5)]) == "{xLSTM} rules"
    assert title("Cost \\$5 {x}", []) == "Cost \\$5 \\{x\\}"
    assert title("$\\alpha$-Bench", []) == "{α}-Bench"
    assert title("$\\binom{n}{k}$ ways", []) == "{\\$\\\\binom\\{n\\}\\{k\\}\\$} ways"


def test_typst_prints_hostile_titles_literally(volume: icml2026.PaperCollection, tmp_path: Path) -> None:
    papers = hostile_papers(volume)
    text = compile_text(tmp_path, export(papers), [p.citation_key for p in papers], "ieee")
    flat = " ".join(text.split())
    for expected in ["Key: value pairs", "# not a comment", "- not a list item", "“yes,”", "“null,”",
                     "Braces {left} and } right {", "Dollar $5 and back\\slash", "Line one line two",
                     "[flow] {mapping}: & *alias !tag %directive @at `tick` |pipe >fold",
                     "Emphasised title with α and $\\binom{n}{k}$"]:
        assert expected in flat, expected


def test_names_by_part() -> None:
    from icml2026.exporters.hayagriva import person_parts

    assert person_parts(Person(family="Wolf", given="Ronald", particle="de")) == [
        ("name", "Wolf"), ("given-name", "Ronald"), ("prefix", "de")]
    assert person_parts(Person(literal="The {ICML} Team, Inc.")) == [("name", "The {ICML} Team, Inc.")]
    assert person_parts(Person(given="Mononym")) == [("name", "Mononym")]


def test_output_is_deterministic_and_empty_is_a_mapping(papers: icml2026.PaperCollection) -> None:
    assert export(list(papers)) == export(list(papers))
    assert yaml.safe_load(icml2026.export([], "hayagriva")) == {}


def test_unknown_key_style_is_a_usage_error(papers: icml2026.PaperCollection) -> None:
    with pytest.raises(UsageError):
        icml2026.export(list(papers), "hayagriva", key_style="nope")


@pytest.mark.slow(seconds=30)
def test_typst_compiles_the_whole_volume(volume: icml2026.PaperCollection, tmp_path: Path) -> None:
    """Every title, name and field of the 6,552 papers is one Typst accepts (IEEE, all listed).

    IEEE numbers the entries in the order it prints them, so the last number printed is the
    count: it is on the last two pages (an entry broken over a page starts on the one before),
    and only their text is extracted (pypdf takes minutes for the whole volume's)."""
    (tmp_path / "refs.yml").write_text(export(list(volume.complete)), encoding="utf-8")
    (tmp_path / "doc.typ").write_text("#set page(width: 300cm, height: 100cm)\n"
                                      "#bibliography(\"refs.yml\", style: \"ieee\", full: true)\n", encoding="utf-8")
    typst.compile(str(tmp_path / "doc.typ"), output=str(tmp_path / "doc.pdf"))
    pages = pypdf.PdfReader(str(tmp_path / "doc.pdf")).pages
    assert len(pages) > 2
    text = "\n".join(page.extract_text() for page in list(pages)[-2:])
    numbers = [int(n) for n in re.findall(r"^\[(\d+)\]", text, flags=re.MULTILINE)]
    assert len(volume.complete) == 6552
    assert numbers and numbers == list(range(numbers[0], numbers[0] + len(numbers)))  # in order, one a line
    assert numbers[-1] == 6552 and "[6553]" not in text
