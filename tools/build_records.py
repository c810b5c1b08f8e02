"""Build the packaged records: the whole volume, with the curated seed papers.

    python tools/build_records.py [--sources tools/sources] [--check]

Inputs (``tools/sources/``, copies of public sources; its README says which):

* ``corpora/pmlr-v306-facts.bib`` — every paper of PMLR volume 306, read with the
  package's own BibTeX importer (the path ``icml2026 import`` takes);
* ``data/seed-papers.json`` and the seed document — the 19 papers of the user's
  seed document with verified facts and their abstracts, verbatim.

Steps: PMLR's published ids (:mod:`icml2026.pmlr`), the curation rules of
:mod:`icml2026.curation` (repairs and flags, case protection), one record per
paper (a seed paper's curated record replaces its volume record), citation keys
from the registry of published keys (``src/icml2026/data/published-keys.tsv``,
append-only) and the documented collision rule (:func:`icml2026.keys.assign_keys`).

Outputs: ``src/icml2026/data/papers.jsonl`` (one record a line), its lookup index
``index.tsv``, the prebuilt match index of ``fix`` and ``check`` (``match-index.json``), the
proceedings record, the key registry, and
``docs/data-quality.md`` (what was repaired and flagged, with counts).  ``--check``
writes nothing and exits 1 when a shipped file differs; the test suite runs the
same comparison, so a hand edit cannot slip in unnoticed.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from icml2026 import curation, markup, pmlr  # noqa: E402
from icml2026 import curation as curation_rules  # noqa: E402
from icml2026.bibtex.latex_decode import decode_title  # noqa: E402
from icml2026.curation import Finding  # noqa: E402
from icml2026.keys import assign_keys, base_key, letter_dropping_token  # noqa: E402
from icml2026.search import Index  # noqa: E402
from icml2026.store.records import dumps_record  # noqa: E402
from icml2026.update import baseline as update_baseline  # noqa: E402

SEED_NAME = "000_476b98bb6ff612ae.txt"
OUT = ROOT / "src" / "icml2026" / "data"
DOCS = ROOT / "docs"


def seed_abstracts(shared: Path) -> list[str]:
    """The abstracts of the seed document, in order: one non-empty line each after the heading."""
    lines = (shared / "seed" / SEED_NAME).read_text(encoding="utf-8").split("\n")
    assert lines[0].strip() == "ICML 2026 Papers", "unexpected seed heading"
    return [line for line in lines[1:] if line.strip()]


# A lower-case prefix joined to a capitalised word ("do-Shapley") is notation:
# a title-casing style must not turn it into "Do-Shapley".
NOTATION_PREFIX = re.compile(r"(?<![\w-])([a-z]+)-[A-Z]")


def notation_ranges(title: str, braced: list[list[int]]) -> list[list[int]]:
    covered = {i for a, b in braced for i in range(a, b)}
    return [[m.start(1), m.end(1)] for m in NOTATION_PREFIX.finditer(title)
            if not covered.intersection(range(m.start(1), m.end(1)))]


def proceedings_record(facts: dict[str, Any], retrieved: str) -> dict[str, Any]:
    p = facts["proceedings"]
    return {
        "schema_version": "1.0",
        "id": p["id"],
        "booktitle": p["booktitle"],
        "conference_name": p["name"],
        "conference_short_name": p["shortname"],
        "conference_number": p["conference_number"],
        "year": p["year"],
        "volume": p["volume"],
        "series": p["series"],
        "publisher": p["publisher"],
        "issn": p["issn"],
        "address": p["address"],
        "start_date": p["start"],
        "end_date": p["end"],
        "published": p["published"],
        "conference_url": p["conference_url"],
        "paper_url_pattern": p["paper_url_pattern"],
        "editors": [{"family": e["family"], "given": e["given"]} for e in p["editors"]],
        "provenance": {"name": f"PMLR volume 306: {p['source'].partition(' (')[2].rstrip(')')}",
                       "url": p["source"].partition(" ")[0], "retrieved": retrieved},
    }


class Provenance:
    """Collects ``sources`` and the pointer → source map of one record."""

    def __init__(self, retrieved: str) -> None:
        self.retrieved = retrieved
        self.sources: dict[str, dict[str, str]] = {}
        self.map: dict[str, str] = {}

    def source(self, key: str, name: str, url: str | None = None) -> str:
        entry = {"name": name, "retrieved": self.retrieved}
        if url:
            entry["url"] = url
        self.sources[key] = entry
        return key

    def cite(self, pointer: str, key: str) -> None:
        self.map[pointer] = key


def secondary_for(paper: dict[str, Any], needle: str) -> tuple[str, str] | None:
    """The first secondary source whose URL or fact mentions *needle*."""
    for n, src in enumerate(paper["secondary_sources"], 1):
        if needle in src["url"] or needle in src["fact"]:
            return f"secondary-{n}", src
    return None


def same_url(a: str | None, b: str | None) -> bool:
    norm = lambda u: (u or "").rstrip("/").removesuffix(".git")  # noqa: E731
    return bool(a and b) and norm(a) == norm(b)


def paper_record(paper: dict[str, Any], abstract: str, proc: dict[str, Any], retrieved: str) -> dict[str, Any]:
    prov = Provenance(retrieved)
    curation = prov.source("curation", CURATION_SOURCE_NAME)
    seed = prov.source("seed", f"Seed document {SEED_NAME} (the user's ICML 2026 abstracts)")
    rec: dict[str, Any] = {"schema_version": "1.0", "proceedings": proc["id"], "language": "en"}
    prov.cite("/language", curation)
    rec["abstract"] = abstract
    prov.cite("/abstract", seed)
    if paper["method_name"] is not None:
        rec["method_name"] = paper["method_name"]
        prov.cite("/method_name", curation)
    if paper.get("note"):
        rec["notes"] = [paper["note"]]
        prov.cite("/notes", curation)
    prov.cite("/status", curation)

    pm = paper["pmlr"]
    if pm is None:
        rec["id"] = f"icml2026-seed-{paper['seed_index']:02d}"
        rec["status"] = {"state": "incomplete", "missing": [
            "title", "authors", "pages", "citation_key", "identifiers", "links"]}
        return finish(rec, prov)

    rec["id"] = f"pmlr-v{proc['volume']}-{pm['id']}"
    rec["status"] = {"state": "complete"}
    if paper.get("former_id"):  # shipped before under a seed id: it keeps resolving
        rec["alias_keys"] = [paper["former_id"]]
    src = prov.source("pmlr", "PMLR volume 306, paper post (front matter)", pm["source"])
    title, protected = decode_title(pm["tex_title"])  # the importer's reading of PMLR titles
    assert markup.to_plain(title) == pm["title"], f"tex_title and title disagree for {pm['id']}"
    rec["title"] = title
    ranges = [list(r) for r in protected]
    notation = notation_ranges(title, ranges)
    if ranges or notation:
        rec["title_protect"] = sorted(ranges + notation)
        prov.cite("/title_protect", src if not notation else prov.source(
            "derived", DERIVED_NAME))
    prov.cite("/title", src)
    rec["authors"] = [{"family": a["family"], "given": a["given"]} for a in pm["authors"]]
    rec["authors_complete"] = True
    prov.cite("/authors", src)
    prov.cite("/authors_complete", src)
    rec["pages"] = {"first": pm["firstpage"], "last": pm["lastpage"]}
    prov.cite("/pages", src)
    rec["identifiers"] = {"pmlr": pm["id"], "openreview": pm["openreview"]}
    prov.cite("/identifiers/pmlr", src)
    prov.cite("/identifiers/openreview", src)
    links = rec["links"] = {
        "proceedings": proc["paper_url_pattern"].format(id=pm["id"]),
        "pdf": pm["pdf"],
        "openreview": f"https://openreview.net/forum?id={pm['openreview']}",
    }
    prov.cite("/links/proceedings", prov.source(
        "pmlr-url-pattern", "PMLR volume 306 _config.yml (paper URL pattern)", proc["provenance"]["url"]))
    prov.cite("/links/pdf", src)
    prov.cite("/links/openreview", src)

    if paper["arxiv_id"]:
        arxiv = arxiv_listing(paper, paper["arxiv_id"])
        if arxiv is None:  # only aggregators or READMEs name it: not claimed
            note(rec, prov, curation, f"arXiv id {paper['arxiv_id']} left out: the sources that name it "
                 "are not arXiv's own listing (" + ", ".join(
                     s["url"] for s in paper["secondary_sources"] if paper["arxiv_id"] in s["url"] + s["fact"])
                 + ").")
        else:
            rec["identifiers"]["arxiv"] = paper["arxiv_id"]
            key, found = arxiv
            prov.cite("/identifiers/arxiv", prov.source(key, found["fact"], found["url"]))
    code = paper["code_url"]
    if code is None and pm["software"] and curation_rules.link_kind(pm["software"]) == "code":
        code = pm["software"]  # PMLR's software field names the code repository
    if code:
        links["code"] = code
        key = src if same_url(code, pm["software"]) else cite_secondary(prov, paper, code, curation)
        prov.cite("/links/code", key)
        if key == src and code != pm["software"]:
            note(rec, prov, curation, f"Code link: PMLR's software field reads {pm['software']!r}; the link "
                 f"is {code!r}, the same repository without the clone suffix.")
    if paper["project_url"]:
        links["project"] = paper["project_url"]
        key = src if same_url(paper["project_url"], pm["software"]) else cite_secondary(
            prov, paper, paper["project_url"].rstrip("/"), curation)
        prov.cite("/links/project", key)
        if key == src and not any("software" in n for n in rec.get("notes", [])):
            note(rec, prov, curation, f"Project link: PMLR's software field reads {pm['software']!r}, which is "
                 "the project's page, not a source repository; it is the project link.")
    if paper["icml_virtual_url"]:
        links["icml_virtual"] = paper["icml_virtual_url"]
        prov.cite("/links/icml_virtual", prov.source(
            "icml-virtual", "ICML 2026 virtual site, poster page", paper["icml_virtual_url"]))
    if paper.get("alt_titles"):
        rec["former_titles"] = paper["alt_titles"]
        prov.cite("/former_titles", curation)

    prov.source("derived", DERIVED_NAME)  # citation and alias keys: assign_citation_keys
    return finish(rec, prov)


def arxiv_listing(paper: dict[str, Any], arxiv_id: str) -> tuple[str, dict[str, str]] | None:
    """The first secondary source on arXiv's own site (arxiv.org) that names *arxiv_id*."""
    for n, src in enumerate(paper["secondary_sources"], 1):
        if arxiv_id in src["url"] and re.match(r"https://(?:www\.)?arxiv\.org/", src["url"]):
            return f"secondary-{n}", src
    return None


