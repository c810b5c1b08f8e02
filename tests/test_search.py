"""Finding a paper: ranking, whole-token author names, identifiers and URLs, bounded
listings with counts, and ``show`` by the start of a title.

Golden behaviour is pinned on small collections built here from model objects; the
packaged volume (fixture ``volume``) is used through the seed papers, whose facts are
known, and for checks over every paper.
"""

from __future__ import annotations

import unicodedata

import pytest

import icml2026
from icml2026.cli import main
from icml2026.cli.cmd_list import count_line, listing
from icml2026.cli.cmd_show import by_title
from icml2026.errors import UsageError
from icml2026.model import Identifiers, Links, Paper, Person, Proceedings
from icml2026.search import Index


def _counts(papers: icml2026.PaperCollection) -> tuple[int, int]:
    return len(papers), len(papers.complete)

PROC = Proceedings(id="pmlr-v306", year=2026, volume=306)


def paper(key: str, title: str = "Untitled", authors: str = "", *, abstract: str | None = None,
          method: str | None = None, complete: bool = True, **ids: str) -> Paper:
    """A paper; *authors* is ``"Given Family; Given Family"``."""
    people = tuple(Person(given=" ".join(n.split()[:-1]) or None, family=n.split()[-1])
                   for n in authors.split(";") if n.strip())
    return Paper(id=f"pmlr-v306-{key}", proceedings=PROC, citation_key=key, title=title,
                 authors=people, abstract=abstract, method_name=method,
                 status="complete" if complete else "incomplete",
                 identifiers=Identifiers(pmlr=ids.get("pmlr"), openreview=ids.get("openreview"),
                                         arxiv=ids.get("arxiv")),
                 links=Links(proceedings=ids.get("proceedings"), code=ids.get("code")))


def labels(found: icml2026.PaperCollection) -> list[str]:
    return [p.label for p in found]


# -- ranking -------------------------------------------------------------------------
RANKED = icml2026.PaperCollection([
    paper("e2026ids", "Nothing here", "Ann Other", pmlr="diffusion26a"),
    paper("d2026method", "Nothing here", "Ann Other", method="DiffusionNet"),
    paper("c2026abstract", "Nothing here", "Ann Other", abstract="We study diffusion models."),
    paper("b2026author", "Nothing here", "Wei Diffusion"),
    paper("a2026title", "Diffusion Models Revisited", "Ann Other"),
    paper("f2026title", "Latent diffusion, again", "Ann Other"),
    paper("g2026none", "Transformers", "Ann Other"),
])


def test_rank_title_then_authors_then_abstract_then_the_rest() -> None:
    assert labels(RANKED.search("diffusion")) == [
        "a2026title", "f2026title",  # title; within a rank, collection order
        "b2026author", "c2026abstract", "d2026method", "e2026ids"]


def test_rank_is_the_worst_field_a_word_needs() -> None:
    found = icml2026.PaperCollection([
        paper("x2026both", "Diffusion for Graphs", "Yu Kim"),
        paper("y2026title", "Graph Kim Diffusion", "Ann Other"),
    ]).search("kim diffusion")
    assert labels(found) == ["y2026title", "x2026both"]  # all in the title beats title + author


def test_every_word_must_match_somewhere() -> None:
    assert labels(RANKED.search("diffusion transformers")) == []
    assert labels(RANKED.search("revisited diffusion")) == ["a2026title"]


def test_order_is_deterministic_and_a_ranking_is_kept() -> None:
    found = RANKED.search("diffusion")
    assert labels(found) == labels(RANKED.search("DIFFUSION"))
    assert labels(found.complete) == labels(found)  # subsets keep the rank order


def test_words_start_words_of_titles_not_the_middle() -> None:
    papers = icml2026.PaperCollection([
        paper("a2026graphs", "Graphs and subgraphs"),
        paper("b2026sub", "On subgraph counting"),
        paper("c2026rel", "Reliable linear probes"),
    ])
    assert labels(papers.search("graph")) == ["a2026graphs"]
    assert labels(papers.search("li")) == ["c2026rel"]  # "linear", never "reliable"
    assert labels(papers.search("eliable")) == []


