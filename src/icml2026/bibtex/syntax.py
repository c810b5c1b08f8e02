"""BibTeX's lexical rules, once: entry headers, keys, the month macros, the limits.

Two readers use them: the importer's (:mod:`icml2026.importers.bibtex_syntax`: whole
entries to records, in one pass over the braces) and the fixer's (:mod:`icml2026.fix.scan`:
every block with its exact offsets and each value's source text, so that what is kept is
kept byte for byte).  Where the two read a file differently it is a policy, decided here
and tested in ``tests/test_bibtex_syntax.py``:

=================================  ===========================  ==================================
input                              import (records)             fix / check (rewrite in place)
=================================  ===========================  ==================================
``@`` on a line starting with      an entry, as BibTeX reads    not an entry: the fixer never
``%``                              it                           rewrites a commented-out entry
month macros in any case           plain.bst's value            plain.bst's value
(``jan``, ``JAN``)                 (``January``)                (``January``)
a field given twice                an error of the entry (a     the first one, as BibTeX uses it
                                   record never silently        ("I'm ignoring …'s extra field");
                                   drops a value)               both are kept in the file
text after an early ``}`` that     an error of the entry (the   ignored, as BibTeX ignores text
looks like more of the entry       record would lose fields)    between entries; kept as it is
=================================  ===========================  ==================================
"""

from __future__ import annotations

import re

# What a reader accepts: an input of at most this many characters, values of at most
# MAX_FIELD_CHARS (five times the longest abstract the schema accepts).
MAX_INPUT_CHARS = 64 * 1024 * 1024
MAX_FIELD_CHARS = 100_000
MAX_SHOWN = 60  # characters of a value quoted in a message

# ``@type{`` or ``@type(``: the entry type and its opening delimiter.
HEADER = re.compile(r"@[ \t]*([A-Za-z][\w-]*)[ \t\r\n]*([{(])")
# The citation key after the opening delimiter, up to its comma.
KEY = re.compile(r"[ \t\r\n]*([^,\s{}()=\"#%'~\\]+)[ \t\r\n]*,")
# Where reading resumes after a block that never closes: the next line that starts with '@'.
RESYNC = re.compile(r"\n[ \t]*@")

# plain.bst's month macros (``MACRO {jan} {"January"}`` …); macro names have no case in BibTeX.
MONTHS = {m[:3].lower(): m for m in ("January", "February", "March", "April", "May", "June", "July",
                                     "August", "September", "October", "November", "December")}


def shown(text: str) -> str:
    """*text* quoted for a message, cut to :data:`MAX_SHOWN` characters."""
    return repr(text if len(text) <= MAX_SHOWN else text[:MAX_SHOWN - 1] + "…")


def resync(text: str, start: int) -> int:
    """The offset where reading resumes after a block from *start* that never closes."""
    match = RESYNC.search(text, start)
    return match.start() + 1 if match else len(text)
