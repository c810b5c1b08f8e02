"""Generated documents of citation clusters, and their comparison with citeproc-js.

A document cites papers of one colliding set of the volume (first authors of one family
name, 2026: Wang, Li, Zhang …) in clusters drawn by a seeded generator: single cites,
clusters of two to four, runs of papers not cited before (consecutive numbers, for
"[1–3]"), the previous single cite again (ibid), with and without locators (same,
different, page or chapter).  Both processors get the same CSL-JSON, style and locale
files; citeproc-js runs through ``tests/citeproc_js/clusters.js``.

``python3 tests/cluster_documents.py --write`` regenerates
``tests/data/cluster-known-differences.json`` from the slow test's documents (the quick
test's are a subset of them) and the synthetic styles; ``--synthetic`` only the latter.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any, NamedTuple

from citeproc_js_oracle import even_parts

HERE = Path(__file__).parent
SCRIPT = HERE / "citeproc_js" / "clusters.js"
KNOWN = HERE / "data" / "cluster-known-differences.json"
STYLES = ("apa", "chicago-author-date", "ieee", "nature", "harvard-cite-them-right",
          "modern-language-association", "chicago-notes-bibliography")
FORMATS = ("text", "html")
DOCUMENT_MAX = 12  # papers per document: a large family is cut into documents of at most 12
QUICK_DOCUMENTS = 4
SLOW_STEP = 8  # the slow test compares every 8th document

_ENTITIES = {"&#38;": "&amp;", "&#60;": "&lt;", "&#62;": "&gt;"}


def normalise(text: str) -> str:
    for entity, spelling in _ENTITIES.items():
        text = text.replace(entity, spelling)
    return " ".join(text.split())


def colliding_sets(papers: Any) -> list[list[Any]]:
    """The complete papers of every first-author family with two or more papers, in id order,
    cut into documents of at most :data:`DOCUMENT_MAX`."""
    groups: dict[str, list[Any]] = {}
    for paper in papers.complete:
        if paper.authors and paper.authors[0].family:
            groups.setdefault(paper.authors[0].family, []).append(paper)
    sets = []
    for family in sorted(groups):
        group = sorted(groups[family], key=lambda p: p.id)
        if len(group) < 2:
            continue
        sets.extend(even_parts(group, DOCUMENT_MAX))
    return sets


def make_document(ids: list[str], seed: int) -> list[list[dict[str, str]]]:
    """Clusters citing *ids*, drawn by ``random.Random(seed)``: one document."""
    rng = random.Random(seed)
    clusters: list[list[dict[str, str]]] = []
    uncited = list(ids)

    def locate(cite: dict[str, str]) -> dict[str, str]:
        roll = rng.random()
        if roll < 0.12:
            return {**cite, "locator": rng.choice(["4", "12", "4-7"]), "label": "page"}
        if roll < 0.15:
            return {**cite, "locator": "2", "label": "chapter"}
        return cite

    for _ in range(len(ids) + len(ids) // 2):
        roll = rng.random()
        previous = clusters[-1] if clusters else None
        if previous is not None and len(previous) == 1 and roll < 0.2:
            again = {"id": previous[0]["id"]}
            choice = rng.random()
            if choice < 0.3 and "locator" in previous[0]:
                again = dict(previous[0])
            elif choice < 0.6:
                again = locate(again)
            clusters.append([again])
            continue
        if uncited and roll < 0.4:
            run = uncited[:rng.choice([2, 3, 4, 5])]
            cluster = [{"id": i} for i in run]
            if rng.random() < 0.3 and len(ids) > len(run):
                extra = rng.choice([i for i in ids if i not in run])
                cluster.insert(rng.randrange(len(cluster) + 1), {"id": extra})
        else:
            size = rng.choices([1, 2, 3, 4], weights=[45, 30, 15, 10])[0]
            cluster = [{"id": i} for i in rng.sample(ids, min(size, len(ids)))]
        cluster = [locate(c) for c in cluster]
        for cite in cluster:
            if cite["id"] in uncited:
                uncited.remove(cite["id"])
        clusters.append(cluster)
    if uncited:
        clusters.append([{"id": i} for i in uncited])
    return clusters


STYLE = """<?xml version="1.0" encoding="utf-8"?>
<style xmlns="http://purl.org/net/xbiblio/csl" class="{cls}" version="1.0">
  <info><title>t</title><id>t</id><updated>2020-01-01T00:00:00+00:00</updated></info>
  <citation {attrs} disambiguate-add-year-suffix="true" et-al-min="3" et-al-use-first="1"
            et-al-subsequent-min="2" et-al-subsequent-use-first="1">
    {sort}<layout prefix="(" suffix=")" delimiter="; ">
      <choose>
        <if position="ibid-with-locator"><group delimiter=" "><text value="ibid-wl"/><text variable="locator"/></group></if>
        <else-if position="ibid"><text value="ibid"/></else-if>
        <else-if position="near-note" {near}><group delimiter=" "><text value="near"/>
          <names variable="author"><name form="short"/></names></group></else-if>
        <else>
          <group delimiter=" ">
            <names variable="author"><name form="short" and="text"/></names>
            <date variable="issued"><date-part name="year"/></date>
            <group delimiter=" "><label variable="locator" form="short"/><text variable="locator"/></group>
          </group>
        </else>
      </choose>
    </layout>
  </citation>
  <bibliography><sort><key macro="key"/></sort><layout><names variable="author"/><text variable="title"/></layout></bibliography>
  <macro name="key"><names variable="author"><name name-as-sort-order="all"/></names>
    <date variable="issued"><date-part name="year"/></date><text variable="title"/></macro>
