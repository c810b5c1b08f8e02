"""Speed of ``icml2026 check`` on a 500-entry bibliography (target: ≤ 1 s), and of ``fix``'s
scanner on one-line input.

    python benchmarks/bench_check.py [--entries 500] [--repeat 3]

The bibliography is ``tests/check_corpus.py``'s manuscript bibliography (built from the raw
proceedings: correct, wrong, fabricated, preprint and other-venue entries), repeated under
fresh keys up to ``--entries`` entries.  Printed: the whole command as a user runs it (a fresh
process: start-up, loading the records, indexing, checking), the in-process check alone, and
as the baseline, measured in the same run, what only *parsing* the same file costs with
bibtexparser 1.4, with the ratio of the two.  Then the scanner's time for the same entries
written on one line against one per line (linear: a ratio near 1).  Best of ``--repeat``.
"""

from __future__ import annotations

import argparse
import re
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from timing import best_of  # noqa: E402


def bibliography(entries: int) -> str:
    """The check corpus, repeated under fresh keys and cut to *entries* entries."""
    import check_corpus

    one = check_corpus.text_of(check_corpus.generate())
    chunks: list[str] = []
    copy = 0
    while len(chunks) < entries + 1:
        renamed = re.sub(r"^(@\w+\{)([^,]+),", lambda m, n=copy: f"{m.group(1)}{m.group(2)}-{n},", one,
                         flags=re.MULTILINE)
        chunks.extend(re.split(r"(?m)^(?=@)", renamed)[(1 if chunks else 0):])
        copy += 1
    return "".join(chunks[: entries + 1])  # the leading comment, then the entries


def bibtexparser_parse(text: str) -> None:
    import bibtexparser
    from bibtexparser.bparser import BibTexParser

    parser = BibTexParser(common_strings=True, ignore_nonstandard_types=False, interpolate_strings=True)
    bibtexparser.loads(text, parser)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    import icml2026
    from icml2026.check import check_text
    from icml2026.fix import index_for
    from icml2026.fix.scan import blocks

    text = bibliography(args.entries)
    entries = len(re.findall(r"^@", text, re.MULTILINE))
    print(f"bibliography: {entries} entries, {len(text) / 1e6:.2f} MB")
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "refs.bib"
        source.write_text(text, encoding="utf-8", newline="")
        command = [sys.executable, "-m", "icml2026", "check", str(source), "--fail-on", "none"]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        whole = best_of(args.repeat, lambda: subprocess.run(command, check=True, capture_output=True))
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) / args.repeat

    papers = icml2026.load()
    index_for(papers)
    inside = best_of(args.repeat, lambda: check_text(text, papers=papers))
    baseline = best_of(max(1, args.repeat - 1), lambda: bibtexparser_parse(text))
    summary = check_text(text, papers=papers).summary()

    print(f"icml2026 check, whole command ... {whole:6.2f} s   (target ≤ 1 s; CPU time {cpu:.2f} s)")
    print(f"  check_text (scan, match, class) {inside:6.2f} s   {entries / inside:,.0f} entries/s")
    print(f"bibtexparser 1.4, parse only .... {baseline:6.2f} s")
    print(f"ratio: whole check command / bibtexparser parse = {whole / baseline:.2f}")
    print(f"summary: {summary}")

    many = "\n".join([text.split("\n", 1)[1]] * 20)  # without the leading '%' line: it would hide all
    flat = many.replace("\n", " ")
    with_breaks = best_of(args.repeat, lambda: blocks(many))
    one_line = best_of(args.repeat, lambda: blocks(flat))
    print(f"fix scanner, {len(many) / 1e6:.1f} MB: one per line {with_breaks:.2f} s, on one line {one_line:.2f} s, "
          f"ratio {one_line / with_breaks:.2f} (linear: about 1)")


if __name__ == "__main__":
    main()
