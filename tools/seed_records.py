"""Build the packaged records from the verified facts in ``shared/``.

    python tools/seed_records.py [--shared ../shared] [--check]

Reads ``data/seed-papers.json`` (verified facts, each with its source) and the
seed document (the abstracts, verbatim) and writes one JSON file per paper to
``src/icml2026/data/papers/`` plus the proceedings record.  ``--check`` writes
nothing and exits 1 when a shipped file differs; ``tests/test_seed_data.py``
runs the same comparison, so a hand edit or a typo cannot slip in unnoticed.
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

from icml2026 import markup  # noqa: E402
from icml2026.keys import base_key, unique_key  # noqa: E402
from icml2026.latex import decode_title  # noqa: E402
from icml2026.store import dumps_record  # noqa: E402

SEED_NAME = "000_476b98bb6ff612ae.txt"
OUT = ROOT / "src" / "icml2026" / "data"


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


def paper_record(paper: dict[str, Any], abstract: str, proc: dict[str, Any], retrieved: str,
                 dataset_url: str) -> dict[str, Any]:
    prov = Provenance(retrieved)
    curation = prov.source("curation", "Verified facts for the seed papers (seed-papers.json)", dataset_url)
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
    src = prov.source("pmlr", "PMLR volume 306, paper post (front matter)", pm["source"])
    title, protected = decode_title(pm["tex_title"])  # the importer's reading of PMLR titles
    assert markup.to_plain(title) == pm["title"], f"tex_title and title disagree for {pm['id']}"
    rec["title"] = title
    ranges = [list(r) for r in protected]
    notation = notation_ranges(title, ranges)
    if ranges or notation:
        rec["title_protect"] = sorted(ranges + notation)
        prov.cite("/title_protect", src if not notation else prov.source(
            "derived", "Derived by icml2026 from the record's own verified fields"))
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
        rec["identifiers"]["arxiv"] = paper["arxiv_id"]
        prov.cite("/identifiers/arxiv", cite_secondary(prov, paper, paper["arxiv_id"], curation))
    code = paper["code_url"]
    if code is None and pm["software"] and "github.com/" in pm["software"]:
        code = pm["software"]  # PMLR's software field names the code repository
    if code:
        links["code"] = code
        key = src if same_url(code, pm["software"]) else cite_secondary(prov, paper, code, curation)
        prov.cite("/links/code", key)
    if paper["project_url"]:
        links["project"] = paper["project_url"]
        key = src if same_url(paper["project_url"], pm["software"]) else cite_secondary(
            prov, paper, paper["project_url"].rstrip("/"), curation)
        prov.cite("/links/project", key)
    if paper["icml_virtual_url"]:
        links["icml_virtual"] = paper["icml_virtual_url"]
        prov.cite("/links/icml_virtual", prov.source(
            "icml-virtual", "ICML 2026 virtual site, poster page", paper["icml_virtual_url"]))
    if paper.get("alt_titles"):
        rec["former_titles"] = paper["alt_titles"]
        prov.cite("/former_titles", curation)

    family = pm["authors"][0]["family"]
    rec["citation_key"] = base_key(family, proc["year"], rec["title"])
    openreview_style = base_key(family, proc["year"], rec["title"], skip_function_words=False)
    rec["alias_keys"] = list(dict.fromkeys([rec["id"], openreview_style]))
    derived = prov.source("derived", "Derived by icml2026 from the record's own verified fields")
    prov.cite("/citation_key", derived)
    prov.cite("/alias_keys", derived)
    return finish(rec, prov)


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


def build(shared: Path) -> dict[str, str]:
    """Relative path → file text for every packaged record."""
    facts = json.loads((shared / "data" / "seed-papers.json").read_text(encoding="utf-8"))
    abstracts = seed_abstracts(shared)
    assert len(abstracts) == len(facts["papers"]), "seed document and facts disagree on the count"
    proc = proceedings_record(facts, facts["retrieved"])
    dataset_url = "shared/data/seed-papers.json"
    files = {f"proceedings/{proc['id']}.json": dumps_record(proc)}
    records = []
    for paper, abstract in zip(facts["papers"], abstracts):
        assert paper["seed_abstract"] == abstract, f"seed {paper['seed_index']}: abstract mismatch"
        records.append(paper_record(paper, abstract, proc, facts["retrieved"], dataset_url))
    taken: set[str] = set()
    for rec in sorted(records, key=lambda r: r["id"]):
        if "citation_key" in rec:
            rec["citation_key"] = unique_key(rec["citation_key"], taken)
            taken.add(rec["citation_key"])
            rec["alias_keys"] = [k for k in rec["alias_keys"] if k != rec["citation_key"]]
    for rec in records:
        files[f"papers/{rec['id']}.json"] = dumps_record(rec)
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    parser.add_argument("--check", action="store_true", help="compare only; exit 1 on a difference")
    args = parser.parse_args(argv)
    files = build(args.shared)
    stale = [rel for rel, text in files.items()
             if not (OUT / rel).exists() or (OUT / rel).read_text(encoding="utf-8") != text]
    extra = sorted({str(p.relative_to(OUT)) for p in OUT.glob("*/*.json")} - set(files))
    if args.check:
        for rel in stale + extra:
            print(f"stale: {rel}")
        return 1 if stale or extra else 0
    for rel in extra:
        (OUT / rel).unlink()
    for rel, text in files.items():
        (OUT / rel).parent.mkdir(parents=True, exist_ok=True)
        (OUT / rel).write_text(text, encoding="utf-8")
    print(f"wrote {len(files)} files to {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
