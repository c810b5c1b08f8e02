"""BibTeX import speed next to pybtex's parse of the same text (paired CPU-time ratios).

    python benchmarks/bench_import.py                 # the whole volume, x1 x2; the command
    python benchmarks/bench_import.py --scale 1 --pairs 5 --hostile

Run it in a virtual environment with the package and the baseline only
(``pip install . pybtex``).  Input: ``tools/sources/corpora/pmlr-v306-facts.bib``
(6,552 entries), and the same text repeated with distinct keys (time grows linearly
with the file).  Rows (``benchmarks/timing.py``: A and B in turn, the median [min]
of per-pair CPU-time ratios):

* ``icml2026``'s :func:`~icml2026.importers.bibtex.parse_string` (decoding caches
  cleared before every run: each starts cold) against pybtex's ``parse_string``, in
  this process (target ≤ 2×).  pybtex only parses: it neither decodes LaTeX nor builds
  or validates records, which ours does;
* the whole command ``icml2026 import VOLUME -o DIR`` (parse, validate, write the
  records) against a process that only parses the file with pybtex.

``--hostile`` adds decoding one long field and reading a large file without entries
(seconds, one run each).  A script, not a test.
"""

from __future__ import annotations

import argparse
import logging
import re
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from timing import Pairs, command, in_process, load_average, print_table

ROOT = Path(__file__).resolve().parents[1]
VOLUME = ROOT / "tools" / "sources" / "corpora" / "pmlr-v306-facts.bib"


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
    from icml2026.bibtex import latex_decode, reader

    latex_decode._decode_cached.cache_clear()
    reader.person.cache_clear()


def cli() -> list[str]:
    script = Path(sys.executable).with_name("icml2026")
    return [str(script)] if script.exists() else [sys.executable, "-m", "icml2026"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=int, nargs="*", default=[1, 2], help="copies of the volume")
    parser.add_argument("--pairs", type=int, default=5, help="pairs per row (default 5)")
    parser.add_argument("--hostile", action="store_true", help="also time a long field and an entry-less file")
    args = parser.parse_args(argv)

    from pybtex.database import parse_string as pybtex_parse

    from icml2026.importers.bibtex import parse_string

    logging.getLogger("bibtexparser").addHandler(logging.NullHandler())
    base = VOLUME.read_text(encoding="utf-8")
    parse_string(base)  # imports and lazy tables, outside the timings
    print(f"Python {sys.version.split()[0]} ({sys.executable}), load average {load_average()}")
    rows = []
    for times in args.scale:
        text = repeated(base, times)
        count = len(parse_string(text).papers)
        def ours(t: str = text) -> object:
            return parse_string(t)

        def theirs(t: str = text) -> object:
            return pybtex_parse(t, "bibtex")

        pairs = Pairs.measure(in_process(ours, setup=cold), in_process(theirs), args.pairs)
        rows.append(pairs.row(f"`parse_string`, the volume x{times} ({count:,} entries)", "pybtex `parse_string`",
                              2.0))
        print(rows[-1], flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "records"
        whole = command(*cli(), "import", str(VOLUME), "-o", str(out), "--overwrite")
        parse_only = command(sys.executable, "-c", f"from pybtex.database import parse_file; parse_file({str(VOLUME)!r})")
        rows.append(Pairs.measure(whole, parse_only, args.pairs).row(
            "`icml2026 import` of the volume, whole process (parse, validate, write)",
            "a process that parses it with pybtex"))
        print(rows[-1], flush=True)
    print_table(rows, "Table (Markdown):")
    if args.hostile:
        hostile()
    return 0


def once(work: object, before: object = None) -> float:
    if callable(before):
        before()
    start = time.process_time()
    assert callable(work)
    work()
    return time.process_time() - start


def hostile() -> None:
    from icml2026.bibtex.latex_decode import decode
    from icml2026.importers.bibtex import parse_string

    print(f"{'hostile input':<40}{'chars':>12}{'CPU s':>10}")
    for label, field in (("plain words", "word " * 80_000), ("unknown macros", "\\foo{x} y " * 40_000),
                         ("groups", "{a} " * 100_000)):
        seconds = once(lambda f=field: decode(f), cold)
        print(f"{'decode: ' + label:<40}{len(field):>12,}{seconds:>10.2f}")
    empty = ("Comment text without any entry, {braces} and (parens).\n" * 900_000)
    seconds = once(lambda: parse_string(empty))
    print(f"{'file without entries':<40}{len(empty):>12,}{seconds:>10.2f}")
    unclosed = "@misc{x,\n title = {open\n" * 200_000
    seconds = once(lambda: parse_string(unclosed))
    print(f"{'200,000 unclosed entries':<40}{len(unclosed):>12,}{seconds:>10.2f}")


if __name__ == "__main__":
    sys.exit(main())
