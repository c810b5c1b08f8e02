"""``icml2026 check --format sarif``: the findings as a SARIF 2.1.0 log (GitHub code scanning).

One rule per flagged status; one result per flagged entry, located at the entry's first
line in its file (a URI relative to the current folder when the file is under it); cited
keys missing from every ``.bib`` are results located in the ``.aux`` file.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any
from urllib.parse import quote

from .._version import __version__
from . import CheckResult, EntryCheck

SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
RULES = {
    "mismatch": ("error", "An ICML 2026 paper whose entry states a wrong fact (title, authors, year, pages, "
                 "venue, id)."),
    "not-found": ("error", "The entry claims ICML 2026, but no paper of the volume is it: possibly fabricated."),
    "preprint": ("warning", "A preprint of a paper published at ICML 2026: cite the published version "
                 "(icml2026 fix)."),
    "duplicate": ("warning", "A second entry for a paper the bibliography already cites."),
    "ambiguous": ("warning", "The entry may be an ICML 2026 paper, but which one is not certain."),
    "unreadable": ("error", "The entry is not valid BibTeX (BibTeX would skip or misread it); the message says "
                   "what is wrong."),
    "missing": ("error", "A key the document cites is defined in no bibliography checked."),
}


def render(result: CheckResult) -> dict[str, Any]:
    """The SARIF log of *result* (a JSON-ready dict)."""
    rule_ids = list(RULES)
    results = [_result(e, rule_ids) for e in result.entries if e.flagged]
    results += [_missing(key, result.aux or "", rule_ids) for key in result.missing]
    driver = {"name": "icml2026 check", "version": __version__,
              "informationUri": "https://proceedings.mlr.press/v306/",
              "rules": [{"id": rule, "name": rule.title().replace("-", ""), "shortDescription": {"text": text},
                         "defaultConfiguration": {"level": level}} for rule, (level, text) in RULES.items()]}
    return {"$schema": SCHEMA, "version": "2.1.0", "runs": [{"tool": {"driver": driver}, "results": results}]}


def _result(entry: EntryCheck, rule_ids: list[str]) -> dict[str, Any]:
    text = f"{entry.key or '(no key)'}: {entry.message()}"
    return {"ruleId": entry.status, "ruleIndex": rule_ids.index(entry.status), "level": RULES[entry.status][0],
            "message": {"text": text}, "locations": [_location(entry.file, entry.line)]}


def _missing(key: str, aux: str, rule_ids: list[str]) -> dict[str, Any]:
    return {"ruleId": "missing", "ruleIndex": rule_ids.index("missing"), "level": RULES["missing"][0],
            "message": {"text": f"{key}: cited, but defined in no bibliography checked"},
            "locations": [_location(aux, 1)]}


def _location(file: str, line: int) -> dict[str, Any]:
    return {"physicalLocation": {"artifactLocation": {"uri": artifact_uri(file)},
                                 "region": {"startLine": max(line, 1)}}}


def artifact_uri(file: str) -> str:
    """*file* as a URI reference: relative (``/``-separated, percent-encoded) under the current
    folder, as code scanning maps it onto the repository; else a ``file://`` URI."""
    if file in ("-", "<stdin>"):
        return "stdin"
    path = Path(file)
    try:
        relative = Path(os.path.relpath(path.resolve(), Path.cwd().resolve()))
    except ValueError:  # another drive (Windows)
        relative = path
    if not relative.is_absolute() and not relative.as_posix().startswith("../"):
        return quote(relative.as_posix())
    return path.resolve().as_uri()
