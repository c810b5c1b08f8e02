"""The BibTeX/BibLaTeX exporters: shape, determinism, options and hostile input.

Every expectation about text is checked through a second implementation:
the output is parsed by bibtexparser 1.4 and pybtex and decoded by
pylatexenc (via :func:`icml2026.bibtex.latex_decode.decode`), never compared with strings
written by hand.
"""

from __future__ import annotations

import dataclasses
import re
import subprocess
import sys
import unicodedata

import pytest
from bibtex_helpers import as_parsed, bibtexparser_entries, people, pybtex_entries, written_protection
from pybtex.database import parse_string

import icml2026
from icml2026 import markup
from icml2026.bibtex import latex_decode, latex_encode, normalize_space, writer
from icml2026.exporters import bibtex as bib
from icml2026.model import Paper, Person
from icml2026.text import strip_accents

FORMATS = ("bibtex", "biblatex")
HOSTILE = ["}, note = {x", "\n@misc{evil,", "\\input{/etc/passwd}", "{", "}", "$", "\\", "%",
           "100% sure", "a--b", "``quoted''", "#1 & 2_3 ~x^y", "@misc{a,", "}}}}", "{{{{"]


parse_bibtexparser = bibtexparser_entries


def parse_pybtex(text: str):
    return parse_string(text, "bibtex").entries


@pytest.fixture(scope="module")
def complete(papers: icml2026.PaperCollection) -> list[Paper]:
    return list(papers.complete)


def with_text(paper: Paper, title: str, **changes) -> Paper:
    return dataclasses.replace(paper, title=markup.escape(title), title_protect=(), **changes)


@pytest.mark.parametrize("fmt", FORMATS)
def test_one_entry_per_complete_paper_and_incomplete_skipped(papers, fmt):
    # Every packaged record is complete now: an incomplete one is made for the test.
    gone = dataclasses.replace(papers[3], id="pmlr-v306-gone26a", citation_key="gone2026pages",
                               status="incomplete", missing=("pages",), pages=None)
    with pytest.warns(UserWarning, match="gone2026pages"):
        text = icml2026.export([*papers, gone], fmt)
    entries = parse_pybtex(text)
    assert len(entries) == len(papers.complete) == 19
    assert list(entries) == [p.citation_key for p in papers.complete]
    assert len(parse_bibtexparser(text)) == 19


def test_cli_export_matches_api(volume, tmp_path):
    out = tmp_path / "refs.bib"
    run = subprocess.run([sys.executable, "-m", "icml2026", "export", "--format", "bibtex", "-o", str(out)],
                         capture_output=True, text=True, check=True)
    assert "warning" not in run.stderr  # every packaged record is complete
    assert out.read_text(encoding="utf-8") == icml2026.export(volume.complete, "bibtex")


@pytest.mark.parametrize("fmt", FORMATS)
def test_deterministic(complete, fmt):
    first = icml2026.export(complete, fmt, abstract=True)
    again = icml2026.export(list(complete), fmt, abstract=True)
    assert first == again


def test_bibtex_is_ascii_and_biblatex_keeps_unicode(complete):
    ascii_text = icml2026.export(complete, "bibtex", abstract=True)
    assert ascii_text.isascii()
    utf8_text = icml2026.export(complete, "biblatex", abstract=True)
    non_ascii = {c for p in complete for c in (p.title or "") + "".join(a.display for a in p.authors)
                 if not c.isascii()}
    assert non_ascii and all(c in utf8_text for c in non_ascii)


@pytest.mark.parametrize("fmt,order", [("bibtex", writer.BIBTEX_FIELDS), ("biblatex", writer.BIBLATEX_FIELDS)])
def test_field_order_is_the_documented_one(complete, fmt, order):
    text = icml2026.export(complete, fmt, abstract=True)
    for entry in text.split("\n\n"):
        names = re.findall(r"^  ([a-z]+) = ", entry, re.MULTILINE)
        assert names == sorted(names, key=order.index)
        assert set(names) <= set(order)
        assert {"title", "author", "booktitle", "pages"} <= set(names)
    for name in order:
        assert name in writer.__doc__


