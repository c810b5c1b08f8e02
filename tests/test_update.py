"""``icml2026 update``: PMLR's published corrections as a layer in the user's data folder.

Every network test runs against ``tests/pmlr_server.py``, a real HTTP server on
127.0.0.1 serving the packaged volume rendered in PMLR's published format with a
few corrections, and the faults of a real network.  ``ICML2026_DATA_DIR`` points
the layer at a temporary folder; nothing outside it is written.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from pmlr_server import (
    SOURCES,
    PmlrServer,
    entry,
    published_from_sources,
    render_published,
    source_entries,
    source_entry,
)

import icml2026
from icml2026.cli import main
from icml2026.update import baseline
from icml2026.update import layer as L
from icml2026.update.download import UpdateError, check_url, fetch
from icml2026.update.published import record_problems

TODAY = datetime.now(UTC).date().isoformat()
LAYER = Path("corrections") / "pmlr-v306.json"
NEW_PDF = "https://raw.githubusercontent.com/mlresearch/v306/main/assets/witter26a/witter26a-v2.pdf"
LONG_TITLE = "Corrected " + "very " * 240 + "long title"  # 1,220 characters: the schema allows 1,000


# --------------------------------------------------------------------------- the test volume

@pytest.fixture(scope="module")
def packaged() -> icml2026.PaperCollection:
    return icml2026.load(corrections=False)


def source_field(pmlr_id: str, name: str) -> str:
    return source_entry(pmlr_id).fields[name]


def corrections() -> dict[str, dict[str, str]]:
    """PMLR's corrections in the served file: changed fields of the source entries, as PMLR writes them.

    Ten corrections of several kinds: an author's name, title words (one in a title the
    package repaired, one in a title it case-protects), pages, two seed papers, a PDF link;
    two that PMLR made exactly as the package had already repaired them; one whose title
    the schema refuses.
    """
    return {
        "abbadi26a": {"author": source_field("abbadi26a", "author").replace("Panayotis", "Panagiotis")},
        "abbas26a": {"title": source_field("abbas26a", "title").replace("A lazy,", "A simple,")},
        "abas26a": {"pages": "1--20"},
        "li26d": {"title": source_field("li26d", "title").replace(" via ", " with ")},  # a seed paper
        "witter26a": {"pdf": NEW_PDF},  # a seed paper
        "aissi26a": {"title": source_field("aissi26a", "title").replace(  # ends in a full stop
            "Perception Reasoning Interleaved", "Perception-Reasoning Interleaving")},
        "elsborg26a": {"title": source_field("elsborg26a", "title").replace("a Blink", "a Flash")},
        # As the package repaired them: no change.
        "mundra26a": {"title": source_field("mundra26a", "title").replace("LAPRAS :", "LAPRAS:").rstrip(".")},
        "hu26ar": {"author": source_field("hu26ar", "author").replace("Hu, Xinyi.", "Hu, Xinyi")},
        "he26au": {"title": LONG_TITLE},
    }


# (paper, field, what load() gives after the update), written out from the corrections above.
EXPECTED = {
    ("pmlr-v306-abbadi26a", "/authors"): [{"family": "Abbadi", "given": "Omar"}, {"family": "Laraki", "given": "Rida"},
                                          {"family": "Mertikopoulos", "given": "Panagiotis"}],
    ("pmlr-v306-abbas26a", "/title"): "QuantumBoost: A simple, yet fast, quantum algorithm for learning with weak "
                                      "hypotheses",
    ("pmlr-v306-abas26a", "/pages"): {"first": 1, "last": 20},
    ("pmlr-v306-li26d", "/title"): "PragLocker: Protecting Agent Intellectual Property in Untrusted Deployments "
                                   "with Non-Portable Prompts",
    ("pmlr-v306-witter26a", "/links/pdf"): NEW_PDF,
    # PMLR's final full stop is removed again, as the build removed it.
    ("pmlr-v306-aissi26a", "/title"): "PRISM: Perception-Reasoning Interleaving for Sequential Decision Making",
    ("pmlr-v306-elsborg26a", "/title"): "Global Plane Waves from Local Gaussians: Periodic Charge Densities in a Flash",
}
CHANGED = {paper for paper, _ in EXPECTED}


def layer_rows(lay: L.Layer) -> dict[tuple[str, str], Any]:
    return {(c.paper, c.pointer): c.new for c in lay.corrections}


def source_block(pmlr_id: str) -> str:
    """One entry of the unchanged published file."""
    whole = published_from_sources()
    start = whole.index(f"@InProceedings{{pmlr-v306-{pmlr_id},")
    return whole[start:whole.index("\n}\n", start) + 3]


@pytest.fixture(scope="module")
def published() -> str:
    extra = source_block("li26d").replace("li26d", "zzz26a")
    return published_from_sources(overrides=corrections(), drop=["gu26b"], extra=[extra])


@pytest.fixture(scope="module")
def server(published: str) -> Iterator[PmlrServer]:
    with PmlrServer(published) as running:
        yield running


class Run:
    """One in-process ``icml2026`` run: exit code, standard output, standard error."""

    def __init__(self, capsys: pytest.CaptureFixture[str], *args: str) -> None:
        capsys.readouterr()
        self.code = main(list(args))
        captured = capsys.readouterr()
        self.out, self.err = captured.out, captured.err

    def __repr__(self) -> str:
        return f"Run(code={self.code}, out={self.out!r}, err={self.err!r})"


@pytest.fixture(scope="module")
def first_update(tmp_path_factory: pytest.TempPathFactory, server: PmlrServer) -> dict[str, Any]:
    """One successful update against the server: the layer it stored and what it printed."""
    folder = tmp_path_factory.mktemp("first-update")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(L.ENV_DIR, str(folder))
        import io
        from contextlib import redirect_stderr, redirect_stdout

        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            code = main(["update", "--url", server.url("ok")])
    return {"code": code, "out": out.getvalue(), "err": err.getvalue(),
            "layer": (folder / LAYER).read_bytes(), "requests": len(server.requests)}


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(L.ENV_DIR, str(tmp_path))
    return tmp_path


@pytest.fixture
def updated(data_dir: Path, first_update: dict[str, Any]) -> Path:
    """A data folder holding the layer of the first update."""
    (data_dir / LAYER).parent.mkdir(parents=True)
    (data_dir / LAYER).write_bytes(first_update["layer"])
    return data_dir / LAYER


def records(papers: icml2026.PaperCollection) -> list[dict[str, Any]]:
    return [p.to_dict() for p in papers]


# --------------------------------------------------------------------------- the published format

def test_generated_file_has_the_template_shape(published: str, packaged: icml2026.PaperCollection) -> None:
    head, first = published.split("\n\n\n")[:2]
    assert head.startswith("@Proceedings{ICML2026,\n  title =     {Proceedings of the 43rd")
    assert "\n  volume =    306\n}" in head and "year" not in head
    assert first.startswith("@InProceedings{pmlr-v306-")
    names = re.findall(r"^  ([a-z]+) =[ \t]", first, re.MULTILINE)
    assert names[:12] == ["title", "author", "booktitle", "pages", "year", "editor", "volume", "series",
                          "month", "publisher", "pdf", "url"]
    assert "  month = \t {06--11 Jul}," in first and "  author =       {" in first
    every = set(re.findall(r"^  ([a-z]+) =[ \t]", published, re.MULTILINE))
    assert not every & {"openreview", "software", "address"}


def test_import_reads_the_published_format(packaged: icml2026.PaperCollection) -> None:
    result = icml2026.read_bibtex_report(render_published(packaged))
    assert not result.problems
    proc = result.proceedings[0]
    assert (proc.id, proc.year, proc.volume, proc.publisher) == ("pmlr-v306", 2026, 306, "PMLR")
    assert [e.family for e in proc.editors] == [e.family for e in packaged["li26d"].proceedings.editors]
    paper = result.papers["pmlr-v306-witter26a"]
    mine = packaged["pmlr-v306-witter26a"]
    assert (paper.id, paper.identifiers.pmlr, paper.alias_keys[0]) == (mine.id, "witter26a", mine.id)
    assert (paper.title, paper.title_protect, paper.authors, paper.pages, paper.links.pdf) == (
        mine.title, mine.title_protect, mine.authors, mine.pages, mine.links.pdf)
    # Entries copied without the header (a paper page's BibTeX): ids and proceedings from the entry.
    alone = entry(mine)
    found = icml2026.read_bibtex_report(alone)
    assert not found.problems and found.papers[0].id == "pmlr-v306-witter26a"
    proc = found.papers[0].proceedings
    assert (proc.booktitle, proc.year, proc.volume, len(proc.editors)) == (mine.proceedings.booktitle, 2026, 306, 10)
    assert found.papers[0].is_complete


# --------------------------------------------------------------------------- a correct update

def test_update_stores_exactly_the_expected_corrections(first_update: dict[str, Any], published: str,
                                                         packaged: icml2026.PaperCollection) -> None:
    """Ten corrections in the file: the seven PMLR made and the package had not already made."""
    assert first_update["code"] == 0, first_update
    data = json.loads(first_update["layer"])
    lay = L.Layer.from_json(data)
    assert layer_rows(lay) == EXPECTED
    assert {c.paper: c.old for c in lay.corrections if c.pointer == "/title"}["pmlr-v306-aissi26a"] == (
        "PRISM: Perception Reasoning Interleaved for Sequential Decision Making")  # as packaged
    sha = hashlib.sha256(published.encode("utf-8")).hexdigest()
    assert lay.sha256 == sha and lay.source.retrieved == TODAY
    assert lay.source.url and lay.source.url.endswith("/ok/bibliography.bib")
    assert sha in lay.source.name
    assert lay.unknown == ("pmlr-v306-zzz26a",) and lay.missing == ("pmlr-v306-gu26b",)
    assert lay.http and lay.http["etag"] and lay.http["last_modified"]
    err = first_update["err"]
    assert "1 entry of the download is not a packaged paper (not added): pmlr-v306-zzz26a" in err
    assert "1 packaged paper is not in the download (kept as packaged): pmlr-v306-gu26b" in err
    assert re.search(r"/ok/bibliography.bib: line [0-9]+: pmlr-v306-he26au: /title: text is 1220 "
                     "characters long; at most 1000 allowed", err)  # not converted, so not compared
    assert "stored 7 corrected fields of 7 papers" in err
    lines = first_update["out"].splitlines()
    assert len(lines) == 7
    assert lines[1] == ("abbadi2026what (pmlr-v306-abbadi26a)  authors: Omar Abbadi; Rida Laraki; Panayotis "
                        "Mertikopoulos → Omar Abbadi; Rida Laraki; Panagiotis Mertikopoulos")
    # A field the package repaired: PMLR's value, the package's and the result.
    assert lines[3] == ("aissi2026prism (pmlr-v306-aissi26a)  title: PRISM: Perception Reasoning Interleaved for "
                        "Sequential Decision Making → PRISM: Perception-Reasoning Interleaving for Sequential "
                        "Decision Making  (PMLR: PRISM: Perception-Reasoning Interleaving for Sequential Decision "
                        "Making.; curated as the package does)")
    assert "li2026praglocker (pmlr-v306-li26d)  title: PragLocker: Protecting Agent Intellectual Property in " \
           "Untrusted Deployments via Non-Portable Prompts → PragLocker: Protecting Agent Intellectual Property " \
           "in Untrusted Deployments with Non-Portable Prompts" in lines
    assert not any("mundra26a" in line or "hu26ar" in line for line in lines)  # PMLR did what we did


def test_an_unchanged_published_file_is_no_change(data_dir: Path, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """PMLR's file generated from the very source of the package: nothing to correct, although
    the package repaired titles and names and protected proper nouns."""
    path = tmp_path / "bibliography.bib"
    path.write_text(published_from_sources(), encoding="utf-8")
    run = Run(capsys, "update", "--check", "--file", str(path))
    assert run.code == 0, run
    assert run.out == ""
    assert "--check: 0 changes to the loaded records; the download gives 0 corrected fields of 0 papers" in run.err


def test_load_returns_corrected_records_with_provenance(updated: Path, packaged: icml2026.PaperCollection,
                                                        published: str) -> None:
    papers = icml2026.load()
    for (paper_id, pointer), value in EXPECTED.items():
        assert L.get_value(papers[paper_id].to_dict(), pointer) == value, (paper_id, pointer)
    li, old = papers["pmlr-v306-li26d"], packaged["pmlr-v306-li26d"]
    assert li.citation_key == old.citation_key and li.alias_keys == old.alias_keys  # keys never change
    assert li.title_protect == old.title_protect and li.abstract == old.abstract
    source = li.source_of("/title")
    sha = hashlib.sha256(published.encode("utf-8")).hexdigest()
    assert source is not None and source.retrieved == TODAY and sha in source.name
    assert source.url and source.url.endswith("/ok/bibliography.bib")
    assert li.source_of("/authors") == old.source_of("/authors")  # uncorrected fields keep theirs
    changed = {p.id for p in papers if p.to_dict() != packaged[p.id].to_dict()}
    assert changed == CHANGED
    assert len(papers) == len(packaged)


def test_every_repair_of_the_package_survives_the_update(updated: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The build's repairs stay: a corrected title is repaired and case-protected like the others."""
    run = Run(capsys, "export", "-f", "bibtex", "--keys", "aissi26a,elsborg26a,mundra26a,hu26ar,ji26m,n-guessan26a")
    assert run.code == 0, run
    assert "Sequential Decision Making}" in run.out and "Making.}" not in run.out  # no final full stop
    assert "Local {Gaussians}: Periodic Charge Densities in a Flash" in run.out  # proper noun protected
    assert "{LAPRAS}: Learning" in run.out and "{SALE}: Low-bit" in run.out  # no space before the colon
    assert "Hu, Xinyi and" in run.out and "Xinyi." not in run.out
    assert "N{\\textquoteright}Guessan" in run.out  # the seed's typographic apostrophe


