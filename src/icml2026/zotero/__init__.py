"""Zotero sync: ICML 2026 papers into a user or group library, idempotently.

    >>> import icml2026
    >>> from icml2026 import zotero
    >>> report = zotero.sync(icml2026.load(), library_id="123456", library_type="user",
    ...                      api_key=key, collection="ICML 2026")          # doctest: +SKIP
    >>> print(report.summary())                                             # doctest: +SKIP

Importing this package does not import pyzotero; a sync does.
"""

from __future__ import annotations

from .client import DEFAULT_ENDPOINT
from .errors import ZoteroError
from .mapping import ITEM_TYPE, TAG, collection_key, item_key, new_item
from .sync import Outcome, SyncReport, sync

__all__ = ["sync", "SyncReport", "Outcome", "ZoteroError", "item_key", "collection_key", "new_item",
           "DEFAULT_ENDPOINT", "ITEM_TYPE", "TAG"]
