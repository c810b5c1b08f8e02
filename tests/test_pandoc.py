"""pandoc, a real client, reads our BibTeX, BibLaTeX and CSL-JSON alike.

pandoc (Debian package ``pandoc``, installed by ``.ci/install-system``) formats a
bibliography with its own CSL processor (Haskell citeproc, a third implementation
besides citeproc-py and citeproc-js) and its own readers of ``.bib`` and CSL-JSON.
The same papers, read from each of our three files, must give the same references:
any escaping, name or case-protection mistake in one exporter shows as a difference.
The style is pandoc's built-in Chicago author-date, which title-cases: it is where a
partly protected word (``x{LSTM}``) would turn into "XLSTM".
"""

from __future__ import annotations

import dataclasses
import shutil
import subprocess
from pathlib import Path

import pytest

import icml2026
from icml2026.exporters.plain import plain_text
from icml2026.markup import to_plain

PANDOC = shutil.which("pandoc")
pytestmark = pytest.mark.skipif(PANDOC is None, reason="pandoc is not installed (.ci/install-system installs it)")
FILES = (("bibtex", "refs.bib"), ("biblatex", "refs-biblatex.bib"), ("csl-json", "refs.json"))


def pandoc_references(bibliography: Path, tmp_path: Path) -> list[str]:
    document = tmp_path / "cite-all.md"
    document.write_text('---\nnocite: "@*"\n---\n', encoding="utf-8")
    run = subprocess.run([str(PANDOC), "--citeproc", "--bibliography", str(bibliography), "-t", "plain",
                          "--wrap=none", str(document)], capture_output=True, text=True, timeout=600, check=False)
    assert run.returncode == 0, run.stderr
    return [entry for entry in run.stdout.split("\n\n") if entry.strip()]


def read_by_pandoc(papers: list[icml2026.Paper], tmp_path: Path) -> dict[str, list[str]]:
    found = {}
    for fmt, name in FILES:
        path = tmp_path / name
        path.write_text(icml2026.export(papers, fmt), encoding="utf-8")
        found[fmt] = pandoc_references(path, tmp_path)
    return found


@pytest.fixture(scope="module")
def cited(papers: icml2026.PaperCollection) -> list[icml2026.Paper]:
    complete = list(papers.complete)
    # PMLR protects parts of words (x{LSTM}, {M}onte): the exporters must protect whole words.
    partly = dataclasses.replace(complete[0], id="pmlr-v306-test26a", citation_key="test2026xlstm",
                                 title="xLSTM meets Monte Carlo and miniF2F", title_protect=((1, 5), (12, 13),
                                                                                           (32, 33), (34, 35)))
    return [*complete, partly]


def test_pandoc_reads_our_three_files_alike(cited: list[icml2026.Paper], tmp_path: Path) -> None:
    found = read_by_pandoc(cited, tmp_path)
    assert len(found["csl-json"]) == len(cited)
    assert found["biblatex"] == found["bibtex"]
    # `address` (both .bib files) is the conference's place (plain.bst prints it with the date for
    # @inproceedings); pandoc reads it as the publisher's place, CSL-JSON has it as event-place.
    place = cited[0].proceedings.address
    from_bib = [entry.replace(f"{place}: ", "").replace(*PANDOC_DIGIT_WORD) for entry in found["bibtex"]]
    assert place and from_bib == found["csl-json"]


# pandoc 2.17's BibTeX reader loses the protection of a braced word that starts with a digit
# ({3D}): its Chicago style then prints "3d" (the CSL-JSON nocase span keeps "3D").
PANDOC_DIGIT_WORD = (" 3d Scene", " 3D Scene")


def test_pandoc_still_lowercases_a_protected_word_starting_with_a_digit(tmp_path: Path) -> None:
    """The quirk the comparison above allows for: when a pandoc release fixes it, this fails."""
    (tmp_path / "refs.bib").write_text("@inproceedings{a, title = {Prototypes for {3D} Scene Graphs}, "
                                       "booktitle = {B}, year = {2026}}\n", encoding="utf-8")
    assert PANDOC_DIGIT_WORD[0] in pandoc_references(tmp_path / "refs.bib", tmp_path)[0]


@pytest.mark.parametrize("fmt", ["bibtex", "biblatex"])
def test_pandoc_keeps_the_capitals_of_the_proceedings_names(papers: icml2026.PaperCollection, fmt: str,
                                                            tmp_path: Path) -> None:
    """pandoc's BibTeX reader sentence-cases booktitle and series unless protected (the
    control below shows it does): what it reads, as CSL-JSON, against the verified facts."""
    import json

    from conftest import SHARED

    facts = json.loads((SHARED / "data" / "seed-papers.json").read_text(encoding="utf-8"))["proceedings"]

    def read(text: str) -> list[dict]:
        (tmp_path / "refs.bib").write_text(text, encoding="utf-8")
        run = subprocess.run([str(PANDOC), "-f", fmt, "-t", "csljson", str(tmp_path / "refs.bib")],
                             capture_output=True, text=True, timeout=600, check=False)
        assert run.returncode == 0, run.stderr
        return json.loads(run.stdout)

    items = read(icml2026.export(list(papers.complete), fmt))
    assert len(items) == len(papers.complete)
    for item in items:
        assert item["container-title"] == facts["booktitle"]
        assert item["collection-title"] == facts["series"]
        assert item["publisher-place"] == facts["address"]
    control = read("@inproceedings{a, title = {T}, booktitle = {" + facts["booktitle"] + "}}\n")
    assert control[0]["container-title"] != facts["booktitle"]


def test_titles_reach_pandoc_with_their_protected_words(cited: list[icml2026.Paper], tmp_path: Path) -> None:
    found = read_by_pandoc(cited, tmp_path)
    for fmt, entries in found.items():
        shown = "\n".join(entries)
        for paper in cited:
            title = plain_text(paper.title)
            assert title.casefold() in shown.casefold(), (fmt, title)
            for start, end in paper.title_protect:
                word = to_plain(paper.title[start:end])
                assert word in shown, (fmt, word)
        assert "xLSTM Meets Monte Carlo and miniF2F" in shown, fmt
        assert "\\" not in shown and "{" not in shown, fmt  # no LaTeX left over


@pytest.mark.slow
def test_pandoc_reads_every_paper_of_the_volume(volume: icml2026.PaperCollection, tmp_path: Path) -> None:
    """The whole volume from each file: no entry lost to a parse error (pandoc skips what it cannot read)."""
    complete = list(volume.complete)
    found = read_by_pandoc(complete, tmp_path)
    for fmt, entries in found.items():
        assert len(entries) == len(complete), fmt
