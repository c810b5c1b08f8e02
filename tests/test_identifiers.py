"""Identifiers read once (``icml2026.identifiers``), probed with each scheme's own documentation.

* arXiv: "Understanding the arXiv identifier" (https://info.arxiv.org/help/arxiv_identifier.html):
  ``YYMM.NNNN`` from 0704 to 1412, ``YYMM.NNNNN`` from 1501, ``archive(.SC)/YYMMNNN`` before
  April 2007, an optional ``vN``; its examples ``arXiv:0706.0001``, ``arXiv:1501.00001``,
  ``hep-th/9901001``, ``math.GT/0309136``.  arXiv's DOIs are ``10.48550/arXiv.<id>``
  (https://info.arxiv.org/help/doi.html).
* OpenReview: a note's forum is ``https://openreview.net/forum?id=<id>``, its PDF ``/pdf?id=``,
  its attachments ``/attachment?id=…&name=…``; the schema's id shape is ``[A-Za-z0-9_-]{6,20}``.
* DOI: the DOI Handbook, §2.2 (``10.`` + registrant code + ``/`` + suffix; its own DOI is
  ``10.1000/182``); resolvers ``https://doi.org/`` and ``http://dx.doi.org/``, which take the DOI
  percent-encoded in the path (§3.8 of the Handbook: encoding in URLs).
* PMLR: the page, PDF and repository-PDF URL patterns of the volume's ``_config.yml``
  (``icml2026.pmlr``), and the published key ``pmlr-v306-<id>``.

Where the modules that read identifiers used to disagree, the decision is tested here through
each of them (search, import, fix, Zotero): they now give one answer.
"""

from __future__ import annotations

import pytest

import icml2026
from icml2026.fix import fix_bibtex, fix_bibtex_report
from icml2026.identifiers import (
    ArxivId,
    PmlrId,
    arxiv_url,
    doi_url,
    find_arxiv,
    find_doi,
    find_openreview,
    find_pmlr,
    is_arxiv_doi,
    openreview_url,
    parse_arxiv,
    parse_doi,
    parse_openreview,
    parse_pmlr_key,
    parse_pmlr_url,
    without_arxiv_ids,
)
from icml2026.pmlr import paper_url, pdf_url
from icml2026.zotero.mapping import item_identity


# -- arXiv ---------------------------------------------------------------------------------
@pytest.mark.parametrize("text,expected", [
    ("arXiv:0706.0001", ArxivId("0706.0001")),          # the documentation's first new-style id
    ("0706.0001v2", ArxivId("0706.0001", 2)),
    ("arXiv:1501.00001", ArxivId("1501.00001")),        # five digits from January 2015
    ("arXiv:1501.00001v1", ArxivId("1501.00001", 1)),
    ("1412.6980", ArxivId("1412.6980")),                # the last month of four digits
    ("ARXIV: 2605.05974", ArxivId("2605.05974")),
    ("hep-th/9901001", ArxivId("hep-th/9901001")),      # the old scheme's examples
    ("math.GT/0309136", ArxivId("math.GT/0309136")),
    ("arXiv:hep-th/9901001v3", ArxivId("hep-th/9901001", 3)),
    ("cond-mat.mes-hall/0703001", ArxivId("cond-mat.mes-hall/0703001")),
    ("https://arxiv.org/abs/2512.25066v1", ArxivId("2512.25066", 1)),
    ("http://export.arxiv.org/abs/hep-th/9901001", ArxivId("hep-th/9901001")),
    ("arxiv.org/pdf/2512.25066.pdf", ArxivId("2512.25066")),
    ("https://arxiv.org/pdf/2512.25066v2", ArxivId("2512.25066", 2)),
    ("2512.25066.pdf", ArxivId("2512.25066")),
])
def test_arxiv_ids_of_the_scheme(text: str, expected: ArxivId) -> None:
    assert parse_arxiv(text) == expected


