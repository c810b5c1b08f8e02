"""What PMLR's source said for each packaged paper: the baseline a published entry is compared with.

PMLR's published bibliography is generated from the volume's paper pages,
which are generated from the volume's BibTeX, the file the packaged records
were built from.  So PMLR changed a field exactly when its published entry,
read by the importer, differs from **that source entry** read by the importer,
not from our record: the build repaired titles (a space before a colon, a
final full stop), protected proper nouns and fixed names, and none of those
repairs is PMLR's change.

The baseline is one short hash per field (:data:`FIELDS`) of each paper's
source entry as the importer reads it, in ``source-hashes.tsv`` next to this
module.  It is generated from ``tools/sources/`` by::

    python -m icml2026.update.baseline [--sources tools/sources] [--check]

and the test suite regenerates it and fails on a difference.  Hashes rather
than values: the file stays small, and it does not depend on the curation
rules (a new repair in the build changes nothing here).
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

from .. import pmlr
from .layer import get_value

# The fields PMLR's template writes per paper, as JSON pointers of a record; layer.POINTERS too.
FIELDS = ("/title", "/title_protect", "/authors", "/authors_complete", "/pages",
          "/links/proceedings", "/links/pdf", "/identifiers/doi")
FILE = Path(__file__).with_name("source-hashes.tsv")
SOURCE_FILE = "corpora/pmlr-v306-facts.bib"
VOLUME = 306
HEADER = "# pmlr id\thashes of " + " ".join(FIELDS) + f" as the importer reads {SOURCE_FILE}\n"


def field_hash(value: Any) -> str:
    """Eight characters (48 bits) of SHA-256 over the value's canonical JSON (None: absent)."""
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return base64.urlsafe_b64encode(hashlib.sha256(text.encode("utf-8")).digest()[:6]).decode("ascii")


def published_values(record: dict[str, Any]) -> dict[str, Any]:
    """The :data:`FIELDS` of an imported record as PMLR's template states them.

    A source entry has no ``url``/``pdf``: PMLR's pages give the paper's page and
    PDF by the volume's URL pattern, so those are derived from the id, as the
    template's are.
    """
    values = {pointer: get_value(record, pointer) for pointer in FIELDS}
    pmlr_id = get_value(record, "/identifiers/pmlr")
    if pmlr_id:
        values["/links/proceedings"] = values["/links/proceedings"] or pmlr.paper_url(VOLUME, pmlr_id)
        values["/links/pdf"] = values["/links/pdf"] or pmlr.pdf_url(VOLUME, pmlr_id)
    return values


def hashes_of(record: dict[str, Any]) -> tuple[str, ...]:
    values = published_values(record)
    return tuple(field_hash(values[pointer]) for pointer in FIELDS)


def build_text(sources: Path) -> str:
    """The text of :data:`FILE` from the source BibTeX in *sources*."""
    from ..importers.bibtex import read_bibtex_report

    path = sources / SOURCE_FILE
    result = read_bibtex_report(path)
    if result.problems:
        raise SystemExit(f"{path}: {len(result.problems)} entries not imported: {result.problems[0]}")
    rows = sorted((paper.identifiers.pmlr or "", hashes_of(paper.to_dict())) for paper in result.papers)
    missing = [n for n, (pmlr_id, _) in enumerate(rows) if not pmlr_id]
    if missing:
        raise SystemExit(f"{path}: {len(missing)} entries without a PMLR id")
    return HEADER + "".join(f"{pmlr_id}\t{' '.join(h)}\n" for pmlr_id, h in rows)


@lru_cache(maxsize=1)
def baseline() -> dict[str, tuple[str, ...]]:
    """PMLR id → the hashes of its source entry's :data:`FIELDS` (empty if the file is missing)."""
    try:
        text = FILE.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    found = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            pmlr_id, _, hashes = line.partition("\t")
            found[pmlr_id] = tuple(hashes.split(" "))
    return found


@lru_cache(maxsize=1)
def titles() -> dict[str, str]:
    """Hash of a source title → the PMLR id of its paper ("" when two papers share it)."""
    found: dict[str, str] = {}
    for pmlr_id, row in baseline().items():
        found[row[0]] = "" if row[0] in found else pmlr_id
    return found


def source_hash(pmlr_id: str, pointer: str) -> str | None:
    """The hash of *pointer* of paper *pmlr_id*'s source entry; None for a paper not in it."""
    row = baseline().get(pmlr_id)
    return row[FIELDS.index(pointer)] if row else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Write (or --check) " + FILE.name + " from the sources.")
    parser.add_argument("--sources", type=Path, default=Path("tools/sources"))
    parser.add_argument("--check", action="store_true", help="compare only; exit 1 on a difference")
    args = parser.parse_args(argv)
    text = build_text(args.sources)
    current = FILE.read_text(encoding="utf-8") if FILE.exists() else None
    if args.check:
        print("up to date" if current == text else f"stale: {FILE}")
        return 0 if current == text else 1
    FILE.write_text(text, encoding="utf-8")
    print(f"wrote {FILE} ({text.count(chr(10)) - 1} papers)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
