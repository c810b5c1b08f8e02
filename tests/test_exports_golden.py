"""Golden outputs: the BibTeX, BibLaTeX, CSL-JSON, RIS, JSON and JSON Lines exports, byte for byte.

These exporters are tuned for speed (benchmarks/bench_exports.py); this test is
what proves that tuning changed no byte.  Two kinds of golden data, both in
``tests/data/golden/``:

* ``seed.*`` — the full text of each export of the 19 seed papers (the ones with
  abstracts, emphasis, math and an incomplete record): small, readable, and a
  failure shows the diff (the indented JSON, the same records as JSON Lines, is
  hashed only).
* ``volume.sha256`` — SHA-256 of each export of the whole packaged volume
  (6,552 records), per block of 500 papers and for the whole text.  The full
  outputs are 5–20 MB each (~70 MB together): too big to commit, so hashes; a
  failure names the first block that differs, and the papers in it.

After an *intended* change of output (or of the packaged data), regenerate and
review the diff of the seed files::

    python tests/test_exports_golden.py --update
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest
from conftest import source_paper_count
from hypothesis import given, settings
from hypothesis import strategies as st

import icml2026
from icml2026.exporters.canonical import pretty
from icml2026.exporters.csl import to_csl
from icml2026.exporters.ris import ris_fields
from icml2026.model import Identifiers, Links, Person, Proceedings

GOLDEN = Path(__file__).resolve().parent / "data" / "golden"
BLOCK = 500

# (name, format, options): every option that changes these exporters' output.
CASES: list[tuple[str, str, dict[str, Any]]] = [
    ("csl.json", "csl-json", {}),
    ("csl-no-abstract.json", "csl-json", {"abstract": False}),
    ("ris", "ris", {}),
    ("no-abstract.ris", "ris", {"abstract": False}),
    ("json", "json", {}),
    ("with-proceedings.json", "json", {"include_proceedings": True}),
    ("jsonl", "jsonl", {}),
    ("with-proceedings.jsonl", "jsonl", {"include_proceedings": True}),
    ("bib", "bibtex", {}),
    ("abstract.bib", "bibtex", {"abstract": True}),
    ("pmlr-keys.bib", "bibtex", {"key_style": "pmlr"}),
    ("biblatex.bib", "biblatex", {}),
    ("abstract.biblatex.bib", "biblatex", {"abstract": True}),
]


def render(papers: Any, fmt: str, options: dict[str, Any]) -> str:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the incomplete record is skipped by citable formats
        return icml2026.export(papers, fmt, **options)


def sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def volume_hashes(volume: icml2026.PaperCollection) -> dict[str, str]:
    """``{"<case> <block|all>": sha256}`` for every case over the whole volume."""
    papers = list(volume)
    hashes = {}
    for name, fmt, options in CASES:
        hashes[f"{name} all"] = sha(render(papers, fmt, options))
        for start in range(0, len(papers), BLOCK):
            hashes[f"{name} {start}"] = sha(render(papers[start:start + BLOCK], fmt, options))
    return hashes


def read_hashes() -> dict[str, str]:
    lines = (GOLDEN / "volume.sha256").read_text(encoding="utf-8").splitlines()
    return {key: digest for digest, _, key in (line.partition("  ") for line in lines if line)}


# Seed texts worth reading in a diff; the indented JSON (the JSON Lines records again) is hashed only.
SEED_CASES = [case for case in CASES if case[1] != "json"]


@pytest.mark.parametrize(("name", "fmt", "options"), SEED_CASES, ids=[c[0] for c in SEED_CASES])
def test_seed_exports_are_unchanged(papers: icml2026.PaperCollection, name: str, fmt: str,
                                    options: dict[str, Any]) -> None:
    expected = (GOLDEN / f"seed.{name}").read_bytes().decode("utf-8")
    assert render(papers, fmt, options) == expected


def test_volume_exports_are_unchanged(volume: icml2026.PaperCollection) -> None:
    assert len(volume) == source_paper_count()
    expected = read_hashes()
    got = volume_hashes(volume)
    assert got.keys() == expected.keys()
    changed = [key for key in expected if got[key] != expected[key]]
    for key in changed:
        name, _, block = key.rpartition(" ")
        if block != "all":
            first = list(volume)[int(block)].id
            pytest.fail(f"{name}: output changed in the block of 500 papers starting at {block} ({first})")
    assert not changed


# -- the fast writers write what the standard library writes ---------------------

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=20)


@settings(max_examples=500, deadline=None)
@given(JSON_VALUES)
def test_pretty_writes_the_bytes_of_json_dumps(value: Any) -> None:
    """Indented JSON without the pure-Python encoder: identical for any JSON value."""
    expected = json.dumps(value, ensure_ascii=False, indent=2)
    assert pretty(value, "") == expected
    assert pretty(value, "  ") == "\n  ".join(expected.split("\n"))


def test_records_are_written_sorted(volume: icml2026.PaperCollection) -> None:
    """The JSON exporters encode ``to_dict()`` as built (no ``sort_keys``): its keys must be
    sorted at every level, as ``sort_keys`` would write them."""
    for paper in [*volume, *odd_papers(volume)]:
        record = paper.to_dict()
        assert json.dumps(record, ensure_ascii=False) == json.dumps(record, ensure_ascii=False, sort_keys=True), \
            paper.id


def odd_papers(papers: icml2026.PaperCollection) -> list[icml2026.Paper]:
    """The seed papers plus variants that take the exporters' less common paths."""
    seed = list(papers.complete)
    base = seed[0]
    bare = Proceedings(id="imported", booktitle="Proceedings of <b>Something</b>", year=2026)
    names = (Person(), Person(literal="The <i>Org</i>"), Person(family="Berg", particle="van der", suffix="Jr."),
             Person(given="Solo"), Person(family="Tab\tNew\nLine", given="A  B"))
    # Each variant is a record of its own (an export holds one record per id).
    return [*seed,
            dataclasses.replace(base, id="odd-1", authors=names, title="*Em* $x^2$ \\$5 <span> & <i>",
                                title_protect=((0, 2),)),
            dataclasses.replace(base, id="odd-2", proceedings=bare, abstract="Two\n\nlines, $\\binom{n}{k}$ and *this*"),
            dataclasses.replace(base, id="odd-3", identifiers=Identifiers(doi="10.1/x"), links=Links())]


