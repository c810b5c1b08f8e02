"""The test server behaves as the reference says the Zotero Web API does (driven by pyzotero)."""

from __future__ import annotations

import httpx2
import pytest
from pyzotero import errors as ze
from pyzotero import zotero
from zotero_helpers import GROUP_ID, KEY, READ_ONLY_KEY, SCHEMA, USER_ID, server  # noqa: F401


def client(server, library_id=USER_ID, library_type="user", key=KEY):
    zot = zotero.Zotero(library_id, library_type, key, client=httpx2.Client(trust_env=False, timeout=10))
    zot.endpoint = server.endpoint
    return zot


def post(server, path, body, key=KEY, **headers):
    return httpx2.post(f"{server.endpoint}{path}", json=body, trust_env=False,
                       headers={"Authorization": f"Bearer {key}", **headers})


def book(title, **fields):
    return {"itemType": "book", "title": title, **fields}


def test_template_and_fields_come_from_schema_v41(server):
    zot = client(server)
    template = zot.item_template("conferencePaper")
    assert [k for k in template if k not in ("itemType", "creators", "tags", "collections", "relations")] \
        == SCHEMA.fields["conferencePaper"]
    assert "eventPlace" in template and "citationKey" in template
    no_type = httpx2.get(f"{server.endpoint}/items/new", trust_env=False)
    assert no_type.status_code == 400 and no_type.text == "'itemType' not provided"
    assert {f["field"] for f in zot.item_fields()} >= {"publicationTitle", "proceedingsTitle", "title"}


def test_write_report_by_index_with_field_validity(server):
    zot = client(server)
    report = zot.create_items([
        book("ok"),
        {"itemType": "conferencePaper", "title": "x", "publicationTitle": "Proc"},
        {"itemType": "conferencePaper", "title": "y", "publicationTitle": ""},   # empty: ignored
        {"itemType": "conferencePaper", "title": "z", "nonsense": "1"},
    ])
    assert set(report["successful"]) == {"0", "2"} and report["success"]["0"] == report["successful"]["0"]["key"]
    assert report["failed"]["1"]["code"] == 400
    assert "'publicationTitle' is not a valid field for type 'conferencePaper'" in report["failed"]["1"]["message"]
    assert report["failed"]["3"]["message"] == "Invalid property 'nonsense'"
    # Per-object version bumps: successive versions, failures do not bump.
    versions = [report["successful"][i]["version"] for i in ("0", "2")]
    assert versions == [1, 2] and zot.last_modified_version() == 2


def test_version_rules_412_428_404_and_unchanged(server):
    zot = client(server)
    created = zot.create_items([{**book("a"), "key": "AAAA2222", "version": 0}])
    assert created["successful"]["0"]["version"] == 1
    again = zot.create_items([{**book("a"), "key": "AAAA2222", "version": 0}])
    assert again["failed"]["0"]["code"] == 412        # version 0 on an existing key: no duplicate
    no_version = zot.create_items([{**book("a"), "key": "AAAA2222"}])
    assert no_version["failed"]["0"]["code"] == 428
    missing = zot.create_items([{**book("b"), "key": "BBBB2222", "version": 5}])
    assert missing["failed"]["0"]["code"] == 404
    same = zot.create_items([{"key": "AAAA2222", "version": 1, "title": "a"}])
    assert same["unchanged"] == {"0": "AAAA2222"}
    assert zot.last_modified_version() == 2           # unchanged still bumps the library
    patched = zot.create_items([{"key": "AAAA2222", "version": 1, "date": "2013"}])
    data = patched["successful"]["0"]["data"]
    assert data["date"] == "2013" and data["title"] == "a"   # PATCH semantics


def test_413_write_limit_and_write_tokens(server):
    too_many = post(server, f"/users/{USER_ID}/items", [book(str(i)) for i in range(51)])
    assert too_many.status_code == 413
    first = post(server, f"/users/{USER_ID}/items", [book("t")], **{"Zotero-Write-Token": "tok123456"})
    assert first.status_code == 200
    replay = post(server, f"/users/{USER_ID}/items", [book("t")], **{"Zotero-Write-Token": "tok123456"})
    assert replay.status_code == 412 and replay.text == "Write token already used"
    assert post(server, f"/users/{USER_ID}/items", [book("t")], **{"Zotero-Write-Token": "abc"}).status_code == 400
    assert len(server.regular_items(server.library("user", USER_ID))) == 1


