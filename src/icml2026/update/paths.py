"""Where the corrections layer lives and whether it is used: all that ``load()`` needs at start-up.

Kept apart from :mod:`.layer` so that a start without a layer costs one
``stat()`` and no dataclass creation (``icml2026 export`` is start-up bound).
"""

from __future__ import annotations

import os
from pathlib import Path

ENV_DIR = "ICML2026_DATA_DIR"
PROCEEDINGS = "pmlr-v306"
ENABLED = True  # the CLI's --no-corrections sets this to False for one run


def data_folder() -> Path:
    """The user's data folder for icml2026 (``ICML2026_DATA_DIR`` overrides it)."""
    override = os.environ.get(ENV_DIR)
    if override:
        return Path(override)
    import platformdirs  # only without the override: tests and CI never need it

    return Path(platformdirs.user_data_dir("icml2026", appauthor=False))


def layer_path() -> Path:
    return data_folder() / "corrections" / f"{PROCEEDINGS}.json"


def active_layer(enabled: bool | None = None) -> Path | None:
    """The layer file to apply: None when disabled (*enabled* False, or None and not
    :data:`ENABLED`) or when there is none."""
    if not (ENABLED if enabled is None else enabled):
        return None
    path = layer_path()
    return path if path.exists() else None