def test_abstract_only_on_request(complete):
    assert "abstract" not in parse_pybtex(icml2026.export(complete, "bibtex"))[complete[0].citation_key].fields
    for fmt in FORMATS:
        entries = parse_pybtex(icml2026.export(complete, fmt, abstract=True))
        for paper in complete:
            decoded = latex_decode.decode(entries[paper.citation_key].fields["abstract"])
            assert markup.parse(decoded) == markup.parse(paper.abstract)


def test_the_date_is_the_year_of_publication_only(complete):
    """One rule for every format (README, Dates): the conference month (July) is not the
    publication month (September), so neither is written as the paper's date."""
    entry = parse_pybtex(icml2026.export(complete[:1], "bibtex"))[complete[0].citation_key]
    assert entry.fields["year"] == "2026" and "month" not in entry.fields


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_place_is_address_and_no_event_fields(complete, fmt):
    """biblatex-apa's @inbook has no eventtitle/eventdate/venue (biber warns); Zotero ignores venue."""
    paper = complete[0]
    fields = parse_pybtex(icml2026.export([paper], fmt))[paper.citation_key].fields
    assert latex_decode.decode(fields["address"]) == paper.proceedings.address
    for absent in ("eventtitle", "eventdate", "venue", "location", "urldate", "month", "pdf", "file"):
        assert absent not in fields, absent


@pytest.mark.parametrize("style", bib.KEY_STYLES)
def test_key_styles(complete, style):
    text = icml2026.export(complete, "bibtex", key_style=style)
    keys = list(parse_pybtex(text))
    assert len(set(keys)) == len(complete)
    for key, paper in zip(keys, complete):
        if style == "pmlr":
            assert key == paper.id and key in paper.alias_keys
        elif style == "canonical":
            assert key == paper.citation_key
        else:  # family + year + first title word, as OpenReview's BibTeX; a letter added for twins
            family = re.sub(r"[^a-z0-9]", "", strip_accents(paper.authors[0].family or "").lower())
            first_word = re.sub(r"[^a-z0-9]", "", strip_accents(paper.title.split()[0]).lower())
            assert re.fullmatch(rf"{re.escape(family)}2026{re.escape(first_word)}[a-z]?", key), (key, paper.title)


def test_duplicate_keys_are_disambiguated(complete):
    twins = [complete[0], dataclasses.replace(complete[0], id="pmlr-v306-twin26a")]
    keys = list(parse_pybtex(icml2026.export(twins, "bibtex")))
    assert len(keys) == 2 and keys[0] != keys[1] and keys[1].startswith(keys[0])


def test_unknown_key_style_is_a_usage_error(complete):
    with pytest.raises(icml2026.UsageError):
        icml2026.export(complete, "bibtex", key_style="nope")


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("hostile", HOSTILE)
def test_hostile_title_and_names_print_literally(complete, fmt, hostile):
    base = complete[0]
    text_ = f"Title {hostile} end"
    paper = with_text(base, text_, authors=(Person(family=f"Doe{hostile}", given=hostile),
                                            Person(literal=f"Org {hostile}")),
                      abstract=markup.escape(hostile + " tail"))
    out = icml2026.export([paper], fmt, abstract=True)
    for entries in (parse_bibtexparser(out), list(pybtex_entries(out).values())):
        assert len(entries) == 1
    entry = parse_bibtexparser(out)[0]
    assert entry["ID"] == base.citation_key
    assert latex_decode.decode(entry["title"]) == markup.escape(normalize_space(text_))
    assert latex_decode.decode(entry["abstract"]) == markup.escape(normalize_space(hostile + " tail"))
    authors = people(pybtex_entries(out)[base.citation_key].fields["author"], fmt)
    assert authors == [as_parsed(a) for a in paper.authors]


@pytest.mark.parametrize("fmt", FORMATS)
def test_no_unescaped_percent_and_balanced_braces(complete, fmt):
    paper = with_text(complete[0], "50% {of} \\% $x%$ }{", abstract=markup.escape("%%% }{"))
    out = icml2026.export([paper], fmt, abstract=True)
    assert not re.search(r"(?<!\\)%", out.replace("%2", "").replace("%7", ""))
    depth = 0
    for ch in out:
        depth += (ch == "{") - (ch == "}")
        assert depth >= 0
    assert depth == 0


