"""Reading and writing record files: the packaged data, user paths, atomic output."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import stat
import tempfile
from importlib import resources
from pathlib import Path
from typing import Any, Iterable, Iterator

from .collection import PaperCollection
from .errors import DataError, OutputError, Terminated
from .model import Paper, Proceedings

PACKAGE_DATA = "data"


def data_dir() -> Path:
    """The folder of packaged records (``papers.jsonl``, ``index.tsv`` and ``proceedings/``)."""
    return Path(str(resources.files("icml2026") / PACKAGE_DATA))


def packaged_papers() -> Path:
    """All packaged paper records, one JSON object a line (see README: "Packaged format")."""
    return data_dir() / "papers.jsonl"


def schema_dir() -> Path:
    """The JSON Schemas: inside the wheel, or ``schema/`` of a source checkout."""
    packaged = Path(str(resources.files("icml2026") / "schema"))
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[2] / "schema"


def read_text(path: Path) -> str:
    """A UTF-8 file's text; failures become a :class:`DataError` naming the file."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise DataError(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DataError(f"{path}: not valid UTF-8 (byte {exc.start})") from None


def parse_json(text: str, where: str | Path) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataError(f"{where}: invalid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})") from None


def read_json(path: Path) -> Any:
    """Parse one JSON file; any failure becomes a :class:`DataError` naming the file."""
    return parse_json(read_text(path), path)


def load_proceedings(folder: Path | None = None) -> dict[str, Proceedings]:
    folder = folder or data_dir() / "proceedings"
    found = {}
    for path in sorted(folder.glob("*.json")):
        data = read_json(path)
        try:
            proc = Proceedings.from_dict(data)
        except (KeyError, TypeError, ValueError) as exc:
            raise DataError(f"{path}: not a proceedings record ({exc!r}); run 'icml2026 validate'") from None
        found[proc.id] = proc
    return found


def record_files(paths: Iterable[Path]) -> Iterator[Path]:
    """Expand folders into their ``*.json``/``*.jsonl`` files and those of a
    ``proceedings/`` subfolder (where ``icml2026 import -o DIR`` puts them), sorted."""
    for path in paths:
        if path.is_dir():
            for folder in (path, path / "proceedings"):
                yield from sorted(p for p in folder.glob("*.json*") if p.suffix in (".json", ".jsonl"))
        else:
            yield path


PAPER_ONLY_FIELDS = frozenset({"proceedings", "status", "title", "authors", "abstract", "pages", "citation_key"})


def is_proceedings_record(data: Any) -> bool:
    """A record with none of a paper's own fields (papers always name their proceedings)."""
    return isinstance(data, dict) and PAPER_ONLY_FIELDS.isdisjoint(data)


def paper_from_json(data: Any, proceedings: dict[str, Proceedings], where: str) -> Paper:
    if not isinstance(data, dict):
        raise DataError(f"{where}: a paper record must be a JSON object")
    proc = proceedings.get(data.get("proceedings", ""))
    if proc is None:
        raise DataError(f"{where}: unknown proceedings {data.get('proceedings')!r}")
    try:
        return Paper.from_dict(data, proc)
    except (KeyError, TypeError, ValueError) as exc:
        raise DataError(f"{where}: not a valid paper record ({exc!r}); run 'icml2026 validate'") from None


