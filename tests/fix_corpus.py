"""A test bibliography for ``icml2026 fix``, generated from the packaged volume.

    python tests/fix_corpus.py [N_ICML [N_OTHER]] > refs.bib

:func:`generate` returns the file as a list of :class:`Piece` values — the exact
text of each entry or stretch between entries — each saying whether it must become
an ICML 2026 paper (which one, under which key, keeping which user fields), must be
reported as ambiguous, or must stay as it is.  The ICML entries are written the way
people paste them: arXiv's own ``@misc`` and Google Scholar's ``@article`` with
``journal = {arXiv preprint arXiv:…}`` (only for papers whose arXiv id the package
knows), OpenReview's ``@inproceedings`` (``booktitle = {Forty-third International
Conference on Machine Learning}``), PMLR's published entry, and title+authors copies
with the title lower-cased, every word braced, braces dropped, a dropped or swapped
subtitle or a missing ``Position:``, authors abbreviated, reversed, in Unicode, or cut
with ``and others``.  Around them: unrelated entries of many types, near misses (an
ICML title with one word changed, the same title with other authors, at a workshop, as
a thesis), ``@string``/``@comment``/``@preamble``, ``%`` comments (one hiding an ICML
entry), ``crossref``, parenthesised entries, odd spacing and CRLF line endings.

The generator is written from the issue's description of user input, not from the
fixer's code: it decides what an entry *is*, and the tests check what the fixer did.
"""

from __future__ import annotations

import random
import re
import sys
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

if __name__ == "__main__":  # run as a script from a checkout
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import icml2026
from icml2026.markup import to_plain
from icml2026.model import Paper, Person

OPENREVIEW_BOOKTITLE = "Forty-third International Conference on Machine Learning"
WORDS = (
    "adaptive", "sparse", "graph", "neural", "kernel", "bayesian", "robust", "federated", "causal",
    "contrastive", "diffusion", "transformer", "attention", "policy", "reward", "bandit", "convex",
    "stochastic", "gradient", "manifold", "spectral", "tensor", "quantum", "hierarchical", "latent",
    "variational", "generative", "adversarial", "temporal", "spatial", "multimodal", "retrieval", "memory",
    "curriculum", "meta", "continual", "offline", "online", "inverse", "implicit", "explicit", "equivariant",
    "symmetric", "topological", "probabilistic", "differentiable", "scalable", "efficient", "provable",
    "private", "fair", "interpretable", "calibrated", "uncertainty", "estimation", "inference",
    "optimization", "regression", "clustering", "segmentation", "detection", "planning", "exploration",
    "alignment", "distillation", "pruning", "quantization", "compression", "augmentation", "sampling",
    "decoding", "reasoning",
)
NOUNS = (
    "networks", "models", "learning", "agents", "operators", "embeddings", "representations", "bounds",
    "guarantees", "estimators", "flows", "fields", "graphs", "games", "kernels", "policies", "features",
    "priors", "tokens", "experts",
)
FAMILIES = (
    "Smith", "Müller", "García", "Novák", "Kowalski", "Haddad", "Okafor", "Tanaka", "Kim", "Nguyen", "Rossi",
    "Dubois", "Johansson", "Ivanova", "Papadopoulos", "O'Brien", "Schröder", "Østergaard", "Łukasiewicz",
    "Çelik", "Silva", "Fernández", "Chen", "Wang", "Zhang", "Patel", "Singh", "Cohen", "Levi", "Andersson",
)
GIVENS = (
    "Anna", "Ben", "Carla", "David", "Elena", "Farid", "Grace", "Hiro", "Ines", "Jonas", "Kira", "Luca",
    "Maya", "Nils", "Olga", "Pavel", "Quinn", "Rosa", "Sven", "Tara", "Umar", "Vera", "Wei", "Xin", "Yara",
    "Zoe",
)
USER_FIELDS = (("keywords", "{{{0}, icml}}"), ("file", "{{:papers/{0}.pdf:PDF}}"),
               ("note", "{{Read for the {0} project}}"), ("annote", "{{Cited in chapter 3}}"),
               ("abstract", "{{My own summary of the {0} paper.}}"))


