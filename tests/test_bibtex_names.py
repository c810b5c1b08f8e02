"""One BibTeX name-list splitter (``icml2026.bibtex.names``), for import, fix and check.

The oracle is pybtex's emulation of BibTeX's own splitting (``pybtex.bibtex.utils.
split_name_list``), a second implementation of *BibTeXing*'s rule: ``and`` in any case,
between spaces, outside braces.
"""

from __future__ import annotations

import pytest
from pybtex.bibtex.utils import split_name_list

from icml2026.bibtex.names import split_names
from icml2026.bibtex.reader import split_names as import_split_names
from icml2026.check import split_names as check_split_names
from icml2026.fix.match import split_names as fix_split_names

PROBES = [
    "Doe, Jane and {Barnes and Noble, Inc.} AND Smith, J. and others",
    "Ann Andersen and Band, B.",          # "and" inside a word is no separator
    "{A} and{B}",                          # nor without a space on each side
    "A and and B",
    "  A  and  B  ",
    "de la Fontaine, Jean and {\\relax Ch}ristopher Manning",
    "{Anand and {Brand}} and C. Dand",
    "Jane Doe",
    "",
]


@pytest.mark.parametrize("value", PROBES)
def test_split_as_bibtex_does(value: str) -> None:
    assert split_names(value) == [name.strip() for name in split_name_list(value) if name.strip()]


def test_one_splitter_everywhere() -> None:
    assert import_split_names is split_names and fix_split_names is split_names and check_split_names is split_names
