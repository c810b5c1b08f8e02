"""Paper → Zotero item: keys, schema v41 validity, and the three-way merge that keeps user edits."""

from __future__ import annotations

import dataclasses
import json
import re

from hypothesis import given, settings
from hypothesis import strategies as st
from zotero_helpers import SCHEMA_PATH, papers, schema_problems  # noqa: F401

import icml2026
from icml2026.exporters.plain import plain_text
from icml2026.markup import to_plain
from icml2026.zotero import mapping

KEY_RE = re.compile(r"^[23456789ABCDEFGHIJKLMNPQRSTUVWXYZ]{8}$")


def test_conference_paper_fields_match_schema_v41():
    raw = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    entry = next(t for t in raw["itemTypes"] if t["itemType"] == "conferencePaper")
    assert mapping.CONFERENCE_PAPER_FIELDS == tuple(f["field"] for f in entry["fields"])
    assert mapping.CREATOR_TYPES == tuple(c["creatorType"] for c in entry["creatorTypes"])
    assert set(mapping.OWNED_FIELDS) - {"creators"} <= set(mapping.CONFERENCE_PAPER_FIELDS)


def test_item_keys_are_deterministic_valid_and_distinct(papers):
    keys = [mapping.item_key(p.id) for p in papers]
    assert all(KEY_RE.match(k) for k in keys)
    assert len(set(keys)) == len(keys)
    assert keys == [mapping.item_key(p.id) for p in papers]
    assert KEY_RE.match(mapping.collection_key("ICML 2026"))


def test_new_items_are_valid_v41_conference_papers(papers):
    for paper in papers.complete:
        item = mapping.new_item(paper, "ABCD2345")
        assert schema_problems(item) == [], paper.id
        assert item["version"] == 0 and item["key"] == mapping.item_key(paper.id)
        assert item["itemType"] == "conferencePaper"
        assert "publicationTitle" not in item and item["proceedingsTitle"]
        assert all(value != "" for value in item.values()), "empty fields are left out"
        assert item["tags"] == [{"tag": "ICML 2026"}] and item["collections"] == ["ABCD2345"]
        assert "tags" not in item["tags"][0]["tag"].lower()  # pyzotero's tag-URL bug
        authors = [c for c in item["creators"] if c["creatorType"] == "author"]
        editors = [c for c in item["creators"] if c["creatorType"] == "editor"]
        assert len(authors) == len(paper.authors) and len(editors) == len(paper.proceedings.editors)
        assert item["citationKey"] == paper.citation_key
        assert item["url"] == paper.links.proceedings
        assert "*" not in item["title"] and "\\" not in item["title"]


def test_extra_carries_identifiers_and_provenance(papers):
    paper = papers["he2026inpainting"]
    lines = mapping.new_item(paper, None)["extra"].splitlines()
    assert "OpenReview: PfhSH42cCy" in lines
    assert "PMLR: he26au" in lines
    assert "arXiv: 2512.25066" in lines
    assert "icml2026-id: pmlr-v306-he26au" in lines
    assert any(line.startswith("icml2026-source: PMLR volume 306") for line in lines)
    assert lines[-1].startswith("icml2026-sync: 2 title=")


def test_markup_becomes_plain_text(papers):
    marked = [p for p in papers.complete if p.abstract and "$" in p.abstract]
    assert marked, "the seed data has math in some abstract"
    item = mapping.new_item(marked[0], None)
    # Math as in the RIS and CSL-JSON exports: Unicode where faithful, else its LaTeX.
    assert item["abstractNote"] == plain_text(marked[0].abstract).strip() != to_plain(marked[0].abstract).strip()
    math = dataclasses.replace(marked[0], title="Rates $O(n^2)$ and $\\binom{n}{k}$")
    assert mapping.new_item(math, None)["title"] == "Rates O(n²) and $\\binom{n}{k}$"
    emph = dataclasses.replace(marked[0], title="A *bold* claim about \\$5")
    assert mapping.new_item(emph, None)["title"] == "A bold claim about $5"


def _as_remote(item, version=7):
    """What the server would hand back for *item* (all fields, empty ones as "")."""
    data = {name: "" for name in mapping.CONFERENCE_PAPER_FIELDS}
    data.update({k: v for k, v in item.items() if k != "version"}, version=version)
    return data


def test_merge_unchanged_paper_needs_no_write(papers):
    paper = papers["he2026inpainting"]
    assert mapping.merge(paper, _as_remote(mapping.new_item(paper, None))).patch == {}


def test_merge_updates_only_what_changed_and_keeps_user_edits(papers):
    paper = papers["he2026inpainting"]
    remote = _as_remote(mapping.new_item(paper, None))
    remote["title"] = "My own title"                       # the user's edit
    remote["callNumber"] = "Shelf 3"                       # a field we never set
    remote["extra"] = "Read: yes\n" + remote["extra"]      # a line of their own
    changed = dataclasses.replace(paper, abstract="A new abstract.", title="Corrected title")
    merged = mapping.merge(changed, remote)
    assert merged.patch["abstractNote"] == "A new abstract."
    assert "title" not in merged.patch and merged.kept == ("title",)
    assert "callNumber" not in merged.patch
    assert merged.patch["extra"].splitlines()[0] == "Read: yes"
    # Applying the patch, then merging again, is stable: no second write.
    assert mapping.merge(changed, {**remote, **merged.patch}).patch == {}


def test_merge_without_sync_line_only_fills_empty_fields(papers):
    paper = papers["he2026inpainting"]
    remote = _as_remote(mapping.new_item(paper, None))
    remote["extra"] = "Read: yes"      # the user deleted our lines
    remote["pages"] = ""
    remote["title"] = "Unknown provenance"
    merged = mapping.merge(paper, remote)
    assert merged.patch["pages"] == "42215-42241"
    assert "title" not in merged.patch
    assert merged.patch["extra"].startswith("Read: yes\nOpenReview: ")


