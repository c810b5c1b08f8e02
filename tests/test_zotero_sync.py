"""The sync against the test server, through pyzotero: idempotence, user edits, faults, libraries."""

from __future__ import annotations

import dataclasses
import math

import pytest
from zotero_helpers import (
    GROUP_ID,
    KEY,
    READ_ONLY_KEY,
    USER_ID,
    Sleeps,
    clones,
    item_by_paper,
    papers,  # noqa: F401
    run_sync,
    schema_problems,
    server,  # noqa: F401
    user_library,
)

from icml2026 import PaperCollection
from icml2026.zotero import ZoteroError, collection_key, item_key, sync

COMPLETE = 18


def assert_library_correct(server, papers, lib=None):
    """Exactly one item per complete paper, all in the one ICML 2026 collection, all valid v41."""
    lib = lib or user_library(server)
    items = server.regular_items(lib)
    keys = sorted(d["key"] for d in items)
    assert keys == sorted(item_key(p.id) for p in papers.complete)
    colls = [c for c in lib.collections.values() if c["name"] == "ICML 2026"]
    assert len(colls) == 1
    for data in items:
        assert colls[0]["key"] in data["collections"]
        assert schema_problems(data) == []
    return items


def changed(papers: PaperCollection, label: str, **fields) -> PaperCollection:
    """*papers* with one paper's fields replaced: "our data changed"."""
    return PaperCollection(dataclasses.replace(p, **fields) if p.label == label else p for p in papers)


def test_first_sync_creates_every_complete_paper_in_one_collection(server, papers):
    report = run_sync(server, papers)
    assert report.counts == {"create": COMPLETE, "update": 0, "unchanged": 0, "skipped": 1, "failed": 0}
    assert report.ok and report.collection_created
    assert server.count("POST items") == math.ceil(COMPLETE / 50) == report.item_writes
    assert server.count("POST collections") == 1
    items = assert_library_correct(server, papers)
    he = item_by_paper(server, papers["he2026inpainting"])
    assert he["title"].startswith("From Inpainting to Editing")
    assert he["tags"] == [{"tag": "ICML 2026"}]
    assert "arXiv: 2512.25066" in he["extra"]
    assert he["version"] > 0 and len(items) == COMPLETE


def test_resync_sends_no_item_writes(server, papers):
    run_sync(server, papers)
    server.reset_counts()
    report = run_sync(server, papers)
    assert report.counts["unchanged"] == COMPLETE
    assert server.count("POST items") == 0 and server.count("POST collections") == 0
    assert sum(server.requests.values()) == 1    # one page of ≤ 100 items: no collection needed


def test_dry_run_plans_and_writes_nothing(server, papers):
    plan = run_sync(server, papers, dry_run=True)
    assert plan.counts["create"] == COMPLETE and plan.collection_key is None
    assert server.count("POST items") == server.count("POST collections") == 0
    run_sync(server, papers)
    new = changed(papers, "he2026inpainting", abstract="Shorter abstract.")
    plan = run_sync(server, new, dry_run=True)
    update = next(o for o in plan.outcomes if o.action == "update")
    assert update.label == "he2026inpainting" and "abstractNote" in update.fields
    assert item_by_paper(server, papers["he2026inpainting"])["abstractNote"] != "Shorter abstract."


def test_user_edits_survive_a_resync_after_our_data_changed(server, papers):
    run_sync(server, papers)
    lib = user_library(server)
    paper = papers["he2026inpainting"]
    key = item_key(paper.id)
    mine = server.user_add_collection(lib, "To read")
    data = lib.items[key]
    server.user_edit(lib, key, title="X-Dub (my short title)", callNumber="Q325.5",
                     extra="Read: 2026-12-01\n" + data["extra"],
                     tags=data["tags"] + [{"tag": "dubbing"}], collections=data["collections"] + [mine])
    note = server.user_add_note(lib, key, "<p>Great paper</p>")
    new = changed(papers, "he2026inpainting", abstract="A corrected abstract.",
                  title="From Inpainting to Editing: Corrected")
    report = run_sync(server, new)
    outcome = next(o for o in report.outcomes if o.key == key)
    assert outcome.action == "update" and outcome.kept == ("title",)
    assert server.count("POST items") == 2
    after = lib.items[key]
    assert after["abstractNote"] == "A corrected abstract."       # our change applied
    assert after["title"] == "X-Dub (my short title)"             # the user's edit kept
    assert after["callNumber"] == "Q325.5"
    assert after["extra"].startswith("Read: 2026-12-01\n")
    assert {"tag": "dubbing"} in after["tags"] and mine in after["collections"]
    assert lib.items[note]["parentItem"] == key
    assert_library_correct(server, papers)
    server.reset_counts()
    assert run_sync(server, new).counts["unchanged"] == COMPLETE
    assert server.count("POST items") == 0


