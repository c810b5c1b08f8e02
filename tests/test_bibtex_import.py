"""The BibTeX importer: PMLR's real volume file, header-less files, broken entries, the CLI.

Facts are checked against independent readings: pybtex parses PMLR's file and
our re-export, pylatexenc's stock ``latex2text`` decodes both, and the packaged
records are compared with the verified PMLR facts in ``shared/data``.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from bibtex_helpers import squeeze, written_protection
from pybtex.database import parse_file, parse_string

import icml2026
from icml2026 import markup
from icml2026.bibtex import latex_decode
from icml2026.importers.bibtex import ImportResult, read_bibtex_report
from icml2026.model import Person
from icml2026.validation import validate_paths

SHARED = Path(__file__).resolve().parents[1] / "tools" / "sources"
CORPUS = SHARED / "corpora" / "pmlr-v306-sample-A.bib"


def stock_decode(latex_text: str) -> str:
    """pylatexenc's own LaTeX → text, independent of icml2026.bibtex.latex_decode."""
    from pylatexenc.latex2text import LatexNodes2Text

    return squeeze(LatexNodes2Text(math_mode="verbatim").latex_to_text(latex_text))


def stock_person(person) -> Person:
    def part(words):
        return stock_decode(" ".join(words)) or None

    return Person(family=part(person.prelast_names + person.last_names),
                  given=part(person.first_names + person.middle_names), suffix=part(person.lineage_names))


def flat(person: Person) -> Person:
    """Particle folded into the family name, as :func:`stock_person` reads it."""
    family = " ".join(p for p in (person.particle, person.family or person.literal) if p)
    return Person(family=family or None, given=person.given, suffix=person.suffix)


def validate_records(result: ImportResult, tmp_path: Path) -> list:
    target = tmp_path / "imported.jsonl"
    lines = [p.to_dict() for p in result.proceedings] + [p.to_dict() for p in result.papers]
    target.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in lines), encoding="utf-8")
    return validate_paths([target])


# --------------------------------------------------------------------------- the real corpus

@pytest.fixture(scope="module")
def corpus() -> ImportResult:
    if not CORPUS.exists():
        pytest.skip(f"the PMLR corpus is not at {CORPUS}")
    return read_bibtex_report(CORPUS)


@pytest.fixture(scope="module")
def pmlr_entries():
    if not CORPUS.exists():
        pytest.skip(f"the PMLR corpus is not at {CORPUS}")
    # Keyed by OpenReview id: our records carry PMLR's published ids (abas26a), the file
    # its source keys (abas26).
    return {e.fields["openreview"]: e for e in parse_file(str(CORPUS), "bibtex").entries.values()
            if "openreview" in e.fields}


def test_every_corpus_entry_converts_or_is_reported(corpus):
    text = CORPUS.read_text(encoding="utf-8")
    declared = re.findall(r"^@InProceedings\{([^,]+),", text, re.MULTILINE)
    assert len(declared) == 304
    assert len(corpus.papers) + len(corpus.problems) == len(declared)
    for problem in corpus.problems:
        assert problem.key and problem.line >= 1 and problem.reason
    assert not corpus.problems and len({p.identifiers.pmlr for p in corpus.papers}) == len(declared)
    # PMLR's published ids, by its rule over the file order (this file is the volume's first 304 entries)
    assert {"abas26a", "abdullaev26a", "bo26c"} <= {p.identifiers.pmlr for p in corpus.papers}


def test_corpus_header_becomes_the_proceedings(corpus):
    (proc,) = corpus.proceedings
    packaged = icml2026.load().complete[0].proceedings
    for name in ("id", "booktitle", "year", "volume", "address", "start_date", "end_date", "published",
                 "conference_name", "conference_short_name", "conference_number", "conference_url", "editors"):
        assert getattr(proc, name) == getattr(packaged, name), name
    assert all(p.proceedings is proc for p in corpus.papers)


def test_corpus_records_are_valid(corpus, tmp_path):
    assert validate_records(corpus, tmp_path) == []
    for paper in corpus.papers:
        assert paper.sources["bibtex"].name == f"BibTeX file {CORPUS.name}"
        assert paper.sources["bibtex"].url == str(CORPUS)
        assert paper.source_of("/title").name == f"BibTeX file {CORPUS.name}"


