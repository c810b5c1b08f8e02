"""The one BibTeX scanner under its two policies (import: records; fix/check: in-place
rewrite), on the probes where the two readers of the past disagreed, each against the
policy table of ``icml2026.bibtex.syntax``, and on the rules both share.

The oracle is pybtex, a second BibTeX reader: in strict mode it is the importer's policy (a
repeated field or an undefined macro is an error), in its lenient mode the fixer's (the
first value counts, as BibTeX itself warns "I'm ignoring …'s extra field"; an undefined
macro is empty); plain.bst's month macros give ``July`` for ``jul`` whatever the case of
the macro's name.
"""

from __future__ import annotations

import pytest
from pybtex import errors as pybtex_errors
from pybtex.database import parse_string as pybtex_parse
from pybtex.database.input.bibtex import DuplicateField, UndefinedMacro
from pybtex.scanner import PybtexSyntaxError

import icml2026
from icml2026.bibtex.scan import UNCLOSED, scan
from icml2026.bibtex.syntax import FIX, IMPORT, OUTLINE


def imported(text: str) -> dict[str, str]:
    """The fields of the one ``@misc`` entry of *text* as the importer reads them; its error raised."""
    (block,) = [b for b in scan(text, IMPORT) if b.kind == "misc"]
    if block.error:
        raise ValueError(block.error)
    return {f.name: f.value for f in block.fields}


def fixed_fields(text: str) -> list[tuple[str, str]]:
    (block,) = [b for b in scan(text, FIX) if b.kind == "misc"]
    assert block.error is None, block.error
    return [(f.name, f.value) for f in block.fields]


def lenient(text: str, key: str = "a") -> dict[str, str]:
    pybtex_errors.set_strict_mode(False)
    try:
        return {k.lower(): v for k, v in pybtex_parse(text, "bibtex").entries[key].fields.items()}
    finally:
        pybtex_errors.set_strict_mode(True)


def strict(text: str, key: str = "a") -> dict[str, str]:
    return {k.lower(): v for k, v in pybtex_parse(text, "bibtex").entries[key].fields.items()}


# --------------------------------------------------------------------------- where the policies differ

@pytest.mark.parametrize("month", ["jul", "JUL", "Jul"])
def test_month_macros_in_any_case_are_plain_bst_s(month: str) -> None:
    text = f"@misc{{a, title = {{T}}, month = {month}}}\n"
    expected = pybtex_parse(text, "bibtex").entries["a"].fields["month"]
    assert expected == "July"
    assert imported(text)["month"] == expected
    assert dict(fixed_fields(text))["month"] == expected


def test_a_repeated_field_is_an_error_to_import_and_the_first_to_fix() -> None:
    text = "@misc{a, title = {First}, title = {Second}}\n"
    with pytest.raises(DuplicateField):
        pybtex_parse(text, "bibtex")
    with pytest.raises(ValueError, match="given twice"):
        imported(text)
    (block,) = scan(text)
    assert block.get("title") == lenient(text)["title"] == "First"
    assert fixed_fields(text) == [("title", "First"), ("title", "Second")]  # both kept in the file


def test_text_after_an_early_brace_is_an_error_to_import_and_kept_by_fix() -> None:
    text = "@misc{a, title = {A}}, year = {2024}}\n@misc{b, title = {B}}\n"
    (first, _) = scan(text, IMPORT)
    assert first.error is not None and "closes the entry early" in first.error
    result = icml2026.parse_string(text)
    assert [p.key for p in result.problems] == ["a"]
    # BibTeX (and pybtex) read the entry up to that brace and ignore the rest, as fix does.
    assert lenient(text) == {"title": "A"}
    assert [(b.key, b.get("title"), b.get("year")) for b in scan(text)] == [("a", "A", ""), ("b", "B", "")]
    assert icml2026.fix_bibtex(text) == text


def test_an_entry_on_a_comment_line_is_read_by_import_not_by_fix() -> None:
    text = "% @misc{a, title = {Commented}}\n"
    assert [b.key for b in scan(text, IMPORT)] == ["a"] == list(pybtex_parse(text, "bibtex").entries)
    assert scan(text, FIX) == []


def test_an_undefined_macro_is_an_error_to_import_in_a_field_it_reads_and_empty_to_fix() -> None:
    text = "@misc{a, title = nowhere, keywords = elsewhere}\n"
    with pytest.raises(UndefinedMacro):
        strict(text)
    assert dict(fixed_fields(text)) == lenient(text) == {"title": "", "keywords": ""}
    with pytest.raises(ValueError, match="undefined @string macro 'nowhere'"):
        imported(text)
    other = "@misc{a, title = {T}, keywords = elsewhere}\n"  # not a field the importer reads
    assert imported(other) == {"title": "T", "keywords": ""}


