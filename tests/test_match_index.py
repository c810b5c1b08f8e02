"""The prebuilt match index of ``fix`` and ``check`` (``data/match-index.json``).

It must be what the data build makes from the shipped ``papers.jsonl`` (a stale index would
match against papers that are no longer there), give exactly the results of an index built
from the loaded volume, and load only the papers an entry names.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

import icml2026
from icml2026 import fix as fix_module
from icml2026.check import check_text
from icml2026.fix import fix_bibtex_report, index_for, prebuilt
from icml2026.fix.match import Index
from icml2026.markup import to_plain
from icml2026.store.records import data_dir

sys.path.insert(0, str(Path(__file__).resolve().parent))
import check_corpus
import fix_corpus


@pytest.fixture(autouse=True)
def fresh_cache():
    """index_for keeps one index per process: start and end each test without it."""
    fix_module._CACHE.clear()
    yield
    fix_module._CACHE.clear()


class CountingLines:
    """A paper reader that counts the papers it reads (as the prebuilt index asks for them)."""

    def __init__(self, folder: Path) -> None:
        self.read = prebuilt._Lines(folder / "papers.jsonl", folder / "proceedings")
        self.spans: list[tuple[int, int]] = []

    def __call__(self, offset: int, size: int) -> icml2026.Paper:
        self.spans.append((offset, size))
        return self.read(offset, size)


def counting_index() -> tuple[Index, CountingLines]:
    folder = data_dir()
    head, body = (folder / prebuilt.FILE).read_bytes().split(b"\n", 1)
    reader = CountingLines(folder)
    return Index.from_tables(json.loads(body), reader), reader


def test_the_shipped_index_is_built_from_the_shipped_records(volume) -> None:
    papers_text = (data_dir() / "papers.jsonl").read_text(encoding="utf-8")
    assert len(papers_text.splitlines()) == len(volume)
    built = prebuilt.index_text(list(volume), papers_text)
    shipped = (data_dir() / prebuilt.FILE).read_text(encoding="utf-8")
    assert built == shipped, "run python tools/build_records.py"


def test_the_packaged_index_is_the_prebuilt_one() -> None:
    index = index_for(None)
    assert prebuilt.packaged_index() is not None
    assert not isinstance(index.known, list)  # read from the tables, not built from loaded papers
    assert len(index.known) == sum(1 for line in (data_dir() / "lines.tsv").read_text().splitlines()
                                   if line.endswith("\tcomplete"))


def test_check_with_the_prebuilt_index_equals_check_against_the_loaded_volume(volume) -> None:
    texts = [check_corpus.text_of(check_corpus.generate(check_corpus.read_facts())),
             fix_corpus.text_of(fix_corpus.generate(volume, n_icml=150, n_other=150))]  # near misses
    one, other = volume["zhao2026benchmarking"], volume["abas26a"]  # two ids of two papers: ambiguous
    texts.append(f"@misc{{two, openreview = {{{one.identifiers.openreview}}},"
                 f" url = {{https://proceedings.mlr.press/v306/{other.identifiers.pmlr}.html}}}}\n")
    loaded = [check_text(text, name="refs.bib", papers=volume).to_dict() for text in texts]
    fix_module._CACHE.clear()
    packaged = [check_text(text, name="refs.bib").to_dict() for text in texts]
    assert packaged == loaded
    assert {e["status"] for result in packaged for e in result["entries"]} == {
        "verified", "mismatch", "not-found", "preprint", "duplicate", "ambiguous", "other"}


def test_fix_with_the_prebuilt_index_equals_fix_against_the_loaded_volume(volume) -> None:
    text = fix_corpus.text_of(fix_corpus.generate(volume, n_icml=150, n_other=150))
    loaded = fix_bibtex_report(text, papers=volume)
    fix_module._CACHE.clear()
    packaged = fix_bibtex_report(text)
    assert packaged.text == loaded.text and packaged.to_dict() == loaded.to_dict()
    assert loaded.changed > 0 and loaded.ambiguous


def test_only_the_papers_an_entry_names_are_loaded(volume) -> None:
    from icml2026.check import Checker, read_bibliography

    paper = volume["zhao2026benchmarking"]
    entry = (f"@inproceedings{{z, title = {{{to_plain(paper.title or '')}}}, author = {{{paper.authors[0].family}, "
             f"{paper.authors[0].given} and others}}, booktitle = {{ICML}}, year = {{2026}}}}\n"
             "@article{fake, title = {A Fabricated Study of Nothing in Particular at All},"
             " author = {Nobody, Anne}, booktitle = {ICML 2026}, year = {2026}}\n")
    index, reader = counting_index()
    checker = Checker(index)
    found = [checker.check("refs.bib", e) for e in read_bibliography("refs.bib", entry).entries]
    assert [(e.status, e.paper) for e in found] == [("verified", paper.id), ("not-found", None)]
    assert 1 <= len(set(reader.spans)) <= 1 + 3  # the paper, and the nearest titles the message names


def test_a_mismatched_index_is_not_used(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    shutil.copytree(data_dir(), folder)
    assert prebuilt.packaged_index(folder) is not None
    with (folder / "papers.jsonl").open("a", encoding="utf-8") as handle:
        handle.write("\n")  # papers.jsonl is no longer the one the index was built from
    assert prebuilt.packaged_index(folder) is None
    shutil.copy(data_dir() / "papers.jsonl", folder / "papers.jsonl")
    text = (folder / prebuilt.FILE).read_text(encoding="utf-8")
    (folder / prebuilt.FILE).write_text(text.replace(prebuilt.FORMAT, "icml2026-match-index 0", 1),
                                        encoding="utf-8")
    assert prebuilt.packaged_index(folder) is None
    (folder / prebuilt.FILE).write_text(text[: len(text) // 2], encoding="utf-8")  # cut short
    assert prebuilt.packaged_index(folder) is None
    (folder / prebuilt.FILE).unlink()
    assert prebuilt.packaged_index(folder) is None


def test_a_corrections_layer_builds_the_index_from_the_corrected_volume(monkeypatch, tmp_path, volume) -> None:
    import icml2026.store.papers
    import icml2026.update.paths

    corrected = volume.select(["zhao2026benchmarking", "abas26a"])
    monkeypatch.setattr(icml2026.update.paths, "active_layer", lambda enabled=None: tmp_path / "layer.json")
    monkeypatch.setattr(icml2026.store.papers, "load", lambda *args, **kwargs: corrected)
    index = index_for(None)
    assert isinstance(index.known, list) and [k.paper.id for k in index.known] == [p.id for p in corrected]
