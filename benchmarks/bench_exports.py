"""CSL-JSON, RIS, JSON Lines (and JSON) export speed next to ``json.dumps`` of the same records.

    python benchmarks/bench_exports.py                 # the whole volume, then 100,000 generated records
    python benchmarks/bench_exports.py --n 20000 --repeat 5

The baseline, measured in the same run, is the floor of issue 12: ``json.dumps``
of each record's ``Paper.to_dict()`` (dicts built before the clock starts), one
JSON text per record joined by new lines.  Each export is the public
``icml2026.export(papers, fmt)`` with its defaults (abstracts included).  Runs
of the baseline and of each export alternate, and the best of ``--repeat`` counts,
so that the shared machine's noise hits both sides alike.  Targets (issue 12):
CSL-JSON ≤ 1.5×, RIS ≤ 2×, JSON Lines ≤ 1.2×.  A script, not a test.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus import generate

import icml2026
from icml2026.model import Paper

TARGETS = {"csl-json": 1.5, "ris": 2.0, "jsonl": 1.2, "json": None}


def once(work: Callable[[], object]) -> float:
    gc.collect()
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def measure(label: str, papers: list[Paper], repeat: int) -> None:
    dicts = [p.to_dict() for p in papers]

    def floor() -> str:
        return "\n".join([json.dumps(d, ensure_ascii=False) for d in dicts])

    print(f"\n{label}: {len(papers):,} records")
    print(f"{'export':<12}{'ours (s)':>10}{'json.dumps (s)':>16}{'ratio':>8}{'target':>8}")
    for fmt, target in TARGETS.items():
        ours, base = float("inf"), float("inf")
        for _ in range(repeat):
            base = min(base, once(floor))
            ours = min(ours, once(lambda fmt=fmt: icml2026.export(papers, fmt)))
        verdict = "" if target is None else f"≤{target}× " + ("met" if ours / base <= target else "MISSED")
        print(f"{fmt:<12}{ours:>10.3f}{base:>16.3f}{ours / base:>7.2f}×  {verdict}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100_000, help="generated records (default 100,000; 0: none)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per measurement; the best counts")
    parser.add_argument("--no-volume", action="store_true", help="skip the packaged volume")
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore")  # the volume's one incomplete record is skipped by citable formats
    if not args.no_volume:
        measure("the packaged volume", list(icml2026.load()), args.repeat)
    if args.n:
        start = time.perf_counter()
        papers = generate(args.n)
        print(f"\n(generated in {time.perf_counter() - start:.1f} s from the PMLR corpus, repeated with distinct keys)")
        measure("generated corpus", papers, args.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