def test_phrase_with_punctuation_and_accents() -> None:
    papers = icml2026.PaperCollection([
        paper("a2026shap", "Exactly Computing do-Shapley Values"),
        paper("b2026shap", "Shapley values do not lie"),
        paper("c2026muntz", "Physics-Informed Müntz–Szász Networks"),
    ])
    assert labels(papers.search("do-shapley")) == ["a2026shap"]
    assert labels(papers.search("do shapley")) == ["a2026shap", "b2026shap"]
    assert labels(papers.search("MUNTZ szász")) == ["c2026muntz"]
    assert labels(papers.search("muntz-szasz")) == ["c2026muntz"]


def test_no_words_means_no_filter() -> None:
    assert labels(RANKED.search("")) == labels(RANKED)
    assert labels(RANKED.search(" – ")) == labels(RANKED)
    assert len(icml2026.PaperCollection([]).search("x")) == 0


def test_separator_characters_inside_records_do_not_shift_papers() -> None:
    papers = icml2026.PaperCollection([paper("a2026x", "alpha\x00beta", "Ann\x01 Bee"),
                                       paper("b2026y", "gamma", "Cid Dee")])
    assert labels(papers.search("beta")) == ["a2026x"]
    assert labels(papers.search("gamma")) == ["b2026y"]
    assert labels(papers.search(author="dee")) == ["b2026y"]


def test_empty_collection() -> None:
    empty = icml2026.PaperCollection([])
    assert len(empty.search("x")) == len(empty.search("", author="x")) == 0
    assert len(empty.with_title_prefix("x")) == 0 and len(empty._search_index().title) == 0


def test_stored_index_gives_the_same_results() -> None:
    built = RANKED._search_index()
    text = built.to_text()
    restored = Index.from_text(text, len(RANKED))
    assert restored is not None
    again = icml2026.PaperCollection(RANKED)
    again.use_search_index(restored)
    for query in ("diffusion", "nothing here", "other"):
        assert labels(again.search(query)) == labels(RANKED.search(query))
    assert labels(again.search(author="wei diffusion")) == ["b2026author"]
    assert Index.from_text(text, len(RANKED) + 1) is None                 # other papers
    assert Index.from_text(text.replace(Index.FORMAT, "old 0"), len(RANKED)) is None
    with pytest.raises(ValueError):
        again.use_search_index(PEOPLE._search_index())


def test_index_scanned_in_its_bytes_finds_what_the_built_one_finds(volume: icml2026.PaperCollection) -> None:
    # icml2026 list opens the stored index as bytes (Index.from_bytes: nothing split or
    # decoded); the oracle is the index folded from the records themselves.

    from icml2026.store.records import data_dir

    built = icml2026.PaperCollection._ordered(list(volume))._search_index()
    stored = Index.from_bytes((data_dir() / "search-index.txt").read_bytes(), len(volume))
    assert stored is not None
    for query in _queries(volume, 27, ["ø", "zzzz", "graph graph"]):
        assert stored.rank(query) == built.rank(query), query
        assert stored.title_prefix(query) == built.title_prefix(query), query
        if query.strip():
            assert stored.author_papers(query) == built.author_papers(query), query
    assert len(stored.rank("graph neural") or [set()] * 4) == 4 and (stored.rank("graph neural") or [set()])[0]
    assert Index.from_bytes(b"old 0\x1e", len(volume)) is None
    assert Index.from_bytes((data_dir() / "search-index.txt").read_bytes(), len(volume) + 1) is None


def test_word_index_lines_hold_each_fields_papers_as_gaps() -> None:
    # Hand-derived: title, authors, authors joined up (Müller → mueller), abstract, other.
    built = Index([paper("a2026g", "Graph Nets", "Ann Müller"),
                   paper("b2026g", "Graphs", "Bo Li", abstract="Graph nets.")])
    rows = [("a2026g", "", "", "", "", "0"), ("ann", "", "0", "0", "", ""), ("b2026g", "", "", "", "", "1"),
            ("bo", "", "1", "1", "", ""), ("graph", "0", "", "", "1", ""), ("graphs", "1", "", "", "", ""),
            ("li", "", "1", "1", "", ""), ("mueller", "", "", "0", "", ""), ("muller", "", "0", "", "", ""),
            ("nets", "0", "", "", "1", ""), ("pmlr", "", "", "", "", "0 1"), ("v306", "", "", "", "", "0 1")]
    assert built.to_words() == f"{Index.FORMAT} words\t2\n" + "".join("\t".join(r) + "\n" for r in rows)
    assert Index([]).to_words() == f"{Index.FORMAT} words\t0\n"


