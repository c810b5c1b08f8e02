"""Formatted-citation speed: ours (citeproc-py + fixes + sorting + disambiguation) against citeproc-js.

    python benchmarks/bench_citation.py            # 3,000 volume papers, APA and IEEE, 5 pairs
    python benchmarks/bench_citation.py --n 500 --styles apa --pairs 3

Both sides are timed the same way: **cold, whole process**, CPU time (user + system of the
child, the kernel's accounting), on the same CSL-JSON records (the first *n* complete papers
of ``icml2026.load()``, written to one file first), and as **paired runs**
(``benchmarks/timing.py``: ours and citeproc-js in turn, one CPU-time ratio per pair; the
median of the ratios, their minimum and the load average are printed):

* ours: ``python -c …`` imports :mod:`icml2026.exporters.citation`, reads the records and
  formats the bibliography as text (one document: sorted and disambiguated), in a fresh
  interpreter (no cache, the style parsed anew);
* citeproc-js, the fastest correct way: ``node tests/citeproc_js/format.js`` on the same
  records, same ``.csl`` and locale files: Node starts, one ``CSL.Engine`` is built, **all
  ids are registered in one** ``updateItems`` **call**, then one ``makeBibliography`` (no
  in-text citations, one output format).  Needs node and ``npm ci --prefix tests/citeproc_js``.

Target: ours / citeproc-js ≤ 1.0 for APA and IEEE with 3,000 papers.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from timing import Pairs, command, print_table  # noqa: E402  # the benchmarks' own helper

NODE_SCRIPT = ROOT / "tests" / "citeproc_js" / "format.js"
NODE_PACKAGE = ROOT / "tests" / "citeproc_js" / "node_modules" / "citeproc"

OURS = """
import json, sys
from icml2026.exporters.citation import format_entries
items = json.load(open(sys.argv[1], encoding="utf-8"))
entries = format_entries(items, style=sys.argv[2], output_format="text")
sys.stdout.write("\\n".join(e for _, e in entries))
"""


def volume_items(n: int) -> list[dict[str, Any]]:
    import icml2026
    from icml2026.exporters.csl import to_csl

    papers = list(icml2026.load().complete)[:n]
    return [to_csl(p, abstract=False) for p in papers]


def citeproc_js_request(items: list[dict[str, Any]], style: str) -> bytes:
    """format.js's request: the bibliography only, text only (one updateItems, one makeBibliography)."""
    import citeproc

    from icml2026.exporters.citation import style_path

    request = {"style": str(style_path(style)), "locales": citeproc.LOCALES_PATH, "lang": None,
               "items": items, "formats": ["text"], "citations": False}
    return json.dumps(request).encode("utf-8")


def time_citeproc_js(items: list[dict[str, Any]], style: str) -> tuple[float, float] | None:
    """(seconds inside Node for the bibliography, wall seconds with Node's start-up), or None
    without citeproc-js (for benchmarks/run.py)."""
    import subprocess
    import time

    if shutil.which("node") is None or not NODE_PACKAGE.is_dir():
        return None
    started = time.perf_counter()
    run = subprocess.run(["node", str(NODE_SCRIPT)], input=citeproc_js_request(items, style), capture_output=True,
                         check=True)
    return float(json.loads(run.stdout)["seconds"]["text"]), time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=3000, help="number of volume papers (default 3000)")
    parser.add_argument("--styles", default="apa,ieee", help="comma-separated styles (default apa,ieee)")
    parser.add_argument("--pairs", type=int, default=5, help="paired runs per style (default 5)")
    args = parser.parse_args(argv)
    if shutil.which("node") is None or not NODE_PACKAGE.is_dir():
        print("citeproc-js is not installed (node, npm ci --prefix tests/citeproc_js): no baseline")
        return 1
    items = volume_items(args.n)
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        items_file = Path(folder) / "items.json"
        items_file.write_text(json.dumps(items), encoding="utf-8")
        for style in args.styles.split(","):
            ours = command(sys.executable, "-c", OURS, str(items_file), style)
            theirs = command("node", str(NODE_SCRIPT), stdin=citeproc_js_request(items, style))
            pairs = Pairs.measure(ours, theirs, args.pairs)
            rows.append(pairs.row(f"{style}, {len(items):,} papers, cold process",
                                  "citeproc-js (node format.js: one updateItems, makeBibliography)", target=1.0))
    print_table(rows, f"{len(items):,} complete volume papers as one bibliography, text")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