@dataclass(frozen=True)
class Piece:
    """A stretch of the file: an entry (with what it must become) or text between entries."""

    text: str
    key: str | None = None
    paper: Paper | None = None  # the ICML 2026 paper the entry must become
    kept: tuple[str, ...] = ()  # the user's own fields (``name = value``), kept unless replaced
    form: str = "text"  # how it was written (for messages), or a near-miss class
    had_abstract: bool = False  # the user's entry has an abstract field
    ambiguous: bool = False  # must be reported as ambiguous (and left alone)


# --------------------------------------------------------------------------- helpers

def exported_fields(paper: Paper) -> dict[str, str]:
    """The package's own BibTeX fields of *paper* (LaTeX-encoded values, braces included)."""
    text = icml2026.export([paper], "bibtex")
    return dict(re.findall(r"^  ([a-z]+) = (.*?),?$", text, re.MULTILINE))


def unbraced(value: str) -> str:
    return value[1:-1] if value.startswith("{") and value.endswith("}") else value


def plain_fold(text: str) -> str:
    """Independent of the fixer: accents, case and everything but letters and digits dropped."""
    decomposed = unicodedata.normalize("NFKD", text)
    return re.sub(r"[\W_]+", "", "".join(c for c in decomposed if not unicodedata.combining(c)).casefold())


def given_family(person: Person) -> str:
    """``Given particle Family`` in Unicode, BibTeX-safe (a brace-free name)."""
    family = person.literal or " ".join(p for p in (person.particle, person.family) if p)
    if " " in family and not person.particle:
        family = "{" + family + "}"
    return " ".join(p for p in (person.given, family) if p)


def initials(person: Person) -> str:
    if not person.given:
        return given_family(person)
    short = " ".join(w[0] + "." for w in re.split(r"[\s-]+", person.given) if w[:1].isalpha())
    return f"{short} {given_family(Person(family=person.family, particle=person.particle))}".strip()


def split_authors(value: str) -> list[str]:
    return [a.strip() for a in re.split(r"\s+and\s+", unbraced(value))]


class Builder:
    """Entry forms; each returns (entry text, user fields that must be kept)."""

    def __init__(self, rng: random.Random, titles: dict[str, int], mains: dict[str, int]) -> None:
        self.rng = rng
        self.titles = titles  # folded title → how many papers have it
        self.mains = mains  # folded main part (before ':') → how many papers have it
        self.used: dict[str, int] = {}  # form → entries written in it (rare forms are tried first)

    def user_fields(self, paper: Paper, key: str) -> list[str]:
        picked = self.rng.sample(USER_FIELDS, self.rng.choice((0, 0, 1, 2)))
        fields = [f"{name} = {template.format(key.split(':')[-1][:12])}" for name, template in picked]
        return fields

    @staticmethod
    def entry(kind: str, key: str, fields: list[str]) -> str:
        return f"@{kind}{{{key},\n  " + ",\n  ".join(fields) + "\n}"


# --------------------------------------------------------------------------- ICML forms

def form_arxiv_misc(b: Builder, paper: Paper, key: str) -> tuple[str, list[str]]:
    f = exported_fields(paper)
    arxiv = paper.identifiers.arxiv
    extra = b.user_fields(paper, key)
    fields = [f"title={f['title']}", f"author={{{' and '.join(given_family(a) for a in paper.authors)}}}",
              "year={2025}", f"eprint={{{arxiv}}}", "archivePrefix={arXiv}", "primaryClass={cs.LG}",
              f"url={{https://arxiv.org/abs/{arxiv}}}", *extra]
    # arXiv's export: six-space indent, a space after some commas, a trailing comma.
    return "@misc{" + key + ",\n      " + ", \n      ".join(fields) + ", \n}", extra


