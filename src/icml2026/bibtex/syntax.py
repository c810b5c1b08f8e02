"""BibTeX's lexical rules, once: entry headers, keys, names, the month macros, the limits,
and the :class:`Policy` of where import and fix read a file differently.

One scanner (:func:`icml2026.bibtex.scan.scan`) reads every file: the importer's
(:mod:`icml2026.bibtex.reader`, whole entries to records) and the fixer's and checker's
(:mod:`icml2026.fix`, :mod:`icml2026.check`: every block with its exact offsets and each
value's source text, so that what is kept is kept byte for byte) are the same scan under
two policies, :data:`IMPORT` and :data:`FIX`.  Where they differ it is decided here and
tested in ``tests/test_bibtex_syntax.py``:

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
an undefined ``@string`` macro     an error of the entry in a   empty text, as BibTeX has it
                                   field it imports (and in a
                                   ``@string``), else empty
a value longer than                an error of the entry        read (the entry is only matched)
:data:`MAX_FIELD_CHARS`
=================================  ===========================  ==================================

Everything else is one rule for both: a block is delimited by counting braces (a line
starting with ``@`` inside a braced value is text); an ``@type(…)`` entry ends at the
``)`` after its last field (a ``)`` inside a quoted value, ``"(M)LLMs"``, does not close
it); field and macro names are BibTeX's identifiers (:data:`NAME`: not starting with a
digit); a number is ASCII digits (``2024a`` is a number and then text, an error);
``@misc{key}`` is an entry with a key and no fields; fields need commas between them,
in ``@string`` too; braces nested deeper than :data:`MAX_DEPTH` make the entry unreadable;
values are NFC.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .fields import IMPORTED

# What a reader accepts: an input of at most this many characters, values of at most
# MAX_FIELD_CHARS (five times the longest abstract the schema accepts).
MAX_INPUT_CHARS = 64 * 1024 * 1024
MAX_FIELD_CHARS = 100_000
MAX_SHOWN = 60  # characters of a value quoted in a message
# Braces nested deeper than this make the entry unreadable: no real title needs it, and the
# LaTeX decoder behind import and matching recurses once per level.
MAX_DEPTH = 40

# ``@type{`` or ``@type(``: the entry type and its opening delimiter.
HEADER = re.compile(r"@[ \t]*([A-Za-z][\w-]*)[ \t\r\n]*([{(])")
# The citation key after the opening delimiter, up to its comma.
KEY = re.compile(r"[ \t\r\n]*([^,\s{}()=\"#%'~\\]+)[ \t\r\n]*,")
# A key with nothing after it (``@misc{key}``); matched up to the closing delimiter.
KEY_ONLY = re.compile(r"[ \t\r\n]*([^,\s{}()=\"#%'~\\]+)[ \t\r\n]*$")
# A field or macro name: BibTeX's identifier, which does not start with a digit.
NAME = re.compile(r"[^\s0-9=,{}()\"#%'\\][^\s=,{}()\"#%'\\]*")
# Where reading resumes after a block that never closes: the next line that starts with '@'.
RESYNC = re.compile(r"\n[ \t]*@")

# plain.bst's month macros (``MACRO {jan} {"January"}`` …); macro names have no case in BibTeX.
MONTHS = {m[:3].lower(): m for m in ("January", "February", "March", "April", "May", "June", "July",
                                     "August", "September", "October", "November", "December")}


@dataclass(frozen=True, slots=True)
class Policy:
    """How the scanner reads a file where import and fix differ (the table above)."""

    commented_entries: bool  # an '@' on a line starting with '%' begins an entry (BibTeX) or not
    repeated_field_error: bool  # a field given twice is an error of the entry, or both are kept
    leftover_error: bool  # text after an early '}' that looks like more of the entry is an error
    # The fields where an undefined macro is an error (then in ``@string`` values too); None:
    # an undefined macro is empty text everywhere.
    macro_errors: frozenset[str] | None
    max_value: int | None  # a longer value is an error of the entry; None: no limit
    read_fields: bool = True  # False: blocks, keys and lines only (no field is read)


IMPORT = Policy(commented_entries=True, repeated_field_error=True, leftover_error=True,
                macro_errors=IMPORTED, max_value=MAX_FIELD_CHARS)
FIX = Policy(commented_entries=False, repeated_field_error=False, leftover_error=False,
             macro_errors=None, max_value=None)
# Where the entries of a file are and whether they close, as the importer delimits them.
OUTLINE = Policy(commented_entries=True, repeated_field_error=False, leftover_error=False,
                 macro_errors=None, max_value=None, read_fields=False)


def shown(text: str) -> str:
    """*text* quoted for a message, cut to :data:`MAX_SHOWN` characters."""
    return repr(text if len(text) <= MAX_SHOWN else text[:MAX_SHOWN - 1] + "…")


def resync(text: str, start: int) -> int:
    """The offset where reading resumes after a block from *start* that never closes."""
    match = RESYNC.search(text, start)
    return match.start() + 1 if match else len(text)
