"""Every export shown on a paper page, rendered by the calls ``icml2026 export`` makes.

A paper page offers what ``icml2026 export --format F [--style S] --keys KEY`` prints
for that paper, byte for byte: :data:`EXPORTS` names the format and options of each, and
:func:`render_paper` passes them, with the command's defaults for the rest
(:data:`CLI_DEFAULTS`), to :func:`icml2026.exporters.iter_export` for that one paper.
One paper at a time, not the volume split up: a reference list of the whole volume
numbers its entries (IEEE ``[17]``) and disambiguates years (APA ``2026a``), and a
page must show the reference as that paper alone gets it.

Formatting references is most of a build's cost (citeproc-py: some 12 ms a paper for
the four styles, since a one-paper document is neither sorted nor disambiguated; about
80 s of CPU for the volume), so the volume is shared out over worker processes
(:func:`render_all`), and what was rendered is kept in a cache
(:class:`Cache`): a paper is rendered again only when its record, the code that renders
it or a library that shapes the text (citeproc-py and its styles) changed.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..model import Paper


@dataclass(frozen=True)
class Export:
    slug: str  # the id of its block on the page
    label: str
    fmt: str
    style: str | None = None  # --style, for --format citation

    @property
    def cli_args(self) -> tuple[str, ...]:
        """The arguments of ``icml2026 export`` that print it (before ``--keys KEY``)."""
        return ("--format", self.fmt) + (("--style", self.style) if self.style else ())

    @property
    def options(self) -> dict[str, Any]:
        return {**CLI_DEFAULTS, **({"style": self.style} if self.style else {})}


EXPORTS = (
    Export("bibtex", "BibTeX", "bibtex"),
    Export("biblatex", "BibLaTeX", "biblatex"),
    Export("csl-json", "CSL-JSON", "csl-json"),
    Export("ris", "RIS", "ris"),
    Export("apa", "APA", "citation", "apa"),
    Export("ieee", "IEEE", "citation", "ieee"),
    Export("chicago", "Chicago (author-date)", "citation", "chicago-author-date"),
    Export("nature", "Nature", "citation", "nature"),
)

# The options ``icml2026 export`` passes when none is given on its command line
# (cli/cmd_export.run); tests/test_site.py compares the pages with the command itself.
CLI_DEFAULTS: dict[str, Any] = {
    "key_style": "canonical", "abstract": None, "style": "apa", "output_format": "text",
    "in_text": False, "locale": None,
}


def render_paper(paper: Paper) -> tuple[str | None, ...]:
    """The text of each of :data:`EXPORTS` for *paper*; None where the export skips it
    (an incomplete record has no citation)."""
    from ..exporters import citable, iter_export

    if not citable(paper):
        return tuple(None for _ in EXPORTS)
    return tuple("".join(iter_export([paper], e.fmt, **e.options)) for e in EXPORTS)


def render_all(papers: Sequence[Paper], jobs: int | None = None) -> list[tuple[str | None, ...]]:
    """:func:`render_paper` of each of *papers*, in order, over *jobs* worker processes
    (default: the CPUs this process may use; 1: in this process)."""
    jobs = jobs or _cpus()
    if jobs <= 1 or len(papers) < 100:
        return [render_paper(p) for p in papers]
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing import get_context

    shares = [list(papers[i::jobs]) for i in range(jobs)]  # interleaved: shares cost about the same
    # spawn, not fork: a fork of a process with threads (citeproc's caches are locked) may hang
    with ProcessPoolExecutor(jobs, mp_context=get_context("spawn")) as pool:
        done = list(pool.map(_render_share, shares))
    out: list[tuple[str | None, ...]] = [()] * len(papers)
    for i, texts in enumerate(done):
        out[i::jobs] = texts
    return out


def _cpus() -> int:
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def _render_share(papers: list[Paper]) -> list[tuple[str | None, ...]]:
    return [render_paper(p) for p in papers]


Rendered = tuple[str | None, ...]


class Cache:
    """Rendered exports by record, in one JSON Lines file per rendering fingerprint.

    The file's name holds the fingerprint of the rendering (:func:`fingerprint`), and each
    line the SHA-256 of one record (with its proceedings) and its exports: a change of code
    or library versions starts a new file (the old ones are removed), a changed record
    misses.  A file that cannot be read is a miss, never an error: it is only a cache.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.path = folder / f"site-exports-{fingerprint()[:32]}.jsonl"
        self.known: dict[str, Rendered] = {}
        try:
            with self.path.open(encoding="utf-8") as handle:
                for line in handle:
                    item = json.loads(line)
                    self.known[item["record"]] = tuple(item["exports"])
        except (OSError, ValueError, KeyError, TypeError):
            self.known = {}

    def save(self, papers: Sequence[Paper], rendered: Sequence[Rendered]) -> None:
        """Keep the exports of *papers* (only those: the file does not grow without end)."""
        from ..store.atomic import write_atomic

        lines = [json.dumps({"record": record_digest(p), "exports": list(r)}, ensure_ascii=False) + "\n"
                 for p, r in zip(papers, rendered)]
        try:
            write_atomic(self.path, lines)
            for old in self.folder.glob("site-exports-*.jsonl"):
                if old != self.path:
                    old.unlink()
        except OSError:
            pass  # a read-only cache folder costs time, not correctness


def record_digest(paper: Paper) -> str:
    record = {"paper": paper.to_dict(), "proceedings": paper.proceedings.to_dict()}
    return hashlib.sha256(json.dumps(record, sort_keys=True, ensure_ascii=False).encode("utf-8")).hexdigest()


def fingerprint() -> str:
    """SHA-256 of what an export's text depends on besides the record: the source of every
    module of this package that renders one, the library versions, and :data:`EXPORTS`."""
    from .. import dist
    from ..exporters import FORMATS

    start = [__name__, "icml2026.exporters", *("icml2026.exporters" + f.target.partition(":")[0]
                                               for f in FORMATS.values())]
    root = Path(__file__).resolve().parents[1]
    code = {}
    for name in sorted(dist.module_closure(start)):
        base = root.joinpath(*name.split(".")[1:])
        path = base.with_suffix(".py") if base.with_suffix(".py").is_file() else base / "__init__.py"
        code[name] = hashlib.sha256(path.read_bytes()).hexdigest()
    facts = {"code": code, "versions": dist.library_versions(), "exports": [e.__dict__ for e in EXPORTS],
             "defaults": CLI_DEFAULTS}
    return hashlib.sha256(json.dumps(facts, sort_keys=True).encode("utf-8")).hexdigest()


def render_cached(papers: Sequence[Paper], cache_folder: Path | None,
                  jobs: int | None = None) -> tuple[list[Rendered], int]:
    """:func:`render_all` of *papers*, taking what the cache in *cache_folder* holds (None:
    no cache) and rendering only the rest; and how many papers were rendered."""
    if cache_folder is None:
        return render_all(papers, jobs), len(papers)
    cache = Cache(cache_folder)
    digests = [record_digest(p) for p in papers]
    todo = [i for i, d in enumerate(digests) if d not in cache.known]
    fresh = render_all([papers[i] for i in todo], jobs)
    found = dict(zip((digests[i] for i in todo), fresh))
    out = [cache.known.get(d) or found[d] for d in digests]
    if todo:
        cache.save(papers, out)
    return out, len(todo)


def default_cache_folder() -> Path:
    import platformdirs

    return Path(platformdirs.user_cache_dir("icml2026"))
