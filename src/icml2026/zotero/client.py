"""The wire: every request of a sync, with one retry policy and one cap on waiting.

pyzotero 1.16 supplies the HTTP client (httpx2) and the request headers, but
its own calls are not used: its reads retry 429s inside their own loop and
sleep as long as the server says (so our retries would nest around its
retries, and a long ``Retry-After`` would block uncapped), they cannot send
``If-Modified-Since-Version`` (a 304 has no Content-Type and trips its
dispatch), and its write calls are unsafe for a bulk sync
(``zotero-web-api.md`` §0.4 and §2.3).  So every request goes through
:meth:`Connection.request`: the same attempts, the same back-off and the
same cap (:data:`MAX_WAIT`) for reads and writes, one write token per batch
kept across retries, and the caller reads every index of a write report.

No message built here contains the API key: it is sent as a Bearer header,
and every server text we quote is passed through :meth:`Connection.redact`.
"""

from __future__ import annotations

import math
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from ..errors import UsageError
from .errors import ZoteroError

DEFAULT_ENDPOINT = "https://api.zotero.org"
MAX_WRITE_OBJECTS = 50     # Zotero_API::$maxWriteItems
MAX_KEYS_PER_READ = 50     # documented itemKey limit
PAGE = 100                 # the API's largest page of JSON objects
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
MAX_WAIT = 300.0           # the one cap: no single wait is longer, whoever asks for it
MAX_OWN_DELAY = 30.0       # our exponential back-off when the server names no delay
MAX_PAGES = 5000           # 500,000 objects: far beyond any library a sync reads, but never endless


@dataclass
class WriteResult:
    """A multi-object write report, by index of the uploaded array.

    ``replayed`` is true when the server said our write token was already used:
    an earlier attempt of this very batch was applied but its answer was lost.
    """

    successful: dict[int, dict[str, Any]] = field(default_factory=dict)
    unchanged: dict[int, str] = field(default_factory=dict)
    failed: dict[int, dict[str, Any]] = field(default_factory=dict)
    replayed: bool = False


@dataclass
class Listing:
    """Objects of a (possibly paged) read, and the library version it reflects.

    ``version`` is the ``Last-Modified-Version`` of the first page: changes made
    while the later pages were read have higher versions and are seen next time.
    """

    objects: list[dict[str, Any]]
    version: int
    not_modified: bool = False     # a 304: nothing changed after the version asked about


class WriteLost(ZoteroError):
    """A write was sent and no answer came back: it may have been applied."""


def check_timeout(timeout: float) -> float:
    """A finite number of seconds above zero (``-1``, ``nan`` and ``inf`` are refused)."""
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) \
            or not math.isfinite(timeout) or timeout <= 0:
        raise UsageError(f"timeout must be a positive number of seconds, not {timeout!r}")
    return float(timeout)