def form_arxiv_article(b: Builder, paper: Paper, key: str) -> tuple[str, list[str]]:
    f = exported_fields(paper)
    extra = b.user_fields(paper, key)
    fields = [f"title={{{unbraced(f['title'])}}}", f"author={f['author']}",
              f"journal={{arXiv preprint arXiv:{paper.identifiers.arxiv}}}", "year={2026}", *extra]
    return "@article{" + key + ",\n  " + ",\n  ".join(fields) + "\n}", extra


def form_openreview(b: Builder, paper: Paper, key: str) -> tuple[str, list[str]]:
    f = exported_fields(paper)
    extra = b.user_fields(paper, key)
    names = " and ".join(given_family(a) for a in paper.authors)
    fields = [f"title={f['title']}", f"author={{{names}}}", f"booktitle={{{OPENREVIEW_BOOKTITLE}}}",
              "year={2026}", f"url={{https://openreview.net/forum?id={paper.identifiers.openreview}}}", *extra]
    return "@inproceedings{\n" + key + ",\n" + ",\n".join(fields) + "\n}", extra


def form_pmlr(b: Builder, paper: Paper, key: str) -> tuple[str, list[str]]:
    """PMLR's published entry (jekyll-theme's bibtex_entry: tab-aligned, month as a range)."""
    f = exported_fields(paper)
    extra = b.user_fields(paper, key)
    lines = [("title", f["title"]), ("author", f["author"]), ("booktitle", f["booktitle"]),
             ("pages", f["pages"]), ("year", "{2026}"), ("editor", f["editor"]), ("volume", "{306}"),
             ("series", f["series"]), ("month", "{06--11 Jul}"), ("publisher", "{PMLR}"),
             ("pdf", f.get("pdf") or "{https://raw.githubusercontent.com/mlresearch/v306/main/assets/"
              f"{paper.identifiers.pmlr}/{paper.identifiers.pmlr}.pdf}}"), ("url", f["url"])]
    body = ",\n".join(f"  {name} = \t {value}" for name, value in lines)
    tail = "".join(",\n  " + e for e in extra)
    return f"@InProceedings{{{key},\n{body}{tail}\n}}", extra


def _title_variant(b: Builder, paper: Paper, how: str) -> str | None:
    """The paper's title (LaTeX) changed the way *how* says, or None when it does not apply."""
    latex = unbraced(exported_fields(paper)["title"])
    plain = to_plain(paper.title or "")
    simple = "\\" not in latex and "$" not in latex
    if how == "lower":
        return latex.lower() if simple else None
    if how == "all-braced":
        return " ".join("{" + w + "}" if w[:1].isupper() else w for w in latex.split(" ")) if simple else None
    if how == "no-braces":
        return latex.replace("{", "").replace("}", "") if simple else None
    parts = latex.split(": ")
    if how == "swapped" and len(parts) == 2 and simple and not parts[0].lower().startswith("position"):
        return f"{parts[1]}: {parts[0]}"
    if how == "no-position" and plain.startswith("Position: ") and latex.startswith("Position: "):
        return latex[len("Position: "):]
    if how == "no-subtitle" and len(parts) >= 2 and simple:
        main = parts[0]
        folded = plain_fold(main)
        if len(main.split()) >= 4 and b.titles.get(folded, 0) == 0 and b.mains.get(folded, 0) == 1:
            return main
    return None


def _authors_variant(b: Builder, paper: Paper, how: str) -> str:
    people = list(paper.authors)
    if how == "initials":
        return " and ".join(initials(a) for a in people)
    if how == "others" and len(people) > 2:
        return " and ".join(given_family(a) for a in people[:2]) + " and others"
    if how == "first-only":
        return given_family(people[0]) + (" and others" if len(people) > 1 else "")
    return unbraced(exported_fields(paper)["author"])


TITLE_HOWS = ("lower", "all-braced", "no-braces", "swapped", "no-position", "no-subtitle")
AUTHOR_HOWS = ("initials", "others", "first-only", "latex")


