"""The packaged records agree with the verified facts and the seed document."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import icml2026
from icml2026.markup import to_plain
from icml2026.store import data_dir

from conftest import REPO


def load_tool():  # tools/ is not a package: import the generator by path
    import importlib.util

    spec = importlib.util.spec_from_file_location("seed_records", REPO / "tools" / "seed_records.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_shipped_files_equal_generated_files(shared: Path) -> None:
    files = load_tool().build(shared)
    shipped = {str(p.relative_to(data_dir())): p.read_text(encoding="utf-8")
               for p in data_dir().glob("*/*.json")}
    assert shipped == files


def test_nineteen_papers_one_incomplete(papers: icml2026.PaperCollection) -> None:
    assert len(papers) == 19
    assert len(papers.complete) == 18
    (gmpssg,) = papers.incomplete
    assert gmpssg.method_name == "GMPSSG"
    assert gmpssg.title is None and gmpssg.authors == () and gmpssg.pages is None
    assert gmpssg.citation_key is None and not dict(gmpssg.identifiers.items())
    assert set(gmpssg.missing) >= {"title", "authors", "pages"}


def test_abstracts_are_the_seed_text_verbatim(papers: icml2026.PaperCollection, shared: Path) -> None:
    seed = (shared / "seed" / "000_476b98bb6ff612ae.txt").read_text(encoding="utf-8")
    lines = [line for line in seed.split("\n")[1:] if line.strip()]
    assert sorted(p.abstract for p in papers) == sorted(lines)


def test_facts_match_seed_papers_json(papers: icml2026.PaperCollection, shared: Path) -> None:
    facts = json.loads((shared / "data" / "seed-papers.json").read_text(encoding="utf-8"))
    for fact in facts["papers"]:
        pm = fact["pmlr"]
        if pm is None:
            continue
        paper = papers[pm["id"]]
        assert to_plain(paper.title) == pm["title"]
        assert [(a.given, a.family) for a in paper.authors] == [(a["given"], a["family"]) for a in pm["authors"]]
        assert (paper.pages.first, paper.pages.last) == (pm["firstpage"], pm["lastpage"])
        assert paper.identifiers.openreview == pm["openreview"]
        assert paper.identifiers.arxiv == fact["arxiv_id"]
        assert paper.links.pdf == pm["pdf"]
        assert paper.source_of("/title").url == pm["source"]


def test_proceedings_record(papers: icml2026.PaperCollection, shared: Path) -> None:
    facts = json.loads((shared / "data" / "seed-papers.json").read_text(encoding="utf-8"))["proceedings"]
    proc = papers[0].proceedings
    assert all(p.proceedings is proc for p in papers)  # stored once, referenced
    assert [(e.family, e.given) for e in proc.editors] == [(e["family"], e["given"]) for e in facts["editors"]]
    assert (proc.volume, proc.year, proc.booktitle) == (306, 2026, facts["booktitle"])


def test_case_protection_from_tex_title(papers: icml2026.PaperCollection) -> None:
    paper = papers["pmlr-v306-li26d"]
    assert [paper.title[a:b] for a, b in paper.title_protect] == ["P", "L"]
    paper = papers["zhao2026benchmarking"]
    assert [paper.title[a:b] for a, b in paper.title_protect] == ["VQA"]


def test_generator_check_mode_is_clean(shared: Path) -> None:
    result = subprocess.run([sys.executable, str(REPO / "tools" / "seed_records.py"),
                             "--shared", str(shared), "--check"], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
