"""A session's expensive build made once, however many pytest-xdist workers need it.

Under ``-n``, each worker runs its own session fixtures; the workers of one run share the
parent of their temporary folders (``.../pytest-N/popen-gwK``), so the first worker to ask
builds there, under an exclusive lock, and the others wait for it and read what it built.
Without ``-n`` it is a folder of the session's own temporary folder.
"""

from __future__ import annotations

import fcntl
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest


def built_once(tmp_path_factory: pytest.TempPathFactory, name: str, build: Callable[[Path], None]) -> Path:
    """The folder *name*, made by ``build(folder)`` once per test run (see the module)."""
    base = tmp_path_factory.getbasetemp()
    if base.name.startswith("popen-gw"):
        base = base.parent
    folder = base / f"built-once-{name}"
    done = folder.with_name(folder.name + ".done")
    with open(folder.with_name(folder.name + ".lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if not done.exists():
                shutil.rmtree(folder, ignore_errors=True)  # a build that failed half-way
                folder.mkdir(parents=True)
                build(folder)
                done.touch()
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    return folder
