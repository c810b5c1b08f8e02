"""``icml2026 zotero sync`` in-process and as a subprocess: output, exit codes, the key kept secret."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import pytest
from zotero_helpers import KEY, SEED_IDS, USER_ID, papers, server  # noqa: F401

from icml2026.cli import main
from icml2026.cli._common import ProgressBar

BAD_KEY = "SecretBadKey4242"
SEED = ",".join(SEED_IDS)


@pytest.fixture(autouse=True)
def state_home(tmp_path, monkeypatch):
    """The sync state goes under a temporary $XDG_STATE_HOME, never the real home."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    return tmp_path / "state"


def cli(server, *extra: str) -> list[str]:
    """The sync of the 19 seed papers, selected by --keys, unless *extra* selects otherwise."""
    select = () if any(a in extra for a in ("--keys", "--query", "--author", "--data", "--all")) \
        else ("--keys", SEED)
    return ["zotero", "sync", "--library-id", str(USER_ID), "--library-type", "user",
            "--endpoint", server.endpoint, *select, *extra]


def test_sync_prints_summary_and_resync_is_quiet(server, capsys, monkeypatch):
    monkeypatch.setenv("ZOTERO_API_KEY", KEY)
    assert main(cli(server)) == 0
    out, err = capsys.readouterr()
    # Every packaged seed paper is complete (seed 4 became pmlr-v306-ding26n).
    assert "created 19, updated 0, unchanged 0, skipped 0, failed 0" in out
    assert "\r" not in err            # no progress bar when stderr is not a terminal
    server.reset_counts()
    assert main(cli(server)) == 0
    out, _ = capsys.readouterr()
    # Only the summary; the state makes it one request (a 304).
    assert len(out.splitlines()) == 1
    assert "unchanged 19" in out and "(users/475025, 1 request, 0 item writes" in out
    assert sum(server.requests.values()) == 1


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
                          capture_output=True, text=True, env=env, timeout=60, check=False)
    assert done.returncode == 1
    assert done.stderr.startswith("icml2026: error: listing items: Zotero refused access (403 Invalid key)")
    assert BAD_KEY not in done.stdout + done.stderr


def test_progress_bar_draws_in_place():
    stream = io.StringIO()
    bar = ProgressBar(stream, "zotero sync")
    bar.update(9, 18)
    bar.update(18, 18)
    bar.finish()
    assert stream.getvalue().count("\r") == 2 and stream.getvalue().endswith("] 18/18\n")
    assert "zotero sync [" + "#" * 15 + "-" * 15 + "] 9/18" in stream.getvalue()


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
    assert drawn.count("\r") == 19 and drawn.endswith("] 19/19\n")
    assert "\r" not in capsys.readouterr().out


def test_no_selection_asks_for_all_and_sends_nothing(server, capsys, monkeypatch):
    monkeypatch.setenv("ZOTERO_API_KEY", KEY)
    base = ["zotero", "sync", "--library-id", str(USER_ID), "--library-type", "user",
            "--endpoint", server.endpoint]
    assert main(base) == 2
    err = capsys.readouterr().err
    assert err == ("icml2026: error: choose the papers to sync with --keys, --query or --author "
                   "(or --all for every packaged paper)\n")
    assert main([*base, "--all", "--keys", "he2026inpainting"]) == 2
    assert "--all cannot be combined with --keys" in capsys.readouterr().err
    assert sum(server.requests.values()) == 0


def test_all_syncs_every_record_given(server, papers, capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("ZOTERO_API_KEY", KEY)
    for label in ("he2026inpainting", "li2026praglocker"):
        (tmp_path / f"{label}.json").write_text(json.dumps(papers[label].to_dict()))
    assert main(cli(server, "--all", "--data", str(tmp_path))) == 0
    assert "created 2, updated 0" in capsys.readouterr().out


@pytest.mark.parametrize("value", ["-1", "0", "nan", "inf"])
def test_a_bad_timeout_is_one_line(server, capsys, monkeypatch, value):
    monkeypatch.setenv("ZOTERO_API_KEY", KEY)
    assert main(cli(server, "--timeout", value)) == 2
    err = capsys.readouterr().err
    assert err.startswith("icml2026: error: --timeout must be a positive number") and err.count("\n") == 1
    assert sum(server.requests.values()) == 0


def test_state_is_kept_under_xdg_state_home_unless_disabled(server, capsys, monkeypatch, state_home,
                                                             tmp_path):
    monkeypatch.setenv("ZOTERO_API_KEY", KEY)
    assert main(cli(server, "--state-dir", "")) == 0
    assert not state_home.exists()
    assert main(cli(server)) == 0
    assert len(list((state_home / "icml2026" / "zotero").glob("*.json"))) == 1
    mine = tmp_path / "mine"
    assert main(cli(server, "--state-dir", str(mine))) == 0
    assert len(list(mine.glob("*.json"))) == 1


def test_lost_answers_print_what_may_have_been_written(server, capsys, monkeypatch):
    monkeypatch.setenv("ZOTERO_API_KEY", KEY)
    server.inject("drop", "POST items", times=99)
    waits: list[float] = []
    monkeypatch.setattr("time.sleep", waits.append)      # the back-off between attempts
    assert main(cli(server, "--timeout", "2")) == 1
    out, err = capsys.readouterr()
    assert waits == [0.5, 1.0, 2.0, 4.0]
    assert "may have been written" in out and "nothing was written" not in err
    assert "19 more may have been written" in err and err.count("\n") == 1


def test_a_dry_run_without_a_key_says_first_that_it_needs_one(server, capsys, monkeypatch):
    monkeypatch.delenv("ZOTERO_API_KEY", raising=False)
    assert main(cli(server, "--dry-run")) == 2
    err = capsys.readouterr().err
    assert err.startswith("icml2026: error: no Zotero API key: a dry run reads the library") \
        and "ZOTERO_API_KEY" in err and err.count("\n") == 1
    assert sum(server.requests.values()) == 0


@pytest.mark.parametrize("endpoint", ["http://[::1", "http://127.0.0.1:99999"])
def test_a_malformed_endpoint_is_one_line(capsys, monkeypatch, endpoint):
    monkeypatch.setenv("ZOTERO_API_KEY", KEY)
    argv = ["zotero", "sync", "--library-id", str(USER_ID), "--library-type", "user",
            "--keys", "he2026inpainting", "--endpoint", endpoint]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"icml2026: error: endpoint {endpoint!r} is not a valid URL") and err.count("\n") == 1


def test_waits_the_server_asks_for_are_said_as_they_begin(server, capsys, monkeypatch):
    monkeypatch.setenv("ZOTERO_API_KEY", KEY)
    monkeypatch.setattr("time.sleep", lambda seconds: None)
    server.inject("backoff", "GET items", backoff="30")
    assert main(cli(server)) == 0
    err = capsys.readouterr().err
    assert err.count("Zotero asked clients to pause (Backoff): waiting 30 s") == 1
