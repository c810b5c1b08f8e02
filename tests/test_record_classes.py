"""The record classes (model, markup, store.records) are plain ``__slots__`` classes for start-up
speed, and keep the behaviour of the frozen dataclasses they were, as the dataclasses
documentation describes it: the expected values are a real dataclass's."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest

from icml2026.markup import Segment
from icml2026.model import Identifiers, Pages, Person
from icml2026.store.records import LoadedRecord, Problem


@dataclasses.dataclass(frozen=True)
class Twin:  # a real frozen dataclass with Person's fields: the oracle for repr, eq and hash
    family: str | None = None
    given: str | None = None
    particle: str | None = None
    suffix: str | None = None
    literal: str | None = None


def test_construction_equality_hash_and_repr_as_a_frozen_dataclass() -> None:
    ours, twin = Person("Li", given="Yang"), Twin("Li", given="Yang")
    assert repr(ours) == repr(twin).replace("Twin(", "Person(")
    assert ours == Person(family="Li", given="Yang") and ours != Person("Li")
    assert hash(ours) == hash(Person("Li", "Yang")) == hash(dataclasses.astuple(twin))
    assert ours != twin and ours != ("Li", "Yang", None, None, None)  # another class is never equal
    assert len({Person("Li"), Person("Li"), Person("Lin")}) == 2


def test_frozen() -> None:
    person = Person("Li")
    with pytest.raises(dataclasses.FrozenInstanceError):
        person.family = "Lin"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del person.family  # type: ignore[misc]
    with pytest.raises(AttributeError):
        person.nickname = "x"  # type: ignore[attr-defined]  # __slots__: no other attribute


def test_dataclasses_functions_work() -> None:
    person = Person("Li", "Yang")
    changed = dataclasses.replace(person, given="Wei")
    assert changed == Person("Li", "Wei") and person.given == "Yang"
    assert dataclasses.is_dataclass(person) and dataclasses.is_dataclass(Pages)
    assert [f.name for f in dataclasses.fields(Identifiers)] == ["pmlr", "openreview", "arxiv", "doi"]
    assert dataclasses.asdict(Pages(3, 9)) == {"first": 3, "last": 9}
    assert dataclasses.astuple(Segment("math", "x^2")) == ("math", "x^2", False)


def test_pickle_and_copy_give_equal_records() -> None:
    for record in (Person("Li", "Yang"), Pages(1, 2), Segment("text", "a", True), Problem("f", "r", "/p", "m")):
        assert pickle.loads(pickle.dumps(record)) == record
        assert copy.copy(record) == record and copy.deepcopy(record) == record


def test_problem_orders_by_its_fields_in_turn() -> None:
    problems = [Problem("b", "1", "/", "x"), Problem("a", "2", "/", "x"), Problem("a", "1", "/z", "x")]
    assert sorted(problems) == [Problem("a", "1", "/z", "x"), Problem("a", "2", "/", "x"), Problem("b", "1", "/", "x")]
    assert Problem("a", "1", "", "") < Problem("a", "1", "", "m") <= Problem("a", "1", "", "m")


def test_a_loaded_record_is_mutable_and_unhashable_as_a_plain_dataclass() -> None:
    record = LoadedRecord("f.json", {"id": "x"})
    record.text = "{}"
    assert record.text == "{}" and record.offset == -1 and record.label == "x"
    with pytest.raises(TypeError):
        hash(record)


def _packaged_lines() -> list[bytes]:
    from icml2026.store.packaged import packaged_papers

    return [line for line in packaged_papers().read_bytes().split(b"\n") if line]


def test_a_packaged_paper_builds_each_field_as_from_dict_does_on_first_access() -> None:
    """Paper.from_packaged keeps the record and builds authors, pages, sources … when read:
    field for field what from_dict builds at once, whatever is read first."""
    import json

    from icml2026.model import Paper
    from icml2026.store.packaged import load_proceedings

    proceedings = load_proceedings()
    names = [f.name for f in dataclasses.fields(Paper)]
    lines = _packaged_lines()
    for step, line in enumerate(lines[::97]):
        eager = Paper.from_dict(json.loads(line), proceedings["pmlr-v306"])
        lazy = Paper.from_packaged(json.loads(line), proceedings["pmlr-v306"])
        order = names[step % len(names):] + names[:step % len(names)]  # a different field first each time
        for name in order:
            assert getattr(lazy, name) == getattr(eager, name), (eager.id, name)
            assert getattr(lazy, name) is getattr(lazy, name)  # built once
        assert lazy == eager and hash(lazy) == hash(eager) and repr(lazy) == repr(eager)
        assert lazy.to_dict() == json.loads(line)  # the canonical record, as the line holds it


def test_a_packaged_paper_behaves_as_a_record_before_any_field_is_read() -> None:
    import json

    from icml2026.model import Paper
    from icml2026.store.packaged import load_proceedings

    proceedings = load_proceedings()["pmlr-v306"]
    line = _packaged_lines()[0]

    def fresh() -> Paper:
        return Paper.from_packaged(json.loads(line), proceedings)

    eager = Paper.from_dict(json.loads(line), proceedings)
    assert fresh() == eager and eager == fresh()
    assert pickle.loads(pickle.dumps(fresh())) == eager and copy.deepcopy(fresh()) == eager
    assert dataclasses.asdict(fresh()) == dataclasses.asdict(eager)
    assert dataclasses.replace(fresh(), title="X") == dataclasses.replace(eager, title="X")
    assert fresh().source_of("/pages") == eager.source_of("/pages") is not None
    assert fresh().keys() == eager.keys()
    for paper in (fresh(), eager):
        assert not hasattr(paper, "nickname") and not hasattr(paper, "_raw_record")
        with pytest.raises(dataclasses.FrozenInstanceError):
            paper.authors = ()  # type: ignore[misc]


def test_a_broken_packaged_record_is_a_data_error_naming_it_when_read() -> None:
    import json

    from icml2026.errors import DataError
    from icml2026.model import Paper
    from icml2026.store.packaged import load_proceedings

    record = json.loads(_packaged_lines()[0])
    record["authors"] = [{"family": "Li", "nickname": "x"}]  # a key Person does not have
    paper = Paper.from_packaged(record, load_proceedings()["pmlr-v306"])
    assert paper.title == record["title"]  # the other fields are there
    with pytest.raises(DataError, match=f"packaged record {record['id']}: not a valid paper record.*reinstall"):
        paper.authors  # noqa: B018
    with pytest.raises(TypeError):
        Paper.from_dict(record, load_proceedings()["pmlr-v306"])  # from_dict: at once, as before
