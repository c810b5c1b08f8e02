"""The whole volume's data against its sources and the rules of the issue that audited it.

Case protection: a style that lower-cases titles (``plainnat``, biblatex-apa, pandoc) keeps
only what is inside braces.  The rule Better BibTeX documents (a word with an inner capital
or a capital with digits is braced), one-letter capitals, and the proper nouns the audit
named are checked on the exported BibTeX and BibLaTeX of every paper, read with a brace
scanner written here (not the exporter's own code).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import icml2026

# Named by the audit as lost by lower-casing styles; each checked in its titles.
AUDITED_PROPER_NOUNS = {
    "Muon", "Rashomon", "Doob", "Massart", "Aitchison", "Kepler", "Heisenberg", "Hellinger", "Mises",
    "Kruskal", "Huber", "Onsager", "Amari", "Verilog", "Gemini", "Hanabi", "India", "Rosetta", "Cézanne",
}
# Ordinary words in these titles: never braced on their own.
ORDINARY = {"Black", "Box", "Meta", "Learning", "Slack", "Oracle", "Habitat", "Unity", "Go", "The", "Networks"}
LEAN_THE_PROVER = {"ammanamanchi26a", "letson26a", "liu26gp", "tang26ac", "zhang26cd", "zuo26f"}


def unbraced_words(value: str) -> list[tuple[str, str]]:
    """Words of a BibTeX title value (without its outer braces) that stand outside braces,
    each with the character after it.

    ``{\\'e}``-style special characters count as letters of the word around them (BibTeX
    changes their case like letters); ``$…$`` math and ``\\commands`` are not words.
    """
    out, depth, i = [], 0, 0
    while i < len(value):
        c = value[i]
        if depth == 0 and value.startswith("{\\", i):  # a special character: its letter
            end = value.index("}", i)
            while value.count("{", i, end + 1) > value.count("}", i, end + 1):
                end = value.index("}", end + 1)
            letters = re.sub(r"\\[a-zA-Z]+|[^a-zA-Z]", "", value[i + 1:end])
            out.append(letters[-1:] or " ")
            i = end + 1
            continue
        if c == "{":
            depth += 1
            out.append(" ")
        elif c == "}":
            depth -= 1
            out.append(" ")
        elif depth == 0 and c == "$":
            i = value.index("$", i + 1)
            out.append(" ")
        elif depth == 0 and c == "\\":
            m = re.match(r"\\(?:[a-zA-Z]+|.)", value[i:])
            i += len(m.group(0))
            out.append(" " if m.group(0)[1:].isalpha() else m.group(0)[1:])  # \* is "*"
            continue
        else:
            out.append(c if depth == 0 else " ")
        i += 1
    text = "".join(out)
    return [(m.group(0), text[m.end():m.end() + 1]) for m in re.finditer(r"[^\W_]+", text)]


def braced_words(value: str) -> set[str]:
    return {w for m in re.finditer(r"\{([^{}\\$]+)\}", value) for w in re.findall(r"[^\W_]+", m.group(1))}


def must_be_protected(word: str, after: str) -> bool:
    inner_capital = re.search(r".[A-Z]", word)
    capital_and_digit = re.search(r"[A-Z]", word) and re.search(r"[0-9]", word)
    one_capital = re.fullmatch(r"[A-Z]", word) and not (word == "A" and after in ("", " "))
    return bool(inner_capital or capital_and_digit or one_capital or word in AUDITED_PROPER_NOUNS)


def titles(text: str) -> dict[str, str]:
    """citation key → title value of each entry of our BibTeX/BibLaTeX export."""
    found = {}
    for block in re.split(r"^@", text, flags=re.MULTILINE)[1:]:
        key = block[block.index("{") + 1:block.index(",")]
        m = re.search(r"^  title = \{(.*)\},?$", block, re.MULTILINE)
        assert m, key
        found[key] = m.group(1)
    return found


@pytest.fixture(scope="module")
def exported(volume: icml2026.PaperCollection) -> dict[str, dict[str, str]]:
    return {fmt: titles(icml2026.export(volume.complete, fmt)) for fmt in ("bibtex", "biblatex")}


def test_scanner_sees_braces_as_a_lower_casing_style_does() -> None:
    value = "{\\textquotedblleft}{Someone} Hid It: C{\\'e}zanne, {Graph-R1} and $\\ell_1$ A\\* Q-learning"
    assert [w for w, _ in unbraced_words(value)] == ["Hid", "It", "Cezanne", "and", "A", "Q", "learning"]
    assert dict(unbraced_words(value))["A"] == "*"


def test_no_identifier_or_proper_noun_outside_braces(volume: icml2026.PaperCollection,
                                                     exported: dict[str, dict[str, str]]) -> None:
    for fmt, by_key in exported.items():
        bad = []
        for key, value in by_key.items():
            for word, after in unbraced_words(value):
                if must_be_protected(word.replace("Cezanne", "Cézanne"), after):
                    bad.append((key, word))
        assert bad == [], (fmt, len(bad), bad[:20])


def test_audited_titles_keep_their_capitals(volume: icml2026.PaperCollection,
                                            exported: dict[str, dict[str, str]]) -> None:
    by_key = exported["biblatex"]
    value = {p.identifiers.pmlr: by_key[p.citation_key] for p in volume.complete}
    assert "{Someone}" in value["li26g"]  # a quotation mark before the first letter
    assert "{I}" in value["farzaneh26a"] and "{I}" in value["leang26a"]  # Should I Have…, Can I Have…
    assert "{Hide}" in value["ellinson26a"] and "{Seek}" in value["ellinson26a"]
    assert "{Seg}" in value["yan26y"] or "Seg" not in value["yan26y"]
    for pmlr_id in LEAN_THE_PROVER:
        assert "{Lean}" in value[pmlr_id], pmlr_id
    assert "Lean on Priors" in value["thimmaiah26a"]  # the verb stays ordinary


def source_braced_words(shared: Path) -> dict[str, set[str]]:
    """OpenReview id → the words PMLR's own BibTeX braces in the paper's title."""
    text = (shared / "corpora" / "pmlr-v306-facts.bib").read_text(encoding="utf-8")
    found = {}
    for block in re.split(r"^@", text, flags=re.MULTILINE)[1:]:
        title = re.search(r"^\s*title = \{(.*)\},?$", block, re.MULTILINE)
        openreview = re.search(r"^\s*openreview = \{(.*)\},?$", block, re.MULTILINE)
        if title and openreview:
            # a word with any braced letter: {L}earning, {LLM}s, {Learning}
            found[openreview.group(1)] = {w.replace("{", "").replace("}", "") for w in
                                          re.findall(r"[\w{}]+", title.group(1)) if "{" in w or "}" in w}
    return found


def test_ordinary_words_are_never_braced_alone(volume: icml2026.PaperCollection, shared: Path,
                                               exported: dict[str, dict[str, str]]) -> None:
    by_source = source_braced_words(shared)
    for fmt, by_key in exported.items():
        for paper in volume.complete:
            added = braced_words(by_key[paper.citation_key]) - by_source[paper.identifiers.openreview]
            assert not added & ORDINARY, (fmt, paper.citation_key, added & ORDINARY)


FORGES = re.compile(r"https?://(?:www\.)?(?:github\.com|gitlab\.com|[\w.-]*gitlab\.[\w.-]+|jugit\.[\w.-]+|"
                    r"anonymous\.4open\.science)/")


def test_code_links_are_source_repositories(volume: icml2026.PaperCollection, shared: Path) -> None:
    text = (shared / "corpora" / "pmlr-v306-facts.bib").read_text(encoding="utf-8")
    software = {}
    for block in re.split(r"^@", text, flags=re.MULTILINE)[1:]:
        found = dict(re.findall(r"^\s*(openreview|software) = \{(.*)\},?$", block, re.MULTILINE))
        if "software" in found:
            software[found["openreview"]] = found["software"]
    code = project = 0
    for paper in volume.complete:
        if paper.links.code:
            assert FORGES.match(paper.links.code), (paper.id, paper.links.code)
            code += 1
        value = software.get(paper.identifiers.openreview)
        if value and value.startswith("https://") and " " not in value and not FORGES.match(value):
            # a project page, model, data set, DOI or paper: never the code link, always explained
            assert paper.links.code is None, paper.id
            assert any(re.search(r"not a (source|code) repository|not software|not the paper.s code", n)
                       for n in paper.notes), paper.id
            project += paper.links.project is not None
    assert code > 3000 and project > 150
    assert any(".git" in n for n in volume["pmlr-v306-zhao26ac"].notes)  # the clone suffix, noted
    assert volume["pmlr-v306-feng26ac"].links.code is None and any("software" in n for n in volume["pmlr-v306-feng26ac"].notes)


def test_upstream_corrections_are_applied_with_their_commit(volume: icml2026.PaperCollection, shared: Path) -> None:
    import json

    data = json.loads((shared / "data" / "upstream-corrections.json").read_text(encoding="utf-8"))
    assert data["corrections"]
    for fix in data["corrections"]:
        paper = volume[f"pmlr-v306-{fix['pmlr_id']}"]
        assert paper.identifiers.openreview == fix["openreview"]
        index = int(fix["pointer"].rsplit("/", 1)[1])
        author = paper.authors[index]
        assert (author.family, author.given) == (fix["new"]["family"], fix["new"]["given"])
        assert paper.source_of("/authors").url == fix["url"] and fix["commit"] in fix["url"]
        assert any(fix["commit"][:7] in n for n in paper.notes)
    # The volume file itself still has the old value: the correction is not a copy of it.
    bib = (shared / "corpora" / "pmlr-v306-facts.bib").read_text(encoding="utf-8")
    assert "Z., Ryan Lee T." in bib


def test_no_decoded_title_or_abstract_keeps_tex(volume: icml2026.PaperCollection) -> None:
    # Outside math, the markup's only escapes are backslash + punctuation (\*, \&, \$).
    tex = re.compile(r"\\[A-Za-z]+|``|''|`[^`]*'|[{}]|\u2011")
    for paper in volume:
        for name, text in (("title", paper.title), ("abstract", paper.abstract)):
            if text:
                outside_math = re.sub(r"\$(?:\\.|[^\\$])*\$", " ", text)
                assert not tex.search(outside_math), (paper.id, name, tex.search(outside_math))
    assert volume["pmlr-v306-sansford26a"].title.startswith("How High is ‘High’?")