# Queries for comparing two indexes: fixed hard cases, *extra*, and from 40 papers drawn with
# *seed* two words of the title and the first author's name.
_FIXED_QUERIES = ["graph neural", "diffusion", "li", "müller", "mueller", "do-shapley", "n’guessan", "chao-han",
                  "quantum boost", "the of"]


def _queries(volume: icml2026.PaperCollection, seed: int, extra: list[str]) -> list[str]:
    import random

    rnd = random.Random(seed)
    queries = [*_FIXED_QUERIES, *extra]
    for sample in rnd.sample(list(volume), 40):
        title = (sample.title or "").split()
        queries.append(" ".join(rnd.sample(title, min(2, len(title)))))
        queries.append(" ".join(filter(None, (sample.authors[0].given, sample.authors[0].family))))
    return queries


def _from_words(built: Index, size: int) -> tuple[Index, list[int]]:
    """The word index of *built*, and a list that counts the openings of its scanned index."""
    opened: list[int] = []
    scanned = Index.from_text(built.to_text(), size)
    assert scanned is not None

    def scan() -> Index:
        opened.append(1)
        return scanned

    restored = Index.from_words(built.to_words().encode(), size, scan)
    assert restored is not None
    return restored, opened


def test_word_index_finds_what_the_built_one_finds() -> None:
    papers = icml2026.PaperCollection([*RANKED, *PEOPLE, paper("z2026shap", "Do-Shapley values", "Zoë Ødegaard")])
    built = papers._search_index()
    restored, _ = _from_words(built, len(papers))
    for query in ("diffusion", "diff", "nothing here", "other", "wei", "li", "müller", "mueller", "zzz", "ø",
                  "odegaard", "do-shapley", "n’guessan", "d", "z", "v306 pmlr", "zoe"):
        assert restored.rank(query) == built.rank(query), query
        assert restored.title_prefix(query) == built.title_prefix(query), query
        assert restored.author_papers(query) == built.author_papers(query), query
    assert Index.from_words(built.to_words().encode(), len(papers) + 1, lambda: built) is None
    assert Index.from_words(b"old 0 words\t3\n", 3, lambda: built) is None


def test_words_alone_answer_a_query_of_whole_words() -> None:
    restored, opened = _from_words(RANKED._search_index(), len(RANKED))
    assert restored.rank("diffusion models") == RANKED._search_index().rank("diffusion models")
    assert opened == []                       # no phrase, no person: the scanned index stays shut
    restored.rank("latent-diffusion")
    assert opened                             # a phrase is scanned for


@pytest.fixture(scope="module")
def built_volume_index(volume: icml2026.PaperCollection) -> Index:
    return icml2026.PaperCollection._ordered(list(volume))._search_index()


def test_stored_word_index_is_what_the_build_makes(built_volume_index: Index) -> None:
    from icml2026.store.records import data_dir

    assert (data_dir() / "search-words.tsv").read_text(encoding="utf-8") == built_volume_index.to_words()


def test_stored_word_index_finds_what_the_built_one_finds(volume: icml2026.PaperCollection,
                                                          built_volume_index: Index) -> None:

    from icml2026.search import StaleIndex
    from icml2026.store.records import data_dir

    scanned = Index.from_bytes((data_dir() / "search-index.txt").read_bytes(), len(volume))
    assert scanned is not None
    words_data = (data_dir() / "search-words.tsv").read_bytes()
    stored = Index.from_words(words_data, len(volume), lambda: scanned)
    assert stored is not None
    for query in _queries(volume, 306, ["a", "ø", "zzzz", "graph graph", "e", "learn"]):
        assert stored.rank(query) == built_volume_index.rank(query), query
        if query.strip():
            assert stored.author_papers(query) == built_volume_index.author_papers(query), query

    def stale() -> Index:
        raise StaleIndex("search-index.txt")

    shut = Index.from_words(words_data, len(volume), stale)
    assert shut is not None and (shut.rank("graph neural") or [set()])[0]
    with pytest.raises(StaleIndex):
        shut.rank("do-shapley")


