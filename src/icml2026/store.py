"""Reading and writing record files: the packaged data, user paths, atomic output."""

from __future__ import annotations

import errno
import gc
import json
import os
import stat

from .collection import PaperCollection
from .errors import DataError, OutputError, Terminated
from .model import Paper, Proceedings
from .recordfiles import (  # noqa: F401  (data_dir, schema_dir, read_json: this module's API too)
    LoadedRecord,
    Problem,
    RecordReader,
    data_dir,
    data_file,
    is_proceedings_record,
    parse_json,
    read_json,
    read_records,
    read_text,
    record_files,
    schema_dir,
)

TYPE_CHECKING = False  # typing is not imported at run time (start-up)
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator
    from pathlib import Path
    from typing import IO, Any

PACKAGE_DATA = "data"


def packaged_papers() -> Path:
    """All packaged paper records, one JSON object a line (see README: "Packaged format")."""
    return data_dir() / "papers.jsonl"


def load_proceedings(folder: Path | None = None) -> dict[str, Proceedings]:
    if folder is None:  # the packaged ones, without pathlib (start-up)
        where = data_file("proceedings")
        paths: list[Path | str] = [os.path.join(where, name) for name in sorted(os.listdir(where))
                                   if name.endswith(".json")]
    else:
        paths = sorted(folder.glob("*.json"))
    found = {}
    for path in paths:
        data = read_json(path)
        try:
            proc = Proceedings.from_dict(data)
        except (KeyError, TypeError, ValueError) as exc:
            raise DataError(f"{path}: not a proceedings record ({exc!r}); run 'icml2026 validate'") from None
        found[proc.id] = proc
    return found


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
    proceedings = load_proceedings()
    if paths is None:
        return _with_corrections(_load_packaged(proceedings), corrections)
    return PaperCollection(_read_papers(list(paths), proceedings, validate))


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
    return plan.papers(targets, proceedings)


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
    from .validation import Checker  # jsonschema: only for data from elsewhere

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


def _with_corrections(papers: PaperCollection, corrections: bool) -> PaperCollection:
    """The packaged *papers* with the user's corrections layer ('icml2026 update') applied."""
    from .update.paths import active_layer  # one stat() when there is no layer

    if active_layer(corrections) is None:
        return papers
    from .update.layer import apply_corrections

    fixed = apply_corrections(papers, corrections)
    return papers if fixed is None else PaperCollection(fixed)


_CHUNK = 1 << 20  # bytes of papers.jsonl read and parsed at a time (about 400 records)


def _load_packaged(proceedings: dict[str, Proceedings]) -> PaperCollection:
    # The file is written by tools/build_records.py, one record a line, in collection order
    # (and checked there): no sort, and no validation (the build validated every record).
    # It is read a megabyte of whole lines at a time, each parsed as one JSON array: the
    # parser shares the strings of a chunk's keys among its records (17 MB less than one
    # json.loads a line, and no slower), and neither the whole file (as bytes, or as one
    # string: UCS-2, for a few non-ASCII characters) nor its lines are ever held.  The papers
    # keep their records and build what is not a plain value on first access
    # (Paper.from_packaged).
    path = data_file("papers.jsonl")
    # The ~60,000 containers made here hold no reference cycles: the cyclic garbage
    # collector would only rescan them, again and again, while they are made.
    enabled = gc.isenabled()
    gc.disable()
    try:
        loads, from_packaged, papers = json.loads, Paper.from_packaged, []
        with open(path, "rb") as handle:
            rest = b""
            while True:
                block = handle.read(_CHUNK)
                lines, _, rest = (rest + block).rpartition(b"\n") if block else (rest, b"", b"")
                if lines:
                    for record in loads(b"[" + lines.replace(b"\n", b",") + b"]"):
                        papers.append(from_packaged(record, proceedings[record["proceedings"]]))
                if not block:
                    break
        return PaperCollection.in_order(papers)
    except OSError as exc:
        raise DataError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except (ValueError, KeyError, TypeError) as exc:
        raise DataError(f"{path}: not the packaged records ({exc!r}); reinstall icml2026") from None
    finally:
        if enabled:
            gc.enable()


