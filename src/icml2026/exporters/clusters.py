# citeproc-py is untyped: its element classes are Any, and these overrides keep its signatures.
# mypy: disallow-subclassing-any=False, disallow-untyped-defs=False, disallow-incomplete-defs=False
# mypy: warn-return-any=False, disallow-untyped-calls=False
"""Citation clusters: several cites in one citation, in document order.

``render_clusters(papers, clusters, style=…, output_format=…, locale=…)``
renders one citation per cluster, as a paper that cites "(Wang et al., 2026a,
2026b; Zhao et al., 2026)" or "[1–3]" needs them.  Written from the CSL 1.0.2
specification (Citation-specific Options, Choose, Locators); citeproc-py
renders each cite, through the fixes of :mod:`.citeproc_fixes`; this module
does what citeproc-py lacks:

* **Cite items**: a citation key or PMLR id (``"zhao26ac"``), or a mapping
  ``{"key": "zhao26ac", "locator": "4", "label": "page"}`` (label one of the
  CSL locator terms, default ``page``), printed as the style says ("p. 4").
* **One document**: every cited paper is disambiguated together with the
  others (as :func:`icml2026.cite` does), numbers follow the bibliography's
  order (the order of first citation for styles that do not sort it).
* **Sorting** of the cites of one citation by the style's ``cs:citation``
  ``cs:sort``, before positions and grouping.
* **Positions**: ``first``, ``subsequent``, ``ibid``, ``ibid-with-locator``
  (the specification's rules a/b, locators compared) and, for note styles
  (one citation per note, notes numbered 1, 2 …), ``near-note`` within
  ``near-note-distance``; ``et-al-subsequent-min`` / ``-use-first`` for every
  cite that is not first.
* **Cite grouping** (``cite-group-delimiter`` or ``collapse``): cites whose
  first ``cs:names`` output is the same are moved next to the first of them.
* **Collapsing**: ``citation-number`` ("[1–3, 5]", runs of three or more
  increasing numbers, cites without locator), ``year`` (names suppressed after
  the first cite of a group), ``year-suffix`` ("2026a, b") and
  ``year-suffix-ranged`` ("2026a–c"), falling back to ``year`` without year
  suffixes or for a cite with a locator; ``year-suffix-delimiter`` and
  ``after-collapse-delimiter``, each defaulting to the layout's delimiter.
* **Notes**: in a note style each citation is a note of its own, numbered from 1.

citeproc-py's public API gives the items (``Citation``, ``CitationItem`` with a
``Locator``, registered with the document's ``CitationStylesBibliography``); its
``cite()`` renders a whole citation with one disambiguation state and without positions
or collapsing, so each cite is rendered alone (the children of the citation's
``cs:layout``) and the citation is assembled here, in the layout's affixes and formatting.
The element classes of :func:`cluster_style_class` add what the cites need: the position tests,
``is-numeric`` on the locator, ``et-al-subsequent-*``, and the first ``cs:names`` output
(recorded for grouping, suppressed for collapsing).

The output is one string per cluster: text, the HTML of the citation (no
wrapper), or Markdown, as :func:`.citation.format_entries` renders in-text
citations.
"""

from __future__ import annotations

import functools
import re
import threading
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import UsageError
from ..model import Paper
from . import OUTPUT_FORMATS
from .disambiguation import year_suffix_letters

CSL_NS = "http://purl.org/net/xbiblio/csl"

LOCATOR_LABELS = ("act", "appendix", "article-locator", "book", "canon", "chapter", "column", "elocation",
                  "equation", "figure", "folio", "issue", "line", "note", "opus", "page", "paragraph", "part",
                  "rule", "scene", "section", "sub-verbo", "supplement", "table", "timestamp", "title",
                  "verse", "volume")
POSITIONS = ("first", "subsequent", "ibid", "ibid-with-locator", "near-note")


# -- the cites --------------------------------------------------------------------------

@dataclass(frozen=True)
class Cite:
    """One cite of a cluster: a paper's key and an optional locator ("4", label "page")."""

    key: str
    locator: str | None = None
    label: str = "page"


