"""Every exporter on the whole volume, each output read back by an independent reader.

(The formatted reference lists of the whole volume are rendered by ``icml2026 dist`` and
checked by tests/test_dist.py; real TeX compiles the BibTeX in tests/test_volume_tex.py.)
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import REPO

import icml2026


@pytest.fixture(scope="module")
def complete(volume: icml2026.PaperCollection) -> icml2026.PaperCollection:
    return volume.complete


@pytest.mark.slow
def test_bibtex_and_biblatex_have_every_paper_once(complete: icml2026.PaperCollection) -> None:
    import pybtex.database

    for fmt in ("bibtex", "biblatex"):
        text = icml2026.export(complete, fmt)
        parsed = pybtex.database.parse_string(text, "bibtex")
        assert sorted(parsed.entries.keys()) == sorted(p.citation_key for p in complete), fmt
        if fmt == "bibtex":
            assert text.isascii()


def test_csl_json_validates_against_the_official_schema(complete: icml2026.PaperCollection) -> None:
    import jsonschema

    items = json.loads(icml2026.export(complete, "csl-json"))
    assert [i["id"] for i in items] == [p.citation_key for p in complete]
    schema = json.loads((REPO / "tests" / "data" / "csl-data.schema.json").read_text(encoding="utf-8"))
    validator = jsonschema.Draft7Validator(schema)
    errors = list(validator.iter_errors(items))
    assert errors == []


def test_ris_reads_back_with_rispy(complete: icml2026.PaperCollection) -> None:
    import rispy

    entries = rispy.loads(icml2026.export(complete, "ris"))
    assert len(entries) == len(complete)
    assert [e["title"] for e in entries[:3]] and all(e.get("authors") for e in entries)


def test_json_lines_round_trip_through_load(complete: icml2026.PaperCollection, tmp_path: Path) -> None:
    path = tmp_path / "volume.jsonl"
    path.write_text(icml2026.export(complete, "jsonl"), encoding="utf-8")
    again = icml2026.load([path])
    assert [p.to_dict() for p in again] == [p.to_dict() for p in complete]
