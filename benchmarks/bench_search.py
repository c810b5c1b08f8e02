"""Search over the packaged volume: whole-process wall time against a bare Python start.

    python benchmarks/bench_search.py [--runs 5] [QUERY …]

Prints, for each command, the best of ``--runs`` wall times, the same for
``python -c pass`` measured in the same run, and the ratio (issue 9's target for
``icml2026 list --query WORDS``: at most 3×).  Then, in this process, where the time of
a search goes: ``load()``, building the search index (once per collection) and the
query itself.  Not a test: the numbers depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from collections.abc import Callable

DEFAULT_QUERIES = ["graph neural networks", "li", "diffusion cassano"]


def wall(argv: list[str], runs: int) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
        best = min(best, time.perf_counter() - start)
    return best


def best_of(action: Callable[[], object], runs: int) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        action()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("queries", nargs="*", default=DEFAULT_QUERIES)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    bare = wall([sys.executable, "-c", "pass"], args.runs)
    print(f"{'python -c pass':<48} {bare * 1000:8.1f} ms")
    for query in args.queries:
        ms = wall([sys.executable, "-m", "icml2026", "list", "--query", query], args.runs)
        print(f"{'icml2026 list --query ' + repr(query):<48} {ms * 1000:8.1f} ms  {ms / bare:5.2f}×")

    import icml2026
    from icml2026.collection import PaperCollection

    load = best_of(icml2026.load, args.runs)
    papers = icml2026.load()
    index = best_of(lambda: PaperCollection._ordered(papers)._search_index(), args.runs)
    print(f"\nin process, {len(papers):,} papers: load() {load * 1000:.1f} ms, "
          f"search index {index * 1000:.1f} ms (once per collection)")
    for query in args.queries:
        ms = best_of(lambda q=query: papers.search(q), args.runs)  # type: ignore[misc]
        print(f"  search({query!r}): {ms * 1000:.2f} ms, {len(papers.search(query)):,} hits")


if __name__ == "__main__":
    main()
