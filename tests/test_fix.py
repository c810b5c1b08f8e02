"""``icml2026 fix`` / ``icml2026.fix_bibtex``: ICML 2026 entries upgraded, every other byte kept.

The main corpus is generated from the packaged volume by ``tests/fix_corpus.py``; each
piece says what it must become, and the expected output is built here from the
package's own export, independently of the fixer's rewriting code.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import icml2026
from icml2026.errors import UsageError
from icml2026.fix import fix_bibtex_report

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fix_corpus
from fix_corpus import Piece

NATBIB_DOC = r"""\documentclass{article}
\usepackage[T1]{fontenc}
\usepackage{amsmath,amssymb}
\usepackage[numbers]{natbib}
\begin{document}
\nocite{*}
\bibliographystyle{plainnat}
\bibliography{refs}
\end{document}
"""


@pytest.fixture(scope="module")
def pieces(volume) -> list[Piece]:
    return fix_corpus.generate(volume)


@pytest.fixture(scope="module")
def corpus(pieces) -> str:
    return fix_corpus.text_of(pieces)


@pytest.fixture(scope="module")
def fixed(corpus, volume):
    return fix_bibtex_report(corpus, papers=volume)


def upgraded(piece: Piece, fmt: str = "bibtex", abstract: bool | None = None, strict: bool = False) -> str:
    """What the fixer must write for an ICML piece: the package's entry, the user's key, kept fields."""
    paper = piece.paper
    assert paper is not None
    with_abstract = abstract if abstract is not None else piece.had_abstract and bool(paper.abstract)
    entry = icml2026.export([paper], fmt, abstract=with_abstract).rstrip("\n")
    head, fields = entry.split("\n", 1)
    assert head.startswith("@inproceedings{") and fields.endswith("\n}")
    # The user's abstract gives way to ours, or to --no-abstract; --strict keeps nothing.
    ours = with_abstract and bool(paper.abstract)
    kept = [] if strict else [k for k in piece.kept
                              if not (k.startswith("abstract") and (ours or abstract is False))]
    body = fields[:-2] + "".join(",\n  " + k for k in kept)
    text = "@inproceedings{" + (piece.key or "") + ",\n" + body + "\n}"
    return text.replace("\n", "\r\n") if "\r\n" in piece.text else text


def expected_text(pieces: list[Piece], **options) -> str:
    return "".join(upgraded(p, **options) if p.paper else p.text for p in pieces)


# --------------------------------------------------------------------------- the generated corpus

def test_corpus_has_the_forms_people_paste(pieces, volume) -> None:
    forms = {p.form for p in pieces if p.paper}
    assert {"openreview", "pmlr", "crossref", "odd-spacing", "verified", "title-lower", "title-all-braced",
            "title-no-braces", "title-swapped", "title-no-subtitle", "title-no-position"} <= forms
    if any(p.identifiers.arxiv for p in volume):
        assert {"arxiv-misc", "arxiv-article"} & forms
    near = {p.form for p in pieces if p.ambiguous}
    assert {"one-word-changed", "same-title-other-authors", "icml-workshop", "two-identifiers",
            "pasted-id", "foreign-openreview-id"} <= near
    assert sum(1 for p in pieces if p.paper) >= min(300, len(volume) - 1)
    assert sum(1 for p in pieces if p.form == "other") >= 300


def test_every_icml_entry_is_upgraded_and_no_other_byte_changes(pieces, fixed) -> None:
    want = expected_text(pieces)
    if fixed.text != want:  # name the first entry that differs, not a 300 kB diff
        for piece in pieces:
            if piece.paper:
                assert upgraded(piece) in fixed.text, (piece.form, piece.key, piece.text)
            else:
                assert piece.text in fixed.text, (piece.form, piece.text)
    assert fixed.text == want


@pytest.mark.parametrize("options", [{"fmt": "biblatex"}, {"abstract": True, "strict": True},
                                     {"abstract": False}])
def test_formats_and_options(pieces, corpus, volume, options) -> None:
    result = fix_bibtex_report(corpus, papers=volume, **options)
    assert result.text == expected_text(pieces, **options)


def test_report_names_every_match_and_every_ambiguous_entry(pieces, fixed) -> None:
    reports = {(e.key, e.line): e for e in fixed.entries}
    by_key: dict[str, list] = {}
    for entry in fixed.entries:
        by_key.setdefault(entry.key, []).append(entry)
    for piece in pieces:
        if piece.paper:
            (entry,) = by_key[piece.key]
            assert entry.paper == piece.paper.id, (piece.form, entry)
            assert entry.outcome == ("unchanged" if piece.form == "verified" else "changed"), piece.form
            assert entry.evidence in ("openreview", "pmlr", "arxiv", "title")
    ambiguous = {e.key for e in fixed.ambiguous}
    assert ambiguous == {p.key for p in pieces if p.ambiguous}
    assert all(e.reason and e.candidates for e in fixed.ambiguous)
    assert len(reports) == len(fixed.entries)
    icml = sum(1 for p in pieces if p.paper)
    assert sum(fixed.found.values()) == icml == fixed.changed + fixed.count("unchanged")
    classics = fix_corpus.CLASSICS.count("\n@") + 1
    assert fixed.entries_read == sum(1 for p in pieces if p.key or p.form in ("other", "proceedings")) + classics
    summary = fixed.summary()
    assert f"{icml} ICML 2026 papers found" in summary and f"{len(ambiguous)} ambiguous" in summary


def test_found_by_each_kind_of_evidence(fixed, volume) -> None:
    found = fixed.found
    assert found["openreview"] and found["pmlr"] and found["title"]
    if any(p.identifiers.arxiv for p in volume):
        assert found["arxiv"]


def test_fix_is_idempotent(fixed, volume) -> None:
    again = fix_bibtex_report(fixed.text, papers=volume)
    assert again.text == fixed.text
    assert again.changed == 0 and again.count("unchanged") == sum(fixed.found.values())


@pytest.mark.parametrize("options", [{"fmt": "biblatex"}, {"abstract": True}, {"strict": True}])
def test_fix_is_idempotent_with_options(corpus, volume, options) -> None:
    once = fix_bibtex_report(corpus, papers=volume, **options).text
    assert fix_bibtex_report(once, papers=volume, **options).text == once


def test_keys_and_entry_order_are_kept(corpus, fixed) -> None:
    import bibtexparser
    from bibtexparser.bparser import BibTexParser

    def keys(text: str) -> list[str]:
        parser = BibTexParser(common_strings=True, ignore_nonstandard_types=False)
        return [e["ID"] for e in bibtexparser.loads(text, parser).entries]

    assert keys(fixed.text) == keys(corpus)


def test_result_compiles_with_bibtex(tmp_path, pieces, fixed) -> None:
    for tool in ("pdflatex", "bibtex"):
        if shutil.which(tool) is None:
            pytest.skip(f"TeX is not installed here ({tool} not on PATH); .ci/install-system installs it")
    (tmp_path / "refs.bib").write_text(fixed.text, encoding="utf-8", newline="")
    (tmp_path / "doc.tex").write_text(NATBIB_DOC, encoding="utf-8")
    latex = ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", "doc"]
    for cmd in (latex, ["bibtex", "doc"], latex):
        done = subprocess.run(cmd, check=False, cwd=tmp_path, capture_output=True, encoding="utf-8", errors="replace",
                              timeout=600)
        # bibtex exits 1 for warnings (the user's own entries may lack fields), 2 for errors.
        assert done.returncode in ((0, 1) if cmd[0] == "bibtex" else (0,)), done.stdout[-3000:]
    blg = (tmp_path / "doc.blg").read_text(encoding="utf-8", errors="replace")
    assert "error message" not in blg, blg
    upgraded_keys = {p.key for p in pieces if p.paper}
    assert not [line for line in blg.splitlines() if line.startswith("Warning--")
                and any(re.search(rf"\b{re.escape(k)}\b", line) for k in upgraded_keys)]
    bbl = (tmp_path / "doc.bbl").read_text(encoding="utf-8", errors="replace")
    items = dict(re.findall(r"\\bibitem\[(?:[^\[\]]|\[[^\]]*\])*\]\{([^}]+)\}(.*?)(?=\\bibitem|\\end\{thebib)",
                            bbl, re.DOTALL))
    for piece in pieces:
        if piece.paper:
            item = re.sub(r"\s+", " ", items[piece.key]).replace("{", "").replace("}", "")  # case braces
            assert "Proceedings of the 43rd International Conference on Machine Learning" in item
            assert f"{piece.paper.pages.first}--{piece.paper.pages.last}" in item


# --------------------------------------------------------------------------- the matching rules

def entry_for(volume, pid: str) -> dict[str, str]:
    return fix_corpus.exported_fields(volume[pid])


@pytest.fixture(scope="module")
def sample(volume):
    """Papers with a subtitle, a Position: title, an arXiv id, former titles."""
    complete = list(volume.complete)
    colon = next(p for p in complete if ": " in (p.title or "") and "\\" not in p.title and "$" not in p.title
                 and len(p.title.split(": ")[0].split()) >= 4 and len(p.authors) >= 3)
    return {"colon": colon, "plain": complete[len(complete) // 2]}


def one(volume, text: str, **options):
    result = fix_bibtex_report(text, papers=volume, **options)
    return result, (result.entries[0] if result.entries else None)


@pytest.mark.parametrize("field", [
    "openreview = {{{openreview}}}",
    "note = {{\\url{{https://openreview.net/forum?id={openreview}}}}}",
    "howpublished = {{https://openreview.net/pdf?id={openreview}}}",
    "url = {{https://proceedings.mlr.press/v306/{pmlr}.html}}",
    "pdf = {{https://raw.githubusercontent.com/mlresearch/v306/main/assets/{pmlr}/{pmlr}.pdf}}",
])
def test_identifiers_alone_are_enough(volume, sample, field) -> None:
    paper = sample["plain"]
    value = field.format(openreview=paper.identifiers.openreview, pmlr=paper.identifiers.pmlr)
    _, entry = one(volume, f"@misc{{mine,\n  {value}\n}}\n")
    assert entry.outcome == "changed" and entry.paper == paper.id
    assert entry.evidence == ("pmlr" if "v306" in value else "openreview")


def test_pmlr_key_and_arxiv_ids(volume) -> None:
    paper = next(p for p in volume.complete if p.identifiers.pmlr)
    _, entry = one(volume, f"@misc{{pmlr-v306-{paper.identifiers.pmlr},\n  title = {{Anything}}\n}}\n")
    assert entry.paper is None and entry.outcome == "ambiguous"  # the key names it, the title does not
    _, entry = one(volume, f"@misc{{pmlr-v306-{paper.identifiers.pmlr},\n  year = {{2026}}\n}}\n")
    assert entry.paper == paper.id and entry.evidence == "pmlr"
    arxiv = next((p for p in volume.complete if p.identifiers.arxiv), None)
    if arxiv is None:
        pytest.skip("no packaged paper has an arXiv id")
    aid = arxiv.identifiers.arxiv
    for value in (f"eprint = {{{aid}v2}}, archivePrefix = {{arXiv}}", f"journal = {{arXiv preprint arXiv:{aid}}}",
                  f"url = {{https://arxiv.org/abs/{aid}}}", f"doi = {{10.48550/arXiv.{aid}}}"):
        _, entry = one(volume, f"@article{{a,\n  {value}\n}}\n")
        assert (entry.paper, entry.evidence) == (arxiv.id, "arxiv"), value
    other = "2512.99999"
    _, entry = one(volume, f"@article{{a,\n  title = {{A Different Paper Entirely About Cats}},\n  "
                           f"eprint = {{{other}}}\n}}\n")
    assert entry is None  # an arXiv id the package does not know is no evidence


def test_conflicting_or_pasted_identifiers_are_ambiguous(volume, sample) -> None:
    a, b = sample["plain"], sample["colon"]
    result, entry = one(volume, f"@misc{{x,\n  openreview = {{{a.identifiers.openreview}}},\n  url = "
                                f"{{https://proceedings.mlr.press/v306/{b.identifiers.pmlr}.html}}\n}}\n")
    assert entry.outcome == "ambiguous" and set(entry.candidates) == {a.id, b.id}
    assert result.text.startswith("@misc{x,")


def test_title_tolerances(volume, sample) -> None:
    paper = sample["colon"]
    title = fix_corpus.unbraced(entry_for(volume, paper.id)["title"])
    main, _, sub = title.partition(": ")
    first = paper.authors[0]
    author = f"{first.given or ''} {first.family} and others"
    for variant in (title.upper(), title.replace("{", "").replace("}", ""), f"{sub}: {main}",
                    "{" + title + "}", title.replace(" ", "  ").replace(":", " :"), main):
        _, entry = one(volume, f"@inproceedings{{k,\n  title = {{{variant}}},\n  author = {{{author}}}\n}}\n")
        assert entry is not None and (entry.paper, entry.evidence) == (paper.id, "title"), variant


def test_position_prefix_and_former_titles(volume) -> None:
    position = next((p for p in volume.complete if (p.title or "").startswith("Position: ")
                     and "\\" not in p.title and "$" not in p.title), None)
    if position is not None:
        bare = position.title[len("Position: "):]
        _, entry = one(volume, f"@misc{{k, title = {{{bare}}}, author = {{{position.authors[0].family}, X.}}}}")
        assert entry.paper == position.id
    former = next((p for p in volume.complete if p.former_titles), None)
    if former is None:
        pytest.skip("no packaged paper has a former title")
    old = re.sub(r"\s*\([^()]*\)$", "", former.former_titles[-1])
    _, entry = one(volume, f"@misc{{k, title = {{{old}}}, author = {{{former.authors[0].family}, X.}}}}")
    assert entry.paper == former.id


def test_latex_accents_in_authors_confirm_the_title(volume) -> None:
    paper = next(p for p in volume.complete if any(ord(c) > 127 for c in (p.authors[0].family or ""))
                 and "\\" not in (p.title or "") and "$" not in (p.title or ""))
    f = entry_for(volume, paper.id)
    assert "\\" in f["author"].split(" and ")[0]  # the package writes LaTeX accents
    _, entry = one(volume, f"@misc{{k, title = {f['title']}, author = {f['author']}}}")
    assert entry.paper == paper.id
    unicode_names = " and ".join(fix_corpus.given_family(a) for a in paper.authors)
    _, entry = one(volume, f"@misc{{k, title = {f['title']}, author = {{{unicode_names}}}}}")
    assert entry.paper == paper.id


@pytest.mark.parametrize("extra, why", [
    ("booktitle = {Advances in Neural Information Processing Systems}", "another venue"),
    ("booktitle = {ICML 2026 Workshop on Agents}", "another venue"),
    ("booktitle = {Proceedings of the 42nd International Conference on Machine Learning}", "another venue"),
    ("booktitle = {Forty-second International Conference on Machine Learning}", "another venue"),
    ("booktitle = {ICML 2025}", "another venue"),
    ("year = {2019}", "year is 2019"),
    ("doi = {10.1109/CVPR.2026.001}", "DOI"),
    ("url = {https://doi.org/10.1145/3600000.3600001}", "DOI"),
    ("url = {https://proceedings.mlr.press/v235/x24a.html}", "PMLR volume 235"),
    ("url = {https://openreview.net/forum?id=AAAAAAAAAA}", "OpenReview id AAAAAAAAAA"),
])
def test_same_title_and_authors_but_another_publication(volume, sample, extra, why) -> None:
    f = entry_for(volume, sample["plain"].id)
    text = f"@inproceedings{{k,\n  title = {f['title']},\n  author = {f['author']},\n  {extra}\n}}\n"
    result, entry = one(volume, text)
    assert entry.outcome == "ambiguous" and why in entry.reason and result.text == text


@pytest.mark.parametrize("extra", [
    "journal = {arXiv preprint arXiv:2001.01234}, year = {2025}",  # not "a venue of 2001"
    "booktitle = {Proceedings of the 43rd International Conference on Machine Learning, {ICML} 2026}",
    "booktitle = icmlmacro, month = jul",
    "journal = {CoRR}, volume = {abs/2510.01234}, doi = {10.48550/arXiv.2510.01234}",
])
def test_same_title_and_authors_in_icml_or_preprint_form_is_upgraded(volume, sample, extra) -> None:
    f = entry_for(volume, sample["plain"].id)
    text = ("@string{icmlmacro = {Forty-third International Conference on Machine Learning}}\n"
            f"@article{{k,\n  title = {f['title']},\n  author = {f['author']},\n  {extra}\n}}\n")
    _, entry = one(volume, text)
    assert (entry.outcome, entry.evidence) == ("changed", "title"), entry


def test_known_arxiv_id_of_any_year(volume) -> None:
    paper = next((p for p in volume.complete if p.identifiers.arxiv), None)
    if paper is None:
        pytest.skip("no packaged paper has an arXiv id")
    text = f"@misc{{k, title = {{Old Preprint Title}}, author = {{{paper.authors[0].family}, A.}}, " \
           f"year = {{2023}}, eprint = {{{paper.identifiers.arxiv}}}}}"
    _, entry = one(volume, text)
    assert (entry.outcome, entry.paper) == ("changed", paper.id)
    _, entry = one(volume, text.replace("year", "booktitle = {NeurIPS}, year"))
    assert entry.outcome == "ambiguous" and "another venue" in entry.reason


def test_other_authors_two_candidates_and_non_paper_types(volume, sample) -> None:
    paper = sample["plain"]
    f = entry_for(volume, paper.id)
    text = f"@inproceedings{{k,\n  title = {f['title']},\n  author = {{Nobody, Anne and Else, Bob}}\n}}\n"
    _, entry = one(volume, text)
    assert entry.outcome == "ambiguous" and "authors are not" in entry.reason
    _, entry = one(volume, f"@inproceedings{{k,\n  title = {f['title']}\n}}\n")
    assert entry.outcome == "ambiguous" and "no authors" in entry.reason
    twin = dataclasses.replace(paper, id="pmlr-v306-twin26a", citation_key="twin2026",
                               identifiers=dataclasses.replace(paper.identifiers, pmlr="twin26a",
                                                               openreview="TwinTwin01"))
    text = f"@inproceedings{{k,\n  title = {f['title']},\n  author = {f['author']}\n}}\n"
    _, entry = one(icml2026.PaperCollection([*volume, twin]), text)
    assert entry.outcome == "ambiguous" and set(entry.candidates) == {paper.id, twin.id}
    for kind in ("book", "phdthesis", "proceedings"):
        result, entry = one(volume, text.replace("@inproceedings", "@" + kind))
        assert entry is None and result.text == text.replace("@inproceedings", "@" + kind)


def test_user_fields_kept_publication_fields_replaced(volume, sample) -> None:
    paper = sample["plain"]
    f = entry_for(volume, paper.id)
    text = (f"@article{{mykey,\n  title = {f['title']},\n  author = {f['author']},\n  journal = {{arXiv preprint}},\n"
            "  Keywords = {a, b},\n  file = mymacro # {.pdf},\n  note = {see p. 3},\n  primaryclass = {cs.LG},\n"
            "  timestamp = {x},\n  crossref = {proc},\n  shorttitle = {Short}\n}")
    result, _ = one(volume, text)
    assert result.text.startswith("@inproceedings{mykey,\n")
    assert result.text.endswith("  Keywords = {a, b},\n  file = mymacro # {.pdf},\n  note = {see p. 3},\n"
                                "  shorttitle = {Short}\n}")
    for gone in ("journal", "primaryclass", "timestamp", "crossref"):
        assert f"  {gone} = " not in result.text
    strict, _ = one(volume, text, strict=True)
    assert strict.text == upgraded(Piece(text, "mykey", paper))


def test_bytes_around_entries_crlf_and_bom_are_kept(volume, sample) -> None:
    paper = sample["plain"]
    f = entry_for(volume, paper.id)
    entry = (f"@misc{{k,\r\n  openreview = {{{paper.identifiers.openreview}}},\r\n  title = {f['title']},\r\n"
             "  note = {two\r\n    lines}\r\n}")
    text = "\ufeff% head\r\n@string{x = {y}}\r\n" + entry + "  trailing junk } {\r\n@misc{other, title = x}"
    result, report = one(volume, text)
    new = upgraded(Piece(entry, "k", paper, ("note = {two\n    lines}",)))
    assert result.text == text.replace(entry, new) and "\r\n" in new and "\n" not in new.replace("\r\n", "")
    assert report.outcome == "changed"


def test_unreadable_entries_and_edge_input(volume, sample) -> None:
    paper = sample["plain"]
    good = f"@misc{{g, openreview = {{{paper.identifiers.openreview}}}}}"
    text = "@misc{bad, title = {x} junk}\n@misc{open, title = {x}\n" + good + "\n"
    result = fix_bibtex_report(text, papers=volume)
    assert [e.outcome for e in result.entries] == ["unreadable", "unreadable", "changed"]
    assert result.text.startswith("@misc{bad, title = {x} junk}\n@misc{open, title = {x}\n@inproceedings{g,")
    for nothing in ("", "no entries at all\n", "@comment{x}", "% @misc{k, openreview = {x}}"):
        assert fix_bibtex_report(nothing, papers=volume).text == nothing
    with pytest.raises(UsageError):
        fix_bibtex_report(text, papers=volume, fmt="ris")
    assert icml2026.fix_bibtex(good, papers=volume).startswith("@inproceedings{g,")


def test_paren_entry_with_parenthesis_in_a_quoted_title(volume, sample) -> None:
    paper = sample["plain"]
    text = (f'@misc( k , note = "on (M)LLMs)" , openreview = "{paper.identifiers.openreview}" )\n'
            '@misc{after, title = {x}}')
    result, entry = one(volume, text)
    assert entry.outcome == "changed" and result.text.endswith("}\n@misc{after, title = {x}}")


# --------------------------------------------------------------------------- the command

def cli(*args: str, cwd: Path | None = None, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "icml2026", "fix", *args], check=False, capture_output=True,
                          cwd=cwd, input=stdin, timeout=120)


@pytest.fixture(scope="module")
def small_bib(volume, sample) -> str:
    paper = sample["plain"]
    f = entry_for(volume, paper.id)
    return ("% my refs\n@misc{ours,\n  title = " + f["title"] + ",\n  author = " + f["author"]
            + ",\n  openreview = {" + paper.identifiers.openreview + "},\n  keywords = {k}\n}\n\n"
            "@book{other, title = {Other}, author = {A, B}, year = 1999}\n"
            "@inproceedings{near, title = " + f["title"] + ", author = {Nobody, N.}}\n")


def test_cli_stdout_output_file_and_summary(tmp_path, small_bib, volume) -> None:
    source = tmp_path / "refs.bib"
    source.write_bytes(small_bib.encode())
    want = fix_bibtex_report(small_bib, papers=volume).text
    done = cli(str(source))
    assert done.returncode == 0 and done.stdout.decode() == want
    stderr = done.stderr.decode()
    assert "near: ambiguous" in stderr
    assert stderr.splitlines()[-1] == (f"icml2026: {source}: 3 entries read; 1 ICML 2026 papers found "
                                       "(by OpenReview id 1); 1 changed, 0 already verified; "
                                       "1 ambiguous (left as they were)")
    assert cli(str(source), "-o", str(tmp_path / "out.bib")).returncode == 0
    assert (tmp_path / "out.bib").read_text() == want and source.read_text() == small_bib
    done = cli("-", stdin=small_bib.encode())
    assert done.returncode == 0 and done.stdout.decode() == want


def test_cli_in_place_backup_and_dry_run(tmp_path, small_bib, volume) -> None:
    source = tmp_path / "refs.bib"
    source.write_bytes(small_bib.encode())
    os.chmod(source, 0o600)
    want = fix_bibtex_report(small_bib, papers=volume).text
    diff = cli(str(source), "--dry-run")
    assert diff.returncode == 0 and source.read_text() == small_bib
    text = diff.stdout.decode()
    assert text.startswith(f"--- a/{source}\n+++ b/{source}\n@@ ")
    assert "-@misc{ours,\n" in text and "+@inproceedings{ours,\n" in text
    if shutil.which("patch"):
        copy = tmp_path / "copy.bib"
        copy.write_text(small_bib)
        subprocess.run(["patch", "-s", str(copy)], input=text, text=True, check=True)
        assert copy.read_text() == want
    assert cli(str(source), "--in-place").returncode == 0
    assert source.read_text() == want and (tmp_path / "refs.bib.orig").read_text() == small_bib
    assert source.stat().st_mode & 0o777 == 0o600
    (tmp_path / "refs.bib.orig").unlink()
    assert cli(str(source), "--in-place", "--no-backup").returncode == 0  # nothing left to change
    assert not (tmp_path / "refs.bib.orig").exists() and source.read_text() == want
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary files left


def test_cli_formats_report_json_and_errors(tmp_path, small_bib) -> None:
    source = tmp_path / "refs.bib"
    source.write_bytes(small_bib.encode())
    done = cli(str(source), "--format", "biblatex", "--strict", "--report", "json")
    assert done.returncode == 0
    assert b"\n  date = {2026},\n" in done.stdout.split(b"@book")[0]  # BibLaTeX's field
    assert b"keywords" not in done.stdout.split(b"@book")[0]
    report = json.loads(done.stderr)
    assert report["file"] == str(source) and report["entries_read"] == 3 and report["changed"] == 1
    assert report["found"]["openreview"] == 1 and report["ambiguous"] == 1
    assert [e["outcome"] for e in report["entries"]] == ["changed", "ambiguous"]
    bad = tmp_path / "latin1.bib"
    raw = "% ok\n@misc{k, title = {Caf\u00e9}}\n".encode("latin-1")
    bad.write_bytes(raw)
    for args, message in ((["missing.bib"], "missing.bib: cannot read: No such file or directory"),
                          ([str(bad)], f"{bad}: not valid UTF-8 (byte {raw.index(0xe9)}, line 2)"),
                          ([str(source), "--no-backup"], "--no-backup goes with --in-place")):
        done = cli(*args, cwd=tmp_path)
        lines = done.stderr.decode().splitlines()
        assert done.returncode in (1, 2) and len(lines) == 1 and message in lines[0], lines


# --------------------------------------------------------------------------- other venues (issue 28)

def _same_paper(volume, sample) -> tuple[str, str]:
    f = entry_for(volume, sample["plain"].id)
    return f["title"], f["author"]


@pytest.mark.parametrize("form", ["crossref", "chain", "xdata", "howpublished", "organization", "note",
                                  "icml2024", "icml2025"])
def test_same_title_and_authors_at_another_venue_is_left_alone(volume, sample, form) -> None:
    title, author = _same_paper(volume, sample)
    paper = f"  title = {title},\n  author = {author},\n"
    text = {
        "crossref": f"@inproceedings{{k,\n{paper}  crossref = {{nips}}\n}}\n"
                    "@proceedings{nips, title = {Advances in Neural Information Processing Systems 38}, year = 2025}\n",
        "chain": f"@inproceedings{{k,\n{paper}  crossref = {{mid}}\n}}\n@proceedings{{mid, crossref = {{top}}, year = 2025}}\n"
                 "@proceedings{top, booktitle = {Advances in Neural Information Processing Systems}}\n",
        "xdata": f"@inproceedings{{k,\n{paper}  xdata = {{nd}}\n}}\n"
                 "@xdata{nd, booktitle = {Advances in Neural Information Processing Systems}, date = {2025}}\n",
        "howpublished": f"@misc{{k,\n{paper}  howpublished = {{NeurIPS}}\n}}\n",
        "organization": f"@inproceedings{{k,\n{paper}  organization = {{NeurIPS}}, year = 2025\n}}\n",
        "note": f"@misc{{k,\n{paper}  note = {{NeurIPS 2025 Workshop on Agents}}\n}}\n",
        "icml2024": f"@inproceedings{{k,\n{paper}  booktitle = {{International Conference on Machine Learning}},\n"
                    "  year = {2024}, volume = {235}, series = {Proceedings of Machine Learning Research}\n}\n",
        "icml2025": f"@inproceedings{{k,\n{paper}  booktitle = {{Proceedings of Machine Learning Research}},\n"
                    "  year = {2025}, volume = {267}\n}\n",
    }[form]
    result = fix_bibtex_report(text, papers=volume)
    assert result.text == text
    (entry,) = [e for e in result.entries if e.key == "k"]
    assert entry.outcome == "ambiguous" and ("venue" in entry.reason or "volume" in entry.reason), entry


# --------------------------------------------------------------------------- dialect and change report

@pytest.mark.parametrize("fmt", ["bibtex", "biblatex"])
def test_verified_entry_in_either_dialect_is_unchanged(volume, sample, fmt) -> None:
    text = icml2026.export([sample["plain"], sample["colon"]], fmt)
    result = fix_bibtex_report(text, papers=volume)
    assert result.text == text and [e.outcome for e in result.entries] == ["unchanged", "unchanged"]


def test_biblatex_entry_stays_biblatex_and_every_change_is_reported(volume, sample) -> None:
    paper = sample["plain"]
    good = icml2026.export([paper], "biblatex")
    wrong = good.replace(f"pages = {{{paper.pages.as_text('--')}}}", "pages = {1--5}")
    assert wrong != good
    result = fix_bibtex_report(wrong, papers=volume)
    assert result.text == good
    (entry,) = result.entries
    assert [(c.field, c.old, c.new) for c in entry.changes] == [("pages", "1--5", paper.pages.as_text("--"))]
    assert str(entry).endswith(f"changed: pages '1--5' → '{paper.pages.as_text('--')}'")
    converted = fix_bibtex_report(wrong, papers=volume, fmt="bibtex").text  # asked for: BibTeX
    assert "  year = {2026},\n" in converted and "  date = " not in converted


# --------------------------------------------------------------------------- hostile input (issue 28)

def test_deep_nesting_is_an_unreadable_entry(volume, sample) -> None:
    title, author = _same_paper(volume, sample)
    deep_title = "@misc{deep, title = {" + "\\emph{" * 400 + "x" + "}" * 400 + "}}\n"
    deep_name = "@misc{name, title = " + title + ", author = {" + "{\\'" * 300 + "e" + "}" * 300 + "}}\n"
    text = deep_title + deep_name
    result = fix_bibtex_report(text, papers=volume)
    assert result.text == text
    assert [(e.key, e.outcome) for e in result.entries] == [("deep", "unreadable"), ("name", "unreadable")]
    assert "nested more than" in result.entries[0].reason
    environments = "@misc{env, title = {" + "\\begin{x}" * 500 + "y" + "\\end{x}" * 500 + "}}\n"
    result = fix_bibtex_report(environments, papers=volume)  # no deep braces: the decoder's depth
    assert result.text == environments and result.entries[0].outcome == "unreadable"


def test_one_line_file_reads_as_the_same_entries(volume, sample) -> None:
    title, author = _same_paper(volume, sample)
    one = f"@misc{{a, title = {title}, author = {author}}}"
    entries = [one.replace("{a,", f"{{a{i},") for i in range(50)]
    flat = fix_bibtex_report(" ".join(entries), papers=volume)
    lines = fix_bibtex_report("\n".join(entries), papers=volume)
    assert [e.outcome for e in flat.entries] == [e.outcome for e in lines.entries] == ["changed"] * 50


def test_cli_refuses_devices_fifos_and_oversized_files(tmp_path, monkeypatch) -> None:
    fifo = tmp_path / "pipe.bib"
    os.mkfifo(fifo)
    for name in ("/dev/zero", str(fifo), str(tmp_path)):
        done = cli(name)
        lines = done.stderr.decode().splitlines()
        assert done.returncode == 1 and len(lines) == 1 and "cannot read" in lines[0], lines
    big = tmp_path / "big.bib"
    with big.open("wb") as handle:  # sparse: no disk space used
        handle.truncate(64 * 1024 * 1024 + 1)
    done = cli(str(big))
    assert done.returncode == 1 and b"at most" in done.stderr and len(done.stderr.splitlines()) == 1


def test_in_place_never_overwrites_a_backup_nor_follows_a_link(tmp_path, small_bib, volume) -> None:
    source = tmp_path / "refs.bib"
    source.write_text(small_bib)
    tex = tmp_path / "paper.tex"
    tex.write_text("\\documentclass{article}\n")
    (tmp_path / "refs.bib.orig").symlink_to(tex)
    done = cli(str(source), "--in-place")
    assert done.returncode == 0 and tex.read_text() == "\\documentclass{article}\n"
    assert (tmp_path / "refs.bib.orig.1").read_text() == small_bib
    assert f"kept as {tmp_path / 'refs.bib.orig.1'}" in done.stderr.decode()
    fixed = source.read_text()
    source.write_text(fixed.replace("keywords = {k}", "keywords = {k2}") + "@misc{x, title = "
                      + entry_for(volume, volume.complete[0].id)["title"] + ", author = {"
                      + volume.complete[0].authors[0].family + ", A.}, openreview = {"
                      + volume.complete[0].identifiers.openreview + "}}\n")
    second = source.read_text()
    assert cli(str(source), "--in-place").returncode == 0
    assert (tmp_path / "refs.bib.orig.1").read_text() == small_bib  # the first original survives
    assert (tmp_path / "refs.bib.orig.2").read_text() == second