@pytest.mark.parametrize("fmt", ["bibtex", "biblatex"])
def test_reexport_equals_pmlr_after_decoding(corpus, pmlr_entries, fmt):
    ours = parse_string(icml2026.export(corpus.papers, fmt, key_style="pmlr"), "bibtex").entries
    assert len(ours) == len(corpus.papers)
    for paper in corpus.papers:
        theirs, mine = pmlr_entries[paper.identifiers.openreview], ours[paper.id]
        assert stock_decode(mine.fields["title"]) == stock_decode(theirs.fields["title"])
        assert [stock_person(p) for p in mine.persons["author"]] == \
            [stock_person(p) for p in theirs.persons["author"]]
        assert mine.fields["pages"] == theirs.fields["pages"]
        if fmt == "bibtex":  # biblatex's data model has no openreview field: not written there
            assert mine.fields["openreview"] == theirs.fields["openreview"]


def test_corpus_title_protection_matches_pmlr_braces(corpus, pmlr_entries):
    protected = 0
    for paper in corpus.papers:
        tex_title = pmlr_entries[paper.identifiers.openreview].fields["title"]
        outside_math = re.sub(r"\$[^$]*\$", "", tex_title)
        groups = re.findall(r"(?<!\\)\{([^{}\\$]+)\}", outside_math)  # plain {ABC} groups
        spans = [markup.to_plain(paper.title[a:b]) for a, b in paper.title_protect]
        for group in groups:
            assert group in spans, (paper.id, group, spans)
        protected += bool(groups)
    assert protected > 50


def test_corpus_abstract_html_becomes_emphasis(corpus, pmlr_entries):
    tagged = [p for p in corpus.papers if "<em>" in pmlr_entries[p.identifiers.openreview].fields["abstract"]
              or "<b>" in pmlr_entries[p.identifiers.openreview].fields["abstract"]]
    assert tagged
    for paper in tagged:
        segments = markup.parse(paper.abstract)  # balanced markup, or this raises
        assert any(s.emph for s in segments)
        assert not re.search(r"</?(em|b)>", markup.to_plain(paper.abstract))


def test_packaged_records_agree_with_pmlr_facts(papers, shared):
    facts = json.loads((shared / "data" / "seed-papers.json").read_text(encoding="utf-8"))
    pmlr = {p["pmlr"]["id"]: p["pmlr"] for p in facts["papers"] if p["pmlr"]}
    complete = list(papers.complete)
    assert len(complete) == len(pmlr) == 19
    exported = parse_string(icml2026.export(complete, "bibtex"), "bibtex").entries
    for paper in complete:
        fact = pmlr[paper.identifiers.pmlr]
        assert markup.to_plain(paper.title) == fact["title"]
        title, ranges = latex_decode.decode_title(fact["tex_title"])
        assert title == paper.title
        extra = set(paper.title_protect) - set(map(tuple, ranges))  # PMLR's braces are all kept
        assert not extra or paper.provenance["/title_protect"] == "derived"
        assert [a.to_dict() for a in paper.authors] == [{"family": a["family"], "given": a["given"]}
                                                        for a in fact["authors"]]
        assert (paper.pages.first, paper.pages.last) == (fact["firstpage"], fact["lastpage"])
        assert paper.identifiers.openreview == fact["openreview"]
        assert paper.links.pdf == fact["pdf"]
        entry = exported[paper.citation_key]  # and our BibTeX says the same, read by pybtex
        assert stock_decode(entry.fields["title"]) == stock_decode(fact["tex_title"])
        assert [stock_person(p) for p in entry.persons["author"]] == \
            [Person(family=a["family"], given=a["given"]) for a in fact["authors"]]


@pytest.mark.parametrize("fmt", ["bibtex", "biblatex"])
def test_our_export_imports_back_to_the_same_facts(papers, fmt, tmp_path):
    complete = list(papers.complete)
    result = read_bibtex_report(icml2026.export(complete, fmt, abstract=True))
    assert result.problems == ()
    assert validate_records(result, tmp_path) == []
    back = {p.id.removeprefix("bibtex-"): p for p in result.papers}  # id from the entry key
    for paper in complete:
        again = back[paper.citation_key]
        assert again.title == paper.title
        assert list(again.title_protect) == written_protection(paper.title, paper.title_protect)
        assert again.authors == paper.authors and again.pages == paper.pages
        assert markup.parse(again.abstract) == markup.parse(paper.abstract)
        if fmt == "bibtex":  # biblatex has no openreview or software field
            assert again.identifiers.openreview == paper.identifiers.openreview
            assert again.links.code == paper.links.code
        assert again.identifiers.arxiv == paper.identifiers.arxiv
        assert again.links.pdf is None  # not written: no style prints it, and Zotero makes a broken attachment
        assert again.links.proceedings == paper.links.proceedings
        assert again.proceedings.editors == paper.proceedings.editors
        assert again.year == paper.year and again.proceedings.booktitle == paper.proceedings.booktitle


