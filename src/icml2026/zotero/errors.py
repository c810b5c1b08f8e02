"""The one exception of the Zotero sync; the CLI prints its message on one line."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import Icml2026Error

if TYPE_CHECKING:
    from .sync import SyncReport


class ZoteroError(Icml2026Error):
    """Zotero refused or could not be reached; never carries the API key.

    ``status`` is the HTTP status when there was one; ``report`` is what was
    done before the error (a partial :class:`~icml2026.zotero.sync.SyncReport`).
    """

    exit_code = 1

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.report: SyncReport | None = None
