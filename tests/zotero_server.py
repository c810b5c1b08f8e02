"""A Zotero Web API v3 server for the test suite, on 127.0.0.1, with fault injection.

It reproduces the behaviour recorded in ``shared/reference/zotero-web-api.md``
(the dataserver of 2026-08, schema v41), as far as a bibliography sync can see it:

* user and group libraries; API keys (``Zotero-API-Key``, ``Authorization: Bearer``,
  ``?key=``) with read/write rights per library; 403 "Invalid key", 403 for writes
  without a key or without write access, 404 for unknown libraries;
* item types, fields and creator types from schema v41 (``tests/data``), item
  templates (``/items/new``) and the mapping endpoints;
* library and object versions, bumped per object in multi-object writes (the
  current server; ``one_bump_per_request=True`` gives the pre-March-2026 model);
* reads: ``format=json|versions|keys``, ``since``, ``itemKey`` (forces limit 100),
  ``includeTrashed``, ``sort``/``direction``, ``limit``/``start`` with
  ``Total-Results`` and a ``Link`` header, ``If-Modified-Since-Version`` → 304;
* writes: the multi-object report (``successful``/``success``/``unchanged``/
  ``failed`` by index), PATCH semantics for existing keys, 412/428/413/409 rules,
  write tokens (5–32 chars, per key, stored after a 200), single-object
  PATCH/PUT/DELETE and multi-delete; collections.

Faults (:meth:`ZoteroServer.inject`): ``429`` (+ ``Retry-After``), ``503``, ``500``,
``backoff`` (a ``Backoff`` header on a good answer), ``edit`` (a concurrent edit
just before the request is processed), ``drop`` (the write is applied, then the
connection is closed without an answer), ``slow`` (applied, answered late) and
``refuse-keys`` (a create that names its own key fails with "'…' is not a valid item
key", as the Zotero API did in August 2026, zotero/zotero#6029; objects without a key
are created under a key the server chooses).

Every request is counted by kind (``"POST items"``, ``"GET items"``…) in
:attr:`ZoteroServer.requests`.
"""

from __future__ import annotations

import json
import re
import secrets
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Self
from urllib.parse import parse_qsl, urlencode, urlsplit

# The request labels (``POST items``) are shared with the client's own counts, so
# server-side and client-side tallies can be compared directly.
from icml2026.zotero.client import request_kind

SCHEMA_PATH = Path(__file__).with_name("data") / "zotero-schema-v41.json"
KEY_RE = re.compile(r"^[23456789ABCDEFGHIJKLMNPQRSTUVWXYZ]{8}$")
BEARER_RE = re.compile(r"^bearer +([a-z0-9]+)$", re.IGNORECASE)
MAX_WRITE = 50
MAX_VALUE_BYTES = 65535
WRITE_TOKEN_TTL = 12 * 3600
DATE_TIME_RE = re.compile(r"^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}:\d{2}(\.\d+)?Z?)?$")
RELATION_URI_RE = re.compile(r"^http://zotero\.org/(users|groups)/\d+/(publications/)?items/[A-Z0-9]{8}$")
RELATION_PREDICATES = {"owl:sameAs", "dc:replaces", "dc:relation"}
ITEM_PROPS = {"key", "version", "itemType", "parentItem", "creators", "tags", "collections",
              "relations", "deleted", "dateAdded", "dateModified", "note", "inPublications"}
COLLECTION_PROPS = {"key", "version", "name", "parentCollection", "relations", "deleted"}
VALID_SORTS = {"title", "creator", "itemType", "date", "publisher", "publicationTitle",
               "journalAbbreviation", "language", "accessDate", "libraryCatalog", "callNumber",
               "rights", "extra", "dateAdded", "dateModified", "addedBy", "numItems",
               "itemKeyList", "collectionKeyList", "searchKeyList"}


def now_iso() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def new_key() -> str:
    return "".join(secrets.choice("23456789ABCDEFGHIJKLMNPQRSTUVWXYZ") for _ in range(8))




# -- schema -------------------------------------------------------------------------

class Schema:
    """Item types, their fields (schema order) and creator types, from schema.json."""

    def __init__(self, path: Path = SCHEMA_PATH) -> None:
        raw = json.loads(path.read_text(encoding="utf-8"))
        self.version: int = raw["version"]
        self.raw_text = path.read_text(encoding="utf-8")
        self.fields: dict[str, list[str]] = {}
        self.creator_types: dict[str, list[str]] = {}
        self.primary: dict[str, str | None] = {}
        base_fields: set[str] = set()
        for entry in raw["itemTypes"]:
            name = entry["itemType"]
            self.fields[name] = [f["field"] for f in entry["fields"]]
            base_fields.update(f["baseField"] for f in entry["fields"] if "baseField" in f)
            self.creator_types[name] = [c["creatorType"] for c in entry["creatorTypes"]]
            self.primary[name] = next((c["creatorType"] for c in entry["creatorTypes"] if c.get("primary")), None)
        self.all_fields = {f for fs in self.fields.values() for f in fs} | base_fields
        self.labels: dict[str, dict[str, str]] = raw["locales"]["en-US"]

    def template(self, item_type: str) -> dict[str, Any]:
        data: dict[str, Any] = {"itemType": item_type}
        fields = self.fields[item_type]
        if item_type == "note":
            data["note"] = ""
        for name in fields:
            data[name] = ""
            if name == "title" and self.primary[item_type]:
                data["creators"] = [{"creatorType": self.primary[item_type], "firstName": "", "lastName": ""}]
        if self.primary[item_type] and "creators" not in data:
            data["creators"] = [{"creatorType": self.primary[item_type], "firstName": "", "lastName": ""}]
        data.update({"tags": [], "collections": [], "relations": {}})
        return data


# -- state --------------------------------------------------------------------------

@dataclass
class ApiKey:
    key: str
    user_id: int
    write: bool = True
    groups: dict[int, bool] = field(default_factory=dict)   # group id → may write


