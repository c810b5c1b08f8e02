"""The library's own schema decides the fields: Zotero 8 (schema v41) and Zotero 7 (schema v33).

Zotero 8's conferencePaper has ``citationKey`` (since schema v39; Better BibTeX 9 reads
it and ignores an Extra "Citation Key:" line), ``ISSN`` and ``eventPlace`` (v41);
Zotero 7's (v33) has none of them, and its server refuses them ("Invalid property").
Both schemas are ``schema.json`` of zotero/zotero-schema (tests/data/README.md).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from zotero_helpers import KEY, USER_ID, papers, run_sync, server, user_library  # noqa: F401
from zotero_server import Schema, ZoteroServer

from icml2026.zotero import item_key, mapping

DATA = Path(__file__).with_name("data")
V33 = DATA / "zotero-schema-v33.json"
V41 = DATA / "zotero-schema-v41.json"


def conference_paper_fields(path: Path) -> list[str]:
    raw = json.loads(path.read_text(encoding="utf-8"))
    (entry,) = (t for t in raw["itemTypes"] if t["itemType"] == "conferencePaper")
    return [f["field"] for f in entry["fields"]]


@pytest.fixture
def zotero7():
    with ZoteroServer(Schema(V33)) as running:
        running.add_key(KEY, USER_ID)
        yield running


def test_every_field_of_the_newest_schema_is_mapped_or_said_why_not():
    fields = conference_paper_fields(V41)
    owned = set(mapping.OWNED_FIELDS) - {"creators"}
    assert owned.isdisjoint(mapping.NOT_MAPPED)
    assert owned | set(mapping.NOT_MAPPED) == set(fields)
    # The fields of 2026 (schema PR #9, v39-v41) that we have facts for are owned.
    assert {"citationKey", "eventPlace", "ISSN"} <= owned - set(conference_paper_fields(V33))


def test_zotero_8_gets_the_native_citation_key_and_no_extra_line(server, papers):
    report = run_sync(server, papers)
    assert report.ok
    for paper in papers.complete:
        data = user_library(server).items[item_key(paper.id)]
        assert data["citationKey"] == paper.citation_key
        assert "Citation Key:" not in data["extra"]
        assert data["eventPlace"] == paper.proceedings.address and data["ISSN"] == paper.proceedings.issn
    assert server.count("GET itemTypeFields") == 1


def test_zotero_7_gets_the_key_in_extra_and_only_fields_its_schema_has(zotero7, papers, tmp_path):
    v33 = set(conference_paper_fields(V33))
    report = run_sync(zotero7, papers, state_dir=tmp_path)
    assert report.ok and report.counts["create"] == len(papers.complete)
    for paper in papers.complete:
        data = user_library(zotero7).items[item_key(paper.id)]
        assert f"Citation Key: {paper.citation_key}" in data["extra"].splitlines()
        assert not {"citationKey", "eventPlace", "ISSN"} & set(data)
        assert {k for k in data if k not in mapping.OWNED_FIELDS and k not in
                ("key", "version", "itemType", "tags", "collections", "relations", "dateAdded",
                 "dateModified")} <= v33
        assert data["place"] == paper.proceedings.address
    # Re-syncs write nothing: with the state one request, without it one read and the schema.
    zotero7.reset_counts()
    assert run_sync(zotero7, papers, state_dir=tmp_path).counts["unchanged"] == len(papers.complete)
    assert sum(zotero7.requests.values()) == 1
    zotero7.reset_counts()
    assert run_sync(zotero7, papers).counts["unchanged"] == len(papers.complete)
    assert zotero7.count("POST items") == 0 and zotero7.count("GET itemTypeFields") == 1


def test_an_upgrade_to_zotero_8_moves_the_key_from_extra_to_its_field(zotero7, papers, tmp_path):
    assert run_sync(zotero7, papers, state_dir=tmp_path).ok
    paper = papers.complete[0]
    zotero7.user_edit(user_library(zotero7), item_key(paper.id), title="My own title")
    zotero7.schema = Schema(V41)        # the server moved to the new schema
    report = run_sync(zotero7, papers, state_dir=tmp_path)
    assert report.ok and report.counts["update"] == len(papers.complete)
    data = user_library(zotero7).items[item_key(paper.id)]
    assert data["citationKey"] == paper.citation_key and "Citation Key:" not in data["extra"]
    assert data["title"] == "My own title"      # the user's edit is kept
    assert data["eventPlace"] == paper.proceedings.address
