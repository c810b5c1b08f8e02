"""A paper the user already added by hand is adopted (or reported), never created a second time."""

from __future__ import annotations

import pytest
from zotero_helpers import Sleeps, papers, run_sync, server, user_library  # noqa: F401

from icml2026.zotero import TAG, item_key

HE = "he2026inpainting"


def by_hand(server, item_type="conferencePaper", **fields) -> str:
    """An item the user made in Zotero (the Connector on the PMLR or OpenReview page, say)."""
    fields.setdefault("creators", [{"creatorType": "author", "firstName": "Xu", "lastName": "He"}])
    fields.setdefault("tags", [{"tag": "to read"}])
    return server.user_add_item(user_library(server), item_type, **fields)


def outcome_of(report, label):
    return next(o for o in report.outcomes if o.label == label)


def test_same_title_is_adopted_not_duplicated(server, papers, tmp_path):
    paper = papers[HE]
    title = paper.title.upper().replace(":", " -")          # case and punctuation differ
    mine = by_hand(server, title=title, date="July 2026", url="")
    report = run_sync(server, papers, state_dir=tmp_path)
    lib = user_library(server)
    assert len(server.regular_items(lib)) == 18 and item_key(paper.id) not in lib.items
    outcome = outcome_of(report, HE)
    assert (outcome.action, outcome.key) == ("update", mine)
    assert outcome.detail == "adopted your item (the same title)"
    assert set(outcome.kept) >= {"title", "date", "creators"}   # the user's values stay
    data = lib.items[mine]
    assert data["title"] == title and data["date"] == "July 2026"
    assert data["url"] == paper.links.proceedings                # an empty field is filled
    assert f"icml2026-id: {paper.id}" in data["extra"]
    assert {"tag": "to read"} in data["tags"] and {"tag": TAG} in data["tags"]
    assert report.collection_key in data["collections"]
    # Found again by its icml2026-id line, with the state or without it.
    server.reset_counts()
    assert run_sync(server, papers, state_dir=tmp_path).counts["unchanged"] == 18
    assert sum(server.requests.values()) == 1
    again = run_sync(server, papers)
    assert again.counts["unchanged"] == 18 and outcome_of(again, HE).key == mine
    assert len(server.regular_items(lib)) == 18


def test_titles_with_dollars_stars_and_zotero_tags_are_read_as_plain_text(server, papers):
    """Zotero titles are plain text with Zotero's own tags: never read as our markup."""
    stray = by_hand(server, title="Saving 5$ with Q*-learning", url="")  # once a MarkupError
    paper = papers[HE]
    words = paper.title.split()
    tagged = by_hand(server, title=f"<i>{words[0]}</i> " + " ".join(words[1:]), url="")
    report = run_sync(server, papers)
    assert report.ok
    assert outcome_of(report, HE).key == tagged
    lib = user_library(server)
    assert "icml2026-id" not in (lib.items[stray].get("extra") or "")
    assert len(server.regular_items(lib)) == 19  # 17 of ours, the adopted one, the stray one


@pytest.mark.parametrize("url", [
    "https://openreview.net/forum?id=PfhSH42cCy",
    "https://proceedings.mlr.press/v306/he26au/he26au.pdf",
    "http://proceedings.mlr.press/v306/he26au.html",
])
def test_same_openreview_or_pmlr_url_is_adopted(server, papers, url):
    mine = by_hand(server, title="X-Dub (preprint title)", url=url)
    report = run_sync(server, papers)
    outcome = outcome_of(report, HE)
    assert outcome.key == mine and outcome.detail.startswith("adopted your item (the same ")
    assert len(server.regular_items(user_library(server))) == 18


def test_a_hand_made_preprint_is_reported_not_duplicated(server, papers):
    mine = by_hand(server, "preprint", title=papers[HE].title)
    report = run_sync(server, papers)
    outcome = outcome_of(report, HE)
    assert outcome.action == "skipped" and mine in outcome.detail and "preprint" in outcome.detail
    lib = user_library(server)
    assert item_key(papers[HE].id) not in lib.items and lib.items[mine]["itemType"] == "preprint"
    assert report.ok and len(server.regular_items(lib)) == 18     # 17 ours and the preprint


def test_two_hand_made_copies_are_reported_and_neither_adopted(server, papers):
    first = by_hand(server, title=papers[HE].title)
    second = by_hand(server, title=papers[HE].title)
    report = run_sync(server, papers)
    outcome = outcome_of(report, HE)
    assert outcome.action == "skipped" and first in outcome.detail and second in outcome.detail
    lib = user_library(server)
    assert item_key(papers[HE].id) not in lib.items
    assert "icml2026-id" not in lib.items[first]["extra"] + lib.items[second]["extra"]


def test_a_trashed_copy_is_not_adopted(server, papers):
    by_hand(server, title=papers[HE].title, deleted=1)
    report = run_sync(server, papers)
    assert outcome_of(report, HE).action == "create"
    assert item_key(papers[HE].id) in user_library(server).items


def test_dry_run_shows_the_adoption_and_writes_nothing(server, papers):
    mine = by_hand(server, title=papers[HE].title)
    before = dict(user_library(server).items[mine])
    report = run_sync(server, papers, dry_run=True, sleep=Sleeps())
    outcome = outcome_of(report, HE)
    assert outcome.action == "update" and outcome.detail == "adopted your item (the same title)"
    assert server.count("POST items") == 0 and user_library(server).items[mine] == before
