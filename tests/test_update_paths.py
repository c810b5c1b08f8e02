"""The corrections layer's folder is platformdirs' user data folder, computed without importing
platformdirs on Linux (start-up): the two agree under every setting of the variables involved."""

from __future__ import annotations

import sys
from pathlib import Path

import platformdirs
import pytest

from icml2026.update import paths

XDG = [None, "", "  ", "/tmp/xdg", "/tmp/xdg/", "/tmp/xdg ", " /tmp/xdg", "rel/dir", "~/data", "/", "//tmp/x"]
HOME = ["/home/someone", "/home/someone/", "/", "/nonexistent/place"]


@pytest.mark.parametrize("home", HOME)
@pytest.mark.parametrize("xdg", XDG)
def test_data_folder_is_platformdirs_user_data_dir(monkeypatch: pytest.MonkeyPatch, xdg: str | None, home: str) -> None:
    monkeypatch.delenv(paths.ENV_DIR, raising=False)
    monkeypatch.setenv("HOME", home)
    if xdg is None:
        monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    else:
        monkeypatch.setenv("XDG_DATA_HOME", xdg)
    expected = Path(platformdirs.user_data_dir("icml2026", appauthor=False))
    assert paths.data_folder() == expected
    if sys.platform.startswith("linux"):  # the computed path, not platformdirs', answered
        assert paths.xdg_data_folder() == str(expected)


@pytest.mark.parametrize("home", [None, ""])
def test_without_a_home_platformdirs_answers(monkeypatch: pytest.MonkeyPatch, home: str | None) -> None:
    monkeypatch.delenv(paths.ENV_DIR, raising=False)
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    if home is None:
        monkeypatch.delenv("HOME", raising=False)
    else:
        monkeypatch.setenv("HOME", home)
    assert paths.xdg_data_folder() is None
    assert paths.data_folder() == Path(platformdirs.user_data_dir("icml2026", appauthor=False))


def test_the_override_wins(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(paths.ENV_DIR, str(tmp_path))
    monkeypatch.setenv("XDG_DATA_HOME", "/tmp/xdg")
    assert paths.data_folder() == tmp_path
    assert paths.layer_path() == tmp_path / "corrections" / "pmlr-v306.json"
