"""The Python API: options checked, papers hashable, collections sliceable."""

from __future__ import annotations

import pytest

import icml2026


def test_unknown_export_options_are_rejected(papers: icml2026.PaperCollection) -> None:
    one = papers.select(["zhao2026benchmarking"])
    for wrong, right in (("keystyle", "key_style"), ("abstracts", "abstract")):
        with pytest.raises(icml2026.UsageError, match=f"unknown export option {wrong}; did you mean {right}"):
            icml2026.export(one, "bibtex", **{wrong: True})
    assert "pmlr-v306-zhao26ac" in icml2026.export(one, "bibtex", key_style="pmlr")


def test_an_option_of_another_format_is_refused_naming_the_format(papers: icml2026.PaperCollection) -> None:
    one = papers.select(["zhao2026benchmarking"])
    with pytest.raises(icml2026.UsageError, match=r"the ris format takes no key_style option "
                                                  r"\(it is an option of bibtex, biblatex, hayagriva\)"):
        icml2026.export(one, "ris", key_style="pmlr", in_text=True)
    with pytest.raises(icml2026.UsageError, match="the bibtex format takes no in_text option"):
        icml2026.export(one, "bibtex", in_text=True)
    with pytest.raises(icml2026.UsageError, match="the citation format takes no abstract option"):
        icml2026.export(one, "citation", abstract=False)
    # At its default, an option the format does not take changes nothing (the CLI passes one set).
    assert icml2026.export(one, "ris", key_style="canonical", in_text=False, locale=None) == \
        icml2026.export(one, "ris")


@pytest.mark.parametrize(("options", "error", "message"), [
    ({"abstract": "no"}, TypeError, "export option abstract must be True, False or None, not 'no'"),
    ({"abstract": 0}, TypeError, "export option abstract must be True, False or None, not 0"),
    ({"key_style": 1}, TypeError, "export option key_style must be a str"),
    ({"key_style": "short"}, icml2026.UsageError, "key_style must be one of canonical, pmlr, openreview"),
])
def test_options_are_typed_and_checked(papers: icml2026.PaperCollection, options, error, message) -> None:
    with pytest.raises(error, match=message):
        icml2026.export(papers.select(["zhao2026benchmarking"]), "bibtex", **options)


def _one(papers):
    return papers["zhao2026benchmarking"]


# The misuses of issue 28: each a TypeError or ValueError naming the argument, never an
# AttributeError from inside the library.
MISUSES = [
    ("export a str", lambda ps: icml2026.export("zhao2026benchmarking", "bibtex"), TypeError,
     "papers must be a PaperCollection, an iterable of Paper or one Paper, not str"),
    ("export dicts", lambda ps: icml2026.export([_one(ps).to_dict()], "bibtex"), TypeError,
     r"papers\[0\] is a dict, not a Paper \(a record's JSON: use Paper.from_dict\)"),
    ("export a stream of dicts", lambda ps: icml2026.export(iter([_one(ps).to_dict()]), "ris"), TypeError,
     r"papers\[0\] is a dict"),
    ("export a dict", lambda ps: icml2026.export({"id": "x"}, "bibtex"), TypeError, "not dict"),
    ("export to a format that is not a str", lambda ps: icml2026.export(ps, 42), TypeError,
     "the export format must be a str"),
    ("cite style None", lambda ps: icml2026.cite(_one(ps), style=None), TypeError,
     r"export option style must be a CSL style name or a .csl path \(str\), not None"),
    ("cite style 123", lambda ps: icml2026.cite(_one(ps), style=123), TypeError,
     "export option style must be a CSL style name or a .csl path"),
    ("collection of ints", lambda ps: icml2026.PaperCollection([1, 2]), TypeError,
     r"papers\[0\] is a int, not a Paper"),
    ("collection of a str", lambda ps: icml2026.PaperCollection("ab"), TypeError, "not str"),
    ("search None", lambda ps: ps.search(None), TypeError, "the search query must be a str, not NoneType"),
    ("search author 5", lambda ps: ps.search("x", author=5), TypeError, "the search author must be a str"),
    ("find None", lambda ps: ps.find(None), TypeError, "find\\(\\) needs a str"),
    ("select a str", lambda ps: ps.select("zhao2026benchmarking"), TypeError, "select\\(\\) needs a list of keys"),
    ("fix_bibtex None", lambda ps: icml2026.fix_bibtex(None), TypeError,
     "fix_bibtex\\(\\) needs the BibTeX text as a str, not NoneType"),
    ("fix_bibtex bytes", lambda ps: icml2026.fix_bibtex(b"@misc{a,}"), TypeError, "not bytes"),
    ("read_bibtex None", lambda ps: icml2026.read_bibtex(None), TypeError, "needs BibTeX text or a path"),
    ("parse_string None", lambda ps: icml2026.parse_string(None), TypeError, "parse_string"),
]


@pytest.mark.parametrize(("name", "call", "error", "message"), MISUSES, ids=[m[0] for m in MISUSES])
def test_misuses_are_clear_errors_naming_the_argument(papers, name, call, error, message) -> None:
    with pytest.raises(error, match=message):
        call(papers)


def test_the_same_paper_three_times_is_exported_once(papers: icml2026.PaperCollection) -> None:
    import dataclasses

    one = _one(papers)
    thrice = icml2026.PaperCollection([one, one, one])
    assert len(thrice) == 1 and list(thrice) == [one]
    single = icml2026.export([one], "bibtex")
    assert single.count("@inproceedings{") == 1
    assert icml2026.export([one, one, one], "bibtex") == single
    assert icml2026.export(iter([one, one, one]), "bibtex") == single      # a stream, too
    other = dataclasses.replace(one, title="Another title")
    with pytest.raises(ValueError, match=f"two different records with the id {one.id}"):
        icml2026.PaperCollection([one, other])
    with pytest.raises(ValueError, match=f"two different records with the id {one.id}"):
        icml2026.export([one, other], "ris")


def test_a_skip_warning_points_at_the_callers_line_and_says_warning_once(papers) -> None:
    import dataclasses
    import inspect
    import warnings

    broken = dataclasses.replace(_one(papers), status="incomplete", pages=None, missing=("pages",))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        line = inspect.currentframe().f_lineno + 1
        icml2026.export([broken, papers[1]], "bibtex")
        icml2026.export(iter([broken]), "ris")
    assert [(w.filename, w.lineno) for w in caught] == [(__file__, line), (__file__, line + 1)]
    assert all(w.category is UserWarning for w in caught)
    assert str(caught[0].message) == ("skipped zhao2026benchmarking in bibtex: incomplete record "
                                      "(missing pages)")


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
