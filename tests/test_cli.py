"""The command line, run as users run it (a real subprocess) where it matters."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import source_paper_count

from icml2026.cli import COMMANDS, build_parser, main
from icml2026.validation import validator


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "icml2026", *args], capture_output=True,
                          text=True, cwd=cwd, timeout=120)


def test_list_prints_the_volume() -> None:
    result = run("list")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 22  # 20 papers, the rest, the count
    n = source_paper_count()
    assert lines[-2:] == [f"… and {n - 20:,} more (use --limit 0 to list all)",
                          f"{n:,} papers ({n:,} complete, 0 incomplete)"]
    # The seed's paper 4 (method GMPSSG) is a paper of the volume, complete.
    marked = run("list", "GMPSSG").stdout.splitlines()
    assert not marked[0].endswith("[incomplete]") and marked[-1] == "1 paper (1 complete, 0 incomplete)"


def test_list_query_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list", "--query", "Müntz", "--json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["citation_key"] for r in records] == ["nguessan2026discovering"]


def test_search_alias_takes_words(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["search", "graph", "--author", "wolf"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("canturk2026can ")
    assert lines[-1] == "1 paper (1 complete, 0 incomplete)"


def test_export_json_is_schema_valid() -> None:
    result = run("export", "--format", "json")
    assert result.returncode == 0, result.stderr
    records = json.loads(result.stdout)
    assert len(records) == source_paper_count()
    for record in records[::97]:
        assert list(validator("paper").iter_errors(record)) == []


def test_show_unknown_key_suggests(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", "zhao2026benchmarkin"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("icml2026: error: no paper with key 'zhao2026benchmarkin'; did you mean ")
    assert "zhao2026benchmarking" in err and len(err.splitlines()) == 1


def test_show_incomplete_record(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A record that lacks facts says which.  Every packaged record is complete, so the
    incomplete one is a user's record file (the form the seed's paper 4 had before it was
    identified)."""
    record = {"id": "example-incomplete", "language": "en", "method_name": "GMPSSG", "proceedings": "pmlr-v306",
              "notes": ["Not found in any source checked."], "schema_version": "1.0",
              "provenance": {"/language": "curation", "/method_name": "curation", "/notes": "curation",
                             "/status": "curation"},
              "sources": {"curation": {"name": "a user's curation", "retrieved": "2026-11-29"}},
              "status": {"missing": ["title", "authors", "pages", "citation_key", "identifiers", "links"],
                         "state": "incomplete"}}
    (tmp_path / "r.json").write_text(json.dumps(record))
    assert main(["validate", str(tmp_path / "r.json")]) == 0, capsys.readouterr()
    capsys.readouterr()
    assert main(["show", "example-incomplete", "--data", str(tmp_path / "r.json")]) == 0
    out = capsys.readouterr().out
    assert "Status: incomplete — missing: title, authors, pages" in out
    assert "Title:" not in out


def test_show_seed_alias_is_the_volume_paper(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", "icml2026-seed-04"]) == 0
    assert "(pmlr-v306-ding26n)" in capsys.readouterr().out.splitlines()[0]


@pytest.mark.parametrize("args,message", [
    (["export", "--format", "bibtx"], "icml2026: error: unknown format 'bibtx'; did you mean bibtex, biblatex?"),
    (["export", "--format", "json", "--keys", "nope"], "icml2026: error: no paper with key nope"),
    (["export", "--format", "json", "--data", "/nonexistent/x.json"], "icml2026: error: /nonexistent/x.json: -: /: no such file or folder"),
    (["export", "--format", "citation", "--style", "apaa"], "icml2026: error: unknown citation style 'apaa'; did you mean apa,"),
])
def test_errors_are_one_line_without_traceback(args: list[str], message: str) -> None:
    result = run(*args)
    assert result.returncode != 0
    assert result.stderr.startswith(message)
    assert len(result.stderr.splitlines()) == 1
    assert "Traceback" not in result.stderr and result.stdout == ""


def test_output_file_is_written_atomically(tmp_path: Path) -> None:
    target = tmp_path / "out.json"
    target.write_text("previous contents\n")
    # A failing export leaves the previous file untouched and no temporary file behind.
    assert run("export", "-f", "json", "--keys", "nope", "-o", str(target)).returncode == 2
    assert target.read_text() == "previous contents\n"
    assert run("export", "-f", "json", "-o", str(target)).returncode == 0
    assert len(json.loads(target.read_text())) == source_paper_count()
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"]


def test_export_is_deterministic() -> None:
    assert run("export", "-f", "jsonl").stdout == run("export", "-f", "jsonl").stdout


def test_every_command_has_help() -> None:
    parser = build_parser()
    registered = set(parser._subparsers._group_actions[0].choices)  # type: ignore[union-attr]
    for name in registered & set(COMMANDS):
        result = run(name, "--help")
        assert result.returncode == 0 and result.stdout.startswith("usage: icml2026 " + name)


def test_version_and_no_command() -> None:
    from icml2026 import __version__

    assert run("--version").stdout.strip() == f"icml2026 {__version__}"
    assert run().returncode == 2


def test_bibtex_start_path_imports_nothing_heavy() -> None:
    """The most-used command must not pay for click, jsonschema, citeproc or pyzotero."""
    code = ("import sys, runpy; sys.argv=['icml2026','export','-f','jsonl'];"
            "from icml2026.cli import main; main(sys.argv[1:]);"
            "heavy={'jsonschema','bibtexparser','click','citeproc','pyzotero','lxml','httpx','pylatexenc'};"
            "print(sorted(heavy & {m.split('.')[0] for m in sys.modules}), file=sys.stderr)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stderr.strip().splitlines()[-1] == "[]"


def test_malformed_data_file_is_one_line_not_a_crash(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"id": "x", "proceedings": "pmlr-v306", "status": {"state": "complete"},
                               "title": 5}), encoding="utf-8")
    for args in (["export", "-f", "bibtex"], ["show", "x"], ["list"]):
        result = run(*args, "--data", str(bad))
        assert result.returncode == 1
        assert result.stderr.startswith(f"icml2026: error: {bad}: x: /: schema_version is required (and ")
        assert len(result.stderr.splitlines()) == 1 and "Traceback" not in result.stderr


def test_unwritable_output_is_one_line_and_leaves_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "out.bib"
    folder.mkdir()
    result = run("export", "-f", "jsonl", "-o", str(folder))
    assert result.returncode == 1
    assert result.stderr == f"icml2026: error: {folder}: cannot write: it is a folder\n"
    assert list(tmp_path.iterdir()) == [folder] and list(folder.iterdir()) == []
