"""Formatted-citation speed: ours (citeproc-py + fixes) next to citeproc-js.

    python benchmarks/bench_citation.py            # 3,000 records, APA and IEEE
    python benchmarks/bench_citation.py --n 500 --styles apa

Records come from ``benchmarks/corpus.py`` (``generate(n)``: the real PMLR
records, repeated with distinct ids and keys) when it is usable; otherwise,
or with ``--clones``, the 18 complete packaged papers are cloned with
distinct ids, keys, pages, titles and first authors.  Repeated records look
identical to a CSL processor, so citeproc-js spends extra time
disambiguating them ("2026a", "2026b"…; citeproc-py cannot disambiguate):
compare both corpora before drawing conclusions.  For each style it prints seconds for

* ours, cold: a fresh process state (entry cache empty; includes parsing the style);
* ours, warm: the same papers again as HTML — every entry comes from the
  (style, record) cache, only the output conversion runs;
* citeproc-js: time inside Node for ``makeBibliography`` (text), and the
  wall time including Node start-up, when node and ``tests/citeproc_js``'s
  npm package are installed (``npm ci --prefix tests/citeproc_js``).
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

from icml2026.exporters import citation
from icml2026.exporters.citation import format_entries, style_path
from icml2026.exporters.csl import to_csl

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from corpus import records  # noqa: E402

NODE_SCRIPT = HERE.parent / "tests" / "citeproc_js" / "format.js"
NODE_PACKAGE = HERE.parent / "tests" / "citeproc_js" / "node_modules" / "citeproc"


def time_ours(items: list[dict], style: str) -> tuple[float, float]:
    citation._CACHE.clear()
    started = time.perf_counter()
    format_entries(items, style=style, output_format="text")
    cold = time.perf_counter() - started
    started = time.perf_counter()
    format_entries(items, style=style, output_format="html")
    return cold, time.perf_counter() - started


def time_citeproc_js(items: list[dict], style: str) -> tuple[float, float] | None:
    if shutil.which("node") is None or not NODE_PACKAGE.is_dir():
        return None
    import citeproc

    request = {"style": str(style_path(style)), "locales": citeproc.LOCALES_PATH, "lang": "en-US",
               "items": items, "formats": ["text"], "citations": False}
    started = time.perf_counter()
    run = subprocess.run(["node", str(NODE_SCRIPT)], input=json.dumps(request), capture_output=True,
                         text=True, check=True)
    wall = time.perf_counter() - started
    return json.loads(run.stdout)["seconds"]["text"], wall


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=3000, help="number of records (default 3000)")
    parser.add_argument("--styles", default="apa,ieee", help="comma-separated styles (default apa,ieee)")
    parser.add_argument("--clones", action="store_true",
                        help="use distinct clones of the packaged papers instead of benchmarks/corpus.py")
    args = parser.parse_args(argv)
    papers, origin = records(args.n, use_clones=args.clones)
    items = [to_csl(p, abstract=False) for p in papers]
    print(f"{len(items)} records: {origin}")
    print(f"{'style':<10} {'ours cold':>10} {'ours warm':>10} {'citeproc-js':>12} {'js + node':>10}")
    for style in args.styles.split(","):
        cold, warm = time_ours(items, style)
        js = time_citeproc_js(items, style)
        js_cells = f"{js[0]:>11.2f}s {js[1]:>9.2f}s" if js else f"{'n/a':>12} {'n/a':>10}"
        print(f"{style:<10} {cold:>9.2f}s {warm:>9.2f}s {js_cells}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
