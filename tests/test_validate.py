"""The malformed-record corpus: each bad file gives exactly the expected problem line(s).

Cases are built from a valid packaged record by one mutation each, written to a
temporary folder, and checked through the real CLI (``icml2026 validate``).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any, Callable

import pytest

from icml2026.cli import main
from icml2026.store import dumps_record, load_keys
from icml2026.validation import validate_paths

RID = "pmlr-v306-zhao26ac"
# A valid packaged record, in the canonical one-file form of `icml2026 import -o DIR`.
BASE_TEXT = dumps_record(load_keys([RID])[0].to_dict())  # type: ignore[index]


def base() -> dict[str, Any]:
    return json.loads(BASE_TEXT)


def mutate(fn: Callable[[dict[str, Any]], None]) -> bytes:
    record = base()
    fn(record)
    return json.dumps(record, ensure_ascii=False).encode("utf-8")


def delete(*names: str) -> Callable[[dict[str, Any]], None]:
    def fn(record: dict[str, Any]) -> None:
        for name in names:
            record.pop(name)
    return fn


def put(pointer: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def fn(record: dict[str, Any]) -> None:
        *parents, last = pointer.strip("/").split("/")
        target = record
        for part in parents:
            target = target[int(part)] if isinstance(target, list) else target[part]
        if isinstance(target, list):
            target[int(last)] = value
        else:
            target[last] = value
    return fn


# (case name, file content, expected "record: pointer: message" tails, one per problem)
CASES: list[tuple[str, bytes, list[str]]] = [
    ("not-json", b'{"id": "x",', ["-: /: invalid JSON: Expecting property name enclosed in double quotes (line 1, column 12)"]),
    ("empty-file", b"", ["-: /: invalid JSON: Expecting value (line 1, column 1)"]),
    ("invalid-utf8", b'{"id": "caf\xe9"}', ["-: /: not valid UTF-8 (invalid byte at offset 11)"]),
    ("bom", b"\xef\xbb\xbf" + BASE_TEXT.encode("utf-8"),
     ["-: /: file starts with a byte-order mark; save as UTF-8 without BOM"]),
    ("top-level-string", b'"hello"', ["-: /: a record must be a JSON object, not str"]),
    ("missing-title", mutate(delete("title", "title_protect")), [f"{RID}: /: title is required",
                                                         f"{RID}: /provenance/title: names field /title which is absent",
                                                         f"{RID}: /provenance/title_protect: names field /title_protect which is absent"]),
    ("missing-authors", mutate(delete("authors")),
     [f"{RID}: /: authors is required", f"{RID}: /provenance/authors: names field /authors which is absent"]),
    ("title-wrong-type", mutate(put("/title", 42)),
     [f"{RID}: /title: must be of type string, not int", f"{RID}: /title_protect: protection ranges given without a title"]),
    ("empty-title", mutate(put("/title", "")),
     [f"{RID}: /title: must not be empty", f"{RID}: /title_protect/0: range [65, 68) is outside the title (0 characters)"]),
    ("unknown-field", mutate(put("/venue", "ICML")), [f"{RID}: /: unknown field(s): venue",
                                                        f"{RID}: /venue: no provenance: add this pointer to 'provenance' with its source"]),
    ("bad-status", mutate(put("/status/state", "done")), [f"{RID}: /status/state: 'done' is not one of \"complete\", \"incomplete\""]),
    ("incomplete-without-missing", mutate(put("/status", {"state": "incomplete"})), [f"{RID}: /status: missing is required"]),
    ("missing-lists-present-field", mutate(put("/status", {"state": "incomplete", "missing": ["title"]})),
     [f"{RID}: /status/missing: 'title' is listed as missing but is present"]),
    ("pages-reversed", mutate(put("/pages", {"first": 20, "last": 10})), [f"{RID}: /pages: first page 20 is after last page 10"]),
    ("pages-string", mutate(put("/pages/first", "12")), [f"{RID}: /pages/first: must be of type integer, not str"]),
    ("bad-citation-key", mutate(put("/citation_key", "Zhao 2026,x")),
     [f"{RID}: /citation_key: 'Zhao 2026,x' does not have the expected form (pattern ^[a-z][a-z0-9]*$)"]),
    ("unbalanced-brace", mutate(put("/title", "A {VQA Benchmark for Complex Scientific Reasoning and friends, revisited again")),
     [f"{RID}: /title: unbalanced braces: 1 '{{' not closed"]),
    ("closing-brace-first", mutate(put("/abstract", "We show } that")), [f"{RID}: /abstract: unbalanced braces: '}}' without '{{'"]),
    ("unclosed-math", mutate(put("/abstract", "costs $O(n log n) time")), [f"{RID}: /abstract: unclosed '$' (inline math) at character 6"]),
    ("unclosed-emphasis", mutate(put("/abstract", "a *bold claim")), [f"{RID}: /abstract: unclosed '*' (emphasis) at character 2"]),
    ("control-character", mutate(put("/abstract", "line one\u0007bell")),
     [f"{RID}: /abstract: {chr(39)}line one\\x07bell{chr(39)} does not have the expected form (pattern ^[^\\u0000-\\u001f\\u007f]*$)",
      f"{RID}: /abstract: contains control character U+0007"]),
    ("not-nfc", mutate(put("/authors/0/family", "Mu\u0308ller")), [f"{RID}: /authors/0/family: text is not in Unicode NFC form"]),
    ("huge-abstract", mutate(put("/abstract", "x" * 10_000_000)),
     [f"{RID}: /abstract: text is 10000000 characters long; at most 20000 allowed"]),
    ("bad-url", mutate(put("/links/code", "github.com/x y")),
     [f"{RID}: /links/code: 'github.com/x y' does not have the expected form (pattern ^https?://[^\\s\"<>{{}}|\\\\^`]+$)"]),
    ("openreview-link-mismatch", mutate(put("/links/openreview", "https://openreview.net/forum?id=XXXXXXXXXX")),
     [f"{RID}: /links/openreview: link does not point at OpenReview forum Pj1Z7dWm4v"]),
    ("no-provenance", mutate(lambda r: r["provenance"].pop("/pages")),
     [f"{RID}: /pages: no provenance: add this pointer to 'provenance' with its source"]),
    ("unknown-source", mutate(lambda r: r["provenance"].__setitem__("/pages", "nowhere")),
     [f"{RID}: /provenance/pages: unknown source 'nowhere'"]),
    ("unknown-proceedings", mutate(put("/proceedings", "pmlr-v999")), [f"{RID}: /proceedings: unknown proceedings 'pmlr-v999'"]),
    ("protect-out-of-range", mutate(put("/title_protect", [[5, 500]])),
     [f"{RID}: /title_protect/0: range [5, 500) is outside the title (111 characters)"]),
    ("person-without-family", mutate(put("/authors/1", {"given": "Yiyang"})),
     [f"{RID}: /authors/1: a person needs exactly one of family or literal"]),
    ("latex-in-name", mutate(put("/authors/0/family", "M{\\\"u}ller")),
     [f"{RID}: /authors/0/family: 'M{{\\\\\"u}}ller' does not have the expected form (pattern ^[^\\u0000-\\u001f\\u007f{{}}\\\\$]*$)"]),
    ("bad-arxiv", mutate(put("/identifiers/arxiv", "arXiv:2601.1")),
     [f"{RID}: /identifiers/arxiv: 'arXiv:2601.1' does not have the expected form (pattern ^[0-9]{{4}}\\.[0-9]{{4,5}}$)",
      f"{RID}: /identifiers/arxiv: no provenance: add this pointer to 'provenance' with its source"]),
]


def test_corpus_is_large_enough() -> None:
    assert len(CASES) >= 25


def test_packaged_data_is_valid() -> None:
    assert validate_paths() == []


@pytest.mark.parametrize("name,content,expected", CASES, ids=[c[0] for c in CASES])
def test_malformed_file(tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str,
                        content: bytes, expected: list[str]) -> None:
    path = tmp_path / f"{name}.json"
    path.write_bytes(content)
    code = main(["validate", "--quiet", str(path)])
    out = capsys.readouterr()
    assert code == 1
    assert out.err == ""
    assert out.out.splitlines() == [f"{path}: {tail}" for tail in expected]


def test_duplicate_keys_across_files(tmp_path: Path) -> None:
    first = base()
    second = copy.deepcopy(first)
    second["id"] = "pmlr-v306-copy26a"
    second["alias_keys"] = []
    (tmp_path / "a.json").write_text(json.dumps(first), encoding="utf-8")
    (tmp_path / "b.json").write_text(json.dumps(second), encoding="utf-8")
    problems = [str(p) for p in validate_paths([tmp_path])]
    assert problems == [
        f"{tmp_path / 'b.json'}: pmlr-v306-copy26a: /citation_key: 'zhao2026benchmarking' is already "
        f"used by {RID} ({tmp_path / 'a.json'})"
    ]


def test_all_problems_reported_at_once(tmp_path: Path) -> None:
    record = base()
    record["pages"] = {"first": 9, "last": 1}
    record["abstract"] = "unclosed $math"
    record.pop("title")
    path = tmp_path / "many.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    pointers = [p.pointer for p in validate_paths([path])]
    assert sorted(pointers) == ["", "/abstract", "/pages", "/provenance/title", "/title_protect"]


def test_jsonl_reports_line_numbers(tmp_path: Path) -> None:
    path = tmp_path / "records.jsonl"
    path.write_text(json.dumps(base()) + "\n{broken\n", encoding="utf-8")
    assert [str(p) for p in validate_paths([path])] == [
        f"{path}:2: -: /: invalid JSON: Expecting property name enclosed in double quotes (column 2)"
    ]


def test_missing_path_is_a_problem_not_a_crash(tmp_path: Path) -> None:
    missing = tmp_path / "nope.json"
    assert [str(p) for p in validate_paths([missing])] == [f"{missing}: -: /: no such file or folder"]


def json_cases() -> list[tuple[str, Any]]:
    out = [("valid", json.loads(BASE_TEXT.encode("utf-8")))]
    for name, content, _ in CASES:
        try:
            out.append((name, json.loads(content.decode("utf-8-sig"))))
        except (UnicodeDecodeError, json.JSONDecodeError):
            continue  # never reaches the schema
    return out


@pytest.mark.parametrize("name,data", json_cases(), ids=[c[0] for c in json_cases()])
def test_fast_validator_agrees_with_jsonschema(name: str, data: Any) -> None:
    """jsonschema-rs only short-cuts valid records; it must never call an invalid one valid."""
    from icml2026.validation import fast_validator, validator

    fast = fast_validator("paper")
    if fast is None:
        pytest.skip("jsonschema-rs is not installed (optional extra 'fast')")
    assert fast.is_valid(data) == (next(validator("paper").iter_errors(data), None) is None)


def test_jsonl_bad_utf8_line_is_reported_and_the_rest_checked(tmp_path: Path) -> None:
    path = tmp_path / "records.jsonl"
    path.write_bytes(BASE_TEXT.encode("utf-8").replace(b"\n", b"") + b"\n" + b'{"id": "caf\xe9"}\n')
    assert [str(p) for p in validate_paths([path])] == [
        f"{path}:2: -: /: not valid UTF-8 (invalid byte at offset 11)"
    ]


def test_progress_reports_every_thousand_records_and_the_end(tmp_path: Path) -> None:
    record = base()
    lines = []
    for n in range(2500):
        record["id"], record["citation_key"], record["alias_keys"] = f"rec-{n}", f"rec{n}x", []
        lines.append(json.dumps(record))
    path = tmp_path / "many.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    seen: list[tuple[int, int]] = []
    assert validate_paths([path], progress=lambda done, total: seen.append((done, total))) == []
    assert seen == [(1000, 2500), (2000, 2500), (2500, 2500)]
