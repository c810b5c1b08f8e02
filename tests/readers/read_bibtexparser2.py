"""Test-only: read BibTeX from stdin with bibtexparser 2 (its LaTeX-decoding middleware) and print
key, title and author names as JSON.  Run in a separate environment (bibtexparser 1.4 is the
package's own), by tests/test_readers.py."""

import json
import sys

import bibtexparser
from bibtexparser import middlewares as m

library = bibtexparser.parse_string(sys.stdin.read(), append_middleware=[
    m.LatexDecodingMiddleware(), m.SeparateCoAuthors(), m.SplitNameParts()])
out = []
for entry in library.entries:
    names = []
    for name in entry.fields_dict["author"].value:
        names.append(" ".join(p for p in (" ".join(name.first), " ".join(name.von), " ".join(name.last)) if p))
    out.append({"key": entry.key, "title": entry.fields_dict["title"].value, "authors": names})
json.dump(out, sys.stdout, ensure_ascii=False)
