"""Speed of ``icml2026 fix`` on a 2,000-entry bibliography (target: ≤ 2 s on the reference machine).

    python benchmarks/bench_fix.py [--entries 2000] [--repeat 3]

The bibliography is ``tests/fix_corpus.py``'s generated one (ICML entries in the forms people
paste, near misses, unrelated entries), scaled to about ``--entries`` entries.  Printed: the
whole command as a user runs it (a fresh process: start-up, loading the 6,553 records,
indexing, fixing, writing), the in-process parts, and as the baseline what only *parsing*
the same file costs with bibtexparser 1.4 — the parser a Python user would otherwise reach
for — with the ratio of the two.  Best of ``--repeat`` runs each; the command's mean CPU time
is printed too, since on a shared machine the wall time also counts other people's work.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "src"))


def best(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def bibtexparser_parse(text: str) -> None:
    import bibtexparser
    from bibtexparser.bparser import BibTexParser

    parser = BibTexParser(common_strings=True, ignore_nonstandard_types=False, interpolate_strings=True)
    bibtexparser.loads(text, parser)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    import fix_corpus

    import icml2026
    from icml2026.fix import fix_bibtex_report, index_for
    from icml2026.fix.scan import blocks

    n_icml = args.entries // 4
    pieces = fix_corpus.generate(None, n_icml=n_icml, n_other=args.entries - n_icml - n_icml * 2 // 5)
    text = fix_corpus.text_of(pieces)
    entries = sum(1 for b in blocks(text) if b.kind not in ("string", "comment", "preamble"))
    print(f"bibliography: {entries} entries, {len(text) / 1e6:.2f} MB, "
          f"{sum(1 for p in pieces if p.paper)} ICML 2026 entries")

    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "refs.bib"
        source.write_text(text, encoding="utf-8", newline="")
        command = [sys.executable, "-m", "icml2026", "fix", str(source), "-o", str(Path(tmp) / "out.bib")]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        whole = best(lambda: subprocess.run(command, check=True, capture_output=True), args.repeat)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        # CPU time of the command: what the wall time would be on an otherwise idle machine.
        cpu = (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) / args.repeat

    start = time.perf_counter()
    papers = icml2026.load()
    index_for(papers)
    setup = time.perf_counter() - start
    fix = best(lambda: fix_bibtex_report(text, papers=papers), args.repeat)
    result = fix_bibtex_report(text, papers=papers)
    baseline = best(lambda: bibtexparser_parse(text), max(1, args.repeat - 1))

    print(f"icml2026 fix, whole command ..... {whole:6.2f} s   (target ≤ 2 s; CPU time {cpu:.2f} s)")
    print(f"  load {len(papers)} records + index  {setup:6.2f} s")
    print(f"  fix_bibtex (scan, match, write) {fix:6.2f} s   {entries / fix:,.0f} entries/s")
    print(f"bibtexparser 1.4, parse only .... {baseline:6.2f} s")
    print(f"ratio: whole fix command / bibtexparser parse = {whole / baseline:.2f}")
    print(f"summary: {result.summary()}")


if __name__ == "__main__":
    main()
