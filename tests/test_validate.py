"""The malformed-record corpus: each bad file gives exactly the expected problem line(s).

Cases are built from a valid packaged record by one mutation each, written to a
temporary folder, and checked through the real CLI (``icml2026 validate``).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from icml2026.cli import main
from icml2026.store.packaged import load_keys
from icml2026.store.records import dumps_record
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


# -- hostile files: one line each, never a traceback or a hang -------------------------------

def _record_text(**changes: Any) -> str:
    record = base()
    record.update(changes)
    return json.dumps(record, ensure_ascii=False)


def _impossible_date() -> str:
    record = base()
    next(iter(record["sources"].values()))["retrieved"] = "2026-02-30"
    return json.dumps(record)


HOSTILE: list[tuple[str, str, str]] = [
    ("long-int.json", '{"pages": {"first": ' + "9" * 5000 + "}}",
     "-: /: invalid JSON: a number has more than 4300 digits"),
    ("long-int.jsonl", '{"pages": {"first": ' + "9" * 5000 + "}}\n",
     "-: /: invalid JSON: a number has more than 4300 digits"),
    ("deep.jsonl", "[" * 100_000 + "]" * 100_000 + "\n", "-: /: invalid JSON: nested too deeply"),
    ("deep.json", "[" * 100_000 + "]" * 100_000, "-: /: invalid JSON: nested too deeply"),
    ("nan.json", _record_text().replace('"first": 1', '"first": NaN'), "-: /: invalid JSON: NaN is not a JSON number"),
    ("surrogate.json", _record_text(abstract="a\\ud800b").replace("a\\\\ud800b", "a\\ud800b"),
     f"{RID}: /abstract: contains a lone surrogate U+D800 (not a character)"),
    ("float.json", _record_text(pages={"first": 1.0, "last": 21}),
     f"{RID}: /pages/first: 1.0 is written as a float; write the integer 1"),
    ("date.json", _impossible_date(),
     (f"{RID}: /sources/{next(iter(base()['sources']))}/retrieved: '2026-02-30' is not a date that "
      "exists (day is out of range for month)")),
]


@pytest.mark.parametrize("name,content,expected", HOSTILE, ids=[h[0] for h in HOSTILE])
def test_hostile_file_is_one_problem_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str,
                                          content: str, expected: str) -> None:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    where = f"{path}:1" if name.endswith(".jsonl") else str(path)
    assert main(["validate", "--quiet", str(path)]) == 1
    out = capsys.readouterr()
    assert out.err == "" and out.out.splitlines() == [f"{where}: {expected}"]


def test_hostile_data_is_a_one_line_error_in_export(tmp_path: Path) -> None:
    import subprocess
    import sys

    for name, content, _ in HOSTILE:
        path = tmp_path / name
        path.write_text(content, encoding="utf-8")
        run = subprocess.run([sys.executable, "-m", "icml2026", "export", "--data", str(path)],
                             capture_output=True, text=True, timeout=60, check=False)
        assert run.returncode == 1 and run.stdout == "", name
        assert run.stderr.startswith(f"icml2026: error: {path}") and run.stderr.count("\n") == 1, run.stderr


def test_fifo_in_a_folder_is_skipped_not_read(tmp_path: Path) -> None:
    import os

    (tmp_path / "a.json").write_text(BASE_TEXT, encoding="utf-8")
    os.mkfifo(tmp_path / "x.json")  # opening it for reading would block forever
    assert validate_paths([tmp_path]) == []
    assert [p.id for p in load_folder(tmp_path)] == [RID]


def load_folder(folder: Path) -> list[Any]:
    import icml2026

    return list(icml2026.load([folder]))


def test_symlink_loop_and_dangling_link_say_what_they_are(tmp_path: Path) -> None:
    loop, dangling = tmp_path / "loop.json", tmp_path / "gone.json"
    loop.symlink_to(loop.name)
    dangling.symlink_to("nowhere.json")
    assert [str(p) for p in validate_paths([tmp_path])] == [
        f"{dangling}: -: /: a symbolic link to nothing",
        f"{loop}: -: /: cannot read file: a loop of symbolic links",
    ]
    assert [str(p) for p in validate_paths([loop])] == [f"{loop}: -: /: cannot read file: a loop of symbolic links"]


def test_folder_and_its_proceedings_named_twice_are_read_once(tmp_path: Path) -> None:
    (tmp_path / "proceedings").mkdir()
    (tmp_path / "a.json").write_text(BASE_TEXT, encoding="utf-8")
    assert validate_paths([tmp_path, tmp_path / "a.json", tmp_path / "proceedings"]) == []


# -- completeness is decided from the data -------------------------------------------------

def proceedings_without(*names: str, pid: str = "bibtex-nowhere-2026") -> dict[str, Any]:
    from icml2026.store.records import data_dir

    proc = json.loads((data_dir() / "proceedings" / "pmlr-v306.json").read_text(encoding="utf-8"))
    proc["id"] = pid
    for name in names:
        proc.pop(name)
    return proc


@pytest.mark.parametrize("gone", [("year",), ("booktitle",), ("booktitle", "year")])
def test_complete_paper_needs_booktitle_and_year_of_its_proceedings(tmp_path: Path, gone: tuple[str, ...]) -> None:
    import icml2026

    (tmp_path / "proceedings").mkdir()
    (tmp_path / "proceedings" / "p.json").write_text(json.dumps(proceedings_without(*gone)), encoding="utf-8")
    record = base()
    record["proceedings"] = "bibtex-nowhere-2026"
    (tmp_path / "paper.json").write_text(json.dumps(record), encoding="utf-8")
    missing = " or ".join(gone)
    assert [str(p) for p in validate_paths([tmp_path])] == [(
        f"{tmp_path / 'paper.json'}: {RID}: /proceedings: marked complete, but proceedings "
        f"'bibtex-nowhere-2026' has no {missing}: it cannot be cited (mark the paper incomplete with "
        f"missing {', '.join(gone)}, or complete the proceedings)")]
    from icml2026.exporters import citable

    papers = icml2026.load([tmp_path], validate=False)  # read anyway: no exporter may crash
    assert papers[0].is_complete and not citable(papers[0])  # marked complete, but not by the data
    skipped: list[str] = []
    for fmt in ("bibtex", "biblatex", "csl-json", "ris", "citation"):
        assert icml2026.export(papers, fmt, on_skip=skipped.append) in ("", "[]\n")
    assert skipped[0] == (f"warning: skipped zhao2026benchmarking in bibtex: incomplete record "
                          f"(missing {', '.join(n for n in ('booktitle', 'year') if n in gone)})")


def test_incomplete_paper_of_incomplete_proceedings_is_valid(tmp_path: Path) -> None:
    (tmp_path / "proceedings").mkdir()
    (tmp_path / "proceedings" / "p.json").write_text(json.dumps(proceedings_without("year")), encoding="utf-8")
    record = base()
    record["proceedings"] = "bibtex-nowhere-2026"
    record["status"] = {"state": "incomplete", "missing": ["year"]}
    (tmp_path / "paper.json").write_text(json.dumps(record), encoding="utf-8")
    assert validate_paths([tmp_path]) == []


def test_proceedings_read_after_its_papers_still_counts(tmp_path: Path) -> None:
    lines = [json.dumps(dict(base(), proceedings="bibtex-late-2026")),
             json.dumps(proceedings_without("year", pid="bibtex-late-2026"))]
    path = tmp_path / "mixed.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert [p.message.split(":")[0] for p in validate_paths([path])] == [
        "marked complete, but proceedings 'bibtex-late-2026' has no year"]


# -- the JSON Lines reader and the streaming export -----------------------------------------

def test_line_separator_in_a_title_survives_our_own_jsonl(tmp_path: Path) -> None:
    import icml2026

    record = base()
    record["title"] = record["title"] + "\u2028continued\u2029"
    (tmp_path / "in.json").write_text(json.dumps(record), encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert main(["export", "-f", "jsonl", "--data", str(tmp_path / "in.json"), "-o", str(out)]) == 0
    assert "\u2028" in out.read_text(encoding="utf-8")
    assert validate_paths([out]) == []
    assert icml2026.load([out])[0].title == record["title"]


def many_records(n: int) -> list[dict[str, Any]]:
    """*n* valid records with distinct keys, in an order that is not collection order."""
    out = []
    for i in range(n):
        record = base()
        record["id"], record["citation_key"], record["alias_keys"] = f"pmlr-v306-r{i}", f"key{(i * 7) % n}x{i}", []
        record["identifiers"] = {k: v for k, v in record["identifiers"].items() if k != "openreview"}
        record["links"] = {k: v for k, v in record["links"].items() if k != "openreview"}
        record["provenance"] = {k: v for k, v in record["provenance"].items() if "openreview" not in k}
        record["identifiers"]["pmlr"] = f"r{i}x26a"
        record["links"]["proceedings"] = f"https://proceedings.mlr.press/v306/r{i}x26a.html"
        record["links"]["pdf"] = f"https://raw.githubusercontent.com/mlresearch/v306/main/assets/r{i}/r{i}.pdf"
        out.append(record)
    return out


def test_streamed_export_equals_the_collection_export(tmp_path: Path) -> None:
    import icml2026

    records = many_records(40)
    assert validate_paths([_write_jsonl(tmp_path / "c.jsonl", records)]) == []
    (tmp_path / "folder").mkdir()
    for n, record in enumerate(records[:10]):
        (tmp_path / "folder" / f"{n:02d}.json").write_text(json.dumps(record), encoding="utf-8")
    (tmp_path / "array.json").write_text(json.dumps(records[10:]), encoding="utf-8")
    for paths in ([tmp_path / "c.jsonl"], [tmp_path / "folder", tmp_path / "array.json"]):
        papers = icml2026.load(paths)
        for fmt in ("bibtex", "csl-json", "ris", "jsonl", "json"):
            out = tmp_path / f"out.{fmt}"
            data = [arg for path in paths for arg in ("--data", str(path))]
            options = {"key_style": "pmlr"} if fmt == "bibtex" else {}  # the one format here with keys
            flags = ["--key-style", "pmlr"] if options else []
            assert main(["export", "-f", fmt, *flags, *data, "-o", str(out)]) == 0
            assert out.read_text(encoding="utf-8") == icml2026.export(papers, fmt, **options), (paths, fmt)


def _write_jsonl(path: Path, records: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return path


def test_streamed_export_with_a_bad_record_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records = many_records(30)
    records[25]["citation_key"] = records[3]["citation_key"]
    records[27]["pages"] = {"first": 9, "last": 1}
    source = _write_jsonl(tmp_path / "c.jsonl", records)
    out = tmp_path / "out.bib"
    out.write_text("previous\n", encoding="utf-8")
    assert main(["export", "--data", str(source), "-o", str(out)]) == 1
    assert out.read_text(encoding="utf-8") == "previous\n" and sorted(p.name for p in tmp_path.iterdir()) == [
        "c.jsonl", "out.bib"]
    assert main(["export", "--data", str(source)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.splitlines() == [(
        f"icml2026: error: {source}:26: pmlr-v306-r25: /citation_key: {records[3]['citation_key']!r} is already used "
        f"by pmlr-v306-r3 ({source}:4) (and 1 more; run 'icml2026 validate')")] * 2


def test_stream_reports_skipped_papers_and_closes_an_empty_array(tmp_path: Path) -> None:
    from icml2026.exporters import iter_export
    from icml2026.store.papers import stream_papers

    record = base()
    record["status"] = {"state": "incomplete", "missing": ["pages"]}
    record.pop("pages")
    record["provenance"].pop("/pages")
    source = _write_jsonl(tmp_path / "one.jsonl", [record])
    skipped: list[str] = []
    stream = stream_papers([source])
    assert stream is not None
    assert "".join(iter_export(stream, "csl-json", on_skip=skipped.append)) == "[]\n"
    assert skipped == ["warning: skipped zhao2026benchmarking in csl-json: incomplete record (missing pages)"]
    assert "".join(iter_export(stream_papers([source]), "jsonl")).count("\n") == 1  # type: ignore[arg-type]


# -- the fast paths agree with the slow ones ------------------------------------------------

def _old_brace_problems(text: str) -> list[str]:
    """The per-character loop the validator used before: the oracle for the C-speed one."""
    from icml2026 import markup

    try:
        segments = markup.parse(text)
    except markup.MarkupError as exc:
        return [str(exc)]
    depth = 0
    for seg in segments:
        for ch in seg.value:
            depth += (ch == "{") - (ch == "}")
            if depth < 0:
                return ["unbalanced braces: '}' without '{'"]
    return [f"unbalanced braces: {depth} '{{' not closed"] if depth else []



MARKUP_TEXT = st.text(alphabet=st.sampled_from("ab {}$*\\%"), max_size=40)
ANY_TEXT = st.text(alphabet=st.characters(codec=None, exclude_categories=()), max_size=30)


@settings(max_examples=400, deadline=None)
@given(MARKUP_TEXT)
def test_brace_check_agrees_with_the_per_character_loop(text: str) -> None:
    from icml2026.validation import markup_problems

    assert list(markup_problems(text)) == _old_brace_problems(text)


@settings(max_examples=400, deadline=None)
@given(st.lists(ANY_TEXT, max_size=4), st.booleans())
def test_clean_json_text_means_no_string_problem(values: list[str], ascii_only: bool) -> None:
    """The C-speed check on a record's JSON text may say "look closer", never "clean" wrongly."""
    from icml2026.validation import json_text_is_clean, string_problems

    data = {"k": values, "v": {"w": "".join(values)}}
    text = json.dumps(data, ensure_ascii=ascii_only)
    if json_text_is_clean(text):
        assert list(string_problems(json.loads(text))) == []
