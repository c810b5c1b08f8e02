"""Real TeX: the exports compile cleanly with pdflatex + bibtex (natbib, plainnat)
and pdflatex + biber (biblatex), and the .bbl files carry our titles and authors.

Besides the 18 shipped records, one extra record is full of hostile strings
(``}, note = {x``, ``\\input{/etc/passwd}``, a lone ``{``, ``%``…) and a
second has math and emphasis in its title; both must compile without an
error and without a warning, and print literally.  A third is full of
characters beyond the encoder's own table (Greek, math symbols, U+2011, CJK,
emoji, stacked accents, a zero-width space); and every entry of the generated
Unicode table compiles.  biber runs with ``--validate-datamodel``.  Skipped,
with the reason, when the TeX binaries are not installed.  The whole volume:
tests/test_volume_tex.py.
"""

from __future__ import annotations

import dataclasses
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import icml2026
from icml2026 import markup
from icml2026.bibtex import latex_decode, latex_encode, latex_table
from icml2026.model import Paper, Person

CORPUS = Path(__file__).resolve().parents[1] / "tools" / "sources" / "corpora" / "pmlr-v306-sample-A.bib"
BINARIES = {"bibtex": ("pdflatex", "bibtex"), "biblatex": ("pdflatex", "biber")}
# pdfLaTeX text fonts cannot typeset CJK or emoji: the hostile record sticks to the
# characters our ASCII table maps (the property test covers the rest).
HOSTILE_TITLE = "Evil }, note = {x \n@misc{evil, \\input{/etc/passwd} { $ \\ 100% & #1 a_b ~ ^ M\u00fcntz \u2013 end"
HOSTILE_NAME = "N\u2019Guessan }, note = {x"
# Characters the encoder's own table does not have: pylatexenc's table, math commands, the
# Unicode-engine idiom.  The ICML template's packages (amsmath, amssymb) plus T1 fonts.
UNICODE_TITLE = ("Full\u2011spectrum Vision\u2013Language: \u03b1-Nets, \u03a9 and \u0391, x \u2264 y, "
                 "360\u00b0, \u201cquoted\u201d \u2014 \u4e2d\u6587 \U0001F600 zero\u200bwidth Vi\u1ec7t Nguy\u1ec5n, "
                 "It\u00f4 and \u00f0, $\\text{DT}^\\text{2}$ and $\u03b1 \u2264 \u03b2$")
UNICODE_AUTHORS = (Person(family="\u0110or\u0111evi\u0107", given="\u0141ukasz"),
                   Person(family="W\u0105sik", given="\u1ec4"), Person(family="\u4e2d\u6751", given="\u0391"),
                   Person(family="Gu\u00f0mundsd\u00f3ttir", given="\u03b1-Bj\u00f6rk"))
ICML_PREAMBLE = "\\usepackage[T1]{fontenc}\n\\usepackage{amsmath}\n\\usepackage{amssymb}"

NATBIB_DOC = r"""\documentclass{article}
\usepackage[utf8]{inputenc}
%(preamble)s
\usepackage{natbib}
\usepackage{url}
\begin{document}
\nocite{*}
\bibliographystyle{plainnat}
\bibliography{refs}
\end{document}
"""
BIBLATEX_DOC = r"""\documentclass{article}
\usepackage[utf8]{inputenc}
%(preamble)s
\usepackage[backend=biber,style=%(style)s]{biblatex}
\addbibresource{refs.bib}
\begin{document}
\nocite{*}
\printbibliography
\end{document}
"""


def require(fmt: str) -> None:
    missing = [b for b in BINARIES[fmt] if shutil.which(b) is None]
    if missing:
        pytest.skip(f"TeX is not installed here ({', '.join(missing)} not on PATH); "
                    ".ci/install-system installs texlive and biber")


