"""Validation speed and the memory of a streamed ``export --data``, next to their floors.

    python benchmarks/bench_validate.py                  # 10,000 and 100,000 records
    python benchmarks/bench_validate.py --sizes 10000 --pairs 3

Records come from ``corpus.generate`` (PMLR's real ICML 2026 BibTeX, repeated with
distinct ids and keys), written as one JSON Lines file per size.  Printed, all
measured in this run:

* ``validate`` (schema, text and data rules, unique keys) against ``json.loads`` of
  every line of the same file (already in memory): the target is ≤ 3×.  The packaged
  volume is measured the same way.
* Peak RSS of ``icml2026 export --data FILE -o out.bib`` (a child process; its own
  ``ru_maxrss`` from ``wait4``), next to the same export through ``icml2026.load()``
  (the whole collection in memory, as before streaming) and ``import icml2026``
  alone.  The target is ≤ 150 MB at 100,000 records, flat in the number of records
  but for the keys that must be unique.

Times are paired CPU-time ratios (``benchmarks/timing.py``): the machine is shared and noisy.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from corpus import records  # noqa: E402
from timing import Pairs, in_process, load_average  # noqa: E402

from icml2026.exporters import iter_export  # noqa: E402
from icml2026.store.atomic import write_atomic  # noqa: E402
from icml2026.store.packaged import packaged_papers  # noqa: E402
from icml2026.validation import validate_paths  # noqa: E402

TIME = "/usr/bin/time"  # GNU time (Debian package "time")
WHOLE_COLLECTION = ("import sys, icml2026\n"
                    "papers = icml2026.load([sys.argv[1]])\n"
                    "open(sys.argv[2], 'w', encoding='utf-8').write(icml2026.export(papers, 'bibtex'))\n")


def validation_row(label: str, path: Path, pairs: int) -> str:
    """A Markdown row: ``validate`` against ``json.loads`` of each line of the file (text in
    memory), in turn, the median [min] of the per-pair CPU-time ratios (benchmarks/timing.py)."""
    text = path.read_text(encoding="utf-8")
    problems: list[Any] = []

    def floor() -> object:
        return [json.loads(line) for line in text.split("\n") if line]

    def ours() -> None:
        problems[:] = validate_paths([path])

    measured = Pairs.measure(in_process(ours), in_process(floor), pairs)
    return measured.row(f"{label} ({len(problems)} problems)", "`json.loads` of each line", 3.0)


def peak_rss_mib(args: list[str]) -> tuple[float, float]:
    """(peak RSS in MiB, seconds) of one child process, measured by GNU time.

    Not ``wait4`` on a child of this process: Linux keeps the RSS a forked child had
    before ``exec`` (a copy of this process, corpus included) in its maximum.
    """
    started = time.perf_counter()
    run = subprocess.run([TIME, "-f", "%M", *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         text=True, check=False)
    elapsed = time.perf_counter() - started
    if run.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed: {run.stderr.strip()}")
    return int(run.stderr.strip().splitlines()[-1]) / 1024, elapsed  # kilobytes


def memory_rows(size: int, path: Path, workdir: Path) -> list[str]:
    out = workdir / "out.bib"
    streamed, streamed_s = peak_rss_mib([sys.executable, "-m", "icml2026", "export", "--data", str(path),
                                         "-o", str(out)])
    whole, whole_s = peak_rss_mib([sys.executable, "-c", WHOLE_COLLECTION, str(path), str(workdir / "whole.bib")])
    same = out.read_bytes() == (workdir / "whole.bib").read_bytes()
    return [f"{size:>9,} records  export --data -o (streamed)  peak RSS {streamed:7.1f} MiB  {streamed_s:6.1f} s",
            (f"{size:>9,} records  load() then export (whole)   peak RSS {whole:7.1f} MiB  {whole_s:6.1f} s"
             f"  {'same output' if same else 'OUTPUT DIFFERS'}")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="10000,100000", help="comma-separated record counts")
    parser.add_argument("--pairs", type=int, default=5, help="pairs per validation row (default 5)")
    options = parser.parse_args()
    if not os.access(TIME, os.X_OK):
        raise SystemExit(f"{TIME} (GNU time) is needed to measure peak RSS: apt-get install time")
    sizes = [int(s) for s in options.sizes.split(",")]
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} cores, load average {load_average()}")
    print(validation_row("packaged volume (6,552 records)", packaged_papers(), options.pairs))
    idle, _ = peak_rss_mib([sys.executable, "-c", "import icml2026"])
    print(f"{'':>9}          import icml2026 alone         peak RSS {idle:7.1f} MiB")
    rss: dict[int, float] = {}
    with tempfile.TemporaryDirectory(prefix="bench-validate-") as tmp:
        workdir = Path(tmp)
        for size in sizes:
            papers, origin = records(size)
            path = workdir / f"corpus-{size}.jsonl"
            write_atomic(path, iter_export(papers, "jsonl"))
            del papers
            print(f"-- {size:,} records ({origin})")
            print(validation_row(f"{size:,} generated records", path, options.pairs))
            rows = memory_rows(size, path, workdir)
            print("\n".join(rows))
            rss[size] = float(rows[0].split("peak RSS")[1].split("MiB")[0])
            path.unlink()
    if len(rss) > 1:
        (small, low), (large, high) = min(rss.items()), max(rss.items())
        print(f"streamed RSS growth: {(high - low) * 1024 * 1024 / (large - small):.0f} bytes per record "
              "(the keys that must be unique, and where each paper is)")


if __name__ == "__main__":
    main()