def test_index_is_built_once_per_collection() -> None:
    papers = icml2026.PaperCollection(RANKED)
    papers.search("diffusion")
    index = papers._search_index()
    papers.search("models", author="other")
    assert papers._search_index() is index


# -- author names ----------------------------------------------------------------------
PEOPLE = icml2026.PaperCollection([
    paper("a2026li", "One", "Yang Li; Wei Chen"),
    paper("b2026renzulli", "Two", "Riccardo Renzulli; Bo Lin"),
    paper("c2026muller", "Three", "Mathias Müller; Søren Łukasz"),
    paper("d2026mueller", "Four", "Hans Mueller"),
    paper("e2026nguessan", "Five", "Gnankan N’Guessan; Eric Fosler-Lussier"),
    paper("f2026split", "Six", "Yang Chen; Wei Li"),
])


@pytest.mark.parametrize("query,expected", [
    ("li", ["a2026li", "f2026split"]),           # never Renzulli, never Lin
    ("lin", ["b2026renzulli"]),
    ("müller", ["c2026muller", "d2026mueller"]),  # typed with ü: either spelling
    ("mueller", ["c2026muller", "d2026mueller"]),  # German spelling of ü
    ("muller", ["c2026muller"]),                   # accents folded; no umlaut typed: not Mueller
    ("soren lukasz", ["c2026muller"]),           # ø and ł, which NFKD does not decompose
    ("nguessan", ["e2026nguessan"]),             # joined up
    ("n'guessan", ["e2026nguessan"]),
    ("N’Guessan", ["e2026nguessan"]),
    ("fosler-lussier", ["e2026nguessan"]),
    ("foslerlussier", ["e2026nguessan"]),
    ("lussier", ["e2026nguessan"]),
    ("guess", []),                               # whole tokens only
])
def test_query_words_match_whole_name_tokens(query: str, expected: list[str]) -> None:
    assert labels(PEOPLE.search(query)) == expected


@pytest.mark.parametrize("author,expected", [
    ("li", ["a2026li", "f2026split"]),
    ("Li", ["a2026li", "f2026split"]),
    ("yang li", ["a2026li"]),          # both words in one person's name…
    ("li yang", ["a2026li"]),          # …in any order
    ("wei chen", ["a2026li"]),         # not f2026split: Yang Chen and Wei Li are two people
    ("zulli", []),
    ("Muller", ["c2026muller"]),
    ("Hans Müller", ["d2026mueller"]),
    ("mathias mueller", ["c2026muller"]),
    ("nguessan", ["e2026nguessan"]),
])
def test_author_option_matches_whole_tokens_of_one_person(author: str, expected: list[str]) -> None:
    assert labels(PEOPLE.search(author=author)) == expected


def test_decomposed_names_match_like_composed_ones() -> None:
    decomposed = icml2026.PaperCollection([paper("a2026nfd", "T", unicodedata.normalize("NFD", "Jörg Müller"))])
    for query in ("muller", "mueller", "Müller", "joerg"):
        assert labels(decomposed.search(query)) == ["a2026nfd"], query


def test_author_and_words_together() -> None:
    assert labels(PEOPLE.search("three", author="muller")) == ["c2026muller"]
    assert labels(PEOPLE.search("four", author="muller")) == []


def test_packaged_authors(volume: icml2026.PaperCollection) -> None:
    """Seed papers whose authors are known, among all the names of the volume."""
    li = labels(volume.search(author="li"))
    assert "li2026praglocker" in li and "cassano2026saemnesia" not in li  # Renzulli
    assert "chagneux2026efficient" in labels(volume.search(author="mueller"))  # Mathias Müller
    assert "nguessan2026discovering" in labels(volume.search(author="nguessan"))
    assert "witter2026exactly" in labels(volume.search(author="alvaro"))      # Álvaro Parafita
    assert labels(volume.search("saemnesia", author="renzulli")) == ["cassano2026saemnesia"]