@pytest.fixture(scope="module")
def records(papers) -> list[Paper]:
    base = papers.complete[0]
    hostile = dataclasses.replace(
        base, id="pmlr-v306-hostile26a", citation_key="hostile2026evil", title=markup.escape(HOSTILE_TITLE),
        title_protect=(), authors=(Person(family=HOSTILE_NAME, given="\\input{/etc/passwd} %"),
                                   Person(literal="The {Evil} Org & Co")),
        abstract=markup.escape(HOSTILE_TITLE + " % rest of line"))
    mathy = dataclasses.replace(
        base, id="pmlr-v306-math26a", citation_key="math2026bounds", title_protect=((0, 3),),
        title="GNN Bounds of $O(N^2)$ for *Deep* Nets", abstract="Rate $\\mathcal{O}(1/n)$ and 5\\% *gain*.")
    return [*papers.complete, hostile, mathy]


def run_tex(folder: Path, fmt: str, records: list[Paper], preamble: str = "",
            style: str = "authoryear") -> tuple[str, str, str]:
    """Compile (BibLaTeX: with *style*); returns (.bbl text, bibtex/biber log, final pdflatex log)."""
    (folder / "refs.bib").write_text(icml2026.export(records, fmt, abstract=True), encoding="utf-8")
    document = NATBIB_DOC if fmt == "bibtex" else BIBLATEX_DOC
    document = document.replace("%(preamble)s", preamble).replace("%(style)s", style)
    (folder / "doc.tex").write_text(document, encoding="utf-8")
    latex_cmd = ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", "doc"]
    backend = ["bibtex", "doc"] if fmt == "bibtex" else ["biber", "--validate-datamodel", "doc"]
    for cmd in (latex_cmd, backend, latex_cmd, latex_cmd):
        done = subprocess.run(cmd, check=False, cwd=folder, capture_output=True, encoding="utf-8",
                              errors="replace", timeout=300)
        assert done.returncode == 0, f"{' '.join(cmd)} failed:\n{done.stdout[-3000:]}\n{done.stderr[-2000:]}"
    def read(name: str) -> str:
        return (folder / name).read_text(encoding="utf-8", errors="replace")

    return read("doc.bbl"), read("doc.blg"), read("doc.log")


