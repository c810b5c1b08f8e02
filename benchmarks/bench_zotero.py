"""Benchmark: sync N generated records into the local Zotero test server.

    python benchmarks/bench_zotero.py [--n 3000] [--latency 0.05]

Three phases: the first sync (everything created), a second sync with no
change, and a sync after 10 % of the records changed.  For each it prints the
seconds and the requests by kind, next to the minimum the API allows:
⌈N/50⌉ item writes for the first sync (50 objects per write), none for the
second, ⌈changed/50⌉ for the third.

Records come from ``benchmarks/corpus.py`` (``generate(n)``, records of the
real PMLR corpus) when it exists; otherwise the packaged papers are cloned
with distinct ids and citation keys (``dataclasses.replace``).
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import sys
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "tests")]

from icml2026.model import Paper  # noqa: E402
from corpus import records  # noqa: E402
from icml2026.zotero import sync  # noqa: E402
from zotero_server import ZoteroServer  # noqa: E402

KEY = "BenchKey0123456789"
USER_ID = 1000


def with_changes(papers: list[Paper], every: int) -> list[Paper]:
    """Every *every*-th paper with a revised abstract: "our data changed"."""
    return [dataclasses.replace(p, abstract=f"{p.abstract} (revised)") if i % every == 0 else p
            for i, p in enumerate(papers)]


def run_phase(name: str, server: ZoteroServer, papers: list[Paper], minimum_writes: int) -> None:
    server.reset_counts()
    started = time.perf_counter()
    report = sync(papers, library_id=USER_ID, library_type="user", api_key=KEY, endpoint=server.endpoint)
    seconds = time.perf_counter() - started
    counts = Counter(server.requests)
    total = sum(counts.values())
    print(f"\n{name}: {report.summary()}")
    print(f"  {seconds:8.2f} s   {total} requests   {len(papers) / seconds:8.0f} papers/s")
    for kind, n in sorted(counts.items()):
        print(f"    {kind:<22} {n:6d}")
    writes = counts.get("POST items", 0)
    verdict = "at the minimum" if writes == minimum_writes else f"{writes - minimum_writes:+d} over the minimum"
    print(f"  item writes: {writes}  (minimum the API allows: {minimum_writes}; {verdict})")
    if not report.ok:
        raise SystemExit(f"{name}: {report.counts['failed']} papers failed")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    parser.add_argument("--n", type=int, default=3000, help="number of records (default: %(default)s)")
    parser.add_argument("--latency", type=float, default=0.0,
                        help="seconds the server adds to every answer, like a real network (default: 0)")
    args = parser.parse_args()
    papers, origin = records(args.n)
    complete = [p for p in papers if p.is_complete]
    print(f"{len(papers)} records ({len(complete)} complete) from {origin}; "
          f"server latency {args.latency * 1000:.0f} ms per request")
    with ZoteroServer(latency=args.latency) as server:
        server.add_key(KEY, USER_ID)
        run_phase("first sync", server, papers, math.ceil(len(complete) / 50))
        run_phase("second sync, nothing changed", server, papers, 0)
        changed = with_changes(papers, every=10)
        n_changed = sum(1 for i, p in enumerate(papers) if i % 10 == 0 and p.is_complete)
        run_phase(f"third sync, {n_changed} records changed", server, changed, math.ceil(n_changed / 50))
        items = len(server.regular_items(server.library("user", USER_ID)))
        print(f"\nlibrary: {items} items (expected {len(complete)})")
        if items != len(complete):
            raise SystemExit("wrong number of items")


if __name__ == "__main__":
    main()
