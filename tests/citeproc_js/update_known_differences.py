"""Rewrite ``tests/data/citeproc-known-differences.json`` from a fresh comparison with citeproc-js.

    python tests/citeproc_js/update_known_differences.py            # every colliding set (~30 min)
    python tests/citeproc_js/update_known_differences.py --step 4   # every 4th set (the slow test's) and the quick sample

Two sections: ``differences`` (the complete seed papers and the synthetic stress
records of ``tests/test_citeproc_js.py``; an existing reason is kept) and
``collisions`` (the sets of volume papers sharing first author and year).
A new difference gets the reason of its class (:func:`classify`); one that
fits no class is printed and written with a reason to be filled in, which
``test_known_differences_have_reasons`` rejects: look at it first.  Prints
the agreement per style.
"""

from __future__ import annotations

import argparse
import difflib
import json
import re
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # tests/: test_citeproc_js and conftest


def _oracle() -> Any:
    import test_citeproc_js

    return test_citeproc_js


QUOTES = str.maketrans({c: "'" for c in "‘’“”\""})
REASONS = {
    "substitute": "subsequent-author-substitute ('———') on a different one of two entries: they share "
                  "the shown names ('Fang, Xiang, Wanlong Fang' with and without 'et al.') and come in the other "
                  "order (citeproc-py's sort key holds the rendered author list, citeproc-js's the names only), "
                  "so the other one repeats its predecessor's names.",
    "quotes": "Quotation marks: citeproc-js turns straight quotes in the data into typographic ones and "
              "alternates them inside quoted titles with its own flip-flop parser; ours handles the common "
              "cases only (a quote next to other punctuation or inside nocase markup differs).",
    "case": "Title case: citeproc-js's title-casing rules differ from ours (fix 7/12) on this word: "
            "a word after a slash, an apostrophe or a quotation mark, a one-letter part of a hyphenated "
            "word, or a word it treats as a stop word ({words}).",
    "initials": "Initials of an unusual given name ({words}): citeproc-py initializes hyphenated or "
                "run-together given names differently from citeproc-js.",
    "given": "Given-name expansion ({words}): citeproc-js records in its name registry every name it "
             "renders, including those of the bibliography, which the oracle renders before the citations "
             "(the volume editor 'Tong Zhang' then makes every other 'T. Zhang' ambiguous; a bibliography "
             "entry sees the co-authors its cites showed); ours decides from the document's cites and sort "
             "keys only.",
    "names": "Disambiguation by added or expanded names ({words}): which cites of a set of identical cites "
             "get more names, or their given names, differs. Ours follows CSL 1.0.2 as written "
             "(icml2026.exporters.disambiguation: a method is kept for the cites it tells apart; names are "
             "added to the set while that separates more of it); citeproc-js, used only as a black box, "
             "decides some sets otherwise (it adds names to cites their expanded names already tell apart, "
             "and not to others). The entry follows its cite's names.",
    "unexplained": "Which cites of an ambiguous set get added or expanded names ({words}): our reading of "
                   "the CSL 1.0.2 specification (icml2026.exporters.disambiguation) against a rule of "
                   "citeproc-js not yet explained; citeproc-js, a black box here, adds names to cites their "
                   "expanded names already tell apart and a different number of names to cites of one set "
                   "(in the bibliography also the volume editor 'Tong Zhang', whom its name registry "
                   "expands). The entry follows its cite's names.",
    "markup": "Rich text in the title (math or markup in <span class=\"nocase\">, <sup>/<sub>): citeproc-js "
              "parses it differently ({words}).",
}


def changed_words(ours: str, theirs: str) -> str:
    a, b = ours.split(), theirs.split()
    pairs = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if tag != "equal":
            pairs.append(f"'{' '.join(a[i1:i2])}' vs citeproc-js '{' '.join(b[j1:j2])}'")
    return "; ".join(pairs[:3])


def classify(ours: str, theirs: str) -> str | None:
    words = changed_words(ours, theirs)
    if ("———" in ours) != ("———" in theirs):
        return REASONS["substitute"]
    if ours.translate(QUOTES) == theirs.translate(QUOTES):
        return REASONS["quotes"]
    if ours.casefold() == theirs.casefold() or ours.translate(QUOTES).casefold() == theirs.translate(QUOTES).casefold():
        return REASONS["case"].format(words=words)
    if _given_name_only(words):
        return REASONS["given"].format(words=words)
    if _names_or_suffix_only(ours, theirs):
        return REASONS["names"].format(words=words)
    if re.search(r"[<$^_]|&lt;", words):
        return REASONS["markup"].format(words=words)
    if re.fullmatch(r"(?:'[^']*' vs citeproc-js '[^']*'(?:; )?)+", words) and re.search(r"[A-Z]\.-?[A-Z]|[A-Z]-[A-Z]", words):
        return REASONS["initials"].format(words=words)
    return None


