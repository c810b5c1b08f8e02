"""Papers from record files: :func:`load` (the packaged volume, or a user's files and
folders, validated) and :func:`stream_papers` (an export in flat memory)."""

from __future__ import annotations

import os

from ..collection import DistinctPapers, PaperCollection
from ..errors import DataError
from ..model import Paper, Proceedings
from .packaged import load_packaged, load_proceedings
from .records import LoadedRecord, Problem, RecordReader, read_records, record_files

TYPE_CHECKING = False  # typing is not imported at run time (start-up)
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator
    from typing import Any


def paper_from_json(data: Any, proceedings: dict[str, Proceedings], where: str) -> Paper:
    if not isinstance(data, dict):
        raise DataError(f"{where}: a paper record must be a JSON object")
    ref = data.get("proceedings")
    proc = proceedings.get(ref) if isinstance(ref, str) else None
    if proc is None:
        raise DataError(f"{where}: unknown proceedings {data.get('proceedings')!r}")
    try:
        return Paper.from_dict(data, proc)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise DataError(f"{where}: not a valid paper record ({exc!r}); run 'icml2026 validate'") from None


def proceedings_from_json(data: Any, where: str) -> Proceedings:
    try:
        return Proceedings.from_dict(data)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise DataError(f"{where}: not a proceedings record ({exc!r}); run 'icml2026 validate'") from None


def load(paths: Iterable[str | os.PathLike[str]] | None = None, *, validate: bool = True,
         corrections: bool = True) -> PaperCollection:
    """Load the packaged papers, or the paper files/folders in *paths*.

    Packaged data was validated against the schema when it was built and by the
    test suite, so it is not re-validated (start-up time).  Records from *paths*
    are read, validated (unless *validate* is false) and converted one at a time:
    a malformed record raises a :class:`DataError` naming file, record, field and
    problem (and how many more there are), instead of failing later inside an
    exporter.  A proceedings record applies to every paper that names it, also to
    papers read before it.

    The packaged papers come with the user's corrections layer applied, if
    there is one (``icml2026 update``; :mod:`icml2026.update.layer`), unless
    *corrections* is false (the CLI's ``--no-corrections``).
    """
    if paths is None:
        return load_packaged(corrections=corrections)
    return PaperCollection(_read_papers(list(paths), load_proceedings(), validate))


def _read_papers(paths: list[str | os.PathLike[str]], proceedings: dict[str, Proceedings],
                 validate: bool) -> list[Paper]:
    checker = _checker() if validate else None
    problems = _Problems()
    papers: list[Paper | LoadedRecord] = []  # a LoadedRecord waits for its proceedings
    for item in read_records(paths):
        if not problems.note(_problems_of(item, checker)) or problems.count:
            continue  # after a problem, only count the others (one line says how many)
        assert isinstance(item, LoadedRecord)
        if item.is_proceedings:
            proc = proceedings_from_json(item.data, item.file)
            proceedings[proc.id] = proc
        elif isinstance(item.data, dict) and str(item.data.get("proceedings")) in proceedings:
            papers.append(paper_from_json(item.data, proceedings, item.file))
        else:
            papers.append(LoadedRecord(item.file, item.data))
    if checker is not None:
        problems.note(checker.finish())
    problems.raise_if_any()
    return [_bound(paper, proceedings) for paper in papers]


def _bound(paper: Paper | LoadedRecord, proceedings: dict[str, Proceedings]) -> Paper:
    """*paper* with the last proceedings record of its id (one may come after the paper)."""
    if isinstance(paper, LoadedRecord):
        return paper_from_json(paper.data, proceedings, paper.file)
    final = proceedings[paper.proceedings.id]
    if final is paper.proceedings:
        return paper
    import dataclasses

    return dataclasses.replace(paper, proceedings=final)


