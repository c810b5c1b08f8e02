"""Real TeX on the whole volume: every paper's BibTeX and BibLaTeX entry compiles cleanly.

All papers of ``icml2026.load()`` are exported and compiled in batches, in a preamble like
the ICML 2026 template's (``article``, amsmath, amssymb, natbib or biblatex) plus T1 fonts,
which PMLR's own BibTeX needs too (``\\k{a}``, ``\\dh``): pdfLaTeX + BibTeX with
``plainnat``, and pdfLaTeX + biber (``--validate-datamodel``) with biblatex.  Every batch
must give zero errors and zero warnings in the ``.log`` and in the ``.blg``.

Each batch runs pdfLaTeX, the backend, then pdfLaTeX once more, which typesets every entry:
an error, a missing glyph or a font warning of an entry shows in that pass.  The warnings
that only ask for one more pass (:data:`SETTLING`: references and page breaks of a first
bibliography) are not problems; a third pass would typeset the same entries again, and on
biblatex it is a third of the test's time.  A key the bibliography lacks still shows: biber
and BibTeX warn in their log, and the ``.bbl`` must hold every exported entry.

Batches, because one document holding the volume exceeds TeX's memory and plainnat's
same-label suffixes (``2026a`` … ``2026z``: 342 first authors are named Wang).  A batch takes
every n-th paper, so papers with the same label are spread over the batches; the test
checks that no label occurs more than 26 times in one BibTeX batch (16 batches of ~410).
BibLaTeX has no such limit and 8 batches of ~820 fit TeX's memory: biber's start-up (~2 s a
run) and pdfLaTeX's are paid half as often.  Batches run two at a time.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import icml2026
from icml2026.model import Paper

BATCHES = {"bibtex": 16, "biblatex": 8}
PREAMBLE = "\\usepackage[T1]{fontenc}\n\\usepackage{amsmath}\n\\usepackage{amssymb}\n"
NATBIB_DOC = ("\\documentclass{article}\n" + PREAMBLE + "\\usepackage{natbib}\n\\usepackage{url}\n"
              "\\begin{document}\n\\nocite{*}\n\\bibliographystyle{plainnat}\n\\bibliography{refs}\n\\end{document}\n")
BIBLATEX_DOC = ("\\documentclass{article}\n" + PREAMBLE
                + "\\usepackage[backend=biber,style=authoryear]{biblatex}\n\\addbibresource{refs.bib}\n"
                  "\\begin{document}\n\\nocite{*}\n\\printbibliography\n\\end{document}\n")
# BibTeX: "Warning--…", "I was expecting…", "(There were 2 error messages)"; biber: WARN/ERROR lines.
BLG_PROBLEM = {"bibtex": re.compile(r"^Warning--|^I was|^I'm |^---|There (?:was|were) \d+ (?:error|warning)",
                                    re.MULTILINE),
               "biblatex": re.compile(r"\b(?:WARN|ERROR)\b")}
# TeX errors start with "!"; LaTeX, package and font warnings say "Warning"; a glyph the font
# lacks is "Missing character".  (Overfull/underfull boxes are layout, not problems of the data.)
LOG_PROBLEM = re.compile(r"^!|Warning|Missing character|Undefined control sequence", re.MULTILINE)
# What the pass after the backend's first run prints to ask for another pass, nothing more.
SETTLING = re.compile(r"^LaTeX Warning: There were undefined references\.$"
                      r"|^LaTeX Warning: Label\(s\) may have changed\. Rerun to get cross-references right\.$"
                      r"|^Package natbib Warning: Citation\(s\) may have changed\.$"
                      r"|^Package biblatex Warning: Please rerun LaTeX\.$")
TOOLS = {"bibtex": ("pdflatex", "bibtex"), "biblatex": ("pdflatex", "biber")}


@pytest.fixture(scope="module")
def complete() -> list[Paper]:
    papers = icml2026.load()
    assert len(papers) > 6000  # the whole volume (6,553 records, 6,552 complete)
    return list(papers.complete)


def plainnat_label(paper: Paper) -> tuple[str, int, str]:
    """What plainnat's labels are made of: first author's family name, year, author count class."""
    first = paper.authors[0]
    count = "1" if len(paper.authors) == 1 else "2" if len(paper.authors) == 2 else "3+"
    return ((first.family or first.literal or "").casefold(), paper.year, count)


def batches(papers: list[Paper], fmt: str = "bibtex") -> list[list[Paper]]:
    count = BATCHES[fmt]
    return [papers[n::count] for n in range(count)]


def test_batches_cover_the_volume_and_stay_within_plainnat_suffixes(complete):
    for fmt in BATCHES:
        parts = batches(complete, fmt)
        assert sorted(p.id for part in parts for p in part) == sorted(p.id for p in complete)
    for part in batches(complete, "bibtex"):
        assert max(Counter(plainnat_label(p) for p in part).values()) <= 26


def compile_batch(folder: Path, fmt: str, papers: list[Paper]) -> list[str]:
    """Export *papers* and compile them; the problems found (empty when clean)."""
    return compile_bib(folder, fmt, icml2026.export(papers, fmt, abstract=True), len(papers))


def compile_bib(folder: Path, fmt: str, bib: str, count: int) -> list[str]:
    """Compile every entry of the *count* in *bib*; the problems found (empty when clean)."""
    folder.mkdir(parents=True)
    (folder / "refs.bib").write_text(bib, encoding="utf-8")
    (folder / "doc.tex").write_text(NATBIB_DOC if fmt == "bibtex" else BIBLATEX_DOC, encoding="utf-8")
    # -draftmode: TeX typesets everything (errors, missing glyphs) but writes no PDF.
    latex = ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", "-draftmode", "doc"]
    backend = ["bibtex", "doc"] if fmt == "bibtex" else ["biber", "--validate-datamodel", "doc"]
    for command in (latex, backend, latex):
        done = subprocess.run(command, check=False, cwd=folder, capture_output=True, encoding="utf-8",
                              errors="replace", timeout=600)
        if done.returncode != 0:
            return [f"{' '.join(command)} exited {done.returncode}: {done.stdout[-2000:]}{done.stderr[-1000:]}"]
    blg = (folder / "doc.blg").read_text(encoding="utf-8", errors="replace")
    log = (folder / "doc.log").read_text(encoding="utf-8", errors="replace")
    problems = [line for line in blg.splitlines() if BLG_PROBLEM[fmt].search(line)]
    if ("This is BibTeX" if fmt == "bibtex" else "This is Biber") not in blg:  # biber --quiet: an empty .blg
        problems.append(f"no {fmt} log to read")
    problems += [line for line in log.splitlines() if LOG_PROBLEM.search(line) and not SETTLING.match(line)]
    bbl = (folder / "doc.bbl").read_text(encoding="utf-8", errors="replace")
    entries = len(re.findall(r"\\bibitem\[" if fmt == "bibtex" else r"\\entry\{", bbl))
    if entries != count:
        problems.append(f"{entries} entries in the .bbl, {count} exported")
    return problems


BROKEN = {"a TeX error": "A \\undefinedmacro title", "a font warning": "A {\\fontseries{b}\\ttfamily bold} title"}


@pytest.mark.parametrize("fmt", ["bibtex", "biblatex"])
@pytest.mark.parametrize("problem", sorted(BROKEN))
def test_an_entry_that_does_not_typeset_cleanly_is_a_problem(tmp_path, fmt, problem):
    """The two passes still catch what the entries print (the check can fail)."""
    entry = ("@inproceedings{{doe2026{n},\n  title = {{{title}}},\n  author = {{Doe, Jane}},\n"
             "  booktitle = {{Proc.}},\n  year = {{2026}}\n}}\n")
    bib = entry.format(n="a", title="A clean title") + entry.format(n="b", title=BROKEN[problem])
    assert compile_bib(tmp_path / "clean", fmt, entry.format(n="a", title="A clean title"), 1) == []
    assert compile_bib(tmp_path / "broken", fmt, bib, 2) != []


def test_only_the_requests_for_another_pass_are_settling():
    assert SETTLING.match("Package biblatex Warning: Please rerun LaTeX.")
    assert SETTLING.match("LaTeX Warning: There were undefined references.")
    assert not SETTLING.match("LaTeX Font Warning: Font shape `T1/cmtt/b/n' undefined")
    assert not SETTLING.match("Package biblatex Warning: Please (re)run Biber on the file:")
    assert not SETTLING.match("LaTeX Warning: Citation `x' on page 1 undefined on input line 5.")


# CPU seconds on a quiet machine: biber ~2 s a run and ~25 ms an entry, pdfLaTeX ~9 ms an entry a pass
@pytest.mark.parametrize("fmt", [pytest.param("bibtex", marks=pytest.mark.slow(seconds=25)),
                                 pytest.param("biblatex", marks=pytest.mark.slow(seconds=200))])
def test_whole_volume_compiles_without_errors_or_warnings(tmp_path, fmt, complete):
    missing = [tool for tool in TOOLS[fmt] if shutil.which(tool) is None]
    if missing:
        pytest.skip(f"TeX is not installed here ({', '.join(missing)} not on PATH); "
                    ".ci/install-system installs texlive and biber")
    parts = batches(complete, fmt)
    workers = min(2, os.cpu_count() or 1)
    with ThreadPoolExecutor(max_workers=workers) as pool:
        results = list(pool.map(lambda n: compile_batch(tmp_path / f"batch{n:02d}", fmt, parts[n]),
                                range(len(parts))))
    report = {f"batch {n} ({len(parts[n])} papers)": problems[:20] for n, problems in enumerate(results) if problems}
    assert report == {}
