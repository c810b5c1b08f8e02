"""Re-syncs that read only what changed (the local sync state), and the one retry policy.

Every count here is of requests the test server received, through pyzotero's
HTTP client, on 127.0.0.1.
"""

from __future__ import annotations

import dataclasses
import json
import math

import pytest
from zotero_helpers import KEY, USER_ID, Sleeps, clones, papers, run_sync, server, user_library  # noqa: F401

from icml2026 import PaperCollection, UsageError
from icml2026.zotero import ZoteroError, item_key

N = 120   # more than one page (100) and more than one write (50)


@pytest.fixture
def many(papers):
    return PaperCollection(clones(papers, N))


def revised(papers: PaperCollection, every: int) -> tuple[PaperCollection, int]:
    """Every *every*-th paper with a new abstract ("our data changed"); and how many."""
    out = [dataclasses.replace(p, abstract=f"{p.abstract} (revised)") if i % every == 0 else p
           for i, p in enumerate(papers)]
    return PaperCollection(out), len(range(0, len(out), every))


def requests(server) -> int:
    return sum(server.requests.values())


def test_resync_with_nothing_changed_is_one_request(server, many, tmp_path):
    run_sync(server, many, state_dir=tmp_path)
    server.reset_counts()
    report = run_sync(server, many, state_dir=tmp_path)
    assert report.counts["unchanged"] == N and report.ok
    assert dict(server.requests) == {"GET items": 1}          # If-Modified-Since-Version → 304
    assert server.log[-1][2] == 304
    # …and it stays so: a third run is as cheap.
    server.reset_counts()
    assert run_sync(server, many, state_dir=tmp_path).counts["unchanged"] == N
    assert requests(server) == 1
    # Without the state, one paged read of the library (100 items a page), and no item reads.
    server.reset_counts()
    assert run_sync(server, many).counts["unchanged"] == N
    assert dict(server.requests) == {"GET items": math.ceil(N / 100)}


def test_resync_after_n_of_our_papers_changed(server, many, tmp_path):
    run_sync(server, many, state_dir=tmp_path)
    new, n = revised(many, every=2)
    server.reset_counts()
    report = run_sync(server, new, state_dir=tmp_path)
    assert report.counts["update"] == n == 60 and report.counts["unchanged"] == N - n
    assert requests(server) <= 2 + math.ceil(n / 50)
    assert server.count("POST items") == math.ceil(n / 50)
    lib = user_library(server)
    changed = [p for i, p in enumerate(new) if i % 2 == 0]
    assert all(lib.items[item_key(p.id)]["abstractNote"].endswith("(revised)") for p in changed)
    server.reset_counts()
    assert run_sync(server, new, state_dir=tmp_path).counts["unchanged"] == N
    assert requests(server) == 1


def test_user_edits_between_syncs_are_seen_not_trusted_from_the_state(server, papers, tmp_path):
    run_sync(server, papers, state_dir=tmp_path)
    lib = user_library(server)
    paper = papers["he2026inpainting"]
    key = item_key(paper.id)
    server.user_edit(lib, key, title="My title")
    new = PaperCollection(dataclasses.replace(p, title="Corrected title", abstract="Corrected.")
                          if p.id == paper.id else p for p in papers)
    server.reset_counts()
    report = run_sync(server, new, state_dir=tmp_path)
    outcome = next(o for o in report.outcomes if o.key == key)
    assert outcome.action == "update" and outcome.kept == ("title",)
    assert lib.items[key]["title"] == "My title" and lib.items[key]["abstractNote"] == "Corrected."
    # the changed item came with the since= listing: no separate read of it
    assert server.count("GET items") == 2 and server.count("GET deleted") == 1   # listing + confirm


def test_an_item_deleted_for_good_is_created_again(server, papers, tmp_path):
    run_sync(server, papers, state_dir=tmp_path)
    lib = user_library(server)
    key = item_key(papers["he2026inpainting"].id)
    server.user_edit(lib, key, deleted=1)     # to the trash, then the trash is emptied
    from zotero_server import _Api
    with server.lock:
        _Api(server)._delete(lib, "items", [key])
    report = run_sync(server, papers, state_dir=tmp_path)
    assert [o.action for o in report.outcomes if o.key == key] == ["create"]
    assert len(server.regular_items(lib)) == 18


def test_a_concurrent_edit_during_our_writes_is_read_next_time(server, many, tmp_path):
    run_sync(server, many, state_dir=tmp_path)
    lib = user_library(server)
    bystander = item_key(many[N - 1].id)       # not among the papers we change
    server.inject("edit", "POST items", action=lambda s: s.user_edit(lib, bystander, pages="7-8"))
    new, _ = revised(many, every=2)
    run_sync(server, new, state_dir=tmp_path)
    server.reset_counts()
    report = run_sync(server, new, state_dir=tmp_path)
    outcome = next(o for o in report.outcomes if o.key == bystander)
    assert outcome.action == "unchanged" and outcome.kept == ("pages",)   # seen, and left alone
    assert server.count("POST items") == 0


