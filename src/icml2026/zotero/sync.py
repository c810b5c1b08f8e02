"""The sync engine: read what changed, plan per paper, write in batches of ≤ 50.

Why it cannot duplicate: every item is created under a key derived from the
paper id with ``version: 0``, so replaying a create (after a lost answer or an
interrupted run) fails with a per-object 412 instead of adding a second item;
a 412 or a "write token already used" answer leads to re-reading those items
and planning them again.  An item the user added by hand (same title, same
OpenReview or PMLR URL) is adopted instead of created.  Why it cannot overwrite
the user: updates carry the item's version (a concurrent edit gives 412, never
a blind overwrite) and only fields that still hold what we last wrote are
changed (:func:`mapping.merge`).

Why a re-sync is cheap: with a *state_dir*, the library version and what each
item looked like are kept locally (:mod:`.state`); the next sync asks only for
items changed since that version (a 304 when nothing changed: one request) and
plans every other paper from the state.  Without it, one paged read of the
library (100 items per request) replaces it.
"""

from __future__ import annotations

import os
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from ..errors import UsageError
from ..exporters import citable, missing_for_citation
from ..model import Paper
from . import mapping
from .client import (
    DEFAULT_ENDPOINT,
    MAX_WRITE_OBJECTS,
    Connection,
    WriteLost,
    WriteResult,
    check_timeout,
)
from .errors import ZoteroError
from .mapping import Remote
from .state import SyncState

ACTIONS = ("create", "update", "unchanged", "skipped", "failed")
PAST_TENSE = {"create": "created", "update": "updated", "unchanged": "unchanged",
              "skipped": "skipped", "failed": "failed"}
Progress = Callable[[int, int], None]
NOT_ITEMS = ("note", "attachment", "annotation")   # top-level, but never a paper
MATCH_KINDS = {"id": "its icml2026-id line", "openreview": "the same OpenReview id",
               "pmlr": "the same PMLR URL", "title": "the same title"}


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
    collection_checked: bool = True  # False: no paper needed the collection, so it was not looked up
    notes: list[str] = field(default_factory=list)   # warnings about the run itself
    waits: list[str] = field(default_factory=list)   # each wait the server asked for (told to notify)

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
        sent = sum(self.requests.values())
        return (f"{prefix}{counts} ({self.library}, {sent} request{'' if sent == 1 else 's'}, "
                f"{self.item_writes} item writes, {self.seconds:.1f} s)")


@dataclass
class _Target:
    """The item a paper maps to, as found before planning."""

    key: str
    remote: Remote | None                # None: no item yet (create)
    adopt: dict[str, Any] | None = None  # the data of a hand-made item this paper adopts
    how: str = ""                        # why it was adopted
    skip: str = ""                       # a reason not to touch this paper at all


@dataclass
class _Planned:
    paper: Paper
    key: str
    action: str
    payload: dict[str, Any] | None = None
    detail: str = ""
    kept: tuple[str, ...] = ()
    remote: Remote | None = None
    keyless: bool = False      # sent without our key (the server refused it)