def parse_cite(value: Any) -> Cite:
    """A cite from a key, or a mapping with ``key`` and optional ``locator`` and ``label``."""
    if isinstance(value, Cite):
        return value
    if isinstance(value, str):
        if not value.strip():
            raise UsageError("a cite names no key (an empty string)")
        return Cite(value.strip())
    if isinstance(value, Mapping):
        unknown = sorted(set(value) - {"key", "locator", "label"})
        if unknown:
            raise UsageError(f"a cite takes key, locator and label, not {', '.join(map(str, unknown))}")
        key, locator, label = value.get("key"), value.get("locator"), value.get("label", "page")
        if not isinstance(key, str) or not key.strip():
            raise UsageError(f"a cite needs a key (a str), not {key!r}")
        if locator is not None and not isinstance(locator, (str, int)):
            raise UsageError(f"the locator of {key} must be a str, not {locator!r}")
        if not isinstance(label, str) or label not in LOCATOR_LABELS:
            raise UsageError(f"unknown locator label {label!r} for {key} (known: {', '.join(LOCATOR_LABELS)})")
        locator = str(locator).strip() if locator is not None else None
        return Cite(key.strip(), locator or None, label)
    raise TypeError(f"a cite is a key (str) or a mapping with key/locator/label, not {type(value).__name__}")


def parse_clusters(clusters: Any) -> list[list[Cite]]:
    """*clusters*: a list of clusters, each a list of cites (see :func:`parse_cite`)."""
    if isinstance(clusters, (str, bytes)) or not isinstance(clusters, Sequence):
        raise TypeError("clusters must be a list of clusters, each a list of keys, e.g. [['k1', 'k2'], ['k3']]")
    parsed = []
    for cluster in clusters:
        if isinstance(cluster, (str, bytes, Mapping)) or not isinstance(cluster, Sequence):
            raise TypeError(f"each cluster must be a list of cites, not {cluster!r}")
        if not cluster:
            raise UsageError("a cluster cites nothing (an empty list)")
        parsed.append([parse_cite(c) for c in cluster])
    if not parsed:
        raise UsageError("no cluster to render")
    return parsed


def parse_cite_option(text: str) -> list[list[Cite]]:
    """The CLI's ``--cite "k1,k2;k3"``: clusters split at ``;``, cites at ``,``; a cite may
    carry a locator after ``@`` (``k1@4``, ``k1@chapter:2``)."""
    clusters = []
    for part in text.split(";"):
        cites = [c.strip() for c in part.split(",") if c.strip()]
        if not cites:
            raise UsageError(f"--cite {text!r} has an empty cluster")
        clusters.append([_cli_cite(c) for c in cites])
    return clusters


def _cli_cite(text: str) -> Cite:
    key, at, locator = text.partition("@")
    if not at:
        return parse_cite(key)
    label, colon, value = locator.partition(":")
    if not colon:
        label, value = "page", locator
    if not value.strip():
        raise UsageError(f"--cite {text!r}: no locator after '@' (write {key}@4 or {key}@chapter:2)")
    return parse_cite({"key": key, "locator": value, "label": label.strip() or "page"})


# -- the style: citeproc-py's elements, with positions and name suppression ----------------

@dataclass
class _CiteContext:
    """What the cite being rendered needs that citeproc-py does not know."""

    positions: frozenset[str]
    suppress_names: bool = False
    names: str | None = None  # the output of the first cs:names (for grouping)
    depth: int = 0
    names_seen: int = 0


def _context(element: Any) -> _CiteContext | None:
    return getattr(element.get_root(), "cluster_context", None)


def _subsequent_option(element: Any, name: str, context: Any) -> str | None:
    """``et-al-subsequent-min``/``-use-first`` where they apply: on the element, cs:citation or cs:style."""
    value = element.get(name)
    if value is not None:
        return value
    anchor = context if context is not None else element
    for ancestor in anchor.iterancestors(f"{{{CSL_NS}}}citation"):
        if ancestor.get(name) is not None:
            return ancestor.get(name)
    return element.getroottree().getroot().get(name)


# CSL 1.0.2, is-numeric: numbers with optional letter prefixes and suffixes ("D2", "2b"),
# separated by a comma, hyphen (or en dash) or ampersand, with or without spaces.
_NUMBER = r"[A-Za-z]*\d+[A-Za-z]*"
_NUMERIC = re.compile(rf"\s*{_NUMBER}(?:\s*[,&\-\u2013]\s*{_NUMBER})*\s*")


