"""Where the corrections layer lives and whether it is used: all that ``load()`` needs at start-up.

Kept apart from :mod:`.layer` so that a start without a layer costs one
``stat()`` and no dataclass creation (``icml2026 export`` is start-up bound).

The data folder is platformdirs' ``user_data_dir("icml2026", appauthor=False)``.
On Linux that is the XDG rule, which this module computes itself rather than
import platformdirs on every start (it loads ``tempfile``, ``shutil``, ``random`` …):
``$XDG_DATA_HOME/icml2026`` when that variable holds an absolute path, else
``~/.local/share/icml2026`` with ``~`` the non-empty ``$HOME``.  Anything else (another
platform, no usable ``$HOME``) asks platformdirs; ``tests/test_update_paths.py``
compares the two under each of these cases.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # pathlib only when a Path is asked for (start-up)
if TYPE_CHECKING:
    from pathlib import Path

ENV_DIR = "ICML2026_DATA_DIR"
PROCEEDINGS = "pmlr-v306"
APP = "icml2026"


def data_folder() -> Path:
    """The user's data folder for icml2026 (``ICML2026_DATA_DIR`` overrides it)."""
    from pathlib import Path

    return Path(_data_folder())


def _data_folder() -> str:
    override = os.environ.get(ENV_DIR)
    if override:
        return override
    found = xdg_data_folder()
    if found is not None:
        return found
    import platformdirs  # other platforms, or no $HOME

    return str(platformdirs.user_data_dir(APP, appauthor=False))


def xdg_data_folder() -> str | None:
    """platformdirs' answer on Linux, without platformdirs; None where this module does not
    compute it (another platform, ``$HOME`` unset or empty)."""
    if not sys.platform.startswith("linux"):
        return None
    base = os.environ.get("XDG_DATA_HOME", "")
    if not base.startswith("/"):  # unset, empty or relative: the XDG specification's default
        home = os.environ.get("HOME", "")
        if not home:
            return None
        base = os.path.expanduser("~/.local/share")
    return os.path.join(base, APP)


def layer_path() -> Path:
    from pathlib import Path

    return Path(_layer_file())


def _layer_file() -> str:
    return os.path.join(_data_folder(), "corrections", f"{PROCEEDINGS}.json")


def active_layer(enabled: bool = True) -> Path | None:
    """The layer file to apply: None when *enabled* is false (``load(corrections=False)``,
    ``--no-corrections``) or when there is none."""
    if not enabled:
        return None
    path = _layer_file()
    return layer_path() if os.path.exists(path) else None
