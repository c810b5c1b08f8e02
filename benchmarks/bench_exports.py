"""CSL-JSON, RIS, JSON Lines (and JSON) export speed next to ``json.dumps`` of the same records.

    python benchmarks/bench_exports.py                 # the whole volume, then 100,000 generated records
    python benchmarks/bench_exports.py --n 20000 --pairs 7

The baseline is the floor of issue 12: ``json.dumps`` of each record's
``Paper.to_dict()`` (dicts built before the clock starts), one JSON text per record
joined by new lines.  Each export is the public ``icml2026.export(papers, fmt)`` with
its defaults (abstracts included).  The export and the baseline run in turn, and the
figure is the median [min] of the per-pair CPU-time ratios (``benchmarks/timing.py``).
Targets (issue 12): CSL-JSON ≤ 1.5×, RIS ≤ 2×, JSON Lines ≤ 1.2×.  A script, not a test.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus import generate
from timing import Pairs, in_process, load_average, print_table

import icml2026
from icml2026.model import Paper

TARGETS = {"csl-json": 1.5, "ris": 2.0, "jsonl": 1.2, "json": None}


def measure(label: str, papers: list[Paper], pairs: int) -> list[str]:
    dicts = [p.to_dict() for p in papers]

    def floor() -> str:
        return "\n".join([json.dumps(d, ensure_ascii=False) for d in dicts])

    rows = []
    for fmt, target in TARGETS.items():
        def ours(fmt: str = fmt) -> str:
            return icml2026.export(papers, fmt)

        rows.append(Pairs.measure(in_process(ours), in_process(floor), pairs).row(
            f"{fmt}, {label} ({len(papers):,} records)", "`json.dumps` of each record", target))
        print(rows[-1], flush=True)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100_000, help="generated records (default 100,000; 0: none)")
    parser.add_argument("--pairs", type=int, default=7, help="pairs per row (default 7)")
    parser.add_argument("--no-volume", action="store_true", help="skip the packaged volume")
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore")  # the volume's one incomplete record is skipped by citable formats
    print(f"Python {sys.version.split()[0]} ({sys.executable}), load average {load_average()}")
    rows = []
    if not args.no_volume:
        rows += measure("the packaged volume", list(icml2026.load()), args.pairs)
    if args.n:
        start = time.perf_counter()
        papers = generate(args.n)
        print(f"\n(generated in {time.perf_counter() - start:.1f} s from the PMLR corpus, repeated with distinct keys)")
        rows += measure("generated", papers, args.pairs)
    print_table(rows, "Table (Markdown):")
    return 0


if __name__ == "__main__":
    sys.exit(main())
