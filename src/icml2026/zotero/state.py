"""The local sync state: what the last sync saw of each item, and the library version then.

Kept so that a re-sync reads only what changed: with the library version ``V``
of the last sync, one ``GET …/items/top?since=V`` (with ``If-Modified-Since-
Version: V``, so an unchanged library answers 304) tells which items to look at;
every other item is planned from what is stored here (:class:`mapping.Remote`:
its version, a hash per owned field and its ``extra``).

The state is a cache, never the truth: every write still carries the item's
version, so a wrong state costs a 412 and a re-read, never an overwrite; a
missing, unreadable or foreign state file means a full read of the library.
One JSON file per endpoint and library, under ``$XDG_STATE_HOME/icml2026/zotero``
(``~/.local/state/icml2026/zotero``) for the CLI.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .mapping import OWNED_FIELDS, Remote

FORMAT = 1


def default_dir() -> Path:
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "icml2026" / "zotero"


@dataclass
class SyncState:
    """Paper id → the item it has in the library, as of library version :attr:`version`.

    An entry with ``version < 0`` is known to be stale (someone else changed the
    item while we were writing): it is read again before use.
    """

    path: Path | None
    endpoint: str
    library: str
    version: int | None = None
    items: dict[str, Remote] = field(default_factory=dict)
    collections: dict[str, str] = field(default_factory=dict)
    schema: tuple[str, frozenset[str]] | None = None   # (schema version, conferencePaper fields)

    @classmethod
    def load(cls, directory: str | os.PathLike[str] | None, endpoint: str, library: str) -> SyncState:
        """The stored state of this library, or an empty one (no directory, no file, unusable file)."""
        if directory is None:
            return cls(None, endpoint, library)
        name = hashlib.sha256(f"{endpoint}\n{library}".encode()).hexdigest()[:20]
        state = cls(Path(directory) / f"{name}.json", endpoint, library)
        try:
            raw = json.loads(state.path.read_text(encoding="utf-8"))  # type: ignore[union-attr]
            state._read(raw)
        except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError):
            return cls(state.path, endpoint, library)   # unreadable: start again from a full read
        return state

    def _read(self, raw: dict[str, Any]) -> None:
        if (raw["format"], raw["endpoint"], raw["library"], raw["fields"]) != \
                (FORMAT, self.endpoint, self.library, list(OWNED_FIELDS)):
            raise ValueError("state of another library or format")
        version = raw["version"]
        if not isinstance(version, int) or isinstance(version, bool):
            raise TypeError("version")
        self.items = {str(pid): Remote.from_json(entry) for pid, entry in raw["items"].items()}
        self.collections = {str(k): str(v) for k, v in raw["collections"].items()}
        schema = raw.get("schema")   # absent in files of earlier releases: read again when needed
        if schema is not None:
            self.schema = (str(schema["version"]), frozenset(str(f) for f in schema["fields"]))
        self.version = version

    def save(self) -> None:
        """Write atomically (a crash leaves the old file or the new one, never half of one)."""
        if self.path is None or self.version is None:
            return
        body = {"format": FORMAT, "endpoint": self.endpoint, "library": self.library,
                "fields": list(OWNED_FIELDS), "version": self.version, "collections": self.collections,
                "items": {pid: self.items[pid].to_json() for pid in sorted(self.items)}}
        if self.schema is not None:
            body["schema"] = {"version": self.schema[0], "fields": sorted(self.schema[1])}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        descriptor, temporary = tempfile.mkstemp(dir=self.path.parent, prefix=".zotero-state-",
                                                 suffix=".tmp")
        try:
            with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
                json.dump(body, handle, ensure_ascii=False, separators=(",", ":"))
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(temporary, self.path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
