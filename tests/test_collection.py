"""The Python API: load, lookup, search, immutability, stable order."""

from __future__ import annotations

import dataclasses

import pytest

import icml2026


def test_lookup_by_every_identifier(papers: icml2026.PaperCollection) -> None:
    paper = papers["zhao2026benchmarking"]
    for key in ("pmlr-v306-zhao26ac", "zhao26ac", "Pj1Z7dWm4v"):
        assert papers[key] is paper
    assert papers.get("nope") is None
    with pytest.raises(KeyError):
        papers["nope"]


def test_stable_order(volume: icml2026.PaperCollection) -> None:
    again = icml2026.load()
    assert [p.id for p in volume] == [p.id for p in again]
    labels = [p.label for p in volume]
    assert labels == sorted(labels)


def test_records_are_immutable(papers: icml2026.PaperCollection) -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        papers[0].title = "x"  # type: ignore[misc]


def test_round_trip_through_dict(papers: icml2026.PaperCollection) -> None:
    for paper in papers:
        assert icml2026.Paper.from_dict(paper.to_dict(), paper.proceedings) == paper


@pytest.mark.parametrize("query,expected", [
    ("muntz szasz", {"nguessan2026discovering"}),        # accents folded
    ("GMPSSG", {"ding2026learninga"}),                  # method name of seed paper 4 (ding26n)
    ("graph combinatorial optimization", {"huang2026optimal", "canturk2026can"}),
    ("zzzz-not-there", set()),
])
def test_search(papers: icml2026.PaperCollection, query: str, expected: set[str]) -> None:
    assert {p.label for p in papers.search(query)} == expected


@pytest.mark.parametrize("query,first", [
    ("muntz szasz", "nguessan2026discovering"),
    ("GMPSSG", "ding2026learninga"),
    ("Optimal Transport Guided Stochastic Control", "huang2026optimal"),
])
def test_search_the_volume(volume: icml2026.PaperCollection, query: str, first: str) -> None:
    """The same papers come first among all 6,552 (nothing else has these words in its title)."""
    assert volume.search(query)[0].label == first


def test_search_by_author(papers: icml2026.PaperCollection) -> None:
    assert {p.label for p in papers.search(author="Cantürk")} == {"canturk2026can"}
    assert {p.label for p in papers.search(author="canturk")} == {"canturk2026can"}


def test_search_result_is_a_ranked_collection(volume: icml2026.PaperCollection) -> None:
    found = volume.search("graph", author="li")
    assert isinstance(found, icml2026.PaperCollection) and len(found) > 0
    assert found[found[0].label] is found[0]                     # lookups work on a result
    assert [p.id for p in found.complete] == [p.id for p in found if p.is_complete]


def test_select_reports_unknown_keys(papers: icml2026.PaperCollection) -> None:
    with pytest.raises(KeyError, match="nope, nada"):
        papers.select(["gu2026csg", "nope", "nada"])
    assert [p.label for p in papers.select(["gu2026csg", "gu26b"])] == ["gu2026csg"]


def test_citation_keys_unique_and_ascii(papers: icml2026.PaperCollection) -> None:
    keys = [p.citation_key for p in papers.complete]
    assert len(set(keys)) == len(keys) == 19
    assert all(k.isascii() and k.islower() for k in keys)
    assert papers["pmlr-v306-n-guessan26a"].citation_key == "nguessan2026discovering"


def test_facade_functions_survive_repeated_calls(papers: icml2026.PaperCollection) -> None:
    """Submodules must not shadow the facade's functions of the same name."""
    for _ in range(2):
        assert icml2026.validate() == []
        assert icml2026.export(papers, "jsonl").count("\n") == 19


def test_distinct_keeps_no_paper_of_a_stream_checked_already(papers: icml2026.PaperCollection) -> None:
    """distinct() compares each paper with the earlier one of its id, so it keeps every paper
    it has seen; a DistinctPapers stream (ids checked by validation, as stream_papers gives
    it) is passed on as it is, so that an export of any size runs in flat memory."""
    from icml2026.collection import DistinctPapers, distinct

    some = list(papers)[:3]
    changed = dataclasses.replace(some[0], title="Another title")
    assert list(distinct([*some, some[0]])) == some  # the same record twice: once
    with pytest.raises(ValueError, match="two different records"):
        list(distinct([*some, changed]))
    stream = DistinctPapers(iter(some))
    assert distinct(stream) is stream and list(distinct(stream)) == some
    assert icml2026.export(DistinctPapers(some), "bibtex").count("@inproceedings") == 3


def test_a_streamed_export_equals_the_export_of_the_loaded_records(tmp_path) -> None:
    import json

    from icml2026.store.papers import stream_papers

    loaded = icml2026.load()
    path = tmp_path / "records.jsonl"
    subset = list(loaded)[::400]
    path.write_text("".join(json.dumps(p.to_dict()) + "\n" for p in subset), encoding="utf-8")
    stream = stream_papers([path])
    assert stream is not None
    assert icml2026.export(stream, "bibtex") == icml2026.export(icml2026.load([path]), "bibtex")
