"""The packaged volume: its papers (:func:`load_packaged`), its proceedings, and the fast
paths that read only what they need through the indexes the data build stores: one
paper by key (``data/index.tsv``, :func:`load_keys`) and a listing
(``data/search-words.tsv``, ``data/lines.tsv``, :func:`packaged_listing`)."""

from __future__ import annotations

import gc
import json
import os

from ..collection import PaperCollection
from ..errors import DataError
from ..model import Paper, Proceedings
from .records import data_dir, data_file, read_json

TYPE_CHECKING = False  # typing is not imported at run time (start-up)
if TYPE_CHECKING:
    from collections.abc import Iterable
    from pathlib import Path


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


def _with_corrections(papers: PaperCollection, corrections: bool) -> PaperCollection:
    """The packaged *papers* with the user's corrections layer ('icml2026 update') applied."""
    from ..update.paths import active_layer  # one stat() when there is no layer

    if active_layer(corrections) is None:
        return papers
    from ..update.layer import apply_corrections

    fixed = apply_corrections(papers, corrections)
    return papers if fixed is None else PaperCollection(fixed)


_CHUNK = 1 << 20  # bytes of papers.jsonl read and parsed at a time (about 400 records)


def load_packaged(*, corrections: bool = True) -> PaperCollection:
    """The packaged papers, with the user's corrections layer applied unless *corrections*
    is false (:func:`icml2026.load` without paths)."""
    return _with_corrections(_load_volume(load_proceedings()), corrections)


def _load_volume(proceedings: dict[str, Proceedings]) -> PaperCollection:
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
    from ..search import Index, StaleIndex, words
    from ..update.paths import active_layer

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
    from ..search import identifier_candidates

    if not query:
        return set()
    index = b"\n" + _read_bytes(data_file("index.tsv"))
    return {key for key, _ in identifier_candidates(query) if index.find(b"\n" + key.encode("utf-8") + b"\t") >= 0}


def _read_bytes(path: str) -> bytes:
    with open(path, "rb") as handle:
        return handle.read()