def make_title_form(how: str) -> Callable[[Builder, Paper, str], tuple[str, list[str]] | None]:
    def form(b: Builder, paper: Paper, key: str) -> tuple[str, list[str]] | None:
        title = _title_variant(b, paper, how)
        if title is None:
            return None
        authors = _authors_variant(b, paper, b.rng.choice(AUTHOR_HOWS))
        extra = b.user_fields(paper, key)
        venue = b.rng.choice(("booktitle={International Conference on Machine Learning}",
                              "booktitle={Proceedings of the 43rd International Conference on Machine Learning}",
                              "booktitle={ICML}", "booktitle = icmlmacro", "journal={CoRR}", None))
        kind = "article" if venue and venue.startswith("journal") else "inproceedings"
        fields = [f"title={{{title}}}", f"author={{{authors}}}", *([venue] if venue else []),
                  "year={2026}", *extra]
        if b.rng.random() < 0.2:  # DBLP's bookkeeping, which the verified entry drops
            fields += ["timestamp = {Mon, 12 Oct 2026 10:00:00 +0200}",
                       "biburl = {https://dblp.org/rec/conf/icml/x.bib}"]
        return Builder.entry(kind, key, fields), extra
    return form


def form_crossref(b: Builder, paper: Paper, key: str) -> tuple[str, list[str]]:
    """A child of the user's own @proceedings entry (defined at the end of the file)."""
    f = exported_fields(paper)
    extra = b.user_fields(paper, key)
    fields = [f"title = {f['title']}", f"author = {f['author']}", "crossref = {icml2026proc}", *extra]
    return Builder.entry("inproceedings", key, fields), extra


def form_odd_spacing(b: Builder, paper: Paper, key: str) -> tuple[str, list[str]]:
    """Parenthesised, quoted values, spaces before commas, a macro booktitle, CRLF line ends."""
    f = exported_fields(paper)
    title = f["title"]
    if '"' in title:
        return form_crossref(b, paper, key)
    extra = b.user_fields(paper, key)
    lines = [f'TITLE   =   "{unbraced(title)}"', f"Author\t= {f['author']}", "BookTitle = icmlmacro",
             "Year = 2026", "Month = jul", *extra]
    text = f"@InProceedings ( {key} ,\n\t" + " ,\n\t".join(lines) + "\n)"
    if b.rng.random() < 0.5:
        text = text.replace("\n", "\r\n")
    return text, extra


def form_verified(b: Builder, paper: Paper, key: str) -> tuple[str, list[str]]:
    """Already the package's entry (the fixer must leave it as it is)."""
    text = icml2026.export([paper], "bibtex").rstrip("\n")
    return text.replace(f"@inproceedings{{{paper.citation_key},", f"@inproceedings{{{key},", 1), []


ICML_FORMS: dict[str, Callable[[Builder, Paper, str], tuple[str, list[str]] | None]] = {
    "openreview": form_openreview, "pmlr": form_pmlr, "crossref": form_crossref,
    "odd-spacing": form_odd_spacing, "verified": form_verified,
    **{f"title-{how}": make_title_form(how) for how in TITLE_HOWS},
}
ARXIV_FORMS = {"arxiv-misc": form_arxiv_misc, "arxiv-article": form_arxiv_article}


# --------------------------------------------------------------------------- other entries

def random_person(rng: random.Random) -> str:
    return f"{rng.choice(FAMILIES)}, {rng.choice(GIVENS)}"


def random_title(rng: random.Random) -> str:
    words = rng.sample(WORDS, rng.randint(3, 6))
    title = " ".join(w.capitalize() if i == 0 else w for i, w in enumerate(words)) + " " + rng.choice(NOUNS)
    if rng.random() < 0.3:
        title = f"{{{rng.choice(WORDS).upper()[:5]}}}: {title}"
    return title