@functools.cache
def cluster_style_class() -> type:
    """:class:`.citeproc_fixes.FixedStyle` with the elements a cite of a cluster needs (built on
    first use: citeproc-py is imported only then)."""
    from citeproc import model

    from .citeproc_fixes import FIXED_ELEMENTS, FixedIf, FixedName, FixedStyle

    class ClusterIf(FixedIf):
        """``position`` tests the cite's position (CSL 1.0.2, Choose); outside a cluster's cite
        (the bibliography, the disambiguation's base forms) citeproc-py's own test, as for ``cite()``."""

        def _position(self, item, context=None, *args, **kwargs):
            cite = _context(self)
            if cite is None:
                return super()._position(item, context, *args, **kwargs)
            return [position in cite.positions for position in self.get("position", "").split()]

        def _is_numeric(self, item, *args, **kwargs):
            """``is-numeric="locator"`` tests the cite's locator (citeproc-py looks in the record)."""
            variables = self.get("is-numeric", "").split()
            if "locator" not in variables or _context(self) is None:
                return super()._is_numeric(item, *args, **kwargs)
            locator = getattr(item, "locator", None)
            results = []
            for variable in variables:
                if variable == "locator":
                    value = getattr(locator, "identifier", None) if locator is not None else None
                else:
                    try:
                        value = item.reference[variable.replace("-", "_")]
                    except Exception:  # a variable the record lacks
                        value = None
                results.append(value is not None and bool(_NUMERIC.fullmatch(str(value))))
            return results


    class ClusterElseIf(ClusterIf):
        pass


    class ClusterName(FixedName):
        """``et-al-subsequent-min``/``et-al-subsequent-use-first`` replace ``et-al-min``/``-use-first``
        for a cite that is not first."""

        def get_option(self, name, context=None, sort_options=None):
            if name in ("et-al-min", "et-al-use-first") and not sort_options:
                cite = _context(self)
                if cite is not None and "first" not in cite.positions:
                    value = _subsequent_option(self, name.replace("et-al-", "et-al-subsequent-"), context)
                    if value is not None:
                        return int(value)
            return super().get_option(name, context, sort_options)


    class ClusterNames(model.Names):
        """The first ``cs:names`` of a cite: its output recorded (cite grouping), or suppressed
        (collapsed cites of a group: "Doe 2000, 2001")."""

        def render(self, *args, **kwargs):
            cite = _context(self)
            if cite is None:
                return super().render(*args, **kwargs)
            outer = cite.depth == 0
            if outer and cite.suppress_names and cite.names_seen == 0:
                text = super().render(*args, **kwargs)
                if text is not None:
                    cite.names_seen += 1
                    return None
                return text
            cite.depth += 1
            try:
                text = super().render(*args, **kwargs)
            finally:
                cite.depth -= 1
            if outer and text is not None and cite.names_seen == 0:
                cite.names_seen += 1
                cite.names = str(text)
            return text


    class ClusterStyle(FixedStyle):
        elements = {**FIXED_ELEMENTS, "if": ClusterIf, "else-if": ClusterElseIf, "name": ClusterName,
                    "names": ClusterNames}

    return ClusterStyle


@functools.lru_cache(maxsize=16)
def load_cluster_style(path: Path, locale: str | None) -> Any:
    """The parsed style with the cluster elements, once per (file, locale) per process."""
    from .citation import disambiguation_options
    from .citeproc_fixes import StyleError

    try:
        style = cluster_style_class()(path, locale)
    except StyleError as exc:
        raise UsageError(f"{path}: {exc}") from None
    style.lock = threading.Lock()
    style.uses_numbers = "citation-number" in style.text
    style.disambiguation = disambiguation_options(style)
    style.root.cluster_context = None
    return style


# -- positions --------------------------------------------------------------------------------