def squeeze(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def bbl_items(bbl: str, fmt: str) -> dict[str, str]:
    """Citation key → its block of the .bbl."""
    if fmt == "bibtex":
        pattern = r"\\bibitem\[(?:[^\[\]]|\[[^\]]*\])*\]\{([^}]+)\}(.*?)(?=\\bibitem|\\end\{thebibliography\})"
    else:
        pattern = r"\\entry\{([^}]+)\}(.*?)\\endentry"
    return {m.group(1): m.group(2) for m in re.finditer(pattern, bbl, re.DOTALL)}


@pytest.mark.parametrize("fmt", ["bibtex", "biblatex"])
def test_compiles_cleanly_and_bbl_has_titles_and_authors(tmp_path, fmt, records):
    require(fmt)
    assert_clean_build(tmp_path, fmt, records)


@pytest.mark.parametrize("style", ["authoryear", "numeric", "ieee", "apa"])
def test_biblatex_styles_users_pick_have_no_datamodel_warning(tmp_path, style, records):
    """biber --validate-datamodel with each style's own data model: biblatex-apa maps
    @inproceedings to @inbook, which has no eventtitle, eventdate or venue (issue 23: eight
    warnings an entry); the proceedings title keeps its capitals in apa's sentence case."""
    require("biblatex")  # biblatex-ieee and biblatex-apa: Debian's texlive-bibtex-extra
    # No page numbers: they would land in the middle of the text read from the PDF.
    bbl, blg, log = run_tex(tmp_path, "biblatex", records, ICML_PREAMBLE + "\n\\pagestyle{empty}", style=style)
    assert_no_problems("biblatex", blg, log)
    assert "Invalid field" not in blg
    booktitle = records[0].proceedings.booktitle
    items = bbl_items(bbl, "biblatex")
    assert len(items) == len(records)
    for item in items.values():
        assert squeeze(latex_decode.decode_plain(item)).count(booktitle) == 1
    from pypdf import PdfReader

    text = "\n".join(page.extract_text() for page in PdfReader(str(tmp_path / "doc.pdf")).pages)
    printed = squeeze(re.sub(r"-\n", "", text))  # TeX's hyphenation undone
    assert printed.count(booktitle) == len(records), printed[:2000]


@pytest.mark.parametrize("fmt", ["bibtex", "biblatex"])
def test_pmlr_corpus_reexport_compiles_cleanly(tmp_path, fmt):
    """PMLR's 304 real entries, abstracts included, imported and exported again.

    The authors' math needs amsmath/amssymb (as in the ICML template), and PMLR's
    ``\\k{a}`` needs T1 fonts: the same packages PMLR's own BibTeX needs.
    """
    require(fmt)
    if not CORPUS.exists():
        pytest.skip(f"the PMLR corpus is not at {CORPUS}")
    papers = list(icml2026.read_bibtex(CORPUS))
    assert_clean_build(tmp_path, fmt, papers, "\\usepackage[T1]{fontenc}\n\\usepackage{amsmath,amssymb}")


def assert_no_problems(fmt: str, blg: str, log: str) -> None:
    # A log to read (``biber --quiet`` writes an empty .blg: its warnings would go unseen).
    assert ("This is BibTeX" if fmt == "bibtex" else "This is Biber") in blg
    # BibTeX: "Warning--…", "I was expecting…", "(There were 2 error messages)"; biber: "WARN -"/"ERROR -".
    problem = (r"^Warning--|^I was|^I'm |^---|There (?:was|were) \d+ (?:error|warning)" if fmt == "bibtex"
               else r"\b(?:WARN|ERROR)\b")
    assert not re.search(problem, blg, re.MULTILINE), blg
    tex_problems = [line for line in log.splitlines()
                    if re.search(r"^!|Warning|Missing character|Undefined", line)]
    assert tex_problems == []


def assert_clean_build(folder: Path, fmt: str, records: list[Paper], preamble: str = "") -> None:
    bbl, blg, log = run_tex(folder, fmt, records, preamble)
    assert_no_problems(fmt, blg, log)
    assert "(/etc/passwd" not in log  # \input was printed, never executed

    items = bbl_items(bbl, fmt)
    assert set(items) == {p.citation_key for p in records}
    for paper in records:
        # biber separates name words with \bibnamedelim* macros: spaces for this comparison.
        raw = re.sub(r"\\bibnamedelim[a-d]\s*", " ", items[paper.citation_key])
        item = squeeze(latex_decode.decode_plain(raw))
        title = squeeze(markup.to_plain(paper.title))
        # plainnat lower-cases titles (a case change BibTeX itself applies); biblatex keeps them.
        if fmt == "bibtex":
            assert title.casefold() in item.casefold(), (paper.citation_key, item)
            for start, end in paper.title_protect:  # protected capitals survive BibTeX's change.case$
                assert markup.to_plain(paper.title[start:end]) in item
        else:
            assert title in item, (paper.citation_key, item)
        first = paper.authors[0]
        assert squeeze(first.family or first.literal) in item


def test_hostile_entry_prints_literally_in_natbib(tmp_path, records):
    require("bibtex")
    bbl, _, _ = run_tex(tmp_path, "bibtex", records)
    item = squeeze(latex_decode.decode_plain(bbl_items(bbl, "bibtex")["hostile2026evil"]))
    assert squeeze(HOSTILE_TITLE).casefold() in item.casefold()
    assert squeeze(HOSTILE_NAME) in item and "\\input{/etc/passwd} %" in item


@pytest.mark.parametrize("fmt", ["bibtex", "biblatex"])
def test_unicode_beyond_the_table_compiles_and_reads_back(tmp_path, fmt, papers):
    """Greek, math symbols, U+2011, CJK, emoji: pdfLaTeX rejected ``{\\symbol{945}}`` ("Bad character code")."""
    require(fmt)
    paper = dataclasses.replace(papers.complete[0], id="pmlr-v306-unicode26a", citation_key="unicode2026full",
                                title=UNICODE_TITLE, title_protect=(), authors=UNICODE_AUTHORS,
                                abstract="Rate $\u03b1 \u2264 \u03b2$ in \u03bc-law \u2013 \u4e2d.")
    bbl, blg, log = run_tex(tmp_path, fmt, [paper], ICML_PREAMBLE)
    assert_no_problems(fmt, blg, log)
    item = squeeze(latex_decode.decode_plain(re.sub(r"\\bibnamedelim[a-d]\s*", " ", bbl_items(bbl, fmt)[paper.citation_key])))
    text, _, _math = markup.to_plain(UNICODE_TITLE).partition(" and $\u03b1")
    assert (text.casefold() if fmt == "bibtex" else text) in (item.casefold() if fmt == "bibtex" else item)
    assert "$\\alpha \\leq \\beta$" in item  # math characters became math commands
    for person in UNICODE_AUTHORS:
        assert person.family in item


# Names hypothesis found: a letter of no TeX font (its encoding is an \ifdefined conditional, which
# biber once took apart as initials: pdfLaTeX stopped at "Incomplete \ifx"), a macron fallback
# (``\={H}``, whose "=" the extended name format splits on), and a name that is only "0"
# (biber never returned: Perl's false string).
AWKWARD_NAMES = ((Person(literal="\u0126"),), (Person(literal="\u0180x"),),
                 (Person(family="\u01e5a=,b", given="\u0126b"),), (Person(literal="0"),),
                 (Person(family="\u0166", given="0"),))


@pytest.mark.parametrize("fmt", ["bibtex", "biblatex"])
def test_names_no_font_has_and_a_bare_zero_compile(tmp_path, fmt, papers):
    require(fmt)
    records = [dataclasses.replace(papers.complete[n], authors=names, abstract=None)
               for n, names in enumerate(AWKWARD_NAMES)]
    bbl, blg, log = run_tex(tmp_path, fmt, records, ICML_PREAMBLE)
    assert_no_problems(fmt, blg, log)
    assert len(bbl_items(bbl, fmt)) == len(records)
    if fmt == "biblatex":  # the initials are letters, not pieces of a conditional
        initials = re.findall(r"(?:family|given)i=\{([^}]*)\}", bbl)
        assert initials and not any("ifdefined" in i or "\\else" in i for i in initials), initials


def test_every_generated_table_entry_compiles(tmp_path):
    """Each entry of icml2026.bibtex.latex_table, in the form the encoder writes it, in its own box."""
    require("bibtex")
    pieces = {f"text {cp:04X}": latex_encode.encode_char(chr(cp)) for cp in latex_table.TEXT}
    pieces |= {f"lossy {cp:04X}": latex_encode.encode_char(chr(cp)) for cp in latex_table.LOSSY}
    pieces |= {f"math {cp:04X}": "$" + latex_encode.math_text(chr(cp)) + "$" for cp in latex_table.MATH}
    pieces |= {f"utf8 {cp:04X}": chr(cp) for cp in latex_encode._utf8_keep_set()}
    body = "\n".join(f"\\typeout{{@@ {name}}}\\sbox0{{{piece}}}" for name, piece in pieces.items())
    (tmp_path / "doc.tex").write_text("\\documentclass{article}\n" + ICML_PREAMBLE + "\n\\tracinglostchars=1\n"
                                      "\\begin{document}\n" + body + "\n\\typeout{@@ end}\n\\end{document}\n",
                                      encoding="utf-8")
    subprocess.run(["pdflatex", "-interaction=nonstopmode", "-draftmode", "-no-shell-escape", "doc"],
                   check=False, cwd=tmp_path, capture_output=True, timeout=300)
    log = (tmp_path / "doc.log").read_text(encoding="utf-8", errors="replace")
    chunks = log.split("@@ ")[1:]
    assert chunks and chunks[-1].startswith("end")  # TeX got to the end
    bad = [chunk.partition("\n")[0] for chunk in chunks
           if re.search(r"^!|Warning|Missing character", chunk.partition("\n")[2], re.MULTILINE)]
    assert bad == []
