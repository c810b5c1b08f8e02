"""The whole volume as one document, ours against citeproc-js (a check run by hand, not a test).

    python tests/citeproc_js/whole_volume.py apa            # ~3 min: citeproc-js ~90 s, ours ~50 s
    python tests/citeproc_js/whole_volume.py apa --out d.json

The collision oracle (``tests/test_citeproc_js.py``) cuts a family of more than 30 papers into
documents of at most 30; this puts all 6,552 complete papers in one document, as the shipped
``dist-data/references-*`` are, and prints how many bibliography entries and in-text citations
(text format) differ, by class (``update_known_differences.classify``) and by family.
``tests/test_citeproc_js.py::test_whole_volume_as_one_apa_document`` holds the APA case.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # tests/: test_citeproc_js
sys.path.insert(0, str(HERE))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("style", help="a style of tests/test_citeproc_js.py STYLES, e.g. apa")
    parser.add_argument("--out", help="write the differing entries to this JSON file")
    args = parser.parse_args()
    import test_citeproc_js as oracle
    from update_known_differences import classify

    import icml2026
    from icml2026.exporters.csl import to_csl

    items = [to_csl(paper, abstract=False) for paper in icml2026.load().complete]
    theirs = oracle.run_citeproc_js(items, args.style, formats=("text",), timeout=3600)["text"]
    bibliography, cites = oracle.our_entries(items, args.style)["text"]
    ours = dict(bibliography)
    differing = {
        "bibliography": [(key, oracle.normalise(ours[key]), oracle.normalise(entry))
                         for key, entry in zip(theirs["ids"], theirs["entries"])
                         if oracle.normalise(ours[key]) != oracle.normalise(entry)],
        "citation": [(key, oracle.normalise(mine), oracle.normalise(entry))
                     for (key, mine), entry in zip(cites, theirs["citations"])
                     if oracle.normalise(mine) != oracle.normalise(entry)],
    }
    print(f"{args.style}: {len(items)} papers; order the same: {[k for k, _ in bibliography] == theirs['ids']}")
    for kind, rows in differing.items():
        classes = Counter(classify(mine, entry) or "unclassified" for _, mine, entry in rows)
        families = Counter(re.match(r"[a-z]*", key).group(0) for key, _, _ in rows)  # type: ignore[union-attr]
        print(f"  {kind}: {len(rows)} differ ({1 - len(rows) / len(items):.2%} identical); "
              f"{dict(classes)}; most: {families.most_common(8)}")
    if args.out:
        Path(args.out).write_text(json.dumps(differing, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
