"""``icml2026 zotero sync`` in-process and as a subprocess: output, exit codes, the key kept secret."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys

from icml2026.cli import main
from icml2026.cli.cmd_zotero import ProgressBar
from zotero_helpers import KEY, USER_ID, server  # noqa: F401

BAD_KEY = "SecretBadKey4242"


def cli(server, *extra: str) -> list[str]:
    return ["zotero", "sync", "--library-id", str(USER_ID), "--library-type", "user",
            "--endpoint", server.endpoint, *extra]


def test_sync_prints_summary_and_resync_is_quiet(server, capsys, monkeypatch):
    monkeypatch.setenv("ZOTERO_API_KEY", KEY)
    assert main(cli(server)) == 0
    out, err = capsys.readouterr()
    assert "created 18, updated 0, unchanged 0, skipped 1, failed 0" in out
    assert "\r" not in err            # no progress bar when stderr is not a terminal
    assert main(cli(server)) == 0
    out, _ = capsys.readouterr()
    assert "created" not in out.splitlines()[1] and "unchanged 18" in out


def test_dry_run_lists_the_plan_per_paper(server, capsys, monkeypatch):
    monkeypatch.setenv("ZOTERO_API_KEY", KEY)
    assert main(cli(server, "--dry-run", "--keys", "he2026inpainting,li2026praglocker")) == 0
    out, _ = capsys.readouterr()
    lines = out.splitlines()
    assert lines[0] == "collection 'ICML 2026': to be created"
    assert lines[1].startswith("create ") and "he2026inpainting" in lines[1]
    assert "dry run, would have: create 2" in lines[-1]
    assert server.count("POST items") == 0


def test_key_from_file_and_failures_give_nonzero_exit(server, papers, capsys, monkeypatch, tmp_path):
    monkeypatch.delenv("ZOTERO_API_KEY", raising=False)
    assert main(cli(server)) == 2
    assert "no Zotero API key" in capsys.readouterr().err
    key_file = tmp_path / "key"
    key_file.write_text(KEY + "\n")
    record = papers["he2026inpainting"].to_dict()
    # Valid for our schema (19,000 characters) but over Zotero's 65,535 bytes per field in UTF-8.
    record["abstract"] = "\U0001F600" * 19000
    (tmp_path / "long.json").write_text(json.dumps(record))
    assert main(cli(server, "--api-key-file", str(key_file), "--data", str(tmp_path / "long.json"))) == 1
    out, err = capsys.readouterr()
    assert "failed 1" in out and "413" in out and "1 papers failed" in err


def test_bad_key_is_one_line_and_never_shown(server, capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("ZOTERO_API_KEY", BAD_KEY)
    assert main(cli(server)) == 1
    out, err = capsys.readouterr()
    assert err.count("\n") == 1 and "403 Invalid key" in err and "Traceback" not in err
    assert BAD_KEY not in out + err
    key_file = tmp_path / "key"
    key_file.write_text(BAD_KEY)
    monkeypatch.delenv("ZOTERO_API_KEY")
    env = {**os.environ, "NO_PROXY": "127.0.0.1"}
    done = subprocess.run([sys.executable, "-m", "icml2026", *cli(server, "--api-key-file", str(key_file))],
                          capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 1
    assert done.stderr.startswith("icml2026: error: listing items: Zotero refused access (403 Invalid key)")
    assert BAD_KEY not in done.stdout + done.stderr


def test_progress_bar_draws_in_place():
    stream = io.StringIO()
    bar = ProgressBar(stream)
    bar.update(9, 18)
    bar.update(18, 18)
    bar.finish()
    assert stream.getvalue().count("\r") == 2 and stream.getvalue().endswith("] 18/18\n")
    assert "[" + "#" * 15 + "-" * 15 + "] 9/18" in stream.getvalue()


def test_zotero_without_action_shows_its_help(capsys):
    assert main(["zotero"]) == 2
    assert "sync" in capsys.readouterr().out


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_only_on_a_terminal(server, capsys, monkeypatch):
    monkeypatch.setenv("ZOTERO_API_KEY", KEY)
    terminal = _Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    assert main(cli(server)) == 0
    drawn = terminal.getvalue()
    assert drawn.count("\r") == 18 and drawn.endswith("] 18/18\n")
    assert "\r" not in capsys.readouterr().out