def note(rec: dict[str, Any], prov: Provenance, source: str, text: str) -> None:
    rec.setdefault("notes", []).append(text)
    prov.cite("/notes", source)


def cite_secondary(prov: Provenance, paper: dict[str, Any], needle: str, fallback: str) -> str:
    found = secondary_for(paper, needle)
    if found is None:
        return fallback
    key, src = found
    return prov.source(key, src["fact"], src["url"])


def finish(rec: dict[str, Any], prov: Provenance) -> dict[str, Any]:
    rec["sources"] = prov.sources
    rec["provenance"] = prov.map
    return rec


# --------------------------------------------------------------------------- the whole volume

VOLUME_FILE = "corpora/pmlr-v306-facts.bib"
VOLUME_COMMIT = "0f2cebec35c9cea6514af97ccd40d5c22f81d7bc"
VOLUME_RETRIEVED = "2026-12-01"  # the copy in tools/sources/corpora (its README)
VOLUME_SOURCE = {
    "name": f"PMLR volume 306 source BibTeX: repository mlresearch/v306, file icml26.bib, commit {VOLUME_COMMIT}",
    "url": f"https://github.com/mlresearch/v306/blob/{VOLUME_COMMIT}/icml26.bib",
}
CURATION_SOURCE_NAME = ("icml2026 curation of the seed papers: verified facts, each checked against the "
                        "public sources this record cites")
