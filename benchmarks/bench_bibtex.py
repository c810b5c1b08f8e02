"""BibTeX/BibLaTeX export speed next to ``json.dumps`` of the same records.

    python benchmarks/bench_bibtex.py              # 100,000 records
    python benchmarks/bench_bibtex.py --n 20000 --abstract

Records come from :func:`corpus.generate` (PMLR's real ICML 2026 BibTeX,
repeated with distinct keys).  Prints records/second for each exporter and
for ``json.dumps`` of the canonical records (``Paper.to_dict()`` included, and
the dumping alone), best of ``--repeat`` runs.  A script, not a test.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus import generate

import icml2026


def best_of(repeat: int, work: Callable[[], object]) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100_000, help="number of records (default 100,000)")
    parser.add_argument("--repeat", type=int, default=1, help="runs per measurement; the best counts")
    parser.add_argument("--abstract", action="store_true", help="include abstracts in BibTeX/BibLaTeX")
    args = parser.parse_args(argv)

    start = time.perf_counter()
    papers = generate(args.n)
    print(f"{len(papers):,} records generated from the PMLR corpus in {time.perf_counter() - start:.1f} s")
    dicts = [p.to_dict() for p in papers]

    rows = [
        ("bibtex", lambda: icml2026.export(papers, "bibtex", abstract=args.abstract)),
        ("biblatex", lambda: icml2026.export(papers, "biblatex", abstract=args.abstract)),
        ("json.dumps(to_dict())", lambda: json.dumps([p.to_dict() for p in papers], ensure_ascii=False)),
        ("json.dumps (dicts ready)", lambda: json.dumps(dicts, ensure_ascii=False)),
    ]
    print(f"{'what':<26}{'seconds':>10}{'records/s':>14}")
    for label, work in rows:
        seconds = best_of(args.repeat, work)
        print(f"{label:<26}{seconds:>10.2f}{len(papers) / seconds:>14,.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
