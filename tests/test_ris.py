"""RIS export, read back by two independent readers: PyPI ``rispy`` and citation-js.

citation-js (npm ``@citation-js/core`` + ``@citation-js/plugin-ris``, test-only,
``tests/citation_js``; ``npm ci --prefix tests/citation_js``) maps RIS tags to
CSL variables per type, as reference managers do: it is the reader that tells
whether the proceedings title, series, editors and pages arrive where they belong.
"""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import seed_ids

import icml2026
from icml2026.exporters.plain import plain_text
from icml2026.exporters.ris import ris_name
from icml2026.model import Person, Proceedings

rispy = pytest.importorskip("rispy")

CITATION_JS = Path(__file__).parent / "citation_js"

# Every paper of the seed document is a complete record of the volume (seed facts).
SEED_PAPERS = len(seed_ids())


@pytest.fixture(scope="module")
def complete(papers: icml2026.PaperCollection) -> list[icml2026.Paper]:
    return list(papers.complete)


def parse(text: str) -> list[dict]:
    return rispy.loads(text)


def expected_fields(paper: icml2026.Paper) -> dict:
    """What an RIS reader must find for *paper*, in rispy's field names."""
    proc = paper.proceedings
    fields = {
        "type_of_reference": "CONF",
        "title": plain_text(paper.title),
        "authors": [ris_name(a) for a in paper.authors],
        "secondary_authors": [ris_name(e) for e in proc.editors],
        "secondary_title": proc.event_title,
        "custom3": proc.booktitle,
        "tertiary_title": proc.series,
        "volume": str(proc.volume),
        "year": str(proc.year),
        "date": f"{proc.year}///",
        "place_published": proc.address,
        "publisher": proc.publisher,
        "start_page": str(paper.pages.first),
        "end_page": str(paper.pages.last),
        "urls": [paper.links.proceedings],
        "language": paper.language,
    }
    if paper.abstract:
        fields["abstract"] = plain_text(paper.abstract)
    if paper.identifiers.doi:
        fields["doi"] = paper.identifiers.doi
    return fields


def test_round_trip_field_by_field(complete: list[icml2026.Paper]) -> None:
    entries = parse(icml2026.export(complete, "ris"))
    assert len(entries) == len(complete) == SEED_PAPERS
    for paper, entry in zip(complete, entries):
        assert entry == expected_fields(paper), paper.id


def test_first_and_last_tags(complete: list[icml2026.Paper]) -> None:
    text = icml2026.export(complete[:2], "ris")
    assert text.endswith("ER  - \n")
    records = text[:-1].split("\n\n")
    assert len(records) == 2
    for record in records:
        lines = record.split("\n")
        assert lines[0] == "TY  - CONF" and lines[-1] == "ER  - "
        assert all(len(line) >= 6 and line[2:6] == "  - " for line in lines)


def test_abstract_can_be_left_out(complete: list[icml2026.Paper]) -> None:
    entry = parse(icml2026.export(complete[:1], "ris", abstract=False))[0]
    assert "abstract" not in entry


def test_values_stay_on_one_line(complete: list[icml2026.Paper]) -> None:
    paper = dataclasses.replace(complete[0], title="Two\nlines", abstract="Para one.\n\nER  - injected")
    entries = parse(icml2026.export([paper], "ris"))
    assert len(entries) == 1
    assert entries[0]["title"] == "Two lines"
    assert entries[0]["abstract"] == "Para one. ER - injected"


def test_names() -> None:
    assert ris_name(Person(family="Berg", given="Anna", particle="van der", suffix="Jr.")) == "van der Berg, Anna, Jr."
    assert ris_name(Person(family="N’Guessan", given="Gnankan Landry Regis")) == "N’Guessan, Gnankan Landry Regis"
    assert ris_name(Person(literal="OpenAI Team")) == "OpenAI Team"


def test_imported_proceedings_with_only_the_required_fields(complete: list[icml2026.Paper]) -> None:
    bare = Proceedings(id="imported", booktitle="Proceedings of Something", year=2026)
    entry = parse(icml2026.export([dataclasses.replace(complete[0], proceedings=bare)], "ris"))[0]
    assert entry["custom3"] == "Proceedings of Something"
    assert entry["year"] == "2026" and entry["date"] == "2026///"
    # no conference name: T2 (the conference, for every reader of CONF) stays out rather than repeat C3
    for absent in ("secondary_title", "secondary_authors", "tertiary_title", "volume", "publisher",
                   "place_published"):
        assert absent not in entry


