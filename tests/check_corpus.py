"""A manuscript bibliography for ``icml2026 check``, generated from the raw proceedings.

    python tests/check_corpus.py > refs.bib

Built from ``tools/sources/corpora/pmlr-v306-facts.bib`` (the editors' BibTeX of the volume,
read here by a few lines of its own, one field per line), never from the package's records.
Each :class:`Case` is the text of one entry (or a group: an entry and its ``crossref``
parents) with the status ``check`` must give it, the OpenReview id of the paper it is (the
facts' own id), and for a mismatch the field that is wrong.  PMLR ids are derived from the
facts by the rule of ``tools/sources/corpora/README.md`` (first author's family name,
``26``, a suffix in file order), only for families written in plain ASCII letters, whose
ids that rule settles without a transliteration table.
"""

from __future__ import annotations

import random
import re
import string
import sys
from dataclasses import dataclass
from pathlib import Path

FACTS = Path(__file__).resolve().parents[1] / "tools" / "sources" / "corpora" / "pmlr-v306-facts.bib"
OPENREVIEW_BOOKTITLE = "Forty-third International Conference on Machine Learning"
PMLR_BOOKTITLE = "Proceedings of the 43rd International Conference on Machine Learning"
_ENTRY = re.compile(r"^@InProceedings\{([^,]+),\n(.*?)^\}", re.MULTILINE | re.DOTALL)
_FIELD = re.compile(r"^    ([a-z_]+) = \{(.*)\},?$", re.MULTILINE)