def test_math_is_kept_and_protected_in_titles(complete):
    from pylatexenc.latexwalker import LatexMathNode, LatexWalker

    paper = dataclasses.replace(complete[0], title="Bounds of $O(N^2)$ for *Deep* Nets", title_protect=())
    for fmt in FORMATS:
        entry = parse_bibtexparser(icml2026.export([paper], fmt))[0]
        assert latex_decode.decode_title(entry["title"]) == (paper.title, [])
        nodes = LatexWalker(entry["title"]).get_latex_nodes()[0]
        maths = [n for n in nodes if hasattr(n, "nodelist") and n.nodelist
                 and isinstance(n.nodelist[0], LatexMathNode)]
        assert len(maths) == 1  # math sits alone in a brace group: protected from case change


def test_unsafe_math_is_written_as_text(complete):
    for value in ("\\input{/etc/passwd}", "}", "a % b", "\\def\\x{1}", "^^5cinput"):
        paper = dataclasses.replace(complete[0], title=f"T ${value}$", title_protect=())
        entry = parse_bibtexparser(icml2026.export([paper], "bibtex"))[0]
        decoded = latex_decode.decode(entry["title"])
        assert markup.parse(decoded) == [markup.Segment("text", f"T ${value}$")]  # literal dollars now


def test_verbatim_fields(complete):
    from icml2026.model import Links

    odd = "https://example.org/a b/{x}\\%zz%41é"
    paper = dataclasses.replace(complete[0], links=Links(proceedings=odd, pdf=complete[0].links.pdf))
    fields = parse_pybtex(icml2026.export([paper], "bibtex"))[paper.citation_key].fields
    from urllib.parse import unquote

    assert unquote(fields["url"]) == unquote(odd.replace("%zz", "%25zz"))
    assert "pdf" not in fields  # a PDF link becomes a broken file attachment in Zotero: module docstring
    assert not re.search(r"[\s{}\\]", fields["url"])


def test_title_protection_ranges_round_trip(complete):
    protected = [p for p in complete if p.title_protect]
    assert protected
    for fmt in FORMATS:
        entries = parse_pybtex(icml2026.export(protected, fmt))
        for paper in protected:
            title, ranges = latex_decode.decode_title(entries[paper.citation_key].fields["title"])
            assert title == paper.title
            assert ranges == written_protection(paper.title, paper.title_protect)


def test_partly_protected_words_are_protected_whole(complete):
    """PMLR's ``x{LSTM}`` would read "XLSTM" under biblatex's sentence case and pandoc's title case."""
    paper = dataclasses.replace(complete[0], title="xLSTM meets Monte Carlo", title_protect=((1, 5), (12, 13)))
    for fmt in FORMATS:
        fields = parse_pybtex(icml2026.export([paper], fmt))[paper.citation_key].fields
        assert fields["title"] == "{xLSTM} meets {Monte} Carlo"


