"""Progress of long citation jobs: a callback for the API, a line on a terminal for the CLI.

``cite(…, progress=f)`` calls ``f(done, total)``; ``icml2026 export --format citation``
draws ``formatting citations: done/total`` on standard error only when it is a terminal
(a pseudo-terminal here) and the document is long, and prints nothing of it when standard
error is piped.
"""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

import icml2026
from icml2026.exporters.citation import PROGRESS_MIN_ENTRIES


@pytest.fixture(scope="module")
def complete(volume: icml2026.PaperCollection) -> list[icml2026.Paper]:
    return list(volume.complete)


def test_cite_calls_progress_with_done_and_total(complete: list[icml2026.Paper]) -> None:
    calls: list[tuple[int, int]] = []
    papers = complete[:40]
    text = icml2026.cite(papers, style="ieee", progress=lambda done, total: calls.append((done, total)))
    assert calls[0] == (0, 40) and calls[-1] == (40, 40)
    assert [done for done, _ in calls] == list(range(41))
    assert {total for _, total in calls} == {40}
    assert text == icml2026.cite(papers, style="ieee")  # the output does not depend on it


def test_progress_counts_in_text_citations_too(complete: list[icml2026.Paper]) -> None:
    calls: list[tuple[int, int]] = []
    icml2026.cite(complete[:7], style="apa", in_text=True, progress=lambda d, t: calls.append((d, t)))
    assert calls[-1] == (7, 7) and len(calls) == 8


def test_progress_must_be_callable(complete: list[icml2026.Paper]) -> None:
    with pytest.raises(TypeError, match="progress"):
        icml2026.cite(complete[:2], progress=42)


def test_other_formats_refuse_a_progress_callback(complete: list[icml2026.Paper]) -> None:
    with pytest.raises(icml2026.UsageError, match="progress"):
        icml2026.export(complete[:2], "bibtex", progress=print)


def _export(keys: list[str | None], tmp_path: Path, *, terminal: bool) -> tuple[int, str]:
    """Run ``icml2026 export --format citation --style ieee`` on *keys*; (exit code, its stderr)."""
    command = [sys.executable, "-m", "icml2026", "export", "--format", "citation", "--style", "ieee",
               "--keys", ",".join(k for k in keys if k), "-o", str(tmp_path / "refs.txt")]
    if not terminal:
        run = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True, check=False)
        return run.returncode, run.stderr.decode("utf-8")
    master, slave = pty.openpty()
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=slave)
    os.close(slave)
    chunks = []
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(master)
    return process.wait(), b"".join(chunks).decode("utf-8")


def test_cli_draws_a_progress_line_on_a_terminal(complete: list[icml2026.Paper], tmp_path: Path) -> None:
    keys = [p.citation_key for p in complete[:PROGRESS_MIN_ENTRIES + 10]]
    code, stderr = _export(keys, tmp_path, terminal=True)
    assert code == 0, stderr
    total = len(keys)
    assert f"\rformatting citations: {total}/{total}" in stderr
    assert stderr.rstrip("\r\n").endswith(f"{total}/{total}")  # ended, then the line break
    assert (tmp_path / "refs.txt").read_text(encoding="utf-8").count("\n") == total


def test_cli_is_quiet_when_stderr_is_piped(complete: list[icml2026.Paper], tmp_path: Path) -> None:
    keys = [p.citation_key for p in complete[:PROGRESS_MIN_ENTRIES + 10]]
    code, stderr = _export(keys, tmp_path, terminal=False)
    assert code == 0, stderr
    assert "formatting citations" not in stderr
    assert stderr == ""


def test_cli_short_document_has_no_progress_line(complete: list[icml2026.Paper], tmp_path: Path) -> None:
    code, stderr = _export([p.citation_key for p in complete[:5]], tmp_path, terminal=True)
    assert code == 0, stderr
    assert "formatting citations" not in stderr
