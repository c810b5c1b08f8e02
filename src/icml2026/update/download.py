"""Fetching PMLR's published bibliography the way a good citizen does.

* **Conditional requests**: the ETag and Last-Modified of the last download are
  sent back as ``If-None-Match`` / ``If-Modified-Since``; a 304 ends the update
  with nothing transferred or written.
* **Limits**: the whole download must finish within *timeout* seconds (headers
  dripped a line at a time included: a watchdog ends it), and the server must
  send something at least every ``min(timeout, 30)`` seconds; the
  body (after gzip/deflate decoding, so a compression bomb cannot slip through)
  may not exceed *max_bytes*, checked against ``Content-Length`` first.
* **Schemes**: HTTPS only, unless the caller allows plain HTTP for a URL the
  user named (``--url http://…``); a redirect never downgrades HTTPS to HTTP and
  at most :data:`MAX_REDIRECTS` are followed.
* A clear ``User-Agent`` names the program, its version and purpose; a progress
  line is drawn only when standard error is a terminal.

httpx2 rather than urllib: it is already installed (pyzotero requires it, our
Zotero client uses it), streams with transparent gzip/deflate decoding so the
size limit applies to decoded bytes, has separate connect/read timeouts, and
reports a body cut short against its Content-Length as an error instead of
returning it silently.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urljoin, urlsplit

from .._version import __version__
from ..errors import Icml2026Error

DEFAULT_URL = "https://proceedings.mlr.press/v306/assets/bib/bibliography.bib"
USER_AGENT = (f"icml2026/{__version__} (ICML 2026 bibliographic records; 'icml2026 update' "
              "reading PMLR's published corrections; python-httpx2)")
MAX_REDIRECTS = 5
DEFAULT_TIMEOUT = 300.0
DEFAULT_MAX_BYTES = 64 * 1024 * 1024  # the volume's file is about 15 MB
LOOPBACK = ("127.0.0.1", "localhost", "::1")


class UpdateError(Icml2026Error):
    """A download or a downloaded file that cannot be used; nothing was stored."""


@dataclass(frozen=True)
class Fetched:
    """A complete 200 response: body, the URL it came from at last, its validators."""

    body: bytes
    url: str
    etag: str | None
    last_modified: str | None


def redact(url: str) -> str:
    """*url* without a user name or password (``https://user:secret@host/`` → ``https://host/``)."""
    from urllib.parse import urlsplit, urlunsplit

    try:
        parts = urlsplit(url)
    except ValueError:
        return url.rpartition("@")[2] if "@" in url else url
    if "@" not in parts.netloc:
        return url
    return urlunsplit(parts._replace(netloc=parts.netloc.rpartition("@")[2]))


def check_url(url: str, *, allow_http: bool) -> str:
    shown = redact(url)
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 -- raises ValueError for a port that is not a number
    except ValueError as exc:
        raise UpdateError(f"{shown}: not a valid URL ({exc})") from None
    if parts.scheme == "https" or (parts.scheme == "http" and allow_http):
        if not parts.hostname:
            raise UpdateError(f"{shown}: not a URL with a host name")
        return url
    if parts.scheme == "http":
        raise UpdateError(f"{shown}: plain HTTP is used only for a URL given with --url")
    raise UpdateError(f"{shown}: only https:// URLs can be downloaded (use --file for a local file)")


def fetch(url: str, *, validators: Mapping[str, str | None] | None = None, allow_http: bool = False,
          timeout: float = DEFAULT_TIMEOUT, max_bytes: int = DEFAULT_MAX_BYTES,
          progress: bool | None = None) -> Fetched | None:
    """The file at *url*, or None when the server says it has not changed (304).

    *timeout* bounds the whole download, however slowly the server sends its headers
    or body: the transfer runs in a worker thread, abandoned (its connection closed)
    at the deadline.
    """
    import threading

    check_url(url, allow_http=allow_http)
    done = threading.Event()
    result: list[Fetched | None] = []
    failure: list[BaseException] = []
    clients: list[Any] = []

    def work() -> None:
        try:
            result.append(_fetch(url, validators, timeout, max_bytes, progress, clients))
        except BaseException as exc:  # handed to the caller's thread
            failure.append(exc)
        finally:
            done.set()

    worker = threading.Thread(target=work, name="icml2026-update-download", daemon=True)
    worker.start()
    if not done.wait(timeout):
        for client in clients:  # closed aside: closing may wait for the stuck transfer's lock
            threading.Thread(target=_close_quietly, args=(client,), daemon=True).start()
        raise UpdateError(f"{redact(url)}: no complete answer within {_seconds(timeout)} (time-out)")
    if failure:
        raise failure[0]
    return result[0]


def _close_quietly(client: Any) -> None:
    try:
        client.close()
    except Exception:  # best effort: the caller already has its answer, the time-out
        return


def _fetch(url: str, validators: Mapping[str, str | None] | None, timeout: float, max_bytes: int,
           progress: bool | None, clients: list[Any]) -> Fetched | None:
    import httpx2

    shown = redact(url)
    headers = {"User-Agent": USER_AGENT, "Accept": "application/x-bibtex, text/plain;q=0.9, */*;q=0.1"}
    if validators and validators.get("etag"):
        headers["If-None-Match"] = str(validators["etag"])
    if validators and validators.get("last_modified"):
        headers["If-Modified-Since"] = str(validators["last_modified"])
    deadline = time.monotonic() + timeout
    host = urlsplit(url).hostname or ""
    client = httpx2.Client(
        follow_redirects=False,  # followed below, so that no redirect downgrades the scheme
        timeout=httpx2.Timeout(min(timeout, 30.0)),
        # Environment proxies would capture even 127.0.0.1 (httpx2 has no loopback bypass).
        trust_env=host not in LOOPBACK,
        headers=headers,
    )
    clients.append(client)
    show = sys.stderr.isatty() if progress is None else progress
    try:
        with client:
            return _follow(client, url, deadline, timeout, max_bytes, show)
    except httpx2.TimeoutException:
        raise UpdateError(f"{shown}: no complete answer within {_seconds(timeout)} (time-out)") from None
    except httpx2.RemoteProtocolError as exc:
        raise UpdateError(f"{shown}: the connection broke off before the whole file arrived "
                          f"({_short(exc)})") from None
    except httpx2.DecodingError:
        raise UpdateError(f"{shown}: the server's compressed (Content-Encoding) body cannot be decoded") from None
    except httpx2.ConnectError as exc:
        raise UpdateError(f"{shown}: cannot connect ({_short(exc)})") from None
    except httpx2.HTTPError as exc:
        raise UpdateError(f"{shown}: download failed ({type(exc).__name__}: {_short(exc)})") from None
    except (ValueError, OSError) as exc:  # a URL httpx2 cannot use, a socket closed at the deadline
        raise UpdateError(f"{shown}: download failed ({_short(exc)})") from None


def _follow(client: Any, url: str, deadline: float, timeout: float, max_bytes: int,
            show: bool) -> Fetched | None:
    current = url
    for _ in range(MAX_REDIRECTS + 1):
        with client.stream("GET", current) as response:
            status = response.status_code
            shown = redact(current)
            if status in (301, 302, 303, 307, 308):
                location = response.headers.get("location")
                if not location:
                    raise UpdateError(f"{shown}: HTTP {status} redirect without a Location")
                target = urljoin(current, location)
                # Plain HTTP only if the user's own URL was plain HTTP: never a downgrade.
                check_url(target, allow_http=urlsplit(url).scheme == "http")
                current = target
                continue
            if status == 304:
                if "if-none-match" not in client.headers and "if-modified-since" not in client.headers:
                    raise UpdateError(f"{shown}: HTTP 304 to a request that was not conditional")
                return None
            if status != 200:
                reason = response.reason_phrase or ""
                raise UpdateError(f"{shown}: HTTP {status}{' ' + reason if reason else ''}")
            body = _read(response, shown, deadline, timeout, max_bytes, show)
            return Fetched(body, current, response.headers.get("etag"), response.headers.get("last-modified"))
    raise UpdateError(f"{redact(url)}: more than {MAX_REDIRECTS} redirects")


def _read(response: Any, url: str, deadline: float, timeout: float, max_bytes: int, show: bool) -> bytes:
    declared = response.headers.get("content-length", "")
    total = int(declared) if declared.isdigit() else None
    if total is not None and total > max_bytes:
        raise UpdateError(f"{url}: the file is {_mb(total)}, larger than the limit of {_mb(max_bytes)} "
                          "(--max-size)")
    chunks: list[bytes] = []
    size = 0
    encoded = "content-encoding" in response.headers  # Content-Length counts compressed bytes then
    draw = _Progress(url, None if encoded else total) if show else None
    for chunk in response.iter_bytes():
        size += len(chunk)
        if size > max_bytes:
            _clear(draw)
            raise UpdateError(f"{url}: more than {_mb(max_bytes)} arrived, the limit (--max-size)")
        if time.monotonic() > deadline:
            _clear(draw)
            raise UpdateError(f"{url}: no complete answer within {_seconds(timeout)} (time-out)")
        chunks.append(chunk)
        if draw:
            draw(size)
    _clear(draw)
    return b"".join(chunks)


class _Progress:
    """``downloading bibliography.bib: 3.1 of 14.2 MB`` on standard error, at most 10 times a second."""

    def __init__(self, url: str, total: int | None) -> None:
        self.name = urlsplit(url).path.rsplit("/", 1)[-1] or url
        self.total = total
        self.last = 0.0

    @staticmethod
    def write(text: str) -> None:
        sys.stderr.write(text)
        sys.stderr.flush()

    def __call__(self, size: int) -> None:
        now = time.monotonic()
        if now - self.last < 0.1:
            return
        self.last = now
        of = f" of {_mb(self.total)}" if self.total else ""
        self.write(f"\rdownloading {self.name}: {_mb(size)}{of}")

    def clear(self) -> None:
        if self.last:
            self.write("\r\x1b[K")


def _clear(draw: _Progress | None) -> None:
    if draw:
        draw.clear()


def _mb(size: int) -> str:
    return f"{size / 1e6:.1f} MB"


def _seconds(value: float) -> str:
    return f"{value:g} s"


def _short(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= 160 else text[:159] + "…"
