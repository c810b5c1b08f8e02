"""The whole packaged volume (6,553 records): start-up, loading, search, export, wheel.

    python benchmarks/bench_volume.py [--repeat 9] [--markdown FILE]

Every number is a ratio to a baseline measured in the same run, so a loaded or a
faster machine moves both alike.  Whole-process times are the *minimum* over
``--repeat`` runs (the least disturbed run; the machine is shared).

* ``icml2026 export --format bibtex --keys K`` and ``icml2026 show K`` against
  ``python -c "import json"`` (target ≤ 2×);
* ``icml2026 list --query WORDS`` against a bare ``python -c pass`` (target ≤ 3×);
* ``icml2026.load()`` against ``json.loads`` of the same records (target ≤ 2×);
* the whole-volume BibTeX export against ``json.dumps`` of the same records (target ≤ 3×);
* the wheel's size and the time ``pip install`` takes to install it (no target).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from timing import best_of  # noqa: E402


def process(*argv: str) -> Callable[[], None]:
    def run() -> None:
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return run


def rows(repeat: int) -> list[tuple[str, float, str, float, str]]:
    import icml2026
    from icml2026.store import packaged_papers

    py = sys.executable
    cli = [py, "-m", "icml2026"]
    # An installed wheel has byte code; a checkout run with PYTHONDONTWRITEBYTECODE=1 (as
    # here) would compile every module on every start, which no user pays.
    subprocess.run([py, "-m", "compileall", "-q", str(ROOT / "src" / "icml2026")], check=True)
    import_json = best_of(repeat, process(py, "-c", "import json"))
    bare = best_of(repeat, process(py, "-c", "pass"))
    out = [
        ("export --format bibtex --keys zhao2026benchmarking",
         best_of(repeat, process(*cli, "export", "--format", "bibtex", "--keys", "zhao2026benchmarking")),
         'python -c "import json"', import_json, "≤ 2×"),
        ("show abas26a", best_of(repeat, process(*cli, "show", "abas26a")),
         'python -c "import json"', import_json, "≤ 2×"),
        ("list --query 'graph neural'", best_of(repeat, process(*cli, "list", "--query", "graph neural")),
         "python -c pass", bare, "≤ 3×"),
    ]
    text = packaged_papers().read_text(encoding="utf-8")
    floor = best_of(repeat, lambda: json.loads("[" + text.rstrip("\n").replace("\n", ",") + "]"))
    out.append(("icml2026.load() (whole volume)", best_of(repeat, icml2026.load), "json.loads of papers.jsonl",
                floor, "≤ 2×"))
    papers = icml2026.load()
    records = [p.to_dict() for p in papers]
    dumps = best_of(repeat, lambda: json.dumps(records))
    out.append(("export(papers, 'bibtex') (whole volume, cold)", best_of(max(3, repeat // 3), lambda: cold_export(
        papers, "bibtex")), "json.dumps of the same records", dumps, "≤ 3×"))
    return out


def cold_export(papers: Any, fmt: str) -> str:
    """An export as a fresh process does it: the encoders' caches emptied first."""
    from icml2026 import latex
    from icml2026.exporters import bibtex, export

    for cached in (bibtex._names, latex._encode_char):
        cached.cache_clear()
    return export(papers, fmt, on_skip=lambda message: None)


def wheel_facts() -> list[str]:
    with tempfile.TemporaryDirectory() as tmp:
        built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", tmp, str(ROOT)],
                               capture_output=True, text=True)
        wheels = list(Path(tmp).glob("*.whl"))
        if built.returncode or not wheels:
            return [f"wheel: could not build ({built.stderr.strip()[-200:]})"]
        wheel = wheels[0]
        target = Path(tmp) / "site"
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target),
                        str(wheel)], check=True)
        seconds = time.perf_counter() - started
        installed = sum(p.stat().st_size for p in target.rglob("*") if p.is_file())
        return [f"wheel {wheel.name}: {wheel.stat().st_size / 1e6:.1f} MB; installed: "
                f"{installed / 1e6:.1f} MB; `pip install --no-deps` of the wheel: {seconds:.1f} s"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--markdown", type=Path, help="also write the table as Markdown to this file")
    args = parser.parse_args(argv)
    table = ["| operation | ours (s) | baseline | baseline (s) | ours/baseline | target |",
             "|---|---|---|---|---|---|"]
    for name, ours, base_name, base, target in rows(args.repeat):
        line = f"| `{name}` | {ours:.3f} | {base_name} | {base:.3f} | {ours / base:.2f}× | {target} |"
        print(line, flush=True)
        table.append(line)
    for fact in wheel_facts():
        print(fact)
        table += ["", fact]
    if args.markdown:
        args.markdown.write_text("\n".join(table) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
