"""The wire: pyzotero for reads, our own POSTs for writes, retries and error messages.

pyzotero 1.16 reads are sound (they follow ``Link`` pages and wait out 429s),
so reads go through it.  Its write calls are not safe for a bulk sync
(``zotero-web-api.md`` §0.4 and §2.3): ``create_items`` makes a new write token
per call and leaks ``JSONDecodeError`` on 429, ``update_items`` hides
``failed`` and drops chunks on 429.  So writes are sent here, on pyzotero's own
HTTP client and headers, with one write token per batch kept across retries,
and the caller reads every index of the write report.

No message built here contains the API key: pyzotero sends it as a Bearer
header, and every server text we quote is passed through :meth:`Connection.redact`.
"""

from __future__ import annotations

import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, TypeVar
from urllib.parse import urlsplit

from .errors import ZoteroError

DEFAULT_ENDPOINT = "https://api.zotero.org"
MAX_WRITE_OBJECTS = 50     # Zotero_API::$maxWriteItems
MAX_KEYS_PER_READ = 50     # documented itemKey limit
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
MAX_WAIT = 300.0           # never sleep longer than this on a server's say-so

T = TypeVar("T")


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


class Connection:
    """One library on one server, with bounded retries and honoured backoff."""

    def __init__(self, *, library_id: str, library_type: str, api_key: str | None,
                 endpoint: str = DEFAULT_ENDPOINT, timeout: float = 30.0, max_attempts: int = 5,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        import httpx2
        from pyzotero import zotero

        self.endpoint = check_endpoint(endpoint)
        self.library = f"{library_type}s/{library_id}"
        self.timeout = timeout
        self.max_attempts = max_attempts
        self.sleep = sleep
        self.requests: Counter[str] = Counter()
        self._api_key = api_key
        host = urlsplit(self.endpoint).hostname or ""
        client = httpx2.Client(
            follow_redirects=True, timeout=timeout,
            # Environment proxies would capture even 127.0.0.1 (httpx2 has no loopback bypass).
            trust_env=host not in ("127.0.0.1", "localhost", "::1"),
            event_hooks={"request": [self._count]},
        )
        self.zot = zotero.Zotero(library_id, library_type, api_key, client=client)
        self.zot.endpoint = self.endpoint

    def close(self) -> None:
        if self.zot.client is not None:
            self.zot.client.close()

    # -- bookkeeping --------------------------------------------------------------
    def _count(self, request: Any) -> None:
        self.requests[request_kind(request.method, request.url.path)] += 1

    def redact(self, text: str) -> str:
        """*text* on one line, shortened, with the API key blotted out."""
        text = " ".join(text.split())[:200]
        if self._api_key:
            text = text.replace(self._api_key, "***")
        return text

    def _wait_for_backoff(self) -> None:
        remaining = self.zot.backoff_until - time.time()
        if remaining > 0:
            self.sleep(min(remaining, MAX_WAIT))
            self.zot.backoff_until = 0.0

    def _note_backoff(self, headers: Any) -> float | None:
        """Record ``Backoff``/``Retry-After``; return the delay in seconds, if any."""
        delay = parse_delay(headers.get("backoff")) or parse_delay(headers.get("retry-after"))
        if delay:
            self.zot.backoff_until = max(self.zot.backoff_until, time.time() + delay)
        return delay

    def _retry_delay(self, attempt: int, headers: Any = None) -> float:
        told = self._note_backoff(headers) if headers is not None else None
        if told:
            self.zot.backoff_until = 0.0
            return min(told, MAX_WAIT)
        return min(0.5 * 2 ** attempt, 30.0)   # 0.5, 1, 2, 4 … seconds

    # -- reads (pyzotero) ---------------------------------------------------------
    def read(self, what: str, call: Callable[[], T]) -> T:
        """Run a pyzotero read, retrying network errors, 5xx and unrelieved 429s."""
        import httpx2
        from pyzotero import errors as ze

        problem = ""
        for attempt in range(self.max_attempts):
            self._wait_for_backoff()
            try:
                return call()
            except httpx2.TransportError as exc:
                problem = network_problem(exc, self.endpoint)
                headers = None
                if isinstance(exc, httpx2.ConnectError) and attempt >= 1:
                    break   # nothing listening, or no network: waiting longer will not help
            except ze.PyZoteroError as exc:
                response = self.zot.request
                status = response.status_code if response is not None else 0
                if status not in RETRY_STATUSES and not isinstance(exc, ze.TooManyRetriesError):
                    raise self.http_error(what, status, response.text if response is not None else "")
                problem = f"HTTP {status}"
                headers = response.headers if response is not None else None
            except (ValueError, KeyError, TypeError):
                # pyzotero dispatches on Content-Type and parses JSON: a proxy's HTML page lands here.
                raise ZoteroError(f"{what}: the server at {self.endpoint} did not answer like the "
                                  "Zotero API (unexpected content)") from None
            finally:
                self.zot.url_params = None  # pyzotero keeps a failed call's parameters otherwise
            if attempt + 1 < self.max_attempts:
                self.sleep(self._retry_delay(attempt, headers))
        raise ZoteroError(f"{what}: gave up after {attempt + 1} attempts ({problem})")

    def read_json(self, what: str, call: Callable[[], Any], shape: type) -> Any:
        """:meth:`read`, then check that the answer is JSON of the expected *shape*."""
        value = self.read(what, call)
        items = value if isinstance(value, list) else []
        if not isinstance(value, shape) or not all(isinstance(i, dict) and "data" in i for i in items):
            raise ZoteroError(f"{what}: the server at {self.endpoint} did not answer like the "
                              "Zotero API (unexpected content)")
        return value

    def item_versions(self) -> dict[str, int]:
        """Every item key in the library (trash included) with its version: one request."""
        return self.read_json("listing items", lambda: self.zot.item_versions(includeTrashed=1), dict)

    def items_by_key(self, keys: Iterable[str]) -> dict[str, dict[str, Any]]:
        """The ``data`` of the items with these keys that exist (≤ 50 keys per request)."""
        keys = list(keys)
        found: dict[str, dict[str, Any]] = {}
        for start in range(0, len(keys), MAX_KEYS_PER_READ):
            chunk = ",".join(keys[start:start + MAX_KEYS_PER_READ])
            items = self.read_json("reading items",
                                   lambda: self.zot.items(itemKey=chunk, includeTrashed=1, limit=100), list)
            for item in items:
                found[item["key"]] = item["data"]
        return found

    def top_collections(self) -> list[dict[str, Any]]:
        return self.read_json("listing collections",
                              lambda: self.zot.everything(self.zot.collections_top()), list)

    def collection(self, key: str) -> dict[str, Any] | None:
        try:
            found = self.read_json("reading a collection", lambda: self.zot.collection(key), dict)
            return found.get("data")
        except ZoteroError as exc:
            if exc.status == 404:
                return None
            raise

    # -- writes (our own POST) ---------------------------------------------------
    def post(self, kind: str, objects: list[dict[str, Any]]) -> WriteResult:
        """POST ≤ 50 *objects* to ``items`` or ``collections``; retries keep one write token."""
        import httpx2

        if len(objects) > MAX_WRITE_OBJECTS:
            raise ValueError(f"at most {MAX_WRITE_OBJECTS} objects per write")
        url = f"{self.endpoint}/{self.library}/{kind}"
        headers = {**self.zot.default_headers(), "Zotero-Write-Token": uuid.uuid4().hex}
        problem = ""
        for attempt in range(self.max_attempts):
            self._wait_for_backoff()
            try:
                response = self.zot.client.request("POST", url, json=objects, headers=headers,
                                                   timeout=self.timeout)
            except httpx2.TransportError as exc:
                # The write may have been applied: the retry's write token tells us.
                problem = network_problem(exc, self.endpoint)
                response = None
            if response is not None:
                status = response.status_code
                if status == 200:
                    self._note_backoff(response.headers)
                    try:
                        return parse_report(response.json())
                    except ValueError:
                        raise ZoteroError(f"writing {kind}: the server at {self.endpoint} sent a "
                                          "write report that is not JSON") from None
                if status == 412 and "write token" in response.text.lower():
                    self._note_backoff(response.headers)
                    return WriteResult(replayed=True)
                if status not in RETRY_STATUSES:
                    raise self.http_error(f"writing {kind}", status, response.text)
                problem = f"HTTP {status}"
            if attempt + 1 < self.max_attempts:
                self.sleep(self._retry_delay(attempt, response.headers if response is not None else None))
        raise ZoteroError(f"writing {kind}: gave up after {self.max_attempts} attempts ({problem})")

    # -- errors -------------------------------------------------------------------
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

def check_endpoint(endpoint: str) -> str:
    """``scheme://host[:port]``; pyzotero cannot page (``Link``) under a path prefix."""
    parts = urlsplit(endpoint.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ZoteroError(f"endpoint must be an http(s) URL, not {endpoint!r}")
    if parts.path not in ("", "/") or parts.query:
        raise ZoteroError("endpoint must be scheme://host[:port] with no path "
                          "(pyzotero cannot follow pages under a path prefix)")
    return f"{parts.scheme}://{parts.netloc}"


def parse_delay(value: str | None) -> float | None:
    """Seconds from a ``Backoff``/``Retry-After`` value (HTTP dates are ignored)."""
    if not value:
        return None
    try:
        seconds = float(value)
    except ValueError:
        return None
    return seconds if seconds > 0 else None


def parse_report(body: Any) -> WriteResult:
    if not isinstance(body, dict):
        raise ZoteroError("Zotero sent a write report that is not a JSON object")
    return WriteResult(
        successful={int(i): obj for i, obj in (body.get("successful") or {}).items()},
        unchanged={int(i): key for i, key in (body.get("unchanged") or {}).items()},
        failed={int(i): err for i, err in (body.get("failed") or {}).items()},
    )


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