def positions(clusters: Sequence[Sequence[Cite]], *, note: bool, near_note_distance: int = 5
              ) -> list[list[frozenset[str]]]:
    """The positions of every cite (CSL 1.0.2, Choose: ``position``), clusters in document order.

    *note*: each cluster is a note (numbered from 1); only then can ``near-note`` hold.
    """
    last_note: dict[str, int] = {}
    out: list[list[frozenset[str]]] = []
    previous_cluster: Sequence[Cite] = ()
    for number, cluster in enumerate(clusters, start=1):
        found = []
        for index, cite in enumerate(cluster):
            if cite.key not in last_note:
                found.append(frozenset({"first"}))
                last_note[cite.key] = number
                continue
            result = {"subsequent"}
            if index > 0:
                before: Cite | None = cluster[index - 1]
            elif len(previous_cluster) == 1:
                before = previous_cluster[0]
            else:
                before = None
            if before is not None and before.key == cite.key:
                if before.locator is None:
                    result |= {"ibid", "ibid-with-locator"} if cite.locator is not None else {"ibid"}
                elif (cite.locator, cite.label) == (before.locator, before.label):
                    result.add("ibid")
                elif cite.locator is not None:
                    result |= {"ibid", "ibid-with-locator"}
            if note and number - last_note[cite.key] <= near_note_distance:
                result.add("near-note")
            last_note[cite.key] = number
            found.append(frozenset(result))
        out.append(found)
        previous_cluster = cluster
    return out


# -- rendering ----------------------------------------------------------------------------------

@dataclass
class _Rendered:
    cite: Cite
    key: str  # citeproc-py's key
    marked: str  # the cite, with markers
    names: str | None  # the first cs:names output
    collapsed: str  # the cite with its first cs:names suppressed
    number: int | None
    year_suffix: int | None
    locator_shown: bool = True  # a cite with a locator: does its rendering show it?


def resolve(papers: Any, key: str) -> Paper:
    """The paper *key* names in *papers* (citation key, PMLR id, alias, as ``papers[key]``)."""
    from ..collection import PaperCollection

    collection = papers if isinstance(papers, PaperCollection) else PaperCollection(papers)
    paper = collection.get(key) or collection.find(key)
    if paper is None:
        raise UsageError(f"no paper with key {key!r} among the papers given (see 'icml2026 list')")
    return paper


def render_clusters(papers: Any, clusters: Any, *, style: str = "apa", output_format: str = "text",
                    locale: str | None = None) -> list[str]:
    """One rendered citation per cluster of *papers* (see the module's docstring).

    A cite's key is anything ``papers[key]`` accepts (citation key, PMLR id, alias); the
    papers cited form the document.  An unknown key or an incomplete record is a
    :class:`UsageError`.
    """
    from ..collection import PaperCollection, check_iterable
    from . import citable, missing_for_citation
    from .csl import to_csl

    parsed = parse_clusters(clusters)
    _check_output_format(output_format)
    if isinstance(papers, Paper):
        papers = [papers]
    collection = papers if isinstance(papers, PaperCollection) else PaperCollection(check_iterable(papers))
    cited: dict[str, Paper] = {}
    document: list[list[Cite]] = []
    for cluster in parsed:
        resolved = []
        for cite in cluster:
            paper = resolve(collection, cite.key)
            if not citable(paper):
                raise UsageError(f"{cite.key} is an incomplete record and cannot be cited "
                                 f"(missing {', '.join(missing_for_citation(paper)) or 'required fields'})")
            cited.setdefault(paper.id, paper)
            resolved.append(Cite(paper.id, cite.locator, cite.label))
        document.append(resolved)
    items = {paper_id: to_csl(p, abstract=False) for paper_id, p in cited.items()}
    ids = {paper_id: str(item["id"]) for paper_id, item in items.items()}
    return format_clusters(list(items.values()), [[Cite(ids[c.key], c.locator, c.label) for c in cluster]
                                                  for cluster in document],
                           style=style, output_format=output_format, locale=locale)


def _check_output_format(output_format: str) -> None:
    if output_format not in OUTPUT_FORMATS:
        raise UsageError(f"unknown output format {output_format!r} (known: {', '.join(OUTPUT_FORMATS)})")


def format_clusters(items: Sequence[Mapping[str, Any]], clusters: Any, *, style: str = "apa",
                    output_format: str = "text", locale: str | None = None) -> list[str]:
    """One citation per cluster of CSL-JSON *items* (cites name item ids), in *output_format*."""
    _check_output_format(output_format)
    return rendered_as(marked_clusters(items, clusters, style=style, locale=locale), output_format)


