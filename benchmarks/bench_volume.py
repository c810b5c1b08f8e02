"""The whole packaged volume (6,552 records): start-up, loading, listing, BibTeX/BibLaTeX, memory.

    python benchmarks/bench_volume.py [--pairs 21] [--only startup,load,export,memory]

Run it in a virtual environment holding only the package (``python -m venv /tmp/v &&
/tmp/v/bin/pip install . && /tmp/v/bin/python benchmarks/bench_volume.py``): what a user
gets, with byte code compiled by pip.  Every figure is the median (and minimum) of
per-pair CPU-time ratios, command and baseline run in turn (``benchmarks/timing.py``).

* ``icml2026 export --format bibtex --keys K`` and ``icml2026 show K``, whole processes,
  against ``python -c "import json"`` (target ≤ 2×);
* ``icml2026 list --query "graph neural"`` against ``python -c pass`` (target ≤ 3×);
* ``icml2026.load()`` against one ``json.loads`` per line of ``papers.jsonl``'s bytes with
  the cyclic collector off (target ≤ 1.5×), in this process;
* the whole-volume BibTeX and BibLaTeX exports, each in a fresh process (cold caches),
  against ``json.dumps`` of the same records in a fresh process (targets ≤ 2×), both after
  the same untimed set-up (load, then ``to_dict`` of every paper);
* ``icml2026.load()`` and a whole-volume BibTeX export together, in this process, against
  ``json.loads`` of each line and ``json.dumps`` of the records (what ``icml2026 export``
  does: a packaged paper builds its nested fields on first access, during the export);
* peak memory (``ru_maxrss``) of a process that loads the volume, and of one that only
  parses its lines.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from timing import Pairs, command, in_process, load_average, print_table

from icml2026.store.packaged import packaged_papers

KEY = "zhao2026benchmarking"


def cli() -> list[str]:
    """The ``icml2026`` console script next to this interpreter (as a user runs it)."""
    script = Path(sys.executable).with_name("icml2026")
    return [str(script)] if script.exists() else [sys.executable, "-m", "icml2026"]


def child(*args: str) -> float:
    """CPU seconds a fresh process of this script reports for one timed operation."""
    out = subprocess.run([sys.executable, __file__, "--child", *args], capture_output=True, text=True, check=True)
    return float(out.stdout.split()[-1])


def run_child(what: str) -> None:
    """In a fresh process: load the volume and make every paper's records (not timed, the
    same set-up on both sides: a packaged paper builds its people, pages, links … on first
    access, which ``to_dict`` does), then time one operation's CPU."""
    import icml2026

    papers = icml2026.load()
    records = [p.to_dict() for p in papers]
    if what == "dumps":
        work = in_process(lambda: json.dumps(records))
    else:
        work = in_process(lambda: icml2026.export(papers, what, on_skip=lambda message: None))
    print(work())


def floor_lines() -> None:
    data = packaged_papers().read_bytes()
    [json.loads(line) for line in data.split(b"\n") if line]


PEAK = """import os, subprocess, sys
process = subprocess.Popen([sys.executable, "-c", sys.argv[1]])
_, status, usage = os.wait4(process.pid, 0)
print(usage.ru_maxrss if os.waitstatus_to_exitcode(status) == 0 else -1)
"""


def peak(code: str) -> float:
    """Peak resident memory (MiB) of a fresh interpreter running *code*, started by a small
    launcher: Linux carries a parent's peak over into its child, so this process (which has
    loaded the volume) would lift the figure."""
    out = subprocess.run([sys.executable, "-c", PEAK, code], capture_output=True, text=True, check=True)
    kib = int(out.stdout.split()[-1])
    if kib < 0:
        raise RuntimeError(f"{code} failed")
    return kib / 1024


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=21, help="pairs per row (default 21)")
    parser.add_argument("--only", default="startup,load,export,memory")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        run_child(args.child)
        return 0
    import icml2026

    only = set(args.only.split(","))
    py = sys.executable
    print(f"Python {sys.version.split()[0]} ({py}), icml2026 {icml2026.__version__} from "
          f"{Path(icml2026.__file__).parent}, {os.cpu_count()} cores, load average {load_average()}")
    rows = []
    if "startup" in only:
        json_start, bare = command(py, "-c", "import json"), command(py, "-c", "pass")
        for name, argv, base, base_name, target in (
                (f"`icml2026 export --format bibtex --keys {KEY}`", ["export", "--format", "bibtex", "--keys", KEY],
                 json_start, '`python -c "import json"`', 2.0),
                ("`icml2026 show abas26a`", ["show", "abas26a"], json_start, '`python -c "import json"`', 2.0),
                ('`icml2026 list --query "graph neural"`', ["list", "--query", "graph neural"], bare,
                 "`python -c pass`", 3.0)):
            rows.append(Pairs.measure(command(*cli(), *argv), base, args.pairs).row(name, base_name, target))
            print(rows[-1], flush=True)
    if "load" in only:
        rows.append(Pairs.measure(in_process(icml2026.load), in_process(floor_lines, gc_off=True), args.pairs)
                    .row("`icml2026.load()`", "`json.loads` of each line's bytes, GC off", 1.5))
        print(rows[-1], flush=True)
    if "export" in only:
        def both() -> None:
            icml2026.export(icml2026.load(), "bibtex", on_skip=lambda message: None)

        def floor_both() -> None:
            data = packaged_papers().read_bytes()
            json.dumps([json.loads(line) for line in data.split(b"\n") if line])

        rows.append(Pairs.measure(in_process(both), in_process(floor_both), max(5, args.pairs // 3))
                    .row("`icml2026.load()` + whole-volume bibtex export", "`json.loads` of each line + "
                         "`json.dumps` of the records", 2.0))
        print(rows[-1], flush=True)
        dumps = lambda: child("dumps")  # noqa: E731
        for fmt in ("bibtex", "biblatex"):
            pairs = max(5, args.pairs // 3)
            rows.append(Pairs.measure(lambda f=fmt: child(f), dumps, pairs, warmup=0)  # type: ignore[misc]
                        .row(f"whole-volume {fmt} export, fresh process", "`json.dumps` of the same records, "
                             "fresh process", 2.0))
            print(rows[-1], flush=True)
    print_table(rows, "Table (Markdown):")
    if "memory" in only:
        ours = peak("import icml2026; icml2026.load()")
        floor = peak("import json, icml2026.store.packaged as s; "
                     "[json.loads(l) for l in s.packaged_papers().read_bytes().split(b'\\n') if l]")
        print(f"\npeak memory: a process that loads the volume {ours:.0f} MiB; one that parses its lines "
              f"{floor:.0f} MiB (ru_maxrss, one run each)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