def test_interrupted_sync_resumed_gives_one_item_per_paper(server, papers):
    many = PaperCollection(clones(papers, 120))
    server.inject("500", "POST items", skip=1, times=99)      # the server fails after batch 1
    with pytest.raises(ZoteroError) as failure:
        run_sync(server, many, max_attempts=2)
    partial = failure.value.report
    assert partial.counts["create"] == 50 and partial.counts["failed"] == 70
    assert "50 created" in str(failure.value) and "run the sync again" in str(failure.value)
    assert len(server.regular_items(user_library(server))) == 50
    server.faults.clear()
    server.reset_counts()
    report = run_sync(server, many)
    assert report.counts["create"] == 70 and report.counts["unchanged"] == 50
    assert server.count("POST items") == 2
    assert len(server.regular_items(user_library(server))) == 120
    assert len(user_library(server).collections) == 1


def test_write_applied_but_answer_lost_then_resumed(server, papers):
    server.inject("drop", "POST items", times=99)
    with pytest.raises(ZoteroError):
        run_sync(server, papers, max_attempts=1)
    server.faults.clear()
    report = run_sync(server, papers)
    assert report.counts["unchanged"] == COMPLETE
    assert_library_correct(server, papers)


# -- faults: each ends with exactly the 18 items and no lost user edits --------------

def synced_with_user_edit(server, papers):
    """A library after a first sync, with a user's title edit on one paper."""
    run_sync(server, papers)
    key = item_key(papers["li2026praglocker"].id)
    server.user_edit(user_library(server), key, title="User title")
    server.reset_counts()
    return key, changed(papers, "li2026praglocker", abstract="New abstract.")


@pytest.mark.parametrize("fault", [
    {"kind": "429", "match": "POST items", "retry_after": "1"},
    {"kind": "429", "match": "POST items", "retry_after": None},
    {"kind": "503", "match": "POST items", "retry_after": "1"},
    {"kind": "500", "match": "POST items"},
    {"kind": "drop", "match": "POST items"},
    {"kind": "slow", "match": "POST items", "delay": 1.0},
    {"kind": "503", "match": "GET items", "retry_after": None},
    {"kind": "drop", "match": "GET items"},
    {"kind": "backoff", "match": "GET items", "backoff": "1"},
], ids=lambda f: f"{f['kind']}-{f['match'].replace(' ', '-')}-{f.get('retry_after', '')}")
def test_each_fault_ends_with_the_library_correct_and_user_edits_kept(server, papers, fault):
    key, new = synced_with_user_edit(server, papers)
    server.inject(**fault)
    sleeps = Sleeps()
    report = run_sync(server, new, sleep=sleeps, timeout=0.3)
    assert report.ok and [o.action for o in report.outcomes if o.key == key] == ["update"]
    writes = 2 if fault["match"] == "POST items" else 1
    assert server.count("POST items") == writes
    if fault.get("retry_after") or fault["kind"] == "backoff":
        assert sleeps[0] == pytest.approx(1.0, abs=0.1)   # Retry-After / Backoff honoured
    elif fault["kind"] in ("429", "503", "500"):
        assert sleeps and sleeps[0] > 0                  # our own backoff
    assert_library_correct(server, papers)
    data = user_library(server).items[key]
    assert data["title"] == "User title" and data["abstractNote"] == "New abstract."


def test_first_sync_with_lost_answer_confirms_creates(server, papers):
    server.inject("drop", "POST items")
    report = run_sync(server, papers)
    assert report.counts["create"] == COMPLETE
    assert {o.detail for o in report.outcomes if o.action == "create"} == \
        {"confirmed after the server's answer was lost"}
    assert server.count("POST items") == 2        # the replay is refused by its write token
    assert_library_correct(server, papers)


def test_slow_answer_on_first_sync_times_the_client_out(server, papers):
    server.inject("slow", "POST items", delay=1.0)
    report = run_sync(server, papers, timeout=0.3)
    assert report.counts["create"] == COMPLETE
    assert_library_correct(server, papers)


def test_lost_answer_on_collection_create(server, papers):
    server.inject("drop", "POST collections")
    run_sync(server, papers)
    assert_library_correct(server, papers)


def test_backoff_header_is_honoured(server, papers):
    server.inject("backoff", "POST collections", backoff="2")
    sleeps = Sleeps()
    run_sync(server, papers, sleep=sleeps)
    assert sleeps and 1.5 < sleeps[0] <= 2.0     # waited before the next request
    assert_library_correct(server, papers)


def test_rate_limited_read_is_retried(server, papers):
    server.inject("429", "GET items", retry_after="1")
    run_sync(server, papers)
    assert server.count("GET items") == 2
    assert_library_correct(server, papers)


def test_concurrent_edit_between_read_and_write(server, papers):
    key, new = synced_with_user_edit(server, papers)
    lib = user_library(server)
    server.inject("edit", "POST items",
                  action=lambda s: s.user_edit(lib, key, pages="1-2", tags=[{"tag": "edited meanwhile"}]))
    report = run_sync(server, new)
    outcome = next(o for o in report.outcomes if o.key == key)
    assert outcome.action == "update" and set(outcome.kept) == {"title", "pages"}
    assert server.count("POST items") == 2        # 412 → re-read → retry
    data = lib.items[key]
    assert (data["title"], data["pages"], data["abstractNote"]) == ("User title", "1-2", "New abstract.")
    assert data["tags"] == [{"tag": "edited meanwhile"}]
    assert_library_correct(server, papers)