@pytest.mark.parametrize("text", [
    "0703.0001",        # new style began in April 2007
    "2401.1234",        # four digits after 1412
    "1412.06980",       # five digits before 1501
    "2613.01234",       # no 13th month
    "2600.01234",       # no month 0
    "9999.99999",
    "2605.059741",      # six digits: not an id, nor its first five
    "2605.05974v0",     # versions start at 1
    "hep-th/0704001",   # old style ended in March 2007
    "hep-th/9013001",   # no 13th month
    "２６０５.０５９７４",   # digits of another script ('２'.isdigit() is true)
    "arXiv 2605.05974",  # no separator: not the documented form
    "",
])
def test_not_arxiv_ids(text: str) -> None:
    assert parse_arxiv(text) is None


def test_arxiv_in_running_text_only_where_said() -> None:
    text = ("arXiv preprint arXiv:2605.05974; https://arxiv.org/abs/2512.25066v2; "
            "doi 10.48550/arXiv.2602.08235; 2603.02462 on its own; x2604.03582; arXiv:2605.059741")
    assert [str(a) for a in find_arxiv(text)] == ["2605.05974", "2512.25066v2", "2602.08235"]
    # An eprint field's value is an id on its own.
    assert [str(a) for a in find_arxiv("2603.02462 [cs.LG]", bare=True)] == ["2603.02462"]
    assert list(find_arxiv("2603.02462 [cs.LG]")) == []


def test_arxiv_format() -> None:
    assert arxiv_url("2605.05974") == "https://arxiv.org/abs/2605.05974"
    assert arxiv_url(ArxivId("hep-th/9901001", 2)) == "https://arxiv.org/abs/hep-th/9901001v2"
    assert parse_arxiv(arxiv_url(ArxivId("2605.05974", 3))) == ArxivId("2605.05974", 3)
    assert ArxivId("2605.05974").new_style and not ArxivId("hep-th/9901001").new_style
    assert without_arxiv_ids("CoRR abs/2001.01234v2, 2020") == "CoRR abs/ , 2020"


# -- OpenReview ----------------------------------------------------------------------------
@pytest.mark.parametrize("text,expected", [
    ("Pj1Z7dWm4v", "Pj1Z7dWm4v"),
    ("rJXMpikCZ", "rJXMpikCZ"),
    ("https://openreview.net/forum?id=Pj1Z7dWm4v", "Pj1Z7dWm4v"),
    ("https://openreview.net/pdf?id=Pj1Z7dWm4v", "Pj1Z7dWm4v"),
    ("https://openreview.net/attachment?id=Pj1Z7dWm4v&name=supplementary_material", "Pj1Z7dWm4v"),
    ("openreview.net/forum?id=Pj1Z7dWm4v&noteId=abcdefgh12", "Pj1Z7dWm4v"),
    ("https://openreview.net/forum?noteId=abcdefgh12&id=Pj1Z7dWm4v", "Pj1Z7dWm4v"),
    ("https://www.OpenReview.net/forum?id=Pj1Z7dWm4v#discussion", "Pj1Z7dWm4v"),  # a host has no case
])
def test_openreview_ids_and_links(text: str, expected: str) -> None:
    assert parse_openreview(text) == expected


@pytest.mark.parametrize("text", [
    "not an id at all!",
    "short",                                                       # fewer than 6 characters
    "https://openreview.net/forum?id=" + "a" * 21,                 # longer than 20: not its first 20
    "https://openreview.net/forum?id=Pj1Z7dWm4vé",                 # \w's letters are not the id's
    "https://example.org/forum?id=Pj1Z7dWm4v",                     # another host
    "https://openreview.net/group?id=ICML.cc/2026/Conference",     # a venue, not a note
])
def test_not_openreview_ids(text: str) -> None:
    assert parse_openreview(text) is None