@dataclass
class Library:
    type: str            # "user" or "group"
    id: int
    name: str
    version: int = 0
    items: dict[str, dict[str, Any]] = field(default_factory=dict)        # key → data
    collections: dict[str, dict[str, Any]] = field(default_factory=dict)  # key → data
    deleted: dict[str, dict[str, int]] = field(default_factory=lambda: {"items": {}, "collections": {}})

    @property
    def prefix(self) -> str:
        return f"/{self.type}s/{self.id}"


@dataclass
class Fault:
    kind: str                    # 429, 503, 500, backoff, edit, drop, slow, refuse-keys
    match: str                   # request kind, e.g. "POST items"
    times: int = 1
    skip: int = 0                # let this many matching requests through first
    retry_after: str | None = "1"
    backoff: str = "1"
    delay: float = 1.0           # for "slow"
    action: Callable[[ZoteroServer], None] | None = None   # for "edit"
    fired: int = 0


class HttpError(Exception):
    def __init__(self, status: int, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers or {}


# -- the server ---------------------------------------------------------------------

class ZoteroServer:
    """Start with ``with ZoteroServer() as server:``; ``server.endpoint`` is the base URL."""

    def __init__(self, schema: Schema | None = None, *, one_bump_per_request: bool = False,
                 latency: float = 0.0) -> None:
        self.schema = schema or Schema()
        self.one_bump_per_request = one_bump_per_request
        self.latency = latency   # seconds added to every answer, to mimic a real network
        self.keys: dict[str, ApiKey] = {}
        self.libraries: dict[tuple[str, int], Library] = {}
        self.write_tokens: dict[str, dict[str, float]] = {}
        self.faults: list[Fault] = []
        self.requests: Counter[str] = Counter()
        self.log: list[tuple[str, str, int]] = []
        self.lock = threading.RLock()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self._httpd.daemon_threads = True
        self._httpd.zotero = self  # type: ignore[attr-defined]
        self._thread: threading.Thread | None = None

    # -- lifecycle ----------------------------------------------------------------
    @property
    def endpoint(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}"

    def start(self) -> ZoteroServer:
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                        daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- set-up -------------------------------------------------------------------
    def add_user(self, user_id: int, name: str = "user") -> Library:
        return self.libraries.setdefault(("user", user_id), Library("user", user_id, name))

    def add_group(self, group_id: int, name: str = "group") -> Library:
        return self.libraries.setdefault(("group", group_id), Library("group", group_id, name))

    def add_key(self, key: str, user_id: int, *, write: bool = True,
                groups: dict[int, bool] | None = None) -> ApiKey:
        assert key.isalnum(), "test keys must be alphanumeric (Bearer format)"
        self.add_user(user_id)
        self.keys[key] = ApiKey(key, user_id, write, dict(groups or {}))
        return self.keys[key]

    def library(self, library_type: str, library_id: int) -> Library:
        return self.libraries[(library_type, int(library_id))]

    def inject(self, kind: str, match: str, **options: Any) -> Fault:
        fault = Fault(kind, match, **options)
        with self.lock:
            self.faults.append(fault)
        return fault

    def reset_counts(self) -> None:
        with self.lock:
            self.requests.clear()
            self.log.clear()

    # -- what a user does in the Zotero client (synced to the server) ---------------
    def user_edit(self, lib: Library, key: str, **fields: Any) -> None:
        with self.lock:
            data = lib.items[key]
            data.update(fields)
            self._bump_item(lib, data)

    def user_add_note(self, lib: Library, parent: str, html: str) -> str:
        with self.lock:
            data = {**self.schema.template("note"), "note": html, "parentItem": parent}
            del data["collections"]
            key = new_key()
            data.update(key=key, dateAdded=now_iso(), dateModified=now_iso())
            lib.items[key] = data
            self._bump_item(lib, data)
            return key

    def user_add_item(self, lib: Library, item_type: str, **fields: Any) -> str:
        """An item made by hand in the Zotero client (e.g. with the Connector): a random key."""
        with self.lock:
            data = {**self.schema.template(item_type), "creators": [], **fields}
            key = new_key()
            data.update(key=key, dateAdded=now_iso(), dateModified=now_iso())
            lib.items[key] = data
            self._bump_item(lib, data)
            return key

    def user_add_collection(self, lib: Library, name: str, parent: str | bool = False) -> str:
        with self.lock:
            key = new_key()
            lib.version += 1
            lib.collections[key] = {"key": key, "version": lib.version, "name": name,
                                    "parentCollection": parent, "relations": {}}
            return key

    def user_delete_collection(self, lib: Library, key: str) -> None:
        with self.lock:
            _Api(self)._delete(lib, "collections", [key])

    def _bump_item(self, lib: Library, data: dict[str, Any]) -> None:
        lib.version += 1
        data["version"] = lib.version
        data["dateModified"] = now_iso()

    # -- inspection -----------------------------------------------------------------
    def regular_items(self, lib: Library) -> list[dict[str, Any]]:
        """Top-level, non-note, non-trashed items."""
        return [d for d in lib.items.values()
                if d["itemType"] not in ("note", "attachment", "annotation") and not d.get("deleted")]

    def count(self, kind: str) -> int:
        return self.requests.get(kind, 0)

    # -- fault matching -------------------------------------------------------------
    def take_fault(self, kind: str) -> Fault | None:
        with self.lock:
            for fault in self.faults:
                if fault.match != kind or fault.fired >= fault.times:
                    continue
                if fault.skip > 0:
                    fault.skip -= 1
                    return None
                fault.fired += 1
                return fault
        return None


# -- HTTP ---------------------------------------------------------------------------

@dataclass
class Request:
    method: str
    path: str
    query: dict[str, str]
    headers: Any
    body: bytes
    api_key: ApiKey | None = None


@dataclass
class Response:
    status: int
    body: bytes = b""
    content_type: str = "text/plain; charset=utf-8"
    headers: dict[str, str] = field(default_factory=dict)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "ZoteroTestServer/1.0"
    disable_nagle_algorithm = True   # headers and body go out in separate writes

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        self._handle("GET")

    def do_POST(self) -> None:
        self._handle("POST")

    def do_PATCH(self) -> None:
        self._handle("PATCH")

    def do_PUT(self) -> None:
        self._handle("PUT")

    def do_DELETE(self) -> None:
        self._handle("DELETE")

    def _handle(self, method: str) -> None:
        server: ZoteroServer = self.server.zotero  # type: ignore[attr-defined]
        parts = urlsplit(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        kind = request_kind(method, parts.path)
        with server.lock:
            server.requests[kind] += 1
        request = Request(method, parts.path, dict(parse_qsl(parts.query, keep_blank_values=True)),
                          self.headers, body)
        fault = server.take_fault(kind)
        response = self._faulted(fault) if fault and fault.kind in ("429", "503", "500") else None
        if response is None:
            if fault and fault.kind == "edit" and fault.action:
                fault.action(server)
            response = _Api(server, refuse_keys=bool(fault and fault.kind == "refuse-keys")).dispatch(request)
        with server.lock:
            server.log.append((method, self.path, response.status))
        if fault and fault.kind == "backoff":
            response.headers["Backoff"] = fault.backoff
        if fault and fault.kind == "drop":
            self.close_connection = True   # applied, but the client never hears back
            return
        if fault and fault.kind == "slow":
            time.sleep(fault.delay)
        if server.latency:
            time.sleep(server.latency)
        self._send(response)

    @staticmethod
    def _faulted(fault: Fault) -> Response:
        status = int(fault.kind)
        text = {429: "Too many requests", 503: "Service unavailable", 500: "An error occurred"}[status]
        headers = {"Retry-After": fault.retry_after} if fault.retry_after and status != 500 else {}
        return Response(status, text.encode(), headers=headers)

    def _send(self, response: Response) -> None:
        try:
            self.send_response(response.status)
            self.send_header("Zotero-API-Version", "3")
            self.send_header("Zotero-Schema-Version", str(self.server.zotero.schema.version))  # type: ignore[attr-defined]
            if response.status != 304 and response.status != 204:
                self.send_header("Content-Type", response.content_type)
            for name, value in response.headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(response.body)))
            self.end_headers()
            self.wfile.write(response.body)
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True   # the client gave up (timed out) first


