"""dist-data/ is current, reproducible, and --check names what is stale.

``dist --check`` renders only the files whose inputs (data, code, library versions) or
bytes changed since ``dist-inputs.json`` was written, so these tests take seconds once
the committed folder is current; none has a wall-clock bound.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO, source_paper_count

import icml2026
from icml2026.dist import FILES, build


def dist(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "icml2026", "dist", *args], capture_output=True,
                          text=True, cwd=cwd)


def test_committed_dist_data_is_current() -> None:
    result = dist("--check")
    assert result.returncode == 0, result.stdout + result.stderr
    # The record of inputs is current too, so that this check rendered nothing.
    assert "none rendered" in result.stderr and "note:" not in result.stderr, result.stderr


def test_build_is_byte_for_byte_reproducible(papers: icml2026.PaperCollection) -> None:
    assert build(papers) == build(icml2026.load().select(p.id for p in papers))


def test_check_names_stale_missing_and_extra_files(tmp_path: Path) -> None:
    folder = tmp_path / "dist-data"
    shutil.copytree(REPO / "dist-data", folder)
    (folder / "icml2026.bib").write_text("stale\n")
    (folder / "icml2026.ris").unlink()
    (folder / "notes.txt").write_text("not ours\n")
    result = dist("--check", "--dir", str(folder), cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout.splitlines() == [f"stale: {folder / n}" for n in ("icml2026.bib", "icml2026.ris", "notes.txt")]
    refused = dist("--dir", str(folder), cwd=tmp_path)  # never deletes a file it did not write
    assert refused.returncode == 1 and "notes.txt" in refused.stderr and len(refused.stderr.splitlines()) == 1
    assert (folder / "notes.txt").read_text() == "not ours\n" and (folder / "icml2026.bib").read_text() == "stale\n"
    (folder / "notes.txt").unlink()
    assert dist("--dir", str(folder), cwd=tmp_path).returncode == 0
    # The same bytes as the committed folder, which test_committed_dist_data_is_current checks.
    assert sorted(p.name for p in folder.iterdir()) == sorted(p.name for p in (REPO / "dist-data").iterdir())
    assert all((folder / p.name).read_bytes() == p.read_bytes() for p in (REPO / "dist-data").iterdir())


def test_check_renders_only_files_whose_inputs_or_bytes_changed(tmp_path: Path) -> None:
    folder = tmp_path / "dist-data"
    shutil.copytree(REPO / "dist-data", folder)
    (folder / "icml2026.ris").write_text("edited by hand\n")
    record = json.loads((folder / "dist-inputs.json").read_text(encoding="ascii"))
    record["files"]["icml2026.jsonl"]["inputs"] = "0" * 64  # as if its code had changed
    (folder / "dist-inputs.json").write_text(json.dumps(record), encoding="ascii")
    result = dist("--check", "--dir", str(folder), cwd=tmp_path)
    # The edited file is found by its bytes; the other one is rendered and found right.
    assert result.returncode == 1 and result.stdout == f"stale: {folder / 'icml2026.ris'}\n", result.stderr
    (folder / "icml2026.ris").write_bytes((REPO / "dist-data" / "icml2026.ris").read_bytes())
    result = dist("--check", "--dir", str(folder), cwd=tmp_path)
    # The restored file matches its record again; only the one with "new code" is rendered.
    assert result.returncode == 0 and "rendered 1 whose inputs changed" in result.stderr, result.stderr
    assert f"note: {folder / 'dist-inputs.json'} is out of date" in result.stderr
    assert dist("--dir", str(folder), cwd=tmp_path).returncode == 0  # records the inputs again
    assert (folder / "dist-inputs.json").read_bytes() == (REPO / "dist-data" / "dist-inputs.json").read_bytes()


def test_fingerprints_cover_every_module_an_export_runs() -> None:
    """The modules a fingerprint names are at least those the interpreter loads to render."""
    from icml2026.dist import _COMMON_MODULES, module_closure
    from icml2026.exporters import FORMATS

    for spec in FILES:
        target = FORMATS[spec.fmt].target.partition(":")[0]
        code = ("import sys, icml2026, icml2026.dist; from icml2026.exporters import export; "
                f"export(icml2026.load().select(['pmlr-v306-abas26a']), {spec.fmt!r}, **dict({spec.options!r})); "
                "print(*sorted(m for m in sys.modules if m.split('.')[0] == 'icml2026'))")
        loaded = set(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                    check=True).stdout.split())
        named = module_closure([*_COMMON_MODULES, "icml2026.exporters" + target])
        assert "icml2026.exporters" + target in loaded and loaded <= named, (spec.name, loaded - named)
        if spec.fmt != "citation":
            assert "icml2026.exporters.citation" not in named  # citations' code is not a BibTeX input


def test_per_paper_zip_holds_each_entry_of_the_bib_file(tmp_path: Path) -> None:
    """unzip (Info-ZIP) reads the zip; its members are the entries of icml2026.bib in order."""
    archive = REPO / "dist-data" / "icml2026-bib-per-paper.zip"
    tested = subprocess.run(["unzip", "-tq", str(archive)], capture_output=True, text=True)
    assert tested.returncode == 0, tested.stdout + tested.stderr
    listing = subprocess.run(["zipinfo", "-l", str(archive)], capture_output=True, text=True, check=True).stdout
    subprocess.run(["unzip", "-q", str(archive), "-d", str(tmp_path)], check=True)
    names = [line.split()[-1] for line in listing.splitlines() if line.startswith("-rw-r--r--")]
    whole = (REPO / "dist-data" / "icml2026.bib").read_text(encoding="ascii")
    entries = ["@" + e for e in whole.split("\n@")]
    entries[0] = entries[0][1:]
    assert len(names) == len(entries) == 6552 and len(set(names)) == len(names)
    for name, entry in zip(names, entries):
        assert entry.startswith(f"@inproceedings{{{name.removesuffix('.bib')},\n")
        assert (tmp_path / name).read_text(encoding="ascii") == entry.rstrip("\n") + "\n"
    assert all(" 80-Jan-01 00:00 " in line for line in listing.splitlines() if line.startswith("-rw"))


def test_per_paper_zip_is_byte_for_byte_reproducible(papers: icml2026.PaperCollection) -> None:
    from icml2026.dist import render_files

    name = "icml2026-bib-per-paper.zip"
    first = render_files(papers, names=[name])[name]
    assert render_files(icml2026.load().select(p.id for p in papers), names=[name]) == {name: first}


def test_check_outside_a_checkout_says_there_is_no_folder(tmp_path: Path) -> None:
    result = dist("--check", cwd=tmp_path)  # no dist-data/ here: not "11 stale files"
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr == ("icml2026 dist: dist-data is not a folder; run this in a checkout of icml2026, "
                             "or name the folder with --dir\n")


def test_dist_refuses_a_folder_of_someone_elses_files(tmp_path: Path) -> None:
    from icml2026.dist import write
    from icml2026.errors import OutputError

    (tmp_path / "thesis.tex").write_text("mine\n")
    with pytest.raises(OutputError, match="thesis.tex"):
        write({"icml2026.bib": b"x\n", "SHA256SUMS": b""}, tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["thesis.tex"]
    (tmp_path / "thesis.tex").unlink()
    write({"icml2026.bib": b"x\n", "SHA256SUMS": b"0  icml2026.bib\n"}, tmp_path)
    (tmp_path / "old.bib").write_text("from an earlier run\n")
    (tmp_path / "SHA256SUMS").write_text("0  icml2026.bib\n0  old.bib\n")
    assert write({"icml2026.bib": b"y\n", "SHA256SUMS": b"0  icml2026.bib\n"}, tmp_path) == [
        "SHA256SUMS", "icml2026.bib", "old.bib"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["SHA256SUMS", "icml2026.bib"]


def test_datapackage_describes_every_file() -> None:
    package = json.loads((REPO / "dist-data" / "datapackage.json").read_text(encoding="utf-8"))
    paths = [r["path"] for r in package["resources"]]
    assert paths == [f.name for f in FILES]
    for resource in package["resources"]:
        data = (REPO / "dist-data" / resource["path"]).read_bytes()
        assert resource["bytes"] == len(data)
        assert resource["hash"] == "sha256:" + hashlib.sha256(data).hexdigest()


def test_sha256sums_matches_files() -> None:
    result = subprocess.run(["sha256sum", "--check", "--quiet", "SHA256SUMS"], cwd=REPO / "dist-data",
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_bib_files_carry_the_complete_records_only() -> None:
    text = (REPO / "dist-data" / "icml2026.bib").read_text(encoding="ascii")
    assert text.count("@inproceedings{") == 6552
    lines = (REPO / "dist-data" / "icml2026.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == source_paper_count()