def test_openreview_in_text_and_format() -> None:
    text = "see https://openreview.net/forum?id=Pj1Z7dWm4v and openreview.net/pdf?id=" + "b" * 25
    assert list(find_openreview(text)) == ["Pj1Z7dWm4v"]
    assert parse_openreview(openreview_url("Pj1Z7dWm4v")) == "Pj1Z7dWm4v"


# -- PMLR ----------------------------------------------------------------------------------
@pytest.mark.parametrize("text", [
    paper_url(306, "n-guessan26a"),
    "http://proceedings.mlr.press/v306/n-guessan26a.pdf",
    "https://proceedings.mlr.press/v306/n-guessan26a/n-guessan26a.pdf",
    "proceedings.mlr.press/v306/n-guessan26a.html/",
    pdf_url(306, "n-guessan26a"),
    "https://github.com/mlresearch/v306/blob/main/assets/n-guessan26a/n-guessan26a.pdf",
])
def test_pmlr_links(text: str) -> None:
    assert parse_pmlr_url(text) == PmlrId(306, "n-guessan26a")


@pytest.mark.parametrize("text", [
    "https://proceedings.mlr.press/v306/zhao26ac/other26a.pdf",   # another paper's PDF name
    "https://proceedings.mlr.press/v306/zhao26ac.htmlx",
    "https://proceedings.mlr.press/v306/Zhao26ac.html",            # PMLR's ids are lower case
    "https://proceedings.mlr.press/v306/",
    "https://example.org/v306/zhao26ac.html",
])
def test_not_pmlr_links(text: str) -> None:
    assert parse_pmlr_url(text) is None


def test_pmlr_keys_and_text() -> None:
    assert parse_pmlr_key("pmlr-v306-li26d") == PmlrId(306, "li26d")
    assert PmlrId(306, "li26d").key == "pmlr-v306-li26d"
    assert parse_pmlr_key("pmlr-v306-Li26d") is None and parse_pmlr_key("li26d") is None
    text = "{https://proceedings.mlr.press/v235/other24a.html}, " + pdf_url(306, "li26d")
    assert list(find_pmlr(text)) == [PmlrId(235, "other24a"), PmlrId(306, "li26d")]


# -- DOI -----------------------------------------------------------------------------------
@pytest.mark.parametrize("text,expected", [
    ("10.1000/182", "10.1000/182"),                       # the DOI Handbook's own DOI
    ("doi:10.1000/182", "10.1000/182"),
    ("DOI: 10.1000/182", "10.1000/182"),
    ("https://doi.org/10.1000/182", "10.1000/182"),
    ("http://dx.doi.org/10.1000/182", "10.1000/182"),
    ("https://doi.org/10.1000/a%23b", "10.1000/a#b"),     # percent-encoded in the resolver's path
    ("10.48550/arXiv.2605.05974", "10.48550/arXiv.2605.05974"),
])
def test_dois(text: str, expected: str) -> None:
    assert parse_doi(text) == expected


@pytest.mark.parametrize("text", ["11.1000/182", "10.12/182", "10.1000", "doi:", "https://example.org/10.1000/182",
                                  "10.1000/18 2"])
def test_not_dois(text: str) -> None:
    assert parse_doi(text) is None


def test_doi_in_text_and_format() -> None:
    assert list(find_doi("{10.1000/182}, x10.1000/183, see 10.1145/3368089.3409740")) == [
        "10.1000/182", "10.1145/3368089.3409740"]
    assert parse_doi(doi_url("10.1000/182")) == "10.1000/182"
    assert is_arxiv_doi("10.48550/ARXIV.2605.05974") and not is_arxiv_doi("10.1000/182")


# -- one answer in every module ------------------------------------------------------------
def _imported(body: str) -> icml2026.ImportResult:
    return icml2026.parse_string("@inproceedings{smith24,\n  title = {A Title},\n  author = {Doe, Jane},\n"
                                 f"  booktitle = {{Proceedings of Tests}}, year = 2024,\n  {body}\n}}\n")


