"""Every exported title and author name, read back by four independent BibTeX readers.

pybtex + pylatexenc, bibtexparser 2 (in its own environment: the package uses 1.4),
citation-js (``tests/citation_js``) and pandoc each read the whole volume's BibTeX; every
title and every author name must decode to the record's Unicode text (case folded: pandoc
changes the case of titles).  Titles with math are compared outside their math only.  This
test is what chose the escapes of :mod:`icml2026.bibtex.latex_encode`: ``{\\'i}`` over ``{\\'{\\i}}``, a
hyphen for U+2011, and the forms of ``ð``, ``å``, quotation marks and ``°`` that all of them
decode alike.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import sys
import tempfile
import unicodedata
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from conftest import REPO

import icml2026
from icml2026.markup import to_plain

HERE = REPO / "tests"
Reading = dict[str, tuple[str, list[str]]]


def normal(text: str) -> str:
    # Quotation marks and apostrophes compare alike: pandoc makes ' typographic and renders
    # quoted text with CSL's outer double quotes ('High' as “High”); that is style, not decoding.
    text = re.sub("[‘’“”\"]", "'", unicodedata.normalize("NFC", text).replace("\u00a0", " "))
    text = re.sub(r"\.(?=\w)", ". ", text)  # pandoc spaces initials: "C.Y." is "C. Y."
    return re.sub(r"\s+", " ", text).strip().casefold()


# What a reader is known to lose, each checked to be the only difference (so a new loss fails).
# pandoc 2.17 drops ð and ° whatever their escape ({\dh}, \dh{}, {\textdegree}, math forms:
# tried); citation-js splits a hyphenated family name that starts with an accented letter.
KNOWN_LOSSES: dict[str, Callable[[str], str]] = {
    "pandoc": lambda text: text.replace("ð", "").replace("°", ""),
    "citation-js": lambda text: re.sub(r"^(.*\b[ÁÉÍÓÚáéíóú]\w*)-", r"\1 ", text),
}


def without_math(text: str) -> str:
    return re.sub(r"\$[^$]*\$", " ", text)


def read_pybtex(path: Path) -> Reading:
    import pybtex.database
    from pylatexenc.latex2text import LatexNodes2Text

    decode = LatexNodes2Text().latex_to_text
    data = pybtex.database.parse_file(str(path), "bibtex")
    found = {}
    for key, entry in data.entries.items():
        names = [decode(" ".join(filter(None, [" ".join(p.first_names + p.middle_names),
                                               " ".join(p.prelast_names + p.last_names)])))
                 for p in entry.persons["author"]]
        found[key] = (decode(entry.fields["title"]), names)
    return found


def _json_reader(command: list[str], path: Path) -> Reading:
    with path.open("rb") as stdin:
        run = subprocess.run(command, stdin=stdin, capture_output=True, check=True)
    return {item["key"]: (item["title"], item["authors"]) for item in json.loads(run.stdout)}


def read_citation_js(path: Path) -> Reading:
    return _json_reader(["node", str(HERE / "citation_js" / "read_bibtex.js")], path)


def read_pandoc(path: Path) -> Reading:
    dialect = "biblatex" if path.stem.endswith("biblatex") else "bibtex"
    run = subprocess.run(["pandoc", "-f", dialect, "-t", "csljson", str(path)], capture_output=True, check=True)
    found = {}
    for item in json.loads(run.stdout):
        names = [a.get("literal") or " ".join(filter(None, [a.get("given"), a.get("dropping-particle"),
                                                            a.get("non-dropping-particle"), a.get("family")]))
                 for a in item.get("author", [])]
        found[item["id"]] = (item["title"], names)
    return found


@pytest.fixture(scope="session")
def bibtexparser2() -> Path:
    """A Python with bibtexparser 2 (a venv of its own, made once per machine)."""
    venv = Path(os.environ.get("ICML2026_BIBTEXPARSER2_VENV") or Path(tempfile.gettempdir()) / "icml2026-bibtexparser2")
    python = venv / ("Scripts" if os.name == "nt" else "bin") / "python"
    ready = venv / "bibtexparser2-installed"  # written last: a venv cut short is made again
    with _exclusive(venv.with_name(venv.name + ".lock")):  # pytest-xdist workers make it once
        if not ready.exists():
            subprocess.run([sys.executable, "-m", "venv", "--clear", str(venv)], check=True)
            subprocess.run([str(python), "-m", "pip", "install", "-q", "bibtexparser>=2,<3"], check=True)
            ready.write_text("bibtexparser>=2,<3\n", encoding="utf-8")
    return python


@contextlib.contextmanager
def _exclusive(lock: Path) -> Iterator[None]:
    """Hold an exclusive lock on the file *lock* (POSIX; elsewhere, no lock)."""
    try:
        import fcntl
    except ImportError:
        yield
        return
    with lock.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def expected(paper: icml2026.Paper) -> tuple[str, list[str]]:
    names = [p.literal or " ".join(filter(None, [p.given, p.family])) for p in paper.authors]
    return to_plain(paper.title), names


@pytest.fixture(scope="module", params=["bibtex", "biblatex"])
def volume_bib(request: pytest.FixtureRequest, volume: icml2026.PaperCollection,
               tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The volume as BibTeX (ASCII, escapes) and as BibLaTeX (UTF-8)."""
    path = tmp_path_factory.mktemp("readers") / f"volume-{request.param}.bib"
    path.write_text(icml2026.export(volume.complete, request.param), encoding="utf-8")
    return path


def mismatches(volume: icml2026.PaperCollection, reading: Reading, reader: str = "",
               escaped: bool = True) -> list[tuple[str, str, str]]:
    """What *reading* decodes differently from the records; the known losses concern only the
    escaped (BibTeX) file: the UTF-8 BibLaTeX file carries ð, ° and Á as they are."""
    lose = KNOWN_LOSSES.get(reader, lambda text: text) if escaped else (lambda text: text)
    bad = []
    for paper in volume.complete:
        title, names = expected(paper)
        title, names = (title if reader == "citation-js" else lose(title)), [lose(n) for n in names]
        got_title, got_names = reading[paper.citation_key]
        if normal(without_math(got_title)) != normal(without_math(title)) if "$" not in title else \
                not all(normal(part) in normal(got_title) for part in without_math(title).split() if part.isalpha()):
            bad.append((paper.citation_key, title, got_title))
        for want, got in zip(names, got_names, strict=True):
            if normal(want) != normal(got):
                bad.append((paper.citation_key, want, got))
    return bad


READERS: dict[str, Callable[..., Reading]] = {"pybtex": read_pybtex, "citation-js": read_citation_js,
                                              "pandoc": read_pandoc}


@pytest.mark.slow
@pytest.mark.parametrize("reader", sorted(READERS))
def test_reader_decodes_every_title_and_name(reader: str, volume: icml2026.PaperCollection, volume_bib: Path) -> None:
    bad = mismatches(volume, READERS[reader](volume_bib), reader, not volume_bib.stem.endswith("biblatex"))
    assert bad == [], (reader, len(bad), bad[:10])


@pytest.mark.slow
def test_bibtexparser2_decodes_every_title_and_name(volume: icml2026.PaperCollection, volume_bib: Path,
                                                   bibtexparser2: Path) -> None:
    reading = _json_reader([str(bibtexparser2), str(HERE / "readers" / "read_bibtexparser2.py")], volume_bib)
    bad = mismatches(volume, reading)
    assert bad == [], ("bibtexparser 2", len(bad), bad[:10])