# --------------------------------------------------------------------------- small files

HEADERLESS = r"""
Some comment text that BibTeX ignores.

@inproceedings{smith2024,
  title = {Learning {BERT}-style Models with $O(n^2)$ Cost: the {\"U}ber Case},
  author = {Smith, Jane and van der Berg, Jr, Anna and {OpenAI Team} and others},
  booktitle = {Proceedings of Something},
  year = 2024,
  pages = {5--9},
  abstract = {We show <em>strong <b>results</em> here</b> with 5\% gains \& more---and $x_1$.},
  software = {github.com/x/y},
  eprint = {2401.01234v2},
  archiveprefix = {arXiv},
  doi = {10.1000/xyz}
}

@inproceedings{notitle2024,
  author = {Doe, John},
  booktitle = {Proceedings of Something},
  year = {2024}
}
"""

BROKEN = """@Proceedings{ICML-2026,
    booktitle = {Proceedings of X},
    volume = {306},
    year = {2026}
}

@InProceedings{good26a,
    title = {Good One},
    author = {Good, Ann},
    pages = {1--2}
}

@InProceedings{broken26,
    title = {Broken {one},
    author = {Bad, Bob},
    pages = {3--4}
}

@InProceedings{badpages26,
    title = {Bad Pages},
    author = {Page, Pat},
    pages = {ix--x}
}

@InProceedings{good26a,
    title = {Duplicate},
    author = {Twin, Tom},
    pages = {5--6}
}

@InProceedings{good26b,
    title = {Good Two},
    author = {Good, Ann},
    pages = {7--8}
}
"""


def test_headerless_file_imports_with_what_it_has(tmp_path):
    result = read_bibtex_report(HEADERLESS)
    assert result.problems == ()
    assert validate_records(result, tmp_path) == []
    smith = result.papers["bibtex-smith2024"]
    assert smith.proceedings.booktitle == "Proceedings of Something" and smith.year == 2024
    assert smith.proceedings.series is None and smith.proceedings.volume is None
    assert markup.to_plain(smith.title) == "Learning BERT-style Models with $O(n^2)$ Cost: the \u00dcber Case"
    assert [markup.to_plain(smith.title[a:b]) for a, b in smith.title_protect] == ["BERT"]
    assert smith.authors == (Person(family="Smith", given="Jane"),
                             Person(family="Berg", given="Anna", particle="van der", suffix="Jr"),
                             Person(literal="OpenAI Team"))
    assert smith.authors_complete is False
    assert markup.to_plain(smith.abstract) == "We show strong results here with 5% gains & more\u2014and $x_1$."
    assert [s.value for s in markup.parse(smith.abstract) if s.emph] == ["strong results here"]
    assert smith.identifiers.arxiv == "2401.01234" and smith.identifiers.doi == "10.1000/xyz"
    assert smith.links.code == "https://github.com/x/y" and "github.com/x/y" in smith.notes[0]
    assert "smith2024" in set(smith.keys())  # Paper.keys(): every lookup key
    notitle = result.papers["bibtex-notitle2024"]
    assert notitle.status == "incomplete" and set(notitle.missing) == {"title", "pages"}


def test_imported_records_export_like_packaged_ones():
    papers = icml2026.read_bibtex(HEADERLESS)
    with pytest.warns(UserWarning, match="skipped doe2024"):
        text = icml2026.export(papers, "bibtex", abstract=True)
    entries = parse_string(text, "bibtex").entries
    assert len(entries) == 1  # the incomplete record is skipped
    (entry,) = entries.values()
    smith = papers["bibtex-smith2024"]
    title, ranges = latex_decode.decode_title(entry.fields["title"])
    assert (title, ranges) == (smith.title, written_protection(smith.title, smith.title_protect))
    assert markup.parse(latex_decode.decode(entry.fields["abstract"])) == markup.parse(smith.abstract)