def test_a_broken_or_foreign_state_file_means_a_full_read(server, papers, tmp_path):
    run_sync(server, papers, state_dir=tmp_path)
    (state_file,) = tmp_path.glob("*.json")
    raw = json.loads(state_file.read_text())
    assert raw["library"] == f"users/{USER_ID}" and len(raw["items"]) == 18
    state_file.write_text("{not json")
    server.reset_counts()
    assert run_sync(server, papers, state_dir=tmp_path).counts["unchanged"] == 18
    assert dict(server.requests) == {"GET items": 1}      # the whole library, one page
    assert json.loads(state_file.read_text())["version"] == user_library(server).version


def test_a_state_that_lies_costs_a_retry_never_an_overwrite(server, papers, tmp_path):
    """The state says the item is as we wrote it; it is not (changed behind the listing's back)."""
    run_sync(server, papers, state_dir=tmp_path)
    lib = user_library(server)
    key = item_key(papers["he2026inpainting"].id)
    with server.lock:   # an edit the since= listing cannot see: the library version stays
        lib.items[key]["title"] = "Hidden edit"
        lib.items[key]["version"] = lib.version + 1
    new = PaperCollection(dataclasses.replace(p, abstract="New.") if p.id == papers["he2026inpainting"].id
                          else p for p in papers)
    report = run_sync(server, new, state_dir=tmp_path)
    assert report.ok and lib.items[key]["title"] == "Hidden edit" and lib.items[key]["abstractNote"] == "New."
    assert next(o for o in report.outcomes if o.key == key).kept == ("title",)


@pytest.mark.parametrize("fault", [
    {"kind": "429", "match": "POST items", "retry_after": "1"},
    {"kind": "500", "match": "POST items"},
    {"kind": "drop", "match": "POST items"},
    {"kind": "slow", "match": "POST items", "delay": 1.0},
    {"kind": "503", "match": "GET items", "retry_after": None},
    {"kind": "drop", "match": "GET items"},
], ids=lambda f: f"{f['kind']}-{f['match'].replace(' ', '-')}")
def test_faults_during_a_stateful_resync(server, papers, tmp_path, fault):
    run_sync(server, papers, state_dir=tmp_path)
    new = PaperCollection(dataclasses.replace(p, abstract="Again.") if p.label == "li2026praglocker" else p
                          for p in papers)
    server.inject(**fault)
    report = run_sync(server, new, state_dir=tmp_path, timeout=0.3)
    assert report.ok and report.counts["update"] == 1
    assert len(server.regular_items(user_library(server))) == 18
    server.faults.clear()
    server.reset_counts()
    assert run_sync(server, new, state_dir=tmp_path).counts["unchanged"] == 18
    assert requests(server) <= 2


# -- one retry policy, one cap --------------------------------------------------------

def test_read_backoff_is_ours_not_pyzoteros(server, papers):
    server.inject("429", "GET items", retry_after="2")
    sleeps = Sleeps()
    run_sync(server, papers, sleep=sleeps)
    assert sleeps[:1] == [2.0]          # the wait went through our (injected) sleep
    assert server.count("GET items") == 2


def test_retries_do_not_nest(server, papers):
    server.inject("429", "GET items", retry_after="1", times=99)
    sleeps = Sleeps()
    with pytest.raises(ZoteroError, match=r"gave up after 3 attempts \(HTTP 429\); nothing was written"):
        run_sync(server, papers, sleep=sleeps, max_attempts=3)
    assert server.count("GET items") == 3 and sleeps == [1.0, 1.0]


@pytest.mark.parametrize("match", ["POST items", "GET items"])
def test_a_wait_beyond_the_cap_is_an_error_not_a_hang(server, papers, match):
    server.inject("429", match, retry_after="3600")
    sleeps = Sleeps()
    with pytest.raises(ZoteroError, match=r"asked to wait 3600 s.*more than the 300 s"):
        run_sync(server, papers, sleep=sleeps)
    assert sleeps == [] and server.count(match) == 1


@pytest.mark.parametrize("timeout", [-1, 0, float("nan"), float("inf")])
def test_a_timeout_that_is_not_a_positive_number_is_refused(server, papers, timeout):
    with pytest.raises(UsageError, match="timeout must be a positive number"):
        run_sync(server, papers, timeout=timeout)
    assert requests(server) == 0


def test_lost_answers_are_not_reported_as_nothing_written(server, papers):
    server.inject("drop", "POST items", times=99)
    with pytest.raises(ZoteroError) as failure:
        run_sync(server, papers, max_attempts=1)
    message = str(failure.value)
    assert len(server.regular_items(user_library(server))) == 18      # they were written
    assert "nothing was written" not in message
    assert "18 more may have been written" in message and "created the collection" in message
    assert {o.detail for o in failure.value.report.outcomes if o.action == "failed"} == \
        {"may have been written: the server's answer was lost; run the sync again to confirm"}
    server.faults.clear()
    assert run_sync(server, papers).counts["unchanged"] == 18


def test_papers_left_out_of_one_sync_are_kept_current_in_the_state(server, papers, tmp_path):
    run_sync(server, papers, state_dir=tmp_path)
    other = papers["li2026praglocker"]
    server.user_edit(user_library(server), item_key(other.id), title="Edited while not selected")
    only_he = PaperCollection([papers["he2026inpainting"]])
    assert run_sync(server, only_he, state_dir=tmp_path).counts["unchanged"] == 1
    server.reset_counts()
    report = run_sync(server, papers, state_dir=tmp_path)
    assert next(o for o in report.outcomes if o.paper_id == other.id).kept == ("title",)
    assert requests(server) == 1