def test_library_version_precondition(server):
    zot = client(server)
    zot.create_items([book("a")])
    with pytest.raises(ze.PreConditionFailedError):
        zot.create_items([book("b")], last_modified=0)
    assert zot.request.headers["Last-Modified-Version"] == "1"


def test_pagination_since_versions_and_itemkey(server):
    zot = client(server)
    for start in range(0, 120, 50):
        zot.create_items([book(f"b{i}") for i in range(start, min(start + 50, 120))])
    server.reset_counts()
    everything = zot.everything(zot.items())
    assert len(everything) == 120 and server.count("GET items") == 2
    assert zot.request.headers["Total-Results"] == "120"
    versions = zot.item_versions()
    assert len(versions) == 120 and max(versions.values()) == 120
    assert len(zot.item_versions(since=100)) == 20
    keys = sorted(versions)[:3]
    assert {i["key"] for i in zot.items(itemKey=",".join(keys))} == set(keys)
    page = httpx2.get(f"{server.endpoint}/users/{USER_ID}/items?limit=30&start=30", trust_env=False,
                      headers={"Zotero-API-Key": KEY})
    assert 'rel="next"' in page.headers["Link"] and "start=60" in page.headers["Link"]
    assert "format=json" not in page.headers["Link"]
    unchanged = httpx2.get(f"{server.endpoint}/users/{USER_ID}/items", trust_env=False,
                           headers={"Zotero-API-Key": KEY, "If-Modified-Since-Version": "120"})
    assert unchanged.status_code == 304


def test_keys_and_libraries(server):
    with pytest.raises(ze.UserNotAuthorisedError) as bad:
        client(server, key="WrongKey123").items()
    assert "Invalid key" in str(bad.value)
    with pytest.raises(ze.ResourceNotFoundError):
        client(server, library_id=424242, library_type="group").items()
    with pytest.raises(ze.UserNotAuthorisedError):
        server.add_user(1)
        client(server, library_id=1, library_type="user").items()   # someone else's library
    denied = post(server, f"/users/{USER_ID}/items", [book("x")], key=READ_ONLY_KEY)
    assert denied.status_code == 403 and denied.text == "Write access denied"
    anonymous = httpx2.post(f"{server.endpoint}/users/{USER_ID}/items", json=[book("x")], trust_env=False)
    assert anonymous.status_code == 403
    group = client(server, library_id=GROUP_ID, library_type="group")
    assert group.create_items([book("g")])["successful"]
    assert len(server.regular_items(server.library("group", GROUP_ID))) == 1


def test_collections_single_writes_and_deletes(server):
    zot = client(server)
    made = zot.create_collections([{"name": "ICML 2026"}, {"name": "ICML 2026"}])
    assert len(made["successful"]) == 2          # names are not unique
    coll = made["successful"]["0"]["key"]
    item = zot.create_items([{**book("a"), "collections": [coll]}])["successful"]["0"]
    assert zot.create_items([{**book("a"), "collections": ["ZZZZ2222"]}])["failed"]["0"]["code"] == 409
    assert len(zot.collection_items(coll)) == 1
    full = zot.item(item["key"])
    full["data"]["title"] = "renamed"
    assert zot.update_item(full["data"])
    assert zot.item(item["key"])["data"]["title"] == "renamed"
    stale = {**full["data"], "title": "stale write"}
    with pytest.raises(ze.PreConditionFailedError):
        zot.update_item(stale)
    zot.delete_item(zot.item(item["key"]))
    assert zot.items() == [] and item["key"] in zot.deleted(since=0)["items"]


def test_faults_are_injected_once(server):
    zot = client(server)
    server.inject("503", "GET items", retry_after=None)
    with pytest.raises(ze.HTTPError):
        zot.items()
    assert zot.items() == []
    server.inject("drop", "POST items")
    with pytest.raises(httpx2.RemoteProtocolError):
        zot.create_items([book("applied")])
    assert [d["title"] for d in server.regular_items(server.library("user", USER_ID))] == ["applied"]
