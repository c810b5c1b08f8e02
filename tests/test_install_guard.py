"""The suite's guard against testing a stale install (``conftest.stale_install``)."""

from __future__ import annotations

from pathlib import Path

from conftest import REPO, stale_install

import icml2026


def _tree(root: Path, files: dict[str, bytes]) -> Path:
    for name, data in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data)
    return root


def test_a_copy_with_other_or_missing_files_is_stale(tmp_path: Path) -> None:
    source = _tree(tmp_path / "src", {"a.py": b"x = 1\n", "data/papers.jsonl": b"{}\n", "b.py": b""})
    installed = _tree(tmp_path / "site", {"a.py": b"x = 2\n", "data/papers.jsonl": b"{}\n",
                                         "schema/paper.json": b"{}"})
    assert stale_install(installed, source) == ["a.py", "b.py"]
    (installed / "a.py").write_bytes(b"x = 1\n")
    (installed / "b.py").write_bytes(b"")
    assert stale_install(installed, source) == []  # files only the install has do not count


def test_compiled_files_are_not_compared(tmp_path: Path) -> None:
    source = _tree(tmp_path / "src", {"a.py": b"", "__pycache__/a.cpython-311.pyc": b"1"})
    installed = _tree(tmp_path / "site", {"a.py": b""})
    assert stale_install(installed, source) == []


def test_this_run_tests_this_checkout() -> None:
    assert stale_install(Path(icml2026.__file__).parent, REPO / "src" / "icml2026") == []