def rendered_as(marked: Sequence[str], output_format: str) -> list[str]:
    """Marked citations (:func:`marked_clusters`) as text, HTML or Markdown."""
    from .citation import html_to_markdown
    from .citeproc_fixes import to_html, to_text

    _check_output_format(output_format)
    if output_format == "text":
        return [to_text(m) for m in marked]
    if output_format == "markdown":
        return [html_to_markdown(to_html(m, superscripts=False)) for m in marked]
    return [to_html(m) for m in marked]


def marked_clusters(items: Sequence[Mapping[str, Any]], clusters: Any, *, style: str = "apa",
                    locale: str | None = None) -> list[str]:
    """The citations of :func:`format_clusters` with formatting markers, for any output format."""
    from .citation import check_locale, style_path

    document = parse_clusters(clusters)
    known = {str(item["id"]): item for item in items}
    cited: dict[str, Mapping[str, Any]] = {}  # the document's items, in the order first cited
    for cluster in document:
        for cite in cluster:
            if cite.key not in known:
                raise UsageError(f"unknown item id {cite.key!r}")
            cited.setdefault(cite.key, known[cite.key])
    loaded = load_cluster_style(style_path(style), check_locale(locale) if locale else None)
    return _render_document(loaded, list(cited.values()), document)


def _render_document(loaded: Any, items: Sequence[Mapping[str, Any]], document: list[list[Cite]]) -> list[str]:
    """The marked citation of each cluster of *document* (cites by item id)."""
    from citeproc import Citation, CitationItem, Locator

    from .citation import citeproc_error, register_items
    from .citeproc_fixes import collapse_punctuation, move_punctuation_into_quotes

    citation = loaded.root.citation
    note = loaded.root.get("class") == "note"
    distance = int(citation.get("near-note-distance") or 5)
    out: list[str] = []
    with loaded.lock, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            registration = register_items(loaded, items, sort=True, shared=False)  # locators register cites
            bibliography, registered = registration.bibliography, registration.registered
            number, disambiguation = registration.number, registration.document
            by_id = {real: key for key, real in registration.ids.items()}  # item id → citeproc-py key

            def item_of(cite: Cite) -> Any:
                key = by_id[cite.key]
                if cite.locator is None:
                    return registered[key]
                item = CitationItem(key, locator=Locator(cite.label, cite.locator))
                keys = list(bibliography.keys)
                bibliography.register(Citation([item]))  # gives the item its reference; the key is known
                assert list(bibliography.keys) == keys
                return item

            sorted_document = [_sort(loaded, [(c, item_of(c)) for c in cluster], disambiguation, number)
                               for cluster in document]
            cite_positions = positions([[c for c, _ in cluster] for cluster in sorted_document], note=note,
                                       near_note_distance=distance)
            for cluster, found in zip(sorted_document, cite_positions):
                numbers = citation.get("collapse") == "citation-number"
                rendered = [_render_cite(loaded, cite, item, where, disambiguation, number,
                                         registered[item.key] if numbers else None)
                            for (cite, item), where in zip(cluster, found)]
                text = _assemble(loaded, rendered)
                out.append(collapse_punctuation(move_punctuation_into_quotes(text, loaded.punctuation_in_quote)))
        except Exception as exc:
            error = citeproc_error(exc)
            if error is None:
                raise
            raise error from None
        finally:
            loaded.root.cluster_context = None
            loaded.root.render_state = None
    return out