class _Api:
    """Request → Response, under the server's lock."""

    def __init__(self, server: ZoteroServer, *, refuse_keys: bool = False) -> None:
        self.server = server
        self.schema = server.schema
        self.refuse_keys = refuse_keys

    # -- dispatch -------------------------------------------------------------------
    def dispatch(self, request: Request) -> Response:
        try:
            with self.server.lock:
                return self._route(request)
        except HttpError as exc:
            headers = dict(exc.headers)
            return Response(exc.status, _escape(exc.message).encode(), headers=headers)

    def _route(self, req: Request) -> Response:
        self._check_api_version(req)
        req.api_key = self._authenticate(req)
        parts = [p for p in req.path.split("/") if p]
        if parts and parts[0] in ("users", "groups"):
            if len(parts) < 3 or not parts[1].isdigit():
                raise HttpError(404, "Not found")
            lib = self._library(req, parts[0][:-1], int(parts[1]))
            return self._library_route(req, lib, parts[2:])
        return self._root_route(req, parts)

    def _check_api_version(self, req: Request) -> None:
        header, param = req.headers.get("Zotero-API-Version"), req.query.get("v")
        if header and param and header != param:
            raise HttpError(400, "Zotero-API-Version header does not match 'v' parameter")
        if (header or param or "3") != "3":
            raise HttpError(400, "Invalid API version")

    def _authenticate(self, req: Request) -> ApiKey | None:
        found = []
        if req.headers.get("Zotero-API-Key"):
            found.append(req.headers["Zotero-API-Key"])
        auth = req.headers.get("Authorization")
        if auth:
            match = BEARER_RE.match(auth)
            if not match:
                raise HttpError(400, "Invalid Authorization header format")
            found.append(match.group(1))
        if req.query.get("key"):
            found.append(req.query["key"])
        if len(set(found)) > 1:
            raise HttpError(400, "Zotero-API-Key header and key parameter differ")
        if not found:
            if req.method != "GET":
                raise HttpError(403, "An API key is required for write requests.")
            return None
        key = self.server.keys.get(found[0])
        if key is None:
            raise HttpError(403, "Invalid key")
        return key

    def _library(self, req: Request, library_type: str, library_id: int) -> Library:
        lib = self.server.libraries.get((library_type, library_id))
        if lib is None:
            raise HttpError(404, "Not found")
        key = req.api_key
        if library_type == "user":
            can_read = key is not None and key.user_id == library_id
            can_write = can_read and key is not None and key.write
        else:
            can_read = key is not None and library_id in key.groups
            can_write = can_read and key is not None and key.groups[library_id]
        if not can_read:
            raise HttpError(403, "Forbidden")
        if req.method != "GET" and not can_write:
            raise HttpError(403, "Write access denied")
        return lib

    # -- root endpoints ---------------------------------------------------------------
    def _root_route(self, req: Request, parts: list[str]) -> Response:
        if req.method != "GET":
            raise HttpError(405, "Method not allowed")
        path = "/".join(parts)
        labels = self.schema.labels
        if path == "items/new":
            item_type = req.query.get("itemType")
            if not item_type:
                raise HttpError(400, "'itemType' not provided")
            if item_type not in self.schema.fields:
                raise HttpError(400, f"Invalid item type '{item_type}'")
            return _json(self.schema.template(item_type))
        if path == "itemTypes":
            return _json([{"itemType": t, "localized": labels["itemTypes"].get(t, t)} for t in self.schema.fields])
        if path == "itemFields":
            return _json([{"field": f, "localized": labels["fields"].get(f, f)} for f in sorted(self.schema.all_fields)])
        if path in ("itemTypeFields", "itemTypeCreatorTypes"):
            item_type = req.query.get("itemType")
            if not item_type:
                raise HttpError(400, "'itemType' not provided")
            if item_type not in self.schema.fields:
                raise HttpError(400, f"Invalid item type '{item_type}'")
            if path == "itemTypeFields":
                return _json([{"field": f, "localized": labels["fields"].get(f, f)} for f in self.schema.fields[item_type]])
            return _json([{"creatorType": c, "localized": labels["creatorTypes"].get(c, c)}
                          for c in self.schema.creator_types[item_type]])
        if path == "creatorFields":
            return _json([{"field": "firstName", "localized": "First"}, {"field": "lastName", "localized": "Last"},
                          {"field": "name", "localized": "Name"}])
        if path == "schema":
            return Response(200, self.schema.raw_text.encode(), "application/json")
        if parts[:1] == ["keys"] and len(parts) == 2:
            key = req.api_key if parts[1] == "current" else self.server.keys.get(parts[1])
            if key is None:
                raise HttpError(403 if parts[1] == "current" else 404, "Invalid key" if parts[1] == "current" else "Key not found")
            access: dict[str, Any] = {"user": {"library": True, "files": True, "notes": True, "write": key.write}}
            if key.groups:
                access["groups"] = {str(g): {"library": True, "write": w} for g, w in key.groups.items()}
            return _json({"key": key.key, "userID": key.user_id, "username": "user", "access": access})
        raise HttpError(404, "Not found")

    # -- library endpoints -----------------------------------------------------------
    def _library_route(self, req: Request, lib: Library, parts: list[str]) -> Response:
        head, rest = parts[0], parts[1:]
        if head == "items":
            return self._items_route(req, lib, rest)
        if head == "collections":
            return self._collections_route(req, lib, rest)
        if head == "deleted" and req.method == "GET":
            if "since" not in req.query:
                raise HttpError(400, "'since' parameter must be provided")
            since = _int(req.query["since"], "since")
            out = {"collections": [k for k, v in lib.deleted["collections"].items() if v > since],
                   "items": [k for k, v in lib.deleted["items"].items() if v > since],
                   "searches": [], "tags": [], "settings": []}
            return _json(out, {"Last-Modified-Version": str(lib.version)})
        raise HttpError(404, "Not found")

    def _items_route(self, req: Request, lib: Library, rest: list[str]) -> Response:
        if not rest or rest == ["top"] or rest == ["trash"]:
            if req.method == "GET":
                items = list(lib.items.values())
                if rest == ["top"]:
                    items = [d for d in items if not d.get("parentItem")]
                if rest == ["trash"]:
                    items = [d for d in items if d.get("deleted")]
                return self._list(req, lib, items, self._item_json, trash_view=rest == ["trash"])
            if req.method == "POST" and not rest:
                return self._multi_write(req, lib, "items")
            if req.method == "DELETE" and not rest:
                return self._multi_delete(req, lib, "items", "itemKey")
            raise HttpError(405, "Method not allowed")
        key = rest[0]
        data = lib.items.get(key)
        if len(rest) == 2 and rest[1] == "children" and req.method == "GET":
            if data is None:
                raise HttpError(404, "Item not found")
            children = [d for d in lib.items.values() if d.get("parentItem") == key]
            return self._list(req, lib, children, self._item_json)
        if len(rest) != 1:
            raise HttpError(404, "Not found")
        if req.method == "GET":
            if data is None:
                raise HttpError(404, "Item not found")
            return _json(self._item_json(lib, data), {"Last-Modified-Version": str(data["version"])})
        if req.method in ("PATCH", "PUT"):
            return self._single_write(req, lib, "items", key)
        if req.method == "DELETE":
            return self._single_delete(req, lib, "items", key)
        raise HttpError(405, "Method not allowed")

    def _collections_route(self, req: Request, lib: Library, rest: list[str]) -> Response:
        if not rest or rest == ["top"]:
            if req.method == "GET":
                colls = list(lib.collections.values())
                if rest == ["top"]:
                    colls = [c for c in colls if not c.get("parentCollection")]
                return self._list(req, lib, colls, self._collection_json)
            if req.method == "POST" and not rest:
                return self._multi_write(req, lib, "collections")
            if req.method == "DELETE" and not rest:
                return self._multi_delete(req, lib, "collections", "collectionKey")
            raise HttpError(405, "Method not allowed")
        key = rest[0]
        coll = lib.collections.get(key)
        if coll is None and req.method == "GET":
            raise HttpError(404, "Collection not found")
        if len(rest) == 1:
            if req.method == "GET":
                return _json(self._collection_json(lib, coll), {"Last-Modified-Version": str(coll["version"])})
            if req.method in ("PATCH", "PUT"):
                return self._single_write(req, lib, "collections", key)
            if req.method == "DELETE":
                return self._single_delete(req, lib, "collections", key)
        if req.method == "GET" and rest[1:] in (["items"], ["items", "top"]):
            items = [d for d in lib.items.values() if key in d.get("collections", [])]
            return self._list(req, lib, items, self._item_json)
        if req.method == "GET" and rest[1:] == ["collections"]:
            subs = [c for c in lib.collections.values() if c.get("parentCollection") == key]
            return self._list(req, lib, subs, self._collection_json)
        raise HttpError(404, "Not found")

    # -- reads --------------------------------------------------------------------------
    def _list(self, req: Request, lib: Library, objects: list[dict[str, Any]],
              render: Callable[[Library, dict[str, Any]], dict[str, Any]], trash_view: bool = False) -> Response:
        q = req.query
        since_header = req.headers.get("If-Modified-Since-Version")
        if since_header is not None and lib.version <= _int(since_header, "If-Modified-Since-Version"):
            return Response(304, headers={"Last-Modified-Version": str(lib.version)})
        fmt = q.get("format", "json")
        if fmt not in ("json", "versions", "keys"):
            raise HttpError(400, f"Format '{fmt}' is not supported by the test server")
        if not trash_view and q.get("includeTrashed") not in ("1", "true"):
            objects = [o for o in objects if not o.get("deleted")]
        if "since" in q:
            since = _int(q["since"], "since")
            objects = [o for o in objects if o["version"] > since]
        limit_forced = None
        for name in ("itemKey", "collectionKey"):
            if name in q:
                wanted = {k for k in q[name].split(",") if KEY_RE.match(k)}
                objects = [o for o in objects if o["key"] in wanted]
                limit_forced = 100
        objects = self._sort(q, objects)
        total = len(objects)
        start = _int(q.get("start", "0"), "start")
        limit = self._limit(q, fmt, limit_forced)
        page = objects[start:start + limit] if limit else objects[start:]
        headers = {"Total-Results": str(total), "Last-Modified-Version": str(lib.version),
                   "Link": self._links(req, lib, start, limit, total)}
        if fmt == "versions":
            return _json({o["key"]: o["version"] for o in page}, headers)
        if fmt == "keys":
            return Response(200, "\n".join(o["key"] for o in page).encode() + b"\n", "text/plain", headers)
        return _json([render(lib, o) for o in page], headers)

    @staticmethod
    def _limit(q: dict[str, str], fmt: str, forced: int | None) -> int | None:
        if forced:
            return forced
        if "limit" in q:
            limit = _int(q["limit"], "limit")
            if fmt in ("versions", "keys") and limit > 0:
                return limit
            return 25 if limit <= 0 else min(limit, 100)
        return None if fmt in ("versions", "keys") else 25

    @staticmethod
    def _sort(q: dict[str, str], objects: list[dict[str, Any]]) -> list[dict[str, Any]]:
        sort = q.get("sort", "dateModified")
        if sort not in VALID_SORTS:
            raise HttpError(400, f"Invalid 'sort' value '{sort}'")
        default_dir = "desc" if sort in ("dateAdded", "dateModified", "date", "accessDate") else "asc"
        direction = q.get("direction", default_dir)
        if direction not in ("asc", "desc"):
            raise HttpError(400, f"Invalid 'direction' value '{direction}'")
        # Ties broken by version then key, so pages are stable.
        ordered = sorted(objects, key=lambda o: (str(o.get(sort, o.get("name", ""))), o["version"], o["key"]))
        return list(reversed(ordered)) if direction == "desc" else ordered

    def _links(self, req: Request, lib: Library, start: int, limit: int | None, total: int) -> str:
        base = self.server.endpoint + req.path
        carried = {k: v for k, v in req.query.items()
                   if k in ("since", "itemKey", "collectionKey", "includeTrashed", "sort", "direction",
                            "limit", "itemType", "tag", "q", "qmode")
                   or (k == "format" and v != "json")}

        def url(at: int) -> str:
            params = dict(carried)
            if at:
                params["start"] = str(at)
            return f"<{base}?{urlencode(sorted(params.items()))}>" if params else f"<{base}>"

        links = []
        if limit:
            last = ((total - 1) // limit) * limit if total else 0
            if start > 0:
                links.append(f'{url(0)}; rel="first"')
                links.append(f'{url(max(start - limit, 0))}; rel="prev"')
            if start + limit < total:
                links.append(f'{url(start + limit)}; rel="next"')
            if last != start:
                links.append(f'{url(last)}; rel="last"')
        links.append(f'<https://www.zotero.org{lib.prefix}/items>; rel="alternate"')
        return ", ".join(links)

    def _library_json(self, lib: Library) -> dict[str, Any]:
        return {"type": lib.type, "id": lib.id, "name": lib.name,
                "links": {"alternate": {"href": f"https://www.zotero.org/{lib.name}", "type": "text/html"}}}

    def _item_json(self, lib: Library, data: dict[str, Any]) -> dict[str, Any]:
        item_type = data["itemType"]
        ordered: dict[str, Any] = {"key": data["key"], "version": data["version"]}
        if data.get("parentItem"):
            ordered["parentItem"] = data["parentItem"]
        ordered["itemType"] = item_type
        if item_type == "note":
            ordered["note"] = data.get("note", "")
        for name in self.schema.fields[item_type]:
            ordered[name] = data.get(name, "")
            if name == "title" and "creators" in data:
                ordered["creators"] = data["creators"]
        if "creators" in data and "creators" not in ordered:
            ordered["creators"] = data["creators"]
        ordered["tags"] = data.get("tags", [])
        if not data.get("parentItem"):
            ordered["collections"] = data.get("collections", [])
        ordered["relations"] = data.get("relations", {})
        ordered["dateAdded"] = data["dateAdded"]
        ordered["dateModified"] = data["dateModified"]
        if data.get("deleted"):
            ordered["deleted"] = 1
        meta: dict[str, Any] = {"numChildren": self._children(lib)[data["key"]]}
        summary = self._creator_summary(item_type, data.get("creators", []))
        if summary:
            meta = {"creatorSummary": summary, **meta}
        parsed = re.match(r"^(\d{4})(?:-(\d{2}))?(?:-(\d{2}))?", str(data.get("date", "")))
        if parsed:
            meta["parsedDate"] = "-".join(g for g in parsed.groups() if g)
        href = f"https://api.zotero.org{lib.prefix}/items/{data['key']}"
        return {"key": data["key"], "version": data["version"], "library": self._library_json(lib),
                "links": {"self": {"href": href, "type": "application/json"},
                          "alternate": {"href": f"https://www.zotero.org/{lib.name}/items/{data['key']}",
                                        "type": "text/html"}},
                "meta": meta, "data": ordered}

    def _children(self, lib: Library) -> Counter[str]:
        """Child counts by parent key, computed once per request (renders are O(n), not O(n²))."""
        if getattr(self, "_child_counts", None) is None:
            self._child_counts = Counter(d["parentItem"] for d in lib.items.values() if d.get("parentItem"))
        return self._child_counts

    def _creator_summary(self, item_type: str, creators: list[dict[str, Any]]) -> str:
        primary = self.schema.primary.get(item_type)
        names = [c.get("lastName") or c.get("name", "") for c in creators if c.get("creatorType") == primary]
        if not names:
            return ""
        if len(names) == 1:
            return names[0]
        if len(names) == 2:
            return f"{names[0]} and {names[1]}"
        return f"{names[0]} et al."

    def _collection_json(self, lib: Library, data: dict[str, Any]) -> dict[str, Any]:
        num = sum(1 for d in lib.items.values() if data["key"] in d.get("collections", []) and not d.get("deleted"))
        subs = sum(1 for c in lib.collections.values() if c.get("parentCollection") == data["key"])
        return {"key": data["key"], "version": data["version"], "library": self._library_json(lib),
                "links": {"self": {"href": f"https://api.zotero.org{lib.prefix}/collections/{data['key']}",
                                   "type": "application/json"}},
                "meta": {"numCollections": subs, "numItems": num},
                "data": {"key": data["key"], "version": data["version"], "name": data["name"],
                         "parentCollection": data.get("parentCollection") or False,
                         "relations": data.get("relations", {})}}

    # -- writes -------------------------------------------------------------------------
    def _check_write_token(self, req: Request) -> str | None:
        token = req.headers.get("Zotero-Write-Token")
        if token is None:
            return None
        if not 5 <= len(token) <= 32:
            raise HttpError(400, "Write token must be 5-32 characters")
        assert req.api_key is not None
        used = self.server.write_tokens.setdefault(req.api_key.key, {})
        when = used.get(token)
        if when is not None and time.time() - when < WRITE_TOKEN_TTL:
            raise HttpError(412, "Write token already used")
        return token

    def _store_write_token(self, req: Request, token: str | None) -> None:
        if token and req.api_key is not None:
            self.server.write_tokens.setdefault(req.api_key.key, {})[token] = time.time()

    def _check_library_version(self, req: Request, lib: Library) -> bool:
        header = req.headers.get("If-Unmodified-Since-Version")
        if header is None:
            return False
        expected = _int(header, "If-Unmodified-Since-Version")
        if lib.version > expected:
            raise HttpError(412, f"Library has been modified since specified version "
                                 f"(expected {expected}, found {lib.version})",
                            {"Last-Modified-Version": str(lib.version)})
        return True

    def _parse_body(self, req: Request) -> Any:
        if not req.body.strip():
            raise HttpError(400, "POST data not provided")
        try:
            return json.loads(req.body)
        except ValueError:
            raise HttpError(400, "Invalid JSON") from None

    def _multi_write(self, req: Request, lib: Library, kind: str) -> Response:
        token = self._check_write_token(req)
        has_header = self._check_library_version(req, lib)
        body = self._parse_body(req)
        if not isinstance(body, list):
            raise HttpError(400, "Uploaded data must be a JSON array")
        if len(body) > MAX_WRITE:
            raise HttpError(413, f"Cannot add more than {MAX_WRITE} {kind} at a time")
        report: dict[str, dict[str, Any]] = {"successful": {}, "success": {}, "unchanged": {}, "failed": {}}
        changed: list[dict[str, Any]] = []
        for index, obj in enumerate(body):
            i = str(index)
            try:
                if not isinstance(obj, dict):
                    raise HttpError(400, f"Invalid value for index {index} in uploaded data; "
                                         f"expected JSON {kind[:-1]} object")
                data, was_changed = self._write_object(lib, kind, obj, has_header, partial=True)
            except HttpError as exc:
                report["failed"][i] = {"code": exc.status, "message": _escape(exc.message)}
                continue
            if not self.server.one_bump_per_request:
                lib.version += 1
            if was_changed:
                changed.append(data)
                if not self.server.one_bump_per_request:
                    data["version"] = lib.version
                report["success"][i] = data["key"]
                report["successful"][i] = data   # rendered below, after versions are final
            else:
                report["unchanged"][i] = data["key"]
        if self.server.one_bump_per_request and (changed or report["unchanged"]):
            lib.version += 1
            for data in changed:
                data["version"] = lib.version
        render = self._item_json if kind == "items" else self._collection_json
        report["successful"] = {i: render(lib, d) for i, d in report["successful"].items()}
        self._store_write_token(req, token)
        return _json(report, {"Last-Modified-Version": str(lib.version)})

    def _write_object(self, lib: Library, kind: str, obj: dict[str, Any], has_header: bool,
                      partial: bool) -> tuple[dict[str, Any], bool]:
        """Validate and apply one object; returns (stored data, changed?)."""
        store = lib.items if kind == "items" else lib.collections
        noun = "Item" if kind == "items" else "Collection"
        key = obj.get("key")
        version = obj.get("version")
        if key is not None and (not isinstance(key, str) or not KEY_RE.match(key)):
            raise HttpError(400, f"'{key}' is not a valid {noun.lower()} key")
        if version is not None and (not isinstance(version, int) or isinstance(version, bool) or version < 0):
            raise HttpError(400, "'version' must be an integer")
        existing = store.get(key) if key else None
        if key and existing is None and self.refuse_keys:
            raise HttpError(400, f"'{key}' is not a valid {noun.lower()} key")
        if key and version is None and not has_header:
            raise HttpError(428, "Either If-Unmodified-Since-Version or 'version' property must be "
                                 "provided for 'key'-based writes")
        if existing is not None and version is not None and version != existing["version"]:
            raise HttpError(412, f"{noun} has been modified since specified version "
                                 f"(expected {version}, found {existing['version']})")
        if existing is None and version:
            raise HttpError(404, f"{noun} doesn't exist (expected version {version}; use 0 instead)")
        if kind == "items":
            return self._apply_item(lib, obj, existing, partial)
        return self._apply_collection(lib, obj, existing, partial)

    def _apply_item(self, lib: Library, obj: dict[str, Any], existing: dict[str, Any] | None,
                    partial: bool) -> tuple[dict[str, Any], bool]:
        item_type = obj.get("itemType") or (existing or {}).get("itemType")
        if not item_type:
            raise HttpError(400, "'itemType' property not provided")
        if item_type not in self.schema.fields:
            raise HttpError(400, f"'{item_type}' is not a valid itemType")
        if existing is not None and not partial:
            for required in ("tags", "relations") + (() if existing.get("parentItem") else ("collections",)):
                if required not in obj:
                    raise HttpError(400, f"'{required}' property not provided")
        self._validate_item(lib, item_type, obj, existing)
        if existing is None:
            data = self.schema.template(item_type)
            if "creators" in data:
                data["creators"] = []
            stamp = now_iso()
            data.update(key=obj.get("key") or new_key(), version=0, dateAdded=stamp, dateModified=stamp)
        elif partial:
            data = json.loads(json.dumps(existing))
        else:
            data = {**self.schema.template(item_type), "creators": [],
                    **{k: existing[k] for k in ("key", "version", "dateAdded", "dateModified")}}
        if existing is not None and item_type != existing["itemType"]:
            valid = set(self.schema.fields[item_type])
            data = {k: v for k, v in data.items() if k in ITEM_PROPS or k in valid}
            data.update({f: data.get(f, "") for f in valid})
        for prop, value in obj.items():
            if prop in ("key", "version"):
                continue
            if prop in self.schema.all_fields and prop not in self.schema.fields[item_type]:
                continue   # empty value for a field of another type: ignored
            data[prop] = "" if value is None else value
        if data.get("parentItem"):
            data.pop("collections", None)
        if existing is None:
            lib.items[data["key"]] = data
            lib.deleted["items"].pop(data["key"], None)
            return data, True
        if _same(existing, data):
            return existing, False
        if "dateModified" not in obj:
            data["dateModified"] = now_iso()
        lib.items[data["key"]] = data
        return data, True

    def _validate_item(self, lib: Library, item_type: str, obj: dict[str, Any],
                       existing: dict[str, Any] | None) -> None:
        fields = self.schema.fields[item_type]
        for prop, value in obj.items():
            if prop in ITEM_PROPS:
                continue
            if prop not in self.schema.all_fields:
                raise HttpError(400, f"Invalid property '{prop}'")
            if isinstance(value, (list, dict)):
                raise HttpError(400, f"Unexpected array for property '{prop}'")
            if value not in ("", None) and prop not in fields:
                raise HttpError(400, f"'{prop}' is not a valid field for type '{item_type}'")
            if not isinstance(value, (str, int, float)) and value is not None:
                raise HttpError(400, f"Invalid value for property '{prop}'")
            text = "" if value is None else str(value)
            if len(text.encode("utf-8")) > MAX_VALUE_BYTES:
                label = self.schema.labels["fields"].get(prop, prop)
                raise HttpError(413, f"{label} field value '{text[:50]}…' too long")
            if prop == "accessDate" and text and text != "CURRENT_TIMESTAMP" and not DATE_TIME_RE.match(text):
                raise HttpError(400, "'accessDate' must be in ISO 8601 or UTC 'YYYY-MM-DD[ hh:mm:ss]' "
                                     "format or 'CURRENT_TIMESTAMP'")
        for prop in ("dateAdded", "dateModified"):
            if prop in obj and not DATE_TIME_RE.match(str(obj[prop])):
                raise HttpError(400, f"'{prop}' must be in ISO 8601 or UTC 'YYYY-MM-DD hh:mm:ss' format")
        if "note" in obj and item_type not in ("note", "attachment"):
            raise HttpError(400, "'note' property is valid only for note and attachment items")
        if "creators" in obj:
            self._validate_creators(item_type, obj["creators"])
        if "tags" in obj:
            self._validate_tags(obj["tags"])
        parent = obj.get("parentItem", (existing or {}).get("parentItem"))
        if parent:
            if parent not in lib.items:
                raise HttpError(409, f"Parent item {parent} not found")
            if obj.get("collections"):
                raise HttpError(400, "Child items cannot be assigned to collections")
        if "collections" in obj:
            colls = obj["collections"]
            if not isinstance(colls, list):
                raise HttpError(400, "'collections' property must be an array")
            for key in colls:
                if not isinstance(key, str) or not KEY_RE.match(key):
                    raise HttpError(400, f"'{key}' is not a valid collection key")
                if key not in lib.collections:
                    raise HttpError(409, f"Collection {key} not found")
        if "relations" in obj:
            self._validate_relations(obj["relations"])

    def _validate_creators(self, item_type: str, creators: Any) -> None:
        if not isinstance(creators, list):
            raise HttpError(400, "'creators' property must be an array")
        allowed = set(self.schema.creator_types[item_type]) | {"author"}
        for creator in creators:
            if not isinstance(creator, dict):
                raise HttpError(400, "Creator must be an object")
            if "creatorType" not in creator:
                raise HttpError(400, "creator object must contain 'creatorType'")
            if creator["creatorType"] not in allowed:
                raise HttpError(400, f"'{creator['creatorType']}' is not a valid creator type for item type '{item_type}'")
            for prop in creator:
                if prop not in ("creatorType", "firstName", "lastName", "name"):
                    raise HttpError(400, f"Invalid creator property '{prop}'")
            if "name" in creator and ("firstName" in creator or "lastName" in creator):
                raise HttpError(400, "'firstName' and 'name' creator fields are mutually exclusive")
            if "firstName" in creator and "lastName" not in creator:
                raise HttpError(400, "'lastName' creator field must be set if 'firstName' is set")
            if "lastName" in creator and "firstName" not in creator:
                raise HttpError(400, "'firstName' creator field must be set if 'lastName' is set")
            if "name" not in creator and "lastName" not in creator:
                raise HttpError(400, "creator object must contain 'firstName'/'lastName' or 'name'")

    @staticmethod
    def _validate_tags(tags: Any) -> None:
        if not isinstance(tags, list):
            raise HttpError(400, "'tags' property must be an array")
        for tag in tags:
            if not isinstance(tag, dict):
                raise HttpError(400, "Tag must be an object")
            if not tag:
                raise HttpError(400, "Tag object is empty")
            for prop, value in tag.items():
                if prop not in ("tag", "type"):
                    raise HttpError(400, f"Invalid tag property '{prop}'")
                if prop == "type" and value not in (0, 1, "0", "1"):
                    raise HttpError(400, f"Invalid tag type '{value}'")
            if not str(tag.get("tag", "")).strip():
                raise HttpError(400, "Tag cannot be empty")

    @staticmethod
    def _validate_relations(relations: Any) -> None:
        if not isinstance(relations, dict):
            raise HttpError(400, "'relations' property must be an object")
        for predicate, values in relations.items():
            if predicate not in RELATION_PREDICATES and not predicate.startswith("mendeleyDB:"):
                raise HttpError(400, f"Unsupported predicate '{predicate}'")
            for value in values if isinstance(values, list) else [values]:
                if not predicate.startswith("mendeleyDB:") and not RELATION_URI_RE.match(str(value)):
                    raise HttpError(400, "'relations' values currently must be Zotero item URIs")

    def _apply_collection(self, lib: Library, obj: dict[str, Any], existing: dict[str, Any] | None,
                          partial: bool) -> tuple[dict[str, Any], bool]:
        for prop in obj:
            if prop not in COLLECTION_PROPS:
                raise HttpError(400, f"Invalid property '{prop}'")
        if existing is None or "name" in obj:
            name = obj.get("name")
            if not isinstance(name, str) or not name.strip():
                raise HttpError(400, "Collection name cannot be empty")
            if len(name) > 255:
                raise HttpError(413, f"Collection name '{name[:50]}…' too long")
        parent = obj.get("parentCollection")
        if parent not in (None, False, "", 0) and (not isinstance(parent, str) or parent not in lib.collections):
            raise HttpError(409, f"Parent collection {parent} not found")
        if existing is None:
            data = {"key": obj.get("key") or new_key(), "version": 0, "name": "", "parentCollection": False,
                    "relations": {}}
        else:
            data = dict(existing) if partial else {"key": existing["key"], "version": existing["version"],
                                                   "name": "", "parentCollection": False, "relations": {}}
        for prop, value in obj.items():
            if prop not in ("key", "version"):
                data[prop] = value if prop != "parentCollection" else (value or False)
        if existing is not None and _same(existing, data):
            return existing, False
        lib.collections[data["key"]] = data
        lib.deleted["collections"].pop(data["key"], None)
        return data, True

    def _single_write(self, req: Request, lib: Library, kind: str, key: str) -> Response:
        token = self._check_write_token(req)
        store = lib.items if kind == "items" else lib.collections
        obj = self._parse_body(req)
        if not isinstance(obj, dict):
            raise HttpError(400, "Uploaded data must be a JSON object")
        if obj.get("key", key) != key:
            raise HttpError(409, "Key in body does not match key in URL")
        header = req.headers.get("If-Unmodified-Since-Version")
        if header is not None and "version" in obj and int(header) != obj["version"]:
            raise HttpError(400, "If-Unmodified-Since-Version does not match 'version' property")
        version = int(header) if header is not None else obj.get("version")
        existing = store.get(key)
        noun = "Item" if kind == "items" else "Collection"
        if existing is None:
            if version is None:
                raise HttpError(404, f"{noun} not found")
            if version:
                raise HttpError(412, f"{noun} not found (expected version {version})")
        else:
            if version is None:
                raise HttpError(428, "Either If-Unmodified-Since-Version or object version property must "
                                     "be provided for key-based writes")
            if version != existing["version"]:
                raise HttpError(412, f"{noun} has been modified since specified version "
                                     f"(expected {version}, found {existing['version']})",
                                {"Last-Modified-Version": str(existing["version"])})
        obj = {**obj, "key": key, "version": version}
        apply = self._apply_item if kind == "items" else self._apply_collection
        if kind == "items":
            self._check_new_item(obj, existing)
        data, changed = apply(lib, obj, existing, req.method == "PATCH")
        if changed or existing is None:
            lib.version += 1
            data["version"] = lib.version
        self._store_write_token(req, token)
        return Response(204, headers={"Last-Modified-Version": str(data["version"])})

    @staticmethod
    def _check_new_item(obj: dict[str, Any], existing: dict[str, Any] | None) -> None:
        if existing is None and "itemType" not in obj:
            raise HttpError(400, "'itemType' property not provided")

    def _single_delete(self, req: Request, lib: Library, kind: str, key: str) -> Response:
        self._check_write_token(req)
        store = lib.items if kind == "items" else lib.collections
        header = req.headers.get("If-Unmodified-Since-Version")
        if header is None:
            raise HttpError(428, "If-Unmodified-Since-Version must be provided for delete requests")
        existing = store.get(key)
        if existing is None:
            raise HttpError(404, "Not found")
        if int(header) != existing["version"]:
            raise HttpError(412, f"{kind[:-1].capitalize()} has been modified since specified version "
                                 f"(expected {header}, found {existing['version']})",
                            {"Last-Modified-Version": str(existing["version"])})
        self._delete(lib, kind, [key])
        return Response(204, headers={"Last-Modified-Version": str(lib.version)})

    def _multi_delete(self, req: Request, lib: Library, kind: str, param: str) -> Response:
        self._check_write_token(req)
        if req.headers.get("If-Unmodified-Since-Version") is None:
            # The live server lets this pass; strict here to catch client bugs (reference §1.5).
            raise HttpError(428, "If-Unmodified-Since-Version must be provided for delete requests")
        self._check_library_version(req, lib)
        keys = [k for k in req.query.get(param, "").split(",") if KEY_RE.match(k)]
        if len(keys) > MAX_WRITE:
            raise HttpError(413, f"Cannot delete more than {MAX_WRITE} {kind} at a time")
        self._delete(lib, kind, keys)
        return Response(204, headers={"Last-Modified-Version": str(lib.version)})

    def _delete(self, lib: Library, kind: str, keys: list[str]) -> None:
        lib.version += 1
        store = lib.items if kind == "items" else lib.collections
        for key in keys:
            if store.pop(key, None) is None:
                continue
            lib.deleted[kind][key] = lib.version
            if kind == "items":
                for child in [k for k, d in lib.items.items() if d.get("parentItem") == key]:
                    lib.items.pop(child)
                    lib.deleted["items"][child] = lib.version
            else:
                # Items leave a deleted collection without a version bump (reference §1.6).
                for data in lib.items.values():
                    if key in data.get("collections", []):
                        data["collections"] = [c for c in data["collections"] if c != key]


# -- helpers --------------------------------------------------------------------------

def _json(value: Any, headers: dict[str, str] | None = None) -> Response:
    return Response(200, json.dumps(value, ensure_ascii=False).encode("utf-8"), "application/json",
                    dict(headers or {}))


def _int(value: str, name: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise HttpError(400, f"Invalid '{name}' value") from None


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _same(old: dict[str, Any], new: dict[str, Any]) -> bool:
    ignore = {"version", "dateModified"}
    return ({k: v for k, v in old.items() if k not in ignore}
            == {k: v for k, v in new.items() if k not in ignore})