DERIVED_NAME = "Derived by icml2026 from the record's own verified fields"


def volume_records(sources: Path, proc: dict[str, Any]) -> tuple[list[dict[str, Any]], list[Finding]]:
    """Every paper of the volume as a record dict, in file (= page) order, with PMLR's ids."""
    from icml2026.importers.bibtex import read_bibtex_report

    path = sources / VOLUME_FILE
    result = read_bibtex_report(path)
    if result.problems:
        raise SystemExit(f"{path}: {len(result.problems)} entries not imported: {result.problems[0]}")
    papers = sorted(result.papers, key=lambda p: p.pages.first if p.pages else 0)
    software = raw_software(path.read_text(encoding="utf-8"))
    ids = pmlr.assign_ids([first_family(p) for p in papers], proc["year"])
    upstream = upstream_corrections(sources)
    records, findings = [], []
    for paper, pmlr_id in zip(papers, ids):
        # The importer applies PMLR's id rule itself (the whole volume, from page 1).
        assert paper.identifiers.pmlr == pmlr_id, (paper.id, pmlr_id)
        rec = volume_record(paper.to_dict(), pmlr_id, proc)
        findings += apply_upstream(rec, upstream.pop(paper.identifiers.openreview or "", []))
        findings += curation.curate_entry(rec, software.get(paper.identifiers.openreview or ""))
        records.append(rec)
    if upstream:
        raise SystemExit(f"upstream corrections for unknown entries: {sorted(upstream)}")
    return records, findings


