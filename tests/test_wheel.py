"""The built wheel carries the records and the schemas and works without the repository."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from conftest import REPO, source_paper_count


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("hatchling", reason="building the wheel needs hatchling (test extra)")
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                    "--no-build-isolation", "-w", str(out), str(REPO)], check=True)
    (found,) = out.glob("icml2026-*.whl")
    return found


def test_wheel_contents(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "icml2026/py.typed" in names
    assert {"icml2026/schema/paper.schema.json", "icml2026/schema/proceedings.schema.json"} <= names
    assert "icml2026/data/proceedings/pmlr-v306.json" in names
    assert {f"icml2026/data/{n}" for n in ("papers.jsonl", "index.tsv", "lines.tsv", "search-index.txt",
                                              "search-words.tsv", "match-index.json", "published-keys.tsv")} <= names
    assert any(n.endswith("licenses/LICENSE") for n in names)
    assert not any(n.startswith(("tests/", "tools/", "shared/")) for n in names)


def test_unpacked_wheel_loads_and_validates_alone(wheel: Path, tmp_path: Path) -> None:
    zipfile.ZipFile(wheel).extractall(tmp_path / "site")
    code = ("import icml2026, sys; p = icml2026.load(); problems = icml2026.validate();"
            "print(len(p), len(problems), icml2026.__file__)")
    result = subprocess.run([sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {str(tmp_path / 'site')!r}); {code}"],
                            capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    count, problems, location = result.stdout.split()
    assert (count, problems) == (str(source_paper_count()), "0")
    assert location.startswith(str(tmp_path / "site"))


def test_sdist_carries_what_its_own_tests_read(tmp_path: Path) -> None:
    """The sdist's test suite runs from the sdist: docs, the build's sources, CI scripts."""
    import tarfile

    pytest.importorskip("hatchling", reason="building the sdist needs hatchling (test extra)")
    subprocess.run([sys.executable, "-m", "hatchling", "build", "-t", "sdist", "-d", str(tmp_path)],
                   check=True, cwd=REPO, capture_output=True)
    (found,) = tmp_path.glob("icml2026-*.tar.gz")
    names = {n.split("/", 1)[1] for n in tarfile.open(found).getnames() if "/" in n}
    needed = {"docs/cli.md", "LICENSE", "tools/cli_docs.py", "tools/build_records.py",
              "tools/sources/corpora/pmlr-v306-facts.bib", "tools/sources/data/seed-papers.json",
              "tests/conftest.py", "tests/data/csl-data.schema.json", ".ci/run", "schema/paper.schema.json"}
    assert needed <= names, needed - names
