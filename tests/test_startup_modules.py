"""The one-paper commands load a fixed, small set of modules (a structural guard, not a timing).

Each command runs in a fresh interpreter; the modules it loads beyond what ``python -c pass``
loads in the same environment (site hooks, .pth files) must be in its allowed list. A new
import on the start-up path of ``show``, ``export --keys`` or ``list`` fails here until it is
made lazy or added on purpose.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

# What every one of the three commands may load, beyond the interpreter's own start.
COMMON = {
    "argparse", "gettext", "locale", "json", "json.decoder", "json.encoder", "json.scanner", "errno", "gc",
    # The interpreter's basics that -S leaves unloaded, used by re, json, argparse and our modules.
    "collections", "copyreg", "enum", "functools", "genericpath", "importlib", "itertools", "keyword", "operator",
    "os", "os.path", "posixpath", "re", "reprlib", "stat", "types", "warnings",
    "icml2026", "icml2026._record", "icml2026._version", "icml2026.cli", "icml2026.cli._common",
    "icml2026.collection", "icml2026.errors", "icml2026.markup", "icml2026.model", "icml2026.store",
    "icml2026.store.packaged", "icml2026.store.papers", "icml2026.store.records", "icml2026.update",
    "icml2026.update.paths",
}
COMMANDS = {
    "show": (["show", "abas26a"], {"icml2026.cli.cmd_show", "textwrap"}),
    "export --keys": (["export", "--format", "bibtex", "--keys", "abas2026turdpo"],
                      {"icml2026.cli.cmd_export", "icml2026.exporters", "icml2026.exporters.bibtex", "icml2026.keys",
                       "icml2026.bibtex", "icml2026.bibtex.fields", "icml2026.bibtex.latex_encode",
                       "icml2026.bibtex.writer", "icml2026.pmlr", "icml2026.text", "unicodedata", "collections.abc"}),
    "list": (["list", "--query", "graph neural"], {"icml2026.cli.cmd_list", "icml2026.search", "icml2026.text",
                                                   "unicodedata", "bisect", "collections.abc"}),
}
# Never on these paths, whatever the allowed lists say: what the issue measured as the cost.
# dataclasses (with inspect, ast, dis, tokenize), typing, platformdirs (tempfile, shutil,
# random, bz2, lzma), argparse's shutil, threading, contextlib and pathlib (with urllib.parse and
# ipaddress) were each a share of it.
NEVER = {"importlib.resources", "zipfile", "icml2026.update.layer", "jsonschema", "jsonschema_rs", "bibtexparser",
         "citeproc", "pyzotero", "httpx2", "pylatexenc", "dataclasses", "inspect", "typing", "platformdirs",
         "tempfile", "shutil", "random", "bz2", "lzma", "threading", "contextlib", "array", "copy", "pathlib",
         "urllib.parse", "ipaddress", "fnmatch"}


def loaded(code: str) -> set[str]:
    """Modules loaded by *code* in an interpreter without site hooks (-S: no .pth file of this
    environment adds its imports), seeing only icml2026 and platformdirs (so that an import of
    platformdirs at start-up shows here as a module, not as a failure)."""
    import platformdirs

    import icml2026

    path = os.pathsep.join(str(Path(m.__file__ or "").resolve().parents[1]) for m in (icml2026, platformdirs))
    result = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True, check=True,
                            env={**os.environ, "PYTHONPATH": path})
    return set(result.stderr.split())


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_command_loads_only_its_allowed_modules(command: str) -> None:
    argv, own = COMMANDS[command]
    before = loaded("import sys; print(*sys.modules, file=sys.stderr)")
    code = ("import io, sys\nfrom icml2026.cli import main\n"
            f"out, sys.stdout = sys.stdout, io.StringIO()\nassert main({argv!r}) == 0\n"
            "assert sys.stdout.getvalue()\nsys.stdout = out\nprint(*sys.modules, file=sys.stderr)")
    # Private modules (_json, _io …) come with their public ones.
    extra = {m for m in loaded(code) - before if not m.split(".")[-1].startswith("_") or m.startswith("icml2026")}
    assert extra <= COMMON | own, sorted(extra - COMMON - own)
    assert not extra & NEVER, sorted(extra & NEVER)
    assert not (COMMON | own) & NEVER