def test_broken_entries_are_reported_and_the_rest_kept():
    result = read_bibtex_report(BROKEN)
    assert sorted(p.id for p in result.papers) == ["pmlr-v306-good26a", "pmlr-v306-good26b"]
    # Entries are missing, so PMLR's volume-wide numbering cannot be applied: no PMLR id is claimed.
    assert all(p.identifiers.pmlr is None and "cannot be derived" in p.notes[-1] for p in result.papers)
    lines = BROKEN.split("\n")
    reported = {(p.key, p.line) for p in result.problems}
    expected_keys = ["broken26", "badpages26", "good26a"]
    assert [p.key for p in result.problems] == expected_keys
    for key, line in reported:
        assert lines[line - 1].startswith("@InProceedings{" + key)
    reasons = " ".join(p.reason for p in result.problems)
    assert "brace" in reasons and "pages" in reasons and "duplicate" in reasons


def test_a_pmlr_file_not_from_page_one_claims_no_pmlr_id():
    """The source key (abbas26) is not PMLR's published id (abbas26a): it is left out, with a note."""
    volume = (SHARED / "corpora" / "pmlr-v306-facts.bib").read_text(encoding="utf-8")
    header, *entries = volume.split("\n@")
    whole_start = read_bibtex_report(header + "\n@" + "\n@".join(entries[:3]))
    assert [p.identifiers.pmlr for p in whole_start.papers] == ["abas26a", "abbadi26a", "abbas26a"]
    assert all(p.provenance["/identifiers/pmlr"] == "derived" for p in whole_start.papers)
    middle = read_bibtex_report(header + "\n@" + "\n@".join(entries[2:4]))
    assert [p.id for p in middle.papers] == ["pmlr-v306-abbas26", "pmlr-v306-abbasi26"]
    for paper in middle.papers:
        assert paper.identifiers.pmlr is None and "/identifiers/pmlr" not in paper.provenance
        assert "cannot be derived" in paper.notes[-1] and paper.provenance["/notes"] == "derived"
        source_key = paper.id.removeprefix("pmlr-v306-")
        assert source_key in paper.alias_keys and paper.id not in paper.alias_keys  # the file's key, cited as is
    assert not middle.problems  # each record passed validation on import


def test_cli_import_jsonl_files_and_exit_status(tmp_path):
    good = tmp_path / "good.bib"
    good.write_text(HEADERLESS, encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "icml2026", "import", str(good)],
                         check=False, capture_output=True, text=True)
    assert run.returncode == 0 and run.stderr == "icml2026: imported 2 records (1 incomplete)\n"
    records = [json.loads(line) for line in run.stdout.splitlines()]
    assert sorted(r["id"] for r in records) == ["bibtex-notitle2024", "bibtex-smith2024"]

    broken = tmp_path / "broken.bib"
    broken.write_text(BROKEN, encoding="utf-8")
    out = tmp_path / "records"
    run = subprocess.run([sys.executable, "-m", "icml2026", "import", str(broken), "-o", str(out)],
                         check=False, capture_output=True, text=True)
    assert run.returncode == 1
    assert sorted(p.name for p in out.glob("*.json")) == ["pmlr-v306-good26a.json", "pmlr-v306-good26b.json"]
    assert (out / "proceedings" / "pmlr-v306.json").exists()
    for key in ("broken26", "badpages26", "good26a"):
        assert re.search(rf"line \d+: {key}: ", run.stderr)
    assert validate_paths([out, out / "proceedings"]) == []


def test_cli_import_missing_file_is_one_line():
    run = subprocess.run([sys.executable, "-m", "icml2026", "import", "/nonexistent/x.bib"],
                         check=False, capture_output=True, text=True)
    assert run.returncode == 1 and run.stderr.count("\n") == 1 and "cannot read" in run.stderr


