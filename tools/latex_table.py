"""Regenerate ``src/icml2026/bibtex/latex_table.py``: pylatexenc's Unicode → LaTeX table, checked with real TeX.

Usage: ``python tools/latex_table.py [--check]`` (needs pdflatex; ``--check`` exits 1 when the
stored table differs from what this run computes).

Every entry of pylatexenc's ``get_builtin_uni2latex_dict()`` (non-ASCII characters) is typeset
with pdfLaTeX in the preamble the encoder targets (T1 fonts, amsmath, amssymb: the ICML
template's packages plus the T1 encoding that PMLR's own ``\\k{a}`` and ``\\dh`` need), each in its
own box, and decoded back with :func:`icml2026.bibtex.latex_decode.decode`:

* ``TEXT``: compiles without an error or warning and decodes to the character itself;
* ``LOSSY``: compiles, but decodes to something else (Greek capital alpha is ``A``): the encoder
  writes it only as the pdfLaTeX branch of its Unicode-engine idiom, which decodes exactly;
* ``MATH``: the argument of an ``\\ensuremath{…}`` entry that compiles in math mode;
* ``UTF8_KEEP``: characters that pdfLaTeX's UTF-8 input typesets as they are (BibLaTeX output
  keeps these raw; biber passes them through).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import unicodedata
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TARGET = REPO / "src" / "icml2026" / "bibtex" / "latex_table.py"
PREAMBLE = ("\\documentclass{article}\n\\usepackage[T1]{fontenc}\n\\usepackage[utf8]{inputenc}\n"
            "\\usepackage{amsmath,amssymb}\n\\tracinglostchars=1\n\\begin{document}\n")
PROBLEM = re.compile(r"^!|Warning|Missing character|Overfull|Underfull", re.MULTILINE)
# Characters whose pylatexenc entry needs a package beyond the target preamble or that LaTeX
# itself writes differently: U+2011 is LaTeX's own ``\mbox{-}`` (t1enc.dfu), not amsmath's
# ``\nobreakdash-``.
OVERRIDES_LOSSY = {0x2011: "-"}
SKIP_CATEGORIES = {"Cc", "Cs", "Co", "Cn", "Zl", "Zp"}


def typeset_cleanly(pieces: dict[int, str], work: Path) -> set[int]:
    """Code points whose piece compiles without a problem, each in its own box (batches of 50)."""
    good: set[int] = set()
    items = sorted(pieces.items())
    for start in range(0, len(items), 50):  # TeX stops after 100 errors: small batches
        batch = items[start:start + 50]
        lines = [f"\\typeout{{@@CP {cp}}}\n\\sbox0{{{piece}}}" for cp, piece in batch]
        (work / "t.tex").write_text(PREAMBLE + "\n".join(lines) + "\n\\typeout{@@CP -1}\n\\end{document}\n",
                                    encoding="utf-8")
        subprocess.run(["pdflatex", "-interaction=nonstopmode", "-draftmode", "-no-shell-escape", "t"],
                       check=False, cwd=work, capture_output=True, timeout=300)
        log = (work / "t.log").read_text(encoding="utf-8", errors="replace")
        for chunk in log.split("@@CP ")[1:]:
            number, _, rest = chunk.partition("\n")
            if int(number) >= 0 and not PROBLEM.search(rest):
                good.add(int(number))
    return good


def confirmed(pieces: dict[int, str], work: Path) -> set[int]:
    """Two passes: an error that swallowed its neighbours cannot make them look good twice."""
    first = typeset_cleanly(pieces, work)
    return typeset_cleanly({cp: pieces[cp] for cp in first}, work)


def compute() -> str:
    from pylatexenc.latexencode import get_builtin_uni2latex_dict

    from icml2026 import markup
    from icml2026.bibtex import latex_decode

    table = {cp: v for cp, v in get_builtin_uni2latex_dict().items()
             if cp >= 0x80 and v.isascii() and unicodedata.category(chr(cp)) not in SKIP_CATEGORIES}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        texts = confirmed({cp: "{" + v + "}" for cp, v in table.items()}, work)
        maths = {cp: v[len("\\ensuremath{"):-1] for cp, v in table.items()
                 if v.startswith("\\ensuremath{") and v.endswith("}")}
        math_ok = confirmed({cp: f"${x}$" for cp, x in maths.items()}, work)
        candidates = {cp for cp in range(0xA0, 0x2200)} | set(table)
        raw = {cp: chr(cp) for cp in candidates
               if unicodedata.category(chr(cp)) not in SKIP_CATEGORIES | {"Cf", "Zs", "Mn", "Me", "Mc"}}
        keep = confirmed(raw, work)
    text, lossy = {}, {}
    for cp in sorted(texts):
        value = table[cp]
        if cp in OVERRIDES_LOSSY:
            continue
        if latex_decode.decode("{" + value + "}") == markup.escape(chr(cp)):
            text[cp] = value
        else:
            lossy[cp] = value
    lossy.update(OVERRIDES_LOSSY)
    math = {cp: maths[cp] for cp in sorted(math_ok)}
    return render(text, dict(sorted(lossy.items())), math, sorted(keep))


def ranges(cps: list[int]) -> str:
    out: list[str] = []
    for cp in cps:
        if out and int(out[-1].split("-")[-1], 16) == cp - 1:
            out[-1] = out[-1].split("-")[0] + f"-{cp:04X}"
        else:
            out.append(f"{cp:04X}")
    return " ".join(out)


def render(text: dict[int, str], lossy: dict[int, str], math: dict[int, str], keep: list[int]) -> str:
    def table(name: str, values: dict[int, str], comment: str) -> str:
        rows = "\n".join(f"    0x{cp:04X}: {value!r}," for cp, value in values.items())
        return f"# {comment}\n{name}: dict[int, str] = {{\n{rows}\n}}\n"

    wrapped = re.sub(r"(.{1,96})(?: |$)", r"    \1\n", ranges(keep)).rstrip("\n")
    return (
        '"""Unicode → LaTeX tables for :mod:`icml2026.bibtex.latex_encode`, generated by ``tools/latex_table.py``.\n\n'
        "Do not edit by hand: the entries are pylatexenc's (``latexencode.get_builtin_uni2latex_dict``),\n"
        "kept only where pdfLaTeX (T1, amsmath, amssymb) typesets them without an error or warning;\n"
        "tests/test_bibtex_tex.py compiles every entry again.\n\n"
        "Derived from pylatexenc (https://github.com/phfaist/pylatexenc), Copyright (c) Philippe Faist,\n"
        "MIT License: its table of LaTeX forms, filtered and classified here, not its code.\n"
        '"""\n\n'
        + table("TEXT", text, "Text mode, decodes back to the character exactly.")
        + "\n" + table("LOSSY", lossy, "Text mode for pdfLaTeX only: decodes to another text (used inside the\n"
                       "# Unicode-engine idiom of icml2026.bibtex.latex_encode, which decodes exactly).")
        + "\n" + table("MATH", math, "Math mode (inside $...$).")
        + "\n# Characters pdfLaTeX's UTF-8 input typesets as they are (ranges of code points, hex).\n"
        + f'UTF8_KEEP_RANGES = """\n{wrapped}\n"""\n'
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the stored table is not current")
    args = parser.parse_args()
    content = compute()
    if args.check:
        current = TARGET.read_text(encoding="utf-8") if TARGET.exists() else ""
        if current != content:
            print(f"{TARGET} is not current: run python tools/latex_table.py", file=sys.stderr)
            return 1
        return 0
    TARGET.write_text(content, encoding="utf-8")
    print(f"wrote {TARGET}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