def load(paths: Iterable[str | os.PathLike[str]] | None = None, *, validate: bool = True,
         corrections: bool | None = None) -> PaperCollection:
    """Load the packaged papers, or the paper files/folders in *paths*.

    Packaged data was validated against the schema when it was built and by the
    test suite, so it is not re-validated (start-up time).  Records from *paths*
    are validated first, unless *validate* is false: a malformed record raises a
    :class:`DataError` naming file, record, field and problem, instead of
    failing later inside an exporter.

    The packaged papers come with the user's corrections layer applied, if
    there is one (``icml2026 update``; :mod:`icml2026.update.layer`), unless
    *corrections* is false (None: yes, unless ``--no-corrections``).
    """
    proceedings = load_proceedings()
    if paths is None:
        return _with_corrections(_load_packaged(proceedings), corrections)
    targets = [Path(p) for p in paths]
    if validate:
        raise_on_problems(targets)
    found = [(where, item) for path in record_files(targets) for where, item in read_records(path)]
    for where, item in found:  # proceedings first: papers refer to them
        if is_proceedings_record(item):
            try:
                proc = Proceedings.from_dict(item)
            except (KeyError, TypeError, ValueError) as exc:
                raise DataError(f"{where}: not a proceedings record ({exc!r}); run 'icml2026 validate'") from None
            proceedings[proc.id] = proc
    papers = [paper_from_json(item, proceedings, where) for where, item in found
              if not is_proceedings_record(item)]
    return PaperCollection(papers)


def _with_corrections(papers: PaperCollection, corrections: bool | None = None) -> PaperCollection:
    """The packaged *papers* with the user's corrections layer ('icml2026 update') applied."""
    from .update.paths import active_layer  # one stat() when there is no layer

    if active_layer(corrections) is None:
        return papers
    from .update.layer import apply_corrections

    fixed = apply_corrections(papers, corrections)
    return papers if fixed is None else PaperCollection(fixed)


def _load_packaged(proceedings: dict[str, Proceedings]) -> PaperCollection:
    # One json.loads of the whole file is about twice as fast as one per line; the
    # file is written by tools/build_records.py, one record a line, no blank lines.
    text = read_text(packaged_papers())
    records = json.loads("[" + text.rstrip("\n").replace("\n", ",") + "]")
    return PaperCollection(Paper.from_dict(r, proceedings[r["proceedings"]]) for r in records)


def load_keys(keys: Iterable[str]) -> PaperCollection | None:
    """The packaged papers named by *keys*, read through the index without loading the rest.

    Returns None when a key is not in the index (the caller then loads everything,
    to report it with suggestions).  ``icml2026 show KEY`` and ``export --keys``
    start this way: a few kilobytes read instead of the whole volume.
    """
    index = b"\n" + (data_dir() / "index.tsv").read_bytes()
    spans = []
    for key in keys:
        at = index.find(b"\n" + key.encode("utf-8") + b"\t")
        if at < 0:
            return None
        _, offset, size = index[at + 1:index.index(b"\n", at + 1)].split(b"\t")
        spans.append((int(offset), int(size)))
    proceedings = load_proceedings()
    papers = []
    with packaged_papers().open("rb") as handle:
        for offset, size in dict.fromkeys(spans):
            handle.seek(offset)
            record = json.loads(handle.read(size))
            papers.append(Paper.from_dict(record, proceedings[record["proceedings"]]))
    return _with_corrections(PaperCollection(papers))


def _packaged_line(offset: int, size: int, proceedings: dict[str, Proceedings]) -> Paper:
    with packaged_papers().open("rb") as handle:
        handle.seek(offset)
        record = json.loads(handle.read(size))
    return Paper.from_dict(record, proceedings[record["proceedings"]])


def packaged_listing(text: str, author: str | None, limit: int) -> tuple[list[Paper], int, int] | None:
    """``icml2026 list`` over the packaged volume without loading it: the first *limit*
    papers (0: all) matching *text*/*author* in rank order, the number of matches and
    how many of them are complete.

    It reads the search index the data build stored (``data/search-index.txt``) and
    ``data/lines.tsv`` (offset, length and completeness of each line of
    ``papers.jsonl``, in collection order), then only the lines it prints.  Returns
    None when it cannot answer alone: an identifier or URL query (answered through
    the key index or a full load), a corrections layer in use, or a stale index.
    """
    from .search import Index, words
    from .update.paths import active_layer

    query = text.strip()
    if active_layer(None) is not None or "/" in query or (" " not in query and _index_keys(query)):
        return None
    lines = [row.split("\t") for row in (data_dir() / "lines.tsv").read_text(encoding="utf-8").splitlines()]
    index = Index.from_text((data_dir() / "search-index.txt").read_text(encoding="utf-8"), len(lines))
    if index is None:
        return None
    hits: list[int] | range = range(len(lines))
    if words(text):
        tiers = index.rank(text) or []
        hits = [i for tier in tiers for i in sorted(tier)]
    if author and words(author):
        allowed = index.author_papers(author)
        hits = [i for i in hits if i in allowed]
    complete = sum(lines[i][2] == "complete" for i in hits)
    proceedings = load_proceedings()
    shown = [_packaged_line(int(lines[i][0]), int(lines[i][1]), proceedings)
             for i in (hits[:limit] if limit else hits)]
    return shown, len(hits), complete