# Every way people write that a paper is at ICML 2026 (booktitle unless a field is named).
CLAIMS = (
    "booktitle = {ICML 2026}",
    "booktitle = {Proc. ICML'26}",
    "booktitle = {Forty-third International Conference on Machine Learning}",
    "booktitle = {Proceedings of the 43rd International Conference on Machine Learning}",
    "booktitle = {Proceedings of the Forty-Third International Conference on Machine Learning (ICML 2026)}",
    "booktitle = {International Conference on Machine Learning}, year = {2026}",
    "booktitle = {Int. Conf. on Machine Learning (ICML)}, year = 2026",
    "booktitle = {Proceedings of Machine Learning Research}, volume = {306}",
    "series = {PMLR}, volume = {306}, booktitle = {Proc. of the 43rd ICML}",
    "journal = {ICML 2026}",
    "booktitle = {{ICML}-2026}",
    "url = {https://proceedings.mlr.press/v306/{key}26z.html}",
    "howpublished = {ICML 2026}",
    "note = {In ICML 2026 (oral)}",
    "booktitle = {Proceedings of the 43rd ICML, PMLR 306}",
)
CLASSICS = r"""@inproceedings{vaswani2017attention,
  title = {Attention is All you Need},
  author = {Vaswani, Ashish and Shazeer, Noam and Parmar, Niki and Uszkoreit, Jakob and Jones, Llion and Gomez, Aidan N and Kaiser, {\L}ukasz and Polosukhin, Illia},
  booktitle = {Advances in Neural Information Processing Systems},
  volume = {30}, year = {2017}
}
@inproceedings{he2016deep,
  title = {Deep Residual Learning for Image Recognition},
  author = {He, Kaiming and Zhang, Xiangyu and Ren, Shaoqing and Sun, Jian},
  booktitle = {Proceedings of the IEEE Conference on Computer Vision and Pattern Recognition (CVPR)},
  pages = {770--778}, year = {2016}
}
@inproceedings{kingma2015adam,
  title = {Adam: A Method for Stochastic Optimization},
  author = {Kingma, Diederik P. and Ba, Jimmy},
  booktitle = {3rd International Conference on Learning Representations, {ICLR} 2015},
  year = {2015}
}
@inproceedings{ioffe2015batch,
  title = {Batch Normalization: Accelerating Deep Network Training by Reducing Internal Covariate Shift},
  author = {Ioffe, Sergey and Szegedy, Christian},
  booktitle = {Proceedings of the 32nd International Conference on Machine Learning},
  pages = {448--456}, year = {2015}, editor = {Bach, Francis and Blei, David},
  volume = {37}, series = {Proceedings of Machine Learning Research}, publisher = {PMLR},
  url = {https://proceedings.mlr.press/v37/ioffe15.html}
}
@article{srivastava2014dropout,
  title = {Dropout: A Simple Way to Prevent Neural Networks from Overfitting},
  author = {Srivastava, Nitish and Hinton, Geoffrey and Krizhevsky, Alex and Sutskever, Ilya and Salakhutdinov, Ruslan},
  journal = {Journal of Machine Learning Research}, volume = {15}, number = {56}, pages = {1929--1958}, year = {2014}
}
@inproceedings{devlin2019bert,
  title = {{BERT}: Pre-training of Deep Bidirectional Transformers for Language Understanding},
  author = {Devlin, Jacob and Chang, Ming-Wei and Lee, Kenton and Toutanova, Kristina},
  booktitle = {Proceedings of the 2019 Conference of the North {A}merican Chapter of the Association for Computational Linguistics (NAACL)},
  pages = {4171--4186}, year = {2019}
}
@inproceedings{goodfellow2014generative,
  title = {Generative Adversarial Nets},
  author = {Goodfellow, Ian and Pouget-Abadie, Jean and Mirza, Mehdi and Xu, Bing and Warde-Farley, David and Ozair, Sherjil and Courville, Aaron and Bengio, Yoshua},
  booktitle = {Advances in Neural Information Processing Systems 27}, year = {2014}
}
@article{lecun1998gradient,
  title = {Gradient-based learning applied to document recognition},
  author = {LeCun, Yann and Bottou, L{\'e}on and Bengio, Yoshua and Haffner, Patrick},
  journal = {Proceedings of the IEEE}, volume = {86}, number = {11}, pages = {2278--2324}, year = {1998}
}
@inproceedings{finn2017model,
  title = {Model-Agnostic Meta-Learning for Fast Adaptation of Deep Networks},
  author = {Finn, Chelsea and Abbeel, Pieter and Levine, Sergey},
  booktitle = {Proceedings of the 34th International Conference on Machine Learning},
  volume = {70}, pages = {1126--1135}, year = {2017}, publisher = {PMLR}
}
@inproceedings{chen2020simple,
  title = {A Simple Framework for Contrastive Learning of Visual Representations},
  author = {Chen, Ting and Kornblith, Simon and Norouzi, Mohammad and Hinton, Geoffrey},
  booktitle = {International Conference on Machine Learning}, pages = {1597--1607}, year = {2020},
  organization = {PMLR}
}
@book{goodfellow2016deep,
  title = {Deep Learning}, author = {Goodfellow, Ian and Bengio, Yoshua and Courville, Aaron},
  publisher = {MIT Press}, year = {2016}
}
@article{silver2016mastering,
  title = {Mastering the game of {Go} with deep neural networks and tree search},
  author = {Silver, David and Huang, Aja and Maddison, Chris J. and others},
  journal = {Nature}, volume = {529}, number = {7587}, pages = {484--489}, year = {2016}
}
@misc{radford2019language,
  title = {Language Models are Unsupervised Multitask Learners},
  author = {Radford, Alec and Wu, Jeffrey and Child, Rewon and Luan, David and Amodei, Dario and Sutskever, Ilya},
  howpublished = {OpenAI technical report}, year = {2019}
}
@inproceedings{ho2020denoising,
  title = {Denoising Diffusion Probabilistic Models},
  author = {Ho, Jonathan and Jain, Ajay and Abbeel, Pieter},
  booktitle = {Advances in Neural Information Processing Systems}, volume = {33}, pages = {6840--6851}, year = {2020}
}
@phdthesis{someone2025thesis,
  title = {Learning with Structure}, author = {Someone, Sam}, school = {ETH Z{\"u}rich}, year = {2025}
}
"""
WORDS = ("adaptive", "sparse", "graph", "kernel", "bayesian", "robust", "federated", "causal", "contrastive",
         "diffusion", "policy", "reward", "bandit", "stochastic", "manifold", "spectral", "tensor", "latent",
         "variational", "temporal", "retrieval", "curriculum", "continual", "equivariant", "topological",
         "calibrated", "sheaf", "estimation", "inference", "regression", "planning", "exploration", "pruning",
         "quantization", "distillation", "sampling", "decoding", "reasoning", "operators", "priors", "tokens")