# -- identifiers and URLs ----------------------------------------------------------------
@pytest.mark.parametrize("query,key", [
    ("zhao2026benchmarking", "zhao2026benchmarking"),
    ("zhao26ac", "zhao2026benchmarking"),
    ("ZHAO26AC", "zhao2026benchmarking"),
    ("pmlr-v306-zhao26ac", "zhao2026benchmarking"),
    ("Pj1Z7dWm4v", "zhao2026benchmarking"),
    ("https://openreview.net/forum?id=Pj1Z7dWm4v", "zhao2026benchmarking"),
    ("https://openreview.net/pdf?id=Pj1Z7dWm4v", "zhao2026benchmarking"),
    ("openreview.net/forum?id=Pj1Z7dWm4v&noteId=abc", "zhao2026benchmarking"),
    ("https://proceedings.mlr.press/v306/zhao26ac.html", "zhao2026benchmarking"),
    ("http://proceedings.mlr.press/v306/zhao26ac.pdf", "zhao2026benchmarking"),
    ("https://proceedings.mlr.press/v306/zhao26ac/zhao26ac.pdf", "zhao2026benchmarking"),
    ("https://proceedings.mlr.press/v306/n-guessan26a.html", "nguessan2026discovering"),
    # arXiv 2512.25066: the seed's fact for he26au, from arXiv's own listing.
    ("2512.25066", "he2026inpainting"),
    ("arXiv:2512.25066v2", "he2026inpainting"),
    ("https://arxiv.org/abs/2512.25066v1", "he2026inpainting"),
    ("https://arxiv.org/pdf/2512.25066.pdf", "he2026inpainting"),
    (" li26d ", "li2026praglocker"),
])
def test_identifier_queries_give_that_paper_alone(volume: icml2026.PaperCollection,
                                                  query: str, key: str) -> None:
    assert labels(volume.search(query)) == [key]
    assert volume.find(query) is volume[key]


def test_identifier_query_with_author_filter(volume: icml2026.PaperCollection) -> None:
    assert labels(volume.search("li26d", author="qinfeng li")) == ["li2026praglocker"]
    assert labels(volume.search("li26d", author="renzulli")) == []


@pytest.mark.parametrize("query", [
    "https://proceedings.mlr.press/v305/zhao26ac.html",  # another volume
    "https://openreview.net/forum?id=nothere123",
    "arXiv:9999.99999",
    "zhao26ac extra",                                     # not one identifier
])
def test_what_is_not_an_identifier(volume: icml2026.PaperCollection, query: str) -> None:
    assert volume.find(query) is None


def test_every_paper_of_the_volume_resolves(volume: icml2026.PaperCollection) -> None:
    for paper in volume.complete:
        pmlr = paper.identifiers.pmlr
        assert pmlr is not None
        assert volume.find(pmlr) is paper
        assert volume.find(f"https://proceedings.mlr.press/v306/{pmlr}.html") is paper
        assert volume.find(f"https://proceedings.mlr.press/v306/{pmlr}/{pmlr}.pdf") is paper


def test_paper_link_urls_identify_their_paper() -> None:
    papers = icml2026.PaperCollection([
        paper("a2026x", proceedings="https://example.org/Papers/A/", code="https://github.com/lab/shared"),
        paper("b2026y", code="https://github.com/lab/shared"),
    ])
    assert papers.find("http://www.example.org/papers/a") is papers["a2026x"]
    assert papers.find("https://github.com/lab/shared") is None  # shared by two papers


# -- listing: bounded, with counts ----------------------------------------------------------
MANY = icml2026.PaperCollection([paper(f"p2026n{i:04d}", f"Paper {i}", "Ann Other") for i in range(1000)]
                                + [paper("q2026inc", "Incomplete", complete=False)])