def _shown(value: Any) -> str:
    if isinstance(value, dict) and "family" in value:
        return repr(f"{value['family']}, {value.get('given', '')}".rstrip(", "))
    return repr(value)


def upstream_corrections(sources: Path) -> dict[str, list[dict[str, Any]]]:
    """OpenReview id → the corrections PMLR made after the volume file's commit (data/upstream-corrections.json)."""
    data = json.loads((sources / "data" / "upstream-corrections.json").read_text(encoding="utf-8"))
    found: dict[str, list[dict[str, Any]]] = {}
    for fix in data["corrections"]:
        found.setdefault(fix["openreview"], []).append({**fix, "retrieved": data["retrieved"]})
    return found


def apply_upstream(rec: dict[str, Any], fixes: list[dict[str, Any]]) -> list[Finding]:
    """Each later correction of PMLR's, with its post (at that commit) as the field's source."""
    found = []
    for fix in fixes:
        field, _, index = fix["pointer"].lstrip("/").partition("/")
        target = rec[field]
        key: Any = int(index) if index else None
        current = target[key] if key is not None else target
        if current != fix["old"]:
            raise SystemExit(f"{rec['id']}: upstream correction of {fix['pointer']} expects {fix['old']!r}, "
                             f"the volume file reads {current!r}")
        if key is not None:
            target[key] = fix["new"]
        else:
            rec[field] = fix["new"]
        source = f"pmlr-post-{fix['commit'][:7]}"
        rec["sources"][source] = {"name": f"PMLR volume 306, paper post at commit {fix['commit']} (front matter): "
                                  + fix["fact"], "url": fix["url"], "retrieved": fix["retrieved"]}
        rec["provenance"]["/" + field] = source
        what = f"Author {key + 1}" if field == "authors" and key is not None else fix["pointer"]
        curation.note(rec, f"{what}: PMLR's volume BibTeX (commit {VOLUME_COMMIT[:7]}) reads {_shown(fix['old'])}; "
                      f"PMLR corrected it in commit {fix['commit'][:7]} to {_shown(fix['new'])}.")
        found.append(Finding(rec["id"], fix["pointer"], "repaired", "upstream correction", json.dumps(
            fix["old"], ensure_ascii=False)))
    return found


def first_family(paper: Any) -> str:
    first = paper.authors[0]
    return first.family or first.literal or ""


def raw_software(text: str) -> dict[str, str]:
    """OpenReview id → the entry's ``software`` value exactly as the source writes it."""
    found = {}
    for block in re.split(r"\n(?=@)", text):
        key = re.search(r"^\s*openreview = \{(.*)\},?$", block, re.MULTILINE)
        value = re.search(r"^\s*software = \{(.*)\},?$", block, re.MULTILINE)
        if key and value:
            found[key.group(1)] = value.group(1)
    return found


