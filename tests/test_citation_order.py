"""The order of a sorted bibliography, against citeproc-js (a black box) and CSL 1.0.2.

CSL 1.0.2 (Sorting) compares sort keys as text of the document's language, names
part by part: accented names among their letters ("Álvarez-López" with the A's,
"Brändle" before "Bruno"), not after "Z" as code points put them.  citeproc-js
(``tests/citeproc_js/format.js``) gives the expected order: the quick test on
accented and tied names, the slow one on the whole volume in APA and Chicago
(author-date), entry for entry.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from citeproc_js_oracle import missing_reason

import icml2026
from icml2026.exporters.citation import format_entries, style_path
from icml2026.exporters.csl import to_csl

HERE = Path(__file__).parent
SCRIPT = HERE / "citeproc_js" / "format.js"


def _skip_reason() -> str | None:
    return missing_reason("order check")


def citeproc_js_order(items: list[dict[str, Any]], style: str) -> list[str]:
    import citeproc

    request = {"style": str(style_path(style)), "locales": citeproc.LOCALES_PATH, "lang": None,
               "items": items, "formats": ["text"], "citations": False}
    # no timeout: the whole volume takes minutes on a loaded machine, and slowness is no failure
    run = subprocess.run(["node", str(SCRIPT)], input=json.dumps(request), capture_output=True, text=True,
                         check=False)
    assert run.returncode == 0, run.stderr
    return [str(key) for key in json.loads(run.stdout)["text"]["ids"]]


def our_order(items: list[dict[str, Any]], style: str) -> list[str]:
    return [key for key, _ in format_entries(items, style=style, output_format="text")]


def work(key: str, authors: list[tuple[str, str]], title: str = "A study", year: int = 2026) -> dict[str, Any]:
    return {"id": key, "type": "paper-conference", "title": title, "container-title": "Proc.",
            "issued": {"date-parts": [[year]]}, "author": [{"family": f, "given": g} for f, g in authors]}


# Names of the volume that code-point order misplaced, and lists that differ after the first
# author: "&" against a name, initials against the next author, a family of two words.
NAMES = [
    work("zweiger", [("Zweiger", "Adam")]),
    work("alvarez", [("Álvarez-López", "Carmen")]),
    work("bruno", [("Bruno", "Luca")]),
    work("brandle", [("Brändle", "Frank")]),
    work("byun", [("Byun", "Ji")]),
    work("burgin", [("Bürgin", "Vera")]),
    work("schwinn", [("Schwinn", "Leo")]),
    work("schafer", [("Schäfer", "Anna")]),
    work("yvernes", [("Yvernes", "Marc")]),
    work("yuksel", [("Yüksel", "Ece")]),
    work("ack-pel", [("Ackermann", "Johannes"), ("Peluchetti", "Stefano")]),
    work("ack-nou", [("Ackermann", "Johannes"), ("Noukhovitch", "Michael"), ("Zhang", "Wei")]),
    work("chen-mf", [("Chen", "Mayee F"), ("Murray", "Tyler")]),
    work("chen-m", [("Chen", "Mengqi"), ("Berrett", "Thomas")]),
    work("gonzalez", [("Gonzalez", "Santiago")]),
    work("gonzalez-ortiz", [("Gonzalez Ortiz", "Jose Javier")]),
    work("es-sebbani", [("Es-Sebbani", "Naïm")]),
    work("escamilla", [("Escamilla", "Jose")]),
    work("dascenzo", [("D'Ascenzo", "Davide")]),
    work("dadkhahi", [("Dadkhahi", "Hamid")]),
    work("ai", [("Ai", "Guoguo")]),
    work("aichmuller", [("Aichmüller", "Michael")]),
    work("twin-b", [("Doe", "Jane")], title="Beta"),
    work("twin-a", [("Doe", "Jane")], title="Alpha"),
]


def test_accented_names_sort_among_their_letters() -> None:
    """CSL 1.0.2: locale-aware collation, not code points (which put every accented capital after Z)."""
    order = our_order(NAMES, "apa")
    assert order.index("alvarez") < order.index("bruno") < order.index("zweiger")
    assert order.index("brandle") < order.index("bruno")
    assert order.index("burgin") < order.index("byun")
    assert order.index("schafer") < order.index("schwinn")
    assert order.index("yuksel") < order.index("yvernes")
    assert order.index("twin-a") < order.index("twin-b")  # tied names: the title decides


def test_code_point_order_misplaced_them() -> None:
    """The defect the order fixes: plain code-point comparison of the rendered names."""
    rendered = {item["id"]: item["author"][0]["family"] for item in NAMES}
    by_code_point = sorted(rendered, key=rendered.__getitem__)
    assert by_code_point[-1] == "alvarez"
    assert by_code_point.index("bruno") < by_code_point.index("brandle")


@pytest.mark.skipif(_skip_reason() is not None, reason=_skip_reason() or "")
@pytest.mark.parametrize("style", ["apa", "chicago-author-date", "harvard-cite-them-right"])
def test_tied_and_accented_names_in_citeproc_js_order(style: str) -> None:
    assert our_order(NAMES, style) == citeproc_js_order(NAMES, style)


@pytest.mark.slow
@pytest.mark.skipif(_skip_reason() is not None, reason=_skip_reason() or "")
@pytest.mark.parametrize("style", ["apa", "chicago-author-date"])
def test_volume_order_is_citeproc_js_order(style: str, volume: icml2026.PaperCollection) -> None:
    items = [to_csl(p, abstract=False) for p in volume.complete]
    theirs = citeproc_js_order(items, style)
    ours = our_order(items, style)
    assert len(ours) == len(theirs) == len(items)
    misplaced = [(n, a, b) for n, (a, b) in enumerate(zip(ours, theirs)) if a != b]
    assert not misplaced, f"{len(misplaced)} of {len(items)} entries elsewhere than in citeproc-js: {misplaced[:5]}"