def test_count_line_wording() -> None:
    assert count_line(*_counts(MANY)) == "1,001 papers (1,000 complete, 1 incomplete)"
    assert count_line(*_counts(MANY.search("incomplete"))) == "1 paper (0 complete, 1 incomplete)"
    assert count_line(*_counts(MANY.search("zzz"))) == "0 papers (0 complete, 0 incomplete)"


def test_listing_is_bounded_with_a_line_for_the_rest() -> None:
    lines = listing(MANY, 3)
    assert len(lines) == 5
    assert lines[0].startswith("p2026n0000 ")
    assert lines[3] == "… and 998 more (use --limit 0 to list all)\n"
    assert lines[4] == "1,001 papers (1,000 complete, 1 incomplete)\n"
    assert len(listing(MANY, 0)) == 1002                      # 0 = all, no "more" line
    assert listing(MANY.search("paper 7"), 20)[-2] == "… and 91 more (use --limit 0 to list all)\n"
    assert listing(MANY.search("p2026n0007"), 20) == [  # fewer than the limit: no "more" line
        "p2026n0007                   Ann Other: Paper 7\n", "1 paper (1 complete, 0 incomplete)\n"]


def test_whole_volume_count_line(volume: icml2026.PaperCollection) -> None:
    # The 6,552 papers of PMLR volume 306, all complete (the seed's incomplete record became
    # pmlr-v306-ding26n); the count line still names the incomplete ones.
    assert count_line(*_counts(volume)) == "6,552 papers (6,552 complete, 0 incomplete)"