def test_the_source_hashes_are_those_of_the_source_bibtex() -> None:
    """``source-hashes.tsv`` is generated from tools/sources (python -m icml2026.update.baseline)."""
    assert baseline.build_text(SOURCES) == baseline.FILE.read_text(encoding="utf-8")
    assert len(baseline.baseline()) == 6552


def test_corrected_records_pass_validation(updated: Path, tmp_path: Path) -> None:
    folder = tmp_path / "records"
    folder.mkdir()
    corrected = [p for p in icml2026.load() if L.SOURCE_KEY in p.sources]
    for paper in corrected:
        (folder / f"{paper.id}.json").write_text(json.dumps(paper.to_dict()), encoding="utf-8")
    assert len(corrected) == len(CHANGED) and icml2026.validate([folder]) == []


def test_show_names_corrected_fields_provenance_and_packaged_values(
        updated: Path, capsys: pytest.CaptureFixture[str], packaged: icml2026.PaperCollection) -> None:
    old = packaged["pmlr-v306-li26d"]
    run = Run(capsys, "show", "li26d")
    assert run.code == 0, run
    lines = run.out.splitlines()
    assert "Corrected:        title" in lines
    assert f"                    title in the package: {old.title}" in lines
    assert any("↳ by: PMLR volume 306, published BibTeX (bibliography.bib), SHA-256 " in line for line in lines)
    assert any(line.strip().endswith(f"/ok/bibliography.bib, retrieved {TODAY}") for line in lines)
    title_row = lines.index(next(line for line in lines if line.startswith("Title:")))
    assert "published BibTeX" in lines[title_row + 1]  # the field's own source line
    run = Run(capsys, "show", "abbadi26a")
    assert "Corrected:        authors" in run.out and "authors in the package: Omar Abbadi;" in run.out
    run = Run(capsys, "show", "gu26b")  # not corrected: nothing said
    assert "Corrected" not in run.out