def test_deterministic(complete: list[icml2026.Paper]) -> None:
    assert icml2026.export(complete, "ris") == icml2026.export(list(complete), "ris")


# -- plain text ------------------------------------------------------------------

def test_abstracts_and_titles_are_plain_text(papers: icml2026.PaperCollection) -> None:
    """AB and TI carry no markup: readers show it literally (issue: `NC<span…>$\\to$</span>LP`)."""
    entries = parse(icml2026.export(papers.complete, "ris"))
    abstracts = {e["title"]: e.get("abstract", "") for e in entries}
    text = "\n".join(abstracts.values())
    assert "NC→LP" in text and "$\\to$" not in text
    assert "O(|μ − α|²)" in text and "\\mu" not in text
    assert "OpenDeception" in text and "*OpenDeception*" not in text
    assert not re.search(r"<(i|span)\b", text)


def test_math_without_a_unicode_form_keeps_its_latex(complete: list[icml2026.Paper]) -> None:
    """A script Unicode lacks is marked as plain text does (T^(3/4)); math that not even that
    reads keeps its LaTeX whole."""
    paper = dataclasses.replace(complete[0], title="Bounds in $T^{3/4}$ and $\\binom{k}{2}$ for $\\ell_2$",
                                title_protect=())
    entry = parse(icml2026.export([paper], "ris"))[0]
    assert entry["title"] == "Bounds in T^(3/4) and $\\binom{k}{2}$ for ℓ₂"


# -- dates -------------------------------------------------------------------------

def test_the_date_is_the_year_of_publication_only(complete: list[icml2026.Paper]) -> None:
    """README "Dates": PY and DA say the year and nothing finer (not the publication day 2026/09/29)."""
    for entry, paper in zip(parse(icml2026.export(complete, "ris")), complete):
        assert entry["year"] == str(paper.year)
        assert entry["date"] == f"{paper.year}///"


# -- citation-js -------------------------------------------------------------------

def _citation_js_skip() -> str | None:
    if shutil.which("node") is None:
        return "node is not installed: the citation-js RIS reader needs Node.js"
    if not (CITATION_JS / "node_modules" / "@citation-js" / "plugin-ris").is_dir():
        return "citation-js is not installed: run `npm ci --prefix tests/citation_js`"
    return None


def read_with_citation_js(text: str) -> list[dict]:
    done = subprocess.run(["node", str(CITATION_JS / "read_ris.js")], input=text, capture_output=True,
                          text=True, encoding="utf-8", timeout=120, check=True)
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def csl_names(people: tuple[Person, ...]) -> list[dict]:
    return [{"family": p.family, "given": p.given} for p in people]


@pytest.mark.skipif(_citation_js_skip() is not None, reason=_citation_js_skip() or "")
def test_citation_js_reads_every_field(complete: list[icml2026.Paper]) -> None:
    """Proceedings title, series, conference, editors, pages, date: all where CSL wants them."""
    items = read_with_citation_js(icml2026.export(complete, "ris"))
    assert len(items) == len(complete) == SEED_PAPERS
    for paper, item in zip(complete, items):
        proc = paper.proceedings
        expected = {
            "type": "paper-conference",
            "title": plain_text(paper.title),
            "author": csl_names(paper.authors),
            "editor": csl_names(proc.editors),
            "container-title": proc.booktitle,
            "collection-title": proc.series,
            "event-title": proc.event_title,
            "event-place": proc.address,
            "volume": str(proc.volume),
            "publisher": proc.publisher,
            "page": f"{paper.pages.first}-{paper.pages.last}",
            "issued": {"date-parts": [[proc.year]]},
            "event-date": {"date-parts": [[proc.year]]},  # citation-js reads PY of a CONF as the conference year
            "URL": paper.links.proceedings,
            "language": paper.language,
        }
        if paper.abstract:
            expected["abstract"] = plain_text(paper.abstract)
        if paper.identifiers.doi:
            expected["DOI"] = paper.identifiers.doi
        assert item == expected, paper.id