def test_cli_list_whole_package(volume: icml2026.PaperCollection,
                                capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    shown = min(20, len(volume))
    assert len(lines) == shown + (2 if len(volume) > 20 else 1)
    complete = len(volume.complete)
    assert lines[-1] == f"{len(volume):,} papers ({complete:,} complete, {len(volume) - complete:,} incomplete)"
    if len(volume) > 20:
        assert lines[-2] == f"… and {len(volume) - 20:,} more (use --limit 0 to list all)"
    assert [line.split()[0] for line in lines[:shown]] == labels(volume)[:shown]


def test_cli_limit(volume: icml2026.PaperCollection, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list", "--limit", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[0] == volume[0].label
    assert lines[1:] == [f"… and {len(volume) - 1:,} more (use --limit 0 to list all)",
                         count_line(*_counts(volume))]
    assert main(["search", "-n", "0", "graph"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(volume.search("graph")) + 1


def test_cli_list_json_is_not_cut_by_the_default_limit(volume: icml2026.PaperCollection,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list", "--json", "--query", "learning"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == len(volume.search("learning"))
    assert main(["list", "--json", "-n", "1", "--query", "learning"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 1


def test_cli_ranked_listing(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["search", "graph", "combinatorial", "optimization"]) == 0
    lines = capsys.readouterr().out.splitlines()
    keys = [line.split()[0] for line in lines[:-1]]
    assert {"canturk2026can", "huang2026optimal"} <= set(keys)


def test_cli_rejects_a_bad_limit(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["list", "--limit", "-1"])
    assert "not a count of papers: '-1'" in capsys.readouterr().err


# -- show by the start of a title -------------------------------------------------------------
TITLES = icml2026.PaperCollection([
    paper("a2026learn", "Learning to Rank"),
    paper("b2026learn", "Learning"),
    paper("c2026learn", "Learning-Augmented Müntz Bounds"),
    paper("d2026deep", "Deep Nets"),
])


def test_title_prefix() -> None:
    assert by_title(TITLES, "deep") is TITLES["d2026deep"]
    assert by_title(TITLES, "LEARNING AUGMENTED MUNTZ") is TITLES["c2026learn"]  # case, accents, punctuation
    assert by_title(TITLES, "learning to r") is TITLES["a2026learn"]           # last word cut short
    assert by_title(TITLES, "Learning") is TITLES["b2026learn"]                # an exact title wins
    assert by_title(TITLES, "nets") is None                                    # a start, not a middle


def test_ambiguous_title_prefix_is_a_one_line_error() -> None:
    with pytest.raises(UsageError) as caught:
        by_title(TITLES, "learn")
    assert str(caught.value) == ("'learn' starts the titles of 3 papers: a2026learn (Learning to "
                                 "Rank), b2026learn (Learning), c2026learn (Learning-Augmented "
                                 "Müntz Bounds); give more of the title, or a key")


def test_cli_show_by_title(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", "benchmarking the SCIENTIFIC mind"]) == 0
    assert capsys.readouterr().out.startswith("zhao2026benchmarking  (pmlr-v306-zhao26ac)\n")
    assert main(["show", "Discovering Scaling Exponents with Physics-Informed Muntz"]) == 0
    assert capsys.readouterr().out.startswith("nguessan2026discovering  ")
    assert main(["show", "https://openreview.net/forum?id=PWhmZ04OTr"]) == 0
    assert capsys.readouterr().out.startswith("li2026praglocker  ")


def test_cli_show_ambiguous_title(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", "Ca"]) == 2  # "Can Computational …" and "Causal Dependency …"
    err = capsys.readouterr().err
    assert err.startswith("icml2026: error: 'Ca' starts the titles of ") and err.count("\n") == 1
    assert err.endswith("; give more of the title, or a key\n")


# -- queries of any size: bounded, and linear in their distinct words -------------------------

def test_a_query_longer_than_the_bound_is_refused_before_any_scan(monkeypatch) -> None:
    from icml2026 import search

    scans: list[object] = []
    monkeypatch.setattr(search.Field, "papers", lambda self, needle: scans.append(needle) or set())
    for text in ("x " * (search.MAX_QUERY_CHARS // 2 + 1), "y" * 1_000_000):
        with pytest.raises(UsageError, match=r"the search query has [\d,]+ characters; at most 20,000"):
            RANKED.search(text)
    with pytest.raises(UsageError, match="the search author has"):
        RANKED.search("diffusion", author="Li " * 10_001)
    assert scans == []


def test_a_repeated_word_is_searched_once_and_a_word_no_paper_has_ends_the_search(monkeypatch) -> None:
    from icml2026 import search

    scanned: list[str] = []
    papers = search.Field.papers
    monkeypatch.setattr(search.Field, "papers",
                        lambda self, needle: scanned.append(str(getattr(needle, "pattern", needle)))
                        or papers(self, needle))
    assert labels(RANKED.search("diffusion " * 1000)) == labels(RANKED.search("diffusion"))
    scanned.clear()
    RANKED.search("diffusion " * 1000)
    assert len(scanned) <= 6          # title, abstract, other and the author fields: once
    scanned.clear()
    assert len(RANKED.search("nosuchword " + " ".join(f"w{i}" for i in range(2000)))) == 0
    assert len(scanned) <= 6          # the first word matched nothing: the 2,000 others are not scanned


def test_the_cli_refuses_a_huge_query_in_one_line(capsys) -> None:
    assert main(["list", "w " * 20_000]) == 2
    err = capsys.readouterr().err
    assert err.startswith("icml2026: error: the search query has 40,000 characters") and err.count("\n") == 1


def test_an_argument_that_is_not_utf8_is_one_line_not_a_traceback() -> None:
    import os
    import subprocess
    import sys

    env = {**os.environ, "LC_ALL": "C.UTF-8", "PYTHONIOENCODING": ""}
    for command in (["list"], ["show"], ["export", "--format", "bibtex", "--keys"]):
        result = subprocess.run([os.fsencode(sys.executable), b"-m", b"icml2026",
                                 *map(os.fsencode, command), b"\xff\xfe"],
                                capture_output=True, env=env, check=False)
        assert result.returncode == 2 and result.stdout == b""
        assert result.stderr == b"icml2026: error: the argument b'\\xff\\xfe' is not valid UTF-8 text\n"


def test_list_prints_titles_as_plain_text(capsys: pytest.CaptureFixture[str]) -> None:
    # The record's title is markup (PMLR's tex_title: "QAOA$^2$"); a listing is read by people,
    # as the README's plain-text rule says: math in Unicode where it is faithful.
    from icml2026.cli import main

    assert main(["list", "zheng2026neural"]) == 0
    out = capsys.readouterr().out
    assert "Neural QAOA²: Differentiable" in out and "$" not in out
