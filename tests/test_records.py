"""The packaged records: the whole volume, the seed papers' facts, ids, keys, provenance."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO

import icml2026
from icml2026 import pmlr
from icml2026.keys import assign_keys
from icml2026.markup import to_plain
from icml2026.store.records import data_dir
from icml2026.text import fold

# The keys of the first release (0.1.0): published, so they never change.
FIRST_RELEASE_KEYS = {
    "akula2026same": "pmlr-v306-akula26a", "canturk2026can": "pmlr-v306-canturk26a",
    "cassano2026saemnesia": "pmlr-v306-cassano26a", "chagneux2026efficient": "pmlr-v306-chagneux26a",
    "fei2026learning": "pmlr-v306-fei26a", "feng2026enhancing": "pmlr-v306-feng26ac",
    "gu2026csg": "pmlr-v306-gu26b", "he2026inpainting": "pmlr-v306-he26au",
    "huang2026optimal": "pmlr-v306-huang26bz", "jones2026when": "pmlr-v306-jones26b",
    "lang2026aoept": "pmlr-v306-lang26a", "li2026praglocker": "pmlr-v306-li26d",
    "liu2026causal": "pmlr-v306-liu26cj", "nguessan2026discovering": "pmlr-v306-n-guessan26a",
    "witter2026exactly": "pmlr-v306-witter26a", "wu2026opendeception": "pmlr-v306-wu26p",
    "yang2026simple": "pmlr-v306-yang26cl", "zhao2026benchmarking": "pmlr-v306-zhao26ac",
}


def load_tool():  # tools/ is not a package: import the generator by path
    import importlib.util

    spec = importlib.util.spec_from_file_location("build_records", REPO / "tools" / "build_records.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_shipped_files_equal_generated_files(shared: Path) -> None:
    files = load_tool().build(shared)  # the whole volume through the importer: ~20 s
    stale = [str(path.relative_to(REPO)) for path, text in files.items()
             if path.read_text(encoding="utf-8") != text]
    assert not stale, "run python tools/build_records.py"


def test_the_whole_volume_every_paper_complete(volume: icml2026.PaperCollection) -> None:
    assert len(volume) == 6552
    assert len(volume.complete) == 6552 and not volume.incomplete
    pages = sorted((p.pages.first, p.pages.last) for p in volume.complete)
    assert pages[0][0] == 1 and pages[-1][1] == 173037
    assert all(a[1] + 1 == b[0] for a, b in zip(pages, pages[1:]))  # no gap, no overlap


def test_seed_paper_4_is_ding26n_and_its_old_id_resolves(volume: icml2026.PaperCollection, shared: Path) -> None:
    seed = [line for line in (shared / "seed" / "000_476b98bb6ff612ae.txt").read_text(encoding="utf-8")
            .split("\n")[1:] if line.strip()]
    paper = volume["icml2026-seed-04"]
    assert paper.id == "pmlr-v306-ding26n" and paper.method_name == "GMPSSG"
    assert paper.abstract == seed[3] and "we develop GMPSSG" in seed[3]
    assert (paper.pages.first, paper.pages.last) == (25114, 25129)  # the volume file's ding26n
    assert paper.identifiers.openreview == "PgcMxkhzoG"
    result = subprocess.run([sys.executable, "-m", "icml2026", "show", "icml2026-seed-04"],
                            capture_output=True, text=True)
    assert result.returncode == 0 and "pmlr-v306-ding26n" in result.stdout


def _folded(text: str | None) -> str | None:
    return " ".join(re.findall(r"\w+", fold(to_plain(text)))) if text else None


def test_no_paper_appears_twice(volume: icml2026.PaperCollection) -> None:
    papers = list(volume)  # every record, complete or not
    for name, value in [("openreview", lambda p: p.identifiers.openreview),
                        ("pmlr", lambda p: p.identifiers.pmlr),
                        ("title", lambda p: _folded(p.title))]:
        values = [value(p) for p in papers]
        assert None not in values and len(set(values)) == len(values), name
    for name, value in [("abstract", lambda p: _folded(p.abstract)),
                        ("method name", lambda p: p.method_name and p.method_name.casefold())]:
        values = [v for v in map(value, papers) if v]
        assert len(set(values)) == len(values), name
    # A seed abstract names its method: no other record may carry that method name in its title.
    methods = {p.method_name: p.id for p in papers if p.method_name}
    for paper in papers:
        words = set(re.findall(r"[\w-]+", to_plain(paper.title)))
        assert all(methods[m] == paper.id for m in words & methods.keys()), paper.id
    # The seed papers are the curated records (seed abstracts), not a second copy.
    assert sum(p.abstract is not None for p in volume) == 19


def test_published_keys_never_change(volume: icml2026.PaperCollection) -> None:
    for key, record in FIRST_RELEASE_KEYS.items():
        assert volume[key].id == record and volume[key].citation_key == key
    rows = [line.split("\t") for line in (data_dir() / "published-keys.tsv").read_text(encoding="utf-8").splitlines()]
    registry = {row[0]: row[1] for row in rows if len(row) == 2}
    aliases = {row[0]: row[1] for row in rows if row[2:] == ["alias"]}
    assert len(registry) + len(aliases) == len(rows)
    assert FIRST_RELEASE_KEYS.items() <= {**registry, **aliases}.items()
    shipped = {p.citation_key: p.id for p in volume.complete}
    assert shipped == registry  # every key is registered, and no registered key is dropped
    for key, record in aliases.items():  # a published key that became an alias still resolves
        assert volume[key].id == record and key in volume[key].alias_keys


# Published before 0.2 with letters dropped; PMLR's posts name these papers isik26a, kozlowski26a …
# (mlresearch/v306, _posts/2026-09-29-<id>.md), spelling the names in full.
LETTER_DROPPING_KEYS = {
    "isk2026names": ("isik26a", "isik2026names"),
    "kozowski2026unifying": ("kozlowski26a", "kozlowski2026unifying"),
    "agrman2026iterative": ("agirman26a", "agirman2026iterative"),
    "altntas2026toksuite": ("altintas26a", "altintas2026toksuite"),
    "grnlund2026exponential": ("gronlund26a", "gronlund2026exponential"),
    "hgsgaard2026interplay": ("hogsgaard26a", "hogsgaard2026interplay"),
    "hgsgaard2026optimal": ("hogsgaard26b", "hogsgaard2026optimal"),
    "snbjarnarson2026causally": ("snaebjarnarson26a", "snaebjarnarson2026causally"),
    "supinski2026redhdphmm": ("slupinski26a", "slupinski2026redhdphmm"),
}


def test_keys_spell_names_as_pmlr_ids_do(volume: icml2026.PaperCollection) -> None:
    for old, (pmlr_id, key) in LETTER_DROPPING_KEYS.items():
        paper = volume[old]
        assert (paper.identifiers.pmlr, paper.citation_key) == (pmlr_id, key) and old in paper.alias_keys
    for paper in volume.complete:  # no key drops a letter of the first author's family name
        stem = re.sub(r"26[a-z]+$", "", paper.identifiers.pmlr).replace("-", "")
        assert paper.citation_key.startswith(f"{stem}2026"), (paper.citation_key, paper.identifiers.pmlr)
    for key in ("isik2026names", "isk2026names"):
        result = subprocess.run([sys.executable, "-m", "icml2026", "show", key], capture_output=True, text=True)
        assert result.returncode == 0 and "pmlr-v306-isik26a" in result.stdout, key


def test_key_collision_rule_ignores_creation_order() -> None:
    bases = {f"r{n}": ("wang2026learning", (100 - n, f"r{n}")) for n in range(30)}
    bases["x"] = ("wang2026learninga", (5, "x"))  # another group's base is never taken
    expected = assign_keys(bases, {"wang2026learning": "r7"})
    for seed in range(5):
        items = list(bases.items())
        random.Random(seed).shuffle(items)
        assert assign_keys(dict(items), {"wang2026learning": "r7"}) == expected
    assert expected["r7"] == "wang2026learning" and expected["x"] == "wang2026learninga"
    assert expected["r29"] == "wang2026learningb"  # lowest first page first; "a" is x's base
    assert len(set(expected.values())) == len(expected)


def test_pmlr_id_rule_reproduces_the_seed_ids(volume: icml2026.PaperCollection, shared: Path) -> None:
    facts = json.loads((shared / "data" / "seed-papers.json").read_text(encoding="utf-8"))
    in_file_order = sorted(volume.complete, key=lambda p: p.pages.first)
    families = [p.authors[0].family or p.authors[0].literal or "" for p in in_file_order]
    computed = dict(zip((p.identifiers.openreview for p in in_file_order), pmlr.assign_ids(families, 2026)))
    seed_ids = {f["pmlr"]["openreview"]: f["pmlr"]["id"] for f in facts["papers"] if f["pmlr"]}
    assert len(seed_ids) == 19
    assert {k: computed[k] for k in seed_ids} == seed_ids
    assert all(p.identifiers.pmlr == computed[p.identifiers.openreview] for p in in_file_order)


@pytest.mark.parametrize(("text", "expected"), [
    # Rails' documented examples (ActiveSupport::Inflector#parameterize and #transliterate).
    ("Donald E. Knuth", "donald-e-knuth"), ("^très|Jolie-- ", "tres-jolie"), ("^très|Jolie__ ", "tres-jolie__"),
    ("Ærøskøbing", "aeroskobing"),
])
def test_parameterize_as_rails_documents(text: str, expected: str) -> None:
    assert pmlr.parameterize(text) == expected


@pytest.mark.parametrize(("family", "expected"), [
    ("N'Guessan", "n-guessan26a"), ("Cantürk", "canturk26a"), ("Straße", "strasse26a"),
    ("Łącki", "lacki26a"), ("Alipour Talemi", "alipour-talemi26a"), ("王", "26a"), ("N.D.", "n-d-26a"),
])
def test_parameterize_like_rails(family: str, expected: str) -> None:
    assert next(pmlr.assign_ids([family], 2026)) == expected


def test_pmlr_suffixes_run_on_past_z() -> None:
    ids = list(pmlr.assign_ids(["Li"] * 30, 2026))
    assert ids[:2] == ["li26a", "li26b"] and ids[25:28] == ["li26z", "li26aa", "li26ab"]


def test_every_pmlr_id_resolves_with_show(volume: icml2026.PaperCollection) -> None:
    from icml2026.store.packaged import load_keys

    ids = [p.identifiers.pmlr for p in volume.complete]
    found = load_keys(ids)
    assert found is not None and [p.identifiers.pmlr for p in found] == [p.identifiers.pmlr for p in volume.complete]
    for pmlr_id in random.Random(1).sample(ids, 5):
        result = subprocess.run([sys.executable, "-m", "icml2026", "show", pmlr_id], capture_output=True, text=True)
        assert result.returncode == 0 and f"pmlr-v306-{pmlr_id}" in result.stdout


def test_provenance_names_public_sources_only(volume: icml2026.PaperCollection) -> None:
    for paper in volume:
        for source in paper.sources.values():
            assert re.fullmatch(r"2026-\d\d-\d\d", source.retrieved or ""), (paper.id, source.name)  # every source dated
            text = f"{source.name} {source.url or ''}"
            assert not re.search(r"shared/|tools/sources|src/icml2026|\.\./", text), (paper.id, text)
            assert source.url is None or source.url.startswith("https://"), (paper.id, source.url)


def test_abstracts_are_the_seed_text_verbatim(volume: icml2026.PaperCollection, shared: Path) -> None:
    seed = (shared / "seed" / "000_476b98bb6ff612ae.txt").read_text(encoding="utf-8")
    lines = [line for line in seed.split("\n")[1:] if line.strip()]
    assert sorted(p.abstract for p in volume if p.abstract) == sorted(lines)


def test_facts_match_seed_papers_json(volume: icml2026.PaperCollection, shared: Path) -> None:
    facts = json.loads((shared / "data" / "seed-papers.json").read_text(encoding="utf-8"))
    for fact in facts["papers"]:
        pm = fact["pmlr"]
        if pm is None:
            continue
        paper = volume[pm["id"]]
        assert to_plain(paper.title) == pm["title"]
        assert [(a.given, a.family) for a in paper.authors] == [(a["given"], a["family"]) for a in pm["authors"]]
        assert (paper.pages.first, paper.pages.last) == (pm["firstpage"], pm["lastpage"])
        assert paper.identifiers.openreview == pm["openreview"]
        on_arxiv = [s["url"] for s in fact["secondary_sources"]
                    if fact["arxiv_id"] and fact["arxiv_id"] in s["url"] and re.match(r"https://(www\.)?arxiv\.org/", s["url"])]
        # An arXiv id is claimed only with arXiv's own listing as its source.
        assert paper.identifiers.arxiv == (fact["arxiv_id"] if on_arxiv else None), pm["id"]
        if on_arxiv:
            assert paper.source_of("/identifiers/arxiv").url in on_arxiv
        elif fact["arxiv_id"]:
            assert any(fact["arxiv_id"] in note and "left out" in note for note in paper.notes)
        assert paper.links.pdf == pm["pdf"]
        assert paper.source_of("/title").url == pm["source"]


def test_proceedings_record(volume: icml2026.PaperCollection, shared: Path) -> None:
    facts = json.loads((shared / "data" / "seed-papers.json").read_text(encoding="utf-8"))["proceedings"]
    proc = volume[0].proceedings
    assert all(p.proceedings is proc for p in volume)  # stored once, referenced
    assert [(e.family, e.given) for e in proc.editors] == [(e["family"], e["given"]) for e in facts["editors"]]
    assert (proc.volume, proc.year, proc.booktitle) == (306, 2026, facts["booktitle"])


def test_case_protection_from_tex_title(volume: icml2026.PaperCollection) -> None:
    paper = volume["pmlr-v306-li26d"]
    assert [paper.title[a:b] for a, b in paper.title_protect] == ["P", "L"]
    paper = volume["zhao2026benchmarking"]
    assert [paper.title[a:b] for a, b in paper.title_protect] == ["VQA"]


def test_proper_nouns_are_protected(volume: icml2026.PaperCollection) -> None:
    paper = volume["pmlr-v306-n-guessan26a"]  # … Physics-Informed Müntz-Szász Networks
    protected = [paper.title[a:b] for a, b in paper.title_protect]
    assert "Müntz" in protected and "Szász" in protected
    assert paper.source_of("/title_protect").name.startswith("Derived")
    for paper in volume.complete:  # never an ordinary word
        words = {paper.title[a:b] for a, b in paper.title_protect}
        assert not words & {"Networks", "Learning", "Go", "Student", "The"}, paper.id
    assert not any(paper.title[a:b] == "Lean" for a, b in volume["pmlr-v306-thimmaiah26a"].title_protect)
