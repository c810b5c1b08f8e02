"""RIS export, read back with an independent reader (PyPI ``rispy``)."""

from __future__ import annotations

import dataclasses

import pytest

import icml2026
from icml2026 import markup
from icml2026.exporters.ris import ris_name
from icml2026.model import Person, Proceedings

rispy = pytest.importorskip("rispy")


@pytest.fixture(scope="module")
def complete(papers: icml2026.PaperCollection) -> list[icml2026.Paper]:
    return list(papers.complete)


def parse(text: str) -> list[dict]:
    return rispy.loads(text)


def expected_fields(paper: icml2026.Paper) -> dict:
    """What an RIS reader must find for *paper*, in rispy's field names."""
    proc = paper.proceedings
    fields = {
        "type_of_reference": "CPAPER",
        "title": markup.to_plain(paper.title),
        "authors": [ris_name(a) for a in paper.authors],
        "secondary_authors": [ris_name(e) for e in proc.editors],
        "secondary_title": proc.event_title,
        "custom3": proc.booktitle,
        "tertiary_title": proc.series,
        "volume": str(proc.volume),
        "year": str(proc.year),
        "date": proc.published.replace("-", "/"),
        "place_published": proc.address,
        "publisher": proc.publisher,
        "start_page": str(paper.pages.first),
        "end_page": str(paper.pages.last),
        "urls": [paper.links.proceedings],
        "language": paper.language,
    }
    if paper.abstract:
        fields["abstract"] = markup.to_plain(paper.abstract)
    if paper.identifiers.doi:
        fields["doi"] = paper.identifiers.doi
    return fields


def test_round_trip_field_by_field(complete: list[icml2026.Paper]) -> None:
    entries = parse(icml2026.export(complete, "ris"))
    assert len(entries) == len(complete) == 18
    for paper, entry in zip(complete, entries):
        assert entry == expected_fields(paper), paper.id


def test_first_and_last_tags(complete: list[icml2026.Paper]) -> None:
    text = icml2026.export(complete[:2], "ris")
    assert text.endswith("ER  - \n")
    records = text[:-1].split("\n\n")
    assert len(records) == 2
    for record in records:
        lines = record.split("\n")
        assert lines[0] == "TY  - CPAPER" and lines[-1] == "ER  - "
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
    assert entry["secondary_title"] == entry["custom3"] == "Proceedings of Something"
    assert entry["year"] == "2026" and entry["date"] == "2026///"
    for absent in ("secondary_authors", "tertiary_title", "volume", "publisher", "place_published"):
        assert absent not in entry


def test_deterministic(complete: list[icml2026.Paper]) -> None:
    assert icml2026.export(complete, "ris") == icml2026.export(list(complete), "ris")
