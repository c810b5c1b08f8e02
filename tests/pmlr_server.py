"""A local stand-in for proceedings.mlr.press serving PMLR's published bibliography.

Three parts, used by ``tests/test_update.py`` and ``tests/test_update_hostile.py``:

* :func:`published_from_sources` writes PMLR's published bibliography as PMLR
  generates it: from the volume's **source** BibTeX (``tools/sources/corpora/
  pmlr-v306-facts.bib``, the file the packaged records were built from; PMLR's
  paper pages are generated from it) and the volume's facts in
  ``tools/sources/data/seed-papers.json``, never from the packaged records,
  so the package's own repairs (a space before a colon, case protection) are
  not in it, as they are not in PMLR's file.

* :func:`render_published` writes papers in the format PMLR publishes at
  ``https://proceedings.mlr.press/v306/assets/bib/bibliography.bib``.  The facts
  of that format come from its template, ``mlresearch/jekyll-theme``
  (``assets/bib/bibliography.bib``, ``_includes/bibtex_entry``,
  ``_includes/extractinfo_publication.html``) with volume 306's ``_config.yml``:
  an ``@Proceedings{ICML2026}`` header (``title``, ``booktitle``, editors as
  "Given Family", ``publisher``, ``series``, an unbraced ``volume``, no year),
  then one ``@InProceedings{pmlr-v306-<id>}`` per paper with the fields
  ``title`` (the ``tex_title``), ``author``, ``booktitle``, ``pages``,
  ``year``, ``editor``, ``volume``, ``series``, ``month = {06--11 Jul}``,
  ``publisher``, ``pdf``, ``url`` and ``abstract``, in that order, aligned with
  a tab (``author =       {`` and ``publisher =    {`` with spaces, as the
  template writes them when ``bibtex_author`` and ``site.publisher`` are set).
  There is no ``openreview``, ``software`` or ``address`` field.
* :class:`PmlrServer`, a real HTTP server on 127.0.0.1 (an ephemeral port, a
  thread) that serves such a file under ``/<mode>/bibliography.bib``, where
  *mode* injects one fault of a real network (see :data:`MODES`).  It answers
  conditional requests like a static host (ETag, Last-Modified, 304), records
  every request's headers, bounds every loop, and shuts itself down after
  :data:`LIFETIME` seconds even if a test forgets to.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import http.server
import json
import re
import threading
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Self

from icml2026.bibtex.latex_encode import encode_markup
from icml2026.bibtex.writer import name
from icml2026.model import Paper

SOURCES = Path(__file__).resolve().parents[1] / "tools" / "sources"

TAB = "\t"
MONTH = "06--11 Jul"  # volume 306's _config.yml date_str
LIFETIME = 900.0  # seconds: the server stops by itself after this, whatever the tests do
LAST_MODIFIED = "Tue, 29 Sep 2026 12:00:00 GMT"

MODES = {
    "ok": "the file, with ETag and Last-Modified; 304 to a matching conditional request",
    "gzip": "the file gzip-encoded (Content-Encoding: gzip)",
    "redirect": "302 to /ok/bibliography.bib",
    "redirect-loop": "302 to itself, forever",
    "404": "404 Not Found",
    "500": "500 Internal Server Error",
    "truncated": "Content-Length of the whole file, then half of it and a closed connection",
    "truncated-close": "half of the file without Content-Length, ended by closing the connection",
    "html": "an HTML error page with status 200",
    "endless": "an endless chunked body (bounded on the server side)",
    "huge-length": "Content-Length of 10 GB, then the file",
    "gzip-bomb": "a small gzip body that expands to 128 MiB",
    "bad-gzip": "Content-Encoding: gzip with a body that is not gzip",
    "slow": "headers, then one byte every 0.2 s (bounded)",
    "stall": "headers, then nothing (bounded)",
    "not-utf8": "a body in Latin-1",
    "wrong-volume": "a published bibliography of another volume",
    "short-length": "the file cut at an entry boundary (95% of its entries), with that Content-Length",
    "gzip-cut": "gzip cut after a sync flush at an entry boundary (91% of the entries), no Content-Length",
    "drip-headers": "one header line every 0.5 s (40 of them), then the file",
}


def cut_at_entries(text: str, share: float) -> str:
    """*text* cut just before the entry that follows *share* of its ``@InProceedings`` entries."""
    starts = [m.start() for m in re.finditer(r"^@InProceedings\{", text, re.MULTILINE)]
    return text[: starts[int(len(starts) * share)]]


# --------------------------------------------------------------------------- the published format

def header(proc: Any) -> str:
    editors = " and ".join(f"{p.given} {p.family}" for p in proc.editors)
    return (f"@Proceedings{{ICML{proc.year},\n"
            f"  title =     {{{proc.booktitle}}},\n"
            f"  booktitle = {{{proc.booktitle}}},\n"
            f"  editor =    {{{editors}}},\n"
            f"  publisher = {{{proc.publisher}}},\n"
            f"  series =    {{{proc.series}}},\n"
            f"  volume =    {proc.volume}\n"
            "}\n")


def entry(paper: Paper, overrides: Mapping[str, str] | None = None) -> str:
    """One paper as the template renders it; *overrides* replace rendered field values."""
    proc = paper.proceedings
    assert paper.title and paper.pages and paper.identifiers.pmlr
    values = {
        "title": encode_markup(paper.title, ascii_only=False, title=True, protect_ranges=paper.title_protect),
        "author": " and ".join(name(a, ascii_only=False) for a in paper.authors),
        "booktitle": proc.booktitle,
        "pages": f"{paper.pages.first}--{paper.pages.last}",
        "year": str(proc.year),
        "editor": " and ".join(f"{p.family}, {p.given}" for p in proc.editors),
        "volume": str(proc.volume),
        "series": proc.series,
        "month": MONTH,
        "publisher": proc.publisher,
        "pdf": paper.links.pdf,
        "url": paper.links.proceedings,
        "abstract": encode_markup(paper.abstract, ascii_only=False) if paper.abstract else None,
    }
    values.update(overrides or {})
    lines = []
    for key, value in values.items():
        if value:
            gap = " " * (15 - len(key) - 2) if key in ("author", "publisher") else f" {TAB} "
            lines.append(f"  {key} ={gap}{{{value}}}")
    return f"@InProceedings{{pmlr-v{proc.volume}-{paper.identifiers.pmlr},\n" + ",\n".join(lines) + "\n}\n"


def render_published(papers: Iterable[Paper], *, overrides: Mapping[str, Mapping[str, str]] | None = None,
                     drop: Iterable[str] = (), extra: Iterable[str] = ()) -> str:
    """The published bibliography of *papers* (those with a PMLR id), in page order.

    *overrides* maps a PMLR id to rendered field values that replace ours (the
    "corrections" of the test file); papers in *drop* are left out; *extra*
    entries (rendered text) are appended.
    """
    listed = [p for p in papers if p.identifiers.pmlr and p.pages and p.title]
    listed.sort(key=lambda p: (p.pages.first if p.pages else 0, p.id))
    dropped = set(drop)
    parts = [header(listed[0].proceedings)]
    for paper in listed:
        if paper.identifiers.pmlr not in dropped:
            parts.append("\n\n" + entry(paper, (overrides or {}).get(paper.identifiers.pmlr or "")))
    parts.extend("\n\n" + text for text in extra)
    return "".join(parts)


# --------------------------------------------------------------------------- from the raw sources

_FIELD = re.compile(r"^\s*(\w+) = \{(.*)\},?$", re.MULTILINE)


@dataclass(frozen=True)
class SourceEntry:
    """One ``@InProceedings`` of the volume's source BibTeX: its raw field values and PMLR id."""

    key: str
    fields: dict[str, str]
    pmlr_id: str