def test_an_overlong_value_is_an_error_to_import_and_read_by_fix() -> None:
    from icml2026.bibtex.syntax import MAX_FIELD_CHARS

    text = "@misc{a, note = {" + "x" * (MAX_FIELD_CHARS + 1) + "}}\n"
    with pytest.raises(ValueError, match="at most"):
        imported(text)
    assert len(dict(fixed_fields(text))["note"]) == MAX_FIELD_CHARS + 1


# --------------------------------------------------------------------------- one rule for both

@pytest.mark.parametrize("policy", [IMPORT, FIX], ids=["import", "fix"])
def test_a_parenthesis_in_a_quoted_value_does_not_close_a_paren_entry(policy: object) -> None:
    text = '@misc(a, note = "on (M)LLMs)", title = {T})\n@misc{b, title = {B}}\n'
    blocks = scan(text, policy)  # type: ignore[arg-type]
    assert [(b.key, b.error) for b in blocks] == [("a", None), ("b", None)]
    assert {f.name: f.value for f in blocks[0].fields} == strict(text) == {"note": "on (M)LLMs)", "title": "T"}
    assert blocks[0].text == text.split("\n")[0]


@pytest.mark.parametrize(("text", "broken"), [
    ("@misc{a, 1x = {y}, title = {T}}\n", "misc"),  # a name starts with a letter, not a digit
    ("@misc{a, year = 2024a}\n", "misc"),  # a number is digits: the 'a' is text after the value
    ('@string{s = "x" t = "y"}\n@misc{a, title = s}\n', "string"),  # commas between macros too
])
@pytest.mark.parametrize("policy", [IMPORT, FIX], ids=["import", "fix"])
def test_syntax_errors_are_pybtex_s_in_both_policies(text: str, broken: str, policy: object) -> None:
    with pytest.raises(PybtexSyntaxError):
        pybtex_parse(text, "bibtex")
    assert [b.kind for b in scan(text, policy) if b.error] == [broken]  # type: ignore[arg-type]


def test_macros_read_before_an_error_are_defined_as_pybtex_reads_on() -> None:
    text = '@string{s = "x" t = "y"}\n@misc{a, title = s}\n'
    assert lenient(text) == {"title": "x"}
    assert imported(text) == dict(fixed_fields(text)) == {"title": "x"}


@pytest.mark.parametrize("policy", [IMPORT, FIX], ids=["import", "fix"])
def test_a_key_without_fields_is_an_entry(policy: object) -> None:
    text = "@misc{k}\n"
    assert strict(text, "k") == {}
    (block,) = scan(text, policy)  # type: ignore[arg-type]
    assert (block.key, block.fields, block.error) == ("k", (), None)


def test_an_unclosed_entry_is_reported_with_its_key_and_the_next_one_read() -> None:
    text = "@misc{open, title = {x}\n@misc{next, title = {y}}\n"
    for policy in (IMPORT, FIX, OUTLINE):
        (first, second) = scan(text, policy)
        assert (first.key, first.error, first.unclosed, first.line) == ("open", UNCLOSED, True, 1)
        assert (second.key, second.error, second.line) == ("next", None, 2)


def test_fields_keep_their_source_span_and_values_are_nfc() -> None:
    text = '@misc{a,\n  title = "Cafe\u0301" # { au lait},\n  year = 2024\n}\n'
    (block,) = scan(text)
    title, year = block.fields
    assert text[title.start:title.end] == title.raw_value == '"Cafe\u0301" # { au lait}'
    assert title.value == "Caf\u00e9 au lait" == lenient(text)["title"].replace("e\u0301", "\u00e9")
    assert (year.raw_value, year.value, text[year.start:year.end]) == ("2024", "2024", "2024")
    assert block.text == text.rstrip("\n") and block.line == 1


def test_one_scanner_for_import_fix_and_check() -> None:
    from icml2026 import check, fix
    from icml2026.bibtex import reader
    from icml2026.bibtex import scan as scan_module

    assert fix.scan is scan_module.scan and check.scan is scan_module.scan and reader.scan is scan_module.scan
    for gone in ("icml2026.importers.bibtex_syntax", "icml2026.fix.scan"):
        with pytest.raises(ModuleNotFoundError):
            __import__(gone)
