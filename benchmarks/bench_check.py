"""Speed of ``icml2026 check`` on a 500-entry bibliography (target: ≤ 1 s), and of ``fix``'s
scanner on one-line input.

    python benchmarks/bench_check.py [--entries 500] [--pairs 7]

The bibliography is ``tests/check_corpus.py``'s manuscript bibliography (built from the raw
proceedings: correct, wrong, fabricated, preprint and other-venue entries), repeated under
fresh keys up to ``--entries`` entries.  Measured as CPU time (user + system, the kernel's
accounting of each finished child; ``benchmarks/timing.py``), the command and its baseline
in turn (A B A B …) after a warm-up pair; printed: the median of each side and the median
and minimum of the per-pair ratios, with the load average.

* the whole command as a user runs it, a fresh process (start-up, reading the prebuilt match
  index, loading the papers entries name, checking, printing), against a fresh process
  that only *parses* the same file with bibtexparser 1.4;
* in one process: ``check_text`` against bibtexparser's parse of the same text;
* the scanner on the same entries written on one line against one per line (linear: a
  ratio near 1).
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from timing import Pairs, command, in_process, load_average, print_table  # noqa: E402

# The baseline process: what reading the file with the parser a Python user reaches for costs.
BIBTEXPARSER = """\
import sys
import bibtexparser
from bibtexparser.bparser import BibTexParser
with open(sys.argv[1], encoding="utf-8") as handle:
    bibtexparser.loads(handle.read(), BibTexParser(common_strings=True, ignore_nonstandard_types=False,
                                                   interpolate_strings=True))
"""


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
    parser.add_argument("--pairs", type=int, default=7)
    args = parser.parse_args()

    from icml2026.bibtex.scan import scan
    from icml2026.check import check_text

    text = bibliography(args.entries)
    entries = len(re.findall(r"^@", text, re.MULTILINE))
    print(f"bibliography: {entries} entries, {len(text) / 1e6:.2f} MB; load average {load_average()}")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "refs.bib"
        source.write_text(text, encoding="utf-8", newline="")
        baseline = Path(tmp) / "bibtexparser_parse.py"
        baseline.write_text(BIBTEXPARSER, encoding="utf-8")
        whole = Pairs.measure(command(sys.executable, "-m", "icml2026", "check", str(source), "--fail-on", "none"),
                              command(sys.executable, str(baseline), str(source)), args.pairs)
    seconds = statistics.median(whole.a)
    rows.append(whole.row(f"`icml2026 check` of a {entries}-entry `.bib`, fresh process "
                          f"(target ≤ 1 s: {seconds:.2f} s, {'met' if seconds <= 1 else '**missed**'})",
                          "bibtexparser 1.4 parse, fresh process"))

    check_text(text)  # the prebuilt index read once, as a run does
    inside = Pairs.measure(in_process(lambda: check_text(text)), in_process(lambda: bibtexparser_parse(text)),
                           max(3, args.pairs // 2))
    rows.append(inside.row("`check_text` (scan, match, class), one process", "bibtexparser 1.4 parse"))

    many = "\n".join([text.split("\n", 1)[1]] * 20)  # without the leading '%' line: it would hide all
    flat = many.replace("\n", " ")
    scans = Pairs.measure(in_process(lambda: scan(flat)), in_process(lambda: scan(many)), max(3, args.pairs // 2))
    rows.append(scans.row(f"the scanner (fix policy), {len(many) / 1e6:.1f} MB on one line (linear: about 1×)",
                          "the same, one entry per line"))
    print_table(rows)
    print(f"summary: {check_text(text).summary()}")


if __name__ == "__main__":
    main()
