"""What Better BibTeX's import makes of our BibTeX and BibLaTeX files.

The reader is BBT's own parser (npm ``@retorquere/bibtex-parser``, test-only,
``tests/bbt``; ``npm ci --prefix tests/bbt``) called with the options BBT's
import passes under its default preferences (``tests/bbt/read_bibtex.mjs``):
English titles sentence-cased, braces as case protection "as needed".  The
expected values come from the verified seed facts (``tools/sources/data/
seed-papers.json``, the proceedings) and the editors' BibTeX, not from our records.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import SHARED

import icml2026

BBT = Path(__file__).parent / "bbt"
READER = BBT / "read_bibtex.mjs"
PROCEEDINGS = json.loads((SHARED / "data" / "seed-papers.json").read_text(encoding="utf-8"))["proceedings"]


def read_with_bbt(text: str) -> list[dict]:
    if shutil.which("node") is None or not (BBT / "node_modules" / "@retorquere" / "bibtex-parser").is_dir():
        pytest.skip("Better BibTeX's parser is not installed: run .ci/install-system (npm ci --prefix tests/bbt)")
    done = subprocess.run(["node", str(READER)], input=text, capture_output=True, encoding="utf-8",
                          check=False, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    library = json.loads(done.stdout)
    assert library["errors"] == []
    return library["entries"]


def source_facts() -> dict[str, dict[str, str]]:
    """OpenReview id → the editors' title (LaTeX) and pages."""
    from pybtex.database import parse_string

    bib = parse_string((SHARED / "corpora" / "pmlr-v306-facts.bib").read_text(encoding="utf-8"), "bibtex")
    return {e.fields["openreview"]: {"title": e.fields["title"], "pages": e.fields["pages"]}
            for e in bib.entries.values() if e.type.lower() == "inproceedings"}


def protected_words(source_title: str) -> list[str]:
    """Words the editors braced (``{TUR}``, ``{Q}uantum{B}oost`` → QuantumBoost), math left out."""
    text = re.sub(r"\$[^$]*\$", " ", source_title)
    words = re.findall(r"[^\s:,()/-]*\{[^{}$\\]+\}[^\s:,()/-]*", text)
    return [w.replace("{", "").replace("}", "") for w in words if "\\" not in w]


@pytest.mark.parametrize("fmt", ["bibtex", "biblatex"])
def test_bbt_keeps_the_proceedings_names_and_the_place(papers: icml2026.PaperCollection, fmt: str) -> None:
    entries = read_with_bbt(icml2026.export(list(papers), fmt))
    assert [e["key"] for e in entries] == [p.citation_key for p in papers]
    facts = source_facts()
    for entry, paper in zip(entries, papers):
        fields = entry["fields"]
        # Exactly, capitals and all, and without <span class="nocase"> markup in the Zotero field.
        assert fields["booktitle"] == PROCEEDINGS["booktitle"]
        assert fields["series"] == PROCEEDINGS["series"]
        assert fields["address"] == PROCEEDINGS["address"]  # Zotero's place, from either file
        assert fields["publisher"] == [PROCEEDINGS["publisher"]]
        assert fields["volume"] == str(PROCEEDINGS["volume"])
        assert "pdf" not in fields and "file" not in fields
        source = facts.get(paper.identifiers.openreview or "")
        if source is None:
            continue
        first, _, last = source["pages"].partition("--")
        assert fields["pages"] == (f"{first}\u2013{last}" if last else first)
        title = re.sub(r"</?span[^>]*>", "", fields["title"])
        for word in protected_words(source["title"]):
            assert word in title, (word, fields["title"])


@pytest.mark.slow
def test_bbt_keeps_the_booktitle_of_every_entry_of_the_volume(volume: icml2026.PaperCollection) -> None:
    """The issue: BBT's import sentence-cased the proceedings title in all 6,552 entries."""
    entries = read_with_bbt(icml2026.export(volume.complete, "bibtex"))
    assert len(entries) == len(volume.complete) == 6552
    assert {e["fields"]["booktitle"] for e in entries} == {PROCEEDINGS["booktitle"]}
    assert {e["fields"]["series"] for e in entries} == {PROCEEDINGS["series"]}


def test_bbt_would_sentence_case_a_name_braced_whole() -> None:
    """Why booktitle is braced word by word: BBT strips the braces of ``{{…}}``."""
    entries = read_with_bbt("@inproceedings{a, title = {T}, booktitle = {{" + PROCEEDINGS["booktitle"] + "}}}\n")
    assert entries[0]["fields"]["booktitle"] != PROCEEDINGS["booktitle"]
    assert entries[0]["fields"]["booktitle"].lower() == PROCEEDINGS["booktitle"].lower()
