"""The sync engine: read what is there, plan per paper, write in batches of ≤ 50.

Why it cannot duplicate: every item is created under a key derived from the
paper id with ``version: 0``, so replaying a create (after a lost answer or an
interrupted run) fails with a per-object 412 instead of adding a second item;
a 412 or a "write token already used" answer leads to re-reading those items
and planning them again.  Why it cannot overwrite the user: updates carry the
item's version (a concurrent edit gives 412, never a blind overwrite) and only
fields that still hold what we last wrote are changed (:func:`mapping.merge`).
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from ..errors import UsageError
from ..model import Paper
from . import mapping
from .client import DEFAULT_ENDPOINT, MAX_WRITE_OBJECTS, Connection, WriteResult
from .errors import ZoteroError

ACTIONS = ("create", "update", "unchanged", "skipped", "failed")
PAST_TENSE = {"create": "created", "update": "updated", "unchanged": "unchanged",
              "skipped": "skipped", "failed": "failed"}
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Outcome:
    """What happened (or, in a dry run, would happen) to one paper."""

    paper_id: str
    label: str
    key: str | None
    action: str                      # one of ACTIONS
    detail: str = ""
    fields: tuple[str, ...] = ()     # fields sent in an update
    kept: tuple[str, ...] = ()       # fields the user edited in Zotero, left alone


@dataclass
class SyncReport:
    library: str
    collection: str | None
    collection_key: str | None
    collection_created: bool
    dry_run: bool
    outcomes: list[Outcome]
    requests: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0

    @property
    def counts(self) -> dict[str, int]:
        found = Counter(o.action for o in self.outcomes)
        return {action: found.get(action, 0) for action in ACTIONS}

    @property
    def ok(self) -> bool:
        return self.counts["failed"] == 0

    @property
    def item_writes(self) -> int:
        return self.requests.get("POST items", 0)

    def summary(self) -> str:
        words = ACTIONS if self.dry_run else [PAST_TENSE[a] for a in ACTIONS]
        counts = ", ".join(f"{word} {n}" for word, n in zip(words, self.counts.values()))
        prefix = "dry run, would have: " if self.dry_run else ""
        return f"{prefix}{counts} ({self.library}, {self.item_writes} item writes, {self.seconds:.1f} s)"


@dataclass
class _Planned:
    paper: Paper
    key: str
    action: str
    payload: dict[str, Any] | None = None
    detail: str = ""
    kept: tuple[str, ...] = ()


def sync(papers: Iterable[Paper], *, library_id: str | int, library_type: str = "user",
         api_key: str | None = None, collection: str | None = "ICML 2026", dry_run: bool = False,
         endpoint: str = DEFAULT_ENDPOINT, timeout: float = 30.0, max_attempts: int = 5,
         max_rounds: int = 5, sleep: Callable[[float], None] = time.sleep,
         progress: Progress | None = None) -> SyncReport:
    """Put *papers* into a Zotero library; returns what was done, per paper.

    * *library_id*, *library_type*: ``"123456", "user"`` or a group id and ``"group"``.
    * *api_key*: a key with write access (read access is enough for *dry_run*).
    * *collection*: new items are filed in this top-level collection, found by
      name or created once; ``None`` for none.
    * *dry_run*: read and plan only; nothing is written.
    * *endpoint*: ``scheme://host[:port]`` of the API (tests, self-hosted servers).
    * *timeout*, *max_attempts*, *max_rounds*: seconds per write request, tries
      per request, and re-read-and-retry rounds after 412 conflicts.
    * *sleep*: how to wait (tests inject a recorder); *progress*: ``f(done, total)``.

    Incomplete papers are ``skipped``.  Raises :class:`ZoteroError` (with
    ``.report`` set to the partial report) when the server refuses, cannot be
    reached, or keeps failing; per-paper refusals are ``failed`` outcomes instead.
    """
    library_id = str(library_id).strip()
    if library_type not in ("user", "group"):
        raise UsageError(f"library type must be 'user' or 'group', not {library_type!r}")
    if not library_id.isdigit():
        raise UsageError(f"library id must be a number, not {library_id!r}")
    if api_key is not None and not (api_key.isascii() and api_key.isalnum()):
        # Checked here because the server's answer would be a puzzling 400 (Bearer format).
        raise UsageError("a Zotero API key has only letters and digits; check ZOTERO_API_KEY "
                         "or the key file")
    started = time.monotonic()
    conn = Connection(library_id=library_id, library_type=library_type, api_key=api_key,
                      endpoint=endpoint, timeout=timeout, max_attempts=max_attempts, sleep=sleep)
    engine = _Engine(conn, list(papers), collection or None, dry_run, max_rounds, progress)
    try:
        engine.run()
    except ZoteroError as exc:
        report = engine.report(time.monotonic() - started)
        error = ZoteroError(f"{exc}; {engine.unfinished_note()}", exc.status)
        error.report = report
        raise error from None
    finally:
        conn.close()
    return engine.report(time.monotonic() - started)


class _Engine:
    def __init__(self, conn: Connection, papers: list[Paper], collection: str | None,
                 dry_run: bool, max_rounds: int, progress: Progress | None) -> None:
        self.conn = conn
        self.papers = list({p.id: p for p in papers}.values())
        self.collection = collection
        self.dry_run = dry_run
        self.max_rounds = max_rounds
        self.progress = progress
        self.collection_key: str | None = None
        self.collection_created = False
        self.outcomes: dict[str, Outcome] = {}
        self.sent: dict[str, _Planned] = {}   # writes whose answer was lost: confirmed on re-read
        self.collection_lost = False      # it vanished during this round: find or create it again
        self.collection_renewed = False   # …which happens at most once per run
        self.total = 0          # complete papers, for the progress bar
        self.finished = 0

    # -- results ----------------------------------------------------------------
    def report(self, seconds: float) -> SyncReport:
        outcomes = [self.outcomes.get(p.id) or Outcome(p.id, p.label, mapping.item_key(p.id), "failed",
                                                       "not synced: the run stopped before this paper")
                    for p in self.papers]
        return SyncReport(self.conn.library, self.collection, self.collection_key,
                          self.collection_created, self.dry_run, outcomes, Counter(self.conn.requests),
                          seconds)

    def unfinished_note(self) -> str:
        done = Counter(o.action for o in self.outcomes.values())
        waiting = len(self.papers) - len(self.outcomes)
        if not done["create"] and not done["update"]:
            return "nothing was written"
        return (f"before the error: {done['create']} created, {done['update']} updated, "
                f"{done['unchanged']} unchanged; {waiting} papers not synced "
                "(run the sync again: it is safe to repeat)")

    def record(self, paper: Paper, action: str, *, key: str | None = None, detail: str = "",
               fields: Iterable[str] = (), kept: Iterable[str] = ()) -> None:
        first = paper.id not in self.outcomes
        self.outcomes[paper.id] = Outcome(paper.id, paper.label, key, action, detail, tuple(fields),
                                          tuple(kept))
        if first and action != "skipped":
            self.finished += 1
            if self.progress is not None:
                self.progress(self.finished, self.total)

    # -- the run ----------------------------------------------------------------
    def run(self) -> None:
        todo: dict[str, Paper] = {}
        for paper in self.papers:
            if not paper.is_complete:
                missing = ", ".join(paper.missing) or "fields"
                self.record(paper, "skipped", detail=f"incomplete record (missing {missing})")
            else:
                todo[self.key_of(paper, todo)] = paper
        self.total = len(todo)
        versions = self.conn.item_versions()
        self.collection_key = self.find_or_create_collection()
        existing = [key for key in todo if key in versions]
        for _ in range(self.max_rounds):
            remote = self.conn.items_by_key(existing) if existing else {}
            plan = [self.plan(paper, key, remote.get(key)) for key, paper in todo.items()]
            if self.dry_run:
                for step in plan:
                    self.record_plan(step)
                return
            retry = self.execute(plan)
            if not retry:
                return
            if self.collection_lost:
                self.collection_key = self.find_or_create_collection()
                self.collection_lost, self.collection_renewed = False, True
            todo = {key: todo[key] for key in todo if key in retry}
            existing = list(todo)
        for key, paper in todo.items():
            self.record(paper, "failed", key=key, detail=f"the item kept changing in Zotero during "
                        f"{self.max_rounds} attempts; run the sync again")

    def key_of(self, paper: Paper, taken: dict[str, Paper]) -> str:
        key = mapping.item_key(paper.id)
        if key in taken:  # 40-bit keys: practically impossible, but never merge two papers
            raise ZoteroError(f"papers {taken[key].id} and {paper.id} map to the same item key {key}")
        return key

    def plan(self, paper: Paper, key: str, data: dict[str, Any] | None) -> _Planned:
        if data is None:
            return _Planned(paper, key, "create", mapping.new_item(paper, self.collection_key))
        if data.get("deleted"):
            return _Planned(paper, key, "skipped", detail="the item is in the Zotero trash (left there)")
        if data.get("itemType") != mapping.ITEM_TYPE:
            return _Planned(paper, key, "skipped",
                            detail=f"the item's type was changed to {data.get('itemType')} in Zotero (left alone)")
        merged = mapping.merge(paper, data)
        if not merged.patch:
            return _Planned(paper, key, "unchanged", kept=merged.kept)
        payload = {"key": key, "version": data["version"], **merged.patch}
        return _Planned(paper, key, "update", payload, kept=merged.kept)

    def record_plan(self, step: _Planned) -> None:
        fields = tuple(k for k in (step.payload or {}) if k not in ("key", "version"))
        detail = step.detail
        if step.action == "create" and self.collection and self.collection_key is None:
            detail = f"into the new collection {self.collection!r}"
        self.record(step.paper, step.action, key=step.key, detail=detail,
                    fields=fields if step.action == "update" else (), kept=step.kept)

    def execute(self, plan: list[_Planned]) -> set[str]:
        """Write the plan; returns the keys to re-read and plan again."""
        writes = []
        for step in plan:
            if step.action in ("create", "update"):
                writes.append(step)
            elif step.key in self.sent:   # our lost write did land: report it as done
                earlier = self.sent.pop(step.key)
                self.record(step.paper, earlier.action, key=step.key, kept=step.kept,
                            detail="confirmed after the server's answer was lost")
            else:
                self.record_plan(step)
        retry: set[str] = set()
        for start in range(0, len(writes), MAX_WRITE_OBJECTS):
            batch = writes[start:start + MAX_WRITE_OBJECTS]
            result = self.conn.post("items", [step.payload for step in batch])
            retry |= self.apply_result(batch, result)
        return retry

    def apply_result(self, batch: list[_Planned], result: WriteResult) -> set[str]:
        if result.replayed:   # an earlier attempt of this batch was applied; its answer was lost
            for step in batch:
                self.sent.setdefault(step.key, step)
            return {step.key for step in batch}
        retry = set()
        for index, step in enumerate(batch):
            if index in result.successful:
                self.sent.pop(step.key, None)
                self.record_plan(step)
            elif index in result.unchanged:
                self.record(step.paper, "unchanged", key=step.key, kept=step.kept)
            elif index in result.failed:
                failure = result.failed[index]
                code = failure.get("code")
                if code == 412 or (code == 404 and step.action == "update"):
                    retry.add(step.key)   # changed or deleted meanwhile, or created by a lost attempt
                elif code == 409 and step.action == "create" and not self.collection_renewed:
                    self.collection_lost = True   # our collection was deleted meanwhile
                    retry.add(step.key)
                else:
                    message = self.conn.redact(str(failure.get("message", "")))
                    self.record(step.paper, "failed", key=step.key,
                                detail=f"Zotero refused the {step.action} ({failure.get('code')} {message})")
            else:
                self.record(step.paper, "failed", key=step.key,
                            detail="Zotero's write report has no result for this item")
        return retry

    # -- the collection -----------------------------------------------------------
    def find_or_create_collection(self) -> str | None:
        if not self.collection:
            return None
        found = self.find_collection()
        if found or self.dry_run:
            return found
        key = mapping.collection_key(self.collection)
        body = {"key": key, "version": 0, "name": self.collection, "parentCollection": False}
        result = self.conn.post("collections", [body])
        if 0 in result.successful:
            self.collection_created = True
            return key
        if result.replayed or (0 in result.failed and result.failed[0].get("code") == 412):
            # Created by a lost earlier attempt, or our key exists under another name: use it.
            found = self.find_collection() or (key if self.conn.collection(key) else None)
            if found:
                return found
        failure = result.failed.get(0, {})
        raise ZoteroError(f"cannot create the collection {self.collection!r} "
                          f"({failure.get('code')} {self.conn.redact(str(failure.get('message', '')))})")

    def find_collection(self) -> str | None:
        """The top-level collection named so (names are not unique: ours, else the oldest)."""
        ours = mapping.collection_key(self.collection or "")
        matches = [c for c in self.conn.top_collections()
                   if c["data"].get("name") == self.collection and not c["data"].get("deleted")]
        if not matches:
            return None
        matches.sort(key=lambda c: (c["key"] != ours, c["version"], c["key"]))
        return matches[0]["key"]
