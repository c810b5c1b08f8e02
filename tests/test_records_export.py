"""Records that pass ``validate`` always export: a property test over generated records.

Hypothesis builds records the schema accepts, or nearly: titles, names and abstracts
from an alphabet of markup characters, braces, TeX specials, accents (composed and
not), U+2028, emoji and lone surrogates; pages up to 10**12; proceedings records
without a year, booktitle or other optional facts; papers marked complete or not.
Each record is written as a file and read the way users do.  Either ``validate``
rejects it (and ``load`` raises a one-line :class:`DataError`), or every exporter
writes it (or skips it as incomplete) without an exception, Zotero's item never
says "None", and our own JSON Lines output passes ``validate`` again.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from zotero_helpers import papers, server  # noqa: F401  (fixtures)

import icml2026
from icml2026.errors import DataError
from icml2026.exporters import citable
from icml2026.store.packaged import load_keys
from icml2026.store.records import data_dir
from icml2026.validation import validate_paths

BASE = load_keys(["pmlr-v306-zhao26ac"])[0].to_dict()  # type: ignore[index]
PROCEEDINGS = json.loads((data_dir() / "proceedings" / "pmlr-v306.json").read_text(encoding="utf-8"))
OPTIONAL_PROCEEDINGS = sorted(set(PROCEEDINGS) - {"schema_version", "id"})
FORMATS = ("bibtex", "biblatex", "csl-json", "ris", "citation", "json", "jsonl")

# Characters that have broken exporters before, and plain ones so that text stays text-like;
# one text in 40 also gets a character validate must reject (not NFC, a lone surrogate).
TRICKY = list("aZ09 -.,:;'\"!?()[]{}$*\\%&#_^~@<>|/") + [
    "é", "ß", "ø", "Ł", "α", "∑", "→", "—", "…", "\u00a0", "\u2028", "\u2029", "😀", "中"]
REJECTED = ["e\u0301", "\ud800", "\udfff"]


def text(alphabet: list[str], max_size: int) -> st.SearchStrategy[str]:
    plain = st.lists(st.sampled_from(alphabet), min_size=1, max_size=max_size).map("".join)
    bad = st.sampled_from([""] * 37 + REJECTED)
    return st.tuples(plain, bad, st.integers(min_value=0)).map(lambda t: t[0][:t[2] % 30] + t[1] + t[0][t[2] % 30:])


TEXT = text(TRICKY, 30)
NAME = text([c for c in TRICKY if c not in "{}\\$"], 12)


@st.composite
def person(draw: st.DrawFn) -> dict[str, str]:
    if draw(st.booleans()):
        return {"literal": draw(NAME)}
    out = {"family": draw(NAME)}
    if draw(st.booleans()):
        out["given"] = draw(NAME)
    return out


@st.composite
def proceedings_record(draw: st.DrawFn) -> dict[str, Any]:
    record = json.loads(json.dumps(PROCEEDINGS))
    record["id"] = "bibtex-generated-2026"
    for name in draw(st.lists(st.sampled_from(OPTIONAL_PROCEEDINGS), unique=True, max_size=6)):
        record.pop(name)
    if "booktitle" in record and draw(st.booleans()):
        record["booktitle"] = draw(TEXT)
    return record


@st.composite
def paper_record(draw: st.DrawFn) -> dict[str, Any]:
    record = json.loads(json.dumps(BASE))
    record["proceedings"] = "bibtex-generated-2026"
    record["title"] = draw(TEXT)
    record.pop("title_protect", None)
    record["provenance"].pop("/title_protect", None)
    record["authors"] = draw(st.lists(person(), min_size=1, max_size=3))
    first = draw(st.integers(min_value=1, max_value=10**12))
    record["pages"] = {"first": first, "last": first + draw(st.integers(min_value=0, max_value=50))}
    if draw(st.booleans()):
        record["abstract"] = draw(TEXT)
    else:
        record.pop("abstract")
        record["provenance"].pop("/abstract", None)
    if draw(st.booleans()):  # an incomplete record: exporters that cite must skip it
        record["status"] = {"state": "incomplete", "missing": ["pages"]}
        record.pop("pages")
        record["provenance"].pop("/pages", None)
    return record


def written(folder: Path, paper: dict[str, Any], proceedings: dict[str, Any]) -> Path:
    (folder / "proceedings").mkdir(parents=True, exist_ok=True)
    # ensure_ascii keeps lone surrogates writable: they reach the reader as \ud800 escapes.
    (folder / "proceedings" / "p.json").write_text(json.dumps(proceedings), encoding="utf-8")
    (folder / "paper.jsonl").write_text(json.dumps(paper) + "\n", encoding="utf-8")
    return folder


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                    HealthCheck.too_slow])
@given(paper=paper_record(), proceedings=proceedings_record())
def test_valid_records_export_in_every_format(tmp_path_factory: pytest.TempPathFactory, paper: dict[str, Any],
                                              proceedings: dict[str, Any]) -> None:
    folder = written(tmp_path_factory.mktemp("records"), paper, proceedings)
    if validate_paths([folder]):
        with pytest.raises(DataError) as caught:
            icml2026.load([folder])
        assert "\n" not in str(caught.value)
        return
    papers = icml2026.load([folder])
    for fmt in FORMATS:
        skipped: list[str] = []
        out = icml2026.export(papers, fmt, on_skip=skipped.append)
        assert bool(skipped) != bool(out.strip("[]\n")), fmt  # written, or skipped and said so
    if citable(papers[0]):  # what Zotero sync uploads
        from icml2026.zotero.mapping import owned_values

        assert "None" not in json.dumps(owned_values(papers[0]))
    again = folder / "again.jsonl"
    again.write_text(icml2026.export(papers, "jsonl"), encoding="utf-8")
    assert validate_paths([folder / "proceedings", again]) == []


def test_generated_records_reach_both_outcomes(tmp_path: Path) -> None:
    """The generator is not vacuous: it makes records validate accepts and ones it rejects."""
    proceedings = json.loads(json.dumps(PROCEEDINGS))
    proceedings["id"] = "bibtex-generated-2026"
    paper = json.loads(json.dumps(BASE))
    paper["proceedings"] = "bibtex-generated-2026"
    assert validate_paths([written(tmp_path / "good", paper, proceedings)]) == []
    paper["title"] = "lone \ud800 surrogate"
    paper.pop("title_protect")
    paper["provenance"].pop("/title_protect")
    assert [p.message for p in validate_paths([written(tmp_path / "bad", paper, proceedings)])] == [
        "contains a lone surrogate U+D800 (not a character)"]
    paper["title"] = "A title"
    proceedings.pop("year")
    assert [p.pointer for p in validate_paths([written(tmp_path / "year", paper, proceedings)])] == ["/proceedings"]


def test_zotero_skips_a_paper_whose_proceedings_have_no_year(server: Any, papers: Any) -> None:
    """Marked complete, but its proceedings lack a year: skipped, never an item dated "None"."""
    import dataclasses

    from zotero_helpers import run_sync, user_library

    target = papers["he2026inpainting"]
    undated = dataclasses.replace(target.proceedings, year=None)
    changed = icml2026.PaperCollection(dataclasses.replace(p, proceedings=undated) if p.id == target.id else p
                                       for p in papers)
    report = run_sync(server, changed)
    assert report.counts["skipped"] == 2 and report.counts["create"] == len(papers) - 2
    items = server.regular_items(user_library(server))
    assert len(items) == len(papers) - 2 and all('"None"' not in json.dumps(item) for item in items)


def test_an_empty_list_and_its_provenance_leave_together(tmp_path) -> None:
    """``"alias_keys": []`` with provenance validates; what we write of it must validate too."""
    import json

    from icml2026.store.packaged import load_keys
    from icml2026.store.records import dumps_record
    from icml2026.validation import validate_paths

    record = load_keys(["zhao2026benchmarking"])[0].to_dict()  # type: ignore[index]
    record["alias_keys"] = []
    source = tmp_path / "in.json"
    source.write_text(json.dumps(record), encoding="utf-8")
    assert validate_paths([source]) == []
    out = tmp_path / "out.json"
    out.write_text(dumps_record(icml2026.load([source])[0].to_dict()), encoding="utf-8")
    assert validate_paths([out]) == []
