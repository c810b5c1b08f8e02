"""Fix 18's table, observed from citeproc-js (a black box): which characters its HTML writer
prints as ``<sup>base</sup>``, and with which base, over every assigned character of the BMP."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import unicodedata
from pathlib import Path

import pytest

from icml2026.exporters import citeproc_fixes
from icml2026.exporters.citation import style_path

HERE = Path(__file__).parent
SCRIPT = HERE / "citeproc_js" / "format.js"
PACKAGE = HERE / "citeproc_js" / "node_modules" / "citeproc"
REASON = ("node is not installed" if shutil.which("node") is None else
          "npm package citeproc is not installed: run `npm ci --prefix tests/citeproc_js`"
          if not PACKAGE.is_dir() else "")


@pytest.mark.skipif(bool(REASON), reason=REASON)
def test_superscript_table_is_what_citeproc_js_prints() -> None:
    import citeproc

    chars = [chr(cp) for cp in range(0xA0, 0x10000) if not 0xD800 <= cp < 0xF900
             and unicodedata.category(chr(cp)) not in ("Cc", "Cs", "Co", "Cn")]
    item = {"id": "x", "type": "article", "title": "|".join(chars), "issued": {"date-parts": [[2026]]}}
    request = {"style": str(style_path("ieee")), "locales": citeproc.LOCALES_PATH, "lang": None,
               "items": [item], "formats": ["html"], "citations": False}
    run = subprocess.run(["node", str(SCRIPT)], input=json.dumps(request), capture_output=True, text=True,
                         check=False)
    assert run.returncode == 0, run.stderr
    pieces = json.loads(run.stdout)["html"]["entries"][0].split("|")
    assert len(pieces) == len(chars)
    observed = {}
    for ch, piece in zip(chars, pieces):
        found = re.search(r"<sup>([^<]*)</sup>", piece)
        if found:
            observed[ch] = found.group(1)
    ours = {ch: citeproc_fixes._sup(re.match(".", ch, re.S))[5:-6]  # type: ignore[arg-type]
            for ch in chars if citeproc_fixes._SUPERSCRIPT.fullmatch(ch)}
    assert len(observed) > 100
    assert ours == observed
