"""Shared test fixtures: the packaged papers and the inputs they are built from.

``papers`` is the 19 papers of the user's seed document (the curated records, with
abstracts, method names and the one incomplete record): the exporter, importer and
client tests were written for them and their golden strings name them.  ``volume``
is the whole packaged volume (6,552 records).
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

import pytest

# The suite never reads or writes a developer's own folders: a corrections layer from
# 'icml2026 update', Zotero sync state or a citation cache there would change results.
# Set before icml2026 is imported, and inherited by every CLI the tests start.
_USER_FOLDERS = tempfile.mkdtemp(prefix="icml2026-tests-")
atexit.register(shutil.rmtree, _USER_FOLDERS, True)  # one a process (each xdist worker): gone at its exit
os.environ["ICML2026_DATA_DIR"] = os.path.join(_USER_FOLDERS, "data")
for _name in ("XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME"):
    os.environ[_name] = os.path.join(_USER_FOLDERS, _name.lower())

import icml2026  # noqa: E402

REPO = Path(__file__).resolve().parents[1]


def stale_install(installed: Path, source: Path) -> list[str]:
    """The files of *source* (the checkout's ``src/icml2026``: its modules and packaged data)
    that the installed package at *installed* lacks or holds with other bytes; none when the
    install is editable (the same folder)."""
    if installed.resolve() == source.resolve():
        return []
    differ = []
    for path in sorted(source.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            copy = installed / path.relative_to(source)
            if not copy.is_file() or copy.read_bytes() != path.read_bytes():
                differ.append(str(path.relative_to(source)))
    return differ


def pytest_sessionstart(session: pytest.Session) -> None:
    # The suite imports the installed package, and the CLI tests run its installed script: a
    # copy installed (not editable) from an older checkout would be tested in place of this
    # one, and pass or fail for the wrong code.  Checked once, before any test runs.
    if hasattr(session.config, "workerinput"):
        return  # the controller of an xdist run checked already
    installed = Path(icml2026.__file__).parent
    differ = stale_install(installed, REPO / "src" / "icml2026")
    if installed.resolve() != (REPO / "src" / "icml2026").resolve():  # the wheel maps schema/ in
        differ += [f"schema/{name}" for name in stale_install(installed / "schema", REPO / "schema")]
    if differ:
        pytest.exit(f"the installed icml2026 ({Path(icml2026.__file__).parent}) is not this checkout: "
                    f"{len(differ)} file(s) of src/icml2026 differ or are missing there "
                    f"({', '.join(differ[:3])}…); install it again: python3 -m pip install \".[test,lint]\"",
                    returncode=4)
# Copies of the inputs the records are built from (tools/sources/README.md says where each
# comes from): the suite never needs the project's shared/ folder.
SHARED = REPO / "tools" / "sources"


def seed_ids() -> list[str]:
    """Record ids of the 19 seed papers, from the seed facts (in the seed document's order)."""
    import json

    facts = json.loads((SHARED / "data" / "seed-papers.json").read_text(encoding="utf-8"))
    return [f"pmlr-v306-{p['pmlr']['id']}" if p["pmlr"] else f"icml2026-seed-{p['seed_index']:02d}"
            for p in facts["papers"]]


def source_paper_count() -> int:
    """Papers of the volume, counted in the proceedings' own BibTeX (not in our records)."""
    import re

    source = (SHARED / "corpora" / "pmlr-v306-facts.bib").read_text(encoding="utf-8")
    return len(re.findall(r"^@InProceedings\{", source, flags=re.MULTILINE | re.IGNORECASE))


# A slow test's CPU seconds, when its marker gives none (``@pytest.mark.slow(seconds=…)``).
DEFAULT_SLOW_SECONDS = 20  # the unmarked ones (readers, pandoc, BBT, records) take 10–40 s


def slow_cost(item: pytest.Item) -> tuple[float, str]:
    """A slow test's estimated CPU seconds and its group: the ``seconds`` and ``group`` of its
    ``slow`` marker (tests of one group share an expensive session fixture, such as the built
    website of the whole volume, and run on one worker so that it is built once)."""
    marker = item.get_closest_marker("slow")
    assert marker is not None
    return float(marker.kwargs.get("seconds", DEFAULT_SLOW_SECONDS)), str(marker.kwargs.get("group", item.nodeid))


def deal_slow(slow: list[pytest.Item], workers: int) -> list[list[pytest.Item]]:
    """The slow tests dealt out over *workers*: a group at a time, the most expensive first,
    each to the worker with the least estimated seconds so far (longest processing time first);
    within a worker, its most expensive groups first."""
    groups: dict[str, list[pytest.Item]] = {}
    cost: dict[str, float] = {}
    for item in slow:
        seconds, group = slow_cost(item)
        groups.setdefault(group, []).append(item)
        cost[group] = cost.get(group, 0.0) + seconds
    load = [0.0] * workers
    dealt: list[list[str]] = [[] for _ in range(workers)]
    for group in sorted(groups, key=lambda g: -cost[g]):  # stable: ties in collection order
        n = min(range(workers), key=lambda w: (load[w], w))
        dealt[n].append(group)
        load[n] += cost[group]
    return [[item for group in share for item in groups[group]] for share in dealt]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under pytest-xdist (``-n auto --dist worksteal``), the whole-volume tests start first,
    dealt out over the workers by their estimated cost.

    Each takes a minute or more; started last, one of them would keep one worker busy while
    the others sit idle.  ``worksteal`` gives each worker an equal, consecutive share of the
    items at first, and an idle worker then takes items from the end of a busy one's share.
    So the items are laid out as one share a worker, each share beginning with its part of the
    ``slow`` tests (:func:`deal_slow`: the estimated seconds of each worker's part as equal as
    they can be, the tests of one ``group`` together) and filled up with the short ones.
    Stable: within each group the order is the collection order.  Without ``-n`` the order is
    left as it is.
    """
    workers = int(getattr(config, "workerinput", {}).get("workercount", 0))
    if workers < 2:
        return
    slow = [item for item in items if item.get_closest_marker("slow") is not None]
    short = iter([item for item in items if item.get_closest_marker("slow") is None])
    share = -(-len(items) // workers)
    laid_out = []
    for group in deal_slow(slow, workers):
        group += [item for _, item in zip(range(share - len(group)), short)]
        laid_out += group
    laid_out += list(short)
    assert sorted(map(id, laid_out)) == sorted(map(id, items))
    items[:] = laid_out


@pytest.fixture(scope="session")
def volume() -> icml2026.PaperCollection:
    return icml2026.load()


@pytest.fixture(scope="session")
def papers(volume: icml2026.PaperCollection) -> icml2026.PaperCollection:
    return volume.select(seed_ids())


@pytest.fixture(scope="session")
def shared() -> Path:
    return SHARED
