"""Formatted-citation speed: ours (citeproc-py + fixes + disambiguation) next to citeproc-js.

    python benchmarks/bench_citation.py            # 3,000 volume papers, APA and IEEE
    python benchmarks/bench_citation.py --n 500 --styles apa --repeat 3

Both sides are timed the same way: **cold, whole process**, on the same
CSL-JSON records (the first *n* complete papers of ``icml2026.load()``,
written to one file first):

* ours: ``python -c …`` imports :mod:`icml2026.exporters.citation`, reads the
  records and formats the bibliography as text (one document: disambiguation
  included), in a fresh interpreter (no cache, style parsed anew);
* citeproc-js: ``node tests/citeproc_js/format.js`` on the same records
  (Node start-up, engine construction with the same ``.csl`` and locale
  files, ``makeBibliography``), when node and the npm package are installed
  (``npm ci --prefix tests/citeproc_js``).

It prints seconds for each and the ratio ours / citeproc-js (target ≤ 1.0),
taking the best of ``--repeat`` runs of each (the machine may be shared).
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NODE_SCRIPT = ROOT / "tests" / "citeproc_js" / "format.js"
NODE_PACKAGE = ROOT / "tests" / "citeproc_js" / "node_modules" / "citeproc"

OURS = """
import json, sys
from icml2026.exporters.citation import format_entries
items = json.load(open(sys.argv[1], encoding="utf-8"))
entries = format_entries(items, style=sys.argv[2], output_format="text")
sys.stdout.write("\\n".join(e for _, e in entries))
"""


def volume_items(n: int) -> list[dict]:
    import icml2026
    from icml2026.exporters.csl import to_csl

    papers = list(icml2026.load().complete)[:n]
    return [to_csl(p, abstract=False) for p in papers]


def wall(command: list[str], stdin: str | None = None) -> tuple[float, str]:
    started = time.perf_counter()
    run = subprocess.run(command, input=stdin, capture_output=True, text=True, check=True)
    return time.perf_counter() - started, run.stdout


def time_ours(items_file: Path, style: str) -> tuple[float, int]:
    seconds, out = wall([sys.executable, "-c", OURS, str(items_file), style])
    return seconds, out.count("\n") + 1


def time_citeproc_js(items: list[dict], style: str) -> tuple[float, float] | None:
    """(seconds inside Node for makeBibliography, wall seconds including Node's start-up), or None."""
    if shutil.which("node") is None or not NODE_PACKAGE.is_dir():
        return None
    import citeproc

    from icml2026.exporters.citation import style_path

    request = {"style": str(style_path(style)), "locales": citeproc.LOCALES_PATH, "lang": None,
               "items": items, "formats": ["text"], "citations": False}
    seconds, out = wall(["node", str(NODE_SCRIPT)], json.dumps(request))
    return json.loads(out)["seconds"]["text"], seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=3000, help="number of volume papers (default 3000)")
    parser.add_argument("--styles", default="apa,ieee", help="comma-separated styles (default apa,ieee)")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each, best kept (default 1)")
    args = parser.parse_args(argv)
    items = volume_items(args.n)
    print(f"{len(items)} complete volume papers; cold whole-process wall time, best of {args.repeat}")
    print(f"{'style':<8} {'ours':>9} {'citeproc-js':>12} {'ratio':>7}")
    with tempfile.TemporaryDirectory() as folder:
        items_file = Path(folder) / "items.json"
        items_file.write_text(json.dumps(items), encoding="utf-8")
        for style in args.styles.split(","):
            ours = min(time_ours(items_file, style)[0] for _ in range(args.repeat))
            runs = [time_citeproc_js(items, style) for _ in range(args.repeat)]
            js = min(r[1] for r in runs if r is not None) if all(r is not None for r in runs) else None
            ratio = f"{ours / js:>6.2f}x" if js else "    n/a"
            js_cell = f"{js:>11.2f}s" if js else f"{'n/a':>12}"
            print(f"{style:<8} {ours:>8.2f}s {js_cell} {ratio}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