def _names_or_suffix_only(ours: str, theirs: str) -> bool:
    """The two differ only before the year (the names) or in the year suffix."""
    def tail(text: str) -> str:
        text = re.sub(r"(\b\d{4})[a-z]{1,2}\b", r"\1", text)
        year = re.search(r"\b\d{4}\b", text)
        return text[year.start():] if year else text
    def head(text: str) -> str:
        return text.split("“", 1)[-1] if "“" in text else ""
    return tail(ours) == tail(theirs) or (head(ours) != "" and head(ours) == head(theirs))


def _given_name_only(words: str) -> bool:
    """Every change is an initial against a full given name ("T." vs "Tianren", "R.," vs "Ruisi,")."""
    pairs = re.findall(r"'([^']*)' vs citeproc-js '([^']*)'", words)
    if not pairs:
        return False
    for ours, theirs in pairs:
        short, full = sorted((ours.strip("(),;"), theirs.strip("(),;")), key=len)
        if not (re.fullmatch(r"[A-Z]\.", short) and full[:1] == short[:1] and full[1:].isalpha()):
            return False
    return True


def record(entry: Any, reason: str | None) -> dict:
    return {"style": entry.style, "format": entry.format, "kind": entry.kind, "id": entry.id,
            "reason": reason or f"TODO: explain ({changed_words(entry.ours, entry.citeproc_js)})",
            "ours": entry.ours, "citeproc_js": entry.citeproc_js}


def report(label: str, entries: list[Any]) -> None:
    same = sum(e.ours == e.citeproc_js for e in entries)
    print(f"{label}: {same}/{len(entries)} identical ({same / len(entries):.2%})")
    for style in _oracle().STYLES:
        mine = [e for e in entries if e.style == style]
        print(f"  {style:<30} {sum(e.ours == e.citeproc_js for e in mine)}/{len(mine)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--step", type=int, default=1, help="compare every STEP-th colliding set (default 1)")
    args = parser.parse_args()
    import icml2026
    from icml2026.exporters.csl import to_csl

    oracle = _oracle()
    volume = icml2026.load()
    data = json.loads(oracle.KNOWN.read_text(encoding="utf-8"))
    old = {(d["style"], d["format"], d["kind"], d["id"]): d for d in data["differences"]}

    seed = [to_csl(p, abstract=False) for p in volume.select(oracle_seed_ids()).complete]
    seeded = [e for s in oracle.STYLES for e in oracle.compare_style(seed, s)]
    stress = [e for s in oracle.STYLES for e in oracle.compare_style(oracle.stress_items(), s)]
    report("seed papers", seeded)
    differences = []
    for entry in seeded + stress:
        if entry.ours != entry.citeproc_js:
            kept = old.get(entry.key, {}).get("reason")
            differences.append(record(entry, kept or classify(entry.ours, entry.citeproc_js)))

    every = oracle.collision_sets(volume)
    # the slow test's sets and the quick test's sample, each set once
    quick = {id(s) for s in oracle.quick_sample(every)}
    sets = [s for n, s in enumerate(every) if n % args.step == 0 or id(s) in quick]
    entries = [e for s in oracle.STYLES for e in oracle.compare_documents(sets, s)]
    report(f"colliding sets ({len(sets)} sets, {sum(map(len, sets))} papers)", entries)
    # in a colliding set, what no class explains is the choice of names: one honest reason for it
    collisions = [record(e, classify(e.ours, e.citeproc_js)
                         or REASONS["unexplained"].format(words=changed_words(e.ours, e.citeproc_js)))
                  for e in entries if e.ours != e.citeproc_js]
    for item in differences + collisions:
        if item["reason"].startswith("TODO"):
            print(f"unclassified: {item['style']} {item['format']} {item['kind']} {item['id']}\n"
                  f"  ours:        {item['ours']}\n  citeproc-js: {item['citeproc_js']}")
    data["differences"] = differences
    data["collisions"] = collisions
    data["about"] = (
        "Entries where icml2026's formatter (citeproc-py 0.11.1 + icml2026.exporters.citeproc_fixes and "
        ".disambiguation) and citeproc-js 2.4.63 disagree, after whitespace and entity-spelling "
        "normalisation. 'differences': the complete seed papers and the synthetic stress records of "
        "tests/test_citeproc_js.py (ids 'stress-…'), each formatted as one document. 'collisions': the sets "
        "of complete volume papers whose first author family name and year collide (tests/test_citeproc_js.py "
        "collision_sets, cut into documents of at most 30), each set cited together as one document. Keyed by "
        "style, format, kind (bibliography or citation) and CSL id; 'ours'/'citeproc_js' show the outputs. "
        "tests/test_citeproc_js.py fails on any compared difference not listed here and on any listed one that "
        "no longer occurs. Regenerate with tests/citeproc_js/update_known_differences.py.")
    oracle.KNOWN.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {len(differences)} + {len(collisions)} differences to {oracle.KNOWN}")
    return 0


def oracle_seed_ids() -> list[str]:
    from conftest import seed_ids

    return seed_ids()


if __name__ == "__main__":
    raise SystemExit(main())
