"""The packaged volume's fast paths give exactly what loading everything gives.

``show KEY``/``export --keys`` read one line through ``data/index.tsv``; ``list`` reads the
stored search index (``data/search-index.txt``, ``data/lines.tsv``) and only the lines it
prints.  Both must agree with the full collection, paper for paper and line for line.
"""

from __future__ import annotations

import argparse

import pytest

import icml2026
from icml2026.cli.cmd_list import fast_listing, listing
from icml2026.store.packaged import load_keys


@pytest.mark.parametrize(("query", "author", "limit"), [
    ("", None, 20), ("", None, 0), ("graph neural", None, 5), ("li", None, 50), ("müntz", None, 3),
    ("", "wang", 10), ("learning", "yang li", 0), ("zzzz nothing", None, 20), ("do-shapley", None, 20),
])
def test_fast_listing_equals_the_full_listing(volume: icml2026.PaperCollection, query: str,
                                              author: str | None, limit: int) -> None:
    args = argparse.Namespace(query=query, author=author, limit=limit, json=False, data=None, keys=None)
    fast = fast_listing(args)
    full = listing(volume.search(query, author=author) if query or author else volume, limit)
    if fast is None:  # only "no match", which the full path reports as an error
        assert full[-1].startswith("0 papers")
    else:
        assert fast == full


@pytest.mark.parametrize("query", ["abas26a", "pmlr-v306-abas26a", "https://proceedings.mlr.press/v306/abas26a.html"])
def test_identifier_queries_take_the_full_path(query: str) -> None:
    args = argparse.Namespace(query=query, author=None, limit=20, json=False, data=None, keys=None)
    assert fast_listing(args) is None


def test_key_lookup_through_the_index(volume: icml2026.PaperCollection) -> None:
    for paper in list(volume)[::500]:
        for key in paper.keys():
            found = load_keys([key])
            assert found is not None and [p.to_dict() for p in found] == [volume[key].to_dict()]
    assert load_keys(["no-such-key"]) is None
    assert load_keys(["abas2026turdpo", "pmlr-v306-abas26a"]) is not None
    assert len(load_keys(["abas2026turdpo", "pmlr-v306-abas26a"]) or ()) == 1


def test_the_packaged_file_is_in_collection_order(volume: icml2026.PaperCollection) -> None:
    """load() trusts papers.jsonl to be sorted as PaperCollection sorts (it skips the sort)."""
    assert [p.id for p in volume] == [p.id for p in icml2026.PaperCollection(list(volume))]