def other_entry(rng: random.Random, n: int) -> str:
    key = f"{rng.choice(FAMILIES).lower().replace(chr(39), '')}{2000 + n % 26}{rng.choice(WORDS)}{n}"
    key = re.sub(r"[^a-z0-9]", "", plain_fold(key)) or f"other{n}"
    authors = " and ".join(random_person(rng) for _ in range(rng.randint(1, 5)))
    title = random_title(rng)
    year = 1990 + rng.randrange(37)
    kind = rng.choice(("article", "inproceedings", "inproceedings", "book", "phdthesis", "misc",
                       "techreport", "incollection"))
    venue = {
        "article": "journal = {Journal of Machine Learning Research}, volume = {21}, pages = {1--30}",
        "inproceedings": rng.choice(("booktitle = neurips", "booktitle = {Proceedings of CVPR}",
                                     "booktitle = {International Conference on Learning Representations}")),
        "book": "publisher = {MIT Press}, address = {Cambridge, MA}",
        "phdthesis": "school = {University of Somewhere}",
        "misc": "howpublished = {\\url{https://example.org/" + key + "}}",
        "techreport": "institution = {Some Lab}, number = {TR-" + str(n) + "}",
        "incollection": "booktitle = {Handbook of Things}, publisher = {Springer}, pages = {1--20}",
    }[kind]
    if kind == "book":
        return f"@book{{{key},\n  title = {{{title}}},\n  author = {{{authors}}},\n  {venue},\n  year = {year}\n}}"
    spacing = rng.choice(("  ", "\t", "    "))
    return (f"@{kind.capitalize() if rng.random() < 0.3 else kind}{{{key},\n{spacing}title = {{{title}}},\n"
            f"{spacing}author = {{{authors}}},\n{spacing}{venue},\n{spacing}year = {{{year}}},\n"
            f"{spacing}month = {rng.choice(('jan', 'jun', 'dec'))}\n}}")


CLASSICS = r"""@article{vaswani2017attention,
  title={Attention is all you need},
  author={Vaswani, Ashish and Shazeer, Noam and Parmar, Niki and Uszkoreit, Jakob and Jones, Llion and Gomez, Aidan N and Kaiser, {\L}ukasz and Polosukhin, Illia},
  journal={Advances in neural information processing systems},
  volume={30},
  year={2017}
}

@inproceedings{he2016deep,
  title={Deep residual learning for image recognition},
  author={He, Kaiming and Zhang, Xiangyu and Ren, Shaoqing and Sun, Jian},
  booktitle={Proceedings of the IEEE conference on computer vision and pattern recognition},
  pages={770--778},
  year={2016}
}

@misc{kingma2014adam,
      title={Adam: A Method for Stochastic Optimization},
      author={Diederik P. Kingma and Jimmy Ba},
      year={2014},
      eprint={1412.6980},
      archivePrefix={arXiv},
      primaryClass={cs.LG},
      url={https://arxiv.org/abs/1412.6980},
}

@InProceedings{pmlr-v235-other24a,
  title = 	 {A Paper of {ICML} 2024},
  author =       {M{\"u}ller, Anna and Garc{\'\i}a, Ben},
  booktitle = 	 {Proceedings of the 41st International Conference on Machine Learning},
  pages = 	 {1--12},
  year = 	 {2024},
  volume = 	 {235},
  series = 	 {Proceedings of Machine Learning Research},
  publisher =    {PMLR},
  url = 	 {https://proceedings.mlr.press/v235/other24a.html}
}
"""
PREAMBLE = """% Generated by tests/fix_corpus.py: a user's bibliography with ICML 2026 papers in it.
% Text between entries is a comment to BibTeX.
@preamble{ "\\providecommand{\\noopsort}[1]{}" }
@string{neurips = {Advances in Neural Information Processing Systems}}
@STRING( icmlmacro = "Forty-third International " # "Conference on Machine Learning" )
@comment{ Exported by a reference manager; the entries below are mine. }

"""


