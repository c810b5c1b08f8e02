"""Page ranges: one rule (``Pages.as_text``), each format's dash, each read back by its own reader.

A one-page paper is "5" everywhere (never "5-5"); a range is ``--`` in BibTeX, ``-`` in
CSL-JSON and Zotero, SP/EP in RIS, and an en dash for people.  The CSL items are also
formatted by citeproc-js, the reference processor, to show what a reader makes of them.
"""

from __future__ import annotations

import dataclasses
import json

import pytest
import rispy
from bibtex_helpers import pybtex_entries
from test_citeproc_js import _skip_reason, normalise, run_citeproc_js

import icml2026
from icml2026.exporters.citation import format_entries
from icml2026.exporters.csl import to_csl
from icml2026.model import Pages
from icml2026.zotero.mapping import owned_values

CASES = [(Pages(5, 5), "5", "5", "5"), (Pages(1, 10), "1--10", "1-10", "1\u201310")]


@pytest.fixture(scope="module")
def paper(papers: icml2026.PaperCollection) -> icml2026.Paper:
    return next(iter(papers.complete))


@pytest.mark.parametrize("pages,bibtex,csl,people", CASES)
def test_every_format_writes_the_range_with_its_dash(paper, pages, bibtex, csl, people) -> None:
    one = dataclasses.replace(paper, pages=pages)
    assert str(pages) == people
    for fmt in ("bibtex", "biblatex"):
        (entry,) = pybtex_entries(icml2026.export([one], fmt)).values()
        assert entry.fields["pages"] == bibtex
    (item,) = json.loads(icml2026.export([one], "csl-json"))
    assert item["page"] == csl == to_csl(one)["page"]
    assert item["page-first"] == str(pages.first)
    (record,) = rispy.loads(icml2026.export([one], "ris"))
    assert (record["start_page"], record["end_page"]) == (str(pages.first), str(pages.last))
    assert owned_values(one)["pages"] == csl


@pytest.mark.skipif(_skip_reason() is not None, reason=_skip_reason() or "")
@pytest.mark.parametrize("style", ["apa", "ieee"])
def test_citeproc_js_prints_a_single_page_as_one_page(paper, style) -> None:
    item = to_csl(dataclasses.replace(paper, pages=Pages(5, 5)), abstract=False)
    theirs = normalise(run_citeproc_js([item], style)["text"]["entries"][0])
    ours = normalise(dict(format_entries([item], style=style, output_format="text"))[item["id"]])
    assert ours == theirs
    assert "5" in theirs and "5–5" not in theirs and "5-5" not in theirs