def sync(papers: Iterable[Paper], *, library_id: str | int, library_type: str = "user",
         api_key: str | None = None, collection: str | None = "ICML 2026", dry_run: bool = False,
         endpoint: str = DEFAULT_ENDPOINT, timeout: float = 30.0, max_attempts: int = 5,
         max_rounds: int = 5, sleep: Callable[[float], None] | None = None,
         progress: Progress | None = None,
         state_dir: str | os.PathLike[str] | None = None,
         notify: Callable[[str], None] | None = None) -> SyncReport:
    """Put *papers* into a Zotero library; returns what was done, per paper.

    * *library_id*, *library_type*: ``"123456", "user"`` or a group id and ``"group"``.
    * *api_key*: a key with write access (read access is enough for *dry_run*).
    * *collection*: new items are filed in this top-level collection, found by
      name or created once; ``None`` for none.
    * *dry_run*: read and plan only; nothing is written.
    * *endpoint*: ``scheme://host[:port]`` of the API (tests, self-hosted servers).
    * *timeout*, *max_attempts*, *max_rounds*: seconds per request, tries per
      request (reads and writes alike; waits are capped at
      :data:`client.MAX_WAIT`), and re-read-and-retry rounds after 412 conflicts.
    * *sleep*: how to wait (default ``time.sleep``; tests inject a recorder);
      *progress*: ``f(done, total)``; *notify*: ``f(message)``, told before every
      wait the server asks for (the messages are also in ``report.waits``).
    * *state_dir*: where to keep the sync state that makes a re-sync read only
      what changed (the CLI uses :func:`state.default_dir`); ``None``: none.

    Incomplete papers are ``skipped``.  Raises :class:`ZoteroError` (with
    ``.report`` set to the partial report, and a message saying what was
    written) when the server refuses, cannot be reached, or keeps failing;
    per-paper refusals are ``failed`` outcomes instead.
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
    if dry_run and api_key is None and library_type == "user":
        # Said before any request: the server would answer a bare 403.
        raise UsageError("a dry run reads the library, and a user library can only be read with an "
                         "API key (a read-only key is enough)")
    check_timeout(timeout)
    started = time.monotonic()
    conn = Connection(library_id=library_id, library_type=library_type, api_key=api_key,
                      endpoint=endpoint, timeout=timeout, max_attempts=max_attempts, sleep=sleep,
                      notify=notify)
    state = SyncState.load(state_dir, conn.endpoint, conn.library)
    engine = _Engine(conn, list(papers), collection or None, dry_run, max_rounds, progress, state)
    try:
        engine.run()
        engine.save_state(finished=True)
    except ZoteroError as exc:
        engine.save_state(finished=False)
        report = engine.report(time.monotonic() - started)
        error = ZoteroError(f"{exc}; {engine.unfinished_note()}", exc.status)
        error.report = report
        raise error from None
    finally:
        conn.close()
    return engine.report(time.monotonic() - started)


class _Engine:
    def __init__(self, conn: Connection, papers: list[Paper], collection: str | None,
                 dry_run: bool, max_rounds: int, progress: Progress | None, state: SyncState) -> None:
        self.conn = conn
        self.papers = list({p.id: p for p in papers}.values())
        self.collection = collection
        self.dry_run = dry_run
        self.max_rounds = max_rounds
        self.progress = progress
        self.state = state
        self.collection_key: str | None = None
        self.collection_checked = False
        self.collection_created = False
        self.outcomes: dict[str, Outcome] = {}
        self.sent: dict[str, _Planned] = {}   # writes whose answer was lost: confirmed on re-read
        self.uncertain: set[str] = set()       # papers whose write may have landed (no answer)
        self.collection_lost = False      # it vanished during this round: find or create it again
        self.collection_renewed = False   # …which happens at most once per run
        self.total = 0          # complete papers, for the progress bar
        self.finished = 0
        self.read_version: int | None = None   # library version of this run's first read
        self.wrote = False
        self.notes: list[str] = []
        # The server refuses the keys we choose (zotero/zotero#6029, August 2026): creates
        # go without one for the rest of the run, and the server's key is recorded.
        self.server_keys = False
        self.refused: list[_Planned] = []
        self.fields: frozenset[str] | None = None   # the library's conferencePaper fields, once known

    # -- results ----------------------------------------------------------------
    def report(self, seconds: float) -> SyncReport:
        outcomes = [self.outcomes.get(p.id) or self.unfinished_outcome(p) for p in self.papers]
        return SyncReport(self.conn.library, self.collection, self.collection_key,
                          self.collection_created, self.dry_run, outcomes, Counter(self.conn.requests),
                          seconds, self.collection_checked or not self.collection,
                          list(self.notes), list(self.conn.notices))

    def unfinished_outcome(self, paper: Paper) -> Outcome:
        key = mapping.item_key(paper.id)
        if paper.id in self.uncertain:
            return Outcome(paper.id, paper.label, key, "failed", "may have been written: the "
                           "server's answer was lost; run the sync again to confirm")
        return Outcome(paper.id, paper.label, key, "failed", "not synced: the run stopped before this paper")

    def unfinished_note(self) -> str:
        """What was written before an error: confirmed, certain-but-unconfirmed and possible writes."""
        done = Counter(o.action for o in self.outcomes.values())
        applied = len({step.paper.id for step in self.sent.values()} - set(self.outcomes))
        uncertain = len(self.uncertain - set(self.outcomes) - {s.paper.id for s in self.sent.values()})
        waiting = len(self.papers) - len(self.outcomes)
        parts = [f"created the collection {self.collection!r}"] if self.collection_created else []
        if done["create"] or done["update"]:
            parts.append(f"{done['create']} created, {done['update']} updated")
        if applied:
            parts.append(f"{applied} more written whose answers were lost")
        if uncertain:
            parts.append(f"{uncertain} more may have been written (their answers were lost)")
        if not parts:
            return "nothing was written"
        return (f"before the error: {', '.join(parts)}, {done['unchanged']} unchanged; {waiting} papers "
                "not confirmed (run the sync again: it is safe to repeat)")

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
            if not citable(paper):  # never an item with the year "None"
                missing = ", ".join(missing_for_citation(paper)) or "fields"
                self.record(paper, "skipped", detail=f"incomplete record (missing {missing})")
            else:
                todo[paper.id] = paper
        self.check_keys(todo.values())
        self.total = len(todo)
        targets = self.find_incrementally(todo) if self.state_covers(todo) else None
        if targets is None:
            targets = self.find_all(todo)
        self.remember(targets)
        if any(t.remote is None or t.adopt is not None for t in targets.values() if not t.skip):
            self.collection_key = self.find_or_create_collection()
        for _ in range(self.max_rounds):
            plan = [self.plan(todo[pid], target) for pid, target in targets.items()]
            if self.fields is None and any(step.action in ("create", "update") for step in plan):
                # Only a write needs the library's schema: an unchanged library costs no request.
                self.fields = self.schema_fields()
                plan = [self.plan(todo[pid], target) for pid, target in targets.items()]
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
            targets = self.reread({pid: targets[pid] for pid in targets if targets[pid].key in retry})
        for pid, target in targets.items():
            self.record(todo[pid], "failed", key=target.key, detail=f"the item kept changing in Zotero "
                        f"during {self.max_rounds} attempts; run the sync again")

    def schema_fields(self) -> frozenset[str]:
        """conferencePaper's fields in the library's schema (``citationKey`` since v39, Zotero 8).

        Kept in the state with the schema version they were read under, and read again
        when the server announces another version (``Zotero-Schema-Version``).
        """
        version = self.conn.schema_version
        known = self.state.schema
        if known is not None and version is not None and known[0] == version:
            return known[1]
        fields = self.conn.item_type_fields(mapping.ITEM_TYPE)
        if version is not None:
            self.state.schema = (version, fields)
        return fields

    def check_keys(self, papers: Iterable[Paper]) -> None:
        taken: dict[str, Paper] = {}
        for paper in papers:
            key = mapping.item_key(paper.id)
            if key in taken:  # 40-bit keys: practically impossible, but never merge two papers
                raise ZoteroError(f"papers {taken[key].id} and {paper.id} map to the same item key {key}")
            taken[key] = paper

    def reread(self, targets: dict[str, _Target]) -> dict[str, _Target]:
        found = self.conn.items_by_key(t.key for t in targets.values())
        return {pid: _Target(t.key, Remote.from_data(found[t.key])) if t.key in found
                else _Target(mapping.item_key(pid), None) for pid, t in targets.items()}

    def remember(self, targets: dict[str, _Target]) -> None:
        """Put what was just read into the state, so it holds as of this run's first read."""
        for pid, target in targets.items():
            if target.remote is not None and target.adopt is None and not target.skip:
                self.state.items[pid] = target.remote
            else:
                self.state.items.pop(pid, None)   # adopted or created: stored once written

    # -- finding each paper's item ----------------------------------------------------
    def state_covers(self, todo: dict[str, Paper]) -> bool:
        return self.state.version is not None and all(pid in self.state.items for pid in todo)

    def find_incrementally(self, todo: dict[str, Paper]) -> dict[str, _Target] | None:
        """Targets from the state plus what changed since its version; None if it cannot be used."""
        since = self.state.version
        assert since is not None
        listing = self.conn.list_items(since=since)
        if listing.version < since:
            return None   # the library went back in time (restored?): the state describes another one
        self.read_version = listing.version
        changed = {obj["key"]: obj["data"] for obj in listing.objects}
        deleted = set() if listing.not_modified else self.conn.deleted_items(since)
        for pid, entry in list(self.state.items.items()):   # every entry, selected or not, is
            if entry.key in changed:                        # brought up to this run's version
                self.state.items[pid] = Remote.from_data(changed[entry.key])
            elif entry.key in deleted:
                del self.state.items[pid]
        targets: dict[str, _Target] = {}
        stale: dict[str, _Target] = {}
        for pid in todo:
            known = self.state.items.get(pid)
            if known is None:
                targets[pid] = _Target(mapping.item_key(pid), None)   # deleted for good: create again
            elif known.version < 0:
                stale[pid] = _Target(known.key, None)
            else:
                targets[pid] = _Target(known.key, known)
        targets.update(self.reread(stale) if stale else {})
        if self.collection and self.collection in self.state.collections:
            self.collection_key = self.state.collections[self.collection]
        return targets

    def find_all(self, todo: dict[str, Paper]) -> dict[str, _Target]:
        """Targets from one paged read of every top-level item (and hand-made items to adopt)."""
        listing = self.conn.list_items()
        self.read_version = listing.version
        items = {obj["key"]: obj["data"] for obj in listing.objects}
        for pid, entry in list(self.state.items.items()):   # papers of earlier runs: refreshed
            if entry.key in items:
                self.state.items[pid] = Remote.from_data(items[entry.key])
            else:
                del self.state.items[pid]
        index: dict[tuple[str, str], list[str]] = {}
        for key, data in items.items():
            if data.get("itemType") in NOT_ITEMS:
                continue
            identity = mapping.item_identity(data)
            ids = [value for kind, value in identity if kind == "id"]
            for kind, value in identity:
                # An item of ours for one paper is found by its id only; the trash adopts nothing.
                if (kind == "id" or not ids) and (kind == "id" or not data.get("deleted")):
                    index.setdefault((kind, value), []).append(key)
        ours = {mapping.item_key(pid) for pid in todo}
        targets: dict[str, _Target] = {}
        for pid, paper in todo.items():
            key = mapping.item_key(pid)
            if key in items:
                targets[pid] = _Target(key, Remote.from_data(items[key]))
            else:
                targets[pid] = self.match(paper, index, items, ours)
        return self.without_shared_adoptions(targets)

    def match(self, paper: Paper, index: dict[tuple[str, str], list[str]],
              items: dict[str, dict[str, Any]], ours: set[str]) -> _Target:
        key = mapping.item_key(paper.id)
        for kind, value in mapping.paper_identity(paper).items():
            found = sorted(set(index.get((kind, value), [])) - ours)
            if len(found) == 1 and kind == "id":   # adopted before (or copied from another library)
                return _Target(found[0], Remote.from_data(items[found[0]]))
            if len(found) == 1:
                data = items[found[0]]
                return _Target(found[0], Remote.from_data(data), adopt=data, how=MATCH_KINDS[kind])
            if found:
                return _Target(key, None, skip=f"{len(found)} items in your library have "
                               f"{MATCH_KINDS[kind]} ({', '.join(found)}): none adopted, none created; "
                               "delete the extra ones or merge them in Zotero")
        return _Target(key, None)

    def without_shared_adoptions(self, targets: dict[str, _Target]) -> dict[str, _Target]:
        """One hand-made item matching several papers is adopted by none of them."""
        claims = Counter(t.key for t in targets.values() if t.adopt is not None)
        for pid, target in targets.items():
            if target.adopt is not None and claims[target.key] > 1:
                targets[pid] = _Target(mapping.item_key(pid), None, skip=f"your item {target.key} "
                                       f"looks like {claims[target.key]} papers: not adopted, none created")
        return targets

    # -- planning -------------------------------------------------------------------------
    def plan(self, paper: Paper, target: _Target) -> _Planned:
        key, remote = target.key, target.remote
        if target.skip:
            return _Planned(paper, key, "skipped", detail=target.skip)
        if remote is None:
            return _Planned(paper, key, "create", mapping.new_item(paper, self.collection_key, self.fields))
        if remote.deleted:
            return _Planned(paper, key, "skipped", detail="the item is in the Zotero trash (left there)",
                            remote=remote)
        if remote.item_type != mapping.ITEM_TYPE:
            detail = (f"your item {key} has {target.how} but is a {remote.item_type}: not adopted, not "
                      "duplicated; make it a Conference Paper in Zotero to have it synced"
                      if target.adopt is not None else
                      f"the item's type was changed to {remote.item_type} in Zotero (left alone)")
            return _Planned(paper, key, "skipped", detail=detail, remote=remote)
        merged = mapping.merge(paper, remote, self.fields)
        patch = dict(merged.patch)
        detail = ""
        if target.adopt is not None:
            patch.update(mapping.adoption_patch(target.adopt, self.collection_key))
            detail = f"adopted your item ({target.how})"
        if not patch:
            return _Planned(paper, key, "unchanged", kept=merged.kept, remote=remote)
        payload = {"key": key, "version": remote.version, **patch}
        return _Planned(paper, key, "update", payload, detail=detail, kept=merged.kept, remote=remote)

    def record_plan(self, step: _Planned) -> None:
        fields = tuple(k for k in (step.payload or {}) if k not in ("key", "version"))
        detail = step.detail
        if step.action == "create" and self.collection and self.collection_key is None:
            detail = f"into the new collection {self.collection!r}"
        self.record(step.paper, step.action, key=step.key, detail=detail,
                    fields=fields if step.action == "update" else (), kept=step.kept)
        if step.action in ("unchanged", "skipped") and step.remote is not None:
            self.state.items[step.paper.id] = step.remote

    # -- writing ---------------------------------------------------------------------------
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
                if step.remote is not None:
                    self.state.items[step.paper.id] = step.remote
            else:
                self.record_plan(step)
        retry: set[str] = set()
        for start in range(0, len(writes), MAX_WRITE_OBJECTS):
            retry |= self.write_batch(writes[start:start + MAX_WRITE_OBJECTS])
        while self.refused:   # creates whose key the server refused: again, without a key
            batch, self.refused = self.refused[:MAX_WRITE_OBJECTS], self.refused[MAX_WRITE_OBJECTS:]
            retry |= self.write_batch(batch)
        return retry

    def write_batch(self, batch: list[_Planned]) -> set[str]:
        self.wrote = True
        try:
            result = self.conn.post("items", [self.payload(step) for step in batch])
        except WriteLost:
            self.uncertain.update(step.paper.id for step in batch)
            raise
        self.uncertain.difference_update(step.paper.id for step in batch)
        return self.apply_result(batch, result)

    def payload(self, step: _Planned) -> dict[str, Any]:
        body = step.payload or {}
        if step.action == "create" and self.server_keys:
            # Not replay-safe by key any more; the write token still covers retries of this
            # request, and the icml2026-id line finds the item in the next full read.
            step.keyless = True
            return {k: v for k, v in body.items() if k not in ("key", "version")}
        return body

    def apply_result(self, batch: list[_Planned], result: WriteResult) -> set[str]:
        if result.replayed:   # an earlier attempt of this batch was applied; its answer was lost
            for step in batch:
                self.sent.setdefault(step.key, step)
            return {step.key for step in batch}
        retry = set()
        for index, step in enumerate(batch):
            if index in result.successful:
                self.sent.pop(step.key, None)
                written = result.successful[index]
                data = written.get("data")
                server_key = written.get("key") or (data or {}).get("key")
                if step.action == "create" and isinstance(server_key, str) and server_key != step.key:
                    step.key = server_key   # the server chose it: reported and kept in the state
                self.record_plan(step)
                if isinstance(data, dict):
                    self.state.items[step.paper.id] = Remote.from_data(data)
            elif index in result.unchanged:
                self.record(step.paper, "unchanged", key=step.key, kept=step.kept)
                if step.remote is not None:
                    self.state.items[step.paper.id] = step.remote
            elif index in result.failed:
                failure = result.failed[index]
                code = failure.get("code")
                if step.action == "create" and not step.keyless and refuses_key(failure):
                    self.server_keys = True
                    self.refused.append(step)
                elif code == 412 or (code == 404 and step.action == "update"):
                    retry.add(step.key)   # changed or deleted meanwhile, or created by a lost attempt
                elif code == 409 and "collections" in (step.payload or {}) and not self.collection_renewed:
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

    # -- the state ------------------------------------------------------------------------
    def save_state(self, finished: bool) -> None:
        """Store what this run saw, as of a library version after which every change is listed."""
        if self.dry_run or self.state.path is None or self.read_version is None:
            return
        version = self.read_version
        try:
            if finished and self.wrote:
                version = self.confirm_own_writes()
        except ZoteroError:
            version = self.read_version   # next time, our own writes are listed and read again
        if self.collection and self.collection_key:
            self.state.collections[self.collection] = self.collection_key
        self.state.version = version
        try:
            self.state.save()
        except OSError as exc:
            self.notes.append(f"could not save the sync state in {self.state.path.parent} "
                              f"({exc.strerror or type(exc).__name__}): the next sync reads the whole library")

    def confirm_own_writes(self) -> int:
        """One listing of what changed since our first read: anything we did not write is stale."""
        assert self.read_version is not None
        versions, now = self.conn.item_versions(since=self.read_version)
        by_key = {entry.key: pid for pid, entry in self.state.items.items()}
        for key, version in versions.items():
            pid = by_key.get(key)
            if pid is not None and self.state.items[pid].version != version:
                entry = self.state.items[pid]
                self.state.items[pid] = Remote(entry.key, -1, entry.item_type, entry.deleted,
                                               entry.hashes, entry.extra)
        return now

    # -- the collection -----------------------------------------------------------
    def find_or_create_collection(self) -> str | None:
        if not self.collection:
            return None
        self.collection_checked = True
        if self.collection_key and not self.collection_lost:
            return self.collection_key   # from the state: a 409 on create tells if it is gone
        found = self.find_collection()
        if found or self.dry_run:
            return found
        key = mapping.collection_key(self.collection)
        body = {"key": key, "version": 0, "name": self.collection, "parentCollection": False}
        self.wrote = True
        result = self.conn.post("collections", [body])
        if 0 in result.failed and refuses_key(result.failed[0]):   # zotero/zotero#6029
            self.server_keys = True
            result = self.conn.post("collections", [{"name": self.collection, "parentCollection": False}])
            key = str(result.successful.get(0, {}).get("key") or key)
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
        return str(matches[0]["key"])


def refuses_key(failure: dict[str, Any]) -> bool:
    """A per-object 400 "'…' is not a valid item key": the server will not take a key we chose."""
    message = str(failure.get("message", ""))
    return failure.get("code") == 400 and "is not a valid" in message and "key" in message