</style>
"""

VARIANTS = {  # name: (class, citation attributes, sorted cites)
    "plain": ("in-text", "", False),
    "year": ("in-text", 'collapse="year"', False),
    "year-suffix": ("in-text", 'collapse="year-suffix"', False),
    "year-suffix-ranged": ("in-text", 'collapse="year-suffix-ranged"', False),
    "group-delimiter": ("in-text", 'cite-group-delimiter=", "', False),
    "sorted-year": ("in-text", 'collapse="year"', True),
    "sorted-year-suffix": ("in-text", 'collapse="year-suffix"', True),
    "sorted-year-suffix-ranged": ("in-text", 'collapse="year-suffix-ranged"', True),
    "sorted-group-delimiter": ("in-text", 'cite-group-delimiter=", "', True),
    "delimiters": ("in-text", 'collapse="year-suffix-ranged" year-suffix-delimiter="," '
                   'after-collapse-delimiter=" | " cite-group-delimiter=" + "', True),
    "note": ("note", 'collapse="year" near-note-distance="2"', False),
}


def _item(key: str, families: list[str], year: int, title: str) -> dict[str, Any]:
    return {"id": key, "type": "book", "title": title, "author": [{"family": f, "given": "A"} for f in families],
            "issued": {"date-parts": [[year]]}}


SYNTHETIC_ITEMS = [_item("d1", ["Doe"], 2000, "A"), _item("d2", ["Doe"], 2000, "B"), _item("d3", ["Doe"], 2000, "C"),
                   _item("d4", ["Dee"], 2001, "D"), _item("d5", ["Doe"], 2000, "E"), _item("s1", ["Smith"], 2002, "F"),
                   _item("e1", ["Roe", "Poe", "Zoe"], 1999, "G"), _item("e2", ["Roe", "Poe"], 1998, "H")]
SYNTHETIC_DOCUMENT = "d1,s1,d2,d3,d4,d5;d2,d4@5,d1;e1;e1;e1@3;e1@3;e1@4;e1;s1,s1;e2,e1;d1;e1"


def run_synthetic(folder: Path, *, oracle: bool = True) -> dict[str, tuple[list[str], list[str]]]:
    """(ours, citeproc-js) per variant, for :data:`SYNTHETIC_DOCUMENT` (styles written in *folder*)."""
    import citeproc

    from icml2026.exporters.clusters import format_clusters, parse_cite_option

    clusters = [[{"key": c.key, **({"locator": c.locator, "label": c.label} if c.locator else {})} for c in cluster]
                for cluster in parse_cite_option(SYNTHETIC_DOCUMENT)]
    out = {}
    for name, (cls, attrs, sort) in VARIANTS.items():
        path = folder / f"{name}.csl"
        path.write_text(STYLE.format(cls=cls, attrs=attrs, sort='<sort><key variable="title"/></sort>' if sort else "",
                                     near="" if cls == "note" else 'type="map"'), encoding="utf-8")
        ours = format_clusters(SYNTHETIC_ITEMS, clusters, style=str(path))
        if oracle:
            request = {"style": str(path), "locales": citeproc.LOCALES_PATH, "lang": None,
                       "items": SYNTHETIC_ITEMS, "formats": ["text"],
                       "documents": [[[{"id": c["key"], **({"locator": c["locator"], "label": c["label"]}
                                                           if "locator" in c else {})} for c in cluster]
                                      for cluster in clusters]]}
            run = subprocess.run(["node", str(SCRIPT)], input=json.dumps(request), capture_output=True,
                                 text=True, check=True, timeout=300)
            theirs = json.loads(run.stdout)["text"][0]["clusters"]
        else:
            theirs = []
        out[name] = (ours, theirs)
    return out


class Document(NamedTuple):
    name: str  # "Wang-3": the family and the part
    items: list[dict[str, Any]]
    clusters: list[list[dict[str, str]]]


def documents(papers: Any) -> list[Document]:
    from icml2026.exporters.csl import to_csl

    out = []
    seen: dict[str, int] = {}
    for n, group in enumerate(colliding_sets(papers)):
        family = group[0].authors[0].family
        seen[family] = seen.get(family, 0) + 1
        items = [to_csl(p, abstract=False) for p in group]
        ids = [str(item["id"]) for item in items]
        out.append(Document(f"{family}-{seen[family]}", items, make_document(ids, n)))
    return out


def quick_documents(docs: list[Document]) -> list[Document]:
    """A few documents spread over the slow test's, the largest included."""
    slow = docs[::SLOW_STEP]
    largest = max(range(len(slow)), key=lambda n: len(slow[n].items))
    step = max(1, len(slow) // (QUICK_DOCUMENTS - 1))
    return [slow[n] for n in sorted(set(range(0, len(slow), step)) | {largest})]


def run_citeproc_js(docs: list[Document], style: str) -> dict[str, Any]:
    import citeproc

    from icml2026.exporters.citation import style_path

    items = {i["id"]: i for doc in docs for i in doc.items}
    request = {"style": str(style_path(style)), "locales": citeproc.LOCALES_PATH, "lang": None,
               "items": list(items.values()), "formats": list(FORMATS),
               "documents": [doc.clusters for doc in docs]}
    run = subprocess.run(["node", str(SCRIPT)], input=json.dumps(request), capture_output=True, check=False,
                         text=True, timeout=1800)
    assert run.returncode == 0, run.stderr[-3000:]
    answer: dict[str, Any] = json.loads(run.stdout)
    return answer


class Compared(NamedTuple):
    style: str
    format: str
    document: str
    cluster: int
    cites: str  # the cluster as written: "k1,k2@4"
    ours: str
    citeproc_js: str
    disambiguation: bool  # a cite of the cluster differs alone too (single-cite comparison)

    @property
    def key(self) -> tuple[str, str, str, int]:
        return self.style, self.format, self.document, self.cluster


def _written(cluster: list[dict[str, str]]) -> str:
    return ",".join(c["id"] + (f"@{c.get('label', 'page')}:{c['locator']}" if "locator" in c else "")
                    for c in cluster)


def compare(docs: list[Document], style: str) -> list[Compared]:
    from icml2026.exporters.citation import format_items
    from icml2026.exporters.citeproc_fixes import to_html, to_text
    from icml2026.exporters.clusters import marked_clusters, rendered_as

    js = run_citeproc_js(docs, style)
    marked = []  # (clusters, singles) per document, with markers: one rendering for both formats
    for doc in docs:
        clusters = [[{"key": c["id"], **({"locator": c["locator"], "label": c["label"]} if "locator" in c else {})}
                     for c in cluster] for cluster in doc.clusters]
        cited = {c["id"] for cluster in doc.clusters for c in cluster}
        marked.append((marked_clusters(doc.items, clusters, style=style),
                       format_items([i for i in doc.items if i["id"] in cited], style=style, in_text=True)))
    out = []
    for fmt in FORMATS:
        for doc, theirs, (doc_marked, singles_marked) in zip(docs, js[fmt], marked):
            ours = rendered_as(doc_marked, fmt)
            singles = {key: to_text(m) if fmt == "text" else to_html(m) for key, m in singles_marked}
            differing = {key for key, text in theirs["singles"].items()
                         if normalise(text) != normalise(singles.get(key, ""))}
            for n, (cluster, mine, their) in enumerate(zip(doc.clusters, ours, theirs["clusters"])):
                out.append(Compared(style, fmt, doc.name, n, _written(cluster), normalise(mine), normalise(their),
                                    any(c["id"] in differing for c in cluster)))
    return out


def summary(compared: list[Compared]) -> str:
    same = sum(c.ours == c.citeproc_js for c in compared)
    clean = [c for c in compared if not c.disambiguation]
    clean_same = sum(c.ours == c.citeproc_js for c in clean)
    by_style = ", ".join(f"{s} {sum(c.ours == c.citeproc_js for c in compared if c.style == s)}"
                         f"/{sum(c.style == s for c in compared)}" for s in STYLES)
    return (f"{same}/{len(compared)} citations identical ({same / len(compared):.2%}); "
            f"{clean_same}/{len(clean)} ({clean_same / max(1, len(clean)):.2%}) of those whose every cite "
            f"agrees alone; {by_style}")


SYNTHETIC_REASONS = (  # (variant, regex on citeproc-js's citation, reason): the first that fits
    ("delimiters", r"", "citeproc-js puts after-collapse-delimiter between all cite groups of a collapsing "
     "citation and cite-group-delimiter between collapsed year suffixes; CSL 1.0.2 puts after-collapse-delimiter "
     "only after a collapsed group, and year-suffix-delimiter between suffixes: we follow the specification"),
    ("note", r"Roe.*\d{4}[a-z]", "disambiguation: citeproc-js adds year suffixes to cites that et-al-subsequent-min "
     "shortens (\"Roe et al. 1999b\"); disambiguation is compared by tests/test_citeproc_js.py"),
    ("note", r"", "in a note style citeproc-js joins the cites of a group with the layout delimiter; CSL 1.0.2: "
     "cite-group-delimiter, default \", \": we follow the specification"),
)


def synthetic_differences() -> list[dict[str, Any]]:
    import re
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        results = run_synthetic(Path(folder))
    out = []
    for name, (ours, theirs) in results.items():
        for n, (mine, their) in enumerate(zip(ours, theirs)):
            if mine == their:
                continue
            reason = next((r for v, pattern, r in SYNTHETIC_REASONS if v == name and re.search(pattern, their)),
                          "unexplained")
            out.append({"variant": name, "cluster": n, "ours": mine, "citeproc-js": their, "reason": reason})
    return out


def main() -> None:
    import icml2026

    if "--synthetic" in sys.argv:
        data = json.loads(KNOWN.read_text(encoding="utf-8"))
        data["synthetic"] = synthetic_differences()
        KNOWN.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"{len(data['synthetic'])} synthetic differences written to {KNOWN}")
        return
    docs = documents(icml2026.load())[::SLOW_STEP]
    compared = [c for style in STYLES for c in compare(docs, style)]
    print(summary(compared))
    if "--write" in sys.argv:
        reasons = json.loads(KNOWN.read_text(encoding="utf-8")).get("reasons", {}) if KNOWN.exists() else {}
        differences = []
        for c in compared:
            if c.ours == c.citeproc_js:
                continue
            differences.append({"style": c.style, "format": c.format, "document": c.document,
                                "cluster": c.cluster, "cites": c.cites, "ours": c.ours,
                                "citeproc-js": c.citeproc_js,
                                "reason": disambiguation_reason(c) if c.disambiguation else classify(c, reasons)})
        data = {"about": "Citations of the generated cluster documents that differ from citeproc-js "
                         "(tests/test_clusters.py, every 8th document), each with its reason. Where a cite of "
                         "the citation differs cited alone too, the difference is the disambiguation's, "
                         "whose rules tests/test_citeproc_js.py compares entry by entry.",
                "reasons": reasons, "differences": differences,
                "synthetic": synthetic_differences()}
        KNOWN.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"{len(differences)} differences written to {KNOWN}")
    else:
        for c in compared:
            if c.ours != c.citeproc_js:
                reason = disambiguation_reason(c) if c.disambiguation else "clean"
                print(f"{c.style} {c.format} {c.document} #{c.cluster} {c.cites} [{reason.split(':')[0]}]\n"
                      f"  ours: {c.ours}\n  js:   {c.citeproc_js}")