def _sort(loaded: Any, cites: list[tuple[Cite, Any]], disambiguation: Any, number: dict[str, int]
          ) -> list[tuple[Cite, Any]]:
    """The cites of one citation in the order of the style's ``cs:citation/cs:sort``.

    Cites whose keys all tie are ordered by the names they show (their first ``cs:names``;
    folded, spaces and punctuation ignored), as citeproc-js orders them, and cites showing the
    same names keep the order given; a style without ``cs:sort`` keeps the order given.
    """
    citation = loaded.root.citation
    sort = citation.find(f"{{{CSL_NS}}}sort")
    if sort is None or len(cites) < 2:
        return cites
    elements = sort.findall(f"{{{CSL_NS}}}key")
    keys = [key.sort_keys([item for _, item in cites], citation.layout) for key in elements]
    rendered = [_render_cite(loaded, cite, item, frozenset({"first"}), disambiguation, number)
                for cite, item in cites]
    shown = [_tie_key(r.names if r.names is not None else r.marked) for r in rendered]
    order = sorted(range(len(cites)), key=lambda i: shown[i])
    for key_element, values in reversed(list(zip(elements, keys))):
        descending = key_element.get("sort", "ascending") == "descending"
        present = [i for i in order if values[i] is not None]
        missing = [i for i in order if values[i] is None]  # empty keys last, in either direction
        present.sort(key=lambda i: _sortable(values[i]), reverse=descending)
        order = present + missing
    return [cites[i] for i in order]


def _sortable(value: Any) -> Any:
    return value if isinstance(value, (int, float, tuple)) else str(value)


def _tie_key(marked: str) -> str:
    import unicodedata

    text = unicodedata.normalize("NFKD", _plain(marked)).casefold()
    return "".join(c for c in text if c.isalnum())  # letters and digits: spaces and punctuation ignored


def _render_cite(loaded: Any, cite: Cite, item: Any, where: frozenset[str], disambiguation: Any,
                 number: dict[str, int], bare: Any = None) -> _Rendered:
    """One cite rendered at its position; with *bare* (the item without locator), whether the
    locator shows."""
    from .citation import render_cite_children

    def once(suppress: bool) -> tuple[str, str | None]:
        state = disambiguation.state(item.key, area="citation") if disambiguation else None
        context = _CiteContext(where, suppress_names=suppress)
        loaded.root.cluster_context = context
        try:
            text = render_cite_children(loaded, item, state)
        finally:
            loaded.root.cluster_context = None
        return ("" if text is None else str(text)), context.names

    marked, names = once(False)
    collapsed = once(True)[0] if names is not None else marked
    suffix = disambiguation.year_suffix(item.key) if disambiguation else None
    rendered = _Rendered(cite, item.key, marked, names, collapsed, number.get(item.key), suffix)
    if bare is not None and cite.locator is not None:  # does the style show the locator?
        rendered.locator_shown = _render_cite(loaded, Cite(cite.key), bare, where, disambiguation,
                                              number).marked != marked
    return rendered


_MARKERS = re.compile("[\ue000-\ue01f]")


def _plain(marked: str) -> str:
    return _MARKERS.sub("", marked)


def _assemble(loaded: Any, cites: list[_Rendered]) -> str:
    """The cites of one citation joined as the style's collapse and delimiters say, in its layout."""
    citation = loaded.root.citation
    layout = citation.layout
    delimiter = layout.get("delimiter", "")
    collapse = citation.get("collapse")
    group_delimiter = citation.get("cite-group-delimiter")
    after_collapse = citation.get("after-collapse-delimiter", delimiter)
    suffix_delimiter = citation.get("year-suffix-delimiter", delimiter)
    parts: list[tuple[str, str]] = []  # (text, delimiter before it)
    if collapse == "citation-number":
        parts = _collapse_numbers(cites, delimiter, after_collapse)
    elif collapse in ("year", "year-suffix", "year-suffix-ranged") or group_delimiter is not None:
        # Cites move next to the first of their group when the style sorts cites and collapses;
        # otherwise only neighbours with the same names group (citeproc-js, observed).
        moves = collapse is not None and citation.find(f"{{{CSL_NS}}}sort") is not None
        groups: dict[str, list[_Rendered]] = {}
        order: list[list[_Rendered]] = []
        previous: _Rendered | None = None
        for cite in cites:
            names = cite.names
            if names is None and collapse is not None and previous is not None and previous.key == cite.key:
                names = previous.names  # the same item again ("ibid"): its group, as citeproc-js
            previous = cite
            if names is None:
                order.append([cite])
                continue
            group = groups.get(names) if moves else (
                order[-1] if order and _group_names(order[-1]) == names else None)
            if group is None:
                group = groups[names] = []
                order.append(group)
            group.append(cite)
        within = group_delimiter if group_delimiter is not None else ", "
        previous_collapsed = False
        for group in order:
            first_delimiter = after_collapse if previous_collapsed else delimiter
            if collapse is None or len(group) == 1:
                for n, cite in enumerate(group):
                    parts.append((cite.marked, first_delimiter if n == 0 else within))
                previous_collapsed = False
                continue
            suffixes = collapse != "year" and bool(loaded.disambiguation and loaded.disambiguation.add_year_suffix)
            collapsed = _collapse_years(group, within, suffix_delimiter, suffixes=suffixes,
                                        ranged=collapse == "year-suffix-ranged")
            parts.append((collapsed[0][0], first_delimiter))
            parts.extend(collapsed[1:])
            previous_collapsed = True
    else:
        parts = [(cite.marked, delimiter) for cite in cites]
    joined = "".join(text if n == 0 else before + text for n, (text, before) in enumerate(parts))
    return str(layout.format(layout.wrap(joined)))


