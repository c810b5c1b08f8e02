"""Finding and reading record files: the one reader behind ``load(paths)``, ``validate``
and ``export --data``.

A record file is ``.json`` (one object, or an array of objects) or ``.jsonl`` (one
object a line, split on ``\\n`` only: U+2028 inside a title is text).  Folders give
their ``*.json``/``*.jsonl`` files, those of a ``proceedings/`` subfolder first
(papers refer to them; ``icml2026 import -o DIR`` puts them there).

The reader never raises for bad data and never holds more than one record: it
yields :class:`LoadedRecord` values and, for what cannot be read, :class:`Problem`
values, in file order.  It imports nothing of the package but :mod:`errors`, so
:mod:`.papers` and :mod:`validation` can both use it without importing each other.
"""

from __future__ import annotations

import errno
import json
import os
import stat
import sys

from .._record import MutableRecord, OrderedRecord
from ..errors import DataError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Generator, Iterable, Iterator
    from pathlib import Path
    from typing import Any, BinaryIO, Self

MAX_FILE_BYTES = 64 * 1024 * 1024  # one .json document, or one JSON Lines line
RECORD_SUFFIXES = (".json", ".jsonl")
PAPER_ONLY_FIELDS = frozenset({"proceedings", "status", "title", "authors", "abstract", "pages", "citation_key"})
_CHUNK = 1 << 20
# The package is installed as files (wheel or editable), so its folder is a path:
# importlib.resources would load zipfile, tempfile, shutil and more on every start, and
# the one-paper commands use plain strings (pathlib, urllib.parse and ipaddress are a
# share of their start-up); data_dir() gives a Path.
_PACKAGE = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))  # icml2026/


def data_dir() -> Path:
    """The folder of packaged records (``papers.jsonl``, ``index.tsv`` and ``proceedings/``)."""
    from pathlib import Path

    return Path(_PACKAGE, "data")


def data_file(name: str) -> str:
    """The path of a packaged data file (``data_dir() / name``) as a string."""
    return os.path.join(_PACKAGE, "data", name)


def schema_dir() -> Path:
    """The JSON Schemas: inside the wheel, or ``schema/`` of a source checkout."""
    from pathlib import Path

    packaged = Path(_PACKAGE, "schema")
    if packaged.is_dir():
        return packaged
    return Path(_PACKAGE).parents[1] / "schema"


_set = object.__setattr__


def is_proceedings_record(data: Any) -> bool:
    """A record with none of a paper's own fields (papers always name their proceedings)."""
    return isinstance(data, dict) and PAPER_ONLY_FIELDS.isdisjoint(data)


class Problem(OrderedRecord):
    """One problem of a record file: ``file: record id: JSON pointer: message``."""

    __slots__ = ("file", "record", "pointer", "message")
    file: str
    record: str
    pointer: str
    message: str

    def __init__(self, file: str, record: str, pointer: str, message: str) -> None:
        _set(self, "file", file)
        _set(self, "record", record)
        _set(self, "pointer", pointer)
        _set(self, "message", message)

    def __str__(self) -> str:
        return f"{self.file}: {self.record}: {self.pointer or '/'}: {self.message}"


class LoadedRecord(MutableRecord):
    """One record as read: where it is (``file`` for messages; ``source`` and ``offset``
    to read it again with :class:`RecordReader`), the parsed JSON and, when the reader
    has it, the exact JSON text it was parsed from (validation checks text on it at C
    speed) and whether that text held a float literal."""

    __slots__ = ("file", "data", "text", "floats", "source", "offset")
    file: str
    data: Any
    text: str | None
    floats: bool
    source: str  # the file's path, shared by its records
    offset: int  # where in it: a line's byte offset, an array index; -1 the whole file

    def __init__(self, file: str, data: Any, text: str | None = None, floats: bool = True, source: str = "",
                 offset: int = -1) -> None:
        self.file = file
        self.data = data
        self.text = text
        self.floats = floats
        self.source = source
        self.offset = offset

    @property
    def label(self) -> str:
        rid = self.data.get("id") if isinstance(self.data, dict) else None
        return rid if isinstance(rid, str) and rid else "-"

    @property
    def is_proceedings(self) -> bool:
        return is_proceedings_record(self.data)


