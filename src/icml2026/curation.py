"""Repairs and flags for the known oddities of PMLR's volume BibTeX, and extra case protection.

Each rule works on a record in its JSON form (``schema/paper.schema.json``) and
returns :class:`Finding` values; a repair changes the field, cites the
``derived`` source for it and adds a note quoting what the source said; a flag
changes nothing but adds a note.  Nothing is changed silently.  The classes
(from the corpus notes, ``tools/sources/corpora/README.md``) and what is done:

=========================  ========  ==================================================
class                      action    rule
=========================  ========  ==================================================
software: spaces, scheme   repaired  whitespace next to ``/ . : -`` removed, ``https://``
                                     added, ``\\_`` unescaped, a final ``.``/``#`` dropped
software: label, 2 URLs    repaired  ``Code: URL`` → URL; of two URLs the first is kept,
                                     the second named in the note
software: not a URL        flagged   ``NA``, ``OWM1N``, a local path, a space inside a
                                     word, the submission-check site: no code link
software: not a code repo  repaired  a project page, model, data set, DOI or archive (not
                                     a forge, :func:`link_kind`) → ``links.project``
software: a paper          flagged   an arXiv page: no link
name: trailing period      repaired  ``Hu, Xinyi.`` → given name ``Xinyi``
name: empty given name     flagged   ``Aniri,,`` (probably a mononym): family name only
name: initials as family   flagged   ``Z., Ryan Lee T.``: kept as the source has it
title: space before ``:``  repaired  ``SALE : Low-bit`` → ``SALE: Low-bit`` (also ``?``)
title: final full stop     repaired  removed (citation styles add their own)
title: '' quotes           repaired  ``''Think with Images''`` → “Think with Images”
title: TeX quotes          repaired  ```High'`` → ‘High’ (as PMLR's page shows it)
title: U+2011              repaired  the non-breaking hyphen → ``-`` (readers disagree on it)
title: missing space       flagged   ``Mixture-of-ExpertsTransformers``: kept
title: cut short           flagged   ``…Instability of Latent`` (``liang26d``): kept
=========================  ========  ==================================================

One-letter family names (``E, Weinan``; ``U, Leong Hou``) are correct names and
are kept without a note.

**Case protection.**  PMLR braces only what authors braced, so a style that
lower-cases titles prints "müntz-szász networks".  :data:`PROPER_NOUNS` lists the
eponyms and other proper nouns that occur in the volume's titles (drawn from the
volume itself, each checked to be a name, not an ordinary word); where one
occurs capitalised and unprotected, its range joins ``title_protect``.  Words
that are also ordinary English (``Lean``, ``Go``, ``Student``, ``Frank``,
``Lie``) are protected only in the phrases listed in :data:`PROPER_PHRASES`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

DERIVED = "derived"


@dataclass(frozen=True, slots=True)
class Finding:
    """One thing a rule did to one record."""

    record: str
    pointer: str
    action: str  # "repaired" or "flagged"
    rule: str
    source_value: str

    def as_row(self) -> tuple[str, str, str, str, str]:
        return (self.rule, self.action, self.record, self.pointer, self.source_value)


# --------------------------------------------------------------------------- software links

_SAFE_SPACE = re.compile(r"\s*([/.:\-])\s*|\s+(?=[/.:\-])")
_SCHEME = re.compile(r"[a-z][a-z0-9+.-]*://", re.IGNORECASE)
_URL_LIKE = re.compile(r"(?:[a-z0-9-]+\.)+[a-z]{2,}(?:[/:?#]\S*)?$", re.IGNORECASE)
_URL_IN_TEXT = re.compile(r"(?:https?://|www\.|[\w-]+\.github\.io|github\.com/)\S+", re.IGNORECASE)
NOT_CODE_HOSTS = ("papercheck.icml.cc",)


def repair_software(value: str) -> tuple[str | None, str | None]:
    """(URL or None, why) for a PMLR ``software`` value; *why* is None when it was clean."""
    text = value.strip()
    squeezed = re.sub(r":\s+//", "://", re.sub(r"\s+([./])\s*|([./])\s+", _join, text))
    urls = [u.rstrip(",;") for u in _URL_IN_TEXT.findall(squeezed)]
    if len(urls) > 1:
        first, why = repair_software(urls[0])
        return first, f"it names {len(urls)} URLs; the first is kept" + (f" ({why})" if why else "")
    if urls and not text.lower().startswith(("http", "www", "github")) and not _URL_LIKE.match(text):
        first, why = repair_software(urls[0])
        return first, "a label before the URL was removed" + (f" ({why})" if why else "")
    url = _SAFE_SPACE.sub(lambda m: m.group(1) or "", text)
    url = url.replace("\\_", "_")
    reasons = []
    if url != text:
        reasons.append("spaces or escapes inside the URL were removed")
    if re.search(r"\s", url):
        return None, "it contains a space inside a word, so the URL cannot be known"
    if url.startswith("/"):
        return None, "it is a local file path, not a URL"
    if not _SCHEME.match(url):
        if not _URL_LIKE.match(url):
            return None, "it is not a URL"
        url = "https://" + url
        reasons.append("https:// was added")
    if url[-1] in ".#":
        url = url[:-1]
        reasons.append(f"a final {value.strip()[-1]!r} was removed")
    if any(host in url for host in NOT_CODE_HOSTS):
        return None, "it is the conference's submission-check site, not the paper's code"
    return url, "; ".join(reasons) or None


def _join(match: re.Match[str]) -> str:
    return match.group(1) or match.group(2)


# --------------------------------------------------------------------------- rules on records

def note(rec: dict[str, Any], text: str) -> None:
    """Add a note to *rec* (its provenance: ``derived``)."""
    rec.setdefault("notes", []).append(text)
    rec["provenance"]["/notes"] = DERIVED


_note = note


def curate_names(rec: dict[str, Any]) -> list[Finding]:
    found = []
    for n, person in enumerate(rec.get("authors", [])):
        pointer = f"/authors/{n}"
        given, family = person.get("given"), person.get("family")
        if given and re.search(r"[^\W\d_]{3,}\.$", given):  # not an abbreviation such as "St."
            person["given"] = given[:-1]
            rec["provenance"]["/authors"] = DERIVED
            _note(rec, f"Author {n + 1}: the source gives the given name {given!r} with a final period; "
                  f"imported as {person['given']!r}.")
            found.append(Finding(rec["id"], pointer, "repaired", "name: trailing period", given))
        elif family and not given and "literal" not in person:
            _note(rec, f"Author {n + 1}: the source gives {family!r} with an empty given name (probably a "
                  "mononym); kept as a family name only.")
            found.append(Finding(rec["id"], pointer, "flagged", "name: empty given name", family))
        elif family and re.fullmatch(r"(?:[A-Z]\.)+", family):
            _note(rec, f"Author {n + 1}: the source gives the family name {family!r}, which is only "
                  "initials; kept as the source has it.")
            found.append(Finding(rec["id"], pointer, "flagged", "name: initials as family name", family))
    return found


def edit_title(rec: dict[str, Any], start: int, end: int, new: str) -> None:
    """Replace ``title[start:end]`` by *new*, moving the ``title_protect`` ranges after it."""
    title = rec["title"]
    rec["title"] = title[:start] + new + title[end:]
    shift = len(new) - (end - start)
    ranges = []
    for a, b in rec.get("title_protect", []):
        if a >= end:
            a, b = a + shift, b + shift
        elif b > start:
            b = max(b + shift, a + 1)
        ranges.append([a, b])
    if ranges:
        rec["title_protect"] = ranges


_SPACE_BEFORE_PUNCT = re.compile(r"(?<=\S)[ ]+(?=[:?](?:\s|$))")
_FINAL_STOP = re.compile(r"(?<![.\s])\.$")
_DOUBLE_QUOTED = re.compile(r"”([^”“\"]+)”")
_TEX_SINGLE_QUOTED = re.compile(r"`([^`'$]+)'")
# Found by reading the volume's titles (CamelCase method names are not such joins).
MISSING_SPACE = ("ExpertsTransformers",)
CUT_SHORT = ("Geometric Decoupling: Diagnosing the Structural Instability of Latent",)


def curate_title(rec: dict[str, Any]) -> list[Finding]:
    if "title" not in rec:
        return []
    found = []
    original = rec["title"]

    def repaired(rule: str, what: str) -> None:
        rec["provenance"]["/title"] = DERIVED
        if "title_protect" in rec:
            rec["provenance"]["/title_protect"] = DERIVED
        _note(rec, f"Title: {what}; the source reads {original!r}.")
        found.append(Finding(rec["id"], "/title", "repaired", rule, original))

    for match in reversed(list(_SPACE_BEFORE_PUNCT.finditer(rec["title"]))):
        edit_title(rec, match.start(), match.end(), "")
    if rec["title"] != original:
        repaired("title: space before a colon or question mark", "the space before a colon or question "
                 "mark was removed")
    if _FINAL_STOP.search(rec["title"]):
        edit_title(rec, len(rec["title"]) - 1, len(rec["title"]), "")
        repaired("title: final full stop", "the final full stop was removed")
    hyphens = [m.start() for m in re.finditer("\u2011", rec["title"])]
    for at in hyphens:
        edit_title(rec, at, at + 1, "-")
    if hyphens:
        repaired("title: non-breaking hyphen", "each non-breaking hyphen (U+2011) is written as a hyphen, "
                 "which every reader of BibTeX, RIS and CSL-JSON decodes alike")
    tex_quoted = list(_TEX_SINGLE_QUOTED.finditer(rec["title"]))
    for m in tex_quoted:
        edit_title(rec, m.start(), m.start() + 1, "‘")
        edit_title(rec, m.end() - 1, m.end(), "’")
    if tex_quoted:
        repaired("title: TeX quotes", "the TeX quotation marks `…' are ‘…’, as PMLR's page shows them")
    quoted = _DOUBLE_QUOTED.search(rec["title"])
    if quoted:
        edit_title(rec, quoted.start(), quoted.start() + 1, "“")
        repaired("title: '' quotes", "the opening quotation mark, written '' in the source, is “")
    joined = next((word for word in MISSING_SPACE if word in rec["title"]), None)
    if joined:
        _note(rec, f"Title: {joined!r} looks like two words with a missing space; kept as the "
              "source has it.")
        found.append(Finding(rec["id"], "/title", "flagged", "title: missing space", original))
    if rec["title"] in CUT_SHORT:
        _note(rec, "Title: it looks cut short (it ends in an adjective); kept as the source has it.")
        found.append(Finding(rec["id"], "/title", "flagged", "title: cut short", original))
    return found


# --------------------------------------------------------------------------- case protection

# Reviewed one by one against the volume's titles: each is a person, place, product, language
# or named model/method in every title where it occurs (docs/case-protection.md lists them all
# with the titles they changed).  Ordinary words that are names only in some titles are in
# PROPER_PHRASES instead; "Black-box", "Meta-learning", "Slack", "Oracle", "Habitat", "Unity",
# "Go", "Chess", "Ridge", "Lasso" are ordinary words in these titles and never protected.
PROPER_NOUNS = frozenset("""
Adam American Arnold Banach Bayes Bayesian Bellman Bernoulli Bernstein Bertrand Besov Boltzmann
Boolean Bregman Carlo Cauchy Chebyshev Cholesky Cox Dirac Dirichlet Euclidean Euler Feynman Fisher
Fourier Fréchet Galerkin Gauss Gaussian Gaussians Gibbs Glauber Granger Gromov Gumbel Hadamard
Hamilton Hamiltonian Hamming Hastings Hebbian Hermite Hessian Hilbert Hodge Hölder Hopfield Ising Itô
Jacobi Jacobian Jensen Kac Kalman Kolmogorov Koopman Kronecker Kuramoto Kutta Lagrangian Langevin
Laplace Laplacian Lipschitz Lyapunov Lévy Mahalanobis Markov Metropolis Minecraft Monte Müntz Nash
Nesterov Newton Newtonian Neyman Nyström Pareto Poisson Polyak Procrustes Rademacher Rayleigh Ricci
Riemannian Runge Rényi Schrödinger Schur Shannon Shapley Sinkhorn Sobolev Stackelberg Stein Stiefel
Szász Taylor Thompson Tsetlin Turing Volterra Voronoi Wasserstein Wigner Wolfe
Aristotelian Bures Cartesian Clebsch Clifford Darwinian Frenkel Gilbert Gordan Isaacs Lorentz Mallows
Markovian Mendelian Poincaré Pollak Pontryagin Rockafellar Romberg Shafranov Slepian Socratic Uryasev
Wilf Zeilberger
Aitchison Amari Butterworth Doob Doppler Finsler Hartigan Heisenberg Hellinger Huber Kepler Klein
Knothe Krause Kruskal Levin Lewis Massart Mises Onsager Razumikhin Rosenblatt Toulmin Tucker Cézanne
India Rome Ariadne Argus Rashomon Trojan Sybil Ulysses Zeus Hermes Artemis Ophiuchus Polaris Proteus
Dafny Verilog Verus Docker Photoshop Triton Gemini Hanabi Rosetta Mamba Muon Muons Tulu Veda Vegas
Olaf Olivia Dustin Rex
""".split())
# Words that are ordinary English but names in these contexts: each pattern's group "w" is protected.
PROPER_PHRASES = tuple(re.compile(p) for p in (
    r"(?P<w>Lie)[- ](?:[Gg]roups?|[Aa]lgebra(?:s|ic)?|[Bb]rackets?|[Ss]ymmetr(?:y|ies)|[Dd]erivatives?)\b",
    r"(?P<w>Frank)-Wolfe\b",
    r"(?P<w>Gram)[- ](?:[Mm]atri(?:x|ces)|Schmidt)\b",
    r"(?P<w>Student)(?:'s)?[- ]t\b",
    # the Lean prover: "Lean Theorem Proving", "Lean 4", "in Lean", "Numina-Lean-Agent"
    r"(?P<w>Lean)(?:[- ](?:Theorems?|Formali[sz]ations?|4|Agent)\b|$)",
    r"(?<=\bin )(?P<w>Lean)\b",
    r"(?<=\bfor )(?P<w>Rust) Verification\b",  # the programming language
    r"Global (?P<w>South)\b",
))
_TOKEN = re.compile(r"[^\W_]+")
_MATH = re.compile(r"\$(?:\\.|[^\\$])*\$")
_COMPOUND = re.compile(r"[^\s\-‐‑–—/:;,.?!()\[\]“”\"]+")


def _masked(title: str) -> str:
    """*title* with each math span as NUL characters (a final ``-`` inside it stays a hyphen)."""
    def mask(m: re.Match[str]) -> str:
        text = m.group(0)
        return "\0" * (len(text) - 2) + "-\0" if text.endswith("-$") else "\0" * len(text)
    return _MATH.sub(mask, title)


def case_ranges(title: str) -> list[tuple[int, int]]:
    """The ranges of *title* whose capitals a lower-casing style must keep.

    As Better BibTeX does: every word with a capital after its first character
    (``mmWave``, ``PragLocker``) or a capital and a digit (``R1``, ``V2``, ``3D``);
    every one-letter capital word but the article "A" (the pronoun "I", ``A*``,
    ``Q-learning``, ``E(3)``); the words of a capitalised word written together with
    math or ``&`` (``DR$^2$Seg``, ``Hide&Seek``); the first word after an opening
    quotation mark (“Someone …”); and the proper nouns of :data:`PROPER_NOUNS` and
    :data:`PROPER_PHRASES`.  Math (``$…$``) is never in a range.
    """
    found: list[tuple[int, int]] = []
    masked = _masked(title)
    for m in _TOKEN.finditer(masked.replace("\0", " ")):
        word = m.group(0)
        if (re.search(r".[A-Z]", word) or (re.search(r"[A-Z]", word) and re.search(r"\d", word))
                or (re.fullmatch(r"[A-Z]", word) and not (word == "A" and title[m.end():m.end() + 1] in ("", " ")))
                or word in PROPER_NOUNS):
            found.append(m.span())
    for m in _COMPOUND.finditer(masked):  # a word written together with math or "&"
        parts = list(_TOKEN.finditer(m.group(0).replace("\0", " ")))
        if len(parts) > 1 and ("\0" in m.group(0) or "&" in m.group(0)):
            found += [(m.start() + p.start(), m.start() + p.end()) for p in parts if p.group(0)[0].isupper()]
    first = _TOKEN.search(masked.replace("\0", " "))
    if first and first.group(0)[0].isupper() and first.start() > 0 and re.fullmatch(r"[“\"‘'(\[]+", title[:first.start()]):
        found.append(first.span())
    for pattern in PROPER_PHRASES:
        found += [m.span("w") for m in pattern.finditer(title)]
    return sorted(set(found))


def protect_proper_nouns(rec: dict[str, Any]) -> int:
    """Add the :func:`case_ranges` not yet protected to ``title_protect``; returns how many were added."""
    title = rec.get("title")
    if not title:
        return 0
    ranges = [list(r) for r in rec.get("title_protect", [])]
    covered = {i for a, b in ranges for i in range(a, b)} | {
        i for m in _MATH.finditer(title) for i in range(m.start(), m.end())}
    added = [[a, b] for a, b in case_ranges(title) if not covered.intersection(range(a, b))]
    if added:
        rec["title_protect"] = sorted(ranges + added)
        rec["provenance"]["/title_protect"] = DERIVED
    return len(added)


def protect_case(rec: dict[str, Any]) -> list[Finding]:
    """:func:`protect_proper_nouns` as a rule: one finding per title it changed (for the report)."""
    before = rec.get("title_protect", [])
    if not protect_proper_nouns(rec):
        return []
    words = [rec["title"][a:b] for a, b in rec["title_protect"] if [a, b] not in before]
    return [Finding(rec["id"], "/title_protect", "protected", "title: case protection", ", ".join(words))]


RULES: tuple[Callable[[dict[str, Any]], list[Finding]], ...] = (curate_names, curate_title)


def curate_entry(rec: dict[str, Any], software: str | None = None) -> list[Finding]:
    """Curate one entry of PMLR's BibTeX exactly as ``tools/build_records.py`` curates the volume.

    *rec* is the entry as the BibTeX importer reads it, in its JSON form
    (``Paper.to_dict()``), with its ``id`` and ``provenance``; it is changed in
    place.  *software* is the entry's ``software`` field exactly as the source
    writes it (None when it has none): its repair decides ``links.code``.  Then
    every rule of :data:`RULES` (names, title) and the case protection run, in
    that order, so a title PMLR corrects later gets the same repairs, notes and
    braces as the packaged one.  Returns what was repaired, flagged or protected.
    """
    found = curate_code_link(rec, software)
    for rule in RULES:
        found += rule(rec)
    return found + protect_case(rec)


# Hosts of source repositories (forges): a software link there is the paper's code.
CODE_HOSTS = re.compile(r"(?:www\.)?github\.com|(?:[\w-]+\.)*gitlab\.[\w.-]+|gitlab\.com|jugit\.[\w.-]+"
                        r"|anonymous\.4open\.science|codeberg\.org|bitbucket\.org", re.IGNORECASE)
# A link to a paper is not software: it is left out.
PAPER_HOSTS = re.compile(r"(?:www\.)?arxiv\.org", re.IGNORECASE)


def link_kind(url: str) -> str:
    """``code`` (a source repository on a forge), ``paper`` or ``project`` (any other page: a
    project site, a model or data set page, an archive or DOI) for a software link."""
    host = re.sub(r"^[a-z]+://", "", url, flags=re.IGNORECASE).split("/")[0].split(":")[0]
    if CODE_HOSTS.fullmatch(host):
        return "code"
    return "paper" if PAPER_HOSTS.fullmatch(host) else "project"


def curate_code_link(rec: dict[str, Any], value: str | None) -> list[Finding]:
    """The link of the raw ``software`` value, repaired by :func:`repair_software` and
    classified by :func:`link_kind` (``links.code`` or ``links.project``), each change noted."""
    if value is None:
        return []
    url, why = repair_software(value)
    found = []
    if why is not None:
        verdict = f"imported as {url!r}" if url else "no code link imported"
        _note(rec, f"Code link: the source's software field reads {value!r}; {why}; {verdict}.")
        rule = "software: " + ("repaired" if url else "not a URL")
        found.append(Finding(rec["id"], "/links/code", "repaired" if url else "flagged", rule, value))
    if not url:
        return found
    kind = link_kind(url)
    if kind == "paper":
        _note(rec, f"Software link: {url!r} is a paper's page, not software; left out.")
        return found + [Finding(rec["id"], "/links/code", "flagged", "software: a paper, not software", value)]
    field = f"/links/{kind}"
    rec["links"][kind] = url
    rec["links"] = {k: rec["links"][k] for k in sorted(rec["links"])}
    rec["provenance"][field] = "pmlr-bibtex" if why is None and kind == "code" else DERIVED
    if kind == "project":
        _note(rec, f"Software link: {url!r} is not a source repository (a project page, model, data set "
              "or archive); it is the project link.")
        found.append(Finding(rec["id"], field, "repaired", "software: not a code repository", value))
    return found