FAMILIES = ("Smith", "Müller", "García", "Novák", "Haddad", "Okafor", "Tanaka", "Rossi", "Dubois", "Ivanova",
            "Johansson", "Papadopoulos", "Silva", "Cohen", "Levi", "Andersson")


@dataclass(frozen=True)
class Fact:
    """One paper of the facts file."""

    key: str
    title: str
    authors: tuple[str, ...]  # "Family, Given" as written
    openreview: str
    pages: str
    pmlr: str | None  # the PMLR id, where the rule settles it


@dataclass(frozen=True)
class Case:
    """An entry (or a group of entries, the first being checked) and what ``check`` must say."""

    text: str
    key: str
    status: str
    openreview: str | None = None  # the paper it is
    field: str | None = None  # for a mismatch: the field that is wrong
    form: str = ""
    expected: str | None = None  # for a mismatch: the proceedings' value of that field, where simple


def read_facts(path: Path = FACTS) -> list[Fact]:
    text = path.read_text(encoding="utf-8")
    raw = []
    for match in _ENTRY.finditer(text):
        fields = dict(_FIELD.findall(match.group(2)))
        raw.append((match.group(1), fields))
    taken: set[str] = set()
    bases: dict[str, str | None] = {}  # key → the id's base, for plain-ASCII families only
    tricky = set()  # bases that a family needing transliteration may also produce
    for key, fields in raw:
        family = fields["author"].split(" and ")[0].split(",")[0]
        simple = re.fullmatch(r"[A-Za-z ]+", family) is not None
        base = re.sub(r"[^a-z0-9]+", "-", re.sub(r"\\.|[{}]", "", family).lower()).strip("-")
        bases[key] = base if simple else None
        if not simple:
            tricky.add(base)
    ascii_bases = {b for b in bases.values() if b}
    facts = []
    for key, fields in raw:
        base = bases[key]
        pmlr = None
        if base and base in ascii_bases and base not in tricky:
            suffix = _suffix(base, taken)
            pmlr = f"{base}26{suffix}"
            taken.add(pmlr)
        facts.append(Fact(key, fields["title"], tuple(fields["author"].split(" and ")), fields["openreview"],
                          fields["pages"], pmlr))
    return facts


def _suffix(base: str, taken: set[str]) -> str:
    letters = string.ascii_lowercase
    n = 0
    while True:
        suffix, m = "", n
        while True:
            suffix = letters[m % 26] + suffix
            m = m // 26 - 1
            if m < 0:
                break
        if f"{base}26{suffix}" not in taken:
            return suffix
        n += 1


def plain_title(title: str) -> str:
    return title.replace("{", "").replace("}", "")


def entry(kind: str, key: str, **fields: str) -> str:
    body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields.items())
    return f"@{kind}{{{key},\n{body}\n}}\n"


def with_extra(kind: str, key: str, extra: str, **fields: str) -> str:
    """An entry with raw ``name = value`` text appended (for the claim forms)."""
    text = entry(kind, key, **fields)
    return text[:-3] + ",\n  " + extra + "\n}\n"


def _fake_title(rng: random.Random) -> str:
    words = rng.sample(WORDS, 6)
    return f"{words[0].title()} {words[1]} {words[2]} for {words[3]} {words[4]} {words[5]}"