# -- whole small files (the packaged data, proceedings) ---------------------------

def read_text(path: Path | str) -> str:
    """A UTF-8 file's text; failures become a :class:`DataError` naming the file."""
    try:
        with open(path, "rb") as handle:
            raw = handle.read()
    except OSError as exc:
        raise DataError(f"{path}: cannot read: {_why(exc)}") from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DataError(f"{path}: not valid UTF-8 (byte {exc.start})") from None


def parse_json(text: str, where: str | Path) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataError(f"{where}: invalid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})") from None
    except (ValueError, RecursionError) as exc:
        raise DataError(f"{where}: invalid JSON: {_json_trouble(exc)}") from None


def read_json(path: Path | str) -> Any:
    """Parse one JSON file; any failure becomes a :class:`DataError` naming the file."""
    return parse_json(read_text(path), path)


# -- discovery -------------------------------------------------------------------

def record_files(paths: Iterable[str | os.PathLike[str]]) -> Iterator[Path | Problem]:
    """The record files under *paths*, each once, or a :class:`Problem` for a path that
    cannot be used.  Inside folders only regular files count: a FIFO or device named
    ``x.json`` is skipped (reading it could block forever)."""
    from pathlib import Path

    seen: set[tuple[int, int]] = set()
    for given in paths:
        path = Path(given)
        info = _stat(path)
        if isinstance(info, Problem):
            yield info
        elif stat.S_ISDIR(info.st_mode):
            yield from _folder_files(path, seen)
        elif _first_time(info, seen):
            yield path  # named explicitly: read it whatever it is (a pipe from <(…) too)


def _folder_files(folder: Path, seen: set[tuple[int, int]]) -> Iterator[Path | Problem]:
    for sub in (folder / "proceedings", folder):
        try:
            names = sorted(entry.name for entry in os.scandir(sub) if entry.name.endswith(RECORD_SUFFIXES))
        except FileNotFoundError:
            continue
        except OSError as exc:
            if exc.errno != errno.ENOTDIR:
                yield Problem(str(sub), "-", "", f"cannot read folder: {_why(exc)}")
            continue
        for name in names:
            path = sub / name
            info = _stat(path)
            if isinstance(info, Problem):
                yield info
            elif stat.S_ISREG(info.st_mode) and _first_time(info, seen):
                yield path


def _stat(path: Path) -> os.stat_result | Problem:
    try:
        return os.stat(path)
    except OSError as exc:
        if exc.errno == errno.ENOENT:
            why = "no such file or folder" if not os.path.islink(path) else "a symbolic link to nothing"
        else:
            why = f"cannot read file: {_why(exc)}"
        return Problem(str(path), "-", "", why)


def _first_time(info: os.stat_result, seen: set[tuple[int, int]]) -> bool:
    """False for a file already listed (a folder and its ``proceedings/`` both named)."""
    key = (info.st_dev, info.st_ino)
    if key in seen:
        return False
    seen.add(key)
    return True


def _why(exc: OSError) -> str:
    if exc.errno == errno.ELOOP:
        return "a loop of symbolic links"
    return exc.strerror or str(exc)


# -- reading ---------------------------------------------------------------------

def read_records(paths: Iterable[str | os.PathLike[str]]) -> Iterator[LoadedRecord | Problem]:
    """Every record under *paths*, one at a time, and a :class:`Problem` for each part
    that cannot be read; nothing raises for bad data."""
    for item in record_files(paths):
        if isinstance(item, Problem):
            yield item
        else:
            yield from read_file(item)


def read_file(path: Path) -> Iterator[LoadedRecord | Problem]:
    """The records of one file (an object, an array of objects, or JSON Lines)."""
    try:
        handle = open(path, "rb")  # not "with": an open failure is a Problem, not a raise
    except OSError as exc:
        yield Problem(str(path), "-", "", f"cannot read file: {_why(exc)}")
        return
    with handle:
        try:
            if path.suffix == ".jsonl":
                yield from _json_lines(handle, str(path))
            else:
                yield from _json_document(handle, str(path))
        except OSError as exc:  # EIO, a folder that vanished …
            yield Problem(str(path), "-", "", f"cannot read file: {_why(exc)}")