def test_exporter_import_is_light():
    code = ("import sys, icml2026.cli, icml2026.exporters.bibtex as b; "
            "print(' '.join(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('bibtexparser', 'pylatexenc', 'jsonschema', 'click', 'pybtex'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_hostile_key_cannot_break_the_entry(complete, fmt):
    paper = dataclasses.replace(complete[0], citation_key="bad key,}\n@misc{evil, x=%")
    out = icml2026.export([paper], fmt)
    (entry,) = parse_bibtexparser(out)
    (key,) = pybtex_entries(out)
    assert entry["ID"] == key and re.fullmatch(r"[A-Za-z0-9_:.+/-]+", key)
    assert latex_decode.decode(entry["title"]) == paper.title


# --------------------------------------------------------------------------- real clients

@pytest.mark.parametrize("fmt", FORMATS)
def test_proceedings_names_survive_case_changing_styles(complete, fmt):
    """biblatex-apa, pandoc and Better BibTeX sentence-case booktitle/series unless protected.

    Sentence and lower case, what those readers apply (Better BibTeX's own parser:
    tests/test_bbt.py); no style upper-cases a proceedings title."""
    from pybtex.bibtex.utils import change_case

    fields = parse_pybtex(icml2026.export(complete[:1], fmt))[complete[0].citation_key].fields
    for name in ("booktitle", "series"):
        value = fields[name]
        for mode in ("t", "l"):  # BibTeX's change.case$ (pybtex's implementation)
            assert change_case(value, mode) == value, (name, mode)
        assert latex_decode.decode(value) in (complete[0].proceedings.booktitle, complete[0].proceedings.series)


@pytest.mark.parametrize("fmt", FORMATS)
def test_arxiv_id_is_eprint_with_eprinttype(complete, fmt):
    """Zotero's BibTeX import reads an arXiv id only from eprint + eprinttype."""
    with_arxiv = [p for p in complete if p.identifiers.arxiv]
    assert with_arxiv
    entries = {e["ID"]: e for e in parse_bibtexparser(icml2026.export(with_arxiv, fmt))}
    for paper in with_arxiv:
        entry = entries[paper.citation_key]
        assert entry["eprint"] == paper.identifiers.arxiv and entry["eprinttype"] == "arxiv"
        if fmt == "bibtex":  # the arXiv/natbib convention too (biblatex maps it to eprinttype)
            assert entry["archiveprefix"] == "arXiv"


def test_biblatex_writes_only_fields_of_biblatex_data_model(complete):
    """openreview and software are not biblatex fields (biber --validate-datamodel warns)."""
    paper = next(p for p in complete if p.links.code and p.identifiers.openreview)
    biblatex_fields = set(parse_pybtex(icml2026.export([paper], "biblatex"))[paper.citation_key].fields)
    assert not biblatex_fields & {"openreview", "software"}
    assert "url" in biblatex_fields
    bibtex_fields = parse_pybtex(icml2026.export([paper], "bibtex"))[paper.citation_key].fields
    assert bibtex_fields["openreview"] == paper.identifiers.openreview
    assert bibtex_fields["software"] == paper.links.code


BEYOND_PDFTEX_SYMBOL = ["\u2011", "\u03b1", "\u03a9", "\u0391", "\u2264", "\u221e", "\u00f0", "\u4e2d",
                        "\U0001F600", "\u200b", "\u202f", "\u1ec5", "\u2212"]


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("char", BEYOND_PDFTEX_SYMBOL)
def test_no_bare_symbol_beyond_255_and_text_reads_back(complete, fmt, char):
    """pdfTeX's \\symbol stops at 255 ("Bad character code"): a higher one only inside the idiom."""
    paper = with_text(complete[0], f"A{char}B {char}", authors=(Person(family=f"X{char}", given=char),))
    out = icml2026.export([paper], fmt)
    bare = re.sub(r"\{\\ifdefined\\Umathcode\\symbol\{\d+\}\\else", "", out)
    assert all(int(n) < 256 for n in re.findall(r"\\symbol\{(\d+)\}", bare))
    if fmt == "bibtex":
        assert out.isascii()
    (entry,) = parse_bibtexparser(out)
    assert latex_decode.decode(entry["title"]) == markup.escape(f"A{char}B {char}")
    assert people(pybtex_entries(out)[paper.citation_key].fields["author"], fmt) == list(paper.authors)


def test_math_characters_become_math_commands(complete):
    paper = dataclasses.replace(complete[0], title="Rates $\u03b1 \u2264 \u03b2x$ and $\u4e2d$", title_protect=())
    for fmt in FORMATS:
        title = parse_bibtexparser(icml2026.export([paper], fmt))[0]["title"]
        assert "{$\\alpha \\leq \\beta x$}" in title
        last = markup.parse(latex_decode.decode(title))[-1]
        assert last.kind == "text" and last.value.endswith("and $\u4e2d$")  # no math form: literal text


def test_generated_table_is_pylatexencs(complete):
    """icml2026.bibtex.latex_table holds pylatexenc's entries (a subset), except the documented override."""
    from pylatexenc.latexencode import get_builtin_uni2latex_dict

    from icml2026.bibtex import latex_table

    builtin = get_builtin_uni2latex_dict()
    for table in (latex_table.TEXT, latex_table.LOSSY):
        for cp, value in table.items():
            assert value == builtin[cp] or (cp == 0x2011 and value == "-"), hex(cp)
    for cp, value in latex_table.MATH.items():
        assert builtin[cp] == "\\ensuremath{" + value + "}", hex(cp)
    for cp in [*latex_table.TEXT, *latex_table.LOSSY]:  # exactly, up to NFC (U+212B is U+00C5)
        expected = markup.escape(unicodedata.normalize("NFC", chr(cp)))
        assert unicodedata.normalize("NFC", latex_decode.decode(latex_encode.encode_char(chr(cp)))) == expected, hex(cp)