# --------------------------------------------------------------------------- near misses

def near_misses(rng: random.Random, paper: Paper, n: int, titles: dict[str, int]) -> list[Piece]:
    """Entries that look like *paper* but are another publication: never to be rewritten."""
    f = exported_fields(paper)
    title = unbraced(f["title"])
    out = []
    words = title.split(" ")
    spots = [i for i, w in enumerate(words) if re.fullmatch(r"[A-Za-z]{5,}", w)]
    if spots:
        i = rng.choice(spots)
        replacement = rng.choice([w for w in WORDS if w.lower() != words[i].lower()])
        changed = " ".join(words[:i] + [replacement.capitalize() if words[i][0].isupper() else replacement]
                           + words[i + 1:])
        if plain_fold(changed) not in titles and len(title.split()) >= 6:
            out.append(Piece(Builder.entry("inproceedings", f"nearmiss{n}", [
                f"title = {{{changed}}}", f"author = {f['author']}", "booktitle = neurips", "year = {2025}"]),
                f"nearmiss{n}", form="one-word-changed", ambiguous=True))
    others = " and ".join(random_person(rng) for _ in range(3))
    out.append(Piece(Builder.entry("inproceedings", f"sametitle{n}", [
        f"title = {f['title']}", f"author = {{{others}}}", "booktitle = neurips", "year = {2025}"]),
        f"sametitle{n}", form="same-title-other-authors", ambiguous=True))
    if n % 3 == 0:
        out.append(Piece(Builder.entry("inproceedings", f"workshop{n}", [
            f"title = {f['title']}", f"author = {f['author']}",
            "booktitle = {ICML 2026 Workshop on Foundation Models}", "year = {2026}"]),
            f"workshop{n}", form="icml-workshop", ambiguous=True))
    if n % 3 == 1:
        out.append(Piece(Builder.entry("phdthesis", f"thesis{n}", [
            f"title = {f['title']}", f"author = {{{given_family(paper.authors[0])}}}",
            "school = {University of Somewhere}", "year = {2027}"]), f"thesis{n}", form="thesis"))
    if n % 3 == 2:
        out.append(Piece(Builder.entry("inproceedings", f"early{n}", [
            f"title = {f['title']}", f"author = {f['author']}", "booktitle = {NeurIPS}",
            "year = {2019}"]), f"early{n}", form="same-title-2019-neurips", ambiguous=True))
    return out


def id_conflicts(papers: list[Paper]) -> list[Piece]:
    """Identifiers that disagree with each other or with the entry: ambiguous."""
    a, b, c = papers[:3]
    fa, fc = exported_fields(a), exported_fields(c)
    return [
        Piece(Builder.entry("inproceedings", "twoids", [
            f"title = {fa['title']}", f"author = {fa['author']}",
            f"url = {{https://openreview.net/forum?id={a.identifiers.openreview}}}",
            f"pdf = {{https://proceedings.mlr.press/v306/{b.identifiers.pmlr}/{b.identifiers.pmlr}.pdf}}"]),
            "twoids", form="two-identifiers", ambiguous=True),
        Piece(Builder.entry("misc", "pastedid", [
            f"title = {{{random_title(random.Random(1))}}}", "author = {Nobody, Known}",
            f"openreview = {{{c.identifiers.openreview}}}"]), "pastedid", form="pasted-id", ambiguous=True),
        Piece(Builder.entry("inproceedings", "iclrversion", [
            f"title = {fc['title']}", f"author = {fc['author']}",
            "booktitle = {Forty-third International Conference on Machine Learning}",
            "url = {https://openreview.net/forum?id=ZZZZ999999}"]),
            "iclrversion", form="foreign-openreview-id", ambiguous=True),
    ]


# --------------------------------------------------------------------------- the file