def load_keys(keys: Iterable[str], *, corrections: bool = True) -> PaperCollection | None:
    """The packaged papers named by *keys*, read through the index without loading the rest
    (with the corrections layer applied unless *corrections* is false, as :func:`load`).

    Returns None when a key is not in the index (the caller then loads everything,
    to report it with suggestions).  ``icml2026 show KEY`` and ``export --keys``
    start this way: a few kilobytes read instead of the whole volume.
    """
    index = b"\n" + _read_bytes(data_file("index.tsv"))
    spans = []
    for key in keys:
        at = index.find(b"\n" + key.encode("utf-8") + b"\t")
        if at < 0:
            return None
        _, start, length = index[at + 1:index.index(b"\n", at + 1)].split(b"\t")
        spans.append((int(start), int(length)))
    proceedings = load_proceedings()
    papers = []
    with open(data_file("papers.jsonl"), "rb") as handle:
        for offset, size in dict.fromkeys(spans):
            handle.seek(offset)
            record = json.loads(handle.read(size))
            papers.append(Paper.from_dict(record, proceedings[record["proceedings"]]))
    return _with_corrections(PaperCollection(papers), corrections)


def packaged_listing(text: str, author: str | None, limit: int, *,
                     corrections: bool = True) -> tuple[list[Paper], int, int] | None:
    """``icml2026 list`` over the packaged volume without loading it: the first *limit*
    papers (0: all) matching *text*/*author* in rank order, the number of matches and
    how many of them are complete.

    It reads the word index the data build stored (``data/search-words.tsv``; the
    search index, ``data/search-index.txt``, only for a phrase or ``--author``) and
    ``data/lines.tsv`` (offset, length and completeness of each line of
    ``papers.jsonl``, in collection order), then only the lines it prints.  Returns
    None when it cannot answer alone: an identifier or URL query (answered through
    the key index or a full load), a corrections layer in use (unless *corrections* is
    false), or a stale index.
    """
    from .search import Index, StaleIndex, words
    from .update.paths import active_layer

    query = text.strip()
    if active_layer(corrections) is not None or "/" in query or (" " not in query and _index_keys(query)):
        return None
    # Rows split only where a hit needs them; the words of the query read from the word
    # index (search-words.tsv), the scanned index opened only for what words cannot answer.
    lines = _read_bytes(data_file("lines.tsv")).split(b"\n")
    if lines and not lines[-1]:
        lines.pop()
    scanned: list[Index] = []

    def scan() -> Index:
        if not scanned:
            found = Index.from_bytes(_read_bytes(data_file("search-index.txt")), len(lines))
            if found is None:
                raise StaleIndex("search-index.txt")
            scanned.append(found)
        return scanned[0]

    try:
        index = Index.from_words(_read_bytes(data_file("search-words.tsv")), len(lines), scan)
    except OSError:  # not in this copy of the data: the full path answers
        return None
    if index is None:
        return None
    hits: list[int] | range = range(len(lines))
    try:
        if words(text):
            tiers = index.rank(text) or []
            hits = [i for tier in tiers for i in sorted(tier)]
        if author and words(author):
            allowed = index.author_papers(author)
            hits = [i for i in hits if i in allowed]
    except StaleIndex:
        return None
    complete = sum(lines[i].endswith(b"\tcomplete") for i in hits)
    proceedings = load_proceedings()
    shown = []
    with open(data_file("papers.jsonl"), "rb") as handle:
        for i in hits[:limit] if limit else hits:
            offset, size, _ = lines[i].split(b"\t")
            handle.seek(int(offset))
            record = json.loads(handle.read(int(size)))
            shown.append(Paper.from_dict(record, proceedings[record["proceedings"]]))
    return shown, len(hits), complete


def _index_keys(query: str) -> set[str]:
    """The keys among *query*'s identifier readings that the key index holds."""
    from .search import identifier_candidates

    if not query:
        return set()
    index = b"\n" + _read_bytes(data_file("index.tsv"))
    return {key for key, _ in identifier_candidates(query) if index.find(b"\n" + key.encode("utf-8") + b"\t") >= 0}


def _read_bytes(path: str) -> bytes:
    with open(path, "rb") as handle:
        return handle.read()


def dumps_record(record: dict[str, Any]) -> str:
    """The canonical text of one record file: sorted keys, two-space indent, UTF-8."""
    return json.dumps(record, ensure_ascii=False, indent=2, sort_keys=True) + "\n"


