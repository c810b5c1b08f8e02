"""Shared test fixtures: the packaged papers and the read-only ``shared/`` folder."""

from __future__ import annotations

from pathlib import Path

import pytest

import icml2026

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"


@pytest.fixture(scope="session")
def papers() -> icml2026.PaperCollection:
    return icml2026.load()


@pytest.fixture(scope="session")
def shared() -> Path:
    if not (SHARED / "data" / "seed-papers.json").exists():
        pytest.skip(f"the project's shared/ folder is not at {SHARED}")
    return SHARED