def test_no_corrections_ignores_the_layer_for_one_run(updated: Path, capsys: pytest.CaptureFixture[str],
                                                      packaged: icml2026.PaperCollection) -> None:
    plain = Run(capsys, "--no-corrections", "export", "-f", "jsonl", "--keys", "li26d,witter26a")
    assert plain.code == 0
    assert [json.loads(line) for line in plain.out.splitlines()] == [
        packaged["pmlr-v306-li26d"].to_dict(), packaged["pmlr-v306-witter26a"].to_dict()]
    assert "Corrected" not in Run(capsys, "--no-corrections", "show", "li26d").out
    corrected = Run(capsys, "export", "-f", "jsonl", "--keys", "witter26a")
    assert json.loads(corrected.out)["links"]["pdf"] == NEW_PDF
    assert icml2026.load()["witter26a"].links.pdf == NEW_PDF  # the flag did not leak
    assert icml2026.load(corrections=False)["witter26a"].links.pdf == packaged["witter26a"].links.pdf


def test_no_corrections_reaches_fix_check_and_list(updated: Path, tmp_path: Path, packaged: icml2026.PaperCollection,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """Each command that reads the packaged papers its own way (fix's and check's look-up
    index, list's stored search index) ignores the layer under --no-corrections, and only then."""
    before, after = source_field("li26d", "title"), corrections()["li26d"]["title"]
    assert " via " in before and " with " in after
    bib = tmp_path / "mine.bib"
    bib.write_text(icml2026.export(packaged.select(["li26d"]), "bibtex"), encoding="utf-8")

    def title_line(run: Run) -> str:
        assert run.code == 0, run
        return next(line for line in run.out.splitlines() if line.lstrip().startswith("title"))

    assert " via " in title_line(Run(capsys, "--no-corrections", "fix", str(bib)))
    assert " with " in title_line(Run(capsys, "fix", str(bib)))
    plain = Run(capsys, "--no-corrections", "check", "--format", "json", str(bib))
    corrected = Run(capsys, "check", "--format", "json", str(bib))
    assert [e["status"] for e in json.loads(plain.out)["entries"]] == ["verified"] and plain.code == 0
    assert [e["status"] for e in json.loads(corrected.out)["entries"]] == ["mismatch"] and corrected.code == 1
    assert " via " in Run(capsys, "--no-corrections", "list", "-q", "PragLocker").out
    assert " with " in Run(capsys, "list", "-q", "PragLocker").out


def test_second_update_is_answered_304(updated: Path, server: PmlrServer,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    before = updated.read_bytes()
    run = Run(capsys, "update", "--url", server.url("ok"))
    assert run.code == 0 and run.out == ""
    assert run.err.strip() == f"icml2026: {server.url('ok')}: not modified since {TODAY} (HTTP 304)"
    last = server.requests[-1]
    assert last.status == 304 and last.headers["if-none-match"] == json.loads(before)["http"]["etag"]
    assert last.headers["user-agent"].startswith(f"icml2026/{icml2026.__version__} (")
    assert updated.read_bytes() == before


def test_check_prints_changes_and_writes_nothing(data_dir: Path, server: PmlrServer,
                                                 capsys: pytest.CaptureFixture[str],
                                                 first_update: dict[str, Any]) -> None:
    run = Run(capsys, "update", "--check", "--url", server.url("ok"))
    assert run.code == 0, run
    assert run.out == first_update["out"]  # the same seven changes
    assert "--check: 7 changes to the loaded records" in run.err and "nothing written" in run.err
    assert not (data_dir / "corrections").exists()
    assert "if-none-match" not in server.requests[-1].headers  # no layer: nothing to be conditional on


def test_check_against_a_layer_prints_only_what_changes(updated: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """PMLR withdraws one correction and makes a new one: --check shows exactly those two."""
    fixes = corrections()
    del fixes["li26d"]
    fixes["gu26b"] = {"pages": "36961--36980"}
    assert source_field("gu26b", "pages") == "36960--36980"
    before = updated.read_bytes()
    with PmlrServer(published_from_sources(overrides=fixes)) as other:
        run = Run(capsys, "update", "--check", "--url", other.url("ok"))
    assert run.code == 0, run
    assert run.out.splitlines() == [
        "gu2026csg (pmlr-v306-gu26b)  pages: 36960–36980 → 36961–36980",
        ("li2026praglocker (pmlr-v306-li26d)  title: PragLocker: Protecting Agent Intellectual Property in "
         "Untrusted Deployments with Non-Portable Prompts → PragLocker: Protecting Agent Intellectual Property "
         "in Untrusted Deployments via Non-Portable Prompts")]
    assert "--check: 2 changes to the loaded records; the download gives 7 corrected fields of 7 papers" in run.err
    assert updated.read_bytes() == before


def test_revert_restores_the_packaged_data_exactly(updated: Path, packaged: icml2026.PaperCollection,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert records(icml2026.load()) != records(packaged)
    run = Run(capsys, "update", "--revert")
    assert run.code == 0 and "removed " in run.err and "(7 corrected fields of 7 papers)" in run.err
    assert not updated.exists()
    assert records(icml2026.load()) == records(packaged)
    again = Run(capsys, "update", "--revert")
    assert again.code == 0 and "nothing to revert" in again.err


def test_a_local_file_is_read_like_a_download(data_dir: Path, tmp_path: Path, published: str,
                                              packaged: icml2026.PaperCollection,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bibliography.bib"
    path.write_text(published, encoding="utf-8")
    run = Run(capsys, "update", "--file", str(path))
    assert run.code == 0, run
    lay = L.read_layer()
    assert lay is not None and layer_rows(lay) == EXPECTED
    assert lay.source.url == str(path.resolve()) and lay.http is None


@pytest.mark.parametrize("mode", ["gzip", "redirect"])
def test_gzip_and_redirects_are_followed(mode: str, data_dir: Path, server: PmlrServer,
                                         packaged: icml2026.PaperCollection,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    run = Run(capsys, "update", "--url", server.url(mode))
    assert run.code == 0, run
    lay = L.read_layer()
    assert lay is not None and layer_rows(lay) == EXPECTED
    assert lay.source.url == server.url("ok" if mode == "redirect" else mode)  # where it came from at last


# --------------------------------------------------------------------------- faults

FAULTS = {
    "404": "HTTP 404 Not Found",
    "500": "HTTP 500 Internal Server Error",
    "redirect-loop": "more than 5 redirects",
    "truncated": "the connection broke off before the whole file arrived",
    "truncated-close": "truncated or damaged: the entry at line ",
    "html": "not PMLR's BibTeX for volume 306: no @Proceedings header",
    "endless": "more than 20.0 MB arrived, the limit (--max-size)",
    "huge-length": "the file is 10737.4 MB, larger than the limit of 20.0 MB (--max-size)",
    "gzip-bomb": "more than 20.0 MB arrived, the limit (--max-size)",
    "bad-gzip": "the server's compressed (Content-Encoding) body cannot be decoded",
    "slow": "no complete answer within 1.5 s (time-out)",
    "stall": "no complete answer within 1.5 s (time-out)",
    "not-utf8": "not PMLR's BibTeX: not UTF-8 text",
    "wrong-volume": "not PMLR's BibTeX for volume 306: its header says volume 305",
}


@pytest.mark.parametrize("previous", ["layer", "none"])
@pytest.mark.parametrize("mode", sorted(FAULTS))
def test_every_fault_leaves_the_previous_state_and_one_line(
        mode: str, previous: str, data_dir: Path, server: PmlrServer, first_update: dict[str, Any],
        packaged: icml2026.PaperCollection, capsys: pytest.CaptureFixture[str]) -> None:
    path = data_dir / LAYER
    if previous == "layer":
        path.parent.mkdir(parents=True)
        path.write_bytes(first_update["layer"])
    timeout = "1.5" if mode in ("slow", "stall") else "60"
    run = Run(capsys, "update", "--url", server.url(mode), "--timeout", timeout, "--max-size", "20")
    assert run.code == 1 and run.out == ""
    assert len(run.err.splitlines()) == 1, run.err
    assert run.err.startswith(f"icml2026: error: {server.url(mode)}: {FAULTS[mode]}"), run.err
    assert run.err.rstrip().endswith("; nothing was changed")
    # load() is the packaged data plus this one file: the same file, the same records.
    assert (path.read_bytes() == first_update["layer"]) if previous == "layer" else not path.exists()
    assert sorted(p.name for p in data_dir.rglob("*") if p.is_file()) == (["pmlr-v306.json"] if previous == "layer" else [])


def test_a_file_with_too_few_entries_is_not_the_volume(data_dir: Path, tmp_path: Path,
                                                       packaged: icml2026.PaperCollection,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    ids = [e.pmlr_id for e in source_entries()[1]]
    path = tmp_path / "part.bib"
    path.write_text(published_from_sources(drop=ids[: len(ids) // 5 + 1]), encoding="utf-8")
    run = Run(capsys, "update", "--file", str(path))
    assert run.code == 1 and f"paper entries, expected about {len(ids)}" in run.err
    assert not (data_dir / LAYER).exists()


def test_a_damaged_layer_is_one_warning_and_revert_removes_it(data_dir: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    path = data_dir / LAYER
    path.parent.mkdir(parents=True)
    path.write_text("{not json", encoding="utf-8")
    run = Run(capsys, "list")
    assert run.code == 0 and run.err.startswith(f"icml2026: warning: {path}: damaged corrections layer (")
    assert "'icml2026 update --revert'" in run.err and len(run.err.splitlines()) == 1
    assert Run(capsys, "--no-corrections", "list").code == 0
    run = Run(capsys, "update", "--revert")
    assert run.code == 0 and not path.exists()
    assert run.err == f"icml2026: removed {path}; the packaged data applies again\n"


# --------------------------------------------------------------------------- network hygiene

def test_https_only_unless_the_user_names_an_http_url() -> None:
    assert check_url("https://proceedings.mlr.press/v306/x.bib", allow_http=False)
    assert check_url("http://127.0.0.1:1/x.bib", allow_http=True)
    with pytest.raises(UpdateError, match="plain HTTP is used only for a URL given with --url"):
        check_url("http://proceedings.mlr.press/v306/x.bib", allow_http=False)
    with pytest.raises(UpdateError, match="only https:// URLs"):
        check_url("ftp://proceedings.mlr.press/x.bib", allow_http=True)


def test_progress_is_drawn_only_when_asked(server: PmlrServer, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert fetch(server.url("gzip"), allow_http=True, progress=True) is not None
    assert "downloading bibliography.bib: " in capsys.readouterr().err
    assert fetch(server.url("gzip"), allow_http=True) is not None  # standard error is not a terminal
    assert capsys.readouterr().err == ""


def test_corrections_apply_only_while_the_packaged_value_is_the_old_one(packaged: icml2026.PaperCollection) -> None:
    paper = packaged["pmlr-v306-li26d"]
    source = icml2026.Source(name="test", url="https://example.org/x.bib", retrieved=TODAY)
    fresh = L.corrected(paper, [L.Correction(paper.id, "/title", paper.title, "New")], source)
    stale = L.corrected(paper, [L.Correction(paper.id, "/title", "An older title", "New")], source)
    assert fresh.title == "New" and fresh.provenance["/title"] == L.SOURCE_KEY
    assert stale is paper  # a newer package changed the field: the package wins


def test_a_correction_that_would_break_the_schema_is_refused(packaged: icml2026.PaperCollection) -> None:
    record = packaged["pmlr-v306-li26d"].to_dict()
    assert record_problems(record) == []
    record["title"] = "x" * 1001
    record["authors"] = [{"given": "No family"}]
    assert record_problems(record)[:2] == ["/authors/0: a person needs exactly one of family or literal",
                                           "/title: text is 1001 characters long; at most 1000 allowed"]
