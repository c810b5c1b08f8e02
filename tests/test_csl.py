"""CSL-JSON export: schema validity, mapping, rich text."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from conftest import seed_ids
from hypothesis import given, settings
from hypothesis import strategies as st

import icml2026
from icml2026 import markup
from icml2026.exporters.citeproc_fixes import MARKER_RANGE, M, csl_markup_to_markers
from icml2026.exporters.csl import WORD_JOINER, _marked_rich_text, _plain_rich_text, rich_text, to_csl, whole_words
from icml2026.exporters.plain import plain_text, unicode_math
from icml2026.model import Person, Proceedings

SCHEMA = json.loads((Path(__file__).parent / "data" / "csl-data.schema.json").read_text(encoding="utf-8"))
VALIDATOR = jsonschema.Draft7Validator(SCHEMA)

# Every paper of the seed document is a complete record of the volume (seed facts).
SEED_PAPERS = len(seed_ids())


def schema_errors(items: list[dict]) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in VALIDATOR.iter_errors(items)]


@pytest.fixture(scope="module")
def complete(papers: icml2026.PaperCollection) -> list[icml2026.Paper]:
    found = list(papers.complete)
    assert len(found) == SEED_PAPERS
    return found


def test_schema_itself_is_valid() -> None:
    jsonschema.Draft7Validator.check_schema(SCHEMA)


def test_every_complete_record_validates(complete: list[icml2026.Paper]) -> None:
    items = json.loads(icml2026.export(complete, "csl-json"))
    assert len(items) == SEED_PAPERS
    assert schema_errors(items) == []


def test_schema_rejects_what_we_must_not_write(complete: list[icml2026.Paper]) -> None:
    """The validator is strict where it matters: our check is not vacuous."""
    item = to_csl(complete[0])
    assert schema_errors([{**item, "pdf": "x"}])  # extra top-level key
    assert schema_errors([{**item, "issued": "2026"}])  # bare date string
    assert schema_errors([{**item, "author": [{"family": "X", "ORCID": "0"}]}])


def test_cli_writes_valid_csl_json(complete: list[icml2026.Paper], tmp_path: Path) -> None:
    out = tmp_path / "refs.json"
    keys = ",".join(p.citation_key or p.id for p in complete)
    subprocess.run([sys.executable, "-m", "icml2026", "export", "--format", "csl-json", "--keys", keys,
                    "-o", str(out)], check=True, capture_output=True)
    items = json.loads(out.read_text(encoding="utf-8"))
    assert len(items) == SEED_PAPERS and schema_errors(items) == []


def test_mapping_from_the_record(complete: list[icml2026.Paper]) -> None:
    for paper in complete:
        item = to_csl(paper)
        proc = paper.proceedings
        assert item["type"] == "paper-conference"
        assert item["id"] == item["citation-key"] == paper.citation_key
        assert item["container-title"] == proc.booktitle
        assert item["collection-title"] == proc.series
        assert item["volume"] == str(proc.volume)
        assert item["publisher"] == proc.publisher
        assert item["event-title"] == proc.event_title
        assert item["event-place"] == proc.address
        assert item["page"] == f"{paper.pages.first}-{paper.pages.last}"
        assert item["issued"] == {"date-parts": [[proc.year]]}
        assert item["URL"] == paper.links.proceedings
        assert [a.get("family") for a in item["author"]] == [a.family for a in paper.authors]
        assert [e["family"] for e in item["editor"]] == [e.family for e in proc.editors]
        assert item["custom"]["pmlr_id"] == paper.identifiers.pmlr
        assert ("DOI" in item) == (paper.identifiers.doi is not None)


def test_abstract_is_included_by_default_and_can_be_left_out(complete: list[icml2026.Paper]) -> None:
    paper = next(p for p in complete if p.abstract)
    assert "abstract" in to_csl(paper)
    assert "abstract" not in to_csl(paper, abstract=False)
    assert "abstract" not in json.loads(icml2026.export([paper], "csl-json", abstract=False))[0]


def test_imported_proceedings_with_only_the_required_fields(complete: list[icml2026.Paper]) -> None:
    bare = Proceedings(id="imported", booktitle="Proceedings of Something", year=2026)
    paper = dataclasses.replace(complete[0], proceedings=bare)
    item = to_csl(paper)
    assert schema_errors([item]) == []
    for absent in ("collection-title", "volume", "publisher", "event-title", "event-place", "event-date",
                   "editor", "ISSN"):
        assert absent not in item


def test_names() -> None:
    from icml2026.exporters.csl import csl_name

    assert csl_name(Person(family="Berg", given="Anna", particle="van der", suffix="Jr.")) == {
        "family": "Berg", "given": "Anna", "non-dropping-particle": "van der", "suffix": "Jr."}
    assert csl_name(Person(literal="OpenAI Team", family="ignored")) == {"literal": "OpenAI Team"}


def test_output_is_deterministic(complete: list[icml2026.Paper]) -> None:
    assert icml2026.export(complete, "csl-json") == icml2026.export(list(reversed(complete))[::-1], "csl-json")


# -- rich text, checked by an independent HTML parser ------------------------------

def read_csl(text: str) -> list[tuple[str, bool, bool]]:
    """(char, italic, nocase) for every character of a CSL rich-text string.

    Read with the tokenizer that feeds citeproc-py (``citeproc_fixes``), which
    knows only CSL's tags, as citeproc-js does — a separate implementation
    from the writer under test.  A general HTML parser would not do: for it
    ``<Z`` starts a tag, for CSL it is text.
    """
    marked = csl_markup_to_markers(text).replace(WORD_JOINER, "")
    chars, italic, nocase = [], 0, 0
    for ch in marked:
        if ch in M.ITALIC:
            italic += 1 if ch == M.ITALIC[0] else -1
        elif ch in M.NOCASE:
            nocase += 1 if ch == M.NOCASE[0] else -1
        else:
            assert not MARKER_RANGE.match(ch), f"unexpected markup {ch!r} in {text!r}"
            chars.append((ch, italic > 0, nocase > 0))
    assert italic == nocase == 0, "unbalanced tags"
    return chars


def expected_chars(source: str) -> list[tuple[str, bool]]:
    out = []
    for seg in markup.parse(source):
        shown = unicode_math(seg.value) if seg.kind == "math" else seg.value
        out += [(c, seg.emph) for c in shown]
    return out


TEXT = st.text(alphabet="aZ <>&;/*$\\%ispn=\"", min_size=1, max_size=12)
MATH = st.text(alphabet="x^2+\\ {}<&", min_size=1, max_size=6).filter(lambda v: not v.endswith("\\"))
SEGMENTS = st.lists(
    st.one_of(st.builds(markup.Segment, st.just("text"), TEXT, st.booleans()),
              st.builds(markup.Segment, st.just("math"), MATH, st.booleans())),
    min_size=1, max_size=6)


@settings(max_examples=300, deadline=None)
@given(SEGMENTS)
def test_rich_text_keeps_text_and_emphasis(segments: list[markup.Segment]) -> None:
    source = markup.from_segments(segments)
    chars = read_csl(rich_text(source))
    assert [(c, i) for c, i, _ in chars] == expected_chars(source)


@settings(max_examples=200, deadline=None)
@given(SEGMENTS)
def test_math_is_never_recased(segments: list[markup.Segment]) -> None:
    source = markup.from_segments(segments)
    chars = read_csl(rich_text(source))
    position = 0
    for seg in markup.parse(source):
        width = len(unicode_math(seg.value)) if seg.kind == "math" else len(seg.value)
        if seg.kind == "math":
            assert all(nocase for _, _, nocase in chars[position:position + width])
        position += width


def test_protected_ranges_cover_whole_words(complete: list[icml2026.Paper]) -> None:
    for paper in complete:
        chars = read_csl(rich_text(paper.title, paper.title_protect))
        assert "".join(c for c, _, _ in chars) == paper.title
        protected = {i for start, end in whole_words(paper.title, paper.title_protect) for i in range(start, end)}
        assert {i for i, (_, _, nocase) in enumerate(chars) if nocase} == protected
        for start, end in paper.title_protect:
            assert all(chars[i][2] for i in range(start, end))


def test_protection_widens_to_the_word_only() -> None:
    title = "Online Estimation via Monte Carlo: GNNs and Human–AI"
    at = title.index
    ranges = [(at("M"), at("M") + 1), (at("C"), at("C") + 1), (at("GNN"), at("GNN") + 3), (at("AI"), at("AI") + 2)]
    assert [title[a:b] for a, b in whole_words(title, ranges)] == ["Monte", "Carlo", "GNNs", "AI"]


def test_literal_markup_in_data_stays_text() -> None:
    title = "Why <i> and </span> & <script>alert(1)</script> stay text"
    chars = read_csl(rich_text(markup.escape(title)))
    assert "".join(c for c, _, _ in chars) == title
    assert not any(italic or nocase for _, italic, nocase in chars)
    # `&` stays a bare ampersand: CSL-JSON has no entity decoding (citeproc-js prints "&amp;" verbatim)
    assert "& <script>" in rich_text(markup.escape(title))


PLAIN = st.text(alphabet="aZ9 -é’.:&>", min_size=0, max_size=30)
RANGES = st.lists(st.tuples(st.integers(0, 32), st.integers(0, 32)), max_size=5)


@settings(max_examples=500, deadline=None)
@given(PLAIN, RANGES)
def test_plain_titles_take_the_fast_path_to_the_same_text(title: str, ranges: list[tuple[int, int]]) -> None:
    """Titles without markup are sliced, not walked per character: same output, any ranges."""
    assert _plain_rich_text(title, ranges) == _marked_rich_text(title, ranges)


def test_abstract_is_plain_text(complete: list[icml2026.Paper]) -> None:
    """CSL's `abstract` is not rich text: no <i>/<span> and no `$…$` where Unicode has the math."""
    abstracts = [to_csl(p)["abstract"] for p in complete if p.abstract]
    text = "\n".join(abstracts)
    assert "NC→LP" in text and "O(|μ − α|²)" in text and "OpenDeception" in text
    assert "<span" not in text and "<i>" not in text and "$\\to$" not in text
    for paper in complete:
        if paper.abstract:
            assert to_csl(paper)["abstract"] == plain_text(paper.abstract)


def test_title_keeps_rich_text(complete: list[icml2026.Paper]) -> None:
    """…while the title stays CSL rich text (nocase spans), which processors and Zotero read."""
    titles = [to_csl(p)["title"] for p in complete]
    assert any('<span class="nocase">' in t for t in titles)