class Connection:
    """One library on one server, with bounded retries and honoured, capped back-off."""

    def __init__(self, *, library_id: str, library_type: str, api_key: str | None,
                 endpoint: str = DEFAULT_ENDPOINT, timeout: float = 30.0, max_attempts: int = 5,
                 sleep: Callable[[float], None] | None = None,
                 notify: Callable[[str], None] | None = None) -> None:
        import httpx2
        from pyzotero import zotero

        self.endpoint = check_endpoint(endpoint)
        self.library = f"{library_type}s/{library_id}"
        self.timeout = check_timeout(timeout)
        if max_attempts < 1:
            raise UsageError(f"max_attempts must be at least 1, not {max_attempts}")
        self.max_attempts = max_attempts
        self.sleep = time.sleep if sleep is None else sleep   # looked up now: tests may replace it
        self.requests: Counter[str] = Counter()
        self.backoff_until = 0.0
        self.notify = notify          # told of every wait the server asks for, before it starts
        self.notices: list[str] = []  # …and each is kept for the report
        self.schema_version: str | None = None   # Zotero-Schema-Version of the last answer
        self._api_key = api_key
        host = urlsplit(self.endpoint).hostname or ""
        client = httpx2.Client(
            follow_redirects=True, timeout=self.timeout,
            # Environment proxies would capture even 127.0.0.1 (httpx2 has no loopback bypass).
            trust_env=host not in ("127.0.0.1", "localhost", "::1"),
            event_hooks={"request": [self._count]},
        )
        self.client = client
        self.zot = zotero.Zotero(library_id, library_type, api_key, client=client)
        self.zot.endpoint = self.endpoint

    def close(self) -> None:
        self.client.close()

    # -- bookkeeping --------------------------------------------------------------
    def _count(self, request: Any) -> None:
        self.requests[request_kind(request.method, request.url.path)] += 1

    def redact(self, text: str) -> str:
        """*text* on one line, shortened, with the API key blotted out."""
        text = " ".join(text.split())[:200]
        if self._api_key:
            text = text.replace(self._api_key, "***")
        return text

    def _note_backoff(self, headers: Any) -> float | None:
        """Record ``Backoff``/``Retry-After``; return the delay in seconds, if any."""
        delay = parse_delay(headers.get("backoff")) or parse_delay(headers.get("retry-after"))
        if delay:
            self.backoff_until = max(self.backoff_until, time.time() + delay)
        return delay

    def _wait_for_backoff(self, what: str) -> None:
        """Honour a ``Backoff`` that came with a good answer: say so and wait, or stop past the cap."""
        remaining = self.backoff_until - time.time()
        self.backoff_until = 0.0
        if remaining <= 0:
            return
        if remaining > MAX_WAIT + 1:   # a second of slack: the clock moved since the header came
            raise ZoteroError(f"{what}: Zotero asked clients to pause for {remaining:.0f} s (Backoff), "
                              f"more than the {MAX_WAIT:.0f} s a sync waits; stopped, try again later")
        self.tell(f"Zotero asked clients to pause (Backoff): waiting {remaining:.0f} s before {what}")
        self.sleep(min(remaining, MAX_WAIT))

    def tell(self, message: str) -> None:
        self.notices.append(message)
        if self.notify is not None:
            self.notify(message)

    # -- the one request loop -------------------------------------------------------
    def request(self, what: str, method: str, path: str, *, params: dict[str, Any] | None = None,
                body: Any = None, headers: dict[str, str] | None = None,
                ok: Iterable[int] = (200,)) -> Any:
        """Send one request, retrying network errors, 5xx and 429 (the same for reads and writes).

        Returns the ``httpx2.Response`` whose status is in *ok*; raises
        :class:`ZoteroError` for other statuses, :class:`WriteLost` when a POST
        was sent and every attempt lost its answer or the last one did.
        """
        import httpx2

        url = path if path.startswith(("http://", "https://")) else f"{self.endpoint}/{path}"
        sent = {**self.zot.default_headers(), **(headers or {})}
        ok = set(ok)
        problem, maybe_applied = "", False
        for attempt in range(self.max_attempts):
            self._wait_for_backoff(what)
            response = None
            try:
                response = self.client.request(method, url, params=params, json=body,
                                                   headers=sent, timeout=self.timeout)
            except httpx2.TransportError as exc:
                problem = network_problem(exc, self.endpoint)
                unsent = isinstance(exc, (httpx2.ConnectError, httpx2.ConnectTimeout))
                maybe_applied = maybe_applied or (method != "GET" and not unsent)
                if isinstance(exc, httpx2.ConnectError) and attempt >= 1:
                    break   # nothing listening, or no network: waiting longer will not help
            if response is not None:
                self.schema_version = response.headers.get("zotero-schema-version") or self.schema_version
                status = response.status_code
                if status in ok:
                    self._note_backoff(response.headers)
                    return response
                if status not in RETRY_STATUSES:
                    raise self.http_error(what, status, response.text)
                problem = f"HTTP {status}"   # not applied; an earlier lost attempt may have been
            if attempt + 1 < self.max_attempts:
                self.sleep(self._retry_delay(what, attempt, response))
        error = WriteLost if maybe_applied else ZoteroError
        tries = f"{attempt + 1} attempt{'s' if attempt else ''}"
        raise error(f"{what}: gave up after {tries} ({problem})")

    def _retry_delay(self, what: str, attempt: int, response: Any) -> float:
        told = self._note_backoff(response.headers) if response is not None else None
        self.backoff_until = 0.0   # the delay is slept here, not again before the next attempt
        if told:
            if told > MAX_WAIT:
                raise ZoteroError(f"{what}: Zotero asked to wait {told:.0f} s before retrying, more "
                                  f"than the {MAX_WAIT:.0f} s a sync waits; try again later",
                                  response.status_code)
            self.tell(f"Zotero answered HTTP {response.status_code}: waiting {told:.0f} s, as it asked, "
                      f"before retrying {what}")
            return told
        return min(0.5 * 2.0 ** attempt, MAX_OWN_DELAY)   # 0.5, 1, 2, 4 … seconds

    def get_json(self, what: str, path: str, params: dict[str, Any] | None = None,
                 shape: type = list, headers: dict[str, str] | None = None) -> tuple[Any, Any]:
        """GET and parse JSON of the expected *shape*; returns (value, response)."""
        response = self.request(what, "GET", path, params=params, headers=headers)
        try:
            value = response.json()
        except ValueError:
            value = None
        items = value if isinstance(value, list) else []
        if not isinstance(value, shape) or not all(isinstance(i, dict) and "data" in i for i in items):
            raise ZoteroError(f"{what}: the server at {self.endpoint} did not answer like the "
                              "Zotero API (unexpected content)")
        return value, response

    # -- reads ----------------------------------------------------------------------
    def list_items(self, since: int | None = None) -> Listing:
        """Every top-level item (trash included), or those changed after version *since*.

        With *since*, the first request carries ``If-Modified-Since-Version``: an
        unchanged library answers 304: one request, ``not_modified`` set.
        """
        params: dict[str, Any] = {"format": "json", "limit": PAGE, "includeTrashed": 1,
                                  "sort": "dateAdded", "direction": "asc"}   # stable while paging
        headers = {}
        if since is not None:
            params["since"] = since
            headers["If-Modified-Since-Version"] = str(since)
        response = self.request("listing items", "GET", f"{self.library}/items/top", params=params,
                                headers=headers, ok=(200, 304))
        if response.status_code == 304:   # its Last-Modified-Version, if any, is at most *since*
            return Listing([], library_version(response, since), not_modified=True)
        return Listing(self._pages("listing items", response), library_version(response))

    def _pages(self, what: str, response: Any) -> list[dict[str, Any]]:
        """Follow ``Link: rel=next`` to the end; a link back to a page already read is an error."""
        objects: list[dict[str, Any]] = []
        seen = {self._page_id(str(response.url))}
        while True:
            try:
                page = response.json()
            except ValueError:
                page = None
            if not isinstance(page, list) or not all(isinstance(i, dict) and "data" in i for i in page):
                raise ZoteroError(f"{what}: the server at {self.endpoint} did not answer like the "
                                  "Zotero API (unexpected content)")
            objects.extend(page)
            following = response.links.get("next", {}).get("url")
            if not following:
                return objects
            url = self._same_server(following)
            if self._page_id(url) in seen or len(seen) >= MAX_PAGES:
                raise ZoteroError(f"{what}: the server's next-page link leads back to a page already "
                                  f"read (or past {MAX_PAGES} pages); stopped after {len(seen)} pages")
            seen.add(self._page_id(url))
            response = self.request(what, "GET", url)

    def _page_id(self, url: str) -> tuple[str, tuple[tuple[str, str], ...]]:
        """A page's path and sorted query: the same page however its parameters are ordered."""
        from urllib.parse import parse_qsl

        parts = urlsplit(url)
        return parts.path, tuple(sorted(parse_qsl(parts.query, keep_blank_values=True)))

    def _same_server(self, url: str) -> str:
        """A ``Link`` URL, re-rooted on our endpoint (it never sends us to another host)."""
        parts = urlsplit(url)
        return f"{self.endpoint}{parts.path}" + (f"?{parts.query}" if parts.query else "")

    def item_versions(self, since: int) -> tuple[dict[str, int], int]:
        """``{key: version}`` of every item changed after *since* (trash included): one request."""
        value, response = self.get_json("listing item versions", f"{self.library}/items",
                                        {"format": "versions", "since": since, "includeTrashed": 1},
                                        shape=dict)
        return value, library_version(response)

    def deleted_items(self, since: int) -> set[str]:
        value, _ = self.get_json("listing deleted items", f"{self.library}/deleted",
                                 {"since": since}, shape=dict)
        keys = value.get("items")
        return {k for k in keys if isinstance(k, str)} if isinstance(keys, list) else set()

    def items_by_key(self, keys: Iterable[str]) -> dict[str, dict[str, Any]]:
        """The ``data`` of the items with these keys that exist (≤ 50 keys per request)."""
        keys = list(keys)
        found: dict[str, dict[str, Any]] = {}
        for start in range(0, len(keys), MAX_KEYS_PER_READ):
            chunk = ",".join(keys[start:start + MAX_KEYS_PER_READ])
            items, _ = self.get_json("reading items", f"{self.library}/items",
                                     {"itemKey": chunk, "includeTrashed": 1, "format": "json",
                                      "limit": PAGE})
            for item in items:
                found[item["key"]] = item["data"]
        return found

    def item_type_fields(self, item_type: str) -> frozenset[str]:
        """The fields *item_type* has in the server's schema (``GET itemTypeFields``, no key needed)."""
        response = self.request("reading the item schema", "GET", "itemTypeFields",
                                params={"itemType": item_type})
        try:
            value = response.json()
        except ValueError:
            value = None
        if not isinstance(value, list) or not all(isinstance(f, dict) and isinstance(f.get("field"), str)
                                                  for f in value):
            raise ZoteroError(f"reading the item schema: the server at {self.endpoint} did not answer "
                              "like the Zotero API (unexpected content)")
        return frozenset(f["field"] for f in value)

    def top_collections(self) -> list[dict[str, Any]]:
        response = self.request("listing collections", "GET", f"{self.library}/collections/top",
                                params={"format": "json", "limit": PAGE})
        return self._pages("listing collections", response)

    def collection(self, key: str) -> dict[str, Any] | None:
        try:
            found, _ = self.get_json("reading a collection", f"{self.library}/collections/{key}",
                                     shape=dict)
        except ZoteroError as exc:
            if exc.status == 404:
                return None
            raise
        data = found.get("data")
        return data if isinstance(data, dict) else None

    # -- writes ------------------------------------------------------------------------
    def post(self, kind: str, objects: list[dict[str, Any]]) -> WriteResult:
        """POST ≤ 50 *objects* to ``items`` or ``collections``; retries keep one write token."""
        if len(objects) > MAX_WRITE_OBJECTS:
            raise ValueError(f"at most {MAX_WRITE_OBJECTS} objects per write")
        headers = {"Zotero-Write-Token": uuid.uuid4().hex}
        try:
            response = self.request(f"writing {kind}", "POST", f"{self.library}/{kind}", body=objects,
                                    headers=headers)
        except ZoteroError as exc:
            if exc.status == 412 and "write token" in str(exc).lower():
                return WriteResult(replayed=True)   # an earlier attempt was applied, its answer lost
            raise
        try:
            return parse_report(response.json())
        except ValueError:
            raise ZoteroError(f"writing {kind}: the server at {self.endpoint} sent a "
                              "write report that is not JSON") from None

    # -- errors -------------------------------------------------------------------------
    def http_error(self, what: str, status: int, body: str) -> ZoteroError:
        said = self.redact(body) or "no message"
        if status == 403:
            hint = ("check the API key (ZOTERO_API_KEY or --api-key-file) and that it may "
                    f"{'write to' if what.startswith('writing') else 'read'} {self.library}")
            return ZoteroError(f"{what}: Zotero refused access (403 {said}); {hint}", status)
        if status == 404:
            return ZoteroError(f"{what}: Zotero library {self.library} not found (404 {said}); "
                               "check --library-id and --library-type", status)
        return ZoteroError(f"{what}: Zotero answered HTTP {status} ({said})", status)


