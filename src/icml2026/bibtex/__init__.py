"""BibTeX's own rules, once, for every module that reads or writes it.

:mod:`.syntax` holds the lexical rules both readers share (entry headers, keys, plain.bst's
month macros, the limits, where reading resumes) and the policy table of where the
importer and the fixer read a file differently on purpose; :mod:`.names` splits a name list
(``author``, ``editor``) on ``and`` as BibTeX does, for the importer, ``fix`` and ``check``.
"""