def _json_document(handle: BinaryIO, name: str) -> Iterator[LoadedRecord | Problem]:
    raw = handle.read(MAX_FILE_BYTES + 1)
    if len(raw) > MAX_FILE_BYTES:  # one JSON document is parsed whole: keep it bounded
        size = len(raw) + _skip(handle)
        yield Problem(name, "-", "", f"file is {size} bytes; at most {MAX_FILE_BYTES} allowed "
                      "(use JSON Lines for more records)")
        return
    text = yield from _decode(raw, name)
    if text is None:
        return
    parsed = yield from _parse(text, name, with_line=True)
    if parsed is None:
        return
    data, floats = parsed
    if isinstance(data, list):
        yield from (LoadedRecord(f"{name}[{n}]", item, None, True, name, n) for n, item in enumerate(data))
    else:
        yield LoadedRecord(name, data, text, floats, name)


def _json_lines(handle: BinaryIO, name: str) -> Iterator[LoadedRecord | Problem]:
    """One record a line, read as a stream: a file of any size, each line bounded."""
    lineno = position = 0
    while True:
        offset = position
        raw = handle.readline(MAX_FILE_BYTES + 1)
        if not raw:
            return
        lineno += 1
        position += len(raw)
        where = f"{name}:{lineno}"
        if len(raw) > MAX_FILE_BYTES and not raw.endswith(b"\n"):
            size = len(raw) + _skip(handle, to_line_end=True)
            position += size - len(raw)
            yield Problem(where, "-", "", f"line is {size} bytes; at most {MAX_FILE_BYTES} allowed")
            continue
        line = yield from _decode(raw, where)
        if line is None or not line.strip():
            continue
        parsed = yield from _parse(line, where, with_line=False)
        if parsed is not None:
            yield LoadedRecord(where, parsed[0], line, parsed[1], name, offset)


def _skip(handle: BinaryIO, *, to_line_end: bool = False) -> int:
    """Read past the rest of a file (or of the current line); returns the bytes skipped."""
    skipped = 0
    while True:
        chunk = handle.readline(_CHUNK) if to_line_end else handle.read(_CHUNK)
        skipped += len(chunk)
        if not chunk or (to_line_end and chunk.endswith(b"\n")):
            return skipped


def _decode(raw: bytes, where: str) -> Generator[Problem, None, str | None]:
    # A generator returning the text (``yield from``) so problems stream with the records.
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        yield Problem(where, "-", "", f"not valid UTF-8 (invalid byte at offset {exc.start})")
        return None
    if text.startswith("\ufeff"):
        yield Problem(where, "-", "", "file starts with a byte-order mark; save as UTF-8 without BOM")
        text = text[1:]
    return text


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


class _Decoder:
    """A JSON decoder that notes whether the text held a float literal (``2026.0`` passes
    JSON Schema's "integer"; validation rejects it) and refuses ``NaN``/``Infinity``,
    which are not JSON.  One per thread (:func:`_decoder`)."""

    def __init__(self) -> None:
        self.floats = False
        self.decoder = json.JSONDecoder(parse_float=self._float, parse_constant=_no_constant)

    def _float(self, text: str) -> float:
        self.floats = True
        return float(text)

    def decode(self, text: str) -> tuple[Any, bool]:
        self.floats = False
        data = self.decoder.decode(text)
        return data, self.floats


_LOCAL: Any = None  # a threading.local holding each thread's _Decoder, made on first use


def _decoder() -> _Decoder:
    global _LOCAL
    if _LOCAL is None:
        import threading  # not at start-up: the one-paper commands never decode a record file here

        _LOCAL = threading.local()
    found: _Decoder | None = getattr(_LOCAL, "decoder", None)
    if found is None:
        found = _LOCAL.decoder = _Decoder()
    return found


