"""Shared test fixtures: the packaged papers and the read-only ``shared/`` folder."""

from __future__ import annotations

from pathlib import Path

import pytest

import icml2026

REPO = Path(__file__).resolve().parents[1]
# Copies of the inputs the records are built from (tools/sources/README.md says where each
# comes from): the suite never needs the project's shared/ folder.
SHARED = REPO / "tools" / "sources"


@pytest.fixture(scope="session")
def papers() -> icml2026.PaperCollection:
    return icml2026.load()


@pytest.fixture(scope="session")
def shared() -> Path:
    return SHARED