# -- helpers -------------------------------------------------------------------------

def library_version(response: Any, default: int | None = None) -> int:
    value = response.headers.get("last-modified-version")
    if value is None and default is not None:
        return default
    try:
        return int(value or "")
    except ValueError:
        raise ZoteroError("the server did not send the library version (Last-Modified-Version); "
                          "is it the Zotero API?") from None


def check_endpoint(endpoint: str) -> str:
    """``scheme://host[:port]``: ``Link`` pages are re-rooted on it, so it has no path prefix."""
    try:
        parts = urlsplit(endpoint.strip())
        parts.port  # noqa: B018 - parsed lazily: an out-of-range or non-numeric port raises here
    except ValueError as exc:   # "http://[::1": an unclosed IPv6 bracket
        raise UsageError(f"endpoint {endpoint!r} is not a valid URL ({exc})") from None
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ZoteroError(f"endpoint must be an http(s) URL, not {endpoint!r}")
    if parts.path not in ("", "/") or parts.query:
        raise ZoteroError("endpoint must be scheme://host[:port] with no path "
                          "(the API's page links are absolute paths)")
    return f"{parts.scheme}://{parts.netloc}"


def parse_delay(value: str | None) -> float | None:
    """Seconds from a ``Backoff``/``Retry-After`` value (HTTP dates are ignored)."""
    if not value:
        return None
    try:
        seconds = float(value)
    except ValueError:
        return None
    return seconds if math.isfinite(seconds) and seconds > 0 else None