def test_fast_writers_match_the_reference_encoders(papers: icml2026.PaperCollection) -> None:
    """Each exporter against the plain construction it replaced: the per-item dict or tag list,
    written by the standard library's encoder / a join (the golden files fix only the data we ship)."""
    odd = odd_papers(papers)
    csl = "[" + ",".join("\n" + "\n".join("  " + line for line in json.dumps(
        to_csl(p), ensure_ascii=False, indent=2).split("\n")) for p in odd) + "\n]\n"
    assert render(odd, "csl-json", {}) == csl
    ris = "\n".join("".join(f"{tag}  - {value}\n" for tag, value in ris_fields(p)) + "ER  - \n" for p in odd)
    assert render(odd, "ris", {}) == ris
    jsonl = "".join(json.dumps(p.to_dict(), ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n"
                    for p in odd)
    assert render(odd, "jsonl", {}) == jsonl
    for p in odd:
        with_proc = {**p.to_dict(), "proceedings": p.proceedings.to_dict()}
        assert json.loads(render([p], "json", {"include_proceedings": True})) == [with_proc]


# -- what we write, we read ---------------------------------------------------------

def test_json_lines_with_line_separators_round_trip(papers: icml2026.PaperCollection, tmp_path: Path) -> None:
    """U+2028 and U+2029 are text in JSON (written raw): only \\n ends a JSON Lines record."""
    first, *others = list(papers.complete)[:3]
    paper = dataclasses.replace(first, title=f"{first.title}\u2028Line\u2029Paragraph")
    assert "\u2028" in render([paper], "jsonl", {})
    path = tmp_path / "mine.jsonl"
    path.write_text(render([paper, *others], "jsonl", {}), encoding="utf-8")
    again = icml2026.load([path])
    assert [p.to_dict() for p in again] == [p.to_dict() for p in (paper, *others)]


def update() -> None:
    """Rewrite the golden files from the exporters as they are now."""
    volume = icml2026.load()
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from conftest import seed_ids

    seed = volume.select(seed_ids())
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for name, fmt, options in SEED_CASES:
        (GOLDEN / f"seed.{name}").write_bytes(render(seed, fmt, options).encode("utf-8"))
    lines = [f"{digest}  {key}\n" for key, digest in volume_hashes(volume).items()]
    (GOLDEN / "volume.sha256").write_text("".join(lines), encoding="utf-8")


if __name__ == "__main__":
    if sys.argv[1:] != ["--update"]:
        sys.exit("usage: python tests/test_exports_golden.py --update")
    update()