def write_atomic(path: str | os.PathLike[str], chunks: Iterable[str] | bytes, *, make_parents: bool = True) -> None:
    """Write *chunks* (text, written as UTF-8, or the bytes of a binary file) to *path*
    so that a reader never sees half a file.

    A regular file (or a new one) is written through a temporary file in the same
    folder, fsynced, then renamed over it: a failure or SIGTERM leaves the old
    file (or none) and no temporary file.  The existing file's permissions are
    kept; a symlink's target is written, not the link replaced.  A device or FIFO
    (``/dev/stdout``, a pipe) is written into directly, never replaced.  A missing
    folder is created only with *make_parents*.  Failures are :class:`OutputError`.
    """
    from pathlib import Path

    target = Path(path)
    try:
        real = Path(os.path.realpath(target, strict=False))
        info = os.stat(real)
    except FileNotFoundError:
        info = None  # a new file (or the missing target of a symlink)
    except OSError as exc:  # a symlink loop, a path component that is a file …
        why = "a loop of symbolic links" if exc.errno == errno.ELOOP else exc.strerror or exc
        raise OutputError(f"{target}: cannot write: {why}") from None
    if info is not None and stat.S_ISDIR(info.st_mode):
        raise OutputError(f"{target}: cannot write: it is a folder")
    if info is not None and not stat.S_ISREG(info.st_mode):
        _write_in_place(real, target, chunks)
        return
    if not real.parent.is_dir():
        if not make_parents:
            raise OutputError(f"{target}: cannot write: folder {real.parent} does not exist")
        try:
            real.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise OutputError(f"{target}: cannot create folder {real.parent}: {exc.strerror or exc}") from None
    _replace(real, target, chunks, stat.S_IMODE(info.st_mode) if info is not None else None)


def _replace(real: Path, target: Path, chunks: Iterable[str] | bytes, keep: int | None) -> None:
    """Write *real* through a temporary file renamed over it; *keep*: the mode of the file
    replaced (None: a new file, whose mode open(2) gives, 0o666 less the umask)."""
    try:
        fd, tmp = _temporary(real, 0o666 if keep is None else keep)
    except OSError as exc:
        raise OutputError(f"{target}: cannot write: {exc.strerror or exc}") from None
    try:
        with _terminate_as_exception(), _open_fd(fd, chunks) as handle:
            _write_chunks(handle, chunks)
            handle.flush()
            os.fsync(handle.fileno())
            if keep is not None:  # created as *keep* less the umask: the mode exactly
                os.chmod(tmp, keep)
            os.replace(tmp, real)
        _fsync_folder(real.parent)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        if isinstance(exc, OSError):  # disk full, permission denied, …
            raise OutputError(f"{target}: cannot write: {exc.strerror or exc}") from None
        raise


def _open_fd(fd: int | Path, chunks: Iterable[str] | bytes) -> IO[Any]:
    if isinstance(chunks, bytes):
        return open(fd, "wb")
    return open(fd, "w", encoding="utf-8", newline="\n")


def _write_chunks(handle: IO[Any], chunks: Iterable[str] | bytes) -> None:
    if isinstance(chunks, bytes):
        handle.write(chunks)
        return
    for chunk in chunks:
        handle.write(chunk)


def _write_in_place(real: Path, target: Path, chunks: Iterable[str] | bytes) -> None:
    try:
        with _open_fd(real, chunks) as handle:
            _write_chunks(handle, chunks)
    except OSError as exc:
        raise OutputError(f"{target}: cannot write: {exc.strerror or exc}") from None


_TEMPORARY_FLAGS = (os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
                    | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))


def _temporary(real: Path, mode: int) -> tuple[int, str]:
    """A new file beside *real* (``.NAME.<random>.tmp``), open for writing, created with
    *mode* less the umask as open(2) creates any file: the process umask, which other
    threads share, is never changed to be read."""
    for _ in range(100):
        tmp = os.path.join(real.parent, f".{real.name}.{os.urandom(6).hex()}.tmp")
        try:
            return os.open(tmp, _TEMPORARY_FLAGS, mode), tmp
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no unused temporary file name", str(real.parent))


def _fsync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems cannot fsync a folder; the rename is done
    finally:
        os.close(fd)


class _terminate_as_exception:  # a context manager (no contextlib at start-up)
    """Turn SIGTERM into an exception for the duration, so cleanup code runs."""

    def __enter__(self) -> None:
        import signal
        import threading

        self.installed = threading.current_thread() is threading.main_thread()
        if self.installed:
            self.previous = signal.signal(signal.SIGTERM, _raise_terminated)

    def __exit__(self, *_: object) -> None:
        if self.installed:
            import signal

            signal.signal(signal.SIGTERM, self.previous)


def _raise_terminated(signum: int, frame: Any) -> None:
    raise Terminated()
