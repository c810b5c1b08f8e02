"""BibTeX's own rules, once, for every module that reads or writes it.

:mod:`.syntax` holds the lexical rules (entry headers, keys, names, plain.bst's month
macros, the limits, where reading resumes) and the :class:`~.syntax.Policy` table of where
the importer and the fixer read a file differently on purpose; :mod:`.scan` is the one
scanner that reads every file under one of those policies; :mod:`.reader` turns the entries
into record field values for the importer; :mod:`.fields` says which fields are imported,
which ``fix`` supersedes and the export's field order; :mod:`.names` splits a name list
(``author``, ``editor``) on ``and`` as BibTeX does, for the importer, ``fix`` and ``check``.
:mod:`.latex_encode` and :mod:`.latex_decode` turn text and markup into LaTeX and back
(with the generated :mod:`.latex_table`); :mod:`.writer` makes a paper's entry.

Here, the one whitespace rule of a field value, which the writer, the reader and both LaTeX
directions share: runs of ASCII whitespace are one space, the ends trimmed
(:func:`normalize_space`; BibTeX cannot carry a newline in a value anyway).
"""

import re

ASCII_SPACE = " \t\n\r\f\v"
SPACE_RUN = re.compile(r"[ \t\n\r\f\v]+")


def normalize_space(text: str) -> str:
    """Runs of ASCII whitespace → one space; ends trimmed (what a BibTeX value can hold)."""
    if text.isprintable() and "  " not in text and text[:1] != " " and text[-1:] != " ":
        return text  # no tab, newline or other control, no run, nothing to trim: as it is
    return SPACE_RUN.sub(" ", text).strip(ASCII_SPACE)