def _index_keys(query: str) -> set[str]:
    """The keys among *query*'s identifier readings that the key index holds."""
    from .search import identifier_candidates

    if not query:
        return set()
    index = b"\n" + (data_dir() / "index.tsv").read_bytes()
    return {key for key, _ in identifier_candidates(query) if index.find(b"\n" + key.encode("utf-8") + b"\t") >= 0}


def raise_on_problems(targets: list[Path]) -> None:
    from .validation import validate_paths  # jsonschema: only for data from elsewhere

    problems = validate_paths(targets)
    if problems:
        more = f" (and {len(problems) - 1} more; run 'icml2026 validate')" if len(problems) > 1 else ""
        raise DataError(f"{problems[0]}{more}")


def read_records(path: Path) -> Iterator[tuple[str, Any]]:
    """(location, record) pairs of a ``.json`` file (object or array) or a ``.jsonl`` file."""
    if path.suffix == ".jsonl":
        for lineno, line in enumerate(read_text(path).splitlines(), 1):
            if line.strip():
                yield f"{path}:{lineno}", parse_json(line, f"{path}:{lineno}")
        return
    data = read_json(path)
    if isinstance(data, list):
        yield from ((f"{path}[{n}]", item) for n, item in enumerate(data))
    else:
        yield str(path), data


def dumps_record(record: dict[str, Any]) -> str:
    """The canonical text of one record file: sorted keys, two-space indent, UTF-8."""
    return json.dumps(record, ensure_ascii=False, indent=2, sort_keys=True) + "\n"


def write_atomic(path: str | os.PathLike[str], chunks: Iterable[str], *, make_parents: bool = True) -> None:
    """Write *chunks* to *path* so that a reader never sees half a file.

    A regular file (or a new one) is written through a temporary file in the same
    folder, fsynced, then renamed over it: a failure or SIGTERM leaves the old
    file (or none) and no temporary file.  The existing file's permissions are
    kept; a symlink's target is written, not the link replaced.  A device or FIFO
    (``/dev/stdout``, a pipe) is written into directly, never replaced.  A missing
    folder is created only with *make_parents*.  Failures are :class:`OutputError`.
    """
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
    mode = stat.S_IMODE(info.st_mode) if info is not None else 0o666 & ~_umask()
    _replace(real, target, chunks, mode)


def _replace(real: Path, target: Path, chunks: Iterable[str], mode: int) -> None:
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{real.name}.", suffix=".tmp", dir=real.parent)
    except OSError as exc:
        raise OutputError(f"{target}: cannot write: {exc.strerror or exc}") from None
    try:
        with _terminate_as_exception(), os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            for chunk in chunks:
                handle.write(chunk)
            handle.flush()
            os.fsync(handle.fileno())
            os.chmod(tmp, mode)
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


def _write_in_place(real: Path, target: Path, chunks: Iterable[str]) -> None:
    try:
        with open(real, "w", encoding="utf-8", newline="\n") as handle:
            for chunk in chunks:
                handle.write(chunk)
    except OSError as exc:
        raise OutputError(f"{target}: cannot write: {exc.strerror or exc}") from None


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current


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


@contextlib.contextmanager
def _terminate_as_exception() -> Iterator[None]:
    """Turn SIGTERM into an exception for the duration, so cleanup code runs."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def raise_terminated(signum: int, frame: Any) -> None:
        raise Terminated()

    previous = signal.signal(signal.SIGTERM, raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
