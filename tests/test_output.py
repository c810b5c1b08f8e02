"""``-o`` and standard output: written into what is there, never half a file, one-line errors."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from icml2026.errors import OutputError, Terminated
from icml2026.store.atomic import write_atomic

KEY = "zhao2026benchmarking"


def export(*args: str, **kwargs: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "icml2026", "export", "--format", "bibtex", *args],
                          capture_output=True, text=True, timeout=120, **kwargs)  # type: ignore[call-overload]


def one_error_line(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("icml2026: error: "), result.stderr
    return lines[0]


def test_permissions_of_an_existing_file_are_kept(tmp_path: Path) -> None:
    out = tmp_path / "refs.bib"
    out.write_text("old\n")
    out.chmod(0o600)
    assert export("--keys", KEY, "-o", str(out)).returncode == 0
    assert stat.S_IMODE(out.stat().st_mode) == 0o600 and KEY in out.read_text()


def test_a_new_file_has_the_mode_open_gives_and_the_umask_is_left_alone(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """POSIX open(2): a new file is created 0o666 less the umask.  The umask is never flipped
    to be read (another thread may create a file meanwhile): os.umask is not called at all."""
    def refuse(mask: int) -> int:
        raise AssertionError("os.umask called")

    old = os.umask(0o027)
    try:
        monkeypatch.setattr(os, "umask", refuse)
        write_atomic(tmp_path / "new.bib", ["x\n"])
        write_atomic(tmp_path / "new.bin", b"\x00\n")
        kept = tmp_path / "private.bib"
        kept.write_text("old\n")
        kept.chmod(0o400)
        write_atomic(kept, ["new\n"])
    finally:
        monkeypatch.undo()
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.bib").stat().st_mode) == 0o640
    assert stat.S_IMODE((tmp_path / "new.bin").stat().st_mode) == 0o640
    assert (tmp_path / "new.bin").read_bytes() == b"\x00\n"
    assert stat.S_IMODE(kept.stat().st_mode) == 0o400 and kept.read_text() == "new\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new.bib", "new.bin", "private.bib"]  # no temporary left


def test_a_symlink_target_is_written_and_the_link_kept(tmp_path: Path) -> None:
    target = tmp_path / "real.bib"
    target.write_text("old\n")
    link = tmp_path / "link.bib"
    link.symlink_to(target)
    assert export("--keys", KEY, "-o", str(link)).returncode == 0
    assert link.is_symlink() and KEY in target.read_text()


def test_a_fifo_gets_the_data_and_stays_a_fifo(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.bib"
    os.mkfifo(fifo)
    received: list[str] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_text()))
    reader.start()
    result = export("--keys", KEY, "-o", str(fifo))
    reader.join(timeout=60)
    assert result.returncode == 0 and KEY in received[0]
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe.bib"]


def test_a_device_is_written_into_not_replaced() -> None:
    before = os.stat("/dev/full")
    line = one_error_line(export("--keys", KEY, "-o", "/dev/full"))
    assert "/dev/full" in line and "No space left" in line
    after = os.stat("/dev/full")
    assert stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev


def test_a_missing_folder_is_an_error(tmp_path: Path) -> None:
    line = one_error_line(export("--keys", KEY, "-o", str(tmp_path / "no" / "such" / "refs.bib")))
    assert "does not exist" in line and not (tmp_path / "no").exists()


def test_full_disk_and_closed_stdout_are_one_line_errors() -> None:
    with open("/dev/full", "w") as full:
        line = one_error_line(subprocess.run(
            [sys.executable, "-m", "icml2026", "export", "--keys", KEY], stdout=full, stderr=subprocess.PIPE,
            text=True, timeout=120))
    assert "standard output" in line
    closed = subprocess.run(f"{sys.executable} -m icml2026 export --keys {KEY} >&-", shell=True,
                            capture_output=True, text=True, timeout=120)
    assert "standard output" in one_error_line(closed)


@pytest.mark.parametrize("selection", [("--keys", ","), ("--keys", ""), ("--query", "zzzqqq no such words")])
def test_an_empty_selection_writes_nothing(tmp_path: Path, selection: tuple[str, str]) -> None:
    out = tmp_path / "refs.bib"
    one_error_line(export(*selection, "-o", str(out)))
    assert not out.exists()


def test_sigterm_while_writing_leaves_no_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / "refs.bib"
    target.write_text("previous\n")

    def chunks() -> Iterator[str]:
        yield "half"
        os.kill(os.getpid(), signal.SIGTERM)
        yield " never"

    with pytest.raises(Terminated):
        write_atomic(target, chunks())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["refs.bib"]
    assert target.read_text() == "previous\n"
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL


def test_a_folder_or_symlink_loop_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(OutputError, match="is a folder"):
        write_atomic(tmp_path, ["x"])
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    with pytest.raises(OutputError, match="loop"):
        write_atomic(loop, ["x"])
