"""Zotero sync: ICML 2026 papers into a user or group library, idempotently.

    >>> import icml2026
    >>> from icml2026 import zotero
    >>> papers = icml2026.load().search("diffusion")      # a selection, not the whole volume
    >>> report = zotero.sync(papers, library_id="123456", library_type="user",
    ...                      api_key=key, collection="ICML 2026",
    ...                      state_dir=zotero.default_state_dir())      # doctest: +SKIP
    >>> print(report.summary())                                         # doctest: +SKIP

With *state_dir*, a re-sync reads only what changed since the last one (one
request when nothing did).  Importing this package does not import pyzotero; a
sync does.
"""

from __future__ import annotations

from .client import DEFAULT_ENDPOINT
from .errors import ZoteroError
from .mapping import ITEM_TYPE, TAG, collection_key, item_key, new_item
from .state import default_dir as default_state_dir
from .sync import Outcome, SyncReport, sync

__all__ = [
    "DEFAULT_ENDPOINT",
    "ITEM_TYPE",
    "TAG",
    "Outcome",
    "SyncReport",
    "ZoteroError",
    "collection_key",
    "default_state_dir",
    "item_key",
    "new_item",
    "sync",
]