def generate(papers: icml2026.PaperCollection | None = None, n_icml: int = 300, n_other: int = 400,
             seed: int = 306) -> list[Piece]:
    """The pieces of the test bibliography (``"".join(p.text for p in pieces)`` is the file)."""
    rng = random.Random(seed)
    volume = [p for p in (papers if papers is not None else icml2026.load()) if p.is_complete]
    titles: dict[str, int] = {}
    mains: dict[str, int] = {}
    for paper in volume:
        plain = to_plain(paper.title or "")
        titles[plain_fold(plain)] = titles.get(plain_fold(plain), 0) + 1
        main = plain_fold(plain.split(": ")[0])
        mains[main] = mains.get(main, 0) + 1
    builder = Builder(rng, titles, mains)
    with_arxiv = [p for p in volume if p.identifiers.arxiv]
    chosen = with_arxiv + rng.sample([p for p in volume if not p.identifiers.arxiv],
                                     min(n_icml, len(volume)) - len(with_arxiv))
    rng.shuffle(chosen)
    icml = [_icml_piece(builder, paper, n) for n, paper in enumerate(chosen)]
    specials = [_commented_out(chosen[0]), _inside_comment(chosen[1])]
    misses = [m for n, paper in enumerate(chosen[:max(12, n_icml // 6)]) for m in near_misses(rng, paper, n, titles)]
    misses += id_conflicts(chosen[-3:])
    others = [Piece(other_entry(rng, n), form="other") for n in range(n_other)]
    entries = icml + misses + others
    rng.shuffle(entries)
    pieces = [Piece(PREAMBLE)]
    for n, entry in enumerate(entries):
        pieces.append(entry)
        pieces.append(Piece(rng.choice(("\n\n", "\n", "\n\n\n", "\n% ---\n", "  \n\n", "\n\n% see also below\n"))))
        if n == len(entries) // 2:
            pieces += [specials[0], Piece("\n\n"), Piece(CLASSICS), Piece("\n"), specials[1], Piece("\n")]
    pieces.append(Piece("@proceedings{icml2026proc,\n  title = {Proceedings of the 43rd International "
                        "Conference on Machine Learning},\n  booktitle = {Proceedings of the 43rd "
                        "International Conference on Machine Learning},\n  year = {2026},\n  "
                        "publisher = {PMLR}\n}\n", form="proceedings"))
    return pieces


def _icml_piece(builder: Builder, paper: Paper, n: int) -> Piece:
    forms = dict(ICML_FORMS)
    if paper.identifiers.arxiv:
        forms = {**ARXIV_FORMS, "openreview": form_openreview}
    names = list(forms)
    builder.rng.shuffle(names)
    names.sort(key=lambda name: builder.used.get(name, 0))  # every form, however few papers it fits
    key = builder.rng.choice((f"{plain_fold(paper.authors[0].family or 'x')}2026{n}", f"icml{n}",
                              f"pmlr-v306-{paper.identifiers.pmlr}", f"DBLP:conf/icml/X26{n}"))
    for name in names:
        made = forms[name](builder, paper, key)
        if made is not None:
            text, extra = made
            had_abstract = any(f.startswith("abstract") for f in extra)
            builder.used[name] = builder.used.get(name, 0) + 1
            return Piece(text, key, paper, tuple(extra), name, had_abstract)
    raise AssertionError(f"no form applies to {paper.id}")


def _commented_out(paper: Paper) -> Piece:
    f = exported_fields(paper)
    # On one line: BibTeX itself still reads an entry after a '%', the fixer must leave it alone.
    return Piece(f"% @misc{{oldcopy, title = {f['title']}, author = {f['author']}}}\n", form="commented-out")


def _inside_comment(paper: Paper) -> Piece:
    f = exported_fields(paper)
    return Piece(f"@comment{{\n@misc{{shelved,\n  title = {f['title']},\n  author = {f['author']}\n}}\n}}\n",
                 form="in-comment")


def text_of(pieces: list[Piece]) -> str:
    return "".join(p.text for p in pieces)


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:3]]
    sys.stdout.write(text_of(generate(None, *args)))
