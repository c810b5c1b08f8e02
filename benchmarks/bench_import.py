"""BibTeX import speed next to pybtex's and bibtexparser 1.4's parse of the same text.

    python benchmarks/bench_import.py                 # the whole volume, x1 x2 x4
    python benchmarks/bench_import.py --scale 1 --repeat 3 --hostile

Input: ``tools/sources/corpora/pmlr-v306-facts.bib`` (6,552 entries), and the
same text repeated with distinct keys to show that time grows linearly with
the file.  For each size it prints the seconds of ``icml2026``'s
:func:`~icml2026.importers.bibtex.parse_string` (decoding caches cleared
before every run: a run starts cold), pybtex's ``parse_string`` and
bibtexparser 1.4's ``loads``, best of ``--repeat``, and the ratio to pybtex
(target: at most 2).  pybtex and bibtexparser only parse: they neither decode
LaTeX nor build or validate records, which ours does.  ``--hostile`` adds
decoding one long field and reading a large file without entries.  A
script, not a test.
"""

from __future__ import annotations

import argparse
import logging
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VOLUME = ROOT / "tools" / "sources" / "corpora" / "pmlr-v306-facts.bib"


def best_of(repeat: int, work: Callable[[], object], before: Callable[[], None] = lambda: None) -> float:
    times = []
    for _ in range(repeat):
        before()
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def repeated(text: str, times: int) -> str:
    """*text* *times* over, keys and titles made distinct (``abas26`` → ``abas26x2``, ``Copy 2: …``):
    no copy is decoded from the cache of another (names still repeat, as across real volumes)."""
    copies = [text]
    papers = re.sub(r"\A.*?^@Proceedings\{.*?^\}\n", "", text, count=1, flags=re.DOTALL | re.MULTILINE)
    for n in range(2, times + 1):
        copy = re.sub(r"^(@InProceedings\{[^,]+),", rf"\1x{n},", papers, flags=re.MULTILINE)
        copies.append(re.sub(r"^(\s*title = \{)", rf"\1Copy {n}: ", copy, flags=re.MULTILINE))
    return "\n".join(copies)


def cold() -> None:
    from icml2026 import latex
    from icml2026.importers import bibtex

    latex._decode_cached.cache_clear()
    bibtex._person.cache_clear()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=int, nargs="*", default=[1, 2, 4], help="copies of the volume")
    parser.add_argument("--repeat", type=int, default=1, help="runs per measurement; the best counts")
    parser.add_argument("--hostile", action="store_true", help="also time a long field and an entry-less file")
    args = parser.parse_args(argv)

    import bibtexparser
    from bibtexparser.bparser import BibTexParser
    from pybtex.database import parse_string as pybtex_parse

    from icml2026.importers.bibtex import parse_string

    logging.getLogger("bibtexparser").addHandler(logging.NullHandler())
    base = VOLUME.read_text(encoding="utf-8")
    parse_string(base)  # imports and lazy tables, outside the timings
    print(f"{'input':<22}{'entries':>8}{'icml2026 s':>12}{'pybtex s':>10}{'btp 1.4 s':>11}"
          f"{'/pybtex':>9}{'/btp':>7}{'s per 1k':>10}")
    for times in args.scale:
        text = repeated(base, times)
        result = parse_string(text)
        ours = best_of(args.repeat, lambda t=text: parse_string(t), cold)
        theirs = best_of(args.repeat, lambda t=text: pybtex_parse(t, "bibtex"))
        btp = best_of(args.repeat, lambda t=text: bibtexparser.loads(t, BibTexParser(common_strings=True)))
        count = len(result.papers) + len(result.problems)
        print(f"{f'volume x{times}':<22}{count:>8}{ours:>12.2f}{theirs:>10.2f}{btp:>11.2f}"
              f"{ours / theirs:>9.2f}{ours / btp:>7.2f}{ours / count * 1000:>10.3f}")
    if args.hostile:
        hostile(args.repeat)
    return 0


def hostile(repeat: int) -> None:
    from icml2026.importers.bibtex import parse_string
    from icml2026.latex import decode

    print(f"{'hostile input':<40}{'chars':>12}{'seconds':>10}")
    for label, field in (("plain words", "word " * 80_000), ("unknown macros", "\\foo{x} y " * 40_000),
                         ("groups", "{a} " * 100_000)):
        seconds = best_of(repeat, lambda f=field: decode(f), cold)
        print(f"{'decode: ' + label:<40}{len(field):>12,}{seconds:>10.2f}")
    empty = ("Comment text without any entry, {braces} and (parens).\n" * 900_000)
    seconds = best_of(repeat, lambda: parse_string(empty))
    print(f"{'file without entries':<40}{len(empty):>12,}{seconds:>10.2f}")
    unclosed = "@misc{x,\n title = {open\n" * 200_000
    seconds = best_of(repeat, lambda: parse_string(unclosed))
    print(f"{'200,000 unclosed entries':<40}{len(unclosed):>12,}{seconds:>10.2f}")


if __name__ == "__main__":
    sys.exit(main())