def test_per_request_versions_of_the_old_server_work_too(papers):
    from zotero_helpers import SCHEMA
    from zotero_server import ZoteroServer

    with ZoteroServer(SCHEMA, one_bump_per_request=True) as old:
        old.add_key(KEY, USER_ID)
        run_sync(old, papers)
        _key, new = synced_with_user_edit(old, papers)
        assert run_sync(old, new).counts["update"] == 1
        assert_library_correct(old, papers)


# -- libraries, keys and errors ---------------------------------------------------------

def test_group_library(server, papers):
    report = run_sync(server, papers, library_id=GROUP_ID, library_type="group")
    assert report.counts["create"] == COMPLETE and report.library == f"groups/{GROUP_ID}"
    assert_library_correct(server, papers, server.library("group", GROUP_ID))
    assert user_library(server).items == {}


def test_existing_collection_is_found_by_name_not_duplicated(server, papers):
    lib = user_library(server)
    theirs = server.user_add_collection(lib, "ICML 2026")
    server.user_add_collection(lib, "ICML 2026", parent=theirs)    # a sub-collection: not a match
    report = run_sync(server, papers)
    assert report.collection_key == theirs and not report.collection_created
    assert server.count("POST collections") == 0
    assert all(theirs in d["collections"] for d in server.regular_items(lib))


def test_a_collection_deleted_meanwhile_is_created_again(server, papers):
    lib = user_library(server)
    server.inject("edit", "POST items",
                  action=lambda s: s.user_delete_collection(lib, collection_key("ICML 2026")))
    report = run_sync(server, papers)
    assert report.counts["create"] == COMPLETE and report.ok
    assert server.count("POST collections") == 2 and server.count("POST items") == 2
    assert_library_correct(server, papers)


def test_a_refused_item_fails_alone_and_is_reported(server, papers):
    too_long = dataclasses.replace(papers["he2026inpainting"], abstract="x" * 70000)
    report = run_sync(server, [too_long, papers["li2026praglocker"]])
    failed = [o for o in report.outcomes if o.action == "failed"]
    assert [o.label for o in failed] == ["he2026inpainting"] and "413" in failed[0].detail
    assert report.counts["create"] == 1 and not report.ok


def test_errors_are_one_clear_line(server, papers):
    with pytest.raises(ZoteroError, match=r"403 Invalid key.*check the API key"):
        run_sync(server, papers, api_key="WrongKey123")
    with pytest.raises(ZoteroError, match=r"library groups/31337 not found \(404"):
        run_sync(server, papers, library_id=31337, library_type="group")
    with pytest.raises(ZoteroError, match=r"403 Write access denied"):
        run_sync(server, papers, api_key=READ_ONLY_KEY)
    with pytest.raises(ZoteroError, match=r"cannot connect"):
        sync(papers, library_id=USER_ID, api_key=KEY, endpoint="http://127.0.0.1:9", sleep=Sleeps())
    server.inject("503", "GET items", times=99)
    with pytest.raises(ZoteroError, match=r"gave up after 3 attempts \(HTTP 503\)"):
        run_sync(server, papers, max_attempts=3)


def test_collection_key_is_stable():
    assert collection_key("ICML 2026") == collection_key("ICML 2026") != collection_key("ICML 2025")


def test_items_the_user_trashed_or_retyped_are_left_alone(server, papers):
    run_sync(server, papers)
    lib = user_library(server)
    trashed, retyped = item_key(papers["he2026inpainting"].id), item_key(papers["li2026praglocker"].id)
    server.user_edit(lib, trashed, deleted=1)
    server.user_edit(lib, retyped, itemType="preprint")
    server.reset_counts()
    new = changed(changed(papers, "he2026inpainting", abstract="x"), "li2026praglocker", abstract="y")
    report = run_sync(server, new)
    skipped = {o.key: o.detail for o in report.outcomes if o.action == "skipped" and o.key}
    assert "trash" in skipped[trashed] and "preprint" in skipped[retyped]
    assert report.ok and server.count("POST items") == 0
    assert len(lib.items) == COMPLETE


def test_a_malformed_key_is_refused_before_any_request(server, papers):
    from icml2026 import UsageError

    with pytest.raises(UsageError, match="letters and digits"):
        run_sync(server, papers, api_key="abc def\n")
    assert sum(server.requests.values()) == 0


def test_a_server_that_is_not_zotero_gives_a_clear_error(papers):
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    class Portal(BaseHTTPRequestHandler):
        def do_GET(self):
            body = b"<html>Captive portal</html>"
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    portal = ThreadingHTTPServer(("127.0.0.1", 0), Portal)
    threading.Thread(target=portal.serve_forever, daemon=True).start()
    try:
        with pytest.raises(ZoteroError, match="did not answer like the Zotero API"):
            sync(papers, library_id=USER_ID, api_key=KEY, sleep=Sleeps(),
                 endpoint=f"http://127.0.0.1:{portal.server_address[1]}")
    finally:
        portal.shutdown()
        portal.server_close()