def volume_record(rec: dict[str, Any], pmlr_id: str, proc: dict[str, Any]) -> dict[str, Any]:
    """Re-identify an imported record under its PMLR id, with public sources only."""
    volume = proc["volume"]
    rec["id"] = f"pmlr-v{volume}-{pmlr_id}"
    rec["identifiers"]["pmlr"] = pmlr_id
    rec["links"]["proceedings"] = pmlr.paper_url(volume, pmlr_id)
    rec["links"]["pdf"] = pmlr.pdf_url(volume, pmlr_id)
    rec["links"] = {k: rec["links"][k] for k in sorted(rec["links"]) if k != "code"}
    rec.pop("notes", None)  # the importer's notes on the software field: replaced below
    rec.pop("alias_keys", None)
    rec.pop("citation_key", None)
    provenance = {ptr: ("pmlr-bibtex" if src == "bibtex" else src) for ptr, src in rec["provenance"].items()
                  if ptr not in ("/notes", "/links/code", "/alias_keys", "/citation_key")}
    provenance.update({
        "/identifiers/pmlr": "pmlr-id-rule",
        "/links/proceedings": "pmlr-page",
        "/links/pdf": "pmlr-pdf",
        "/status": "derived",
        "/language": "derived",
    })
    rec["provenance"] = provenance
    pattern_date = proc["provenance"]["retrieved"]  # when the volume's URL pattern was read
    rec["sources"] = {
        "derived": {"name": DERIVED_NAME, "retrieved": VOLUME_RETRIEVED},
        "pmlr-bibtex": {**VOLUME_SOURCE, "retrieved": VOLUME_RETRIEVED},
        "pmlr-id-rule": {"name": "PMLR's published id, by the rule of PMLR's site builder (repository "
                         "mlresearch/papersite, lib/mlresearch.rb) applied in the volume file's order",
                         "url": "https://github.com/mlresearch/papersite/blob/1612ee2bfa94d93d36230de86b32dadf2181ac32/lib/mlresearch.rb",
                         "retrieved": VOLUME_RETRIEVED},
        "pmlr-page": {"name": "PMLR paper page (URL from the volume's URL pattern and the PMLR id)",
                      "url": rec["links"]["proceedings"], "retrieved": pattern_date},
        "pmlr-pdf": {"name": "PMLR paper PDF (URL from the volume repository's assets/<id>/<id>.pdf "
                     "layout and the PMLR id)", "url": rec["links"]["pdf"], "retrieved": pattern_date},
    }
    return rec


# --------------------------------------------------------------------------- seed + volume