def _first_family(author: str) -> str:
    """The LaTeX-decoded family name of the first author (the source writes "Family, Given")."""
    from pylatexenc.latex2text import LatexNodes2Text

    first = author.split(" and ")[0]
    family = first.split(",")[0] if "," in first else first.split()[-1]
    return str(LatexNodes2Text().latex_to_text(family)).strip()


@functools.lru_cache(maxsize=1)
def source_entries() -> tuple[tuple[dict[str, str], ...], tuple[SourceEntry, ...]]:
    """(the header's fields, every paper entry in file order) of the volume's source BibTeX."""
    from icml2026.pmlr import assign_ids  # PMLR's id rule, applied to the source's own names

    text = (SOURCES / "corpora" / "pmlr-v306-facts.bib").read_text(encoding="utf-8")
    blocks = re.split(r"\n(?=@)", text)
    header = dict(_FIELD.findall(blocks[0]))
    raw = [(re.match(r"@InProceedings\{([^,]+),", b), dict(_FIELD.findall(b))) for b in blocks[1:]]
    entries = [(m.group(1), f) for m, f in raw if m]
    year = int(header["year"])
    ids = assign_ids([_first_family(f["author"]) for _, f in entries], year)
    return (header,), tuple(SourceEntry(k, f, i) for (k, f), i in zip(entries, ids))


