"""The sync when the server misbehaves: refused keys, long Backoff, looping pages, bad endpoints."""

from __future__ import annotations

import pytest
from zotero_helpers import (
    KEY,
    USER_ID,
    Sleeps,
    papers,  # noqa: F401
    run_sync,
    schema_problems,
    server,  # noqa: F401
    user_library,
)

from icml2026 import UsageError
from icml2026.zotero import ZoteroError, item_key

COMPLETE = 18   # the complete papers of the fixture (zotero_helpers.papers)


def our_items(server):
    return [d for d in server.regular_items(user_library(server))]


# -- zotero/zotero#6029: the server refuses the keys we choose -----------------------------

def test_refused_item_keys_are_created_under_the_servers_keys(server, papers, tmp_path):
    server.inject("refuse-keys", "POST items", times=99)
    report = run_sync(server, papers, state_dir=tmp_path)
    assert report.ok and report.counts["create"] == COMPLETE
    items = our_items(server)
    assert len(items) == COMPLETE and all(schema_problems(d) == [] for d in items)
    ours = {item_key(p.id) for p in papers.complete}
    assert not ours & {d["key"] for d in items}          # every key is the server's
    reported = {o.key for o in report.outcomes if o.action == "create"}
    assert reported == {d["key"] for d in items}         # …and the report names it
    # The state recorded those keys: the re-sync reads what changed (nothing) and writes nothing.
    server.reset_counts()
    again = run_sync(server, papers, state_dir=tmp_path)
    assert again.counts["unchanged"] == COMPLETE and sum(server.requests.values()) == 1
    # Without the state, the full read finds each item by its icml2026-id line: no duplicates.
    third = run_sync(server, papers)
    assert third.counts["unchanged"] == COMPLETE and len(our_items(server)) == COMPLETE


def test_refused_collection_key_too(server, papers):
    server.inject("refuse-keys", "POST collections")
    server.inject("refuse-keys", "POST items", times=99)
    report = run_sync(server, papers)
    assert report.ok and report.collection_created
    (coll,) = user_library(server).collections.values()
    assert report.collection_key == coll["key"]
    assert all(coll["key"] in d["collections"] for d in our_items(server))


def test_a_refusal_after_some_creates_still_finishes(server, papers):
    # Five items were created under our keys; then the server starts refusing them.
    assert run_sync(server, papers.complete[:5]).ok
    server.inject("refuse-keys", "POST items", times=99)
    report = run_sync(server, papers)
    assert report.ok and len(our_items(server)) == COMPLETE


# -- Backoff: honoured up to the cap, said, and a clear stop past it -------------------------

def test_a_short_backoff_is_waited_and_said(server, papers):
    server.inject("backoff", "GET items", backoff="20")
    told: list[str] = []
    sleeps = Sleeps()
    report = run_sync(server, papers, sleep=sleeps, notify=told.append)
    assert report.ok and sleeps and 19 < sleeps[0] <= 20
    assert told and "waiting 20 s" in told[0] and "Backoff" in told[0]
    assert told == report.waits and report.notes == []


def test_a_backoff_past_the_cap_stops_with_a_message_not_a_long_wait(server, papers):
    server.inject("backoff", "GET items", backoff="3600", times=2)
    sleeps = Sleeps()
    with pytest.raises(ZoteroError, match=r"pause for 3600 s \(Backoff\), more than the 300 s a sync "
                                          r"waits; stopped, try again later; nothing was written"):
        run_sync(server, papers, sleep=sleeps)
    assert sleeps == [] and server.count("POST items") == 0


# -- paging: a next link that names the same page ------------------------------------------

def test_a_next_link_back_to_the_same_page_is_an_error_not_a_loop(server, papers, monkeypatch):
    import zotero_server

    original = zotero_server._Api._links

    def looping(self, req, lib, start, limit, total):
        # The second page's next link names the second page again.
        return original(self, req, lib, start - limit if start and limit else start, limit, total)

    run_sync(server, papers)
    for i in range(150):   # more than one page of items
        server.user_add_item(user_library(server), "book", title=f"Book {i}")
    monkeypatch.setattr(zotero_server._Api, "_links", looping)
    with pytest.raises(ZoteroError, match="next-page link leads back to a page already read"):
        run_sync(server, papers)
    assert server.count("GET items") < 10


# -- endpoints ----------------------------------------------------------------------------

@pytest.mark.parametrize("endpoint", ["http://[::1", "http://127.0.0.1:99999", "http://host:port"])
def test_a_malformed_endpoint_is_a_usage_error(papers, endpoint):
    from icml2026.zotero import sync

    with pytest.raises(UsageError, match="is not a valid URL"):
        sync(papers, library_id=USER_ID, api_key=KEY, endpoint=endpoint)


def test_a_dry_run_of_a_user_library_without_a_key_says_it_needs_one(server, papers):
    with pytest.raises(UsageError, match="user library can only be read with an API key"):
        run_sync(server, papers, api_key=None, dry_run=True)
    assert sum(server.requests.values()) == 0
