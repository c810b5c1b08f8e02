"""The two BibTeX readers (import: records; fix/check: in-place rewrite) on the probes where
they used to disagree, each against the policy of ``icml2026.bibtex.syntax``.

The oracle is pybtex, a second BibTeX reader: in strict mode it is the importer's policy (a
repeated field is an error), in its lenient mode the fixer's (the first value counts, as
BibTeX itself warns "I'm ignoring …'s extra field"); plain.bst's month macros give
``July`` for ``jul`` whatever the case of the macro's name.
"""

from __future__ import annotations

import pytest
from pybtex import errors as pybtex_errors
from pybtex.database import parse_string as pybtex_parse
from pybtex.database.input.bibtex import DuplicateField

import icml2026
from icml2026.bibtex import syntax
from icml2026.fix import fix_bibtex
from icml2026.fix.scan import blocks
from icml2026.importers import bibtex_syntax
from icml2026.importers.bibtex_syntax import FieldError, parse_fields, scan


def imported(text: str) -> dict[str, str]:
    (entry,) = [e for e in scan(text) if e.kind == "misc"]
    return parse_fields(entry, {})


def fixed_fields(text: str) -> list[tuple[str, str]]:
    (block,) = [b for b in blocks(text) if b.kind == "misc"]
    return [(f.name, f.value) for f in block.fields]


def lenient(text: str) -> dict[str, str]:
    pybtex_errors.set_strict_mode(False)
    try:
        return {k.lower(): v for k, v in pybtex_parse(text, "bibtex").entries["a"].fields.items()}
    finally:
        pybtex_errors.set_strict_mode(True)


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
    with pytest.raises(FieldError, match="given twice"):
        imported(text)
    (block,) = blocks(text)
    assert block.get("title") == lenient(text)["title"] == "First"
    assert fixed_fields(text) == [("title", "First"), ("title", "Second")]  # both kept in the file


def test_text_after_an_early_brace_is_an_error_to_import_and_kept_by_fix() -> None:
    text = "@misc{a, title = {A}}, year = {2024}}\n@misc{b, title = {B}}\n"
    (first, _) = scan(text)
    assert first.leftover is not None and "closes the entry early" in first.leftover
    result = icml2026.parse_string(text)
    assert [p.key for p in result.problems] == ["a"]
    # BibTeX (and pybtex) read the entry up to that brace and ignore the rest, as fix does.
    assert lenient(text) == {"title": "A"}
    assert [(b.key, b.get("title"), b.get("year")) for b in blocks(text)] == [("a", "A", ""), ("b", "B", "")]
    assert fix_bibtex(text) == text


def test_an_entry_on_a_comment_line_is_read_by_import_not_by_fix() -> None:
    text = "% @misc{a, title = {Commented}}\n"
    assert [e.key for e in scan(text)] == ["a"]
    assert blocks(text) == []


def test_one_set_of_lexical_rules() -> None:
    from icml2026.fix import scan as fix_scan

    assert bibtex_syntax.MONTHS is syntax.MONTHS and fix_scan.MONTHS is syntax.MONTHS
    assert bibtex_syntax._HEADER is syntax.HEADER and fix_scan._HEADER is syntax.HEADER
    assert bibtex_syntax._KEY is syntax.KEY and fix_scan._KEY is syntax.KEY