HE = icml2026.load().select(["he2026inpainting"])["he2026inpainting"]   # loaded once
FIELDS = st.sampled_from(["title", "abstractNote", "pages", "date", "url", "language", "DOI"])


@settings(max_examples=60, deadline=None)
@given(user_edits=st.sets(FIELDS), our_changes=st.sets(FIELDS))
def test_merge_never_overwrites_a_user_edit(user_edits, our_changes):
    paper = HE
    remote = _as_remote(mapping.new_item(paper, None))
    for name in user_edits:
        remote[name] = f"user {name}"
    changed = dataclasses.replace(
        paper,
        title="our new title" if "title" in our_changes else paper.title,
        abstract="our new abstract" if "abstractNote" in our_changes else paper.abstract,
        pages=dataclasses.replace(paper.pages, last=paper.pages.last + 1) if "pages" in our_changes else paper.pages,
        language="de" if "language" in our_changes else paper.language,
        links=dataclasses.replace(paper.links, proceedings="https://x.test/p") if "url" in our_changes else paper.links,
        identifiers=dataclasses.replace(paper.identifiers, doi="10.1/x") if "DOI" in our_changes else paper.identifiers,
        proceedings=dataclasses.replace(paper.proceedings, year=2027) if "date" in our_changes
        else paper.proceedings,
    )
    merged = mapping.merge(changed, remote)
    assert not (set(merged.patch) & user_edits)
    assert set(merged.kept) == user_edits
    expected = our_changes - user_edits
    if "date" in our_changes and "conferenceName" not in user_edits:
        expected |= {"conferenceName"}  # "… (ICML 2027)": the conference name carries the year
    assert set(merged.patch) - {"extra"} == expected


# -- the fingerprint names its fields ------------------------------------------------------

def _owning_one_more_field(monkeypatch, name: str, value: str) -> None:
    """What a later release does: own one more field (the items keep their old sync lines)."""
    owned = (*mapping.OWNED_FIELDS, name)
    monkeypatch.setattr(mapping, "OWNED_FIELDS", owned)
    monkeypatch.setattr(mapping, "MERGED_FIELDS", (*owned, mapping.EXTRA_BLOCK))
    values = mapping.owned_values
    monkeypatch.setattr(mapping, "owned_values", lambda paper, fields=None: {**values(paper, fields), name: value})


def test_owning_a_new_field_keeps_the_base_of_every_other_field(papers, monkeypatch):
    paper = papers["he2026inpainting"]
    remote = _as_remote(mapping.new_item(paper, None))       # written before the field was ours
    _owning_one_more_field(monkeypatch, "shortTitle", "X-Dub")
    corrected = dataclasses.replace(paper, title="A corrected title")
    merged = mapping.merge(corrected, remote)
    assert merged.kept == ()                                  # a real correction, not "your edit"
    assert merged.patch["title"] == "A corrected title"
    assert merged.patch["shortTitle"] == "X-Dub"              # empty in the item: filled
    remote["shortTitle"] = "Mine"                             # …unless the user had set it
    assert mapping.merge(corrected, remote).kept == ("shortTitle",)


def test_format_1_sync_lines_are_read_and_replaced_only_with_a_real_change(papers):
    import base64

    paper = papers["he2026inpainting"]
    remote = _as_remote(mapping.new_item(paper, None))
    state = mapping.desired_state(paper)
    raw = b"".join(mapping.value_hash(state[name]) for name in mapping.V1_FIELDS)
    v1 = "icml2026-sync: 1." + base64.urlsafe_b64encode(raw).decode()
    remote["extra"] = "\n".join([*remote["extra"].splitlines()[:-1], v1])
    assert mapping.merge(paper, remote).patch == {}           # no write just to change the format
    remote["title"] = "User title"
    merged = mapping.merge(dataclasses.replace(paper, abstract="New abstract."), remote)
    assert merged.patch["abstractNote"] == "New abstract." and merged.kept == ("title",)
    line = merged.patch["extra"].splitlines()[-1]
    assert line.startswith("icml2026-sync: 2 title=") and " abstractNote=" in line
    assert mapping.merge(dataclasses.replace(paper, abstract="New abstract."),
                         {**remote, **merged.patch}).patch == {}


def test_fingerprints_that_are_not_ours_are_ignored():
    for text in (None, "", "3 title=AAAA", "2 title=!!", "2 title", "1.AAAA", "garbage"):
        assert mapping.decode_fingerprint(text) is None, text
    assert mapping.decode_fingerprint("2 title=AAAA extra=BBBB") == {
        "title": b"\x00\x00\x00", "extra": b"\x04\x10\x41"}


def test_a_hand_typed_title_matches_with_its_math_in_latex_or_unicode(papers):
    paper = dataclasses.replace(papers.complete[0], title="$\\text{DT}^\\text{2}$: Decision-Targeted Digital Twins")
    ours = ("title", mapping.paper_identity(paper)["title"])
    for typed in ("$\\text{DT}^\\text{2}$: Decision-Targeted Digital Twins",  # the PMLR page's citation_title
                  "DT²: decision-targeted digital twins",                     # as our exports write it
                  "<i>DT</i>²: Decision-Targeted Digital Twins",              # with Zotero's rich text
                  "DT2: Decision-Targeted Digital Twins"):                    # ² folds to 2
        assert ours in mapping.item_identity({"title": typed}), typed
    assert ours not in mapping.item_identity({"title": "DT3: Decision-Targeted Digital Twins"})
    assert mapping.item_identity({"title": "Saving 5$ with Q*-learning"}) == {("title", "saving 5 with q learning")}
