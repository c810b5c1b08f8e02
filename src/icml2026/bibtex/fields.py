"""Which BibTeX fields the package reads and which ones ``fix`` replaces: data, once.

:data:`IMPORTED` are the fields ``icml2026 import`` turns into record fields (an undefined
``@string`` macro in one of them is an error of the entry; in any other field it is empty
text, as BibTeX has it).  :data:`SUPERSEDED` are the fields that describe a publication:
``fix`` replaces them by the verified entry's, even where that entry has no value, since
the user's value belongs to another version (``journal = {arXiv preprint …}``).
:data:`BIBLATEX_ONLY` are the fields only BibLaTeX has: an entry with one of them is
replaced by the BibLaTeX entry under ``fix --format auto``.  :data:`BIBTEX_FIELDS` and
:data:`BIBLATEX_FIELDS` are the fields the exports write, in their order (the writer,
:mod:`icml2026.bibtex.writer`, fills them).
"""

from __future__ import annotations

# Entry types the importer makes paper records of; a ``@proceedings`` entry is a volume's header.
PAPER_TYPES = frozenset({"inproceedings", "conference", "article", "incollection", "misc",
                         "techreport", "unpublished"})
HEADER_TYPE = "proceedings"

IMPORTED = frozenset({
    "title", "author", "editor", "booktitle", "year", "date", "pages", "abstract", "volume", "series",
    "publisher", "address", "issn", "openreview", "software", "pdf", "url", "doi", "eprint", "archiveprefix",
    "eprinttype", "langid", "language", "crossref", "name", "shortname", "start", "end", "published",
    "conference_url", "conference_number"})

SUPERSEDED = frozenset((
    "title", "author", "booktitle", "journal", "journaltitle", "eventtitle", "eventdate", "venue", "year",
    "date", "month", "pages", "volume", "number", "issue", "series", "editor", "publisher", "organization",
    "institution", "school", "address", "location", "howpublished", "type", "doi", "url", "urldate", "pdf",
    "openreview", "eprint", "eprinttype", "eprintclass", "archiveprefix", "primaryclass", "arxivid", "arxiv",
    "isbn", "issn", "crossref", "biburl", "bibsource", "timestamp", "software",
))

BIBLATEX_ONLY = frozenset(("date", "journaltitle", "eventtitle", "eventdate", "location",
                           "xdata", "maintitle", "origdate", "shorthand"))

# The fields of an exported entry, in the order the writer writes them.
BIBTEX_FIELDS = (
    "title", "author", "booktitle", "pages", "year", "editor", "volume", "series", "publisher",
    "address", "doi", "url", "openreview", "eprint", "archiveprefix", "eprinttype",
    "software", "abstract",
)
BIBLATEX_FIELDS = (
    "title", "author", "booktitle", "pages", "date", "editor", "volume", "series", "publisher",
    "address", "langid", "doi", "url", "eprint", "eprinttype", "abstract",
)