@pytest.mark.parametrize("body,kind,expected", [
    ("doi = {DOI: 10.1000/182}", "doi", "10.1000/182"),                     # was kept with its prefix
    ("doi = {http://dx.doi.org/10.1000/182}", "doi", "10.1000/182"),          # was not imported
    ("openreview = {https://openreview.net/pdf?id=Pj1Z7dWm4v}", "openreview", "Pj1Z7dWm4v"),
    ("openreview = {https://example.org/x?id=Pj1Z7dWm4v}", "openreview", None),  # was read as an id
    ("eprint = {arXiv:2401.01234v2}, archiveprefix = {arXiv}", "arxiv", "2401.01234"),
    ("eprint = {2401.1234}, archiveprefix = {arXiv}", "arxiv", None),          # four digits in 2024
    ("eprint = {hep-th/9901001}, archiveprefix = {arXiv}", "arxiv", None),    # old style: not held
])
def test_import_reads_identifiers_as_identifiers_does(body: str, kind: str, expected: str | None) -> None:
    (paper,) = _imported(body).papers
    assert getattr(paper.identifiers, kind) == expected
    if expected is None:
        assert any("not imported" in note for note in paper.notes)


@pytest.mark.parametrize("url,identity", [
    ("https://openreview.net/attachment?id=Pj1Z7dWm4v&name=pdf", ("openreview", "Pj1Z7dWm4v")),  # was missed
    ("https://openreview.net/forum?id=" + "a" * 25, None),
    ("https://proceedings.mlr.press/v306/li26d/li26d.pdf", ("pmlr", "v306/li26d")),
    ("https://proceedings.mlr.press/v306/li26d/other26a.pdf", None),   # was taken as li26d's
    ("Pj1Z7dWm4v", None),                                               # an id is no link
])
def test_zotero_recognises_links_as_identifiers_does(url: str, identity: tuple[str, str] | None) -> None:
    found = {pair for pair in item_identity({"url": url}) if pair[0] != "title"}
    assert found == ({identity} if identity else set())


def test_search_reads_identifiers_as_identifiers_does() -> None:
    volume = icml2026.load()
    paper = volume.find("he26au")
    assert paper is not None and paper.identifiers.arxiv == "2512.25066"
    for query in ("arxiv.org/abs/2512.25066v2", "https://export.arxiv.org/pdf/2512.25066v1.pdf",
                  "ARXIV:2512.25066v2"):
        assert volume.find(query) is paper, query
    for query in ("２５１２.２５０６６", "https://arxiv.org/abs/2512.250661"):
        assert volume.find(query) is None, query
    assert volume.find(pdf_url(306, "he26au")) is paper


def test_fix_reads_identifiers_as_identifiers_does() -> None:
    """An ``openreview`` value that is no OpenReview id is no evidence either way (it once
    counted as "another paper's id" and kept a title match from being made); an arXiv id in
    ``eprint`` names the paper, and one in running text only when it is said to be arXiv's."""
    volume = icml2026.load()
    paper = volume.find("he26au")
    assert paper is not None and paper.title and paper.authors[0].family
    head = f"@misc{{someone,\n  title = {{{paper.title}}},\n  author = {{{paper.authors[0].family}, A.}},\n"
    unknown = fix_bibtex_report(head + "  openreview = {TBD},\n  year = {2026}\n}\n")
    assert [(e.outcome, e.evidence) for e in unknown.entries] == [("changed", "title")]
    other = "@misc{someone,\n  title = {Something Else Entirely},\n  author = {Nobody, A.},\n"
    by_arxiv = fix_bibtex_report(other + "  eprint = {2512.25066},\n  archiveprefix = {arXiv}\n}\n")
    assert [e.outcome for e in by_arxiv.entries] == ["ambiguous"]  # the id names he26au, the title is not its
    in_note = other + "  note = {2512.25066}\n}\n"
    assert fix_bibtex(in_note) == in_note and not fix_bibtex_report(in_note).entries