def test_bibtex_without_header_imports_with_what_it_has(tmp_path):
    """No @Proceedings header, no booktitle: the entries still import, as incomplete records."""
    from icml2026.cli import main

    bib = tmp_path / "plain.bib"
    bib.write_text("@article{good2024,\n  title = {A {BERT} Study of Caf\\'e Prices},\n"
                   "  author = {M\\\"uller, J\\\"urgen and van der Berg, Anna},\n  year = {2024},\n"
                   "  pages = {1--10}\n}\n\n@inproceedings{notitle,\n  year = {2024}\n}\n", encoding="utf-8")
    out = tmp_path / "records"
    assert main(["import", str(bib), "-o", str(out)]) == 0
    assert validate_paths([out]) == []
    papers = icml2026.load([out])
    good = papers["good2024"]
    assert (good.title, good.status, good.missing) == ("A BERT Study of Café Prices", "incomplete", ("booktitle",))
    assert [(a.given, a.particle, a.family) for a in good.authors] == [("Jürgen", None, "Müller"),
                                                                       ("Anna", "van der", "Berg")]
    assert set(papers["notitle"].missing) == {"title", "authors", "pages", "booktitle", "citation_key"}


# --------------------------------------------------------------------------- our parser, checked against others

def test_our_field_parser_reads_what_bibtexparser_reads():
    """On a file bibtexparser 1.4 reads correctly, our per-entry parser gives the very same fields."""
    import bibtexparser
    from bibtexparser.bparser import BibTexParser

    from icml2026.bibtex.reader import read_entries

    if not CORPUS.exists():
        pytest.skip(f"the PMLR corpus is not at {CORPUS}")
    text = CORPUS.read_text(encoding="utf-8")
    ours = [fields for _, fields, _ in read_entries(text)]
    theirs = bibtexparser.loads(text, BibTexParser(common_strings=True, ignore_nonstandard_types=False,
                                                   homogenize_fields=False)).entries
    assert len(ours) == 305 and ours == theirs


def test_import_keys_follow_the_packaged_rule():
    """The documented rule of the build (``keys.assign_keys``): within a base, in order of first
    page; never another base's key (``smith2024learninga`` is a title's own base here), never a
    key of the file order or the ids' order (``a…``, ``z…`` entries are in the other order)."""
    def entry(key: str, title: str, first: int) -> str:
        return (f"@inproceedings{{{key}, title = {{{title}}}, author = {{Smith, Jo}}, booktitle = {{Proc}}, "
                f"year = 2024, pages = {{{first}--{first + 1}}}}}\n")

    result = icml2026.parse_string(entry("a1", "Learning Things", 30) + entry("z9", "The Learning of Things", 10)
                          + entry("m5", "Learninga", 20) + entry("b2", "Learning Again", 40))
    keys = {p.alias_keys[0]: p.citation_key for p in result.papers}
    assert keys == {"z9": "smith2024learning", "a1": "smith2024learningb", "m5": "smith2024learninga",
                    "b2": "smith2024learningc"}
    # The key with function words kept is an alias where no other paper answers to it.
    (the,) = [p for p in result.papers if p.alias_keys[0] == "z9"]
    assert the.alias_keys == ("z9", "smith2024the")


def test_import_keys_are_the_packaged_keys(corpus):
    """The PMLR sample imported gets the keys the build gave its papers in the whole volume
    (all 304: no collision of the volume falls between the sample and the rest)."""
    volume = icml2026.load()
    differ = [(paper.citation_key, packaged.citation_key) for paper in corpus.papers
              if (packaged := volume.find(paper.identifiers.openreview or "")) is not None
              and paper.citation_key != packaged.citation_key]
    assert len(corpus.papers) == 304 and differ == []


def test_progress_bar_on_a_terminal_and_quiet_when_piped(tmp_path):
    import os
    import pty

    bib = tmp_path / "many.bib"
    bib.write_text("".join(f"@misc{{k{n}, title = {{T{n}}}, author = {{Doe, J}}, year = 2024}}\n"
                           for n in range(600)), encoding="utf-8")
    master, slave = pty.openpty()
    run = subprocess.run([sys.executable, "-m", "icml2026", "import", str(bib)], check=False,
                         stdout=subprocess.DEVNULL, stderr=slave)
    os.close(slave)
    chunks = []
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(master)
    shown = b"".join(chunks).decode()
    assert run.returncode == 0
    assert "\rimporting [" in shown and "250/600 entries" in shown and "600/600 entries\r\n" in shown
    piped = subprocess.run([sys.executable, "-m", "icml2026", "import", str(bib)], check=False,
                           capture_output=True, text=True)
    assert piped.stderr == "icml2026: imported 600 records (600 incomplete)\n"