def _parse(text: str, where: str, *, with_line: bool) -> Generator[Problem, None, tuple[Any, bool] | None]:
    try:
        return _decoder().decode(text)
    except json.JSONDecodeError as exc:
        at = f"line {exc.lineno}, column {exc.colno}" if with_line else f"column {exc.colno}"
        yield Problem(where, "-", "", f"invalid JSON: {exc.msg} ({at})")
    except (ValueError, RecursionError) as exc:
        yield Problem(where, "-", "", f"invalid JSON: {_json_trouble(exc)}")
    return None


def _json_trouble(exc: BaseException) -> str:
    """A short reason for what json.loads raises besides JSONDecodeError."""
    if isinstance(exc, RecursionError):
        return "nested too deeply"
    if "integer string conversion" in str(exc):
        return f"a number has more than {sys.get_int_max_str_digits()} digits"
    return str(exc)


class RecordReader:
    """Records read again by their ``source`` and ``offset``, in any order (an export in
    collection order of files in another order).  It keeps one file open and the last
    array file parsed; use it as a context manager."""

    def __init__(self) -> None:
        self._path = ""
        self._handle: BinaryIO | None = None
        self._array: list[Any] = []

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *_: object) -> None:
        self._close()

    def read(self, source: str, offset: int, where: str) -> LoadedRecord | Problem:
        """The record at *offset* of *source*; *where* names it in a problem."""
        try:
            if source != self._path:
                self._open(source)
            assert self._handle is not None
            if source.endswith(".jsonl"):
                self._handle.seek(offset)
                raw = self._handle.readline(MAX_FILE_BYTES + 1)
                items = list(_chain_parsed(raw, where, with_line=False))
            elif offset < 0:
                self._handle.seek(0)
                items = list(_json_document(self._handle, where))
            else:
                if not self._array:
                    self._handle.seek(0)
                    self._array = [r.data for r in _json_document(self._handle, source) if isinstance(r, LoadedRecord)]
                items = [LoadedRecord(where, self._array[offset])] if offset < len(self._array) else []
        except OSError as exc:
            return Problem(where, "-", "", f"cannot read file: {_why(exc)}")
        found = items[0] if len(items) == 1 else None
        return found if found is not None else Problem(where, "-", "", "not the record read before")

    def _open(self, source: str) -> None:
        self._close()
        self._handle = open(source, "rb")  # kept open across calls; closed by _close
        self._path = source

    def _close(self) -> None:
        if self._handle is not None:
            self._handle.close()
        self._handle, self._path, self._array = None, "", []


def _chain_parsed(raw: bytes, where: str, *, with_line: bool) -> Iterator[LoadedRecord | Problem]:
    line = yield from _decode(raw, where)
    if line is not None:
        parsed = yield from _parse(line, where, with_line=with_line)
        if parsed is not None:
            yield LoadedRecord(where, parsed[0], line, parsed[1])


def count_records(paths: Iterable[str | os.PathLike[str]]) -> int:
    """About how many records :func:`read_records` will yield (exact for valid files):
    non-blank lines of JSON Lines files, array lengths, one per other file.  For a
    progress bar; files that are not regular are counted as one record."""
    total = 0
    for item in record_files(paths):
        try:
            if isinstance(item, Problem) or not stat.S_ISREG(os.stat(item).st_mode):
                total += not isinstance(item, Problem)  # never drain a pipe to count it
                continue
            with open(item, "rb") as handle:
                total += _count(handle, item.suffix == ".jsonl")
        except OSError:
            total += 1
    return total


def _count(handle: BinaryIO, lines: bool) -> int:
    if lines:
        return sum(1 for line in handle if line.strip())
    head = handle.read(MAX_FILE_BYTES + 1)
    if head.lstrip()[:1] != b"[" or len(head) > MAX_FILE_BYTES:
        return 1
    try:
        data = json.loads(head)
    except (ValueError, RecursionError):
        return 1
    return len(data) if isinstance(data, list) else 1


def dumps_record(record: dict[str, Any]) -> str:
    """The canonical text of one record file: sorted keys, two-space indent, UTF-8."""
    return json.dumps(record, ensure_ascii=False, indent=2, sort_keys=True) + "\n"