def volume_facts() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((SOURCES / "data" / "seed-papers.json").read_text(encoding="utf-8"))
    return dict(data["proceedings"])


def published_from_sources(*, overrides: Mapping[str, Mapping[str, str]] | None = None,
                           drop: Iterable[str] = (), extra: Iterable[str] = (),
                           keys: Mapping[str, str] | None = None) -> str:
    """PMLR's published bibliography generated from the source BibTeX, as the template writes it.

    *overrides* maps a PMLR id to field values (as PMLR writes them: ``title``,
    ``author``, ``pages``, ``pdf``, ``url``) that replace the source's: the
    corrections PMLR made in its pages; ids in *drop* are left out; *keys* gives
    an entry another id, for its key and links (``{"abas26a": "abbadi26a"}``);
    *extra* entries are appended.
    """
    (header_fields,), entries = source_entries()
    facts = volume_facts()
    editors = [e.strip() for e in header_fields["editor"].split(" and ")]
    given_family = " and ".join(" ".join(reversed([part.strip() for part in e.split(",", 1)])) for e in editors)
    booktitle = header_fields["booktitle"]
    parts = [(f"@Proceedings{{ICML{header_fields['year']},\n"
              f"  title =     {{{booktitle}}},\n"
              f"  booktitle = {{{booktitle}}},\n"
              f"  editor =    {{{given_family}}},\n"
              f"  publisher = {{{facts['publisher']}}},\n"
              f"  series =    {{{facts['series']}}},\n"
              f"  volume =    {header_fields['volume']}\n"
              "}\n")]
    dropped = set(drop)
    volume = header_fields["volume"]
    for item in entries:
        if item.pmlr_id in dropped:
            continue
        key = (keys or {}).get(item.pmlr_id, item.pmlr_id)  # the page's id: its links follow it
        values = {
            "title": item.fields["title"],
            "author": item.fields["author"],
            "booktitle": booktitle,
            "pages": item.fields["pages"],
            "year": header_fields["year"],
            "editor": header_fields["editor"],
            "volume": volume,
            "series": facts["series"],
            "month": MONTH,
            "publisher": facts["publisher"],
            "pdf": f"https://raw.githubusercontent.com/mlresearch/v{volume}/main/assets/{key}/{key}.pdf",
            "url": f"https://proceedings.mlr.press/v{volume}/{key}.html",
        }
        values.update((overrides or {}).get(item.pmlr_id, {}))
        parts.append("\n\n" + _render(f"pmlr-v{volume}-{key}", values))
    parts.extend("\n\n" + text for text in extra)
    return "".join(parts)


def _render(key: str, values: Mapping[str, str | None]) -> str:
    lines = []
    for field_name, value in values.items():
        if value:
            gap = " " * (15 - len(field_name) - 2) if field_name in ("author", "publisher") else f" {TAB} "
            lines.append(f"  {field_name} ={gap}{{{value}}}")
    return f"@InProceedings{{{key},\n" + ",\n".join(lines) + "\n}\n"