def parse_report(body: Any) -> WriteResult:
    if not isinstance(body, dict):
        raise ZoteroError("Zotero sent a write report that is not a JSON object")
    try:
        return WriteResult(
            successful={int(i): obj for i, obj in (body.get("successful") or {}).items()},
            unchanged={int(i): key for i, key in (body.get("unchanged") or {}).items()},
            failed={int(i): err for i, err in (body.get("failed") or {}).items()},
        )
    except (AttributeError, ValueError, TypeError):
        raise ZoteroError("Zotero sent a write report that is not indexed by position") from None


def network_problem(exc: Exception, endpoint: str) -> str:
    import httpx2

    if isinstance(exc, httpx2.TimeoutException):
        return f"no answer from {endpoint} in time"
    if isinstance(exc, httpx2.ConnectError):
        return f"cannot connect to {endpoint}"
    return f"connection to {endpoint} lost"


def request_kind(method: str, path: str) -> str:
    """``POST items``, ``GET collections``…: the resource after the library prefix."""
    parts = [p for p in path.split("/") if p]
    if len(parts) >= 2 and parts[0] in ("users", "groups"):
        parts = parts[2:]
    resource = parts[0] if parts else "/"
    if resource == "items" and len(parts) > 1 and parts[1] != "top":
        resource = "items/<key>"
    return f"{method} {resource}"