def merge(seed: list[dict[str, Any]], volume: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One record per paper: a seed paper's curated record replaces its volume record."""
    by_openreview = {r["identifiers"]["openreview"]: r for r in volume}
    replaced = set()
    for rec in seed:
        if "identifiers" not in rec:
            continue  # the unidentified seed paper: nothing to match
        twin = by_openreview[rec["identifiers"]["openreview"]]
        check_twins(rec, twin)
        replaced.add(twin["id"])
    return seed + [r for r in volume if r["id"] not in replaced]


def check_twins(seed: dict[str, Any], twin: dict[str, Any]) -> None:
    """The curated facts and the volume file must agree on everything they both state."""
    for name in ("id", "title", "authors", "pages"):
        # PMLR's pages print a typographic apostrophe where its BibTeX has ' (N’Guessan).
        if _apostrophes(seed[name]) != _apostrophes(twin[name]):
            raise SystemExit(f"{seed['id']}: seed facts and volume disagree on {name}: "
                             f"{seed[name]!r} vs {twin[name]!r}")


def _apostrophes(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False).replace("’", "'")


def first_family_of(rec: dict[str, Any]) -> str:
    first = rec["authors"][0]
    return str(first.get("family") or first.get("literal", ""))


def assign_citation_keys(records: list[dict[str, Any]], registry: Registry, year: int) -> None:
    bases = {rec["id"]: (base_key(first_family_of(rec), year, rec["title"]), rec["pages"]["first"])
             for rec in records if "title" in rec}
    published = demote_letter_dropping_keys(registry, records, year)
    keys = assign_keys(bases, published, registry.aliases)
    lost = {k: r for k, r in published.items() if keys.get(r) != k}
    if lost:
        raise SystemExit(f"published keys would change: {sorted(lost.items())[:5]}")
    cited = set(keys.values())
    former = {}  # record id → its published keys that are aliases now
    for key, record in registry.aliases.items():
        former.setdefault(record, []).append(key)
    aliases: dict[str, list[str]] = {}
    for rec in records:
        if rec["id"] not in keys:
            continue
        rec["citation_key"] = keys[rec["id"]]
        rec["alias_keys"] = sorted(former.get(rec["id"], [])) + rec.get("alias_keys", [])
        for alias in own_aliases(rec, year):
            aliases.setdefault(alias, []).append(rec["id"])
    for rec in records:
        if rec["id"] not in keys:
            continue
        # An alias another paper also answers to would make lookups ambiguous: left out.
        rec["alias_keys"] = [a for a in dict.fromkeys(own_aliases(rec, year))
                             if a != rec["citation_key"] and a not in cited and len(aliases[a]) == 1]
        rec["provenance"]["/citation_key"] = "derived"
        rec["provenance"]["/alias_keys"] = "derived"
        if not rec["alias_keys"]:
            del rec["alias_keys"], rec["provenance"]["/alias_keys"]
    missing = {k: r for k, r in registry.aliases.items() if k not in next(
        (x.get("alias_keys", []) for x in records if x["id"] == r), [])}
    if missing:
        raise SystemExit(f"published keys would stop resolving: {sorted(missing.items())[:5]}")


def demote_letter_dropping_keys(registry: Registry, records: list[dict[str, Any]], year: int) -> dict[str, str]:
    """The published citation keys that stay citation keys; the others become aliases.

    Keys published before 0.2 dropped letters NFKD cannot decompose (``isk2026names`` for
    Işık).  Such a key, recognised as its record's old base key (plus a collision suffix)
    where the new rule spells the name differently, becomes an alias of the record: it
    keeps resolving, and the record gets a key spelt as PMLR spells the name.
    """
    by_id = {rec["id"]: rec for rec in records if "title" in rec}
    kept = {}
    for key, record in registry.keys.items():
        rec = by_id.get(record)
        if rec is not None:
            family = first_family_of(rec)
            old = base_key(family, year, rec["title"], token=letter_dropping_token)
            if old != base_key(family, year, rec["title"]) and re.fullmatch(re.escape(old) + "[a-z]*", key):
                registry.aliases[key] = record
                continue
        kept[key] = record
    return kept


def own_aliases(rec: dict[str, Any], year: int) -> list[str]:
    """The keys a record answers to besides its citation key: its id, former keys and ids, the unskipped base key."""
    return [rec["id"], *rec.get("alias_keys", []),
            base_key(first_family_of(rec), year, rec["title"], skip_function_words=False)]


class Registry:
    """``published-keys.tsv``: every key ever published and its record; append-only.

    A row is ``key<TAB>record id`` for a citation key, or ``key<TAB>record id<TAB>alias``
    for a published key that is now an alias of its record (it still resolves to it).
    """

    def __init__(self, keys: dict[str, str], aliases: dict[str, str]) -> None:
        self.keys = keys
        self.aliases = aliases


def read_registry(path: Path) -> Registry:
    registry = Registry({}, {})
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            key, record, *kind = line.split("\t")
            (registry.aliases if kind == ["alias"] else registry.keys)[key] = record
    return registry


def registry_text(records: list[dict[str, Any]], registry: Registry) -> str:
    rows = sorted([(r["citation_key"], r["id"], "") for r in records if "citation_key" in r]
                  + [(key, record, "\talias") for key, record in registry.aliases.items()])
    return "".join(f"{key}\t{record}{kind}\n" for key, record, kind in rows)


def build(sources: Path) -> dict[Path, str]:
    """Path → file text of every generated file."""
    facts = json.loads((sources / "data" / "seed-papers.json").read_text(encoding="utf-8"))
    abstracts = seed_abstracts(sources)
    assert len(abstracts) == len(facts["papers"]), "seed document and facts disagree on the count"
    proc = proceedings_record(facts, facts["retrieved"])
    seed = []
    for paper, abstract in zip(facts["papers"], abstracts):
        assert paper["seed_abstract"] == abstract, f"seed {paper['seed_index']}: abstract mismatch"
        seed.append(paper_record(paper, abstract, proc, facts["retrieved"]))
    volume, findings = volume_records(sources, proc)
    records = merge(seed, volume)
    for rec in seed:
        findings += curation.protect_case(rec)
    registry = read_registry(OUT / "published-keys.tsv")
    assign_citation_keys(records, registry, proc["year"])
    records = [normalised(rec) for rec in records]
    records.sort(key=lambda r: (r.get("citation_key") or r["id"], r["id"]))
    papers_text = "".join(json.dumps(r, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n"
                          for r in records)
    search = search_index(proc, records)
    return {
        OUT / "proceedings" / f"{proc['id']}.json": dumps_record(proc),
        OUT / "papers.jsonl": papers_text,
        OUT / "index.tsv": index_text(papers_text),
        OUT / "lines.tsv": lines_text(papers_text),
        OUT / "search-index.txt": search.to_text(),
        OUT / "search-words.tsv": search.to_words(),
        OUT / "match-index.json": match_index_text(proc, papers_text),
        OUT / "published-keys.tsv": registry_text(records, registry),
        DOCS / "data-quality.md": quality_report([f for f in findings if f.rule != CASE_RULE], records,
                                                 sum(f.rule == CASE_RULE for f in findings)),
        DOCS / "case-protection.md": case_report([f for f in findings if f.rule == CASE_RULE], records),
        # What each source entry said, per field: 'icml2026 update' compares PMLR's file with it.
        update_baseline.FILE: update_baseline.build_text(sources),
    }


def normalised(rec: dict[str, Any]) -> dict[str, Any]:
    """The record as :class:`icml2026.model.Paper` writes it (one field order, one form)."""
    from icml2026.model import Paper, Proceedings

    return Paper.from_dict(rec, Proceedings(id=rec["proceedings"])).to_dict()


def index_text(papers_text: str) -> str:
    """``lookup key<TAB>byte offset<TAB>byte length`` of each line of papers.jsonl, sorted by key.

    Every key a paper can be looked up by (id, citation key, alias keys,
    identifiers); the first paper in collection order wins a shared key, as
    :class:`icml2026.collection.PaperCollection` does.
    """
    rows: dict[str, tuple[int, int]] = {}
    offset = 0
    for line in papers_text.splitlines(keepends=True):
        size = len(line.encode("utf-8"))
        rec = json.loads(line)
        keys = [rec["id"], rec.get("citation_key"), *rec.get("alias_keys", []),
                *rec.get("identifiers", {}).values()]
        for key in keys:
            if key:
                rows.setdefault(key, (offset, size))
        offset += size
    return "".join(f"{key}\t{at}\t{size}\n" for key, (at, size) in sorted(rows.items()))


def lines_text(papers_text: str) -> str:
    """``offset<TAB>length<TAB>state`` of each line of papers.jsonl, in its (collection) order."""
    rows, offset = [], 0
    for line in papers_text.splitlines(keepends=True):
        size = len(line.encode("utf-8"))
        rows.append(f"{offset}\t{size}\t{json.loads(line)['status']['state']}\n")
        offset += size
    return "".join(rows)


def search_index(proc: dict[str, Any], records: list[dict[str, Any]]) -> Index:
    """The search index of the packaged papers in their order (``icml2026.search.Index``):
    stored as its text (``to_text``) and as its word index (``to_words``)."""
    from icml2026.collection import PaperCollection
    from icml2026.model import Paper, Proceedings

    volume = Proceedings.from_dict(proc)
    papers = PaperCollection(Paper.from_dict(r, volume) for r in records)
    assert [p.id for p in papers] == [r["id"] for r in records], "papers.jsonl is not in collection order"
    return Index(list(papers))


def match_index_text(proc: dict[str, Any], papers_text: str) -> str:
    """The prebuilt match index of ``fix`` and ``check`` over papers.jsonl (``icml2026.fix.prebuilt``)."""
    from icml2026.fix.prebuilt import index_text
    from icml2026.model import Paper, Proceedings

    volume = Proceedings.from_dict(proc)
    return index_text([Paper.from_dict(json.loads(line), volume) for line in papers_text.splitlines()], papers_text)


CASE_RULE = "title: case protection"


def case_report(findings: list[Finding], records: list[dict[str, Any]]) -> str:
    """docs/case-protection.md: the rule, the reviewed proper nouns, every title it changed."""
    titles = {r["id"]: r["title"] for r in records if "title" in r}
    phrases = [f"`{p.pattern}`" for p in curation.PROPER_PHRASES]
    lines = [
        "# Case protection of the volume's titles",
        "",
        "Generated by `tools/build_records.py` (do not edit) from `icml2026.curation.case_ranges`.",
        "A style that lower-cases titles (BibTeX's `plainnat`, biblatex-apa, pandoc's CSL) keeps",
        "only the capitals inside braces (BibTeX, BibLaTeX) or a `nocase` span (CSL-JSON). PMLR",
        "braces only what the authors braced; the build adds, as Better BibTeX does:",
        "",
        "* every word with a capital after its first character (`mmWave`) or a capital and a",
        "  digit (`Graph-R1`, `V2`, `Mamba2`, `3D`);",
        "* every one-letter capital word except the article \"A\" (the pronoun \"I\", `A*`,",
        "  `Q-learning`, `U-statistics`, `C-index`, `E(3)-equivariant`);",
        "* the capitalised words of a word written together with math or `&` (`DR$^2$Seg`,",
        "  `R$^3$L`, `Hide&Seek`, `Plug&Play`);",
        "* the first word after an opening quotation mark (“Someone Hid It!”);",
        "* the proper nouns below: eponyms, places, products, languages and named models of the",
        "  volume's own titles, each checked in every title where it occurs. Words that are",
        "  ordinary English elsewhere are protected only in the listed phrases (the prover Lean,",
        "  not \"LLMs Lean on Priors\"). \"Black-box\", \"Meta-learning\", \"Slack\", \"Oracle\",",
        "  \"Habitat\", \"Unity\", \"Go\", \"Chess\" are ordinary words in these titles and are not",
        "  protected.",
        "",
        f"Proper nouns ({len(curation.PROPER_NOUNS)}): " + ", ".join(sorted(curation.PROPER_NOUNS)) + ".",
        "",
        "Phrases (the group `w` is protected): " + "; ".join(phrases) + ".",
        "",
        f"## Titles changed ({len(findings)})",
        "",
        "| record | words protected | title |",
        "|---|---|---|",
    ]
    lines += [f"| `{f.record}` | {_cell(f.source_value)} | {_cell(titles[f.record])} |"
              for f in sorted(findings, key=lambda f: f.record)]
    return "\n".join(lines) + "\n"


def quality_report(findings: list[Finding], records: list[dict[str, Any]], protected: int) -> str:
    from collections import Counter

    counts = Counter((f.rule, f.action) for f in findings)
    lines = [
        "# Data quality of the packaged volume",
        "",
        "Generated by `tools/build_records.py` (do not edit): what the build repaired and what it",
        "flagged in PMLR's volume BibTeX, by the rules of `src/icml2026/curation.py`. Every repaired",
        "field cites the `derived` source and its record has a note quoting what the source said;",
        "a flagged field is kept (or left out) with a note. `icml2026 show KEY` prints the notes.",
        "",
        f"Records: {len(records)} ({sum(r['status']['state'] == 'complete' for r in records)} complete). "
        f"Titles given extra case protection: {protected} (each listed in `case-protection.md`).",
        "",
        "| class | action | records |",
        "|---|---|---|",
    ]
    lines += [f"| {rule} | {action} | {n} |" for (rule, action), n in sorted(counts.items())]
    lines += ["", "## Every finding", "", "| class | action | record | field | the source reads |", "|---|---|---|---|---|"]
    lines += ["| " + " | ".join(_cell(c) for c in f.as_row()) + " |"
              for f in sorted(findings, key=lambda f: f.as_row())]
    return "\n".join(lines) + "\n"


def _cell(text: str) -> str:
    return "`" + text.replace("|", "\\|").replace("`", "'") + "`" if text.startswith(("/", "pmlr")) else \
        text.replace("|", "\\|")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sources", type=Path, default=ROOT / "tools" / "sources")
    parser.add_argument("--check", action="store_true", help="compare only; exit 1 on a difference")
    args = parser.parse_args(argv)
    files = build(args.sources)
    stale = [path for path, text in files.items()
             if not path.exists() or path.read_text(encoding="utf-8") != text]
    if args.check:
        for path in stale:
            print(f"stale: {path.relative_to(ROOT)}")
        return 1 if stale else 0
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    print(f"wrote {len(files)} files ({len(files[OUT / 'papers.jsonl'].splitlines())} records)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