def source_entry(pmlr_id: str) -> SourceEntry:
    return next(e for e in source_entries()[1] if e.pmlr_id == pmlr_id)


# --------------------------------------------------------------------------- the server

@functools.lru_cache(maxsize=1)
def gzip_bomb() -> bytes:
    """128 MiB of ``%`` (a BibTeX comment) in about 130 kB of gzip."""
    return gzip.compress(b"%" * (128 * 1024 * 1024), compresslevel=6)


@dataclass
class Seen:
    """One request as the server saw it."""

    path: str
    headers: dict[str, str]
    status: int = 0


@dataclass
class State:
    body: bytes
    requests: list[Seen] = field(default_factory=list)
    other_volume: bytes = b""

    @property
    def etag(self) -> str:
        return '"' + hashlib.sha256(self.body).hexdigest()[:16] + '"'


class Handler(http.server.BaseHTTPRequestHandler):
    server_version = "pmlr-test/1"
    protocol_version = "HTTP/1.1"
    state: State  # set on the subclass made per server

    def log_message(self, format: str, *args: Any) -> None:
        pass  # quiet test output

    def do_GET(self) -> None:
        seen = Seen(self.path, {k.lower(): v for k, v in self.headers.items()})
        self.state.requests.append(seen)
        parts = self.path.split("/")
        mode = parts[1] if len(parts) == 3 and parts[2] == "bibliography.bib" else ""
        handler = getattr(self, "mode_" + mode.replace("-", "_"), None) if mode in MODES else None
        if handler is None:
            seen.status = 404
            self.simple(404, b"not found\n")
            return
        try:
            handler(seen)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up: what several faults are for
        self.close_connection = True

    # -- helpers --------------------------------------------------------------------
    def simple(self, status: int, body: bytes, content_type: str = "text/plain", **headers: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for key, value in headers.items():
            self.send_header(key.replace("_", "-"), value)
        self.end_headers()
        self.wfile.write(body)

    def start(self, status: int = 200, length: int | None = None, **headers: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "application/x-bibtex")
        if length is not None:
            self.send_header("Content-Length", str(length))
        for key, value in headers.items():
            self.send_header(key.replace("_", "-"), value)
        self.send_header("Connection", "close")
        self.end_headers()

    # -- modes ----------------------------------------------------------------------
    def mode_ok(self, seen: Seen) -> None:
        etag = self.state.etag
        if seen.headers.get("if-none-match") == etag or (
                "if-none-match" not in seen.headers and seen.headers.get("if-modified-since") == LAST_MODIFIED):
            seen.status = 304
            self.start(304, ETag=etag, Last_Modified=LAST_MODIFIED)
            return
        seen.status = 200
        self.simple(200, self.state.body, "application/x-bibtex", ETag=etag, Last_Modified=LAST_MODIFIED)

    def mode_gzip(self, seen: Seen) -> None:
        seen.status = 200
        self.simple(200, gzip.compress(self.state.body), "application/x-bibtex", Content_Encoding="gzip")

    def mode_redirect(self, seen: Seen) -> None:
        seen.status = 302
        self.simple(302, b"", Location="/ok/bibliography.bib")

    def mode_redirect_loop(self, seen: Seen) -> None:
        seen.status = 302
        self.simple(302, b"", Location="/redirect-loop/bibliography.bib")

    def mode_404(self, seen: Seen) -> None:
        seen.status = 404
        self.simple(404, b"<html><body>404 Not Found</body></html>", "text/html")

    def mode_500(self, seen: Seen) -> None:
        seen.status = 500
        self.simple(500, b"Internal Server Error\n")

    def mode_truncated(self, seen: Seen) -> None:
        seen.status = 200
        self.start(200, len(self.state.body))
        self.wfile.write(self.state.body[: len(self.state.body) // 2])

    def mode_truncated_close(self, seen: Seen) -> None:
        seen.status = 200
        self.start(200, None)
        self.wfile.write(self.state.body[: len(self.state.body) // 2])

    def mode_html(self, seen: Seen) -> None:
        seen.status = 200
        page = (b"<!DOCTYPE html>\n<html><head><title>Service unavailable</title></head>"
                b"<body><h1>We'll be back soon</h1><p>@InProceedings maintenance</p></body></html>\n")
        self.simple(200, page, "text/html; charset=utf-8")

    def mode_endless(self, seen: Seen) -> None:
        seen.status = 200
        self.start(200, None, Transfer_Encoding="chunked")
        chunk = (b"% " + b"x" * 65530 + b"\n")
        line = f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n"
        for _ in range(20_000):  # 1.3 GB at most: far beyond any client limit
            self.wfile.write(line)

    def mode_huge_length(self, seen: Seen) -> None:
        seen.status = 200
        self.start(200, 10 * 1024 ** 3)
        self.wfile.write(self.state.body)

    def mode_gzip_bomb(self, seen: Seen) -> None:
        seen.status = 200
        self.simple(200, gzip_bomb(), "application/x-bibtex", Content_Encoding="gzip")

    def mode_bad_gzip(self, seen: Seen) -> None:
        seen.status = 200
        self.simple(200, self.state.body, "application/x-bibtex", Content_Encoding="gzip")

    def mode_slow(self, seen: Seen) -> None:
        seen.status = 200
        self.start(200, len(self.state.body))
        for byte in self.state.body[:100]:  # 20 s at most
            self.wfile.write(bytes([byte]))
            self.wfile.flush()
            time.sleep(0.2)

    def mode_stall(self, seen: Seen) -> None:
        seen.status = 200
        self.start(200, len(self.state.body))
        self.wfile.flush()
        time.sleep(10)

    def mode_not_utf8(self, seen: Seen) -> None:
        seen.status = 200
        self.simple(200, self.state.body.decode("utf-8").encode("latin-1", "replace") + b"\xe9\xff",
                    "application/x-bibtex")

    def mode_short_length(self, seen: Seen) -> None:
        seen.status = 200
        self.simple(200, cut_at_entries(self.state.body.decode("utf-8"), 0.95).encode("utf-8"),
                    "application/x-bibtex")

    def mode_gzip_cut(self, seen: Seen) -> None:
        import zlib

        seen.status = 200
        packer = zlib.compressobj(6, zlib.DEFLATED, 31)  # 31: the gzip container
        cut = cut_at_entries(self.state.body.decode("utf-8"), 0.91).encode("utf-8")
        stream = packer.compress(cut) + packer.flush(zlib.Z_SYNC_FLUSH)  # no end, no trailer
        self.start(200, None, Content_Encoding="gzip")
        self.wfile.write(stream)

    def mode_drip_headers(self, seen: Seen) -> None:
        seen.status = 200
        self.send_response(200)
        for n in range(40):  # 20 s at most
            self.send_header(f"X-Drip-{n}", "x")
            self.flush_headers()
            time.sleep(0.5)
        self.send_header("Content-Length", str(len(self.state.body)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(self.state.body)

    def mode_wrong_volume(self, seen: Seen) -> None:
        seen.status = 200
        self.simple(200, self.state.other_volume, "application/x-bibtex")


class PmlrServer:
    """``with PmlrServer(text) as server: server.url("ok")`` — see the module docstring."""

    def __init__(self, text: str) -> None:
        body = text.encode("utf-8")
        other = body.replace(b"volume =    306", b"volume =    305").replace(b"pmlr-v306-", b"pmlr-v305-")
        self.state = State(body=body, other_volume=other)
        gzip_bomb()  # made before serving, so the client's time-out measures the transfer only
        handler = type("BoundHandler", (Handler,), {"state": self.state})
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                       daemon=True)
        self.timer = threading.Timer(LIFETIME, self.httpd.shutdown)
        self.timer.daemon = True

    def __enter__(self) -> Self:
        self.thread.start()
        self.timer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.timer.cancel()
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(5)

    def url(self, mode: str) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/{mode}/bibliography.bib"

    @property
    def requests(self) -> list[Seen]:
        return self.state.requests
