"""Benchmark: sync N records into the local Zotero test server, counting requests.

    python benchmarks/bench_zotero.py [--n 3000] [--changed 300] [--latency 0.05]

Phases, all against one library on ``tests/zotero_server.py`` (127.0.0.1):

1. the first sync (everything created), keeping the sync state;
2. a re-sync with nothing changed (target: ≤ 2 requests, whatever N);
3. a re-sync after ``--changed`` of our records changed (target: ≤ 2 + ⌈changed/50⌉);
4. a re-sync with nothing changed and no state (one paged read of the library).

For each it prints the requests by kind and the seconds, next to the target
and to the requests the previous implementation sent for the same phase.
That one cannot run any more, so its count is computed from what it did
(issue 12 measured 62 requests for 3,000 unchanged papers): one
``format=versions`` listing, one collections listing, one ``itemKey`` read per
50 papers, plus the item writes.

Records come from ``benchmarks/corpus.py`` (the real PMLR corpus, repeated
with distinct keys, or clones of the packaged papers).
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "tests")]

from corpus import records  # noqa: E402
from zotero_server import ZoteroServer  # noqa: E402

from icml2026.model import Paper  # noqa: E402
from icml2026.zotero import SyncReport, sync  # noqa: E402

KEY = "BenchKey0123456789"
USER_ID = 1000


def old_requests(complete: int, writes: int) -> int:
    """What the previous sync sent: versions + collections + ⌈n/50⌉ item reads + writes."""
    return 2 + math.ceil(complete / 50) + writes


def with_changes(papers: list[Paper], n: int) -> list[Paper]:
    """The first *n* complete papers with a revised abstract: "our data changed"."""
    out, done = [], 0
    for paper in papers:
        if done < n and paper.is_complete:
            paper = dataclasses.replace(paper, abstract=f"{paper.abstract or ''} (revised)")
            done += 1
        out.append(paper)
    return out


def run_phase(name: str, server: ZoteroServer, papers: list[Paper], state: Path | None,
              target: int | None, old: int) -> SyncReport:
    server.reset_counts()
    started = time.perf_counter()
    report = sync(papers, library_id=USER_ID, library_type="user", api_key=KEY,
                  endpoint=server.endpoint, state_dir=state)
    seconds = time.perf_counter() - started
    counts = Counter(server.requests)
    total = sum(counts.values())
    print(f"\n{name}: {report.summary()}")
    kinds = ", ".join(f"{kind} {n}" for kind, n in sorted(counts.items()))
    print(f"  {total:5d} requests ({kinds}) in {seconds:.2f} s")
    verdict = "" if target is None else f"target ≤ {target}: {'met' if total <= target else 'MISSED'}; "
    print(f"  {verdict}previous implementation: {old} requests ({old / max(total, 1):.0f}× as many)")
    if not report.ok:
        raise SystemExit(f"{name}: {report.counts['failed']} papers failed")
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--n", type=int, default=3000, help="number of records (default: %(default)s)")
    parser.add_argument("--changed", type=int, default=300,
                        help="records changed before the third sync (default: %(default)s)")
    parser.add_argument("--latency", type=float, default=0.0,
                        help="seconds the server adds to every answer, like a real network (default: 0)")
    args = parser.parse_args()
    papers, origin = records(args.n)
    complete = sum(1 for p in papers if p.is_complete)
    changed = min(args.changed, complete)
    writes = math.ceil(complete / 50)
    print(f"{len(papers)} records ({complete} complete) from {origin}; "
          f"server latency {args.latency * 1000:.0f} ms per request")
    with ZoteroServer(latency=args.latency) as server, tempfile.TemporaryDirectory() as state_dir:
        server.add_key(KEY, USER_ID)
        state = Path(state_dir)
        run_phase("first sync", server, papers, state, None, old_requests(0, writes) + 1)
        run_phase(f"re-sync, {complete} unchanged", server, papers, state, 2, old_requests(complete, 0))
        new = with_changes(papers, changed)
        run_phase(f"re-sync, {changed} changed", server, new, state, 2 + math.ceil(changed / 50),
                  old_requests(complete, math.ceil(changed / 50)))
        run_phase(f"re-sync, {complete} unchanged, no state (full read)", server, new, None, None,
                  old_requests(complete, 0))
        items = len(server.regular_items(server.library("user", USER_ID)))
        print(f"\nlibrary: {items} items (expected {complete})")
        if items != complete:
            raise SystemExit("wrong number of items")


if __name__ == "__main__":
    main()
