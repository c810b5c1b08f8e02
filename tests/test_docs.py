"""docs/cli.md is the CLI's current --help output."""

from __future__ import annotations

import subprocess
import sys

import pytest
from conftest import REPO


@pytest.mark.skipif(sys.version_info[:2] != (3, 11), reason="argparse's help layout differs between "
                    "Python versions; docs/cli.md is generated with Python 3.11, as CI runs")
def test_cli_reference_is_current() -> None:
    result = subprocess.run([sys.executable, str(REPO / "tools" / "cli_docs.py"), "--check"],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
