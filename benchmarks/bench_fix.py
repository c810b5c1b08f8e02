"""Speed of ``icml2026 fix``, a fresh process, against bibtexparser's parse of the same file.

    python benchmarks/bench_fix.py [--entries 63,2000] [--pairs 7]

Targets: a 63-entry ``.bib`` (a paper's bibliography) ≤ 2× a fresh process that only parses
it with bibtexparser 1.4, the parser a Python user would otherwise reach for (issue 27); a
2,000-entry one ≤ 2 s.  Each bibliography is ``tests/fix_corpus.py``'s generated one (ICML
2026 entries in the forms people paste, near misses, other entries): a quarter ICML 2026
entries, cut to the first ``--entries`` entries.  Measured as CPU time (user + system, the
kernel's accounting of each finished child; ``benchmarks/timing.py``), the command and the
baseline in turn (A B A B …) after a warm-up pair; printed: the median of each side and the
median and minimum of the per-pair ratios, with the load average.  The command
runs as a user runs it: start-up, reading the prebuilt match index, loading the papers the
entries name, fixing, writing the file and the report.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_check import BIBTEXPARSER  # noqa: E402
from timing import Pairs, command, print_table  # noqa: E402


def bibliography(entries: int) -> tuple[str, int]:
    """The first *entries* entries of a generated bibliography, and how many are ICML 2026 papers."""
    import fix_corpus

    from icml2026.bibtex.scan import scan

    n_icml = max(entries // 4, 4)
    pieces = fix_corpus.generate(None, n_icml=n_icml, n_other=max(entries - n_icml - n_icml * 2 // 5, 4))
    text = fix_corpus.text_of(pieces)
    kept = [b for b in scan(text) if b.kind not in ("string", "comment", "preamble")][:entries]
    cut = text[: kept[-1].end] + "\n"
    icml = sum(1 for p in pieces if p.paper and p.text.strip() and p.text.strip() in cut)
    return cut, icml


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", default="63,2000", help="bibliography sizes, comma-separated")
    parser.add_argument("--pairs", type=int, default=7)
    args = parser.parse_args()

    from icml2026.fix import fix_bibtex_report

    rows, summaries = [], []
    for size in (int(n) for n in args.entries.split(",")):
        text, icml = bibliography(size)
        with tempfile.TemporaryDirectory() as tmp:
            source = Path(tmp) / "refs.bib"
            source.write_text(text, encoding="utf-8", newline="")
            baseline = Path(tmp) / "bibtexparser_parse.py"
            baseline.write_text(BIBTEXPARSER, encoding="utf-8")
            pairs = Pairs.measure(command(sys.executable, "-m", "icml2026", "fix", str(source), "-o",
                                          str(Path(tmp) / "out.bib")),
                                  command(sys.executable, str(baseline), str(source)), args.pairs)
        name = f"`icml2026 fix` of a {size}-entry `.bib` ({icml} ICML 2026, {len(text) / 1e3:.0f} kB), fresh process"
        if size <= 100:
            rows.append(pairs.row(name, "bibtexparser 1.4 parse, fresh process", target=2.0))
        else:
            seconds = statistics.median(pairs.a)
            rows.append(pairs.row(f"{name} (target ≤ 2 s: {seconds:.2f} s, {'met' if seconds <= 2 else '**missed**'})",
                                  "bibtexparser 1.4 parse, fresh process"))
        summaries.append(f"{size} entries: {fix_bibtex_report(text).summary()}")
    print_table(rows, "`icml2026 fix` against bibtexparser, CPU time of fresh processes")
    print("\n".join(summaries))


if __name__ == "__main__":
    main()