def _group_names(group: list[_Rendered]) -> str | None:
    return group[0].names


def _collapse_numbers(cites: list[_Rendered], delimiter: str, after_collapse: str) -> list[tuple[str, str]]:
    """Runs of three or more increasing citation numbers (cites without locator) as "first–last"."""
    parts: list[tuple[str, str]] = []
    run: list[_Rendered] = []
    previous_collapsed = False

    def flush() -> None:
        nonlocal previous_collapsed
        if len(run) >= 3:
            parts.append((run[0].marked + "\u2013" + run[-1].marked,
                          after_collapse if previous_collapsed else delimiter))
            previous_collapsed = True
        else:
            for cite in run:
                parts.append((cite.marked, after_collapse if previous_collapsed else delimiter))
                previous_collapsed = False
        run.clear()

    for cite in cites:
        if (run and cite.number is not None and run[-1].number is not None and cite.number == run[-1].number + 1
                and _bare(cite) and _bare(run[-1])):
            run.append(cite)
            continue
        flush()
        run.append(cite)
    flush()
    return parts


def _bare(cite: _Rendered) -> bool:
    """A cite without a locator it shows: only such cites join a range of numbers."""
    return cite.cite.locator is None or not cite.locator_shown


def _without_suffix(cite: _Rendered) -> str | None:
    """The collapsed cite with its year suffix taken out (None: it has none, or a locator)."""
    if cite.year_suffix is None or cite.cite.locator is not None:
        return None
    letters = year_suffix_letters(cite.year_suffix)
    text = _plain(cite.collapsed)
    found = re.search(rf"(?<=\d){re.escape(letters)}(?![a-z])", text)
    if found is None:
        return None
    return text[:found.start()] + text[found.end():]


def _collapse_years(group: list[_Rendered], within: str, suffix_delimiter: str, *, suffixes: bool,
                    ranged: bool) -> list[tuple[str, str]]:
    """The cites of a group after its first, each with the delimiter before it: names
    suppressed; with *suffixes*, a cite of the previous one's year prints only its suffix
    ("2026a, b"); *ranged*: three or more consecutive suffixes as a range ("2026a–c")."""
    chains: list[list[_Rendered]] = []  # cites of one year in a row, by suffix
    base: str | None = None
    for cite in group:
        mine = _without_suffix(cite) if suffixes else None
        if chains and mine is not None and mine == base:
            chains[-1].append(cite)
        else:
            chains.append([cite])
        base = mine
    parts: list[tuple[str, str]] = []
    for number, chain in enumerate(chains):
        texts = [chain[0].marked if number == 0 else chain[0].collapsed]
        texts += [year_suffix_letters(c.year_suffix or 0) for c in chain[1:]]
        runs: list[list[int]] = []
        for index, cite in enumerate(chain):
            if ranged and runs and cite.year_suffix == (chain[runs[-1][-1]].year_suffix or 0) + 1:
                runs[-1].append(index)
            else:
                runs.append([index])
        for n, run in enumerate(runs):
            text = texts[run[0]] if len(run) < 3 else texts[run[0]] + "\u2013" + texts[run[-1]]
            shown = [text] if len(run) >= 3 else [texts[i] for i in run]
            for m, piece in enumerate(shown):
                first_of_chain = n == 0 and m == 0
                parts.append((piece, within if first_of_chain else suffix_delimiter))
    return parts