def _fake_authors(rng: random.Random) -> str:
    return " and ".join(f"{rng.choice(FAMILIES)}, {rng.choice('ABCDEFGHJKLMNPRSTW')}." for _ in range(3))


def generate(facts: list[Fact] | None = None, seed: int = 306) -> list[Case]:
    """The cases, in a shuffled order (a duplicate always after the entry it repeats)."""
    rng = random.Random(seed)
    facts = facts or read_facts()
    pool = facts[:]
    rng.shuffle(pool)
    with_id = [f for f in pool if f.pmlr]
    plain = [f for f in pool if "\\" not in f.title and "$" not in f.title and "\\" not in " ".join(f.authors)]
    used: set[str] = set()

    def take(source: list[Fact], test=lambda f: True) -> Fact:
        for f in source:
            if f.key not in used and test(f):
                used.add(f.key)
                return f
        raise LookupError("the facts ran out")

    cases: list[Case] = []
    add = cases.append
    n = iter(range(100000))

    # -- correct entries in the forms people paste ------------------------------------------------
    for _ in range(40):
        f = take(with_id)
        add(Case(entry("InProceedings", f"pmlr-v306-{f.pmlr}", title=f.title, author=" and ".join(f.authors),
                       booktitle=PMLR_BOOKTITLE, pages=f.pages, year="2026", editor="Zhang, Tong and Dudik, Miroslav",
                       volume="306", series="Proceedings of Machine Learning Research", month="06--11 Jul",
                       publisher="PMLR", pdf=f"https://raw.githubusercontent.com/mlresearch/v306/main/assets/"
                       f"{f.pmlr}/{f.pmlr}.pdf", url=f"https://proceedings.mlr.press/v306/{f.pmlr}.html"),
                 f"pmlr-v306-{f.pmlr}", "verified", f.openreview, form="pmlr"))
    for _ in range(40):
        f = take(pool)
        key = f"openreview{next(n)}"
        add(Case(entry("inproceedings", key, title=plain_title(f.title), author=" and ".join(f.authors),
                       booktitle=OPENREVIEW_BOOKTITLE, year="2026",
                       url=f"https://openreview.net/forum?id={f.openreview}"),
                 key, "verified", f.openreview, form="openreview"))
    for _ in range(40):
        f = take(pool)
        key = f"lower{next(n)}"
        add(Case(entry("inproceedings", key, title=plain_title(f.title).lower(), author=" and ".join(f.authors),
                       booktitle="ICML 2026", year="2026"), key, "verified", f.openreview, form="lowercase, no pages"))
    for _ in range(20):
        f = take(pool)
        key = f"nopages{next(n)}"
        add(Case(entry("inproceedings", key, title=f.title, author=" and ".join(f.authors),
                       booktitle="Proceedings of the 43rd International Conference on Machine Learning, {ICML} 2026",
                       series="Proceedings of Machine Learning Research", volume="306", year="2026"),
                 key, "verified", f.openreview, form="no pages"))

    # -- each kind of mismatch ---------------------------------------------------------------------
    def mismatch(form: str, wrong: str, f: Fact, expected: str | None = None, **fields: str) -> None:
        key = f"{form}{next(n)}"
        base = {"title": f.title, "author": " and ".join(f.authors), "booktitle": "ICML 2026", "year": "2026",
                "pages": f.pages}
        base.update(fields)
        add(Case(entry("inproceedings", key, **{k: v for k, v in base.items() if v}), key, "mismatch",
                 f.openreview, wrong, form, expected))

    for _ in range(12):
        f = take(pool)
        first, last = (int(x) for x in f.pages.split("--"))
        mismatch("pages", "pages", f, f.pages, pages=f"{first + 1000}--{last + 1000}")
    for _ in range(8):
        mismatch("year", "year", take(pool), "2026", year="2025")
    for _ in range(8):
        f = take(pool, lambda f: len(f.authors) >= 3)
        mismatch("missing", "author", f, author=" and ".join(f.authors[:-1]))
    for _ in range(6):
        f = take(pool, lambda f: len(f.authors) >= 2)
        mismatch("extra", "author", f, author=" and ".join((*f.authors, "Imaginary, Ida")))
    for _ in range(8):
        f = take(pool, lambda f: len(f.authors) >= 3)
        mismatch("reordered", "author", f, author=" and ".join((f.authors[1], f.authors[0], *f.authors[2:])))
    for _ in range(8):
        f = take(pool, lambda f: len(f.authors) >= 3 and len(f.authors[1].split(",")[0]) >= 5
                 and "\\" not in f.authors[1] and f.authors[1].split(",")[0][-1] != f.authors[1].split(",")[0][-2])
        family, _, given = f.authors[1].partition(",")
        wrong = family[:-2] + family[-1] + family[-2] + "," + given  # two letters swapped
        mismatch("misspelt", "author", f, author=" and ".join((f.authors[0], wrong, *f.authors[2:])))
    for _ in range(8):
        f = take(plain, lambda f: len(set(plain_title(f.title).lower().split())) >= 9 and ":" not in f.title)
        words = plain_title(f.title).split()
        i = max(range(len(words)), key=lambda j: len(words[j]))
        words[i] = "Quixotic"
        mismatch("title", "title", f, title=" ".join(words))
    for _ in range(8):
        f, g = take(pool), take(pool)
        mismatch("otherauthors", "author", f, author=" and ".join(g.authors))
    for _ in range(4):
        mismatch("volume", "volume", take(pool), "306", booktitle=PMLR_BOOKTITLE, volume="235")
    for _ in range(5):
        f, g = take(pool), take(pool)
        mismatch("openreviewid", "openreview", f, f.openreview, url=f"https://openreview.net/forum?id={g.openreview}")

    # -- fabricated entries, in every way people write "ICML 2026" -------------------------------------
    for claim in CLAIMS:
        for _ in range(3):
            key = f"fab{next(n)}"
            add(Case(with_extra("inproceedings", key, claim.replace("{key}", key.lower()), title=_fake_title(rng),
                                author=_fake_authors(rng)), key, "not-found", form=claim))

    # -- preprints -----------------------------------------------------------------------------------
    for _ in range(15):
        f = take(pool)
        key = f"arxiv{next(n)}"
        add(Case(entry("misc", key, title=plain_title(f.title), author=" and ".join(f.authors), year="2025",
                       eprint=f"25{rng.randrange(1, 12):02d}.{rng.randrange(10000, 99999)}", archiveprefix="arXiv",
                       primaryclass="cs.LG"), key, "preprint", f.openreview, form="arXiv"))
    for _ in range(10):
        f = take(pool)
        key = f"scholar{next(n)}"
        add(Case(entry("article", key, title=plain_title(f.title), author=" and ".join(f.authors),
                       journal=f"arXiv preprint arXiv:2502.{rng.randrange(10000, 99999)}", year="2025"),
                 key, "preprint", f.openreview, form="Scholar arXiv"))
    for _ in range(8):
        f = take(pool)
        key = f"orpreprint{next(n)}"
        add(Case(entry("misc", key, title=plain_title(f.title), author=" and ".join(f.authors), year="2025",
                       howpublished="OpenReview", note="Under review",
                       url=f"https://openreview.net/forum?id={f.openreview}"),
                 key, "preprint", f.openreview, form="OpenReview preprint"))

    # -- same title at other venues (the same people, or others) -------------------------------------
    def other(form: str, text: str, key: str) -> None:
        add(Case(text, key, "other", form=form))

    for _ in range(4):
        f = take(pool)
        key, parent = f"neuripsx{next(n)}", f"neurips25p{next(n)}"
        other("crossref", entry("inproceedings", key, title=f.title, author=" and ".join(f.authors), crossref=parent)
              + entry("proceedings", parent, title="Advances in Neural Information Processing Systems 38",
                      year="2025", publisher="Curran Associates"), key)
    for _ in range(3):
        f = take(pool)
        key, mid, top = f"chain{next(n)}", f"wsmid{next(n)}", f"nipstop{next(n)}"
        other("crossref chain", entry("inproceedings", key, title=f.title, author=" and ".join(f.authors),
                                      crossref=mid)
              + entry("proceedings", mid, crossref=top, year="2025", editor="Someone, Sam")
              + entry("proceedings", top, booktitle="Advances in Neural Information Processing Systems"), key)
    for _ in range(3):
        f = take(pool)
        key, data = f"xdata{next(n)}", f"nipsdata{next(n)}"
        other("xdata", entry("inproceedings", key, title=f.title, author=" and ".join(f.authors), xdata=data)
              + entry("xdata", data, booktitle="Advances in Neural Information Processing Systems", date="2025"), key)
    for field, value in (("howpublished", "NeurIPS"), ("organization", "NeurIPS"), ("note", "NeurIPS 2025 workshop")):
        for _ in range(3):
            f = take(pool)
            key = f"{field}{next(n)}"
            other(field, entry("misc", key, title=f.title, author=" and ".join(f.authors), year="2025",
                               **{field: value}), key)
    for edition, volume, year in (("41st", "235", "2024"), ("42nd", "267", "2025")):
        for _ in range(3):
            f = take(pool)
            key = f"icml{year}x{next(n)}"
            other(f"ICML {year}", entry("inproceedings", key, title=f.title, author=" and ".join(f.authors),
                                        booktitle=f"Proceedings of the {edition} International Conference on Machine Learning",
                                        pages="1--20", year=year, volume=volume,
                                        series="Proceedings of Machine Learning Research", publisher="PMLR",
                                        url=f"https://proceedings.mlr.press/v{volume}/someone{year[2:]}a.html"), key)
    for _ in range(5):
        f = take(pool)
        key = f"tmlr{next(n)}"
        other("same title, other people", entry("article", key, title=f.title, author=_fake_authors(rng),
                                                journal="Transactions on Machine Learning Research", year="2025"), key)
    for _ in range(3):
        f = take(pool)
        key = f"workshop{next(n)}"
        other("ICML workshop", entry("inproceedings", key, title=f.title, author=" and ".join(f.authors),
                                     booktitle="ICML 2026 Workshop on Foundation Models", year="2026"), key)

    # -- classic papers of other venues, and unrelated entries ---------------------------------------
    for match in re.finditer(r"^@\w+\{([^,]+),.*?^\}\n", CLASSICS, re.MULTILINE | re.DOTALL):
        other("classic", match.group(), match.group(1))
    for _ in range(25):
        key = f"unrelated{next(n)}"
        kind = rng.choice(("article", "book", "inproceedings", "misc"))
        venue = {"article": {"journal": "Journal of Obscure Results"}, "book": {"publisher": "Springer"},
                 "inproceedings": {"booktitle": "Proceedings of the Workshop on Things"},
                 "misc": {"howpublished": "Blog post"}}[kind]
        other("unrelated", entry(kind, key, title=_fake_title(rng), author=_fake_authors(rng),
                                 year=str(rng.randrange(1990, 2026)), **venue), key)

    rng.shuffle(cases)
    # -- a duplicate: a second copy of a verified entry, after it, under another key ------------------
    verified = [c for c in cases if c.status == "verified" and c.form == "pmlr"][:4]
    for c in verified:
        key = c.key + "-again"
        cases.append(Case(c.text.replace(c.key, key, 1), key, "duplicate", c.openreview, form="duplicate"))
    return cases


def text_of(cases: list[Case]) -> str:
    return "% A manuscript bibliography generated by tests/check_corpus.py\n\n" + "\n".join(c.text for c in cases)


if __name__ == "__main__":
    sys.stdout.write(text_of(generate()))