def stream_papers(paths: Iterable[str | os.PathLike[str]]) -> Iterator[Paper] | None:
    """The papers of *paths* in collection order (citation key, then id), for an export
    that streams in flat memory.

    A first pass validates every record and raises a :class:`DataError` as
    :func:`load` does, before anything is written; it keeps the keys that must be
    unique, the proceedings records and where each paper is.  The papers are then
    read again and converted one at a time, in order (by seeking when the files are
    not in that order already).  None when a path is not a regular file (a pipe
    cannot be read twice): use :func:`load`.
    """
    targets = list(paths)
    from pathlib import Path

    if any(isinstance(item, Path) and not item.is_file() for item in record_files(targets)):
        return None
    proceedings = load_proceedings()
    checker = _checker()
    problems = _Problems()
    plan = _Plan()
    for item in read_records(targets):
        if problems.note(_problems_of(item, checker)) and not problems.count:
            assert isinstance(item, LoadedRecord)
            if item.is_proceedings:
                proc = proceedings_from_json(item.data, item.file)
                proceedings[proc.id] = proc
            else:
                plan.add(item)
    problems.note(checker.finish())
    problems.raise_if_any()
    return DistinctPapers(plan.papers(targets, proceedings))  # ids unique: validated above


class _Plan:
    """Where each paper is and its place in collection order: ``(label, id, n)`` and two
    arrays of positions (the strings are those the key check keeps anyway)."""

    def __init__(self) -> None:
        self.order: list[tuple[str, str, int]] = []
        self.sources: list[tuple[int, str]] = []  # (first n, path) of each file
        from array import array

        self.offsets = array("q")
        self.lines = array("q")  # JSON Lines line number, array index, or -1
        self.in_order = True

    def add(self, record: LoadedRecord) -> None:
        data, n = record.data, len(self.order)
        key = (data.get("citation_key") or data["id"], data["id"], n)
        self.in_order = self.in_order and (not self.order or self.order[-1] <= key)
        self.order.append(key)
        if not self.sources or self.sources[-1][1] != record.source:
            self.sources.append((n, record.source))
        self.offsets.append(record.offset)
        line = record.file.rpartition(":")[2] if record.source.endswith(".jsonl") else str(record.offset)
        self.lines.append(int(line))

    def papers(self, targets: list[str | os.PathLike[str]], proceedings: dict[str, Proceedings]) -> Iterator[Paper]:
        if self.in_order:  # one sequential read, as the files are
            yield from _converted(targets, proceedings)
            return
        from bisect import bisect_right

        self.order.sort()
        starts = [start for start, _ in self.sources]
        with RecordReader() as reader:
            for _, _, n in self.order:
                source = self.sources[bisect_right(starts, n) - 1][1]
                offset, line = self.offsets[n], self.lines[n]
                where = f"{source}:{line}" if source.endswith(".jsonl") else (
                    f"{source}[{line}]" if line >= 0 else source)
                item = reader.read(source, offset, where)
                if isinstance(item, Problem):
                    raise DataError(f"{item} (it changed while being read)")
                yield paper_from_json(item.data, proceedings, item.file)


def _converted(targets: list[str | os.PathLike[str]], proceedings: dict[str, Proceedings]) -> Iterator[Paper]:
    for item in read_records(targets):
        if isinstance(item, Problem):
            raise DataError(f"{item} (it changed while being read)")
        if not item.is_proceedings:
            yield paper_from_json(item.data, proceedings, item.file)


def _checker() -> Any:
    from ..validation import Checker  # jsonschema: only for data from elsewhere

    return Checker()


def _problems_of(item: LoadedRecord | Problem, checker: Any) -> list[Problem]:
    if isinstance(item, Problem):
        if checker is None:
            raise DataError(str(item), (item,))
        return [item]
    return checker.check(item) if checker is not None else []


class _Problems:
    """The first problem and how many there are: a one-line error, in flat memory."""

    def __init__(self) -> None:
        self.first: Problem | None = None
        self.count = 0

    def note(self, found: Iterable[Problem]) -> bool:
        """Count *found*; True when it was empty."""
        before = self.count
        for problem in found:
            self.first = self.first or problem
            self.count += 1
        return self.count == before

    def raise_if_any(self) -> None:
        if self.first is not None:
            more = f" (and {self.count - 1} more; run 'icml2026 validate')" if self.count > 1 else ""
            raise DataError(f"{self.first}{more}", (self.first,), self.count)
