"""The Python API: options checked, papers hashable, collections sliceable."""

from __future__ import annotations

import pytest

import icml2026


def test_unknown_export_options_are_rejected(papers: icml2026.PaperCollection) -> None:
    one = papers.select(["zhao2026benchmarking"])
    for wrong, right in (("keystyle", "key_style"), ("abstracts", "abstract")):
        with pytest.raises(icml2026.UsageError, match=f"unknown export option {wrong}; did you mean {right}"):
            icml2026.export(one, "bibtex", **{wrong: True})
    # A known option a format has no use for is accepted (the CLI passes one set to all).
    assert icml2026.export(one, "ris", key_style="pmlr") == icml2026.export(one, "ris")
    assert "pmlr-v306-zhao26ac" in icml2026.export(one, "bibtex", key_style="pmlr")


def test_papers_are_hashable_and_equal_by_value(papers: icml2026.PaperCollection) -> None:
    first, second = papers[0], papers[1]
    again = icml2026.load().select([first.id])[first.id]
    assert {first, second, again} == {first, second} and hash(first) == hash(again)


def test_a_slice_of_a_collection_is_a_collection(papers: icml2026.PaperCollection) -> None:
    head = papers[:3]
    assert isinstance(head, icml2026.PaperCollection) and [p.id for p in head] == [p.id for p in list(papers)[:3]]
    assert head[head[1].id] is papers[1] and len(papers[::2]) == (len(papers) + 1) // 2


def test_every_public_name_resolves_and_import_stays_light() -> None:
    import subprocess
    import sys

    code = ("import sys, icml2026; light = not any(m.startswith(('icml2026.importers', 'icml2026.fix', "
            "'bibtexparser', 'citeproc', 'pyzotero', 'jsonschema')) for m in sys.modules); "
            "[getattr(icml2026, n) for n in icml2026.__all__]; print(light)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "True"
    assert icml2026.read_file is not None and icml2026.parse_string("").papers is not None


def test_a_data_error_carries_its_problems(tmp_path) -> None:
    import json

    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"id": "x", "proceedings": "pmlr-v306", "title": 5}), encoding="utf-8")
    with pytest.raises(icml2026.DataError) as caught:
        icml2026.load([bad])
    (first,) = caught.value.problems
    assert isinstance(first, icml2026.Problem) and first.file == str(bad) and caught.value.count >= 1
    assert caught.value.count == len(icml2026.validate([bad]))
