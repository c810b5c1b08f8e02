"""Shared pieces of the Zotero tests: a running test server, cloned papers, schema checks.

The ``papers`` fixture here replaces conftest's (the whole packaged volume) in the
Zotero tests: it selects the 19 seed records explicitly (18 complete and one
incomplete), so no test depends on how many papers the package holds.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from typing import Any

import pytest
from zotero_server import SCHEMA_PATH, Schema, ZoteroServer

from icml2026.collection import PaperCollection
from icml2026.model import Paper

USER_ID = 475025
GROUP_ID = 9001
KEY = "Zk9TestKey0a1b2c3d4e5f"          # alphanumeric: the Bearer format the API accepts
READ_ONLY_KEY = "ReadOnlyKey777"
SCHEMA = Schema()
SEED_IDS = (
    "icml2026-seed-04", "pmlr-v306-akula26a", "pmlr-v306-canturk26a", "pmlr-v306-cassano26a",
    "pmlr-v306-chagneux26a", "pmlr-v306-fei26a", "pmlr-v306-feng26ac", "pmlr-v306-gu26b",
    "pmlr-v306-he26au", "pmlr-v306-huang26bz", "pmlr-v306-jones26b", "pmlr-v306-lang26a",
    "pmlr-v306-li26d", "pmlr-v306-liu26cj", "pmlr-v306-n-guessan26a", "pmlr-v306-witter26a",
    "pmlr-v306-wu26p", "pmlr-v306-yang26cl", "pmlr-v306-zhao26ac",
)


@pytest.fixture(scope="session")
def papers() -> PaperCollection:
    """18 seed papers selected by id from the packaged data, and one incomplete paper.

    Every packaged record is complete since seed 4 became ``pmlr-v306-ding26n``: the
    incomplete one is that record without its pages (as it was before), so the skip
    rule stays tested.
    """
    import icml2026

    chosen = icml2026.load().select(SEED_IDS)
    seed = chosen["icml2026-seed-04"]
    incomplete = dataclasses.replace(seed, status="incomplete", pages=None, missing=("pages",))
    return PaperCollection([p for p in chosen if p.id != seed.id] + [incomplete])


@pytest.fixture
def server() -> Iterator[ZoteroServer]:
    with ZoteroServer(SCHEMA) as running:
        running.add_key(KEY, USER_ID, groups={GROUP_ID: True})
        running.add_key(READ_ONLY_KEY, USER_ID, write=False)
        running.add_group(GROUP_ID, "lab")
        yield running


class Sleeps(list):
    """An injected ``sleep`` that records the delays instead of waiting."""

    def __call__(self, seconds: float) -> None:
        self.append(seconds)


def run_sync(server: ZoteroServer, papers: Any, **options: Any) -> Any:
    from icml2026.zotero import sync

    options.setdefault("library_id", USER_ID)
    options.setdefault("library_type", "user")
    options.setdefault("api_key", KEY)
    options.setdefault("sleep", Sleeps())
    return sync(papers, endpoint=server.endpoint, **options)


def user_library(server: ZoteroServer):
    return server.library("user", USER_ID)


def item_by_paper(server: ZoteroServer, paper: Paper, lib: Any = None) -> dict[str, Any]:
    from icml2026.zotero import item_key

    return (lib or user_library(server)).items[item_key(paper.id)]


def clones(papers: Any, n: int) -> list[Paper]:
    """*n* distinct complete papers made from the packaged ones (distinct ids and keys)."""
    complete = list(papers.complete) if hasattr(papers, "complete") else list(papers)
    out = []
    for i in range(n):
        base = complete[i % len(complete)]
        suffix = f"x{i:05d}"
        out.append(dataclasses.replace(
            base, id=f"{base.id}-{suffix}", citation_key=f"{base.citation_key}{suffix}", alias_keys=(),
            identifiers=dataclasses.replace(base.identifiers, pmlr=f"{base.identifiers.pmlr}{suffix}"),
        ))
    return out


def schema_problems(data: dict[str, Any]) -> list[str]:
    """Why *data* (an item's ``data``) is not a valid item of schema v41; [] when it is."""
    raw = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    types = {t["itemType"]: t for t in raw["itemTypes"]}
    entry = types.get(data.get("itemType"))
    if entry is None:
        return [f"unknown item type {data.get('itemType')!r}"]
    fields = {f["field"] for f in entry["fields"]}
    creator_types = {c["creatorType"] for c in entry["creatorTypes"]}
    props = {"key", "version", "itemType", "creators", "tags", "collections", "relations", "dateAdded",
             "dateModified", "parentItem", "deleted", "note"}
    problems = [f"field {name!r} not valid for {entry['itemType']}" for name in data
                if name not in props and name not in fields]
    for c in data.get("creators", []):
        if c.get("creatorType") not in creator_types:
            problems.append(f"creator type {c.get('creatorType')!r}")
        if ("name" in c) == ("lastName" in c):
            problems.append(f"creator {c} must have either name or firstName/lastName")
    return problems