ORDER_REASON = ("order of the cites only: the style sorts cites by a name-list key; citeproc-py's key is one "
                "string per list (\"Lin, J. A. et al.\" before \"Lin, J. et al.\" by code point), citeproc-js "
                "compares the names part by part (\"J.\" before \"J. A.\"): the sort-key difference of the "
                "bibliography order, to go when the sort keys are collated as the specification says")


YEAR_SUFFIX_REASON = ("year-suffix: citeproc-js leaves these cites alike without a year suffix; CSL 1.0.2 "
                      "gives every cite still ambiguous one, and so do we")
NAMES_REASON = ("disambiguation: a cite shows other names than citeproc-js's (added names or given names of a "
                "rule not found yet), the cite differing cited alone too")


def disambiguation_reason(c: Compared) -> str:
    """Why a citation with a cite that differs alone differs: our year suffixes, else the names."""
    import re

    def bare(text: str) -> str:
        return re.sub(r"\b(\d{4})[a-z]\b", r"\1", text)
    return YEAR_SUFFIX_REASON if bare(c.ours) == bare(c.citeproc_js) else NAMES_REASON


def classify(c: Compared, reasons: dict[str, str]) -> str:
    """The reason of a difference: the same cites in another order, else the first rule of
    *reasons* ("style|pattern": reason) that fits."""
    import re

    def cites(text: str) -> list[str]:
        return sorted(piece.strip("()[] ") for piece in re.split(r"[;,] (?=\S)", text))

    if cites(c.ours) == cites(c.citeproc_js):
        return ORDER_REASON
    for rule, reason in reasons.items():
        style, _, pattern = rule.partition("|")
        if style in ("*", c.style) and re.search(pattern, c.ours + "\n" + c.citeproc_js):
            return reason
    return "unexplained"


if __name__ == "__main__":
    main()
